"""The phone: pose and framing, paper curl, lens distortion (one exact mapping used both to render by cv2.remap and
to project the truth), background, light, optics, sensor and processing, JPEG.

Mapping, photo -> page (explicit, used for remap):  distorted px -(undistort: r_u = r_d (1 + k1 r_d^2 + k2 r_d^4))->
undistorted px -(H^-1)-> plane mm p -(curl: s = p + d(p))-> page mm s.  The truth runs it backwards with fixed-point
iterations (d and the distortion are small and smooth), to well under 0.01 px.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .util import directional_noise, value_noise

SIZES = [(4000, 3000), (4032, 3024), (3264, 2448), (3840, 2880), (4000, 2256), (3648, 2736), (4080, 3072)]
STEP = 8  # coarse map spacing (px)


@dataclass
class Camera:
    W: int
    H: int
    Hm: np.ndarray  # page mm -> undistorted photo px (3x3)
    k1: float
    k2: float
    curl: dict
    params: dict

    # ----- the mapping
    def curl_d(self, p: np.ndarray) -> np.ndarray:
        """Displacement (mm) seen at plane point p (..., 2): page point = p + d(p)."""
        c = self.curl
        if not c["on"]:
            return np.zeros_like(p)
        u = (p[..., 0] - c["cx"]) * c["dir"][0] + (p[..., 1] - c["cy"]) * c["dir"][1]
        z = c["bend"] * (u / c["half"]) ** 2
        edge = np.clip(u - c["edge_at"], 0, None)
        z = z + c["edge"] * (edge / c["half"]) ** 2
        if c["crease"]:
            v = (p[..., 0] - c["kx"]) * c["kdir"][0] + (p[..., 1] - c["ky"]) * c["kdir"][1]
            z = z + c["crease"] * np.exp(-np.abs(v) / c["kw"])
        rel = p - np.array(c["foot"])
        return -(z / c["h"])[..., None] * rel

    def undistort(self, pd: np.ndarray) -> np.ndarray:
        c = np.array([(self.W - 1) / 2, (self.H - 1) / 2])
        R = np.hypot(self.W, self.H) / 2
        d = (pd - c) / R
        r2 = (d ** 2).sum(-1, keepdims=True)
        return c + d * (1 + self.k1 * r2 + self.k2 * r2 * r2) * R

    def distort(self, pu: np.ndarray) -> np.ndarray:
        c = np.array([(self.W - 1) / 2, (self.H - 1) / 2])
        R = np.hypot(self.W, self.H) / 2
        u = (pu - c) / R
        ru = np.sqrt((u ** 2).sum(-1, keepdims=True))
        rd = ru.copy()
        for _ in range(30):
            f = rd * (1 + self.k1 * rd ** 2 + self.k2 * rd ** 4) - ru
            fp = 1 + 3 * self.k1 * rd ** 2 + 5 * self.k2 * rd ** 4
            rd = rd - f / fp
        scale = np.where(ru > 1e-12, rd / np.maximum(ru, 1e-12), 1.0)
        return c + u * scale * R

    def photo_to_page(self, pd: np.ndarray) -> np.ndarray:
        pu = self.undistort(pd)
        Hi = np.linalg.inv(self.Hm)
        q = pu @ Hi[:, :2].T + Hi[:, 2]
        p = q[..., :2] / q[..., 2:3]
        return p + self.curl_d(p)

    def page_to_photo(self, s: np.ndarray) -> np.ndarray:
        s = np.asarray(s, np.float64)
        p = s.copy()
        for _ in range(40):
            p = s - self.curl_d(p)
        q = p @ self.Hm[:, :2].T + self.Hm[:, 2]
        pu = q[..., :2] / q[..., 2:3]
        return self.distort(pu)

    def local_scale(self, s: np.ndarray) -> float:
        """Photo px per page mm near page point s (max over directions)."""
        s = np.asarray(s, float)
        a = self.page_to_photo(np.array([s, s + [1, 0], s + [0, 1]]))
        return float(max(np.hypot(*(a[1] - a[0])), np.hypot(*(a[2] - a[0]))))


def _rot(axis, ang):
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    K = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + np.sin(ang) * K + (1 - np.cos(ang)) * K @ K


def sample_camera(plan, difficulty: str, rng: np.random.Generator, clipped: bool) -> Camera:
    hard = difficulty == "hard"
    W, H = SIZES[int(rng.integers(len(SIZES)))]
    if rng.random() < 0.5:
        W, H = H, W
    f = max(W, H) * rng.uniform(0.72, 0.95)
    quarter = int(rng.integers(4))
    inplane = quarter * 90 + rng.normal(0, 3.0)
    tilt = rng.uniform(0, 40 if hard else 25)
    azim = rng.uniform(0, 360)
    pw, ph = plan.page_mm
    Rz = _rot([0, 0, 1], np.deg2rad(inplane))
    ax = np.deg2rad(azim)
    Rt = _rot([np.cos(ax), np.sin(ax), 0], np.deg2rad(tilt))
    R = Rt @ Rz
    D0 = 1000.0
    page = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], float)
    ctr = np.array([pw / 2, ph / 2])

    def project(pts, D):
        q = np.c_[pts - ctr, np.zeros(len(pts))] @ R.T + [0, 0, D]
        return np.stack([f * q[:, 0] / q[:, 2] + W / 2, f * q[:, 1] / q[:, 2] + H / 2], -1)

    img0 = project(page, D0)
    Hm0 = cv2.getPerspectiveTransform(page.astype(np.float32), img0.astype(np.float32)).astype(np.float64)
    area0 = cv2.contourArea(img0.astype(np.float32))
    fill = rng.uniform(0.4, 0.9)
    grid_pts = np.concatenate([plan.lattice[0, :], plan.lattice[-1, :], plan.lattice[:, 0], plan.lattice[:, -1]])
    corner_names = ("tl", "tr", "br", "bl")
    k1 = rng.uniform(0.0, 0.08 if hard else 0.04)
    k2 = rng.uniform(0.0, 0.02)
    # paper curl / crease, camera height from the pose (needed for the curl parallax)
    curl_on = rng.random() < (0.8 if hard else 0.6)
    a = rng.uniform(0, 2 * np.pi)
    ka = rng.uniform(0, np.pi)
    curl = {"on": bool(curl_on), "cx": pw / 2, "cy": ph / 2, "dir": [float(np.cos(a)), float(np.sin(a))],
            "half": float(max(pw, ph) / 2), "bend": float(rng.uniform(-1, 1) * (8 if hard else 4)),
            "edge": float(rng.uniform(0, 14 if hard else 7)), "edge_at": float(rng.uniform(0.3, 0.8) * max(pw, ph) / 2),
            "crease": float(rng.uniform(0.5, 2.5 if hard else 1.2)) if rng.random() < 0.3 else 0.0,
            "kx": float(rng.uniform(0.3, 0.7) * pw), "ky": float(rng.uniform(0.3, 0.7) * ph),
            "kdir": [float(np.cos(ka)), float(np.sin(ka))], "kw": float(rng.uniform(4, 15))}
    margin = 0.015 * min(W, H)
    for attempt in range(400):
        s = np.sqrt(fill * W * H / area0) * (0.97 ** (attempt // 20))
        S = np.array([[s, 0, (1 - s) * W / 2], [0, s, (1 - s) * H / 2], [0, 0, 1]])
        Hs = S @ Hm0
        D = D0 / s
        cam_world = -R.T @ np.array([0, 0, D])  # camera in page frame (page centred)
        curl["foot"] = [float(cam_world[0] + ctr[0]), float(cam_world[1] + ctr[1])]
        curl["h"] = float(abs(cam_world[2]))
        gp = _apply_h(Hs, grid_pts)
        lo, hi = gp.min(0), gp.max(0)
        txr = (margin - lo[0], W - margin - hi[0])
        tyr = (margin - lo[1], H - margin - hi[1])
        if txr[0] > txr[1] or tyr[0] > tyr[1]:
            continue
        tx, ty = rng.uniform(*txr), rng.uniform(*tyr)
        T = np.array([[1, 0, tx], [0, 1, ty], [0, 0, 1]])
        cam = Camera(W, H, T @ Hs, float(k1), float(k2), curl, {})
        g = cam.page_to_photo(grid_pts)
        if g.min() < 2 or g[:, 0].max() > W - 3 or g[:, 1].max() > H - 3:
            continue
        clipped_set = []
        for name in corner_names:
            mq = plan.markers.get(name)
            if mq is None:
                continue
            mp = cam.page_to_photo(mq)
            if mp[:, 0].min() < 0 or mp[:, 1].min() < 0 or mp[:, 0].max() > W - 1 or mp[:, 1].max() > H - 1:
                clipped_set.append(name)
        if plan.markers:
            if clipped and not 1 <= len(clipped_set) <= 2:
                if attempt % 20 == 19:
                    fill = min(0.98, fill * 1.06)
                if not clipped_set:
                    # zoom in for the next try so the frame edge reaches a marker
                    fill = min(1.3, fill * 1.03)
                continue
            if not clipped and clipped_set:
                continue
        break
    else:
        raise RuntimeError("could not frame the sheet")
    cam.params = {"size": [W, H], "focal_px": round(float(f), 1), "inplane_deg": round(float(inplane), 2),
                  "quarter_turns": quarter, "tilt_deg": round(float(tilt), 2),
                  "tilt_azimuth_deg": round(float(azim), 1), "fill_target": round(float(fill), 3),
                  "scale": round(float(s), 4), "shift_px": [round(float(tx), 1), round(float(ty), 1)],
                  "k1": round(float(k1), 4), "k2": round(float(k2), 4),
                  "curl": {kk: (round(v, 3) if isinstance(v, float) else v) for kk, v in curl.items()},
                  "markers_clipped": clipped_set}
    return cam


def _apply_h(Hm, pts):
    q = np.asarray(pts) @ Hm[:, :2].T + Hm[:, 2]
    return q[:, :2] / q[:, 2:3]


# ------------------------------------------------------------------------------------------------ rendering

def _remap_maps(cam: Camera, k: float):
    W, H = cam.W, cam.H
    nx, ny = W // STEP + 2, H // STEP + 2
    xs = (np.arange(nx) - 1 + 0.5) * STEP - 0.5
    ys = (np.arange(ny) - 1 + 0.5) * STEP - 0.5
    X, Y = np.meshgrid(xs, ys)
    s = cam.photo_to_page(np.stack([X, Y], -1))
    sx = (s[..., 0] * k - 0.5).astype(np.float32)
    sy = (s[..., 1] * k - 0.5).astype(np.float32)
    big = (nx * STEP, ny * STEP)
    mx = cv2.resize(sx, big, interpolation=cv2.INTER_LINEAR)[STEP:STEP + H, STEP:STEP + W]
    my = cv2.resize(sy, big, interpolation=cv2.INTER_LINEAR)[STEP:STEP + H, STEP:STEP + W]
    # surface slope of the curl (for shading), coarse
    d = cam.curl_d(s)
    return mx, my, s, d


def _background(W, H, rng, hard) -> tuple[np.ndarray, dict]:
    kind = str(rng.choice(["wood", "cloth", "dark", "light", "wood", "stone"]))
    w4, h4 = W // 4, H // 4
    if kind == "wood":
        base = np.array(rng.choice([[0.55, 0.36, 0.2], [0.7, 0.52, 0.33], [0.35, 0.22, 0.12], [0.8, 0.65, 0.45]]))
        ang = float(rng.choice([0, 90]) + rng.normal(0, 3))
        n = directional_noise((h4, w4), ang, 300, 3, rng)
        n2 = directional_noise((h4, w4), ang, 60, 1.2, rng)
        t = 0.5 + 0.25 * n + 0.12 * n2
        bg = base[None, None, :] * (0.75 + 0.5 * t[..., None])
        # plank seams
        if rng.random() < 0.6:
            per = rng.uniform(0.15, 0.35) * max(w4, h4)
            coord = np.arange(w4 if abs(np.sin(np.deg2rad(ang))) > 0.5 else h4)
            seam = (np.mod(coord, per) < 1.5).astype(np.float32)
            if abs(np.sin(np.deg2rad(ang))) > 0.5:
                bg *= (1 - 0.5 * seam)[None, :, None]
            else:
                bg *= (1 - 0.5 * seam)[:, None, None]
    elif kind == "cloth":
        base = np.array(rng.choice([[0.6, 0.15, 0.15], [0.2, 0.3, 0.5], [0.3, 0.45, 0.3], [0.75, 0.7, 0.6],
                                    [0.5, 0.5, 0.52]]))
        yy, xx = np.mgrid[0:h4, 0:w4].astype(np.float32)
        per = rng.uniform(1.2, 3.0)
        weave = 0.5 + 0.25 * np.sin(xx * 2 * np.pi / per) * np.sin(yy * 2 * np.pi / per)
        folds = value_noise((h4, w4), 4, rng, octaves=2)
        bg = base[None, None, :] * (0.8 + 0.25 * weave[..., None] + 0.15 * folds[..., None])
        if rng.random() < 0.4:  # checked table cloth
            chk = ((xx // (w4 / rng.uniform(6, 14))) + (yy // (w4 / rng.uniform(6, 14)))) % 2
            bg = bg * (0.65 + 0.35 * chk[..., None]) + 0.3 * (1 - chk[..., None]) * 0
    elif kind == "stone":
        base = np.array(rng.choice([[0.6, 0.6, 0.6], [0.3, 0.3, 0.32], [0.85, 0.84, 0.8]]))
        n = value_noise((h4, w4), 200, rng, octaves=2)
        bg = base[None, None, :] * (0.95 + 0.06 * n[..., None])
    else:
        base = np.array([0.12, 0.12, 0.13]) if kind == "dark" else np.array([0.86, 0.86, 0.84])
        base = base * rng.uniform(0.8, 1.2, 3)
        n = value_noise((h4, w4), 3, rng, octaves=3)
        bg = base[None, None, :] * (0.92 + 0.12 * n[..., None])
    bg = bg.astype(np.float32)
    # other cards / papers at the edges
    ncards = int(rng.integers(0, 4 if hard else 3))
    for _ in range(ncards):
        cw, ch = rng.uniform(0.15, 0.35) * w4, rng.uniform(0.2, 0.45) * h4
        edge = int(rng.integers(4))
        cx = [rng.uniform(0, w4), w4 + rng.uniform(-0.05, 0.05) * w4, rng.uniform(0, w4),
              rng.uniform(-0.05, 0.05) * w4][edge]
        cy = [rng.uniform(-0.05, 0.05) * h4, rng.uniform(0, h4), h4 + rng.uniform(-0.05, 0.05) * h4,
              rng.uniform(0, h4)][edge]
        box = cv2.boxPoints(((float(cx), float(cy)), (float(cw), float(ch)), float(rng.uniform(0, 180))))
        col = np.array(rng.choice([[0.95, 0.95, 0.93], [0.9, 0.85, 0.7], [0.3, 0.45, 0.7], [0.8, 0.3, 0.25],
                                   [0.25, 0.25, 0.28]])) * rng.uniform(0.85, 1.05)
        m = np.zeros((h4, w4), np.uint8)
        cv2.fillPoly(m, [np.round(box).astype(np.int32)], 255, cv2.LINE_AA)
        mf = m.astype(np.float32)[..., None] / 255
        sh = cv2.GaussianBlur(mf, (0, 0), 3)[..., None] if mf.ndim == 2 else cv2.GaussianBlur(mf[..., 0], (0, 0), 3)
        bg *= 1 - 0.35 * sh[..., None] if sh.ndim == 2 else 1 - 0.35 * sh
        art = col[None, None, :] * (0.9 + 0.1 * value_noise((h4, w4), 8, rng)[..., None])
        if rng.random() < 0.5:  # some print on the card
            cv2.rectangle(art, (int(cx - cw / 4), int(cy - ch / 4)), (int(cx + cw / 4), int(cy + ch / 6)),
                          tuple(float(v) for v in col * 0.5), -1)
        bg = bg * (1 - mf) + art * mf
    bg = cv2.resize(bg.astype(np.float32), (W, H), interpolation=cv2.INTER_LINEAR)
    return bg, {"background": kind, "cards": ncards}


def _kelvin_rgb(T: float) -> np.ndarray:
    """Rough black-body white point (normalised to G=1)."""
    t = T / 100
    r = 255 if t <= 66 else 329.7 * (t - 60) ** -0.1332
    g = 99.47 * np.log(t) - 161.1 if t <= 66 else 288.1 * (t - 60) ** -0.0755
    b = 255 if t >= 66 else (0 if t <= 19 else 138.5 * np.log(t - 10) - 305.0)
    v = np.clip(np.array([r, g, b], float), 1, 255)
    return v / v[1]


def render_photo(sheet: np.ndarray, k: float, cam: Camera, difficulty: str, rng: np.random.Generator):
    hard = difficulty == "hard"
    W, H = cam.W, cam.H
    P: dict = {}
    mx, my, s_coarse, d_coarse = _remap_maps(cam, k)
    sh, sw = sheet.shape[:2]
    alpha = np.zeros((sh, sw), np.uint8)
    alpha[1:-1, 1:-1] = 255
    # anti-alias when the sheet is finer than the photo
    warped = cv2.remap(sheet, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    a = cv2.remap(alpha, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    del mx, my
    a = a.astype(np.float32) * (1 / 255)
    bg, bp = _background(W, H, rng, hard)
    P.update(bp)
    # sheet's cast shadow on the table
    sa = cv2.resize(np.ascontiguousarray(a[::8, ::8]), (W // 8, H // 8))
    shift = rng.normal(0, 0.004, 2) * max(W, H) / 8
    M = np.array([[1, 0, shift[0]], [0, 1, shift[1]]], np.float64)
    sa = cv2.GaussianBlur(cv2.warpAffine(sa, M, (W // 8, H // 8)), (0, 0), 2)
    sa = cv2.resize(sa, (W, H))
    bg *= (1 - 0.35 * sa)[..., None]
    img = cv2.blendLinear(warped, bg, a, 1 - a)
    del warped, bg
    # ---------- light (low-resolution fields)
    lw, lh = W // 16, H // 16
    yy, xx = np.mgrid[0:lh, 0:lw].astype(np.float32)
    xx, yy = xx / lw - 0.5, yy / lh - 0.5
    light = np.ones((lh, lw, 3), np.float32)
    temp1 = float(rng.choice([rng.uniform(2600, 3600), rng.uniform(4800, 6800)]))
    mixed = rng.random() < (0.35 if hard else 0.2)
    temp2 = float(rng.uniform(5000, 7000) if temp1 < 4000 else rng.uniform(2600, 3500))
    c1 = _kelvin_rgb(temp1)
    ga = rng.uniform(0, 2 * np.pi)
    grad = xx * np.cos(ga) + yy * np.sin(ga)
    if mixed:
        c2 = _kelvin_rgb(temp2)
        t = np.clip(0.5 + grad * rng.uniform(0.8, 2.0), 0, 1)[..., None]
        light *= c1 * (1 - t) + c2 * t
    else:
        light *= c1
    # camera white balance: estimates the main light, with an error
    wb_err = rng.normal(0, 0.06 if hard else 0.035, 3)
    wb = c1 * (1 + wb_err)
    light /= wb
    light *= (1 + rng.uniform(0.05, 0.25 if hard else 0.18) * grad)[..., None]
    vig = rng.uniform(0.1, 0.45 if hard else 0.3)
    light *= (1 - vig * (xx ** 2 + yy ** 2) * 2)[..., None]
    # shadow of a hand / the phone
    shadow = rng.random() < (0.6 if hard else 0.35)
    if shadow:
        m = np.zeros((lh, lw), np.float32)
        edge = int(rng.integers(4))
        cx, cy = rng.uniform(0.2, 0.8) * lw, rng.uniform(0.2, 0.8) * lh
        ex = [cx, lw * 1.2, cx, -lw * 0.2][edge]
        ey = [-lh * 0.2, cy, lh * 1.2, cy][edge]
        width = rng.uniform(0.12, 0.3) * min(lw, lh)
        cv2.line(m, (int(ex), int(ey)), (int(cx), int(cy)), 1.0, int(width))
        cv2.ellipse(m, (int(cx), int(cy)), (int(width * rng.uniform(0.8, 1.4)), int(width * rng.uniform(0.6, 1.1))),
                    float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        m = cv2.GaussianBlur(m, (0, 0), rng.uniform(1.5, 5))
        depth = rng.uniform(0.25, 0.6 if hard else 0.45)
        tint = np.array([1.0, 1.0, rng.uniform(1.0, 1.15)], np.float32)
        light *= 1 - depth * m[..., None]
        light *= 1 + m[..., None] * (tint - 1) * depth
        P["shadow_depth"] = round(float(depth), 3)
    # curl shading: slopes of the page catch the light differently
    if cam.curl["on"]:
        dd = cv2.resize(np.linalg.norm(d_coarse, axis=-1).astype(np.float32), (lw, lh))
        gy_, gx_ = np.gradient(dd)
        la = rng.uniform(0, 2 * np.pi)
        shade = 1 + np.clip((gx_ * np.cos(la) + gy_ * np.sin(la)) * 8, -0.15, 0.15)
        light *= shade[..., None]
    expo = 2 ** rng.normal(0, 0.4 if hard else 0.22)
    light = cv2.resize(light.astype(np.float32), (W, H), interpolation=cv2.INTER_LINEAR)
    img = cv2.multiply(img, light)
    # auto exposure: meters the sheet (its median to ~0.75), then the exposure error
    small = cv2.resize(img, (W // 16, H // 16), interpolation=cv2.INTER_AREA).mean(-1)
    asmall = cv2.resize(a, (W // 16, H // 16), interpolation=cv2.INTER_AREA)
    med = float(np.median(small[asmall > 0.5])) if (asmall > 0.5).any() else 0.6
    meter = 0.75 / max(med, 0.05)
    img *= np.float32(meter * expo)
    del light
    # glare: a soft specular blob, white-ish
    glare = rng.random() < (0.5 if hard else 0.2)
    if glare:
        g = np.zeros((lh, lw), np.float32)
        gc = (int(rng.uniform(0.2, 0.8) * lw), int(rng.uniform(0.2, 0.8) * lh))
        ax = (int(rng.uniform(0.05, 0.2) * lw), int(rng.uniform(0.03, 0.12) * lh))
        cv2.ellipse(g, gc, ax, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        g = cv2.GaussianBlur(g, (0, 0), max(ax) * 0.5 + 1)
        g = cv2.resize(g / max(g.max(), 1e-6), (W, H))
        gi = rng.uniform(0.25, 0.9 if hard else 0.55)
        img = cv2.add(img, cv2.merge([(gi * g).astype(np.float32)] * 3))
        P["glare"] = round(float(gi), 3)
    # ---------- optics
    sigma = rng.uniform(0.3, 2.8 if hard else 1.3)
    blurred = cv2.GaussianBlur(img, (0, 0), sigma)
    dof = rng.random() < 0.4
    if dof:  # focus falls off along the tilt direction
        fa = rng.uniform(0, 2 * np.pi)
        t = np.clip(0.5 + (xx * np.cos(fa) + yy * np.sin(fa)) * 1.5, 0, 1)
        t = cv2.resize(t.astype(np.float32), (W, H))
        img = cv2.blendLinear(cv2.GaussianBlur(img, (0, 0), 0.4), blurred, 1 - t, t)
    else:
        img = blurred
    del blurred
    motion = hard and rng.random() < 0.35
    if motion:
        L = int(rng.integers(3, 14))
        ang = rng.uniform(0, 180)
        kern = np.zeros((L * 2 + 1, L * 2 + 1), np.float32)
        c = L
        dx, dy = np.cos(np.deg2rad(ang)) * L, np.sin(np.deg2rad(ang)) * L
        cv2.line(kern, (int(c - dx / 2), int(c - dy / 2)), (int(c + dx / 2), int(c + dy / 2)), 1.0, 1, cv2.LINE_AA)
        kern /= kern.sum()
        img = cv2.filter2D(img, -1, kern)
        P["motion_px"] = L
        P["motion_deg"] = round(float(ang), 1)
    P.update({"temp_k": round(temp1, 0), "mixed_light": bool(mixed), "temp2_k": round(temp2, 0) if mixed else None,
              "wb_error": [round(float(v), 4) for v in wb_err], "vignette": round(float(vig), 3),
              "exposure": round(float(expo), 3), "auto_exposure_gain": round(meter, 3),
              "shadow": bool(shadow), "glare_on": bool(glare),
              "defocus_sigma": round(float(sigma), 3), "dof_gradient": bool(dof), "motion": bool(motion)})
    # ---------- sensor noise (darker -> more), at half resolution
    lowlight = rng.random() < (0.4 if hard else 0.2)
    n_sd = rng.uniform(0.006, 0.02) * (2.5 if lowlight else 1.0) * (1.5 if hard else 1.0) / max(0.5, expo) ** 0.5
    nh, nw = H // 2, W // 2
    noise = rng.standard_normal((nh, nw, 3), dtype=np.float32)
    noise[..., 1:] = noise[..., 1:] * 0.6 + noise[..., :1] * 0.4
    noise = cv2.resize(noise, (W, H), interpolation=cv2.INTER_LINEAR)
    img = cv2.scaleAdd(noise, float(n_sd), img)
    del noise
    # ---------- processing: denoise smear, tone, saturation, sharpening
    img = img.astype(np.float32, copy=False)
    np.clip(img, 0, 1, out=img)
    ycc = cv2.cvtColor(img, cv2.COLOR_RGB2YCrCb)
    smear = rng.uniform(0.5, 3.0 if hard else 2.0)
    ycc[..., 1] = cv2.GaussianBlur(ycc[..., 1], (0, 0), smear * 1.5)
    ycc[..., 2] = cv2.GaussianBlur(ycc[..., 2], (0, 0), smear * 1.5)
    Y = ycc[..., 0]
    hdr = rng.random() < (0.35 if hard else 0.25)
    if hdr:
        Ys = cv2.resize(Y, (W // 32, H // 32), interpolation=cv2.INTER_AREA)
        amt = rng.uniform(0.2, 0.5)
        gain = cv2.resize(np.power(np.clip(Ys, 0.05, 1) / 0.5, -amt).astype(np.float32), (W, H))
        Y = cv2.multiply(Y, gain)
    sharp = rng.uniform(0.2, 1.3 if hard else 1.0)
    ss = rng.uniform(1.0, 2.5)
    Y = Y + sharp * (Y - cv2.GaussianBlur(Y, (0, 0), ss))
    sat = rng.uniform(0.95, 1.45)
    ycc[..., 0] = np.clip(Y, 0, 1)
    ycc[..., 1] = 0.5 + (ycc[..., 1] - 0.5) * sat
    ycc[..., 2] = 0.5 + (ycc[..., 2] - 0.5) * sat
    out = cv2.cvtColor(ycc, cv2.COLOR_YCrCb2RGB)
    # tone curve (phone "look")
    gam = rng.uniform(0.85, 1.1)
    contrast = rng.uniform(0.0, 0.25)
    v = np.linspace(0, 1, 256) ** gam
    v = v + contrast * (v - 0.5) * v * (1 - v) * 4
    lut = np.clip(v * 255 + 0.5, 0, 255).astype(np.uint8)
    u8 = cv2.LUT(cv2.convertScaleAbs(out, alpha=255.0), lut)
    q = int(rng.integers(60 if hard else 70, 96))
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(u8, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, q])
    assert ok
    P.update({"lowlight": bool(lowlight), "noise_sd": round(float(n_sd), 4), "chroma_smear": round(float(smear), 3),
              "hdr": bool(hdr), "sharpen": round(float(sharp), 3), "sharpen_sigma": round(float(ss), 3),
              "saturation": round(float(sat), 3), "gamma": round(float(gam), 3), "contrast": round(float(contrast), 3),
              "jpeg_quality": q})
    return buf.tobytes(), P
