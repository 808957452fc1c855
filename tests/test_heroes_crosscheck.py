"""The 16 Heroes scoring cards against an independent implementation on 1,000+ seeded maps.

`tests/independent/heroes_reference.py` was written from the reference facts' algorithm texts by someone who had not
read `companion.cartographers.scoring`; here both score the same maps: realistic finished Heroes maps (played out
with the Heroes deck on sides C and D) and uniformly random maps (every terrain word, hero and destroyed included,
so that edge cases a realistic game rarely reaches are met too).
"""
from __future__ import annotations

import random

import pytest

from bench.mapgen import heroes_map
from companion.cartographers.board import Board
from companion.cartographers.scoring import score_card
from tests.independent import heroes_reference as ref

WORDS = ("empty", "empty", "forest", "village", "farm", "water", "monster", "hero", "destroyed")


def random_board(seed: int) -> Board:
    """A uniformly random side C/D map: free cells get any word; printed cells stay as the side prints them."""
    rng = random.Random(f"heroes-crosscheck/{seed}")
    side = rng.choice("CD")
    blank = Board.blank(side).to_words()
    rows = [[w if w in ("mountain", "wasteland") else rng.choice(WORDS) for w in row] for row in blank]
    return Board.from_words(side, rows)


@pytest.mark.parametrize("kind", ["realistic", "random"])
def test_heroes_cards_agree_with_an_independent_scorer(kind: str) -> None:
    disagreements = []
    for seed in range(500):
        board = heroes_map(seed)[0] if kind == "realistic" else random_board(seed)
        words = board.to_words()
        for card in ref.CARDS:
            ours, theirs = score_card(card, board).points, ref.score(card, words)
            if ours != theirs:
                disagreements.append((seed, card, ours, theirs))
    assert disagreements == []
