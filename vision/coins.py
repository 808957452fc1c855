"""Stage 6: count the filled coin-track circles (positions from the layout)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from companion.cartographers.data import COIN_TRACK_LENGTH as COIN_TRACK_SIZE
from vision.geometry import Canon

FILLED_COVERAGE = 0.3  # share of the inner disc that must carry ink
INK_T = 0.25
MARK_GAP = 0.08  # luminance darkness step between printed and marked coins on a sheet that is not ours
MARK_SHARE = 0.25  # ... and the share of the way from the unmarked level to the darkest circle a mark must reach
# A faint mark (a thin pencil cross or tick, a graphite fill in hard light) covers the inner disc with ink too weak
# for INK_T: each circle's share of pixels over FAINT_INK_T, split at the widest gap between the sheet's circles,
# tells it from the unmarked ones when the gap is at least FAINT_GAP and FAINT_SPREAD times the spread of the
# circles below it (unmarked circles alike, the marks clearly apart). On development photos of our sheet (seeds
# 1000.., 20 sheets read by their markers) this read 8 pencil crosses and 6 graphite fills counted as none.
FAINT_INK_T = 0.10
FAINT_GAP = 0.08
FAINT_SPREAD = 2.0
OURS_ORDER_GAP = 2 * FAINT_GAP  # on our sheet, how much more ink (strong + faint share) the first run must hold
# A circle whose surroundings (1.3-1.8 radii) are inked over is hidden, not marked: a cup or a hand over the track
# (a circle beyond the photo is hidden too, `in_frame`). On the same photos 3 sheets had circles so covered, each
# read without a doubt: 6 coins for 1 (a cup), 9 for 4, 3 for 0; on the other sheets read by their markers every
# circle's surroundings stayed at 0.12 or under.
HIDDEN_SURROUND = 0.35


@dataclass(frozen=True)
class CoinReading:
    count: int
    filled: tuple[bool, ...]
    confidence: float  # lowest per-circle certainty


@dataclass(frozen=True)
class CircleInk:
    """What one coin circle holds: `cover` the share of its inner disc (60 % of the radius, inside the printed
    ring) inked over INK_T, `faint` over FAINT_INK_T, `surround` the mean ink just outside it (1.3-1.8 radii);
    `hidden` when the circle is not all in the image or its surroundings are inked over."""

    cover: float
    faint: float
    surround: float
    hidden: bool


def disc_and_ring(img: np.ndarray, cx: float, cy: float, r: float, outer: float
                  ) -> tuple[np.ndarray, np.ndarray] | None:
    """The pixels of `img` in a circle's inner disc (60 % of its radius `r`, inside the printed ring) and in the
    ring of paper around it (1.3 radii to `outer` px), or None when the circle's window lies off the image. What
    both coin readings measure: ink in the disc against its surroundings (`circle_ink`), or how much darker the
    disc is than them (`coin_darkness`)."""
    h, w = img.shape[:2]
    xa, xb = max(0, int(cx - outer)), min(w, int(cx + outer) + 1)
    ya, yb = max(0, int(cy - outer)), min(h, int(cy + outer) + 1)
    if xa >= xb or ya >= yb:
        return None
    yy, xx = np.mgrid[ya:yb, xa:xb]
    rr = np.hypot(xx - cx, yy - cy)
    patch = img[ya:yb, xa:xb]
    return patch[rr <= 0.6 * r], patch[(rr >= 1.3 * r) & (rr <= outer)]


def circle_ink(ink: np.ndarray, cx: float, cy: float, r: float) -> CircleInk:
    """The `CircleInk` of the circle of radius `r` centred at (cx, cy) in the `ink` image (canonical pixels)."""
    h, w = ink.shape[:2]
    if cx - r < 0 or cy - r < 0 or cx + r >= w or cy + r >= h:
        return CircleInk(0.0, 0.0, 1.0, True)
    inner, ring = disc_and_ring(ink, cx, cy, r, 1.8 * r)
    if not inner.size:
        return CircleInk(0.0, 0.0, 1.0, True)
    surround = float(ring.mean()) if ring.size else 0.0
    return CircleInk(float((inner > INK_T).mean()), float((inner > FAINT_INK_T).mean()), surround,
                     surround >= HIDDEN_SURROUND)


def faint_split(faint: np.ndarray) -> float | None:
    """The threshold between marked and unmarked circles (`faint` or `cover` shares of the visible circles), or
    None when they do not fall in two clearly apart groups (all alike: none marked, or all)."""
    v = np.sort(np.asarray(faint, dtype=np.float64))
    if len(v) < 2:
        return None
    gaps = np.diff(v)
    j = int(np.argmax(gaps))
    if gaps[j] < FAINT_GAP or gaps[j] < FAINT_SPREAD * (v[j] - v[0]):
        return None
    return float((v[j] + v[j + 1]) / 2)


def light_marks(cover: np.ndarray, seen: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Circles marked by a stroke that crosses the inner disc without covering it (a slash, a tick), apart from
    the bare ones: (marked, certainty) or None.

    Why: players strike a coin through rather than fill it, and one stroke covers only 0.2–0.3 of the inner disc
    (photogen3 development sheets: slashes at 0.23 and 0.25 beside bare circles at 0.00 were read as 0 coins, one
    surely). Such circles stand apart from the bare ones as clearly as fills do, so the visible circles' strong-ink
    shares are split in two groups by `faint_split`; the split only adds marks under `FILLED_COVERAGE` (a fill is
    a mark whatever the split says), and a mark is sure by how far it lies past the split.
    """
    if not seen.any():
        return None
    thr = faint_split(cover[seen])
    if thr is None or thr >= FILLED_COVERAGE:
        return None
    return cover > thr, np.minimum(1.0, np.abs(cover - thr) / FAINT_GAP)


def coins_of(circles: list[CircleInk]) -> CoinReading:
    """Which circles are marked: ink over most of the inner disc, a stroke through it (`light_marks`) or a faint
    mark clearly apart from the unmarked circles (`faint_split`), held to the fill order of the rules
    (`in_fill_order` on the circles' strong and faint ink shares together). A hidden circle counts as unmarked
    with no certainty, so the reading asks for the coins to be checked."""
    cover = np.array([c.cover for c in circles])
    faint = np.array([c.faint for c in circles])
    hidden = np.array([c.hidden for c in circles], dtype=bool)
    filled = cover >= FILLED_COVERAGE
    certainty = np.minimum(1.0, np.abs(cover - FILLED_COVERAGE) / 0.2)
    split = light_marks(cover, ~hidden)
    if split is not None:  # strokes through the disc as clearly apart from bare circles as fills are
        filled |= split[0]
        certainty = np.where(cover < FILLED_COVERAGE, split[1], np.maximum(certainty, split[1]))
    thr = faint_split(faint[~hidden]) if (~hidden).any() else None
    if thr is not None:
        faint_only = (faint > thr) & ~filled
        filled |= faint_only
        certainty = np.where(faint_only, np.minimum(1.0, (faint - thr) / FAINT_GAP), certainty)
    filled &= ~hidden
    certainty = np.where(hidden, 0.0, certainty)
    marks, sure = tuple(bool(f) for f in filled), float(certainty.min()) if len(certainty) else 1.0
    if len(circles) and not hidden.any():  # "fill the next coin": marks out of order were misread
        marks, sure = in_fill_order(cover + faint, marks, sure, OURS_ORDER_GAP)
    return CoinReading(sum(marks), marks, sure)


def in_frame(frame, cx: float, cy: float, r: float) -> bool:
    """Is the circle (canonical pixels) inside the photo? `frame` = (canonical → photo 3×3 matrix, photo (w, h));
    None: taken as inside. The straightened sheet repeats the photo's edge beyond it, which can look like paper."""
    if frame is None:
        return True
    M, (w, h) = frame
    pts = np.array([[cx - r, cy], [cx + r, cy], [cx, cy - r], [cx, cy + r]], np.float64)
    q = np.c_[pts, np.ones(4)] @ np.asarray(M, np.float64).T
    if np.any(q[:, 2] <= 0):
        return False
    x, y = q[:, 0] / q[:, 2], q[:, 1] / q[:, 2]
    return bool(np.all((x >= 0) & (x < w) & (y >= 0) & (y < h)))


def read_coins(ink: np.ndarray, canon: Canon, shift=None, frame=None) -> CoinReading:
    """Which of the 14 circles are marked (`coins_of`), at the circles our layout places; a circle out of the photo
    (`frame`, see `in_frame`) is hidden.

    `ink` is `vision.classify.ink_strength` of the light-normalised canonical image. The inner disc (60 % of the
    radius) avoids the printed double ring; a cross, a dot, a scribble or a solid fill all cover it enough.
    """
    circles = []
    for coin in canon.layout.coins:
        r = canon.px(coin.d_pt / 2)
        cx, cy = canon.px(coin.x_pt) + r, canon.px(coin.y_pt) + r
        if shift is not None:  # follow the measured bend of the paper (vision.gridfit)
            dx, dy = shift(cx, cy)
            cx, cy = cx + dx, cy + dy
        seen = circle_ink(ink, cx, cy, r)
        circles.append(seen if in_frame(frame, cx, cy, r) else replace(seen, hidden=True))
    return coins_of(circles)


COIN_BAND = (0.15, 4.6)  # cells below the grid where a coin track is searched on sheets that are not ours
MIN_TRACK = 9  # circles of one row needed to take it for the 14-circle coin track


@dataclass(frozen=True)
class CoinTrack:
    """Where the 14 coin circles are in the canonical image: centres (14×2 px) and radius (px)."""

    centres: np.ndarray
    radius: float


def find_coin_track(gray: np.ndarray, canon: Canon, colour: np.ndarray | None = None) -> CoinTrack | None:
    """The row of 14 evenly spaced circles below the grid (the game's pad, generic prints), or None.

    Circles are found by the Hough transform in the band below the grid, grouped into rows of similar
    height and size; the row with the most circles, at least `MIN_TRACK`, is fitted with a straight line of
    evenly spaced centres (pitch from the median gap), and extended to 14 from its first circle: centred in
    the printed bar the circles sit on when the sheet (`colour`, the straightened sheet, light-normalised BGR)
    has one (`bar_first`), else where every position shows a ring.
    """
    import cv2

    x0, y0, x1, y1 = canon.grid_box()
    cell = canon.cell_px
    top, bottom = int(y1 + COIN_BAND[0] * cell), int(min(gray.shape[0], y1 + COIN_BAND[1] * cell))
    left, right = max(0, int(x0 - 0.5 * cell)), min(gray.shape[1], int(x1 + 0.5 * cell))
    if bottom - top < cell or right - left < 4 * cell:
        return None
    band = cv2.GaussianBlur(gray[top:bottom, left:right], (0, 0), 1.0)
    best: np.ndarray | None = None
    # A blurred photo (hand shake, focus) leaves the rings weak: a second, more permissive vote when the
    # first finds no row; the row of at least `MIN_TRACK` alike circles guards against stray ones.
    for votes in (14, 10):
        circles = cv2.HoughCircles(band, cv2.HOUGH_GRADIENT, dp=1, minDist=0.45 * cell, param1=80, param2=votes,
                                   minRadius=int(0.15 * cell), maxRadius=int(0.42 * cell))
        if circles is None:
            continue
        c = circles[0]
        for cy in c[:, 1]:
            row = c[np.abs(c[:, 1] - cy) < 0.15 * cell]
            row = row[np.abs(row[:, 2] - np.median(row[:, 2])) < 0.25 * np.median(row[:, 2])]
            if best is None or len(row) > len(best):
                best = row
        if best is not None and len(best) >= MIN_TRACK:
            break
    if best is None or len(best) < MIN_TRACK:
        return None
    best = best[np.argsort(best[:, 0])]
    gaps = np.diff(best[:, 0])
    pitch = float(np.median(gaps))
    if pitch < 0.4 * cell:
        return None
    idx = np.round((best[:, 0] - best[0, 0]) / pitch).astype(int)
    if idx.max() >= COIN_TRACK_SIZE:
        return None
    A = np.c_[idx, np.ones_like(idx)]
    (px, ax), (py, ay) = (np.linalg.lstsq(A, best[:, k], rcond=None)[0] for k in (0, 1))
    # The row may miss circles at either end (a filled coin loses its ring to the Hough transform, a big
    # scribble covers one): of the placements of the 14 that hold the found ones, the one whose every
    # position shows a ring (the printed circles end where the track ends) wins; ties go to the middle.
    r_med = float(np.median(best[:, 2]))
    firsts = list(range(-(COIN_TRACK_SIZE - 1 - int(idx.max())), 1))
    middle = -int((COIN_TRACK_SIZE - 1 - idx.max()) // 2)
    grad = ring_edges(band)

    def placed(f: int) -> float:
        kk = np.arange(f, f + COIN_TRACK_SIZE)
        return ring_score(grad, np.c_[ax + px * kk, ay + py * kk], r_med) - 1e-3 * abs(f - middle)

    first = None
    if colour is not None:
        lab = cv2.cvtColor(np.clip(colour[top:bottom, left:right], 0, 1).astype(np.float32), cv2.COLOR_BGR2LAB)
        first = bar_first(lab, (ax, px, ay, py), firsts, int(idx.max()), cell)
    if first is None:
        first = max(firsts, key=placed)
    k = np.arange(first, first + COIN_TRACK_SIZE)
    centres = np.c_[ax + px * k + left, ay + py * k + top]
    return CoinTrack(centres, float(np.median(best[:, 2])))


BAR_HALF = 0.3  # cells above and below the track's line whose colour is the bar (the pad's: ±0.33–0.39)
BAR_PAPER = (0.65, 0.85)  # cells above the line sampled for the paper (its median passes over the column numbers)
BAR_STEP = 0.05  # samples along the line, in pitches
BAR_GAP = 0.15  # a stretch of paper-like colour at most this long (cells) inside the bar is a mark or a glint
BAR_MIN_COLOUR = 6.0  # Lab units between the found circles' stretch and the paper: less, and there is no bar
BAR_MARGINS = (0.3, 2.0)  # cells of bar past both end circles together, on a bar the circles are centred on


def bar_ends(lab: np.ndarray, line: tuple[float, float, float, float], span: tuple[int, int], reach: int,
             cell: float) -> tuple[float, float] | None:
    """Where the bar under a row of circles starts and ends, in track positions (circle k sits at k), or None.

    `line` is (ax, px, ay, py): circle k at (ax + px·k, ay + py·k) in `lab`'s pixels; the circles found lie at
    positions `span` (first, last), the bar is searched `reach` positions beyond them. Each sample is the median
    colour of a short upright stretch across the line; paper is the median colour above the bar. From the found
    circles (in the bar) the bar runs on while the samples are further from paper than half the found stretch's
    typical distance, across gaps of at most `BAR_GAP` (a mark, a glint). A gap of paper ends it: the pad's coin
    icon left of its bar, a generic print's plain row of circles (rings on paper between them) has no bar."""
    ax, px, ay, py = line
    h, w = lab.shape[:2]
    ks = np.arange(span[0] - reach, span[1] + reach + BAR_STEP / 2, BAR_STEP)
    xs = np.clip(np.round(ax + px * ks).astype(int), 0, w - 1)
    yc = ay + py * ks
    half = max(1, int(round(BAR_HALF * cell)))
    rows = np.clip(np.round(yc).astype(int)[:, None] + np.arange(-half, half + 1), 0, h - 1)
    col = np.median(lab[rows, xs[:, None]], axis=1)  # (samples, 3)
    up = np.clip(np.round(yc.mean() - np.array(BAR_PAPER[::-1]) * cell).astype(int), 0, h - 1)
    paper = np.median(lab[up[0]:max(up[1], up[0] + 1), xs.min():xs.max() + 1].reshape(-1, 3), axis=0)
    dist = np.linalg.norm(col - paper, axis=1)
    inside = (ks >= span[0]) & (ks <= span[1])
    typical = float(np.median(dist[inside]))
    if typical < BAR_MIN_COLOUR:
        return None
    bar = dist > 0.5 * typical
    gap = max(1, int(round(BAR_GAP * cell / (np.hypot(px, py) * BAR_STEP))))

    def run(i: int, step: int) -> int:
        last, paper_run = i, 0
        while 0 <= i + step < len(ks):
            i += step
            paper_run = 0 if bar[i] else paper_run + 1
            if paper_run > gap:
                break
            if bar[i]:
                last = i
        return last

    lo, hi = int(np.argmax(inside)), len(ks) - 1 - int(np.argmax(inside[::-1]))
    if not bar[lo:hi + 1].mean() > 0.8:  # rings on paper, not circles on a bar
        return None
    return float(ks[run(lo, -1)]), float(ks[run(hi, 1)])


def bar_first(lab: np.ndarray, line: tuple[float, float, float, float], firsts: list[int], last_found: int,
              cell: float) -> int | None:
    """The placement of the 14 (its first position, of `firsts`) centred in the bar the found circles (positions
    0 … `last_found`) sit on, or None when there is no such bar or it cannot hold 14 circles with margins
    `BAR_MARGINS`. The game's pad prints its coins on a bar that runs about half a cell past both end coins,
    with its coin icon just left of it: ring edges alone let the 14 slip a position onto the bar's end or the
    icon; a bar's two margins tell it within a fraction of a pitch."""
    ends = bar_ends(lab, line, (0, last_found), COIN_TRACK_SIZE - 1 - last_found, cell)
    if ends is None:
        return None
    lo, hi = ends
    pitch = float(np.hypot(line[1], line[3])) / cell
    margins = (hi - lo - (COIN_TRACK_SIZE - 1)) * pitch
    if not BAR_MARGINS[0] <= margins <= BAR_MARGINS[1]:
        return None
    return min(firsts, key=lambda f: abs((f - lo) - (hi - f - (COIN_TRACK_SIZE - 1))))


def ring_edges(gray: np.ndarray) -> np.ndarray:
    """Gradient magnitude of a gray band (float): where circles' rings show."""
    import cv2

    g = gray.astype(np.float32)
    return cv2.magnitude(cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3))


def track_edges(gray: np.ndarray) -> np.ndarray:
    """`ring_edges` of the whole straightened sheet, lightly smoothed: where a track's printed rings are looked for
    (`pad_coin_track`, `snapped`)."""
    import cv2

    return ring_edges(cv2.GaussianBlur(gray, (0, 0), 1.0))


def ring_score(grad: np.ndarray, centres: np.ndarray, radius: float) -> float:
    """Mean over `centres` of the edge strength on a circle of `radius` (24 samples, the best of ±15 % radius)
    less that on a circle of twice the radius: a printed ring, marked or not, is an edge all round; the paper
    past the track's end is not."""
    h, w = grad.shape
    a = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    cos, sin = np.cos(a), np.sin(a)

    def on(c: np.ndarray, r: float) -> np.ndarray:
        x = np.clip(np.round(c[:, None, 0] + r * cos), 0, w - 1).astype(int)
        y = np.clip(np.round(c[:, None, 1] + r * sin), 0, h - 1).astype(int)
        return grad[y, x].mean(axis=1)

    ring = np.max([on(centres, f * radius) for f in (0.85, 1.0, 1.15)], axis=0)
    inside = (centres[:, 0] >= 0) & (centres[:, 0] < w)
    return float(np.where(inside, ring - on(centres, 2.0 * radius), 0.0).mean())


def ring_scores(grad: np.ndarray, centres: np.ndarray, radius: float) -> np.ndarray:
    """`ring_score` of many placements at once: `centres` (placements × circles × 2) → one score each.

    The same arithmetic, element for element, as `ring_score` on each placement (each circle's 24 samples and
    each placement's circles are reduced along their own contiguous last axis): bit-identical, one gather."""
    h, w = grad.shape
    a = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    cos, sin = np.cos(a), np.sin(a)

    def on(c: np.ndarray, r: float) -> np.ndarray:
        x = np.clip(np.round(c[..., None, 0] + r * cos), 0, w - 1).astype(int)
        y = np.clip(np.round(c[..., None, 1] + r * sin), 0, h - 1).astype(int)
        return grad[y, x].mean(axis=-1)

    ring = np.max([on(centres, f * radius) for f in (0.85, 1.0, 1.15)], axis=0)
    inside = (centres[..., 0] >= 0) & (centres[..., 0] < w)
    return np.where(inside, ring - on(centres, 2.0 * radius), 0.0).mean(axis=-1)


PAD_TRACK = (0.71, 1.42, 0.22)  # the game's pad: coin pitch, centre row below the grid, radius (cells)


def pad_coin_track(gray: np.ndarray, canon: Canon, grad: np.ndarray | None = None) -> CoinTrack | None:
    """The game's own pad's track where the circles are too blurred for the Hough vote: 14 rings `PAD_TRACK`
    apart in a row about 1.4 cells below the grid (measured on scans of the real pad: 0.71 cell pitch, 1.38–1.42
    cells down, 0.22 cell radius), its start along the row searched by the rings' edges. None when no
    placement shows rings clearly (then the sheet has no such track). `grad`: `track_edges(gray)` when the caller
    has it already."""
    x0, _, x1, y1 = canon.grid_box()
    cell = canon.cell_px
    pitch, down, rad = (v * cell for v in PAD_TRACK)
    if grad is None:
        grad = track_edges(gray)
    k = np.arange(COIN_TRACK_SIZE)
    # every placement (rows below the grid × starts along it, row-major as the search used to run), one batch
    rows, starts = np.meshgrid(np.arange(-0.2, 0.21, 0.05) * cell, np.arange(0.3, 2.0, 0.04) * cell, indexing="ij")
    xs = (x0 + starts.ravel())[:, None] + pitch * k
    ys = np.broadcast_to((y1 + down + rows.ravel())[:, None], xs.shape)
    placements = np.stack([xs, ys], axis=-1)
    scores = ring_scores(grad, placements, rad)
    i = int(np.argmax(scores))  # the first best, as the strict `>` of a loop kept it
    if not scores[i] > 0.0:
        return None
    sc, c = float(scores[i]), placements[i]
    # A placement half a pitch off (between the circles) as the contrast: rings there mean the row is real.
    off = ring_score(grad, c + [0.5 * pitch, 0.0], rad)
    if sc < 1.5 * max(off, 1e-6):
        return None
    return CoinTrack(c, rad)


SNAP_REACH = 0.4  # radii a circle's centre may move onto its ring (`snapped`)
SNAP_ROUNDS = 2


def snapped(grad: np.ndarray, track: CoinTrack) -> CoinTrack:
    """The track with its 14 centres moved onto their printed rings: each circle to the offset (within
    `SNAP_REACH` radii) where its ring's edge is strongest, then the row refitted as a straight line of evenly
    spaced centres through them, twice. The 14 are placed from a fit to the circles found, whose pitch may be
    off by a few hundredths: extrapolated to the track's far end that puts a circle's inner disc on its ring or
    the bar beside it, and a marked coin reads as bare. `grad` is `track_edges` of the sheet."""
    reach = max(1, int(round(SNAP_REACH * track.radius)))
    d = np.arange(-reach, reach + 1, dtype=np.float64)
    offs = np.stack(np.meshgrid(d, d, indexing="ij"), axis=-1).reshape(-1, 2)  # (m, 2)
    k = np.arange(len(track.centres), dtype=np.float64)
    A = np.c_[k, np.ones_like(k)]
    c = track.centres.astype(np.float64)
    for _ in range(SNAP_ROUNDS):
        cand = c[:, None, :] + offs[None, :, :]  # (14, m, 2)
        sc = ring_scores(grad, cand.reshape(-1, 1, 2), track.radius).reshape(len(c), len(offs))
        best = cand[np.arange(len(c)), np.argmax(sc, axis=1)]
        fit = [np.linalg.lstsq(A, best[:, j], rcond=None)[0] for j in (0, 1)]
        c = np.c_[A @ fit[0], A @ fit[1]]
    return CoinTrack(c, track.radius)


def read_coin_track(norm: np.ndarray, canon: Canon, fallback_ink: np.ndarray, shift=None, frame=None) -> CoinReading:
    """Coins on a sheet that is not ours: find its track, then tell marked circles from the printed ones.

    The pad prints a gold coin in every circle, so "ink in the circle" says nothing; a marked coin is one
    clearly darker than the others (luminance of the inner disc, split in two groups at the widest gap).
    When no track is found, the layout's positions are read as on our sheet. A circle beyond the photo (`frame`, as
    for `read_coins`) leaves the count unsure.
    """
    import cv2

    gray = cv2.cvtColor(np.clip(norm * 255, 0, 255).astype(np.uint8), cv2.COLOR_BGR2GRAY)
    grad = track_edges(gray)  # the pad's fallback search and the snap look at the same edges
    track = find_coin_track(gray, canon, norm) or pad_coin_track(gray, canon, grad)
    if track is None:
        return read_coins(fallback_ink, canon, shift, frame)
    lum = gray.astype(np.float32) / 255

    def marks(t: CoinTrack) -> tuple[tuple[bool, ...], float]:
        d = np.array([coin_darkness(lum, cx, cy, t.radius) for cx, cy in t.centres])
        return in_fill_order(d, *marked_coins(d))

    # Read both where the circles were placed and where they sit on their rings (a mark that covers a ring can
    # pull a circle off it): the surer reading counts, and a count the two placements do not agree on is unsure,
    # it depends on where exactly the circles lie.
    as_fitted = marks(track)
    on_rings = snapped(grad, track)
    on_marks = marks(on_rings)
    (filled, _), track = max((as_fitted, track), (on_marks, on_rings), key=lambda m: m[0][1])
    certainty = min(as_fitted[1], on_marks[1]) if sum(as_fitted[0]) == sum(on_marks[0]) else 0.0
    seen = [in_frame(frame, cx, cy, track.radius) for cx, cy in track.centres]
    if not all(seen):  # rings "found" past the photo's edge, on the straightened sheet's repeated edge: unknown
        filled = tuple(f and v for f, v in zip(filled, seen, strict=True))
        certainty = 0.0
    return CoinReading(sum(filled), filled, certainty)


def coin_darkness(lum: np.ndarray, cx: float, cy: float, radius: float) -> float:
    """How much darker a circle's inner disc (60 % of the radius) is than the paper just around its ring
    (1.3–1.7 radii): the light falling across the track (a shadow, a lamp's gradient) cancels out."""
    parts = disc_and_ring(lum, cx, cy, radius, 1.7 * radius)
    if parts is None or not parts[0].size:
        return 0.0
    inner, ring = parts
    around = float(ring.mean()) if ring.size else 1.0
    return around - float(inner.mean())


BARE_PAPER = 0.01  # a circle whose inner disc is within this of the paper around its ring holds nothing
BARE_MIN = 4  # circles at paper level that make a track of empty rings (the pad's hold a printed coin)
RING_MARK = 0.025  # how much darker than the empty rings a mark must be on such a track


def bare_rings(dark: np.ndarray) -> tuple[tuple[bool, ...], float] | None:
    """The marks on a track of empty printed rings (ours found without its markers, a generic print), or None
    when the track is not one (or shows no clear line between empty and marked rings).

    Why: `marked_coins` is made for the pad, whose every circle holds a printed coin that reads 0.04–0.09 darker
    than the paper and drifts along the track, so a mark must be `MARK_GAP` darker. Inside an empty ring the paper
    is the paper: a light pencil tick reads 0.03–0.05 beside rings at 0.00 ± 0.003 (development photos: 5 ticks
    and 3 ticks read as 0 and 1, surely). When `BARE_MIN` or more circles sit at paper level and are the lightest,
    a circle `RING_MARK` darker than the darkest of them (or twice their spread past it) is a mark, sure by how far
    from that line the nearest circle lies — when the marks are the track's first circles, as the rules fill them.
    """
    d = np.asarray(dark, dtype=np.float64)
    paper = d[np.abs(d) <= BARE_PAPER]
    if len(paper) < BARE_MIN or d.min() < paper.min():
        return None
    thr = float(paper.max()) + max(RING_MARK, 2.0 * float(paper.max() - paper.min()))
    marked = d > thr
    filled = tuple(bool(f) for f in marked)
    if not marked.any() or (d[~marked] > paper.max()).any() or not is_run(filled):
        return None  # nothing marked, circles between the paper and the marks, or marks out of the fill order
    return filled, float(min(1.0, np.min(np.abs(d - thr)) / RING_MARK))


def marked_coins(dark: np.ndarray) -> tuple[tuple[bool, ...], float]:
    """Which circles are marked, from each one's `coin_darkness`, and the certainty of the least sure one.

    Every circle of the pad holds the same printed coin, so the unmarked ones are the lightest, alike; a
    mark (a fill, a cross, a scribble) makes a circle clearly darker than them — by however much: a pencil
    fill and a heavy marker fill differ, and splitting at the widest gap between values would take the
    lighter marks for unmarked. The unmarked level is the second lightest circle — one circle lighter than
    the rest by no more than their own spread is noise (glare, the end of the printed bar), not the only
    unmarked coin — or the lightest when it stands clearly apart from a tight group (13 of 14 marked alike)
    that is itself at least `MARK_GAP` darker than the paper around it: a group no darker than the paper is
    not 13 marks but 13 bare rings beside one circle made lighter by glare (on development photos such tracks
    were read as 13 coins, surely, on 6 sheets with 0-6). A circle is marked when it is `MARK_GAP` darker than
    that level and a quarter of the way from it to the darkest circle: the printed coins' own readings drift
    along the track (light, a bent page) by about as much as a faint mark.
    """
    d = np.asarray(dark, dtype=np.float64)
    bare = bare_rings(d)
    if bare is not None:
        return bare
    order = np.sort(d)
    rest = order[1:] if len(order) > 1 else order
    alone = (len(order) > 1 and order[1] - order[0] >= max(MARK_GAP, 2.0 * float(rest[-1] - rest[0]))
             and rest[0] >= MARK_GAP)
    base = float(order[0] if alone or len(order) < 2 else order[1])
    if order[-1] - base < MARK_GAP:  # all alike: unmarked (or, rarely, every coin marked the same way)
        return (False,) * len(d), 0.5 if order[-1] > 0.35 else 1.0
    thr = max(base + MARK_GAP, base + MARK_SHARE * float(order[-1] - base))
    filled = tuple(bool(v > thr) for v in d)
    spread = max(order[-1] - order[0], 1e-6)
    certainty = float(min(1.0, np.min(np.abs(d - thr)) / (0.25 * spread)))
    return filled, certainty


ORDER_GAP = 0.5 * MARK_GAP  # how much darker than every later circle the lightest of the first ones must be
ORDER_BARE = 2  # circles a run must leave bare for the order to say where it ends


def is_run(filled) -> bool:
    """Are the marks the track's first circles and no others, as the rules fill them ("fill the next coin")?"""
    k = sum(filled)
    return tuple(filled) == (True,) * k + (False,) * (len(filled) - k)


def in_fill_order(dark: np.ndarray, filled: tuple[bool, ...], certainty: float,
                  gap: float = ORDER_GAP) -> tuple[tuple[bool, ...], float]:
    """The marks read by `marked_coins`, held to the rule that coins are filled in order along the track.

    Why: the rules say "fill the next coin", so a finished track is its first k circles marked and the rest
    bare. Marks that are not such a run were misread: a light fill taken for bare beside heavy ones (photogen2
    development pad e_0060: nine coins, the three light fills among them left out, 6 read sure), or the light
    falling along the track taken for marks (photogen3 e_0067: no coin, 11 read sure). The run whose every
    circle is darker than every later one by `ORDER_GAP` is taken, sure by how clearly (a gap of two
    `MARK_GAP`s is sure); when there is none, the marks stand and the count is unsure, for the player to check.
    `gap` is that least margin in the units of `dark` (the pad's darkness; on our sheet the circles' ink shares,
    `OURS_ORDER_GAP`); a run is sure from four times it.
    A run must leave `ORDER_BARE` circles bare: one last circle lighter than all the others is as often glare,
    the bar's end or a track placed a circle past its end (photogen2 e_0083: no coin, the last "circle" the
    paper beyond the bar) as the one coin not yet filled, which `marked_coins` alone tells apart.
    """
    d = np.asarray(dark, dtype=np.float64)
    if is_run(filled):
        return tuple(filled), certainty
    runs = {j: float(d[:j].min() - d[j:].max()) for j in range(1, len(d) - ORDER_BARE + 1)}
    j = max(runs, key=runs.get, default=0)  # the first of equal gaps, as argmax would
    if not j or runs[j] < gap:
        return tuple(filled), 0.0
    return (True,) * j + (False,) * (len(d) - j), float(min(1.0, runs[j] / (4.0 * gap)))
