"""`mapsmith knarr-setup`, `knarr-sim` and `knarr-replay`: the Knarr rules core from a terminal.

Setup prints what to lay out on the table (deck size and composition for the player count, the
first player, ship side, Artifacts with their effects); sim plays a whole virtual-deck game of
random legal moves (`sim.py`) and prints the final table, optionally saving the game; replay loads
a stored game (`KnarrGame.save()` JSON) and prints the same table, so a stored game can be checked
without the web. `knarr-replay --json` is the full table view; it carries the `knarr-sim --json`
keys (players with name/score/reputation/recruit/bracelet/turns, winner, rounds, events) too.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .data import VIKING_COLOUR_NAMES
from .errors import KnarrError
from .game import KnarrGame
from .setup import new_setup, setup_sheet, suggested_artifact_variant
from .sim import artifact_id, play, summary

LABELS = {
    "en": {"first": "First player", "deck": "Viking deck", "cards": "cards",
           "remove": "remove the cards marked {marks}",
           "none": "nothing to remove", "ship": "Ship side", "artifacts": "Artifacts", "start": "Each player",
           "start_text": "1 recruit, 1 silver bracelet, 2 Vikings of different colours in the crew, 3 in hand",
           "turn": "Turn", "round": "round", "active": "plays", "last": "LAST ROUND", "over": "GAME OVER",
           "rank": "Ranking", "vp": "VP", "rep": "reputation", "income": "income", "tokens": "recruit+bracelet"},
    "tr": {"first": "Başlangıç oyuncusu", "deck": "Viking destesi", "cards": "kart",
           "remove": "{marks} işaretli Vikingleri kutuya kaldırın", "none": "çıkarılacak kart yok", "ship": "Gemi yüzü",
           "artifacts": "Eserler", "start": "Her oyuncu",
           "start_text": "1 devşirme, 1 gümüş bilezik, tayfada farklı renkten 2 Viking, elde 3 kart",
           "turn": "Sıra", "round": "tur", "active": "oynuyor", "last": "SON TUR", "over": "OYUN BİTTİ",
           "rank": "Sıralama", "vp": "puan", "rep": "itibar", "income": "gelir", "tokens": "devşirme+bilezik"},
}


def register(sub: argparse._SubParsersAction) -> None:
    s = sub.add_parser("knarr-setup", help="Knarr: what to lay out for a new game")
    s.add_argument("names", nargs="+", help="2 to 4 player names, clockwise")
    s.add_argument("--seed", type=int, required=True)
    s.add_argument("--first", default=None, metavar="SEAT|NAME",
                   help="the first player: a seat counted from 1 in the order of the names, or a name "
                        "(default: drawn from the seed)")
    s.add_argument("--ship-side", choices=["normal", "advanced", "random"], default="normal")
    s.add_argument("--artifacts", choices=["off", "random", "random_with_mead_cup", "suggested"], default="off")
    s.add_argument("--lang", choices=["en", "tr"], default="en")
    s.add_argument("--json", action="store_true", help="machine-readable output")
    s.set_defaults(func=cmd_setup)

    m = sub.add_parser("knarr-sim", help="Knarr: play a whole virtual-deck game of random legal moves")
    m.add_argument("--seed", type=int, required=True)
    m.add_argument("--players", type=int, required=True, help="2 to 4")
    m.add_argument("--ship", choices=["normal", "advanced"], default="normal", help="ship side (default normal)")
    m.add_argument("--artifact", action="append", default=[], metavar="NAME",
                   help="an Artifact in play, by id or name (repeatable), e.g. helmet, 'Golden Bracelet'")
    m.add_argument("--save", metavar="GAME.json", help="write the game (setup + events) for knarr-replay")
    m.add_argument("--json", action="store_true", help="machine-readable final table")
    m.add_argument("--lang", choices=["en", "tr"], default="en")
    m.set_defaults(func=cmd_sim)

    r = sub.add_parser("knarr-replay", help="Knarr: replay a stored game (JSON) and print the table")
    r.add_argument("game", help="GAME.json as written by KnarrGame.save()")
    r.add_argument("--lang", choices=["en", "tr"], default="en")
    r.add_argument("--json", action="store_true", help="print the full JSON view")
    r.set_defaults(func=cmd_replay)


def fail(message: str) -> int:
    print(f"mapsmith: error: {message}", file=sys.stderr)
    return 2


def first_seat(first: str | None, names: list[str]) -> int | None:
    """`--first 2` is the second name (seats counted from 1, as players count); `--first Bora` is Bora's seat."""
    if first is None:
        return None
    if first in names:
        return names.index(first)
    if first.strip().isdigit() and 1 <= int(first) <= len(names):
        return int(first) - 1
    raise ValueError(f"--first must be a seat from 1 to {len(names)} or a player's name, not {first[:40]!r}")


def cmd_setup(args: argparse.Namespace) -> int:
    variant = suggested_artifact_variant(len(args.names)) if args.artifacts == "suggested" else args.artifacts
    try:
        first = first_seat(args.first, args.names)
    except ValueError as exc:
        return fail(str(exc))
    try:
        setup = new_setup(args.names, args.seed, first_player=first, ship_side=args.ship_side,
                          artifact_variant=variant)
    except KnarrError as err:
        return fail(err.text(args.lang))
    sheet = setup_sheet(setup)
    if args.json:
        print(json.dumps({"setup": setup.to_dict(), "sheet": sheet}, ensure_ascii=False, indent=2))
        return 0
    t, lang = LABELS[args.lang], args.lang
    deck = sheet["viking_deck"]
    print(f"{t['first']}: {setup.players[setup.first_player].name}")
    marks = ", ".join(map(str, deck["remove_marks"]))
    print(f"{t['deck']}: {deck['size']} {t['cards']} ({t['remove'].format(marks=marks) if marks else t['none']})")
    for colour, names in VIKING_COLOUR_NAMES.items():
        row = deck["composition"][colour]
        print(f"  {names[lang]:>9}: {row['total']}")
    print(f"{t['start']}: {t['start_text']}")
    print(f"{t['ship']}: {sheet['ship_side']['names'][lang]}")
    for art in sheet["artifacts"]:
        print(f"{t['artifacts']}: {art['name'][lang]} — {art['effect'][lang]}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        data = json.loads(Path(args.game).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return fail(f"{args.game}: no such file")
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return fail(f"{args.game}: not valid JSON ({exc})")
    try:
        game = KnarrGame.load(data)
    except KnarrError as err:
        return fail(err.text(args.lang))
    view = game.to_dict()
    if args.json:
        print(json.dumps({**view, **summary(game)}, ensure_ascii=False, indent=2))
        return 0
    print_table(view, args.lang)
    return 0


def print_table(view: dict, lang: str) -> None:
    """The table as text: whose turn (or game over) and the ranking. Shared by sim and replay."""
    t = LABELS[lang]
    if view["finished"]:
        print(t["over"])
    else:
        active = view["players"][view["active_player"]]["name"]
        banner = f" — {t['last']}" if view["last_round"] else ""
        print(f"{t['turn']} {view['turn']} ({t['round']} {view['round']}): {active} {t['active']}{banner}")
    print(f"{t['rank']}:")
    for entry in view["ranking"]:
        p = view["players"][entry["player"]]
        print(f"  {entry['rank']}. {p['name']}: {p['score']} {t['vp']}, {t['rep']} {p['reputation']} "
              f"({t['income']} {p['income']}), {t['tokens']} {p['tiebreak']}")


def cmd_sim(args: argparse.Namespace) -> int:
    try:
        artifacts = [artifact_id(a) for a in args.artifact]
        game, problems = play(args.seed, args.players, ship_side=args.ship, artifacts=artifacts, check=True)
    except KnarrError as err:
        return fail(err.text(args.lang))
    if args.save:
        try:
            Path(args.save).write_text(json.dumps(game.save(), ensure_ascii=False), encoding="utf-8")
        except OSError as exc:
            return fail(f"{args.save}: cannot write ({exc.strerror})")
    for problem in problems:
        print(f"mapsmith: invariant broken: {problem}", file=sys.stderr)
    if args.json:
        print(json.dumps(summary(game), ensure_ascii=False, indent=2))
    else:
        print_table(game.to_dict(), args.lang)
    return 1 if problems else 0
