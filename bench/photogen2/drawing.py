"""What players draw on the sheet: one style per photo, each player with their own palette, pressure and symbols.

Colour is laid on subtractively (like pigment): `paper * (1 - alpha * (1 - colour))`, so pencil over a printed
line still shows the line and marker over marker gets darker. Every mark is made in the cell's own frame (unit
square -> the cell's quad), so uneven hand-ruled cells are filled the way the player would fill them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from .sheets import ONE, SHIFT, Sheet, cvpts
from .truth import N, printed_cells

STYLES = ("pencil", "marker", "crayon", "felttip", "watercolour", "ballpoint", "graphite", "letters", "mixed")
COLOUR_STYLES = ("pencil", "marker", "crayon", "felttip", "watercolour")
LETTERS = {"en": dict(forest="F", village="V", farm="A", water="W", monster="M"),
           "tr": dict(forest="O", village="K", farm="T", water="S", monster="C")}

# base hues per terrain; each player shifts them (different greens, blues ...)
PALETTES = {
    "forest": [(0.15, 0.5, 0.2), (0.3, 0.6, 0.2), (0.1, 0.4, 0.3), (0.45, 0.65, 0.25), (0.05, 0.35, 0.15)],
    "village": [(0.8, 0.2, 0.15), (0.7, 0.35, 0.2), (0.85, 0.45, 0.2), (0.6, 0.15, 0.2), (0.55, 0.35, 0.25)],
    "farm": [(0.95, 0.8, 0.2), (0.9, 0.7, 0.15), (0.95, 0.88, 0.35), (0.85, 0.65, 0.3)],
    "water": [(0.2, 0.45, 0.85), (0.3, 0.6, 0.9), (0.1, 0.3, 0.7), (0.35, 0.7, 0.85), (0.2, 0.55, 0.7)],
    "monster": [(0.5, 0.2, 0.6), (0.3, 0.1, 0.35), (0.15, 0.15, 0.15), (0.6, 0.1, 0.4)],
    "mountain": [(0.45, 0.3, 0.2), (0.35, 0.25, 0.2)],
    "wasteland": [(0.55, 0.55, 0.55), (0.45, 0.45, 0.5)],
}
SYMBOLS = {"forest": ("conifer", "round", "two"), "village": ("house", "houses", "roof"),
           "farm": ("furrows", "wheat", "dots"), "water": ("waves", "wave2", "drops"),
           "monster": ("face", "x", "horns")}


@dataclass
class Player:
    """One player's hand: everything that stays the same across the cells of one sheet."""
    style: str
    palette: dict[str, tuple[float, float, float]]
    pressure: float
    coverage: float
    hatch_angle: float
    symbols: dict[str, str]
    letters: str
    ink: tuple[float, float, float]
    colour_style: str  # for mixed: the colouring medium
    symbol_share: float
    mountain_mark: str
    extra: dict = field(default_factory=dict)

    def describe(self) -> dict:
        return {"style": self.style, "palette": {k: [round(v, 3) for v in c] for k, c in self.palette.items()},
                "pressure": round(self.pressure, 3), "coverage": round(self.coverage, 3),
                "hatch_angle": round(self.hatch_angle, 1), "symbols": self.symbols, "letters": self.letters,
                "ink": [round(v, 3) for v in self.ink], "colour_style": self.colour_style,
                "symbol_share": round(self.symbol_share, 3), "mountain_mark": self.mountain_mark}


def make_player(rng: np.random.Generator, style: str, difficulty: str) -> Player:
    hard = difficulty == "hard"
    palette = {}
    for t, opts in PALETTES.items():
        base = np.array(opts[rng.integers(len(opts))])
        palette[t] = tuple(float(v) for v in np.clip(base + rng.normal(0, 0.05, 3), 0.02, 0.98))
    ink = [(0.12, 0.18, 0.55), (0.1, 0.1, 0.12), (0.3, 0.3, 0.32)][rng.integers(3)]
    if style == "ballpoint":
        ink = (0.1 + rng.uniform(0, 0.1), 0.15 + rng.uniform(0, 0.1), 0.5 + rng.uniform(0, 0.2))
    if style == "graphite":
        g = rng.uniform(0.22, 0.45)
        ink = (g, g, g * 1.05)
    return Player(
        style=style, palette=palette,
        pressure=float(rng.uniform(0.35, 0.75) if hard else rng.uniform(0.5, 0.95)),
        coverage=float(rng.uniform(0.45, 0.85) if hard else rng.uniform(0.65, 1.0)),
        hatch_angle=float(rng.uniform(20, 70) * rng.choice([-1, 1])),
        symbols={t: str(v[rng.integers(len(v))]) for t, v in SYMBOLS.items()},
        letters=str(rng.choice(["en", "tr"])), ink=tuple(ink),
        colour_style=str(rng.choice(["pencil", "marker", "felttip", "crayon"])),
        symbol_share=float(rng.uniform(0.15, 0.4)),
        mountain_mark=str(rng.choice(["triangle", "fill", "triangle_fill"])),
    )


# ---------------------------------------------------------------- cell frame helpers

def _cell_map(quad: np.ndarray):
    """Unit square (s, t) -> pixel coordinates inside the quad (bilinear)."""
    tl, tr, br, bl = quad

    def f(st):
        st = np.asarray(st, float).reshape(-1, 2)
        s, t = st[:, :1], st[:, 1:]
        return (1 - t) * ((1 - s) * tl + s * tr) + t * ((1 - s) * bl + s * br)
    return f


class Roi:
    """A padded window of the sheet around a quad; masks are drawn in it and then blended into the sheet."""

    def __init__(self, img: np.ndarray, quad: np.ndarray, pad: float):
        h, w = img.shape[:2]
        x0, y0 = np.floor(quad.min(0) - pad).astype(int)
        x1, y1 = np.ceil(quad.max(0) + pad).astype(int)
        self.x0, self.y0 = max(0, x0), max(0, y0)
        self.x1, self.y1 = min(w, x1), min(h, y1)
        self.img = img
        self.off = np.array([self.x0, self.y0], float)

    def mask(self) -> np.ndarray:
        return np.zeros((max(1, self.y1 - self.y0), max(1, self.x1 - self.x0)), np.float32)

    def pts(self, p) -> np.ndarray:
        return cvpts(np.asarray(p, float).reshape(-1, 2) - self.off)

    def blend(self, alpha: np.ndarray, colour) -> None:
        if self.x1 <= self.x0 or self.y1 <= self.y0:
            return
        sub = self.img[self.y0:self.y1, self.x0:self.x1]
        a = np.clip(alpha, 0, 1)[..., None]
        sub *= 1 - a * (1 - np.asarray(colour, np.float32))


def _grain(rng, shape, sigma=0.6) -> np.ndarray:
    g = rng.uniform(0, 1, shape).astype(np.float32)
    return cv2.GaussianBlur(g, (0, 0), sigma) if sigma > 0 else g


def _polyline(mask, roi: Roi, pts, width: float, value: float = 1.0) -> None:
    cv2.polylines(mask, [roi.pts(pts)], False, value, max(1, int(round(width))), cv2.LINE_AA, SHIFT)


# ---------------------------------------------------------------- colour media

def _hatch(rng, f, mask, roi, angle, spacing, width, coverage, margin=0.06):
    a = np.radians(angle + rng.normal(0, 6))
    d = np.array([np.cos(a), np.sin(a)])
    nrm = np.array([-d[1], d[0]])
    for k in np.arange(-0.8, 0.8, spacing):
        if rng.random() > coverage + 0.1:
            continue
        c = np.array([0.5, 0.5]) + nrm * k
        # clip the line to the inner square
        ts = []
        for lo, hi, comp in ((margin, 1 - margin, 0), (margin, 1 - margin, 1)):
            if abs(d[comp]) < 1e-9:
                if not lo <= c[comp] <= hi:
                    ts = None
                    break
                continue
            t1, t2 = (lo - c[comp]) / d[comp], (hi - c[comp]) / d[comp]
            ts.append((min(t1, t2), max(t1, t2)))
        if ts is None or not ts:
            continue
        t0, t1 = max(t[0] for t in ts), min(t[1] for t in ts)
        if t1 <= t0:
            continue
        jit = rng.normal(0, 0.03, 2)
        p, q = c + d * (t0 + jit[0]), c + d * (t1 + jit[1])
        _polyline(mask, roi, f(np.stack([p, (p + q) / 2 + rng.normal(0, 0.01, 2), q])), width,
                  float(rng.uniform(0.6, 1.0)))


def colour_cell(rng, sheet: Sheet, quad, colour, medium: str, p: Player) -> None:
    cell = float(np.linalg.norm(quad[1] - quad[0]))
    f = _cell_map(quad)
    roi = Roi(sheet.image, quad, cell * 0.25)
    m = roi.mask()
    pressure = min(1.0, p.pressure * rng.uniform(0.75, 1.15))  # pressure also varies from cell to cell
    if medium == "pencil":
        _hatch(rng, f, m, roi, p.hatch_angle, rng.uniform(0.05, 0.1), max(1, cell * 0.035), p.coverage)
        if p.coverage > 0.8 and rng.random() < 0.5:
            _hatch(rng, f, m, roi, p.hatch_angle + 90, 0.1, max(1, cell * 0.03), p.coverage * 0.6)
        m = np.clip(m, 0, 1) * (0.4 + 0.8 * _grain(rng, m.shape, 0.5)) * pressure
        roi.blend(m * 0.85, colour)
    elif medium == "marker":
        bleed = cell * rng.uniform(0.02, 0.09)
        grow = (quad - quad.mean(0)) * (1 + 2 * bleed / cell) + quad.mean(0)
        cv2.fillConvexPoly(m, roi.pts(grow + rng.normal(0, cell * 0.02, (4, 2))), 1.0, cv2.LINE_AA, SHIFT)
        m = cv2.GaussianBlur(m, (0, 0), max(0.5, cell * 0.015))
        streak = np.zeros_like(m)
        _hatch(rng, f, streak, roi, p.hatch_angle, 0.14, cell * 0.08, 1.0, margin=0.0)
        roi.blend(m * (0.82 + 0.12 * np.clip(streak, 0, 1)), colour)
    elif medium == "crayon":
        _hatch(rng, f, m, roi, p.hatch_angle, 0.07, max(1, cell * 0.09), p.coverage, margin=0.02)
        wax = _grain(rng, m.shape, 0.8)
        wax = (wax > rng.uniform(0.35, 0.55) - 0.2 * pressure).astype(np.float32)
        roi.blend(np.clip(m, 0, 1) * wax * (0.55 + 0.35 * pressure), colour)
    elif medium == "felttip":
        n = int(rng.integers(5, 9))
        ang = np.radians(p.hatch_angle)
        for k in range(n):  # zigzag strokes, each laid separately so overlaps go darker
            s = np.zeros_like(m)
            t = (k + 0.5) / n
            pts = [(0.08, t + 0.08 * np.sin(ang)), (0.92, t - 0.08 * np.sin(ang))]
            _polyline(s, roi, f(np.array(pts) + rng.normal(0, 0.02, (2, 2))), cell * 0.16)
            m = 1 - (1 - m) * (1 - 0.75 * np.clip(s, 0, 1))
        roi.blend(m, colour)
    elif medium == "watercolour":
        grow = (quad - quad.mean(0)) * rng.uniform(0.95, 1.12) + quad.mean(0)
        cv2.fillConvexPoly(m, roi.pts(grow + rng.normal(0, cell * 0.04, (4, 2))), 1.0, cv2.LINE_AA, SHIFT)
        soft = cv2.GaussianBlur(m, (0, 0), cell * rng.uniform(0.03, 0.08))
        low = cv2.GaussianBlur(rng.uniform(0, 1, m.shape).astype(np.float32), (0, 0), cell * 0.2)
        low = (low - low.mean()) / (low.std() + 1e-6)
        edge = np.clip(soft - cv2.GaussianBlur(soft, (0, 0), cell * 0.06), 0, 1)
        a = soft * (rng.uniform(0.3, 0.55) + 0.07 * low) + 0.8 * edge
        roi.blend(np.clip(a, 0, 0.9), colour)
    else:
        raise ValueError(medium)


# ---------------------------------------------------------------- symbols and letters

def _symbol_strokes(kind: str, rng) -> list[np.ndarray]:
    """Strokes of a symbol in the unit square (jittered per cell by the caller)."""
    S = []
    if kind == "conifer":
        S += [np.array([[0.5, 0.15], [0.25, 0.7], [0.75, 0.7], [0.5, 0.15]]), np.array([[0.5, 0.7], [0.5, 0.88]])]
    elif kind == "round":
        t = np.linspace(0, 2 * np.pi, 24)
        S += [np.stack([0.5 + 0.24 * np.cos(t), 0.42 + 0.24 * np.sin(t)], 1), np.array([[0.5, 0.66], [0.5, 0.88]])]
    elif kind == "two":
        for cx in (0.32, 0.68):
            S += [np.array([[cx, 0.2], [cx - 0.16, 0.65], [cx + 0.16, 0.65], [cx, 0.2]]),
                  np.array([[cx, 0.65], [cx, 0.82]])]
    elif kind == "house":
        S += [np.array([[0.25, 0.45], [0.5, 0.18], [0.75, 0.45]]),
              np.array([[0.3, 0.42], [0.3, 0.82], [0.7, 0.82], [0.7, 0.42]]),
              np.array([[0.45, 0.82], [0.45, 0.62], [0.55, 0.62], [0.55, 0.82]])]
    elif kind == "houses":
        for cx, s in ((0.33, 0.2), (0.67, 0.2)):
            S += [np.array([[cx - s, 0.55], [cx, 0.3], [cx + s, 0.55]]),
                  np.array([[cx - s * 0.8, 0.52], [cx - s * 0.8, 0.8], [cx + s * 0.8, 0.8], [cx + s * 0.8, 0.52]])]
    elif kind == "roof":
        S += [np.array([[0.15, 0.6], [0.5, 0.25], [0.85, 0.6]]), np.array([[0.3, 0.6], [0.3, 0.8], [0.7, 0.8],
                                                                             [0.7, 0.6]])]
    elif kind == "furrows":
        for y in (0.3, 0.5, 0.7):
            S.append(np.array([[0.2, y], [0.8, y - 0.05]]))
    elif kind == "wheat":
        for cx in (0.35, 0.65):
            S.append(np.array([[cx, 0.85], [cx, 0.2]]))
            for y in (0.3, 0.42, 0.54):
                S += [np.array([[cx, y + 0.08], [cx - 0.1, y]]), np.array([[cx, y + 0.08], [cx + 0.1, y]])]
    elif kind == "dots":
        for y in (0.3, 0.5, 0.7):
            for x in (0.3, 0.5, 0.7):
                S.append(np.array([[x, y], [x + 0.02, y + 0.02]]))
    elif kind in ("waves", "wave2"):
        rows = (0.35, 0.6) if kind == "wave2" else (0.3, 0.5, 0.7)
        x = np.linspace(0.15, 0.85, 20)
        for y in rows:
            S.append(np.stack([x, y + 0.06 * np.sin((x - 0.15) * 4 * np.pi)], 1))
    elif kind == "drops":
        t = np.linspace(0, 2 * np.pi, 16)
        for cx, cy in ((0.35, 0.4), (0.65, 0.6)):
            S.append(np.stack([cx + 0.1 * np.cos(t), cy + 0.14 * np.sin(t) * (1 + 0.5 * (np.sin(t) < 0))], 1))
    elif kind == "face":
        t = np.linspace(0, 2 * np.pi, 24)
        S += [np.stack([0.5 + 0.3 * np.cos(t), 0.5 + 0.3 * np.sin(t)], 1),
              np.array([[0.38, 0.42], [0.41, 0.45]]), np.array([[0.6, 0.42], [0.63, 0.45]]),
              np.array([[0.35, 0.65], [0.42, 0.6], [0.5, 0.66], [0.58, 0.6], [0.65, 0.65]])]
    elif kind == "x":
        S += [np.array([[0.2, 0.2], [0.8, 0.8]]), np.array([[0.8, 0.2], [0.2, 0.8]])]
    elif kind == "horns":
        t = np.linspace(0, np.pi, 14)
        S += [np.stack([0.5 + 0.25 * np.cos(t), 0.55 + 0.25 * np.sin(t)], 1),
              np.array([[0.25, 0.55], [0.18, 0.2], [0.4, 0.45]]), np.array([[0.75, 0.55], [0.82, 0.2], [0.6, 0.45]]),
              np.array([[0.4, 0.55], [0.43, 0.58]]), np.array([[0.58, 0.55], [0.61, 0.58]])]
    elif kind == "triangle":
        S += [np.array([[0.2, 0.78], [0.5, 0.2], [0.8, 0.78], [0.2, 0.78]])]
    elif kind == "crosshatch":
        for k in np.linspace(0.15, 0.85, 5):
            S += [np.array([[0.1, k], [k, 0.1]]), np.array([[k, 0.9], [0.9, k]])]
    else:
        raise ValueError(kind)
    return S


def symbol_cell(rng, sheet: Sheet, quad, kind: str, ink, width_frac: float, pencil: bool) -> None:
    cell = float(np.linalg.norm(quad[1] - quad[0]))
    roi = Roi(sheet.image, quad, cell * 0.2)
    m = roi.mask()
    f = _cell_map(quad)
    sc = rng.uniform(0.75, 1.05)
    off = rng.normal(0, 0.05, 2)
    rot = np.radians(rng.normal(0, 8))
    R = np.array([[np.cos(rot), -np.sin(rot)], [np.sin(rot), np.cos(rot)]])
    for s in _symbol_strokes(kind, rng):
        s = (s - 0.5) @ R.T * sc + 0.5 + off + rng.normal(0, 0.012, s.shape)
        _polyline(m, roi, f(s), max(1, cell * width_frac))
    m = np.clip(m, 0, 1)
    if pencil:
        m *= 0.55 + 0.45 * _grain(rng, m.shape, 0.5)
    roi.blend(m * 0.92, ink)


def letter_cell(rng, sheet: Sheet, quad, letter: str, ink, pencil: bool) -> None:
    cell = float(np.linalg.norm(quad[1] - quad[0]))
    roi = Roi(sheet.image, quad, cell * 0.2)
    m = roi.mask()
    # draw the letter upright in a square patch, then warp it into the cell
    size = 64
    patch = np.zeros((size, size), np.float32)
    font = [cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, cv2.FONT_HERSHEY_PLAIN,
            cv2.FONT_HERSHEY_DUPLEX][int(rng.integers(4))]
    th = int(rng.integers(3, 6))
    scale = cv2.getFontScaleFromHeight(font, 36, th)
    (tw, tht), base = cv2.getTextSize(letter, font, scale, th)
    cv2.putText(patch, letter, (int((size - tw) / 2), int((size + tht) / 2)), font, scale, 1.0, th, cv2.LINE_AA)
    sc = rng.uniform(0.6, 0.95)
    rot = np.radians(rng.normal(0, 10))
    shear = rng.normal(0, 0.15)
    src = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], float) - 0.5
    A = np.array([[np.cos(rot), -np.sin(rot)], [np.sin(rot), np.cos(rot)]]) @ np.array([[1, shear], [0, 1]])
    unit = unit @ A.T * sc + 0.5 + rng.normal(0, 0.05, 2)
    dst = (_cell_map(quad)(unit) - roi.off - 0.5).astype(np.float32)
    H = cv2.getPerspectiveTransform(src, dst)
    m = cv2.warpPerspective(patch, H, (m.shape[1], m.shape[0]), flags=cv2.INTER_LINEAR)
    if pencil:
        m *= 0.55 + 0.45 * _grain(rng, m.shape, 0.5)
    roi.blend(np.clip(m, 0, 1) * 0.9, ink)


# ---------------------------------------------------------------- one terrain in one cell, a whole sheet

def draw_terrain(rng, sheet: Sheet, quad, terrain: str, p: Player) -> None:
    style = p.style
    if style in COLOUR_STYLES:
        colour_cell(rng, sheet, quad, p.palette[terrain], style, p)
        if terrain == "monster" and rng.random() < 0.5:
            symbol_cell(rng, sheet, quad, p.symbols["monster"], (0.12, 0.1, 0.12), 0.05, style == "pencil")
    elif style in ("ballpoint", "graphite"):
        if style == "ballpoint" and p.extra.get("hatch_under", False) and terrain in ("forest", "water"):
            colour_cell(rng, sheet, quad, p.ink, "pencil", p)
        symbol_cell(rng, sheet, quad, p.symbols[terrain], p.ink, 0.04 if style == "ballpoint" else 0.05,
                    style == "graphite")
    elif style == "letters":
        letter_cell(rng, sheet, quad, LETTERS[p.letters][terrain], p.ink, p.ink[0] == p.ink[1])
    elif style == "mixed":
        u = rng.random()
        if u >= p.symbol_share:
            colour_cell(rng, sheet, quad, p.palette[terrain], p.colour_style, p)
        if u < p.symbol_share or u > 0.6:
            symbol_cell(rng, sheet, quad, p.symbols[terrain], (0.15, 0.15, 0.17), 0.05, True)
    else:
        raise ValueError(f"unknown style {style!r}")


def draw_feature(rng, sheet: Sheet, quad, terrain: str, p: Player) -> None:
    """A mountain or wasteland the player drew themselves (grids with nothing printed)."""
    if terrain == "mountain":
        if p.mountain_mark in ("fill", "triangle_fill"):
            medium = p.style if p.style in COLOUR_STYLES else "pencil"
            colour_cell(rng, sheet, quad, p.palette["mountain"], medium, p)
        if p.mountain_mark in ("triangle", "triangle_fill"):
            symbol_cell(rng, sheet, quad, "triangle", (0.15, 0.12, 0.1), 0.06, p.style != "ballpoint")
    else:
        symbol_cell(rng, sheet, quad, "crosshatch", (0.3, 0.3, 0.32), 0.04, True)
        if p.style in COLOUR_STYLES:
            colour_cell(rng, sheet, quad, p.palette["wasteland"], "pencil", p)


def mark_coin(rng, sheet: Sheet, x: float, y: float, r: float, how: str, p: Player) -> None:
    quad = np.array([[x - r, y - r], [x + r, y - r], [x + r, y + r], [x - r, y + r]])
    roi = Roi(sheet.image, quad, r)
    m = roi.mask()
    ink = p.ink if p.style in ("ballpoint", "graphite", "letters") else (0.15, 0.15, 0.18)
    if how == "fill":
        cv2.circle(m, tuple(roi.pts([(x, y)])[0]), int(r * 0.95 * ONE), 1.0, -1, cv2.LINE_AA, SHIFT)
        m *= 0.5 + 0.5 * _grain(rng, m.shape, 0.6)
        colour = p.palette["farm"] if p.style in COLOUR_STYLES else ink
        roi.blend(m * 0.9, colour if rng.random() < 0.5 else ink)
        return
    j = rng.normal(0, r * 0.1, (4, 2))
    _polyline(m, roi, np.array([[x - r, y - r], [x + r, y + r]]) + j[:2], max(1, r * 0.18))
    _polyline(m, roi, np.array([[x + r, y - r], [x - r, y + r]]) + j[2:], max(1, r * 0.18))
    roi.blend(np.clip(m, 0, 1) * 0.9, ink)


def draw_sheet(rng, sheet: Sheet, grid: list[list[str]], p: Player, *, legend: bool, coins: int) -> dict:
    """Draw the player's map, legend row and coins on the sheet; returns what was drawn for the truth."""
    if p.style == "ballpoint":
        p.extra["hatch_under"] = bool(rng.random() < 0.4)
    printed = printed_cells(sheet.side)
    for r in range(N):
        for c in range(N):
            t = grid[r][c]
            q = sheet.cell_quad(r, c)
            if (r, c) in printed:
                if not sheet.printed:
                    draw_feature(rng, sheet, q, t, p)
                continue
            if t != "empty":
                draw_terrain(rng, sheet, q, t, p)
    if legend and sheet.legend:
        for terrain, q in sheet.legend:
            draw_terrain(rng, sheet, q, terrain, p)
    how = str(rng.choice(["cross", "fill"]))
    for x, y, r in sheet.coins[:coins]:
        mark_coin(rng, sheet, x, y, r, how, p)
    np.clip(sheet.image, 0, 1, out=sheet.image)
    return {"coin_mark": how if coins else None, **p.describe()}
