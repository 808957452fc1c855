"""Random streams and small sampling helpers.

Every photo owns one `SeedSequence` built from (kind, style, difficulty, seed); each part of the
pipeline (map, sheet, player, camera, light, ...) gets its own child stream by name, so that a
change in how one part samples does not reshuffle the others.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

import numpy as np


def root_entropy(kind: str, style: str, difficulty: str, seed: int) -> list[int]:
    return [zlib.crc32(f"photogen3|{kind}|{style}|{difficulty}".encode()), int(seed)]


class Streams:
    """Named, independent random generators for one photo."""

    def __init__(self, kind: str, style: str, difficulty: str, seed: int):
        self._entropy = root_entropy(kind, style, difficulty, seed)

    def get(self, name: str) -> np.random.Generator:
        ss = np.random.SeedSequence(self._entropy + [zlib.crc32(name.encode())])
        return np.random.default_rng(ss)


def pick(rng: np.random.Generator, items: Sequence, weights: Sequence[float] | None = None):
    """One item, optionally weighted (weights need not sum to 1)."""
    if weights is None:
        return items[int(rng.integers(len(items)))]
    w = np.asarray(weights, dtype=float)
    return items[int(rng.choice(len(items), p=w / w.sum()))]


def chance(rng: np.random.Generator, p: float) -> bool:
    return bool(rng.random() < p)


def uni(rng: np.random.Generator, lo: float, hi: float) -> float:
    return float(rng.uniform(lo, hi))


def tri(rng: np.random.Generator, lo: float, mode: float, hi: float) -> float:
    return float(rng.triangular(lo, mode, hi))


def jsonable(obj):
    """Numbers, lists and dicts only: numpy scalars and arrays, tuples and floats rounded for the truth JSON."""
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return jsonable(obj.tolist())
    if isinstance(obj, (bool, np.bool_)):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return round(float(obj), 4)
    return obj
