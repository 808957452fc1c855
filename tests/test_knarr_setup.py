"""Setup: seats and colours, the first player, ship side, Artifact variants and the setup sheet."""

from __future__ import annotations

import json

import pytest

from companion.knarr import KnarrError, KnarrSetup, new_setup, setup_sheet, suggested_artifact_variant
from companion.knarr.setup import PlayerSeat, draw_artifacts, seeded_rng


def test_defaults_give_box_colours_in_seat_order() -> None:
    setup = new_setup(["Ayşe", "Bora", "Cem"], 5)
    assert [p.colour for p in setup.players] == ["white", "beige", "brown"]
    assert setup.ship_side == "normal" and setup.artifacts == () and not setup.virtual_deck


def test_chosen_first_player_is_kept() -> None:
    assert new_setup(["A", "B", "C", "D"], 5, first_player=3).first_player == 3


def test_random_first_player_is_deterministic_per_seed() -> None:
    picks = [new_setup(["A", "B", "C", "D"], seed).first_player for seed in range(60)]
    assert picks == [new_setup(["A", "B", "C", "D"], seed).first_player for seed in range(60)]
    assert set(picks) == {0, 1, 2, 3}


def test_random_ship_side_is_one_side_for_everybody() -> None:
    sides = {new_setup(["A", "B"], seed, ship_side="random").ship_side for seed in range(30)}
    assert sides == {"normal", "advanced"}


def test_two_players_are_advised_the_mead_cup() -> None:
    assert suggested_artifact_variant(2) == "random_with_mead_cup"
    assert suggested_artifact_variant(3) == suggested_artifact_variant(4) == "random"


def test_random_with_mead_cup_draws_the_second_artifact_from_the_other_six() -> None:
    seen = set()
    for seed in range(80):
        arts = new_setup(["A", "B"], seed, artifact_variant="random_with_mead_cup").artifacts
        assert len(arts) == 2 and arts[0] == "mead_cup" and arts[1] != "mead_cup"
        seen.add(arts[1])
    assert len(seen) == 6


def test_random_artifact_variant_draws_one_of_seven() -> None:
    seen = {new_setup(["A", "B", "C"], seed, artifact_variant="random").artifacts for seed in range(120)}
    assert all(len(a) == 1 for a in seen) and len(seen) == 7
    assert draw_artifacts("off", seeded_rng(1, "x")) == ()
    with pytest.raises(KnarrError) as err:
        draw_artifacts("all", seeded_rng(1, "x"))
    assert err.value.code == "bad_artifact_variant"


def test_explicit_artifacts_override_the_variant() -> None:
    setup = new_setup(["A", "B"], 1, artifact_variant="random", artifacts=["helmet"])
    assert setup.artifacts == ("helmet",)


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"names": ["Solo"]}, "bad_player_count"),
        ({"names": ["A", "B", "C", "D", "E"]}, "bad_player_count"),
        ({"names": ["A", ""]}, "bad_player_name"),
        ({"names": ["Ayşe", "ayşe"]}, "bad_player_name"),
        ({"names": ["A", "x" * 41]}, "bad_player_name"),
        ({"colours": ["white", "white"]}, "bad_colour"),
        ({"colours": ["white", "pink"]}, "bad_colour"),
        ({"colours": ["white"]}, "bad_setup"),
        ({"first_player": 2}, "bad_first_player"),
        ({"first_player": -1}, "bad_first_player"),
        ({"ship_side": "upside-down"}, "bad_ship_side"),
        ({"artifacts": ["helmet", "helmet"]}, "unknown_artifact"),
        ({"artifacts": ["crown"]}, "unknown_artifact"),
        ({"artifact_variant": "many"}, "bad_artifact_variant"),
        ({"seed": "abc"}, "bad_setup"),
    ],
)
def test_bad_setups_are_refused_with_a_code(kwargs: dict, code: str) -> None:
    args = {"names": ["A", "B"], "seed": 1, **kwargs}
    with pytest.raises(KnarrError) as err:
        new_setup(args.pop("names"), args.pop("seed"), **args)
    assert err.value.code == code and err.value.text("tr")


def test_names_are_trimmed() -> None:
    assert [p.name for p in new_setup(["  Ayşe ", "Bora"], 1).players] == ["Ayşe", "Bora"]


def test_setup_round_trips_through_json() -> None:
    setup = new_setup(["Ayşe", "Bora", "Cem"], 77, colours=["black", "white", "brown"],
                      ship_side="advanced", artifact_variant="random", virtual_deck=True)
    assert KnarrSetup.from_dict(json.loads(json.dumps(setup.to_dict()))) == setup


@pytest.mark.parametrize(
    "broken",
    [None, {}, {"players": "AB", "first_player": 0, "seed": 1},
     {"players": [{"name": "A"}, {"name": "B"}], "first_player": 0, "seed": 1},
     {"players": [{"name": "A", "colour": "white"}, {"name": "B", "colour": ["x"]}], "first_player": 0, "seed": 1},
     {"players": [{"name": "A", "colour": "white"}, {"name": "B", "colour": "black"}], "first_player": 0,
      "seed": 1, "virtual_deck": "yes"},
     {"players": [{"name": "A", "colour": "white"}, {"name": "B", "colour": "black"}], "first_player": True,
      "seed": 1},
     {"players": [{"name": "A", "colour": "white"}, {"name": "B", "colour": "black"}], "first_player": 0,
      "seed": 1, "artifacts": [["helmet"]]}],
)
def test_from_dict_refuses_broken_data(broken: object) -> None:
    with pytest.raises(KnarrError):
        KnarrSetup.from_dict(broken)  # type: ignore[arg-type]


def test_direct_construction_is_validated_too() -> None:
    with pytest.raises(KnarrError):
        KnarrSetup((PlayerSeat("A", "white"), PlayerSeat("B", "white")), 0, 1)


def test_setup_sheet_for_two_players() -> None:
    setup = new_setup(["Ayşe", "Bora"], 3, first_player=1, artifacts=["mead_cup", "amulet"])
    sheet = json.loads(json.dumps(setup_sheet(setup)))
    assert sheet["viking_deck"]["size"] == 30 and sheet["viking_deck"]["remove_marks"] == [3, 4]
    assert sheet["player_start"] == {**sheet["player_start"], "recruit": 1, "bracelet": 1, "crew": 2, "hand": 3}
    assert [s["turn_position"] for s in sheet["seat_order"]] == [2, 1]
    assert [a["name"]["tr"] for a in sheet["artifacts"]] == ["Bal Şarabı Kupası", "Muska"]
    assert sheet["artifacts"][1]["effect"]["en"].startswith("If a player completes a line")
    assert sheet["ship_side"]["trade_columns"] == [None, "recruit", None]
    assert sheet["suggested_artifact_variant"] == "random_with_mead_cup"


def test_setup_sheet_for_three_players_removes_only_the_fours() -> None:
    sheet = setup_sheet(new_setup(["A", "B", "C"], 3))
    assert sheet["viking_deck"]["size"] == 40 and sheet["viking_deck"]["remove_marks"] == [4]
    assert sheet["artifacts"] == [] and sheet["artifact_rule"] is None
    assert setup_sheet(new_setup(["A", "B", "C", "D"], 3))["viking_deck"]["remove_marks"] == []
