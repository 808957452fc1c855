"""`mapsmith read PHOTO` and `mapsmith score-photo PHOTO --cards a,b,c,d`."""

from __future__ import annotations

import argparse
import json
import os
import sys

from companion.cartographers.board import cell_name
from companion.cartographers.data import MAPS
from vision.errors import PhotoError


def _heroes_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--heroes", action=argparse.BooleanOptionalAction, default=None,
                   help="the game plays the Heroes explore deck: read heroes and destroyed monsters (default: on "
                        "sides C and D and a table's own sides only; --no-heroes: never)")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("read", help="read a photo of a map sheet into an 11x11 grid")
    p.add_argument("photo", metavar="PHOTO", help="JPEG, PNG or WebP photo of the sheet")
    p.add_argument("--side", choices=list(MAPS), type=str.upper, help="map side (only needed for unmarked sheets)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--overlay", metavar="OUT.png", help="write a debug image of the reading")
    p.add_argument("--turn", metavar="K", type=int, choices=range(4), default=None,
                   help="re-read an unmarked sheet turned K quarter turns clockwise (0-3) from the way up it was "
                        "read: the answer to 'Which edge is the top?' (--json 'orientation_choices'; 0 = 'yes, this "
                        "is the top', read with that way up confirmed); "
                        "sheets with corner markers are always read their own way up")
    p.add_argument("--all-sheets", action="store_true",
                   help="a photo of the table: find and read every sheet in it (--json: {\"sheets\": [...]})")
    p.add_argument("--name", metavar="GROUP=TERRAIN", nargs="+", action="extend", default=[],
                   help="re-read with these names for groups of like cells (ids from --json 'groups'), e.g. 3=forest")
    _heroes_flag(p)
    p.set_defaults(func=cmd_read)

    e = sub.add_parser("vision-eval", help="score the photo reader on folders of photos with confirmed grids")
    e.add_argument("dirs", metavar="DIR", nargs="*", help="folders of NAME.jpg + NAME.json ({'grid': ...})")
    e.add_argument("--synthetic", metavar="SET", action="append", default=[],
                   help="synthetic set (source checkout): colour, blank-legend, unmarked, hard, STYLE, STYLE-blank, "
                        "DESIGN-STYLE (DESIGN generic, handruled, squared, notebook)")
    e.add_argument("--n", type=int, default=10, help="photos per synthetic set")
    e.add_argument("--seed", type=int, default=1_000_000, help="first seed of the synthetic sets (held out)")
    e.add_argument("--no-taps", action="store_true", help="skip the re-read with every unsure group named")
    e.add_argument("--json", action="store_true")
    e.set_defaults(func=cmd_vision_eval)

    s = sub.add_parser("score-photo", help="read a photo of a map sheet and score it")
    s.add_argument("photo", metavar="PHOTO")
    s.add_argument("--cards", required=True, help="comma-separated scoring card ids (edicts A,B,C,D)")
    s.add_argument("--side", choices=list(MAPS), type=str.upper)
    s.add_argument("--json", action="store_true", help="machine-readable output")
    _heroes_flag(s)
    s.set_defaults(func=cmd_score_photo)


def _fail(exc: Exception, as_json: bool) -> int:
    if as_json:
        payload = exc.to_dict() if isinstance(exc, PhotoError) else {"error": str(exc)}
        print(json.dumps(payload))
    else:
        print(f"mapsmith: {exc}", file=sys.stderr)
    return 2


LETTERS = {"empty": ".", "forest": "F", "village": "V", "farm": "A", "water": "W", "monster": "M",
           "mountain": "^", "wasteland": "x", "hero": "H", "destroyed": "X"}
GRID_KEY = "key: " + ", ".join(f"{letter} {word}" for word, letter in LETTERS.items()) + "; ? = doubtful, check it"


def _check_paths(args: argparse.Namespace) -> None:
    """Refuse a folder given as the photo, or an overlay path that cannot be written, before any work."""
    if os.path.isdir(args.photo):
        raise ValueError(f"{args.photo} is a folder; give the photo file itself")
    out = getattr(args, "overlay", None)
    if out:
        if os.path.isdir(out):
            example = os.path.join(out, "overlay.png")
            raise ValueError(f"--overlay {out} is a folder; give a file name such as {example}")
        folder = os.path.dirname(os.path.abspath(out))
        if not os.path.isdir(folder):
            raise ValueError(f"--overlay {out}: the folder {os.path.dirname(out) or folder} does not exist")
def parse_names(items: list[str]) -> dict[int, str]:
    """["3=forest", "g4=water"] → {3: "forest", 4: "water"}; a clear ValueError otherwise."""
    out: dict[int, str] = {}
    for item in items:
        gid, sep, terrain = item.partition("=")
        gid = gid.strip().lower().removeprefix("g")
        if not sep or not gid.isdigit() or not terrain.strip():
            raise ValueError(f"--name {item!r}: write GROUP=TERRAIN, e.g. 3=forest")
        out[int(gid)] = terrain.strip().lower()
    return out


def _read(args: argparse.Namespace, overlay: bool):
    from vision.reading import read_sheet  # OpenCV is imported only when a photo is read

    _check_paths(args)
    names = parse_names(getattr(args, "name", None) or [])
    return read_sheet(args.photo, side=args.side, overlay=overlay, names=names or None,
                      quarter_turns=getattr(args, "turn", None), heroes=args.heroes)


def _overlay_path(path: str, i: int) -> str:
    root, ext = os.path.splitext(path)
    return f"{root}-{i}{ext or '.png'}"


def cmd_read_all(args: argparse.Namespace) -> int:
    """`read PHOTO --all-sheets`: every sheet of a table photo, each with the fields of `read --json`."""
    from vision.multisheet import read_all

    try:
        _check_paths(args)
        if args.name:
            raise ValueError("--name is for one sheet: read that sheet's photo alone to name its groups")
        if getattr(args, "turn", 0):
            raise ValueError("--turn is for one sheet: read that sheet's photo alone to turn it")
        found = read_all(args.photo, side=args.side, overlay=bool(args.overlay), heroes=args.heroes)
    except (PhotoError, ValueError) as exc:
        return _fail(exc, args.json)
    readings = [f.reading for f in found if f.reading is not None]
    refused = [{**f.error.to_dict(), "outline_px": [[round(float(v), 1) for v in pt] for pt in f.outline_px]}
               for f in found if f.error is not None]
    if not readings:
        return _fail(next(f.error for f in found if f.error is not None), args.json)
    if args.overlay:
        for i, r in enumerate(readings, 1):
            try:
                with open(_overlay_path(args.overlay, i), "wb") as fh:
                    fh.write(r.overlay_png())
            except OSError as exc:
                return _fail(ValueError(f"cannot write --overlay {args.overlay}: {exc.strerror or exc}"), args.json)
    if args.json:
        print(json.dumps({"sheets": [r.to_dict() for r in readings], "refused": refused}))
        return 0
    for i, r in enumerate(readings, 1):
        whose = f", table {r.table} seat {r.seat}" if r.table else ""
        print(f"sheet {i} of {len(readings)}: side {r.side}" + (f", sheet {r.sheet_id}" if r.sheet_id else "")
              + whose + f", coins {r.coins}")
        doubt = set(r.doubtful_cells())
        for row_i, row in enumerate(r.grid):
            print(" ".join(LETTERS[t] + ("?" if (row_i, c) in doubt else " ") for c, t in enumerate(row)))
        for w in r.warnings:
            print(f"warning: {w}")
        print()
    print(GRID_KEY)
    for x in refused:
        print(f"a sheet could not be read: {x['error']}")
    return 0


def cmd_read(args: argparse.Namespace) -> int:
    if getattr(args, "all_sheets", False):
        return cmd_read_all(args)
    try:
        reading = _read(args, overlay=bool(args.overlay))
    except (PhotoError, ValueError) as exc:
        return _fail(exc, args.json)
    if args.overlay:
        try:
            with open(args.overlay, "wb") as fh:
                fh.write(reading.overlay_png())
        except OSError as exc:
            return _fail(ValueError(f"cannot write --overlay {args.overlay}: {exc.strerror or exc}"), args.json)
    if args.json:
        print(json.dumps(reading.to_dict()))
        return 0
    print(f"side {reading.side}" + (f", sheet {reading.sheet_id}" if reading.sheet_id else "")
          + f", coins {reading.coins}")
    doubt = set(reading.doubtful_cells())
    for r, row in enumerate(reading.grid):
        print(" ".join(LETTERS[t] + ("?" if (r, c) in doubt else " ") for c, t in enumerate(row)))
    print(GRID_KEY)
    for g in reading.groups:
        mark = "" if g.confidence >= 0.7 or g.source == "given" else "  (unsure: name it with --name)"
        print(f"group {g.id}: {len(g.cells)} cell(s) like {cell_name(*g.example_cell)} -> {g.name} "
              f"({g.confidence:.2f}){mark}")
    for w in reading.warnings:
        print(f"warning: {w}")
    return 0


def cmd_vision_eval(args: argparse.Namespace) -> int:
    from pathlib import Path

    from vision.evaluate import cases_in, evaluate, summary, synthetic_cases, table

    if not args.dirs and not args.synthetic:
        print("mapsmith: give at least one DIR or --synthetic SET", file=sys.stderr)
        return 2
    rows = []
    try:
        for d in args.dirs:
            if not Path(d).is_dir():
                raise ValueError(f"{d}: not a folder")
            cases = list(cases_in(d))
            if not cases:
                raise ValueError(f"{d}: no photo with a grid JSON beside it")
            rows.append((Path(d).name or d, summary(evaluate(cases, taps=not args.no_taps))))
        for kind in args.synthetic:
            rows.append((f"synthetic {kind}", summary(evaluate(synthetic_cases(kind, args.n, args.seed),
                                                               taps=not args.no_taps))))
    except ValueError as exc:
        print(f"mapsmith: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({name: s for name, s in rows}))
    else:
        print(table(rows))
    return 0


def cmd_score_photo(args: argparse.Namespace) -> int:
    from companion.cartographers.board import Board
    from companion.cartographers.cli import print_map_score
    from companion.cartographers.scoring import parse_card_ids, score_map

    try:
        cards = parse_card_ids(args.cards)
        reading = _read(args, overlay=False)
        board = Board.from_words(reading.side, reading.grid)
    except (PhotoError, ValueError) as exc:  # BoardError is a ValueError
        return _fail(exc, args.json)
    result = score_map(board, cards)
    if args.json:
        print(json.dumps({"side": board.side, **result.to_dict(), "coins": reading.coins,
                          "reading": reading.to_dict()}))
        return 0
    print_map_score(result, reading.coins, track=True)
    for w in reading.warnings:
        print(f"warning: {w}")
    return 0
