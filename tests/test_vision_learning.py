"""The classification stages on arrays (features → groups → names → calibration), the symbol model and its
training script, `mapsmith read --name` / `--json` groups and `mapsmith vision-eval`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from bench.symbolart import DESIGNS, render
from companion.cartographers.board import Board
from printables.layout import sheet_layout
from printables.mapsheet import map_sheet_pdf
from printables.raster import rasterize
from vision import symbols
from vision.calibrate import calibrated, dominant_terrain, fit_isotonic, reliability
from vision.cli import parse_names
from vision.evaluate import Case, tap_names
from vision.features import HUE_BINS, SHAPE_DIM, cell_arrays, hue_histogram, planes, shape_descriptor
from vision.groups import cluster, make_groups
from vision.naming import DRAWABLE, colour_logits, hue_angle, name_groups
from vision.reading import read_sheet

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
LETTERS = {"forest": "F", "village": "V", "farm": "A", "water": "W", "monster": "M"}


def patch_sheet(colours: list[tuple[float, float, float] | None], size: int = 57) -> tuple[np.ndarray, dict]:
    """A row of cells (BGR 0..1 normalised image), each filled with a colour or left blank."""
    img = np.ones((size, size * len(colours), 3), np.float32)
    boxes = {}
    for k, col in enumerate(colours):
        if col is not None:
            img[6:-6, k * size + 6 : (k + 1) * size - 6] = col
        boxes[(0, k)] = (float(k * size), 0.0, float(size))
    return img, boxes


def test_hue_histogram_is_a_distribution_with_a_neutral_bin():
    a = np.array([40.0, -40.0, 0.0])
    b = np.array([40.0, 0.0, 0.0])
    h = hue_histogram(a, b, np.hypot(a, b), np.ones(3))
    assert h.shape == (HUE_BINS + 1,) and h.sum() == pytest.approx(1.0)
    assert h[HUE_BINS] == pytest.approx(1 / 3)  # the grey pixel
    assert hue_histogram(a, b, np.hypot(a, b), np.zeros(3)).sum() == 0


def test_shape_descriptor_of_a_blank_cell_is_zero():
    assert not shape_descriptor(np.zeros((40, 40), np.float32)).any()
    assert shape_descriptor(np.zeros((40, 40), np.float32)).shape == (SHAPE_DIM,)


def test_colour_cells_group_by_colour_and_ids_follow_reading_order():
    green, blue = (0.3, 0.6, 0.2), (0.8, 0.45, 0.2)  # BGR
    img, boxes = patch_sheet([blue, green, None, blue, green, green])
    a = cell_arrays(planes(img), boxes)
    filled = [k for k in range(6) if a.mass[k] > 0.05]
    groups = make_groups(a, filled)
    assert [g.cells for g in groups] == [[(0, 0), (0, 3)], [(0, 1), (0, 4), (0, 5)]]
    assert [g.id for g in groups] == [1, 2]
    naming = name_groups(a, groups)
    assert [naming.name(0), naming.name(1)] == ["water", "forest"]
    named = name_groups(a, groups, given={1: "village"})
    assert named.name(0) == "village" and named.confidence(0) == 1.0 and named.source[0] == "given"


def test_cluster_keeps_far_points_apart():
    d = np.array([[0, 0.1, 0.9], [0.1, 0, 0.95], [0.9, 0.95, 0]], np.float32)
    assert sorted(cluster(d, 0.3)) == [[0, 1], [2]]


@pytest.mark.parametrize("hue, light, terrain", [(150, 55, "forest"), (30, 45, "village"), (92, 85, "farm"),
                                                 (265, 55, "water"), (320, 45, "monster"), (55, 40, "village"),
                                                 (68, 75, "farm")])
def test_hue_families(hue, light, terrain):
    assert DRAWABLE[int(np.argmax(colour_logits(hue, light)))] == terrain


def test_hue_angle_reads_the_dominant_bin():
    h = np.zeros(HUE_BINS + 1)
    h[9] = 1.0  # bin 9 = 270°
    ang, share = hue_angle(h)
    assert ang == pytest.approx(270, abs=1) and share == pytest.approx(1.0)


def test_isotonic_fit_is_monotone_and_maps_into_0_1():
    rng = np.random.default_rng(0)
    raw = rng.uniform(0, 1, 4000)
    right = rng.uniform(0, 1, 4000) < raw ** 2
    m = fit_isotonic(raw, right)
    assert all(b >= a for a, b in zip(m["y"], m["y"][1:], strict=False))
    assert min(m["y"]) >= 0 and max(m["y"]) <= 1
    mid = np.interp(0.5, m["x"], m["y"])
    assert mid == pytest.approx(0.25, abs=0.08)
    rel = reliability(raw, right)
    assert sum(b["cells"] for b in rel) == 4000
    assert calibrated(np.array([0.2, 0.9]), "no-such-path").tolist() == [0.2, 0.9]


def test_one_terrain_on_nearly_every_cell_is_suspicious():
    assert dominant_terrain(["forest"] * 30 + ["water"]) == "forest"
    assert dominant_terrain(["forest"] * 10 + ["empty"] * 50) is None
    assert dominant_terrain(["forest"] * 15 + ["water"] * 15) is None


def test_symbol_model_ships_small_and_knows_the_designs():
    assert symbols.available()
    assert symbols.MODEL_PATH.stat().st_size < 5 * 1024 * 1024
    from scripts.train_symbols import CELL, sample

    right = 0
    total = 0
    for terrain in DESIGNS:
        for i in range(12):
            rng = np.random.default_rng(5_000_000 + i + 1000 * DRAWABLE.index(terrain))  # held-out seeds
            p = symbols.predict(sample(terrain, rng)[None])[0]
            right += DRAWABLE[int(np.argmax(p))] == terrain
            total += 1
    assert right / total >= 0.8
    assert CELL == 57
    blank = symbols.predict(np.zeros((1, SHAPE_DIM), np.float32))[0]
    assert np.allclose(blank, 0.2)


def test_render_draws_inside_the_mask():
    m = render(DESIGNS["forest"][0](np.random.default_rng(1)), 57, 19, 19, 95, np.random.default_rng(2))
    assert m.shape == (95, 95) and m.max() == 255 and m[:10].max() == 0


def test_training_script_runs(tmp_path):
    out = tmp_path / "symbols.npz"
    cp = subprocess.run([sys.executable, "scripts/train_symbols.py", "--n", "25", "--out", str(out)], cwd=ROOT,
                        env=ENV, capture_output=True, text=True, timeout=300)
    assert cp.returncode == 0, cp.stderr
    with np.load(out) as z:
        assert z["w0"].shape[0] == SHAPE_DIM and len(z["classes"]) == 11


def test_parse_names():
    assert parse_names(["3=forest", "g4=Water"]) == {3: "forest", 4: "water"}
    with pytest.raises(ValueError, match="GROUP=TERRAIN"):
        parse_names(["forest"])


# The Turkish rules' initials: Orman, Köy, Tarla, Su, Canavar.
TURKISH = {"forest": "O", "village": "K", "farm": "T", "water": "S", "monster": "C"}
# A player's own code the reader cannot know: nothing says that "2" is a village, so it must ask.
DIGITS = {"forest": "1", "village": "2", "farm": "3", "water": "4", "monster": "5"}


def letters_photo(side: str, grid: list[list[str]], dpi: int = 150, marks: dict[str, str] = LETTERS) -> bytes:
    """Our sheet, legend left blank, with the terrains' initials (or another code, `marks`) in grey pencil."""
    pdf = map_sheet_pdf(side, "a4", "en", 1, ["LETTERS"], None, None)
    img = cv2.cvtColor(rasterize(pdf, 0, dpi=dpi), cv2.COLOR_RGB2BGR)
    g = sheet_layout(side, "a4").grid
    s = dpi / 72
    cs = g.cell_pt * s
    for r, row in enumerate(grid):
        for c, t in enumerate(row):
            if t in marks:
                x0, y0 = (g.x_pt + c * g.cell_pt) * s, (g.y_pt + r * g.cell_pt) * s
                cv2.putText(img, marks[t], (int(x0 + cs * 0.22), int(y0 + cs * 0.8)), cv2.FONT_HERSHEY_SIMPLEX,
                            cs / 32, (60, 60, 60), max(2, int(cs / 16)), cv2.LINE_AA)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return buf.tobytes()


def letters_grid(seed: int = 3) -> list[list[str]]:
    rng = np.random.default_rng(seed)
    grid = Board.blank("A").to_words()
    for r in range(11):
        for c in range(11):
            if grid[r][c] == "empty" and rng.random() < 0.5:
                grid[r][c] = list(LETTERS)[int(rng.integers(5))]
    return grid


def test_letters_are_read_and_a_tap_names_a_group(tmp_path):
    grid = letters_grid()
    data = letters_photo("A", grid)
    first = read_sheet(data, overlay=False)
    assert first.read_path == "learned"  # the legend is blank: nothing is learned from it
    # initials are marks the cell model was trained on (both photo generators write them): read, not asked
    wrong = {(r, c) for r in range(11) for c in range(11) if first.grid[r][c] != grid[r][c]}
    assert len(wrong) <= 2 and wrong <= set(first.doubtful_cells())  # no silent error before the taps
    case = Case("letters", data, grid)
    names = tap_names(case, first)
    # a player may name any group, sure or not: the biggest one here
    big = max(first.groups, key=lambda g: len(g.cells))
    names.setdefault(big.id, grid[big.example_cell[0]][big.example_cell[1]])
    assert len(names) <= 5  # at most one tap per terrain
    again = read_sheet(data, overlay=False, names=names)
    while again.unsure_groups() and tap_names(case, again, set(names.values())):
        names.update(tap_names(case, again, set(names.values())))
        again = read_sheet(data, overlay=False, names=names)
    assert len(names) <= 5
    left = {(r, c) for r in range(11) for c in range(11) if again.grid[r][c] != grid[r][c]}
    assert len(left) <= 2 and left <= set(again.doubtful_cells())  # e.g. a V in a ruins cell, half hidden
    assert [g.id for g in again.groups] == [g.id for g in first.groups]  # same photo, same groups
    # the same through the command line: --json reports the groups, --name re-reads with them
    photo = tmp_path / "letters.jpg"
    photo.write_bytes(data)
    cp = subprocess.run([sys.executable, "-m", "companion.cli", "read", str(photo), "--json"], cwd=ROOT, env=ENV,
                        capture_output=True, text=True, timeout=120)
    out = json.loads(cp.stdout)
    assert {"id", "cells", "example_cell", "name", "confidence"} <= set(out["groups"][0])
    args = [f"{k}={v}" for k, v in names.items()]
    cp = subprocess.run([sys.executable, "-m", "companion.cli", "read", str(photo), "--json", "--name", *args],
                        cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=120)
    assert json.loads(cp.stdout)["grid"] == again.grid
    cp = subprocess.run([sys.executable, "-m", "companion.cli", "read", str(photo), "--name", "1=lava"], cwd=ROOT,
                        env=ENV, capture_output=True, text=True, timeout=120)
    assert cp.returncode == 2 and "unknown terrain 'lava'" in cp.stderr


@pytest.mark.parametrize("seed", [3, 5])
def test_turkish_initials_are_read_too(seed):
    grid = letters_grid(seed)
    reading = read_sheet(letters_photo("A", grid, marks=TURKISH), overlay=False)
    wrong = {(r, c) for r in range(11) for c in range(11) if reading.grid[r][c] != grid[r][c]}
    assert len(wrong) <= 2 and wrong <= set(reading.doubtful_cells())


def test_vision_eval_scores_a_folder_of_confirmed_photos(tmp_path):
    grid = letters_grid(4)
    (tmp_path / "kept").mkdir()
    (tmp_path / "kept" / "one.jpg").write_bytes(letters_photo("A", grid))
    (tmp_path / "kept" / "one.json").write_text(json.dumps({"side": "A", "grid": grid}))
    (tmp_path / "kept" / "stray.json").write_text("{}")
    cp = subprocess.run([sys.executable, "-m", "companion.cli", "vision-eval", str(tmp_path / "kept"), "--json"],
                        cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=300)
    assert cp.returncode == 0, cp.stderr
    s = json.loads(cp.stdout)["kept"]
    assert s["photos"] == 1 and s["found"] == 1 and s["cells"] == sum(t not in ("mountain", "wasteland")
                                                                       for row in grid for t in row)
    # initials are evidence for their terrain (vision.symbols.LETTER_TRUST): few taps, maybe none
    assert s["accuracy_after_taps"] >= 0.97 and s["silent"] == 0 and 0 <= s["taps_per_photo"] <= 5
    assert sum(b["cells"] for b in s["reliability"]) == s["cells"]
    assert s["right_after_review_shown"] >= s["right_after_review"] == 1  # the highlighted cells hold the flagged
    cp = subprocess.run([sys.executable, "-m", "companion.cli", "vision-eval", str(tmp_path / "nothing")], cwd=ROOT,
                        env=ENV, capture_output=True, text=True, timeout=60)
    assert cp.returncode == 2 and "not a folder" in cp.stderr


@pytest.mark.slow
def test_vision_eval_synthetic_table_and_calibration_check():
    """CI's small run of the evaluation command and of the calibration script (a fit on a handful of dev photos)."""
    cp = subprocess.run([sys.executable, "-m", "companion.cli", "vision-eval", "--synthetic", "blank-legend",
                         "--n", "2"], cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=600)
    assert cp.returncode == 0, cp.stderr
    assert "synthetic blank-legend" in cp.stdout and "reliability" in cp.stdout
    cp = subprocess.run([sys.executable, "scripts/calibrate.py", "--quick", "--photo-cache", ""], cwd=ROOT, env=ENV,
                        capture_output=True, text=True, timeout=600)
    assert cp.returncode == 0, cp.stdout + cp.stderr
    assert "right after review" in cp.stdout and "nothing written" in cp.stdout
