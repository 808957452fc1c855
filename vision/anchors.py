"""The game's pad placed by its printed mountain squares, where its own faint lines placed it a part of a cell off.

Why: the pad's grid is printed in thin dashed orange-brown lines, and a finished map covers them with the
player's symbols. The lattice search (`vision.lattice.measure`) follows the strongest evenly spaced strokes,
and on a pad those can be the symbols' own (the vertical strokes of waves, trees and walls drawn at the same
place in every cell): a lattice that is a grid, with the right number of cells, but a third of a cell off
(on the development pad photos read that far off, every candidate lattice was 0.2–0.5 cell from the truth).
Each cell's patch is then cut across two cells, and the whole sheet is doubted or read wrong.

The pad prints each of its five mountains as a dark square filling its cell, edge to edge with the grid: the
one printed feature no player covers, darker than any line, on every pad. Once the side and way up are known,
each mountain cell is looked for around where the lattice puts it; where at least three are found as solid
squares (dark along all four of their inner edges, light around them) and agree on how the lattice is off, the
lattice is moved by that (`anchored`). A lattice the squares find within `MIN_MOVE` of them is kept as it is
(its measured bends follow a curled page better than five squares can). Sheets whose mountains are not such
squares — ours, generic prints, a player's own peaks — find none and keep their lattice.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.cartographers.data import GRID_SIZE, MAPS
from vision.lattice import Lattice

LOCAL = 32  # pixels per cell of the window a mountain is looked for in
REACH = 0.5  # cells: how far from the lattice's cell a mountain's square may lie
EDGE = 0.18  # cells: width of each inner edge strip of the square, and of the ring around it
SOLID = 0.35  # darkness every inner edge strip of a printed mountain square has at least
CONTRAST = 0.25  # how much darker the square's edge strips are than the ring around it
MIN_SQUARES = 3  # mountains found as squares needed before the lattice is moved
AGREE = 0.15  # cells: each square's offset from the offsets' fit, at most
MIN_MOVE = 0.15  # cells: the squares' median offset below which the lattice is kept as it is


@dataclass(frozen=True)
class Square:
    """A printed mountain square found near lattice cell (`row`, `col`): its offset (cells, lattice frame)."""

    row: int
    col: int
    dx: float
    dy: float
    strength: float  # the square's weakest edge strip's darkness minus the ring's


def cell_window(image: np.ndarray, lat: Lattice, row: int, col: int) -> tuple[np.ndarray, np.ndarray]:
    """The cell (`row`, `col`) where the lattice's homography puts it, with `REACH` + `EDGE` cells around it,
    warped to a square of `LOCAL` px per cell (darkness 0..1 against the window's paper), and the matrix taking
    window px to image px."""
    corners = np.float64([[[col, row], [col + 1, row], [col + 1, row + 1], [col, row + 1]]])
    quad = cv2.perspectiveTransform(corners, lat.homography)[0].astype(np.float32)
    m = REACH + EDGE
    size = int(round((1 + 2 * m) * LOCAL))
    lo, hi = m * LOCAL, (1 + m) * LOCAL
    dst = np.float32([[lo, lo], [hi, lo], [hi, hi], [lo, hi]])
    A = cv2.getPerspectiveTransform(dst, quad)
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    win = cv2.warpPerspective(gray, A, (size, size), flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    paper = max(float(np.percentile(win, 90)), 8.0)
    return np.clip(1.0 - win / paper, 0.0, 1.0), A


def _box_means(sat: np.ndarray, x0: np.ndarray, y0: np.ndarray, w: int, h: int) -> np.ndarray:
    """Mean of the window over boxes of w × h px at every (x0, y0) (a summed-area table `sat`)."""
    return (sat[y0 + h, x0 + w] - sat[y0, x0 + w] - sat[y0 + h, x0] + sat[y0, x0]) / float(w * h)


def find_square(dark: np.ndarray) -> tuple[float, float, float] | None:
    """(dx, dy, strength) of the solid square one cell wide nearest the window's middle, or None.

    Every position within `REACH` is scored by its weakest inner edge strip (top, bottom, left, right, each
    `EDGE` wide) against the ring around the square: a solid printed square is dark along all four, a
    triangle or a cross is not, and a dark fill that runs on past the square has no light ring.
    """
    cell = LOCAL
    e = max(2, int(round(EDGE * cell)))
    m = int(round((REACH + EDGE) * cell))
    r = int(round(REACH * cell))
    sat = cv2.integral(dark.astype(np.float64))
    offs = np.arange(-r, r + 1)
    dy, dx = np.meshgrid(offs, offs, indexing="ij")
    x0, y0 = m + dx, m + dy  # the square's top-left corner at each offset
    strips = np.stack([
        _box_means(sat, x0, y0, cell, e),  # top
        _box_means(sat, x0, y0 + cell - e, cell, e),  # bottom
        _box_means(sat, x0, y0, e, cell),  # left
        _box_means(sat, x0 + cell - e, y0, e, cell),  # right
    ])
    outer = _box_means(sat, x0 - e, y0 - e, cell + 2 * e, cell + 2 * e) * (cell + 2 * e) ** 2
    inner = _box_means(sat, x0, y0, cell, cell) * cell**2
    ring = (outer - inner) / ((cell + 2 * e) ** 2 - cell**2)
    weakest = strips.min(axis=0)
    score = weakest - ring
    i, j = np.unravel_index(int(np.argmax(score)), score.shape)
    if weakest[i, j] < SOLID or score[i, j] < CONTRAST:
        return None
    return float(dx[i, j]) / cell, float(dy[i, j]) / cell, float(score[i, j])


def mountain_cells(side: str, k: int) -> list[tuple[int, int]]:
    """The side's mountain cells as lattice (row, col) for a lattice turned upright by k quarter turns."""
    idx = np.rot90(np.arange(GRID_SIZE * GRID_SIZE).reshape(GRID_SIZE, GRID_SIZE), k)
    return [divmod(int(idx[r, c]), GRID_SIZE) for r, c in MAPS[side].mountains]


def squares(image: np.ndarray, lat: Lattice, side: str, k: int) -> list[Square]:
    """The side's mountains found as printed squares near where the lattice (upright by k) puts them."""
    found = []
    for row, col in mountain_cells(side, k):
        dark, _ = cell_window(image, lat, row, col)
        got = find_square(dark)
        if got is not None:
            found.append(Square(row, col, *got))
    return found


def offset_field(found: list[Square]) -> np.ndarray | None:
    """(12, 12, 2) offsets (cells, lattice frame) for every crossing: an affine fit over the grid of the
    squares' offsets (a constant one when fewer than four), or None when they disagree."""
    if len(found) < MIN_SQUARES:
        return None
    uv = np.array([(s.col + 0.5, s.row + 0.5) for s in found])
    off = np.array([(s.dx, s.dy) for s in found])
    terms = np.column_stack([np.ones(len(found)), uv]) if len(found) >= 4 else np.ones((len(found), 1))
    coef, *_ = np.linalg.lstsq(terms, off, rcond=None)
    if np.abs(terms @ coef - off).max() > AGREE:
        return None
    v, u = np.mgrid[0 : GRID_SIZE + 1, 0 : GRID_SIZE + 1].astype(np.float64)
    grid_terms = np.stack([np.ones_like(u), u, v], axis=-1)[..., : terms.shape[1]]
    return grid_terms @ coef


def anchored(image: np.ndarray, lat: Lattice, side: str, k: int) -> Lattice:
    """The lattice moved onto the pad's printed mountain squares, or as it is (see the module's docstring)."""
    if side not in MAPS:
        return lat
    found = squares(image, lat, side, k)
    # A lattice on the lines already sits within a few hundredths of a cell of the squares; moving it then
    # would trade its measured bends (a curled page) for the squares' own scatter.
    if not found or float(np.median([np.hypot(s.dx, s.dy) for s in found])) < MIN_MOVE:
        return lat
    field = offset_field(found)
    if field is None:
        return lat
    # The pad is printed: its lattice is the homography's, each crossing moved by the squares' offset there
    # (grid units, mapped through the homography); the measured bends that led it off are not kept.
    ideal = np.stack(np.meshgrid(np.arange(GRID_SIZE + 1), np.arange(GRID_SIZE + 1)), axis=-1).astype(np.float64)
    pts = cv2.perspectiveTransform((ideal + field).reshape(1, -1, 2), lat.homography)[0]
    H, _ = cv2.findHomography(ideal.reshape(-1, 2), pts, 0)
    if H is None:
        return lat
    return Lattice(H, pts.reshape(GRID_SIZE + 1, GRID_SIZE + 1, 2), lat.score, lat.evidence, lat.from_layout)
