"""photogen4: synthetic phone photos of Cartographers map sheets, written independently of the photo reader.

`generate(kind, style, difficulty, seed)` -> Photo(jpeg, truth). Modules: `sheets` (the printed/ruled sheet of each
kind, plan in mm + painter), `mapfill` (a game-like map), `marks` (the player's pens and symbols), `camera` (pose,
curl, lens, light, optics, processing, JPEG), `util` (noise, ink).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import sheets  # noqa: F401 - the benchmarks ask `sheets.scans_available()`
from .camera import render_photo, sample_camera
from .mapfill import fill_map
from .marks import draw_sheet
from .sheets import PAINTERS, N, ScansMissing
from .util import stable_hash

KINDS = ("ours", "ours-clipped", "generic", "handruled", "squared", "pad", "padscan")
STYLES = ("pencil", "marker", "crayon", "felttip", "watercolour", "ballpoint", "graphite", "letters", "mixed")
DIFFICULTIES = ("normal", "hard")
DEV_SEEDS = range(0, 100_000)
HELDOUT_START = 1_000_000
GENERATOR = "photogen4"
MAX_SHEET_PX = 9.0e6

__all__ = ["KINDS", "STYLES", "DIFFICULTIES", "DEV_SEEDS", "HELDOUT_START", "GENERATOR", "Photo", "generate",
           "ScansMissing"]


@dataclass
class Photo:
    jpeg: bytes
    truth: dict


def _check(kind, style, difficulty):
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r} (expected one of {KINDS})")
    if style not in STYLES:
        raise ValueError(f"unknown style {style!r} (expected one of {STYLES})")
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r} (expected one of {DIFFICULTIES})")


def generate(kind: str, style: str, difficulty: str, seed: int) -> Photo:
    _check(kind, style, difficulty)
    seed = int(seed)
    ss = np.random.SeedSequence([seed & 0xFFFFFFFF, seed >> 32, stable_hash(kind), stable_hash(style),
                                 stable_hash(difficulty), stable_hash(GENERATOR)])
    r_side, r_plan, r_cam, r_map, r_paint, r_draw, r_photo = (np.random.default_rng(s) for s in ss.spawn(7))
    side = "A" if r_side.random() < 0.5 else "B"
    plan_fn, render_fn = PAINTERS[kind]
    plan = plan_fn(kind, side, r_plan)
    cam = sample_camera(plan, difficulty, r_cam, clipped=kind == "ours-clipped")
    # render the sheet at about the photo's own resolution where it is nearest
    pw, ph = plan.page_mm
    centre = plan.lattice[N // 2, N // 2]
    scales = [cam.local_scale(p) for p in (centre, plan.lattice[0, 0], plan.lattice[0, N], plan.lattice[N, N],
                                           plan.lattice[N, 0])]
    k = max(scales) * 1.05
    k = float(min(k, np.sqrt(MAX_SHEET_PX / (pw * ph)), 16.0))
    k = max(k, 3.0)
    grid, shapes, map_params = fill_map(side, r_map)
    img, g = render_fn(plan, k, r_paint)
    drawn = draw_sheet(img, g, plan, k, shapes, style, r_draw)
    np.clip(img, 0, 1, out=img)
    jpeg, photo_params = render_photo(img, k, cam, difficulty, r_photo)
    del img, g
    centers_mm = (plan.lattice[:-1, :-1] + plan.lattice[:-1, 1:] + plan.lattice[1:, 1:] + plan.lattice[1:, :-1]) / 4
    centers = cam.page_to_photo(centers_mm.reshape(-1, 2)).reshape(N, N, 2)
    L = plan.lattice
    gc = cam.page_to_photo(np.array([L[0, 0], L[0, N], L[N, N], L[N, 0]]))
    pc = cam.page_to_photo(np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], float))
    lat_px = cam.page_to_photo(L.reshape(-1, 2)).reshape(N + 1, N + 1, 2)
    sides = np.concatenate([np.linalg.norm(np.diff(lat_px, axis=1), axis=-1).ravel(),
                            np.linalg.norm(np.diff(lat_px, axis=0), axis=-1).ravel()])
    truth = {
        "grid": grid, "side": side, "kind": kind, "style": style, "difficulty": difficulty, "seed": seed,
        "generator": GENERATOR, "coins": drawn.pop("coins"), "legend_filled": bool(drawn.pop("legend_filled")),
        "markers_clipped": list(cam.params["markers_clipped"]) if kind == "ours-clipped" else [],
        "params": {
            "geometry": {
                "grid_corners_px": _r(gc), "page_corners_px": _r(pc), "cell_centers_px": _r(centers),
                "mean_cell_px": round(float(sides.mean()), 3),
                "lattice_px": _r(lat_px),
            },
            "photo": {**cam.params, **photo_params, "sheet_px_per_mm": round(k, 3)},
            "sheet": {"page_mm": [round(pw, 2), round(ph, 2)], **_clean(plan.params), "map": map_params,
                      "shapes": [[t, [list(rc) for rc in cells]] for t, cells in shapes], **_clean(drawn)},
        },
    }
    return Photo(jpeg, truth)


def _r(a) -> list:
    return np.round(np.asarray(a, float), 3).tolist()


def _clean(d):
    if isinstance(d, dict):
        return {str(k): _clean(v) for k, v in d.items()}
    if isinstance(d, (list, tuple)):
        return [_clean(v) for v in d]
    if isinstance(d, np.generic):
        return d.item()
    if isinstance(d, float):
        return round(d, 4)
    return d


def decode(jpeg: bytes) -> np.ndarray:
    """BGR image of a photo's JPEG (helper for tests and tools)."""
    return cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
