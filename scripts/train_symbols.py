"""Train the symbol model shipped as vision/data/symbols.npz (run offline; CI runs it on a small set).

    python scripts/harvest_cells.py --seeds 10000:10090 --out /tmp/pg2-a.npz     # photogen2 dev photos
    python scripts/train_symbols.py --cells /tmp/pg2-a.npz /tmp/pg2-b.npz          # full model (a few minutes)
    python scripts/train_symbols.py --n 40 --out /tmp/symbols.npz --check         # CI: small model + check

Two generators teach it:
* **our renders** (bench/symbolart.py designs, many hands: size, slant, shear, stroke width, pressure,
  tremor, with or without a colour fill underneath, blur, noise), degraded like a phone photo after light
  normalisation and measured by exactly the runtime feature code (vision.features); scribbles are the
  "other" class and initials (F V A W M, O K T S C) classes "letter-<terrain>" of their own;
* **photogen2's dev photos** (`--cells`, harvested by scripts/harvest_cells.py from seeds < 100,000 through
  our own reader), whose symbol cells are labelled by its truth; its written initials are letter classes
  too (initials are named by a tap, never guessed: see LETTER_TERRAIN).

The model is a one-hidden-layer perceptron (ReLU) over the standardised shape descriptor, evaluated with
numpy at run time (`vision.symbols`); `--model logreg` trains the earlier multinomial logistic regression.
Our render seeds 0..999,999 train; `--check` scores on render seeds from 1,000,000 (held out) and on the
last `--cells` file when more than one is given, and fails below a floor.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.symbolart import DESIGNS, LETTERS, letter_strokes, render  # noqa: E402
from vision.features import SHAPE_MARGIN, crop, planes, stroke_shape  # noqa: E402
from vision.symbols import LETTER, MODEL_PATH, OTHER  # noqa: E402

CELL = 57  # canonical cell size in pixels (vision.geometry: 38 pt × 1.5)
FILLS = ((0.2, 0.6, 0.25), (0.9, 0.8, 0.2), (0.3, 0.4, 0.9), (0.8, 0.2, 0.2), (0.6, 0.3, 0.6), (0.5, 0.35, 0.2))
INKS = ((0.3, 0.3, 0.32), (0.15, 0.15, 0.2), (0.1, 0.12, 0.35), (0.45, 0.45, 0.45))  # graphite, black, ballpoint
TERRAINS = ("forest", "village", "farm", "water", "monster")
# photogen2 styles whose cells carry a drawn symbol (the others are colour fills: their dark strokes are noise)
SYMBOL_STYLES = {"graphite": "shape", "mixed": "shape", "ballpoint": "shape_ink", "letters": "both"}
MIN_STROKE = 0.01  # a harvested cell with less dark stroke than this has no symbol to learn from
HIDDEN = 96
# Initials are learned as classes of their own ("letter-forest" = F or O), never as the terrain: `vision.symbols`
# gives them no terrain evidence (a tap names them), but cells with the same initial then look alike to the
# grouping stage (`vision.groups`), so one tap names them all.
LETTER_TERRAIN = dict(zip(LETTERS, TERRAINS * 2, strict=True))  # F V A W M, then the Turkish O K T S C


def sample(kind: str, rng: np.random.Generator) -> np.ndarray:
    """One rendered, degraded cell's stroke-shape descriptor; kind = terrain or "other"."""
    pad = CELL // 3
    S = CELL + 2 * pad
    if kind.startswith(LETTER):
        letters = [ch for ch, t in LETTER_TERRAIN.items() if t == kind[len(LETTER):]]
        m = np.zeros((S, S), np.uint8)
        lm = letter_strokes(letters[int(rng.integers(len(letters)))], int(CELL * rng.uniform(0.6, 0.95)), rng)
        o = pad + (CELL - lm.shape[0]) // 2 + rng.integers(-4, 5, 2)
        m[o[1] : o[1] + lm.shape[0], o[0] : o[0] + lm.shape[1]] = lm
    elif kind == OTHER:  # scribble
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
    return stroke_shape(crop(p.stroke, (pad, pad, CELL), SHAPE_MARGIN))


def dataset(n: int, first_seed: int) -> tuple[np.ndarray, np.ndarray]:
    """`n` rendered cells per class (the five terrains, "other" and the initials) from seeds `first_seed` + …"""
    kinds = [*DESIGNS, OTHER, *(LETTER + t for t in TERRAINS)]
    X, y = [], []
    for k, kind in enumerate(kinds):
        for i in range(n):
            rng = np.random.default_rng(first_seed + k * 50_000 + i)
            X.append(sample(kind, rng))
            y.append(kind)
    return np.array(X, np.float32), np.array(y)


def harvested(path: str) -> tuple[np.ndarray, np.ndarray]:
    """Shape descriptors and labels of the symbol cells in a scripts/harvest_cells.py file."""
    with np.load(path, allow_pickle=False) as z:
        label, style, stroke = z["label"], z["style"], z["stroke"]
        shape, shape_ink = z["shape"], z["shape_ink"]
    X, y = [], []
    for k in range(len(label)):
        plane = SYMBOL_STYLES.get(str(style[k]))
        if plane is None or label[k] not in TERRAINS:
            continue
        name = LETTER + str(label[k]) if style[k] == "letters" else str(label[k])
        for f in (("shape", "shape_ink") if plane == "both" else (plane,)):
            v = shape[k] if f == "shape" else shape_ink[k]
            if np.abs(v).sum() > 0 and (f == "shape_ink" or stroke[k] >= MIN_STROKE):
                X.append(v)
                y.append(name)
    return np.array(X, np.float32).reshape(-1, shape.shape[1]), np.array(y, dtype="U16")


def fit(X: np.ndarray, y: np.ndarray, model: str, seed: int = 0) -> dict[str, np.ndarray]:
    """Train and return the arrays `vision.symbols` evaluates (layers w0, b0[, w1, b1], classes, mean, scale)."""
    classes = np.array(sorted(set(y.tolist())), dtype="U16")
    mean = X.mean(axis=0)
    scale = X.std(axis=0) + 0.02
    Z = (X - mean) / scale
    if model == "logreg":
        from sklearn.linear_model import LogisticRegression

        clf = LogisticRegression(C=0.05, max_iter=3000).fit(Z, y)
        layers = [(clf.coef_.T, clf.intercept_)]
    else:
        from sklearn.neural_network import MLPClassifier

        clf = MLPClassifier((HIDDEN,), alpha=3e-3, max_iter=400, early_stopping=len(y) > 500,
                            random_state=seed).fit(Z, y)
        layers = list(zip(clf.coefs_, clf.intercepts_, strict=True))
    assert list(clf.classes_) == list(classes)
    out = {"classes": classes, "mean": mean.astype(np.float32), "scale": scale.astype(np.float32)}
    for i, (w, b) in enumerate(layers):
        out[f"w{i}"], out[f"b{i}"] = np.asarray(w, np.float32), np.asarray(b, np.float32)
    return out


def accuracy(arrays: dict[str, np.ndarray], X: np.ndarray, y: np.ndarray) -> float:
    from vision.symbols import logits

    if not len(y):
        return float("nan")
    pred = arrays["classes"][np.argmax(logits(arrays, X), axis=1)]
    return float((pred == y).mean())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=900, help="rendered training samples per class")
    ap.add_argument("--cells", nargs="*", default=[], help="harvested photogen2 cells (scripts/harvest_cells.py)")
    ap.add_argument("--model", choices=["mlp", "logreg"], default="mlp")
    ap.add_argument("--out", default=str(MODEL_PATH))
    ap.add_argument("--check", action="store_true", help="score on held-out data and fail below 85 %%")
    args = ap.parse_args(argv)

    X, y = dataset(args.n, 0)
    Xh, yh = dataset(max(40, args.n // 4), 1_000_000)
    parts = [harvested(p) for p in args.cells]
    val = parts.pop() if len(parts) > 1 and args.check else None  # the last file checks, the rest train
    for Xp, yp in parts:
        X, y = np.concatenate([X, Xp]), np.concatenate([y, yp])
    arrays = fit(X, y, args.model)
    acc = accuracy(arrays, Xh, yh)
    print(f"trained on {len(y)} cells ({len(y) - sum(len(p[1]) for p in parts)} rendered); "
          f"held-out renders {acc:.1%} on {len(yh)}")
    ok = acc >= 0.85
    if val is not None:
        acc2 = accuracy(arrays, *val)
        print(f"held-out harvested cells {acc2:.1%} on {len(val[1])}")
        ok = ok and acc2 >= 0.7
    np.savez_compressed(args.out, **arrays)
    print(f"wrote {args.out} ({Path(args.out).stat().st_size / 1024:.0f} kB)")
    if args.check and not ok:
        print("held-out accuracy below the floor", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
