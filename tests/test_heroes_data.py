"""Cartographers Heroes data: transcription spot checks, the card sets, and one test per doubtful fact.

Tests named `test_doubt_*` pin facts the reference marks low or single-source: if a card scan or a
rulebook page says otherwise, the failing test names what to change.
"""

from __future__ import annotations

import dataclasses

import pytest

from companion.cartographers import data, heroes_data
from companion.cartographers.shapes import is_orthogonally_connected

HEROES_IDS = (
    "faunlost_thicket deepwood heart_of_the_forest sleepy_valley craylund ulems_wallow clawsgrave_peaks jorekburg "
    "traylo_monastery outer_enclave gnomish_colony caravansary dwarvenholds silos banded_hills starlit_sigil"
).split()


def test_scoring_ids_are_the_contract():
    assert [c.id for c in data.CARD_SETS["heroes"].scoring] == HEROES_IDS
    assert all(data.SCORING_BY_ID[i].card_set == "heroes" for i in HEROES_IDS)
    assert all(c.card_set == "base" for c in data.CARD_SETS["base"].scoring)


def test_every_card_carries_its_set():
    for cs in data.CARD_SETS.values():
        for card in (*cs.explore, *cs.ambushes, *cs.heroes, *cs.scoring):
            assert card.card_set == cs.id, card
        for side in cs.sides:
            assert data.MAPS[side].card_set == cs.id


def test_categories_and_first_game():
    by_cat = {}
    for c in heroes_data.SCORING_CARDS:
        by_cat.setdefault(c.category, []).append(c.name_en)
    assert by_cat["forest"] == ["Faunlost Thicket", "Deepwood", "Heart of the Forest", "Sleepy Valley"]
    assert by_cat["arrangement"] == ["Dwarvenholds", "Silos", "Banded Hills", "Starlit Sigil"]
    assert all(c.name_tr and c.text_tr and c.text_en for c in heroes_data.SCORING_CARDS)


def test_explore_cards():
    cards = {c.name_en: c for c in heroes_data.EXPLORE_CARDS}
    assert len(cards) == 11 and sum(c.time for c in cards.values()) == 16
    assert not any(c.kind == "ruins" for c in cards.values())
    assert cards["Mangrove Swamp"].options[0].cells == ((0, 0), (0, 1), (0, 2), (1, 0), (1, 2))
    assert cards["Kethra's Gates"].kind == "rift" and len(cards["Kethra's Gates"].terrains) == 5
    # Heroes prints shapes with gaps: the engine must accept them
    assert not cards["Pasture"].options[0].orthogonally_connected
    assert not cards["Wildwood Garden"].options[0].orthogonally_connected
    assert is_orthogonally_connected(cards["Frontier Dwelling"].options[0].cells)


def test_heroes_and_ambushes():
    hits = {h.name_en: h.hits for h in heroes_data.HERO_CARDS}
    assert hits["Dobrik of Lorkheim"] == ((-1, 0), (1, 0), (0, -1), (0, 1))
    assert hits["Wren the Lioness"] == ((-1, 2), (0, 2), (1, 2))
    ambush = {a.name_en: a for a in heroes_data.AMBUSH_CARDS}
    assert ambush["Dragon Inferno"].shape == ((0, 2), (1, 0), (1, 1), (1, 2), (2, 0))
    assert ambush["Zombie Plague"].shape == ((0, 0),)
    assert {a.effect for a in ambush.values()} == {
        "coins_when_sealed", "spread_after_scoring", "destroy_after_scoring", "destroy_when_drawn"}
    assert ambush["Dragon Inferno"].effect_amount == 3


def test_seasons_summer_is_seven():
    assert [s.threshold for s in heroes_data.SEASONS] == [8, 7, 7, 6]
    assert [s.threshold for s in data.SEASONS] == [8, 8, 7, 6]  # the base game is unchanged


def test_sides_c_and_d():
    c, d = data.MAPS["C"], data.MAPS["D"]
    assert c.mountains == ((1, 1), (3, 8), (5, 3), (8, 9), (9, 5)) and not c.wastelands
    assert len(d.wastelands) == 7 and (9, 0) in d.wastelands
    assert data.card_set_of_side("C").id == "heroes" and data.card_set_of_side("A").id == "base"


def test_validation_catches_heroes_typos(monkeypatch):
    broken = heroes_data.SEASONS[:1] + (dataclasses.replace(heroes_data.SEASONS[1], threshold=8),) + \
        heroes_data.SEASONS[2:]
    monkeypatch.setattr(heroes_data, "SEASONS", broken)
    with pytest.raises(data.DataError, match="8/7/7/6"):
        data.validate()


def test_doubts_are_listed_in_both_languages():
    ids = {d.id for d in data.CARD_SETS["heroes"].doubts}
    assert {"combining", "map_d", "ambush_arrows", "solo_numbers", "chooser", "hero_rotation",
            "banded_hills_hero", "names_tr"} <= ids
    assert all(d.text_en and d.text_tr for d in heroes_data.DOUBTS)


# -- one test per doubt: each pins the value we chose and says where it comes from ----------------

def test_doubt_map_d_and_c_ruins_single_source():
    """DOUBT map_d: side D and side C's ruins come from HTS alone (no image of a Heroes sheet was found)."""
    assert data.MAPS["D"].ruins == ((1, 3), (1, 8), (5, 1), (6, 7), (6, 10), (9, 5))
    assert data.MAPS["C"].ruins == ((1, 4), (3, 7), (6, 6), (7, 2), (9, 8), (10, 0))


def test_doubt_ambush_arrows_and_corners_single_source():
    """DOUBT ambush_arrows: HTS alone gives the Heroes ambushes' arrows and solo corners."""
    assert {a.name_en: (a.direction, a.solo_corner) for a in heroes_data.AMBUSH_CARDS} == {
        "Dragon Inferno": ("counterclockwise", "bottom_left"),
        "Zombie Plague": ("counterclockwise", "top_left"),
        "Giant Troll Ravage": ("clockwise", "top_right"),
        "Gorgon Gaze": ("clockwise", "bottom_right"),
    }


def test_doubt_solo_numbers_single_source():
    """DOUBT solo_numbers: HTS alone gives the solo numbers of the 16 Heroes scoring cards."""
    assert [c.solo_threshold for c in heroes_data.SCORING_CARDS] == [
        16, 18, 22, 24, 12, 14, 15, 18, 14, 12, 12, 16, 28, 30, 28, 30]


def test_doubt_who_chooses_the_destroyed_space():
    """DOUBT chooser: HTS's interpretation only — Gorgon: the player who drew it; Troll: the map owner."""
    ambush = {a.name_en: a.chooser for a in heroes_data.AMBUSH_CARDS}
    assert ambush["Gorgon Gaze"] == "drawer" and ambush["Giant Troll Ravage"] == "owner"


def test_doubt_coin_sits_on_the_first_option():
    """The cards have a coin (high); that it is on option 1 rests on HTS plus the base pattern (medium)."""
    assert [c.name_en for c in heroes_data.EXPLORE_CARDS if c.options[0].coin] == [
        "Lagoon", "Pasture", "Settlement", "Timber Grove"]


def test_doubt_dal_of_jolev_spelling():
    """RG spells the hero 'Dal of Joleu'; HTS and JSL 'Jolev' (kept). Check against a card image."""
    assert heroes_data.HERO_CARDS[3].name_en == "Dal of Jolev"


def test_doubt_turkish_names_are_ours():
    """DOUBT names_tr: no Turkish edition exists; the set says so, and the UI marks the names as ours."""
    assert data.CARD_SETS["heroes"].names_tr_ours and not data.CARD_SETS["base"].names_tr_ours
