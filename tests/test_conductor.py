"""The conductor: the decision sequence, out-of-turn chances, failing bots, summaries."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

import pytest

import unomas.conductor
from bot_fixtures import Recorder, spied_table
from codes import raises_code
from unomas.actions import Action, Kind
from unomas.bots import HeuristicBot, PlayFirstBot, RandomBot, make_bot
from unomas.bots.base import Bot, plays
from unomas.bots.player import BotPlayer, bot_match
from unomas.cards import parse_card
from unomas.conductor import Conductor, MatchSummary
from unomas.errors import BotError, IllegalAction, SettingsError
from unomas.events import Caught, Dealt, Drew, Event, MatchEnded, Played, RoundEnded, UnoCalled
from unomas.rules import Rules
from unomas.testing import snapshot
from unomas.view import View


def everything(table_events: list[tuple[Action | None, list[Event]]]) -> list[Event]:
    return [event for _, events in table_events for event in events]


class Watched(PlayFirstBot):
    """A baseline that knows its table, to look at the whole game when it misbehaves."""

    def __init__(self) -> None:
        super().__init__()
        self.table: Conductor | None = None
        self.closed = 0
        self.before: tuple[Any, ...] | None = None
        self.moves_before = -1
        self.view_before: View | None = None

    def remember(self, view: View) -> None:
        assert self.table is not None
        game = self.table.game
        self.before = snapshot(game)
        assert game.log is not None
        self.moves_before = sum(len(r.moves) for r in game.log)
        self.view_before = view

    def close(self) -> None:
        self.closed += 1


class Passer(Watched):
    """Passes on a normal turn, which is never legal."""

    name = "passer"

    def act(self, view: View) -> Action:
        if view.phase.name == "TURN":
            self.remember(view)
            return Action.pass_(self.seat)
        return super().act(view)


class Impostor(Watched):
    """Answers for the next seat."""

    name = "impostor"

    def act(self, view: View) -> Action:
        self.remember(view)
        return Action.draw((self.seat + 1) % self.rules.players)


class Confused(Watched):
    """Answers with something that is not an action at all."""

    name = "confused"

    def act(self, view: View) -> Action:
        self.remember(view)
        return "draw"  # type: ignore[return-value]


class Silent(Watched):
    name = "silent"

    def act(self, view: View) -> Action:
        self.remember(view)
        return None  # type: ignore[return-value]


class Crasher(Watched):
    name = "crasher"

    def act(self, view: View) -> Action:
        self.remember(view)
        raise RuntimeError("boom")


class Misreader(Watched):
    """Crashes with one of unomas's own errors (it misreads a card)."""

    name = "misreader"

    def act(self, view: View) -> Action:
        self.remember(view)
        parse_card("R10")
        return super().act(view)


def seated(rules: Rules, bad: Watched, seat: int, seed: int = 3) -> tuple[Conductor, list[Watched]]:
    bots: list[Watched] = [Watched() for _ in range(rules.players)]
    bots[seat] = bad
    table = bot_match(rules, bots, seed=seed)
    for bot in bots:
        bot.table = table
    return table, bots


def fails(table: Conductor, bad: Watched, seat: int, code: str) -> BotError:
    with raises_code(BotError, code, seat=seat, bot=bad.name) as caught:
        table.play()
    return caught.value


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_an_illegal_action_is_refused_and_changes_nothing(seat: int) -> None:
    bad = Passer()
    table, bots = seated(Rules(players=3, target_score=0), bad, seat)
    error = fails(table, bad, seat, "bot.illegal_action")
    assert error.params["cause_code"] == "move.pass_not_allowed"
    assert snapshot(table.game) == bad.before
    assert table.game.view(seat) == bad.view_before
    assert table.game.log is not None
    assert sum(len(r.moves) for r in table.game.log) == bad.moves_before
    assert all(bot.closed == 1 for bot in bots)


@pytest.mark.parametrize(
    ("bad", "code"),
    [
        (Impostor(), "bot.not_own_action"),
        (Confused(), "bot.not_own_action"),
        (Silent(), "bot.no_action"),
        (Crasher(), "bot.crashed"),
    ],
    ids=lambda x: x.name if isinstance(x, Bot) else "",
)
def test_a_failing_bot_is_named(bad: Watched, code: str) -> None:
    table, bots = seated(Rules(players=2, target_score=0), bad, 1)
    error = fails(table, bad, 1, code)
    assert snapshot(table.game) == bad.before
    if isinstance(bad, Impostor):
        assert error.params["answer"].startswith("Action('")
    if isinstance(bad, Crasher):
        assert error.params["error"] == "RuntimeError: boom"
        assert isinstance(error.__cause__, RuntimeError)
    assert all(bot.closed == 1 for bot in bots)


def test_a_bot_crashing_with_a_unomas_error_is_named() -> None:
    bad = Misreader()
    table, _ = seated(Rules(players=2, target_score=0), bad, 1)
    assert fails(table, bad, 1, "bot.crashed").params["error"].startswith("NotationError: ")


class FailingStart(RandomBot):
    name = "badstart"

    def start(self, seat: int, rules: Rules, rng: random.Random) -> None:
        raise KeyError("no model file")


class FailingObserve(RandomBot):
    name = "badeyes"

    def __init__(self, after: int = 0) -> None:
        super().__init__()
        self.after = after

    def observe(self, events: Sequence[Event]) -> None:
        if self.after <= 0:
            raise ValueError("cannot read events")
        self.after -= 1


def test_a_bot_failing_to_start_is_named() -> None:
    with pytest.raises(BotError) as caught:
        bot_match(Rules(players=3), [RandomBot(), RandomBot(), FailingStart()], seed=1)
    assert caught.value.seat == 2
    assert caught.value.bot == "badstart"
    assert (caught.value.code, caught.value.params["step"]) == ("bot.hook_failed", "start")
    assert caught.value.params["error"] == "KeyError: 'no model file'"


def test_a_bot_failing_to_observe_the_deal_is_named() -> None:
    with pytest.raises(BotError) as caught:
        bot_match(Rules(players=3), [RandomBot(), FailingObserve(), RandomBot()], seed=1)
    assert (caught.value.seat, caught.value.bot) == (1, "badeyes")
    assert (caught.value.code, caught.value.params["step"]) == ("bot.hook_failed", "observe")
    assert caught.value.params["error"] == "ValueError: cannot read events"


def test_a_bot_failing_to_observe_during_play_is_named() -> None:
    table = bot_match(Rules(players=2, target_score=0), [RandomBot(), FailingObserve(after=5)], seed=1)
    with raises_code(BotError, "bot.hook_failed"):
        table.play()


def test_a_table_needs_one_bot_per_seat() -> None:
    with raises_code(SettingsError, "setup.player_count"):
        bot_match(Rules(players=3), [RandomBot(), RandomBot()])


# ---------------------------------------------------------------- outcomes


def play(specs: Sequence[str], seed: int | str | None, **settings: Any) -> tuple[MatchSummary, Recorder]:
    recorder = Recorder()
    rules = Rules(**({"players": len(specs)} | settings))
    table = bot_match(rules, [make_bot(s) for s in specs], seed=seed, witness=recorder)
    outcome = table.play()
    assert outcome.actions == table.game.ply
    recorder.game = table.game
    return outcome, recorder


def summary(outcome: MatchSummary, recorder: Recorder) -> tuple[Any, ...]:
    moves = [action for action, _ in recorder.everything]
    return (outcome.winner, outcome.scores, outcome.round_winners, outcome.round_points, moves)


@pytest.mark.parametrize(
    "specs",
    [
        ["random", "playfirst", "heuristic"],
        ["heuristic", "heuristic", "random", "playfirst"],
        ["random", "random"],
    ],
)
def test_the_same_seed_gives_the_same_match(specs: list[str]) -> None:
    first = summary(*play(specs, 7, target_score=200))
    again = summary(*play(specs, 7, target_score=200))
    assert first == again
    others = {repr(summary(*play(specs, seed, target_score=200))[:4]) for seed in (8, 9, "x")}
    assert len(others | {repr(first[:4])}) > 1


def test_the_same_seed_gives_the_same_match_with_ismcts() -> None:
    specs = ["ismcts:iterations=20", "heuristic", "random"]
    assert summary(*play(specs, "s", target_score=0)) == summary(*play(specs, "s", target_score=0))


def test_an_unseeded_table_plays_a_match() -> None:
    outcome, _ = play(["playfirst", "heuristic"], None, target_score=0)
    assert outcome.winner in (0, 1)


def test_the_outcome_follows_the_events() -> None:
    outcome, recorder = play(["heuristic", "playfirst", "random"], 11, target_score=300)
    events = everything(recorder.everything)
    ended = [e for e in events if isinstance(e, RoundEnded)]
    assert outcome.winner is not None
    assert outcome.round_winners == [e.winner for e in ended]
    assert outcome.round_points == [e.points for e in ended]
    assert outcome.scores == list(ended[-1].scores)
    assert [e for e in events if isinstance(e, MatchEnded)] == [MatchEnded(outcome.winner, tuple(outcome.scores))]
    assert outcome.scores[outcome.winner] >= 300
    assert sum(isinstance(e, Dealt) for e in events) == len(ended)
    assert not outcome.abandoned
    assert recorder.game is not None and recorder.game.is_over and recorder.game.winner == outcome.winner


def test_the_table_sees_every_event_unredacted() -> None:
    outcome, recorder = play(["random", "random", "random"], 5, target_score=0)
    assert recorder.everything[0][0] is None  # the deal, told before any action
    events = everything(recorder.everything)
    dealt = [e for e in events if isinstance(e, Dealt)]
    assert all(hand is not None for e in dealt for hand in e.hands) and all(e.pile is not None for e in dealt)
    assert all(e.cards is not None and len(e.cards) == e.amount for e in events if isinstance(e, Drew))
    assert outcome.winner is not None


class Counting(Bot):
    """Counts the table's questions while a real bot answers."""

    def __init__(self, inner: Bot) -> None:
        super().__init__()
        self.inner = inner
        self.name = inner.name
        self.acts = 0
        self.reacts = 0
        self.offered: list[View] = []

    def start(self, seat: int, rules: Rules, rng: random.Random) -> None:
        super().start(seat, rules, rng)
        self.inner.start(seat, rules, rng)

    def act(self, view: View) -> Action:
        self.acts += 1
        return self.inner.act(view)

    def react(self, view: View) -> Action | None:
        self.reacts += 1
        self.offered.append(view)
        return self.inner.react(view)

    def observe(self, events: Sequence[Event]) -> None:
        self.inner.observe(events)


def test_seat_stats_count_decisions() -> None:
    bots = [Counting(make_bot(s)) for s in ("heuristic", "random", "playfirst", "ismcts:iterations=10")]
    began = time.perf_counter()
    outcome = bot_match(Rules(players=4, target_score=0, jump_in=True), bots, seed=2).play()
    elapsed = time.perf_counter() - began
    assert len(outcome.decisions) == len(outcome.thinking) == 4
    for bot, decisions, thinking in zip(bots, outcome.decisions, outcome.thinking, strict=True):
        assert decisions == bot.acts + bot.reacts
        assert bot.acts > 0
        assert 0 < thinking <= elapsed
    assert sum(bot.reacts for bot in bots) > 0


class Forgetful(PlayFirstBot):
    """Never calls UNO: neither with the play nor afterwards."""

    name = "forgetful"

    def act(self, view: View) -> Action:
        options = [a for a in plays(view.legal_actions) if not a.uno]
        if options:
            return self.rng.choice(options)
        action = super().act(view)
        assert action.kind is not Kind.UNO
        return action

    def react(self, view: View) -> Action | None:
        return None


def test_a_catcher_catches_a_forgetful_player() -> None:
    recorder = Recorder()
    bots = [Counting(Forgetful()), Counting(HeuristicBot()), Counting(HeuristicBot())]
    outcome = bot_match(Rules(players=3, target_score=300), bots, seed=1, witness=recorder).play()
    assert outcome.winner in (0, 1, 2)
    events = everything(recorder.everything)
    assert not any(isinstance(e, UnoCalled) and e.player == 0 for e in events)
    catches = [i for i, e in enumerate(events) if isinstance(e, Caught)]
    assert catches, "the forgetful player was never caught"
    for i in catches:
        caught = events[i]
        assert isinstance(caught, Caught) and caught.target == 0 and caught.catcher in (1, 2)
        drew = events[i + 1]
        assert isinstance(drew, Drew) and (drew.player, drew.reason) == (0, "caught")
    # each chance to catch offered out of turn was taken
    offered = [v for bot in bots[1:] for v in bot.offered if any(a.kind is Kind.CATCH for a in v.legal_actions)]
    assert len(offered) == len(catches)
    assert any(Action.call_uno(0) in v.legal_actions for v in bots[0].offered)  # its late call, declined


def test_a_catcher_catches_a_forgetful_player_heads_up() -> None:
    recorder = Recorder()
    bots = [Counting(Forgetful()), Counting(HeuristicBot())]
    bot_match(Rules(players=2, target_score=300), bots, seed=1, witness=recorder).play()
    assert any(isinstance(e, Caught) for e in everything(recorder.everything))


def test_a_forgetful_player_is_not_caught_by_players_who_let_chances_go() -> None:
    recorder = Recorder()
    bots = [Counting(Forgetful()), Counting(Forgetful()), Counting(Forgetful())]
    bot_match(Rules(players=3, target_score=300), bots, seed=1, witness=recorder).play()
    assert not any(isinstance(e, Caught) for e in everything(recorder.everything))
    assert any(Action.catch(2, 0) in v.legal_actions for v in bots[2].offered)


def test_jump_ins_are_offered() -> None:
    bots = [Counting(HeuristicBot()) for _ in range(4)]
    recorder = Recorder()
    bot_match(Rules(players=4, target_score=200, jump_in=True), bots, seed=3, witness=recorder).play()
    offered = [v for bot in bots for v in bot.offered if any(a.kind is Kind.PLAY for a in v.legal_actions)]
    assert offered, "no jump-in was ever offered"
    jumps = [e for e in everything(recorder.everything) if isinstance(e, Played) and e.jump_in]
    assert len(jumps) == len(offered)  # heuristic jumps in at every chance


def test_out_of_turn_chances_go_to_the_watched_seats() -> None:
    table, spies = spied_table(
        Rules.preset("all", players=3, target_score=0),
        [make_bot("random"), make_bot("heuristic"), make_bot("random")],
        seed=4,
    )
    table.play()
    assert any(v.current != spy.seat for spy in spies for v in spy.views)


def test_an_endless_round_is_abandoned(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(unomas.conductor, "MAX_ACTIONS_PER_ROUND", 30)
    rules = Rules(players=2, target_score=500, draw_until_playable=True)
    bots = [Counting(RandomBot()), Counting(RandomBot())]
    table = bot_match(rules, bots, seed=1)
    outcome = table.play()
    assert outcome.abandoned
    assert outcome.winner is None
    assert outcome.round_winners == [] and outcome.round_points == []
    assert outcome.scores == [0, 0]
    assert not table.game.round_over
    assert sum(outcome.decisions) >= 30


def test_a_round_within_the_limit_is_not_abandoned(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(unomas.conductor, "MAX_ACTIONS_PER_ROUND", 10_000)
    outcome, _ = play(["heuristic", "heuristic"], 1, target_score=0)
    assert not outcome.abandoned and outcome.winner in (0, 1)


def test_a_finished_game_refuses_more_actions() -> None:
    _, recorder = play(["playfirst", "playfirst"], 2, target_score=0)
    assert recorder.game is not None
    with raises_code(IllegalAction, "move.match_over"):
        recorder.game.apply(Action.draw(0))


# ---------------------------------------------------------------- the sequence, the guard, the stream


def test_a_stale_action_is_refused_and_changes_nothing() -> None:
    table = bot_match(Rules(players=2, target_score=0), [RandomBot(), RandomBot()], seed=3)
    ply = table.game.ply
    proposal = table.propose()
    assert proposal is not None and table.view(proposal.player).ply == ply
    table.act(proposal, ply=ply)
    assert table.game.ply == ply + 1
    before = snapshot(table.game)
    late = table.propose()
    assert late is not None
    with pytest.raises(IllegalAction) as caught:
        table.act(late, ply=ply)
    assert caught.value.code == "move.stale" and caught.value.params == {"ply": ply, "now": ply + 1}
    assert snapshot(table.game) == before


def test_the_sequence_waits_for_an_external_seat_and_moves_past_its_chances() -> None:
    rules = Rules(players=3, target_score=0, jump_in=True)
    table = Conductor.seeded(rules, [None, BotPlayer(HeuristicBot()), BotPlayer(HeuristicBot())], seed=5)
    for _ in range(400):
        if table.game.round_over:
            break
        decision = table.decision()
        assert decision is not None
        if table.step() is None:
            # only the person's turn stops the bots: its out-of-turn chances never do
            assert table.waiting_for() == 0 == table.game.current
            table.act(table.legal_actions(0)[-1])
    assert table.game.round_over


def test_an_asked_external_seat_declines_its_chance() -> None:
    rules = Rules(players=2, target_score=0)
    table = Conductor.seeded(rules, [None, None], seed=2, ask_external=True)
    declined = 0
    while not table.game.round_over:
        decision = table.decision()
        assert decision is not None
        seat, out_of_turn = decision
        assert table.waiting_for() == seat
        if out_of_turn:
            with pytest.raises(IllegalAction) as caught:
                table.decline(1 - seat)
            assert caught.value.code == "move.not_offered"
            table.decline(seat)
            declined += 1
        else:
            plays = [a for a in table.legal_actions(seat) if a.kind is Kind.PLAY and not a.uno]
            table.push(plays[0] if plays else table.legal_actions(seat)[0])
    assert declined > 0


def test_each_seat_hears_its_own_redacted_story() -> None:
    rules = Rules.preset("all", players=3, target_score=0)
    table = bot_match(rules, [RandomBot(), RandomBot(), RandomBot()], seed=8)
    heard: dict[int | None, list[list[Event]]] = {0: [], None: []}
    table.listen(0, lambda _action, events: heard[0].append(events))
    stop = table.listen(None, lambda _action, events: heard[None].append(events))
    for _ in range(20):
        table.step()
    stop()
    table.step()
    assert len(heard[0]) == 21 and len(heard[None]) == 20
    for events in heard[None]:
        for event in events:
            assert not isinstance(event, Drew) or event.cards is None
    own = [e for events in heard[0] for e in events if isinstance(e, Drew) and e.player == 0]
    assert all(e.cards is not None for e in own)
    story = table.history(None)
    assert story[0][0] is None and len(story) == 1 + table.game.ply
    dealt = story[0][1][0]
    assert isinstance(dealt, Dealt) and dealt.pile is None and all(hand is None for hand in dealt.hands)
    mine = table.history(1)[0][1][0]
    assert isinstance(mine, Dealt) and mine.hands[1] is not None and mine.hands[0] is None


def test_a_stand_in_plays_only_while_asked_to() -> None:
    rules = Rules(players=2, target_score=0)
    table = bot_match(rules, [PlayFirstBot(), PlayFirstBot()], seed=1)
    table.stand_in(0, False)
    while table.game.current != 0 or table.game.round_over:
        assert table.step() is not None
    assert table.step() is None and table.waiting_for() == 0
    table.stand_in(0, True)
    assert table.step() is not None


def test_time_out_draws_and_passes_for_the_seat_on_turn() -> None:
    rules = Rules(players=2, target_score=0)
    table = bot_match(rules, [PlayFirstBot(), PlayFirstBot()], seed=1)
    seat = table.game.current
    taken = table.time_out()
    assert taken[0] == Action.draw(seat)
    assert len(taken) == 1 or taken[1] == Action.pass_(seat)
    assert table.game.current != seat or table.game.round_over
