"""`mapsmith check-season`: the season referee from a terminal."""

from __future__ import annotations

import argparse
import json

from .board import RUINS_NORMAL, RUINS_RULES, BoardError, new_mountain_coins
from .cli import fail, load_map
from .referee import RefereeError, card_name, check_season


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check-season", help="check a season's drawings against the cards revealed that season")
    p.add_argument("before", help="MAP.json before the season (as for `mapsmith score`)")
    p.add_argument("after", help="MAP.json after the season")
    p.add_argument("--cards", required=True,
                   help="the season's revealed cards in order, comma-separated: 07,05,12,ambush-02,…")
    p.add_argument("--solo", action="store_true", help="solo game: ambush monsters by the corner walk")
    p.add_argument("--ruins-rule", choices=RUINS_RULES, default=RUINS_NORMAL,
                   help="what a Ruins card allows when no shape can cover a ruins space: 'normal' (default, the "
                        "rules as given: normal placement rules apply) or 'single_square' (the printed rulebook: "
                        "a single 1×1 square of any terrain)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_check_season)


def cmd_check_season(args: argparse.Namespace) -> int:
    cards = [c.strip() for c in args.cards.split(",") if c.strip()]
    if not cards:
        return fail("--cards needs at least one card id")
    try:
        before, coins_before = load_map(args.before)
        after, coins_after = load_map(args.after)
        verdict = check_season(before, after, cards, solo=args.solo, ruins_rule=args.ruins_rule)
    except (BoardError, RefereeError) as exc:
        return fail(str(exc))
    if args.json:
        print(json.dumps(verdict.to_dict()))
        return 0
    mountains = new_mountain_coins(before, after)
    if verdict.legal:
        print("This season's drawings match the cards ✓")
    else:
        print(f"This season's drawings do not match the cards: {len(verdict.problems)} problem(s)")
    for d in verdict.placements:
        cells = " ".join(f"{r + 1}/{c + 1}" for r, c in d.cells)
        notes = (" +1 coin" if d.coin else "") + (" (1×1 fallback)" if d.fallback else "")
        print(f"  {card_name(d.card):<28} {d.terrain.value:<8} {cells}{notes}")
    for p in verdict.problems:
        print(f"  ! {p.code}: {p.message}")
    if verdict.coin_range and verdict.coin_range[0] != verdict.coin_range[1]:
        print(f"  (the drawings can be read more than one way: {verdict.coin_range[0]} to {verdict.coin_range[1]} "
              "coins from coin shapes)")
    expected = verdict.coins_from_shapes + mountains
    print(f"coins this season: {verdict.coins_from_shapes} from coin shapes + {mountains} from mountains = {expected}")
    if coins_after - coins_before != expected:
        print(f"  ! the coin track went from {coins_before} to {coins_after} "
              f"(+{coins_after - coins_before}), the drawings earned +{expected}")
    return 0
