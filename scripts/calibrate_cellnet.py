"""Fit the map from a cell's evidence to P(read right) for the learned cell reader (`vision/cellread.py`).

    python scripts/calibrate_cellnet.py --out vision/data/cellcal.json [--photogen2 N] [--photogen3 N]
                                        [--photogen4 N] [--synthphoto N] [--procs 2] [--cache DIR]

Development photos only (photogen2/photogen3/photogen4 seeds 30,000 onwards, synthphoto seeds 400,000 onwards; the
held-out ranges are never read). Every photo is read by the whole reader, in-process; each drawable cell the
player did not name gives one row (`vision.cellread.CAL_FEATURES`) and whether the cell was read right. Sheets
read turned are left out, and so are sheets read the wrong way up whose way up the review asks (the chance of a
wrong way up is folded in by `vision.wayup`, not here); sheets whose grid was placed off without asking stay in:
their confident wrong cells are what the sheet's signals must learn to doubt.

Boosted trees (scikit-learn's HistGradientBoostingClassifier, exported node by node for `cellread.tree_logit`;
`--logistic` for a logistic regression instead) are fitted on two thirds of the photos; the last third prints the
reliability table (confidence bins → share right) of the fitted map beside the uncalibrated one, and how many
sheets would be right after review. Needs scikit-learn.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.cellread import CAL_FEATURES, apply_map  # noqa: E402

BINS = (0.0, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 1.0001)


def _job_list(args) -> list[tuple[str, tuple]]:
    from scripts.cellnet_data import jobs_for

    jobs = []
    for gen, n, start in (("photogen2", args.photogen2, 30_000), ("photogen3", args.photogen3, 30_000),
                          ("photogen4", args.photogen4, 30_000), ("synthphoto", args.synthphoto, 400_000)):
        if n:
            jobs += [(gen, j) for j in jobs_for(gen, n, start)]
    return jobs


def read_one(job: tuple[str, tuple]) -> dict | None:
    """The evidence rows and right/wrong of one development photo (None when refused or read turned)."""
    from scripts.cellnet_data import worker_photo
    from vision.errors import PhotoError
    from vision.reading import read_sheet

    gen, spec = job
    made = worker_photo(job)
    if made is None:
        return None
    data, truth = made
    try:
        r = read_sheet(data, overlay=False)
    except PhotoError:
        return None
    ev = r.evidence
    if ev is None or not hasattr(ev, "X"):
        return None
    tc = np.asarray(truth["centres"], float)
    rc = np.asarray(r.cell_centers_px, float)
    pitch = float(np.median(np.linalg.norm(np.diff(tc, axis=1), axis=-1)))
    off = [float(np.linalg.norm(np.rot90(rc, k, axes=(0, 1)) - tc, axis=-1).max()) for k in range(4)]
    # read turned, or read wrong way up and asked (turned and placed off too): the way-up stage's business
    # (vision.wayup), not this map's
    if off[0] > 0.5 * pitch and (min(off[1:]) < 0.5 * pitch or r.orientation_unsure):
        return None
    X, y = [], []
    for rr in range(11):
        for cc in range(11):
            if ev.use[rr, cc] and truth["grid"][rr][cc] not in ("mountain", "wasteland"):
                X.append(ev.X[rr, cc])
                y.append(r.grid[rr][cc] == truth["grid"][rr][cc])
    return {"X": np.array(X), "y": np.array(y), "gen": gen, "spec": spec}


# The boosted trees' settings, chosen on the development photos' check third (silent cells against flags and
# sheets right after review; 100–300 trees and 50–200 cells a leaf all within a few cells of each other).
TREES = {"max_iter": 100, "learning_rate": 0.05, "max_leaf_nodes": 15, "min_samples_leaf": 200,
         "l2_regularization": 1.0, "random_state": 0}


def export_trees(clf) -> dict:
    """A fitted binary HistGradientBoostingClassifier as plain lists for `vision.cellread.tree_logit`."""
    nodes = []
    for (tree,) in clf._predictors:
        n = tree.nodes
        nodes.append({"feature": n["feature_idx"].tolist(), "threshold": n["num_threshold"].tolist(),
                      "left": n["left"].tolist(), "right": n["right"].tolist(),
                      "leaf": n["is_leaf"].astype(int).tolist(), "value": n["value"].tolist()})
    return {"baseline": float(np.ravel(clf._baseline_prediction)[0]), "nodes": nodes}


def reliability(p: np.ndarray, y: np.ndarray) -> list[str]:
    """The reliability table (`vision.calibrate.reliability`, finer bins at the top) as lines, empty bins left out."""
    from vision.calibrate import reliability as table

    return [f"  [{b['lo']:.2f}, {b['hi']:.2f}): {b['cells']:6d} cells, mean conf {b['mean_confidence']:.3f}, "
            f"right {b['share_right']:.3f}" for b in table(p, y, BINS) if b["cells"]]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--photogen2", type=int, default=200)
    ap.add_argument("--photogen3", type=int, default=0)
    ap.add_argument("--photogen4", type=int, default=0)
    ap.add_argument("--synthphoto", type=int, default=100)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--cache", type=Path, help="keep the rows here (a pickle), to refit without reading again")
    ap.add_argument("--C", type=float, default=1.0, help="the logistic map's inverse regularisation")
    ap.add_argument("--logistic", action="store_true", help="a logistic map instead of boosted trees")
    args = ap.parse_args(argv)
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.linear_model import LogisticRegression

    if args.cache and args.cache.exists():
        recs = pickle.loads(args.cache.read_bytes())
    else:
        with ProcessPoolExecutor(args.procs) as pool:
            recs = [r for r in pool.map(read_one, _job_list(args), chunksize=1) if r is not None]
        if args.cache:
            args.cache.write_bytes(pickle.dumps(recs))
    cut = (2 * len(recs)) // 3
    fit, check = recs[:cut], recs[cut:]
    X = np.concatenate([r["X"] for r in fit])
    y = np.concatenate([r["y"] for r in fit])
    mean, scale = X.mean(0), X.std(0) + 1e-6
    if len(set(y.tolist())) < 2:  # every cell right (or wrong): nothing to tell apart, a constant
        share = (y.sum() + 0.5) / (len(y) + 1.0)
        coef, icpt = np.zeros(len(CAL_FEATURES)), float(np.log(share / (1.0 - share)))
    else:
        lr = LogisticRegression(C=args.C, max_iter=2000).fit((X - mean) / scale, y)
        coef, icpt = lr.coef_[0], float(lr.intercept_[0])
    model = {"features": list(CAL_FEATURES), "mean": mean.tolist(), "scale": scale.tolist(),
             "coef": np.asarray(coef).tolist(), "intercept": icpt,
             "fitted_on": f"{len(fit)} development photos, {len(y)} cells"}
    if not args.logistic and len(set(y.tolist())) == 2:
        model["trees"] = export_trees(HistGradientBoostingClassifier(**TREES).fit(X, y))
    Xc = np.concatenate([r["X"] for r in check])
    yc = np.concatenate([r["y"] for r in check])
    pc = apply_map(model, Xc)
    raw = 1 / (1 + np.exp(-Xc[:, CAL_FEATURES.index("q_logit")]))
    print(f"fitted on {len(fit)} photos ({len(y)} cells, {100 * y.mean():.1f} % right); checked on {len(check)} "
          f"photos ({len(yc)} cells)")
    for name, p in (("sheet-adapted probability", raw), ("calibrated", pc)):
        silent = ((~yc) & (p >= 0.7)).sum()
        print(f"{name}: silent {silent} = {100 * silent / len(yc):.2f} % of cells, "
              f"{100 * silent / max((~yc).sum(), 1):.1f} % of wrong cells")
        print("\n".join(reliability(p, yc)))
    ok = 0
    for r in check:
        p = apply_map(model, r["X"])
        ok += int(((~r["y"]) & (p >= 0.7)).sum() == 0 and (p < 0.7).sum() <= 10)
    print(f"sheets right after review (every wrong cell flagged, <= 10 flagged): {ok} of {len(check)}")
    args.out.write_text(json.dumps(model, indent=None if "trees" in model else 1) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
