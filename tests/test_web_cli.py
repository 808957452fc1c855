"""`mapsmith serve`: a real waitress process that prints where the phones should go."""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from web.cli import register, terminal_qr

ROOT = Path(__file__).resolve().parents[1]


def test_serve_is_registered_with_defaults():
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    args = parser.parse_args(["serve"])
    assert (args.host, args.port, args.threads, args.no_qr) == ("0.0.0.0", 8000, 16, False)
    assert args.func.__name__ == "serve"


def test_terminal_qr_is_a_block_of_text():
    art = terminal_qr("http://192.0.2.7:8000/")
    lines = art.splitlines()
    # two QR rows per text line (half blocks), every line the same width: a square a phone camera can read
    assert len(lines) >= 11 and len({len(line) for line in lines if line}) == 1
    assert set("".join(lines)) <= set(" \xa0█▀▄")


def test_serve_runs_and_prints_its_address(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "MAPSMITH_INSTANCE": str(tmp_path / "instance"), "PYTHONPATH": str(ROOT)}
    env.pop("DATABASE_URL", None)
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port",
                             str(port)], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        first = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in first
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
                    assert r.status == 200 and b"Mapsmith" in r.read()
                break
            except OSError:
                assert time.monotonic() < deadline, "server did not answer"
                time.sleep(0.2)
        assert (tmp_path / "instance" / "mapsmith.sqlite3").exists()
        assert (tmp_path / "instance" / "secret_key").exists()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
