"""The conductor: one match's decision sequence, its seats, and what each seat is told.

Every front door plays through a :class:`Conductor` — self-play and tournaments, the
terminal game, the server's rooms and the RL environments. It owns the
:class:`~unomas.game.Game` and is the only place that

* decides whose decision it is (:meth:`Conductor.decision`): after every action, each seat
  other than the one on turn with an out-of-turn action open (a late UNO call, a catch, a
  jump-in) is offered it, in seat order; an action taken opens a new window on the new
  position; once the window is over the seat on turn decides;
* asks the :class:`Player` of a seat (a bot, or a fast self-play policy) with what that
  seat may know, checks its answer, and turns its failures into :class:`BotError`;
* refuses an action that answers a ply that has passed (:class:`StaleAction`);
* redacts: players and listeners hear each change as their seat may see it
  (:meth:`Conductor.listen`), and :meth:`Conductor.history` replays a seat's own story.

It is synchronous; pacing and turn timers are the caller's (the server wraps it in a task).
Seats with no player, or whose player stands by (:meth:`Conductor.stand_in`), are
*external*: a person or a learner decides there, through :meth:`Conductor.act`.

>>> from unomas.bots import make_bot
>>> from unomas.bots.player import bot_match
>>> from unomas.rules import Rules
>>> rules = Rules(players=2, target_score=0)
>>> table = bot_match(rules, [make_bot("playfirst"), make_bot("heuristic")], seed=1)
>>> summary = table.play()
>>> summary.winner in (0, 1), summary.actions == table.game.ply
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from unomas.actions import Action, Kind
from unomas.cards import Card
from unomas.errors import BotError, IllegalAction, SettingsError, StaleAction, cause_params
from unomas.events import Event, RoundEnded, redact
from unomas.game import Deal, Game, Phase
from unomas.rules import Rules
from unomas.view import View

__all__ = [
    "MAX_ACTIONS_PER_ROUND",
    "Conductor",
    "Listener",
    "MatchSummary",
    "Player",
    "SeatStats",
    "deal_seed",
    "seeded_game",
]

MAX_ACTIONS_PER_ROUND = 100_000
"""A round still running after this many actions is abandoned: every card can end up in
hands with nothing playable, and no rule of RULES.md then ends the round. (Not ``Final``,
so that tests may lower it in either build.)"""

Listener = Callable[[Action | None, list[Event]], None]
"""Told each change (the action, None for a deal) with its events redacted for one seat."""


@dataclass(slots=True)
class SeatStats:
    """What one seat's player did in a match."""

    decisions: int = 0
    thinking: float = 0.0
    """Seconds spent deciding."""


@mypyc_attr(allow_interpreted_subclasses=True)
class Player:
    """Who decides for one seat: asked by the conductor, with that seat's knowledge alone.

    ``trusted`` players answer only with actions the conductor offered them (their answer
    is not checked again: the self-play fast path); others are checked, and an illegal
    answer is a :class:`BotError`. ``listens``: whether :meth:`observe` wants the events.
    ``stats``: what the player counts of its deciding, for the match's summary (None: it
    counts nothing; a bot's :class:`~unomas.bots.player.BotPlayer` counts).
    """

    name: str = "player"
    trusted: bool = False
    listens: bool = False
    stats: SeatStats | None = None

    def start(self, seat: int, rules: Rules, rng: random.Random) -> None:
        """A new match: this player plays ``seat``, drawing on ``rng``."""

    def decide(self, table: Conductor, seat: int, out_of_turn: bool) -> Action | None:
        """The action of ``seat`` now; out of turn, None lets the chance go."""
        raise NotImplementedError

    def observe(self, events: list[Event]) -> None:
        """The events of a change, as this player's seat may see them."""

    def refused(self) -> None:
        """The table refused this player's answer (an illegal action, or not its seat's):
        its match ends here as its failure (a program bot's process is ended with it)."""

    def close(self) -> None:
        """Release what the player holds (a process, a file)."""


def deal_seed(seed: int | str) -> bytes:
    """The seed every shuffle of a match seeded with ``seed`` comes from: ``f"{seed}/deal"``
    in UTF-8. Revealed in a record's ``shuffle`` field (:mod:`unomas.fairness`), it lets
    anyone check the match's deals (a seeded run's records carry it)."""
    return f"{seed}/deal".encode()


def seeded_game(
    rules: Rules,
    seats: int,
    *,
    seed: int | str | None = None,
    history: bool = True,
    rng: random.Random | None = None,
    quiet_deal: bool = False,
) -> tuple[Game, list[random.Random]]:
    """A new match's game and its players' random sources: ``seed`` fixes the shuffles
    (``f"{seed}/deal"``) and every player's source (``f"{seed}/seat {k}"``); without it all
    are unpredictable, or all come from ``rng``. ``quiet_deal``: the first round is dealt
    quiet (see :attr:`Game.reporting <unomas.game.Game.reporting>`), for a match nobody can
    hear yet (it keeps no history, and no listener is attached): its conductor's
    :attr:`~Conductor.events` start empty. The game reports as usual afterwards, until
    :meth:`Conductor.play` quiets it."""
    reporting = not quiet_deal
    if seed is None and rng is not None:
        game, rngs = Game(rules, rng=rng, history=history, reporting=reporting), [rng] * seats
    elif seed is None:
        game, rngs = Game(rules, history=history, reporting=reporting), [random.Random() for _ in range(seats)]
    else:
        game = Game(rules, seed=deal_seed(seed), history=history, reporting=reporting)
        rngs = [random.Random(f"{seed}/seat {seat}") for seat in range(seats)]
    game.reporting = True
    return game, rngs


@dataclass(slots=True, init=False)
class MatchSummary:
    """How a match went: the one summary every run reports (self-play, tournaments, sessions)."""

    winner: int | None
    """The match winner; None if the match was abandoned (or stopped by an error)."""
    scores: list[int]
    rounds: int
    """Rounds dealt."""
    actions: int
    """Actions applied (the game's ply)."""
    round_winners: list[int]
    round_points: list[int]
    decisions: list[int]
    """Decisions asked of each seat's player."""
    thinking: list[float]
    """Seconds each seat's player spent deciding."""
    abandoned: bool
    """A round found no end within :data:`MAX_ACTIONS_PER_ROUND` actions."""

    # Written out: a compiled build runs a generated __init__ as Python, and every match makes one.
    def __init__(
        self,
        winner: int | None,
        scores: list[int],
        rounds: int,
        actions: int,
        round_winners: list[int] | None = None,
        round_points: list[int] | None = None,
        decisions: list[int] | None = None,
        thinking: list[float] | None = None,
        abandoned: bool = False,
    ) -> None:
        self.winner = winner
        self.scores = scores
        self.rounds = rounds
        self.actions = actions
        self.round_winners = [] if round_winners is None else round_winners
        self.round_points = [] if round_points is None else round_points
        self.decisions = [] if decisions is None else decisions
        self.thinking = [] if thinking is None else thinking
        self.abandoned = abandoned

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickling (a run's worker sends its summaries back) by the constructor, in either build."""
        fields = (self.winner, self.scores, self.rounds, self.actions, self.round_winners, self.round_points)
        return MatchSummary, (*fields, self.decisions, self.thinking, self.abandoned)

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "scores": self.scores,
            "rounds": self.rounds,
            "actions": self.actions,
            "round_winners": self.round_winners,
            "round_points": self.round_points,
            "abandoned": self.abandoned,
        }


class Conductor:
    """One match: the game, a player (or none) per seat, the decision sequence, the listeners.

    ``players`` has one entry per seat: a :class:`Player`, or None for an external seat.
    ``rngs`` are the players' random sources (by default new unseeded ones; see
    :meth:`seeded`). ``ask_external``: whether an external seat's out-of-turn chance is a
    decision the sequence waits for (a learner's, which answers with ``none`` through
    :meth:`decline`), or open until the next action (a person's, who acts when they like:
    the sequence moves past it). A ``game`` already under way is taken as it is, and its
    players are told its current round so far.
    """

    def __init__(
        self,
        game: Game,
        players: Sequence[Player | None],
        *,
        rngs: Sequence[random.Random] | None = None,
        ask_external: bool = False,
        witness: Listener | None = None,
    ) -> None:
        if len(players) != game.players:
            raise SettingsError("setup.player_count", given=len(players), players=game.players)
        self.game = game
        self.rules = game.rules
        self.players: list[Player | None] = list(players)
        """One per seat, fixed for the match."""
        self._hearing = [(seat, p) for seat, p in enumerate(self.players) if p is not None and p.listens]
        """The players that want the events, with their seats."""
        self.playing = [player is not None for player in players]
        """Whether each seat's player decides for it now (False: it stands by, listening)."""
        self.ask_external = ask_external
        self.listeners: list[tuple[int | None, Listener]] = []
        self.witnesses: list[Listener] = [] if witness is None else [witness]
        """Told every change unredacted: a store, a narrator or a referee with the right to see all."""
        self.round_winners: list[int] = []
        self.round_points: list[int] = []
        self.events: list[Event] = list(game.round_start_events)
        """The events of the last change."""
        self.starts: list[list[Event]] = []
        """Each round's deal events, kept while the game keeps its history (for :meth:`history`)."""
        self._window: list[int] = []
        self._at = -1
        """The ply the window was opened for (-1: none yet, or a deal since): it opens anew
        after every change."""
        self._round_actions = 0
        sources = rngs if rngs is not None else [random.Random() for _ in players]
        for seat, player in enumerate(self.players):
            if player is not None:
                player.start(seat, self.rules, sources[seat])
        if game.log is not None:
            self.starts = [[] for _ in game.log[:-1]] + [list(game.round_start_events)]
        self._tell(None, self.events)
        if game.log:
            for action, caused in game.log[-1].moves:
                self._tell(action, caused)

    @classmethod
    def seeded(
        cls,
        rules: Rules,
        players: Sequence[Player | None],
        *,
        seed: int | str | None = None,
        history: bool = True,
        ask_external: bool = False,
        witness: Listener | None = None,
    ) -> Conductor:
        """A new match, its chance drawn as :func:`seeded_game` says."""
        game, rngs = seeded_game(rules, len(players), seed=seed, history=history)
        return cls(game, players, rngs=rngs, ask_external=ask_external, witness=witness)

    # ------------------------------------------------------------------ what a seat may know

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know now (None: a spectator)."""
        return self.game.view(seat)

    def legal_actions(self, seat: int) -> list[Action]:
        """The actions open to ``seat`` now (its own knowledge: its hand and the table)."""
        return self.game.legal_actions(seat)

    def playable_cards(self, seat: int) -> list[Card]:
        """The distinct cards ``seat`` may play now."""
        return self.game.playable_cards(seat)

    def play_variants(self, seat: int, card: Card) -> tuple[Action, ...]:
        """Every legal way for ``seat`` to play ``card`` (one of :meth:`playable_cards`)."""
        return self.game.play_variants(seat, card)

    def history(self, seat: int | None) -> list[tuple[Action | None, list[Event]]]:
        """The match so far as ``seat`` saw it: each round's deal (action None) and every
        action with its events, redacted. Needs a game that keeps its history."""
        log = self.game.log
        if log is None:
            raise IllegalAction("history.none")
        story: list[tuple[Action | None, list[Event]]] = []
        sees = self.game.rules.seen_hands(seat)
        for number, played in enumerate(log):
            start = self.starts[number] if number < len(self.starts) else []
            story.append((None, [redact(event, seat, sees) for event in start]))
            story.extend((action, [redact(event, seat, sees) for event in caused]) for action, caused in played.moves)
        return story

    def listen(self, seat: int | None, listener: Listener) -> Callable[[], None]:
        """Tell ``listener`` every change as ``seat`` may see it; returns how to stop."""
        entry = (seat, listener)
        self.listeners.append(entry)
        return lambda: self.listeners.remove(entry) if entry in self.listeners else None

    # ------------------------------------------------------------------ the decision sequence

    def decision(self) -> tuple[int, bool] | None:
        """Who decides now, and whether out of turn; None while a round waits to be dealt."""
        seat = self._decider()
        return None if seat < 0 else (seat, len(self._window) > 0)

    def _decider(self) -> int:
        """The seat that decides now (-1 while a round waits to be dealt), out of turn if
        the window is open: :meth:`decision` without building a tuple, for the hot path."""
        game = self.game
        if game.round_over:
            return -1
        window = self._current_window()
        return window[0] if window else game.current

    def _current_window(self) -> list[int]:
        game = self.game
        at = game.ply
        if at != self._at:
            self._at = at
            if game.out_of_turn_possible():
                self._window = game.out_of_turn_seats()
            elif self._window:
                self._window = []
        window = self._window
        if window and not self.ask_external:
            playing = self.playing
            while window and not playing[window[0]]:
                del window[0]
        return window

    def decline(self, seat: int) -> None:
        """``seat``, offered an out-of-turn chance, lets it go: the window moves on."""
        window = self._current_window()
        if not window or window[0] != seat:
            raise IllegalAction("move.not_offered", seat=seat)
        del window[0]

    def propose(self) -> Action | None:
        """The next action a player would take, not yet applied: the sequence is walked
        through the seats players decide for (those that let their chance go move it on),
        until one acts, or the decision is an external seat's (None), or the round is over
        (None). A proposal is applied with :meth:`act` (with the ply it answers) or
        :meth:`push`; another action first makes it stale."""
        game = self.game
        players = self.players
        playing = self.playing
        while not game.round_over:  # the hot path: _decider() inlined
            window = self._current_window()
            seat = window[0] if window else game.current
            player = players[seat]
            if player is None or not playing[seat]:
                return None
            action = self._answer(player, seat, len(window) > 0)
            if action is not None:
                return action
        return None

    def ask(self) -> Action | None:
        """Ask the player of the decision now, once: its action, checked as :meth:`propose`
        checks it and not applied, or None if it let its out-of-turn chance go (the window
        has moved on). For a front door that counts every decision, a player's ``none``
        included (an RL environment's step); the decision must be a player's."""
        decision = self.decision()
        if decision is None:
            raise IllegalAction("round.over")
        seat, out_of_turn = decision
        player = self.players[seat]
        if player is None or not self.playing[seat]:
            raise IllegalAction("seat.no_player", seat=seat)
        return self._answer(player, seat, out_of_turn)

    def _answer(self, player: Player, seat: int, out_of_turn: bool) -> Action | None:
        """``player``'s answer for ``seat``, checked unless it is trusted (None: the chance let go)."""
        action = player.decide(self, seat, out_of_turn)
        if action is None:
            self._window.pop(0)
            return None
        if not player.trusted:
            if not isinstance(action, Action) or action.player != seat:
                player.refused()
                raise BotError(seat, player.name, "bot.not_own_action", answer=repr(action))
            refusal = self.game.refusal(action)
            if refusal is not None:
                player.refused()
                code, params = refusal
                cause = IllegalAction(code, **{"action": str(action), **params})
                raise BotError(seat, player.name, "bot.illegal_action", action=str(action), **cause_params(cause))
        return action

    def step(self) -> Action | None:
        """Let the players move once: the action applied, or None (see :meth:`propose`)."""
        action = self.propose()
        if action is not None:
            self.push(action)
        return action

    def waiting_for(self) -> int | None:
        """The external seat the sequence waits for (its turn, or its asked chance), or None."""
        decision = self.decision()
        if decision is None:
            return None
        seat = decision[0]
        return seat if self.players[seat] is None or not self.playing[seat] else None

    def external_chances(self) -> list[int]:
        """The external seats (no player, or one standing by) other than the one on turn
        that have an out-of-turn action open now: whom a live table's bots wait for."""
        game = self.game
        if not game.out_of_turn_possible():
            return []
        playing = self.playing
        return [seat for seat in game.out_of_turn_seats() if not playing[seat]]

    # ------------------------------------------------------------------ changes

    def act(self, action: Action, *, ply: int | None = None, reshuffle: Sequence[Card] | None = None) -> list[Event]:
        """Apply an action from any seat, checked: an illegal one raises
        :class:`~unomas.errors.IllegalAction` (one answering another ``ply`` than the game's,
        :class:`~unomas.errors.StaleAction`) and changes nothing."""
        game = self.game
        if ply is not None and ply != game.ply:
            raise StaleAction(ply, game.ply)
        return self._after(action, game.apply(action, reshuffle=reshuffle))

    def push(self, action: Action) -> list[Event]:
        """Apply an action taken from :meth:`legal_actions` (or :meth:`propose`), unchecked."""
        return self._after(action, self.game.push(action))

    def deal(self, deal: Deal | None = None) -> list[Event]:
        """Deal the next round (the last one is over), as ``deal`` dictates if given."""
        game = self.game
        if not game.round_over or game.is_over:
            raise IllegalAction("round.not_over")
        caused = game.start_round(deal)
        self._at = -1  # a new position at the same ply
        self._round_actions = 0
        if game.log is not None:
            self.starts.append(list(caused))
        self.events = caused
        self._tell(None, caused)
        return caused

    def time_out(self) -> list[Action]:
        """The seat on turn ran out of time: it draws (and passes, if it then may); choosing
        a starting colour, its player chooses (or the first colour). The actions applied."""
        game = self.game
        taken: list[Action] = []
        if game.round_over:
            return taken
        seat = game.current
        if game.phase is Phase.COLOR:
            player = self.players[seat]
            choice = None if player is None else player.decide(self, seat, False)
            colors = [a for a in game.legal_actions(seat) if a.kind is Kind.COLOR]
            action = choice if choice in colors and choice is not None else colors[0]
            self.push(action)
            return [action]
        for kind in (Kind.DRAW, Kind.PASS):
            for action in game.legal_actions(seat):
                if action.kind is kind and action.player == seat:
                    self.push(action)
                    taken.append(action)
                    break
        if not taken and game.phase is Phase.RUN:  # a run of 7s naming no one: a 7 naming someone ends it
            action = next(a for a in game.legal_actions(seat) if a.kind is Kind.PLAY and a.target is not None)
            self.push(action)
            taken.append(action)
        return taken

    def stand_in(self, seat: int, playing: bool) -> None:
        """Let the seat's player decide for it (``playing``) or stand by, listening."""
        if self.players[seat] is None:
            raise IllegalAction("seat.no_player", seat=seat)
        self.playing[seat] = playing

    def _after(self, action: Action, caused: list[Event]) -> list[Event]:
        self._round_actions += 1
        self.events = caused
        if self.witnesses or self._hearing or self.listeners or self.game.round_over:
            self._tell(action, caused)  # (self-play mid-round: nobody to tell, nothing to note)
        return caused

    def _tell(self, action: Action | None, caused: list[Event]) -> None:
        """Tell every player and listener the change, as its seat may see it."""
        if self.game.round_over:  # only a change that ends a round tells its result
            for event in caused:
                if type(event) is RoundEnded:
                    self.round_winners.append(event.winner)
                    self.round_points.append(event.points)
        for witness in self.witnesses:
            witness(action, caused)
        seen_hands = self.game.rules.seen_hands
        for seat, player in self._hearing:
            sees = seen_hands(seat)
            player.observe([redact(event, seat, sees) for event in caused])
        if self.listeners:
            made: dict[int | None, list[Event]] = {}
            for whom, listener in list(self.listeners):
                seen = made.get(whom)
                if seen is None:
                    sees = seen_hands(whom)
                    seen = made[whom] = [redact(event, whom, sees) for event in caused]
                listener(action, seen)

    # ------------------------------------------------------------------ whole matches

    def play(self) -> MatchSummary:
        """Play the match to its end, every seat decided by its player; closes the players.

        With nobody to tell (no witness, listener or listening player) and no history kept,
        the game plays quiet meanwhile (:attr:`~unomas.game.Game.reporting`): events nobody
        reads are not built. The match and its summary are the same."""
        game = self.game
        abandoned = False
        limit = MAX_ACTIONS_PER_ROUND
        reporting = game.reporting
        if not (self.witnesses or self._hearing or self.listeners) and game.log is None:
            game.reporting = False
        try:
            while True:
                action = self.propose()  # None once the round is over
                if action is not None:
                    if self._round_actions >= limit:
                        abandoned = True
                        break
                    self.push(action)
                elif not game.round_over:
                    raise IllegalAction("seat.no_player", seat=self.waiting_for())
                elif game.is_over:
                    break
                else:
                    self.deal()
        finally:
            game.reporting = reporting
            self.close()
        return self.summary(abandoned)

    def summary(self, abandoned: bool = False) -> MatchSummary:
        """The match so far."""
        game = self.game
        decisions: list[int] = []
        thinking: list[float] = []
        for player in self.players:
            stats = None if player is None else player.stats
            decisions.append(0 if stats is None else stats.decisions)
            thinking.append(0.0 if stats is None else stats.thinking)
        return MatchSummary(
            winner=None if abandoned else game.winner,
            scores=list(game.scores),
            rounds=game.round + 1,
            actions=game.ply,
            round_winners=list(self.round_winners),
            round_points=list(self.round_points),
            decisions=decisions,
            thinking=thinking,
            abandoned=abandoned,
        )

    def close(self) -> None:
        """Release every player."""
        for player in self.players:
            if player is not None:
                player.close()
