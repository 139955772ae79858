"""The RL environments: PettingZoo's API and seed tests, masks against the engine's legal
actions, no hidden information in observations, Gymnasium's checker, determinism."""

from __future__ import annotations

import dataclasses
import pickle
import random
import time
from collections.abc import Sequence
from typing import Any

import pytest

from codes import raises_code

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import numpy as np
from gymnasium.utils.env_checker import check_env
from pettingzoo.test.api_test import api_test
from pettingzoo.test.seed_test import seed_test

import unomas.rl as rl
from unomas.actions import Action, Kind
from unomas.bots import PlayFirstBot, RandomBot
from unomas.cards import parse_card
from unomas.errors import BotError, IllegalAction, SettingsError
from unomas.events import Dealt, Drew, Event, Played
from unomas.game import Game
from unomas.rl.env import Driver, Episode, UnoEnv, observe
from unomas.rl.observation import ObservationLayout
from unomas.rules import SWITCHES, Rules
from unomas.view import View

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

SETTINGS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 4},
    {"preset": "all", "players": 4},
    {"preset": "all", "players": 3, "hand_size": 3},
    {"players": 2, "seven_zero": True, "jump_in": True, "hand_size": 4},
    {"players": 5, "jump_in": True, "draw_until_playable": True, "force_play_drawn": True},
]


def random_step(env: UnoEnv, rng: random.Random) -> None:
    """One step of random play with the selected agent's mask (None once it is done)."""
    agent = env.agent_selection
    if env.terminations[agent] or env.truncations[agent]:
        env.step(None)
        return
    mask = env.observe(agent)["action_mask"]
    env.step(int(rng.choice(np.flatnonzero(mask).tolist())))


# ---------------------------------------------------------------------------- PettingZoo


@pytest.mark.parametrize("settings", SETTINGS[:3], ids=["2p", "4p", "all-4p"])
def test_api(settings: dict[str, Any]) -> None:
    api_test(rl.env(**settings), num_cycles=200)  # type: ignore[no-untyped-call]


def test_api_match_points() -> None:
    api_test(rl.env(players=3, episode="match", reward="points", target_score=100), num_cycles=200)  # type: ignore[no-untyped-call]


@pytest.mark.parametrize("settings", [SETTINGS[1], SETTINGS[2]], ids=["4p", "all-4p"])
def test_seed(settings: dict[str, Any]) -> None:
    seed_test(lambda: rl.env(**settings), num_cycles=100)  # type: ignore[no-untyped-call]


def test_seeded_episodes_repeat_and_unseeded_resets_continue_the_seed() -> None:
    def trajectory(env: UnoEnv, seed: int | None) -> list[Any]:
        env.reset(seed=seed)
        rng = random.Random(5)
        seen: list[Any] = []
        while env.agents:
            seen.append((env.agent_selection, env.observe(env.agent_selection)["observation"].tobytes()))
            random_step(env, rng)
        return seen

    one, two = rl.env(players=3, preset="all", max_steps=1500), rl.env(players=3, preset="all", max_steps=1500)
    assert trajectory(one, 11) == trajectory(two, 11)
    assert trajectory(one, None) == trajectory(two, None)
    assert trajectory(one, 11) != trajectory(one, 12)


# ---------------------------------------------------------------------------- masks


@pytest.mark.parametrize("settings", SETTINGS, ids=[str(i) for i in range(len(SETTINGS))])
def test_masks_are_the_engines_legal_actions(settings: dict[str, Any]) -> None:
    env = rl.env(max_steps=2000, **settings)
    table = env.table
    rng = random.Random(3)
    windows = 0
    for episode in range(4):
        env.reset(seed=episode)
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                assert not env.observe(agent)["action_mask"].any()
                env.step(None)
                continue
            game, driver = env.game, env.driver
            seat = int(agent.split("_")[1])
            assert seat == driver.actor
            mask = env.observe(agent)["action_mask"]
            assert mask.dtype == np.int8
            ids = np.flatnonzero(mask).tolist()
            actions = [table.action(seat, i) for i in ids]
            legal = game.legal_actions(seat)
            assert sorted(map(str, (a for a in actions if a is not None))) == sorted(map(str, legal))
            if seat == game.current:
                assert None not in actions
            else:  # an out-of-turn decision: the engine says the seat has one, and 'none' is open
                windows += 1
                assert seat in game.out_of_turn_seats()
                assert actions[-1] is None
            for other in env.agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            random_step(env, rng)
    if settings.get("jump_in") or settings.get("preset") == "all":
        assert windows > 0


def test_out_of_turn_window_in_seat_order() -> None:
    env = rl.env(players=4, target_score=0)
    rng = random.Random(8)
    for episode in range(20):
        env.reset(seed=episode)
        while env.agents:
            driver = env.driver
            if not driver.done and driver.out_of_turn and driver.game.uno_pending is not None:
                window = driver.game.out_of_turn_seats()
                assert driver.actor == window[0]
                asked = []
                while driver.out_of_turn:  # everyone declines: each seat of the window in turn
                    asked.append(driver.actor)
                    env.step(env.table.none)
                assert asked == window
                assert driver.actor == driver.game.current
                return
            random_step(env, rng)
    pytest.fail("no UNO window in 20 rounds")


def test_action_table() -> None:
    for players in (2, 4, 10):
        table = rl.action_table(players)
        assert table.size == 120 + 9 * players
        for seat in range(players):
            for i, action in enumerate(table.actions[seat]):
                assert (action is None) == (i == table.none)
                if action is not None:
                    assert table.id(action) == i
                    assert action.player == seat
    table = rl.action_table(4)
    seven = parse_card("G7")
    assert table.id(Action.play(3, seven, target=1)) == table.play_base[seven] + 2 * 2
    assert table.describe(table.id(Action.play(0, seven, target=2, uno=True))) == "play G7 @+2 uno"
    assert table.id(Action.catch(3, 0)) == table.catch_base + 1
    assert table.describe(table.color_base + 3) == "color B"
    assert table.action(2, table.uno) == Action.call_uno(2)
    assert table.describe(table.none) == "none"
    assert [table.action(0, i) for i in (table.draw, table.pass_, table.challenge)] == [
        Action(0, Kind.DRAW),
        Action(0, Kind.PASS),
        Action(0, Kind.CHALLENGE),
    ]
    with pytest.raises(ValueError, match="players"):
        rl.action_table(11)
    wild = parse_card("W")
    for bad in (
        Action(0, Kind.PLAY),  # no card
        Action.play(0, wild),  # a wild card without its colour
        Action.play(0, parse_card("R5"), target=1),  # a target on a card that takes none
        Action(4, Kind.DRAW),  # no such seat
        Action(0, Kind.CATCH),  # a catch without a target
    ):
        with pytest.raises(KeyError):
            table.id(bad)


# ---------------------------------------------------------------------------- observations


def with_hidden_cards_moved(game: Game, seat: int, rng: random.Random) -> Game:
    """The same position as ``seat`` sees it, with everyone else's cards and the pile dealt
    anew from the cards ``seat`` cannot see, and the hidden W+4 verdict flipped."""
    hidden = [c for other, hand in enumerate(game.hands) if other != seat for c in hand] + game.pile
    rng.shuffle(hidden)
    hands: list[list[int]] = []
    for other, hand in enumerate(game.hands):
        if other == seat:
            hands.append(list(hand))
        else:
            hands.append(hidden[: len(hand)])
            del hidden[: len(hand)]
    return Game.from_position(
        game.rules,
        dataclasses.replace(
            game.position(),
            hands=tuple(map(tuple, hands)),
            pile=tuple(hidden),
            accused_guilty=game.challengeable and not game.accused_guilty,
        ),
    )


@pytest.mark.parametrize("settings", [SETTINGS[1], SETTINGS[2]], ids=["4p", "all-4p"])
def test_observation_holds_no_hidden_information(settings: dict[str, Any]) -> None:
    env = rl.env(**settings)
    rng = random.Random(4)
    compared = 0
    for episode in range(3):
        env.reset(seed=episode)
        while env.agents:
            driver = env.driver
            if not driver.done and rng.random() < 0.2:
                real = driver.game
                for agent in env.agents:
                    seat = int(agent.split("_")[1])
                    if real.drawn is not None and seat != real.current:
                        continue  # the drawn card is the player on turn's secret: keep it where it is
                    moved = with_hidden_cards_moved(real, seat, rng)
                    assert moved.view(seat) == real.view(seat)
                    before = env.observe(agent)
                    after = observe(driver.on(moved), seat, env.layout)
                    assert np.array_equal(before["observation"], after["observation"])
                    assert np.array_equal(before["action_mask"], after["action_mask"])
                    compared += 1
            random_step(env, rng)
    assert compared > 50


@pytest.mark.parametrize("settings", SETTINGS, ids=[str(i) for i in range(len(SETTINGS))])
def test_observations_are_the_encoded_views(settings: dict[str, Any]) -> None:
    """The environment writes observations without building views, keeping each seat's
    vector up to date: they must equal the encoding of the seat's view, every seat, every step."""
    check_observations_are_the_encoded_views(settings)


@pytest.mark.parametrize(
    "settings",
    [
        {"players": 3, "max_players": 6, "history": True, "preset": "all"},
        {"players": 2, "history": True, "draw_until_playable": True},
        {"players": 4, "max_players": 4},
    ],
    ids=["3-of-6-history-all", "2p-history", "4-of-4"],
)
def test_observations_with_the_layout_options_are_the_encoded_views(settings: dict[str, Any]) -> None:
    check_observations_are_the_encoded_views(settings)


def check_observations_are_the_encoded_views(settings: dict[str, Any]) -> None:
    env = rl.env(max_steps=600, episode="match", reward="points", **settings)
    rng = random.Random(6)
    compared = 0
    for episode in range(3):
        env.reset(seed=episode)
        while env.agents:
            for agent in env.agents:
                if rng.random() < 0.4:  # a seat's vector is brought up to date over several steps
                    continue
                seat = int(agent.split("_")[1])
                observed = env.observe(agent)["observation"]
                encoded = rl.encode(env.game.view(seat), env.layout, env.driver.history)
                assert np.array_equal(observed, encoded), (agent, env.game)
                compared += 1
            random_step(env, rng)
    assert compared > 500


def test_observations_are_not_changed_by_later_steps() -> None:
    """Each observation is new arrays: the kept vectors they are copied from change in place."""
    env = rl.env(players=3)
    rng = random.Random(8)
    env.reset(seed=8)
    taken: list[tuple[dict[str, Any], bytes, bytes]] = []
    while env.agents and len(taken) < 400:
        observation, *_ = env.last()
        assert observation is not None
        taken.append((observation, observation["observation"].tobytes(), observation["action_mask"].tobytes()))
        random_step(env, rng)
    assert len({vector for _, vector, _ in taken}) > 100
    for observation, vector, mask in taken:
        assert observation["observation"].tobytes() == vector
        assert observation["action_mask"].tobytes() == mask


def test_observation_layout() -> None:
    env = rl.env(players=2, target_score=0)
    env.reset(seed=1)
    layout = env.layout
    assert layout.size == 303 + 7 * 2
    agent = env.agent_selection
    seat = int(agent.split("_")[1])
    vector = env.observe(agent)["observation"]
    assert vector.dtype == np.float32
    view = env.game.view(seat)
    hand = vector[layout.slices["hand"]]
    assert int(hand.sum()) == len(view.hand)
    assert all(hand[c] == view.hand.count(c) for c in view.hand)
    assert np.flatnonzero(vector[layout.slices["top"]]).tolist() == [view.top]
    assert vector[layout.slices["on_turn"]][0] == 1.0
    assert vector[layout.slices["current"]].tolist() == [1.0, 0.0]
    assert vector[layout.slices["hand_sizes"]].tolist() == [float(len(view.hand)), float(view.hand_sizes[1 - seat])]
    assert vector[layout.slices["rules"]].tolist() == [1.0] + [0.0] * 16
    assert vector[layout.slices["partners"]].tolist() == [0.0, 0.0]  # no teams
    assert vector[layout.slices["settings"]].tolist() == [2.0, 7.0, 0.0]  # players, hand_size, target_score
    assert rl.env(players=3, hand_size=5, target_score=250).observe("player_0")["observation"][-3:].tolist() == [
        3.0,
        5.0,
        250.0,
    ]
    other = env.observe(env.possible_agents[1 - seat])["observation"]
    assert other[layout.slices["on_turn"]][0] == 0.0
    assert other[layout.slices["current"]].tolist() == [0.0, 1.0]
    with pytest.raises(ValueError, match="spectator"):
        rl.encode(env.game.view(None), layout)


# ---------------------------------------------------------------------------- episodes and rewards


def play_out(env: UnoEnv, seed: int) -> dict[str, float]:
    """Random play of one episode; every agent's total reward."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        _, reward, *_ = env.last()
        totals[env.agent_selection] += reward
        random_step(env, rng)
    return totals


def test_win_rewards() -> None:
    env = rl.env(players=3, target_score=0)
    for seed in range(3):
        totals = play_out(env, seed)
        assert sorted(totals.values()) == [-1.0, -1.0, 1.0]
        assert env.game.winner == int(max(totals, key=lambda a: totals[a]).split("_")[1])


def test_points_rewards_add_up_to_zero_each_round() -> None:
    env = rl.env(players=4, reward="points", target_score=0)
    totals = play_out(env, 2)
    assert sum(totals.values()) == 0.0
    winner = env.game.winner
    assert winner is not None and max(totals.values()) == env.game.scores[winner] > 0


def test_match_episode() -> None:
    env = rl.env(players=2, episode="match", target_score=150, hand_size=5)
    totals = play_out(env, 1)
    game = env.game
    assert game.is_over and game.round >= 1
    assert totals[f"player_{game.winner}"] == 1.0
    assert sum(totals.values()) == 0.0


def test_truncation_and_illegal_actions() -> None:
    env = rl.env(players=2, max_steps=5)
    env.reset(seed=0)
    with raises_code(IllegalAction, "rl.not_legal"):
        env.step(env.table.none)
    with raises_code(IllegalAction, "rl.must_act"):
        env.step(None)
    rng = random.Random(0)
    for _ in range(5):
        random_step(env, rng)
    assert all(env.truncations.values()) and not any(env.terminations.values())
    with raises_code(IllegalAction, "rl.episode_over"):
        env.driver.step(env.table.draw)
    for bad in ({"episode": "game"}, {"reward": "score"}, {"max_steps": 0}, {"render_mode": "rgb"}):
        with pytest.raises(SettingsError):
            rl.env(**bad)


def test_an_illegal_id_loses_the_episode_when_asked() -> None:
    """``illegal="lose"``: an id outside the mask ends the episode, the agent that took it
    loses ``illegal_reward``, the others get 0; ``"raise"`` (the default) raises."""
    env = rl.env(players=3, illegal="lose", illegal_reward=-2.0)
    env.reset(seed=1)
    agent = env.agent_selection
    observation, *_ = env.last()
    assert observation is not None
    env.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.rewards == {name: (-2.0 if name == agent else 0.0) for name in env.possible_agents}
    assert env.infos[agent]["illegal_action"] is True
    assert env.agent_selection == agent and env.last()[1] == -2.0
    while env.agents:  # PettingZoo's dead steps take every agent out
        env.step(None)
    env.reset(seed=1)
    assert not any(env.terminations.values()) and env.infos[agent] == {}
    strict = rl.env(players=3)
    strict.reset(seed=1)
    with raises_code(IllegalAction, "rl.no_such_id"):
        strict.step(strict.table.size)
    with pytest.raises(SettingsError):
        rl.env(illegal="ignore")  # type: ignore[arg-type]


def unmasked_step(env: UnoEnv, rng: random.Random) -> None:
    """One step with an id drawn from the whole action space, as checkers do that know no mask."""
    agent = env.agent_selection
    env.step(None if env.terminations[agent] or env.truncations[agent] else rng.randrange(env.table.size))


def test_checkers_that_sample_unmasked_actions_pass_with_illegal_lose() -> None:
    api_test(rl.env(players=2, illegal="lose"), num_cycles=50)  # type: ignore[no-untyped-call]
    env = rl.env(players=4, preset="all", illegal="lose", reward="points")
    rng = random.Random(3)
    illegal = 0
    for seed in range(30):
        env.reset(seed=seed)
        while env.agents:
            agent = env.agent_selection
            unmasked_step(env, rng)
            illegal += bool(env.infos.get(agent, {}).get("illegal_action"))
    assert illegal == 30  # a random id is almost never open: every episode ends on one


def test_rllibs_multi_agent_check_passes_with_illegal_lose() -> None:
    """RLlib's check steps one action sampled from the whole space (where RLlib imports)."""
    wrappers = pytest.importorskip("ray.rllib.env.wrappers.pettingzoo_env")
    checks = pytest.importorskip("ray.rllib.utils.pre_checks.env")
    for _ in range(10):
        checks.check_multiagent_environments(wrappers.PettingZooEnv(rl.env(players=4, preset="all", illegal="lose")))


def test_a_switch_set_false_over_every_house_rule_is_honoured() -> None:
    off: dict[str, Any] = {"preset": "all", "jump_in": False, "challenge_wild_draw_four": False}
    expected = Rules.preset("all", jump_in=False, challenge_wild_draw_four=False)
    assert not expected.jump_in and expected.stack_mixed
    assert rl.env(**off).rules == expected
    assert rl.single_agent(opponents="random", **off).rules == expected
    assert rl.batch(2, **off).rules == expected
    template = rl.env(**off).layout.template
    switches = rl.env(**off).layout.slices["rules"]
    assert list(np.frombuffer(template, np.float32)[switches]) == [float(getattr(expected, n)) for n in SWITCHES]


def test_render(capsys: pytest.CaptureFixture[str]) -> None:
    env = rl.env(players=2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert text is not None and "player_0" in text and "top" in text
    human = rl.env(players=2, render_mode="human", max_steps=1)
    human.reset(seed=0)
    random_step(human, random.Random(0))
    assert "truncated" in capsys.readouterr().out
    assert rl.env(players=2).render() is None
    human.close()


def test_human_rendering_keeps_to_render_fps(capsys: pytest.CaptureFixture[str]) -> None:
    fps = rl.env().metadata["render_fps"]
    assert fps == rl.SingleAgentEnv.metadata["render_fps"] > 0
    human = rl.env(players=2, render_mode="human")
    start = time.monotonic()
    human.reset(seed=0)  # a frame, then two more
    human.render()
    human.render()
    assert time.monotonic() - start >= 2 / fps
    assert capsys.readouterr().out.count("player_0") == 3
    single = rl.single_agent(opponents="random", players=2, render_mode="human")
    observation, _ = single.reset(seed=0)
    single.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert capsys.readouterr().out.count("player_1") == 2  # a frame after the reset and one after the step


def test_gymnasium_makes_the_registered_ids_in_a_fresh_interpreter() -> None:
    import subprocess
    import sys

    code = (
        "import gymnasium\n"
        "e = gymnasium.make('unomas.rl:unomas/Uno-v0', opponents='random', players=3)\n"
        "o, _ = e.reset(seed=0)\n"
        "a = gymnasium.make('unomas/UnoAllRules-v0', players=2, jump_in=False, render_mode='ansi')\n"
        "print(e.spec.id, e.unwrapped.rules.players, o['observation'].shape[0], a.spec.id,"
        " a.unwrapped.rules.stack_mixed, a.unwrapped.rules.jump_in, a.render_mode)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    size = ObservationLayout(Rules(players=3)).size
    assert out.split() == ["unomas/Uno-v0", "3", str(size), "unomas/UnoAllRules-v0", "True", "False", "ansi"]


def test_a_pickled_driver_plays_on_as_the_original() -> None:
    """OpenSpiel serializes states by pickling them: a driver must pickle in either build
    (the compiled engine's objects do not) and play on exactly as the one it copies."""
    rng = random.Random(2)
    cases: list[tuple[Rules, Episode]] = [(Rules.preset("all", players=3), "round"), (Rules(players=2), "match")]
    for rules, episode in cases:
        driver = Driver(rules, episode=episode, max_steps=5000)
        writer = ObservationLayout(rules).writer
        driver.reset(9)
        for _ in range(6):
            for _ in range(rng.randrange(300)):
                if driver.done:
                    break
                driver.step(rng.choice(driver.legal_ids()))
            copy = pickle.loads(pickle.dumps(driver))
            assert copy.game.position() == driver.game.position()
            assert copy.game.round_start_events == driver.game.round_start_events
            for _ in range(50):
                assert copy.events == driver.events
                assert (copy.actor, copy.out_of_turn, copy.done, copy.steps) == (
                    driver.actor,
                    driver.out_of_turn,
                    driver.done,
                    driver.steps,
                )
                if driver.done:
                    break
                assert copy.legal_ids() == driver.legal_ids()
                assert copy.observe(driver.actor, writer) == driver.observe(driver.actor, writer)
                action = rng.choice(driver.legal_ids())
                assert copy.step(action) == driver.step(action)


# ---------------------------------------------------------------------------- Gymnasium


@pytest.mark.parametrize(
    "settings",
    [
        {"opponents": "heuristic", "players": 2},
        {"opponents": ["random", "heuristic", "random"], "players": 4, "preset": "all", "seat": 2},
    ],
    ids=["2p-heuristic", "all-4p-mixed"],
)
def test_single_agent_passes_the_env_checker(settings: dict[str, Any]) -> None:
    check_env(rl.single_agent(**settings), skip_render_check=True)


def test_single_agent_episodes() -> None:
    def episode(env: rl.SingleAgentEnv, seed: int) -> tuple[float, int, list[bytes]]:
        observation, info = env.reset(seed=seed)
        rng = random.Random(seed)
        total, steps, seen = 0.0, 0, [observation["observation"].tobytes()]
        while True:
            mask = observation["action_mask"]
            assert np.array_equal(mask, info["action_mask"]) and np.array_equal(mask.astype(bool), env.action_masks())
            assert env.driver.actor == env.seat
            observation, reward, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(mask).tolist()))
            total += float(reward)
            steps += 1
            seen.append(observation["observation"].tobytes())
            if terminated or truncated:
                assert not observation["action_mask"].any()
                return total, steps, seen

    env = rl.single_agent(opponents="heuristic", players=3, seat=1, target_score=0)
    results = [episode(env, seed) for seed in range(3)]
    assert all(total in (-1.0, 1.0) for total, _, _ in results)
    again = rl.single_agent(opponents="heuristic", players=3, seat=1, target_score=0)
    assert episode(again, 1) == results[1]
    points = rl.single_agent(opponents="random", players=2, reward="points", preset="all")
    total, _, _ = episode(points, 0)
    assert total != 0.0
    env.close()


def test_single_agent_illegal_actions_and_settings() -> None:
    env = rl.single_agent(opponents="random", players=2)
    observation, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    with raises_code(IllegalAction, "rl.episode_over"):
        env.step(illegal)
    strict = rl.single_agent(opponents="random", players=2, illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalAction):
        strict.step(illegal)
    for bad in (
        {"seat": 2},
        {"opponents": ["random"] * 2},
        {"opponents": "nobody"},
        {"illegal": "ignore"},
        {"render_mode": "rgb"},
    ):
        with pytest.raises(SettingsError):
            rl.single_agent(**({"players": 2} | bad))
    shown = rl.single_agent(opponents="random", players=2, render_mode="ansi")
    shown.reset(seed=0)
    assert "player_1" in str(shown.render())
    assert rl.single_agent(players=2).render() is None


def test_a_crashing_opponent_raises_a_bot_error_naming_its_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    def crash(self: PlayFirstBot, view: View) -> Action:
        raise RuntimeError("out of cheese")

    monkeypatch.setattr(PlayFirstBot, "act", crash)
    env = rl.single_agent(opponents=["random", "playfirst", "random"], players=4, seat=0, target_score=0)
    rng = random.Random(0)
    with pytest.raises(BotError) as caught:  # the playfirst bot plays seat 2: its first turn comes soon
        for seed in range(20):
            observation, _ = env.reset(seed=seed)
            for _ in range(500):
                ids = np.flatnonzero(observation["action_mask"]).tolist()
                observation, _, terminated, truncated, _ = env.step(rng.choice(ids))
                if terminated or truncated:
                    break
    error = caught.value
    assert (error.code, error.seat, error.bot) == ("bot.crashed", 2, "playfirst")
    assert error.params["error"] == "RuntimeError: out of cheese"


def test_an_opponents_illegal_answer_raises_a_bot_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def cheat(self: RandomBot, view: View) -> Action:
        assert view.seat is not None
        return Action.play(view.seat, next(card for card in range(50) if card not in view.hand))

    monkeypatch.setattr(RandomBot, "act", cheat)
    env = rl.single_agent(opponents="random", players=2, seat=0, target_score=0)
    rng = random.Random(0)
    with pytest.raises(BotError) as caught:
        for seed in range(20):
            observation, _ = env.reset(seed=seed)
            for _ in range(500):
                ids = np.flatnonzero(observation["action_mask"]).tolist()
                observation, _, terminated, truncated, _ = env.step(rng.choice(ids))
                if terminated or truncated:
                    break
    assert (caught.value.code, caught.value.seat, caught.value.bot) == ("bot.illegal_action", 1, "random")


def test_opponents_hear_every_change_redacted_for_their_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    heard: list[tuple[int, Event]] = []

    def listen(self: RandomBot, events: Sequence[Event]) -> None:
        heard.extend((self.seat, event) for event in events)

    monkeypatch.setattr(RandomBot, "observe", listen)
    env = rl.single_agent(opponents="random", players=3, seat=1, episode="match", target_score=200)
    observation, _ = env.reset(seed=4)
    rng = random.Random(4)
    while True:
        ids = np.flatnonzero(observation["action_mask"]).tolist()
        observation, _, terminated, truncated, _ = env.step(rng.choice(ids))
        if terminated or truncated:
            break
    deals = [(seat, event) for seat, event in heard if isinstance(event, Dealt)]
    assert len(deals) == 2 * (env.driver.game.round + 1)  # every round's deal, told to both bots
    for seat, deal in deals:
        assert deal.pile is None
        assert [hand is not None for hand in deal.hands] == [other == seat for other in range(3)]
    for seat, event in heard:
        if isinstance(event, Drew) and event.player != seat:
            assert event.cards is None
    assert any(isinstance(event, Drew) and event.cards is not None for _, event in heard)


def test_importing_unomas_loads_no_rl_library() -> None:
    import subprocess
    import sys

    heavy = "('numpy', 'pettingzoo', 'gymnasium')"
    code = f"import sys, unomas, unomas.bots; print(sorted(m for m in sys.modules if m.split('.')[0] in {heavy}))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# ---------------------------------------------------------------------------- one policy for several settings


def test_a_layout_for_up_to_max_players_seats_is_the_same_for_every_table_size() -> None:
    envs = {n: rl.env(players=n, max_players=5, preset="all") for n in (2, 3, 5)}
    sizes = {(e.table.size, e.layout.size, e.observe("player_0")["observation"].shape) for e in envs.values()}
    assert sizes == {(120 + 9 * 5, 303 + 7 * 5, (303 + 7 * 5,))}
    tables = {n: e.table for n, e in envs.items()}
    seven = parse_card("Y7")
    for n, table in tables.items():  # one id for each action, whatever the table size
        assert table.id(Action.play(0, seven, target=1)) == tables[5].id(Action.play(0, seven, target=1))
        assert table.id(Action.catch(n - 1, 0)) == table.catch_base + 1
        assert table.draw == tables[5].draw and table.none == tables[5].none
        assert table.describe(table.catch_base + 4) == "catch @+4"
    unusable = {i for i, (_, _, _, offset, _) in enumerate(tables[2].layout) if offset is not None and offset >= 2}
    assert len(unusable) == 4 * 2 * 3 + 3 and all(tables[2].action(0, i) is None for i in unusable)
    env = envs[2]
    rng = random.Random(2)
    for seed in range(3):
        env.reset(seed=seed)
        while env.agents:
            observation = env.observe(env.agent_selection)
            assert not set(np.flatnonzero(observation["action_mask"]).tolist()) & unusable
            vector = observation["observation"]
            for name in ("hand_sizes", "current", "dealer", "scores", "uno_pending", "shown_seat"):
                assert not vector[env.layout.slices[name]][2:].any()
            random_step(env, rng)
    assert rl.single_agent(opponents="random", players=2, max_players=4).driver.table.size == 156
    assert rl.batch(2, players=3, max_players=4).action_masks.shape == (2, 156)
    for bad in (1, 11):
        with raises_code(SettingsError, "setup.max_players"):
            rl.env(players=2, max_players=bad)
        with raises_code(SettingsError, "setup.max_players"):
            ObservationLayout(Rules(players=2), max_players=bad)


def test_history_holds_the_colours_each_seat_drew_on_since_its_last_play() -> None:
    env = rl.env(players=3, history=True, max_steps=3000)
    rng = random.Random(1)
    checked = 0
    for seed in range(4):
        env.reset(seed=seed)
        expected = [0, 0, 0]
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            color = env.game.color
            random_step(env, rng)
            for event in env.driver.events:
                if isinstance(event, Drew) and event.reason == "turn":
                    assert color is not None  # a turn's draw comes once the colour is known
                    expected[event.player] |= 1 << color
                elif isinstance(event, Played):
                    expected[event.player] = 0
            assert env.driver.history == expected
            checked += sum(expected) > 0
            vector = env.observe("player_1")["observation"][env.layout.slices["history"]]
            rows = [expected[(1 + k) % 3] for k in range(3)]  # by offset from the observer
            assert vector.tolist() == [float(bits >> c & 1) for bits in rows for c in range(4)]
    assert checked > 100
    assert "history" not in rl.env(players=3).layout.slices
    with pytest.raises(ValueError, match="history"):  # a view does not keep the past: it must be given
        rl.encode(env.game.view(0), env.layout)
