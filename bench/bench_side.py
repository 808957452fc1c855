"""Which side, without markers: how often the side decision is right by its lead, and the fit of `vision.sideprob`.

    python -m bench.bench_side [--start 50000] [--n 252] [--gens photogen2 photogen3] [--jobs 2] [--fit] [--json]

Generates DEVELOPMENT photos of both independent generators (the kinds, styles and difficulties round-robin, as
`scripts/cellnet_data.py` does for training: seeds below 100,000 only) and places each sheet as `read_sheet` does
(`vision.reading.locate`: markers, else the lattice and its orientation). For the sheets placed without markers
whose side the cues decided (the side's lead is finite), it prints how often the side is right by lead, and with
`--fit` the logistic P(side right | lead) that `vision.sideprob` ships (SIDE_BIAS, SIDE_SLOPE).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from concurrent.futures import ProcessPoolExecutor
from functools import partial

import numpy as np

BINS = (0.0, 0.1, 0.2, 0.4, math.inf)


def place(job: tuple, look: bool = False) -> dict | None:
    """(generator, job) → {"right": side right, "lead": the side's lead, "markers": placed by markers}; with
    `look`, the whole sheet is read and "look" is the mountains' look margin for the side the cues chose (None
    when the look turned the sheet over: "turned", or when the side was not the reader's choice)."""
    import cv2

    from scripts.cellnet_data import worker_photo
    from vision.errors import PhotoError
    from vision.load import load_photo
    from vision.reading import locate, read_sheet

    made = worker_photo(job)
    if made is None:
        return None
    data, truth = made
    try:
        photo = load_photo(data)
        loc = locate(photo.image, cv2.cvtColor(photo.image, cv2.COLOR_BGR2GRAY), None, None)
        reading = read_sheet(data, overlay=False) if look and loc.method != "markers" else None
    except PhotoError:
        return None
    out = {"right": loc.side == truth["side"], "lead": loc.side_lead, "markers": loc.method == "markers"}
    if reading is not None:
        ev = reading.side_evidence
        out["look"] = ev[1] if ev is not None else None
        out["turned"] = reading.side != loc.side
        out["right_after_look"] = reading.side == truth["side"]
    return out


def fit(x: np.ndarray, right: np.ndarray) -> tuple[float, ...]:
    """Maximum-likelihood (bias, weights…) of P(right) = 1 / (1 + exp(-(bias + x · weights))); `x` is one column
    (the lead) or two (the lead and the look margin)."""
    from sklearn.linear_model import LogisticRegression

    x = x.reshape(len(x), -1)
    m = LogisticRegression(C=1e4).fit(x, right)
    return (float(m.intercept_[0]), *(float(w) for w in m.coef_[0]))


def main(argv: list[str] | None = None) -> int:
    from scripts.cellnet_data import jobs_for

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--start", type=int, default=50_000)
    ap.add_argument("--n", type=int, default=252, help="photos per generator")
    ap.add_argument("--gens", nargs="+", default=["photogen2", "photogen3"])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--fit", action="store_true", help="fit the logistic that vision.sideprob ships")
    ap.add_argument("--look", action="store_true",
                    help="read each unmarked sheet whole: the mountains' look too (vision.sidelook), and with --fit "
                         "the logistic in the lead and the look margin")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--records", help="write every placed sheet's record (JSON lines) to this file")
    args = ap.parse_args(argv)
    if args.start + args.n > 100_000:
        ap.error("development seeds only (below 100,000)")
    jobs = [(g, j) for g in args.gens for j in jobs_for(g, args.n, args.start)]
    with ProcessPoolExecutor(args.jobs) as pool:
        recs = [r for r in pool.map(partial(place, look=args.look), jobs, chunksize=2) if r is not None]
    if args.records:
        with open(args.records, "w") as f:
            f.writelines(json.dumps(r) + "\n" for r in recs)
    decided = [r for r in recs if not r["markers"] and math.isfinite(r["lead"])]
    lead = np.array([r["lead"] for r in decided], float)
    right = np.array([r["right"] for r in decided], bool)
    out = {"photos": len(jobs), "placed": len(recs), "by_markers": sum(r["markers"] for r in recs),
           "side_given_by_markers_seen": sum(not r["markers"] and not math.isfinite(r["lead"]) for r in recs),
           "decided": len(decided), "wrong": int((~right).sum()), "bins": []}
    for lo, hi in zip(BINS[:-1], BINS[1:], strict=True):
        m = (lead >= lo) & (lead < hi)
        out["bins"].append({"lead": [lo, hi], "sheets": int(m.sum()),
                            "right": round(float(right[m].mean()), 3) if m.any() else None})
    if args.fit:
        out["bias"], out["slope"] = (round(v, 3) for v in fit(lead, right))
    if args.look:
        looked = [r for r in decided if r.get("look") is not None]
        out["turned"] = sum(bool(r.get("turned")) for r in decided)
        out["turned_right"] = sum(bool(r.get("turned")) and r["right_after_look"] for r in decided)
        out["looked"], out["looked_wrong"] = len(looked), sum(not r["right"] for r in looked)
        if args.fit and looked:
            x = np.array([(r["lead"], r["look"]) for r in looked], float)
            out["look_bias"], out["look_lead"], out["look_weight"] = (
                round(v, 3) for v in fit(x, np.array([r["right"] for r in looked], bool)))
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"photos {out['photos']}, placed {out['placed']} ({out['by_markers']} by markers, "
          f"{out['side_given_by_markers_seen']} with the side from one or two markers seen); "
          f"side decided by the cues: {out['decided']}, wrong {out['wrong']}")
    for b in out["bins"]:
        print(f"  lead {b['lead'][0]:.1f}-{b['lead'][1]:.1f}: {b['sheets']} sheets, side right {b['right']}")
    if args.fit:
        print(f"fit: SIDE_BIAS {out['bias']}, SIDE_SLOPE {out['slope']}")
    if args.look:
        print(f"turned over by the look: {out['turned']} ({out['turned_right']} to the right side); kept by the "
              f"look: {out['looked']}, wrong {out['looked_wrong']}")
        if "look_bias" in out:
            print(f"fit with the look: LOOK_BIAS {out['look_bias']}, LOOK_LEAD {out['look_lead']}, "
                  f"LOOK_WEIGHT {out['look_weight']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
