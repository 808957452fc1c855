"""The waitress server as `mapsmith serve` runs it: keep-alive for every poll, thousands of sockets, timeouts."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time

import pytest

from companion.cartographers.session import Setup
from web import create_app
from web.server import KeepAliveChannel, make_server, raise_open_file_limit
from web.storage import connect


class CountingConnection(http.client.HTTPConnection):
    """A client that counts its TCP connects instead of silently reconnecting."""

    connects = 0

    def connect(self):
        type(self).connects += 1
        super().connect()


def member_cookie(port: int, db: str, code: str) -> str:
    """Join the table by its link, as a scanned QR code would, and keep the session cookie."""
    store = connect(db)
    secret = store.access(code).secret
    store.close()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", f"/j/{secret}")
    response = conn.getresponse()
    response.read()
    conn.close()
    return response.getheader("Set-Cookie").split(";")[0]


@pytest.fixture
def served(tmp_path):
    db = str(tmp_path / "db.sqlite3")
    app = create_app({"TESTING": True, "DATABASE": db, "SECRET_KEY": "k"})
    store = connect(db)
    code = store.create("cartographers", Setup(seed=1, players=("Ann", "Bob")).to_dict()).code
    store.close()
    server = make_server(app, "127.0.0.1", 0, threads=4, channel_timeout=6, cleanup_interval=1)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield server, code, db
    server.close()
    thread.join(timeout=5)


def test_every_poll_answer_keeps_the_connection(served):
    server, code, db = served
    assert server.channel_class is KeepAliveChannel
    CountingConnection.connects = 0
    conn = CountingConnection("127.0.0.1", server.effective_port, timeout=5)
    seen = {204: 0, 200: 0}
    cookie = member_cookie(server.effective_port, db, code)
    store = connect(db)
    for i in range(40):
        if i % 10 == 5:  # the table moves on now and then: that poll gets the fresh table (200)
            record = store.get(code)
            store.swap(code, record.version, [*record.events, {"type": "reveal"}])
        version = store.version(code) if i % 10 != 5 else store.version(code) - 1
        conn.request("GET", f"/t/{code}/state?v={version}", headers={"Accept": "application/json",
                                                                      "Cookie": cookie})
        response = conn.getresponse()
        response.read()
        assert response.getheader("Connection") is None, (response.status, response.getheaders())
        seen[response.status] += 1
    store.close()
    conn.close()
    assert seen[204] >= 30 and seen[200] >= 1
    assert CountingConnection.connects == 1


def test_thousands_of_open_connections_do_not_stop_the_server(served):
    server, code, _db = served
    want = 2500  # well past select()'s 1024 limit that used to kill the loop
    if raise_open_file_limit() < 2 * want + 500:
        pytest.skip("the open-file limit is too low to hold the sockets of both ends")
    idle = []
    for _ in range(want):
        s = socket.create_connection(("127.0.0.1", int(server.effective_port)))
        idle.append(s)
    try:
        deadline = time.monotonic() + 10
        while len(server._map) < want and time.monotonic() < deadline:  # the server has accepted them all
            time.sleep(0.05)
        assert len(server._map) >= want
        t0 = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=5)
        conn.request("GET", f"/t/{code}/state?v=0", headers={"Accept": "application/json"})
        response = conn.getresponse()
        assert response.status == 204 and time.perf_counter() - t0 < 2
        conn.close()
        # idle connections time out (6 s here, 30 s in `mapsmith serve`): the server closes them
        idle[0].settimeout(12)
        assert idle[0].recv(1) == b""
    finally:
        for s in idle:
            s.close()


def test_a_client_cannot_break_the_loop(served):
    """Garbage, a deep JSON body and a half-sent request: each gets its answer or its timeout; the server lives."""
    server, code, _db = served
    port = int(server.effective_port)
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(b"\x00\xff garbage \r\n\r\n")
        assert s.recv(100).startswith(b"HTTP/1.")
    deep = b"[" * 100_000 + b"]" * 100_000
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("POST", f"/t/{code}/action", body=deep, headers={"Content-Type": "application/json"})
    assert conn.getresponse().status == 400  # CSRF or depth: a 4xx either way, never a 500
    conn.close()
    half = socket.create_connection(("127.0.0.1", port), timeout=5)
    half.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # never finishes its header
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", f"/t/{code}/state", headers={"Accept": "application/json"})
    response = conn.getresponse()
    assert response.status == 403 and json.loads(response.read())["code"] == "not_joined"
    conn.close()
    half.close()


def test_one_client_cannot_take_every_connection(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite3"), "SECRET_KEY": "k"})
    server = make_server(app, "127.0.0.1", 0, threads=2, per_client=5)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    port = int(server.effective_port)
    hog = []
    try:
        for _ in range(8):  # 127.0.0.2 is "another machine" here: only the exact loopback names are exempt
            s = socket.socket()
            s.bind(("127.0.0.2", 0))
            s.connect(("127.0.0.1", port))
            s.settimeout(5)
            hog.append(s)

        def served(s: socket.socket) -> bool:
            try:
                s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                return s.recv(12).startswith(b"HTTP/1.1 200")
            except OSError:  # closed by the server (reset or EOF)
                return False

        answered = [served(s) for s in hog]
        assert answered.count(True) == 5  # its first five; the rest were closed unanswered
        other = socket.socket()
        other.bind(("127.0.0.3", 0))
        other.connect(("127.0.0.1", port))
        other.settimeout(5)
        other.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert other.recv(12).startswith(b"HTTP/1.1 200")  # everybody else is still served
        other.close()
    finally:
        for s in hog:
            s.close()
        server.close()
        thread.join(timeout=5)
