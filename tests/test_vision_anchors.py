"""The pad's lattice moved onto its printed mountain squares (`vision.anchors`), on arrays."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from bench.sheetdesigns import render_design
from companion.cartographers.data import GRID_SIZE
from vision.anchors import (
    LOCAL,
    SHIFTED_SQUARES,
    Square,
    mountain_cells,
    offset_field,
    placed,
    shift_chance,
    shift_field,
    shifted_squares,
    square_map,
    squares,
)
from vision.lattice import Lattice, line_points

PPT = 1.5


def _lattice_from_centres(centres: np.ndarray, dx: float = 0.0, dy: float = 0.0) -> Lattice:
    """The lattice whose cell centres are `centres` (11×11×2), moved dx, dy cells along its axes."""
    src = np.stack(np.meshgrid(np.arange(GRID_SIZE) + 0.5 + dx, np.arange(GRID_SIZE) + 0.5 + dy), axis=-1)
    H, _ = cv2.findHomography(src.reshape(-1, 2), centres.reshape(-1, 2).astype(np.float64), 0)
    return Lattice(H, line_points(H), 1.0)


def _cell(centres: np.ndarray) -> float:
    """Median cell width (pixels) of true cell centres, along the rows."""
    return float(np.median(np.linalg.norm(np.diff(centres, axis=1), axis=-1)))


def _worst_error(lat: Lattice, centres: np.ndarray) -> float:
    """The lattice's worst cell-centre error against the true `centres`, in cells."""
    return float(np.linalg.norm(lat.cell_centres() - centres, axis=-1).max() / _cell(centres))


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
    off = _lattice_from_centres(centres, dx, dy)
    assert len(squares(square_map(page, off), side, 0)) >= 3
    assert _worst_error(placed(page, off, side, 0), centres) <= 0.06


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


@pytest.mark.parametrize("side,dx,dy", [("A", 1.0, 0.0), ("A", 0.0, -1.0), ("B", -1.0, 0.1)])
def test_pad_lattice_a_whole_cell_off_is_moved_onto_the_grid(side, dx, dy):
    # the frame's band taken for the first column or row: no square where the lattice puts the mountains
    page, centres = render_design("pad", side, PPT, np.random.default_rng(8))
    off = _lattice_from_centres(centres, dx, dy)
    found = square_map(page, off)
    assert squares(found, side, 0) == []
    assert len(shifted_squares(found, side, 0)) >= SHIFTED_SQUARES
    assert _worst_error(placed(page, off, side, 0), centres) <= 0.06


def test_a_sheet_without_squares_a_cell_off_is_kept():
    page, centres = render_design("generic", "A", PPT, np.random.default_rng(8))
    off = _lattice_from_centres(centres, 1.0, 0.0)
    assert shifted_squares(square_map(page, off), "A", 0) == []
    assert placed(page, off, "A", 0) is off


def test_shift_chance_is_small_only_when_squares_are_rare_elsewhere():
    assert shift_chance(3, 5, 5, 116) < 0.01  # the pad a cell off: 5 other squares in 116 cells
    assert shift_chance(3, 5, 25, 116) > 0.1  # a well-filled sheet: a fifth of the cells are dark squares
    assert shift_chance(5, 5, 0, 116) == 0.0 and shift_chance(0, 5, 30, 116) == 1.0


def test_a_well_filled_sheet_whose_fills_lie_beside_the_mountains_is_kept():
    # dark fills edge to edge with the grid in a fifth of the cells, three of them right of the side's mountains:
    # the mountains' pattern moved a cell, by chance
    page, centres = render_design("generic", "A", PPT, np.random.default_rng(8))
    lat = _lattice_from_centres(centres)
    cell = _cell(centres)
    mountains = mountain_cells("A", 0)
    beside = [(r, c + 1) for r, c in mountains if c + 1 < GRID_SIZE][:3]
    rng = np.random.default_rng(3)
    rest = [(r, c) for r in range(GRID_SIZE) for c in range(GRID_SIZE) if (r, c) not in mountains + beside]
    fills = beside + [rest[i] for i in rng.choice(len(rest), 22, replace=False)]
    for r, c in fills:
        x, y = centres[r, c]
        h = int(cell / 2)
        cv2.rectangle(page, (int(x) - h, int(y) - h), (int(x) + h, int(y) + h), (50, 60, 70), -1)
    found = square_map(page, lat)
    assert len(squares(found, "A", 0, (0, 1))) >= SHIFTED_SQUARES  # without the chance test it would move
    assert shifted_squares(found, "A", 0) == []
    assert placed(page, lat, "A", 0) is lat


def test_shift_field_is_one_move_that_every_square_agrees_with():
    three = [Square(1, 3, 1.02, 0.0), Square(2, 8, 0.97, 0.05), Square(9, 7, 1.0, -0.03)]
    field = shift_field(three)
    assert field is not None and field.shape == (GRID_SIZE + 1, GRID_SIZE + 1, 2)
    assert np.allclose(field[..., 0], 1.0) and np.allclose(field[..., 1], 0.0)
    # three squares fit an affine field exactly whatever they say; one move they must agree with
    assert shift_field([*three[:2], Square(9, 7, 0.6, 0.3)]) is None
