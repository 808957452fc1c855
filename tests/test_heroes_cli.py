"""`mapsmith score` with the Heroes scoring ids, sides C and D, and the hero/destroyed words."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from companion.cli import main
from tests.mapbuilder import board_with
from tests.test_heroes_data import HEROES_IDS

ROOT = Path(__file__).resolve().parent.parent


def write_map(tmp_path, side, grid, coins=0):
    path = tmp_path / "map.json"
    path.write_text(json.dumps({"side": side, "grid": grid, "coins": coins}))
    return str(path)


def test_side_c_defaults_to_the_heroes_cards(tmp_path, capsys):
    board = board_with("C", forest=[(r, 0) for r in range(4)], village=[(5, 5)]).destroy([(6, 5)])
    grid = board.to_words()
    assert grid[6][5] == "destroyed"
    assert main(["score", write_map(tmp_path, "C", grid, coins=1), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out["cards"]) == HEROES_IDS
    assert out["cards"]["faunlost_thicket"]["points"] == 8
    assert out["cards"]["outer_enclave"]["points"] == 3  # (6,5) is destroyed, so not empty
    assert out["side"] == "C" and out["total_coins"] == 1


def test_side_d_with_chosen_cards_and_a_hero(tmp_path, capsys):
    board = board_with("D", hero=[(0, 0)], monster=[(4, 4)]).destroy([(4, 4)])
    path = write_map(tmp_path, "D", board.to_words())
    assert main(["score", path, "--cards", "silos,banded_hills,sentinel_wood"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["Silos", "0"]
    assert lines[1].split() == ["Banded", "Hills", "0"]
    assert ["monster", "penalty", "0"] in [line.split() for line in lines]  # the destroyed monster costs nothing


def test_destroyed_on_a_printed_wasteland_is_refused(tmp_path, capsys):
    grid = board_with("D").to_words()
    grid[1][1] = "destroyed"
    assert main(["score", write_map(tmp_path, "D", grid)]) == 2
    assert "B2: side D has a printed wasteland here" in capsys.readouterr().err


def test_unknown_side(tmp_path, capsys):
    grid = board_with("A").to_words()
    assert main(["score", write_map(tmp_path, "E", grid)]) == 2
    assert "unknown map side 'E'" in capsys.readouterr().err


def test_score_subprocess_all_heroes_ids(tmp_path):
    path = write_map(tmp_path, "C", board_with("C").to_words())
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "companion.cli", "score", path, "--cards", ",".join(HEROES_IDS),
                          "--json"], capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    cards = json.loads(out.stdout)["cards"]
    assert sorted(cards) == sorted(HEROES_IDS) and all(c["points"] == 0 for c in cards.values())


def test_deal_plays_the_heroes_deck(capsys):
    assert main(["deal", "--seed", "4", "--deck", "heroes", "--side", "D", "--solo"]) == 0
    out = capsys.readouterr().out
    assert "side D, solo" in out
    assert "== Summer (threshold 7, edicts B + C) ==" in out
    assert "HERO " in out and "RUINS" not in out
    assert "Game over." in out


def test_mapgen_json_lines_for_an_independent_cross_check(capsys):
    from bench.mapgen import main as mapgen_main

    assert mapgen_main(["--heroes", "--seeds", "3:5", "--scores"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["seed"] for r in rows] == [3, 4] and all(r["side"] in "CD" for r in rows)
    assert sorted(rows[0]["scores"]) == sorted(HEROES_IDS)
    from companion.cartographers.board import Board
    from companion.cartographers.scoring import score_card
    board = Board.from_words(rows[1]["side"], rows[1]["grid"])
    assert rows[1]["scores"]["silos"] == score_card("silos", board).points


def test_read_reads_heroes_on_side_a_only_when_told(tmp_path, capsys):
    """`mapsmith read --heroes`: a table playing the Heroes deck on side A; without it, side A is a base game."""
    import pytest

    pytest.importorskip("cv2")
    from bench.bench_marks import photo

    path = tmp_path / "a.jpg"
    path.write_bytes(photo(1500).data)  # side A, heroes drawn
    words = {}
    for flag in ([], ["--heroes"], ["--no-heroes"]):
        assert main(["read", str(path), "--json", *flag]) == 0
        out = json.loads(capsys.readouterr().out)
        words[tuple(flag)] = {w for row in out["grid"] for w in row} & {"hero", "destroyed"}
    assert words[()] == words[("--no-heroes",)] == set()
    assert words[("--heroes",)]
