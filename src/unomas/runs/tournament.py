"""Tournaments: many matches between bots, seats rotated, with win rates and ratings.

Each bot is named by a spec (:func:`unomas.bots.make_bot`). The entrants are the specs in
the order given, one per seat. When the rules have more seats than there are specs, the
specs repeat in order to fill them (``a,b`` at four seats is ``a,b,a,b``), and every seat's
copy is an entrant of its own; a spec that appears more than once is told apart by a
number: ``heuristic#1``, ``heuristic#2``. Fewer seats than specs is an error.

Match ``k`` (counted from 0) seats the entrants rotated by ``k``: entrant ``i`` plays seat
``(i + k) % n``, so over ``n`` matches every entrant has every seat once. Its randomness
(the shuffles and every bot's random source) comes from the seed and ``k`` only, as
``Conductor.seeded(..., seed=f"{seed}/{k}")``, so the same seed gives the same matches whatever
the backend (this machine's processes or a Ray cluster, :mod:`unomas.runs.backends`), the number of
workers and the order in which they finish; without a seed, matches are unpredictable. (A
bot that thinks for a set time, ``ismcts:seconds=...``, still depends on the machine's speed.)
The figures are gathered in match order.

The figures of an entrant, over every match but those whose error names no bot:

``matches``, ``match_wins``, ``rounds``, ``round_wins``
    Matches and rounds played, and those won. An abandoned match (a round that found no
    end) counts as played and won by nobody; its finished rounds count. A forfeit (below)
    counts as played.
``match_win_rate``, ``round_win_rate`` and their ``*_interval``
    Wins over played, with the 95 % Wilson score interval (:func:`~unomas.runs.statistics.wilson`).
``points_per_round_won``
    Mean points of the rounds it won (``None`` before it wins one).
``points_per_round``
    Points it scored (the points of the rounds it won; only a round's winner scores) per
    round played.
``seconds_per_decision``
    Mean time of its answers to the table (turn actions and out-of-turn chances).
``rating``, ``mu``, ``sigma``
    An openskill Plackett-Luce rating: every finished match is rated once, in match order,
    each entrant a team of one, ranked by the final scores (the match winner first, equal
    scores sharing a rank; in a forfeit, the failing entrant last). ``rating`` is the
    conservative ordinal ``mu - 3 * sigma``, from the prior ``mu = 25``, ``sigma = 25/3``
    (so a new entrant's rating is 0). Abandoned matches are not rated.
``errors``
    The matches it forfeited.
``given_name``
    The name the bot gave itself (a program's ``ready``), if any.

A match in which a bot fails (:class:`~unomas.errors.BotError`: an illegal answer, a crash,
a program that does not start) is an error of that match, listed, charged to the failing
entrant's ``errors``, and a **forfeit**, so that failing never pays:

- the failing entrant loses the match; it is won by the opponent with the highest score
  at the stop, equal scores going to the earlier seat of the match;
- the rounds finished before the stop count as played; the round under way (if one was:
  a bot that fails as it starts forfeits the first round) counts as played by every
  entrant, lost by the failing one and won, for no points, by the match's winner;
- the match is rated, the failing entrant ranked last and the others by the rule above.

The tournament goes on. A match whose task kept failing (its worker process died again
and again), or that something other than a bot stopped, is an error whose ``seat`` and
``bot`` are None: charged to nobody and left out of the figures.

An interrupt (Ctrl-C) stops the matches under way and raises :class:`TournamentInterrupted`,
which carries the results of the matches finished so far: the first ``k`` matches, exactly
as a tournament of ``k`` matches would have them.

>>> from unomas.rules import Rules
>>> result = run_tournament(Rules(players=2, target_score=0), ["playfirst", "random"], games=4, seed=1)
>>> [bot.name for bot in result.bots]
['playfirst', 'random']
>>> sum(bot.match_wins for bot in result.bots)
4
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from contextlib import ExitStack, closing
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from unomas import record
from unomas.conductor import MatchSummary
from unomas.errors import SettingsError
from unomas.rules import Rules
from unomas.runs.backends import Backend, play
from unomas.runs.simulation import shuffle
from unomas.runs.statistics import Ratings, wilson

__all__ = [
    "BotStats",
    "MatchError",
    "TournamentInterrupted",
    "TournamentJob",
    "TournamentMatch",
    "TournamentResult",
    "entrant_names",
    "forfeit",
    "play_match",
    "run_tournament",
    "seat_specs",
    "seating",
]

Progress = Callable[[int, int], None]
"""Called with (matches done, matches in all) after every match."""


FORFEIT = "forfeit"
"""The record's top-level field of a match a bot forfeited: ``{"seat", "winner"}``, the
failing seat and the seat the forfeit gives the match to (as the table counts it); the
record's own ``winner`` stays the game's (null: the match stopped unfinished)."""


def seat_specs(specs: Sequence[str], players: int) -> list[str]:
    """The spec of each entrant: ``specs`` repeated in order to fill ``players`` seats."""
    if not specs:
        raise SettingsError("setup.no_bots")
    if players < len(specs):
        raise SettingsError("setup.too_few_seats", bots=len(specs), players=players)
    return [specs[i % len(specs)] for i in range(players)]


def entrant_names(specs: Sequence[str]) -> list[str]:
    """Names of the entrants: the spec, numbered ``#1``, ``#2``… when it appears more than once.

    >>> entrant_names(["heuristic", "random", "heuristic"])
    ['heuristic#1', 'random', 'heuristic#2']
    """
    counts = {spec: specs.count(spec) for spec in specs}
    seen: dict[str, int] = {}
    names = []
    for spec in specs:
        if counts[spec] == 1:
            names.append(spec)
        else:
            seen[spec] = seen.get(spec, 0) + 1
            names.append(f"{spec}#{seen[spec]}")
    return names


def seating(entrants: int, number: int) -> list[int]:
    """The entrant at each seat in match ``number``: entrant ``i`` plays seat ``(i + number) % n``.

    >>> seating(3, 1)
    [2, 0, 1]
    """
    return [(seat - number) % entrants for seat in range(entrants)]


@dataclass(frozen=True, slots=True)
class MatchError:
    """A match that a bot error stopped."""

    match: int
    seat: int | None
    """The failing seat, if known."""
    entrant: int | None
    """The failing entrant (index into the tournament's bots), if known."""
    bot: str | None
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"match": self.match, "seat": self.seat, "bot": self.bot, "reason": self.reason}


@dataclass(slots=True)
class TournamentMatch:
    """What one match of a tournament gave; seats are the match's own."""

    number: int
    seating: list[int]
    """The entrant at each seat."""
    summary: MatchSummary | None = None
    """How the match went (winner, scores, rounds, each seat's decisions); if an error
    stopped it, the match until then (no winner), None if it is not known."""
    error: MatchError | None = None
    given_names: list[str | None] = field(default_factory=list)
    """The name each seat's bot gave itself as it started (None: it gave none)."""
    record: dict[str, Any] | None = None
    """The match's record (when records were asked for), released once written."""


def play_match(
    rules: Rules,
    specs: Sequence[str],
    number: int,
    seed: int | str | None = None,
    history: bool = False,
) -> TournamentMatch:
    """Play match ``number`` of a tournament between the entrants ``specs`` (one per seat).

    A module-level function of picklable arguments, so worker processes started by spawn
    can run it.
    """
    # Imported here: the bots and the conductor are not needed to import this module.
    from unomas.bots import Bot, make_bot
    from unomas.bots.player import BotPlayer
    from unomas.conductor import Conductor
    from unomas.errors import BotError

    order = seating(len(specs), number)
    seat_names = [specs[entrant] for entrant in order]
    result = TournamentMatch(number, order)

    def failed(seat: int | None, reason: str) -> TournamentMatch:
        result.error = MatchError(
            match=number,
            seat=seat,
            entrant=None if seat is None else order[seat],
            bot=None if seat is None else seat_names[seat],
            reason=reason,
        )
        return result

    bots: list[Bot] = []
    try:
        for spec in seat_names:
            bots.append(make_bot(spec))
        players = [BotPlayer(bot) for bot in bots]
        defaults = [player.name for player in players]
        table = Conductor.seeded(
            rules,
            players,
            seed=None if seed is None else f"{seed}/{number}",
            history=history,
        )
    except Exception as error:
        for bot in bots:
            bot.close()
        if isinstance(error, BotError):  # a seat's bot failed as it started: it says why
            failed(error.seat, error.message)
        else:
            failed(len(bots) if len(bots) < len(seat_names) else None, f"could not start: {_describe(error)}")
        result.summary = _unstarted(len(seat_names))
        return result
    result.given_names = [
        None if player.name == default else player.name for player, default in zip(players, defaults, strict=True)
    ]
    dealt = shuffle(None if seed is None else f"{seed}/{number}")
    try:
        summary = table.play()
    except Exception as error:
        result.summary = table.summary()
        # A BotError names the seat; anything else a bot raised (in observe, say) does not.
        if isinstance(error, BotError):
            failed(error.seat, error.message)
            note = str(error)
            lost = {FORFEIT: {"seat": error.seat, "winner": forfeit(result.summary, error.seat).winner}}
        else:
            note = _describe(error)
            failed(None, note)
            lost = {}
        if history:
            result.record = record.to_json(table.game, names=seat_names, error=note, **lost, **dealt)
        return result
    result.summary = summary
    if history:
        result.record = record.to_json(table.game, names=seat_names, **dealt)
    return result


def _unstarted(seats: int) -> MatchSummary:
    """A match that stopped before its first action: one round dealt, none finished."""
    return MatchSummary(
        winner=None, scores=[0] * seats, rounds=1, actions=0, decisions=[0] * seats, thinking=[0.0] * seats
    )


def forfeit(summary: MatchSummary, seat: int) -> MatchSummary:
    """The match ``summary`` as a forfeit of ``seat`` (see the module's documentation).

    >>> stop = MatchSummary(winner=None, scores=[30, 50, 50], rounds=3, actions=90,
    ...                     round_winners=[1, 2], round_points=[50, 30])
    >>> won = forfeit(stop, 2)
    >>> won.winner, won.round_winners, won.round_points
    (1, [1, 2, 1], [50, 30, 0])
    """
    scores = summary.scores
    winner = max((other for other in range(len(scores)) if other != seat), key=lambda s: (scores[s], -s))
    unfinished = summary.rounds - len(summary.round_winners)
    return replace(
        summary,
        winner=winner,
        round_winners=[*summary.round_winners, *[winner] * unfinished],
        round_points=[*summary.round_points, *[0] * unfinished],
        abandoned=False,
    )


def _describe(error: Exception) -> str:
    return f"{type(error).__name__}: {error}"


@dataclass(frozen=True, slots=True)
class TournamentJob:
    """The matches of a tournament, for a backend: match ``number`` from the seed and ``number``."""

    rules: Rules
    specs: tuple[str, ...]
    """The entrants' specs."""
    seed: int | str | None
    history: bool

    def play(self, number: int) -> TournamentMatch:
        return play_match(self.rules, self.specs, number, self.seed, self.history)

    def failed(self, number: int, reason: str) -> TournamentMatch:
        error = MatchError(match=number, seat=None, entrant=None, bot=None, reason=reason)
        return TournamentMatch(number, seating(len(self.specs), number), error=error)


@dataclass(slots=True)
class BotStats:
    """The figures of one entrant (see the module's documentation)."""

    name: str
    spec: str
    matches: int = 0
    match_wins: int = 0
    rounds: int = 0
    round_wins: int = 0
    points: int = 0
    decisions: int = 0
    thinking: float = 0.0
    errors: int = 0
    given_name: str | None = None
    """The name the bot gave itself (the latest, if it changed)."""
    mu: float = 25.0
    sigma: float = 25.0 / 3.0

    @property
    def match_win_rate(self) -> float:
        return self.match_wins / self.matches if self.matches else 0.0

    @property
    def match_win_interval(self) -> tuple[float, float]:
        return wilson(self.match_wins, self.matches)

    @property
    def round_win_rate(self) -> float:
        return self.round_wins / self.rounds if self.rounds else 0.0

    @property
    def round_win_interval(self) -> tuple[float, float]:
        return wilson(self.round_wins, self.rounds)

    @property
    def points_per_round_won(self) -> float | None:
        return self.points / self.round_wins if self.round_wins else None

    @property
    def points_per_round(self) -> float | None:
        return self.points / self.rounds if self.rounds else None

    @property
    def seconds_per_decision(self) -> float | None:
        return self.thinking / self.decisions if self.decisions else None

    @property
    def rating(self) -> float:
        """The conservative ordinal ``mu - 3 * sigma``."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "spec": self.spec,
            "matches": self.matches,
            "match_wins": self.match_wins,
            "match_win_rate": self.match_win_rate,
            "match_win_interval": list(self.match_win_interval),
            "rounds": self.rounds,
            "round_wins": self.round_wins,
            "round_win_rate": self.round_win_rate,
            "round_win_interval": list(self.round_win_interval),
            "points": self.points,
            "points_per_round_won": self.points_per_round_won,
            "points_per_round": self.points_per_round,
            "decisions": self.decisions,
            "seconds_per_decision": self.seconds_per_decision,
            "errors": self.errors,
            "given_name": self.given_name,
            "rating": self.rating,
            "mu": self.mu,
            "sigma": self.sigma,
        }


@dataclass(slots=True)
class TournamentResult:
    """The whole of a tournament: settings, per-entrant figures, errors."""

    rules: Rules
    seed: int | str | None
    games: int
    specs: list[str]
    """The bot specs as given."""
    bots: list[BotStats]
    """One per entrant, in entrant order (the order of the first match's seats)."""
    matches: list[TournamentMatch] = field(default_factory=list)
    """Every match in order (records released)."""
    errors: list[MatchError] = field(default_factory=list)
    abandoned: int = 0
    interrupted: bool = False
    """Stopped before all ``games`` were played: the figures are those of ``matches``."""

    def to_json(self) -> dict[str, Any]:
        """The results file: settings, then per-entrant figures, then errors."""
        return {
            "settings": {
                "rules": self.rules.to_dict(),
                "seed": self.seed,
                "games": self.games,
                "bots": list(self.specs),
                "entrants": [bot.spec for bot in self.bots],
                "seating": "match k seats entrant i at seat (i + k) % n",
                "rating": "openskill PlackettLuce by final score rank; rating = mu - 3 * sigma",
                "interval": "95 % Wilson score interval",
            },
            "matches": len(self.matches),
            "finished": len(self.matches) - len(self.errors) - self.abandoned,
            "abandoned": self.abandoned,
            "interrupted": self.interrupted,
            "bots": [bot.to_json() for bot in self.bots],
            "errors": [error.to_json() for error in self.errors],
        }


def _tally(bots: list[BotStats], seats: list[int], summary: MatchSummary) -> None:
    """Add a finished (or abandoned) match to the entrants' figures; ``seats``: the entrant at each seat."""
    for seat, entrant in enumerate(seats):
        bot = bots[entrant]
        bot.matches += 1
        bot.match_wins += summary.winner == seat
        bot.rounds += len(summary.round_winners)
        for winner, points in zip(summary.round_winners, summary.round_points, strict=True):
            if winner == seat:
                bot.round_wins += 1
                bot.points += points
        bot.decisions += summary.decisions[seat]
        bot.thinking += summary.thinking[seat]


def _check_specs(specs: Sequence[str]) -> None:
    """Make (and close) one bot of each spec, so a bad spec fails before any match."""
    from unomas.bots import make_bot

    for spec in dict.fromkeys(specs):
        make_bot(spec).close()


class TournamentInterrupted(KeyboardInterrupt):
    """A tournament stopped by an interrupt; ``result`` has the matches finished before it."""

    def __init__(self, result: TournamentResult) -> None:
        super().__init__(f"interrupted after {len(result.matches)} of {result.games} matches")
        self.result = result


def run_tournament(
    rules: Rules,
    specs: Sequence[str],
    games: int,
    *,
    seed: int | str | None = None,
    jobs: int | None = None,
    backend: str = "local",
    address: str | None = None,
    batch: int | None = None,
    records: str | os.PathLike[str] | None = None,
    progress: Progress | None = None,
) -> TournamentResult:
    """Play ``games`` matches between the bots ``specs`` (see the module's documentation).

    The ``backend`` plays them (see :class:`~unomas.runs.backends.Backend`): ``local``, ``jobs``
    processes of this machine (by default 1: this process); ``ray``, Ray tasks of ``batch``
    matches on a local Ray instance of ``jobs`` CPUs or on the cluster at ``address``.
    ``records`` names a file to write every match's record to, as JSON Lines in match order
    (the record's ``names`` are the specs by seat; a match stopped by an error has its record
    so far, with an ``error`` field, and a ``forfeit`` field if a bot failed; a seeded run's
    records carry their ``shuffle``, seed revealed, for ``unomas replay --verify``). Bad specs or settings raise
    :class:`~unomas.errors.SettingsError` before any match is played; an interrupt raises
    :class:`TournamentInterrupted` with the results so far.
    """
    if games < 1:
        raise SettingsError("setup.at_least_one", name="games", value=games)
    where = Backend(backend, jobs, address, batch)
    entrants = seat_specs(list(specs), rules.players)
    _check_specs(entrants)
    names = entrant_names(entrants)
    result = TournamentResult(
        rules=rules,
        seed=seed,
        games=games,
        specs=list(specs),
        bots=[BotStats(name, spec) for name, spec in zip(names, entrants, strict=True)],
    )
    ratings = Ratings(len(entrants))
    try:
        _gather(result, ratings, where, records, progress)
    except KeyboardInterrupt:
        result.interrupted = True
        raise TournamentInterrupted(result) from None
    finally:
        for bot, rating in zip(result.bots, ratings.ratings, strict=True):
            bot.mu, bot.sigma = rating.mu, rating.sigma
    return result


def _gather(
    result: TournamentResult,
    ratings: Ratings,
    backend: Backend,
    records: str | os.PathLike[str] | None,
    progress: Progress | None,
) -> None:
    """Play the matches on ``backend`` and add each, in match order, to ``result``."""
    games = result.games
    entrants = tuple(bot.spec for bot in result.bots)
    with ExitStack() as stack:
        sink = stack.enter_context(Path(records).open("w", encoding="utf-8")) if records is not None else None
        job = TournamentJob(result.rules, entrants, result.seed, sink is not None)
        played = stack.enter_context(closing(play(job, games, backend)))
        for done, match in enumerate(played, start=1):
            if sink is not None and match.record is not None:
                sink.write(record.dumps(match.record) + "\n")
            match.record = None
            result.matches.append(match)
            for entrant, given in zip(match.seating, match.given_names, strict=False):
                if given is not None:
                    result.bots[entrant].given_name = given
            if match.error is not None:
                result.errors.append(match.error)
                seat = match.error.seat
                if seat is not None and match.summary is not None:
                    result.bots[match.seating[seat]].errors += 1
                    lost = forfeit(match.summary, seat)
                    _tally(result.bots, match.seating, lost)
                    ratings.rate(match.seating, lost, last=seat)
            elif match.summary is not None:
                _tally(result.bots, match.seating, match.summary)
                if match.summary.abandoned:
                    result.abandoned += 1
                else:
                    ratings.rate(match.seating, match.summary)
            if progress is not None:
                progress(done, games)
