"""Speed of a 12 MP read against `cv2.imread` of the same file, side by side, for every kind of sheet.

    python -m bench.bench_speed                       # every case, 5 pairs each, photos made in a temp folder
    python -m bench.bench_speed --cases pad ours-graphite --runs 3 --photos /tmp/p12 [--json] [--memory]
                                [--cells features]

For each case one 12 MP JPEG (3000×4000, seed 777) is made by `bench.synthphoto` (kept in `--photos` when
given, and reused from there), read once as a warm-up, then `--runs` pairs of (`cv2.imread(path)`,
`read_sheet(path)`) are timed in turn in this one process. The figure is the median of the pairs' ratios
(read / imread): the machine is shared, and a pair's two timings see the same load. CPU time is given too
(`time.process_time` around each call). `--memory` adds the peak RSS of a fresh process reading the photo.
`--cells features` times the feature cell reader instead of the cell model (`read_sheet(..., cells=…)`).

The issue's target (issues 9 and 10): a read in at most 3 × the time `cv2.imread` takes; peak memory < 400 MB.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cv2

from bench.synthphoto import PhotoSpec, make_photo

CASES: dict[str, PhotoSpec] = {
    "ours-colour": PhotoSpec(style="pencil", megapixels=12.0),
    "ours-graphite": PhotoSpec(style="graphite", megapixels=12.0),
    "generic": PhotoSpec(style="pencil", megapixels=12.0, marked=False, design="generic"),
    "handruled": PhotoSpec(style="marker", megapixels=12.0, marked=False, design="handruled"),
    "squared": PhotoSpec(style="pencil", megapixels=12.0, marked=False, design="squared"),
    "pad-graphite": PhotoSpec(style="graphite", megapixels=12.0, marked=False, design="pad"),
    "pad-colour": PhotoSpec(style="pencil", megapixels=12.0, marked=False, design="pad"),
}
SEED = 777


def photo_path(case: str, folder: Path) -> Path:
    """The case's photo in `folder`, made (deterministically) when it is not there yet."""
    path = folder / f"{case}-{SEED}.jpg"
    if not path.exists():
        path.write_bytes(make_photo(SEED, CASES[case]).data)
    return path


def time_case(path: Path, runs: int, cells: str = "net") -> dict:
    """Median read and imread times and the median of the paired ratios (wall and CPU) for one photo."""
    from vision.errors import PhotoError
    from vision.reading import read_sheet

    outcome = "read"
    try:
        read_sheet(str(path), cells=cells)  # warm-up: imports, models, memos
    except PhotoError as exc:
        outcome = exc.code
    wall, cpu, t_read, t_imread = [], [], [], []
    for _ in range(runs):
        c0, t0 = time.process_time(), time.perf_counter()
        cv2.imread(str(path))
        c1, t1 = time.process_time(), time.perf_counter()
        with contextlib.suppress(PhotoError):
            read_sheet(str(path), cells=cells)
        c2, t2 = time.process_time(), time.perf_counter()
        t_imread.append(t1 - t0)
        t_read.append(t2 - t1)
        wall.append((t2 - t1) / max(t1 - t0, 1e-9))
        cpu.append((c2 - c1) / max(c1 - c0, 1e-9))
    return {"outcome": outcome, "read_ms": 1000 * statistics.median(t_read),
            "imread_ms": 1000 * statistics.median(t_imread), "ratio": statistics.median(wall),
            "ratio_min": min(wall), "ratio_max": max(wall), "cpu_ratio": statistics.median(cpu),
            "load": os.getloadavg()[0]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.bench_speed", description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", nargs="+", default=list(CASES), choices=list(CASES))
    ap.add_argument("--runs", type=int, default=5, help="timed (imread, read) pairs per case")
    ap.add_argument("--photos", type=Path, help="folder to keep (and reuse) the generated photos in")
    ap.add_argument("--memory", action="store_true", help="also the peak RSS of a fresh process per photo")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--cells", choices=["net", "features"], default="net", help="the cell reader to time")
    args = ap.parse_args(argv)
    tmp = None
    if args.photos is None:
        tmp = tempfile.TemporaryDirectory()
        folder = Path(tmp.name)
    else:
        folder = args.photos
        folder.mkdir(parents=True, exist_ok=True)
    out = {"cpus": os.cpu_count(), "runs": args.runs, "cases": {}}
    try:
        for case in args.cases:
            path = photo_path(case, folder)
            res = time_case(path, args.runs, args.cells)
            if args.memory:
                from bench.bench_vision import peak_memory

                res.update(peak_memory(str(path)))
            out["cases"][case] = res
            if not args.json:
                mem = f"; peak RSS {res['peak_rss_mb']:.0f} MB" if "peak_rss_mb" in res else ""
                print(f"{case:14s} {res['outcome']:8s} read {res['read_ms']:6.0f} ms  imread {res['imread_ms']:5.0f} ms"
                      f"  ratio {res['ratio']:5.2f} (min {res['ratio_min']:.2f}, max {res['ratio_max']:.2f})"
                      f"  cpu ratio {res['cpu_ratio']:5.2f}  load {res['load']:.1f}{mem}", flush=True)
    finally:
        if tmp is not None:
            tmp.cleanup()
    if args.json:
        json.dump(out, sys.stdout, indent=1)
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
