"""A bad map in the page's language: the board's stable error codes (not its English sentences) become words.

The square is named as the sheet and the editor name it (B4), and terrains by their Turkish or English names.
"""

from __future__ import annotations

from flask_babel import gettext as _

from companion.cartographers.board import BoardError, cell_name

from .ui import terrain_name


def map_error_message(exc: BoardError) -> str:
    p = exc.params
    cell = cell_name(exc.row, exc.col) if exc.row is not None and exc.col is not None else ""
    if exc.code == "grid_rows":
        return _("The map must have 11 rows.")
    if exc.code == "row_cells":
        return _("Row %(row)s must have 11 squares.", row=p.get("row", ""))
    if exc.code == "unknown_terrain":
        return _("%(cell)s: this is not a terrain.", cell=cell)
    if exc.code == "printed_here":
        return _("%(cell)s: side %(side)s has a printed %(printed)s here, not %(terrain)s.", cell=cell,
                 side=p["side"], printed=terrain_name(p["printed"]), terrain=terrain_name(p["terrain"]))
    if exc.code == "not_printed":
        return _("%(cell)s: side %(side)s has no printed %(terrain)s here.", cell=cell, side=p["side"],
                 terrain=terrain_name(p["terrain"]))
    return _("The map is not valid: %(why)s", why=str(exc))
