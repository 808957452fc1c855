"""Join cell models trained alike from different seeds into one file that `vision.cellnet` averages.

    python scripts/join_cellnet.py A.npz B.npz [C.npz …] --out vision/data/cellnet.npz
    python scripts/join_cellnet.py vision/data/cellnet.npz:0 B.npz --out vision/data/cellnet.npz

Each input is a file `scripts/train_cellnet.py` wrote (or a joined file: its models are all kept; `FILE:K` keeps
only its model K). The first model's embedding is the one the reader groups cells by, so put the model the
thresholds were set on first.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.cellnet import joined, members  # noqa: E402


def load_models(paths: list[Path]) -> list[dict[str, np.ndarray]]:
    """The models in `paths`, in order; a path written `FILE:K` gives only model K of FILE."""
    models = []
    for p in paths:
        path, sep, k = str(p).rpartition(":")
        if not (sep and k.isdigit()):
            path, k = str(p), ""
        with np.load(path, allow_pickle=False) as z:
            found = members({key: z[key] for key in z.files})
        models.extend([found[int(k)]] if k else found)
    return models


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", type=Path, nargs="+")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    models = load_models(args.models)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, **joined(models))
    print(f"wrote {args.out}: {len(models)} models ({args.out.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
