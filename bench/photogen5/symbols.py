"""Hand-drawn terrain symbols as polylines in unit-cell coordinates ([0, 1]^2, y down).

Players who do not colour (graphite, ballpoint, felt-tip, mixed) tell terrains apart by
little drawings; each player picks one variant per terrain and keeps it all game.
"""

from __future__ import annotations

import numpy as np

VARIANTS: dict[str, tuple[str, ...]] = {
    "forest": ("conifer", "round", "two_trees", "conifer_stack"),
    "village": ("house", "roof", "two_roofs", "tower"),
    "farm": ("furrows", "wheat", "dots", "grid"),
    "water": ("waves", "wave_one", "drops", "ripples"),
    "monster": ("face", "x", "horns", "skull"),
    "mountain": ("peak",),
}


def _circle(cx, cy, r, n=18, a0=0.0, a1=2 * np.pi):
    t = np.linspace(a0, a1, n)
    return np.stack([cx + r * np.cos(t), cy + r * np.sin(t)], 1)


def _arr(*p):
    return np.array(p, float)


def symbol_lines(name: str, rng: np.random.Generator) -> list[np.ndarray]:
    """The strokes of one symbol, centred in the unit cell at full size."""
    if name == "conifer":
        return [_arr((0.5, 0.1), (0.2, 0.7), (0.8, 0.7), (0.5, 0.1)), _arr((0.5, 0.7), (0.5, 0.92))]
    if name == "conifer_stack":
        return [_arr((0.5, 0.08), (0.3, 0.38), (0.7, 0.38), (0.5, 0.08)),
                _arr((0.5, 0.3), (0.22, 0.7), (0.78, 0.7), (0.5, 0.3)), _arr((0.5, 0.7), (0.5, 0.92))]
    if name == "round":
        return [_circle(0.5, 0.4, 0.28, 20), _arr((0.5, 0.68), (0.5, 0.93))]
    if name == "two_trees":
        return [_arr((0.3, 0.15), (0.1, 0.65), (0.5, 0.65), (0.3, 0.15)), _arr((0.3, 0.65), (0.3, 0.85)),
                _arr((0.7, 0.25), (0.5, 0.72), (0.9, 0.72), (0.7, 0.25)), _arr((0.7, 0.72), (0.7, 0.9))]
    if name == "house":
        return [_arr((0.2, 0.45), (0.2, 0.88), (0.8, 0.88), (0.8, 0.45)), _arr((0.1, 0.5), (0.5, 0.12), (0.9, 0.5)),
                _arr((0.43, 0.88), (0.43, 0.65), (0.57, 0.65), (0.57, 0.88))]
    if name == "roof":
        return [_arr((0.1, 0.7), (0.5, 0.25), (0.9, 0.7)), _arr((0.25, 0.55), (0.25, 0.85), (0.75, 0.85), (0.75, 0.55))]
    if name == "two_roofs":
        return [_arr((0.05, 0.55), (0.3, 0.25), (0.55, 0.55)), _arr((0.45, 0.8), (0.7, 0.45), (0.95, 0.8))]
    if name == "tower":
        return [_arr((0.35, 0.9), (0.35, 0.3), (0.65, 0.3), (0.65, 0.9)),
                _arr((0.3, 0.3), (0.3, 0.15), (0.4, 0.15), (0.4, 0.22), (0.6, 0.22), (0.6, 0.15), (0.7, 0.15),
                     (0.7, 0.3))]
    if name == "furrows":
        return [_arr((0.12, y), (0.88, y + 0.05)) for y in (0.22, 0.42, 0.62, 0.82)]
    if name == "wheat":
        lines = [_arr((0.5, 0.1), (0.5, 0.92))]
        for y in (0.2, 0.35, 0.5):
            lines += [_arr((0.5, y + 0.12), (0.3, y)), _arr((0.5, y + 0.12), (0.7, y))]
        return lines
    if name == "dots":
        return [_circle(x, y, 0.035, 6) for x in (0.25, 0.5, 0.75) for y in (0.25, 0.5, 0.75)]
    if name == "grid":
        return [_arr((0.2, 0.35), (0.8, 0.35)), _arr((0.2, 0.65), (0.8, 0.65)), _arr((0.35, 0.2), (0.35, 0.8)),
                _arr((0.65, 0.2), (0.65, 0.8))]
    if name in ("waves", "wave_one"):
        ys = (0.5,) if name == "wave_one" else (0.3, 0.55, 0.8)
        t = np.linspace(0.1, 0.9, 24)
        return [np.stack([t, y + 0.07 * np.sin((t - 0.1) * 2 * np.pi * 2)], 1) for y in ys]
    if name == "drops":
        return [np.vstack([_arr((x, y - 0.18)), _circle(x, y, 0.08, 12, -0.3, np.pi + 0.3), _arr((x, y - 0.18))])
                for x, y in ((0.3, 0.4), (0.7, 0.45), (0.5, 0.8))]
    if name == "ripples":
        return [_circle(0.5, 0.5, r, 24) for r in (0.12, 0.25, 0.38)]
    if name == "face":
        return [_circle(0.5, 0.5, 0.38, 24), _circle(0.36, 0.42, 0.04, 6), _circle(0.64, 0.42, 0.04, 6),
                _arr((0.3, 0.68), (0.4, 0.6), (0.5, 0.68), (0.6, 0.6), (0.7, 0.68))]
    if name == "x":
        return [_arr((0.15, 0.15), (0.85, 0.85)), _arr((0.85, 0.15), (0.15, 0.85))]
    if name == "horns":
        return [_circle(0.5, 0.6, 0.28, 20), _arr((0.3, 0.42), (0.18, 0.1), (0.42, 0.35)),
                _arr((0.7, 0.42), (0.82, 0.1), (0.58, 0.35)), _circle(0.4, 0.58, 0.03, 5), _circle(0.6, 0.58, 0.03, 5)]
    if name == "skull":
        return [_circle(0.5, 0.42, 0.3, 20, np.pi * 0.8, np.pi * 2.2), _arr((0.35, 0.62), (0.35, 0.85), (0.65, 0.85),
                                                                            (0.65, 0.62)),
                _circle(0.4, 0.42, 0.06, 8), _circle(0.6, 0.42, 0.06, 8)]
    if name == "peak":
        return [_arr((0.12, 0.85), (0.45, 0.15), (0.8, 0.85)), _arr((0.55, 0.5), (0.7, 0.35), (0.92, 0.85))]
    raise ValueError(name)


def placed(lines: list[np.ndarray], rng: np.random.Generator, size: float, slant_deg: float, wobble: float,
           centre=(0.5, 0.5)) -> list[np.ndarray]:
    """Scale about the centre, slant, move, and add hand wobble to every point (all in unit-cell units)."""
    a = np.radians(slant_deg)
    R = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    shear = np.array([[1, rng.uniform(-0.2, 0.2)], [0, 1]])
    out = []
    for ln in lines:
        p = (ln - 0.5) * size @ (R @ shear).T + np.asarray(centre)
        p = p + rng.normal(0, wobble, p.shape)
        out.append(p)
    return out
