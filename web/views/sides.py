"""A table's own map side: paint its printed features, name it, then play, print or score on it.

The side is not stored anywhere: its code (see `companion.cartographers.sides`) is
the side, so the links below carry everything the other pages need.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, render_template, request
from flask_babel import gettext as _

from companion.cartographers.sides import SideError, encode_side, is_custom, normalise_side, side_layout
from companion.cartographers.terrain import Terrain

from ..errors import UserError
from ..mapdata import side_data

bp = Blueprint("sides", __name__)
FEATURES = ("mountain", "ruins", "wasteland", "forest", "village", "farm", "water", "monster")


def _layout_from_form(form: Any) -> str:
    name = str(form.get("name") or "").strip()
    try:
        cells = json.loads(form.get("cells") or "{}")
    except ValueError:
        raise UserError(400, "bad_side", _("The side could not be read. Please try again.")) from None
    if not isinstance(cells, dict):
        raise UserError(400, "bad_side", _("The side could not be read. Please try again."))
    kinds: dict[str, list] = {k: [] for k in ("mountain", "ruins", "wasteland")}
    predrawn = []
    for key, what in cells.items():
        try:
            r, c = (int(x) for x in str(key).split(","))
        except ValueError:
            raise UserError(400, "bad_side", _("The side could not be read. Please try again.")) from None
        if what in kinds:
            kinds[what].append((r, c))
        elif what in FEATURES:
            predrawn.append(((r, c), Terrain(what)))
    try:
        return encode_side(name, kinds["mountain"], kinds["ruins"], kinds["wasteland"], predrawn)
    except SideError as exc:
        raise UserError(400, "bad_side", _("This side cannot be used: %(why)s", why=str(exc))) from None


@bp.get("/sides/new")
def new() -> str:
    """The side editor; `?side=<code>` opens an existing own side to change it."""
    start: dict[str, Any] = {"name": "", "cells": {}}
    code = normalise_side(request.args.get("side") or "")
    if is_custom(code):
        try:
            m = side_layout(code)
        except SideError:
            raise UserError(400, "bad_side", _("This map side is not known.")) from None
        cells = {f"{r},{c}": "mountain" for r, c in m.mountains}
        cells.update({f"{r},{c}": "ruins" for r, c in m.ruins})
        cells.update({f"{r},{c}": "wasteland" for r, c in m.wastelands})
        cells.update({f"{r},{c}": t.value for (r, c), t in m.predrawn})
        start = {"name": m.name_en, "cells": cells}
    return render_template("carto/side.html", features=FEATURES, start=start, code=None)


@bp.post("/sides/new")
def create() -> str:
    code = _layout_from_form(request.form)
    return render_template("carto/side.html", features=FEATURES, start=None, code=code, side=side_data(code))
