"""`mapsmith print ...`: the command-line contract (files written, layout JSON, exit 2 with one line)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from printables.layout import PAPERS, sheet_layout
from printables.raster import page_count, page_sizes_pt


def _run(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exc:  # argparse errors
        return int(exc.code or 0)


def test_print_map_writes_one_page_per_copy(tmp_path: Path) -> None:
    out = tmp_path / "map.pdf"
    rc = _run(["print", "map", "--side", "B", "--paper", "letter", "--lang", "tr", "--copies", "3", "-o", str(out)])
    assert rc == 0
    pdf = out.read_bytes()
    assert page_count(pdf) == 3
    assert page_sizes_pt(pdf)[0] == pytest.approx(PAPERS["letter"], abs=0.01)


def test_print_scores_and_knarr(tmp_path: Path) -> None:
    scores, knarr = tmp_path / "s.pdf", tmp_path / "k.pdf"
    assert _run(["print", "scores", "--players", "6", "--lang", "tr", "-o", str(scores)]) == 0
    assert _run(["print", "knarr", "--paper", "letter", "--lang", "en", "-o", str(knarr)]) == 0
    w, h = PAPERS["a4"]
    assert page_sizes_pt(scores.read_bytes()) == [pytest.approx((h, w), abs=0.01)]  # landscape
    assert page_sizes_pt(knarr.read_bytes()) == [pytest.approx(PAPERS["letter"], abs=0.01)]


@pytest.mark.parametrize(("side", "paper"), [("A", "a4"), ("B", "letter")])
def test_print_layout_json_contract(side: str, paper: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["print", "layout", "--side", side, "--paper", paper]) == 0
    data = json.loads(capsys.readouterr().out)
    for key in ("page_w_pt", "page_h_pt", "grid", "rows", "cols", "markers", "legend", "coins"):
        assert key in data
    assert set(data["grid"]) >= {"x_pt", "y_pt", "cell_pt"}
    assert (data["rows"], data["cols"]) == (11, 11)
    assert (data["page_w_pt"], data["page_h_pt"]) == PAPERS[paper]
    assert len(data["markers"]) == 4 and all(set(m) >= {"id", "x_pt", "y_pt", "size_pt"} for m in data["markers"])
    assert [c["terrain"] for c in data["legend"]] == ["forest", "village", "farm", "water", "monster"]
    assert all(set(c) >= {"terrain", "x_pt", "y_pt", "cell_pt"} for c in data["legend"])
    assert len(data["coins"]) == 14 and all(set(c) >= {"x_pt", "y_pt", "d_pt"} for c in data["coins"])
    assert data == json.loads(json.dumps(sheet_layout(side, paper).to_dict()))


@pytest.mark.parametrize(
    "argv",
    [
        ["print", "map", "--side", "E", "-o", "x.pdf"],
        ["print", "map", "--paper", "a3", "-o", "x.pdf"],
        ["print", "map", "--lang", "de", "-o", "x.pdf"],
        ["print", "map", "--copies", "0", "-o", "x.pdf"],
        ["print", "map", "--copies", "many", "-o", "x.pdf"],
        ["print", "map"],  # no -o
        ["print", "scores", "--players", "0", "-o", "x.pdf"],
        ["print", "knarr", "--players", "5", "-o", "x.pdf"],
        ["print", "layout", "--side", "Z"],
        ["print", "poster", "-o", "x.pdf"],
        ["print"],
    ],
)
def test_bad_arguments_exit_2_with_one_line(
    argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert _run(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error" in err, err
    assert not (tmp_path / "x.pdf").exists()


def test_console_script_end_to_end(tmp_path: Path) -> None:
    """The installed entry point, as a user runs it (one subprocess: checks wiring, not logic)."""
    out = tmp_path / "m.pdf"
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "print", "map", "--side", "A", "--copies", "2", "-o", str(out)],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert page_count(out.read_bytes()) == 2
