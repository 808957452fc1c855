"""Crash hunt: fuzzed photos through the reader's public entry point; only `PhotoError` may come out.

    nice -n 10 python -m bench.bench_fuzz --n 10000 --procs 2          # the issue's 10,000-photo run
    python -m bench.bench_fuzz --case 4711                              # re-run one case (prints its outcome)

Every case is determined by its number alone (`numpy.random.default_rng([seed, case])`), so a crash is
reproduced with `--case N` (and `--seed S` when not the default). Each case feeds bytes to
`vision.reading.read_sheet` — what the CLI and the web app's photo queue call — and is counted as `read`, as the
`PhotoError` code, or as a crash (any other exception: type, message and the case number are listed), or as
`slow` when one case takes longer than `--timeout` seconds.

What a case is (mostly small photos, 0.3–1 MP, so that 10,000 run in reasonable time on two cores):
* **photo** (≈ 70 %): a synthetic photo of a filled-in sheet (our sheet, the pad look-alike, a generic print, a
  hand-ruled or squared grid; pencil, marker or graphite) mutilated by a random mix of crops (partial sheets),
  turns, scales, perspective, noise, blur, blank bands, brightness and gamma, a channel dropped or swapped,
  and saved as JPEG (any quality), PNG or WebP;
* **format** (≈ 10 %): the same photos as grayscale, 16-bit, with alpha, palette, 1-bit, or with a random EXIF
  orientation; BMP, GIF and TIFF files;
* **garbage** (≈ 10 %): flat, noise, stripes, checkerboards, random bytes, text, empty files, tiny (1–300 px)
  and huge (up to 120 MP declared, up to ~30 MP really) images, a header that lies about the size;
* **damaged** (≈ 10 %): a valid JPEG/PNG/WebP truncated anywhere, bytes flipped, garbage appended, two files
  glued together.
"""

from __future__ import annotations

import argparse
import io
import json
import multiprocessing as mp
import os
import signal
import struct
import sys
import time
import traceback
import zlib
from collections import Counter

import cv2
import numpy as np

SEED = 20261201
BASES: list[bytes] = []  # per worker process, built by _init (not shared mutable state between processes)
BASE_SPECS = (("ours", "pencil", 0.6), ("pad", "marker", 0.5), ("generic", "graphite", 0.4),
              ("handruled", "pencil", 0.45), ("squared", "marker", 0.35), ("ours", "graphite", 0.9),
              ("ours", "marker", 0.3))


class _Slow(Exception):
    pass


def _alarm(signum, frame):  # noqa: ARG001 - signal handler signature
    raise _Slow()


def _init(n_bases: int = len(BASE_SPECS)) -> None:
    from bench.synthphoto import PhotoSpec, make_photo

    cv2.setNumThreads(1)  # two processes share two cores
    BASES.clear()
    for i, (design, style, mpx) in enumerate(BASE_SPECS[:n_bases]):
        p = make_photo(880_000 + i, PhotoSpec(design=design, style=style, megapixels=mpx))
        BASES.append(p.data)


# --------------------------------------------------------------------------- mutations


def _encode(img: np.ndarray, rng: np.random.Generator) -> bytes:
    r = rng.random()
    if r < 0.65:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(5, 100))])
    elif r < 0.9:
        ok, buf = cv2.imencode(".png", img, [cv2.IMWRITE_PNG_COMPRESSION, int(rng.integers(0, 9))])
    else:
        ok, buf = cv2.imencode(".webp", img, [cv2.IMWRITE_WEBP_QUALITY, int(rng.integers(5, 101))])
    assert ok
    return buf.tobytes()


def _base_image(rng: np.random.Generator) -> np.ndarray:
    data = BASES[int(rng.integers(len(BASES)))]
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)


def mutate_photo(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random mix of what cameras and players do to a photo, and some of what they never do.

    A third of the cases are mild (one small change: most of them still read), so that the later stages
    (cells, coins, QR, overlay) are fuzzed too, not only the early refusals.
    """
    if rng.random() < 0.33:
        k = int(rng.integers(5))
        if k == 0:
            img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.3, 1.5)))
        elif k == 1:
            img = np.clip(img.astype(np.int16) + rng.normal(0, rng.uniform(2, 15), img.shape), 0, 255).astype(
                np.uint8)
        elif k == 2:
            M = cv2.getRotationMatrix2D((img.shape[1] / 2, img.shape[0] / 2), float(rng.uniform(-20, 20)),
                                        float(rng.uniform(0.8, 1.05)))
            img = cv2.warpAffine(img, M, (img.shape[1], img.shape[0]), borderMode=cv2.BORDER_REPLICATE)
        elif k == 3:
            img = np.ascontiguousarray(np.rot90(img, int(rng.integers(1, 4))))
        else:
            f = float(rng.uniform(0.7, 1.4))
            img = cv2.resize(img, (int(img.shape[1] * f), int(img.shape[0] * f)), interpolation=cv2.INTER_AREA)
        return img
    h, w = img.shape[:2]
    if rng.random() < 0.5:  # crop: a partial sheet, a corner, a strip
        x0, y0 = int(rng.uniform(0, 0.6) * w), int(rng.uniform(0, 0.6) * h)
        x1 = int(x0 + rng.uniform(0.1, 1.0) * (w - x0))
        y1 = int(y0 + rng.uniform(0.1, 1.0) * (h - y0))
        img = img[y0 : max(y0 + 2, y1), x0 : max(x0 + 2, x1)]
    if rng.random() < 0.4:  # any turn, zoomed in or out
        M = cv2.getRotationMatrix2D((img.shape[1] / 2, img.shape[0] / 2), float(rng.uniform(0, 360)),
                                    float(rng.uniform(0.3, 1.6)))
        img = cv2.warpAffine(img, M, (img.shape[1], img.shape[0]),
                             borderValue=tuple(int(v) for v in rng.integers(0, 256, 3)))
    if rng.random() < 0.3:  # perspective: up to a quarter of the frame
        hh, ww = img.shape[:2]
        src = np.float32([[0, 0], [ww, 0], [ww, hh], [0, hh]])
        dst = src + rng.uniform(-0.25, 0.25, (4, 2)).astype(np.float32) * np.float32([ww, hh])
        img = cv2.warpPerspective(img, cv2.getPerspectiveTransform(src, dst), (ww, hh),
                                  borderMode=int(rng.choice([cv2.BORDER_CONSTANT, cv2.BORDER_REPLICATE])))
    if rng.random() < 0.35:  # scale, keeping the image at most ~2 MP
        f = float(rng.uniform(0.1, 1.8))
        f = min(f, (2.0e6 / max(1, img.shape[0] * img.shape[1])) ** 0.5)
        img = cv2.resize(img, (max(1, int(img.shape[1] * f)), max(1, int(img.shape[0] * f))),
                         interpolation=int(rng.choice([cv2.INTER_AREA, cv2.INTER_LINEAR, cv2.INTER_NEAREST])))
    if rng.random() < 0.25:
        img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.5, 12)))
    if rng.random() < 0.3:
        img = np.clip(img.astype(np.int16) + rng.normal(0, rng.uniform(3, 90), img.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.25:  # brightness / gamma
        g = float(rng.uniform(0.2, 4.0))
        lut = np.clip(((np.arange(256) / 255.0) ** g) * 255 * rng.uniform(0.2, 1.5), 0, 255).astype(np.uint8)
        img = cv2.LUT(img, lut)
    if rng.random() < 0.2:  # blank bands
        for _ in range(int(rng.integers(1, 4))):
            a = int(rng.uniform(0, img.shape[0]))
            img[a : a + int(rng.uniform(1, max(2, img.shape[0] / 2)))] = int(rng.integers(0, 256))
    if rng.random() < 0.1:  # channels swapped or one dropped
        img = img[..., rng.permutation(3)].copy()
        if rng.random() < 0.5:
            img[..., int(rng.integers(3))] = 0
    if rng.random() < 0.05:
        img = cv2.flip(img, int(rng.integers(-1, 2)))
    return np.ascontiguousarray(img)


def _png_chunk(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))


def lying_png(w: int, h: int) -> bytes:
    """A PNG whose header declares w×h pixels but whose data holds almost nothing (a pixel bomb or a lie)."""
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\x00" * 1000)
    return b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", ihdr) + _png_chunk(b"IDAT", idat) + _png_chunk(b"IEND", b"")


def format_case(rng: np.random.Generator) -> bytes:
    from PIL import Image

    img = mutate_photo(_base_image(rng), rng) if rng.random() < 0.5 else _base_image(rng)
    rgb = Image.fromarray(cv2.cvtColor(img, cv2.COLOR_BGR2RGB))
    buf = io.BytesIO()
    k = int(rng.integers(10))
    if k == 0:
        cv2_ok, b = cv2.imencode(".png", cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
        return b.tobytes()
    if k == 1:
        cv2_ok, b = cv2.imencode(".png", img.astype(np.uint16) * 257)
        return b.tobytes()
    if k == 2:
        bgra = cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)
        bgra[..., 3] = rng.integers(0, 256, bgra.shape[:2], dtype=np.uint8) if rng.random() < 0.5 else 0
        cv2_ok, b = cv2.imencode(".png", bgra)
        return b.tobytes()
    if k == 3:
        rgb.convert("P", palette=Image.Palette.ADAPTIVE, colors=int(rng.integers(2, 256))).save(buf, "PNG")
    elif k == 4:
        rgb.convert("1").save(buf, "PNG")
    elif k == 5:
        rgb.convert("L").save(buf, "JPEG", quality=int(rng.integers(10, 95)))
    elif k == 6:  # EXIF orientation, valid or not
        exif = Image.Exif()
        exif[0x0112] = int(rng.choice([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 65535]))
        rgb.save(buf, "JPEG", quality=80, exif=exif.tobytes())
    elif k == 7:
        rgb.save(buf, "BMP")
    elif k == 8:
        rgb.save(buf, "GIF")
    else:
        rgb.convert("CMYK").save(buf, "JPEG") if rng.random() < 0.5 else rgb.save(buf, "TIFF")
    return buf.getvalue()


def garbage_case(rng: np.random.Generator) -> bytes:
    k = int(rng.integers(12))
    if k == 0:
        return bytes(rng.integers(0, 256, int(rng.integers(0, 5000)), dtype=np.uint8))
    if k == 1:
        return b""
    if k == 2:
        return b"not a photo at all\n" * int(rng.integers(1, 100))
    if k == 3:  # tiny
        w, h = (int(v) for v in rng.integers(1, 320, 2))
        return _encode(rng.integers(0, 256, (h, w, 3), dtype=np.uint8), rng)
    if k == 4:  # large and flat (cheap to store, expensive to decode: must still be handled)
        w, h = int(rng.integers(3000, 6500)), int(rng.integers(3000, 6500))
        img = np.full((h, w, 3), int(rng.integers(0, 256)), np.uint8)
        ok, buf = cv2.imencode(".png" if rng.random() < 0.5 else ".jpg", img)
        return buf.tobytes()
    if k == 5:  # a header that lies: up to 120 MP declared
        return lying_png(int(rng.integers(1, 12000)), int(rng.integers(1, 12000)))
    w, h = int(rng.integers(300, 1300)), int(rng.integers(300, 1300))
    if k == 6:
        img = np.full((h, w, 3), rng.integers(0, 256, 3), np.uint8)
    elif k == 7:
        img = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    elif k == 8:  # stripes: a lattice of any period
        period = int(rng.integers(2, 200))
        img = np.full((h, w, 3), 255, np.uint8)
        img[:, :: period] = 0
        if rng.random() < 0.5:
            img[::period] = 0
    elif k == 9:  # checkerboard
        s = int(rng.integers(2, 120))
        yy, xx = np.mgrid[0:h, 0:w]
        img = ((((yy // s) + (xx // s)) % 2) * 255).astype(np.uint8)[..., None].repeat(3, axis=2)
    elif k == 10:  # a few random shapes, like a desk
        img = np.full((h, w, 3), rng.integers(0, 256, 3), np.uint8)
        for _ in range(int(rng.integers(1, 40))):
            p0 = tuple(int(v) for v in rng.integers(0, max(w, h), 2))
            p1 = tuple(int(v) for v in rng.integers(0, max(w, h), 2))
            cv2.rectangle(img, p0, p1, tuple(int(v) for v in rng.integers(0, 256, 3)), int(rng.integers(-1, 12)))
    else:  # a photo's worth of grid lines and nothing else
        img = np.full((h, w, 3), 240, np.uint8)
        n = int(rng.integers(2, 30))
        for t in np.linspace(0.1, 0.9, n):
            cv2.line(img, (int(t * w), 0), (int(t * w), h), (30, 30, 30), 2)
            cv2.line(img, (0, int(t * h)), (w, int(t * h)), (30, 30, 30), 2)
    return _encode(img, rng)


def damaged_case(rng: np.random.Generator) -> bytes:
    data = BASES[int(rng.integers(len(BASES)))] if rng.random() < 0.4 else _encode(
        mutate_photo(_base_image(rng), rng), rng)
    k = int(rng.integers(5))
    if k == 0:  # truncated anywhere
        return data[: int(rng.integers(0, len(data)))]
    if k == 1:  # bytes flipped
        b = bytearray(data)
        for _ in range(int(rng.integers(1, 60))):
            b[int(rng.integers(0, len(b)))] = int(rng.integers(0, 256))
        return bytes(b)
    if k == 2:  # garbage appended
        return data + bytes(rng.integers(0, 256, int(rng.integers(1, 5000)), dtype=np.uint8))
    if k == 3:  # two files glued
        return data[: len(data) // 2] + BASES[int(rng.integers(len(BASES)))]
    b = bytearray(data)  # a block zeroed in the middle
    a = int(rng.integers(0, len(b)))
    b[a : a + int(rng.integers(1, 20000))] = b"\x00" * len(b[a : a + 20000])
    return bytes(b[: len(data)])


def fuzz_case(seed: int, case: int) -> tuple[bytes, str | None, str]:
    """(photo bytes, side hint or None, what kind of case) for case number `case`."""
    rng = np.random.default_rng([seed, case])
    r = rng.random()
    if r < 0.7:
        kind, data = "photo", _encode(mutate_photo(_base_image(rng), rng), rng)
    elif r < 0.8:
        kind, data = "format", format_case(rng)
    elif r < 0.9:
        kind, data = "garbage", garbage_case(rng)
    else:
        kind, data = "damaged", damaged_case(rng)
    side = None if rng.random() < 0.8 else str(rng.choice(["A", "B", "a", " b "]))
    return data, side, kind


def run_case(args: tuple[int, int, float]) -> tuple[int, str, str, str, float]:
    """(case, kind, outcome, detail, seconds); outcome is "read", a PhotoError code, "slow" or "crash"."""
    from vision.errors import PhotoError
    from vision.messages import MESSAGES
    from vision.reading import read_sheet

    seed, case, timeout = args
    data, side, kind = fuzz_case(seed, case)
    t = time.perf_counter()
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        r = read_sheet(data, side=side)
        if len(r.grid) != 11 or any(len(row) != 11 for row in r.grid):
            return case, kind, "crash", "reading without an 11×11 grid", time.perf_counter() - t
        json.dumps(r.to_dict())  # the CLI's / web's JSON must serialise
        return case, kind, "read", "", time.perf_counter() - t
    except PhotoError as exc:
        if exc.code not in MESSAGES or not exc.message("tr"):
            return case, kind, "crash", f"PhotoError without a message: {exc.code}", time.perf_counter() - t
        return case, kind, exc.code, "", time.perf_counter() - t
    except _Slow:
        return case, kind, "slow", f"over {timeout:.0f} s", time.perf_counter() - t
    except Exception as exc:  # noqa: BLE001 - counting these is the point
        tb = traceback.extract_tb(exc.__traceback__)[-1]
        where = f"{os.path.relpath(tb.filename)}:{tb.lineno}"
        return case, kind, "crash", f"{type(exc).__name__}: {exc} at {where}", time.perf_counter() - t
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1000, help="number of fuzzed photos")
    ap.add_argument("--first", type=int, default=0, help="first case number")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds after which one case counts as slow")
    ap.add_argument("--case", type=int, help="run this one case in this process and print its outcome")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--log", help="append one JSON line per finished case to this file (a cut-short run keeps them)")
    args = ap.parse_args(argv)
    if args.case is not None:
        _init()
        print(run_case((args.seed, args.case, args.timeout)))
        return 0
    t0 = time.perf_counter()
    jobs = [(args.seed, c, args.timeout) for c in range(args.first, args.first + args.n)]
    outcomes: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    crashes, slow, slowest = [], [], (0.0, -1)
    log = open(args.log, "a", encoding="utf-8") if args.log else None  # noqa: SIM115 - closed below
    with mp.get_context("fork").Pool(args.procs, initializer=_init) as pool:
        for k, (case, kind, outcome, detail, secs) in enumerate(pool.imap_unordered(run_case, jobs, chunksize=4)):
            if log:
                log.write(json.dumps({"case": case, "kind": kind, "outcome": outcome, "detail": detail,
                                      "s": round(secs, 2)}) + "\n")
                log.flush()
            outcomes[outcome] += 1
            kinds[kind] += 1
            slowest = max(slowest, (secs, case))
            if outcome == "crash":
                crashes.append({"case": case, "kind": kind, "error": detail})
                print(f"CRASH case {case} ({kind}): {detail}", file=sys.stderr, flush=True)
            elif outcome == "slow":
                slow.append(case)
            if (k + 1) % 500 == 0 and not args.json:
                print(f"{k + 1} cases, {time.perf_counter() - t0:.0f} s, crashes {len(crashes)}", file=sys.stderr,
                      flush=True)
    if log:
        log.close()
    result = {"cases": args.n, "first": args.first, "seed": args.seed, "crashes": len(crashes),
              "crash_cases": crashes[:50], "slow_cases": slow[:50], "outcomes": dict(outcomes.most_common()),
              "kinds": dict(kinds), "slowest_case": {"case": slowest[1], "seconds": round(slowest[0], 1)},
              "seconds": round(time.perf_counter() - t0, 1), "procs": args.procs,
              "load_average": os.getloadavg()}
    print(json.dumps(result, indent=1))
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
