"""Classification stage 1: what each grid cell looks like, as arrays (one row per drawable cell).

Nothing here knows a palette or a symbol set: these are the measurements the
later stages group (`vision.groups`), name (`vision.naming`) and turn into a
calibrated confidence (`vision.calibrate`).

* **mass** — mean ink of the cell's inner part (the grid lines and a neighbour's
  overshooting strokes are cut away); ink is "darker than paper in any channel,
  or clearly coloured", so pale yellow hatching counts.
* **colour** — ink-weighted mean (a, b) of the chromatic ink pixels; **chromatic**
  the share of ink mass that is coloured at all; **light** the median lightness
  of the strong ink. Graphite and black ink have no colour; a green tree drawn
  over yellow hatching is seen as both.
* **hue** — a 12-bin histogram of the ink's hue (plus one bin for neutral ink),
  so a cell with two colours (a symbol in one colour over a fill in another) is
  not averaged into a third colour.
* **shape** — HOG + a coarse density map of the cell's *dark, neutral* strokes
  (graphite, ballpoint, black felt-tip; colour hatching is suppressed), cropped
  to the strokes' own extent so a symbol drawn smaller or off-centre looks the
  same; and **shape_ink**, the same of all the ink (symbols drawn in colour). The dark-stroke map is
  stretched to its own contrast first (`stretch`), so a pale pencil symbol has the same shape as a firm one.
* **contrast** — how much the cell's strongest ink stands out from its own background (98th percentile
  minus median of the inner ink): a pale symbol is drawn on even when its mean ink is as low as a smudge's.
* **tint** — the mean (a, b) of the whole inner cell. Pale pencil hatching barely tints any one pixel
  (its per-pixel chroma is lost in the paper's and the JPEG's noise), but the mean of a few thousand
  pixels is steady: a faint cell's hue is read from its tint (`tint_hue`).
* **evenness** — how evenly the ink spreads over the cell (25th / 90th percentile of a 5×5 grid of block
  means): hatching and fills cover the cell alike, a symbol or a letter leaves most blocks bare. Texture is
  compared by colour, not by the direction of its strokes (`vision.groups`).
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

INK_T = 0.22  # ink strength above which a pixel counts as drawn on
COLOUR_MARGIN = 0.15  # fraction of a cell ignored at each edge for mass/colour (grid lines, bleed)
SHAPE_MARGIN = 0.08  # symbols reach closer to the border
RUINS_GLYPH = 0.45  # our sheet's printed ruins glyph sits in this top-left fraction of the cell
CHROMA_INK = 60.0  # Lab chroma that counts as much ink as full darkness
CHROMA_PIXEL = 14.0  # a pixel with more chroma than this is coloured ink
HUE_BINS = 12
SHAPE_SIZE = 36
SHAPE_DIM = 9 * (SHAPE_SIZE // 6) ** 2 + 36
FAINT_SHARE, FAINT_INK, CHROMA_FAINT = 0.05, 0.06, 4.0  # a pale cell's ink and colour are read more gently
# A cell whose dark-stroke map never reaches FAINT_STROKE while something in it stands out from its paper
# (contrast above FAINT_CONTRAST; blank cells stay below 0.045) takes its strokes above its own paper
# (`faint_strokes`), FAINT_PAPER above the median darkness (paper grain is about 0.01).
FAINT_STROKE, FAINT_CONTRAST, FAINT_PAPER = 0.2, 0.06, 0.03
STRETCH_FLOOR = 0.12  # the weakest stroke contrast stretched to full strength (paper noise stays below it)
STRETCH_PERCENTILES = (50, 99.5)  # `stretch`: the paper level and the full-strength stroke level
CONTRAST_PERCENTILES = (50, 98)  # `cell_arrays`: a cell's paper and its ink, whose difference is its contrast
# A faint cell's mean tint (Lab chroma of the mean a, b) below TINT_GREY is grey (graphite, black pencil, the
# paper's own cast); above TINT_GREY + TINT_RAMP it is all colour.
TINT_GREY, TINT_RAMP = 0.8, 1.2
EVEN_BLOCKS = 5
EVEN_TEXTURE = 0.2  # evenness above which a cell's ink is texture (hatching, fill), below a symbol or letter
FIELDS = ("mass", "coverage", "colour", "chromatic", "light", "hue", "shape", "shape_ink", "stroke", "contrast",
          "tint", "evenness")


@dataclass
class CellArrays:
    """Per-cell measurements of one sheet; row k describes `cells[k]`."""

    cells: list[tuple[int, int]]
    mass: np.ndarray  # (n,) mean ink strength of the inner cell
    coverage: np.ndarray  # (n,) share of inner pixels with ink > INK_T
    colour: np.ndarray  # (n, 2) ink-weighted mean (a, b) of chromatic ink
    chromatic: np.ndarray  # (n,) share of ink mass that is chromatic
    light: np.ndarray  # (n,) median Lab L (0..100) of the strong ink
    hue: np.ndarray  # (n, HUE_BINS + 1) hue histogram of the ink, last bin = neutral; sums to 1 (or 0)
    shape: np.ndarray  # (n, SHAPE_DIM) descriptor of the dark neutral strokes (zeros when none)
    shape_ink: np.ndarray  # (n, SHAPE_DIM) descriptor of all the ink
    stroke: np.ndarray  # (n,) mean of the dark-stroke map (how much symbol there is)
    contrast: np.ndarray  # (n,) 98th percentile − median of the inner ink (does anything stand out?)
    tint: np.ndarray  # (n, 2) mean (a, b) of the inner cell
    evenness: np.ndarray  # (n,) 0 (ink in a few spots) .. 1 (ink spread evenly over the cell)

    def index(self) -> dict[tuple[int, int], int]:
        return {c: k for k, c in enumerate(self.cells)}

    def take(self, rows: np.ndarray | list[int]) -> CellArrays:
        rows = np.asarray(rows, int)
        return CellArrays([self.cells[k] for k in rows], *(getattr(self, f)[rows] for f in FIELDS))


@dataclass
class Planes:
    """Whole-image planes the features are cut from (computed once per sheet)."""

    lab: np.ndarray  # float32 Lab, L 0..100
    ink: np.ndarray  # ink strength 0..1
    chroma: np.ndarray  # Lab chroma
    stroke: np.ndarray  # dark neutral ink 0..1
    # The planes may cover only part of the image (the grid and legend): its top-left pixel (row, column) in
    # the image, and the image's (height, width). Boxes stay in image pixels; `crop` takes `origin`.
    origin: tuple[int, int] = (0, 0)
    full_shape: tuple[int, int] | None = None

    def placed(self, region: tuple[slice, slice], shape: tuple[int, ...]) -> Planes:
        """These planes, computed on `image[region]` of an image of `shape`, told where they lie."""
        return Planes(self.lab, self.ink, self.chroma, self.stroke, (region[0].start, region[1].start),
                      (shape[0], shape[1]))


def box_region(boxes, shape: tuple[int, ...], pad: int = 6) -> tuple[slice, slice]:
    """The pixel rectangle (rows, columns) holding every box (x, y, size) with `pad` pixels round it.

    Features are cut only from cell boxes and their outlines, so the colour planes are computed on this
    rectangle alone (the sheet's grid and legend are about half of the canonical page).
    """
    h, w = shape[:2]
    b = np.asarray(list(boxes), np.float64).reshape(-1, 3)
    if not len(b):
        return slice(0, h), slice(0, w)
    x0 = int(np.clip(np.floor(b[:, 0].min()) - pad, 0, w))
    y0 = int(np.clip(np.floor(b[:, 1].min()) - pad, 0, h))
    x1 = int(np.clip(np.ceil((b[:, 0] + b[:, 2]).max()) + pad, x0, w))
    y1 = int(np.clip(np.ceil((b[:, 1] + b[:, 2]).max()) + pad, y0, h))
    return slice(y0, y1), slice(x0, x1)


def to_lab(norm: np.ndarray) -> np.ndarray:
    """Lab (L 0..100) of a normalised float BGR image."""
    return cv2.cvtColor(np.clip(norm, 0, 1).astype(np.float32), cv2.COLOR_BGR2Lab)


def ink_strength(norm: np.ndarray) -> np.ndarray:
    """1 − the darkest channel: how much any ink absorbs."""
    darkest = np.minimum(np.minimum(norm[..., 0], norm[..., 1]), norm[..., 2])
    return np.clip(1.0 - darkest, 0, 1)


def ink_and_chroma(norm: np.ndarray, lab: np.ndarray) -> np.ndarray:
    """Ink of each pixel: its darkening, or its colour where that says more. Pale colour (light yellow hatching)
    barely darkens any channel but is clearly coloured: chroma counts too. `lab`: `to_lab(norm)`."""
    return np.maximum(ink_strength(norm), np.hypot(lab[..., 1], lab[..., 2]) / CHROMA_INK)


def ink_map(norm: np.ndarray) -> np.ndarray:
    """The `Planes.ink` of `norm` alone: darker than paper in any channel, or clearly coloured."""
    return ink_and_chroma(norm, to_lab(norm))


def planes(norm: np.ndarray) -> Planes:
    lab = to_lab(norm)
    chroma = np.hypot(lab[..., 1], lab[..., 2])
    ink = np.maximum(ink_strength(norm), chroma / CHROMA_INK)
    dark = np.clip(1.0 - lab[..., 0] / 100.0, 0, 1)
    # Neutral dark strokes: darkness, faded out as the pixel gets coloured (hatching in colour pencil is
    # suppressed; graphite drawn over it stays, being darker and greyer than the fill).
    stroke = np.clip((dark - 0.12) / 0.5, 0, 1) * np.clip(1.0 - (chroma - 10.0) / 30.0, 0, 1)
    return Planes(lab, ink, chroma, stroke.astype(np.float32))


def median_along(a: np.ndarray, axis: int = 0):
    """`np.median(a, axis=axis)` of a non-empty array without NaNs, with numpy's own arithmetic (the middle value,
    or the mean of the two middle values in the array's precision), minus its per-call overhead (numpy's median
    moves and checks the axis on every call; the reader calls it a few times per cell)."""
    n = a.shape[axis]
    k = n // 2
    if n % 2:
        return np.take(np.partition(a, k, axis=axis), k, axis=axis)
    p = np.partition(a, (k - 1, k), axis=axis)
    return (np.take(p, k - 1, axis=axis) + np.take(p, k, axis=axis)) / np.asarray(2, p.dtype)


def median_of(a) -> float:
    """`float(np.median(a))`, without numpy's per-call overhead (~20 µs: axis checks, `mean` of the middle
    two) for a non-empty float array: the same partition, NaN check and middle values added and halved in the
    array's own dtype. Why: the lattice's line fits and scores take ~700 medians of a dozen numbers per read.
    Anything else (empty, integer, a list) goes to `np.median` itself.
    """
    v = a if isinstance(a, np.ndarray) else np.asarray(a)
    if v.dtype.kind != "f" or v.size == 0:
        return float(np.median(v))
    v = v.ravel()
    n = v.size
    k = n // 2
    p = np.partition(v, sorted({k - 1, k, n - 1}) if n % 2 == 0 else sorted({k, n - 1}))
    if np.isnan(p[-1]):
        return float("nan")
    mid = p[k : k + 1] if n % 2 else p[k - 1 : k + 1]
    return float(np.add.reduce(mid) / np.asarray(len(mid), p.dtype))  # numpy's mean: a sum from +0, then ÷


def median0(a: np.ndarray):
    """`np.median(a, axis=0)`, quickly (`median_along`)."""
    return median_along(a, 0)


def weighted_mean(a: np.ndarray, w: np.ndarray):
    """`np.average(a, axis=0, weights=w)` for float `a` and 1-D float `w` (numpy's own formula and dtype)."""
    dt = np.result_type(a.dtype, w.dtype)
    if a.ndim == 1:
        return np.multiply(a, w, dtype=dt).sum(axis=0) / w.sum(dtype=dt)
    return np.multiply(a, w[:, None], dtype=dt).sum(axis=0) / w.sum(dtype=dt)


def crop(img: np.ndarray, box: tuple[float, float, float], margin: float,
         origin: tuple[int, int] = (0, 0)) -> np.ndarray:
    """The inside of a box (x, y, size in image pixels) less `margin` of its size at each edge.

    `img` may be the part of the image starting at `origin` (row, column) that holds the box: the pixel
    bounds are worked out in image pixels first, so the crop is the same as from the whole image.
    """
    x, y, s = box
    m = s * margin
    x0, y0 = int(round(x + m)), int(round(y + m))
    x1, y1 = int(round(x + s - m)), int(round(y + s - m))
    oy, ox = origin
    return img[max(0, y0) - oy : max(0, y1) - oy, max(0, x0) - ox : max(0, x1) - ox]


def ruins_mask(shape: tuple[int, int], margin: float) -> np.ndarray:
    """True where a pixel of a cell crop (taken with `margin`) is usable, False over our ruins glyph."""
    h, w = shape
    keep = np.ones((h, w), bool)
    lim = (RUINS_GLYPH - margin) / (1 - 2 * margin)
    if lim > 0:
        keep[: int(np.ceil(lim * h)), : int(np.ceil(lim * w))] = False
    return keep


def _sorted_quantiles(counts: list[int], n: int) -> tuple[float, float]:
    """1st and 99th percentile (numpy's linear rule) of the coordinates of `n` pixels, `counts` per coordinate.

    Plain Python on the few dozen counts of a cell: numpy's per-call overhead is most of the cost here.
    """
    cum = list(itertools.accumulate(counts))
    out = []
    for q in (0.01, 0.99):
        pos = q * (n - 1)
        lo = int(pos // 1)
        v_lo = bisect.bisect_right(cum, lo)
        v_hi = bisect.bisect_right(cum, min(lo + 1, n - 1))
        out.append(float(v_lo + (v_hi - v_lo) * (pos - lo)))
    return out[0], out[1]


def stroke_extent(on: np.ndarray, min_pixels: int = 12) -> tuple[float, float, float, float] | None:
    """(y0, y1, x0, x1): 1st–99th percentile of the rows and columns of the True pixels, None when too few.

    Equal to `np.percentile(np.nonzero(on)[i], [1, 99])`, from row and column counts (no sort of every pixel).
    """
    rows = np.count_nonzero(on, axis=1)
    n = int(rows.sum())
    if n < min_pixels:
        return None
    return (*_sorted_quantiles(rows.tolist(), n), *_sorted_quantiles(np.count_nonzero(on, axis=0).tolist(), n))


def normalise_extent(a: np.ndarray, t: float) -> np.ndarray:
    """Crop a square around the strokes' extent, so a symbol drawn smaller or off-centre looks the same."""
    ext = stroke_extent(a > t)
    if ext is None:
        return a
    y0, y1, x0, x1 = ext
    side = max(y1 - y0, x1 - x0) * 1.15 + 4
    cy, cx = (y0 + y1) / 2, (x0 + x1) / 2
    M = np.float32([[1, 0, side / 2 - cx], [0, 1, side / 2 - cy]])
    n = int(np.ceil(side))
    return cv2.warpAffine(a, M, (n, n), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)


HOG_BIN_EDGES = (180.0 / 9) * np.arange(10)


def hog_maps(a: np.ndarray) -> np.ndarray:
    """`hog_cells` of a stack of equal-sized 2-D maps (n, h, w) → (n, descriptor), in one pass.

    A pixel falls in exactly one of the nine orientation bins, so the per-cell histograms are one weighted
    `bincount` instead of nine masked sums (same numbers).
    """
    a = np.asarray(a, np.float32)
    n = a.shape[0]
    ch, cw = a.shape[1] // 6, a.shape[2] // 6
    h, w = ch * 6, cw * 6
    if n == 0 or ch == 0 or cw == 0:
        return np.zeros((n, ch * cw * 9), np.float32)
    g_row = np.zeros(a.shape, np.float32)
    g_col = np.zeros(a.shape, np.float32)
    g_row[:, 1:-1, :] = a[:, 2:, :] - a[:, :-2, :]
    g_col[:, :, 1:-1] = a[:, :, 2:] - a[:, :, :-2]
    g_row, g_col = g_row[:, :h, :w].astype(np.float64), g_col[:, :h, :w].astype(np.float64)
    mag = np.hypot(g_col, g_row)
    deg = np.rad2deg(np.arctan2(g_row, g_col))
    # `deg % 180` as numpy computes it (deg is in [-180, 180]), without the slow float modulo
    ori = np.where(deg < 0, deg + 180, np.where(deg == 180, 0.0, deg))
    # bin i holds edges[i] <= ori < edges[i + 1]: a floor, corrected where the division rounded across an edge;
    # ori can round up to 180 itself (deg a hair below 0), which is in no bin
    b = np.minimum((ori / HOG_BIN_EDGES[1]).astype(np.int64), 8)
    b -= ori < HOG_BIN_EDGES[b]
    b += (b < 8) & (ori >= HOG_BIN_EDGES[np.minimum(b + 1, 9)])
    cell = (np.arange(h)[:, None] // 6) * cw + np.arange(w)[None, :] // 6
    idx = ((np.arange(n)[:, None, None] * (ch * cw) + cell) * 9 + b).ravel()
    weights = np.where(ori < 180, mag, 0.0).ravel()
    hist = np.bincount(idx, weights=weights, minlength=n * ch * cw * 9) / 36
    hist = hist.astype(np.float32).reshape(n, ch * cw, 9)
    eps = 1e-5
    hist = hist / np.sqrt((hist**2).sum(-1, keepdims=True) + eps**2)
    hist = np.minimum(hist, 0.2)
    hist = hist / np.sqrt((hist**2).sum(-1, keepdims=True) + eps**2)
    return hist.reshape(n, -1)


def hog_cells(a: np.ndarray) -> np.ndarray:
    """`skimage.feature.hog(a, 9 orientations, 6×6 pixels per cell, 1×1 blocks, L2-Hys)` of a 2-D map.

    Same numbers (to float32 rounding) as skimage's, vectorised: skimage's own loops over cells and blocks
    in Python cost ~0.8 ms a call, and a 12 MP reading makes hundreds of calls (those go through `hog_maps`
    all at once).
    """
    return hog_maps(np.asarray(a, np.float32)[None])[0]


def shape_map(a: np.ndarray, t: float = INK_T, blank_is_none: bool = True) -> np.ndarray | None:
    """The SHAPE_SIZE² map a shape descriptor is taken of: the strokes cropped to their extent, resized, blurred.

    None for a blank map (no pixel above `t`) when `blank_is_none`: its descriptor is all zeros.
    """
    a = a.astype(np.float32)
    if blank_is_none and (a.size == 0 or float(a.max()) < t):
        return None
    a = normalise_extent(a, t)
    a = cv2.resize(a, (SHAPE_SIZE, SHAPE_SIZE), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(a, (0, 0), 1.0)


def describe_maps(maps: list[np.ndarray | None]) -> np.ndarray:
    """(len(maps), SHAPE_DIM) descriptors of `shape_map` outputs: HOG + a coarse density map, each
    L2-normalised; zeros for None. The HOG of all maps is computed in one batch."""
    out = np.zeros((len(maps), SHAPE_DIM), np.float32)
    rows = [k for k, m in enumerate(maps) if m is not None]
    if not rows:
        return out
    stack = np.stack([maps[k] for k in rows])
    hogs = hog_maps(stack)
    nh = hogs.shape[1]
    for j, k in enumerate(rows):
        h = hogs[j]
        dens = cv2.resize(stack[j], (6, 6), interpolation=cv2.INTER_AREA).ravel()
        out[k, :nh] = h / max(float(np.linalg.norm(h)), 1e-6)
        out[k, nh:] = 0.7 * (dens / max(float(np.linalg.norm(dens)), 1e-6))
    return out


def stretch(a: np.ndarray, floor: float = STRETCH_FLOOR, lohi=None) -> np.ndarray:
    """A stroke map rescaled to its own contrast (median → 0, 99.5th percentile → 1, never amplified more
    than 1 / `floor`), so a faint pencil symbol crosses the same threshold as a firm one.

    `lohi`: `np.percentile(a, STRETCH_PERCENTILES)` when already taken (`percentiles_many` over all cells).
    """
    if a.size == 0:
        return a
    lo, hi = np.percentile(a, STRETCH_PERCENTILES) if lohi is None else lohi
    return np.clip((a - lo) / max(float(hi - lo), floor), 0, 1).astype(np.float32)


def shape_descriptor(a: np.ndarray, t: float = INK_T) -> np.ndarray:
    """HOG of a stroke map + a coarse density map, each L2-normalised (zeros for a blank map)."""
    return describe_maps([shape_map(a, t)])[0]


def stroke_shape(s: np.ndarray) -> np.ndarray:
    """The `shape` descriptor of a cell's dark-stroke crop (what the symbol model is trained on)."""
    return shape_descriptor(stretch(s), 0.3)


def faint_strokes(lab: np.ndarray) -> np.ndarray:
    """The dark-stroke map of a cell whose strokes are all fainter than the sheet-wide map's offset (lightly
    pressed graphite, small dots or a fine ballpoint blurred by the photo): darkness above the cell's own paper
    (its median) rather than above a fixed level, with the same fade for coloured pixels."""
    dark = np.clip(1.0 - lab[..., 0] / 100.0, 0, 1)
    chroma = np.hypot(lab[..., 1], lab[..., 2])
    paper = float(np.median(dark)) + FAINT_PAPER
    return (np.clip((dark - paper) / 0.5, 0, 1) * np.clip(1.0 - (chroma - 10.0) / 30.0, 0, 1)).astype(np.float32)


def hue_histogram(a: np.ndarray, b: np.ndarray, chroma: np.ndarray, w: np.ndarray,
                  coloured_at: float = CHROMA_PIXEL) -> np.ndarray:
    """Ink-weighted histogram of hue angle (HUE_BINS bins, soft-assigned) + one neutral bin; sums to 1."""
    out = np.zeros(HUE_BINS + 1, np.float32)
    total = float(w.sum())
    if total <= 0:
        return out
    coloured = chroma > coloured_at
    out[HUE_BINS] = float(w[~coloured].sum())
    if coloured.any():
        ang = (np.arctan2(b[coloured], a[coloured]) % (2 * np.pi)) / (2 * np.pi) * HUE_BINS
        lo = np.floor(ang).astype(int) % HUE_BINS
        frac = ang - np.floor(ang)
        ww = w[coloured]
        out[:HUE_BINS] += np.bincount(lo, weights=ww * (1 - frac), minlength=HUE_BINS)
        out[:HUE_BINS] += np.bincount((lo + 1) % HUE_BINS, weights=ww * frac, minlength=HUE_BINS)
    return out / total


def evenness(ink: np.ndarray, blocks: int = EVEN_BLOCKS) -> float:
    """25th / 90th percentile of the mean ink of a `blocks`² grid over the cell (0 for a blank cell).

    Hatching, a fill or a wash put ink in every block; a symbol's or a letter's few strokes leave most blocks
    near paper. Measured on the ink above the cell's own faintest block, so the paper's tint does not count.
    """
    return float(evenness_many([ink], blocks)[0])


def evenness_many(inks: Sequence[np.ndarray], blocks: int = EVEN_BLOCKS) -> np.ndarray:
    """`evenness` of each map in `inks`, with the percentiles of all the block grids in one numpy call.

    Same numbers as one `evenness` call per map: numpy's percentile costs ~0.1 ms a call whatever the size, and
    a reading takes two per cell; along an axis of a stack it does the same float32 arithmetic on each row.
    """
    out = np.zeros(len(inks), np.float64)
    rows = [k for k, a in enumerate(inks) if a.shape[0] >= blocks and a.shape[1] >= blocks]
    if not rows:
        return out
    m = np.stack([cv2.resize(inks[k].astype(np.float32), (blocks, blocks), interpolation=cv2.INTER_AREA).ravel()
                  for k in rows])
    m = m - m.min(axis=1, keepdims=True)
    hi = np.percentile(m, 90, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):  # blank rows (hi ≤ 1e-3) are left at 0 below
        ratio = np.clip(np.percentile(m, 25, axis=1) / hi, 0, 1)
    for j, k in enumerate(rows):
        if not float(hi[j]) <= 1e-3:
            out[k] = float(ratio[j])
    return out


def percentiles_many(arrays: Sequence[np.ndarray], q) -> list:
    """`np.percentile(a, q)` of each array (all of it, as with `axis=None`), one numpy call per group of arrays
    of one size and dtype.

    Numpy's percentile costs ~0.1 ms a call before any work, and the cell stage takes several per cell; along
    the rows of a stack it finds the same order statistics and interpolates with the same dtypes, so each
    result is the one the single call gives (a float64 array for a list `q`, a scalar of the array's dtype for a
    float `q`). Empty arrays are not allowed (numpy gives NaN with a warning for them).
    """
    out: list = [None] * len(arrays)
    groups: dict[tuple[int, np.dtype], list[int]] = {}
    for k, a in enumerate(arrays):
        groups.setdefault((a.size, a.dtype), []).append(k)
    for idx in groups.values():
        res = np.percentile(np.stack([arrays[k].ravel() for k in idx]), q, axis=1)
        for j, k in enumerate(idx):
            out[k] = res[:, j] if res.ndim == 2 else res[j]
    return out


def tint_hue(tint: np.ndarray) -> tuple[np.ndarray, float]:
    """(hue histogram, chromatic share) of a faint cell from its mean tint (a, b): one hue, soft-binned like
    `hue_histogram`, with the grey share in the neutral bin (a tint near zero is grey, whatever its angle)."""
    a, b = float(tint[0]), float(tint[1])
    share = float(np.clip((np.hypot(a, b) - TINT_GREY) / TINT_RAMP, 0, 1))
    out = np.zeros(HUE_BINS + 1, np.float32)
    out[HUE_BINS] = 1.0 - share
    if share > 0:
        ang = (np.arctan2(b, a) % (2 * np.pi)) / (2 * np.pi) * HUE_BINS
        lo = int(np.floor(ang)) % HUE_BINS
        frac = float(ang - np.floor(ang))
        out[lo] += share * (1 - frac)
        out[(lo + 1) % HUE_BINS] += share * frac
    return out, share


def plain_ink_shapes(a: CellArrays, p: Planes, boxes: dict[tuple[int, int], tuple[float, float, float]],
                     ruins: set[tuple[int, int]] | frozenset = frozenset(), ruins_glyph: bool = True
                     ) -> dict[tuple[int, int], np.ndarray]:
    """The rows of `a.shape_ink` (`cell_arrays(p, boxes, ruins, ruins_glyph)`) that are the plain
    `describe_maps([shape_map(crop(p.ink, box, SHAPE_MARGIN))])` of their cell's box: every cell measured
    (a non-empty colour crop) whose ruins glyph was not masked.

    Why: the marks stage (`vision.marks.hero_features_many`) describes exactly these maps again when it reads
    the same cells on the same planes; handing it these rows saves a shape map and a HOG per cell.
    """
    out = {}
    for k, cell in enumerate(a.cells):
        if (ruins_glyph and cell in ruins) or crop(p.ink, boxes[cell], COLOUR_MARGIN, p.origin).size == 0:
            continue
        out[cell] = a.shape_ink[k]
    return out


def cell_arrays(p: Planes, boxes: dict[tuple[int, int], tuple[float, float, float]],
                ruins: set[tuple[int, int]] | frozenset = frozenset(), ruins_glyph: bool = True) -> CellArrays:
    """Measure every cell in `boxes` (canonical pixel boxes, already moved onto the photographed grid).

    `ruins_glyph`: mask our sheet's printed ruins glyph (top-left corner) in ruins cells; other sheets print
    their ruins elsewhere, and there the sheet's own empty ruins cells tell what is print (see `vision.groups`).
    """
    cells = list(boxes)
    n = len(cells)
    mass, cov, chromatic, light, stroke_m, contrast, even = (np.zeros(n, np.float32) for _ in range(7))
    colour = np.zeros((n, 2), np.float32)
    tint = np.zeros((n, 2), np.float32)
    hue = np.zeros((n, HUE_BINS + 1), np.float32)
    stroke_maps: list[np.ndarray | None] = [None] * n
    ink_maps: list[np.ndarray | None] = [None] * n
    # Three passes over the cells, so that each of the stage's percentiles (numpy's costs ~0.1 ms a call, and
    # there were four per cell) is taken for all cells at once by `percentiles_many` / `evenness_many`: first
    # the crops and the ink values, then the colour measures and the stroke crops, then the stroke maps.
    live: list[int] = []  # cells whose colour crop is not empty (the others stay at zero, as before)
    crops: dict[int, tuple[np.ndarray, np.ndarray | None, np.ndarray, int]] = {}
    for k, cell in enumerate(cells):
        box = boxes[cell]
        ink_c = crop(p.ink, box, COLOUR_MARGIN, p.origin)
        if ink_c.size == 0:
            continue
        if ruins_glyph and cell in ruins:
            keep = ruins_mask(ink_c.shape, COLOUR_MARGIN)
            vals = ink_c[keep]
            kept = max(int(keep.sum()), 1)
        else:  # the same numbers as through an all-true mask: the crop's pixels in row order
            keep = None
            vals = ink_c.ravel()
            kept = ink_c.size
        mass[k] = float(vals.mean())
        live.append(k)
        crops[k] = (ink_c, keep, vals, kept)
    filled = [k for k in live if crops[k][2].size]
    lohi = dict(zip(filled, percentiles_many([crops[k][2] for k in filled], CONTRAST_PERCENTILES), strict=True))
    faints: dict[int, bool] = {}
    strokes: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    for k in live:
        box = boxes[cells[k]]
        ink_c, keep, vals, kept = crops[k]
        masked = keep is not None
        lo, hi = lohi.get(k, (0.0, 0.0))
        contrast[k] = float(hi - lo)
        on = ink_c > INK_T if keep is None else (ink_c > INK_T) & keep
        cov[k] = float(on.mean()) if masked else np.count_nonzero(on) / kept
        coloured_at = CHROMA_PIXEL
        lab_all = crop(p.lab, box, COLOUR_MARGIN, p.origin)
        tint[k] = (lab_all[..., 1:3] if keep is None else lab_all[keep][..., 1:3]).reshape(-1, 2).mean(axis=0)
        faint = faints[k] = np.count_nonzero(on) < FAINT_SHARE * kept and contrast[k] + mass[k] > FAINT_INK
        if faint:
            # A pale pencil: its strokes seldom cross INK_T and its colour is weak, but it is still a colour.
            on = ink_c > max(FAINT_INK, 0.6 * float(hi))
            if keep is not None:
                on &= keep
            coloured_at = CHROMA_FAINT
        if on.any():
            lab_c = crop(p.lab, box, COLOUR_MARGIN, p.origin)[on]
            ch = crop(p.chroma, box, COLOUR_MARGIN, p.origin)[on]
            w = ink_c[on]
            hue[k] = hue_histogram(lab_c[:, 1], lab_c[:, 2], ch, w, coloured_at)
            col = ch > coloured_at
            chromatic[k] = float(w[col].sum() / max(w.sum(), 1e-6))
            if col.any():
                colour[k] = weighted_mean(lab_c[col, 1:3], w[col])
            strong = w >= median0(w)
            light[k] = float(median0(lab_c[strong, 0]))
        else:
            light[k] = 100.0
        s_c = crop(p.stroke, box, SHAPE_MARGIN, p.origin)
        i_c = crop(p.ink, box, SHAPE_MARGIN, p.origin)
        if (s_c.size and float(s_c.max()) < FAINT_STROKE and contrast[k] > FAINT_CONTRAST
                and float(np.hypot(*tint[k])) < TINT_GREY + TINT_RAMP):
            # faint strokes in a cell that is grey on the whole (pale colour hatching tints it: texture, no symbol)
            s_c = faint_strokes(crop(p.lab, box, SHAPE_MARGIN, p.origin))
        if masked:
            km = ruins_mask(s_c.shape, SHAPE_MARGIN)
            s_c, i_c = s_c * km, i_c * km
        stroke_m[k] = float(s_c.mean()) if s_c.size else 0.0
        strokes[k] = (s_c, i_c)
    even[live] = evenness_many([crops[k][0] if crops[k][1] is None else crops[k][0] * crops[k][1] for k in live])
    drawn = [k for k in live if strokes[k][0].size]
    stretch_at = dict(zip(drawn, percentiles_many([strokes[k][0] for k in drawn], STRETCH_PERCENTILES),
                          strict=True))
    for k in live:
        if faints[k] and even[k] >= EVEN_TEXTURE:  # pale hatching: its colour is in the mean, not in any pixel
            hue[k], chromatic[k] = tint_hue(tint[k])
            colour[k] = tint[k]
        s_c, i_c = strokes[k]
        stroke_maps[k] = shape_map(stretch(s_c, lohi=stretch_at.get(k)), 0.3)
        ink_maps[k] = shape_map(i_c)
    shape, shape_ink = np.vsplit(describe_maps(stroke_maps + ink_maps), [n])
    return CellArrays(cells, mass, cov, colour, chromatic, light, hue, shape, shape_ink, stroke_m, contrast, tint,
                      even)
