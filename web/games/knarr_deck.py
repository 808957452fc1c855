"""The Knarr virtual deck on the web: card ids from the engine's view → what a phone draws, and deck actions.

The engine (`companion.knarr.deck`) owns the piles and the rules (refill, reshuffle, the
"deck and discard both empty" discard); this module only looks the cards up in the
transcribed data, in the page language, and turns posted fields into engine events.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.knarr.data import (
    ASSET_NAMES,
    DESTINATION_BY_ID,
    DESTINATION_DECK_NAMES,
    DESTINATION_DECKS,
    MEAD_CUP,
    VIKING_BY_ID,
    VIKING_COLOUR_NAMES,
    VIKING_COLOURS,
)

DECK_ACTIONS = frozenset({"take_viking", "play_viking", "draw_viking", "discard_vikings", "take_destination",
                          "replace_viking"})
TRUE_WORDS = frozenset({"1", "true", "on", "yes"})


def viking(card: int | None, lang: str) -> dict[str, Any] | None:
    """One Viking card as drawn: its colour (the column it joins) and the asset it gives."""
    if card is None:
        return None
    v = VIKING_BY_ID[card]
    return {"id": v.id, "colour": v.colour, "colour_name": VIKING_COLOUR_NAMES[v.colour][lang],
            "gain": v.gain, "gain_name": ASSET_NAMES[v.gain][lang]}


def destination(card: int | None, lang: str) -> dict[str, Any] | None:
    """One Destination as drawn: its deck, the Vikings it costs, its immediate gain and trade row."""
    if card is None:
        return None
    d = DESTINATION_BY_ID[card]
    return {
        "id": d.id,
        "deck": d.deck,
        "deck_name": DESTINATION_DECK_NAMES[d.deck][lang],
        "cost": d.cost.text(lang),
        "cost_colours": [c for c, n in d.cost.colours.items() for _ in range(n)],
        "gain": [{"asset": a, "count": n, "name": ASSET_NAMES[a][lang]} for a, n in d.gain.items()],
        "trade": [None if a is None else {"asset": a, "name": ASSET_NAMES[a][lang]} for a in d.trade],
    }


def deck_view(deck: Mapping[str, Any], names: Sequence[str], artifacts: Sequence[str],
              lang: str) -> dict[str, Any]:
    """The engine's deck JSON (`KnarrGame.to_dict()["deck"]`) with every card looked up for the template."""
    players = []
    for seat, name in enumerate(names):
        columns = deck["crew_columns"][seat]
        players.append({
            "seat": seat,
            "name": name,
            "hand": [viking(c, lang) for c in deck["hands"][seat]],
            "crew_count": len(deck["crews"][seat]),
            "columns": [{"colour": c, "colour_name": VIKING_COLOUR_NAMES[c][lang],
                         "cards": [viking(x, lang) for x in columns[c]]}
                        for c in VIKING_COLOURS if columns.get(c)],
            "explored": [destination(c, lang) for c in deck["explored"][seat]],
        })
    must = deck["must_discard"]
    return {
        "slots": [viking(c, lang) for c in deck["slots"]],
        "destinations": [
            {"deck": key, "name": DESTINATION_DECK_NAMES[key][lang],
             "pile_count": deck["destinations"][key]["pile_count"],
             "cards": [destination(c, lang) for c in deck["destinations"][key]["face_up"]]}
            for key in DESTINATION_DECKS
        ],
        "players": players,
        "draw_pile_count": deck["draw_pile_count"],
        "discard_count": deck["discard_count"],
        "discard_top": viking(deck["discard_top"], lang),
        "reshuffles": deck["reshuffles"],
        "must_discard": list(must),
        "must_discard_names": ", ".join(names[s] for s in must),
        "pending_draws": len(deck["pending_draws"]),
        "mead_cup": MEAD_CUP in artifacts,
    }


def deck_event(action: str, fields: Mapping[str, Any], number: Callable[[Mapping[str, Any], str], int],
               bad: Callable[[str], Exception]) -> dict[str, Any]:
    """A posted deck action → the engine event; `number` parses an int field, `bad(field)` builds the error."""
    if action == "replace_viking":
        return {"type": action, "slot": number(fields, "slot")}
    event: dict[str, Any] = {"type": action, "player": number(fields, "player")}
    if action == "take_viking":
        event["slot"] = number(fields, "slot")
    elif action == "play_viking":
        event["card"] = number(fields, "card")
        collect = fields.get("collect", False)
        event["collect"] = collect if isinstance(collect, bool) else str(collect).lower() in TRUE_WORDS
    elif action == "draw_viking":
        to = fields.get("to", "crew")
        if to not in ("crew", "hand"):
            raise bad("to")
        event["to"] = to
    elif action == "discard_vikings":
        cards = fields.get("cards")
        if isinstance(cards, str | int):
            cards = [cards]
        if not isinstance(cards, list) or not cards:
            raise bad("cards")
        event["cards"] = [number({"card": c}, "card") for c in cards]
    elif action == "take_destination":
        event["card"] = number(fields, "card")
    return event
