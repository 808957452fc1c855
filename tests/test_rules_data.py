"""Game data: transcription spot checks and the load-time validation."""

from __future__ import annotations

import dataclasses

import pytest

from companion.cartographers import data
from companion.cartographers.shapes import mirror, normalise, orientations, rotate

SCORING_IDS = (
    "sentinel_wood treetower greenbough stoneside_forest wildholds greengold_plains great_city shieldgate "
    "canal_lake golden_granary mages_valley shoreside_expanse borderlands broken_road lost_barony cauldrons"
).split()


def test_scoring_card_ids_are_the_stable_ones():
    assert sorted(c.id for c in data.SCORING_CARDS) == sorted(SCORING_IDS)
    assert set(SCORING_IDS) <= set(data.SCORING_BY_ID)  # the lookup also holds the Heroes cards
    assert [c.number for c in data.SCORING_CARDS] == list(range(26, 42))


def test_solo_thresholds_and_names():
    assert {c.id: c.solo_threshold for c in data.SCORING_CARDS} == {
        "sentinel_wood": 25, "greenbough": 22, "treetower": 17, "stoneside_forest": 18,
        "canal_lake": 24, "mages_valley": 22, "golden_granary": 20, "shoreside_expanse": 27,
        "wildholds": 16, "great_city": 16, "greengold_plains": 21, "shieldgate": 20,
        "borderlands": 24, "lost_barony": 24, "broken_road": 24, "cauldrons": 20,
    }
    assert data.SCORING_BY_ID["shieldgate"].name_tr == "Kalkan Kapısı"
    assert all(c.name_tr and c.text_tr for c in data.SCORING_CARDS)


def test_explore_deck():
    assert len(data.EXPLORE_CARDS) == 13
    assert sum(c.time for c in data.EXPLORE_CARDS) == 16
    sizes = {c.name_en: [len(o.cells) for o in c.options] for c in data.EXPLORE_CARDS}
    assert sizes["Great River"] == [3, 5]
    assert sizes["Treetop Village"] == [5]
    assert sizes["Rift Lands"] == [1]
    ff = data.EXPLORE_BY_ID["10"]
    assert ff.options[0].cells == ((0, 0), (1, 1)) and not ff.options[0].orthogonally_connected


def test_ambush_cards():
    assert {a.name_en: (a.solo_corner, a.direction) for a in data.AMBUSH_CARDS} == {
        "Goblin Attack": ("bottom_right", "counterclockwise"),
        "Bugbear Assault": ("top_right", "clockwise"),
        "Kobold Onslaught": ("bottom_left", "clockwise"),
        "Gnoll Raid": ("top_left", "counterclockwise"),
    }


def test_maps():
    a, b = data.MAPS["A"], data.MAPS["B"]
    assert a.mountains == ((1, 3), (2, 8), (5, 5), (8, 2), (9, 7))
    assert b.wastelands == ((3, 5), (4, 4), (4, 5), (5, 4), (5, 5), (5, 6), (6, 5))
    assert data.COIN_TRACK_LENGTH == 14


def test_seasons_and_titles():
    assert [(s.threshold, s.edicts) for s in data.SEASONS] == [
        (8, ("A", "B")), (8, ("B", "C")), (7, ("C", "D")), (6, ("D", "A"))
    ]
    assert data.solo_title(30).name_en == "Legendary Cartographer"
    assert data.solo_title(29).name_en == "Master Mapsmith"
    assert data.solo_title(0).name_en == "Apprentice Surveyor"
    assert data.solo_title(-1).name_en == "Amateur Assessor"
    assert data.solo_title(-30).name_en == "Oblivious Inkdrinker"
    assert data.solo_title(-99).name_en == "Oblivious Inkdrinker"


@pytest.mark.parametrize(
    "attr, broken",
    [
        ("MAPS", {**data.MAPS, "A": dataclasses.replace(data.MAPS["A"], mountains=((1, 3), (2, 8), (5, 5), (8, 2),
                                                                                   (11, 7)))}),
        ("MAPS", {**data.MAPS, "A": dataclasses.replace(data.MAPS["A"], ruins=data.MAPS["A"].ruins[:5] + ((1, 3),))}),
        ("SCORING_CARDS", data.SCORING_CARDS[:-1] + (dataclasses.replace(data.SCORING_CARDS[-1], category="forest"),)),
        ("EXPLORE_CARDS", data.EXPLORE_CARDS[:-1]),
        ("EXPLORE_CARDS", tuple(
            dataclasses.replace(c, options=(data.ShapeOption(((0, 0), (0, 2))),)) if c.id == "16" else c
            for c in data.EXPLORE_CARDS
        )),
        ("SEASONS", data.SEASONS[:3] + (dataclasses.replace(data.SEASONS[3], threshold=7),)),
    ],
)
def test_validation_catches_typos(monkeypatch, attr, broken):
    monkeypatch.setattr(data, attr, broken)
    with pytest.raises(data.DataError):
        data.validate()


def test_orientations():
    t = normalise([(0, 0), (0, 1), (0, 2), (1, 1)])
    assert len(orientations(t)) == 4
    l5 = normalise([(0, 0), (1, 0), (2, 0), (3, 0), (3, 1)])
    assert len(orientations(l5)) == 8
    assert len(orientations(((0, 0),))) == 1
    assert rotate(rotate(rotate(rotate(l5)))) == l5
    assert mirror(mirror(l5)) == l5
