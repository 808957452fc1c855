"""Score the reader against confirmed grids: the benchmark's table for `mapsmith vision-eval` and bench/.

A case is a photo with its confirmed grid: a folder of `NAME.jpg` (or .png/.webp/.heic) beside `NAME.json`
holding at least `{"grid": [11 rows of 11 terrain words]}` (and optionally "side") — the format of the
photos a player chose to keep from the review screen and of the independent vision development set.

Counting (the same rules as the development set's scorer): only drawable cells count (printed mountains and
wastelands are always known); a refused photo counts as not found. A **silent error** is a wrong cell with
confidence ≥ 0.7 (its confidence does not flag it); a photo is **right after review** when it has no silent error
and at most 10 flagged cells; **shown** counts the same with the cells the review highlights (the reading's
`doubtful_cells()`: those under 0.7 and the least sure of the rest, `vision.review`) in place of the flagged
ones. **After taps** re-reads each photo once with the true terrain given for the biggest unsure group of each
terrain, then again for terrains still unsure (what one tap per terrain on the review screen does).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from companion.cartographers.data import GRID_SIZE

FIXED = {"mountain", "wasteland"}
DOUBT, REVIEW_MAX = 0.7, 10
TAP_ROUNDS = 3
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".heic")


@dataclass
class Case:
    name: str
    photo: bytes | str
    grid: list[list[str]]
    side: str | None = None


@dataclass
class PhotoScore:
    name: str
    found: bool
    drawable: int
    right: int = 0
    silent: int = 0
    flagged: int = 0
    missed: int = 0  # wrong cells the review does not highlight (its "doubtful" list: `vision.review`)
    shown: int = 0  # cells the review highlights
    error: str | None = None
    conf: list[float] = field(default_factory=list)
    ok: list[bool] = field(default_factory=list)
    taps: int = 0
    right_after_taps: int | None = None


def cases_in(folder: str | Path) -> Iterator[Case]:
    """Every photo in `folder` (recursively) that has a grid JSON beside it."""
    for p in sorted(Path(folder).rglob("*")):
        if p.suffix.lower() not in PHOTO_SUFFIXES:
            continue
        j = p.with_suffix(".json")
        if not j.exists():
            continue
        try:
            truth = json.loads(j.read_text())
        except ValueError:
            continue
        grid = truth.get("grid")
        if not (isinstance(grid, list) and len(grid) == GRID_SIZE):
            continue
        yield Case(str(p.relative_to(folder)), str(p), grid, truth.get("side"))


def score_reading(case: Case, reading) -> PhotoScore:
    drawable = [(r, c) for r in range(GRID_SIZE) for c in range(GRID_SIZE) if case.grid[r][c] not in FIXED]
    s = PhotoScore(case.name, True, len(drawable))
    highlighted = set(reading.doubtful_cells())
    for r, c in drawable:
        right = reading.grid[r][c] == case.grid[r][c]
        conf = float(reading.confidence[r][c])
        s.right += right
        s.flagged += conf < DOUBT
        s.silent += (not right) and conf >= DOUBT
        s.shown += (r, c) in highlighted
        s.missed += (not right) and (r, c) not in highlighted
        s.conf.append(conf)
        s.ok.append(right)
    return s


def tap_names(case: Case, reading, tapped: set[str] | None = None) -> dict[int, str]:
    """What a player taps: for each terrain not tapped yet, the biggest unsure group showing it gets the true
    terrain of its example cell (so at most one tap per terrain, plus one for a group of smudges)."""
    tapped = tapped if tapped is not None else set()
    out: dict[int, str] = {}
    for g in sorted(reading.unsure_groups(), key=lambda g: -len(g.cells)):
        truth = case.grid[g.example_cell[0]][g.example_cell[1]]
        if truth in FIXED or truth in tapped:
            continue
        out[g.id] = truth
        tapped.add(truth)
    return out


def evaluate(cases: Iterable[Case], read: Callable | None = None, taps: bool = True) -> list[PhotoScore]:
    from vision.errors import PhotoError
    from vision.reading import read_sheet

    read = read or (lambda photo, side, names=None: read_sheet(photo, side, overlay=False, names=names))
    out = []
    for case in cases:
        drawable = sum(t not in FIXED for row in case.grid for t in row)
        try:
            reading = read(case.photo, case.side)
        except PhotoError as exc:
            out.append(PhotoScore(case.name, False, drawable, error=exc.code))
            continue
        s = score_reading(case, reading)
        if taps:  # tap, look at the new reading, tap again for terrains not named yet (≤ 1 tap per terrain)
            tapped: set[str] = set()
            names: dict[int, str] = {}
            current = reading
            for _round in range(TAP_ROUNDS):
                new = tap_names(case, current, tapped)
                if not new:
                    break
                names.update(new)
                current = read(case.photo, case.side, names=dict(names))
            s.taps = len(names)
            s.right_after_taps = score_reading(case, current).right
        out.append(s)
    return out


def summary(scores: list[PhotoScore]) -> dict:
    found = [s for s in scores if s.found]
    cells = sum(s.drawable for s in found)
    right = sum(s.right for s in found)
    wrong = cells - right
    silent = sum(s.silent for s in found)
    from vision.calibrate import expected_calibration_error, reliability

    conf = np.concatenate([s.conf for s in found]) if found else np.zeros(0)
    ok = np.concatenate([s.ok for s in found]) if found else np.zeros(0, bool)
    after = [s for s in found if s.right_after_taps is not None]
    return {
        "photos": len(scores),
        "found": len(found),
        "cells": cells,
        "cell_accuracy": right / cells if cells else None,
        "exact": sum(s.right == s.drawable for s in found),
        "silent": silent,
        "wrong": wrong,
        "silent_share_of_cells": silent / cells if cells else None,
        "silent_share_of_wrong": silent / wrong if wrong else 0.0,
        "right_after_review": sum(s.silent == 0 and s.flagged <= REVIEW_MAX for s in found),
        "right_after_review_shown": sum(s.missed == 0 and s.shown <= REVIEW_MAX for s in found),
        "flagged_per_photo": float(np.mean([s.flagged for s in found])) if found else None,
        "taps_per_photo": float(np.mean([s.taps for s in after])) if after else None,
        "accuracy_after_taps": (sum(s.right_after_taps for s in after) / sum(s.drawable for s in after)
                                if after else None),
        "reliability": reliability(conf, ok) if len(conf) else [],
        "calibration_error": expected_calibration_error(conf, ok) if len(conf) else None,
        "errors": sorted({s.error for s in scores if s.error}),
    }


def table(rows: list[tuple[str, dict]]) -> str:
    """The benchmark's table: one row per set, then the reliability table of each."""
    head = (f"{'set':28}{'photos':>7}{'found':>7}{'cells':>9}{'exact':>7}{'silent/wrong':>14}{'silent %':>10}"
            f"{'review':>8}{'shown':>7}{'taps':>6}{'after taps':>11}")
    lines = [head]
    for name, s in rows:
        acc = f"{100 * s['cell_accuracy']:.1f}%" if s["cell_accuracy"] is not None else "n/a"
        sil = f"{100 * s['silent_share_of_cells']:.2f}%" if s["silent_share_of_cells"] is not None else "n/a"
        taps = f"{s['taps_per_photo']:.1f}" if s["taps_per_photo"] is not None else "-"
        after = f"{100 * s['accuracy_after_taps']:.1f}%" if s["accuracy_after_taps"] is not None else "-"
        lines.append(f"{name[:28]:28}{s['photos']:>7}{s['found']:>7}{acc:>9}{s['exact']:>7}"
                     f"{str(s['silent']) + '/' + str(s['wrong']):>14}{sil:>10}{s['right_after_review']:>8}"
                     f"{s['right_after_review_shown']:>7}{taps:>6}{after:>11}")
    for name, s in rows:
        if not s["reliability"]:
            continue
        ece = f" (calibration error {s['calibration_error']:.3f})" if s.get("calibration_error") is not None else ""
        lines.append(f"reliability, {name}: confidence bin → cells, share right{ece}")
        for b in s["reliability"]:
            share = f"{100 * b['share_right']:.1f}%" if b["share_right"] is not None else "-"
            lines.append(f"  [{b['lo']:.2f}, {b['hi']:.2f})  {b['cells']:>6}  {share:>7}")
    return "\n".join(lines)


def synthetic_cases(kind: str, n: int, first_seed: int) -> Iterator[Case]:
    """Cases from bench/synthphoto.py (only in a source checkout): kind = a style, "blank-legend", "unmarked",
    "<style>-blank" or "<design>-<style>" (design generic / handruled / squared / notebook)."""
    try:
        from bench.synthphoto import PhotoSpec, make_photo
    except ImportError as exc:  # an installed package has no bench/
        raise ValueError("synthetic sets need a source checkout (bench/synthphoto.py)") from exc
    from bench.synthphoto import EXTRA_STYLES, STYLES

    specs = {
        "colour": lambda k: PhotoSpec(style=("pencil", "marker")[k % 2]),
        "blank-legend": lambda k: PhotoSpec(style=("pencil", "marker", "graphite")[k % 3], legend=False),
        "unmarked": lambda k: PhotoSpec(style=("pencil", "marker")[k % 2], marked=False),
        "hard": lambda k: PhotoSpec(style=("pencil", "marker", "graphite")[k % 3], megapixels=1.5 + (k % 4) * 0.5,
                                    blur=0.8 + (k % 5) * 0.25, curl=0.01, fill=(0.6, 0.8)),
    }
    for style in STYLES + EXTRA_STYLES:  # "<style>" with the legend drawn in, "<style>-blank" without
        specs[style] = lambda k, st=style: PhotoSpec(style=st)
        specs[f"{style}-blank"] = lambda k, st=style: PhotoSpec(style=st, legend=False)
        for design in ("generic", "handruled", "squared", "notebook"):  # home-made and unmarked sheets: no legend
            specs[f"{design}-{style}"] = lambda k, st=style, d=design: PhotoSpec(style=st, design=d)
    if kind not in specs:
        raise ValueError(f"unknown synthetic set {kind!r}: use one of {', '.join(specs)}")
    for k in range(n):
        p = make_photo(first_seed + k, specs[kind](k))
        yield Case(f"{kind}#{first_seed + k}", p.data, p.grid, None)
