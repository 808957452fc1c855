"""The printed (or ruled) sheet of each kind: a plan in millimetres (exact geometry, used for framing and truth)
and a painter that renders the empty sheet at k px/mm.

A plan's `lattice` is the (12, 12, 2) array of grid-line crossings in page mm (x right, y down, upright sheet);
cell (r, c) is the quad lattice[r, c], [r, c+1], [r+1, c+1], [r+1, c].
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from companion.cartographers.data import MAPS

from .util import apply_ink, apply_paint, dot, fill_poly, grain, polyline, value_noise

N = 11
PT = 25.4 / 72  # mm per point


class ScansMissing(FileNotFoundError):
    """The real pad's scans are not available (set MAPSMITH_PAD_SCANS to their folder)."""


@dataclass
class Plan:
    kind: str
    side: str
    page_mm: tuple[float, float]
    lattice: np.ndarray
    markers: dict = field(default_factory=dict)  # corner name -> (4, 2) mm quad
    legend: list = field(default_factory=list)  # [(terrain, (4, 2) quad mm)]
    coins: list = field(default_factory=list)  # [(cx, cy, r)] mm, empty = no track
    name_line: tuple | None = None  # (x0, y_baseline, x1) mm where the player writes the name
    score_boxes: list = field(default_factory=list)  # [(x, y, w, h)] mm
    params: dict = field(default_factory=dict)
    # painter-specific
    extra: dict = field(default_factory=dict)

    def cell_quad(self, r: int, c: int) -> np.ndarray:
        L = self.lattice
        return np.array([L[r, c], L[r, c + 1], L[r + 1, c + 1], L[r + 1, c]], np.float64)


def regular_lattice(x0: float, y0: float, cw: float, ch: float | None = None) -> np.ndarray:
    ch = cw if ch is None else ch
    i = np.arange(N + 1)
    xs, ys = np.meshgrid(x0 + i * cw, y0 + i * ch)
    return np.stack([xs, ys], -1).astype(np.float64)


def _paper(shape, base_rgb, rng, k, tone=0.03, stains=0.0) -> tuple[np.ndarray, np.ndarray]:
    h, w = shape
    g = grain((h, w), rng, scale=max(1.0, k / 8))
    low = value_noise((h, w), 6, rng, octaves=3)
    img = np.empty((h, w, 3), np.float32)
    shade = 1 + tone * low + 0.035 * (g - 0.5)
    for ch in range(3):
        img[..., ch] = base_rgb[ch] * shade
    if stains > 0:
        st = value_noise((h, w), 5, rng, octaves=2)
        st = np.clip(st - 0.3, 0, None) * stains
        img[..., 0] *= 1 - 0.5 * st
        img[..., 1] *= 1 - 0.8 * st
        img[..., 2] *= 1 - 1.3 * st
    np.clip(img, 0, 1, out=img)
    return img, g


def _mm2px(p, k):
    return np.asarray(p, np.float64) * k - 0.5


# ------------------------------------------------------------------------------------------------ ours

@lru_cache(maxsize=8)
def _ours_pdf(side: str, paper: str, lang: str, sheet_id: str) -> bytes:
    from printables.mapsheet import map_sheet_pdf
    return map_sheet_pdf(side, paper, lang, sheet_ids=[sheet_id])


def plan_ours(kind: str, side: str, rng: np.random.Generator) -> Plan:
    from printables.layout import sheet_layout
    paper = "a4" if rng.random() < 0.75 else "letter"
    lang = "en" if rng.random() < 0.5 else "tr"
    lay = sheet_layout(side, paper)
    g = lay.grid
    lattice = regular_lattice(g.x_pt * PT, g.y_pt * PT, g.cell_pt * PT)
    names = {"top_left": "tl", "top_right": "tr", "bottom_right": "br", "bottom_left": "bl"}
    markers = {}
    for m in lay.markers:
        x, y, s = m.x_pt * PT, m.y_pt * PT, m.size_pt * PT
        markers[names[m.corner]] = np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]])
    legend = []
    for lc in lay.legend:
        x, y, s = lc.x_pt * PT, lc.y_pt * PT, lc.cell_pt * PT
        legend.append((lc.terrain, np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]])))
    coins = [((c.x_pt + c.d_pt / 2) * PT, (c.y_pt + c.d_pt / 2) * PT, c.d_pt / 2 * PT) for c in lay.coins]
    t = lay.title
    base = (t.y_pt + 46) * PT
    name_line = ((t.x_pt + 62) * PT, base, (t.x_pt + t.w_pt * 0.55 - 12) * PT)
    boxes = [(b.x_pt * PT, b.y_pt * PT, b.w_pt * PT, b.h_pt * PT) for b in lay.score_boxes]
    sid = "".join("ABCDEFGHJKLMNPQRSTUVWXYZ23456789"[i] for i in rng.integers(0, 32, 12))
    return Plan(kind, side, (lay.page_w_pt * PT, lay.page_h_pt * PT), lattice, markers, legend, coins, name_line,
                boxes, {"paper": paper, "lang": lang, "sheet_id": sid},
                {"paper_rgb": (float(rng.uniform(0.93, 0.99)), float(rng.uniform(0.93, 0.99)),
                               float(rng.uniform(0.9, 0.98)))})


# pdfium is not thread-safe: bench.bench_vision2 --jobs 2 makes two photos at once on two threads, and two renders
# at once crashed the process (a segfault in libpdfium). One render at a time.
_PDFIUM = threading.Lock()


def render_ours(plan: Plan, k: float, rng: np.random.Generator):
    from printables.raster import rasterize
    p = plan.params
    pdf = _ours_pdf(plan.side, p["paper"], p["lang"], p["sheet_id"])
    with _PDFIUM:
        ras = rasterize(pdf, 0, dpi=k * 25.4)
    ras = ras.astype(np.float32) / 255.0
    h, w = ras.shape[:2]
    img, g = _paper((h, w), plan.extra["paper_rgb"], rng, k, tone=0.02)
    toner = np.array([rng.uniform(0.0, 0.08), rng.uniform(0.0, 0.08), rng.uniform(0.0, 0.1)], np.float32)
    # printed ink multiplies the paper; toner is not perfectly black, a little uneven
    dark = 1.0 - ras
    dark *= (0.9 + 0.2 * g)[..., None]
    img *= 1.0 - dark * (1.0 - toner)
    return img, g


# ------------------------------------------------------------------------------------------------ generic

INKS = {"black": (0.08, 0.08, 0.09), "grey": (0.42, 0.43, 0.45), "blue": (0.15, 0.25, 0.6),
        "brown": (0.42, 0.28, 0.16), "green": (0.15, 0.4, 0.25), "red": (0.6, 0.15, 0.12),
        "purple": (0.35, 0.2, 0.5), "teal": (0.1, 0.42, 0.45)}


def plan_generic(kind: str, side: str, rng: np.random.Generator) -> Plan:
    paper = "a4" if rng.random() < 0.7 else "letter"
    pw, ph = (210.0, 297.0) if paper == "a4" else (215.9, 279.4)
    cell = float(rng.uniform(10.0, min(16.5, (pw - 24) / N)))
    gw = cell * N
    x0 = (pw - gw) / 2 + rng.uniform(-0.3, 0.3) * (pw - gw - 20) / 2
    title = rng.random() < 0.7
    y0 = float(rng.uniform(30 if title else 15, 45 if title else 40))
    lattice = regular_lattice(x0, y0, cell)
    has_coins = rng.random() < 0.65
    coins = []
    below = y0 + gw
    if has_coins:
        d = float(rng.uniform(5.5, min(10.0, gw / 14 * 0.85)))
        pitch = float(rng.uniform(d * 1.15, gw / 14))
        cx0 = x0 + (gw - 13 * pitch) / 2
        cy = below + rng.uniform(8, 16)
        coins = [(cx0 + i * pitch, cy, d / 2) for i in range(14)]
        below = cy + d
    boxes = []
    if rng.random() < 0.6:
        nb = int(rng.integers(4, 9))
        bw = gw / nb
        by = below + rng.uniform(8, 15)
        bh = float(rng.uniform(9, 14))
        if by + bh < ph - 8:
            boxes = [(x0 + i * bw, by, bw * 0.9, bh) for i in range(nb)]
    ink = str(rng.choice(list(INKS)))
    extra = {
        "ink": ink, "line_mm": float(rng.choice([rng.uniform(0.12, 0.3), rng.uniform(0.45, 1.0)])),
        "border_mm": float(rng.uniform(0.3, 1.6)), "title": title,
        "title_text": str(rng.choice(["CARTOGRAPHERS", "Cartographers - map sheet", "MAP", "Harita Kagidi",
                                       "Cartographers " + side, "Kartograflar", "Game night map"])),
        "mountain_style": int(rng.integers(3)), "ruins_style": int(rng.integers(3)),
        "waste_style": int(rng.integers(3)), "labels": bool(rng.random() < 0.4),
        "paper_rgb": tuple(float(v) for v in rng.uniform([0.9, 0.9, 0.88], [0.99, 0.99, 0.99])),
        "dashed": bool(rng.random() < 0.15),
    }
    name_line = (x0, y0 - rng.uniform(5, 9), x0 + gw * 0.5) if title else (x0, 12.0, x0 + gw * 0.5)
    return Plan(kind, side, (pw, ph), lattice, {}, [], coins, name_line, boxes,
                {"paper": paper, "cell_mm": round(cell, 2), "coin_track": has_coins, **{
                    kk: v for kk, v in extra.items() if kk != "paper_rgb"}}, extra)


def _text(mask, s, x, y, h_px, font=cv2.FONT_HERSHEY_SIMPLEX, thick=1.0, value=255):
    scale = h_px / 22.0
    cv2.putText(mask, s, (int(x), int(y)), font, scale, value, max(1, int(round(thick))), cv2.LINE_AA)


def _mountain_glyph(mask, quad_px, style, rng, value=255, thick=2):
    """Printed mountain pictogram in the cell quad (px)."""
    from .util import bilinear
    if style == 0:  # two filled peaks
        pts = bilinear(quad_px, [0.1, 0.38, 0.55, 0.7, 0.9], [0.85, 0.18, 0.5, 0.3, 0.85])
        fill_poly(mask, pts, value)
    elif style == 1:  # outlined peaks with a snow line
        pts = bilinear(quad_px, [0.12, 0.4, 0.58, 0.72, 0.88], [0.82, 0.2, 0.52, 0.34, 0.82])
        polyline(mask, pts, thick, value, closed=True)
        polyline(mask, bilinear(quad_px, [0.3, 0.4, 0.5], [0.45, 0.38, 0.45]), thick, value)
    else:  # filled cell tone with a white triangle
        fill_poly(mask, bilinear(quad_px, [0.08, 0.92, 0.92, 0.08], [0.08, 0.08, 0.92, 0.92]), int(value * 0.7))
        fill_poly(mask, bilinear(quad_px, [0.2, 0.5, 0.8], [0.78, 0.22, 0.78]), 0)


def _ruins_glyph(mask, quad_px, style, value=255, thick=1):
    from .util import bilinear
    if style == 0:  # small temple in the top-left corner
        fill_poly(mask, bilinear(quad_px, [0.08, 0.2, 0.32], [0.16, 0.07, 0.16]), value)
        for a in (0.1, 0.18, 0.26):
            polyline(mask, bilinear(quad_px, [a, a], [0.17, 0.3]), thick, value)
        polyline(mask, bilinear(quad_px, [0.07, 0.33], [0.31, 0.31]), thick, value)
    elif style == 1:  # an arch
        t = np.linspace(np.pi, 2 * np.pi, 12)
        a = 0.5 + 0.22 * np.cos(t)
        b = 0.5 + 0.25 * np.sin(t)
        pts = bilinear(quad_px, np.r_[0.28, a, 0.72], np.r_[0.75, b, 0.75])
        polyline(mask, pts, thick * 2, value)
    else:  # a dashed inset square
        q = bilinear(quad_px, [0.12, 0.88, 0.88, 0.12, 0.12], [0.12, 0.12, 0.88, 0.88, 0.12])
        for i in range(4):
            p0, p1 = q[i], q[i + 1]
            for s in np.arange(0, 1, 0.2):
                polyline(mask, np.array([p0 + (p1 - p0) * s, p0 + (p1 - p0) * (s + 0.1)]), thick, value)


def _waste(img, mask_shape, cells_px, style, rng, k, colour):
    """Shade the wasteland cells (union), printed."""
    m = np.zeros(mask_shape, np.uint8)
    for q in cells_px:
        fill_poly(m, q, 255)
    mf = m.astype(np.float32) / 255
    if style == 0:
        apply_ink(img, mf * 0.28, (0.2, 0.2, 0.2))
    h = np.zeros(mask_shape, np.uint8)
    step = max(3, int(k * 2.2))
    H, W = mask_shape
    if style in (1, 0):
        for c in range(-H, W, step):
            cv2.line(h, (c, H), (c + H, 0), 255, max(1, int(k * 0.25)), cv2.LINE_AA)
    else:
        for y in range(0, H, step):
            for x in range((y // step % 2) * step // 2, W, step):
                cv2.circle(h, (x, y), max(1, int(k * 0.35)), 255, -1, cv2.LINE_AA)
    apply_ink(img, mf * h.astype(np.float32) / 255 * 0.8, colour)


def render_generic(plan: Plan, k: float, rng: np.random.Generator):
    e = plan.extra
    W, H = int(round(plan.page_mm[0] * k)), int(round(plan.page_mm[1] * k))
    img, g = _paper((H, W), e["paper_rgb"], rng, k, tone=0.015)
    ink = INKS[e["ink"]]
    m = np.zeros((H, W), np.uint8)
    L = _mm2px(plan.lattice, k)
    lw = e["line_mm"] * k
    for i in range(1, N):
        for a, b in ((L[0, i], L[N, i]), (L[i, 0], L[i, N])):
            if e["dashed"]:
                n = 44
                for s in range(n):
                    if s % 2 == 0:
                        polyline(m, np.array([a + (b - a) * s / n, a + (b - a) * (s + 1) / n]), lw)
            else:
                polyline(m, np.array([a, b]), lw)
    polyline(m, np.array([L[0, 0], L[0, N], L[N, N], L[N, 0]]), e["border_mm"] * k + lw * 0.5, closed=True)
    mside = MAPS[plan.side]
    for r, c in mside.mountains:
        _mountain_glyph(m, _mm2px(plan.cell_quad(r, c), k), e["mountain_style"], rng, thick=max(1, int(lw * 1.5)))
    for r, c in mside.ruins:
        _ruins_glyph(m, _mm2px(plan.cell_quad(r, c), k), e["ruins_style"], thick=max(1, int(0.25 * k)))
    if e["labels"]:
        for i in range(N):
            cx = L[0, i][0] + (L[0, i + 1][0] - L[0, i][0]) * 0.35
            _text(m, str(i + 1), cx, L[0, 0][1] - 1.5 * k, 2.5 * k, thick=0.2 * k)
            _text(m, chr(65 + i), L[0, 0][0] - 4 * k, L[i, 0][1] + (L[1, 0][1] - L[0, 0][1]) * 0.65, 2.5 * k,
                  thick=0.2 * k)
    if e["title"]:
        _text(m, e["title_text"], L[0, 0][0], 14 * k, 6 * k, cv2.FONT_HERSHEY_DUPLEX, 0.5 * k)
    for cx, cy, r in plan.coins:
        cv2.circle(m, (int(cx * k), int(cy * k)), int(r * k), 255, max(1, int(0.3 * k)), cv2.LINE_AA)
    for x, y, w, h in plan.score_boxes:
        cv2.rectangle(m, (int(x * k), int(y * k)), (int((x + w) * k), int((y + h) * k)), 255,
                      max(1, int(0.3 * k)), cv2.LINE_AA)
    apply_ink(img, m.astype(np.float32) / 255 * 0.95, ink)
    if mside.wastelands:
        _waste(img, (H, W), [_mm2px(plan.cell_quad(r, c), k) for r, c in mside.wastelands], e["waste_style"], rng,
               k, ink)
    return img, g


# ------------------------------------------------------------------------------------------------ hand ruled

def _line_funcs(n_lines, positions, slopes, amp, rng):
    """Per line: (pos, slope, [(a, freq, phase)])."""
    out = []
    for i in range(n_lines):
        waves = [(float(rng.normal(0, amp)), float(rng.uniform(0.003, 0.03)), float(rng.uniform(0, 6.3)))
                 for _ in range(3)]
        out.append((float(positions[i]), float(slopes[i]), waves))
    return out


def _eval_line(f, t, t0):
    pos, slope, waves = f
    v = pos + slope * (t - t0)
    for a, fr, ph in waves:
        v = v + a * np.sin(2 * np.pi * fr * t + ph)
    return v


def _crossings(vlines, hlines, t0x, t0y):
    L = np.zeros((N + 1, N + 1, 2))
    for j, hf in enumerate(hlines):
        for i, vf in enumerate(vlines):
            x, y = vf[0], hf[0]
            for _ in range(30):
                x = _eval_line(vf, y, t0y)
                y = _eval_line(hf, x, t0x)
            L[j, i] = (x, y)
    return L


def plan_hand(kind: str, side: str, rng: np.random.Generator) -> Plan:
    squared = kind == "squared"
    if squared:
        pw, ph = ((210.0, 297.0) if rng.random() < 0.6 else (148.0, 210.0))
        sq = 5.0
        step = int(rng.choice([2, 3])) if pw > 200 else 2
        cell = sq * step
        ox, oy = float(rng.uniform(0, sq)), float(rng.uniform(0, sq))  # paper grid phase
        nx0 = int(np.ceil((pw - cell * N) / 2 / sq + rng.integers(-2, 3)))
        nx0 = int(np.clip(nx0, 1, int((pw - cell * N) / sq) - 1))
        ny0 = int(rng.integers(4, max(5, int((ph - cell * N - 30) / sq))))
        xs = np.array([ox + (nx0 + i * step) * sq for i in range(N + 1)]) + rng.normal(0, 0.2, N + 1)
        ys = np.array([oy + (ny0 + i * step) * sq for i in range(N + 1)]) + rng.normal(0, 0.2, N + 1)
        amp = 0.06
        slope_sd = 0.003
        extra = {"sq_mm": sq, "sq_phase": (ox, oy), "sq_rgb": tuple(float(v) for v in [
            (0.55, 0.7, 0.85), (0.6, 0.62, 0.66), (0.55, 0.75, 0.62), (0.75, 0.62, 0.55)][int(rng.integers(4))]),
            "step": step}
    else:
        pw, ph = ((148.0, 210.0) if rng.random() < 0.5 else (210.0, 297.0))
        margin = float(rng.uniform(20, 32)) if pw < 200 else float(rng.uniform(25, 35))
        avail = pw - margin - 8
        cell = float(rng.uniform(0.8, 0.97) * min(avail / N, 16.0))
        x0 = margin + rng.uniform(2, max(2.5, avail - cell * N))
        y0 = float(rng.uniform(22, max(23, min(60, ph - cell * N - 40))))
        d = cell * (1 + rng.normal(0, 0.07, N))
        xs = x0 + np.r_[0, np.cumsum(d)]
        d = cell * (1 + rng.normal(0, 0.07, N))
        ys = y0 + np.r_[0, np.cumsum(d)]
        amp = float(rng.uniform(0.15, 0.5))
        slope_sd = 0.012
        extra = {"margin_mm": margin, "rule_mm": float(rng.uniform(6.5, 8.5)), "rule_y0": float(rng.uniform(14, 30))}
    t0x = float(np.mean(xs))
    t0y = float(np.mean(ys))
    vlines = _line_funcs(N + 1, xs, rng.normal(0, slope_sd, N + 1) + rng.normal(0, slope_sd), amp, rng)
    hlines = _line_funcs(N + 1, ys, rng.normal(0, slope_sd, N + 1) + rng.normal(0, slope_sd), amp, rng)
    lattice = _crossings(vlines, hlines, t0x, t0y)
    pen = "pencil" if rng.random() < 0.55 else str(rng.choice(["blue", "black", "grey"]))
    extra.update({"vlines": vlines, "hlines": hlines, "t0": (t0x, t0y), "pen": pen,
                  "line_mm": float(rng.uniform(0.25, 0.6)), "overshoot_mm": float(rng.uniform(0, 3)),
                  "paper_rgb": tuple(float(v) for v in rng.uniform([0.9, 0.89, 0.84], [0.99, 0.98, 0.96])),
                  "mountain_style": int(rng.integers(2)), "ruins_style": int(rng.integers(3))})
    coins = []
    gb = float(lattice[N, :, 1].max())
    gx0, gx1 = float(lattice[:, 0, 0].min()), float(lattice[:, N, 0].max())
    if rng.random() < 0.5 and gb + 20 < ph:
        r = float(rng.uniform(2.2, min(4.0, (gx1 - gx0) / 14 * 0.42)))
        pitch = (gx1 - gx0 - 2 * r) / 13 * rng.uniform(0.8, 1.0)
        cy = gb + rng.uniform(6, 12)
        coins = [(gx0 + r + i * pitch + rng.normal(0, 0.3), cy + rng.normal(0, 0.4), r * rng.uniform(0.85, 1.1))
                 for i in range(14)]
    name_line = (gx0, float(lattice[0, :, 1].min()) - rng.uniform(5, 10), gx0 + (gx1 - gx0) * 0.6)
    params = {"paper_mm": [pw, ph], "cell_mm": round(float(np.mean(np.diff(xs))), 2), "pen": pen,
              "coin_track": bool(coins), "wobble_mm": round(amp, 3)}
    if squared:
        params["step_squares"] = extra["step"]
    return Plan(kind, side, (pw, ph), lattice, {}, [], coins, name_line, [], params, extra)


PEN_RGB = {"pencil": (0.35, 0.35, 0.37), "blue": (0.12, 0.2, 0.55), "black": (0.1, 0.1, 0.12),
           "grey": (0.3, 0.3, 0.32)}


def render_hand(plan: Plan, k: float, rng: np.random.Generator):
    e = plan.extra
    W, H = int(round(plan.page_mm[0] * k)), int(round(plan.page_mm[1] * k))
    img, g = _paper((H, W), e["paper_rgb"], rng, k, tone=0.02)
    if plan.kind == "squared":
        m = np.zeros((H, W), np.uint8)
        sq = e["sq_mm"]
        ox, oy = e["sq_phase"]
        t = max(1, int(round(0.12 * k)))
        x = ox
        while x < plan.page_mm[0]:
            cv2.line(m, (int(round((x * k - 0.5) * 16)), 0), (int(round((x * k - 0.5) * 16)), H * 16), 255, t,
                     cv2.LINE_AA, 4)
            x += sq
        y = oy
        while y < plan.page_mm[1]:
            cv2.line(m, (0, int(round((y * k - 0.5) * 16))), (W * 16, int(round((y * k - 0.5) * 16))), 255, t,
                     cv2.LINE_AA, 4)
            y += sq
        apply_ink(img, m.astype(np.float32) / 255 * 0.8, e["sq_rgb"])
    else:
        m = np.zeros((H, W), np.uint8)
        y = e["rule_y0"]
        while y < plan.page_mm[1] - 5:
            cv2.line(m, (0, int(round((y * k - 0.5) * 16))), (W * 16, int(round((y * k - 0.5) * 16))), 255,
                     max(1, int(round(0.15 * k))), cv2.LINE_AA, 4)
            y += e["rule_mm"]
        apply_ink(img, m.astype(np.float32) / 255 * 0.55, (0.45, 0.62, 0.88))
        m[:] = 0
        xm = e["margin_mm"] * k
        cv2.line(m, (int(xm * 16), 0), (int(xm * 16), H * 16), 255, max(1, int(round(0.2 * k))), cv2.LINE_AA, 4)
        apply_ink(img, m.astype(np.float32) / 255 * 0.6, (0.9, 0.35, 0.4))
    # the player's ruled grid
    m = np.zeros((H, W), np.uint8)
    t0x, t0y = e["t0"]
    L = plan.lattice
    ov = e["overshoot_mm"]
    lw = e["line_mm"] * k
    for i, vf in enumerate(e["vlines"]):
        ya, yb = L[0, i, 1] - rng.uniform(0, ov), L[N, i, 1] + rng.uniform(0, ov)
        ys = np.linspace(ya, yb, 60)
        xs = _eval_line(vf, ys, t0y)
        polyline(m, _mm2px(np.stack([xs, ys], -1), k), lw * rng.uniform(0.8, 1.2))
    for j, hf in enumerate(e["hlines"]):
        xa, xb = L[j, 0, 0] - rng.uniform(0, ov), L[j, N, 0] + rng.uniform(0, ov)
        xs = np.linspace(xa, xb, 60)
        ys = _eval_line(hf, xs, t0x)
        polyline(m, _mm2px(np.stack([xs, ys], -1), k), lw * rng.uniform(0.8, 1.2))
    mside = MAPS[plan.side]
    # mountains / ruins / wasteland drawn by the player (the sheet's own "print")
    for r, c in mside.mountains:
        q = _mm2px(plan.cell_quad(r, c), k)
        _mountain_glyph(m, q, e["mountain_style"], rng, thick=max(1, int(lw)))
    for r, c in mside.ruins:
        _ruins_glyph(m, _mm2px(plan.cell_quad(r, c), k), e["ruins_style"], thick=max(1, int(lw * 0.8)))
    for cx, cy, r in plan.coins:
        t = np.linspace(0, 2 * np.pi, 24)
        rr = r * (1 + 0.05 * np.sin(3 * t + rng.uniform(0, 6)))
        polyline(m, _mm2px(np.stack([cx + rr * np.cos(t), cy + rr * np.sin(t)], -1), k), lw * 0.8, closed=True)
    mf = m.astype(np.float32) / 255
    pen = e["pen"]
    if pen == "pencil":
        mf *= np.clip(0.35 + 0.9 * g, 0, 1) * rng.uniform(0.6, 0.95)
    apply_ink(img, mf, PEN_RGB[pen])
    if mside.wastelands:
        _waste(img, (H, W), [_mm2px(plan.cell_quad(r, c), k) for r, c in mside.wastelands], 1, rng, k,
               PEN_RGB[pen])
    return img, g


# ------------------------------------------------------------------------------------------------ pad look-alike

def plan_pad(kind: str, side: str, rng: np.random.Generator) -> Plan:
    pw = float(rng.uniform(180, 215))
    ph = pw * 1.445
    x0 = pw * 0.0785
    y0 = ph * 0.188
    cell = pw * 0.0768
    lattice = regular_lattice(x0, y0, cell)
    gw = cell * N
    cy = y0 + gw + 1.466 * cell
    pitch = 0.715 * cell
    coins = [(x0 + 1.417 * cell + i * pitch, cy, 0.17 * cell) for i in range(14)]
    boxes = []
    by = cy + 1.1 * cell
    for s in range(4):
        bx = x0 + s * 2.45 * cell
        for j in range(3):
            boxes.append((bx + j * 0.62 * cell, by, 0.6 * cell, 0.55 * cell))
            boxes.append((bx + j * 0.62 * cell, by + 0.6 * cell, 0.6 * cell, 0.55 * cell))
    extra = {"dashed": bool(rng.random() < 0.7), "labels": bool(rng.random() < 0.75),
             "paper_rgb": tuple(float(v) for v in rng.uniform([0.88, 0.82, 0.7], [0.96, 0.92, 0.84])),
             "line_rgb": tuple(float(v) for v in rng.uniform([0.8, 0.45, 0.2], [0.95, 0.62, 0.38])),
             "frame_rgb": tuple(float(v) for v in rng.uniform([0.25, 0.15, 0.1], [0.4, 0.28, 0.2])),
             "mount_rgb": tuple(float(v) for v in rng.uniform([0.2, 0.08, 0.06], [0.32, 0.14, 0.1]))}
    name_line = (x0 + 0.5 * cell, y0 - 5.6 * cell, x0 + 4.5 * cell)
    return Plan(kind, side, (pw, ph), lattice, {}, [], coins, name_line, boxes,
                {"page_w_mm": round(pw, 1), "dashed": extra["dashed"], "labels": extra["labels"]}, extra)


def render_pad(plan: Plan, k: float, rng: np.random.Generator):
    e = plan.extra
    W, H = int(round(plan.page_mm[0] * k)), int(round(plan.page_mm[1] * k))
    img, g = _paper((H, W), e["paper_rgb"], rng, k, tone=0.05, stains=0.1)
    # faint map-like contour lines in the background
    n = value_noise((H // 4 + 1, W // 4 + 1), 5, rng, octaves=2)
    cont = (np.abs(np.sin(n * 18)) < 0.06).astype(np.float32)
    cont = cv2.resize(cont, (W, H), interpolation=cv2.INTER_LINEAR)
    apply_ink(img, cont * 0.12, (0.55, 0.45, 0.35))
    L = _mm2px(plan.lattice, k)
    cell = L[0, 1, 0] - L[0, 0, 0]
    m = np.zeros((H, W), np.uint8)
    lw = max(1.0, 0.35 * k)
    for i in range(1, N):
        for a, b in ((L[0, i], L[N, i]), (L[i, 0], L[i, N])):
            if e["dashed"]:
                n_d = N * 4
                for s in range(n_d):
                    u0 = (s + 0.2) / n_d
                    polyline(m, np.array([a + (b - a) * u0, a + (b - a) * (u0 + 0.55 / n_d)]), lw)
            else:
                polyline(m, np.array([a, b]), lw * 0.7)
    apply_ink(img, m.astype(np.float32) / 255 * 0.85, e["line_rgb"])
    # decorated double frame
    m[:] = 0
    tl, br = L[0, 0], L[N, N]
    for off, t in ((0.12 * cell, 0.35 * k), (0.42 * cell, 0.6 * k)):
        cv2.rectangle(m, (int(tl[0] - off), int(tl[1] - off)), (int(br[0] + off), int(br[1] + off)), 255,
                      max(1, int(t)), cv2.LINE_AA)
    # ruler pattern between the frame lines
    band_a, band_b = 0.17 * cell, 0.37 * cell
    for side_i in range(4):
        length = br[0] - tl[0] if side_i % 2 == 0 else br[1] - tl[1]
        nseg = 16
        for s in range(nseg):
            if s % 2:
                continue
            u0, u1 = s / nseg * length, (s + 0.8) / nseg * length
            if side_i == 0:
                p = (tl[0] + u0, tl[1] - band_b, tl[0] + u1, tl[1] - band_a)
            elif side_i == 1:
                p = (br[0] + band_a, tl[1] + u0, br[0] + band_b, tl[1] + u1)
            elif side_i == 2:
                p = (tl[0] + u0, br[1] + band_a, tl[0] + u1, br[1] + band_b)
            else:
                p = (tl[0] - band_b, tl[1] + u0, tl[0] - band_a, tl[1] + u1)
            cv2.rectangle(m, (int(p[0]), int(p[1])), (int(p[2]), int(p[3])), 200, -1)
    # labels
    if e["labels"]:
        for i in range(N):
            _text(m, chr(65 + i), tl[0] - 0.75 * cell, L[i, 0, 1] + 0.6 * cell, 0.25 * cell, cv2.FONT_HERSHEY_COMPLEX,
                  0.12 * k, 180)
            _text(m, str(i + 1), L[0, i, 0] + 0.35 * cell, br[1] + 0.78 * cell, 0.22 * cell,
                  cv2.FONT_HERSHEY_COMPLEX, 0.12 * k, 180)
    # header: labels, banner, compass
    _text(m, "CARTOGRAPHER:", tl[0], tl[1] - 5.9 * cell, 0.3 * cell, cv2.FONT_HERSHEY_COMPLEX, 0.2 * k)
    _text(m, "TITLE:", tl[0], tl[1] - 4.3 * cell, 0.3 * cell, cv2.FONT_HERSHEY_COMPLEX, 0.2 * k)
    for yy in (tl[1] - 5.5 * cell, tl[1] - 3.9 * cell):
        cv2.line(m, (int(tl[0]), int(yy)), (int(tl[0] + 3.6 * cell), int(yy)), 160, max(1, int(0.2 * k)))
    cc = (int(br[0] - 1.3 * cell), int(tl[1] - 4.6 * cell))
    cv2.circle(m, cc, int(0.9 * cell), 200, max(1, int(0.2 * k)), cv2.LINE_AA)
    for a in range(8):
        ang = a * np.pi / 4
        rr = 1.4 * cell if a % 2 == 0 else 0.8 * cell
        cv2.line(m, cc, (int(cc[0] + rr * np.cos(ang)), int(cc[1] + rr * np.sin(ang))), 220, max(1, int(0.3 * k)),
                 cv2.LINE_AA)
    mid = (tl[0] + br[0]) / 2
    ban = np.array([[mid - 2.2 * cell, tl[1] - 6.2 * cell], [mid + 2.2 * cell, tl[1] - 6.2 * cell],
                    [mid + 2.0 * cell, tl[1] - 5.5 * cell], [mid + 2.2 * cell, tl[1] - 4.8 * cell],
                    [mid - 2.2 * cell, tl[1] - 4.8 * cell], [mid - 2.0 * cell, tl[1] - 5.5 * cell]])
    polyline(m, ban, 0.3 * k, 200, closed=True)
    shield = np.array([[mid - 0.8 * cell, tl[1] - 4.3 * cell], [mid + 0.8 * cell, tl[1] - 4.3 * cell],
                       [mid + 0.8 * cell, tl[1] - 3.1 * cell], [mid, tl[1] - 2.4 * cell],
                       [mid - 0.8 * cell, tl[1] - 3.1 * cell]])
    polyline(m, shield, 0.35 * k, 220, closed=True)
    _text(m, f"({plan.side})", br[0] - 0.6 * cell, tl[1] - 0.8 * cell, 0.28 * cell, cv2.FONT_HERSHEY_COMPLEX, 0.2 * k)
    # score boxes and the coin bar
    for x, y, w, h in plan.score_boxes:
        cv2.rectangle(m, (int(x * k), int(y * k)), (int((x + w) * k), int((y + h) * k)), 170, max(1, int(0.2 * k)))
    cx0, cy0, rr = plan.coins[0]
    cx1 = plan.coins[-1][0]
    cv2.rectangle(m, (int((cx0 - 2.2 * rr) * k), int((cy0 - 1.6 * rr) * k)),
                  (int((cx1 + 2.2 * rr) * k), int((cy0 + 1.6 * rr) * k)), 200, max(1, int(0.4 * k)), cv2.LINE_AA)
    apply_ink(img, m.astype(np.float32) / 255 * 0.9, e["frame_rgb"])
    m[:] = 0
    for cx, cy, r in plan.coins:
        dot(m, (cx * k, cy * k), r * k, 255)
    apply_ink(img, m.astype(np.float32) / 255 * 0.75, (0.95, 0.72, 0.2))
    m[:] = 0
    for cx, cy, r in plan.coins:
        cv2.circle(m, (int(cx * k), int(cy * k)), int(r * k * 0.7), 255, max(1, int(0.15 * k)), cv2.LINE_AA)
    apply_ink(img, m.astype(np.float32) / 255 * 0.6, (0.6, 0.4, 0.1))
    mside = MAPS[plan.side]
    from .util import bilinear
    for r, c in mside.mountains:
        q = _mm2px(plan.cell_quad(r, c), k)
        mm = np.zeros((H, W), np.uint8)
        fill_poly(mm, bilinear(q, [0.04, 0.96, 0.96, 0.04], [0.04, 0.04, 0.96, 0.96]), 255)
        x0, y0 = int(q[0, 0]), int(q[0, 1])
        s = int(q[2, 0] - q[0, 0]) + 2
        hatch = np.zeros((s, s), np.uint8)
        for t in range(-s, s, max(2, int(0.6 * k))):
            cv2.line(hatch, (t, s), (t + s, 0), 255, max(1, int(0.3 * k)), cv2.LINE_AA)
        sub = mm[y0:y0 + s, x0:x0 + s].astype(np.float32) / 255 * (0.8 + 0.2 * hatch[:mm[y0:y0 + s].shape[0],
                                                                                     :mm.shape[1] - x0] / 255)
        apply_ink(img, sub * 1.15, e["mount_rgb"], x0, y0)
        mm = np.zeros((s, s), np.uint8)
        qq = q - np.array([x0, y0])
        polyline(mm, bilinear(qq, [0.18, 0.4, 0.52, 0.64, 0.84], [0.72, 0.25, 0.45, 0.3, 0.72]), 0.4 * k, 255, True)
        apply_paint(img, mm.astype(np.float32) / 255 * 0.9, (0.95, 0.93, 0.88), x0, y0)
        mm[:] = 0
        dot(mm, bilinear(qq, 0.52, 0.66), 0.14 * cell, 255)
        apply_paint(img, mm.astype(np.float32) / 255, (0.93, 0.7, 0.15), x0, y0)
    m = np.zeros((H, W), np.uint8)
    for r, c in mside.ruins:
        q = _mm2px(plan.cell_quad(r, c), k)
        # column + small figure, as on the pad
        fill_poly(m, bilinear(q, [0.22, 0.45, 0.45, 0.22], [0.28, 0.28, 0.36, 0.36]), 255)
        fill_poly(m, bilinear(q, [0.26, 0.41, 0.41, 0.26], [0.36, 0.36, 0.7, 0.7]), 255)
        fill_poly(m, bilinear(q, [0.2, 0.47, 0.47, 0.2], [0.7, 0.7, 0.78, 0.78]), 255)
        fill_poly(m, bilinear(q, [0.52, 0.72, 0.72, 0.52], [0.5, 0.5, 0.78, 0.78]), 255)
        dot(m, bilinear(q, 0.62, 0.44), 0.07 * cell, 255)
    apply_ink(img, m.astype(np.float32) / 255 * 0.8, (0.92, 0.6, 0.22))
    if mside.wastelands:
        m = np.zeros((H, W), np.uint8)
        for r, c in mside.wastelands:
            fill_poly(m, _mm2px(plan.cell_quad(r, c), k), 255)
        rough = value_noise((H, W), 60, rng, octaves=2)
        mf = cv2.GaussianBlur(m.astype(np.float32) / 255, (0, 0), 0.12 * cell)
        mf = np.clip((mf - 0.5 + 0.12 * rough) * 8, 0, 1)
        apply_paint(img, mf * 0.85, (0.6, 0.6, 0.62))
    return img, g


# ------------------------------------------------------------------------------------------------ real pad scans

# Grid outer corners in the scans (pixel-EDGE coordinates: pixel i spans [i, i+1)). Measured once with OpenCV:
# the five printed mountain cells are dark (5x5 box-blurred grey < 90); their connected-component bounding boxes,
# matched to MAPS[side].mountains, were fitted by least squares to x = x0 + col * cell (left and right edges) and
# y = y0 + row * cell; the fitted lattice was drawn over a 3x upscale of each scan and sits on the printed dashed
# lines to ~0.3 scan px all round. Coin centres: connected components of the yellow coins (HSV), fitted to a line
# on side B and transferred to side A in grid units (checked against A's last coin at x = 371.8).
SCANS = {
    "A": {"file": "Cartographers_game_field.png", "size": (413, 597), "x0": 32.41, "cw": 31.706, "y0": 112.27,
          "ch": 31.805},
    "B": {"file": "Cartographers_game_field_Backside.png", "size": (387, 565), "x0": 31.0, "cw": 29.746,
          "y0": 110.86, "ch": 29.669},
}
SCAN_COIN_GRID = (1.417, 0.7155, 1.466, 0.17)  # first coin centre (cells from grid left), pitch, y below grid, r
SCAN_PAGE_W_MM = 200.0


def scan_dir() -> Path:
    d = os.environ.get("MAPSMITH_PAD_SCANS")
    if not d:
        raise ScansMissing("MAPSMITH_PAD_SCANS is not set: point it at the folder holding "
                           "Cartographers_game_field.png and Cartographers_game_field_Backside.png")
    p = Path(d)
    for s in SCANS.values():
        if not (p / s["file"]).is_file():
            raise ScansMissing(f"pad scan {s['file']} not found in {p} (MAPSMITH_PAD_SCANS)")
    return p


def scans_available() -> bool:
    """Whether the pad scans are where `scan_dir` looks (the benchmarks skip `padscan` without them)."""
    try:
        scan_dir()
    except ScansMissing:
        return False
    return True


@lru_cache(maxsize=2)
def _load_scan(path: str) -> np.ndarray:
    im = cv2.imread(path, cv2.IMREAD_COLOR)
    if im is None:
        raise ScansMissing(f"cannot read pad scan {path}")
    return cv2.cvtColor(im, cv2.COLOR_BGR2RGB).astype(np.float32) / 255.0


def plan_padscan(kind: str, side: str, rng: np.random.Generator) -> Plan:
    d = scan_dir()
    s = SCANS[side]
    mmpp = SCAN_PAGE_W_MM / s["size"][0]
    lattice = regular_lattice(s["x0"] * mmpp, s["y0"] * mmpp, s["cw"] * mmpp, s["ch"] * mmpp)
    cw = s["cw"] * mmpp
    f0, pitch, dy, r = SCAN_COIN_GRID
    gx, gb = s["x0"] * mmpp, (s["y0"] + N * s["ch"]) * mmpp
    coins = [(gx + (f0 + i * pitch) * cw, gb + dy * cw, r * cw) for i in range(14)]
    boxes = []
    by = gb + 2.55 * cw
    for si in range(4):
        for j in range(2):
            boxes.append((gx + si * 2.45 * cw + j * 0.75 * cw + 0.05 * cw, by, 0.6 * cw, 0.5 * cw))
    name_line = (s["x0"] * mmpp, 42 * mmpp, (s["x0"] + 95) * mmpp)  # the CARTOGRAPHER line, ~y 44 px in both scans
    return Plan(kind, side, (s["size"][0] * mmpp, s["size"][1] * mmpp), lattice, {}, [], coins, name_line, boxes,
                {"scan": s["file"]}, {"path": str(d / s["file"]), "mmpp": mmpp})


def render_padscan(plan: Plan, k: float, rng: np.random.Generator):
    scan = _load_scan(plan.extra["path"])
    s = k * plan.extra["mmpp"]
    W, H = int(round(plan.page_mm[0] * k)), int(round(plan.page_mm[1] * k))
    M = np.array([[s, 0, 0.5 * s - 0.5], [0, s, 0.5 * s - 0.5]])
    img = cv2.warpAffine(scan, M, (W, H), flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE)
    g = grain((H, W), rng, scale=max(1.0, k / 8))
    img *= (0.97 + 0.06 * g)[..., None]
    np.clip(img, 0, 1, out=img)
    return img, g


PAINTERS = {
    "ours": (plan_ours, render_ours), "ours-clipped": (plan_ours, render_ours),
    "generic": (plan_generic, render_generic), "handruled": (plan_hand, render_hand),
    "squared": (plan_hand, render_hand), "pad": (plan_pad, render_pad), "padscan": (plan_padscan, render_padscan),
}
