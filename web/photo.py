"""Photo upload → `vision.read_sheet` → a reading the review screen can show and correct.

Only images are accepted (by declared type and by the vision loader's own
sniffing, which also refuses pixel bombs); the request size is capped by
MAX_CONTENT_LENGTH. Nothing is saved here: the reading goes back to the phone,
the player fixes cells, and only the confirmed grid is stored as a score event.
"""

from __future__ import annotations

import base64
from typing import Any

from flask import Request
from flask_babel import gettext as _

from .errors import UserError
from .i18n import lang

DOUBTFUL_BELOW = 0.5  # cells the reader is less sure about than this are marked for the player to check


def _vision():
    try:
        from vision.reading import read_sheet
    except ImportError:
        read_sheet = None
    if read_sheet is None:
        raise UserError(503, "vision_missing", _("Reading photos is not available in this version. "
                                                 "Paint the map by hand instead."))
    from vision.errors import PhotoError

    return read_sheet, PhotoError


def _encode_overlay(overlay: Any) -> str | None:
    """JPEG data URL of the rectified sheet with the reading drawn on it (vision's BGR array, as OpenCV wants)."""
    if overlay is None:
        return None
    import cv2
    import numpy as np

    image = np.asarray(overlay)
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
    if not ok:
        return None
    return "data:image/jpeg;base64," + base64.b64encode(buf.tobytes()).decode("ascii")


def _confidence_grid(confidence: Any) -> list[list[float]] | None:
    try:
        import numpy as np

        arr = np.asarray(confidence, dtype=float)
    except (TypeError, ValueError):
        return None
    if arr.shape != (11, 11):
        return None
    return [[round(float(v), 3) for v in row] for row in arr]


def _warnings(reading: Any) -> dict[str, list[str]]:
    """The reading's warnings in the page language, with their stable codes (for scripts and tests).

    `vision` keeps each warning as a coded note that renders in Turkish or English;
    an older reading without notes only has English texts, shown as they are.
    """
    notes = getattr(reading, "notes", None) or []
    if notes and hasattr(reading, "warnings_text"):
        return {"warnings": list(reading.warnings_text(lang())), "warning_codes": [str(n.code) for n in notes]}
    return {"warnings": [str(w) for w in (getattr(reading, "warnings", None) or [])], "warning_codes": []}


def reading_to_dict(reading: Any) -> dict[str, Any]:
    grid = [[str(getattr(t, "value", t)) for t in row] for row in reading.grid]
    conf = _confidence_grid(getattr(reading, "confidence", None))
    if hasattr(reading, "doubtful_cells"):
        doubtful = [list(cell) for cell in reading.doubtful_cells()]
    else:
        doubtful = [[r, c] for r in range(11) for c in range(11) if conf is not None and conf[r][c] < DOUBTFUL_BELOW]
    seat = getattr(reading, "seat", None)
    return {
        "side": reading.side,
        "grid": grid,
        "coins": getattr(reading, "coins", None),
        "confidence": conf,
        "doubtful": doubtful,
        "sheet_id": getattr(reading, "sheet_id", None),
        "table": getattr(reading, "table", None),
        "seat": seat,
        **_warnings(reading),
        "overlay": _encode_overlay(getattr(reading, "overlay", None)),
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
    side = (request.form.get("side") or "").upper() or None
    if side not in (None, "A", "B"):
        raise UserError(400, "bad_side", _("The map side must be A or B."))
    read_sheet, photo_error = _vision()
    try:
        reading = read_sheet(data, side=side)
    except photo_error as exc:
        raise UserError(422, exc.code, exc.message(lang())) from None
    return reading_to_dict(reading)
