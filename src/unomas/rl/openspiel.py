"""unomas as an OpenSpiel game: ``pyspiel.load_game("python_unomas", {"players": 2})``.

Importing this module registers the game with OpenSpiel (the ``openspiel`` extra:
``pip install 'unomas[openspiel]'``), so OpenSpiel's algorithms and its own conformance
tests (``pyspiel.random_sim_test``) run on it. See docs/rl.md.

* **Parameters**: every setting of RULES.md by name (``players``, ``hand_size``,
  ``target_score``, the switches), ``episode`` (``round``: the game is one round, the
  default; ``match``: rounds until someone reaches ``target_score``) and ``max_steps``
  (decisions after which the game ends as a draw; the game's ``max_game_length``). The
  switches default to the official rules in ``python_unomas`` and to every house rule on
  in ``python_unomas_all`` (registered too), so a switch set either way is honoured in
  both. ``python_unomas`` refuses ``preset=all`` (:class:`~unomas.errors.SettingsError`,
  code ``setup.openspiel_preset``): OpenSpiel hands a game every parameter,
  the unset ones at their defaults, so a switch set false over the preset could not be
  told from one left unset.
* **Player actions** are the ids of :mod:`unomas.rl.actions`, and the decisions are those
  of the PettingZoo environment (:class:`unomas.rl.env.Driver`): out-of-turn windows are
  sequential decisions of their own, with ``none`` to let the chance go by.
* **Chance** is explicit. A round is dealt one card at a time, every card a chance node
  whose outcome is a card kind (0–53) with probability count / cards left: the hands
  (seat 0's cards first), then the draw pile top first, whose top is the starting card; a
  starting W+4 goes back and the pile is dealt anew. When an action must reshuffle the
  discard pile, the new pile is dealt the same way before the action takes effect. The
  engine plays exactly these outcomes (:class:`unomas.game.Deal`, ``Game.apply(...,
  reshuffle=)``): it never shuffles by itself.
* **Returns** are zero-sum: +1 to the winner (of the round, or of the match), -1/(n-1) to
  every other seat; 0 to all when ``max_steps`` ends the game.
* **Observations** are the seat's view (:func:`unomas.rl.observation.encode` as the tensor,
  the view in JSON as the string). The view is not perfect recall, so the game offers
  observations and no information states; IS-MCTS runs with
  ``use_observation_string=True``. :meth:`UnoState.resample_from_infostate` deals a world
  consistent with the view (:func:`unomas.bots.search.sample_world`), as IS-MCTS needs.

>>> import pyspiel
>>> game = pyspiel.load_game("python_unomas", {"players": 2})
>>> game.num_distinct_actions(), game.max_chance_outcomes(), game.observation_tensor_size()
(138, 54, 317)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 54)
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any, Final

import numpy as np
import numpy.typing as npt
import pyspiel
from open_spiel.python.algorithms import mcts

from unomas.actions import Kind
from unomas.bots.search import rollout, sample_world
from unomas.cards import DECK, KINDS, WILD_DRAW_FOUR, Card, card_token
from unomas.errors import SettingsError
from unomas.game import Deal, Game
from unomas.rl.actions import action_table
from unomas.rl.env import Driver, Episode
from unomas.rl.observation import ObservationLayout, encode
from unomas.rules import PRESETS, SETTING_HELP, Rules

__all__ = ["ALL_RULES_NAME", "SHORT_NAME", "RolloutEvaluator", "UnoGame", "UnoGameAllRules", "UnoObserver", "UnoState"]

SHORT_NAME: Final = "python_unomas"
ALL_RULES_NAME: Final = "python_unomas_all"
DEFAULT_MAX_STEPS: Final = 10_000


def _parameters(rules: Rules, *, preset: bool) -> dict[str, Any]:
    """The parameter specification of a game whose settings default to ``rules``'."""
    settings = {name: getattr(rules, name) for name in SETTING_HELP}
    return {
        **({"preset": "official"} if preset else {}),
        **settings,
        "episode": "round",
        "max_steps": DEFAULT_MAX_STEPS,
    }


def _game_type(short_name: str, long_name: str, parameters: dict[str, Any]) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=10,
        min_num_players=2,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


_PARAMETERS: Final = _parameters(Rules.preset("official"), preset=True)
_ALL_PARAMETERS: Final = _parameters(Rules.preset("all"), preset=False)
_GAME_TYPE: Final = _game_type(SHORT_NAME, "unomas (UNO with every house rule)", _PARAMETERS)
_ALL_GAME_TYPE: Final = _game_type(ALL_RULES_NAME, "unomas, every house rule on by default", _ALL_PARAMETERS)


class _NoShuffle:
    """The engine's random source in this game: never used, as OpenSpiel deals every card."""

    def random(self) -> float:
        raise AssertionError("the engine shuffled by itself: chance must come from chance nodes")


@dataclasses.dataclass
class _Dealing:
    """A chance sequence in progress: cards dealt one by one from a multiset.

    ``purpose`` is ``deal`` (hands, then the pile), ``return`` (the pile dealt anew after a
    starting W+4) or ``reshuffle`` (the new pile for the ``pending`` action).
    """

    purpose: str
    left: list[int]
    """How many of each card kind are still to come."""
    order: list[Card] = dataclasses.field(default_factory=list)
    pending: int = -1
    hands: tuple[tuple[Card, ...], ...] = ()
    pile: tuple[Card, ...] = ()
    returns: list[tuple[Card, ...]] = dataclasses.field(default_factory=list)

    @classmethod
    def of(cls, purpose: str, cards: Counter[Card] | tuple[Card, ...], **fields: Any) -> _Dealing:
        counts = cards if isinstance(cards, Counter) else Counter(cards)
        return cls(purpose, [counts[kind] for kind in range(KINDS)], **fields)

    def outcomes(self) -> list[tuple[int, float]]:
        total = sum(self.left)
        return [(kind, count / total) for kind, count in enumerate(self.left) if count]

    def take(self, kind: int) -> bool:
        """Deal one card of ``kind``; whether the sequence is complete."""
        self.left[kind] -= 1
        self.order.append(kind)
        return not any(self.left)


def _rules(params: dict[str, Any]) -> tuple[Rules, Episode, int]:
    """The rules, episode and step limit of a game's parameters (every one given: OpenSpiel
    fills in the defaults of its specification)."""
    preset = params.get("preset", "official")
    if preset == "all":  # an explicit false could not be told from a switch left unset
        raise SettingsError("setup.openspiel_preset", game=ALL_RULES_NAME)
    if preset != "official":
        raise SettingsError("setup.unknown_preset", name=repr(preset), known=", ".join(PRESETS))
    episode = params["episode"]
    if episode not in ("round", "match"):
        raise SettingsError("setup.one_of", name="episode", known="'round', 'match'", value=repr(episode))
    max_steps = params["max_steps"]
    if max_steps < 1:
        raise SettingsError("setup.at_least_one", name="max_steps", value=max_steps)
    return Rules.from_dict({name: params[name] for name in SETTING_HELP}), episode, max_steps


class UnoGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game of unomas under some settings (see the module)."""

    GAME_TYPE: pyspiel.GameType = _GAME_TYPE
    """The registered game type: its name and the defaults of its parameters."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = self.GAME_TYPE.parameter_specification | (params or {})
        self.rules, self.episode, self.max_steps = _rules(merged)
        self.layout = ObservationLayout(self.rules)
        players = self.rules.players
        info = pyspiel.GameInfo(
            num_distinct_actions=action_table(players).size,
            max_chance_outcomes=KINDS,
            num_players=players,
            min_utility=-1.0 / (players - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_steps,
        )
        super().__init__(self.GAME_TYPE, info, merged)

    def new_initial_state(self) -> UnoState:
        """The state before the first card is dealt."""
        return UnoState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> UnoObserver:
        """The observer of a seat's view (the only kind of observation the game offers)."""
        return UnoObserver(self.layout, iig_obs_type, params)


class UnoState(pyspiel.State):  # type: ignore[misc]
    """A position of the game: the chance sequence being dealt, or the driver's decision."""

    def __init__(self, game: UnoGame) -> None:
        super().__init__(game)
        self._rules = game.rules
        self._episode: Episode = game.episode
        self._max_steps = game.max_steps
        self._driver: Driver | None = None
        self._dealing: _Dealing | None = _Dealing.of("deal", tuple(DECK))
        self._returns: list[float] | None = None
        self._color_before = -1

    # ------------------------------------------------------------------ OpenSpiel's API

    def current_player(self) -> int:
        """The seat that decides, or OpenSpiel's chance or terminal id."""
        if self._dealing is not None:
            return int(pyspiel.PlayerId.CHANCE)
        driver = self._driver
        assert driver is not None
        if driver.done:
            return int(pyspiel.PlayerId.TERMINAL)
        return driver.actor

    def _legal_actions(self, player: int) -> list[int]:
        """The ids open to ``player`` (the actor), ascending."""
        assert self._driver is not None
        return sorted(self._driver.legal_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The card kinds the next card may be, with their probabilities."""
        assert self._dealing is not None
        return self._dealing.outcomes()

    def _apply_action(self, action: int) -> None:
        dealing = self._dealing
        if dealing is not None:
            if dealing.take(action):
                self._dealt(dealing)
            return
        order = self._reshuffle(action)
        if order is not None:
            self._dealing = _Dealing.of("reshuffle", order, pending=action)
            return
        self._step(action, None)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"card {card_token(action)}"
        return f"player_{player}: {action_table(self._rules.players).describe(action)}"

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._dealing is None and self._driver is not None and self._driver.done

    def returns(self) -> list[float]:
        """+1 to the winner, -1/(n-1) to every other seat; zeros before the end or on a draw."""
        return self._returns if self._returns is not None else [0.0] * self._rules.players

    def __str__(self) -> str:
        lines = []
        if self._driver is not None:
            driver = self._driver
            lines.append(driver.render().rstrip("\n"))
            lines.append("pile: " + " ".join(card_token(c) for c in reversed(driver.game.pile)))
        dealing = self._dealing
        if dealing is not None:
            lines.append(f"dealing ({dealing.purpose}): " + " ".join(card_token(c) for c in dealing.order))
        return "\n".join(lines)

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> UnoState:
        """A state ``player_id`` cannot tell from this one: the cards it has not seen dealt
        anew at random (its view, and so its observation, stay the same).

        IS-MCTS calls this for every simulation. The new state starts from the sampled
        position: its history is empty. ``probability_sampler`` (OpenSpiel's
        ``UniformProbabilitySampler``) seeds the sampling.
        """
        driver = self._driver
        if self._dealing is not None or driver is None or driver.done:
            raise ValueError("a state can be resampled only at a decision, not while cards are dealt or at the end")
        if not 0 <= player_id < self._rules.players:
            raise ValueError(f"there is no player {player_id} (players are 0 to {self._rules.players - 1})")
        rng = random.Random(int(probability_sampler() * 2**53))
        view = driver.game.view(player_id)
        world = sample_world(view, rng, color_before_wild_draw_four=self._color_before)
        if view.shown_hand is not None:
            world.shown = (player_id, *view.shown_hand)
        world.rng = _NoShuffle()
        world.round_start_events = driver.game.round_start_events
        state: UnoState = self.get_game().new_initial_state()
        state._dealing = None
        state._color_before = self._color_before
        state._driver = driver.on(world)  # who else may still act in this window depends on the hands
        return state

    @property
    def driver(self) -> Driver | None:
        """The decisions over the engine's game (None before the first deal): the whole
        truth, for unomas's own bots and tools, not for agents."""
        return self._driver

    # ------------------------------------------------------------------ observations

    def view_json(self, player: int) -> str:
        """``player``'s view as JSON (``dealing`` before the first round is dealt)."""
        if self._driver is None:
            return "dealing"
        view = self._driver.game.view(player).to_json()
        del view["rules"], view["legal_actions"]
        return json.dumps(view, separators=(",", ":"))

    def observation_vector(self, player: int, layout: ObservationLayout) -> npt.NDArray[np.float32]:
        """``player``'s observation vector (only the rules before the first deal)."""
        if self._driver is None:
            return np.frombuffer(layout.template, dtype=np.float32)
        return encode(self._driver.game.view(player), layout)

    # ------------------------------------------------------------------ chance and steps

    def _reshuffle(self, action_id: int) -> Counter[Card] | None:
        """The cards an action would reshuffle into a new draw pile, or None if it would not."""
        driver = self._driver
        assert driver is not None
        action = driver.table.action(driver.actor, action_id)
        if action is None:
            return None
        cards = driver.game.reshuffled_by(action)
        return None if cards is None else Counter(cards)

    def _step(self, action_id: int, reshuffle: list[Card] | None) -> None:
        driver = self._driver
        assert driver is not None
        action = driver.table.action(driver.actor, action_id)
        if action is not None and action.card == WILD_DRAW_FOUR:
            self._color_before = -1 if driver.game.color is None else driver.game.color
        rewards = driver.step(action_id, reshuffle)
        n = self._rules.players
        if rewards is not None and driver.done and not driver.truncated:
            self._returns = [1.0 if reward > 0 else -1.0 / (n - 1) for reward in rewards]
        if driver.deal_pending:
            self._dealing = _Dealing.of("deal", tuple(DECK))

    def _dealt(self, dealing: _Dealing) -> None:
        """A chance sequence is complete: play what it decided."""
        self._dealing = None
        if dealing.purpose == "reshuffle":
            self._step(dealing.pending, dealing.order)
            return
        if dealing.purpose == "deal":
            size = self._rules.players * self._rules.hand_size
            hand_size = self._rules.hand_size
            hands = tuple(tuple(dealing.order[i : i + hand_size]) for i in range(0, size, hand_size))
            pile = tuple(dealing.order[size:])
            returns: list[tuple[Card, ...]] = []
        else:
            hands, pile, returns = dealing.hands, dealing.pile, [*dealing.returns, tuple(dealing.order)]
        top = returns[-1][0] if returns else pile[0]
        if top == WILD_DRAW_FOUR:
            self._dealing = _Dealing.of("return", pile, hands=hands, pile=pile, returns=returns)
            return
        deal = Deal(hands, pile, tuple(returns))
        if self._driver is None:
            self._driver = Driver(self._rules, episode=self._episode, max_steps=self._max_steps, dictate_deals=True)
            self._driver.start(Game(self._rules, rng=_NoShuffle(), deal=deal, history=False))
        else:
            self._driver.deal(deal)


class RolloutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """An evaluator for OpenSpiel's MCTS and IS-MCTS: plays the round out on the engine with
    unomas's quick greedy rollout policy (:func:`unomas.bots.search.rollout_action`), far
    faster than random OpenSpiel rollouts; uniform priors. A seat that forgot to call UNO is
    caught first (the rollout policy's players call UNO and catch whenever they can).

    The value is the game's returns for that round's winner (0 to all if it drags on).
    """

    def __init__(self, rollouts: int = 1, seed: int | None = None) -> None:
        self.rollouts = rollouts
        self.rng = random.Random(seed)

    def evaluate(self, state: UnoState) -> npt.NDArray[np.float64]:
        """The mean returns of ``rollouts`` playouts from ``state``."""
        driver = state.driver
        assert driver is not None, "evaluate a state once it is dealt"
        n = driver.players
        total = np.zeros(n)
        for _ in range(self.rollouts):
            game = driver.game.copy()
            game.rng = self.rng
            forgot = game.uno_pending
            if forgot is not None and not game.round_over:
                catcher = (forgot + 1) % n
                game.push(next(a for a in game.legal_actions(catcher) if a.kind is Kind.CATCH))
            winner = rollout(game, self.rng)
            if winner >= 0:
                total += [1.0 if seat == winner else -1.0 / (n - 1) for seat in range(n)]
        result: npt.NDArray[np.float64] = total / self.rollouts
        return result

    def prior(self, state: UnoState) -> list[tuple[int, float]]:
        """Uniform over the legal actions (the chance probabilities at a chance node)."""
        if state.is_chance_node():
            outcomes: list[tuple[int, float]] = state.chance_outcomes()
            return outcomes
        actions = state.legal_actions()
        return [(action, 1.0 / len(actions)) for action in actions]


class UnoObserver:
    """OpenSpiel's observer of a seat's view: the tensor of :func:`unomas.rl.observation.encode`
    (``dict`` holds its named slices) and the view as JSON."""

    def __init__(
        self,
        layout: ObservationLayout,
        iig_obs_type: pyspiel.IIGObservationType | None,
        params: dict[str, Any] | None,
    ) -> None:
        if params:
            raise ValueError(f"the observer takes no parameters, not {sorted(params)}")
        if iig_obs_type is not None and (
            iig_obs_type.perfect_recall
            or not iig_obs_type.public_info
            or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                "unomas offers one observation, a seat's view: public and own private information,"
                " without perfect recall"
            )
        self.layout = layout
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = {name: self.tensor[part] for name, part in layout.slices.items()}

    def set_from(self, state: UnoState, player: int) -> None:
        """Write ``player``'s observation of ``state`` into ``tensor``."""
        self.tensor[:] = state.observation_vector(player, self.layout)

    def string_from(self, state: UnoState, player: int) -> str:
        """``player``'s view of ``state`` as JSON."""
        return state.view_json(player)


class UnoGameAllRules(UnoGame):
    """The game of :data:`ALL_RULES_NAME`: every switch on unless its parameter is false."""

    GAME_TYPE = _ALL_GAME_TYPE


pyspiel.register_game(_GAME_TYPE, UnoGame)
pyspiel.register_game(_ALL_GAME_TYPE, UnoGameAllRules)
