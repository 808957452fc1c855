"""Two app processes on one PostgreSQL behind nginx (`scripts/cluster`): one table, phones on both, one game.

Needs Debian's nginx and a PostgreSQL server (`scripts/test` installs nginx and starts a throw-away
PostgreSQL when run as root; set MAPSMITH_TEST_POSTGRES yourself otherwise). Four phones, each with
its own session, play through nginx; nginx spreads their requests round-robin over the processes
(checked by the `X-Mapsmith-Upstream` header). Concurrent reveals on the same version give exactly
one card, concurrent scores from every phone are all kept, a stale undo is refused and a fresh one
taken, and in the end the stored event list replays to the table every process shows.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from companion.cartographers.session import Game, Setup
from web.storage import connect

ROOT = Path(__file__).resolve().parents[1]
URL = os.environ.get("MAPSMITH_TEST_POSTGRES")
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
pytestmark = [
    pytest.mark.skipif(not URL, reason="set MAPSMITH_TEST_POSTGRES to a PostgreSQL URL to run these"),
    pytest.mark.skipif(not NGINX, reason="needs Debian's nginx (apt-get install nginx-light)"),
    pytest.mark.slow,
]


def free_port_block(size: int) -> int:
    """A port p with p..p+size free on 127.0.0.1 (nginx on p, the app processes above it)."""
    for _ in range(50):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            base = s.getsockname()[1]
        if base + size >= 65535:
            continue
        try:
            socks = []
            for p in range(base, base + size + 1):
                t = socket.socket()
                socks.append(t)
                t.bind(("127.0.0.1", p))
            return base
        except OSError:
            continue
        finally:
            for t in socks:
                t.close()
    raise RuntimeError("no free port block")


class Phone:
    """One phone's browser: its own session cookie and CSRF token; a new TCP connection per request."""

    def __init__(self, port: int):
        self.port, self.cookie, self.token, self.upstreams = port, "", "", set()

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict, str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Accept": "application/json", "Cookie": self.cookie}
        data = None
        if body is not None:
            data = json.dumps(body)
            headers.update({"Content-Type": "application/json", "X-CSRF-Token": self.token})
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        text = response.read().decode()
        conn.close()
        if response.getheader("Set-Cookie"):
            self.cookie = response.getheader("Set-Cookie").split(";")[0]
        self.upstreams.add(response.getheader("X-Mapsmith-Upstream"))
        return response.status, dict(response.getheaders()), text

    def open_home(self) -> None:
        status, _, html = self.request("GET", "/")
        assert status == 200
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        conn.request("GET", "/", headers={"Cookie": self.cookie})
        page = conn.getresponse().read().decode()
        conn.close()
        self.token = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)

    def state(self, code: str) -> dict:
        status, _, text = self.request("GET", f"/t/{code}/state")
        assert status == 200, text
        return json.loads(text)

    def act(self, code: str, body: dict) -> int:
        return self.request("POST", f"/t/{code}/action", body)[0]


@pytest.fixture
def cluster(tmp_path):
    port = free_port_block(2)
    env = {**os.environ, "DATABASE_URL": URL, "PYTHONPATH": str(ROOT), "PYTHON": sys.executable}
    env.pop("MAPSMITH_SECRET_KEY", None)
    proc = subprocess.Popen(["bash", str(ROOT / "scripts" / "cluster"), "--processes", "2", "--port", str(port),
                             "--run-dir", str(tmp_path / "run"), "--host", "127.0.0.1"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    deadline = time.monotonic() + 90
    while True:
        assert proc.poll() is None, proc.stdout.read()
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/")
            if conn.getresponse().status == 200:
                conn.close()
                break
        except OSError:
            pass
        assert time.monotonic() < deadline, "the cluster did not start"
        time.sleep(0.3)
    yield port
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=5)


def together(calls) -> list:
    """Run the calls at the same moment (a barrier), return their results in order."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(i, call):
        barrier.wait()
        results[i] = call()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_one_table_played_across_two_processes_stays_one_game(cluster):
    port = cluster
    phones = [Phone(port) for _ in range(4)]
    for phone in phones:
        phone.open_home()
    host = phones[0]
    status, headers, _ = host.request("POST", "/c/new", {"player": ["Ann", "Bob", "Cem", "Dag"], "seed": 7,
                                                         "side": "A"})
    assert status == 303
    code = headers["Location"].rsplit("/", 1)[1]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", f"/t/{code}", headers={"Cookie": host.cookie})
    page = conn.getresponse().read().decode()
    conn.close()
    link = re.search(r'id="join-link" href="([^"]+)"', page).group(1)
    assert link.startswith(f"http://127.0.0.1:{port}/j/")  # the public address (nginx), not an upstream's
    for phone in phones[1:]:
        status, headers, _ = phone.request("GET", link.split(str(port), 1)[1])
        assert status == 302 and headers["Location"].endswith(f"/t/{code}")

    writes = 0
    # concurrent reveals: every phone taps Reveal on the version it sees; exactly one card each round
    for _round in range(3):
        version = host.state(code)["version"]
        statuses = together([lambda p=p, v=version: p.act(code, {"action": "reveal", "version": v}) for p in phones])
        assert sorted(statuses) == [200, 409, 409, 409], statuses
        writes += 1
    # a stale undo is refused, a fresh one taken
    version = host.state(code)["version"]
    assert phones[1].act(code, {"action": "undo", "version": version - 1}) == 409
    assert phones[2].act(code, {"action": "undo", "version": version}) == 200
    writes += 1
    reveals = 2
    for _round in range(30):  # on to the end of spring, still all at once
        state = host.state(code)
        if state["phase"] != "explore":
            break
        statuses = together([lambda p=p, v=state["version"]: p.act(code, {"action": "reveal", "version": v})
                             for p in phones])
        assert statuses.count(200) == 1, statuses
        writes += 1
        reveals += 1
    assert host.state(code)["phase"] != "explore"
    # every phone enters its own season score at the same moment: all are kept (retried on the fresh version)
    statuses = together([lambda i=i, p=p: p.act(code, {"action": "score", "player": i, "edict1": i, "edict2": 1,
                                                        "coins": 0, "monsters": 0})
                         for i, p in enumerate(phones)])
    assert statuses == [200, 200, 200, 200], statuses
    writes += 4
    served = set().union(*(p.upstreams for p in phones)) - {None}
    assert len(served) == 2, served  # both processes answered phones of this table
    shown = [p.state(code) for p in phones for _ in range(2)]  # each phone asks twice: both processes
    assert len({s["version"] for s in shown}) == 1  # every process shows the same table…
    for i in range(0, len(shown), 2):  # …the same page to the same phone (forms carry each phone's CSRF token)
        assert shown[i]["html"] == shown[i + 1]["html"]

    store = connect(URL)
    try:
        record = store.get(code)
        store.conn.execute("DELETE FROM table_access WHERE code = %s", (code,))
        store.conn.execute("DELETE FROM games WHERE code = %s", (code,))
    finally:
        store.close()
    assert record.version == writes == shown[0]["version"]
    assert [e["type"] for e in record.events].count("reveal") == reveals
    game = Game.replay(Setup.from_dict(record.setup), record.events)
    assert [row[0] for row in game.to_dict()["scores"]] == [
        game.season_scores(i)[0] for i in range(4)] and all(game.season_scores(i)[0] for i in range(4))
