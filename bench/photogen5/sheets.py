"""The blank sheet artwork of each kind, with its exact grid lattice in sheet pixels.

Every builder returns a `Sheet`: a float32 RGB page image at `ppm` pixels per mm,
the 12x12 lattice of grid-line crossings (pixel centres at integers), and where the
player writes the other things (coin circles, legend squares, score boxes, name).
The printed cells (mountains, wastelands, ruins) come from MAPS, so the truth grid
and the artwork cannot disagree.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.cartographers.data import MAPS

from .util import fill_poly, grain, hand_text, ink, jitter_line, polyline, smooth_noise

SCAN_ENV = "MAPSMITH_PAD_SCANS"
SCAN_FILES = {"A": "Cartographers_game_field.png", "B": "Cartographers_game_field_Backside.png"}
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
CORNERS = ("tl", "tr", "br", "bl")
_PDF_LOCK = threading.Lock()  # pdfium is not thread-safe; every PDF render holds this
_SCAN_CACHE: dict[tuple[str, str], np.ndarray] = {}
_SCAN_LOCK = threading.Lock()

# Pad-scan geometry, measured once with OpenCV (not by hand): the grid's dashed lines were found as peaks
# of the column/row profiles of "local darkness" (11x11 box mean minus the pixel), and a regular lattice
# x0 + k*p (k = 1..10) was fitted to the profile by exhaustive search over x0 and p, separately on the upper
# and lower half (and left/right half): both halves agree to 0.2 px, so the scans are axis-aligned. Outer
# corners are x0 and x0 + 11p (pixel centres at integers). Check: the 5 darkest cells are exactly
# MAPS[side].mountains on both scans, and side B's 7 wasteland cells are the next darkest. Coin centres:
# side A by cv2.HoughCircles on the track (radius ~7 px), side B as centroids of the gold coin blobs (HSV).
SCAN_GRID = {"A": ((31.3, 111.7), (381.6, 461.8)), "B": ((30.4, 110.25), (357.8, 437.2))}
SCAN_COINS = {"A": (76.0, 22.77, 508.0, 7.0), "B": (72.2, 21.28, 480.3, 7.0)}  # x0, pitch, y, radius (scan px)
SCAN_CELL_MM = 13.5  # the real pad's cells are about 13.5 mm


class ScansMissing(FileNotFoundError):
    """The real pad scans are not on this machine (they are never copied into the repository)."""


def scans_dir() -> Path | None:
    d = os.environ.get(SCAN_ENV)
    return Path(d) if d else None


def scans_available() -> bool:
    d = scans_dir()
    return d is not None and all((d / f).is_file() for f in SCAN_FILES.values())


@dataclass
class Sheet:
    img: np.ndarray  # (H, W, 3) float32 RGB in [0, 1]
    ppm: float  # pixels per mm
    lattice: np.ndarray  # (12, 12, 2) grid-line crossings, sheet px
    alpha: np.ndarray | None = None  # paper mask (punched holes = 0), None: the whole rectangle is paper
    coins: list[tuple[float, float, float]] = field(default_factory=list)  # centre x, y, radius px
    legend: list[np.ndarray] = field(default_factory=list)  # 4x2 quads of the legend squares
    boxes: list[tuple[float, float, float, float]] = field(default_factory=list)  # score boxes x, y, w, h
    name_at: tuple[float, float, float] = (0.0, 0.0, 0.0)  # x, baseline y, letter height px
    markers: dict[str, np.ndarray] = field(default_factory=dict)  # tl/tr/br/bl -> 4x2 quad
    params: dict = field(default_factory=dict)

    @property
    def shape(self) -> tuple[int, int]:
        return self.img.shape[:2]


def square_lattice(x0: float, y0: float, cell: float) -> np.ndarray:
    k = np.arange(12, dtype=np.float64)
    xs, ys = np.meshgrid(x0 + k * cell, y0 + k * cell)
    return np.stack([xs, ys], -1)


def cell_quad(lat: np.ndarray, r: int, c: int) -> np.ndarray:
    return np.array([lat[r, c], lat[r, c + 1], lat[r + 1, c + 1], lat[r + 1, c]], np.float64)


def paper(h: int, w: int, rng: np.random.Generator, tint=(0.96, 0.96, 0.95), texture: float = 0.015) -> np.ndarray:
    """Plain paper: a tint with faint low-frequency cloudiness and fibre grain."""
    img = np.empty((h, w, 3), np.float32)
    img[:] = np.asarray(tint, np.float32)
    cloud = smooth_noise((h, w), rng, max(h, w) / 6) * texture * 1.5
    fib = (grain((h // 2 + 1, w // 2 + 1), rng, 0.6) - 0.5) * texture
    fib = cv2.resize(fib, (w, h))
    img *= (1.0 + cloud + fib)[..., None]
    return img


def _dashed(cover, p0, p1, thick, dash, gap, value=1.0):
    p0, p1 = np.asarray(p0, float), np.asarray(p1, float)
    L = float(np.hypot(*(p1 - p0)))
    d = (p1 - p0) / max(L, 1e-9)
    s = 0.0
    while s < L:
        e = min(s + dash, L)
        polyline(cover, [p0 + d * s, p0 + d * e], thick, value)
        s = e + gap


def _text(img, text, org, height, rgb, font=cv2.FONT_HERSHEY_SIMPLEX, thick=None, anchor="left"):
    """Printed text (crisp, unslanted), baseline at org[1]."""
    base = cv2.getTextSize("H", font, 1.0, 1)[0][1]
    scale = height / base
    t = max(1, int(round(thick if thick else height / 9)))
    (tw, th), bl = cv2.getTextSize(text, font, scale, t)
    x = org[0] - (tw / 2 if anchor == "center" else 0)
    cover = np.zeros((th + bl + 6, tw + 6), np.float32)
    cv2.putText(cover, text, (3, th + 3), font, scale, 1.0, t, cv2.LINE_AA)
    ink(img, cover, rgb, int(round(x)) - 3, int(round(org[1])) - th - 3)


def _mountain_icon(cover, quad, style: str, rng):
    """A printed mountain in a cell: a big peak, a small one behind, maybe a snow cap."""
    x0, y0 = quad[0]
    s = quad[1][0] - quad[0][0]
    big = [(x0 + 0.12 * s, y0 + 0.85 * s), (x0 + 0.45 * s, y0 + 0.18 * s), (x0 + 0.80 * s, y0 + 0.85 * s)]
    small = [(x0 + 0.45 * s, y0 + 0.85 * s), (x0 + 0.68 * s, y0 + 0.38 * s), (x0 + 0.92 * s, y0 + 0.85 * s)]
    if style == "solid":
        fill_poly(cover, small, 0.7)
        fill_poly(cover, big, 1.0)
    else:
        polyline(cover, big, max(1.0, s * 0.04), 1.0, closed=True)
        polyline(cover, small, max(1.0, s * 0.04), 1.0, closed=True)


# --------------------------------------------------------------------------------------------- ours

def ours(side: str, ppm: float, rng: np.random.Generator) -> Sheet:
    """Our own printed PDF sheet, rasterised like a perfect print (geometry straight from sheet_layout)."""
    from printables.layout import sheet_layout
    from printables.mapsheet import map_sheet_pdf
    from printables.raster import rasterize

    paper_name = str(rng.choice(["a4", "letter"]))
    lang = str(rng.choice(["en", "tr"]))
    sheet_id = "".join(rng.choice(list("ABCDEFGHJKLMNPQRSTUVWXYZ23456789"), 6))
    dpi = ppm * 25.4
    with _PDF_LOCK:
        pdf = map_sheet_pdf(side, paper_name, lang, sheet_ids=[sheet_id])
        rgb = rasterize(pdf, dpi=dpi)
    lay = sheet_layout(side, paper_name)
    k = dpi / 72.0

    def px(x_pt, y_pt):
        return (x_pt * k - 0.5, y_pt * k - 0.5)

    img = rgb.astype(np.float32) / 255.0
    # printer paper is never 255-white in a photo, and toner is not perfectly flat: a faint texture.
    img *= paper(img.shape[0], img.shape[1], rng, (0.97, 0.97, 0.965), 0.01)
    g = lay.grid
    lat = square_lattice(*px(g.x_pt, g.y_pt), g.cell_pt * k)
    names = dict(zip(("top_left", "top_right", "bottom_right", "bottom_left"), CORNERS, strict=True))
    markers = {}
    for m in lay.markers:
        x, y = px(m.x_pt, m.y_pt)
        s = m.size_pt * k
        markers[names[m.corner]] = np.array([(x, y), (x + s, y), (x + s, y + s), (x, y + s)])
    legend = []
    for cell in lay.legend:
        x, y = px(cell.x_pt, cell.y_pt)
        s = cell.cell_pt * k
        legend.append(np.array([(x, y), (x + s, y), (x + s, y + s), (x, y + s)]))
    coins = [(c.x_pt * k + c.d_pt * k / 2 - 0.5, c.y_pt * k + c.d_pt * k / 2 - 0.5, c.d_pt * k / 2) for c in lay.coins]
    boxes = [(b.x_pt * k, b.y_pt * k, b.w_pt * k, b.h_pt * k) for b in lay.score_boxes if b.field != "total"
             or b.season == -1]
    name_at = (lay.title.x_pt * k + (150 if lang == "en" else 130) * k, 64 * k, 11 * k)
    return Sheet(img, ppm, lat, None, coins, legend, boxes, name_at, markers,
                 {"paper": paper_name, "lang": lang, "sheet_id": sheet_id, "dpi": round(dpi, 2)})


# ------------------------------------------------------------------------------------------ generic

def generic(side: str, ppm: float, rng: np.random.Generator) -> Sheet:
    """Someone else's printable: plain grid, title, name line, score boxes; markers never."""
    paper_name = str(rng.choice(["a4", "letter"]))
    wmm, hmm = PAPER_MM[paper_name]
    W, H = int(round(wmm * ppm)), int(round(hmm * ppm))
    img = paper(H, W, rng, tuple(rng.uniform(0.93, 0.98, 3)), 0.012)
    cell_mm = rng.uniform(11.0, 16.0)
    side_boxes = rng.random() < 0.3 and wmm - 11 * cell_mm > 70
    gx_mm = (wmm - 11 * cell_mm) / 2 - (25 if side_boxes else 0) + rng.uniform(-5, 5)
    gy_mm = rng.uniform(30, 55)
    cell = cell_mm * ppm
    lat = square_lattice(gx_mm * ppm, gy_mm * ppm, cell)
    palettes = [(0.1, 0.1, 0.1), (0.45, 0.45, 0.45), (0.6, 0.6, 0.6), (0.2, 0.3, 0.6), (0.55, 0.3, 0.15),
                (0.2, 0.45, 0.3), (0.7, 0.45, 0.2)]
    col = palettes[rng.integers(len(palettes))]
    thick = rng.uniform(0.12, 0.7) * ppm
    dashed = rng.random() < 0.3
    border = thick * rng.uniform(1.0, 3.5)
    cover = np.zeros((H, W), np.float32)
    for i in range(12):
        outer = i in (0, 11)
        t = border if outer else thick
        for a, b in ((lat[i, 0], lat[i, 11]), (lat[0, i], lat[11, i])):
            if dashed and not outer:
                _dashed(cover, a, b, t, cell * 0.12, cell * 0.08)
            else:
                polyline(cover, [a, b], t)
    ink(img, cover * rng.uniform(0.7, 1.0), col)
    titles = ["CARTOGRAPHERS", "Cartographers", "Map Sheet", "CARTOGRAPHERS - Player Map", "Kartograflar",
              "Cartographers: A Roll Player Tale", "Map of the Realm", "Harita"]
    font = int(rng.choice([cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX,
                           cv2.FONT_HERSHEY_COMPLEX]))
    _text(img, str(rng.choice(titles)), (gx_mm * ppm, (gy_mm - 20) * ppm), 7 * ppm, (0.1, 0.1, 0.1), font)
    label = str(rng.choice(["Name:", "Player:", "Cartographer:", "Isim:"]))
    ny = (gy_mm - 9) * ppm
    _text(img, label, (gx_mm * ppm, ny), 3.5 * ppm, (0.2, 0.2, 0.2))
    nx = gx_mm * ppm + 32 * ppm
    line = np.zeros((H, W), np.float32)
    polyline(line, [(nx, ny + 1), (nx + 60 * ppm, ny + 1)], 0.25 * ppm)
    if rng.random() < 0.45:  # row letters / column numbers
        for i in range(11):
            _text(img, "ABCDEFGHIJK"[i], (lat[0, 0, 0] - 4 * ppm, lat[i, 0, 1] + cell * 0.6), 2.8 * ppm,
                  (0.35, 0.35, 0.35), anchor="center")
            _text(img, str(i + 1), (lat[0, i, 0] + cell / 2, lat[0, 0, 1] - 1.5 * ppm), 2.8 * ppm,
                  (0.35, 0.35, 0.35), anchor="center")
    # printed map cells (sometimes the template prints nothing and the player draws them)
    printed = rng.random() < 0.6
    sym = np.zeros((H, W), np.float32)
    if printed:
        mstyle = str(rng.choice(["solid", "outline"]))
        for r, c in MAPS[side].mountains:
            _mountain_icon(sym, cell_quad(lat, r, c), mstyle, rng)
        for r, c in MAPS[side].ruins:
            q = cell_quad(lat, r, c)
            x0, y0 = q[0]
            polyline(sym, [(x0 + cell * 0.1, y0 + cell * 0.32), (x0 + cell * 0.1, y0 + cell * 0.12),
                           (x0 + cell * 0.32, y0 + cell * 0.12), (x0 + cell * 0.32, y0 + cell * 0.32)], cell * 0.025)
        for r, c in MAPS[side].wastelands:
            q = cell_quad(lat, r, c)
            for t in np.linspace(0.1, 1.9, 8):
                a = q[0] + (q[1] - q[0]) * min(t, 1) + (q[3] - q[0]) * max(t - 1, 0)
                b = q[0] + (q[3] - q[0]) * min(t, 1) + (q[1] - q[0]) * max(t - 1, 0)
                polyline(sym, [a, b], cell * 0.02, 0.6)
        ink(img, sym, col if rng.random() < 0.5 else (0.25, 0.25, 0.25))
    else:
        hand_marks(img, lat, side, rng, ppm)
    ink(img, line, (0.3, 0.3, 0.3))
    # score boxes
    boxes = []
    bc = np.zeros((H, W), np.float32)
    bw, bh = 22 * ppm, 12 * ppm
    for s in range(5):
        if side_boxes:
            x, y = lat[0, 11, 0] + 8 * ppm, lat[0, 0, 1] + s * (bh + 6 * ppm) + 5 * ppm
        else:
            x, y = lat[0, 0, 0] + s * (11 * cell - bw) / 4, lat[11, 0, 1] + 14 * ppm
        boxes.append((x, y, bw, bh))
        polyline(bc, [(x, y), (x + bw, y), (x + bw, y + bh), (x, y + bh)], 0.3 * ppm, closed=True)
        lab = ["Spring", "Summer", "Autumn", "Winter", "Total"][s]
        _text(img, lab, (x + 1 * ppm, y - 1.5 * ppm), 2.5 * ppm, (0.3, 0.3, 0.3))
    ink(img, bc, (0.25, 0.25, 0.25))
    return Sheet(img, ppm, lat, None, [], [], boxes, (nx + 2 * ppm, ny - 0.5 * ppm, 4.5 * ppm), {},
                 {"paper": paper_name, "cell_mm": round(cell_mm, 2), "line_mm": round(thick / ppm, 3),
                  "dashed": dashed, "printed_symbols": printed, "line_rgb": list(col), "boxes_beside": side_boxes})


def hand_marks(img, lat, side: str, rng, ppm: float, pen=None) -> None:
    """The player's own mountains (triangles), wastelands (hatching) and maybe ruins, on a sheet that lacks them."""
    pen = pen or ((0.15, 0.15, 0.2) if rng.random() < 0.5 else (0.3, 0.3, 0.32))
    H, W = img.shape[:2]
    cover = np.zeros((H, W), np.float32)
    t = rng.uniform(0.3, 0.6) * ppm
    solid = rng.random() < 0.4
    for r, c in MAPS[side].mountains:
        q = cell_quad(lat, r, c)
        u, v = q[1] - q[0], q[3] - q[0]

        def at(a, b, q=q, u=u, v=v):
            return q[0] + u * a + v * b

        j = rng.uniform(-0.06, 0.06, 6)
        tri = [at(0.15 + j[0], 0.82 + j[1]), at(0.5 + j[2], 0.15 + j[3]), at(0.85 + j[4], 0.82 + j[5])]
        if solid:
            fill_poly(cover, tri, 0.9)
        for a, b in zip(tri, tri[1:] + tri[:1], strict=True):
            polyline(cover, jitter_line(a, b, rng, t * 0.6), t)
        if rng.random() < 0.5:
            polyline(cover, jitter_line(at(0.55, 0.82), at(0.72, 0.45), rng, t * 0.4), t)
            polyline(cover, jitter_line(at(0.72, 0.45), at(0.92, 0.82), rng, t * 0.4), t)
    for r, c in MAPS[side].wastelands:
        q = cell_quad(lat, r, c)
        for s in np.linspace(0.12, 1.88, 7):
            a = q[0] + (q[1] - q[0]) * min(s, 1) + (q[3] - q[0]) * max(s - 1, 0)
            b = q[0] + (q[3] - q[0]) * min(s, 1) + (q[1] - q[0]) * max(s - 1, 0)
            polyline(cover, jitter_line(a, b, rng, t * 0.5, 4), t * 0.8, 0.8)
    if rng.random() < 0.5:
        for r, c in MAPS[side].ruins:
            q = cell_quad(lat, r, c)
            u, v = q[1] - q[0], q[3] - q[0]
            a = q[0] + u * 0.08 + v * 0.35
            polyline(cover, [a, a - v * 0.2, a - v * 0.2 + u * 0.2, a + u * 0.2], t * 0.8)
    ink(img, cover, pen)


def hand_grid(img, lat: np.ndarray, rng, ppm: float, pen_rgb, thick: float, pencil: bool) -> None:
    """Grid lines ruled by hand through the lattice crossings: slight sag between crossings, overshoot, restarts."""
    H, W = img.shape[:2]
    cover = np.zeros((H, W), np.float32)
    cell = float(np.mean(np.hypot(*(lat[0, 1:] - lat[0, :-1]).T)))
    for axis in (0, 1):
        for i in range(12):
            p = lat[i, :, :] if axis == 0 else lat[:, i, :]
            dense = []
            for k in range(11):
                a, b = p[k], p[k + 1]
                seg = jitter_line(a, b, rng, cell * rng.uniform(0.0, 0.015), 6)
                dense.extend(seg[:-1] if k < 10 else seg)
            dense = np.array(dense)
            d0 = (p[0] - p[1]) / max(np.hypot(*(p[0] - p[1])), 1e-9)
            d1 = (p[11] - p[10]) / max(np.hypot(*(p[11] - p[10])), 1e-9)
            over0, over1 = rng.uniform(0, 0.25, 2) * cell
            dense = np.vstack([p[0] + d0 * over0, dense, p[11] + d1 * over1])
            cut = sorted(rng.choice(np.arange(8, len(dense) - 8), int(rng.integers(0, 3)), replace=False))
            starts = [0, *cut]
            ends = [*cut, len(dense) - 1]
            for s, e in zip(starts, ends, strict=True):
                seg = dense[max(s - 2, 0) : e + 1] + rng.normal(0, 0.15 * thick, 2)
                polyline(cover, seg, thick * rng.uniform(0.85, 1.15), rng.uniform(0.75, 1.0))
    if pencil:
        cover *= 0.45 + 0.55 * grain((H, W), rng, 0.7)
    ink(img, cover, pen_rgb)


def _hand_lattice(x0, y0, cell, rng, uneven: float, rot_deg: float) -> np.ndarray:
    """Uneven cells: each column/row width varies by ~`uneven`, crossings jitter, the whole grid turns a little."""
    wx = cell * (1 + rng.normal(0, uneven, 11))
    wy = cell * (1 + rng.normal(0, uneven, 11))
    xs = np.concatenate([[0], np.cumsum(wx)])
    ys = np.concatenate([[0], np.cumsum(wy)])
    X, Y = np.meshgrid(xs, ys)
    bend = rng.normal(0, 0.01 * cell, 2)
    t = np.linspace(-1, 1, 12)
    X = X + bend[0] * (1 - t[:, None] ** 2) * 6 + rng.normal(0, 0.012 * cell, X.shape)
    Y = Y + bend[1] * (1 - t[None, :] ** 2) * 6 + rng.normal(0, 0.012 * cell, Y.shape)
    a = np.radians(rot_deg)
    cx, cy = xs[-1] / 2, ys[-1] / 2
    Xr = (X - cx) * np.cos(a) - (Y - cy) * np.sin(a) + cx
    Yr = (X - cx) * np.sin(a) + (Y - cy) * np.cos(a) + cy
    return np.stack([Xr + x0, Yr + y0], -1)


def _grid_pen(rng, ppm):
    kind = str(rng.choice(["pencil", "ballpoint", "felttip"]))
    rgb = {"pencil": (0.35, 0.35, 0.38), "ballpoint": tuple(rng.choice([(0.1, 0.15, 0.5), (0.1, 0.1, 0.12)])),
           "felttip": (0.08, 0.08, 0.1)}[kind]
    thick = {"pencil": 0.45, "ballpoint": 0.4, "felttip": 0.65}[kind] * ppm * rng.uniform(0.8, 1.4)
    return kind, rgb, thick


# -------------------------------------------------------------------------------------- handruled

def handruled(side: str, ppm: float, rng: np.random.Generator) -> Sheet:
    """A notebook page (blue ruling, red margin, holes or spiral) with the grid ruled by hand."""
    wmm, hmm = [(210.0, 297.0), (170.0, 240.0), (148.0, 210.0), (203.0, 267.0)][rng.integers(4)]
    W, H = int(round(wmm * ppm)), int(round(hmm * ppm))
    img = paper(H, W, rng, tuple(rng.uniform([0.93, 0.93, 0.9], [0.98, 0.98, 0.97])), 0.015)
    alpha = np.ones((H, W), np.float32)
    pitch = rng.uniform(6.0, 9.0)
    top = rng.uniform(15, 30)
    rule = np.zeros((H, W), np.float32)
    y = top
    while y < hmm - 5:
        polyline(rule, [(0, y * ppm), (W, y * ppm)], max(1.0, 0.2 * ppm))
        y += pitch
    ink(img, rule * rng.uniform(0.35, 0.7), (0.45, 0.65, 0.9))
    margin_x = rng.uniform(20, 32) * ppm
    mar = np.zeros((H, W), np.float32)
    if rng.random() < 0.85:
        polyline(mar, [(margin_x, 0), (margin_x, H)], max(1.0, 0.25 * ppm))
        ink(img, mar * 0.7, (0.9, 0.35, 0.4))
    binding = str(rng.choice(["holes", "spiral", "none"]))
    if binding == "holes":
        for yy in np.linspace(hmm * 0.2, hmm * 0.8, int(rng.choice([2, 4]))):
            cv2.circle(alpha, (int(8 * ppm), int(yy * ppm)), int(3 * ppm), 0.0, -1, cv2.LINE_AA)
    elif binding == "spiral":
        for yy in np.arange(8, hmm - 5, 8.5):
            cv2.circle(alpha, (int(5 * ppm), int(yy * ppm)), int(1.8 * ppm), 0.0, -1, cv2.LINE_AA)
    img *= alpha[..., None] * 0 + 1  # holes stay in alpha; the paper colour under them is never seen
    usable = wmm - margin_x / ppm - 8
    cell_mm = min(rng.uniform(9.0, 15.0), usable / 11.5)
    cell = cell_mm * ppm
    x0 = margin_x + rng.uniform(2, max(2.5, (usable - 11 * cell_mm) * ppm / ppm)) * ppm
    y0 = (top + pitch * rng.integers(1, 4)) * ppm + rng.normal(0, 1.0) * ppm
    y0 = min(y0, (hmm - 11 * cell_mm - 25) * ppm)
    lat = _hand_lattice(x0, y0, cell, rng, rng.uniform(0.01, 0.04), rng.normal(0, 1.2))
    kind, pen, thick = _grid_pen(rng, ppm)
    hand_grid(img, lat, rng, ppm, pen, thick, kind == "pencil")
    hand_marks(img, lat, side, rng, ppm, pen)
    hand_text(img, str(rng.choice(["Cartographers", "CARTOGRAPHERS", "Kartograflar", "Map", "Game 2"])),
              (x0, y0 - 8 * ppm), 5 * ppm, pen, rng, thick)
    boxes = []
    bc = np.zeros((H, W), np.float32)
    by = lat[11, 0, 1] + 8 * ppm
    if by + 15 * ppm < H:
        for s in range(4):
            x = lat[11, 0, 0] + s * 28 * ppm
            boxes.append((x, by, 22 * ppm, 11 * ppm))
            q = [(x, by), (x + 22 * ppm, by), (x + 22 * ppm, by + 11 * ppm), (x, by + 11 * ppm)]
            for a, b in zip(q, q[1:] + q[:1], strict=True):
                polyline(bc, jitter_line(a, b, rng, 0.3 * ppm, 5), thick)
        ink(img, bc, pen)
    return Sheet(img, ppm, lat, alpha if binding != "none" else None, [], [], boxes,
                 (x0 + 45 * ppm, y0 - 8 * ppm, 4.5 * ppm),
                 {}, {"page_mm": [wmm, hmm], "rule_mm": round(pitch, 2), "binding": binding,
                      "cell_mm": round(cell_mm, 2),
                      "grid_pen": kind})


# ---------------------------------------------------------------------------------------- squared

def squared(side: str, ppm: float, rng: np.random.Generator) -> Sheet:
    """Squared (graph/maths) paper with the 11x11 grid traced heavier over its lines."""
    wmm, hmm = [(210.0, 297.0), (170.0, 240.0), (148.0, 210.0)][rng.integers(3)]
    W, H = int(round(wmm * ppm)), int(round(hmm * ppm))
    img = paper(H, W, rng, tuple(rng.uniform([0.94, 0.94, 0.92], [0.99, 0.99, 0.98])), 0.012)
    sq = float(rng.choice([5.0, 4.0]))
    mult = int(rng.choice([1, 2, 3], p=[0.15, 0.5, 0.35])) if sq == 5.0 else int(rng.choice([2, 3]))
    while 11 * mult * sq > wmm - 12:
        mult -= 1
    ox, oy = rng.uniform(0, sq), rng.uniform(0, sq)
    gcol = [(0.5, 0.65, 0.85), (0.6, 0.6, 0.62), (0.55, 0.75, 0.7)][rng.integers(3)]
    gc = np.zeros((H, W), np.float32)
    gt = max(1.0, rng.uniform(0.1, 0.2) * ppm)
    for x in np.arange(ox, wmm, sq):
        polyline(gc, [(x * ppm, 0), (x * ppm, H)], gt)
    for y in np.arange(oy, hmm, sq):
        polyline(gc, [(0, y * ppm), (W, y * ppm)], gt)
    ink(img, gc * rng.uniform(0.35, 0.7), gcol)
    cell_mm = mult * sq
    nx = int((wmm - 11 * cell_mm - 10) / sq)
    ny = int((hmm - 11 * cell_mm - 40) / sq)
    ix = int(rng.integers(1, max(2, nx)))
    iy = int(rng.integers(max(1, min(5, ny - 1)), max(2, ny)))
    x0, y0 = (ox + ix * sq) * ppm, (oy + iy * sq) * ppm
    lat = square_lattice(x0, y0, cell_mm * ppm)
    lat = lat + rng.normal(0, 0.08 * ppm, lat.shape)  # traced lines sit on the paper lines, not exactly
    kind, pen, thick = _grid_pen(rng, ppm)
    hand_grid(img, lat, rng, ppm, pen, thick, kind == "pencil")
    hand_marks(img, lat, side, rng, ppm, pen)
    hand_text(img, str(rng.choice(["Cartographers", "Map A", "Harita", "CARTO"])), (x0, y0 - 2 * sq * ppm),
              4.5 * ppm, pen, rng, thick)
    boxes = []
    by = lat[11, 0, 1] + 2 * sq * ppm
    bc = np.zeros((H, W), np.float32)
    if by + 3 * sq * ppm < H:
        for s in range(4):
            x = x0 + s * 5 * sq * ppm
            boxes.append((x, by, 4 * sq * ppm, 2 * sq * ppm))
            bw_, bh_ = 4 * sq * ppm, 2 * sq * ppm
            polyline(bc, [(x, by), (x + bw_, by), (x + bw_, by + bh_), (x, by + bh_)], thick, closed=True)
        ink(img, bc, pen)
    return Sheet(img, ppm, lat, None, [], [], boxes, (x0 + 40 * ppm, y0 - 2 * sq * ppm, 4 * ppm), {},
                 {"page_mm": [wmm, hmm], "square_mm": sq, "squares_per_cell": mult, "grid_pen": kind})


# -------------------------------------------------------------------------------------------- pad

def pad(side: str, ppm: float, rng: np.random.Generator) -> Sheet:
    """A look-alike of the game's printed pad, drawn in code (parchment, double frame, dashed grid)."""
    cell_mm = rng.uniform(12.5, 14.0)
    wmm = 11 * cell_mm + rng.uniform(24, 34)
    hmm = wmm * rng.uniform(1.4, 1.48)
    W, H = int(round(wmm * ppm)), int(round(hmm * ppm))
    img = paper(H, W, rng, (0.93, 0.86, 0.74) if side == "A" else (0.9, 0.87, 0.82), 0.03)
    stains = smooth_noise((H, W), rng, H / 10, 4)
    img *= (1 - 0.06 * np.abs(stains))[..., None]
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    edge = np.minimum(np.minimum(xx, W - 1 - xx), np.minimum(yy, H - 1 - yy)) / (6 * ppm)
    img *= (0.8 + 0.2 * np.clip(edge, 0, 1))[..., None]
    cell = cell_mm * ppm
    x0 = (W - 11 * cell) / 2
    y0 = hmm * 0.19 * ppm
    lat = square_lattice(x0, y0, cell)
    brown = (0.3, 0.2, 0.12)
    accent = (0.85, 0.55, 0.15) if side == "A" else (0.45, 0.55, 0.7)
    cov = np.zeros((H, W), np.float32)
    g0, g1 = lat[0, 0], lat[11, 11]
    for off, t in ((0.3, 0.7), (2.4, 1.6)):
        o = off * ppm
        polyline(cov, [(g0[0] - o, g0[1] - o), (g1[0] + o, g0[1] - o), (g1[0] + o, g1[1] + o), (g0[0] - o, g1[1] + o)],
                 t * ppm, closed=True)
    # the ruler band between the frames: light windows in the dark band every other cell
    for k in range(0, 11, 2):
        for a, b in (((lat[0, k, 0], g0[1] - 2.4 * ppm), (lat[0, k + 1, 0], g0[1] - 2.4 * ppm)),
                     ((lat[0, k, 0], g1[1] + 2.4 * ppm), (lat[0, k + 1, 0], g1[1] + 2.4 * ppm)),
                     ((g0[0] - 2.4 * ppm, lat[k, 0, 1]), (g0[0] - 2.4 * ppm, lat[k + 1, 0, 1])),
                     ((g1[0] + 2.4 * ppm, lat[k, 0, 1]), (g1[0] + 2.4 * ppm, lat[k + 1, 0, 1]))):
            polyline(cov, [a, b], 1.0 * ppm, -0.0)
    ink(img, cov, brown)
    win = np.zeros((H, W), np.float32)
    for k in range(0, 11, 2):
        for a, b in (((lat[0, k, 0] + 1, g0[1] - 2.4 * ppm), (lat[0, k + 1, 0] - 1, g0[1] - 2.4 * ppm)),
                     ((g0[0] - 2.4 * ppm, lat[k, 0, 1] + 1), (g0[0] - 2.4 * ppm, lat[k + 1, 0, 1] - 1))):
            polyline(win, [a, b], 0.8 * ppm)
    img[:] = img * (1 - win[..., None]) + win[..., None] * np.float32(0.95)
    dash = np.zeros((H, W), np.float32)
    for i in range(1, 11):
        _dashed(dash, lat[i, 0], lat[i, 11], 0.35 * ppm, cell * 0.11, cell * 0.09)
        _dashed(dash, lat[0, i], lat[11, i], 0.35 * ppm, cell * 0.11, cell * 0.09)
    ink(img, dash * 0.85, accent)
    letters = "ABCDEFGHIJK" if rng.random() < 0.7 else "ABVGDEJZIKL"
    for i in range(11):
        _text(img, letters[i], (g0[0] - 6 * ppm, lat[i, 0, 1] + cell * 0.6), 2.5 * ppm, accent,
              cv2.FONT_HERSHEY_COMPLEX, anchor="center")
        _text(img, str(i + 1), (lat[0, i, 0] + cell / 2, g1[1] + 6.5 * ppm), 2.5 * ppm, accent,
              cv2.FONT_HERSHEY_COMPLEX, anchor="center")
    sym = np.zeros((H, W), np.float32)
    red = np.zeros((H, W), np.float32)
    for r, c in MAPS[side].mountains:
        q = cell_quad(lat, r, c)
        fill_poly(red, q + np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]]) * 0.06 * cell, 1.0)
        _mountain_icon(sym, q, "outline", rng)
    ink(img, red * 0.9, (0.45, 0.15, 0.1))
    img[:] = img * (1 - 0.8 * sym[..., None]) + 0.8 * sym[..., None] * np.float32(0.92)
    ruin = np.zeros((H, W), np.float32)
    for r, c in MAPS[side].ruins:
        q = cell_quad(lat, r, c)
        x, y = q[0]
        for dx in (0.3, 0.55):
            fill_poly(ruin, [(x + dx * cell, y + 0.35 * cell), (x + (dx + 0.12) * cell, y + 0.35 * cell),
                             (x + (dx + 0.12) * cell, y + 0.75 * cell), (x + dx * cell, y + 0.75 * cell)])
        fill_poly(ruin, [(x + 0.22 * cell, y + 0.25 * cell), (x + 0.77 * cell, y + 0.25 * cell),
                         (x + 0.77 * cell, y + 0.33 * cell), (x + 0.22 * cell, y + 0.33 * cell)])
    ink(img, ruin * 0.85, accent)
    if MAPS[side].wastelands:
        wl = np.zeros((H, W), np.float32)
        for r, c in MAPS[side].wastelands:
            fill_poly(wl, cell_quad(lat, r, c))
        wl = cv2.GaussianBlur(wl, (0, 0), cell * 0.12)
        wl = (wl + 0.25 * smooth_noise((H, W), rng, cell * 0.4, 2) > 0.5).astype(np.float32)
        wl = cv2.GaussianBlur(wl, (0, 0), 0.6)
        ink(img, wl * 0.55, (0.55, 0.55, 0.58))
        edge_c = cv2.morphologyEx(wl, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
        ink(img, edge_c * 0.8, (0.3, 0.3, 0.32))
    # header: name/title lines, a banner and a compass rose
    hd = np.zeros((H, W), np.float32)
    _text(img, "CARTOGRAPHER:", (g0[0], 9 * ppm), 3.0 * ppm, brown, cv2.FONT_HERSHEY_TRIPLEX)
    _text(img, "TITLE:", (g0[0], 20 * ppm), 3.0 * ppm, brown, cv2.FONT_HERSHEY_TRIPLEX)
    polyline(hd, [(g0[0], 14 * ppm), (g0[0] + 45 * ppm, 14 * ppm)], 0.3 * ppm)
    polyline(hd, [(g0[0], 25 * ppm), (g0[0] + 45 * ppm, 25 * ppm)], 0.3 * ppm)
    cx = W / 2 + 8 * ppm
    cv2.ellipse(hd, (int(cx), int(10 * ppm)), (int(22 * ppm), int(4 * ppm)), 0, 0, 360, 1.0, max(1, int(0.4 * ppm)),
                cv2.LINE_AA)
    shield = [(cx - 7 * ppm, 17 * ppm), (cx + 7 * ppm, 17 * ppm), (cx + 7 * ppm, 27 * ppm), (cx, 33 * ppm),
              (cx - 7 * ppm, 27 * ppm)]
    polyline(hd, shield, 0.5 * ppm, closed=True)
    rx, ry = g1[0] - 12 * ppm, 15 * ppm
    for a in range(0, 360, 45):
        L = (11 if a % 90 == 0 else 6) * ppm
        polyline(hd, [(rx, ry), (rx + L * np.cos(np.radians(a)), ry + L * np.sin(np.radians(a)))], 0.4 * ppm)
    cv2.circle(hd, (int(rx), int(ry)), int(6 * ppm), 1.0, max(1, int(0.3 * ppm)), cv2.LINE_AA)
    ink(img, hd, brown)
    _text(img, f"({side})", (g1[0] - 4 * ppm, g0[1] - 5 * ppm), 2.5 * ppm, brown, cv2.FONT_HERSHEY_COMPLEX)
    # coin track and season boxes
    ty = g1[1] + 14 * ppm
    band = np.zeros((H, W), np.float32)
    polyline(band, [(g0[0] + 14 * ppm, ty), (g1[0], ty)], 6.5 * ppm)
    ink(img, band * 0.55, (0.95, 0.75, 0.3))
    coins = []
    cc = np.zeros((H, W), np.float32)
    pitch = (g1[0] - g0[0] - 19 * ppm) / 13
    for i in range(14):
        x = g0[0] + 16.5 * ppm + i * pitch
        coins.append((x, ty, 2.3 * ppm))
        cv2.circle(cc, (int(x * 16), int(ty * 16)), int(2.3 * ppm * 16), 1.0, max(1, int(0.35 * ppm)), cv2.LINE_AA, 4)
    ink(img, cc, brown)
    cross = np.zeros((H, W), np.float32)
    polyline(cross, [(g0[0] + 2 * ppm, ty), (g0[0] + 10 * ppm, ty)], 2.5 * ppm)
    polyline(cross, [(g0[0] + 6 * ppm, ty - 4 * ppm), (g0[0] + 6 * ppm, ty + 4 * ppm)], 2.5 * ppm)
    ink(img, cross, (0.85, 0.6, 0.2))
    boxes = []
    bb = np.zeros((H, W), np.float32)
    by = ty + 9 * ppm
    bw = (g1[0] - g0[0] - 20 * ppm) / 4
    for s in range(4):
        x = g0[0] + s * (bw + 3 * ppm)
        boxes.append((x, by, bw - 2 * ppm, 13 * ppm))
        polyline(bb, [(x, by), (x + bw - 2 * ppm, by), (x + bw - 2 * ppm, by + 13 * ppm), (x, by + 13 * ppm)],
                 0.4 * ppm, closed=True)
        polyline(bb, [(x + (bw - 2 * ppm) / 2, by), (x + (bw - 2 * ppm) / 2, by + 13 * ppm)], 0.3 * ppm)
    ink(img, bb, brown)
    return Sheet(img, ppm, lat, None, coins, [], boxes, (g0[0] + 2 * ppm, 13 * ppm, 4 * ppm), {},
                 {"page_mm": [round(wmm, 1), round(hmm, 1)], "cell_mm": round(cell_mm, 2), "letters": letters})


# ---------------------------------------------------------------------------------------- padscan

def load_scan(side: str) -> np.ndarray:
    d = scans_dir()
    if d is None:
        raise ScansMissing(f"pad scans: set {SCAN_ENV} to the folder holding {SCAN_FILES[side]}")
    f = d / SCAN_FILES[side]
    if not f.is_file():
        raise ScansMissing(f"pad scan {f} not found (folder from {SCAN_ENV}={d})")
    key = (str(f), side)
    with _SCAN_LOCK:
        if key not in _SCAN_CACHE:
            bgr = cv2.imread(str(f), cv2.IMREAD_COLOR)
            if bgr is None:
                raise ScansMissing(f"pad scan {f} is unreadable (folder from {SCAN_ENV})")
            _SCAN_CACHE[key] = bgr[:, :, ::-1].astype(np.float32) / 255.0
        return _SCAN_CACHE[key]


def padscan(side: str, ppm: float, rng: np.random.Generator) -> Sheet:
    """The real pad artwork (a small scan), enlarged to print size: what a real pad looks like under a camera."""
    scan = load_scan(side)
    (gx0, gy0), (gx1, _) = SCAN_GRID[side]
    mm_per_px = SCAN_CELL_MM / ((gx1 - gx0) / 11)
    s = mm_per_px * ppm
    h, w = scan.shape[:2]
    W, H = int(round(w * s)), int(round(h * s))
    img = cv2.resize(scan, (W, H), interpolation=cv2.INTER_CUBIC)
    img = np.clip(img, 0, 1)
    img *= paper(H, W, rng, (1.0, 1.0, 1.0), 0.02)
    sx, sy = W / w, H / h

    def up(x, y):
        return ((x + 0.5) * sx - 0.5, (y + 0.5) * sy - 0.5)

    k = np.arange(12)
    (ax, ay), (bx, by) = SCAN_GRID[side]
    xs = ax + (bx - ax) * k / 11
    ys = ay + (SCAN_GRID[side][1][1] - ay) * k / 11
    X, Y = np.meshgrid(xs, ys)
    U = np.stack(up(X, Y), -1)
    cx0, cp, cy, cr = SCAN_COINS[side]
    coins = [(*up(cx0 + i * cp, cy), cr * sx) for i in range(14)]
    by0 = h * 0.905
    boxes = [(*up(w * (0.03 + 0.21 * i), by0), 0.16 * w * sx, 0.06 * h * sy) for i in range(4)]
    name_at = (*up(w * 0.06, h * 0.07), 0.025 * h * sy)
    return Sheet(img, ppm, U, None, coins, [], boxes, name_at, {}, {"scan": SCAN_FILES[side], "scan_px": [w, h],
                                                                    "mm_per_scan_px": round(mm_per_px, 4)})


BUILDERS = {"ours": ours, "ours-clipped": ours, "generic": generic, "handruled": handruled, "squared": squared,
            "pad": pad, "padscan": padscan}


def page_mm(kind: str, side: str, rng_peek: np.random.Generator) -> float:
    """Rough long side of the page in mm (the camera picks the sheet resolution from it before the sheet exists)."""
    return {"ours": 297, "ours-clipped": 297, "generic": 297, "handruled": 270, "squared": 260, "pad": 250,
            "padscan": 245}[kind]


def build(kind: str, side: str, ppm: float, rng: np.random.Generator) -> Sheet:
    return BUILDERS[kind](side, ppm, rng)
