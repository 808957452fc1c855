""""Is this the top of your sheet?": the player's answer for a reading whose way up the reader could not tell.

An unmarked sheet can read the wrong way up: side A's printed cells are symmetric under a half turn, and a
hand-ruled, squared or generic grid carries nothing printed that fixes a quarter turn either
(`SheetReading.orientation_unsure`). The review asks once and offers the four edges; the answer is kept with
the photo (`Kept.quarter_turns`; the old yes/no is 0 or a half turn) so that every later re-read of it ("Which
terrain is this?" taps) keeps the same way up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flask_babel import gettext as _

from .errors import UserError

if TYPE_CHECKING:
    from vision.reading import SheetReading

    from .photostore import Kept


def read_kept(kept: Kept) -> SheetReading:
    """The kept photo read again with the player's names and, once they answered, the way up they chose confirmed
    (not `orientation_unsure` then, and no cell's confidence lowered for a way up nobody knew).

    The answer is applied by reading the photo again with it (`read_sheet(quarter_turns=K)`), not by turning the
    grid already read: on any side but A a half turn moves the printed cells off the places the side prints them,
    and one read is all an answer costs.
    """
    from .photo import _read

    return _read(kept.data, kept.side, kept.names, kept.quarter_turns, kept.heroes)


def _quarter_turns(body: dict[str, Any]) -> int | None:
    """{"quarter_turns": K} → K (0..3, clockwise); None when the body says "turn" instead; 400 otherwise."""
    if "quarter_turns" not in body:
        return None
    k = body["quarter_turns"]
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= 3:
        raise UserError(400, "bad_turn", _("Choose which edge is the top of your sheet."))
    return k


def answer_top(token: Any, body: dict[str, Any]) -> dict[str, Any]:
    """The answer to the ask, remembered for later taps, and the kept photo read again with that way up confirmed.

    {"turn": true} → turned a half round; {"turn": false} → "yes, this is the top"; {"quarter_turns": K} → turned K
    quarter turns clockwise (the edge the player said is the top: 1 = the left edge, 2 = the bottom, 3 = the right;
    0 = "yes, this is the top"). Every answer, "yes" too, gives the reading (`reading_to_dict`) plus "turned" (and
    "quarter_turns" when asked that way): the doubtful cells change once the way up is known.
    """
    from .photo import _kept, reading_to_dict

    kept = _kept(token)
    k = _quarter_turns(body)
    if k is not None:
        kept.quarter_turns = k
        return {**reading_to_dict(read_kept(kept), str(token)), "turned": bool(k), "quarter_turns": k}
    turn = body.get("turn", True)
    if not isinstance(turn, bool):
        raise UserError(400, "bad_turn", _("Say whether this is the top of your sheet."))
    kept.quarter_turns = 2 if turn else 0
    return {**reading_to_dict(read_kept(kept), str(token)), "turned": turn}
