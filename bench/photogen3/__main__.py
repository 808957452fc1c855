"""python -m bench.photogen3 OUTDIR [--kind all|KIND] [--style all|STYLE] [--difficulty normal|hard|all] [--n 40]
[--seed-start 0] [--small]

Writes NNNN.jpg and NNNN.json (the truth) per photo. With `all`, kinds, styles and difficulties are mixed in a
balanced round robin (each kind gets every style and difficulty in turn); padscan is left out of `all` when the
pad scans are not present.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from . import DIFFICULTIES, KINDS, STYLES, generate, sheets


def plan(kinds: list[str], styles: list[str], diffs: list[str], n: int, seed_start: int) -> list[tuple]:
    nk, ns, nd = len(kinds), len(styles), len(diffs)
    out = []
    for i in range(n):
        m = i // nk
        out.append((kinds[i % nk], styles[(i % nk + (nk + 1) * m) % ns], diffs[m % nd], seed_start + i))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.photogen3", description=__doc__.split("\n\n")[0])
    ap.add_argument("outdir")
    ap.add_argument("--kind", default="all", choices=["all", *KINDS])
    ap.add_argument("--style", default="all", choices=["all", *STYLES])
    ap.add_argument("--difficulty", default="normal", choices=["all", *DIFFICULTIES])
    ap.add_argument("--n", type=int, default=40)
    ap.add_argument("--seed-start", type=int, default=0)
    ap.add_argument("--small", action="store_true", help="quick ~640-pixel photos")
    a = ap.parse_args(argv)
    kinds = list(KINDS) if a.kind == "all" else [a.kind]
    if a.kind == "all" and not sheets.scans_available():
        kinds.remove("padscan")
        print(f"note: pad scans not found in {sheets.scan_dir()}: padscan left out", file=sys.stderr)
    styles = list(STYLES) if a.style == "all" else [a.style]
    diffs = list(DIFFICULTIES) if a.difficulty == "all" else [a.difficulty]
    out = Path(a.outdir)
    out.mkdir(parents=True, exist_ok=True)
    t_all = time.perf_counter()
    for i, (kind, style, diff, seed) in enumerate(plan(kinds, styles, diffs, a.n, a.seed_start)):
        t0 = time.perf_counter()
        photo = generate(kind, style, diff, seed, small=a.small)
        (out / f"{i:04d}.jpg").write_bytes(photo.jpeg)
        (out / f"{i:04d}.json").write_text(json.dumps(photo.truth, ensure_ascii=False))
        print(f"{i:04d} {kind:12s} {style:11s} {diff:6s} seed {seed:7d}  {time.perf_counter() - t0:5.2f} s", flush=True)
    print(f"{a.n} photos in {time.perf_counter() - t_all:.1f} s -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
