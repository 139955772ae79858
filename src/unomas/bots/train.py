"""Training ``learned``: imitate a teacher's decisions in self-play, then learn from results, from a seed.

    unomas train --out runs/learned --seed 0 [--teacher heuristic] [--games 600] [--epochs 20] [--workers 2]
                 [--improve 40] [--improve-rounds 4000]
    python -m unomas.bots.train --out runs/learned ...  (the same options)

Three stages, each resumable (run the same command again after a stop):

1. **Self-play data**: ``--games`` single rounds, every seat ``ismcts`` at ``--iterations``,
   each at a table drawn from the seed (2 to 10 players, weighted to 2 and 4, or the
   ``--players`` counts; official rules, every house rule, or a random mix). At every
   decision with a choice it records :func:`~unomas.bots.learned.features`, the moves open,
   the share of the search's visits each move got (and each colour, for a wild), and, once
   the round is over, whether that seat won; a round past :data:`LONGEST_ROUND` decisions
   is left out. With ``--teacher heuristic`` every seat is ``heuristic`` without slips,
   and the target is the move and colour it chose. Chunks of ``--chunk`` games are written
   to ``OUT/data/`` as they finish, by ``--workers`` processes.
2. **Fitting** (PyTorch, the ``train`` extra): the network learns the visit shares (cross
   entropy), the colours and the result (logistic loss), ``--epochs`` passes. After every
   epoch a checkpoint (``OUT/checkpoint.pt``) and the weights in NumPy form
   (``OUT/learned.npz``, what the bot reads); every ``--eval-every`` epochs it plays
   ``--eval-rounds`` two-player rounds against ``heuristic`` and writes the learning curve
   (``OUT/log.jsonl``, and ``OUT/curve.png`` with matplotlib).

3. **Improvement** (``--improve N``, none by default): the fitted network plays
   ``--improve-rounds`` rounds an iteration, sampling its moves, at tables drawn as in
   stage 1: against ``heuristic`` in every other seat, or (a share of
   :data:`SELF_PLAY_SHARE`) against itself. It then learns from the rounds' results by
   proximal policy optimisation (:func:`unomas.bots.fit.improvement_step`), so it can go
   past its teacher. After every iteration a checkpoint (``OUT/improve.pt``) and
   ``OUT/learned.npz``; an evaluation every ``--eval-every`` iterations.

Everything is drawn from ``--seed``, and the search's budget is in iterations, so the
same command makes the same data; PyTorch on one thread makes the same network.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from unomas.actions import Action, Kind
from unomas.bots.base import Bot
from unomas.bots.guided import GuidedNode
from unomas.bots.heuristic import HeuristicBot
from unomas.bots.ismcts import IsmctsBot
from unomas.bots.learned import FEATURES, INPUT_SWITCHES, MOVES, SEATS, LearnedBot, features, move_of, pick_variant
from unomas.bots.search import Node, turn_candidates
from unomas.errors import BotError, SettingsError
from unomas.position import Phase
from unomas.rules import Rules
from unomas.view import View

TRAIN_INSTALL = "pip install 'unomas[train]'"
"""What installs the fitting's library (PyTorch)."""

PLAYER_COUNTS = (2, 2, 2, 2, 3, 4, 4, 4, 5, 6, 8, 10)
"""The player counts of the self-play tables, drawn uniformly from this list."""

LONGEST_ROUND = 1000
"""Decisions after which a self-play round is left out of the data. Rounds that long (tables
of stacking and drawing until playable, where hands grow and the search cannot end the round)
would cost most of the time and teach little."""


class LongRound(Exception):
    """A self-play round went past :data:`LONGEST_ROUND` decisions."""


def table_rules(rng: random.Random, counts: Sequence[int] = PLAYER_COUNTS) -> Rules:
    """The rules of one self-play round: a player count drawn from ``counts``; official
    (half), all house rules (a quarter) or a random mix of switches; a single round
    (``target_score=0``)."""
    players = rng.choice(counts)
    kind = rng.random()
    if kind < 0.5:
        return Rules.preset("official", players=players, target_score=0)
    if kind < 0.75:  # every switch the network reads
        return Rules.preset("official", players=players, target_score=0, **dict.fromkeys(INPUT_SWITCHES, True))
    switches = {name: rng.random() < 0.5 for name in INPUT_SWITCHES}
    try:
        return Rules.preset("official", players=players, target_score=0, **switches)
    except SettingsError:  # a mix the rules refuse (a stacking switch without its base)
        return Rules.preset("official", players=players, target_score=0)


@dataclass
class Samples:
    """Recorded decisions: features, open moves, move and colour targets, seats, results."""

    features: list[list[float]] = field(default_factory=list)
    masks: list[list[bool]] = field(default_factory=list)
    moves: list[list[float]] = field(default_factory=list)
    colors: list[list[float]] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    won: list[float] = field(default_factory=list)


TEACHERS = ("ismcts", "heuristic")
"""Whose decisions the network learns: the search's visit shares, or ``heuristic``'s moves."""


def record(
    samples: Samples, view: View, seat: int, voids: dict[int, set[int]], moves: list[float], colors: list[float]
) -> None:
    """Add one decision to ``samples``: ``view``'s features, its open moves, and the teacher's
    weight on each move and colour (normalised here)."""
    mask = [False] * MOVES
    for action in view.legal_actions:
        move = move_of(action)
        if move is not None:
            mask[move] = True
    total = sum(moves)
    color_total = sum(colors)
    samples.features.append(features(view, voids))
    samples.masks.append(mask)
    samples.moves.append([v / total for v in moves])
    samples.colors.append([v / color_total for v in colors] if color_total else colors)
    samples.seats.append(seat)


class RecordingBot(IsmctsBot):
    """``ismcts`` that writes each search it makes into ``samples``: the share of the visits
    each move and colour got."""

    def __init__(self, samples: Samples, iterations: int) -> None:
        super().__init__(iterations=iterations, forget=0.0, miss=0.0)
        self.samples = samples

    def search(self, view: View) -> Node | GuidedNode:
        if len(self.samples.seats) >= LONGEST_ROUND:
            raise LongRound
        root = super().search(view)
        moves = [0.0] * MOVES
        colors = [0.0] * 4
        for action, child in root.children.items():
            move = move_of(action)
            if move is None:
                continue
            moves[move] += child.visits
            if action.color is not None:
                colors[action.color] += child.visits
        record(self.samples, view, self.seat, self.helper.voids, moves, colors)
        return root


class HeuristicRecordingBot(HeuristicBot):
    """``heuristic`` without slips, writing each turn decision with a choice (those
    ``ismcts`` would search) into ``samples``: the move and colour it chose, as the whole
    weight."""

    def __init__(self, samples: Samples) -> None:
        super().__init__(forget=0.0, miss=0.0)
        self.samples = samples

    def act(self, view: View) -> Action:
        chosen = super().act(view)
        move = move_of(chosen)
        call = any(a.kind is Kind.UNO or a.kind is Kind.CATCH for a in view.legal_actions)
        if move is None or call or view.phase is Phase.COLOR or len(turn_candidates(view.legal_actions)) == 1:
            return chosen
        if len(self.samples.seats) >= LONGEST_ROUND:
            raise LongRound
        moves = [0.0] * MOVES
        moves[move] = 1.0
        colors = [0.0] * 4
        if chosen.color is not None:
            colors[chosen.color] = 1.0
        record(self.samples, view, self.seat, self.voids, moves, colors)
        return chosen


class ExploringBot(LearnedBot):
    """``learned`` without slips that samples its moves (and a wild's colour) from the
    network's probabilities, writing each turn decision with a choice into ``trace``: the
    features, the moves and colours open, what it chose and the chance it had."""

    def __init__(self, trace: Trace, weights: str) -> None:
        super().__init__(weights=weights, forget=0.0, miss=0.0)
        self.trace = trace

    def choose(self, view: View, candidates: list[Action], moves: Any, colors: Any) -> Action:
        import numpy as np

        if len(self.trace.seats) >= LONGEST_ROUND:
            raise LongRound
        legal = sorted({m for m in map(move_of, candidates) if m is not None})
        move, chance = sample(self.rng, np.asarray([moves[m] for m in legal]))
        variants = [a for a in candidates if move_of(a) == legal[move]]
        named = sorted({a.color for a in variants if a.color is not None})
        color = -1
        if named:
            index, color_chance = sample(self.rng, np.asarray([colors[c] for c in named]))
            color, chance = named[index], chance * color_chance
            action = next(a for a in variants if a.color == color)
        else:
            action = pick_variant(view, candidates, legal[move], colors)
        mask = [False] * MOVES
        for open_move in legal:
            mask[open_move] = True
        self.trace.features.append(features(view, self.helper.voids))
        self.trace.masks.append(mask)
        self.trace.moves.append(legal[move])
        self.trace.color_masks.append([c in named for c in range(4)])
        self.trace.colors.append(color)
        self.trace.chances.append(chance)
        self.trace.seats.append(self.seat)
        return action


def sample(rng: random.Random, logits: Any) -> tuple[int, float]:
    """An index drawn from the softmax of ``logits``, and its probability."""
    import numpy as np

    weights = np.exp(logits - logits.max())
    shares = weights / weights.sum()
    index = min(int(np.searchsorted(np.cumsum(shares), rng.random(), side="right")), len(shares) - 1)
    return index, float(shares[index])


@dataclass
class Trace:
    """The decisions :class:`ExploringBot` made in rounds against ``heuristic`` and itself."""

    features: list[list[float]] = field(default_factory=list)
    masks: list[list[bool]] = field(default_factory=list)
    moves: list[int] = field(default_factory=list)
    color_masks: list[list[bool]] = field(default_factory=list)
    colors: list[int] = field(default_factory=list)
    chances: list[float] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    won: list[float] = field(default_factory=list)


SELF_PLAY_SHARE = 0.3
"""The share of the improvement's rounds where every seat is the network; in the others it
has every other seat and ``heuristic`` (with a person's slips or, a third of the time,
without) the rest."""


def explore_round(seed: str, weights: str, counts: Sequence[int]) -> Trace:
    """One round of the improvement stage (its table, seats and deal drawn from ``seed``):
    the network's decisions and whether each seat won; none past :data:`LONGEST_ROUND`."""
    rng = random.Random(seed)
    rules = table_rules(rng, counts)
    trace = Trace()
    everyone = rng.random() < SELF_PLAY_SHARE
    shift = rng.randrange(2)
    bots: list[Bot] = []
    for seat in range(rules.players):
        if everyone or (seat + shift) % 2 == 0:
            bots.append(ExploringBot(trace, weights))
        else:
            bots.append(HeuristicBot(forget=0.0, miss=0.0) if rng.random() < 1 / 3 else HeuristicBot())
    winner = play_out(rules, bots, seed)
    if winner is None:
        return Trace()
    trace.won = [1.0 if seat == winner else 0.0 for seat in trace.seats]
    return trace


def play_out(rules: Rules, bots: list[Bot], seed: str) -> int | None:
    """Play one seeded round of ``bots``: its winner's seat (-1 for none), or None when it
    went past :data:`LONGEST_ROUND` decisions."""
    from unomas.bots.player import BotPlayer
    from unomas.conductor import Conductor

    try:
        summary = Conductor.seeded(rules, [BotPlayer(bot) for bot in bots], seed=seed, history=False).play()
    except BotError as error:  # the conductor reports what a bot raised as its failure
        if isinstance(error.__cause__, LongRound):
            return None
        raise
    return summary.round_winners[0] if summary.round_winners else -1


def explore(seed: int, iteration: int, numbers: range, weights: str, counts: Sequence[int]) -> dict[str, Any]:
    """The rounds ``numbers`` of improvement ``iteration``, as arrays."""
    import numpy as np

    trace = Trace()
    episodes: list[int] = []  # a round's number and seat, for the advantages
    for number in numbers:
        one = explore_round(f"{seed}/improve {iteration}/{number}", weights, counts)
        for name in trace.__dataclass_fields__:
            getattr(trace, name).extend(getattr(one, name))
        episodes.extend(number * SEATS + seat for seat in one.seats)
    return {
        "features": np.asarray(trace.features, dtype=np.float32).reshape(-1, FEATURES),
        "masks": np.asarray(trace.masks, dtype=bool).reshape(-1, MOVES),
        "moves": np.asarray(trace.moves, dtype=np.int64),
        "color_masks": np.asarray(trace.color_masks, dtype=bool).reshape(-1, 4),
        "colors": np.asarray(trace.colors, dtype=np.int64),
        "chances": np.asarray(trace.chances, dtype=np.float32),
        "won": np.asarray(trace.won, dtype=np.float32),
        "episodes": np.asarray(episodes, dtype=np.int64),
    }


def play_round(seed: str, iterations: int, counts: Sequence[int] = PLAYER_COUNTS, teacher: str = "ismcts") -> Samples:
    """One self-play round (its rules and deal drawn from ``seed``), every seat the
    ``teacher``; its decisions, none if the round went past :data:`LONGEST_ROUND`."""
    rules = table_rules(random.Random(seed), counts)
    samples = Samples()
    bots: list[Bot] = [
        RecordingBot(samples, iterations) if teacher == "ismcts" else HeuristicRecordingBot(samples)
        for _ in range(rules.players)
    ]
    winner = play_out(rules, bots, seed)
    if winner is None:
        return Samples()
    samples.won = [1.0 if seat == winner else 0.0 for seat in samples.seats]
    return samples


def write_chunk(path: Path, seed: int, numbers: range, iterations: int, counts: Sequence[int], teacher: str) -> int:
    """Play the rounds ``numbers`` and write their decisions to ``path`` (through a partial
    file, so a stopped run never leaves half a chunk); the count of rounds."""
    import numpy as np

    samples = Samples()
    for number in numbers:
        one = play_round(f"{seed}/{number}", iterations, counts, teacher)
        for name in ("features", "masks", "moves", "colors", "seats", "won"):
            getattr(samples, name).extend(getattr(one, name))
    partial = path.with_suffix(".partial.npz")
    np.savez_compressed(
        partial,
        features=np.asarray(samples.features, dtype=np.float32).reshape(-1, FEATURES),
        masks=np.asarray(samples.masks, dtype=bool).reshape(-1, MOVES),
        moves=np.asarray(samples.moves, dtype=np.float32).reshape(-1, MOVES),
        colors=np.asarray(samples.colors, dtype=np.float32).reshape(-1, 4),
        won=np.asarray(samples.won, dtype=np.float32),
    )
    partial.rename(path)
    return len(numbers)


def generate(
    out: Path,
    seed: int,
    games: int,
    iterations: int,
    chunk: int,
    workers: int = 1,
    counts: Sequence[int] = PLAYER_COUNTS,
    teacher: str = "ismcts",
) -> list[Path]:
    """Stage 1: the self-play data in chunks under ``out/data`` (chunks already there are
    kept), ``workers`` processes at once, at tables of the player ``counts``. A chunk
    depends only on the seed and its rounds' numbers, so the data is the same for any
    number of workers."""
    from pebble import ProcessPool
    from rich.progress import Progress

    folder = out / "data"
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"chunk-{index:04d}.npz" for index in range((games + chunk - 1) // chunk)]
    jobs = {path: range(index * chunk, min(games, (index + 1) * chunk)) for index, path in enumerate(paths)}
    with Progress() as progress:
        task = progress.add_task("self-play", total=games)
        progress.advance(task, sum(len(numbers) for path, numbers in jobs.items() if path.exists()))
        missing = [(path, numbers) for path, numbers in jobs.items() if not path.exists()]
        if workers == 1:
            for path, numbers in missing:
                progress.advance(task, write_chunk(path, seed, numbers, iterations, counts, teacher))
        else:
            with ProcessPool(max_workers=workers) as pool:
                futures = [
                    pool.schedule(write_chunk, (path, seed, numbers, iterations, counts, teacher))
                    for path, numbers in missing
                ]
                for future in futures:
                    progress.advance(task, future.result())
    return paths


def load(paths: list[Path]) -> dict[str, Any]:
    """The chunks' arrays, joined."""
    import numpy as np

    parts = [dict(np.load(path)) for path in paths]
    return {name: np.concatenate([part[name] for part in parts]) for name in parts[0]}


def evaluate(weights: Path, rounds: int, seed: int) -> tuple[float, float, float]:
    """``learned`` at ``weights`` against ``heuristic``: two-player round win rate and interval."""
    from unomas.runs.tournament import run_tournament

    rules = Rules.preset("official", players=2, target_score=0)
    result = run_tournament(rules, [f"learned:weights={weights}", "heuristic"], rounds, seed=f"eval/{seed}")
    bot = result.bots[0]
    low, high = bot.round_win_interval
    return bot.round_win_rate, low, high


def plot(out: Path) -> None:
    """The learning curve from ``out/log.jsonl`` to ``out/curve.png`` (needs matplotlib):
    the fitting's losses and win rates by epoch, and the improvement's win rates by iteration."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [json.loads(line) for line in (out / "log.jsonl").read_text().splitlines()]
    fitting = [r for r in rows if "epoch" in r]
    improving = [r for r in rows if "iteration" in r]
    panels = 3 if improving else 2
    figure, axes = plt.subplots(1, panels, figsize=(5 * panels, 4))
    loss_axis = axes[0]
    loss_axis.plot([r["epoch"] for r in fitting], [r["loss"] for r in fitting], label="training loss")
    loss_axis.plot([r["epoch"] for r in fitting], [r["held_out"] for r in fitting], label="held-out loss")
    loss_axis.set_xlabel("epoch")
    loss_axis.legend()
    for axis, stage, key in ((axes[1], fitting, "epoch"), (axes[-1], improving, "iteration")):
        rated = [r for r in stage if "win_rate" in r]
        if not stage:
            continue
        axis.errorbar(
            [r[key] for r in rated],
            [r["win_rate"] for r in rated],
            yerr=[[r["win_rate"] - r["low"] for r in rated], [r["high"] - r["win_rate"] for r in rated]],
            fmt="o-",
        )
        axis.axhline(0.5, color="grey", linewidth=0.5)
        axis.set_xlabel(key if key == "epoch" else "improvement iteration")
        axis.set_ylabel("round win rate against heuristic (2 players)")
    figure.tight_layout()
    figure.savefig(out / "curve.png", dpi=100)
    plt.close(figure)


def main(argv: list[str] | None = None) -> None:
    """The command line (see the module's documentation)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True, help="folder for data, checkpoints, weights and plots")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", type=int, default=600, help="self-play rounds")
    parser.add_argument("--iterations", type=int, default=500, help="the search's iterations per decision")
    parser.add_argument("--chunk", type=int, default=10, help="rounds per data file")
    parser.add_argument("--workers", type=int, default=1, help="processes playing the self-play rounds")
    parser.add_argument("--teacher", choices=TEACHERS, default="ismcts", help="whose decisions the network learns")
    parser.add_argument(
        "--players", type=int, nargs="+", default=list(PLAYER_COUNTS), help="player counts of the tables, drawn evenly"
    )
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--hidden", type=int, nargs="+", default=[256, 256], help="hidden layer sizes")
    parser.add_argument("--eval-every", type=int, default=10, help="epochs between evaluations (0: never)")
    parser.add_argument("--eval-rounds", type=int, default=200)
    parser.add_argument("--improve", type=int, default=0, help="improvement iterations after the fitting")
    parser.add_argument("--improve-rounds", type=int, default=4000, help="rounds per improvement iteration")
    args = parser.parse_args(argv)
    train(
        args.out,
        seed=args.seed,
        games=args.games,
        iterations=args.iterations,
        chunk=args.chunk,
        workers=args.workers,
        counts=args.players,
        teacher=args.teacher,
        epochs=args.epochs,
        hidden=args.hidden,
        eval_every=args.eval_every,
        eval_rounds=args.eval_rounds,
        improvements=args.improve,
        improve_rounds=args.improve_rounds,
    )


def require_torch() -> None:
    """Refuse (``setup.no_train``) before any round is played when PyTorch, which the
    fitting needs, is not installed."""
    import importlib.util

    if importlib.util.find_spec("torch") is None:
        raise SettingsError("setup.no_train", install=TRAIN_INSTALL)


def train(
    out: Path,
    *,
    seed: int,
    games: int,
    iterations: int,
    chunk: int,
    epochs: int,
    hidden: list[int],
    workers: int = 1,
    counts: Sequence[int] = PLAYER_COUNTS,
    teacher: str = "ismcts",
    eval_every: int,
    eval_rounds: int,
    improvements: int = 0,
    improve_rounds: int = 4000,
) -> None:
    """The stages (see the module), each taken up where a stopped run left it."""
    if teacher not in TEACHERS:
        raise SettingsError("setup.bad_teacher", name=teacher, known=", ".join(TEACHERS))
    require_torch()
    paths = generate(out, seed, games, iterations, chunk, workers, counts, teacher)
    from unomas.bots.fit import fit, improve

    fit(out, load(paths), seed=seed, epochs=epochs, hidden=hidden, report=report(out, seed, eval_every, eval_rounds))
    if improvements:
        with exploration(seed, improve_rounds, chunk, workers, counts) as play:
            improve(
                out,
                play,
                seed=seed,
                iterations=improvements,
                hidden=hidden,
                report=improvement_report(out, seed, eval_every, eval_rounds),
            )


@contextlib.contextmanager
def exploration(
    seed: int, rounds: int, chunk: int, workers: int, counts: Sequence[int]
) -> Iterator[Callable[[int, Path], dict[str, Any]]]:
    """What the improvement stage calls each iteration: its ``rounds`` played in pieces of
    ``chunk`` by ``workers`` processes, their arrays joined in the pieces' order (so the
    same for any number of workers)."""
    import numpy as np
    from pebble import ProcessPool

    pieces = [range(start, min(rounds, start + chunk)) for start in range(0, rounds, chunk)]

    def joined(parts: list[dict[str, Any]]) -> dict[str, Any]:
        return {name: np.concatenate([part[name] for part in parts]) for name in parts[0]}

    if workers == 1:
        yield lambda iteration, weights: joined([explore(seed, iteration, p, str(weights), counts) for p in pieces])
        return
    with ProcessPool(max_workers=workers) as pool:

        def play(iteration: int, weights: Path) -> dict[str, Any]:
            futures = [pool.schedule(explore, (seed, iteration, p, str(weights), counts)) for p in pieces]
            return joined([future.result() for future in futures])

        yield play


def improvement_report(out: Path, seed: int, every: int, rounds: int) -> Callable[[int, dict[str, float]], None]:
    """What :func:`~unomas.bots.fit.improve` calls after each iteration (see :func:`log_step`)."""
    return lambda iteration, figures: log_step(
        out, seed, every, rounds, "improvement", {"iteration": iteration} | figures
    )


def report(out: Path, seed: int, every: int, rounds: int) -> Callable[[int, float, float], None]:
    """What :func:`~unomas.bots.fit.fit` calls after each epoch (see :func:`log_step`)."""
    return lambda epoch, loss, held_out: log_step(
        out, seed, every, rounds, "epoch", {"epoch": epoch, "loss": loss, "held_out": held_out}
    )


def log_step(out: Path, seed: int, every: int, rounds: int, stage: str, row: dict[str, float]) -> None:
    """Log one epoch's or improvement iteration's ``row`` (its number first) to
    ``out/log.jsonl``, with the win rate against ``heuristic`` over ``rounds`` rounds every
    ``every`` steps, and redraw the learning curve."""
    step = int(next(iter(row.values())))
    if every and step % every == 0:
        rate, low, high = evaluate(out / "learned.npz", rounds, seed)
        row = row | {"win_rate": rate, "low": low, "high": high}
        print(f"{stage} {step}: {rate:.1%} ({low:.1%}–{high:.1%}) against heuristic", flush=True)
    with (out / "log.jsonl").open("a") as log:
        log.write(json.dumps(row) + "\n")
    with contextlib.suppress(ImportError):
        plot(out)


if __name__ == "__main__":
    main()
