"""Verifiable shuffles: a secret seed fixed before play, committed to, revealed at the end.

A game played for others (the server's) draws every shuffle — deals, a starting W+4's
return, reshuffles — from one ``random.Random`` seeded with a secret of 32 random bytes.
Before play, everyone is shown the commitment: the SHA-256 of the seed. At the end the
record carries both under the top-level field ``shuffle`` (RECORD.md allows fields of
its own outside ``rules``)::

    "shuffle": {"commitment": "<64 hex digits>", "seed": "<64 hex digits>"}

:func:`verify` checks such a record: it is valid, the seed hashes to the commitment, and
the seed re-deals every deal and reshuffle of the record exactly, so the cards were
fixed before the first move and no one could arrange them during play.

>>> from unomas.game import Game
>>> from unomas.record import to_json
>>> from unomas.rules import Rules
>>> seed = new_seed()
>>> game = Game(Rules(players=2, target_score=0), seed=seed)
>>> record = to_json(game, shuffle=reveal(seed))
>>> verify(record).round
0
"""

from __future__ import annotations

import contextlib
import hashlib
import secrets
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from unomas.actions import Action
from unomas.errors import DealError, IllegalAction, NotationError, RecordError
from unomas.events import Event
from unomas.game import Game
from unomas.record import move_entries, replay, round_json
from unomas.rules import Rules

FIELD = "shuffle"
"""The record's top-level field holding the commitment and, at the end, the seed."""

SEED_BYTES = 32

__all__ = [
    "FIELD",
    "commit",
    "commitment_of",
    "new_seed",
    "replay_from",
    "replay_seeded",
    "reveal",
    "table_secret",
    "verify",
]


def new_seed() -> bytes:
    """A fresh secret seed from the operating system's unpredictable source."""
    return secrets.token_bytes(SEED_BYTES)


def table_secret(seed: int | str | None = None) -> bytes:
    """A live table's secret: a fresh one, or for a seeded table (reproducible play, tests)
    the SHA-256 of ``unomas/{seed}``, so every kind of table dealt from one seed plays one match."""
    return new_seed() if seed is None else hashlib.sha256(f"unomas/{seed}".encode()).digest()


def commitment_of(seed: bytes) -> str:
    """The commitment to ``seed``: its SHA-256, in hex."""
    return hashlib.sha256(seed).hexdigest()


def commit(seed: bytes) -> dict[str, str]:
    """The ``shuffle`` field shown while the game goes on: the commitment alone."""
    return {"commitment": commitment_of(seed)}


def reveal(seed: bytes) -> dict[str, str]:
    """The ``shuffle`` field of a finished game's record: the commitment and the seed."""
    return {"commitment": commitment_of(seed), "seed": seed.hex()}


def verify(record: Any) -> Game:
    """Check that ``record`` is valid and that its revealed seed dealt it; return the game.

    Raises :class:`RecordError` naming the first problem: an invalid record, a missing or
    malformed ``shuffle`` field (``record.seed_not_revealed`` for a match not over, whose
    seed is still secret), a seed that does not hash to the commitment, or a deal or
    reshuffle (round and event counted from 0) that the seed does not produce.
    """
    replay(record)
    field = record.get(FIELD)
    if not isinstance(field, dict):
        raise RecordError("record.no_shuffle", field=repr(FIELD))
    commitment, seed_hex = field.get("commitment"), field.get("seed")
    if isinstance(commitment, str) and "seed" not in field and record.get("winner") is None:
        raise RecordError("record.seed_not_revealed")
    if not isinstance(commitment, str) or not isinstance(seed_hex, str):
        raise RecordError("record.bad_shuffle", field=repr(FIELD))
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        raise RecordError("record.seed_not_hex", seed=repr(seed_hex)) from None
    if commitment_of(seed) != commitment.lower():
        raise RecordError("record.seed_mismatch")
    return replay_seeded(record, seed)


def replay_seeded(
    record: Mapping[str, Any],
    seed: bytes,
    *,
    on_events: Callable[[Action | None, list[Event]], None] | None = None,
) -> Game:
    """Play ``record``'s moves again on a game whose every shuffle comes from ``seed``.

    Every deal, return and reshuffle the seed produces must be the record's; the game
    returned is in the same state as the one that made the record, random source included,
    so it goes on exactly as it would have (this is how a server resumes a game).
    ``on_events`` gets the events of each deal (action None) and each move, as they happen.
    """
    with _as_record_error():
        rules = Rules.from_dict(record["rules"], complete=True)
        rounds = record["rounds"]
        game = Game(rules, seed=seed)
        _replay_rounds(game, rounds, on_events, dealt=True)
    return game


def replay_from(
    game: Game,
    rounds: Sequence[Mapping[str, Any]],
    *,
    on_events: Callable[[Action | None, list[Event]], None] | None = None,
) -> Game:
    """Deal and play a record's ``rounds`` again on ``game``, a match between two rounds
    whose random source is the one that dealt them (a game made from a snapshot: its
    :class:`~unomas.position.Position` and the seeded source's state), with a history.

    Checked as :func:`replay_seeded` checks (rounds counted from ``rounds[0]``): this is how
    a server resumes a long match from its last round's snapshot instead of its first move.
    """
    with _as_record_error():
        _replay_rounds(game, rounds, on_events, dealt=False)
    return game


@contextlib.contextmanager
def _as_record_error() -> Iterator[None]:
    """A record that does not replay raises :class:`RecordError`, whatever the cause."""
    try:
        yield
    except RecordError:
        raise
    except (KeyError, TypeError, AttributeError, IndexError) as error:
        raise RecordError("record.malformed", kind=type(error).__name__, detail=str(error)) from None
    except (DealError, IllegalAction, NotationError) as error:
        raise RecordError.caused_by("record.does_not_replay", error) from None


def _replay_rounds(
    game: Game,
    rounds: Sequence[Mapping[str, Any]],
    on_events: Callable[[Action | None, list[Event]], None] | None,
    *,
    dealt: bool,
) -> None:
    """Each round's deal (the first already made if ``dealt``) and moves, checked."""
    for index, entry in enumerate(rounds):
        events = game.round_start_events if index == 0 and dealt else game.start_round()
        if on_events is not None:
            on_events(None, events)
        _replay_round(game, index, entry, on_events)


def _replay_round(
    game: Game, index: int, entry: Mapping[str, Any], on_events: Callable[[Action | None, list[Event]], None] | None
) -> None:
    assert game.log is not None
    dealt = round_json(game.log[-1])
    if dealt["hands"] != entry["hands"] or dealt["pile"] != entry["pile"]:
        raise RecordError("record.seed_deal", round=index)
    for number, (chance, pile) in enumerate(_chances(dealt["events"])):
        if _chance_at(entry["events"], number) != (chance, pile):
            raise RecordError("record.seed_return", round=index, event=number)
    for number, event in enumerate(entry["events"]):
        if "chance" in event:
            continue
        action = Action.from_json(event)
        caused = game.apply(action)
        if on_events is not None:
            on_events(action, caused)
        shuffled = [e["pile"] for e in move_entries(action, caused) if "chance" in e]
        recorded = _chance_at(entry["events"], number - 1)
        expected = [recorded[1]] if recorded is not None and recorded[0] == "reshuffle" else []
        if shuffled != expected:
            where = number - 1 if expected else number
            raise RecordError("record.seed_reshuffle", round=index, event=where)


def _chances(events: list[dict[str, Any]]) -> list[tuple[str, list[str]]]:
    return [(e["chance"], e["pile"]) for e in events if "chance" in e]


def _chance_at(events: list[Any], number: int) -> tuple[str, list[str]] | None:
    """The chance event at index ``number`` of a round's events, if there is one there."""
    if 0 <= number < len(events) and isinstance(events[number], dict) and "chance" in events[number]:
        event = events[number]
        return event["chance"], event["pile"]
    return None
