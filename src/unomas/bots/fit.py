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


CLIP = 0.2
"""How far one improvement step may move the chance of a recorded decision (PPO's clip)."""
ENTROPY = 0.01
"""The weight of the moves' entropy in the improvement's loss: it keeps the network trying
moves other than its favourite."""
TRACE = 0.8
"""How much of the following decisions' advantages each decision's takes (GAE's lambda):
1 credits every decision with the round's result alone, lower trusts the value head more
(less noise, more bias)."""


def advantages(values: np.ndarray[Any, Any], won: np.ndarray[Any, Any], episodes: np.ndarray[Any, Any]) -> Any:
    """Each decision's advantage (generalised advantage estimation, no discount): the
    differences between the value of the seat's next decision in the round (or, after its
    last, whether it won) and this one's, summed forward with weights falling by
    :data:`TRACE` per decision. ``episodes`` names each decision's round and seat; a seat's
    decisions are in the order it made them."""
    out = np.zeros(len(won), dtype=np.float32)
    order = np.lexsort((np.arange(len(episodes)), episodes))
    following = 0.0
    for position in range(len(order) - 1, -1, -1):
        index = order[position]
        last = position == len(order) - 1 or episodes[order[position + 1]] != episodes[index]
        after = won[index] if last else values[order[position + 1]]
        following = after - values[index] + (0.0 if last else TRACE * following)
        out[index] = following
    return out


def improvement_step(
    model: PolicyValue,
    optimiser: torch.optim.Optimizer,
    data: dict[str, torch.Tensor],
    *,
    generator: torch.Generator,
    passes: int = 3,
    batch_size: int = 2048,
) -> dict[str, float]:
    """One step of proximal policy optimisation on the decisions the network made in an
    iteration's rounds (see :func:`unomas.bots.train.explore`), with the :func:`advantages`
    of the network's values, normalised; the value head learns the results. The mean
    losses, entropy and change of the chances."""
    with torch.no_grad():
        values = torch.sigmoid(model(data["features"])[2]).numpy()
    advantage = torch.from_numpy(advantages(values, data["won"].numpy(), data["episodes"].numpy()))
    advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
    count = len(data["won"])
    sums = {"policy": 0.0, "value": 0.0, "entropy": 0.0, "change": 0.0}
    steps = 0
    for _ in range(passes):
        shuffled = torch.randperm(count, generator=generator)
        for start in range(0, count, batch_size):
            index = shuffled[start : start + batch_size]
            moves, colors, value = model(data["features"][index])
            open_moves = data["masks"][index]
            move_logs = torch.log_softmax(moves.masked_fill(~open_moves, -1e9), dim=-1)
            chance = move_logs.gather(1, data["moves"][index, None]).squeeze(1)
            color_logs = torch.log_softmax(colors.masked_fill(~data["color_masks"][index], -1e9), dim=-1)
            named = data["colors"][index]
            color_chance = color_logs.gather(1, named.clamp(min=0)[:, None]).squeeze(1)
            chance = chance + torch.where(named >= 0, color_chance, torch.zeros_like(color_chance))
            ratio = torch.exp(chance - torch.log(data["chances"][index]))
            gain = advantage[index]
            policy = -torch.min(ratio * gain, ratio.clamp(1 - CLIP, 1 + CLIP) * gain).mean()
            entropy = -(move_logs.exp() * move_logs.masked_fill(~open_moves, 0.0)).sum(-1).mean()
            value_loss = nn.functional.binary_cross_entropy_with_logits(value, data["won"][index])
            loss = policy + 0.5 * value_loss - ENTROPY * entropy
            optimiser.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimiser.step()
            for name, number in (("policy", policy), ("value", value_loss), ("entropy", entropy)):
                sums[name] += float(number.detach())
            sums["change"] += float((ratio.detach() - 1).abs().mean())
            steps += 1
    return {name: total / max(steps, 1) for name, total in sums.items()}


def improve(
    out: Path,
    play: Callable[[int, Path], dict[str, Any]],
    *,
    seed: int,
    iterations: int,
    hidden: list[int],
    report: Callable[[int, dict[str, float]], None],
    lr: float = 3e-4,
) -> None:
    """Stage 3: ``iterations`` improvement steps from the fitted network
    (``out/checkpoint.pt``), or from ``out/improve.pt`` where a stopped run left it. Each
    iteration ``play(iteration, weights)`` plays rounds with the weights written to
    ``out/learned.npz`` and gives its decisions for :func:`improvement_step`."""
    torch.set_num_threads(1)
    model = PolicyValue(hidden)
    optimiser = torch.optim.Adam(model.parameters(), lr=lr)
    checkpoint = out / "improve.pt"
    start = 0
    if checkpoint.exists():
        state = torch.load(checkpoint)
        optimiser.load_state_dict(state["optimiser"])
        start = state["iteration"]
    else:
        state = torch.load(out / "checkpoint.pt")
    model.load_state_dict(state["model"])
    from rich.progress import Progress

    with Progress() as progress:
        task = progress.add_task("improving", total=iterations, completed=start)
        for iteration in range(start + 1, iterations + 1):
            weights = out / "learned.npz"
            np.savez_compressed(weights, **model.arrays())  # type: ignore[arg-type]
            data = {name: torch.from_numpy(array) for name, array in play(iteration, weights).items()}
            generator = torch.Generator().manual_seed(seed * 100_003 + iteration)
            figures = improvement_step(model, optimiser, data, generator=generator)
            figures["decisions"] = float(len(data["won"]))
            np.savez_compressed(weights, **model.arrays())  # type: ignore[arg-type]
            state = {"model": model.state_dict(), "optimiser": optimiser.state_dict(), "iteration": iteration}
            torch.save(state, checkpoint)
            report(iteration, figures)
            progress.advance(task)
