"""Colour groups named together by the order of their hues (vision.hueorder, branch silent7, issue 10)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tests.test_vision_colour5 import _arrays, _groups, _naming
from vision import hueorder as H
from vision.naming import DRAWABLE, Naming


def _brute(hues, ev, anchor):
    """Max-marginals by enumerating every cut, every rising run labelling and every break (tiny cases only)."""
    n, k = len(hues), len(H.ORDER)
    hues = np.asarray(hues) % 360
    order = np.argsort(hues, kind="stable")
    alt = np.array([[max(ev[i][u] for u in range(k) if u != t) - H.OUT_OF_ORDER for t in range(k)]
                    for i in range(n)])
    best = np.maximum(ev, alt)
    out = np.full((n, k), -np.inf)
    for c in range(n):
        idx = [order[(j + c) % n] for j in range(n)]
        hh = [hues[i] + (360 if j + c >= n else 0) for j, i in enumerate(idx)]
        for runs in itertools.combinations_with_replacement(range(k), n):
            score = sum(best[idx[j]][runs[j]] for j in range(n))
            for t in set(runs):
                held = [j for j in range(n) if runs[j] == t and anchor[idx[j]]]
                if held:
                    score -= float(H.span_cost(hh[held[-1]] - hh[held[0]]))
            for j, i in enumerate(idx):
                for u in range(k):
                    take = ev[i][u] if u == runs[j] else ev[i][u] - H.OUT_OF_ORDER
                    out[i, u] = max(out[i, u], score - best[i][runs[j]] + take)
    return out


@pytest.mark.parametrize("seed", range(8))
def test_max_marginals_match_enumeration(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 5))
    hues, ev, anchor = rng.uniform(0, 360, n), rng.normal(0, 2, (n, 5)), rng.random(n) < 0.7
    assert np.allclose(H.order_marginals(hues, ev, anchor), _brute(hues, ev, anchor))


def _in_order(names: list[str]) -> np.ndarray:
    """(n, 5) independent-naming probabilities in ORDER: each group sure of its name (0.97)."""
    p = np.full((len(names), 5), 0.0075)
    for k, t in enumerate(names):
        p[k, H.ORDER.index(t)] = 0.97
    return p


def test_orange_beside_yellow_both_called_farm_the_redder_is_the_village():
    """An orange village and yellow farms, each named "farm" alone: by the hue order, the orange is the village."""
    hues = [64, 101, 147, 277, 320]
    q = H.order_probabilities(hues, _in_order(["farm", "farm", "forest", "water", "monster"]), [32, 24, 29, 23, 3])
    names = [H.ORDER[i] for i in q.argmax(axis=1)]
    assert names == ["village", "farm", "forest", "water", "monster"]


def test_shades_of_one_pen_keep_their_name_and_stay_sure():
    """Dense and light hatching of one green (10° apart), with the other pens clearly apart: nothing contested."""
    hues = [30, 95, 140, 150, 265]
    q = H.order_probabilities(hues, _in_order(["village", "farm", "forest", "forest", "water"]), [12, 10, 15, 9, 8])
    assert [H.ORDER[i] for i in q.argmax(axis=1)] == ["village", "farm", "forest", "forest", "water"]
    assert q.max(axis=1).min() > 0.85


def test_a_name_out_of_the_hue_order_is_contested():
    """A small "village" group whose hue sits between the farms and the forests does not keep its name confidently
    (it is renamed into the order, or doubted), while the groups in order keep theirs."""
    hues = [30, 95, 120, 150, 265]
    q = H.order_probabilities(hues, _in_order(["village", "farm", "village", "forest", "water"]), [12, 10, 4, 15, 8])
    assert q[2, H.ORDER.index("village")] < 0.7
    assert [H.ORDER[int(q[k].argmax())] for k in (0, 1, 3, 4)] == ["village", "farm", "forest", "water"]
    assert min(q[k].max() for k in (0, 1, 3, 4)) > 0.85


def test_one_cell_of_bleed_does_not_bridge_two_pens():
    """Orange (village) and yellow (farm) pens 30° apart, with a single mixed cell between them: the stray cell is
    no anchor, so the two pens' span is still wide and they do not merge into one name."""
    hues = [66, 80, 96, 150]
    q = H.order_probabilities(hues, _in_order(["farm", "farm", "farm", "forest"]), [20, 1, 18, 15])
    assert H.ORDER[int(q[0].argmax())] == "village" and H.ORDER[int(q[2].argmax())] == "farm"


def test_order_names_renames_the_orange_group_and_leaves_others():
    """On arrays: the hue families alone name a light orange and a yellow both "farm"; named together, the orange is
    the village. A group not named by colour (a symbol) is left alone."""
    from vision.naming import name_groups

    specs = [(64, 79, 12), (101, 90, 10), (148, 70, 12), (277, 60, 9)]
    a, groups = _arrays(specs), _groups(specs)
    naming = name_groups(a, groups)
    assert [naming.name(k) for k in range(2)] == ["farm", "farm"]
    out = H.order_names(a, groups, naming)
    assert [out.name(k) for k in range(4)] == ["village", "farm", "forest", "water"]
    symbol = Naming(naming.probs.copy(), ["symbol", "colour", "colour", "colour"])
    kept = H.order_names(a, groups, symbol)
    assert np.array_equal(kept.probs[0], symbol.probs[0])  # not a colour group: not renamed


def test_a_tapped_group_is_a_fixed_point_for_the_others():
    """The player names the yellow group "village" (their own choice): it keeps that name, and the orange group,
    redder still, cannot also be the farm's rival — the tap's name is never moved."""
    specs = [(64, 79, 12), (101, 90, 10), (148, 70, 12)]
    a, groups = _arrays(specs), _groups(specs)
    probs = _naming(["farm", "village", "forest"]).probs
    naming = Naming(probs, ["colour", "given", "colour"])
    out = H.order_names(a, groups, naming)
    assert out.name(1) == "village" and np.array_equal(out.probs[1], probs[1])
    assert out.source == naming.source


def test_a_sheet_with_one_colour_group_is_unchanged():
    specs = [(64, 79, 12)]
    a, groups = _arrays(specs), _groups(specs)
    naming = _naming(["farm"])
    assert H.order_names(a, groups, naming) is naming


def test_probabilities_are_rows_over_the_five_terrains():
    q = H.order_probabilities([10, 200], _in_order(["village", "water"]), [3, 3])
    assert q.shape == (2, len(DRAWABLE)) and np.allclose(q.sum(axis=1), 1)


def test_a_grey_group_named_farm_is_doubted_and_keeps_its_name():
    from vision.naming import GREY_FARM_CONFIDENCE, grey_farm_doubt

    p = np.array([0.02, 0.05, 0.9, 0.01, 0.02])  # DRAWABLE order: forest, village, farm, water, monster
    out = grey_farm_doubt(p)
    assert DRAWABLE[int(out.argmax())] == "farm" and out.max() == GREY_FARM_CONFIDENCE
    assert np.isclose(out.sum(), 1) and out[1] > out[0]  # the rest keep their order
    other = np.array([0.02, 0.9, 0.05, 0.01, 0.02])
    assert np.array_equal(grey_farm_doubt(other), other)  # only "farm" is doubted
