"""Stage 3b: fit the grid from the photo itself — where the thick border really is, side by side.

A homography models a flat sheet. Curled or damp paper and printer scaling
bend the grid by a fraction of a cell, most at the edges away from the
markers. The thick outer border is printed on blank paper, so along each of
its four sides its true position can be measured every half cell; a smooth
curve through those measurements, blended across the grid (top↔bottom for
vertical shifts, left↔right for horizontal ones), gives every cell its own
small offset.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.cartographers.data import GRID_SIZE
from vision.geometry import Canon

BORDER_PT = 2.0  # printables' thick border width (centred on the grid edge)
SEARCH = 0.5  # cells either side of the expected border position
MAX_SHIFT = 0.45  # cells: larger fitted shifts are not trusted


def _side_profile(ink: np.ndarray, canon: Canon, side: str, t: float, half: float, n: int) -> tuple[np.ndarray,
                                                                                                  np.ndarray]:
    """Ink across the border at fraction `t` along `side`: (offsets in px, outward positive; mean ink)."""
    x0, y0, x1, y1 = canon.grid_box()
    offs = np.arange(-n, n + 1, dtype=np.float64)
    along = np.arange(-half, half + 1)
    if side in ("top", "bottom"):
        x = x0 + t * (x1 - x0)
        y = y0 if side == "top" else y1
        sign = -1 if side == "top" else 1
        xs = np.clip(np.round(x + along).astype(int), 0, ink.shape[1] - 1)
        ys = np.clip(np.round(y + sign * offs).astype(int), 0, ink.shape[0] - 1)
        prof = ink[np.ix_(ys, xs)].mean(axis=1)
    else:
        y = y0 + t * (y1 - y0)
        x = x0 if side == "left" else x1
        sign = -1 if side == "left" else 1
        ys = np.clip(np.round(y + along).astype(int), 0, ink.shape[0] - 1)
        xs = np.clip(np.round(x + sign * offs).astype(int), 0, ink.shape[1] - 1)
        prof = ink[np.ix_(ys, xs)].mean(axis=0)
    return offs, prof


def _find_border(offs: np.ndarray, prof: np.ndarray, width: float) -> float | None:
    """Outward offset of the border line: a dark band with blank paper just outside it."""
    w = max(1, int(round(width)))
    i = np.arange(w + 3, len(prof) - w - 3)
    if len(i) == 0:
        return None
    c = np.concatenate([[0.0], np.cumsum(prof)])
    lo = i - w // 2
    band = (c[lo + w] - c[lo]) / w
    o = i + (w + 1) // 2 + 1
    outside = (c[np.minimum(o + 3, len(prof))] - c[o]) / 3
    score = band - outside
    k = int(np.argmax(score))
    if score[k] < 0.25:
        return None
    return float(offs[i[k]])


def _robust_curve(t: np.ndarray, v: np.ndarray, deg: int = 2) -> np.ndarray | None:
    ok = np.isfinite(v)
    if ok.sum() < 6:
        return None
    keep = ok.copy()
    for _ in range(3):
        coef = np.polyfit(t[keep], v[keep], deg)
        resid = np.abs(np.polyval(coef, t) - v)
        new = ok & (resid < max(1.0, 2.5 * np.median(resid[keep])))
        if new.sum() < 6 or np.array_equal(new, keep):
            break
        keep = new
    return np.polyval(coef, t)


class _ShiftedBoxes:
    """What both warps share: a cell box moves by the warp's shift at the box's centre."""

    def shift(self, x: float, y: float) -> tuple[float, float]:
        raise NotImplementedError

    def box(self, box: tuple[float, float, float]) -> tuple[float, float, float]:
        """A square (x, y, size) moved by the shift at its centre."""
        x, y, s = box
        dx, dy = self.shift(x + s / 2, y + s / 2)
        return x + dx, y + dy, s


@dataclass(frozen=True)
class GridWarp(_ShiftedBoxes):
    """Smooth per-point shifts (canonical px) measured from the border; zero everywhere when unmeasured."""

    canon: Canon
    t: np.ndarray  # sample fractions along each side
    sides: dict[str, np.ndarray] | None  # outward shift of each side at `t`

    def shift(self, x: float, y: float) -> tuple[float, float]:
        """(dx, dy) for a canonical point; outside the grid the nearest side's curve is continued."""
        if self.sides is None:
            return 0.0, 0.0
        x0, y0, x1, y1 = self.canon.grid_box()
        u = float(np.clip((x - x0) / (x1 - x0), 0, 1))
        v = float(np.clip((y - y0) / (y1 - y0), 0, 1))
        top = -np.interp(u, self.t, self.sides["top"])
        bottom = np.interp(u, self.t, self.sides["bottom"])
        left = -np.interp(v, self.t, self.sides["left"])
        right = np.interp(v, self.t, self.sides["right"])
        return (1 - u) * left + u * right, (1 - v) * top + v * bottom

    @property
    def measured(self) -> bool:
        return self.sides is not None


def fit_grid(ink: np.ndarray, canon: Canon) -> GridWarp:
    """Measure the four border sides every half cell and fit a smooth curve to each."""
    cell = canon.cell_px
    n = int(SEARCH * cell)
    width = BORDER_PT * canon.ppt
    samples = (np.arange(2 * GRID_SIZE) + 0.5) / (2 * GRID_SIZE)
    fine = np.linspace(0, 1, 45)
    out = {}
    for side in ("top", "bottom", "left", "right"):
        vals = np.full(len(samples), np.nan)
        for k, t in enumerate(samples):
            offs, prof = _side_profile(ink, canon, side, t, cell / 4, n)
            pos = _find_border(offs, prof, width)
            if pos is not None:
                vals[k] = pos
        curve = _robust_curve(samples, vals)
        if curve is None:
            return GridWarp(canon, fine, None)
        coef = np.polyfit(samples, curve, 2)
        fitted = np.polyval(coef, fine)
        if np.abs(fitted).max() > MAX_SHIFT * cell:
            return GridWarp(canon, fine, None)
        out[side] = fitted
    return GridWarp(canon, fine, out)


def cell_offsets(warp: GridWarp) -> np.ndarray:
    """11×11×2 (dx, dy) canonical-pixel shifts of every cell centre."""
    off = np.zeros((GRID_SIZE, GRID_SIZE, 2))
    for r in range(GRID_SIZE):
        for c in range(GRID_SIZE):
            x, y, s = warp.canon.cell_box(r, c)
            off[r, c] = warp.shift(x + s / 2, y + s / 2)
    return off


@dataclass(frozen=True)
class MeasuredWarp(_ShiftedBoxes):
    """Per-cell shifts (canonical px) measured from the grid's own lines (`vision.lattice`).

    Hand-ruled grids are uneven and the pad's lines are dashed, so each cell's centre comes from its four
    measured corners; between and beyond the cell centres the shifts are interpolated and then held.
    """

    canon: Canon
    offsets: np.ndarray  # 11×11×2

    def shift(self, x: float, y: float) -> tuple[float, float]:
        x0, y0, x1, y1 = self.canon.grid_box()
        cell = (x1 - x0) / GRID_SIZE
        u = float(np.clip((x - x0) / cell - 0.5, 0, GRID_SIZE - 1))
        v = float(np.clip((y - y0) / cell - 0.5, 0, GRID_SIZE - 1))
        c0, r0 = min(int(u), GRID_SIZE - 2), min(int(v), GRID_SIZE - 2)
        fu, fv = u - c0, v - r0
        o = self.offsets
        d = ((1 - fu) * (1 - fv) * o[r0, c0] + fu * (1 - fv) * o[r0, c0 + 1] + (1 - fu) * fv * o[r0 + 1, c0]
             + fu * fv * o[r0 + 1, c0 + 1])
        return float(d[0]), float(d[1])

    @property
    def measured(self) -> bool:
        return True


def warp_from_centres(canon: Canon, page_to_image: np.ndarray, centres: np.ndarray,
                      max_shift: float = 0.45) -> MeasuredWarp:
    """The per-cell shifts that move our canonical cells onto measured cell centres (11×11×2 image px)."""
    from vision.rectify import canon_to_image

    M = np.linalg.inv(canon_to_image(canon, page_to_image))
    pts = np.asarray(centres, np.float64).reshape(1, -1, 2)
    den = M[2, 0] * pts[..., 0] + M[2, 1] * pts[..., 1] + M[2, 2]
    cx = (M[0, 0] * pts[..., 0] + M[0, 1] * pts[..., 1] + M[0, 2]) / den
    cy = (M[1, 0] * pts[..., 0] + M[1, 1] * pts[..., 1] + M[1, 2]) / den
    got = np.stack([cx, cy], axis=-1).reshape(GRID_SIZE, GRID_SIZE, 2)
    ideal = np.array([[[x + s / 2, y + s / 2] for x, y, s in (canon.cell_box(r, c) for c in range(GRID_SIZE))]
                      for r in range(GRID_SIZE)])
    off = got - ideal
    lim = max_shift * canon.cell_px
    off = np.where(np.abs(off) <= lim, off, 0.0)
    return MeasuredWarp(canon, off)


def centres_in_photo(canon: Canon, page_to_image: np.ndarray, offsets: np.ndarray, scale: float) -> np.ndarray:
    """11×11×2 cell centres in the original photo's pixels (upright), from the canonical cells and shifts."""
    from vision.rectify import canon_to_image

    ideal = np.array([[[x + s / 2, y + s / 2] for x, y, s in (canon.cell_box(r, c) for c in range(GRID_SIZE))]
                      for r in range(GRID_SIZE)]) + offsets
    M = canon_to_image(canon, page_to_image)
    pts = cv2.perspectiveTransform(ideal.reshape(1, -1, 2).astype(np.float64), M)[0]
    return pts.reshape(GRID_SIZE, GRID_SIZE, 2) / scale
