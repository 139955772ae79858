"""Game records in the format ``unomas-record/1`` (RECORD.md): write, read, replay, check.

A record is a JSON object holding a whole match, or the part played so far: the settings,
every deal and shuffle, every action. :func:`to_json` writes one from a game's history at
any moment; :func:`replay` plays one back through the engine and checks every event,
raising :class:`~unomas.errors.RecordError` that names the round, the event index (both
counted from 0) and the reason at the first problem.

>>> from unomas.game import Game
>>> from unomas.rules import Rules
>>> game = Game(Rules(players=2, target_score=0), seed=7)
>>> record = to_json(game)
>>> replay(record).scores == game.scores
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from unomas.actions import Action, Kind
from unomas.cards import Card, card_token, parse_card
from unomas.errors import DealError, IllegalAction, NotationError, RecordError, SettingsError
from unomas.events import Drew, Event, Reshuffled
from unomas.game import Deal, Game, RoundLog
from unomas.refusals import json_type
from unomas.rules import Rules

FORMAT = "unomas-record/1"

__all__ = ["FORMAT", "dumps", "iter_file", "move_entries", "read_file", "replay", "round_json", "to_json"]


def _tokens(cards: Iterable[Card]) -> list[str]:
    return [card_token(c) for c in cards]


def move_entries(action: Action, events: Sequence[Event]) -> list[dict[str, Any]]:
    """The record entries of one action: a reshuffle chance event if one happened, then
    the move (a draw lists the cards drawn)."""
    entries: list[dict[str, Any]] = []
    for event in events:
        if isinstance(event, Reshuffled):
            assert event.pile is not None
            entries.append({"chance": "reshuffle", "pile": _tokens(event.pile)})
    move = action.to_json()
    if action.kind is Kind.DRAW:
        drew = next(e for e in events if isinstance(e, Drew) and e.player == action.player)
        assert drew.cards is not None
        move["cards"] = _tokens(drew.cards)
    entries.append(move)
    return entries


def round_json(log: RoundLog) -> dict[str, Any]:
    """One round of a record: dealer, deal, chance events and moves, result if over."""
    events: list[dict[str, Any]] = [{"chance": "return", "pile": _tokens(order)} for order in log.deal.returns]
    for action, happened in log.moves:
        events.extend(move_entries(action, happened))
    entry: dict[str, Any] = {
        "dealer": log.dealer,
        "hands": [_tokens(hand) for hand in log.deal.hands],
        "pile": _tokens(log.deal.pile),
        "events": events,
    }
    result = log.result
    if result is not None:
        entry["result"] = {"winner": result.winner, "points": result.points}
    return entry


def to_json(game: Game, *, names: Sequence[str] | None = None, **extra: Any) -> dict[str, Any]:
    """The record of ``game`` so far; ``extra`` fields are added at the top level."""
    if game.log is None:
        raise ValueError("this game keeps no history (created with history=False), so it has no record")
    if names is not None and len(names) != game.players:
        raise ValueError(f"{len(names)} names for {game.players} seats")
    record: dict[str, Any] = {"format": FORMAT, "rules": game.rules.to_dict()}
    if names is not None:
        record["names"] = list(names)
    record["rounds"] = [round_json(log) for log in game.log]
    record["scores"] = list(game.scores)
    record["winner"] = game.winner
    record.update(extra)
    return record


def dumps(record: Mapping[str, Any]) -> str:
    """A record as one compact line of JSON (for JSON Lines files)."""
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False)


def iter_file(path: str | Path) -> Iterator[Any]:
    """The records of a file: one JSON record, or JSON Lines of records.

    Yields each parsed record, or a :class:`RecordError` in its place for a line that is
    not JSON, so one bad line does not hide the others.
    """
    text = Path(path).read_text(encoding="utf-8")
    try:
        yield json.loads(text)
        return
    except json.JSONDecodeError as error:
        whole = error
    lines = text.splitlines()
    try:
        json.loads(next((line for line in lines if line.strip()), ""))
    except json.JSONDecodeError:  # not JSON Lines: one record, broken where the parser stopped
        yield RecordError("record.not_json", line=whole.lineno, column=whole.colno, record=0)
        return
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            yield json.loads(line)
        except json.JSONDecodeError as error:
            yield RecordError("record.not_json", line=number, column=error.colno, record=number - 1)


def read_file(path: str | Path) -> list[Any]:
    """Every record of a file (JSON or JSON Lines); raises at the first unreadable line."""
    records = []
    for item in iter_file(path):
        if isinstance(item, RecordError):
            raise item
        records.append(item)
    return records


def replay(record: Any) -> Game:
    """Replay ``record`` through the engine, checking everything; return the game.

    Raises :class:`RecordError` naming the round and event (counted from 0) and the
    reason of the first problem: a malformed field, an illegal move, a chance event that
    does not fit, a draw's listed cards, a result or score that the replay contradicts.
    """
    if not isinstance(record, dict):
        raise RecordError("record.not_an_object", type=json_type(record))
    _placed(record, _RECORD_FIELDS, "a record")
    if record.get("format") != FORMAT:
        raise RecordError("record.bad_format", expected=repr(FORMAT), value=repr(record.get("format")))
    try:
        rules = Rules.from_dict(record.get("rules"), complete=True)  # type: ignore[arg-type]
    except SettingsError as error:
        raise RecordError.caused_by("record.rules", error) from None
    names = record.get("names")
    if "names" in record and (
        not isinstance(names, list) or len(names) != rules.players or not all(isinstance(n, str) for n in names)
    ):
        raise RecordError("record.bad_names", players=rules.players, value=repr(names))
    rounds = record.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise RecordError("record.no_rounds")
    game: Game | None = None
    for index, entry in enumerate(rounds):
        try:
            game = _replay_round(rules, game, index, entry, last=index == len(rounds) - 1)
        except RecordError as error:
            raise error.located(round=index) from None
    assert game is not None
    scores = record.get("scores")
    if not isinstance(scores, list) or not all(_integer(score) for score in scores):
        raise RecordError("record.bad_scores", value=repr(scores))
    if scores != game.scores:
        raise RecordError("record.scores_differ", value=repr(scores), replayed=repr(game.scores))
    winner = game.winner
    given = record.get("winner")
    if "winner" not in record or not (given is None or _integer(given)) or given != winner:
        raise RecordError("record.winner_differs", value=repr(given), replayed=repr(winner))
    return game


def _replay_round(rules: Rules, game: Game | None, index: int, entry: Any, *, last: bool) -> Game:
    if not isinstance(entry, dict):
        raise RecordError("record.round_not_object")
    _placed(entry, _ROUND_FIELDS, "a round")
    if game is not None and game.is_over:
        raise RecordError("record.match_over")
    if not _integer(entry.get("dealer")) or entry["dealer"] != index % rules.players:
        raise RecordError("record.bad_dealer", expected=index % rules.players, value=repr(entry.get("dealer")))
    events = entry.get("events")
    if not isinstance(events, list):
        raise RecordError("record.events_not_list")
    returns = []
    for number, event in enumerate(events):
        if isinstance(event, dict) and event.get("chance") == "return":
            try:
                _placed(event, _CHANCE_FIELDS, "a return event")
                returns.append(_pile(event, "a return event"))
            except RecordError as error:
                raise error.located(event=number) from None
        else:
            break
    deal = Deal(_hands(entry.get("hands"), rules), _pile(entry, "the round"), tuple(returns))
    try:
        if game is None:
            game = Game(rules, rng=_NoShuffle(), deal=deal)
        else:
            game.start_round(deal)
    except DealError as error:
        raise RecordError.caused_by("record.deal", error, event=error.returns_index) from None
    reshuffle: tuple[Card, ...] | None = None
    reshuffle_at = -1
    for number in range(len(returns), len(events)):
        event = events[number]
        try:
            if reshuffle is None and isinstance(event, dict) and event.get("chance") == "reshuffle":
                reshuffle_at = number
            reshuffle = _replay_event(game, event, reshuffle)
        except _UnfitReshuffle as error:
            raise error.located(event=reshuffle_at) from None
        except RecordError as error:
            raise error.located(event=number) from None
    if reshuffle is not None:
        raise RecordError("record.reshuffle_last", event=reshuffle_at)
    result = entry.get("result")
    if game.round_over:
        ended = game.log[-1].result if game.log else None
        assert ended is not None
        expected = {"winner": ended.winner, "points": ended.points}
        if not isinstance(result, dict):
            raise RecordError("record.result_differs", value=repr(result), replayed=repr(expected))
        _placed(result, _RESULT_FIELDS, "a round's result")
        if not all(_integer(result.get(key)) for key in expected):
            raise RecordError("record.bad_result", value=repr(result))
        if {key: result[key] for key in expected} != expected:
            raise RecordError("record.result_differs", value=repr(result), replayed=repr(expected))
    else:
        if result is not None or "result" in entry:
            raise RecordError("record.result_unended", value=repr(result))
        if not last:
            raise RecordError("record.round_unended")
    return game


def _replay_event(game: Game, event: Any, reshuffle: tuple[Card, ...] | None) -> tuple[Card, ...] | None:
    """Replay one event; return the reshuffle order waiting for the next move, if any."""
    if not isinstance(event, dict):
        raise RecordError("record.event_not_object")
    if "chance" in event:
        chance = event["chance"]
        if chance == "return":
            raise RecordError("record.late_return")
        if chance != "reshuffle":
            raise RecordError("record.unknown_chance", chance=repr(chance))
        if reshuffle is not None:
            raise RecordError("record.two_reshuffles")
        _placed(event, _CHANCE_FIELDS, "a reshuffle event")
        return _pile(event, "a reshuffle event")
    if game.round_over:
        raise RecordError("record.round_over")
    _placed(event, _MOVE_FIELDS, "a move")
    empty = sorted(key for key in _MOVE_FIELDS if key in event and event[key] is None)
    if empty:
        raise RecordError("record.null_field", field=repr(empty[0]))
    try:
        action = Action.from_json(event)
    except NotationError as error:
        raise RecordError.caused_by("record.bad_move", error) from None
    try:
        happened = game.apply(action, reshuffle=reshuffle)
    except IllegalAction as error:
        raise RecordError.caused_by("record.illegal_move", error) from None
    except DealError as error:  # only a reshuffle given for this move is refused so
        raise _UnfitReshuffle.caused_by("record.unfit_reshuffle", error) from None
    if action.kind is Kind.DRAW and "cards" in event:
        drew = next(e for e in happened if isinstance(e, Drew) and e.player == action.player)
        listed = _cards(event["cards"], "record.draw_not_cards", "record.draw_bad_card")
        if listed != drew.cards:
            assert drew.cards is not None
            raise RecordError("record.draw_differs", listed=repr(_tokens(listed)), drawn=repr(_tokens(drew.cards)))
    return None


class _UnfitReshuffle(RecordError):
    """A reshuffle chance event that the move after it contradicts (reported at its index)."""


_RECORD_FIELDS = frozenset({"format", "rules", "names", "rounds", "scores", "winner"})
_ROUND_FIELDS = frozenset({"dealer", "hands", "pile", "events", "result"})
_RESULT_FIELDS = frozenset({"winner", "points"})
_MOVE_FIELDS = frozenset({"p", "a", "card", "color", "target", "uno", "cards"})
_CHANCE_FIELDS = frozenset({"chance", "pile"})
_DEFINED = _RECORD_FIELDS | _ROUND_FIELDS | _RESULT_FIELDS | _MOVE_FIELDS | _CHANCE_FIELDS
"""Every field RECORD.md defines: one where it does not belong is an error (even null);
a field it does not define is ignored wherever it stands (but inside ``rules``)."""


def _placed(entry: dict[str, Any], allowed: frozenset[str], what: str) -> None:
    misplaced = sorted((set(entry) & _DEFINED) - allowed)
    if misplaced:
        raise RecordError("record.misplaced_field", field=repr(misplaced[0]), what=what)


def _integer(value: Any) -> bool:
    """Whether ``value`` is a JSON integer (not a boolean, not ``12.0``)."""
    return type(value) is int


def _cards(value: Any, not_cards: str, bad_card: str, **params: Any) -> tuple[Card, ...]:
    """The cards of a list of tokens; refused with code ``not_cards`` (not a list) or
    ``bad_card`` (a token that is not a card), with ``params`` (which name the list)."""
    if not isinstance(value, list):
        raise RecordError(not_cards, **params)
    try:
        return tuple(parse_card(token) for token in value)
    except NotationError as error:
        raise RecordError.caused_by(bad_card, error, **params) from None


def _pile(entry: dict[str, Any], what: str) -> tuple[Card, ...]:
    return _cards(entry.get("pile"), "record.pile_not_cards", "record.pile_bad_card", what=what)


def _hands(value: Any, rules: Rules) -> tuple[tuple[Card, ...], ...]:
    if not isinstance(value, list) or len(value) != rules.players:
        raise RecordError("record.bad_hands", players=rules.players)
    return tuple(
        _cards(hand, "record.hand_not_cards", "record.hand_bad_card", seat=seat) for seat, hand in enumerate(value)
    )


class _NoShuffle:
    """The random source of a replay: every chance outcome must come from the record."""

    def random(self) -> float:
        raise RecordError("record.unrecorded_reshuffle")
