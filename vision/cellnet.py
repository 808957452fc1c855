"""The learned cell reader: a small convolutional network, cell patch → P(empty, forest, village, farm, water,
monster), and the features before its last layer (how the cell looks: like cells are alike there).

Why a network: a player's cell is a colour fill, hatching, a symbol, a letter or a mix, in any medium and
light. Hand-set thresholds on ink and hue (vision.features, vision.naming) each broke on some medium (yellow
marker whitened to paper, pale pencil read empty, blue ballpoint read grey); one model trained on many rendered
hands from more than one generator (`scripts/train_cellnet.py`) sees all of the cell at once.

The weights (`vision/data/cellnet.npz`, well under 1 MB) ship with the code; the forward pass is NumPy only
(im2col and one matrix product per layer, batch norm folded into the convolutions), so nothing is
downloaded and no deep-learning library is needed to read a photo.

The file may hold several models trained alike from different seeds (`scripts/join_cellnet.py`): their
probabilities are averaged. Why: two such models are wrong on different cells, and where they disagree the
average is unsure, so it is wrong less often and less often sure when wrong than either alone (measured on
validation patches, `bench/README.md`).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

CLASSES = ("empty", "forest", "village", "farm", "water", "monster")
MODEL_PATH = Path(__file__).with_name("data") / "cellnet.npz"
MEMBER_SEP = "::"  # a joined file's second and later models keep their arrays as "1::w0", "1::plan", …


@lru_cache(maxsize=2)
def _model(path: str = str(MODEL_PATH)) -> dict[str, np.ndarray] | None:
    p = Path(path)
    if not p.exists():
        return None
    with np.load(p, allow_pickle=False) as z:
        return {k: z[k] for k in z.files}


def members(m: dict[str, np.ndarray]) -> list[dict[str, np.ndarray]]:
    """The models in a loaded file: the unprefixed arrays, then each joined model's (`MEMBER_SEP`)."""
    n = int(m.get("members", 1))
    out = [{k: v for k, v in m.items() if MEMBER_SEP not in k and k != "members"}]
    for j in range(1, n):
        pre = f"{j}{MEMBER_SEP}"
        out.append({k[len(pre):]: v for k, v in m.items() if k.startswith(pre)})
    return out


def joined(models: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """One file's arrays holding `models` (the inverse of `members`)."""
    out = dict(models[0])
    for j, m in enumerate(models[1:], start=1):
        out.update({f"{j}{MEMBER_SEP}{k}": v for k, v in m.items()})
    out["members"] = np.int32(len(models))
    return out


@lru_cache(maxsize=2)
def _members(path: str) -> list[dict[str, np.ndarray]] | None:
    m = _model(path)
    return None if m is None else members(m)


def available(path: Path | None = None) -> bool:
    return _model(str(path or MODEL_PATH)) is not None


def model_at(path: Path) -> dict[str, np.ndarray] | None:
    """The arrays of a model file in `forward`'s format (loaded once), or None when it is missing."""
    return _model(str(path))


def _conv(x: np.ndarray, w: np.ndarray, b: np.ndarray, stride: int) -> np.ndarray:
    """'same'-padded convolution of (n, h, w, cin) by (k, k, cin, cout) weights, then ReLU.

    im2col as k² shifted slices laid side by side (contiguous copies, in the weights' (dy, dx, cin) order),
    then one matrix product.
    """
    k = w.shape[0]
    p = k // 2
    n, h, ww, cin = x.shape
    xp = np.pad(x, ((0, 0), (p, p), (p, p), (0, 0)))
    ho, wo = (h - 1) // stride + 1, (ww - 1) // stride + 1
    cols = np.empty((n, ho, wo, k * k * cin), np.float32)
    for dy in range(k):
        for dx in range(k):
            j = (dy * k + dx) * cin
            cols[..., j : j + cin] = xp[:, dy : dy + stride * ho : stride, dx : dx + stride * wo : stride]
    out = cols.reshape(n * ho * wo, -1) @ w.reshape(-1, w.shape[-1])
    out += b
    np.maximum(out, 0, out=out)
    return out.reshape(n, ho, wo, -1)


def _pool(x: np.ndarray) -> np.ndarray:
    n, h, w, c = x.shape
    return x[:, : h // 2 * 2, : w // 2 * 2].reshape(n, h // 2, 2, w // 2, 2, c).max(axis=(2, 4))


def forward(m: dict[str, np.ndarray], patches: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(logits (n, 6), embedding (n, E)) of (n, S, S, 3) patches as `vision.cellpatch.cell_patches` makes them.

    The layer plan is stored with the weights (`plan`: per convolution its stride and whether a 2×2 max pool
    follows), so a retrained model with other layers needs no code change.
    """
    x = patches.astype(np.float32) - 1.0
    plan = m["plan"]
    for i, (stride, pool) in enumerate(plan):
        x = _conv(x, m[f"w{i}"], m[f"b{i}"], int(stride))
        if pool:
            x = _pool(x)
    emb = x.mean(axis=(1, 2))
    return emb @ m["fc_w"] + m["fc_b"], emb


def predict(patches: np.ndarray, path: Path | None = None) -> tuple[np.ndarray, np.ndarray] | None:
    """(probabilities (n, 6), embedding (n, E)) or None when no model is installed.

    With several models in the file, the mean of their probabilities and the first model's embedding (the
    look the groups' similarity thresholds were set on)."""
    ms = _members(str(path or MODEL_PATH))
    if ms is None:
        return None
    probs, emb = zip(*(_one(m, patches) for m in ms), strict=True)
    return np.mean(probs, axis=0), emb[0]


def forward_batched(m: dict[str, np.ndarray], patches: np.ndarray, batch: int = 128) -> tuple[np.ndarray, np.ndarray]:
    """`forward` over any number of patches, `batch` at a time (bounded im2col buffers)."""
    out_l, out_e = [], []
    for k in range(0, len(patches), batch):
        lg, e = forward(m, patches[k : k + batch])
        out_l.append(lg)
        out_e.append(e)
    return np.concatenate(out_l), np.concatenate(out_e)


def _one(m: dict[str, np.ndarray], patches: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    logits, emb = forward_batched(m, patches)
    logits = logits / float(m.get("temperature", 1.0))
    z = np.exp(logits - logits.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True), emb
