"""No crash on any photo: random crops, turns, scales, noise, blank bands, partial sheets and damaged bytes of
synthetic photos (our sheet, the pad look-alike, generic prints, hand-ruled and squared grids) either read or
raise a `PhotoError` with a known code — nothing else. `python -m bench.bench_geometry --fuzz 10000` runs the
long version; this one is seeded and small enough for CI.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from bench.bench_geometry import fuzzed
from bench.synthphoto import PhotoSpec, make_photo
from vision.errors import PhotoError
from vision.messages import MESSAGES
from vision.reading import read_sheet

DESIGNS = ("ours", "pad", "generic", "handruled", "squared")
CASES = 200
BUDGET_S = 50.0


@pytest.fixture(scope="module")
def bases():
    return [make_photo(910 + i, PhotoSpec(design=d, megapixels=0.45, style=("pencil", "marker", "graphite")[i % 3]))
            for i, d in enumerate(DESIGNS)]


def test_fuzzed_photos_raise_only_photo_errors(bases):
    rng = np.random.default_rng(20261201)
    outcomes: dict[str, int] = {}
    t0 = time.perf_counter()
    n = 0
    for i in range(CASES):
        if time.perf_counter() - t0 > BUDGET_S:  # a loaded machine runs fewer cases (all 200 on a quiet one)
            break
        data = fuzzed(bases[i % len(bases)].data, rng)
        try:
            r = read_sheet(data, overlay=False)
        except PhotoError as exc:  # the only exception allowed
            assert exc.code in MESSAGES and exc.message("tr")
            outcomes[exc.code] = outcomes.get(exc.code, 0) + 1
        else:
            assert len(r.grid) == 11 and len(r.cell_centers_px) == 11
            outcomes["read"] = outcomes.get("read", 0) + 1
        n += 1
    assert n >= 12, f"only {n} fuzz cases ran in {BUDGET_S:.0f} s"
    assert len(outcomes) >= 3, outcomes  # the fuzzing reaches several stages, not one early refusal
