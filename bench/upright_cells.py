"""Silent errors on sheets read the right way up, by drawing style, from a folder of kept photos.

    python -m bench.bench_vision2 --split dev --styles marker crayon watercolour mixed felttip --n 6 --jobs 1 \
        --keep DIR                                  # photogen2 photos + truths (black box)
    python -m bench.upright_cells DIR [--json OUT]  # this table

Every `NAME.jpg` with a `NAME.json` truth (`grid`, `style`) is read in-process by `vision.reading.read_sheet`.
A sheet whose grid matches the truth best unturned counts as read the right way up; the others (read turned,
another branch's subject) are left out, so the table says how the cells themselves are read. Per style:
photos, cells (drawable: printed mountains and wastelands excluded), share right, silent errors (wrong with
confidence ≥ 0.7: count, % of cells, % of wrong cells), photos right after review (no silent error, at most 10
flagged cells) and flagged cells per photo. `--json` writes every cell (truth, read, confidence, its group's
name, confidence and source) for a closer look.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

FIXED = {"mountain", "wasteland"}
DOUBT, REVIEW_MAX = 0.7, 10


def read_folder(folder: Path) -> list[dict]:
    from vision.errors import PhotoError
    from vision.reading import read_sheet

    out = []
    for jp in sorted(folder.glob("*.jpg")):
        tp = jp.with_suffix(".json")
        if not tp.exists():
            continue
        truth = json.loads(tp.read_text())
        rec = {"photo": jp.stem, "style": truth.get("style", "?"), "kind": truth.get("kind"), "found": False}
        try:
            r = read_sheet(str(jp), overlay=False)
        except (PhotoError, ValueError):
            out.append(rec)
            continue
        g, t = np.array(r.grid, dtype=object), np.array(truth["grid"], dtype=object)
        matches = [int((np.rot90(g, k) == t).sum()) for k in range(4)]
        group_of = {tuple(c): gi for gi in r.groups for c in gi.cells}
        cells = []
        for i in range(11):
            for j in range(11):
                if truth["grid"][i][j] in FIXED:
                    continue
                gi = group_of.get((i, j))
                cells.append({"rc": [i, j], "truth": truth["grid"][i][j], "read": r.grid[i][j],
                              "conf": float(r.confidence[i][j]), "group": gi.id if gi else None,
                              "group_name": gi.name if gi else None,
                              "group_conf": float(gi.confidence) if gi else None,
                              "group_source": gi.source if gi else None})
        rec.update(found=True, upright=matches[0] >= max(matches[1:]), path=r.read_path, cells=cells)
        out.append(rec)
    return out


def table(recs: list[dict]) -> str:
    # per style: photos, cells, wrong, silent, right after review, flagged
    rows: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0, 0])
    for p in recs:
        if not p["found"] or not p["upright"]:
            continue
        cs = p["cells"]
        wrong = sum(c["truth"] != c["read"] for c in cs)
        silent = sum(c["truth"] != c["read"] and c["conf"] >= DOUBT for c in cs)
        flagged = sum(c["conf"] < DOUBT for c in cs)
        for key in (p["style"], "all"):
            b = rows[key]
            b[0] += 1
            b[1] += len(cs)
            b[2] += wrong
            b[3] += silent
            b[4] += silent == 0 and flagged <= REVIEW_MAX
            b[5] += flagged
    lines = [f"{'style':12} {'photos':>6} {'cells':>6} {'right':>7} {'silent':>20} {'review':>7} {'flag/ph':>8}"]
    for key in sorted(rows, key=lambda k: (k == "all", k)):
        n, cells, wrong, silent, review, flagged = rows[key]
        lines.append(f"{key:12} {n:6d} {cells:6d} {100 * (1 - wrong / cells):6.1f}% "
                     f"{silent:5d} {100 * silent / cells:5.1f}%/{100 * silent / max(wrong, 1):4.0f}% "
                     f"{review:7d} {flagged / n:8.1f}")
    found = sum(p["found"] for p in recs)
    lines.append(f"({len(recs)} photos, {found} read, {sum(1 for p in recs if p['found'] and p['upright'])} of "
                 f"them the right way up)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--json", type=Path, help="write every cell here")
    args = ap.parse_args(argv)
    recs = read_folder(args.folder)
    if args.json:
        args.json.write_text(json.dumps(recs))
    print(table(recs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
