"""Stage 2e: which way up, from the paper a home-made grid is drawn on (rulings, margin line, page outline).

Why: players without the game's pad rule a grid by hand on notebook paper, trace it on squared paper or print a
generic one. Nothing printed in the cells says which way up such a sheet lies (side A's mountains and ruins are even
symmetric under a half turn), but the paper does, and it does so the same way on every real notebook and page:

* notebook rulings run along the lines of writing, i.e. horizontally on an upright page (squared paper has lines
  both ways and says nothing, which is right);
* the margin line of a notebook page is a single long line at the LEFT of the writing;
* a page is portrait, and players draw the grid near its top, leaving the paper below for the scores.

Each cue looks at a straightened frame around the grid (lattice order) that a caller has turned to one candidate
way up (`np.rot90`), and says how much that frame looks upright; `turn_scores` gives the four turns at once.
Every cue is 0 when its evidence is missing (no rulings, no margin line, a page cut by the photo's edge), so it
never pushes a sheet that does not carry it.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.cartographers.data import GRID_SIZE
from vision.lattice import second_difference

PAGE_CELL = 8  # pixels per cell of the wide page frame
PAGE_PAD = 12  # cells around the grid in the page frame (an A4 page around our grid reaches 7 cells below)
GRID_BAND = 0.45  # cells around the grid left out of the line cues (the grid's own lines and their overshoot)
SQUARED_SHARE = 0.15  # periodic share of both line directions above which the paper is squared
# Squared paper's own test (`square_pitch`): both directions periodic at one pitch of SQUARE_PITCH cells (a grid
# traced over 2–4 squares a cell), each with at least this coherence (`_detail_period`), pitches within PITCH_MATCH.
SQUARE_PITCH = (0.22, 0.6)
SQUARE_SHARE, PITCH_MATCH = 0.2, 0.08
SQUARE_RMS = 0.001  # ... and with some line in it at all (blank paper's profile is flat: its shares are noise)
SQUARE_BAND = 1.0  # cells around the grid left out of that test: a hand-drawn grid's lines overshoot its outline
# Leans of a notebook's margin line in the grid's frame that `margin_line_cue` tries (px across per px along):
# a grid ruled by hand up to about 3 degrees off the page's lines.
MARGIN_SLANTS = np.linspace(-0.05, 0.05, 15)
MARGIN_CANDIDATES = 3  # lines per margin checked for the rulings carrying on across them
OUTSIDE = -1.0  # value of page-frame pixels outside the photo


@dataclass(frozen=True)
class PaperCues:
    """The paper's evidence for each of the four turns k (np.rot90 of the lattice frame), each in about -1..1."""

    rulings: np.ndarray  # (4,) +: rulings run horizontally after turn k
    margin: np.ndarray  # (4,) +: a long single line at the left after turn k, none at the right
    page: np.ndarray  # (4,) +: the page is portrait and the grid near its top after turn k
    squared: bool = False  # the paper carries evenly spaced lines both ways all round the grid (squared paper)
    extents: Extents | None = None  # how far the page goes on from each edge of the grid, unturned (k = 0)

    def total(self, w_rulings: float, w_margin: float, w_page: float) -> np.ndarray:
        return w_rulings * self.rulings + w_margin * self.margin + w_page * self.page


def _line_response(dark: np.ndarray, along: int, width: int, length: int) -> np.ndarray:
    """Thin-line response (ridge of darkness) for lines running along `along` (1 = horizontal, 0 = vertical).

    The second difference across the line, floored at 0, then averaged along it over `length` px: a long
    straight line keeps its response, a letter's short stroke or a dot loses it.
    """
    d = dark.astype(np.float32)
    across = 0 if along == 1 else 1  # horizontal lines: the difference runs across rows
    r = np.maximum(second_difference(d, width, across), 0.0)
    return cv2.blur(r, (length, 1) if along == 1 else (1, length))


def outside_grid(shape: tuple[int, int], cell: int, pad: int, band: float = GRID_BAND) -> np.ndarray:
    """True away from the grid (and `band` cells around it) in a square frame of `pad` cells around the grid."""
    keep = np.ones(shape, bool)
    g0, g1 = int((pad - band) * cell), int((pad + GRID_SIZE + band) * cell)
    keep[max(0, g0) : g1, max(0, g0) : g1] = False
    return keep


def _periodic_share(profile: np.ndarray, cell: int, lo: float = 0.3, hi: float = 1.1) -> float:
    """Share of a profile's detail power in its strongest period of `lo`..`hi` cells (ruled lines), 0..1."""
    p = profile - profile.mean()
    if p.size < 4 * cell or float((p**2).sum()) < 1e-12:
        return 0.0
    spec = np.abs(np.fft.rfft(p * np.hanning(p.size))) ** 2
    freqs = np.arange(spec.size) * cell / p.size  # cycles per cell
    sel = (freqs >= 1 / hi) & (freqs <= 1 / lo)
    total = float(spec[1:].sum())
    if not sel.any() or total <= 0:
        return 0.0
    i = int(np.argmax(np.where(sel, spec, 0.0)))
    return float(spec[max(1, i - 1) : i + 2].sum() / total)


def _profile(resp: np.ndarray, keep: np.ndarray, axis: int) -> np.ndarray:
    """Mean response over the paper along `axis` (1: one value per row), 0 where too little paper."""
    n = keep.sum(axis=axis)
    s = (resp * keep).sum(axis=axis)
    return np.where(n > 0.1 * keep.shape[axis], s / np.maximum(n, 1), 0.0)


def rulings_cue(dark: np.ndarray, keep: np.ndarray, cell: int) -> float:
    """-1..1: how much more the paper carries evenly spaced long lines horizontally than vertically here.

    Notebook rulings run horizontally on an upright page, evenly spaced (a period of 0.3–1.1 grid cells);
    squared paper (lines both ways), plain paper and print give about 0. The periodicity, not the mere amount
    of line, is measured, so that handwriting, frames and boxes do not count.
    """
    if not keep.any():
        return 0.0
    return _rulings_of_shares(*line_shares(dark, keep, cell))


def _rulings_of_shares(ph: float, pv: float) -> float:
    if min(ph, pv) > SQUARED_SHARE:  # lines both ways: squared paper, which has no way up
        return 0.0
    return float(np.clip((ph - pv) / 0.3, -1.0, 1.0))


def line_shares(dark: np.ndarray, keep: np.ndarray, cell: int) -> tuple[float, float]:
    """The periodic share of the paper's horizontal and of its vertical long lines (`_periodic_share`)."""
    if not keep.any():
        return 0.0, 0.0
    w = max(1, cell // 16)
    length = max(3, cell)
    ph = _periodic_share(_profile(_line_response(dark, 1, w, length), keep, 1), cell)
    pv = _periodic_share(_profile(_line_response(dark, 0, w, length), keep, 0), cell)
    return ph, pv


def is_squared(dark: np.ndarray, keep: np.ndarray, cell: int, shares: tuple[float, float] | None = None,
               pitch_keep: np.ndarray | None = None) -> bool:
    """Squared paper: evenly spaced long lines both ways in the paper around the grid.

    On such paper every margin is a periodic row, so a periodic row below or left of the grid (a coin track, row
    labels: `vision.orient.margin_cue`) says nothing about the way up there. `shares`: `line_shares` when the
    caller has them; `pitch_keep`: the paper `square_pitch` reads, if narrower than `keep`.
    """
    shares = line_shares(dark, keep, cell) if shares is None else shares
    return min(shares) > SQUARED_SHARE or square_pitch(dark, keep if pitch_keep is None else pitch_keep, cell)


def _detail_period(profile: np.ndarray, valid: np.ndarray, cell: int, lo: float = SQUARE_PITCH[0],
                   hi: float = SQUARE_PITCH[1]) -> tuple[float, float, float]:
    """(coherence, period in cells, rms) of a line profile's strongest period of `lo`..`hi` cells, over the
    paper only.

    The profile is 0 where there is no paper (the grid's own rows, the table, the photo's edge), and the paper
    may show for a cell or two only: an FFT of the whole profile counts the gaps' steps as detail and spreads a
    short stretch's peak over many bins. Here each valid stretch is taken relative to its own moving mean (1.5
    cells; a few very strong rows, the page's edge, clipped first), and its Fourier sum at each candidate
    period is taken over the valid rows alone: coherence 2|R|² / (n Σ r²) is about 1 for a pure wave, 2/n
    for noise, and for evenly spaced thin lines the share of their detail at their pitch. rms: of that detail,
    in the line response's own units.
    """
    valid = np.asarray(valid, bool)
    n = int(valid.sum())
    if n < 2 * cell:
        return 0.0, 0.0, 0.0
    p = np.minimum(profile.astype(np.float64), 3.0 * float(np.percentile(profile[valid], 90)) + 1e-9)
    v = valid.astype(np.float64)

    def mean_over_valid(kernel: np.ndarray) -> np.ndarray:
        return np.convolve(p * v, kernel, "same") / np.maximum(np.convolve(v, kernel, "same"), 1e-9)

    width = int(1.5 * cell) | 1
    local = mean_over_valid(np.ones(width) / width)
    # a sharp line is a pixel wide in the profile: a little blur puts its power at its pitch, not its harmonics
    t = np.arange(-int(0.15 * cell), int(0.15 * cell) + 1)
    p = mean_over_valid(np.exp(-0.5 * (t / max(0.05 * cell, 0.5)) ** 2))
    x = np.flatnonzero(valid).astype(np.float64)
    r = (p - local)[valid]
    power = float((r**2).sum())
    rms = float(np.sqrt(power / n))
    if power <= 0:
        return 0.0, 0.0, rms
    freqs = np.arange(1 / hi, 1 / lo + 1e-9, 0.02)  # cycles per cell
    R = np.exp(-2j * np.pi * np.outer(freqs / cell, x)) @ r
    coh = 2 * np.abs(R) ** 2 / (n * power)
    i = int(np.argmax(coh))
    if i == 0 or i == len(freqs) - 1:  # a band edge: the tail of a longer or shorter period
        return 0.0, 0.0, rms
    return float(coh[i]), float(1.0 / freqs[i]), rms


def square_pitch(dark: np.ndarray, keep: np.ndarray, cell: int) -> bool:
    """Squared paper told by its squares: lines both ways, at one and the same pitch.

    Squared paper is square: its two line directions share one pitch, and the grid a player traces over it
    spans a whole number of squares (2–5 a cell). A notebook's rulings have no lines across them at their pitch,
    and the few vertical lines a notebook page has (its margin line, a hand-drawn grid's overshoot) are no row of
    them. Unlike `line_shares`, only the paper's own stretches of the profile count, so a page whose paper shows
    on one side of the grid only, or that is cut by the photo, is still recognised.
    """
    if not keep.any():
        return False
    w = max(1, cell // 16)
    out = []
    for along, axis in ((1, 1), (0, 0)):
        n = keep.sum(axis=axis)
        resp = _line_response(dark, along, w, max(3, cell))
        valid = n >= cell  # a row (column) with a cell's length of paper or more
        prof = np.where(valid, (resp * keep).sum(axis=axis) / np.maximum(n, 1), 0.0)
        out.append(_detail_period(prof, valid, cell))
    (sh, ph, rh), (sv, pv, rv) = out
    if min(sh, sv) <= SQUARE_SHARE or min(rh, rv) <= SQUARE_RMS:
        return False
    # one pitch both ways; thin lines carry as much at twice their frequency, so either may show its harmonic
    ratio = max(ph, pv) / min(ph, pv)
    return min(abs(ratio - 1.0), abs(ratio - 2.0)) <= PITCH_MATCH * ratio


def _single_line_strength(profile: np.ndarray, cell: int) -> float:
    """How much the strongest column of a profile stands out of every other one at least half a cell away.

    One margin line on blank paper stands out; the many lines of squared paper or of rulings turned upright
    do not (their second-best column is as strong as their best), nor does blank paper.
    """
    if profile.size < cell:
        return 0.0
    i = int(np.argmax(profile))
    rest = profile.copy()
    rest[max(0, i - cell // 2) : i + cell // 2 + 1] = 0.0
    return float(max(profile[i] - max(float(rest.max()), float(np.median(profile))), 0.0))


def nanmedian_columns(a: np.ndarray) -> np.ndarray:
    """`np.nanmedian(a, axis=0)`, bit for bit (NaN for a column of NaN), from one sort of the whole array.

    Why: numpy takes the median of each column of a tall array in a Python loop (`apply_along_axis`); the
    margin-line cue asks it for every column of four page frames, a quarter of a second of an unmarked read.
    `np.sort` puts NaN last, so the middle of each column's `n` numbers is at (n − 1) // 2 and n // 2.
    """
    s = np.sort(a, axis=0)
    n = np.count_nonzero(~np.isnan(a), axis=0)
    lo, hi = np.maximum((n - 1) // 2, 0)[None], (n // 2)[None]
    with np.errstate(invalid="ignore"):
        med = (np.take_along_axis(s, lo, 0)[0] + np.take_along_axis(s, hi, 0)[0]) / 2
    return np.where(n > 0, med, np.nan).astype(a.dtype)


def ridge_response(dark: np.ndarray, width: int, axis: int) -> np.ndarray:
    """Darkness above BOTH flanks `width` px away across the line (along `axis`), floored at 0: a thin line.

    Unlike the second difference, a step gives nothing: the page's own edge against a darker table (paper on one
    side only) is no line drawn on the page, a notebook's margin line is.
    """
    d = dark.astype(np.float32)
    a = np.moveaxis(d, axis, 0)
    out = np.zeros_like(d)
    o = np.moveaxis(out, axis, 0)
    if a.shape[0] > 2 * width:
        mid = a[width:-width]
        o[width:-width] = np.maximum(np.minimum(mid - a[: -2 * width], mid - a[2 * width:]), 0.0)
    return out


def sheared_columns(r: np.ndarray, slant: float, step: int, lo: int = 0, hi: int | None = None) -> np.ndarray:
    """Columns `lo`..`hi` of every `step`-th row of `r`, each row shifted by `slant` px per px of height (about the
    middle row), so that a line leaning by `slant` stands in one column; pixels shifted in from past the edges are
    NaN."""
    h, w = r.shape
    hi = w if hi is None else hi
    ys = np.arange(0, h, step)
    shift = np.rint(slant * (ys - h / 2)).astype(int)
    cols = np.arange(lo, hi)[None, :] + shift[:, None]
    ok = (cols >= 0) & (cols < w)
    return np.where(ok, r[ys[:, None], np.clip(cols, 0, w - 1)], np.nan)


def _row_means(a: np.ndarray) -> np.ndarray:
    """Mean of each row over its numbers (NaN for a row of NaN), without numpy's warning for empty rows."""
    n = np.count_nonzero(~np.isnan(a), axis=1)
    return np.where(n > 0, np.nan_to_num(a).sum(axis=1) / np.maximum(n, 1), np.nan)


def rulings_continue(rows_resp: np.ndarray, col: int, side: int, cell: int) -> float:
    """0..1: how alike the rulings are on both sides of a line at column `col` (sheared `rows_resp`, the
    horizontal-line response): the correlation of the two strips' row profiles, floored at 0.

    A notebook's rulings run across its margin line to the page's edge; beyond the page's edge (a table, a
    cloth) they stop. `side` is -1 for a line in the left margin (the strip beyond it is further left), +1 right.
    """
    gap, width = max(2, cell // 8), max(4, cell // 2)
    inner = (col + gap, col + gap + width) if side < 0 else (col - gap - width, col - gap)
    outer = (col - gap - width, col - gap) if side < 0 else (col + gap, col + gap + width)
    if min(inner[0], outer[0]) < 0 or max(inner[1], outer[1]) > rows_resp.shape[1]:
        return 0.0
    a, b = (_row_means(rows_resp[:, lo:hi]) for lo, hi in (inner, outer))
    ok = ~(np.isnan(a) | np.isnan(b))
    if ok.sum() < 8:
        return 0.0
    a, b = a[ok] - a[ok].mean(), b[ok] - b[ok].mean()
    den = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return float(max((a * b).sum() / den, 0.0)) if den > 1e-12 else 0.0


def margin_line_cue(dark: np.ndarray, keep: np.ndarray, cell: int, pad: int) -> float:
    """-1..1: a long single vertical line in the left margin of this frame and none in the right one.

    A notebook's margin line runs the page's full height left of the writing; the column profile (median
    vertical-line response over the frame's height, paper only) shows it as one outstanding column. A grid ruled
    by hand is seldom square to the page, so the line may lean in the grid's frame: the profile is taken along
    each of a few slants (`MARGIN_SLANTS`) and the best one counts, on each side apart. The page's own edge
    (often a thin shadow) is a long line too; what tells the margin line from it is that the rulings carry on
    across it (`rulings_continue`).
    """
    w = max(1, cell // 16)
    g0, g1 = int((pad - GRID_BAND) * cell), int((pad + GRID_SIZE + GRID_BAND) * cell)
    step = max(1, cell // 6)
    best = []
    for side, (lo, hi) in ((-1, (0, g0)), (1, (g1, dark.shape[1]))):
        # the margin's columns only (and w more, for the flanks); widened by a few px across (a maximum, which keeps
        # its strength), so that a line leaning between two of the slants tried keeps one column
        a, b = max(0, lo - w), min(dark.shape[1], hi + w)
        wide = cv2.dilate(ridge_response(dark[:, a:b], w, 1), np.ones((1, 2 * w + 1), np.uint8))
        r = np.where(keep[:, a:b], cv2.blur(wide, (1, max(3, cell // 2))), np.nan)
        lines = []  # (strength, slant, column) of each slant's strongest line
        for slant in MARGIN_SLANTS:
            part = sheared_columns(r, float(slant), step, lo - a, hi - a)
            rows = np.count_nonzero(~np.isnan(part), axis=0)
            # the median along the column: a line that runs the whole height keeps it, a column of coin circles,
            # a score box's side or a word does not
            with np.errstate(all="ignore"):
                prof = np.nan_to_num(np.where(rows > 0.5 * part.shape[0], nanmedian_columns(part), 0.0))
            lines.append((_single_line_strength(prof, cell), float(slant), lo + int(np.argmax(prof))))
        # the strongest few lines, a cell apart (the margin line and the page's edge), each checked for rulings
        lines.sort(reverse=True)
        seen: list[int] = []
        value = 0.0
        for strength, slant, col in lines:
            if strength <= value or len(seen) >= MARGIN_CANDIDATES:
                break
            if any(abs(col - c) < cell for c in seen):
                continue
            seen.append(col)
            c0, c1 = max(0, col - 2 * cell), min(dark.shape[1], col + 2 * cell)
            rr = np.where(keep[:, c0:c1], cv2.blur(ridge_response(dark[:, c0:c1], w, 0), (max(3, cell // 4), 1)),
                          np.nan)
            value = max(value, strength * rulings_continue(sheared_columns(rr, slant, 2), col - c0, side, cell))
        best.append(value)
    left, right = best
    if left + right < 1e-4:
        return 0.0
    # a line as dark as a faint ruling over the page's height (0.04) counts fully, a trace of one not at all
    return (left - right) / (left + right) * float(np.clip((max(left, right) - 0.015) / 0.025, 0.0, 1.0))


def page_frame(image: np.ndarray, H: np.ndarray, cell: int = PAGE_CELL, pad: int = PAGE_PAD) -> np.ndarray:
    """The grid and `pad` cells around it, straightened (lattice order), grey 0..255 float, `OUTSIDE` off the photo."""
    T = np.array([[1 / cell, 0, -pad], [0, 1 / cell, -pad], [0, 0, 1]])
    size = (GRID_SIZE + 2 * pad) * cell
    g = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    g = g.astype(np.float32)
    out = cv2.warpPerspective(g, H @ T, (size, size), flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=OUTSIDE * 1000)
    out[out < 0] = OUTSIDE
    return out


@dataclass(frozen=True)
class Extents:
    """Paper beyond the grid's edges, in cells: above, below, left, right; `cut` = ended by the photo's edge."""

    above: float
    below: float
    left: float
    right: float
    cut: tuple[bool, bool, bool, bool]


def paper_extents(frame: np.ndarray, cell: int = PAGE_CELL, pad: int = PAGE_PAD) -> Extents:
    """How far the paper goes on from each edge of the grid (median over the grid's width), in a page frame.

    Paper is what is as bright as the grid's own paper (blurred, so rulings do not break it, and closed, so
    writing and boxes do not); the run from the grid's edge outwards stops at the first pixel that is not,
    or at the photo's edge.
    """
    inside = frame >= 0
    g = cv2.GaussianBlur(np.where(inside, frame, 0).astype(np.float32), (0, 0), cell / 3)
    wts = cv2.GaussianBlur(inside.astype(np.float32), (0, 0), cell / 3)
    g = g / np.maximum(wts, 1e-3)
    g0, g1 = pad * cell, (pad + GRID_SIZE) * cell
    level = float(np.percentile(g[g0:g1, g0:g1], 80))
    paper = (g > 0.82 * level) & inside
    # writing, coin circles and score boxes on the page are gaps of a cell or two, not its edge
    k = int(1.6 * cell) | 1
    paper = cv2.morphologyEx(paper.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((k, k), np.uint8)).astype(bool)
    paper &= inside
    mid = slice(g0 + cell, g1 - cell)

    def run(strip: np.ndarray, ok: np.ndarray) -> tuple[float, bool]:
        """strip: (n, len) paper flags from the grid edge outwards; median run length and whether cut."""
        lens, cuts = [], []
        for row, okrow in zip(strip, ok, strict=True):
            stop = np.flatnonzero(~row)
            n = int(stop[0]) if stop.size else row.size
            lens.append(n)
            cuts.append(n < row.size and not okrow[n])
        return float(np.median(lens)) / cell, bool(np.mean(cuts) > 0.5)

    a, b = g0 - cell // 2, g1 + cell // 2  # from half a cell out: the grid's own outer line is no page edge
    above = run(paper[:a, mid][::-1].T, inside[:a, mid][::-1].T)
    below = run(paper[b:, mid].T, inside[b:, mid].T)
    left = run(paper[mid, :a][:, ::-1], inside[mid, :a][:, ::-1])
    right = run(paper[mid, b:], inside[mid, b:])
    half = 0.5
    return Extents(above[0] + half, below[0] + half, left[0] + half, right[0] + half,
                   (above[1], below[1], left[1], right[1]))


def page_cue(e: Extents) -> float:
    """-1..1: the page is portrait with the grid near its top (more paper below than above) in this frame.

    A side cut by the photo's edge is only a lower bound: it may show that there is MORE paper on it, never less.
    """
    cut_a, cut_b, cut_l, cut_r = e.cut
    s = 0.0
    if e.above < e.below and not cut_a:  # less paper above, and that is the page's real edge
        s += min(1.0, (e.below - e.above) / 3.0)
    elif e.below < e.above and not cut_b:
        s -= min(1.0, (e.above - e.below) / 3.0)
    vert, horiz = e.above + e.below, e.left + e.right
    if horiz < vert and not (cut_l or cut_r):  # narrower than tall, and the narrow sides are real edges
        s += min(1.0, (vert - horiz) / 4.0)
    elif vert < horiz and not (cut_a or cut_b):
        s -= min(1.0, (horiz - vert) / 4.0)
    return 0.5 * s


def turn_scores(dark_text: np.ndarray, keep_text: np.ndarray, text_cell: int, text_pad: int,
                page: np.ndarray | None, page_cell: int = PAGE_CELL, page_pad: int = PAGE_PAD) -> PaperCues:
    """The three paper cues for the lattice frame turned by k = 0..3 (np.rot90).

    `dark_text` / `keep_text`: darkness and the paper outside the grid in the text frame (`vision.upright`);
    `page`: the wide page frame (`page_frame`), or None.
    """
    keep = keep_text & outside_grid(dark_text.shape, text_cell, text_pad)
    shares = line_shares(dark_text, keep, text_cell)
    squared = is_squared(dark_text, keep, text_cell, shares,
                         keep & outside_grid(dark_text.shape, text_cell, text_pad, SQUARE_BAND))
    r0 = 0.0 if squared else _rulings_of_shares(*shares)
    rulings = np.array([r0, -r0, r0, -r0])
    # a margin line belongs to ruled notebook paper: it counts where the rulings say this frame is upright
    # (looked for only there: elsewhere its weight is 0, and a zero cue adds to the total as the product did)
    weights = [float(np.clip(rulings[k] / 0.3, 0.0, 1.0)) for k in range(4)]
    margin = np.array([0.0 if wk == 0.0 else
                       margin_line_cue(np.rot90(dark_text, k), np.rot90(keep, k), text_cell, text_pad) * wk
                       for k, wk in enumerate(weights)])
    if page is None:
        pg, extents = np.zeros(4), None
    else:
        ext = [paper_extents(np.rot90(page, k), page_cell, page_pad) for k in range(4)]
        pg, extents = np.array([page_cue(e) for e in ext]), ext[0]
    return PaperCues(rulings, margin, pg, squared, extents)
