"""Colour sheets read the right way up: the stages behind confident wrong cells (branch colour5, issue 10)."""

from __future__ import annotations

import numpy as np

from vision.light import grid_paper, whiten

CELL = 20


def _boxes(n: int = 11) -> dict:
    return {(r, c): (float(c * CELL), float(r * CELL), float(CELL)) for r in range(n) for c in range(n)}


def _sheet(colours: dict[tuple[int, int], tuple[float, float, float]], base=(1.0, 1.0, 1.0)) -> np.ndarray:
    img = np.empty((11 * CELL, 11 * CELL, 3), np.float32)
    img[:] = base
    for (r, c), bgr in colours.items():
        img[r * CELL : (r + 1) * CELL, c * CELL : (c + 1) * CELL] = bgr
    return img


YELLOW, GREEN, BLUE, RED = (0.25, 0.9, 0.95), (0.35, 0.5, 0.15), (0.7, 0.4, 0.1), (0.2, 0.3, 0.8)


def test_grid_paper_is_not_taken_from_solid_yellow_on_a_full_map():
    """Every cell solidly coloured (markers, edge to edge): the yellow farms are the brightest cells, yet they
    are ink; dividing by them turned green forests blue. The page's own white stands."""
    cols = [YELLOW, GREEN, BLUE, RED]
    img = _sheet({(r, c): cols[(r * 11 + c) % 4] for r in range(11) for c in range(11)})
    paper = grid_paper(img, _boxes())
    assert np.allclose(paper, 1.0)
    green = whiten(img, paper)[CELL + 5, 0 + 5]  # cell (1, 0) is GREEN
    assert green[1] > green[0]  # still green, not blue


def test_grid_paper_still_follows_a_cream_grid_among_solid_colours():
    """A pad prints its grid cream: the empty cells are paper, the coloured ones are not."""
    cream = (0.9, 0.97, 1.0)
    cols = {(r, c): (YELLOW if c % 2 else GREEN) for r in range(11) for c in range(11) if (r + c) % 3}
    img = _sheet(cols, base=cream)
    paper = grid_paper(img, _boxes())
    assert np.allclose(paper, cream, atol=0.02)


def test_grid_paper_sees_paper_between_hatching_strokes():
    img = _sheet({})
    for r in range(11):
        for c in range(11):
            y, x = r * CELL, c * CELL
            img[y : y + CELL, x : x + CELL : 3] = YELLOW if (r + c) % 2 else GREEN  # strokes, paper between
    paper = grid_paper(img, _boxes())
    assert np.allclose(paper, 1.0, atol=0.02)


def test_a_channel_brighter_than_paper_keeps_its_hue():
    """A salmon watercolour or an orange felt-tip can be brighter than the paper in red; clipping red alone
    made it yellow (a farm's colour). The whole pixel is scaled instead: its hue stays, paper stays white."""
    from vision.classify import to_lab
    from vision.light import fold_highlights

    salmon = np.array([[[0.78, 0.93, 1.24], [1.0, 1.0, 1.0], [1.3, 1.3, 1.3]]], np.float32)  # BGR
    folded = fold_highlights(salmon.copy())
    assert folded.max() <= 1.0
    lab_clip, lab_fold = to_lab(salmon)[0, 0], to_lab(folded)[0, 0]
    hue = lambda lab: np.degrees(np.arctan2(lab[2], lab[1])) % 360  # noqa: E731
    assert hue(lab_fold) < 55 < hue(lab_clip)  # red-orange, not yellow
    assert np.allclose(folded[0, 1], 1.0) and np.allclose(folded[0, 2], 1.0)  # paper and glare stay white


def test_whiten_folds_too():
    img = np.full((4, 4, 3), (0.6, 0.7, 1.2), np.float32)
    out = whiten(img, np.ones(3, np.float32))
    assert out.max() <= 1.0 and np.allclose(out[0, 0], (0.5, 0.7 / 1.2, 1.0), atol=1e-5)
    near = whiten(np.full((2, 2, 3), (0.9, 1.0, 1.05), np.float32), np.ones(3, np.float32))
    assert np.allclose(near, (0.9, 1.0, 1.05))  # paper noise and a slight tint are not scaled into ink


# --- naming: one pen, one terrain ---------------------------------------------------------------------------

def _arrays(specs: list[tuple[float, float, int]]):
    """CellArrays of groups of filled cells: (hue°, lightness, cells) per group, one solid colour each."""
    from vision.features import HUE_BINS, SHAPE_DIM, CellArrays

    rows = [(h, light) for h, light, n in specs for _ in range(n)]
    n = len(rows)
    hue = np.zeros((n, HUE_BINS + 1), np.float32)
    for k, (h, _) in enumerate(rows):
        pos = (h % 360) / (360 / HUE_BINS)
        lo = int(np.floor(pos)) % HUE_BINS
        w = pos - np.floor(pos)
        hue[k, lo] += 1 - w
        hue[k, (lo + 1) % HUE_BINS] += w
    ab = np.array([[30 * np.cos(np.radians(h)), 30 * np.sin(np.radians(h))] for h, _ in rows], np.float32)
    one = np.ones(n, np.float32)
    return CellArrays([(k // 11, k % 11) for k in range(n)], 0.3 * one, one, ab, one,
                      np.array([lt for _, lt in rows], np.float32), hue, np.zeros((n, SHAPE_DIM), np.float32),
                      np.zeros((n, SHAPE_DIM), np.float32), 0 * one, 0.3 * one, ab / 3, 0.5 * one)


def _groups(specs):
    from vision.groups import Group

    out, start = [], 0
    for gid, (_, _, n) in enumerate(specs, start=1):
        rows = list(range(start, start + n))
        out.append(Group(gid, rows, [(k // 11, k % 11) for k in rows], (start // 11, start % 11), np.ones(n)))
        start += n
    return out


def _naming(names: list[str]):
    from vision.naming import DRAWABLE, Naming

    probs = np.full((len(names), len(DRAWABLE)), 1e-4)
    for k, t in enumerate(names):
        probs[k, DRAWABLE.index(t)] = 1 - 4e-4
    return Naming(probs, ["colour"] * len(names))


def test_a_cell_is_never_surer_than_its_groups_name():
    from vision.cells import GroupInfo, cap_by_group

    conf = np.full((11, 11), 0.95, np.float32)
    infos = [GroupInfo(1, [(0, 0), (0, 1)], (0, 0), "farm", 0.55, "colour"),
             GroupInfo(2, [(1, 0)], (1, 0), "forest", 0.4, "given"),
             GroupInfo(3, [(2, 0)], (2, 0), "water", 0.99, "colour")]
    cap_by_group(conf, infos)
    assert conf[0, 0] == conf[0, 1] == np.float32(0.55)
    assert conf[1, 0] == np.float32(0.95)  # the player's name is not doubted
    assert conf[2, 0] == np.float32(0.95) and conf[3, 3] == np.float32(0.95)


def test_a_cross_over_a_monster_is_doubted_on_a_base_game_side_only():
    from vision.reading import CROSSED_MONSTER_DOUBT, doubt_crossed_monsters

    under = [["monster", "farm"] + ["empty"] * 9] + [["empty"] * 11 for _ in range(10)]
    grid = [row[:] for row in under]
    grid[0][0] = grid[0][1] = "destroyed"
    conf = np.ones((11, 11), np.float32)
    assert doubt_crossed_monsters("A", under, grid, conf) == 1
    assert conf[0, 0] == np.float32(CROSSED_MONSTER_DOUBT) and conf[0, 1] == 1.0  # a crossed farm is a mark
    conf = np.ones((11, 11), np.float32)
    assert doubt_crossed_monsters("C", under, grid, conf) == 0 and conf.min() == 1.0  # Heroes: destroying


def test_the_upright_cells_table_leaves_out_sheets_read_turned():
    from bench.upright_cells import table

    def cell(truth, read, conf):
        return {"truth": truth, "read": read, "conf": conf}

    recs = [{"found": True, "upright": True, "style": "marker",
             "cells": [cell("farm", "farm", 0.9), cell("village", "farm", 0.8), cell("forest", "water", 0.4)]},
            {"found": True, "upright": False, "style": "marker", "cells": [cell("farm", "water", 0.99)] * 5},
            {"found": False, "style": "crayon"}]
    out = table(recs)
    marker = next(line for line in out.splitlines() if line.startswith("marker"))
    assert marker.split()[:4] == ["marker", "1", "3", "33.3%"]  # one photo, 3 cells, 1 right
    assert "1  33.3%/  50%" in marker  # one silent cell: a third of the cells, half the wrong ones
    assert "3 photos, 2 read, 1 of them the right way up" in out
