"""Deterministic synthetic phone photos of filled-in map sheets, for vision tests and benchmarks.

Pipeline (all from one seed): render the printed sheet (the real PDF from
`printables.mapsheet` rasterised, or `render_unmarked_sheet` for a game-pad-like
sheet without markers) → draw terrains the way players do (colour-pencil
hatching, marker fill, graphite symbols; the legend row filled the same way;
strokes overshoot cell borders) → photograph it virtually (3-D tilt, any
rotation, wood/cloth background, light gradient, a soft shadow, warm/cool white
balance, mild paper curl, blur, noise, JPEG compression).

The truth (side, 11×11 grid of terrain words, coins, sheet id) comes back with
the JPEG bytes so a test can compare the reader's answer with it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np

from bench.symbolart import jitter_line
from companion.cartographers.data import COIN_TRACK_LENGTH, GRID_SIZE, MAPS
from companion.cartographers.terrain import DRAWABLE as TERRAIN_DRAWABLE
from printables.layout import sheet_layout

DRAWABLE: tuple[str, ...] = tuple(t.value for t in TERRAIN_DRAWABLE)
STYLES = ("marker", "pencil", "graphite")
# More media and hands (bench/README.md "more hands"): wax crayon, felt-tip hatching, watercolour wash,
# symbols in ballpoint, graphite symbols of many designs, initials instead of symbols, and colour sheets
# with some cells drawn as a symbol only; "pale": colour pencil hatching pressed lightly (a faint tint on
# white or ruled paper, its strokes seldom darker than the paper's own lines).
EXTRA_STYLES = ("crayon", "felt", "watercolour", "ballpoint", "symbols", "letters", "mixed", "pale")
BALLPOINT = (0.12, 0.18, 0.55)
INITIALS = {"forest": "F", "village": "V", "farm": "A", "water": "W", "monster": "M"}
INITIALS_TR = {"forest": "O", "village": "K", "farm": "T", "water": "S", "monster": "C"}

# Colour options per terrain (RGB 0..1): the players' real palettes vary, the reader must not care.
PALETTES: dict[str, tuple[tuple[float, float, float], ...]] = {
    "forest": ((0.15, 0.55, 0.20), (0.30, 0.62, 0.15), (0.08, 0.42, 0.25)),
    "village": ((0.82, 0.15, 0.15), (0.55, 0.30, 0.14), (0.70, 0.10, 0.25)),
    "farm": ((0.97, 0.86, 0.15), (0.96, 0.58, 0.10), (0.90, 0.78, 0.30)),
    "water": ((0.15, 0.40, 0.85), (0.25, 0.62, 0.92), (0.10, 0.30, 0.65)),
    "monster": ((0.50, 0.20, 0.62), (0.13, 0.13, 0.13), (0.35, 0.15, 0.45)),
}
GRAPHITE = (0.30, 0.30, 0.32)
COIN_COLOURS = ((0.95, 0.78, 0.15), (0.85, 0.65, 0.10), (0.30, 0.30, 0.32))


@dataclass
class SynthPhoto:
    data: bytes  # the JPEG file
    side: str
    grid: list[list[str]]
    coins: int
    sheet_id: str | None
    style: str
    marked: bool
    size: tuple[int, int]  # (width, height)
    grid_corners: np.ndarray  # 4×2 photo coordinates of the grid's TL, TR, BR, BL corners
    params: dict = field(default_factory=dict)
    cell_centers: np.ndarray | None = None  # 11×11×2 true photo coordinates of the cell centres (curl included)
    design: str = "ours"
    marks: Marks | None = None  # the Heroes marks drawn (PhotoSpec.marks), with the terrain under each


# --------------------------------------------------------------------------- sheet rendering


@lru_cache(maxsize=8)
def _real_sheet(side: str, sheet_id: str, ppt: float) -> np.ndarray | None:
    try:
        from printables.mapsheet import map_sheet_pdf
        from printables.raster import rasterize
    except ImportError:
        return None
    pdf = map_sheet_pdf(side, "a4", "en", 1, [sheet_id], None, None)
    return rasterize(pdf, 0, dpi=ppt * 72)


def render_sheet(side: str, ppt: float, sheet_id: str = "SYN1", marked: bool = True) -> np.ndarray:
    """The blank printed sheet as an RGB uint8 page image at `ppt` pixels per point.

    Marked sheets come from the real PDF when `printables.mapsheet` exists (the
    round trip print → photo → read); otherwise, and for unmarked sheets, from
    our own drawing of the layout.
    """
    if marked:
        real = _real_sheet(side, sheet_id, ppt)
        if real is not None:
            return real.copy()
    return _own_sheet(side, ppt, sheet_id, marked).copy()


@lru_cache(maxsize=8)
def _own_sheet(side: str, ppt: float, sheet_id: str, marked: bool) -> np.ndarray:
    lay = sheet_layout(side, "a4")
    w, h = round(lay.page_w_pt * ppt), round(lay.page_h_pt * ppt)
    paper = (255, 255, 255) if marked else (236, 226, 200)
    img = np.full((h, w, 3), paper, np.uint8)
    if not marked:  # parchment with a faint printed map texture
        rng = np.random.default_rng(7)
        tex = cv2.resize(rng.normal(0, 1, (h // 40 + 2, w // 40 + 2)).astype(np.float32), (w, h))
        img = np.clip(img.astype(np.float32) * (1 + 0.035 * tex[..., None]), 0, 255).astype(np.uint8)

    def p(v: float) -> int:
        return round(v * ppt)

    g = lay.grid
    cell = g.cell_pt
    m = MAPS[side]
    for r, c in m.wastelands:
        x, y = g.x_pt + c * cell, g.y_pt + r * cell
        cv2.rectangle(img, (p(x), p(y)), (p(x + cell), p(y + cell)), (185, 185, 180), -1)
    for r, c in m.mountains:
        x, y = g.x_pt + c * cell, g.y_pt + r * cell
        cv2.rectangle(img, (p(x + 2), p(y + 2)), (p(x + cell - 2), p(y + cell - 2)), (90, 60, 40), -1)
        tri = np.array([[p(x + cell / 2), p(y + 8)], [p(x + 7), p(y + cell - 8)], [p(x + cell - 7), p(y + cell - 8)]])
        cv2.fillPoly(img, [tri], (235, 235, 235))
        if not marked:  # the gold coin for surrounding the mountain
            cv2.circle(img, (p(x + cell * 0.8), p(y + cell * 0.22)), p(cell * 0.1), (215, 170, 40), -1, cv2.LINE_AA)
    for r, c in m.ruins:
        x, y = g.x_pt + c * cell, g.y_pt + r * cell
        col = (200, 120, 50) if marked or side == "A" else (120, 140, 170)
        cv2.rectangle(img, (p(x + cell * 0.38), p(y + 3)), (p(x + cell * 0.62), p(y + 10)), col, max(1, p(0.8)))
    line_col = (60, 60, 60) if marked else (200, 120, 60)
    dash = 11 * cell if marked else 3.0  # the game's own pad has thin dashed orange-brown lines
    for i in range(GRID_SIZE + 1):
        t = max(1, p(0.6))
        a = 0.0
        while a < 11 * cell:
            b = min(11 * cell, a + dash)
            cv2.line(img, (p(g.x_pt + i * cell), p(g.y_pt + a)), (p(g.x_pt + i * cell), p(g.y_pt + b)), line_col, t)
            cv2.line(img, (p(g.x_pt + a), p(g.y_pt + i * cell)), (p(g.x_pt + b), p(g.y_pt + i * cell)), line_col, t)
            a = b + 2.0
    if not marked:  # row letters on the left, column numbers below, as on the pad
        for i in range(GRID_SIZE):
            cv2.putText(img, chr(65 + i), (p(g.x_pt - 16), p(g.y_pt + (i + 0.65) * cell)), cv2.FONT_HERSHEY_SIMPLEX,
                        0.35 * ppt, (70, 45, 30), max(1, p(0.6)), cv2.LINE_AA)
            cv2.putText(img, str(i + 1), (p(g.x_pt + (i + 0.35) * cell), p(g.y_pt + 11 * cell + 18)),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.35 * ppt, (70, 45, 30), max(1, p(0.6)), cv2.LINE_AA)
    border = 2.5 if marked else 4.0
    cv2.rectangle(img, (p(g.x_pt), p(g.y_pt)), (p(g.x_pt + 11 * cell), p(g.y_pt + 11 * cell)), (30, 30, 30) if marked
                  else (70, 45, 30), max(1, p(border)))
    if not marked:
        cv2.rectangle(img, (p(g.x_pt - 7), p(g.y_pt - 7)), (p(g.x_pt + 11 * cell + 7), p(g.y_pt + 11 * cell + 7)),
                      (70, 45, 30), max(1, p(1.5)))
    if marked:
        dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
        for mk in lay.markers:
            s = p(mk.size_pt)
            tile = cv2.aruco.generateImageMarker(dictionary, mk.id, s)
            x0, y0 = p(mk.x_pt), p(mk.y_pt)
            img[y0 : y0 + s, x0 : x0 + s] = tile[..., None]
        for lc in lay.legend:
            cv2.rectangle(img, (p(lc.x_pt), p(lc.y_pt)), (p(lc.x_pt + lc.cell_pt), p(lc.y_pt + lc.cell_pt)),
                          (60, 60, 60), max(1, p(0.8)))
            cv2.putText(img, lc.terrain, (p(lc.x_pt - 4), p(lc.y_pt + lc.cell_pt + 12)), cv2.FONT_HERSHEY_SIMPLEX,
                        0.3 * ppt, (40, 40, 40), max(1, p(0.5)), cv2.LINE_AA)
        cv2.putText(img, f"Mapsmith  side {side}", (p(lay.title.x_pt), p(lay.title.y_pt + 30)),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.7 * ppt, (30, 30, 30), max(1, p(1)), cv2.LINE_AA)
    for cn in lay.coins:
        cx, cy, rr = p(cn.x_pt + cn.d_pt / 2), p(cn.y_pt + cn.d_pt / 2), p(cn.d_pt / 2)
        cv2.circle(img, (cx, cy), rr, line_col, max(1, p(0.8)), cv2.LINE_AA)
    return img


# --------------------------------------------------------------------------- drawing terrains


@dataclass
class Player:
    """How one player draws: a style, a colour per terrain, symbol variants, hand jitter."""

    style: str
    colours: dict[str, tuple[float, float, float]]
    hatch_angle: float
    hatch_step: float  # fraction of a cell
    opacity: float
    overshoot: float  # fraction of a cell a stroke may cross a border
    tree_variant: int
    coin_colour: tuple[float, float, float]
    designs: dict = field(default_factory=dict)  # terrain → bench.symbolart design (styles with symbols)
    letters: dict = field(default_factory=dict)  # terrain → initial ("letters" style)
    font: int = 0  # the player's handwriting for initials (an OpenCV Hershey font)
    symbol_p: float = 0.0  # "mixed": share of cells drawn as a graphite symbol only


def random_player(rng: np.random.Generator, style: str) -> Player:
    colours = {}
    for t in DRAWABLE:
        base = np.array(PALETTES[t][rng.integers(len(PALETTES[t]))])
        colours[t] = tuple(np.clip(base + rng.normal(0, 0.03, 3), 0, 1))
    if style in ("graphite", "symbols", "letters"):
        colours = {t: GRAPHITE for t in DRAWABLE}
    elif style == "ballpoint":
        colours = {t: BALLPOINT for t in DRAWABLE}
    designs, letters = {}, {}
    if style in ("symbols", "ballpoint", "mixed"):
        from bench.symbolart import random_design

        designs = {t: random_design(t, rng) for t in DRAWABLE}
    if style == "letters":
        letters = dict(INITIALS if rng.random() < 0.5 else INITIALS_TR)
    return Player(
        style=style,
        colours=colours,
        hatch_angle=float(rng.uniform(20, 70) * rng.choice([-1, 1])),
        hatch_step=float(rng.uniform(0.07, 0.12)),
        opacity=float(rng.uniform(0.6, 0.9) if style == "pencil" else rng.uniform(0.18, 0.35) if style == "pale"
                      else rng.uniform(0.75, 0.95)),
        overshoot=float(rng.uniform(0.02, 0.12)),
        tree_variant=int(rng.integers(2)),
        coin_colour=COIN_COLOURS[rng.integers(len(COIN_COLOURS))] if style != "graphite" else GRAPHITE,
        designs=designs,
        letters=letters,
        font=int(rng.choice([0, 2, 3, 16])),  # Hershey simplex, duplex, complex, + italic flag
        symbol_p=float(rng.uniform(0.15, 0.35)) if style == "mixed" else 0.0,
    )


def _apply_ink(trans: np.ndarray, mask: np.ndarray, colour, opacity: float, x0: int, y0: int) -> None:
    """Multiply-blend ink into the transmission image `trans` (float32 H×W×3) through `mask` (0..255)."""
    h, w = mask.shape
    H, W = trans.shape[:2]
    xa, ya, xb, yb = max(0, x0), max(0, y0), min(W, x0 + w), min(H, y0 + h)
    if xa >= xb or ya >= yb:
        return
    m = mask[ya - y0 : yb - y0, xa - x0 : xb - x0].astype(np.float32)[..., None] * (opacity / 255.0)
    absorb = 1.0 - np.asarray(colour, np.float32)
    trans[ya:yb, xa:xb] *= 1.0 - m * absorb



def _symbol_strokes(terrain: str, variant: int, rng) -> list[tuple[np.ndarray, bool]]:
    """Graphite symbols in a unit cell: a list of (polyline points, filled?)."""
    s: list[tuple[np.ndarray, bool]] = []
    if terrain == "forest":
        if variant == 0:
            s.append((np.array([[0.5, 0.12], [0.22, 0.68], [0.78, 0.68], [0.5, 0.12]]), False))
        else:
            th = np.linspace(0, 2 * np.pi, 24)
            s.append((np.c_[0.5 + 0.25 * np.cos(th), 0.4 + 0.25 * np.sin(th)], False))
        s.append((np.array([[0.5, 0.66], [0.5, 0.9]]), False))
    elif terrain == "village":
        s.append((np.array([[0.25, 0.48], [0.25, 0.86], [0.75, 0.86], [0.75, 0.48]]), False))
        s.append((np.array([[0.16, 0.52], [0.5, 0.16], [0.84, 0.52]]), False))
        s.append((np.array([[0.44, 0.86], [0.44, 0.66], [0.56, 0.66], [0.56, 0.86]]), False))
    elif terrain == "farm":
        for x in (0.3, 0.5, 0.7):
            s.append((np.array([[x, 0.88], [x, 0.2]]), False))
            for y in (0.25, 0.37, 0.49):
                s.append((np.array([[x - 0.08, y], [x, y + 0.07], [x + 0.08, y]]), False))
    elif terrain == "water":
        xs = np.linspace(0.12, 0.88, 30)
        for y in (0.3, 0.5, 0.7):
            s.append((np.c_[xs, y + 0.06 * np.sin((xs - 0.12) * 2 * np.pi * 2.2)], False))
    elif terrain == "monster":
        th = np.linspace(0, 2 * np.pi, 28)
        s.append((np.c_[0.5 + 0.33 * np.cos(th), 0.5 + 0.33 * np.sin(th)], False))
        for ex in (0.38, 0.62):
            s.append((np.c_[ex + 0.05 * np.cos(th), 0.42 + 0.05 * np.sin(th)], True))
        s.append((np.array([[0.34, 0.64], [0.42, 0.7], [0.5, 0.63], [0.58, 0.7], [0.66, 0.64]]), False))
    return s


def draw_cell(trans: np.ndarray, rng, player: Player, terrain: str, x: float, y: float, size: float) -> None:
    """Draw one terrain into the square cell at page pixels (x, y, size)."""
    pad = int(size * 0.3)
    S = int(size) + 2 * pad
    mask = np.zeros((S, S), np.uint8)
    x0, y0 = int(x) - pad, int(y) - pad
    ox, oy = x - x0, y - y0  # cell origin inside the mask
    colour = player.colours[terrain]
    style = player.style
    if style == "pale":
        style = "pencil"
    if style == "mixed":
        style = "designs" if rng.random() < player.symbol_p else "pencil"
        if style == "designs":
            colour = GRAPHITE
    if style in ("symbols", "ballpoint"):
        style = "designs"
    if style == "designs":
        from bench.symbolart import render

        m = render(player.designs[terrain](rng), size, ox, oy, S, rng)
        _apply_ink(trans, m, colour, player.opacity * rng.uniform(0.8, 1.05), x0, y0)
        return
    if style == "letters":
        from bench.symbolart import letter_strokes

        lm = letter_strokes(player.letters[terrain], int(size * rng.uniform(0.6, 0.9)), rng, player.font)
        m = np.zeros_like(mask)
        o = (np.array([ox, oy]) + (size - lm.shape[0]) / 2 + rng.normal(0, size * 0.04, 2)).astype(int)
        o = np.clip(o, 0, S - lm.shape[0])
        m[o[1] : o[1] + lm.shape[0], o[0] : o[0] + lm.shape[1]] = lm
        _apply_ink(trans, m, colour, player.opacity, x0, y0)
        return
    if style == "watercolour":
        o = size * player.overshoot
        corners = np.array([[ox, oy], [ox + size, oy], [ox + size, oy + size], [ox, oy + size]], np.float32)
        corners += rng.uniform(-0.8, 0.8, (4, 2)).astype(np.float32) * o
        cv2.fillPoly(mask, [np.round(corners).astype(np.int32)], 255, cv2.LINE_AA)
        blot = cv2.resize(rng.uniform(0.45, 1.0, (4, 4)).astype(np.float32), (S, S), interpolation=cv2.INTER_CUBIC)
        soft = cv2.GaussianBlur(mask.astype(np.float32), (0, 0), size * 0.04)
        rim = np.clip(soft - cv2.GaussianBlur(soft, (0, 0), size * 0.06), 0, 255) * 1.5  # pigment gathers at edges
        m = np.clip(soft * blot + rim, 0, 255).astype(np.uint8)
        _apply_ink(trans, m, colour, player.opacity * 0.6, x0, y0)
        return
    if style in ("crayon", "felt"):
        ang = math.radians(player.hatch_angle + rng.normal(0, 6))
        d = np.array([math.cos(ang), math.sin(ang)])
        nrm = np.array([-d[1], d[0]])
        c = np.array([ox + size / 2, oy + size / 2])
        step = size * (0.13 if style == "crayon" else 0.11) * rng.uniform(0.85, 1.15)
        th = max(1, int(round(size * (0.1 if style == "crayon" else 0.07))))
        for k in np.arange(-size * 0.7, size * 0.7, step):
            a = c + nrm * k - d * size * 0.62
            b = c + nrm * k + d * size * 0.62
            cv2.line(mask, tuple(np.round(a).astype(int)), tuple(np.round(b).astype(int)), 255, th, cv2.LINE_AA)
        clip = np.zeros_like(mask)
        o = size * player.overshoot
        cv2.rectangle(clip, (int(ox - o), int(oy - o)), (int(ox + size + o * 0.5), int(oy + size + o * 0.5)), 255, -1)
        mask = cv2.bitwise_and(mask, clip)
        if style == "crayon":  # wax skips the paper's grain
            grain = (rng.uniform(0, 1, mask.shape) > rng.uniform(0.25, 0.45)).astype(np.uint8)
            mask = mask * grain
        _apply_ink(trans, mask, colour, min(1.0, player.opacity * (1.0 if style == "felt" else 0.9)), x0, y0)
        return
    if style == "marker":
        o = size * player.overshoot
        corners = np.array([[ox, oy], [ox + size, oy], [ox + size, oy + size], [ox, oy + size]], np.float32)
        corners += rng.uniform(-0.5, 1.0, (4, 2)).astype(np.float32) * o * np.array(
            [[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32)
        cv2.fillPoly(mask, [np.round(corners).astype(np.int32)], 255, cv2.LINE_AA)
        _apply_ink(trans, mask, colour, player.opacity, x0, y0)
        streaks = np.zeros_like(mask)
        for _ in range(4):
            yy = oy + rng.uniform(0.1, 0.9) * size
            cv2.line(streaks, (int(ox), int(yy)), (int(ox + size), int(yy + rng.uniform(-3, 3))), 255,
                     max(1, int(size * 0.08)))
        _apply_ink(trans, cv2.bitwise_and(streaks, mask), colour, 0.25, x0, y0)
    elif style == "pencil":
        ang = math.radians(player.hatch_angle + rng.normal(0, 4))
        d = np.array([math.cos(ang), math.sin(ang)])
        nrm = np.array([-d[1], d[0]])
        c = np.array([ox + size / 2, oy + size / 2])
        step = size * player.hatch_step * rng.uniform(0.85, 1.15)
        th = max(1, int(round(size * 0.035)))
        clip = np.zeros_like(mask)
        o = size * player.overshoot
        cv2.rectangle(clip, (int(ox - o * rng.uniform(0, 1)), int(oy - o * rng.uniform(0, 1))),
                      (int(ox + size + o * rng.uniform(0, 1)), int(oy + size + o * rng.uniform(0, 1))), 255, -1)
        for k in np.arange(-size * 0.75, size * 0.75, step):
            a = c + nrm * (k + rng.normal(0, step * 0.1)) - d * size
            b = c + nrm * (k + rng.normal(0, step * 0.1)) + d * size
            cv2.line(mask, tuple(np.round(a).astype(int)), tuple(np.round(b).astype(int)), 255, th, cv2.LINE_AA)
        mask = cv2.bitwise_and(mask, clip)
        _apply_ink(trans, mask, colour, player.opacity, x0, y0)
    else:  # graphite symbol
        scale = rng.uniform(0.7, 0.95)
        rot = math.radians(rng.normal(0, 7))
        off = rng.normal(0, 0.04, 2)
        R = np.array([[math.cos(rot), -math.sin(rot)], [math.sin(rot), math.cos(rot)]])
        th = max(1, int(round(size * rng.uniform(0.03, 0.045))))
        for pts, filled in _symbol_strokes(terrain, player.tree_variant, rng):
            q = ((pts - 0.5) * scale) @ R.T + 0.5 + off
            q = q * size + [ox, oy]
            q = jitter_line(rng, q.astype(np.float32), size * 0.006)
            qi = np.round(q).astype(np.int32)
            if filled:
                cv2.fillPoly(mask, [qi], 255, cv2.LINE_AA)
            else:
                cv2.polylines(mask, [qi], False, 255, th, cv2.LINE_AA)
        _apply_ink(trans, mask, colour, player.opacity, x0, y0)


def random_grid(rng: np.random.Generator, side: str, empty_p: float = 0.35) -> list[list[str]]:
    m = MAPS[side]
    mountains, wastes = set(m.mountains), set(m.wastelands)
    probs = np.array([empty_p] + [(1 - empty_p) / 5] * 5)
    words = ("empty", *DRAWABLE)
    grid = []
    for r in range(GRID_SIZE):
        row = []
        for c in range(GRID_SIZE):
            if (r, c) in mountains:
                row.append("mountain")
            elif (r, c) in wastes:
                row.append("wasteland")
            else:
                row.append(words[rng.choice(6, p=probs)])
        grid.append(row)
    return grid


def draw_sheet(page: np.ndarray, ppt: float, side: str, grid, coins: int, player: Player, rng,
               legend: bool = True) -> np.ndarray:
    """Player ink over the printed page (RGB uint8); returns a new RGB uint8 page."""
    lay = sheet_layout(side, "a4")
    trans = np.ones(page.shape, np.float32)
    g = lay.grid
    for r in range(GRID_SIZE):
        for c in range(GRID_SIZE):
            t = grid[r][c]
            if t in DRAWABLE:
                draw_cell(trans, rng, player, t, (g.x_pt + c * g.cell_pt) * ppt, (g.y_pt + r * g.cell_pt) * ppt,
                          g.cell_pt * ppt)
    if legend:
        for lc in lay.legend:
            draw_cell(trans, rng, player, lc.terrain, lc.x_pt * ppt, lc.y_pt * ppt, lc.cell_pt * ppt)
    for cn in lay.coins[:coins]:
        cx, cy, rr = (cn.x_pt + cn.d_pt / 2) * ppt, (cn.y_pt + cn.d_pt / 2) * ppt, cn.d_pt / 2 * ppt
        S = int(rr * 3)
        mask = np.zeros((S, S), np.uint8)
        if player.style in ("graphite", "symbols", "letters", "ballpoint"):  # a cross or a scribble in the circle
            lo, hi, th = int(S / 2 - rr * 0.6), int(S / 2 + rr * 0.6), max(1, int(rr * 0.15))
            cv2.line(mask, (lo, lo), (hi, hi), 255, th, cv2.LINE_AA)
            cv2.line(mask, (hi, lo), (lo, hi), 255, th, cv2.LINE_AA)
            cv2.circle(mask, (S // 2, S // 2), int(rr * 0.55), 255, -1, cv2.LINE_AA)
        else:
            cv2.circle(mask, (S // 2, S // 2), int(rr * rng.uniform(0.85, 1.1)), 255, -1, cv2.LINE_AA)
        _apply_ink(trans, mask, player.coin_colour, player.opacity, int(cx - S / 2), int(cy - S / 2))
    out = page.astype(np.float32) * trans
    return np.clip(out, 0, 255).astype(np.uint8)


# --------------------------------------------------------------------------- Heroes marks

# What a player draws for the Heroes marks (our choice where the facts are silent; bench/README.md "Heroes marks"):
# the hero's 1×1 is a symbol — star, shield, shield with a star, helmet, or "H" for players who write initials —
# in pencil, black pen, ballpoint or the app's teal hero colour; a destroyed space is a bold X from corner to
# corner in pencil or pen, over an empty space (Troll), a drawn terrain (Gorgon) or a monster (a hero's hit).
HERO_INKS = (GRAPHITE, (0.12, 0.12, 0.14), BALLPOINT, (0.09, 0.48, 0.47))
CROSS_INKS = (GRAPHITE, (0.12, 0.12, 0.14), BALLPOINT)


@dataclass
class Marks:
    """The Heroes marks on one sheet: cell → ("hero" | "destroyed", the terrain drawn under it)."""

    cells: dict[tuple[int, int], tuple[str, str]]
    hero_ink: tuple[float, float, float]
    cross_ink: tuple[float, float, float]
    hero_design: int  # index into bench.symbolart.HERO_DESIGNS (−1 = the letter H)


def place_marks(rng, side: str, grid, heroes: tuple[int, int] = (1, 4),
                destroyed: tuple[int, int] = (2, 8), letters: bool = False) -> Marks:
    """Choose hero and destroyed cells on a random grid (the grid itself is not changed).

    Heroes go on empty spaces; destroyed spaces are picked from monsters, other drawn terrains and empty
    spaces (a third each where there are enough), never on printed mountains or wastelands.
    """
    from bench.symbolart import HERO_DESIGNS

    free = [(r, c) for r in range(GRID_SIZE) for c in range(GRID_SIZE) if grid[r][c] not in ("mountain", "wasteland")]
    by_kind: dict[str, list] = {"empty": [], "monster": [], "terrain": []}
    for r, c in free:
        t = grid[r][c]
        by_kind["empty" if t == "empty" else "monster" if t == "monster" else "terrain"].append((r, c))
    out: dict[tuple[int, int], tuple[str, str]] = {}
    for _ in range(int(rng.integers(heroes[0], heroes[1] + 1))):
        pool = [x for x in by_kind["empty"] if x not in out]
        if pool:
            out[pool[int(rng.integers(len(pool)))]] = ("hero", "empty")
    for k in range(int(rng.integers(destroyed[0], destroyed[1] + 1))):
        kind = ("monster", "terrain", "empty")[k % 3]
        pool = [x for x in by_kind[kind] if x not in out] or [x for x in free if x not in out]
        if pool:
            cell = pool[int(rng.integers(len(pool)))]
            out[cell] = ("destroyed", grid[cell[0]][cell[1]])
    design = -1 if letters else int(rng.integers(len(HERO_DESIGNS)))
    return Marks(out, HERO_INKS[int(rng.integers(len(HERO_INKS)))], CROSS_INKS[int(rng.integers(len(CROSS_INKS)))],
                 design)


def draw_marks(page: np.ndarray, ppt: float, side: str, marks: Marks, rng, opacity: float = 0.9) -> np.ndarray:
    """Hero symbols and destroyed X marks over the drawn page (RGB uint8); returns a new page."""
    from bench.symbolart import HERO_DESIGNS, big_cross, letter_strokes, render

    g = sheet_layout(side, "a4").grid
    trans = np.ones(page.shape, np.float32)
    size = g.cell_pt * ppt
    pad = int(size * 0.3)
    S = int(size) + 2 * pad
    for (r, c), (kind, _) in sorted(marks.cells.items()):
        x, y = (g.x_pt + c * g.cell_pt) * ppt, (g.y_pt + r * g.cell_pt) * ppt
        x0, y0 = int(x) - pad, int(y) - pad
        ox, oy = x - x0, y - y0
        if kind == "destroyed":
            m = render(big_cross(rng), size, ox, oy, S, rng, scale=1.0, slant_deg=float(rng.normal(0, 3)),
                       width=float(rng.uniform(0.05, 0.1)))
            _apply_ink(trans, m, marks.cross_ink, opacity * rng.uniform(0.85, 1.05), x0, y0)
        elif marks.hero_design < 0:
            lm = letter_strokes("H", int(size * rng.uniform(0.6, 0.9)), rng)
            m = np.zeros((S, S), np.uint8)
            o = (np.array([ox, oy]) + (size - lm.shape[0]) / 2 + rng.normal(0, size * 0.04, 2)).astype(int)
            o = np.clip(o, 0, S - lm.shape[0])
            m[o[1] : o[1] + lm.shape[0], o[0] : o[0] + lm.shape[1]] = lm
            _apply_ink(trans, m, marks.hero_ink, opacity, x0, y0)
        else:
            m = render(HERO_DESIGNS[marks.hero_design](rng), size, ox, oy, S, rng,
                       width=float(rng.uniform(0.035, 0.07)))
            _apply_ink(trans, m, marks.hero_ink, opacity, x0, y0)
    return np.clip(page.astype(np.float32) * trans, 0, 255).astype(np.uint8)


# --------------------------------------------------------------------------- virtual camera


def gingham(rng, w: int, h: int) -> np.ndarray:
    """A chequered (gingham) tablecloth, RGB uint8: squares of white and one colour (red, green, navy, olive,
    grey-blue), 2–5 % of the photo's width each, at a slant; where a coloured and a white band cross the
    weave gives the mid tone, as on a real woven gingham. Common on kitchen and café tables; its square
    edges are a lattice of their own, as strong as any grid."""
    colour = np.array(rng.choice([[170, 40, 45], [60, 120, 70], [50, 60, 110], [150, 160, 90], [110, 120, 150]]),
                      np.float32)
    white = np.array([235, 235, 228], np.float32)
    sw, sh = max(8, w // 2), max(8, h // 2)  # drawn at half size and upscaled, as the other tables
    size = rng.uniform(0.02, 0.05) * sw
    ang = rng.uniform(0, np.pi / 2)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    u = (xx * math.cos(ang) + yy * math.sin(ang)) / size
    v = (-xx * math.sin(ang) + yy * math.cos(ang)) / size
    bands = (np.floor(u) % 2).astype(np.float32) + (np.floor(v) % 2).astype(np.float32)  # 0, 1 or 2 coloured
    share = (bands / 2.0)[..., None]
    tex = white * (1 - share) + colour * share + rng.normal(0, 4, (sh, sw, 1)).astype(np.float32)
    return cv2.resize(np.clip(tex, 0, 255).astype(np.uint8), (w, h), interpolation=cv2.INTER_LINEAR)


def _background(rng, w: int, h: int, table: str | None = None) -> np.ndarray:
    """Wood or cloth texture, RGB uint8 (generated small and upscaled for speed); `table="gingham"` a
    chequered tablecloth instead (its own random draws, so the other photos stay as they were)."""
    if table == "gingham":
        return gingham(rng, w, h)
    sw, sh = max(8, w // 4), max(8, h // 4)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    if rng.random() < 0.5:  # wood
        base = np.array(rng.choice([[150, 100, 60], [120, 80, 45], [180, 140, 95], [90, 60, 40]]), np.float32)
        ang = rng.uniform(0, np.pi)
        u = xx * math.cos(ang) + yy * math.sin(ang)
        v = -xx * math.sin(ang) + yy * math.cos(ang)
        grain = np.sin(u / rng.uniform(3, 8) + 3 * np.sin(v / rng.uniform(20, 60))) * 0.12
        tex = base * (1 + grain[..., None]) + rng.normal(0, 6, (sh, sw, 1))
    else:  # cloth
        base = np.array(rng.choice([[60, 70, 110], [160, 40, 40], [70, 110, 70], [200, 200, 190], [40, 40, 45]]),
                        np.float32)
        weave = (np.sin(xx * 1.6) * np.sin(yy * 1.6)) * 0.1
        tex = base * (1 + weave[..., None]) + rng.normal(0, 5, (sh, sw, 3))
    tex = cv2.resize(np.clip(tex, 0, 255).astype(np.uint8), (w, h), interpolation=cv2.INTER_LINEAR)
    return tex


def _camera_corners(rng, page_w: float, page_h: float, tilt_deg: float, roll_deg: float | None = None) -> np.ndarray:
    """Project the page corners through a pinhole camera tilted by up to `tilt_deg` and rolled at random.

    `roll_deg` rolls the camera by that angle instead (within ±6°): the page photographed upright, sideways
    or upside down on purpose. The random draw is made either way, so a seed's other choices stay the same.
    """
    tilt = math.radians(rng.uniform(0, tilt_deg))
    azim = rng.uniform(0, 2 * np.pi)
    ax = np.array([math.cos(azim), math.sin(azim), 0.0])
    K = np.array([[0, -ax[2], ax[1]], [ax[2], 0, -ax[0]], [-ax[1], ax[0], 0]])
    R = np.eye(3) + math.sin(tilt) * K + (1 - math.cos(tilt)) * K @ K
    roll = rng.uniform(0, 2 * np.pi)
    if roll_deg is not None:
        roll = math.radians(roll_deg) + (roll - np.pi) / np.pi * math.radians(6)
    Rz = np.array([[math.cos(roll), -math.sin(roll), 0], [math.sin(roll), math.cos(roll), 0], [0, 0, 1]])
    pts = np.array([[0, 0, 0], [page_w, 0, 0], [page_w, page_h, 0], [0, page_h, 0]], float)
    pts -= [page_w / 2, page_h / 2, 0]
    pts = pts @ (Rz @ R).T
    f = 1.1 * max(page_w, page_h)
    z = pts[:, 2] + 1.6 * max(page_w, page_h)
    return np.c_[f * pts[:, 0] / z, f * pts[:, 1] / z]


def photograph(page: np.ndarray, rng, megapixels: float, tilt_deg: float = 35, curl: float = 0.004,
               fill: tuple[float, float] = (0.6, 0.9), quality: int | None = None, blur: float | None = None,
               dark: float | None = None, glare: float = 0.0,
               info: dict | None = None, table: str | None = None, roll_deg: float | None = None,
               motion: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Photograph an RGB page image; returns (BGR photo uint8, 3×3 homography page px → photo px).

    `info`, when given, receives the curl amplitudes (`curl_a`, `curl_b`) so `page_to_photo` can place page
    points exactly."""
    ph, pw = page.shape[:2]
    aspect = 4 / 3
    W = int(math.sqrt(megapixels * 1e6 * aspect))
    H = int(W / aspect)
    if rng.random() < 0.5:
        W, H = H, W
    proj = _camera_corners(rng, pw, ph, tilt_deg, roll_deg)
    lo, hi = proj.min(0), proj.max(0)
    frac = rng.uniform(*fill)
    s = frac * min(W / (hi - lo)[0], H / (hi - lo)[1])
    proj = (proj - lo) * s
    span = proj.max(0)
    margin = np.array([W, H]) - span
    proj += margin * rng.uniform(0.15, 0.85, 2)
    src = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float32)
    Hm = cv2.getPerspectiveTransform(src, proj.astype(np.float32))

    # Sampling maps for the page's bounding box, with a smooth curl displacement in page space.
    x0, y0 = np.floor(proj.min(0)).astype(int)
    x1, y1 = np.ceil(proj.max(0)).astype(int)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(W, x1), min(H, y1)
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    Hi = np.linalg.inv(Hm)
    den = Hi[2, 0] * xx + Hi[2, 1] * yy + Hi[2, 2]
    u = (Hi[0, 0] * xx + Hi[0, 1] * yy + Hi[0, 2]) / den
    v = (Hi[1, 0] * xx + Hi[1, 1] * yy + Hi[1, 2]) / den
    del den, xx, yy
    if curl > 0:
        a = rng.uniform(-curl, curl) * ph
        b = rng.uniform(-curl, curl) * pw
        if info is not None:
            info.update(curl_a=float(a), curl_b=float(b), page_w=pw, page_h=ph)
        u = u + (b * np.sin(np.pi * v / ph)).astype(np.float32)
        v = v + (a * np.sin(np.pi * u / pw)).astype(np.float32)
    u = u.astype(np.float32)
    v = v.astype(np.float32)
    rgba = np.dstack([page[..., ::-1], np.full((ph, pw), 255, np.uint8)])
    warped = cv2.remap(rgba, u, v, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    del u, v
    photo = _background(rng, W, H, table)[..., ::-1].copy()
    alpha = warped[..., 3:4].astype(np.float32) / 255
    roi = photo[y0:y1, x0:x1].astype(np.float32)
    photo[y0:y1, x0:x1] = (warped[..., :3] * alpha + roi * (1 - alpha)).astype(np.uint8)
    del warped, roi, alpha

    # Light: gradient × soft shadow × white balance, computed small and upscaled.
    sw, sh = 96, max(8, int(96 * H / W))
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    gdir = rng.uniform(0, 2 * np.pi)
    grad = 1 + rng.uniform(0.1, 0.35) * ((xx / sw - 0.5) * math.cos(gdir) + (yy / sh - 0.5) * math.sin(gdir)) * 2
    light = grad * (rng.uniform(0.7, 1.05) if dark is None else dark)
    shadow = np.zeros((sh, sw), np.float32)
    if rng.random() < 0.8:
        cx, cy = rng.uniform(0, sw), rng.uniform(0, sh)
        ang = rng.uniform(0, 180)
        box = cv2.boxPoints(((cx, cy), (rng.uniform(0.3, 0.6) * sw, rng.uniform(0.5, 1.2) * sh), ang))
        cv2.fillPoly(shadow, [np.round(box).astype(np.int32)], 1.0)
        shadow = cv2.GaussianBlur(shadow, (0, 0), sw * 0.04)
    light = light * (1 - rng.uniform(0.2, 0.45) * shadow)
    light *= min(1.0, 1.1 / float(light.max()))  # auto-exposure: the brightest paper clips only a little
    warm = rng.uniform(-1, 1)
    gains = np.array([1 - 0.15 * warm, 1.0, 1 + 0.12 * warm], np.float32)  # BGR: warm = less blue
    light_img = cv2.resize(light, (W, H), interpolation=cv2.INTER_LINEAR)
    out = photo.astype(np.float32)
    out *= light_img[..., None]
    out *= gains
    del light_img
    sigma = rng.uniform(0.3, 1.2) * math.sqrt(megapixels / 3) if blur is None else blur
    if glare > 0:  # a specular highlight on the sheet: a bright blob that saturates, washing out ink
        gx, gy = proj.mean(0) + (proj.max(0) - proj.min(0)) * rng.uniform(-0.25, 0.25, 2)
        r = rng.uniform(0.03, 0.06) * min(W, H)
        yy, xx = np.ogrid[0:H, 0:W]
        blob = np.exp(-(((xx - gx) / (r * rng.uniform(1, 2))) ** 2 + ((yy - gy) / r) ** 2)).astype(np.float32)
        out += (glare * 255 * blob)[..., None]
        del blob
    if sigma > 0.2:
        out = cv2.GaussianBlur(out, (0, 0), sigma)
    if motion >= 1.0:  # hand shake: a straight smear `motion` px long, any direction (its own random draw)
        out = cv2.filter2D(out, -1, motion_kernel(motion, float(np.random.default_rng(int(W * 7 + H)).uniform(0, 180))))
    out += rng.normal(0, rng.uniform(1, 4), (H, W, 1)).astype(np.float32)
    photo = np.clip(out, 0, 255).astype(np.uint8)
    return photo, Hm


def motion_kernel(length: float, angle_deg: float) -> np.ndarray:
    """A normalised line kernel `length` px long at `angle_deg`: the smear of a camera moved during exposure."""
    k = int(math.ceil(length)) | 1
    kern = np.zeros((k, k), np.float32)
    c = (k - 1) / 2
    dx, dy = math.cos(math.radians(angle_deg)) * (length - 1) / 2, math.sin(math.radians(angle_deg)) * (length - 1) / 2
    cv2.line(kern, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1, cv2.LINE_AA)
    return kern / kern.sum()


def page_to_photo(pts: np.ndarray, Hm: np.ndarray, info: dict) -> np.ndarray:
    """Photo pixels of page points (N×2), inverting the curl of `photograph` by fixed-point iteration.

    The photo samples the page at (u + b·sin(πv/H), v + a·sin(πu/W)) where (u, v) = H⁻¹(photo point); the
    page point P is seen where that equals P.
    """
    pts = np.asarray(pts, np.float64).reshape(-1, 2)
    if "curl_a" not in info:
        return cv2.perspectiveTransform(pts[None], Hm)[0]
    a, b, W, H = info["curl_a"], info["curl_b"], info["page_w"], info["page_h"]
    uv = pts.copy()
    for _ in range(12):
        u, v = uv[:, 0], uv[:, 1]
        u2 = u + b * np.sin(np.pi * v / H)
        v2 = v + a * np.sin(np.pi * u2 / W)
        uv = uv + (pts - np.c_[u2, v2])
    return cv2.perspectiveTransform(uv[None], Hm)[0]


@dataclass(frozen=True)
class PhotoSpec:
    """Knobs of one synthetic photo (everything else random from the seed)."""

    style: str | None = None  # marker / pencil / graphite; None = random
    side: str | None = None
    megapixels: float | None = None  # None = random in 1.5..12
    marked: bool = True
    tilt_deg: float = 35.0
    legend: bool = True
    quality: int | None = None
    blur: float | None = None
    dark: float | None = None
    fill: tuple[float, float] = (0.75, 0.95)
    curl: float = 0.004
    glare: float = 0.0  # strength of a specular highlight (0 = none, 1 = fully saturated core)
    design: str | None = None  # None = ours (marked) / the old unmarked stand-in; else see bench.sheetdesigns
    empty_p: float = 0.35  # share of empty cells; 0.02 gives a fully filled map
    clip_marker: int = 0  # crop the photo so this many corner markers (1–2) fall outside, the grid inside
    table: str | None = None  # None: wood or plain cloth; "gingham": a chequered tablecloth
    marks: bool = False  # Cartographers Heroes: hero symbols and destroyed X marks (see `place_marks`)
    quarter_turn: int | None = None  # photograph the page turned 0–3 quarter turns (±6°); None = any roll
    motion: float = 0.0  # motion blur (hand shake) in photo pixels, after the focus blur; 0 = none


def make_photo(seed: int, spec: PhotoSpec = PhotoSpec()) -> SynthPhoto:  # noqa: B008
    """One deterministic synthetic photo of a filled-in sheet."""
    rng = np.random.default_rng(seed)
    side = spec.side or ("A", "B")[rng.integers(2)]
    style = spec.style or STYLES[rng.integers(3)]
    if style not in STYLES + EXTRA_STYLES:
        raise ValueError(f"unknown style {style!r}")
    mp = spec.megapixels or float(rng.uniform(1.5, 12))
    # Page resolution a bit above what the photo will show, snapped so rendered sheets can be cached.
    lay = sheet_layout(side, "a4")
    need = math.sqrt(mp * 1e6 * 4 / 3) / lay.page_h_pt * 1.1
    ppt = min((1.5, 2.25, 3.0, 3.75, 4.5), key=lambda v: (v < need, abs(v - need)))
    sheet_id = f"S{seed % 100000:05d}"
    marked = spec.marked and spec.design in (None, "ours")
    g = lay.grid
    if spec.design in (None, "ours"):
        page = render_sheet(side, ppt, sheet_id, marked)
        xs = (g.x_pt + g.cell_pt * (np.arange(GRID_SIZE) + 0.5)) * ppt
        ys = (g.y_pt + g.cell_pt * (np.arange(GRID_SIZE) + 0.5)) * ppt
        centres_page = np.stack(np.meshgrid(xs, ys), axis=-1)
    else:
        from bench.sheetdesigns import render_design

        page, centres_page = render_design(spec.design, side, ppt, np.random.default_rng(seed + 7919))
    grid = random_grid(rng, side, spec.empty_p)
    coins = int(rng.integers(0, COIN_TRACK_LENGTH + 1))
    player = random_player(rng, style)
    marks = None
    if spec.marks:  # its own random stream: the rest of the photo is the one the same seed gives without marks
        mrng = np.random.default_rng(seed + 1_000_003)
        marks = place_marks(mrng, side, grid, letters=style == "letters")
    drawn = draw_sheet(page, ppt, side, grid, coins, player, rng, legend=spec.legend and marked)
    if marks is not None:
        drawn = draw_marks(drawn, ppt, side, marks, mrng, player.opacity if style != "pencil" else 0.9)
        grid = [row[:] for row in grid]
        for (r, c), (kind, _) in marks.cells.items():
            grid[r][c] = kind
    info: dict = {}
    photo, Hm = photograph(drawn, rng, mp, spec.tilt_deg, spec.curl, spec.fill, spec.quality, spec.blur, spec.dark,
                           spec.glare, info, spec.table,
                           None if spec.quarter_turn is None else 90.0 * spec.quarter_turn, spec.motion)
    centres = page_to_photo(centres_page.reshape(-1, 2), Hm, info).reshape(GRID_SIZE, GRID_SIZE, 2)
    clipped = None
    if spec.clip_marker and marked:
        photo, centres, Hm, clipped = _clip_markers(photo, centres, Hm, lay, ppt, spec.clip_marker, rng)
    q = spec.quality or int(rng.integers(60, 96))
    ok, buf = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, q])
    assert ok
    x1, y1 = g.x_pt + 11 * g.cell_pt, g.y_pt + 11 * g.cell_pt
    gc = np.array([[g.x_pt, g.y_pt], [x1, g.y_pt], [x1, y1], [g.x_pt, y1]], np.float32) * ppt
    corners = cv2.perspectiveTransform(gc[None], Hm)[0]
    return SynthPhoto(buf.tobytes(), side, grid, coins, sheet_id if marked else None, style, marked,
                      (photo.shape[1], photo.shape[0]), corners,
                      {"megapixels": mp, "quality": q, "ppt": ppt, "clipped": clipped},
                      centres, spec.design or ("ours" if marked else "unmarked"), marks)


def _clip_markers(photo, centres, Hm, lay, ppt, n: int, rng):
    """Crop the photo along one side so that `n` corner markers (1 or 2) are cut while the grid stays whole."""
    H, W = photo.shape[:2]
    mk_centres = {}
    for mk in lay.markers:
        c = np.array([[mk.x_pt + mk.size_pt / 2, mk.y_pt + mk.size_pt / 2]]) * ppt
        mk_centres[mk.corner] = cv2.perspectiveTransform(c[None], Hm)[0, 0]
    g = lay.grid
    s = g.cell_pt * GRID_SIZE
    gc = np.array([[g.x_pt, g.y_pt], [g.x_pt + s, g.y_pt], [g.x_pt + s, g.y_pt + s], [g.x_pt, g.y_pt + s]]) * ppt
    grid_px = cv2.perspectiveTransform(gc[None], Hm)[0]
    # choose the image side nearest the marker(s) to cut
    pts = np.array(list(mk_centres.values()))
    order = np.argsort(pts[:, 0])
    options = {"left": pts[order[:n], 0].max(), "right": pts[order[-n:], 0].min()}
    order = np.argsort(pts[:, 1])
    options.update({"top": pts[order[:n], 1].max(), "bottom": pts[order[-n:], 1].min()})
    limits = {"left": grid_px[:, 0].min(), "right": grid_px[:, 0].max(), "top": grid_px[:, 1].min(),
              "bottom": grid_px[:, 1].max()}
    sides = [k for k in options if (options[k] < limits[k] - 4 if k in ("left", "top") else options[k] > limits[k] + 4)]
    if not sides:  # the photo's tilt puts the grid further out than the markers: nothing to clip
        return photo, centres, Hm, None
    side = sides[int(rng.integers(len(sides)))]
    cut = (options[side] + limits[side]) / 2
    T = np.eye(3)
    if side == "left":
        x = int(cut)
        photo, T[0, 2] = photo[:, x:], -x
    elif side == "right":
        photo = photo[:, : int(cut)]
    elif side == "top":
        y = int(cut)
        photo, T[1, 2] = photo[y:], -y
    else:
        photo = photo[: int(cut)]
    centres = centres + T[:2, 2]
    return np.ascontiguousarray(photo), centres, T @ Hm, side
