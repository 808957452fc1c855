"""Command line: write a set of photos with their truth files.

    python -m bench.photogen2 OUTDIR --kind pad --style pencil --difficulty normal --n 40 --seed-start 0

`--kind all` / `--style all` make a balanced mix: photo i gets kind KINDS[i % k] and style
STYLES[(i // k) % s], seed = seed-start + i, so the mix is reproducible and every photo can be remade alone.
Seeds 0..99,999 are the development split, >= 1,000,000 the held-out split (see the package docstring).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import DIFFICULTIES, HELDOUT_START, KINDS, STYLES, ScansMissing, generate, sheets


def plan(kind: str, style: str, difficulty: str, n: int, seed_start: int) -> list[tuple[str, str, str, int]]:
    """The (kind, style, difficulty, seed) of each photo of a set; `all` = a balanced round-robin mix."""
    kinds = list(KINDS) if kind == "all" else [kind]
    if kind == "all" and not sheets.scans_available():
        kinds.remove("padscan")
    styles = list(STYLES) if style == "all" else [style]
    diffs = list(DIFFICULTIES) if difficulty == "all" else [difficulty]
    out = []
    for i in range(n):
        k = kinds[i % len(kinds)]
        s = styles[(i // len(kinds)) % len(styles)]
        d = diffs[(i // (len(kinds) * len(styles))) % len(diffs)]
        out.append((k, s, d, seed_start + i))
    return out


def write_set(outdir: Path, items, *, small: bool = False, log=print) -> list[Path]:
    outdir.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, (k, s, d, seed) in enumerate(items):
        photo = generate(k, s, d, seed, small=small)
        jpg = outdir / f"{i:04d}.jpg"
        jpg.write_bytes(photo.jpeg)
        jpg.with_suffix(".json").write_text(json.dumps(photo.truth, indent=1))
        paths.append(jpg)
        if log:
            log(f"{jpg.name}: {k} {s} {d} seed {seed} {photo.size[0]}x{photo.size[1]}")
    return paths


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.photogen2", description=__doc__.split("\n\n")[0])
    ap.add_argument("outdir", type=Path)
    ap.add_argument("--kind", default="all", choices=[*KINDS, "all"])
    ap.add_argument("--style", default="all", choices=[*STYLES, "all"])
    ap.add_argument("--difficulty", default="normal", choices=[*DIFFICULTIES, "all"])
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--seed-start", type=int, default=0)
    ap.add_argument("--small", action="store_true", help="640-pixel photos (quick looks, tests)")
    args = ap.parse_args(argv)
    if args.n < 1:
        ap.error("--n must be at least 1")
    if args.seed_start < HELDOUT_START and args.seed_start + args.n > 100_000:
        ap.error("development seeds are 0..99,999; held-out seeds start at 1,000,000")
    items = plan(args.kind, args.style, args.difficulty, args.n, args.seed_start)
    try:
        write_set(args.outdir, items, small=args.small)
    except ScansMissing as exc:
        print(f"skipped: {exc}", file=sys.stderr)
        return 3
    return 0
