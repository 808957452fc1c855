"""Photos are read in worker processes behind a bounded queue; answers say when a photo waited."""

from __future__ import annotations

import io
import os
import threading

import pytest

from tests.conftest import csrf_token
from tests.test_web_photo import sample_grid, sheet_photo
from web import create_app
from web.photoqueue import EXTENSION, PhotoQueue, _read_in_worker


@pytest.fixture(scope="module")
def photo_bytes() -> bytes:
    return sheet_photo("A", sample_grid("A"))


def uploader(app):
    client = app.test_client()
    token = csrf_token(client)

    def send(data: bytes):
        return client.post("/api/photo", data={"photo": (io.BytesIO(data), "map.jpg", "image/jpeg"), "side": ""},
                           headers={"X-CSRF-Token": token, "Accept": "application/json"})

    return send


def at_once(calls) -> list:
    barrier = threading.Barrier(len(calls))
    out: list = [None] * len(calls)

    def run(i):
        barrier.wait()
        out[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def test_the_worker_reads_in_another_process(photo_bytes):
    status, reading, _started = _read_in_worker(photo_bytes, None)
    assert status == "ok"
    queue = PhotoQueue(workers=1, waiting=1)
    try:
        reading_there, info = queue.read(photo_bytes, None)
        assert reading_there.grid == reading.grid and info.ahead == 0
        pids = {p.pid for p in queue.executor._processes.values()}
        assert pids and os.getpid() not in pids
    finally:
        queue.close()


def test_a_second_photo_waits_and_says_so_a_third_is_refused(tmp_path, photo_bytes):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite3"), "SECRET_KEY": "k",
                      "PHOTO_WORKERS": 1, "PHOTO_QUEUE": 1})
    try:
        sends = [uploader(app) for _ in range(3)]
        assert sends[0](photo_bytes).status_code == 200  # the worker is up and warm
        answers = at_once([lambda s=s: s(photo_bytes) for s in sends])
        statuses = sorted(a.status_code for a in answers)
        assert statuses == [200, 200, 429], statuses
        refused = next(a for a in answers if a.status_code == 429)
        assert refused.get_json()["code"] == "photo_queue_full" and refused.headers["Retry-After"]
        queues = sorted((a.get_json()["queue"] for a in answers if a.status_code == 200), key=lambda q: q["ahead"])
        assert queues[0]["ahead"] == 0 and queues[1]["ahead"] == 1
        assert queues[1]["queued"] and queues[1]["waited_s"] > 0  # it waited for the first one
    finally:
        app.extensions[EXTENSION].close()


def test_unreadable_photos_still_explain_themselves_from_the_worker(client):
    send = uploader(client.application)
    r = send(b"\x89PNG\r\n\x1a\n" + b"\x00" * 100)
    assert r.status_code in (415, 422) and r.get_json()["code"]


def test_workers_leave_when_the_server_is_killed(tmp_path):
    """However the server ends (here SIGKILL: no cleanup runs), its photo workers do not linger."""
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    script = ("import time\nfrom web.photoqueue import PhotoQueue\nq = PhotoQueue(workers=2, waiting=0)\n"
              "q.warm()\nwhile len(q.executor._processes or {}) < 2: time.sleep(0.1)\n"
              "print(*q.executor._processes, flush=True)\ntime.sleep(60)\n")
    proc = subprocess.Popen([sys.executable, "-c", script], cwd=root, stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(root)})
    try:
        pids = [int(p) for p in proc.stdout.readline().split()]
        assert len(pids) == 2
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)

    def running(pid: int) -> bool:
        try:
            return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
        except OSError:
            return False

    deadline = time.monotonic() + 15
    alive = pids
    while alive and time.monotonic() < deadline:
        time.sleep(0.2)
        alive = [p for p in pids if running(p)]
    assert alive == []
