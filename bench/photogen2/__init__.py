"""photogen2: a second, independent synthetic phone-photo generator for Cartographers map sheets.

It shares no code with `bench/synthphoto.py` or `vision/`: sheets are built here (our own sheet comes from the
real PDF via `printables`, rasterised with pypdfium2), players are modelled here, and the camera is a pinhole
over a curled sheet on a table. Each photo `NNNN.jpg` gets a truth `NNNN.json` in the vision-devset format.

Seeds and splits. Photo i of a set is fully determined by (kind, style, difficulty, seed): `generate()` derives
every random stream from exactly those four values, so any photo can be remade from its truth file alone.
  * development seeds: 0 .. 99,999 — look at these, debug with them, tune against them if you must;
  * held-out seeds: >= 1,000,000 — only for reporting; never tune a constant against them.
`bench.bench_vision2 --split dev` uses seeds from 0, `--split heldout` seeds from 1,000,000.

Kinds: ours, ours-clipped, generic, handruled, squared, pad, padscan (the real pad scans; only when they exist
locally in $MAPSMITH_PAD_SCANS, default bench/pad-scans/, which is gitignored).
Styles: pencil, marker, crayon, felttip, watercolour, ballpoint, graphite, letters, mixed.
Difficulties: normal, hard.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import numpy as np

from . import camera, drawing, sheets, truth

KINDS = ("ours", "ours-clipped", "generic", "handruled", "squared", "pad", "padscan")
STYLES = drawing.STYLES
DIFFICULTIES = ("normal", "hard")
DEV_SEEDS = range(0, 100_000)
HELDOUT_START = 1_000_000


class ScansMissing(RuntimeError):
    """The `padscan` kind was asked for but the real pad scans are not on this machine."""


@dataclass
class Photo:
    jpeg: bytes
    truth: dict

    @property
    def size(self) -> tuple[int, int]:
        return tuple(self.truth["params"]["photo"]["size"])


def _streams(kind: str, style: str, difficulty: str, seed: int) -> list[np.random.Generator]:
    key = zlib.crc32(f"photogen2|{kind}|{style}|{difficulty}".encode())
    ss = np.random.SeedSequence([key, int(seed)])
    return [np.random.default_rng(s) for s in ss.spawn(4)]


def generate(kind: str, style: str, difficulty: str, seed: int, *, small: bool = False) -> Photo:
    """Make one photo and its truth. `small` = a 640-pixel photo (tests); otherwise 1600..4000 pixels."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r} (expected one of {', '.join(KINDS)})")
    if style not in STYLES:
        raise ValueError(f"unknown style {style!r} (expected one of {', '.join(STYLES)})")
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r} (expected normal or hard)")
    if kind == "padscan" and not sheets.scans_available():
        raise ScansMissing(f"kind 'padscan' needs the pad scans in {sheets.scan_dir()} "
                           f"({', '.join(sheets.SCAN_FILES.values())}); set MAPSMITH_PAD_SCANS")
    r_map, r_sheet, r_draw, r_cam = _streams(kind, style, difficulty, seed)
    side = "A" if r_map.random() < 0.5 else "B"
    full = bool(r_map.random() < 0.5)
    grid = truth.make_map(r_map, side, full)

    p = camera.sample_params(r_cam, difficulty, kind, small)
    w, h = p["size"]
    aspect = sheets.ASPECT[kind]
    long_px = int(np.clip(max(w, h) * p["coverage"] * 1.3 * (1.0 if kind != "ours-clipped" else 1.5), 480, 4400))
    sheet = sheets.build(kind, r_sheet, side, long_px)

    player = drawing.make_player(r_draw, style, difficulty)
    legend_filled = bool(sheet.legend) and bool(r_draw.random() < 0.6)
    coins = int(r_draw.integers(0, 15) if full else r_draw.integers(0, 6)) if sheet.coins else None
    drawn = drawing.draw_sheet(r_draw, sheet, grid, player, legend=legend_filled, coins=coins or 0)

    cam = camera.Camera(p, sheet.size)
    clipped = cam.frame(r_cam, sheet)
    mm_px = sheet.size[1] / (297.0 if aspect < 1.44 else 300.0)
    img = camera.shoot(r_cam, cam, sheet, mm_px)
    jpeg = camera.encode_jpeg(img, p["jpeg_quality"])

    geometry = _geometry(cam, sheet)
    photo = {**p, "distance_px": round(cam.dist, 1), "principal_shift": [round(cam.dx, 2), round(cam.dy, 2)],
             "focal_px": round(cam.f, 2)}
    info = {"kind": kind, "full": full, "sheet_px": list(sheet.size), "drawing": drawn, **sheet.params}
    t = truth.truth_record(kind=kind, style=style, difficulty=difficulty, seed=int(seed), side=side,
                           template=sheet.template, grid=grid, legend_filled=legend_filled, coins=coins,
                           markers_clipped=clipped, geometry=geometry, photo=photo, sheet=info)
    return Photo(jpeg, t)


def _r(a) -> list:
    return np.round(np.asarray(a, float), 2).tolist()


def _geometry(cam: camera.Camera, sheet: sheets.Sheet) -> dict:
    n = sheet.nodes
    centres = (n[:-1, :-1] + n[:-1, 1:] + n[1:, 1:] + n[1:, :-1]) / 4
    cc = cam.project(centres)
    steps = np.concatenate([np.linalg.norm(np.diff(cc, axis=0), axis=-1).ravel(),
                            np.linalg.norm(np.diff(cc, axis=1), axis=-1).ravel()])
    geo = {
        "grid_corners_px": _r(cam.project(sheet.grid_corners)),
        "page_corners_px": _r(cam.project(sheet.page_corners)),
        "cell_centers_px": _r(cc),
        "mean_cell_px": round(float(steps.mean()), 2),
    }
    if sheet.legend:
        geo["legend_centers_px"] = _r(cam.project(np.array([q.mean(0) for _, q in sheet.legend])))
        geo["legend_terrains"] = [t for t, _ in sheet.legend]
    if sheet.markers:
        geo["marker_corners_px"] = {k: _r(cam.project(q)) for k, q in sheet.markers.items()}
    if sheet.coins:
        geo["coin_centers_px"] = _r(cam.project(np.array([(x, y) for x, y, _ in sheet.coins])))
    return geo
