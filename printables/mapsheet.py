"""The Cartographers map sheet PDF, drawn to be played on with a pencil AND read back by a camera.

Design choices that serve the photo reader (see `vision/`):
- every position comes from `layout.sheet_layout()`, printed true to scale
  (page size = paper size, no scaling), so a rectified photo maps straight onto it;
- grid cells stay white; grid lines are thin and light, the outer border thick
  and dark, so a player's drawing is what stands out;
- printed features are distinct from anything a pencil makes: mountains are a
  dark two-peak silhouette (not a filled square: that decodes as an ArUco
  marker), wastelands are hatched (both are known from the side), and ruins
  (which players draw over) keep a white cell with only a small grey glyph in
  the corner and a light dashed inset outline;
- four ArUco markers (ids from the layout) sit outside the grid corners with a
  white quiet zone, and a per-copy QR code names the side and the sheet.

Everything that is the same on every copy is drawn once into a PDF form XObject
and re-used per page; only the QR code and the id line differ, so 100 copies stay
fast and small.
"""

from __future__ import annotations

import io
import secrets
from functools import cache

import qrcode
from qrcode.constants import ERROR_CORRECT_M
from reportlab.pdfgen.canvas import Canvas

from companion.cartographers.data import SEASONS, seasons_differ_from_base
from companion.cartographers.sides import SideError, card_set_for, is_custom, normalise_side, side_label, side_layout
from companion.cartographers.terrain import TERRAIN_NAMES, Terrain

from .draw import Page, new_canvas
from .layout import ARUCO_DICT, PAPERS, SIDES, Rect, SheetLayout, qr_payload, sheet_layout
from .strings import LANGS, season_title, text

# Ink (grey levels, 0 = black, 1 = white).
GRID_GREY = 0.58
GRID_LINE_PT = 0.5
BORDER_GREY = 0.08
BORDER_PT = 2.0  # centred on the grid's outer edge
MOUNTAIN_GREY = 0.22
WASTE_FILL_GREY = 0.86
WASTE_HATCH_GREY = 0.45
RUINS_GREY = 0.6
LABEL_GREY = 0.42

QR_QUIET_MODULES = 2  # inside the layout's qr rect; the page around it is blank as well
SHEET_ID_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: an id can be typed from the id line
SHEET_ID_LEN = 12  # 60 bits: unguessable, and short enough for a small QR code
MAX_COPIES = 1000


def new_sheet_id() -> str:
    """A random sheet id (60 bits from `secrets`), so a sheet's QR cannot be guessed from another's."""
    return "".join(secrets.choice(SHEET_ID_ALPHABET) for _ in range(SHEET_ID_LEN))


def map_sheet_pdf(
    side: str = "A",
    paper: str = "a4",
    lang: str = "en",
    copies: int = 1,
    sheet_ids: list[str] | None = None,
    table: str | None = None,
    seats: list[int] | None = None,
    names: list[str] | None = None,
) -> bytes:
    """A PDF with one map sheet per copy, each with its own QR payload `qr_payload(side, id, table, seat)`.

    `sheet_ids`, when given, fixes the ids (and the page count: `copies` must be 1
    or equal its length); otherwise fresh random ids are made. With a `table`
    code each page also carries a seat (`seats[i]`, default 1, 2, 3, ...), so a
    photographed sheet tells the web app whose map it is; `names` (one per page, in
    seat order) are written on the page's Cartographer line, so each player takes their own.
    """
    side, paper, lang = _check_common(side, paper, lang)
    if sheet_ids is not None:
        sheet_ids = [str(s) for s in sheet_ids]
        if not sheet_ids:
            raise ValueError("sheet_ids is empty")
        if copies not in (1, len(sheet_ids)):
            raise ValueError(f"copies={copies} does not match {len(sheet_ids)} sheet ids")
        for sid in sheet_ids:
            if not sid or ":" in sid or not sid.isprintable():
                raise ValueError(f"bad sheet id {sid!r} (must be non-empty, printable, without ':')")
        copies = len(sheet_ids)
    if not 1 <= copies <= MAX_COPIES:
        raise ValueError(f"copies must be between 1 and {MAX_COPIES}, got {copies}")
    ids = sheet_ids or [new_sheet_id() for _ in range(copies)]
    if table is not None and (not table or ":" in table):
        raise ValueError(f"bad table code {table!r}")
    if seats is not None:
        if table is None:
            raise ValueError("seats need a table code")
        if len(seats) != copies:
            raise ValueError(f"{len(seats)} seats for {copies} copies")
    elif table is not None:
        seats = list(range(1, copies + 1))
    if names is not None:
        names = [str(n) for n in names]
        if len(names) != copies:
            raise ValueError(f"{len(names)} names for {copies} copies")

    layout = sheet_layout(side, paper)
    buf = io.BytesIO()
    c = new_canvas(buf, (layout.page_w_pt, layout.page_h_pt))
    c.setTitle(f"Cartographers map sheet {side} ({paper})")
    c.setAuthor("Mapsmith")
    c.setCreator("Mapsmith printables")
    c.beginForm("sheet")
    _draw_static(c, layout, lang)
    c.endForm()
    for i, sid in enumerate(ids):
        seat = seats[i] if seats is not None else None
        c.doForm("sheet")
        _draw_qr(c, layout, qr_payload(side, sid, table, seat))
        _draw_footer(c, layout, lang, sid, table, seat)
        if names is not None:
            _draw_name(Page(c, layout.page_h_pt), layout, lang, names[i])
        c.showPage()
    c.save()
    return buf.getvalue()


def _check_common(side: str, paper: str, lang: str) -> tuple[str, str, str]:
    side, paper, lang = normalise_side(side), str(paper).lower(), str(lang).lower()
    if side not in SIDES:
        try:
            side_layout(side)
        except SideError:
            raise ValueError(f"unknown side {side!r} (expected one of: {', '.join(SIDES)}, or a table's own "
                             "side code)") from None
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r} (expected one of: {', '.join(PAPERS)})")
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r} (expected one of: {', '.join(LANGS)})")
    return side, paper, lang


# --------------------------------------------------------------------------- drawing helpers


@cache
def aruco_bits(marker_id: int) -> tuple[tuple[bool, ...], ...]:
    """The 6×6 module pattern (black border included) of an ArUco marker, True = black."""
    import cv2  # deferred: only the map sheet needs OpenCV, not the score sheets

    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICT))
    img = cv2.aruco.generateImageMarker(dictionary, marker_id, 6, borderBits=1)
    return tuple(tuple(bool(v < 128) for v in row) for row in img)


def qr_matrix(payload: str) -> list[list[bool]]:
    """The QR module matrix of `payload`, quiet zone included (error correction M, smallest version).

    The smallest version gives the largest modules for a fixed print size, which
    matters more for phone photos than anything else. Note for readers: OpenCV's
    plain `QRCodeDetector` misses ~1-2 % of even perfectly rendered codes
    (pattern-dependent); `QRCodeDetectorAruco` read all of 1,500 test codes.
    """
    qr = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=QR_QUIET_MODULES)
    qr.add_data(payload)
    qr.make(fit=True)
    return qr.get_matrix()


# --------------------------------------------------------------------------- the static sheet


def _draw_static(c: Canvas, layout: SheetLayout, lang: str) -> None:
    pg = Page(c, layout.page_h_pt)
    _draw_title(pg, layout, lang)
    _draw_grid(pg, layout)
    _draw_markers(pg, layout)
    _draw_legend(pg, layout, lang)
    _draw_coins(pg, layout, lang)
    _draw_scores(pg, layout, lang)


def _draw_title(pg: Page, layout: SheetLayout, lang: str) -> None:
    t: Rect = layout.title
    m = side_layout(layout.side)
    name = m.name_tr if lang == "tr" else m.name_en
    w = pg.text(t.x_pt, t.y_pt + 18, text(lang, "cartographers"), 19, bold=True, grey=0.05)
    label = text(lang, "own_side", name=name) if is_custom(layout.side) else text(lang, "side", side=layout.side,
                                                                                   name=name)
    pg.text(t.x_pt + w + 10, t.y_pt + 18, label, 12, grey=0.25)
    # Name and map-title write-in lines.
    base = t.y_pt + 46
    c = pg.c
    split = t.x_pt + t.w_pt * 0.55
    c.setStrokeGray(0.35)
    c.setLineWidth(0.6)
    lw = pg.text(t.x_pt, base, text(lang, "cartographer") + ":", 9.5, grey=0.2)
    pg.line(t.x_pt + lw + 4, base + 1.5, split - 12, base + 1.5)
    lw = pg.text(split, base, text(lang, "map_title") + ":", 9.5, grey=0.2)
    pg.line(split + lw + 4, base + 1.5, t.x_pt + t.w_pt, base + 1.5)
    pg.text(t.x_pt, t.y_pt + t.h_pt - 12, text(lang, "print_note"), 6.5, grey=0.45)


def _draw_name(pg: Page, layout: SheetLayout, lang: str, name: str) -> None:
    """The player's name on the Cartographer line (a per-page part: the static sheet is shared)."""
    t: Rect = layout.title
    base = t.y_pt + 46
    label_w = pg.c.stringWidth(text(lang, "cartographer") + ":", pg.regular, 9.5)
    room = t.w_pt * 0.55 - 12 - label_w - 10
    pg.text(t.x_pt + label_w + 8, base - 1, name, pg.fit_size(name, 13, room, bold=True), bold=True, grey=0.0)


def _draw_grid(pg: Page, layout: SheetLayout) -> None:
    c = pg.c
    g = layout.grid
    n = layout.rows
    size = g.cell_pt * n
    m = side_layout(layout.side)

    # Wastelands: light fill with diagonal hatching, clipped to the wasteland cells.
    if m.wastelands:
        c.saveState()
        clip = c.beginPath()
        for r, col in m.wastelands:
            cell = layout.cell_rect(r, col)
            clip.rect(cell.x_pt, pg.y(cell.y_pt + cell.h_pt), cell.w_pt, cell.h_pt)
        c.clipPath(clip, stroke=0, fill=0)
        c.setFillGray(WASTE_FILL_GREY)
        for r, col in m.wastelands:
            cell = layout.cell_rect(r, col)
            pg.rect(cell.x_pt, cell.y_pt, cell.w_pt, cell.h_pt, stroke=False, fill=True)
        c.setStrokeGray(WASTE_HATCH_GREY)
        c.setLineWidth(0.8)
        step = g.cell_pt / 6
        rows = [r for r, _ in m.wastelands]
        cols = [col for _, col in m.wastelands]
        x0 = g.x_pt + min(cols) * g.cell_pt
        x1 = g.x_pt + (max(cols) + 1) * g.cell_pt
        y0 = g.y_pt + min(rows) * g.cell_pt
        y1 = g.y_pt + (max(rows) + 1) * g.cell_pt
        k = -(y1 - y0)
        while k < x1 - x0:
            pg.line(x0 + k, y1, x0 + k + (y1 - y0), y0)
            k += step
        c.restoreState()

    # Mountains: solid dark cells with a white peak and the coin you earn by surrounding them.
    for r, col in m.mountains:
        cell = layout.cell_rect(r, col)
        _draw_mountain(pg, cell)

    # Ruins: the cell stays white (players draw over it): small glyph in the corner, dashed inset outline.
    for r, col in m.ruins:
        cell = layout.cell_rect(r, col)
        _draw_ruins(pg, cell)

    # Pre-drawn terrains (a table's own side): a light grey cell with the terrain's initial, printed not drawn.
    for (r, col), t in m.predrawn:
        cell = layout.cell_rect(r, col)
        c.setFillGray(0.86)
        pg.rect(cell.x_pt + 2, cell.y_pt + 2, cell.w_pt - 4, cell.h_pt - 4, stroke=False, fill=True)
        pg.text(cell.x_pt + cell.w_pt / 2, cell.y_pt + cell.h_pt * 0.68, t.value[0].upper(), cell.h_pt * 0.5,
                bold=True, align="center", grey=0.45)

    # Thin light grid lines, then the thick dark border centred on the grid's outer edge.
    c.setStrokeGray(GRID_GREY)
    c.setLineWidth(GRID_LINE_PT)
    c.setLineCap(0)
    for i in range(1, n):
        x = g.x_pt + i * g.cell_pt
        y = g.y_pt + i * g.cell_pt
        pg.line(x, g.y_pt, x, g.y_pt + size)
        pg.line(g.x_pt, y, g.x_pt + size, y)
    c.setStrokeGray(BORDER_GREY)
    c.setLineWidth(BORDER_PT)
    c.setLineJoin(0)
    pg.rect(g.x_pt, g.y_pt, size, size)

    # Row letters A–K on the left, column numbers 1–11 on top (small, grey, outside the grid).
    for i in range(n):
        cy = g.y_pt + (i + 0.5) * g.cell_pt
        pg.text(g.x_pt - 5, cy + 2.5, chr(ord("A") + i), 7, align="right", grey=LABEL_GREY)
        cx = g.x_pt + (i + 0.5) * g.cell_pt
        pg.text(cx, g.y_pt - 4.5, str(i + 1), 7, align="center", grey=LABEL_GREY)


def _draw_mountain(pg: Page, cell: Rect) -> None:
    """A dark two-peak silhouette with snow caps on a white cell.

    Deliberately NOT a filled dark square: a dark square with white shapes inside
    is exactly what an ArUco detector looks for (a solid mountain cell decoded as
    marker 37 in testing), and the photo reader must never see extra markers.
    """
    c = pg.c
    s = cell.w_pt

    def poly(points: list[tuple[float, float]]) -> None:
        p = c.beginPath()
        x0, y0 = points[0]
        p.moveTo(cell.x_pt + x0 * s, pg.y(cell.y_pt + y0 * s))
        for x, y in points[1:]:
            p.lineTo(cell.x_pt + x * s, pg.y(cell.y_pt + y * s))
        p.close()
        c.drawPath(p, stroke=0, fill=1)

    c.setFillGray(MOUNTAIN_GREY)
    poly([(0.06, 0.90), (0.36, 0.16), (0.55, 0.50), (0.70, 0.30), (0.94, 0.90)])
    c.setFillGray(1)
    # Snow caps: small white triangles under each peak, with a jagged lower edge.
    poly([(0.36, 0.16), (0.45, 0.38), (0.40, 0.34), (0.36, 0.40), (0.32, 0.34), (0.27, 0.38)])
    poly([(0.70, 0.30), (0.77, 0.45), (0.73, 0.42), (0.70, 0.47), (0.66, 0.42), (0.63, 0.45)])
    # The coin for surrounding the mountain, top-right.
    c.setStrokeGray(MOUNTAIN_GREY)
    c.setLineWidth(0.9)
    pg.circle(cell.x_pt + 0.84 * s, cell.y_pt + 0.17 * s, 0.09 * s)


def _draw_ruins(pg: Page, cell: Rect) -> None:
    c = pg.c
    s = cell.w_pt
    # Dashed inset outline.
    c.setStrokeGray(0.72)
    c.setLineWidth(0.6)
    c.setDash(2, 2)
    inset = 3.0
    pg.rect(cell.x_pt + inset, cell.y_pt + inset, s - 2 * inset, s - 2 * inset)
    c.setDash()
    # Tiny temple glyph in the top-left corner: pediment, three columns, base.
    gx, gy, gw = cell.x_pt + 5.0, cell.y_pt + 5.0, 0.27 * s
    c.setFillGray(RUINS_GREY)
    p = c.beginPath()
    p.moveTo(gx, pg.y(gy + 0.28 * gw))
    p.lineTo(gx + gw / 2, pg.y(gy))
    p.lineTo(gx + gw, pg.y(gy + 0.28 * gw))
    p.close()
    c.drawPath(p, stroke=0, fill=1)
    col_w = 0.16 * gw
    for k in range(3):
        cx = gx + 0.08 * gw + k * (gw - 0.16 * gw - col_w) / 2
        # The right column is broken: it is a ruin.
        h = 0.55 * gw if k < 2 else 0.35 * gw
        pg.rect(cx, gy + 0.34 * gw + (0.55 * gw - h), col_w, h, stroke=False, fill=True)
    pg.rect(gx, gy + 0.92 * gw, gw, 0.1 * gw, stroke=False, fill=True)


def _draw_markers(pg: Page, layout: SheetLayout) -> None:
    pg.c.setFillGray(0)
    for mk in layout.markers:
        bits = aruco_bits(mk.id)
        pg.run_path(bits, mk.x_pt, mk.y_pt, mk.size_pt / len(bits))


def _draw_legend(pg: Page, layout: SheetLayout, lang: str) -> None:
    c = pg.c
    cells = layout.legend
    first, last = cells[0], cells[-1]
    mid = (first.x_pt + last.x_pt + last.cell_pt) / 2
    header = text(lang, "legend_header")
    size = pg.fit_size(header, 8.5, layout.grid_size_pt + 60)
    pg.text(mid, first.y_pt - 8, header, size, align="center", grey=0.2)
    c.setStrokeGray(0.3)
    c.setLineWidth(0.9)
    for cell in cells:
        pg.rect(cell.x_pt, cell.y_pt, cell.cell_pt, cell.cell_pt)
        label = TERRAIN_NAMES[Terrain(cell.terrain)][lang]
        pg.text(cell.x_pt + cell.cell_pt / 2, cell.y_pt + cell.cell_pt + 10, label, 8.5, bold=True,
                align="center", grey=0.1)


def _draw_coins(pg: Page, layout: SheetLayout, lang: str) -> None:
    c = pg.c
    first = layout.coins[0]
    left = layout.marker("bottom_left").x_pt
    pg.text(left, first.y_pt + first.d_pt / 2 + 3, text(lang, "coins"), 8.5, bold=True, grey=0.1)
    for coin in layout.coins:
        r = coin.d_pt / 2
        cx, cy = coin.x_pt + r, coin.y_pt + r
        c.setStrokeGray(0.3)
        c.setLineWidth(0.9)
        pg.circle(cx, cy, r)
        c.setStrokeGray(0.78)
        c.setLineWidth(0.5)
        pg.circle(cx, cy, r * 0.72)


def _draw_scores(pg: Page, layout: SheetLayout, lang: str) -> None:
    c = pg.c
    by_season: dict[int, list] = {}
    for b in layout.score_boxes:
        by_season.setdefault(b.season, []).append(b)
    for s, boxes in sorted(by_season.items()):
        x0 = boxes[0].x_pt
        x1 = boxes[-1].x_pt + boxes[-1].w_pt
        top = boxes[0].y_pt
        if s >= 0:
            cs = card_set_for(layout.side)
            title = season_title(lang, cs.seasons[s], seasons_differ_from_base(cs))
            size = pg.fit_size(title, 8, x1 - x0, bold=True)
            pg.text((x0 + x1) / 2, top - 16, title, size, bold=True, align="center", grey=0.1)
        else:
            pg.text((x0 + x1) / 2, top - 16, text(lang, "game_total"), 7.5, bold=True, align="center", grey=0.1)
        for b in boxes:
            label = _box_label(s, b.field)
            if label:
                # dark and large enough to survive a pale printer: the ☠ column is read at the table
                pg.text(b.x_pt + b.w_pt / 2, top - 4, label, 10 if b.field == "monsters" else 8,
                        bold=b.field.startswith("edict"), align="center", grey=0.05)
            if b.field == "monsters" and s >= 0:  # the penalty is subtracted: the minus is printed
                pg.text(b.x_pt + 3, b.y_pt + b.h_pt / 2 + 3, "−", 10, bold=True, grey=0.25)
            c.setStrokeGray(0.15 if b.field == "total" else 0.35)
            c.setLineWidth(1.6 if s < 0 else (1.1 if b.field == "total" else 0.8))
            pg.rect(b.x_pt, b.y_pt, b.w_pt, b.h_pt)
    last = layout.score_boxes[-1]
    key = text(lang, "score_key")
    left = layout.marker("bottom_left").x_pt
    pg.text(left, last.y_pt + last.h_pt + 10, key, 6.5, grey=0.4)


EDICT_PAIRS = tuple(s.edicts for s in SEASONS)  # every set scores A+B, B+C, C+D, D+A


def _box_label(season: int, field: str) -> str:
    if season < 0:
        return ""
    if field in ("edict1", "edict2"):
        return EDICT_PAIRS[season][0 if field == "edict1" else 1]
    return {"coins": "●", "monsters": "☠", "total": "★"}[field]


# --------------------------------------------------------------------------- per-copy parts


def _draw_qr(c: Canvas, layout: SheetLayout, payload: str) -> None:
    pg = Page(c, layout.page_h_pt)
    matrix = qr_matrix(payload)
    q = layout.qr
    c.setFillGray(0)
    pg.run_path(matrix, q.x_pt, q.y_pt, q.w_pt / len(matrix))


def _draw_footer(c: Canvas, layout: SheetLayout, lang: str, sheet_id: str, table: str | None,
                 seat: int | None) -> None:
    """The sheet's identity in words, under the title (so a sheet can be told apart without the camera)."""
    pg = Page(c, layout.page_h_pt)
    parts = [f"Mapsmith · {text(lang, 'sheet')} {side_label(layout.side)}-{sheet_id}"]
    if table is not None:
        parts.append(f"{text(lang, 'table')} {table} · {text(lang, 'seat')} {seat}")
    t = layout.title
    pg.text(t.x_pt, t.y_pt + t.h_pt - 2, " · ".join(parts), 6.5, grey=0.45)
