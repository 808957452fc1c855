"""Everything around and over the sheet: the table, props, a thumb, the light, and the phone's processing.

Fields that vary slowly (light, shadows, white balance) are made at low resolution
and enlarged: they cost little and look the same. Nothing here moves the sheet, so
the truth geometry from camera.py stays exact (blur kernels are centred).
"""

from __future__ import annotations

import cv2
import numpy as np

from .util import smooth_noise

LOW = 4  # low-resolution factor for the slow fields
BG = 2  # the table and its props are drawn at half resolution (they are background, and it halves the cost)


def _up(a: np.ndarray, W: int, H: int) -> np.ndarray:
    return cv2.resize(a, (W, H), interpolation=cv2.INTER_LINEAR)


def table(W: int, H: int, rng: np.random.Generator) -> tuple[np.ndarray, dict]:
    """The table at 1/BG resolution (enlarge it after `props`)."""
    w, h = W // BG, H // BG
    kind = str(rng.choice(["wood", "wood", "cloth_check", "cloth_stripe", "cloth_dots", "dark", "light", "felt"]))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, np.pi)
    along = xx * np.cos(a) + yy * np.sin(a)
    across = -xx * np.sin(a) + yy * np.cos(a)
    if kind == "wood":
        base = np.array(rng.choice([(0.55, 0.36, 0.2), (0.35, 0.22, 0.12), (0.75, 0.6, 0.42), (0.25, 0.17, 0.1)]))
        warp = smooth_noise((h, w), rng, w / 4) * 30
        grain_ = np.sin((across + warp) * rng.uniform(0.15, 0.4)) * 0.5 + 0.5
        plank = (np.floor(across / rng.uniform(150, 300)) % 2) * 0.06
        tex = 0.8 + 0.25 * grain_ ** 3 - plank + 0.08 * smooth_noise((h, w), rng, 20)
        img = base[None, None, :] * tex[..., None]
    elif kind.startswith("cloth"):
        c1 = np.array(rng.uniform(0.1, 0.95, 3))
        c2 = np.array(rng.uniform(0.6, 1.0, 3)) if rng.random() < 0.6 else c1 * 0.5
        p = rng.uniform(20, 80)
        if kind == "cloth_check":
            m = ((np.floor(along / p) + np.floor(across / p)) % 2)
        elif kind == "cloth_stripe":
            m = (np.floor(across / p) % 2)
        else:
            m = (np.hypot((along % p) - p / 2, (across % p) - p / 2) < p * 0.2).astype(np.float32)
        m = cv2.GaussianBlur(m.astype(np.float32), (0, 0), 1.2)
        img = c1[None, None] * (1 - m[..., None]) + c2[None, None] * m[..., None]
        img *= (0.92 + 0.08 * np.sin(xx * 2.1) * np.sin(yy * 2.3))[..., None]
    else:
        base = {"dark": rng.uniform(0.05, 0.2, 3), "light": rng.uniform(0.75, 0.95, 3),
                "felt": np.array(rng.choice([(0.1, 0.3, 0.15), (0.15, 0.15, 0.3), (0.3, 0.1, 0.1)]))}[kind]
        img = base[None, None, :] * (1 + 0.06 * smooth_noise((h, w), rng, 15))[..., None]
    img = np.clip(img, 0, 1).astype(np.float32)
    return img, {"table": kind}


def props(bg: np.ndarray, rng: np.random.Generator) -> list[str]:
    """Cards, pencils, another sheet, lying on the table (the sheet is composited over them); on the small table."""
    H, W = bg.shape[:2]
    done = []
    for _ in range(int(rng.integers(0, 5))):
        what = str(rng.choice(["card", "pencil", "sheet"]))
        cx, cy = rng.uniform(0, W), rng.uniform(0, H)
        ang = rng.uniform(0, 180)
        s = min(W, H)
        if what == "card":
            size = (s * rng.uniform(0.15, 0.25), s * rng.uniform(0.22, 0.35))
            col = rng.uniform(0.2, 0.9, 3)
        elif what == "pencil":
            size = (s * rng.uniform(0.4, 0.8), s * rng.uniform(0.015, 0.025))
            col = rng.uniform(0.1, 0.9, 3)
        else:
            size = (s * rng.uniform(0.5, 0.8), s * rng.uniform(0.7, 1.0))
            col = rng.uniform(0.85, 0.97, 3)
        box = cv2.boxPoints(((cx, cy), size, ang))
        m = np.zeros((H, W), np.float32)
        cv2.fillPoly(m, [np.int32(box)], 1.0, cv2.LINE_AA)
        m = m[..., None]
        bg[:] = bg * (1 - m) + m * col.astype(np.float32)
        if what == "card":
            inner = cv2.boxPoints(((cx, cy), (size[0] * 0.8, size[1] * 0.6), ang))
            m2 = np.zeros((H, W), np.float32)
            cv2.fillPoly(m2, [np.int32(inner)], 1.0, cv2.LINE_AA)
            m2 = m2[..., None]
            bg[:] = bg * (1 - m2) + m2 * rng.uniform(0.1, 0.9, 3).astype(np.float32)
        done.append(what)
    return done


def thumb(img: np.ndarray, rng: np.random.Generator, tip: np.ndarray, out_dir: np.ndarray, width: float) -> None:
    """A thumb holding the margin: a skin capsule from outside the page with its tip at `tip` (photo px)."""
    H, W = img.shape[:2]
    skin = np.array(rng.choice([(0.93, 0.75, 0.62), (0.78, 0.56, 0.42), (0.55, 0.38, 0.27), (0.98, 0.82, 0.72)]),
                    np.float32)
    d = out_dir / (np.linalg.norm(out_dir) + 1e-9)
    L = max(W, H)
    end = tip + d * L
    m = np.zeros((H // LOW, W // LOW), np.float32)
    cv2.line(m, tuple(int(v) for v in tip / LOW), tuple(int(v) for v in end / LOW), 1.0, max(1, int(width / LOW)),
             cv2.LINE_AA)
    cv2.circle(m, tuple(int(v) for v in tip / LOW), max(1, int(width / 2 / LOW)), 1.0, -1, cv2.LINE_AA)
    m = cv2.GaussianBlur(m, (0, 0), 1.0)
    shade = cv2.GaussianBlur(m, (0, 0), width / LOW / 4)
    m = _up(m, W, H)[..., None]
    shade = _up(shade, W, H)[..., None]
    col = skin[None, None] * (0.6 + 0.45 * shade)
    # its shadow on the paper first
    sh = np.roll(m, (int(width * 0.15), int(width * 0.1)), (0, 1))
    img *= 1 - 0.35 * cv2.GaussianBlur(sh[..., 0], (0, 0), width / 6)[..., None]
    img[:] = img * (1 - m) + col * m


def light(img: np.ndarray, difficulty: str, rng: np.random.Generator, shade: np.ndarray) -> dict:
    """Uneven light, white balance (warm lamp / daylight / mixed), vignetting, soft shadows, glare."""
    H, W = img.shape[:2]
    hard = difficulty == "hard"
    w, h = W // LOW, H // LOW
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    xn, yn = (xx - w / 2) / (w / 2), (yy - h / 2) / (h / 2)
    a = rng.uniform(0, 2 * np.pi)
    grad = rng.uniform(0, 0.35 if hard else 0.2)
    field = 1 + grad * (np.cos(a) * xn + np.sin(a) * yn) / 2 + 0.05 * smooth_noise((h, w), rng, w / 3)
    vig = rng.uniform(0.05, 0.4 if hard else 0.25)
    field *= 1 - vig * (xn ** 2 + yn ** 2) / 2
    n_sh = int(rng.integers(0, 3 if hard else 2))
    for _ in range(n_sh):
        m = np.zeros((h, w), np.float32)
        c = (rng.uniform(0, w), rng.uniform(0, h))
        ax = (int(rng.uniform(0.15, 0.5) * w), int(rng.uniform(0.1, 0.4) * h))
        cv2.ellipse(m, (int(c[0]), int(c[1])), ax, rng.uniform(0, 180), 0, 360, 1.0, -1)
        m = cv2.GaussianBlur(m, (0, 0), rng.uniform(0.03, 0.12) * w)
        field *= 1 - rng.uniform(0.15, 0.55 if hard else 0.35) * m
    light_kind = str(rng.choice(["daylight", "lamp", "mixed", "cloudy", "fluorescent"]))
    gains = {"daylight": (1.0, 1.0, 1.02), "lamp": (1.18, 1.0, 0.72), "cloudy": (0.95, 1.0, 1.1),
             "fluorescent": (0.97, 1.04, 0.98), "mixed": (1.15, 1.0, 0.78)}[light_kind]
    wb = np.array(gains, np.float32) * rng.uniform(0.93, 1.07, 3).astype(np.float32)
    exposure = rng.uniform(0.35, 0.7) if hard and rng.random() < 0.4 else rng.uniform(0.85, 1.1)
    fld = _up((field * exposure).astype(np.float32), W, H) * shade
    if light_kind == "mixed":  # lamp on one side, window on the other
        b = rng.uniform(0, 2 * np.pi)
        t = np.clip(0.5 + (np.cos(b) * xn + np.sin(b) * yn), 0, 1).astype(np.float32)
        t = _up(t, W, H)
        other = np.array((0.95, 1.0, 1.12), np.float32)
        for ch in range(3):
            img[..., ch] *= fld * (wb[ch] * t + other[ch] * (1 - t))
    else:
        img *= cv2.merge([fld * wb[0], fld * wb[1], fld * wb[2]])
    glare = []
    for _ in range(int(rng.random() < (0.5 if hard else 0.3)) + int(hard and rng.random() < 0.2)):
        m = np.zeros((h, w), np.float32)
        c = (int(rng.uniform(0.2, 0.8) * w), int(rng.uniform(0.2, 0.8) * h))
        cv2.ellipse(m, c, (int(rng.uniform(0.04, 0.2) * w), int(rng.uniform(0.03, 0.12) * h)), rng.uniform(0, 180),
                    0, 360, 1.0, -1)
        m = cv2.GaussianBlur(m, (0, 0), rng.uniform(0.02, 0.06) * w)
        s = rng.uniform(0.2, 0.55 if hard else 0.4)
        g = _up(m * s, W, H)[..., None]
        img[:] = img * (1 - g) + g * np.float32(0.98)
        glare.append(round(float(s), 3))
    return {"light": light_kind, "wb": [round(float(x), 3) for x in wb], "exposure": round(float(exposure), 3),
            "vignette": round(float(vig), 3), "shadows": n_sh, "glare": glare, "gradient": round(float(grad), 3)}


def phone(img: np.ndarray, difficulty: str, rng: np.random.Generator, exposure: float) -> tuple[np.ndarray, dict]:
    """Lens blur, motion blur, sensor noise, the phone's tone mapping and sharpening; returns uint8 BGR."""
    hard = difficulty == "hard"
    H, W = img.shape[:2]
    sigma = rng.uniform(0.8, 2.6) if hard else rng.uniform(0.4, 1.4)
    img = cv2.GaussianBlur(img, (0, 0), sigma)
    motion = 0.0
    if hard and rng.random() < 0.45:
        motion = float(rng.uniform(3, 11))
        n = int(np.ceil(motion)) | 1
        k = np.zeros((n, n), np.float32)
        a = rng.uniform(0, np.pi)
        c = n // 2
        d = np.array([np.cos(a), np.sin(a)]) * motion / 2
        cv2.line(k, (int(round(c * 16 - d[0] * 16)), int(round(c * 16 - d[1] * 16))),
                 (int(round(c * 16 + d[0] * 16)), int(round(c * 16 + d[1] * 16))), 1.0, 1, cv2.LINE_AA, 4)
        k = (k + k[::-1, ::-1]) / 2  # exactly centred: blur must not move the grid
        k /= k.sum()
        img = cv2.filter2D(img, -1, k)
    gain = 1.0 / max(exposure, 0.3)
    read = rng.uniform(0.006, 0.02) * (gain if hard else 1.0)
    shot = rng.uniform(0.003, 0.01) * gain
    luma = rng.standard_normal((H, W), dtype=np.float32)
    chroma = cv2.resize(rng.standard_normal((H // 4, W // 4, 3), dtype=np.float32), (W, H))
    grey = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)
    sd = cv2.sqrt(cv2.max(grey, 0) * np.float32(shot) + np.float32(read ** 2))
    luma *= sd
    chroma *= cv2.merge([sd, sd, sd]) * np.float32(0.6)
    img += cv2.merge([luma, luma, luma])
    img += chroma
    del luma, chroma, grey
    if exposure < 0.8:
        img *= np.float32(gain)
    # phone processing: noise reduction, local tone mapping (HDR), sharpening halos, the tone curve
    if hard and exposure < 0.8:
        img = cv2.bilateralFilter(img, 5, 0.08, 3)
    hdr = rng.uniform(0.0, 0.45)
    if hdr > 0.05:  # out = img (1 + hdr) - base (1.5 hdr) + 0.25 hdr: local contrast up, large-scale range down
        small = cv2.resize(img, (W // 16, H // 16), interpolation=cv2.INTER_AREA)
        base = cv2.resize(cv2.GaussianBlur(small, (0, 0), 6), (W, H))
        img = cv2.addWeighted(img, 1 + hdr, base, -1.5 * hdr, 0.25 * hdr)
        del base
    amount = rng.uniform(0.2, 1.3)
    rad = rng.uniform(0.8, 2.2)
    img = cv2.addWeighted(img, 1 + amount, cv2.GaussianBlur(img, (0, 0), rad), -amount, 0)
    gamma = rng.uniform(0.85, 1.15)
    u8 = cv2.convertScaleAbs(cv2.max(img, 0.0), alpha=255.0)  # saturates at 255
    del img
    lut = np.clip((np.arange(256) / 255.0) ** gamma * 255 + 0.5, 0, 255).astype(np.uint8)
    out = cv2.cvtColor(cv2.LUT(u8, lut), cv2.COLOR_RGB2BGR)
    return out, {"blur_sigma": round(float(sigma), 3), "motion_px": round(motion, 2),
                 "read_noise": round(float(read), 4),
                 "shot_noise": round(float(shot), 4), "hdr": round(float(hdr), 3), "sharpen": round(float(amount), 3),
                 "sharpen_radius": round(float(rad), 3), "gamma": round(float(gamma), 3)}
