"""The phone and the table: a pinhole camera over a (possibly curled) sheet, lens, light and sensor.

World coordinates are the flat sheet's pixels (x right, y down) with z into the table; the paper is the height
field z = curl(x, y) (negative = lifted towards the camera). Forward model for a sheet point: lift by the curl,
project with the camera (tilt, azimuth, roll about the optical axis, focal length, principal point shift), then
apply barrel distortion about the image centre. The photo is made backwards (each output pixel -> ray -> paper)
on a coarse lattice refined by bilinear interpolation, so the truth points (forward) and the pixels (backward)
come from the same model. Output pixel coordinates follow OpenCV: pixel centres at integers.
"""

from __future__ import annotations

import cv2
import numpy as np

from .sheets import Sheet

ROLLS = (0, 90, 180, 270)


def sample_params(rng: np.random.Generator, difficulty: str, kind: str, small: bool) -> dict:
    """Every random scene/camera/sensor choice of one photo (recorded in the truth's params.photo)."""
    hard = difficulty == "hard"
    big = rng.random() < 0.15 and not small  # draw the same numbers either way: small = the same scene, smaller
    long_side = int(rng.choice([1600, 2000, 2400]))
    long_side = 640 if small else 4000 if big else long_side
    roll90 = int(rng.choice(ROLLS, p=[0.55, 0.15, 0.15, 0.15]))
    portrait = rng.random() < (0.7 if roll90 in (0, 180) else 0.3)
    w, h = (long_side * 3 // 4, long_side) if portrait else (long_side, long_side * 3 // 4)
    p = {
        "size": [w, h],
        "twelve_mp": big,
        "roll90": roll90,
        "roll_jitter": float(rng.normal(0, 9 if hard else 4)),
        "tilt_deg": float(rng.uniform(12, 38) if hard else rng.uniform(0, 18)),
        "azimuth_deg": float(rng.uniform(0, 360)),
        "focal_frac": float(rng.uniform(0.7, 1.1)),  # focal length / long side (phone main cameras ~0.75..0.9)
        "coverage": float(rng.uniform(0.55, 0.95) if hard else rng.uniform(0.4, 0.92)),
        # where the sheet sits in the free room of the frame (0.5 = centred); players roughly centre it
        "offcentre": [float(0.5 + (rng.uniform(0, 1) - 0.5) * (1.0 if hard else 0.7)) for _ in range(2)],
        "k1": float(rng.uniform(0.04, 0.14) if hard else rng.uniform(0.0, 0.05)),
        "curl_kind": str(rng.choice(["none", "cylinder_x", "cylinder_y", "corner", "wave"],
                                    p=[0.1, 0.25, 0.25, 0.25, 0.15] if hard else [0.4, 0.2, 0.2, 0.1, 0.1])),
        "curl_amp": float(rng.uniform(0.02, 0.07) if hard else rng.uniform(0.0, 0.025)),
        "light_grad": float(rng.uniform(0.2, 0.5) if hard else rng.uniform(0.0, 0.25)),
        "light_dir": float(rng.uniform(0, 2 * np.pi)),
        "vignette": float(rng.uniform(0.1, 0.35)),
        "shadow": bool(rng.random() < (0.7 if hard else 0.35)),
        "shadow_depth": float(rng.uniform(0.35, 0.6) if hard else rng.uniform(0.15, 0.35)),
        "wb": [float(v) for v in np.clip(rng.normal(1, 0.025 if hard else 0.015, 3), 0.94, 1.06)],
        "temperature": float(rng.uniform(-1.5, 1.5) if hard else rng.uniform(-1, 1)),  # + = warm (tungsten)
        "exposure": float(rng.uniform(0.8, 1.1) if hard else rng.uniform(0.88, 1.05)),
        "glare": bool(rng.random() < (0.55 if hard else 0.2)),
        "glare_strength": float(rng.uniform(0.35, 0.85) if hard else rng.uniform(0.2, 0.5)),
        "defocus": float(rng.uniform(0.8, 2.6) if hard else rng.uniform(0.0, 1.0)),
        "motion": float(rng.uniform(2, 9) if hard else rng.uniform(0, 3)),
        "motion_angle": float(rng.uniform(0, 180)),
        "noise": float(rng.uniform(3, 9) if hard else rng.uniform(1, 4)),
        "jpeg_quality": int(rng.integers(60, 80) if hard else rng.integers(70, 96)),
        "table": str(rng.choice(["wood", "cloth", "laminate", "dark_wood", "checked_cloth"])),
        "table_rgb": [float(v) for v in np.clip(np.array(
            [(0.85, 0.84, 0.8), (0.5, 0.5, 0.52), (0.15, 0.15, 0.16), (0.75, 0.68, 0.55), (0.3, 0.4, 0.55),
             (0.55, 0.2, 0.2), (0.3, 0.45, 0.3)][rng.integers(7)]) + rng.normal(0, 0.04, 3), 0.05, 0.95)],
        "clip_markers": int(rng.integers(1, 3)) if kind == "ours-clipped" else 0,
    }
    return p


class Camera:
    """Pinhole + curl + barrel distortion; `project` is the exact forward model used for the truth."""

    def __init__(self, p: dict, sheet_size: tuple[int, int]):
        self.p = p
        self.w, self.h = p["size"]
        sw, sh = sheet_size
        self.sw, self.sh = sw, sh
        self.f = p["focal_frac"] * max(self.w, self.h)
        self.cx, self.cy = self.w / 2, self.h / 2
        self.dx = self.dy = 0.0  # principal point shift (framing)
        tilt, az = np.radians(p["tilt_deg"]), np.radians(p["azimuth_deg"])
        roll = np.radians(p["roll90"] + p["roll_jitter"])
        # camera axes as columns (x right, y down, z forward); start looking straight down at the sheet
        cr, sr = np.cos(roll), np.sin(roll)
        rz = np.array([[cr, -sr, 0], [sr, cr, 0], [0, 0, 1]])
        axis = np.array([-np.sin(az), np.cos(az), 0.0])
        K = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
        rt = np.eye(3) + np.sin(tilt) * K + (1 - np.cos(tilt)) * K @ K
        self.M = rt @ rz
        self.target = np.array([sw / 2, sh / 2, 0.0])
        self.dist = max(sw, sh) * 1.5
        self.amp = p["curl_amp"] * max(sw, sh)
        self._place()

    def _place(self) -> None:
        self.C = self.target - self.dist * self.M[:, 2]

    # ---- paper surface
    def curl(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        kind, a = self.p["curl_kind"], self.amp
        u, v = x / self.sw * 2 - 1, y / self.sh * 2 - 1
        if kind == "cylinder_x":
            return -a * u ** 2
        if kind == "cylinder_y":
            return -a * v ** 2
        if kind == "corner":
            return -a * np.clip((u + v) / 2, 0, None) ** 2 * 2
        if kind == "wave":
            return -a * 0.5 * (1 + np.sin(np.pi * u * 1.5 + 1.0)) * (0.5 + 0.5 * v ** 2)
        return np.zeros_like(x)

    # ---- forward: sheet pixels -> photo pixels
    def project(self, pts: np.ndarray) -> np.ndarray:
        pts = np.asarray(pts, float)
        shape = pts.shape
        pts = pts.reshape(-1, 2)
        X = np.stack([pts[:, 0], pts[:, 1], self.curl(pts[:, 0], pts[:, 1])], 1)
        cam = (X - self.C) @ self.M
        u = self.f * cam[:, 0] / cam[:, 2] + self.cx + self.dx
        v = self.f * cam[:, 1] / cam[:, 2] + self.cy + self.dy
        u, v = self._distort(u, v)
        return np.stack([u, v], 1).reshape(shape)

    def _norm(self) -> float:
        return float(np.hypot(self.w, self.h) / 2)

    def _distort(self, u, v):
        """Undistorted -> distorted (barrel): solve r_u = r_d (1 + k r_d^2) for r_d by fixed-point iteration."""
        k = self.p["k1"]
        if k == 0:
            return u, v
        n = self._norm()
        xu, yu = (u - self.w / 2) / n, (v - self.h / 2) / n
        ru = np.hypot(xu, yu)
        rd = ru.copy()
        for _ in range(30):
            rd = ru / (1 + k * rd ** 2)
        s = np.where(ru > 0, rd / np.maximum(ru, 1e-12), 1.0)
        return self.w / 2 + xu * s * n, self.h / 2 + yu * s * n

    def _undistort(self, u, v):
        k = self.p["k1"]
        n = self._norm()
        xd, yd = (u - self.w / 2) / n, (v - self.h / 2) / n
        s = 1 + k * (xd ** 2 + yd ** 2)
        return self.w / 2 + xd * s * n, self.h / 2 + yd * s * n

    # ---- backward: photo pixels -> sheet point on the curled paper, and table point at z = 0
    def backward(self, u, v):
        uu, vv = self._undistort(u, v)
        d = np.stack([(uu - self.cx - self.dx) / self.f, (vv - self.cy - self.dy) / self.f, np.ones_like(uu)], -1)
        wd = d @ self.M.T
        wz = np.where(np.abs(wd[..., 2]) < 1e-9, 1e-9, wd[..., 2])
        t = (0 - self.C[2]) / wz
        table = self.C[:2] + t[..., None] * wd[..., :2]
        xy = table
        for _ in range(6):
            z = self.curl(xy[..., 0], xy[..., 1])
            t = (z - self.C[2]) / wz
            xy = self.C[:2] + t[..., None] * wd[..., :2]
        return xy, table

    # ---- framing
    def frame(self, rng: np.random.Generator, sheet: Sheet) -> list[str]:
        """Set distance and principal point so the sheet covers `coverage` of the frame at an off-centre spot.

        For `ours-clipped` search framings in which 1-2 corner markers are at least half outside the photo
        while every grid crossing stays inside; returns the clipped corners.
        """
        p = self.p
        page = dense_outline(sheet.page_corners, 12)
        for _ in range(4):  # coverage by distance (perspective stays that of a phone held at that height)
            self.dx = self.dy = 0.0
            q = self.project(page)
            ext = max((q[:, 0].max() - q[:, 0].min()) / self.w, (q[:, 1].max() - q[:, 1].min()) / self.h)
            self.dist *= ext / p["coverage"]
            self._place()
        ox, oy = p["offcentre"]
        self._shift(page, ox, oy)
        if p["clip_markers"]:
            return self._clip(rng, sheet, p["clip_markers"])
        need = np.concatenate([sheet.nodes.reshape(-1, 2), *sheet.markers.values()])
        for _ in range(40):  # keep the whole grid (and our markers) in frame: step back a little
            if inside(self.project(need), self.w, self.h, 3):
                break
            self.dist *= 1.05
            self._place()
            self._shift(page, ox, oy)
        return []

    def _shift(self, page: np.ndarray, ox: float, oy: float) -> None:
        """Place the sheet's bounding box at fraction (ox, oy) of the free room (centred when it overflows)."""
        self.dx = self.dy = 0.0
        q = self.project(page)
        lo, hi = q.min(0), q.max(0)
        room = np.array([self.w, self.h]) - (hi - lo)
        self.dx = float(-lo[0] + (room[0] * ox if room[0] > 0 else room[0] / 2))
        self.dy = float(-lo[1] + (room[1] * oy if room[1] > 0 else room[1] / 2))

    def _clip(self, rng, sheet: Sheet, count: int) -> list[str]:
        names = list(sheet.markers)
        nodes = sheet.nodes.reshape(-1, 2)
        best = None
        # aim: grid fills most of the frame, shifted towards one or two chosen corners
        first = int(rng.integers(4))
        chosen = [names[first]] if count == 1 else [names[first], names[(first + 1) % 4]]
        for attempt in range(300):
            self.dx = self.dy = 0.0
            g = self.project(nodes)
            ext = max(np.ptp(g[:, 0]) / self.w, np.ptp(g[:, 1]) / self.h)
            want = rng.uniform(0.8, 0.97)
            self.dist *= ext / want
            self._place()
            g = self.project(nodes)
            lo, hi = g.min(0), g.max(0)
            # push the chosen markers out: move the grid's bbox towards them
            mc = np.mean([self.project(sheet.markers[c]).mean(0) for c in chosen], 0)
            gc = g.mean(0)
            direc = np.sign(mc - gc) * (np.abs(mc - gc) > 0.2 * (hi - lo))
            room = np.array([self.w, self.h]) - (hi - lo)
            gap = np.ptp(g, axis=0).max() / 11 * rng.uniform(0.15, 0.45)  # the grid's border stays in frame
            shift = np.where(direc > 0, room - gap, np.where(direc < 0, gap, room / 2))
            self.dx, self.dy = float(shift[0] - lo[0]), float(shift[1] - lo[1])
            g = self.project(nodes)
            if not inside(g, self.w, self.h, gap * 0.5):
                continue
            out = [c for c in names if outside_share(self.project(sheet.markers[c]), self.w, self.h) >= 0.5]
            if sorted(out) == sorted(chosen):
                return out
            if 1 <= len(out) <= 2 and best is None:
                best = (self.dist, self.dx, self.dy, out)
            if attempt % 30 == 29:  # try another corner
                first = (first + 1) % 4
                chosen = [names[first]] if count == 1 else [names[first], names[(first + 1) % 4]]
        if best is not None:
            self.dist, self.dx, self.dy, out = best
            self._place()
            return out
        return []


def dense_outline(quad: np.ndarray, n: int) -> np.ndarray:
    pts = []
    for a, b in zip(quad, np.roll(quad, -1, 0), strict=True):
        t = np.linspace(0, 1, n, endpoint=False)[:, None]
        pts.append(a + (b - a) * t)
    return np.concatenate(pts)


def inside(pts: np.ndarray, w: int, h: int, margin: float) -> bool:
    return bool((pts[:, 0] >= margin).all() and (pts[:, 0] <= w - 1 - margin).all()
                and (pts[:, 1] >= margin).all() and (pts[:, 1] <= h - 1 - margin).all())


def outside_share(quad_img: np.ndarray, w: int, h: int) -> float:
    """Share of a projected marker square that lies outside the photo (sampled on a 9x9 lattice)."""
    s, t = np.meshgrid(np.linspace(0, 1, 9), np.linspace(0, 1, 9))
    s, t = s.ravel()[:, None], t.ravel()[:, None]
    tl, tr, br, bl = quad_img
    p = (1 - t) * ((1 - s) * tl + s * tr) + t * ((1 - s) * bl + s * br)
    out = (p[:, 0] < 0) | (p[:, 0] > w - 1) | (p[:, 1] < 0) | (p[:, 1] > h - 1)
    return float(out.mean())


# ---------------------------------------------------------------- table

def table_texture(rng, p: dict, xy: np.ndarray, unit: float) -> np.ndarray:
    """The table under the sheet, evaluated at world points `xy` (H, W, 2); `unit` = world px per mm."""
    base = np.array(p["table_rgb"], np.float32)
    kind = p["table"]
    x, y = xy[..., 0] / unit, xy[..., 1] / unit  # millimetres
    n = _value_noise(rng, x, y, 40.0)
    if kind in ("wood", "dark_wood"):
        base = np.array([0.55, 0.36, 0.2] if kind == "wood" else [0.3, 0.18, 0.1], np.float32) * (0.8 + 0.4 * base)
        a = rng.uniform(0, np.pi)
        along = x * np.cos(a) + y * np.sin(a)
        across = -x * np.sin(a) + y * np.cos(a)
        grain = np.sin(across * rng.uniform(0.3, 0.8) + 6 * _value_noise(rng, along * 0.05, across, 8.0))
        val = 0.85 + 0.1 * grain + 0.1 * n
    elif kind == "checked_cloth":
        sq = rng.uniform(15, 30)
        chk = ((np.floor(x / sq) + np.floor(y / sq)) % 2).astype(np.float32)
        weave = 0.04 * np.sin(x * 3) * np.sin(y * 3)
        col2 = np.array([0.92, 0.9, 0.88], np.float32)
        out = (base[None, None] * (1 - chk[..., None]) + col2 * chk[..., None]) * (0.95 + weave + 0.05 * n)[..., None]
        return out.astype(np.float32)
    elif kind == "cloth":
        weave = 0.06 * np.sin(x * 4) * np.sin(y * 4)
        val = 0.9 + weave + 0.08 * n
    else:
        val = 0.93 + 0.05 * n
    return (base[None, None] * val[..., None]).astype(np.float32)


def _value_noise(rng, x, y, period: float) -> np.ndarray:
    """Smooth noise of about `period` mm, evaluated anywhere (a random lattice sampled bilinearly)."""
    g = rng.normal(0, 1, (64, 64)).astype(np.float32)
    g = cv2.GaussianBlur(g, (0, 0), 1.0)
    gx = (x / period) % 64  # BORDER_WRAP makes the 64-cell lattice periodic: no seams
    gy = (y / period) % 64
    return cv2.remap(g, gx.astype(np.float32), gy.astype(np.float32), cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)


# ---------------------------------------------------------------- the photo

def shoot(rng: np.random.Generator, cam: Camera, sheet: Sheet, mm_px: float) -> np.ndarray:
    """Render the photo (uint8 RGB) of `sheet` through `cam`, with light, table, lens blur and sensor."""
    p = cam.p
    w, h = cam.w, cam.h
    step = 4
    gu, gv = np.meshgrid(np.arange(0, w + step, step, dtype=np.float64),
                         np.arange(0, h + step, step, dtype=np.float64))
    xy, table_xy = cam.backward(gu, gv)
    coarse = np.concatenate([xy, table_xy], -1).astype(np.float32)
    fu, fv = np.meshgrid(np.arange(w, dtype=np.float32) / step, np.arange(h, dtype=np.float32) / step)
    full = np.stack([cv2.remap(coarse[..., k], fu, fv, cv2.INTER_LINEAR) for k in range(4)], -1)
    sh_, sw_ = sheet.image.shape[:2]
    sx = np.clip(full[..., 0], -8, sw_ + 8)
    sy = np.clip(full[..., 1], -8, sh_ + 8)
    # anti-alias: the sheet is rendered a little finer than the photo needs
    ratio = float(np.median(np.hypot(np.diff(xy[..., 0], axis=1), np.diff(xy[..., 1], axis=1)))) / step
    tex = sheet.image
    if ratio > 1.3:
        tex = cv2.GaussianBlur(tex, (0, 0), 0.45 * ratio)
    paper = cv2.remap(tex, sx - 0.5, sy - 0.5, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                      borderValue=(0, 0, 0))
    ones = np.ones(sheet.image.shape[:2], np.float32) if sheet.alpha is None else sheet.alpha
    a = cv2.remap(ones, sx - 0.5, sy - 0.5, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    # the table at half resolution (it is background: its texture need not be sharper than that)
    w2, h2 = (w + 1) // 2, (h + 1) // 2
    hu, hv = np.meshgrid(np.arange(w2, dtype=np.float32) * 2 / step, np.arange(h2, dtype=np.float32) * 2 / step)
    txy = np.stack([cv2.remap(coarse[..., k], hu, hv, cv2.INTER_LINEAR) for k in (2, 3)], -1)
    table = cv2.resize(table_texture(rng, p, txy, mm_px), (w, h), interpolation=cv2.INTER_LINEAR)
    # the paper casts a thin contact shadow onto the table
    shadow_a = cv2.GaussianBlur(a, (0, 0), max(1.0, w / 600))
    table *= (1 - 0.35 * shadow_a)[..., None]
    img = paper * a[..., None] + table * (1 - a[..., None])
    # light (smooth, so made at a quarter of the size): gradient, vignette, a hand/phone shadow, glare
    w4, h4 = (w + 3) // 4, (h + 3) // 4
    yy, xx = np.mgrid[0:h4, 0:w4].astype(np.float32) * 4
    xn, yn = xx / w - 0.5, yy / h - 0.5
    light = 1 + p["light_grad"] * (np.cos(p["light_dir"]) * xn + np.sin(p["light_dir"]) * yn)
    light *= 1 - p["vignette"] * (xn ** 2 + yn ** 2) * 2
    if p["shadow"]:
        light *= 1 - p["shadow_depth"] * _shadow_mask(rng, w4, h4)
    light = cv2.resize(light * p["exposure"], (w, h), interpolation=cv2.INTER_LINEAR)
    img *= light[..., None]
    if p["glare"]:
        cx, cy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
        sg = rng.uniform(0.04, 0.12) * max(w, h)
        g = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sg ** 2)) * p["glare_strength"]
        g = cv2.resize(g.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
        img = img + (1 - img) * g[..., None]
    # white balance / colour temperature
    t = p["temperature"] * 0.08
    img *= (np.array(p["wb"], np.float32) * np.array([1 + t, 1, 1 - t], np.float32))[None, None]
    # optics: defocus and motion blur, scaled with the photo's resolution
    res = max(w, h) / 1600
    if p["defocus"] > 0.05:
        img = cv2.GaussianBlur(img, (0, 0), p["defocus"] * res)
    if p["motion"] > 0.5:
        L = max(2, int(round(p["motion"] * res)))
        k = np.zeros((L, L), np.float32)
        a_ = np.radians(p["motion_angle"])
        c = (L - 1) / 2
        cv2.line(k, (int(round(c - c * np.cos(a_))), int(round(c - c * np.sin(a_)))),
                 (int(round(c + c * np.cos(a_))), int(round(c + c * np.sin(a_)))), 1.0, 1)
        img = cv2.filter2D(img, -1, k / k.sum())
    # sensor: shot + read noise, then the phone's own tone curve (a lookup table on the 8-bit values)
    np.clip(img, 0, 1, out=img)
    sigma = p["noise"] / 255
    noise = rng.standard_normal(img.shape, dtype=np.float32)
    noise *= sigma * (0.5 + 0.5 * np.sqrt(img))
    img += noise
    out = (np.clip(img, 0, 1) * 255 + 0.5).astype(np.uint8)
    lut = np.clip(((np.arange(256) / 255) ** (1 / 1.05)) * 255 + 0.5, 0, 255).astype(np.uint8)
    return cv2.LUT(out, lut)


def _shadow_mask(rng, w, h) -> np.ndarray:
    """A soft shadow of a hand or phone coming in from one edge of the frame."""
    m = np.zeros((h, w), np.float32)
    side = int(rng.integers(4))
    hh, ww = m.shape
    if rng.random() < 0.5:  # phone: a tilted rectangle
        cx, cy = [(ww * rng.uniform(0.2, 0.8), 0), (ww, hh * rng.uniform(0.2, 0.8)),
                  (ww * rng.uniform(0.2, 0.8), hh), (0, hh * rng.uniform(0.2, 0.8))][side]
        box = cv2.boxPoints(((cx, cy), (ww * rng.uniform(0.3, 0.6), hh * rng.uniform(0.3, 0.7)),
                             rng.uniform(-40, 40)))
        cv2.fillConvexPoly(m, box.astype(np.int32), 1.0)
    else:  # hand: a blob with fingers
        cx, cy = [(ww * rng.uniform(0.2, 0.8), -hh * 0.05), (ww * 1.05, hh * rng.uniform(0.2, 0.8)),
                  (ww * rng.uniform(0.2, 0.8), hh * 1.05), (-ww * 0.05, hh * rng.uniform(0.2, 0.8))][side]
        cv2.ellipse(m, (int(cx), int(cy)), (int(ww * rng.uniform(0.15, 0.3)), int(hh * rng.uniform(0.15, 0.3))),
                    rng.uniform(0, 180), 0, 360, 1.0, -1)
        for _ in range(4):
            a = rng.uniform(0, 2 * np.pi)
            ln = rng.uniform(0.2, 0.4) * min(ww, hh)
            cv2.line(m, (int(cx), int(cy)), (int(cx + ln * np.cos(a)), int(cy + ln * np.sin(a))), 1.0,
                     max(1, int(min(ww, hh) * 0.05)))
    return cv2.GaussianBlur(m, (0, 0), max(ww, hh) * rng.uniform(0.02, 0.06))


def encode_jpeg(img: np.ndarray, quality: int) -> bytes:
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(img, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return buf.tobytes()
