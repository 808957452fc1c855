"""Stage 8: the photo-quality gate — refuse photos that would give a silently wrong grid."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.errors import PhotoError
from vision.geometry import Canon

MIN_MEDIAN_LUMA = 35.0  # whole photo (0..255)
MIN_PAPER_LUMA = 70.0  # the sheet's paper after rectification
MIN_CELL_PX = 18.0  # a grid cell must span at least this many pixels of the original photo
# Edge blur (`edge_blur`, Gaussian sigma) as a fraction of a cell above which a reading is refused: where most
# photos no longer read. Calibrated with the gate switched off on our own generator's development photos of
# known focus blur and hand-shake smear (`python -m bench.bench_blur`, figures in bench/README.md, branch
# refuse5): a photo "reads" when its cells are right within 5 points of the same sheet photographed sharp.
# Colour fills read to about 0.065 cell (ours, pad, generic, hand-ruled), fills with symbols (`mixed`) to
# about 0.055, symbols alone (graphite, letters, ballpoint) start failing from about 0.04 — the old 0.045 stays
# there. (Before: 0.05 / 0.045 / 0.045, which refused hard photos that read as well as the others.)
MAX_BLUR_CELLS = {"colour": 0.065, "symbols": 0.045, "mixed": 0.055}
# A sheet whose drawn cells are this much (or more) in groups named by their colour is gated as colour fills:
# one odd cell named by its shape (a scribble, a symbol in an empty cell) does not make a map of colour fills
# need a sharper photo; those few cells are doubted instead (`doubt_blurred_shapes`).
COLOUR_GATE_SHARE = 0.9
SHAPE_SOURCES = frozenset({"symbol", "none"})  # groups named by their shape, or not named: the blur costs them
BLURRED_SHAPE_CONFIDENCE = 0.5  # a shape-named cell of a photo too blurred for shapes: shown as doubtful


def median_u8(gray: np.ndarray) -> float:
    """`np.median` of a uint8 image from its histogram (no sort of millions of pixels)."""
    if gray.dtype != np.uint8 or gray.size == 0:
        return float(np.median(gray))
    cum = np.cumsum(cv2.calcHist([np.ascontiguousarray(gray)], [0], None, [256], [0, 256]).ravel().astype(np.int64))
    n = int(cum[-1])
    lo, hi = np.searchsorted(cum, [(n - 1) // 2, n // 2], side="right")
    return (float(lo) + float(hi)) / 2


def check_brightness(gray: np.ndarray) -> None:
    median = median_u8(gray)
    if median < MIN_MEDIAN_LUMA and float(np.percentile(gray, 95)) < 2 * MIN_MEDIAN_LUMA + 20:
        raise PhotoError("too_dark", f"median brightness {median:.0f}/255")


def check_paper(paper_luma: float) -> None:
    if paper_luma < MIN_PAPER_LUMA:
        raise PhotoError("too_dark", f"paper brightness {paper_luma:.0f}/255")


def cell_size_px(page_to_image: np.ndarray, canon: Canon, scale: float) -> float:
    """Smallest side of the grid in original-photo pixels, divided by 11."""
    x0, y0, x1, y1 = (v / canon.ppt for v in canon.grid_box())
    pts = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float64)
    q = cv2.perspectiveTransform(pts, page_to_image)[0] / scale
    sides = [np.linalg.norm(q[i] - q[(i + 1) % 4]) for i in range(4)]
    return float(min(sides) / canon.layout.rows)


def check_size(page_to_image: np.ndarray, canon: Canon, scale: float) -> float:
    cell = cell_size_px(page_to_image, canon, scale)
    if cell < MIN_CELL_PX:
        raise PhotoError("too_small", f"cells are {cell:.0f} px wide")
    return cell


def edge_blur(gray: np.ndarray, boxes: list[tuple[int, int, int, int]]) -> float:
    """Gaussian sigma (pixels) of the sharpest-looking edges inside `boxes` (x0, y0, x1, y1).

    For a step edge of contrast C blurred by sigma, the steepest gradient is
    C / (sigma·√(2π)); printed markers are such steps, so sigma follows from the
    box's contrast and its strongest gradients.
    """
    sigmas = []
    h, w = gray.shape[:2]
    for x0, y0, x1, y1 in boxes:
        patch = gray[max(0, y0) : y1, max(0, x0) : x1].astype(np.float32)
        if patch.size < 16:
            continue
        # gradients of the box alone, with one pixel of the photo round it (the whole image's Sobel, cut out)
        (r0, r1, _), (c0, c1, _) = slice(max(0, y0), y1).indices(h), slice(max(0, x0), x1).indices(w)
        ya, xa = max(0, r0 - 1), max(0, c0 - 1)
        around = gray[ya : min(h, r1 + 1), xa : min(w, c1 + 1)].astype(np.float32)
        gx = cv2.Sobel(around, cv2.CV_32F, 1, 0, ksize=3) / 8
        gy = cv2.Sobel(around, cv2.CV_32F, 0, 1, ksize=3) / 8
        mag = np.hypot(gx, gy)[r0 - ya : r1 - ya, c0 - xa : c1 - xa]
        contrast = float(np.percentile(patch, 97) - np.percentile(patch, 3))
        steep = float(np.percentile(mag, 99.5))
        if contrast < 20 or steep <= 0:
            continue
        sigmas.append(contrast / (steep * math.sqrt(2 * math.pi)))
    return float(np.median(sigmas)) if sigmas else float("inf")


def marker_boxes(canon: Canon) -> list[tuple[int, int, int, int]]:
    out = []
    for mk in canon.layout.markers:
        pad = 4
        out.append((int(canon.px(mk.x_pt) - pad), int(canon.px(mk.y_pt) - pad),
                    int(canon.px(mk.x_pt + mk.size_pt) + pad), int(canon.px(mk.y_pt + mk.size_pt) + pad)))
    return out


def border_boxes(canon: Canon) -> list[tuple[int, int, int, int]]:
    """Small boxes across the grid's thick outer border (mid-sides): step edges for unmarked sheets."""
    x0, y0, x1, y1 = canon.grid_box()
    h = canon.cell_px * 0.5
    xm, ym = (x0 + x1) / 2, (y0 + y1) / 2
    boxes = [(xm - h, y0 - h, xm + h, y0 + h), (xm - h, y1 - h, xm + h, y1 + h),
             (x0 - h, ym - h, x0 + h, ym + h), (x1 - h, ym - h, x1 + h, ym + h)]
    return [tuple(int(v) for v in b) for b in boxes]


def check_blur(sigma_px: float, canon: Canon, style: str = "colour") -> None:
    if sigma_px > MAX_BLUR_CELLS.get(style, 0.05) * canon.cell_px:
        raise PhotoError("too_blurry", f"edge blur {sigma_px / canon.cell_px:.2f} of a cell")


def colour_share(groups) -> float | None:
    """Of the drawn cells in groups named by colour or by shape (`vision.cells.GroupInfo.source`), the share
    named by colour; None when there are none (nothing drawn, or every group named by the player)."""
    colour = sum(len(g.cells) for g in groups if g.source == "colour" and g.name != "empty")
    shape = sum(len(g.cells) for g in groups if g.source in SHAPE_SOURCES and g.name != "empty")
    return colour / (colour + shape) if colour + shape else None


def gate_style(style: str, groups) -> str:
    """The blur gate's class for a reading of style `style` with these groups.

    Why not the style itself: a reading is "mixed" as soon as one group is named by its shape, and "mixed"
    needs a sharper photo than colour fills (`MAX_BLUR_CELLS`). A map of colour fills with one or two cells
    read by shape reads as well as colour fills at a blur that would refuse it; refusing it sends the player
    back for a sharper photo they do not need. The shape-named cells are doubted instead.
    """
    share = colour_share(groups)
    if style == "mixed" and share is not None and share >= COLOUR_GATE_SHARE:
        return "colour"
    return style


def doubt_blurred_shapes(confidence: np.ndarray, groups, blur_cells: float, style: str,
                         cap: float = BLURRED_SHAPE_CONFIDENCE) -> int:
    """Cap (in place) the confidence of the cells named by their shape when the photo is more blurred than a
    reading of `style` stands (`MAX_BLUR_CELLS`) — i.e. when `gate_style` let a map of colour fills through
    that its few shape-named cells would have refused; returns the cells capped. The colour cells stay."""
    if blur_cells <= MAX_BLUR_CELLS.get(style, MAX_BLUR_CELLS["symbols"]):
        return 0
    n = 0
    for g in groups:
        if g.source not in SHAPE_SOURCES:
            continue
        for r, c in g.cells:
            if confidence[r, c] > cap:
                confidence[r, c] = cap
                n += 1
    return n
