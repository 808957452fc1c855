"""Stage 4b: take the paper's own lines out of the cells before their ink is measured.

Why: a grid ruled by hand on a notebook page has the page's rulings running through every cell, squared paper has
lines both ways, and the hand-drawn grid itself is uneven, so pieces of its lines reach into the cell crops. All of
that is ink to the later stages: empty cells read as drawn on, and a thin symbol (dots, a ballpoint tree) is
swamped by the lines, so its shape descriptor sees stripes (water) instead.

What tells such a line from a drawing is true of every page and every pen: **a ruling or a grid line is one long,
thin, straight line that continues from cell to cell across the whole row of cells**; a symbol, a letter or a hatch
stroke stays inside its cell, and two strokes in neighbouring cells do not line up to the pixel, let alone over
seven or more cells in a row. So, for each direction (lines along the rows, lines along the columns):

1. `ridge` — a thin-line response across the lines (the second difference of the ink, floored at 0);
2. `strip_profiles` — the response averaged along each column of cells ("strip"): a line crossing the strip is a
   peak at its position;
3. `peaks` per strip, then `chains` — peaks linked from strip to strip where they continue a straight (or gently
   bent: curl) line; a chain over at least `MIN_STRIPS` of the 11 strips is a paper line (the grid's own lines
   are found the same way: they are long, follow the fitted grid and sit at the cells' edges);
4. `divide_out` — ink layers multiply, so along each line its own transmission at each offset across it (the
   image over the image at the line's flanks, a running median along the line so a symbol it crosses is an
   outlier) is divided out: paper under a ruling becomes paper, a colour fill stays a fill, and a symbol's stroke
   crossing the line keeps its darkness.

The stage works on the straightened, light-normalised sheet (paper = 1) and returns a cleaned copy of the grid's
part of it; everything outside the grid (legend, coin track, text) is left as it was.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.cartographers.data import GRID_SIZE
from vision.features import median_along
from vision.lattice import second_difference

SUB = 3  # strips per cell: a line is followed a third of a cell at a time
RULING_SHARE = 0.6  # share of the strips a straight line must cross to be a ruling of the page
HIDDEN_SHARE = 0.3  # … or, at the pitch the rulings keep, this share (a ruling mostly hidden under fills)
SLOPES = np.linspace(-0.08, 0.08, 81)  # rulings' slopes tried against the grid (tan, about ±4.6°)
PITCH_MIN, PITCH_MAX = 0.3, 1.3  # cells: the pitch of rulings and squared paper
PIECE_STRIPS = 4  # strips (a cell and a third) a line along a cell edge must run to be a piece of the grid
EDGE_BAND = 0.12  # cells: how near the fitted grid line a short grid piece lies
EDGE_BAND_WIDE = 0.25  # … and a long one
LONG_PIECE = 6  # strips (two cells): a grid piece this long may lie in the wide band
MAX_GAP = 4  # strips a line may be hidden for (under a dark fill) and still continue
LINK_TOL = 2.0  # px: how far a line may move from its predicted position per strip
STRAIGHT_TOL = 2.0  # px: largest residual of a ruling's points from a quadratic (curl) through them
PEAK_FLOOR = 0.015  # strip-mean ridge below which nothing is a line (paper grain)
PEAK_OVER = 3.0  # … and a peak must be this many times its strip's median
WIDTHS = (2, 4)  # px: second-difference spans (thin rulings, bolder pen lines)
MAX_HALF = 6  # px: half band across a line in which its transmission is divided out
SMOOTH_ALONG = 40  # px: a line's transmission is the median over blocks this long, along it
MIN_TRANSMISSION = 0.1  # the darkest a paper line is taken to be (a bold felt-tip grid line)
PAD_CELLS = 0.35  # cells round the grid included in the cleaned region (the outer grid lines)

@dataclass(frozen=True)
class PaperLine:
    """One line found across the strips: its position (px across the lines) at `t` (px along them).

    A ruling is a quadratic through its points (straight, gently bent by curl, bridged under fills); a grid piece
    follows its own points (hand-drawn lines bend and kink).
    """

    t: np.ndarray  # along-line positions of its points (strip centres)
    pos: np.ndarray  # across-line positions there
    t_range: tuple[float, float]  # along-line extent (px) erased
    kind: str  # "ruling" or "grid"
    coef: np.ndarray | None = None  # rulings: quadratic coefficients (np.polyval order)

    def at(self, t: np.ndarray) -> np.ndarray:
        if self.coef is not None:
            return np.polyval(self.coef, t)
        return np.interp(t, self.t, self.pos)


def ridge(dark: np.ndarray, axis: int, widths: tuple[int, ...] = WIDTHS) -> np.ndarray:
    """Thin-line response across `axis` (0: lines run along the rows, 1: along the columns), floored at 0: the
    largest second difference over `widths`, so a thin ruling and a bolder pen line both answer at their centre."""
    d = np.ascontiguousarray(dark, np.float32)
    out = np.maximum(second_difference(d, widths[0], axis), 0.0)
    for w in widths[1:]:
        np.maximum(out, second_difference(d, w, axis), out=out)
    return out


def strip_profiles(resp: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """(strips, rows) mean of a response (lines along the rows) over each strip's columns [edges[j], edges[j+1])."""
    c = np.concatenate([np.zeros((resp.shape[0], 1), np.float64), np.cumsum(resp, axis=1, dtype=np.float64)], axis=1)
    e = np.clip(np.round(edges).astype(int), 0, resp.shape[1])
    widths = np.maximum(e[1:] - e[:-1], 1)
    return ((c[:, e[1:]] - c[:, e[:-1]]) / widths).T


def sub_edges(edges: np.ndarray, sub: int = SUB) -> np.ndarray:
    """Each interval of `edges` cut into `sub` equal strips."""
    parts = [np.linspace(a, b, sub + 1)[:-1] for a, b in zip(edges[:-1], edges[1:], strict=True)]
    return np.concatenate([*parts, edges[-1:]])


def peaks(profile: np.ndarray, floor: float = PEAK_FLOOR, over: float = PEAK_OVER) -> list[tuple[float, float]]:
    """(sub-pixel position, height) of the local maxima of one strip's profile that stand out from its level
    (`over` times its median: a strip full of hatching has a higher level than blank paper)."""
    p = cv2.GaussianBlur(profile.astype(np.float32).reshape(-1, 1), (1, 0), 0.7).ravel()
    thr = max(floor, over * float(np.median(p)))
    i = np.nonzero((p[1:-1] > thr) & (p[1:-1] >= p[:-2]) & (p[1:-1] > p[2:]))[0] + 1
    # the parabola's vertex through each maximum and its neighbours, in double precision (all maxima at once)
    a, b, c = p[i - 1].astype(np.float64), p[i].astype(np.float64), p[i + 1].astype(np.float64)
    den = a - 2 * b + c
    off = np.where(den < 0, 0.5 * (a - c) / np.where(den < 0, den, -1.0), 0.0)
    return list(zip((i + np.clip(off, -0.5, 0.5)).tolist(), b.tolist(), strict=True))


def chains(found: list[list[tuple[float, float]]], centres: np.ndarray, tol: float = LINK_TOL,
           max_gap: int = MAX_GAP) -> list[list[tuple[int, float, float]]]:
    """Link peaks strip by strip into chains of (strip, position, height).

    A peak continues the chain whose predicted position (its last point plus its slope over its last few points)
    is nearest, within `tol` px (more across a gap of hidden strips); each chain takes one peak per strip, the
    strongest peaks choosing first; a peak no chain wants starts its own. The chains' predictions are worked out
    once per strip (`_predictions`) and each peak's nearest free chain found among them in one array step: the
    same links as comparing a peak with one chain at a time (squared paper has ~40 chains and peaks a strip).
    """
    active: list[list[tuple[int, float, float]]] = []
    done: list[list[tuple[int, float, float]]] = []
    for j, pk in enumerate(found):
        still = []
        for ch in active:
            (still if j - ch[-1][0] <= max_gap + 1 else done).append(ch)
        active = still
        pred, reach = _predictions(active, centres, j, tol)
        free = np.ones(len(active), bool)
        for pos, h in sorted(pk, key=lambda v: -v[1]):
            d = np.abs(pos - pred)
            ok = free & (d <= reach)
            if ok.any():
                best = int(np.argmin(np.where(ok, d, np.inf)))  # the first of equally near ones, as before
                active[best].append((j, pos, h))
                free[best] = False
            else:
                active.append([(j, pos, h)])  # a new chain: taken for this strip, so never a candidate here
    return done + active


def _predictions(active: list[list[tuple[int, float, float]]], centres: np.ndarray, j: int, tol: float
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Where each chain of `active` predicts its line in strip `j` (its last point plus its slope over its last
    four points), and how far from there a peak may lie to continue it (`tol`, more across hidden strips)."""
    pred = np.empty(len(active))
    reach = np.empty(len(active))
    for n, ch in enumerate(active):
        jl, yl, _ = ch[-1]
        slope = 0.0
        if len(ch) >= 2:
            j0, y0, _ = ch[max(0, len(ch) - 4)]
            if jl != j0:
                slope = (yl - y0) / (centres[jl] - centres[j0])
        pred[n] = yl + slope * (centres[j] - centres[jl])
        reach[n] = tol * (1 + 0.5 * (j - jl - 1))
    return pred, reach


def support(on: np.ndarray, centres: np.ndarray, slope: float) -> np.ndarray:
    """For every position b, how many strips have a line at b + slope · (t − t_mid) (`on`: strips × positions)."""
    n, m = on.shape
    shift = np.round(slope * (centres - centres.mean())).astype(int)
    b = np.arange(m)
    idx = np.clip(b[None, :] + shift[:, None], 0, m - 1)
    inside = (b[None, :] + shift[:, None] >= 0) & (b[None, :] + shift[:, None] < m)
    return (np.take_along_axis(on, idx, axis=1) & inside).sum(axis=0)


def support_all(on: np.ndarray, centres: np.ndarray, slopes: np.ndarray) -> np.ndarray:
    """`support(on, centres, slope)` for every slope of `slopes`, stacked (slopes × positions): one strip at a
    time, all slopes at once, from a copy of the strip padded with empty positions (a shifted position outside
    the strip counts nothing, as `support`'s `inside` says). Same counts, without 81 passes over the strips."""
    n, m = on.shape
    shift = np.round(slopes[:, None] * (centres - centres.mean())[None, :]).astype(int)  # (slopes, strips)
    pad = int(np.abs(shift).max(initial=0))
    padded = np.zeros((n, m + 2 * pad), bool)
    padded[:, pad: pad + m] = on
    b = np.arange(m)[None, :] + pad
    out = np.zeros((len(slopes), m), np.int64)
    for j in range(n):
        out += padded[j][b + shift[:, j: j + 1]]
    return out


def local_maxima(s: np.ndarray, least: float, spread: int = 3) -> np.ndarray:
    """Positions where `s` reaches `least` and is the largest within `spread` px (the first of a plateau)."""
    big = cv2.dilate(s.astype(np.float32).reshape(1, -1), np.ones((1, 2 * spread + 1), np.uint8)).ravel()
    cand = np.nonzero((s >= least) & (s >= big))[0]
    keep: list[int] = []
    for k in cand:
        if not keep or k - keep[-1] > spread:
            keep.append(int(k))
    return np.array(keep, int)


def ruling_positions(on: np.ndarray, centres: np.ndarray, cell: float) -> list[tuple[float, float]]:
    """(position at the middle strip, slope) of each of the page's rulings: straight lines that cross most strips,
    and, at the pitch those keep, the fainter ones a fill hides in part.

    Each line has its own slope: a grid ruled by hand is not square to the page, and straightening the photo by
    that grid fans the page's rulings out a little.
    """
    n = on.shape[0]
    sup = support_all(on, centres, SLOPES)  # (slopes, positions)
    best = sup.max(axis=0)
    arg = sup.argmax(axis=0)
    spread = max(3, int(PITCH_MIN * cell * 0.6))
    pos = local_maxima(best, RULING_SHARE * n, spread)
    lines = {int(b): float(SLOPES[arg[b]]) for b in pos}
    if len(pos) >= 3:
        gaps = np.diff(pos).astype(float)
        pitch = float(np.median(gaps))
        if PITCH_MIN * cell <= pitch <= PITCH_MAX * cell:
            m = on.shape[1]
            wanted = []
            for b0, b1 in zip(pos[:-1], pos[1:], strict=True):
                k = int(round((b1 - b0) / pitch))
                if k >= 2 and abs((b1 - b0) / k - pitch) <= 0.15 * pitch:
                    wanted += [(b0 + (b1 - b0) * q / k, lines[b0] + (lines[b1] - lines[b0]) * q / k)
                               for q in range(1, k)]
            for b_end, step in ((pos[0], -pitch), (pos[-1], pitch)):
                e = b_end + step
                while 0 <= e < m:
                    wanted.append((e, lines[int(b_end)]))
                    e += step
            for e, sl in wanted:
                lo, hi = max(0, int(e) - 3), min(m, int(e) + 4)
                near = np.abs(SLOPES - sl) <= 0.012
                if lo >= hi or not near.any():
                    continue
                blk = sup[near, lo:hi]
                i, k = np.unravel_index(int(np.argmax(blk)), blk.shape)
                if blk[i, k] >= HIDDEN_SHARE * n:
                    lines.setdefault(lo + int(k), float(SLOPES[near][i]))
    return sorted((float(b), sl) for b, sl in lines.items())


def trace_ruling(prof: np.ndarray, centres: np.ndarray, slope: float, b: float) -> tuple[np.ndarray, np.ndarray]:
    """The ruling through position b (middle strip) at `slope`, followed strip by strip: the peak of each strip's
    profile within 2 px of the straight prediction, or the prediction where the strip shows none."""
    pred = b + slope * (centres - centres.mean())
    out = pred.copy()
    m = prof.shape[1]
    for j, y in enumerate(pred):
        lo, hi = int(np.floor(y)) - 2, int(np.ceil(y)) + 3
        if lo < 1 or hi > m - 1:
            continue
        seg = prof[j, lo:hi]
        k = int(np.argmax(seg))
        if seg[k] > 0:
            out[j] = lo + k
    return centres, out


def grid_pieces(found: list[list[tuple[float, float]]], centres: np.ndarray, edges: np.ndarray,
                across: np.ndarray, cell: float) -> list[PaperLine]:
    """Pieces of the grid's own lines: the strips' peaks (`found`) near a fitted grid line, linked from strip to
    strip into a line drawn along the cells' edge rather than a stroke inside one cell — over PIECE_STRIPS
    strips (a cell and a third) where it keeps within EDGE_BAND of the fitted line, over LONG_PIECE strips (two
    cells) within EDGE_BAND_WIDE (a hand-ruled grid's lines wander further from the cells' fitted corners)."""
    def dev(j: int, p: float) -> float:
        return float(np.abs(across[j] - p).min())

    near = []
    for j, pk in enumerate(found):  # each strip's peaks' distances to the grid lines in one array step (same numbers)
        d = np.abs(np.asarray(across[j], float)[None, :] - np.array([p for p, _ in pk], float)[:, None]).min(
            axis=1, initial=np.inf)
        near.append([ph for ph, dj in zip(pk, d.tolist(), strict=True) if dj <= EDGE_BAND_WIDE * cell])
    out = []
    for ch in chains(near, centres, max_gap=1):
        js = np.array([j for j, _, _ in ch])
        span = js[-1] - js[0] + 1
        if span < PIECE_STRIPS:
            continue
        if span < LONG_PIECE and float(np.median([dev(j, p) for j, p, _ in ch])) > EDGE_BAND * cell:
            continue
        t = centres[js]
        pos = np.array([p for _, p, _ in ch])
        out.append(PaperLine(t, pos, (float(edges[js[0]]), float(edges[js[-1] + 1])), "grid"))
    return out


def find_lines(dark: np.ndarray, edges: np.ndarray, cross_edges: np.ndarray) -> tuple[list[PaperLine], np.ndarray]:
    """Grid pieces and rulings running along the rows of `dark` (an ink map of the grid's region), and the ridge
    response they were found in.

    `edges` (12) are the cells' boundaries along the rows (the strips are cut from them); `cross_edges`
    (11, 12) the fitted grid lines across them in each column of cells.
    """
    cell = float(np.median(np.diff(edges)))
    fine = sub_edges(edges)
    resp = ridge(dark, 0)
    prof = strip_profiles(resp, fine)
    centres = (fine[:-1] + fine[1:]) / 2
    across = np.repeat(np.asarray(cross_edges, float), SUB, axis=0)
    found = [peaks(prof[j]) for j in range(len(centres))]
    pieces = grid_pieces(found, centres, fine, across, cell)
    # Rulings: where each strip has a peak (a pixel either side), searched for straight lines across the strips.
    # The grid's own lines may be found again as rulings when they are straight: divided out once, they are gone
    # the second time.
    on = np.zeros(prof.shape, bool)
    for j, pk in enumerate(found):
        for p, _ in pk:
            k = int(round(p))
            on[j, max(0, k - 1) : k + 2] = True
    rulings = []
    x0, x1 = float(edges[0]), float(edges[-1])
    for b, slope in ruling_positions(on, centres, cell):
        t, y = trace_ruling(prof, centres, slope, b)
        coef = np.polyfit(t, y, 2)
        fit = np.polyval(coef, t)
        ok = np.abs(fit - y) <= STRAIGHT_TOL
        if ok.sum() >= 5:
            coef = np.polyfit(t[ok], y[ok], 2)
        rulings.append(PaperLine(t, np.polyval(coef, t), (x0, x1), "ruling", coef))
    return pieces + rulings, resp


def centreline(line: PaperLine, sm: np.ndarray, x: np.ndarray, reach: int = 2) -> np.ndarray:
    """The line's row (int) at each column `x`: its fitted course, moved onto the ridge's own crest within `reach`
    px (a hand-drawn line trembles between its points). `sm` is the ridge response averaged over a few columns,
    so a symbol's stroke crossing the line does not pull it."""
    yc = np.round(line.at(x.astype(np.float64))).astype(int)
    n = sm.shape[0]
    best = np.full(len(x), -1.0)
    out = yc.copy()
    for d in range(-reach, reach + 1):
        y = np.clip(yc + d, 0, n - 1)
        v = sm[y, x] - 0.02 * abs(d)  # ties go to the fitted course
        better = v > best
        out[better], best[better] = y[better], v[better]
    return out


def median_last(a: np.ndarray) -> np.ndarray:
    """`np.median(a, axis=-1)` of a float array without NaNs, by one partition of a contiguous copy
    (`vision.features.median_along`)."""
    return median_along(np.ascontiguousarray(a), -1)


def block_median(q: np.ndarray, block: int) -> np.ndarray:
    """A running median along axis 1 of (offsets, n, channels), cheaply: the median of each block of `block`
    columns, interpolated linearly between the blocks' middles (held beyond the first and last)."""
    n = q.shape[1]
    nb = max(1, int(round(n / block)))
    edges = np.linspace(0, n, nb + 1).round().astype(int)
    q = np.asarray(q, np.result_type(q.dtype, np.float32))
    meds = np.empty((q.shape[0], nb, *q.shape[2:]), q.dtype)
    lengths = np.diff(edges)
    qt = np.moveaxis(q, 1, -1)  # (offsets, …, n): the blocks' columns last
    for length in np.unique(lengths):  # blocks of one length at once (the same medians as block by block)
        ks = np.nonzero(lengths == length)[0]
        cols = edges[ks][:, None] + np.arange(length)[None, :]  # (blocks, length)
        meds[:, ks] = np.moveaxis(median_last(qt[..., cols]), -1, 1)  # (offsets, …, blocks) → (offsets, blocks, …)
    if nb == 1:
        return np.repeat(meds, n, axis=1)
    mids = (edges[:-1] + edges[1:] - 1) / 2
    x = np.arange(n)
    i = np.clip(np.searchsorted(mids, x) - 1, 0, nb - 2)
    f = np.clip((x - mids[i]) / (mids[i + 1] - mids[i]), 0, 1)[None, :, None]
    return meds[:, i] * (1 - f) + meds[:, i + 1] * f


def divide_out(img: np.ndarray, lines: list[PaperLine], resp: np.ndarray, reach: int = MAX_HALF,
               window: int = SMOOTH_ALONG) -> np.ndarray:
    """`img` (H×W×C, paper ≈ 1) with each line (along the rows) divided out.

    Ink layers multiply: a pencil stroke crossing a ruling is stroke × ruling. So the ruling's own transmission
    at each offset across it — the image there over the image at its flanks, as a running median along the line
    (a symbol the line crosses is an outlier) — is divided out: paper under the line becomes paper again, a
    stroke across it keeps its darkness, and a fill the line runs through stays a fill.
    """
    out = img.copy()
    h = img.shape[0]
    offs = np.arange(-reach, reach + 1)
    sm = cv2.blur(resp, (5, 1))
    for ln in lines:
        x = np.arange(max(0, int(np.floor(ln.t_range[0]))), min(img.shape[1], int(np.ceil(ln.t_range[1]))))
        if len(x) < 3:
            continue
        yc = centreline(ln, sm, x)
        ok = (yc - reach - 1 >= 0) & (yc + reach + 1 < h)
        x, yc = x[ok], yc[ok]
        if len(x) < 3:
            continue
        v = out[yc[None, :] + offs[:, None], x[None, :]]  # (offsets, columns, channels)
        flank = np.maximum((v[0] + v[1]) / 2, (v[-2] + v[-1]) / 2)  # = the medians of two (exactly)
        q = v / np.maximum(flank[None], 1e-3)
        trans = np.clip(block_median(q, window), MIN_TRANSMISSION, 1.0)
        fixed = np.minimum(v / trans, np.maximum(v, flank[None]))
        out[yc[None, :] + offs[:, None], x[None, :]] = fixed
    return out


@dataclass(frozen=True)
class Cleaned:
    """The sheet with its paper lines taken out, and what was found (lines along rows, along columns)."""

    image: np.ndarray
    rows: list[PaperLine]  # lines running along the rows (horizontal), positions in region pixels
    cols: list[PaperLine]  # lines running along the columns (vertical)
    region: tuple[slice, slice]

    @property
    def changed(self) -> bool:
        return bool(self.rows or self.cols)


def cell_edges(start: float, cell: float, centres: np.ndarray) -> np.ndarray:
    """The 12 boundaries of 11 cells along one axis from their measured centres (midway between neighbours)."""
    mids = (centres[:-1] + centres[1:]) / 2
    return np.concatenate([[centres[0] - cell / 2], mids, [centres[-1] + cell / 2]])


def remove_paper_lines(norm: np.ndarray, grid_box: tuple[float, float, float, float],
                       offsets: np.ndarray | None = None) -> Cleaned:
    """`norm` (float BGR, paper ≈ 1) with the rulings and grid lines inside `grid_box` (x0, y0, x1, y1) erased.

    `offsets` (11×11×2, the cells' measured shifts) place the strips and the grid lines as photographed.
    """
    x0, y0, x1, y1 = grid_box
    cell = (x1 - x0) / GRID_SIZE
    off = np.zeros((GRID_SIZE, GRID_SIZE, 2)) if offsets is None else np.asarray(offsets, float)
    pad = PAD_CELLS * cell
    h, w = norm.shape[:2]
    ry0, ry1 = int(max(0, np.floor(y0 - pad))), int(min(h, np.ceil(y1 + pad)))
    rx0, rx1 = int(max(0, np.floor(x0 - pad))), int(min(w, np.ceil(x1 + pad)))
    region = (slice(ry0, ry1), slice(rx0, rx1))
    part = norm[region]
    dark = np.clip(1.0 - part.min(axis=2), 0, 1).astype(np.float32)
    k = np.arange(GRID_SIZE) + 0.5
    cx = x0 + cell * k[None, :] + off[..., 0] - rx0  # (rows, cols) cell centres in region pixels
    cy = y0 + cell * k[:, None] + off[..., 1] - ry0
    col_edges = cell_edges(x0 - rx0, cell, cx.mean(axis=0))
    row_edges = cell_edges(y0 - ry0, cell, cy.mean(axis=1))
    rows_across = np.stack([cell_edges(0, cell, cy[:, c]) for c in range(GRID_SIZE)])  # per column of cells
    cols_across = np.stack([cell_edges(0, cell, cx[r]) for r in range(GRID_SIZE)])  # per row of cells
    rows, resp_r = find_lines(dark, col_edges, rows_across)
    cols, resp_c = find_lines(dark.T, row_edges, cols_across)
    if not rows and not cols:
        return Cleaned(norm, rows, cols, region)
    cleaned = divide_out(np.ascontiguousarray(part), rows, resp_r)
    cleaned = divide_out(np.ascontiguousarray(cleaned.swapaxes(0, 1)), cols, resp_c).swapaxes(0, 1)
    out = norm.copy()
    out[region] = cleaned
    return Cleaned(out, rows, cols, region)
