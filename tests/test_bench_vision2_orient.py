"""bench_vision2's simulated player answers "Which edge is the top?" with the truth's turn (read --turn K)."""

from __future__ import annotations

import numpy as np
import pytest

from bench import bench_vision2
from tests.test_photogen2 import photo


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_the_answer_is_the_clockwise_turn_that_puts_the_reading_on_the_truth(k):
    t = photo("handruled", seed=2).truth
    tc = np.asarray(t["params"]["geometry"]["cell_centers_px"])
    grid = np.array(t["grid"], dtype=object)
    # a reading turned k quarter turns counterclockwise from the truth: k more clockwise puts it right
    out = {"grid": np.rot90(grid, k).tolist(), "confidence": [[0.9] * 11 for _ in range(11)],
           "cell_centers_px": np.rot90(tc, k, axes=(0, 1)).tolist(), "orientation_unsure": True}
    rec = bench_vision2.score(t, out, 0, "", 1.0)
    assert rec["orientation_right"] == (k == 0)
    assert bench_vision2.truth_quarter_turns(rec) == k
    assert np.allclose(np.rot90(np.asarray(out["cell_centers_px"]), -k, axes=(0, 1)), tc)
    # without centres the grid's best match says it
    rec = bench_vision2.score(t, {**out, "cell_centers_px": None}, 0, "", 1.0)
    assert bench_vision2.truth_quarter_turns(rec) == k


def test_the_answer_column_is_in_the_table():
    assert any(name == "o-ans" for name, _ in bench_vision2.COLS)
    rec = {"kind": "handruled", "style": "pencil", "difficulty": "normal", "seed": 0, "drawable": 100,
           "found": True, "seconds": 1.0, "crash": False, "ok": 90, "silent": 0, "flagged": 3,
           "taps": 2, "ok_after_taps": 95, "orientation_answer": 1, "orientation_unsure": True}
    s = bench_vision2.summarise([rec, {**rec, "orientation_answer": None, "orientation_unsure": False}])
    assert s["orientation_answers"] == 1
    assert bench_vision2.fmt_row("x", s).split()[-2] == "1"


def test_review_after_the_answer_counts_the_reading_the_player_reviews():
    """A sheet whose way up was asked is right after review when the reading after the answer is (its first
    reading doubted every cell for the way up); a sheet never asked counts as `review` does."""
    assert any(name == "rev-ans" for name, _ in bench_vision2.COLS)
    rec = {"kind": "handruled", "style": "pencil", "difficulty": "normal", "seed": 0, "drawable": 100,
           "found": True, "seconds": 1.0, "crash": False, "ok": 100, "silent": 0, "flagged": 60,
           "taps": 1, "ok_after_taps": 100, "orientation_answer": 0, "orientation_unsure": True,
           "review_answered": True}
    never_asked = {**rec, "flagged": 4, "orientation_answer": None, "orientation_unsure": False}
    del never_asked["review_answered"]
    s = bench_vision2.summarise([rec, never_asked, {**never_asked, "silent": 2}])
    assert s["review"] == 1 and s["review_answered"] == 2
    assert bench_vision2.fmt_row("x", s).split()[-1] == "2"
