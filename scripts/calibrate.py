"""Fit (or check) the confidence calibration shipped as vision/data/calibration.json.

    python scripts/calibrate.py                      # fit on development seeds (about 3 minutes)
    python scripts/calibrate.py --check --n 2        # CI: reliability on held-out seeds, fails if it lies

Fitting reads synthetic photos (bench/synthphoto.py) from DEVELOPMENT seeds 200,000.. only, collects each drawable
cell's raw score and whether it was right, per reading path, and stores a monotone map raw → share right.
`--check` reads photos from HELD-OUT seeds (≥ 1,000,000) and prints the reliability table; it fails when cells
with confidence ≥ 0.7 are right less often than 0.7 or when silent errors exceed 10 % of wrong cells and 0.5 %
of cells (a loose CI guard; bench/README.md has the real figures).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.synthphoto import EXTRA_STYLES, STYLES, PhotoSpec, make_photo  # noqa: E402
from vision.calibrate import TABLE_PATH, fit_isotonic, reliability  # noqa: E402
from vision.errors import PhotoError  # noqa: E402
from vision.reading import read_sheet  # noqa: E402

FIXED = {"mountain", "wasteland"}


def specs(n: int) -> list[PhotoSpec]:
    """A mix of sheets: legend drawn in, legend blank, unmarked pad-like sheets; every style and medium."""
    out = []
    every = STYLES + EXTRA_STYLES
    for k in range(n):
        style = every[k % len(every)]
        out += [PhotoSpec(style=style, megapixels=3.0), PhotoSpec(style=style, megapixels=3.0, legend=False)]
        if style in ("pencil", "marker", "crayon", "felt", "watercolour"):
            out.append(PhotoSpec(style=style, megapixels=3.0, marked=False))
    return out


def collect(first_seed: int, n: int) -> dict[str, tuple[list, list, list]]:
    data: dict[str, tuple[list, list, list]] = {}
    for i, spec in enumerate(specs(n)):
        p = make_photo(first_seed + i, spec)
        try:
            r = read_sheet(p.data, overlay=False)
        except PhotoError:
            continue
        raw, conf, ok = data.setdefault(r.read_path, ([], [], []))
        for a in range(11):
            for b in range(11):
                if p.grid[a][b] in FIXED or r.raw_confidence is None or np.isnan(r.raw_confidence[a, b]):
                    continue
                raw.append(float(r.raw_confidence[a, b]))
                conf.append(float(r.confidence[a][b]))
                ok.append(r.grid[a][b] == p.grid[a][b])
    return data


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20, help="styles to cycle through (each gives 2-3 photos)")
    ap.add_argument("--check", action="store_true", help="held-out reliability check instead of fitting")
    ap.add_argument("--out", default=str(TABLE_PATH))
    ap.add_argument("--cache", help="keep the collected (raw, confidence, right) cells in this JSON file")
    args = ap.parse_args(argv)
    if not args.check:
        cache = Path(args.cache) if args.cache else None
        if cache and cache.exists():
            data = {k: tuple(v) for k, v in json.loads(cache.read_text()).items()}
        else:
            data = collect(200_000, args.n)
            if cache:
                cache.write_text(json.dumps(data))
        maps = {path: fit_isotonic(np.array(raw), np.array(ok)) for path, (raw, _, ok) in data.items() if len(raw) > 50}
        Path(args.out).write_text(json.dumps({"fitted_on": f"synthetic development seeds 200000.., {args.n} per kind",
                                              "maps": maps}, indent=1) + "\n")
        for path, (raw, _, ok) in data.items():
            print(f"{path}: {len(raw)} cells, {np.mean(ok):.2%} right")
        print(f"wrote {args.out}")
        return 0
    data = collect(1_000_000, args.n)
    failed = False
    for path, (_, conf, ok) in data.items():
        conf_a, ok_a = np.array(conf), np.array(ok, bool)
        sure = conf_a >= 0.7
        silent = int((sure & ~ok_a).sum())
        wrong = int((~ok_a).sum())
        print(f"{path}: {len(ok_a)} cells, {ok_a.mean():.2%} right, silent {silent}/{wrong}")
        for b in reliability(conf_a, ok_a):
            share = f"{b['share_right']:.1%}" if b["share_right"] is not None else "-"
            print(f"  [{b['lo']:.2f}, {b['hi']:.2f})  {b['cells']:>6}  {share:>7}")
        if sure.any() and ok_a[sure].mean() < 0.7:
            failed = True
        if wrong and silent > max(0.1 * wrong, 0.005 * len(ok_a)):
            failed = True
    if failed:
        print("calibration check failed: confident cells are wrong too often", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
