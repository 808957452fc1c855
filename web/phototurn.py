""""Is this the top of your sheet?": the player's answer for a reading whose way up the reader could not tell.

Side A's printed cells are symmetric under a half turn, so an unmarked side-A sheet can read either way up
(`SheetReading.orientation_unsure`). The review asks once; the answer is kept with the photo
(`Kept.turned`) so that every later re-read of it ("Which terrain is this?" taps) keeps the same way up.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from flask_babel import gettext as _

from .errors import UserError

if TYPE_CHECKING:
    from vision.reading import SheetReading

    from .photostore import Kept


def oriented(kept: Kept, reading: SheetReading) -> SheetReading:
    """The reading the way up the player said (unchanged, and still asking, when they have not answered)."""
    if not reading.orientation_unsure or kept.turned is None:
        return reading
    return reading.turned_half() if kept.turned else replace(reading, orientation_unsure=False)


def answer_top(token: Any, body: dict[str, Any]) -> dict[str, Any]:
    """{"turn": true} → the kept photo read again and turned a half round; {"turn": false} → "yes, this is the top".

    Only "turn" re-reads (the page already shows the upright reading); both are remembered for later taps.
    """
    from .photo import _kept, _read, reading_to_dict

    kept = _kept(token)
    turn = body.get("turn", True)
    if not isinstance(turn, bool):
        raise UserError(400, "bad_turn", _("Say whether this is the top of your sheet."))
    kept.turned = turn
    if not turn:
        return {"turned": False, "photo_token": str(token)}
    return {**reading_to_dict(oriented(kept, _read(kept.data, kept.side, kept.names)), str(token)), "turned": True}
