"""Printing speed: a 100-sheet map PDF (each page its own QR id), plus the score sheet and Knarr pad.

Run: python -m bench.bench_print [--copies 100] [--repeats 3]

Times the whole `map_sheet_pdf()` call (id generation, QR encoding, drawing,
compression) in a warm process, which is what the web app and the CLI pay; the
first call in a fresh process also parses the two TTF fonts and imports OpenCV
(reported separately as "cold").
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time


def _timed(func, repeats: int) -> tuple[list[float], bytes]:
    runs, out = [], b""
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = func()
        runs.append(time.perf_counter() - t0)
    return runs, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--copies", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--side", default="A")
    parser.add_argument("--paper", default="a4")
    parser.add_argument("--lang", default="tr")
    args = parser.parse_args()

    cold_code = (
        "import time; t=time.perf_counter(); from printables import map_sheet_pdf; "
        f"map_sheet_pdf({args.side!r}, {args.paper!r}, {args.lang!r}, copies=1); "
        "print(time.perf_counter()-t)"
    )
    cold = float(subprocess.run([sys.executable, "-c", cold_code], capture_output=True, text=True,
                                check=True).stdout)

    from printables import knarr_pad_pdf, map_sheet_pdf, scores_pdf
    from printables.raster import page_count

    map_sheet_pdf(args.side, args.paper, args.lang)  # warm: fonts registered, OpenCV imported
    runs, pdf = _timed(lambda: map_sheet_pdf(args.side, args.paper, args.lang, copies=args.copies), args.repeats)
    assert page_count(pdf) == args.copies
    one_runs, one = _timed(lambda: map_sheet_pdf(args.side, args.paper, args.lang), args.repeats)
    s_runs, s_pdf = _timed(lambda: scores_pdf(6, args.paper, args.lang), args.repeats)
    k_runs, k_pdf = _timed(lambda: knarr_pad_pdf(4, args.paper, args.lang), args.repeats)

    best, median = min(runs), statistics.median(runs)
    print(f"map sheets: {args.copies} copies, side {args.side}, {args.paper}, lang {args.lang}, "
          f"{args.repeats} runs")
    print(f"  time: {best:.2f} s best, {median:.2f} s median ({best / args.copies * 1000:.1f} ms per sheet)")
    print(f"  size: {len(pdf) / 1024:.0f} KiB ({len(pdf) / args.copies / 1024:.2f} KiB per sheet)")
    print(f"  single sheet: {min(one_runs) * 1000:.0f} ms warm, {cold * 1000:.0f} ms cold (fresh process), "
          f"{len(one) / 1024:.0f} KiB")
    print(f"score sheet (6 players): {min(s_runs) * 1000:.0f} ms, {len(s_pdf) / 1024:.0f} KiB")
    print(f"knarr pad (4 players): {min(k_runs) * 1000:.0f} ms, {len(k_pdf) / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
