"""Which way up, as a probability: the evidence for `vision.wayup`'s slope, and the silent errors it removes.

    python -m bench.bench_wayup [--start 100] [--n 4] [--kinds squared handruled generic pad]
                                [--ours 8] [--ours-seed 210000] [--fit] [--json]

Reads photogen2 DEV photos (through its public `generate`, a black box) and our own generator's hand-ruled, squared
and generic sheets photographed at 0/90/180/270° in-process, unanswered (`quarter_turns=None`), and records for each
found sheet whether it asked the way up, the decision's leads (`SheetReading.orientation_leads`) and the true turn
(from the true cell centres, as bench_vision2 measures it). Then, for the asked sheets:

  P(right | asked)     share of asked sheets read the right way up, and by lead to the nearest rival
  log-likelihood       of the true turn under `wayup.turn_probabilities` for each slope tried (`--fit` prints the
                       best one; LEAD_SLOPE is what ships)
  silent               wrong drawable cells with confidence >= 0.7, with the confidence as if the way up were
                       right (before this stage) and after it, and the cells flagged (< 0.7) both ways
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from vision import wayup
from vision.errors import PhotoError
from vision.geometry import printed_cells
from vision.reading import read_sheet

FIXED = {"mountain", "wasteland"}
SLOPES = (0.5, 1, 1.5, 2, 3, 4, 5, 6, 8, 10, 14, 20)


def true_turn(centres, truth_centres) -> int | None:
    """Quarter turns clockwise that put the reading on the truth, from the cell centres (None when they do not fit)."""
    cc, tc = np.asarray(centres, float), np.asarray(truth_centres, float)
    cell = float(np.median(np.linalg.norm(np.diff(tc, axis=1), axis=2)))
    d = [float(np.linalg.norm(np.rot90(cc, k, axes=(0, 1)) - tc, axis=-1).max() / cell) for k in range(4)]
    k = int(np.argmin(d))
    return (-k) % 4 if d[k] < 0.5 else None


def record(source: str, data: bytes, grid, centres) -> dict | None:
    try:
        r = read_sheet(data, overlay=False)
    except PhotoError as exc:
        return {"source": source, "found": False, "code": exc.code}
    K = true_turn(r.cell_centers_px, centres)
    tg = np.array(grid, dtype=object)
    drawable = ~np.isin(tg, list(FIXED))
    right = (np.array(r.grid, dtype=object) == tg) & drawable
    after = np.asarray(r.confidence, float)
    before = after if r.confidence_if_upright is None else np.asarray(r.confidence_if_upright, float)
    return {"source": source, "found": True, "asked": r.orientation_unsure, "K": K, "side": r.side,
            "leads": [float(v) for v in r.orientation_leads], "grid": r.grid, "truth": grid,
            "before": before.tolist(), "after": after.tolist(), "right": right.tolist(),
            "drawable": drawable.tolist()}


def photogen2_records(kinds, difficulties, start: int, n: int) -> list[dict]:
    from bench.bench_vision2 import style_for
    from bench.photogen2 import STYLES, generate

    out = []
    for kind in kinds:
        for diff in difficulties:
            for i in range(n):
                seed = start + i
                photo = generate(kind, style_for(list(STYLES), kind, diff, seed), diff, seed)
                t = photo.truth
                out.append(record(f"photogen2 {kind} {diff} {seed}", photo.jpeg, t["grid"],
                                  t["params"]["geometry"]["cell_centers_px"]))
                print(".", end="", file=sys.stderr, flush=True)
    return out


def ours_records(n: int, seed0: int) -> list[dict]:
    from bench.bench_geometry import spec_for
    from bench.synthphoto import make_photo

    out = []
    for ki, kind in enumerate(("hand-ruled notebook", "squared paper", "generic print")):
        for k in range(n):
            seed = seed0 + ki * 1000 + k
            p = make_photo(seed, spec_for(kind, k, k % 2 == 1, turns=True))
            out.append(record(f"ours {kind} {seed}", p.data, p.grid, p.cell_centers))
            print(".", end="", file=sys.stderr, flush=True)
    return out


def figures(recs: list[dict], slope: float) -> dict:
    """Silent errors and flags over the found sheets, with the asked sheets' confidence recomputed at `slope`."""
    tot = {"sheets": 0, "asked": 0, "asked_turned": 0, "silent_before": 0, "silent_after": 0, "flagged_before": 0,
           "flagged_after": 0, "silent_asked_turned_before": 0, "silent_asked_turned_after": 0}
    for r in recs:
        if not r or not r["found"]:
            continue
        tot["sheets"] += 1
        right, use = np.array(r["right"]), np.array(r["drawable"])
        before = np.array(r["before"])
        after = before
        if r["asked"]:
            tot["asked"] += 1
            printed = wayup.printed_mask(printed_cells(r["side"]))
            after = wayup.unsure_confidence(r["grid"], before, printed, r["leads"], slope)
        turned = r["asked"] and r["K"] not in (0, None)
        tot["asked_turned"] += bool(turned)
        for name, c in (("before", before), ("after", after)):
            silent = int(((c >= 0.7) & ~right & use).sum())
            tot[f"silent_{name}"] += silent
            tot[f"flagged_{name}"] += int(((c < 0.7) & use).sum())
            if turned:
                tot[f"silent_asked_turned_{name}"] += silent
    return tot


def likelihood(recs: list[dict], slope: float) -> float:
    ll = 0.0
    for r in recs:
        if r and r["found"] and r["asked"] and r["K"] is not None:
            ll += float(np.log(max(wayup.turn_probabilities(r["leads"], slope)[r["K"]], 1e-6)))
    return ll


def by_lead(recs: list[dict]) -> list[dict]:
    asked = [r for r in recs if r and r["found"] and r["asked"] and r["K"] is not None]
    out = []
    for lo, hi in ((0, 0.05), (0.05, 0.1), (0.1, 0.2), (0.2, 0.5), (0.5, 1e9)):
        sel = [r for r in asked if lo <= min(r["leads"][1:]) < hi]
        out.append({"lead": f"{lo}-{hi if hi < 1e8 else 'inf'}", "asked": len(sel),
                    "right": sum(r["K"] == 0 for r in sel)})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.bench_wayup", description=__doc__.split("\n\n")[0])
    ap.add_argument("--start", type=int, default=100, help="first photogen2 DEV seed")
    ap.add_argument("--n", type=int, default=4, help="photogen2 photos per kind x difficulty")
    ap.add_argument("--kinds", nargs="+", default=["squared", "handruled", "generic", "pad"])
    ap.add_argument("--difficulties", nargs="+", default=["normal", "hard"])
    ap.add_argument("--ours", type=int, default=8, help="our generator's photos per kind (0: none)")
    ap.add_argument("--ours-seed", type=int, default=210_000, help="first seed of ours (dev: below 500,000)")
    ap.add_argument("--fit", action="store_true", help="print the slope of the best likelihood")
    ap.add_argument("--save", help="write the records here (JSON)")
    ap.add_argument("--load", nargs="+", help="read records saved earlier instead of reading photos")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.load:
        recs = [r for path in args.load for r in json.loads(Path(path).read_text())]
    else:
        recs = photogen2_records(args.kinds, args.difficulties, args.start, args.n) if args.n else []
        recs += ours_records(args.ours, args.ours_seed) if args.ours else []
        print(file=sys.stderr)
    if args.save:
        with open(args.save, "w") as fh:
            json.dump(recs, fh)
    out = {"shipped_slope": wayup.LEAD_SLOPE, "by_lead": by_lead(recs),
           "likelihood": {str(s): round(likelihood(recs, s), 2) for s in SLOPES},
           "figures": figures(recs, wayup.LEAD_SLOPE)}
    for src in ("photogen2", "ours"):
        sub = [r for r in recs if r and r["source"].startswith(src)]
        if sub:
            out[f"figures_{src}"] = figures(sub, wayup.LEAD_SLOPE)
    if args.fit:
        out["best_slope"] = max(SLOPES, key=lambda s: likelihood(recs, s))
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
