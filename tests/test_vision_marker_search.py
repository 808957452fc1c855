"""The marker search on arrays: a fine lattice never reaches ArUco at full size; small markers are still found.

ArUco's time grows with the square of its candidates (fuzz case 9207: a lattice of ~10 px squares took 4–5
minutes). Nothing here is timed: the tests assert where the search runs and how many candidates it meets.
"""

from __future__ import annotations

import cv2
import numpy as np

from bench.bench_fuzz import SEED, fuzz_case
from bench.synthphoto import PhotoSpec, make_photo, render_sheet
from vision.load import load_photo
from vision.locate import (
    MAX_MARKER_CANDIDATES,
    MIN_MARKER_PERIMETER_PX,
    detect_markers,
    detect_raw,
    make_detector,
    marker_candidates,
    min_perimeter_px,
    plan_marker_search,
)


def _lattice(h: int, w: int, period: int, line: int = 1) -> np.ndarray:
    img = np.full((h, w), 235, np.uint8)
    for k in range(line):
        img[k::period] = 10
        img[:, k::period] = 10
    return img


def test_candidates_are_counted_like_the_detectors_squares():
    img = _lattice(600, 600, 40)  # 15 × 15 squares, perimeter ~150 px
    assert 190 <= marker_candidates(img, MIN_MARKER_PERIMETER_PX) <= 230
    assert marker_candidates(img, 400) == 0  # the perimeter floor removes them all
    assert marker_candidates(np.full((300, 300), 200, np.uint8)) == 0


def test_the_perimeter_floor_is_the_detectors_rate_but_never_below_four_pixels_a_side():
    assert min_perimeter_px((500, 400), 0.015) == MIN_MARKER_PERIMETER_PX
    assert min_perimeter_px((4000, 3000), 0.015) == 60.0


def test_fuzz_case_9207_is_searched_on_a_shrunk_image_with_few_candidates():
    data, _side, kind = fuzz_case(SEED, 9207)
    gray = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
    assert kind == "garbage" and gray.shape == (1261, 1142)
    assert marker_candidates(gray, min_perimeter_px(gray.shape, 0.015)) > 20 * MAX_MARKER_CANDIDATES
    plan = plan_marker_search(gray)
    assert plan.scale >= 2 and plan.candidates <= MAX_MARKER_CANDIDATES


def test_lattices_of_every_period_give_the_detector_at_most_the_cap():
    for period in (6, 8, 12, 16, 20, 30, 40, 60):
        for line in (1, 3):
            plan = plan_marker_search(_lattice(1142, 1261, period, line))
            assert plan.scale == 0 or plan.candidates <= MAX_MARKER_CANDIDATES, (period, line, plan)


def test_the_detector_is_called_on_the_shrunk_image_for_a_fine_lattice_and_at_full_size_for_a_sheet(monkeypatch):
    import vision.locate as locate

    shapes: list[tuple[int, ...]] = []
    real = locate._run_detector

    def spy(detector, img):
        shapes.append(img.shape)
        return real(detector, img)

    monkeypatch.setattr(locate, "_run_detector", spy)
    detect_raw(make_detector(), _lattice(1142, 1261, 16))
    assert len(shapes) == 1 and max(shapes[0]) <= 1261 // 2
    page = cv2.cvtColor(render_sheet("A", 1.5, "T1"), cv2.COLOR_RGB2GRAY)
    shapes.clear()
    assert sorted(i for i, _ in detect_raw(make_detector(), page)) == [0, 1, 2, 3]
    assert shapes == [page.shape]


def test_markers_of_a_sheet_far_from_the_camera_are_still_found():
    # our sheet a quarter of a 1–4 MP frame (cells 10–17 px in the working image): the four markers are found
    for seed in (30, 11, 36, 9):
        rng = np.random.default_rng(seed)
        mp = float(rng.choice([1.0, 2.0, 4.0, 8.0, 12.0]))
        fill = float(rng.uniform(0.15, 0.45))
        spec = PhotoSpec(design="ours", megapixels=mp, fill=(fill, fill + 0.05), tilt_deg=float(rng.uniform(0, 45)))
        gray = cv2.cvtColor(load_photo(make_photo(700_000 + seed, spec).data).image, cv2.COLOR_BGR2GRAY)
        assert len([k for k in detect_markers(gray) if k < 8]) == 4, seed


def test_a_sheet_on_a_chequered_cloth_keeps_its_markers():
    p = make_photo(80_001, PhotoSpec(design="ours", side="B", table="gingham", megapixels=2.0))
    gray = cv2.cvtColor(load_photo(p.data).image, cv2.COLOR_BGR2GRAY)
    assert plan_marker_search(gray).scale == 1
    assert sorted(k for k in detect_markers(gray) if k < 8) == [4, 5, 6, 7]
