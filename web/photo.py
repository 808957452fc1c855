"""Photo upload → `vision.read_sheet` → a reading the review screen can show and correct.

Only images are accepted (by declared type and by the vision loader's own
sniffing, which also refuses pixel bombs); the request size is capped by
MAX_CONTENT_LENGTH. The photo is kept in memory for a few minutes (`web.photostore`)
so that "Which terrain is this?" taps re-read it on the server; it is written to
disk only when the player ticks "Keep this photo and my corrections" — into the
instance folder's `kept-photos/`, never sent anywhere (`mapsmith vision-eval` reads it).
"""

from __future__ import annotations

import base64
import json
import secrets
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Request, current_app
from flask_babel import gettext as _

from companion.cartographers.data import MAPS
from companion.cartographers.sides import is_custom, normalise_side

from .errors import UserError
from .i18n import lang
from .photostore import store

KEPT_FOLDER = "kept-photos"

if TYPE_CHECKING:  # OpenCV and the vision pipeline load with the first photo, keeping the idle server small
    from vision.reading import SheetReading


def _encode_overlay(overlay) -> str | None:
    """JPEG data URL of the rectified sheet with the reading drawn on it (vision's BGR array, as OpenCV wants)."""
    if overlay is None:
        return None
    import cv2

    ok, buf = cv2.imencode(".jpg", overlay, [cv2.IMWRITE_JPEG_QUALITY, 80])
    if not ok:
        return None
    return "data:image/jpeg;base64," + base64.b64encode(buf.tobytes()).decode("ascii")


def _jpeg_url(img, quality: int = 85) -> str | None:
    import cv2

    if img is None or img.size == 0:
        return None
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return "data:image/jpeg;base64," + base64.b64encode(buf.tobytes()).decode("ascii") if ok else None


def reading_to_dict(reading: SheetReading, token: str | None = None) -> dict[str, Any]:
    """Vision's JSON view, with the warnings in the page language and the overlay as an image the page can show.

    `ask` lists the groups whose name is unsure, each with one cropped example cell to name by a tap.
    """
    ask = [{"group": g.id, "cell": list(g.example_cell), "cells": len(g.cells), "guess": g.name,
            "image": _jpeg_url(reading.cell_image(*g.example_cell))} for g in reading.unsure_groups()]
    return {
        **reading.to_dict(),
        "warnings": reading.warnings_text(lang()),
        "overlay": _encode_overlay(reading.overlay),
        "ask": ask,
        "photo_token": token,
    }


def _read(data: bytes, side: str | None, names: dict[int, str] | None = None,
          quarter_turns: int | None = None, heroes: bool | None = None) -> SheetReading:
    from vision.errors import PhotoError

    from .photoqueue import read_sheet  # in a worker process, through the bounded queue

    try:
        return read_sheet(data, side=side, names=names or None, quarter_turns=quarter_turns, heroes=heroes)
    except PhotoError as exc:
        raise UserError(422, exc.code, exc.message(lang())) from None


def _kept(token: Any):
    kept = store().get(str(token or ""))
    if kept is None:
        raise UserError(410, "photo_expired", _("This photo is no longer on the server. Please take it again."))
    return kept


def rename_groups(token: Any, body: dict[str, Any]) -> dict[str, Any]:
    """Re-read the kept photo with the player's names for groups ({"names": {"3": "forest"}})."""
    from vision.cells import NAMEABLE

    kept = _kept(token)
    raw = body.get("names")
    if not isinstance(raw, dict):
        raise UserError(400, "bad_names", _("Tell which terrain each group is."))
    names: dict[int, str] = {}
    for k, v in raw.items():
        if not str(k).isdigit() or v not in NAMEABLE:
            raise UserError(400, "bad_names", _("Tell which terrain each group is."))
        names[int(k)] = str(v)
    kept.names.update(names)
    from .phototurn import read_kept  # the way up the player chose stays

    return reading_to_dict(read_kept(kept), str(token))


def _suffix(data: bytes) -> str:
    """The file ending of a kept photo, from the loader's own sniffing (the photo was read, so it is known)."""
    from vision.load import sniff_format

    return {"jpeg": ".jpg", "png": ".png", "webp": ".webp"}.get(sniff_format(data), ".heic")


def keep_photo(token: Any, body: dict[str, Any]) -> dict[str, Any]:
    """Save the kept photo and the player's confirmed grid in the instance folder (the player opted in)."""
    from companion.cartographers.board import Board, BoardError

    kept = _kept(token)
    side, grid = str(body.get("side") or "").upper(), body.get("grid")
    try:
        Board.from_words(side, grid)
    except (BoardError, ValueError, TypeError):
        raise UserError(400, "bad_grid", _("The map could not be read. Please try again.")) from None
    folder = Path(current_app.instance_path) / KEPT_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    name = time.strftime("%Y%m%d-%H%M%S") + "-" + secrets.token_hex(3)
    (folder / (name + _suffix(kept.data))).write_bytes(kept.data)
    (folder / (name + ".json")).write_text(json.dumps({"side": side, "grid": grid, "source": "player",
                                                       "names": {str(k): v for k, v in kept.names.items()},
                                                       "turned": kept.quarter_turns == 2,  # "not the top": grid turned
                                                       "quarter_turns": kept.quarter_turns or 0}))
    return {"kept": name}


def _upload(request: Request) -> tuple[bytes, str | None, bool | None]:
    """The uploaded photo's bytes, the side the form names and whether its table plays heroes, or a clear 4xx.

    `heroes` ("1"/"0", sent by a table's pages from its explore deck): whether the reader looks for heroes and
    destroyed monsters; absent (the scorer page, which knows no table): the side decides
    (`vision.reading.reads_heroes`).
    """
    upload = request.files.get("photo")
    if upload is None or not upload.filename:
        raise UserError(400, "no_photo", _("Choose or take a photo of the map first."))
    mimetype = (upload.mimetype or "").lower()
    if not mimetype.startswith("image/"):
        raise UserError(415, "not_an_image", _("This file is not a photo. Please send a JPEG, PNG or WebP picture."))
    data = upload.read()
    if not data:
        raise UserError(400, "empty_photo", _("The photo file is empty. Please take the photo again."))
    side = normalise_side(request.form.get("side") or "") or None
    if side is not None and side not in MAPS and not is_custom(side):
        raise UserError(400, "bad_side", _("This map side is not known."))
    heroes = {"1": True, "0": False}.get(str(request.form.get("heroes", "")).strip())
    return data, side, heroes


def _side_info(out: dict[str, Any], side: str) -> dict[str, Any]:
    if is_custom(side):  # a table's own side: the page may not know its printed cells yet
        from .mapdata import side_data

        out["side_info"] = side_data(side)
    return out


def read_upload(request: Request) -> dict[str, Any]:
    data, side, heroes = _upload(request)
    reading = _read(data, side, heroes=heroes)
    return _side_info(reading_to_dict(reading, store().put(data, side, heroes)), reading.side)


def read_table_upload(request: Request) -> dict[str, Any]:
    """A photo of the table with one or several sheets: {"sheets": [reading as `read_upload` gives it + "thumb",
    or {"error", "code", "thumb"} for a sheet that could not be read]}.

    Each sheet's cut-out is kept under its own token, so the review's taps re-read that sheet alone.
    """
    from vision.errors import PhotoError

    from .photoqueue import read_table

    data, side, heroes = _upload(request)
    try:
        found = read_table(data, side, heroes)
    except PhotoError as exc:
        raise UserError(422, exc.code, exc.message(lang())) from None
    sheets = []
    for f in found:
        thumb = _jpeg_url(f["thumb"], 80)
        if f["reading"] is None:
            err = PhotoError(*f["error"])
            sheets.append({"error": err.message(lang()), "code": err.code, "thumb": thumb})
            continue
        token = store().put(f["png"] if f["png"] is not None else data, side, heroes)
        sheets.append({**_side_info(reading_to_dict(f["reading"], token), f["reading"].side), "thumb": thumb})
    return {"sheets": sheets}
