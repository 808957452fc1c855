"""bench.photogen3: deterministic synthetic phone photos whose truth matches what they show."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from bench.photogen3 import DEV_SEEDS, DIFFICULTIES, HELDOUT_START, KINDS, STYLES, generate, sheets
from bench.photogen3.__main__ import main as cli_main
from bench.photogen3.__main__ import plan
from companion.cartographers.data import MAPS

TERRAIN_WORDS = {"empty", "forest", "village", "farm", "water", "monster", "mountain", "wasteland"}
TRUTH_KEYS = {"grid", "side", "style", "kind", "difficulty", "seed", "generator", "template", "legend_filled",
              "coins", "markers_clipped", "params"}
UNCLIPPED = [k for k in KINDS if k != "ours-clipped"]


def _kinds():
    return [k for k in KINDS if k != "padscan" or sheets.scans_available()]


def _decode(photo):
    img = cv2.imdecode(np.frombuffer(photo.jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert img is not None
    return img


def _check_truth(photo, kind, style, difficulty, seed):
    t = photo.truth
    assert set(t) == TRUTH_KEYS
    json.dumps(t)  # plain JSON all the way down
    assert (t["kind"], t["style"], t["difficulty"], t["seed"], t["generator"]) == (kind, style, difficulty, seed,
                                                                                  "photogen3")
    assert t["side"] in ("A", "B")
    grid = t["grid"]
    assert len(grid) == 11 and all(len(row) == 11 for row in grid)
    assert {w for row in grid for w in row} <= TERRAIN_WORDS
    side = MAPS[t["side"]]
    printed = {tuple(rc): "mountain" for rc in side.mountains} | {tuple(rc): "wasteland" for rc in side.wastelands}
    for r in range(11):
        for c in range(11):
            assert (grid[r][c] in ("mountain", "wasteland")) == ((r, c) in printed), (r, c)
            if (r, c) in printed:
                assert grid[r][c] == printed[(r, c)]
    drawn = sum(w in ("forest", "village", "farm", "water", "monster") for row in grid for w in row)
    free = 121 - len(printed)
    assert 0.1 * free <= drawn <= free
    g = t["params"]["geometry"]
    centres = np.array(g["cell_centers_px"])
    assert centres.shape == (11, 11, 2)
    assert np.array(g["grid_corners_px"]).shape == (4, 2) and np.array(g["page_corners_px"]).shape == (4, 2)
    img = _decode(photo)
    h, w = img.shape[:2]
    assert (w, h) == (t["params"]["photo"]["width"], t["params"]["photo"]["height"])
    # every cell centre is in the photo (the grid is always fully in the frame, clipped kinds too)
    assert (centres[..., 0] >= 0).all() and (centres[..., 0] <= w - 1).all()
    assert (centres[..., 1] >= 0).all() and (centres[..., 1] <= h - 1).all()
    # neighbours are about one mean cell apart, and the grid's corners lie beyond the corner cells
    dx = np.linalg.norm(centres[:, 1:] - centres[:, :-1], axis=-1)
    dy = np.linalg.norm(centres[1:] - centres[:-1], axis=-1)
    m = g["mean_cell_px"]
    assert abs((dx.sum() + dy.sum()) / (dx.size + dy.size) - m) < 1e-2 * m
    assert 0.5 * m < dx.min() and dx.max() < 1.8 * m and 0.5 * m < dy.min() and dy.max() < 1.8 * m
    corners = np.array(g["grid_corners_px"])
    for corner, (r, c) in zip(corners, ((0, 0), (0, 10), (10, 10), (10, 0)), strict=True):
        assert 0.4 * m < np.linalg.norm(corner - centres[r, c]) < 1.2 * m
    # row 0 is the top printed row: walking down the rows moves the same way as from the top to the bottom corners
    down = centres[10, 5] - centres[0, 5]
    assert np.dot(down, corners[3] - corners[0]) > 0
    if kind in ("ours", "ours-clipped"):
        assert isinstance(t["legend_filled"], bool)
        assert isinstance(t["coins"], int) and 0 <= t["coins"] <= 14
    else:
        assert t["legend_filled"] is False
    if kind in ("handruled", "squared"):
        assert t["coins"] is None
    if kind == "ours-clipped":
        assert 1 <= len(t["markers_clipped"]) <= 2
        assert set(t["markers_clipped"]) <= {"top_left", "top_right", "bottom_right", "bottom_left"}
    else:
        assert t["markers_clipped"] == []
    assert t["params"]["photo"] and t["params"]["sheet"]


def test_constants():
    assert KINDS == ("ours", "ours-clipped", "generic", "handruled", "squared", "pad", "padscan")
    assert STYLES == ("pencil", "marker", "crayon", "felttip", "watercolour", "ballpoint", "graphite", "letters",
                      "mixed")
    assert DIFFICULTIES == ("normal", "hard")
    assert (DEV_SEEDS.start, DEV_SEEDS.stop, HELDOUT_START) == (0, 100_000, 1_000_000)


def test_deterministic():
    a = generate("handruled", "watercolour", "hard", 123, small=True)
    b = generate("handruled", "watercolour", "hard", 123, small=True)
    assert a.jpeg == b.jpeg
    assert a.truth == b.truth
    c = generate("handruled", "watercolour", "hard", 124, small=True)
    assert c.jpeg != a.jpeg


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind(kind):
    if kind == "padscan" and not sheets.scans_available():
        pytest.skip("pad scans not present")
    for i, difficulty in enumerate(DIFFICULTIES):
        style = STYLES[(KINDS.index(kind) * 2 + i) % len(STYLES)]
        seed = 1000 + 17 * KINDS.index(kind) + i
        photo = generate(kind, style, difficulty, seed, small=True)
        _check_truth(photo, kind, style, difficulty, seed)
        assert max(_decode(photo).shape[:2]) == 640


@pytest.mark.parametrize("style", STYLES)
def test_every_style(style):
    kinds = [k for k in _kinds() if k != "ours-clipped"]
    kind = kinds[STYLES.index(style) % len(kinds)]
    seed = 2000 + STYLES.index(style)
    photo = generate(kind, style, "normal", seed, small=True)
    _check_truth(photo, kind, style, "normal", seed)
    assert photo.truth["params"]["sheet"]["player"]["style"] == style


def test_ours_clipped_cuts_markers_but_keeps_grid():
    for seed in range(3):
        photo = generate("ours-clipped", "marker", "normal", seed, small=True)
        _check_truth(photo, "ours-clipped", "marker", "normal", seed)
        fr = photo.truth["params"]["sheet"]["markers_outside_fraction"]
        assert all(fr[c] >= 0.2 for c in photo.truth["markers_clipped"])


def test_full_size_photo():
    photo = generate("ours", "pencil", "normal", 7)
    img = _decode(photo)
    assert 1600 <= max(img.shape[:2]) <= 4032
    _check_truth(photo, "ours", "pencil", "normal", 7)
    small = generate("ours", "pencil", "normal", 7, small=True)  # the same scene, only smaller
    assert small.truth["grid"] == photo.truth["grid"]
    k = 640 / max(img.shape[:2])
    big_c = np.array(photo.truth["params"]["geometry"]["cell_centers_px"])
    small_c = np.array(small.truth["params"]["geometry"]["cell_centers_px"])
    assert np.abs((big_c + 0.5) * k - 0.5 - small_c).max() < 1.0


def test_printed_mountains_are_where_the_truth_says():
    """On Mapsmith's sheet the mountain icons are dark: the projected centres of mountain cells must be darker
    than those of printed-blank cells left empty by the player."""
    for seed in (11, 12, 13):
        photo = generate("ours", "ballpoint", "normal", seed, small=True)
        gray = cv2.cvtColor(_decode(photo), cv2.COLOR_BGR2GRAY).astype(float)
        t = photo.truth
        centres = np.array(t["params"]["geometry"]["cell_centers_px"])
        ruins = {tuple(rc) for rc in MAPS[t["side"]].ruins}

        def at(r, c, centres=centres, gray=gray):
            x, y = centres[r, c]
            return float(gray[int(round(y)), int(round(x))])

        mountains = [at(r, c) for r in range(11) for c in range(11) if t["grid"][r][c] == "mountain"]
        empty = [at(r, c) for r in range(11) for c in range(11)
                 if t["grid"][r][c] == "empty" and (r, c) not in ruins]
        assert np.median(mountains) < np.median(empty) - 40


def test_rendering_inverts_the_truth_projection():
    """The photo is rendered by inverting, pixel by pixel, the same camera that projects the truth."""
    from bench.photogen3 import photo as ph
    from bench.photogen3 import sheets as sh
    from bench.photogen3.rand import Streams

    st = Streams("ours", "pencil", "hard", 5)
    design = sh.design("ours", "A", st.get("sheet"))
    for k in range(4):
        cam, _ = ph.plan_camera(np.random.default_rng(k), design, "hard", False)
        pts = design.cell_centres().reshape(-1, 2)
        uv = cam.forward_sheet(pts)
        back = cam.sheet_hit(cam.rays(uv))
        assert np.abs(back - pts).max() < 0.02  # millimetres


def test_padscan_needs_the_scans(monkeypatch, tmp_path):
    monkeypatch.setenv("MAPSMITH_PAD_SCANS", str(tmp_path))
    assert not sheets.scans_available()
    with pytest.raises(FileNotFoundError, match="pad scans"):
        generate("padscan", "pencil", "normal", 1, small=True)


def test_cli_round_robin(tmp_path, capsys):
    p = plan(["a", "b", "c", "d", "e", "f", "g"], list(STYLES), list(DIFFICULTIES), 126, 0)
    assert len({(k, s, d) for k, s, d, _ in p}) == 126
    assert cli_main([str(tmp_path), "--n", "3", "--small", "--difficulty", "all"]) == 0
    for i in range(3):
        truth = json.loads((tmp_path / f"{i:04d}.json").read_text())
        assert truth["seed"] == i
        assert (tmp_path / f"{i:04d}.jpg").stat().st_size > 10_000
