"""The paper's own lines taken out of the cells, on arrays: notebook rulings (long, straight, parallel, at the page's
pitch, a little tilted against a grid ruled by hand), pieces of an uneven hand-drawn grid, and what must stay — a
symbol's strokes, strokes in a few neighbouring cells that happen to line up, a stroke crossing a ruling, a fill."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import paperlines as pl

CELL = 57
X0 = Y0 = 40  # grid origin in the test image
SIZE = 2 * X0 + 11 * CELL


def grid_box() -> tuple[float, float, float, float]:
    return (X0, Y0, X0 + 11 * CELL, Y0 + 11 * CELL)


def page(rng=None) -> np.ndarray:
    """Blank white paper (float BGR, paper = 1) with a little grain."""
    rng = rng or np.random.default_rng(0)
    return np.clip(1.0 + rng.normal(0, 0.01, (SIZE, SIZE, 3)), 0, 1.1).astype(np.float32)


def draw(img: np.ndarray, mask: np.ndarray, colour_bgr, strength: float = 1.0) -> np.ndarray:
    """Multiply ink of `colour_bgr` into `img` through `mask` (0..1): ink layers multiply, as on paper."""
    col = np.asarray(colour_bgr, np.float32)
    return img * (1.0 - strength * mask[..., None] * (1.0 - col))


def rulings_mask(pitch: float, slope: float, width: int = 2, phase: float = 7.0) -> np.ndarray:
    m = np.zeros((SIZE, SIZE), np.float32)
    y = phase
    while y < SIZE:
        cv2.line(m, (0, int(round(y))), (SIZE - 1, int(round(y + slope * SIZE))), 1.0, width, cv2.LINE_AA)
        y += pitch
    return cv2.GaussianBlur(m, (0, 0), 0.8)


def hand_grid_mask(rng, jitter: float = 0.1, width: int = 3) -> np.ndarray:
    """12 + 12 lines ruled by hand: each line a little off its place, bent, with a kink half-way."""
    m = np.zeros((SIZE, SIZE), np.float32)
    for k in range(12):
        base = k * CELL + rng.uniform(-jitter, jitter) * CELL
        bend = rng.uniform(-3, 3)
        t = np.linspace(0, 11 * CELL, 23)
        pos = base + bend * np.sin(np.pi * t / t[-1]) + np.where(t > t[-1] / 2, rng.uniform(-2, 2), 0)
        pts_h = np.stack([X0 + t, Y0 + pos], 1)
        pts_v = np.stack([X0 + pos, Y0 + t], 1)
        for pts in (pts_h, pts_v):
            cv2.polylines(m, [np.round(pts).astype(np.int32)], False, 1.0, width, cv2.LINE_AA)
    return cv2.GaussianBlur(m, (0, 0), 0.7)


def ink(img: np.ndarray) -> np.ndarray:
    return np.clip(1.0 - img.min(axis=2), 0, 1)


def inner(a: np.ndarray, r: int, c: int, margin: float = 0.15) -> np.ndarray:
    m = int(CELL * margin)
    return a[Y0 + r * CELL + m : Y0 + (r + 1) * CELL - m, X0 + c * CELL + m : X0 + (c + 1) * CELL - m]


def tree_mask(r: int, c: int) -> np.ndarray:
    m = np.zeros((SIZE, SIZE), np.float32)
    x, y = X0 + c * CELL, Y0 + r * CELL
    tri = np.array([[x + 28, y + 10], [x + 14, y + 40], [x + 42, y + 40]], np.int32)
    cv2.polylines(m, [tri], True, 1.0, 2, cv2.LINE_AA)
    cv2.line(m, (x + 28, y + 40), (x + 28, y + 50), 1.0, 2, cv2.LINE_AA)
    return m


BLUE_RULING = (0.85, 0.72, 0.55)  # light blue notebook ruling (BGR)
GRAPHITE = (0.35, 0.35, 0.35)


def test_notebook_rulings_are_taken_out_and_a_symbol_stays():
    rng = np.random.default_rng(3)
    img = draw(page(rng), rulings_mask(0.6 * CELL, -0.03), BLUE_RULING)
    img = draw(img, tree_mask(4, 5), GRAPHITE)
    before = ink(img)
    out = pl.remove_paper_lines(img, grid_box())
    after = ink(out.image)
    assert len(out.rows) >= 18 and sum(ln.kind == "ruling" for ln in out.rows) >= 6  # some lie along grid edges
    empty = [(r, c) for r in range(11) for c in range(11) if (r, c) != (4, 5)]
    # an empty cell's ink falls to paper grain; the tree keeps nearly all of its ink
    assert max(float(inner(before, r, c).mean()) for r, c in empty) > 0.02
    cleaned = [float(inner(after, r, c).mean()) for r, c in empty]
    assert max(cleaned) < 0.016 and np.median(cleaned) < 0.01  # blank paper's grain: 0.009
    tree = tree_mask(4, 5) > 0.5
    assert float(after[tree].mean()) > 0.85 * float(before[tree].mean())


def test_squared_paper_lines_both_ways_are_taken_out():
    rng = np.random.default_rng(4)
    m = rulings_mask(CELL / 2, 0.0, phase=Y0 + 0.4)
    img = draw(page(rng), np.maximum(m, m.T), (0.85, 0.8, 0.75))
    out = pl.remove_paper_lines(img, grid_box())
    assert len(out.rows) >= 18 and len(out.cols) >= 18
    after = ink(out.image)
    assert max(float(inner(after, r, c, 0.08).mean()) for r in range(11) for c in range(11)) < 0.015


def test_an_uneven_hand_drawn_grid_is_taken_out_of_the_cells():
    rng = np.random.default_rng(5)
    img = draw(page(rng), hand_grid_mask(rng), (0.15, 0.12, 0.1))
    before, after = ink(img), ink(pl.remove_paper_lines(img, grid_box()).image)
    near_edge = [float(inner(before, r, c, 0.02).mean()) for r in range(11) for c in range(11)]
    cleaned = [float(inner(after, r, c, 0.02).mean()) for r in range(11) for c in range(11)]
    assert np.median(near_edge) > 0.04  # the crops hold pieces of the drawn lines …
    assert np.median(cleaned) < 0.012 and max(cleaned) < 0.03  # … and no longer


def test_strokes_that_line_up_in_a_few_cells_are_not_a_ruling():
    """Farm furrows drawn straight across four neighbouring cells at the same height: a ruling runs across the
    whole row, a drawing stays in its cells."""
    rng = np.random.default_rng(6)
    m = np.zeros((SIZE, SIZE), np.float32)
    for c in range(3, 7):
        x = X0 + c * CELL
        for dy in (18, 28, 38):
            cv2.line(m, (x + 12, Y0 + 5 * CELL + dy), (x + 45, Y0 + 5 * CELL + dy), 1.0, 2, cv2.LINE_AA)
    img = draw(page(rng), m, GRAPHITE)
    out = pl.remove_paper_lines(img, grid_box())
    assert not [ln for ln in out.rows + out.cols if ln.kind == "ruling"]
    before, after = ink(img), ink(out.image)
    for c in range(3, 7):
        assert float(inner(after, 5, c).mean()) > 0.9 * float(inner(before, 5, c).mean())


def test_a_stroke_crossing_a_ruling_keeps_its_darkness():
    rng = np.random.default_rng(7)
    rul = rulings_mask(0.6 * CELL, 0.0, phase=Y0 + 0.3 * CELL)
    img = draw(page(rng), rul, BLUE_RULING)
    stroke = np.zeros((SIZE, SIZE), np.float32)
    x = X0 + 5 * CELL + 28
    cv2.line(stroke, (x, Y0 + 3 * CELL + 5), (x, Y0 + 3 * CELL + 52), 1.0, 2, cv2.LINE_AA)
    img = draw(img, stroke, GRAPHITE)
    out = ink(pl.remove_paper_lines(img, grid_box()).image)
    on = stroke > 0.9
    crossing = on & (rul > 0.5)
    assert crossing.any()
    # where the stroke crosses a ruling it is as dark as the stroke alone (1 − 0.35 = 0.65), not blanked
    assert float(out[crossing].mean()) == pytest.approx(0.65, abs=0.06)
    assert float(out[on & (rul < 0.05)].mean()) == pytest.approx(0.65, abs=0.06)


def test_a_fill_the_ruling_runs_through_stays_a_fill():
    rng = np.random.default_rng(8)
    img = draw(page(rng), rulings_mask(0.6 * CELL, 0.01), BLUE_RULING)
    fill = np.zeros((SIZE, SIZE), np.float32)
    fill[Y0 + 2 * CELL + 4 : Y0 + 3 * CELL - 4, X0 + 2 * CELL + 4 : X0 + 5 * CELL - 4] = 1.0
    img = draw(img, fill, (0.3, 0.7, 0.35), 0.8)  # green marker over three cells
    out = pl.remove_paper_lines(img, grid_box()).image
    for c in (2, 3, 4):
        got = inner(out, 2, c).reshape(-1, 3).mean(axis=0)
        assert got[1] > got[0] + 0.2 and got[1] > got[2] + 0.2  # still green
        assert float(inner(ink(out), 2, c).mean()) > 0.45


def test_blank_paper_and_outside_the_grid_are_left_alone():
    img = page()
    out = pl.remove_paper_lines(img, grid_box())
    assert not [ln for ln in out.rows + out.cols if ln.kind == "ruling"]
    assert float(np.abs(out.image - img).max()) < 0.05
    text = img.copy()
    cv2.putText(text, "TITLE", (5, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (0.1, 0.1, 0.1), 2)
    got = pl.remove_paper_lines(text, grid_box()).image
    assert np.array_equal(got[:Y0 - 25], text[:Y0 - 25])


def test_peaks_and_chains_follow_a_tilted_line_and_skip_a_gap():
    prof = np.zeros((12, 80), np.float32)
    centres = np.arange(12) * 20.0 + 10
    for j in range(12):
        if j in (5, 6):  # hidden under a fill
            continue
        y = 30 + 0.05 * centres[j]
        k = int(y)
        prof[j, k - 1 : k + 2] = (0.05, 0.1, 0.05)
    prof[3, 60:63] = (0.05, 0.1, 0.05)  # a stroke in one strip
    found = [pl.peaks(prof[j]) for j in range(12)]
    ch = [c for c in pl.chains(found, centres) if len(c) > 1]
    assert len(ch) == 1 and len(ch[0]) == 10 and ch[0][0][0] == 0 and ch[0][-1][0] == 11


def test_block_median_ignores_a_short_outlier():
    q = np.ones((3, 200, 1), np.float32) * 0.7
    q[:, 90:100] = 0.1  # a symbol's stroke along the line
    got = pl.block_median(q, 40)
    assert got.shape == q.shape and np.allclose(got, 0.7)


def test_a_notebook_page_of_our_generator_is_cleaned_cell_by_cell():
    """bench.sheetdesigns' notebook page (tilted rulings, a grid ruled in strokes that do not meet), straight from
    the renderer: with the true cell centres as the measured shifts, every cell's crop is paper again."""
    from bench.sheetdesigns import render_notebook

    page, centres = render_notebook("A", 1.5, np.random.default_rng(11))
    norm = page[..., ::-1].astype(np.float32) / np.percentile(page, 90, axis=(0, 1))[::-1].astype(np.float32)
    cell = float(np.median(np.diff(centres[0, :, 0])))
    x0 = float(centres[0, 0, 0] - cell / 2 - (centres[0, :, 0] - centres[0, 0, 0] - cell * np.arange(11)).mean())
    y0 = float(centres[0, 0, 1] - cell / 2 - (centres[:, 0, 1] - centres[0, 0, 1] - cell * np.arange(11)).mean())
    k = np.arange(11) + 0.5
    ideal = np.stack(np.meshgrid(x0 + cell * k, y0 + cell * k), axis=-1)
    out = pl.remove_paper_lines(norm, (x0, y0, x0 + 11 * cell, y0 + 11 * cell), centres - ideal)
    assert sum(ln.kind == "ruling" for ln in out.rows + out.cols) >= 5
    before, after = ink(norm), ink(out.image)
    from companion.cartographers.data import MAPS

    drawn = set(MAPS["A"].mountains) | set(MAPS["A"].wastelands) | set(MAPS["A"].ruins)
    blank = [(r, c) for r in range(11) for c in range(11) if (r, c) not in drawn]
    m = int(0.12 * cell)

    def crop_ink(a, r, c):
        x, y = centres[r, c]
        h = int(cell / 2) - m
        return float(a[int(y) - h : int(y) + h, int(x) - h : int(x) + h].mean())

    was = [crop_ink(before, r, c) for r, c in blank]
    now = [crop_ink(after, r, c) for r, c in blank]
    assert np.median(was) > 0.015 and np.median(now) < 0.5 * np.median(was)
    assert np.percentile(now, 95) < 0.5 * np.percentile(was, 95)


def test_glare_is_judged_on_the_outlines_as_photographed():
    """The cleaned sheet has no grid lines left to fade: a highlight that washed out the outlines of a few cells is
    told from the sheet before cleaning (`outline_norm`), as it was before the stage existed."""
    from vision.cells import read_cells
    from vision.geometry import canon_for

    canon = canon_for("A")
    h, w = int(canon.layout.page_h_pt * canon.ppt), int(canon.layout.page_w_pt * canon.ppt)
    orig = np.ones((h, w, 3), np.float32)
    x0, y0, x1, y1 = canon.grid_box()
    cell = canon.cell_px
    for k in range(12):
        cv2.line(orig, (int(x0 + k * cell), int(y0)), (int(x0 + k * cell), int(y1)), (0.3, 0.3, 0.3), 2)
        cv2.line(orig, (int(x0), int(y0 + k * cell)), (int(x1), int(y0 + k * cell)), (0.3, 0.3, 0.3), 2)
    gy, gx = int(y0 + 6 * cell), int(x0 + 6 * cell)  # a highlight washes out the outlines round 3 × 3 cells
    orig[gy - 2 : gy + int(3 * cell) + 3, gx - 2 : gx + int(3 * cell) + 3] = 1.0
    clean = pl.remove_paper_lines(orig, (x0, y0, x1, y1))
    assert clean.changed and float(ink(clean.image)[int(y0) : int(y1), int(x0) : int(x1)].max()) < 0.2
    seen = read_cells(clean.image, canon, "A", method="border", outline_norm=orig)
    assert "glare" in {n.code for n in seen.warnings}
    blind = read_cells(clean.image, canon, "A", method="border")
    assert "glare" not in {n.code for n in blind.warnings}
