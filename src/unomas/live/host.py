"""The host of a live match: the interactive twin of the :class:`~unomas.conductor.Conductor`.

Batch runs drive a conductor as fast as it goes; a live match (a room of ``unomas serve``,
the terminal game, an agent's table) is driven by a :class:`Host` on the event loop. The
host owns the drive loop and its pacing, the reaction window every seat that is not a bot
is owed, the turn timer, the guard against stale and overtaken proposals, store-before-tell
and rebuilding the match from its store. Its ports are a
:class:`~unomas.live.ports.MatchStore` and an :class:`~unomas.live.ports.Outbox`; the
conductor stays the only place that decides whose decision it is and that redacts.

Every change goes one way (:meth:`Host._change`): the conductor applies it, its listeners
note what each listened seat hears, the moves are stored, and only then is the outbox told,
with a new state id. A change the store refuses is undone (:meth:`Host._rebuild`) and
nobody hears of it; a seat that says hello meanwhile is answered once the store has spoken.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, NoReturn

from unomas import fairness, record
from unomas.actions import Action, Kind
from unomas.bots.base import Bot
from unomas.bots.player import BotPlayer
from unomas.cards import card_token, points
from unomas.conductor import Conductor, Player
from unomas.errors import BotError, IllegalAction, Refusal, StaleAction, UnoError
from unomas.events import Event
from unomas.game import Game, RoundLog
from unomas.live.ports import STORE_UNAVAILABLE, Heard, MatchStore, Outbox, Told
from unomas.position import Position
from unomas.rules import Rules
from unomas.view import View

__all__ = ["HISTORY", "WINDOW", "Host", "Pacing", "Story", "bot_source", "snapshot"]

log = logging.getLogger("unomas.live")

WINDOW = 2.5
"""Seconds every seat that is not a bot gets to react (catch a missed UNO, call a late
one, jump in) before a bot acts: the default of every table."""

HISTORY = 500
"""The most changes of the match so far that a hello is told (the latest)."""

STORE_RETRY = 0.25
STORE_RETRY_MAX = 5.0
"""Seconds the host waits before trying again while the store fails (doubling up to the max)."""


@dataclass(frozen=True, slots=True)
class Pacing:
    """How a live table moves: the same settings for every kind of seat."""

    window: float = WINDOW
    """Seconds a seat that is not a bot may take to react before any bot acts
    (``math.inf``: until it lets its chance go, as the terminal's line mode waits)."""
    bot_delay: float = 0.8
    """Seconds a bot waits before acting, so people can follow (0 in tests)."""
    round_pause: float | None = 3.0
    """Seconds between a round's end and the next deal; None: the next round is dealt
    when a seat asks (:meth:`Host.next_round`)."""
    turn_seconds: float = 0.0
    """Seconds a person has for a turn before the host draws (and passes) for them; 0: no limit."""
    max_actions: int = 20_000
    """Actions after which a match still not over is ended: no table plays for ever."""


@dataclass(frozen=True, slots=True)
class Story:
    """What a seat is told when it sits down (or comes back): its view, the match so far
    as it saw it (at most :data:`HISTORY` changes, the latest), the host's state id and
    the seconds left on the turn timer."""

    view: View
    history: list[list[Event]]
    state: int
    turn_left: float | None


BotMaker = Callable[[], Bot]
"""Makes the bot behind a seat (again, when the match is rebuilt)."""


class Host:
    """One live match on the event loop.

    ``bots`` has one entry per seat: what makes the bot behind it, or None for a seat with
    nobody behind it (its person's alone). ``people``: the seats a person, a program or an
    agent plays; their bots stand by until :meth:`stand_in` says otherwise. ``secret`` is
    the shuffle's seed (:mod:`unomas.fairness`): committed to in every record before the
    end, revealed after it. ``names`` and ``fields`` go into the record.
    """

    def __init__(
        self,
        rules: Rules,
        bots: Sequence[BotMaker | None],
        people: frozenset[int],
        *,
        store: MatchStore,
        outbox: Outbox,
        pacing: Pacing,
        secret: bytes,
        names: Sequence[str],
        fields: dict[str, Any] | None = None,
    ) -> None:
        self.rules = rules
        self.bots = list(bots)
        self.people = people
        self.store = store
        self.outbox = outbox
        self.pacing = pacing
        self.secret = secret
        self.names = list(names)
        self.fields = fields or {}
        self.conductor: Conductor | None = None
        self.state = 0
        """The stored match's number of changes (actions and deals): every change told moves it
        on, a restart keeps it, so clients compare it rather than count updates."""
        self.away: set[int] = set()
        """People's seats a bot plays for now."""
        self.over = False
        self.final: dict[str, Any] | None = None
        """The finished match's record."""
        self.deadline: float | None = None
        """When (loop time) the turn timer runs out, if it runs."""
        self.epoch = 0
        """How many times the match was rebuilt from the store."""
        self._listening: dict[int | None, Callable[[], None]] = {}
        self._heard: list[Heard] = []
        self._stored = 0
        """The game's ply when its last move was stored."""
        self._stored_rounds = 0
        """How many of the rounds in the game's log are stored (their deals)."""
        self._first_round = 0
        """The index in the match of the game's first logged round (a match rebuilt from a
        snapshot has the rounds since that one alone in its log; the earlier are in the store)."""
        self._snapshot: dict[str, Any] | None = None
        """The match just before that round's deal (None: round 0, dealt from the secret)."""
        self._earlier: list[dict[str, Any]] = []
        self._let_go: tuple[int, set[int]] = (-1, set())
        """The ply, and the seats that let their out-of-turn chance go at it."""
        self._wake = asyncio.Event()
        self._deal_asked = asyncio.Event()
        self._ending = False
        """Asked to end the match before its end (:meth:`end`)."""
        self._lock = asyncio.Lock()
        """Held through each change and its storing: one change at a time, none heard before it is stored."""
        self._task: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._timer_key: tuple[int, int] | None = None
        self._chores: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ starting

    def begin(self, game: Game | None = None) -> Game:
        """The match's game (a new one dealt from the secret, or ``game``), its conductor made; not yet driven."""
        self._conduct(Game(self.rules, seed=self.secret) if game is None else game)
        assert self.conductor is not None
        return self.conductor.game

    def restore(
        self, rounds: list[dict[str, Any]], first_round: int = 0, snapshot: dict[str, Any] | None = None
    ) -> Game:
        """The match as stored: replayed from the secret's first deal (or ``snapshot``, the
        match just before round ``first_round``) through the record's ``rounds`` from there."""
        self._first_round, self._snapshot = first_round, snapshot
        return self.begin(self._replay(rounds))

    def start(self, seats: Iterable[int | None] = ()) -> None:
        """Drive the match (bots, pacing, deals, the end), its first deal stored: ``seats``
        (None: the spectators) are listened to from now on and told the deal."""
        conductor = self.conductor
        assert conductor is not None
        for seat in seats:
            if seat not in self._listening:
                self.listen(seat)
                self._heard.append(Heard(seat, None, conductor.history(seat)[-1][1], conductor.view(seat)))
        self._task = asyncio.get_running_loop().create_task(self._drive(), name="host")
        self._task.add_done_callback(_report_crash)
        self._publish()

    def _conduct(self, game: Game) -> None:
        players: list[Player | None] = [None if make is None else BotPlayer(make()) for make in self.bots]
        conductor = Conductor(game, players, rngs=[bot_source(self.secret, seat) for seat in range(len(players))])
        for seat in self.people:
            if players[seat] is not None:
                conductor.stand_in(seat, seat in self.away)
        self.conductor = conductor
        self._stored = game.ply
        self._stored_rounds = 0 if game.log is None else len(game.log)

    @property
    def game(self) -> Game:
        assert self.conductor is not None
        return self.conductor.game

    def failure(self) -> BaseException | None:
        """What stopped the drive loop before the match's end (a bot that failed), if anything."""
        task = self._task
        if task is None or not task.done() or task.cancelled():
            return None
        return task.exception()

    async def stopped(self) -> None:
        """Wait until the drive loop stops: the match is over, or something stopped it."""
        if self._task is not None:
            await asyncio.wait([self._task])

    # ------------------------------------------------------------------ seats

    async def sit(self, seat: int | None) -> Story:
        """A seat (None: a spectator) is listened to from now on: what it is told now. A
        change being stored is stored (or undone) first, so nobody sees an unstored move."""
        async with self._lock:
            self.listen(seat)
            return self._story(seat)

    def leave(self, seat: int | None) -> None:
        """Nobody listens to ``seat`` any more."""
        stop = self._listening.pop(seat, None)
        if stop is not None:
            stop()

    def stand_in(self, seat: int, playing: bool) -> None:
        """Let a person's bot play their seat (they are away) or stand by again."""
        (self.away.add if playing else self.away.discard)(seat)
        if self.conductor is not None and self.conductor.players[seat] is not None:
            self.conductor.stand_in(seat, playing)
        self._reset_timer()
        self._wake.set()

    def end(self) -> None:
        """End the match at once, as the action limit does: recorded with no winner, the seed
        revealed (a room nobody is left at stops costing its server)."""
        self._ending = True
        self._wake.set()
        self._deal_asked.set()

    def decline(self, seat: int, ply: int | None = None) -> None:
        """``seat`` lets its out-of-turn chance go (the chance of ``ply``: one that has
        passed is not let go again): the bots need not wait for it any more."""
        if ply is not None and ply != self.game.ply:
            return
        ply, seats = self._let_go
        if ply != self.game.ply:
            self._let_go = (self.game.ply, seats := set())
        seats.add(seat)
        self._wake.set()

    def reacting(self) -> list[int]:
        """The seats that are not a bot's now and may still react (catch, call UNO late, jump in)."""
        conductor = self.conductor
        if conductor is None or self.over:
            return []
        ply, let_go = self._let_go
        return [seat for seat in conductor.external_chances() if ply != conductor.game.ply or seat not in let_go]

    # ------------------------------------------------------------------ changes

    async def act(self, seat: int, action: Action, ply: int | None = None, ref: int | None = None) -> None:
        """``seat``'s action, checked by the conductor (the rules, and the ply it answers):
        stored, then told (``ref`` goes back to ``seat``). An action that cannot be stored
        is not made (``store.unavailable``)."""
        if action.player != seat:
            raise Refusal("seat.not_yours", seat=seat, asked=action.player)
        await self._change(lambda conductor: conductor.act(action, ply=ply), ref, seat, ply=ply)

    def next_round(self) -> None:
        """A seat has read the round's summary: deal the next one (a table without a round pause)."""
        self._deal_asked.set()

    async def _change(
        self,
        change: Callable[[Conductor], object],
        ref: int | None = None,
        by: int | None = None,
        *,
        ply: int | None = None,
    ) -> None:
        async with self._lock:
            conductor = self.conductor
            if conductor is None or self.over:
                self._refuse_closed(ply)
            game = conductor.game
            before = game.ply
            try:
                change(conductor)
            finally:  # a move applied is stored and told, even if a bot failed to hear of it
                if game.ply != before:
                    await self._store_moves()
                    self._publish(ref, by)

    def _refuse_closed(self, ply: int | None) -> NoReturn:
        """Refuse an action once the match is over: as stale if it answers a ply the last
        move overtook (a seat that acted while its rival played the last card has not
        failed), else as over."""
        conductor = self.conductor
        if ply is not None and conductor is not None and ply != conductor.game.ply:
            raise StaleAction(ply, conductor.game.ply)
        raise IllegalAction("match.over")

    async def _store_moves(self) -> None:
        """Store the moves applied since the last stored one (with the round's result); if
        the store fails, go back to what it holds."""
        game = self.game
        assert game.log is not None
        new = game.ply - self._stored
        played = game.log[-1]
        try:
            for number, (action, caused) in enumerate(played.moves[len(played.moves) - new :]):
                result = played.result if number == new - 1 else None
                summary = None if result is None else {"winner": result.winner, "points": result.points}
                await self.store.append(game.round, record.move_entries(action, caused), summary)
                self._stored += 1
        except UnoError as error:
            if error.code == STORE_UNAVAILABLE:
                self._rebuild()
            raise

    def _publish(self, ref: int | None = None, by: int | None = None) -> None:
        """Tell the outbox what each seat heard of the change just stored, under a new state id."""
        heard, self._heard = self._heard, []
        self.state = self.game.ply + self.game.round + 1
        self._wake.set()
        self._reset_timer()
        self.outbox.changed(Told(heard, self.state, self.turn_left(), by, ref))

    def listen(self, seat: int | None) -> None:
        """Listen to ``seat`` from now on (once a seat), with nothing told of the match so far."""
        conductor = self.conductor
        if conductor is not None and seat not in self._listening:
            self._listening[seat] = conductor.listen(seat, partial(self._hear, seat))

    def _hear(self, seat: int | None, action: Action | None, seen: list[Event]) -> None:
        assert self.conductor is not None
        self._heard.append(Heard(seat, action, seen, self.conductor.view(seat)))

    def _story(self, seat: int | None) -> Story:
        assert self.conductor is not None
        history = [seen for _, seen in self.conductor.history(seat)[-HISTORY:]]
        return Story(self.conductor.view(seat), history, self.state, self.turn_left())

    def _replay(self, rounds: list[dict[str, Any]]) -> Game:
        if self._snapshot is None:
            return fairness.replay_seeded({"rules": self.rules.to_dict(), "rounds": rounds}, self.secret)
        shuffles = random.Random()
        version, state, gauss = self._snapshot["rng"]
        shuffles.setstate((version, tuple(state), gauss))
        game = Game.from_position(self.rules, Position.from_json(self._snapshot["position"]), rng=shuffles)
        game.log = []  # a history from this round on (the earlier rounds are in the store)
        return fairness.replay_from(game, rounds)

    def _rebuild(self) -> None:
        """Make the match what the store holds again (after a write failed), as a restarted
        host would: the changes not stored were heard by nobody and are forgotten, and
        every bot is told the round again."""
        old = self.conductor
        assert old is not None and old.game.log is not None
        logged = old.game.log
        start_ply = old.game.ply - sum(len(played.moves) for played in logged)
        rounds = logged[: self._stored_rounds]
        kept = self._stored - start_ply - sum(len(played.moves) for played in rounds[:-1])
        last = rounds[-1]
        if kept < len(last.moves):
            rounds[-1] = RoundLog(last.dealer, last.deal, last.moves[:kept])
        old.close()
        self._conduct(self._replay([record.round_json(played) for played in rounds]))
        listening, self._listening, self._heard = list(self._listening), {}, []
        for seat in listening:
            self.listen(seat)
        self.epoch += 1
        self._wake.set()

    # ------------------------------------------------------------------ the drive loop

    async def _drive(self) -> None:
        """Play the bots' seats whenever the sequence comes to one (after the reaction
        window and the bot delay), deal the rounds, finish the match. While the store
        fails, wait and try again: the match is what the store holds."""
        backoff = STORE_RETRY
        while True:
            conductor = self.conductor
            assert conductor is not None
            game = conductor.game
            try:
                if game.is_over or game.ply >= self.pacing.max_actions or self._ending:
                    await self._finish()
                    return
                if game.round_over:
                    await self._between_rounds()
                    if not self._ending:
                        await self._deal()
                elif not await self._bot_turn(conductor):
                    continue
            except UnoError as error:
                if error.code != STORE_UNAVAILABLE:
                    raise
                await asyncio.sleep(backoff)
                backoff = min(2 * backoff, STORE_RETRY_MAX)
                continue
            backoff = STORE_RETRY
            await asyncio.sleep(0)

    async def _between_rounds(self) -> None:
        pause = self.pacing.round_pause
        if pause is not None:
            await asyncio.sleep(pause)
            return
        await self._deal_asked.wait()
        self._deal_asked.clear()

    async def _bot_turn(self, conductor: Conductor) -> bool:
        """Let the bot whose decision it is act, once every seat that is not a bot has had
        its window to react; False if nobody acted (a person decides, or someone acted first)."""
        ply = conductor.game.ply
        action = conductor.propose()
        if action is None:  # a person decides now: wait for a change
            self._wake.clear()
            await self._wake.wait()
            return False
        if not await self._pause(conductor, ply) or not conductor.playing[action.player]:
            return False  # someone acted meanwhile, or the seat's person came back: think again

        def apply(now: Conductor) -> object:
            if now is not conductor:  # proposed to a match since rebuilt from the store
                raise StaleAction(ply, now.game.ply)
            return now.act(action, ply=ply)

        try:
            await self._change(apply)
        except StaleAction:
            return False
        return True

    async def _pause(self, conductor: Conductor, ply: int) -> bool:
        """Wait the bot delay, or the reaction window while a seat that is not a bot may
        still react (it ends early once they all let their chance go); False if the match
        moved on meanwhile."""
        pacing = self.pacing
        loop = asyncio.get_running_loop()
        started = loop.time()
        while True:
            wait = max(pacing.window, pacing.bot_delay) if pacing.window and self.reacting() else pacing.bot_delay
            left = started + wait - loop.time()
            if left <= 0:
                return True
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), None if math.isinf(left) else left)
            if self.conductor is not conductor or conductor.game.ply != ply:
                return False

    async def _deal(self) -> None:
        async with self._lock:
            conductor = self.conductor
            assert conductor is not None and conductor.game.log is not None
            before = snapshot(conductor.game)
            conductor.deal()
            try:
                await self.store.add_round(conductor.game.round, record.round_json(conductor.game.log[-1]), before)
            except UnoError as error:
                if error.code == STORE_UNAVAILABLE:
                    self._rebuild()
                raise
            self._stored_rounds += 1
            self._publish()

    # ------------------------------------------------------------------ the turn timer

    def _turn_key(self) -> tuple[int, int]:
        """The turn in play: the round, and the index in it of its last turn action (an UNO
        call or a catch starts no new turn; -1: the deal)."""
        game = self.game
        assert game.log is not None
        moves = game.log[-1].moves
        last = len(moves) - 1
        while last >= 0 and moves[last][0].kind in (Kind.UNO, Kind.CATCH):
            last -= 1
        return game.round, last

    def _reset_timer(self) -> None:
        """Start the turn timer when a new turn begins for a person."""
        conductor = self.conductor
        if not self.pacing.turn_seconds or conductor is None or self._task is None:
            return
        key = self._turn_key()
        if key == self._timer_key:
            return
        self._timer_key = key
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.deadline = None
        game = conductor.game
        if game.round_over or conductor.playing[game.current]:
            return
        loop = asyncio.get_running_loop()
        self.deadline = loop.time() + self.pacing.turn_seconds
        self._timer = loop.call_later(self.pacing.turn_seconds, self._expire, key)

    def turn_left(self) -> float | None:
        """Seconds left on the turn timer (None: it does not run)."""
        if self.deadline is None:
            return None
        return max(0.0, round(self.deadline - asyncio.get_running_loop().time(), 1))

    def _expire(self, key: tuple[int, int]) -> None:
        self._timer = None
        conductor = self.conductor
        if conductor is None or self._timer_key != key or conductor.game.round_over:
            return
        task = asyncio.get_running_loop().create_task(self._time_out(key))
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    async def _time_out(self, key: tuple[int, int]) -> None:
        """Time is up for the seat on turn: the conductor draws (and passes) for it."""
        taken: list[Action] = []

        def time_out(conductor: Conductor) -> object:
            if self._timer_key != key or conductor.game.round_over:
                return None  # the seat acted meanwhile
            taken.extend(conductor.time_out())
            return taken

        try:
            await self._change(time_out)
        except UnoError as error:
            if error.code not in (STORE_UNAVAILABLE, "match.over"):
                raise
            self._timer_key = None  # not stored: the turn (and its timer) starts again
            self._reset_timer()
            return
        if taken:
            self.outbox.timed_out(taken[0].player)

    # ------------------------------------------------------------------ the end

    async def _finish(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if len(self._earlier) < self._first_round:  # rebuilt from a snapshot: the rounds before it
            self._earlier = await self.store.rounds(0, self._first_round)
        self.over = True
        final = self.record()
        try:
            await self.store.finish(final)
        except BaseException:
            self.over = False
            raise
        self.final = final
        assert self.conductor is not None
        self.conductor.close()
        self.outbox.finished(final)

    def record(self) -> dict[str, Any]:
        """The match's record: the shuffle's seed committed to until the match is over, revealed after."""
        game = self.game
        assert len(self._earlier) == self._first_round, "the rounds before the snapshot are read first"
        shuffle = fairness.reveal(self.secret) if self.over else fairness.commit(self.secret)
        made = record.to_json(game, names=self.names, **{fairness.FIELD: shuffle, **self.fields})
        made["rounds"][:0] = self._earlier
        return made

    def ended_early(self) -> bool:
        """Whether the match ended before its end (no winner): it ran too long, or :meth:`end`."""
        return self.over and not self.game.is_over

    def standings(self) -> list[dict[str, Any]]:
        """Each round ended so far: its number, winner, points and everyone's totals after it,
        and the cards left in each hand with what each scored (the winner's hand is empty), so a
        face can count the points card by card without knowing what a card is worth."""
        game = self.game
        scores = [0] * self.rules.players
        rounds = []
        for number, played in enumerate(game.log or []):
            result = played.result
            if result is None:
                continue
            scores[result.winner] += result.points
            hands = [[(card_token(card), points(card)) for card in hand] for hand in result.hands]
            rounds.append(
                {
                    "round": number,
                    "winner": result.winner,
                    "points": result.points,
                    "scores": list(scores),
                    "hands": hands,
                }
            )
        return rounds

    async def close(self) -> None:
        """Stop driving the match (the process is shutting down, or the table closes)."""
        if self._timer is not None:
            self._timer.cancel()
        for task in [self._task, *self._chores]:
            if task is not None and not task.done():  # one that stopped by itself was reported
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if self.conductor is not None and not self.over:
            self.conductor.close()


def bot_source(secret: bytes, seat: int) -> random.Random:
    """The random source of the bot at ``seat`` of a table dealt from ``secret``: drawn from
    it, so the same secret plays the same match at every kind of table; a hash apart, so
    no bot's choices tell the secret."""
    return random.Random(hashlib.sha256(secret + b"/seat %d" % seat).digest())


def snapshot(game: Game) -> dict[str, Any]:
    """The match between two rounds as a restart takes it up: its position and the state
    of its seeded random source (which deals the next round)."""
    shuffles = game.rng
    assert isinstance(shuffles, random.Random), "a live match shuffles with its seeded source"
    return {"position": game.position().to_json(), "rng": shuffles.getstate()}


def _report_crash(task: asyncio.Task[None]) -> None:
    """A host's drive loop should never fail; if it does (a bot error), say so in the log."""
    if not task.cancelled() and task.exception() is not None:
        error = task.exception()
        if isinstance(error, BotError):  # the table is told; the log says which bot
            log.warning("%s stopped: %s", task.get_name(), error)
        else:
            log.error("%s stopped: %s", task.get_name(), error, exc_info=error)
