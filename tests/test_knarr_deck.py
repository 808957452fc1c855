"""The virtual Viking and Destination decks: deal, take, refill, reshuffle, and both piles empty."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.knarr import KnarrError, KnarrGame, new_setup
from companion.knarr.data import DESTINATION_BY_ID, VIKING_BY_ID, viking_deck
from companion.knarr.deck import DeckState, column_gains, deal


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
    game = deck_game()
    before = deck(game)
    taken, top = before.slots[2], before.draw_pile[0]
    game.apply({"type": "take_viking", "player": 0, "slot": 2})
    after = deck(game)
    assert after.hands[0] == (*before.hands[0], taken)
    assert after.slots[2] == top and after.draw_pile == before.draw_pile[1:]


def test_play_viking_moves_a_hand_card_to_its_column_and_lists_the_column_gains() -> None:
    game = deck_game()
    card = deck(game).hands[0][0]
    colour = VIKING_BY_ID[card].colour
    notices = game.apply({"type": "play_viking", "player": 0, "card": card})
    after = deck(game)
    assert card in after.crews[0] and card not in after.hands[0]
    expected = Counter(VIKING_BY_ID[c].gain for c in after.crews[0] if VIKING_BY_ID[c].colour == colour)
    assert notices[0]["code"] == "column_gains"
    assert notices[0]["params"]["gain_counts"] == dict(expected)
    assert game.to_dict()["deck"]["crew_columns"][0][colour][-1] == card


def test_column_gains_counts_every_card_of_the_colour() -> None:
    # red ids 1-3 give vp, 5 gives bracelet; yellow 11 is another column
    assert column_gains([1, 2, 5, 11], "red") == {"bracelet": 1, "vp": 2}
    assert column_gains([11], "red") == {}


def test_cards_must_be_where_the_event_says() -> None:
    game = deck_game()
    ds = deck(game)
    elsewhere = ds.crews[1][0]
    for event, code in (
        ({"type": "play_viking", "player": 0, "card": elsewhere}, "card_not_available"),
        ({"type": "discard_vikings", "player": 0, "cards": [elsewhere]}, "card_not_available"),
        ({"type": "discard_vikings", "player": 0, "cards": [ds.crews[0][0]] * 2}, "card_not_available"),
        ({"type": "discard_vikings", "player": 0, "cards": []}, "malformed_event"),
        ({"type": "take_viking", "player": 0, "slot": 5}, "malformed_event"),
        ({"type": "take_destination", "player": 0, "card": 99}, "card_not_available"),
        ({"type": "draw_viking", "player": 0, "to": "pocket"}, "malformed_event"),
        ({"type": "replace_viking", "slot": 0}, "artifact_not_in_play"),
    ):
        with pytest.raises(KnarrError) as err:
            game.apply(event)
        assert err.value.code == code
    assert deck(game) == ds and game.events == []


def test_take_destination_refills_from_the_same_deck_until_it_runs_out() -> None:
    game = deck_game()
    for _ in range(12):  # the Lands of Influence pile holds 12 after the deal
        row = deck(game).dest_face_up[1]
        card = next(c for c in row if c is not None)
        notices = game.apply({"type": "take_destination", "player": 0, "card": card})
        assert notices == []
    assert deck(game).dest_piles[1] == ()
    card = next(c for c in deck(game).dest_face_up[1] if c is not None)
    notices = game.apply({"type": "take_destination", "player": 1, "card": card})
    assert notices[0]["code"] == "destinations_exhausted" and "Etki Toprakları" in notices[0]["text"]["tr"]
    assert deck(game).dest_face_up[1].count(None) == 1
    assert deck(game).dest_face_up[0] == deal(2, 11).dest_face_up[0]  # the other deck is untouched
    assert sorted(all_destinations(deck(game))) == list(range(1, 36))


def test_reshuffle_the_discard_when_the_deck_is_empty() -> None:
    game = deck_game()
    game.apply({"type": "discard_vikings", "player": 0, "cards": list(deck(game).crews[0])})
    pile = len(deck(game).draw_pile)
    for _ in range(pile):
        game.apply({"type": "draw_viking", "player": 1, "to": "hand"})
    assert deck(game).draw_pile == () and len(deck(game).discard) == 2
    notices = game.apply({"type": "draw_viking", "player": 1, "to": "crew"})
    assert [n["code"] for n in notices] == ["deck_reshuffled"]
    ds = deck(game)
    assert ds.reshuffles == 1 and ds.discard == () and len(ds.draw_pile) == 1 and len(ds.crews[1]) == 3
    assert sorted(all_vikings(ds)) == sorted(c.id for c in viking_deck(2))
    replay = KnarrGame.load(game.save())
    assert replay.state.deck == ds


def test_deck_and_discard_both_empty_makes_the_biggest_crews_discard() -> None:
    game = deck_game(3)
    game.apply({"type": "play_viking", "player": 2, "card": deck(game).hands[2][0]})  # Cem: 3 in crew
    for _ in range(len(deck(game).draw_pile)):
        game.apply({"type": "draw_viking", "player": 0, "to": "hand"})
    notices = game.apply({"type": "take_viking", "player": 1, "slot": 4})
    assert [n["code"] for n in notices] == ["must_discard"]
    assert notices[0]["params"]["players"] == [2] and "Cem" in notices[0]["text"]["en"]
    ds = deck(game)
    assert ds.slots[4] is None and ds.pending == (("slot", 4),) and ds.must_discard == (2,)
    view = game.to_dict()["deck"]
    assert view["must_discard"] == [2] and view["pending_draws"] == [["slot", 4]]
    card = ds.crews[2][0]
    notices = game.apply({"type": "discard_vikings", "player": 2, "cards": [card]})
    ds = deck(game)
    assert [n["code"] for n in notices] == ["deck_reshuffled"]
    assert ds.slots[4] == card and ds.pending == () and ds.must_discard == ()
    assert sorted(all_vikings(ds)) == sorted(c.id for c in viking_deck(3))


def test_tied_biggest_crews_all_discard_before_the_draw() -> None:
    game = deck_game(2)
    for _ in range(len(deck(game).draw_pile)):
        game.apply({"type": "draw_viking", "player": 0, "to": "hand"})
    game.apply({"type": "draw_viking", "player": 1, "to": "crew"})
    assert deck(game).must_discard == (0, 1)
    game.apply({"type": "discard_vikings", "player": 0, "cards": [deck(game).crews[0][0]]})
    assert deck(game).must_discard == (1,) and deck(game).pending == (("crew", 1),)
    game.apply({"type": "discard_vikings", "player": 1, "cards": [deck(game).crews[1][1]]})
    ds = deck(game)
    assert ds.pending == () and len(ds.crews[1]) == 2 and len(ds.draw_pile) == 1


def test_mead_cup_replaces_a_face_up_viking() -> None:
    game = deck_game(2, artifacts=["mead_cup"])
    before = deck(game)
    game.apply({"type": "replace_viking", "slot": 0})
    after = deck(game)
    assert after.discard == (before.slots[0],) and after.slots[0] == before.draw_pile[0]


def test_deck_events_undo_cleanly() -> None:
    game = deck_game(4)
    start = game.state
    game.apply({"type": "take_viking", "player": 0, "slot": 1})
    game.apply({"type": "play_viking", "player": 0, "card": deck(game).hands[0][-1]})
    game.apply({"type": "take_destination", "player": 0, "card": deck(game).dest_face_up[0][0]})
    game.undo(3)
    assert game.state == start


def test_deck_events_have_history_lines() -> None:
    game = deck_game(2, artifacts=["mead_cup"])
    card = deck(game).hands[1][0]
    game.apply({"type": "play_viking", "player": 1, "card": card})
    game.apply({"type": "take_viking", "player": 1, "slot": 0})
    game.apply({"type": "draw_viking", "player": 1, "to": "crew"})
    game.apply({"type": "discard_vikings", "player": 1, "cards": list(deck(game).crews[1][:2])})
    game.apply({"type": "take_destination", "player": 1, "card": deck(game).dest_face_up[0][1]})
    game.apply({"type": "replace_viking", "slot": 3})
    lines = [h["text"]["en"] for h in reversed(game.history())]
    colour = VIKING_BY_ID[card].colour
    assert lines == [
        f"Bora recruited a {colour} Viking.",
        "Bora took the face-up Viking of slot 1.",
        "Bora drew a Viking card.",
        "Bora discarded 2 Viking card(s).",
        "Bora explored a card of the Trading Lands.",
        "The face-up Viking of slot 4 was replaced (Mead Cup).",
    ]
    assert all(h["text"]["tr"] != h["text"]["en"] for h in game.history())


def test_play_viking_with_collect_takes_the_column_assets_in_one_step() -> None:
    game = deck_game(3, seed=8)
    seat = 0
    card = deck(game).hands[seat][0]
    colour = VIKING_BY_ID[card].colour
    before = game.state.players[seat]
    notices = game.apply({"type": "play_viking", "player": seat, "card": card, "collect": True})
    column = [c for c in deck(game).crews[seat] if VIKING_BY_ID[c].colour == colour]
    gains = Counter(VIKING_BY_ID[c].gain for c in column)
    after = game.state.players[seat]
    assert after.score == before.score + gains["vp"]
    assert after.reputation == before.reputation + gains["reputation"]
    assert after.recruit == min(3, before.recruit + gains["recruit"])
    assert after.bracelet == min(3, before.bracelet + gains["bracelet"])
    assert notices[0]["code"] == "column_gains"
    game.undo()
    assert game.state.players[seat] == before and card in deck(game).hands[seat]
    with pytest.raises(KnarrError) as err:
        game.apply({"type": "play_viking", "player": seat, "card": card, "collect": "yes"})
    assert err.value.code == "malformed_event"
