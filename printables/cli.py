"""`mapsmith print ...`: map sheets, score sheets, the Knarr pad and the sheet layout as JSON.

Bad arguments exit with status 2 and ONE line on stderr (no usage dump), so
scripts and the tests can rely on the message.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import NoReturn

from companion.cartographers.data import CARD_SETS
from companion.cartographers.sides import normalise_side

from .knarrpad import knarr_pad_pdf
from .layout import PAPERS, SIDES, sheet_layout
from .mapsheet import map_sheet_pdf
from .scoresheet import scores_pdf
from .strings import LANGS

USAGE_EXIT = 2


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are a single `mapsmith print ...: error: ...` line, exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(USAGE_EXIT, f"{self.prog}: error: {message}\n")


def _one_line_error(parser: argparse.ArgumentParser) -> None:
    """Give an existing parser (made by the top-level dispatcher) the one-line error behaviour."""

    def error(message: str) -> NoReturn:
        parser.exit(USAGE_EXIT, f"{parser.prog}: error: {message}\n")

    parser.error = error  # type: ignore[method-assign]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("print", help="printable PDFs: map sheets, score sheets, the Knarr pad; the sheet layout")
    _one_line_error(p)
    p.set_defaults(func=lambda _args: _missing_subcommand(p))
    kinds = p.add_subparsers(dest="printable", metavar="WHAT", parser_class=OneLineParser)

    m = kinds.add_parser("map", help="Cartographers map sheets (one page per copy, each with its own QR id)")
    m.add_argument("--side", default="A", type=normalise_side,
                   help=f"map side (default A): {', '.join(SIDES)}, or a table's own side code (~Name~…)")
    _common(m)
    m.add_argument("--copies", type=int, default=1, help="number of sheets (default 1)")
    m.add_argument("--table", help="table code to put in every QR code (seats 1..N)")
    m.set_defaults(func=cmd_map)

    s = kinds.add_parser("scores", help="Cartographers score sheet for the whole table")
    s.add_argument("--players", type=int, default=4, help="rows on the sheet, 1-12 (default 4)")
    _common(s)
    s.add_argument("--copies", type=int, default=1, help="number of sheets (default 1)")
    s.add_argument("--set", dest="card_set", default="base", type=str.lower, choices=tuple(CARD_SETS),
                   help="whose seasons: base (8/8/7/6) or heroes (8/7/7/6)")
    s.add_argument("--skills", help="comma-separated skill names in play (Skills packs); '' leaves write-in lines")
    s.set_defaults(func=cmd_scores)

    k = kinds.add_parser("knarr", help="Knarr score pad (reputation track with income steps, running score)")
    k.add_argument("--players", type=int, default=4, help="2, 3 or 4 (default 4)")
    _common(k)
    k.add_argument("--copies", type=int, default=1, help="number of pads (default 1)")
    k.set_defaults(func=cmd_knarr)

    lay = kinds.add_parser("layout", help="the sheet geometry as JSON (points from the page's top-left)")
    lay.add_argument("--side", default="A", type=str.upper, choices=SIDES, help="map side (default A)")
    lay.add_argument("--paper", default="a4", type=str.lower, choices=tuple(PAPERS), help="paper size (default a4)")
    lay.set_defaults(func=cmd_layout)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--paper", default="a4", type=str.lower, choices=tuple(PAPERS), help="paper size (default a4)")
    p.add_argument("--lang", default="en", type=str.lower, choices=LANGS, help="sheet language (default en)")
    p.add_argument("-o", "--output", required=True, help="output PDF path ('-' for stdout)")


def _missing_subcommand(p: argparse.ArgumentParser) -> int:
    print(f"{p.prog}: error: choose what to print: map, scores, knarr or layout", file=sys.stderr)
    return USAGE_EXIT


def fail(message: str) -> int:
    print(f"mapsmith print: error: {message}", file=sys.stderr)
    return USAGE_EXIT


def _write(pdf: bytes, output: str) -> int:
    if output == "-":
        sys.stdout.buffer.write(pdf)
        sys.stdout.buffer.flush()
        return 0
    try:
        Path(output).write_bytes(pdf)
    except OSError as exc:
        print(f"mapsmith print: error: cannot write {output}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0


def _pdf_command(build):
    """A sub-command that builds a PDF from the parsed arguments and writes it; ValueError → one line, exit 2."""

    def run(args: argparse.Namespace) -> int:
        try:
            pdf = build(args)
        except ValueError as exc:
            return fail(str(exc))
        return _write(pdf, args.output)

    return run


cmd_map = _pdf_command(lambda a: map_sheet_pdf(a.side, a.paper, a.lang, copies=a.copies, table=a.table))
cmd_scores = _pdf_command(lambda a: scores_pdf(
    a.players, a.paper, a.lang, copies=a.copies, card_set=a.card_set,
    skills=None if a.skills is None else [s.strip() for s in a.skills.split(",") if s.strip()]))
cmd_knarr = _pdf_command(lambda a: knarr_pad_pdf(a.players, a.paper, a.lang, copies=a.copies))


def cmd_layout(args: argparse.Namespace) -> int:
    print(json.dumps(sheet_layout(args.side, args.paper).to_dict(), indent=2))
    return 0
