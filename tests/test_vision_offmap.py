"""A grid off the map: when the read side's mountain cells look no more alike to the cell model than any five
cells, the lattice is not on the map and every cell read is doubted (`vision.sidelook.grid_off_map`,
`vision.cellread.doubt_sheet`, wired in `vision.reading`)."""

from __future__ import annotations

import numpy as np
import pytest

from companion.cartographers.board import ALL_CELLS
from companion.cartographers.data import MAPS
from vision.cellread import SHEET_DOUBT_CAP, doubt_sheet
from vision.cells import GroupInfo
from vision.geometry import printed_cells
from vision.sidelook import MOUNTAINS_ALIKE, grid_off_map, look_margin, side_likeness
from vision.wayup import printed_mask


def features(printed_side: str | None, seed: int = 0) -> np.ndarray:
    """Cell features of a sheet as the cell model sees it. On the map (`printed_side`): five drawn looks, and
    that side's mountains one look of their own. Off it (None): every "cell" a window across lines, frame and
    parts of cells, no two alike."""
    rng = np.random.default_rng(seed)
    if printed_side is None:
        return rng.standard_normal((121, 64))
    looks = rng.standard_normal((6, 16))
    emb = looks[rng.integers(1, 6, 121)] + 0.3 * rng.standard_normal((121, 16))
    for r, c in MAPS[printed_side].mountains:
        emb[r * 11 + c] = looks[0] + 0.05 * rng.standard_normal(16)
    return emb


@pytest.mark.parametrize("side", ["A", "B"])
def test_mountains_alike_on_the_map_and_not_off_it(side):
    own, other = side_likeness(ALL_CELLS, features(side), side)
    assert own > MOUNTAINS_ALIKE > other
    assert look_margin(ALL_CELLS, features(side), side) == pytest.approx(own - other)
    assert not grid_off_map(own)
    for seed in range(5):  # the side's five cells on windows of every kind: no more alike than any five
        off, _ = side_likeness(ALL_CELLS, features(None, seed), side)
        assert off < MOUNTAINS_ALIKE and grid_off_map(off)


def test_unmeasured_is_not_off_the_map():
    assert not grid_off_map(None)  # markers, a side given, Heroes sides: the look is not measured
    assert grid_off_map(MOUNTAINS_ALIKE - 1e-9) and not grid_off_map(MOUNTAINS_ALIKE)


def test_doubt_sheet_caps_every_cell_but_the_tapped_square():
    conf = np.full((11, 11), 0.95)
    conf[0, 0] = 0.3  # already doubtful: stays as it is
    groups = [GroupInfo(1, [(3, 3), (3, 4)], (3, 3), "forest", 1.0, "given"),
              GroupInfo(2, [(6, 6)], (6, 6), "water", 0.9, "colour")]
    assert doubt_sheet(conf, groups) == 121 - 2  # less the tapped square and (0, 0)
    assert conf[0, 0] == 0.3 and conf[3, 3] == 0.95 and conf[3, 4] == SHEET_DOUBT_CAP and conf[6, 6] == SHEET_DOUBT_CAP
    # the printed cells too: the side that places them was told by the same mountains
    assert np.all(conf[printed_mask(printed_cells("A"))] == SHEET_DOUBT_CAP)


def test_a_reading_whose_mountains_look_unalike_is_doubted_whole(monkeypatch):
    """A generic print read by the whole reader: as it is, not doubted; with the side's mountains made to look
    like nothing alike (as on a lattice found off the map), every cell is shown to check, the printed ones too."""
    from bench.photogen2 import generate
    from vision import reading

    p = generate("generic", "marker", "normal", 4)
    r = reading.read_sheet(p.jpeg, overlay=False)
    assert not any(w.code == "sheet_doubtful" for w in r.notes)
    printed = printed_mask(printed_cells(r.side))
    assert (np.asarray(r.confidence)[~printed] >= 0.7).sum() > 60
    monkeypatch.setattr(reading, "side_likeness", lambda cells, emb, side: (0.0, 0.0))
    d = reading.read_sheet(p.jpeg, overlay=False)
    assert d.grid == r.grid and any(w.code == "sheet_doubtful" for w in d.notes)
    assert np.all(np.asarray(d.confidence) <= SHEET_DOUBT_CAP + 1e-6)  # float32
