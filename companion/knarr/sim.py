"""A simulator of whole virtual-deck games played by random legal moves, with the rules' invariants.

`play(seed, players, ...)` plays until the game ends and returns the `KnarrGame`; with `check=True`
every event is followed by `invariant_problems`, which looks at the game from the outside (card
and Destination conservation, token and track bounds, income by reputation, one action and one
trade per turn, the column and trade gains recomputed from the cards) instead of re-running the
engine's own code. `probe_moves` builds random moves, legal or not, for the property tests: the
engine must accept exactly those that `legal_moves` lists (explore payments compared by colour
pattern). `mapsmith knarr-sim` drives it from the command line.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from .data import (
    ARTIFACTS,
    DESTINATION_BY_ID,
    INCOME_BY_POSITION,
    REPUTATION_MAX,
    SHIP_SIDES,
    TOKEN_CAP,
    VIKING_BY_ID,
    viking_deck,
)
from .errors import KnarrError
from .game import GameState, KnarrGame, apply_event
from .setup import new_setup

MAX_EVENTS = 5000
"""A game of random legal moves ends long before this (about 150-400 events); more means a stall."""


def player_names(count: int) -> list[str]:
    return [f"Player {i + 1}" for i in range(count)]


def artifact_id(name: str) -> str:
    """An Artifact from its id or its English or Turkish name, in any case ("Golden Bracelet", "helmet")."""
    wanted = name.strip().casefold().replace("-", " ").replace("_", " ")
    for art in ARTIFACTS:
        if wanted in (art.id.replace("_", " "), art.name_en.casefold(), art.name_tr.casefold()):
            return art.id
    raise KnarrError("unknown_artifact", artifact=name)


def choose(moves: Sequence[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random legal move: first a kind of move, then one of that kind (so many payment ways
    of one Explore do not crowd out ending the turn)."""
    kinds = sorted({m["type"] for m in moves})
    kind = rng.choice(kinds)
    return rng.choice([m for m in moves if m["type"] == kind])


@dataclass
class TurnLog:
    """What happened in the current turn, to check "one action, at most one trade"."""

    actions: int = 0
    extra_actions: int = 0
    trades: int = 0


@dataclass
class Checker:
    """Checks every event of one game; `problems` collects every broken invariant."""

    game: KnarrGame
    problems: list[str] = field(default_factory=list)
    turn: TurnLog = field(default_factory=TurnLog)

    def after(self, before: GameState, event: dict[str, Any], notices: list[dict[str, Any]]) -> None:
        where = f"event {self.game.event_count} ({event['type']})"
        for problem in invariant_problems(self.game.setup, before, self.game.state, event, notices, self.turn):
            self.problems.append(f"{where}: {problem}")


def play(seed: int, players: int, *, ship_side: str = "normal", artifacts: Sequence[str] = (),
         check: bool = False, move_seed: int | None = None) -> tuple[KnarrGame, list[str]]:
    """One whole game of random legal moves; returns the game and the invariant problems found."""
    setup = new_setup(player_names(players), seed, ship_side=ship_side, artifacts=list(artifacts),
                      virtual_deck=True)
    game = KnarrGame(setup)
    rng = random.Random(f"knarr-sim:{seed if move_seed is None else move_seed}")
    checker = Checker(game)
    while not game.finished:
        if game.event_count >= MAX_EVENTS:
            checker.problems.append(f"no end after {MAX_EVENTS} events")
            break
        moves = game.legal_moves()
        if not moves:
            checker.problems.append(f"event {game.event_count}: no legal move")
            break
        move = choose(moves, rng)
        before = game.state
        try:
            notices = game._record(move)  # raw notices: the texts are rendered only when shown
        except KnarrError as err:
            checker.problems.append(f"event {game.event_count}: legal move refused: {move} ({err.code})")
            break
        if check:
            checker.after(before, move, notices)
    return game, checker.problems


# --- invariants -------------------------------------------------------------------------------

def all_vikings(state: GameState) -> list[int]:
    ds = state.deck
    cards = [*ds.draw_pile, *ds.discard, *(c for c in ds.slots if c is not None)]
    for zone in (*ds.hands, *ds.crews):
        cards.extend(zone)
    return cards


def all_destinations(state: GameState) -> list[int]:
    ds = state.deck
    cards = [c for pile in ds.dest_piles for c in pile]
    cards += [c for row in ds.dest_face_up for c in row if c is not None]
    return cards + [c for zone in (*ds.explored, *ds.reserved) for c in zone]


@cache
def _deck_ids(player_count: int) -> list[int]:
    return sorted(c.id for c in viking_deck(player_count))


def _column_assets(crew: Sequence[int], colour: str) -> Counter[str]:
    return Counter(VIKING_BY_ID[c].gain for c in crew if VIKING_BY_ID[c].colour == colour)


def invariant_problems(setup: Any, before: GameState, after: GameState, event: dict[str, Any],
                       notices: list[dict[str, Any]], turn: TurnLog | None = None) -> list[str]:
    """Every rule invariant that does not hold after `event` took `before` to `after`."""
    out: list[str] = []
    n = setup.player_count
    ds = after.deck
    vikings = all_vikings(after)
    if sorted(vikings) != _deck_ids(n):
        out.append("Viking cards not conserved (lost, duplicated or from the wrong player count)")
    if sorted(all_destinations(after)) != sorted(DESTINATION_BY_ID):
        out.append("Destinations not conserved")
    for seat, (p0, p1) in enumerate(zip(before.players, after.players, strict=True)):
        if not (0 <= p1.recruit <= TOKEN_CAP and 0 <= p1.bracelet <= TOKEN_CAP):
            out.append(f"seat {seat}: tokens off the ship's 3 places ({p1.recruit}, {p1.bracelet})")
        if not 0 <= p1.reputation <= REPUTATION_MAX or p1.reputation < p0.reputation:
            out.append(f"seat {seat}: reputation went from {p0.reputation} to {p1.reputation}")
        if p1.score < p0.score:
            out.append(f"seat {seat}: score went down")
        if len(ds.reserved[seat]) > 2:
            out.append(f"seat {seat}: more than 2 reserved Destinations")
    for i, card in enumerate(ds.slots):
        if card is None and ("slot", i) not in ds.pending:
            out.append(f"slot {i} empty with no draw waiting for it")
    turns = [p.turns for p in after.players]
    if max(turns) - min(turns) > 1:
        out.append(f"turn counts drifted apart: {turns}")
    reached = any(p.score >= 40 for p in after.players)
    if after.last_round != reached:
        out.append("last round flag disagrees with the 40-point trigger")
    if after.finished and (len(set(turns)) != 1 or not reached):
        out.append(f"game ended with unequal turns {turns} or nobody at 40")
    if after.finished and after.active != (setup.first_player - 1) % n:
        out.append("the game did not end with the player to the right of the first player")
    kind, seat = event["type"], event.get("player", before.active)
    if kind == "end_turn" and not after.finished:
        nxt = after.active
        if nxt != (before.active + 1) % n:
            out.append("turn did not pass clockwise")
        rep = before.players[nxt].reputation
        if after.players[nxt].score - before.players[nxt].score != INCOME_BY_POSITION[rep]:
            out.append(f"income for reputation {rep} not paid as printed")
    if turn is not None:
        _turn_rules(before, after, event, notices, turn, out)
    plain = not any(n["code"].startswith("artifact_") for n in notices)
    if kind == "recruit" and plain:
        colour = VIKING_BY_ID[event["card"]].colour
        assets = _column_assets(after.deck.crews[seat], colour)
        _expect_gains(before.players[seat], after.players[seat], assets, out, spent={})
    if kind == "trade" and plain:
        assets: Counter[str] = Counter()
        for row in (SHIP_SIDES[setup.ship_side], *(DESTINATION_BY_ID[d].trade for d in ds.explored[seat])):
            assets.update(a for a in row[:event["bracelets"]] if a)
        _expect_gains(before.players[seat], after.players[seat], assets, out, spent={"bracelet": event["bracelets"]})
        drawn = len(after.deck.crews[seat]) - len(before.deck.crews[seat])
        if drawn > assets.get("card", 0):
            out.append("trade drew more Vikings than its columns show")
    if kind == "explore":
        if len(after.deck.explored[seat]) != len(before.deck.explored[seat]) + 1:
            out.append("explore did not place exactly one Destination")
        dest = DESTINATION_BY_ID[event["card"]]
        if len(event["pay"]) + event["recruits"] != dest.cost.count:
            out.append("explore accepted a payment of the wrong size")
        if plain:
            _expect_gains(before.players[seat], after.players[seat], Counter(dest.gain), out,
                          spent={"recruit": event["recruits"]})
    return out


def _expect_gains(p0: Any, p1: Any, assets: Counter[str], out: list[str], spent: dict[str, int]) -> None:
    """Score, reputation and tokens moved exactly by these assets, with the caps."""
    if p1.score - p0.score != assets.get("vp", 0):
        out.append(f"VP gained {p1.score - p0.score}, cards show {assets.get('vp', 0)}")
    if p1.reputation != min(REPUTATION_MAX, p0.reputation + assets.get("reputation", 0)):
        out.append("reputation gain does not match the cards (cap 14)")
    for token in ("recruit", "bracelet"):
        want = min(TOKEN_CAP, getattr(p0, token) - spent.get(token, 0) + assets.get(token, 0))
        if getattr(p1, token) != want:
            out.append(f"{token}: expected {want}, got {getattr(p1, token)}")


def _turn_rules(before: GameState, after: GameState, event: dict[str, Any], notices: list[dict[str, Any]],
                turn: TurnLog, out: list[str]) -> None:
    kind = event["type"]
    if kind in ("recruit", "explore"):
        turn.actions += 1
    if kind == "trade":
        turn.trades += 1
    turn.extra_actions += sum(1 for n in notices if n["code"] in ("offer_recruit", "offer_explore"))
    if turn.actions > 1 + turn.extra_actions:
        out.append("more than one action in a turn (beyond the Artifacts' extra ones)")
    if turn.trades > 1:
        out.append("more than one trade in a turn")
    if kind == "end_turn":
        if turn.actions == 0 and any(m["type"] in ("recruit", "explore") for m in _actions_open(before)):
            out.append("turn ended without an action although one was possible")
        turn.actions = turn.extra_actions = turn.trades = 0


def _actions_open(state: GameState) -> list[dict[str, Any]]:
    ds = state.deck
    return [{"type": "recruit"}] if ds.hands[state.active] else []


# --- probes for the property tests ------------------------------------------------------------

def move_key(move: dict[str, Any]) -> tuple[Any, ...]:
    """Moves that the rules cannot tell apart share a key (explore: the colours paid, not the cards)."""
    if move["type"] == "explore":
        colours = tuple(sorted(VIKING_BY_ID[c].colour if c in VIKING_BY_ID else "?" for c in move.get("pay", [])))
        return ("explore", move.get("player"), move.get("card"), colours, move.get("recruits"))
    if move["type"] == "discard_vikings":
        return ("discard_vikings", move.get("player"), tuple(move.get("cards", ())))
    return tuple(sorted((k, v if not isinstance(v, list) else tuple(v)) for k, v in move.items()))


def probe_moves(state: GameState, rng: random.Random, count: int = 12) -> list[dict[str, Any]]:
    """Random moves, legal or not: right or wrong player, cards from anywhere, random payments."""
    ds = state.deck
    n = len(state.players)
    seat = state.active if rng.random() < 0.8 else rng.randrange(n)
    crew = list(ds.crews[seat])
    some_card = [*ds.hands[seat], *crew, *(c for c in ds.slots if c), rng.randrange(1, 51)]
    dests = [c for row in ds.dest_face_up for c in row if c] + list(ds.reserved[seat]) + [rng.randrange(1, 36)]
    out: list[dict[str, Any]] = []
    for _ in range(count):
        kind = rng.choice(["recruit", "take_viking", "explore", "explore", "trade", "reserve", "replace_viking",
                           "discard_vikings", "end_turn"])
        move: dict[str, Any] = {"type": kind, "player": seat}
        if kind == "recruit":
            move["card"] = rng.choice(some_card)
        elif kind in ("take_viking", "replace_viking"):
            move["slot"] = rng.randrange(5)
        elif kind == "explore":
            move["card"] = rng.choice(dests)
            k = rng.randrange(0, min(len(crew), 5) + 1)
            move["pay"] = rng.sample(crew, k)
            if crew and rng.random() < 0.1:
                move["pay"].append(move["pay"][0] if move["pay"] else crew[0])  # a card twice
            move["recruits"] = rng.randrange(0, 4)
        elif kind == "trade":
            move["bracelets"] = rng.randrange(0, 5)
        elif kind == "reserve":
            move["card"] = rng.choice(dests)
        elif kind == "discard_vikings":
            move["cards"] = [rng.choice(crew)] if crew and rng.random() < 0.8 else rng.sample(some_card, 2)
        out.append(move)
    return out


def accepted(setup: Any, state: GameState, move: dict[str, Any]) -> bool:
    try:
        apply_event(setup, state, move)
    except KnarrError:
        return False
    return True


def expected_legal(state: GameState, legal_keys: set[tuple[Any, ...]], move: dict[str, Any]) -> bool:
    """The oracle: a probe is legal iff its key is listed and its cards are really distinct crew cards."""
    if move["type"] == "explore":
        pay = move["pay"]
        if len(set(pay)) != len(pay) or not set(pay) <= set(state.deck.crews[move["player"]]):
            return False
    return move_key(move) in legal_keys


def summary(game: KnarrGame) -> dict[str, Any]:
    """The final table of the `knarr-sim --json` contract: players, winner, rounds, events."""
    view = game.to_dict()
    table = game.ranking()
    winners = [e["name"] for e in table if e["rank"] == 1]
    return {
        "players": [{k: p[k] for k in ("name", "score", "reputation", "recruit", "bracelet", "turns")}
                    for p in view["players"]],
        "winner": winners[0] if len(winners) == 1 else " & ".join(winners),
        "rounds": view["round"],
        "events": game.event_count,
    }

