"""Geometry benchmark: is the sheet found, where is the grid, which way up — on every kind of sheet.

    python -m bench.bench_geometry --n 10                # development seeds (10 photos per kind)
    python -m bench.bench_geometry --n 40 --held-out     # held-out seeds: only for the final figures
    python -m bench.bench_geometry --fuzz 10000          # crash hunt on fuzzed photos (no figures tuned on it)

Kinds: our sheet, our sheet with 1–2 markers clipped (grid in frame), the pad look-alike drawn in code, the real
pad scans as a template (skipped with a message when `$MAPSMITH_PAD_SCANS` / `bench/pad-scans/` lacks them),
generic prints, hand-ruled grids on notebook paper, grids traced on squared paper, fully filled maps; each at
normal and hard difficulty. The generator knows the true cell centres (`SynthPhoto.cell_centers`), so the grid
fit error is measured at every cell, in cells. Orientation counts as right when the top-left cell is where the
truth says, or "asked" when the reading says `orientation_unsure`. Seeds: development 0–49,999 per kind,
held-out from 500,000.
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

from bench.sheetdesigns import pad_scan_available, pad_scan_dir
from bench.synthphoto import PhotoSpec, make_photo
from vision.errors import PhotoError
from vision.reading import read_sheet

KINDS = {
    "ours": dict(design="ours"),
    "ours, 1–2 markers clipped": dict(design="ours", clip_marker=1),
    "pad look-alike": dict(design="pad"),
    "pad scans": dict(design="padscan"),
    "generic print": dict(design="generic"),
    "hand-ruled notebook": dict(design="handruled"),
    "squared paper": dict(design="squared"),
    "fully filled (pad look-alike)": dict(design="pad", empty_p=0.02),
    # Added later, so its seeds (index 8: 80,000… dev, 580,000… held-out) are its own and no other kind's change.
    "pad scans on a chequered cloth": dict(design="padscan", table="gingham"),
    "pad look-alike on a chequered cloth": dict(design="pad", table="gingham"),
}
HARD = dict(megapixels=2.0, blur=1.0, curl=0.01, fill=(0.55, 0.8), tilt_deg=40.0)
STYLES = ("pencil", "marker", "graphite")
HELD_OUT = 500_000


def spec_for(kind: str, k: int, hard: bool, turns: bool = False) -> PhotoSpec:
    """The k-th photo's knobs; `turns` photographs it turned k % 4 quarter turns (upright, sideways, upside down)."""
    extra = dict(KINDS[kind])
    if turns:
        extra["quarter_turn"] = k % 4
    if extra.get("clip_marker"):
        extra["clip_marker"] = 1 + k % 2
    base = dict(style=STYLES[k % 3], megapixels=None if not hard else HARD["megapixels"])
    if hard:
        base.update(blur=HARD["blur"], curl=HARD["curl"], fill=HARD["fill"], tilt_deg=HARD["tilt_deg"])
    else:
        base.update(megapixels=float(2.0 + (k % 5)))
    return PhotoSpec(**base, **extra)


def run_kind(kind: str, n: int, first: int, hard: bool, turns: bool = False) -> dict:
    found = right = asked = wrong_side = clipped = cells_ok = cells_all = 0
    errs: list[float] = []
    codes: Counter[str] = Counter()
    crashes: list[str] = []
    t_read = []
    for k in range(n):
        seed = first + k
        p = make_photo(seed, spec_for(kind, k, hard, turns))
        clipped += p.params.get("clipped") is not None
        t = time.perf_counter()
        try:
            r = read_sheet(p.data, overlay=False)
        except PhotoError as exc:
            codes[exc.code] += 1
            continue
        except Exception as exc:  # noqa: BLE001 - a crash is a finding, not a stop
            crashes.append(f"seed {seed}: {type(exc).__name__}: {exc}")
            continue
        t_read.append(time.perf_counter() - t)
        found += 1
        got = np.array(r.cell_centers_px)
        truth = p.cell_centers
        cell = float(np.median(np.linalg.norm(np.diff(truth, axis=1), axis=2)))
        err = float(np.linalg.norm(got - truth, axis=2).max() / cell)
        # a half turn (or any turn) puts the centres on other cells: that is an orientation error, not a fit one
        upright = float(np.linalg.norm(got[0, 0] - truth[0, 0]) / cell) < 0.5 and r.side == p.side
        if upright:
            right += 1
            errs.append(err)
        elif r.orientation_unsure:
            asked += 1
            for kk in (2,):
                alt = np.rot90(got, kk, axes=(0, 1))
                errs.append(float(np.linalg.norm(alt - truth, axis=2).max() / cell))
        wrong_side += r.side != p.side
        drawable = [(i, j) for i in range(11) for j in range(11) if p.grid[i][j] not in ("mountain", "wasteland")]
        cells_ok += sum(r.grid[i][j] == p.grid[i][j] for i, j in drawable)
        cells_all += len(drawable)
    return {
        "kind": kind, "hard": hard, "photos": n, "found": found, "found_rate": found / n, "refused": dict(codes),
        "crashes": crashes, "orientation_right": right, "orientation_asked": asked, "side_wrong": wrong_side,
        "fit_err_max_cells": max(errs) if errs else None,
        "fit_err_p95_cells": float(np.percentile(errs, 95)) if errs else None,
        "fit_within_0.15": sum(e <= 0.15 for e in errs), "fit_measured": len(errs),
        "read_s_median": statistics.median(t_read) if t_read else None,
        "markers_clipped": clipped, "orientation_silent": found - right - asked,
        "cells_right_pct": round(100 * cells_ok / cells_all, 1) if cells_all else None,
    }


def fuzz(n: int, seed0: int = 700_000) -> dict:
    """Random crops, turns, scales, noise and partial sheets of synthetic photos: only PhotoError may come out."""
    rng = np.random.default_rng(seed0)
    bases = [make_photo(seed0 + i, PhotoSpec(design=d, megapixels=1.5, style=STYLES[i % 3]))
             for i, d in enumerate(("ours", "pad", "generic", "handruled", "squared", "ours"))]
    crashes: list[str] = []
    codes: Counter[str] = Counter()
    t0 = time.perf_counter()
    for i in range(n):
        data = fuzzed(bases[i % len(bases)].data, rng)
        try:
            read_sheet(data, overlay=False)
            codes["read"] += 1
        except PhotoError as exc:
            codes[exc.code] += 1
        except Exception as exc:  # noqa: BLE001
            crashes.append(f"case {i}: {type(exc).__name__}: {exc}")
    return {"cases": n, "crashes": len(crashes), "first_crashes": crashes[:10], "outcomes": dict(codes),
            "seconds": time.perf_counter() - t0}


def fuzzed(data: bytes, rng: np.random.Generator) -> bytes:
    """One random mutilation of a photo: crop, turn, scale, noise, blank bands, byte damage."""
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    h, w = img.shape[:2]
    if rng.random() < 0.6:
        x0, y0 = int(rng.uniform(0, 0.5) * w), int(rng.uniform(0, 0.5) * h)
        x1, y1 = int(x0 + rng.uniform(0.2, 1.0) * (w - x0)), int(y0 + rng.uniform(0.2, 1.0) * (h - y0))
        img = img[y0 : max(y0 + 8, y1), x0 : max(x0 + 8, x1)]
    if rng.random() < 0.5:
        M = cv2.getRotationMatrix2D((img.shape[1] / 2, img.shape[0] / 2), float(rng.uniform(0, 360)),
                                    float(rng.uniform(0.3, 1.6)))
        img = cv2.warpAffine(img, M, (img.shape[1], img.shape[0]), borderValue=tuple(int(v) for v in rng.integers(
            0, 255, 3)))
    if rng.random() < 0.4:
        f = float(rng.uniform(0.15, 1.5))
        img = cv2.resize(img, (max(1, int(img.shape[1] * f)), max(1, int(img.shape[0] * f))))
    if rng.random() < 0.4:
        img = np.clip(img.astype(np.int16) + rng.normal(0, rng.uniform(5, 80), img.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        a = int(rng.uniform(0, img.shape[0]))
        img[a : a + int(rng.uniform(1, img.shape[0] / 2))] = int(rng.integers(0, 255))
    if rng.random() < 0.1:
        img = np.full_like(img, int(rng.integers(0, 255)))
    ok, buf = cv2.imencode(".png" if rng.random() < 0.2 else ".jpg", img)
    out = buf.tobytes()
    if rng.random() < 0.05:
        b = bytearray(out)
        for _ in range(int(rng.integers(1, 20))):
            b[int(rng.integers(0, len(b)))] = int(rng.integers(0, 256))
        out = bytes(b)
    return out


def speed(runs: int) -> dict:
    """`read_sheet` of one 12 MP JPEG (the pad look-alike) against `cv2.imread` of the same file, side by side."""
    p = make_photo(888, PhotoSpec(design="pad", style="pencil", megapixels=12.0))
    with tempfile.NamedTemporaryFile(suffix=".jpg", delete=False) as fh:
        fh.write(p.data)
        path = fh.name
    try:
        read_sheet(path, overlay=False)
        t_read, t_im = [], []
        for _ in range(runs):
            t = time.perf_counter()
            cv2.imread(path)
            t_im.append(time.perf_counter() - t)
            t = time.perf_counter()
            read_sheet(path, overlay=False)
            t_read.append(time.perf_counter() - t)
        code = (f"from vision.reading import read_sheet; read_sheet({path!r}, overlay=False);"
                "print([l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1])")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([os.getcwd(), os.environ.get("PYTHONPATH", "")])}
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
        peak = int(out.stdout.strip().splitlines()[-1]) / 1024
    finally:
        os.unlink(path)
    r, i = statistics.median(t_read), statistics.median(t_im)
    return {"read_p50_s": r, "imread_p50_s": i, "ratio": r / i, "peak_rss_mb": peak}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10, help="photos per kind and difficulty")
    ap.add_argument("--held-out", action="store_true", help="use the held-out seed range (final figures only)")
    ap.add_argument("--kinds", help="comma-separated subset of kinds")
    ap.add_argument("--no-hard", action="store_true")
    ap.add_argument("--fuzz", type=int, default=0, help="run this many fuzzed photos instead")
    ap.add_argument("--speed", type=int, default=0, help="latency runs on a 12 MP photo")
    ap.add_argument("--turns", action="store_true",
                    help="photograph the k-th photo turned k %% 4 quarter turns (0/90/180/270 degrees, within 6)")
    args = ap.parse_args(argv)
    if args.fuzz:
        print(json.dumps(fuzz(args.fuzz), indent=1))
        return 0
    if args.speed:
        print(json.dumps(speed(args.speed), indent=1))
        return 0
    kinds = [k.strip() for k in args.kinds.split(",")] if args.kinds else list(KINDS)
    base = HELD_OUT if args.held_out else 0
    print(f"seeds: {'HELD-OUT' if args.held_out else 'development'}")
    for ki, kind in enumerate(kinds):
        if KINDS[kind]["design"] == "padscan" and not pad_scan_available():
            print(f"== {kind}: SKIPPED — no pad scans in {pad_scan_dir()} (set MAPSMITH_PAD_SCANS)")
            continue
        for hard in ((False,) if args.no_hard else (False, True)):
            s = run_kind(kind, args.n, base + ki * 10_000 + (5_000 if hard else 0), hard, args.turns)
            fe = s["fit_err_max_cells"]
            print(f"== {kind} ({'hard' if hard else 'normal'}): found {s['found']}/{s['photos']}"
                  f" refused {s['refused']} crashes {len(s['crashes'])}; orientation right {s['orientation_right']}"
                  f" asked {s['orientation_asked']} silently wrong {s['orientation_silent']} side wrong "
                  f"{s['side_wrong']}; cells right {s['cells_right_pct']} %; fit within 0.15 cell "
                  f"{s['fit_within_0.15']}/{s['fit_measured']}, max {fe if fe is None else round(fe, 3)}"
                  + (f"; photos with markers really cut: {s['markers_clipped']}" if s["markers_clipped"] else ""))
            for c in s["crashes"]:
                print("   crash:", c)
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
