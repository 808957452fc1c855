"""photogen5: synthetic phone photos of finished Cartographers map sheets, with exact truth.

Written independently of the photo reader (and of the earlier generators), so the reader
can be measured on pictures it was never tuned to. `generate(kind, style, difficulty, seed)`
is deterministic: every random draw comes from a SeedSequence of the arguments hashed
with SHA-256, split into one generator per stage.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import sheets
from .camera import SIZES, choose_pose, render
from .mapfill import fill_map
from .marks import draw_map, make_player, public, write_extras
from .scene import light, phone, props, table, thumb
from .sheets import ScansMissing, cell_quad
from .util import GENERATOR, child_rngs, seed_sequence

KINDS = ("ours", "ours-clipped", "generic", "handruled", "squared", "pad", "padscan")
STYLES = ("pencil", "marker", "crayon", "felttip", "watercolour", "ballpoint", "graphite", "letters", "mixed")
DIFFICULTIES = ("normal", "hard")
DEV_SEEDS = range(0, 100_000)
HELDOUT_START = 1_000_000

__all__ = ["DEV_SEEDS", "DIFFICULTIES", "GENERATOR", "HELDOUT_START", "KINDS", "STYLES", "Photo", "ScansMissing",
           "decode", "generate", "sheets"]


@dataclass
class Photo:
    jpeg: bytes
    truth: dict


def decode(jpeg: bytes) -> np.ndarray:
    """JPEG bytes -> BGR uint8 array."""
    img = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    if img is None:
        raise ValueError("not a decodable image")
    return img


def _r(a, nd: int = 3):
    return np.round(np.asarray(a, float), nd).tolist()


def _thumb_place(sheet, page, pose, rng):
    """A point on the page's margin, far from the grid and markers, for a thumb; None if there is no room."""
    ppm = sheet.ppm
    wm, hm = page
    lat = (sheet.lattice + 0.5) / ppm
    lo, hi = lat.reshape(-1, 2).min(0), lat.reshape(-1, 2).max(0)
    cands = [((wm * 0.0, (lo[1] + hi[1]) / 2), (-1, 0), lo[0]), ((wm, (lo[1] + hi[1]) / 2), (1, 0), wm - hi[0]),
             (((lo[0] + hi[0]) / 2, hm), (0, 1), hm - hi[1])]
    cands = [c for c in cands if c[2] > 14]
    if not cands:
        return None
    (eu, ev), d, room = cands[rng.integers(len(cands))]
    depth = min(room - 6, rng.uniform(6, 14))
    tu, tv = eu - d[0] * depth, ev - d[1] * depth
    ou, ov = eu + d[0] * 30, ev + d[1] * 30
    tx, ty = pose.forward(np.array([tu]), np.array([tv]))
    ox, oy = pose.forward(np.array([ou]), np.array([ov]))
    wx, _ = pose.forward(np.array([tu + 9.0 * abs(d[1]) + 0.01]), np.array([tv + 9.0 * abs(d[0])]))
    tip = np.array([tx[0], ty[0]])
    width = float(np.hypot(wx[0] - tx[0], _[0] - ty[0])) * 2
    return tip, np.array([ox[0] - tx[0], oy[0] - ty[0]]), width


def generate(kind: str, style: str, difficulty: str, seed: int) -> Photo:
    """One photo and its truth. Raises ValueError for unknown arguments, ScansMissing for padscan without scans."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r} (expected one of {', '.join(KINDS)})")
    if style not in STYLES:
        raise ValueError(f"unknown style {style!r} (expected one of {', '.join(STYLES)})")
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r} (expected one of {', '.join(DIFFICULTIES)})")
    seed = int(seed)
    if kind == "padscan":
        sheets.load_scan("A")  # fail early, before any work
    r_map, r_sheet, r_player, r_pose, r_scene, r_phone = child_rngs(
        seed_sequence(seed, kind, style, difficulty, GENERATOR), 6)
    side = "A" if r_map.random() < 0.5 else "B"
    grid, map_params = fill_map(side, r_map)

    W, H = SIZES[r_pose.integers(len(SIZES))]
    if r_pose.random() < 0.5:
        W, H = H, W
    # sheet resolution close to the photo's, so the photo is neither blocky nor aliased
    long_mm = sheets.page_mm(kind, side, r_pose)
    frac = 0.6
    ppm = float(np.clip(np.sqrt(frac * W * H / (long_mm * long_mm / 1.414)), 5.0, 9.0))
    if kind == "ours-clipped":
        ppm = 9.0
    sheet = sheets.build(kind, side, ppm, r_sheet)
    player = make_player(style, r_player)
    map_info = draw_map(sheet, grid, player, r_player)
    extras = write_extras(sheet, player, r_player, kind)
    coins = extras.pop("coins")
    legend_filled = bool(extras.pop("legend_filled")) and kind in ("ours", "ours-clipped")

    Hs, Ws = sheet.shape
    page = (Ws / ppm, Hs / ppm)
    lat_mm = (sheet.lattice + 0.5) / ppm
    markers_mm = {k: (q + 0.5) / ppm for k, q in sheet.markers.items()} if kind.startswith("ours") else {}
    pose, pose_info = choose_pose(kind, difficulty, r_pose, page, lat_mm, markers_mm, (W, H))

    # geometry truth: the forward map applied to the lattice and the page corners
    lx, ly = pose.forward(lat_mm[..., 0], lat_mm[..., 1])
    lattice_px = np.stack([lx, ly], -1)
    centers = (lattice_px[:-1, :-1] + lattice_px[:-1, 1:] + lattice_px[1:, 1:] + lattice_px[1:, :-1]) / 4
    sides_h = np.hypot(*(lattice_px[:, 1:] - lattice_px[:, :-1]).transpose(2, 0, 1))
    sides_v = np.hypot(*(lattice_px[1:, :] - lattice_px[:-1, :]).transpose(2, 0, 1))
    mean_cell = float((sides_h.mean() + sides_v.mean()) / 2)
    px_, py_ = pose.forward(np.array([0, page[0], page[0], 0.0]), np.array([0, 0, page[1], page[1]]))

    # picture: table + props, the warped sheet, a thumb, light, phone
    bg, scene_info = table(W, H, r_scene)
    scene_info["props"] = props(bg, r_scene)
    bg = cv2.resize(bg, (W, H), interpolation=cv2.INTER_LINEAR)
    alpha = sheet.alpha if sheet.alpha is not None else np.ones((Hs, Ws), np.float32)
    rgba = np.dstack([np.clip(sheet.img, 0, 1), alpha]).astype(np.float32)
    q55 = cell_quad(sheet.lattice, 5, 5)
    scale = mean_cell / float(np.hypot(*(q55[1] - q55[0])))
    if scale < 0.75:  # the sheet is finer than the photo: pre-filter against aliasing
        rgba = cv2.GaussianBlur(rgba, (0, 0), 0.45 / scale)
    del sheet.img
    warped, shade = render(pose, rgba, ppm)
    del rgba
    a = np.ascontiguousarray(warped[..., 3])
    fg = cv2.cvtColor(warped, cv2.COLOR_RGBA2RGB)
    del warped
    # the page's own soft shadow on the table, then the page over the table
    sh = cv2.GaussianBlur(a, (0, 0), max(W, H) / 300)
    sh = np.roll(sh, (int(W / 400), int(W / 300)), (0, 1))
    sh = 1.0 - 0.35 * sh
    bg *= cv2.merge([sh, sh, sh])
    img = cv2.blendLinear(fg, bg, a, 1.0 - a)
    del fg, bg, sh
    if r_scene.random() < 0.3:
        place = _thumb_place(sheet, page, pose, r_scene)
        if place is not None:
            thumb(img, r_scene, *place)
            scene_info["thumb"] = True
    shade = 1.0 + a * (shade - 1.0)  # paper slope shading, only on the paper
    light_info = light(img, difficulty, r_scene, shade)
    out, phone_info = phone(img, difficulty, r_phone, light_info["exposure"])
    del img
    q = int(r_phone.integers(70, 96))
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
    if not ok:  # pragma: no cover
        raise RuntimeError("JPEG encoding failed")

    truth = {
        "grid": grid, "side": side, "kind": kind, "style": style, "difficulty": difficulty, "seed": seed,
        "generator": GENERATOR,
        "coins": coins if kind in ("ours", "ours-clipped", "pad", "padscan") else None,
        "legend_filled": legend_filled,
        "markers_clipped": sorted(pose_info["clipped"], key=("tl", "tr", "br", "bl").index)
        if kind == "ours-clipped" else [],
        "params": {
            "geometry": {
                "grid_corners_px": _r([lattice_px[0, 0], lattice_px[0, 11], lattice_px[11, 11], lattice_px[11, 0]]),
                "page_corners_px": _r(np.stack([px_, py_], 1)),
                "cell_centers_px": _r(centers),
                "mean_cell_px": round(mean_cell, 3),
                "lattice_px": _r(lattice_px),
            },
            "photo": {"width": W, "height": H, "focal_px": round(pose.f, 2), "distance_mm": round(pose.D, 2),
                      "shift_px": _r(pose.t, 2), "k1": round(pose.k1, 5), "k2": round(pose.k2, 5),
                      "curl": {k: (_r(v) if isinstance(v, list) else v) for k, v in pose.curl.items()},
                      "jpeg_quality": q, **pose_info, **scene_info, **light_info, **phone_info},
            "sheet": {"ppm": round(ppm, 4), "page_mm": _r(page, 2), **sheet.params, "map": map_info, **map_params,
                      "player": public(player), **extras},
        },
    }
    truth["params"]["photo"].pop("clipped", None)
    return Photo(buf.tobytes(), truth)
