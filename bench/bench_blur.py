"""Calibrate the blur gate: how well the reader reads photos of known blur, with the gate itself switched off.

    python -m bench.bench_blur --n 2                     # development seeds of our own generator
    python -m bench.bench_blur --n 2 --json out.json     # per-photo records too

Our generator (`bench.synthphoto`, seeds 310,000… — development range) photographs each sheet kind × style at
focus blurs (Gaussian sigma, photo px) and hand-shake smears (`PhotoSpec.motion`, px) of a known size. Every
photo is read twice: sharp (sigma 0.4, no smear: the baseline) and blurred, with `quality.check_blur` replaced
by a recorder, so the edge blur the gate measures (`quality.edge_blur`, in cells) is kept and nothing is
refused for it. A blurred reading "reads" when its drawable cells are right within 5 points of the same
sheet's sharp reading (and it is not refused for another reason). The table groups photos by measured edge
blur: the gate should refuse only where most photos no longer read.
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import contextmanager

import numpy as np

from bench.synthphoto import PhotoSpec, make_photo
from vision import quality
from vision.errors import PhotoError
from vision.reading import read_sheet

FIRST_SEED = 310_000
DESIGNS = ("ours", "pad", "generic", "handruled", "squared")
STYLES = ("marker", "pencil", "graphite", "ballpoint", "letters")
BLURS = ((0.4, 0.0), (1.5, 0.0), (2.5, 0.0), (3.5, 0.0), (1.0, 6.0), (2.0, 9.0), (4.5, 0.0), (3.0, 12.0))
MARGIN = 5.0  # points of cells right a blurred reading may lose against its sharp twin and still "read"
BINS = (0.0, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.10, 0.13, 1.0)


@contextmanager
def gate_recorded():
    """`quality.check_blur` replaced by a recorder of the measured blur in cells (max over its calls)."""
    seen: dict[str, float] = {}
    original = quality.check_blur

    def record(sigma_px, canon, style="colour"):
        seen["blur"] = max(seen.get("blur", 0.0), sigma_px / canon.cell_px)
        seen["limit"] = min(seen.get("limit", 1.0), quality.MAX_BLUR_CELLS.get(style, 0.05))
        seen["class"] = style  # the last call is made with the reading's own style (colour, symbols, mixed)

    quality.check_blur = record
    try:
        yield seen
    finally:
        quality.check_blur = original


def cells_right(p, data: bytes, seen: dict) -> tuple[float | None, str | None, int]:
    """Per cent of drawable cells read right (None and the code when refused), and the silent errors (wrong
    cells with confidence ≥ 0.7), both under the better of the two half turns (the way up is orientation's
    business, not blur's)."""
    seen.clear()
    try:
        r = read_sheet(data, overlay=False)
    except PhotoError as exc:
        return None, exc.code, 0
    drawable = [(i, j) for i in range(11) for j in range(11) if p.grid[i][j] not in ("mountain", "wasteland")]
    best = (-1, 0)
    for k in (0, 2):
        g = np.rot90(np.array(r.grid, dtype=object), k)
        c = np.rot90(np.array(r.confidence, dtype=float), k)
        right = sum(g[i][j] == p.grid[i][j] for i, j in drawable)
        silent = sum(g[i][j] != p.grid[i][j] and c[i][j] >= 0.7 for i, j in drawable)
        best = max(best, (right, -silent))
    return 100.0 * float(best[0]) / len(drawable), None, int(-best[1])


def run(n: int, designs=DESIGNS, styles=STYLES, blurs=BLURS[1:]) -> list[dict]:
    recs = []
    with gate_recorded() as seen:
        for d_i, design in enumerate(designs):
            for s_i, style in enumerate(styles):
                for k in range(n):
                    seed = FIRST_SEED + 1000 * d_i + 100 * s_i + k
                    base = dict(design=design, style=style, megapixels=2.0, tilt_deg=30.0)
                    sharp = make_photo(seed, PhotoSpec(**base, blur=0.4))
                    ok0, code0, _ = cells_right(sharp, sharp.data, seen)
                    for sigma, motion in blurs:
                        p = make_photo(seed, PhotoSpec(**base, blur=sigma, motion=motion))
                        cell = float(np.median(np.linalg.norm(np.diff(p.cell_centers, axis=1), axis=2)))
                        ok, code, silent = cells_right(p, p.data, seen)
                        rec = {"design": design, "style": style, "seed": seed, "sigma_px": sigma, "motion_px": motion,
                               "cell_px": round(cell, 1), "measured_blur_cells": round(seen.get("blur", -1.0), 4),
                               "limit": seen.get("limit"), "class": seen.get("class"), "sharp_right": ok0,
                               "sharp_code": code0, "right": ok, "code": code, "silent": silent}
                        rec["reads"] = ok is not None and ok0 is not None and ok >= ok0 - MARGIN
                        recs.append(rec)
                        print(json.dumps(rec), file=sys.stderr, flush=True)
    return recs


def table(recs: list[dict]) -> str:
    rows = ["measured blur (cells)  photos  reads  median right  median loss vs sharp  refused (other)  silent/photo"]
    usable = [r for r in recs if r["sharp_right"] is not None and r["measured_blur_cells"] >= 0]
    for lo, hi in zip(BINS, BINS[1:], strict=False):
        b = [r for r in usable if lo <= r["measured_blur_cells"] < hi]
        if not b:
            continue
        right = [r["right"] for r in b if r["right"] is not None]
        loss = [r["sharp_right"] - r["right"] for r in b if r["right"] is not None]
        other = sum(r["code"] is not None for r in b)
        med_right = np.median(right) if right else float("nan")
        med_loss = np.median(loss) if loss else float("nan")
        rows.append(f"{lo:.2f}–{hi:.2f}              {len(b):6d} {sum(r['reads'] for r in b):6d}"
                    f"  {med_right:12.1f}  {med_loss:20.1f}  {other:15d}"
                    f"  {np.mean([r.get('silent', 0) for r in b]):12.1f}")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.bench_blur", description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=2, help="sheets per design × style")
    ap.add_argument("--designs", nargs="+", default=list(DESIGNS))
    ap.add_argument("--styles", nargs="+", default=list(STYLES))
    ap.add_argument("--blurs", nargs="+", type=int, default=list(range(1, len(BLURS))),
                    help="indices into BLURS (focus sigma px, smear px) to photograph")
    ap.add_argument("--json", help="write the per-photo records here")
    args = ap.parse_args(argv)
    recs = run(args.n, args.designs, args.styles, [BLURS[i] for i in args.blurs])
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(recs, fh, indent=1)
    print(table(recs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
