"""Stage 2d: which way up, from the text printed or written around the grid (header, row letters, column numbers).

Why text: side A's printed mountains and ruins are symmetric under a half turn, and on generic prints, hand-ruled
and squared paper nothing is printed in the cells at all; but almost every sheet carries text around its grid — a
title, "Name:", row letters, column numbers, the score boxes' labels — and Latin letters and digits are seldom
symmetric under a quarter or a half turn. Each dark blob in the margins of the straightened grid frame is cut out
and shown to a small glyph model (`vision/data/glyphs.npz`, trained offline by `scripts/train_glyphs.py` on
characters rendered in many fonts, hands and blurs), which says how likely it is upright, or turned by one, two or
three quarter turns, or no glyph at all (boxes, circles, lines, scribbles). The blobs' votes add up to a log-odds
per turn; `orient.orient_lattice` weighs it with the printed features and asks the player when the sum is close.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from companion.cartographers.data import GRID_SIZE
from vision.features import hog_maps

MODEL_PATH = Path(__file__).with_name("data") / "glyphs.npz"
GLYPH_SIZE = 36  # the descriptor's square, pixels
TEXT_CELL = 48  # pixels per cell of the text frame
TEXT_PAD = 5  # cells of margin around the grid in the text frame
MIN_H, MAX_H = 0.16, 2.2  # glyph height range, in cells
MAX_GLYPHS = 160
MIN_SIDE_PX = 5  # a blob thinner than this (a word a few pixels high) shows no direction
VOTE_FLOOR = -2.5  # one glyph's log-probability is never below this: no single blob decides
GLYPH_DIM = 9 * (GLYPH_SIZE // 6) ** 2 + 64 + 2


@dataclass(frozen=True)
class TextVotes:
    """Summed, floored log-probabilities that the lattice is upright after k quarter turns (np.rot90), k = 0..3."""

    log_odds: np.ndarray  # (4,)
    glyphs: int  # blobs that looked like glyphs at all

    def lead(self, k: int, j: int) -> float:
        """How much more the text says k than j (log units)."""
        return float(self.log_odds[k] - self.log_odds[j])


def darkness(gray: np.ndarray) -> np.ndarray:
    """0..1 ink darkness against the local paper (a big blur of a closing stands for the paper)."""
    g = gray.astype(np.float32)
    k = max(3, int(min(g.shape) / 40) | 1)
    paper = cv2.morphologyEx(g, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    f = 4 if min(g.shape) >= 64 else 1  # the paper is smooth: blur it at a quarter of the size
    small = cv2.resize(paper, None, fx=1 / f, fy=1 / f, interpolation=cv2.INTER_AREA) if f > 1 else paper
    small = cv2.GaussianBlur(small, (0, 0), k / f)
    paper = cv2.resize(small, (g.shape[1], g.shape[0]), interpolation=cv2.INTER_LINEAR) if f > 1 else small
    return np.clip(1.0 - g / np.maximum(paper, 1.0), 0.0, 1.0)


def _square(crop: np.ndarray) -> np.ndarray:
    h, w = crop.shape
    side = max(h, w) + 2
    sq = np.zeros((side, side), np.float32)
    y0, x0 = (side - h) // 2, (side - w) // 2
    sq[y0 : y0 + h, x0 : x0 + w] = crop
    return cv2.GaussianBlur(cv2.resize(sq, (GLYPH_SIZE, GLYPH_SIZE), interpolation=cv2.INTER_AREA), (0, 0), 0.7)



def glyph_descriptor(crop: np.ndarray) -> np.ndarray:
    """HOG + coarse density of a glyph crop centred in a square (its aspect kept), plus its log aspect and fill."""
    return glyph_descriptors([crop])[0]


def glyph_descriptors(crops: list[np.ndarray]) -> np.ndarray:
    """`glyph_descriptor` of many crops at once (the HOG of all their squares in one pass)."""
    if not crops:
        return np.zeros((0, GLYPH_DIM), np.float32)
    sq = np.stack([_square(c) for c in crops])
    hg = hog_maps(sq)
    hg = hg / np.maximum(np.linalg.norm(hg, axis=1, keepdims=True), 1e-6)
    dens = np.stack([cv2.resize(a, (8, 8), interpolation=cv2.INTER_AREA).ravel() for a in sq])
    dens = dens / np.maximum(np.linalg.norm(dens, axis=1, keepdims=True), 1e-6)
    extra = np.array([[np.log(max(c.shape[0], 1) / max(c.shape[1], 1)), float((c > 0.3).mean())] for c in crops],
                     np.float32)
    return np.concatenate([hg, dens, extra], axis=1).astype(np.float32)


def ink_threshold(dark: np.ndarray, where: np.ndarray | None = None) -> float:
    """Darkness above which a pixel is ink: Otsu's split of the darkness (over `where`), never below 0.12."""
    d = (dark if where is None or not where.any() else dark[where]).reshape(-1, 1)
    return max(0.12, float(cv2.threshold((d * 255).astype(np.uint8), 0, 255, cv2.THRESH_OTSU)[0]) / 255 * 0.8)


def paper_mask(gray: np.ndarray, inside: tuple[int, int], cell: int) -> np.ndarray:
    """The sheet of paper around the grid: the bright region joined to the grid's own paper (text filled in).

    The table, a cloth or the wood around the sheet has blobs of every shape; only marks on the paper count.
    """
    g = cv2.GaussianBlur(gray, (0, 0), cell / 6)
    y0, y1 = inside
    level = float(np.percentile(g[y0:y1, y0:y1], 85))
    bright = (g > 0.8 * level).astype(np.uint8)
    bright = cv2.morphologyEx(bright, cv2.MORPH_CLOSE, np.ones((cell, cell), np.uint8))
    bright[y0:y1, y0:y1] = 1
    n, lab = cv2.connectedComponents(bright)
    mid = (y0 + y1) // 2
    mask = lab == lab[mid, mid]
    return cv2.erode(mask.astype(np.uint8), np.ones((cell // 3, cell // 3), np.uint8)) > 0


def frame_paper(frame: np.ndarray, cell: int = TEXT_CELL, pad: int = TEXT_PAD) -> np.ndarray:
    """`paper_mask` of a `text_frame` (grid of `cell` px with `pad` cells round it): the paper round its grid."""
    return paper_mask(frame, (pad * cell, (pad + GRID_SIZE) * cell), cell)


RULING_SPAN = 0.75  # cells: a stroke straight across or down the frame this long is a ruling, not a letter's
# Fewer glyphs than this on squared paper, its rulings taken out, are the rulings' strays (crossings where the ink
# wavers), no text: a word or a row of labels has more letters. A bare synthetic sheet kept 4 and the two
# development photos that motivated `without_rulings` 0 and 3; a title and labels keep 30 or more. Strays do point
# the right way by chance: on 104 squared development sheets this rule sent one from the ask to a sure wrong half
# turn (photogen3 seed 1705, whose cells were doubted anyway) and one from a sure right way up to the ask
# (photogen3 seed 1802), and changed nothing else.
MIN_SQUARED_GLYPHS = 8


def without_rulings(dark: np.ndarray, span: int) -> np.ndarray:
    """The darkness map less the straight lines running across or down it for `span` px or more (squared paper's
    rulings): each pixel keeps only what its darkness exceeds the darker of its row-wise and column-wise grey
    openings by a `span`-long segment.

    Why: where the ink threshold breaks squared paper's faint lines, each crossing is a blob of glyph size —
    crosses, Ts, Ls, the steps of a line a little aslant, smears of a shaken phone — and the glyph model takes
    them for letters. Their votes are no text, yet a slight asymmetry in them all (light, blur, perspective) adds
    up: on a squared sheet without a word on it, 83 such pieces voted 9.6 log units for the wrong half turn
    (photogen2 development seed 1602). Grey-level openings see a ruling whole where the threshold breaks it, and
    leave a letter, whose strokes are shorter than `span`.
    """
    lines = np.maximum(cv2.morphologyEx(dark, cv2.MORPH_OPEN, np.ones((1, span), np.uint8)),
                       cv2.morphologyEx(dark, cv2.MORPH_OPEN, np.ones((span, 1), np.uint8)))
    return np.clip(dark - lines, 0.0, 1.0)


def glyph_crops(dark: np.ndarray, min_h: float, max_h: float, keep: np.ndarray | None = None,
                limit: int = MAX_GLYPHS, t: float | None = None) -> list[np.ndarray]:
    """The dark blobs of a darkness map whose larger side is `min_h`..`max_h` px, each masked to itself.

    `keep` (bool, same shape) says where a blob may lie (its centre). Long thin strokes (lines, frames) and
    blobs that fill their box (filled squares) are no glyphs and are left out here already.
    """
    t = ink_threshold(dark, keep) if t is None else t
    on = (dark > t).astype(np.uint8)
    n, lab, stats, cents = cv2.connectedComponentsWithStats(on, connectivity=8)
    found: list[int] = []
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        big = max(w, h)
        if big < min_h or big > max_h or min(w, h) < 0.12 * big and big > 0.6 * max_h:
            continue
        if area < 6 or area > 0.85 * w * h or min(w, h) < MIN_SIDE_PX:
            continue
        cx, cy = cents[i]
        if keep is not None and not keep[int(cy), int(cx)]:
            continue
        found.append(i)
    pieces = line_pieces(stats[found, :4]) if found else np.zeros(0, bool)
    out: list[tuple[float, np.ndarray]] = []
    for i, piece in zip(found, pieces, strict=True):
        if piece:
            continue
        x, y, w, h, area = stats[i]
        crop = dark[y : y + h, x : x + w] * (lab[y : y + h, x : x + w] == i)
        out.append((float(area), crop.astype(np.float32)))
    out.sort(key=lambda t: -t[0])
    return [c for _, c in out[:limit]]


LINE_PIECES = 4  # like pieces in a row along their long axis that make a broken line, not text
PIECE_LIKE = 0.25  # relative difference in width and in height of two pieces of one broken line
PIECE_ELONGATION = 1.25  # a piece of a line is this much longer along the line than across it
PIECE_SLOPE = 0.06  # how far off the row's axis (per unit along it) the pieces of one line may lie (~3.5°)


def line_pieces(boxes: np.ndarray) -> np.ndarray:
    """Which blobs (x, y, w, h boxes, n × 4) are pieces of one broken straight line rather than glyphs.

    Why: a line crossed by others (a notebook's margin line crossed by the rulings, a faint line on a bent
    page) falls apart at the threshold into a row of equal dashes between the crossings, and each dash, a
    flat bar, looks to the glyph model like a letter lying one way: two dozen of them outvote everything
    else on the way up. Text is not like that: a word's letters differ in width and are seldom longer
    along the line than they are tall. A blob is a piece when it is elongated along a row (or a column)
    of at least `LINE_PIECES` others of its size and shape, their centres on its axis.
    """
    b = np.asarray(boxes, np.float64).reshape(-1, 4)
    n = len(b)
    out = np.zeros(n, bool)
    if n <= LINE_PIECES:
        return out
    x, y, w, h = b.T
    cx, cy = x + w / 2, y + h / 2
    like = ((np.abs(w[:, None] - w[None]) <= PIECE_LIKE * np.maximum(w[:, None], w[None]))
            & (np.abs(h[:, None] - h[None]) <= PIECE_LIKE * np.maximum(h[:, None], h[None])))
    flat = w >= PIECE_ELONGATION * h  # pieces of a row (a horizontal line)
    tall = h >= PIECE_ELONGATION * w  # pieces of a column
    # on its axis: within half its thickness, and a line a few degrees off the frame's axis (a bent page) too
    dx, dy = np.abs(cx[:, None] - cx[None]), np.abs(cy[:, None] - cy[None])
    row = like & flat[:, None] & flat[None] & (dy <= 0.5 * h[:, None] + PIECE_SLOPE * dx)
    col = like & tall[:, None] & tall[None] & (dx <= 0.5 * w[:, None] + PIECE_SLOPE * dy)
    np.fill_diagonal(row, False)
    np.fill_diagonal(col, False)
    out = (row.sum(axis=1) >= LINE_PIECES) | (col.sum(axis=1) >= LINE_PIECES)
    return out


@lru_cache(maxsize=1)
def _model(path: str = str(MODEL_PATH)) -> tuple[np.ndarray, ...] | None:
    p = Path(path)
    if not p.exists():
        return None
    with np.load(p, allow_pickle=False) as z:
        return tuple(z[k].astype(np.float32) for k in ("mean", "scale", "w0", "b0", "w1", "b1"))


def available() -> bool:
    return _model() is not None


def glyph_probabilities(descriptors: np.ndarray) -> np.ndarray | None:
    """(n, 5) probabilities: upright, one/two/three quarter turns (np.rot90 of the upright glyph), no glyph."""
    m = _model()
    if m is None or len(descriptors) == 0:
        return None
    mean, scale, w0, b0, w1, b1 = m  # one hidden layer of rectified units (scikit-learn's MLPClassifier)
    z = np.maximum(((descriptors - mean) / scale) @ w0 + b0, 0.0) @ w1 + b1
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    return p / p.sum(axis=1, keepdims=True)


def text_frame(image: np.ndarray, H: np.ndarray, cell: int = TEXT_CELL, pad: int = TEXT_PAD) -> np.ndarray:
    """The grid and `pad` cells around it, straightened in lattice order, grey, `cell` px per cell."""
    T = np.array([[1 / cell, 0, -pad], [0, 1 / cell, -pad], [0, 0, 1]])
    size = (GRID_SIZE + 2 * pad) * cell
    g = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    return cv2.warpPerspective(g, H @ T, (size, size), flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)


def votes_from_crops(crops: list[np.ndarray]) -> TextVotes:
    """Sum of the glyphs' floored log-probabilities for each of the four turns of the frame they were cut from.

    A crop c that the model calls "turned by j" (c = rot90(upright, j)) is upright after k = -j quarter turns.
    """
    if not crops:
        return TextVotes(np.zeros(4), 0)
    p = glyph_probabilities(glyph_descriptors(crops))
    if p is None:
        return TextVotes(np.zeros(4), 0)
    glyphness = 1.0 - p[:, 4]
    turn = p[:, :4] / np.maximum(p[:, :4].sum(axis=1, keepdims=True), 1e-9)
    logs = np.maximum(np.log(turn + 1e-9), VOTE_FLOOR) * glyphness[:, None]
    by_k = np.array([logs[:, (-k) % 4].sum() for k in range(4)])
    return TextVotes(by_k - by_k.max(), int((glyphness > 0.5).sum()))


def text_votes(frame: np.ndarray, cell: int = TEXT_CELL, pad: int = TEXT_PAD, dark: np.ndarray | None = None,
               paper: np.ndarray | None = None, squared: bool = False) -> TextVotes:
    """The text around a lattice, in its `text_frame`, voting on the lattice's four turns.

    `dark` / `paper`: the frame's `darkness` and `frame_paper` when the caller has them already (the paper cues
    of `vision.orient` read the same two maps of the same frame); left out, they are worked out here. `squared`:
    the paper is squared (`vision.pagecues`): its rulings are taken out first (`without_rulings`), and the few
    strays they leave cast no vote (`MIN_SQUARED_GLYPHS`).
    """
    dark = darkness(frame) if dark is None else dark
    if squared:
        dark = without_rulings(dark, round(RULING_SPAN * cell))
    g0, g1 = int((pad - 0.12) * cell), int((pad + GRID_SIZE + 0.12) * cell)
    keep = frame_paper(frame, cell, pad) if paper is None else paper.copy()
    keep[g0:g1, g0:g1] = False  # the cells and the grid lines: the player's drawing, not text
    edge = max(2, cell // 8)
    keep[:edge], keep[-edge:], keep[:, :edge], keep[:, -edge:] = False, False, False, False
    votes = votes_from_crops(glyph_crops(dark, MIN_H * cell, MAX_H * cell, keep))
    if squared and votes.glyphs < MIN_SQUARED_GLYPHS:
        return TextVotes(np.zeros(4), votes.glyphs)
    return votes


def peak_direction(patch: np.ndarray) -> float:
    """-1..1: how much a cell's structure widens downwards (a mountain's peak on top) rather than upwards.

    Gradient magnitude, not darkness, so that light peaks on a dark square (the game's pad) count as well as
    dark triangles on paper; the row-wise spread of the structure is correlated with the row.
    """
    p = cv2.GaussianBlur(patch.astype(np.float32), (0, 0), 1.0)
    gy, gx = np.gradient(p)
    mag = np.hypot(gx, gy)
    h, w = mag.shape
    m = max(1, int(0.14 * h))
    mag = mag[m : h - m, m : w - m]
    if mag.size == 0 or float(mag.max()) <= 1e-3:
        return 0.0
    mag = np.where(mag > np.percentile(mag, 70), mag, 0.0)
    xs = np.arange(mag.shape[1], dtype=np.float64)
    rows = mag.sum(axis=1)
    ok = rows > 1e-6 * max(float(rows.max()), 1e-9)
    if ok.sum() < 4:
        return 0.0
    mean_x = (mag @ xs)[ok] / rows[ok]
    spread = np.sqrt(np.maximum((mag @ xs**2)[ok] / rows[ok] - mean_x**2, 0.0))
    ys = np.arange(mag.shape[0], dtype=np.float64)[ok]
    wgt = rows[ok]
    yc, sc = ys - np.average(ys, weights=wgt), spread - np.average(spread, weights=wgt)
    den = np.sqrt(np.average(yc**2, weights=wgt) * np.average(sc**2, weights=wgt))
    return float(np.average(yc * sc, weights=wgt) / den) if den > 1e-9 else 0.0


def peak_cue(frame: np.ndarray, cells: list[tuple[int, int]], k: int, cell: int = TEXT_CELL,
             pad: int = TEXT_PAD) -> float:
    """Mean `peak_direction` of the mountain cells (lattice row, column) of a text frame turned by k (np.rot90)."""
    vals = []
    for i, j in cells:
        y, x = (i + pad) * cell, (j + pad) * cell
        vals.append(peak_direction(np.rot90(frame[y : y + cell, x : x + cell], k)))
    return float(np.mean(vals)) if vals else 0.0
