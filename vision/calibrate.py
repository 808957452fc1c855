"""Classification stage 4: turn a raw cell score into the probability that the cell is read right.

The raw score multiplies the stages' own certainties (filled or not, which group, the group's name).
Those are not probabilities: a shape margin of 0.3 may be right 99 % of the time on one hand and 80 % on
another. An isotonic map per reading path (`legend`: our sheet with its legend drawn in; `learned`:
groups named from priors and the symbol model), fitted by `scripts/calibrate.py` on synthetic photos from
development seeds and checked on held-out seeds, makes the number mean what it says. Cells named by the
player keep their own (high) score: their group's name is certain.

Sheet-level sanity lowers it further: one class taking nearly every cell (a misread style), a legend
that disagrees with what the map shows, glare.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import numpy as np

TABLE_PATH = Path(__file__).with_name("data") / "calibration.json"
DOUBT = 0.7  # vision.reading.CONFIDENCE_THRESHOLD (not imported: reading imports this module's users)
TOP_RAW = 0.999  # raw scores at least this form the top bin of the fit
MIN_BIN = 5  # fewer cells than this in a bin say nothing
DOMINANT_SHARE = 0.85  # one terrain on more than this share of ≥ 20 filled cells is suspicious
DOMINANT_CAP = 0.6


@lru_cache(maxsize=4)
def _tables(path: str = str(TABLE_PATH)) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    p = Path(path)
    if not p.exists():
        return {}
    raw = json.loads(p.read_text())
    return {k: (np.asarray(v["x"], float), np.asarray(v["y"], float)) for k, v in raw.get("maps", {}).items()}


def calibrated(raw: np.ndarray, path: str) -> np.ndarray:
    """Raw scores (any shape, 0..1) → calibrated probabilities via the fitted monotone map for `path`."""
    t = _tables().get(path)
    if t is None:
        return np.asarray(raw, float)
    x, y = t
    r = np.asarray(raw, float)
    out = np.interp(r, x, y)
    # Calibration never promotes a cell the stages doubted: their caps (glare, a dominant class, foreign ruins)
    # live in the raw score, and a doubtful cell must stay on the review screen.
    return np.where(r < DOUBT, np.minimum(out, DOUBT - 0.01), out)


def fit_isotonic(raw: np.ndarray, right: np.ndarray, bins: int = 40) -> dict[str, list[float]]:
    """A monotone map raw → share right (pool-adjacent-violators on quantile bins; no SciPy needed)."""
    order = np.argsort(raw)
    r, ok = np.asarray(raw, float)[order], np.asarray(right, float)[order]
    # Many cells score exactly 1: they get a bin of their own, the rest is cut into quantile bins.
    top = r >= TOP_RAW
    low = r[~top]
    inner = np.unique(np.quantile(low, np.linspace(0, 1, bins))) if len(low) else np.zeros(0)
    edges = np.unique(np.concatenate([[0.0], inner, [TOP_RAW, 1.0 + 1e-9]]))
    xs, ys, ws = [], [], []
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        m = (r >= lo) & (r < hi)
        if m.sum() >= MIN_BIN or (m.any() and lo >= TOP_RAW):
            xs.append(float(r[m].mean()))
            ys.append(float(ok[m].mean()))
            ws.append(float(m.sum()))
    # pool adjacent violators
    blocks = [[x, y, w] for x, y, w in zip(xs, ys, ws, strict=True)]
    i = 0
    while i < len(blocks) - 1:
        if blocks[i][1] > blocks[i + 1][1]:
            a, b = blocks[i], blocks[i + 1]
            w = a[2] + b[2]
            blocks[i] = [(a[0] * a[2] + b[0] * b[2]) / w, (a[1] * a[2] + b[1] * b[2]) / w, w]
            del blocks[i + 1]
            i = max(i - 1, 0)
        else:
            i += 1
    x = [0.0] + [b[0] for b in blocks] + [1.0]
    y = [min(blocks[0][1], 0.5)] + [b[1] for b in blocks] + [blocks[-1][1]]
    # Between the top bin and the one below it the map must not rise earlier than the data did.
    if len(x) >= 3 and x[-2] >= TOP_RAW and x[-3] < TOP_RAW:
        x.insert(-2, min(TOP_RAW - 1e-4, max(x[-3], TOP_RAW - 0.01)))
        y.insert(-2, y[-3])
    return {"x": [round(v, 5) for v in x], "y": [round(v, 5) for v in y]}


def reliability(conf: np.ndarray, right: np.ndarray, edges=(0.0, 0.3, 0.5, 0.7, 0.9, 0.97, 1.0001)) -> list[dict]:
    """Confidence bins → number of cells and share right (the benchmark's reliability table)."""
    conf, right = np.asarray(conf, float), np.asarray(right, bool)
    out = []
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        m = (conf >= lo) & (conf < hi)
        out.append({"lo": lo, "hi": min(hi, 1.0), "cells": int(m.sum()),
                    "mean_confidence": float(conf[m].mean()) if m.any() else None,
                    "share_right": float(right[m].mean()) if m.any() else None})
    return out


def dominant_terrain(labels: list[str]) -> str | None:
    """The terrain on more than DOMINANT_SHARE of at least 20 filled cells, if any."""
    filled = [t for t in labels if t != "empty"]
    if len(filled) < 20:
        return None
    names, counts = np.unique(filled, return_counts=True)
    k = int(np.argmax(counts))
    return str(names[k]) if counts[k] / len(filled) > DOMINANT_SHARE else None
