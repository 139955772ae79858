"""The engine's values: positions that round-trip, actions written and read back, copies
that share nothing, and what a seat may know (the knowledge functions of unomas.view)."""

from __future__ import annotations

import ast
import copy
import dataclasses
import json
import pickle
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import unomas
from unomas import record
from unomas.actions import Action
from unomas.cards import parse_card
from unomas.error_codes import ERRORS
from unomas.errors import NotationError, PositionError
from unomas.events import MatchEnded, RoundEnded
from unomas.game import Game
from unomas.position import Phase, Position
from unomas.rules import SWITCHES, UNO_PENALTIES, Rules
from unomas.testing import make_game, play
from unomas.view import DERIVED, View, drawn_card, own_hand, shown_hand

FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_rules(rng: random.Random) -> Rules:
    """Any settings, every house rule now and then at once: 2 to 6 players, a small target."""
    switches = {name: True if rng.random() < 0.25 else rng.random() < 0.5 for name in SWITCHES}
    players = rng.randint(2, 6)
    hand_size = rng.randint(1, 7)
    uno_penalty, hand_limit = rng.choice(UNO_PENALTIES), rng.choice([0, hand_size + rng.randint(1, 12)])
    return Rules.preset(
        "official",
        players=players,
        hand_size=hand_size,
        target_score=rng.choice([0, 30, 100]),
        uno_penalty=uno_penalty,
        hand_limit=hand_limit,
        **switches,
    )


def random_games(seed: int, steps: int = 400) -> Iterator[Game]:
    """One match under random rules after every action: out-of-turn actions taken now and then."""
    rng = random.Random(seed)
    game = Game(random_rules(rng), seed=seed)
    for _ in range(steps):
        if game.round_over:
            if game.is_over:
                return
            game.start_round()
        else:
            seats = [game.current, *game.out_of_turn_seats()]
            game.apply(rng.choice(game.legal_actions(rng.choice(seats))))
        yield game


# ---------------------------------------------------------------- positions


@FAST
@given(st.integers(0, 2**32 - 1))
def test_positions_round_trip_through_json_and_games(seed: int) -> None:
    for game in random_games(seed, 250):
        position = game.position()
        written = json.loads(json.dumps(position.to_json()))
        assert Position.from_json(written) == position
        rebuilt = Game.from_position(game.rules, position)
        assert rebuilt.position() == position
        for seat in [*range(game.players), None]:
            assert rebuilt.view(seat) == game.view(seat)


@FAST
@given(st.integers(0, 2**32 - 1))
def test_a_game_from_its_position_plays_on_as_the_game_does(seed: int) -> None:
    rng = random.Random(seed)
    game = Game(Rules(), seed=seed)
    for game in random_games(seed, rng.randrange(150)):  # noqa: B007 (the game as it stands after)
        pass
    twin = Game.from_position(game.rules, game.position(), rng=random.Random(seed))
    game.rng = random.Random(seed)
    for _ in range(80):
        if game.round_over:
            break
        action = rng.choice(game.legal_actions(game.current))
        assert game.apply(action) == twin.apply(action)
        assert twin.position() == game.position()


NONE_FIELDS: Final = ("color", "accused", "drawn", "uno_pending", "winner")
"""The state's fields that may hold nothing: no colour chosen, no accused, no drawn card, no
seat to catch, no winner yet."""


def test_none_is_none_in_the_game_its_position_and_its_views_never_minus_one() -> None:
    seen: set[str] = set()
    for seed in range(400):  # until each field has been None (a starting Wild leaves no colour)
        if seen == set(NONE_FIELDS):
            break
        for game in random_games(seed):
            position = game.position()
            views = [game.view(seat) for seat in (None, *range(game.players))]
            for name in NONE_FIELDS:
                value = getattr(game, name)
                assert value is None or value >= 0, (name, value)
                if name != "accused" or game.challengeable:  # the accused is moot otherwise
                    assert getattr(position, name) == value, name
                for view in views:
                    shown = getattr(view, name)
                    assert shown is None or shown >= 0, (name, view.seat, shown)
                if value is None:
                    seen.add(name)
    assert seen == set(NONE_FIELDS)


NOT_STATE = {
    *("rules", "players", "rng", "log", "round_start_events", "_forced_pile"),
    *("_plays", "_seats", "_switches", "reporting", "_quiet_events"),
}
"""The slots of a Game that are not its position: settings, caches, the random source, history,
whether it reports events."""


@pytest.mark.skipif(not hasattr(Game, "__slots__"), reason="a compiled Game lists no __slots__; the pure build checks")
def test_position_is_the_one_list_of_the_games_state() -> None:
    slots = {name.lstrip("_") for name in Game.__slots__ if name not in NOT_STATE}
    assert slots == {field.name for field in dataclasses.fields(Position)}


@FAST
@given(st.integers(0, 2**32 - 1))
def test_a_copy_has_every_field_of_the_position(seed: int) -> None:
    for game in random_games(seed, 200):
        position = game.position()
        copy = game.copy()
        assert copy.position() == position


def _same_future(game: Game, others: list[Game], rng: random.Random, steps: int) -> None:
    """Play ``game`` and ``others`` on with the same choices (new rounds dealt by each one's own
    random source): every action must cause the same events and reach the same position."""
    for _ in range(steps):
        if game.is_over:
            return
        if game.round_over:
            expected = game.start_round()
            assert [other.start_round() for other in others] == [expected] * len(others)
        else:
            seats = [game.current, *game.out_of_turn_seats()]
            action = rng.choice(game.legal_actions(rng.choice(seats)))
            expected = game.apply(action)
            assert [other.apply(action) for other in others] == [expected] * len(others)
        assert [other.position() for other in others] == [game.position()] * len(others)


@FAST
@given(st.integers(0, 2**32 - 1), st.integers(0, 300))
def test_a_pickled_or_deep_copied_game_is_the_same_game(seed: int, steps: int) -> None:
    """Pickling and deepcopy work in both builds (OpenSpiel serializes states by pickling): the
    copy has the game's position, history and future, its random source's state included,
    and shares nothing with it."""
    game = next(g for step, g in enumerate(random_games(seed, steps + 1)) if step == steps or g.is_over)
    copies = [pickle.loads(pickle.dumps(game)), copy.deepcopy(game)]
    for other in copies:
        assert type(other) is Game
        assert other.rules == game.rules
        assert other.position() == game.position()
        assert (other.accused, other.accused_guilty) == (game.accused, game.accused_guilty)
        assert other.round_start_events == game.round_start_events
        assert other.log == game.log
        assert record.to_json(other) == record.to_json(game)
        assert other.rng is not game.rng and other.hands[0] is not game.hands[0]
    _same_future(game, copies, random.Random(seed), 300)


def test_a_game_shuffling_unpredictably_pickles_too() -> None:
    """An unseeded game has no secret future to carry: its copy shuffles unpredictably too."""
    game = Game(Rules(players=3))
    for other in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert other.position() == game.position()
        assert other.rng is game.rng  # the one unpredictable source: no state to copy


def test_every_view_field_is_a_position_field_or_a_derived_one() -> None:
    positions = {field.name for field in dataclasses.fields(Position)}
    views = {field.name for field in dataclasses.fields(View)}
    assert views - positions == set(DERIVED)
    assert set(DERIVED).isdisjoint(positions)


def test_the_view_does_not_import_the_game() -> None:
    """The game imports the view; the view reads the game's type only for type checking."""
    root = Path(unomas.__file__).parent
    tree = ast.parse((root / "view.py").read_text())
    imported = [node.module for node in tree.body if isinstance(node, ast.ImportFrom) and node.module is not None] + [
        alias.name for node in tree.body if isinstance(node, ast.Import) for alias in node.names
    ]
    assert "unomas.game" not in imported
    game = ast.parse((root / "game.py").read_text())
    assert any(isinstance(node, ast.ImportFrom) and node.module == "unomas.view" for node in game.body)
    assert not any(
        isinstance(node, ast.ImportFrom) and node.module == "unomas.view"
        for function in ast.walk(game)
        if isinstance(function, ast.FunctionDef)
        for node in ast.walk(function)
    )


def base() -> dict[str, Any]:
    """A position's JSON in the middle of a round, to spoil one field at a time."""
    return make_game([["R1", "G2"], ["R3", "G5"]], ["R9", "B7"]).position().to_json()


@pytest.mark.parametrize(
    ("data", "code", "params"),
    [
        ([], "notation.position_not_object", {"type": "array"}),
        (base() | {"turn": 3}, "notation.position_unknown_field", {"field": "'turn'"}),
        ({k: v for k, v in base().items() if k != "ply"}, "notation.position_missing_field", {"field": "'ply'"}),
        (base() | {"round": "1"}, "notation.position_bad_field", {"field": "'round'", "value": "'1'"}),
        (base() | {"ply": True}, "notation.position_bad_field", {"field": "'ply'", "value": "True"}),
        (
            base() | {"hands": [["R1"], ["X9"]]},
            "notation.position_bad_field",
            {"field": "'hands'", "value": "[['R1'], ['X9']]"},
        ),
        (base() | {"pile": "R1"}, "notation.position_bad_field", {"field": "'pile'", "value": "'R1'"}),
        (base() | {"hands": "R1"}, "notation.position_bad_field", {"field": "'hands'", "value": "'R1'"}),
        (base() | {"color": "r"}, "notation.position_bad_field", {"field": "'color'", "value": "'r'"}),
        (base() | {"phase": "TURN"}, "notation.position_bad_field", {"field": "'phase'", "value": "'TURN'"}),
        (base() | {"challengeable": 0}, "notation.position_bad_field", {"field": "'challengeable'", "value": "0"}),
        (
            base() | {"shown": {"hand": []}},
            "notation.position_bad_field",
            {"field": "'shown'", "value": "{'hand': []}"},
        ),
    ],
)
def test_a_position_written_wrongly_is_refused_naming_the_field(data: Any, code: str, params: dict[str, Any]) -> None:
    with pytest.raises(NotationError) as caught:
        Position.from_json(data)
    assert (caught.value.code, caught.value.params) == (code, params)
    assert str(caught.value) == ERRORS[code].template.format(**params)


def test_a_shown_hand_round_trips() -> None:
    data = base() | {"shown": {"challenger": 1, "challenged": 0, "hand": ["R1", "G2"]}}
    position = Position.from_json(data)
    assert position.shown == (1, 0, (parse_card("R1"), parse_card("G2")))
    assert position.to_json() == data


def spoiled(**changes: Any) -> Position:
    return dataclasses.replace(make_game([["R1", "G2"], ["R3", "G5"]], ["R9", "B7"]).position(), **changes)


R1, G2, R3, G5 = (parse_card(t) for t in ("R1", "G2", "R3", "G5"))


@pytest.mark.parametrize(
    ("position", "code"),
    [
        (spoiled(hands=((R1, G2),)), "position.hand_count"),
        (spoiled(scores=(0,)), "position.score_count"),
        (spoiled(hands=((R1, G2), (R3, G5, R3))), "position.not_full_deck"),
        (spoiled(discard=()), "position.not_full_deck"),
        (spoiled(current=2), "position.no_such_seat"),
        (spoiled(uno_pending=-1), "position.no_such_seat"),
        (spoiled(shown=(0, 5, ())), "position.no_such_seat"),
        (spoiled(direction=0), "position.bad_direction"),
        (spoiled(color=None), "position.color_phase"),
        (spoiled(phase=Phase.COLOR), "position.color_phase"),
        (spoiled(drawn=R3), "position.drawn_phase"),
        (spoiled(phase=Phase.DRAWN), "position.drawn_phase"),
        (spoiled(phase=Phase.DRAWN, drawn=G2), "position.drawn_phase"),
        (spoiled(challengeable=True), "position.accused_missing"),
    ],
)
def test_a_position_that_does_not_hold_together_is_refused(position: Position, code: str) -> None:
    rules = Rules(players=2, hand_size=2)
    with pytest.raises(PositionError) as caught:
        Game.from_position(rules, position)
    assert caught.value.code == code
    Game.from_position(rules, position, check=False)  # the caller's to keep consistent


def test_a_position_holds_together_in_the_drawn_phase() -> None:
    position = spoiled(phase=Phase.DRAWN, drawn=R3, current=1)
    assert Game.from_position(Rules(players=2, hand_size=2), position).position() == position


# ---------------------------------------------------------------- copies and their random source


def test_a_copy_does_not_draw_from_the_games_random_source() -> None:
    game = Game(Rules(players=3), seed=5)
    twin = Game(Rules(players=3), seed=5)
    copy = game.copy()
    assert copy.rng is not game.rng
    copy.rng.random()
    assert game.rng.random() == twin.rng.random()
    mine = random.Random(1)
    assert game.copy(rng=mine).rng is mine
    assert Game.from_position(game.rules, game.position()).rng is not game.rng


def test_a_reshuffle_probe_leaves_the_games_random_source_alone() -> None:
    game = Game(Rules(players=2), seed=9)
    twin = Game(Rules(players=2), seed=9)
    game.reshuffled_by(game.legal_actions(game.current)[0])
    assert game.rng.random() == twin.rng.random()


@pytest.mark.parametrize("seed", range(6))
def test_a_game_redealt_shows_each_seat_the_same_view(seed: int) -> None:
    rng = random.Random(seed)
    for game in random_games(seed, 150):
        seat = rng.randrange(game.players)
        hidden = [c for other, hand in enumerate(game.hands) if other != seat for c in hand] + game.pile
        rng.shuffle(hidden)
        hands = [list(hand) if other == seat else [hidden.pop() for _ in hand] for other, hand in enumerate(game.hands)]
        world = game.redealt(
            hands, hidden, drawn=game.drawn, accused_guilty=rng.random() < 0.5, rng=random.Random(seed)
        )
        assert world.view(seat) == game.view(seat)
        position = world.position()
        assert position.hands == tuple(map(tuple, hands)) and position.pile == tuple(hidden)
        assert (
            dataclasses.replace(
                position,
                hands=game.position().hands,
                pile=game.position().pile,
                accused_guilty=game.position().accused_guilty,
            )
            == game.position()
        )


@FAST
@given(st.integers(0, 2**32 - 1))
def test_a_world_that_reports_no_events_plays_the_same_game(seed: int) -> None:
    """``redealt(events=False)``, for a search's worlds: the same rules, every action reaching
    the same position (reshuffles included), and no events built but a round's end."""
    rng = random.Random(seed)
    for game in random_games(seed, 150):
        if game.round_over or rng.random() < 0.9:
            continue
        told, silent = (
            game.redealt(
                [hand[:] for hand in game.hands],
                game.position().pile,
                drawn=game.drawn,
                accused_guilty=game.accused_guilty,
                rng=random.Random(seed),
                events=events,
            )
            for events in (True, False)
        )
        choices = random.Random(seed)
        for _ in range(300):  # random play may drag a round on: a stretch of it is enough
            if told.round_over:
                break
            seats = [told.current, *told.out_of_turn_seats()]
            action = choices.choice(told.legal_actions(choices.choice(seats)))
            told_events = told.push(action)
            assert told_events
            assert silent.push(action) == [e for e in told_events if type(e) in (RoundEnded, MatchEnded)]
            assert silent.position() == told.position()
            assert silent.legal_actions(told.current) == told.legal_actions(told.current)


# ---------------------------------------------------------------- actions written and read back


@FAST
@given(st.integers(0, 2**32 - 1))
def test_every_legal_action_reads_back_from_its_text(seed: int) -> None:
    for game in random_games(seed, 200):
        for seat in range(game.players):
            for action in game.legal_actions(seat):
                text = str(action)
                assert Action.parse(text) == action
                assert repr(action) == f"Action({text!r})"


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("1 play R3 uno", Action.play(1, parse_card("R3"), uno=True)),
        ("0 catch @2", Action.catch(0, 2)),
        ("0 catch 2", Action.catch(0, 2)),
        ("2 play W+4 B", Action.play(2, parse_card("W+4"), color=3)),
        ("3 play G7 @0 uno", Action.play(3, parse_card("G7"), target=0, uno=True)),
        ("  1   draw ", Action.draw(1)),
        ("0 color Y", Action.choose_color(0, 1)),
        ("1 uno", Action.call_uno(1)),
        ("1 challenge", Action.challenge(1)),
        ("2 pass", Action.pass_(2)),
    ],
)
def test_actions_read_from_text(text: str, action: Action) -> None:
    assert Action.parse(text) == action


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "notation.action_text"),
        ("play R3", "notation.action_text"),
        ("1 jump", "notation.action_text"),
        ("1 play R3 B @1 uno extra", "notation.action_text"),
        ("1 play X3", "notation.action_text"),
        ("1 draw R3", "notation.misplaced_field"),
        ("1 catch", "notation.missing_field"),
        ("1 uno uno", "notation.misplaced_field"),
        ("1 play", "notation.missing_field"),
        ("1 color", "notation.missing_field"),
    ],
)
def test_text_that_is_no_action_is_refused(text: str, code: str) -> None:
    with pytest.raises(NotationError) as caught:
        Action.parse(text)
    assert caught.value.code == code


def test_parse_refuses_what_is_not_text() -> None:
    # the compiled build refuses a wrong Python type at the call itself
    with pytest.raises((NotationError, TypeError)):
        Action.parse(12)  # type: ignore[arg-type]


# ---------------------------------------------------------------- what a seat may know


@pytest.mark.parametrize("seed", range(12))
def test_each_seat_knows_its_own_hand_drawn_card_and_shown_hand_only(seed: int) -> None:
    for game in random_games(seed):
        for seat in [*range(game.players), None, -1, game.players]:
            view = game.view(seat)
            assert tuple(own_hand(game, seat)) == view.hand
            assert drawn_card(game, seat) == view.drawn
            assert shown_hand(game, seat) == view.shown_hand
            if seat is None or not 0 <= seat < game.players:
                assert own_hand(game, seat) == []
            else:
                assert own_hand(game, seat) == game.hands[seat]
            if seat != game.current:
                assert drawn_card(game, seat) is None
            if game.shown is None or game.shown[0] != seat:
                assert shown_hand(game, seat) is None


def test_the_drawn_card_and_the_shown_hand_reach_their_seat() -> None:
    drawn = shown = False
    for seed in range(40):
        for game in random_games(seed):
            if game.drawn is not None:
                assert drawn_card(game, game.current) == game.drawn
                drawn = True
            if game.shown is not None:
                challenger, challenged, cards = game.shown
                assert shown_hand(game, challenger) == (challenged, cards)
                shown = True
        if drawn and shown:
            return
    raise AssertionError("no drawn card or no shown hand came up")


def test_a_played_game_keeps_its_position_in_step() -> None:
    game = make_game([["R1", "G2"], ["R3", "G5"]], ["R9", "B7"])
    play(game, 1, "R3", uno=True)
    position = game.position()
    assert (position.current, position.ply, position.discard[-1]) == (0, 1, parse_card("R3"))
    assert position.uno_pending is None and position.pile[0] == parse_card("B7")
