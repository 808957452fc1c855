"""`mapsmith read PHOTO` and `mapsmith score-photo PHOTO --cards a,b,c,d`."""

from __future__ import annotations

import argparse
import json
import sys

from vision.errors import PhotoError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("read", help="read a photo of a map sheet into an 11x11 grid")
    p.add_argument("photo", metavar="PHOTO", help="JPEG, PNG or WebP photo of the sheet")
    p.add_argument("--side", choices=["A", "B"], type=str.upper, help="map side (only needed for unmarked sheets)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--overlay", metavar="OUT.png", help="write a debug image of the reading")
    p.set_defaults(func=cmd_read)

    s = sub.add_parser("score-photo", help="read a photo of a map sheet and score it")
    s.add_argument("photo", metavar="PHOTO")
    s.add_argument("--cards", required=True, help="comma-separated scoring card ids (edicts A,B,C,D)")
    s.add_argument("--side", choices=["A", "B"], type=str.upper)
    s.add_argument("--json", action="store_true", help="machine-readable output")
    s.set_defaults(func=cmd_score_photo)


def _fail(exc: Exception, as_json: bool) -> int:
    if as_json:
        payload = exc.to_dict() if isinstance(exc, PhotoError) else {"error": str(exc)}
        print(json.dumps(payload))
    else:
        print(f"mapsmith: {exc}", file=sys.stderr)
    return 2


def _read(args: argparse.Namespace, overlay: bool):
    from vision.reading import read_sheet  # OpenCV is imported only when a photo is read

    return read_sheet(args.photo, side=args.side, overlay=overlay)


def cmd_read(args: argparse.Namespace) -> int:
    try:
        reading = _read(args, overlay=bool(args.overlay))
    except (PhotoError, ValueError) as exc:
        return _fail(exc, args.json)
    if args.overlay:
        with open(args.overlay, "wb") as fh:
            fh.write(reading.overlay_png())
    if args.json:
        print(json.dumps(reading.to_dict()))
        return 0
    print(f"side {reading.side}" + (f", sheet {reading.sheet_id}" if reading.sheet_id else "")
          + f", coins {reading.coins}")
    letters = {"empty": ".", "forest": "F", "village": "V", "farm": "A", "water": "W", "monster": "M",
               "mountain": "^", "wasteland": "x"}
    doubt = set(reading.doubtful_cells())
    for r, row in enumerate(reading.grid):
        print(" ".join(letters[t] + ("?" if (r, c) in doubt else " ") for c, t in enumerate(row)))
    for w in reading.warnings:
        print(f"warning: {w}")
    return 0


def cmd_score_photo(args: argparse.Namespace) -> int:
    from companion.cartographers.board import Board, BoardError
    from companion.cartographers.data import SCORING_BY_ID
    from companion.cartographers.scoring import monster_penalty, mountain_coins, score_card

    cards = [c.strip() for c in args.cards.split(",") if c.strip()]
    unknown = [c for c in cards if c not in SCORING_BY_ID]
    if not cards or unknown:
        return _fail(ValueError(f"unknown scoring card {(unknown or [''])[0]!r} (known: {', '.join(SCORING_BY_ID)})"),
                     args.json)
    try:
        reading = _read(args, overlay=False)
        board = Board.from_words(reading.side, reading.grid)
    except (PhotoError, BoardError, ValueError) as exc:
        return _fail(exc, args.json)
    results = [score_card(c, board) for c in cards]
    mountains = mountain_coins(board)
    monsters = monster_penalty(board)
    if args.json:
        print(json.dumps({
            "side": board.side,
            "cards": {r.card_id: r.to_dict() for r in results},
            "coins": reading.coins,
            "mountain_coins": mountains.points,
            "monsters": monsters.points,
            "monster_cells": [list(c) for c in monsters.cells],
            "reading": reading.to_dict(),
        }))
        return 0
    width = max([len(SCORING_BY_ID[c].name_en) for c in cards] + [len("surrounded mountains")])
    for r in results:
        print(f"{SCORING_BY_ID[r.card_id].name_en:<{width}}  {r.points:>3}")
    print(f"{'coins (coin track)':<{width}}  {reading.coins:>3}")
    print(f"{'surrounded mountains':<{width}}  {mountains.points:>3}")
    print(f"{'monster penalty':<{width}}  {-monsters.points:>3}")
    for w in reading.warnings:
        print(f"warning: {w}")
    return 0
