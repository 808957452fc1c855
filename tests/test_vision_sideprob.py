"""The printed cells of a sheet whose side is the reader's guess (vision.sideprob) and the side's lead
(vision.orient): a side given is sure, a side decided by a hair is a coin toss for its printed cells."""

from __future__ import annotations

import math

import numpy as np
import pytest

from vision.sideprob import SIDE_BIAS, SIDE_SLOPE, doubt_printed, side_probability


def test_a_side_given_or_marked_is_sure_and_a_close_call_is_not():
    assert side_probability(math.inf) == 1.0
    leads = [0.0, 0.05, 0.1, 0.15, 0.2, 0.4, 1.0]
    p = [side_probability(v) for v in leads]
    assert p == sorted(p) and p[0] < 0.5 and p[-1] > 0.99
    assert side_probability(-SIDE_BIAS / SIDE_SLOPE) == pytest.approx(0.5)
    assert 0.12 < (math.log(0.7 / 0.3) - SIDE_BIAS) / SIDE_SLOPE < 0.2  # the review's 0.7 at a lead near 0.15


def test_only_printed_cells_are_lowered_and_never_raised():
    conf = np.full((11, 11), 0.95)
    conf[0, 0] = 0.3  # a printed cell already doubted stays as it is
    printed = np.zeros((11, 11), bool)
    printed[[0, 1, 2], [0, 3, 5]] = True
    assert doubt_printed(conf, printed, 0.6) == 2
    assert conf[0, 0] == 0.3 and conf[1, 3] == conf[2, 5] == 0.6
    assert (conf[~printed] == 0.95).all()
    assert doubt_printed(conf, printed, 1.0) == 0


def test_the_orientation_leads_the_other_side_by_a_finite_margin_unless_the_side_is_given():
    from tests.test_vision_pagecues_orient import _drawn_map
    from vision.orient import orient_lattice

    img, lat = _drawn_map("B", True)
    free, given = orient_lattice(img, lat), orient_lattice(img, lat, "B")
    assert free.side == "B" and 0 < free.side_lead < math.inf
    assert given.side_lead == math.inf


def test_the_fit_finds_the_logistic_it_is_given():
    from bench.bench_side import fit

    rng = np.random.default_rng(0)
    lead = rng.uniform(0, 0.6, 4000)
    right = rng.random(4000) < 1 / (1 + np.exp(-(-1.0 + 12.0 * lead)))
    bias, slope = fit(lead, right)
    assert bias == pytest.approx(-1.0, abs=0.3) and slope == pytest.approx(12.0, rel=0.2)


def test_the_mountains_look_moves_the_sides_chance_both_ways():
    """A side chosen by a hair in the cues is near certain when its mountains look alike to the cell model, and
    a coin toss or worse when they do not."""
    lead = 0.05
    assert side_probability(lead, 0.4) > 0.99
    assert side_probability(lead, 0.0) < side_probability(lead) < 0.7
    assert side_probability(lead, 0.4) > side_probability(lead, 0.2) > side_probability(lead, 0.0)
    assert side_probability(math.inf, -1.0) == 1.0  # a side given stays sure


def test_the_fit_takes_the_look_as_a_second_column():
    from bench.bench_side import fit

    rng = np.random.default_rng(1)
    x = np.column_stack([rng.uniform(0, 0.6, 6000), rng.uniform(-0.1, 0.5, 6000)])
    right = rng.random(6000) < 1 / (1 + np.exp(-(-2.0 + 10.0 * x[:, 0] + 15.0 * x[:, 1])))
    bias, w_lead, w_look = fit(x, right)
    assert bias == pytest.approx(-2.0, abs=0.4)
    assert w_lead == pytest.approx(10.0, rel=0.25) and w_look == pytest.approx(15.0, rel=0.25)
