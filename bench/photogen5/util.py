"""Small shared helpers: stable seeding, textures and ink compositing.

Kept free of any sheet or camera knowledge so every other module can use them.
All sheet images are float32 RGB in [0, 1]; ink is modelled as a filter that
absorbs light (the image is *multiplied* by a transmittance), which is how pigment,
graphite and dye on white paper behave and makes overlapping strokes darken.
"""

from __future__ import annotations

import hashlib

import cv2
import numpy as np

GENERATOR = "photogen5"


def seed_sequence(seed: int, *words: str) -> np.random.SeedSequence:
    """A SeedSequence from the seed and words, hashed with SHA-256 (stable across runs, unlike hash())."""
    digest = hashlib.sha256("\x1f".join([str(int(seed)), *words]).encode()).digest()
    ints = [int.from_bytes(digest[i : i + 4], "little") for i in range(0, 32, 4)]
    return np.random.SeedSequence([int(seed) & 0xFFFFFFFF, int(seed) >> 32 & 0xFFFFFFFF, *ints])


def child_rngs(ss: np.random.SeedSequence, n: int) -> list[np.random.Generator]:
    """One generator per stage (map, sheet, player, camera...): one stage's draws never shift another's."""
    return [np.random.default_rng(s) for s in ss.spawn(n)]


def smooth_noise(shape: tuple[int, int], rng: np.random.Generator, cell: float, octaves: int = 3) -> np.ndarray:
    """Fractal value noise in about [-1, 1], cheap: low-resolution random arrays resized up and summed."""
    h, w = shape
    out = np.zeros((h, w), np.float32)
    amp, total = 1.0, 0.0
    for _ in range(octaves):
        gh, gw = max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)
        small = rng.standard_normal((gh, gw)).astype(np.float32)
        out += amp * cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
        total += amp
        amp *= 0.5
        cell /= 2.2
        if cell < 1.5:
            break
    return out / (total * 1.2)


def grain(shape: tuple[int, int], rng: np.random.Generator, sigma: float = 0.8) -> np.ndarray:
    """Paper tooth: fine noise in [0, 1] (what a pencil or wax crayon catches on or skips)."""
    g = rng.random(shape, dtype=np.float32)
    g = cv2.GaussianBlur(g, (0, 0), sigma)
    g -= g.min()
    return g / max(float(g.max()), 1e-6)


def ink(img: np.ndarray, cover: np.ndarray, rgb, x0: int = 0, y0: int = 0) -> None:
    """Multiply `img` in place by the transmittance of ink `rgb` at coverage `cover` (0..1), placed at x0, y0."""
    h, w = cover.shape
    H, W = img.shape[:2]
    xa, ya, xb, yb = max(x0, 0), max(y0, 0), min(x0 + w, W), min(y0 + h, H)
    if xa >= xb or ya >= yb:
        return
    c = np.clip(cover[ya - y0 : yb - y0, xa - x0 : xb - x0], 0, 1)[..., None]
    col = np.asarray(rgb, np.float32).reshape(1, 1, 3)
    img[ya:yb, xa:xb] *= 1.0 - c * (1.0 - col)


def pts(a) -> np.ndarray:
    """Points for cv2 drawing with 4 bits of sub-pixel precision (use shift=4)."""
    return np.round(np.asarray(a, np.float64) * 16).astype(np.int32).reshape(-1, 1, 2)


def polyline(cover: np.ndarray, line, thick: float, value: float = 1.0, closed: bool = False) -> None:
    """Anti-aliased polyline onto a float coverage map (max-combined, as one stroke of one pen)."""
    t = max(1, int(round(thick)))
    cv2.polylines(cover, [pts(line)], closed, float(value), t, cv2.LINE_AA, 4)


def fill_poly(cover: np.ndarray, poly, value: float = 1.0) -> None:
    cv2.fillPoly(cover, [pts(poly)], float(value), cv2.LINE_AA, 4)


def jitter_line(p0, p1, rng: np.random.Generator, amp: float, n: int = 8) -> np.ndarray:
    """A hand-drawn straight line: points from p0 to p1 with a smooth sideways wobble of about `amp`."""
    p0, p1 = np.asarray(p0, float), np.asarray(p1, float)
    t = np.linspace(0, 1, n)[:, None]
    d = p1 - p0
    nrm = np.array([-d[1], d[0]]) / (np.hypot(*d) + 1e-9)
    k = rng.standard_normal(3)
    off = amp * (k[0] * np.sin(np.pi * t) + 0.5 * k[1] * np.sin(2 * np.pi * t) + 0.3 * k[2] * np.sin(3 * np.pi * t))
    return p0 + d * t + nrm * off


def hand_text(img: np.ndarray, text: str, org, height: float, rgb, rng: np.random.Generator,
              thick: float = 1.5, font: int | None = None, angle: float = 0.0, opacity: float = 0.9) -> None:
    """Handwriting-ish text: a Hershey font drawn on a patch, sheared/rotated a little and inked onto img."""
    if not text:
        return
    if font is None:
        font = int(rng.choice([cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_PLAIN,
                               cv2.FONT_HERSHEY_DUPLEX]))
    base = cv2.getTextSize("H", font, 1.0, 1)[0][1]
    scale = height / max(base, 1)
    t = max(1, int(round(thick)))
    (tw, th), bl = cv2.getTextSize(text, font, scale, t)
    pad = int(height * 0.6) + t + 2
    patch = np.zeros((th + bl + 2 * pad, tw + 2 * pad), np.float32)
    cv2.putText(patch, text, (pad, pad + th), font, scale, 1.0, t, cv2.LINE_AA)
    shear = rng.uniform(-0.25, 0.15)
    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    A = np.array([[c, -s], [s, c]]) @ np.array([[1, shear], [0, 1]])
    M = np.hstack([A, (np.array([pad, pad + th]) - A @ np.array([pad, pad + th]))[:, None]]).astype(np.float32)
    patch = cv2.warpAffine(patch, M, (patch.shape[1], patch.shape[0]))
    ink(img, patch * opacity, rgb, int(org[0]) - pad, int(org[1]) - pad - th)
