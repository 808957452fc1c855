"""The learned likeness of cells: cell patch → a unit vector, near for cells one hand drew alike.

Why a second model beside the cell reader (`vision.cellnet`): the sheet's own classes (`vision.groups`) are the
map's cells grouped by how they look, named once by the player (one tap) where the reader is unsure. The cell
reader learnt what each terrain usually looks like, so two symbols it never saw look alike to it whenever both
resemble the same known one; hand-made measurements (hue histograms, stroke shape) tell a slanted tree from an
upright one. This model was trained (`scripts/train_cellsim.py`) on one question only — did the same hand draw
these two cells the same way — from photos of many players' sheets, each photo compared with itself only. Same
layers as the cell reader, NumPy forward pass (`vision.cellnet.forward`), weights in `vision/data/cellsim.npz`
(well under 1 MB); nothing is downloaded.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision import cellnet

MODEL_PATH = Path(__file__).with_name("data") / "cellsim.npz"


def available(path: Path | None = None) -> bool:
    return cellnet.model_at(path or MODEL_PATH) is not None


def vectors(patches: np.ndarray, path: Path | None = None) -> np.ndarray | None:
    """(n, D) unit likeness vectors of (n, S, S, 3) patches (`vision.cellpatch`), or None without a model."""
    m = cellnet.model_at(path or MODEL_PATH)
    if m is None:
        return None
    if len(patches) == 0:
        return np.zeros((0, m["fc_b"].shape[0]), np.float32)
    v = cellnet.forward_batched(m, patches)[0]
    return v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-6)


def distances(v: np.ndarray) -> np.ndarray:
    """(n, n) 1 − cosine of unit vectors: 0 drawn alike .. 2 opposite."""
    return np.clip(1.0 - v @ v.T, 0.0, 2.0).astype(np.float32)
