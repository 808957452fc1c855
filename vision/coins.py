"""Stage 6: count the filled coin-track circles (positions from the layout)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.geometry import Canon

FILLED_COVERAGE = 0.3  # share of the inner disc that must carry ink
INK_T = 0.25


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
