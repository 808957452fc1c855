""""Is this the top of your sheet?": the player's answer for a reading whose way up the reader could not tell.

An unmarked sheet can read the wrong way up: side A's printed cells are symmetric under a half turn, and a
hand-ruled, squared or generic grid carries nothing printed that fixes a quarter turn either
(`SheetReading.orientation_unsure`). The review asks once and offers the four edges; the answer is kept with
the photo (`Kept.turned` for the old yes/no, `Kept.quarter_turns` for an edge) so that every later re-read of it
("Which terrain is this?" taps) keeps the same way up.
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
    """The reading the way up the player said (unchanged, and still asking, when they have not answered).

    A reading made with `kept.quarter_turns` already has that way up; the yes/no answer turns it here.
    """
    if kept.quarter_turns is not None:
        return replace(reading, orientation_unsure=False, orientation_choices=[0])
    if not reading.orientation_unsure or kept.turned is None:
        return reading
    return reading.turned_half() if kept.turned else replace(reading, orientation_unsure=False,
                                                             orientation_choices=[0])


def read_kept(kept: Kept) -> SheetReading:
    """The kept photo read again with the player's names and the way up they chose."""
    from .photo import _read

    return oriented(kept, _read(kept.data, kept.side, kept.names, kept.quarter_turns or 0))


def _quarter_turns(body: dict[str, Any]) -> int | None:
    """{"quarter_turns": K} → K (0..3, clockwise); None when the body says "turn" instead; 400 otherwise."""
    if "quarter_turns" not in body:
        return None
    k = body["quarter_turns"]
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= 3:
        raise UserError(400, "bad_turn", _("Choose which edge is the top of your sheet."))
    return k


def answer_top(token: Any, body: dict[str, Any]) -> dict[str, Any]:
    """The answer to the ask, remembered for later taps.

    {"turn": true} → the kept photo read again and turned a half round; {"turn": false} → "yes, this is the top";
    {"quarter_turns": K} → the kept photo read again turned K quarter turns clockwise (the edge the player said
    is the top: 1 = the left edge, 2 = the bottom, 3 = the right; 0 = "yes, this is the top", no re-read).
    """
    from .photo import _kept, reading_to_dict

    kept = _kept(token)
    k = _quarter_turns(body)
    if k is not None:
        kept.quarter_turns, kept.turned = (k or None), (k == 2 if k else False)
        if not k:
            return {"turned": False, "quarter_turns": 0, "photo_token": str(token)}
        return {**reading_to_dict(read_kept(kept), str(token)), "turned": True, "quarter_turns": k}
    turn = body.get("turn", True)
    if not isinstance(turn, bool):
        raise UserError(400, "bad_turn", _("Say whether this is the top of your sheet."))
    kept.turned, kept.quarter_turns = turn, None
    if not turn:
        return {"turned": False, "photo_token": str(token)}
    return {**reading_to_dict(read_kept(kept), str(token)), "turned": True}
