"""The transcribed Knarr data: counts per player count, tracks, Destinations, Artifacts, validation."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from companion.knarr import data
from companion.knarr.data import (
    ARTIFACTS,
    DESTINATIONS,
    VIKING_CARDS,
    KnarrDataError,
    deck_composition,
    validate,
    viking_deck,
)

# Independent transcription of the reference table "counts_in_play" (vp, bracelet, recruit, reputation).
IN_PLAY = {
    2: {"red": (3, 2, 1, 0), "yellow": (3, 1, 0, 2), "green": (2, 1, 2, 1), "blue": (2, 1, 1, 2),
        "purple": (1, 2, 2, 1)},
    3: {"red": (3, 3, 1, 1), "yellow": (4, 1, 1, 2), "green": (3, 1, 3, 1), "blue": (3, 2, 1, 2),
        "purple": (2, 2, 2, 2)},
    4: {"red": (4, 3, 2, 1), "yellow": (5, 2, 1, 2), "green": (4, 2, 3, 1), "blue": (4, 2, 1, 3),
        "purple": (4, 2, 2, 2)},
}


def test_data_is_valid() -> None:
    validate()


@pytest.mark.parametrize(("players", "size"), [(2, 30), (3, 40), (4, 50)])
def test_deck_size_per_player_count(players: int, size: int) -> None:
    assert len(viking_deck(players)) == size
    assert deck_composition(players)["total"] == {"total": size}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deck_composition_matches_the_reference_table(players: int) -> None:
    comp = deck_composition(players)
    for colour, (vp, bracelet, recruit, reputation) in IN_PLAY[players].items():
        row = comp[colour]
        assert (row["vp"], row["bracelet"], row["recruit"], row["reputation"]) == (vp, bracelet, recruit, reputation)
        assert row["total"] == players * 2 + 2  # 6 / 8 / 10 per colour


def test_marks_remove_the_right_cards() -> None:
    assert {c.mark for c in viking_deck(2)} == {None}
    assert {c.mark for c in viking_deck(3)} == {None, 3}
    assert Counter(c.mark for c in VIKING_CARDS) == Counter({None: 30, 3: 10, 4: 10})
    with pytest.raises(ValueError):
        viking_deck(5)


def test_income_table_matches_the_thresholds() -> None:
    assert list(data.INCOME_BY_POSITION) == [0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 5]
    assert data.REPUTATION_MAX == 14 and data.END_TRIGGER_SCORE == 40
    assert data.TOKEN_CAP == 3 and dict(data.TOKEN_START) == {"recruit": 1, "bracelet": 1}


def test_destinations() -> None:
    assert Counter(d.kind for d in DESTINATIONS) == Counter({"trading_land": 20, "land_of_influence": 15})
    by_id = data.DESTINATION_BY_ID
    assert dict(by_id[33].cost.colours) == {"yellow": 3, "green": 2} and dict(by_id[33].gain) == {"vp": 9}
    assert by_id[15].trade == ("vp", "vp", "vp") and dict(by_id[15].gain) == {}
    assert by_id[21].cost.kind == "same" and by_id[21].cost.count == 4
    assert by_id[24].cost.text("en") == "1 red + 1 yellow + 1 green + 1 blue + 1 purple"
    assert by_id[1].cost.text("tr") == "3 farklı renkten Viking"


def test_ships() -> None:
    assert data.SHIP_SIDES["normal"] == (None, "recruit", None)
    assert data.SHIP_SIDES["advanced"] == ("vp", None, "bracelet")


def test_artifacts_have_turkish_and_english_names_and_effects() -> None:
    assert [a.id for a in ARTIFACTS] == [
        "mead_cup", "silver_coin", "cauldron", "golden_bracelet", "helmet", "amulet", "weathervane"]
    mead = data.ARTIFACT_BY_ID["mead_cup"]
    assert mead.name("tr") == "Bal Şarabı Kupası" and mead.name("en") == "Mead Cup"
    for art in ARTIFACTS:
        assert art.effect("tr") != art.effect("en") and len(art.effect("tr")) > 40


def test_colour_names_in_both_languages() -> None:
    assert data.VIKING_COLOUR_NAMES["purple"]["tr"] == "mor"
    assert data.SHIP_COLOUR_NAMES["black"]["tr"] == "siyah"


def _expect_problem(monkeypatch: pytest.MonkeyPatch, name: str, value: object, fragment: str) -> None:
    monkeypatch.setattr(data, name, value)
    with pytest.raises(KnarrDataError) as err:
        validate()
    assert any(fragment in p for p in err.value.problems), err.value.problems


def test_validate_catches_a_missing_viking(monkeypatch: pytest.MonkeyPatch) -> None:
    _expect_problem(monkeypatch, "VIKING_CARDS", VIKING_CARDS[:-1], "expected 50 Viking cards")


def test_validate_catches_a_wrong_mark(monkeypatch: pytest.MonkeyPatch) -> None:
    cards = list(VIKING_CARDS)
    cards[0] = replace(cards[0], mark=3)
    _expect_problem(monkeypatch, "VIKING_CARDS", tuple(cards), "red: expected 6 unmarked")


def test_validate_catches_a_wrong_gain(monkeypatch: pytest.MonkeyPatch) -> None:
    cards = list(VIKING_CARDS)
    cards[0] = replace(cards[0], gain="recruit")
    _expect_problem(monkeypatch, "VIKING_CARDS", tuple(cards), "21 vp")


def test_validate_catches_an_income_typo(monkeypatch: pytest.MonkeyPatch) -> None:
    _expect_problem(monkeypatch, "INCOME_BY_POSITION", (0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 5),
                    "disagrees with the printed thresholds")


def test_validate_catches_a_destination_typo(monkeypatch: pytest.MonkeyPatch) -> None:
    dests = list(DESTINATIONS)
    dests[5] = replace(dests[5], cost=replace(dests[5].cost, colours=data.MappingProxyType({"pink": 2})))
    _expect_problem(monkeypatch, "DESTINATIONS", tuple(dests), "bad colour cost")


def test_validate_catches_a_missing_translation(monkeypatch: pytest.MonkeyPatch) -> None:
    arts = list(ARTIFACTS)
    arts[2] = replace(arts[2], effect_tr=" ")
    _expect_problem(monkeypatch, "ARTIFACTS", tuple(arts), "TR and EN")
