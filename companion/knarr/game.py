"""The event-sourced Knarr table: a resolved setup plus a list of plain-dict events.

State is never edited in place: `apply_event(setup, state, event)` returns a new immutable
`GameState` and the notices to show, or raises `KnarrError` and leaves everything as it was.
`KnarrGame` keeps the event log and one state per prefix, so undo is "drop the last event" and a
stored game (`save()` / `KnarrGame.load`) replays to exactly the same state.

Event types (all plain JSON dicts; an optional "meta" dict is stored but ignored by the rules):

- ``{"type": "gain", "player": i, "vp": n, "reputation": n, "recruit": ±n, "bracelet": ±n}``
  any subset of the four fields; vp and reputation only go up, tokens go up (capped at 3, excess
  lost and reported) or down (spending more than you have is rejected).
- ``{"type": "end_turn"}`` (optionally ``"player": i`` to guard against a double tap from two
  phones): ends the active player's turn, then either ends the game or starts the next player's
  turn and pays their reputation income.
- Virtual deck only (setup.virtual_deck): the rules moves of `turn.py` (``recruit``,
  ``take_viking``, ``explore``, ``trade``, ``reserve``, ``replace_viking``, ``discard_vikings``); with the
  deck, ``end_turn`` is refused until the turn's action is done (or no action is possible).
- ``claim_seat`` (player, holder, optional ``"takeover": true``) and ``release_seat`` (player, holder):
  which phone holds a seat (private hands). They change no rule state, and undo skips them: undo
  always takes back the last *move*, keeping the seat claims made since.
- ``{"type": "joined"}``: a second phone opened the table (so the host's invitation can fold away). A note,
  not a move: it changes no rule state and undo skips it like a seat claim (the web app records it once).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from . import deck as vdeck
from .data import (
    DESTINATION_BY_ID,
    DESTINATION_DECK_NAMES,
    MAX_SCORE_PER_EVENT,
    REPUTATION_MAX,
    SHIP_COLOUR_HEX,
    TOKEN_CAP,
    TOKEN_START,
    VIKING_BY_ID,
    VIKING_COLOURS,
)
from .deck import DeckState
from .errors import KnarrError
from .frozen import replace
from .messages import notice, render, with_text
from .rules import (
    add_reputation,
    add_tokens,
    income_for,
    last_seat_of_round,
    next_income_threshold,
    next_seat,
    ranking,
    triggers_end,
)
from .setup import KnarrSetup, new_setup, setup_sheet
from .turn import RULE_EVENTS, Rules, TurnState, can_end_turn, legal_moves

GAIN_FIELDS: tuple[str, ...] = ("vp", "reputation", "recruit", "bracelet")
SEAT_EVENTS: tuple[str, ...] = ("claim_seat", "release_seat")
NOTE_EVENTS: tuple[str, ...] = (*SEAT_EVENTS, "joined")  # recorded, but no move: undo skips them
EVENT_TYPES: tuple[str, ...] = ("gain", "end_turn", *RULE_EVENTS, *NOTE_EVENTS)
_EVENT_FIELDS: Mapping[str, frozenset[str]] = {
    "gain": frozenset({"player", *GAIN_FIELDS}),
    "end_turn": frozenset({"player"}),
    "recruit": frozenset({"player", "card"}),
    "take_viking": frozenset({"player", "slot"}),
    "explore": frozenset({"player", "card", "pay", "recruits"}),
    "trade": frozenset({"player", "bracelets"}),
    "reserve": frozenset({"player", "card"}),
    "replace_viking": frozenset({"player", "slot"}),
    "discard_vikings": frozenset({"player", "cards"}),
    "claim_seat": frozenset({"player", "holder", "takeover"}),
    "release_seat": frozenset({"player", "holder"}),
    "joined": frozenset(),
}
_NEEDS_PLAYER = frozenset(t for t in EVENT_TYPES if t not in ("end_turn", "joined"))
MAX_HOLDER_LENGTH = 64
_COMMON_FIELDS = frozenset({"type", "meta", "seq"})
FORMAT_VERSION = 1
HISTORY_LENGTH = 12


@dataclass(frozen=True)
class PlayerState:
    score: int = 0
    reputation: int = 0
    recruit: int = TOKEN_START["recruit"]
    bracelet: int = TOKEN_START["bracelet"]
    turns: int = 0  # completed turns

    @property
    def income(self) -> int:
        return income_for(self.reputation)

    @property
    def tiebreak(self) -> int:
        return self.recruit + self.bracelet


@dataclass(frozen=True)
class GameState:
    players: tuple[PlayerState, ...]
    active: int
    turn: int = 1  # 1-based count of turns started, over all players
    round: int = 1
    turn_income: int = 0  # income paid to the active player at the start of this turn
    last_round: bool = False
    triggered_by: int | None = None  # first player to reach 40
    finished: bool = False
    deck: DeckState | None = None
    turn_state: TurnState = TurnState()
    seats: tuple[str | None, ...] = ()  # the phone holding each seat (an opaque id), None = free
    joined: bool = False  # a second phone has opened the table (the host's invitation folds away)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _with_score(setup: KnarrSetup, state: GameState, seat: int, new_player: PlayerState,
                notices: list[dict[str, Any]]) -> GameState:
    """Store a player's new state and trigger the last round the first time anyone reaches 40."""
    players = (*state.players[:seat], new_player, *state.players[seat + 1:])
    state = replace(state, players=players)
    if not state.last_round and triggers_end(new_player.score):
        last = last_seat_of_round(setup.first_player, setup.player_count)
        state = replace(state, last_round=True, triggered_by=seat)
        notices.append(notice("last_round_triggered", player=seat, name=setup.players[seat].name,
                              score=new_player.score, last_player=last, last_name=setup.players[last].name))
    return state


def _start_turn(setup: KnarrSetup, state: GameState, notices: list[dict[str, Any]]) -> GameState:
    """Step 1 of every turn: the active player scores their reputation income, before anything else."""
    seat = state.active
    player = state.players[seat]
    income = player.income
    notices.append(notice("turn_started", player=seat, name=setup.players[seat].name,
                          turn=state.turn, round=state.round))
    state = replace(state, turn_income=income, turn_state=TurnState())
    if income:
        notices.append(notice("income_paid", player=seat, name=setup.players[seat].name, amount=income))
        state = _with_score(setup, state, seat, replace(player, score=player.score + income), notices)
    return state


def initial_state(setup: KnarrSetup) -> GameState:
    """Everyone at 0 VP, 0 reputation, 1 recruit, 1 bracelet; the first player's turn has begun."""
    state = GameState(
        players=tuple(PlayerState() for _ in setup.players),
        active=setup.first_player,
        deck=vdeck.deal(setup.player_count, setup.seed) if setup.virtual_deck else None,
        seats=tuple(None for _ in setup.players),
    )
    return _start_turn(setup, state, [])


def _player_field(setup: KnarrSetup, event: Mapping[str, Any], required: bool) -> int | None:
    if "player" not in event:
        if required:
            raise KnarrError("malformed_event", field="player")
        return None
    seat = event["player"]
    if not _is_int(seat):
        raise KnarrError("malformed_event", field="player")
    if not 0 <= seat < setup.player_count:
        raise KnarrError("unknown_player", player=seat)
    return seat


def normalise_event(setup: KnarrSetup, event: object) -> dict[str, Any]:
    """Check an event's shape and return the canonical dict that is stored in the log."""
    if not isinstance(event, Mapping):
        raise KnarrError("malformed_event", field="event")
    kind = event.get("type")
    if not isinstance(kind, str):
        raise KnarrError("malformed_event", field="type")
    if kind not in EVENT_TYPES:
        raise KnarrError("unknown_event", type=kind)
    extra = set(event) - _EVENT_FIELDS[kind] - _COMMON_FIELDS
    if extra:
        raise KnarrError("malformed_event", field=sorted(map(str, extra))[0])
    if "meta" in event and not isinstance(event["meta"], Mapping):
        raise KnarrError("malformed_event", field="meta")
    if "seq" in event and (not _is_int(event["seq"]) or event["seq"] < 0):
        raise KnarrError("malformed_event", field="seq")
    _player_field(setup, event, kind in _NEEDS_PLAYER)
    if kind == "gain":
        for name in GAIN_FIELDS:
            if name in event:
                amount = event[name]
                if not _is_int(amount):
                    raise KnarrError("malformed_event", field=name)
                low = 0 if name in ("vp", "reputation") else -TOKEN_CAP
                high = MAX_SCORE_PER_EVENT if name == "vp" else (REPUTATION_MAX if name == "reputation" else TOKEN_CAP)
                if not low <= amount <= high:
                    raise KnarrError("invalid_amount", field=name, amount=amount)
        if not any(event.get(name, 0) for name in GAIN_FIELDS):
            raise KnarrError("empty_gain")
    if kind in SEAT_EVENTS:
        holder = event.get("holder")
        if not isinstance(holder, str) or not 0 < len(holder) <= MAX_HOLDER_LENGTH:
            raise KnarrError("malformed_event", field="holder")
        if not isinstance(event.get("takeover", False), bool):
            raise KnarrError("malformed_event", field="takeover")
    clean = {k: (list(v) if isinstance(v, list) else v) for k, v in event.items()}
    if "meta" in clean:
        clean["meta"] = copy.deepcopy(dict(clean["meta"]))
    return clean


def capped_gain(setup: KnarrSetup, state: GameState, seat: int, amounts: Mapping[str, int],
                notices: list[dict[str, Any]]) -> GameState:
    """Apply VP, reputation and token changes to one seat: caps applied and reported, 40 checked.

    Spending more tokens than the ship holds is refused (KnarrError) and changes nothing.
    """
    name = setup.players[seat].name
    player = state.players[seat]
    for token in ("recruit", "bracelet"):
        delta = amounts.get(token, 0)
        have = getattr(player, token)
        if have + delta < 0:
            raise KnarrError("negative_tokens", player=seat, name=name, token=token, have=have, spend=-delta)
    reputation, rep_lost = add_reputation(player.reputation, amounts.get("reputation", 0))
    if rep_lost:
        notices.append(notice("reputation_lost", player=seat, name=name, lost=rep_lost))
    tokens: dict[str, int] = {}
    for token in ("recruit", "bracelet"):
        tokens[token], lost = add_tokens(getattr(player, token), amounts.get(token, 0))
        if lost:
            notices.append(notice("token_lost", player=seat, name=name, token=token, lost=lost))
    updated = replace(player, score=player.score + amounts.get("vp", 0), reputation=reputation, **tokens)
    return _with_score(setup, state, seat, updated, notices)


def _apply_gain(setup: KnarrSetup, state: GameState, event: Mapping[str, Any],
                notices: list[dict[str, Any]]) -> GameState:
    return capped_gain(setup, state, event["player"], {k: event.get(k, 0) for k in GAIN_FIELDS}, notices)


def _apply_end_turn(setup: KnarrSetup, state: GameState, event: Mapping[str, Any],
                    notices: list[dict[str, Any]]) -> GameState:
    seat = state.active
    claimed = event.get("player")
    if claimed is not None and claimed != seat:
        raise KnarrError("not_active_player", player=claimed, name=setup.players[claimed].name,
                         active=seat, active_name=setup.players[seat].name)
    if state.deck is not None and not can_end_turn(setup, state):
        ds, turn = state.deck, state.turn_state
        if ds.must_discard:
            raise KnarrError("waiting_for_discard", names=[setup.players[s].name for s in ds.must_discard])
        raise KnarrError("take_a_viking_first" if turn.take_colour is not None else "action_first")
    player = state.players[seat]
    state = replace(state, players=(*state.players[:seat], replace(player, turns=player.turns + 1),
                                    *state.players[seat + 1:]))
    if state.last_round and seat == last_seat_of_round(setup.first_player, setup.player_count):
        state = replace(state, finished=True, turn_income=0)
        table = ranking([(p.score, p.tiebreak) for p in state.players])
        won = [e.player for e in table if e.rank == 1]
        notices.append(notice("game_over_notice", winners=won,
                              winner_names=[setup.players[i].name for i in won]))
        return state
    nxt = next_seat(seat, setup.player_count)
    state = replace(state, active=nxt, turn=state.turn + 1,
                    round=state.round + (1 if nxt == setup.first_player else 0))
    return _start_turn(setup, state, notices)


def _apply_seat(setup: KnarrSetup, state: GameState, event: Mapping[str, Any],
                notices: list[dict[str, Any]]) -> GameState:
    seat, holder = event["player"], event["holder"]
    current = state.seats[seat]
    name = setup.players[seat].name
    if event["type"] == "release_seat":
        if current != holder:
            raise KnarrError("seat_not_yours", player=seat, name=name)
        notices.append(notice("seat_released", player=seat, name=name))
        return replace(state, seats=_set(state.seats, seat, None))
    if current == holder:
        raise KnarrError("seat_already_yours", player=seat, name=name)
    if current is not None and not event.get("takeover", False):
        raise KnarrError("seat_taken", player=seat, name=name)
    notices.append(notice("seat_handed_over" if current is not None else "seat_claimed", player=seat, name=name))
    return replace(state, seats=_set(state.seats, seat, holder))


def _set(seq: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*seq[:index], value, *seq[index + 1:])


def apply_event(setup: KnarrSetup, state: GameState, event: object) -> tuple[GameState, dict[str, Any],
                                                                             list[dict[str, Any]]]:
    """Apply one event: (new state, the canonical event to store, raw notices) or KnarrError."""
    clean = normalise_event(setup, event)
    state, notices = _apply_clean(setup, state, clean)
    return state, clean, notices


def _apply_clean(setup: KnarrSetup, state: GameState,
                 clean: Mapping[str, Any]) -> tuple[GameState, list[dict[str, Any]]]:
    """Apply an already normalised event; returns the new state and the raw notices."""
    notices: list[dict[str, Any]] = []
    kind = clean["type"]
    if kind in SEAT_EVENTS:  # phones may still change hands after the game (to see the final table)
        return _apply_seat(setup, state, clean, notices), notices
    if kind == "joined":  # a note for the page, also after the game
        return replace(state, joined=True), notices
    if state.finished:
        raise KnarrError("game_over")
    if kind == "gain":
        state = _apply_gain(setup, state, clean, notices)
    elif kind == "end_turn":
        state = _apply_end_turn(setup, state, clean, notices)
    else:
        if state.deck is None:
            raise KnarrError("no_virtual_deck")
        state = Rules(setup, state, capped_gain, notices).apply(clean)
    return state, notices


# --- Convenience constructors for the web layer and tests ------------------------------------

def gain(player: int, *, vp: int = 0, reputation: int = 0, recruit: int = 0, bracelet: int = 0) -> dict[str, Any]:
    """A gain event with only the non-zero fields."""
    fields = {"vp": vp, "reputation": reputation, "recruit": recruit, "bracelet": bracelet}
    return {"type": "gain", "player": player, **{k: v for k, v in fields.items() if v}}


def end_turn(player: int | None = None) -> dict[str, Any]:
    return {"type": "end_turn"} if player is None else {"type": "end_turn", "player": player}


def describe_event(setup: KnarrSetup, before: GameState, event: Mapping[str, Any]) -> dict[str, str]:
    """One history line in both languages; `before` is the state the event was applied to."""
    kind = event["type"]
    seat = before.active if kind in ("end_turn", "joined") else event.get("player", before.active)
    params: dict[str, Any] = {"player": seat, "name": setup.players[seat].name}
    if kind == "gain":
        params["deltas"] = {k: event[k] for k in GAIN_FIELDS if event.get(k)}
    elif kind in ("take_viking", "replace_viking"):
        params["slot_no"] = event["slot"] + 1
        params["colour"] = VIKING_COLOURS[event["slot"]]
    elif kind == "recruit":
        params["colour"] = VIKING_BY_ID[event["card"]].colour
    elif kind == "discard_vikings":
        params["count"] = len(event["cards"])
    elif kind in ("explore", "reserve"):
        dest = DESTINATION_BY_ID[event["card"]]
        params["deck_names"] = dict(DESTINATION_DECK_NAMES[dest.deck])
        params["cost_text_en"], params["cost_text_tr"] = dest.cost.text("en"), dest.cost.text("tr")
    elif kind == "trade":
        params["count"] = event["bracelets"]
    return {lang: render(f"event_{kind}", lang, params) for lang in ("en", "tr")}


class KnarrGame:
    """A game at the table: setup, event log, undo, and a JSON view for every phone.

    Only `apply`, `undo` and `load` change it. States are immutable and kept per event, so undo is
    O(1) and replay is only needed when a stored game is loaded.
    """

    def __init__(self, setup: KnarrSetup, events: Iterable[object] = ()):
        self.setup = setup
        self._states: list[GameState] = [initial_state(setup)]
        self._events: list[dict[str, Any]] = []
        self._notices: list[list[dict[str, Any]]] = [[]]  # raw notices, rendered only when shown
        for event in events:
            self._record(event)

    # --- reading ---
    @property
    def state(self) -> GameState:
        return self._states[-1]

    @property
    def events(self) -> list[dict[str, Any]]:
        """A copy of the log: mutating it cannot corrupt the game."""
        return copy.deepcopy(self._events)

    @property
    def event_count(self) -> int:
        """Number of recorded events: the ``seq`` the next event should carry."""
        return len(self._events)

    @property
    def notices(self) -> list[dict[str, Any]]:
        """Notices of the most recent event (income paid, tokens lost, last round, ...)."""
        return [with_text(n) for n in self._notices[-1]]

    @property
    def finished(self) -> bool:
        return self.state.finished

    def state_after(self, event_count: int) -> GameState:
        """The state after the first `event_count` events (0 = just after setup)."""
        return self._states[event_count]

    # --- changing ---
    def apply(self, event: object) -> list[dict[str, Any]]:
        """Record one event; returns its notices, with TR/EN texts. On KnarrError nothing changes.

        An event may carry ``"seq"``: the number of events the sender saw. If another phone
        recorded something in between, the event is refused (code ``stale_event``) instead of
        being counted twice, e.g. two players tapping "end turn" for the same turn.
        """
        return [with_text(n) for n in self._record(event)]

    def _record(self, event: object) -> list[dict[str, Any]]:
        clean = normalise_event(self.setup, event)
        seq = clean.pop("seq", None)  # checked, not stored: undo may move later seat events down
        if seq is not None and seq != len(self._events):
            raise KnarrError("stale_event", expected=len(self._events), got=seq)
        state, notices = _apply_clean(self.setup, self.state, clean)
        self._states.append(state)
        self._events.append(clean)
        self._notices.append(notices)
        return notices

    def undo(self, count: int = 1, seq: int | None = None) -> list[dict[str, Any]]:
        """Take back the last `count` moves (all or nothing); returns the removed events, oldest first.

        Seat claims are not moves: undo skips them and keeps the claims made since. `seq`, when
        given, is the event count the sender saw: two phones tapping undo at once then remove one
        move, not two (the second gets ``stale_event``).
        """
        if seq is not None and seq != len(self._events):
            raise KnarrError("stale_event", expected=len(self._events), got=seq)
        moves = [i for i, e in enumerate(self._events) if e["type"] not in NOTE_EVENTS]
        if not _is_int(count) or count < 1 or count > len(moves):
            raise KnarrError("nothing_to_undo")
        removed: list[dict[str, Any]] = []
        for index in reversed(moves[-count:]):
            later = self._events[index + 1:]
            removed.insert(0, self._events[index])
            del self._events[index:]
            del self._states[index + 1:]
            del self._notices[index + 1:]
            for event in later:  # only notes (seat claims, a phone joined): they replay on the earlier state unchanged
                self._record(event)
        return removed

    def legal_moves(self) -> list[dict[str, Any]]:
        """Every legal rules move now (virtual deck only; explore payments one per colour pattern)."""
        return legal_moves(self.setup, self.state)

    def can_undo(self) -> bool:
        return any(e["type"] not in NOTE_EVENTS for e in self._events)

    # --- storage ---
    def save(self) -> dict[str, Any]:
        """Everything needed to rebuild the game: `KnarrGame.load(game.save())`."""
        return {"format": FORMAT_VERSION, "game": "knarr", "setup": self.setup.to_dict(), "events": self.events}

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> KnarrGame:
        if not isinstance(data, Mapping) or data.get("game", "knarr") != "knarr":
            raise KnarrError("bad_setup", field="game")
        if data.get("format", FORMAT_VERSION) != FORMAT_VERSION:
            raise KnarrError("bad_setup", field="format")
        events = data.get("events", [])
        if not isinstance(events, list):
            raise KnarrError("malformed_event", field="events")
        return cls(KnarrSetup.from_dict(data.get("setup")), events)

    @classmethod
    def replay(cls, setup: KnarrSetup | Mapping[str, Any], events: Iterable[object]) -> KnarrGame:
        """Rebuild a game from a stored setup (object or dict) and its events, e.g. a database row."""
        if not isinstance(setup, KnarrSetup):
            setup = KnarrSetup.from_dict(setup)
        return cls(setup, events)

    @classmethod
    def new(cls, names: list[str], seed: int, **options: Any) -> KnarrGame:
        """Shortcut for `KnarrGame(new_setup(names, seed, **options))`."""
        return cls(new_setup(names, seed, **options))

    # --- the view ---
    def history(self, limit: int = HISTORY_LENGTH) -> list[dict[str, Any]]:
        """The most recent events, newest first, each with a TR/EN sentence for the log and undo."""
        start = max(0, len(self._events) - limit)
        return [
            {"index": i, "event": copy.deepcopy(self._events[i]),
             "text": describe_event(self.setup, self._states[i], self._events[i])}
            for i in range(len(self._events) - 1, start - 1, -1)
        ]

    def ranking(self) -> list[dict[str, Any]]:
        """Current ranking (final once `finished`), with the tie-break flags for the explanation."""
        table = ranking([(p.score, p.tiebreak) for p in self.state.players])
        return [{**e.to_dict(), "name": self.setup.players[e.player].name} for e in table]

    def to_dict(self) -> dict[str, Any]:
        """The JSON view every phone renders; depends only on setup + events."""
        setup, state = self.setup, self.state
        last = last_seat_of_round(setup.first_player, setup.player_count)
        players = []
        for seat, (seat_info, p) in enumerate(zip(setup.players, state.players, strict=True)):
            threshold = next_income_threshold(p.reputation)
            players.append({
                "seat": seat,
                "name": seat_info.name,
                "colour": seat_info.colour,
                "colour_hex": SHIP_COLOUR_HEX[seat_info.colour],
                "score": p.score,
                "score_track_space": p.score % 40,
                "laps": p.score // 40,
                "reputation": p.reputation,
                "income": p.income,
                "next_threshold": None if threshold is None else {
                    "position": threshold[0], "income": threshold[1], "steps": threshold[0] - p.reputation},
                "recruit": p.recruit,
                "bracelet": p.bracelet,
                "tiebreak": p.tiebreak,
                "turns": p.turns,
                "is_active": seat == state.active and not state.finished,
                "is_first": seat == setup.first_player,
                "is_last_in_round": seat == last,
            })
        table = self.ranking()
        history = self.history()
        return {
            "format": FORMAT_VERSION,
            "game": "knarr",
            "setup": setup.to_dict(),
            "sheet": setup_sheet(setup),
            "players": players,
            "first_player": setup.first_player,
            "active_player": None if state.finished else state.active,
            "turn": state.turn,
            "round": state.round,
            "turn_income": state.turn_income,
            "last_round": state.last_round,
            "last_round_triggered_by": state.triggered_by,
            "last_player_of_round": last,
            "finished": state.finished,
            "ranking": table,
            "winners": [e["player"] for e in table if e["rank"] == 1] if state.finished else [],
            "notices": self.notices,
            "event_count": len(self._events),
            "can_undo": self.can_undo(),
            "last_event": next((h for h in history if h["event"]["type"] not in NOTE_EVENTS), None),
            "history": history,
            "deck": None if state.deck is None else state.deck.to_dict(),
            "turn_state": state.turn_state.to_dict(),
            "seats": list(state.seats),
            "joined": state.joined,
        }
