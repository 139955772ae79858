"""Verifiable shuffles: commitment, revealed seed, re-dealt deals and reshuffles, tampering."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from codes import raises_code
from unomas import fairness, record
from unomas.cli import app
from unomas.errors import RecordError
from unomas.game import Game
from unomas.rules import Rules


def played(seed: bytes, rules: Rules, moves: int = 100_000) -> Game:
    """A match on ``seed`` with random legal actions (many draws, so reshuffles happen)."""
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    for _ in range(moves):
        if game.is_over:
            break
        if game.round_over:
            game.start_round()
            continue
        game.apply(rng.choice(game.legal_actions(game.current)))
    return game


def seed_with_return() -> bytes:
    """A seed whose first deal turns up a W+4 (it goes back: a ``return`` chance event)."""
    for number in range(10_000):
        seed = number.to_bytes(32, "big")
        game = Game(Rules(players=2), seed=seed)
        assert game.log is not None
        if game.log[0].deal.returns:
            return seed
    raise AssertionError("no seed with a return among the first 10,000")


SEED = bytes(range(32))


@pytest.fixture(scope="module")
def finished() -> dict[str, Any]:
    game = played(SEED, Rules(players=3, target_score=60, draw_until_playable=True))
    return record.to_json(game, shuffle=fairness.reveal(SEED))


def reshuffle_at(data: dict[str, Any]) -> tuple[int, int]:
    for index, entry in enumerate(data["rounds"]):
        for number, event in enumerate(entry["events"]):
            if event.get("chance") == "reshuffle":
                return index, number
    raise AssertionError("no reshuffle in the record")


def test_a_finished_record_with_its_seed_verifies(finished: dict[str, Any]) -> None:
    game = fairness.verify(finished)
    assert game.is_over and game.scores == finished["scores"]
    reshuffle_at(finished)  # the check covered a reshuffle
    assert finished["shuffle"]["commitment"] == fairness.commitment_of(SEED)
    assert len(fairness.new_seed()) == 32 and fairness.new_seed() != fairness.new_seed()
    assert fairness.commit(SEED) == {"commitment": fairness.commitment_of(SEED)}


def test_a_seed_that_does_not_match_the_commitment_is_refused(finished: dict[str, Any]) -> None:
    tampered = copy.deepcopy(finished)
    tampered["shuffle"]["seed"] = bytes(32).hex()
    with raises_code(RecordError, "record.seed_mismatch"):
        fairness.verify(tampered)


def test_a_deal_other_than_the_seeds_is_refused_even_with_a_consistent_commitment() -> None:
    game = played(SEED, Rules(players=2, target_score=0), moves=0)
    data = record.to_json(game, shuffle=fairness.reveal(SEED))
    other = bytes(31) + b"\x01"
    data["shuffle"] = fairness.reveal(other)  # a valid record, an honest-looking commitment, another seed
    with raises_code(RecordError, "record.seed_deal"):
        fairness.verify(data)


def test_a_reshuffle_the_seed_did_not_make_is_found(finished: dict[str, Any]) -> None:
    tampered = copy.deepcopy(finished)
    index, number = reshuffle_at(tampered)
    pile = tampered["rounds"][index]["events"][number]["pile"]
    pile[0], pile[-1] = pile[-1], pile[0]
    with pytest.raises(RecordError) as caught:
        fairness.replay_seeded(tampered, SEED)
    assert (caught.value.round, caught.value.event) == (index, number)
    assert caught.value.code == "record.seed_reshuffle"
    missing = copy.deepcopy(finished)
    del missing["rounds"][index]["events"][number]
    with raises_code(RecordError, "record.seed_reshuffle"):
        fairness.replay_seeded(missing, SEED)


def test_a_starting_return_the_seed_did_not_make_is_found() -> None:
    seed = seed_with_return()
    game = Game(Rules(players=2), seed=seed)
    data = record.to_json(game, shuffle=fairness.reveal(seed))
    assert fairness.verify(data).round == 0
    pile = data["rounds"][0]["events"][0]["pile"]
    pile[0], pile[1] = pile[1], pile[0]
    if pile[0] == pile[1]:  # pragma: no cover - identical cards: swap others
        pile[0], pile[2] = pile[2], pile[0]
    with raises_code(RecordError, "record.seed_return"):
        fairness.replay_seeded(data, seed)


@pytest.mark.parametrize(
    ("shuffle", "code"),
    [
        (None, "record.no_shuffle"),
        ({"commitment": "ab"}, "record.bad_shuffle"),
        ({"commitment": "ab", "seed": "xyz"}, "record.seed_not_hex"),
    ],
)
def test_a_missing_or_malformed_shuffle_field_is_named(finished: dict[str, Any], shuffle: Any, code: str) -> None:
    tampered = copy.deepcopy(finished)
    if shuffle is None:
        del tampered["shuffle"]
    else:
        tampered["shuffle"] = shuffle
    with raises_code(RecordError, code):
        fairness.verify(tampered)


def test_replaying_from_the_seed_resumes_the_same_game_and_random_source() -> None:
    original = played(SEED, Rules(players=3, target_score=100), moves=150)
    partial = record.to_json(original)
    told: list[Any] = []
    resumed = fairness.replay_seeded(partial, SEED, on_events=lambda action, events: told.append(action))
    assert told.count(None) == len(partial["rounds"])  # each deal was told
    assert resumed.view(0) == original.view(0) and resumed.hands == original.hands
    assert resumed.rng.random() == original.rng.random()  # the next shuffle will be the same
    with raises_code(RecordError, "record.malformed"):
        fairness.replay_seeded({"rules": Rules().to_dict()}, SEED)
    broken = copy.deepcopy(partial)
    broken["rounds"][0]["events"].insert(0, {"p": 9, "a": "draw"})
    with raises_code(RecordError, "record.does_not_replay"):
        fairness.replay_seeded(broken, SEED)


def test_replay_verify_on_the_command_line(finished: dict[str, Any], tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(finished))
    runner = CliRunner()
    result = runner.invoke(app, ["replay", "--verify", str(good)], env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    assert "every deal and reshuffle comes from the committed seed" in result.output
    tampered = copy.deepcopy(finished)
    tampered["shuffle"]["seed"] = bytes(32).hex()
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(tampered))
    result = runner.invoke(app, ["replay", "--verify", str(bad)], env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert result.exit_code == 1 and "does not match the commitment" in result.output
    plain = runner.invoke(app, ["replay", str(bad)], env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert plain.exit_code == 0  # without --verify the seed is not looked at


def test_replay_verify_on_a_match_still_sealed_says_in_one_line_what_it_checks(tmp_path: Path) -> None:
    """A record that commits to its shuffle but has not revealed the seed (a terminal game
    under way): its moves are checked, its deals cannot be yet; it is not counted verified."""
    game = played(SEED, Rules(players=3, target_score=100), moves=40)
    sealed = tmp_path / "sealed.json"
    sealed.write_text(json.dumps(record.to_json(game, shuffle=fairness.commit(SEED))))
    result = CliRunner().invoke(app, ["replay", "--verify", str(sealed)], env={"COLUMNS": "400", "NO_COLOR": "1"})
    assert result.exit_code == 1
    (line,) = result.output.strip().splitlines()
    assert line.startswith("UNVERIFIED") and "its moves are legal" in line and "cannot be checked yet" in line
