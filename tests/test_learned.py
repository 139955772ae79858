"""The learned bot: its features, its choices, its options, the search it guides."""

from __future__ import annotations

import random

import pytest

from codes import raises_code
from unomas.bots import make_bot
from unomas.bots.learned import FEATURES, LearnedBot, features, move_of
from unomas.bots.levels import LEVELS, ROOM_LEVELS, slips
from unomas.cards import KINDS
from unomas.errors import SettingsError
from unomas.game import Game
from unomas.rules import Rules
from unomas.runs.tournament import run_tournament


def test_features_hold_the_hand_the_table_and_the_rules() -> None:
    game = Game(Rules.preset("all", players=3), seed=4)
    view = game.view(0)
    vector = features(view, {1: {2}})
    assert len(vector) == FEATURES
    assert sum(vector[:KINDS]) == 0.5 * len(view.hand)
    assert vector[KINDS + view.top] == 1.0
    assert vector[-2] == 0.7  # hand size 7
    assert sum(vector[-2 - 9 : -2]) == 9  # every switch on
    assert 1.0 in vector[5 * KINDS + 12 + 30 : 5 * KINDS + 12 + 70]  # the colour seat 1 lacks


@pytest.mark.parametrize(("players", "preset"), [(2, "official"), (4, "all"), (10, "all")])
def test_learned_plays_whole_rounds_without_fault(players: int, preset: str) -> None:
    rules = Rules.preset(preset, players=players, target_score=0)
    result = run_tournament(rules, ["learned", "heuristic"], 2, seed="learned")
    assert result.errors == []
    assert sum(bot.round_wins for bot in result.bots) == 2


@pytest.mark.parametrize(
    "spec", ["ismcts:iterations=10:prior=learned", "ismcts:iterations=10:prior=learned:value=false"]
)
def test_the_guided_search_plays_whole_rounds(spec: str) -> None:
    rules = Rules.preset("all", players=3, target_score=0)
    result = run_tournament(rules, [spec, "random"], 2, seed="guided")
    assert result.errors == []


def test_temperature_zero_takes_the_likeliest_move_and_more_samples_others() -> None:
    game = Game(Rules(players=4), seed=7)
    greedy, hot = make_bot("learned"), make_bot("learned:temperature=100")
    assert isinstance(greedy, LearnedBot) and isinstance(hot, LearnedBot)
    seen: set[object] = set()
    greedy_seen: set[object] = set()
    for turn in range(200):
        if game.round_over:
            break
        seat = game.current
        view = game.view(seat)
        for bot in (greedy, hot):
            bot.start(seat, game.rules, random.Random(turn))
        if len(view.legal_actions) > 2:
            greedy_seen |= {greedy.act(view) for _ in range(3)}
            seen |= {move_of(hot.act(view)) for _ in range(10)}
            break
        game.push(view.legal_actions[0])
    assert len(greedy_seen) == 1
    assert len(seen) > 1


def test_bad_options_are_refused() -> None:
    with raises_code(SettingsError, "setup.bad_temperature"):
        make_bot("learned:temperature=-1")
    with raises_code(SettingsError, "setup.bad_weights"):
        make_bot("learned:weights=nowhere.npz")


def test_learned_is_the_strongest_level_a_room_may_seat_it_and_it_never_slips_unless_asked() -> None:
    assert LEVELS[-1].spec == "learned" and ROOM_LEVELS[-1] == "learned"
    assert slips("learned") == (0.0, 0.0)
    assert slips("learned:forget=0.3:miss=0.5") == (0.3, 0.5)


def test_the_weights_ship_in_the_package() -> None:
    from importlib import resources

    assert resources.files("unomas.bots.weights").joinpath("learned.npz").is_file()
