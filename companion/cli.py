"""The `mapsmith` command: one entry point whose sub-commands live with the package that owns them.

Each package exposes `register(subparsers)` in its own `cli` module; this file only
collects them, so importing the rules for `mapsmith score` never pulls in OpenCV
or Flask. A package that fails to import (e.g. a missing optional dependency)
only loses its own sub-commands.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

COMMAND_MODULES = (
    "companion.cartographers.cli",
    "companion.cartographers.referee_cli",
    "companion.knarr.cli",
    "printables.cli",
    "vision.cli",
    "web.cli",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mapsmith",
        description="Paper-play companion and scorer for Cartographers and Knarr.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and name.startswith(exc.name):
                continue  # that package has no commands yet
            raise
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("mapsmith: stopped", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `mapsmith deal ... | head`: the reader left, nothing to say
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except Exception as exc:  # the last line of defence: one sentence, never a traceback
        if os.environ.get("MAPSMITH_DEBUG"):
            raise
        print(f"mapsmith: unexpected error ({type(exc).__name__}: {str(exc)[:200]}); "
              "please report it (MAPSMITH_DEBUG=1 shows the details)", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
