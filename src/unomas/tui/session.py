"""A match with a person at one seat: bots, pacing, out-of-turn chances, saving, resuming.

Everything the terminal game needs that is not drawing: the Textual app and the
``--plain`` line mode drive a :class:`Session` and only show what it says. The session is
a live table like a room of ``unomas serve`` or an agent's table: a
:class:`~unomas.live.host.Host` drives its match on the event loop (the bots' pace, the
reaction window every out-of-turn chance of the person is owed, the ply guard, the
record file written before the person hears of a change). The person sees
:meth:`Session.view` and hears each stored change as the conductor tells their seat
(:meth:`Session.listen`, :attr:`Session.history`); their actions are the view's legal
actions, checked by the conductor. The record (RECORD.md) in the user data folder lets
:func:`resume` continue a match after a crash.

>>> import asyncio
>>> async def play() -> int | None:
...     session = Session(Rules(players=2, target_score=0), ["random"], seed=3, pace=0, save=False)
...     while await session.decision():  # the person's turn, a chance, a round's end
...         if session.chance_open():
...             session.let_go()
...         else:  # the last action: a play if there is one
...             await session.submit(session.actions()[-1])
...     await session.close()
...     return session.game.winner
>>> asyncio.run(play()) in (0, 1)
True
"""

from __future__ import annotations

import asyncio
import json
import math
import os
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

from unomas import fairness, record
from unomas.actions import Action, Kind
from unomas.bots import make_bot
from unomas.bots.base import Bot
from unomas.cards import Card, Color
from unomas.conductor import Conductor, Listener
from unomas.errors import RecordError, SettingsError, UnoError
from unomas.events import Event, Reshuffled
from unomas.game import Game, Phase, RoundLog
from unomas.live.host import WINDOW, Host, Pacing
from unomas.live.ports import MemoryStore, RecordFile, Told
from unomas.rules import Rules
from unomas.view import View

NAMES = ("Ana", "Beto", "Carla", "Dani", "Elena", "Fede", "Gabi", "Hugo", "Inés", "Juan")
"""Default seat names (the person sits at seat 0)."""


SECRET = "secret"
"""The saved record's field holding the shuffle's secret seed while the match goes on (a
resumed match deals on from it); the finished record reveals the seed under ``shuffle``
instead. The file is the player's own, as a server's database is its operator's."""

DATA_ENV = "UNOMAS_DATA"
"""An environment variable that, when set, names the data folder (tests use it)."""


def data_dir() -> Path:
    """The user data folder: records and the remembered setup live there."""
    override = os.environ.get(DATA_ENV)
    if override:
        return Path(override)
    import platformdirs

    return platformdirs.user_data_path("unomas", appauthor=False)


def records_dir() -> Path:
    return data_dir() / "records"


@dataclass
class Setup:
    """What the setup screen chooses, remembered for next time."""

    players: int = 4
    bots: list[str] = field(default_factory=lambda: ["heuristic"] * 3)
    """One bot spec per other seat, in seat order."""
    preset: str = "official"
    settings: dict[str, Any] = field(default_factory=dict)
    """House-rule switches (and target_score) on top of the preset."""
    name: str = NAMES[0]
    sort_hand: bool = True
    """Show the hand sorted by colour and rank (else in the order the cards came)."""
    window: float = WINDOW
    """Seconds every out-of-turn chance of the person holds the bots back (the reaction window)."""

    def rules(self) -> Rules:
        """The rules this setup plays; bad values raise SettingsError."""
        return Rules.preset(self.preset).replace(**(self.settings | {"players": self.players}))

    def fitted(self) -> Setup:
        """This setup with one bot per other seat (the last bot repeats, or the list is cut)."""
        bots = list(self.bots) or ["heuristic"]
        bots = (bots + [bots[-1]] * self.players)[: self.players - 1]
        return Setup(self.players, bots, self.preset, dict(self.settings), self.name, self.sort_hand, self.window)

    @classmethod
    def load(cls) -> Setup:
        """The remembered setup, or the default one if there is none (or it is unreadable)."""
        path = data_dir() / "setup.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            setup = cls(**data).fitted()
            setup.rules()
            if not isinstance(setup.window, int | float) or not 0 <= setup.window < math.inf:
                raise ValueError(f"a reaction window of {setup.window!r} seconds")
            for spec in setup.bots:
                make_bot(spec).close()
        except (OSError, ValueError, TypeError):
            return cls()
        return setup

    @classmethod
    def remember_sorting(cls, sort_hand: bool) -> None:
        """Keep the hand's order (sorted or not) in the remembered setup, the rest as it was."""
        setup = cls.load()
        setup.sort_hand = sort_hand
        setup.save()

    def save(self) -> None:
        path = data_dir() / "setup.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(asdict(self), indent=2) + "\n", encoding="utf-8")


class Session:
    """A match between a person (seat ``person``) and bots (``bots``: one spec per other
    seat, in seat order: specs like ``heuristic``, or bots), live on a
    :class:`~unomas.live.host.Host` on the caller's event loop.

    ``pace``: seconds a bot waits before acting; ``window``: seconds every out-of-turn
    chance of the person (a catch, a late UNO call, a jump-in) holds the bots back, unless
    they let it go (``math.inf``: until they do). ``save``: keep the match as its record
    in the data folder, written after every change before the person hears of it
    (``path`` names the file; default: a new one under ``records/``), so :func:`resume`
    continues it. ``seed`` fixes a new match's shuffles and bots; ``game`` plays a given
    match instead (a stacked one, in tests).
    """

    def __init__(
        self,
        rules: Rules,
        bots: Sequence[str | Bot],
        *,
        person: int = 0,
        names: Sequence[str] | None = None,
        seed: int | str | None = None,
        pace: float = 0.8,
        window: float = WINDOW,
        save: bool = True,
        path: Path | None = None,
        game: Game | None = None,
        saved: dict[str, Any] | None = None,
    ) -> None:
        if len(bots) != rules.players - 1:
            raise SettingsError("setup.bot_count", players=rules.players, bots=rules.players - 1, given=len(bots))
        if not 0 <= person < rules.players:
            raise SettingsError("setup.person_seat", last=rules.players - 1, value=person)
        self.person = person
        self.specs: list[str | None] = [bot if isinstance(bot, str) else bot.name for bot in bots]
        self.specs.insert(person, None)
        """Each seat's bot spec (None: the person), as the record keeps them."""
        self.names = list(names) if names is not None else [NAMES[s % len(NAMES)] for s in range(rules.players)]
        if len(self.names) != rules.players:
            raise SettingsError("setup.name_count", names=len(self.names), players=rules.players)
        makers: list[Callable[[], Bot] | None] = [_maker(bot) for bot in bots]
        makers.insert(person, None)
        self.path = path
        if save and path is None:
            stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f")
            self.path = records_dir() / f"{stamp}.json"
        secret = bytes.fromhex(saved[SECRET]) if saved is not None else fairness.table_secret(seed)
        fields = {"bots": self.specs, "person": person}
        self.host = Host(
            rules,
            makers,
            frozenset({person}),
            store=MemoryStore(),
            outbox=self,
            pacing=Pacing(window=window, bot_delay=pace, round_pause=None),
            secret=secret,
            names=self.names,
            fields=fields,
        )
        played = self.host.restore(saved["rounds"]) if saved is not None else self.host.begin(game)
        if self.path is not None:
            start = saved
            if start is None:
                start = record.to_json(played, names=self.names, **{fairness.FIELD: fairness.commit(secret)}, **fields)
                if game is None:  # a match dealt from the secret goes on from it after a restart
                    start[SECRET] = secret.hex()
            kept = RecordFile(self.path, start)
            kept.create()
            self.host.store = kept
        self.rules = played.rules
        self.sort_hand = True
        """Whether the front ends show the hand sorted (they toggle it, the setup keeps it)."""
        self.local = True
        """The match is played here (a :class:`~unomas.tui.table.Table`'s question)."""
        conductor = self.host.conductor
        assert conductor is not None
        self.host.listen(person)
        self._history = conductor.history(person)
        self._view = conductor.view(person)
        self._before: Counter[Card] = Counter(self._view.hand)
        """The person's hand just before their last action (or the deal): what is not in
        it now came since."""
        self._listeners: list[Listener] = []
        self._news = asyncio.Event()
        self._refused: tuple[int, UnoError] | None = None
        """The last refusal of the person's action, and the ply of the view it answered."""
        self._sending: set[asyncio.Task[None]] = set()
        self._started = False
        self._deal_asked = -1
        """The round after which the person asked for the next deal."""

    # ------------------------------------------------------------------ the host's outbox

    def changed(self, told: Told) -> None:
        """A change was stored: what the person heard of it becomes their view and history."""
        for heard in told.heard:
            if heard.seat != self.person:
                continue
            self._history.append((heard.action, heard.events))
            self._view = heard.view
            if heard.action is None:  # a deal: nothing of it is new
                self._before = Counter(heard.view.hand)
            for listener in list(self._listeners):
                listener(heard.action, heard.events)
        self._news.set()

    def timed_out(self, seat: int) -> None:
        """(The terminal game runs no turn timer.)"""

    def finished(self, record: dict[str, Any]) -> None:
        self._news.set()

    # ------------------------------------------------------------------ what the person sees

    @property
    def game(self) -> Game:
        """The match (for its end and its rules; the person sees :meth:`view`)."""
        return self.host.game

    def view(self) -> View:
        """The person's view as last told: their hand, the public table, their legal actions."""
        return self._view

    def actions(self) -> list[Action]:
        """Every action open to the person now (on turn or out of turn)."""
        return list(self._view.legal_actions)

    @property
    def history(self) -> list[tuple[Action | None, list[Event]]]:
        """The match as the person was told it: each deal (action None) and every action
        with its events, redacted for their seat."""
        return list(self._history)

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Tell ``listener`` every later change as the person may see it, once stored;
        returns how to stop."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def new_cards(self) -> Counter[Card]:
        """The cards the person got since their last action (drawn, or a swapped hand)."""
        return Counter(self._view.hand) - self._before

    def waiting_for_person(self) -> bool:
        """Whether the game waits for the person's turn action (or starting colour)."""
        view = self._view
        return view.phase < Phase.ROUND_OVER and view.current == self.person

    def chance_open(self) -> bool:
        """Whether an out-of-turn chance of the person holds the bots back now."""
        return self.person in self.host.reacting() and not self.waiting_for_person()

    def deciding(self) -> bool:
        """Whether the person has something to decide now: their turn, an out-of-turn chance
        not let go, or going on after a round."""
        if self.over:
            return False
        if self._view.phase == Phase.ROUND_OVER:
            return self._deal_asked != self._view.round
        return self.waiting_for_person() or self.chance_open()

    @property
    def over(self) -> bool:
        """Whether the match is over and its record stored (or a failing bot stopped it)."""
        return self.host.final is not None or self.host.failure() is not None

    # ------------------------------------------------------------------ the person's moves

    async def submit(self, action: Action) -> None:
        """The person's action, answering the view last told; an illegal or overtaken one
        raises its :class:`~unomas.errors.UnoError` and changes nothing."""
        before = Counter(self._view.hand)
        await self.host.act(self.person, action, self._view.ply)
        self._before = before

    def act(self, action: Action) -> None:
        """The screen's way to :meth:`submit`: a refusal is told by :meth:`trouble`. While
        an action waits to be stored another is not sent (a key pressed twice is one action)."""
        if self._sending:
            return
        self._refused = None
        task = asyncio.get_running_loop().create_task(self._send(action))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _send(self, action: Action) -> None:
        ply = self._view.ply
        try:
            await self.submit(action)
        except UnoError as refusal:
            self._refused = (ply, refusal)
            self._news.set()

    def let_go(self) -> None:
        """The person lets their out-of-turn chance go: the bots need not wait any more."""
        self.host.decline(self.person, self._view.ply)

    def next_round(self) -> None:
        """Deal the next round once the person has seen the last one's summary."""
        self._deal_asked = self._view.round
        self.host.next_round()

    def news(self) -> list[UnoError]:
        """Nothing: a local table's only person is the one playing."""
        return []

    def trouble(self) -> UnoError | None:
        """A bot's failure that stopped the match, or the refusal of the person's last action
        (until the game moves on)."""
        failure = self.host.failure()
        if isinstance(failure, UnoError):
            return failure
        if self._refused is not None and self._refused[0] == self._view.ply:
            return self._refused[1]
        return None

    # ------------------------------------------------------------------ running

    def start(self) -> None:
        """Drive the match on the running event loop (once)."""
        if not self._started:
            self._started = True
            self.host.start()

    async def decision(self) -> bool:
        """Drive the match until the person has something to decide (True) or it is over
        (False); a bot's failure is raised."""
        self.start()
        while True:
            failure = self.host.failure()
            if failure is not None:
                raise failure
            if self.over:
                return False
            if self.deciding():
                return True
            await self._wait()

    async def _wait(self) -> None:
        """Until the next change is told (or the drive loop stops)."""
        self._news.clear()
        news = asyncio.ensure_future(self._news.wait())
        stopped = asyncio.ensure_future(self.host.stopped())
        _, pending = await asyncio.wait([news, stopped], return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()

    async def follow(self, changed: Callable[[], None]) -> None:
        """Drive the match, calling ``changed`` after every change told, a refusal, and the
        end (or a bot's failure)."""
        self.start()
        while True:
            changed()
            if self.over:
                return
            await self._wait()

    async def close(self) -> None:
        """Stop driving the match (it is saved as it stands)."""
        await self.host.close()


def _maker(bot: str | Bot) -> Callable[[], Bot]:
    """What makes the bot of a seat (again, when the host rebuilds the match)."""
    if isinstance(bot, str):
        return partial(make_bot, bot)
    return lambda: bot


def choose_play(
    actions: Sequence[Action],
    card: Card,
    *,
    color: Color | None = None,
    target: int | None = None,
    uno: bool = False,
    onward: bool = False,
) -> Action | str | None:
    """The legal play of ``card`` that a person's choices name, picked from ``actions``.

    Returns the action, or what is still to choose (``"color"`` for a wild, ``"target"``
    for a 7 under the 7-0 rule), or None if ``card`` cannot be played now. ``uno`` asks
    for the play with the UNO call where the play leaves one card; ``onward`` for the 7
    naming nobody that goes on to another 7 (``same_number_together``).
    """
    plays = [a for a in actions if a.kind is Kind.PLAY and a.card == card]
    if not plays:
        return None
    if any(a.color is not None for a in plays) and color is None:
        return "color"
    if any(a.target is not None for a in plays) and target is None and not onward:
        return "target"
    fitting = [a for a in plays if a.color in (None, color) and a.target in (None, target)]
    if not fitting:
        return None
    return next((a for a in fitting if a.uno == uno), fitting[0])


def last_unfinished() -> Path | None:
    """The newest record in the data folder whose match is not over. A damaged record
    newer than it raises :class:`ResumeError` naming the damage (``resume.damaged``,
    ``resume.not_text``): it may be the match the person means, so no older one is
    resumed in its place."""
    folder = records_dir()
    if not folder.is_dir():
        return None
    for path in sorted(folder.glob("*.json"), reverse=True):
        try:
            data = json.loads(path.read_bytes().decode("utf-8"))
        except OSError:
            continue  # gone meanwhile, or not ours to read
        except UnicodeDecodeError:
            raise ResumeError(path, "resume.not_text") from None
        except json.JSONDecodeError as error:
            raise ResumeError(path, "resume.damaged", line=error.lineno, column=error.colno) from None
        if isinstance(data, dict) and data.get("winner", 0) is None:
            return path
    return None


class ResumeError(UnoError):
    """A saved record whose match cannot be continued: ``resume.finished`` (its match is
    over), ``resume.no_person`` (it is not a match of a person against bots),
    ``resume.damaged`` or ``resume.not_text`` (it cannot be read)."""

    def __init__(self, path: Path, code: str, **params: object) -> None:
        super().__init__(code, file=path.name, **params)


def resume(path: Path, *, pace: float = 0.8, window: float = WINDOW) -> Session:
    """Continue the match of a saved record (written by a session); RecordError if it does
    not replay, ResumeError if it is not a match that can go on."""
    data = json.loads(path.read_text(encoding="utf-8"))
    try:
        game = record.replay(data)
    except RecordError as error:
        # Stopped between storing the last move and the finished record: the match ends now.
        if error.code != "record.winner_differs" or data.get("winner", 0) is not None:
            raise
    else:
        if game.is_over:
            raise ResumeError(path, "resume.finished")
    specs = data.get("bots")
    person = data.get("person")
    if (
        not isinstance(specs, list)
        or not isinstance(person, int)
        or specs.count(None) != 1
        or specs[person] is not None
    ):
        raise ResumeError(path, "resume.no_person")
    secret = data.get(SECRET)
    if not isinstance(secret, str) or len(secret) != 2 * fairness.SEED_BYTES or not _is_hex(secret):
        raise ResumeError(path, "resume.no_secret")
    bots = [spec for spec in specs if spec is not None]
    return Session(
        Rules.from_dict(data["rules"]),
        bots,
        person=person,
        names=data.get("names"),
        pace=pace,
        window=window,
        path=path,
        saved=data,
    )


def _is_hex(text: str) -> bool:
    try:
        bytes.fromhex(text)
    except ValueError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a watched record: the round, and the action (None: the deal) with its
    events as the watching seat saw them."""

    round: int
    action: Action | None
    events: list[Event]


class Watch:
    """Steps through a record, seen from one seat (``seat``; default the person's).

    The record is played again through a :class:`~unomas.conductor.Conductor` (with no
    players), which tells what the watching seat saw of each step."""

    def __init__(self, data: Any, seat: int | None = None) -> None:
        final = record.replay(data)
        assert final.log is not None
        self.logs: list[RoundLog] = final.log
        self.rules = final.rules
        self.names: list[str] = data.get("names") or [NAMES[s % len(NAMES)] for s in range(final.players)]
        person = data.get("person")
        self.person: int | None = person if isinstance(person, int) else None
        """The seat of the record's person (None: a record of bots alone)."""
        self.seat = seat if seat is not None else self.person if self.person is not None else 0
        table = Conductor(self._game_at(0), [None] * final.players)
        for number, log in enumerate(self.logs):
            if number:
                table.deal(log.deal)
            for action, events in log.moves:
                table.act(action, reshuffle=_reshuffle(events))
        self.steps: list[Step] = []
        number = -1
        for taken, seen in table.history(self.seat):
            if taken is None:
                number += 1
            self.steps.append(Step(number, taken, seen))
        self.position = 0
        self.game = self._game_at(0)

    def _game_at(self, position: int) -> Game:
        """The game after the first ``position + 1`` steps, replayed from the first deal."""
        game = Game(self.rules, deal=self.logs[0].deal, seed=0)
        done = 0
        for number, log in enumerate(self.logs):
            if number:
                if done >= position:
                    break
                game.start_round(log.deal)
                done += 1
            for action, events in log.moves:
                if done >= position:
                    return game
                game.apply(action, reshuffle=_reshuffle(events))
                done += 1
        return game

    def go(self, position: int) -> None:
        """Move to step ``position`` (clamped to the record)."""
        self.position = min(max(position, 0), len(self.steps) - 1)
        self.game = self._game_at(self.position)

    def events(self) -> list[Event]:
        """What the current step caused, as the watching seat saw it."""
        return self.steps[self.position].events

    def view(self) -> View:
        return self.game.view(self.seat)


def _reshuffle(events: list[Event]) -> list[Card] | None:
    """The draw pile a recorded action's reshuffle made, top first (None: no reshuffle)."""
    order = next((e.pile for e in events if isinstance(e, Reshuffled)), None)
    return None if order is None else list(order)
