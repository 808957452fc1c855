"""What the player puts on the sheet: terrain in the cells (in one of the 9 styles) and everything else.

Each cell is drawn on its own small square canvas (with room for strokes over the
borders) as an RGB transmittance, then warped onto the cell's quad of the sheet and
multiplied in: hand-ruled, uneven cells get marks that follow them. A `Player` holds
everything that stays the same across one sheet (palette, symbols, fill habits).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from .sheets import Sheet, cell_quad
from .symbols import VARIANTS, placed, symbol_lines
from .util import fill_poly, grain, hand_text, ink, polyline, pts, smooth_noise

HUES = {  # (hue range in degrees, saturation range, value range) per terrain: players differ a lot
    "forest": ((75, 175), (0.35, 0.9), (0.3, 0.75)),
    "village": ((-25, 30), (0.45, 0.9), (0.4, 0.85)),  # red/orange/brown, pink/purple come from the wrap below
    "farm": ((30, 58), (0.3, 0.85), (0.75, 1.0)),
    "water": ((185, 230), (0.45, 0.95), (0.5, 0.95)),
    "monster": ((260, 320), (0.3, 0.8), (0.12, 0.5)),
}
LETTERS = {"en": dict(forest="F", village="V", farm="A", water="W", monster="M"),
           "tr": dict(forest="O", village="K", farm="T", water="S", monster="C")}
COLOUR_STYLES = ("pencil", "marker", "crayon", "watercolour")


def hsv_rgb(h: float, s: float, v: float) -> tuple[float, float, float]:
    h = (h % 360) / 60
    i, f = int(h), h - int(h)
    p, q, t = v * (1 - s), v * (1 - s * f), v * (1 - s * (1 - f))
    return [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)][i % 6]


@dataclass
class Player:
    style: str
    palette: dict[str, tuple[float, float, float]]
    mode: dict[str, str]
    symbol: dict[str, str]
    media: dict[str, str]  # for "mixed": which medium colours each terrain
    with_symbol: dict[str, float]  # chance of a symbol in a cell of that terrain
    pen: tuple[float, float, float]
    pressure: float
    angle: float  # hatching direction habit
    overflow: float  # how far strokes run past the cell border (cell units)
    lang: str
    upper: bool
    font: int
    extras: dict = field(default_factory=dict)


def make_player(style: str, rng: np.random.Generator) -> Player:
    palette = {}
    for t, (hr, sr, vr) in HUES.items():
        h = rng.uniform(*hr)
        if t == "village" and rng.random() < 0.25:
            h = rng.uniform(300, 345)  # pink / purple villages
        if t == "monster" and rng.random() < 0.35:
            palette[t] = tuple(rng.choice([(0.12, 0.12, 0.12), (0.45, 0.08, 0.1), (0.4, 0.4, 0.42)]))
            continue
        palette[t] = hsv_rgb(h, rng.uniform(*sr), rng.uniform(*vr))
    modes = ["full", "full", "full", "partial", "hatch", "outline", "corner"]
    mode = {t: str(rng.choice(modes)) if rng.random() < 0.45 else "full" for t in HUES}
    symbol = {t: str(rng.choice(VARIANTS[t])) for t in HUES}
    media = {t: str(rng.choice(["pencil", "marker", "watercolour", "crayon", "none"])) for t in HUES}
    if all(m == "none" for m in media.values()):
        media["forest"] = "pencil"
    with_symbol = {t: (1.0 if media[t] == "none" else rng.uniform(0.0, 0.9)) for t in HUES}
    pens = [(0.08, 0.12, 0.45), (0.08, 0.08, 0.1), (0.6, 0.1, 0.1)]
    pen = pens[rng.integers(3)] if style != "graphite" else (0.32, 0.32, 0.34)
    if style in ("pencil", "crayon", "watercolour", "marker") and rng.random() < 0.3:
        mode = {t: str(rng.choice(["full", "partial"])) for t in HUES}
    return Player(style=style, palette=palette, mode=mode, symbol=symbol, media=media, with_symbol=with_symbol,
                  pen=pen, pressure=float(rng.uniform(0.35, 1.0)), angle=float(rng.uniform(0, 180)),
                  overflow=float(rng.uniform(0.0, 0.15)), lang=str(rng.choice(["en", "tr"])),
                  upper=bool(rng.random() < 0.7),
                  font=int(rng.choice([cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
                                       cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX])))


def public(p: Player) -> dict:
    """The player's parameters as plain JSON."""
    return {"style": p.style, "palette": {k: [round(float(x), 3) for x in v] for k, v in p.palette.items()},
            "mode": p.mode, "symbol": p.symbol, "media": p.media if p.style == "mixed" else {},
            "pen": [float(x) for x in p.pen], "pressure": round(p.pressure, 3), "overflow": round(p.overflow, 3),
            "letters_lang": p.lang, "upper": p.upper, **p.extras}


# ------------------------------------------------------------------------------------ cell canvas

class Cell:
    """A local canvas: the cell spans [m, m + S] in both axes; drawing happens in cell units (0..1)."""

    def __init__(self, S: int, rng: np.random.Generator):
        self.S, self.m = S, int(round(0.3 * S))
        n = S + 2 * self.m
        self.T = np.ones((n, n, 3), np.float32)
        self.rng = rng
        self.n = n

    def px(self, p) -> np.ndarray:
        return np.asarray(p, float) * self.S + self.m

    def blank(self) -> np.ndarray:
        return np.zeros((self.n, self.n), np.float32)

    def apply(self, cover: np.ndarray, rgb) -> None:
        ink(self.T, cover, rgb)

    def region(self, over: float, shrink: float = 0.0) -> np.ndarray:
        """The area a player means to fill: the cell, corners pushed in/out by a few %, as a mask."""
        r = self.rng
        q = np.array([(0, 0), (1, 0), (1, 1), (0, 1)], float)
        q = q + (np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)]) * (over - shrink)) + r.normal(0, 0.03, (4, 2))
        m = self.blank()
        fill_poly(m, self.px(q))
        return m

    def lines(self, lines, thick_u: float, value: float = 1.0) -> np.ndarray:
        c = self.blank()
        for ln in lines:
            polyline(c, self.px(ln), max(1.0, thick_u * self.S), value)
        return c


def hatch(cell: Cell, angle: float, spacing: float, thick: float, jitter: float = 0.02) -> np.ndarray:
    """Parallel strokes across the whole canvas (clip them with a region afterwards)."""
    c = cell.blank()
    a = np.radians(angle)
    d = np.array([np.cos(a), np.sin(a)])
    nrm = np.array([-d[1], d[0]])
    for s in np.arange(-1.0, 1.0, spacing):
        o = np.array([0.5, 0.5]) + nrm * (s + cell.rng.normal(0, jitter))
        p0, p1 = o - d * 0.95, o + d * 0.95
        polyline(c, cell.px([p0, p1 + cell.rng.normal(0, jitter, 2)]), max(1.0, thick * cell.S),
                 cell.rng.uniform(0.7, 1.0))
    return c


def scribble(cell: Cell, n: int, thick: float, extent: float = 0.45) -> np.ndarray:
    r = cell.rng
    p = np.array([0.5, 0.5]) + r.uniform(-extent, extent, (n, 2))
    p = np.sort(p.view([("x", float), ("y", float)]), order="y").view(float).reshape(-1, 2) if r.random() < 0.5 else p
    c = cell.blank()
    polyline(c, cell.px(p), max(1.0, thick * cell.S))
    return c


# ----------------------------------------------------------------------------------------- media

def colour_fill(cell: Cell, terrain: str, p: Player, medium: str) -> None:
    r = cell.rng
    rgb = p.palette[terrain]
    mode = p.mode[terrain]
    over = p.overflow * r.uniform(0.5, 1.5)
    if mode == "corner":
        cx, cy = r.choice([0.22, 0.78]), r.choice([0.22, 0.78])
        m = cell.blank()
        cv2.circle(m, tuple(int(v) for v in cell.px((cx, cy))), int(cell.S * r.uniform(0.1, 0.17)), 1.0, -1,
                   cv2.LINE_AA)
        cell.apply(m * (0.6 + 0.4 * p.pressure), rgb)
        return
    region = cell.region(over, 0.0 if mode != "partial" else r.uniform(0.1, 0.3))
    if mode == "partial":
        blob = (smooth_noise(region.shape, r, cell.S * 0.4, 2) > r.uniform(-0.3, 0.1)).astype(np.float32)
        region *= blob
    if mode == "outline":
        ring = region - cv2.erode(region, np.ones((max(3, cell.S // 8),) * 2, np.uint8))
        region = np.clip(ring, 0, 1)
    if medium == "pencil":
        g = grain(region.shape, r, 0.7)
        if mode == "hatch" or r.random() < 0.5:
            strokes = hatch(cell, p.angle + r.normal(0, 8), r.uniform(0.05, 0.12) if mode == "hatch" else
                            r.uniform(0.025, 0.06), r.uniform(0.02, 0.05))
            cov = strokes * region
        else:
            cov = cv2.GaussianBlur(region, (0, 0), cell.S * 0.02) * (0.6 + 0.4 * smooth_noise(region.shape, r,
                                                                                                 cell.S * 0.3, 2))
        cov = cov * p.pressure * (0.45 + 0.65 * g)
        cell.apply(np.clip(cov, 0, 1), rgb)
    elif medium == "marker":
        a = np.radians(p.angle)
        bw = r.uniform(0.15, 0.3)
        d = np.array([np.cos(a), np.sin(a)])
        nrm = np.array([-d[1], d[0]])
        bleed = cv2.GaussianBlur(region, (0, 0), max(0.5, cell.S * 0.012))
        for s in np.arange(-0.8, 0.8, bw * 0.8):
            b = cell.blank()
            o = np.array([0.5, 0.5]) + nrm * s
            polyline(b, cell.px([o - d, o + d]), bw * cell.S)
            streak = 0.8 + 0.2 * smooth_noise(b.shape, r, cell.S * 0.06, 1)
            cell.apply(np.clip(b * bleed * streak * 0.85, 0, 1), rgb)
    elif medium == "crayon":
        g = grain(region.shape, r, 1.0)
        strokes = hatch(cell, p.angle + r.normal(0, 15), r.uniform(0.08, 0.14), r.uniform(0.1, 0.16), 0.04)
        wax = (g > 0.62 - 0.3 * p.pressure).astype(np.float32) * strokes
        reg = cell.region(over + 0.05)
        cell.apply(np.clip(wax * reg * 0.9, 0, 1), rgb)
    elif medium == "watercolour":
        reg = cv2.GaussianBlur(region, (0, 0), cell.S * 0.03)
        reg = (reg + 0.25 * smooth_noise(reg.shape, r, cell.S * 0.2, 2) > 0.5).astype(np.float32)
        reg = cv2.GaussianBlur(reg, (0, 0), max(0.8, cell.S * 0.01))
        edge = np.clip(reg - cv2.GaussianBlur(reg, (0, 0), cell.S * 0.05), 0, 1)
        wash = reg * r.uniform(0.3, 0.75) * (0.75 + 0.25 * smooth_noise(reg.shape, r, cell.S * 0.25, 3))
        if r.random() < 0.3:  # a bloom: a ring of pigment where a drop dried
            bl = cell.blank()
            cv2.circle(bl, tuple(int(v) for v in cell.px(r.uniform(0.2, 0.8, 2))), int(cell.S * r.uniform(0.1, 0.25)),
                       1.0, max(1, cell.S // 30), cv2.LINE_AA)
            wash += cv2.GaussianBlur(bl, (0, 0), 1.0) * 0.3 * reg
        cell.apply(np.clip(wash + 1.5 * edge, 0, 1), rgb)


def draw_symbol(cell: Cell, name: str, rgb, thick: float, value: float, p: Player, small: bool = False) -> None:
    r = cell.rng
    size = r.uniform(0.3, 0.5) if small else r.uniform(0.5, 0.95)
    cen = np.array([0.5, 0.5]) + r.normal(0, 0.06 if not small else 0.18, 2)
    lines = placed(symbol_lines(name, r), r, size, r.normal(0, 12), 0.012)
    cov = cell.lines([ln * 1.0 - 0.5 + cen for ln in lines], thick, 1.0)
    if p.style == "graphite":
        cov *= 0.55 + 0.45 * grain(cov.shape, r, 0.7)
        if r.random() < 0.3:  # smudge: the hand drags graphite sideways
            sm = cv2.GaussianBlur(cov, (0, 0), cell.S * 0.06)
            cov = np.maximum(cov, 0.35 * sm)
    cell.apply(np.clip(cov * value, 0, 1), rgb)


def draw_letter(cell: Cell, terrain: str, p: Player) -> None:
    r = cell.rng
    ch = LETTERS[p.lang][terrain]
    ch = ch if p.upper else ch.lower()
    c = cell.blank()
    h = cell.S * r.uniform(0.35, 0.7)
    base = cv2.getTextSize("H", p.font, 1.0, 1)[0][1]
    scale = h / base
    t = max(1, int(round(cell.S * r.uniform(0.03, 0.07))))
    (tw, th), _ = cv2.getTextSize(ch, p.font, scale, t)
    x = cell.m + cell.S * 0.5 - tw / 2 + r.normal(0, 0.08) * cell.S
    y = cell.m + cell.S * 0.5 + th / 2 + r.normal(0, 0.08) * cell.S
    cv2.putText(c, ch, (int(x), int(y)), p.font, scale, 1.0, t, cv2.LINE_AA)
    M = cv2.getRotationMatrix2D((cell.n / 2, cell.n / 2), r.normal(0, 12), 1.0)
    M[0, 1] += r.uniform(-0.2, 0.1)
    c = cv2.warpAffine(c, M, (cell.n, cell.n))
    cell.apply(c * r.uniform(0.75, 1.0), p.pen)


def draw_terrain(cell: Cell, terrain: str, p: Player) -> None:
    """One cell of one terrain in the player's style."""
    r = cell.rng
    st = p.style
    if st in COLOUR_STYLES:
        colour_fill(cell, terrain, p, st)
    elif st == "felttip":
        rgb = p.palette[terrain]
        kind = p.mode[terrain]
        if kind in ("full", "outline", "partial"):
            ring = cell.region(-0.06) - cv2.erode(cell.region(-0.06), np.ones((max(2, cell.S // 18),) * 2, np.uint8))
            cell.apply(np.clip(ring, 0, 1), rgb)
        if kind in ("full", "hatch"):
            cell.apply(hatch(cell, p.angle, r.uniform(0.08, 0.16), 0.025) * cell.region(-0.08), rgb)
        draw_symbol(cell, p.symbol[terrain], rgb, 0.035, 1.0, p, small=kind == "corner")
    elif st == "ballpoint":
        pat = p.mode[terrain]
        pen = p.extras.setdefault("ballpens", {}).get(terrain) or p.pen
        if pat in ("full", "partial"):
            cell.apply(scribble(cell, int(r.integers(10, 30)), 0.02) * cell.region(0.05) * 0.9, pen)
        elif pat == "hatch":
            cell.apply(hatch(cell, p.angle, 0.09, 0.018) * cell.region(0.0), pen)
        if pat in ("outline", "corner", "partial") or terrain in ("village", "monster") or r.random() < 0.5:
            draw_symbol(cell, p.symbol[terrain], pen, 0.025, 0.95, p, small=pat == "corner")
    elif st == "graphite":
        draw_symbol(cell, p.symbol[terrain], (0.3, 0.3, 0.33), 0.04 * (0.6 + 0.6 * p.pressure),
                    0.5 + 0.5 * p.pressure, p)
    elif st == "letters":
        draw_letter(cell, terrain, p)
    elif st == "mixed":
        medium = p.media[terrain]
        if medium != "none":
            colour_fill(cell, terrain, p, medium)
        if r.random() < p.with_symbol[terrain]:
            col = p.pen if r.random() < 0.7 else tuple(np.asarray(p.palette[terrain]) * 0.6)
            draw_symbol(cell, p.symbol[terrain], col, 0.035, 0.9, p)


def stamp(img: np.ndarray, quad: np.ndarray, cell: Cell) -> None:
    """Warp the cell canvas onto its quad on the sheet and multiply it in."""
    m, S = cell.m, cell.S
    src = np.float32([(m, m), (m + S, m), (m + S, m + S), (m, m + S)])
    M = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    n = cell.n
    ext = cv2.perspectiveTransform(np.float32([[(0, 0), (n, 0), (n, n), (0, n)]]), M)[0]
    H, W = img.shape[:2]
    x0, y0 = max(int(np.floor(ext[:, 0].min())), 0), max(int(np.floor(ext[:, 1].min())), 0)
    x1, y1 = min(int(np.ceil(ext[:, 0].max())) + 1, W), min(int(np.ceil(ext[:, 1].max())) + 1, H)
    if x0 >= x1 or y0 >= y1:
        return
    T = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], float) @ M
    warped = cv2.warpPerspective(cell.T, T, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(1, 1, 1))
    img[y0:y1, x0:x1] *= warped


def quad_side(q: np.ndarray) -> float:
    return float(np.mean([np.hypot(*(q[(i + 1) % 4] - q[i])) for i in range(4)]))


# ------------------------------------------------------------------------------------------ sheet

def draw_map(sheet: Sheet, grid: list[list[str]], p: Player, rng: np.random.Generator) -> dict:
    """All terrain cells, then ghosts of erased marks, a corrected cell, doodles; returns what was done."""
    lat = sheet.lattice
    S = int(round(quad_side(cell_quad(lat, 0, 0))))
    if p.style == "ballpoint":
        pens = [(0.08, 0.12, 0.45), (0.08, 0.08, 0.1), (0.6, 0.1, 0.1)]
        k = int(rng.integers(1, 4))
        chosen = [pens[i] for i in rng.choice(3, k, replace=False)]
        p.extras["ballpens"] = {t: chosen[i % k] for i, t in enumerate(rng.permutation(list(HUES)))}
    info = {"ghosts": [], "corrected": None}
    empties = [(r, c) for r in range(11) for c in range(11) if grid[r][c] == "empty"]
    filled = [(r, c) for r in range(11) for c in range(11) if grid[r][c] in HUES]
    corrected = tuple(filled[rng.integers(len(filled))]) if filled and rng.random() < 0.3 else None
    for r in range(11):
        for c in range(11):
            t = grid[r][c]
            if t not in HUES:
                continue
            cell = Cell(S, rng)
            if (r, c) == corrected:  # a wrong terrain first, then scribbled over by the right one
                wrong = str(rng.choice([x for x in HUES if x != t]))
                draw_symbol(cell, p.symbol[wrong], p.pen if p.style != "graphite" else (0.3, 0.3, 0.33), 0.03, 0.5,
                            p, small=True)
                info["corrected"] = [r, c, wrong]
            draw_terrain(cell, t, p)
            stamp(sheet.img, cell_quad(lat, r, c), cell)
    for _ in range(int(rng.integers(0, 4)) if empties else 0):  # erased marks: faint, smeared ghosts
        r, c = empties[rng.integers(len(empties))]
        t = str(rng.choice(list(HUES)))
        cell = Cell(S, rng)
        draw_terrain(cell, t, p)
        ghost = 1 - (1 - cell.T) * rng.uniform(0.06, 0.18)
        cell.T = cv2.GaussianBlur(ghost, (0, 0), max(0.5, S * 0.02))
        stamp(sheet.img, cell_quad(lat, r, c), cell)
        info["ghosts"].append([r, c, t])
    return info


def write_extras(sheet: Sheet, p: Player, rng: np.random.Generator, kind: str) -> dict:
    """Name, season scores, coins, the legend row and margin doodles."""
    img = sheet.img
    ppm = sheet.ppm
    pen = p.pen if p.style != "graphite" else (0.3, 0.3, 0.33)
    th = max(1.0, 0.35 * ppm)
    out: dict = {}
    name = str(rng.choice(["Ayse", "Mehmet", "Zeynep", "Tom", "Anna", "Kerem", "Elif", "Max", "Lena", "Can", "Deniz",
                           "Sam", "Ali", "Jo"]))
    x, y, h = sheet.name_at
    if h > 0 and rng.random() < 0.85:
        hand_text(img, name, (x, y), h, pen, rng, th, p.font)
        out["name"] = name
    scores = []
    for bx, by, bw, bh in sheet.boxes:
        if rng.random() < 0.6:
            v = str(int(rng.integers(-5, 40)))
            hand_text(img, v, (bx + bw * 0.2, by + bh * 0.78), min(bh * 0.55, bw * 0.5), pen, rng, th, p.font)
            scores.append(v)
    out["scores_written"] = len(scores)
    coins = None
    if sheet.coins:
        coins = int(rng.integers(0, 15))
        how = str(rng.choice(["fill", "cross", "dot", "tick"]))
        for x, y, rad in sheet.coins[:coins]:
            c = np.zeros((int(rad * 3), int(rad * 3)), np.float32)
            o = rad * 1.5 + rng.normal(0, rad * 0.1, 2)
            if how == "fill":
                cv2.circle(c, tuple(int(v) for v in o), int(rad * rng.uniform(0.6, 1.05)), 1.0, -1, cv2.LINE_AA)
                c *= 0.6 + 0.4 * grain(c.shape, rng)
            elif how == "cross":
                polyline(c, [o - rad * 0.8, o + rad * 0.8], th * 1.2)
                polyline(c, [o + [rad * 0.8, -rad * 0.8], o + [-rad * 0.8, rad * 0.8]], th * 1.2)
            elif how == "dot":
                cv2.circle(c, tuple(int(v) for v in o), int(rad * 0.4), 1.0, -1, cv2.LINE_AA)
            else:
                polyline(c, [o + [-rad * 0.6, 0], o + [-rad * 0.1, rad * 0.6], o + [rad * 0.8, -rad * 0.8]], th * 1.2)
            ink(img, c, pen if how != "fill" or p.style == "graphite" else p.palette["farm"] if rng.random() < 0.3
                else pen, int(x - rad * 1.5), int(y - rad * 1.5))
        out["coin_mark"] = how
    legend = False
    if sheet.legend and rng.random() < 0.7:
        legend = True
        for q, t in zip(sheet.legend, HUES, strict=False):
            cell = Cell(int(round(quad_side(q))), rng)
            draw_terrain(cell, t, p)
            stamp(img, q, cell)
    n_doodle = int(rng.integers(0, 3))
    H, W = img.shape[:2]
    g0, g1 = sheet.lattice[0, 0], sheet.lattice[11, 11]
    cellpx = quad_side(cell_quad(sheet.lattice, 0, 0))
    done = 0
    for _ in range(20):
        if done >= n_doodle:
            break
        x, y = rng.uniform(0.05 * W, 0.95 * W), rng.uniform(0.03 * H, 0.97 * H)
        lo = np.minimum(sheet.lattice.reshape(-1, 2).min(0), np.minimum(g0, g1)) - cellpx * 0.8
        hi = sheet.lattice.reshape(-1, 2).max(0) + cellpx * 0.8
        if lo[0] < x < hi[0] and lo[1] < y < hi[1]:
            continue
        s = cellpx * rng.uniform(0.4, 1.0)
        c = np.zeros((int(s * 2), int(s * 2)), np.float32)
        t = np.linspace(0, rng.uniform(4, 12), 60)
        kindd = rng.integers(3)
        if kindd == 0:  # spiral
            pl = np.stack([s + np.cos(t) * t / t[-1] * s * 0.8, s + np.sin(t) * t / t[-1] * s * 0.8], 1)
        elif kindd == 1:  # star
            a = np.linspace(0, 4 * np.pi, 6)
            pl = np.stack([s + np.cos(a) * s * 0.7, s + np.sin(a) * s * 0.7], 1)
        else:  # squiggle
            pl = np.stack([np.linspace(0.1 * s, 1.9 * s, 60), s + np.sin(t * 2) * s * 0.3], 1)
        polyline(c, pl, th)
        ink(img, c, pen, int(x - s), int(y - s))
        done += 1
    out["doodles"] = done
    return {"coins": coins, "legend_filled": legend, **out}


__all__ = ["Player", "draw_map", "make_player", "public", "pts", "write_extras"]
