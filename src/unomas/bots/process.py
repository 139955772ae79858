"""A bot in any language: a program speaking the JSON-lines protocol ``unomas-bot/1``, ``/2`` or ``/3``.

:class:`ProcessBot` runs a command (split like a shell would, but run without one) as a
child process, writes it one JSON object per line on its standard input and reads one JSON
line back on its standard output for every question. The protocol is described in
docs/bot-protocol.md; in short::

    → {"type": "hello", "protocol": "unomas-bot/1", "protocols": [...], "seat": 0, "rules": {...}, "timeout": 5.0}
    ← {"type": "ready", "name": "my-bot", "protocol": "unomas-bot/2"}
    → {"type": "events", "events": [{"event": "dealt", ...}, ...]}      (no answer)
    → {"type": "act", "view": {...}}          ← {"type": "action", "action": {"p": 0, "a": "draw"}}
    → {"type": "react", "view": {...}}        ← {"type": "action", "action": null}
    → {"type": "match", "seat": 1, "rules": {...}, "timeout": 5.0}   ← {"type": "ready"}   (version 2)
    → {"type": "act", "view": {"ply": 9, "+discard": ["G5"]}, "actions": ["0 draw", "0 play G7"],
       "events": [...]}                      ← {"type": "action", "action": 1}     (version 3)
    → {"type": "bye"}

Under version 1 a process plays one match. A bot that answers ``ready`` with protocol
``unomas-bot/2`` or ``/3`` is kept when its match ends and plays the next match of the same
command in this process (a ``match`` message starts it), so a program bot costs about what
an in-process bot does; idle programs are told ``bye`` when the interpreter exits. Version 3
makes each question small: the view's fields that changed since the last question (a list
that only grew, as its new items), the legal actions in their text form, the events since
the last question (unless the bot declined them in ``ready``), and an answer that is the
index of the chosen action; a turn with a single legal action is played without asking.

Every answer must come within ``timeout`` seconds, and ``ready`` (the program's start-up)
within ``startup`` seconds (the constructor's arguments, or ``cmd:timeout=1:startup=30:COMMAND``
in a spec; else the environment variables ``UNOMAS_BOT_TIMEOUT`` and ``UNOMAS_BOT_STARTUP``,
else 5 and 20). A bot that is late, has exited, writes a line that is not JSON, answers
the wrong message or a malformed action raises :class:`~unomas.errors.BotError` naming the
problem, and its process is killed; the conductor refuses an illegal action the same way,
before anything changes in the game, and the program is killed with it
(:meth:`ProcessBot.refused`): a program that broke the protocol is never kept for another
match, whatever its version.

What the program writes on its standard error is passed through to ours as it comes, and
its last lines are quoted in the error when it fails. Pipes are read and written without
blocking, waited on with :func:`select.poll` (POSIX: Linux, macOS); one daemon thread per running
program drains its standard error and ends with it.
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import json
import os
import random
import select
import shlex
import signal
import subprocess
import sys
import threading
import time
import typing
import weakref
from collections.abc import Sequence
from typing import IO, Any

from unomas.actions import Action
from unomas.bots.base import Bot
from unomas.errors import BotError, NotationError, SettingsError
from unomas.events import Event, to_json
from unomas.rules import Rules
from unomas.view import View

PROTOCOL = "unomas-bot/1"
"""The protocol named in ``hello``: every bot speaks it."""
PROTOCOL_2 = "unomas-bot/2"
"""The protocol of a bot that plays many matches in one process."""
PROTOCOL_3 = "unomas-bot/3"
"""The protocol of small questions: view changes, actions as text, an index for an answer."""
PROTOCOLS = (PROTOCOL, PROTOCOL_2, PROTOCOL_3)
PERSISTENT = (PROTOCOL_2, PROTOCOL_3)
"""The protocols whose program plays many matches in one process."""
DEFAULT_TIMEOUT = 5.0
DEFAULT_STARTUP = 20.0
TIMEOUT_VARIABLE = "UNOMAS_BOT_TIMEOUT"
STARTUP_VARIABLE = "UNOMAS_BOT_STARTUP"
IDLE_PER_COMMAND = 8
"""Idle version-2 programs kept per command (and timeouts) for the next matches."""
OPTIONS = ("timeout", "startup")
"""The options a ``cmd:`` spec may give before its command: ``cmd:timeout=1:startup=30:COMMAND``."""
MAX_LINE = 1 << 20
"""The longest answer line accepted, in bytes."""
STDERR_LINES = 10
"""How many of the bot's last standard-error lines an error message quotes."""
CLOSE_GRACE = 1.0
"""Seconds a bot has to exit after ``bye`` before it is killed."""
_encode = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode
"""Compact JSON of the plain dicts and lists sent (no cycles to look for)."""

__all__ = [
    "DEFAULT_STARTUP",
    "DEFAULT_TIMEOUT",
    "PROTOCOL",
    "PROTOCOLS",
    "PROTOCOL_2",
    "PROTOCOL_3",
    "STARTUP_VARIABLE",
    "TIMEOUT_VARIABLE",
    "ProcessBot",
]


def _seconds(value: float | str | None, variable: str, default: float, what: str) -> float:
    """A number of seconds: ``value``, else the environment ``variable``, else ``default``."""
    if value is None:
        value = os.environ.get(variable, "").strip() or default
        what = variable if value != default else what
    try:
        seconds = float(value)
    except ValueError:
        raise SettingsError("setup.bad_seconds", name=what, value=repr(value)) from None
    if not seconds > 0:
        raise SettingsError("setup.bad_seconds", name=what, value=f"{seconds:g}")
    return seconds


def _drain(stream: IO[bytes] | None, tail: collections.deque[str]) -> None:
    """Pass the bot's standard error on to ours, keeping its last lines, until it closes."""
    assert stream is not None
    with stream:
        for raw in iter(stream.readline, b""):
            text = raw.decode("utf-8", "replace")
            tail.append(text.rstrip("\r\n"))
            try:
                sys.stderr.write(text)
                sys.stderr.flush()
            except (OSError, ValueError):  # pragma: no cover - our stderr is gone
                pass


def _kill(process: subprocess.Popen[bytes]) -> None:
    """Kill the process and its process group (whatever it started), if still running."""
    if process.poll() is not None:
        return
    try:
        if os.name == "posix":
            os.killpg(process.pid, signal.SIGKILL)
        else:  # pragma: no cover - not POSIX
            process.kill()
    except (ProcessLookupError, PermissionError):  # pragma: no cover - exited meanwhile
        pass
    process.wait()


class _Connection:
    """One running bot program: its pipes, a line buffer, and the thread draining stderr."""

    def __init__(self, argv: list[str]) -> None:
        self.process = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=os.name == "posix",
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.stdin = self.process.stdin.fileno()
        self.stdout = self.process.stdout.fileno()
        os.set_blocking(self.stdin, False)
        os.set_blocking(self.stdout, False)
        self.buffer = bytearray()
        # One poll object each way, made once: a decision waits with one system call.
        self.reader = select.poll()
        self.reader.register(self.stdout, select.POLLIN)
        self.writer = select.poll()
        self.writer.register(self.stdin, select.POLLOUT)
        self.held: list[str] = []
        """Lines of messages that need no answer (``events``), written with the next one."""
        self.pending: list[dict[str, Any]] = []
        """Version 3: the events since the last question, sent inside the next one."""
        self.protocol = PROTOCOL
        """The protocol the program chose in its ``ready``."""
        self.hears = True
        """Whether the program is sent events (a version-3 ``ready`` may decline them)."""
        self.told: dict[str, Any] = {}
        """Version 3: the view as the program knows it this match (the fields last sent)."""
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self.stderr_thread = threading.Thread(
            target=_drain, args=(self.process.stderr, self.stderr_tail), name="unomas-bot-stderr", daemon=True
        )
        self.stderr_thread.start()
        # Should the bot never be closed (a table that failed while starting its bots),
        # the process still goes when the bot is collected or the interpreter exits.
        self.finalizer = weakref.finalize(self, _kill, self.process)

    def hold(self, events: list[dict[str, Any]]) -> None:
        """Keep events, to write with the next message (one write, and one wake-up of the
        program, per decision instead of one per change): inside the next question under
        version 3, else as an ``events`` message before it."""
        if self.protocol == PROTOCOL_3:
            self.pending += events
        else:
            self.held.append(_encode({"type": "events", "events": events}) + "\n")

    def _release(self, into: dict[str, Any] | None) -> None:
        """Version 3: put the pending events into the question ``into``, or (None, or not
        a question) into an ``events`` message held before it."""
        if not self.pending:
            return
        if into is not None and into["type"] in ("act", "react"):
            into["events"] = self.pending
        else:
            self.held.append(_encode({"type": "events", "events": self.pending}) + "\n")
        self.pending = []

    def flush(self, deadline: float) -> str | None:
        """Write the held events now (the match is over); the problem if that failed."""
        self._release(None)
        if not self.held:
            return None
        text, self.held = "".join(self.held), []
        return self._write(text, "events", deadline)

    def send(self, message: dict[str, Any], deadline: float) -> str | None:
        """Write the held messages and then ``message``; the problem if they could not be
        written by ``deadline``."""
        self._release(message)
        text, self.held = "".join(self.held) + _encode(message) + "\n", []
        return self._write(text, message["type"], deadline)

    def _write(self, text: str, kind: str, deadline: float) -> str | None:
        sending = f"before reading {kind!r}"
        data = memoryview(text.encode())
        while data:
            try:
                written = os.write(self.stdin, data)
            except BlockingIOError:
                written = 0
            except OSError:
                return self.exit_problem(sending)
            data = data[written:]
            if data:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not self.writer.poll(remaining * 1000):
                    if self.process.poll() is not None:
                        return self.exit_problem(sending)
                    return f"stopped reading its input (sending {kind!r})"
        return None

    def receive(self, asked: str, deadline: float) -> tuple[str | None, str]:
        """The next non-empty line, or None and the problem (late, exited, too long)."""
        while True:
            end = self.buffer.find(b"\n")
            if end >= 0:
                raw = bytes(self.buffer[:end])
                del self.buffer[: end + 1]
                try:
                    line = raw.decode().strip()
                except UnicodeDecodeError:
                    return None, f"answered {asked!r} with a line that is not UTF-8: {raw[:80]!r}"
                if line:
                    return line, ""
                continue
            if len(self.buffer) > MAX_LINE:
                return None, f"answered {asked!r} with a line longer than {MAX_LINE} bytes"
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None, ""
            if not self.reader.poll(remaining * 1000):
                continue
            try:
                chunk = os.read(self.stdout, 65536)
            except BlockingIOError:  # pragma: no cover - spurious wake-up
                continue
            if not chunk:
                return None, self.exit_problem(f"instead of answering {asked!r}")
            self.buffer += chunk

    def exit_problem(self, when: str) -> str:
        """Why the bot stopped talking: its exit status if it exited, and its last stderr."""
        try:
            code = self.process.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return f"closed its standard input or output {when}{self.stderr_note()}"
        status = f"was killed by signal {-code}" if code < 0 else f"exited with code {code}"
        return f"{status} {when}{self.stderr_note()}"

    def stderr_note(self) -> str:
        self.stderr_thread.join(0.2)
        tail = [line for line in self.stderr_tail if line.strip()]
        return f"; its last stderr: {' | '.join(tail)}" if tail else ""

    def close(self, grace: float) -> None:
        """Let the program exit on its own for ``grace`` seconds, then kill it; free all."""
        process = self.process
        assert process.stdin is not None and process.stdout is not None
        with contextlib.suppress(OSError):
            process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=grace)
        self.finalizer()  # kills what remains of it
        self.stderr_thread.join(1.0)
        process.stdout.close()


IDLE: dict[tuple[tuple[str, ...], float, float], list[_Connection]] = {}
"""Version-2 programs between matches, by command and timeouts."""


def close_idle() -> None:
    """Tell every idle program ``bye`` (the interpreter is exiting)."""
    for connections in IDLE.values():
        for connection in connections:
            _bye(connection)
    IDLE.clear()


atexit.register(close_idle)


def _bye(connection: _Connection) -> None:
    if connection.process.poll() is None:
        connection.send({"type": "bye"}, time.monotonic() + CLOSE_GRACE)
    connection.close(CLOSE_GRACE)


class ProcessBot(Bot):
    """A bot played by an external program over the JSON-lines bot protocol.

    ``command`` is split like a shell command line (``python3 my_bot.py --fast``) and run
    without a shell. ``timeout`` is how many seconds each answer may take, ``startup`` how
    long the program may take to answer ``hello`` (see the module). A program that chose
    protocol 2 or 3 outlives its match and plays the next match of the same command.
    """

    name = "process"

    def __init__(self, command: str, *, timeout: float | str | None = None, startup: float | str | None = None) -> None:
        super().__init__()
        try:
            self.argv = shlex.split(command)
        except ValueError as error:
            raise SettingsError("setup.bad_command", command=repr(command), detail=str(error)) from None
        if not self.argv:
            raise SettingsError("setup.no_command")
        self.timeout = _seconds(timeout, TIMEOUT_VARIABLE, DEFAULT_TIMEOUT, "timeout")
        self.startup = _seconds(startup, STARTUP_VARIABLE, max(DEFAULT_STARTUP, self.timeout), "startup")
        self.command = command
        self.name = f"cmd:{command}"
        self.connection: _Connection | None = None

    @classmethod
    def from_spec(cls, text: str) -> ProcessBot:
        """The bot of a ``cmd:`` spec's text after ``cmd:``: options (``timeout=1:``,
        ``startup=30:``) may come before the command."""
        options: dict[str, str] = {}
        while True:
            head, sep, rest = text.partition(":")
            key, equals, value = head.partition("=")
            if not (sep and equals and key in OPTIONS) or key in options:
                break
            options[key] = value
            text = rest
        return cls(text, timeout=options.get("timeout"), startup=options.get("startup"))

    @property
    def _key(self) -> tuple[tuple[str, ...], float, float]:
        return (tuple(self.argv), self.timeout, self.startup)

    # ------------------------------------------------------------------ the Bot interface

    def start(self, seat: int, rules: Rules, rng: random.Random) -> None:
        """Start the program (or take an idle one of protocol 2) and greet it; it must
        answer ``ready`` in time."""
        super().start(seat, rules, rng)
        self.close()
        idle = IDLE.get(self._key)
        while idle:
            connection = idle.pop()
            self.connection = connection
            message = {"type": "match", "seat": seat, "rules": rules.to_dict(), "timeout": self.timeout}
            if connection.send(message, time.monotonic() + self.timeout) is None:
                line, _ = connection.receive("match", time.monotonic() + self.timeout)
                if line is not None:
                    self._ready(self._parse(line, "match", "ready"))
                    return
            connection.close(0)  # it went away while idle: start another
            self.connection = None
        try:
            self.connection = _Connection(self.argv)
        except OSError as error:
            raise BotError(seat, self.name, "bot.not_started", detail=str(error.strerror or error)) from None
        hello = {
            "type": "hello",
            "protocol": PROTOCOL,
            "protocols": list(PROTOCOLS),
            "seat": seat,
            "rules": rules.to_dict(),
            "timeout": self.timeout,
            "startup": self.startup,
        }
        answer = self._ask(hello, "ready", self.startup)
        protocol = answer.get("protocol", PROTOCOL)
        if protocol not in PROTOCOLS:
            self._fail(f"speaks protocol {protocol!r}, not one of {', '.join(map(repr, PROTOCOLS))}")
        self.connection.protocol = protocol
        self._ready(answer)

    def _ready(self, answer: dict[str, Any]) -> None:
        """Take what a ``ready`` says: the bot's name and (version 3) whether it hears events."""
        connection = self.connection
        assert connection is not None
        name = answer.get("name")
        if name is not None:
            if not isinstance(name, str) or not name.strip():
                self._fail(f"gave a name that is not a non-empty string: {name!r}")
            self.name = name.strip()
        connection.told = {}  # a new match: the first question tells the whole view
        if connection.protocol == PROTOCOL_3:
            hears = answer.get("events", connection.hears)
            if not isinstance(hears, bool):
                self._fail(f"gave 'events' that is not true or false: {_clip(json.dumps(hears))}")
            connection.hears = hears

    def act(self, view: View) -> Action:
        connection = self.connection
        if connection is not None and connection.protocol == PROTOCOL_3 and len(view.legal_actions) == 1:
            return view.legal_actions[0]  # forced: version 3 asks no question with one answer
        action = self._action("act", view)
        if action is None:
            self._fail("answered null to 'act': on its turn it must act")
        return action

    def react(self, view: View) -> Action | None:
        return self._action("react", view)

    def observe(self, events: Sequence[Event]) -> None:
        if not events:
            return
        connection = self.connection
        if connection is None:
            raise BotError(self.seat, self.name, "bot.not_running")
        if connection.hears:
            connection.hold([to_json(event) for event in events])

    def refused(self) -> None:
        """Its answer broke the protocol (an illegal action): the program is killed at once,
        never kept for another match; the next match starts a new one."""
        connection, self.connection = self.connection, None
        if connection is not None:
            connection.close(0)

    def close(self) -> None:
        """The match is over: a protocol-2 or -3 program waits for the next one; any other is told
        ``bye`` and let exit (killed after a second). Safe to repeat."""
        connection, self.connection = self.connection, None
        if connection is None:
            return
        idle = IDLE.setdefault(self._key, [])
        if (
            connection.protocol in PERSISTENT
            and connection.process.poll() is None
            and len(idle) < IDLE_PER_COMMAND
            and connection.flush(time.monotonic() + self.timeout) is None
        ):
            idle.append(connection)
            return
        _bye(connection)

    # ------------------------------------------------------------------ the exchange

    def _fail(self, detail: str) -> typing.NoReturn:
        """Kill the program and raise the BotError of its breaking the protocol, as ``detail``
        tells it (for the program's author: what it sent, or how it failed to)."""
        self.refused()
        raise BotError(self.seat, self.name, "bot.broke_protocol", detail=detail)

    def _send(self, message: dict[str, Any]) -> None:
        connection = self.connection
        if connection is None:
            raise BotError(self.seat, self.name, "bot.not_running")
        problem = connection.send(message, time.monotonic() + self.timeout)
        if problem is not None:
            self._fail(problem)

    def _ask(self, message: dict[str, Any], expected: str, within: float | None = None) -> dict[str, Any]:
        """Send ``message`` and return the answer, which must be a ``expected`` message
        (within ``within`` seconds; by default the move timeout)."""
        self._send(message)
        connection = self.connection
        assert connection is not None
        asked = message["type"]
        seconds = self.timeout if within is None else within
        line, problem = connection.receive(asked, time.monotonic() + seconds)
        if line is None:
            self._fail(problem or f"did not answer {asked!r} within {seconds:g} s")
        return self._parse(line, asked, expected)

    def _parse(self, line: str, asked: str, expected: str) -> dict[str, Any]:
        """The answer in ``line``, which must be a JSON object of type ``expected``."""
        try:
            answer = json.loads(line)
        except (ValueError, RecursionError):
            self._fail(f"answered {asked!r} with a line that is not JSON: {_clip(line)}")
        if not isinstance(answer, dict):
            self._fail(f"answered {asked!r} with {_clip(line)}, not a JSON object")
        if answer.get("type") != expected:
            self._fail(f"answered {asked!r} with a message of type {answer.get('type')!r}, not {expected!r}")
        return answer

    def _question(self, kind: str, view: View) -> dict[str, Any]:
        """The ``act`` or ``react`` message for ``view``: under version 3 the view's fields
        that changed since the program's last question and the actions as text."""
        connection = self.connection
        if connection is None or connection.protocol != PROTOCOL_3:
            return {"type": kind, "view": view.to_json()}
        now = view.to_json(rules=False)
        del now["legal_actions"]
        told = connection.told
        changed: dict[str, Any] = {}
        for key, value in now.items():
            old = told.get(key, _UNTOLD)
            if value == old:
                continue
            if type(value) is list and type(old) is list and len(old) < len(value) and value[: len(old)] == old:
                changed["+" + key] = value[len(old) :]  # a list that grew: its new items
            else:
                changed[key] = value
        connection.told = now
        return {"type": kind, "view": changed, "actions": [str(action) for action in view.legal_actions]}

    def _action(self, kind: str, view: View) -> Action | None:
        answer = self._ask(self._question(kind, view), "action")
        if "action" not in answer:
            self._fail(f"answered {kind!r} without an 'action' field")
        move = answer["action"]
        if move is None:
            return None
        assert self.connection is not None
        if self.connection.protocol == PROTOCOL_3:
            offered = view.legal_actions
            if type(move) is not int or not 0 <= move < len(offered):
                self._fail(
                    f"answered {kind!r} with {_clip(json.dumps(move))}, not the index of one of"
                    f" its {len(offered)} actions (0 to {len(offered) - 1})"
                )
            return offered[move]
        try:
            return Action.from_json(move)
        except NotationError as error:
            self._fail(f"answered {kind!r} with a malformed action {_clip(json.dumps(move))}: {error}")


_UNTOLD = object()
"""A view field the program has not been told this match."""


def _clip(text: str, limit: int = 120) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "…")
