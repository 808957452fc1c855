"""A turn as the rules shape it, for tables playing with the virtual deck.

The rulebook's turn: (1) reputation income, automatic; (2) exactly one action, Recruit or Explore;
and once per turn, before or after the action, an optional Trade. The engine knows every card, so
it applies every gain itself, checks every cost and the recruit slot rule, runs the Artifacts, and
offers only legal moves (`legal_moves`); anything else is refused with a `KnarrError` whose code
says why.

Events (plain dicts, all by the active player unless said otherwise):

- ``recruit`` (card): a Viking from the hand joins its colour column; the assets of every card in
  that column are applied (caps applied, excess reported). The Recruit then waits for its
  ``take_viking`` (slot): the face-up Viking of the played colour's slot is free; any other costs
  1 recruit (the Cauldron waives it). The slot refills from the deck.
- ``explore`` (card, pay = crew card ids, recruits = n): a face-up Destination (or one this player
  reserved) is paid from the crew, each recruit standing in for any one card; its immediate gain is
  applied and it is placed above the ship; the face-up place refills from the same pile.
- ``trade`` (bracelets = 1..3): columns 1, 1-2 or 1-3 of the ship side in play and of every explored
  Destination, applied at once after the bracelets are spent.
- ``reserve`` (card, Golden Bracelet), ``replace_viking`` (slot, Mead Cup): Artifact offers.
- ``discard_vikings`` (player, cards = [one id]): the "deck and discard both empty" discard, by each
  player named in ``must_discard`` (not necessarily the active one).

"Draw a Viking" gains put the top card straight into the crew without its assets.

Where the facts leave a rule open we follow the rules text and say so here:

- Artifact offers ("may ...", "immediately") stay open until used or until the turn ends, so a Trade
  in between does not lose them. Each offer is used at most once; the Helmet's Recruit and the
  Weathervane's Explore can trigger Artifacts again.
- A "line of 5 colours" is completed when the smallest of the 5 colour columns grows during one
  move (Board Game Arena's reading); a line broken by paying a cost and rebuilt counts again.
- A Recruit whose own slot is empty (the deck ran out) and who cannot spend a recruit takes no card
  (the same when a hand correction took away the recruit the take needed: the turn may then end).
- A player with no Recruit and no Explore possible may end the turn without an action.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, product
from typing import Any

from . import deck as vdeck
from .data import (
    AMULET,
    AMULET_REWARD,
    CAULDRON,
    CAULDRON_COLUMN,
    DESTINATION_BY_ID,
    GOLDEN_BRACELET,
    GOLDEN_BRACELET_COLUMN,
    GOLDEN_BRACELET_MAX_RESERVED,
    HELMET,
    MEAD_CUP,
    SHIP_SIDES,
    SILVER_COIN,
    SILVER_COIN_FROM_COLUMN,
    VIKING_BY_ID,
    VIKING_COLOURS,
    WEATHERVANE,
    Destination,
)
from .deck import DeckState
from .errors import KnarrError
from .frozen import replace
from .messages import notice

RULE_EVENTS: tuple[str, ...] = ("recruit", "take_viking", "explore", "trade", "reserve", "replace_viking",
                                "discard_vikings")
OFFER_FOR_ARTIFACT: Mapping[str, str] = {
    GOLDEN_BRACELET: "reserve", HELMET: "recruit", WEATHERVANE: "explore", MEAD_CUP: "replace",
}
MAX_TRADE = 3


@dataclass(frozen=True)
class TurnState:
    """What the active player has done this turn and what is still open to them."""

    acted: bool = False  # the turn's one action (Recruit or Explore) is done
    traded: bool = False
    take_colour: str | None = None  # a Recruit waiting for its Viking: the colour played
    take_free: bool = False  # Cauldron: this take may be any face-up Viking without a recruit
    offers: tuple[str, ...] = ()  # Artifact offers still open: "reserve", "recruit", "explore", "replace"

    def to_dict(self) -> dict[str, Any]:
        return {"acted": self.acted, "traded": self.traded, "take_colour": self.take_colour,
                "take_free": self.take_free, "offers": list(self.offers)}


# --- pure helpers -----------------------------------------------------------------------------

def column_counts(crew: Sequence[int]) -> dict[str, int]:
    counts = Counter(VIKING_BY_ID[c].colour for c in crew)
    return {colour: counts.get(colour, 0) for colour in VIKING_COLOURS}


def lines_of(crew: Sequence[int]) -> int:
    """Complete lines of 5 colours in a crew: the shortest colour column."""
    return min(column_counts(crew).values())


def payment_error(cost_dest: Destination, pay: Sequence[int], recruits: int) -> str | None:
    """None when these crew cards plus recruits pay exactly this cost, else the reason code."""
    cost = cost_dest.cost
    colours = [VIKING_BY_ID[c].colour for c in pay]
    if len(colours) + recruits != cost.count:
        return "wrong_cost_count"
    if cost.kind == "colours":
        have = Counter(colours)
        if any(n > cost.colours.get(colour, 0) for colour, n in have.items()):
            return "wrong_cost_colour"
    elif cost.kind == "different":
        if len(set(colours)) != len(colours):
            return "cost_needs_different_colours"
    elif cost.kind == "same" and len(set(colours)) > 1:
        return "cost_needs_one_colour"
    return None


def trade_gains(ship_side: str, explored: Sequence[int], bracelets: int) -> dict[str, int]:
    """Assets of columns 1..bracelets of the ship side and of every explored Destination."""
    total: Counter[str] = Counter()
    rows = [SHIP_SIDES[ship_side], *(DESTINATION_BY_ID[d].trade for d in explored)]
    for row in rows:
        for asset in row[:bracelets]:
            if asset is not None:
                total[asset] += 1
    return dict(sorted(total.items()))


def take_cost(turn: TurnState, slot: int) -> int:
    """Recruits a Recruit's take from `slot` costs: 0 for the played colour's slot (or Cauldron), else 1."""
    return 0 if turn.take_free or VIKING_COLOURS[slot] == turn.take_colour else 1


# --- legal moves ------------------------------------------------------------------------------

def _payments(dest: Destination, crew: Sequence[int], recruits: int) -> list[tuple[list[int], int]]:
    """Every distinct way to pay `dest` by colour counts, with the first cards of each column.

    Cards of one colour pay alike, so one concrete choice per colour pattern is listed; the player
    may still pick other cards of the same colours (the validator accepts any).
    """
    columns: dict[str, list[int]] = {c: [] for c in VIKING_COLOURS}
    for card in crew:
        columns[VIKING_BY_ID[card].colour].append(card)
    have = {c: len(v) for c, v in columns.items()}
    cost = dest.cost
    out: list[tuple[list[int], int]] = []
    for r in range(min(recruits, cost.count) + 1):
        need = cost.count - r
        patterns: list[dict[str, int]] = []
        if cost.kind == "colours":
            names = list(cost.colours)
            ranges = [range(min(cost.colours[c], have[c]) + 1) for c in names]
            patterns = [dict(zip(names, ks, strict=True)) for ks in product(*ranges) if sum(ks) == need]
        elif cost.kind == "different":
            available = [c for c in VIKING_COLOURS if have[c]]
            patterns = [{c: 1 for c in combo} for combo in combinations(available, need)]
        else:  # same: at least one card, since 3 recruits never pay a cost of 4 alone
            patterns = [{c: need} for c in VIKING_COLOURS if have[c] >= need]
        for pattern in patterns:
            out.append(([card for c, k in pattern.items() for card in columns[c][:k]], r))
    return out


def _explorable(ds: DeckState, seat: int) -> list[int]:
    return [*vdeck.face_up_destinations(ds), *ds.reserved[seat]]


def legal_moves(setup: Any, state: Any) -> list[dict[str, Any]]:
    """Every legal move now, as events (explore payments: one per colour pattern)."""
    ds: DeckState = state.deck
    if state.finished or ds is None:
        return []
    if ds.must_discard:
        return [{"type": "discard_vikings", "player": s, "cards": [c]}
                for s in ds.must_discard for c in dict.fromkeys(ds.crews[s])]
    seat, turn, p = state.active, state.turn_state, state.players[state.active]
    if turn.take_colour is not None:
        takes = _takes(state)
        # no take left (a hand correction spent the recruit it needed): the Recruit ends without a card
        return takes or [{"type": "end_turn", "player": seat}]
    moves: list[dict[str, Any]] = []
    actions = _action_moves(setup, state)
    moves.extend(actions)
    if not turn.traded:
        moves.extend({"type": "trade", "player": seat, "bracelets": n}
                     for n in range(1, min(MAX_TRADE, p.bracelet) + 1))
    if "reserve" in turn.offers and len(ds.reserved[seat]) < GOLDEN_BRACELET_MAX_RESERVED:
        moves.extend({"type": "reserve", "player": seat, "card": c} for c in vdeck.face_up_destinations(ds))
    if "replace" in turn.offers:
        moves.extend({"type": "replace_viking", "player": seat, "slot": i}
                     for i, card in enumerate(ds.slots) if card is not None)
    if turn.acted or not actions:
        moves.append({"type": "end_turn", "player": seat})
    return moves


def _takes(state: Any) -> list[dict[str, Any]]:
    ds, seat, turn = state.deck, state.active, state.turn_state
    recruits = state.players[seat].recruit
    return [{"type": "take_viking", "player": seat, "slot": i}
            for i, card in enumerate(ds.slots) if card is not None and take_cost(turn, i) <= recruits]


def _action_moves(setup: Any, state: Any) -> list[dict[str, Any]]:
    """Recruit and Explore moves open now: the turn's action, or an Artifact's extra one."""
    ds: DeckState = state.deck
    seat, turn, p = state.active, state.turn_state, state.players[state.active]
    moves: list[dict[str, Any]] = []
    if not turn.acted or "recruit" in turn.offers:
        moves.extend({"type": "recruit", "player": seat, "card": c} for c in dict.fromkeys(ds.hands[seat]))
    if not turn.acted or "explore" in turn.offers:
        for card in _explorable(ds, seat):
            for pay, r in _payments(DESTINATION_BY_ID[card], ds.crews[seat], p.recruit):
                moves.append({"type": "explore", "player": seat, "card": card, "pay": pay, "recruits": r})
    return moves


def can_end_turn(setup: Any, state: Any) -> bool:
    ds, turn = state.deck, state.turn_state
    if ds.must_discard:
        return False
    if turn.take_colour is not None:
        return not _takes(state)
    return turn.acted or not _action_moves(setup, state)


# --- applying ---------------------------------------------------------------------------------

def _ints(value: object, field: str) -> list[int]:
    if not isinstance(value, list) or not all(isinstance(c, int) and not isinstance(c, bool) for c in value):
        raise KnarrError("malformed_event", field=field)
    return list(value)


def _int(value: object, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise KnarrError("malformed_event", field=field)
    return value


class Rules:
    """The virtual-deck rules for one event; `gain` is the engine's capped gain (shared with manual gains)."""

    def __init__(self, setup: Any, state: Any, gain: Any, notices: list[dict[str, Any]]):
        self.setup, self.state, self.gain_fn, self.notices = setup, state, gain, notices
        self.names = [p.name for p in setup.players]

    # state helpers
    @property
    def ds(self) -> DeckState:
        return self.state.deck

    @property
    def turn(self) -> TurnState:
        return self.state.turn_state

    def set(self, **changes: Any) -> None:
        self.state = replace(self.state, **changes)

    def set_turn(self, **changes: Any) -> None:
        self.set(turn_state=replace(self.turn, **changes))

    def name(self, seat: int) -> str:
        return self.names[seat]

    def art(self, artifact: str) -> bool:
        return artifact in self.setup.artifacts

    def apply_assets(self, seat: int, assets: Mapping[str, int]) -> None:
        """VP, reputation, recruits and bracelets through the capped gain; "card" draws into the crew."""
        counts = {k: v for k, v in assets.items() if k != "card" and v}
        if counts:
            self.state = self.gain_fn(self.setup, self.state, seat, counts, self.notices)
        for _ in range(assets.get("card", 0)):
            self.set(deck=vdeck.draw_to_crew(self.ds, self.setup.seed, self.names, seat, self.notices))

    def offer(self, code: str) -> None:
        self.set_turn(offers=(*self.turn.offers, code))
        self.notices.append(notice(f"offer_{code}", player=self.state.active, name=self.name(self.state.active)))

    def use_offer(self, code: str) -> None:
        offers = list(self.turn.offers)
        offers.remove(code)
        self.set_turn(offers=tuple(offers))

    # the rules
    def apply(self, event: Mapping[str, Any]) -> Any:
        kind = event["type"]
        if self.state.finished:
            raise KnarrError("game_over")
        seat = event.get("player")
        if kind == "discard_vikings":
            self.discard(seat, event.get("cards"))
            return self.state
        if seat != self.state.active:
            active = self.state.active
            raise KnarrError("not_active_player", player=seat, name=self.name(seat), active=active,
                             active_name=self.name(active))
        if self.ds.must_discard:
            raise KnarrError("waiting_for_discard", names=[self.name(s) for s in self.ds.must_discard])
        if self.turn.take_colour is not None and kind != "take_viking":
            raise KnarrError("take_a_viking_first")
        lines_before = lines_of(self.ds.crews[seat])
        getattr(self, kind)(seat, event)
        self.check_lines(seat, lines_before)
        return self.state

    def check_lines(self, seat: int, before: int) -> None:
        """Amulet and Weathervane: each line of 5 colours completed by this move."""
        completed = lines_of(self.ds.crews[seat]) - before
        for _ in range(max(0, completed)):
            if self.art(AMULET):
                self.notices.append(notice("artifact_amulet", player=seat, name=self.name(seat)))
                self.apply_assets(seat, AMULET_REWARD)
            if self.art(WEATHERVANE):
                self.offer("explore")

    def recruit(self, seat: int, event: Mapping[str, Any]) -> None:
        turn = self.turn
        extra = turn.acted
        if extra and "recruit" not in turn.offers:
            raise KnarrError("one_action_per_turn")
        card = _int(event.get("card"), "card")
        if card not in self.ds.hands[seat]:
            raise KnarrError("card_not_available", card=card, where="hand")
        if extra:
            self.use_offer("recruit")
        self.set_turn(acted=True)
        self.set(deck=vdeck.play_to_crew(self.ds, seat, card))
        colour = VIKING_BY_ID[card].colour
        column = column_counts(self.ds.crews[seat])[colour]
        gains = vdeck.column_gains(self.ds.crews[seat], colour)
        self.notices.append(notice("column_gains", player=seat, name=self.name(seat), colour=colour,
                                   gain_counts=gains))
        if self.art(SILVER_COIN) and column >= SILVER_COIN_FROM_COLUMN:
            self.notices.append(notice("artifact_silver_coin", player=seat, name=self.name(seat)))
            gains = {**gains, "vp": gains.get("vp", 0) + 1}
        self.apply_assets(seat, gains)
        free = self.art(CAULDRON) and column == CAULDRON_COLUMN
        if free:
            self.notices.append(notice("artifact_cauldron", player=seat, name=self.name(seat)))
        if (self.art(GOLDEN_BRACELET) and column == GOLDEN_BRACELET_COLUMN
                and len(self.ds.reserved[seat]) < GOLDEN_BRACELET_MAX_RESERVED
                and vdeck.face_up_destinations(self.ds)):
            self.offer("reserve")
        self.set_turn(take_colour=colour, take_free=free)
        if not any(card is not None and take_cost(self.turn, i) <= self.state.players[seat].recruit
                   for i, card in enumerate(self.ds.slots)):
            self.notices.append(notice("no_viking_to_take", player=seat, name=self.name(seat), colour=colour))
            self.set_turn(take_colour=None, take_free=False)

    def take_viking(self, seat: int, event: Mapping[str, Any]) -> None:
        if self.turn.take_colour is None:
            raise KnarrError("no_take_now")
        slot = _int(event.get("slot"), "slot")
        if not 0 <= slot < len(self.ds.slots):
            raise KnarrError("malformed_event", field="slot")
        if self.ds.slots[slot] is None:
            raise KnarrError("empty_slot")
        cost = take_cost(self.turn, slot)
        if cost > self.state.players[seat].recruit:
            raise KnarrError("take_needs_recruit", colour=self.turn.take_colour)
        if cost:
            self.state = self.gain_fn(self.setup, self.state, seat, {"recruit": -cost}, self.notices)
        ds, more = vdeck.take_viking(self.ds, self.setup.seed, self.names, seat, slot)
        self.notices.extend(more)
        self.set(deck=ds)
        self.set_turn(take_colour=None, take_free=False)

    def explore(self, seat: int, event: Mapping[str, Any]) -> None:
        turn = self.turn
        extra = turn.acted
        if extra and "explore" not in turn.offers:
            raise KnarrError("one_action_per_turn")
        card = _int(event.get("card"), "card")
        if card not in _explorable(self.ds, seat):
            raise KnarrError("card_not_available", card=card, where="destinations")
        pay = _ints(event.get("pay", []), "pay")
        recruits = _int(event.get("recruits", 0), "recruits")
        crew = list(self.ds.crews[seat])
        for c in pay:
            if c not in crew:
                raise KnarrError("card_not_available", card=c, where="crew")
            crew.remove(c)
        if not 0 <= recruits <= self.state.players[seat].recruit:
            raise KnarrError("negative_tokens", player=seat, name=self.name(seat), token="recruit",
                             have=self.state.players[seat].recruit, spend=recruits)
        dest = DESTINATION_BY_ID[card]
        problem = payment_error(dest, pay, recruits)
        if problem:
            raise KnarrError(problem, cost_text_en=dest.cost.text("en"), cost_text_tr=dest.cost.text("tr"))
        if extra:
            self.use_offer("explore")
        self.set_turn(acted=True)
        previous = self.ds.explored[seat][-1] if self.ds.explored[seat] else None
        if recruits:
            self.state = self.gain_fn(self.setup, self.state, seat, {"recruit": -recruits}, self.notices)
        self.set(deck=replace(self.ds, crews=vdeck._set(self.ds.crews, seat, tuple(crew)),
                              discard=(*self.ds.discard, *pay)))
        ds, more = vdeck.explore_destination(self.ds, seat, card)
        self.notices.extend(more)
        self.set(deck=ds)
        self.notices.append(notice("explored", player=seat, name=self.name(seat), gain_counts=dict(dest.gain)))
        self.apply_assets(seat, dest.gain)
        if self.art(MEAD_CUP):
            self.offer("replace")
        if (self.art(HELMET) and dest.deck == "B" and previous is not None
                and DESTINATION_BY_ID[previous].deck == "A"):
            self.offer("recruit")

    def trade(self, seat: int, event: Mapping[str, Any]) -> None:
        if self.turn.traded:
            raise KnarrError("one_trade_per_turn")
        n = _int(event.get("bracelets"), "bracelets")
        if not 1 <= n <= MAX_TRADE:
            raise KnarrError("invalid_amount", field="bracelets", amount=n)
        have = self.state.players[seat].bracelet
        if n > have:
            raise KnarrError("negative_tokens", player=seat, name=self.name(seat), token="bracelet", have=have,
                             spend=n)
        self.set_turn(traded=True)
        self.state = self.gain_fn(self.setup, self.state, seat, {"bracelet": -n}, self.notices)
        gains = trade_gains(self.setup.ship_side, self.ds.explored[seat], n)
        self.notices.append(notice("traded", player=seat, name=self.name(seat), count=n, gain_counts=gains))
        self.apply_assets(seat, gains)

    def reserve(self, seat: int, event: Mapping[str, Any]) -> None:
        if "reserve" not in self.turn.offers:
            raise KnarrError("no_offer", offer="reserve")
        if len(self.ds.reserved[seat]) >= GOLDEN_BRACELET_MAX_RESERVED:
            raise KnarrError("reserve_full", max=GOLDEN_BRACELET_MAX_RESERVED)
        card = _int(event.get("card"), "card")
        if card not in vdeck.face_up_destinations(self.ds):
            raise KnarrError("card_not_available", card=card, where="destinations")
        self.use_offer("reserve")
        ds, more = vdeck.reserve_destination(self.ds, seat, card)
        self.notices.extend(more)
        self.set(deck=ds)

    def replace_viking(self, seat: int, event: Mapping[str, Any]) -> None:
        if not self.art(MEAD_CUP):
            raise KnarrError("artifact_not_in_play", artifact="mead_cup",
                             artifact_name_en="Mead Cup", artifact_name_tr="Bal Şarabı Kupası")
        if "replace" not in self.turn.offers:
            raise KnarrError("no_offer", offer="replace")
        ds, more = vdeck.replace_viking(self.ds, self.setup.seed, self.names, event.get("slot"))
        self.use_offer("replace")
        self.notices.extend(more)
        self.set(deck=ds)

    def discard(self, seat: int, cards: object) -> None:
        if seat not in self.ds.must_discard:
            raise KnarrError("no_discard_needed", player=seat, name=self.name(seat))
        picked = _ints(cards, "cards")
        if len(picked) != 1:
            raise KnarrError("discard_exactly_one")
        active = self.state.active
        lines_before = lines_of(self.ds.crews[active])
        ds, more = vdeck.discard_vikings(self.ds, self.setup.seed, self.names, seat, picked)
        self.notices.extend(more)
        self.set(deck=ds)
        if not ds.must_discard:
            self.check_lines(active, lines_before)  # a pending "draw a Viking" may land in the crew now
