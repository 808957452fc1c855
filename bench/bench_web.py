"""Load test of the web app on loopback: many tables, several phones each polling the table state.

    python -m bench.bench_web --tables 200 --phones 5 --seconds 10

Starts `waitress` (16 threads, like `mapsmith serve`) in a separate process on a
fresh SQLite database in a temporary folder, creates the tables, then simulates
`tables × phones` phones that each ask `GET /t/<code>/state?v=<version>` once a
second (the browser script's rhythm), while one player somewhere reveals a card
twice a second (so some polls return the new table instead of 204). Reports the
achieved polls/s and latency percentiles; then a closed-loop burst (every
worker polls as fast as it can) for the ceiling; then the time from uploading a
12 MP synthetic phone photo to the review data (`POST /api/photo`).

Only 127.0.0.1 is contacted; every loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def serve(db: str, port: int, threads: int) -> None:
    """Child process: the real app under waitress."""
    import logging

    from waitress import serve as waitress_serve

    from web import create_app

    logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # queue depth notes are expected under load
    app = create_app({"DATABASE": db, "SECRET_KEY": "bench"})
    waitress_serve(app, host=HOST, port=port, threads=threads, ident="mapsmith-bench", _quiet=True,
                   connection_limit=2000, backlog=2048)


def create_tables(db: str, n: int) -> list[str]:
    """Tables made straight in storage (setup + a couple of reveals each), as the app would store them."""
    from companion.cartographers.session import Game, Setup
    from web.storage import connect, initialise

    initialise(db)
    store = connect(db)
    codes = []
    for i in range(n):
        setup = Setup(seed=i, players=("Ann", "Bob", "Cem", "Dag"))
        game = Game.new(setup).apply({"type": "reveal"}).apply({"type": "reveal"})
        codes.append(store.create("cartographers", setup.to_dict(), list(game.events)).code)
    store.close()
    return codes


def wait_ready(port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=2)
            conn.request("GET", "/")
            conn.getresponse().read()
            conn.close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("server did not start")


class Phone:
    __slots__ = ("code", "version", "due")

    def __init__(self, code: str, due: float):
        self.code, self.version, self.due = code, 0, due


def poll_worker(port: int, phones: list[Phone], stop_at: float, interval: float | None, lat: list[float],
                counts: dict[str, int], lock: threading.Lock) -> None:
    """Polls its phones: each once per `interval` (open loop), or back to back when interval is None."""
    conn = http.client.HTTPConnection(HOST, port, timeout=10)
    local: list[float] = []
    n200 = n204 = errors = 0
    i = 0
    while True:
        phone = phones[i % len(phones)]
        i += 1
        now = time.perf_counter()
        if now >= stop_at:
            break
        if interval is not None and phone.due > now:
            time.sleep(min(phone.due - now, stop_at - now))
            if time.perf_counter() >= stop_at:
                break
        t0 = time.perf_counter()
        try:
            conn.request("GET", f"/t/{phone.code}/state?v={phone.version}", headers={"Accept": "application/json"})
            resp = conn.getresponse()
            body = resp.read()
        except (OSError, http.client.HTTPException):
            errors += 1
            conn.close()
            conn = http.client.HTTPConnection(HOST, port, timeout=10)
            continue
        local.append(time.perf_counter() - t0)
        if resp.status == 204:
            n204 += 1
        elif resp.status == 200:
            n200 += 1
            phone.version = json.loads(body)["version"]
        else:
            errors += 1
        if interval is not None:
            phone.due += interval
    conn.close()
    with lock:
        lat.extend(local)
        counts["200"] += n200
        counts["204"] += n204
        counts["errors"] += errors


def revealer(port: int, codes: list[str], stop_at: float, every: float, done: list[int]) -> None:
    """One player at a time somewhere taps Reveal (writes exercise the compare-and-swap path)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=10)
    conn.request("GET", "/")
    resp = conn.getresponse()
    page = resp.read().decode()
    cookie = resp.getheader("Set-Cookie", "").split(";")[0]
    token = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)
    i = 0
    while time.perf_counter() < stop_at:
        code = codes[i % len(codes)]
        i += 1
        conn.request("GET", f"/t/{code}/state", headers={"Accept": "application/json", "Cookie": cookie})
        r = conn.getresponse()
        state = json.loads(r.read())
        if state["phase"] == "explore":
            body = json.dumps({"action": "reveal", "version": state["version"]})
            conn.request("POST", f"/t/{code}/action", body=body, headers={
                "Content-Type": "application/json", "Accept": "application/json", "Cookie": cookie,
                "X-CSRF-Token": token})
            r = conn.getresponse()
            r.read()
            if r.status == 200:
                done[0] += 1
        time.sleep(every)
    conn.close()


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def run_load(port: int, codes: list[str], phones_per_table: int, seconds: float, workers: int,
             interval: float | None) -> dict:
    phones = []
    start = time.perf_counter() + 0.5
    total = len(codes) * phones_per_table
    for k in range(total):
        # spread the first polls over one interval, as phones opened at random moments would be
        phones.append(Phone(codes[k % len(codes)], start + (interval or 0) * k / total))
    stop_at = start + seconds
    lat: list[float] = []
    counts = {"200": 0, "204": 0, "errors": 0}
    lock = threading.Lock()
    reveals = [0]
    threads = [threading.Thread(target=poll_worker, args=(port, phones[w::workers], stop_at, interval, lat, counts,
                                                          lock)) for w in range(workers)]
    threads.append(threading.Thread(target=revealer, args=(port, codes, stop_at, 0.5, reveals)))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    n = len(lat)
    return {
        "phones": total,
        "requests": n,
        "polls_per_s": n / seconds,
        "p50_ms": percentile(lat, 0.50) * 1000,
        "p90_ms": percentile(lat, 0.90) * 1000,
        "p99_ms": percentile(lat, 0.99) * 1000,
        "max_ms": max(lat) * 1000 if lat else float("nan"),
        "fresh_states": counts["200"],
        "unchanged_204": counts["204"],
        "errors": counts["errors"],
        "reveals": reveals[0],
    }


def multipart(fields: dict[str, str], file_field: str, filename: str, data: bytes, mimetype: str) -> tuple[bytes,
                                                                                                         str]:
    boundary = uuid.uuid4().hex
    parts = []
    for k, v in fields.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode())
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{file_field}"; filename="{filename}"\r\n'
                 f"Content-Type: {mimetype}\r\n\r\n".encode() + data + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def photo_timing(port: int, repeats: int, megapixels: float) -> dict:
    from bench.synthphoto import PhotoSpec, make_photo

    conn = http.client.HTTPConnection(HOST, port, timeout=120)
    conn.request("GET", "/")
    resp = conn.getresponse()
    page = resp.read().decode()
    cookie = resp.getheader("Set-Cookie", "").split(";")[0]
    token = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)
    times, sizes, correct = [], [], []
    for seed in range(repeats):
        photo = make_photo(1000 + seed, PhotoSpec(megapixels=megapixels, style="marker"))
        body, ctype = multipart({"side": ""}, "photo", "photo.jpg", photo.data, "image/jpeg")
        t0 = time.perf_counter()
        conn.request("POST", "/api/photo", body=body, headers={
            "Content-Type": ctype, "Accept": "application/json", "Cookie": cookie, "X-CSRF-Token": token})
        r = conn.getresponse()
        answer = json.loads(r.read())
        times.append(time.perf_counter() - t0)
        sizes.append(len(photo.data))
        if r.status == 200:
            correct.append(sum(a == b for ra, rb in zip(answer["grid"], photo.grid, strict=True)
                               for a, b in zip(ra, rb, strict=True)))
        else:
            correct.append(-1)
    conn.close()
    return {"photos": repeats, "megapixels": megapixels, "median_s": statistics.median(times),
            "max_s": max(times), "mean_jpeg_mb": statistics.mean(sizes) / 1e6, "cells_right_of_121": correct}


def server_memory(pid: int) -> dict[str, float]:
    """Resident memory of the server process now and at its peak (Linux /proc), in MB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = round(int(value.split()[0]) / 1024, 1)
    return {"rss_mb": fields.get("VmRSS", 0.0), "peak_rss_mb": fields.get("VmHWM", 0.0)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--phones", type=int, default=5, help="phones polling per table")
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--interval", type=float, default=1.0, help="seconds between one phone's polls")
    ap.add_argument("--workers", type=int, default=8, help="client threads (more only adds client-side GIL waits)")
    ap.add_argument("--server-threads", type=int, default=16)
    ap.add_argument("--burst-seconds", type=float, default=5, help="closed-loop ceiling run (0 = skip)")
    ap.add_argument("--photos", type=int, default=3, help="12 MP upload timings (0 = skip)")
    ap.add_argument("--serve", nargs=2, metavar=("DB", "PORT"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.serve:
        serve(args.serve[0], int(args.serve[1]), args.server_threads)
        return 0

    tmp = tempfile.mkdtemp(prefix="mapsmith-bench-")
    db = str(Path(tmp) / "bench.sqlite3")
    codes = create_tables(db, args.tables)
    port = free_port()
    root = Path(__file__).resolve().parents[1]
    server = subprocess.Popen([sys.executable, "-m", "bench.bench_web", "--serve", db, str(port),
                               "--server-threads", str(args.server_threads)], cwd=root,
                              env={**os.environ, "PYTHONPATH": str(root)})
    try:
        wait_ready(port)
        time.sleep(1)
        print(json.dumps({"server_memory_idle": server_memory(server.pid)}))
        print(f"{args.tables} tables × {args.phones} phones, one poll per phone every {args.interval:g} s, "
              f"{args.seconds:g} s, waitress {args.server_threads} threads, SQLite WAL")
        result = run_load(port, codes, args.phones, args.seconds, args.workers, args.interval)
        print(json.dumps({"open_loop": result}, indent=1))
        if args.burst_seconds > 0:
            burst = run_load(port, codes, 1, args.burst_seconds, args.workers, None)
            print(json.dumps({"closed_loop_ceiling": burst}, indent=1))
        if args.photos > 0:
            print(json.dumps({"upload_to_review_12MP": photo_timing(port, args.photos, 12.0)}, indent=1))
        print(json.dumps({"server_memory_after": server_memory(server.pid)}))
    finally:
        server.terminate()
        server.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
