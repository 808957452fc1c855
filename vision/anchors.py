"""The game's pad placed by its printed mountain squares, where its own faint lines placed it a part of a cell off.

Why: the pad's grid is printed in thin dashed orange-brown lines, and a finished map covers them with the
player's symbols. The lattice search (`vision.lattice.measure`) follows the strongest evenly spaced strokes,
and on a pad those can be the symbols' own (the vertical strokes of waves, trees and walls drawn at the same
place in every cell): a lattice that is a grid, with the right number of cells, but a third of a cell off
(on the development pad photos read that far off, every candidate lattice was 0.2–0.5 cell from the truth).
Each cell's patch is then cut across two cells, and the whole sheet is doubted or read wrong.

The pad prints each of its five mountains as a dark square filling its cell, edge to edge with the grid: the
one printed feature no player covers, darker than any line, on every pad. Once the side and way up are known,
each mountain cell is looked for around where the lattice puts it; where at least four are found as solid
squares (dark along all four of their inner edges, light around them) and agree on how the lattice is off, the
lattice is moved by that (`placed`). A lattice the squares find within `MIN_MOVE` of them is kept as it is
(its measured bends follow a curled page better than five squares can). Sheets whose mountains are not such
squares — ours, generic prints, a player's own peaks — find none and keep their lattice.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.cartographers.data import GRID_SIZE, MAPS
from vision.lattice import Lattice

LOCAL = 32  # pixels per cell of the frame the mountains are looked for in
REACH = 0.5  # cells: how far from the lattice's cell a mountain's square may lie
EDGE = 0.18  # cells: width of each inner edge strip of the square, and of the ring around it
SOLID = 0.35  # darkness every inner edge strip of a printed mountain square has at least
CONTRAST = 0.25  # how much darker the square's edge strips are than the ring around it
MIN_SQUARES = 4  # mountains found as squares needed before the lattice is moved (a player's own dark peaks
# on a hand-ruled grid can make three)
SHIFTED_SQUARES = 3  # squares a whole cell away, all in one direction, that move the lattice there (`shifted_squares`)
SHIFT_CHANCE = 0.01  # at most this chance that so many squares fall there as the sheet's other squares do
AGREE = 0.15  # cells: each square's offset from the offsets' fit, at most
MIN_MOVE = 0.15  # cells: the squares' median offset below which the lattice is kept as it is
FRAME_PAD = 2  # cells of the frame around the grid: more than a square's reach and ring


@dataclass(frozen=True)
class Square:
    """A printed mountain square found near lattice cell (`row`, `col`): its offset (cells, lattice frame)."""

    row: int
    col: int
    dx: float
    dy: float


@dataclass(frozen=True)
class SquareMap:
    """For every place a square one cell wide could have its top-left corner in the lattice's frame (the grid
    and `FRAME_PAD` cells around it at `LOCAL` px per cell, through the lattice's homography): its weakest inner
    edge strip's darkness (`weakest`) and that minus the ring around it (`score`); index [y - e, x - e]."""

    weakest: np.ndarray
    score: np.ndarray
    e: int

    def square_at(self, row: float, col: float) -> tuple[float, float] | None:
        """(dx, dy) of the best solid square within `REACH` of lattice cell (`row`, `col`) (cells), or
        None when the best place is not dark along all four edges (`SOLID`) or not lighter around (`CONTRAST`)."""
        r = int(round(REACH * LOCAL))
        y = int(round((row + FRAME_PAD) * LOCAL)) - self.e
        x = int(round((col + FRAME_PAD) * LOCAL)) - self.e
        h, w = self.score.shape
        y0, y1, x0, x1 = max(0, y - r), min(h, y + r + 1), max(0, x - r), min(w, x + r + 1)
        if y0 >= y1 or x0 >= x1:
            return None
        sc = self.score[y0:y1, x0:x1]
        i, j = np.unravel_index(int(np.argmax(sc)), sc.shape)
        if self.weakest[y0 + i, x0 + j] < SOLID or sc[i, j] < CONTRAST:
            return None
        return (x0 + j - x) / LOCAL, (y0 + i - y) / LOCAL


def square_map(image: np.ndarray, lat: Lattice) -> SquareMap:
    """The lattice's frame searched for solid squares one cell wide (`SquareMap`).

    A printed mountain square is dark along all four of its inner edges (each `EDGE` wide), and the ring around
    it is lighter: a triangle or a cross is not dark along every edge, and a dark fill that runs on past the
    square has no light ring. Darkness is against the paper around (a maximum over two cells), so a square's
    own inside never counts as paper.
    """
    L = LOCAL
    size = (GRID_SIZE + 2 * FRAME_PAD) * L
    A = lat.homography @ np.array([[1 / L, 0, -FRAME_PAD], [0, 1 / L, -FRAME_PAD], [0, 0, 1.0]])
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    frame = cv2.warpPerspective(gray, A, (size, size), flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
                                borderMode=cv2.BORDER_REPLICATE)
    paper = cv2.blur(cv2.dilate(frame, cv2.getStructuringElement(cv2.MORPH_RECT, (2 * L + 1, 2 * L + 1))),
                     (L, L)).astype(np.float32)
    dark = np.clip(1.0 - frame.astype(np.float32) / np.maximum(paper, 8.0), 0.0, 1.0)
    sat = cv2.integral(dark, sdepth=cv2.CV_64F)
    e = max(2, int(round(EDGE * L)))
    n = size - L - 2 * e + 1  # top-left corners whose ring fits in the frame, from (e, e)

    def box(dx: int, dy: int, w: int, h: int) -> np.ndarray:
        """Mean darkness of the w × h box at (dx, dy) from every top-left corner (a summed-area table)."""
        ya, xa = e + dy, e + dx
        return (sat[ya + h : ya + h + n, xa + w : xa + w + n] - sat[ya : ya + n, xa + w : xa + w + n]
                - sat[ya + h : ya + h + n, xa : xa + n] + sat[ya : ya + n, xa : xa + n]) / float(w * h)

    weakest = np.minimum(np.minimum(box(0, 0, L, e), box(0, L - e, L, e)),
                         np.minimum(box(0, 0, e, L), box(L - e, 0, e, L)))
    outer = box(-e, -e, L + 2 * e, L + 2 * e) * (L + 2 * e) ** 2
    ring = (outer - box(0, 0, L, L) * L**2) / ((L + 2 * e) ** 2 - L**2)
    return SquareMap(weakest, weakest - ring, e)


def mountain_cells(side: str, k: int) -> list[tuple[int, int]]:
    """The side's mountain cells as lattice (row, col) for a lattice turned upright by k quarter turns."""
    idx = np.rot90(np.arange(GRID_SIZE * GRID_SIZE).reshape(GRID_SIZE, GRID_SIZE), k)
    return [divmod(int(idx[r, c]), GRID_SIZE) for r, c in MAPS[side].mountains]


def squares(found: SquareMap, side: str, k: int, shift: tuple[int, int] = (0, 0)) -> list[Square]:
    """The side's mountains found as printed squares near where the lattice (upright by k), moved by `shift`
    (whole cells: rows, columns), puts them; their offsets are from the unmoved lattice's cells."""
    out = []
    for row, col in mountain_cells(side, k):
        got = found.square_at(row + shift[0], col + shift[1])
        if got is not None:
            out.append(Square(row, col, got[0] + shift[1], got[1] + shift[0]))
    return out


WHOLE_CELL_SHIFTS = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1))


def shift_chance(hits: int, mountains: int, others: int, cells: int) -> float:
    """The chance that `hits` or more of `mountains` cells are solid squares when squares fall at random as
    `others` of the other `cells` do (a binomial tail), times the number of directions tried."""
    p = others / max(cells, 1)
    tail = sum(math.comb(mountains, j) * p**j * (1 - p) ** (mountains - j) for j in range(hits, mountains + 1))
    return min(1.0, tail * len(WHOLE_CELL_SHIFTS))


def shifted_squares(found: SquareMap, side: str, k: int) -> list[Square]:
    """The side's mountains found as printed squares a whole cell from where the lattice puts them, all in the
    same direction, at least `SHIFTED_SQUARES` of them and not by chance (`SHIFT_CHANCE`; the direction with
    the most wins), or [].

    Why: the pad's decorated frame is a band of dashes about a cell wide all round the grid, and on a curled,
    blurred photo of a well-filled pad the lattice search can take that band for the grid's first column: a
    lattice on the strokes, with the right number of cells, one whole cell off (photogen2 development photo
    e_0069, pad, hard: 52 cells read wrong and sure, none of the mountains where the lattice put them). Three
    squares a cell away in one direction, where none is at the lattice's own cells, are the side's mountain
    pattern moved one cell — unless the player's dark fills make solid squares as often elsewhere: on a
    well-filled generic or squared sheet a fifth of all cells are such squares, and three of five mountains'
    neighbours one way are then likely by chance (the sheets in `tests/test_vision_lattice.py` were moved a cell
    off so). Three, not `MIN_SQUARES`: a mountain printed between dark fills has no light ring round it (two of
    that pad's five).
    """
    n = len(mountain_cells(side, k))
    # solid squares at every cell of the grid and one cell round it: each shifted grid's count is a window sum
    at = np.array([[found.square_at(r, c) is not None for c in range(-1, GRID_SIZE + 1)]
                   for r in range(-1, GRID_SIZE + 1)])
    best: list[Square] = []
    for dr, dc in WHOLE_CELL_SHIFTS:
        got = squares(found, side, k, (dr, dc))
        if len(got) < SHIFTED_SQUARES or len(got) <= len(best):
            continue
        others = int(at[1 + dr : 1 + dr + GRID_SIZE, 1 + dc : 1 + dc + GRID_SIZE].sum()) - len(got)
        if shift_chance(len(got), n, others, GRID_SIZE * GRID_SIZE - n) <= SHIFT_CHANCE:
            best = got
    return best


def offset_field(found: list[Square]) -> np.ndarray | None:
    """(12, 12, 2) offsets (cells, lattice frame) for every crossing: an affine fit over the grid of the
    squares' offsets, or None when there are too few squares or they disagree."""
    if len(found) < MIN_SQUARES:
        return None
    uv = np.array([(s.col + 0.5, s.row + 0.5) for s in found])
    off = np.array([(s.dx, s.dy) for s in found])
    terms = np.column_stack([np.ones(len(found)), uv])
    coef, *_ = np.linalg.lstsq(terms, off, rcond=None)
    if np.abs(terms @ coef - off).max() > AGREE:
        return None
    v, u = np.mgrid[0 : GRID_SIZE + 1, 0 : GRID_SIZE + 1].astype(np.float64)
    return np.stack([np.ones_like(u), u, v], axis=-1) @ coef


def shift_field(found: list[Square]) -> np.ndarray | None:
    """(12, 12, 2) offsets (cells, lattice frame) for every crossing: the squares' median offset, one move of the
    whole lattice, or None when any square is more than `AGREE` from it (a few squares fit any affine field)."""
    off = np.array([(s.dx, s.dy) for s in found])
    move = np.median(off, axis=0)
    if np.abs(off - move).max() > AGREE:
        return None
    return np.broadcast_to(move, (GRID_SIZE + 1, GRID_SIZE + 1, 2)).copy()


def placed(image: np.ndarray, lat: Lattice, side: str, k: int) -> Lattice:
    """The lattice moved onto the pad's printed mountain squares of `side` upright by k (see the module's
    docstring), or as it is."""
    if side not in MAPS:
        return lat
    squares_map = square_map(image, lat)
    found = squares(squares_map, side, k)
    if not found:  # none where the lattice puts them: perhaps all a whole cell away (the frame taken for a column)
        away = shifted_squares(squares_map, side, k)
        field = shift_field(away) if away else None
    else:
        # A lattice on the lines already sits within a few hundredths of a cell of the squares; moving it then
        # would trade its measured bends (a curled page) for the squares' own scatter.
        if float(np.median([np.hypot(s.dx, s.dy) for s in found])) < MIN_MOVE:
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
