"""The symbol model's stages: contrast-stretched stroke shapes, the layered model format, the harvest of
labelled cells from the second generator, the training script on a small set, and the benchmark's taps."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bench.bench_vision2 import right_cells, tap_names
from bench.symbolart import DESIGNS, render
from vision import symbols
from vision.features import SHAPE_DIM, cell_arrays, planes, stretch, stroke_shape

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def _symbol(strength: float) -> np.ndarray:
    m = render(DESIGNS["forest"][0](np.random.default_rng(1)), 57, 0, 0, 57, np.random.default_rng(2))
    return m.astype(np.float32) / 255 * strength


def _cos(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def test_a_pale_symbol_has_the_shape_of_a_firm_one():
    firm, pale = stroke_shape(_symbol(1.0)), stroke_shape(_symbol(0.2))
    assert pale.any(), "a pale pencil symbol must not vanish"
    assert _cos(firm, pale) > 0.97


def test_stretch_leaves_paper_noise_alone():
    rng = np.random.default_rng(0)
    noise = np.clip(rng.normal(0, 0.01, (57, 57)), 0, 1).astype(np.float32)
    assert stretch(noise).max() < 0.3  # below the shape threshold: a blank cell stays blank
    assert not stroke_shape(noise).any()
    assert stretch(np.zeros((0, 0), np.float32)).size == 0


def test_contrast_tells_a_faint_symbol_from_a_blank_cell():
    img = np.ones((57, 114, 3), np.float32)
    img[:, 57:] -= _symbol(0.18)[..., None]  # a faint grey tree in the second cell
    a = cell_arrays(planes(img), {(0, 0): (0, 0, 57), (0, 1): (57, 0, 57)})
    assert a.contrast[0] < 0.02 < a.contrast[1]
    assert a.take([1]).contrast[0] == a.contrast[1]


def test_layered_model_is_evaluated_like_sklearn(tmp_path):
    sklearn = pytest.importorskip("sklearn")
    assert sklearn
    from scripts.train_symbols import fit

    rng = np.random.default_rng(0)
    X = rng.normal(0, 1, (300, SHAPE_DIM)).astype(np.float32)
    y = np.array(["forest", "water", "other"])[(X[:, 0] > 0).astype(int) + (X[:, 1] > 1).astype(int)]
    arrays = fit(X, y, "mlp")
    assert set(arrays) >= {"w0", "b0", "w1", "b1", "classes", "mean", "scale"}
    pred = arrays["classes"][np.argmax(symbols.logits(arrays, X), axis=1)]
    assert (pred == y).mean() > 0.9
    lr = fit(X, y, "logreg")
    assert "w1" not in lr and (lr["classes"][np.argmax(symbols.logits(lr, X), axis=1)] == y).mean() > 0.9


def test_harvest_refuses_held_out_seeds(tmp_path):
    from scripts.harvest_cells import harvest_photo, main

    with pytest.raises(ValueError, match="dev seed"):
        harvest_photo("ours", "graphite", "normal", 1_000_000)
    assert main(["--seeds", "99990:100010", "--out", str(tmp_path / "x.npz")]) == 2


def test_harvest_and_train_on_two_generators(tmp_path):
    """CI's small run of the whole training path: photogen2 dev photos read by our reader, labelled by its
    truth, plus our renders; the tiny model must still tell the rendered designs apart."""
    cells = tmp_path / "cells.npz"
    cp = subprocess.run([sys.executable, "scripts/harvest_cells.py", "--seeds", "90000:90002",
                         "--styles", "graphite", "--kinds", "ours", "--out", str(cells)], cwd=ROOT, env=ENV,
                        capture_output=True, text=True, timeout=600)
    assert cp.returncode == 0, cp.stderr
    with np.load(cells) as z:
        assert z["shape"].shape[1] == SHAPE_DIM and len(z["label"]) == len(z["contrast"]) > 50
        assert set(z["style"]) == {"graphite"}
        assert len(set(z["label"])) >= 4 and set(z["label"]) <= {"empty", "forest", "village", "farm", "water",
                                                                 "monster", "mountain", "wasteland"}
    out = tmp_path / "symbols.npz"
    cp = subprocess.run([sys.executable, "scripts/train_symbols.py", "--n", "40", "--cells", str(cells),
                         "--out", str(out)], cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=600)
    assert cp.returncode == 0, cp.stderr
    with np.load(out) as z:
        arrays = {k: z[k] for k in z.files}
    assert arrays["w0"].shape[0] == SHAPE_DIM and "other" in arrays["classes"].tolist()
    from scripts.train_symbols import dataset

    Xh, yh = dataset(15, 3_000_000)  # held-out render seeds
    pred = arrays["classes"][np.argmax(symbols.logits(arrays, Xh), axis=1)]
    assert (pred == yh).mean() > 0.6


def test_bench_taps_one_per_terrain_by_the_truth_majority():
    truth = [["empty"] * 11 for _ in range(11)]
    truth[0][:4] = ["forest", "forest", "forest", "water"]
    truth[1][:3] = ["water", "water", "mountain"]
    groups = [
        {"id": 1, "cells": [[0, 0], [0, 1], [0, 2], [0, 3]], "confidence": 0.4, "source": "symbol"},
        {"id": 2, "cells": [[1, 0], [1, 1]], "confidence": 0.5, "source": "symbol"},
        {"id": 3, "cells": [[2, 0]], "confidence": 0.3, "source": "symbol"},  # a smudge: "empty"
        {"id": 4, "cells": [[1, 2]], "confidence": 0.2, "source": "symbol"},  # printed only: nothing to name
        {"id": 5, "cells": [[0, 4]], "confidence": 0.9, "source": "symbol"},  # sure: not tapped
        {"id": 6, "cells": [[0, 5]], "confidence": 0.1, "source": "given"},
    ]
    tapped: set[str] = set()
    assert tap_names(truth, groups, tapped) == {1: "forest", 2: "water", 3: "empty"}
    assert tap_names(truth, [{"id": 7, "cells": [[0, 0]], "confidence": 0.2}], tapped) == {}  # forest named
    grid = [row[:] for row in truth]
    grid[0][0] = "village"
    assert right_cells(truth, grid) == 121 - 1 - 1  # the mountain is not counted, one cell wrong
    assert right_cells(truth, None) == 0
