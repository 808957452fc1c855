"""`mapsmith check-season` contract: JSON keys, exit codes, one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cartographers.board import Board
from companion.cartographers.simulate import play_game
from companion.cartographers.terrain import Terrain
from companion.cli import main

ROOT = Path(__file__).resolve().parents[1]


def write(tmp_path, name, board, coins=0):
    path = tmp_path / name
    path.write_text(json.dumps({"side": board.side, "grid": board.to_words(), "coins": coins}))
    return str(path)


def test_legal_season_json(tmp_path, capsys):
    season = next(s for s in play_game(3) if s.season == 1)
    before = write(tmp_path, "before.json", season.before, 1)
    after = write(tmp_path, "after.json", season.after, 1 + season.coins_from_shapes)
    assert main(["check-season", before, after, "--cards", ",".join(season.cards), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out) == ["legal", "placements", "coins_from_shapes", "problems"]
    assert out["legal"] is True and out["problems"] == []
    assert out["coins_from_shapes"] == season.coins_from_shapes
    new = {(r, c) for r in range(11) for c in range(11) if season.before.grid[r][c] != season.after.grid[r][c]}
    assert {tuple(cell) for p in out["placements"] for cell in p["cells"]} == new
    for p in out["placements"]:
        assert list(p) == ["card", "terrain", "cells", "coin", "fallback"]


def test_illegal_season_exits_0_with_problems(tmp_path, capsys):
    before = Board.blank("A")
    after = before.draw([(0, 0), (1, 0), (2, 0), (6, 7)], Terrain.WATER)
    args = ["check-season", write(tmp_path, "b.json", before), write(tmp_path, "a.json", after), "--cards", "07"]
    assert main([*args, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["legal"] is False
    assert [6, 7] in [cell for p in out["problems"] for cell in p["cells"]]
    assert all(list(p) == ["code", "cells", "message"] for p in out["problems"])
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "do not match" in text and "row 7, column 8" in text


def test_text_output_shows_the_coin_track_disagreement(tmp_path, capsys):
    before = Board.blank("A")
    after = before.draw([(0, 0), (1, 0)], Terrain.FARM)
    assert main(["check-season", write(tmp_path, "b.json", before, 0), write(tmp_path, "a.json", after, 0),
                 "--cards", "08"]) == 0
    out = capsys.readouterr().out
    assert "match the cards ✓" in out
    assert "1 from coin shapes" in out and "the coin track went from 0 to 0" in out


@pytest.mark.parametrize("cards, message", [
    ("07,99", "unknown card '99'"),
    ("07,07", "listed twice"),
    ("", "at least one card"),
])
def test_bad_cards_exit_2_with_one_line(tmp_path, capsys, cards, message):
    board = write(tmp_path, "m.json", Board.blank("A"))
    assert main(["check-season", board, board, "--cards", cards]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_bad_maps_exit_2_with_one_line(tmp_path, capsys):
    a = write(tmp_path, "a.json", Board.blank("A"))
    b = write(tmp_path, "b.json", Board.blank("B"))
    assert main(["check-season", a, b, "--cards", "07"]) == 2
    assert "different sides" in capsys.readouterr().err
    assert main(["check-season", a, str(tmp_path / "missing.json"), "--cards", "07"]) == 2
    assert "no such file" in capsys.readouterr().err


def test_runs_as_a_command(tmp_path):
    season = next(play_game(5))
    paths = [write(tmp_path, "before.json", season.before), write(tmp_path, "after.json", season.after)]
    proc = subprocess.run(
        [sys.executable, "-m", "companion.cli", "check-season", *paths, "--cards", ",".join(season.cards), "--json"],
        capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["legal"] is True


def test_ruins_rule_option(tmp_path, capsys):
    # every ruins space of side A drawn on: Farmland after Outpost Ruins can cover none, and is drawn elsewhere
    ruins = [(1, 5), (2, 1), (2, 9), (8, 1), (8, 9), (9, 5)]
    before = Board.blank("A").draw(ruins, Terrain.VILLAGE)
    shape = write(tmp_path, "shape.json", before.draw([(5, 0), (6, 0)], Terrain.FARM))
    square = write(tmp_path, "square.json", before.draw([(5, 0)], Terrain.WATER))
    start = write(tmp_path, "before.json", before)
    args = ["check-season", start]
    # default: normal placement rules apply (the rules as given)
    assert main([*args, shape, "--cards", "06,08", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["legal"] is True
    assert main([*args, shape, "--cards", "06,08", "--ruins-rule", "normal", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["legal"] is True
    assert main([*args, square, "--cards", "06,08", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["legal"] is False
    # the printed rulebook: a single square of any terrain, and the shape elsewhere breaks it
    assert main([*args, square, "--cards", "06,08", "--ruins-rule", "single_square", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["legal"] is True and out["placements"][0]["fallback"] is True
    assert main([*args, shape, "--cards", "06,08", "--ruins-rule", "single_square", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [p["code"] for p in out["problems"]] == ["ruins_not_covered"]
    assert all(list(p) == ["code", "cells", "message"] for p in out["problems"])
    with pytest.raises(SystemExit) as exc:
        main([*args, shape, "--cards", "06,08", "--ruins-rule", "house"])
    assert exc.value.code == 2 and "invalid choice" in capsys.readouterr().err


def test_help_documents_the_ruins_rule(capsys):
    with pytest.raises(SystemExit):
        main(["check-season", "--help"])
    out = capsys.readouterr().out
    assert "--ruins-rule {normal,single_square}" in out and "printed rulebook" in out
