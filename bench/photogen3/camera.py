"""The phone's geometry: a pinhole camera with radial (barrel) distortion above a table, and a sheet of paper
that is not flat (curl, wave, creases).

World coordinates are millimetres: X, Y on the table with the sheet's top-left corner at the origin (X along
the sheet's printed rows, Y down the sheet), Z pointing INTO the table, so paper lifted by h has Z = -h.
Photo pixel coordinates follow OpenCV: pixel (i, j) has its centre at x = i, y = j.

`Camera.forward_sheet` maps sheet millimetres to photo pixels exactly; the renderer inverts it numerically on
a coarse pixel lattice (Newton along each pixel's ray), so the truth and the picture come from one model.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np


@dataclass
class Surface:
    """Height of the paper above the table (mm) at sheet coordinates (mm)."""

    w: float
    h: float
    terms: list[dict] = field(default_factory=list)

    def height(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        z = np.zeros(np.broadcast(x, y).shape, np.float64)
        for t in self.terms:
            k = t["type"]
            if k == "edge":
                d = {"top": y, "bottom": self.h - y, "left": x, "right": self.w - x}[t["edge"]]
                z += t["lift"] * np.clip(1.0 - d / t["width"], 0.0, 1.0) ** t["power"]
            elif k == "corner":
                cx, cy = t["cx"], t["cy"]
                d = (np.abs(x - cx) + np.abs(y - cy)) / np.sqrt(2.0)
                z += t["lift"] * np.clip(1.0 - d / t["width"], 0.0, 1.0) ** t["power"]
            elif k == "wave":
                a = np.radians(t["angle"])
                p = (x * np.cos(a) + y * np.sin(a)) / t["wavelength"] * 2 * np.pi + t["phase"]
                z += t["amp"] * 0.5 * (1.0 + np.sin(p))
            elif k == "crease":
                a = np.radians(t["angle"])
                d = (x - t["x0"]) * -np.sin(a) + (y - t["y0"]) * np.cos(a)
                r = np.clip(np.abs(d) / t["width"], 0.0, 1.0)
                z += t["amp"] * ((1.0 - r) if t["ridge"] else r)
            elif k == "bulge":
                z += t["amp"] * np.exp(-((x - t["x0"]) ** 2 + (y - t["y0"]) ** 2) / (2 * t["sigma"] ** 2))
        return z

    def normal(self, x: np.ndarray, y: np.ndarray, eps: float = 0.5) -> np.ndarray:
        """Unit normals pointing away from the table (towards -Z), shape (..., 3) as (nx, ny, nz_up)."""
        hx = (self.height(x + eps, y) - self.height(x - eps, y)) / (2 * eps)
        hy = (self.height(x, y + eps) - self.height(x, y - eps)) / (2 * eps)
        n = np.stack([-hx, -hy, np.ones_like(hx)], -1)
        return n / np.linalg.norm(n, axis=-1, keepdims=True)


def rodrigues(axis: np.ndarray, angle: float) -> np.ndarray:
    a = np.asarray(axis, np.float64)
    a = a / np.linalg.norm(a)
    k = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * (k @ k)


@dataclass
class Camera:
    width: int
    height: int
    focal_px: float
    tilt_deg: float  # optical axis from the vertical
    tilt_dir_deg: float  # which way in the image the axis leans (0 = the image's top is farther away)
    roll_deg: float  # turn of the camera about its axis (the sheet appears turned the other way)
    k1: float = 0.0
    k2: float = 0.0
    distance: float = 400.0  # from camera centre to target along the axis (mm)
    target: tuple[float, float] = (0.0, 0.0)  # where the axis meets the table (mm)
    surface: Surface | None = None
    cx: float = 0.0
    cy: float = 0.0

    def __post_init__(self):
        if not self.cx:
            self.cx = (self.width - 1) / 2.0
        if not self.cy:
            self.cy = (self.height - 1) / 2.0
        self.update()

    def update(self) -> None:
        roll = np.radians(self.roll_deg)
        m_roll = np.array([[np.cos(roll), -np.sin(roll), 0], [np.sin(roll), np.cos(roll), 0], [0, 0, 1]])
        psi = np.radians(self.tilt_dir_deg)
        m_tilt = rodrigues(np.array([np.cos(psi), np.sin(psi), 0.0]), np.radians(self.tilt_deg))
        self.M = m_roll @ m_tilt  # camera -> world
        self.R = self.M.T  # world -> camera
        axis = self.M @ np.array([0.0, 0.0, 1.0])
        self.C = np.array([self.target[0], self.target[1], 0.0]) - self.distance * axis
        self.r0 = 0.5 * np.hypot(self.width, self.height)

    # --- projection ---------------------------------------------------------------------------------------------
    def project(self, P: np.ndarray) -> np.ndarray:
        """World points (..., 3) to undistorted pixels (..., 2)."""
        q = (P - self.C) @ self.R.T
        z = np.maximum(q[..., 2], 1e-6)
        return np.stack([self.focal_px * q[..., 0] / z + self.cx, self.focal_px * q[..., 1] / z + self.cy], -1)

    def distort(self, uv: np.ndarray) -> np.ndarray:
        x = (uv[..., 0] - self.cx) / self.r0
        y = (uv[..., 1] - self.cy) / self.r0
        r2 = x * x + y * y
        f = 1.0 + self.k1 * r2 + self.k2 * r2 * r2
        return np.stack([x * f * self.r0 + self.cx, y * f * self.r0 + self.cy], -1)

    def undistort(self, uv: np.ndarray) -> np.ndarray:
        x = (uv[..., 0] - self.cx) / self.r0
        y = (uv[..., 1] - self.cy) / self.r0
        rd = np.sqrt(x * x + y * y)
        rd = np.minimum(rd, self._rd_max())  # beyond the fold of the distortion curve there is no inverse
        r = rd.copy()
        for _ in range(8):
            r2 = r * r
            g = r * (1.0 + self.k1 * r2 + self.k2 * r2 * r2) - rd
            dg = 1.0 + 3 * self.k1 * r2 + 5 * self.k2 * r2 * r2
            r = r - g / np.maximum(dg, 0.2)
        scale = np.where(rd > 1e-12, r / np.maximum(rd, 1e-12), 1.0)
        return np.stack([x * scale * self.r0 + self.cx, y * scale * self.r0 + self.cy], -1)

    def _rd_max(self) -> float:
        """The largest distorted radius the model reaches while it is still monotonic (searched up to r = 3)."""
        r = np.linspace(0, 3, 601)
        r2 = r * r
        slope = 1 + 3 * self.k1 * r2 + 5 * self.k2 * r2 * r2
        bad = np.nonzero(slope <= 0.05)[0]
        r_end = r[bad[0]] if len(bad) else 3.0
        return float(r_end * (1 + self.k1 * r_end ** 2 + self.k2 * r_end ** 4))

    def world_of_sheet(self, xy: np.ndarray) -> np.ndarray:
        xy = np.asarray(xy, np.float64)
        h = self.surface.height(xy[..., 0], xy[..., 1]) if self.surface else np.zeros(xy.shape[:-1])
        return np.stack([xy[..., 0], xy[..., 1], -h], -1)

    def forward_sheet(self, xy_mm: np.ndarray) -> np.ndarray:
        """Sheet millimetres (..., 2) to photo pixels (..., 2), through curl, perspective and lens distortion."""
        return self.distort(self.project(self.world_of_sheet(xy_mm)))

    def forward_flat(self, xy_mm: np.ndarray) -> np.ndarray:
        xy = np.asarray(xy_mm, np.float64)
        P = np.stack([xy[..., 0], xy[..., 1], np.zeros(xy.shape[:-1])], -1)
        return self.distort(self.project(P))

    # --- inverse (rays) -----------------------------------------------------------------------------------------
    def rays(self, uv_photo: np.ndarray) -> np.ndarray:
        uv = self.undistort(uv_photo)
        d = np.stack([(uv[..., 0] - self.cx) / self.focal_px, (uv[..., 1] - self.cy) / self.focal_px,
                      np.ones(uv.shape[:-1])], -1)
        return d @ self.M.T

    def table_hit(self, d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(X, Y) where rays (directions d) meet the table plane, and the ray parameter t."""
        dz = np.maximum(d[..., 2], 1e-4)
        t = -self.C[2] / dz
        return self.C[:2] + d[..., :2] * t[..., None], t

    def sheet_hit(self, d: np.ndarray) -> np.ndarray:
        """(x, y) where rays meet the curled paper (Newton on the ray parameter from the table hit)."""
        xy, t = self.table_hit(d)
        if self.surface is None or not self.surface.terms:
            return xy
        dz = np.maximum(d[..., 2], 1e-4)
        eps = 0.05 * float(np.median(t)) / 400.0 + 1e-3
        for _ in range(7):
            X = self.C[0] + d[..., 0] * t
            Y = self.C[1] + d[..., 1] * t
            g = self.C[2] + dz * t + self.surface.height(X, Y)
            X2 = self.C[0] + d[..., 0] * (t + eps)
            Y2 = self.C[1] + d[..., 1] * (t + eps)
            dg = dz + (self.surface.height(X2, Y2) - self.surface.height(X, Y)) / eps
            t = t - g / np.where(np.abs(dg) < 0.1 * dz, 0.1 * dz, dg)
        return np.stack([self.C[0] + d[..., 0] * t, self.C[1] + d[..., 1] * t], -1)

    def params(self) -> dict:
        return {"width": self.width, "height": self.height, "focal_px": self.focal_px, "tilt_deg": self.tilt_deg,
                "tilt_dir_deg": self.tilt_dir_deg, "roll_deg": self.roll_deg, "k1": self.k1, "k2": self.k2,
                "distance_mm": self.distance, "target_mm": list(self.target),
                "camera_height_mm": float(-self.C[2]), "principal_point": [self.cx, self.cy],
                "surface": self.surface.terms if self.surface else []}


def coarse_lattice(width: int, height: int, step: int, pad: int = 1) -> tuple[np.ndarray, tuple[int, int]]:
    """Pixel positions whose bilinear upsampling by `step` (cv2.resize) lands exactly on the full-size pixels."""
    nx = int(np.ceil(width / step)) + 2 * pad
    ny = int(np.ceil(height / step)) + 2 * pad
    us = (np.arange(nx) + 0.5) * step - 0.5 - pad * step
    vs = (np.arange(ny) + 0.5) * step - 0.5 - pad * step
    uu, vv = np.meshgrid(us, vs)
    return np.stack([uu, vv], -1), (nx, ny)


def upsample(field: np.ndarray, step: int, width: int, height: int, pad: int = 1) -> np.ndarray:
    """Coarse field from `coarse_lattice` to full resolution (float32)."""
    ny, nx = field.shape[:2]
    big = cv2.resize(field.astype(np.float32), (nx * step, ny * step), interpolation=cv2.INTER_LINEAR)
    return big[pad * step:pad * step + height, pad * step:pad * step + width]


def polygon_area(p: np.ndarray) -> float:
    x, y = p[:, 0], p[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


def frame(cam: Camera, sheet_w: float, sheet_h: float, coverage: float, centre_px: tuple[float, float],
          aim_mm: tuple[float, float] | None = None) -> None:
    """Set distance and target so the (flat) sheet covers `coverage` of the frame with `aim_mm` at `centre_px`."""
    corners = np.array([[0, 0, 0], [sheet_w, 0, 0], [sheet_w, sheet_h, 0], [0, sheet_h, 0]], np.float64)
    aim = np.array(aim_mm if aim_mm is not None else (sheet_w / 2, sheet_h / 2))
    frame_area = cam.width * cam.height
    cos_t = np.cos(np.radians(cam.tilt_deg))
    cam.distance = cam.focal_px * np.sqrt(sheet_w * sheet_h * cos_t / (coverage * frame_area))
    cam.target = (float(aim[0]), float(aim[1]))
    cam.update()
    for _ in range(4):
        a = polygon_area(cam.project(corners))
        cam.distance *= np.sqrt(a / (coverage * frame_area))
        cam.update()
        uv = np.array(centre_px, np.float64)
        d = np.array([(uv[0] - cam.cx) / cam.focal_px, (uv[1] - cam.cy) / cam.focal_px, 1.0]) @ cam.M.T
        q, _ = cam.table_hit(d)
        cam.target = (cam.target[0] + aim[0] - q[0], cam.target[1] + aim[1] - q[1])
        cam.update()
