"""The player: their pens and colours, how they fill a cell in each style, and the other marks they leave.

Everything is drawn cell by cell in a small patch around the cell (plus room for strokes that overshoot),
in sheet pixels, through the cell's own quad, so hand-ruled uneven cells are filled as the player would.
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass, field

import cv2
import numpy as np

from . import strokes as S
from .page import Page, ink
from .pens import Pen, line_pen, pencil_deposit
from .rand import chance, pick, uni
from .texture import smooth_noise

TERRAINS = ("forest", "village", "farm", "water", "monster")
LETTERS = {"en": {"forest": "F", "village": "V", "farm": "A", "water": "W", "monster": "M"},
           "tr": {"forest": "O", "village": "K", "farm": "T", "water": "S", "monster": "C"}}
FILL_STYLES = ("pencil", "marker", "crayon", "felttip", "watercolour")
NAMES = ("ALI", "AYSE", "MERT", "ELIF", "CAN", "DENIZ", "TOM", "ANNA", "SARAH", "BEN", "KEREM", "EMRE", "OMER",
         "LEYLA", "MAYA", "JOHN", "PAUL", "EMMA", "BURAK", "SELIN", "DAD", "MUM", "ANNE", "BABA", "P1", "P2")


def hsv(h: float, s: float, v: float) -> tuple[float, float, float]:
    return tuple(float(x) for x in colorsys.hsv_to_rgb((h % 360) / 360.0, s, v))


def sample_palette(rng: np.random.Generator, medium: str) -> dict[str, tuple[float, float, float]]:
    """One player's colours. Pencils and crayons are lighter at full pressure than markers and felt tips."""
    light = medium in ("pencil", "crayon", "watercolour")
    pal = {
        "forest": hsv(uni(rng, 70, 170), uni(rng, 0.4, 0.95), uni(rng, 0.3, 0.8)),
        "village": pick(rng, [hsv(uni(rng, -8, 12), uni(rng, 0.6, 0.95), uni(rng, 0.55, 0.9)),   # red
                              hsv(uni(rng, 10, 30), uni(rng, 0.5, 0.85), uni(rng, 0.3, 0.6)),    # brown
                              hsv(uni(rng, 8, 22), uni(rng, 0.75, 1.0), uni(rng, 0.8, 1.0))]),   # orange-red
        "farm": pick(rng, [hsv(uni(rng, 48, 58), uni(rng, 0.65, 1.0), uni(rng, 0.85, 1.0)),      # yellow
                           hsv(uni(rng, 36, 46), uni(rng, 0.7, 1.0), uni(rng, 0.88, 1.0)),       # orange-yellow
                           hsv(uni(rng, 38, 50), uni(rng, 0.6, 0.85), uni(rng, 0.6, 0.8))]),     # ochre
        "water": hsv(uni(rng, 180, 235), uni(rng, 0.35, 0.95), uni(rng, 0.5, 0.95)),
        "monster": pick(rng, [hsv(uni(rng, 260, 330), uni(rng, 0.35, 0.85), uni(rng, 0.3, 0.75)),
                              hsv(uni(rng, 0, 360), uni(rng, 0.0, 0.12), uni(rng, 0.08, 0.4))], [0.75, 0.25]),
    }
    if light:  # colour pencils at full pressure never reach marker darkness
        pal = {k: tuple(float(min(1.0, c * 0.85 + 0.1)) for c in v) for k, v in pal.items()}
    return pal


@dataclass
class Player:
    style: str
    params: dict = field(default_factory=dict)
    palette: dict = field(default_factory=dict)
    symbol_pen: Pen | None = None
    fill_medium: str = ""
    designs: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        d = dict(self.params)
        d.update(style=self.style, fill_medium=self.fill_medium, palette=self.palette, symbol_designs=self.designs,
                 symbol_pen=self.symbol_pen.as_dict() if self.symbol_pen else None)
        return d


def _fill_params(rng: np.random.Generator, medium: str) -> dict:
    left = chance(rng, 0.12)
    base_angle = uni(rng, 25, 70) * (-1 if left else 1)
    if medium == "pencil":
        return {"angle": base_angle, "angle_jitter": uni(rng, 2, 15), "spacing_mm": uni(rng, 0.5, 1.9),
                "width_mm": uni(rng, 0.35, 0.8), "pressure": uni(rng, 0.25, 0.95), "pressure_sd": uni(rng, 0.03, 0.15),
                "cross": uni(rng, 0.0, 0.7) if chance(rng, 0.5) else 0.0, "coverage": uni(rng, 0.6, 1.0),
                "overshoot_mm": uni(rng, 0.0, 2.2), "zigzag": chance(rng, 0.5), "outline": chance(rng, 0.2),
                "curve": uni(rng, 0.0, 0.06)}
    if medium == "marker":
        return {"angle": pick(rng, [0.0, 90.0, base_angle], [0.45, 0.4, 0.15]), "angle_jitter": uni(rng, 1, 8),
                "tip_mm": uni(rng, 2.0, 5.0), "alpha": uni(rng, 0.72, 0.97), "streak": uni(rng, 0.03, 0.25),
                "edge_mm": uni(rng, -1.2, 1.0), "sloppy_mm": uni(rng, 0.1, 1.2)}
    if medium == "crayon":
        return {"angle": pick(rng, [base_angle, 0.0, 90.0], [0.6, 0.2, 0.2]), "angle_jitter": uni(rng, 3, 15),
                "tip_mm": uni(rng, 1.6, 3.6), "pressure": uni(rng, 0.35, 0.9), "overlap": uni(rng, 0.45, 0.8),
                "overshoot_mm": uni(rng, 0.0, 2.0), "grain": uni(rng, 0.4, 1.0), "sloppy_mm": uni(rng, 0.2, 1.0)}
    if medium == "felttip":
        return {"angle": base_angle, "angle_jitter": uni(rng, 3, 20), "width_mm": uni(rng, 0.5, 1.3),
                "spacing_ratio": uni(rng, 1.3, 2.6), "mode": pick(rng, ["hatch", "scribble", "zigzag"]),
                "alpha": uni(rng, 0.8, 0.97), "overshoot_mm": uni(rng, 0.0, 1.5), "coverage": uni(rng, 0.7, 1.0)}
    return {"density": uni(rng, 0.35, 0.85), "edge_dark": uni(rng, 0.1, 0.5), "bloom": uni(rng, 0.0, 0.3),
            "bleed_mm": uni(rng, -0.6, 1.5), "hue_var": uni(rng, 2, 9), "wobble": uni(rng, 0.004, 0.018),
            "granulation": uni(rng, 0.0, 0.4), "variance": uni(rng, 0.05, 0.2), "rim_mm": uni(rng, 0.25, 0.7)}


def _symbol_params(rng: np.random.Generator) -> dict:
    return {"size": (uni(rng, 0.4, 0.6), uni(rng, 0.65, 0.9)), "slant": uni(rng, 3, 20),
            "offset": uni(rng, 0.02, 0.12), "wobble": uni(rng, 0.005, 0.03), "shading": chance(rng, 0.3)}


def sample_player(style: str, rng: np.random.Generator) -> Player:
    p = Player(style)
    if style in FILL_STYLES:
        p.fill_medium = style
        p.palette = sample_palette(rng, style)
        p.params = _fill_params(rng, style)
    elif style in ("ballpoint", "graphite"):
        if style == "ballpoint":
            p.symbol_pen = line_pen(rng, ("ballpoint",))
        else:
            g = uni(rng, 0.18, 0.4)
            p.symbol_pen = Pen("pencil", (g, g, g * 1.03), uni(rng, 0.3, 0.7), uni(rng, 0.6, 0.9), uni(rng, 0.35, 0.95))
        p.params = _symbol_params(rng)
    elif style == "letters":
        p.symbol_pen = line_pen(rng, ("ballpoint", "fineliner", "pencil", "pencil"))
        p.params = {"lang": pick(rng, ["en", "tr"]), "size": (uni(rng, 0.3, 0.5), uni(rng, 0.55, 0.75)),
                    "slant": uni(rng, -0.1, 0.35), "angle_sd": uni(rng, 2, 12), "offset": uni(rng, 0.03, 0.15),
                    "jitter": uni(rng, 0.01, 0.05), "underline": chance(rng, 0.08)}
    else:  # mixed
        p.fill_medium = pick(rng, list(FILL_STYLES), [0.35, 0.25, 0.1, 0.15, 0.15])
        p.palette = sample_palette(rng, p.fill_medium)
        p.params = _fill_params(rng, p.fill_medium)
        p.symbol_pen = line_pen(rng, ("ballpoint", "fineliner", "pencil"))
        sp = _symbol_params(rng)
        both = uni(rng, 0.1, 0.5)
        only = uni(rng, 0.05, 0.25)
        p.params.update({"symbol": sp, "p_symbol_over": both, "p_symbol_only": only})
    if p.symbol_pen is not None:
        p.designs = {t: pick(rng, list(S.SYMBOLS[t])) for t in TERRAINS}
    p.params["marks"] = {"smudges": int(rng.poisson(1.5)), "stray_dots": int(rng.poisson(3)),
                         "erased_rate": uni(rng, 0.0, 0.08), "name": chance(rng, 0.5), "scores": chance(rng, 0.4),
                         "coin_mode": pick(rng, ["fill", "tick", "cross", "slash"]), "mark_coins": chance(rng, 0.6)}
    return p


# --- patches ----------------------------------------------------------------------------------------------------

class Patch:
    """A working area around one cell: pixel origin, size, and the cell's unit square -> patch pixels map."""

    def __init__(self, page: Page, quad_mm: np.ndarray, margin_mm: float):
        self.page = page
        q = page.px(quad_mm)
        m = margin_mm * page.ppm
        x0, y0 = np.floor(q.min(0) - m).astype(int)
        x1, y1 = np.ceil(q.max(0) + m).astype(int)
        self.x0, self.y0 = int(x0), int(y0)
        self.w, self.h = int(x1 - x0 + 1), int(y1 - y0 + 1)
        self.q = q - (self.x0, self.y0)
        self.cell_px = float(np.mean([np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[3] - q[0])]))
        self.cell_mm = self.cell_px / page.ppm

    def mask(self) -> np.ndarray:
        return np.zeros((self.h, self.w), np.uint8)

    def uv(self, pts) -> np.ndarray:
        """Unit-square points (u right, v down; 0..1 = the cell) to patch pixels."""
        p = np.asarray(pts, np.float64)
        u, v = p[..., :1], p[..., 1:2]
        q = self.q
        return (1 - u) * (1 - v) * q[0] + u * (1 - v) * q[1] + u * v * q[2] + (1 - u) * v * q[3]

    def tooth(self) -> np.ndarray:
        t = np.full((self.h, self.w), 0.5, np.float32)
        H, W = self.page.shape
        x0, y0 = max(0, self.x0), max(0, self.y0)
        x1, y1 = min(W, self.x0 + self.w), min(H, self.y0 + self.h)
        if x1 > x0 and y1 > y0:
            t[y0 - self.y0:y1 - self.y0, x0 - self.x0:x1 - self.x0] = self.page.tooth[y0:y1, x0:x1]
        return t

    def put(self, alpha: np.ndarray, colour, cover: bool = False) -> None:
        ink(self.page, alpha, colour, origin=(self.x0, self.y0), cover=cover)


def _clip_line(p: np.ndarray, d: np.ndarray, lo: float, hi: float):
    """The part of the line p + t d inside the square [lo, hi]^2 (Liang-Barsky), or None."""
    t0, t1 = -1e9, 1e9
    for k in range(2):
        if abs(d[k]) < 1e-12:
            if p[k] < lo or p[k] > hi:
                return None
            continue
        a, b = (lo - p[k]) / d[k], (hi - p[k]) / d[k]
        t0, t1 = max(t0, min(a, b)), min(t1, max(a, b))
    if t1 <= t0:
        return None
    return p + d * t0, p + d * t1


def _hatch_lines(rng, angle_deg: float, spacing: float, lo: float, hi: float, coverage: float, jitter: float):
    """Parallel segments (unit-square coordinates) across the square [lo, hi]^2 at `angle_deg` (0 = horizontal),
    spread evenly so the first and last touch the square's sides."""
    a = np.radians(angle_deg)
    d = np.array([np.cos(a), np.sin(a)])
    nrm = np.array([-d[1], d[0]])
    c = np.array([(lo + hi) / 2] * 2)
    half = (hi - lo) / 2 * (abs(d[0]) + abs(d[1]))
    n = max(1, int(round(2 * half / max(spacing, 1e-6)))) + 1
    offs = np.linspace(-half, half, n)
    diagonal = abs(abs(d[0]) - abs(d[1])) < 0.5
    if n > 2 and diagonal:
        offs = offs[1:-1]  # at a slant the extreme lines only graze a corner
    if coverage < 1.0 and len(offs) > 3:
        keep = int(max(2, round(len(offs) * coverage)))
        start = int(rng.integers(0, len(offs) - keep + 1))
        offs = offs[start:start + keep]
    segs = []
    e = 0.5 * spacing
    for o in offs:
        o = o + rng.normal(0, spacing * jitter)
        seg = _clip_line(c + nrm * o, d, lo - e, hi + e)
        if seg is not None and np.linalg.norm(seg[1] - seg[0]) > 0.02:
            a_, b_ = seg
            seg2 = _clip_line(a_, b_ - a_, lo, hi) or (a_, b_)
            segs.append(seg2 if np.linalg.norm(seg2[1] - seg2[0]) > 0.05 else (a_, b_))
    return segs


def _strokes_from_segments(rng, segs, overshoot: float, curve: float, zigzag: bool, wobble: float):
    """Hand strokes from segments: ends wander by +-overshoot; optional back-and-forth joining."""
    polys = []
    cur = []
    for i, (a, b) in enumerate(segs):
        if i % 2 == 1 and zigzag:
            a, b = b, a
        d = b - a
        L = np.linalg.norm(d) + 1e-9
        u = d / L
        a = a - u * uni(rng, -overshoot * 0.7, overshoot)
        b = b + u * uni(rng, -overshoot * 0.7, overshoot)
        mid = (a + b) / 2 + np.array([-u[1], u[0]]) * curve * L * rng.normal(0, 1)
        pts = np.array([a, mid, b])
        pts = S.resample(pts, 0.1)
        if wobble > 0:
            pts = S.wobble(rng, pts, wobble, 0.3, 0.05)
        if zigzag:
            cur.append(pts)
        else:
            polys.append(pts)
    if zigzag and cur:
        polys.append(np.vstack(cur))
    return polys


# --- fills ------------------------------------------------------------------------------------------------------

def fill_pencil(page: Page, quad, colour, P: dict, rng) -> None:
    patch = Patch(page, quad, P["overshoot_mm"] + 1.5)
    cm = patch.cell_mm
    ov = P["overshoot_mm"] / cm
    pressure = float(np.clip(P["pressure"] + rng.normal(0, P["pressure_sd"]), 0.12, 1.0))
    layers = [P["angle"] + rng.normal(0, P["angle_jitter"])]
    if P["cross"] and chance(rng, P["cross"]):
        layers.append(layers[0] + uni(rng, 60, 110))
    alpha = np.zeros((patch.h, patch.w), np.float32)
    tooth = patch.tooth()
    for k, ang in enumerate(layers):
        m = patch.mask()
        segs = _hatch_lines(rng, ang, P["spacing_mm"] / cm * uni(rng, 0.85, 1.2), 0.0, 1.0,
                            P["coverage"] if k == 0 else uni(rng, 0.5, 1.0), 0.25)
        polys = _strokes_from_segments(rng, segs, ov, P["curve"], P["zigzag"], 0.004)
        S.draw(m, [patch.uv(p) for p in polys], P["width_mm"] * page.ppm, 255)
        if P["outline"] and k == 0:
            edge = np.array([[0.03, 0.03], [0.97, 0.03], [0.97, 0.97], [0.03, 0.97], [0.03, 0.03]])
            S.draw(m, [patch.uv(S.wobble(rng, edge, 0.01, 0.3, 0.05))], P["width_mm"] * page.ppm)
        press = pressure * (1.0 if k == 0 else uni(rng, 0.6, 1.0))
        a = m.astype(np.float32) / 255 * pencil_deposit(tooth, press)
        alpha = 1 - (1 - alpha) * (1 - a)
    mod = 1 + 0.15 * smooth_noise(rng, patch.h, patch.w, max(2.0, 3 * page.ppm))
    patch.put(np.clip(alpha * mod, 0, 1), colour)


def _zigzag_fill(rng, patch: Patch, angle: float, tip_u: float, inset: float, sloppy: float):
    """Back-and-forth strokes covering the cell (unit coordinates), each stroke a polyline."""
    segs = _hatch_lines(rng, angle, tip_u * uni(rng, 0.6, 0.85), inset, 1 - inset, 1.0, 0.1)
    out = []
    for i, (a, b) in enumerate(segs):
        if i % 2:
            a, b = b, a
        u = (b - a) / (np.linalg.norm(b - a) + 1e-9)
        nrm = np.array([-u[1], u[0]])
        a = a + u * rng.normal(0, sloppy) + nrm * rng.normal(0, sloppy * 0.25)
        b = b + u * rng.normal(0, sloppy) + nrm * rng.normal(0, sloppy * 0.25)
        out.append(S.resample(np.array([a, b]), 0.1))
    return out


def fill_marker(page: Page, quad, colour, P: dict, rng) -> None:
    patch = Patch(page, quad, max(0.0, P["edge_mm"]) + P["sloppy_mm"] + 2)
    cm = patch.cell_mm
    tip = P["tip_mm"] * uni(rng, 0.9, 1.1)
    tip_u = tip / cm
    ang = P["angle"] + rng.normal(0, P["angle_jitter"])
    diagonal = abs(((ang + 45) % 90) - 45) > 25
    inset = (-P["edge_mm"] + (0.15 if diagonal else 0.5) * tip) / cm
    strokes = _zigzag_fill(rng, patch, ang, tip_u, inset, P["sloppy_mm"] / cm * 0.5)
    m1, m2 = patch.mask(), patch.mask()
    w = tip * page.ppm
    for i, s in enumerate(strokes):
        S.draw(m1 if i % 2 == 0 else m2, [patch.uv(s)], w)
    a0 = P["alpha"]
    a = 1 - (1 - a0 * m1.astype(np.float32) / 255) * (1 - a0 * m2.astype(np.float32) / 255)
    # streaks along the stroke direction
    yy, xx = np.mgrid[0:patch.h, 0:patch.w].astype(np.float32)
    r = np.radians(ang)
    perp = (-xx * np.sin(r) + yy * np.cos(r)) / max(1.0, 0.35 * page.ppm)
    line = rng.standard_normal(int(perp.max() - perp.min()) + 3).astype(np.float32)
    streak = np.interp(perp - perp.min(), np.arange(len(line)), line).astype(np.float32)
    a *= np.clip(1 - P["streak"] * np.abs(streak), 0.3, 1.0)
    a = np.clip(a, 0, 1)
    patch.put(a, colour)


def fill_crayon(page: Page, quad, colour, P: dict, rng) -> None:
    patch = Patch(page, quad, P["overshoot_mm"] + P["tip_mm"] + 1)
    cm = patch.cell_mm
    tip = P["tip_mm"]
    ang = P["angle"] + rng.normal(0, P["angle_jitter"])
    inset = (0.5 * tip - 0.5 * P["overshoot_mm"] * uni(rng, 0.2, 1.0)) / cm
    segs = _hatch_lines(rng, ang, tip / cm * P["overlap"], inset, 1 - inset, 1.0, 0.25)
    polys = _strokes_from_segments(rng, segs, P["sloppy_mm"] / cm, 0.03, True, 0.004)
    m = patch.mask()
    S.draw(m, [patch.uv(p) for p in polys], tip * page.ppm)
    tooth = patch.tooth()
    coarse = 0.5 + 0.5 * np.tanh(1.5 * smooth_noise(rng, patch.h, patch.w, max(1.5, 0.3 * page.ppm)))
    t = (1 - P["grain"] * 0.5) * tooth + P["grain"] * 0.5 * coarse
    press = float(np.clip(P["pressure"] + rng.normal(0, 0.07), 0.2, 1.0))
    dep = np.clip((t - (0.75 - 0.75 * press)) / 0.32 + 0.5, 0, 1)
    body = cv2.GaussianBlur(m.astype(np.float32) / 255, (0, 0), 0.15 * tip * page.ppm)
    a = np.clip(body * 1.3, 0, 1) * dep * (0.65 + 0.33 * press)
    patch.put(a, colour)
    patch.put(a * 0.2, np.clip(np.asarray(colour) * 1.1, 0, 1), cover=True)  # waxy body over the print


def fill_felttip(page: Page, quad, colour, P: dict, rng) -> None:
    patch = Patch(page, quad, P["overshoot_mm"] + 1.5)
    cm = patch.cell_mm
    m = patch.mask()
    w = P["width_mm"] * page.ppm
    if P["mode"] == "scribble":
        spacing = P["width_mm"] * P["spacing_ratio"]
        n = int(max(20, 40 * (cm / max(spacing, 0.8)) ** 2 / 30))
        pts = [rng.uniform(0.1, 0.9, 2)]
        vel = rng.normal(0, 0.15, 2)
        for _ in range(n):
            vel = 0.7 * vel + rng.normal(0, 0.12, 2)
            nxt = pts[-1] + vel
            for k in range(2):
                if nxt[k] < 0.05 or nxt[k] > 0.95:
                    vel[k] = -vel[k]
                    nxt[k] = np.clip(nxt[k], 0.02, 0.98)
            pts.append(nxt)
        poly = S.resample(np.array(pts), 0.02)
        poly = cv2.GaussianBlur(poly.reshape(-1, 1, 2), (1, 5), 0).reshape(-1, 2) if len(poly) > 5 else poly
        S.draw(m, [patch.uv(poly)], w)
    else:
        ang = P["angle"] + rng.normal(0, P["angle_jitter"])
        segs = _hatch_lines(rng, ang, P["width_mm"] * P["spacing_ratio"] / cm, 0.0, 1.0, P["coverage"], 0.2)
        polys = _strokes_from_segments(rng, segs, P["overshoot_mm"] / cm, 0.04, P["mode"] == "zigzag", 0.005)
        S.draw(m, [patch.uv(p) for p in polys], w)
    a = m.astype(np.float32) / 255 * P["alpha"]
    patch.put(a, colour)


def fill_watercolour(page: Page, quad, colour, P: dict, rng) -> None:
    bleed = P["bleed_mm"]
    patch = Patch(page, quad, max(0.0, bleed) + 2.0)
    cm = patch.cell_mm
    b = -bleed / cm
    n = 24
    t = np.linspace(0, 4, n * 4, endpoint=False)
    side = np.floor(t).astype(int)
    f = t - side
    corners = np.array([[b, b], [1 - b, b], [1 - b, 1 - b], [b, 1 - b]])
    pts = corners[side] * (1 - f[:, None]) + corners[(side + 1) % 4] * f[:, None]
    pts = S.wobble(rng, np.vstack([pts, pts[:1]]), P["wobble"], 0.25, 0.03)
    region = patch.mask()
    S.fill(region, [patch.uv(pts)])
    reg = region.astype(np.float32) / 255
    dist = cv2.distanceTransform((region > 127).astype(np.uint8), cv2.DIST_L2, 3) / page.ppm
    dens = P["density"] * uni(rng, 0.85, 1.15)
    noise = smooth_noise(rng, patch.h, patch.w, max(2.0, 0.45 * patch.cell_px))
    a = dens * (1 + P["variance"] * noise) + P["edge_dark"] * np.exp(-dist / P["rim_mm"])
    if P["bloom"] and chance(rng, P["bloom"]):
        c = patch.uv(rng.uniform(0.25, 0.75, 2))
        r = uni(rng, 0.15, 0.35) * patch.cell_px
        yy, xx = np.mgrid[0:patch.h, 0:patch.w].astype(np.float32)
        dd = np.sqrt((xx - c[0]) ** 2 + (yy - c[1]) ** 2) / r
        wob = 1 + 0.15 * smooth_noise(rng, patch.h, patch.w, max(2.0, r * 0.3))
        dd = dd * wob
        a = a * np.where(dd < 1, 0.7 + 0.25 * dd, 1.0) + 0.25 * np.exp(-((dd - 1) / 0.06) ** 2)
    a *= 1 + P["granulation"] * (patch.tooth() - 0.5)
    a = np.clip(a, 0, 1) * cv2.GaussianBlur(reg, (0, 0), 0.25 * page.ppm)
    h, s, v = colorsys.rgb_to_hsv(*colour)
    other = hsv(h * 360 + rng.normal(0, P["hue_var"]), s * uni(rng, 0.8, 1.1), v * uni(rng, 0.85, 1.05))
    mix = (0.5 + 0.5 * np.tanh(smooth_noise(rng, patch.h, patch.w, max(2.0, 0.4 * patch.cell_px))))[..., None]
    col = np.asarray(colour, np.float32) * (1 - mix) + np.asarray(other, np.float32) * mix
    patch.put(a, col.astype(np.float32))


FILLERS = {"pencil": fill_pencil, "marker": fill_marker, "crayon": fill_crayon, "felttip": fill_felttip,
           "watercolour": fill_watercolour}


# --- symbols and letters -----------------------------------------------------------------------------------------

def draw_symbol(page: Page, quad, terrain: str, design: str, pen: Pen, P: dict, rng) -> None:
    patch = Patch(page, quad, 2.0)
    polys = S.symbol(terrain, design, rng)
    s = uni(rng, *P["size"])
    rot = np.radians(rng.normal(0, P["slant"] / 2))
    off = rng.uniform(-P["offset"], P["offset"], 2)
    R = np.array([[np.cos(rot), -np.sin(rot)], [np.sin(rot), np.cos(rot)]])
    out = []
    for p in polys:
        q = p @ R.T * s + off + 0.5
        if len(q) >= 2:
            q = S.wobble(rng, q, P["wobble"], 0.15, 0.02)
        out.append(patch.uv(q))
    m = patch.mask()
    S.draw(m, out, pen.width_mm * page.ppm * uni(rng, 0.85, 1.2))
    pressure = None
    if pen.kind == "pencil":
        pressure = float(np.clip(pen.pressure + rng.normal(0, 0.1), 0.2, 1.0))
    _apply_pen(patch, m, pen, rng, pressure)
    if P.get("shading") and pen.kind == "pencil" and chance(rng, 0.5):
        segs = _hatch_lines(rng, uni(rng, 30, 60), 1.2 / patch.cell_mm, 0.2, 0.8, uni(rng, 0.4, 0.9), 0.2)
        sm = patch.mask()
        S.draw(sm, [patch.uv(p) for p in _strokes_from_segments(rng, segs, 0.03, 0.02, True, 0.003)],
               0.5 * page.ppm)
        _apply_pen(patch, sm, pen, rng, uni(rng, 0.15, 0.35))


def _apply_pen(patch: Patch, m: np.ndarray, pen: Pen, rng, pressure: float | None = None) -> None:
    a = m.astype(np.float32) / 255
    if pen.kind in ("pencil", "colour-pencil"):
        a *= pencil_deposit(patch.tooth(), pen.pressure if pressure is None else pressure)
    elif pen.kind == "ballpoint":
        sk = smooth_noise(rng, patch.h, patch.w, max(2.0, 1.2 * patch.page.ppm))
        a *= np.clip(1.0 - 0.3 * np.maximum(sk - 0.4, 0.0), 0.4, 1.0)
    patch.put(a * pen.opacity, pen.colour)


def draw_letter(page: Page, quad, terrain: str, pen: Pen, P: dict, rng) -> None:
    patch = Patch(page, quad, 2.0)
    ch = LETTERS[P["lang"]][terrain]
    size = uni(rng, *P["size"])
    wdt = S.text_width(ch, size, 0.0)
    room = max(0.0, (1 - max(size, wdt)) / 2 - 0.05)
    off = rng.uniform(-1, 1, 2) * min(P["offset"], room)
    x = 0.5 - wdt / 2 + off[0] + size * P["slant"] * 0.5
    yb = 0.5 + size / 2 + off[1]
    polys = S.handwrite(rng, ch, x, yb, size, P["slant"] + rng.normal(0, 0.05), P["jitter"],
                        rng.normal(0, P["angle_sd"]), 0.0)
    if P["underline"]:
        polys.append(np.array([[x, yb + 0.06], [x + wdt, yb + 0.05]]))
    m = patch.mask()
    S.draw(m, [patch.uv(p) for p in polys], pen.width_mm * page.ppm * uni(rng, 0.9, 1.25))
    _apply_pen(patch, m, pen, rng, None if pen.kind != "pencil" else float(
        np.clip(pen.pressure + rng.normal(0, 0.1), 0.25, 1.0)))


# --- the whole sheet -----------------------------------------------------------------------------------------------

def draw_cell(page: Page, quad, terrain: str, player: Player, rng) -> str:
    """Draw one terrain in one cell as this player does; returns how (for the record)."""
    st = player.style
    if st in FILL_STYLES:
        FILLERS[st](page, quad, player.palette[terrain], player.params, rng)
        return "fill"
    if st in ("ballpoint", "graphite"):
        draw_symbol(page, quad, terrain, player.designs[terrain], player.symbol_pen, player.params, rng)
        return "symbol"
    if st == "letters":
        draw_letter(page, quad, terrain, player.symbol_pen, player.params, rng)
        return "letter"
    r = rng.random()
    only, both = player.params["p_symbol_only"], player.params["p_symbol_over"]
    if r < only:
        draw_symbol(page, quad, terrain, player.designs[terrain], player.symbol_pen, player.params["symbol"], rng)
        return "symbol"
    FILLERS[player.fill_medium](page, quad, player.palette[terrain], player.params, rng)
    if r < only + both:
        draw_symbol(page, quad, terrain, player.designs[terrain], player.symbol_pen, player.params["symbol"], rng)
        return "fill+symbol"
    return "fill"


def _ghost(page: Page, quad, player: Player, rng) -> None:
    """An erased drawing: a faint trace of strokes and roughened paper."""
    patch = Patch(page, quad, 1.0)
    m = patch.mask()
    segs = _hatch_lines(rng, uni(rng, 20, 70), uni(rng, 0.08, 0.2), 0.1, 0.9, uni(rng, 0.4, 1.0), 0.3)
    S.draw(m, [patch.uv(p) for p in _strokes_from_segments(rng, segs, 0.05, 0.05, chance(rng, 0.5), 0.005)],
           0.5 * page.ppm)
    a = cv2.GaussianBlur(m.astype(np.float32) / 255, (0, 0), 0.3 * page.ppm) * uni(rng, 0.05, 0.16)
    col = player.palette.get(pick(rng, list(TERRAINS))) if player.palette else (0.3, 0.3, 0.33)
    patch.put(a, col)


MM_LIMITS = {"tip_mm": 0.45, "spacing_mm": 0.2, "overshoot_mm": 0.25, "edge_mm": 0.12, "sloppy_mm": 0.12,
             "bleed_mm": 0.15, "rim_mm": 0.08, "width_mm": 0.1}


def fit_to_cells(player: Player, cell_mm: float) -> Player:
    """Players with small cells draw smaller: millimetre sizes shrink with the cell (13 mm is 'normal')."""
    s = float(np.clip(cell_mm / 13.0, 0.35, 1.3))

    def scale(d: dict) -> dict:
        out = {}
        for k, v in d.items():
            if isinstance(v, dict):
                out[k] = scale(v)
            elif k in MM_LIMITS and isinstance(v, float):
                lim = MM_LIMITS[k] * cell_mm
                out[k] = float(np.clip(v * s, -lim, lim))
            else:
                out[k] = v
        return out

    q = Player(player.style, scale(player.params), player.palette, player.symbol_pen, player.fill_medium,
               player.designs)
    if q.symbol_pen is not None and q.symbol_pen.width_mm > 0.06 * cell_mm:
        pen = q.symbol_pen
        q.symbol_pen = Pen(pen.kind, pen.colour, 0.06 * cell_mm, pen.opacity, pen.pressure)
    return q


def draw_sheet(page: Page, design, grid: list[list[str]], player: Player, mapinfo: dict, rng) -> dict:
    """Everything the player put on the sheet. Returns the record for the truth (legend, coins, ...)."""
    ppm = page.ppm
    player = fit_to_cells(player, design.mean_cell_mm())
    how = {}
    order = [(r, c) for r in range(11) for c in range(11)]
    rng.shuffle(order)  # cells are drawn in game order, not raster order: overlaps fall either way
    erased = player.params["marks"]["erased_rate"]
    for r, c in order:
        t = grid[r][c]
        quad = design.cell_quad(r, c)
        if t in TERRAINS:
            how[f"{r},{c}"] = draw_cell(page, quad, t, player, rng)
        elif t == "empty" and erased and chance(rng, erased):
            _ghost(page, quad, player, rng)
            how[f"{r},{c}"] = "erased"
    record = {"cells": how, "legend_filled": False, "coins": None}
    if design.legend and chance(rng, 0.6):
        for terrain, quad in design.legend:
            draw_cell(page, quad, terrain, player, rng)
        record["legend_filled"] = True
    marks = player.params["marks"]
    pen = player.symbol_pen or line_pen(rng, ("pencil", "ballpoint"))
    if design.coins:
        k = 0
        if marks["mark_coins"]:
            full = mapinfo["stage"] != "early"
            k = int(np.clip(rng.binomial(14, 0.45 if full else 0.2), 0, 14))
        for cx, cy, rad in design.coins[:k]:
            _coin_mark(page, cx, cy, rad, marks["coin_mode"], pen, player, rng)
        record["coins"] = k
    if marks["name"] and design.name_line:
        x0, y, x1 = design.name_line
        m = np.zeros(page.shape, np.uint8)
        name = pick(rng, NAMES)
        hgt = min(uni(rng, 3.0, 5.5), (x1 - x0) / max(1e-6, S.text_width(name, 1.0)) * 0.9)
        polys = S.handwrite(rng, name, x0 + uni(rng, 0, 4), y - uni(rng, 0.2, 1.0), hgt, uni(rng, -0.05, 0.3), 0.03,
                            uni(rng, -3, 3))
        S.draw(m, [page.px(p) for p in polys], pen.width_mm * ppm)
        _page_pen(page, m, pen, rng)
    if marks["scores"] and design.score_boxes and mapinfo["stage"] != "early":
        m = np.zeros(page.shape, np.uint8)
        for x, y, w, h in design.score_boxes:
            if chance(rng, 0.5):
                txt = str(int(rng.integers(0, 30)))
                hgt = min(h * 0.6, w * 0.9 / max(1, len(txt)) / 0.7)
                tw = S.text_width(txt, hgt, 0.15)
                S.draw(m, [page.px(p) for p in S.handwrite(rng, txt, x + (w - tw) / 2, y + h * 0.78, hgt,
                                                           uni(rng, 0, 0.25), 0.03, spacing=0.15)],
                       pen.width_mm * ppm)
        _page_pen(page, m, pen, rng)
    _smudges(page, design, player, marks, rng)
    return record


def _page_pen(page: Page, m: np.ndarray, pen: Pen, rng) -> None:
    from .pens import apply

    apply(page, m, pen, rng)


def _coin_mark(page: Page, cx, cy, r, mode, pen: Pen, player: Player, rng) -> None:
    quad = np.array([[cx - r, cy - r], [cx + r, cy - r], [cx + r, cy + r], [cx - r, cy + r]])
    patch = Patch(page, quad, 1.5)
    m = patch.mask()
    j = rng.normal(0, 0.04, 2)
    if mode == "fill":
        segs = _hatch_lines(rng, uni(rng, 20, 70), 0.15, 0.12, 0.88, 1.0, 0.2)
        polys = _strokes_from_segments(rng, segs, 0.05, 0.02, True, 0.005)
    elif mode == "tick":
        polys = [np.array([[0.2, 0.55], [0.42, 0.8], [0.85, 0.15]]) + j]
    elif mode == "cross":
        polys = [np.array([[0.15, 0.15], [0.85, 0.85]]) + j, np.array([[0.85, 0.15], [0.15, 0.85]]) + j]
    else:
        polys = [np.array([[0.2, 0.85], [0.8, 0.15]]) + j]
    S.draw(m, [patch.uv(S.wobble(rng, p, 0.01, 0.3, 0.05)) for p in polys],
           max(pen.width_mm, 0.4) * page.ppm)
    colour = player.palette.get("farm") if (mode == "fill" and player.palette and chance(rng, 0.5)) else None
    if colour is not None:
        patch.put(m.astype(np.float32) / 255 * 0.7, colour)
    else:
        _apply_pen(patch, m, pen, rng)


def _smudges(page: Page, design, player: Player, marks: dict, rng) -> None:
    H, W = page.shape
    L = design.lattice
    gx0, gy0 = page.px(L.reshape(-1, 2).min(0))
    gx1, gy1 = page.px(L.reshape(-1, 2).max(0))
    ppm = page.ppm
    for _ in range(marks["smudges"]):
        cx, cy = uni(rng, gx0 - 20 * ppm, gx1 + 20 * ppm), uni(rng, gy0 - 20 * ppm, gy1 + 20 * ppm)
        rx, ry = uni(rng, 3, 12) * ppm, uni(rng, 1.5, 5) * ppm
        size = int(max(rx, ry) * 2.5) + 4
        m = np.zeros((size, size), np.float32)
        cv2.ellipse(m, (size // 2, size // 2), (int(rx), int(ry)), uni(rng, 0, 180), 0, 360, 1.0, -1)
        m = cv2.GaussianBlur(m, (0, 0), max(1.0, ry * 0.5))
        m *= 0.7 + 0.3 * smooth_noise(rng, size, size, max(2.0, ry * 0.5))
        col = (0.35, 0.35, 0.37) if not player.palette or chance(rng, 0.5) else player.palette[pick(rng, TERRAINS)]
        ink(page, np.clip(m, 0, 1) * uni(rng, 0.04, 0.14), col, origin=(int(cx) - size // 2, int(cy) - size // 2))
    if marks["stray_dots"]:
        m = np.zeros((H, W), np.uint8)
        for _ in range(marks["stray_dots"]):
            x, y = uni(rng, gx0 - 10 * ppm, gx1 + 10 * ppm), uni(rng, gy0 - 10 * ppm, gy1 + 10 * ppm)
            S.draw(m, [np.array([[x, y]])], uni(rng, 0.3, 0.8) * ppm, int(rng.integers(80, 255)))
        col = (0.3, 0.3, 0.32) if not player.palette else player.palette[pick(rng, TERRAINS)]
        ink(page, m, col, 0.8)
