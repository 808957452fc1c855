"""photogen4: determinism, truth contents, and that the truth geometry agrees with the picture."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from bench.photogen4 import DIFFICULTIES, GENERATOR, KINDS, STYLES, Photo, ScansMissing, decode, generate
from companion.cartographers.data import MAPS

WORDS = {"empty", "forest", "village", "farm", "water", "monster", "mountain", "wasteland"}


def _scans_or_skip():
    try:
        from bench.photogen4.sheets import scan_dir
        scan_dir()
    except ScansMissing as e:
        pytest.skip(f"pad scans absent: {e}")


def _check_truth(p: Photo, kind: str, style: str, difficulty: str, seed: int) -> None:
    t = p.truth
    json.dumps(t)
    assert t["generator"] == GENERATOR and t["kind"] == kind and t["style"] == style
    assert t["difficulty"] == difficulty and t["seed"] == seed and t["side"] in ("A", "B")
    g = t["grid"]
    assert len(g) == 11 and all(len(row) == 11 for row in g)
    assert all(w in WORDS for row in g for w in row)
    side = MAPS[t["side"]]
    printed = {**{rc: "mountain" for rc in side.mountains}, **{rc: "wasteland" for rc in side.wastelands}}
    for r in range(11):
        for c in range(11):
            if (r, c) in printed:
                assert g[r][c] == printed[(r, c)]
            else:
                assert g[r][c] not in ("mountain", "wasteland")
    assert t["coins"] is None or (isinstance(t["coins"], int) and 0 <= t["coins"] <= 14)
    assert isinstance(t["legend_filled"], bool)
    if kind not in ("ours", "ours-clipped"):
        assert t["legend_filled"] is False
    geo = t["params"]["geometry"]
    img = decode(p.jpeg)
    h, w = img.shape[:2]
    assert 7.5e6 <= h * w <= 12.6e6
    cc = np.array(geo["cell_centers_px"])
    assert cc.shape == (11, 11, 2)
    assert (cc[..., 0] > 0).all() and (cc[..., 0] < w).all() and (cc[..., 1] > 0).all() and (cc[..., 1] < h).all()
    gc = np.array(geo["grid_corners_px"])
    assert gc.shape == (4, 2) and (gc >= 0).all() and (gc[:, 0] < w).all() and (gc[:, 1] < h).all()
    assert np.array(geo["page_corners_px"]).shape == (4, 2)
    assert geo["mean_cell_px"] > 20
    if kind == "ours-clipped":
        assert 1 <= len(t["markers_clipped"]) <= 2
        assert set(t["markers_clipped"]) <= {"tl", "tr", "br", "bl"}
    else:
        assert t["markers_clipped"] == []


def test_deterministic():
    a = generate("generic", "pencil", "normal", 11)
    b = generate("generic", "pencil", "normal", 11)
    assert a.jpeg == b.jpeg and a.truth == b.truth
    c = generate("generic", "pencil", "normal", 12)
    assert c.jpeg != a.jpeg


@pytest.mark.parametrize("kind,style,difficulty,seed", [
    ("ours", "marker", "normal", 1), ("ours-clipped", "watercolour", "hard", 2), ("generic", "graphite", "hard", 3),
    ("handruled", "letters", "normal", 4), ("squared", "crayon", "normal", 5), ("pad", "ballpoint", "hard", 6),
    ("padscan", "mixed", "normal", 7), ("ours", "felttip", "hard", 8),
])
def test_kinds_generate_valid_truth(kind, style, difficulty, seed):
    if kind == "padscan":
        _scans_or_skip()
    p = generate(kind, style, difficulty, seed)
    _check_truth(p, kind, style, difficulty, seed)


def test_padscan_missing_raises(monkeypatch):
    monkeypatch.setenv("MAPSMITH_PAD_SCANS", "/nonexistent/folder")
    with pytest.raises(ScansMissing):
        generate("padscan", "pencil", "normal", 1)
    assert issubclass(ScansMissing, FileNotFoundError)


def test_bad_arguments():
    with pytest.raises(ValueError):
        generate("nope", "pencil", "normal", 1)
    assert set(STYLES) >= {"pencil", "mixed"} and DIFFICULTIES == ("normal", "hard") and len(KINDS) == 7


def _line_contrast(p: Photo) -> float:
    """Mean darkness on the truth lattice lines minus darkness midway between them (cell interiors)."""
    # a 3x3 minimum: thin light lines blurred by the optics still show as the darkest pixel near the line
    img = cv2.erode(cv2.cvtColor(decode(p.jpeg), cv2.COLOR_BGR2GRAY), np.ones((3, 3), np.uint8)).astype(np.float32)
    lat = np.array(p.truth["params"]["geometry"]["lattice_px"])
    on, off = [], []
    t = np.linspace(0.1, 0.9, 9)
    for r in range(11):
        for c in range(11):
            if p.truth["grid"][r][c] != "empty":
                continue
            tl, tr, br, bl = lat[r, c], lat[r, c + 1], lat[r + 1, c + 1], lat[r + 1, c]
            for u in t:  # points on the cell's top and left edges, and on the middle lines
                on += [tl + (tr - tl) * u, tl + (bl - tl) * u]
                ml, mr = (tl + bl) / 2, (tr + br) / 2
                mt, mb = (tl + tr) / 2, (bl + br) / 2
                off += [ml + (mr - ml) * u, mt + (mb - mt) * u]
    assert on, "no empty cell to measure"
    on = np.array(on)
    off = np.array(off)

    def sample(pts):
        x = np.clip(np.round(pts[:, 0]).astype(int), 0, img.shape[1] - 1)
        y = np.clip(np.round(pts[:, 1]).astype(int), 0, img.shape[0] - 1)
        return img[y, x]

    return float(np.mean(sample(off)) - np.mean(sample(on)))


def test_truth_lines_are_on_the_printed_lines():
    """On generic and ours sheets the (dark) grid lines lie on the truth lattice; shifted by half a cell they do not."""
    for kind, seed in (("generic", 21), ("ours", 22), ("squared", 23)):
        p = generate(kind, "graphite", "normal", seed)
        c = _line_contrast(p)
        assert c > 4.0, (kind, c)
        # the same test with the lattice shifted by a third of a cell must lose the contrast
        q = Photo(p.jpeg, json.loads(json.dumps(p.truth)))
        lat = np.array(q.truth["params"]["geometry"]["lattice_px"])
        cell = q.truth["params"]["geometry"]["mean_cell_px"]
        q.truth["params"]["geometry"]["lattice_px"] = (lat + cell / 3).tolist()
        assert _line_contrast(q) < c * 0.6, (kind, c, _line_contrast(q))


def test_centres_match_lattice_and_cli(tmp_path):
    from bench.photogen4.__main__ import main

    out = tmp_path / "x.jpg"
    assert main(["handruled", "pencil", "hard", "5", str(out)]) == 0
    t = json.loads(out.with_suffix(".json").read_text())
    assert out.read_bytes()[:2] == b"\xff\xd8"
    lat = np.array(t["params"]["geometry"]["lattice_px"])
    cc = np.array(t["params"]["geometry"]["cell_centers_px"])
    mean4 = (lat[:-1, :-1] + lat[:-1, 1:] + lat[1:, 1:] + lat[1:, :-1]) / 4
    assert np.abs(cc - mean4).max() < 0.05 * t["params"]["geometry"]["mean_cell_px"]
    assert np.allclose(t["params"]["geometry"]["grid_corners_px"][0], lat[0, 0], atol=0.01)


def test_two_threads_make_our_sheet_at_once():
    """bench_vision2 --jobs 2 makes photos on two threads; pdfium (our sheet's rasteriser) crashed when two renders
    ran at once, so they take turns. Both photos must come out as one thread alone would make them."""
    from concurrent.futures import ThreadPoolExecutor

    args = [("ours", "pencil", "normal", 11), ("ours-clipped", "marker", "normal", 12)]
    with ThreadPoolExecutor(2) as pool:
        together = list(pool.map(lambda a: generate(*a).jpeg, args))
    assert together == [generate(*a).jpeg for a in args]
