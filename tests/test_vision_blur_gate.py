"""The blur gate refuses only what the reader cannot read (calibrated by `bench.bench_blur` on our generator).

Colour fills read through more blur than fills with symbols, and those more than symbols alone; a photo the
reader still reads is read, one it cannot is refused as `too_blurry`.
"""

from __future__ import annotations

import numpy as np
import pytest

from bench.bench_blur import gate_recorded
from bench.synthphoto import PhotoSpec, make_photo
from vision import quality
from vision.errors import PhotoError
from vision.geometry import canon_for
from vision.reading import read_sheet


def test_limits_follow_what_survives_blur():
    m = quality.MAX_BLUR_CELLS
    assert m["colour"] > m["mixed"] > m["symbols"]
    assert m["symbols"] >= 0.045  # no stricter than before calibration


@pytest.mark.parametrize("style,ok,refused", [("colour", 0.062, 0.068), ("mixed", 0.052, 0.058),
                                               ("symbols", 0.043, 0.047)])
def test_check_blur_at_the_limit(style, ok, refused):
    canon = canon_for("A")
    quality.check_blur(ok * canon.cell_px, canon, style)
    with pytest.raises(PhotoError) as exc:
        quality.check_blur(refused * canon.cell_px, canon, style)
    assert exc.value.code == "too_blurry"


def _drawable_right(p, r) -> float:
    cells = [(i, j) for i in range(11) for j in range(11) if p.grid[i][j] not in ("mountain", "wasteland")]
    return sum(r.grid[i][j] == p.grid[i][j] for i, j in cells) / len(cells)


def test_a_soft_colour_photo_the_reader_reads_is_read_not_refused():
    # bench_blur's "ours pencil" sheet at a 3.5 px focus blur: edge blur ~0.06 cell, refused before (0.05)
    p = make_photo(310_100, PhotoSpec(design="ours", style="pencil", megapixels=2.0, tilt_deg=30.0, blur=3.5))
    with gate_recorded() as seen:
        read_sheet(p.data, overlay=False)
    assert 0.05 < seen["blur"] < quality.MAX_BLUR_CELLS["colour"]
    r = read_sheet(p.data, overlay=False)
    assert _drawable_right(p, r) >= 0.95


def test_blurred_letters_the_reader_cannot_read_are_still_refused():
    # bench_blur's "ours letters" sheet at 2.5 px: 68 % of cells with the gate off (98 % sharp)
    p = make_photo(310_400, PhotoSpec(design="ours", style="letters", megapixels=2.0, tilt_deg=30.0, blur=2.5))
    with pytest.raises(PhotoError) as exc:
        read_sheet(p.data, overlay=False)
    assert exc.value.code == "too_blurry"


def test_the_recorder_restores_the_gate():
    with gate_recorded():
        assert quality.check_blur.__name__ == "record"
    assert quality.check_blur.__name__ == "check_blur"
    assert np.isfinite(quality.MAX_BLUR_CELLS["colour"])
