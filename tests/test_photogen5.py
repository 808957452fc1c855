"""photogen5: the synthetic phone-photo generator keeps its interface, its truth schema and its geometry honest."""

from __future__ import annotations

import json
import threading
from functools import cache

import cv2
import numpy as np
import pytest

from bench import photogen5 as pg
from bench.photogen5.__main__ import main
from companion.cartographers.data import MAPS

WORDS = {"empty", "forest", "village", "farm", "water", "monster", "mountain", "wasteland"}
needs_scans = pytest.mark.skipif(not pg.sheets.scans_available(),
                                 reason=f"pad scans not available: set {pg.sheets.SCAN_ENV} to the scans' folder")

@cache
def photo(kind: str, style: str, difficulty: str, seed: int) -> pg.Photo:
    """One photo, made once for the tests that look at it."""
    return pg.generate(kind, style, difficulty, seed)


def check_truth(t: dict, kind: str, img: np.ndarray) -> None:
    json.dumps(t)
    assert t["generator"] == "photogen5" and t["kind"] == kind
    assert t["side"] in ("A", "B")
    grid = t["grid"]
    assert len(grid) == 11 and all(len(row) == 11 for row in grid)
    side = MAPS[t["side"]]
    for r in range(11):
        for c in range(11):
            w = grid[r][c]
            assert w in WORDS
            assert (w == "mountain") == ((r, c) in side.mountains)
            assert (w == "wasteland") == ((r, c) in side.wastelands)
    filled = sum(w not in ("empty", "mountain", "wasteland") for row in grid for w in row)
    free = 121 - len(side.mountains) - len(side.wastelands)
    assert 0.35 <= filled / free <= 0.97
    if kind in ("ours", "ours-clipped", "pad", "padscan"):
        assert isinstance(t["coins"], int) and 0 <= t["coins"] <= 14
    else:
        assert t["coins"] is None
    assert isinstance(t["legend_filled"], bool)
    if kind not in ("ours", "ours-clipped"):
        assert t["legend_filled"] is False
    mc = t["markers_clipped"]
    if kind == "ours-clipped":
        assert 1 <= len(mc) <= 2 and set(mc) <= {"tl", "tr", "br", "bl"}
    else:
        assert mc == []
    H, W = img.shape[:2]
    assert 7.5e6 <= W * H <= 12.6e6
    g = t["params"]["geometry"]
    assert np.array(g["grid_corners_px"]).shape == (4, 2)
    assert np.array(g["page_corners_px"]).shape == (4, 2)
    cc = np.array(g["cell_centers_px"])
    lat = np.array(g["lattice_px"])
    assert cc.shape == (11, 11, 2) and lat.shape == (12, 12, 2)
    assert np.allclose(cc, (lat[:-1, :-1] + lat[:-1, 1:] + lat[1:, 1:] + lat[1:, :-1]) / 4, atol=0.01)
    assert (cc[..., 0] >= 0).all() and (cc[..., 0] <= W - 1).all()
    assert (cc[..., 1] >= 0).all() and (cc[..., 1] <= H - 1).all()
    assert g["mean_cell_px"] > 20
    assert "photo" in t["params"] and "sheet" in t["params"]


def test_interface_constants():
    assert pg.KINDS == ("ours", "ours-clipped", "generic", "handruled", "squared", "pad", "padscan")
    assert pg.STYLES == ("pencil", "marker", "crayon", "felttip", "watercolour", "ballpoint", "graphite", "letters",
                         "mixed")
    assert pg.DIFFICULTIES == ("normal", "hard")
    assert pg.GENERATOR == "photogen5" and pg.HELDOUT_START == 1_000_000 and range(0, 100_000) == pg.DEV_SEEDS
    assert issubclass(pg.ScansMissing, FileNotFoundError)


def test_deterministic_and_seed_dependent():
    a = pg.generate("generic", "pencil", "normal", 7)
    b = pg.generate("generic", "pencil", "normal", 7)
    assert a.jpeg == b.jpeg and a.truth == b.truth
    c = photo("generic", "pencil", "normal", 8)
    assert c.jpeg != a.jpeg


@pytest.mark.parametrize("kind,style,difficulty,seed", [
    ("ours", "marker", "normal", 1), ("ours-clipped", "ballpoint", "hard", 2), ("generic", "letters", "hard", 3),
    ("handruled", "graphite", "normal", 4), ("squared", "watercolour", "hard", 5), ("pad", "crayon", "normal", 6),
    pytest.param("padscan", "mixed", "hard", 7, marks=needs_scans), ("ours", "felttip", "hard", 8),
    ("ours-clipped", "pencil", "normal", 9),
])
def test_every_kind_valid_truth(kind, style, difficulty, seed):
    p = photo(kind, style, difficulty, seed)
    check_truth(p.truth, kind, pg.decode(p.jpeg))
    assert p.truth["style"] == style and p.truth["difficulty"] == difficulty and p.truth["seed"] == seed


def test_scans_missing(monkeypatch, tmp_path):
    monkeypatch.setenv(pg.sheets.SCAN_ENV, str(tmp_path / "nowhere"))
    assert not pg.sheets.scans_available()
    with pytest.raises(pg.ScansMissing, match=pg.sheets.SCAN_ENV):
        pg.generate("padscan", "pencil", "normal", 1)
    monkeypatch.delenv(pg.sheets.SCAN_ENV, raising=False)
    with pytest.raises(FileNotFoundError, match=pg.sheets.SCAN_ENV):
        pg.generate("padscan", "pencil", "normal", 1)


@pytest.mark.parametrize("args", [("nope", "pencil", "normal", 1), ("ours", "oil", "normal", 1),
                                  ("ours", "pencil", "easy", 1)])
def test_bad_arguments(args):
    with pytest.raises(ValueError):
        pg.generate(*args)


def test_cli_writes_jpg_and_json(tmp_path):
    out = tmp_path / "p.jpg"
    assert main(["squared", "letters", "normal", "11", str(out)]) == 0
    truth = json.loads(out.with_suffix(".json").read_text())
    assert truth["kind"] == "squared" and truth["seed"] == 11
    assert pg.decode(out.read_bytes()).shape[0] > 1000


def _contrast(grey: np.ndarray, lat: np.ndarray, grid: list[list[str]], shift: float) -> float:
    """Mean darkness on the edges of empty cells minus the darkness midway between the lines."""
    lat = lat.copy()
    vx = (lat[:, 1:] - lat[:, :-1]).mean((0, 1))
    vy = (lat[1:, :] - lat[:-1, :]).mean((0, 1))
    lat += (vx + vy) * shift
    on, mid = [], []
    t = np.linspace(0.2, 0.8, 13)[:, None]
    for r in range(11):
        for c in range(11):
            if grid[r][c] != "empty":
                continue
            a, b, d = lat[r, c], lat[r, c + 1], lat[r + 1, c]
            top = a + (b - a) * t
            left = a + (d - a) * t
            on += [top, left]
            mid += [top + (d - a) / 2, left + (b - a) / 2]
    on_p, mid_p = np.vstack(on).astype(np.float32), np.vstack(mid).astype(np.float32)

    def sample(p):
        return cv2.remap(grey, p[:, 0:1], p[:, 1:2], cv2.INTER_LINEAR).ravel()

    return float(np.mean(255 - sample(on_p)) - np.mean(255 - sample(mid_p)))


@pytest.mark.parametrize("kind,style,seed", [("ours", "marker", 1), ("handruled", "graphite", 4),
                                             ("pad", "crayon", 6), ("generic", "letters", 12)])
def test_geometry_matches_picture(kind, style, seed):
    p = photo(kind, style, "normal", seed)
    grey = cv2.cvtColor(pg.decode(p.jpeg), cv2.COLOR_BGR2GRAY).astype(np.float32)
    lat = np.array(p.truth["params"]["geometry"]["lattice_px"])
    assert sum(w == "empty" for row in p.truth["grid"] for w in row) >= 4
    good = _contrast(grey, lat, p.truth["grid"], 0.0)
    off = _contrast(grey, lat, p.truth["grid"], 1 / 3)
    assert good > 6, good
    assert abs(off) < good / 2, (good, off)


def test_threads_match_single_thread():
    args = [("ours", "pencil", "normal", 21), ("ours", "mixed", "hard", 22)]
    alone = [pg.generate(*a).jpeg for a in args]
    got: dict[int, bytes] = {}

    def run(i):
        got[i] = pg.generate(*args[i]).jpeg

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert got[0] == alone[0] and got[1] == alone[1]
