"""Stage 6: count the filled coin-track circles (positions from the layout)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.cartographers.data import COIN_TRACK_LENGTH as COIN_TRACK_SIZE
from vision.geometry import Canon

FILLED_COVERAGE = 0.3  # share of the inner disc that must carry ink
INK_T = 0.25
MARK_GAP = 0.08  # luminance darkness step between printed and marked coins on a sheet that is not ours


@dataclass(frozen=True)
class CoinReading:
    count: int
    filled: tuple[bool, ...]
    confidence: float  # lowest per-circle certainty


def read_coins(ink: np.ndarray, canon: Canon, shift=None) -> CoinReading:
    """Which of the 14 circles are filled; a circle counts when ink covers its inner disc.

    `ink` is `vision.classify.ink_strength` of the light-normalised canonical image.
    The inner disc (60 % of the radius) avoids the printed double ring; a cross,
    a dot, a scribble or a solid fill all cover it enough.
    """
    filled, certainty = [], []
    for coin in canon.layout.coins:
        r = canon.px(coin.d_pt / 2)
        cx, cy = canon.px(coin.x_pt) + r, canon.px(coin.y_pt) + r
        if shift is not None:  # follow the measured bend of the paper (vision.gridfit)
            dx, dy = shift(cx, cy)
            cx, cy = cx + dx, cy + dy
        # Clipped to the image on all four sides: a bent sheet can push a circle past the canonical edge.
        h, w = ink.shape[:2]
        x0, x1 = max(0, int(cx - r)), min(w, int(cx + r) + 1)
        y0, y1 = max(0, int(cy - r)), min(h, int(cy + r) + 1)
        patch = ink[y0:y1, x0:x1]
        yy, xx = np.mgrid[y0:y1, x0:x1]
        disc = (xx - cx) ** 2 + (yy - cy) ** 2 <= (0.6 * r) ** 2
        cov = float((patch[disc] > INK_T).mean()) if disc.any() else 0.0
        filled.append(cov >= FILLED_COVERAGE)
        certainty.append(min(1.0, abs(cov - FILLED_COVERAGE) / 0.2))
    return CoinReading(sum(filled), tuple(filled), float(min(certainty)))


COIN_BAND = (0.15, 4.6)  # cells below the grid where a coin track is searched on sheets that are not ours
MIN_TRACK = 9  # circles of one row needed to take it for the 14-circle coin track


@dataclass(frozen=True)
class CoinTrack:
    """Where the 14 coin circles are in the canonical image: centres (14×2 px) and radius (px)."""

    centres: np.ndarray
    radius: float


def find_coin_track(gray: np.ndarray, canon: Canon) -> CoinTrack | None:
    """The row of 14 evenly spaced circles below the grid (the game's pad, generic prints), or None.

    Circles are found by the Hough transform in the band below the grid, grouped into rows of similar
    height and size; the row with the most circles, at least `MIN_TRACK`, is fitted with a straight line of
    evenly spaced centres (pitch from the median gap), and extended to 14 from its first circle.
    """
    import cv2

    x0, y0, x1, y1 = canon.grid_box()
    cell = canon.cell_px
    top, bottom = int(y1 + COIN_BAND[0] * cell), int(min(gray.shape[0], y1 + COIN_BAND[1] * cell))
    left, right = max(0, int(x0 - 0.5 * cell)), min(gray.shape[1], int(x1 + 0.5 * cell))
    if bottom - top < cell or right - left < 4 * cell:
        return None
    band = cv2.GaussianBlur(gray[top:bottom, left:right], (0, 0), 1.0)
    circles = cv2.HoughCircles(band, cv2.HOUGH_GRADIENT, dp=1, minDist=0.45 * cell, param1=80, param2=14,
                               minRadius=int(0.15 * cell), maxRadius=int(0.42 * cell))
    if circles is None:
        return None
    c = circles[0]
    best: np.ndarray | None = None
    for cy in c[:, 1]:
        row = c[np.abs(c[:, 1] - cy) < 0.15 * cell]
        row = row[np.abs(row[:, 2] - np.median(row[:, 2])) < 0.25 * np.median(row[:, 2])]
        if best is None or len(row) > len(best):
            best = row
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
    # the row may miss circles at either end (a player's big scribble): centre the 14 on the found ones
    first = -int((COIN_TRACK_SIZE - 1 - idx.max()) // 2) if idx.max() < COIN_TRACK_SIZE - 1 else 0
    k = np.arange(first, first + COIN_TRACK_SIZE)
    centres = np.c_[ax + px * k + left, ay + py * k + top]
    return CoinTrack(centres, float(np.median(best[:, 2])))


def read_coin_track(norm: np.ndarray, canon: Canon, fallback_ink: np.ndarray, shift=None) -> CoinReading:
    """Coins on a sheet that is not ours: find its track, then tell marked circles from the printed ones.

    The pad prints a gold coin in every circle, so "ink in the circle" says nothing; a marked coin is one
    clearly darker than the others (luminance of the inner disc, split in two groups at the widest gap).
    When no track is found, the layout's positions are read as on our sheet.
    """
    import cv2

    gray = cv2.cvtColor(np.clip(norm * 255, 0, 255).astype(np.uint8), cv2.COLOR_BGR2GRAY)
    track = find_coin_track(gray, canon)
    if track is None:
        return read_coins(fallback_ink, canon, shift)
    lum = gray.astype(np.float32) / 255
    h, w = lum.shape
    dark = []
    for cx, cy in track.centres:
        r = 0.6 * track.radius
        xa, xb = max(0, int(cx - r)), min(w, int(cx + r) + 1)
        ya, yb = max(0, int(cy - r)), min(h, int(cy + r) + 1)
        if xa >= xb or ya >= yb:
            dark.append(0.0)
            continue
        yy, xx = np.mgrid[ya:yb, xa:xb]
        disc = (xx - cx) ** 2 + (yy - cy) ** 2 <= r * r
        dark.append(float(1 - lum[ya:yb, xa:xb][disc].mean()) if disc.any() else 0.0)
    d = np.array(dark)
    order = np.sort(d)
    gaps = np.diff(order)
    k = int(np.argmax(gaps))
    if gaps[k] < MARK_GAP:  # all alike: unmarked (or, rarely, every coin marked the same way)
        return CoinReading(0, (False,) * len(d), 0.5 if order[-1] > 0.35 else 1.0)
    thr = (order[k] + order[k + 1]) / 2
    filled = tuple(bool(v > thr) for v in d)
    spread = max(order[-1] - order[0], 1e-6)
    certainty = float(min(1.0, np.min(np.abs(d - thr)) / (0.25 * spread)))
    return CoinReading(sum(filled), filled, certainty)
