"""Sheet designs other than our own print, for the synthetic photos: what players without our sheet draw on.

Every design is drawn in our layout's page geometry (the grid and the coin track where
`printables.layout.sheet_layout` puts them), so the players' drawing and the truth work for all of them;
what differs is everything the reader must cope with: paper, line style and colour, frames, labels,
printed icons, unevenness and distractor lines.

* `pad`: a look-alike of the game's own pad drawn in code — parchment texture, dashed orange-brown lines,
  thick decorated double frame, rows lettered A–K on the left, numbers 1–11 below, dark-brown mountain squares
  with a white peak and a gold coin, ruins icons, side B's grey wasteland region, a 14-coin track in a gold
  bar, season boxes.
* `generic`: a printed grid of one of several designs (line colour and weight, header, coin circles, score
  boxes, mountain/ruins icons).
* `handruled`: a grid ruled by hand in pen on lined notebook paper (uneven lines, a margin line, ruled lines
  running through and past the grid).
* `squared`: a grid traced in pencil over squared paper (every second paper line, paper lines everywhere).
* `notebook`: a grid ruled by hand on a lined notebook page the way people really do it: the page's blue rulings
  are not square to the grid (the grid is ruled a degree or two off the page's lines), each grid line is drawn in
  two or three strokes that do not quite meet (a kink where the ruler moved), and the lines stray further from
  an even spacing than `handruled`'s; the pen is a ballpoint, a felt-tip or a pencil.
* `padscan`: the real pad scans (`$MAPSMITH_PAD_SCANS`, default `bench/pad-scans/`, never committed) warped
  so that their grid lies on ours; `pad_scan_available()` says whether they are there.

`render_design` returns the RGB page and the true cell centres in page pixels (11×11×2).
"""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np

from companion.cartographers.data import GRID_SIZE, MAPS
from printables.layout import sheet_layout

DESIGNS = ("pad", "generic", "handruled", "squared", "padscan", "notebook")
SCAN_FILES = {"A": "Cartographers_game_field.png", "B": "Cartographers_game_field_Backside.png"}
# Inner edge of each scan's grid (x0, y0, x1, y1, scan pixels), measured by hand on the overlay of the scans.
SCAN_GRID = {"A": (31.0, 109.0, 385.0, 465.0), "B": (30.0, 107.5, 359.0, 440.0)}


def pad_scan_dir() -> Path:
    return Path(os.environ.get("MAPSMITH_PAD_SCANS", Path(__file__).resolve().parent / "pad-scans"))


def pad_scan_available() -> bool:
    d = pad_scan_dir()
    return all((d / f).is_file() for f in SCAN_FILES.values())


def _paper(h: int, w: int, colour, rng, texture: float) -> np.ndarray:
    img = np.empty((h, w, 3), np.float32)
    img[:] = colour
    if texture > 0:
        tex = cv2.resize(rng.normal(0, 1, (h // 30 + 2, w // 30 + 2)).astype(np.float32), (w, h))
        fine = cv2.resize(rng.normal(0, 1, (h // 6 + 2, w // 6 + 2)).astype(np.float32), (w, h))
        img *= (1 + texture * tex + 0.3 * texture * fine)[..., None]
    return img


def _blank_page(lay, ppt: float, colour, rng, texture: float) -> np.ndarray:
    """The layout's whole page of paper at `ppt` pixels per point (see `_paper`)."""
    return _paper(round(lay.page_h_pt * ppt), round(lay.page_w_pt * ppt), colour, rng, texture)


def _points(ppt: float):
    """Page points → whole pixels at `ppt` pixels per point: every design draws in the layout's points."""
    def p(v: float) -> int:
        return round(v * ppt)
    return p


def _dashed(img, p0, p1, colour, th: int, dash: float, gap: float) -> None:
    p0, p1 = np.asarray(p0, float), np.asarray(p1, float)
    n = float(np.linalg.norm(p1 - p0))
    if n < 1:
        return
    d = (p1 - p0) / n
    a = 0.0
    while a < n:
        b = min(n, a + dash)
        cv2.line(img, tuple(np.round(p0 + d * a).astype(int)), tuple(np.round(p0 + d * b).astype(int)), colour, th,
                 cv2.LINE_AA)
        a = b + gap


def _hand_line(img, p0, p1, colour, th: int, rng, wobble: float) -> None:
    """A line ruled by hand: slightly bent, with a tremor."""
    t = np.linspace(0, 1, 24)[:, None]
    p0, p1 = np.asarray(p0, float), np.asarray(p1, float)
    nrm = np.array([-(p1 - p0)[1], (p1 - p0)[0]]) / max(1.0, float(np.linalg.norm(p1 - p0)))
    bend = rng.uniform(-1, 1) * wobble * np.sin(np.pi * t)
    tremor = np.convolve(rng.normal(0, wobble * 0.15, len(t)), np.ones(3) / 3, "same")[:, None]
    pts = p0 + (p1 - p0) * t + nrm * (bend + tremor)
    cv2.polylines(img, [np.round(pts).astype(np.int32)], False, colour, th, cv2.LINE_AA)


def _centres(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Cell centres (11×11×2) from the 12 vertical line x's and 12 horizontal line y's."""
    cx = (xs[:-1] + xs[1:]) / 2
    cy = (ys[:-1] + ys[1:]) / 2
    return np.stack(np.meshgrid(cx, cy), axis=-1)


def _mountain_square(img, x, y, s, p, style: str) -> None:
    if style == "pad":
        cv2.rectangle(img, (p(x + 1), p(y + 1)), (p(x + s - 1), p(y + s - 1)), (75, 35, 25), -1)
        for dx in (0.3, 0.58):
            tri = np.array([[p(x + s * dx), p(y + s * 0.25)], [p(x + s * (dx - 0.2)), p(y + s * 0.68)],
                            [p(x + s * (dx + 0.2)), p(y + s * 0.68)]])
            cv2.polylines(img, [tri], True, (240, 235, 225), max(1, p(1.2)), cv2.LINE_AA)
        cv2.circle(img, (p(x + s * 0.5), p(y + s * 0.72)), p(s * 0.13), (220, 170, 40), -1, cv2.LINE_AA)
    else:  # an outlined mountain icon
        tri = np.array([[p(x + s * 0.5), p(y + s * 0.2)], [p(x + s * 0.18), p(y + s * 0.78)],
                        [p(x + s * 0.82), p(y + s * 0.78)]])
        cv2.fillPoly(img, [tri], (110, 90, 70), cv2.LINE_AA)
        cv2.polylines(img, [tri], True, (30, 30, 30), max(1, p(1.0)), cv2.LINE_AA)


def _ruins_icon(img, x, y, s, p, colour) -> None:
    cv2.ellipse(img, (p(x + s * 0.5), p(y + s * 0.55)), (p(s * 0.22), p(s * 0.22)), 0, 180, 360, colour,
                max(1, p(1.0)), cv2.LINE_AA)
    for dx in (0.28, 0.72):
        cv2.line(img, (p(x + s * dx), p(y + s * 0.55)), (p(x + s * dx), p(y + s * 0.8)), colour, max(1, p(1.0)))


def _printed_features(img, side, g, p, mountain_style: str, ruins_colour, waste_colour) -> None:
    cell = g.cell_pt
    m = MAPS[side]
    for r, c in m.wastelands:
        x, y = g.x_pt + c * cell, g.y_pt + r * cell
        cv2.rectangle(img, (p(x), p(y)), (p(x + cell), p(y + cell)), waste_colour, -1)
    for r, c in m.mountains:
        _mountain_square(img, g.x_pt + c * cell, g.y_pt + r * cell, cell, p, mountain_style)
    for r, c in m.ruins:
        _ruins_icon(img, g.x_pt + c * cell, g.y_pt + r * cell, cell, p, ruins_colour)


def _coin_track(img, lay, p, ring, fill=None, bar=None) -> None:
    if bar is not None:
        xs = [c.x_pt for c in lay.coins]
        y, d = lay.coins[0].y_pt, lay.coins[0].d_pt
        cv2.rectangle(img, (p(min(xs) - 6), p(y - 4)), (p(max(xs) + d + 6), p(y + d + 4)), bar, -1)
    for cn in lay.coins:
        cx, cy, rr = p(cn.x_pt + cn.d_pt / 2), p(cn.y_pt + cn.d_pt / 2), p(cn.d_pt / 2)
        if fill is not None:
            cv2.circle(img, (cx, cy), rr, fill, -1, cv2.LINE_AA)
        cv2.circle(img, (cx, cy), rr, ring, max(1, p(0.8)), cv2.LINE_AA)


def _season_boxes(img, lay, p, colour, y0: float) -> None:
    g = lay.grid
    w = g.cell_pt * GRID_SIZE / 4
    for k in range(4):
        x = g.x_pt + k * w
        cv2.rectangle(img, (p(x + 4), p(y0)), (p(x + w - 4), p(y0 + 40)), colour, max(1, p(0.8)))
        cv2.line(img, (p(x + w / 2), p(y0 + 14)), (p(x + w / 2), p(y0 + 40)), colour, max(1, p(0.6)))
        cv2.line(img, (p(x + 4), p(y0 + 14)), (p(x + w - 4), p(y0 + 14)), colour, max(1, p(0.6)))


def _text(img, s, org, p, scale, colour, th=1.0) -> None:
    cv2.putText(img, s, (p(org[0]), p(org[1])), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, max(1, p(th)), cv2.LINE_AA)


def render_pad(side: str, ppt: float, rng) -> tuple[np.ndarray, np.ndarray]:
    lay = sheet_layout(side, "a4")
    img = _blank_page(lay, ppt, (236, 224, 196), rng, 0.05)
    p = _points(ppt)

    g = lay.grid
    cell = g.cell_pt
    s = cell * GRID_SIZE
    brown = (90, 55, 35)
    # faint printed map texture (contours) under the grid
    for _ in range(14):
        c = (p(g.x_pt + rng.uniform(0, s)), p(g.y_pt + rng.uniform(0, s)))
        cv2.ellipse(img, c, (p(rng.uniform(20, 90)), p(rng.uniform(15, 60))), rng.uniform(0, 180), 0, 360,
                    (205, 190, 160), max(1, p(0.6)), cv2.LINE_AA)
    _printed_features(img, side, g, p, "pad", (200, 140, 60) if side == "A" else (120, 140, 160), (150, 150, 150))
    line = (215, 140, 60) if side == "A" else (130, 150, 175)
    for i in range(1, GRID_SIZE):
        _dashed(img, (p(g.x_pt + i * cell), p(g.y_pt)), (p(g.x_pt + i * cell), p(g.y_pt + s)), line, max(1, p(0.7)),
                p(4), p(3))
        _dashed(img, (p(g.x_pt), p(g.y_pt + i * cell)), (p(g.x_pt + s), p(g.y_pt + i * cell)), line, max(1, p(0.7)),
                p(4), p(3))
    # thick decorated double frame: a dark band with hatched blocks, a thin line outside it
    # (the band's inner edge is the grid's edge, as on the real pad)
    cv2.rectangle(img, (p(g.x_pt - 2.5), p(g.y_pt - 2.5)), (p(g.x_pt + s + 2.5), p(g.y_pt + s + 2.5)), brown,
                  max(1, p(5)))
    for i in range(0, GRID_SIZE, 2):
        for (a, b) in (((g.x_pt + i * cell, g.y_pt - 8), (g.x_pt + (i + 1) * cell, g.y_pt - 2)),
                       ((g.x_pt + i * cell, g.y_pt + s + 2), (g.x_pt + (i + 1) * cell, g.y_pt + s + 8))):
            cv2.rectangle(img, (p(a[0]), p(a[1])), (p(b[0]), p(b[1])), (60, 40, 30), -1)
    cv2.rectangle(img, (p(g.x_pt - 12), p(g.y_pt - 12)), (p(g.x_pt + s + 12), p(g.y_pt + s + 12)), brown,
                  max(1, p(1.2)))
    for i in range(GRID_SIZE):
        _text(img, "ABCDEFGHIJK"[i], (g.x_pt - 26, g.y_pt + (i + 0.62) * cell), p, 0.3 * ppt, (190, 150, 90))
        _text(img, str(i + 1), (g.x_pt + (i + 0.35) * cell, g.y_pt + s + 24), p, 0.3 * ppt, (190, 150, 90))
    _coin_track(img, lay, p, (150, 110, 40), fill=(225, 180, 60), bar=(215, 170, 70))
    _season_boxes(img, lay, p, brown, lay.coins[0].y_pt + 32)
    # header: banner, shield, compass rose, name lines
    top = g.y_pt - 70
    cv2.ellipse(img, (p(lay.page_w_pt / 2), p(top)), (p(60), p(18)), 0, 0, 360, brown, max(1, p(1.2)), cv2.LINE_AA)
    cv2.circle(img, (p(lay.page_w_pt - 80), p(top - 10)), p(32), (200, 160, 70), max(1, p(1.5)), cv2.LINE_AA)
    _text(img, "CARTOGRAPHER:", (g.x_pt - 10, top - 40), p, 0.4 * ppt, brown)
    _text(img, "TITLE:", (g.x_pt - 10, top + 5), p, 0.4 * ppt, brown)
    _text(img, f"({side})", (g.x_pt + s - 20, g.y_pt - 18), p, 0.35 * ppt, brown)
    out = np.clip(img, 0, 255).astype(np.uint8)
    xs = np.array([(g.x_pt + i * cell) * ppt for i in range(GRID_SIZE + 1)])
    ys = np.array([(g.y_pt + i * cell) * ppt for i in range(GRID_SIZE + 1)])
    return out, _centres(xs, ys)


def render_generic(side: str, ppt: float, rng) -> tuple[np.ndarray, np.ndarray]:
    lay = sheet_layout(side, "a4")
    paper = [(250, 250, 248), (246, 241, 226), (240, 244, 250)][rng.integers(3)]
    img = _blank_page(lay, ppt, paper, rng, 0.01)
    p = _points(ppt)

    g = lay.grid
    cell = g.cell_pt
    s = cell * GRID_SIZE
    colour = [(40, 40, 40), (90, 90, 90), (40, 70, 140), (30, 100, 60), (120, 50, 40)][rng.integers(5)]
    thin = float(rng.uniform(0.3, 1.4))
    border = float(rng.uniform(0.6, 3.5))
    dashed = rng.random() < 0.25
    _printed_features(img, side, g, p, "icon", colour, (175, 175, 175))
    for i in range(1, GRID_SIZE):
        a, b = (p(g.x_pt + i * cell), p(g.y_pt)), (p(g.x_pt + i * cell), p(g.y_pt + s))
        c, d = (p(g.x_pt), p(g.y_pt + i * cell)), (p(g.x_pt + s), p(g.y_pt + i * cell))
        if dashed:
            _dashed(img, a, b, colour, max(1, p(thin)), p(3), p(2))
            _dashed(img, c, d, colour, max(1, p(thin)), p(3), p(2))
        else:
            cv2.line(img, a, b, colour, max(1, p(thin)), cv2.LINE_AA)
            cv2.line(img, c, d, colour, max(1, p(thin)), cv2.LINE_AA)
    cv2.rectangle(img, (p(g.x_pt), p(g.y_pt)), (p(g.x_pt + s), p(g.y_pt + s)), colour, max(1, p(border)))
    if rng.random() < 0.5:  # a page frame
        cv2.rectangle(img, (p(18), p(18)), (p(lay.page_w_pt - 18), p(lay.page_h_pt - 18)), colour, max(1, p(0.8)))
    _text(img, "CARTOGRAPHERS", (g.x_pt + 60, g.y_pt - 60), p, 0.9 * ppt, colour, 1.6)
    _text(img, "Map title: ________   Cartographer: ________", (g.x_pt, g.y_pt - 22), p, 0.3 * ppt, colour)
    _coin_track(img, lay, p, colour)
    _season_boxes(img, lay, p, colour, lay.coins[0].y_pt + 32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    xs = np.array([(g.x_pt + i * cell) * ppt for i in range(GRID_SIZE + 1)])
    ys = np.array([(g.y_pt + i * cell) * ppt for i in range(GRID_SIZE + 1)])
    return out, _centres(xs, ys)


def _ruled_page(lay, ppt, rng, squared: bool) -> np.ndarray:
    img = _blank_page(lay, ppt, (250, 250, 245), rng, 0.01)
    h, w = img.shape[:2]
    pitch = lay.grid.cell_pt / 2 if squared else float(rng.uniform(0.55, 0.8)) * lay.grid.cell_pt
    colour = (200, 215, 235) if squared else (215, 200, 170)
    off_y = lay.grid.y_pt % pitch if squared else float(rng.uniform(0, pitch))
    y = off_y
    while y < lay.page_h_pt:
        cv2.line(img, (0, round(y * ppt)), (w, round(y * ppt)), colour, max(1, round(0.5 * ppt)), cv2.LINE_AA)
        y += pitch
    if squared:
        x = lay.grid.x_pt % pitch
        while x < lay.page_w_pt:
            cv2.line(img, (round(x * ppt), 0), (round(x * ppt), h), colour, max(1, round(0.5 * ppt)), cv2.LINE_AA)
            x += pitch
    else:  # the red margin line
        cv2.line(img, (round(50 * ppt), 0), (round(50 * ppt), h), (225, 120, 120), max(1, round(0.8 * ppt)))
    return img


def _hand_drawn_sheet(img, side: str, lay, xs_pt: np.ndarray, ys_pt: np.ndarray, ppt: float, pen, th: int,
                      rng) -> tuple[np.ndarray, np.ndarray]:
    """What a player draws on a home-made grid besides the map, in the grid's pen: the side's mountains (the same
    little peak each time), wastelands and ruins, and, seven times in ten, coins as a row of little circles below.
    Returns the finished page and its cell centres."""
    p = _points(ppt)
    cell = lay.grid.cell_pt
    m = MAPS[side]
    for r, c in m.mountains:
        x, y = (xs_pt[c] + xs_pt[c + 1]) / 2, (ys_pt[r] + ys_pt[r + 1]) / 2
        tri = np.array([[p(x), p(y - cell * 0.3)], [p(x - cell * 0.3), p(y + cell * 0.28)],
                        [p(x + cell * 0.3), p(y + cell * 0.28)]])
        cv2.fillPoly(img, [tri], pen, cv2.LINE_AA)
    for r, c in m.wastelands:
        x0, y0 = xs_pt[c], ys_pt[r]
        for k in range(4):
            a = (p(x0 + cell * (0.15 + 0.2 * k)), p(y0 + cell * 0.15))
            b = (p(x0 + cell * (0.05 + 0.2 * k)), p(y0 + cell * 0.85))
            cv2.line(img, a, b, pen, th, cv2.LINE_AA)
    for r, c in m.ruins:
        _ruins_icon(img, xs_pt[c], ys_pt[r], cell, p, pen)
    if rng.random() < 0.7:
        _coin_track(img, lay, p, pen)
    out = np.clip(img, 0, 255).astype(np.uint8)
    return out, _centres(xs_pt * ppt, ys_pt * ppt)


def render_handruled(side: str, ppt: float, rng, squared: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """A grid ruled by hand (pen on lined paper, or pencil traced over squared paper)."""
    lay = sheet_layout(side, "a4")
    img = _ruled_page(lay, ppt, rng, squared)
    p = _points(ppt)

    g = lay.grid
    cell = g.cell_pt
    jitter = 0.0 if squared else 0.06
    xs_pt = g.x_pt + cell * (np.arange(GRID_SIZE + 1) + rng.uniform(-jitter, jitter, GRID_SIZE + 1))
    ys_pt = g.y_pt + cell * (np.arange(GRID_SIZE + 1) + rng.uniform(-jitter, jitter, GRID_SIZE + 1))
    pen = (70, 70, 75) if squared else [(30, 40, 120), (25, 25, 30), (20, 70, 30)][rng.integers(3)]
    th = max(1, p(rng.uniform(0.6, 1.2)))
    wob = 0.3 if squared else 1.2
    for x in xs_pt:
        _hand_line(img, (x * ppt, (ys_pt[0] - 2) * ppt), (x * ppt, (ys_pt[-1] + 2) * ppt), pen, th, rng, wob * ppt)
    for y in ys_pt:
        _hand_line(img, ((xs_pt[0] - 2) * ppt, y * ppt), ((xs_pt[-1] + 2) * ppt, y * ppt), pen, th, rng, wob * ppt)
    return _hand_drawn_sheet(img, side, lay, xs_pt, ys_pt, ppt, pen, th, rng)


def render_notebook(side: str, ppt: float, rng) -> tuple[np.ndarray, np.ndarray]:
    """A grid ruled by hand in strokes on a lined notebook page whose rulings are tilted against it."""
    lay = sheet_layout(side, "a4")
    img = _blank_page(lay, ppt, (250, 250, 246), rng, 0.012)
    h, w = img.shape[:2]
    p = _points(ppt)

    g = lay.grid
    cell = g.cell_pt
    pitch = float(rng.uniform(0.5, 0.75)) * cell
    slope = float(np.tan(np.radians(rng.uniform(0.6, 2.0) * rng.choice([-1, 1]))))
    ruling = [(150, 185, 225), (170, 200, 230), (140, 170, 215)][rng.integers(3)]  # RGB light blues
    y = float(rng.uniform(0, pitch)) - abs(slope) * lay.page_w_pt
    while y < lay.page_h_pt + abs(slope) * lay.page_w_pt:
        cv2.line(img, (0, p(y)), (w, p(y + slope * lay.page_w_pt)), ruling, max(1, p(0.6)), cv2.LINE_AA)
        y += pitch
    cv2.line(img, (p(48), 0), (p(48), h), (225, 110, 110), max(1, p(0.8)), cv2.LINE_AA)  # the margin line
    jitter = 0.1
    xs_pt = g.x_pt + cell * (np.arange(GRID_SIZE + 1) + rng.uniform(-jitter, jitter, GRID_SIZE + 1))
    ys_pt = g.y_pt + cell * (np.arange(GRID_SIZE + 1) + rng.uniform(-jitter, jitter, GRID_SIZE + 1))
    pen = [(30, 40, 130), (25, 25, 30), (90, 90, 95)][rng.integers(3)]  # blue ballpoint, black felt-tip, pencil
    th = max(1, p(rng.uniform(0.6, 1.3)))
    for along, across in ((ys_pt, xs_pt), (xs_pt, ys_pt)):
        for pos in across:
            n_strokes = int(rng.integers(2, 4))
            cuts = np.sort(rng.uniform(0.25, 0.75, n_strokes - 1))
            ends = np.concatenate([[along[0] - 2], along[0] + (along[-1] - along[0]) * cuts, [along[-1] + 2]])
            for a, b in zip(ends[:-1], ends[1:], strict=True):
                off = pos + rng.uniform(-0.06, 0.06) * cell  # where the ruler lay for this stroke
                tilt = rng.uniform(-0.02, 0.02) * cell
                a0, b0 = a - rng.uniform(0, 3), b + rng.uniform(0, 3)
                p0, p1 = (off, a0), (off + tilt, b0)
                if along is ys_pt:  # a vertical line: x = pos, y along
                    _hand_line(img, (p0[0] * ppt, p0[1] * ppt), (p1[0] * ppt, p1[1] * ppt), pen, th, rng, 0.6 * ppt)
                else:
                    _hand_line(img, (p0[1] * ppt, p0[0] * ppt), (p1[1] * ppt, p1[0] * ppt), pen, th, rng, 0.6 * ppt)
    return _hand_drawn_sheet(img, side, lay, xs_pt, ys_pt, ppt, pen, th, rng)


def render_padscan(side: str, ppt: float, rng) -> tuple[np.ndarray, np.ndarray]:
    """The real pad scan, scaled so its grid lies on our layout's grid."""
    lay = sheet_layout(side, "a4")
    scan = cv2.imread(str(pad_scan_dir() / SCAN_FILES[side]), cv2.IMREAD_COLOR)
    if scan is None:
        raise FileNotFoundError(f"pad scans not found in {pad_scan_dir()}")
    x0, y0, x1, y1 = SCAN_GRID[side]
    g = lay.grid
    s = g.cell_pt * GRID_SIZE
    sx, sy = s * ppt / (x1 - x0), s * ppt / (y1 - y0)
    M = np.array([[sx, 0, g.x_pt * ppt - x0 * sx], [0, sy, g.y_pt * ppt - y0 * sy]], np.float64)
    w, h = round(lay.page_w_pt * ppt), round(lay.page_h_pt * ppt)
    page = cv2.warpAffine(scan, M, (w, h), flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_CONSTANT,
                          borderValue=(196, 220, 232))[..., ::-1]
    xs = np.array([(g.x_pt + i * g.cell_pt) * ppt for i in range(GRID_SIZE + 1)])
    ys = np.array([(g.y_pt + i * g.cell_pt) * ppt for i in range(GRID_SIZE + 1)])
    return np.ascontiguousarray(page), _centres(xs, ys)


def render_design(design: str, side: str, ppt: float, rng) -> tuple[np.ndarray, np.ndarray]:
    """(RGB page image, 11×11×2 true cell centres in page pixels) for one design."""
    if design == "pad":
        return render_pad(side, ppt, rng)
    if design == "generic":
        return render_generic(side, ppt, rng)
    if design == "handruled":
        return render_handruled(side, ppt, rng)
    if design == "squared":
        return render_handruled(side, ppt, rng, squared=True)
    if design == "padscan":
        return render_padscan(side, ppt, rng)
    if design == "notebook":
        return render_notebook(side, ppt, rng)
    raise ValueError(f"unknown design {design!r}")

