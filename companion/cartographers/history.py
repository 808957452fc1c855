"""A game's history season by season, and the referee's verdict on each player's season.

The session engine keeps only the current season's turns; the history replays the stored events once and keeps,
per season, the cards revealed in order and each player's last saved map (and whether it was saved after the
season ended, i.e. complete). From that the referee checks a season by the table's ruins rule: the map before is
the player's last map of an earlier season (a blank sheet at first), the cards are those revealed since.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .board import Board, new_mountain_coins
from .data import COIN_TRACK_LENGTH
from .referee import RefereeError, Verdict, check_season
from .scoring import mountain_coins
from .session import Game, Setup


@dataclass
class SeasonLog:
    season: int
    cards: list[str] = field(default_factory=list)
    maps: dict[int, Board] = field(default_factory=dict)  # the player's last map saved in this season
    complete: dict[int, bool] = field(default_factory=dict)  # was it saved once the season had ended?


@dataclass(frozen=True)
class GameHistory:
    game: Game
    seasons: tuple[SeasonLog, ...]

    @classmethod
    def replay(cls, setup: Setup, events: Sequence[dict[str, Any]]) -> GameHistory:
        game = Game.new(setup)
        logs = [SeasonLog(0)]
        for event in events:
            before_turns = len(game.turns) if game.season == logs[-1].season else 0
            game = game.apply(event)
            while game.season > logs[-1].season:
                logs.append(SeasonLog(logs[-1].season + 1))
            log = logs[-1]
            if event.get("type") == "reveal":
                for turn in game.turns[before_turns:]:
                    log.cards += turn["cards"]
            for player in range(len(setup.players)):
                board = game.known_map(player)
                if board is not None and log.maps.get(player) is not board and _changed(log, logs, player, board):
                    log.maps[player] = board
                    log.complete[player] = game.phase != "explore"
        return cls(game, tuple(logs))

    # -- per player ---------------------------------------------------------------------------------------------
    def map_before(self, player: int, season: int) -> tuple[Board, int]:
        """The player's last map saved at the end of a season before `season`, and that season (-1: a blank sheet).

        A map saved in the middle of a season is skipped: the drawings after it would look like this season's."""
        for s in range(season - 1, -1, -1):
            board = self.seasons[s].maps.get(player)
            if board is not None and self.seasons[s].complete.get(player):
                return board, s
        return Board.blank(self.game.setup.side), -1

    def cards_since(self, after_season: int, season: int) -> list[str]:
        return [c for s in range(after_season + 1, season + 1) for c in self.seasons[s].cards]

    def check(self, player: int, season: int, after: Board | None = None) -> SeasonCheck | None:
        """The referee on the player's map of `season` (the saved one, or `after`); None when nothing to check."""
        if season >= len(self.seasons):
            return None
        log = self.seasons[season]
        if after is None:
            after = log.maps.get(player)
            if after is None:
                return None
        before, since = self.map_before(player, season)
        cards = self.cards_since(since, season)
        try:
            verdict = check_season(before, after, cards, solo=self.game.setup.solo,
                                   unique_cards=since == season - 1, ruins_rule=self.game.setup.ruins_rule)
        except RefereeError:
            return None  # a card the referee does not know (an expansion's): nothing to say rather than a guess
        return SeasonCheck(season, since, tuple(cards), verdict, new_mountain_coins(before, after))

    def shape_coins_before(self, player: int, season: int) -> int:
        """Coins from coin shapes in the seasons before `season`, as the referee counts them."""
        total = 0
        for s in range(season):
            result = self.check(player, s)
            if result is not None:
                total += result.verdict.coins_from_shapes
        return total

    def coin_track(self, player: int, season: int, after: Board | None = None) -> CoinTrack | None:
        """Coins without typing: coin shapes up to `season` (referee) + mountains the map shows surrounded."""
        result = self.check(player, season, after)
        if result is None:
            return None
        board = after if after is not None else self.seasons[season].maps[player]
        earlier = self.shape_coins_before(player, result.since + 1)
        shapes = earlier + result.verdict.coins_from_shapes
        mountains = mountain_coins(board).points
        return CoinTrack(shapes, mountains, min(shapes + mountains, COIN_TRACK_LENGTH))


@dataclass(frozen=True)
class SeasonCheck:
    season: int
    since: int  # the season of the map before (-1: blank sheet); < season - 1 when seasons were skipped
    cards: tuple[str, ...]
    verdict: Verdict
    mountain_coins: int  # coins from mountains surrounded during these seasons


@dataclass(frozen=True)
class CoinTrack:
    shapes: int
    mountains: int
    total: int  # capped at the coin track's 14 circles

    def to_dict(self) -> dict[str, int]:
        return {"shapes": self.shapes, "mountains": self.mountains, "total": self.total}


def _changed(log: SeasonLog, logs: list[SeasonLog], player: int, board: Board) -> bool:
    """A new map for this season? Not when it is only the last season's map carried over."""
    if player in log.maps:
        return True  # saved again this season (perhaps once the season ended)
    for earlier in reversed(logs[:-1]):
        if player in earlier.maps:
            return earlier.maps[player].grid != board.grid
    return True



# -- finished games and statistics ------------------------------------------------------------------------------

def game_summary(history: GameHistory) -> dict[str, Any]:
    """What the history lists of one game: players, the four edicts, final scores, and season by season each
    player's map (as terrain words) and score. Plain JSON, so it can be cached and exported as it is."""
    game = history.game
    setup = game.setup
    result = game.result()
    names = list(setup.players)
    seasons = []
    for log in history.seasons:
        players = []
        for p in range(len(names)):
            board = log.maps.get(p)
            players.append({"grid": board.to_words() if board else None,
                            "score": _score_view(game.season_scores(p)[log.season])})
        seasons.append({"index": log.season, "cards": list(log.cards), "players": players})
    return {
        "over": game.phase == "over",
        "side": setup.side,
        "solo": setup.solo,
        "players": names,
        "edicts": list(game.scoring),
        "ranking": [{"name": r["name"], "total": r["total"], "rank": r["rank"], "monsters": r["monsters"]}
                    for r in result["ranking"]],
        "winners": [names[w] for w in result["winners"]],
        "solo_result": result.get("solo"),
        "seasons": seasons,
    }


def _score_view(entry: dict[str, Any] | None) -> dict[str, Any] | None:
    if entry is None:
        return None
    return {k: entry[k] for k in ("edicts", "cards", "coins", "monsters", "total", "source") if k in entry}


def player_statistics(summaries: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per player across finished games (players are matched by name, ignoring case and spaces around it):
    games, wins, average and best final score, and the best season score on each scoring card."""
    stats: dict[str, dict[str, Any]] = {}
    for summary in summaries:
        if not summary.get("over"):
            continue
        for row in summary["ranking"]:
            key = row["name"].strip().casefold()
            s = stats.setdefault(key, {"name": row["name"].strip(), "games": 0, "wins": 0, "totals": [],
                                       "best_by_card": {}})
            s["games"] += 1
            s["wins"] += row["name"] in summary["winners"]
            s["totals"].append(row["total"])
        for season in summary["seasons"]:
            for name, entry in zip(summary["players"], season["players"], strict=True):
                score = entry["score"]
                if not score:
                    continue
                best = stats[name.strip().casefold()]["best_by_card"]
                for card, points in zip(score["cards"], score["edicts"], strict=True):
                    best[card] = max(best.get(card, points), points)
    out = []
    for s in stats.values():
        totals = s.pop("totals")
        s["average"] = round(sum(totals) / len(totals), 1)
        s["best"] = max(totals)
        s["best_by_card"] = dict(sorted(s["best_by_card"].items()))
        out.append(s)
    return sorted(out, key=lambda s: (-s["wins"], -s["average"], s["name"].casefold()))
