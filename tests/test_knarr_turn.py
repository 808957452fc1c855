"""The rules of a virtual-deck turn, against turns worked out by hand from the rulebook.

Card ids (data.py): red 1-4 vp, 5-7 bracelet, 8-9 recruit, 10 reputation; yellow 11-15 vp,
16-17 bracelet, 18 recruit, 19-20 reputation; green 21-24 vp, 25-26 bracelet, 27-29 recruit,
30 reputation; blue 31-34 vp, 35-36 bracelet, 37 recruit, 38-40 reputation; purple 41-44 vp,
45-46 bracelet, 47-48 recruit, 49-50 reputation. Board slots are red, yellow, green, blue, purple.
Destinations: 1 = 3 different colours (gain recruit + reputation + card, trade -/vp/-), 4 = 3 different
(gain bracelet, trade vp/reputation/recruit), 7 = 2 purple (gain card), 9 = 2 blue (gain 2 reputation,
trade -/vp/reputation), 15 = 2 yellow (trade vp/vp/vp), 21 = 4 of one colour (5 VP + recruit),
24 = 1 of each colour (4 VP + every asset), 26 = 2 purple + 2 yellow (6 VP).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.knarr import KnarrError, KnarrGame, new_setup
from companion.knarr.data import DESTINATION_BY_ID
from companion.knarr.game import GameState, apply_event
from companion.knarr.turn import legal_moves, payment_error, trade_gains

NAMES = ["Ayşe", "Bora", "Cem", "Deniz"]
USED = {1, 4, 7, 9, 15, 21, 24, 26}


def table(*, artifacts: tuple[str, ...] = (), ship: str = "normal", hand=(), crew=(), slots=(11, 12, 21, 31, 41),
          pile=(2, 3, 13, 14), explored=(), face_up=((1, 4, 7), (21, 24, 26)), recruit=1, bracelet=1,
          reputation=0, score=0, discard=()) -> tuple[Any, GameState]:
    """Ayşe's turn (seat 0 of 4) with exactly these cards; the others hold nothing."""
    setup = new_setup(NAMES, 1, first_player=0, ship_side=ship, artifacts=list(artifacts), virtual_deck=True)
    state = KnarrGame(setup).state
    ds = state.deck
    ds = replace(ds, draw_pile=tuple(pile), discard=tuple(discard), slots=tuple(slots),
                 hands=(tuple(hand), (), (), ()), crews=(tuple(crew), (), (), ()),
                 explored=(tuple(explored), (), (), ()),
                 dest_face_up=tuple(tuple(r) for r in face_up),
                 dest_piles=(tuple(d for d in range(2, 21) if d not in USED),
                             tuple(d for d in range(22, 36) if d not in USED)))
    me = replace(state.players[0], recruit=recruit, bracelet=bracelet, reputation=reputation, score=score)
    return setup, replace(state, deck=ds, players=(me, *state.players[1:]))


def run(setup, state, *events: dict[str, Any]) -> tuple[GameState, list[str]]:
    codes: list[str] = []
    for event in events:
        state, _, notices = apply_event(setup, state, {"player": 0, **event})
        codes += [n["code"] for n in notices]
    return state, codes


def refused(setup, state, event: dict[str, Any]) -> str:
    with pytest.raises(KnarrError) as err:
        apply_event(setup, state, {"player": 0, **event})
    return err.value.code


def me(state: GameState):
    return state.players[0]


# --- Recruit ----------------------------------------------------------------------------------

def test_recruit_collects_every_card_of_the_column_then_takes_the_slot_of_its_colour() -> None:
    # crew: red vp (1) + red bracelet (5); Ayşe plays red recruit (8): the red column pays vp, bracelet, recruit
    setup, state = table(hand=(8, 33), crew=(1, 5), slots=(11, 12, 21, 31, 41))
    state, codes = run(setup, state, {"type": "recruit", "card": 8})
    assert "column_gains" in codes
    assert (me(state).score, me(state).bracelet, me(state).recruit) == (1, 2, 2)
    assert state.deck.crews[0] == (1, 5, 8) and state.deck.hands[0] == (33,)
    # the red slot (slot 0) is free; any other slot costs one recruit token
    assert {m["slot"] for m in legal_moves(setup, state)} == {0, 1, 2, 3, 4}
    free, _ = run(setup, state, {"type": "take_viking", "slot": 0})
    assert me(free).recruit == 2 and free.deck.hands[0] == (33, 11) and free.deck.slots[0] == 2  # refilled
    paid, _ = run(setup, state, {"type": "take_viking", "slot": 3})
    assert me(paid).recruit == 1 and paid.deck.hands[0] == (33, 31) and paid.deck.slots[3] == 2


def test_recruit_slot_rule_without_a_recruit_token() -> None:
    # the case: a blue Viking played, a purple card taken without spending a recruit
    setup, state = table(hand=(33,), crew=(), recruit=0)
    state, _ = run(setup, state, {"type": "recruit", "card": 33})
    assert me(state).score == 1
    assert [m["slot"] for m in legal_moves(setup, state)] == [3]  # only the blue slot
    assert refused(setup, state, {"type": "take_viking", "slot": 4}) == "take_needs_recruit"
    assert refused(setup, state, {"type": "end_turn"}) == "take_a_viking_first"
    assert refused(setup, state, {"type": "trade", "bracelets": 1}) == "take_a_viking_first"


def test_a_recruit_gained_from_the_column_may_pay_for_any_slot() -> None:
    setup, state = table(hand=(27,), crew=(), recruit=0)  # green recruit card: gains 1 recruit first
    state, _ = run(setup, state, {"type": "recruit", "card": 27})
    assert me(state).recruit == 1
    state, _ = run(setup, state, {"type": "take_viking", "slot": 4})
    assert me(state).recruit == 0 and 41 in state.deck.hands[0]


def test_caps_of_three_and_the_excess_is_reported() -> None:
    # four purple recruit-cards... only two exist; use the green column: 27, 28, 29 recruit + played 29
    setup, state = table(hand=(29,), crew=(27, 28), recruit=2)
    state, codes = run(setup, state, {"type": "recruit", "card": 29})
    assert me(state).recruit == 3 and "token_lost" in codes  # 2 + 3 = 5, capped at 3


def test_one_action_per_turn() -> None:
    setup, state = table(hand=(31, 32), crew=(33, 34))
    state, _ = run(setup, state, {"type": "recruit", "card": 31}, {"type": "take_viking", "slot": 3})
    assert refused(setup, state, {"type": "recruit", "card": 32}) == "one_action_per_turn"
    assert refused(setup, state, {"type": "explore", "card": 9, "pay": [33, 34], "recruits": 0}) in (
        "one_action_per_turn", "card_not_available")
    setup, state = table(hand=(31,), crew=(33, 34, 35), face_up=((1, 4, 9), (21, 24, 26)))
    state, _ = run(setup, state, {"type": "explore", "card": 9, "pay": [33, 34], "recruits": 0})
    assert refused(setup, state, {"type": "recruit", "card": 31}) == "one_action_per_turn"
    assert refused(setup, state, {"type": "explore", "card": 4, "pay": [35], "recruits": 1}) == "one_action_per_turn"
    state, _ = run(setup, state, {"type": "end_turn"})
    assert state.active == 1


def test_end_turn_needs_the_action_unless_none_is_possible() -> None:
    setup, state = table(hand=(31,), crew=())
    assert refused(setup, state, {"type": "end_turn"}) == "action_first"
    setup, state = table(hand=(), crew=(1,), recruit=0)  # nothing to recruit, nothing affordable
    assert {m["type"] for m in legal_moves(setup, state)} == {"trade", "end_turn"}
    state, _ = run(setup, state, {"type": "end_turn"})
    assert state.active == 1


# --- Explore ----------------------------------------------------------------------------------

def test_explore_costs_and_ways_to_pay() -> None:
    dest9, dest1, dest21, dest24 = (DESTINATION_BY_ID[i] for i in (9, 1, 21, 24))
    assert payment_error(dest9, [31, 32], 0) is None  # 2 blue
    assert payment_error(dest9, [31], 1) is None  # a recruit stands in for a blue
    assert payment_error(dest9, [], 2) is None
    assert payment_error(dest9, [31, 1], 0) == "wrong_cost_colour"
    assert payment_error(dest9, [31], 0) == "wrong_cost_count"
    assert payment_error(dest1, [1, 11, 21], 0) is None  # 3 different colours
    assert payment_error(dest1, [1, 2, 21], 0) == "cost_needs_different_colours"
    assert payment_error(dest1, [1, 11], 1) is None
    assert payment_error(dest21, [1, 2, 3, 4], 0) is None  # 4 of one colour
    assert payment_error(dest21, [1, 2, 3], 1) is None
    assert payment_error(dest21, [1, 2, 3, 11], 0) == "cost_needs_one_colour"
    assert payment_error(dest24, [1, 11, 21, 31, 41], 0) is None  # 1 of each colour
    assert payment_error(dest24, [1, 11, 21, 31], 1) is None
    assert payment_error(dest24, [1, 2, 21, 31, 41], 0) == "wrong_cost_colour"


def test_explore_pays_applies_the_immediate_gain_and_refills_from_the_same_pile() -> None:
    setup, state = table(crew=(31, 1), recruit=1, face_up=((1, 4, 9), (21, 24, 26)))
    # the engine lists the ways to pay 2 blue with one blue in the crew: blue + recruit only
    ways = [m for m in legal_moves(setup, state) if m["type"] == "explore" and m["card"] == 9]
    assert ways == [{"type": "explore", "player": 0, "card": 9, "pay": [31], "recruits": 1}]
    pile_top = state.deck.dest_piles[0][0]
    state, codes = run(setup, state, {"type": "explore", "card": 9, "pay": [31], "recruits": 1})
    assert "explored" in codes
    assert me(state).recruit == 0 and me(state).reputation == 2  # 2 reputation, straight away
    assert state.deck.crews[0] == (1,) and state.deck.discard == (31,)
    assert state.deck.explored[0] == (9,) and state.deck.dest_face_up[0] == (1, 4, pile_top)


def test_draw_a_viking_goes_into_the_crew_without_its_assets() -> None:
    setup, state = table(crew=(45, 46, 33), pile=(38, 2), face_up=((1, 4, 7), (21, 24, 26)))
    state, _ = run(setup, state, {"type": "explore", "card": 7, "pay": [45, 46], "recruits": 0})
    assert state.deck.crews[0] == (33, 38)  # blue reputation card into the blue column
    assert me(state).reputation == 0 and me(state).score == 0  # ... and its reputation is not taken
    assert state.deck.draw_pile == (2,)


def test_illegal_payments_are_refused_and_change_nothing() -> None:
    setup, state = table(crew=(31, 1, 2), recruit=0, face_up=((1, 4, 9), (21, 24, 26)))
    assert refused(setup, state, {"type": "explore", "card": 9, "pay": [31, 1], "recruits": 0}) == "wrong_cost_colour"
    assert refused(setup, state, {"type": "explore", "card": 9, "pay": [31], "recruits": 1}) == "negative_tokens"
    assert refused(setup, state, {"type": "explore", "card": 9, "pay": [31, 31], "recruits": 0}) == "card_not_available"
    assert refused(setup, state, {"type": "explore", "card": 15, "pay": [], "recruits": 0}) == "card_not_available"
    assert refused(setup, state, {"type": "explore", "card": 1, "pay": [1, 2, 31], "recruits": 0}) == (
        "cost_needs_different_colours")


# --- Trade ------------------------------------------------------------------------------------

def test_trade_collects_the_columns_of_the_ship_and_every_destination() -> None:
    # normal ship (-, recruit, -); Destination 4 (vp, reputation, recruit); 15 (vp, vp, vp)
    assert trade_gains("normal", [4, 15], 1) == {"vp": 2}
    assert trade_gains("normal", [4, 15], 2) == {"recruit": 1, "reputation": 1, "vp": 3}
    assert trade_gains("advanced", [4, 15], 3) == {"bracelet": 1, "recruit": 1, "reputation": 1, "vp": 5}
    setup, state = table(hand=(31,), explored=(4, 15), bracelet=2, recruit=0)
    state, codes = run(setup, state, {"type": "trade", "bracelets": 2})
    assert "traded" in codes
    assert (me(state).score, me(state).reputation, me(state).recruit, me(state).bracelet) == (3, 1, 1, 0)
    assert refused(setup, state, {"type": "trade", "bracelets": 1}) == "one_trade_per_turn"
    state, _ = run(setup, state, {"type": "recruit", "card": 31}, {"type": "take_viking", "slot": 3})
    state, _ = run(setup, state, {"type": "end_turn"})
    assert state.active == 1


def test_advanced_ship_trade_spends_first_then_gains_its_bracelet() -> None:
    setup, state = table(ship="advanced", hand=(31,), bracelet=3)
    state, _ = run(setup, state, {"type": "recruit", "card": 31}, {"type": "take_viking", "slot": 3},
                   {"type": "trade", "bracelets": 3})  # trade after the action
    assert me(state).bracelet == 1 and me(state).score == 1 + 1  # blue vp card + ship column 1
    assert refused(setup, state, {"type": "trade", "bracelets": 4}) in ("one_trade_per_turn", "invalid_amount")
    setup, state = table(hand=(31,), bracelet=1)
    assert refused(setup, state, {"type": "trade", "bracelets": 2}) == "negative_tokens"


# --- Artifacts --------------------------------------------------------------------------------

def test_silver_coin_pays_from_the_fourth_viking_of_a_colour() -> None:
    setup, state = table(artifacts=("silver_coin",), hand=(4, 3), crew=(1, 2))
    third, codes = run(setup, state, {"type": "recruit", "card": 3})
    assert me(third).score == 3 and "artifact_silver_coin" not in codes
    setup, state = table(artifacts=("silver_coin",), hand=(4,), crew=(1, 2, 3))
    fourth, codes = run(setup, state, {"type": "recruit", "card": 4})
    assert me(fourth).score == 4 + 1 and "artifact_silver_coin" in codes


def test_cauldron_frees_the_take_of_the_second_viking_of_a_colour() -> None:
    setup, state = table(artifacts=("cauldron",), hand=(32,), crew=(31,), recruit=0)
    state, codes = run(setup, state, {"type": "recruit", "card": 32})
    assert "artifact_cauldron" in codes
    assert {m["slot"] for m in legal_moves(setup, state)} == {0, 1, 2, 3, 4}
    state, _ = run(setup, state, {"type": "take_viking", "slot": 0})
    assert me(state).recruit == 0 and 11 in state.deck.hands[0]


def test_golden_bracelet_reserves_a_destination_to_explore_later() -> None:
    setup, state = table(artifacts=("golden_bracelet",), hand=(33,), crew=(31, 32, 45, 46))
    state, codes = run(setup, state, {"type": "recruit", "card": 33}, {"type": "take_viking", "slot": 3})
    assert "offer_reserve" in codes
    refill = state.deck.dest_piles[1][0]
    state, _ = run(setup, state, {"type": "reserve", "card": 26})
    assert state.deck.reserved[0] == (26,) and state.deck.dest_face_up[1] == (21, 24, refill)
    assert refused(setup, state, {"type": "reserve", "card": 21}) == "no_offer"
    state, _ = run(setup, state, {"type": "end_turn"})
    for _ in range(3):
        state, _, _ = apply_event(setup, state, {"type": "end_turn"})
    # Ayşe's next turn: the reserved card is hers to explore (2 purple + 2 yellow: purples + 2 recruits)
    state = replace(state, players=(replace(me(state), recruit=2), *state.players[1:]))
    assert any(m["type"] == "explore" and m["card"] == 26 for m in legal_moves(setup, state))
    state, _ = run(setup, state, {"type": "explore", "card": 26, "pay": [45, 46], "recruits": 2})
    assert state.deck.reserved[0] == () and state.deck.explored[0] == (26,) and me(state).score == 3 + 6


def test_helmet_gives_a_recruit_for_a_land_of_influence_on_a_trading_land() -> None:
    setup, state = table(artifacts=("helmet",), hand=(12,), crew=(1, 2, 3, 4), explored=(15,))
    state, codes = run(setup, state, {"type": "explore", "card": 21, "pay": [1, 2, 3, 4], "recruits": 0})
    assert "offer_recruit" in codes
    state, _ = run(setup, state, {"type": "recruit", "card": 12}, {"type": "take_viking", "slot": 1})
    assert refused(setup, state, {"type": "recruit", "card": state.deck.hands[0][0]}) == "one_action_per_turn"
    setup, state = table(artifacts=("helmet",), hand=(12,), crew=(1, 2, 3, 4), explored=(22,))
    state, codes = run(setup, state, {"type": "explore", "card": 21, "pay": [1, 2, 3, 4], "recruits": 0})
    assert "offer_recruit" not in codes  # placed on a Land of Influence, not on a Trading Land


def test_amulet_rewards_a_completed_line_of_five_colours() -> None:
    setup, state = table(artifacts=("amulet",), hand=(41,), crew=(1, 11, 21, 31), recruit=1, bracelet=1)
    state, codes = run(setup, state, {"type": "recruit", "card": 41})
    assert "artifact_amulet" in codes
    assert (me(state).score, me(state).bracelet, me(state).recruit, me(state).reputation) == (1, 2, 2, 1)


def test_weathervane_offers_a_second_explore_still_paying_the_cost() -> None:
    setup, state = table(artifacts=("weathervane",), hand=(41,), crew=(1, 11, 21, 31, 32, 12, 13),
                         face_up=((1, 4, 9), (21, 24, 26)))
    state, codes = run(setup, state, {"type": "recruit", "card": 41}, {"type": "take_viking", "slot": 4})
    assert "offer_explore" in codes
    state, _ = run(setup, state, {"type": "explore", "card": 9, "pay": [31, 32], "recruits": 0})
    assert state.deck.explored[0] == (9,)
    assert refused(setup, state, {"type": "explore", "card": 4, "pay": [1, 11, 21], "recruits": 0}) == (
        "one_action_per_turn")


def test_mead_cup_replaces_a_face_up_viking_after_an_explore() -> None:
    setup, state = table(artifacts=("mead_cup",), crew=(31, 32), pile=(2, 3), face_up=((1, 4, 9), (21, 24, 26)))
    assert refused(setup, state, {"type": "replace_viking", "slot": 0}) == "no_offer"
    state, codes = run(setup, state, {"type": "explore", "card": 9, "pay": [31, 32], "recruits": 0})
    assert "offer_replace" in codes
    state, _ = run(setup, state, {"type": "replace_viking", "slot": 4})
    assert state.deck.slots[4] == 2 and state.deck.discard[-1] == 41
    assert refused(setup, state, {"type": "replace_viking", "slot": 3}) == "no_offer"


def test_mead_cup_is_refused_when_not_in_play() -> None:
    setup, state = table(crew=(31, 32))
    assert refused(setup, state, {"type": "replace_viking", "slot": 0}) == "artifact_not_in_play"


# --- the deck runs out ------------------------------------------------------------------------

def test_deck_and_discard_empty_the_biggest_crew_discards_then_the_slot_refills() -> None:
    setup, state = table(hand=(31,), crew=(1, 2), pile=(), discard=())
    crews = (state.deck.crews[0], (11, 12, 13, 14), (), ())  # Bora has the most Vikings in front of him
    state = replace(state, deck=replace(state.deck, crews=crews))
    state, codes = run(setup, state, {"type": "recruit", "card": 31})
    state, codes = run(setup, state, {"type": "take_viking", "slot": 3})
    assert "must_discard" in codes and state.deck.must_discard == (1,) and state.deck.slots[3] is None
    assert refused(setup, state, {"type": "end_turn"}) == "waiting_for_discard"
    assert [m["player"] for m in legal_moves(setup, state)] == [1, 1, 1, 1]
    with pytest.raises(KnarrError) as err:
        apply_event(setup, state, {"type": "discard_vikings", "player": 1, "cards": [11, 12]})
    assert err.value.code == "discard_exactly_one"
    state, _, notices = apply_event(setup, state, {"type": "discard_vikings", "player": 1, "cards": [12]})
    assert "deck_reshuffled" in [n["code"] for n in notices]
    assert state.deck.slots[3] == 12 and state.deck.must_discard == () and state.deck.crews[1] == (11, 13, 14)


# --- undo and the game record -----------------------------------------------------------------

def test_undo_of_each_rules_move_restores_the_exact_state_and_seats_survive_undo() -> None:
    game = KnarrGame.new(NAMES[:3], 4, first_player=0, virtual_deck=True, artifacts=["mead_cup", "helmet"])
    game.apply({"type": "claim_seat", "player": 1, "holder": "phone-b"})
    states, views = [game.state], [game.to_dict()]
    for _ in range(12):
        move = sorted(game.legal_moves(), key=lambda m: m["type"] != "explore")[0]
        game.apply(move)
        states.append(game.state)
        views.append(game.to_dict())
    game.apply({"type": "claim_seat", "player": 0, "holder": "phone-a"})
    for i in range(12, 0, -1):
        game.undo()
        assert replace(game.state, seats=states[i - 1].seats) == states[i - 1]
        assert game.state.seats == ("phone-a", "phone-b", None)  # the later claim survives undo
    with pytest.raises(KnarrError):
        game.undo()
    assert game.events == [{"type": "claim_seat", "player": 1, "holder": "phone-b"},
                           {"type": "claim_seat", "player": 0, "holder": "phone-a"}]


def test_seats_are_claimed_refused_handed_over_and_released() -> None:
    game = KnarrGame.new(NAMES[:2], 4, first_player=0, virtual_deck=True)
    game.apply({"type": "claim_seat", "player": 0, "holder": "a"})
    for event, code in (({"type": "claim_seat", "player": 0, "holder": "b"}, "seat_taken"),
                        ({"type": "claim_seat", "player": 0, "holder": "a"}, "seat_already_yours"),
                        ({"type": "release_seat", "player": 0, "holder": "b"}, "seat_not_yours"),
                        ({"type": "claim_seat", "player": 0, "holder": ""}, "malformed_event")):
        with pytest.raises(KnarrError) as err:
            game.apply(event)
        assert err.value.code == code
    notices = game.apply({"type": "claim_seat", "player": 0, "holder": "b", "takeover": True})
    assert notices[0]["code"] == "seat_handed_over" and game.state.seats == ("b", None)
    game.apply({"type": "release_seat", "player": 0, "holder": "b"})
    assert game.state.seats == (None, None) and not game.to_dict()["can_undo"]


def test_a_take_made_impossible_by_a_hand_correction_lets_the_turn_end() -> None:
    setup, state = table(hand=(33,), crew=(), recruit=1, slots=(11, 12, 21, None, 41),
                         pile=())  # the blue slot waits for a card
    state = replace(state, deck=replace(state.deck, pending=(("slot", 3),)))
    state, _ = run(setup, state, {"type": "recruit", "card": 33})
    assert {m["slot"] for m in legal_moves(setup, state)} == {0, 1, 2, 4}  # each for 1 recruit
    state, _ = run(setup, state, {"type": "gain", "recruit": -1})  # a correction by hand
    assert legal_moves(setup, state) == [{"type": "end_turn", "player": 0}]
    state, _ = run(setup, state, {"type": "end_turn"})
    assert state.active == 1


def test_reputation_from_an_explore_pays_income_from_the_next_own_turn() -> None:
    # 2 blue pays Destination 9: +2 reputation, 1 -> 3 reaches the first printed income (1 VP per turn)
    setup, state = table(crew=(31, 32), reputation=1, face_up=((1, 4, 9), (21, 24, 26)))
    state, _ = run(setup, state, {"type": "explore", "card": 9, "pay": [31, 32], "recruits": 0},
                   {"type": "end_turn"})
    assert me(state).reputation == 3 and me(state).score == 0  # nothing paid during the turn itself
    for _ in range(3):  # the others have nothing to do and end their turns
        state, _, _ = apply_event(setup, state, {"type": "end_turn"})
    assert state.active == 0 and state.turn_income == 1 and me(state).score == 1
