"""The vectorised feature helpers give the same numbers as the library calls they replace."""

import numpy as np
import pytest
from skimage.feature import hog

from vision.features import hog_cells, stroke_extent


@pytest.mark.parametrize("shape", [(36, 36), (40, 37), (12, 18)])
def test_hog_cells_matches_skimage(shape):
    rng = np.random.default_rng(sum(shape))
    for _ in range(5):
        a = (rng.random(shape) * (rng.random(shape) > 0.7)).astype(np.float32)
        ref = hog(a, orientations=9, pixels_per_cell=(6, 6), cells_per_block=(1, 1), feature_vector=True)
        assert hog_cells(a).shape == ref.shape
        assert np.abs(hog_cells(a) - ref).max() < 1e-6


def test_hog_cells_of_blank_map_is_zero():
    assert not hog_cells(np.zeros((36, 36), np.float32)).any()


def test_stroke_extent_matches_percentile_of_pixel_coordinates():
    rng = np.random.default_rng(3)
    for _ in range(300):
        h, w = rng.integers(5, 60, 2)
        on = rng.random((h, w)) < rng.random() * 0.3
        ys, xs = np.nonzero(on)
        got = stroke_extent(on)
        if len(ys) < 12:
            assert got is None
            continue
        want = (*np.percentile(ys, [1, 99]), *np.percentile(xs, [1, 99]))
        assert np.allclose(got, want, atol=1e-9)


# --- the speed pass: each fast path gives exactly what the plain numpy / whole-image version gives ---


def _maps(rng, n=60):
    out = []
    for k in range(n):
        m = rng.random((36, 36)).astype(np.float32) * (rng.random((36, 36)) > 0.7)
        if k % 3 == 0:
            m = np.round(m * 4) / 4  # exactly horizontal / vertical gradients (bin edges)
        out.append(m)
    out[0][:] = 0
    return np.stack(out)


def test_hog_maps_equals_hog_cells_per_map():
    from vision.features import hog_maps

    maps = _maps(np.random.default_rng(3))
    assert np.array_equal(hog_maps(maps), np.stack([hog_cells(m) for m in maps]))


def test_describe_maps_equals_one_descriptor_at_a_time():
    from vision.features import describe_maps, shape_descriptor, shape_map

    rng = np.random.default_rng(4)
    crops = [rng.random((44, 47)).astype(np.float32) * (rng.random((44, 47)) > 0.85) for _ in range(20)]
    crops.append(np.zeros((44, 47), np.float32))
    batch = describe_maps([shape_map(c) for c in crops])
    assert np.array_equal(batch, np.stack([shape_descriptor(c) for c in crops]))
    assert not batch[-1].any()


def test_median0_and_weighted_mean_equal_numpy():
    from vision.features import median0, weighted_mean

    rng = np.random.default_rng(5)
    for n in (1, 2, 3, 10, 101, 1600):
        for dt in (np.float32, np.float64):
            a = rng.random(n).astype(dt)
            w = rng.random(n).astype(np.float32) + 0.01
            b = (rng.random((n, 3)) * 50 - 25).astype(dt)
            assert np.array_equal(median0(a), np.median(a))
            assert np.array_equal(median0(b), np.median(b, axis=0))
            assert np.array_equal(weighted_mean(a, w), np.average(a, weights=w))
            assert np.array_equal(weighted_mean(b[:, 1:], w), np.average(b[:, 1:], axis=0, weights=w))


def test_crops_and_outlines_of_a_region_equal_those_of_the_whole_image():
    from vision.features import box_region, crop
    from vision.glare import outline_strengths

    rng = np.random.default_rng(6)
    img = rng.random((300, 260)).astype(np.float32)
    boxes = [(float(rng.uniform(-10, 240)), float(rng.uniform(-10, 280)), float(rng.uniform(8, 40))) for _ in range(30)]
    region = box_region(boxes, img.shape)
    origin = (region[0].start, region[1].start)
    part = img[region]
    for b in boxes:
        for m in (0.08, 0.15):
            assert np.array_equal(crop(part, b, m, origin), crop(img, b, m))
    assert np.array_equal(outline_strengths(part, boxes, origin, img.shape), outline_strengths(img, boxes))


def test_block_percentile_equals_numpy_percentile_per_block():
    from vision.light import block_percentile

    rng = np.random.default_rng(7)
    img = rng.integers(0, 256, (61, 45, 3), dtype=np.uint8)
    got = block_percentile(img, 8, 90)
    k = int(round(0.9 * 63))
    for by in range(7):
        for bx in range(5):
            blk = img[by * 8 : by * 8 + 8, bx * 8 : bx * 8 + 8].reshape(-1, 3)
            assert np.array_equal(got[by, bx], np.sort(blk, axis=0)[k].astype(np.float32))


def test_quality_fast_paths_equal_the_whole_image_versions():
    import math

    import cv2

    from vision.quality import edge_blur, median_u8

    rng = np.random.default_rng(8)
    for _ in range(30):
        h, w = (int(v) for v in rng.integers(40, 200, 2))
        gray = cv2.GaussianBlur((rng.random((h, w)) * 255).astype(np.uint8), (0, 0), float(rng.uniform(0.5, 3)))
        assert median_u8(gray) == np.median(gray)
        boxes = [(int(rng.integers(-10, w)), int(rng.integers(-10, h))) for _ in range(4)]
        boxes = [(x, y, x + int(rng.integers(-5, 60)), y + int(rng.integers(-5, 60))) for x, y in boxes]
        g = gray.astype(np.float32)
        mag = np.hypot(cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3) / 8, cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3) / 8)
        sig = []
        for x0, y0, x1, y1 in boxes:
            patch = g[max(0, y0) : y1, max(0, x0) : x1]
            if patch.size < 16:
                continue
            contrast = float(np.percentile(patch, 97) - np.percentile(patch, 3))
            steep = float(np.percentile(mag[max(0, y0) : y1, max(0, x0) : x1], 99.5))
            if contrast >= 20 and steep > 0:
                sig.append(contrast / (steep * math.sqrt(2 * math.pi)))
        want = float(np.median(sig)) if sig else float("inf")
        assert edge_blur(gray, boxes) == want
