"""The OpenSpiel game: OpenSpiel's own random-simulation conformance test, the explicit
chance model (deals, W+4 returns, reshuffles), returns, observations, resampling for
IS-MCTS, and OpenSpiel's IS-MCTS bot playing it."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from codes import raises_code

pytest.importorskip("pyspiel")

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import unomas.rl.openspiel as uno_spiel
from unomas.bots import search
from unomas.cards import DECK, WILD_DRAW_FOUR, parse_card
from unomas.errors import IllegalAction, SettingsError
from unomas.game import Game
from unomas.rl.actions import action_table
from unomas.rl.env import Driver
from unomas.rl.observation import ObservationLayout, encode
from unomas.rules import Rules


def load(**params: Any) -> Any:
    """The game ``python_unomas`` with ``params`` (``preset="all"``: ``python_unomas_all``)."""
    if params.get("preset") == "all":
        return pyspiel.load_game(uno_spiel.ALL_RULES_NAME, {k: v for k, v in params.items() if k != "preset"})
    return pyspiel.load_game(uno_spiel.SHORT_NAME, params)


def chance_step(state: Any, rng: random.Random) -> int:
    outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
    kind: int = rng.choices(outcomes, probabilities)[0]
    state.apply_action(kind)
    return kind


def play_until(state: Any, rng: random.Random, stop: Any, limit: int = 50_000) -> Any:
    """Random play (chance by its probabilities) until ``stop(state)`` or the end."""
    for _ in range(limit):
        if stop(state) or state.is_terminal():
            return state
        if state.is_chance_node():
            chance_step(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("the game did not end")


def dealt(state: Any) -> Any:
    return not state.is_chance_node()


# ---------------------------------------------------------------------------- conformance


@pytest.mark.parametrize(
    "params",
    [
        {"players": 2},
        {"players": 4},
        {"players": 2, "preset": "all", "max_steps": 1500},
        {"players": 4, "preset": "all", "max_steps": 1500},
        {"players": 3, "episode": "match", "target_score": 100, "jump_in": True},
    ],
    ids=["2p", "4p", "all-2p", "all-4p", "match-3p"],
)
def test_random_simulation(params: dict[str, Any]) -> None:
    """OpenSpiel's conformance test: legal actions and masks, chance outcomes, clones,
    serialization, observations, returns within the bounds and summing to zero."""
    pyspiel.random_sim_test(load(**params), num_sims=2, serialize=True, verbose=False)


def test_game_info() -> None:
    game = load(players=4)
    assert game.num_players() == 4
    assert game.num_distinct_actions() == action_table(4).size == 156
    assert game.max_chance_outcomes() == 54
    assert game.observation_tensor_size() == ObservationLayout(Rules(players=4)).size
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1 / 3, 1.0, 0.0)
    assert game.max_game_length() == uno_spiel.DEFAULT_MAX_STEPS
    assert game.get_type().provides_observation_tensor
    assert not game.get_type().provides_information_state_string


def test_parameters_make_the_rules() -> None:
    assert load(players=3, jump_in=True).rules == Rules(players=3, jump_in=True)
    assert load(preset="all", players=2).rules == Rules.preset("all", players=2)
    game = pyspiel.load_game("python_unomas(players=2,seven_zero=True,hand_size=5)")
    assert game.rules == Rules(players=2, seven_zero=True, hand_size=5)


def test_a_switch_set_false_over_every_house_rule_is_honoured() -> None:
    assert load(preset="all", stack_mixed=False).rules == Rules.preset("all", stack_mixed=False)
    game = pyspiel.load_game("python_unomas_all(players=3,jump_in=false,challenge_wild_draw_four=false)")
    assert game.rules == Rules.preset("all", players=3, jump_in=False, challenge_wild_draw_four=False)
    # python_unomas cannot tell a switch set false from one left unset: preset=all is refused
    with raises_code(SettingsError, "setup.openspiel_preset", game=uno_spiel.ALL_RULES_NAME):
        pyspiel.load_game(uno_spiel.SHORT_NAME, {"preset": "all", "stack_mixed": False})


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({"preset": "most"}, "setup.unknown_preset"),
        ({"episode": "season"}, "setup.one_of"),
        ({"max_steps": 0}, "setup.at_least_one"),
        ({"players": 11}, "setup.players_range"),
    ],
)
def test_bad_parameters_are_named(params: dict[str, Any], code: str) -> None:
    with raises_code(SettingsError, code):
        load(**params)


def test_unknown_parameter_is_refused() -> None:
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter"):
        load(flavour="grape")


# ---------------------------------------------------------------------------- chance


def test_the_deal_is_one_card_per_chance_node() -> None:
    game = load(players=2, hand_size=3)
    state = game.new_initial_state()
    outcomes = dict(state.chance_outcomes())
    assert outcomes == {kind: count / 108 for kind, count in Counter(DECK).items()}
    assert sum(outcomes.values()) == pytest.approx(1.0)
    # hands first (seat 0's cards, then seat 1's), then the pile top first
    hands = ["R1", "R2", "G3", "B4", "B5", "Y6"]
    for token in [*hands, "R9"]:
        state.apply_action(parse_card(token))
    assert state.chance_outcomes()[parse_card("R1")][1] == pytest.approx(1 / 101)
    rest = Counter(DECK)
    rest.subtract(parse_card(t) for t in [*hands, "R9"])
    pile_rest = sorted(rest.elements())
    for card in pile_rest:
        assert state.is_chance_node()
        state.apply_action(card)
    assert not state.is_chance_node()
    game_ = state._driver.game
    assert game_.hands == [[parse_card(t) for t in hands[:3]], [parse_card(t) for t in hands[3:]]]
    assert game_.top == parse_card("R9")
    assert list(reversed(game_.pile)) == pile_rest
    assert state.history()[: len(hands) + 1] == [parse_card(t) for t in [*hands, "R9"]]
    assert "card R1" in state.action_to_string(pyspiel.PlayerId.CHANCE, parse_card("R1"))


def test_a_starting_wild_draw_four_is_dealt_back() -> None:
    state = load(players=2, hand_size=1).new_initial_state()
    for token in ["R1", "G2", "W+4"]:
        state.apply_action(parse_card(token))
    while state.is_chance_node() and state._dealing.purpose == "deal":
        state.apply_action(next(kind for kind, _ in state.chance_outcomes()))
    # the pile went back: it is dealt again, the same 106 cards
    assert state.is_chance_node()
    assert state._dealing.purpose == "return"
    assert sum(state._dealing.left) == 106
    assert state._dealing.left[WILD_DRAW_FOUR] == 4
    state.apply_action(parse_card("B7"))
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[-1][0])
    game = state._driver.game
    assert game.top == parse_card("B7")
    assert game.round_start_events[1].__class__.__name__ == "StartingCardReturned"


def until_reshuffle(state: Any, rng: random.Random) -> Any:
    """Random play until a reshuffle is being dealt; the decision before it (None: no reshuffle)."""
    before = None
    while not state.is_terminal():
        if state.is_chance_node():
            if state._dealing.purpose == "reshuffle":
                return before
            chance_step(state, rng)
        else:
            before = state.clone()
            state.apply_action(rng.choice(state.legal_actions()))
    return None


def test_a_reshuffle_is_dealt_before_the_action_that_needs_it() -> None:
    rng = random.Random(4)
    for _ in range(20):
        state = load(players=2).new_initial_state()
        previous = until_reshuffle(state, rng)
        if previous is None:
            continue
        driver = previous.driver
        # the new pile holds the discard pile less its top card (the card played, if any)
        action = driver.table.action(driver.actor, state.history()[-1])
        discard = driver.game.discard if action.kind.name == "PLAY" else driver.game.discard[:-1]
        assert state._dealing.order == []
        assert Counter({k: c for k, c in enumerate(state._dealing.left) if c}) == Counter(discard)
        order = []
        while state.is_chance_node():
            order.append(chance_step(state, rng))
        shuffled = next(e for e in state.driver.events if e.__class__.__name__ == "Reshuffled")
        assert list(shuffled.pile) == order
        return
    pytest.fail("no reshuffle in 20 rounds")


def test_match_rounds_are_dealt_by_chance() -> None:
    rng = random.Random(2)
    state = load(players=2, episode="match", target_score=300).new_initial_state()
    play_until(state, rng, lambda s: s._driver is not None and s._driver.deal_pending)
    assert state.is_chance_node()
    assert state._dealing.purpose == "deal"
    assert sum(state._dealing.left) == 108
    round_before = state._driver.game.round
    play_until(state, rng, dealt)
    assert state._driver.game.round == round_before + 1
    play_until(state, rng, lambda s: False)
    assert state.is_terminal()
    returns = state.returns()
    assert sorted(returns) == [-1.0, 1.0]
    assert state._driver.game.is_over


# ---------------------------------------------------------------------------- returns, observations


def test_returns_are_zero_sum_and_a_truncated_game_is_a_draw() -> None:
    rng = random.Random(6)
    state = play_until(load(players=3).new_initial_state(), rng, lambda s: False)
    assert sorted(state.returns()) == [-0.5, -0.5, 1.0]
    short = play_until(load(players=3, preset="all", max_steps=5).new_initial_state(), rng, lambda s: False)
    assert short._driver.truncated
    assert short.returns() == [0.0, 0.0, 0.0]


def test_observation_is_the_views_encoding() -> None:
    game = load(players=3, jump_in=True)
    state = game.new_initial_state()
    layout = ObservationLayout(game.rules)
    assert state.observation_string(0) == "dealing"
    assert state.observation_tensor(1) == pytest.approx(list(layout.template))
    rng = random.Random(1)
    play_until(state, rng, dealt)
    for _ in range(30):
        play_until(state, rng, dealt)
        if state.is_terminal():
            break
        for seat in range(3):
            view = state._driver.game.view(seat)
            assert np.array_equal(np.array(state.observation_tensor(seat), np.float32), encode(view, layout))
            text = state.observation_string(seat)
            assert f'"hand":{[f"{c}" for c in view.to_json()["hand"]]}'.replace("'", '"').replace(" ", "") in text
        state.apply_action(rng.choice(state.legal_actions()))


def test_only_the_view_observer_is_offered() -> None:
    game = load(players=2)
    with pytest.raises(ValueError, match="perfect recall"):
        game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    with pytest.raises(ValueError, match="no parameters"):
        game.make_py_observer(None, {"x": 1})
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False))
    assert set(observer.dict) == set(game.layout.slices)


def test_out_of_turn_decisions_are_the_drivers() -> None:
    rng = random.Random(3)
    state = load(players=4).new_initial_state()
    state = play_until(
        state,
        rng,
        lambda s: not s.is_chance_node() and s._driver.out_of_turn and s._driver.game.uno_pending is not None,
    )
    driver = state._driver
    window = driver.game.out_of_turn_seats()
    assert state.current_player() == window[0]
    assert action_table(4).none in state.legal_actions()
    asked = []
    while state._driver.out_of_turn:
        asked.append(state.current_player())
        state.apply_action(action_table(4).none)
    assert asked == window
    assert state.current_player() == state._driver.game.current


# ---------------------------------------------------------------------------- resampling, IS-MCTS


def test_resample_keeps_the_players_view_and_deals_the_rest_anew() -> None:
    rng = random.Random(9)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = 0
    for _ in range(16):
        state = play_until(load(players=3, preset="all", max_steps=3000).new_initial_state(), rng, dealt)
        for _ in range(rng.randrange(60)):
            play_until(state, rng, dealt)
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        play_until(state, rng, dealt)
        if state.is_terminal():
            continue
        player = state.current_player()
        world = state.resample_from_infostate(player, sampler)
        assert world.current_player() == player
        assert world.observation_string(player) == state.observation_string(player)
        assert world.observation_tensor(player) == state.observation_tensor(player)
        assert world.legal_actions() == state.legal_actions()
        assert world.history() == []
        others = [seat for seat in range(3) if seat != player]
        truth, sampled = state._driver.game, world._driver.game
        assert Counter(c for s in others for c in truth.hands[s]) + Counter(truth.pile) == Counter(
            c for s in others for c in sampled.hands[s]
        ) + Counter(sampled.pile)
        changed += any(truth.hands[s] != sampled.hands[s] for s in others)
        play_until(world, rng, lambda s: False)  # the world plays on to an end
    assert changed > 8


def test_resample_refuses_chance_nodes_ends_and_bad_players() -> None:
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = load(players=2).new_initial_state()
    with pytest.raises(ValueError, match="only at a decision"):
        state.resample_from_infostate(0, sampler)
    play_until(state, random.Random(0), dealt)
    with pytest.raises(ValueError, match="no player 2"):
        state.resample_from_infostate(2, sampler)


def test_openspiels_ismcts_plays_legal_actions() -> None:
    game = load(players=2, target_score=0)
    rng = np.random.RandomState(0)
    for evaluator in (uno_spiel.RolloutEvaluator(seed=1), mcts.RandomRolloutEvaluator(1, rng)):
        bot = ismcts.ISMCTSBot(
            game, evaluator, uct_c=2.0, max_simulations=8, random_state=rng, use_observation_string=True
        )
        state = play_until(game.new_initial_state(), random.Random(5), dealt)
        for _ in range(3):
            play_until(state, random.Random(5), dealt)
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)


def test_rollout_evaluator_values_the_round_and_catches_a_forgotten_uno(monkeypatch: pytest.MonkeyPatch) -> None:
    game = load(players=3)
    evaluator = uno_spiel.RolloutEvaluator(rollouts=4, seed=2)
    state = play_until(game.new_initial_state(), random.Random(1), dealt)
    values = evaluator.evaluate(state)
    assert values.shape == (3,)
    assert values.sum() == pytest.approx(0.0)
    actions = state.legal_actions()
    assert evaluator.prior(state) == [(a, 1 / len(actions)) for a in actions]
    fresh = game.new_initial_state()
    assert evaluator.prior(fresh) == fresh.chance_outcomes()
    # a seat that forgot UNO is caught before the playout: it holds 3 cards, not 1
    rng = random.Random(7)
    state = play_until(
        game.new_initial_state(), rng, lambda s: not s.is_chance_node() and s.driver.game.uno_pending is not None
    )
    forgot = state.driver.game.uno_pending
    caught = []
    original = search.rollout

    def spy(played: Game, rng_: random.Random) -> int:
        caught.append(len(played.hands[forgot]))
        return original(played, rng_)

    monkeypatch.setattr(uno_spiel, "rollout", spy)
    evaluator.evaluate(state)
    assert caught == [3] * 4


# ---------------------------------------------------------------------------- the driver's dictation


def test_driver_waits_for_dictated_deals() -> None:
    driver = Driver(Rules(players=2, target_score=500), episode="match", max_steps=10_000, dictate_deals=True)
    with raises_code(IllegalAction, "round.not_over"):
        driver.deal(Game(Rules(players=2), seed=1).log[0].deal)  # type: ignore[index]
    driver.reset(3)
    rng = random.Random(0)
    while not driver.deal_pending:
        driver.step(rng.choice(driver.legal_ids()))
    assert driver.legal_ids() == []
    assert not any(driver.mask(driver.actor))
    with raises_code(IllegalAction, "rl.not_dealt"):
        driver.step(driver.table.draw)
    deal = Game(Rules(players=2), seed=5).log[0].deal  # type: ignore[index]
    driver.deal(deal)
    assert driver.game.round == 1
    assert [sorted(h) for h in driver.game.hands] == [sorted(h) for h in deal.hands]
    copy = driver.copy()
    copy.step(copy.legal_ids()[0])
    assert copy.steps == driver.steps + 1
