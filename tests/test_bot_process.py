"""Bots in other languages: the JSON-lines protocols unomas-bot/1, /2 and /3 (docs/bot-protocol.md)."""

from __future__ import annotations

import json
import random
import shlex
import shutil
import sys
import textwrap
import threading
from pathlib import Path
from typing import Any

import pytest

from codes import raises_code
from unomas import fairness, record
from unomas.actions import Action
from unomas.bots import make_bot, process
from unomas.bots.player import bot_match
from unomas.bots.process import PROTOCOL, ProcessBot
from unomas.cards import parse_card
from unomas.conductor import Conductor
from unomas.errors import BotError, SettingsError
from unomas.events import Event, StartingCard
from unomas.game import Game
from unomas.rules import Rules
from unomas.view import View

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "random_bot.py"

LOOP = """
import json, sys, time

def send(message):
    print(json.dumps(message), flush=True)

def hello(message):
    send({{"type": "ready", "name": "tester"}})

def answer(message):
    send({{"type": "action", "action": message["view"]["legal_actions"][0]}})

{body}

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        hello(message)
    elif message["type"] in ("act", "react"):
        answer(message)
    elif message["type"] == "bye":
        break
"""
"""A bot that plays the first legal action; ``body`` redefines what it needs to."""


def command(*argv: str | Path) -> str:
    return shlex.join([sys.executable, *map(str, argv)])


def script(tmp_path: Path, body: str, *, raw: bool = False) -> str:
    """The command of a bot written in ``tmp_path``: the loop above with ``body``, or ``body`` alone."""
    path = tmp_path / "bot.py"
    body = textwrap.dedent(body)
    path.write_text(body if raw else LOOP.format(body=body))
    return command(path)


def two_seats(bot: ProcessBot, *, seed: int = 1, on_events: Any = None) -> Conductor:
    return bot_match(Rules(players=2, target_score=0), [bot, make_bot("heuristic")], seed=seed, witness=on_events)


def failure(bot: ProcessBot) -> BotError:
    """The error of a match between ``bot`` and a built-in bot (which must fail)."""
    with pytest.raises(BotError) as caught:
        two_seats(bot).play()
    assert bot.connection is None
    return caught.value


# ---------------------------------------------------------------------- whole matches


def test_example_bot_plays_a_whole_match() -> None:
    threads = threading.active_count()
    bot = make_bot("cmd:" + command(EXAMPLE, "--protocol", "1"))
    assert isinstance(bot, ProcessBot)
    table = bot_match(Rules(players=3, target_score=200), [bot, make_bot("heuristic"), make_bot("random")], seed=5)
    connection = bot.connection
    assert connection is not None
    outcome = table.play()
    assert outcome.winner in (0, 1, 2) and not outcome.abandoned
    assert max(outcome.scores) >= 200
    assert bot.name == "random_bot.py" and outcome.decisions[0] > 0
    assert connection.process.poll() == 0 and bot.connection is None
    assert threading.active_count() == threads


def test_example_bot_plays_every_house_rule() -> None:
    bots = [make_bot("cmd:" + command(EXAMPLE)), make_bot("heuristic"), make_bot("cmd:" + command(EXAMPLE))]
    outcome = bot_match(Rules.preset("all", players=3, target_score=0), bots, seed=3).play()
    assert outcome.winner in (0, 1, 2)


def test_the_conversation(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    body = f"""
    import json, sys
    with open({str(log)!r}, "w") as log:
        for line in sys.stdin:
            log.write(line)
            message = json.loads(line)
            if message["type"] == "hello":
                answer = {{"type": "ready", "protocol": "{PROTOCOL}", "name": "  logger  ", "later": 1}}
            elif message["type"] in ("act", "react"):
                answer = {{"type": "action", "action": message["view"]["legal_actions"][0]}}
            else:
                continue
            print(json.dumps(answer), flush=True)
    """
    path = tmp_path / "bot.py"
    path.write_text(textwrap.dedent(body))
    bot = ProcessBot(command(path))
    outcome = two_seats(bot, seed=2).play()
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    hello = messages[0]
    assert hello == {
        "type": "hello",
        "protocol": PROTOCOL,
        "seat": 0,
        "rules": Rules(players=2, target_score=0).to_dict(),
        "timeout": 5.0,
        "protocols": ["unomas-bot/1", "unomas-bot/2", "unomas-bot/3"],
        "startup": 20.0,
    }
    assert bot.name == "logger"
    assert messages[-1] == {"type": "bye"}
    kinds = {m["type"] for m in messages}
    assert kinds == {"hello", "events", "act", "react", "bye"} or kinds == {"hello", "events", "act", "bye"}
    first_events = messages[1]["events"]
    assert first_events[0]["event"] == "dealt"
    own, other = first_events[0]["hands"]
    assert len(own) == 7 and other is None and first_events[0]["pile"] is None
    events = [e for m in messages if m["type"] == "events" for e in m["events"]]
    assert events[-1] == {"event": "match_ended", "winner": outcome.winner, "scores": outcome.scores}
    drawn_by_other = [e for e in events if e["event"] == "drew" and e["player"] == 1]
    assert drawn_by_other and all(e["cards"] is None for e in drawn_by_other)
    asked = [m for m in messages if m["type"] == "act"]
    assert asked and all(m["view"]["seat"] == 0 and m["view"]["legal_actions"] for m in asked)


# ---------------------------------------------------------------------- misbehaving bots


def test_a_slow_bot_times_out(tmp_path: Path) -> None:
    bot = ProcessBot(script(tmp_path, "def answer(message):\n    time.sleep(30)\n"))
    table = two_seats(bot)
    bot.timeout = 0.5  # once started: a slow machine may take a while to start Python
    with pytest.raises(BotError) as caught:
        table.play()
    assert caught.value.seat == 0 and caught.value.bot == "tester"
    assert caught.value.code == "bot.broke_protocol"
    assert caught.value.params["detail"] == "did not answer 'act' within 0.5 s"
    assert bot.connection is None


def test_a_bot_slow_to_start_times_out(tmp_path: Path) -> None:
    bot = ProcessBot(script(tmp_path, "time.sleep(30)\n"), timeout=0.25, startup=0.5)
    with raises_code(BotError, "bot.broke_protocol"):
        bot.start(1, Rules(), random.Random())
    assert bot.connection is None


def test_a_bot_that_exits_at_once(tmp_path: Path) -> None:
    bot = ProcessBot(script(tmp_path, "import sys\nprint('no luck', file=sys.stderr)\nsys.exit(3)\n", raw=True))
    with pytest.raises(BotError) as caught:
        bot.start(1, Rules(), random.Random())
    message = caught.value.params["detail"]
    assert caught.value.seat == 1 and caught.value.bot.startswith("cmd:")
    assert "exited with code 3" in message and "'hello'" in message and "no luck" in message


def test_a_bot_that_dies_during_the_match(tmp_path: Path) -> None:
    bot = ProcessBot(script(tmp_path, "def answer(message):\n    raise SystemExit(0)\n"))
    error = failure(bot)
    assert "exited with code 0" in error.params["detail"] and "'act'" in error.params["detail"]


def test_a_bot_that_prints_garbage(tmp_path: Path) -> None:
    bot = ProcessBot(script(tmp_path, "def answer(message):\n    print('I play the red seven', flush=True)\n"))
    error = failure(bot)
    assert error.params["detail"] == "answered 'act' with a line that is not JSON: 'I play the red seven'"


def test_a_bot_that_writes_bytes_not_text(tmp_path: Path) -> None:
    body = """
    def answer(message):
        print(flush=True)  # an empty line is skipped
        sys.stdout.buffer.write(b"\\xff\\n")
        sys.stdout.flush()
    """
    error = failure(ProcessBot(script(tmp_path, body)))
    assert error.params["detail"] == "answered 'act' with a line that is not UTF-8: b'\\xff'"


def test_a_bot_that_writes_without_end(tmp_path: Path) -> None:
    body = "def answer(message):\n    sys.stdout.write('[' * 1_100_000)\n    sys.stdout.flush()\n    time.sleep(30)\n"
    error = failure(ProcessBot(script(tmp_path, body)))
    assert error.params["detail"] == "answered 'act' with a line longer than 1048576 bytes"


def test_a_bot_killed_by_a_signal(tmp_path: Path) -> None:
    body = "import os, signal\ndef answer(message):\n    os.kill(os.getpid(), signal.SIGKILL)\n"
    error = failure(ProcessBot(script(tmp_path, body)))
    assert (error.code, error.params["detail"]) == (
        "bot.broke_protocol",
        "was killed by signal 9 instead of answering 'act'",
    )


def test_a_bot_gone_before_a_message(tmp_path: Path) -> None:
    bot = ProcessBot(script(tmp_path, "def hello(message):\n    send({'type': 'ready'})\n    sys.exit(0)\n"))
    bot.start(0, Rules(), random.Random())
    assert bot.connection is not None
    bot.connection.process.wait()
    bot.observe([StartingCard(parse_card("R7"))])  # held: written with the next question
    with raises_code(BotError, "bot.broke_protocol"):
        bot.act(Game(Rules(), rng=random.Random(1)).view(0))


def test_a_bot_that_stops_reading(tmp_path: Path) -> None:
    bot = ProcessBot(script(tmp_path, "def hello(message):\n    send({'type': 'ready'})\n    time.sleep(30)\n"))
    bot.start(0, Rules(), random.Random())
    bot.timeout = 0.5
    events: list[Event] = [StartingCard(parse_card("R7"))] * 20_000  # more than a pipe holds
    bot.observe(events)
    with raises_code(BotError, "bot.broke_protocol"):
        bot.act(Game(Rules(), rng=random.Random(1)).view(0))
    assert bot.connection is None


def test_a_bot_that_answers_json_but_not_an_object(tmp_path: Path) -> None:
    bot = ProcessBot(script(tmp_path, "def hello(message):\n    send(['ready'])\n"))
    with raises_code(BotError, "bot.broke_protocol"):
        bot.start(0, Rules(), random.Random())


def test_a_bot_that_answers_the_wrong_message(tmp_path: Path) -> None:
    bot = ProcessBot(script(tmp_path, "def answer(message):\n    send({'type': 'ready'})\n"))
    error = failure(bot)
    assert error.params["detail"] == "answered 'act' with a message of type 'ready', not 'action'"


def test_a_bot_that_answers_a_malformed_action(tmp_path: Path) -> None:
    bot = ProcessBot(
        script(tmp_path, "def answer(message):\n    send({'type': 'action', 'action': {'p': 0, 'a': 'fly'}})\n")
    )
    assert (
        failure(bot)
        .params["detail"]
        .startswith('answered \'act\' with a malformed action \'{"p": 0, "a": "fly"}\': unknown move')
    )
    bot = ProcessBot(script(tmp_path, "def answer(message):\n    send({'type': 'action'})\n"))
    assert failure(bot).params["detail"] == "answered 'act' without an 'action' field"


def test_a_bot_that_answers_nothing_on_its_turn(tmp_path: Path) -> None:
    bot = ProcessBot(script(tmp_path, "def answer(message):\n    send({'type': 'action', 'action': None})\n"))
    assert failure(bot).params["detail"] == "answered null to 'act': on its turn it must act"


def test_an_illegal_action_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    # A pass is never legal before drawing: the table must refuse it before applying anything.
    body = "def answer(message):\n    send({'type': 'action', 'action': {'p': message['view']['seat'], 'a': 'pass'}})\n"
    bot = ProcessBot(script(tmp_path, body))
    seen: list[list[dict[str, Any]]] = []
    tables: list[Conductor] = []

    def snapshot(action: Action | None, events: list[Event]) -> None:
        if tables:  # the views after every action the table applied
            seen.append([tables[0].game.view(seat).to_json() for seat in (0, 1)])

    table = two_seats(bot, on_events=snapshot)
    tables.append(table)
    seen.append([table.game.view(seat).to_json() for seat in (0, 1)])
    with raises_code(BotError, "bot.illegal_action") as caught:
        table.play()
    assert caught.value.seat == 0 and caught.value.bot == "tester"
    assert [table.game.view(seat).to_json() for seat in (0, 1)] == seen[-1]
    assert table.game.log is not None and all(action.player == 1 for log in table.game.log for action, _ in log.moves)


def test_a_bot_speaking_another_protocol(tmp_path: Path) -> None:
    bot = ProcessBot(script(tmp_path, "def hello(message):\n    send({'type': 'ready', 'protocol': 'unomas-bot/9'})\n"))
    with raises_code(BotError, "bot.broke_protocol"):
        bot.start(0, Rules(), random.Random())
    bot = ProcessBot(script(tmp_path, "def hello(message):\n    send({'type': 'ready', 'name': 7})\n"))
    with raises_code(BotError, "bot.broke_protocol"):
        bot.start(0, Rules(), random.Random())


def test_a_bot_that_cannot_start(tmp_path: Path) -> None:
    bot = ProcessBot(shlex.join([str(tmp_path / "no such program")]))
    with raises_code(BotError, "bot.not_started"):
        bot.start(0, Rules(), random.Random())


def test_a_closed_bot_is_not_running(tmp_path: Path) -> None:
    bot = ProcessBot(command(EXAMPLE, "--protocol", "1"))
    bot.start(0, Rules(), random.Random())
    connection = bot.connection
    assert connection is not None
    bot.close()
    bot.close()
    assert connection.process.poll() == 0
    bot.observe([])  # nothing to say
    view = bot_match(Rules(players=2), [make_bot("random"), make_bot("random")], seed=1).game.view(0)
    with raises_code(BotError, "bot.not_running"):
        bot.act(view)


# ---------------------------------------------------------------------- settings


def test_timeout_and_command_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    assert ProcessBot("bot").timeout == 5.0
    monkeypatch.setenv("UNOMAS_BOT_TIMEOUT", "0.25")
    assert ProcessBot("bot").timeout == 0.25
    assert ProcessBot("bot", timeout=2).timeout == 2.0
    monkeypatch.setenv("UNOMAS_BOT_TIMEOUT", "soon")
    with raises_code(SettingsError, "setup.bad_seconds"):
        ProcessBot("bot")
    with raises_code(SettingsError, "setup.bad_seconds"):
        ProcessBot("bot", timeout=0)
    with raises_code(SettingsError, "setup.no_command"):
        make_bot("cmd:  ")
    with raises_code(SettingsError, "setup.bad_command"):
        make_bot("cmd:python 'unclosed")


# ---------------------------------------------------------------------- protocol 2


def test_a_protocol_2_bot_plays_many_matches_in_one_process() -> None:
    spec = "cmd:" + command(EXAMPLE, "--protocol", "2")
    processes = set()
    for seed in range(3):
        bot = make_bot(spec)
        assert isinstance(bot, ProcessBot)
        table = bot_match(Rules(players=2, target_score=0), [bot, make_bot("playfirst")], seed=seed)
        connection = bot.connection
        assert connection is not None and connection.protocol == "unomas-bot/2"
        processes.add(connection.process.pid)
        assert table.play().winner in (0, 1)
        assert connection.process.poll() is None  # kept for the next match
    assert len(processes) == 1
    process.close_idle()
    assert all(not idle for idle in process.IDLE.values())


def test_a_protocol_2_bot_hears_each_new_match(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    body = f"""
    import json, sys
    with open({str(log)!r}, "a") as log:
        for line in sys.stdin:
            log.write(line)
            log.flush()
            message = json.loads(line)
            kind = message["type"]
            if kind in ("hello", "match"):
                answer = {{"type": "ready", "protocol": "unomas-bot/2"}}
            elif kind == "act":
                legal = message["view"]["legal_actions"]
                answer = {{"type": "action", "action": next((a for a in legal if a["a"] == "play"), legal[-1])}}
            elif kind == "react":
                answer = {{"type": "action", "action": None}}
            else:
                continue
            print(json.dumps(answer), flush=True)
    """
    spec = "cmd:" + script(tmp_path, textwrap.dedent(body), raw=True)
    for seed in (1, 2):
        bots = [make_bot("playfirst"), make_bot(spec), make_bot("playfirst")]
        bot_match(Rules(players=3, target_score=0), bots, seed=seed).play()
    process.close_idle()
    kinds = [json.loads(line)["type"] for line in log.read_text().splitlines()]
    assert kinds[0] == "hello" and kinds.count("hello") == 1
    assert kinds.count("match") == 1 and kinds[-1] == "bye"
    again = next(json.loads(line) for line in log.read_text().splitlines() if json.loads(line)["type"] == "match")
    # The events held since the last question reach the program as its match ends, before it idles.
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    ends = [n for n, m in enumerate(messages) if m["type"] == "events" and m["events"][-1]["event"] == "match_ended"]
    assert len(ends) == 2 and ends[0] < kinds.index("match") < ends[1] < len(messages) - 1
    assert again == {"type": "match", "seat": 1, "rules": Rules(players=3, target_score=0).to_dict(), "timeout": 5.0}


def test_an_idle_bot_that_died_is_replaced(tmp_path: Path) -> None:
    spec = "cmd:" + command(EXAMPLE)
    bot = make_bot(spec)
    bot.start(0, Rules(), random.Random())
    assert isinstance(bot, ProcessBot) and bot.connection is not None
    first = bot.connection.process
    bot.close()
    first.kill()
    first.wait()
    bot.start(0, Rules(), random.Random())
    assert bot.connection is not None and bot.connection.process.pid != first.pid
    bot.close()
    process.close_idle()


def test_spec_options_set_the_timeouts() -> None:
    bot = make_bot("cmd:timeout=0.5:startup=30:python3 my_bot.py --level 2")
    assert isinstance(bot, ProcessBot)
    assert (bot.timeout, bot.startup, bot.argv) == (0.5, 30.0, ["python3", "my_bot.py", "--level", "2"])
    bot = make_bot("cmd:python3 timeout=3:x.py")
    assert isinstance(bot, ProcessBot) and bot.argv == ["python3", "timeout=3:x.py"] and bot.timeout == 5.0
    with raises_code(SettingsError, "setup.bad_seconds"):
        make_bot("cmd:startup=later:python3 my_bot.py")


def test_start_up_has_its_own_timeout(tmp_path: Path) -> None:
    body = """
    import json, sys, time
    time.sleep(0.6)
    for line in sys.stdin:
        if json.loads(line)["type"] == "hello":
            print(json.dumps({"type": "ready"}), flush=True)
    """
    bot = ProcessBot(script(tmp_path, textwrap.dedent(body), raw=True), timeout=0.3, startup=5)
    bot.start(0, Rules(), random.Random())
    assert bot.connection is not None
    bot.close()


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")
def test_the_javascript_example_plays_a_match() -> None:
    spec = "cmd:" + shlex.join(["node", str(EXAMPLE.with_suffix(".js"))])
    bot = make_bot(spec)
    summary = bot_match(
        Rules.preset("all", players=3, target_score=0), [bot, make_bot("heuristic"), make_bot("random")], seed=2
    ).play()
    assert summary.winner in (0, 1, 2) and bot.name == "random_bot.js"
    process.close_idle()


# ---------------------------------------------------------------------- protocol 3

V3_LOOP = """
import json, sys

def send(message):
    print(json.dumps(message), flush=True)

READY = {ready}

def choose(message):
    return {choose}

with open({log!r}, "a") as log:
    for line in sys.stdin:
        log.write(line)
        log.flush()
        message = json.loads(line)
        if message["type"] in ("hello", "match"):
            send(READY)
        elif message["type"] in ("act", "react"):
            send({{"type": "action", "action": choose(message)}})
        elif message["type"] == "bye":
            break
"""
"""A protocol-3 bot that logs what it reads, answers ``ready`` with ``ready`` and acts by ``choose``."""


def v3_bot(tmp_path: Path, *, ready: str = "", choose: str = "0 if message['type'] == 'act' else None") -> ProcessBot:
    """A protocol-3 bot (``ready``: extra fields of its ``ready``) logging to ``tmp_path/log.jsonl``."""
    fields = "{'type': 'ready', 'protocol': 'unomas-bot/3'" + (", " + ready if ready else "") + "}"
    body = V3_LOOP.format(ready=fields, choose=choose, log=str(tmp_path / "log.jsonl"))
    return ProcessBot(script(tmp_path, body, raw=True))


def logged(tmp_path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (tmp_path / "log.jsonl").read_text().splitlines()]


class Recording(ProcessBot):
    """A program bot that keeps the views it asks its program about, whole."""

    views: list[dict[str, Any]]

    def _question(self, kind: str, view: View) -> dict[str, Any]:
        self.views.append(view.to_json(rules=False))
        return super()._question(kind, view)


def test_protocol_3_questions_tell_what_changed_and_rebuild_every_view(tmp_path: Path) -> None:
    recorder = v3_bot(tmp_path)
    bot = Recording(recorder.command)
    bot.views = []
    two_seats(bot, seed=4).play()
    process.close_idle()
    messages = logged(tmp_path)
    assert messages[0]["protocols"] == ["unomas-bot/1", "unomas-bot/2", "unomas-bot/3"]
    questions = [m for m in messages if m["type"] in ("act", "react")]
    assert len(questions) == len(bot.views) > 10
    first = questions[0]["view"]
    assert "rules" not in first and "legal_actions" not in first and first["seat"] == 0 and len(first["hand"]) == 7
    view: dict[str, Any] = {}
    for question, seen in zip(questions, bot.views, strict=True):
        for key, value in question["view"].items():
            if key.startswith("+"):
                assert value and key[1:] in view  # only a list told before grows
                view[key[1:]] = view[key[1:]] + value
            else:
                assert key in seen and (key not in view or view[key] != value)  # told only when changed
                view[key] = value
        offered = seen.pop("legal_actions")
        assert view == seen
        assert question["actions"] == [str(Action.from_json(move)) for move in offered]
    assert any("+discard" in q["view"] for q in questions) and max(len(q["view"]) for q in questions[1:]) < len(first)


def test_protocol_3_plays_a_forced_move_without_asking(tmp_path: Path) -> None:
    bot = v3_bot(tmp_path)
    outcome = two_seats(bot, seed=4).play()
    process.close_idle()
    asked = [m for m in logged(tmp_path) if m["type"] == "act"]
    assert asked and all(len(m["actions"]) > 1 for m in asked)
    assert outcome.decisions[0] > len(asked)  # the forced moves were decided, unasked


def test_protocol_3_events_ride_in_the_questions_and_hide_the_other_hand(tmp_path: Path) -> None:
    bot = v3_bot(tmp_path)
    outcome = two_seats(bot, seed=2).play()
    process.close_idle()  # a protocol-3 program idles after its match: now it hears "bye"
    messages = logged(tmp_path)
    assert bot.name == "cmd:" + bot.command and {m["type"] for m in messages} >= {"hello", "act", "events", "bye"}
    assert not [m for m in messages if m["type"] == "events" and m is not messages[-2]]  # only the last changes
    events = [e for m in messages for e in m.get("events", [])]
    assert events[0]["event"] == "dealt" and events[0]["hands"][1] is None and len(events[0]["hands"][0]) == 7
    assert events[-1] == {"event": "match_ended", "winner": outcome.winner, "scores": outcome.scores}
    assert all(e["cards"] is None for e in events if e["event"] == "drew" and e["player"] == 1)


def test_a_protocol_3_bot_may_decline_events(tmp_path: Path) -> None:
    bot = v3_bot(tmp_path, ready="'events': False")
    two_seats(bot, seed=3).play()
    process.close_idle()
    messages = logged(tmp_path)
    assert not [m for m in messages if m["type"] == "events" or "events" in m]
    assert any(m["type"] == "act" for m in messages)


def test_protocol_3_bots_play_match_after_match_in_one_process() -> None:
    spec = "cmd:" + command(EXAMPLE)
    processes = set()
    for seed in range(3):
        bots = [make_bot(spec), make_bot("heuristic"), make_bot(spec)]
        table = bot_match(Rules.preset("all", players=3, target_score=0), bots, seed=seed)
        for bot in (bots[0], bots[2]):
            assert isinstance(bot, ProcessBot) and bot.connection is not None
            assert bot.connection.protocol == "unomas-bot/3" and not bot.connection.hears
            processes.add(bot.connection.process.pid)
        assert table.play().winner in (0, 1, 2)
    assert len(processes) == 2
    process.close_idle()


@pytest.mark.parametrize(
    ("choose", "reason"),
    [
        ("99", "answered 'act' with '99', not the index of one of its"),
        ("-1", "answered 'act' with '-1', not the index of one of its"),
        ("True", "answered 'act' with 'true', not the index of one of its"),
        ("1.0", "answered 'act' with '1.0', not the index of one of its"),
        ("{'p': 0, 'a': 'draw'}", 'answered \'act\' with \'{"p": 0, "a": "draw"}\', not the index of one of its'),
    ],
)
def test_a_protocol_3_answer_that_is_not_an_offered_index_is_refused(tmp_path: Path, choose: str, reason: str) -> None:
    error = failure(v3_bot(tmp_path, choose=choose))
    assert error.code == "bot.broke_protocol" and error.seat == 0
    assert error.params["detail"].startswith(reason)


def test_a_protocol_3_ready_with_a_bad_events_field_is_refused(tmp_path: Path) -> None:
    bot = v3_bot(tmp_path, ready="'events': 'no'")
    with raises_code(BotError, "bot.broke_protocol") as caught:
        bot.start(0, Rules(), random.Random())
    assert caught.value.code == "bot.broke_protocol" and bot.connection is None


def test_a_protocol_2_bot_that_answers_an_illegal_move_forfeits_and_the_next_match_starts_a_new_process(
    tmp_path: Path,
) -> None:
    """Its process ends with the match it broke, the tournament charges it a forfeit that
    says why, and the next match is played by a fresh process (another pid)."""
    from unomas.runs.tournament import run_tournament

    flag = tmp_path / "cheated"
    body = f"""
    import json, os, sys
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind in ("hello", "match"):
            answer = {{"type": "ready", "protocol": "unomas-bot/2", "name": f"pid {{os.getpid()}}"}}
        elif kind == "act":
            legal = message["view"]["legal_actions"]
            if not os.path.exists({str(flag)!r}):
                open({str(flag)!r}, "w").close()
                legal = [{{"p": message["view"]["seat"], "a": "pass"}}]  # never legal before a draw
            answer = {{"type": "action", "action": legal[0]}}
        elif kind == "react":
            answer = {{"type": "action", "action": None}}
        else:
            continue
        print(json.dumps(answer), flush=True)
    """
    spec = "cmd:" + script(tmp_path, textwrap.dedent(body), raw=True)
    path = tmp_path / "records.jsonl"
    result = run_tournament(Rules(players=2, target_score=0), [spec, "playfirst"], 3, seed=1, records=path)
    process.close_idle()
    first, *later = result.matches
    assert first.error is not None and first.error.entrant == 0
    assert "illegal action" in first.error.reason and "pass" in first.error.reason
    assert [match.error for match in later] == [None, None]
    pids = [match.given_names[match.seating.index(0)] for match in result.matches]
    assert pids[0] != pids[1] == pids[2]  # a new process after the forfeit, kept after a clean match
    assert result.bots[0].errors == 1 and result.bots[0].matches == 3
    written = record.read_file(path)
    seat = first.seating.index(0)
    assert first.error.seat == seat and written[0]["forfeit"] == {"seat": seat, "winner": 1 - seat}
    assert all(fairness.verify(rec) for rec in written)
