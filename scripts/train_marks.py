"""Train the hero model shipped as vision/data/marks.npz (run offline).

    python scripts/train_marks.py                 # 160 synthetic photos (seeds 0…159), about 10 minutes
    python scripts/train_marks.py --n 20 --out /tmp/marks.npz

Samples are the markable cells of synthetic photos with Heroes marks (`bench.bench_marks.photo`, seeds from 0:
the training range; the benchmark's dev range starts at 1000 and its held-out range at 200000), read by the
real reader and measured by exactly the runtime code (`vision.marks.cell_measures`). Label: the cell is a hero.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_marks import cell_rows, photo  # noqa: E402
from vision.marks import MODEL_PATH  # noqa: E402
from vision.reading import read_sheet  # noqa: E402


def dataset(n: int, first: int) -> tuple[np.ndarray, np.ndarray]:
    X, y = [], []
    for seed in range(first, first + n):
        p = photo(seed)
        try:
            r = read_sheet(p.data, overlay=False)
        except ValueError:
            continue
        for _, word, _, f in cell_rows(p, r):
            X.append(f)
            y.append(word == "hero")
    return np.array(X, np.float32), np.array(y)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=160, help="training photos")
    ap.add_argument("--out", default=str(MODEL_PATH))
    args = ap.parse_args(argv)
    from sklearn.linear_model import LogisticRegression

    X, y = dataset(args.n, 0)
    clf = LogisticRegression(C=1.0, max_iter=3000, class_weight={False: 1.0, True: 4.0})
    clf.fit(X, y)
    p = clf.predict_proba(X)[:, 1]
    print(f"trained on {len(y)} cells ({int(y.sum())} heroes); training recall {float((p[y] >= 0.5).mean()):.1%}, "
          f"false hero rate {float((p[~y] >= 0.5).mean()):.2%}")
    np.savez_compressed(args.out, coef=clf.coef_.astype(np.float32), intercept=clf.intercept_.astype(np.float32))
    print(f"wrote {args.out} ({Path(args.out).stat().st_size / 1024:.0f} kB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
