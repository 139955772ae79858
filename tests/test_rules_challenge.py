"""RULES.md: the Wild Draw Four restriction and challenge (``challenge_wild_draw_four``)."""

from __future__ import annotations

import dataclasses

import pytest

from codes import raises_code
from unomas import Action, IllegalAction, Phase
from unomas.cards import parse_card, parse_color
from unomas.events import Challenged, Drew, PenaltyPending, redact
from unomas.testing import cards, draw, hand, make_game, play, snapshot

C = parse_card
PILE = ["R9", "B1", "B2", "B3", "B4", "B5", "B6", "B7"]


def test_w4_is_playable_even_holding_the_colour_in_play() -> None:
    game = make_game([["Y1", "Y2"], ["W+4", "R1"], ["Y3", "Y4"]], PILE)
    assert game.problem(Action.play(1, C("W+4"), color=parse_color("B"))) is None


def test_w4_starts_a_challengeable_penalty() -> None:
    game = make_game([["Y1", "Y2", "Y7"], ["W+4", "R1", "G4"], ["Y3", "Y4", "Y8"]], PILE)
    events = play(game, 1, "W+4", "B")
    assert PenaltyPending(2, 4, True) in events
    assert game.challengeable
    assert Action.challenge(2) in game.legal_actions(2)
    assert game.view(2).challengeable


def test_challenge_guilty() -> None:
    game = make_game([["Y1", "Y2", "Y7"], ["W+4", "R1", "G4"], ["Y3", "Y4", "Y8"]], PILE)
    play(game, 1, "W+4", "B")
    events = game.apply(Action.challenge(2))
    assert Challenged(2, 1, True, tuple(cards("R1 G4"))) in events
    assert Drew(1, 4, tuple(cards("B1 B2 B3 B4")), "challenge") in events
    assert hand(game, 1) == sorted(["R1", "G4", "B1", "B2", "B3", "B4"])
    assert hand(game, 2) == sorted(["Y3", "Y4", "Y8"])
    # the penalty is cancelled and the challenger takes a normal turn on the chosen colour
    assert (game.current, game.phase, game.penalty) == (2, Phase.TURN, 0)
    assert game.color == parse_color("B")
    assert game.problem(Action.play(2, C("Y3"))) is not None


def test_challenge_innocent() -> None:
    game = make_game([["Y1", "Y2", "Y7"], ["W+4", "G1", "G4"], ["Y3", "Y4", "Y8"]], PILE)
    play(game, 1, "W+4", "B")
    events = game.apply(Action.challenge(2))
    assert Challenged(2, 1, False, tuple(cards("G1 G4"))) in events
    assert Drew(2, 6, tuple(cards("B1 B2 B3 B4 B5 B6")), "challenge") in events
    assert hand(game, 1) == sorted(["G1", "G4"])
    assert len(game.hands[2]) == 9
    assert (game.current, game.phase, game.penalty) == (0, Phase.TURN, 0)


def test_matching_by_number_only_is_innocent() -> None:
    game = make_game([["Y1", "Y2", "Y7"], ["W+4", "G9", "W"], ["Y3", "Y4", "Y8"]], PILE)
    play(game, 1, "W+4", "B")
    events = game.apply(Action.challenge(2))
    assert any(isinstance(e, Challenged) and not e.guilty for e in events)
    assert len(game.hands[2]) == 9


def test_matching_by_symbol_only_is_innocent() -> None:
    game = make_game([["Y1", "Y2", "Y7"], ["W+4", "GS", "G4"], ["Y3", "Y4", "Y8"]], ["RS", *PILE[1:]])
    assert game.current == 2  # the starting Skip skipped seat 1
    draw(game, 2)
    draw(game, 0)
    play(game, 1, "W+4", "B")
    events = game.apply(Action.challenge(2))
    assert any(isinstance(e, Challenged) and not e.guilty for e in events)


def test_guilty_when_holding_the_chosen_colour_of_a_wild_on_top() -> None:
    game = make_game([["W", "Y2", "Y7"], ["W+4", "G1", "G4"], ["Y3", "Y4", "Y8"]], ["G9", *PILE[1:]])
    draw(game, 1)  # B1: not playable on G9
    draw(game, 2)  # B2
    play(game, 0, "W", "G")
    play(game, 1, "W+4", "R")
    events = game.apply(Action.challenge(2))
    assert any(isinstance(e, Challenged) and e.guilty for e in events)


def test_drawing_instead_of_challenging() -> None:
    game = make_game([["Y1", "Y2", "Y7"], ["W+4", "R1", "G4"], ["Y3", "Y4", "Y8"]], PILE)
    play(game, 1, "W+4", "B")
    events = draw(game, 2)
    assert Drew(2, 4, tuple(cards("B1 B2 B3 B4")), "penalty") in events
    assert game.current == 0
    with pytest.raises(IllegalAction):
        game.apply(Action.challenge(2))


def test_only_the_player_facing_it_challenges() -> None:
    game = make_game([["Y1", "Y2", "Y7"], ["W+4", "R1", "G4"], ["Y3", "Y4", "Y8"]], PILE)
    play(game, 1, "W+4", "B")
    before = snapshot(game)
    with raises_code(IllegalAction, "move.not_your_turn"):
        game.apply(Action.challenge(0))
    assert snapshot(game) == before


def test_no_challenge_on_a_plus_two() -> None:
    game = make_game([["Y1", "Y2", "Y7"], ["R+2", "R1", "G4"], ["Y3", "Y4", "Y8"]], PILE)
    play(game, 1, "R+2")
    assert not game.challengeable
    with raises_code(IllegalAction, "move.nothing_to_challenge"):
        game.apply(Action.challenge(2))


def test_not_challengeable_after_a_w4_stack() -> None:
    game = make_game([["Y1", "Y2", "Y7"], ["W+4", "R1", "G4"], ["W+4", "B4", "B8"]], PILE, stack_draw_four=True)
    play(game, 1, "W+4", "B")
    events = play(game, 2, "W+4", "G")  # answering with a stack gives up the challenge
    assert PenaltyPending(0, 8, False) in events
    assert not game.challengeable
    assert Action.challenge(0) not in game.legal_actions(0)
    before = snapshot(game)
    with pytest.raises(IllegalAction):
        game.apply(Action.challenge(0))
    assert snapshot(game) == before


def test_not_challengeable_w4_answering_a_plus_two() -> None:
    game = make_game([["Y1", "Y2", "Y7"], ["R+2", "R1", "G4"], ["W+4", "R4", "B8"]], PILE, stack_mixed=True)
    play(game, 1, "R+2")
    play(game, 2, "W+4", "G")  # guilty by colour, but it answered a penalty
    assert (game.current, game.penalty, game.challengeable) == (0, 6, False)
    with pytest.raises(IllegalAction):
        game.apply(Action.challenge(0))


def test_shown_hand_in_the_challengers_view_only() -> None:
    game = make_game([["Y1", "Y2", "Y7"], ["W+4", "R1", "G4"], ["Y3", "Y4", "B8"]], PILE)
    play(game, 1, "W+4", "B")
    events = game.apply(Action.challenge(2))
    assert game.view(2).shown_hand == (1, tuple(cards("R1 G4")))
    assert game.view(0).shown_hand is None
    assert game.view(None).shown_hand is None
    challenged = next(e for e in events if isinstance(e, Challenged))
    assert redact(challenged, 0) == dataclasses.replace(challenged, hand=None)
    assert redact(challenged, 2) == challenged
    # the hand is shown until the next turn action
    play(game, 2, "B8")
    assert game.view(2).shown_hand is None


def test_shown_hand_after_an_innocent_challenge() -> None:
    game = make_game([["Y1", "Y2", "Y7"], ["W+4", "G1", "G4"], ["Y3", "Y4", "B8"]], PILE)
    play(game, 1, "W+4", "B")
    game.apply(Action.challenge(2))
    assert game.view(2).shown_hand == (1, tuple(cards("G1 G4")))
    assert game.view(0).shown_hand is None


def test_challenge_off_no_challenge() -> None:
    game = make_game(
        [["Y1", "Y2", "Y7"], ["W+4", "R1", "G4"], ["Y3", "Y4", "Y8"]], PILE, challenge_wild_draw_four=False
    )
    events = play(game, 1, "W+4", "B")
    assert PenaltyPending(2, 4, False) in events
    assert not game.challengeable
    assert set(game.legal_actions(2)) == {Action.draw(2)}
    before = snapshot(game)
    with raises_code(IllegalAction, "move.challenge_off"):
        game.apply(Action.challenge(2))
    assert snapshot(game) == before
    draw(game, 2)
    assert len(game.hands[2]) == 7


def test_challenge_off_no_restriction() -> None:
    game = make_game([["Y1", "Y2"], ["W+4", "R1"], ["Y3", "Y4"]], PILE, challenge_wild_draw_four=False)
    assert game.problem(Action.play(1, C("W+4"), color=parse_color("R"))) is None


def test_challengeable_w4_played_after_a_draw() -> None:
    game = make_game([["Y1", "Y2", "Y7"], ["R1", "G4", "G5"], ["Y3", "Y4", "Y8"]], ["R9", "W+4", *PILE[1:]])
    draw(game, 1)
    assert game.phase is Phase.DRAWN
    play(game, 1, "W+4", "G")
    events = game.apply(Action.challenge(2))
    assert any(isinstance(e, Challenged) and e.guilty for e in events)
    assert game.current == 2
