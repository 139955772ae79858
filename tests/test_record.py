"""Game records (RECORD.md): the examples, writing and reading JSON Lines, malformed records."""

from __future__ import annotations

import copy
import functools
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest

from codes import raises_code
from unomas import fairness, record
from unomas.errors import RecordError
from unomas.game import Game
from unomas.rules import Rules
from unomas.runs.selfplay import selfplay
from unomas.runs.simulation import run_simulation

EXAMPLES = Path(__file__).resolve().parent / "examples"
"""The sample records of RECORD.md, kept beside the tests."""
EXAMPLE_NAMES = (
    "legal-basic-round-01.json",
    "legal-challenge-guilty-01.json",
    "legal-draw-until-playable-reshuffle-01.json",
    "legal-seven-swap-01.json",
)

Record = dict[str, Any]


def example(name: str) -> Record:
    path = EXAMPLES / name
    loaded: Record = json.loads(path.read_text(encoding="utf-8"))
    return loaded


@functools.cache
def _multi_round_text() -> str:
    """A finished match of several rounds, some with reshuffles, as simulated with a seed."""
    rules = Rules(players=4, hand_size=20, target_score=200)
    for seed in range(100):
        table = selfplay(rules, "playfirst", seed=seed, history=True)
        if table.play().abandoned:
            continue
        written = record.to_json(table.game)
        reshuffles = sum(e.get("chance") == "reshuffle" for r in written["rounds"] for e in r["events"])
        if len(written["rounds"]) >= 3 and reshuffles >= 2:
            return record.dumps(written)
    raise AssertionError("no seed gave a long enough match")  # pragma: no cover


def multi_round() -> Record:
    loaded: Record = json.loads(_multi_round_text())
    return loaded


def replay_error(broken: Any) -> RecordError:
    with pytest.raises(RecordError) as caught:
        record.replay(broken)
    return caught.value


# ---------------------------------------------------------------- the examples


def test_the_four_examples_are_there() -> None:
    assert sorted(p.name for p in EXAMPLES.glob("*.json")) == sorted(EXAMPLE_NAMES)


PUBLISHED = Path(__file__).resolve().parents[2] / "shared" / "examples"
"""Where the rules and their examples are published, when they sit beside the repository."""


@pytest.mark.skipif(not PUBLISHED.is_dir(), reason="the published examples are not beside the repository")
def test_the_kept_examples_are_the_published_ones() -> None:
    for name in EXAMPLE_NAMES:
        assert (EXAMPLES / name).read_bytes() == (PUBLISHED / name).read_bytes(), name


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_example_replays_with_its_scores(name: str) -> None:
    written = example(name)
    game = record.replay(copy.deepcopy(written))
    assert game.scores == written["scores"]
    assert game.winner == written["winner"]
    assert game.log is not None and len(game.log) == len(written["rounds"])
    for log, entry in zip(game.log, written["rounds"], strict=True):
        result = log.result
        if "result" in entry:
            assert result is not None
            assert {"winner": result.winner, "points": result.points} == entry["result"]
        else:
            assert result is None
    # Writing the replayed game gives the same record back.
    assert record.to_json(game) == written


def test_examples_show_their_rules() -> None:
    """Each example plays the rule it is named after."""
    guilty = record.replay(example("legal-challenge-guilty-01.json"))
    assert guilty.scores == [18, 0] and guilty.winner == 0
    reshuffle = record.replay(example("legal-draw-until-playable-reshuffle-01.json"))
    assert not reshuffle.round_over and reshuffle.winner is None
    seven = record.replay(example("legal-seven-swap-01.json"))
    assert seven.scores == [0, 8] and seven.winner == 1


def test_examples_read_as_json_lines(tmp_path: Path) -> None:
    written = [example(name) for name in EXAMPLE_NAMES]
    path = tmp_path / "examples.jsonl"
    path.write_text("".join(record.dumps(r) + "\n" for r in written), encoding="utf-8")
    assert record.read_file(path) == written
    assert [record.replay(r).scores for r in record.iter_file(path)] == [r["scores"] for r in written]


# ---------------------------------------------------------------- writing and reading


def simulated_records(games: int, rules: Rules, seed: str) -> list[Record]:
    written = [match.record for match in run_simulation(rules, games, seed=seed, history=True)]
    assert all(entry is not None for entry in written)
    return cast(list[Record], written)


@pytest.mark.parametrize(
    "rules",
    [
        Rules(players=3, target_score=100),
        Rules.preset("all", players=5, hand_size=4, target_score=60),
        Rules(players=10, hand_size=9, target_score=0, draw_until_playable=True),
        Rules.preset("all", players=2, hand_size=20, target_score=0),
    ],
    ids=["official", "all", "crowded", "two-big-hands"],
)
def test_simulated_records_round_trip_through_json_lines(tmp_path: Path, rules: Rules) -> None:
    written = simulated_records(6, rules, seed="round-trip")
    path = tmp_path / "records.jsonl"
    with path.open("w", encoding="utf-8") as sink:
        for entry in written:
            line = record.dumps(entry)
            assert "\n" not in line
            sink.write(line + "\n")
    assert record.read_file(path) == written
    read = list(record.iter_file(path))
    assert read == written
    for entry in read:
        game = record.replay(entry)
        assert game.scores == entry["scores"]
        assert game.winner == entry["winner"]
        assert record.to_json(game, **{fairness.FIELD: entry[fairness.FIELD]}) == entry  # a seeded run's seed


def test_partial_records_replay(tmp_path: Path) -> None:
    """A record written in the middle of a round is valid and replays to the same position."""
    rules = Rules.preset("all", players=4, hand_size=5, target_score=80)
    game = Game(rules, seed=11)
    rng = random.Random(11)
    for step in range(400):
        if game.round_over:
            if game.is_over:
                break
            game.start_round()
        else:
            game.apply(rng.choice(game.legal_actions(game.current)))
        if step % 37 == 0:
            written = json.loads(record.dumps(record.to_json(game, names=["a", "b", "c", "d"])))
            again = record.replay(written)
            assert again.hands == game.hands and again.pile == game.pile and again.discard == game.discard
            assert (again.current, again.phase, again.penalty) == (game.current, game.phase, game.penalty)


def test_single_json_file_and_blank_lines(tmp_path: Path) -> None:
    entry = multi_round()
    single = tmp_path / "one.json"
    single.write_text(json.dumps(entry, indent=2), encoding="utf-8")
    assert record.read_file(single) == [entry]
    spaced = tmp_path / "spaced.jsonl"
    spaced.write_text("\n" + record.dumps(entry) + "\n\n" + record.dumps(entry) + "\n", encoding="utf-8")
    assert record.read_file(spaced) == [entry, entry]


def test_unreadable_json_lines(tmp_path: Path) -> None:
    entry = example("legal-basic-round-01.json")
    path = tmp_path / "bad.jsonl"
    path.write_text(record.dumps(entry) + "\n{not json\n" + record.dumps(entry) + "\n", encoding="utf-8")
    items = list(record.iter_file(path))
    assert len(items) == 3
    assert items[0] == entry and items[2] == entry
    error = items[1]
    assert isinstance(error, RecordError)
    assert error.record == 1
    assert (error.code, error.params["line"]) == ("record.not_json", 2)
    with raises_code(RecordError, "record.not_json", line=2):
        record.read_file(path)


# ---------------------------------------------------------------- unknown fields are ignored


def _add_unknown_fields(entry: Record) -> None:
    entry["date"] = "2024-05-01"
    entry["commitment"] = {"sha256": "00"}
    entry["rounds"][0]["note"] = "first round"
    for event in entry["rounds"][0]["events"]:
        event["comment"] = "ok"


def test_unknown_fields_are_ignored() -> None:
    for name in EXAMPLE_NAMES:
        entry = example(name)
        _add_unknown_fields(entry)
        assert record.replay(entry).scores == entry["scores"]


def test_unknown_field_in_result_is_ignored() -> None:
    entry = example("legal-basic-round-01.json")
    entry["rounds"][0]["result"]["note"] = "seat 0 went out with R2"
    assert record.replay(entry).scores == [12, 0]


def test_optional_fields_may_be_left_out() -> None:
    entry = example("legal-basic-round-01.json")
    del entry["rounds"][0]["events"][2]["cards"]  # a draw's cards are optional
    entry["rounds"][0]["events"][3]["uno"] = False
    entry["names"] = ["Ana", "Beto"]
    assert record.replay(entry).scores == [12, 0]


# ---------------------------------------------------------------- malformed records

Edit = Callable[[Record], None]


def _set(path: tuple[Any, ...], value: Any) -> Edit:
    def edit(entry: Record) -> None:
        target: Any = entry
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return edit


def _delete(path: tuple[Any, ...]) -> Edit:
    def edit(entry: Record) -> None:
        target: Any = entry
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return edit


def _insert_event(round_index: int, index: int, event: Record) -> Edit:
    def edit(entry: Record) -> None:
        entry["rounds"][round_index]["events"].insert(index, event)

    return edit


def _duplicate_event(round_index: int, index: int) -> Edit:
    def edit(entry: Record) -> None:
        events = entry["rounds"][round_index]["events"]
        events.insert(index, copy.deepcopy(events[index]))

    return edit


def _append_round_copy(entry: Record) -> None:
    again = copy.deepcopy(entry["rounds"][0])
    again["dealer"] = 1
    entry["rounds"].append(again)


def _cut_round_short(entry: Record) -> None:
    first = entry["rounds"][0]
    moves = [i for i, e in enumerate(first["events"]) if "chance" not in e]
    del first["events"][moves[-1] :]
    del first["result"]


def _pile_of_109(entry: Record) -> None:
    entry["rounds"][0]["pile"].append("R1")


def _pile_swapped_card(entry: Record) -> None:
    entry["rounds"][0]["pile"][-1] = "R1"


BASIC = "legal-basic-round-01.json"
RESHUFFLE = "legal-draw-until-playable-reshuffle-01.json"
MULTI = "multi-round"

# name: (base, edit, round, event, the code and the code of the error it wraps)
MALFORMED: dict[str, tuple[str, Edit, int | None, int | None, tuple[str, str | None]]] = {
    "wrong format": (BASIC, _set(("format",), "unomas-record/2"), None, None, ("record.bad_format", None)),
    "no format": (BASIC, _delete(("format",)), None, None, ("record.bad_format", None)),
    "missing setting": (BASIC, _delete(("rules", "jump_in")), None, None, ("record.rules", "setup.missing_setting")),
    "extra setting": (
        BASIC,
        _set(("rules", "house_rule"), True),
        None,
        None,
        ("record.rules", "setup.unknown_setting"),
    ),
    "bad setting value": (BASIC, _set(("rules", "players"), 1), None, None, ("record.rules", "setup.players_range")),
    "bad card in a hand": (
        BASIC,
        _set(("rounds", 0, "hands", 0, 0), "R10"),
        0,
        None,
        ("record.hand_bad_card", "notation.not_a_card"),
    ),
    "bad card in the pile": (
        BASIC,
        _set(("rounds", 0, "pile", 3), "X9"),
        0,
        None,
        ("record.pile_bad_card", "notation.not_a_card"),
    ),
    "bad card in a play": (
        BASIC,
        _set(("rounds", 0, "events", 0, "card"), "R33"),
        0,
        0,
        ("record.bad_move", "notation.not_a_card"),
    ),
    "bad card in a draw": (
        BASIC,
        _set(("rounds", 0, "events", 2, "cards"), ["BB"]),
        0,
        2,
        ("record.draw_bad_card", "notation.not_a_card"),
    ),
    "109 cards": (BASIC, _pile_of_109, 0, None, ("record.deal", "deal.not_full_deck")),
    "a card twice, another missing": (BASIC, _pile_swapped_card, 0, None, ("record.deal", "deal.not_full_deck")),
    "hand too short": (BASIC, _delete(("rounds", 0, "hands", 1, 1)), 0, None, ("record.deal", "deal.hand_size")),
    "wrong dealer": (BASIC, _set(("rounds", 0, "dealer"), 1), 0, None, ("record.bad_dealer", None)),
    "unplayable card": (
        BASIC,
        _set(("rounds", 0, "events", 0, "card"), "G5"),
        0,
        0,
        ("record.illegal_move", "move.does_not_match"),
    ),
    "card not held": (
        BASIC,
        _set(("rounds", 0, "events", 0, "card"), "R5"),
        0,
        0,
        ("record.illegal_move", "move.no_such_card"),
    ),
    "wrong player": (
        BASIC,
        _set(("rounds", 0, "events", 0, "p"), 0),
        0,
        0,
        ("record.illegal_move", "move.no_such_card"),
    ),
    "unknown move": (
        BASIC,
        _set(("rounds", 0, "events", 1, "a"), "fly"),
        0,
        1,
        ("record.bad_move", "notation.unknown_move"),
    ),
    "uno with the last card": (
        BASIC,
        _set(("rounds", 0, "events", 3, "uno"), True),
        0,
        3,
        ("record.illegal_move", "move.uno_not_allowed"),
    ),
    "uno as a string": (
        BASIC,
        _set(("rounds", 0, "events", 0, "uno"), "yes"),
        0,
        0,
        ("record.bad_move", "notation.not_a_flag"),
    ),
    "colour on a non-wild": (
        BASIC,
        _set(("rounds", 0, "events", 0, "color"), "R"),
        0,
        0,
        ("record.illegal_move", "move.card_takes_no_color"),
    ),
    "no colour on a wild": (
        "legal-challenge-guilty-01.json",
        _delete(("rounds", 0, "events", 0, "color")),
        0,
        0,
        ("record.illegal_move", "move.needs_color"),
    ),
    "target on a card taking none": (
        BASIC,
        _set(("rounds", 0, "events", 0, "target"), 0),
        0,
        0,
        ("record.illegal_move", "move.card_takes_no_target"),
    ),
    "7 without its target": (
        "legal-seven-swap-01.json",
        _delete(("rounds", 0, "events", 0, "target")),
        0,
        0,
        ("record.illegal_move", "move.needs_target"),
    ),
    "cards on a play": (
        BASIC,
        _set(("rounds", 0, "events", 0, "cards"), ["R3"]),
        0,
        0,
        ("record.bad_move", "notation.misplaced_field"),
    ),
    "draw lists other cards": (
        BASIC,
        _set(("rounds", 0, "events", 2, "cards"), ["B8"]),
        0,
        2,
        ("record.draw_differs", None),
    ),
    "draw lists no cards": (BASIC, _set(("rounds", 0, "events", 2, "cards"), []), 0, 2, ("record.draw_differs", None)),
    "missing reshuffle": (RESHUFFLE, _delete(("rounds", 0, "events", 3)), 0, 3, ("record.unrecorded_reshuffle", None)),
    "reshuffle in the wrong order": (
        RESHUFFLE,
        _set(("rounds", 0, "events", 3, "pile"), ["R5", "G5", "G8"]),
        0,
        4,
        ("record.draw_differs", None),
    ),
    "two reshuffles before one move": (RESHUFFLE, _duplicate_event(0, 3), 0, 4, ("record.two_reshuffles", None)),
    "reshuffle at the end": (
        RESHUFFLE,
        _insert_event(0, 6, {"chance": "reshuffle", "pile": ["G5"]}),
        0,
        6,
        ("record.reshuffle_last", None),
    ),
    "unknown chance event": (
        BASIC,
        _insert_event(0, 1, {"chance": "earthquake"}),
        0,
        1,
        ("record.unknown_chance", None),
    ),
    "return after a move": (
        BASIC,
        _insert_event(0, 1, {"chance": "return", "pile": ["R1"]}),
        0,
        1,
        ("record.late_return", None),
    ),
    "wrong points": (BASIC, _set(("rounds", 0, "result", "points"), 13), 0, None, ("record.result_differs", None)),
    "wrong round winner": (BASIC, _set(("rounds", 0, "result", "winner"), 1), 0, None, ("record.result_differs", None)),
    "finished round without result": (
        BASIC,
        _delete(("rounds", 0, "result")),
        0,
        None,
        ("record.result_differs", None),
    ),
    "result of an unfinished round": (
        RESHUFFLE,
        _set(("rounds", 0, "result"), {"winner": 1, "points": 10}),
        0,
        None,
        ("record.result_unended", None),
    ),
    "wrong scores": (BASIC, _set(("scores",), [13, 0]), None, None, ("record.scores_differ", None)),
    "wrong winner": (BASIC, _set(("winner",), 1), None, None, ("record.winner_differs", None)),
    "winner missing though the match is over": (
        BASIC,
        _set(("winner",), None),
        None,
        None,
        ("record.winner_differs", None),
    ),
    "no winner field": (BASIC, _delete(("winner",)), None, None, ("record.winner_differs", None)),
    "a winner while the match goes on": (RESHUFFLE, _set(("winner",), 0), None, None, ("record.winner_differs", None)),
    "round after the match ended": (BASIC, _append_round_copy, 1, None, ("record.match_over", None)),
    "no rounds": (BASIC, _set(("rounds",), []), None, None, ("record.no_rounds", None)),
    "names of the wrong length": (BASIC, _set(("names",), ["Ana"]), None, None, ("record.bad_names", None)),
    "non-last round without result": (
        MULTI,
        _delete(("rounds", 0, "result")),
        0,
        None,
        ("record.result_differs", None),
    ),
    "non-last round unfinished": (MULTI, _cut_round_short, 0, None, ("record.round_unended", None)),
    "wrong scores of a match": (MULTI, _set(("scores", 0), -1), None, None, ("record.scores_differ", None)),
}


def _base(name: str) -> Record:
    return multi_round() if name == MULTI else example(name)


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_record_is_refused(case: str) -> None:
    base, edit, round_index, event_index, codes = MALFORMED[case]
    entry = _base(base)
    record.replay(copy.deepcopy(entry))  # the base is valid
    edit(entry)
    error = replay_error(entry)
    assert (error.round, error.event) == (round_index, event_index), str(error)
    assert (error.code, error.params.get("cause_code")) == codes


def test_reshuffle_with_the_wrong_cards() -> None:
    entry = example(RESHUFFLE)
    entry["rounds"][0]["events"][3]["pile"] = ["G5", "R5", "G9"]
    error = replay_error(entry)
    assert (error.round, error.event) == (0, 3)
    assert (error.code, error.params["cause_code"]) == ("record.unfit_reshuffle", "deal.reshuffle_mismatch")


def test_reshuffle_that_no_draw_needs() -> None:
    entry = example(BASIC)
    entry["rounds"][0]["events"].insert(1, {"chance": "reshuffle", "pile": ["R9"]})
    error = replay_error(entry)
    assert (error.round, error.event) == (0, 1)
    assert (error.code, error.params["cause_code"]) == ("record.unfit_reshuffle", "deal.reshuffle_unused")


def test_reshuffle_missing_in_a_simulated_match() -> None:
    entry = multi_round()
    where = next(
        (r, i)
        for r, entry_round in enumerate(entry["rounds"])
        for i, event in enumerate(entry_round["events"])
        if event.get("chance") == "reshuffle"
    )
    broken = copy.deepcopy(entry)
    del broken["rounds"][where[0]]["events"][where[1]]
    error = replay_error(broken)
    assert (error.round, error.event, error.code) == (*where, "record.unrecorded_reshuffle")
    wrong = copy.deepcopy(entry)
    wrong["rounds"][where[0]]["events"][where[1]]["pile"].append("W")
    error = replay_error(wrong)
    assert (error.round, error.event) == where


def _record_with_a_return() -> Record:
    """A single-round match whose starting card was a W+4 sent back into the pile."""
    for seed in range(1000):  # pragma: no branch
        game = Game(Rules(players=3, target_score=0), seed=seed)
        assert game.log is not None
        if game.log[0].deal.returns:
            return record.to_json(game)
    raise AssertionError("no seed turned up a W+4")  # pragma: no cover


def test_starting_wild_draw_four_returns() -> None:
    entry = _record_with_a_return()
    first = entry["rounds"][0]
    assert first["pile"][0] == "W+4"
    assert first["events"][0]["chance"] == "return"
    assert sorted(first["events"][0]["pile"]) == sorted(first["pile"])
    assert record.replay(json.loads(record.dumps(entry))).scores == entry["scores"]

    missing = copy.deepcopy(entry)
    returns = [e for e in first["events"] if e.get("chance") == "return"]
    del missing["rounds"][0]["events"][: len(returns)]
    error = replay_error(missing)
    assert (error.round, error.code, error.params["cause_code"]) == (0, "record.deal", "deal.return_missing")

    wrong = copy.deepcopy(entry)
    order = wrong["rounds"][0]["events"][0]["pile"]
    order[order.index("W")] = "R1"
    error = replay_error(wrong)
    assert (error.round, error.code, error.params["cause_code"]) == (0, "record.deal", "deal.return_order")

    extra = copy.deepcopy(entry)
    extra["rounds"][0]["events"].insert(len(returns), copy.deepcopy(extra["rounds"][0]["events"][len(returns) - 1]))
    error = replay_error(extra)
    assert (error.round, error.code, error.params["cause_code"]) == (0, "record.deal", "deal.return_not_w4")


@pytest.mark.parametrize("where", ["wrong cards", "not needed", "wrong return"])
def test_unfit_reshuffle_is_named_by_its_own_index(where: str) -> None:
    """RECORD.md, Checking: the replay names "the first event that is not legal or a chance
    event that does not fit (wrong cards, wrong place)" — here the reshuffle itself."""
    if where == "wrong cards":
        entry = example(RESHUFFLE)
        entry["rounds"][0]["events"][3]["pile"] = ["G5", "R5", "G9"]
        index = 3
    elif where == "not needed":
        entry = example(BASIC)
        entry["rounds"][0]["events"].insert(1, {"chance": "reshuffle", "pile": ["R9"]})
        index = 1
    else:
        entry = _record_with_a_return()
        order = entry["rounds"][0]["events"][0]["pile"]
        order[order.index("W")] = "R1"
        index = 0
    assert replay_error(entry).event == index


@pytest.mark.parametrize(
    "broken",
    [None, [], "record", 7, {"format": "unomas-record/1"}, {"format": "unomas-record/1", "rules": []}],
    ids=["null", "list", "string", "number", "no-rules", "rules-list"],
)
def test_not_a_record(broken: Any) -> None:
    error = replay_error(broken)
    assert error.code in ("record.not_an_object", "record.rules")
