"""The virtual Viking and Destination decks: deal, take, refill, reshuffle, and both piles empty."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.knarr import KnarrError, KnarrGame, new_setup
from companion.knarr.data import DESTINATION_BY_ID, VIKING_BY_ID, viking_deck
from companion.knarr.deck import (
    DeckState,
    column_gains,
    deal,
    discard_vikings,
    draw_to_crew,
    explore_destination,
    replace_viking,
    reserve_destination,
    take_viking,
)

NAMES = ["Ayşe", "Bora"]


def all_vikings(ds: DeckState) -> list[int]:
    cards = [*ds.draw_pile, *ds.discard, *(c for c in ds.slots if c is not None)]
    for zone in (*ds.hands, *ds.crews):
        cards.extend(zone)
    return cards


def all_destinations(ds: DeckState) -> list[int]:
    cards = [c for pile in ds.dest_piles for c in pile]
    cards += [c for row in ds.dest_face_up for c in row if c is not None]
    return cards + [c for e in ds.explored for c in e]


def deck_game(players: int = 2, seed: int = 11, **options: object) -> KnarrGame:
    names = ["Ayşe", "Bora", "Cem", "Deniz"][:players]
    return KnarrGame(new_setup(names, seed, first_player=0, virtual_deck=True, **options))


def deck(game: KnarrGame) -> DeckState:
    assert game.state.deck is not None
    return game.state.deck


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deal_follows_the_setup_rules(players: int) -> None:
    ds = deal(players, 5)
    size = len(viking_deck(players))
    assert len(ds.slots) == 5 and None not in ds.slots
    assert all(len(h) == 3 for h in ds.hands) and len(ds.hands) == players
    for crew in ds.crews:
        assert len(crew) == 2 and VIKING_BY_ID[crew[0]].colour != VIKING_BY_ID[crew[1]].colour
    assert len(ds.draw_pile) == size - 5 - 5 * players
    assert sorted(all_vikings(ds)) == sorted(c.id for c in viking_deck(players))
    assert [len(r) for r in ds.dest_face_up] == [3, 3]
    assert [DESTINATION_BY_ID[c].deck for c in ds.dest_face_up[0]] == ["A"] * 3
    assert [DESTINATION_BY_ID[c].deck for c in ds.dest_face_up[1]] == ["B"] * 3
    assert sorted(all_destinations(ds)) == list(range(1, 36))


def test_deal_is_deterministic_and_depends_on_the_seed() -> None:
    assert deal(3, 42) == deal(3, 42)
    assert len({deal(3, seed).slots for seed in range(10)}) > 1


def test_take_viking_refills_the_slot_from_the_top_of_the_deck() -> None:
    before = deal(2, 11)
    taken, top = before.slots[2], before.draw_pile[0]
    after, notices = take_viking(before, 11, NAMES, 0, 2)
    assert after.hands[0] == (*before.hands[0], taken) and notices == []
    assert after.slots[2] == top and after.draw_pile == before.draw_pile[1:]


def test_column_gains_counts_every_card_of_the_colour() -> None:
    # red ids 1-3 give vp, 5 gives bracelet; yellow 11 is another column
    assert column_gains([1, 2, 5, 11], "red") == {"bracelet": 1, "vp": 2}
    assert column_gains([11], "red") == {}


def test_face_up_destinations_refill_from_the_same_pile_until_it_runs_out() -> None:
    ds = deal(2, 11)
    for _ in range(12):  # the Lands of Influence pile holds 12 after the deal
        card = next(c for c in ds.dest_face_up[1] if c is not None)
        ds, notices = explore_destination(ds, 0, card)
        assert notices == []
    assert ds.dest_piles[1] == ()
    card = next(c for c in ds.dest_face_up[1] if c is not None)
    ds, notices = explore_destination(ds, 1, card)
    assert notices[0]["code"] == "destinations_exhausted"
    assert ds.dest_face_up[1].count(None) == 1
    assert ds.dest_face_up[0] == deal(2, 11).dest_face_up[0]  # the other deck is untouched
    assert sorted(all_destinations(ds)) == list(range(1, 36))


def test_reserved_destinations_leave_the_board_and_are_explored_from_the_reserve() -> None:
    ds = deal(2, 11)
    card = ds.dest_face_up[0][1]
    ds, _ = reserve_destination(ds, 1, card)
    assert ds.reserved[1] == (card,) and card not in ds.dest_face_up[0] and None not in ds.dest_face_up[0]
    piles = ds.dest_piles
    ds, _ = explore_destination(ds, 1, card)
    assert ds.reserved[1] == () and ds.explored[1] == (card,) and ds.dest_piles == piles  # no refill


def test_reshuffle_the_discard_when_the_deck_is_empty() -> None:
    ds = deal(2, 11)
    ds, _ = discard_vikings(ds, 11, NAMES, 0, list(ds.crews[0]))
    notices: list = []
    for _ in range(len(ds.draw_pile)):
        ds = draw_to_crew(ds, 11, NAMES, 1, notices)
    assert ds.draw_pile == () and len(ds.discard) == 2 and notices == []
    ds = draw_to_crew(ds, 11, NAMES, 1, notices)
    assert [n["code"] for n in notices] == ["deck_reshuffled"]
    assert ds.reshuffles == 1 and ds.discard == () and len(ds.draw_pile) == 1
    assert sorted(all_vikings(ds)) == sorted(c.id for c in viking_deck(2))


def test_tied_biggest_crews_all_discard_before_the_draw() -> None:
    ds = deal(2, 11)
    notices: list = []
    ds = replace(ds, draw_pile=(), hands=(ds.hands[0] + ds.draw_pile, ds.hands[1]))  # all drawn to a hand
    ds = draw_to_crew(ds, 11, NAMES, 1, notices)
    assert [n["code"] for n in notices] == ["must_discard"]
    assert ds.must_discard == (0, 1) and ds.pending == (("crew", 1),)
    ds, _ = discard_vikings(ds, 11, NAMES, 0, [ds.crews[0][0]])
    assert ds.must_discard == (1,) and ds.pending == (("crew", 1),)
    ds, _ = discard_vikings(ds, 11, NAMES, 1, [ds.crews[1][1]])
    assert ds.pending == () and len(ds.crews[1]) == 2 and len(ds.draw_pile) == 1


def test_mead_cup_replace_discards_and_refills() -> None:
    before = deal(2, 11)
    after, _ = replace_viking(before, 11, NAMES, 0)
    assert after.discard == (before.slots[0],) and after.slots[0] == before.draw_pile[0]
    with pytest.raises(KnarrError):
        replace_viking(before, 11, NAMES, 7)


def test_rules_moves_have_history_lines_in_both_languages() -> None:
    game = deck_game(2, artifacts=["mead_cup"])
    card = deck(game).hands[0][0]
    game.apply({"type": "trade", "player": 0, "bracelets": 1})
    game.apply({"type": "recruit", "player": 0, "card": card})
    game.apply(next(m for m in game.legal_moves() if m["type"] == "take_viking"))
    game.apply({"type": "end_turn"})
    lines = [h["text"]["en"] for h in reversed(game.history())]
    colour = VIKING_BY_ID[card].colour
    assert lines[0] == "Ayşe traded with 1 silver bracelet(s)."
    assert lines[1] == f"Ayşe recruited a {colour} Viking (Recruit)."
    assert lines[2].startswith("Ayşe took the face-up Viking of the ")
    assert all(h["text"]["tr"] != h["text"]["en"] for h in game.history())
    assert "Devşir" in game.history()[2]["text"]["tr"]
