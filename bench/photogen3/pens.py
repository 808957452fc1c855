"""Pens, pencils and how their lines look on paper."""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from .page import Page, ink
from .rand import pick, uni
from .texture import smooth_noise


@dataclass
class Pen:
    kind: str  # ballpoint | fineliner | pencil (graphite) | colour-pencil | felttip | marker | crayon
    colour: tuple[float, float, float]
    width_mm: float
    opacity: float = 0.9
    pressure: float = 0.7

    def as_dict(self) -> dict:
        return asdict(self)


def line_pen(rng: np.random.Generator, kinds=("ballpoint", "fineliner", "pencil")) -> Pen:
    """A pen a player might rule a grid or write with."""
    kind = pick(rng, list(kinds))
    if kind == "ballpoint":
        colour = pick(rng, [(uni(rng, 0.1, 0.22), uni(rng, 0.15, 0.3), uni(rng, 0.45, 0.7)),
                            (uni(rng, 0.08, 0.15),) * 3], [0.7, 0.3])
        return Pen(kind, colour, uni(rng, 0.2, 0.38), uni(rng, 0.75, 0.95))
    if kind == "fineliner":
        colour = pick(rng, [(0.08, 0.08, 0.1), (0.1, 0.15, 0.45)], [0.75, 0.25])
        return Pen(kind, colour, uni(rng, 0.25, 0.5), uni(rng, 0.9, 0.98))
    g = uni(rng, 0.2, 0.38)
    return Pen("pencil", (g, g, g * 1.03), uni(rng, 0.3, 0.5), uni(rng, 0.55, 0.85), uni(rng, 0.45, 0.95))


def pencil_deposit(tooth: np.ndarray, pressure: float) -> np.ndarray:
    """How much graphite or pigment the paper's tooth takes at a pressure in [0, 1]."""
    t0 = 0.8 - 0.8 * pressure
    return np.clip((tooth - t0) * (1.0 / 0.55) + 0.5, 0.0, 1.0) * np.float32(0.5 + 0.5 * pressure)


def apply(page: Page, mask: np.ndarray, pen: Pen, rng: np.random.Generator, origin: tuple[int, int] = (0, 0),
          pressure: float | None = None) -> None:
    """Put a drawn mask (uint8 patch at `origin`) on the page the way `pen` leaves it."""
    a = mask.astype(np.float32) * (1.0 / 255.0)
    h, w = a.shape
    ox, oy = origin
    if pen.kind in ("pencil", "colour-pencil", "crayon"):
        H, W = page.shape
        x0, y0 = max(0, ox), max(0, oy)
        x1, y1 = min(W, ox + w), min(H, oy + h)
        if x1 <= x0 or y1 <= y0:
            return
        tooth = np.full((h, w), 0.5, np.float32)
        tooth[y0 - oy:y1 - oy, x0 - ox:x1 - ox] = page.tooth[y0:y1, x0:x1]
        a *= pencil_deposit(tooth, pen.pressure if pressure is None else pressure)
    elif pen.kind == "ballpoint":
        skips = smooth_noise(rng, h, w, max(2.0, 1.2 * page.ppm))
        a *= np.clip(1.0 - 0.3 * np.maximum(skips - 0.4, 0.0), 0.4, 1.0)
    ink(page, a, pen.colour, pen.opacity, origin=origin)
