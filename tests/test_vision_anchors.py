"""The pad's lattice moved onto its printed mountain squares (`vision.anchors`), on arrays."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from bench.sheetdesigns import render_design
from companion.cartographers.data import GRID_SIZE
from vision.anchors import LOCAL, Square, mountain_cells, offset_field, placed, square_map, squares
from vision.lattice import Lattice, line_points

PPT = 1.5


def _lattice_from_centres(centres: np.ndarray, dx: float = 0.0, dy: float = 0.0) -> Lattice:
    """The lattice whose cell centres are `centres` (11×11×2), moved dx, dy cells along its axes."""
    src = np.stack(np.meshgrid(np.arange(GRID_SIZE) + 0.5 + dx, np.arange(GRID_SIZE) + 0.5 + dy), axis=-1)
    H, _ = cv2.findHomography(src.reshape(-1, 2), centres.reshape(-1, 2).astype(np.float64), 0)
    return Lattice(H, line_points(H), 1.0)


def _sheet_with_square(dx: float, dy: float, solid: bool = True) -> tuple[np.ndarray, Lattice]:
    """Paper with an even lattice of 40 px cells and, near cell (5, 5), a solid dark square one cell wide moved
    dx, dy cells (or a player's filled triangle)."""
    cell = 40
    img = np.full((600, 600), 225, np.uint8)
    H = np.array([[cell, 0, 80], [0, cell, 80], [0, 0, 1.0]])
    for i in range(GRID_SIZE + 1):
        cv2.line(img, (80 + i * cell, 80), (80 + i * cell, 80 + 11 * cell), 150, 1)
        cv2.line(img, (80, 80 + i * cell), (80 + 11 * cell, 80 + i * cell), 150, 1)
    x0, y0 = int(round(80 + (5 + dx) * cell)), int(round(80 + (5 + dy) * cell))
    if solid:
        cv2.rectangle(img, (x0, y0), (x0 + cell - 1, y0 + cell - 1), 60, -1)
        cv2.line(img, (x0 + 12, y0 + 28), (x0 + 20, y0 + 10), 220, 2)  # the pad's light mountain drawing
    else:
        tri = np.array([[x0 + cell // 2, y0 + 4], [x0 + 3, y0 + cell - 4], [x0 + cell - 3, y0 + cell - 4]])
        cv2.fillPoly(img, [tri], 60)
    return img, Lattice(H, line_points(H), 1.0)


@pytest.mark.parametrize("dx,dy", [(0.0, 0.0), (0.3, -0.2), (-0.45, 0.1)])
def test_a_solid_square_is_found_where_it_lies(dx, dy):
    img, lat = _sheet_with_square(dx, dy)
    got = square_map(img, lat).square_at(5, 5)
    assert got is not None
    assert abs(got[0] - dx) <= 2 / LOCAL and abs(got[1] - dy) <= 2 / LOCAL


def test_a_triangle_or_blank_paper_is_no_square():
    img, lat = _sheet_with_square(0.1, 0.0, solid=False)
    assert square_map(img, lat).square_at(5, 5) is None
    blank = np.full((600, 600), 225, np.uint8)
    assert square_map(blank, lat).square_at(5, 5) is None


def test_offset_field_needs_four_squares_that_agree():
    three = [Square(1, 3, 0.3, 0.0), Square(2, 8, 0.3, 0.0), Square(8, 2, 0.32, 0.02)]
    assert offset_field(three) is None
    agree = [*three, Square(9, 7, 0.29, -0.01)]
    field = offset_field(agree)
    assert field is not None and field.shape == (GRID_SIZE + 1, GRID_SIZE + 1, 2)
    assert np.allclose(field[..., 0], 0.3, atol=0.04) and np.allclose(field[..., 1], 0.0, atol=0.04)
    quarrel = [*three[:2], Square(8, 2, -0.3, 0.2), Square(9, 7, 0.3, -0.3)]
    assert offset_field(quarrel) is None


def test_mountain_cells_turn_with_the_lattice():
    up = mountain_cells("A", 0)
    assert up == [(1, 3), (2, 8), (5, 5), (8, 2), (9, 7)]
    # A lattice turned upright by one quarter turn holds upright (r, c) at lattice (c, 10 - r)... as np.rot90.
    idx = np.rot90(np.arange(GRID_SIZE * GRID_SIZE).reshape(GRID_SIZE, GRID_SIZE), 1)
    assert mountain_cells("A", 1) == [divmod(int(idx[r, c]), GRID_SIZE) for r, c in up]


@pytest.mark.parametrize("side,dx,dy", [("A", 0.35, 0.0), ("B", -0.25, 0.3)])
def test_pad_lattice_a_third_of_a_cell_off_is_moved_onto_the_grid(side, dx, dy):
    page, centres = render_design("pad", side, PPT, np.random.default_rng(5))
    cell = float(np.median(np.linalg.norm(np.diff(centres, axis=1), axis=-1)))
    off = _lattice_from_centres(centres, dx, dy)
    assert len(squares(square_map(page, off), side, 0)) >= 3
    got = placed(page, off, side, 0)
    err = np.linalg.norm(got.cell_centres() - centres, axis=-1).max() / cell
    assert err <= 0.06


def test_a_pad_lattice_already_right_and_a_sheet_without_squares_are_kept():
    page, centres = render_design("pad", "A", PPT, np.random.default_rng(6))
    right = _lattice_from_centres(centres)
    assert placed(page, right, "A", 0) is right
    page, centres = render_design("generic", "A", PPT, np.random.default_rng(6))
    off = _lattice_from_centres(centres, 0.3, 0.0)
    assert placed(page, off, "A", 0) is off


def test_the_wrong_side_finds_no_squares_and_keeps_the_lattice():
    page, centres = render_design("pad", "A", PPT, np.random.default_rng(7))
    off = _lattice_from_centres(centres, 0.3, 0.0)
    assert squares(square_map(page, off), "B", 0) == []
    assert placed(page, off, "B", 0) is off
