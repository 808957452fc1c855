"""The learned cell reader's stages on arrays: patches (vision.cellpatch), the network's forward pass
(vision.cellnet), the sheet's own pens and the calibration (vision.cellread)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import cellnet, cellread
from vision.cellpatch import PATCH, cell_patches, corner_nodes, extrapolate, grid_quads, paper_white

COLOURS = [(40, 150, 40), (40, 40, 200), (30, 200, 240), (220, 120, 30), (150, 40, 130)]  # BGR


def _photo_of_grid(H: np.ndarray, size=(900, 1000), paper=(215, 225, 235)):
    """A 'photo': a sheet of `paper` colour with an 11×11 grid of coloured cells, seen through homography H
    (sheet units: one cell = 100 px, grid from (100, 100)); returns (photo, true centres, cell colours)."""
    sheet = np.zeros((1300, 1300, 3), np.uint8)
    sheet[:] = paper
    colours = {}
    for r in range(11):
        for c in range(11):
            col = COLOURS[(r * 11 + c) % 5] if (r + c) % 3 else paper
            colours[(r, c)] = col
            sheet[100 + 100 * r : 200 + 100 * r, 100 + 100 * c : 200 + 100 * c] = col
    for k in range(12):
        cv2.line(sheet, (100 + 100 * k, 100), (100 + 100 * k, 1200), (60, 60, 60), 3)
        cv2.line(sheet, (100, 100 + 100 * k), (1200, 100 + 100 * k), (60, 60, 60), 3)
    photo = cv2.warpPerspective(sheet, H, size, borderValue=(30, 30, 30))
    pts = np.array([[[150 + 100 * c, 150 + 100 * r] for c in range(11)] for r in range(11)], np.float64)
    centres = cv2.perspectiveTransform(pts.reshape(1, -1, 2), H)[0].reshape(11, 11, 2)
    return photo, centres, colours


H_TILT = np.array([[0.62, 0.08, 40.0], [-0.05, 0.66, 60.0], [0.00002, 0.00008, 1.0]])


def test_extrapolation_is_exact_on_a_regular_lattice():
    centres = np.array([[[10 + 7.0 * c, 5 + 9.0 * r] for c in range(11)] for r in range(11)])
    ext = extrapolate(centres, 2)
    assert ext.shape == (15, 15, 2)
    assert np.allclose(ext[0, 0], [10 - 14, 5 - 18])
    nodes = corner_nodes(centres)
    assert nodes.shape == (12, 12, 2)
    assert np.allclose(nodes[0, 0], [10 - 3.5, 5 - 4.5])
    assert grid_quads(centres).shape == (121, 4, 2)


def test_patches_follow_the_perspective_and_divide_by_the_paper():
    photo, centres, colours = _photo_of_grid(H_TILT)
    white = paper_white(photo, centres)
    assert np.allclose(white, (215, 225, 235), atol=6)  # the band round the grid is paper, lines left out
    P = cell_patches(photo, centres)
    assert P.shape == (11, 11, PATCH, PATCH, 3)
    mid = slice(PATCH // 2 - 4, PATCH // 2 + 4)
    for (r, c), col in colours.items():
        got = P[r, c, mid, mid].reshape(-1, 3).mean(0)
        assert np.allclose(got, np.asarray(col) / np.asarray(white), atol=0.06), (r, c)


def test_patches_do_not_depend_much_on_the_photo_resolution():
    photo, centres, _ = _photo_of_grid(H_TILT)
    big = cv2.resize(photo, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC)
    a = cell_patches(photo, centres)
    b = cell_patches(big, centres * 3)
    assert np.abs(a - b).mean() < 0.03


def _reference_forward(m, x):
    """A plain loop convolution: what vision.cellnet.forward must compute."""
    x = x.astype(np.float64) - 1.0
    for i, (stride, pool) in enumerate(m["plan"]):
        w, b = m[f"w{i}"].astype(np.float64), m[f"b{i}"].astype(np.float64)
        k = w.shape[0]
        p = k // 2
        xp = np.pad(x, ((0, 0), (p, p), (p, p), (0, 0)))
        n, h, ww, _ = x.shape
        ho, wo = (h - 1) // stride + 1, (ww - 1) // stride + 1
        out = np.zeros((n, ho, wo, w.shape[3]))
        for yy in range(ho):
            for xx in range(wo):
                win = xp[:, yy * stride : yy * stride + k, xx * stride : xx * stride + k, :]
                out[:, yy, xx] = np.einsum("nijc,ijco->no", win, w) + b
        x = np.maximum(out, 0)
        if pool:
            n, h, ww, c = x.shape
            x = x[:, : h // 2 * 2, : ww // 2 * 2].reshape(n, h // 2, 2, ww // 2, 2, c).max(axis=(2, 4))
    emb = x.mean(axis=(1, 2))
    return emb @ m["fc_w"] + m["fc_b"], emb


def _random_model(rng):
    plan = [(2, 0), (1, 1), (1, 0)]
    chans = [3, 4, 5, 6]
    m = {"plan": np.array(plan, np.int32)}
    for i, k in enumerate((5, 3, 3)):
        m[f"w{i}"] = rng.normal(0, 0.3, (k, k, chans[i], chans[i + 1])).astype(np.float32)
        m[f"b{i}"] = rng.normal(0, 0.1, chans[i + 1]).astype(np.float32)
    m["fc_w"] = rng.normal(0, 0.5, (6, 6)).astype(np.float32)
    m["fc_b"] = rng.normal(0, 0.1, 6).astype(np.float32)
    return m


def test_forward_pass_equals_a_plain_convolution():
    rng = np.random.default_rng(3)
    m = _random_model(rng)
    x = rng.uniform(0, 1.5, (3, 14, 14, 3)).astype(np.float32)
    logits, emb = cellnet.forward(m, x)
    ref_l, ref_e = _reference_forward(m, x)
    assert np.allclose(logits, ref_l, atol=1e-4)
    assert np.allclose(emb, ref_e, atol=1e-4)


def test_predict_gives_probabilities_and_none_without_a_model(tmp_path):
    rng = np.random.default_rng(4)
    m = _random_model(rng)
    path = tmp_path / "net.npz"
    np.savez(path, **m, temperature=np.float32(2.0))
    probs, emb = cellnet.predict(rng.uniform(0, 1.5, (5, 16, 16, 3)).astype(np.float32), path)
    assert probs.shape == (5, 6) and emb.shape == (5, 6)
    assert np.allclose(probs.sum(1), 1)
    assert cellnet.predict(np.zeros((1, 16, 16, 3), np.float32), tmp_path / "absent.npz") is None


def test_the_shipped_model_is_small_and_reads_plain_fills():
    assert cellnet.available(), "vision/data/cellnet.npz ships with the code"
    assert cellnet.MODEL_PATH.stat().st_size < 5 * 1024 * 1024
    photo, centres, colours = _photo_of_grid(np.array([[0.7, 0, 20.0], [0, 0.7, 20.0], [0, 0, 1.0]]))
    P = cell_patches(photo, centres).reshape(-1, PATCH, PATCH, 3)
    probs, _ = cellnet.predict(P)
    blank = [k for k, rc in enumerate(colours) if colours[rc] == (215, 225, 235)]
    assert (probs[blank].argmax(1) == 0).mean() >= 0.9  # paper-coloured cells are empty


def test_colour_features_are_the_ink_colour_and_paper_for_blank_cells():
    patches = np.ones((2, PATCH, PATCH, 3), np.float32)
    patches[1, :, :] = (0.2, 0.6, 0.2)  # green (BGR)
    f = cellread.colour_features(patches)
    assert np.allclose(f[0], (0, 0, 100))
    assert f[1, 0] < -20 and f[1, 2] < 80  # a negative: green


def forests_waters_and_a_doubt(forest: float, water: float) -> np.ndarray:
    """The model's probabilities for six sure forests, six sure waters and a last cell it doubts between them."""
    P = np.zeros((13, 6))
    P[:6, 1] = 0.95
    P[6:12, 4] = 0.95
    P[12, 1], P[12, 4] = forest, water
    P += 0.01
    return P / P.sum(1, keepdims=True)


def test_adapt_learns_the_sheets_pens():
    # six sure forests in teal-green, six sure waters in blue, one cell the model cannot tell (forest/water)
    P = forests_waters_and_a_doubt(0.45, 0.45)
    F = np.array([[-30, -5, 55]] * 6 + [[5, -40, 50]] * 6 + [[-28, -6, 56]], float)
    F += np.random.default_rng(0).normal(0, 1, F.shape)
    Q = cellread.adapt(P, F)
    assert Q[12].argmax() == 1 and Q[12, 1] > 0.8
    # a cell the player named stays named, whatever it looks like
    Q2 = cellread.adapt(P, F, fixed={12: 4})
    assert Q2[12].argmax() == 4 and Q2[12, 4] == 1.0
    # a drawn legend square teaches a terrain's colour without any sure cell of it
    P3 = P.copy()
    P3[12] = [0.02, 0.45, 0.02, 0.02, 0.45, 0.04]
    Q3 = cellread.adapt(P3[[12]], F[[12]], examples=[(4, np.array([-28.0, -6.0, 56.0]))])
    assert Q3[0].argmax() == 4


def test_a_confirming_tap_moves_nothing_else_and_a_correction_relearns_the_pens():
    from types import SimpleNamespace

    # a forest group (rows 0-5), a water group (6-11) and a cell the model doubts between them (12)
    P = forests_waters_and_a_doubt(0.5, 0.4)
    F = np.array([[-30, -5, 55]] * 6 + [[5, -40, 50]] * 6 + [[-29, -6, 56]], float)
    groups = [SimpleNamespace(id=1, rows=list(range(6))), SimpleNamespace(id=2, rows=list(range(6, 12)))]
    Q0 = cellread.adapt(P, F)
    # "yes, forest": the forests are set, the doubtful cell keeps exactly what the first pass said
    fixed = dict.fromkeys(range(6), 1)
    Q = cellread._with_names(P, F, Q0, fixed, groups, {1: "forest"}, [])
    assert np.array_equal(Q[6:], Q0[6:]) and (Q[:6, 1] == 1.0).all()
    assert Q0[12].argmax() == 1
    # "no, that group is water": the pens are learnt again with it, and the cell in the same pen follows
    fixed = dict.fromkeys(range(6), 4)
    Q = cellread._with_names(P, F, Q0, fixed, groups, {1: "water"}, [])
    assert (Q[:6, 4] == 1.0).all() and Q[12].argmax() == 4
    assert cellread._with_names(P, F, Q0, {}, groups, {}, []) is Q0


def test_a_tap_names_look_alikes_the_reader_doubted_but_not_those_it_is_sure_are_another_terrain():
    """Three groups drawn in one hand look alike to the model (near-equal features). The player names group 1
    "monster": group 2, which the reader doubted, takes the name; group 3, which the reader is sure is forest,
    keeps its reading (letters in one pencil: a tap on one letter's group made every other letter that name);
    group 4, already read "monster", takes it (it changes nothing)."""
    from types import SimpleNamespace

    rows = [list(range(0, 3)), list(range(3, 6)), list(range(6, 9)), list(range(9, 12))]
    groups = [SimpleNamespace(id=i + 1, rows=r) for i, r in enumerate(rows)]
    rng = np.random.default_rng(0)
    emb = np.ones((12, 8)) + 0.01 * rng.standard_normal((12, 8))
    Q0 = np.zeros((12, len(cellnet.CLASSES)))
    Q0[0:3, 5] = 0.55
    Q0[0:3, 1] = 0.45  # the tapped group: monster or forest
    Q0[3:6, 2] = 0.5
    Q0[3:6, 5] = 0.5  # doubted: village or monster
    Q0[6:9, 1] = 0.95
    Q0[6:9, 5] = 0.05  # sure: forest
    Q0[9:12, 5] = 0.9
    Q0[9:12, 1] = 0.1  # already monster
    taught = cellread._taught(groups, emb, {1: "monster"}, Q0)
    assert taught == {2: "monster", 4: "monster"}
    assert cellread.sure_otherwise(Q0, rows[2], "monster") and not cellread.sure_otherwise(Q0, rows[2], "forest")
    assert not cellread.sure_otherwise(Q0, rows[1], "monster")
    assert cellread._taught(groups, emb, {}, Q0) == {}


def test_a_tap_does_not_rename_members_the_reader_sets_apart_and_gives_the_name_next_to_no_chance():
    """A group of look-alikes (one pencil's letters) mixes forests, a village and an unsure cell; the player names
    its example "forest". The village, which the reader set apart from the group (read forest as a whole) and gave
    forest no chance, keeps its own reading; the unsure cell takes the name, doubted, and the example takes it
    even where the reader disagreed (the player saw it). A group misread as a whole takes the name."""
    from types import SimpleNamespace

    Q0 = np.zeros((4, len(cellnet.CLASSES)))
    Q0[0, 1] = 0.9
    Q0[0, 2] = 0.1  # forest
    Q0[1, 2] = 0.98
    Q0[1, 1] = 0.02  # village, forest next to no chance
    Q0[2, 1] = 0.3
    Q0[2, 3] = 0.7  # unsure: farm, or forest
    Q0[3, 2] = 0.99
    Q0[3, 1] = 0.01  # the example, read village
    g = SimpleNamespace(id=1, rows=[0, 1, 2, 3], cells=[(0, 0), (0, 1), (0, 2), (0, 3)], example=(0, 3))
    assert cellread.members_set_apart(Q0, g, "forest") == ({1}, {2})  # the unsure cell takes the name, doubted
    assert cellread.members_set_apart(Q0, g, "village") == ({2}, {0})  # the forest gave village a chance (0.1)
    assert cellread.members_set_apart(Q0, g, "forest", example_named=False) == ({1, 3}, {2})  # a look-alike's name
    # a group the reader misread as a whole (a private code's digits, all read farm) takes the name, every member
    code = np.zeros((3, len(cellnet.CLASSES)))
    code[:, 3] = 0.97
    code[:, 2] = 0.01
    code[:, 1] = 0.02
    g = SimpleNamespace(id=2, rows=[0, 1, 2], cells=[(1, 0), (1, 1), (1, 2)], example=(1, 0))
    assert cellread.members_set_apart(code, g, "village") == (set(), set())
    # … but a stray example (read water, the rest forest) named water leaves the forests their reading
    stray = code.copy()
    stray[:, :] = 0.0
    stray[0, 4] = 1.0
    stray[1:, 1] = 0.99
    stray[1:, 4] = 0.01
    assert cellread.members_set_apart(stray, g, "water") == ({1, 2}, set())
    # the group as a whole reads water
    assert cellread.members_set_apart(stray, g, "water", example_named=False) == ({1, 2}, set())


def test_a_named_groups_members_set_apart_keep_or_take_the_name_with_their_doubt():
    disputed, unsure = {1}, {2}
    assert cellread.named_member(0, "forest", 1.0, "village", 0.97, disputed, unsure) == ("forest", 1.0)
    assert cellread.named_member(1, "forest", 1.0, "village", 0.97, disputed, unsure) == (
        "village", cellread.DISPUTED_CAP)  # its own reading, no surer than such readings are right
    assert cellread.named_member(1, "forest", 1.0, "village", 0.4, disputed, unsure) == ("village", 0.4)
    name, conf = cellread.named_member(2, "forest", 1.0, "farm", 0.8, disputed, unsure)
    assert name == "forest" and conf == cellread.UNSURE_NAMED_CAP < 0.7  # the name, shown for checking
    assert cellread.named_member(2, "forest", 0.3, "farm", 0.8, disputed, unsure) == ("forest", 0.3)
    # on a sheet doubted whole, a member the player did not tap stays doubted whatever carried the name to it
    cap = cellread.SHEET_DOUBT_CAP
    assert cellread.named_member(0, "forest", 1.0, "forest", 0.6, disputed, unsure, in_doubt=True) == ("forest", cap)
    assert cellread.named_member(1, "forest", 1.0, "farm", 0.95, disputed, unsure, in_doubt=True) == ("farm", cap)
    assert cellread.named_member(2, "forest", 1.0, "farm", 0.8, disputed, unsure, in_doubt=True) == ("forest", 0.5)


def test_a_sheet_mostly_in_doubt_is_doubted_whole():
    Q = np.full((100, 6), 0.01)
    Q[:, 1] = 0.95
    Q[:20] = [0.1, 0.5, 0.4, 0.0, 0.0, 0.0]  # a fifth of the cells unsure
    assert cellread.sheet_doubted(Q)
    assert cellread.sheet_doubted(Q[11:])  # 9 of 89: over the share (8 %)
    assert not cellread.sheet_doubted(Q[14:])  # 6 of 86, under it: the sure cells stand
    assert not cellread.sheet_doubted(Q[:0])
    from vision.messages import Note

    note = Note.of("sheet_doubtful")
    assert "every square" in note.text("en") and "her kare" in note.text("tr")


def test_adapt_leaves_a_sheet_without_sure_cells_alone():
    P = np.full((3, 6), 1 / 6)
    Q = cellread.adapt(P, np.zeros((3, 3)))
    assert np.allclose(Q, P)


def test_features_and_calibration():
    P = np.array([[0.9, 0.02, 0.02, 0.02, 0.02, 0.02], [0.1, 0.6, 0.1, 0.1, 0.05, 0.05]])
    X = cellread.features(P, P, np.array([False, True]), {"no_markers": 1.0}, False)
    assert X.shape == (2, len(cellread.CAL_FEATURES))
    assert X[1, cellread.CAL_FEATURES.index("ruins")] == 1
    p = cellread.calibrated(X, P)
    assert p.shape == (2,) and np.all((p > 0) & (p < 1))


def test_group_margin_tells_a_pen_named_by_a_hair_from_a_clear_one():
    """Each member of a group sure of "farm" by 0.55 against "village" 0.40 still leaves the group's name in doubt;
    a group of clear forests does not; a cell in no group keeps its own margin."""
    hair = [0.01, 0.01, 0.40, 0.55, 0.02, 0.01]
    clear = [0.01, 0.95, 0.01, 0.01, 0.01, 0.01]
    alone = [0.02, 0.02, 0.02, 0.02, 0.90, 0.02]
    Q = np.array([hair, hair, hair, clear, clear, alone])
    X = cellread.features(Q, Q, np.zeros(6, bool), {}, False, [[0, 1, 2], [3, 4]])
    m = X[:, cellread.CAL_FEATURES.index("group_margin")]
    assert m[0] == m[1] == m[2] == pytest.approx(np.log(0.55 / 0.40), abs=1e-3)
    assert m[3] == m[4] == pytest.approx(np.log(0.95 / 0.01), abs=1e-2)
    assert m[5] == pytest.approx(np.log(0.90 / 0.02), abs=1e-3)


def test_a_cells_ink_hue_reaches_the_calibration():
    """A pale yellow fill read empty carries its hue (chroma) to the calibration; paper, or no colour given, none."""
    Q = np.array([[0.95, 0.01, 0.01, 0.01, 0.01, 0.01]] * 2)
    X = cellread.features(Q, Q, np.zeros(2, bool), {}, False, None, np.array([[-2.0, 8.0, 94.0], [0, 0, 100]]))
    chroma, light = (X[:, cellread.CAL_FEATURES.index(f)] for f in ("chroma", "ink_light"))
    assert chroma[0] == pytest.approx(np.hypot(2, 8)) and chroma[1] == 0
    assert light.tolist() == [94.0, 100.0]
    X = cellread.features(Q, Q, np.zeros(2, bool), {}, False)
    assert X[:, cellread.CAL_FEATURES.index("chroma")].tolist() == [0, 0]


@pytest.mark.parametrize("n", [0, 1])
def test_adapt_handles_tiny_sheets(n):
    P = np.full((n, 6), 1 / 6)
    assert cellread.adapt(P, np.zeros((n, 3))).shape == (n, 6)


def test_the_exported_trees_give_scikit_learns_probabilities():
    """`cellread.tree_logit` on the nodes `scripts/calibrate_cellnet.py` writes is the fitted model's own answer."""
    sklearn_ensemble = pytest.importorskip("sklearn.ensemble")
    from scripts.calibrate_cellnet import TREES, export_trees

    rng = np.random.default_rng(3)
    X = rng.normal(size=(3000, 5))
    X[:, 2] = rng.integers(0, 2, 3000)  # a 0/1 feature, as `read_empty` or `legend`
    y = (X[:, 0] + 0.5 * X[:, 2] * X[:, 1] + rng.normal(0, 0.5, 3000)) > 0.3
    clf = sklearn_ensemble.HistGradientBoostingClassifier(**TREES).fit(X, y)
    test = rng.normal(size=(500, 5))
    test[:, 2] = rng.integers(0, 2, 500)
    mine = 1 / (1 + np.exp(-cellread.tree_logit(test, export_trees(clf))))
    assert np.allclose(mine, clf.predict_proba(test)[:, 1], atol=1e-9)


def test_the_shipped_calibration_is_trees_over_the_cells_features():
    """The map that ships is read (its features are the reader's) and is boosted trees; its answers are probabilities,
    surer of a clear cell than of a doubtful one."""
    m = cellread._calibration()
    assert m is not None and "trees" in m
    P = np.array([[0.995, 0.001, 0.001, 0.001, 0.001, 0.001], [0.40, 0.35, 0.1, 0.05, 0.05, 0.05]])
    X = cellread.features(P, P, np.array([False, False]), {}, False, [[0], [1]])
    p = cellread.calibrated(X, P)
    assert np.all((p > 0) & (p < 1)) and p[0] > 0.9 > p[1]


def test_joined_models_average_their_probabilities_and_keep_the_first_look(tmp_path):
    """A file of two models (scripts/join_cellnet.py) reads as the mean of the two read apart; the embedding, which
    the groups' thresholds were set on, is the first model's."""
    from scripts import join_cellnet

    rng = np.random.default_rng(5)
    a, b = _random_model(rng), _random_model(rng)
    pa, pb, pj = tmp_path / "a.npz", tmp_path / "b.npz", tmp_path / "joined.npz"
    np.savez(pa, **a, temperature=np.float32(1.5))
    np.savez(pb, **b, temperature=np.float32(0.8))
    assert join_cellnet.main([str(pa), str(pb), "--out", str(pj)]) == 0
    x = rng.uniform(0, 1.5, (7, 16, 16, 3)).astype(np.float32)
    prob_a, emb_a = cellnet.predict(x, pa)
    prob_b, _ = cellnet.predict(x, pb)
    prob_j, emb_j = cellnet.predict(x, pj)
    assert not np.allclose(prob_a, prob_b, atol=1e-3)
    assert np.allclose(prob_j, (prob_a + prob_b) / 2, atol=1e-6)
    assert np.allclose(emb_j, emb_a)
    # joining a joined file keeps all its models, in order
    pk = tmp_path / "three.npz"
    assert join_cellnet.main([str(pj), str(pa), "--out", str(pk)]) == 0
    prob_k, _ = cellnet.predict(x, pk)
    assert np.allclose(prob_k, (2 * prob_a + prob_b) / 3, atol=1e-6)
    # FILE:K takes one model of a joined file: the joined file's second model alone reads as b
    p1 = tmp_path / "second.npz"
    assert join_cellnet.main([f"{pj}:1", "--out", str(p1)]) == 0
    assert np.allclose(cellnet.predict(x, p1)[0], prob_b, atol=1e-6)


def test_members_of_a_single_model_file_is_that_model():
    m = _random_model(np.random.default_rng(6))
    (only,) = cellnet.members(m)
    assert set(only) == set(m)
    back = cellnet.members(cellnet.joined([m, m]))
    assert len(back) == 2 and all(set(x) == set(m) for x in back)
    assert all(np.array_equal(back[1][k], m[k]) for k in m)
