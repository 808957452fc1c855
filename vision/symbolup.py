"""Stage 2g: which way up, from the symbols and initials the player drew in the cells.

Why: a home-made sheet (squared paper, a grid ruled in a notebook, a generic print) often carries no text around
its grid and, on side A, nothing printed that is not symmetric under a half turn; but the player drew the map
the way they were sitting: trees stand on their trunks, houses have their roofs on top, faces their eyes above
the mouth, and initials (F V A W M, O K T S C) are written upright. The symbol model (`vision.symbols`, trained
on upright symbols and letters only) recognises a cell's strokes best the right way up. Each cell with a
symbol-sized drawing is shown to it under the four turns; a cell's vote is how much worse its best class fits
each turn than its best turn, floored so that no one cell decides (a dot, a wave or an X, which look alike
turned, vote nothing), and the votes add up over the map like the text's (`vision.upright.TextVotes`).

Only strokes lying inside their cell count: pieces of a hand-ruled grid line or of the paper's rulings reach the
cell's edge, a symbol does not. Colour fills and hatching in colour are not strokes (`vision.features.planes`).
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.cartographers.data import GRID_SIZE
from vision import symbols
from vision.features import describe_maps, planes, shape_map, stretch
from vision.upright import TextVotes

CELL_PX = 32  # pixels per cell of the straightened cells
CROP_MARGIN = 0.1  # of a cell cut off each side: the grid line itself
STROKE_ON = 0.3  # stroke strength that counts as drawn
MIN_COVER, MAX_COVER = 0.03, 0.45  # share of the crop a symbol covers (less: a speck; more: a fill or hatching)
CELL_FLOOR = 2.5  # one cell's vote against a turn is never below this many log units
EDGE_LINE_WIDTH, EDGE_LINE_LENGTH = 0.2, 0.5  # a stroke from the edge this thin and this long is a line
MIN_SPAN = 0.3  # a drawing spanning less than this share of the crop both ways is a dot (no direction)
MAX_CELLS = 48  # the cells with the most strokes vote (the sum is capped in vision.orient long before: speed)


def cell_crops(image: np.ndarray, points: np.ndarray, cell: int = CELL_PX) -> np.ndarray:
    """(11, 11, cell, cell, 3) float 0..1 crops of each cell, warped from its own four measured corners.

    A hand-ruled grid is not a homography: each cell is straightened from its own corners (`Lattice.points`,
    lattice order), so the grid's bends stay on the crops' edges.
    """
    out = np.zeros((GRID_SIZE, GRID_SIZE, cell, cell, 3), np.float32)
    dst = np.float32([[0, 0], [cell, 0], [cell, cell], [0, cell]])
    img = image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    for r in range(GRID_SIZE):
        for c in range(GRID_SIZE):
            src = np.float32([points[r, c], points[r, c + 1], points[r + 1, c + 1], points[r + 1, c]])
            M = cv2.getPerspectiveTransform(src, dst)
            out[r, c] = cv2.warpPerspective(img, M, (cell, cell), flags=cv2.INTER_AREA,
                                            borderMode=cv2.BORDER_REPLICATE).astype(np.float32) / 255.0
    return out


def inner_strokes(stroke: np.ndarray, on: float = STROKE_ON) -> np.ndarray:
    """A cell's stroke map without the pieces of line that run in from its edge (the grid's bends, a ruling).

    A symbol or a letter lies inside its cell; a thin straight stroke that reaches the crop's edge belongs to
    the grid or the paper. (A symbol that touches a faint paper line stays: it is no thin line.)
    """
    mask = (stroke > on).astype(np.uint8)
    n, lab, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    h, w = stroke.shape
    drop = np.zeros(n, bool)
    for i in range(1, n):
        x, y, bw, bh, _ = stats[i]
        at_edge = x == 0 or y == 0 or x + bw >= w or y + bh >= h
        drop[i] = at_edge and min(bw / w, bh / h) <= EDGE_LINE_WIDTH and max(bw / w, bh / h) >= EDGE_LINE_LENGTH
    if not drop.any():
        return stroke
    gone = cv2.dilate(drop[lab].astype(np.uint8), np.ones((3, 3), np.uint8)) > 0  # with its faint rim
    return np.where(gone, 0.0, stroke).astype(np.float32)


def symbol_strokes(crop: np.ndarray) -> np.ndarray | None:
    """The inner strokes of one cell crop (float BGR 0..1, normalised to its paper), None without a symbol."""
    cell = crop.shape[0]
    m = int(round(CROP_MARGIN * cell))
    s = inner_strokes(planes(crop).stroke[m : cell - m, m : cell - m])
    on = s > STROKE_ON
    cover = float(on.mean())
    if not MIN_COVER < cover < MAX_COVER:
        return None
    ys, xs = np.nonzero(on)
    span = max(int(np.ptp(ys)), int(np.ptp(xs))) / s.shape[0]
    return s if span >= MIN_SPAN else None


def turn_votes_of(strokes: list[np.ndarray]) -> TextVotes:
    """Summed, floored log-likelihood of the cells' best class under each turn k (np.rot90 of the lattice).

    The symbol model's input (`vision.features.stroke_shape`: the strokes stretched, cropped square around their
    extent, resized, blurred) is made once per cell and turned: each step is the same turned or not.
    """
    if not strokes or not symbols.available():
        return TextVotes(np.zeros(4), 0)
    maps = [shape_map(stretch(s), 0.3) for s in strokes]
    best = []
    for k in range(4):
        desc = describe_maps([None if m is None else np.ascontiguousarray(np.rot90(m, k)) for m in maps])
        p, classes = symbols.class_probs(desc)
        p = p.copy()
        p[:, [j for j, c in enumerate(classes) if c == symbols.OTHER]] = 0.0
        best.append(np.log(p.max(axis=1) + 1e-3))
    lq = np.stack(best, axis=1)  # (n, 4)
    v = np.maximum(lq - lq.max(axis=1, keepdims=True), -CELL_FLOOR).sum(axis=0)
    return TextVotes(v - v.max(), len(strokes))


def symbol_votes(image: np.ndarray, points: np.ndarray) -> TextVotes:
    """The drawn symbols of a lattice (its measured intersections, lattice order) voting on its four turns."""
    crops = cell_crops(image, points)
    ref = np.percentile(crops.reshape(-1, 3), 95, axis=0)
    norm = np.clip(crops / np.maximum(ref, 1e-3), 0.0, 1.0)
    strokes = [s for s in (symbol_strokes(norm[r, c]) for r in range(GRID_SIZE) for c in range(GRID_SIZE))
               if s is not None]
    strokes.sort(key=lambda s: -float(s.sum()))
    return turn_votes_of(strokes[:MAX_CELLS])
