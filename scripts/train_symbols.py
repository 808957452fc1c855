"""Train the symbol model shipped as vision/data/symbols.npz (run offline; CI runs it on a small set).

    python scripts/train_symbols.py                 # full model (about 1 minute)
    python scripts/train_symbols.py --n 60 --out /tmp/symbols.npz --check   # CI: small model + sanity check

Samples are rendered cells (bench/symbolart.py designs, many hands), degraded like a phone photo after
light normalisation, and measured by exactly the runtime feature code (vision.features). Seeds 0..999,999
train; `--check` scores on seeds from 1,000,000 (held out) and fails below a floor.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.symbolart import DESIGNS, LETTERS, letter_strokes, render  # noqa: E402
from vision.features import SHAPE_MARGIN, crop, planes, shape_descriptor  # noqa: E402
from vision.symbols import MODEL_PATH  # noqa: E402

CELL = 57  # canonical cell size in pixels (vision.geometry: 38 pt × 1.5)
FILLS = ((0.2, 0.6, 0.25), (0.9, 0.8, 0.2), (0.3, 0.4, 0.9), (0.8, 0.2, 0.2), (0.6, 0.3, 0.6), (0.5, 0.35, 0.2))
INKS = ((0.3, 0.3, 0.32), (0.15, 0.15, 0.2), (0.1, 0.12, 0.35), (0.45, 0.45, 0.45))  # graphite, black, ballpoint


def sample(kind: str, rng: np.random.Generator) -> np.ndarray:
    """One rendered, degraded cell's stroke-shape descriptor; kind = terrain or "other"."""
    pad = CELL // 3
    S = CELL + 2 * pad
    if kind == "other":
        if rng.random() < 0.7:
            m = np.zeros((S, S), np.uint8)
            lm = letter_strokes(LETTERS[int(rng.integers(len(LETTERS)))], int(CELL * rng.uniform(0.6, 0.95)), rng)
            o = pad + (CELL - lm.shape[0]) // 2 + rng.integers(-4, 5, 2)
            m[o[1] : o[1] + lm.shape[0], o[0] : o[0] + lm.shape[1]] = lm
        else:  # scribble
            pts = rng.uniform(0.2, 0.8, (int(rng.integers(3, 8)), 2))
            m = render([(pts, False)], CELL, pad, pad, S, rng)
    else:
        design = DESIGNS[kind][int(rng.integers(len(DESIGNS[kind])))]
        m = render(design(rng), CELL, pad, pad, S, rng)
    page = np.ones((S, S, 3), np.float32)
    if rng.random() < 0.35:  # a colour fill under the symbol (hatching or a wash)
        fill = np.array(FILLS[int(rng.integers(len(FILLS)))][::-1], np.float32)
        alpha = rng.uniform(0.3, 0.8)
        wash = np.zeros((S, S), np.float32)
        if rng.random() < 0.5:
            wash[pad:-pad, pad:-pad] = 1.0
        else:
            step = int(CELL * rng.uniform(0.07, 0.12))
            for k in range(-S, S, max(2, step)):
                cv2.line(wash, (k, S), (k + S, 0), 1.0, max(1, CELL // 28))
            wash[: pad - 2], wash[-pad + 2 :], wash[:, : pad - 2], wash[:, -pad + 2 :] = 0, 0, 0, 0
        page *= 1 - wash[..., None] * alpha * (1 - fill)
    ink = np.array(INKS[int(rng.integers(len(INKS)))][::-1], np.float32) * rng.uniform(0.8, 1.4)
    pressure = rng.uniform(0.45, 1.0)
    a = m.astype(np.float32)[..., None] / 255 * pressure
    page *= 1 - a * (1 - np.clip(ink, 0, 1))
    page = cv2.GaussianBlur(page, (0, 0), rng.uniform(0.3, 1.3))
    page = page * rng.uniform(0.92, 1.05) + rng.normal(0, rng.uniform(0.005, 0.03), page.shape).astype(np.float32)
    p = planes(np.clip(page, 0, 1.2).astype(np.float32))
    return shape_descriptor(crop(p.stroke, (pad, pad, CELL), SHAPE_MARGIN), 0.3)


def dataset(n: int, first_seed: int) -> tuple[np.ndarray, np.ndarray]:
    kinds = [*DESIGNS, "other"]
    X, y = [], []
    for k, kind in enumerate(kinds):
        for i in range(n):
            rng = np.random.default_rng(first_seed + k * 100_000 + i)
            X.append(sample(kind, rng))
            y.append(kind)
    return np.array(X, np.float32), np.array(y)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=900, help="training samples per class")
    ap.add_argument("--out", default=str(MODEL_PATH))
    ap.add_argument("--check", action="store_true", help="score on held-out seeds and fail below 85 %%")
    args = ap.parse_args(argv)
    from sklearn.linear_model import LogisticRegression

    X, y = dataset(args.n, 0)
    clf = LogisticRegression(C=2.0, max_iter=2000)
    clf.fit(X, y)
    Xh, yh = dataset(max(40, args.n // 4), 1_000_000)
    acc = float((clf.predict(Xh) == yh).mean())
    print(f"trained on {len(y)} rendered cells; held-out accuracy {acc:.1%} on {len(yh)}")
    np.savez_compressed(args.out, coef=clf.coef_.astype(np.float32), intercept=clf.intercept_.astype(np.float32),
                        classes=np.array(clf.classes_, dtype="U16"))
    print(f"wrote {args.out} ({Path(args.out).stat().st_size / 1024:.0f} kB)")
    if args.check and acc < 0.85:
        print("held-out accuracy below 85 %", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
