"""`mapsmith score` and `mapsmith deal`: the rules core from a terminal."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .board import Board, BoardError
from .data import CARD_SETS, MAPS, SCORING_BY_ID
from .scoring import MapScore, parse_card_ids, score_map
from .session import MAX_PLAYERS, Game, GameError, Setup, card_view
from .shapes import render


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("score", help="score a map given as JSON")
    p.add_argument("map", help='MAP.json: {"side": "A"|"B"|"C"|"D", "grid": [11 rows of 11 terrain words], "coins": n}')
    p.add_argument("--cards", help="comma-separated scoring card ids (default: the 16 of the side's set)")
    p.epilog = 'A map file without "side" is scored as side A (a note on stderr says so).'
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_score)

    d = sub.add_parser("deal", help="play a whole deal of the explore deck in the terminal")
    d.add_argument("--seed", type=int, required=True,
                   help="any whole number; the same seed deals the same cards in the same order")
    d.add_argument("--solo", action="store_true", help="solo game (ambushes placed by the corner rule)")
    d.add_argument("--side", choices=list(MAPS), default="A", type=str.upper, help="map side (default A)")
    d.add_argument("--deck", choices=list(CARD_SETS), default="base", type=str.lower,
                   help="explore deck, ambushes, heroes and seasons: base or heroes (default base)")
    d.add_argument("--players", type=int, default=None,
                   help=f"number of players, 1 to {MAX_PLAYERS} (default 1 with --solo, else 2)")
    d.epilog = SHAPE_KEY
    d.set_defaults(func=cmd_deal)


SHAPE_KEY = "Key to the shapes: X = a space to draw, . = a gap, / = next row, $ = the shape earns a coin"


def fail(message: str) -> int:
    print(f"mapsmith: error: {message}", file=sys.stderr)
    return 2


def load_map(path: str) -> tuple[Board, int]:
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BoardError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BoardError(f"{path}: not valid JSON ({exc})") from None
    if not isinstance(raw, dict):
        raise BoardError("the map file must hold a JSON object with side, grid and coins")
    if "side" not in raw:
        print(f'mapsmith: note: {path} has no "side"; scoring it as side A', file=sys.stderr)
    coins = raw.get("coins", 0)
    if not isinstance(coins, int) or isinstance(coins, bool) or not 0 <= coins <= 14:
        raise BoardError("coins must be a whole number from 0 to 14")
    return Board.from_words(raw.get("side", "A"), raw.get("grid")), coins


def cmd_score(args: argparse.Namespace) -> int:
    try:
        board, coins = load_map(args.map)
        cards = parse_card_ids(args.cards, board.side)
    except ValueError as exc:  # BoardError is a ValueError
        return fail(str(exc))
    result = score_map(board, cards)
    if args.json:
        print(json.dumps({"side": board.side, **result.to_dict(), "coins": coins,
                          "total_coins": coins + result.mountain_coins.points}))
        return 0
    print_map_score(result, coins, track=False)
    return 0


def print_map_score(result: MapScore, coins: int, track: bool) -> None:
    """The plain-text table shared by `mapsmith score` and `mapsmith score-photo`, ending in ONE total.

    `mapsmith score` is given the coins earned from coin shapes, so the coins of surrounded mountains
    are added to them; a photo reads the coin track, which already holds the mountain coins, so
    that line only says how many of the track's coins came from mountains and adds nothing.
    """
    mountains = result.mountain_coins.points
    if track:
        coin_lines = [("coins (coin track)", coins), ("  of which from mountains (already on the track)", None)]
        total_coins = coins
    else:
        coin_lines = [("coins from coin shapes", coins), ("coins from mountains", mountains)]
        total_coins = coins + mountains
    rows: list[tuple[str, int | str]] = [(SCORING_BY_ID[c.card_id].name_en, c.points) for c in result.cards]
    rows += [(label, mountains if value is None else value) for label, value in coin_lines]
    rows.append(("monster penalty", -result.monsters.points))
    total = sum(c.points for c in result.cards) + total_coins - result.monsters.points
    rows.append(("total (each card once)" if len(result.cards) > 4 else "total", total))
    width = max(len(label) for label, _ in rows)
    for label, value in rows:
        print(f"{label:<{width}}  {value:>3}")


def describe(cid: str) -> str:
    v = card_view(cid)
    if v["kind"] == "ambush":
        return f"AMBUSH {v['name_en']} (pass {v['pass_to']}, solo from {v['solo_corner']} {v['direction']})"
    if v["kind"] == "ruins":
        return f"RUINS {v['name_en']}"
    if v["kind"] == "hero":
        return f"HERO {v['name_en']} (draw a 1x1 hero, then mark the hits)"
    coin = " (coin on the small shape)" if any(o["coin"] for o in v["options"]) else ""
    return f"{v['name_en']} [time {v['time']}] {'/'.join(v['terrains'])}{coin}"


def cmd_deal(args: argparse.Namespace) -> int:
    players = args.players if args.players is not None else (1 if args.solo else 2)
    if not 1 <= players <= MAX_PLAYERS:
        return fail(f"--players must be a whole number from 1 to {MAX_PLAYERS}, not {players}")
    if args.solo and players != 1:
        return fail("--solo plays with one player")
    try:
        game = Game.new(Setup(seed=args.seed, side=args.side, players=tuple(f"P{i + 1}" for i in range(players)),
                              deck=args.deck))
    except GameError as exc:
        return fail(exc.message)
    print(f"Seed {args.seed}, side {args.side}, {'solo' if players == 1 else f'{players} players'}")
    print(SHAPE_KEY)
    for letter, cid in zip("ABCD", game.scoring, strict=True):
        print(f"  Edict {letter}: {SCORING_BY_ID[cid].name_en}")
    while game.phase != "over":
        season = game.setup.seasons[game.season]
        print(f"\n== {season.name_en} (threshold {season.threshold}, edicts {' + '.join(season.edicts)}) ==")
        while game.phase == "explore":
            game = game.apply({"type": "reveal"})
            turn = game.turns[-1]
            parts = [describe(c) for c in turn["cards"]]
            note = (" — must cover ruins if possible (if no shape can, normal placement rules apply)"
                    if turn["ruins_required"] else "")
            print(f"  [{game.time}/{season.threshold}] " + " → ".join(parts) + note)
            shapes = card_view(turn["cards"][-1])["options"]
            if shapes:
                drawn = (render(tuple(map(tuple, o["cells"]))).replace("\n", "/") + (" $" if o["coin"] else "")
                         for o in shapes)
                print("      shapes: " + "   or   ".join(drawn))
        print(f"  season ends at time {game.time}; score edicts {' + '.join(season.edicts)}")
        game = game.apply({"type": "next_season"})
    print(f"\nGame over. Ambushes revealed: {len(game.removed_ambushes)}")
    return 0
