"""Many hands' symbol designs, drawn as polylines in a unit cell, for training and synthetic photos.

Each terrain has several designs players really use (a conifer, a round tree, two trees; a house, a
house with a door, two houses; furrows, wheat, dots; waves; a face, an X, a horned face), and
`LETTERS` the initials some players write instead (F V A W M, Turkish O K T S C). A design is a
function of a random generator returning [(points (k×2) in 0..1, filled?)]; the hand's size, slant,
pressure and tremor are applied by `render`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

Strokes = list[tuple[np.ndarray, bool]]


def _circle(cx, cy, r, n=24, ry=None):
    th = np.linspace(0, 2 * np.pi, n)
    return np.c_[cx + r * np.cos(th), cy + (ry or r) * np.sin(th)]


def conifer(rng) -> Strokes:
    w = rng.uniform(0.25, 0.32)
    return [(np.array([[0.5, 0.12], [0.5 - w, 0.7], [0.5 + w, 0.7], [0.5, 0.12]]), False),
            (np.array([[0.5, 0.7], [0.5, 0.9]]), False)]


def stacked_conifer(rng) -> Strokes:
    return [(np.array([[0.5, 0.1], [0.3, 0.42], [0.7, 0.42], [0.5, 0.1]]), False),
            (np.array([[0.5, 0.3], [0.24, 0.72], [0.76, 0.72], [0.5, 0.3]]), False),
            (np.array([[0.5, 0.72], [0.5, 0.9]]), False)]


def round_tree(rng) -> Strokes:
    return [(_circle(0.5, 0.4, rng.uniform(0.2, 0.27)), False), (np.array([[0.5, 0.64], [0.5, 0.9]]), False)]


def two_trees(rng) -> Strokes:
    out: Strokes = []
    for cx in (0.32, 0.68):
        out.append((np.array([[cx, 0.18], [cx - 0.16, 0.68], [cx + 0.16, 0.68], [cx, 0.18]]), False))
        out.append((np.array([[cx, 0.68], [cx, 0.85]]), False))
    return out


def house(rng) -> Strokes:
    return [(np.array([[0.25, 0.48], [0.25, 0.86], [0.75, 0.86], [0.75, 0.48]]), False),
            (np.array([[0.16, 0.52], [0.5, 0.16], [0.84, 0.52]]), False)]


def house_door(rng) -> Strokes:
    return house(rng) + [(np.array([[0.44, 0.86], [0.44, 0.66], [0.56, 0.66], [0.56, 0.86]]), False)]


def two_houses(rng) -> Strokes:
    out: Strokes = []
    for cx, s in ((0.3, 0.8), (0.68, 1.0)):
        w = 0.16 * s
        out.append((np.array([[cx - w, 0.55], [cx - w, 0.85], [cx + w, 0.85], [cx + w, 0.55]]), False))
        out.append((np.array([[cx - w - 0.04, 0.57], [cx, 0.55 - 0.3 * s], [cx + w + 0.04, 0.57]]), False))
    return out


def furrows(rng) -> Strokes:
    k = int(rng.integers(3, 5))
    ys = np.linspace(0.25, 0.78, k)
    slope = rng.uniform(-0.15, 0.15)
    return [(np.array([[0.18, y - slope * 0.3], [0.82, y + slope * 0.3]]), False) for y in ys]


def wheat(rng) -> Strokes:
    out: Strokes = []
    for x in (0.3, 0.5, 0.7) if rng.random() < 0.6 else (0.5,):
        out.append((np.array([[x, 0.88], [x, 0.2]]), False))
        for y in (0.25, 0.37, 0.49):
            out.append((np.array([[x - 0.08, y], [x, y + 0.07], [x + 0.08, y]]), False))
    return out


def dots(rng) -> Strokes:
    out: Strokes = []
    for y in (0.3, 0.5, 0.7):
        for x in (0.3, 0.5, 0.7):
            out.append((_circle(x, y, 0.035, 10), True))
    return out


def dashes(rng) -> Strokes:
    out: Strokes = []
    for y in (0.28, 0.5, 0.72):
        for x in (0.28, 0.5, 0.72):
            out.append((np.array([[x - 0.05, y + 0.07], [x + 0.05, y - 0.07]]), False))
    return out


def waves(rng) -> Strokes:
    k = int(rng.integers(2, 4))
    xs = np.linspace(rng.uniform(0.1, 0.25), rng.uniform(0.75, 0.9), 30)
    f = rng.uniform(1.2, 3.0)
    amp = rng.uniform(0.03, 0.1)
    return [(np.c_[xs, y + amp * np.sin((xs - xs[0]) * 2 * np.pi * f)], False) for y in np.linspace(0.3, 0.7, k)]


def face(rng) -> Strokes:
    out: Strokes = [(_circle(0.5, 0.5, 0.33, 28), False)]
    for ex in (0.38, 0.62):
        out.append((_circle(ex, 0.42, 0.05, 10), True))
    out.append((np.array([[0.34, 0.64], [0.42, 0.7], [0.5, 0.63], [0.58, 0.7], [0.66, 0.64]]), False))
    return out


def cross(rng) -> Strokes:
    return [(np.array([[0.22, 0.22], [0.78, 0.78]]), False), (np.array([[0.78, 0.22], [0.22, 0.78]]), False)]


def horned(rng) -> Strokes:
    out = face(rng)
    out.append((np.array([[0.3, 0.28], [0.22, 0.08], [0.42, 0.2]]), False))
    out.append((np.array([[0.7, 0.28], [0.78, 0.08], [0.58, 0.2]]), False))
    return out


def star(rng) -> Strokes:
    """A five-pointed star outline (the hero of Cartographers Heroes, as many players draw it)."""
    k = np.arange(11)
    r = np.where(k % 2 == 0, 0.42, 0.42 * rng.uniform(0.38, 0.5))
    th = -np.pi / 2 + k * np.pi / 5
    return [(np.c_[0.5 + r * np.cos(th), 0.53 + r * np.sin(th)], False)]


def shield(rng) -> Strokes:
    """A heater shield outline, sometimes with a band or a cross on it."""
    t = np.linspace(0, 1, 12)
    left = np.c_[0.22 + 0.28 * t**1.6, 0.5 + 0.4 * t]
    right = np.c_[0.78 - 0.28 * t**1.6, 0.5 + 0.4 * t]
    outline = np.vstack([[[0.22, 0.12], [0.78, 0.12]], right, left[::-1], [[0.22, 0.12]]])
    out: Strokes = [(outline, False)]
    if rng.random() < 0.5:
        out.append((np.array([[0.5, 0.14], [0.5, 0.86]]), False))
        out.append((np.array([[0.24, 0.4], [0.76, 0.4]]), False))
    return out


def shield_star(rng) -> Strokes:
    """The app's hero chip: a shield with a small star inside."""
    inner = [((pts - 0.5) * 0.45 + [0.5, 0.45], f) for pts, f in star(rng)]
    return shield(rng)[:1] + inner


def helmet(rng) -> Strokes:
    """A knight's helmet: a dome, a visor slit and a nose guard."""
    th = np.linspace(np.pi, 2 * np.pi, 16)
    dome = np.c_[0.5 + 0.32 * np.cos(th), 0.55 + 0.38 * np.sin(th)]
    return [(np.vstack([dome, [[0.82, 0.85], [0.18, 0.85], [0.18, 0.55]]]), False),
            (np.array([[0.24, 0.5], [0.44, 0.5]]), False), (np.array([[0.56, 0.5], [0.76, 0.5]]), False),
            (np.array([[0.5, 0.4], [0.5, 0.8]]), False)]


def big_cross(rng) -> Strokes:
    """A destroyed space (Cartographers Heroes): a bold X from corner to corner, drawn quickly (ends vary)."""
    a, b, c, d = (rng.uniform(0.03, 0.14, 2) for _ in range(4))
    return [(np.array([[a[0], a[1]], [1 - b[0], 1 - b[1]]]), False),
            (np.array([[1 - c[0], c[1]], [d[0], 1 - d[1]]]), False)]


# The hero's own 1×1 (Cartographers Heroes): our choice of what players draw, see bench/README.md "Heroes marks".
HERO_DESIGNS: tuple[Callable, ...] = (star, shield, shield_star, helmet)

DESIGNS: dict[str, tuple[Callable, ...]] = {
    "forest": (conifer, stacked_conifer, round_tree, two_trees),
    "village": (house, house_door, two_houses),
    "farm": (furrows, wheat, dots, dashes),
    "water": (waves,),
    "monster": (face, cross, horned),
}
LETTERS = "FVAWMOKTSC"


FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, cv2.FONT_HERSHEY_PLAIN)


def letter_strokes(ch: str, size: int, rng, font: int | None = None) -> np.ndarray:
    """A letter as a uint8 mask of `size`², in one of OpenCV's Hershey hands (a player keeps one hand)."""
    font = FONTS[int(rng.integers(len(FONTS)))] if font is None else font
    m = np.zeros((size, size), np.uint8)
    scale = size / 40 * rng.uniform(0.9, 1.3)
    (tw, th), _ = cv2.getTextSize(ch, font, scale, 1)
    cv2.putText(m, ch, ((size - tw) // 2, (size + th) // 2), font, scale, 255, max(1, size // 22), cv2.LINE_AA)
    return m


def jitter_line(rng, pts: np.ndarray, amount: float) -> np.ndarray:
    """Densify a polyline and add smooth hand tremor."""
    out = []
    for a, b in zip(pts[:-1], pts[1:], strict=False):
        n = max(2, int(np.hypot(*(b - a)) / 3))
        for t in np.linspace(0, 1, n, endpoint=False):
            out.append(a + (b - a) * t)
    out.append(pts[-1])
    arr = np.array(out, np.float32)
    noise = rng.normal(0, amount, arr.shape).astype(np.float32)
    k = np.ones(min(5, len(arr)), np.float32) / min(5, len(arr))
    noise[:, 0] = np.convolve(noise[:, 0], k, "same")
    noise[:, 1] = np.convolve(noise[:, 1], k, "same")
    return arr + noise


def render(strokes: Strokes, size: float, ox: float, oy: float, S: int, rng, scale: float | None = None,
           slant_deg: float | None = None, width: float | None = None) -> np.ndarray:
    """A (S×S) uint8 mask of the strokes drawn into the cell at (ox, oy, size) with a hand's variation."""
    mask = np.zeros((S, S), np.uint8)
    scale = rng.uniform(0.55, 0.98) if scale is None else scale
    rot = math.radians(rng.normal(0, 9) if slant_deg is None else slant_deg)
    shear = rng.normal(0, 0.12)
    off = rng.normal(0, 0.05, 2)
    R = np.array([[math.cos(rot), -math.sin(rot)], [math.sin(rot), math.cos(rot)]]) @ np.array([[1, shear], [0, 1]])
    th = max(1, int(round(size * (rng.uniform(0.025, 0.06) if width is None else width))))
    for pts, filled in strokes:
        q = ((pts - 0.5) * scale) @ R.T + 0.5 + off
        q = q * size + [ox, oy]
        q = jitter_line(rng, q.astype(np.float32), size * rng.uniform(0.003, 0.01))
        qi = np.round(q).astype(np.int32)
        if filled:
            cv2.fillPoly(mask, [qi], 255, cv2.LINE_AA)
        else:
            cv2.polylines(mask, [qi], False, 255, th, cv2.LINE_AA)
    return mask


def random_design(terrain: str, rng) -> Callable:
    ds = DESIGNS[terrain]
    return ds[int(rng.integers(len(ds)))]
