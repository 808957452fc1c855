"""`mapsmith read PHOTO --turn K`: an unmarked sheet re-read K quarter turns clockwise from the way up the reader
chose (the answer to "Which edge is the top?"), `--turn 0` the same way up confirmed; the JSON keeps every field and
adds `orientation_choices`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.test_web_orient import unsure_photo

ROOT = Path(__file__).resolve().parents[1]


def read(path: Path, *extra: str) -> tuple[int, dict]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cp = subprocess.run([sys.executable, "-m", "companion.cli", "read", str(path), "--json", *extra], cwd=ROOT,
                        env=env, capture_output=True, text=True, timeout=300)
    return cp.returncode, json.loads(cp.stdout) if cp.stdout.strip() else {}


@pytest.fixture(scope="module")
def photo_path(tmp_path_factory) -> Path:
    p = tmp_path_factory.mktemp("turn") / "unsure.jpg"
    p.write_bytes(unsure_photo())
    return p


def test_turn_rereads_the_sheet_a_quarter_round_clockwise(photo_path):
    rc, first = read(photo_path)
    assert rc == 0 and first["orientation_unsure"] is True
    assert sorted(first["orientation_choices"]) == [0, 1, 2, 3] and first["orientation_choices"][0] == 0
    for key in ("side", "grid", "coins", "confidence", "warnings", "warning_codes", "sheet_id", "table", "seat",
                "doubtful", "method", "style", "cell_centers_px", "groups"):
        assert key in first
    centres = np.asarray(first["cell_centers_px"])
    for k in (1, 2, 3):
        rc, out = read(photo_path, "--turn", str(k))
        assert rc == 0 and out["orientation_unsure"] is False and out["orientation_choices"] == [0]
        # the same cells, the reading turned k quarter turns clockwise
        assert np.allclose(out["cell_centers_px"], np.rot90(centres, -k, axes=(0, 1)), atol=3.0)
    # "yes, this is the top": the same reading with its way up confirmed, so no cell carries the doubt about it
    rc, same = read(photo_path, "--turn", "0")
    assert rc == 0 and same["grid"] == first["grid"] and same["orientation_unsure"] is False
    assert same["orientation_choices"] == [0] and set(same) == set(first)
    assert len(same["doubtful"]) < len(first["doubtful"])
    assert np.mean(same["confidence"]) > np.mean(first["confidence"])


def test_a_turn_out_of_range_is_refused(photo_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cp = subprocess.run([sys.executable, "-m", "companion.cli", "read", str(photo_path), "--turn", "4"], cwd=ROOT,
                        env=env, capture_output=True, text=True, timeout=120)
    assert cp.returncode == 2 and "--turn" in cp.stderr and "Traceback" not in cp.stderr


def test_turn_is_for_one_sheet(photo_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cp = subprocess.run([sys.executable, "-m", "companion.cli", "read", str(photo_path), "--all-sheets", "--turn", "1",
                         "--json"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert cp.returncode == 2 and "--turn is for one sheet" in json.loads(cp.stdout)["error"]
