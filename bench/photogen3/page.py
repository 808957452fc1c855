"""A painted sheet and the one way ink goes onto it."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass
class Page:
    """A painted sheet: reflectance image (float32, display-encoded RGB in [0, 1]), where the paper is (alpha,
    None = the whole rectangle), and the paper's tooth in [0, 1] (pencils and crayons catch on high tooth)."""

    image: np.ndarray
    alpha: np.ndarray | None
    ppm: float
    tooth: np.ndarray

    def px(self, mm) -> np.ndarray:
        """Millimetres to pixel coordinates (pixel centres at integers)."""
        return np.asarray(mm, np.float64) * self.ppm - 0.5

    @property
    def shape(self) -> tuple[int, int]:
        return self.image.shape[:2]


def layer(page: Page) -> np.ndarray:
    return np.zeros(page.image.shape[:2], np.uint8)


def ink(page: Page, mask: np.ndarray, colour, opacity: float = 1.0, cover: bool = False, blur: float = 0.0,
        origin: tuple[int, int] = (0, 0)) -> None:
    """Put `mask` (uint8, or float alpha in [0, 1]) on the page in `colour`: multiplied like transparent ink, or
    covering like opaque paint. `origin` is where a patch's top-left pixel goes on the page."""
    a = mask.astype(np.float32) * (1.0 / 255.0 if mask.dtype == np.uint8 else 1.0)
    if blur > 0:
        a = cv2.GaussianBlur(a, (0, 0), blur)
    if opacity != 1.0:
        a *= np.float32(opacity)
    ox, oy = origin
    H, W = page.image.shape[:2]
    h, w = a.shape
    x0, y0, x1, y1 = max(0, ox), max(0, oy), min(W, ox + w), min(H, oy + h)
    if x1 <= x0 or y1 <= y0:
        return
    a = a[y0 - oy:y1 - oy, x0 - ox:x1 - ox]
    if origin == (0, 0) and h * w > 250_000:
        ys, xs = np.nonzero(a.max(1) > 0.002)[0], np.nonzero(a.max(0) > 0.002)[0]
        if len(ys) == 0:
            return
        a = a[ys[0]:ys[-1] + 1, xs[0]:xs[-1] + 1]
        y0, y1, x0, x1 = y0 + ys[0], y0 + ys[-1] + 1, x0 + xs[0], x0 + xs[-1] + 1
    sub = page.image[y0:y1, x0:x1]
    col = np.asarray(colour, np.float32)
    aa = a[..., None]
    if col.ndim == 3:
        col = col[y0 - oy:y1 - oy, x0 - ox:x1 - ox]
    if cover:
        sub *= 1.0 - aa
        sub += aa * col
    else:
        sub *= 1.0 - aa * (1.0 - col)
