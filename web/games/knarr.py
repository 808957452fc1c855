"""Knarr on the web: form/JSON fields → `companion.knarr` events, its JSON view → HTML.

The engine already speaks Turkish and English (`KnarrError.text(lang)`, notices
and history with both texts), so this adapter only picks the page language.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from flask import render_template, request, session
from flask_babel import gettext as _

from companion.knarr import KnarrError, KnarrGame, end_turn, gain
from companion.knarr.game import GAIN_FIELDS

from ..errors import UserError
from ..i18n import lang
from ..storage import GameRecord, normalise_code
from .base import Adapter, GameRuleError, PrintJob, form_int
from .knarr_deck import DECK_ACTIONS, RULE_ACTIONS, SEAT_ACTIONS, deck_event, deck_view, holder_id

INPUT_ERRORS = frozenset({"malformed_event", "unknown_event", "unknown_player", "invalid_amount", "empty_gain",
                          "negative_tokens", "bad_setup"})
MAX_STEP = 100


def rule_error(exc: KnarrError) -> GameRuleError:
    return GameRuleError(exc.code, exc.text(lang()), 400 if exc.code in INPUT_ERRORS else 409)


def _int(fields: Mapping[str, Any], key: str, default: int | None = None) -> int:
    return form_int(fields, key, default=default, limit=MAX_STEP)  # type: ignore[return-value]


def _bad_field(field: str) -> GameRuleError:
    if field == "cards":
        return GameRuleError("no_cards", _("Choose the Vikings to discard first."), 400)
    return GameRuleError("bad_field", _("%(field)s is not valid.", field=field), 400)


class KnarrAdapter(Adapter):
    kind = "knarr"
    # end_turn and undo depend on whose turn the phone showed; a gain is the player's own and is retried.
    # Rules moves depend on the cards the phone showed (a slot refills), so they are strict too; a
    # seat claim is retried (a second phone claiming the same seat then gets "seat taken").
    strict_actions = frozenset({"end_turn", "undo", *RULE_ACTIONS})

    def load(self, record: GameRecord) -> KnarrGame:
        try:
            return KnarrGame.replay(record.setup, record.events)
        except KnarrError:
            # e.g. a virtual-deck table recorded before the deck was played by the rules (free card moves)
            message = _("This Knarr table was recorded by an older version of Mapsmith and cannot be replayed; "
                        "please start a new game.")
            raise UserError(409, "unreadable_game", message) from None

    def phase(self, game: KnarrGame) -> str:
        return "over" if game.finished else "play"

    def perform(self, game: KnarrGame, action: str, fields: Mapping[str, Any]) -> list[dict[str, Any]]:
        try:
            if action == "gain":
                amounts = {k: _int(fields, k, 0) for k in GAIN_FIELDS}
                game.apply(gain(_int(fields, "player"), **amounts))
            elif action == "end_turn":
                seat = _int(fields, "player")
                if game.setup.virtual_deck:
                    self._check_holder(game, seat)
                game.apply(end_turn(seat))
            elif action == "undo":
                game.undo()
            elif action in DECK_ACTIONS:
                event = deck_event(action, fields, _int, _bad_field, self._holder())
                if action not in SEAT_ACTIONS and game.setup.virtual_deck:
                    # the crew is public: a forced discard for a seat no phone holds may be tapped anywhere
                    unheld = action == "discard_vikings" and self._unheld(game, event["player"])
                    if not unheld:
                        self._check_holder(game, event["player"])
                game.apply(event)
            else:
                raise GameRuleError("bad_action", _("Unknown action."), 400)
        except KnarrError as exc:
            raise rule_error(exc) from None
        return game.events

    @staticmethod
    def _holder() -> str:
        """This phone's seat-holder id at the table of the current request."""
        code = (request.view_args or {}).get("code", "")
        return holder_id(session, normalise_code(str(code)))

    @staticmethod
    def _unheld(game: KnarrGame, seat: int) -> bool:
        return 0 <= seat < game.setup.player_count and game.state.seats[seat] is None

    def _check_holder(self, game: KnarrGame, seat: int) -> None:
        """Private hands: a seat's cards are played only from the phone that holds the seat."""
        if not 0 <= seat < game.setup.player_count:
            return  # the engine answers unknown_player
        held = game.state.seats[seat]
        name = game.setup.players[seat].name
        if held is None:
            raise GameRuleError("claim_seat_first", _("First tap “I am %(name)s” on %(name)s's phone: a seat's "
                                                      "cards are played from the phone that holds it.", name=name), 409)
        if held != self._holder():
            raise GameRuleError("seat_not_yours", _("%(name)s's seat is held by another phone.", name=name), 409)

    def moves_digest(self, game: KnarrGame) -> str:
        """Everything but "a phone joined": that note never makes a strict action stale (seat claims still do)."""
        moves = [e for e in game.events if e.get("type") != "joined"]
        return hashlib.sha256(json.dumps(moves, sort_keys=True).encode()).hexdigest()[:16]

    def visit_events(self, game: KnarrGame, host: bool) -> list[dict[str, Any]] | None:
        """A phone other than the host's opening the table is noted once, so the invitation folds away."""
        if host or game.state.joined:
            return None
        game.apply({"type": "joined"})
        return game.events

    def context(self, record: GameRecord, game: KnarrGame) -> dict[str, Any]:
        view = game.to_dict()
        names = ", ".join(view["players"][w]["name"] for w in view["winners"])
        deck = None
        if view["deck"] is not None:
            me = holder_id(session, record.code)
            mine = frozenset(i for i, h in enumerate(game.state.seats) if h == me)
            deck = deck_view(game, lang(), mine)
        return {"code": record.code, "version": record.version, "view": view, "lang_code": lang(),
                "winner_names": names, "deck": deck, "moves": self.moves_digest(game)}

    def fragment(self, record: GameRecord, game: KnarrGame) -> str:
        return render_template("knarr/_table.html", **self.context(record, game))

    def page(self, record: GameRecord, game: KnarrGame) -> str:
        return render_template("knarr/table.html", **self.context(record, game))

    def print_job(self, record: GameRecord, args: Mapping[str, str]) -> PrintJob:
        """The Knarr score pad sized for this table's players (Knarr has no map sheets)."""
        if args.get("kind", "knarr") != "knarr":
            raise GameRuleError("not_printable", _("A Knarr table prints only the Knarr score pad."), 404)
        players = [p["name"] for p in record.setup["players"]]
        options = {"paper": args.get("paper", "a4"), "lang": args.get("lang", "en"), "players": str(len(players)),
                   "copies": "1"}
        return PrintJob("knarr", options, names=players)
