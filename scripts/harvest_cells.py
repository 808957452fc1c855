"""Harvest labelled cell measurements from photogen2 photos (the second generator, used as a black box).

    python scripts/harvest_cells.py --seeds 10000:10200 --out /tmp/pg2-cells.npz

Each photo is made by photogen2's public `generate` (kinds and styles round-robin) and read by our own
reader; the runtime feature code (`vision.features.cell_arrays`, as `vision.cells.read_cells` calls it) is
recorded and every drawable cell is labelled with photogen2's truth. Only photos whose cell centres the
reader placed within a third of a cell of the truth everywhere are kept (a misplaced grid labels nothing).
Seeds must stay below 100,000 (photogen2's dev range; the benchmark's `--split dev` uses seeds from 0,
so pick a range that does not overlap the figures you report).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

DEV_LIMIT = 100_000
STYLES = ("graphite", "letters", "mixed", "pencil", "ballpoint", "felttip", "marker", "crayon", "watercolour")
KINDS = ("ours", "generic", "pad", "handruled", "squared")


def harvest_photo(kind: str, style: str, difficulty: str, seed: int, small: bool = False) -> dict | None:
    """Labelled measurements of one photo's drawable cells, or None when the reader misplaced the grid."""
    from bench.photogen2 import generate
    from vision import cells as vcells
    from vision.errors import PhotoError
    from vision.features import FIELDS
    from vision.geometry import ruins_cells
    from vision.reading import read_sheet

    if seed >= DEV_LIMIT:
        raise ValueError(f"seed {seed} is not a photogen2 dev seed (< {DEV_LIMIT})")
    photo = generate(kind, style, difficulty, seed, small=small)
    seen: list = []
    orig = vcells.cell_arrays

    def spy(p, boxes, *a, **k):
        out = orig(p, boxes, *a, **k)
        if boxes and all(r >= 0 for r, _ in boxes):
            seen.append((out, a[1] if len(a) > 1 else k.get("ruins_glyph", True)))
        return out

    vcells.cell_arrays = spy
    try:
        reading = read_sheet(photo.jpeg, overlay=False)
    except PhotoError:
        return None
    finally:
        vcells.cell_arrays = orig
    if not seen:
        return None
    geo = photo.truth["params"]["geometry"]
    cc = np.asarray(reading.cell_centers_px, float)
    tc = np.asarray(geo["cell_centers_px"], float)
    if cc.shape != tc.shape or (np.linalg.norm(cc - tc, axis=-1) / geo["mean_cell_px"]).max() > 0.33:
        return None
    a, own_glyph = seen[-1]
    p_fill = vcells.fill_probability(a, ruins_cells(reading.side), own_glyph)
    truth = photo.truth["grid"]
    out = {f: getattr(a, f) for f in FIELDS}
    out["label"] = np.array([truth[r][c] for r, c in a.cells], dtype="U12")
    out["p_fill"] = p_fill.astype(np.float32)
    out["style"] = np.array([style] * len(a.cells), dtype="U12")
    out["photo"] = np.full(len(a.cells), seed, np.int64)
    return out


def _joined(parts: list[dict]) -> dict[str, np.ndarray]:
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]} if parts else {}


def harvest(seeds: range, styles=STYLES, kinds=KINDS, small: bool = False, log=print,
            save: str | None = None) -> dict[str, np.ndarray]:
    """Cells of the photos `seeds` (styles and kinds round-robin); `save` writes what is done every 5 photos."""
    parts = []
    for i, seed in enumerate(seeds):
        style = styles[i % len(styles)]
        kind = kinds[(i // len(styles)) % len(kinds)]
        diff = "hard" if i % 3 == 2 else "normal"
        rec = harvest_photo(kind, style, diff, seed, small)
        log(f"seed {seed} {kind} {style} {diff}: {'skipped' if rec is None else len(rec['label'])}")
        if rec is not None:
            parts.append(rec)
            if save and len(parts) % 5 == 0:
                np.savez_compressed(save, **_joined(parts))
    return _joined(parts)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="10000:10100", help="photogen2 dev seeds FIRST:END (END < 100000)")
    ap.add_argument("--styles", nargs="+", default=list(STYLES))
    ap.add_argument("--kinds", nargs="+", default=list(KINDS))
    ap.add_argument("--small", action="store_true", help="640-pixel photos (fast, for tests)")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    first, end = (int(x) for x in args.seeds.split(":"))
    if end > DEV_LIMIT:
        print(f"seeds must stay below {DEV_LIMIT} (photogen2's held-out range is never trained on)", file=sys.stderr)
        return 2
    data = harvest(range(first, end), tuple(args.styles), tuple(args.kinds), args.small, save=args.out)
    if not data:
        print("no photo could be harvested", file=sys.stderr)
        return 1
    np.savez_compressed(args.out, **data)
    print(f"wrote {len(data['label'])} cells to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
