"""The sheet-level doubts of a well-filled map that lacks a main terrain and of a map read nearly blank
(vision.scarcity, cellread.doubt_scarce)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.cellnet import CLASSES
from vision.cellread import doubt_scarce
from vision.groups import Group
from vision.scarcity import (
    CELL_MAX_COST,
    MAX_COST,
    MIN_FILLED,
    NEARLY_BLANK,
    SCARCE_CAP,
    nearly_blank,
    scarce_terrains,
    suspect_cells,
    suspect_groups,
)

FOREST, VILLAGE, FARM, WATER = (CLASSES.index(t) for t in ("forest", "village", "farm", "water"))


def _probs(rows: list[dict[int, float]]) -> np.ndarray:
    """Probability rows over CLASSES from {class: p} (the rest spread evenly over the other classes)."""
    out = np.zeros((len(rows), len(CLASSES)))
    for i, r in enumerate(rows):
        rest = (1.0 - sum(r.values())) / (len(CLASSES) - len(r))
        out[i] = [r.get(k, rest) for k in range(len(CLASSES))]
    return out


def _map(forest=20, village=20, farm=20, water=20, empty=0) -> list[str]:
    return ["forest"] * forest + ["village"] * village + ["farm"] * farm + ["water"] * water + ["empty"] * empty


def test_full_map_with_every_terrain_lacks_none():
    assert scarce_terrains(_map()) == []


def test_missing_and_nearly_missing_terrains_on_a_full_map():
    assert scarce_terrains(_map(village=0)) == ["village"]
    # two cells, and 5 % of the drawn cells (here 3 of 74), count as missing; a real share does not
    assert scarce_terrains(_map(forest=60, village=2, farm=3, water=9)) == ["village", "farm"]


def test_a_sparse_map_is_never_judged():
    labels = _map(forest=MIN_FILLED - 1, village=0, farm=0, water=0, empty=40)
    assert scarce_terrains(labels) == []
    assert scarce_terrains(_map(forest=MIN_FILLED, village=0, farm=0, water=0)) == ["village", "farm", "water"]


def test_the_cheap_group_is_suspect_and_the_certain_one_is_not():
    # group 0: farms whose second choice is village (a pale hatching shared by two pens); group 1: farms the
    # model is certain of; group 2: two cells only
    Q = _probs([{FARM: 0.85, VILLAGE: 0.14}] * 5 + [{FARM: 0.999}] * 5 + [{FARM: 0.6, VILLAGE: 0.39}] * 2)
    groups = [list(range(5)), list(range(5, 10)), [10, 11]]
    assert suspect_groups(Q, CLASSES, groups, [FARM, FARM, FARM], ["village"]) == [0]
    assert suspect_groups(Q, CLASSES, groups, [FARM, FARM, FARM], []) == []


def test_a_group_already_named_the_missing_terrain_is_not_suspect():
    Q = _probs([{VILLAGE: 0.6, FARM: 0.39}] * 4)
    assert suspect_groups(Q, CLASSES, [[0, 1, 2, 3]], [VILLAGE], ["village"]) == []


@settings(max_examples=200, deadline=None)
@given(p=st.floats(0.2, 0.999), alt=st.floats(1e-4, 0.5), n=st.integers(3, 20))
def test_suspect_exactly_when_the_missing_terrain_costs_little(p, alt, n):
    alt = min(alt, 1.0 - p)
    Q = _probs([{FARM: p, VILLAGE: alt}] * n)
    cost = float(np.log(p + 1e-6) - np.log(Q[0, VILLAGE] + 1e-6))
    assert (suspect_groups(Q, CLASSES, [list(range(n))], [FARM], ["village"]) == [0]) == (cost <= MAX_COST)


def test_cells_are_suspect_each_on_its_own_in_groups_of_any_size():
    # rows 0-2: single-cell groups, two waters read as forests (water costs little), one sure forest; rows 3-7: a
    # pen of five whose members water costs little too; rows 8-17: a large group where two waters hide among
    # eight sure forests (the group as a whole costs water far too much for `suspect_groups`)
    Q = _probs([{FOREST: 0.7, WATER: 0.25}, {FOREST: 0.8, WATER: 0.15}, {FOREST: 0.999}]
               + [{FOREST: 0.6, WATER: 0.39}] * 5
               + [{FOREST: 0.999}] * 4 + [{FOREST: 0.75, WATER: 0.2}] * 2 + [{FOREST: 0.999}] * 4)
    groups = [[0], [1], [2], [3, 4, 5, 6, 7], list(range(8, 18))]
    assert suspect_cells(Q, CLASSES, groups, ["water"]) == [0, 1, 3, 4, 5, 6, 7, 12, 13]
    assert suspect_cells(Q, CLASSES, groups, []) == []
    assert suspect_groups(Q, CLASSES, groups[4:], [FOREST], ["water"]) == []  # the group hides them


@settings(max_examples=200, deadline=None)
@given(p=st.floats(0.2, 0.999), alt=st.floats(1e-4, 0.5))
def test_a_single_cell_is_suspect_exactly_when_the_missing_terrain_costs_it_little(p, alt):
    alt = min(alt, 1.0 - p)
    Q = _probs([{FOREST: p, WATER: alt}])
    if int(np.argmax(Q[0])) != FOREST:
        return
    cost = float(np.log(p + 1e-6) - np.log(Q[0, WATER] + 1e-6))
    assert (suspect_cells(Q, CLASSES, [[0]], ["water"]) == [0]) == (cost <= CELL_MAX_COST)


def _group(gid: int, rows: list[int], cells: list[tuple[int, int]]) -> Group:
    return Group(gid, rows, cells, cells[0], np.ones(len(rows)))


def _doubt(Q: np.ndarray, groups: list[Group], cells: list[tuple[int, int]],
           fixed: dict[int, int] | None = None) -> tuple[np.ndarray, list]:
    """`doubt_scarce` on a reading of `Q` (each cell its most likely class), every cell first at 0.95."""
    labels = [CLASSES[int(k)] for k in Q.argmax(axis=1)]
    conf = np.full((11, 11), 0.95)
    warnings: list = []
    doubt_scarce(Q, groups, cells, labels, fixed or {}, conf, warnings)
    return conf, warnings


def test_doubt_scarce_caps_the_suspect_pen_and_says_which_terrain_is_missing():
    # a full map: 22 villages read as farms (group 1), 40 sure farms, 20 forests, 20 waters; no village
    Q = _probs([{FARM: 0.86, VILLAGE: 0.13}] * 22 + [{FARM: 0.999}] * 40 + [{FOREST: 0.999}] * 20
               + [{WATER: 0.999}] * 20)
    cells = [(k // 11, k % 11) for k in range(len(Q))]
    bounds = [(0, 22), (22, 62), (62, 82), (82, 102)]
    groups = [_group(i + 1, list(range(a, b)), cells[a:b]) for i, (a, b) in enumerate(bounds)]
    conf, warnings = _doubt(Q, groups, cells)
    assert all(conf[rc] == SCARCE_CAP for rc in cells[:22])
    assert all(conf[rc] == 0.95 for rc in cells[22:])
    assert [n.code for n in warnings] == ["terrain_missing"]
    assert "village" in warnings[0].text("en")
    assert "Köy" in warnings[0].text("tr") or "köy" in warnings[0].text("tr")


def test_doubt_scarce_caps_a_pen_split_into_single_cells():
    # a full map without water: 15 waters read as forests, each a group of its own, beside 30 sure forests,
    # 20 villages and 20 farms
    Q = _probs([{FOREST: 0.8, WATER: 0.15}] * 15 + [{FOREST: 0.999}] * 30 + [{VILLAGE: 0.999}] * 20
               + [{FARM: 0.999}] * 20)
    cells = [(k // 11, k % 11) for k in range(len(Q))]
    groups = [_group(i + 1, [i], [cells[i]]) for i in range(15)]
    groups += [_group(16 + i, list(range(a, b)), cells[a:b]) for i, (a, b) in enumerate([(15, 45), (45, 65), (65, 85)])]
    conf, warnings = _doubt(Q, groups, cells)
    assert all(conf[rc] == SCARCE_CAP for rc in cells[:15])
    assert all(conf[rc] == 0.95 for rc in cells[15:])
    assert [n.code for n in warnings] == ["terrain_missing"]


def test_doubt_scarce_leaves_a_group_the_player_named():
    Q = _probs([{FARM: 0.86, VILLAGE: 0.13}] * 22 + [{FOREST: 0.999}] * 30 + [{WATER: 0.999}] * 30)
    cells = [(k // 11, k % 11) for k in range(len(Q))]
    groups = [_group(1, list(range(22)), cells[:22]), _group(2, list(range(22, 52)), cells[22:52]),
              _group(3, list(range(52, 82)), cells[52:82])]
    conf, warnings = _doubt(Q, groups, cells, {k: VILLAGE for k in range(22)})
    assert (conf == 0.95).all() and warnings == []


def test_nearly_blank_is_fewer_drawn_cells_than_a_season():
    assert nearly_blank(["forest"] * (NEARLY_BLANK - 1) + ["empty"] * 90)
    assert not nearly_blank(["forest"] * NEARLY_BLANK + ["empty"] * 90)


def test_a_map_read_nearly_blank_doubts_its_empty_cells_not_its_drawn_ones_nor_named_ones():
    cells = [(k // 11, k % 11) for k in range(109)]
    labels = ["forest"] * 3 + ["empty"] * 106
    Q = _probs([{FOREST: 0.99}] * 3 + [{0: 0.99}] * 106)
    conf = np.full((11, 11), 0.95)
    warnings: list = []
    doubt_scarce(Q, [], cells, labels, {3: 0}, conf, warnings)  # row 3: an "empty" the player named
    assert [conf[rc] for rc in cells[:4]] == [0.95] * 4
    assert all(conf[rc] == SCARCE_CAP for rc in cells[4:])
    assert [n.code for n in warnings] == ["nearly_blank"]
