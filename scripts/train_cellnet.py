"""Train the cell model (`vision/cellnet.py`) on patches harvested by `scripts/cellnet_data.py`.

    python scripts/train_cellnet.py DATA.npz [DATA.npz …] --out vision/data/cellnet.npz [--epochs 8]
                                    [--val VAL.npz …] [--hold-gen photogen2] [--max-per-gen N]

Needs PyTorch (training only: `pip install torch==2.13.0`, the CPU build; the shipped model runs on NumPy).
`--hold-gen G` leaves generator G out of training, to measure how the model does on a generator it never saw.
Prints per-epoch loss and, for each `--val` file, accuracy per generator, kind and style; the temperature that
best calibrates the probabilities on the first `--val` file is stored with the weights.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts.cellnet_data import CLASSES, SCALE  # noqa: E402  (patches are stored as patch × SCALE)

# (in, out, kernel, stride, pool after)
PLAN = ((3, 16, 5, 2, False), (16, 32, 3, 1, True), (32, 64, 3, 1, False), (64, 64, 3, 1, True),
        (64, 96, 3, 1, False))


def load(paths: list[Path], hold_gen: str | None = None, keep_gen: str | None = None) -> dict:
    parts = []
    for p in paths:
        with np.load(p, allow_pickle=False) as z:
            d = {k: z[k] for k in z.files}
        sel = np.ones(len(d["y"]), bool)
        if hold_gen:
            sel &= d["gen"] != hold_gen
        if keep_gen:
            sel &= d["gen"] == keep_gen
        parts.append({k: v[sel] for k, v in d.items()})
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def build(torch, outputs: int = 6):
    """The network of PLAN with `outputs` values out (6 class logits; `scripts/train_cellsim.py`: a likeness vector)."""
    nn = torch.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.convs = nn.ModuleList()
            self.bns = nn.ModuleList()
            for cin, cout, k, s, _ in PLAN:
                self.convs.append(nn.Conv2d(cin, cout, k, s, k // 2, bias=False))
                self.bns.append(nn.BatchNorm2d(cout))
            self.fc = nn.Linear(PLAN[-1][1], outputs)
            self.drop = nn.Dropout(0.2)

        def forward(self, x):
            x = x - 1.0  # paper at 0, as vision.cellnet.forward
            for conv, bn, (_, _, _, _, pool) in zip(self.convs, self.bns, PLAN, strict=True):
                x = torch.relu(bn(conv(x)))
                if pool:
                    x = torch.nn.functional.max_pool2d(x, 2)
            e = x.mean(dim=(2, 3))
            return self.fc(self.drop(e)), e

    return Net()


def augment(torch, x):
    """Light and camera variation the generators may not cover: white balance, exposure, contrast, noise, shift."""
    n = x.shape[0]
    gains = 1 + 0.06 * torch.randn(n, 3, 1, 1)
    bright = torch.empty(n, 1, 1, 1).uniform_(0.82, 1.12)
    x = x * gains * bright
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    x = (x - mean) * torch.empty(n, 1, 1, 1).uniform_(0.8, 1.2) + mean
    x = x + 0.02 * torch.randn_like(x)
    # Every hand draws a little turned, bigger or smaller, and the grid is placed a little off: a random
    # similarity (turn ±12°, scale 0.88–1.12, shift ±6 % of the patch) of each patch, paper beyond its edge.
    ang = torch.empty(n).uniform_(-0.21, 0.21)
    sc = torch.empty(n).uniform_(0.88, 1.12)
    theta = torch.zeros(n, 2, 3)
    theta[:, 0, 0] = torch.cos(ang) * sc
    theta[:, 0, 1] = -torch.sin(ang) * sc
    theta[:, 1, 0] = torch.sin(ang) * sc
    theta[:, 1, 1] = torch.cos(ang) * sc
    theta[:, :, 2] = torch.empty(n, 2).uniform_(-0.12, 0.12)
    grid = torch.nn.functional.affine_grid(theta, list(x.shape), align_corners=False)
    x = torch.nn.functional.grid_sample(x - 1.0, grid, padding_mode="border", align_corners=False) + 1.0
    return x.clamp(0, 1.5)


def to_tensor(torch, xb: np.ndarray):
    return torch.from_numpy(xb.astype(np.float32) / SCALE).permute(0, 3, 1, 2).contiguous()


def export(torch, net, out: Path, temperature: float) -> None:
    """Fold batch norm into the convolutions and write the NumPy model (`vision.cellnet.forward`)."""
    arrays = {}
    for i, (conv, bn) in enumerate(zip(net.convs, net.bns, strict=True)):
        w = conv.weight.detach().double()
        g = (bn.weight / torch.sqrt(bn.running_var + bn.eps)).detach().double()
        wf = w * g[:, None, None, None]
        bf = (bn.bias.detach().double() - bn.running_mean.detach().double() * g)
        arrays[f"w{i}"] = wf.permute(2, 3, 1, 0).numpy().astype(np.float32)
        arrays[f"b{i}"] = bf.numpy().astype(np.float32)
    arrays["fc_w"] = net.fc.weight.detach().T.numpy().astype(np.float32)
    arrays["fc_b"] = net.fc.bias.detach().numpy().astype(np.float32)
    arrays["plan"] = np.array([(s, int(p)) for _, _, _, s, p in PLAN], np.int32)
    arrays["temperature"] = np.float32(temperature)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, **arrays)


def logits_of(torch, net, x: np.ndarray) -> np.ndarray:
    net.eval()
    out = []
    with torch.no_grad():
        for k in range(0, len(x), 1024):
            out.append(net(to_tensor(torch, x[k : k + 1024]))[0].numpy())
    return np.concatenate(out)


def fit_temperature(logits: np.ndarray, y: np.ndarray) -> float:
    best, best_t = np.inf, 1.0
    for t in np.arange(0.5, 3.01, 0.05):
        z = logits / t
        z = z - z.max(1, keepdims=True)
        nll = -(z[np.arange(len(y)), y] - np.log(np.exp(z).sum(1))).mean()
        if nll < best:
            best, best_t = nll, float(t)
    return best_t


def report(name: str, d: dict, pred: np.ndarray, conf: np.ndarray) -> None:
    ok = pred == d["y"]
    print(f"== {name}: {ok.mean() * 100:.2f} % of {len(ok)} cells; silent (wrong, p >= 0.7) "
          f"{((~ok) & (conf >= 0.7)).mean() * 100:.2f} % of cells, {((~ok) & (conf >= 0.7)).sum()}/{(~ok).sum()} "
          f"of wrong")
    for key in ("gen", "kind", "style", "difficulty"):
        vals = sorted(set(d[key].tolist()))
        print(f"   {key}: " + ", ".join(f"{v} {ok[d[key] == v].mean() * 100:.1f}" for v in vals))

    cm = np.zeros((6, 6), int)
    np.add.at(cm, (d["y"], pred), 1)
    print("   confusion (rows truth, cols read):", " ".join(c[:3] for c in CLASSES))
    for i, c in enumerate(CLASSES):
        print(f"   {c:8}", " ".join(f"{v:6d}" for v in cm[i]))


def load_member(torch, net, path: Path, member: int, with_head: bool = True) -> None:
    """Start `net` from a shipped model (`vision.cellnet`'s folded arrays, model `member` of the file).

    The file holds the convolutions with batch norm folded in, so each batch norm starts as the identity
    (mean 0, variance 1, scale 1, shift the folded bias) and the convolutions take the folded weights."""
    from scripts.join_cellnet import load_models

    m = load_models([Path(f"{path}:{member}")])[0]
    with torch.no_grad():
        for i, (conv, bn) in enumerate(zip(net.convs, net.bns, strict=True)):
            conv.weight.copy_(torch.from_numpy(m[f"w{i}"]).permute(3, 2, 0, 1))
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(m[f"b{i}"]))
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
        if with_head:  # without: a new last layer (scripts/train_cellsim.py keeps only the convolutions)
            net.fc.weight.copy_(torch.from_numpy(m["fc_w"]).T)
            net.fc.bias.copy_(torch.from_numpy(m["fc_b"]))


def train(torch, x: np.ndarray, y: np.ndarray, epochs: int, batch: int = 256, lr: float = 3e-3, log=print,
          init: tuple[Path, int] | None = None):
    """The network trained on patches `x` (n, S, S, 3 uint8, as harvested) with classes `y`.

    With `init` (a model file and the member in it) training goes on from that model: its batch norms stay
    frozen (they were folded into the convolutions; batch statistics would undo them)."""
    n = len(y)
    counts = np.bincount(y, minlength=6).astype(float)
    cw = torch.tensor((counts.sum() / np.maximum(counts, 1) / 6) ** 0.5, dtype=torch.float32)
    net = build(torch)
    if init is not None:
        load_member(torch, net, *init)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    steps = epochs * ((n + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    lossf = torch.nn.CrossEntropyLoss(weight=cw, label_smoothing=0.03)
    y_all = torch.from_numpy(y.astype(np.int64))
    for ep in range(epochs):
        net.train()
        if init is not None:
            for bn in net.bns:
                bn.eval()
        t0 = time.time()
        order = np.random.permutation(n)
        tot = 0.0
        for k in range(0, n, batch):
            idx = order[k : k + batch]
            logits, _ = net(augment(torch, to_tensor(torch, x[idx])))
            loss = lossf(logits, y_all[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += float(loss.detach()) * len(idx)
        log(f"epoch {ep + 1}: loss {tot / n:.4f} ({time.time() - t0:.0f} s)")
    net.eval()
    return net


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", type=Path, nargs="+")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--val", type=Path, nargs="*", default=[])
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--hold-gen", default=None)
    ap.add_argument("--max", type=int, default=0, help="at most this many training patches (0: all)")
    ap.add_argument("--max-per-gen", type=int, default=0, help="at most this many patches of each generator")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--init", type=Path, default=None, help="go on training a shipped model file (see --member)")
    ap.add_argument("--member", type=int, default=0, help="which model of --init's file")
    args = ap.parse_args(argv)
    import torch

    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    torch.set_num_threads(args.threads)
    d = load(args.data, hold_gen=args.hold_gen)
    if args.max_per_gen:  # as many patches of each generator, so that no one generator's hand dominates
        rng = np.random.default_rng(args.seed)
        sel = np.concatenate([rng.permutation(np.nonzero(d["gen"] == g)[0])[: args.max_per_gen]
                              for g in sorted(set(d["gen"].tolist()))])
        d = {k: v[np.sort(sel)] for k, v in d.items()}
    if args.max and len(d["y"]) > args.max:
        sel = np.random.default_rng(args.seed).choice(len(d["y"]), args.max, replace=False)
        d = {k: v[sel] for k, v in d.items()}
    print(f"training on {len(d['y'])} patches; per class {np.bincount(d['y'], minlength=6).tolist()}", flush=True)
    net = train(torch, d["x"], d["y"], args.epochs, args.batch, args.lr,
                init=None if args.init is None else (args.init, args.member))
    temperature = 1.0
    for i, vp in enumerate(args.val):
        v = load([vp])
        lg = logits_of(torch, net, v["x"])
        if i == 0:
            temperature = fit_temperature(lg, v["y"].astype(int))
            print(f"temperature {temperature:.2f} (fitted on {vp.name})")
        z = lg / temperature
        p = np.exp(z - z.max(1, keepdims=True))
        p /= p.sum(1, keepdims=True)
        report(vp.name, v, p.argmax(1), p.max(1))
    export(torch, net, args.out, temperature)
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
