"""The Knarr virtual deck on the web: the engine's state and legal moves → what one phone may see and tap.

The engine (`companion.knarr`) owns the piles and every rule (`turn.py`: costs, gains, the slot
rule, Trade, Artifacts; `legal_moves`); this module looks the cards up in the transcribed data, in
the page language, hides every hand but the viewer's own, and turns posted fields into engine
events. Which phone is which seat: a random id in the phone's session, hashed with the table code
(`holder_id`), claimed in the game with a ``claim_seat`` event.
"""

from __future__ import annotations

import hashlib
import secrets
from collections import Counter
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from typing import Any

from companion.knarr.data import (
    ASSET_NAMES,
    DESTINATION_BY_ID,
    DESTINATION_DECK_NAMES,
    DESTINATION_DECKS,
    VIKING_BY_ID,
    VIKING_COLOUR_NAMES,
    VIKING_COLOURS,
)
from companion.knarr.turn import take_cost, trade_gains

RULE_ACTIONS = frozenset({"recruit", "take_viking", "explore", "trade", "reserve", "replace_viking",
                          "discard_vikings"})
SEAT_ACTIONS = frozenset({"claim_seat", "release_seat"})
DECK_ACTIONS = RULE_ACTIONS | SEAT_ACTIONS
TRUE_WORDS = frozenset({"1", "true", "on", "yes"})
PHONE_KEY = "phone"
MAX_WAYS_SHOWN = 4
"""Ways to pay shown as one-tap buttons per Destination; any other way is picked card by card."""


def phone_id(session: MutableMapping[str, Any]) -> str:
    """This phone's random id, kept in its (signed) session cookie."""
    if not isinstance(session.get(PHONE_KEY), str):
        session[PHONE_KEY] = secrets.token_urlsafe(16)
    return session[PHONE_KEY]


def holder_id(session: MutableMapping[str, Any], code: str) -> str:
    """What the game stores for this phone at this table: not the cookie value itself."""
    return hashlib.sha256(f"{phone_id(session)}:{code}".encode()).hexdigest()[:24]


def assets_text(gains: Mapping[str, int], lang: str) -> list[dict[str, Any]]:
    return [{"asset": a, "count": n, "name": ASSET_NAMES[a][lang]} for a, n in gains.items() if n]


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
        "gain": assets_text(d.gain, lang),
        "trade": [None if a is None else {"asset": a, "name": ASSET_NAMES[a][lang]} for a in d.trade],
    }


def pay_text(pay: Sequence[int], recruits: int, lang: str) -> str:
    """ "2 × blue + 1 recruit" for a way to pay."""
    colours = Counter(VIKING_BY_ID[c].colour for c in pay)
    parts = [f"{n} × {VIKING_COLOUR_NAMES[c][lang]}" for c, n in colours.items()]
    if recruits:
        parts.append(f"{recruits} × {ASSET_NAMES['recruit'][lang]}")
    return " + ".join(parts)


def _turn_moves(game: Any, lang: str) -> dict[str, Any]:
    """The active player's legal moves, grouped the way the screen shows them."""
    state = game.state
    seat = state.active
    moves = game.legal_moves()
    by_type: dict[str, list[dict[str, Any]]] = {}
    for m in moves:
        by_type.setdefault(m["type"], []).append(m)
    explore: dict[int, list[dict[str, Any]]] = {}
    for m in by_type.get("explore", []):
        explore.setdefault(m["card"], []).append({"pay": m["pay"], "recruits": m["recruits"],
                                                  "text": pay_text(m["pay"], m["recruits"], lang)})
    for ways in explore.values():  # fewest recruit tokens first; the rest via "choose yourself"
        ways.sort(key=lambda w: (w["recruits"], w["text"]))
        del ways[MAX_WAYS_SHOWN:]
    turn = state.turn_state
    explored = state.deck.explored[seat]
    return {
        "take": [{"slot": m["slot"], "cost": take_cost(turn, m["slot"])} for m in by_type.get("take_viking", [])],
        "take_pending": turn.take_colour is not None,
        "take_colour_name": VIKING_COLOUR_NAMES[turn.take_colour][lang] if turn.take_colour else "",
        "recruit": [m["card"] for m in by_type.get("recruit", [])],
        "explore": explore,
        "trade": [{"bracelets": m["bracelets"], "gains": assets_text(trade_gains(game.setup.ship_side, explored,
                                                                                m["bracelets"]), lang)}
                  for m in by_type.get("trade", [])],
        "reserve": [m["card"] for m in by_type.get("reserve", [])],
        "replace": [m["slot"] for m in by_type.get("replace_viking", [])],
        "end_turn": "end_turn" in by_type,
        "acted": turn.acted,
        "traded": turn.traded,
        "offers": list(turn.offers),
    }


def deck_view(game: Any, lang: str, mine: frozenset[int]) -> dict[str, Any]:
    """The board and every public card, plus the hands of `mine` (the seats this phone holds) only."""
    view = game.to_dict()
    deck = view["deck"]
    names = [p["name"] for p in view["players"]]
    state = game.state
    players = []
    for seat, name in enumerate(names):
        columns = deck["crew_columns"][seat]
        players.append({
            "seat": seat,
            "name": name,
            "mine": seat in mine,
            "held": state.seats[seat] is not None,
            "hand": [viking(c, lang) for c in deck["hands"][seat]] if seat in mine else None,
            "hand_count": len(deck["hands"][seat]),
            "crew_count": len(deck["crews"][seat]),
            "crew": [viking(c, lang) for c in deck["crews"][seat]],
            "columns": [{"colour": c, "colour_name": VIKING_COLOUR_NAMES[c][lang],
                         "cards": [viking(x, lang) for x in columns[c]]}
                        for c in VIKING_COLOURS if columns.get(c)],
            "explored": [destination(c, lang) for c in deck["explored"][seat]],
            "reserved": [destination(c, lang) for c in deck["reserved"][seat]],
        })
    must = deck["must_discard"]
    active = None if state.finished else state.active
    return {
        "slots": [{"slot": i, "colour": VIKING_COLOURS[i], "colour_name": VIKING_COLOUR_NAMES[VIKING_COLOURS[i]][lang],
                   "card": viking(c, lang)} for i, c in enumerate(deck["slots"])],
        "destinations": [
            {"deck": key, "name": DESTINATION_DECK_NAMES[key][lang],
             "pile_count": deck["destinations"][key]["pile_count"],
             "cards": [destination(c, lang) for c in deck["destinations"][key]["face_up"]]}
            for key in DESTINATION_DECKS
        ],
        "players": players,
        "draw_pile_count": deck["draw_pile_count"],
        "discard_count": deck["discard_count"],
        "reshuffles": deck["reshuffles"],
        "must_discard": list(must),
        "must_discard_names": ", ".join(names[s] for s in must),
        "my_discards": [s for s in must if s in mine or state.seats[s] is None],
        "pending_draws": len(deck["pending_draws"]),
        "mine": sorted(mine),
        "my_turn": active is not None and active in mine,
        "active_held": active is not None and state.seats[active] is not None,
        "moves": _turn_moves(game, lang) if active is not None and active in mine else None,
    }


def deck_event(action: str, fields: Mapping[str, Any], number: Callable[[Mapping[str, Any], str], int],
               bad: Callable[[str], Exception], holder: str) -> dict[str, Any]:
    """A posted deck or seat action → the engine event; `number` parses an int field, `bad(field)` errors."""
    event: dict[str, Any] = {"type": action, "player": number(fields, "player")}
    if action in SEAT_ACTIONS:
        event["holder"] = holder
        if action == "claim_seat" and str(fields.get("takeover", "")).lower() in TRUE_WORDS:
            event["takeover"] = True
    elif action in ("take_viking", "replace_viking"):
        event["slot"] = number(fields, "slot")
    elif action in ("recruit", "reserve"):
        event["card"] = number(fields, "card")
    elif action == "trade":
        event["bracelets"] = number(fields, "bracelets")
    elif action == "explore":
        event["card"] = number(fields, "card")
        event["pay"] = _cards(fields, "pay", number, bad, required=False)
        event["recruits"] = number({"recruits": fields.get("recruits") or 0}, "recruits")
    elif action == "discard_vikings":
        event["cards"] = _cards(fields, "cards", number, bad, required=True)
    return event


def _cards(fields: Mapping[str, Any], key: str, number: Callable[[Mapping[str, Any], str], int],
           bad: Callable[[str], Exception], *, required: bool) -> list[int]:
    cards = fields.get(key)
    if cards is None or cards == "":
        cards = []
    if isinstance(cards, str | int):
        cards = [cards]
    if not isinstance(cards, list) or (required and not cards):
        raise bad(key)
    return [number({"card": c}, "card") for c in cards]
