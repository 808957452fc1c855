"""Vision benchmark: accuracy on synthetic phone photos, latency and memory for a 12 MP JPEG.

    python -m bench.bench_vision                          # every set, 10 held-out photos each
    python -m bench.bench_vision --n 2 --sets colour,letters-blank --no-latency   # smoke run

Each set is scored by `vision.evaluate` (the table of `mapsmith vision-eval`): found, cell accuracy, sheets
read exactly, silent errors (wrong with confidence >= 0.7), right after review, taps (one per unsure terrain
at most) and accuracy after them, and the reliability table (confidence bins -> share right).

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

import cv2

from bench.synthphoto import PhotoSpec, make_photo
from companion.cartographers.terrain import DRAWABLE as TERRAIN_DRAWABLE
from vision.reading import CONFIDENCE_THRESHOLD, read_sheet

WORDS: tuple[str, ...] = ("empty", *(t.value for t in TERRAIN_DRAWABLE))


def latency(runs: int, style: str = "pencil") -> dict:
    """p50 of read_sheet on one 12 MP JPEG file vs cv2.imread of the same file."""
    p = make_photo(777, PhotoSpec(style=style, megapixels=12.0))
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
        wrong = sum(a != b for ra, rb in zip(r.grid, p.grid, strict=True) for a, b in zip(ra, rb, strict=True))
        mem = peak_memory(path)
    finally:
        os.unlink(path)
    read50, imread50 = statistics.median(t_read), statistics.median(t_imread)
    return {"photo": f"{p.size[0]}x{p.size[1]} JPEG, {len(p.data) / 1e6:.1f} MB", "wrong_cells": wrong,
            "read_p50_s": read50,
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


SETS = ("colour", "graphite", "blank-legend", "unmarked", "hard", "pencil-blank", "marker-blank", "graphite-blank",
        "crayon-blank", "felt-blank", "watercolour-blank", "ballpoint-blank", "symbols-blank", "letters-blank",
        "mixed-blank", "symbols", "mixed")
HELD_OUT = 1_000_000  # final figures only: never tuned on


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10, help="photos per set")
    ap.add_argument("--runs", type=int, default=7, help="latency repetitions")
    ap.add_argument("--sets", default=",".join(SETS), help="comma-separated synthetic sets (vision.evaluate)")
    ap.add_argument("--seed", type=int, default=HELD_OUT, help="first seed (held out: >= 1,000,000)")
    ap.add_argument("--no-latency", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    from vision.evaluate import evaluate, summary, synthetic_cases, table

    rows = []
    for k, name in enumerate(args.sets.split(",")):
        t = time.perf_counter()
        scores = evaluate(synthetic_cases(name, args.n, args.seed + 10_000 * k))
        rows.append((name, summary(scores)))
        if not args.json:
            print(f"{name}: {time.perf_counter() - t:.0f} s", file=sys.stderr)
    result: dict = {"sets": dict(rows), "threshold": CONFIDENCE_THRESHOLD, "cpus": os.cpu_count()}
    if not args.no_latency:
        result["latency"] = {style: latency(args.runs, style) for style in ("pencil", "graphite")}
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(table(rows))
    for style, lat in result.get("latency", {}).items():
        print(f"== latency, {style} ({lat['photo']}, {result['cpus']} CPUs shared with other work)")
        print(f"  read_sheet p50 {lat['read_p50_s'] * 1000:.0f} ms; cv2.imread p50 {lat['imread_p50_s'] * 1000:.0f} ms;"
              f" ratio {lat['ratio']:.1f}x")
        print(f"  peak RSS {lat['peak_rss_mb']:.0f} MB (imports alone {lat['import_only_rss_mb']:.0f} MB, "
              f"pipeline +{lat['pipeline_rss_mb']:.0f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
