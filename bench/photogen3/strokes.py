"""Hand-drawn lines: wobbly polylines, a single-stroke handwriting font and the players' symbol designs.

Geometry is in floating-point pixels; drawing goes to uint8 masks with OpenCV's anti-aliased lines
at 1/16-pixel precision, and the caller turns masks into ink.
"""

from __future__ import annotations

import cv2
import numpy as np

SHIFT = 4
ONE = 1 << SHIFT


def arc(cx: float, cy: float, rx: float, ry: float, a0: float, a1: float, n: int = 16) -> list[tuple[float, float]]:
    """Points on an ellipse from angle a0 to a1 (degrees, 0 = +x, 90 = +y i.e. downwards)."""
    t = np.radians(np.linspace(a0, a1, n))
    return [(cx + rx * np.cos(a), cy + ry * np.sin(a)) for a in t]


def resample(poly: np.ndarray, step: float) -> np.ndarray:
    """Points along a polyline every `step` units (keeps the ends)."""
    poly = np.asarray(poly, np.float64)
    if len(poly) < 2:
        return poly
    seg = np.sqrt(((poly[1:] - poly[:-1]) ** 2).sum(1))
    total = float(seg.sum())
    if total < 1e-9:
        return poly[:1]
    n = max(2, int(np.ceil(total / max(step, 1e-6))) + 1)
    s = np.concatenate([[0.0], np.cumsum(seg)])
    t = np.linspace(0.0, total, n)
    return np.stack([np.interp(t, s, poly[:, 0]), np.interp(t, s, poly[:, 1])], 1)


def wobble(rng: np.random.Generator, poly, amp: float, wavelength: float, step: float | None = None) -> np.ndarray:
    """A hand's tremor: smooth random offsets perpendicular to the line, `amp` units, `wavelength` apart."""
    poly = np.asarray(poly, np.float64)
    if len(poly) < 2 or amp <= 0:
        return poly
    step = step or max(wavelength / 4.0, 1e-3)
    pts = resample(poly, step)
    n = len(pts)
    knots = max(2, int(n * step / max(wavelength, 1e-6)) + 2)
    kv = rng.standard_normal((knots, 2))
    xs = np.linspace(0, knots - 1, n)
    off = np.stack([np.interp(xs, np.arange(knots), kv[:, 0]), np.interp(xs, np.arange(knots), kv[:, 1])], 1)
    return pts + off * amp


def draw(mask: np.ndarray, polys, width: float, value: int = 255, closed: bool = False) -> None:
    """Anti-aliased polylines of `width` pixels (below one pixel: a one-pixel line, fainter)."""
    w = max(1, int(round(width)))
    if width < 1.0:
        value = int(value * max(0.25, width))
    pts = [np.round(np.asarray(p, np.float64) * ONE).astype(np.int32) for p in polys if len(p) >= 2]
    if pts:
        cv2.polylines(mask, pts, closed, int(value), w, cv2.LINE_AA, SHIFT)
    for p in polys:
        if len(p) == 1:
            x, y = p[0]
            cv2.circle(mask, (int(round(x * ONE)), int(round(y * ONE))), max(1, int(round(width * 0.6 * ONE))),
                       int(value), -1, cv2.LINE_AA, SHIFT)


def fill(mask: np.ndarray, polys, value: int = 255) -> None:
    pts = [np.round(np.asarray(p, np.float64) * ONE).astype(np.int32) for p in polys if len(p) >= 3]
    if pts:
        cv2.fillPoly(mask, pts, int(value), cv2.LINE_AA, SHIFT)


# --- handwriting: single-stroke capitals and digits in a unit box (x right, y down, height 1) -------------------

def _ell(cx, cy, rx, ry, a0, a1, n=14):
    return arc(cx, cy, rx, ry, a0, a1, n)


GLYPHS: dict[str, tuple[float, list[list[tuple[float, float]]]]] = {
    "A": (0.8, [[(0, 1), (0.4, 0), (0.8, 1)], [(0.17, 0.6), (0.63, 0.6)]]),
    "B": (0.7, [[(0, 1), (0, 0), (0.45, 0), (0.62, 0.1), (0.62, 0.35), (0.45, 0.47), (0, 0.47)],
                [(0.45, 0.47), (0.7, 0.58), (0.7, 0.88), (0.5, 1), (0, 1)]]),
    "C": (0.75, [_ell(0.42, 0.5, 0.42, 0.5, -40, -320, 18)]),
    "D": (0.75, [[(0, 1), (0, 0), (0.35, 0)] + _ell(0.35, 0.5, 0.4, 0.5, -90, 90, 12) + [(0, 1)]]),
    "E": (0.65, [[(0.65, 0), (0, 0), (0, 1), (0.65, 1)], [(0, 0.5), (0.5, 0.5)]]),
    "F": (0.62, [[(0.62, 0), (0, 0), (0, 1)], [(0, 0.48), (0.5, 0.48)]]),
    "G": (0.8, [_ell(0.42, 0.5, 0.42, 0.5, -40, -330, 18) + [(0.82, 0.58), (0.5, 0.58)]]),
    "H": (0.75, [[(0, 0), (0, 1)], [(0.75, 0), (0.75, 1)], [(0, 0.5), (0.75, 0.5)]]),
    "I": (0.2, [[(0.1, 0), (0.1, 1)]]),
    "J": (0.55, [[(0.55, 0), (0.55, 0.72)] + _ell(0.3, 0.72, 0.25, 0.28, 0, 160, 8)]),
    "K": (0.7, [[(0, 0), (0, 1)], [(0.7, 0), (0, 0.6)], [(0.22, 0.45), (0.72, 1)]]),
    "L": (0.6, [[(0, 0), (0, 1), (0.6, 1)]]),
    "M": (0.9, [[(0, 1), (0.05, 0), (0.45, 0.65), (0.85, 0), (0.9, 1)]]),
    "N": (0.75, [[(0, 1), (0, 0), (0.75, 1), (0.75, 0)]]),
    "O": (0.85, [_ell(0.42, 0.5, 0.42, 0.5, -100, 265, 24)]),
    "P": (0.65, [[(0, 1), (0, 0), (0.42, 0)] + _ell(0.42, 0.25, 0.25, 0.25, -90, 90, 10) + [(0, 0.5)]]),
    "R": (0.7, [[(0, 1), (0, 0), (0.42, 0)] + _ell(0.42, 0.25, 0.25, 0.25, -90, 90, 10) + [(0, 0.5)],
                [(0.3, 0.5), (0.72, 1)]]),
    "S": (0.65, [[(0.62, 0.12)] + _ell(0.33, 0.25, 0.3, 0.25, -20, -270, 10)
                 + _ell(0.33, 0.75, 0.3, 0.25, -90, 160, 12)]),
    "T": (0.75, [[(0, 0), (0.75, 0)], [(0.375, 0), (0.375, 1)]]),
    "U": (0.7, [[(0, 0), (0, 0.65)] + _ell(0.35, 0.65, 0.35, 0.35, 180, 0, 10) + [(0.7, 0)]]),
    "V": (0.75, [[(0, 0), (0.375, 1), (0.75, 0)]]),
    "W": (1.0, [[(0, 0), (0.22, 1), (0.5, 0.3), (0.78, 1), (1.0, 0)]]),
    "Y": (0.7, [[(0, 0), (0.35, 0.5), (0.7, 0)], [(0.35, 0.5), (0.35, 1)]]),
    "0": (0.6, [_ell(0.3, 0.5, 0.3, 0.5, -90, 270, 20)]),
    "1": (0.35, [[(0.0, 0.2), (0.3, 0), (0.3, 1)]]),
    "2": (0.6, [_ell(0.3, 0.28, 0.28, 0.28, -160, 30, 10) + [(0, 1), (0.62, 1)]]),
    "3": (0.6, [_ell(0.28, 0.25, 0.28, 0.25, -150, 90, 10) + _ell(0.28, 0.74, 0.32, 0.26, -90, 150, 10)]),
    "4": (0.65, [[(0.48, 1), (0.48, 0), (0, 0.7), (0.65, 0.7)]]),
    "5": (0.6, [[(0.58, 0), (0.08, 0), (0.03, 0.45)] + _ell(0.3, 0.7, 0.3, 0.3, -120, 150, 12)]),
    "6": (0.6, [[(0.5, 0.02)] + _ell(0.3, 0.7, 0.3, 0.3, -160, 200, 16)]),
    "7": (0.6, [[(0, 0), (0.6, 0), (0.2, 1)]]),
    "8": (0.6, [_ell(0.3, 0.25, 0.25, 0.25, 90, 450, 14) + _ell(0.3, 0.74, 0.3, 0.26, -90, 270, 16)]),
    "9": (0.6, [_ell(0.3, 0.3, 0.3, 0.3, 20, 380, 16) + [(0.6, 0.35), (0.45, 1)]]),
}


def glyph_strokes(ch: str) -> tuple[float, list[np.ndarray]]:
    w, polys = GLYPHS[ch]
    return w, [np.asarray(p, np.float64) for p in polys]


def handwrite(rng: np.random.Generator, text: str, x: float, y_base: float, height: float, slant: float,
              jitter: float, angle_deg: float = 0.0, spacing: float = 0.22) -> list[np.ndarray]:
    """Polylines (pixels) of `text` written by hand, baseline at y_base, starting at x."""
    out = []
    pen = 0.0
    ca, sa = np.cos(np.radians(angle_deg)), np.sin(np.radians(angle_deg))
    for ch in text:
        if ch == " ":
            pen += 0.5
            continue
        if ch not in GLYPHS:
            continue
        w, polys = glyph_strokes(ch)
        sx = rng.uniform(0.85, 1.15)
        sy = rng.uniform(0.9, 1.1)
        dy = rng.normal(0, 0.04)
        for p in polys:
            q = p.copy()
            q[:, 0] = q[:, 0] * sx
            q[:, 1] = (q[:, 1] - 1.0) * sy + dy
            q[:, 0] -= q[:, 1] * slant
            q = wobble(rng, q, jitter, 0.35, step=0.05) if jitter > 0 else q
            q[:, 0] += pen
            q *= height
            rx = q[:, 0] * ca - q[:, 1] * sa
            ry = q[:, 0] * sa + q[:, 1] * ca
            out.append(np.stack([x + rx, y_base + ry], 1))
        pen += w * sx + spacing
    return out


def text_width(text: str, height: float, spacing: float = 0.22) -> float:
    return height * sum((GLYPHS[c][0] + spacing) if c in GLYPHS else 0.5 for c in text)


# --- symbols: designs in a cell-centred unit box (-0.5..0.5, y down) ---------------------------------------------

def _tri(cx, top, bottom, half):
    return [(cx - half, bottom), (cx, top), (cx + half, bottom), (cx - half, bottom)]


def _forest_conifer(rng):
    tiers = int(rng.integers(1, 4))
    polys = [[(0, 0.45), (0, 0.22)]]
    if tiers == 1:
        polys.append(_tri(0, -0.45, 0.22, 0.3))
    else:
        for i in range(tiers):
            top = -0.45 + i * 0.5 / tiers
            polys.append([(-0.16 - 0.07 * i, top + 0.3), (0, top), (0.16 + 0.07 * i, top + 0.3)])
        polys.append([(-0.16 - 0.07 * (tiers - 1), -0.15 + 0.37), (0.16 + 0.07 * (tiers - 1), -0.15 + 0.37)])
    return polys


def _forest_round(rng):
    return [_ell(0, -0.12, 0.3, 0.3, 100, 450, 18), [(0, 0.18), (0, 0.45)]]


def _forest_two(rng):
    out = []
    for cx, s in ((-0.2, 0.9), (0.2, 1.0)):
        out.append(_tri(cx, -0.4 * s, 0.2 * s, 0.17))
        out.append([(cx, 0.2 * s), (cx, 0.42)])
    return out


def _forest_cloud(rng):
    pts = []
    bumps = int(rng.integers(5, 8))
    for i in range(bumps):
        a0 = -90 + i * 360 / bumps
        c = np.radians(a0 + 180 / bumps)
        pts += _ell(0.24 * np.cos(c), -0.1 + 0.24 * np.sin(c), 0.12, 0.12, a0 + 180 / bumps - 100,
                    a0 + 180 / bumps + 100, 6)
    return [pts + [pts[0]], [(-0.04, 0.2), (-0.04, 0.45)], [(0.04, 0.2), (0.04, 0.45)]]


def _village_house(rng):
    return [[(-0.28, -0.02), (-0.28, 0.4), (0.28, 0.4), (0.28, -0.02)],
            [(-0.38, 0.02), (0, -0.4), (0.38, 0.02)],
            [(-0.07, 0.4), (-0.07, 0.18), (0.07, 0.18), (0.07, 0.4)]]


def _village_houses(rng):
    out = []
    for cx, cy, s in ((-0.2, 0.05, 0.8), (0.2, 0.12, 0.65)):
        h = 0.3 * s
        out.append([(cx - h, cy), (cx - h, cy + 1.2 * h), (cx + h, cy + 1.2 * h), (cx + h, cy)])
        out.append([(cx - h * 1.25, cy + 0.05), (cx, cy - h * 1.2), (cx + h * 1.25, cy + 0.05)])
    return out


def _village_roof(rng):
    """A roof on two short walls standing on the ground, with a chimney."""
    return [[(-0.42, 0.05), (0, -0.35), (0.42, 0.05)], [(-0.3, -0.05), (-0.3, 0.35), (0.3, 0.35), (0.3, -0.05)],
            [(0.18, -0.12), (0.18, -0.34), (0.27, -0.34), (0.27, -0.04)], [(-0.45, 0.35), (0.45, 0.35)]]


def _village_tower(rng):
    return [[(-0.18, 0.42), (-0.18, -0.1), (0, -0.32), (0.18, -0.1), (0.18, 0.42), (-0.18, 0.42)],
            [(0, -0.32), (0, -0.46)], [(-0.06, -0.41), (0.06, -0.41)], [(-0.05, 0.42), (-0.05, 0.2), (0.05, 0.2),
                                                                      (0.05, 0.42)]]


def _farm_furrows(rng):
    n = int(rng.integers(3, 6))
    out = []
    for i in range(n):
        y = -0.35 + 0.7 * i / (n - 1)
        out.append([(-0.38, y + 0.08), (0.38, y - 0.08)])
    return out


def _farm_wheat(rng):
    out = [[(0, 0.45), (0, -0.42)]]
    for i in range(4):
        y = -0.35 + i * 0.17
        out.append([(0, y + 0.08), (-0.16, y - 0.06)])
        out.append([(0, y + 0.08), (0.16, y - 0.06)])
    return out


def _farm_dots(rng):
    n = int(rng.integers(3, 5))
    out = []
    for i in range(n):
        for j in range(n):
            out.append([(-0.3 + 0.6 * j / (n - 1), -0.3 + 0.6 * i / (n - 1))])
    return out


def _farm_rows(rng):
    out = []
    for y in (-0.25, 0.05, 0.35):
        for x in (-0.25, 0.0, 0.25):
            out.append([(x - 0.07, y - 0.08), (x, y), (x + 0.07, y - 0.08)])
    return out


def _water_waves(rng):
    n = int(rng.integers(2, 4))
    out = []
    for i in range(n):
        y = -0.25 + 0.5 * i / max(1, n - 1) if n > 1 else 0
        xs = np.linspace(-0.4, 0.4, 17)
        out.append([(x, y + 0.07 * np.sin(x * 18)) for x in xs])
    return out


def _water_wave(rng):
    xs = np.linspace(-0.42, 0.42, 25)
    return [[(x, 0.12 * np.sin(x * 9)) for x in xs]]


def _water_drops(rng):
    out = []
    n = int(rng.integers(1, 4))
    spots = [(0, 0)] if n == 1 else [(-0.2, -0.1), (0.2, 0.12), (-0.05, 0.3)][:n]
    s = 1.0 if n == 1 else 0.6
    for cx, cy in spots:
        drop = [(cx, cy - 0.35 * s)] + _ell(cx, cy + 0.1 * s, 0.18 * s, 0.2 * s, -30, 210, 12) + [(cx, cy - 0.35 * s)]
        out.append(drop)
    return out


def _water_lines(rng):
    return [[(-0.4, y), (-0.2, y - 0.06), (0, y), (0.2, y - 0.06), (0.4, y)] for y in (-0.2, 0.05, 0.3)]


def _monster_face(rng):
    teeth = [(-0.2 + 0.4 * i / 6, 0.18 + (0.08 if i % 2 else 0)) for i in range(7)]
    return [_ell(0, 0, 0.38, 0.38, -90, 270, 22), [(-0.15, -0.1)], [(0.15, -0.1)], teeth]


def _monster_x(rng):
    return [[(-0.35, -0.35), (0.35, 0.35)], [(0.35, -0.35), (-0.35, 0.35)]]


def _monster_horns(rng):
    head = _ell(0, 0.08, 0.3, 0.3, -20, 200, 16)
    return [head, [(0.28, -0.02), (0.4, -0.42), (0.12, -0.17)], [(-0.28, -0.02), (-0.4, -0.42), (-0.12, -0.17)],
            [(-0.12, 0.02)], [(0.12, 0.02)]]


def _monster_skull(rng):
    return [_ell(0, -0.08, 0.3, 0.28, 150, 390, 16) + [(0.2, 0.3), (-0.2, 0.3), (-0.26, 0.06)],
            _ell(-0.12, -0.08, 0.07, 0.07, 0, 360, 8), _ell(0.12, -0.08, 0.07, 0.07, 0, 360, 8),
            [(-0.08, 0.3), (-0.08, 0.2)], [(0.08, 0.3), (0.08, 0.2)]]


def _monster_spiky(rng):
    n = int(rng.integers(6, 10))
    pts = []
    for i in range(n * 2 + 1):
        a = np.radians(i * 180 / n)
        r = 0.4 if i % 2 == 0 else 0.2
        pts.append((r * np.cos(a), r * np.sin(a)))
    return [pts, [(-0.08, -0.04)], [(0.08, -0.04)]]


SYMBOLS = {
    "forest": {"conifer": _forest_conifer, "round-tree": _forest_round, "two-trees": _forest_two,
               "cloud-tree": _forest_cloud},
    "village": {"house": _village_house, "houses": _village_houses, "roof": _village_roof, "tower": _village_tower},
    "farm": {"furrows": _farm_furrows, "wheat": _farm_wheat, "dots": _farm_dots, "sprouts": _farm_rows},
    "water": {"waves": _water_waves, "wave": _water_wave, "drops": _water_drops, "ripples": _water_lines},
    "monster": {"face": _monster_face, "x": _monster_x, "horns": _monster_horns, "skull": _monster_skull,
                "spiky": _monster_spiky},
}


def symbol(name_terrain: str, design: str, rng: np.random.Generator) -> list[np.ndarray]:
    return [np.asarray(p, np.float64) for p in SYMBOLS[name_terrain][design](rng)]
