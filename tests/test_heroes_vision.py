"""Sides C and D read back from synthetic photos like A and B (print → photo → read → score)."""

from __future__ import annotations

import pytest

from companion.cartographers.board import Board
from companion.cartographers.data import CARD_SETS

synth = pytest.importorskip("bench.synthphoto")
read_sheet = pytest.importorskip("vision.reading").read_sheet


@pytest.mark.parametrize("side,style,seed", [("C", "marker", 300), ("D", "pencil", 301), ("D", "marker", 302)])
def test_heroes_sides_read_back_exactly(side, style, seed):
    from companion.cartographers.scoring import score_card

    p = synth.make_photo(seed, synth.PhotoSpec(style=style, side=side, megapixels=3.0))
    r = read_sheet(p.data, overlay=False)
    assert r.side == side and r.sheet_id == p.sheet_id
    assert r.grid == p.grid and r.coins == p.coins
    truth, read = Board.from_words(side, p.grid), Board.from_words(r.side, r.grid)
    for card in CARD_SETS["heroes"].scoring:
        assert score_card(card.id, read) == score_card(card.id, truth)
