"""What is around the sheet: the table's surface and the things lying on it, as textures in table millimetres."""

from __future__ import annotations

import cv2
import numpy as np

from . import strokes as S
from .rand import chance, pick, uni
from .texture import fbm, smooth_noise

WOODS = {"oak": (0.68, 0.52, 0.34), "walnut": (0.38, 0.25, 0.16), "pine": (0.8, 0.64, 0.42),
         "grey-wash": (0.6, 0.57, 0.52), "white-painted": (0.86, 0.85, 0.82), "teak": (0.55, 0.35, 0.2)}
CLOTH = [(0.92, 0.92, 0.9), (0.85, 0.8, 0.68), (0.3, 0.4, 0.65), (0.7, 0.2, 0.2), (0.3, 0.5, 0.35),
         (0.55, 0.55, 0.58), (0.9, 0.85, 0.55), (0.45, 0.3, 0.5)]


def sample_table(rng: np.random.Generator) -> dict:
    kind = pick(rng, ["wood", "cloth", "chequered", "striped", "dark", "light", "stone"],
                [0.34, 0.12, 0.12, 0.08, 0.12, 0.14, 0.08])
    t = {"kind": kind, "angle_deg": uni(rng, 0, 180)}
    if kind == "wood":
        name = pick(rng, list(WOODS))
        t.update(wood=name, colour=WOODS[name], period_mm=uni(rng, 2.5, 10), plank_mm=uni(rng, 70, 220),
                 contrast=uni(rng, 0.08, 0.25))
    elif kind == "cloth":
        t.update(colour=pick(rng, CLOTH), weave_mm=uni(rng, 0.6, 1.5), folds=int(rng.integers(0, 4)))
    elif kind == "chequered":
        t.update(colour=(0.93, 0.92, 0.9), colour2=pick(rng, [(0.75, 0.15, 0.15), (0.2, 0.3, 0.65), (0.2, 0.5, 0.3),
                                                               (0.2, 0.2, 0.22), (0.85, 0.6, 0.2)]),
                 check_mm=uni(rng, 8, 30), weave_mm=uni(rng, 0.6, 1.5), folds=int(rng.integers(0, 3)))
    elif kind == "striped":
        t.update(colours=[pick(rng, CLOTH) for _ in range(int(rng.integers(2, 4)))], stripe_mm=uni(rng, 5, 40),
                 weave_mm=uni(rng, 0.6, 1.5), folds=int(rng.integers(0, 3)))
    elif kind == "dark":
        g = uni(rng, 0.06, 0.2)
        t.update(colour=(g, g * uni(rng, 0.95, 1.05), g * uni(rng, 0.95, 1.1)))
    elif kind == "light":
        g = uni(rng, 0.75, 0.93)
        t.update(colour=(g, g * uni(rng, 0.97, 1.0), g * uni(rng, 0.94, 1.0)))
    else:
        t.update(colour=(uni(rng, 0.75, 0.9),) * 3, vein=uni(rng, 0.1, 0.3))
    t["edge"] = chance(rng, 0.25)
    t["edge_dist_mm"] = uni(rng, 60, 400)
    t["edge_dir_deg"] = uni(rng, 0, 360)
    t["floor"] = (uni(rng, 0.05, 0.35),) * 3
    return t


def table_texture(t: dict, bbox: tuple[float, float, float, float], res: float, rng: np.random.Generator
                  ) -> np.ndarray:
    """RGB float32 of the table over bbox (x0, y0, x1, y1 mm) at `res` px/mm."""
    x0, y0, x1, y1 = bbox
    W, H = max(4, int((x1 - x0) * res)), max(4, int((y1 - y0) * res))
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    X = x0 + xx / res
    Y = y0 + yy / res
    a = np.radians(t["angle_deg"])
    U = X * np.cos(a) + Y * np.sin(a)
    V = -X * np.sin(a) + Y * np.cos(a)
    kind = t["kind"]
    base = np.asarray(t.get("colour", (0.5, 0.5, 0.5)), np.float32)
    img = np.empty((H, W, 3), np.float32)
    if kind == "wood":
        # growth rings: long, nearly straight bands across V, gently bent; fibres: fine streaks along U
        warp = smooth_noise(rng, H, W, 160 * res) * 7 + smooth_noise(rng, H, W, 45 * res) * 1.8
        plank = np.floor(V / t["plank_mm"])
        shift = ((np.sin(plank * 78.233) * 12543.17) % 1.0) * 400.0  # each plank is cut from elsewhere in the log
        phase = (V + warp + np.sin((U + shift) / 230.0) * 9) * (2 * np.pi / (t["period_mm"] * 1.6))
        late = (0.5 + 0.5 * np.sin(phase)) ** 5  # thin dark latewood lines on lighter earlywood
        fade = 0.55 + 0.45 * np.tanh(smooth_noise(rng, H, W, 90 * res))
        rings = 0.7 - late * fade
        fib = rng.standard_normal(int((V.max() - V.min()) * 4) + 4).astype(np.float32)
        fib = cv2.GaussianBlur(fib.reshape(-1, 1), (1, 0), 1.2).ravel()
        fibres = np.interp((V - V.min() + warp * 0.5) * 4, np.arange(len(fib)), fib).astype(np.float32)
        tone = (np.sin(plank * 12.9898) * 43758.5453) % 1.0
        f = (1 + t["contrast"] * (rings - 0.5) + 0.04 * fibres * (1 + t["contrast"] * 2) + 0.14 * (tone - 0.5)
             + 0.04 * fbm(rng, H, W, 30 * res, 3))
        gap = ((V / t["plank_mm"]) % 1.0) * t["plank_mm"] < 0.7
        f = np.where(gap, f * 0.5, f)
        img[:] = base
        img *= f[..., None]
    elif kind in ("cloth", "chequered", "striped"):
        if kind == "cloth":
            img[:] = base
        elif kind == "chequered":
            c = (np.floor(U / t["check_mm"]) + np.floor(V / t["check_mm"])) % 2
            cu = (np.floor(U / t["check_mm"]) % 2)[..., None]
            cv_ = (np.floor(V / t["check_mm"]) % 2)[..., None]
            c1, c2 = np.asarray(t["colour"], np.float32), np.asarray(t["colour2"], np.float32)
            mid = (c1 + c2) / 2
            img[:] = np.where(cu + cv_ == 0, c1, np.where(cu + cv_ == 2, c2, mid))
            del c
        else:
            cols = np.asarray(t["colours"], np.float32)
            idx = (np.floor(U / t["stripe_mm"]).astype(np.int64) % len(cols))
            img[:] = cols[idx]
        wv = t["weave_mm"]
        weave = np.sin(U * 2 * np.pi / wv) * np.sin(V * 2 * np.pi / wv)
        img *= (1 + 0.06 * weave + 0.04 * fbm(rng, H, W, 3 * res, 2))[..., None]
        for _ in range(t.get("folds", 0)):
            p = uni(rng, -300, 300)
            ang = uni(rng, 0, np.pi)
            d = (X * np.cos(ang) + Y * np.sin(ang)) - p
            img *= (1 - 0.12 * np.exp(-(d / uni(rng, 4, 15)) ** 2) + 0.06 * np.exp(-((d - 12) / 10) ** 2))[..., None]
    elif kind == "stone":
        turb = fbm(rng, H, W, 140 * res, 5)
        m = np.sin((U / uni(rng, 90, 220) + 0.55 * turb) * np.pi)
        veins = (1 - np.abs(m)) ** 14 * (0.5 + 0.5 * np.tanh(2 * smooth_noise(rng, H, W, 150 * res)))
        veins = cv2.GaussianBlur(veins.astype(np.float32), (0, 0), max(0.5, 0.4 * res))
        img[:] = base
        img *= (1 - t["vein"] * veins + 0.015 * fbm(rng, H, W, 5 * res, 3) + 0.03 * fbm(rng, H, W, 80 * res, 3))[
            ..., None]
    else:
        img[:] = base
        img *= (1 + 0.05 * fbm(rng, H, W, 120 * res, 3) + 0.03 * fbm(rng, H, W, 2 * res, 2))[..., None]
    if t["edge"]:
        e = np.radians(t["edge_dir_deg"])
        d = X * np.cos(e) + Y * np.sin(e) - t["edge_dist_mm"]
        floor = np.asarray(t["floor"], np.float32)
        mix = np.clip(d / 3.0, 0, 1)[..., None]
        img = img * (1 - mix) + floor * mix * (0.7 + 0.3 * np.clip(1 - d / 800, 0, 1))[..., None]
    return np.clip(img, 0, 1)


# --- clutter ----------------------------------------------------------------------------------------------------

PENCIL_COLOURS = [(0.2, 0.55, 0.25), (0.8, 0.2, 0.15), (0.95, 0.8, 0.2), (0.2, 0.4, 0.8), (0.5, 0.25, 0.6),
                  (0.15, 0.15, 0.15), (0.95, 0.55, 0.15), (0.6, 0.4, 0.2), (0.9, 0.9, 0.9)]


def _rot(pts, ang, cx, cy):
    c, s = np.cos(ang), np.sin(ang)
    p = np.asarray(pts, np.float64)
    return np.stack([cx + p[:, 0] * c - p[:, 1] * s, cy + p[:, 0] * s + p[:, 1] * c], 1)


def _object(kind: str, rng: np.random.Generator) -> tuple[list, float, float]:
    """An object as (polygon mm around its centre, colour[, shade]) parts, plus its radius."""
    parts = []
    if kind == "pencil":
        L, w = uni(rng, 90, 175), uni(rng, 6.5, 8)
        col = np.array(pick(rng, PENCIL_COLOURS))
        body = [(-L / 2, -w / 2), (L / 2 - 18, -w / 2), (L / 2 - 18, w / 2), (-L / 2, w / 2)]
        parts.append((body, col))
        parts.append(([(-L / 2, -w / 6), (L / 2 - 18, -w / 6), (L / 2 - 18, w / 8), (-L / 2, w / 8)],
                      np.clip(col * 1.25 + 0.05, 0, 1)))
        parts.append(([(L / 2 - 18, -w / 2), (L / 2 - 2, -0.6), (L / 2 - 2, 0.6), (L / 2 - 18, w / 2)],
                      np.array((0.85, 0.7, 0.5))))
        parts.append(([(L / 2 - 6, -1.6), (L / 2, 0), (L / 2 - 6, 1.6)], col * 0.8))
        if chance(rng, 0.5):
            parts.append(([(-L / 2 - 8, -w / 2), (-L / 2, -w / 2), (-L / 2, w / 2), (-L / 2 - 8, w / 2)],
                          np.array((0.85, 0.5, 0.55))))
        return parts, L / 2 + 8, w
    if kind == "card":
        cw, ch = uni(rng, 56, 64), uni(rng, 86, 92)
        frame = np.array(pick(rng, [(0.9, 0.85, 0.7), (0.95, 0.95, 0.93), (0.3, 0.25, 0.2)]))
        art = np.array([uni(rng, 0.2, 0.7), uni(rng, 0.2, 0.6), uni(rng, 0.2, 0.6)])
        parts.append(([(-cw / 2, -ch / 2), (cw / 2, -ch / 2), (cw / 2, ch / 2), (-cw / 2, ch / 2)], frame))
        parts.append(([(-cw / 2 + 4, -ch / 2 + 10), (cw / 2 - 4, -ch / 2 + 10), (cw / 2 - 4, ch / 6),
                       (-cw / 2 + 4, ch / 6)], art))
        for k in range(3):
            y = ch / 6 + 8 + k * 7
            x1 = cw / 2 - 10 - 8 * k
            parts.append(([(-cw / 2 + 6, y), (x1, y), (x1, y + 2), (-cw / 2 + 6, y + 2)], frame * 0.5))
        return parts, 0.5 * np.hypot(cw, ch), cw
    if kind == "cup":
        r = uni(rng, 38, 48)
        rim = np.array(pick(rng, [(0.95, 0.95, 0.93), (0.8, 0.25, 0.2), (0.25, 0.35, 0.6), (0.15, 0.15, 0.15)]))
        parts.append((S.arc(0, 0, r, r, 0, 360, 48), rim))
        parts.append((S.arc(0, 0, r - 4, r - 4, 0, 360, 48), np.array((0.28, 0.16, 0.09))))
        parts.append((S.arc(-r * 0.2, -r * 0.2, r * 0.45, r * 0.3, 0, 360, 24), np.array((0.4, 0.26, 0.16))))
        return parts, r, 2 * r
    if kind == "eraser":
        ew, eh = uni(rng, 35, 55), uni(rng, 15, 22)
        col = np.array(pick(rng, [(0.95, 0.95, 0.95), (0.95, 0.6, 0.65), (0.3, 0.5, 0.85)]))
        parts.append(([(-ew / 2, -eh / 2), (ew / 2, -eh / 2), (ew / 2, eh / 2), (-ew / 2, eh / 2)], col))
        parts.append(([(-ew / 2, -eh / 2), (-ew / 6, -eh / 2), (-ew / 6, eh / 2), (-ew / 2, eh / 2)], col * 0.7))
        return parts, ew / 2, eh
    if kind == "phone":
        pw, ph = uni(rng, 68, 78), uni(rng, 140, 165)
        parts.append(([(-pw / 2, -ph / 2), (pw / 2, -ph / 2), (pw / 2, ph / 2), (-pw / 2, ph / 2)],
                      np.array((0.08, 0.08, 0.09))))
        parts.append(([(-pw / 2 + 3, -ph / 2 + 3), (pw / 2 - 3, -ph / 2 + 3), (pw / 2 - 3, -ph / 5), (-pw / 2 + 3, 0)],
                      np.array((0.16, 0.17, 0.2))))
        return parts, 0.5 * np.hypot(pw, ph), pw
    # dice
    s = uni(rng, 14, 18)
    col = np.array(pick(rng, [(0.95, 0.95, 0.92), (0.8, 0.15, 0.15), (0.15, 0.3, 0.7)]))
    parts.append(([(-s / 2, -s / 2), (s / 2, -s / 2), (s / 2, s / 2), (-s / 2, s / 2)], col))
    pip = np.array((0.1, 0.1, 0.1)) if col.mean() > 0.5 else np.array((0.95, 0.95, 0.95))
    for _ in range(int(rng.integers(1, 7))):
        px_, py_ = rng.choice([-s / 4, 0, s / 4], 2)
        parts.append((S.arc(px_, py_, 1.3, 1.3, 0, 360, 10), pip))
    return parts, s * 0.7, s


def clutter(rng: np.random.Generator, keep_out: tuple[float, float, float, float], around: tuple[float, ...],
            difficulty: str) -> list[dict]:
    """Objects lying around the sheet, never over `keep_out` (the grid, mm) and within `around` (mm)."""
    n = int(rng.poisson(1.6 if difficulty == "normal" else 2.6))
    objs = []
    gx0, gy0, gx1, gy1 = keep_out
    ax0, ay0, ax1, ay1 = around
    for _ in range(n):
        kind = pick(rng, ["pencil", "card", "cup", "eraser", "phone", "dice"], [0.4, 0.2, 0.1, 0.12, 0.06, 0.12])
        o_rng = np.random.default_rng(rng.integers(1 << 62))
        parts, radius, width = _object(kind, o_rng)
        for _try in range(20):
            cx, cy = uni(rng, ax0, ax1), uni(rng, ay0, ay1)
            ang = uni(rng, 0, 2 * np.pi)
            pts = np.vstack([_rot(p, ang, cx, cy) for p, _ in parts])
            if (pts[:, 0].max() < gx0 - 8 or pts[:, 0].min() > gx1 + 8 or pts[:, 1].max() < gy0 - 8
                    or pts[:, 1].min() > gy1 + 8):
                objs.append({"kind": kind, "centre_mm": (cx, cy), "angle": ang, "parts": parts,
                             "seed": int(rng.integers(1 << 31))})
                break
    return objs


def paint_clutter(img: np.ndarray, alpha: np.ndarray, objs: list[dict], bbox, res: float, light_dir) -> None:
    """Draw objects (with soft shadows) into the table texture and their coverage into `alpha`."""
    x0, y0 = bbox[0], bbox[1]
    H, W = alpha.shape
    for o in objs:
        cx, cy, ang = o["centre_mm"][0], o["centre_mm"][1], o["angle"]
        polys = [((_rot(p, ang, cx, cy) - (x0, y0)) * res, col) for p, col in o["parts"]]
        allp = np.vstack([p for p, _ in polys])
        bx0, by0 = np.floor(allp.min(0)).astype(int) - int(12 * res)
        bx1, by1 = np.ceil(allp.max(0)).astype(int) + int(12 * res)
        bx0, by0, bx1, by1 = max(0, bx0), max(0, by0), min(W, bx1), min(H, by1)
        if bx1 <= bx0 or by1 <= by0:
            continue
        sub = img[by0:by1, bx0:bx1]
        sa = alpha[by0:by1, bx0:bx1]
        m = np.zeros(sa.shape, np.uint8)
        S.fill(m, [polys[0][0] - (bx0, by0)])
        for p, _ in polys[1:]:
            S.fill(m, [p - (bx0, by0)])
        shadow = cv2.GaussianBlur(m.astype(np.float32) / 255, (0, 0), max(1.0, 2.5 * res))
        shift = np.float32([[1, 0, light_dir[0] * 3 * res], [0, 1, light_dir[1] * 3 * res]])
        shadow = cv2.warpAffine(shadow, shift, (shadow.shape[1], shadow.shape[0]))
        sub *= (1 - 0.45 * shadow)[..., None]
        for p, col in polys:
            pm = np.zeros(sa.shape, np.uint8)
            S.fill(pm, [p - (bx0, by0)])
            a = pm.astype(np.float32)[..., None] / 255
            sub *= 1 - a
            sub += a * np.asarray(col, np.float32)
            np.maximum(sa, a[..., 0], out=sa)
