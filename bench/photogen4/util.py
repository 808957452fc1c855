"""Small shared helpers: seeded noise fields, ink compositing, cell-unit geometry, stroke drawing.

Conventions: sheet images are float32 RGB in [0, 1] (R, G, B order), pixel centres at integer
coordinates (OpenCV), a point at page millimetre m lies at sheet pixel m * k - 0.5 for k px/mm.
"""

from __future__ import annotations

import zlib

import cv2
import numpy as np

SHIFT = 4  # sub-pixel bits for cv2 drawing
ONE = 1 << SHIFT


def stable_hash(*parts: object) -> int:
    return zlib.crc32("|".join(str(p) for p in parts).encode())


def value_noise(shape: tuple[int, int], cells: float, rng: np.random.Generator, octaves: int = 1,
                persistence: float = 0.5) -> np.ndarray:
    """Smooth noise in about [-1, 1]: random values on a coarse lattice (`cells` across the longer side), cubic
    upsampled, summed over octaves."""
    h, w = shape
    out = np.zeros((h, w), np.float32)
    amp, total = 1.0, 0.0
    c = cells
    for _ in range(octaves):
        gh = max(2, int(round(c * h / max(h, w))) + 2)
        gw = max(2, int(round(c * w / max(h, w))) + 2)
        small = rng.standard_normal((gh, gw)).astype(np.float32)
        out += amp * cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
        total += amp
        amp *= persistence
        c *= 2
    return out / (total * 1.0)


def directional_noise(shape: tuple[int, int], angle_deg: float, along_px: float, across_px: float,
                      rng: np.random.Generator) -> np.ndarray:
    """Noise stretched along `angle_deg` (streaks, wood grain): correlation length along/across in pixels."""
    h, w = shape
    diag = float(np.hypot(h, w)) + 4
    sw = max(4, int(diag / along_px) + 4)
    sh = max(4, int(diag / across_px) + 4)
    small = rng.standard_normal((sh, sw)).astype(np.float32)
    a = np.deg2rad(angle_deg)
    ca, sa = np.cos(a), np.sin(a)
    # dst (x, y) -> src: rotate into the streak frame, scale down, centre
    m = np.array([[ca / along_px, sa / along_px, 0.0], [-sa / across_px, ca / across_px, 0.0]], np.float64)
    cx, cy = w / 2, h / 2
    m[0, 2] = sw / 2 - (m[0, 0] * cx + m[0, 1] * cy)
    m[1, 2] = sh / 2 - (m[1, 0] * cx + m[1, 1] * cy)
    return _warp_inv(small, m, (w, h))


def _warp_inv(src: np.ndarray, m: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    # m maps dst -> src coordinates
    return cv2.warpAffine(src, m, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REFLECT)


def grain(shape: tuple[int, int], rng: np.random.Generator, scale: float = 1.0) -> np.ndarray:
    """Paper tooth in [0, 1]: fine noise, a little blurred (fibres) — ~mean 0.5."""
    h, w = shape
    hs, ws = max(2, int(h / scale)), max(2, int(w / scale))
    n = rng.standard_normal((hs, ws)).astype(np.float32)
    if scale != 1.0:
        n = cv2.resize(n, (w, h), interpolation=cv2.INTER_LINEAR)
    n = cv2.GaussianBlur(n, (0, 0), 0.8)
    n = n / (n.std() + 1e-6)
    return np.clip(0.5 + 0.22 * n, 0, 1)


def _overlap(img: np.ndarray, mask: np.ndarray, x0: int, y0: int) -> tuple[np.ndarray, np.ndarray] | None:
    """(view of img, view of mask) where a mask placed at (x0, y0) overlaps the image; None when it does not."""
    h, w = mask.shape
    H, W = img.shape[:2]
    xa, ya, xb, yb = max(0, x0), max(0, y0), min(W, x0 + w), min(H, y0 + h)
    if xa >= xb or ya >= yb:
        return None
    return img[ya:yb, xa:xb], mask[ya - y0:yb - y0, xa - x0:xb - x0]


def apply_ink(img: np.ndarray, mask: np.ndarray, rgb, x0: int = 0, y0: int = 0) -> None:
    """Transparent ink: img *= 1 - mask * (1 - rgb) on the ROI at (x0, y0); mask float32 (may exceed 1 = overlap)."""
    cut = _overlap(img, mask, x0, y0)
    if cut is None:
        return
    roi, m = cut
    for ch in range(3):
        f = 1.0 - m * (1.0 - float(rgb[ch]))
        np.maximum(f, 0.03, out=f)
        roi[..., ch] *= f


def apply_paint(img: np.ndarray, mask: np.ndarray, rgb, x0: int = 0, y0: int = 0) -> None:
    """Opaque paint (correction fluid, erasing back to paper colour): img = img * (1 - m) + rgb * m."""
    cut = _overlap(img, mask, x0, y0)
    if cut is None:
        return
    roi, m = cut
    m = np.clip(m, 0, 1)
    for ch in range(3):
        roi[..., ch] = roi[..., ch] * (1 - m) + float(rgb[ch]) * m


def bilinear(quad: np.ndarray, a, b) -> np.ndarray:
    """Point(s) at cell units (a, b) in a quad [tl, tr, br, bl] (a along tl->tr, b along tl->bl)."""
    a = np.asarray(a, np.float64)[..., None]
    b = np.asarray(b, np.float64)[..., None]
    tl, tr, br, bl = quad
    return (1 - a) * (1 - b) * tl + a * (1 - b) * tr + a * b * br + (1 - a) * b * bl


def to_fixed(pts: np.ndarray) -> np.ndarray:
    return np.round(np.asarray(pts) * ONE).astype(np.int32).reshape(-1, 1, 2)


def polyline(mask: np.ndarray, pts: np.ndarray, thick: float, value: int = 255, closed: bool = False) -> None:
    """Anti-aliased polyline (pixel coords, float) on a uint8 mask."""
    if len(pts) < 2:
        return
    t = max(1, int(round(thick)))
    cv2.polylines(mask, [to_fixed(pts)], closed, value, t, cv2.LINE_AA, SHIFT)


def fill_poly(mask: np.ndarray, pts: np.ndarray, value: int = 255) -> None:
    cv2.fillPoly(mask, [to_fixed(pts)], value, cv2.LINE_AA, SHIFT)


def dot(mask: np.ndarray, xy, r: float, value: int = 255) -> None:
    cv2.circle(mask, (int(round(xy[0] * ONE)), int(round(xy[1] * ONE))), max(1, int(round(r * ONE))), value, -1,
               cv2.LINE_AA, SHIFT)


def wobble_line(p0, p1, n: int, amp: float, rng: np.random.Generator) -> np.ndarray:
    """Points from p0 to p1 with a smooth sideways wobble of about `amp` (same units)."""
    p0, p1 = np.asarray(p0, float), np.asarray(p1, float)
    t = np.linspace(0, 1, n)
    d = p1 - p0
    nrm = np.array([-d[1], d[0]]) / (np.hypot(*d) + 1e-9)
    ph = rng.uniform(0, 2 * np.pi, 2)
    fr = rng.uniform(0.5, 2.0, 2)
    off = amp * (0.6 * np.sin(2 * np.pi * fr[0] * t + ph[0]) + 0.4 * np.sin(2 * np.pi * fr[1] * 2 * t + ph[1]))
    off *= np.sin(np.pi * t) ** 0.3 if n > 2 else 1
    return p0 + t[:, None] * d + off[:, None] * nrm


def hex_rgb(s: str) -> tuple[float, float, float]:
    s = s.lstrip("#")
    return tuple(int(s[i:i + 2], 16) / 255 for i in (0, 2, 4))


def jitter_rgb(rgb, rng: np.random.Generator, amount: float = 0.04) -> tuple[float, float, float]:
    return tuple(float(np.clip(c + rng.normal(0, amount), 0.02, 0.98)) for c in rgb)


def lerp_rgb(a, b, t: float) -> tuple[float, float, float]:
    return tuple(float(x * (1 - t) + y * t) for x, y in zip(a, b, strict=True))
