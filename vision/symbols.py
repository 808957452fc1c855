"""The small learned symbol model: dark-stroke shape descriptor → probability per drawable terrain.

A one-hidden-layer perceptron (or, in the earlier format, a multinomial logistic regression) trained
offline by `scripts/train_symbols.py` on cells from two generators: our rendered symbols (several designs
per terrain, many hands: size, slant, shear, stroke width, pressure, tremor, with or without a colour fill
underneath, blur, noise) and photogen2's dev photos read by our own reader, with letters and scribbles as
an "other" class. The weights (`vision/data/symbols.npz`, well under 1 MB) ship with the code and are
evaluated with numpy; nothing is downloaded. A cell the
model calls "other" (scribbles, unknown designs) spreads its probability evenly: such groups are named by
a tap; a written initial is evidence for its terrain (`LETTER_TRUST`).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from companion.cartographers.terrain import DRAWABLE as TERRAIN_DRAWABLE

DRAWABLE: tuple[str, ...] = tuple(t.value for t in TERRAIN_DRAWABLE)
MODEL_PATH = Path(__file__).with_name("data") / "symbols.npz"


OTHER = "other"  # scribbles, unknown designs: no terrain evidence (such groups are named by a tap)
LETTER = "letter-"  # prefix of the initials' classes ("letter-forest" = F or O)
LETTER_TRUST = 0.8  # share of an initial's probability that goes to its terrain (the rest is spread evenly)


@lru_cache(maxsize=1)
def _model(path: str = str(MODEL_PATH)) -> dict[str, np.ndarray] | None:
    p = Path(path)
    if not p.exists():
        return None
    with np.load(p, allow_pickle=False) as z:
        m = {k: z[k] for k in z.files}
    if "coef" in m:  # the earlier format: one logistic layer over the raw descriptor
        m = {"w0": m["coef"].T, "b0": m["intercept"], "classes": m["classes"]}
    m = {k: (v if k == "classes" else v.astype(np.float32)) for k, v in m.items()}
    m["classes"] = np.array([str(c) for c in m["classes"]])
    return m


def available() -> bool:
    return _model() is not None


def logits(m: dict[str, np.ndarray], shapes: np.ndarray) -> np.ndarray:
    """Class scores of a model's layers (standardise, then ReLU between the layers) for (n, D) descriptors."""
    z = shapes.astype(np.float32)
    if "mean" in m:
        z = (z - m["mean"]) / m["scale"]
    n_layers = sum(1 for k in m if k.startswith("w"))
    for i in range(n_layers):
        z = z @ m[f"w{i}"] + m[f"b{i}"]
        if i < n_layers - 1:
            z = np.maximum(z, 0)
    return z


def class_probs(shapes: np.ndarray) -> tuple[np.ndarray, tuple[str, ...]] | None:
    """(n, classes) probabilities and the class names (the terrains and "other"), None without a model."""
    m = _model()
    if m is None:
        return None
    z = logits(m, shapes)
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    return p, tuple(m["classes"].tolist())


def terrain_probs(p: np.ndarray, classes: tuple[str, ...]) -> np.ndarray:
    """(n, 5) probabilities over DRAWABLE from (n, classes) class probabilities of the model."""
    out = np.zeros((len(p), len(DRAWABLE)), np.float32)
    for j, c in enumerate(classes):
        if c in DRAWABLE:
            out[:, DRAWABLE.index(c)] += p[:, j]
        elif c.startswith(LETTER) and c[len(LETTER):] in DRAWABLE:
            # An initial is the terrain's own letter (F V A W M as on our overlay, or the rules' Turkish
            # O K T S C; the ten letters are all different): evidence for it, a little less sure than a symbol.
            out[:, DRAWABLE.index(c[len(LETTER):])] += LETTER_TRUST * p[:, j]
            out += (1 - LETTER_TRUST) * p[:, j : j + 1] / len(DRAWABLE)
        else:  # "other" (scribbles, unknown designs): no terrain evidence
            out += p[:, j : j + 1] / len(DRAWABLE)
    return out


def predict(shapes: np.ndarray) -> np.ndarray | None:
    """(n, 5) probabilities over DRAWABLE for (n, D) shape descriptors; None when no model is shipped."""
    if _model() is None or len(shapes) == 0:
        return None
    p, classes = class_probs(shapes)
    out = terrain_probs(p, classes)
    blank = np.abs(shapes).sum(axis=1) == 0
    out[blank] = 1.0 / len(DRAWABLE)
    return out
