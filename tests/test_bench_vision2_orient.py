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
    assert bench_vision2.fmt_row("x", s).split()[-4] == "1"


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
    assert bench_vision2.fmt_row("x", s).split()[-3] == "2"


def one_cell_wrong():
    """A truth, its drawable cells, confidences all 0.9 and a reading wrong on the first drawable cell only."""
    t = photo("handruled", seed=2).truth
    drawable = [(r, c) for r in range(11) for c in range(11) if t["grid"][r][c] not in bench_vision2.FIXED]
    wrong = [row[:] for row in t["grid"]]
    r0, c0 = drawable[0]
    wrong[r0][c0] = "monster" if t["grid"][r0][c0] != "monster" else "forest"
    return t, drawable, [[0.9] * 11 for _ in range(11)], wrong


def test_review_after_taps_counts_the_last_reading_the_player_checks():
    """`rev-taps`: on the last reading (way up answered, unsure groups named) every wrong cell is flagged and
    at most 10 are; a sheet the bench tapped nothing on counts its first reading, and without taps the column is
    empty."""
    t, drawable, sure, wrong = one_cell_wrong()
    r0, c0 = drawable[0]
    right = bench_vision2.score(t, {"grid": t["grid"], "confidence": sure}, 0, "", 1.0)
    silent = bench_vision2.score(t, {"grid": wrong, "confidence": sure}, 0, "", 1.0)
    flagged = [row[:] for row in sure]
    flagged[r0][c0] = 0.3
    caught = bench_vision2.score(t, {"grid": wrong, "confidence": flagged}, 0, "", 1.0)
    assert (right["silent"], silent["silent"], caught["silent"], caught["flagged"]) == (0, 1, 0, 1)
    base = {"kind": "handruled", "style": "pencil", "difficulty": "normal", "seed": 0, "drawable": 100,
            "found": True, "seconds": 1.0, "crash": False, "ok": 90, "silent": 3, "flagged": 40, "taps": 2,
            "ok_after_taps": 99}
    s = bench_vision2.summarise([{**base, "review_after_taps": True}, {**base, "review_after_taps": False},
                                 {**base, "review_after_taps": True}])
    assert s["review"] == 0 and s["review_after_taps"] == 2
    assert bench_vision2.fmt_row("x", s).split()[-2] == "2"
    untapped = {k: v for k, v in base.items() if k not in ("taps", "ok_after_taps")}
    assert bench_vision2.summarise([untapped])["review_after_taps"] is None


def test_shown_counts_the_cells_the_review_highlights():
    """`shown-taps`: with the JSON's "doubtful" list (what the review highlights), a wrong cell at 0.9 that the
    list holds is caught, though still a silent error by confidence; without the list, shown is flagged."""
    t, drawable, sure, wrong = one_cell_wrong()
    r0, c0 = drawable[0]
    plain = bench_vision2.score(t, {"grid": wrong, "confidence": sure}, 0, "", 1.0)
    assert (plain["silent"], plain["missed"], plain["shown"]) == (1, 1, 0)
    listed = bench_vision2.score(t, {"grid": wrong, "confidence": sure, "doubtful": [[r0, c0], list(drawable[1])]},
                                 0, "", 1.0)
    assert (listed["silent"], listed["flagged"], listed["missed"], listed["shown"]) == (1, 0, 0, 2)
    assert not bench_vision2.reviewed_right(listed) and bench_vision2.reviewed_right(listed, shown=True)
    many = bench_vision2.score(t, {"grid": wrong, "confidence": sure, "doubtful": [list(rc) for rc in drawable[:11]]},
                               0, "", 1.0)
    assert many["missed"] == 0 and not bench_vision2.reviewed_right(many, shown=True)  # 11 shown: over 10
    base = {"kind": "handruled", "style": "pencil", "difficulty": "normal", "seed": 0, "drawable": 100,
            "found": True, "seconds": 1.0, "crash": False, "ok": 90, "silent": 3, "flagged": 4, "taps": 2,
            "ok_after_taps": 99, "review_after_taps": False}
    s = bench_vision2.summarise([{**base, "shown_after_taps": True}, base])
    assert s["shown_after_taps"] == 1 and bench_vision2.fmt_row("x", s).split()[-1] == "1"


FAKE_READER = '''
import json, sys
from pathlib import Path
args = sys.argv[1:]
photo = Path(args[1])
truth = json.loads(photo.with_suffix(".json").read_text())["grid"]
grid = [row[:] for row in truth]
conf = [[0.95] * 11 for _ in range(11)]
cells = [[r, c] for r in range(11) for c in range(11) if truth[r][c] == "farm"][:20]
named = "--name" in args
for r, c in cells:
    if not named:
        grid[r][c], conf[r][c] = "village", 0.4
group = {"id": 1, "cells": cells, "example_cell": cells[0], "name": "farm" if named else "village",
         "confidence": 0.99 if named else 0.4, "source": "given" if named else "colour"}
print(json.dumps({"grid": grid, "confidence": conf, "groups": [group]}))
'''


def test_review_after_taps_is_scored_on_the_reading_after_the_groups_are_named(tmp_path):
    """run_one with a stand-in reader (this test is of the bench, not of the reader): the first reading doubts a
    group of 20 farms it calls villages (review fails: 20 flagged); the tap names it and the reading after is
    right and sure, so the sheet is right after review once tapped."""
    import sys

    script = tmp_path / "reader.py"
    script.write_text(FAKE_READER)
    rec = bench_vision2.run_one([sys.executable, str(script)], tmp_path, ("ours", "marker", "normal", 3), 0,
                                60, False, True, "photogen2")
    assert rec["found"] and rec["flagged"] == 20 and rec["silent"] == 0
    assert rec["taps"] == 1 and rec["ok_after_taps"] == rec["drawable"]
    assert rec["review_after_taps"] is True
    no_taps = bench_vision2.run_one([sys.executable, str(script)], tmp_path, ("ours", "marker", "normal", 3), 1,
                                    60, False, False, "photogen2")
    assert "review_after_taps" not in no_taps


def test_a_record_says_whether_a_wrong_coin_count_was_flagged():
    t = {**photo("handruled", seed=2).truth, "coins": 3}
    base = {"grid": t["grid"], "confidence": [[0.9] * 11 for _ in range(11)], "cell_centers_px": None}
    rec = bench_vision2.score(t, {**base, "coins": 5, "warning_codes": ["coins_unsure"]}, 0, "", 1.0)
    assert rec["coins_right"] is False and rec["coins_flagged"] is True
    rec = bench_vision2.score(t, {**base, "coins": 5, "warning_codes": ["unmarked"]}, 0, "", 1.0)
    assert rec["coins_right"] is False and rec["coins_flagged"] is False  # a silent score error
    rec = bench_vision2.score(t, {**base, "coins": 3}, 0, "", 1.0)
    assert rec["coins_right"] is True and rec["coins_flagged"] is False
