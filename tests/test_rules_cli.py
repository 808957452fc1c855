"""`mapsmith score` and `mapsmith deal` contracts."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from companion.cli import main
from tests.mapbuilder import board_with


def write_map(tmp_path, board, coins=2, **extra):
    path = tmp_path / "map.json"
    path.write_text(json.dumps({"side": board.side, "grid": board.to_words(), "coins": coins, **extra}))
    return str(path)


def test_score_json(tmp_path, capsys):
    board = board_with(forest=[(0, 0), (0, 1), (0, 3), (2, 3), (1, 2), (1, 4)], monster=[(10, 10)])
    assert main(["score", write_map(tmp_path, board), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["cards"]) == 16
    assert out["cards"]["sentinel_wood"]["points"] == 3
    assert out["mountain_coins"] == 1 and out["total_coins"] == 3
    assert out["monsters"] == 2


def test_score_selected_cards_text(tmp_path, capsys):
    board = board_with(forest=[(0, 0)])
    assert main(["score", write_map(tmp_path, board), "--cards", "sentinel_wood,greenbough"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["Sentinel", "Wood", "1"]
    assert lines[1].split() == ["Greenbough", "2"]
    assert len(lines) == 6 and lines[-1].split()[0] == "total"


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda g: g.__setitem__(3, g[3][:10]), "row D must have 11 cells"),
        (lambda g: g[4].__setitem__(6, "lava"), "E7: unknown terrain 'lava'"),
        (lambda g: g[1].__setitem__(3, "forest"), "B4: side A has a printed mountain here"),
        (lambda g: g[0].__setitem__(0, "mountain"), "A1: side A has no printed mountain here"),
        (lambda g: g.pop(), "the grid must have 11 rows"),
    ],
)
def test_bad_maps_exit_2_naming_the_cell(tmp_path, capsys, mutate, message):
    grid = board_with().to_words()
    mutate(grid)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"side": "A", "grid": grid, "coins": 0}))
    assert main(["score", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_bad_files_and_cards(tmp_path, capsys):
    bad = tmp_path / "x.json"
    bad.write_text("{not json")
    assert main(["score", str(bad)]) == 2
    assert main(["score", str(tmp_path / "missing.json")]) == 2
    assert main(["score", write_map(tmp_path, board_with()), "--cards", "nope"]) == 2
    assert main(["score", write_map(tmp_path, board_with(), coins=-1)]) == 2


def test_deal_runs_a_whole_game_in_a_subprocess():
    out = subprocess.run(
        [sys.executable, "-m", "companion.cli", "deal", "--seed", "4", "--side", "B", "--solo"],
        capture_output=True, text=True, check=True,
    ).stdout
    for season in ("Spring", "Summer", "Fall", "Winter"):
        assert f"== {season}" in out
    assert "Game over" in out and "side B" in out
