"""The virtual Viking and Destination decks, for tables playing from printed or missing cards.

It tracks the shared supply (Viking draw pile, the 5 face-up Vikings, the discard pile, both
Destination piles and their 3 + 3 face-up cards) and where each card went (hand, crew,
explored and reserved Destinations), because the "deck and discard both empty" rule needs to know
who has the most Vikings in front of them. The rules of a turn (what may be played when, costs,
gains, Artifacts) live in `turn.py`; these are the card movements they are made of.

All functions are pure: they take a `DeckState` and return a new one plus notices. Random
reshuffles draw from a stream derived from the game seed and the reshuffle count, so a replay
of the same events deals exactly the same cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .data import (
    DESTINATION_BY_ID,
    DESTINATION_DECK_NAMES,
    DESTINATION_DECKS,
    DESTINATIONS,
    FACE_UP_DESTINATIONS_PER_DECK,
    FACE_UP_VIKINGS,
    START_CREW,
    START_HAND,
    VIKING_BY_ID,
    viking_deck,
)
from .errors import KnarrError
from .frozen import replace
from .messages import notice
from .setup import seeded_rng

Target = tuple[str, int]  # ("slot", slot index) | ("hand", seat) | ("crew", seat)


@dataclass(frozen=True)
class DeckState:
    draw_pile: tuple[int, ...]  # Viking ids, top card first
    discard: tuple[int, ...]  # Viking ids, most recent last
    slots: tuple[int | None, ...]  # the 5 face-up Vikings on the board
    dest_piles: tuple[tuple[int, ...], tuple[int, ...]]  # A (Trading Lands), B (Lands of Influence)
    dest_face_up: tuple[tuple[int | None, ...], tuple[int | None, ...]]
    hands: tuple[tuple[int, ...], ...]
    crews: tuple[tuple[int, ...], ...]
    explored: tuple[tuple[int, ...], ...]  # Destinations above each ship, in the order placed
    reserved: tuple[tuple[int, ...], ...] = ()  # Golden Bracelet: Destinations set aside per player
    reshuffles: int = 0
    pending: tuple[Target, ...] = ()  # draws waiting for a card (deck and discard both empty)
    must_discard: tuple[int, ...] = ()  # seats that must discard 1 Viking before `pending` is served

    def to_dict(self) -> dict[str, Any]:
        return {
            "draw_pile_count": len(self.draw_pile),
            "discard_count": len(self.discard),
            "discard_top": self.discard[-1] if self.discard else None,
            "slots": list(self.slots),
            "destinations": {
                deck: {"face_up": list(self.dest_face_up[i]), "pile_count": len(self.dest_piles[i])}
                for i, deck in enumerate(DESTINATION_DECKS)
            },
            "hands": [list(h) for h in self.hands],
            "crews": [list(c) for c in self.crews],
            "crew_columns": [crew_columns(c) for c in self.crews],
            "explored": [list(e) for e in self.explored],
            "reserved": [list(r) for r in self.reserved],
            "reshuffles": self.reshuffles,
            "pending_draws": [list(t) for t in self.pending],
            "must_discard": list(self.must_discard),
        }


def crew_columns(crew: Sequence[int]) -> dict[str, list[int]]:
    """A crew grouped into its colour columns (in board colour order), for rendering."""
    columns: dict[str, list[int]] = {}
    for card in crew:
        columns.setdefault(VIKING_BY_ID[card].colour, []).append(card)
    return columns


def column_gains(crew: Sequence[int], colour: str) -> dict[str, int]:
    """The assets a Recruit into `colour` collects: one per card in that column, new card included."""
    counts = Counter(VIKING_BY_ID[c].gain for c in crew if VIKING_BY_ID[c].colour == colour)
    return dict(sorted(counts.items()))


def deal(player_count: int, seed: int) -> DeckState:
    """Shuffle and deal in rulebook order: 5 face-up Vikings, 2 crew cards each, 3 hand cards each.

    The 2 crew cards must differ in colour: the second is the next card of another colour; the
    skipped cards stay on top of the pile, as if set aside and put back.
    """
    pile = [c.id for c in viking_deck(player_count)]
    seeded_rng(seed, "viking_deck").shuffle(pile)
    slots = tuple(pile[:FACE_UP_VIKINGS])
    del pile[:FACE_UP_VIKINGS]
    crews: list[tuple[int, ...]] = []
    for _ in range(player_count):
        first = pile.pop(0)
        crew = [first]
        for i, card in enumerate(pile):
            if VIKING_BY_ID[card].colour != VIKING_BY_ID[first].colour:
                crew.append(pile.pop(i))
                break
        assert len(crew) == START_CREW  # every colour is in every deck, so a match always exists
        crews.append(tuple(crew))
    hands = []
    for _ in range(player_count):
        hands.append(tuple(pile[:START_HAND]))
        del pile[:START_HAND]
    piles: list[tuple[int, ...]] = []
    face_up: list[tuple[int | None, ...]] = []
    for deck in DESTINATION_DECKS:
        cards = [d.id for d in DESTINATIONS if d.deck == deck]
        seeded_rng(seed, f"destinations_{deck}").shuffle(cards)
        face_up.append(tuple(cards[:FACE_UP_DESTINATIONS_PER_DECK]))
        piles.append(tuple(cards[FACE_UP_DESTINATIONS_PER_DECK:]))
    return DeckState(
        draw_pile=tuple(pile),
        discard=(),
        slots=slots,
        dest_piles=(piles[0], piles[1]),
        dest_face_up=(face_up[0], face_up[1]),
        hands=tuple(hands),
        crews=tuple(crews),
        explored=tuple(() for _ in range(player_count)),
        reserved=tuple(() for _ in range(player_count)),
    )


def _set(seq: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*seq[:index], value, *seq[index + 1:])


def _draw(ds: DeckState, seed: int, notices: list[dict[str, Any]]) -> tuple[DeckState, int | None]:
    """Top card of the Viking pile, reshuffling the discard into a new pile when it is empty."""
    if not ds.draw_pile and ds.discard:
        pile = list(ds.discard)
        seeded_rng(seed, f"reshuffle_{ds.reshuffles}").shuffle(pile)
        notices.append(notice("deck_reshuffled", cards=len(pile)))
        ds = replace(ds, draw_pile=tuple(pile), discard=(), reshuffles=ds.reshuffles + 1)
    if not ds.draw_pile:
        return ds, None
    return replace(ds, draw_pile=ds.draw_pile[1:]), ds.draw_pile[0]


def _put(ds: DeckState, target: Target, card: int) -> DeckState:
    where, index = target
    if where == "slot":
        return replace(ds, slots=_set(ds.slots, index, card))
    if where == "hand":
        return replace(ds, hands=_set(ds.hands, index, (*ds.hands[index], card)))
    return replace(ds, crews=_set(ds.crews, index, (*ds.crews[index], card)))


def _deliver(ds: DeckState, target: Target, seed: int, names: Sequence[str],
             notices: list[dict[str, Any]]) -> DeckState:
    """Draw a card to `target`, or queue the draw and name who must discard when none is left."""
    ds, card = _draw(ds, seed, notices)
    if card is not None:
        return _put(ds, target, card)
    ds = replace(ds, pending=(*ds.pending, target))
    if not ds.must_discard:
        most = max(len(c) for c in ds.crews)
        if most > 0:
            seats = tuple(i for i, c in enumerate(ds.crews) if len(c) == most)
            notices.append(notice("must_discard", players=list(seats), names=[names[i] for i in seats]))
            ds = replace(ds, must_discard=seats)
    return ds


def _serve_pending(ds: DeckState, seed: int, names: Sequence[str],
                   notices: list[dict[str, Any]]) -> DeckState:
    """After a discard, serve the queued draws once everyone who had to discard has done so."""
    if ds.must_discard or not ds.pending:
        return ds
    queue, ds = ds.pending, replace(ds, pending=())
    for target in queue:
        ds = _deliver(ds, target, seed, names, notices)
    return ds


def _check_slot(slot: object, count: int) -> int:
    if not isinstance(slot, int) or isinstance(slot, bool) or not 0 <= slot < count:
        raise KnarrError("malformed_event", field="slot")
    return slot


def take_viking(ds: DeckState, seed: int, names: Sequence[str], player: int,
                slot: object) -> tuple[DeckState, list[dict[str, Any]]]:
    """Recruit step 3: the face-up Viking of `slot` goes to the hand; the slot is refilled."""
    index = _check_slot(slot, FACE_UP_VIKINGS)
    card = ds.slots[index]
    if card is None:
        raise KnarrError("empty_slot")
    notices: list[dict[str, Any]] = []
    ds = replace(ds, slots=_set(ds.slots, index, None), hands=_set(ds.hands, player, (*ds.hands[player], card)))
    return _deliver(ds, ("slot", index), seed, names, notices), notices


def play_to_crew(ds: DeckState, player: int, card: int) -> DeckState:
    """Recruit step 1: a Viking from the hand joins its colour column (the caller checked the hand)."""
    hand = list(ds.hands[player])
    hand.remove(card)
    return replace(ds, hands=_set(ds.hands, player, tuple(hand)),
                   crews=_set(ds.crews, player, (*ds.crews[player], card)))


def draw_to_crew(ds: DeckState, seed: int, names: Sequence[str], player: int,
                 notices: list[dict[str, Any]]) -> DeckState:
    """The "card" asset: the top Viking goes straight into the crew, without its assets."""
    return _deliver(ds, ("crew", player), seed, names, notices)


def discard_vikings(ds: DeckState, seed: int, names: Sequence[str], player: int,
                    cards: object) -> tuple[DeckState, list[dict[str, Any]]]:
    """Vikings leave the crew for the discard pile (an Explore cost, or the forced discard)."""
    if (not isinstance(cards, list) or not cards
            or not all(isinstance(c, int) and not isinstance(c, bool) for c in cards)):
        raise KnarrError("malformed_event", field="cards")
    crew = list(ds.crews[player])
    for card in cards:
        if card not in crew:
            raise KnarrError("card_not_available", card=card, where="crew")
        crew.remove(card)
    ds = replace(ds, crews=_set(ds.crews, player, tuple(crew)), discard=(*ds.discard, *cards),
                 must_discard=tuple(s for s in ds.must_discard if s != player))
    notices: list[dict[str, Any]] = []
    return _serve_pending(ds, seed, names, notices), notices


def _take_face_up(ds: DeckState, card: int, notices: list[dict[str, Any]]) -> DeckState:
    """A face-up Destination leaves the board; its place is refilled from the same pile if any is left."""
    deck_index = DESTINATION_DECKS.index(DESTINATION_BY_ID[card].deck)
    row, pile = ds.dest_face_up[deck_index], ds.dest_piles[deck_index]
    new_card = pile[0] if pile else None
    if new_card is None:
        deck = DESTINATION_DECKS[deck_index]
        notices.append(notice("destinations_exhausted", deck=deck, deck_names=dict(DESTINATION_DECK_NAMES[deck])))
    return replace(ds, dest_piles=_set(ds.dest_piles, deck_index, pile[1:]),
                   dest_face_up=_set(ds.dest_face_up, deck_index, _set(row, row.index(card), new_card)))


def face_up_destinations(ds: DeckState) -> list[int]:
    return [c for row in ds.dest_face_up for c in row if c is not None]


def explore_destination(ds: DeckState, player: int, card: int) -> tuple[DeckState, list[dict[str, Any]]]:
    """Explore: a face-up (or this player's reserved) Destination goes above the ship."""
    notices: list[dict[str, Any]] = []
    if card in ds.reserved[player]:
        mine = list(ds.reserved[player])
        mine.remove(card)
        ds = replace(ds, reserved=_set(ds.reserved, player, tuple(mine)))
    else:
        ds = _take_face_up(ds, card, notices)
    return replace(ds, explored=_set(ds.explored, player, (*ds.explored[player], card))), notices


def reserve_destination(ds: DeckState, player: int, card: int) -> tuple[DeckState, list[dict[str, Any]]]:
    """Golden Bracelet: a face-up Destination is set aside next to the player; its place refills."""
    notices: list[dict[str, Any]] = []
    ds = _take_face_up(ds, card, notices)
    return replace(ds, reserved=_set(ds.reserved, player, (*ds.reserved[player], card))), notices


def replace_viking(ds: DeckState, seed: int, names: Sequence[str],
                   slot: object) -> tuple[DeckState, list[dict[str, Any]]]:
    """Mead Cup: a face-up Viking is discarded and replaced by the top card of the deck."""
    index = _check_slot(slot, FACE_UP_VIKINGS)
    card = ds.slots[index]
    if card is None:
        raise KnarrError("empty_slot")
    ds = replace(ds, slots=_set(ds.slots, index, None), discard=(*ds.discard, card))
    notices: list[dict[str, Any]] = []
    return _deliver(ds, ("slot", index), seed, names, notices), notices
