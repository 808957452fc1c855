"""Glare: find cells washed out by a specular highlight, so they are flagged instead of read as empty.

A bright reflection saturates the sensor: paper, pencil and print all become
white there. Saturation alone proves nothing (bright paper clips too), but the
printed lines are the tell: around every cell the grid (or the legend box) is
printed, and a player's drawing only ever makes it darker. A cell whose own
printed outline has faded far below the sheet's typical outline is under glare.
"""

from __future__ import annotations

import numpy as np

from companion.cartographers.data import GRID_SIZE

# Outlines of empty cells are the faintest normal ones (a drawing only darkens an outline), so a grid cell is
# compared with the lower quartile of all cells; the five legend boxes are printed alike, so with their median.
CELL_FADED, CELL_REF_PERCENTILE = 0.3, 25
LEGEND_FADED = 0.5
PARTLY_FADED = 0.5  # between CELL_FADED and this, confidence is capped in proportion


def outline_strengths(ink: np.ndarray, boxes: list[tuple[float, float, float]], origin: tuple[int, int] = (0, 0),
                      shape: tuple[int, ...] | None = None) -> np.ndarray:
    """Mean ink along the middle 60 % of each square's four edges (max over ±2 px across each edge).

    All squares at once (one fancy-index per edge side), not a Python loop over boxes. `ink` may be the part
    of an image of `shape` whose top-left pixel is `origin` (row, column), holding every outline read.
    """
    h, w = (shape or ink.shape)[:2]
    oy, ox = origin
    b = np.asarray(boxes, np.float64).reshape(-1, 3)
    x, y, s = b[:, :1], b[:, 1:2], b[:, 2:3]
    along = np.linspace(0.2, 0.8, 12) * s  # (n, 12)
    across = np.arange(-2, 3)[None, :]  # (1, 5)
    vals = []
    for horizontal, fixed in ((True, y), (True, y + s), (False, x), (False, x + s)):
        if horizontal:
            xs = np.clip(np.round(x + along).astype(int), 0, w - 1)
            ys = np.clip(np.round(fixed + across).astype(int), 0, h - 1)
            vals.append(ink[ys[:, :, None] - oy, xs[:, None, :] - ox].max(axis=1).mean(axis=1))
        else:
            ys = np.clip(np.round(y + along).astype(int), 0, h - 1)
            xs = np.clip(np.round(fixed + across).astype(int), 0, w - 1)
            vals.append(ink[ys[:, :, None] - oy, xs[:, None, :] - ox].max(axis=2).mean(axis=1))
    return np.mean(np.stack(vals), axis=0).astype(np.float64)


def outline_strength(ink: np.ndarray, box: tuple[float, float, float]) -> float:
    """`outline_strengths` of one square."""
    return float(outline_strengths(ink, [box])[0])


def washed_out(strengths: np.ndarray, faded: float, percentile: float = 50) -> np.ndarray:
    """True where an outline is much fainter than the typical outline of its kind."""
    ref = float(np.percentile(strengths, percentile))
    if ref < 0.04:  # outlines invisible everywhere: nothing to compare against
        return np.zeros(strengths.shape, bool)
    return strengths < faded * ref


def outline_ratios(ink: np.ndarray, boxes: dict[tuple[int, int], tuple[float, float, float]],
                   empty: set[tuple[int, int]] | None = None, origin: tuple[int, int] = (0, 0),
                   shape: tuple[int, ...] | None = None) -> np.ndarray:
    """11×11 outline strength of each grid cell relative to the sheet's faint-outline reference (1 = normal).

    The reference is the median outline of the cells read as empty (their outline is the bare printed line)
    when there are enough of them; otherwise the lower quartile of all cells.
    """
    keys = [(r, c) for r in range(GRID_SIZE) for c in range(GRID_SIZE)]
    strength = outline_strengths(ink, [boxes[k] for k in keys], origin, shape)
    plain = [s for k, s in zip(keys, strength, strict=True) if empty and k in empty]
    ref = float(np.median(plain)) if len(plain) >= 8 else float(np.percentile(strength, CELL_REF_PERCENTILE))
    if ref < 0.04:
        return np.ones((GRID_SIZE, GRID_SIZE))
    return (strength / ref).reshape(GRID_SIZE, GRID_SIZE)


def glare_cells(ink: np.ndarray, boxes: dict[tuple[int, int], tuple[float, float, float]]) -> set[tuple[int, int]]:
    """Grid cells (row, col) whose printed outline has faded under a highlight."""
    ratio = outline_ratios(ink, boxes)
    return {(int(r), int(c)) for r, c in zip(*np.nonzero(ratio < CELL_FADED), strict=True)}


def glare_confidence_cap(ratio: np.ndarray) -> np.ndarray:
    """Highest confidence a cell may keep given how faded its outline is: 0 when washed out, 1 when normal."""
    return np.clip((ratio - CELL_FADED) / (PARTLY_FADED - CELL_FADED), 0, 1)


def glare_legend(ink: np.ndarray, boxes: dict[str, tuple[float, float, float]], origin: tuple[int, int] = (0, 0),
                 shape: tuple[int, ...] | None = None) -> set[str]:
    """Legend squares whose printed box has faded under a highlight."""
    names = list(boxes)
    strength = outline_strengths(ink, [boxes[n] for n in names], origin, shape)
    return {n for n, bad in zip(names, washed_out(strength, LEGEND_FADED), strict=True) if bad}
