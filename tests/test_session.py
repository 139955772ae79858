"""The session under the terminal game: pacing, out-of-turn windows, saving, resuming, watching."""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest

from codes import raises_code
from tui_fixtures import Scripted, play_out, stacked_game
from unomas import bots, fairness, record
from unomas.actions import Action, Kind
from unomas.bots import make_bot
from unomas.bots.player import BotPlayer, bot_match
from unomas.cards import parse_card
from unomas.conductor import Conductor
from unomas.errors import IllegalAction, Refusal, SettingsError, StaleAction, UnoError
from unomas.events import Caught, Dealt, Drew, Event
from unomas.game import Phase
from unomas.rules import Rules
from unomas.testing import make_game
from unomas.tui.session import (
    SECRET,
    ResumeError,
    Session,
    Setup,
    Watch,
    choose_play,
    data_dir,
    last_unfinished,
    resume,
)


@pytest.fixture(autouse=True)
def data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("UNOMAS_DATA", str(tmp_path))
    return tmp_path


T = TypeVar("T")
G7 = Action.play(0, parse_card("G7"))


def stacked_session(**options: object) -> Session:
    game = stacked_game()
    options = {"pace": 0.0} | options
    return Session(game.rules, [Scripted()], names=["Ana", "Beto"], game=game, **options)  # type: ignore[arg-type]


def run(scenario: Callable[[], Coroutine[Any, Any, T]], timeout: float = 60) -> T:
    return asyncio.run(asyncio.wait_for(scenario(), timeout))


def test_the_person_sees_only_their_own_hand() -> None:
    async def scenario() -> None:
        session = stacked_session(save=False)
        dealt = session.history[0][1][0]
        assert isinstance(dealt, Dealt) and dealt.hands[1] is None and dealt.hands[0] is not None
        assert await session.decision() and session.view().top == parse_card("G2")  # Beto played G2
        await session.submit(G7)
        assert session.view().hand == tuple(parse_card(t) for t in ["W", "B5"])
        assert all(not isinstance(e, Drew) or e.player == 0 or e.cards is None for _, es in session.history for e in es)
        await session.close()

    run(scenario)


def test_the_person_catches_a_bot_that_forgot_uno() -> None:
    async def scenario() -> None:
        session = stacked_session(save=False)
        assert await session.decision()
        await session.submit(G7)
        assert await session.decision()  # Beto played G3 forgetting UNO, and did not call it late
        assert session.waiting_for_person() and session.view().uno_pending == 1
        catch = next(a for a in session.actions() if a.kind is Kind.CATCH)
        await session.submit(catch)
        assert session.history[-1][1][0] == Caught(0, 1)
        await session.close()

    run(scenario)


def test_a_chance_out_of_turn_holds_the_bots_for_the_window_until_it_is_let_go() -> None:
    async def chance(window: float) -> tuple[Session, float]:
        game = make_game([["R1", "G5"], ["R2", "B4"], ["G7", "G8"]], ["R9"], target_score=0)
        session = Session(game.rules, [Scripted(), Scripted()], game=game, pace=0.01, window=window, save=False)
        assert not session.chance_open()
        assert await session.decision()  # seat 1 plays R2 and forgets UNO; seat 2 is on turn
        assert session.view().uno_pending == 1 and session.view().current == 2 and session.chance_open()
        return session, asyncio.get_running_loop().time()

    async def scenario() -> None:
        session, opened = await chance(0.6)
        while session.view().ply == 1:  # nobody acts: the window runs out, then seat 2 goes on
            await session._wait()
        assert asyncio.get_running_loop().time() - opened >= 0.6
        assert not session.chance_open() and session.view().uno_pending is None
        await session.close()
        session, opened = await chance(600)
        session.let_go()
        assert not session.chance_open()
        while session.view().ply == 1:
            await session._wait()
        assert asyncio.get_running_loop().time() - opened < 30
        await session.close()

    run(scenario)


def test_the_session_plays_on_a_host_with_the_person_s_seat_external() -> None:
    async def scenario() -> None:
        session = stacked_session(save=False)
        table = session.host.conductor
        assert table is not None and table.players[0] is None and isinstance(table.players[1], BotPlayer)
        heard: list[list[Event]] = []
        stop = session.listen(lambda _action, events: heard.append(events))
        assert await session.decision()  # Beto: G2
        await session.submit(G7)
        stop()
        assert await session.decision()  # Beto: G3
        assert heard == [events for _action, events in table.history(0)[1:3]]
        assert session.history == table.history(0) and len(session.history) == 4
        await session.close()

    run(scenario)


def test_a_seeded_session_plays_the_same_match_every_time() -> None:
    rules = Rules.preset("all", players=3, target_score=0)

    async def once() -> list[Any]:
        session = Session(rules, ["heuristic", "random"], seed=11, pace=0, window=0, save=False)
        await play_out(session)
        await session.close()
        return [events for _action, events in session.history]

    assert run(once) == run(once)


def test_bad_input_is_refused_and_changes_nothing() -> None:
    with raises_code(SettingsError, "setup.bot_count"):
        Session(Rules(players=2), ["random", "random"], save=False)
    with raises_code(SettingsError, "setup.person_seat"):
        Session(Rules(players=2), ["random"], person=2, save=False)
    with raises_code(SettingsError, "setup.name_count"):
        Session(Rules(players=2), ["random"], names=["a", "b", "c"], save=False)

    async def scenario() -> None:
        session = stacked_session(save=False)
        with raises_code(Refusal, "seat.not_yours"):
            await session.submit(Action.draw(1))
        assert await session.decision()
        with pytest.raises(IllegalAction):
            await session.submit(Action.play(0, parse_card("B5")))
        assert len(session.view().hand) == 3 and session.view().ply == 1
        await session.close()

    run(scenario)


def test_choose_play_asks_for_what_is_missing() -> None:
    game = make_game([["R2", "R3", "B4"], ["W", "R7", "G1"]], ["R9"], target_score=0, seven_zero=True)
    actions = game.legal_actions(1)
    wild, seven = parse_card("W"), parse_card("R7")
    assert choose_play(actions, parse_card("G1")) is None
    assert choose_play(actions, wild) == "color"
    assert choose_play(actions, wild, color=3) == Action.play(1, wild, color=3)
    assert choose_play(actions, seven) == "target"
    assert choose_play(actions, seven, target=0) == Action.play(1, seven, target=0)
    assert choose_play(actions, seven, target=5) is None
    last = make_game([["R2", "R3"], ["R4", "G1"]], ["R9"], target_score=0).legal_actions(1)
    assert choose_play(last, parse_card("R4"), uno=True) == Action.play(1, parse_card("R4"), uno=True)
    assert choose_play(last, parse_card("R4")) == Action.play(1, parse_card("R4"))


def test_every_action_is_saved_before_it_is_told_and_a_killed_match_resumes(data_folder: Path) -> None:
    rules = Rules(players=2, target_score=60)

    async def begin() -> Session:
        session = Session(rules, ["scripted"], names=["Ana", "Beto"], seed=5, pace=0)
        assert session.path is not None
        told: list[int] = []

        def heard(_action: Action | None, _events: list[Event]) -> None:  # the file holds what is told
            assert session.path is not None
            saved = json.loads(session.path.read_text(encoding="utf-8"))
            told.append(sum(len(played["events"]) for played in saved["rounds"]))

        session.listen(heard)
        for _ in range(3):
            assert await session.decision()
            if session.chance_open():
                session.let_go()
            else:
                with contextlib.suppress(StaleAction):
                    await session.submit(session.actions()[0])
        await session.close()  # the process dies here
        assert told and told == sorted(told)
        return session

    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(bots.BUILTIN_BOTS, "scripted", Scripted)
        session = run(begin)
    assert session.path is not None and session.path.parent == data_folder / "records"
    saved = json.loads(session.path.read_text(encoding="utf-8"))
    assert saved["bots"] == [None, "scripted"] and saved["person"] == 0 and saved["winner"] is None
    assert fairness.FIELD in saved and "seed" not in saved[fairness.FIELD]
    assert last_unfinished() == session.path
    with raises_code(SettingsError, "setup.unknown_bot"):
        resume(session.path)  # a bot only this test knew
    saved["bots"] = [None, "playfirst"]
    session.path.write_text(json.dumps(saved), encoding="utf-8")

    async def go_on() -> Session:
        again = resume(session.path, pace=0)  # type: ignore[arg-type]
        assert again.view() == session.view()
        assert again.names == ["Ana", "Beto"] and again.history[-1] == session.history[-1]
        await play_out(again)
        await again.close()
        return again

    run(go_on)
    finished = json.loads(session.path.read_text(encoding="utf-8"))
    assert fairness.verify(finished).is_over  # the resumed match dealt on from the same secret
    assert SECRET not in finished and last_unfinished() is None
    with raises_code(ResumeError, "resume.finished") as over:
        resume(session.path)
    assert over.value.code == "resume.finished" and over.value.params == {"file": session.path.name}


def test_a_failing_disk_refuses_the_move_and_the_person_hears_nothing_of_it(data_folder: Path) -> None:
    async def scenario() -> None:
        session = Session(Rules(players=2, target_score=0), ["playfirst"], seed=5, pace=0)
        assert session.path is not None
        while not (await session.decision() and session.waiting_for_person()):
            session.let_go()
        told, view = session.history, session.view()
        session.path.with_suffix(".part").mkdir()  # the next write fails
        with pytest.raises(UnoError) as failed:
            await session.submit(session.actions()[0])
        assert failed.value.code == "store.unavailable"
        assert session.history == told and session.view() == view and session.game.ply == view.ply
        session.path.with_suffix(".part").rmdir()
        await session.submit(session.actions()[0])
        assert len(session.history) == len(told) + 1
        await session.close()

    run(scenario)


def test_resume_refuses_a_record_without_a_person_or_a_secret(data_folder: Path) -> None:
    folder = data_folder / "records"
    folder.mkdir()
    path = folder / "x.json"
    path.write_text(record.dumps(record.to_json(stacked_game())), encoding="utf-8")
    (folder / "broken.json").write_text("{", encoding="utf-8")
    assert last_unfinished() == path
    with raises_code(ResumeError, "resume.no_person") as unfit:
        resume(path)
    assert unfit.value.code == "resume.no_person"
    path.write_text(record.dumps(record.to_json(stacked_game(), bots=[None, "random"], person=0)), encoding="utf-8")
    with pytest.raises(ResumeError) as unseeded:
        resume(path)
    assert unseeded.value.code == "resume.no_secret"


def test_setup_is_remembered_and_fitted(data_folder: Path) -> None:
    assert data_dir() == data_folder
    assert Setup.load() == Setup()
    setup = Setup(players=5, bots=["random"], preset="all", settings={"target_score": 100})
    fitted = setup.fitted()
    assert fitted.bots == ["random"] * 4 and fitted.rules().jump_in and fitted.rules().target_score == 100
    fitted.save()
    assert Setup.load() == fitted
    (data_folder / "setup.json").write_text('{"players": 99}', encoding="utf-8")
    assert Setup.load() == Setup()
    assert Setup(players=2, bots=["a", "b"]).fitted().bots == ["a"]


def test_data_folder_defaults_to_the_user_data_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("UNOMAS_DATA")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert data_dir() == tmp_path / "xdg" / "unomas"


def test_watch_steps_through_a_finished_record() -> None:
    session = stacked_session(save=False)
    run(lambda: play_out(session))
    data = record.to_json(session.game, names=session.names, person=0)
    watch = Watch(data)
    assert watch.seat == 0 and watch.names == ["Ana", "Beto"]
    dealt = watch.events()[0]
    assert isinstance(dealt, Dealt) and dealt.hands[0] is not None and dealt.hands[1] is None
    assert [step.events for step in watch.steps] == [events for _action, events in session.history]
    watch.go(len(watch.steps) + 5)
    assert watch.game.is_over and watch.view().scores == tuple(session.game.scores)
    watch.go(1)
    assert watch.view().top == parse_card("G2")
    assert watch.view().hand_sizes == (3, 2)
    assert Watch(data, seat=1).view().hand == (parse_card("G2"), parse_card("G3"), parse_card("W+4"))


def test_watch_steps_through_every_round_of_a_longer_match() -> None:
    table = bot_match(Rules(players=2, target_score=300), [make_bot("heuristic"), make_bot("random")], seed=3)
    table.play()
    assert table.game.round >= 2
    data = record.to_json(table.game, person=1)
    watch = Watch(data)
    assert watch.seat == 1 and len(watch.steps) == sum(len(log.moves) + 1 for log in table.game.log or [])
    deals = [number for number, step in enumerate(watch.steps) if step.action is None]
    assert [watch.steps[n].round for n in deals] == list(range(table.game.round + 1))
    for number in deals:
        watch.go(number)
        dealt = watch.events()[0]
        assert isinstance(dealt, Dealt) and dealt.hands[0] is None
        assert watch.view().round == watch.steps[number].round and dealt.hands[1] is not None
        watch.go(number - 1)
        assert number == 0 or watch.view().phase >= Phase.ROUND_OVER
    watch.go(len(watch.steps) - 1)
    assert watch.game.is_over and watch.game.scores == table.game.scores


def uno_calls(spec: str, matches: int) -> tuple[int, int]:
    """In single rounds of four ``spec`` bots: the plays that left one card, and the UNO calls."""
    from unomas.bots import make_bot
    from unomas.bots.player import BotPlayer
    from unomas.conductor import Conductor
    from unomas.events import Played, UnoCalled

    left_one = calls = 0
    for seed in range(matches):
        table = Conductor.seeded(
            Rules(players=4, target_score=0), [BotPlayer(make_bot(spec)) for _ in range(4)], seed=seed
        )

        def heard(_action: object, caused: list[object], table: Conductor = table) -> None:
            nonlocal left_one, calls
            sizes = table.game.view(None).hand_sizes
            left_one += sum(isinstance(e, Played) and sizes[e.player] == 1 for e in caused)
            calls += sum(isinstance(e, UnoCalled) for e in caused)

        table.listen(None, heard)  # type: ignore[arg-type]
        table.play()
        table.close()
    return left_one, calls


def test_the_levels_forget_uno_now_and_then_and_one_that_never_slips_never() -> None:
    """As the README's bot table says, so that a person gets to catch someone."""
    left_one, calls = uno_calls("random", 20)
    assert 0.1 < 1 - calls / left_one < 0.6
    left_one, calls = uno_calls("heuristic", 20)
    assert 0.05 < 1 - calls / left_one < 0.4
    left_one, calls = uno_calls("heuristic:forget=0:miss=0", 10)
    assert left_one > 0 and calls == left_one


def first_catch_chance(seed: int, bots: list[str] | None = None, rounds: int = 3) -> int | None:
    """The round in which the person, at the setup's default table (or among ``bots``), is
    first offered a catch within ``rounds`` rounds of a seeded match, or None."""

    async def scenario() -> int | None:
        setup = Setup()
        session = Session(setup.rules(), bots or setup.bots, seed=seed, pace=0, window=math.inf, save=False)
        try:
            while await session.decision() and session.view().round < rounds:
                view = session.view()
                if any(a.kind is Kind.CATCH for a in view.legal_actions):
                    return view.round
                if view.phase == Phase.ROUND_OVER:
                    session.next_round()
                elif session.chance_open():
                    session.let_go()
                else:
                    with contextlib.suppress(StaleAction):
                        await session.submit(session.actions()[-1])
            return None
        finally:
            await session.close()

    return run(scenario)


def test_a_person_at_the_default_table_gets_a_bot_to_catch_within_a_few_rounds() -> None:
    assert Setup().bots == ["heuristic"] * 3
    assert [first_catch_chance(seed) for seed in range(5)] == [1, 0, 0, 1, 0]
    assert [first_catch_chance(seed, ["heuristic:forget=0:miss=0"] * 3) for seed in range(2)] == [None, None]
