"""The record reader refuses what RECORD.md does not allow: each field's type and placement."""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Callable
from typing import Any

import pytest

from codes import raises_code
from unomas import record
from unomas.bots import RandomBot
from unomas.bots.player import bot_match
from unomas.error_codes import ERRORS
from unomas.errors import RecordError
from unomas.i18n import error_text
from unomas.rules import Rules

Record = dict[str, Any]


@functools.cache
def _finished() -> Record:
    """A finished match under every house rule, with a return, a reshuffle, a 7's target and a catch."""
    for seed in range(200):
        table = bot_match(Rules.preset("all", players=3, target_score=0), [RandomBot() for _ in range(3)], seed=seed)
        table.play()
        data = record.to_json(table.game, names=["Ana", "Beto", "Carla"])
        events = data["rounds"][0]["events"]
        kinds = {e.get("chance") or e["a"] for e in events}
        if {"reshuffle", "catch", "draw", "play"} <= kinds and any(
            "target" in e for e in events if e.get("a") == "play"
        ):
            return data
    raise AssertionError("no seed gave every kind of event")


def finished() -> Record:
    return copy.deepcopy(_finished())


def first(data: Record, kind: str) -> dict[str, Any]:
    return next(e for e in data["rounds"][0]["events"] if (e.get("chance") or e.get("a")) == kind)


def seven(data: Record) -> dict[str, Any]:
    return next(e for e in data["rounds"][0]["events"] if e.get("a") == "play" and "target" in e)


def wild_free_play(data: Record) -> dict[str, Any]:
    """A play of a card that takes no colour and no target."""
    return next(e for e in data["rounds"][0]["events"] if e.get("a") == "play" and not {"color", "target"} & set(e))


def seat_one_draws(data: Record) -> dict[str, Any]:
    return next(e for e in data["rounds"][0]["events"] if e.get("a") == "draw" and e["p"] == 1)


def breaks(change: Callable[[Record], object]) -> Record:
    data = finished()
    change(data)
    return data


def test_the_match_replays_as_written() -> None:
    assert record.replay(finished()).is_over


BROKEN: dict[str, Callable[[Record], object]] = {
    # types: seats, points, scores and dealer are JSON integers, not booleans nor 12.0
    "score a boolean": lambda d: d["scores"].__setitem__(d["scores"].index(0), False),
    "score a float": lambda d: d["scores"].__setitem__(0, float(d["scores"][0])),
    "scores null": lambda d: d.__setitem__("scores", None),
    "winner a boolean": lambda d: d.__setitem__("winner", d["winner"] == 1),
    "winner a float": lambda d: d.__setitem__("winner", float(d["winner"])),
    "winner missing": lambda d: d.pop("winner"),
    "result winner a float": lambda d: d["rounds"][0]["result"].__setitem__(
        "winner", float(d["rounds"][0]["result"]["winner"])
    ),
    "result points a float": lambda d: d["rounds"][0]["result"].__setitem__(
        "points", float(d["rounds"][0]["result"]["points"])
    ),
    "result winner a boolean": lambda d: d["rounds"][0]["result"].__setitem__(
        "winner", d["rounds"][0]["result"]["winner"] == 1
    ),
    "result missing": lambda d: d["rounds"][0].pop("result"),
    "dealer a boolean": lambda d: d["rounds"][0].__setitem__("dealer", False),
    "dealer a float": lambda d: d["rounds"][0].__setitem__("dealer", 0.0),
    "p a boolean": lambda d: seat_one_draws(d).__setitem__("p", True),
    "target a float": lambda d: seven(d).__setitem__("target", float(seven(d)["target"])),
    "catch target a boolean": lambda d: first(d, "catch").__setitem__("target", True),
    "uno a number": lambda d: wild_free_play(d).__setitem__("uno", 0),
    "names null": lambda d: d.__setitem__("names", None),
    "names not strings": lambda d: d.__setitem__("names", [1, 2, 3]),
    "a setting a number for a switch": lambda d: d["rules"].__setitem__("jump_in", 1),
    "an unknown setting": lambda d: d["rules"].__setitem__("house", True),
    # explicit null is not absence
    "a play's target null": lambda d: wild_free_play(d).__setitem__("target", None),
    "a play's color null": lambda d: wild_free_play(d).__setitem__("color", None),
    "a draw's cards null": lambda d: first(d, "draw").__setitem__("cards", None),
    "a play's uno null": lambda d: wild_free_play(d).__setitem__("uno", None),
    "result null on a finished round": lambda d: d["rounds"][0].__setitem__("result", None),
    # defined fields where they do not belong
    "cards on a play": lambda d: wild_free_play(d).__setitem__("cards", []),
    "a move's field on a reshuffle": lambda d: first(d, "reshuffle").__setitem__("p", 0),
    "a move's null field on a reshuffle": lambda d: first(d, "reshuffle").__setitem__("card", None),
    "pile on a move": lambda d: first(d, "draw").__setitem__("pile", []),
    "chance on a move": lambda d: first(d, "draw").__setitem__("chance", "reshuffle"),
    "result inside a move": lambda d: first(d, "draw").__setitem__("result", {}),
    "rounds inside a round": lambda d: d["rounds"][0].__setitem__("rounds", []),
    "points at the top": lambda d: d.__setitem__("points", 0),
    "cards inside a result": lambda d: d["rounds"][0]["result"].__setitem__("cards", []),
    "a round's field inside a result": lambda d: d["rounds"][0]["result"].__setitem__("dealer", 0),
}


@pytest.mark.parametrize("name", BROKEN)
def test_a_record_breaking_the_format_is_refused(name: str) -> None:
    with pytest.raises(RecordError) as caught:
        record.replay(breaks(BROKEN[name]))
    error = caught.value
    assert error.code.startswith("record.") and ERRORS[error.code].kind == "RecordError"
    assert error_text(error.code, error.params, "en") == str(error)
    spanish = error_text(error.code, error.params, "es")
    assert spanish != str(error) and not re.search(r"\{\w+\}", spanish), spanish


def test_a_return_event_holds_only_its_pile() -> None:
    data = finished()
    dealt = data["rounds"][0]
    dealt["events"].insert(0, {"chance": "return", "pile": dealt["pile"], "target": None})
    with raises_code(RecordError, "record.misplaced_field"):
        record.replay(data)


def test_fields_the_format_does_not_define_are_still_ignored() -> None:
    data = finished()
    data["when"] = "today"
    data["rounds"][0]["note"] = None
    first(data, "draw")["thinking"] = 0.2
    first(data, "reshuffle")["by"] = "server"
    data["rounds"][0]["result"]["margin"] = 3
    assert record.replay(data).is_over


def test_a_reshuffle_the_record_leaves_out_is_named_in_either_language() -> None:
    data = finished()
    events = data["rounds"][0]["events"]
    at = events.index(first(data, "reshuffle"))
    del events[at]
    with pytest.raises(RecordError) as caught:
        record.replay(data)
    error = caught.value
    assert (error.round, error.event, error.code) == (0, at, "record.unrecorded_reshuffle")
    assert str(error).endswith("reshuffle: a reshuffle happened but the record has none before this move")
    assert error_text(error.code, error.params, "es") == (
        f"ronda 0, evento {at}: rebarajado: hubo un rebarajado, pero el registro no tiene ninguno antes de esta jugada"
    )
