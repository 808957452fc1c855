"""The phone: where it is, how it frames the sheet, the light on the table, the lens, the sensor and the JPEG."""

from __future__ import annotations

import time

import cv2
import numpy as np

from . import scene
from .camera import Camera, Surface, coarse_lattice, polygon_area, upsample
from .rand import chance, pick, uni

SIZES = [((4032, 3024), 0.24), ((4000, 3000), 0.14), ((3264, 2448), 0.1), ((4032, 2268), 0.1), ((3840, 2160), 0.08),
         ((3000, 2250), 0.06), ((2592, 1944), 0.08), ((2048, 1536), 0.08), ((1920, 1080), 0.06), ((1600, 1200), 0.06)]
SMALL_LONG = 640


def sample_size(rng: np.random.Generator, small: bool) -> tuple[int, int, dict]:
    (long, short) = pick(rng, [s for s, _ in SIZES], [w for _, w in SIZES])
    portrait = chance(rng, 0.62)
    W, H = (short, long) if portrait else (long, short)
    info = {"full_size": [W, H], "portrait": portrait, "aspect": round(long / short, 3)}
    if small:
        k = SMALL_LONG / long
        W, H = int(round(W * k)), int(round(H * k))
    return W, H, info


def sample_surface(rng: np.random.Generator, w: float, h: float, hard: bool) -> Surface:
    terms = []
    k = 1.7 if hard else 1.0
    if chance(rng, 0.65):
        if chance(rng, 0.6):
            terms.append({"type": "edge", "edge": pick(rng, ["top", "bottom", "left", "right"]),
                          "lift": uni(rng, 1.5, 12) * k, "width": uni(rng, 20, 70), "power": uni(rng, 1.6, 2.6)})
        else:
            cx, cy = pick(rng, [(0, 0), (w, 0), (w, h), (0, h)])
            terms.append({"type": "corner", "cx": cx, "cy": cy, "lift": uni(rng, 2, 14) * k,
                          "width": uni(rng, 25, 80), "power": uni(rng, 1.6, 2.6)})
    if chance(rng, 0.5):
        terms.append({"type": "wave", "amp": uni(rng, 0.3, 2.5) * k, "wavelength": uni(rng, 110, 350),
                      "angle": uni(rng, 0, 180), "phase": uni(rng, 0, 6.283)})
    if chance(rng, 0.25 if not hard else 0.45):
        horizontal = chance(rng, 0.6)
        frac = pick(rng, [0.5, 1 / 3, 2 / 3])
        terms.append({"type": "crease", "angle": 0.0 if horizontal else 90.0, "x0": w * frac, "y0": h * frac,
                      "width": uni(rng, 15, 60), "amp": uni(rng, 0.4, 2.0) * k, "ridge": chance(rng, 0.5)})
    if chance(rng, 0.3):
        terms.append({"type": "bulge", "x0": uni(rng, 0, w), "y0": uni(rng, 0, h), "sigma": uni(rng, 20, 60),
                      "amp": uni(rng, 0.5, 3.0) * k})
    return Surface(w, h, terms)


def crease_marks(page, surface: Surface, rng: np.random.Generator) -> None:
    """Where the paper was folded its fibres broke: a faint line along each crease (the shading comes from the
    surface's shape)."""
    from . import strokes as S
    from .page import ink

    for t in surface.terms:
        if t["type"] != "crease":
            continue
        a = np.radians(t["angle"])
        d = np.array([np.cos(a), np.sin(a)])
        p0 = np.array([t["x0"], t["y0"]])
        L = 2 * max(surface.w, surface.h)
        line = S.wobble(rng, np.array([p0 - d * L, p0 + d * L]), 0.15, 30, 2.0)
        m = np.zeros(page.shape, np.uint8)
        S.draw(m, [page.px(line)], max(1.0, 0.25 * page.ppm), int(rng.integers(90, 200)))
        ink(page, m, (0.72, 0.72, 0.74), uni(rng, 0.08, 0.25), blur=0.6)


def _outside_fraction(poly: np.ndarray, W: int, H: int) -> float:
    """Fraction of a polygon's area outside the frame [0, W-1] x [0, H-1] (Sutherland-Hodgman clip)."""
    area = polygon_area(poly)
    if area <= 0:
        return 1.0
    pts = [tuple(p) for p in poly]
    for axis, bound, keep_less in ((0, -0.5, False), (0, W - 0.5, True), (1, -0.5, False), (1, H - 0.5, True)):
        out = []
        for i in range(len(pts)):
            a, b = pts[i - 1], pts[i]
            ina = (a[axis] <= bound) if keep_less else (a[axis] >= bound)
            inb = (b[axis] <= bound) if keep_less else (b[axis] >= bound)
            if inb:
                if not ina:
                    t = (bound - a[axis]) / (b[axis] - a[axis])
                    out.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))
                out.append(b)
            elif ina:
                t = (bound - a[axis]) / (b[axis] - a[axis])
                out.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))
        pts = out
        if not pts:
            return 1.0
    return float(max(0.0, 1.0 - polygon_area(np.array(pts)) / area))


def marker_outline(quad: np.ndarray) -> np.ndarray:
    """A marker square as 12 points along its edges (so lens distortion bends it correctly)."""
    out = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        for t in (0, 1 / 3, 2 / 3):
            out.append(a + (b - a) * t)
    return np.array(out)


def clipped_markers(cam: Camera, design, threshold: float = 0.02) -> tuple[list[str], dict]:
    names, fractions = [], {}
    for corner, quad in design.markers.items():
        f = _outside_fraction(cam.forward_sheet(marker_outline(quad)), cam.width, cam.height)
        fractions[corner] = f
        if f > threshold:
            names.append(corner)
    return names, fractions


def _grid_ring(design, margin_cells: float) -> np.ndarray:
    """The grid's outline pushed outwards by `margin_cells` cells (mm), sampled along its edges."""
    L = design.lattice
    centre = L.reshape(-1, 2).mean(0)
    edge = np.vstack([L[0, :], L[:, -1], L[-1, ::-1], L[::-1, 0]])
    d = edge - centre
    cell = design.mean_cell_mm()
    n = d / np.maximum(np.abs(d).max(1, keepdims=True), 1e-9)
    return edge + n * cell * margin_cells


def plan_camera(rng: np.random.Generator, design, difficulty: str, small: bool) -> tuple[Camera, dict]:
    """Sample a phone pose that frames the sheet as the kind requires (grid always fully inside the photo)."""
    hard = difficulty == "hard"
    W, H, size_info = sample_size(rng, small)
    diag = np.hypot(W, H)
    f_equiv = pick(rng, [uni(rng, 23, 28), uni(rng, 28, 35), uni(rng, 45, 55)], [0.7, 0.2, 0.1])
    focal = f_equiv / 43.27 * diag
    w, h = design.size_mm
    surface = sample_surface(rng, w, h, hard)
    k1 = uni(rng, -0.1, -0.01) if hard else uni(rng, -0.05, 0.0)
    k2 = uni(rng, 0.0, 0.02)
    clipped_kind = design.kind == "ours-clipped"
    want_clip = pick(rng, [1, 2], [0.6, 0.4]) if clipped_kind else 0
    grid_c = design.lattice.reshape(-1, 2).mean(0)
    page_c = np.array([w / 2, h / 2])
    ring = _grid_ring(design, 0.25)
    gx0, gy0 = design.lattice.reshape(-1, 2).min(0)
    gx1, gy1 = design.lattice.reshape(-1, 2).max(0)
    best = None
    for attempt in range(800):
        relax = min(1.0, attempt / 300)
        tmax = 35.0 if hard else 20.0
        tilt = tmax * float(rng.beta(1.4, 1.9))
        tilt_dir = float(rng.normal(0, 35)) if chance(rng, 0.7) else uni(rng, -180, 180)
        if chance(rng, 0.15):
            roll = pick(rng, [90.0, 180.0, -90.0, uni(rng, -180, 180)]) + float(rng.normal(0, 8))
        else:
            roll = float(np.clip(rng.normal(0, 6 if not hard else 12), -40, 40))
        if clipped_kind:
            aim_corners = rng.choice(list(design.markers), size=want_clip, replace=False)
            toward = np.mean([design.markers[c].mean(0) for c in aim_corners], axis=0)
            aim = grid_c + (toward - grid_c) * uni(rng, 0.05, 0.3)
            grid_area = (gx1 - gx0) * (gy1 - gy0)
            coverage = uni(rng, 0.5, 0.95) * (1 - 0.3 * relax) * w * h / grid_area
            offset = (0.0, 0.0)
        else:
            lo = 0.2 if hard else 0.3
            coverage = uni(rng, lo, 0.9) * (1 - 0.5 * relax)
            grid_share = (gx1 - gx0) * (gy1 - gy0) / (w * h)
            min_grid = uni(rng, 0.06, 0.2) if hard else uni(rng, 0.1, 0.25)
            if coverage * grid_share < min_grid:  # a small grid on a big page: the player steps closer
                coverage = min_grid / grid_share
            closeness = float(np.clip((coverage - 0.6) / 0.6, 0, 1))
            aim = page_c + (grid_c - page_c) * (uni(rng, 0.3, 1.0) * (1 - closeness) + closeness)
            spread = (0.12 if hard else 0.07) * (1 - relax)
            offset = (float(rng.normal(0, spread)), float(rng.normal(0, spread)))
        cam = Camera(W, H, focal, tilt, tilt_dir, roll, k1, k2, surface=surface)
        from .camera import frame

        frame(cam, w, h, coverage, (cam.cx + offset[0] * W, cam.cy + offset[1] * H), tuple(aim))
        uv = cam.forward_sheet(ring)
        m = max(W, H) / 2000.0  # two pixels at 4000: the same framing for small photos
        inside = bool((uv[:, 0] >= m).all() and (uv[:, 0] <= W - 1 - m).all() and (uv[:, 1] >= m).all()
                      and (uv[:, 1] <= H - 1 - m).all())
        if not inside:
            continue
        if design.markers:
            names, fr = clipped_markers(cam, design)
            if clipped_kind:
                big = [n for n in names if fr[n] >= 0.2]
                if not (1 <= len(names) <= 2 and len(big) == len(names)):
                    continue
            elif names:
                continue
        # the sheet must not be behind/at grazing angles anywhere in view
        best = cam
        break
    if best is None:  # a safe fallback: straight down, centred, small
        best = Camera(W, H, focal, 5.0, 0.0, 0.0, k1, k2, surface=surface)
        from .camera import frame

        frame(best, w, h, 0.25, (best.cx, best.cy), tuple(grid_c))
        if clipped_kind:
            raise RuntimeError("could not frame an ours-clipped photo")
    params = {**size_info, "f_equiv_mm": f_equiv, **best.params(), "framing_attempts": attempt + 1}
    return best, params


# --- light ------------------------------------------------------------------------------------------------------

def kelvin_rgb(T: float) -> np.ndarray:
    """Approximate linear RGB of a black body at T kelvin, normalised to green (6500 K is about neutral)."""
    t = T / 100.0
    r = 255.0 if t <= 66 else 329.698727446 * (t - 60) ** -0.1332047592
    g = 99.4708025861 * np.log(t) - 161.1195681661 if t <= 66 else 288.1221695283 * (t - 60) ** -0.0755148492
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5177312231 * np.log(t - 10) - 305.0447927307)
    rgb = np.clip(np.array([r, g, b]), 1, 255) / 255.0
    lin = rgb ** 2.2
    ref = np.array([1.0, 0.9495, 0.8903]) ** 2.2  # ~6500 K from the same formula
    lin = lin / ref
    return lin / lin[1]


def sample_light(rng: np.random.Generator, difficulty: str, sheet_uv: tuple[float, float] = (0.5, 0.5)) -> dict:
    """Light on the table. `sheet_uv` is where the sheet's centre is in the photo (fractions of width/height):
    hand and phone shadows and glare fall on or near the sheet, where the photographer's hand and lamp are."""
    hard = difficulty == "hard"
    su, sv = sheet_uv
    T = uni(rng, 2700, 6500)
    L = {
        "kelvin": T,
        "awb_strength": uni(rng, 0.4, 1.0) if hard else uni(rng, 0.65, 1.0),
        "tint": [uni(rng, -0.03, 0.03), uni(rng, -0.03, 0.03)],
        "exposure": uni(rng, 0.5, 1.5) if hard else uni(rng, 0.8, 1.22),  # error after auto exposure
        "ae_target": uni(rng, 0.5, 0.68),  # mean display level the phone's auto exposure aims at
        "gradient": uni(rng, 0.0, 0.5 if hard else 0.28),
        "gradient_dir_deg": uni(rng, 0, 360),
        "vignette": uni(rng, 0.05, 0.5 if hard else 0.3),
        "light_elev_deg": uni(rng, 40, 85),
        "light_azim_deg": uni(rng, 0, 360),
        "ambient": uni(rng, 0.35, 0.75),
        "shadow": None,
        "glare": None,
    }
    if chance(rng, 0.6 if hard else 0.35):
        shape = pick(rng, ["blob", "band"])
        if shape == "blob":  # a hand or a head: a soft ellipse partly over the sheet
            cx, cy = su + uni(rng, -0.4, 0.4), sv + uni(rng, -0.4, 0.4)
        else:  # the phone's or an arm's shadow: everything beyond a soft edge that crosses the sheet
            cx, cy = su + uni(rng, -0.25, 0.25), sv + uni(rng, -0.25, 0.25)
        L["shadow"] = {"shape": shape, "darkness": uni(rng, 0.3, 0.75) if hard else uni(rng, 0.25, 0.6),
                       "softness": uni(rng, 0.01, 0.08), "cx": cx, "cy": cy,
                       "rx": uni(rng, 0.15, 0.45), "ry": uni(rng, 0.1, 0.3), "angle_deg": uni(rng, 0, 360),
                       "band_offset": 0.0}
    if chance(rng, 0.35 if hard else 0.15):
        L["glare"] = {"cx": su + uni(rng, -0.3, 0.3), "cy": sv + uni(rng, -0.3, 0.3), "rx": uni(rng, 0.04, 0.2),
                      "ry": uni(rng, 0.03, 0.12), "angle_deg": uni(rng, 0, 180),
                      "strength": uni(rng, 0.3, 1.0 if hard else 0.7)}
    return L


def sample_optics(rng: np.random.Generator, difficulty: str) -> dict:
    hard = difficulty == "hard"
    return {
        "defocus_px4k": uni(rng, 0.5, 3.0) if hard else uni(rng, 0.3, 1.4),
        "depth_blur": chance(rng, 0.5),
        "motion_px4k": (uni(rng, 2, 14) if chance(rng, 0.45) else 0.0) if hard else
        (uni(rng, 1, 4) if chance(rng, 0.1) else 0.0),
        "motion_angle_deg": uni(rng, 0, 180),
        "noise": uni(rng, 0.006, 0.04) if hard else uni(rng, 0.003, 0.018),
        "chroma_noise": uni(rng, 0.2, 1.0),
        "sharpen_amount": uni(rng, 0.2, 1.6) if hard else uni(rng, 0.2, 1.0),
        "sharpen_sigma_px4k": uni(rng, 0.8, 2.2),
        "contrast": uni(rng, 0.95, 1.25),
        "saturation": uni(rng, 0.9, 1.35),
        "black_level": uni(rng, 0.0, 0.04),
        "jpeg_quality": int(rng.integers(60, 86)) if hard else int(rng.integers(72, 96)),
        "recompress": (int(rng.integers(60, 86)) if chance(rng, 0.3 if hard else 0.12) else None),
        "chromatic_px4k": uni(rng, 0.0, 1.5 if hard else 0.8),
    }


# --- rendering --------------------------------------------------------------------------------------------------

def _fields(cam: Camera, step: int):
    uv, _ = coarse_lattice(cam.width, cam.height, step)
    d = cam.rays(uv)
    table, t = cam.table_hit(d)
    sheet = cam.sheet_hit(d)
    return uv, d, table, sheet, t


def _turned(U: np.ndarray, V: np.ndarray, spot: dict, aspect: float) -> tuple[np.ndarray, np.ndarray]:
    """Photo coordinates in the frame of a shadow or glare spot: centred on it, turned by its angle."""
    a = np.radians(spot["angle_deg"])
    du, dv = (U - spot["cx"]), (V - spot["cy"]) * aspect
    return du * np.cos(a) + dv * np.sin(a), -du * np.sin(a) + dv * np.cos(a)


def render(page, design, cam: Camera, light: dict, optics: dict, table: dict, objs: list, rng: np.random.Generator,
           timings: dict | None = None) -> np.ndarray:
    clock = _Clock(timings)
    W, H = cam.width, cam.height
    scale = max(W, H) / 4000.0
    step = max(4, int(round(max(W, H) / 400)))
    uv, d, table_xy, sheet_xy, t = _fields(cam, step)
    ppm = page.ppm
    sw, sh = design.size_mm
    clock("fields")
    # --- the sheet --------------------------------------------------------------------------------------------
    mx = upsample(sheet_xy[..., 0] * ppm - 0.5, step, W, H)
    my = upsample(sheet_xy[..., 1] * ppm - 0.5, step, W, H)
    ph, pw = page.shape
    rgba = np.empty((ph, pw, 4), np.uint8)
    rgba[..., :3] = np.clip(page.image * 255.0 + 0.5, 0, 255).astype(np.uint8)
    rgba[..., 3] = 255 if page.alpha is None else np.clip(page.alpha * 255 + 0.5, 0, 255).astype(np.uint8)
    ca = optics["chromatic_px4k"] * scale
    sheet_img = cv2.remap(rgba, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    if ca > 0.3:  # lateral chromatic aberration: red and blue slightly scaled about the centre
        for ch, sgn in ((0, 1), (2, -1)):
            k = 1 + sgn * ca / (0.5 * np.hypot(W, H))
            uv_s = (uv - (cam.cx, cam.cy)) * k + (cam.cx, cam.cy)
            dd = cam.rays(uv_s)
            sx = cam.sheet_hit(dd)
            mxc = upsample(sx[..., 0] * ppm - 0.5, step, W, H)
            myc = upsample(sx[..., 1] * ppm - 0.5, step, W, H)
            sheet_img[..., ch] = cv2.remap(rgba[..., ch], mxc, myc, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    clock("sheet")
    # --- the table and what lies on it ------------------------------------------------------------------------
    tx, ty = table_xy[..., 0], table_xy[..., 1]
    lim = 1500.0
    bx0 = float(np.clip(tx.min(), -lim, sw + lim))
    bx1 = float(np.clip(tx.max(), -lim, sw + lim))
    by0 = float(np.clip(ty.min(), -lim, sh + lim))
    by1 = float(np.clip(ty.max(), -lim, sh + lim))
    near_ppm = float(np.median(np.hypot(np.diff(uv[..., 0], axis=1), 0).ravel())) / max(
        1e-6, float(np.median(np.hypot(np.diff(tx, axis=1), np.diff(ty, axis=1)).ravel())))
    res = min(6.0, 0.8 * near_ppm)
    area = (bx1 - bx0) * (by1 - by0)
    res = max(0.3, min(res, np.sqrt(2.0e6 / max(area, 1.0))))
    bbox = (bx0 - 2 / res, by0 - 2 / res, bx1 + 2 / res, by1 + 2 / res)
    tex = scene.table_texture(table, bbox, res, rng)
    talpha = np.zeros(tex.shape[:2], np.float32)
    ldir = (np.cos(np.radians(light["light_azim_deg"])), np.sin(np.radians(light["light_azim_deg"])))
    if objs:
        scene.paint_clutter(tex, talpha, objs, bbox, res, ldir)
    trgba = np.empty(tex.shape[:2] + (4,), np.uint8)
    trgba[..., :3] = np.clip(tex * 255 + 0.5, 0, 255).astype(np.uint8)
    trgba[..., 3] = np.clip(talpha * 255 + 0.5, 0, 255).astype(np.uint8)
    tmx = upsample((np.clip(tx, -lim, sw + lim) - bbox[0]) * res - 0.5, step, W, H)
    tmy = upsample((np.clip(ty, -lim, sh + lim) - bbox[1]) * res - 0.5, step, W, H)
    table_img = cv2.remap(trgba, tmx, tmy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    clock("table")
    # --- compose ----------------------------------------------------------------------------------------------
    sa = sheet_img[..., 3:4].astype(np.float32) * (1 / 255.0)
    ca_ = table_img[..., 3:4].astype(np.float32) * (1 / 255.0)
    img = table_img[..., :3].astype(np.float32) * (1 / 255.0)
    # soft shadow of the sheet on the table (more where the paper is lifted)
    inside = ((sheet_xy[..., 0] >= 0) & (sheet_xy[..., 0] <= sw) & (sheet_xy[..., 1] >= 0)
              & (sheet_xy[..., 1] <= sh)).astype(np.float32)
    lift = design_height(cam, sheet_xy) * inside
    sh_px = (2.0 + 0.6 * float(lift.max())) * scale * 4 / step
    shadow = cv2.GaussianBlur(inside, (0, 0), max(0.6, sh_px))
    shadow = cv2.warpAffine(shadow, np.float32([[1, 0, ldir[0] * sh_px], [0, 1, ldir[1] * sh_px]]),
                            (shadow.shape[1], shadow.shape[0]))
    table_light = 1 - 0.3 * shadow * (1 - inside)
    sheet_rgb = sheet_img[..., :3].astype(np.float32) * (1 / 255.0)
    k = sa * (1 - ca_)
    img *= 1 - k
    img += k * sheet_rgb
    clock("compose")
    # --- light (coarse, linear units; applied to display values with the 1/2.2 power) ------------------------
    ny, nx = uv.shape[:2]
    U = uv[..., 0] / W
    V = uv[..., 1] / H
    Lf = np.full((ny, nx), light["exposure"], np.float64)
    ga = np.radians(light["gradient_dir_deg"])
    Lf *= 1 + light["gradient"] * ((U - 0.5) * np.cos(ga) + (V - 0.5) * np.sin(ga)) * 2
    r2 = ((uv[..., 0] - cam.cx) ** 2 + (uv[..., 1] - cam.cy) ** 2) / (0.25 * (W * W + H * H))
    Lf *= 1 - light["vignette"] * r2
    n = cam.surface.normal(sheet_xy[..., 0], sheet_xy[..., 1]) if cam.surface else None
    el = np.radians(light["light_elev_deg"])
    ld = np.array([np.cos(el) * ldir[0], np.cos(el) * ldir[1], np.sin(el)])
    amb = light["ambient"]
    if n is not None:
        shade = (amb + (1 - amb) * np.clip(n @ ld, 0, 1)) / (amb + (1 - amb) * ld[2])
        Lf *= np.where(inside > 0, shade, 1.0)
    Lf *= np.where(inside > 0, 1.0, table_light)
    shadow_rgb = np.ones((ny, nx, 3))
    if light["shadow"]:
        s = light["shadow"]
        ru, rv = _turned(U, V, s, H / W)
        if s["shape"] == "blob":
            dist = np.sqrt((ru / s["rx"]) ** 2 + (rv / s["ry"]) ** 2) - 1
            sd = 1 / (1 + np.exp(dist / max(s["softness"] * 3, 1e-3)))
        else:
            dist = ru - s["band_offset"]
            sd = 1 / (1 + np.exp(-dist / max(s["softness"], 1e-3)))
        shadow_rgb = 1 - s["darkness"] * sd[..., None] * np.array([1.0, 0.97, 0.9])
    illum = kelvin_rgb(light["kelvin"])
    cast = illum ** (1 - light["awb_strength"])
    cast = cast / cast[1] * np.array([1 + light["tint"][0], 1.0, 1 + light["tint"][1]])
    Lrgb = Lf[..., None] * shadow_rgb * cast
    glare = None
    if light["glare"]:
        gpar = light["glare"]
        ru, rv = _turned(U, V, gpar, H / W)
        glare = gpar["strength"] * np.exp(-0.5 * ((ru / gpar["rx"]) ** 2 + (rv / gpar["ry"]) ** 2)) * inside
    gain_c = np.power(np.maximum(Lrgb, 1e-4), 1 / 2.2).astype(np.float32)
    # auto exposure: the phone scales the whole picture so its mean lands near a target (a bright sheet on a dark
    # table comes out bright, a sheet filling the frame comes out greyish), then errs by `exposure`
    preview = cv2.resize(img, (nx, ny), interpolation=cv2.INTER_AREA) * gain_c / np.float32(
        max(light["exposure"], 1e-3) ** (1 / 2.2))
    mean = float(cv2.cvtColor(preview, cv2.COLOR_RGB2GRAY).mean())
    ae = float(np.clip(light["ae_target"] / max(mean, 1e-3), 0.6, 1.8))
    light["ae_gain"] = ae
    gain = upsample(gain_c * np.float32(ae), step, W, H)
    img *= gain
    if glare is not None:
        g = upsample(glare.astype(np.float32), step, W, H)[..., None]
        img = 1 - (1 - np.minimum(img, 1)) * (1 - np.minimum(g, 0.97))
    clock("light")
    # --- optics -----------------------------------------------------------------------------------------------
    sigma = optics["defocus_px4k"] * scale
    if optics["depth_blur"] and cam.tilt_deg > 10:
        tn = (t - t.min()) / max(1e-6, t.max() - t.min())
        focus = float(rng.uniform(0.2, 0.8))
        wmap = np.clip(np.abs(tn - focus) * 2.0, 0, 1).astype(np.float32)
        sharp = cv2.GaussianBlur(img, (0, 0), max(0.3, sigma * 0.6))
        blurry = cv2.GaussianBlur(img, (0, 0), max(0.5, sigma * 1.8))
        wm = upsample(wmap, step, W, H)[..., None]
        img = sharp * (1 - wm) + blurry * wm
    elif sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    mlen = optics["motion_px4k"] * scale
    if mlen >= 1.5:
        n_ = int(np.ceil(mlen)) | 1
        ker = np.zeros((n_, n_), np.float32)
        a = np.radians(optics["motion_angle_deg"])
        c = n_ // 2
        cv2.line(ker, (int(round(c - np.cos(a) * mlen / 2)), int(round(c - np.sin(a) * mlen / 2))),
                 (int(round(c + np.cos(a) * mlen / 2)), int(round(c + np.sin(a) * mlen / 2))), 1.0, 1, cv2.LINE_AA)
        ker /= ker.sum()
        img = cv2.filter2D(img, -1, ker)
    clock("optics")
    # --- sensor: noise (brighter = more shot noise; darker photos were shot at higher ISO) ---------------------
    iso = float(np.clip(light["ae_gain"] * light["exposure"] ** (1 / 2.2), 0.7, 2.5)) ** 0.8  # more gain, more noise
    sig = optics["noise"] * iso
    lum = rng.standard_normal(((H + 1) // 2, (W + 1) // 2), dtype=np.float32)
    lum = cv2.resize(lum, (W, H), interpolation=cv2.INTER_LINEAR)
    gray = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)
    lum *= sig * 1.3 * (0.35 + 0.65 * np.sqrt(np.clip(gray, 0, 1)))
    if optics["chroma_noise"] > 0:
        ch = rng.standard_normal((max(2, H // 6), max(2, W // 6), 3), dtype=np.float32)
        ch *= np.float32(sig * optics["chroma_noise"] * 0.8)
        ch = cv2.resize(ch, (W, H), interpolation=cv2.INTER_LINEAR)
        ch += lum[..., None]
        img += ch
    else:
        img += lum[..., None]
    clock("noise")
    # --- the phone's processing: saturation, sharpening (tone curve at quantisation) -------------------------
    s_ = optics["saturation"]
    wts = np.array([0.299, 0.587, 0.114], np.float32)
    M = (s_ * np.eye(3, dtype=np.float32) + (1 - s_) * np.tile(wts, (3, 1))).astype(np.float32)
    img = cv2.transform(img, M)
    s = optics["sharpen_sigma_px4k"] * scale
    blur = cv2.GaussianBlur(img, (0, 0), max(0.5, s))
    a = optics["sharpen_amount"]
    img = cv2.addWeighted(img, 1 + a, blur, -a, 0)
    clock("processing")
    return img


class _Clock:
    def __init__(self, out: dict | None):
        self.out = out
        self.t = time.perf_counter()

    def __call__(self, name: str) -> None:
        if self.out is not None:
            now = time.perf_counter()
            self.out[name] = self.out.get(name, 0.0) + now - self.t
            self.t = now


def design_height(cam: Camera, sheet_xy: np.ndarray) -> np.ndarray:
    if cam.surface is None:
        return np.zeros(sheet_xy.shape[:2])
    return cam.surface.height(sheet_xy[..., 0], sheet_xy[..., 1])


def tone_lut(optics: dict, top: float = 2.0, size: int = 4096) -> np.ndarray:
    """The phone's tone curve from linear-ish display values in [0, top] to 8 bits: black level, contrast, and a
    soft shoulder so that overexposed paper rolls off to white instead of clipping hard."""
    x = np.linspace(0.0, top, size)
    bl = optics["black_level"]
    y = np.clip((x - bl) / (1 - bl), 0, None)
    y = 0.5 + (y - 0.5) * optics["contrast"]
    k = 0.82
    over = y > k
    y = np.where(over, k + (1 - k) * (1 - np.exp(-(y - k) / (1 - k))), y)
    return np.clip(y * 255 + 0.5, 0, 255).astype(np.uint8)


def to_jpeg(img: np.ndarray, optics: dict) -> bytes:
    lut = tone_lut(optics)
    q = np.clip(img, 0.0, 2.0 - 1e-6)
    q *= np.float32((len(lut) - 1) / 2.0)
    u8 = lut[q.astype(np.uint16)]
    bgr = cv2.cvtColor(u8, cv2.COLOR_RGB2BGR)
    ok, buf = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, int(optics["jpeg_quality"])])
    assert ok
    if optics["recompress"]:
        again = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        ok, buf = cv2.imencode(".jpg", again, [cv2.IMWRITE_JPEG_QUALITY, int(optics["recompress"])])
        assert ok
    return buf.tobytes()
