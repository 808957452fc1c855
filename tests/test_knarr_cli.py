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
