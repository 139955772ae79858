"""``learned``: a policy and value network, trained in self-play (``unomas train``), played in NumPy.

The network is a small multi-layer perceptron over :func:`features`, a vector of what the
seat knows (its hand, the top card, the colour in play, the cards seen played, every
hand's size in the order of play, the colours each opponent was seen to lack, the phase
and penalty) and of the table it plays at (the player count, 2 to 10, the hand size and
every house-rule switch), so that one network plays every setting. Its heads:

* **moves** (:data:`MOVES` outputs): which card kind to play, or draw, pass, challenge;
* **colour** (4): the colour to name with a wild card;
* **value** (1): the chance that the seat on turn wins the round.

A 7 under ``seven_zero`` swaps with the smallest other hand; a play that may call UNO calls
it (and forgets ``forget`` of the time). The starting colour, late UNO calls, catches and
jump-ins follow ``heuristic``, as ``ismcts`` does. ``temperature=0`` (the default) plays
the likeliest move; above 0 it samples the moves' softmax at that temperature.

The shipped network first imitated ``heuristic``, then learned from the results of rounds
against it and itself (:mod:`unomas.bots.train`). The weights ship inside the package
(``bots/weights/learned.npz``); ``weights=PATH``
plays another file written by ``unomas train``. NumPy loads only when the
bot is made.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from importlib import resources
from typing import TYPE_CHECKING, Any, Final

from unomas.actions import Action, Kind
from unomas.bots.base import Bot
from unomas.bots.heuristic import HeuristicBot
from unomas.bots.search import turn_candidates
from unomas.cards import COPIES, KINDS, WILD
from unomas.errors import SettingsError
from unomas.events import Event
from unomas.position import Phase
from unomas.rules import Rules
from unomas.view import View

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["FEATURES", "MOVES", "LearnedBot", "Network", "features", "move_of"]

DRAW: Final = KINDS
PASS: Final = KINDS + 1
CHALLENGE: Final = KINDS + 2
MOVES: Final = KINDS + 3
"""The moves head: a card kind to play (0–53), draw, pass, challenge."""
SEATS: Final = 10
INPUT_SWITCHES: Final = (
    "challenge_wild_draw_four",
    "stack_draw_two",
    "stack_draw_four",
    "stack_mixed",
    "seven_zero",
    "jump_in",
    "force_play_drawn",
    "draw_until_playable",
    "no_action_finish",
)
"""The switches the shipped network reads (those of RULES.md); the later house rules are not
inputs of it yet: it plays under them as it would without them."""

FEATURES: Final = 5 * KINDS + 4 + 4 + 4 + 3 * SEATS + 4 * SEATS + (SEATS - 1) + len(INPUT_SWITCHES) + 2
"""The length of :func:`features`' vector."""

SHIPPED: Final = "learned.npz"


def move_of(action: Action) -> int | None:
    """The move of the moves head an action is (None for calls, catches, colours)."""
    if action.kind is Kind.PLAY:
        return action.card
    return {Kind.DRAW: DRAW, Kind.PASS: PASS, Kind.CHALLENGE: CHALLENGE}.get(action.kind)


def features(view: View, voids: dict[int, set[int]]) -> list[float]:
    """What ``view``'s seat knows, as :data:`FEATURES` numbers (see the module); ``voids``:
    the colours each opponent was seen to lack (``heuristic``'s card counting).

    Seats are counted in the order of play from the observer (1: the next to play)."""
    seat = view.seat
    assert seat is not None
    rules = view.rules
    n = rules.players
    out = [0.0] * FEATURES
    for card in view.hand:
        out[card] += 0.5
    out[KINDS + view.top] = 1.0
    for card in view.discard:
        out[2 * KINDS + card] += 0.5
    if view.drawn is not None:
        out[3 * KINDS + view.drawn] = 1.0
    unseen = 4 * KINDS
    seen = [0] * KINDS
    for card in view.hand:
        seen[card] += 1
    for card in view.discard:
        seen[card] += 1
    for card in range(KINDS):
        out[unseen + card] = (COPIES[card] - seen[card]) / COPIES[card]
    at = 5 * KINDS
    if view.color is not None:
        out[at + view.color] = 1.0
    at += 4
    out[at + int(view.phase)] = 1.0
    at += 4
    out[at] = view.penalty / 8.0
    out[at + 1] = 1.0 if view.challengeable else 0.0
    out[at + 2] = view.pile_size / 50.0
    out[at + 3] = 1.0 if view.uno_pending is not None else 0.0
    at += 4
    sizes = view.hand_sizes
    for k in range(n):
        other = (seat + k * view.direction) % n
        size = sizes[other]
        out[at + k] = size / 10.0
        out[at + SEATS + k] = 1.0 if size == 1 else 0.0
        out[at + 2 * SEATS + k] = 1.0 if size == 2 else 0.0
        for color in voids.get(other, ()):
            out[at + 3 * SEATS + 4 * k + color] = 1.0
    at += 7 * SEATS
    out[at + n - 2] = 1.0
    at += SEATS - 1
    for index, name in enumerate(INPUT_SWITCHES):
        out[at + index] = 1.0 if getattr(rules, name) else 0.0
    at += len(INPUT_SWITCHES)
    out[at] = rules.hand_size / 10.0
    out[at + 1] = 1.0 if rules.target_score else 0.0
    return out


class Network:
    """The network's weights and its forward pass in NumPy (ReLU layers, then the heads)."""

    def __init__(self, arrays: dict[str, npt.NDArray[np.float32]]) -> None:
        import numpy as np

        self.np = np
        count = sum(1 for name in arrays if name.startswith("hidden") and name.endswith(".weight"))
        self.hidden = [(arrays[f"hidden{i}.weight"], arrays[f"hidden{i}.bias"]) for i in range(count)]
        self.heads = {name: (arrays[f"{name}.weight"], arrays[f"{name}.bias"]) for name in ("moves", "color", "value")}
        if self.hidden[0][0].shape[1] != FEATURES or self.heads["moves"][0].shape[0] != MOVES:
            raise SettingsError("setup.bad_weights", path="", reason="shape")

    @classmethod
    def load(cls, path: str | None = None) -> Network:
        """The network in the ``.npz`` file at ``path`` (None: the shipped weights)."""
        import numpy as np

        try:
            if path is None:
                with resources.files("unomas.bots.weights").joinpath(SHIPPED).open("rb") as stream:
                    data = np.load(stream)
                    return cls({name: data[name].astype(np.float32) for name in data.files})
            with np.load(path) as data:
                return cls({name: data[name].astype(np.float32) for name in data.files})
        except (OSError, ValueError, KeyError) as error:
            raise SettingsError("setup.bad_weights", path=repr(path), reason=type(error).__name__) from None

    def forward(self, vector: Sequence[float]) -> tuple[Any, Any, float]:
        """The moves' logits, the colours' logits and the value of one feature vector."""
        np = self.np
        x = np.asarray(vector, dtype=np.float32)
        for weight, bias in self.hidden:
            x = np.maximum(weight @ x + bias, 0.0)
        moves = self.heads["moves"][0] @ x + self.heads["moves"][1]
        colors = self.heads["color"][0] @ x + self.heads["color"][1]
        value = float((self.heads["value"][0] @ x + self.heads["value"][1])[0])
        return moves, colors, 1.0 / (1.0 + float(np.exp(-value)))


_CACHE: dict[tuple[str | None, int], Network] = {}


def network(path: str | None) -> Network:
    """The network at ``path`` (None: shipped), loaded once per process and version of the
    file (training rewrites it after every epoch)."""
    try:
        key = (path, 0 if path is None else os.stat(path).st_mtime_ns)
    except OSError:
        raise SettingsError("setup.bad_weights", path=repr(path), reason="FileNotFoundError") from None
    if key not in _CACHE:
        _CACHE[key] = Network.load(path)
    return _CACHE[key]


class LearnedBot(Bot):
    """The policy network's player (see the module's documentation)."""

    name = "learned"

    def __init__(
        self,
        temperature: float = 0.0,
        weights: str | None = None,
        forget: float | None = None,
        miss: float | None = None,
    ) -> None:
        super().__init__()
        if temperature < 0:
            raise SettingsError("setup.bad_temperature", value=repr(temperature))
        self.temperature = temperature
        self.network = network(weights)
        self.set_slips(forget, miss)
        self.helper = HeuristicBot(forget=self.forget, miss=self.miss)

    def start(self, seat: int, rules: Rules, rng: random.Random) -> None:
        super().start(seat, rules, rng)
        self.helper.start(seat, rules, rng)

    def observe(self, events: Sequence[Event]) -> None:
        self.helper.observe(events)

    def react(self, view: View) -> Action | None:
        return self.helper.react(view)

    def act(self, view: View) -> Action:
        call = next((a for a in view.legal_actions if a.kind is Kind.UNO or a.kind is Kind.CATCH), None)
        if view.phase is Phase.COLOR or call is not None:
            return self.helper.act(view)
        candidates = turn_candidates(view.legal_actions)
        if len(candidates) == 1:
            return self.slip_call(view, candidates[0])
        moves, colors, _ = self.network.forward(features(view, self.helper.voids))
        return self.slip_call(view, self.choose(view, candidates, moves, colors))

    def choose(self, view: View, candidates: list[Action], moves: Any, colors: Any) -> Action:
        """The candidate the network's logits pick (see :attr:`temperature`)."""
        np = self.network.np
        legal = sorted({m for m in map(move_of, candidates) if m is not None})
        logits = np.asarray([moves[m] for m in legal], dtype=np.float64)
        if self.temperature > 0:
            weights = np.exp((logits - logits.max()) / self.temperature)
            pick = self.rng.random() * float(weights.sum())
            index = int(np.searchsorted(np.cumsum(weights), pick, side="right"))
            move = legal[min(index, len(legal) - 1)]
        else:
            move = legal[int(np.argmax(logits))]
        return pick_variant(view, candidates, move, colors)


def pick_variant(view: View, candidates: list[Action], move: int, colors: Any) -> Action:
    """The action of ``move`` among ``candidates``: a wild names the colour of the highest
    ``colors`` logit, a 7 swaps with the smallest other hand (see the module)."""
    variants = [a for a in candidates if move_of(a) == move]
    if WILD <= move < KINDS:
        named = {a.color for a in variants if a.color is not None}
        color = max(named, key=lambda c: float(colors[c]))
        return next(a for a in variants if a.color == color)
    targets = [a for a in variants if a.target is not None]
    if targets:
        return min(targets, key=lambda a: (view.hand_sizes[a.target or 0], a.target))
    return variants[0]
