"""photogen3: synthetic phone photos of Cartographers map sheets, with exact truth.

    from bench.photogen3 import generate
    photo = generate("handruled", "pencil", "normal", 42)
    photo.jpeg   # bytes of the JPEG
    photo.truth  # dict: grid, side, geometry of the grid in the photo, every sampled parameter

A photo depends only on (kind, style, difficulty, seed) (and `small`, which only shrinks it). Written on its own,
without looking at the project's reader or its other generators: players, paper and phones are modelled here.

How a photo is made (one module per step):
  mapfill  the game: explore/ambush shapes placed in every rotation, preferring to touch the same terrain, until an
           early (15-65 %), late or finished map; monsters 5-15 % of the drawn cells.
  sheets   the blank sheet, designed in millimetres (a 12x12 lattice of cell corners, so hand-ruled uneven cells are
           exact) and painted at the resolution the camera needs: Mapsmith's printed PDF (via the printing code),
           generic printed grids, notebook paper ruled by hand, graph paper, a drawn look-alike of the game's pad,
           and the real pad scans.
  media    the player: a palette (one pen per terrain), a style (pencil, marker, crayon, felt tip, watercolour,
           symbols in ballpoint or graphite, initials, mixed) drawn cell by cell through each cell's own quad, plus
           legend squares, coins, a name, scores, smudges, erased ghosts and stray dots.
  camera   a pinhole phone with barrel distortion over a table, the paper curled, waved, creased; truth points are
           projected forward, the picture is rendered by inverting the same model pixel by pixel.
  scene    the table (wood, cloths, desks, marble, a table edge) and clutter around the grid.
  photo    framing, light (white balance, auto exposure and its error, gradient, hand/phone shadow, vignette,
           glare, shading of the curl), optics (defocus, depth blur, motion blur, chromatic aberration), sensor
           noise, saturation, sharpening, tone curve, JPEG (sometimes twice).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
from dataclasses import dataclass

import numpy as np

from . import mapfill, media, photo, scene, sheets
from .rand import Streams, jsonable, pick

KINDS = ("ours", "ours-clipped", "generic", "handruled", "squared", "pad", "padscan")
STYLES = ("pencil", "marker", "crayon", "felttip", "watercolour", "ballpoint", "graphite", "letters", "mixed")
DIFFICULTIES = ("normal", "hard")
DEV_SEEDS = range(0, 100_000)
HELDOUT_START = 1_000_000
GENERATOR = "photogen3"
SHEET_PPM_CAP = 9.0  # sheet pixels per millimetre at most (the photo may be sharper than the sheet beyond that)

__all__ = ["KINDS", "STYLES", "DIFFICULTIES", "DEV_SEEDS", "HELDOUT_START", "Photo", "generate", "sheets"]


@dataclass
class Photo:
    jpeg: bytes
    truth: dict


_TUNED = False


def _tune_memory() -> None:
    """Keep freed big buffers in the heap (glibc mallopt) and skip numpy's huge-page advice.

    A 12-megapixel photo goes through dozens of 150 MB temporaries; on virtual machines a fresh page costs tens
    of microseconds to fault in, which made generation two to three times slower than the arithmetic. Reusing
    the heap removes that. Process-wide and harmless for a generator; PHOTOGEN3_KEEP_MALLOC=1 turns it off.
    """
    global _TUNED
    if _TUNED or os.environ.get("PHOTOGEN3_KEEP_MALLOC"):
        return
    _TUNED = True
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(-3, 1 << 30)  # M_MMAP_THRESHOLD: big blocks from the heap, not fresh mmaps
        libc.mallopt(-1, 1 << 31)  # M_TRIM_THRESHOLD: do not hand freed memory back at once
    except (OSError, AttributeError):
        pass
    with contextlib.suppress(AttributeError):
        np._core.multiarray._set_madvise_hugepage(False)


def _check(kind: str, style: str, difficulty: str) -> None:
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r} (one of {', '.join(KINDS)})")
    if style not in STYLES:
        raise ValueError(f"unknown style {style!r} (one of {', '.join(STYLES)})")
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r} (one of {', '.join(DIFFICULTIES)})")


def _sheet_ppm(cam, design) -> float:
    """Sheet resolution that matches the photo where the sheet is seen largest (capped)."""
    L = design.lattice
    pts = np.vstack([L.reshape(-1, 2), design.page_corners()])
    step = 1.0
    a = cam.forward_sheet(pts)
    b = cam.forward_sheet(pts + [step, 0])
    c = cam.forward_sheet(pts + [0, step])
    local = np.maximum(np.linalg.norm(b - a, axis=1), np.linalg.norm(c - a, axis=1)) / step
    inner = local[: len(L.reshape(-1, 2))]
    return float(np.clip(max(np.percentile(inner, 90), 0.85 * local.max()) * 1.05, 1.5, SHEET_PPM_CAP))


def generate(kind: str, style: str, difficulty: str, seed: int, small: bool = False) -> Photo:
    _check(kind, style, difficulty)
    _tune_memory()
    if kind == "padscan" and not sheets.scans_available():
        raise sheets.ScansMissing(
            f"padscan needs the pad scans ({', '.join(sheets.SCAN_FILES.values())}) in {sheets.scan_dir()}; "
            "set MAPSMITH_PAD_SCANS to their folder")
    st = Streams(kind, style, difficulty, int(seed))
    side = pick(st.get("side"), ["A", "B"])
    design = sheets.design(kind, side, st.get("sheet"))
    grid, mapinfo = mapfill.make_map(side, st.get("map"))
    player = media.sample_player(style, st.get("player"))
    cam, cam_params = photo.plan_camera(st.get("camera"), design, difficulty, small)
    ppm = _sheet_ppm(cam, design)
    page = design.paint(ppm, st.get("paint"))
    record = media.draw_sheet(page, design, grid, player, mapinfo, st.get("draw"))
    if cam.surface is not None:
        photo.crease_marks(page, cam.surface, st.get("crease"))
    centre = cam.forward_sheet(design.lattice.reshape(-1, 2).mean(0))
    light = photo.sample_light(st.get("light"), difficulty, (centre[0] / cam.width, centre[1] / cam.height))
    optics = photo.sample_optics(st.get("optics"), difficulty)
    table_rng = st.get("table")
    table = scene.sample_table(table_rng)
    L = design.lattice.reshape(-1, 2)
    w, h = design.size_mm
    keep = (*L.min(0), *L.max(0))
    view = _visible_table(cam, w, h)
    objs = scene.clutter(table_rng, keep, view, difficulty)
    img = photo.render(page, design, cam, light, optics, table, objs, st.get("render"))
    jpeg = photo.to_jpeg(img, optics)

    centres = cam.forward_sheet(design.cell_centres())
    dx = np.linalg.norm(centres[:, 1:] - centres[:, :-1], axis=-1)
    dy = np.linalg.norm(centres[1:] - centres[:-1], axis=-1)
    mean_cell = float((dx.sum() + dy.sum()) / (dx.size + dy.size))
    clipped = photo.clipped_markers(cam, design)[0] if design.markers else []
    truth = {
        "grid": grid,
        "side": side,
        "style": style,
        "kind": kind,
        "difficulty": difficulty,
        "seed": int(seed),
        "generator": GENERATOR,
        "template": design.template,
        "legend_filled": bool(record["legend_filled"]),
        "coins": record["coins"],
        "markers_clipped": clipped,
        "params": {
            "geometry": {
                "grid_corners_px": np.round(cam.forward_sheet(design.grid_corners()), 2).tolist(),
                "page_corners_px": np.round(cam.forward_sheet(design.page_corners()), 2).tolist(),
                "cell_centers_px": np.round(centres, 2).tolist(),
                "mean_cell_px": round(mean_cell, 3),
            },
            "photo": jsonable({**cam_params, "light": light, "optics": optics, "table": table,
                               "clutter": [{k: v for k, v in o.items() if k != "parts"} for o in objs],
                               "small": bool(small)}),
            "sheet": jsonable({"design": design.params, "size_mm": design.size_mm, "px_per_mm": ppm,
                               "cell_mm": design.mean_cell_mm(), "map": mapinfo, "player": player.as_dict(),
                               "cells_drawn_as": record["cells"],
                               "markers_outside_fraction": photo.clipped_markers(cam, design)[1]
                               if design.markers else {}}),
        },
    }
    return Photo(jpeg, truth)


def _visible_table(cam, w: float, h: float) -> tuple[float, float, float, float]:
    """The part of the table near the sheet that the photo shows (mm), for placing clutter."""
    from .camera import coarse_lattice

    uv, _ = coarse_lattice(cam.width, cam.height, max(8, cam.width // 24))
    xy, _ = cam.table_hit(cam.rays(uv))
    x0, y0 = np.clip(xy.reshape(-1, 2).min(0), [-w, -h], [2 * w, 2 * h])
    x1, y1 = np.clip(xy.reshape(-1, 2).max(0), [-w, -h], [2 * w, 2 * h])
    return float(x0), float(y0), float(x1), float(y1)
