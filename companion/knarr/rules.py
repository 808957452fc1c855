"""Pure Knarr rule functions: income, caps, seat order, the end of the game and the final ranking.

Everything here is a function of plain numbers so the event-sourced game (`game.py`), the web
screens and the tests share one definition of each rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

from .data import END_TRIGGER_SCORE, INCOME_BY_POSITION, INCOME_THRESHOLDS, REPUTATION_MAX, TOKEN_CAP


def income_for(reputation: int) -> int:
    """VP paid at the start of the player's own turn for this reputation position.

    The rulebook pays "the highest value reached"; reputation never goes down in Knarr, so the
    highest value reached is the value at the current position.
    """
    if not 0 <= reputation <= REPUTATION_MAX:
        raise ValueError(f"reputation {reputation} is off the track (0..{REPUTATION_MAX})")
    return INCOME_BY_POSITION[reputation]


def next_income_threshold(reputation: int) -> tuple[int, int] | None:
    """(position, income) of the next printed threshold above this position, or None at the top.

    The table screen shows "2 more reputation for 2 VP per turn", which is what players forget.
    """
    for position, income in INCOME_THRESHOLDS:
        if position > reputation:
            return position, income
    return None


def add_reputation(current: int, amount: int) -> tuple[int, int]:
    """Move the reputation marker; returns (new position, points lost beyond the last space)."""
    if amount < 0:
        raise ValueError("reputation never decreases in Knarr")
    raw = current + amount
    new = min(raw, REPUTATION_MAX)
    return new, raw - new


def add_tokens(current: int, delta: int) -> tuple[int, int]:
    """Gain (delta > 0) or spend (delta < 0) recruits or bracelets; returns (new count, tokens lost).

    A gain beyond the cap of 3 is lost (the returned loss lets the UI say so). Spending more than
    the ship holds is not a rule outcome but an input error, so it raises.
    """
    raw = current + delta
    if raw < 0:
        raise ValueError(f"cannot spend {-delta} tokens with only {current}")
    new = min(raw, TOKEN_CAP)
    return new, raw - new


def triggers_end(score: int) -> bool:
    """Reaching 40 or more VP, at any moment and from any source, triggers the last round."""
    return score >= END_TRIGGER_SCORE


def next_seat(seat: int, player_count: int) -> int:
    """Turn order is clockwise: the next seat in the list (seats are listed clockwise)."""
    return (seat + 1) % player_count


def last_seat_of_round(first_player: int, player_count: int) -> int:
    """The player to the right of the first player: the last turn of every round."""
    return (first_player - 1) % player_count


@dataclass(frozen=True)
class RankEntry:
    """One line of the final ranking; the flags let the UI explain how the place was decided."""

    player: int
    rank: int  # 1-based; tied players share a rank (the next rank is skipped)
    score: int
    tiebreak: int  # recruits + silver bracelets still on the ship
    tied_on_score: bool  # another player has the same score, so the tie-break decided (or not)
    shared: bool  # another player has the same score AND the same tie-break: the place is shared

    def to_dict(self) -> dict[str, int | bool]:
        return asdict(self)


def ranking(results: Sequence[tuple[int, int]]) -> list[RankEntry]:
    """Rank players from (score, recruits + bracelets) pairs, indexed by seat.

    Most VP wins; a VP tie goes to the most recruits + bracelets; a tie on both is shared
    (the rulebook is silent there; Board Game Arena shares the rank, and so do we).
    """
    order = sorted(range(len(results)), key=lambda i: (-results[i][0], -results[i][1], i))
    entries: list[RankEntry] = []
    for pos, seat in enumerate(order):
        score, tiebreak = results[seat]
        first_equal = next(i for i, s in enumerate(order) if results[s] == (score, tiebreak))
        same_score = sum(1 for r in results if r[0] == score)
        same_both = sum(1 for r in results if r == (score, tiebreak))
        entries.append(RankEntry(seat, (first_equal if first_equal < pos else pos) + 1, score, tiebreak,
                                 same_score > 1, same_both > 1))
    return entries


def winners(results: Sequence[tuple[int, int]]) -> list[int]:
    """Seats sharing first place."""
    return [e.player for e in ranking(results) if e.rank == 1]
