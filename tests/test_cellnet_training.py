"""The cell model's training chain on a small set, as CI runs it: patches harvested from generated photos
(scripts/cellnet_data.py), a network trained and exported (scripts/train_cellnet.py) whose NumPy forward pass
(vision.cellnet) gives the trained network's numbers, and the calibration fitted on photos read by the whole
reader (scripts/calibrate_cellnet.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scripts import calibrate_cellnet, cellnet_data, train_cellnet
from vision import cellnet
from vision.cellpatch import PATCH

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def harvested():
    jobs = [("photogen2", ("generic", "marker", "normal", 7)), ("photogen2", ("generic", "graphite", "normal", 8)),
            ("synthphoto", (70_001, 0))]
    parts = [cellnet_data.harvest((gen, job, 0.05)) for gen, job in jobs]
    parts = [p for p in parts if p is not None]
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def test_harvest_labels_every_drawable_cell(harvested):
    x, y = harvested["x"], harvested["y"]
    assert x.shape[1:] == (PATCH, PATCH, 3) and x.dtype == np.uint8
    assert len(x) == len(y) and 3 * 100 < len(y) <= 3 * 121
    assert set(np.unique(y)) <= set(range(6))
    # paper is stored at 170 (1.5 × paper = 255): a blank cell's middle is near it
    blank = x[y == 0][:, PATCH // 2 - 3 : PATCH // 2 + 3, PATCH // 2 - 3 : PATCH // 2 + 3]
    assert abs(float(np.median(blank)) - cellnet_data.SCALE) < 30


def test_training_exports_a_model_the_numpy_reader_runs_exactly(harvested, tmp_path):
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    net = train_cellnet.train(torch, harvested["x"], harvested["y"].astype(int), epochs=1, batch=64,
                              log=lambda *_: None)
    out = tmp_path / "cellnet.npz"
    train_cellnet.export(torch, net, out, temperature=1.3)
    x = harvested["x"][:40]
    want = train_cellnet.logits_of(torch, net, x)
    m = cellnet._model(str(out))
    got, emb = cellnet.forward(m, x.astype(np.float32) / cellnet_data.SCALE)
    assert np.allclose(got, want, atol=1e-3)
    assert emb.shape == (40, train_cellnet.PLAN[-1][1])
    probs, _ = cellnet.predict(x.astype(np.float32) / cellnet_data.SCALE, out)
    assert np.allclose(probs.sum(1), 1)
    assert out.stat().st_size < 5 * 1024 * 1024


def test_training_goes_on_from_a_shipped_model(harvested, tmp_path):
    """`--init`: the net starts as the shipped model (its folded batch norms as identities, the numbers the NumPy
    reader gives), and training on from it keeps the batch norms frozen: the exported model is again one the
    NumPy reader runs exactly, and it is the shipped one moved a little, not one started afresh."""
    torch = pytest.importorskip("torch")
    shipped = cellnet.members(cellnet._model())[1]
    x = harvested["x"][:40]
    start = train_cellnet.build(torch)
    train_cellnet.load_member(torch, start, cellnet.MODEL_PATH, 1)
    start.eval()
    ref, _ = cellnet.forward(shipped, x.astype(np.float32) / cellnet_data.SCALE)
    assert np.allclose(train_cellnet.logits_of(torch, start, x), ref, atol=1e-3)
    torch.manual_seed(0)
    net = train_cellnet.train(torch, harvested["x"], harvested["y"].astype(int), epochs=1, batch=64, lr=1e-4,
                              log=lambda *_: None, init=(cellnet.MODEL_PATH, 1))
    assert all(float(bn.running_mean.abs().max()) == 0.0 for bn in net.bns)  # frozen: never updated
    out = tmp_path / "cellnet.npz"
    train_cellnet.export(torch, net, out, temperature=1.0)
    got, _ = cellnet.forward(cellnet._model(str(out)), x.astype(np.float32) / cellnet_data.SCALE)
    assert np.allclose(got, train_cellnet.logits_of(torch, net, x), atol=1e-3)
    moved = np.abs(got - ref).max()
    assert 0 < moved < 0.5 * np.abs(ref).max()


def test_temperature_is_the_one_that_fits_best():
    rng = np.random.default_rng(1)
    z = rng.normal(0, 2, (3000, 6))  # calibrated logits: the classes are drawn from their softmax
    p = np.exp(z) / np.exp(z).sum(1, keepdims=True)
    y = np.array([rng.choice(6, p=row) for row in p])
    assert 0.85 <= train_cellnet.fit_temperature(z, y) <= 1.15
    assert 2.6 <= train_cellnet.fit_temperature(z * 3.0, y) <= 3.01  # over-confident by 3: divided back


def test_calibration_fits_on_read_photos_and_writes_a_model(tmp_path, monkeypatch, capsys):
    pytest.importorskip("sklearn")
    jobs = [("photogen2", ("generic", s, "normal", 30_000 + i)) for i, s in enumerate(("marker", "pencil", "marker"))]
    monkeypatch.setattr(calibrate_cellnet, "_job_list", lambda args: jobs)
    out = tmp_path / "cal.json"
    assert calibrate_cellnet.main(["--out", str(out), "--procs", "1"]) == 0
    model = json.loads(out.read_text())
    assert tuple(model["features"]) == calibrate_cellnet.CAL_FEATURES
    assert len(model["coef"]) == len(model["features"])
    text = capsys.readouterr().out
    assert "calibrated: silent" in text and "right" in text


def test_the_yardstick_generator_is_never_harvested(tmp_path, capsys):
    """photogen5 is kept as the one generator no model learnt from: the harvester refuses it."""
    with pytest.raises(SystemExit):
        cellnet_data.main([str(tmp_path / "x.npz"), "--gen", "photogen5", "--n", "1"])
    assert "photogen5" in capsys.readouterr().err


def test_likeness_training_chain_exports_what_it_trained(harvested, tmp_path):
    """scripts/train_cellsim.py: a few batches of photos and unseen symbols, exported; vision.cellsim's NumPy
    forward pass gives the trained network's unit vectors."""
    torch = pytest.importorskip("torch")
    from scripts import train_cellsim
    from vision import cellsim

    torch.manual_seed(0)
    d = {k: np.concatenate([v, v]) for k, v in harvested.items()}  # each photo's cells twice: a batch's worth
    net = train_cellsim.train(torch, d, epochs=1, per_sheet=12, sheets_per_batch=2, lr=1e-3, init=None,
                              steps_per_epoch=3, designs=1)
    out = tmp_path / "sim.npz"
    train_cellsim.export(torch, net, out, 1.0)
    x = harvested["x"][:16]
    want = train_cellsim.vectors(torch, net, x)
    got = cellsim.vectors(x.astype(np.float32) / cellnet_data.SCALE, out)
    assert got.shape == (16, train_cellsim.DIM)
    assert np.allclose(np.linalg.norm(got, axis=1), 1, atol=1e-4)
    assert np.abs(got - want).max() < 1e-3

