"""Benchmark: several sheets in one photo of the table (`vision.multisheet.read_all` on `bench.synthtable`).

    python -m bench.bench_multisheet --split dev --n 12
    python -m bench.bench_multisheet --split heldout --n 12

Seeds: dev = 0.., held out = 500000.. (never tune against the held-out range). Per photo 2–6 sheets, each
`table` (our sheet printed for this table: its QR names the seat), `ours` (no seat: the player assigns it),
`pad` or `generic` (no markers). A true sheet counts as found when a reading's cell centres lie within half a
cell (mean) of its true centres — so a sheet read the wrong way round is not found. Filed right: a `table`
sheet whose reading names this table and its seat; misfiled: any reading naming a wrong seat.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict

import numpy as np

from bench.synthtable import KINDS, make_table_photo
from vision.multisheet import read_all

SPLITS = {"dev": 0, "heldout": 500_000}


def match(found, sheets) -> list[tuple[int, object]]:
    """(truth index, reading) pairs: each reading to the true sheet whose cells it lies on, within half a cell."""
    pairs, used = [], set()
    for f in found:
        r = f.reading
        if r is None or r.cell_centers_px is None:
            continue
        cc = np.asarray(r.cell_centers_px)
        best = None
        for i, t in enumerate(sheets):
            if i in used:
                continue
            cell = float(np.median(np.linalg.norm(np.diff(t.cell_centers, axis=1), axis=2)))
            d = float(np.linalg.norm(cc - t.cell_centers, axis=2).mean()) / cell
            if d < 0.5 and (best is None or d < best[0]):
                best = (d, i)
        if best is not None:
            used.add(best[1])
            pairs.append((best[1], r))
    return pairs


def run(split: str, n: int, start: int | None = None) -> dict:
    first = SPLITS[split] if start is None else start
    per_kind = defaultdict(lambda: {"sheets": 0, "found": 0, "cells": 0, "cells_right": 0, "exact": 0})
    tot = {"photos": 0, "sheets": 0, "found": 0, "false": 0, "refused": 0, "table_sheets": 0, "filed_right": 0,
           "misfiled": 0, "cells": 0, "cells_right": 0, "exact": 0, "read_s": 0.0, "photos_all_found": 0}
    for seed in range(first, first + n):
        photo = make_table_photo(seed)
        t0 = time.perf_counter()
        found = read_all(photo.data, overlay=False)
        tot["read_s"] += time.perf_counter() - t0
        pairs = match(found, photo.sheets)
        tot["photos"] += 1
        tot["sheets"] += len(photo.sheets)
        tot["found"] += len(pairs)
        tot["photos_all_found"] += len(pairs) == len(photo.sheets)
        tot["false"] += sum(f.reading is not None for f in found) - len(pairs)
        tot["refused"] += sum(f.error is not None for f in found)
        for t in photo.sheets:
            per_kind[t.kind]["sheets"] += 1
            tot["table_sheets"] += t.kind == "table"
        for i, r in pairs:
            t = photo.sheets[i]
            k = per_kind[t.kind]
            right = sum(r.grid[a][b] == t.grid[a][b] for a in range(11) for b in range(11))
            k["found"] += 1
            k["cells"] += 121
            k["cells_right"] += right
            k["exact"] += right == 121
            tot["cells"] += 121
            tot["cells_right"] += right
            tot["exact"] += right == 121
            if r.table == photo.table and r.seat is not None:
                if t.kind == "table" and r.seat == t.seat:
                    tot["filed_right"] += 1
                else:
                    tot["misfiled"] += 1
    return {"split": split, "seeds": [first, first + n - 1], **tot, "per_kind": dict(per_kind)}


def report(res: dict) -> str:
    def pct(a, b):
        return f"{100 * a / b:.1f} %" if b else "–"

    lines = [f"split {res['split']} seeds {res['seeds'][0]}–{res['seeds'][1]}: {res['photos']} photos, "
             f"{res['sheets']} sheets",
             f"  sheets found {res['found']}/{res['sheets']} ({pct(res['found'], res['sheets'])}); photos with every "
             f"sheet found {res['photos_all_found']}/{res['photos']}; false sheets {res['false']}; "
             f"refused cut-outs {res['refused']}",
             f"  table sheets filed to the right seat {res['filed_right']}/{res['table_sheets']} "
             f"({pct(res['filed_right'], res['table_sheets'])}); misfiled {res['misfiled']}",
             f"  cells right (sheets found) {pct(res['cells_right'], res['cells'])}; exact sheets "
             f"{res['exact']}/{res['found']}; read time {res['read_s'] / max(1, res['photos']):.1f} s per photo"]
    for kind in KINDS:
        k = res["per_kind"].get(kind)
        if k:
            lines.append(f"  {kind:8s} found {k['found']}/{k['sheets']}, cells right "
                         f"{pct(k['cells_right'], k['cells'])}, exact {k['exact']}/{k['found']}")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=list(SPLITS), default="dev")
    ap.add_argument("--n", type=int, default=12)
    ap.add_argument("--start", type=int, default=None, help="first seed (default: the split's first)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    res = run(args.split, args.n, args.start)
    print(json.dumps(res) if args.json else report(res))


if __name__ == "__main__":
    main()
