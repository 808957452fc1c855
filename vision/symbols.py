"""The small learned symbol model: dark-stroke shape descriptor → probability per drawable terrain.

A multinomial logistic regression trained offline by `scripts/train_symbols.py` on thousands of rendered
symbols (several designs per terrain, many hands: size, slant, shear, stroke width, pressure, tremor,
with or without a colour fill underneath, blur, noise) plus letters and scribbles as an "other" class.
The weights (`vision/data/symbols.npz`, a few kB) ship with the code; nothing is downloaded. A cell the
model calls "other" (letters, unknown designs) spreads its probability evenly: such groups are named by
a tap.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from companion.cartographers.terrain import DRAWABLE as TERRAIN_DRAWABLE

DRAWABLE: tuple[str, ...] = tuple(t.value for t in TERRAIN_DRAWABLE)
MODEL_PATH = Path(__file__).with_name("data") / "symbols.npz"


@lru_cache(maxsize=1)
def _model(path: str = str(MODEL_PATH)) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]] | None:
    p = Path(path)
    if not p.exists():
        return None
    with np.load(p, allow_pickle=False) as z:
        return z["coef"].astype(np.float32), z["intercept"].astype(np.float32), tuple(str(c) for c in z["classes"])


def available() -> bool:
    return _model() is not None


def predict(shapes: np.ndarray) -> np.ndarray | None:
    """(n, 5) probabilities over DRAWABLE for (n, D) shape descriptors; None when no model is shipped."""
    m = _model()
    if m is None or len(shapes) == 0:
        return None
    coef, intercept, classes = m
    z = shapes.astype(np.float32) @ coef.T + intercept
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    out = np.zeros((len(shapes), len(DRAWABLE)), np.float32)
    for j, c in enumerate(classes):
        if c in DRAWABLE:
            out[:, DRAWABLE.index(c)] += p[:, j]
        else:  # "other": no terrain evidence
            out += p[:, j : j + 1] / len(DRAWABLE)
    blank = np.abs(shapes).sum(axis=1) == 0
    out[blank] = 1.0 / len(DRAWABLE)
    return out
