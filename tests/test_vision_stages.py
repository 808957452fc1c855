"""Stages 2–6 and 8 on arrays: locate, rectify, light, classify, coins, quality gate, messages."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from bench.synthphoto import draw_sheet, random_grid, random_player, render_sheet
from companion.cartographers.data import MAPS
from vision import quality
from vision.classify import classify_cells, colour_groups, ink_strength, palette_examples, shape_descriptor
from vision.coins import read_coins
from vision.errors import PhotoError
from vision.geometry import CANON_PPT, canon_for
from vision.light import normalise_light
from vision.locate import detect_markers, locate_by_markers, side_from_markers
from vision.messages import MESSAGES
from vision.rectify import rectify


def _drawn_canon(seed: int, style: str, side: str = "A", coins: int = 5):
    """A filled-in sheet seen perfectly from above at the canonical scale (BGR), plus its truth."""
    rng = np.random.default_rng(seed)
    page = render_sheet(side, CANON_PPT, "T1")
    grid = random_grid(rng, side)
    player = random_player(rng, style)
    drawn = draw_sheet(page, CANON_PPT, side, grid, coins, player, rng)[..., ::-1]
    canon = canon_for(side)
    w, h = canon.size
    return np.ascontiguousarray(drawn[:h, :w]), grid, canon


@pytest.mark.parametrize("side", ["A", "B"])
def test_markers_give_side_and_an_exact_homography(side):
    page = render_sheet(side, 2.0, "T1")
    gray = cv2.cvtColor(page, cv2.COLOR_RGB2GRAY)
    found = detect_markers(gray)
    assert sorted(found) == list(range(4) if side == "A" else range(4, 8))
    assert side_from_markers(found) == side
    loc = locate_by_markers(gray)
    # page points → pixels is a pure scale by 2 px/pt (pixel centres at +0.5 are within a pixel)
    pts = np.array([[[100.0, 200.0], [500.0, 700.0]]])
    got = cv2.perspectiveTransform(pts, loc.homography)[0]
    assert np.allclose(got, pts[0] * 2.0, atol=1.5)


def test_rotated_photo_is_located_upright():
    page = render_sheet("B", 1.5, "T1")
    rotated = cv2.rotate(page, cv2.ROTATE_180)
    loc = locate_by_markers(cv2.cvtColor(rotated, cv2.COLOR_RGB2GRAY))
    canon = canon_for("B")
    back = rectify(rotated[..., ::-1].copy(), loc.homography, canon)
    w, h = canon.size
    diff = np.abs(back.astype(int) - page[:h, :w, ::-1].astype(int)).mean()
    assert loc.side == "B" and diff < 12


def test_one_marker_is_markers_cut_and_none_is_none():
    page = render_sheet("A", 1.5, "T1")
    gray = cv2.cvtColor(page, cv2.COLOR_RGB2GRAY)
    assert locate_by_markers(np.full_like(gray, 255)) is None
    h = gray.shape[0]
    cut = gray[: int(h * 0.25)].copy()  # only the top markers' row... and not even the bottom ones
    with pytest.raises(PhotoError) as exc:
        locate_by_markers(cut)
    assert exc.value.code == "grid_cut" and exc.value.edge == "bottom"


def test_light_normalisation_removes_a_gradient_and_a_colour_cast():
    img, _, canon = _drawn_canon(3, "marker")
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    light = 0.45 + 0.5 * xx / w  # strong left-to-right falloff
    cast = np.array([0.8, 1.0, 1.15], np.float32)  # warm lamp (BGR)
    lit = np.clip(img.astype(np.float32) * light[..., None] * cast, 0, 255).astype(np.uint8)
    norm = normalise_light(lit, canon, "A")
    x0, y0, x1, y1 = (int(v) for v in canon.grid_box())
    margin = norm[y1 + 5 : y1 + 12, x0:x1]  # blank paper below the grid
    assert np.allclose(np.median(margin.reshape(-1, 3), axis=0), 1.0, atol=0.06)
    left, right = margin[:, :20].mean(), margin[:, -20:].mean()
    assert abs(left - right) < 0.06


@pytest.mark.parametrize("style,seed", [("marker", 1), ("pencil", 2), ("graphite", 3), ("graphite", 4)])
def test_classify_a_straight_sheet_exactly(style, seed):
    img, grid, canon = _drawn_canon(seed, style)
    cls = classify_cells(normalise_light(img, canon, "A"), canon, "A")
    wrong = [(r, c) for r in range(11) for c in range(11) if cls.grid[r][c] != grid[r][c]]
    assert wrong == []
    assert cls.style == ("symbols" if style == "graphite" else "colour")
    assert cls.confidence.min() >= 0 and cls.confidence.max() <= 1


def test_printed_cells_come_from_the_side_with_full_confidence():
    img, grid, canon = _drawn_canon(5, "pencil", side="B")
    cls = classify_cells(normalise_light(img, canon, "B"), canon, "B")
    for r, c in MAPS["B"].wastelands:
        assert cls.grid[r][c] == "wasteland" and cls.confidence[r, c] == 1
    for r, c in MAPS["B"].mountains:
        assert cls.grid[r][c] == "mountain"


def test_empty_legend_falls_back_to_the_palette_with_a_warning():
    rng = np.random.default_rng(7)
    page = render_sheet("A", CANON_PPT, "T1")
    grid = random_grid(rng, "A")
    drawn = draw_sheet(page, CANON_PPT, "A", grid, 0, random_player(rng, "marker"), rng, legend=False)[..., ::-1]
    canon = canon_for("A")
    w, h = canon.size
    cls = classify_cells(normalise_light(np.ascontiguousarray(drawn[:h, :w]), canon, "A"), canon, "A")
    assert [n.code for n in cls.warnings] == ["legend_empty"]
    right = sum(cls.grid[r][c] == grid[r][c] for r in range(11) for c in range(11))
    assert right >= 115


@pytest.mark.parametrize("coins", [0, 1, 6, 14])
def test_coins_counted(coins):
    img, _, canon = _drawn_canon(11, "pencil", coins=coins)
    assert read_coins(ink_strength(normalise_light(img, canon, "A")), canon).count == coins


def test_palette_colours_of_different_terrains_are_distinguishable():
    ex = palette_examples()
    groups = colour_groups(ex)
    for i, a in enumerate(ex):
        for j, b in enumerate(ex):
            if a.terrain != b.terrain and a.terrain != "monster" and b.terrain != "monster":
                assert groups[i] != groups[j], (a.terrain, b.terrain)


def test_shape_descriptor_is_shift_tolerant():
    a = np.zeros((46, 46), np.float32)
    cv2.circle(a, (23, 23), 14, 1.0, 2)
    b = np.roll(a, 2, axis=1)
    c = np.zeros_like(a)
    cv2.line(c, (5, 10), (40, 10), 1.0, 2)
    cv2.line(c, (5, 30), (40, 30), 1.0, 2)
    da, db, dc = shape_descriptor(a), shape_descriptor(b), shape_descriptor(c)
    assert da @ db > da @ dc + 0.2


def test_blur_estimate_tracks_gaussian_sigma():
    img = np.full((200, 200), 255, np.uint8)
    img[50:150, 50:150] = 0
    box = [(30, 30, 170, 170)]
    sharp = quality.edge_blur(img, box)
    soft = quality.edge_blur(cv2.GaussianBlur(img, (0, 0), 4), box)
    assert sharp < 1.5 and 3 < soft < 5.5


def test_dark_photo_is_refused():
    with pytest.raises(PhotoError) as exc:
        quality.check_brightness(np.full((100, 100), 12, np.uint8))
    assert exc.value.code == "too_dark"


def test_every_error_code_has_english_and_turkish():
    for code, texts in MESSAGES.items():
        assert texts["en"] and texts["tr"] and texts["en"] != texts["tr"], code
        err = PhotoError(code)
        assert isinstance(err, ValueError) and err.code == code
        assert err.message("tr") == texts["tr"]
    with pytest.raises(KeyError):
        PhotoError("no_such_code")


def test_every_warning_renders_in_both_languages():
    from vision.messages import WARNINGS, Note

    params = {"side": "A", "hint": "B", "corner": "top_left", "terrains": ("forest", "water"), "qr": "B", "n": 3}
    for code, texts in WARNINGS.items():
        assert set(texts) == {"en", "tr"}
        note = Note.of(code, **{k: v for k, v in params.items() if "{" + k + "}" in texts["en"]})
        en, tr = note.text("en"), note.text("tr")
        assert en and tr and en != tr and "{" not in en + tr
    assert "sol üst" in Note.of("marker_hidden", corner="top_left").text("tr")
    assert "orman, su" in Note.of("legend_incomplete", terrains=("forest", "water")).text("tr")


def test_grid_fit_measures_a_shifted_and_a_bent_sheet():
    from vision.classify import ink_strength
    from vision.gridfit import cell_offsets, fit_grid

    img, _, canon = _drawn_canon(21, "marker")
    straight = fit_grid(ink_strength(normalise_light(img, canon, "A")), canon)
    assert straight.measured and np.abs(cell_offsets(straight)).max() <= 1.0

    moved = np.roll(img, (4, -3), axis=(0, 1))
    off = cell_offsets(fit_grid(ink_strength(normalise_light(moved, canon, "A")), canon))
    assert np.allclose(off[..., 0], -3, atol=1.0) and np.allclose(off[..., 1], 4, atol=1.0)

    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    bend = (8 * np.sin(np.pi * xx / w)).astype(np.float32)  # the middle of the sheet sags 8 px
    bent = cv2.remap(img, xx, yy - bend, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    off = cell_offsets(fit_grid(ink_strength(normalise_light(bent, canon, "A")), canon))
    middle, edge = off[5, 5, 1], off[5, 0, 1]
    assert middle > edge + 2 and 5 <= middle <= 10


def test_glare_washes_out_outlines_and_is_found():
    from vision.glare import glare_cells, glare_legend

    img, _, canon = _drawn_canon(12, "pencil")
    x, y, s = canon.cell_box(4, 6)
    washed = img.copy()
    washed[int(y - s) : int(y + 2 * s), int(x - s) : int(x + 2 * s)] = 255  # a saturated highlight over 3×3 cells
    lx, ly, ls = canon.legend_boxes()["water"]
    washed[int(ly - 5) : int(ly + ls + 5), int(lx - 5) : int(lx + ls + 5)] = 255
    boxes = {(r, c): canon.cell_box(r, c) for r in range(11) for c in range(11)}
    ink_clean = ink_strength(normalise_light(img, canon, "A"))
    ink_glare = ink_strength(normalise_light(washed, canon, "A"))
    assert glare_cells(ink_clean, boxes) == set()
    assert glare_legend(ink_clean, canon.legend_boxes()) == set()
    assert (4, 6) in glare_cells(ink_glare, boxes) and glare_cells(ink_glare, boxes) <= {
        (r, c) for r in range(2, 7) for c in range(4, 9)}
    assert glare_legend(ink_glare, canon.legend_boxes()) == {"water"}
