"""Harvest labelled cell patches for the cell model from synthetic photos whose true cell centres are known.

    python scripts/cellnet_data.py OUT.npz --gen photogen2 --n 400 --seed-start 0 [--procs 2]
    python scripts/cellnet_data.py OUT.npz --gen synthphoto --n 400 --seed-start 0
    python scripts/cellnet_data.py OUT.npz --gen photogen3 --n 400 --seed-start 0
    python scripts/cellnet_data.py OUT.npz --gen photogen4 --n 400 --seed-start 40000

Each photo is made by its generator (development seeds only: < 100,000 for photogen2/3/4, < 1,000,000 for
synthphoto), decoded as the reader decodes it, and cut into patches by `vision.cellpatch.cell_patches` around
the truth's centres moved a little (a whole-lattice shift, turn and scale, and a wobble per centre), as the
reader's own fit would place them. Printed cells (mountains, wastelands) are left out.

The file holds `x` (n, S, S, 3) uint8 (patch × 170, so paper ≈ 170 and 1.5 × paper = 255), `y` (n,) class
index into CLASSES, and per patch `gen`, `kind`, `style`, `difficulty`, `seed`, `row`, `col`, `ruins`.
"""

from __future__ import annotations

import argparse
import sys
import zlib
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.cartographers.data import MAPS  # noqa: E402
from vision.cellnet import CLASSES  # noqa: E402
from vision.cellpatch import PATCH, cell_patches  # noqa: E402

PRINTED = ("mountain", "wasteland")
SCALE = 170.0


def jitter(centres: np.ndarray, rng: np.random.Generator, amount: float) -> np.ndarray:
    """The truth's centres as a reader might have placed them: shifted, turned, scaled, wobbled (cell units)."""
    c = np.asarray(centres, np.float64)
    pitch = float(np.median(np.linalg.norm(np.diff(c, axis=1), axis=-1)))
    mid = c.reshape(-1, 2).mean(0)
    ang = rng.normal(0, 0.004 * amount / 0.1)
    s = 1 + rng.normal(0, 0.004 * amount / 0.1)
    R = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]]) * s
    out = (c - mid) @ R.T + mid + rng.normal(0, amount, 2) * pitch
    out += rng.normal(0, amount * 0.4, c.shape) * pitch
    return out


def _photo(gen: str, job: tuple) -> tuple[bytes, dict] | None:
    if gen == "synthphoto":
        from bench.synthphoto import EXTRA_STYLES, STYLES, PhotoSpec, make_photo

        seed, variant = job
        rng = np.random.default_rng(seed + 17)
        styles = STYLES + EXTRA_STYLES
        style = styles[variant % len(styles)]
        design = (None, None, "generic", "handruled", "squared", "notebook", "pad")[int(rng.integers(7))]
        spec = PhotoSpec(style=style, design=design, legend=bool(rng.random() < 0.6),
                         empty_p=float(rng.choice([0.02, 0.2, 0.35, 0.6])))
        try:
            p = make_photo(seed, spec)
        except Exception:  # noqa: BLE001 - a design may need the pad scans; skip that photo
            return None
        truth = {"grid": p.grid, "side": p.side, "kind": p.design, "style": style,
                 "difficulty": "normal", "seed": seed, "centres": np.asarray(p.cell_centers).tolist()}
        return p.data, truth
    from bench.bench_vision2 import generator

    kind, style, diff, seed = job
    try:
        p = generator(gen).generate(kind, style, diff, seed)
    except Exception:  # noqa: BLE001 - padscan without scans
        return None
    t = p.truth
    return p.jpeg, {"grid": t["grid"], "side": t["side"], "kind": kind, "style": style, "difficulty": diff,
                    "seed": seed, "centres": t["params"]["geometry"]["cell_centers_px"]}


def harvest(args: tuple) -> dict | None:
    gen, job, amount = args
    cv2.setNumThreads(1)  # one process per core: OpenCV's own threads only fight each other
    made = _photo(gen, job)
    if made is None:
        return None
    data, truth = made
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    rng = np.random.default_rng(zlib.crc32(repr((gen, job)).encode()))
    centres = jitter(np.asarray(truth["centres"], float), rng, amount)
    patches = cell_patches(img, centres)
    ruins = {tuple(c) for c in MAPS[truth["side"]].ruins}
    xs, ys, rows, cols, rz = [], [], [], [], []
    for r in range(11):
        for c in range(11):
            word = truth["grid"][r][c]
            if word in PRINTED or word not in CLASSES:
                continue
            xs.append(np.clip(patches[r, c] * SCALE, 0, 255).astype(np.uint8))
            ys.append(CLASSES.index(word))
            rows.append(r)
            cols.append(c)
            rz.append((r, c) in ruins)
    n = len(ys)
    return {"x": np.stack(xs), "y": np.array(ys, np.int8), "row": np.array(rows, np.int8),
            "col": np.array(cols, np.int8), "ruins": np.array(rz, bool),
            "gen": [gen] * n, "kind": [truth["kind"]] * n, "style": [truth["style"]] * n,
            "difficulty": [truth["difficulty"]] * n, "seed": np.full(n, truth["seed"], np.int64)}


def worker_photo(job: tuple[str, tuple]) -> tuple[bytes, dict] | None:
    """In a worker process: OpenCV on one thread (the pool runs one photo a core), then `_photo(gen, spec)`."""
    import cv2

    cv2.setNumThreads(1)
    return _photo(*job)


def jobs_for(gen: str, n: int, start: int) -> list:
    if gen == "synthphoto":
        return [(start + i, i) for i in range(n)]
    from bench.bench_vision2 import generator

    g = generator(gen)
    kinds = [k for k in g.KINDS if k != "padscan" or g.sheets.scans_available()]
    out = []
    for i in range(n):
        k = kinds[i % len(kinds)]
        s = g.STYLES[(i // len(kinds)) % len(g.STYLES)]
        d = g.DIFFICULTIES[(i // (len(kinds) * len(g.STYLES))) % len(g.DIFFICULTIES)]
        out.append((k, s, d, start + i))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    from bench.bench_vision2 import GENERATORS, NEVER_TRAINED

    ap.add_argument("--gen", choices=[g for g in (*GENERATORS, "synthphoto") if g not in NEVER_TRAINED],
                    required=True)
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--seed-start", type=int, default=0)
    ap.add_argument("--jitter", type=float, default=0.06, help="fit error to simulate, in cells")
    ap.add_argument("--procs", type=int, default=2)
    args = ap.parse_args(argv)
    limit = 1_000_000 if args.gen == "synthphoto" else 100_000
    if args.seed_start + args.n > limit:
        ap.error("development seeds only")
    jobs = [(args.gen, j, args.jitter) for j in jobs_for(args.gen, args.n, args.seed_start)]
    parts = []
    with ProcessPoolExecutor(args.procs) as pool:
        for i, part in enumerate(pool.map(harvest, jobs, chunksize=1)):
            if part is not None:
                parts.append(part)
            if (i + 1) % 50 == 0:
                print(f"{i + 1}/{len(jobs)} photos", flush=True)
    out = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    np.savez_compressed(args.out, **out)
    print(f"{args.out}: {len(out['y'])} patches of {PATCH}x{PATCH} from {len(parts)} photos")
    return 0


if __name__ == "__main__":
    sys.exit(main())
