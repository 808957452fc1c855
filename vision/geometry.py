"""Canonical (rectified) image geometry derived from `printables.layout` — nothing is measured by hand.

The canonical image is the printed page seen straight from above at
`CANON_PPT` pixels per PDF point, cropped to the part of the page the reader
needs (from the top of the page down to just below the coin track).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.cartographers.data import GRID_SIZE
from companion.cartographers.sides import side_layout
from printables.layout import SheetLayout, sheet_layout

CANON_PPT = 1.5  # 38 pt cells become 57 px: plenty for colour and symbols, cheap to process


@dataclass(frozen=True)
class Canon:
    """Pixel geometry of the canonical image for one side/paper."""

    layout: SheetLayout
    ppt: float = CANON_PPT

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in pixels: full page width, down to below the coins."""
        lay = self.layout
        bottom = max(c.y_pt + c.d_pt for c in lay.coins) + 12
        return round(lay.page_w_pt * self.ppt), round(bottom * self.ppt)

    @property
    def cell_px(self) -> float:
        return self.layout.grid.cell_pt * self.ppt

    def px(self, v_pt: float) -> float:
        return v_pt * self.ppt

    def cell_box(self, row: int, col: int) -> tuple[float, float, float]:
        """(x, y, size) of a grid cell in canonical pixels."""
        g = self.layout.grid
        return ((g.x_pt + col * g.cell_pt) * self.ppt, (g.y_pt + row * g.cell_pt) * self.ppt, self.cell_px)

    def legend_boxes(self) -> dict[str, tuple[float, float, float]]:
        return {c.terrain: (c.x_pt * self.ppt, c.y_pt * self.ppt, c.cell_pt * self.ppt) for c in self.layout.legend}

    def grid_box(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of the grid's outer edge in canonical pixels."""
        g = self.layout.grid
        s = g.cell_pt * GRID_SIZE
        return g.x_pt * self.ppt, g.y_pt * self.ppt, (g.x_pt + s) * self.ppt, (g.y_pt + s) * self.ppt

    def page_to_canon(self) -> np.ndarray:
        """3×3 matrix from page points to canonical pixels."""
        return np.diag([self.ppt, self.ppt, 1.0])


def canon_for(side: str, paper: str = "a4") -> Canon:
    return Canon(sheet_layout(side, paper))


def printed_cells(side: str) -> dict[tuple[int, int], str]:
    """Cells whose terrain is printed, not drawn: mountains, wastelands and pre-drawn terrains of the side."""
    m = side_layout(side)
    out = {tuple(c): "mountain" for c in m.mountains}
    out.update({tuple(c): "wasteland" for c in m.wastelands})
    out.update({tuple(c): t.value for c, t in m.predrawn})
    return out


def half_turn_symmetric(side: str) -> bool:
    """Whether a half turn puts the side's printed cells and ruins on themselves (side A): its reading turned a
    half round (`SheetReading.turned_half`) is then a reading of the same side."""
    n = GRID_SIZE - 1
    printed = printed_cells(side)
    turned = {(n - r, n - c): t for (r, c), t in printed.items()}
    ruins = ruins_cells(side)
    return turned == printed and {(n - r, n - c) for r, c in ruins} == ruins


def ruins_cells(side: str) -> set[tuple[int, int]]:
    return {tuple(c) for c in side_layout(side).ruins}
