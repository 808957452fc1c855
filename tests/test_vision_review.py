"""vision.review: the cells the review highlights — every doubtful cell, then the least sure of the rest while
the reader still expects a wrong cell among them."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from vision.review import EXPECTED_LEFT, MOST, THRESHOLD, cells_to_check


def test_a_sure_sheet_shows_nothing_and_a_doubtful_cell_always_shows():
    conf = np.ones((11, 11))
    assert cells_to_check(conf) == []
    conf[3, 4] = 0.5
    assert cells_to_check(conf) == [(3, 4)]


def test_a_cell_sure_enough_to_pass_the_threshold_still_shows_when_it_is_the_likely_error():
    """One cell at 0.8 among cells at 0.999: the reader expects 0.2 + 0.12 wrong cells; showing the 0.8 cell leaves
    0.12 expected, under EXPECTED_LEFT, so it alone is added."""
    conf = np.full((11, 11), 0.999)
    conf[7, 2] = 0.8
    assert cells_to_check(conf) == [(7, 2)]
    conf[7, 2] = 0.95  # 0.05 + 0.12 expected: nothing to add
    assert cells_to_check(conf) == []


def test_never_more_than_most_cells_unless_that_many_are_doubtful():
    conf = np.full((11, 11), 0.9)  # 12 wrong cells expected: the ten least sure in reading order
    assert len(cells_to_check(conf)) == MOST
    conf[:2] = 0.4  # 22 doubtful: all shown, none added
    assert cells_to_check(conf) == [(r, c) for r in range(2) for c in range(11)]


@settings(max_examples=200, deadline=None)
@given(arrays(np.float64, (11, 11), elements=st.floats(0.0, 1.0)))
def test_the_cells_added_are_the_least_sure_and_stop_at_the_expected_left(conf):
    shown = set(cells_to_check(conf))
    doubtful = {(r, c) for r in range(11) for c in range(11) if conf[r, c] < THRESHOLD}
    assert doubtful <= shown
    added = shown - doubtful
    rest = {(r, c) for r in range(11) for c in range(11)} - shown
    if added:
        assert len(shown) <= MOST
        assert max(conf[rc] for rc in added) <= min((conf[rc] for rc in rest), default=1.0)
    left = sum(1.0 - conf[rc] for rc in rest)
    assert left <= EXPECTED_LEFT + 1e-9 or len(shown) >= MOST or not rest


def test_members_a_tap_spared_do_not_flood_the_review():
    """A large tapped group whose strays keep their own reading (capped at DISPUTED_CAP) shows at most the
    review's limit, not every stray: they are right about as often as the cap says."""
    from vision.cellread import DISPUTED_CAP

    conf = np.ones((11, 11))
    conf[:4, :9] = DISPUTED_CAP  # 36 members set apart from a tapped group
    assert DISPUTED_CAP >= 0.7
    assert len(cells_to_check(conf)) <= MOST
