"""Stage 4: normalise light — divide by the paper's own brightness, estimated block by block.

Why not one blur or closing: players colour whole regions, and a 3×3 forest is
bigger than any kernel that still follows a shadow's edge. So the page is cut
into half-cell blocks; a block counts as paper when its bright pixels are
neutral (no chroma after a global white balance) and not far darker than its
neighbourhood; the other blocks (ink, printed mountains, markers) are filled in
from the surrounding paper. Dividing by that background removes gradients and
soft shadows and white-balances in one step: paper becomes (1, 1, 1).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.geometry import Canon, printed_cells

PAPER_TINT = 0.2  # (max − min) / mean of a cell's bright pixels above which they are ink, not paper
PAPER_MIN_CELLS = 3  # near-grey cells needed before the grid's paper is measured from them
FOLD_FROM = 1.1  # a channel this far above the paper's is a vivid ink's, not paper noise (`fold_highlights`)


def block_percentile(img: np.ndarray, block: int, q: float = 90) -> np.ndarray:
    """Per-block, per-channel percentile of an H×W×C image → (H//block)×(W//block)×C float32."""
    h, w, ch = img.shape
    nh, nw = h // block, w // block
    # One contiguous row per block and channel, widened to int16: numpy's selection is several times faster
    # on contiguous 16-bit rows than on strided uint8 (same values: the k-th smallest is exact).
    a = img[: nh * block, : nw * block].reshape(nh, block, nw, block, ch).transpose(0, 2, 4, 1, 3)
    a = a.reshape(nh, nw, ch, block * block)
    if a.dtype == np.uint8:
        a = a.astype(np.int16)
    k = int(round(q / 100 * (block * block - 1)))
    return np.partition(a, k, axis=3)[..., k].astype(np.float32)


def paper_background(img: np.ndarray, canon: Canon | None = None, side: str | None = None) -> np.ndarray:
    """Estimated paper colour at every pixel (float32, same shape as `img`)."""
    h, w = img.shape[:2]
    block = max(8, int(round(canon.cell_px / 2))) if canon else max(8, min(h, w) // 40)
    p = block_percentile(img, block, 90)
    lum = p.mean(axis=2)
    bright = lum >= np.percentile(lum, 70)
    # Global paper colour (white-balance reference); clipped blocks hide the colour cast, so skip them.
    unclipped = bright & (p.max(axis=2) < 250)
    white = np.median(p[unclipped if unclipped.sum() >= 20 else bright], axis=0)
    n = p / np.maximum(white, 1.0)
    nl = n.mean(axis=2)
    chroma = (n.max(axis=2) - n.min(axis=2)) / np.maximum(nl, 1e-3)
    # Chroma against the local paper too: a clipped channel or a coloured lamp shifts the
    # global reference, while neighbouring paper blocks share the same light.
    local = cv2.dilate(p, np.ones((7, 7), np.uint8))
    nloc = p / np.maximum(local, 1.0)
    chroma_local = (nloc.max(axis=2) - nloc.min(axis=2)) / np.maximum(nloc.mean(axis=2), 1e-3)
    envelope = cv2.dilate(nl, np.ones((7, 7), np.uint8))
    ok = (chroma_local < 0.12) & (chroma < 0.3) & (nl > 0.4 * envelope) & (nl > 0.15)
    if canon is not None and side is not None:
        for (r, c) in printed_cells(side):
            x, y, s = canon.cell_box(r, c)
            ok[int(y // block) : int((y + s) // block) + 1, int(x // block) : int((x + s) // block) + 1] = False
    if ok.mean() < 0.05:  # nothing looks like paper: fall back to the bright envelope
        ok = bright
    scale = 255.0 / max(float(p.max()), 1.0)
    p8 = np.clip(p * scale, 0, 255).astype(np.uint8)
    filled = cv2.inpaint(p8, (~ok).astype(np.uint8) * 255, 3, cv2.INPAINT_TELEA).astype(np.float32) / scale
    filled = np.where(ok[..., None], p, filled)
    filled = cv2.GaussianBlur(filled, (0, 0), 0.8)
    core = cv2.resize(filled, (w // block * block, h // block * block), interpolation=cv2.INTER_LINEAR)
    # the last block row and column replicated to the full size, floored at 1, without whole-image temporaries
    ch, cw = core.shape[:2]
    bg = np.empty((h, w, *core.shape[2:]), np.float32)
    np.maximum(core, 1.0, out=bg[:ch, :cw])
    bg[ch:, :cw] = bg[ch - 1 : ch, :cw]
    bg[:, cw:] = bg[:, cw - 1 : cw]
    return bg


def normalise_light(img: np.ndarray, canon: Canon | None = None, side: str | None = None) -> np.ndarray:
    """`img` divided by its paper background: float32 in about 0..1.2 with paper at 1 in every channel."""
    out = img.astype(np.float32)
    np.divide(out, paper_background(img, canon, side), out=out)
    return np.clip(out, 0, 1.5, out=out)


def fold_highlights(img: np.ndarray) -> np.ndarray:
    """Pixels far brighter than the paper in some channel scaled down whole, keeping their hue (in place).

    Ink cannot reflect more than paper, but fluorescent and vivid inks (an orange felt-tip, a salmon
    watercolour) and a phone's tone curve put one channel well above the paper's. Clipping that channel alone
    at 1, as the Lab conversion does, keeps the other two and turns a red-orange village yellow, a farm's
    colour. Paper noise and a slight tint (up to `FOLD_FROM`) are left alone: scaling them would darken paper
    into ink (notebook rulings on cream paper then fill every empty cell).
    """
    top = np.maximum(np.maximum(img[..., 0], img[..., 1]), img[..., 2])
    over = top > FOLD_FROM
    if over.any():
        img[over] /= top[over][:, None]
    return img


def paper_level(img: np.ndarray) -> float:
    """Brightness (0..255) of the paper in a canonical image: used by the too-dark gate."""
    p = block_percentile(img, max(8, min(img.shape[:2]) // 30), 90).mean(axis=2)
    return float(np.percentile(p, 75))


def grid_paper(norm: np.ndarray, boxes: dict, margin: float = 0.15) -> np.ndarray:
    """The paper colour inside the grid (BGR, ~1 on white paper): the brightest cells' bright pixels.

    Pads and other printed sheets tint the grid's inside (cream cells on white paper), and even on white paper
    the grid's own light may differ from the margin's. Hatching leaves paper between its strokes, so a cell's
    90th percentile is paper unless it is solidly filled; the median over the brightest third of the cells is
    the grid's paper even on a map that is mostly coloured in.
    """
    crops = []
    for x, y, s in boxes.values():
        m = s * margin
        a = norm[int(y + m) : int(y + s - m), int(x + m) : int(x + s - m)]
        if a.size:
            crops.append(a.reshape(-1, 3))
    if not crops:
        return np.ones(3, np.float32)
    # Cells of one crop size at once (one percentile call per size, not per cell; the same numbers).
    tops: list = [None] * len(crops)
    by_size: dict[int, list[int]] = {}
    for k, a in enumerate(crops):
        by_size.setdefault(a.shape[0], []).append(k)
    for ks in by_size.values():
        for k, v in zip(ks, np.percentile(np.stack([crops[k] for k in ks]), 90, axis=1), strict=True):
            tops[k] = v
    t = np.array(tops, np.float32)
    lum = t.mean(axis=1)
    # A solidly coloured cell (marker, felt-tip, a watercolour wash) shows no paper between its strokes: its
    # bright pixels are ink. On a map coloured in edge to edge the brightest cells may all be yellow farms, and
    # dividing by yellow turns every green into blue. Paper is near grey after `normalise_light` (a printed
    # cream tint is a few per cent), so only near-grey cells speak for it; with too few of them the page's
    # own normalisation stands.
    paperlike = (t.max(axis=1) - t.min(axis=1)) / np.maximum(lum, 1e-3) < PAPER_TINT
    if paperlike.sum() < PAPER_MIN_CELLS:
        return np.ones(3, np.float32)
    # the brightest third of all the cells, of those that are paper-like (the same cells as before on a map
    # with paper showing; fewer cells would pick the highlights)
    order = np.argsort(-lum[paperlike], kind="stable")
    bright = t[paperlike][order[: max(PAPER_MIN_CELLS, int(np.ceil(len(t) / 3)))]]
    return np.clip(np.median(bright, axis=0), 0.3, 1.5).astype(np.float32)


def whiten(norm: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """`norm` divided by the grid's paper colour, so the cells' own paper is (1, 1, 1) (see `fold_highlights`)."""
    return fold_highlights(np.clip(norm / paper.reshape(1, 1, 3), 0, 1.5).astype(np.float32))
