"""Vision benchmark: accuracy on synthetic phone photos, latency and memory for a 12 MP JPEG.

    python -m bench.bench_vision                 # default set (about 3 minutes on 2 shared cores)
    python -m bench.bench_vision --n 6 --quick   # smoke run

Accuracy is measured on drawable cells only (mountains and wastelands are
printed and always right), per style: colour pencil hatching + marker fill
("colour") and graphite symbols with the legend filled in ("graphite"), plus
sheets without markers ("unmarked", colour styles, no legend). Photos are
generated deterministically from seeds by `bench.synthphoto` and never stored.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter

import cv2
import numpy as np

from bench.synthphoto import PhotoSpec, make_photo
from companion.cartographers.terrain import DRAWABLE as TERRAIN_DRAWABLE
from vision.errors import PhotoError
from vision.reading import CONFIDENCE_THRESHOLD, read_sheet

WORDS: tuple[str, ...] = ("empty", *(t.value for t in TERRAIN_DRAWABLE))


def run_set(name: str, specs: list[tuple[int, PhotoSpec]]) -> dict:
    found = exact = coins_ok = side_ok = qr_ok = 0
    errors: Counter[str] = Counter()
    confusion = np.zeros((len(WORDS), len(WORDS)), int)
    above = [0, 0]  # right, total for cells with confidence >= threshold
    below = [0, 0]
    times = []
    for seed, spec in specs:
        p = make_photo(seed, spec)
        t = time.perf_counter()
        try:
            r = read_sheet(p.data, overlay=False)
        except PhotoError as exc:
            errors[exc.code] += 1
            continue
        times.append(time.perf_counter() - t)
        found += 1
        side_ok += r.side == p.side
        coins_ok += r.coins == p.coins
        qr_ok += p.sheet_id is not None and r.sheet_id == p.sheet_id
        all_right = True
        for i in range(11):
            for j in range(11):
                truth, got = p.grid[i][j], r.grid[i][j]
                if truth in ("mountain", "wasteland"):
                    continue
                right = truth == got
                all_right &= right
                if got in WORDS:
                    confusion[WORDS.index(truth), WORDS.index(got)] += 1
                bucket = above if r.confidence[i][j] >= CONFIDENCE_THRESHOLD else below
                bucket[0] += right
                bucket[1] += 1
        exact += all_right
    cells = int(confusion.sum())
    return {
        "set": name,
        "photos": len(specs),
        "found_rate": found / len(specs),
        "errors": dict(errors),
        "cell_accuracy": float(np.trace(confusion) / cells) if cells else None,
        "cells": cells,
        "sheet_exact_rate": exact / found if found else None,
        "side_rate": side_ok / found if found else None,
        "coins_rate": coins_ok / found if found else None,
        "qr_rate": qr_ok / found if found and specs[0][1].marked else None,
        "above_threshold": {"accuracy": above[0] / above[1] if above[1] else None, "cells": above[1]},
        "below_threshold": {"accuracy": below[0] / below[1] if below[1] else None, "cells": below[1]},
        "read_seconds_median": statistics.median(times) if times else None,
        "confusion": confusion.tolist(),
    }


def latency(runs: int) -> dict:
    """p50 of read_sheet on one 12 MP JPEG file vs cv2.imread of the same file."""
    p = make_photo(777, PhotoSpec(style="pencil", megapixels=12.0))
    with tempfile.NamedTemporaryFile(suffix=".jpg", delete=False) as fh:
        fh.write(p.data)
        path = fh.name
    try:
        read_sheet(path)  # warm-up: imports, caches
        t_read, t_imread = [], []
        for _ in range(runs):
            t = time.perf_counter()
            cv2.imread(path)
            t_imread.append(time.perf_counter() - t)
            t = time.perf_counter()
            r = read_sheet(path)
            t_read.append(time.perf_counter() - t)
        assert r.grid == p.grid, "the latency photo must also be read correctly"
        mem = peak_memory(path)
    finally:
        os.unlink(path)
    read50, imread50 = statistics.median(t_read), statistics.median(t_imread)
    return {"photo": f"{p.size[0]}x{p.size[1]} JPEG, {len(p.data) / 1e6:.1f} MB", "read_p50_s": read50,
            "imread_p50_s": imread50, "ratio": read50 / imread50, **mem}


def peak_memory(path: str) -> dict:
    """Peak RSS of a fresh process reading one photo, and of one that only imports the modules."""
    # VmHWM (not getrusage): ru_maxrss survives exec and would report this big parent process.
    code = ("from vision.reading import read_sheet; {};"
            "print([l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1])")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([os.getcwd(), os.environ.get("PYTHONPATH", "")])}

    def run(stmt: str) -> float:
        out = subprocess.run([sys.executable, "-c", code.format(stmt)], capture_output=True, text=True, env=env,
                             check=True)
        return int(out.stdout.strip().splitlines()[-1]) / 1024  # kB → MB

    base = run("pass")
    peak = run(f"read_sheet({path!r})")
    return {"peak_rss_mb": peak, "import_only_rss_mb": base, "pipeline_rss_mb": peak - base}


def specs_for(style: str, n: int, first_seed: int, marked: bool = True, mp: float | None = None):
    return [(first_seed + k, PhotoSpec(style=style, marked=marked, megapixels=mp)) for k in range(n)]


def report(s: dict) -> None:
    print(f"== {s['set']}: {s['photos']} photos")
    print(f"  sheet found {s['found_rate']:.1%}  errors {s['errors']}")
    if s["cells"]:
        print(f"  cell accuracy {s['cell_accuracy']:.3%} of {s['cells']} drawable cells; "
              f"sheet-exact {s['sheet_exact_rate']:.1%}; side {s['side_rate']:.0%}; coins {s['coins_rate']:.1%}"
              + (f"; QR {s['qr_rate']:.0%}" if s["qr_rate"] is not None else ""))
        a, b = s["above_threshold"], s["below_threshold"]

        def fmt(d: dict) -> str:
            return f"{d['accuracy']:.2%} of {d['cells']}" if d["accuracy"] is not None else "n/a"

        print(f"  confidence >= {CONFIDENCE_THRESHOLD}: {fmt(a)} cells right; below: {fmt(b)}")
        print(f"  median read time {s['read_seconds_median']:.2f} s")
        print("  confusion (rows truth, cols read): " + " ".join(w[:3] for w in WORDS))
        for w, row in zip(WORDS, s["confusion"], strict=True):
            print(f"    {w:<8}" + " ".join(f"{v:>5}" for v in row))
    sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20, help="photos per style set")
    ap.add_argument("--runs", type=int, default=7, help="latency repetitions")
    ap.add_argument("--quick", action="store_true", help="2.5 MP photos for a fast smoke run")
    ap.add_argument("--no-unmarked", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    mp = 2.5 if args.quick else None
    n = args.n
    plan = [
        ("colour (pencil + marker)",
         specs_for("pencil", n - n // 2, 1000, mp=mp) + specs_for("marker", n // 2, 2000, mp=mp)),
        ("graphite symbols + legend", specs_for("graphite", n, 3000, mp=mp)),
    ]
    curled = [(6000 + k, PhotoSpec(style=("pencil", "marker", "graphite")[k % 3], megapixels=mp, curl=0.015))
              for k in range(max(3, n // 2))]
    plan.append(("strong paper curl (1.5 % of the page), all styles", curled))
    # Held out: seeds never looked at during development, and harsher photos (small, soft, bent, 35° tilt).
    hard = [(9000 + k, PhotoSpec(style=("pencil", "marker", "graphite")[k % 3], megapixels=1.5 + (k % 4) * 0.5,
                                 blur=0.8 + (k % 5) * 0.25, curl=0.01, fill=(0.6, 0.8)))
            for k in range(n)]
    plan.append(("held-out hard: 1.5–3 MP, soft focus, 1 % curl, all styles", hard))
    glare = [(9100 + k, PhotoSpec(style=("pencil", "marker", "graphite")[k % 3], megapixels=mp or 3.0, glare=1.0))
             for k in range(max(3, n // 2))]
    plan.append(("glare: a saturated reflection on the sheet, all styles", glare))
    if not args.no_unmarked:
        plan.append(("unmarked sheet (colour, no legend)",
                     specs_for("pencil", n - n // 2, 4000, False, mp) + specs_for("marker", n // 2, 5000, False, mp)))
    sets = []
    for name, specs in plan:
        sets.append(run_set(name, specs))
        if not args.json:
            report(sets[-1])
    result = {"sets": sets, "latency": latency(args.runs), "threshold": CONFIDENCE_THRESHOLD, "cpus": os.cpu_count()}
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    lat = result["latency"]
    print(f"== latency ({lat['photo']}, {result['cpus']} CPUs shared with other work)")
    print(f"  read_sheet p50 {lat['read_p50_s'] * 1000:.0f} ms; cv2.imread p50 {lat['imread_p50_s'] * 1000:.0f} ms; "
          f"ratio {lat['ratio']:.1f}x")
    print(f"  peak RSS {lat['peak_rss_mb']:.0f} MB (imports alone {lat['import_only_rss_mb']:.0f} MB, "
          f"pipeline +{lat['pipeline_rss_mb']:.0f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
