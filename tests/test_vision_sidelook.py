"""vision.sidelook: the side of an unmarked sheet checked by how alike its mountain cells look to the cell model."""

from __future__ import annotations

import numpy as np
import pytest

from companion.cartographers.board import ALL_CELLS
from companion.cartographers.data import MAPS
from vision.sidelook import LOOK_SWITCH, likeness, look_margin, other_side_by_look


def features(printed_side: str, seed: int = 0, spread: float = 0.3) -> np.ndarray:
    """Cell features of a sheet of side `printed_side`: its mountains share one look (plus a little noise), every
    other cell looks like some drawn terrain (five looks, noisier)."""
    rng = np.random.default_rng(seed)
    looks = rng.standard_normal((6, 16))
    emb = looks[rng.integers(1, 6, 121)] + spread * rng.standard_normal((121, 16))
    for r, c in MAPS[printed_side].mountains:
        emb[r * 11 + c] = looks[0] + 0.05 * rng.standard_normal(16)
    return emb


@pytest.mark.parametrize("truth", ["A", "B"])
def test_the_true_sides_mountains_look_alike_and_a_wrong_guess_is_turned_over(truth):
    other = "B" if truth == "A" else "A"
    emb = features(truth)
    assert look_margin(ALL_CELLS, emb, truth) > LOOK_SWITCH
    assert look_margin(ALL_CELLS, emb, other) == pytest.approx(-look_margin(ALL_CELLS, emb, truth))
    assert other_side_by_look(other, look_margin(ALL_CELLS, emb, other)) == truth
    assert other_side_by_look(truth, look_margin(ALL_CELLS, emb, truth)) is None


def test_no_switch_without_a_clear_lead_or_off_the_base_sides():
    rng = np.random.default_rng(3)
    emb = rng.standard_normal((121, 16))  # nothing printed looks like anything: no lead either way
    assert abs(look_margin(ALL_CELLS, emb, "A")) < LOOK_SWITCH
    assert other_side_by_look("A", look_margin(ALL_CELLS, emb, "A")) is None
    assert other_side_by_look("C", -1.0) is None  # Heroes sides are not told this way


def test_likeness_is_within_less_the_rest():
    unit = np.eye(4)[[0, 0, 1, 2]].astype(float)
    sim = unit @ unit.T  # the cells' cosine similarities
    assert likeness(sim, [0, 1]) == pytest.approx(1.0)  # alike each other, unlike the others
    assert likeness(sim, [2, 3]) == pytest.approx(0.0)
    assert likeness(sim, [0]) == 0.0


def test_a_reading_on_the_wrong_side_is_read_again_on_the_side_its_mountains_show(monkeypatch):
    """A generic print read by the whole reader: when the location stage picks the wrong side (forced here by
    handing it the other side as if the cues had chosen it), the mountains' look turns the reading over to the
    true side, with its printed cells where that side prints them."""
    from bench.photogen2 import generate
    from vision import reading

    p = generate("generic", "marker", "normal", 4)
    truth, wrong = p.truth["side"], "B" if p.truth["side"] == "A" else "A"
    assert reading.read_sheet(p.jpeg, overlay=False).side == truth
    real = reading.locate
    picked = []

    def fooled(image, gray, side, quarter_turns=None):
        picked.append(side)
        return real(image, gray, side or wrong, quarter_turns)

    monkeypatch.setattr(reading, "locate", fooled)
    r = reading.read_sheet(p.jpeg, overlay=False)
    assert picked == [None, truth] and r.side == truth
    assert all(r.grid[m][c] == "mountain" for m, c in MAPS[truth].mountains)
