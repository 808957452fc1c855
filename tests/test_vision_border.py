"""The unmarked-sheet path on arrays: quad search, refinement from the grid lines, side and orientation."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.synthphoto import draw_sheet, random_grid, random_player, render_sheet
from printables.layout import sheet_layout
from vision.border import find_quads, grid_score, locate_by_border, order_corners, refine
from vision.load import apply_orientation

PPT = 1.5


def _unmarked_photo(side: str, seed: int, turn: int = 0):
    """An unmarked sheet, drawn on, warped by a known homography; returns (gray, true grid corners TL,TR,BR,BL)."""
    rng = np.random.default_rng(seed)
    page = render_sheet(side, PPT, marked=False)
    page = draw_sheet(page, PPT, side, random_grid(rng, side), 3, random_player(rng, "marker"), rng, legend=False)
    h, w = page.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[60, 40], [w + 20, 90], [w - 10, h + 30], [30, h - 20]])
    H = cv2.getPerspectiveTransform(src, dst)
    img = cv2.warpPerspective(page, H, (w + 100, h + 100), borderValue=(90, 60, 40))
    g = sheet_layout(side).grid
    s = g.cell_pt * 11
    corners = np.float32([[g.x_pt, g.y_pt], [g.x_pt + s, g.y_pt], [g.x_pt + s, g.y_pt + s], [g.x_pt, g.y_pt + s]])
    truth = cv2.perspectiveTransform((corners * PPT)[None], H)[0]
    for _ in range(turn):
        img = cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
    return cv2.cvtColor(img, cv2.COLOR_RGB2GRAY), img[..., ::-1].copy(), truth


def test_grid_quad_is_found_and_refined_onto_the_grid():
    gray, _, truth = _unmarked_photo("A", 1)
    quads = find_quads(gray)
    assert quads
    best = max(quads, key=lambda q: grid_score(gray, q))
    refined = refine(gray, best)
    assert np.abs(refined - truth).max() < 2.5


@pytest.mark.parametrize("side,turn", [("A", 0), ("A", 2), ("B", 1), ("B", 3)])
def test_side_and_orientation_from_the_printed_features(side, turn):
    gray, bgr, _ = _unmarked_photo(side, 2, turn)
    loc = locate_by_border(bgr, gray, None)
    assert loc is not None and loc.side == side and loc.method == "border"
    # The homography maps the page's grid top-left corner near the true one, wherever the photo turned it.
    g = sheet_layout(side).grid
    centre = cv2.perspectiveTransform(np.float64([[[g.x_pt + 19, g.y_pt + 19]]]), loc.homography)[0, 0]
    _, _, truth = _unmarked_photo(side, 2, 0)
    h, w = gray.shape if turn % 2 == 0 else gray.shape[::-1]
    expect = truth[0] + (truth[2] - truth[0]) / 22  # centre of the top-left cell, roughly
    for _ in range(turn):  # rotate the expectation the way the photo was turned (clockwise)
        expect = np.array([h - 1 - expect[1], expect[0]])
        h, w = w, h
    assert np.linalg.norm(centre - expect) < 15


def test_no_grid_no_location():
    blank = np.full((800, 600), 235, np.uint8)
    assert locate_by_border(cv2.cvtColor(blank, cv2.COLOR_GRAY2BGR), blank, None) is None


@settings(max_examples=60, deadline=None)
@given(st.permutations(range(4)), st.floats(0, 2 * np.pi))
def test_order_corners_is_independent_of_input_order(perm, angle):
    base = np.array([[-1.0, -0.8], [1.0, -1.0], [1.1, 1.0], [-0.9, 0.9]])
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    quad = base @ rot.T * 100 + 500
    a, b = order_corners(quad), order_corners(quad[list(perm)])
    assert np.allclose(a, b)
    # clockwise in image coordinates (y down): positive signed area
    x, y = a[:, 0], a[:, 1]
    assert 0.5 * np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y) > 0


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 8), st.integers(2, 9), st.integers(2, 9))
def test_exif_orientation_is_a_bijection(orientation, h, w):
    img = np.arange(h * w * 3, dtype=np.uint8).reshape(h, w, 3)
    out = apply_orientation(img, orientation)
    assert sorted(out.ravel().tolist()) == sorted(img.ravel().tolist())
    inverse = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 8, 7: 7, 8: 6}[orientation]
    assert np.array_equal(apply_orientation(out, inverse), img)
