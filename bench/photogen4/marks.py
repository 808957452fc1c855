"""The player's drawing: per-player pens and palette, one painter per drawing medium, symbols and letters,
the legend, the coin track, the header (name, scores), smudges, erased ghosts and stray dots."""

from __future__ import annotations

import cv2
import numpy as np

from .sheets import N, Plan, _mm2px
from .util import apply_ink, bilinear, directional_noise, dot, fill_poly, hex_rgb, jitter_rgb, polyline, value_noise

TERRAINS = ("forest", "village", "farm", "water", "monster")

PALETTE = {
    "forest": ["#1f7a3a", "#2e8b57", "#3a6b2a", "#0f5e3c", "#4c9a2a", "#228b22", "#556b2f", "#2f9e6e"],
    "village": ["#b5472f", "#c0392b", "#8b4513", "#d2691e", "#e67e22", "#a0522d", "#c8553d", "#e0603a"],
    "farm": ["#f1c40f", "#e5b80b", "#d4a017", "#f4d03f", "#c9a227", "#e8c547", "#ffd34d", "#cfa83a"],
    "water": ["#2e86c1", "#1f6fb2", "#3498db", "#117a8b", "#2c7fb8", "#16a2b8", "#4a90d9", "#1b4f9c"],
    "monster": ["#6c3483", "#8e44ad", "#2c2c2c", "#555555", "#d63384", "#7b2d8e", "#3d3d5c", "#e05aa0"],
}
UNUSUAL = ["#ff7f50", "#20b2aa", "#9acd32", "#8b0000", "#ff69b4", "#708090", "#bdb76b", "#40e0d0"]
BALLPOINT = {"blue": (0.1, 0.18, 0.6), "black": (0.1, 0.1, 0.13), "red": (0.72, 0.12, 0.12)}
GRAPHITE = (0.3, 0.3, 0.33)
COLOUR_METHODS = ("pencil", "marker", "crayon", "felttip", "watercolour")
LETTER_SCHEMES = {
    "en1": {"forest": "F", "village": "V", "farm": "A", "water": "W", "monster": "M"},
    "en2": {"forest": "T", "village": "H", "farm": "F", "water": "W", "monster": "M"},
    "en3": {"forest": "Fo", "village": "V", "farm": "Fa", "water": "W", "monster": "X"},
    "tr": {"forest": "O", "village": "K", "farm": "T", "water": "S", "monster": "C"},
}
NAMES = ["Ayse", "Mehmet", "Zeynep", "Emre", "Alice", "Tom", "Deniz", "Can", "Elif", "Sam", "Kerem", "Lena", "Ozan",
         "Mia", "Burak", "Jo", "Selin", "Max"]


def _palette(rng, close_hues: bool):
    pal = {}
    for t in TERRAINS:
        opts = PALETTE[t]
        pal[t] = jitter_rgb(hex_rgb(opts[int(rng.integers(len(opts)))]), rng, 0.03)
    if rng.random() < 0.12:  # an unusual pick for one terrain
        t = TERRAINS[int(rng.integers(5))]
        pal[t] = hex_rgb(UNUSUAL[int(rng.integers(len(UNUSUAL)))])
    if close_hues and rng.random() < 0.5:  # two greens / two blues
        f = np.array(pal["forest"])
        pal["water"] = tuple(float(v) for v in np.clip(f * 0.7 + np.array([0.05, 0.15, 0.3]) * 0.6, 0, 1))
    return pal


def make_player(style: str, rng: np.random.Generator) -> dict:
    pal = _palette(rng, close_hues=style == "watercolour")
    methods = {}
    over = {}
    if style in COLOUR_METHODS or style in ("ballpoint", "graphite", "letters"):
        methods = dict.fromkeys(TERRAINS, style)
    else:  # mixed
        base = COLOUR_METHODS[int(rng.integers(len(COLOUR_METHODS)))]
        sym = set(rng.choice(TERRAINS, int(rng.integers(1, 4)), replace=False).tolist())
        for t in TERRAINS:
            methods[t] = "graphite" if t in sym else base
        for t in TERRAINS:
            if t not in sym and rng.random() < 0.3:
                over[t] = True  # a symbol drawn over the colour
    ball_mode = "symbols" if rng.random() < 0.7 else "scribble"
    ball_cols = {}
    one = list(BALLPOINT)[int(rng.integers(3))]
    for t in TERRAINS:
        ball_cols[t] = BALLPOINT[one] if rng.random() < 0.6 else BALLPOINT[list(BALLPOINT)[int(rng.integers(3))]]
    symbols = {"forest": int(rng.integers(3)), "village": int(rng.integers(2)), "farm": int(rng.integers(3)),
               "water": int(rng.integers(2)), "monster": int(rng.integers(3))}
    scheme = str(rng.choice(list(LETTER_SCHEMES), p=[0.3, 0.15, 0.15, 0.4]))
    fonts = [cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_DUPLEX,
             cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_SCRIPT_COMPLEX]
    font = int(fonts[int(rng.integers(len(fonts)))])
    letter_pen = str(rng.choice(["pencil", "blue", "black"]))
    return {
        "style": style, "palette": pal, "methods": methods, "symbol_over": over,
        "hatch_angle": float(rng.uniform(0, 180)), "hatch_gap": float(rng.uniform(0.05, 0.11)),
        "pressure": float(rng.uniform(0.35, 0.95)), "cross_hatch": bool(rng.random() < 0.3),
        "zigzag": bool(rng.random() < 0.55), "overshoot": float(rng.uniform(-0.04, 0.09)),
        "partial_p": float(rng.uniform(0, 0.35)), "marker_w": float(rng.uniform(0.2, 0.38)),
        "crayon_thr": float(rng.uniform(0.3, 0.55)), "felt_mode": int(rng.integers(4)),
        "wc_opacity": float(rng.uniform(0.45, 0.85)), "ball_mode": ball_mode, "ball_cols": ball_cols,
        "symbols": symbols, "sym_scale": float(rng.uniform(0.5, 0.85)), "slant": float(rng.normal(0, 8)),
        "line_mm": float(rng.uniform(0.3, 0.7)), "scheme": scheme, "font": font,
        "letter_italic": bool(rng.random() < 0.3), "letter_pen": letter_pen,
        "letter_h": float(rng.uniform(0.38, 0.7)), "coin_mark": str(rng.choice(["fill", "x", "tick", "slash", "ring"])),
    }


def _public(player: dict) -> dict:
    out = {}
    for kk, v in player.items():
        if kk == "palette" or kk == "ball_cols":
            out[kk] = {t: [round(x, 3) for x in c] for t, c in v.items()}
        elif kk == "symbol_over":
            out[kk] = sorted(v)
        elif isinstance(v, float):
            out[kk] = round(v, 4)
        else:
            out[kk] = v
    return out


# ------------------------------------------------------------------------------------------------ strokes

def _zigzag(angle_deg, gap, lo=(0.0, 0.0), hi=(1.0, 1.0), rng=None, jitter=0.02):
    """A back-and-forth stroke filling the box [lo, hi] (cell units) at angle, as a (n, 2) polyline."""
    a = np.deg2rad(angle_deg)
    d = np.array([np.cos(a), np.sin(a)])
    nrm = np.array([-d[1], d[0]])
    c = (np.array(lo) + np.array(hi)) / 2
    half = (np.array(hi) - np.array(lo)) / 2
    ext = abs(half[0] * nrm[0]) + abs(half[1] * nrm[1])
    pts = []
    s = -ext + gap * 0.5
    flip = False
    while s <= ext:
        # intersect line c + s*nrm + t*d with the box
        p = c + s * nrm
        tmin, tmax = -10.0, 10.0
        for i in range(2):
            if abs(d[i]) < 1e-9:
                if not (lo[i] <= p[i] <= hi[i]):
                    tmin, tmax = 1, 0
            else:
                t1, t2 = (lo[i] - p[i]) / d[i], (hi[i] - p[i]) / d[i]
                tmin, tmax = max(tmin, min(t1, t2)), min(tmax, max(t1, t2))
        if tmin < tmax:
            e0, e1 = p + tmin * d, p + tmax * d
            if flip:
                e0, e1 = e1, e0
            if rng is not None:
                e0 = e0 + rng.normal(0, jitter, 2)
                e1 = e1 + rng.normal(0, jitter, 2)
            pts += [e0, e1]
            flip = not flip
        s += gap * (1 + (rng.normal(0, 0.15) if rng is not None else 0))
    return np.array(pts) if pts else np.zeros((0, 2))


def _segments(zz):
    return [zz[i:i + 2] for i in range(0, len(zz) - 1, 2)]


def _circle(cx, cy, r, n=20, ry=None):
    t = np.linspace(0, 2 * np.pi, n)
    return np.stack([cx + r * np.cos(t), cy + (ry or r) * np.sin(t)], -1)


def symbol_strokes(terrain: str, variant: int) -> list[tuple[np.ndarray, bool]]:
    """Strokes in cell units for a terrain symbol: [(points, filled)]."""
    P = np.array
    if terrain == "forest":
        if variant == 0:  # conifer
            return [(P([[0.5, 0.88], [0.5, 0.7]]), False),
                    (P([[0.28, 0.7], [0.5, 0.15], [0.72, 0.7], [0.28, 0.7]]), False)]
        if variant == 1:  # round tree
            return [(_circle(0.5, 0.4, 0.22), False), (P([[0.5, 0.62], [0.5, 0.88]]), False)]
        return [(P([[0.3, 0.85], [0.3, 0.7]]), False), (P([[0.15, 0.7], [0.3, 0.3], [0.45, 0.7], [0.15, 0.7]]), False),
                (P([[0.68, 0.85], [0.68, 0.62]]), False),
                (P([[0.52, 0.62], [0.68, 0.18], [0.84, 0.62], [0.52, 0.62]]), False)]
    if terrain == "village":
        s = [(P([[0.28, 0.5], [0.28, 0.85], [0.72, 0.85], [0.72, 0.5]]), False),
             (P([[0.2, 0.52], [0.5, 0.2], [0.8, 0.52]]), False)]
        if variant == 1:
            s.append((P([[0.44, 0.85], [0.44, 0.66], [0.56, 0.66], [0.56, 0.85]]), False))
        return s
    if terrain == "farm":
        if variant == 0:  # wheat
            s = [(P([[0.5, 0.9], [0.5, 0.2]]), False)]
            for y in (0.28, 0.4, 0.52):
                s += [(P([[0.5, y + 0.08], [0.36, y]]), False), (P([[0.5, y + 0.08], [0.64, y]]), False)]
            return s
        if variant == 1:  # furrows
            return [(P([[0.18, y], [0.82, y - 0.08]]), False) for y in (0.32, 0.52, 0.72)]
        return [(_circle(x, y, 0.035, 8), True) for x in (0.28, 0.5, 0.72) for y in (0.3, 0.5, 0.7)]
    if terrain == "water":
        out = []
        ys = (0.35, 0.55, 0.75) if variant == 0 else (0.42, 0.62)
        for y in ys:
            x = np.linspace(0.15, 0.85, 14)
            out.append((np.stack([x, y + 0.06 * np.sin((x - 0.15) * 2 * np.pi * 1.5)], -1), False))
        return out
    # monster
    if variant == 0:  # face
        return [(_circle(0.5, 0.52, 0.3), False), (_circle(0.39, 0.45, 0.04, 8), True),
                (_circle(0.61, 0.45, 0.04, 8), True),
                (P([[0.35, 0.65], [0.42, 0.6], [0.5, 0.66], [0.58, 0.6], [0.65, 0.65]]), False)]
    if variant == 1:  # an X
        return [(P([[0.2, 0.2], [0.8, 0.8]]), False), (P([[0.8, 0.2], [0.2, 0.8]]), False)]
    return [(_circle(0.5, 0.58, 0.25), False), (P([[0.32, 0.42], [0.25, 0.12], [0.42, 0.36]]), False),
            (P([[0.68, 0.42], [0.75, 0.12], [0.58, 0.36]]), False), (_circle(0.42, 0.55, 0.035, 8), True),
            (_circle(0.58, 0.55, 0.035, 8), True), (P([[0.4, 0.7], [0.6, 0.7]]), False)]


def _jitter_affine(pts, rng, scale, slant_deg, rot_sd=8.0, off=0.08):
    s = scale * rng.uniform(0.85, 1.12)
    th = np.deg2rad(rng.normal(0, rot_sd))
    sh = np.tan(np.deg2rad(slant_deg + rng.normal(0, 4)))
    o = rng.normal(0, off, 2)
    R = np.array([[np.cos(th), -np.sin(th)], [np.sin(th), np.cos(th)]])
    S = np.array([[1, -sh], [0, 1]])
    A = R @ S * s
    return lambda p: (np.asarray(p) - 0.5) @ A.T + 0.5 + o


# ------------------------------------------------------------------------------------------------ painters

class Ctx:
    def __init__(self, img, g, k, x0, y0, w, h, rng):
        self.img, self.g, self.k, self.x0, self.y0, self.w, self.h, self.rng = img, g, k, x0, y0, w, h, rng

    def mask(self):
        return np.zeros((self.h, self.w), np.uint8)

    def grain(self):
        return self.g[self.y0:self.y0 + self.h, self.x0:self.x0 + self.w]

    def local(self, quad_px):
        return quad_px - np.array([self.x0, self.y0])


def _cell_px(q):
    return float(np.mean([np.hypot(*(q[1] - q[0])), np.hypot(*(q[3] - q[0]))]))


def _draw_symbol(m, q, terrain, player, rng, thick, variant=None):
    var = player["symbols"][terrain] if variant is None else variant
    f = _jitter_affine(None, rng, player["sym_scale"] / 0.75, player["slant"])
    for pts, filled in symbol_strokes(terrain, var):
        p = f(pts + rng.normal(0, 0.008, pts.shape))
        px = bilinear(q, p[:, 0], p[:, 1])
        if filled:
            fill_poly(m, px, 255)
        else:
            polyline(m, px, thick * rng.uniform(0.8, 1.2))


def _letters(m, q, terrain, player, rng, thick):
    text = LETTER_SCHEMES[player["scheme"]][terrain]
    cs = _cell_px(q)
    font = player["font"] | (cv2.FONT_ITALIC if player["letter_italic"] else 0)
    h_px = cs * player["letter_h"] * rng.uniform(0.85, 1.15)
    P = int(cs * 2)
    patch = np.zeros((P, P), np.uint8)
    scale = h_px / 22.0
    (tw, th), _ = cv2.getTextSize(text, font, scale, max(1, int(thick)))
    cv2.putText(patch, text, (int(P / 2 - tw / 2), int(P / 2 + th / 2)), font, scale, 255, max(1, int(round(thick))),
                cv2.LINE_AA)
    c = bilinear(q, 0.5 + rng.normal(0, 0.06), 0.5 + rng.normal(0, 0.06))
    th_ = np.deg2rad(rng.normal(0, 7))
    sh = np.tan(np.deg2rad(player["slant"] + rng.normal(0, 4)))
    A = np.array([[np.cos(th_), -np.sin(th_)], [np.sin(th_), np.cos(th_)]]) @ np.array([[1, -sh], [0, 1]])
    x0, y0 = int(c[0] - P / 2), int(c[1] - P / 2)
    M = np.zeros((2, 3))
    M[:, :2] = A
    M[:, 2] = np.array([c[0] - x0, c[1] - y0]) - A @ np.array([P / 2, P / 2])
    out = cv2.warpAffine(patch, M, (P, P), flags=cv2.INTER_LINEAR)
    H, W = m.shape
    xa, ya, xb, yb = max(0, x0), max(0, y0), min(W, x0 + P), min(H, y0 + P)
    if xa < xb and ya < yb:
        np.maximum(m[ya:yb, xa:xb], out[ya - y0:yb - y0, xa - x0:xb - x0], out=m[ya:yb, xa:xb])


def _hatch_cell(m, q, player, rng, gap, thick, value=255, angle=None):
    ov = player["overshoot"]
    lo = [rng.uniform(-0.02, 0.08) - ov, rng.uniform(-0.02, 0.08) - ov]
    hi = [1 - rng.uniform(-0.02, 0.08) + ov, 1 - rng.uniform(-0.02, 0.08) + ov]
    if rng.random() < player["partial_p"]:  # only part of the cell filled
        i = int(rng.integers(2))
        if rng.random() < 0.5:
            hi[i] = rng.uniform(0.45, 0.85)
        else:
            lo[i] = rng.uniform(0.15, 0.55)
    ang = (player["hatch_angle"] if angle is None else angle) + rng.normal(0, 8)
    zz = _zigzag(ang, gap, lo, hi, rng)
    if len(zz) < 2:
        return
    px = bilinear(q, zz[:, 0], zz[:, 1])
    if player["zigzag"]:
        polyline(m, px, thick, value)
    else:
        for seg in _segments(px):
            polyline(m, seg, thick, value)


def paint_terrain(ctx: Ctx, quads: list, shapes_q: list, terrain: str, player: dict, method: str) -> None:
    """Paint every quad of one terrain (ROI pixel coords) with the player's pen for it."""
    rng, k = ctx.rng, ctx.k
    col = player["palette"][terrain]
    if not quads:
        return
    if method == "pencil":
        m = ctx.mask()
        for q in quads:
            cs = _cell_px(q)
            v = int(255 * np.clip(player["pressure"] * rng.uniform(0.75, 1.2), 0.15, 1))
            _hatch_cell(m, q, player, rng, player["hatch_gap"] * 1.0, max(1.0, 0.45 * k), v)
            if player["cross_hatch"]:
                _hatch_cell(m, q, player, rng, player["hatch_gap"] * 1.4, max(1.0, 0.4 * k), v,
                            angle=player["hatch_angle"] + 90)
            _ = cs
        mf = m.astype(np.float32) / 255 * np.clip(0.15 + 1.4 * ctx.grain(), 0, 1)
        apply_ink(ctx.img, mf, col, ctx.x0, ctx.y0)
    elif method == "marker":
        a, b = ctx.mask(), ctx.mask()
        for q in quads:
            cs = _cell_px(q)
            w = player["marker_w"]
            ov = player["overshoot"] + 0.03
            ang = round(player["hatch_angle"] / 45) * 45 + rng.normal(0, 5)
            zz = _zigzag(ang, w * 0.8, (-ov + 0.03, -ov + 0.03), (1 + ov - 0.03, 1 + ov - 0.03), rng, 0.015)
            if len(zz) < 2:
                continue
            px = bilinear(q, zz[:, 0], zz[:, 1])
            polyline(a, px, cs * w, 255)
            for seg in _segments(px):
                if rng.random() < 0.3:  # a second pass over part of the cell: darker overlap
                    polyline(b, seg, cs * w * 0.8, 255)
        mf = (a.astype(np.float32) + 0.6 * b.astype(np.float32)) * (0.85 / 255)
        streak = directional_noise((ctx.h, ctx.w), player["hatch_angle"], 40 * k, 0.8 * k, rng)
        mf *= 1 + 0.12 * streak
        mf = cv2.GaussianBlur(mf, (0, 0), max(0.5, 0.25 * k))
        apply_ink(ctx.img, mf, col, ctx.x0, ctx.y0)
    elif method == "crayon":
        m = ctx.mask()
        for q in quads:
            cs = _cell_px(q)
            zz = _zigzag(player["hatch_angle"] + rng.normal(0, 10), 0.14, (0.02, 0.02), (0.98, 0.98), rng, 0.03)
            if len(zz) >= 2:
                polyline(m, bilinear(q, zz[:, 0], zz[:, 1]), cs * 0.2, 255)
        g = cv2.GaussianBlur(ctx.grain(), (0, 0), max(1.0, 0.25 * k))
        g = 0.5 + (g - g.mean()) / (g.std() + 1e-6) * 0.22
        tooth = np.clip((g - player["crayon_thr"]) * 2.2 + 0.62, 0, 1)
        patch = 0.75 + 0.25 * value_noise((ctx.h, ctx.w), 25, rng)
        mf = m.astype(np.float32) / 255 * tooth * patch * 0.95
        apply_ink(ctx.img, mf, col, ctx.x0, ctx.y0)
    elif method == "felttip":
        m = ctx.mask()
        mode = player["felt_mode"]
        for q in quads:
            cs = _cell_px(q)
            if mode in (0, 2):
                ins = rng.uniform(0.08, 0.18)
                pts = np.array([[ins, ins], [1 - ins, ins], [1 - ins, 1 - ins], [ins, 1 - ins], [ins, ins + 0.05]])
                pts = pts + rng.normal(0, 0.015, pts.shape)
                polyline(m, bilinear(q, pts[:, 0], pts[:, 1]), max(2.0, 0.9 * k))
            if mode in (1, 2):
                zz = _zigzag(player["hatch_angle"], 0.13, (0.15, 0.15), (0.85, 0.85), rng, 0.02)
                if len(zz) >= 2:
                    polyline(m, bilinear(q, zz[:, 0], zz[:, 1]), max(2.0, 0.7 * k))
            if mode == 3:
                zz = _zigzag(player["hatch_angle"], 0.2, (0.04, 0.04), (0.96, 0.96), rng, 0.02)
                if len(zz) >= 2:
                    polyline(m, bilinear(q, zz[:, 0], zz[:, 1]), cs * 0.24)
        mf = cv2.GaussianBlur(m.astype(np.float32) / 255, (0, 0), max(0.4, 0.15 * k)) * 0.92
        apply_ink(ctx.img, mf, col, ctx.x0, ctx.y0)
    elif method == "watercolour":
        acc = np.zeros((ctx.h, ctx.w), np.float32)
        for group in shapes_q:
            cs = _cell_px(group[0])
            pad = int(cs * 0.5)
            allp = np.concatenate(group)
            bx0, by0 = int(allp[:, 0].min()) - pad, int(allp[:, 1].min()) - pad
            bx1, by1 = int(allp[:, 0].max()) + pad, int(allp[:, 1].max()) + pad
            bx0, by0 = max(0, bx0), max(0, by0)
            bx1, by1 = min(ctx.w, bx1), min(ctx.h, by1)
            if bx1 <= bx0 or by1 <= by0:
                continue
            sm = np.zeros((by1 - by0, bx1 - bx0), np.uint8)
            for q in group:
                s = rng.uniform(0.88, 1.08)
                qq = (q - q.mean(0)) * s + q.mean(0) + rng.normal(0, 0.03 * cs, 2) - np.array([bx0, by0])
                fill_poly(sm, qq, 255)
            e = cv2.GaussianBlur(sm.astype(np.float32) / 255, (0, 0), 0.07 * cs)
            nz = value_noise(e.shape, max(3, e.shape[1] / cs * 3), rng, octaves=2)
            e = np.clip((e - 0.5 + 0.18 * nz) * 6, 0, 1)
            ring = np.clip(e - cv2.GaussianBlur(e, (0, 0), 0.05 * cs), 0, 1) * 2.2
            dens = e * (0.55 + 0.3 * value_noise(e.shape, max(3, e.shape[1] / cs * 1.5), rng))
            mm = player["wc_opacity"] * rng.uniform(0.8, 1.15) * (dens + 0.7 * ring)
            mm = cv2.GaussianBlur(mm, (0, 0), max(0.6, 0.02 * cs))
            acc[by0:by1, bx0:bx1] += mm
        acc *= 0.9 + 0.2 * ctx.grain()
        apply_ink(ctx.img, acc, col, ctx.x0, ctx.y0)
    elif method in ("graphite", "ballpoint", "letters"):
        m = ctx.mask()
        if method == "graphite":
            thick, ink = max(1.0, player["line_mm"] * k), GRAPHITE
        elif method == "ballpoint":
            thick, ink = max(1.0, 0.35 * k), player["ball_cols"][terrain]
        else:
            pen = player["letter_pen"]
            thick = max(1.0, (0.5 if pen == "pencil" else 0.4) * k)
            ink = GRAPHITE if pen == "pencil" else BALLPOINT[pen]
        for q in quads:
            if method == "letters":
                _letters(m, q, terrain, player, rng, thick)
            elif method == "ballpoint" and player["ball_mode"] == "scribble":
                _ball_scribble(m, q, terrain, rng, thick)
            else:
                _draw_symbol(m, q, terrain, player, rng, thick)
        mf = m.astype(np.float32) / 255
        if ink is GRAPHITE:
            mf *= np.clip(0.2 + 1.3 * ctx.grain(), 0, 1) * np.clip(player["pressure"] + 0.2, 0.4, 1.0)
        else:
            mf *= 0.9
        apply_ink(ctx.img, mf, ink, ctx.x0, ctx.y0)


def _ball_scribble(m, q, terrain, rng, thick):
    """One ballpoint, a pattern per terrain."""
    if terrain == "forest":
        for ang in (45, 135):
            zz = _zigzag(ang, 0.12, (0.1, 0.1), (0.9, 0.9), rng, 0.01)
            for seg in _segments(bilinear(q, zz[:, 0], zz[:, 1])):
                polyline(m, seg, thick)
    elif terrain == "village":
        zz = _zigzag(rng.uniform(0, 180), 0.05, (0.08, 0.08), (0.92, 0.92), rng, 0.01)
        polyline(m, bilinear(q, zz[:, 0], zz[:, 1]), thick)
    elif terrain == "farm":
        for x in (0.25, 0.5, 0.75):
            for y in (0.25, 0.5, 0.75):
                dot(m, bilinear(q, x + rng.normal(0, 0.03), y + rng.normal(0, 0.03)), thick * 1.3)
    elif terrain == "water":
        for y in (0.3, 0.5, 0.7):
            x = np.linspace(0.1, 0.9, 16)
            polyline(m, bilinear(q, x, y + 0.05 * np.sin(x * 12)), thick)
    else:
        polyline(m, bilinear(q, [0.15, 0.85], [0.15, 0.85]), thick * 1.5)
        polyline(m, bilinear(q, [0.85, 0.15], [0.15, 0.85]), thick * 1.5)


# ------------------------------------------------------------------------------------------------ the whole sheet

def draw_sheet(img, g, plan: Plan, k: float, shapes: list, style: str, rng: np.random.Generator) -> dict:
    player = make_player(style, rng)
    H, W = img.shape[:2]
    Q = {(r, c): _mm2px(plan.cell_quad(r, c), k) for r in range(N) for c in range(N)}
    legend_filled = bool(plan.legend) and rng.random() < 0.7
    pts = [_mm2px(plan.lattice.reshape(-1, 2), k)]
    if legend_filled:
        pts += [_mm2px(q, k) for _, q in plan.legend]
    allp = np.concatenate(pts)
    cs = _cell_px(Q[(0, 0)])
    x0, y0 = max(0, int(allp[:, 0].min() - cs)), max(0, int(allp[:, 1].min() - cs))
    x1, y1 = min(W, int(allp[:, 0].max() + cs)), min(H, int(allp[:, 1].max() + cs))
    ctx = Ctx(img, g, k, x0, y0, x1 - x0, y1 - y0, rng)
    off = np.array([x0, y0])
    by_t = {t: [] for t in TERRAINS}
    shapes_t = {t: [] for t in TERRAINS}
    for t, cells in shapes:
        by_t[t] += [Q[rc] - off for rc in cells]
        shapes_t[t].append([Q[rc] - off for rc in cells])
    if legend_filled:
        for t, q in plan.legend:
            lq = _mm2px(q, k) - off
            by_t[t].append(lq)
            shapes_t[t].append([lq])
    for t in TERRAINS:
        paint_terrain(ctx, by_t[t], shapes_t[t], t, player, player["methods"][t])
        if player["symbol_over"].get(t):
            paint_terrain(ctx, by_t[t], shapes_t[t], t, player, "graphite")
    extras = _extras(img, g, plan, k, Q, rng, player)
    return {"player": _public(player), "legend_filled": legend_filled, **extras}


def _hand_text(img, g, text, x, y, h_px, rng, ink, thick, font=None, pencil=False):
    font = font if font is not None else int(rng.choice([cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, cv2.FONT_HERSHEY_SIMPLEX,
                                                         cv2.FONT_HERSHEY_PLAIN]))
    scale = h_px / 22.0
    (tw, th), _ = cv2.getTextSize(text, font, scale, max(1, int(thick)))
    pad = int(h_px)
    P = np.zeros((th + 2 * pad, tw + 2 * pad), np.uint8)
    cv2.putText(P, text, (pad, pad + th), font, scale, 255, max(1, int(round(thick))), cv2.LINE_AA)
    sh = np.tan(np.deg2rad(rng.normal(8, 6)))
    rot = np.deg2rad(rng.normal(0, 2.5))
    A = np.array([[np.cos(rot), -np.sin(rot)], [np.sin(rot), np.cos(rot)]]) @ np.array([[1, -sh], [0, 1]])
    M = np.zeros((2, 3))
    M[:, :2] = A
    out_w, out_h = P.shape[1] + pad, P.shape[0]
    M[:, 2] = np.array([pad / 2, 0]) + np.array([P.shape[1] / 2, P.shape[0] / 2]) - A @ np.array(
        [P.shape[1] / 2, P.shape[0] / 2])
    out = cv2.warpAffine(P, M, (out_w, out_h)).astype(np.float32) / 255
    ox, oy = int(x - pad), int(y - pad - th)
    if pencil:
        gg = g[max(0, oy):max(0, oy) + out_h, max(0, ox):max(0, ox) + out_w]
        if gg.shape == out.shape:
            out *= np.clip(0.3 + 1.2 * gg, 0, 1)
    apply_ink(img, out * 0.9, ink, ox, oy)


def _extras(img, g, plan: Plan, k, Q, rng, player) -> dict:
    H, W = img.shape[:2]
    out: dict = {}
    pen_name = str(rng.choice(["pencil", "blue", "black"]))
    ink = GRAPHITE if pen_name == "pencil" else BALLPOINT[pen_name]
    # the player's name
    name = None
    if plan.name_line is not None and rng.random() < 0.75:
        name = str(rng.choice(NAMES))
        x0, yb, x1 = plan.name_line
        _hand_text(img, g, name, (x0 + rng.uniform(0, 8)) * k, yb * k, rng.uniform(4, 7) * k, rng, ink,
                   max(1.0, 0.45 * k), pencil=pen_name == "pencil")
    out["name"] = name
    # scores in boxes
    nscores = 0
    if plan.score_boxes and rng.random() < 0.6:
        for x, y, w, h in plan.score_boxes:
            if rng.random() < 0.55:
                s = str(int(rng.integers(0, 25)))
                _hand_text(img, g, s, (x + w * 0.2) * k, (y + h * 0.78) * k, h * 0.55 * k, rng, ink,
                           max(1.0, 0.4 * k), font=cv2.FONT_HERSHEY_SIMPLEX, pencil=pen_name == "pencil")
                nscores += 1
    out["scores_written"] = nscores
    # coins
    coins = None
    if plan.coins:
        coins = int(min(14, rng.choice([0, rng.integers(0, 6), rng.integers(0, 15)], p=[0.15, 0.5, 0.35])))
        m = np.zeros((H, W), np.uint8)
        mark = player["coin_mark"]
        cink = player["palette"]["farm"] if mark == "fill" and rng.random() < 0.4 else ink
        for i in range(coins):
            cx, cy, r = plan.coins[i]
            c = np.array([cx, cy]) * k - 0.5 + rng.normal(0, 0.1 * r * k, 2)
            rp = r * k
            t = max(1.0, 0.45 * k)
            if mark == "fill":
                dot(m, c, rp * rng.uniform(0.6, 0.95))
            elif mark == "x":
                polyline(m, np.array([c - 0.7 * rp, c + 0.7 * rp]), t)
                polyline(m, np.array([c + [0.7 * rp, -0.7 * rp], c + [-0.7 * rp, 0.7 * rp]]), t)
            elif mark == "tick":
                polyline(m, np.array([c + [-0.6 * rp, 0], c + [-0.1 * rp, 0.6 * rp], c + [0.8 * rp, -0.8 * rp]]), t)
            elif mark == "slash":
                polyline(m, np.array([c + [-0.6 * rp, 0.8 * rp], c + [0.6 * rp, -0.8 * rp]]), t)
            else:
                polyline(m, _circle(c[0], c[1], rp * 0.55, 16), t * 1.5, closed=True)
        mf = m.astype(np.float32) / 255
        if cink is GRAPHITE:
            mf *= np.clip(0.3 + 1.2 * g, 0, 1)
        apply_ink(img, mf * 0.92, cink)
    out["coins"] = coins
    # smudges, erased ghosts, stray dots
    lat = _mm2px(plan.lattice, k)
    gx0, gy0 = lat[0, 0]
    gx1, gy1 = lat[N, N]
    nsm = int(rng.integers(0, 4)) if rng.random() < 0.5 else 0
    for _ in range(nsm):
        cx, cy = rng.uniform(gx0, gx1), rng.uniform(gy0, gy1)
        rr = rng.uniform(3, 12) * k
        s = int(rr * 3)
        yy, xx = np.mgrid[-s:s, -s:s].astype(np.float32)
        a = np.deg2rad(rng.uniform(0, 180))
        u = (xx * np.cos(a) + yy * np.sin(a)) / rr
        v = (-xx * np.sin(a) + yy * np.cos(a)) / (rr * 0.4)
        mask = np.exp(-(u * u + v * v)) * rng.uniform(0.05, 0.14)
        apply_ink(img, mask.astype(np.float32), GRAPHITE, int(cx) - s, int(cy) - s)
    ghosts = 0
    if rng.random() < 0.35:
        m = np.zeros((H, W), np.uint8)
        for _ in range(int(rng.integers(1, 4))):
            r, c = int(rng.integers(N)), int(rng.integers(N))
            t = TERRAINS[int(rng.integers(5))]
            _draw_symbol(m, Q[(r, c)], t, player, rng, max(1.0, 0.5 * k), variant=int(rng.integers(2)))
            ghosts += 1
        mf = cv2.GaussianBlur(m.astype(np.float32) / 255, (0, 0), 0.3 * k) * rng.uniform(0.08, 0.2)
        apply_ink(img, mf * np.clip(0.3 + 1.2 * g, 0, 1), GRAPHITE)
    out["erased_ghosts"] = ghosts
    ndots = int(rng.integers(0, 10)) if rng.random() < 0.5 else 0
    if ndots:
        m = np.zeros((H, W), np.uint8)
        for _ in range(ndots):
            dot(m, (rng.uniform(gx0, gx1), rng.uniform(gy0, gy1)), rng.uniform(0.2, 0.5) * k)
        apply_ink(img, m.astype(np.float32) / 255 * 0.6, GRAPHITE)
    out["stray_dots"] = ndots
    out["smudges"] = nsm
    return out
