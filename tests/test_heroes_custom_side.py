"""A table's own map side: defined, played, printed, photographed (synthetic), read back and scored end to end."""

from __future__ import annotations

import json

import numpy as np
import pytest

from companion.cartographers.board import Board, BoardError
from companion.cartographers.scoring import score_card
from companion.cartographers.session import Game, GameError, Setup
from companion.cartographers.sides import SideError, encode_side, side_layout
from companion.cartographers.terrain import Terrain
from companion.cli import main

LAKE = encode_side("Frozen Lake", mountains=[(2, 2), (3, 8), (7, 3), (8, 8)], ruins=[(1, 5), (9, 5)],
                   wastelands=[(5, 5), (5, 6), (6, 5), (6, 6)], predrawn=[((0, 0), "forest"), ((10, 10), "water")])


def test_code_round_trip_and_validation():
    m = side_layout(LAKE)
    assert m.name_en == "Frozen Lake" and m.card_set == "custom"
    assert m.mountains == ((2, 2), (3, 8), (7, 3), (8, 8)) and len(m.wastelands) == 4
    assert dict(m.predrawn) == {(0, 0): Terrain.FOREST, (10, 10): Terrain.WATER}
    assert encode_side("Frozen Lake", mountains=[(8, 8), (7, 3), (3, 8), (2, 2)], ruins=[(9, 5), (1, 5)],
                               wastelands=[(6, 6), (6, 5), (5, 6), (5, 5)],
                               predrawn=[((10, 10), "water"), ((0, 0), "forest")]) == LAKE
    with pytest.raises(SideError, match="share a space"):
        encode_side("Bad", mountains=[(1, 1)], ruins=[(1, 1)])
    with pytest.raises(SideError, match="name"):
        encode_side("", mountains=[(1, 1)])
    with pytest.raises(SideError):
        side_layout("~x~zz~~~")


def test_board_keeps_printed_and_predrawn_cells():
    b = Board.blank(LAKE)
    assert b.at((0, 0)) is Terrain.FOREST and b.at((5, 5)) is Terrain.WASTELAND and b.at((2, 2)) is Terrain.MOUNTAIN
    grid = b.to_words()
    grid[0][0] = "village"
    with pytest.raises(BoardError, match="pre-drawn forest"):
        Board.from_words(LAKE, grid)
    grid[0][0] = "destroyed"  # a pre-drawn space can still be destroyed
    assert Board.from_words(LAKE, grid).at((0, 0)) is Terrain.DESTROYED
    # ruins of the own side count for The Golden Granary
    assert score_card("golden_granary", b.draw([(1, 5)], Terrain.FARM)).points == 3


def test_a_table_plays_on_its_own_side():
    game = Game.new(Setup(seed=3, side=LAKE, players=("Ada", "Bo")))
    assert game.to_dict()["side"] == LAKE
    game = game.apply({"type": "map", "player": 0, "grid": Board.blank(LAKE).to_words()})
    assert game.known_map(0).at((10, 10)) is Terrain.WATER
    assert Setup.from_dict(game.setup.to_dict()).side == LAKE
    with pytest.raises(GameError):
        Setup(seed=1, side="~nope")


def test_score_cli_reads_an_own_side(tmp_path, capsys):
    path = tmp_path / "m.json"
    grid = Board.blank(LAKE).draw([(0, 1)], Terrain.FOREST).to_words()
    path.write_text(json.dumps({"side": LAKE, "grid": grid, "coins": 0}))
    assert main(["score", str(path), "--cards", "sentinel_wood", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["cards"]["sentinel_wood"]["points"] == 2


def test_print_photograph_read_and_score_an_own_side():
    cv2 = pytest.importorskip("cv2")
    from bench.synthphoto import draw_sheet, photograph, random_player, render_sheet
    from vision.reading import read_sheet

    rng = np.random.default_rng(5)
    board = Board.blank(LAKE)
    for cell, t in (((1, 1), "forest"), ((1, 2), "forest"), ((4, 4), "village"), ((9, 5), "farm"),
                    ((9, 6), "water"), ((3, 3), "monster"), ((10, 0), "water"), ((0, 5), "village")):
        board = board.draw([cell], Terrain(t))
    grid = board.to_words()
    ppt = 3.0
    page = render_sheet(LAKE, ppt, "OWN1")
    player = random_player(rng, "marker")
    drawn = draw_sheet(page, ppt, LAKE, grid, 3, player, rng)
    photo, _ = photograph(drawn, rng, 8.0, tilt_deg=10, curl=0.0, fill=(0.85, 0.9), quality=92)
    ok, buf = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    reading = read_sheet(buf.tobytes(), overlay=False)
    assert reading.side == LAKE and reading.sheet_id == "OWN1"
    wrong = [(r, c) for r in range(11) for c in range(11) if reading.grid[r][c] != grid[r][c]]
    assert wrong == []
    read_board = Board.from_words(reading.side, reading.grid)
    for card in ("golden_granary", "sentinel_wood", "greenbough", "cauldrons"):
        assert score_card(card, read_board) == score_card(card, board)


def test_print_cli_takes_an_own_side(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["print", "map", "--side", LAKE, "-o", "own.pdf"]) == 0
    assert (tmp_path / "own.pdf").read_bytes().startswith(b"%PDF")
    assert main(["print", "map", "--side", "~bad", "-o", "bad.pdf"]) == 2
