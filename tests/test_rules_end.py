"""RULES.md: the end of a round, ``no_action_finish``, scoring, the match, illegal input."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import unomas.game
from codes import raises_code
from unomas import Action, Game, IllegalAction, Kind, Phase, Rules
from unomas.cards import KINDS, parse_card, parse_color
from unomas.error_codes import ERRORS, placeholders
from unomas.events import Challenged, Drew, MatchEnded, RoundEnded
from unomas.game import Deal
from unomas.rules import SWITCHES
from unomas.testing import cards, draw, hand, make_game, play, snapshot

C = parse_card

# ---------------------------------------------------------------- no_action_finish


@pytest.mark.parametrize(("last", "color"), [("RS", None), ("RR", None), ("R+2", None), ("W", "R"), ("W+4", "R")])
def test_no_action_finish_on_refuses_a_last_action_or_wild(last: str, color: str | None) -> None:
    game = make_game([["G1"], [last], ["G2"]], ["R9"], no_action_finish=True)
    assert game.legal_actions(1) == [Action.draw(1)]
    before = snapshot(game)
    with raises_code(IllegalAction, "move.no_action_finish"):
        play(game, 1, last, color)
    assert snapshot(game) == before


@pytest.mark.parametrize(("last", "color"), [("RS", None), ("RR", None), ("W", "R")])
def test_no_action_finish_off_allows_a_last_action_or_wild(last: str, color: str | None) -> None:
    game = make_game([["G1"], [last], ["G2"]], ["R9"], target_score=0)
    events = play(game, 1, last, color)
    assert any(isinstance(e, RoundEnded) and e.winner == 1 for e in events)


def test_no_action_finish_allows_a_last_number() -> None:
    game = make_game([["G1"], ["R5"], ["G2"]], ["R9"], no_action_finish=True, target_score=0)
    play(game, 1, "R5")
    assert game.round_over


def test_no_action_finish_allows_action_cards_before_the_last() -> None:
    game = make_game([["G1", "G3"], ["RS", "R5"], ["G2", "G4"]], ["R9"], no_action_finish=True)
    play(game, 1, "RS")
    assert game.current == 0


def test_no_action_finish_last_drawn_card_stays_playable() -> None:
    game = make_game([["G1"], ["B5"], ["G2"]], ["R9", "RS"], no_action_finish=True)
    draw(game, 1)
    assert game.phase is Phase.DRAWN  # two cards now: the Skip is not the last one
    play(game, 1, "RS")
    assert hand(game, 1) == ["B5"]


def test_jump_in_may_finish_with_an_action_card_without_no_action_finish() -> None:
    game = make_game([["G1"], ["G5"], ["Y6"], ["RS"]], ["RS"], jump_in=True, target_score=0)
    events = play(game, 3, "RS")
    assert any(isinstance(e, RoundEnded) and e.winner == 3 for e in events)


# ---------------------------------------------------------------- end of a round, scoring


def test_round_ends_when_a_hand_is_empty() -> None:
    game = make_game([["G1", "R6"], ["R3", "R5"], ["Y2", "Y4"]], ["R9", "B1"], target_score=1000)
    play(game, 1, "R3", uno=True)
    draw(game, 2)  # B1 does not fit R3
    play(game, 0, "R6", uno=True)
    events = play(game, 1, "R5")
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert (ended.winner, ended.points) == (1, 1 + 2 + 4 + 1)
    assert ended.scores == (0, 8, 0)
    assert game.phase is Phase.ROUND_OVER and game.round_over


def test_points_of_a_round() -> None:
    game = make_game([["W+4"], ["R3"], ["BS"], ["Y7"]], ["R9"], target_score=1000)
    events = play(game, 1, "R3")
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert (ended.winner, ended.points) == (1, 50 + 20 + 7)
    assert ended.hands == ((C("W+4"),), (), (C("BS"),), (C("Y7"),))
    assert game.scores == [0, 77, 0, 0]
    assert game.phase is Phase.ROUND_OVER and not game.is_over
    assert game.uno_pending is None


def test_round_over_refuses_actions() -> None:
    game = make_game([["W+4"], ["R3"], ["R4"]], ["R9"], target_score=1000)
    play(game, 1, "R3")
    before = snapshot(game)
    with raises_code(IllegalAction, "move.round_over"):
        draw(game, 2)
    assert snapshot(game) == before
    assert all(game.legal_actions(s) == [] for s in range(3))


def test_last_plus_two_penalty_drawn_by_the_next_player() -> None:
    game = make_game([["G1"], ["R+2"], ["Y2"]], ["R9", "B1", "B2"], target_score=1000)
    events = play(game, 1, "R+2")
    assert Drew(2, 2, tuple(cards("B1 B2")), "penalty") in events
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.points == 1 + 2 + 1 + 2
    assert hand(game, 2) == sorted(["Y2", "B1", "B2"])
    assert hand(game, 0) == ["G1"]
    assert events.index(next(e for e in events if isinstance(e, Drew))) < events.index(ended)


def test_last_plus_two_after_a_reverse_goes_the_current_way() -> None:
    game = make_game([["G1", "G2"], ["RR", "R+2"], ["Y2", "Y3"]], ["R9", "B1", "B2", "B3", "B4"], target_score=1000)
    play(game, 1, "RR", uno=True)
    draw(game, 0)  # B1 does not fit RR
    assert game.current == 2
    draw(game, 2)  # B2
    events = play(game, 1, "R+2")
    assert Drew(0, 2, tuple(cards("B3 B4")), "penalty") in events
    assert hand(game, 2) == sorted(["Y2", "Y3", "B2"])


def test_last_plus_two_answering_a_penalty_passes_it_all() -> None:
    game = make_game(
        [["G1", "G2"], ["R+2", "G7"], ["R6", "B+2"]],
        ["R9", "B1", "B2", "B3", "B4", "B5", "B6"],
        stack_draw_two=True,
        target_score=1000,
    )
    draw(game, 1)  # B1 does not fit R9
    play(game, 2, "R6", uno=True)
    draw(game, 0)  # B2 does not fit R6
    play(game, 1, "R+2")
    events = play(game, 2, "B+2")  # the last card, answering the +2: seat 0 draws all 4
    assert Drew(0, 4, tuple(cards("B3 B4 B5 B6")), "penalty") in events
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.winner == 2
    assert ended.points == (1 + 2 + 2 + 3 + 4 + 5 + 6) + (7 + 1)
    assert game.penalty == 0


def test_last_wild_draw_four_no_answer_no_challenge() -> None:
    game = make_game(
        [["G1"], ["W+4"], ["W+4"]], ["R9", "B1", "B2", "B3", "B4"], stack_draw_four=True, target_score=1000
    )
    events = play(game, 1, "W+4", "G")
    assert Drew(2, 4, tuple(cards("B1 B2 B3 B4")), "penalty") in events
    assert not any(isinstance(e, Challenged) for e in events)
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.points == 1 + 50 + 1 + 2 + 3 + 4
    assert game.phase is Phase.ROUND_OVER


def test_match_continues_below_target() -> None:
    game = make_game([["W+4"], ["R3"], ["BS"]], ["R9"], target_score=71)
    events = play(game, 1, "R3")
    assert not any(isinstance(e, MatchEnded) for e in events)
    assert game.phase is Phase.ROUND_OVER and game.view(0).winner is None


def test_match_ends_when_target_reached() -> None:
    game = make_game([["W+4"], ["R3"], ["BS"]], ["R9"], target_score=70)
    events = play(game, 1, "R3")
    assert MatchEnded(1, (0, 70, 0)) in events
    assert game.is_over and game.winner == 1 and game.view(0).winner == 1
    with raises_code(IllegalAction, "move.match_over"):
        draw(game, 2)
    with raises_code(IllegalAction, "round.match_over"):
        game.start_round(Deal.from_tokens([["W+4"], ["R3"], ["BS"]], ["R9"]))


def test_target_score_zero_is_a_single_round() -> None:
    game = make_game([["R1"], ["R3"], ["R2"]], ["R9"], target_score=0)
    events = play(game, 1, "R3")
    assert MatchEnded(1, (0, 3, 0)) in events
    assert game.is_over


def test_scores_accumulate_and_the_highest_total_wins() -> None:
    game = make_game([["W"], ["R3"], ["BS"]], ["R9"], target_score=100)
    play(game, 1, "R3")
    assert game.scores == [0, 70, 0] and not game.is_over
    game.start_round(Deal.from_tokens([["Y3"], ["W+4"], ["R5"]], ["R9"]))
    assert (game.dealer, game.current) == (1, 2)
    play(game, 2, "R5")
    assert game.scores == [0, 70, 53] and not game.is_over
    game.start_round(Deal.from_tokens([["R1"], ["W+4"], ["W"]], ["R9"]))
    assert (game.dealer, game.current) == (2, 0)
    events = play(game, 0, "R1")
    assert MatchEnded(0, (100, 70, 53)) in events
    assert game.is_over and game.winner == 0


# ---------------------------------------------------------------- illegal input


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (Action.play(2, C("R4")), "move.not_your_turn"),
        (Action.draw(0), "move.not_your_turn"),
        (Action.play(1, C("B9")), "move.no_such_card"),
        (Action.play(1, C("W+4")), "move.needs_color"),
        (Action.play(1, C("R3"), color=parse_color("R")), "move.card_takes_no_color"),
        (Action.play(1, C("R3"), target=2), "move.card_takes_no_target"),
        (Action.catch(0, 1), "move.not_catchable"),
        (Action.call_uno(1), "move.no_uno"),
        (Action.pass_(1), "move.pass_not_allowed"),
        (Action.challenge(1), "move.nothing_to_challenge"),
        (Action.choose_color(1, 0), "move.color_not_open"),
        (Action.draw(7), "move.no_such_seat"),
    ],
)
def test_illegal_input_is_refused_and_changes_nothing(action: Action, code: str) -> None:
    game = make_game([["R1", "G2", "W"], ["R3", "G5", "W+4"], ["R4", "G6", "R7"]], ["R9", "B1"], seven_zero=True)
    before = snapshot(game)
    refusal = game.refusal(action)
    assert refusal is not None and refusal[0] == code
    with raises_code(IllegalAction, code):
        game.apply(action)
    assert snapshot(game) == before
    assert action not in game.legal_actions(action.player if 0 <= action.player < 3 else 0)


def test_missing_target_for_a_seven() -> None:
    game = make_game([["R1", "G2", "W"], ["R7", "G5", "W+4"], ["R4", "G6", "R3"]], ["R9"], seven_zero=True)
    before = snapshot(game)
    with raises_code(IllegalAction, "move.needs_target"):
        play(game, 1, "R7")
    assert snapshot(game) == before


def test_illegal_wild_colour_value() -> None:
    game = make_game([["R1", "G2"], ["W", "G5"], ["R4", "G6"]], ["R9"])
    before = snapshot(game)
    with raises_code(IllegalAction, "move.bad_color"):
        game.apply(Action.play(1, C("W"), color=4))
    assert snapshot(game) == before


def test_illegal_reason_is_the_problem() -> None:
    game = make_game([["R1", "G2"], ["W", "G5"], ["R4", "G6"]], ["R9"])
    action = Action.play(1, C("G5"))
    refusal = game.refusal(action)
    assert refusal is not None
    code, params = refusal
    assert game.problem(action) == ERRORS[code].english(params)
    with raises_code(IllegalAction, code, **params):
        game.apply(action)


# ---------------------------------------------------------------- refusals: codes and params

SEVEN_ZERO_HANDS = [["R1", "G2", "W"], ["R3", "G5", "W+4"], ["R4", "G6", "R7"]]
COMPILED = not unomas.game.__file__.endswith(".py")
WRONG_TYPES = {"move.bad_uno"}
"""Refusals of values of the wrong Python type: a compiled engine raises TypeError first."""


@pytest.mark.parametrize(
    ("action", "code", "params"),
    [
        (Action.play(2, C("R4")), "move.not_your_turn", {"current": 1}),
        (Action.play(1, C("B9")), "move.no_such_card", {"player": 1, "card": "B9"}),
        (Action.play(1, C("G5")), "move.does_not_match", {"card": "G5", "top": "R9", "color": "R"}),
        (Action.play(1, C("W+4")), "move.needs_color", {"card": "W+4"}),
        (Action.play(1, C("R3"), color=0), "move.card_takes_no_color", {"card": "R3"}),
        (Action.play(1, C("R3"), target=2), "move.card_takes_no_target", {"card": "R3"}),
        (Action.play(1, C("R3"), uno=True), "move.uno_not_allowed", {}),
        (Action.catch(0, 1), "move.not_catchable", {"target": 1}),
        (Action.catch(1, 1), "move.catch_self", {}),
        (Action.call_uno(1), "move.no_uno", {"player": 1}),
        (Action.pass_(1), "move.pass_not_allowed", {}),
        (Action.challenge(1), "move.nothing_to_challenge", {}),
        (Action.choose_color(1, 0), "move.color_not_open", {}),
        (Action.draw(7), "move.no_such_seat", {"player": "7", "last": 2}),
        (Action(1, Kind.PLAY, 99), "move.bad_card", {"last": 53, "value": "99"}),
        (Action(1, Kind.DRAW, None, None, None, 1), "move.bad_uno", {"value": "1"}),  # type: ignore[arg-type]
    ],
)
def test_refusals_carry_a_stable_code_and_params(action: Action, code: str, params: dict[str, Any]) -> None:
    game = make_game(SEVEN_ZERO_HANDS, ["R9", "B1"], seven_zero=True)
    if COMPILED and code in WRONG_TYPES:
        with pytest.raises(TypeError):  # the compiled engine refuses a wrong Python type at its boundary
            game.refusal(action)
        return
    assert game.refusal(action) == (code, params)
    assert game.problem(action) == ERRORS[code].template.format(**params)
    with pytest.raises(IllegalAction) as caught:
        game.apply(action)
    error = caught.value
    assert (error.code, error.params) == (code, {"action": str(action), **params})
    assert json.loads(json.dumps(error.to_json()))["code"] == code


def test_a_legal_action_has_no_refusal() -> None:
    game = make_game(SEVEN_ZERO_HANDS, ["R9", "B1"], seven_zero=True)
    assert game.refusal(Action.play(1, C("R3"))) is None


def test_a_round_dealt_out_of_time_is_refused_with_a_code() -> None:
    game = make_game([["R1"], ["R3"]], ["R9"], target_score=1)
    with pytest.raises(IllegalAction) as caught:
        game.start_round()
    assert caught.value.code == "round.in_play"
    play(game, 1, "R3")
    assert game.is_over
    with pytest.raises(IllegalAction) as caught:
        game.start_round()
    assert caught.value.code == "round.match_over"


def test_every_refusal_of_random_play_fills_its_template_exactly() -> None:
    reached: set[str] = set()
    for seed in range(30):
        rng = random.Random(seed)
        rules = Rules.preset(
            "official", players=rng.randint(2, 5), target_score=0, **{name: rng.random() < 0.5 for name in SWITCHES}
        )
        game = Game(rules, seed=seed)
        for _ in range(120):
            if game.round_over:
                break
            for _ in range(8):
                held = [c for hand in game.hands for c in hand]
                action = Action(
                    rng.choice([*range(rules.players), rules.players]),
                    rng.choice(list(Kind)),
                    rng.choice([None, None, KINDS, *range(KINDS), *held]),
                    rng.choice([None, None, None, 0, 1, 2, 3, 4]),
                    rng.choice([None, None, None, *range(-1, rules.players + 1)]),
                    rng.random() < 0.2,
                )
                refusal = game.refusal(action)
                if refusal is None:
                    continue
                code, params = refusal
                assert set(placeholders(ERRORS[code].template)) == set(params)
                assert all(value is None or type(value) in (str, int) for value in params.values())
                reached.add(code)
            seats = [game.current, *game.out_of_turn_seats()]
            game.apply(rng.choice(game.legal_actions(rng.choice(seats))))
    assert len({code for code in reached if code.startswith("move.")}) >= 25


def test_refusals_of_what_is_no_action_and_of_a_starting_wild() -> None:
    game = make_game(SEVEN_ZERO_HANDS, ["R9", "B1"])
    if not COMPILED:  # the compiled engine refuses these wrong Python types at its boundary
        assert game.refusal("1 draw") == ("move.not_an_action", {"action": "'1 draw'"})  # type: ignore[arg-type]
        assert game.refusal(Action(1, "jump")) == ("move.unknown_kind", {"kind": "'jump'"})  # type: ignore[arg-type]
    wild = make_game(SEVEN_ZERO_HANDS, ["W", "B1"])
    dealer = wild.current
    assert wild.phase is Phase.COLOR
    assert wild.refusal(Action(dealer, Kind.COLOR)) == ("move.color_missing", {})
    assert wild.refusal(Action.play(dealer, C("R1"))) == ("move.color_first", {})
    assert wild.problem(Action.draw(dealer)) == "the dealer must first choose the colour of the starting Wild"
