"""Noise fields and paper: smooth random fields, paper tooth, stains, parchment."""

from __future__ import annotations

import cv2
import numpy as np


def smooth_noise(rng: np.random.Generator, h: int, w: int, cell_px: float) -> np.ndarray:
    """Zero-mean, unit-ish variance noise with features about `cell_px` pixels wide (bicubic of a random lattice)."""
    gh = max(2, int(np.ceil(h / max(cell_px, 1.0))) + 2)
    gw = max(2, int(np.ceil(w / max(cell_px, 1.0))) + 2)
    g = rng.standard_normal((gh, gw)).astype(np.float32)
    big = cv2.resize(g, (int(gw * cell_px), int(gh * cell_px)), interpolation=cv2.INTER_CUBIC)
    oy = int(rng.integers(0, max(1, big.shape[0] - h)))
    ox = int(rng.integers(0, max(1, big.shape[1] - w)))
    out = big[oy:oy + h, ox:ox + w]
    if out.shape != (h, w):
        out = cv2.resize(out, (w, h))
    return np.ascontiguousarray(out)


def fbm(rng: np.random.Generator, h: int, w: int, base_px: float, octaves: int = 4, gain: float = 0.5) -> np.ndarray:
    """Fractal noise: octaves of `smooth_noise`, summed at a reduced resolution and upsampled once."""
    finest = base_px / 2 ** (octaves - 1)
    k = max(1, int(finest / 3))
    hs, ws = max(2, -(-h // k)), max(2, -(-w // k))
    out = np.zeros((hs, ws), np.float32)
    amp, size, total = 1.0, base_px, 0.0
    for _ in range(octaves):
        if size < 1.5:
            break
        out += amp * smooth_noise(rng, hs, ws, size / k)
        total += amp * amp
        amp *= gain
        size /= 2.0
    out /= np.float32(np.sqrt(max(total, 1e-6)))
    if k > 1:
        out = cv2.resize(out, (ws * k, hs * k), interpolation=cv2.INTER_LINEAR)[:h, :w]
    return np.ascontiguousarray(out)


def paper_tooth(rng: np.random.Generator, h: int, w: int, px_per_mm: float, coarse: float = 1.0) -> np.ndarray:
    """The paper's surface in [0, 1]: high where the fibres stand up (pencil catches there first)."""
    fine = rng.standard_normal((h, w)).astype(np.float32)
    sigma = max(0.6, 0.09 * px_per_mm * coarse)
    fine = cv2.GaussianBlur(fine, (0, 0), sigma)
    fine /= fine.std() + 1e-6
    mid = smooth_noise(rng, h, w, max(2.0, 0.5 * px_per_mm * coarse))
    t = 0.8 * fine + 0.35 * mid
    return (0.5 + 0.5 * np.tanh(0.9 * t)).astype(np.float32)


def paper_base(rng: np.random.Generator, h: int, w: int, colour, px_per_mm: float, mottle: float = 0.012
               ) -> np.ndarray:
    """A sheet of paper: base colour with faint large-scale mottling."""
    img = np.empty((h, w, 3), np.float32)
    img[:] = np.asarray(colour, np.float32)
    m = fbm(rng, h, w, 40 * px_per_mm, octaves=3)
    img *= (1.0 + mottle * m)[..., None]
    return img


def stains(rng: np.random.Generator, img: np.ndarray, px_per_mm: float, n: int, colour, strength: float) -> None:
    """Tea/coffee-ish stains and rings, multiplied in place."""
    h, w = img.shape[:2]
    for _ in range(n):
        r = rng.uniform(8, 35) * px_per_mm
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        x0, x1 = int(max(0, cx - 1.6 * r)), int(min(w, cx + 1.6 * r))
        y0, y1 = int(max(0, cy - 1.6 * r)), int(min(h, cy + 1.6 * r))
        if x1 - x0 < 4 or y1 - y0 < 4:
            continue
        yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        wob = smooth_noise(rng, y1 - y0, x1 - x0, r * 0.5) * 0.25
        d = np.sqrt((xx - cx) ** 2 + (yy - cy) ** 2) / r + wob
        blot = np.clip(1.0 - d, 0, 1) ** 0.7 * 0.5
        if rng.random() < 0.5:
            blot += np.exp(-((d - 1.0) / 0.05) ** 2)  # a ring where the stain dried
        a = (strength * rng.uniform(0.3, 1.0)) * blot
        col = np.asarray(colour, np.float32)
        img[y0:y1, x0:x1] *= (1.0 - a[..., None] * (1.0 - col))
