"""Blank sheets, flat and in their own pixel frame: what the paper looks like before anyone draws on it.

Every sheet is an RGB float image (0..1) of the whole page plus its 12x12 lattice of grid-line crossings
(`nodes[i][j]` = (x, y) of the crossing of horizontal line i and vertical line j, in continuous pixel
coordinates where pixel k spans [k, k+1)). Cells are the quads between neighbouring crossings, so hand-ruled
grids with uneven cells are described exactly. World units of the camera model are these sheet pixels.

Kinds: `ours` (Mapsmith's PDF, rasterised with pypdfium2), `generic` (other printed 11x11 grids), `handruled`
(pen-ruled on lined notebook paper), `squared` (traced on graph paper), `pad` (a look-alike of the game's pad
drawn here) and `padscan` (the real pad scans, only when present locally; never committed).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from .truth import N, printed_cells, ruins_cells

SHIFT = 4  # cv2 fixed-point bits for sub-pixel drawing
ONE = 1 << SHIFT


def cvpts(points) -> np.ndarray:
    """Continuous pixel coordinates -> cv2 fixed-point int32 points (cv2 puts pixel centres at integers)."""
    p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    return np.round((p - 0.5) * ONE).astype(np.int32)


@dataclass
class Sheet:
    kind: str
    side: str
    template: str
    image: np.ndarray  # (H, W, 3) float32 0..1
    nodes: np.ndarray  # (12, 12, 2) float64, (x, y)
    alpha: np.ndarray | None = None  # page mask for ragged pages (None = the whole rectangle is paper)
    legend: list[tuple[str, np.ndarray]] = field(default_factory=list)  # (terrain, 4x2 quad) on our sheet
    coins: list[tuple[float, float, float]] = field(default_factory=list)  # coin track circles (x, y, r)
    markers: dict[str, np.ndarray] = field(default_factory=dict)  # corner -> 4x2 marker quad (ours)
    printed: bool = True  # mountains/wastelands printed (False: the player draws them)
    ink: tuple[float, float, float] = (0.15, 0.15, 0.18)  # the grid's ink, used for player-drawn features
    params: dict = field(default_factory=dict)

    @property
    def size(self) -> tuple[int, int]:
        return self.image.shape[1], self.image.shape[0]

    @property
    def page_corners(self) -> np.ndarray:
        w, h = self.size
        return np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)

    @property
    def grid_corners(self) -> np.ndarray:
        n = self.nodes
        return np.array([n[0, 0], n[0, N], n[N, N], n[N, 0]], dtype=np.float64)

    def cell_quad(self, r: int, c: int) -> np.ndarray:
        n = self.nodes
        return np.array([n[r, c], n[r, c + 1], n[r + 1, c + 1], n[r + 1, c]], dtype=np.float64)

    @property
    def cell_px(self) -> float:
        g = self.grid_corners
        return float((np.linalg.norm(g[1] - g[0]) + np.linalg.norm(g[2] - g[1])) / (2 * N))


def regular_nodes(x0: float, y0: float, cell: float) -> np.ndarray:
    j, i = np.meshgrid(np.arange(N + 1), np.arange(N + 1))
    return np.stack([x0 + j * cell, y0 + i * cell], axis=-1).astype(np.float64)


def paper_noise(rng: np.random.Generator, h: int, w: int, amount: float, scale: float = 1.0) -> np.ndarray:
    """Fibre-like paper texture: fine noise plus a soft blotchy component, mean 1."""
    fine = rng.normal(0, 1, (h, w)).astype(np.float32)
    fine = cv2.GaussianBlur(fine, (0, 0), 0.7 * scale)
    low = cv2.resize(rng.normal(0, 1, (max(2, h // 64), max(2, w // 64))).astype(np.float32), (w, h),
                     interpolation=cv2.INTER_CUBIC)
    return 1 + amount * (0.6 * fine / (fine.std() + 1e-6) + 0.4 * low)


def _tint(img: np.ndarray, paper_rgb, rng, amount=0.012) -> np.ndarray:
    h, w = img.shape[:2]
    tex = paper_noise(rng, h, w, amount)
    return np.clip(img * np.asarray(paper_rgb, np.float32) * tex[..., None], 0, 1).astype(np.float32)


def _line(img, p, q, color, width, dash: float | None = None, gap: float | None = None) -> None:
    p, q = np.asarray(p, float), np.asarray(q, float)
    if dash is None:
        cv2.line(img, *map(tuple, cvpts([p, q])), color, max(1, int(round(width))), cv2.LINE_AA, SHIFT)
        return
    length = float(np.linalg.norm(q - p))
    step = dash + (gap or dash)
    t = 0.0
    while t < length:
        a = p + (q - p) * (t / length)
        b = p + (q - p) * (min(t + dash, length) / length)
        cv2.line(img, *map(tuple, cvpts([a, b])), color, max(1, int(round(width))), cv2.LINE_AA, SHIFT)
        t += step


def _text(img, text, x, y, height, color, thickness=1, font=cv2.FONT_HERSHEY_SIMPLEX, center=False) -> None:
    scale = height / 22.0
    th = max(1, int(round(thickness)))
    (tw, _), _ = cv2.getTextSize(text, font, scale, th)
    if center:
        x -= tw / 2
    cv2.putText(img, text, (int(x), int(y)), font, scale, color, th, cv2.LINE_AA)


# ---------------------------------------------------------------- ours (Mapsmith's PDF)

def ours(rng: np.random.Generator, side: str, long_px: int) -> Sheet:
    from printables.layout import sheet_layout
    from printables.mapsheet import map_sheet_pdf
    from printables.raster import rasterize

    lang = "tr" if rng.random() < 0.5 else "en"
    sid = "".join(rng.choice(list("23456789ABCDEFGHJKMNPQRSTVWXYZ"), 12))
    pdf = map_sheet_pdf(side, "a4", lang, sheet_ids=[sid])
    lay = sheet_layout(side, "a4")
    s = long_px / lay.page_h_pt
    img = rasterize(pdf, dpi=72 * s).astype(np.float32) / 255
    paper = (rng.uniform(0.95, 1.0), rng.uniform(0.94, 1.0), rng.uniform(0.9, 0.99))
    # a printer's own tone: slightly weak black and a colour cast
    ink_gain = rng.uniform(0.0, 0.12)
    img = img * (1 - ink_gain) + ink_gain
    img = _tint(img, paper, rng)
    g = lay.grid
    nodes = regular_nodes(g.x_pt * s, g.y_pt * s, g.cell_pt * s)
    legend = [(c.terrain, np.array([[c.x_pt, c.y_pt], [c.x_pt + c.cell_pt, c.y_pt],
                                    [c.x_pt + c.cell_pt, c.y_pt + c.cell_pt], [c.x_pt, c.y_pt + c.cell_pt]]) * s)
              for c in lay.legend]
    coins = [((c.x_pt + c.d_pt / 2) * s, (c.y_pt + c.d_pt / 2) * s, c.d_pt / 2 * s) for c in lay.coins]
    markers = {m.corner: np.array([[m.x_pt, m.y_pt], [m.x_pt + m.size_pt, m.y_pt],
                                   [m.x_pt + m.size_pt, m.y_pt + m.size_pt], [m.x_pt, m.y_pt + m.size_pt]]) * s
               for m in lay.markers}
    return Sheet("ours", side, f"{side}.png", img, nodes, legend=legend, coins=coins, markers=markers,
                 params={"lang": lang, "sheet_id": sid, "px_per_pt": s, "ink_gain": ink_gain})


# ---------------------------------------------------------------- generic printed grids

GENERIC_DESIGNS = ("thin", "thick", "dashed", "grey", "coloured")


def generic(rng: np.random.Generator, side: str, long_px: int) -> Sheet:
    h = long_px
    w = int(round(h / 1.414))
    img = np.ones((h, w, 3), np.float32)
    design = GENERIC_DESIGNS[rng.integers(len(GENERIC_DESIGNS))]
    labels = bool(rng.random() < 0.5)
    grid_frac = rng.uniform(0.68, 0.86)
    cell = w * grid_frac / N
    x0 = (w - cell * N) / 2 + rng.uniform(-0.02, 0.02) * w
    y0 = h * rng.uniform(0.12, 0.2)
    ink = {"thin": (0.1, 0.1, 0.1), "thick": (0.05, 0.05, 0.05), "dashed": (0.2, 0.2, 0.2),
           "grey": (0.55, 0.55, 0.55),
           "coloured": [(0.15, 0.3, 0.65), (0.2, 0.5, 0.3), (0.5, 0.3, 0.15), (0.6, 0.2, 0.3)][rng.integers(4)]}[design]
    lw = {"thin": 0.018, "thick": 0.07, "dashed": 0.03, "grey": 0.03, "coloured": 0.035}[design] * cell
    border = lw * rng.uniform(1.0, 2.5)
    nodes = regular_nodes(x0, y0, cell)
    dash = cell * 0.18 if design == "dashed" else None
    for k in range(N + 1):
        wk = border if k in (0, N) else lw
        dk = None if k in (0, N) else dash
        _line(img, nodes[k, 0], nodes[k, N], ink, wk, dk)
        _line(img, nodes[0, k], nodes[N, k], ink, wk, dk)
    title = ["CARTOGRAPHERS", "MAP", "KARTOGRAF", "Cartographers - map sheet", "HARITA"][rng.integers(5)]
    _text(img, title, w / 2, y0 * 0.55, cell * 0.7, ink, max(1, cell * 0.06), center=True)
    if rng.random() < 0.6:
        _text(img, "Name: ________", x0, y0 * 0.85, cell * 0.35, ink, max(1, cell * 0.03))
    if labels:
        for k in range(N):
            _text(img, "ABCDEFGHIJK"[k], x0 - cell * 0.55, nodes[k, 0][1] + cell * 0.65, cell * 0.45, ink,
                  max(1, cell * 0.04), center=True)
            _text(img, str(k + 1), nodes[0, k][0] + cell / 2, y0 + N * cell + cell * 0.6, cell * 0.4, ink,
                  max(1, cell * 0.04), center=True)
    # score boxes below the grid
    by = y0 + N * cell + cell * (1.3 if labels else 0.9)
    nb = int(rng.integers(4, 6))
    bw = cell * N / nb
    for b in range(nb):
        p = np.array([x0 + b * bw + bw * 0.08, by])
        cv2.rectangle(img, tuple(cvpts([p])[0]), tuple(cvpts([p + [bw * 0.84, cell * 0.9]])[0]), ink,
                      max(1, int(lw)), cv2.LINE_AA, SHIFT)
        _text(img, ["Spring", "Summer", "Fall", "Winter", "Total"][b], p[0] + bw * 0.05, p[1] - cell * 0.12,
              cell * 0.3, ink, 1)
    img = _tint(img, (rng.uniform(0.95, 1), rng.uniform(0.95, 1), rng.uniform(0.92, 1)), rng)
    return Sheet("generic", side, "generic", img, nodes, printed=False, ink=ink,
                 params={"design": design, "labels": labels, "cell_px": cell})


# ---------------------------------------------------------------- hand-ruled on notebook paper

def _wobble(rng, n: int, amp: float) -> np.ndarray:
    """A smooth random offset profile of n samples (a hand's slow drift plus small tremor)."""
    k = np.linspace(0, 1, n)
    out = np.zeros(n)
    for f in (1, 2, 3, 5):
        out += rng.normal(0, amp / f) * np.sin(np.pi * f * k + rng.uniform(0, 2 * np.pi))
    return out + rng.normal(0, amp * 0.08, n)


def handruled(rng: np.random.Generator, side: str, long_px: int) -> Sheet:
    h = long_px
    w = int(round(h / 1.414))
    mm = h / 297.0  # an A4 notebook page
    paper = np.array([rng.uniform(0.95, 1), rng.uniform(0.94, 0.99), rng.uniform(0.86, 0.95)], np.float32)
    img = np.ones((h, w, 3), np.float32)
    pitch = mm * rng.uniform(7.0, 8.5)
    blue = (0.55, 0.7, 0.92)
    top = mm * rng.uniform(22, 35)
    y = top
    while y < h - mm * 5:
        _line(img, (0, y), (w, y), blue, max(1, mm * 0.25))
        y += pitch
    margin = mm * rng.uniform(20, 32)
    _line(img, (margin, 0), (margin, h), (0.9, 0.45, 0.45), max(1, mm * 0.35))
    cell = mm * rng.uniform(10.5, 14.5)
    x0 = max(margin + mm * rng.uniform(4, 12), (w - cell * N) / 2 + rng.uniform(-0.5, 0.5) * cell)
    x0 = min(x0, w - cell * N - mm * 6)
    y0 = top + pitch * rng.uniform(1.5, 4)
    xs = x0 + np.concatenate([[0], np.cumsum(cell * rng.uniform(0.86, 1.14, N))])
    ys = y0 + np.concatenate([[0], np.cumsum(cell * rng.uniform(0.86, 1.14, N))])
    slope_v = rng.normal(0, 0.015, N + 1)
    slope_h = rng.normal(0, 0.015, N + 1)
    amp = cell * rng.uniform(0.02, 0.06)
    ns = 64
    prof_v = [_wobble(rng, ns, amp) for _ in range(N + 1)]
    prof_h = [_wobble(rng, ns, amp) for _ in range(N + 1)]
    yspan = (ys[0] - cell * 0.3, ys[-1] + cell * 0.3)
    xspan = (xs[0] - cell * 0.3, xs[-1] + cell * 0.3)

    def vx(j, yy):  # x of vertical line j at height yy
        t = np.clip((yy - yspan[0]) / (yspan[1] - yspan[0]), 0, 1)
        return xs[j] + slope_v[j] * (yy - ys[0]) + np.interp(t, np.linspace(0, 1, ns), prof_v[j])

    def hy(i, xx):
        t = np.clip((xx - xspan[0]) / (xspan[1] - xspan[0]), 0, 1)
        return ys[i] + slope_h[i] * (xx - xs[0]) + np.interp(t, np.linspace(0, 1, ns), prof_h[i])

    nodes = np.zeros((N + 1, N + 1, 2))
    for i in range(N + 1):
        for j in range(N + 1):
            yy = ys[i]
            for _ in range(6):
                xx = vx(j, yy)
                yy = hy(i, xx)
            nodes[i, j] = (vx(j, yy), yy)
    inks = [(0.1, 0.12, 0.35), (0.08, 0.08, 0.1), (0.25, 0.25, 0.27)]
    ink = inks[rng.integers(len(inks))]
    pen = max(1.0, mm * rng.uniform(0.3, 0.6))
    for j in range(N + 1):
        a, b = yspan[0] + rng.uniform(0, 0.3) * cell, yspan[1] - rng.uniform(0, 0.3) * cell
        yy = np.linspace(a, b, 80)
        cv2.polylines(img, [cvpts(np.stack([vx(j, yy), yy], 1))], False, ink, int(round(pen)), cv2.LINE_AA, SHIFT)
    for i in range(N + 1):
        a, b = xspan[0] + rng.uniform(0, 0.3) * cell, xspan[1] - rng.uniform(0, 0.3) * cell
        xx = np.linspace(a, b, 80)
        cv2.polylines(img, [cvpts(np.stack([xx, hy(i, xx)], 1))], False, ink, int(round(pen)), cv2.LINE_AA, SHIFT)
    img = _tint(img, paper, rng, 0.015)
    return Sheet("handruled", side, "handruled", img, nodes, printed=False, ink=ink,
                 params={"line_pitch_px": pitch, "cell_px": cell, "wobble_px": amp})


# ---------------------------------------------------------------- traced on squared paper

def squared(rng: np.random.Generator, side: str, long_px: int) -> Sheet:
    h = long_px
    w = int(round(h / 1.414))
    mm = h / 297.0
    sq = mm * 5
    img = np.ones((h, w, 3), np.float32)
    col = [(0.6, 0.72, 0.85), (0.7, 0.8, 0.7), (0.72, 0.72, 0.72)][rng.integers(3)]
    ox, oy = rng.uniform(0, sq), rng.uniform(0, sq)
    fine = max(1, mm * 0.18)
    for x in np.arange(ox, w, sq):
        _line(img, (x, 0), (x, h), col, fine)
    for y in np.arange(oy, h, sq):
        _line(img, (0, y), (w, y), col, fine)
    per = int(rng.choice([2, 2, 3])) if w / (N * 3 * sq) > 1 else 2
    cell = per * sq
    nx = int((w - N * cell) / sq) // 2
    ny = int(rng.integers(4, max(5, int((h - N * cell) / sq) - 10)))
    x0, y0 = ox + nx * sq, oy + ny * sq
    nodes = regular_nodes(x0, y0, cell) + rng.normal(0, sq * 0.03, (N + 1, N + 1, 2))
    ink = [(0.1, 0.12, 0.35), (0.08, 0.08, 0.1), (0.3, 0.3, 0.3)][rng.integers(3)]
    pen = max(1.0, mm * rng.uniform(0.3, 0.6))
    for k in range(N + 1):
        cv2.polylines(img, [cvpts(nodes[k, :])], False, ink, int(round(pen)), cv2.LINE_AA, SHIFT)
        cv2.polylines(img, [cvpts(nodes[:, k])], False, ink, int(round(pen)), cv2.LINE_AA, SHIFT)
    img = _tint(img, (rng.uniform(0.95, 1), rng.uniform(0.95, 1), rng.uniform(0.9, 0.98)), rng)
    return Sheet("squared", side, "squared", img, nodes, printed=False, ink=ink,
                 params={"square_px": sq, "squares_per_cell": per})


# ---------------------------------------------------------------- the game's pad, drawn in code

# Proportions measured on the pad (in units of one cell): the page is 13 x 18.8 cells, the grid's top-left
# crossing sits 1.0 cell in and 3.49 cells down; the coin track's centre line is 1.4 cells below the grid.
PAD_W, PAD_H, PAD_X0, PAD_Y0 = 13.0, 18.8, 0.99, 3.49
PAD_COIN_DY, PAD_COIN_PITCH, PAD_COIN_R = 1.44, 0.716, 0.227
PARCH = (0.91, 0.86, 0.77)
BROWN = (0.33, 0.17, 0.11)


def pad(rng: np.random.Generator, side: str, long_px: int) -> Sheet:
    cell = long_px / PAD_H
    h, w = long_px, int(round(PAD_W * cell))
    base = np.array(PARCH, np.float32) * rng.uniform(0.96, 1.03, 3).astype(np.float32)
    img = np.ones((h, w, 3), np.float32) * np.clip(base, 0, 1)
    # faint map texture: coastlines and contour strokes in pale brown
    tex = np.zeros((h, w), np.float32)
    for _ in range(int(rng.integers(10, 20))):
        pts = np.cumsum(rng.normal(0, cell * 0.35, (40, 2)), 0) + rng.uniform([0, 0], [w, h])
        cv2.polylines(tex, [cvpts(pts)], False, 1.0, max(1, int(cell * 0.03)), cv2.LINE_AA, SHIFT)
    img *= (1 - 0.12 * tex[..., None] * (1 - np.array([0.6, 0.45, 0.3], np.float32)))
    blot = paper_noise(rng, h, w, 0.05)
    img *= blot[..., None]
    x0, y0 = PAD_X0 * cell, PAD_Y0 * cell
    nodes = regular_nodes(x0, y0, cell)
    gw = N * cell
    # thick decorated double frame
    fo = cell * 0.28
    cv2.rectangle(img, tuple(cvpts([(x0 - fo, y0 - fo)])[0]), tuple(cvpts([(x0 + gw + fo, y0 + gw + fo)])[0]),
                  BROWN, max(1, int(cell * 0.07)), cv2.LINE_AA, SHIFT)
    cv2.rectangle(img, tuple(cvpts([(x0, y0)])[0]), tuple(cvpts([(x0 + gw, y0 + gw)])[0]), BROWN,
                  max(1, int(cell * 0.05)), cv2.LINE_AA, SHIFT)
    band = cell * 0.14
    for k in np.arange(0, gw + 2 * fo, cell * 0.3):  # the ruler-like decoration between the two lines
        for (p, q) in (((x0 - fo + k, y0 - fo + 0.05 * cell), (x0 - fo + k, y0 - fo + band)),
                       ((x0 - fo + k, y0 + gw + fo - band), (x0 - fo + k, y0 + gw + fo - 0.05 * cell)),
                       ((x0 - fo + 0.05 * cell, y0 - fo + k), (x0 - fo + band, y0 - fo + k)),
                       ((x0 + gw + fo - band, y0 - fo + k), (x0 + gw + fo - 0.05 * cell, y0 - fo + k))):
            _line(img, p, q, BROWN, max(1, cell * 0.05))
    orange = (0.85, 0.58, 0.3) if side == "A" else (0.55, 0.6, 0.68)
    for k in range(1, N):
        _line(img, nodes[k, 0], nodes[k, N], orange, max(1, cell * 0.035), cell * 0.14, cell * 0.09)
        _line(img, nodes[0, k], nodes[N, k], orange, max(1, cell * 0.035), cell * 0.14, cell * 0.09)
    label = (0.8, 0.6, 0.25) if side == "A" else (0.45, 0.5, 0.6)
    for k in range(N):
        _text(img, "ABCDEFGHIJK"[k], x0 - cell * 0.62, y0 + (k + 0.68) * cell, cell * 0.36, label,
              max(1, cell * 0.04), cv2.FONT_HERSHEY_COMPLEX, center=True)
        _text(img, str(k + 1), x0 + (k + 0.5) * cell, y0 + gw + fo + cell * 0.5, cell * 0.3, label,
              max(1, cell * 0.04), cv2.FONT_HERSHEY_COMPLEX, center=True)
    sheet = Sheet("pad", side, f"pad-{side}", img, nodes, params={"cell_px": cell})
    _pad_features(sheet, rng)
    # header: name lines, a banner and a compass rose
    _text(img, "CARTOGRAPHER:", cell * 0.6, cell * 0.9, cell * 0.3, BROWN, max(1, cell * 0.04),
          cv2.FONT_HERSHEY_COMPLEX)
    _text(img, "TITLE:", cell * 0.6, cell * 2.1, cell * 0.3, BROWN, max(1, cell * 0.04), cv2.FONT_HERSHEY_COMPLEX)
    for yy in (1.35, 2.45):
        _line(img, (cell * 0.6, cell * yy), (cell * 3.8, cell * yy), BROWN, max(1, cell * 0.02))
    cx, cy = cell * 11.3, cell * 1.6
    cv2.circle(img, tuple(cvpts([(cx, cy)])[0]), int(cell * 0.9 * ONE), (0.6, 0.5, 0.3), max(1, int(cell * .03)),
               cv2.LINE_AA, SHIFT)
    for a in range(8):
        t = a * np.pi / 4
        rr = cell * (1.2 if a % 2 == 0 else 0.7)
        _line(img, (cx, cy), (cx + rr * np.cos(t), cy + rr * np.sin(t)), (0.7, 0.55, 0.3), max(1, cell * .06))
    cv2.ellipse(img, tuple(cvpts([(cell * 6.5, cell * 1.2)])[0]), (int(cell * 2.2 * ONE), int(cell * 0.4 * ONE)),
                0, 0, 360, BROWN, max(1, int(cell * 0.04)), cv2.LINE_AA, SHIFT)
    _text(img, f"({side})", cell * 12.1, y0 - fo - cell * 0.15, cell * 0.3, BROWN, 1, cv2.FONT_HERSHEY_COMPLEX)
    # coin track: 14 gold coins on a band, then four season score boxes
    cy = y0 + gw + PAD_COIN_DY * cell
    xs = x0 + gw / 2 + (np.arange(14) - 6.5) * PAD_COIN_PITCH * cell
    bandcol = (0.85, 0.65, 0.3) if side == "A" else (0.68, 0.72, 0.76)
    cv2.rectangle(img, tuple(cvpts([(xs[0] - cell * 0.45, cy - cell * 0.33)])[0]),
                  tuple(cvpts([(xs[-1] + cell * 0.45, cy + cell * 0.33)])[0]), bandcol, -1, cv2.LINE_AA, SHIFT)
    r = PAD_COIN_R * cell
    for x in xs:
        _coin(img, x, cy, r)
        sheet.coins.append((float(x), float(cy), float(r)))
    by = cy + cell * 0.75
    for s in range(4):
        bx = x0 + s * cell * 2.7
        cv2.rectangle(img, tuple(cvpts([(bx, by)])[0]), tuple(cvpts([(bx + cell * 2.3, by + cell * 1.6)])[0]),
                      (0.55, 0.5, 0.45), max(1, int(cell * 0.04)), cv2.LINE_AA, SHIFT)
        _line(img, (bx + cell * 1.15, by), (bx + cell * 1.15, by + cell * 1.6), (0.55, 0.5, 0.45), cell * .03)
        _line(img, (bx, by + cell * 0.8), (bx + cell * 2.3, by + cell * 0.8), (0.55, 0.5, 0.45), cell * .03)
        _text(img, "ABCDA"[s] + " " + "ABCDA"[s + 1], bx + cell * 0.2, by + cell * 0.55, cell * 0.3, label, 1)
    # ragged, slightly darker page edge
    alpha = np.ones((h, w), np.float32)
    edge = cv2.GaussianBlur(rng.uniform(0, 1, (h, w)).astype(np.float32), (0, 0), cell * 0.1)
    yy, xx = np.mgrid[0:h, 0:w]
    dist = np.minimum(np.minimum(xx, w - 1 - xx), np.minimum(yy, h - 1 - yy)).astype(np.float32)
    img *= (1 - 0.25 * np.exp(-dist / (cell * 0.3)))[..., None]
    alpha[dist < cell * 0.08 * (edge - edge.min()) / (np.ptp(edge) + 1e-6)] = 0
    sheet.image = np.clip(img, 0, 1)
    sheet.alpha = alpha
    return sheet


def _coin(img, x, y, r) -> None:
    cv2.circle(img, tuple(cvpts([(x, y)])[0]), int(r * ONE), (0.93, 0.75, 0.2), -1, cv2.LINE_AA, SHIFT)
    cv2.circle(img, tuple(cvpts([(x, y)])[0]), int(r * ONE), (0.55, 0.38, 0.1), max(1, int(r * 0.15)),
               cv2.LINE_AA, SHIFT)
    cv2.circle(img, tuple(cvpts([(x, y)])[0]), int(r * 0.55 * ONE), (0.8, 0.6, 0.15), max(1, int(r * 0.1)),
               cv2.LINE_AA, SHIFT)


def _pad_features(sheet: Sheet, rng) -> None:
    """Printed mountains (dark-brown squares, white peaks, gold coin), ruins columns, side B's wasteland."""
    img, cell, side = sheet.image, sheet.cell_px, sheet.side
    for (r, c), word in printed_cells(side).items():
        if word != "mountain":
            continue
        q = sheet.cell_quad(r, c)
        inset = (q - q.mean(0)) * 0.94 + q.mean(0)
        cv2.fillConvexPoly(img, cvpts(inset), (0.3, 0.13, 0.09), cv2.LINE_AA, SHIFT)
        x, y = q[0]
        for px, wd in ((0.38, 0.28), (0.6, 0.24)):
            tri = [(x + (px - wd) * cell, y + 0.62 * cell), (x + px * cell, y + 0.2 * cell),
                   (x + (px + wd) * cell, y + 0.62 * cell)]
            cv2.polylines(img, [cvpts(tri)], False, (0.95, 0.93, 0.9), max(1, int(cell * 0.05)), cv2.LINE_AA, SHIFT)
        _coin(img, x + 0.5 * cell, y + 0.74 * cell, cell * 0.15)
    col = (0.92, 0.62, 0.3) if side == "A" else (0.58, 0.65, 0.74)
    for r, c in ruins_cells(side):
        x, y = sheet.nodes[r, c]
        for px in (0.33, 0.55):
            p = (x + px * cell, y + 0.25 * cell)
            cv2.rectangle(img, tuple(cvpts([p])[0]), tuple(cvpts([(p[0] + 0.14 * cell, p[1] + 0.5 * cell)])[0]),
                          col, -1, cv2.LINE_AA, SHIFT)
            cv2.rectangle(img, tuple(cvpts([(p[0] - 0.03 * cell, p[1])])[0]),
                          tuple(cvpts([(p[0] + 0.17 * cell, p[1] + 0.07 * cell)])[0]), col, -1, cv2.LINE_AA, SHIFT)
    waste = [rc for rc, word in printed_cells(side).items() if word == "wasteland"]
    if waste:
        mask = np.zeros(img.shape[:2], np.uint8)
        for r, c in waste:
            cv2.fillConvexPoly(mask, cvpts(sheet.cell_quad(r, c)), 255, cv2.LINE_AA, SHIFT)
        # an irregular coastline: the union of cells, eroded/dilated by a noisy field (stays mostly in the cells)
        noise = cv2.GaussianBlur(rng.normal(0, 1, mask.shape).astype(np.float32), (0, 0), cell * 0.08)
        noise /= noise.std() + 1e-6
        soft = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), cell * 0.12)
        region = (soft + 0.12 * noise) > 0.5
        grey = np.array((0.6, 0.6, 0.6), np.float32)
        img[region] = img[region] * 0.25 + grey * 0.75 * paper_noise(rng, 1, int(region.sum()), 0.04)[0][:, None]
        edge = cv2.morphologyEx(region.astype(np.uint8), cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8)) > 0
        img[edge] *= 0.45
        sheet.params["wasteland_px"] = int(region.sum())


# ---------------------------------------------------------------- the real pad scans (local only)

SCAN_FILES = {"A": "Cartographers_game_field.png", "B": "Cartographers_game_field_Backside.png"}
# Grid corners (TL, TR, BR, BL; pixels of the original scans) measured once by hand: the centroids of the five
# printed mountain squares fitted to their (row, col) with an affine map (residual 0.2 px), checked by
# overlaying the fitted lattice on the dashed lines at 2x zoom. Coin track: first/last coin centres, radius.
SCAN_GRID = {
    "A": ((31.5, 110.8), (380.9, 111.3), (381.1, 461.7), (31.7, 461.2)),
    "B": ((30.0, 109.5), (357.6, 109.8), (358.3, 436.4), (30.7, 436.1)),
}
SCAN_COINS = {"A": ((76.5, 507.5), (372.2, 507.5), 7.2), "B": ((72.8, 480.8), (349.2, 480.8), 6.8)}


def scan_dir() -> Path:
    return Path(os.environ.get("MAPSMITH_PAD_SCANS", Path(__file__).resolve().parents[1] / "pad-scans"))


def scans_available() -> bool:
    d = scan_dir()
    return all((d / f).is_file() for f in SCAN_FILES.values())


def padscan(rng: np.random.Generator, side: str, long_px: int) -> Sheet:
    path = scan_dir() / SCAN_FILES[side]
    if not path.is_file():
        raise FileNotFoundError(f"pad scan {path} not found: set MAPSMITH_PAD_SCANS to the folder holding "
                                f"{SCAN_FILES['A']} and {SCAN_FILES['B']}")
    raw = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    h0, w0 = raw.shape[:2]
    s = long_px / h0
    big = cv2.resize(raw, (int(round(w0 * s)), long_px), interpolation=cv2.INTER_CUBIC)
    img = big[..., 2::-1].astype(np.float32) / 255
    alpha = big[..., 3].astype(np.float32) / 255 if big.shape[2] == 4 else None
    tl, tr, br, bl = (np.array(p) * s for p in SCAN_GRID[side])
    j, i = np.meshgrid(np.arange(N + 1) / N, np.arange(N + 1) / N)
    top = tl + (tr - tl) * j[..., None]
    bot = bl + (br - bl) * j[..., None]
    nodes = top + (bot - top) * i[..., None]
    (ax, ay), (bx, byy), r = SCAN_COINS[side]
    coins = [((ax + (bx - ax) * k / 13) * s, (ay + (byy - ay) * k / 13) * s, r * s) for k in range(14)]
    img = _tint(img, (1, 1, 1), rng, 0.01)
    return Sheet("padscan", side, f"padscan-{side}", img, nodes, alpha=alpha, coins=coins,
                 params={"scan": path.name, "scale": s})


BUILDERS = {"ours": ours, "ours-clipped": ours, "generic": generic, "handruled": handruled, "squared": squared,
            "pad": pad, "padscan": padscan}
ASPECT = {"ours": 1.414, "ours-clipped": 1.414, "generic": 1.414, "handruled": 1.414, "squared": 1.414,
          "pad": PAD_H / PAD_W, "padscan": 597 / 413}


def build(kind: str, rng: np.random.Generator, side: str, long_px: int) -> Sheet:
    sheet = BUILDERS[kind](rng, side, long_px)
    sheet.kind = kind
    return sheet
