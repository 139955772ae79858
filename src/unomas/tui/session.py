"""A match with a person at one seat: bots, pacing, out-of-turn chances, saving, resuming.

Everything the terminal game needs that is not drawing: the Textual app and the
``--plain`` line mode drive a :class:`Session` and only show what it says. The session
plays its match through a :class:`~unomas.conductor.Conductor`: the person's seat is
external (no player), every other seat a :class:`~unomas.conductor.BotPlayer`. The person
sees :meth:`Session.view` and hears each change as the conductor tells their seat
(:meth:`Session.listen`, :attr:`Session.history`); their actions are the view's legal
actions, checked by the conductor. After every change the match is written as a record
(RECORD.md) to the user data folder, so :func:`resume` continues it after a crash.

Pacing is advisory: :meth:`Session.delay` says how long a front end should wait before
the next :meth:`Session.step`. While the person has an out-of-turn chance (catching,
calling a late UNO, jumping in) the wait is the longer ``window``, and the bots do not move
before it runs out, unless the person lets the chance go (calls :meth:`step` at once).

>>> session = Session(Rules(players=2, target_score=0), ["random"], seed=3, save=False)
>>> while not session.game.is_over:
...     if session.delay() is not None:  # the bots' chances, or a bot's turn
...         _ = session.step()
...     elif session.waiting_for_person():  # the last action: a play if there is one
...         _ = session.act(session.actions()[-1])
...     else:
...         _ = session.next_round()
>>> session.game.winner in (0, 1)
True
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from unomas import record
from unomas.actions import Action, Kind
from unomas.bots import make_bot
from unomas.bots.base import Bot
from unomas.cards import Card, Color
from unomas.conductor import BotPlayer, Conductor, Listener, Player
from unomas.errors import Refusal, SettingsError, UnoError
from unomas.events import Event, Reshuffled
from unomas.game import Game, RoundLog
from unomas.rules import Rules
from unomas.view import View

NAMES = ("Ana", "Beto", "Carla", "Dani", "Elena", "Fede", "Gabi", "Hugo", "Inés", "Juan")
"""Default seat names (the person sits at seat 0)."""


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

    def rules(self) -> Rules:
        """The rules this setup plays; bad values raise SettingsError."""
        return Rules.preset(self.preset).replace(**(self.settings | {"players": self.players}))

    def fitted(self) -> Setup:
        """This setup with one bot per other seat (the last bot repeats, or the list is cut)."""
        bots = list(self.bots) or ["heuristic"]
        bots = (bots + [bots[-1]] * self.players)[: self.players - 1]
        return Setup(self.players, bots, self.preset, dict(self.settings), self.name, self.sort_hand)

    @classmethod
    def load(cls) -> Setup:
        """The remembered setup, or the default one if there is none (or it is unreadable)."""
        path = data_dir() / "setup.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            setup = cls(**data).fitted()
            setup.rules()
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
    seat, in seat order: specs like ``heuristic``, or bots).

    ``pace``: seconds between bot actions; ``window``: seconds an out-of-turn chance of
    the person stays open. ``save``: write the record to the data folder after every
    change (``path`` names the file; default: a new one under ``records/``). ``seed`` fixes
    a new match's shuffles and bots; ``game`` continues a match under way instead (its
    bots then draw on unseeded sources).
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
        window: float = 2.5,
        save: bool = True,
        path: Path | None = None,
        game: Game | None = None,
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
        players: list[Player | None] = [BotPlayer(make_bot(bot) if isinstance(bot, str) else bot) for bot in bots]
        players.insert(person, None)
        self.pace = pace
        self.window = window
        self.path = path
        if save and path is None:
            stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f")
            self.path = records_dir() / f"{stamp}.json"
        if game is None:
            self.conductor = Conductor.seeded(rules, players, seed=seed)
        else:
            self.conductor = Conductor(game, players)
        self.game = self.conductor.game
        self.rules = self.game.rules
        self.sort_hand = True
        """Whether the front ends show the hand sorted (they toggle it, the setup keeps it)."""
        self.local = True
        """The match is played here (a :class:`~unomas.tui.table.Table`'s question)."""
        self._before: Counter[Card] = Counter(self.view().hand)
        """The person's hand just before their last action (or the deal): what is not in
        it now came since."""
        self.listen(lambda _action, _events: self._save())
        self._save()

    # ------------------------------------------------------------------ what the person sees

    def view(self) -> View:
        """The person's view: their hand, the public table, their legal actions."""
        return self.conductor.view(self.person)

    def actions(self) -> list[Action]:
        """Every action open to the person now (on turn or out of turn)."""
        return self.conductor.legal_actions(self.person)

    @property
    def history(self) -> list[tuple[Action | None, list[Event]]]:
        """The match as the person saw it: each deal (action None) and every action with
        its events, redacted for their seat."""
        return self.conductor.history(self.person)

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Tell ``listener`` every change as the person may see it; returns how to stop."""
        return self.conductor.listen(self.person, listener)

    def new_cards(self) -> Counter[Card]:
        """The cards the person got since their last action (drawn, or a swapped hand)."""
        return Counter(self.view().hand) - self._before

    def waiting_for_person(self) -> bool:
        """Whether the game waits for the person's turn action (or starting colour)."""
        game = self.game
        return not game.round_over and game.current == self.person

    def chance_open(self) -> bool:
        """Whether the person has an out-of-turn action open while a bot is on turn."""
        return not self.waiting_for_person() and bool(self.actions())

    def delay(self) -> float | None:
        """Seconds to wait before the next :meth:`step`; None when nothing should happen
        until the person acts (their turn once the bots have let their chances go, a
        finished round or match)."""
        if self.game.round_over or self.conductor.waiting_for() is not None:
            return None
        return max(self.window, self.pace) if self.chance_open() else self.pace

    # ------------------------------------------------------------------ moving on

    def step(self) -> Action | None:
        """Let the bots move once (a bot's out-of-turn action, or the bot on turn); None
        when no bot acted: the round is over, or the game waits for the person."""
        return self.conductor.step()

    def act(self, action: Action) -> list[Event]:
        """The person's action; an illegal one raises IllegalAction and changes nothing."""
        if action.player != self.person:
            raise Refusal("seat.not_yours", seat=self.person, asked=action.player)
        before = Counter(self.view().hand)
        events = self.conductor.act(action)
        self._before = before
        return events

    def next_round(self) -> list[Event]:
        """Deal the next round once the person has seen the last one's summary."""
        events = self.conductor.deal()
        self._before = Counter(self.view().hand)
        return events

    def trouble(self) -> UnoError | None:
        """Nothing: a refusal of the person's action is raised by :meth:`act` at once."""
        return None

    async def follow(self, changed: Callable[[], None]) -> None:
        """Returns at once: nothing changes here but by :meth:`step`, :meth:`act` and
        :meth:`next_round` (a :class:`~unomas.tui.table.Table` method)."""

    def close(self) -> None:
        self.conductor.close()

    def _save(self) -> None:
        if self.path is None:
            return
        data = record.to_json(self.game, names=self.names, bots=self.specs, person=self.person)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.path.with_suffix(".part")
        partial.write_text(record.dumps(data) + "\n", encoding="utf-8")
        partial.replace(self.path)


def choose_play(
    actions: Sequence[Action], card: Card, *, color: Color | None = None, target: int | None = None, uno: bool = False
) -> Action | str | None:
    """The legal play of ``card`` that a person's choices name, picked from ``actions``.

    Returns the action, or what is still to choose (``"color"`` for a wild, ``"target"``
    for a 7 under the 7-0 rule), or None if ``card`` cannot be played now. ``uno`` asks
    for the play with the UNO call where the play leaves one card.
    """
    plays = [a for a in actions if a.kind is Kind.PLAY and a.card == card]
    if not plays:
        return None
    if any(a.color is not None for a in plays) and color is None:
        return "color"
    if any(a.target is not None for a in plays) and target is None:
        return "target"
    fitting = [a for a in plays if a.color in (None, color) and a.target in (None, target)]
    if not fitting:
        return None
    return next((a for a in fitting if a.uno == uno), fitting[0])


def last_unfinished() -> Path | None:
    """The newest record in the data folder whose match is not over."""
    folder = records_dir()
    if not folder.is_dir():
        return None
    for path in sorted(folder.glob("*.json"), reverse=True):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and data.get("winner", 0) is None:
            return path
    return None


class ResumeError(UnoError):
    """A saved record whose match cannot be continued: ``resume.finished`` (its match is
    over) or ``resume.no_person`` (it is not a match of a person against bots)."""

    def __init__(self, path: Path, code: str) -> None:
        super().__init__(code, file=path.name)


def resume(path: Path, *, pace: float = 0.8, window: float = 2.5) -> Session:
    """Continue the match of a saved record (written by a session); RecordError if it does
    not replay, ResumeError if it is not a match that can go on."""
    data = json.loads(path.read_text(encoding="utf-8"))
    game = record.replay(data)
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
    game.rng = random.SystemRandom()
    bots = [spec for spec in specs if spec is not None]
    return Session(
        game.rules, bots, person=person, names=data.get("names"), pace=pace, window=window, path=path, game=game
    )


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
