"""Fitting ``learned``'s network to self-play data with PyTorch (the ``train`` extra).

Called by :mod:`unomas.bots.train`. UNO plays the same with its colours renamed, so every
decision of a batch is seen under one of the 24 renamings of the colours, drawn at random
(the cards, the colour in play, the colours each opponent lacks, the moves and the colour
named): 24 times the data for the price of the search's decisions once. One CPU thread,
every random draw from the seed; a checkpoint after every epoch (``checkpoint.pt``: weights, optimiser, epoch) lets a
stopped run go on where it stopped; ``learned.npz`` holds the weights in the names
:class:`unomas.bots.learned.Network` reads.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from unomas.bots.learned import FEATURES, MOVES, SEATS
from unomas.cards import KINDS, WILD

HELD_OUT = 0.05
"""The share of the decisions kept out of training, to watch for overfitting."""


class PolicyValue(nn.Module):
    """The network: ReLU layers, then the moves, colour and value heads."""

    def __init__(self, hidden: list[int]) -> None:
        super().__init__()
        sizes = [FEATURES, *hidden]
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in itertools.pairwise(sizes))
        self.moves = nn.Linear(sizes[-1], MOVES)
        self.color = nn.Linear(sizes[-1], 4)
        self.value = nn.Linear(sizes[-1], 1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        for layer in self.layers:
            x = torch.relu(layer(x))
        return self.moves(x), self.color(x), self.value(x).squeeze(-1)

    def arrays(self) -> dict[str, np.ndarray[Any, Any]]:
        """The weights under the names of the NumPy network."""
        named: dict[str, nn.Linear] = {f"hidden{i}": layer for i, layer in enumerate(self.layers)}  # type: ignore[misc]
        named |= {"moves": self.moves, "color": self.color, "value": self.value}
        out: dict[str, np.ndarray[Any, Any]] = {}
        for name, layer in named.items():
            out[f"{name}.weight"] = layer.weight.detach().numpy().astype(np.float32)
            out[f"{name}.bias"] = layer.bias.detach().numpy().astype(np.float32)
        return out


def renamings() -> dict[str, torch.Tensor]:
    """For each of the 24 renamings of the colours, the index of the number each feature,
    move and colour of a renamed decision is taken from (a ``(24, length)`` tensor each)."""
    features, moves, colors = [], [], []
    for order in itertools.permutations(range(4)):
        back = [order.index(c) for c in range(4)]  # the colour each renamed colour was

        def kind(k: int, back: list[int] = back) -> int:
            return k if k >= WILD else back[k // 13] * 13 + k % 13

        feature = [block * KINDS + kind(k) for block in range(5) for k in range(KINDS)]
        feature += [5 * KINDS + back[c] for c in range(4)]
        at = 5 * KINDS + 4
        feature += list(range(at, at + 8 + 3 * SEATS))
        at += 8 + 3 * SEATS
        feature += [at + 4 * seat + back[c] for seat in range(SEATS) for c in range(4)]
        feature += list(range(at + 4 * SEATS, FEATURES))
        features.append(feature)
        moves.append([kind(k) for k in range(KINDS)] + list(range(KINDS, MOVES)))
        colors.append(back)
    return {
        "features": torch.tensor(features),
        "masks": torch.tensor(moves),
        "moves": torch.tensor(moves),
        "colors": torch.tensor(colors),
    }


def renamed(
    batch: dict[str, torch.Tensor], index: torch.Tensor, table: dict[str, torch.Tensor]
) -> dict[str, torch.Tensor]:
    """``batch`` with each decision's colours renamed by the renaming ``index`` gives it."""
    out = dict(batch)
    for name, sources in table.items():
        out[name] = batch[name].gather(1, sources[index])
    return out


def losses(model: PolicyValue, batch: dict[str, torch.Tensor]) -> torch.Tensor:
    """The summed losses of a batch: moves and colours (cross entropy with the search's
    visit shares), the result (logistic)."""
    moves, colors, value = model(batch["features"])
    moves = moves.masked_fill(~batch["masks"], -1e9)
    move_loss = -(batch["moves"] * torch.log_softmax(moves, dim=-1)).sum(-1).mean()
    has_color = batch["colors"].sum(-1) > 0
    color_loss = torch.zeros(())
    if bool(has_color.any()):
        color_loss = -(batch["colors"][has_color] * torch.log_softmax(colors[has_color], dim=-1)).sum(-1).mean()
    value_loss = nn.functional.binary_cross_entropy_with_logits(value, batch["won"])
    return move_loss + color_loss + value_loss


def fit(
    out: Path,
    data: dict[str, Any],
    *,
    seed: int,
    epochs: int,
    hidden: list[int],
    report: Callable[[int, float, float], None],
    batch_size: int = 256,
    lr: float = 1e-3,
) -> None:
    """Train on ``data`` (see :func:`unomas.bots.train.load`), from ``out/checkpoint.pt`` if there."""
    torch.set_num_threads(1)
    torch.manual_seed(seed)
    tensors = {name: torch.from_numpy(data[name]) for name in ("features", "masks", "moves", "colors", "won")}
    count = len(tensors["won"])
    order = torch.randperm(count, generator=torch.Generator().manual_seed(seed))
    cut = int(count * HELD_OUT)
    held = {name: t[order[:cut]] for name, t in tensors.items()}
    train = {name: t[order[cut:]] for name, t in tensors.items()}
    table = renamings()
    model = PolicyValue(hidden)
    optimiser = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=1e-5)
    start = 0
    checkpoint = out / "checkpoint.pt"
    if checkpoint.exists():
        state = torch.load(checkpoint)
        model.load_state_dict(state["model"])
        optimiser.load_state_dict(state["optimiser"])
        start = state["epoch"]
    from rich.progress import Progress

    size = count - cut
    with Progress() as progress:
        task = progress.add_task("fitting", total=epochs, completed=start)
        for epoch in range(start + 1, epochs + 1):
            model.train()
            total = 0.0
            batches = 0
            draws = torch.Generator().manual_seed(seed * 100_003 + epoch)
            shuffled = torch.randperm(size, generator=draws)
            names = torch.randint(len(table["colors"]), (size,), generator=draws)
            for start_at in range(0, size, batch_size):
                index = shuffled[start_at : start_at + batch_size]
                batch = renamed(
                    {name: t[index] for name, t in train.items()}, names[start_at : start_at + batch_size], table
                )
                loss = losses(model, batch)
                optimiser.zero_grad()
                loss.backward()  # type: ignore[no-untyped-call]
                optimiser.step()
                total += float(loss.detach())
                batches += 1
            model.eval()
            with torch.no_grad():
                held_out = float(losses(model, held)) if cut else 0.0
            np.savez_compressed(out / "learned.npz", **model.arrays())  # type: ignore[arg-type]
            torch.save({"model": model.state_dict(), "optimiser": optimiser.state_dict(), "epoch": epoch}, checkpoint)
            report(epoch, total / max(batches, 1), held_out)
            progress.advance(task)
