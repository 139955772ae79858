"""Bots: the registry and its specs, legality and fairness in play, each bot's policy,
and the sampled worlds and search behind ``ismcts``."""

from __future__ import annotations

import dataclasses
import importlib.metadata
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from importlib.metadata import EntryPoint
from math import comb
from typing import Any

import pytest

import unomas.bots
from bot_fixtures import position, spied_table, started, tokens_of
from codes import raises_code
from unomas.actions import Action, Kind
from unomas.bots import BUILTIN_BOTS, HeuristicBot, IsmctsBot, PlayFirstBot, RandomBot, bot_names, make_bot
from unomas.bots.base import Bot
from unomas.bots.heuristic import guilt_probability
from unomas.bots.levels import LEVELS, Level, slips
from unomas.bots.player import bot_match
from unomas.bots.process import ProcessBot
from unomas.bots.search import rollout_action, sample_world, search
from unomas.cards import BLUE, COLOR_OF, DECK, GREEN, RED, WILD, WILD_DRAW_FOUR, YELLOW, Card, parse_card
from unomas.errors import SettingsError
from unomas.events import Dealt, Drew, Played, StartingCard
from unomas.game import Game, Phase
from unomas.rules import Rules
from unomas.view import View

C = parse_card


def act(bot: Bot, game: Game, seat: int | None = None, seed: int = 0) -> Action:
    """What a fresh start of ``bot`` does on its turn in ``game`` (seat: the one on turn)."""
    seat = game.current if seat is None else seat
    return started(bot, seat, game, seed).act(game.view(seat))


def react(bot: Bot, game: Game, seat: int, seed: int = 0) -> Action | None:
    return started(bot, seat, game, seed).react(game.view(seat))


# ---------------------------------------------------------------- make_bot


@pytest.mark.parametrize("name", sorted(BUILTIN_BOTS))
def test_every_builtin_name_makes_its_bot(name: str) -> None:
    bot = make_bot(name)
    assert type(bot) is BUILTIN_BOTS[name]
    assert bot.name == name
    assert name in bot_names()


def test_builtin_names() -> None:
    assert bot_names()[:4] == ["random", "playfirst", "heuristic", "ismcts"]
    assert isinstance(make_bot("random"), RandomBot)
    assert isinstance(make_bot("playfirst"), PlayFirstBot)


def test_options_are_typed_by_the_constructor() -> None:
    bot = make_bot("ismcts:iterations=50")
    assert isinstance(bot, IsmctsBot)
    assert bot.iterations == 50 and type(bot.iterations) is int
    assert bot.seconds is None
    timed = make_bot("ismcts:seconds=0.2:exploration=0.9")
    assert isinstance(timed, IsmctsBot)
    assert timed.seconds == 0.2 and type(timed.seconds) is float
    assert timed.iterations is None
    assert timed.exploration == 0.9
    heuristic = make_bot("heuristic:challenge_at=0.5:hoard=2")
    assert isinstance(heuristic, HeuristicBot)
    assert heuristic.challenge_at == 0.5 and type(heuristic.challenge_at) is float
    assert heuristic.hoard == 2 and type(heuristic.hoard) is int


def test_default_budget() -> None:
    bot = make_bot("ismcts")
    assert isinstance(bot, IsmctsBot)
    assert (bot.iterations, bot.seconds) == (1000, None)


@pytest.mark.parametrize(
    ("spec", "code"),
    [
        ("nobody", "setup.unknown_bot"),
        ("", "setup.unknown_bot"),
        ("Heuristic", "setup.unknown_bot"),
        ("ismcts:depth=3", "setup.unknown_bot_option"),
        ("ismcts:iterations", "setup.unknown_bot_option"),
        ("ismcts:self=1", "setup.unknown_bot_option"),
        ("random:speed=1", "setup.unknown_bot_option"),
        ("ismcts:iterations=many", "setup.bad_bot_option"),
        ("ismcts:iterations=2.5", "setup.bad_bot_option"),
        ("ismcts:seconds=soon", "setup.bad_bot_option"),
        ("heuristic:challenge_at=high", "setup.bad_bot_option"),
        ("heuristic:hoard=", "setup.bad_bot_option"),
        ("ismcts:iterations=0", "setup.bad_search"),
        ("ismcts:seconds=0", "setup.bad_search"),
        ("cmd:", "setup.no_command"),
    ],
)
def test_bad_specs_are_refused_clearly(spec: str, code: str) -> None:
    with raises_code(SettingsError, code):
        make_bot(spec)


def test_cmd_spec_makes_a_process_bot_without_starting_it() -> None:
    bot = make_bot("cmd:some-program --fast")
    assert isinstance(bot, ProcessBot)
    assert bot.argv == ["some-program", "--fast"]


class RegisteredBot(Bot):
    """A bot another package might register, with options of every type."""

    name = "registered"

    def __init__(self, depth: int = 1, careful: bool = False, weight: float = 1.0, label: str = "x") -> None:
        super().__init__()
        self.depth = depth
        self.careful = careful
        self.weight = weight
        self.label = label

    def act(self, view: View) -> Action:
        return view.legal_actions[0]


class FakeEntryPoint:
    """Enough of an entry point for the registry: a name, a group and what it loads."""

    def __init__(self, name: str, loaded: object) -> None:
        self.name = name
        self.group = unomas.bots.ENTRY_POINT_GROUP
        self.loaded = loaded

    def load(self) -> object:
        return self.loaded


def fake_entry_points(monkeypatch: pytest.MonkeyPatch, *points: FakeEntryPoint | EntryPoint) -> None:
    def entry_points(*, group: str, name: str | None = None) -> list[FakeEntryPoint | EntryPoint]:
        return [p for p in points if p.group == group and (name is None or p.name == name)]

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)


def test_a_registered_bot_is_found_with_typed_options(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_entry_points(monkeypatch, FakeEntryPoint("tuned", RegisteredBot))
    assert bot_names() == ["random", "playfirst", "heuristic", "ismcts", "learned", "tuned"]
    bot = make_bot("tuned:depth=3:careful=TRUE:weight=0.25:label=deep")
    assert isinstance(bot, RegisteredBot)
    assert (bot.depth, bot.careful, bot.weight, bot.label) == (3, True, 0.25, "deep")
    assert make_bot("tuned:careful=false").careful is False  # type: ignore[attr-defined]
    with raises_code(SettingsError, "setup.bad_bot_option"):
        make_bot("tuned:careful=yes")
    with raises_code(SettingsError, "setup.unknown_bot"):
        make_bot("other")


def test_a_real_entry_point_is_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    point = EntryPoint(name="first", value="unomas.bots.basic:PlayFirstBot", group="unomas.bots")
    fake_entry_points(monkeypatch, point)
    assert isinstance(make_bot("first"), PlayFirstBot)
    assert "first" in bot_names()


def test_builtin_names_win_over_registered_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_entry_points(monkeypatch, FakeEntryPoint("random", RegisteredBot))
    assert type(make_bot("random")) is RandomBot


@pytest.mark.parametrize("loaded", [Rules, len, "a string", Bot.act])
def test_a_registered_non_bot_is_refused(monkeypatch: pytest.MonkeyPatch, loaded: object) -> None:
    fake_entry_points(monkeypatch, FakeEntryPoint("impostor", loaded))
    with raises_code(SettingsError, "setup.not_a_bot"):
        make_bot("impostor")


def test_a_registered_non_bot_by_entry_point_value(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_entry_points(monkeypatch, EntryPoint(name="rules", value="unomas.rules:Rules", group="unomas.bots"))
    with raises_code(SettingsError, "setup.not_a_bot"):
        make_bot("rules")


# ---------------------------------------------------------------- every bot in play

RULE_SETS = [
    pytest.param("official", id="official"),
    pytest.param("all", id="all"),
    pytest.param("seven_zero,jump_in", id="seven-zero-jump-in"),
    pytest.param("draw_until_playable,force_play_drawn,no_action_finish", id="drawing"),
    pytest.param("stack_draw_two,stack_draw_four,stack_mixed", id="stacking"),
]


def rules_of(name: str, **settings: int) -> Rules:
    if name in ("official", "all"):
        return Rules.preset(name, **settings)
    switches: dict[str, Any] = {switch: True for switch in name.split(",")}
    return Rules(**(switches | settings))


def policy_check(bot: Bot) -> Callable[[View, Action | None, bool], None] | None:
    """Policy points that hold in every position, by bot."""
    if isinstance(bot, PlayFirstBot):
        return check_playfirst
    if isinstance(bot, HeuristicBot) and bot.forget == bot.miss == 0:
        return check_heuristic_out_of_turn
    return None


def check_playfirst(view: View, action: Action | None, react: bool) -> None:
    if react:
        return  # any chance, or none (the spy checks it is one)
    kinds = {a.kind for a in view.legal_actions}
    assert action is not None
    assert action.kind not in (Kind.CATCH, Kind.UNO), "playfirst takes chances out of turn only"
    if Kind.PLAY in kinds:
        assert action.kind is Kind.PLAY, "playfirst draws or passes only when it cannot play"
    else:
        assert action.kind is not Kind.PASS or Kind.DRAW not in kinds


def check_heuristic_out_of_turn(view: View, action: Action | None, react: bool) -> None:
    if react:
        assert action is not None, "heuristic takes every out-of-turn chance"
        kinds = {a.kind for a in view.legal_actions}
        if Kind.UNO in kinds:
            assert action.kind is Kind.UNO
        elif Kind.CATCH in kinds:
            assert action.kind is Kind.CATCH
    elif (
        action is not None
        and action.kind is Kind.PLAY
        and any(a.uno and a.card == action.card for a in view.legal_actions)
    ):
        assert action.uno


def play_watched(rules: Rules, specs: list[str], seed: int) -> None:
    table, spies = spied_table(rules, [make_bot(s) for s in specs], seed=seed, check=policy_check)
    outcome = table.play()
    assert not outcome.abandoned
    assert outcome.winner is not None and 0 <= outcome.winner < rules.players
    assert table.game.is_over
    assert outcome.scores == list(table.game.scores)
    if rules.alternative_scoring:  # each scores their own cards: the lowest total wins once one reaches the target
        assert min(outcome.scores) == outcome.scores[outcome.winner]
        reached = max(outcome.scores)
    else:
        assert max(outcome.scores) == outcome.scores[outcome.winner]
        reached = outcome.scores[outcome.winner]
    if rules.target_score:
        assert reached >= rules.target_score
    else:
        assert outcome.round_winners == [outcome.winner]
    assert len(outcome.round_winners) == len(outcome.round_points) == table.game.round + 1
    assert sum(outcome.round_points) == sum(outcome.scores)
    for spy in spies:
        assert spy.started == 1 and spy.closed == 1
        assert sum(1 for e in spy.events if isinstance(e, Dealt)) == table.game.round + 1


@pytest.mark.parametrize("rule_set", RULE_SETS)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_bots_play_legally_and_see_only_their_view(rule_set: str, players: int) -> None:
    base = ["random", "playfirst", "heuristic", "heuristic:forget=0:miss=0"]
    for seed in range(2):
        specs = [base[(seat + seed) % 4] for seat in range(players)]
        play_watched(rules_of(rule_set, players=players, target_score=150), specs, seed)


@pytest.mark.parametrize("rule_set", ["official", "all"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_ismcts_plays_legally_and_sees_only_its_view(rule_set: str, players: int) -> None:
    specs = ["ismcts:iterations=20", *["heuristic", "playfirst", "random", "heuristic"][: players - 1]]
    play_watched(rules_of(rule_set, players=players, target_score=0), specs, players)


@pytest.mark.parametrize("spec", ["random", "playfirst", "heuristic"])
def test_each_bot_alone_finishes_matches(spec: str) -> None:
    for players, rule_set in ((2, "all"), (3, "official"), (4, "all"), (5, "official")):
        target = 50 if spec == "random" else 150
        play_watched(rules_of(rule_set, players=players, target_score=target), [spec] * players, players)


# ---------------------------------------------------------------- playfirst

OPPONENT = "Y1 Y2 Y3 Y4 Y6 Y7 Y8"
OTHER = "B1 B2 B3 B4 B6 B7 B8"


def test_playfirst_plays_its_playable_card() -> None:
    game = position(["R1 G2 B3 Y9", OPPONENT], "R5")
    for seed in range(10):
        assert act(PlayFirstBot(), game, seed=seed) == Action.play(0, C("R1"))


def test_playfirst_chooses_among_playable_cards() -> None:
    game = position(["R1 G5 B3 W", OPPONENT], "R5")
    chosen = {act(PlayFirstBot(), game, seed=seed) for seed in range(100)}
    assert {a.card for a in chosen} == {C("R1"), C("G5"), C("W")}
    assert all(a in game.legal_actions(0) and a.kind is Kind.PLAY for a in chosen)
    assert {a.color for a in chosen if a.card == C("W")} == {RED, YELLOW, GREEN, BLUE}


def test_playfirst_draws_only_when_nothing_plays() -> None:
    game = position(["G2 B3 Y9", OPPONENT], "R5")
    assert act(PlayFirstBot(), game) == Action.draw(0)


def test_playfirst_plays_a_playable_drawn_card() -> None:
    game = position(["G2 B3 R7", OPPONENT], "R5", phase=Phase.DRAWN, drawn="R7")
    assert {a.kind for a in game.legal_actions(0)} == {Kind.PLAY, Kind.PASS}
    assert act(PlayFirstBot(), game) == Action.play(0, C("R7"))


def test_playfirst_forgets_uno_one_time_in_ten() -> None:
    game = position(["R1 G2", OPPONENT], "R5")
    chosen = [act(PlayFirstBot(), game, seed=seed) for seed in range(400)]
    assert set(chosen) == {Action.play(0, C("R1"), uno=True), Action.play(0, C("R1"))}
    assert 330 <= sum(a.uno for a in chosen) <= 390  # 9 in 10


def test_playfirst_chooses_the_target_of_a_seven_then_calls_uno_if_it_leaves_one_card() -> None:
    game = position(["R7 G2 G3", "Y1", OPPONENT], "R5", seven_zero=True)
    chosen = [act(PlayFirstBot(), game, seed=seed) for seed in range(200)]
    assert set(chosen) <= set(game.legal_actions(0))
    assert 70 <= sum(a.target == 1 for a in chosen) <= 130  # either target, uniformly
    assert all(a.uno is False for a in chosen if a.target == 2)
    calls = [a.uno for a in chosen if a.target == 1]
    assert 0.8 <= sum(calls) / len(calls) < 1


def test_playfirst_takes_out_of_turn_chances_half_the_time() -> None:
    forgot = position(["R1 R2 R3", "G1", OPPONENT], "R5", current=2, uno_pending=1)
    assert Action.catch(0, 1) in forgot.legal_actions(0)
    catches = [react(PlayFirstBot(), forgot, 0, seed=seed) for seed in range(200)]
    assert set(catches) == {Action.catch(0, 1), None}
    assert 70 <= catches.count(None) <= 130
    jump = position(["R5 G2 G3", OPPONENT, OTHER], "R5", current=1, jump_in=True)
    jumps = [react(PlayFirstBot(), jump, 0, seed=seed) for seed in range(200)]
    assert set(jumps) == {Action.play(0, C("R5")), None}
    assert 70 <= jumps.count(None) <= 130
    late = position(["R1", OPPONENT, OTHER], "R5", current=1, uno_pending=0)
    calls = [react(PlayFirstBot(), late, 0, seed=seed) for seed in range(200)]
    assert set(calls) == {Action.call_uno(0), None}
    assert 70 <= calls.count(None) <= 130


def test_playfirst_challenges_half_the_time() -> None:
    bluffed = position(
        ["R1 R2", OPPONENT, OTHER],
        "R9 W+4",
        color=GREEN,
        phase=Phase.PENALTY,
        penalty=4,
        challengeable=True,
        accused_guilty=True,
        current=0,
        direction=-1,
    )
    chosen = [act(PlayFirstBot(), bluffed, seed=seed) for seed in range(200)]
    assert set(chosen) == {Action.challenge(0), Action.draw(0)}
    assert 70 <= chosen.count(Action.draw(0)) <= 130


def test_playfirst_stacks_when_it_can() -> None:
    game = position(["G+2 G1 B2", OPPONENT], "R+2", phase=Phase.PENALTY, penalty=2, stack_draw_two=True)
    assert act(PlayFirstBot(), game) == Action.play(0, C("G+2"))


def test_playfirst_chooses_a_starting_colour() -> None:
    game = position(["R1 G2", OPPONENT], "W", phase=Phase.COLOR)
    assert act(PlayFirstBot(), game).kind is Kind.COLOR


# ---------------------------------------------------------------- heuristic

FIVE = "Y1 Y2 Y3 Y4 Y6"
FIVE_B = "B1 B2 B3 B4 B6"


def test_heuristic_starting_colour_is_the_colour_held_most() -> None:
    game = position(["R1 G2 G3 G4 B5 B6 W", OPPONENT], "W", phase=Phase.COLOR)
    assert act(HeuristicBot(), game) == Action.choose_color(0, GREEN)
    tie = position(["Y1 B2 W", OPPONENT], "W", phase=Phase.COLOR)
    assert act(HeuristicBot(), tie) == Action.choose_color(0, YELLOW)


def test_heuristic_wild_takes_the_colour_held_most() -> None:
    # only the Wild plays; with four cards it would hoard it, but an opponent holds three
    game = position(["W B1 G3 B2", FIVE, "Y7 Y8 Y9"], "R5")
    assert act(HeuristicBot(), game) == Action.play(0, C("W"), color=BLUE)


def test_heuristic_best_colour() -> None:
    hand = [C(t) for t in ["R1", "R2", "G3", "G4", "G5", "W", "W+4"]]
    assert HeuristicBot.best_color(hand) == GREEN
    assert HeuristicBot.best_color([C("W")]) == RED
    assert HeuristicBot.best_color([C("R1"), C("B2")], {BLUE}) == BLUE


def test_heuristic_keeps_wilds_when_a_coloured_card_plays() -> None:
    game = position(["W W+4 R2 G3 G4", FIVE, FIVE_B], "R9")
    assert act(HeuristicBot(), game) == Action.play(0, C("R2"))


def test_heuristic_plays_a_wild_when_nothing_else_plays() -> None:
    game = position(["W G3 G4", FIVE, FIVE_B], "R9")
    assert act(HeuristicBot(), game) == Action.play(0, C("W"), color=GREEN)


def test_heuristic_hoards_wilds() -> None:
    hand = "W G1 G2 G3"
    far = position([hand, OPPONENT, OTHER], "R5")
    assert act(HeuristicBot(), far) == Action.draw(0)
    assert act(HeuristicBot(hoard=0), far) == Action.play(0, C("W"), color=GREEN)
    assert act(HeuristicBot(hoard=5), far) == Action.play(0, C("W"), color=GREEN)
    close = position([hand, OPPONENT, "B1 B2 B3"], "R5")
    assert act(HeuristicBot(), close) == Action.play(0, C("W"), color=GREEN)


def test_heuristic_plays_a_playable_drawn_card() -> None:
    game = position(["W G1 G2 G3 G4 G5", OPPONENT, OTHER], "R5", phase=Phase.DRAWN, drawn="W")
    action = act(HeuristicBot(), game)
    assert action.kind is Kind.PLAY and action.card == C("W")


@pytest.mark.parametrize("rank", ["S", "+2"])
def test_heuristic_skips_a_player_about_to_win(rank: str) -> None:
    hand = f"R3 R{rank} G4 G6 G7"
    about_to_win = position([hand, "Y1 Y2", FIVE_B], "R5")
    assert act(HeuristicBot(), about_to_win) == Action.play(0, C(f"R{rank}"))
    nobody_close = position([hand, FIVE, FIVE_B], "R5")
    assert act(HeuristicBot(), nobody_close) == Action.play(0, C("R3"))


def test_heuristic_skips_at_any_time_with_two_players() -> None:
    game = position(["R3 RS G4 G6", FIVE], "R5")
    assert act(HeuristicBot(), game) == Action.play(0, C("RS"))
    reverse = position(["R3 RR G4 G6", FIVE], "R5")
    assert act(HeuristicBot(), reverse) == Action.play(0, C("RR"))


def test_heuristic_sheds_high_points_when_an_opponent_is_close() -> None:
    hand = "R1 R2 R3 GR"
    nobody_close = position([hand, FIVE, FIVE_B], "RR")
    assert act(HeuristicBot(), nobody_close) == Action.play(0, C("R3"))
    close = position([hand, FIVE, "B1 B2"], "RR")
    assert act(HeuristicBot(), close) == Action.play(0, C("GR"))


def test_heuristic_plays_a_legal_wild_draw_four_over_a_wild() -> None:
    game = position(["W W+4 G2", FIVE, FIVE_B], "R5")
    assert act(HeuristicBot(), game) == Action.play(0, C("W+4"), color=GREEN)


def test_heuristic_bluffs_a_wild_draw_four_only_against_a_player_about_to_win() -> None:
    hand = "W+4 R2 G3 G4"
    safe = position([hand, FIVE, FIVE_B], "R5")
    assert act(HeuristicBot(), safe) == Action.play(0, C("R2"))
    about_to_win = position([hand, "Y1 Y2", FIVE_B], "R5")
    assert act(HeuristicBot(), about_to_win) == Action.play(0, C("W+4"), color=GREEN)


def test_heuristic_stacks_a_draw_two_before_a_wild_draw_four() -> None:
    settings: dict[str, Any] = {"stack_draw_two": True, "stack_mixed": True}
    both = position(["W+4 G+2 B1", FIVE], "R+2", phase=Phase.PENALTY, penalty=2, **settings)
    assert act(HeuristicBot(), both) == Action.play(0, C("G+2"))
    four = position(["W+4 B1 B2", FIVE], "R+2", phase=Phase.PENALTY, penalty=2, **settings)
    assert act(HeuristicBot(), four) == Action.play(0, C("W+4"), color=BLUE)
    none = position(["B1 B2", FIVE], "R+2", phase=Phase.PENALTY, penalty=2, **settings)
    assert act(HeuristicBot(), none) == Action.draw(0)


ALL_RED = "R0 R1 R1 R2 R2 R3 R3 R4 R4 R5 R5 R6 R6 R7 R7 R8 R8 R9 R9 RS RS RR RR R+2 R+2"


def facing_wild_draw_four(accused_hand: str, discard_below: str = "R5") -> Game:
    """Seat 1 faces a challengeable W+4 that seat 0 played on red, choosing green."""
    return position(
        [accused_hand, "G1 G2 B3", "Y1 Y2 Y3"],
        f"{discard_below} W+4",
        color=GREEN,
        current=1,
        phase=Phase.PENALTY,
        penalty=4,
        challengeable=True,
    )


def heuristic_facing(game: Game, bot: HeuristicBot, discard_below: str = "R5") -> HeuristicBot:
    """``bot`` on seat 1, having seen ``discard_below`` turned up and seat 0's W+4."""
    started(bot, 1, game)
    bot.observe([StartingCard(C(discard_below.split()[-1]))])
    bot.observe([Played(0, WILD_DRAW_FOUR, GREEN, None, False, False)])
    assert bot.color_before_wild_draw_four == RED
    return bot


def test_heuristic_challenges_a_likely_bluff() -> None:
    game = facing_wild_draw_four("B1 B2 B3 B4 B6 B7 B8")
    bot = heuristic_facing(game, HeuristicBot())
    view = game.view(1)
    chance = guilt_probability(bot.unseen(view), RED, 7)
    assert chance > 0.3
    assert bot.act(view) == Action.challenge(1)
    cautious = heuristic_facing(game, HeuristicBot(challenge_at=chance + 0.001))
    assert cautious.act(view) == Action.draw(1)
    bold = heuristic_facing(game, HeuristicBot(challenge_at=chance - 0.001))
    assert bold.act(view) == Action.challenge(1)


def test_heuristic_does_not_challenge_an_unlikely_bluff() -> None:
    game = facing_wild_draw_four("B1 B2 B3 B4 B6 B7 B8", discard_below=ALL_RED)
    bot = heuristic_facing(game, HeuristicBot(), discard_below=ALL_RED)
    view = game.view(1)
    assert guilt_probability(bot.unseen(view), RED, 7) == 0.0
    assert bot.act(view) == Action.draw(1)


def test_heuristic_does_not_challenge_without_knowing_the_colour_before() -> None:
    game = facing_wild_draw_four("B1 B2 B3 B4 B6 B7 B8")
    bot = started(HeuristicBot(), 1, game)
    assert isinstance(bot, HeuristicBot) and bot.color_before_wild_draw_four == -1
    assert bot.act(game.view(1)) == Action.draw(1)


def test_heuristic_judges_a_bluff_on_the_seat_the_view_names_accused() -> None:
    game = facing_wild_draw_four("B1 B2 B3 B4 B6 B7 B8")
    bot = heuristic_facing(game, HeuristicBot())
    view = game.view(1)
    assert view.accused == 0
    of_seat_0 = guilt_probability(bot.unseen(view), RED, 7)
    of_seat_2 = guilt_probability(bot.unseen(view), RED, 3)
    bot.challenge_at = (of_seat_0 + of_seat_2) / 2
    assert bot.should_challenge(view)
    assert not bot.should_challenge(dataclasses.replace(view, accused=2))


def test_guilt_probability_on_known_counts() -> None:
    red = Counter({C("R1"): 2, C("R2"): 1})
    others = Counter({C("G1"): 2, C("B5"): 2, C("Y7"): 2, C("W"): 1})
    assert guilt_probability(red, RED, 2) == 1.0
    assert guilt_probability(others, RED, 5) == 0.0
    assert guilt_probability(red + others, RED, 2) == pytest.approx(1 - comb(7, 2) / comb(10, 2))
    assert guilt_probability(red + others, RED, 2) == pytest.approx(24 / 45)
    assert guilt_probability(red + others, RED, 1) == pytest.approx(3 / 10)
    assert guilt_probability(red + others, RED, 8) == 1.0  # 7 cards are not red: 8 must hold one
    assert guilt_probability(red + others, RED, 50) == 1.0  # more than the unseen cards
    assert guilt_probability(red + others, RED, 0) == 0.0
    assert guilt_probability(Counter(), RED, 3) == 0.0
    deck = Counter(DECK)
    assert guilt_probability(deck, GREEN, 1) == pytest.approx(25 / 108)


def test_heuristic_that_never_slips_catches_an_opponent_who_forgot_uno() -> None:
    game = position(["R1 R2 R3", "G1", OPPONENT], "R5", current=2, uno_pending=1)
    assert react(make_bot("heuristic:forget=0:miss=0"), game, 0) == Action.catch(0, 1)


def test_heuristic_that_never_slips_calls_uno() -> None:
    game = position(["R1 G2", OPPONENT], "R5")
    assert act(make_bot("heuristic:forget=0:miss=0"), game) == Action.play(0, C("R1"), uno=True)
    late = position(["R1", OPPONENT, OTHER], "R5", current=1, uno_pending=0)
    assert react(make_bot("heuristic:forget=0:miss=0"), late, 0) == Action.call_uno(0)


FORGOT = position(["R1 R2 R3", "G1", OPPONENT], "R5", current=2, uno_pending=1)
"""Seat 0 may catch seat 1, who forgot UNO."""
LAST_BUT_ONE = position(["R1 G2", OPPONENT], "R5")
"""Seat 0's play of R1 leaves it one card: it may call UNO with it."""


def slip_rates(spec: str, samples: int) -> tuple[float, float]:
    """How often the bot of ``spec`` forgets UNO with a play and lets a catch go, measured."""
    plays = [a for seed in range(samples) if (a := act(make_bot(spec), LAST_BUT_ONE, seed=seed)).kind is Kind.PLAY]
    catches = [react(make_bot(spec), FORGOT, 0, seed=seed) for seed in range(samples)]
    assert {a.card for a in plays} == {C("R1")} and set(catches) <= {Action.catch(0, 1), None}
    return sum(not a.uno for a in plays) / len(plays), catches.count(None) / samples


@pytest.mark.parametrize("level", LEVELS, ids=[level.spec for level in LEVELS])
def test_every_level_slips_as_often_as_it_says(level: Level) -> None:
    forget, miss = slips(level.spec)
    samples = 12 if level.spec.startswith("ismcts") else 600
    measured_forget, measured_miss = slip_rates(level.spec, samples)
    assert measured_forget == pytest.approx(forget, abs=0.06)
    assert measured_miss == pytest.approx(miss, abs=0.06)


def test_the_default_level_slips_and_the_strongest_never() -> None:
    assert slips("heuristic") == (0.2, 0.25)
    assert slips(LEVELS[-1].spec) == slips(LEVELS[-2].spec) == (0.0, 0.0)


@pytest.mark.parametrize(
    ("spec", "rates"),
    [
        ("heuristic:forget=0.5:miss=0", (0.5, 0.0)),
        ("heuristic:forget=1:miss=1", (1.0, 1.0)),
        ("playfirst:forget=0.4:miss=0.1", (0.4, 0.1)),
        ("random:forget=0:miss=0", (0.0, 0.0)),
        ("ismcts:iterations=20:forget=1:miss=0", (1.0, 0.0)),
    ],
)
def test_slips_are_tunable_and_played_at_the_rate_asked(spec: str, rates: tuple[float, float]) -> None:
    assert slips(spec) == rates
    measured = slip_rates(spec, 40 if spec.startswith("ismcts") else 400)
    assert measured == pytest.approx(rates, abs=0.07)


@pytest.mark.parametrize("spec", ["heuristic:forget=1.5", "playfirst:miss=-0.1", "ismcts:forget=2"])
def test_a_slip_rate_outside_0_to_1_is_refused(spec: str) -> None:
    with raises_code(SettingsError, "setup.bad_slip_rate"):
        make_bot(spec)


def test_a_heuristic_that_forgot_puts_its_late_call_off_as_often() -> None:
    late = position(["R1", OPPONENT, OTHER], "R5", current=1, uno_pending=0)
    answers = [react(make_bot("heuristic:forget=0.5"), late, 0, seed=seed) for seed in range(400)]
    assert set(answers) == {Action.call_uno(0), None}
    assert 160 <= answers.count(None) <= 240


def test_heuristic_jumps_in() -> None:
    game = position([OPPONENT, "B1 B2 B3", "R5 G2 G3"], "R5", current=1, jump_in=True)
    assert react(HeuristicBot(), game, 2) == Action.play(2, C("R5"))
    last_two = position([OPPONENT, "B1 B2 B3", "R5 G2"], "R5", current=1, jump_in=True)
    assert react(HeuristicBot(), last_two, 2) == Action.play(2, C("R5"), uno=True)
    nothing = position([OPPONENT, "B1 B2 B3", "R6 G2"], "R5", current=1, jump_in=True)
    assert react(HeuristicBot(), nothing, 2) is None


@pytest.mark.parametrize(("sizes", "target"), [((5, 2, 4), 2), ((3, 6, 3), 1), ((4, 4, 1), 3)])
def test_heuristic_seven_swaps_with_the_smallest_hand(sizes: tuple[int, int, int], target: int) -> None:
    fillers = ["Y1 Y2 Y3 Y4 Y6 Y8", "B1 B2 B3 B4 B6 B8", "G5 G6 G8 G9 Y9 B9"]
    others = [" ".join(filler.split()[:size]) for filler, size in zip(fillers, sizes, strict=True)]
    game = position(["R7 G1 G2 G3", *others], "R4", seven_zero=True)
    action = act(HeuristicBot(), game)
    assert action.card == C("R7") and action.target == target
    assert action.uno == (min(sizes) == 1)


def test_heuristic_tracks_colours_an_opponent_lacks() -> None:
    bot = HeuristicBot()
    bot.start(0, Rules(players=3), random.Random(0))
    bot.observe([StartingCard(C("G5"))])
    bot.observe([Drew(1, 1, None, "turn")])
    assert bot.voids == {1: {GREEN}}
    bot.observe([Drew(0, 1, (C("B1"),), "turn")])  # its own draws are no news
    assert bot.voids == {1: {GREEN}}
    bot.observe([Drew(1, 2, None, "penalty")])
    assert bot.voids == {}
    bot.observe([Drew(2, 1, None, "turn"), Dealt(1, 1, ((), (), ()), None)])
    assert bot.voids == {}


def test_heuristic_void_is_reset_when_the_opponent_draws_again() -> None:
    bot = HeuristicBot()
    bot.start(0, Rules(players=3), random.Random(0))
    bot.observe([StartingCard(C("R5")), Drew(1, 1, None, "turn")])
    assert bot.voids == {1: {RED}}
    bot.observe([Played(2, C("Y5"), None, None, False, False), Drew(1, 1, None, "turn")])
    assert bot.voids == {1: {YELLOW}}


def test_heuristic_plays_the_colour_the_next_player_lacks() -> None:
    game = position(["R1 R2 G3 B7", FIVE, FIVE_B], "R3")
    assert act(HeuristicBot(), game) == Action.play(0, C("R2"))
    bot = HeuristicBot()
    started(bot, 0, game)
    bot.observe([StartingCard(C("G5")), Drew(1, 1, None, "turn")])
    assert bot.act(game.view(0)) == Action.play(0, C("G3"))
    wild = position(["W R1 G3", FIVE, FIVE_B], "B5")
    assert act(HeuristicBot(), wild) == Action.play(0, C("W"), color=RED)
    bot = HeuristicBot()
    started(bot, 0, wild)
    bot.observe([StartingCard(C("G5")), Drew(1, 1, None, "turn")])
    assert bot.act(wild.view(0)) == Action.play(0, C("W"), color=GREEN)


# ---------------------------------------------------------------- sampled worlds

SAMPLE_RULES = [
    Rules(players=2, target_score=0),
    Rules(players=4, target_score=0),
    Rules.preset("all", players=3, target_score=0),
    Rules.preset("all", players=5, target_score=0),
    Rules(players=3, target_score=0, seven_zero=True, jump_in=True),
    Rules(players=4, target_score=0, draw_until_playable=True, stack_draw_two=True, stack_mixed=True),
    Rules(players=6, hand_size=10, target_score=0),
]


def random_positions(rules: Rules, seed: int, every: int = 7) -> Iterator[Game]:
    """Copies of a round played at random (out-of-turn chances included), every few actions."""
    rng = random.Random(seed)
    game = Game(rules, seed=seed, history=False)
    step = 0
    while not game.round_over and step < 600:
        if step % every == 0:
            yield game.copy()
        seats = [game.current, *game.out_of_turn_seats()]
        seat = rng.choice(seats)
        game.push(rng.choice(game.legal_actions(seat)))
        step += 1


def all_cards(game: Game) -> Counter[Card]:
    return Counter([c for hand in game.hands for c in hand] + game.pile + game.discard)


def check_world(world: Game, view: View) -> None:
    assert view.seat is not None
    assert all_cards(world) == Counter(DECK)
    assert world.hands[view.seat] == list(view.hand)
    assert tuple(len(h) for h in world.hands) == view.hand_sizes
    assert world.discard == list(view.discard)
    assert len(world.pile) == view.pile_size
    assert world.color == view.color
    assert (world.direction, world.current, world.phase) == (view.direction, view.current, view.phase)
    assert (world.penalty, world.challengeable) == (view.penalty, view.challengeable)
    assert world.uno_pending == view.uno_pending
    assert (tuple(world.scores), world.round, world.dealer) == (view.scores, view.round, view.dealer)
    assert world.rules == view.rules
    if view.challengeable:
        assert world.accused == view.accused
    if view.seat == view.current:
        assert world.drawn == view.drawn
        assert tuple(world.legal_actions(view.seat)) == view.legal_actions


@pytest.mark.parametrize("rules", SAMPLE_RULES, ids=lambda r: f"{r.players}p")
def test_sampled_worlds_agree_with_the_view(rules: Rules) -> None:
    checked = 0
    for seed in range(3):
        for game in random_positions(rules, seed):
            for seat in range(rules.players):
                view = game.view(seat)
                worlds = [sample_world(view, random.Random(s)) for s in range(4)]
                for world in worlds:
                    check_world(world, view)
                    checked += 1
                unseen = sum(view.hand_sizes) - len(view.hand)
                if unseen >= 2 and view.pile_size:
                    others = {tuple(tuple(sorted(h)) for i, h in enumerate(w.hands) if i != seat) for w in worlds}
                    assert len(others) > 1, "different seeds deal the hidden cards differently"
    assert checked > 200


def test_sampled_worlds_judge_guilt_on_the_seat_the_view_names_accused() -> None:
    game = facing_wild_draw_four("B1 B2 B3 B4 B6 B7 B8")
    view = dataclasses.replace(game.view(1), accused=2)
    for seed in range(10):
        world = sample_world(view, random.Random(seed), color_before_wild_draw_four=RED)
        assert world.accused == 2
        assert world.accused_guilty == any(COLOR_OF[c] == RED for c in world.hands[2])


def test_sampled_worlds_play_on() -> None:
    """A sampled world is a game that can be played to its end."""
    rng = random.Random(3)
    for rules in SAMPLE_RULES:
        for game in random_positions(rules, 11, every=13):
            view = game.view(game.current)
            world = sample_world(view, rng)
            for _ in range(3000):
                if world.round_over:
                    break
                seat = world.current
                world.push(rollout_action(world, seat, rng))
                assert all_cards(world) == Counter(DECK)


def test_sampled_worlds_never_use_the_true_hidden_hands() -> None:
    rules = Rules(players=4, target_score=0)
    for game in random_positions(rules, 5, every=5):
        seat = game.current
        # the same public state and own hand, with every hidden card dealt otherwise
        rng = random.Random(1)
        hidden = [c for other, hand in enumerate(game.hands) if other != seat for c in hand] + game.pile
        rng.shuffle(hidden)
        hands: list[list[Card]] = []
        for other, hand in enumerate(game.hands):
            if other == seat:
                hands.append(list(hand))
            else:
                hands.append(hidden[: len(hand)])
                hidden = hidden[len(hand) :]
        twin = Game.from_position(
            rules,
            dataclasses.replace(game.position(), hands=tuple(map(tuple, hands)), pile=tuple(hidden), shown=None),
        )
        view = game.view(seat)
        if game.shown is None:
            assert twin.view(seat) == view
        twin_view = twin.view(seat)
        for s in range(3):
            ours = sample_world(view, random.Random(s))
            theirs = sample_world(twin_view, random.Random(s))
            assert ours.hands == theirs.hands and ours.pile == theirs.pile
            check_world(ours, twin_view)


def test_sampled_worlds_deal_around_the_colours_an_opponent_lacks() -> None:
    rules = Rules(players=4, target_score=0)
    for game in random_positions(rules, 8, every=9):
        seat = game.current
        view = game.view(seat)
        lacking = {(seat + 1) % 4: {RED, GREEN}, (seat + 2) % 4: {BLUE}, seat: {YELLOW}}
        unseen = Counter(DECK)
        unseen.subtract(view.hand)
        unseen.subtract(view.discard)
        for s in range(5):
            world = sample_world(view, random.Random(s), lacking=lacking)
            check_world(world, view)
            for other, colors in lacking.items():
                if other == seat:
                    continue
                allowed = sum(n for c, n in unseen.items() if c >= WILD or COLOR_OF[c] not in colors)
                held = [c for c in world.hands[other] if c < WILD and COLOR_OF[c] in colors]
                if allowed >= sum(view.hand_sizes[o] for o in lacking if o != seat):
                    assert held == [], "a lacking opponent is dealt around its void colours"


def test_sampled_worlds_of_a_seat_waiting_on_a_drawn_card() -> None:
    game = position(["G2 B3 R7", OPPONENT, OTHER], "R5", phase=Phase.DRAWN, drawn="R7")
    view = game.view(1)
    assert view.phase is Phase.DRAWN and view.drawn is None
    world = sample_world(view, random.Random(0))
    check_world(world, view)
    for action in world.legal_actions(0):
        assert action.card is None or action.card in world.hands[0]


def test_sampled_guilt_follows_the_sampled_hand() -> None:
    game = facing_wild_draw_four("B1 B2 B3 B4 B6 B7 B8")
    view = game.view(1)
    verdicts = set()
    for s in range(30):
        world = sample_world(view, random.Random(s), color_before_wild_draw_four=RED)
        check_world(world, view)
        assert world.accused == 0
        assert world.accused_guilty == any(COLOR_OF[c] == RED for c in world.hands[0])
        verdicts.add(world.accused_guilty)
    assert True in verdicts  # a random seven-card hand from the unseen cards mostly holds a red card


def test_sampled_guilt_without_a_known_colour_is_never_guilty() -> None:
    game = facing_wild_draw_four("B1 B2 B3 B4 B6 B7 B8")
    view = game.view(1)
    for s in range(30):
        world = sample_world(view, random.Random(s))
        assert world.accused_guilty is False, f"guilty with {world.hands[0]}"


def test_sampled_guilt_ignores_wild_cards() -> None:
    game = facing_wild_draw_four("B1 B2 B3 B4 B6 B7 B8", discard_below=ALL_RED)
    view = game.view(1)
    wilds = 0
    for s in range(30):
        world = sample_world(view, random.Random(s), color_before_wild_draw_four=RED)
        assert world.accused_guilty is False  # no red card is left unseen
        wilds += any(c >= WILD for c in world.hands[0])
    assert wilds > 0


# ---------------------------------------------------------------- ismcts

ISMCTS_POSITIONS = [
    pytest.param(lambda: position(["R1", OPPONENT], "R5"), Action.play(0, C("R1")), id="last-card"),
    pytest.param(lambda: position(["W", OPPONENT, OTHER], "R5"), None, id="last-wild"),
    pytest.param(lambda: position(["RS GS", OPPONENT], "R5"), Action.play(0, C("RS"), uno=True), id="skip-chain"),
    pytest.param(lambda: position(["R3 RS", OPPONENT], "R5"), Action.play(0, C("RS"), uno=True), id="skip-first"),
    pytest.param(lambda: position(["R3 RR", OPPONENT], "R5"), Action.play(0, C("RR"), uno=True), id="reverse-first"),
]


@pytest.mark.parametrize(("make", "expected"), ISMCTS_POSITIONS)
def test_ismcts_finds_the_winning_move(make: Callable[[], Game], expected: Action | None) -> None:
    for seed in range(3):
        game = make()
        action = act(IsmctsBot(iterations=200), game, seed=seed)
        if expected is None:
            assert action.kind is Kind.PLAY and action.card == WILD
        else:
            assert action == expected
        game.apply(action)
        while not game.round_over and game.current == 0:
            game.apply(act(IsmctsBot(iterations=200), game, seed=seed))
        assert game.round_over and not game.hands[0]


def ismcts_views() -> Iterator[View]:
    for rules in (Rules(players=3, target_score=0), Rules.preset("all", players=4, target_score=0)):
        for game in random_positions(rules, 2, every=11):
            if game.phase is not Phase.COLOR:
                yield game.view(game.current)


def test_ismcts_returns_a_legal_action() -> None:
    for view in ismcts_views():
        bot = IsmctsBot(iterations=30)
        bot.start(view.current, view.rules, random.Random(0))
        assert bot.act(view) in view.legal_actions


def test_ismcts_is_deterministic_for_a_seed() -> None:
    for view in list(ismcts_views())[::2]:
        choices = []
        for _ in range(2):
            bot = IsmctsBot(iterations=30)
            bot.start(view.current, view.rules, random.Random(42))
            choices.append(bot.act(view))
        assert choices[0] == choices[1]
    view = next(ismcts_views())
    roots = [search(view, random.Random(9), iterations=30, seconds=None, exploration=0.7) for _ in range(2)]
    assert {a: (n.visits, n.wins) for a, n in roots[0].children.items()} == {
        a: (n.visits, n.wins) for a, n in roots[1].children.items()
    }
    assert sum(n.visits for n in roots[0].children.values()) == 30


def test_ismcts_search_counts_its_iterations() -> None:
    view = position(["R1 G2 B3 Y4 W", OPPONENT, OTHER], "R5").view(0)
    root = search(view, random.Random(0), iterations=25, seconds=None, exploration=0.7)
    assert sum(child.visits for child in root.children.values()) == 25
    assert set(root.children) <= set(view.legal_actions)
    assert all(child.player == 0 for child in root.children.values())


def test_ismcts_with_a_time_budget_stops_in_time() -> None:
    game = position(["R1 R2 G3 G4 B5 B6 Y7 Y8 W", OPPONENT, OTHER], "R5", stack_draw_two=True)
    bot = IsmctsBot(seconds=0.05)
    started(bot, 0, game)
    began = time.perf_counter()
    action = bot.act(game.view(0))
    assert time.perf_counter() - began < 1.0
    assert action in game.legal_actions(0)


def test_ismcts_takes_a_forced_move_without_search() -> None:
    game = position(["G2 R3", OPPONENT], "R5", phase=Phase.DRAWN, drawn="R3", force_play_drawn=True)
    assert tokens_of(game.legal_actions(0)) == ["0 play R3", "0 play R3 uno"]
    bot = IsmctsBot(iterations=1)
    started(bot, 0, game)
    root_calls: list[View] = []
    bot.search = root_calls.append  # type: ignore[assignment,method-assign]
    assert bot.act(game.view(0)) == Action.play(0, C("R3"), uno=True)
    assert root_calls == []


def test_ismcts_follows_heuristic_for_colour_and_out_of_turn() -> None:
    colour = position(["R1 G2 G3 G4 W", OPPONENT], "W", phase=Phase.COLOR)
    assert act(IsmctsBot(iterations=5), colour) == Action.choose_color(0, GREEN)
    forgot = position(["R1 R2 R3", "G1", OPPONENT], "R5", current=2, uno_pending=1)
    assert react(IsmctsBot(iterations=5), forgot, 0) == Action.catch(0, 1)


@pytest.mark.parametrize(
    "options",
    [{"iterations": 0}, {"iterations": -3}, {"seconds": 0.0}, {"seconds": -1.0}, {"iterations": 0, "seconds": 1.0}],
)
def test_ismcts_refuses_bad_budgets(options: dict[str, float]) -> None:
    with raises_code(SettingsError, "setup.bad_search"):
        IsmctsBot(**options)  # type: ignore[arg-type]


def test_ismcts_never_reads_the_true_state() -> None:
    """Two games that look the same to the bot get the same answer."""
    game = position(["R1 R2 G3 B4 W", OPPONENT, OTHER], "R5")
    twin = position(["R1 R2 G3 B4 W", OTHER, OPPONENT], "R5")
    assert game.view(0) == twin.view(0)
    answers = [act(IsmctsBot(iterations=40), g, seed=3) for g in (game, twin)]
    assert answers[0] == answers[1]


def test_ismcts_plays_a_whole_match_against_the_baselines() -> None:
    rules = Rules(players=3, target_score=0)
    table = bot_match(rules, [make_bot("ismcts:iterations=30"), make_bot("playfirst"), make_bot("random")], seed=4)
    outcome = table.play()
    assert outcome.winner in (0, 1, 2)
    assert outcome.decisions[0] > 0
