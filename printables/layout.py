"""Sheet geometry: the single source of truth shared by the PDF drawing and the vision pipeline.

All coordinates are in PDF points (1/72 inch) measured from the page's TOP-LEFT
corner, x to the right and y downwards, and every x/y is the top-left corner of
the thing it places. ReportLab's origin is bottom-left, so the drawing code
converts with `page_h_pt - y`; nothing else should know about that flip.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import cache

from companion.cartographers.data import COIN_TRACK_LENGTH, GRID_SIZE, MAPS
from companion.cartographers.sides import CUSTOM_PREFIX, SideError, is_custom, side_layout
from companion.cartographers.terrain import DRAWABLE

MM = 72 / 25.4

PAPERS: dict[str, tuple[float, float]] = {
    "a4": (595.2756, 841.8898),
    "letter": (612.0, 792.0),
}
SIDES = tuple(MAPS)  # the printed sides of every set: A, B (base) and C, D (Heroes)

# ArUco dictionary and ids: the ids encode the side, so a photo tells its side
# and orientation from the markers alone, even when the QR code is unreadable.
ARUCO_DICT = "DICT_4X4_50"
MARKER_CORNERS = ("top_left", "top_right", "bottom_right", "bottom_left")
MARKER_IDS: dict[str, tuple[int, int, int, int]] = {
    "A": (0, 1, 2, 3), "B": (4, 5, 6, 7), "C": (8, 9, 10, 11), "D": (12, 13, 14, 15),
    CUSTOM_PREFIX: (16, 17, 18, 19),  # every table's own side: the QR code says which one
}

QR_PREFIX = "MS1"


@dataclass(frozen=True)
class Rect:
    x_pt: float
    y_pt: float
    w_pt: float
    h_pt: float


@dataclass(frozen=True)
class Grid:
    x_pt: float
    y_pt: float
    cell_pt: float


@dataclass(frozen=True)
class Marker:
    id: int
    corner: str
    x_pt: float
    y_pt: float
    size_pt: float


@dataclass(frozen=True)
class LegendCell:
    terrain: str
    x_pt: float
    y_pt: float
    cell_pt: float


@dataclass(frozen=True)
class Coin:
    x_pt: float
    y_pt: float
    d_pt: float


@dataclass(frozen=True)
class ScoreBox:
    season: int  # 0..3, or -1 for the game total
    field: str  # edict1, edict2, coins, monsters, total
    x_pt: float
    y_pt: float
    w_pt: float
    h_pt: float


@dataclass(frozen=True)
class SheetLayout:
    side: str
    paper: str
    page_w_pt: float
    page_h_pt: float
    grid: Grid
    markers: tuple[Marker, ...]
    legend: tuple[LegendCell, ...]
    coins: tuple[Coin, ...]
    qr: Rect
    title: Rect
    score_boxes: tuple[ScoreBox, ...]
    rows: int = GRID_SIZE
    cols: int = GRID_SIZE

    def cell_rect(self, row: int, col: int) -> Rect:
        g = self.grid
        return Rect(g.x_pt + col * g.cell_pt, g.y_pt + row * g.cell_pt, g.cell_pt, g.cell_pt)

    @property
    def grid_size_pt(self) -> float:
        return self.grid.cell_pt * GRID_SIZE

    def marker(self, corner: str) -> Marker:
        return next(m for m in self.markers if m.corner == corner)

    def to_dict(self) -> dict:
        """The JSON contract of `mapsmith print layout` (extra keys beyond the contract are allowed)."""
        d = asdict(self)
        d["markers"] = [asdict(m) for m in self.markers]
        d["legend"] = [asdict(c) for c in self.legend]
        d["coins"] = [asdict(c) for c in self.coins]
        d["score_boxes"] = [asdict(b) for b in self.score_boxes]
        d["aruco_dict"] = ARUCO_DICT
        return d


# Design constants (points). Cells of ~13.4 mm are close to the game's own pad.
CELL_PT: dict[str, float] = {"a4": 38.0, "letter": 35.0}
MARKER_PT = 34.0
MARKER_GAP_PT = 8.0  # white space between a marker and the grid's outer border
LEGEND_GAP_PT = 30.0
COIN_D_PT = 20.0
COIN_PITCH_PT = 28.0
SCORE_MARGIN_PT = 24.0  # the season score boxes run between these page margins
QR_PT = 80.0  # large modules (3.2 pt for a short payload) so the QR still reads in a reduced photo


@cache
def sheet_layout(side: str = "A", paper: str = "a4") -> SheetLayout:
    side = side if is_custom(side) else side.upper()
    paper = paper.lower()
    if side not in SIDES and not is_custom(side):
        raise ValueError(f"unknown side {side!r} (expected one of {', '.join(SIDES)})")
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r} (expected one of {', '.join(PAPERS)})")
    page_w, page_h = PAPERS[paper]
    cell = CELL_PT[paper]
    grid_w = cell * GRID_SIZE
    gx = round((page_w - grid_w) / 2, 2)
    top = 24.0
    title = Rect(gx - MARKER_GAP_PT - MARKER_PT, top, grid_w + 2 * (MARKER_GAP_PT + MARKER_PT) - QR_PT - 10, QR_PT)
    qr = Rect(gx + grid_w + MARKER_GAP_PT + MARKER_PT - QR_PT, top, QR_PT, QR_PT)
    gy = top + QR_PT + 14 + MARKER_PT + MARKER_GAP_PT
    grid = Grid(gx, gy, cell)

    off = MARKER_GAP_PT + MARKER_PT
    positions = {
        "top_left": (gx - off, gy - off),
        "top_right": (gx + grid_w + MARKER_GAP_PT, gy - off),
        "bottom_right": (gx + grid_w + MARKER_GAP_PT, gy + grid_w + MARKER_GAP_PT),
        "bottom_left": (gx - off, gy + grid_w + MARKER_GAP_PT),
    }
    markers = tuple(
        Marker(mid, corner, *positions[corner], MARKER_PT)
        for mid, corner in zip(MARKER_IDS[CUSTOM_PREFIX if is_custom(side) else side], MARKER_CORNERS, strict=True)
    )

    legend_y = gy + grid_w + MARKER_GAP_PT + MARKER_PT + LEGEND_GAP_PT
    legend_pitch = grid_w / len(DRAWABLE)
    legend = tuple(
        LegendCell(t.value, round(gx + i * legend_pitch + (legend_pitch - cell) / 2, 2), legend_y, cell)
        for i, t in enumerate(DRAWABLE)
    )

    coins_y = legend_y + cell + 26
    coins_x0 = gx + (grid_w - (COIN_TRACK_LENGTH - 1) * COIN_PITCH_PT - COIN_D_PT) / 2
    coins = tuple(
        Coin(round(coins_x0 + i * COIN_PITCH_PT, 2), coins_y, COIN_D_PT) for i in range(COIN_TRACK_LENGTH)
    )

    # Season score boxes: 4 seasons side by side, each with 5 boxes, then the game total. They span the page
    # between 24 pt margins (wider than the grid and markers, which stay where they are) and are 30 pt tall; the
    # monster box (a printed "−" before the count) and the season total get a wider share, room for "−12".
    boxes_y = coins_y + COIN_D_PT + 24
    fields = ("edict1", "edict2", "coins", "monsters", "total")
    weights = (1.0, 1.0, 1.0, 1.3, 1.3)
    span_x = SCORE_MARGIN_PT
    span_w = page_w - 2 * SCORE_MARGIN_PT
    total_w = 56.0
    season_w = (span_w - total_w - 12) / 4
    unit = (season_w - 8) / sum(weights)
    box_h = 30.0
    score_boxes: list[ScoreBox] = []
    for s in range(4):
        x = span_x + s * season_w
        for f, weight in zip(fields, weights, strict=True):
            score_boxes.append(ScoreBox(s, f, round(x, 2), boxes_y + 14, round(unit * weight, 2), box_h))
            x += unit * weight
    score_boxes.append(ScoreBox(-1, "total", round(span_x + span_w - total_w, 2), boxes_y + 14, total_w, box_h))

    layout = SheetLayout(
        side=side,
        paper=paper,
        page_w_pt=page_w,
        page_h_pt=page_h,
        grid=grid,
        markers=markers,
        legend=legend,
        coins=coins,
        qr=qr,
        title=title,
        score_boxes=tuple(score_boxes),
    )
    bottom = boxes_y + 14 + box_h
    if bottom > page_h - 24:
        raise AssertionError(f"layout overflows the {paper} page: {bottom:.0f} > {page_h - 24:.0f}")
    return layout


def qr_payload(side: str, sheet_id: str, table: str | None = None, seat: int | None = None) -> str:
    """Text stored in a sheet's QR code: `MS1:<side>:<sheet id>[:<table code>:<seat>]`."""
    parts = [QR_PREFIX, side if is_custom(side) else side.upper(), sheet_id]
    if table is not None:
        parts += [table, str(seat if seat is not None else 0)]
    return ":".join(parts)


@dataclass(frozen=True)
class QrInfo:
    side: str
    sheet_id: str
    table: str | None = None
    seat: int | None = None


def parse_qr_payload(text: str) -> QrInfo | None:
    """Inverse of `qr_payload`; None for a QR that is not ours."""
    parts = text.strip().split(":")
    if len(parts) not in (3, 5) or parts[0] != QR_PREFIX:
        return None
    if parts[1] not in SIDES:
        try:
            side_layout(parts[1])  # a table's own side travels in its code
        except SideError:
            return None
    if len(parts) == 5:
        try:
            seat = int(parts[4])
        except ValueError:
            return None
        return QrInfo(parts[1], parts[2], parts[3], seat)
    return QrInfo(parts[1], parts[2])
