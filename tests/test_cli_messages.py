"""A newcomer at the terminal: every mistake gets one clear line and exit status 2, never a traceback."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from tests.mapbuilder import board_with

ROOT = Path(__file__).resolve().parents[1]


def run_cli(*argv: str, timeout: float = 60) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("MAPSMITH_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "companion.cli", *argv], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)


def one_line_error(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    return proc.stderr.strip()


@pytest.mark.parametrize("command", [["read"], ["score-photo", "--cards", "sentinel_wood"]])
def test_a_folder_given_as_the_photo_is_refused(tmp_path, command):
    err = one_line_error(run_cli(command[0], str(tmp_path), *command[1:]))
    assert "is a folder" in err and str(tmp_path) in err


def test_overlay_into_a_missing_folder_or_onto_a_folder_is_refused(tmp_path):
    photo = tmp_path / "sheet.png"
    photo.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 64)
    err = one_line_error(run_cli("read", str(photo), "--overlay", str(tmp_path / "nope" / "o.png")))
    assert "does not exist" in err and "nope" in err
    err = one_line_error(run_cli("read", str(photo), "--overlay", str(tmp_path)))
    assert "is a folder" in err


def test_serve_on_a_busy_port_says_which_port_and_announces_nothing(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        env_instance = str(tmp_path / "instance")
        os.environ["MAPSMITH_INSTANCE"] = env_instance
        try:
            proc = run_cli("serve", "--host", "127.0.0.1", "--port", str(port), "--no-qr")
        finally:
            os.environ.pop("MAPSMITH_INSTANCE", None)
    err = one_line_error(proc)
    assert f"port {port} is already in use" in err and "--port" in err
    assert "running" not in proc.stdout and "Open http" not in proc.stdout


def test_score_names_cells_as_the_sheet_does_and_cuts_long_input(tmp_path, capsys):
    grid = board_with().to_words()
    grid[1][3] = "forest"
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"side": "A", "grid": grid, "coins": 0}))
    assert main(["score", str(path)]) == 2
    assert capsys.readouterr().err.strip() == "mapsmith: error: B4: side A has a printed mountain here, not forest"
    grid = board_with().to_words()
    grid[0][0] = "x" * 100_000
    path.write_text(json.dumps({"side": "A", "grid": grid, "coins": 0}))
    assert main(["score", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mapsmith: error: A1: unknown terrain") and len(err) < 300


def test_score_prints_one_total_and_says_when_side_a_is_assumed(tmp_path, capsys):
    board = board_with(forest=[(0, 0)], monster=[(10, 10)])
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"grid": board.to_words(), "coins": 2}))
    assert main(["score", str(path), "--cards", "sentinel_wood,greenbough"]) == 0
    captured = capsys.readouterr()
    assert 'has no "side"; scoring it as side A' in captured.err
    rows = {line.rsplit(None, 1)[0].strip(): int(line.rsplit(None, 1)[1]) for line in captured.out.splitlines()}
    assert rows["coins from coin shapes"] == 2
    expected = (rows["Sentinel Wood"] + rows["Greenbough"] + rows["coins from coin shapes"]
                + rows["coins from mountains"] + rows["monster penalty"])
    assert rows["total"] == expected


def test_score_photo_table_counts_the_coin_track_once():
    from companion.cartographers.cli import print_map_score
    from companion.cartographers.scoring import score_map

    board = board_with(forest=[(0, 0)], monster=[(9, 9)])
    result = score_map(board, ["sentinel_wood"])
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        print_map_score(result, 12, track=True)
    lines = out.getvalue().splitlines()
    assert "coins (coin track)" in lines[1] and "already on the track" in lines[2]
    total = int(lines[-1].split()[-1])
    assert lines[-1].startswith("total")
    assert total == result.cards[0].points + 12 - result.monsters.points


@pytest.mark.parametrize("players", ["0", "-1", "101"])
def test_deal_refuses_a_bad_player_count(players):
    err = one_line_error(run_cli("deal", "--seed", "1", "--players", players))
    assert f"--players must be a whole number from 1 to 100, not {players}" in err


def test_deal_prints_a_key_to_the_shapes_and_options_have_help():
    out = run_cli("deal", "--seed", "4").stdout
    assert "Key to the shapes: X = a space to draw, . = a gap, / = next row, $ = the shape earns a coin" in out
    deal_help = run_cli("deal", "--help").stdout
    assert "same seed deals the same cards" in deal_help and "default A" in deal_help
    map_help = run_cli("print", "map", "--help").stdout
    for words in ("map side (default A)", "paper size (default a4)", "sheet language (default en)"):
        assert words in " ".join(map_help.split())


def test_a_closed_pipe_is_not_a_traceback():
    proc = subprocess.run(f"{sys.executable} -m companion.cli deal --seed 3 | head -1", shell=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=60)
    assert "Traceback" not in proc.stderr and proc.stdout.startswith("Seed 3")


def test_read_prints_a_key_to_its_letter_grid():
    from vision.cli import GRID_KEY

    assert GRID_KEY.startswith("key: . empty, F forest, V village, A farm, W water, M monster, ^ mountain")


def test_knarr_setup_first_player_is_a_seat_number_from_1_or_a_name(capsys):
    assert main(["knarr-setup", "Ayşe", "Bora", "Cem", "--seed", "4", "--first", "1"]) == 0
    assert "First player: Ayşe" in capsys.readouterr().out
    assert main(["knarr-setup", "Ayşe", "Bora", "Cem", "--seed", "4", "--first", "Cem"]) == 0
    assert "First player: Cem" in capsys.readouterr().out
    assert main(["knarr-setup", "Ayşe", "Bora", "Cem", "--seed", "4", "--first", "0"]) == 2
    assert "--first must be a seat from 1 to 3 or a player's name" in capsys.readouterr().err


def test_knarr_setup_in_turkish_reads_like_the_web_page(capsys):
    assert main(["knarr-setup", "Ayşe", "Bora", "--seed", "4", "--lang", "tr"]) == 0
    out = capsys.readouterr().out
    assert "3, 4 işaretli Vikingleri kutuya kaldırın" in out
    assert "şu işaretli" not in out
