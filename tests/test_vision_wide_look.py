"""The lattice's second, wider look (session 12), stage by stage on arrays.

When the first look finds no grid, `vision.lattice.find_lattices(wide=True)` adds outlines of the grid's own ink
that the first look's two levels miss:
- `neutral_ink_map`: a pencil or black-pen grid over squared paper or a notebook's rulings in colour, which are
  as dark as the grid in the darkest channel and join it into one mesh with the page;
- a wider closing (`WIDE_CLOSE`) for a grid whose strokes are broken (a pale pen, dashes, hatching across them);
and `vision.orient.locate_by_lattice` takes that look only when the first finds nothing.
"""

from __future__ import annotations

import cv2
import numpy as np

from bench.sheetdesigns import render_design
from bench.synthphoto import draw_sheet, random_grid, random_player
from vision import lattice
from vision.border import order_corners
from vision.lattice import (
    NEUTRAL_LEVELS,
    WIDE_CLOSE,
    WIDE_LEVELS,
    brightest_channel,
    ink_map,
    ink_quads,
    neutral_ink_map,
)
from vision.orient import locate_by_lattice

GRID_TL = np.array([230.0, 170.0])
PITCH = 22.0  # pixels per cell of the drawn grid
SQUARE = 11.0  # the paper's squares: two a cell


def _page() -> np.ndarray:
    """A grey table with a page on it (portrait, not a square)."""
    img = np.full((760, 760, 3), (120, 125, 130), np.uint8)
    img[40:720, 150:650] = (236, 242, 240)
    return img


def _green_squared_page(paper_line=(60, 190, 40), pen=(95, 95, 95)) -> np.ndarray:
    """Squared paper ruled in green (BGR `paper_line`, dark in the red channel), an 11 × 11 grid traced over it in
    grey pencil (overshooting as a hand does), some cells coloured in."""
    rng = np.random.default_rng(0)
    img = _page()
    for v in np.arange(154, 650, SQUARE):
        cv2.line(img, (int(v), 40), (int(v), 719), paper_line, 1)
    for v in np.arange(44, 720, SQUARE):
        cv2.line(img, (150, int(v)), (649, int(v)), paper_line, 1)
    gx, gy = GRID_TL
    colours = [(60, 150, 50), (200, 120, 40), (40, 190, 230), (50, 50, 190)]
    for r in range(11):
        for c in range(11):
            if rng.random() < 0.45:
                p0 = (int(gx + c * PITCH + 2), int(gy + r * PITCH + 2))
                p1 = (int(gx + (c + 1) * PITCH - 2), int(gy + (r + 1) * PITCH - 2))
                cv2.rectangle(img, p0, p1, colours[int(rng.integers(len(colours)))], -1)
    o = 0.4 * PITCH
    for i in range(12):
        v = i * PITCH
        cv2.line(img, (int(gx + v), int(gy - o)), (int(gx + v), int(gy + 11 * PITCH + o)), pen, 2)
        cv2.line(img, (int(gx - o), int(gy + v)), (int(gx + 11 * PITCH + o), int(gy + v)), pen, 2)
    return cv2.GaussianBlur(img, (0, 0), 0.8)


def _dashed_grid(gap: int, dash: int = 5) -> np.ndarray:
    """An 11 × 11 grid in thin dashes (`dash` px drawn, `gap` px left out) on plain paper."""
    img = _page()
    gx, gy = GRID_TL
    for i in range(12):
        v = i * PITCH
        for t in np.arange(0, 11 * PITCH, dash + gap):
            e = min(t + dash, 11 * PITCH)
            cv2.line(img, (int(gx + v), int(gy + t)), (int(gx + v), int(gy + e)), (70, 70, 70), 1)
            cv2.line(img, (int(gx + t), int(gy + v)), (int(gx + e), int(gy + v)), (70, 70, 70), 1)
    return img


def _generic_print() -> np.ndarray:
    """A generic printed grid (no markers), drawn on, photographed a little askew on a table."""
    rng = np.random.default_rng(3)
    page, _ = render_design("generic", "A", 1.5, rng)
    page = draw_sheet(page, 1.5, "A", random_grid(rng, "A", 0.35), 3, random_player(rng, "marker"), rng,
                      legend=False)
    h, w = page.shape[:2]
    H = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]),
                                    np.float32([[60, 40], [w + 20, 90], [w - 10, h + 30], [30, h - 20]]))
    return np.ascontiguousarray(cv2.warpPerspective(page, H, (w + 100, h + 100), borderValue=(90, 60, 40))[..., ::-1])


def _grid_corners() -> np.ndarray:
    gx, gy = GRID_TL
    e = 11 * PITCH
    return np.array([[gx, gy], [gx + e, gy], [gx + e, gy + e], [gx, gy + e]])


def _nearest(quads: list[np.ndarray]) -> float:
    return min((float(np.abs(order_corners(q) - _grid_corners()).max()) for q in quads), default=np.inf)


def test_brightest_channel_is_the_per_pixel_maximum():
    img = np.array([[[10, 200, 30], [90, 80, 70]]], np.uint8)
    assert brightest_channel(img).tolist() == [[200, 90]]
    assert brightest_channel(img[..., 0]) is not None  # a gray image is its own brightest channel


def test_neutral_ink_sees_grey_pencil_but_not_coloured_rulings():
    img = np.full((200, 200, 3), 240, np.uint8)
    cv2.line(img, (0, 60), (199, 60), (60, 190, 40), 2)  # a green ruling
    cv2.line(img, (0, 140), (199, 140), (95, 95, 95), 2)  # a pencil line
    dark, grey = ink_map(img), neutral_ink_map(img)
    assert dark[60, 100] > 0.6 and dark[140, 100] > 0.5  # both are ink to the darkest channel
    assert grey[60, 100] < 0.25 < 0.5 < grey[140, 100]  # only the pencil is grey ink


def test_the_first_looks_outlines_miss_a_pencil_grid_over_green_squares():
    """Why the neutral look exists: the green squares are above both first-look levels and join the grid."""
    assert _nearest(ink_quads(ink_map(_green_squared_page()))) > PITCH
    assert _nearest(ink_quads(ink_map(_green_squared_page()), WIDE_LEVELS, close=WIDE_CLOSE)) > PITCH


def test_neutral_ink_outlines_a_pencil_grid_over_green_squares():
    """Within the hand's overshoot (0.4 cell): a rough outline, which the comb fit then places exactly."""
    quads = ink_quads(neutral_ink_map(_green_squared_page()), NEUTRAL_LEVELS, close=WIDE_CLOSE)
    assert _nearest(quads) < 0.6 * PITCH


def _grey_squared_page(ruling: int = 186, pen: int = 170) -> np.ndarray:
    """Squared paper ruled in grey 2 px lines nearly as dark as the pen, the grid traced over it in 3 px strokes."""
    img = _page()
    for v in np.arange(154, 650, SQUARE):
        cv2.line(img, (int(v), 40), (int(v), 719), (ruling,) * 3, 2)
    for v in np.arange(44, 720, SQUARE):
        cv2.line(img, (150, int(v)), (649, int(v)), (ruling,) * 3, 2)
    gx, gy = GRID_TL
    for i in range(12):
        v = i * PITCH
        cv2.line(img, (int(gx + v), int(gy)), (int(gx + v), int(gy + 11 * PITCH)), (pen,) * 3, 3)
        cv2.line(img, (int(gx), int(gy + v)), (int(gx + 11 * PITCH), int(gy + v)), (pen,) * 3, 3)
    return cv2.GaussianBlur(img, (0, 0), 0.8)


def test_a_middle_level_outlines_a_pen_grid_just_darker_than_its_rulings():
    """Rulings at ink 0.25 join the grid into the page's mesh at 0.18; the pen at 0.28 is gone at 0.3. Only the
    level between them (0.24) cuts the grid out alone (photogen4 development seed 35, squared graphite: refused
    before it)."""
    ink = ink_map(_grey_squared_page())
    assert 0.2 < ink[300, 264] < 0.26 < ink[300, int(GRID_TL[0])] < 0.3  # a ruling, then the pen
    assert 0.24 in WIDE_LEVELS
    assert _nearest(ink_quads(ink, (0.18, 0.3, 0.4), close=WIDE_CLOSE)) > PITCH
    assert _nearest(ink_quads(ink, WIDE_LEVELS, close=WIDE_CLOSE)) < 0.25 * PITCH


def test_a_wider_closing_joins_a_grid_of_broken_strokes():
    ink = ink_map(_dashed_grid(gap=4))
    assert _nearest(ink_quads(ink)) == np.inf  # gaps of 4 px: the 3 px closing leaves it in pieces
    assert _nearest(ink_quads(ink, close=WIDE_CLOSE)) < 0.25 * PITCH


def test_the_wide_look_is_taken_only_when_the_first_finds_no_grid(monkeypatch):
    """A spy on `find_lattices` (the real one runs): a page with a grid is read at the first look; a blank page
    is looked at twice before it is refused."""
    looks: list[bool] = []
    real = lattice.find_lattices

    def spy(image, gray=None, keep=3, wide=False):
        looks.append(wide)
        return real(image, gray, keep, wide)

    monkeypatch.setattr(lattice, "find_lattices", spy)
    assert locate_by_lattice(_generic_print()) is not None
    assert looks == [False]
    looks.clear()
    assert locate_by_lattice(_page()) is None
    assert looks == [False, True]
