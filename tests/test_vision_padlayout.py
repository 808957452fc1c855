"""The game's own pad on arrays: its layout as a start for the lattice, its decorated frame band, its coin track.

The page is drawn here with the real pad's proportions (`vision.padlayout`: a 1 : 1.445 page, the grid's edge at
7.6–92.5 % of the width and 19–77.7 % of the height, a ticked band hugging the grid, letters on the left, 14
coins 0.71 cell apart 1.4 cells below) — not our A4 layout, which the look-alike of `bench.sheetdesigns` uses.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.cartographers.data import GRID_SIZE
from vision import coins
from vision.coins import MARK_GAP, PAD_TRACK, in_fill_order, marked_coins, pad_coin_track
from vision.geometry import canon_for
from vision.lattice import HUG_SHIFT, find_lattices, ink_map, measure, segment_evidence, segment_strengths, shift_search
from vision.padlayout import PAD_ASPECT, PAD_GRID_IN_PAGE, pad_grid_quads, page_like

PAGE_W = 700


def _pad_page(rng, filled: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """A pad page (BGR) with every cell coloured with probability `filled`, and its grid's corner lines
    (12 x positions, 12 y positions, page pixels)."""
    w, h = PAGE_W, int(round(PAGE_W * PAD_ASPECT))
    img = np.empty((h, w, 3), np.uint8)
    img[:] = (190, 215, 232)  # parchment (BGR)
    img = np.clip(img + rng.normal(0, 4, img.shape), 0, 255).astype(np.uint8)
    x0, y0, x1, y1 = PAD_GRID_IN_PAGE[0] * w, PAD_GRID_IN_PAGE[1] * h, PAD_GRID_IN_PAGE[2] * w, PAD_GRID_IN_PAGE[3] * h
    xs, ys = np.linspace(x0, x1, GRID_SIZE + 1), np.linspace(y0, y1, GRID_SIZE + 1)
    cell = (x1 - x0) / GRID_SIZE
    colours = [(170, 200, 80), (60, 140, 60), (200, 130, 50), (60, 60, 190), (150, 60, 150)]
    for r in range(GRID_SIZE):
        for c in range(GRID_SIZE):
            if rng.random() < filled:
                col = colours[rng.integers(len(colours))]
                cv2.rectangle(img, (int(xs[c]) + 1, int(ys[r]) + 1), (int(xs[c + 1]) - 1, int(ys[r + 1]) - 1), col, -1)
    line = (60, 140, 215)  # dashed orange-brown
    for i in range(1, GRID_SIZE):
        for t in np.arange(y0, y1, 7):
            cv2.line(img, (int(xs[i]), int(t)), (int(xs[i]), int(min(t + 4, y1))), line, 1)
        for t in np.arange(x0, x1, 7):
            cv2.line(img, (int(t), int(ys[i])), (int(min(t + 4, x1)), int(ys[i])), line, 1)
    brown = (30, 45, 70)
    band = 0.35 * cell
    # The decorated double frame: a thin line on the grid's edge, a band with ruler ticks a quarter of a cell
    # apart (on the cell lines too) and blank blocks changing at every cell line, a thin line outside it.
    cv2.rectangle(img, (int(x0), int(y0)), (int(x1), int(y1)), brown, 2)
    cv2.rectangle(img, (int(x0 - band), int(y0 - band)), (int(x1 + band), int(y1 + band)), brown, 2)
    for i in range(GRID_SIZE):
        for side in (0, 1):
            yb = y0 - band if side == 0 else y1
            xb = x0 - band if side == 0 else x1
            if i % 2 == 0:
                cv2.rectangle(img, (int(xs[i]), int(yb + 0.3 * band)), (int(xs[i + 1]), int(yb + 0.7 * band)),
                              (235, 240, 245), -1)
                cv2.rectangle(img, (int(xb + 0.3 * band), int(ys[i])), (int(xb + 0.7 * band), int(ys[i + 1])),
                              (235, 240, 245), -1)
            for t in np.arange(0, cell, cell / 4):
                cv2.line(img, (int(xs[i] + t), int(yb)), (int(xs[i] + t), int(yb + band)), brown, 2)
                cv2.line(img, (int(xb), int(ys[i] + t)), (int(xb + band), int(ys[i] + t)), brown, 2)
    for i in range(GRID_SIZE):
        cv2.putText(img, "ABCDEFGHIJK"[i], (int(x0 - 0.8 * cell), int(ys[i] + 0.65 * cell)),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.02 * cell, (60, 140, 200), 2)
    pitch, down, rad = (v * cell for v in PAD_TRACK)
    for k in range(14):
        c = (int(x0 + 1.41 * cell + k * pitch), int(y1 + down))
        cv2.circle(img, c, int(rad), (60, 170, 220), -1, cv2.LINE_AA)
        cv2.circle(img, c, int(rad), (40, 110, 160), 2, cv2.LINE_AA)
    cv2.putText(img, "CARTOGRAPHER:", (int(0.06 * w), int(0.06 * h)), cv2.FONT_HERSHEY_SIMPLEX, 0.9, brown, 2)
    return img, np.stack(np.meshgrid(xs, ys), axis=-1)


def _photo(rng, filled: float = 1.0, turn: int = 0):
    page, lines = _pad_page(rng, filled)
    h, w = page.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[80, 60], [w + 40, 100], [w + 10, h + 50], [50, h + 20]])
    H = cv2.getPerspectiveTransform(src, dst)
    img = cv2.warpPerspective(page, H, (w + 140, h + 120), borderValue=(40, 60, 90))
    pts = cv2.perspectiveTransform(lines.reshape(1, -1, 2).astype(np.float64), H)[0].reshape(12, 12, 2)
    for _ in range(turn):
        img = cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
        pts = np.stack([img.shape[1] - 1 - pts[..., 1], pts[..., 0]], axis=-1)
    return img, pts


def _centres(p: np.ndarray) -> np.ndarray:
    return (p[:-1, :-1] + p[:-1, 1:] + p[1:, :-1] + p[1:, 1:]) / 4


def _fit(lat_points: np.ndarray, true_points: np.ndarray) -> float:
    """Worst cell-centre distance in cells over the lattice's 8 symmetries (turns are orientation's business)."""
    cc, tc = _centres(lat_points), _centres(true_points)
    cell = float(np.median(np.linalg.norm(np.diff(true_points, axis=1), axis=2)))
    return min(float(np.linalg.norm(np.rot90(c, k, axes=(0, 1)) - tc, axis=-1).max()) / cell
               for c in (cc, cc.transpose(1, 0, 2)) for k in range(4))


def test_pad_grid_quads_put_the_grid_where_the_pad_prints_it_either_way_up():
    w, h = 400.0, 400.0 * PAD_ASPECT
    page = np.array([[0, 0], [w, 0], [w, h], [0, h]])
    quads = pad_grid_quads(page)
    assert len(quads) == 2
    x0, y0, x1, y1 = PAD_GRID_IN_PAGE
    upright = np.array([[x0 * w, y0 * h], [x1 * w, y0 * h], [x1 * w, y1 * h], [x0 * w, y1 * h]])
    turned = np.array([[w, h]]) - upright[[2, 3, 0, 1]]
    assert any(np.abs(q - upright).max() < 1e-6 for q in quads)
    assert any(np.abs(q - turned).max() < 1e-6 for q in quads)
    # A landscape view of the page (turned a quarter in the photo) gives the same grid, corners in its order.
    side = np.roll(np.array([[0, 0], [h, 0], [h, w], [0, w]]), 0, axis=0)
    assert len(pad_grid_quads(side)) == 2
    assert not page_like(np.array([[0, 0], [100, 0], [100, 100], [0, 100]]))  # a square is no pad page
    assert pad_grid_quads(np.array([[0, 0], [100, 0], [100, 300], [0, 300]])) == []


@pytest.mark.parametrize("seed,turn", [(0, 0), (1, 1), (2, 2)])
def test_the_page_outline_alone_places_a_fully_coloured_pads_grid(seed, turn):
    """Fills run into the frame and drown the dashed lines: from the page's outline alone, the pad's layout,
    the one-cell shift search and the line measurement put every cell within 0.15 cell (one of the two ways
    up the page is the right one)."""
    img, pts = _photo(np.random.default_rng(seed), filled=1.0, turn=turn)
    page = _page_outline(img)
    unit = np.float32([[0, 0], [11, 0], [11, 11], [0, 11]])
    ink = ink_map(img)
    fits = []
    for q in pad_grid_quads(page):
        H0 = cv2.getPerspectiveTransform(unit, q.astype(np.float32)).astype(np.float64)
        H, _, _ = shift_search(ink, H0, HUG_SHIFT)
        fits.append(_fit(measure(ink, H, rounds=1).points, pts))
    assert len(fits) == 2 and min(fits) < 0.15
    # And the whole search returns it among its best two.
    assert min(_fit(lat.points, pts) for lat in find_lattices(img, keep=4)[:2]) < 0.15


def _page_outline(img: np.ndarray) -> np.ndarray:
    """The page's four corners (TL, TR, BR, BL) on the dark table, by a threshold."""
    from vision.border import order_corners

    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    _, binary = cv2.threshold(gray, 100, 255, cv2.THRESH_BINARY)
    cnt = max(cv2.findContours(binary, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0], key=cv2.contourArea)
    approx = cv2.approxPolyDP(cv2.convexHull(cnt), 0.02 * cv2.arcLength(cnt, True), True)
    return order_corners(approx.reshape(-1, 2).astype(np.float64))


def test_the_pads_decorated_band_is_no_lattice_going_on():
    """The ticked band hugging the grid must not make the lattice one cell too big or too far out."""
    page, lines = _pad_page(np.random.default_rng(5), filled=0.3)
    unit = np.float32([[0, 0], [11, 0], [11, 11], [0, 11]])
    corners = np.float32([lines[0, 0], lines[0, -1], lines[-1, -1], lines[-1, 0]])
    H = cv2.getPerspectiveTransform(unit, corners).astype(np.float64)
    segs = segment_strengths(ink_map(page), H)
    here = segment_evidence(segs)
    # Measured across the whole strip (the old way: `segs[:3]`), the ticks cost the true grid about 0.2.
    assert here > 0.7 and here > segment_evidence(segs[:3]) + 0.1
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        assert here > segment_evidence(segs, dx, dy) + 0.3


def test_marks_are_told_from_printed_coins_at_every_strength():
    base = np.array([0.03, 0.028, 0.03, 0.027, 0.026, 0.03, 0.028, 0.028, 0.028, 0.03, 0.03, 0.029, 0.031, 0.028])
    pencil = base.copy()
    pencil[[0, 1, 4]] += 0.45  # heavy fills
    pencil[[2, 3]] += 0.18  # light fills: marked too, though the widest gap lies above them
    filled, _ = marked_coins(pencil)
    assert sum(filled) == 5 and filled[:5] == (True,) * 5
    stray = base + np.linspace(0, 0.06, 14)
    stray[-1] = -0.06  # one circle lighter than the rest (glare, the bar's end): not 13 marks
    assert sum(marked_coins(stray)[0]) == 0
    thirteen = np.full(14, 0.39) + np.linspace(0, 0.02, 14)
    thirteen[-1] = 0.22  # the one unmarked coin stands apart from a tight group
    assert sum(marked_coins(thirteen)[0]) == 13
    bare = np.full(14, 0.0) + np.linspace(0, 0.02, 14)
    bare[-1] = -0.3  # one circle made lighter by glare beside 13 bare rings no darker than the paper: no marks
    assert sum(marked_coins(bare)[0]) == 0
    drift = base + np.concatenate([np.linspace(0.04, -0.09, 10), [-0.05, 0.02, -0.02, 0.0]])
    drift[:3] = [0.47, 0.46, 0.37]
    assert sum(marked_coins(drift)[0]) == 3
    assert sum(marked_coins(base)[0]) == 0


def test_light_ticks_in_empty_rings_are_marks():
    """Inside an empty printed ring the paper is the paper: a pencil tick reads only 0.03–0.05 darker, under the
    pad's MARK_GAP, yet plainly apart from rings at paper level (development photos, ours found without its
    markers and a generic print: 5 and 3 ticks once read as 0 and 1, surely)."""
    rings = np.array([0.001, 0.0, -0.0, -0.002, -0.003, -0.002, -0.002, -0.001, 0.002, 0.0, 0.001, -0.001, 0.0, 0.002])
    ticks = rings.copy()
    ticks[:5] = [0.033, 0.037, 0.034, 0.042, 0.037]
    filled, sure = marked_coins(ticks)
    assert filled == (True,) * 5 + (False,) * 9 and sure > 0
    assert coins.bare_rings(ticks) is not None
    three = rings.copy()
    three[:3] = [0.104, 0.045, 0.063]
    filled, sure = marked_coins(three)
    assert sum(filled) == 3 and sure >= 0.3
    assert sum(marked_coins(rings)[0]) == 0  # empty rings: nothing
    # a dark speck on the last ring only is not the fill order: the pad's rule decides (no mark at 0.042)
    speck = rings.copy()
    speck[-1] = 0.042
    assert coins.bare_rings(speck) is None and sum(marked_coins(speck)[0]) == 0
    # the pad's printed coins sit well above paper level: its rule, not this one
    pad = np.full(14, 0.06) + np.linspace(0, 0.03, 14)
    pad[:4] += 0.3
    assert coins.bare_rings(pad) is None and sum(marked_coins(pad)[0]) == 4


def test_coins_are_read_as_filled_in_order_along_the_track():
    """"Fill the next coin": a finished track is a run of marked circles from its start."""
    bare = np.full(14, 0.06) + np.linspace(0, 0.01, 14)
    run = bare.copy()
    run[:9] = [0.13, 0.51, 0.14, 0.14, 0.52, 0.52, 0.51, 0.52, 0.52]  # three light fills among heavy ones
    filled, sure = marked_coins(run)
    assert sum(filled) == 6  # the marks alone leave the light fills out
    filled, sure = in_fill_order(run, filled, sure)
    assert filled == (True,) * 9 + (False,) * 5 and sure == pytest.approx((0.13 - bare[9:].max()) / (2 * MARK_GAP))
    assert sure >= 0.3  # the reader then does not ask about the coins
    # a run already: kept as read, certainty and all
    assert in_fill_order(run, (True,) * 9 + (False,) * 5, 0.8) == ((True,) * 9 + (False,) * 5, 0.8)
    # darker circles late on the track (the light falling along it) are no run: kept, but unsure
    ramp = bare + np.r_[np.zeros(3), np.full(11, 0.2)]
    filled, sure = in_fill_order(ramp, *marked_coins(ramp))
    assert sum(filled) == 11 and sure == 0.0
    # a first coin no darker than the bare ones: no clean run either
    odd = bare.copy()
    odd[[1, 2]] = [0.63, 0.12]
    assert in_fill_order(odd, *marked_coins(odd))[1] == 0.0
    # one last circle lighter than all (glare, the paper past the bar) does not make the other 13 a run
    glare = np.r_[0.045, 0.112, 0.134, 0.161, 0.146, 0.143, 0.154, 0.156, 0.143, 0.162, 0.157, 0.102, 0.054, -0.129]
    filled, sure = in_fill_order(glare, *marked_coins(glare))
    assert sum(filled) < 13 and sure == 0.0


def test_a_blurred_pad_coin_track_is_placed_by_its_rings():
    canon = canon_for("A")
    w, h = canon.size
    gray = np.full((h, w), 215, np.uint8)
    x0, _, _, y1 = canon.grid_box()
    cell = canon.cell_px
    pitch, down, rad = (v * cell for v in PAD_TRACK)
    start = 0.9 * cell  # the look-alike's track starts earlier than the real pad's (1.41 cells): searched
    cv2.rectangle(gray, (int(x0 + start - rad - 6), int(y1 + down - 0.6 * rad)),
                  (int(x0 + start + 13 * pitch + rad + 6), int(y1 + down + 0.6 * rad)), 185, -1)
    want = np.array([[x0 + start + k * pitch, y1 + down] for k in range(14)])
    for k, (cx, cy) in enumerate(want):
        cv2.circle(gray, (int(cx), int(cy)), int(rad), 170 if k < 4 else 195, -1, cv2.LINE_AA)
        cv2.circle(gray, (int(cx), int(cy)), int(rad), 120, 2, cv2.LINE_AA)
    gray = cv2.GaussianBlur(gray, (0, 0), 3.0)
    track = pad_coin_track(gray, canon)
    assert track is not None
    assert np.abs(track.centres - want).max() < 0.12 * cell
    assert pad_coin_track(np.full((h, w), 215, np.uint8), canon) is None  # blank paper: no track


def test_a_lattice_only_the_pad_layout_proposed_needs_the_printed_mountains():
    """A notebook page has the pad page's shape and rulings that make a lattice anywhere in it: the layout's guess
    alone is no map, however well its segments start and stop; confirmed by the printed mountains it is."""
    from vision.lattice import EVIDENCE_ALONE, Lattice, lattice_accepted

    H = np.diag([40.0, 40.0, 1.0])
    pts = 40.0 * np.stack(np.meshgrid(np.arange(12.0), np.arange(12.0)), axis=-1)  # a square lattice
    guess = Lattice(H, pts, 0.0, EVIDENCE_ALONE + 0.2, from_layout=True)
    assert not lattice_accepted(guess, confirm=0.8, min_confirm=3.5)
    assert lattice_accepted(guess, confirm=2.0, min_confirm=3.5)  # full evidence: half the mountains' word
    weak = Lattice(H, pts, 0.0, 0.1, from_layout=True)
    assert not lattice_accepted(weak, confirm=2.0, min_confirm=3.5)
    assert lattice_accepted(weak, confirm=4.0, min_confirm=3.5)
    assert lattice_accepted(Lattice(H, pts, 0.0, EVIDENCE_ALONE + 0.2), confirm=0.8, min_confirm=3.5)
    assert guess.scaled(0.5).from_layout
