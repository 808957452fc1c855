"""Score the photo reader on photos from photogen2, the second independent generator, through its CLI only.

    python -m bench.bench_vision2 --split dev --n 6 [--kinds ours pad] [--difficulties normal]
                                  [--cmd "python -m companion.cli"] [--json] [--gen photogen3]

For every kind x difficulty it generates `--n` photos (styles round-robin, see `style_for`) into a temporary
folder, runs `CMD read PHOTO --json` on each (at most 2 at a time) and compares with the truth. `--split dev` uses seeds
from 0, `--split heldout` seeds from 1,000,000: report held-out figures, never tune against them.

Figures (drawable cells only: printed mountains and wastelands are excluded):
  found      sheets read (exit 0 with an 11x11 grid); a refusal is a non-zero exit with a JSON error
  cells      cells right over all photos (a refusal counts all its cells wrong) / over found sheets only
  exact      sheets with every drawable cell right
  silent     wrong cells with confidence >= 0.7: count, % of all cells read, % of the wrong cells
  review     right after review: every wrong cell has confidence < 0.7 and at most 10 cells are flagged
  orient     found sheets read the right way up: the reported cell centres lie on the truth's unturned (within
             half a cell, when they lie on it under some turn at all), else the grid matches the truth best unturned
  asked      found sheets with `orientation_unsure` (the review asks "Is this the top of your sheet?")
  o-silent   found sheets read turned WITHOUT `orientation_unsure`: every cell wrong with confidence
  fit        distance between the reader's cell_centers_px and the truth, in cells (max, p95), when reported
  coins      coin count right / photos where both the truth and the reader give one
  s/photo    median wall time of one read; crashes = non-zero exit without a JSON error, or a traceback
  taps       (unless --no-taps) taps per found photo. First, when the reading says `orientation_unsure`, the
             player answers "Which edge is the top?" with the truth's turn (from the true cell centres, as
             `orient` measures it; else the turn whose grid matches best) and the photo is re-read with
             `read PHOTO --turn K` (K = 0, "yes", too: the same grid, its cells no longer doubted for a way up
             nobody knew); that answer is one tap and the taps that follow keep `--turn K`. Then each unsure
             group (confidence < 0.7, not named yet) is named by the true terrain of its example cell (the
             review's "Which terrain is this?" shows that cell) with `read PHOTO --name G=terrain`, biggest
             group first and at most one tap per terrain (so a group of smudges named "empty" is one more),
             then the photo is re-read and the still unsure groups are tapped again (up to 3 rounds)
  after      cells right after those taps, over found sheets (the issue's "after at most one tap per terrain")
  o-ans      (unless --no-taps) found sheets whose "Which edge is the top?" the player answered (one of the taps)
  rev-ans    (unless --no-taps) right after review as the player meets it: on a sheet whose way up was asked,
             counted on the reading after the answer (read again with `--turn K`, K = 0 too), as the web
             review shows it; on the others the same as `review`
  rev-taps   (unless --no-taps) right after review as the issue's review runs it to the end: the way up answered
             and every unsure group named (the taps above, at most one per terrain), then the cells still
             flagged on the last reading are checked: every wrong cell flagged and at most 10 flagged. A cell of
             a group the player named which is another terrain stays wrong unless the reader doubts it: a silent
             error here too
  shown-taps (unless --no-taps) rev-taps with "flagged" meaning the cells the review highlights (the JSON's
             "doubtful" list: the cells under 0.7 and the least sure of the rest, `vision.review`) instead of
             the cells under 0.7; silent errors stay counted by confidence
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from bench.photogen2 import DIFFICULTIES, HELDOUT_START, KINDS, STYLES

# the same kinds, styles, difficulties and seed splits
GENERATORS = ("photogen2", "photogen3", "photogen4", "photogen5")
# The yardstick: no cell model is trained and no constant is fitted on its photos (bench/README.md, session 33),
# so the harvester (scripts/cellnet_data.py) refuses it; scripts/calibrate_cellnet.py has no option for it.
NEVER_TRAINED = ("photogen5",)


def generator(name: str):
    """The photo generator module `name` (bench.photogen2 … photogen5, each written apart from the others and from
    the reader; the cell models are trained on development seeds of photogen2-4, never on held-out ones)."""
    import importlib

    if name not in GENERATORS:
        raise ValueError(f"unknown generator {name!r}")
    return importlib.import_module(f"bench.{name}")

FIXED = {"mountain", "wasteland"}
DOUBT, REVIEW_MAX = 0.7, 10
TAP_ROUNDS = 3


def score(truth: dict, out: dict | None, rc: int, stderr: str, seconds: float) -> dict:
    """One photo's figures from the truth and the reader's JSON (None when it printed none)."""
    tg = truth["grid"]
    drawable = [(r, c) for r in range(11) for c in range(11) if tg[r][c] not in FIXED]
    rec = {"kind": truth["kind"], "style": truth["style"], "difficulty": truth["difficulty"],
           "seed": truth["seed"], "drawable": len(drawable), "found": False, "seconds": seconds,
           "crash": False, "ok": 0, "silent": 0, "flagged": 0}
    if "Traceback (most recent call last)" in stderr or (rc != 0 and not (isinstance(out, dict) and
                                                                         out.get("error"))):
        rec["crash"] = True
    grid = out.get("grid") if isinstance(out, dict) else None
    if rc != 0 or not _is_grid(grid):
        rec["refusal"] = (out or {}).get("code") or (out or {}).get("error") if isinstance(out, dict) else None
        return rec
    conf = out.get("confidence")
    ok = silent = flagged = 0
    highlighted = out.get("doubtful")
    check = ({tuple(rc) for rc in highlighted} if isinstance(highlighted, list) else None)
    shown = missed = 0
    for r, c in drawable:
        right = grid[r][c] == tg[r][c]
        try:
            sure = float(conf[r][c]) >= DOUBT
        except (TypeError, ValueError, IndexError, KeyError):
            sure = True
        ok += right
        flagged += not sure
        silent += (not right) and sure
        seen = (not sure) if check is None else (r, c) in check
        shown += seen
        missed += (not right) and not seen
    rec.update(found=True, ok=ok, silent=silent, flagged=flagged, shown=shown, missed=missed)
    g, t = np.array(grid, dtype=object), np.array(tg, dtype=object)
    matches = [int((np.rot90(g, k) == t).sum()) for k in range(4)]
    rec["orientation_right"] = matches[0] >= max(matches[1:])
    rec["grid_turn"] = int(np.argmax(matches))
    rec["orientation_unsure"] = bool(out.get("orientation_unsure", False))
    centres = out.get("cell_centers_px")
    try:
        cc = np.asarray(centres, dtype=float)
        if cc.shape == (11, 11, 2):
            tc = np.asarray(truth["params"]["geometry"]["cell_centers_px"], dtype=float)
            cell = truth["params"]["geometry"]["mean_cell_px"]
            d = np.linalg.norm(cc - tc, axis=-1) / cell
            rec["fit_cells"] = d.ravel().round(4).tolist()
            turns = [float(np.linalg.norm(np.rot90(cc, k, axes=(0, 1)) - tc, axis=-1).max() / cell) for k in range(4)]
            if min(turns) < 0.5:  # the centres say which way up the grid was read, whatever the cells say
                rec["turn"] = int(np.argmin(turns))
                rec["orientation_right"] = rec["turn"] == 0
    except (TypeError, ValueError, KeyError):
        pass
    if truth.get("coins") is not None and isinstance(out.get("coins"), int | float):
        rec["coins_right"] = int(out["coins"]) == truth["coins"]
        # a wrong count the reader flags ("check the coins") is seen; one it does not is a silent score error
        rec["coins_flagged"] = "coins_unsure" in (out.get("warning_codes") or [])
    return rec


def reviewed_right(rec: dict, shown: bool = False) -> bool:
    """Right after review: a found reading whose wrong cells are all flagged (confidence under 0.7), with at most
    `REVIEW_MAX` flagged; with `shown`, flagged means highlighted by the review (the JSON's "doubtful" cells, which
    add the least sure of the rest: `vision.review`)."""
    if shown:
        return bool(rec["found"]) and rec.get("missed", rec["silent"]) == 0 and \
            rec.get("shown", rec["flagged"]) <= REVIEW_MAX
    return bool(rec["found"]) and rec["silent"] == 0 and rec["flagged"] <= REVIEW_MAX


def _is_grid(grid) -> bool:
    return isinstance(grid, list) and len(grid) == 11 and all(isinstance(r, list) and len(r) == 11 for r in grid)


def summarise(recs: list[dict]) -> dict:
    found = [r for r in recs if r["found"]]
    tot_all = sum(r["drawable"] for r in recs)
    tot = sum(r["drawable"] for r in found)
    ok = sum(r["ok"] for r in found)
    silent = sum(r["silent"] for r in found)
    wrong = tot - ok
    fits = [d for r in found for d in r.get("fit_cells", [])]
    coins = [r["coins_right"] for r in found if "coins_right" in r]
    tapped = [r for r in found if "ok_after_taps" in r]
    return {
        "photos": len(recs),
        "found": len(found),
        "cells_right_pct": round(100 * ok / tot_all, 1) if tot_all else None,
        "cells_right_found_pct": round(100 * ok / tot, 1) if tot else None,
        "exact": sum(1 for r in found if r["ok"] == r["drawable"]),
        "silent": silent,
        "silent_pct_cells": round(100 * silent / tot, 1) if tot else None,
        "silent_pct_wrong": round(100 * silent / wrong, 1) if wrong else None,
        "review": sum(1 for r in found if reviewed_right(r)),
        "review_answered": (sum(1 for r in tapped if r.get("review_answered", reviewed_right(r)))
                            if tapped else None),
        "orientation_right": sum(1 for r in found if r.get("orientation_right")),
        "orientation_asked": sum(1 for r in found if r.get("orientation_unsure")),
        "orientation_silent": sum(1 for r in found if not r.get("orientation_right")
                                  and not r.get("orientation_unsure")),
        "fit_max_cells": round(max(fits), 3) if fits else None,
        "fit_p95_cells": round(float(np.percentile(fits, 95)), 3) if fits else None,
        "coins_right": sum(coins),
        "coins_both": len(coins),
        "sec_median": round(statistics.median(r["seconds"] for r in recs), 2) if recs else None,
        "crashes": sum(1 for r in recs if r["crash"]),
        "orientation_answers": (sum(1 for r in tapped if r.get("orientation_answer") is not None)
                                if tapped else None),
        "taps_per_photo": (round(statistics.mean(r["taps"] for r in tapped), 1) if tapped else None),
        "after_taps_pct": (round(100 * sum(r["ok_after_taps"] for r in tapped)
                                 / sum(r["drawable"] for r in tapped), 1) if tapped else None),
        "review_after_taps": (sum(1 for r in tapped if r.get("review_after_taps")) if tapped else None),
        "shown_after_taps": (sum(1 for r in tapped if r.get("shown_after_taps")) if tapped else None),
        "refusals": sorted({str(r.get("refusal")) for r in recs if not r["found"] and r.get("refusal")}),
    }


COLS = [("photos", 6), ("found", 6), ("cells", 12), ("exact", 6), ("silent", 16), ("review", 7),
        ("orient", 7), ("asked", 6), ("o-silent", 9), ("fit max/p95", 12), ("coins", 6), ("s/ph", 6), ("crash", 6),
        ("taps", 5), ("after", 6), ("o-ans", 6), ("rev-ans", 7), ("rev-taps", 8), ("shown-taps", 10)]


def fmt_row(name: str, s: dict) -> str:
    def pct(v):
        return "-" if v is None else f"{v:.1f}"
    vals = [
        str(s["photos"]), str(s["found"]),
        f"{pct(s['cells_right_pct'])}/{pct(s['cells_right_found_pct'])}",
        str(s["exact"]),
        f"{s['silent']} {pct(s['silent_pct_cells'])}%/{pct(s['silent_pct_wrong'])}%",
        str(s["review"]), f"{s['orientation_right']}/{s['found']}", str(s["orientation_asked"]),
        str(s["orientation_silent"]),
        "-" if s["fit_max_cells"] is None else f"{s['fit_max_cells']:.2f}/{s['fit_p95_cells']:.2f}",
        f"{s['coins_right']}/{s['coins_both']}", "-" if s["sec_median"] is None else f"{s['sec_median']:.1f}",
        str(s["crashes"]),
        "-" if s["taps_per_photo"] is None else f"{s['taps_per_photo']:.1f}", pct(s["after_taps_pct"]),
        "-" if s["orientation_answers"] is None else str(s["orientation_answers"]),
        "-" if s["review_answered"] is None else str(s["review_answered"]),
        "-" if s["review_after_taps"] is None else str(s["review_after_taps"]),
        "-" if s["shown_after_taps"] is None else str(s["shown_after_taps"]),
    ]
    return f"{name:22}" + "".join(f"{v:>{w + 1}}" for v, (_, w) in zip(vals, COLS, strict=True))


def header() -> str:
    return f"{'set':22}" + "".join(f"{c:>{w + 1}}" for c, w in COLS)


def _read(cmd: list[str], path: Path, extra: list[str], timeout: float) -> tuple[int, str, str, float]:
    t0 = time.perf_counter()
    try:
        cp = subprocess.run([*cmd, "read", str(path), "--json", *extra], capture_output=True, text=True,
                            timeout=timeout, stdin=subprocess.DEVNULL)
        rc, stdout, stderr = cp.returncode, cp.stdout, cp.stderr
    except subprocess.TimeoutExpired:
        rc, stdout, stderr = -1, "", "timeout"
    return rc, stdout, stderr, time.perf_counter() - t0


def _json(stdout: str) -> dict | None:
    try:
        out = json.loads(stdout)
    except ValueError:
        return None
    return out if isinstance(out, dict) else None


def tap_names(truth_grid: list[list[str]], groups: list[dict], tapped: set[str]) -> dict[int, str]:
    """The player's taps on one reading: the review shows each unsure group not named yet by its example cell
    ("Which terrain is this?") and the player answers with that cell's true terrain, biggest group first, at most
    one tap per terrain (`tapped` collects the terrains named so far); an example on a printed cell is skipped.
    Groups without an example cell in the JSON are answered with their cells' truth majority."""
    out: dict[int, str] = {}
    unsure = [g for g in groups if g.get("source") != "given" and float(g.get("confidence", 1.0)) < DOUBT]
    for g in sorted(unsure, key=lambda g: -len(g.get("cells", []))):
        example = g.get("example_cell")
        if isinstance(example, list | tuple) and len(example) == 2:
            best = truth_grid[int(example[0])][int(example[1])]
            if best in FIXED:
                continue
        else:
            votes: dict[str, int] = {}
            for r, c in g.get("cells", []):
                t = truth_grid[r][c]
                if t not in FIXED:
                    votes[t] = votes.get(t, 0) + 1
            if not votes:
                continue
            best = max(votes, key=votes.get)
        if best in tapped:
            continue
        out[int(g["id"])] = best
        tapped.add(best)
    return out


def right_cells(truth_grid: list[list[str]], grid) -> int:
    if not _is_grid(grid):
        return 0
    return sum(grid[r][c] == truth_grid[r][c] for r in range(11) for c in range(11)
               if truth_grid[r][c] not in FIXED)


def truth_quarter_turns(rec: dict) -> int:
    """The player's answer to "Which edge is the top?": quarter turns clockwise that put the reading on the truth.

    `score` found the reading upright after np.rot90(…, turn) (counterclockwise); clockwise that is -turn.
    """
    turn = rec.get("turn", rec.get("grid_turn", 0))
    return (-int(turn)) % 4


def run_one(cmd: list[str], folder: Path, job: tuple[str, str, str, int], index: int, timeout: float,
            pass_side: bool, taps: bool = True, gen: str = "photogen2") -> dict:
    kind, style, diff, seed = job
    photo = generator(gen).generate(kind, style, diff, seed)
    path = folder / f"{index:04d}.jpg"
    path.write_bytes(photo.jpeg)
    path.with_suffix(".json").write_text(json.dumps(photo.truth))
    extra = ["--side", photo.truth["side"]] if pass_side else []
    rc, stdout, stderr, seconds = _read(cmd, path, extra, timeout)
    out = _json(stdout)
    rec = score(photo.truth, out, rc, stderr, seconds)
    rec["photo"] = path.name
    if rec["crash"]:
        rec["stderr_tail"] = stderr.strip()[-400:]
    if stderr == "timeout":
        rec["crash"] = True
        rec["refusal"] = "timeout"
    if taps and rec["found"] and out is not None:
        tg = photo.truth["grid"]
        names: dict[int, str] = {}
        tapped: set[str] = set()
        current = out
        asked = 0
        if out.get("orientation_unsure"):  # asked first, before anything else, as the review does
            k = truth_quarter_turns(rec)
            rec["orientation_answer"] = k
            asked = 1
            # the answer re-reads the photo with its way up known (the web review does so for "yes" too: the
            # cells' doubt of a way up nobody knew goes); the review's figures are those of that reading
            rc2, stdout2, _err, _s = _read(cmd, path, [*extra, "--turn", str(k)], timeout)
            nxt = _json(stdout2)
            if rc2 == 0 and nxt is not None and _is_grid(nxt.get("grid")):
                current = nxt
                extra = [*extra, "--turn", str(k)]
                answered = score(photo.truth, nxt, rc2, "", 0.0)
                rec["review_answered"] = reviewed_right(answered)
        for _round in range(TAP_ROUNDS):
            new = tap_names(tg, current.get("groups") or [], tapped)
            if not new:
                break
            names.update(new)
            rc2, stdout2, _err, _s = _read(cmd, path, [*extra, "--name", *(f"{g}={t}" for g, t in names.items())],
                                          timeout)
            nxt = _json(stdout2)
            if rc2 != 0 or nxt is None or not _is_grid(nxt.get("grid")):
                break
            current = nxt
        rec["taps"] = len(names) + asked
        rec["ok_after_taps"] = right_cells(tg, current.get("grid"))
        last = score(photo.truth, current, 0, "", 0.0)
        rec["review_after_taps"] = reviewed_right(last)
        rec["shown_after_taps"] = reviewed_right(last, shown=True)
        # what the review ends on, for the reasons a sheet is not right after review
        rec["after_taps"] = {"silent": last.get("silent", 0), "flagged": last.get("flagged", 0),
                             "shown": last.get("shown", 0), "missed": last.get("missed", 0),
                             "warnings": list(current.get("warning_codes") or []),
                             "args": [*extra, *(["--name", *(f"{g}={t}" for g, t in names.items())] if names else [])]}
    return rec


def style_for(styles: list[str], kind: str, difficulty: str, i: int) -> str:
    """Styles round-robin, started at a different style per kind and difficulty so small sets still use all."""
    return styles[(i + 3 * KINDS.index(kind) + 5 * DIFFICULTIES.index(difficulty)) % len(styles)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.bench_vision2", description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", choices=["dev", "heldout"], default="dev")
    ap.add_argument("--n", type=int, default=20, help="photos per kind x difficulty")
    ap.add_argument("--start", type=int, default=0, help="first seed within the split (fresh dev photos)")
    ap.add_argument("--kinds", nargs="+", default=None, choices=KINDS)
    ap.add_argument("--difficulties", nargs="+", default=list(DIFFICULTIES), choices=DIFFICULTIES)
    ap.add_argument("--styles", nargs="+", default=list(STYLES), choices=STYLES)
    ap.add_argument("--cmd", default=f"{shlex.quote(sys.executable)} -m companion.cli")
    ap.add_argument("--jobs", type=int, default=2, choices=[1, 2])
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--pass-side", action="store_true", help="also pass --side (off: the bare contract)")
    ap.add_argument("--keep", type=Path, help="keep the photos, truths and per-photo records here")
    ap.add_argument("--json", action="store_true", help="print the table as JSON")
    ap.add_argument("--no-taps", action="store_true", help="skip the re-reads with unsure groups named")
    ap.add_argument("--gen", choices=GENERATORS, default="photogen2", help="the photo generator")
    args = ap.parse_args(argv)
    kinds = list(args.kinds or KINDS)
    scans = generator(args.gen).sheets
    if "padscan" in kinds and not scans.scans_available():
        print("padscan skipped: no pad scans (set MAPSMITH_PAD_SCANS)", file=sys.stderr)
        kinds.remove("padscan")
    base = (0 if args.split == "dev" else HELDOUT_START) + args.start
    jobs = [(k, style_for(args.styles, k, d, args.start + i), d, base + i)
            for k in kinds for d in args.difficulties for i in range(args.n)]
    cmd = shlex.split(args.cmd)
    with tempfile.TemporaryDirectory(prefix="bench_vision2_") as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        with ThreadPoolExecutor(args.jobs) as pool:
            recs = list(pool.map(lambda ij: run_one(cmd, folder, ij[1], ij[0], args.timeout, args.pass_side,
                                                        not args.no_taps, args.gen),
                                 enumerate(jobs)))
        if args.keep:
            (folder / "records.json").write_text(json.dumps(recs, indent=1))
    groups = {f"{k} {d}": summarise([r for r in recs if r["kind"] == k and r["difficulty"] == d])
              for k in kinds for d in args.difficulties}
    styles = {s: summarise([r for r in recs if r["style"] == s]) for s in args.styles
              if any(r["style"] == s for r in recs)}
    total = summarise(recs)
    if args.json:
        print(json.dumps({"gen": args.gen, "split": args.split, "n": args.n, "cmd": args.cmd, "groups": groups,
                          "styles": styles, "all": total}, indent=1))
        return 0
    print(f"{args.gen} {args.split} split, n={args.n} per kind x difficulty, reader: {args.cmd}")
    print(header())
    for name, s in groups.items():
        print(fmt_row(name, s))
    print("by style:")
    for name, s in styles.items():
        print(fmt_row(name, s))
    print(fmt_row("all", total))
    refusals = total["refusals"]
    if refusals:
        print("refusal codes:", ", ".join(refusals))
    for r in recs:
        if r["crash"]:
            last = (r.get("stderr_tail") or "(no stderr)").splitlines()[-1]
            print(f"crash: {r['kind']} {r['style']} {r['difficulty']} seed {r['seed']}: {last}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
