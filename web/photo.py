"""Photo upload → `vision.read_sheet` → a reading the review screen can show and correct.

Only images are accepted (by declared type and by the vision loader's own
sniffing, which also refuses pixel bombs); the request size is capped by
MAX_CONTENT_LENGTH. Nothing is saved here: the reading goes back to the phone,
the player fixes cells, and only the confirmed grid is stored as a score event.
"""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any

from flask import Request
from flask_babel import gettext as _

from companion.cartographers.data import MAPS
from companion.cartographers.sides import is_custom, normalise_side

from .errors import UserError
from .i18n import lang

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


def reading_to_dict(reading: SheetReading) -> dict[str, Any]:
    """Vision's JSON view, with the warnings in the page language and the overlay as an image the page can show."""
    return {
        **reading.to_dict(),
        "warnings": reading.warnings_text(lang()),
        "overlay": _encode_overlay(reading.overlay),
    }


def read_upload(request: Request) -> dict[str, Any]:
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
    from vision.errors import PhotoError

    from .photoqueue import read_sheet  # in a worker process, through the bounded queue

    try:
        reading = read_sheet(data, side=side)
    except PhotoError as exc:
        raise UserError(422, exc.code, exc.message(lang())) from None
    out = reading_to_dict(reading)
    if is_custom(reading.side):  # a table's own side: the page may not know its printed cells yet
        from .mapdata import side_data

        out["side_info"] = side_data(reading.side)
    return out
