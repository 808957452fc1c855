"""The way up when the text and everything else quarrel (session 13), on arrays.

The glyphs' votes are summed as if each were independent evidence, but a script the glyph model never learned (the
Russian edition's pad) or one blur misleads them all alike: a confident text could outvote the printed peaks and the
margins by a little and read the sheet turned without asking. `vision.orient.text_quarrel` measures the quarrel;
the lead that settles the way up grows with it (`needed_lead`), and `symbols_matter` still skips the drawn symbols
only where they cannot change the decision.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cartographers.data import MAPS
from vision import orient, upright
from vision.orient import (
    SURE_LEAD,
    SURE_LEAD_QUARTER,
    SYMBOL_CAP,
    SYMBOL_WEIGHT,
    TEXT_CONFLICT,
    UNSCORED,
    needed_lead,
    orient_lattice,
    symbols_matter,
    text_quarrel,
    text_share,
)

from .test_vision_upright import CELL, X0, _lattice, _sheet

needs_model = pytest.mark.skipif(not upright.available(), reason="vision/data/glyphs.npz is not shipped")


def test_no_quarrel_when_the_text_agrees_or_is_silent():
    per_turn = [1.0, 0.2, 0.4, 0.1]
    assert text_quarrel(per_turn, np.zeros(4), 0) == 0.0
    assert text_quarrel(per_turn, np.array([0.0, -0.3, -0.2, -0.6]), 0) == 0.0  # the text says turn 0 too


def test_the_quarrel_is_the_weaker_side_and_only_about_the_half_turn():
    # turn 0 wins by 0.27 over the half turn: the rest says 0 by 0.83, the text says 2 by 0.56
    text = np.array([-0.56, 0.0, 0.0, -0.6])
    assert text_quarrel([0.27, -1.0, 0.0, -1.0], text, 0) == pytest.approx(0.56)
    assert needed_lead(0, 2, 0.56) == pytest.approx(SURE_LEAD + TEXT_CONFLICT * 0.56)
    assert needed_lead(0, 1) == SURE_LEAD_QUARTER
    # the text prefers the quarter turn 1 too, but a quarter turn has its own, larger lead to beat: no quarrel there
    assert text_quarrel([0.27, -1.0, -2.0, -1.0], np.array([-0.56, 0.0, -0.56, -0.6]), 0) == 0.0
    assert text_quarrel([0.27, -1.0, -UNSCORED, -1.0], text, 0) == 0.0  # the half turn not scored: no rival


def _decision(per_turn: np.ndarray, text: np.ndarray) -> tuple[int, bool]:
    """The way up and whether it is asked, by the lead rules alone (no paper cues)."""
    k = int(np.argmax(per_turn))
    half = (k + 2) % 4
    quarrel = text_quarrel(list(per_turn), text, k)
    unsure = any(per_turn[k] - per_turn[j] < needed_lead(k, j, quarrel if j == half else 0.0)
                 for j in range(4) if j != k)
    return k, unsure


@settings(max_examples=1500, deadline=None)
@given(base=st.lists(st.floats(-2, 2), min_size=4, max_size=4), text=st.lists(st.floats(-0.6, 0), min_size=4,
       max_size=4), sym=st.lists(st.floats(0, 1), min_size=4, max_size=4))
def test_symbols_skipped_only_where_they_cannot_change_the_decision(base, text, sym):
    """`symbols_matter` False ⇒ any vote of the drawn symbols (each turn loses 0..SYMBOL_WEIGHT·SYMBOL_CAP) leaves the
    way up and the question as they were."""
    base_a, text_a = np.array(base), np.array(text)
    if symbols_matter(list(base_a), np.zeros(4), False, text_a):
        return
    votes = -SYMBOL_WEIGHT * SYMBOL_CAP * np.array(sym)
    assert _decision(base_a + votes, text_a) == _decision(base_a, text_a)


def _glyphs_turned_in_place_sheet() -> np.ndarray:
    """The layout upright (the title above, row letters left, numbers below) but every label drawn turned round
    where it stands, as a script the glyph model misreads, and the mountains square (no peak to point up): the
    text says "half turn", the layout "upright"."""
    grid = _sheet("A", labels=False, header=False)
    labels = np.where(_sheet("A") < grid, _sheet("A"), 236).astype(np.uint8)
    ink = (labels.min(axis=2) < 200).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(cv2.dilate(ink, np.ones((9, 25), np.uint8)))
    out = grid.copy()
    for x, y, w, h, _ in stats[1:n]:
        box = labels[y : y + h, x : x + w]
        out[y : y + h, x : x + w] = np.minimum(out[y : y + h, x : x + w], box[::-1, ::-1])
    for r, c in MAPS["A"].mountains:
        x, y = X0 + c * CELL, X0 + r * CELL
        cv2.rectangle(out, (x + 4, y + 4), (x + 44, y + 44), (236, 236, 236), -1)
        cv2.rectangle(out, (x + 8, y + 8), (x + 40, y + 40), (70, 70, 90), -1)
    return out


@needs_model
def test_a_text_that_quarrels_with_the_layout_is_asked_not_followed(monkeypatch):
    img = _glyphs_turned_in_place_sheet()
    o = orient_lattice(img, _lattice())
    share = text_share(upright.TextVotes(np.array(o.text), o.glyphs))
    half = (o.k + 2) % 4
    text_lead = share[o.k] - share[half]
    rest_lead = (o.turn_totals[o.k] - o.turn_totals[half]) - text_lead
    assert text_lead * rest_lead < 0  # a real quarrel: the two halves of the evidence point opposite ways
    assert o.turn_totals[o.k] - o.turn_totals[half] > SURE_LEAD  # a lead that used to settle it
    assert o.unsure  # now the player is asked which edge is the top
    monkeypatch.setattr(orient, "TEXT_CONFLICT", 0.0)
    assert not orient_lattice(img, _lattice()).unsure  # the quarrel is what asks


@needs_model
def test_an_upright_sheet_is_still_read_without_asking():
    o = orient_lattice(_sheet("B"), _lattice())
    assert o.k == 0 and not o.unsure
