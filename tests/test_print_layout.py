"""Sheet geometry invariants: everything on the page, nothing overlapping, quiet zones around the markers."""

from __future__ import annotations

import itertools

import pytest

from companion.cartographers.data import COIN_TRACK_LENGTH, GRID_SIZE
from printables.layout import MARKER_CORNERS, MARKER_GAP_PT, MARKER_IDS, PAPERS, SIDES, Rect, sheet_layout

COMBOS = [(s, p) for s in SIDES for p in PAPERS]
PRINTER_MARGIN_PT = 20.0  # most printers cannot print the outer ~5 mm


def _boxes(side: str, paper: str) -> dict[str, Rect]:
    lay = sheet_layout(side, paper)
    g = lay.grid
    boxes = {"grid": Rect(g.x_pt, g.y_pt, lay.grid_size_pt, lay.grid_size_pt), "qr": lay.qr, "title": lay.title}
    boxes |= {f"marker_{m.corner}": Rect(m.x_pt, m.y_pt, m.size_pt, m.size_pt) for m in lay.markers}
    boxes |= {f"legend_{c.terrain}": Rect(c.x_pt, c.y_pt, c.cell_pt, c.cell_pt) for c in lay.legend}
    boxes |= {f"coin_{i}": Rect(c.x_pt, c.y_pt, c.d_pt, c.d_pt) for i, c in enumerate(lay.coins)}
    boxes |= {f"score_{b.season}_{b.field}": Rect(b.x_pt, b.y_pt, b.w_pt, b.h_pt) for b in lay.score_boxes}
    return boxes


def _grow(r: Rect, d: float) -> Rect:
    return Rect(r.x_pt - d, r.y_pt - d, r.w_pt + 2 * d, r.h_pt + 2 * d)


def _overlap(a: Rect, b: Rect, tol: float = 0.05) -> bool:
    """True when the rectangles share area (touching edges, e.g. adjacent score boxes, do not count)."""
    return (a.x_pt + tol < b.x_pt + b.w_pt and b.x_pt + tol < a.x_pt + a.w_pt
            and a.y_pt + tol < b.y_pt + b.h_pt and b.y_pt + tol < a.y_pt + a.h_pt)


@pytest.mark.parametrize(("side", "paper"), COMBOS)
def test_everything_is_on_the_printable_page(side: str, paper: str) -> None:
    lay = sheet_layout(side, paper)
    assert (lay.page_w_pt, lay.page_h_pt) == PAPERS[paper]
    for name, r in _boxes(side, paper).items():
        assert r.x_pt >= PRINTER_MARGIN_PT and r.y_pt >= PRINTER_MARGIN_PT, name
        assert r.x_pt + r.w_pt <= lay.page_w_pt - PRINTER_MARGIN_PT, name
        assert r.y_pt + r.h_pt <= lay.page_h_pt - PRINTER_MARGIN_PT, name


@pytest.mark.parametrize(("side", "paper"), COMBOS)
def test_nothing_overlaps_and_markers_and_qr_keep_quiet_zones(side: str, paper: str) -> None:
    boxes = _boxes(side, paper)
    for (na, a), (nb, b) in itertools.combinations(boxes.items(), 2):
        assert not _overlap(a, b), (na, nb)
    lay = sheet_layout(side, paper)
    for m in lay.markers:
        quiet = _grow(Rect(m.x_pt, m.y_pt, m.size_pt, m.size_pt), m.size_pt / 6)  # one module of white
        for name, r in boxes.items():
            if name != f"marker_{m.corner}":
                assert not _overlap(quiet, r), (m.corner, name)
    for name, r in boxes.items():
        if name != "qr":
            assert not _overlap(_grow(lay.qr, 6.0), r), name


@pytest.mark.parametrize(("side", "paper"), COMBOS)
def test_markers_frame_the_grid_corners_with_the_side_ids(side: str, paper: str) -> None:
    lay = sheet_layout(side, paper)
    g = lay.grid
    size = lay.grid_size_pt
    assert (lay.rows, lay.cols) == (GRID_SIZE, GRID_SIZE)
    assert [m.corner for m in lay.markers] == list(MARKER_CORNERS)
    assert tuple(m.id for m in lay.markers) == MARKER_IDS[side]
    tl, tr, br, bl = lay.markers
    assert tl.x_pt + tl.size_pt + MARKER_GAP_PT == pytest.approx(g.x_pt)
    assert tl.y_pt + tl.size_pt + MARKER_GAP_PT == pytest.approx(g.y_pt)
    assert tr.x_pt - MARKER_GAP_PT == pytest.approx(g.x_pt + size)
    assert br.y_pt - MARKER_GAP_PT == pytest.approx(g.y_pt + size)
    assert bl.x_pt == pytest.approx(tl.x_pt) and br.x_pt == pytest.approx(tr.x_pt)
    # Cells large enough to draw in (the game's own pad has ~13 mm cells).
    assert g.cell_pt * 25.4 / 72 >= 12.0


@pytest.mark.parametrize(("side", "paper"), COMBOS)
def test_legend_coins_and_score_boxes_are_complete(side: str, paper: str) -> None:
    lay = sheet_layout(side, paper)
    assert [c.terrain for c in lay.legend] == ["forest", "village", "farm", "water", "monster"]
    assert all(c.cell_pt == lay.grid.cell_pt for c in lay.legend)  # same size as a map cell
    assert len(lay.coins) == COIN_TRACK_LENGTH
    xs = [c.x_pt for c in lay.coins]
    assert xs == sorted(xs) and len({c.y_pt for c in lay.coins}) == 1
    fields = ["edict1", "edict2", "coins", "monsters", "total"]
    for s in range(4):
        assert [b.field for b in lay.score_boxes if b.season == s] == fields
    assert [b.field for b in lay.score_boxes if b.season == -1] == ["total"]
    assert all(b.w_pt >= 18 for b in lay.score_boxes)  # room for two handwritten digits
