"""The table's game: an event-sourced, seeded Cartographers session.

A game is `Setup` + a list of plain-dict events; the state is whatever replaying
those events gives. That makes storage trivial (two JSON columns), undo exact
(replay all but the last event), and every phone's view reproducible. All
randomness comes from `random.Random` seeded with the setup seed plus a label,
so the same seed always deals the same game.

Events (JSON objects):
- `{"type": "reveal"}` — one turn: reveal the top card; a Ruins card reveals the
  next card too (and a second Ruins a third). Ends the season when the time
  revealed this season reaches the threshold.
- `{"type": "score", "player": i, "grid": [[word × 11] × 11], "coins": n}` — score
  a map for the season that just ended (`coins` = filled coin-track circles), or
  `{"type": "score", "player": i, "edicts": [a, b], "coins": c, "monsters": m}` for
  points added up on paper. Optional `"season": s` fixes an earlier season.
- `{"type": "map", "player": i, "grid": ...}` — the player's current map (from a
  photo or the grid editor); in solo it places ambush monsters exactly.
- `{"type": "next_season"}` — after a season's scoring: reshuffle and go on, or
  end the game after winter. Lasting ambush effects that act "after scoring"
  (Zombie Plague spreads, Giant Troll Ravage destroys) happen here.
- Cartographers Heroes (`Setup.deck == "heroes"`, or any deck holding heroes):
  `{"type": "hero", "player": i, "cell": [r, c], "orientation": k}` — the player drew
  the revealed hero's 1×1 at `cell` (pattern turned by `k`, 0-7); its hits are marked
  for good and destroy monsters under them, now and later.
  `{"type": "monster", "player": i, "ambush": id, "cells": [[r, c], …]}` — where an
  ambush monster was drawn on player i's map (solo knows it already), so its lasting
  effect can be followed. `{"type": "destroy", "player": i, "cell": [r, c]}` — resolve
  a pending Gorgon/Troll choice on player i's map.
- Skills: `{"type": "spend", "player": i, "coins": n, "skill": name}` — coins spent on
  a skill are crossed off the coin track and no longer score.
- `{"type": "drawn", "player": i}` — the player is done drawing the newest card (again: not done);
  a note for the table that never blocks the next reveal.
- `{"type": "joined"}` — a second phone opened the table (a note for the page, not a move).
Illegal events raise `GameError` (a ValueError with a stable `code`) and leave
the game as it was.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any

from .board import RUINS_NORMAL, RUINS_RULES, Board, BoardError
from .cards import BASE
from .data import (
    AMBUSH_BY_ID,
    CARD_SETS,
    CATEGORIES,
    COIN_TRACK_LENGTH,
    EDICTS,
    EXPLORE_BY_ID,
    HERO_BY_ID,
    HERO_PREFIX,
    MAPS,
    SCORING_BY_ID,
    card_by_id,
)
from .heroes import (
    alive,
    apply_hits,
    destroy_candidates,
    hero_hits,
    sealed_or_destroyed,
    zombie_spread,
)
from .scoring import score_season
from .sides import SideError, normalise_side, side_layout
from .solo import solo_ambush, solo_rating, threshold_sum
from .terrain import Terrain, shorten

MAX_PLAYERS = 100
AMBUSH_PREFIX = "ambush-"
MAX_SKILLS = 3  # the Skills packs: three skills in play per game


class GameError(ValueError):
    """A move the rules do not allow; `code` is stable for translation and tests."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Setup:
    seed: int
    side: str = "A"
    players: tuple[str, ...] = ("Player 1",)
    scoring: tuple[str, str, str, str] | None = None  # card ids under edicts A-D; None = drawn from the seed
    deck: str = BASE  # whose explore deck, ambushes, heroes and seasons: "base" or "heroes"
    skills: tuple[str, ...] = ()  # names of the skills in play, as the table typed them (no texts invented)
    # when no shape can cover a ruins space: "normal" placement rules apply (the rules we were given) or,
    # as a table option, "single_square" (the printed rulebook's ruling: draw one square of any terrain)
    ruins_rule: str = RUINS_NORMAL

    def __post_init__(self) -> None:
        if not isinstance(self.seed, int) or isinstance(self.seed, bool):
            raise GameError("bad_setup", "the seed must be an integer")
        side = normalise_side(self.side)
        try:
            side_layout(side)
        except SideError as exc:
            raise GameError("bad_setup", f"the map side must be one of {', '.join(MAPS)} or a table's own side: "
                                         f"{exc}") from None
        object.__setattr__(self, "side", side)
        if self.deck not in CARD_SETS:
            raise GameError("bad_setup", f"the explore deck must be one of {', '.join(CARD_SETS)}")
        skills = tuple(str(x).strip() for x in self.skills)
        if len(skills) > MAX_SKILLS or any(not x or len(x) > 60 for x in skills):
            raise GameError("bad_setup", f"name up to {MAX_SKILLS} skills (1-60 characters each)")
        object.__setattr__(self, "skills", skills)
        players = tuple(str(p).strip() for p in self.players)
        if not 1 <= len(players) <= MAX_PLAYERS or any(not p for p in players):
            raise GameError("bad_setup", "give between 1 and 100 player names")
        object.__setattr__(self, "players", players)
        if self.scoring is not None:
            ids = tuple(self.scoring)
            if len(ids) != 4 or any(i not in SCORING_BY_ID for i in ids):
                raise GameError("bad_setup", "choose four known scoring cards, one per edict A-D")
            if sorted(SCORING_BY_ID[i].category for i in ids) != sorted(CATEGORIES):
                raise GameError("bad_setup", "choose one scoring card of each category")
            object.__setattr__(self, "scoring", ids)
        if self.ruins_rule not in RUINS_RULES:
            raise GameError("bad_setup", f"the ruins rule must be one of: {', '.join(RUINS_RULES)}")

    @property
    def solo(self) -> bool:
        return len(self.players) == 1

    def to_dict(self) -> dict[str, Any]:
        out = {"seed": self.seed, "side": self.side, "players": list(self.players),
               "scoring": list(self.scoring) if self.scoring else None}
        if self.deck != BASE or self.skills:  # base games keep their stored form
            out.update(deck=self.deck, skills=list(self.skills))
        if self.ruins_rule != RUINS_NORMAL:  # stored setups from before the option read the same
            out["ruins_rule"] = self.ruins_rule
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Setup:
        if not isinstance(d, dict):
            raise GameError("bad_setup", "setup must be an object")
        scoring = d.get("scoring")
        return cls(
            seed=d.get("seed"),  # type: ignore[arg-type]
            side=d.get("side", "A"),
            players=tuple(d.get("players") or ("Player 1",)),
            scoring=tuple(scoring) if scoring else None,  # type: ignore[arg-type]
            deck=d.get("deck", BASE),
            skills=tuple(d.get("skills") or ()),
            ruins_rule=d.get("ruins_rule", RUINS_NORMAL),
        )

    @property
    def card_set(self):
        """The set whose explore deck, ambushes, heroes and seasons this table plays."""
        return CARD_SETS[self.deck]

    @property
    def seasons(self):
        return CARD_SETS[self.deck].seasons


def _rng(seed: int, label: str) -> random.Random:
    return random.Random(f"mapsmith/{seed}/{label}")


def draw_scoring_cards(seed: int, deck: str = BASE) -> tuple[str, str, str, str]:
    """One card per category (from the deck's set), assigned to edicts A-D at random (the rulebook's setup)."""
    rng = _rng(seed, "scoring")
    cards = CARD_SETS[deck].scoring
    picks = [rng.choice([c.id for c in cards if c.category == cat]) for cat in CATEGORIES]
    rng.shuffle(picks)
    return tuple(picks)  # type: ignore[return-value]


@dataclass
class _State:
    """Mutable working state, rebuilt by replay and copied before every change."""

    scoring: tuple[str, ...]
    deck: list[str]
    ambush_deck: list[str]
    season: int = 0
    phase: str = "explore"
    turns: list[dict[str, Any]] = field(default_factory=list)
    time: int = 0
    ruins_pending: bool = False
    removed_ambushes: list[str] = field(default_factory=list)
    maps: dict[int, Board] = field(default_factory=dict)
    scores: list[list[dict[str, Any] | None]] = field(default_factory=list)
    shuffles: int = 0
    # Cartographers Heroes
    hero_deck: list[str] = field(default_factory=list)
    removed_heroes: list[str] = field(default_factory=list)
    hits: dict[int, frozenset] = field(default_factory=dict)  # lasting hit marks per player
    heroes_placed: dict[int, list[str]] = field(default_factory=dict)  # hero ids each player has drawn
    monsters: dict[int, dict[str, tuple]] = field(default_factory=dict)  # ambush id -> its cells, per player
    pending: list[dict[str, Any]] = field(default_factory=list)  # Gorgon/Troll choices still to make
    notices: list[dict[str, Any]] = field(default_factory=list)  # lasting effects that happened (newest last)
    dragon_paid: list[tuple[int, str]] = field(default_factory=list)
    # Skills: coins crossed off per player (they no longer score)
    spent: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    joined: bool = False  # another phone has opened the table (the host's invitation can fold away)


def _initial_state(setup: Setup) -> _State:
    cs = setup.card_set
    scoring = setup.scoring or draw_scoring_cards(setup.seed, setup.deck)
    ambush_deck = [a.id for a in cs.ambushes]
    _rng(setup.seed, "ambush").shuffle(ambush_deck)
    hero_deck = [h.id for h in cs.heroes]
    _rng(setup.seed, "heroes").shuffle(hero_deck)
    deck = [c.id for c in cs.explore] + [AMBUSH_PREFIX + ambush_deck.pop(0)]
    if hero_deck:  # Heroes: one hero and one ambush are shuffled in each season
        deck.append(HERO_PREFIX + hero_deck.pop(0))
    _rng(setup.seed, "deck/0").shuffle(deck)
    return _State(
        scoring=tuple(scoring),
        deck=deck,
        ambush_deck=ambush_deck,
        scores=[[None] * len(cs.seasons) for _ in setup.players],
        shuffles=1,
        hero_deck=hero_deck,
    )


@dataclass(frozen=True)
class Game:
    setup: Setup
    events: tuple[dict[str, Any], ...]
    _state: _State = field(repr=False, compare=False)

    # -- construction -------------------------------------------------------
    @classmethod
    def new(cls, setup: Setup) -> Game:
        return cls(setup, (), _initial_state(setup))

    @classmethod
    def replay(cls, setup: Setup, events: list[dict[str, Any]] | tuple[dict[str, Any], ...]) -> Game:
        game = cls.new(setup)
        for event in events:
            game = game.apply(event)
        return game

    def apply(self, event: dict[str, Any]) -> Game:
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise GameError("bad_event", "an event must be an object with a type")
        handler = _HANDLERS.get(event["type"])
        if handler is None:
            raise GameError("bad_event", f"unknown event type {shorten(event['type'])!r}")
        state = copy.copy(self._state)
        state.deck = list(state.deck)
        state.ambush_deck = list(state.ambush_deck)
        state.turns = list(state.turns)
        state.removed_ambushes = list(state.removed_ambushes)
        state.maps = dict(state.maps)
        state.scores = [list(row) for row in state.scores]
        for name in ("hero_deck", "removed_heroes", "hits", "heroes_placed", "monsters", "pending", "notices",
                     "dragon_paid", "spent"):
            setattr(state, name, copy.deepcopy(getattr(state, name)))
        stored = handler(self.setup, state, dict(event))
        return Game(self.setup, (*self.events, stored), state)

    def undo(self) -> Game:
        """The game exactly as it was before the last event."""
        if not self.events:
            raise GameError("nothing_to_undo", "there is nothing to undo")
        return Game.replay(self.setup, self.events[:-1])

    # -- read-only view -------------------------------------------------------
    @property
    def phase(self) -> str:
        return self._state.phase

    @property
    def season(self) -> int:
        return self._state.season

    @property
    def time(self) -> int:
        return self._state.time

    @property
    def scoring(self) -> tuple[str, ...]:
        return self._state.scoring

    @property
    def turns(self) -> list[dict[str, Any]]:
        return copy.deepcopy(self._state.turns)

    @property
    def deck_size(self) -> int:
        return len(self._state.deck)

    @property
    def removed_ambushes(self) -> list[str]:
        return list(self._state.removed_ambushes)

    def known_map(self, player: int) -> Board | None:
        return self._state.maps.get(player)

    @property
    def removed_heroes(self) -> list[str]:
        return list(self._state.removed_heroes)

    def hits(self, player: int) -> frozenset:
        """The player's lasting hit marks (Heroes)."""
        return self._state.hits.get(player, frozenset())

    @property
    def pending(self) -> list[dict[str, Any]]:
        return copy.deepcopy(self._state.pending)

    @property
    def notices(self) -> list[dict[str, Any]]:
        return copy.deepcopy(self._state.notices)

    def spent_coins(self, player: int) -> int:
        return sum(x["coins"] for x in self._state.spent.get(player, []))

    def edicts_for(self, season: int) -> tuple[str, str]:
        letters = self.setup.seasons[season].edicts
        return tuple(self._state.scoring[EDICTS.index(x)] for x in letters)  # type: ignore[return-value]

    def season_scores(self, player: int) -> list[dict[str, Any] | None]:
        return copy.deepcopy(self._state.scores[player])

    def result(self) -> dict[str, Any]:
        """Totals, ranking and tie-break (fewest stars lost to monsters, then shared)."""
        players = []
        for i, name in enumerate(self.setup.players):
            rows = self._state.scores[i]
            players.append({
                "player": i,
                "name": name,
                "total": sum(r["total"] for r in rows if r),
                "monsters": sum(r["monsters"] for r in rows if r),
                "complete": all(rows),
            })
        ranking = sorted(players, key=lambda p: (-p["total"], p["monsters"], p["player"]))
        best = max(p["total"] for p in players)
        top = [p for p in players if p["total"] == best]
        tie_break = None
        if len(top) > 1:
            fewest = min(p["monsters"] for p in top)
            winners = [p for p in top if p["monsters"] == fewest]
            tie_break = "monsters" if len(winners) == 1 else "shared"
        else:
            winners = top
        for p in ranking:
            p["rank"] = 1 + sum(
                1 for q in players if (q["total"], -q["monsters"]) > (p["total"], -p["monsters"])
            )
        out: dict[str, Any] = {
            "ranking": ranking,
            "winners": [p["player"] for p in winners],
            "tie_break": tie_break,
            "complete": all(p["complete"] for p in players),
        }
        if self.setup.solo:
            rating, title = solo_rating(players[0]["total"], self._state.scoring)
            out["solo"] = {
                "rating": rating,
                "threshold_sum": threshold_sum(self._state.scoring),
                "title_en": title.name_en,
                "title_tr": title.name_tr,
            }
        return out

    def to_dict(self) -> dict[str, Any]:
        """The JSON view every phone renders."""
        st = self._state
        season = self.setup.seasons[st.season]
        cs = self.setup.card_set
        return {
            "deck_set": {"id": cs.id, "name_en": cs.name_en, "name_tr": cs.name_tr,
                         "names_tr_ours": cs.names_tr_ours, "has_heroes": bool(cs.heroes),
                         "doubts": [{"id": d.id, "text_en": d.text_en, "text_tr": d.text_tr} for d in cs.doubts]},
            "skills": list(self.setup.skills),
            "hits": {str(p): sorted([list(c) for c in cells]) for p, cells in st.hits.items()},
            "heroes_placed": {str(p): list(v) for p, v in st.heroes_placed.items()},
            "pending": copy.deepcopy(st.pending),
            "notices": copy.deepcopy(st.notices),
            "spent": {str(p): copy.deepcopy(v) for p, v in st.spent.items()},
            "removed_heroes": list(st.removed_heroes),
            "monsters": {str(p): {a: [list(c) for c in cells] for a, cells in m.items()}
                         for p, m in st.monsters.items()},
            "setup": self.setup.to_dict(),
            "ruins_rule": self.setup.ruins_rule,
            "solo": self.setup.solo,
            "players": list(self.setup.players),
            "side": self.setup.side,
            "phase": st.phase,
            "events": len(self.events),
            "edicts": [
                {"letter": letter, "card": _scoring_view(cid)} for letter, cid in zip(EDICTS, st.scoring, strict=True)
            ],
            "season": {
                "index": st.season,
                "name_en": season.name_en,
                "name_tr": season.name_tr,
                "threshold": season.threshold,
                "time": st.time,
                "edicts": list(season.edicts),
            },
            "turns": [_turn_view(t, self.setup.solo) for t in st.turns],
            "ruins_pending": st.ruins_pending,
            "joined": st.joined,
            "deck_remaining": len(st.deck),
            "removed_ambushes": list(st.removed_ambushes),
            "maps": {str(i): b.to_words() for i, b in st.maps.items()},
            "scores": copy.deepcopy(st.scores),
            "result": self.result(),
        }


# -- event handlers --------------------------------------------------------------

def _player(setup: Setup, event: dict[str, Any]) -> int:
    p = event.get("player")
    if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < len(setup.players):
        raise GameError("unknown_player", "unknown player")
    return p


def _board(setup: Setup, event: dict[str, Any]) -> Board:
    try:
        return Board.from_words(setup.side, event.get("grid"))  # type: ignore[arg-type]
    except BoardError as exc:
        raise GameError("bad_grid", str(exc)) from exc  # the cause keeps the cell and what is wrong there


def _count(event: dict[str, Any], key: str, low: int = 0, high: int = 1000) -> int:
    v = event.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not low <= v <= high:
        raise GameError("bad_event", f"{key} must be a whole number between {low} and {high}")
    return v


def _not_over(st: _State) -> None:
    if st.phase == "over":
        raise GameError("game_over", "the game is over")


def _reveal(setup: Setup, st: _State, event: dict[str, Any]) -> dict[str, Any]:
    _not_over(st)
    if st.phase != "explore":
        raise GameError("season_over", "the season has ended: score it and start the next season")
    cards: list[str] = []
    while True:
        if not st.deck:
            raise GameError("deck_empty", "the explore deck is empty")
        cid = st.deck.pop(0)
        cards.append(cid)
        if not _is_explore(cid) or EXPLORE_BY_ID[cid].kind != "ruins":
            break
    last = cards[-1]
    ruins_required = st.ruins_pending or any(
        _is_explore(c) and EXPLORE_BY_ID[c].kind == "ruins" for c in cards
    )
    turn: dict[str, Any] = {"cards": cards, "ruins_required": False, "time": 0}
    if last.startswith(HERO_PREFIX):
        st.ruins_pending = ruins_required  # like an ambush, a hero does not use up a pending Ruins card
        st.removed_heroes.append(last.removeprefix(HERO_PREFIX))
    elif last.startswith(AMBUSH_PREFIX):
        st.ruins_pending = ruins_required  # the requirement waits for the next explore card
        ambush = AMBUSH_BY_ID[last.removeprefix(AMBUSH_PREFIX)]
        st.removed_ambushes.append(ambush.id)
        if setup.solo:
            turn["solo"] = _solo_resolution(st, ambush.id)
        if ambush.effect == "destroy_when_drawn":
            for p in range(len(setup.players)):
                _add_pending(st, p, ambush.id)
    else:
        turn["ruins_required"] = ruins_required
        st.ruins_pending = False
        turn["time"] = EXPLORE_BY_ID[last].time
    st.turns.append(turn)
    st.time += turn["time"]
    if st.time >= setup.seasons[st.season].threshold:
        st.phase = "season_end"
    return event


def _is_explore(cid: str) -> bool:
    return not (cid.startswith(AMBUSH_PREFIX) or cid.startswith(HERO_PREFIX))


def _solo_resolution(st: _State, ambush_id: str) -> dict[str, Any] | None:
    """Place the monster on the known map (and draw it there), or None when the map is unknown."""
    board = st.maps.get(0)
    if board is None:
        return None
    cells = solo_ambush(board, AMBUSH_BY_ID[ambush_id])
    if cells is None:
        st.monsters.setdefault(0, {})[ambush_id] = ()  # never drawn: no lasting effect on this map
        return {"cells": [], "ignored": True}
    _set_map(st, 0, board.draw(cells, Terrain.MONSTER))
    st.monsters.setdefault(0, {})[ambush_id] = tuple(cells)
    _check_dragons(st, 0)
    return {"cells": [list(c) for c in cells], "ignored": False}


# -- Heroes: lasting hits, monsters followed on known maps, pending choices ---------------

def _set_map(st: _State, player: int, board: Board) -> None:
    """Every new map of a player passes under their lasting hit marks: monsters there are destroyed."""
    st.maps[player] = apply_hits(board, st.hits.get(player, ()))


def _add_pending(st: _State, player: int, ambush_id: str) -> None:
    """Ask for a Gorgon/Troll choice on a map (replacing an unanswered one from an earlier season)."""
    st.pending = [p for p in st.pending if not (p["player"] == player and p["ambush"] == ambush_id)]
    card = AMBUSH_BY_ID[ambush_id]
    item: dict[str, Any] = {"player": player, "ambush": ambush_id, "effect": card.effect, "chooser": card.chooser,
                            "candidates": None}
    board, cells = st.maps.get(player), st.monsters.get(player, {}).get(ambush_id)
    if board is not None and cells is not None:
        if not alive(board, cells):
            return  # every space of the monster is destroyed: its effect has stopped
        item["candidates"] = [list(c) for c in destroy_candidates(board, card, cells)]
        if not item["candidates"]:
            return
    st.pending.append(item)


def _check_dragons(st: _State, player: int) -> None:
    """Dragon Inferno: 3 coins, once, when every Dragon space is surrounded or destroyed (map known)."""
    board = st.maps.get(player)
    if board is None:
        return
    for ambush_id, cells in st.monsters.get(player, {}).items():
        card = AMBUSH_BY_ID[ambush_id]
        if card.effect != "coins_when_sealed" or (player, ambush_id) in st.dragon_paid or not cells:
            continue
        if sealed_or_destroyed(board, cells):
            st.dragon_paid.append((player, ambush_id))
            st.notices.append({"player": player, "ambush": ambush_id, "effect": card.effect,
                               "coins": card.effect_amount, "season": st.season})


def _cell(event: dict[str, Any], key: str = "cell") -> tuple[int, int]:
    v = event.get(key)
    if (not isinstance(v, list | tuple) or len(v) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 11 for x in v)):
        raise GameError("bad_cell", f"{key} must be [row, column] with numbers 0-10")
    return (v[0], v[1])


def _hero(setup: Setup, st: _State, event: dict[str, Any]) -> dict[str, Any]:
    _not_over(st)
    player = _player(setup, event)
    revealed = [c.removeprefix(HERO_PREFIX) for t in st.turns for c in t["cards"] if c.startswith(HERO_PREFIX)]
    placed = st.heroes_placed.setdefault(player, [])
    todo = [h for h in revealed if h not in placed]
    if not todo:
        raise GameError("no_hero", "no hero has been revealed this season for this player to draw")
    hero_id = event.get("hero", todo[-1])
    if hero_id not in todo:
        raise GameError("no_hero", "that hero is not waiting to be drawn")
    cell = _cell(event)
    orientation = event.get("orientation", 0)
    if not isinstance(orientation, int) or isinstance(orientation, bool) or not 0 <= orientation < 8:
        raise GameError("bad_event", "orientation must be a whole number from 0 to 7")
    hits = hero_hits(HERO_BY_ID[hero_id], cell, orientation)
    board = st.maps.get(player)
    if board is not None:
        try:
            board = board.draw([cell], Terrain.HERO)
        except BoardError as exc:
            raise GameError("bad_cell", str(exc)) from None
    placed.append(hero_id)
    st.hits[player] = frozenset(st.hits.get(player, frozenset()) | set(hits))
    if board is not None:
        _set_map(st, player, board)
        _check_dragons(st, player)
    return {"type": "hero", "player": player, "hero": hero_id, "cell": list(cell), "orientation": orientation}


def _monster(setup: Setup, st: _State, event: dict[str, Any]) -> dict[str, Any]:
    """Record where an ambush monster stands on a player's map, so its lasting effect can be followed."""
    _not_over(st)
    player = _player(setup, event)
    ambush_id = event.get("ambush")
    if ambush_id not in st.removed_ambushes:
        raise GameError("bad_event", "that ambush has not been revealed")
    raw = event.get("cells")
    if not isinstance(raw, list) or not raw or len(raw) > 25:
        raise GameError("bad_event", "cells must list the monster's spaces")
    cells = tuple(sorted({_cell({"c": c}, "c") for c in raw}))
    st.monsters.setdefault(player, {})[ambush_id] = cells
    board = st.maps.get(player)
    if board is not None:
        wrong = [c for c in cells if board.at(c) not in (Terrain.MONSTER, Terrain.DESTROYED)]
        if wrong:
            raise GameError("bad_cell", "the map shows no monster on some of those spaces")
    # a pending choice made before the cells were known gets its candidates now
    st.pending = [p for p in st.pending if not (p["player"] == player and p["ambush"] == ambush_id)]
    if AMBUSH_BY_ID[ambush_id].effect == "destroy_when_drawn" and not any(
            n.get("destroyed_by") == ambush_id and n["player"] == player for n in st.notices):
        _add_pending(st, player, ambush_id)
    _check_dragons(st, player)
    return {"type": "monster", "player": player, "ambush": ambush_id, "cells": [list(c) for c in cells]}


def _destroy(setup: Setup, st: _State, event: dict[str, Any]) -> dict[str, Any]:
    """Resolve a pending Gorgon or Troll choice: the chosen space on the player's map is destroyed."""
    _not_over(st)
    player = _player(setup, event)
    cell = _cell(event)
    mine = [i for i, p in enumerate(st.pending) if p["player"] == player]
    if "ambush" in event:
        mine = [i for i in mine if st.pending[i]["ambush"] == event["ambush"]]
    if not mine:
        raise GameError("nothing_pending", "nothing is waiting to be destroyed on this map")
    item = st.pending[mine[0]]
    if item["candidates"] is not None and list(cell) not in item["candidates"]:
        raise GameError("bad_cell", "that space cannot be destroyed by this monster")
    board = st.maps.get(player)
    if board is not None:
        if board.at(cell) in (Terrain.MOUNTAIN, Terrain.WASTELAND):
            raise GameError("bad_cell", "mountains and wastelands cannot be destroyed")
        _set_map(st, player, board.destroy([cell]))
        _check_dragons(st, player)
    del st.pending[mine[0]]
    st.notices.append({"player": player, "ambush": item["ambush"], "effect": item["effect"],
                       "destroyed_by": item["ambush"], "cell": list(cell), "season": st.season})
    return {"type": "destroy", "player": player, "ambush": item["ambush"], "cell": list(cell)}


def _after_scoring(setup: Setup, st: _State) -> None:
    """Lasting effects that act after a season's scoring: Zombie Plague spreads, Giant Troll Ravage destroys."""
    for ambush_id in st.removed_ambushes:
        card = AMBUSH_BY_ID[ambush_id]
        for player in range(len(setup.players)):
            board, cells = st.maps.get(player), st.monsters.get(player, {}).get(ambush_id)
            if card.effect == "spread_after_scoring":
                note: dict[str, Any] = {"player": player, "ambush": ambush_id, "effect": card.effect,
                                        "season": st.season, "cells": None}
                if board is not None and cells is not None:
                    if not alive(board, cells):
                        continue
                    spread = zombie_spread(board, cells)
                    _set_map(st, player, board.draw(spread, Terrain.MONSTER) if spread else board)
                    st.monsters[player][ambush_id] = tuple(sorted({*cells, *spread}))
                    note["cells"] = [list(c) for c in spread]
                st.notices.append(note)
                _check_dragons(st, player)  # new zombies may close the last gap around a Dragon
            elif card.effect == "destroy_after_scoring":
                _add_pending(st, player, ambush_id)


def _spend(setup: Setup, st: _State, event: dict[str, Any]) -> dict[str, Any]:
    """Skills: coins spent on a skill are crossed off the coin track and stop scoring from now on."""
    _not_over(st)
    player = _player(setup, event)
    coins = _count(event, "coins", 1, COIN_TRACK_LENGTH)
    skill = str(event.get("skill") or "").strip()
    if setup.skills and skill not in setup.skills:
        raise GameError("bad_skill", "that skill is not in play at this table")
    if sum(x["coins"] for x in st.spent.get(player, [])) + coins > COIN_TRACK_LENGTH:
        raise GameError("bad_event", f"no more than {COIN_TRACK_LENGTH} coins can be spent in a game")
    st.spent.setdefault(player, []).append({"coins": coins, "skill": skill[:60], "season": st.season})
    return {"type": "spend", "player": player, "coins": coins, "skill": skill[:60]}


def _map(setup: Setup, st: _State, event: dict[str, Any]) -> dict[str, Any]:
    _not_over(st)
    player = _player(setup, event)
    board = _board(setup, event)
    _set_map(st, player, board)
    _check_dragons(st, player)
    if setup.solo and st.turns:
        last = st.turns[-1]
        cid = last["cards"][-1]
        if cid.startswith(AMBUSH_PREFIX) and last.get("solo") is None:
            ambush_id = cid.removeprefix(AMBUSH_PREFIX)
            st.turns[-1] = {**last, "solo": _solo_resolution(st, ambush_id)}
            if AMBUSH_BY_ID[ambush_id].effect == "destroy_when_drawn":
                _add_pending(st, player, ambush_id)  # now with the spaces next to the placed Gorgon
    # store the map as given: replay re-derives any monster placement from it
    return {"type": "map", "player": player, "grid": board.to_words()}


def _score(setup: Setup, st: _State, event: dict[str, Any]) -> dict[str, Any]:
    player = _player(setup, event)
    season = event.get("season", st.season)
    if not isinstance(season, int) or isinstance(season, bool) or not 0 <= season < len(setup.seasons):
        raise GameError("bad_season", "unknown season")
    if season > st.season or (season == st.season and st.phase == "explore"):
        raise GameError("bad_season", "that season has not ended yet")
    edicts = tuple(st.scoring[EDICTS.index(x)] for x in setup.seasons[season].edicts)
    track = _count(event, "coins", 0, COIN_TRACK_LENGTH)
    # Skills: coins crossed off (spent) up to this season no longer score
    spent = sum(x["coins"] for x in st.spent.get(player, []) if x["season"] <= season)
    coins = max(0, track - spent)
    if "grid" in event:
        board = _board(setup, event)
        if season == st.season:
            board = apply_hits(board, st.hits.get(player, ()))  # monsters under lasting hit marks are gone
        result = score_season(board, edicts, coins)
        entry = {
            "source": "grid",
            "edicts": [e.points for e in result.edicts],
            "coins": coins,
            "monsters": result.monsters.points,
            "total": result.total,
            "detail": result.to_dict(),
        }
        if season == st.season:
            st.maps[player] = board
    else:
        points = event.get("edicts")
        if not isinstance(points, list) or len(points) != 2:
            raise GameError("bad_event", "give the points of the season's two edicts")
        for p in points:
            if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p <= 1000:
                raise GameError("bad_event", "edict points must be whole numbers between 0 and 1000")
        monsters = _count(event, "monsters", 0, 121)
        entry = {
            "source": "manual",
            "edicts": list(points),
            "coins": coins,
            "monsters": monsters,
            "total": sum(points) + coins - monsters,
        }
    entry["cards"] = list(edicts)
    if spent:
        entry.update(coins_track=track, spent=spent)
    st.scores[player][season] = entry
    return event


def _drawn(setup: Setup, st: _State, event: dict[str, Any]) -> dict[str, Any]:
    """A player taps "done drawing" for the newest card (tapping again takes it back).

    Only a note for the table: it never blocks a reveal, and the next reveal starts everyone afresh.
    """
    _not_over(st)
    player = _player(setup, event)
    if st.phase == "over" or not st.turns:
        raise GameError("bad_event", "nothing to draw right now")
    last = st.turns[-1]
    done = set(last.get("drawn", ()))
    done.symmetric_difference_update({player})
    st.turns[-1] = {**last, "drawn": sorted(done)}
    return {"type": "drawn", "player": player}


def _joined(setup: Setup, st: _State, event: dict[str, Any]) -> dict[str, Any]:
    """A second phone opened the table: a note for the page, not a move of the game."""
    st.joined = True
    return {"type": "joined"}


def _next_season(setup: Setup, st: _State, event: dict[str, Any]) -> dict[str, Any]:
    _not_over(st)
    if st.phase != "season_end":
        raise GameError("season_not_over", "the season has not ended yet")
    if st.season == len(setup.seasons) - 1:
        st.phase = "over"
        return event
    _after_scoring(setup, st)
    revealed_explore = [c for t in st.turns for c in t["cards"] if _is_explore(c)]
    st.season += 1
    deck = st.deck + revealed_explore
    if st.ambush_deck:
        deck.append(AMBUSH_PREFIX + st.ambush_deck.pop(0))
    if st.hero_deck:
        deck.append(HERO_PREFIX + st.hero_deck.pop(0))
    _rng(setup.seed, f"deck/{st.season}").shuffle(deck)
    st.deck = deck
    st.turns = []
    st.time = 0
    st.ruins_pending = False
    st.phase = "explore"
    st.shuffles += 1
    return event


_HANDLERS = {
    "reveal": _reveal,
    "map": _map,
    "score": _score,
    "next_season": _next_season,
    "hero": _hero,
    "monster": _monster,
    "destroy": _destroy,
    "spend": _spend,
    "drawn": _drawn,
    "joined": _joined,
}


# -- views -----------------------------------------------------------------------

def _scoring_view(cid: str) -> dict[str, Any]:
    c = SCORING_BY_ID[cid]
    return {
        "id": c.id, "number": c.number, "name_en": c.name_en, "name_tr": c.name_tr, "category": c.category,
        "solo_threshold": c.solo_threshold, "text_en": c.text_en, "text_tr": c.text_tr,
        **({"card_set": c.card_set} if c.card_set != BASE else {}),
    }


def card_view(cid: str) -> dict[str, Any]:
    """Everything a phone needs to draw a card: names, time, terrains, shapes as cells, coin marks."""
    card = card_by_id(cid)
    if cid.startswith(HERO_PREFIX):
        return {
            "id": cid, "kind": "hero", "name_en": card.name_en, "name_tr": card.name_tr, "time": 0,
            "terrains": [Terrain.HERO.value], "options": [{"cells": [[0, 0]], "coin": False}],
            "hits": [list(x) for x in card.hits], "card_set": card.card_set,
        }
    if cid.startswith(AMBUSH_PREFIX):
        extra = {"card_set": card.card_set, "effect": card.effect, "effect_en": card.effect_en,
                 "effect_tr": card.effect_tr, "chooser": card.chooser} if card.effect else {}
        return {
            "id": cid, "kind": "ambush", "name_en": card.name_en, "name_tr": card.name_tr, "time": 0,
            "terrains": [Terrain.MONSTER.value],
            "options": [{"cells": [list(x) for x in card.shape], "coin": False}],
            "direction": card.direction,
            # clockwise = pass your sheet to the player on your left, counterclockwise = to your right
            "pass_to": "left" if card.direction == "clockwise" else "right",
            "solo_corner": card.solo_corner,
            **extra,
        }
    return {
        "id": cid, "kind": card.kind, "name_en": card.name_en, "name_tr": card.name_tr, "time": card.time,
        "terrains": [t.value for t in card.terrains],
        "options": [{"cells": [list(x) for x in o.cells], "coin": o.coin} for o in card.options],
    }


def _turn_view(turn: dict[str, Any], solo: bool) -> dict[str, Any]:
    view = {
        "cards": [card_view(c) for c in turn["cards"]],
        "ruins_required": turn["ruins_required"],
        "time": turn["time"],
        "drawn": list(turn.get("drawn", ())),
    }
    if solo and turn["cards"][-1].startswith(AMBUSH_PREFIX):
        view["solo"] = turn.get("solo")
    return view
