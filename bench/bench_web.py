"""Load test of the web app on loopback: many phones, each on its own keep-alive connection, polling tables.

    python -m bench.bench_web --tables 200 --phones 5 --seconds 20            # 1,000 phones, 1 poll/s each
    python -m bench.bench_web --tables 40 --phones 5 --hold 5000 --seconds 15 # while 5,000 idle sockets are held
    python -m bench.bench_web --tables 200 --phones 5 --photos-at-once 4      # 4 photos uploaded mid-run

Starts the real app under `web.server.make_server` (exactly `mapsmith serve`'s waitress settings) in its own
process on a fresh SQLite (WAL) database, creates the tables in storage, then runs the client model:

- every phone is one TCP connection (asyncio, one event loop), joins its table once with the table's join
  link (as a scanned QR code does, keeping the session cookie), then asks `GET /t/<code>/state?v=<version>`
  once per `--interval` (the browser script's rhythm), first polls spread over one interval;
- the client **counts its TCP connects**: a phone reconnects only when the server closed the connection
  (or answered `Connection: close`), and every reconnect is counted and reported per phone per minute;
- one player somewhere reveals a card twice a second (so some polls get the fresh table instead of 204);
- `--hold N` first opens N more connections that stay idle (sockets held open, as stalled phones or a
  misbehaving client would), and checks at the end that the server still answers on them;
- `--photos-at-once K` uploads K 12 MP synthetic photos at the same moment in the middle of the run and
  reports the poll latency while they were being read, and each upload's time and queue wait.

Only 127.0.0.1 is contacted; every loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import re
import resource
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
    """Child process: the real app with `mapsmith serve`'s waitress settings (web/server.py)."""
    import logging

    from web import create_app
    from web.server import make_server

    logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # queue depth notes are expected under load
    app = create_app({"DATABASE": db, "SECRET_KEY": "bench"})
    make_server(app, HOST, port, threads=threads, ident="mapsmith-bench", warm_photos=True).run()


def create_tables(db: str, n: int) -> list[tuple[str, str]]:
    """Tables made straight in storage (setup + a couple of reveals each): (code, join secret) pairs."""
    from companion.cartographers.session import Game, Setup
    from web.storage import connect, initialise

    initialise(db)
    store = connect(db)
    codes = []
    for i in range(n):
        setup = Setup(seed=i, players=("Ann", "Bob", "Cem", "Dag"))
        game = Game.new(setup).apply({"type": "reveal"}).apply({"type": "reveal"})
        code = store.create("cartographers", setup.to_dict(), list(game.events)).code
        codes.append((code, store.access(code).secret))
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


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


class Stats:
    """What the phones saw: latencies (with their start times), answers by status, connects."""

    def __init__(self) -> None:
        self.samples: list[tuple[float, float]] = []  # (start, seconds)
        self.status: dict[int, int] = {}
        self.connects = 0
        self.errors = 0

    def summary(self, seconds: float, phones: int, window: tuple[float, float] | None = None) -> dict:
        lat = [d for t, d in self.samples if window is None or window[0] <= t <= window[1]]
        out = {
            "polls": len(lat),
            "p50_ms": round(percentile(lat, 0.50) * 1000, 1),
            "p90_ms": round(percentile(lat, 0.90) * 1000, 1),
            "p99_ms": round(percentile(lat, 0.99) * 1000, 1),
            "max_ms": round(max(lat) * 1000, 1) if lat else float("nan"),
        }
        if window is None:
            out.update({
                "polls_per_s": round(len(lat) / seconds, 1),
                "answers": {str(k): v for k, v in sorted(self.status.items())},
                "server_errors_5xx": sum(v for k, v in self.status.items() if k >= 500),
                "client_errors": self.errors,
                "tcp_connects": self.connects,
                # the first connect of each phone is its arrival; the rest are reconnects
                "connects_per_phone_per_minute": round(self.connects / phones / (seconds / 60), 3),
                "reconnects": self.connects - phones,
                "reconnects_per_phone_per_minute": round((self.connects - phones) / phones / (seconds / 60), 3),
            })
        return out


class Conn:
    """One phone's HTTP/1.1 keep-alive connection; reconnects (counted) only when the server closed it."""

    def __init__(self, port: int, stats: Stats):
        self.port, self.stats = port, stats
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
        self.stats.connects += 1

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def get(self, path: str, cookie: str = "") -> tuple[int, dict[str, str], bytes]:
        if self.writer is None:
            await self.open()
        head = f"GET {path} HTTP/1.1\r\nHost: {HOST}:{self.port}\r\nAccept: application/json\r\n"
        if cookie:
            head += f"Cookie: {cookie}\r\n"
        self.writer.write((head + "\r\n").encode())
        raw = await self.reader.readuntil(b"\r\n\r\n")
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            if ":" in line:
                k, v = line.split(":", 1)
                headers[k.strip().lower()] = v.strip()
        body = await self.reader.readexactly(int(headers.get("content-length", 0)))
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, headers, body


async def phone(port: int, code: str, secret: str, due: float, stop_at: float, interval: float,
                stats: Stats) -> None:
    conn = Conn(port, stats)
    version = 0
    cookie = ""
    try:
        status, headers, _ = await conn.get(f"/j/{secret}")
        cookie = headers.get("set-cookie", "").split(";")[0]
        while True:
            now = time.perf_counter()
            if due > now:
                await asyncio.sleep(due - now)
            if time.perf_counter() >= stop_at:
                break
            t0 = time.perf_counter()
            try:
                status, _headers, body = await conn.get(f"/t/{code}/state?v={version}", cookie)
            except (OSError, asyncio.IncompleteReadError, ValueError):
                stats.errors += 1
                conn.close()
                due += interval
                continue
            stats.samples.append((t0, time.perf_counter() - t0))
            stats.status[status] = stats.status.get(status, 0) + 1
            if status == 200:
                version = json.loads(body)["version"]
            due += interval
    finally:
        conn.close()


async def hold_connections(port: int, n: int) -> list[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
    held = []
    for i in range(n):
        held.append(await asyncio.open_connection(HOST, port))
        if i % 200 == 199:
            await asyncio.sleep(0.05)  # a room of phones arriving, not one SYN flood
    return held


async def check_held(port: int, held, sample: int) -> dict:
    """Do the held connections still work? Send one request on a sample of them."""
    ok = closed = 0
    for reader, writer in held[:: max(1, len(held) // sample)][:sample]:
        try:
            writer.write(f"GET / HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            ok += head.startswith(b"HTTP/1.1 200")
        except (TimeoutError, OSError, asyncio.IncompleteReadError):
            closed += 1
    return {"checked": ok + closed, "answered_200": ok, "closed_or_failed": closed}


def revealer(port: int, tables: list[tuple[str, str]], stop_at: float, every: float, done: list[int]) -> None:
    """One player at a time somewhere taps Reveal (writes exercise the compare-and-swap path)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=10)
    cookie = ""
    tables = tables[:30]  # a phone stays a member of its 40 latest tables
    for _code, secret in tables:
        conn.request("GET", f"/j/{secret}", headers={"Cookie": cookie})
        r = conn.getresponse()
        r.read()
        cookie = (r.getheader("Set-Cookie") or cookie).split(";")[0]
    conn.request("GET", f"/t/{tables[0][0]}", headers={"Cookie": cookie})
    r = conn.getresponse()
    page = r.read().decode()
    cookie = (r.getheader("Set-Cookie") or cookie).split(";")[0]  # the session now holds the CSRF token
    token = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)
    i = 0
    while time.perf_counter() < stop_at:
        code = tables[i % len(tables)][0]
        i += 1
        conn.request("GET", f"/t/{code}/state", headers={"Accept": "application/json", "Cookie": cookie})
        state = json.loads(conn.getresponse().read())
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


def upload_photos_at_once(port: int, bodies: list[tuple[bytes, str]], results: list) -> None:
    """K phones upload their photo at the same moment (threads; the sockets wait, not the GIL)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=120)
    conn.request("GET", "/")
    resp = conn.getresponse()
    page = resp.read().decode()
    cookie = resp.getheader("Set-Cookie", "").split(";")[0]
    token = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)
    conn.close()
    barrier = threading.Barrier(len(bodies))

    def send(i: int) -> None:
        body, ctype = bodies[i]
        c = http.client.HTTPConnection(HOST, port, timeout=120)
        barrier.wait()
        t0 = time.perf_counter()
        c.request("POST", "/api/photo", body=body, headers={"Content-Type": ctype, "Accept": "application/json",
                                                             "Cookie": cookie, "X-CSRF-Token": token})
        r = c.getresponse()
        answer = json.loads(r.read())
        results.append({"status": r.status, "seconds": round(time.perf_counter() - t0, 2),
                        "queue": answer.get("queue"), "start": t0, "end": time.perf_counter()})
        c.close()

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(bodies))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def run_load(port: int, tables: list[tuple[str, str]], phones_per_table: int, seconds: float, interval: float,
             hold: int = 0, photos: list[tuple[bytes, str]] | None = None, server_pid: int | None = None,
             warmup: float = 5.0) -> dict:
    stats = Stats()
    total = len(tables) * phones_per_table
    photo_results: list = []

    async def main() -> dict:
        held = await hold_connections(port, hold) if hold else []
        held_at = time.perf_counter()
        start = time.perf_counter() + 1.0
        cpu0, client0 = (cpu_seconds(server_pid) if server_pid else 0.0), time.process_time()
        stop_at = start + seconds
        reveals = [0]
        rev = threading.Thread(target=revealer, args=(port, tables, stop_at, 0.5, reveals))
        rev.start()
        loop = asyncio.get_running_loop()
        photo_task = None
        if photos:
            async def later() -> None:
                await asyncio.sleep(max(0.0, start + seconds / 3 - time.perf_counter()))
                await loop.run_in_executor(None, upload_photos_at_once, port, photos, photo_results)
            photo_task = asyncio.ensure_future(later())
        tasks = [phone(port, *tables[k % len(tables)], start + interval * k / total, stop_at, interval, stats)
                 for k in range(total)]
        await asyncio.gather(*tasks)
        if photo_task is not None:
            await photo_task
        rev.join()
        out = {"phones": total, "seconds": seconds, "interval_s": interval, "reveals": reveals[0]}
        out.update(stats.summary(seconds, total))
        # the first seconds hold every phone's join and first connect at once; a club night is the hours after
        settled = min(warmup, seconds / 2)
        out["after_warmup"] = stats.summary(seconds, total, (start + settled, stop_at))
        out["after_warmup"]["warmup_s"] = settled
        out["p99_ms_by_5s"] = [stats.summary(seconds, total, (start + a, start + a + 5))["p99_ms"]
                               for a in range(0, int(seconds), 5)]
        if server_pid:  # CPU per poll does not depend on how busy the shared machine is; latency does
            polls = max(1, out["polls"])
            out["server_cpu_ms_per_poll"] = round((cpu_seconds(server_pid) - cpu0) * 1000 / polls, 3)
            out["client_cpu_ms_per_poll"] = round((time.process_time() - client0) * 1000 / polls, 3)
        if hold:
            out["held_connections"] = hold
            out["held_for_s"] = round(time.perf_counter() - held_at, 1)
            out["held_check"] = await check_held(port, held, 200)
            for _reader, writer in held:
                writer.close()
        if photo_results:
            window = (min(r["start"] for r in photo_results), max(r["end"] for r in photo_results))
            out["photos_at_once"] = [{k: v for k, v in r.items() if k not in ("start", "end")} for r in photo_results]
            out["polls_while_photos_were_read"] = stats.summary(seconds, total, window)
            out["polls_while_photos_were_read"]["window_s"] = round(window[1] - window[0], 2)
        return out

    return asyncio.run(main())

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


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc), whatever the machine's load."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def server_memory(pid: int) -> dict[str, float]:
    """Resident memory of the server process now and at its peak (Linux /proc), in MB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = round(int(value.split()[0]) / 1024, 1)
    return {"rss_mb": fields.get("VmRSS", 0.0), "peak_rss_mb": fields.get("VmHWM", 0.0)}


def photo_bodies(n: int, megapixels: float) -> list[tuple[bytes, str]]:
    from bench.synthphoto import PhotoSpec, make_photo

    return [multipart({"side": ""}, "photo", "photo.jpg",
                      make_photo(2000 + i, PhotoSpec(megapixels=megapixels, style="marker")).data, "image/jpeg")
            for i in range(n)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--phones", type=int, default=5, help="phones per table, each on its own connection")
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--interval", type=float, default=1.0, help="seconds between one phone's polls")
    ap.add_argument("--hold", type=int, default=0, help="extra idle connections held open during the run")
    ap.add_argument("--photos-at-once", type=int, default=0, help="12 MP photos uploaded together mid-run")
    ap.add_argument("--server-threads", type=int, default=16)
    ap.add_argument("--warmup", type=float, default=5.0,
                    help="seconds left out of the 'after_warmup' figures (joins and first connects)")
    ap.add_argument("--photos", type=int, default=0, help="sequential 12 MP upload timings after the run")
    ap.add_argument("--serve", nargs=2, metavar=("DB", "PORT"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.serve:
        serve(args.serve[0], int(args.serve[1]), args.server_threads)
        return 0

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the client holds every phone's socket too
    tmp = tempfile.mkdtemp(prefix="mapsmith-bench-")
    db = str(Path(tmp) / "bench.sqlite3")
    tables = create_tables(db, args.tables)
    photos = photo_bodies(args.photos_at_once, 12.0) if args.photos_at_once else None
    port = free_port()
    root = Path(__file__).resolve().parents[1]
    server = subprocess.Popen([sys.executable, "-m", "bench.bench_web", "--serve", db, str(port),
                               "--server-threads", str(args.server_threads)], cwd=root,
                              env={**os.environ, "PYTHONPATH": str(root)})
    try:
        wait_ready(port)
        time.sleep(1)
        print(json.dumps({"server_memory_idle": server_memory(server.pid), "load": os.getloadavg()}), flush=True)
        print(f"{args.tables} tables × {args.phones} phones, each on its own connection, one poll every "
              f"{args.interval:g} s for {args.seconds:g} s; {args.hold} idle connections held; "
              f"{args.photos_at_once} photos at once; waitress {args.server_threads} threads, SQLite WAL", flush=True)
        result = run_load(port, tables, args.phones, args.seconds, args.interval, args.hold, photos, server.pid,
                          args.warmup)
        result["server_alive"] = server.poll() is None
        print(json.dumps({"run": result}, indent=1), flush=True)
        if args.photos > 0:
            print(json.dumps({"upload_to_review_12MP": photo_timing(port, args.photos, 12.0)}), flush=True)
        print(json.dumps({"server_memory_after": server_memory(server.pid), "load": os.getloadavg()}), flush=True)
    finally:
        server.terminate()
        server.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
