"""The `knarr-setup` and `knarr-replay` sub-commands, driven through their own parser."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from companion.knarr import KnarrGame, end_turn, gain
from companion.knarr.cli import register


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="mapsmith")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return args.func(args)


def test_setup_prints_the_deck_for_two_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["knarr-setup", "Ayşe", "Bora", "--seed", "4", "--first", "2", "--artifacts", "suggested",
                "--lang", "tr"]) == 0
    out = capsys.readouterr().out
    assert "Başlangıç oyuncusu: Bora" in out
    assert "30 kart" in out and "3, 4" in out
    assert "Bal Şarabı Kupası" in out


def test_setup_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["knarr-setup", "A", "B", "C", "--seed", "9", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sheet"]["viking_deck"]["size"] == 40 and len(data["setup"]["players"]) == 3


def test_setup_refuses_five_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["knarr-setup", "A", "B", "C", "D", "E", "--seed", "1"]) == 2
    assert "2 to 4 players" in capsys.readouterr().err


def test_replay_prints_the_final_ranking(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = KnarrGame.new(["Ayşe", "Bora"], 3, first_player=0)
    for event in (gain(0, vp=41), end_turn(), gain(1, vp=12, reputation=3), end_turn()):
        game.apply(event)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.save()), encoding="utf-8")
    assert run(["knarr-replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("GAME OVER") and "1. Ayşe: 41 VP" in out and "2. Bora: 12 VP" in out


def test_replay_reports_bad_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["knarr-replay", str(tmp_path / "missing.json")]) == 2
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"setup": {"players": []}, "events": []}), encoding="utf-8")
    assert run(["knarr-replay", str(bad), "--lang", "tr"]) == 2
    assert "kurulum" in capsys.readouterr().err


def test_sim_json_contract_and_replay_gives_the_same_final_table(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    assert run(["knarr-sim", "--seed", "5", "--players", "3", "--ship", "advanced", "--artifact", "Golden Bracelet",
                "--save", str(path), "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert set(table) == {"players", "winner", "rounds", "events"}
    assert [list(p) for p in table["players"]] == [["name", "score", "reputation", "recruit", "bracelet", "turns"]] * 3
    assert isinstance(table["winner"], str) and table["rounds"] >= 1 and table["events"] > 0
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["setup"]["ship_side"] == "advanced" and saved["setup"]["artifacts"] == ["golden_bracelet"]
    assert len(saved["events"]) == table["events"]
    # replay: the same final table, as text and as JSON
    assert run(["knarr-sim", "--seed", "5", "--players", "3", "--ship", "advanced",
                "--artifact", "golden_bracelet"]) == 0
    sim_text = capsys.readouterr().out
    assert run(["knarr-replay", str(path)]) == 0
    assert capsys.readouterr().out == sim_text and sim_text.startswith("GAME OVER")
    assert run(["knarr-replay", str(path), "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    keys = ("winner", "rounds", "events")
    assert {k: replayed[k] for k in keys} == {k: table[k] for k in keys}
    assert [{k: p[k] for k in table["players"][0]} for p in replayed["players"]] == table["players"]


def test_sim_refuses_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["knarr-sim", "--seed", "1", "--players", "5"]) == 2
    assert "2 to 4 players" in capsys.readouterr().err
    assert run(["knarr-sim", "--seed", "1", "--players", "2", "--artifact", "crown"]) == 2
    assert "crown" in capsys.readouterr().err


def test_sim_through_the_mapsmith_command(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-m", "companion.cli", "knarr-sim", "--seed", "2", "--players", "4",
                          "--json"], cwd=root, env={**os.environ, "PYTHONPATH": str(root)}, capture_output=True,
                         text=True, check=True)
    assert len(json.loads(out.stdout)["players"]) == 4
