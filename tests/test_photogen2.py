"""photogen2, the second synthetic photo generator: determinism, truth geometry, every kind and style renders."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from bench import bench_vision2
from bench.photogen2 import KINDS, STYLES, camera, cli, generate, sheets
from companion.cartographers.terrain import Terrain

WORDS = {t.value for t in Terrain}
_CACHE: dict = {}


def photo(kind, style="pencil", difficulty="normal", seed=1):
    key = (kind, style, difficulty, seed)
    if key not in _CACHE:
        _CACHE[key] = generate(kind, style, difficulty, seed, small=True)
    return _CACHE[key]


def decode(p):
    return cv2.imdecode(np.frombuffer(p.jpeg, np.uint8), cv2.IMREAD_COLOR)


def test_same_seed_same_photo_and_other_seed_differs():
    a = photo("generic", "marker", "hard", 7)
    b = generate("generic", "marker", "hard", 7, small=True)
    assert a.jpeg == b.jpeg and a.truth == b.truth
    c = photo("generic", "marker", "hard", 8)
    assert c.jpeg != a.jpeg


@pytest.mark.parametrize("kind", [k for k in KINDS if k != "padscan"])
def test_every_kind_renders_with_consistent_geometry(kind):
    p = photo(kind, seed=3)
    t = p.truth
    img = decode(p)
    w, h = t["params"]["photo"]["size"]
    assert img.shape[:2] == (h, w) and max(w, h) == 640
    assert len(t["grid"]) == 11 and all(len(r) == 11 and set(r) <= WORDS for r in t["grid"])
    g = t["params"]["geometry"]
    cc = np.array(g["cell_centers_px"])
    assert cc.shape == (11, 11, 2)
    corners = np.array(g["grid_corners_px"], np.float32)
    for x, y in cc.reshape(-1, 2):
        assert cv2.pointPolygonTest(corners, (float(x), float(y)), False) > 0
    # the whole grid is in the photo, and cells are about as big as the corners say
    assert (corners[:, 0] >= 0).all() and (corners[:, 0] < w).all()
    assert (corners[:, 1] >= 0).all() and (corners[:, 1] < h).all()
    side = np.linalg.norm(corners[1] - corners[0]) / 11
    assert 0.6 < g["mean_cell_px"] / side < 1.5
    assert t["rotation_deg"] in (0, 90, 180, 270)
    assert t["kind"] == kind and t["difficulty"] == "normal" and t["seed"] == 3
    fixed = [(r, c) for r in range(11) for c in range(11) if t["grid"][r][c] == "mountain"]
    assert len(fixed) == 5
    if kind.startswith("ours"):
        assert t["template"] == f"{t['side']}.png" and len(g["legend_centers_px"]) == 5
        assert 0 <= t["coins"] <= 14
    if kind == "ours-clipped":
        assert 1 <= len(t["markers_clipped"]) <= 2
    else:
        assert t["markers_clipped"] == []


@pytest.mark.parametrize("style", STYLES)
def test_every_style_draws_something(style):
    p = photo("squared", style, seed=5)
    t = p.truth
    assert t["style"] == style
    # the drawn map differs from the paper: cells with terrain are darker or more colourful than empty ones
    img = decode(p).astype(np.float32)
    cc = np.array(t["params"]["geometry"]["cell_centers_px"])
    r = max(2, int(t["params"]["geometry"]["mean_cell_px"] * 0.3))

    def ink(x, y):
        patch = img[int(y) - r:int(y) + r, int(x) - r:int(x) + r].reshape(-1, 3)
        return float(patch.std(0).mean() + (255 - patch.mean()))

    drawn = [ink(*cc[i, j]) for i in range(11) for j in range(11) if t["grid"][i][j] not in ("empty",)]
    empty = [ink(*cc[i, j]) for i in range(11) for j in range(11) if t["grid"][i][j] == "empty"]
    if empty:
        assert np.median(drawn) > np.median(empty)


def test_camera_forward_and_backward_agree():
    rng = np.random.default_rng(0)
    p = camera.sample_params(rng, "hard", "ours", small=True)
    p["curl_kind"], p["curl_amp"] = "corner", 0.05
    cam = camera.Camera(p, (1000, 1414))
    pts = rng.uniform([50, 50], [950, 1350], (200, 2))
    img = cam.project(pts)
    back, _ = cam.backward(img[:, 0], img[:, 1])
    assert np.abs(back - pts).max() < 0.05


def test_padscan_needs_the_scans(monkeypatch, tmp_path):
    monkeypatch.setenv("MAPSMITH_PAD_SCANS", str(tmp_path))
    from bench.photogen2 import ScansMissing
    with pytest.raises(ScansMissing):
        generate("padscan", "pencil", "normal", 0, small=True)


@pytest.mark.skipif(not sheets.scans_available(), reason="pad scans not present (MAPSMITH_PAD_SCANS)")
def test_padscan_renders_when_the_scans_are_present():
    t = photo("padscan", "crayon", seed=2).truth
    assert t["template"].startswith("padscan-") and len(t["params"]["geometry"]["coin_centers_px"]) == 14


def test_plan_is_a_balanced_mix():
    items = cli.plan("all", "all", "normal", 2 * len(KINDS) * len(STYLES), 10)
    kinds = [k for k, *_ in items]
    assert len(set(kinds)) >= len(KINDS) - 1
    assert len({s for _, s, _, _ in items}) == len(STYLES)
    assert [seed for *_, seed in items] == list(range(10, 10 + len(items)))


def test_bench_scoring_rules():
    t = photo("generic", seed=4).truth
    grid = [row[:] for row in t["grid"]]
    conf = [[0.9] * 11 for _ in range(11)]
    out = {"grid": grid, "confidence": conf, "cell_centers_px": t["params"]["geometry"]["cell_centers_px"]}
    rec = bench_vision2.score(t, out, 0, "", 1.0)
    assert rec["found"] and rec["ok"] == rec["drawable"] and rec["orientation_right"]
    assert max(rec["fit_cells"]) < 1e-6
    # a reading that is the truth turned upside down is a wrong orientation
    turned = np.rot90(np.array(grid, dtype=object), 2).tolist()
    assert not bench_vision2.score(t, {"grid": turned, "confidence": conf}, 0, "", 1.0)["orientation_right"]
    # wrong but unsure cells: right after review (not silent)
    r, c = next((r, c) for r in range(11) for c in range(11) if grid[r][c] not in ("mountain", "wasteland"))
    bad = [row[:] for row in grid]
    bad[r][c] = "monster" if grid[r][c] != "monster" else "forest"
    low = [row[:] for row in conf]
    low[r][c] = 0.3
    rec = bench_vision2.score(t, {"grid": bad, "confidence": low}, 0, "", 1.0)
    assert rec["silent"] == 0 and rec["flagged"] == 1
    s = bench_vision2.summarise([rec])
    assert s["review"] == 1 and s["exact"] == 0
    # a refusal with a JSON error is not a crash; a traceback is
    assert not bench_vision2.score(t, {"error": "no", "code": "no_sheet"}, 2, "", 1.0)["crash"]
    assert bench_vision2.score(t, None, 1, "Traceback (most recent call last):", 1.0)["crash"]
