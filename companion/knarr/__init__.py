"""Knarr rules core: pure Python, no I/O, JSON in and JSON out.

Public API for the web layer (everything below is importable from ``companion.knarr``):

Setup
    ``new_setup(names, seed, *, colours=None, first_player=None, ship_side="normal",
    artifact_variant="off", artifacts=None, virtual_deck=False) -> KnarrSetup``
    Names are in clockwise seat order; colours are ship colours (white, beige, brown, black).
    Random choices (first player when not given, ``ship_side="random"``, ``artifact_variant``
    "random" or "random_with_mead_cup") are drawn from ``seed`` once and stored resolved.
    ``suggested_artifact_variant(n)`` gives the rulebook advice (Mead Cup too with 2 players).
    ``setup_sheet(setup)`` is the setup screen as JSON (deck composition for the player count,
    each player's start, ship side, Artifacts with TR/EN names and effects).

Playing
    ``game = KnarrGame(setup)`` or ``KnarrGame.new(names, seed, **options)``.
    ``game.apply(event) -> notices`` records one event (a plain dict, see ``game.py``):
    ``gain(player, vp=, reputation=, recruit=, bracelet=)`` and ``end_turn(player=None)`` build
    the two table events; ``end_turn`` pays the next player's reputation income automatically
    and ends the game after the last player of the round once someone has 40+ VP.
    A rejected event raises ``KnarrError`` (a ``ValueError``) with a stable ``.code``,
    ``.params`` and ``.text(lang)``; the game is unchanged.
    ``game.undo(count=1)`` drops the last events. ``game.notices`` are the last event's notices,
    each ``{"code", "params", "text": {"en", "tr"}}`` (income paid, token lost to the cap of 3,
    reputation lost past 14, last round triggered, game over, deck reshuffled, ...).
    Gains may name any seat (corrections); ``end_turn`` always ends the active player's turn.
    Several phones: send ``"seq": game.event_count`` (as the phone last saw it) with each event;
    a stale one is refused with code ``stale_event`` instead of being counted twice.

Storage and view
    ``game.save() -> {"format", "game", "setup", "events"}`` and ``KnarrGame.load(data)``:
    store exactly that JSON; loading replays it to the same state (deterministic from the seed).
    With setup and events stored apart: ``setup.to_dict()`` / ``game.events`` and
    ``KnarrGame.replay(setup_dict, events)``.
    ``game.to_dict()`` is the JSON view every phone renders: players (score, reputation, income,
    next income threshold, tokens, turns), active player, turn/round, the income already paid
    this turn, last-round flag, ranking with tie-break flags, winners, notices, undo
    availability, ``last_event`` / ``history`` (newest first, each with a TR/EN sentence, for the
    log and the "Undo: ..." button), and the virtual deck (hands, crews, face-up cards, who must
    discard) when enabled.

Data and rules
    ``data`` holds the transcribed game (tracks, 50 Vikings, 35 Destinations, ships, Artifacts,
    TR/EN names) and ``data.validate()``; ``rules`` holds the pure rule functions (``income_for``,
    ``next_income_threshold``, ``ranking``, ...); ``messages.render(code, lang, params)`` turns
    any error or notice code into Turkish or English. ``cli`` adds ``mapsmith knarr-setup`` and
    ``mapsmith knarr-replay``.
"""

from .data import ARTIFACT_BY_ID, ARTIFACTS, deck_composition, validate, viking_deck
from .errors import KnarrError
from .game import (
    EVENT_TYPES,
    GameState,
    KnarrGame,
    PlayerState,
    apply_event,
    describe_event,
    end_turn,
    gain,
    initial_state,
)
from .messages import render, with_text
from .rules import income_for, next_income_threshold, ranking, winners
from .setup import KnarrSetup, PlayerSeat, new_setup, setup_sheet, suggested_artifact_variant

__all__ = [
    "ARTIFACTS",
    "ARTIFACT_BY_ID",
    "EVENT_TYPES",
    "GameState",
    "KnarrError",
    "KnarrGame",
    "KnarrSetup",
    "PlayerSeat",
    "PlayerState",
    "apply_event",
    "deck_composition",
    "describe_event",
    "end_turn",
    "gain",
    "income_for",
    "initial_state",
    "new_setup",
    "next_income_threshold",
    "ranking",
    "render",
    "setup_sheet",
    "suggested_artifact_variant",
    "validate",
    "viking_deck",
    "winners",
    "with_text",
]
