"""The calibration stage on arrays (evidence → logistic model → probability), its figures (reliability, ECE,
silent errors, right after review), and a fit on a handful of synthetic photos through scripts/calibrate.py."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from vision import calibrate as cal

ROOT = Path(__file__).resolve().parents[1]
NF = len(cal.feature_names())
SHEET_AT = len(cal.CELL_FEATURES) + len(cal.GROUP_FEATURES)  # first sheet column of a design row


def script():
    spec = importlib.util.spec_from_file_location("calibrate_script", ROOT / "scripts" / "calibrate.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def evidence(path: str = "learned") -> cal.Evidence:
    cells = np.zeros((11, 11, len(cal.CELL_FEATURES)))
    cells[..., 0] = np.linspace(0, 3, 121).reshape(11, 11)  # raw_logit (all raw ≥ 0.5: no guard)
    use = np.ones((11, 11), bool)
    use[0, 0] = False  # e.g. a printed mountain or a cell the player named
    filled = np.zeros((11, 11), bool)
    filled[5:] = True
    return cal.Evidence(cells, np.full(len(cal.SHEET_FEATURES), 0.5), use, filled, path)


def one_feature_model(weight: float, intercept: float = 0.0, feature: int = 0) -> dict:
    coef = [0.0] * NF
    coef[feature] = weight
    return {"mean": [0.0] * NF, "scale": [1.0] * NF, "coef": coef, "intercept": intercept}


def test_evidence_rows_put_the_sheet_signals_beside_every_used_cell():
    ev = evidence()
    X, filled = ev.rows()
    assert X.shape == (120, NF) and filled.shape == (120,)
    assert (X[:, SHEET_AT:] == 0.5).all()
    assert filled.sum() == 66  # rows 5..10 drawn on


def test_probability_uses_the_model_of_the_path_and_answer_kind():
    ev = evidence()
    models = {cal.model_key("learned", True): one_feature_model(1.0),  # P = sigmoid(raw_logit)
              cal.model_key("learned", False): one_feature_model(0.0, intercept=2.0)}  # always sigmoid(2)
    p = cal.probability(ev, models)
    assert np.isnan(p[0, 0])  # not the calibrator's cell
    assert p[10, 10] == pytest.approx(1 / (1 + np.exp(-3)))
    assert p[5, 0] == pytest.approx(1 / (1 + np.exp(-ev.cells[5, 0, 0])))
    assert np.allclose(p[1:5], 1 / (1 + np.exp(-2)))
    assert cal.probability(evidence("legend"), models) is None  # no model for that path: the caller falls back


def test_cells_the_stages_doubted_stay_on_the_review_screen():
    ev = evidence()
    ev.cells[7, 3, 0] = cal.logit(0.3)  # the stages' own score 0.3
    ev.cells[7, 4, 0] = cal.logit(0.6)
    m = {cal.model_key("learned", f): one_feature_model(0.0, 4.0) for f in (True, False)}  # the model says 0.98
    p = cal.probability(ev, m)
    assert p[7, 3] < cal.DOUBT and p[7, 4] == pytest.approx(1 / (1 + np.exp(-4)))
    assert cal.guard(np.array([0.9, 0.9]), cal.logit(np.array([0.2, 0.8]))).tolist() == [cal.DOUBT - 0.01, 0.9]


def test_sheet_model_weighs_the_cells_by_the_chance_the_sheet_was_understood():
    ev = evidence()
    m = {cal.model_key("learned", f): one_feature_model(0.0, 30.0) for f in (True, False)}  # cells: surely right
    m["sheet"] = {**one_feature_model(0.0, 0.0), "mean": [0.0] * len(cal.SHEET_FEATURES),
                  "scale": [1.0] * len(cal.SHEET_FEATURES), "coef": [0.0] * len(cal.SHEET_FEATURES), "chance": 0.2}
    assert cal.sheet_probability(ev, m) == pytest.approx(0.5)
    assert np.allclose(cal.probability(ev, m)[ev.use], 0.5 * 1 + 0.5 * 0.2)


def test_a_sheet_signal_lowers_every_cell_of_the_sheet():
    """The model sees sheet-level sanity as features: a negative weight on 'dominant_share' lowers all cells."""
    k = SHEET_AT + cal.SHEET_FEATURES.index("dominant_share")
    m = {cal.model_key("learned", f): one_feature_model(-4.0, 3.0, k) for f in (True, False)}
    calm, odd = evidence(), evidence()
    calm.sheet[cal.SHEET_FEATURES.index("dominant_share")] = 0.3
    odd.sheet[cal.SHEET_FEATURES.index("dominant_share")] = 0.97
    p_calm, p_odd = cal.probability(calm, m), cal.probability(odd, m)
    used = calm.use
    assert (p_odd[used] < p_calm[used]).all() and (p_odd[used] < cal.DOUBT).all() and (p_calm[used] > 0.8).all()


def test_logistic_fit_recovers_a_calibrated_probability():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(6000, 3))
    p_true = 1 / (1 + np.exp(-(1.5 * X[:, 0] - 1.0 * X[:, 2] + 0.5)))
    y = rng.uniform(size=6000) < p_true
    m = cal.fit_logistic(X, y, C=10.0)
    p = cal.predict(m, X)
    assert np.abs(p - p_true).mean() < 0.03
    assert cal.expected_calibration_error(p, y) < 0.03
    json.dumps(m)  # plain numbers: shippable as JSON
    const = cal.fit_logistic(X[:10], np.ones(10, bool))  # one class only: a constant model, not a crash
    assert np.allclose(cal.predict(const, X[:3]), 0.98)


def test_calibration_error_and_review_figures():
    conf = np.array([0.95, 0.95, 0.95, 0.95, 0.2, 0.2])
    right = np.array([True, True, True, False, False, True])
    assert cal.expected_calibration_error(conf, right) == pytest.approx((4 * 0.2 + 2 * 0.3) / 6)
    assert cal.expected_calibration_error(np.array([0.75] * 4), np.array([1, 1, 1, 0], bool)) == pytest.approx(0)
    fig = cal.review_figures([(conf, right), (np.array([0.9, 0.5]), np.array([True, False]))])
    assert fig["cells"] == 8 and fig["wrong"] == 3 and fig["silent"] == 1
    assert fig["silent_pct_wrong"] == pytest.approx(100 / 3)
    assert fig["review"] == 1  # the second photo: its wrong cell is flagged and only 1 cell is
    many = cal.review_figures([(np.full(12, 0.5), np.ones(12, bool))])
    assert many["review"] == 0  # 12 flagged cells: too many to call it reviewed
    rel = cal.reliability(conf, right)
    assert sum(b["cells"] for b in rel) == 6 and rel[-1]["share_right"] is None and rel[-2]["share_right"] == 0.75


def test_glare_caps_hold_whatever_the_model_says():
    from vision.cells import glare_caps

    ratio = np.ones((11, 11))
    ratio[4, 4] = 0.1
    boxes = {(r, c): (0.0, 0.0, 1.0) for r in range(11) for c in range(11)}
    notes = []
    cap = glare_caps(ratio, boxes, notes)
    assert cap[4, 4] == 0 and cap[3, 3] == 0.5 and cap[4, 5] == 0.5 and cap[0, 0] == 1
    assert [n.code for n in notes] == ["glare"]


def test_shipped_model_matches_the_features():
    """The shipped coefficients were fitted on today's feature list (else the reader falls back silently)."""
    doc = json.loads(cal.TABLE_PATH.read_text())
    old = [*cal.CELL_FEATURES, *cal.SHEET_FEATURES]  # a file fitted before the group features (still read)
    assert doc["features"] in (cal.feature_names(), old)
    for key in ("legend/filled", "legend/empty", "learned/filled", "learned/empty"):
        m = doc["models"][key]
        assert len(m["coef"]) == len(m["mean"]) == len(m["scale"]) == len(doc["features"])
    assert cal.models(), "the reader would fall back to the raw-score map"


@pytest.mark.slow
def test_fit_and_check_on_a_handful_of_photos(tmp_path):
    """CI's calibration check: read a few development photos, fit, and compute the check figures (the pipeline,
    not the shipped numbers)."""
    s = script()
    fit_jobs, check_jobs = s.syn_jobs(s.SYN_FIT, 3), s.syn_jobs(s.SYN_CHECK, 2)
    fit_recs = [s.read_one((j, None)) for j in fit_jobs]
    check_recs = [s.read_one((j, None)) for j in check_jobs]
    assert all(r["found"] for r in fit_recs + check_recs)
    rec = fit_recs[0]
    assert rec["X"].shape == (121, len(cal.CELL_FEATURES) + len(cal.SHEET_FEATURES))
    assert rec["conf"].shape == (121,) and rec["right"].dtype == bool
    # the records reproduce what the reader said: recomputing with the shipped model gives the read confidences
    shipped = cal.load_models()
    assert np.allclose(s.confidences(rec, shipped)[rec["use"]], rec["conf"][rec["use"]], atol=2e-3)
    chosen = s.fit(fit_recs, C=0.3, wrong_weight=2.0)["chosen"]  # one photo held back, the choice made on it
    assert chosen["C"] == 0.3 and chosen["wrong_weight"] == 2.0
    fitted = s.fit_models(fit_recs, 0.3, wrong_weight=2.0)  # every photo (the legend one is the held-back one)
    assert rec["group"].shape == (121,) and rec["gcap"].shape == (121,) and s.design(rec).shape == (121, NF)
    assert {"legend/filled", "legend/empty"} <= set(fitted["models"])
    fig = s.figures(check_recs, fitted["models"])
    assert fig["photos"] == 2 and sum(b["cells"] for b in fig["reliability"]) == fig["cells"]
    assert 0 <= fig["ece"] <= 1 and fig["silent"] <= fig["wrong"]
    text = s.report("check", fig)
    assert "right after review" in text and "[0.97, 1.00)" in text
    s.save(check_recs, tmp_path / "r.npy")
    assert len(s.load(tmp_path / "r.npy")) == 2


def grouped_evidence() -> cal.Evidence:
    """Two groups of drawn cells: group 0 (rows 5-7) the second reader agrees with, group 1 (rows 8-10) it
    does not, except one cell; rows 0-4 empty."""
    ev = evidence()
    F = {n: i for i, n in enumerate(cal.CELL_FEATURES)}
    group = np.full((11, 11), -1)
    group[5:8] = 0
    group[8:] = 1
    ev.group = group
    ev.cells[5:8, :, F["agree"]] = 1.0
    ev.cells[8:, :, F["agree"]] = 0.0
    ev.cells[9, 9, F["agree"]] = 1.0
    ev.cells[8, :, F["sym_has"]] = 1.0  # one row of group 1 has strokes: symbol model prefers another terrain
    ev.cells[8, :, F["sym_p"]] = 0.2
    ev.cells[8, :, F["sym_top"]] = 0.7
    return ev


def test_group_features_show_a_group_the_second_reader_disowns():
    ev = grouped_evidence()
    g = cal.group_features(ev.cells, ev.use, ev.filled, ev.group)
    G = {n: i for i, n in enumerate(cal.GROUP_FEATURES)}
    assert g.shape == (11, 11, len(cal.GROUP_FEATURES))
    assert g[6, 0, G["grp_agree"]] == 1.0 and g[9, 0, G["grp_agree"]] == pytest.approx(1 / 33)
    assert g[9, 9, G["cell_odd"]] == pytest.approx(32 / 33) and g[9, 0, G["cell_odd"]] == pytest.approx(1 / 33)
    assert g[10, 0, G["grp_sym_bad"]] == 1.0 and g[6, 0, G["grp_sym_bad"]] == 0.0  # 11 of 11 stroked cells
    assert g[6, 0, G["grp_share"]] == pytest.approx(33 / 66)
    assert (g[:5] == 0).all()  # empty cells have no group
    # the design rows carry them between the cell and the sheet features
    X, _ = ev.rows()
    row = 9 * 11 - 1 + 0  # cell (9, 0): 121 cells less the unused (0, 0), row-major
    assert X[row, len(cal.CELL_FEATURES) + G["grp_agree"]] == pytest.approx(1 / 33)
    # no groups known: every drawn cell is its own
    solo = cal.group_features(ev.cells, ev.use, ev.filled, None)
    assert solo[6, 0, G["grp_share"]] == pytest.approx(1 / 66) and solo[9, 9, G["cell_odd"]] == 0


def test_group_index_and_caps_follow_the_groups():
    from vision.cells import GroupInfo, cap_by_group

    infos = [GroupInfo(0, [(5, 5), (5, 6)], (5, 5), "forest", 0.55, "colour"),
             GroupInfo(1, [(2, 2)], (2, 2), "water", 0.3, "given")]
    idx = cal.group_index(infos)
    assert idx[5, 6] == 0 and idx[2, 2] == 1 and idx[0, 0] == -1
    caps = cal.group_caps(infos)
    assert caps[5, 5] == 0.55 and caps[2, 2] == 1.0 and caps[0, 0] == 1.0  # the player's name is not doubted
    conf = np.ones((11, 11))
    assert np.array_equal(np.minimum(conf, caps), cap_by_group(conf.copy(), infos))


def test_a_model_file_of_the_older_layout_still_reads():
    """Fitted before the group features (cells + sheet columns only): used as it was, the group columns left out."""
    ev = grouped_evidence()
    n_old = len(cal.CELL_FEATURES) + len(cal.SHEET_FEATURES)
    k = len(cal.CELL_FEATURES) + cal.SHEET_FEATURES.index("dominant_share")
    ev.sheet[cal.SHEET_FEATURES.index("dominant_share")] = 1.0
    old = {"mean": [0.0] * n_old, "scale": [1.0] * n_old, "coef": [0.0] * n_old, "intercept": 0.0}
    old["coef"][k] = 2.0
    models = {cal.model_key("learned", f): old for f in (True, False)} | {"layout": "cells+sheet"}
    p = cal.probability(ev, models)
    assert np.allclose(p[ev.use], 1 / (1 + np.exp(-2.0)))


def test_monotone_map_says_what_share_was_right_and_never_falls():
    rng = np.random.default_rng(3)
    p = rng.uniform(size=5000)
    right = rng.uniform(size=5000) < p ** 3  # the scores are over-confident: share right is p³
    t = cal.fit_monotone(p, right)
    assert np.all(np.diff(t["y"]) >= 0) and t["x"][0] == 0.0 and t["x"][-1] == 1.0
    q = cal.final_map(p, np.ones(5000, bool), {"filled": t})
    assert cal.expected_calibration_error(q, right) < 0.03 < cal.expected_calibration_error(p, right)
    assert np.interp(0.8, t["x"], t["y"]) == pytest.approx(0.8 ** 3, abs=0.06)
    # empty cells have their own map; a missing one leaves them as they were
    f = np.array([True, False])
    assert cal.final_map(np.array([0.8, 0.8]), f, {"filled": t}).tolist()[1] == 0.8
    assert cal.final_map(np.array([0.3]), np.array([True]), None).tolist() == [0.3]
    assert cal.fit_monotone(p[:10], right[:10]) == {"x": [0.0, 1.0], "y": [0.0, 1.0]}  # too few cells: identity


def test_the_final_map_runs_before_the_guard():
    ev = evidence()
    ev.cells[7, 3, 0] = cal.logit(0.3)  # the stages doubted this cell
    m = {cal.model_key("learned", f): one_feature_model(0.0, 1.0) for f in (True, False)}  # model: 0.73
    up = {"x": [0.0, 1.0], "y": [0.5, 1.0]}  # a map that lifts every score
    m["final/learned"] = {"filled": up, "empty": up}
    p = cal.probability(ev, m)
    assert p[7, 3] == cal.DOUBT - 0.01 and p[1, 1] == pytest.approx(0.5 + 0.5 / (1 + np.exp(-1)))


def test_weighting_wrong_cells_lowers_the_confident_wrong_ones():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(4000, 2))
    y = rng.uniform(size=4000) < 1 / (1 + np.exp(-(2.0 * X[:, 0] + 1.5)))
    plain, heavy = cal.fit_logistic(X, y, C=1.0), cal.fit_logistic(X, y, C=1.0, wrong_weight=4.0)
    pp, ph = cal.predict(plain, X), cal.predict(heavy, X)
    assert ((ph >= cal.DOUBT) & ~y).sum() < ((pp >= cal.DOUBT) & ~y).sum()
    rank = lambda v: np.argsort(np.argsort(v))  # noqa: E731
    assert np.corrcoef(rank(pp), rank(ph))[0, 1] > 0.99  # much the same ranking, another level


def test_fit_chooses_on_the_held_back_third_and_maps_there():
    """scripts/calibrate.py's fit on small made-up records: the choice is made on held-back seeds only."""
    s = script()
    rng = np.random.default_rng(7)
    nc, ns = len(cal.CELL_FEATURES), len(cal.SHEET_FEATURES)

    def rec(seed: int) -> dict:
        X = np.zeros((121, nc + ns), np.float32)
        X[:, 0] = rng.normal(2.5, 1.5, 121)  # raw_logit: about 85 % of the cells right
        right = rng.uniform(size=121) < 1 / (1 + np.exp(-X[:, 0]))
        filled = np.arange(121) % 2 == 0
        return {"job": ["syn", "legend", "pencil", "", seed], "found": True, "path": "legend", "X": X,
                "use": np.ones(121, bool), "filled": filled, "drawable": np.ones(121, bool),
                "cap": np.ones(121), "conf": np.full(121, 0.9), "right": right,
                "group": np.where(filled, np.arange(121) % 4, -1), "gcap": np.ones(121)}

    records = [rec(200_000 + k) for k in range(12)]
    assert [s.held_back(r) for r in records].count(True) == 4
    fitted = s.fit(records, C=1.0)
    chosen = fitted["chosen"]
    assert chosen["C"] == 1.0 and chosen["wrong_weight"] in s.WRONG_WEIGHTS and chosen["understood"] in s.SHARES
    assert isinstance(fitted["better"], bool)  # written only when better than as read on the held-back photos
    assert {"legend/filled", "legend/empty", "sheet"} <= set(fitted["models"])
    assert ("final/legend" in fitted["models"]) == chosen["final_map"]
    # no more cells flagged on the held-back photos than as read (all at 0.9 there: none), unless none can
    back = [r for r in records if s.held_back(r)]
    assert s.figures(back, fitted["models"])["flagged"] == chosen["held_back_flagged"]
    conf = s.confidences(records[0], fitted["models"])
    assert conf.shape == (121,) and np.all((conf >= 0) & (conf <= 1))
    wrong, cells = s.silent_at_budget(records, fitted["models"], 0.25)
    assert cells == 12 * 121 and 0 <= wrong <= sum(int((~r["right"]).sum()) for r in records)
    assert "silent" in s.by_table(records, fitted["models"], s.kind_of)


def test_a_hero_among_look_alike_cells_is_doubted():
    """A hero is a 1×1 of its own: one read on a cell grouped with other cells goes to review."""
    from vision.cells import GroupInfo

    grid = [["empty"] * 11 for _ in range(11)]
    grid[2][2] = grid[7][7] = grid[8][8] = "hero"
    grid[2][3] = "water"
    groups = [GroupInfo(0, [(2, 2), (2, 3)], (2, 3), "water", 0.9, "colour"),  # hero + a water look-alike
              GroupInfo(1, [(7, 7)], (7, 7), "forest", 0.9, "colour")]  # a hero in a group of its own
    conf = np.full((11, 11), 0.95)
    conf[8, 8] = 0.5  # already doubted (no group): left alone
    assert cal.doubt_grouped_heroes(grid, conf, groups) == 1
    assert conf[2, 2] == cal.GROUPED_HERO_DOUBT < cal.DOUBT
    assert conf[7, 7] == 0.95 and conf[2, 3] == 0.95 and conf[8, 8] == 0.5


def test_pool_adjacent_violators_merges_until_the_share_right_never_falls():
    blocks = [[0.1, 0.5, 1.0], [0.2, 0.3, 1.0], [0.3, 0.9, 2.0], [0.4, 0.8, 2.0], [0.5, 0.2, 4.0]]
    pooled = cal.pool_adjacent_violators(blocks)
    ys = [b[1] for b in pooled]
    assert ys == sorted(ys) and sum(b[2] for b in pooled) == 10.0
    assert np.allclose(pooled[0], [0.15, 0.4, 2.0])
    # the weighted mean of the share right is kept (what an isotonic fit preserves)
    assert np.isclose(sum(b[1] * b[2] for b in pooled), sum(b[1] * b[2] for b in blocks))
    assert blocks[1] == [0.2, 0.3, 1.0]  # the input is left as it was


def test_a_refit_is_written_only_when_it_wins_on_the_held_back_third_and_on_the_check_range():
    s = script()
    chosen = {"held_back_silent": 85, "held_back_flagged": 2660, "held_back_silent_as_read": 116,
              "flag_budget": 2909}
    assert s.refusal({"better": True, "chosen": chosen}, (296, 290)) is None
    assert s.refusal({"better": True, "chosen": chosen}, None) is None  # no check photos: the held-back third decides
    # session 6: better on the held-back third, more silent errors on the check range
    assert "366 silent" in s.refusal({"better": True, "chosen": chosen}, (296, 366))
    assert "held-back" in s.refusal({"better": False, "chosen": chosen}, (296, 200))
