"""Stage 2 fallback: sheets without markers (the game's own pad, other prints), found by the grid itself.

1. Candidate quadrilaterals: contours of an adaptive threshold, simplified to
   four convex corners, large enough to be a grid.
2. Each candidate is warped to a square and scored by how well an 11×11 line
   pattern explains it (lines darker than cell centres); the best one wins.
   The page outline or a decorative frame may win too: step 3 corrects that.
3. Refinement from the photo itself: the 12 vertical and 12 horizontal lines
   are located in the warped square and a scale + offset is fitted per axis,
   so the homography lands on the real grid (a frame a few points outside the
   border, or a printer's "fit to page" scaling, no longer matter).
4. Side and orientation: the printed mountains are asymmetric, so of the 8
   hypotheses (2 sides × 4 rotations) the one whose mountain cells are darkest
   relative to the rest of the grid is taken.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.cartographers.data import GRID_SIZE, MAPS
from printables.layout import sheet_layout
from vision.locate import SheetLocation
from vision.messages import Note

WORK_SIDE = 1000  # contour search on a copy whose long side is this many pixels
SQ_CELL = 24  # pixels per cell in the scoring square
MIN_GRID_SCORE = 1.5
MIN_AREA_FRACTION = 0.04


def order_corners(quad: np.ndarray) -> np.ndarray:
    """Corners in clockwise order starting from the one nearest the image's top-left."""
    c = quad.mean(axis=0)
    ang = np.arctan2(quad[:, 1] - c[1], quad[:, 0] - c[0])
    q = quad[np.argsort(ang)]  # clockwise in image coordinates (y down)
    start = int(np.argmin(q.sum(axis=1)))
    return np.roll(q, -start, axis=0)


def find_quads(gray: np.ndarray) -> list[np.ndarray]:
    """Convex four-corner contours covering at least a few percent of the image, largest first."""
    h, w = gray.shape
    block = max(15, (min(h, w) // 25) | 1)
    binary = cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, 7)
    binary = cv2.morphologyEx(binary, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(binary, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    quads = []
    min_area = MIN_AREA_FRACTION * h * w
    for cnt in contours:
        if cv2.contourArea(cnt) < min_area:
            continue
        hull = cv2.convexHull(cnt)
        approx = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True)
        if len(approx) == 4 and cv2.isContourConvex(approx):
            quads.append(order_corners(approx.reshape(4, 2).astype(np.float64)))
    quads.sort(key=lambda q: -cv2.contourArea(q.astype(np.float32)))
    return quads


def _square(gray: np.ndarray, quad: np.ndarray, cell: int = SQ_CELL, pad: float = 0.0) -> np.ndarray:
    """Warp `quad` (TL, TR, BR, BL) to an axis-aligned square of 11 cells, with `pad` cells of margin."""
    n = GRID_SIZE * cell
    p = pad * cell
    dst = np.array([[p, p], [p + n, p], [p + n, p + n], [p, p + n]], np.float32)
    M = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    size = int(round(n + 2 * p))
    return cv2.warpPerspective(gray, M, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _darkness(sq: np.ndarray) -> np.ndarray:
    f = sq.astype(np.float32)
    bg = cv2.dilate(f, np.ones((9, 9), np.uint8))
    return np.clip(1 - f / np.maximum(bg, 1), 0, 1)


def grid_score(gray: np.ndarray, quad: np.ndarray) -> float:
    """How strongly an 11×11 line pattern shows inside `quad` (z-score of lines vs cell centres)."""
    d = _darkness(_square(gray, quad))
    scores = []
    for prof in (d.mean(axis=0), d.mean(axis=1)):
        lines = np.array([prof[max(0, i * SQ_CELL - 2) : i * SQ_CELL + 3].max() for i in range(1, GRID_SIZE)])
        centres = np.array([prof[i * SQ_CELL + SQ_CELL // 2 - 3 : i * SQ_CELL + SQ_CELL // 2 + 4].mean()
                            for i in range(GRID_SIZE)])
        scores.append((np.median(lines) - np.median(centres)) / (np.std(centres) + 0.01))
    return float(min(scores))


def refine(gray: np.ndarray, quad: np.ndarray, rounds: int = 2) -> np.ndarray:
    """Move `quad` onto the real grid by fitting the 12+12 line positions found in the warped square."""
    cell = 32
    pad = 0.5
    for _ in range(rounds):
        sq = _square(gray, quad, cell, pad)
        d = _darkness(sq)
        off = pad * cell
        n = GRID_SIZE * cell
        rows = slice(int(off), int(off + n))
        fits = []
        for prof in (d[rows, :].mean(axis=0), d[:, rows].mean(axis=1)):  # x of vertical lines, y of horizontal
            expected, found = [], []
            for i in range(GRID_SIZE + 1):
                x = off + i * cell
                lo, hi = int(x - 0.3 * cell), int(x + 0.3 * cell) + 1
                lo, hi = max(0, lo), min(len(prof), hi)
                if hi - lo < 3:
                    continue
                k = lo + int(np.argmax(prof[lo:hi]))
                if 0 < k < len(prof) - 1:  # parabolic sub-pixel peak
                    a, b, c = prof[k - 1], prof[k], prof[k + 1]
                    den = a - 2 * b + c
                    k = k + (0.5 * (a - c) / den if abs(den) > 1e-9 else 0.0)
                expected.append(x)
                found.append(k)
            e, f = np.array(expected), np.array(found)
            A = np.c_[e, np.ones_like(e)]
            sol = np.linalg.lstsq(A, f, rcond=None)[0]
            resid = np.abs(A @ sol - f)
            keep = resid < max(2.0, 2.5 * np.median(resid))
            if keep.sum() >= 6:
                sol = np.linalg.lstsq(A[keep], f[keep], rcond=None)[0]
            fits.append(sol)
        (bx, ax), (by, ay) = fits
        # Grid corners in square coordinates → back to the photo.
        corners_sq = np.array([[bx * off + ax, by * off + ay], [bx * (off + n) + ax, by * off + ay],
                               [bx * (off + n) + ax, by * (off + n) + ay], [bx * off + ax, by * (off + n) + ay]])
        dst = np.array([[off, off], [off + n, off], [off + n, off + n], [off, off + n]], np.float32)
        M = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
        quad = cv2.perspectiveTransform(corners_sq[None].astype(np.float64), np.linalg.inv(M))[0]
    return quad


def cell_patches(gray: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """11×11×P×P grayscale cell patches inside `quad` (rows/cols in quad order), borders trimmed."""
    sq = _square(gray, quad).astype(np.float32)
    m = 3
    p = SQ_CELL - 2 * m
    out = np.zeros((GRID_SIZE, GRID_SIZE, p, p), np.float32)
    for r in range(GRID_SIZE):
        for c in range(GRID_SIZE):
            out[r, c] = sq[r * SQ_CELL + m : (r + 1) * SQ_CELL - m, c * SQ_CELL + m : (c + 1) * SQ_CELL - m]
    return out


def _mutual_similarity(patches: np.ndarray) -> float:
    """Mean pairwise normalised cross-correlation: printed icons are identical, players' cells are not."""
    flat = patches.reshape(len(patches), -1)
    flat = flat - flat.mean(axis=1, keepdims=True)
    norms = np.linalg.norm(flat, axis=1)
    if np.any(norms < 1e-3 * flat.shape[1]):
        return 0.0
    unit = flat / norms[:, None]
    sim = unit @ unit.T
    n = len(patches)
    return float((sim.sum() - n) / (n * (n - 1)))


def orient(gray: np.ndarray, quad: np.ndarray, side_hint: str | None) -> list[tuple[float, str, int]]:
    """(score, side, rotation k) hypotheses, best first.

    Turning the grid by k quarter turns (np.rot90) puts the printed features in place.

    The 5 mountains (and side B's wastelands) are printed identically, so under
    the right hypothesis those cells look alike and dark; any other choice of
    cells mixes players' drawings.
    """
    patches = cell_patches(gray, quad)
    ref = float(np.percentile(patches, 95))
    dark = 1 - patches.mean(axis=(2, 3)) / max(ref, 1)
    results = []
    for k in range(4):
        pk = np.rot90(patches, k, axes=(0, 1))
        dk = np.rot90(dark, k)
        for side in (side_hint,) if side_hint in MAPS else ("A", "B"):  # unmarked game pads: base sides unless told
            m = MAPS[side]
            mountains = np.array([pk[r, c] for r, c in m.mountains])
            mask = np.zeros(dk.shape, bool)
            for r, c in m.mountains:
                mask[r, c] = True
            score = _mutual_similarity(mountains) + float(dk[mask].mean() - np.median(dk[~mask]))
            if m.wastelands:
                score += 0.5 * _mutual_similarity(np.array([pk[r, c] for r, c in m.wastelands]))
            else:
                score += 0.5 * 0.3  # side A has no wastelands: a neutral bonus keeps the sides comparable
            results.append((score, side, k))
    results.sort(reverse=True)
    return results


def coin_ring_score(gray: np.ndarray, H: np.ndarray, side: str) -> float:
    """How much the layout's coin-track circle outlines stand out (dark ring vs paper just outside)."""
    layout = sheet_layout(side, "a4")
    vals = []
    for coin in layout.coins:
        r = coin.d_pt / 2
        cx, cy = coin.x_pt + r, coin.y_pt + r
        th = np.linspace(0, 2 * np.pi, 24, endpoint=False)
        ring = np.c_[cx + r * np.cos(th), cy + r * np.sin(th)]
        out = np.c_[cx + 1.35 * r * np.cos(th), cy + 1.35 * r * np.sin(th)]
        pts = cv2.perspectiveTransform(np.concatenate([ring, out])[None], H)[0]
        xs = np.clip(np.round(pts[:, 0]).astype(int), 0, gray.shape[1] - 1)
        ys = np.clip(np.round(pts[:, 1]).astype(int), 0, gray.shape[0] - 1)
        v = gray[ys, xs].astype(np.float32)
        vals.append((v[24:].mean() - v[:24].mean()) / max(v[24:].mean(), 1))
    return float(np.median(vals))


def _homography(quad: np.ndarray, side: str, k: int) -> np.ndarray:
    """Page points → image when the grid's top-left corner is quad corner k (np.rot90 turns k times)."""
    q = np.roll(quad, -k, axis=0)
    g = sheet_layout(side, "a4").grid
    s = g.cell_pt * GRID_SIZE
    src = np.array([[g.x_pt, g.y_pt], [g.x_pt + s, g.y_pt], [g.x_pt + s, g.y_pt + s], [g.x_pt, g.y_pt + s]],
                   np.float32)
    return cv2.getPerspectiveTransform(src, q.astype(np.float32)).astype(np.float64)


def locate_by_border(image: np.ndarray, gray: np.ndarray, side_hint: str | None) -> SheetLocation | None:
    """Homography page points → image for an unmarked sheet, or None when no grid is visible."""
    h, w = gray.shape
    f = min(1.0, WORK_SIDE / max(h, w))
    small = cv2.resize(gray, None, fx=f, fy=f, interpolation=cv2.INTER_AREA) if f < 1 else gray
    candidates = find_quads(small)[:8]
    if not candidates:
        return None
    scored = sorted(((grid_score(small, q), i) for i, q in enumerate(candidates)), reverse=True)
    score, i = scored[0]
    if score < MIN_GRID_SCORE:
        return None
    quad = refine(gray, candidates[i] / f)
    if grid_score(gray, quad) < MIN_GRID_SCORE:
        return None
    hypotheses = orient(gray, quad, side_hint)
    best_score, side, k = hypotheses[0]
    # Side A's printed features are symmetric under a half turn: let the coin track below the grid decide
    # between k and k + 2 whenever the mountains cannot.
    rivals = [(sc, sd, kk) for sc, sd, kk in hypotheses[1:] if sd == side and kk == (k + 2) % 4]
    H = _homography(quad, side, k)
    warnings: list[Note] = []
    if rivals and best_score - rivals[0][0] < 0.15:
        H2 = _homography(quad, side, rivals[0][2])
        c1, c2 = coin_ring_score(gray, H, side), coin_ring_score(gray, H2, side)
        if c2 > c1:
            H = H2
        if abs(c1 - c2) < 0.03:
            warnings.append(Note.of("orientation_unsure"))
    others = [sc for sc, sd, _ in hypotheses[1:] if sd != side]
    if side_hint is None and others and best_score - others[0] < 0.05:
        warnings.append(Note.of("side_unsure"))
    warnings.append(Note.of("unmarked"))
    return SheetLocation(side, H, "border", {}, warnings, 0.0)
