"""RULES.md: a turn (playability, drawing, reshuffles) and the effects of each card."""

from __future__ import annotations

import pytest

from codes import raises_code
from unomas import Action, DealError, Game, IllegalAction, Phase
from unomas.cards import COLOR_OF, parse_card, parse_color
from unomas.events import (
    DirectionChanged,
    Drew,
    Passed,
    PenaltyPending,
    Played,
    Reshuffled,
    Skipped,
)
from unomas.testing import cards, draw, hand, make_full_game, make_game, play, snapshot, tokens

C = parse_card

# ---------------------------------------------------------------- playability


def test_colour_in_play_is_the_top_cards_colour() -> None:
    game = make_game([["G1", "G2"], ["Y3", "G4"], ["G5", "G6"]], ["Y9"])
    assert game.color == parse_color("Y")
    play(game, 1, "Y3")
    assert game.color == parse_color("Y")


@pytest.mark.parametrize(
    ("token", "playable"),
    [
        ("R1", True),  # colour
        ("RS", True),  # colour, action card
        ("G7", True),  # rank
        ("B7", True),  # rank
        ("W", True),  # wild
        ("W+4", True),  # wild draw four, on any normal turn
        ("G1", False),
        ("BS", False),
        ("Y+2", False),
    ],
)
def test_playable_on_a_number(token: str, playable: bool) -> None:
    game = make_game([["G2", "G3"], [token, "Y5"], ["G5", "G6"]], ["R7"])
    action = Action.play(1, C(token), color=0 if token.startswith("W") else None)
    assert (game.problem(action) is None) is playable
    assert (action in game.legal_actions(1)) is playable


@pytest.mark.parametrize(("token", "playable"), [("GS", True), ("BS", True), ("B1", False), ("BR", False)])
def test_playable_on_an_action_card_by_symbol(token: str, playable: bool) -> None:
    game = make_game([["G2", "G3"], ["G4", "Y5"], [token, "Y6"]], ["GS"])
    assert game.current == 2
    assert (game.problem(Action.play(2, C(token))) is None) is playable


def test_playable_on_a_wild_is_the_chosen_colour_only() -> None:
    game = make_game([["G2", "G3"], ["W", "Y5"], ["B5", "R5"]], ["R7"])
    play(game, 1, "W", "B")
    assert game.color == parse_color("B")
    assert game.problem(Action.play(2, C("B5"))) is None
    assert game.problem(Action.play(2, C("R5"))) is not None


def test_wild_may_choose_the_current_colour() -> None:
    game = make_game([["G2", "G3"], ["W", "Y5"], ["R1", "B5"]], ["R7"])
    events = play(game, 1, "W", "R")
    assert Played(1, C("W"), parse_color("R"), None, False, False) in events
    assert game.color == parse_color("R")
    assert game.problem(Action.play(2, C("R1"))) is None


def test_unplayable_card_is_refused_and_changes_nothing() -> None:
    game = make_game([["G2", "G3"], ["B1", "Y5"], ["G5", "G6"]], ["R7"])
    before = snapshot(game)
    with raises_code(IllegalAction, "move.does_not_match"):
        play(game, 1, "B1")
    assert snapshot(game) == before


def test_may_draw_while_holding_a_playable_card() -> None:
    game = make_game([["G2", "G3"], ["R1", "Y5"], ["G5", "G6"]], ["R7", "B2"])
    events = draw(game, 1)
    assert Drew(1, 1, (C("B2"),), "turn") in events
    assert game.current == 2
    assert hand(game, 1) == sorted(["R1", "Y5", "B2"])


# ---------------------------------------------------------------- drawing


def test_draw_one_unplayable_card_ends_the_turn() -> None:
    game = make_game([["G2", "G3"], ["B1", "Y5"], ["G5", "G6"]], ["R7", "B2", "R3"])
    events = draw(game, 1)
    assert Drew(1, 1, (C("B2"),), "turn") in events
    assert game.phase is Phase.TURN and game.current == 2
    assert len(game.hands[1]) == 3


def test_drawn_playable_card_may_be_played() -> None:
    game = make_game([["G2", "G3"], ["B1", "Y5"], ["G5", "G6"]], ["R7", "R3"])
    draw(game, 1)
    assert (game.phase, game.current) == (Phase.DRAWN, 1)
    assert game.view(1).drawn == C("R3")
    assert set(game.legal_actions(1)) == {Action.play(1, C("R3")), Action.pass_(1)}
    play(game, 1, "R3")
    assert hand(game, 1) == sorted(["B1", "Y5"])
    assert game.current == 2


def test_drawn_playable_card_may_be_kept_by_passing() -> None:
    game = make_game([["G2", "G3"], ["B1", "Y5"], ["G5", "G6"]], ["R7", "R3"])
    draw(game, 1)
    events = game.apply(Action.pass_(1))
    assert Passed(1) in events
    assert hand(game, 1) == sorted(["B1", "Y5", "R3"])


def test_after_drawing_only_the_drawn_card_may_be_played() -> None:
    game = make_game([["G2", "G3"], ["R1", "Y5"], ["G5", "G6"]], ["R7", "R3"])
    draw(game, 1)
    before = snapshot(game)
    with raises_code(IllegalAction, "move.only_drawn_card"):
        play(game, 1, "R1")
    with pytest.raises(IllegalAction):
        draw(game, 1)
    assert snapshot(game) == before


def test_drawn_wild_may_be_played() -> None:
    game = make_game([["G2", "G3"], ["B1", "Y5"], ["G5", "G6"]], ["R7", "W"])
    draw(game, 1)
    assert game.phase is Phase.DRAWN
    play(game, 1, "W", "G")
    assert game.color == parse_color("G")


def test_pass_only_after_a_playable_draw() -> None:
    game = make_game([["G2", "G3"], ["B1", "Y5"], ["G5", "G6"]], ["R7", "B2"])
    with raises_code(IllegalAction, "move.pass_not_allowed"):
        game.apply(Action.pass_(1))
    draw(game, 1)  # B2 is not playable: the turn is over
    with pytest.raises(IllegalAction):
        game.apply(Action.pass_(1))


def test_force_play_drawn_on_forbids_passing() -> None:
    game = make_game([["G2", "G3"], ["B1", "Y5"], ["G5", "G6"]], ["R7", "R3"], force_play_drawn=True)
    draw(game, 1)
    assert game.legal_actions(1) == [Action.play(1, C("R3"))]
    before = snapshot(game)
    with raises_code(IllegalAction, "move.must_play_drawn"):
        game.apply(Action.pass_(1))
    assert snapshot(game) == before
    play(game, 1, "R3")
    assert game.current == 2


def test_force_play_drawn_on_unplayable_draw_ends_turn() -> None:
    game = make_game([["G2", "G3"], ["B1", "Y5"], ["G5", "G6"]], ["R7", "B3"], force_play_drawn=True)
    draw(game, 1)
    assert (game.phase, game.current) == (Phase.TURN, 2)


def test_draw_until_playable_off_draws_one() -> None:
    game = make_game([["G2", "G3"], ["B1", "Y5"], ["G5", "G6"]], ["R7", "B2", "B3", "R3"])
    events = draw(game, 1)
    assert Drew(1, 1, (C("B2"),), "turn") in events
    assert game.current == 2


def test_draw_until_playable_on_keeps_drawing() -> None:
    game = make_game(
        [["G2", "G3"], ["B1", "Y5"], ["G5", "G6"]], ["R7", "B2", "B3", "R3", "R4"], draw_until_playable=True
    )
    events = draw(game, 1)
    assert Drew(1, 3, tuple(cards("B2 B3 R3")), "turn") in events
    assert (game.phase, game.current) == (Phase.DRAWN, 1)
    assert hand(game, 1) == sorted(["B1", "Y5", "B2", "B3", "R3"])
    game.apply(Action.pass_(1))
    assert game.current == 2
    assert hand(game, 1) == sorted(["B1", "Y5", "B2", "B3", "R3"])


def test_draw_until_playable_with_force_play_drawn() -> None:
    game = make_game(
        [["G2", "G3"], ["B1", "Y5"], ["G5", "G6"]],
        ["R7", "B2", "G7"],
        draw_until_playable=True,
        force_play_drawn=True,
    )
    draw(game, 1)
    assert game.legal_actions(1) == [Action.play(1, C("G7"))]
    play(game, 1, "G7")
    assert game.color == parse_color("G")


def _draw_through(game: Game, count: int) -> None:
    """The players on turn draw ``count`` times, passing on a playable card."""
    for _ in range(count):
        seat = game.current
        draw(game, seat)
        if game.phase is Phase.DRAWN:
            game.apply(Action.pass_(seat))


# 2 × 49 cards dealt: the pile is the starting card and 9 cards that don't fit a B1.
_NINE = ["R0", "Y0", "G0", "R2", "R2", "Y2", "Y2", "G2", "G2"]


def test_reshuffle_when_the_pile_is_empty() -> None:
    game = make_full_game(2, ["B9", *_NINE], [["B1"], ["W"]])
    play(game, 1, "W", "B")
    play(game, 0, "B1")
    _draw_through(game, 9)
    assert game.pile == [] and tokens(game.discard) == ["B9", "W", "B1"]
    seat = game.current
    events = game.apply(Action.draw(seat), reshuffle=cards("W B9"))
    assert Reshuffled(2, tuple(cards("W B9"))) in events
    assert Drew(seat, 1, (C("W"),), "turn") in events
    assert tokens(game.discard) == ["B1"]
    assert tokens(game.pile) == ["B9"]
    # the W lost its chosen colour: it is a plain wild again, playable with any colour
    assert game.phase is Phase.DRAWN and game.color == parse_color("B")
    play(game, seat, "W", "G")
    assert game.color == parse_color("G")


def test_reshuffle_uses_the_games_shuffle() -> None:
    game = make_full_game(2, ["B9", *_NINE], [["B1", "B2"], ["W", "B3"]])
    play(game, 1, "W", "B")
    play(game, 0, "B1")
    play(game, 1, "B3")
    play(game, 0, "B2")
    _draw_through(game, 9)
    events = draw(game, game.current)
    shuffled = [e for e in events if isinstance(e, Reshuffled)]
    assert len(shuffled) == 1 and len(shuffled[0].pile or ()) == 4
    assert tokens(game.discard) == ["B2"]
    drew = next(e for e in events if isinstance(e, Drew))
    assert sorted(tokens(game.pile) + tokens(drew.cards or ())) == sorted(["B9", "W", "B1", "B3"])


def test_reshuffle_order_must_be_the_discard_less_top() -> None:
    game = make_full_game(2, ["B9", *_NINE], [["B1"], ["W"]])
    play(game, 1, "W", "B")
    play(game, 0, "B1")
    _draw_through(game, 9)
    before = snapshot(game)
    with pytest.raises(DealError):
        game.apply(Action.draw(game.current), reshuffle=cards("W B1"))
    assert snapshot(game) == before


# 3 × 33 cards dealt: the pile is the starting card and 8 cards that don't fit a G9.
_EIGHT = ["R0", "Y0", "B0", "R1", "R1", "Y1", "Y1", "B1"]


def test_running_out_of_cards_entirely() -> None:
    game = make_full_game(3, ["G9", *_EIGHT], draw_until_playable=True)
    events = draw(game, 1)
    assert Drew(1, 8, tuple(cards(" ".join(_EIGHT))), "turn") in events
    assert not any(isinstance(e, Reshuffled) for e in events)
    assert (game.current, game.phase, game.pile) == (2, Phase.TURN, [])
    events = draw(game, 2)
    assert Drew(2, 0, (), "turn") in events
    assert (game.current, len(game.hands[2])) == (0, 33)


def test_running_out_one_card_at_a_time() -> None:
    game = make_full_game(3, ["G9", *_EIGHT])
    _draw_through(game, 8)
    seat = game.current
    events = draw(game, seat)
    assert Drew(seat, 0, (), "turn") in events
    assert game.current == (seat + 1) % 3


def test_penalty_takes_what_is_left() -> None:
    game = make_full_game(3, ["G9", *_EIGHT], [[], [], ["G+2"]], draw_until_playable=True)
    draw(game, 1)  # takes all eight
    play(game, 2, "G+2")
    events = draw(game, 0)  # only the G9 under the top can be shuffled in
    assert Reshuffled(1, (C("G9"),)) in events
    assert Drew(0, 1, (C("G9"),), "penalty") in events
    assert (game.current, game.penalty, game.phase) == (1, 0, Phase.TURN)


# ---------------------------------------------------------------- card effects


def test_skip_skips_the_next_player() -> None:
    game = make_game([["G1", "G2"], ["RS", "G4"], ["G5", "G6"]], ["R9"])
    events = play(game, 1, "RS")
    assert Skipped(2) in events and game.current == 0
    assert game.current == 0


def test_skip_with_two_players_plays_again() -> None:
    game = make_game([["G1", "G2"], ["RS", "G4"]], ["R9"])
    play(game, 1, "RS")
    assert game.current == 1


def test_reverse_flips_the_direction() -> None:
    game = make_game([["R1", "G2"], ["RR", "G4"], ["G5", "G6"], ["G7", "G8"]], ["R9"])
    events = play(game, 1, "RR")
    assert DirectionChanged(-1) in events
    assert (game.direction, game.current) == (-1, 0)
    play(game, 0, "R1")
    assert game.current == 3


def test_reverse_twice_restores_clockwise() -> None:
    game = make_game([["RR", "G2"], ["RR", "G4"], ["G5", "G6"]], ["R9"])
    play(game, 1, "RR")
    assert game.current == 0
    play(game, 0, "RR")
    assert (game.direction, game.current) == (1, 1)


def test_reverse_with_two_players_acts_as_skip() -> None:
    game = make_game([["G1", "G2"], ["RR", "G4"]], ["R9"])
    events = play(game, 1, "RR")
    assert Skipped(0) in events
    assert game.current == 1
    assert game.phase is Phase.TURN


def test_draw_two_next_player_faces_two() -> None:
    game = make_game([["G1", "G2"], ["R+2", "G4"], ["G5", "G6"]], ["R9", "B1", "B2"])
    events = play(game, 1, "R+2")
    assert PenaltyPending(2, 2, False) in events
    assert (game.current, game.phase, game.penalty) == (2, Phase.PENALTY, 2)
    events = draw(game, 2)
    assert Drew(2, 2, tuple(cards("B1 B2")), "penalty") in events
    assert (game.current, game.phase, game.penalty) == (0, Phase.TURN, 0)
    assert hand(game, 2) == sorted(["G5", "G6", "B1", "B2"])


def test_wild_draw_four_chooses_colour_and_next_faces_four() -> None:
    game = make_game([["G1", "G2"], ["W+4", "G4"], ["G5", "G6"]], ["R9", "B1", "B2", "B3", "B4"])
    events = play(game, 1, "W+4", "Y")
    assert PenaltyPending(2, 4, True) in events
    assert game.color == parse_color("Y")
    draw(game, 2)
    assert hand(game, 2) == sorted(["G5", "G6", "B1", "B2", "B3", "B4"])
    assert game.current == 0


def test_facing_a_penalty_nothing_else_can_be_played() -> None:
    game = make_game([["G1", "G2", "G3"], ["R+2", "G4", "G5"], ["R5", "W", "R+2"]], ["R9"])
    play(game, 1, "R+2")
    assert set(game.legal_actions(2)) == {Action.draw(2)}
    for token, color in (("R5", None), ("W", "R")):
        with raises_code(IllegalAction, "move.penalty_pending"):
            play(game, 2, token, color)


def test_facing_a_penalty_there_is_no_pass() -> None:
    game = make_game([["G1", "G2"], ["R+2", "G4"], ["R5", "W"]], ["R9"])
    play(game, 1, "R+2")
    with pytest.raises(IllegalAction):
        game.apply(Action.pass_(2))


# ---------------------------------------------------------------- stacking


def test_stack_draw_two_off() -> None:
    game = make_game([["G1", "G2"], ["R+2", "G4"], ["B+2", "G6"]], ["R9"])
    play(game, 1, "R+2")
    with raises_code(IllegalAction, "move.stack_not_allowed"):
        play(game, 2, "B+2")


def test_stack_draw_two_on_any_colour_adds_up() -> None:
    game = make_game(
        [["G+2", "G2"], ["R+2", "G4"], ["B+2", "G6"]], ["R9", "B1", "B2", "B3", "B4", "B5", "B6"], stack_draw_two=True
    )
    play(game, 1, "R+2")
    events = play(game, 2, "B+2")
    assert PenaltyPending(0, 4, False) in events
    play(game, 0, "G+2")
    assert (game.current, game.penalty) == (1, 6)
    draw(game, 1)
    assert hand(game, 1) == sorted(["G4", "B1", "B2", "B3", "B4", "B5", "B6"])
    assert game.current == 2


def test_stack_draw_two_does_not_allow_w4() -> None:
    game = make_game([["G1", "G2"], ["R+2", "G4"], ["W+4", "G6"]], ["R9"], stack_draw_two=True)
    play(game, 1, "R+2")
    with raises_code(IllegalAction, "move.stack_not_allowed"):
        play(game, 2, "W+4", "R")


def test_stack_draw_four_off() -> None:
    game = make_game([["G1", "G2"], ["W+4", "G4"], ["W+4", "G6"]], ["R9"])
    play(game, 1, "W+4", "B")
    with raises_code(IllegalAction, "move.stack_not_allowed"):
        play(game, 2, "W+4", "B")


def test_stack_draw_four_on() -> None:
    game = make_game([["G1", "G2"], ["W+4", "G4"], ["W+4", "G6"]], ["R9"], stack_draw_four=True)
    play(game, 1, "W+4", "B")
    events = play(game, 2, "W+4", "Y")
    assert PenaltyPending(0, 8, False) in events
    assert game.color == parse_color("Y")
    draw(game, 0)
    assert len(game.hands[0]) == 10
    assert game.current == 1


def test_stack_draw_four_does_not_allow_plus_two() -> None:
    game = make_game([["G1", "G2"], ["W+4", "G4"], ["B+2", "G6"]], ["R9"], stack_draw_four=True)
    play(game, 1, "W+4", "B")
    with raises_code(IllegalAction, "move.stack_not_allowed"):
        play(game, 2, "B+2")


def test_stack_mixed_off() -> None:
    game = make_game([["G1", "G2"], ["R+2", "G4"], ["W+4", "B+2"]], ["R9"], stack_draw_two=True, stack_draw_four=True)
    play(game, 1, "R+2")
    with raises_code(IllegalAction, "move.stack_not_allowed"):
        play(game, 2, "W+4", "B")


def test_stack_mixed_off_no_plus_two_on_w4() -> None:
    game = make_game([["G1", "G2"], ["W+4", "G4"], ["B+2", "G6"]], ["R9"], stack_draw_two=True)
    play(game, 1, "W+4", "B")
    with raises_code(IllegalAction, "move.stack_not_allowed"):
        play(game, 2, "B+2")


def test_stack_mixed_w4_on_plus_two() -> None:
    game = make_game([["G1", "G2"], ["R+2", "G4"], ["W+4", "G6"]], ["R9"], stack_mixed=True)
    play(game, 1, "R+2")
    events = play(game, 2, "W+4", "G")
    assert PenaltyPending(0, 6, False) in events
    assert not game.challengeable


def test_stack_mixed_plus_two_of_chosen_colour_on_w4() -> None:
    game = make_game([["G1", "G2"], ["W+4", "G4"], ["B+2", "G6"]], ["R9"], stack_mixed=True)
    play(game, 1, "W+4", "B")
    events = play(game, 2, "B+2")
    assert PenaltyPending(0, 6, False) in events


def test_stack_mixed_plus_two_of_another_colour_on_w4_refused() -> None:
    game = make_game([["G1", "G2"], ["W+4", "G4"], ["R+2", "G6"]], ["R9"], stack_mixed=True, stack_draw_two=True)
    play(game, 1, "W+4", "B")
    before = snapshot(game)
    with raises_code(IllegalAction, "move.stack_wrong_color"):
        play(game, 2, "R+2")
    assert snapshot(game) == before


def test_stack_mixed_does_not_allow_w4_on_w4() -> None:
    game = make_game([["G1", "G2"], ["W+4", "G4"], ["W+4", "G6"]], ["R9"], stack_mixed=True)
    play(game, 1, "W+4", "B")
    with raises_code(IllegalAction, "move.stack_not_allowed"):
        play(game, 2, "W+4", "B")


def test_stack_mixed_does_not_allow_plus_two_on_plus_two() -> None:
    game = make_game([["G1", "G2"], ["R+2", "G4"], ["R+2", "G6"]], ["R9"], stack_mixed=True)
    play(game, 1, "R+2")
    with raises_code(IllegalAction, "move.stack_not_allowed"):
        play(game, 2, "R+2")


def test_stack_chain_passes_all_to_the_last() -> None:
    game = make_game(
        [["G1", "G2"], ["R+2", "G4"], ["W+4", "G6"], ["Y+2", "G8"]],
        ["R9"],
        stack_draw_two=True,
        stack_draw_four=True,
        stack_mixed=True,
    )
    play(game, 1, "R+2")
    play(game, 2, "W+4", "Y")
    play(game, 3, "Y+2")
    assert (game.current, game.penalty) == (0, 8)
    draw(game, 0)
    assert len(game.hands[0]) == 10
    assert (game.current, game.penalty, game.phase) == (1, 0, Phase.TURN)


def test_reverse_or_skip_does_not_answer_a_penalty() -> None:
    game = make_game([["G1", "G2"], ["R+2", "G4"], ["RS", "RR"]], ["R9"], stack_draw_two=True, stack_mixed=True)
    play(game, 1, "R+2")
    for token in ("RS", "RR"):
        with pytest.raises(IllegalAction):
            play(game, 2, token)


def test_colour_after_penalty_is_the_draw_cards() -> None:
    game = make_game([["G1", "B2"], ["W+4", "G4"], ["G5", "G6"]], ["R9"])
    play(game, 1, "W+4", "B")
    draw(game, 2)
    assert game.current == 0
    assert game.problem(Action.play(0, C("B2"))) is None
    assert game.problem(Action.play(0, C("G1"))) is not None
    assert COLOR_OF[C("B2")] == game.color


def test_draw_until_playable_on_first_card_playable() -> None:
    game = make_game([["G2", "G3"], ["B1", "Y5"], ["G5", "G6"]], ["R7", "R3", "B3"], draw_until_playable=True)
    events = draw(game, 1)
    assert Drew(1, 1, (C("R3"),), "turn") in events
    assert game.phase is Phase.DRAWN
