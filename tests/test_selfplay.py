"""Self-play: its players follow the baseline bots' policies exactly, through the conductor."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from codes import raises_code
from unomas import record
from unomas.actions import Action, Kind
from unomas.bots import PlayFirstBot, RandomBot
from unomas.bots.base import Bot
from unomas.bots.player import bot_match
from unomas.bots.policies import ViewOptions
from unomas.cli import app
from unomas.conductor import Conductor, Player
from unomas.errors import SettingsError
from unomas.events import Event
from unomas.rules import Rules
from unomas.runs.selfplay import POLICIES, PlayFirstPlayer, RandomPlayer, players, selfplay

RULES = [
    pytest.param(Rules(players=2, target_score=100), id="official-2"),
    pytest.param(Rules(players=4, target_score=0), id="official-4"),
    pytest.param(Rules.preset("all", players=3, target_score=100), id="all-3"),
    pytest.param(Rules(players=5, hand_size=4, target_score=0, seven_zero=True, jump_in=True), id="seven-jump"),
    pytest.param(Rules(players=3, target_score=0, draw_until_playable=True, force_play_drawn=True), id="drawing"),
]
BOTS: dict[str, type[Bot]] = {"playfirst": PlayFirstBot, "random": RandomBot}


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("policy", POLICIES)
def test_a_selfplay_match_is_the_match_of_the_bots_of_the_same_name(rules: Rules, policy: str) -> None:
    """One policy: from the same seed (so the same random source at every seat), the fast
    players and the view-based bots take the very same actions."""
    for seed in range(3):
        fast = selfplay(rules, policy, seed=seed, history=True)
        fast_summary = fast.play()
        bots = bot_match(rules, [BOTS[policy]() for _ in range(rules.players)], seed=seed)
        bots_summary = bots.play()
        assert record.to_json(fast.game) == record.to_json(bots.game)
        assert (fast_summary.winner, fast_summary.scores) == (bots_summary.winner, bots_summary.scores)


class Heard:
    """A listener keeping the events of every change it hears."""

    def __init__(self, heard: list[list[Event]]) -> None:
        self.heard = heard

    def __call__(self, action: Action | None, events: list[Event]) -> None:
        self.heard.append(events)


class Watching(Player):
    """A self-play player that notes, at each of its decisions, whether the game reports events."""

    def __init__(self, inner: Player, reporting: list[bool]) -> None:
        self.inner, self.reporting = inner, reporting
        self.name, self.trusted = inner.name, True

    def start(self, seat: int, rules: Rules, rng: random.Random) -> None:
        self.inner.start(seat, rules, rng)

    def decide(self, table: Conductor, seat: int, out_of_turn: bool) -> Action | None:
        self.reporting.append(table.game.reporting)
        return self.inner.decide(table, seat, out_of_turn)


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("policy", POLICIES)
def test_a_match_nobody_listens_to_plays_quiet_and_the_same(rules: Rules, policy: str) -> None:
    """With nobody to tell and no history, the conductor's game builds no events while it
    plays, and reports again afterwards; the match, its position and its summary are those of
    the same match with a listener."""
    for seed in range(3):
        reporting: list[bool] = []
        seats: list[Player | None] = [Watching(p, reporting) for p in players(policy, rules.players) if p]
        quiet = Conductor.seeded(rules, seats, seed=seed, history=False)
        told = selfplay(rules, policy, seed=seed)
        heard: list[list[Event]] = []
        told.listen(None, Heard(heard))
        quiet_summary, told_summary = quiet.play(), told.play()
        assert quiet_summary == told_summary
        assert quiet.game.position() == told.game.position()
        assert reporting and not any(reporting)
        assert quiet.game.reporting and told.game.reporting
        assert len(heard) == told.game.ply + told.game.round  # every action and later deal told
        assert all(heard)


@pytest.mark.parametrize("rules", RULES)
def test_a_view_offers_the_seat_the_options_the_conductor_offers(rules: Rules) -> None:
    """What the bots read from their view (cards, then each card's variants, in order, and the
    actions other than plays) is what the fast players read from the conductor."""
    table = selfplay(rules, "random", seed="options")
    checked = 0
    while not table.game.is_over and checked < 400:
        if table.game.round_over:
            table.deal()
            continue
        for seat in range(rules.players):
            seen = ViewOptions(table.view(seat))
            cards = table.playable_cards(seat)
            assert seen.playable_cards(seat) == cards
            for card in cards:
                assert list(seen.play_variants(seat, card)) == list(table.play_variants(seat, card))
            legal = table.legal_actions(seat)
            assert list(seen.legal_actions(seat)) == legal
            others = table.game.non_play_actions(seat)
            assert seen.non_play_actions(seat) == others
            assert legal[: len(others)] == others  # the legal actions: the others, then the plays
            assert all(action.kind is Kind.PLAY for action in legal[len(others) :])
            assert all(action.kind is not Kind.PLAY for action in others)
        checked += 1
        table.step()


def test_each_seat_draws_on_its_own_random_source() -> None:
    table = selfplay(Rules(players=3, target_score=0), "playfirst", seed=7)
    rngs = [player.rng for player in table.players if isinstance(player, PlayFirstPlayer)]
    assert len(rngs) == 3
    assert [rng.getstate() for rng in rngs] == [random.Random(f"7/seat {seat}").getstate() for seat in range(3)]


def test_players_of_each_policy_are_trusted() -> None:
    assert [type(p) for p in players("playfirst", 2)] == [PlayFirstPlayer, PlayFirstPlayer]
    assert [type(p) for p in players("random", 3)] == [RandomPlayer] * 3
    assert all(p is not None and p.trusted for p in players("random", 2) + players("playfirst", 2))
    with raises_code(SettingsError, "setup.unknown_policy"):
        players("uniform", 2)


def test_unomas_simulate_plays_the_matches_of_a_tournament_of_playfirst_bots(tmp_path: Path) -> None:
    """``unomas simulate --policy playfirst`` match k is a tournament's match k between
    ``playfirst`` bots: both seed match k with ``f"{seed}/{k}"``."""
    folder = tmp_path
    runner = CliRunner()
    common = ["--games", "3", "--seed", "9", "--players", "3", "--set", "target_score=60"]
    simulated = runner.invoke(app, ["simulate", "--policy", "playfirst", *common, "--records", str(folder / "s.jsonl")])
    assert simulated.exit_code == 0, simulated.output
    played = runner.invoke(app, ["tournament", "--bots", "playfirst", *common, "--records", str(folder / "t.jsonl")])
    assert played.exit_code == 0, played.output
    tournament = record.read_file(folder / "t.jsonl")
    for entry in tournament:
        assert entry.pop("names") == ["playfirst"] * 3
    assert record.read_file(folder / "s.jsonl") == tournament


def test_the_decision_is_the_seat_on_turn_or_the_first_of_the_window() -> None:
    table = selfplay(Rules(players=3, target_score=0, jump_in=True), "random", seed=2)
    asked_out_of_turn = 0
    while not table.game.round_over:
        decision = table.decision()
        assert decision is not None
        seat, out_of_turn = decision
        window = table.game.out_of_turn_seats()
        assert (seat, out_of_turn) == ((window[0], True) if out_of_turn else (table.game.current, False))
        asked_out_of_turn += out_of_turn
        table.step()
    assert table.decision() is None
    assert asked_out_of_turn > 0
