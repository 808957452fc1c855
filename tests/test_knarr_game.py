"""The event-sourced Knarr table: income timing, the end of the game, caps, errors, undo and storage."""

from __future__ import annotations

import json

import pytest

from companion.knarr import KnarrError, KnarrGame, end_turn, gain, new_setup
from companion.knarr.game import GameState

EXPECTED_INCOME = [0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 5]


def game_for(count: int, first: int = 0, seed: int = 1, **options: object) -> KnarrGame:
    names = ["Ayşe", "Bora", "Cem", "Deniz"][:count]
    return KnarrGame(new_setup(names, seed, first_player=first, **options))


def codes(notices: list[dict]) -> list[str]:
    return [n["code"] for n in notices]


def finish_round(game: KnarrGame) -> None:
    """End turns until the first player is active again (or the game is over)."""
    game.apply(end_turn())
    while not game.finished and game.state.active != game.setup.first_player:
        game.apply(end_turn())


def test_new_game_starts_with_the_first_player_and_the_start_tokens() -> None:
    game = game_for(3, first=1)
    state = game.state
    assert state.active == 1 and state.turn == 1 and state.round == 1
    assert [(p.score, p.reputation, p.recruit, p.bracelet) for p in state.players] == [(0, 0, 1, 1)] * 3
    view = game.to_dict()
    assert view["active_player"] == 1 and view["last_player_of_round"] == 0
    assert view["players"][1]["is_active"] and view["players"][1]["is_first"]


def test_turn_order_is_clockwise_from_the_first_player() -> None:
    game = game_for(4, first=2)
    seen = [game.state.active]
    for _ in range(5):
        game.apply(end_turn())
        seen.append(game.state.active)
    assert seen == [2, 3, 0, 1, 2, 3]
    assert game.state.round == 2 and game.state.turn == 6


@pytest.mark.parametrize("reputation", range(15))
def test_income_is_paid_at_the_start_of_the_players_next_turn(reputation: int) -> None:
    game = game_for(2)
    if reputation:
        game.apply(gain(0, reputation=reputation))
    assert game.state.players[0].score == 0  # no VP for reaching a threshold, only per-turn income
    game.apply(end_turn())  # Bora's turn: Ayşe's income is not paid on someone else's turn
    assert game.state.players[0].score == 0
    notices = game.apply(end_turn())  # Ayşe's turn starts: income paid before any action
    assert game.state.players[0].score == EXPECTED_INCOME[reputation]
    assert game.state.turn_income == EXPECTED_INCOME[reputation]
    assert game.to_dict()["turn_income"] == EXPECTED_INCOME[reputation]
    assert ("income_paid" in codes(notices)) == (EXPECTED_INCOME[reputation] > 0)


def test_income_is_paid_every_turn_and_only_to_the_active_player() -> None:
    game = game_for(3)
    game.apply(gain(0, reputation=6))
    game.apply(gain(1, reputation=3))  # a correction for another seat is allowed
    for _ in range(3):
        finish_round(game)
    assert [p.score for p in game.state.players] == [2 * 3, 1 * 3, 0]


def test_income_uses_the_reputation_reached_before_this_turns_gains() -> None:
    game = game_for(2)
    game.apply(gain(0, reputation=5))
    finish_round(game)
    assert game.state.players[0].score == 1  # income at 5 is 1
    game.apply(gain(0, reputation=1))  # now at 6, but this turn's income was already paid
    assert game.state.players[0].score == 1
    finish_round(game)
    assert game.state.players[0].score == 3


def test_last_round_triggered_by_income_finishes_the_round() -> None:
    game = game_for(3, first=0)
    game.apply(gain(0, vp=38, reputation=6))
    finish_round(game)  # Ayşe's income of 2 brings her to 40 at the start of her turn
    state = game.state
    assert state.players[0].score == 40 and state.last_round and state.triggered_by == 0
    assert "last_round_triggered" in codes(game.notices)
    game.apply(end_turn())
    game.apply(end_turn())
    assert not game.finished and game.state.active == 2  # the last seat of the round still plays
    game.apply(end_turn())
    assert game.finished
    assert [p.turns for p in game.state.players] == [2, 2, 2]


def test_last_round_triggered_by_a_gain_mid_round_ends_after_the_right_of_the_first_player() -> None:
    game = game_for(4, first=2)
    game.apply(end_turn())  # seat 3 plays
    game.apply(gain(3, vp=41))
    assert game.state.last_round and game.state.triggered_by == 3
    notice = game.notices[-1]
    assert notice["code"] == "last_round_triggered" and notice["params"]["last_player"] == 1
    game.apply(end_turn())  # -> seat 0
    game.apply(end_turn())  # -> seat 1
    assert not game.finished and game.state.active == 1
    game.apply(end_turn())
    assert game.finished
    assert {p.turns for p in game.state.players} == {1}
    assert game.to_dict()["active_player"] is None


def test_trigger_on_the_last_turn_of_a_round_ends_the_game_at_once() -> None:
    game = game_for(2, first=1)
    game.apply(end_turn())  # seat 0, the last of the round
    game.apply(gain(0, vp=40))
    game.apply(end_turn())
    assert game.finished
    assert [p.turns for p in game.state.players] == [1, 1]


def test_trigger_by_the_first_player_gives_everyone_one_more_turn() -> None:
    game = game_for(3, first=1)
    game.apply(gain(1, vp=45))
    for seat in (2, 0):
        game.apply(end_turn())
        assert game.state.active == seat and not game.finished
    game.apply(end_turn())
    assert game.finished


def test_only_the_first_player_to_reach_forty_triggers() -> None:
    game = game_for(3)
    game.apply(gain(0, vp=40))
    game.apply(end_turn())
    notices = game.apply(gain(1, vp=50))
    assert game.state.triggered_by == 0 and "last_round_triggered" not in codes(notices)


def test_scores_are_not_capped_at_forty() -> None:
    game = game_for(2)
    game.apply(gain(0, vp=39))
    game.apply(gain(0, vp=14))
    view = game.to_dict()["players"][0]
    assert view["score"] == 53 and view["score_track_space"] == 13 and view["laps"] == 1


def test_winner_and_tie_break_after_a_full_game() -> None:
    game = game_for(3)
    game.apply(gain(0, vp=42, bracelet=1))  # Ayşe: 42 VP, 1 recruit + 2 bracelets = 3
    game.apply(end_turn())
    game.apply(gain(1, vp=42, recruit=2, bracelet=2))  # Bora: 42 VP, 3 + 3 = 6
    game.apply(end_turn())
    game.apply(gain(2, vp=41, recruit=2, bracelet=2))
    game.apply(end_turn())
    assert game.finished
    view = game.to_dict()
    assert view["winners"] == [1]
    first, second, third = view["ranking"]
    assert (first["name"], first["rank"], first["tied_on_score"]) == ("Bora", 1, True)
    assert (second["name"], second["rank"], second["tiebreak"]) == ("Ayşe", 2, 3)
    assert (third["name"], third["rank"], third["tied_on_score"]) == ("Cem", 3, False)
    assert "game_over_notice" in codes(view["notices"])
    assert "Bora" in view["notices"][-1]["text"]["tr"]


def test_a_tie_on_score_and_tokens_is_shared() -> None:
    game = game_for(2)
    game.apply(gain(0, vp=40))
    game.apply(end_turn())
    game.apply(gain(1, vp=40))
    game.apply(end_turn())
    view = game.to_dict()
    assert game.finished and view["winners"] == [0, 1]
    assert all(e["rank"] == 1 and e["shared"] for e in view["ranking"])


def test_token_gain_beyond_three_is_lost_and_reported() -> None:
    game = game_for(2)
    notices = game.apply(gain(0, recruit=3, bracelet=2))
    player = game.state.players[0]
    assert (player.recruit, player.bracelet) == (3, 3)
    lost = {n["params"]["token"]: n["params"]["lost"] for n in notices if n["code"] == "token_lost"}
    assert lost == {"recruit": 1}
    assert "Devşirme" in notices[0]["text"]["tr"] and "Recruit" in notices[0]["text"]["en"]


def test_spending_tokens_and_refusing_to_go_negative() -> None:
    game = game_for(2)
    game.apply(gain(0, bracelet=-1))
    assert game.state.players[0].bracelet == 0
    before = game.state
    with pytest.raises(KnarrError) as err:
        game.apply(gain(0, recruit=-2))
    assert err.value.code == "negative_tokens" and err.value.params["have"] == 1
    assert game.state is before and len(game.events) == 1


def test_a_refused_mixed_gain_changes_nothing_at_all() -> None:
    game = game_for(2)
    before = game.state
    with pytest.raises(KnarrError):
        game.apply(gain(0, vp=10, reputation=3, bracelet=-2))
    assert game.state == before and game.events == []


def test_reputation_beyond_fourteen_is_lost_and_reported() -> None:
    game = game_for(2)
    game.apply(gain(0, reputation=12))
    notices = game.apply(gain(0, reputation=4))
    assert game.state.players[0].reputation == 14
    assert [n["params"]["lost"] for n in notices if n["code"] == "reputation_lost"] == [2]
    assert game.to_dict()["players"][0]["next_threshold"] is None


@pytest.mark.parametrize(
    ("event", "code"),
    [
        ("gain", "malformed_event"),
        ({"player": 0}, "malformed_event"),
        ({"type": 3}, "malformed_event"),
        ({"type": "cheat", "player": 0}, "unknown_event"),
        ({"type": "gain", "vp": 2}, "malformed_event"),
        ({"type": "gain", "player": 2, "vp": 2}, "unknown_player"),
        ({"type": "gain", "player": -1, "vp": 2}, "unknown_player"),
        ({"type": "gain", "player": True, "vp": 2}, "malformed_event"),
        ({"type": "gain", "player": 0, "vp": "2"}, "malformed_event"),
        ({"type": "gain", "player": 0, "vp": 2.0}, "malformed_event"),
        ({"type": "gain", "player": 0, "vp": True}, "malformed_event"),
        ({"type": "gain", "player": 0, "vp": -1}, "invalid_amount"),
        ({"type": "gain", "player": 0, "vp": 300}, "invalid_amount"),
        ({"type": "gain", "player": 0, "reputation": -1}, "invalid_amount"),
        ({"type": "gain", "player": 0, "recruit": 4}, "invalid_amount"),
        ({"type": "gain", "player": 0}, "empty_gain"),
        ({"type": "gain", "player": 0, "vp": 0}, "empty_gain"),
        ({"type": "gain", "player": 0, "vp": 1, "coins": 1}, "malformed_event"),
        ({"type": "gain", "player": 0, "vp": 1, "meta": "x"}, "malformed_event"),
        ({"type": "end_turn", "player": 1}, "not_active_player"),
        ({"type": "end_turn", "player": 9}, "unknown_player"),
        ({"type": "take_viking", "player": 0, "slot": 0}, "no_virtual_deck"),
    ],
)
def test_illegal_events_raise_a_coded_error_and_change_nothing(event: object, code: str) -> None:
    game = game_for(2)
    game.apply(gain(0, vp=3))
    before, log = game.state, game.events
    with pytest.raises(KnarrError) as err:
        game.apply(event)
    assert isinstance(err.value, ValueError)
    assert err.value.code == code
    assert err.value.text("en") and err.value.text("tr") and err.value.text("tr") != err.value.text("en")
    assert err.value.to_dict("tr")["code"] == code
    assert game.state is before and game.events == log


def test_nothing_can_be_recorded_after_the_game_ends_but_undo_reopens_it() -> None:
    game = game_for(2)
    game.apply(gain(0, vp=40))
    game.apply(end_turn())
    game.apply(end_turn())
    assert game.finished
    for event in (gain(0, vp=1), end_turn(), gain(1, bracelet=-1)):
        with pytest.raises(KnarrError) as err:
            game.apply(event)
        assert err.value.code == "game_over"
    game.undo()
    assert not game.finished and game.state.active == 1
    game.apply(gain(1, vp=2))


def test_undo_restores_the_previous_state_including_income() -> None:
    game = game_for(2)
    game.apply(gain(0, reputation=10))
    game.apply(end_turn())
    before_end = game.state
    game.apply(end_turn())  # Ayşe's income of 3 is paid
    assert game.state.players[0].score == 3
    removed = game.undo()
    assert removed == [{"type": "end_turn"}]
    assert game.state == before_end and game.state.players[0].score == 0


def test_undo_several_and_the_errors_of_undo() -> None:
    game = game_for(2)
    with pytest.raises(KnarrError) as err:
        game.undo()
    assert err.value.code == "nothing_to_undo"
    initial = game.state
    game.apply(gain(0, vp=1))
    game.apply(end_turn())
    game.apply(gain(1, bracelet=1))
    with pytest.raises(KnarrError):
        game.undo(4)
    assert len(game.events) == 3
    assert game.undo(3) == [gain(0, vp=1), end_turn(), gain(1, bracelet=1)]
    assert game.state == initial and not game.to_dict()["can_undo"]


def test_save_and_load_through_json_replays_the_same_game() -> None:
    game = game_for(3, seed=99, artifact_variant="random", virtual_deck=True)
    game.apply(gain(0, vp=7, reputation=4, recruit=1, bracelet=-1))
    seat = game.state.active
    game.apply({"type": "recruit", "player": seat, "card": game.state.deck.hands[seat][0]})
    game.apply(next(m for m in game.legal_moves() if m["type"] == "take_viking"))
    game.apply({"type": "end_turn", "meta": {"device": "phone-2"}})
    game.apply(gain(1, reputation=3))
    stored = json.loads(json.dumps(game.save()))
    loaded = KnarrGame.load(stored)
    assert loaded.state == game.state
    assert loaded.to_dict() == game.to_dict()
    assert loaded.events[3]["meta"] == {"device": "phone-2"}


def test_load_rejects_foreign_or_broken_documents() -> None:
    good = game_for(2).save()
    for broken, code in (
        ({**good, "game": "cartographers"}, "bad_setup"),
        ({**good, "format": 99}, "bad_setup"),
        ({**good, "events": "nope"}, "malformed_event"),
        ({**good, "setup": {"players": []}}, "bad_setup"),
        ({**good, "events": [{"type": "gain", "player": 5, "vp": 1}]}, "unknown_player"),
    ):
        with pytest.raises(KnarrError) as err:
            KnarrGame.load(broken)
        assert err.value.code == code


def test_the_event_log_cannot_be_mutated_from_outside() -> None:
    game = game_for(2)
    event = {"type": "gain", "player": 0, "vp": 2, "meta": {"by": "Ayşe"}}
    game.apply(event)
    event["vp"] = 30
    event["meta"]["by"] = "someone"
    log = game.events
    log[0]["vp"] = 99
    assert game.events == [{"type": "gain", "player": 0, "vp": 2, "meta": {"by": "Ayşe"}}]
    assert game.state.players[0].score == 2


def test_the_same_seed_gives_the_same_game() -> None:
    a = KnarrGame.new(["Ayşe", "Bora", "Cem"], 2024, artifact_variant="random", virtual_deck=True)
    b = KnarrGame.new(["Ayşe", "Bora", "Cem"], 2024, artifact_variant="random", virtual_deck=True)
    assert a.setup == b.setup and a.state == b.state
    firsts = {KnarrGame.new(["Ayşe", "Bora", "Cem"], seed).setup.first_player for seed in range(40)}
    assert firsts == {0, 1, 2}


def test_view_is_json_and_shows_the_next_threshold() -> None:
    game = game_for(4, first=3)
    game.apply(gain(3, reputation=4))
    view = json.loads(json.dumps(game.to_dict()))
    me = view["players"][3]
    assert me["reputation"] == 4 and me["income"] == 1
    assert me["next_threshold"] == {"position": 6, "income": 2, "steps": 2}
    assert view["event_count"] == 1 and view["can_undo"]
    assert view["sheet"]["viking_deck"]["size"] == 50
    assert isinstance(game.state, GameState)


def test_seq_guards_against_two_phones_recording_the_same_move() -> None:
    game = game_for(3)
    game.apply({"type": "end_turn", "seq": 0})
    with pytest.raises(KnarrError) as err:
        game.apply({"type": "end_turn", "seq": 0})  # the second phone saw the old table
    assert err.value.code == "stale_event" and err.value.params == {"expected": 1, "got": 0}
    assert game.state.active == 1 and len(game.events) == 1
    with pytest.raises(KnarrError) as err:
        game.apply({"type": "end_turn", "seq": -1})
    assert err.value.code == "malformed_event"
    game.apply(gain(1, vp=2) | {"seq": 1})
    assert KnarrGame.load(game.save()).state == game.state  # stored seq values replay cleanly


def test_history_describes_each_event_newest_first_in_both_languages() -> None:
    game = game_for(2)
    game.apply(gain(0, vp=3, reputation=1, bracelet=-1))
    game.apply(end_turn())
    view = game.to_dict()
    assert [h["index"] for h in view["history"]] == [1, 0]
    assert view["last_event"]["text"] == {"en": "Ayşe ended their turn.", "tr": "Ayşe sırasını bitirdi."}
    assert view["history"][1]["text"]["tr"] == "Ayşe: +3 Zafer Puanı, +1 İtibar, -1 Gümüş Bilezik"
    game.undo()
    assert game.to_dict()["last_event"]["index"] == 0
    assert len(KnarrGame(game.setup, [end_turn()] * 30).history()) == 12


def test_undo_with_seq_removes_one_event_when_two_phones_tap_undo() -> None:
    game = game_for(2)
    game.apply(gain(0, vp=2))
    game.apply(gain(0, vp=3))
    assert game.undo(seq=2) == [gain(0, vp=3)]
    with pytest.raises(KnarrError) as err:
        game.undo(seq=2)
    assert err.value.code == "stale_event"
    assert game.event_count == 1 and game.state.players[0].score == 2


def test_replay_from_a_setup_dict_and_an_event_list() -> None:
    game = game_for(3, first=2)
    game.apply(gain(2, vp=5, reputation=3))
    game.apply(end_turn())
    row = json.loads(json.dumps({"setup": game.setup.to_dict(), "events": game.events}))
    again = KnarrGame.replay(row["setup"], row["events"])
    assert again.state == game.state and again.setup == game.setup
    assert KnarrGame.replay(game.setup, []).state == game.state_after(0)
