"""Photo reading off the request threads: a small pool of worker processes behind a bounded queue.

Why processes: reading a 12 MP photo is ~0.5–1 s of NumPy/OpenCV/scikit-image work, much of it
holding Python's GIL. Run on a waitress thread, four photos at once would stall every poll of every
table for seconds. In worker processes the server's threads only wait on a pipe, so polls stay fast.

Why bounded: `PHOTO_WORKERS` photos are read at once (default: one per core but one, at most 4; so 1 on a
2-core box, leaving a core to the polls) and at most
`PHOTO_QUEUE` more wait; beyond that the upload is refused at once with 429 and Retry-After instead
of piling up memory. Each answer says whether the photo waited (`queue`: photos ahead of it when it
arrived and seconds spent waiting), so the phone can tell the player why it took longer.

Workers are started ("spawn": a fresh interpreter, never a fork of a threaded server) when the server
starts (`warm()`) or with the first photo, import the vision pipeline once, and exit by themselves when
the server process is gone, however it ended. A worker that dies on some photo is replaced and that
photo gets a clear 422, never a 500. `PHOTO_WORKERS=0` reads in the request thread (for tools and
debugging; the queue bound still applies).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
import time
import weakref
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from flask import Flask, current_app, g
from flask_babel import gettext as _

from .errors import UserError

if TYPE_CHECKING:
    from vision.reading import SheetReading

EXTENSION = "mapsmith_photoqueue"
READ_TIMEOUT = 120  # seconds a single photo may take before the phone is told to try again


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(1)
        if os.getppid() != parent:  # the server is gone: nobody will ever collect our answers
            os._exit(0)


def _worker_start(parent: int) -> None:
    """In each new worker: leave when the server does, and import the vision pipeline before the first photo."""
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True, name="parent-watch").start()
    import vision.reading  # noqa: F401


def _ready() -> bool:
    return True


def _read_in_worker(data: bytes, side: str | None, names: dict[int, str] | None = None,
                    quarter_turns: int | None = None, heroes: bool | None = None) -> tuple[str, Any, float]:
    """Runs in a worker process: ("ok", reading, started) or ("photo_error", (code, detail), started).

    PhotoError is sent back as its code: an exception whose __init__ takes a code would not survive
    pickling with its message as the only argument.
    """
    started = time.time()
    from vision.errors import PhotoError
    from vision.reading import read_sheet

    try:
        return "ok", read_sheet(data, side=side, names=names or None, quarter_turns=quarter_turns,
                                heroes=heroes), started
    except PhotoError as exc:
        return "photo_error", (exc.code, exc.detail), started


THUMB_SIDE = 320  # long side of a table photo's sheet thumbnails ("Whose sheet is this?")


def _thumb(img):
    import cv2

    if img is None or img.size == 0:
        return None
    f = min(1.0, THUMB_SIDE / max(img.shape[:2]))
    return cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_AREA) if f < 1 else img


def _read_all_in_worker(data: bytes, side: str | None, names: dict[int, str] | None = None,
                        heroes: bool | None = None) -> tuple[str, Any, float]:
    """Runs in a worker process: every sheet of a table photo (`vision.multisheet.read_all`), made picklable.

    Each sheet comes back as {"reading", "error": (code, detail) | None, "png": the cut-out it was read from
    (None: the whole photo), "thumb": a small BGR image}.
    """
    started = time.time()
    from vision.errors import PhotoError
    from vision.multisheet import read_all

    try:
        found = read_all(data, side=side, heroes=heroes)
    except PhotoError as exc:
        return "photo_error", (exc.code, exc.detail), started
    out = []
    for f in found:
        upright = f.reading.sheet_image if f.reading is not None else None
        out.append({"reading": f.reading, "error": (f.error.code, f.error.detail) if f.error else None,
                    "png": f.crop_png, "thumb": _thumb(upright if upright is not None else f.crop)})
    return "ok", out, started


@dataclass
class QueueInfo:
    ahead: int  # photos being read or waiting when this one arrived
    waited_s: float  # time from arrival until a worker started on it

    def to_dict(self) -> dict[str, Any]:
        return {"queued": self.waited_s >= 0.05 or self.ahead > 0, "ahead": self.ahead,
                "waited_s": round(self.waited_s, 2)}


class PhotoQueue:
    """`workers` photos read at once in worker processes, `waiting` more queued, the rest refused."""

    def __init__(self, workers: int, waiting: int):
        self.workers = workers
        self.capacity = max(1, workers) + waiting
        self.lock = threading.Lock()
        self.inline = threading.Lock()
        self.in_flight = 0
        self.executor: ProcessPoolExecutor | None = None
        self._finalizer: weakref.finalize | None = None

    def _pool(self) -> ProcessPoolExecutor:
        with self.lock:
            if self.executor is None:
                self.executor = ProcessPoolExecutor(max_workers=self.workers,
                                                    mp_context=multiprocessing.get_context("spawn"),
                                                    initializer=_worker_start, initargs=(os.getpid(),))
                self._finalizer = weakref.finalize(self, self.executor.shutdown, wait=False, cancel_futures=True)
            return self.executor

    def _broken(self, executor: ProcessPoolExecutor) -> None:
        with self.lock:
            if self.executor is executor:
                self.executor = None
                if self._finalizer is not None:
                    self._finalizer()

    def read(self, data: bytes, side: str | None, names: dict[int, str] | None = None,
             task=_read_in_worker) -> tuple[Any, QueueInfo]:
        """`task(data, side, names)` (a one-sheet read by default) in a worker, or a 429 when the queue is full."""
        with self.lock:
            if self.in_flight >= self.capacity:
                raise UserError(429, "photo_queue_full",
                                _("Many photos are being read right now. Please send yours again in a few seconds."),
                                retry_after=5)
            ahead = self.in_flight
            self.in_flight += 1
        arrived = time.time()
        try:
            if self.workers <= 0:
                with self.inline:  # in-thread mode: one photo at a time
                    status, value, started = task(data, side, names)
            else:
                executor = self._pool()
                try:
                    status, value, started = executor.submit(task, data, side, names).result(READ_TIMEOUT)
                except BrokenProcessPool:
                    self._broken(executor)
                    raise UserError(422, "photo_failed", _("This photo could not be read. Please take it again, "
                                                           "a little closer and in good light.")) from None
                except TimeoutError:
                    raise UserError(429, "photo_timeout", _("Reading the photo took too long. Please try again."),
                                    retry_after=10) from None
        finally:
            with self.lock:
                self.in_flight -= 1
        info = QueueInfo(ahead, max(0.0, started - arrived))
        if status == "photo_error":
            from vision.errors import PhotoError

            raise PhotoError(*value)
        return value, info

    def warm(self) -> None:
        """Start every worker now (in the background), so the first photos of the evening do not wait for them."""
        if self.workers <= 0:
            return
        executor = self._pool()

        def start() -> None:
            futures = [executor.submit(_ready) for _ in range(self.workers)]
            for future in futures:
                with contextlib.suppress(Exception):
                    future.result(timeout=300)

        threading.Thread(target=start, daemon=True, name="photo-warm").start()

    def close(self) -> None:
        if self._finalizer is not None:
            self._finalizer()


def queue() -> PhotoQueue:
    return current_app.extensions[EXTENSION]


def read_sheet(data: bytes, side: str | None = None, names: dict[int, str] | None = None,
               quarter_turns: int | None = None, heroes: bool | None = None) -> SheetReading:
    """`vision.reading.read_sheet` through the app's queue (same arguments, same PhotoError); the wait goes to g.

    `quarter_turns` None: the way up not answered; 0..3: the player's answer (0 = "yes"), confirmed.
    """
    task = partial(_read_in_worker, quarter_turns=quarter_turns, heroes=heroes)
    reading, info = queue().read(data, side, names, task)
    g.photo_queue = info
    return reading


def read_table(data: bytes, side: str | None = None, heroes: bool | None = None) -> list[dict[str, Any]]:
    """Every sheet of a table photo through the app's queue (see `_read_all_in_worker`); the wait goes to g."""
    sheets, info = queue().read(data, side, None, partial(_read_all_in_worker, heroes=heroes))
    g.photo_queue = info
    return sheets


def queue_info() -> dict[str, Any]:
    """For the photo answer: whether this photo waited for a worker, and how long."""
    info = g.get("photo_queue")
    return {"queue": info.to_dict()} if info is not None else {}


def init_app(app: Flask) -> None:
    # one core is left to the server itself, so polls never wait behind photo reading (2 cores: 1 worker)
    default_workers = max(1, min(4, (os.cpu_count() or 2) - 1))
    app.config.setdefault("PHOTO_WORKERS", int(os.environ.get("MAPSMITH_PHOTO_WORKERS", default_workers)))
    app.config.setdefault("PHOTO_QUEUE", int(os.environ.get("MAPSMITH_PHOTO_QUEUE", 8)))
    app.extensions[EXTENSION] = PhotoQueue(app.config["PHOTO_WORKERS"], app.config["PHOTO_QUEUE"])

    @app.after_request
    def _retry_after(response):
        if response.status_code == 429 and "Retry-After" not in response.headers:
            response.headers["Retry-After"] = "5"
        return response
