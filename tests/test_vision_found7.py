"""Home-made sheets found on hard photos (branch found7), stage by stage on arrays.

- `vision.lattice.ink_quads`: a grid drawn in pen over squared paper is outlined by its own darker ink, where
  the photo's contour outlines see only the page (the paper's lines join the grid into one mesh).
- `vision.quality.gate_style` / `doubt_blurred_shapes`: a map of colour fills with one cell read by its shape is
  gated as colour fills, and that cell is doubted rather than the photo refused.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision import quality
from vision.border import order_corners
from vision.cells import GroupInfo
from vision.errors import PhotoError
from vision.geometry import canon_for
from vision.lattice import candidate_quads, darkest_channel, find_lattices, ink_map, ink_quads

GRID_TL = np.array([230.0, 170.0])
PITCH = 22.0  # pixels per cell of the drawn grid
SQUARE = 11.0  # squared paper: two squares a cell


def _squared_page(grid: bool = True, fills: bool = True, seed: int = 0) -> np.ndarray:
    """A sheet of squared paper (light blue lines every `SQUARE` px, over the whole page) on a grey table, with
    an 11 × 11 grid traced over it in dark pen (every other paper line, overshooting as a hand does) and some
    cells coloured in."""
    rng = np.random.default_rng(seed)
    img = np.full((760, 760, 3), (120, 125, 130), np.uint8)
    x0, y0, x1, y1 = 150, 40, 650, 720  # a portrait page, not a square
    img[y0:y1, x0:x1] = (246, 248, 250)
    for v in np.arange(x0 + 4, x1, SQUARE):
        cv2.line(img, (int(v), y0), (int(v), y1 - 1), (205, 175, 145), 1)
    for v in np.arange(y0 + 4, y1, SQUARE):
        cv2.line(img, (x0, int(v)), (x1 - 1, int(v)), (205, 175, 145), 1)
    gx, gy = GRID_TL
    if fills:
        colours = [(60, 150, 50), (200, 120, 40), (40, 190, 230), (50, 50, 190)]
        for r in range(11):
            for c in range(11):
                if rng.random() < 0.45:
                    col = colours[int(rng.integers(len(colours)))]
                    p0 = (int(gx + c * PITCH + 2), int(gy + r * PITCH + 2))
                    p1 = (int(gx + (c + 1) * PITCH - 2), int(gy + (r + 1) * PITCH - 2))
                    cv2.rectangle(img, p0, p1, col, -1)
    if grid:  # ruled by hand: each line overshoots the grid a little, into the paper's squares
        o = 0.4 * PITCH
        for i in range(12):
            v = i * PITCH
            cv2.line(img, (int(gx + v), int(gy - o)), (int(gx + v), int(gy + 11 * PITCH + o)), (40, 40, 40), 2)
            cv2.line(img, (int(gx - o), int(gy + v)), (int(gx + 11 * PITCH + o), int(gy + v)), (40, 40, 40), 2)
    return cv2.GaussianBlur(img, (0, 0), 0.8)


def _grid_corners() -> np.ndarray:
    gx, gy = GRID_TL
    e = 11 * PITCH
    return np.array([[gx, gy], [gx + e, gy], [gx + e, gy + e], [gx, gy + e]])


def _nearest(quads: list[np.ndarray], target: np.ndarray) -> float:
    return min((float(np.abs(order_corners(q) - target).max()) for q in quads), default=np.inf)


def test_the_photos_outlines_miss_a_grid_traced_on_squared_paper():
    """Why `ink_quads` exists: the paper's lines join the pen grid into one mesh with the page."""
    img = _squared_page()
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    assert _nearest(candidate_quads(gray, darkest_channel(img)), _grid_corners()) > PITCH


def test_ink_quads_outline_a_grid_traced_on_squared_paper():
    """Within the hand's overshoot (0.4 cell): a rough outline, which the comb fit then places exactly."""
    quads = ink_quads(ink_map(_squared_page()))
    assert _nearest(quads, _grid_corners()) < 0.6 * PITCH


def test_ink_quads_ignore_the_papers_own_lines():
    """Squared paper alone (no pen grid, nothing drawn) has no ink above the levels: no outline to offer."""
    assert ink_quads(ink_map(_squared_page(grid=False, fills=False))) == []


def test_ink_quads_keep_only_squarish_outlines():
    """A long dark bar (a ruler, a strip of tape, a score table) is no grid."""
    img = np.full((500, 500, 3), 245, np.uint8)
    cv2.rectangle(img, (40, 200), (460, 260), (30, 30, 30), 4)
    assert ink_quads(ink_map(img)) == []


def test_find_lattices_places_the_traced_grid_not_the_squares():
    lats = find_lattices(_squared_page(), keep=3)
    gx, gy = GRID_TL
    truth = np.stack(np.meshgrid(gx + PITCH * np.arange(12), gy + PITCH * np.arange(12)), axis=-1)
    best = min(float(np.linalg.norm(lat.points - truth, axis=-1).max()) for lat in lats)
    assert best < 0.2 * PITCH


def _group(gid: int, n: int, source: str, name: str = "forest", row: int = 0) -> GroupInfo:
    cells = [(row + k // 11, k % 11) for k in range(n)]
    return GroupInfo(gid, cells, cells[0], name, 0.9, source)


def test_colour_share_counts_drawn_cells_by_how_their_group_was_named():
    groups = [_group(1, 40, "colour"), _group(2, 4, "symbol", row=5), _group(3, 10, "colour", "empty", row=7),
              _group(4, 6, "given", row=9)]
    assert quality.colour_share(groups) == pytest.approx(40 / 44)
    assert quality.colour_share([_group(1, 3, "given")]) is None


def test_a_map_of_fills_with_one_shape_cell_is_gated_as_fills():
    fills = [_group(1, 60, "colour"), _group(2, 1, "symbol", row=6)]
    assert quality.gate_style("mixed", fills) == "colour"
    half = [_group(1, 20, "colour"), _group(2, 20, "symbol", row=4)]
    assert quality.gate_style("mixed", half) == "mixed"
    assert quality.gate_style("symbols", [_group(1, 30, "symbol")]) == "symbols"
    canon = canon_for("A")
    blur = 0.06 * canon.cell_px  # over the limit of "mixed", under that of colour fills
    quality.check_blur(blur, canon, quality.gate_style("mixed", fills))
    with pytest.raises(PhotoError):
        quality.check_blur(blur, canon, quality.gate_style("mixed", half))


def test_blurred_shape_cells_are_doubted_only_past_their_own_limit():
    groups = [_group(1, 30, "colour"), _group(2, 2, "symbol", row=6), _group(3, 1, "none", row=8)]
    conf = np.full((11, 11), 0.95)
    assert quality.doubt_blurred_shapes(conf, groups, 0.05, "mixed") == 0  # the mixed gate would pass it
    assert (conf == 0.95).all()
    assert quality.doubt_blurred_shapes(conf, groups, 0.06, "mixed") == 3
    assert conf[6, 0] == conf[6, 1] == conf[8, 0] == quality.BLURRED_SHAPE_CONFIDENCE
    assert conf[0, 0] == 0.95  # colour cells keep theirs


def _page_to_image() -> np.ndarray:
    """Page points → pixels of a photo of our sheet A, seen a little from the side."""
    from printables.layout import sheet_layout

    page = sheet_layout("A")
    src = np.float32([[0, 0], [page.page_w_pt, 0], [page.page_w_pt, page.page_h_pt], [0, page.page_h_pt]])
    dst = np.float32([[80, 60], [900, 90], [940, 1230], [50, 1200]])
    return cv2.getPerspectiveTransform(src, dst).astype(np.float64)


def _seen_markers(H: np.ndarray, ids: tuple[int, ...]) -> dict[int, np.ndarray]:
    from printables.layout import sheet_layout

    out = {}
    for m in sheet_layout("A").markers:
        if m.id in ids:
            sq = np.array([[[m.x_pt, m.y_pt], [m.x_pt + m.size_pt, m.y_pt], [m.x_pt + m.size_pt, m.y_pt + m.size_pt],
                            [m.x_pt, m.y_pt + m.size_pt]]])
            out[m.id] = cv2.perspectiveTransform(sq, H)[0]
    return out


def test_one_marker_tells_the_grid_from_a_lattice_a_column_off():
    """A curled sheet of ours with three markers clipped: the one seen says where the grid is."""
    from vision.orient import lattice_of_location, marker_error

    H = _page_to_image()
    lat = lattice_of_location("A", H)
    markers = _seen_markers(H, (3,))  # the bottom-left marker alone
    assert marker_error(lat, "A", 0, markers) < 0.05
    shift = np.array([[1.0, 0, 1.0], [0, 1, 0], [0, 0, 1]])  # the lattice one column to the right
    Hs = lat.homography @ shift
    uv = np.stack(np.meshgrid(np.arange(12.0), np.arange(12.0)), -1).reshape(1, -1, 2)
    off = replace(lat, homography=Hs, points=cv2.perspectiveTransform(uv, Hs).reshape(12, 12, 2))
    assert marker_error(off, "A", 0, markers) > 0.8
    assert marker_error(lat, "A", 0, {}) == np.inf


def test_markers_agree_needs_markers_a_side_and_their_way_down():
    from vision.orient import lattice_of_location, markers_agree

    H = _page_to_image()
    lat = lattice_of_location("A", H)
    markers = _seen_markers(H, (0, 3))
    down = (markers[0][3] - markers[0][0]) + (markers[0][2] - markers[0][1])
    assert markers_agree(lat, "A", down, markers)
    assert not markers_agree(lat, "A", down, {})
    assert not markers_agree(lat, None, down, markers)
    assert not markers_agree(lat, "A", None, markers)
    assert not markers_agree(lat, "B", down, markers)  # markers 0 and 3 are side A's: no B marker seen


def test_a_line_broken_into_dashes_is_no_text():
    """A margin line crossed by rulings falls apart into equal dashes: all pieces of one line, none a glyph."""
    from vision.upright import line_pieces

    dashes = np.array([[20 + 41 * i, 100 + i // 3, 13, 7] for i in range(12)])  # a slightly bent row
    assert line_pieces(dashes).all()
    assert line_pieces(dashes[:, [1, 0, 3, 2]]).all()  # the same line running down the frame
    assert not line_pieces(dashes[:4]).any()  # too few to be a line


def test_a_word_is_not_a_broken_line():
    from vision.upright import line_pieces

    # "Cartographers": letters of one height, differing widths, most not flat
    widths = [11, 10, 7, 6, 10, 10, 7, 10, 10, 10, 10, 7, 9]
    x = np.cumsum([0] + [w + 3 for w in widths[:-1]]) + 40
    word = np.array([[xi, 60, wi, 14] for xi, wi in zip(x, widths, strict=True)])
    assert not line_pieces(word).any()
    # a dashed line beside the word is still found, the word still kept
    both = np.vstack([word, [[40 + 30 * i, 120, 14, 6] for i in range(8)]])
    assert line_pieces(both).tolist() == [False] * len(word) + [True] * 8


def test_glyph_crops_leave_out_a_dashed_line_and_keep_letters():
    from vision.upright import glyph_crops

    dark = np.zeros((300, 600), np.float32)
    for i in range(10):  # a line broken into dashes, each a soft bar with rounded ends
        cv2.ellipse(dark, (37 + 50 * i, 43), (8, 4), 0, 0, 360, 1.0, -1)
    for i, ch in enumerate("AKE"):  # three letters
        img = np.zeros((60, 40), np.uint8)
        cv2.putText(img, ch, (4, 48), cv2.FONT_HERSHEY_SIMPLEX, 1.5, 255, 3)
        dark[150:210, 100 + 60 * i: 140 + 60 * i] = img / 255.0
    crops = glyph_crops(dark, 8, 100)
    assert len(crops) == 3
