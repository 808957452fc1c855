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
NF = len(cal.CELL_FEATURES) + len(cal.SHEET_FEATURES)


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
    assert (X[:, len(cal.CELL_FEATURES):] == 0.5).all()
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
    k = len(cal.CELL_FEATURES) + cal.SHEET_FEATURES.index("dominant_share")
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
    assert doc["features"] == [*cal.CELL_FEATURES, *cal.SHEET_FEATURES]
    for key in ("legend/filled", "legend/empty", "learned/filled", "learned/empty"):
        m = doc["models"][key]
        assert len(m["coef"]) == len(m["mean"]) == len(m["scale"]) == NF


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
    assert rec["X"].shape == (121, NF) and rec["conf"].shape == (121,) and rec["right"].dtype == bool
    # the records reproduce what the reader said: recomputing with the shipped model gives the read confidences
    shipped = json.loads(cal.TABLE_PATH.read_text())["models"]
    assert np.allclose(s.confidences(rec, shipped)[rec["use"]], rec["conf"][rec["use"]], atol=2e-3)
    fitted = s.fit(fit_recs, C=0.3)
    assert {"legend/filled", "legend/empty"} <= set(fitted["models"])
    fig = s.figures(check_recs, fitted["models"])
    assert fig["photos"] == 2 and sum(b["cells"] for b in fig["reliability"]) == fig["cells"]
    assert 0 <= fig["ece"] <= 1 and fig["silent"] <= fig["wrong"]
    text = s.report("check", fig)
    assert "right after review" in text and "[0.97, 1.00)" in text
    s.save(check_recs, tmp_path / "r.npy")
    assert len(s.load(tmp_path / "r.npy")) == 2
