"""The waitress server as Mapsmith runs it: thousands of phones, keep-alive for every answer, nothing fatal.

Why each setting (waitress defaults in brackets):

- `asyncore_use_poll=True` [False]: `select()` cannot watch a socket whose number is above 1024 and
  waitress's loop then dies with "filedescriptor out of range"; `poll()` has no such limit.
- `connection_limit` [100]: open connections (idle keep-alive ones included) before waitress stops
  accepting; 10,000 by default, lowered to what the open-file limit allows. The soft open-file limit
  is raised to the hard one first (Debian's default soft limit of 1024 would cap us at ~1,000 phones).
- `channel_timeout` [120] / `cleanup_interval` [30]: a connection idle for 30 s is closed (checked every
  10 s). A phone polls every second (every 5 s with its tab hidden), so only dead or abandoned sockets go.
- `backlog` [1024]: the kernel queue of connections not yet accepted, for the moment a whole room opens
  the page at once (the kernel caps it at `net.core.somaxconn`).
- threads [4]: 16 by default; each request holds a thread only for a few milliseconds (a photo holds one
  while it waits for a photo worker, so photo workers + queue (at most 4 + 8) stay below the thread count).
- `max_request_body_size` [1 GB]: 16 MB, the largest photo upload; bodies are read by the event loop
  (spooled to disk above 512 kB) before a thread is taken, so slow uploads hold no thread.

Keep-alive: waitress closes the connection after every answer without a body (204, 304), because it can
send no `Content-Length` for them. Such answers end at their header (RFC 9112 §6.3), so the connection
can safely carry the next request; `KeepAliveTask` keeps it open, which matters because nearly every
poll is answered 204.
"""

from __future__ import annotations

import contextlib
import os
import resource
import select
import signal
import threading
from email.utils import formatdate
from typing import Any

from waitress import wasyncore
from waitress.channel import HTTPChannel
from waitress.server import create_server
from waitress.task import WSGITask

DEFAULT_THREADS = 16
DEFAULT_CONNECTION_LIMIT = 10_000
DEFAULT_PER_CLIENT = 500  # a phone needs ~6; a room behind one NAT address stays far below
CHANNEL_TIMEOUT = 30
CLEANUP_INTERVAL = 10
BACKLOG = 4096
MAX_BODY = 16 * 1024 * 1024  # a 15 MB photo and its form; waitress would otherwise buffer up to 1 GB per request
SPARE_FILES = 200  # database files, sockets to PostgreSQL, photo workers' pipes, logs


def raise_open_file_limit() -> int:
    """Raise the soft RLIMIT_NOFILE to the hard limit (allowed without privileges); the soft limit after."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft == resource.RLIM_INFINITY or (target != resource.RLIM_INFINITY and soft >= target):
        return soft
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def connection_limit(wanted: int = DEFAULT_CONNECTION_LIMIT) -> int:
    """`wanted`, or less when the open-file limit cannot hold that many sockets plus spares."""
    files = raise_open_file_limit()
    if files == resource.RLIM_INFINITY:
        return wanted
    return max(50, min(wanted, files - SPARE_FILES))


class KeepAliveTask(WSGITask):
    """A WSGI task whose bodiless answers (204/304) keep an HTTP/1.1 connection open."""

    _bodiless = False

    def build_response_header(self):
        self._bodiless = (self.version == "1.1" and not self.has_body and not self.close_on_finish
                          and self.request.headers.get("CONNECTION", "").lower() != "close")
        try:
            return super().build_response_header()
        finally:
            self._bodiless = False

    def set_close_on_finish(self) -> None:
        # inside build_response_header the only reason left for an HTTP/1.1 bodiless answer is the
        # missing Content-Length, which such an answer must not carry anyway
        if self._bodiless:
            return
        super().set_close_on_finish()


NO_CHANGE_RESPONSE = b"HTTP/1.1 204 No Content\r\nCache-Control: no-store\r\nServer: mapsmith\r\nDate: "
LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})


class KeepAliveChannel(HTTPChannel):
    """A connection that keeps alive after bodiless answers and counts towards its client's share.

    One client address may hold at most `server.per_client_limit` connections (loopback, i.e. a local
    reverse proxy or tool, is exempt): beyond that a new connection is closed at once, so one phone or
    script holding thousands of sockets cannot lock the other phones out.
    """

    task_class = KeepAliveTask
    client: str | None = None

    def __init__(self, server: Any, sock: Any, addr: Any, adj: Any, map: Any = None):
        super().__init__(server, sock, addr, adj, map=map)
        limit = getattr(server, "per_client_limit", 0)
        host = addr[0] if isinstance(addr, tuple) and addr else None
        if not limit or host is None or host in LOOPBACK:
            return
        counts = server.clients
        counts[host] = counts.get(host, 0) + 1
        self.client = host
        if counts[host] > limit:
            self.will_close = True  # closed on the loop's next turn, before any request is read

    def received(self, data: bytes) -> bool:
        """waitress's `HTTPChannel.received` (3.0), with one addition: an "unchanged" poll is answered here.

        Nearly every request of the evening is `GET /t/<code>/state?v=N` with nothing new (204). Handing
        each to a worker thread costs two thread wake-ups and a task; on a busy CPU each wake-up waits
        for a core. `answer_inline` gives the 204 from the loop thread itself (one indexed SQLite read);
        everything else goes to a worker thread exactly as before.
        """
        if not data:
            return False
        with self.requests_lock:
            if self.will_close or self.close_when_flushed:
                return False
            while data:
                if self.request is None:
                    self.request = self.parser_class(self.adj)
                n = self.request.received(data)
                if (self.request.expect_continue and self.request.headers_finished and not self.requests
                        and not self.sent_continue):
                    self.send_continue()
                if self.request.completed:
                    self.sent_continue = False
                    if not self.request.empty and not (not self.requests and self.answer_inline(self.request)):
                        self.requests.append(self.request)
                        if len(self.requests) == 1:
                            self.server.add_task(self)
                    self.request = None
                if n >= len(data):
                    break
                data = data[n:]
        return True

    def answer_inline(self, request: Any) -> bool:
        fast = getattr(self.server, "fast_poll", None)
        if (fast is None or request.error is not None or getattr(request, "command", None) != "GET"
                or getattr(request, "version", None) != "1.1"
                or request.headers.get("CONNECTION", "").lower() == "close"):
            return False
        try:
            if not fast.is_unchanged("GET", request.path, request.query):
                return False
        except Exception:  # never let the shortcut fail a request: the worker thread answers instead
            return False
        self.write_soon(NO_CHANGE_RESPONSE + formatdate(usegmt=True).encode() + b"\r\n\r\n")
        request.close()
        return True

    def del_channel(self, map: Any = None) -> None:
        if self.client is not None:
            counts = self.server.clients
            counts[self.client] -= 1
            if counts[self.client] <= 0:
                del counts[self.client]
            self.client = None
        super().del_channel(map)


ACCEPT_BATCH = 64


def _accept_batch(listener: Any) -> None:
    """Accept every waiting connection (up to a batch), not one per loop turn.

    waitress accepts one connection per turn of its loop, and a turn visits every open channel, so
    with thousands held open a room of phones arriving at once would wait seconds in the backlog.
    """
    accept_one = type(listener).handle_accept
    for _ in range(ACCEPT_BATCH):
        before = len(listener._map)
        accept_one(listener)
        if len(listener._map) == before or len(listener._map) >= listener.adj.connection_limit:
            return  # nothing was waiting (or the limit is reached)


READ_FLAGS = select.POLLIN | select.POLLPRI


def _terminate(_signum: int, _frame: Any) -> None:
    raise SystemExit(0)


def epoll_loop(server: Any) -> None:
    """waitress's event loop on epoll, visiting only the connections that can have changed.

    waitress's own loop asks every open connection "readable? writable?" and registers it with a
    fresh poll() on every turn, so each turn costs O(open connections): with 5,000 held open the
    server spent ~2.4 ms of CPU per poll. Here a connection that is idle (nothing to send, no request
    in progress: readable only) stays registered with epoll and is looked at again only when it has an
    event, or after the server's maintenance pass (which marks idle connections to close). Busy
    connections (a request half received or in a worker thread, output to flush) are re-checked every
    turn, exactly as waitress does, because worker threads change them and wake the loop with its trigger.
    Same dispatch (`wasyncore.readwrite`), same objects, same maintenance and connection limit.
    """
    if threading.current_thread() is threading.main_thread():
        # SIGTERM (systemd, scripts/cluster) ends the loop like Ctrl-C, so worker threads and photo
        # workers are shut down cleanly instead of the process vanishing mid-answer
        signal.signal(signal.SIGTERM, _terminate)
    sockets = server._map
    poller = select.epoll()
    known: dict[int, Any] = {}  # fd -> the object last seen there (fds are reused after close)
    registered: dict[int, int] = {}  # fd -> event mask registered with epoll
    busy: set[int] = set()
    dirty: set[int] = set(sockets)
    cleanup_mark = None
    timeout = server.adj.asyncore_loop_timeout

    def visit(fd: int) -> None:
        """Bring one fd's epoll registration and busy/idle state up to date with its object."""
        obj = sockets.get(fd)
        if known.get(fd) is not obj:  # gone, or a new connection on a reused fd
            if fd in registered:
                with contextlib.suppress(OSError):
                    poller.unregister(fd)  # usually already dropped by the kernel on close
                del registered[fd]
            if obj is None:
                known.pop(fd, None)
                busy.discard(fd)
                return
            known[fd] = obj
        flags = READ_FLAGS if obj.readable() else 0
        if obj.writable() and not obj.accepting:
            flags |= select.POLLOUT
        current = registered.get(fd)
        if flags == 0:
            if current is not None:
                with contextlib.suppress(OSError):
                    poller.unregister(fd)
                del registered[fd]
        elif current is None:
            poller.register(fd, flags)
            registered[fd] = flags
        elif current != flags:
            poller.modify(fd, flags)
            registered[fd] = flags
        if (flags == READ_FLAGS and isinstance(obj, HTTPChannel) and not obj.requests
                and obj.request is None):
            busy.discard(fd)  # idle, between requests: wait for its next event
        else:
            busy.add(fd)  # the listener, the trigger, and connections with work in progress

    try:
        while sockets:
            if getattr(server, "stopping", False):  # close(): drop the keep-alive connections too, then stop
                for obj in list(sockets.values()):
                    with contextlib.suppress(OSError):
                        obj.close()
                break
            mark = getattr(server, "next_channel_cleanup", None)
            if mark != cleanup_mark:  # maintenance ran (it may mark idle connections to close): look at all
                cleanup_mark = mark
                dirty.update(sockets)
            for fd in dirty | busy:
                visit(fd)
            if len(known) != len(sockets):  # connections accepted this turn (or gone unseen): find them
                for fd in (sockets.keys() - known.keys()) | (known.keys() - sockets.keys()):
                    visit(fd)
            events = poller.poll(timeout)
            dirty = set()
            for fd, flags in events:
                obj = sockets.get(fd)
                if obj is not None:
                    wasyncore.readwrite(obj, flags)
                    dirty.add(fd)
    except (SystemExit, KeyboardInterrupt):
        server.task_dispatcher.shutdown()
    finally:
        poller.close()


def settings(threads: int = DEFAULT_THREADS, connections: int = DEFAULT_CONNECTION_LIMIT, **overrides: Any
             ) -> dict[str, Any]:
    """waitress adjustments for Mapsmith (see the module docstring for why)."""
    adj: dict[str, Any] = {
        "threads": threads,
        "connection_limit": connection_limit(connections),
        "channel_timeout": CHANNEL_TIMEOUT,
        "cleanup_interval": CLEANUP_INTERVAL,
        "backlog": BACKLOG,
        "asyncore_use_poll": True,
        "max_request_body_size": MAX_BODY,
        "ident": "mapsmith",
    }
    adj.update(overrides)
    return adj


def make_server(app: Any, host: str, port: int, threads: int = DEFAULT_THREADS,
                connections: int = DEFAULT_CONNECTION_LIMIT, warm_photos: bool = False,
                per_client: int = DEFAULT_PER_CLIENT, **overrides: Any) -> Any:
    """A ready waitress server (call `.run()`); every listening socket hands out keep-alive channels.

    `warm_photos` starts the photo workers now rather than with the first photo (for `mapsmith serve`;
    tests leave it off so short-lived servers do not start worker processes they never use).
    """
    server = create_server(app, **settings(threads, connections, host=host, port=port, **overrides))
    from .fastpoll import PollFastPath

    # the loop thread may answer "unchanged" polls itself, but only from SQLite (a local file read of
    # ~50 µs); a PostgreSQL round trip would hold up every connection, so those go to the threads
    fast = getattr(app, "wsgi_app", None)
    inline_poll = fast if isinstance(fast, PollFastPath) and "://" not in fast.database else None
    if os.environ.get("MAPSMITH_INLINE_POLLS") == "0":  # for comparisons (bench/README.md)
        inline_poll = None
    if hasattr(select, "epoll") and hasattr(server, "_map"):  # one listening socket (not MultiSocketServer)
        server.run = lambda: epoll_loop(server)
        close_listener = server.close

        def close() -> None:
            """Stop serving: the listener, and (in the loop's own thread) every open connection.

            waitress's close() stops only the listener, so phones on keep-alive connections would go on
            being served by a server that was told to stop.
            """
            server.stopping = True
            with contextlib.suppress(OSError):
                server.pull_trigger()
            close_listener()

        server.close = close
    photos = getattr(app, "extensions", {}).get("mapsmith_photoqueue")
    if warm_photos and photos is not None:
        photos.warm()
    for listener in [server, *getattr(server, "map", {}).values()]:
        if hasattr(listener, "channel_class"):
            listener.channel_class = KeepAliveChannel
            listener.per_client_limit = per_client
            listener.clients = {}
            listener.fast_poll = inline_poll
            listener.handle_accept = _accept_batch.__get__(listener)
    return server
