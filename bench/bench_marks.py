"""Heroes marks benchmark: hero cells and destroyed (X) cells read from synthetic photos (bench.synthphoto).

    python -m bench.bench_marks --split dev --n 40          # tuning range (seeds 1000…)
    python -m bench.bench_marks --split heldout --n 40      # report range (seeds 200000…), never tuned on

Photos: our generator with `PhotoSpec(marks=True)` — 1–4 hero symbols and 2–8 destroyed X marks a sheet (over
empty spaces, drawn terrains and monsters), every drawing style in turn, sides A–D in turn, 3 MP. Counted per
cell: hero cells read "hero", destroyed cells read "destroyed", silent errors (wrong with confidence ≥ 0.7)
among those cells and among all other cells because of the marks stage (a terrain or empty cell read as a
mark), and the doubtful share. `scripts/train_marks.py` trains the hero model on seeds 0…999 (its own range).
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

from bench.synthphoto import PhotoSpec, make_photo
from vision.geometry import canon_for
from vision.light import grid_paper, normalise_light, whiten
from vision.marks import cell_measures
from vision.reading import CONFIDENCE_THRESHOLD, read_sheet

STYLES = ("marker", "pencil", "graphite", "crayon", "felt", "watercolour", "ballpoint", "symbols", "letters", "mixed")
SPLITS = {"train": 0, "dev": 1000, "heldout": 200_000}


def photo(seed: int):
    """The k-th photo of a range: style and side in turn, marks on."""
    return make_photo(seed, PhotoSpec(style=STYLES[seed % len(STYLES)], side="ABCD"[seed % 4], megapixels=3.0,
                                      marks=True))


def cell_rows(p, reading) -> list[tuple[tuple[int, int], str, float, np.ndarray]]:
    """(cell, true word, cross strength, hero features) of every markable cell, measured as the reader does."""
    canon = canon_for(reading.side)
    norm = normalise_light(reading.sheet_image, canon, reading.side)
    boxes = {k: v for k, v in reading.cell_boxes.items() if p.grid[k[0]][k[1]] not in ("mountain", "wasteland")}
    strength, feats = cell_measures(whiten(norm, grid_paper(norm, boxes)), boxes)
    return [(k, p.grid[k[0]][k[1]], strength[k][0], feats[k]) for k in boxes]


def run(split: str, n: int) -> dict:
    first = SPLITS[split]
    tally = {k: 0 for k in ("photos", "unread", "hero", "hero_right", "hero_silent", "destroyed", "destroyed_right",
                            "destroyed_silent", "other", "other_as_mark", "other_as_mark_silent", "doubtful",
                            "cells", "cells_right", "cells_silent")}
    for seed in range(first, first + n):
        p = photo(seed)
        tally["photos"] += 1
        try:
            r = read_sheet(p.data, overlay=False, heroes=True)  # its games play heroes, on sides A and B too
        except ValueError:
            tally["unread"] += 1
            continue
        for row in range(11):
            for col in range(11):
                t, g, c = p.grid[row][col], r.grid[row][col], r.confidence[row][col]
                if t in ("mountain", "wasteland"):
                    continue
                sure = c >= CONFIDENCE_THRESHOLD
                tally["cells"] += 1
                tally["cells_right"] += g == t
                tally["cells_silent"] += g != t and sure
                tally["doubtful"] += not sure
                if t in ("hero", "destroyed"):
                    tally[t] += 1
                    tally[f"{t}_right"] += g == t
                    tally[f"{t}_silent"] += g != t and sure
                else:
                    tally["other"] += 1
                    tally["other_as_mark"] += g in ("hero", "destroyed")
                    tally["other_as_mark_silent"] += g in ("hero", "destroyed") and sure
    return {"split": split, "seeds": f"{first}..{first + n - 1}", **tally}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=("dev", "heldout"), default="dev")
    ap.add_argument("--n", type=int, default=40)
    args = ap.parse_args(argv)
    t = run(args.split, args.n)
    print(json.dumps(t))
    pct = lambda a, b: f"{100 * a / max(b, 1):.1f} %"  # noqa: E731
    print(f"{t['split']} seeds {t['seeds']}: {t['photos']} photos, {t['unread']} refused")
    print(f"  hero cells      {t['hero']:5d}  read right {pct(t['hero_right'], t['hero'])}  "
          f"silent errors {pct(t['hero_silent'], t['hero'])}")
    print(f"  destroyed cells {t['destroyed']:5d}  read right {pct(t['destroyed_right'], t['destroyed'])}  "
          f"silent errors {pct(t['destroyed_silent'], t['destroyed'])}")
    print(f"  other cells     {t['other']:5d}  read as a mark {pct(t['other_as_mark'], t['other'])}  "
          f"silently {pct(t['other_as_mark_silent'], t['other'])}")
    print(f"  all cells       {t['cells']:5d}  right {pct(t['cells_right'], t['cells'])}  "
          f"silent errors {pct(t['cells_silent'], t['cells'])}  doubtful {pct(t['doubtful'], t['cells'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
