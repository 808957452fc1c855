"""Stage 2b: find the 11×11 grid from its lattice of 12 + 12 lines — any print, any frame, no markers needed.

Why a lattice and not an outline: the game's own pad wraps its grid in a
decorated double frame on parchment, generic prints put headers and score boxes
around thin lines, and heavily filled maps leave cells as dark as the lines, so
neither "the biggest quadrilateral" nor "lines darker than cell centres" holds.
What every sheet has is twelve roughly evenly spaced lines in each direction
that start and stop with the grid.

1. **Candidates**: quadrilateral outlines in the photo (page, frame, grid
   border, a table mat …) only fix a rough perspective; the grid may be any
   sub-square of them.
2. **Comb fit** per candidate: the candidate is warped to a square, a thin-line
   response (ink ridges plus fill edges, any ink colour) is projected on each
   axis, and a comb of 12 teeth is slid over every start and pitch. A tooth just
   outside the comb that is as strong as the teeth (squared paper, notebook
   lines, a frame continuing the pattern) costs score, so the comb that starts
   and stops with the grid wins.
3. **Line measurement**: each of the 24 lines is measured cell by cell and fitted
   as a straight line (robust to cells filled over it), the 144 intersections
   fix a homography, and the measured intersections themselves give every cell
   its own centre (hand-ruled grids are uneven).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from companion.cartographers.data import GRID_SIZE
from vision.features import median_of
from vision.padlayout import pad_grid_quads

N_LINES = GRID_SIZE + 1
WORK_SIDE = 1000  # long side of the copy the candidates are searched on
SQ = 400  # side of the square a candidate is warped to for the comb fit
SEARCH_SQ = SQ  # the comb keeps its full square (300 px lost a squared-paper grid on photogen2 dev)
SQ_PAD = 0.08  # fraction of the square kept around the candidate on each side
MEASURE_CELL = 32  # pixels per cell when the lines are measured
MIN_LATTICE_SCORE = 1.2  # comb contrast (robust z units) a lattice needs to stand on its own
OUTER_AGREE = 0.06  # cells: an outer line measured further than this from the inner lattice is a frame
INNER_AGREE = 0.1  # cells: an inner intersection further than this from the fitted lattice is a mismeasure
EVIDENCE_ALONE = 0.35  # segment evidence that makes a lattice a map grid without the printed features' word
LAYOUT_CONFIRM_SHARE = 0.5  # of the printed mountains' confirmation a layout-only lattice with full evidence needs
EVIDENCE_CONFIRMED = 0.0  # segment evidence enough when the printed mountains confirm the lattice
MAX_AGREE = 0.45  # cells: the tolerance for uneven (hand-ruled) grids never grows beyond this
UNEVEN = 0.07  # cells: median deviation of the inner crossings from the homography of a grid ruled by hand
SMOOTH_TOL = 0.08  # cells: a crossing this far from the smooth bend of the lattice is a stroke, not the line
SMOOTH_MAX = 6.0  # the smooth bend never moves a crossing by more than this many SMOOTH_TOL (about half a cell)
SEEN_SEGMENTS = 7  # of 11 cells a line must be seen in for its crossings to stand off the homography


@dataclass(frozen=True)
class Lattice:
    """A grid found in an image: `homography` maps grid units (x = column line, y = row line, 0..11) to pixels.

    `points[i, j]` is the measured intersection of row line i and column line j (pixels); `score` is the
    comb contrast of the weaker axis (robust z units).
    """

    homography: np.ndarray
    points: np.ndarray
    score: float
    evidence: float = 0.0  # `segment_evidence`: 11×11 grid segments present inside and stopping at its edge
    # Reached only from the game's pad layout inside a page outline (`vision.padlayout`): a guess from the
    # page, which the pad's printed mountains must confirm (`lattice_accepted`).
    from_layout: bool = False

    def cell_centres(self) -> np.ndarray:
        """11×11×2 pixel centres of the cells, each the mean of its four measured corners (lattice order)."""
        p = self.points
        return (p[:-1, :-1] + p[:-1, 1:] + p[1:, :-1] + p[1:, 1:]) / 4

    def cell_px(self) -> float:
        """The median spacing of neighbouring measured corners along the rows (pixels): the lattice's cell size."""
        return float(np.median(np.linalg.norm(np.diff(self.points, axis=1), axis=2)))

    def scaled(self, f: float) -> Lattice:
        """The same lattice in an image scaled by `f`."""
        S = np.diag([f, f, 1.0])
        return Lattice(S @ self.homography, self.points * f, self.score, self.evidence, self.from_layout)


def darkest_channel(image: np.ndarray) -> np.ndarray:
    """Per-pixel minimum over B, G, R (OpenCV's min is several times faster than numpy's over an axis)."""
    return _across_channels(image, cv2.min)


def _across_channels(image: np.ndarray, pick: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
    """`pick` (cv2.min or cv2.max) of B, G and R per pixel; a gray image as it is."""
    if image.ndim == 2:
        return image
    b, g, r = cv2.split(image)
    return pick(pick(b, g), r)


def ink_map(image: np.ndarray) -> np.ndarray:
    """Darkness 0..1 of any ink on paper (colour-blind: the darkest channel), relative to the local paper."""
    return darkness(darkest_channel(image))


def brightest_channel(image: np.ndarray) -> np.ndarray:
    """Per-pixel maximum over B, G, R: dark only where every channel is (grey or black ink)."""
    return _across_channels(image, cv2.max)


def neutral_ink_map(image: np.ndarray) -> np.ndarray:
    """Darkness 0..1 of grey or black ink only (the brightest channel), relative to the local paper.

    Why: squared paper's green or blue lines and a notebook's blue rulings are as dark as a pencil grid in the
    darkest channel (`ink_map`), but bright in their own colour's channel; a grid drawn over them in pencil,
    graphite or black pen is dark in all three.
    """
    return darkness(brightest_channel(image))


def darkness(d: np.ndarray) -> np.ndarray:
    """1 − `d` over its local paper level (a blurred maximum filter), clipped to 0..1."""
    f = d.astype(np.float32)
    k = max(9, (min(f.shape) // 40) | 1)
    # The maximum filter on the bytes themselves (exact: the float copy holds the same whole numbers), then
    # the blur in float; the ratio without whole-image temporaries.
    bg = cv2.dilate(d if d.dtype == np.uint8 else f, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    bg = cv2.blur(bg.astype(np.float32), (k, k))
    np.maximum(bg, 8.0, out=bg)
    np.divide(f, bg, out=bg)
    np.subtract(1.0, bg, out=bg)
    return np.clip(bg, 0.0, 1.0, out=bg)


def line_response(ink: np.ndarray, axis: int, along: int = 9, w: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Evidence of a thin line across `axis` (1: vertical lines, varying along x; 0: horizontal lines).

    The ink is first averaged along the line direction (`along` px), which bridges dashes and averages
    diagonal hatching away, then the second difference across it at `w` px is taken. Its magnitude sees a
    line of ink on paper, a gap of paper between two fills and the edge of a fill alike (cells filled as dark
    as the lines still start and stop on them). Returns (magnitude, dark ridge alone): a page edge is a step,
    not a ridge, and must not count as a line continuing the lattice.
    """
    d2 = _line_d2(ink, axis, along, w)
    return np.abs(d2), np.maximum(d2, 0)


def line_magnitude(ink: np.ndarray, axis: int, along: int = 9, w: int = 2) -> np.ndarray:
    """`line_response(ink, axis)[0]` alone (the ridge not worked out: the lattice's measurements use only this)."""
    d2 = _line_d2(ink, axis, along, w)
    return np.abs(d2, out=d2)


def _line_d2(ink: np.ndarray, axis: int, along: int, w: int) -> np.ndarray:
    """The second difference across `axis` of the ink averaged along the lines (see `line_response`)."""
    if axis == 1:
        b = cv2.blur(ink, (1, along))
        s = cv2.GaussianBlur(b, (0, 0), sigmaX=1.0, sigmaY=0.1)
    else:
        b = cv2.blur(ink, (along, 1))
        s = cv2.GaussianBlur(b, (0, 0), sigmaX=0.1, sigmaY=1.0)
    return second_difference(s, w, axis)


def second_difference(s: np.ndarray, w: int, axis: int) -> np.ndarray:
    """`s - 0.5 * (np.roll(s, w, axis) + np.roll(s, -w, axis))` (wrapping round at the ends, as np.roll does)
    with slices into one array instead of two rolled copies."""
    a = np.moveaxis(s, axis, 0)
    n = a.shape[0]
    if n <= 2 * w:
        return s - 0.5 * (np.roll(s, w, axis) + np.roll(s, -w, axis))
    out = np.empty_like(s)
    o = np.moveaxis(out, axis, 0)
    np.add(a[: n - 2 * w], a[2 * w:], out=o[w: n - w])
    np.add(a[n - w:], a[w: 2 * w], out=o[:w])  # s[i - w] wraps to the end
    np.add(a[n - 2 * w: n - w], a[:w], out=o[n - w:])  # s[i + w] wraps to the start
    np.multiply(out, 0.5, out=out)
    return np.subtract(s, out, out=out)


def _smooth(prof: np.ndarray) -> np.ndarray:
    return cv2.GaussianBlur(prof.astype(np.float32).reshape(1, -1), (0, 0), 1.0).ravel()


def _scale(prof: np.ndarray) -> tuple[float, float]:
    med = median_of(prof)
    mad = median_of(np.abs(prof - med)) * 1.4826
    return med, mad + 1e-3 + 0.02 * abs(med)


def profiles(resp: tuple[np.ndarray, np.ndarray], axis: int, span: slice | None = None
             ) -> tuple[np.ndarray, np.ndarray]:
    """(mean, continuity) profiles of a line response across `axis` (1: along x), in robust z units.

    The mean sees a line even where fills interrupt it; the continuity (40th percentile along the line,
    after bridging dashes) is high only for a real line, not for circles, letters or icons beside the grid.
    """
    r, ridge = (resp[0], resp[1]) if axis == 1 else (resp[0].T, resp[1].T)
    if span is not None:
        r, ridge = r[span], ridge[span]
    along = max(3, r.shape[0] // 60) | 1
    bridged = cv2.blur(ridge, (1, along))
    mean = _smooth(r.mean(axis=0))
    k = int(0.4 * (bridged.shape[0] - 1))
    # the k-th smallest down each column, taken along the rows of a transposed copy (contiguous: faster)
    cont = _smooth(np.partition(np.ascontiguousarray(bridged.T), k, axis=1)[:, k])
    med, sc = _scale(mean)
    return (mean - med) / sc, (cont - med) / sc


def _dilate1(f: np.ndarray) -> np.ndarray:
    return np.maximum(np.maximum(f, np.roll(f, 1)), np.roll(f, -1))


@lru_cache(maxsize=8)
def comb_positions(L: int, pitch_lo: float, pitch_hi: float, n_pitch: int
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The sample indices every comb of `comb_fit` reads (pitches × starts × teeth), read-only.

    They depend only on the profile's length and the pitch range, which are the same for every candidate
    outline of a reading (one square size), so they are worked out once (a pure function's memo: the same
    arguments always give the same arrays). Returns (starts, pitches, teeth, midpoints, before, after,
    span_ok): clipped integer indices, the two outer lines' indices with where they lie inside, and which
    combs fit in the profile.
    """
    i = np.arange(N_LINES, dtype=np.float64)
    d = np.linspace(pitch_lo, pitch_hi, n_pitch)[:, None, None]
    s = np.arange(1.0, L - 1.0)[None, :, None]

    def index(pos):
        return np.clip(np.round(pos).astype(int), 0, L - 1)

    before, after = s[..., 0] - d[..., 0], s[..., 0] + N_LINES * d[..., 0]
    out = (s, d, index(s + i * d), index(s + (i[:-1] + 0.5) * d),
           np.where(before >= 0, index(before), -1), np.where(after < L, index(after), -1),
           (s + GRID_SIZE * d < L - 1)[..., 0])
    for a in out:
        a.setflags(write=False)
    return out


@lru_cache(maxsize=8)
def comb_columns(L: int, pitch_lo: float, pitch_hi: float, n_pitch: int
                 ) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    """`comb_positions`' teeth and midpoints one tooth at a time: contiguous (pitches × starts) index arrays, so
    that `comb_fit` reads each tooth's samples without building the pitches × starts × teeth arrays."""
    _, _, teeth, mids, *_ = comb_positions(L, pitch_lo, pitch_hi, n_pitch)
    out = (tuple(np.ascontiguousarray(teeth[..., t]) for t in range(teeth.shape[-1])),
           tuple(np.ascontiguousarray(mids[..., t]) for t in range(mids.shape[-1])))
    for a in (*out[0], *out[1]):
        a.setflags(write=False)
    return out


def mean_of(cols: list[np.ndarray]) -> np.ndarray:
    """The mean of equally shaped arrays, `np.stack(cols, axis=-1).mean(axis=-1)` without the stack.

    Summed in the order numpy's reduction takes over a short contiguous axis (eight running sums, combined
    pairwise, then the rest one by one), so the result is the same to the last bit for 8–15 arrays (numpy 2.4;
    another summation order would differ in the last bit only).
    """
    n = len(cols)
    if not 8 <= n < 16:
        return np.stack(cols, axis=-1).mean(axis=-1)
    r = cols[:8]
    res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
    for c in cols[8:]:
        res += c
    res /= n
    return res


def second_smallest_of(cols: list[np.ndarray]) -> np.ndarray:
    """`second_smallest` of `np.stack(cols, axis=-1)`, from the columns themselves."""
    lo = np.minimum(cols[0], cols[1])
    hi = np.maximum(cols[0], cols[1])
    for col in cols[2:]:
        np.minimum(hi, np.maximum(lo, col), out=hi)
        np.minimum(lo, col, out=lo)
    return hi


def second_smallest(a: np.ndarray) -> np.ndarray:
    """`np.partition(a, 1, axis=-1)[..., 1]` (the second smallest along the last axis, a tie counting twice),
    by running the two smallest along the axis: several times faster on many short rows."""
    lo = np.minimum(a[..., 0], a[..., 1])
    hi = np.maximum(a[..., 0], a[..., 1])
    for t in range(2, a.shape[-1]):
        col = a[..., t]
        np.minimum(hi, np.maximum(lo, col), out=hi)
        np.minimum(lo, col, out=lo)
    return hi


def comb_fit(f: np.ndarray, cont: np.ndarray, pitch_lo: float, pitch_hi: float,
             n_pitch: int = 56) -> tuple[float, float, float]:
    """(start, pitch, score) of the 12-tooth comb that best explains a line-response profile `f`.

    score = teeth (mean and second-weakest) − midpoints − the more continuous of the two lines just outside
    (`cont`): the comb must start and stop with the lattice.
    """
    L = len(f)
    fmax = _dilate1(f)
    cmax = _dilate1(cont)
    s, d, _, _, i_before, i_after, span_ok = comb_positions(L, float(pitch_lo), float(pitch_hi), n_pitch)
    if not span_ok.any():
        return (0.0, 0.0, -np.inf)
    # each tooth's samples on their own (the same sums as over a pitches × starts × teeth gather, see `mean_of`)
    tooth_ix, mid_ix = comb_columns(L, float(pitch_lo), float(pitch_hi), n_pitch)
    teeth = [fmax[ix] for ix in tooth_ix]
    mids = mean_of([f[ix] for ix in mid_ix])
    out_b = np.where(i_before >= 0, cmax[i_before], 0.0)
    out_a = np.where(i_after >= 0, cmax[i_after], 0.0)
    second = second_smallest_of(teeth)
    # An outer line costs only when it is about as continuous as the lattice's own lines: faint notebook
    # or squared-paper lines beside a drawn grid are not a thirteenth grid line.
    floor = np.maximum(mids, 0.5 * mean_of([cmax[ix] for ix in tooth_ix]))
    hi_o, lo_o = np.maximum(out_b, out_a), np.minimum(out_b, out_a)
    score = (0.5 * mean_of(teeth) + 0.5 * second - mids - 0.5 * np.maximum(0, hi_o - floor)
             - 0.3 * np.maximum(0, lo_o - floor))
    score = np.where(span_ok, score, -np.inf)
    kd, ks = np.unravel_index(int(np.argmax(score)), score.shape)
    best = (float(s[0, ks, 0]), float(d[kd, 0, 0]), float(score[kd, ks]))
    return best


def _candidate_lattice(ink: np.ndarray, quad: np.ndarray, side: int = SQ) -> tuple[np.ndarray, float] | None:
    """Comb-fit the lattice inside one candidate quadrilateral: (4×2 grid corners in `ink` pixels, score).

    `side`: the square the candidate is warped to (the comb's resolution)."""
    p = SQ_PAD * side
    n = side - 2 * p
    dst = np.array([[p, p], [p + n, p], [p + n, p + n], [p, p + n]], np.float32)
    M = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    sq = cv2.warpPerspective(ink, M, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    rv, rh = line_response(sq, 1), line_response(sq, 0)
    lo, hi = 0.3 * n / GRID_SIZE, 1.12 * n / GRID_SIZE
    rows = cols = slice(0, side)
    fx = fy = None
    for _ in range(2):
        fx = comb_fit(*profiles(rv, 1, rows), lo, hi)
        fy = comb_fit(*profiles(rh, 0, cols), lo, hi)
        rows = slice(int(fy[0]), int(fy[0] + GRID_SIZE * fy[1]) + 1)
        cols = slice(int(fx[0]), int(fx[0] + GRID_SIZE * fx[1]) + 1)
    (sx, dx, scx), (sy, dy, scy) = fx, fy
    if not np.isfinite(min(scx, scy)):
        return None
    ex, ey = sx + GRID_SIZE * dx, sy + GRID_SIZE * dy
    corners = np.array([[[sx, sy], [ex, sy], [ex, ey], [sx, ey]]], np.float64)
    back = cv2.perspectiveTransform(corners, np.linalg.inv(M))[0]
    return back, float(min(scx, scy))


def _grid_to_square(H: np.ndarray, cell: int, pad: float) -> np.ndarray:
    """Matrix taking square pixels (grid drawn at `cell` px per cell with `pad` cells of margin) to image px."""
    T = np.array([[1 / cell, 0, -pad], [0, 1 / cell, -pad], [0, 0, 1]])
    return H @ T


def _to_square(pts: np.ndarray, A: np.ndarray) -> np.ndarray:
    """Image points (…×2) into the measuring square of `A` (square → image)."""
    shp = pts.shape
    return cv2.perspectiveTransform(pts.reshape(1, -1, 2).astype(np.float64), np.linalg.inv(A))[0].reshape(shp)


def _peaks(segs: np.ndarray, centre: float | np.ndarray, half: float) -> tuple[np.ndarray, np.ndarray] | None:
    """Sub-pixel peak position and strength (peak − window mean) in each row of `segs` near `centre`
    (one position, or one per row: an uneven grid's line is looked for where the last round found it)."""
    n = segs.shape[1]
    rows = np.arange(len(segs))
    c = np.broadcast_to(np.asarray(centre, np.float64), (len(segs),))
    h = int(half)
    if h < 1:
        return None
    idx = np.round(c).astype(int)[:, None] + np.arange(-h, h + 1)[None, :]
    inside = (idx >= 1) & (idx <= n - 2)
    if inside.sum(axis=1).min() < 3:
        return None
    idx = np.clip(idx, 1, n - 2)
    win = np.where(inside, segs[rows[:, None], idx], -np.inf)
    j = np.argmax(win, axis=1)
    peak = win[rows, j]
    mean = np.where(inside, win, 0.0).sum(axis=1) / inside.sum(axis=1)
    strength = np.maximum(peak - mean, 0.0)
    k = idx[rows, j]
    a, b, cc = segs[rows, k - 1], segs[rows, k], segs[rows, k + 1]
    den = a - 2 * b + cc
    sub = np.where(np.abs(den) > 1e-9, 0.5 * (a - cc) / np.where(np.abs(den) > 1e-9, den, 1.0), 0.0)
    return k + np.clip(sub, -1, 1), strength


@dataclass(frozen=True)
class LineFit:
    """One measured grid line: position v = a + b·t (`coef`, as np.polyfit gives it) plus the local
    deviations `resid` of its consistent segments at `t`, so a hand-ruled line that bends is followed
    cell by cell while a stroke mistaken for the line in one cell is left out."""

    coef: np.ndarray
    t: np.ndarray
    resid: np.ndarray
    n_ok: int = 0  # segments that agree with the line: a line seen in most cells is trusted where it bends

    def at(self, t: float | np.ndarray) -> float | np.ndarray:
        base = np.polyval(self.coef, t)
        return base + np.interp(t, self.t, self.resid) if len(self.t) else base


def _fit_line(t: np.ndarray, v: np.ndarray, w: np.ndarray, tol: float, bend: float | None = None
              ) -> LineFit | None:
    """Robust weighted straight line v = a + b·t; None with fewer than 3 consistent samples.

    Samples within `bend` of the straight line (default 2.5 `tol`) are kept as local deviations.
    """
    keep = w > 0
    if keep.sum() < 3:
        return None
    coef = None
    for _ in range(3):
        if keep.sum() < 3:
            return None
        coef = np.polyfit(t[keep], v[keep], 1, w=np.sqrt(w[keep]))
        resid = np.abs(np.polyval(coef, t) - v)
        new = (w > 0) & (resid < max(tol, 2.5 * median_of(resid[keep])))
        if np.array_equal(new, keep):
            break
        keep = new
    r = v - np.polyval(coef, t)
    local = (w > 0.25 * median_of(w[w > 0])) & (np.abs(r) < (2.5 * tol if bend is None else bend))
    if local.sum() >= 3:
        # A running median of three: a line bends smoothly, a stroke or a fill edge moves one cell only.
        rr = np.interp(t, t[local], r[local])
        a, b = np.r_[rr[:1], rr[:-1]], np.r_[rr[1:], rr[-1:]]
        rr = np.maximum(np.minimum(a, rr), np.minimum(np.maximum(a, rr), b))  # the median of three
        return LineFit(coef, t, rr, int(local.sum()))
    return LineFit(coef, t[local], r[local], int(local.sum()))


def intersect(col: LineFit, row: LineFit, x0: float, y0: float, iters: int = 4) -> tuple[float, float]:
    """Crossing of a column line x = col(y) and a row line y = row(x), by fixed-point steps from (x0, y0)."""
    x, y = x0, y0
    for _ in range(iters):
        y = float(row.at(x))
        x = float(col.at(y))
    return x, y


def band_means(r: np.ndarray, starts: list[int], ends: list[int]) -> np.ndarray:
    """`np.stack([r[a:b].mean(axis=0) for a, b in zip(starts, ends)])`: the mean row of each band of rows.

    Bands evenly spaced and of one length (a lattice's cells in its own square) are read from one reshaped view
    of `r`, in one call: each band's rows are added in turn as before, so the means are the same to the bit.
    """
    n = len(starts)
    lengths = {b - a for a, b in zip(starts, ends, strict=True)}
    if n >= 2 and len(lengths) == 1:
        step, length = starts[1] - starts[0], lengths.pop()
        even = all(b - a == step for a, b in zip(starts[:-1], starts[1:], strict=True))
        if even and 0 < length <= step and starts[0] >= 0 and starts[0] + step * n <= r.shape[0]:
            view = r[starts[0]: starts[0] + step * n].reshape(n, step, *r.shape[1:])
            return view[:, :length].mean(axis=1)
    return np.stack([r[a:b].mean(axis=0) for a, b in zip(starts, ends, strict=True)])


def _crossings(lines: list[list[LineFit | None]], prior: np.ndarray, cell: float, bend: bool
               ) -> tuple[np.ndarray, np.ndarray]:
    """12×12 crossings of the measured column and row lines (square px) and which were measured; the others
    stay at `prior`. `bend`: follow each line's local deviations, else its straight fit.

    `intersect`'s fixed-point steps for all 144 crossings at once, a line at a time (each crossing's steps
    depend on its own two lines only: the same numbers as one crossing at a time)."""
    cols, rows = lines

    def at(f: LineFit, t: np.ndarray) -> np.ndarray:
        return f.at(t) if bend else LineFit(f.coef, f.t[:0], f.resid[:0]).at(t)

    x, y = prior[..., 0].copy(), prior[..., 1].copy()
    for _ in range(4):
        for i, row in enumerate(rows):
            if row is not None:
                y[i, :] = at(row, x[i, :])
        for j, col in enumerate(cols):
            if col is not None:
                x[:, j] = at(col, y[:, j])
    seen = np.array([r is not None for r in rows])[:, None] & np.array([c is not None for c in cols])[None, :]
    ok = seen & (np.abs(x - prior[..., 0]) < 0.45 * cell) & (np.abs(y - prior[..., 1]) < 0.45 * cell)
    sq_pts = np.where(ok[..., None], np.stack([x, y], axis=-1), prior)
    return sq_pts, ok


def _unevenness(sq_pts: np.ndarray, ok: np.ndarray, cell: float) -> float:
    """Median distance (cells) of the measured inner crossings from their least-squares homography: a few
    thousandths for a printed grid, a tenth or more for one ruled by hand."""
    inner = np.zeros_like(ok)
    inner[1:-1, 1:-1] = True
    use = ok & inner
    if use.sum() < 30:
        return 0.0
    ideal = np.stack(np.meshgrid(np.arange(N_LINES), np.arange(N_LINES)), axis=-1).astype(np.float64)
    src, dst = ideal[use].reshape(-1, 2), sq_pts[use].reshape(-1, 2)
    H, _ = cv2.findHomography(src, dst, 0)
    if H is None:
        return 0.0
    return float(np.median(np.linalg.norm(cv2.perspectiveTransform(src[None], H)[0] - dst, axis=1))) / cell


def line_points(H: np.ndarray) -> np.ndarray:
    """(12, 12, 2): where `H` (grid units → pixels) puts the crossing of row line i and column line j."""
    ideal = np.stack(np.meshgrid(np.arange(N_LINES), np.arange(N_LINES)), axis=-1).astype(np.float64)
    return cv2.perspectiveTransform(ideal.reshape(1, -1, 2), H)[0].reshape(N_LINES, N_LINES, 2)


def measure(ink: np.ndarray, H: np.ndarray, rounds: int = 2) -> Lattice:
    """Measure the 24 lines around the grid predicted by `H` (grid units → `ink` px) and refit it."""
    cell, pad = MEASURE_CELL, 0.5
    size = int(round((GRID_SIZE + 2 * pad) * cell))
    ideal = np.stack(np.meshgrid(np.arange(N_LINES), np.arange(N_LINES)), axis=-1).astype(np.float64)
    pts = cv2.perspectiveTransform(ideal.reshape(1, -1, 2), H)[0].reshape(N_LINES, N_LINES, 2)
    score = 0.0
    for _ in range(rounds):
        A = _grid_to_square(H, cell, pad)
        prior = _to_square(pts, A)  # where the last round put every intersection (first: the prediction)
        sq = cv2.warpPerspective(ink, A, (size, size), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                 borderMode=cv2.BORDER_CONSTANT)
        resp = (line_magnitude(sq, 1), line_magnitude(sq, 0))
        lines: list[list[LineFit | None]] = [[], []]  # [axis][index] → position as a function of along
        strengths = []
        for axis in (0, 1):  # 0: column lines (x as a function of y); 1: row lines (y as a function of x)
            r = resp[0] if axis == 0 else resp[1].T
            segs = band_means(r, [int((k + pad + 0.15) * cell) for k in range(GRID_SIZE)],
                          [int((k + pad + 0.85) * cell) for k in range(GRID_SIZE)])
            t = (np.arange(GRID_SIZE) + pad + 0.5) * cell
            for j in range(N_LINES):
                along = prior[:, j, 0] if axis == 0 else prior[j, :, 1]
                got = _peaks(segs, 0.5 * (along[:-1] + along[1:]), 0.3 * cell)
                if got is None:
                    lines[axis].append(None)
                    strengths.append(0.0)
                    continue
                v, tw = got
                strengths.append(median_of(tw))
                lines[axis].append(_fit_line(t, v, tw, 0.08 * cell))
        # Intersections in square coordinates; lines that could not be measured come from the prediction.
        # Straight lines first: only a grid uneven as a whole (ruled by hand) has its lines followed where
        # they bend — on a printed grid a bend is a symbol's stroke taken for the line.
        sq_pts, ok = _crossings(lines, prior, cell, bend=False)
        uneven = _unevenness(sq_pts, ok, cell) >= UNEVEN
        bent_pts, bent_ok = _crossings(lines, prior, cell, bend=True)
        if uneven:
            sq_pts, ok = bent_pts, bent_ok
        img_pts = cv2.perspectiveTransform(sq_pts.reshape(1, -1, 2), A)[0].reshape(N_LINES, N_LINES, 2)
        # The outer lines are often a thick band or the inside of a decorated frame, whose middle is not the
        # grid's edge: the homography comes from the inner intersections whenever there are enough of them.
        inner = np.zeros_like(ok)
        inner[1:-1, 1:-1] = True
        use = ok & inner if (ok & inner).sum() >= 30 else ok
        if use.sum() >= 8:
            # RANSAC's tolerance in image pixels, a twentieth of a cell: symbol strokes mistaken for a line
            # segment must not pull the lattice.
            unit = cv2.perspectiveTransform(np.float64([[[5.5, 5.5], [6.5, 5.5], [5.5, 6.5]]]), H)[0]
            tol = 0.05 * float(min(np.linalg.norm(unit[1] - unit[0]), np.linalg.norm(unit[2] - unit[0])))
            src, dst = ideal[use].reshape(-1, 2), img_pts[use].reshape(-1, 2)
            # A hand-ruled grid is uneven everywhere: a tolerance below its own unevenness would let RANSAC
            # fit one corner of it and extrapolate over the rest, so it grows with the least-squares scatter.
            H_ls, _ = cv2.findHomography(src, dst, 0)
            if H_ls is not None:
                scatter = float(np.median(np.linalg.norm(
                    cv2.perspectiveTransform(src[None], H_ls)[0] - dst, axis=1)))
                tol = max(tol, 2.5 * scatter)
            H2, _ = cv2.findHomography(src, dst, cv2.RANSAC, max(1.0, tol))
            if H2 is not None:
                H = H2
        pred = cv2.perspectiveTransform(ideal.reshape(1, -1, 2), H)[0].reshape(N_LINES, N_LINES, 2)
        # A curled sheet or a wide-angle lens bends the whole lattice smoothly away from any homography: the
        # smooth part of the measured offsets is the sheet's own shape, not strokes taken for its lines.
        pred_sq = _to_square(pred, A)
        fit_on = bent_ok & inner if (bent_ok & inner).sum() >= 30 else bent_ok
        pred_sq = pred_sq + smooth_field(bent_pts - pred_sq, fit_on, SMOOTH_TOL * cell)
        pred = cv2.perspectiveTransform(pred_sq.reshape(1, -1, 2), A)[0].reshape(N_LINES, N_LINES, 2)
        # A measured intersection is kept where it agrees with the lattice (hand-ruled grids are uneven, by
        # a few hundredths of a cell); further off it is a stroke taken for the line, and an outer one a frame.
        dev = np.linalg.norm(sq_pts - pred_sq, axis=2)
        tol_cells = np.where(inner, INNER_AGREE, OUTER_AGREE)
        if uneven:
            # Where both lines were seen in most of their cells, the measured crossing of a hand-ruled grid
            # is its own (a line that bends or runs off the lattice), not a stroke: it may be off the
            # homography — the outer ones too (a printed frame's band, which the outer tolerance guards
            # against, belongs to even grids).
            n_ok = [np.array([0 if f is None else f.n_ok for f in fam]) for fam in lines]
            seen = np.minimum(n_ok[1][:, None], n_ok[0][None, :]) >= SEEN_SEGMENTS
            tol_cells = np.where(seen, MAX_AGREE, agree_tolerance(dev[ok & inner] / cell, inner))
        keep = ok & (dev < tol_cells * cell)
        if not uneven:
            # A printed line that bends with the page is followed (its bent crossing), as far as it agrees
            # with the page's smooth bend.
            img_b = cv2.perspectiveTransform(bent_pts.reshape(1, -1, 2), A)[0].reshape(N_LINES, N_LINES, 2)
            keep = bent_ok & (np.linalg.norm(bent_pts - pred_sq, axis=2) < tol_cells * cell)
            img_pts = img_b
        pts = np.where(keep[..., None], img_pts, pred + neighbour_offsets(img_pts - pred, keep))
        score = median_of(np.asarray(strengths))
    return Lattice(H, pts, score)


def smooth_field(off: np.ndarray, use: np.ndarray, tol: float, iters: int = 4) -> np.ndarray:
    """The smooth part (a quadratic surface over the 12 × 12 crossings) of the offsets `off` (measured −
    homography, 12×12×2) of the crossings in `use`, fitted robustly: points further than `tol` (or 2.5× the
    typical residual) from the surface are left out, so a stroke taken for a line does not bend it.

    A curled page or a phone's barrel distortion moves neighbouring crossings alike and far ones differently;
    a homography cannot follow that, a quadratic surface can (a cubic follows barrel distortion better inside
    but swings at the grid's corners, beyond the inner crossings it is fitted on). The surface is only kept
    where it explains the offsets clearly better than none (an even grid gets zeros), and never moves a
    crossing by more than `SMOOTH_MAX` tolerances (about half a cell).
    """
    n = off.shape[0]
    v, u = np.mgrid[0:n, 0:n].astype(np.float64) / (n - 1) * 2 - 1
    terms = np.stack([np.ones_like(u), u, v, u * u, u * v, v * v], axis=-1)
    keep = use.copy()
    zero = np.zeros_like(off)
    if keep.sum() < 3 * terms.shape[-1]:
        return zero
    base = float(np.median(np.linalg.norm(off[use], axis=1)))
    coef = None
    for _ in range(iters):
        if keep.sum() < 2 * terms.shape[-1]:
            return zero
        coef, *_ = np.linalg.lstsq(terms[keep], off[keep], rcond=None)
        resid = np.linalg.norm(terms @ coef - off, axis=2)
        new = use & (resid < max(tol, 2.5 * median_of(resid[keep])))
        if np.array_equal(new, keep):
            break
        keep = new
    field = terms @ coef
    after = float(np.median(np.linalg.norm((off - field)[use], axis=1)))
    if after > 0.7 * base:
        return zero
    size = np.linalg.norm(field, axis=2, keepdims=True)
    cap = SMOOTH_MAX * tol
    return field * np.minimum(1.0, cap / np.maximum(size, 1e-9))


def neighbour_offsets(off: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """For every intersection, the mean offset (measured − homography) of the kept ones around it (3×3).

    A crossing that could not be measured on an uneven grid is better guessed from how its neighbours sit
    off the homography than from the homography alone; with no kept neighbour the offset is zero.
    """
    w = keep.astype(np.float64)
    o = np.where(keep[..., None], off, 0.0)
    k = np.ones((3, 3), np.float64)
    num = np.stack([cv2.filter2D(o[..., c], -1, k, borderType=cv2.BORDER_CONSTANT) for c in range(2)], axis=-1)
    den = cv2.filter2D(w, -1, k, borderType=cv2.BORDER_CONSTANT)
    return np.where(den[..., None] > 0, num / np.maximum(den, 1e-9)[..., None], 0.0)


def agree_tolerance(inner_dev: np.ndarray, inner: np.ndarray) -> np.ndarray:
    """Per-intersection tolerance (cells) for a measured intersection's distance from the fitted lattice.

    A printed grid lies on one homography to a few hundredths of a cell, so a point further off is a stroke
    taken for the line (or, outside, a frame). A grid ruled by hand is uneven by a tenth of a cell or more
    everywhere: the tolerance grows with the typical deviation of the inner points (three times their
    median), up to `MAX_AGREE`, so its own measured corners are kept instead of the homography's guess.
    """
    typical = float(np.median(inner_dev)) if inner_dev.size >= 30 else 0.0
    grow = min(MAX_AGREE, 3.0 * typical)
    return np.where(inner, max(INNER_AGREE, grow), max(OUTER_AGREE, grow))


def lattice_score(ink: np.ndarray, H: np.ndarray, cell: int = 24) -> float:
    """Comb contrast of the lattice at `H` in the grid's own frame (comparable between candidates at one `cell`)."""
    pad = 1.5
    size = int(round((GRID_SIZE + 2 * pad) * cell))
    sq = cv2.warpPerspective(ink, _grid_to_square(H, cell, pad), (size, size),
                             flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_CONSTANT)
    inner = slice(int(pad * cell), int((pad + GRID_SIZE) * cell))
    scores = []
    for f, cont in (profiles(line_response(sq, 1), 1, inner), profiles(line_response(sq, 0), 0, inner)):
        fmax = _dilate1(_dilate1(f))  # ±2 px: a lattice a little off still counts as this lattice
        cmax = _dilate1(_dilate1(cont))
        pos = np.round((np.arange(N_LINES) + pad) * cell).astype(int)
        teeth = fmax[pos]
        mids = np.mean([f[pos[:-1] + cell // 2 + o] for o in (-3, 0, 3)])
        outer = sorted([cmax[pos[0] - cell], cmax[pos[-1] + cell]])
        floor = max(mids, 0.5 * float(cmax[pos].mean()))
        scores.append(0.5 * teeth.mean() + 0.5 * np.partition(teeth, 1)[1] - mids
                      - 0.5 * max(0.0, outer[1] - floor) - 0.3 * max(0.0, outer[0] - floor))
    return float(min(scores))


UNSEEN_CONTINUES = 0.5  # how much a strip of cells outside the photo counts as the lattice going on
SHIFT_MAX = 4  # cells: the furthest whole-cell shift `best_shift` tries each way
HUG_SHIFT = 1  # cells: the same for an outline taken as the grid's own border
CHECKER_MAX = 0.6  # `checkerboard` likeness above which a lattice is a chequered cloth, not a map
FAR_BAND = (0.05, 0.6)  # the part of a strip of cells outside the grid, away from it, where its lines must stop
EV_CELL, EV_PAD = 24, 2.5  # grid frame of the segment evidence: px per cell, cells of margin (two shifts each way)
SEARCH_CELL = 16  # px per cell of the candidates' shift search and first score (`find_lattices`): a first look only


def segment_strengths(ink: np.ndarray, H: np.ndarray, cell: int = EV_CELL, pad: float = EV_PAD
                      ) -> tuple[np.ndarray, ...]:
    """Strength of every line segment around the lattice at `H`: (vertical, horizontal), each cells × lines,
    and, stacked, the mean ink of every cell's middle and the share of every cell inside the photo (2 × cells ×
    cells, same cell range); then the vertical and horizontal strengths again measured in each far part of the
    cells' bands only (2 × cells × lines each, `FAR_BAND`).

    `vertical[k, j]` is how much line j (x = j − 2, counted in grid units from −2 to 13) stands out of the
    paper beside it along row cell k (−2 … 12): the peak of the line response within ±2 px of where the line
    should be, less the mean half a cell either side. `horizontal[c, i]` likewise for row line i in column
    cell c. The segments of a real 11×11 grid are present inside and stop at its edge; those of squared or
    notebook paper, a brick wall or a frame do not fit that pattern (see `segment_evidence`).
    """
    size = int(round((GRID_SIZE + 2 * pad) * cell))
    sq = cv2.warpPerspective(ink, _grid_to_square(H, cell, pad), (size, size),
                             flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_CONSTANT)
    n_lo = int(np.floor(pad))
    lines = np.arange(-n_lo, GRID_SIZE + n_lo + 1)
    cells = np.arange(-n_lo, GRID_SIZE + n_lo)
    out, far = [], []
    x = np.round((lines + pad) * cell).astype(int)
    side_l = np.clip(x - cell // 2, 0, size - 1)
    side_r = np.clip(x + cell // 2, 0, size - 1)

    def strength(cs: np.ndarray, lo: float, hi: float) -> np.ndarray:
        # Band means from the running sum down the rows (three bands per cell for the price of one).
        a = np.array([int((k + pad + lo) * cell) for k in cells])
        b = np.array([int((k + pad + hi) * cell) for k in cells])
        bands = ((cs[b] - cs[a]) / (b - a)[:, None]).astype(np.float32)
        peak = cv2.dilate(bands, np.ones((1, 5), np.uint8))
        mean = cv2.blur(bands, (5, 1))
        return peak[:, np.clip(x, 0, size - 1)] - 0.5 * (mean[:, side_l] + mean[:, side_r])

    for axis in (1, 0):
        r = line_magnitude(sq, axis)
        r = r if axis == 1 else r.T  # lines vary along the second index
        cs = np.zeros((r.shape[0] + 1, r.shape[1]), np.float32)
        np.cumsum(r, axis=0, out=cs[1:])
        out.append(strength(cs, 0.15, 0.85))
        # The far half of every cell's band, each way (see `segment_evidence_shifts`: a frame hugs the grid).
        far.append(np.stack([strength(cs, FAR_BAND[0], FAR_BAND[1]),
                             strength(cs, 1 - FAR_BAND[1], 1 - FAR_BAND[0])]))
    # Which square pixels come from inside the photo: warped as bytes (a quarter of the memory traffic of floats)
    seen = cv2.warpPerspective(np.ones(ink.shape[:2], np.uint8), _grid_to_square(H, cell, pad), (size, size),
                               flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_CONSTANT
                               ).astype(np.float32)
    m0 = int(round((pad - n_lo) * cell))
    core = sq[m0: m0 + len(cells) * cell, m0: m0 + len(cells) * cell]
    c4 = cell // 4
    cells_dark = core.reshape(len(cells), cell, len(cells), cell)[:, c4:-c4, :, c4:-c4].mean(axis=(1, 3))
    core = seen[m0: m0 + len(cells) * cell, m0: m0 + len(cells) * cell]
    cells_seen = core.reshape(len(cells), cell, len(cells), cell).mean(axis=(1, 3))
    return out[0], out[1], np.stack([cells_dark, cells_seen]), far[0], far[1]


def checkerboard(dark: np.ndarray) -> float:
    """How much the cells' darkness follows a chessboard (1: a chequered cloth or tiled floor, whose square
    edges make a perfect lattice of steps; a map drawn by a player never alternates cell by cell)."""
    d = dark - dark.mean()
    sign = np.where(np.indices(dark.shape).sum(axis=0) % 2 == 0, 1.0, -1.0)
    return float(abs((d * sign).mean()) / (np.sqrt((d ** 2).mean()) + 1e-6))


def checkerboard_many(dark: np.ndarray) -> np.ndarray:
    """`checkerboard` of each window of a stack (windows × rows × cols), all in one array step."""
    d = dark - dark.mean(axis=(1, 2), keepdims=True)
    sign = np.where(np.indices(dark.shape[1:]).sum(axis=0) % 2 == 0, 1.0, -1.0)
    return np.abs((d * sign).mean(axis=(1, 2))) / (np.sqrt((d ** 2).mean(axis=(1, 2))) + 1e-6)


def segment_evidence(segs: tuple[np.ndarray, ...], dx: int = 0, dy: int = 0) -> float:
    """How well the segments say "an 11×11 grid starts and stops here" for the lattice shifted (dx, dy) cells.

    Inside, every one of the 2 × 11 × 12 segments should be there (the share present, each counted up to the
    typical segment's strength; the weaker line family decides). Just outside, the perpendicular lines must
    stop: a strip of cells beyond an edge crossed by the lattice's lines at full strength means the lattice
    goes on (the comb is a cell off, or the grid is part of squared paper). A parallel line just outside
    (a frame, a notebook margin) costs nothing: frames are common and say nothing about where the grid ends.
    """
    return segment_evidence_shifts(segs, [(dx, dy)])[0]


def segment_evidence_shifts(segs: tuple[np.ndarray, ...], shifts: list[tuple[int, int]]
                            ) -> list[float]:
    """`segment_evidence(segs, dx, dy)` for every (dx, dy) of `shifts`, the medians and means of all shifts
    taken in one batch (`best_shift` tries 81). Same numbers as one shift at a time."""
    v, h, (dark, seen) = segs[:3]
    # Just outside the grid, the perpendicular lines are measured in the half of the strip away from the grid
    # when its far halves are given (`segment_strengths`): the game's pad wraps its grid in a decorated band
    # (ruler ticks, blocks changing at every cell line) within a third of a cell of its edge, which says
    # nothing about the lattice going on; squared paper, a chequered cloth or a comb a cell off go on across
    # the whole strip.
    v_lo, v_hi, h_lo, h_hi = (v, v, h, h) if len(segs) < 5 else (segs[3][0], segs[3][1], segs[4][0], segs[4][1])
    o = (v.shape[1] - N_LINES) // 2  # index of line 0 (and of cell 0)
    n, G = len(shifts), GRID_SIZE
    x0s = [o + dx for dx, _ in shifts]
    y0s = [o + dy for _, dy in shifts]
    pos = list(zip(x0s, y0s, strict=True))
    inner_v = np.stack([v[y0: y0 + G, x0: x0 + N_LINES] for x0, y0 in pos])
    inner_h = np.stack([h[x0: x0 + G, y0: y0 + N_LINES] for x0, y0 in pos])
    m = np.median(np.concatenate([inner_v.reshape(n, -1), inner_h.reshape(n, -1)], axis=1), axis=1)
    safe = np.where(m != 0, m, 1.0).astype(m.dtype)[:, None]
    cov_v = np.minimum(inner_v / safe[..., None], 1).clip(0).mean(axis=(1, 2))
    cov_h = np.minimum(inner_h / safe[..., None], 1).clip(0).mean(axis=(1, 2))
    # Beyond the photo's edge nobody can see the lattice stop: a strip of cells out of the frame counts as
    # half continuing (a chequered cloth or tiled floor runs off the photo; a sheet's grid seldom does).
    outer = [np.stack([v_lo[y0 - 1, x0: x0 + N_LINES] for x0, y0 in pos]),
             np.stack([v_hi[y0 + G, x0: x0 + N_LINES] for x0, y0 in pos]),
             np.stack([h_lo[x0 - 1, y0: y0 + N_LINES] for x0, y0 in pos]),
             np.stack([h_hi[x0 + G, y0: y0 + N_LINES] for x0, y0 in pos])]
    conts = np.stack([np.median(np.clip(a / safe, 0, 1), axis=1) for a in outer])  # (4 edges, shifts)
    # The checkerboard test and the unseen strips of every shift at once (the same sums, one array step each).
    checker = checkerboard_many(np.stack([dark[y0: y0 + G, x0: x0 + G] for x0, y0 in pos]))
    unseen = 1 - np.stack([np.stack([seen[y0 - 1, x0: x0 + G] for x0, y0 in pos]).mean(axis=1),
                           np.stack([seen[y0 + G, x0: x0 + G] for x0, y0 in pos]).mean(axis=1),
                           np.stack([seen[y0: y0 + G, x0 - 1] for x0, y0 in pos]).mean(axis=1),
                           np.stack([seen[y0: y0 + G, x0 + G] for x0, y0 in pos]).mean(axis=1)])
    cont = np.maximum(conts, UNSEEN_CONTINUES * unseen).max(axis=0)
    ev = np.minimum(cov_v, cov_h).astype(np.float64) - cont.astype(np.float64)  # in double, as one at a time
    bad = (checker > CHECKER_MAX) | (m.astype(np.float64) <= 1e-4)
    return [-1.0 if b else float(e) for b, e in zip(bad.tolist(), ev.tolist(), strict=True)]


def best_shift(ink: np.ndarray, H: np.ndarray) -> tuple[np.ndarray, float]:
    """`H` moved by the whole-cell shift (up to `SHIFT_MAX` cells each way) whose segments best start and stop
    with a grid, and that evidence. A comb one cell off (a notebook margin or a frame line taken for the first
    line, an overshooting last line) is the commonest miss on hand-ruled and squared grids; a comb of the
    right pitch fitted over the grid and the coin track below it is several cells off."""
    H2, ev, _ = shift_search(ink, H, SHIFT_MAX)
    return H2, ev


def shift_search(ink: np.ndarray, H: np.ndarray, reach: int, cell: int = EV_CELL) -> tuple[np.ndarray, float, float]:
    """`best_shift` within `reach` cells each way: (moved `H`, its evidence, the evidence of `H` unmoved), the
    segments measured at `cell` px per cell."""
    segs = segment_strengths(ink, H, cell=cell, pad=reach + 1.5)
    r = range(-reach, reach + 1)
    shifts = [(dx, dy) for dx in r for dy in r]
    evs = segment_evidence_shifts(segs, shifts)
    best = max(((ev - 0.02 * (abs(dx) + abs(dy)), dx, dy) for ev, (dx, dy) in zip(evs, shifts, strict=True)),
               key=lambda t: t[0])
    ev, dx, dy = best
    if dx == 0 and dy == 0:
        return H, ev, ev
    T = np.array([[1, 0, dx], [0, 1, dy], [0, 0, 1.0]])
    return H @ T, ev, segment_evidence(segs)


SQUARISH = 1.25  # longest over shortest mean of opposite sides for an outline to be taken for a square grid


def squarish(quad: np.ndarray, limit: float = SQUARISH) -> bool:
    """Could this outline (TL, TR, BR, BL) be a square seen by a phone? A page (√2 : 1) or a score strip is
    not; a phone held within about 35° of straight above foreshortens a square by less than `limit`."""
    side = np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)
    a, b = 0.5 * (side[0] + side[2]), 0.5 * (side[1] + side[3])
    return bool(min(a, b) > 0 and max(a, b) / min(a, b) < limit)


def is_new_quad(q: np.ndarray, quads: list[np.ndarray], near: float = 6.0) -> bool:
    """Is outline `q` more than `near` pixels (at some corner) from each of `quads`, i.e. not one of them again?"""
    return all(np.abs(q - o).max() > near for o in quads)


def candidate_quads(gray: np.ndarray, darkest: np.ndarray | None = None) -> list[np.ndarray]:
    """Rough outlines the lattice may sit in: contour quadrilaterals (of the gray image and of its darkest
    channel, which shows orange or blue print better), and the whole image as a last resort."""
    from vision.border import find_quads

    quads = find_quads(gray)[:6]
    if darkest is not None:
        for q in find_quads(darkest)[:4]:
            if is_new_quad(q, quads):
                quads.append(q)
    for q in paper_quads(gray):
        if is_new_quad(q, quads):
            quads.append(q)
    h, w = gray.shape[:2]
    quads.append(np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float64))
    return quads


def quad_of(contour: np.ndarray) -> np.ndarray | None:
    """Four corners for a blob's outline: its hull simplified to four points (coarser until it is), else its
    smallest enclosing rectangle. A page with a ragged edge, a lifted corner or a torn-off strip still
    gives the rough outline the comb fit needs."""
    from vision.border import order_corners

    hull = cv2.convexHull(contour)
    per = cv2.arcLength(hull, True)
    for eps in (0.02, 0.04, 0.06, 0.09):
        approx = cv2.approxPolyDP(hull, eps * per, True)
        if len(approx) == 4 and cv2.isContourConvex(approx):
            return order_corners(approx.reshape(4, 2).astype(np.float64))
        if len(approx) < 4:
            break
    return order_corners(cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float64))


def paper_quads(gray: np.ndarray, keep: int = 2) -> list[np.ndarray]:
    """Outlines of the largest bright regions (paper on a darker table, split from it by Otsu's threshold;
    thin bridges to bright bits of the table opened away): the page when its edge is too ragged, curled or
    busy for the contour quadrilaterals."""
    h, w = gray.shape[:2]
    blur = cv2.GaussianBlur(gray, (0, 0), 2.0)
    _, binary = cv2.threshold(blur, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    k = max(3, (min(h, w) // 60) | 1)
    binary = cv2.morphologyEx(binary, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    contours, _ = cv2.findContours(binary, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    big = sorted((c for c in contours if cv2.contourArea(c) > 0.04 * h * w), key=cv2.contourArea, reverse=True)
    out = []
    for c in big[:keep]:
        q = quad_of(c)
        if q is not None:
            out.append(q)
    return out


# Darkness levels (`ink_map`, 0..1) at which a drawn grid is cut out of the paper's own lines: squared paper's
# and notebook rulings are printed faint (0.05–0.2), a grid drawn over them in pen, pencil or felt-tip is darker.
INK_OUTLINE_LEVELS = (0.18, 0.3)
# A second look with a wider closing (a grid's strokes broken by hatching or by a pale pen), a higher level (a
# felt-tip or ballpoint grid over rulings as dark as 0.3), one between the first two (a pencil grid just darker
# than rulings above 0.18: squared paper in glare, photogen4 development seed 35), and one in grey ink alone
# (`neutral_ink_map`). Only photos the first look refuses are looked at so.
WIDE_CLOSE = 5
WIDE_LEVELS = (0.18, 0.24, 0.3, 0.4)
NEUTRAL_LEVELS = (0.18, 0.3)
INK_OUTLINE_KEEP = 2  # outlines kept per level, largest first
MIN_GRID_AREA = 0.02  # of the working image: a grid smaller than this is not searched (its cells are too small)
INK_MEASURED = 2  # lattices reached from ink outlines measured beside the photo's outlines' best few
# The photo's outlines' coarse candidates measured beyond the `keep` returned. The coarse score (a comb and a shift
# search at SEARCH_CELL px) can rank the grid below windows of a chequered cloth that are more regular than a
# pad's faint dashes; measured, the grid's 12 + 12 lines win. With two extra, a pad scan flat in the frame was
# refused: its grid was the seventh coarse candidate, and the first once measured (photogen2 dev seed 114).
MEASURED_EXTRA = 3


def ink_quads(ink: np.ndarray, levels: tuple[float, ...] | None = None,
              keep: int = INK_OUTLINE_KEEP, close: int = 3) -> list[np.ndarray]:
    """Outlines of a grid drawn darker than the paper's own lines: the largest squarish blobs of ink above each
    level in `levels` (TL, TR, BR, BL, in `ink` pixels).

    Why: on squared paper (and on a notebook page ruled close) the paper's lines join the drawn grid into one
    mesh, so the contour outlines of the photo (`vision.border.find_quads`) see the page but never the grid's
    own border; the comb then fits 12 of the paper's lines anywhere in the page. The player's pen is darker
    than the printed rulings, so the ink above a level the rulings do not reach is the grid alone (with the
    fills inside it), and its outline is the grid's. A small closing mends a faint or dashed stroke.
    """
    h, w = ink.shape[:2]
    out: list[np.ndarray] = []
    kernel = np.ones((close, close), np.uint8)
    for level in INK_OUTLINE_LEVELS if levels is None else levels:
        binary = cv2.morphologyEx((ink > level).astype(np.uint8), cv2.MORPH_CLOSE, kernel)
        # Every contour, holes too: a dark table shows as ink along the page's edge, a ring round the page
        # that would hide the grid inside it from an outer-contours-only search.
        contours, _ = cv2.findContours(binary, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        big = sorted((c for c in contours if cv2.contourArea(c) > MIN_GRID_AREA * h * w), key=cv2.contourArea,
                     reverse=True)
        n = 0
        for c in big:
            q = quad_of(c)
            if q is None or not squarish(q):
                continue
            near = max(6.0, 0.03 * float(np.linalg.norm(q[2] - q[0])))  # the two edges of one stroke: one outline
            if not is_new_quad(q, out, near):
                continue
            out.append(q)
            n += 1
            if n >= keep:
                break
    return out


def to_measure(found: list[tuple], keep: int) -> list[tuple]:
    """The coarse candidates (score, homography, from_layout, by_ink), best first, that are measured at full size:
    the photo's outlines' best `keep` + MEASURED_EXTRA, and the ink outlines' best INK_MEASURED beside them (never
    crowding out the others: a grid that both reach is measured from the outlines, as before there were ink
    outlines)."""
    return [t for t in found if not t[3]][: keep + MEASURED_EXTRA] + [t for t in found if t[3]][:INK_MEASURED]


def find_lattices(image: np.ndarray, gray: np.ndarray | None = None, keep: int = 3,
                  wide: bool = False) -> list[Lattice]:
    """The best few 12 + 12 line lattices in a BGR (or gray) image, best first, in that image's pixels.

    Several are returned because the lattice alone can be fooled by a look-alike (a score table, squared
    paper); the printed features (`vision.orient`) confirm which one is the map. `wide`: a second look, for a
    photo where the first found no grid, with more outlines of the grid's own ink (`WIDE_LEVELS`,
    `NEUTRAL_LEVELS`): a grid ruled by hand over a notebook's rulings or traced over squared paper whose lines
    join it. Not on every photo: a grid the first look finds is then read exactly as before, and the extra
    outlines' comb fits and shift searches are spent only where they are needed.
    """
    h, w = image.shape[:2]
    f = min(1.0, WORK_SIDE / max(h, w))
    small = cv2.resize(image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA) if f < 1 else image
    if gray is None:
        gray = small if small.ndim == 2 else cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    elif f < 1:
        gray = cv2.resize(gray, (small.shape[1], small.shape[0]), interpolation=cv2.INTER_AREA)
    ink = ink_map(small)
    found = []
    unit = np.array([[0, 0], [GRID_SIZE, 0], [GRID_SIZE, GRID_SIZE], [0, GRID_SIZE]], np.float32)
    darkest = darkest_channel(small) if small.ndim == 3 else None
    quads = candidate_quads(gray, darkest)
    n_outlines = len(quads) - 1  # the last is the whole image
    # A grid drawn darker than its paper's lines (squared paper, close rulings): its own outline, a grid border.
    quads += [q for q in ink_quads(ink) if is_new_quad(q, quads)]
    if wide:
        quads += [q for q in ink_quads(ink, WIDE_LEVELS, close=WIDE_CLOSE) if is_new_quad(q, quads)]
    if wide and small.ndim == 3:  # a pencil or black-pen grid over coloured rulings: its outline in grey ink alone
        quads += [q for q in ink_quads(neutral_ink_map(small), NEUTRAL_LEVELS, close=WIDE_CLOSE)
                  if is_new_quad(q, quads)]
    # The comb's candidates are searched coarsely (the comb on a smaller square, the shift search and the first
    # score at `SEARCH_CELL` px per cell); the best few are then measured, scored and judged at full size.
    for qi, quad in enumerate(quads):
        got = _candidate_lattice(ink, quad, SEARCH_SQ)
        # the comb inside an outline of the grid's own ink is at most a cell off it (searched like an outline)
        tries = [] if got is None else [(got[0], qi > n_outlines, False)]
        if qi != n_outlines and squarish(quad):
            # The outline itself as the grid's border: the pad's frame and a print's thick border hug the grid,
            # and its faint or heavily filled lattice may lose the comb to the frame or the fills' edges.
            tries.append((quad, True, False))
        if qi < n_outlines:
            # A page-like outline may be the game's own pad: its layout puts the grid inside (a cell or so off).
            tries.extend((g, True, True) for g in pad_grid_quads(quad))
        for corners, outline, layout in tries:
            if cv2.contourArea(corners.astype(np.float32)) < MIN_GRID_AREA * small.shape[0] * small.shape[1]:
                continue
            H0 = cv2.getPerspectiveTransform(unit, corners.astype(np.float32)).astype(np.float64)
            # An outline that is the grid's border (or a frame round it) is at most a cell off it.
            # The comb's guess is searched coarsely, four cells each way; an outline (at most a cell off the grid:
            # a small frame, and a pad's fills may drown its lines) at full size.
            cell = EV_CELL if outline else SEARCH_CELL
            H, ev, ev0 = shift_search(ink, H0, HUG_SHIFT if outline else SHIFT_MAX, cell)
            by_ink = qi > n_outlines
            found.append((ev + 0.05 * float(np.clip(lattice_score(ink, H, cell), -3.0, 6.0)), H, layout, by_ink))
            if outline and H is not H0:
                # An outline hugging a faint grid beside a chequered cloth or a busy margin: the shift search
                # may prefer a window over the cloth's squares; the outline as it is stays a candidate, for
                # the printed features to confirm or not.
                found.append((ev0 + 0.05 * float(np.clip(lattice_score(ink, H0, cell), -3.0, 6.0)), H0, layout,
                              by_ink))
    found.sort(key=lambda t: -t[0])
    chosen = to_measure(found, keep)
    measured = []
    for _, H, layout, by_ink in chosen:
        lat = measure(ink, H, rounds=1)
        sc = lattice_score(ink, lat.homography)
        measured.append((Lattice(lat.homography, lat.points, sc,
                                 segment_evidence(segment_strengths(ink, lat.homography)), layout), by_ink))
    # The same order as the candidates': a frame or a score table can out-contrast a faint grid, but not
    # start and stop like one. Of the same lattice reached from several outlines, the best measured stays
    # (the one an outline of the photo reached, when an ink outline reached it too).
    measured.sort(key=lambda t: -(t[0].evidence + 0.05 * float(np.clip(t[0].score, -3.0, 6.0))))
    out: list[Lattice] = []
    inked: list[bool] = []
    for lat, by_ink in measured:
        centre = lat.points.mean(axis=(0, 1))
        same = [i for i, o in enumerate(out) if np.linalg.norm(centre - o.points.mean(axis=(0, 1))) < 2]
        if not same:
            out.append(lat)
            inked.append(by_ink)
            continue
        i = same[0]
        if inked[i] and not by_ink:
            out[i] = replace(lat, from_layout=lat.from_layout and out[i].from_layout)
            inked[i] = False
        elif not lat.from_layout and out[i].from_layout:
            out[i] = replace(out[i], from_layout=False)  # reached without the layout's guess too
    return [lat.scaled(1 / f) for lat in out[:keep]]


def remeasure(image: np.ndarray, lat: Lattice) -> Lattice:
    """The chosen lattice measured again on a crop of the working image around it (sub-pixel centres)."""
    cell = lat.cell_px()
    h, w = image.shape[:2]
    x0, y0 = np.floor(lat.points.reshape(-1, 2).min(axis=0) - cell).astype(int)
    x1, y1 = np.ceil(lat.points.reshape(-1, 2).max(axis=0) + cell).astype(int)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    T = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1.0]])
    full = measure(ink_map(image[y0:y1, x0:x1]), T @ lat.homography, rounds=1)
    back = np.linalg.inv(T)
    full = Lattice(back @ full.homography, full.points + [x0, y0], full.score)
    return Lattice(full.homography, full.points, lat.score, lat.evidence, lat.from_layout)


def lattice_accepted(lat: Lattice, confirm: float, min_confirm: float) -> bool:
    """Is this lattice the map's grid? Either its own segments say so (12 + 12 lines present inside, stopping
    at its edge: hand-ruled and squared grids, whose mountains are drawn differently each time), or the side's
    printed mountains confirm it (`confirm`, a z-score) and its segments do not contradict it (the pad's
    dashed lines on a textured parchment are faint). A brick wall, squared paper, a tiled floor or a
    chequered cloth go on past any 11×11 window and have no evidence. A lattice only the pad's layout proposed
    (inside a page outline) needs the printed mountains' word too, half of it when its segments stand alone: a
    notebook page of the same shape has rulings that make a lattice anywhere in it, with no mountains there.
    Whatever its evidence, the lattice must be a square seen by a phone (`LATTICE_SQUARISH`): a map's grid is
    11 × 11 square cells, and a comb that spans the grid one way and a few cells of it the other (eleven
    columns over four rows of a curled, glared sheet) starts and stops like a grid along both.

    Printed mountains that confirm a lattice as strongly as a rival needs to overrule a confirmed grid's
    lines (`DISPUTE_GAP` above `min_confirm`) make it the grid when its segments are faint rather than absent
    (≥ `RIVAL_EVIDENCE`), as `settle_dispute` would let it win against any other: the pad's first comb can
    lie up to half a cell off its faint dashes (measured before `remeasure`), which leaves its segments
    little coverage, and five mountains at exactly the printed cells are no accident (development pad scans
    flat in the frame were refused with z 5.7-6.9, segments -0.10 to -0.05)."""
    if not squarish(outline_of(lat), LATTICE_SQUARISH):
        return False
    if lat.evidence >= EVIDENCE_ALONE:
        return not lat.from_layout or confirm >= LAYOUT_CONFIRM_SHARE * min_confirm
    if confirm >= min_confirm + DISPUTE_GAP and lat.evidence >= RIVAL_EVIDENCE:
        return True
    return confirm >= min_confirm and (lat.evidence >= EVIDENCE_CONFIRMED or lat.score >= MIN_LATTICE_SCORE)


# Longest over shortest mean of opposite sides a measured lattice may have: looser than an outline's `SQUARISH`
# (a curled sheet, a grid ruled by hand with cells a little off square); dev grids measured 1.00–1.18, combs over a
# part of the grid 1.4–2.5.
LATTICE_SQUARISH = 1.5
DISPUTE_GAP = 2.0  # z: how much better a rival's printed mountains must confirm it to overrule the lines
RIVAL_EVIDENCE = -0.5  # segment evidence a confirmed rival may fall to (faint dashes measured onto strokes)


def outline_of(lat: Lattice) -> np.ndarray:
    """The lattice's outer corners (TL, TR, BR, BL of its own order), pixels."""
    p = lat.points
    return np.array([p[0, 0], p[0, -1], p[-1, -1], p[-1, 0]], np.float64)


def overlaps(a: Lattice, b: Lattice) -> bool:
    """Do two lattices lie over the same part of the photo (each one's centre inside the other's outline)?
    Then at most one of them is the map's grid: a sheet has one grid, and a lattice beside it (a table's
    tiles, a second sheet) does not compete with it."""
    def inside(pt: np.ndarray, quad: np.ndarray) -> bool:
        return cv2.pointPolygonTest(quad.astype(np.float32).reshape(-1, 1, 2), (float(pt[0]), float(pt[1])),
                                    False) >= 0
    if not (np.isfinite(a.points).all() and np.isfinite(b.points).all()):
        return False  # a lattice measured off into nowhere covers no part of the photo
    ca, cb = a.points.mean(axis=(0, 1)), b.points.mean(axis=(0, 1))
    return inside(ca, outline_of(b)) and inside(cb, outline_of(a))


def overrules(z: float, confirm: float, min_confirm: float) -> bool:
    """Whether a rival placement whose printed mountains confirm it at `z` overrules one confirmed at `confirm`:
    `min_confirm` at least, and `DISPUTE_GAP` above it (`settle_dispute`, `vision.orient.cell_off`)."""
    return z >= min_confirm and z - confirm >= DISPUTE_GAP


def settle_dispute(chosen: tuple[Lattice, float], others: list[tuple[Lattice, float]],
                   min_confirm: float) -> tuple[Lattice, float]:
    """The lattice to read when the sheet's lines and its printed features disagree about where the grid is.

    `chosen` (lattice, confirmation z) won on its segments; `others` are the other candidates with theirs.
    A lattice whose segments start and stop like a grid can still be a cell or more off the map's grid (the
    pad's decorated frame and its ticks read as one more line, strong symbols pull the lines, a comb of the
    wrong pitch over a faint dashed grid); then few of the side's printed mountains fall on its mountain
    cells. When another lattice over the same sheet has them where the side prints them (z ≥ `min_confirm`,
    which the mutual likeness of five cells reaches by chance on few sheets, and `DISPUTE_GAP` above the
    chosen one's) and its own segments are faint rather than absent (≥ `RIVAL_EVIDENCE`), the printed
    features win: the mountains at exactly the printed cells are an unlikely accident, a line pattern near a
    grid a common one. Sheets with no printed mountains (hand-ruled, squared, a plain print) have no
    confirmed rival and keep their lines' lattice."""
    lat, conf = chosen
    rivals = [(o, c) for o, c in others if o is not lat and overrules(c, conf, min_confirm)
              and o.evidence >= RIVAL_EVIDENCE and squarish(outline_of(o), LATTICE_SQUARISH) and overlaps(o, lat)]
    if not rivals:
        return chosen
    return max(rivals, key=lambda t: t[1])


def may_be_accepted(lat: Lattice) -> bool:
    """Could this lattice be read, for any word of the printed mountains: taken by `lattice_accepted`, or a
    rival that `settle_dispute` lets overrule the lines? (When not, the mountains need not be looked at: a
    lattice that is no square, or whose segments contradict a grid and whose comb is weak, never stands.)"""
    if not squarish(outline_of(lat), LATTICE_SQUARISH):
        return False
    floor = min(EVIDENCE_ALONE, EVIDENCE_CONFIRMED, RIVAL_EVIDENCE)
    return lat.evidence >= floor or lat.score >= MIN_LATTICE_SCORE


def lattice_rank(lat: Lattice, confirm: float) -> float:
    """Order of accepted lattices: the segment evidence first, the printed mountains' word next."""
    return lat.evidence + 0.08 * min(confirm, 12.0) + 0.05 * float(np.clip(lat.score, -3.0, 6.0))


def find_lattice(image: np.ndarray, gray: np.ndarray | None = None) -> Lattice | None:
    """The best lattice (measured at full resolution), or None when none is convincing on its own."""
    lats = find_lattices(image, gray, keep=1)
    if not lats or lats[0].score < MIN_LATTICE_SCORE:
        return None
    return remeasure(image, lats[0])
