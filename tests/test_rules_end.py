"""RULES.md: the end of a round, ``no_action_finish``, scoring, the match, illegal input."""

from __future__ import annotations

import pytest

from unomas import Action, IllegalAction, Phase
from unomas.cards import parse_card, parse_color
from unomas.events import Challenged, Drew, MatchEnded, RoundEnded
from unomas.game import Deal
from unomas.testing import cards, draw, hand, make_game, play, snapshot

C = parse_card

# ---------------------------------------------------------------- no_action_finish


@pytest.mark.parametrize(("last", "color"), [("RS", None), ("RR", None), ("R+2", None), ("W", "R"), ("W+4", "R")])
def test_no_action_finish_on_refuses_a_last_action_or_wild(last: str, color: str | None) -> None:
    game = make_game([["G1"], [last], ["G2"]], ["R9"], no_action_finish=True)
    assert game.legal_actions(1) == [Action.draw(1)]
    before = snapshot(game)
    with pytest.raises(IllegalAction, match="no_action_finish"):
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
    assert game.uno_pending == -1


def test_round_over_refuses_actions() -> None:
    game = make_game([["W+4"], ["R3"], ["R4"]], ["R9"], target_score=1000)
    play(game, 1, "R3")
    before = snapshot(game)
    with pytest.raises(IllegalAction, match="round is over"):
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
    with pytest.raises(IllegalAction, match="match is over"):
        draw(game, 2)
    with pytest.raises(IllegalAction, match="match is over"):
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
    ("action", "reason"),
    [
        (Action.play(2, C("R4")), "turn"),
        (Action.draw(0), "turn"),
        (Action.play(1, C("B9")), "holds no"),
        (Action.play(1, C("W+4")), "colour"),
        (Action.play(1, C("R3"), color=parse_color("R")), "takes no colour"),
        (Action.play(1, C("R3"), target=2), "takes no target"),
        (Action.catch(0, 1), "cannot be caught"),
        (Action.call_uno(1), "no UNO"),
        (Action.pass_(1), "passing"),
        (Action.challenge(1), "no Wild Draw Four"),
        (Action.choose_color(1, 0), "colour"),
        (Action.draw(7), "seat"),
    ],
)
def test_illegal_input_is_refused_and_changes_nothing(action: Action, reason: str) -> None:
    game = make_game([["R1", "G2", "W"], ["R3", "G5", "W+4"], ["R4", "G6", "R7"]], ["R9", "B1"], seven_zero=True)
    before = snapshot(game)
    assert game.problem(action) is not None
    assert reason in (game.problem(action) or "")
    with pytest.raises(IllegalAction, match=reason):
        game.apply(action)
    assert snapshot(game) == before
    assert action not in game.legal_actions(action.player if 0 <= action.player < 3 else 0)


def test_missing_target_for_a_seven() -> None:
    game = make_game([["R1", "G2", "W"], ["R7", "G5", "W+4"], ["R4", "G6", "R3"]], ["R9"], seven_zero=True)
    before = snapshot(game)
    with pytest.raises(IllegalAction, match="needs a target"):
        play(game, 1, "R7")
    assert snapshot(game) == before


def test_illegal_wild_colour_value() -> None:
    game = make_game([["R1", "G2"], ["W", "G5"], ["R4", "G6"]], ["R9"])
    before = snapshot(game)
    with pytest.raises(IllegalAction, match="colour"):
        game.apply(Action.play(1, C("W"), color=4))
    assert snapshot(game) == before


def test_illegal_reason_is_the_problem() -> None:
    game = make_game([["R1", "G2"], ["W", "G5"], ["R4", "G6"]], ["R9"])
    action = Action.play(1, C("G5"))
    problem = game.problem(action)
    assert problem is not None and "G5" in problem
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    assert problem in str(info.value)
