"""Cell patches for the learned cell reader: every cell of the grid as a small square image, the same way in
training and in reading.

Why a stage of its own: the cell model (`vision.cellnet`) is trained on photos whose true cell centres are
known (`scripts/train_cellnet.py`) and runs on the centres the reader found. Both go through `cell_patches`, so
the network sees in reading exactly what it saw in training: each cell through its own local projective map
(a phone photo is locally a homography, curl included), a little of the grid lines and neighbours around it,
anti-aliased to a fixed size, its colours divided by the paper's white measured around the grid.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.cartographers.data import GRID_SIZE

PATCH = 40  # pixels of one patch side
MARGIN = 0.2  # cell widths of context on each side (the grid lines and the neighbours' overshoot)


def extrapolate(centres: np.ndarray, pad: int = 2) -> np.ndarray:
    """(11+2p, 11+2p, 2) cell centres with `pad` rings added by linear extrapolation along rows and columns."""
    c = np.asarray(centres, np.float64)
    for axis in (0, 1):
        c = np.moveaxis(c, axis, 0)
        lo = [c[0] - (k + 1) * (c[1] - c[0]) for k in range(pad)][::-1]
        hi = [c[-1] + (k + 1) * (c[-1] - c[-2]) for k in range(pad)]
        c = np.concatenate([np.stack(lo), c, np.stack(hi)], axis=0)
        c = np.moveaxis(c, 0, axis)
    return c


def corner_nodes(centres: np.ndarray) -> np.ndarray:
    """(12, 12, 2) cell corners: each the mean of the four cell centres around it (edges extrapolated)."""
    c = extrapolate(centres, 1)
    return (c[:-1, :-1] + c[:-1, 1:] + c[1:, :-1] + c[1:, 1:]) / 4.0


def grid_quads(centres: np.ndarray) -> np.ndarray:
    """(121, 4, 2) corners of every cell (TL, TR, BR, BL), row by row, from the 11×11 centres."""
    nodes = corner_nodes(centres)
    return np.stack([nodes[:-1, :-1], nodes[:-1, 1:], nodes[1:, 1:], nodes[1:, :-1]], axis=2).reshape(-1, 4, 2)


def sample_maps(quads: np.ndarray, size: int = PATCH, margin: float = MARGIN) -> tuple[np.ndarray, np.ndarray]:
    """(map_x, map_y), each (n·size, size) float32: where every patch pixel lies in the photo.

    A patch is its quad's unit square grown by `margin` on every side, through the homography that takes the
    unit square to the quad's four corners.
    """
    t = (np.arange(size, dtype=np.float64) + 0.5) / size * (1 + 2 * margin) - margin
    uu, vv = np.meshgrid(t, t)  # (size, size) unit-square coordinates of the patch pixels
    pts = np.stack([uu.ravel(), vv.ravel(), np.ones(uu.size)], axis=0)  # (3, size²)
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    n = len(quads)
    mx = np.empty((n * size, size), np.float32)
    my = np.empty_like(mx)
    for i, quad in enumerate(np.asarray(quads, np.float32)):
        q = cv2.getPerspectiveTransform(unit, quad) @ pts
        w = np.where(np.abs(q[2]) < 1e-9, 1e-9, q[2])
        mx[i * size : (i + 1) * size] = (q[0] / w).reshape(size, size)
        my[i * size : (i + 1) * size] = (q[1] / w).reshape(size, size)
    return mx, my


def cell_pitch(centres: np.ndarray) -> float:
    """Median distance between neighbouring cell centres, in the photo's pixels."""
    c = np.asarray(centres, np.float64)
    steps = np.concatenate([np.linalg.norm(np.diff(c, axis=0), axis=-1).ravel(),
                            np.linalg.norm(np.diff(c, axis=1), axis=-1).ravel()])
    return float(np.median(steps))


def paper_white(image: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """BGR of the paper (float, 0..255), measured in the band of about one cell around the grid.

    That band is paper on every sheet (row letters, column numbers and a frame cover little of it), while the
    grid itself may be drawn on in every cell. The brighter part of the band is taken, per channel in the same
    pixels, so lines and letters do not darken it; a band cut by the photo's edge uses what remains.
    """
    outer = extrapolate(centres, 1)
    ring = np.concatenate([outer[0], outer[-1], outer[1:-1, 0], outer[1:-1, -1]])
    h, w = image.shape[:2]
    step = max(1.0, cell_pitch(centres) / 6.0)
    samples = []
    offs = np.arange(-2, 3) * step
    for x, y in ring:
        xs = np.clip((x + offs[None, :]).round().astype(int), 0, w - 1)
        ys = np.clip((y + offs[:, None]).round().astype(int), 0, h - 1)
        if 0 <= x < w and 0 <= y < h:
            samples.append(image[ys, xs].reshape(-1, 3))
    if not samples:
        return np.array([255.0, 255.0, 255.0])
    px = np.concatenate(samples).astype(np.float64)
    lum = px.sum(axis=1)
    keep = px[lum >= np.percentile(lum, 70)]
    white = np.median(keep, axis=0)
    return np.maximum(white, 40.0)


def quad_patches(image: np.ndarray, quads: np.ndarray, pitch: float, white: np.ndarray, size: int = PATCH,
                 margin: float = MARGIN) -> np.ndarray:
    """(n, size, size, 3) float32 patches of the quads, BGR divided by the paper's `white` (paper ≈ 1, clipped at
    1.5). `pitch` is a cell's size in the photo's pixels.

    The photo is first shrunk (area-averaged) until a cell spans about 1.5 patch cells, so that fine hatching
    is averaged rather than aliased whatever the photo's resolution.
    """
    quads = np.asarray(quads, np.float64)
    want = 1.5 * size / (1 + 2 * margin)
    scale = 1.0
    if pitch > want * 1.25:
        scale = want / pitch
        x0, y0 = np.floor(quads.reshape(-1, 2).min(0) - 2 * pitch).astype(int)
        x1, y1 = np.ceil(quads.reshape(-1, 2).max(0) + 2 * pitch).astype(int)
        h, w = image.shape[:2]
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
        if x1 - x0 > 8 and y1 - y0 > 8:  # only the part of the photo the patches need is shrunk
            image = cv2.resize(image[y0:y1, x0:x1], None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            quads = quads - (x0, y0)
        else:
            scale = 1.0
    mx, my = sample_maps(quads * scale, size, margin)
    flat = cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    out = flat.astype(np.float32) / np.asarray(white, np.float32)
    np.minimum(out, 1.5, out=out)
    return out.reshape(len(quads), size, size, 3)


def cell_patches(image: np.ndarray, centres: np.ndarray, size: int = PATCH, margin: float = MARGIN,
                 white: np.ndarray | None = None) -> np.ndarray:
    """(11, 11, size, size, 3) patches of the grid's cells around their 11×11 centres (see `quad_patches`)."""
    centres = np.asarray(centres, np.float64)
    if white is None:
        white = paper_white(image, centres)
    out = quad_patches(image, grid_quads(centres), cell_pitch(centres), white, size, margin)
    return out.reshape(GRID_SIZE, GRID_SIZE, size, size, 3)
