"""RULES.md: UNO, the 7-0 rule (``seven_zero``) and jump-in (``jump_in``)."""

from __future__ import annotations

import pytest

from codes import raises_code
from unomas import Action, Game, IllegalAction, Kind, Phase
from unomas.cards import parse_card
from unomas.events import (
    Caught,
    Drew,
    HandsPassed,
    HandsSwapped,
    PenaltyPending,
    Played,
    Skipped,
    UnoCalled,
)
from unomas.testing import cards, draw, hand, make_game, play, snapshot

C = parse_card

# ---------------------------------------------------------------- UNO


def _two_cards(**settings: bool) -> Game:
    """Three seats with two cards each; seat 1 is on turn over R9 and holds R3 G5."""
    return make_game([["R1", "G2"], ["R3", "G5"], ["R4", "G6"]], ["R9", "B1", "B2", "B3"], **settings)


def test_uno_called_with_the_play() -> None:
    game = _two_cards()
    events = play(game, 1, "R3", uno=True)
    assert Played(1, C("R3"), None, None, True, False) in events
    assert UnoCalled(1) in events
    assert game.uno_pending is None
    with raises_code(IllegalAction, "move.not_catchable"):
        game.apply(Action.catch(2, 1))


def test_a_catch_naming_no_one_says_whether_anyone_could_be_caught() -> None:
    game = _two_cards()
    with raises_code(IllegalAction, "move.nobody_to_catch"):
        game.apply(Action(2, Kind.CATCH))
    play(game, 1, "R3")  # no UNO: seat 1 may be caught
    with raises_code(IllegalAction, "move.catch_needs_target"):
        game.apply(Action(2, Kind.CATCH))


def test_uno_play_variants_are_offered() -> None:
    game = _two_cards()
    assert Action.play(1, C("R3"), uno=True) in game.legal_actions(1)
    assert Action.play(1, C("R3")) in game.legal_actions(1)


def test_uno_not_called_may_be_caught() -> None:
    game = _two_cards()
    events = play(game, 1, "R3")
    assert not any(isinstance(e, UnoCalled) for e in events)
    assert game.uno_pending == 1
    assert game.view(0).uno_pending == 1
    assert Action.catch(0, 1) in game.legal_actions(0)
    assert Action.catch(2, 1) in game.legal_actions(2)
    assert Action.call_uno(1) in game.legal_actions(1)
    events = game.apply(Action.catch(0, 1))
    assert Caught(0, 1) in events
    assert Drew(1, 2, tuple(cards("B1 B2")), "caught") in events
    assert hand(game, 1) == sorted(["G5", "B1", "B2"])
    # a catch is not a turn action: seat 2 is still on turn
    assert (game.current, game.phase) == (2, Phase.TURN)


def test_caught_obligation_ends() -> None:
    game = _two_cards()
    play(game, 1, "R3")
    game.apply(Action.catch(2, 1))
    assert game.uno_pending is None
    before = snapshot(game)
    with pytest.raises(IllegalAction):
        game.apply(Action.catch(0, 1))
    with pytest.raises(IllegalAction):
        game.apply(Action.call_uno(1))
    assert snapshot(game) == before


def test_late_uno_call() -> None:
    game = _two_cards()
    play(game, 1, "R3")
    events = game.apply(Action.call_uno(1))
    assert events == [UnoCalled(1)]
    assert game.uno_pending is None
    assert game.current == 2
    with raises_code(IllegalAction, "move.not_catchable"):
        game.apply(Action.catch(0, 1))


@pytest.mark.parametrize("turn_action", ["play", "draw"])
def test_obligation_ends_at_the_next_turn_action(turn_action: str) -> None:
    game = _two_cards()
    play(game, 1, "R3")
    if turn_action == "play":
        play(game, 2, "R4")
    else:
        draw(game, 2)
    assert game.uno_pending == (2 if turn_action == "play" else None)  # a play may oblige its own player
    with raises_code(IllegalAction, "move.not_catchable"):
        game.apply(Action.catch(0, 1))
    with raises_code(IllegalAction, "move.no_uno"):
        game.apply(Action.call_uno(1))


def test_obligation_ends_at_a_challenge() -> None:
    game = make_game([["R1", "G2"], ["W+4", "G5"], ["B4", "G6"]], ["R9", "B1", "B2", "B3", "B4"])
    play(game, 1, "W+4", "B")
    assert game.uno_pending == 1
    game.apply(Action.challenge(2))
    assert game.uno_pending is None
    with raises_code(IllegalAction, "move.not_catchable"):
        game.apply(Action.catch(0, 1))


def test_obligation_survives_other_out_of_turn_actions() -> None:
    game = make_game([["R1", "G2"], ["R3", "G5"], ["R4", "G6"]], ["R9", "B1", "B2"])
    play(game, 1, "R3")
    assert game.uno_pending == 1
    with pytest.raises(IllegalAction):
        game.apply(Action.call_uno(0))
    assert game.uno_pending == 1


def test_uno_with_a_play_that_leaves_more_cards_is_illegal() -> None:
    game = make_game([["R1", "G2", "G3"], ["R3", "G5", "G7"], ["R4", "G6", "G8"]], ["R9"])
    before = snapshot(game)
    with raises_code(IllegalAction, "move.uno_not_allowed"):
        play(game, 1, "R3", uno=True)
    assert snapshot(game) == before


def test_uno_with_the_last_card_is_illegal() -> None:
    game = make_game([["R1"], ["R3"], ["R4"]], ["R9"])
    with raises_code(IllegalAction, "move.uno_not_allowed"):
        play(game, 1, "R3", uno=True)


def test_uno_call_without_obligation_is_illegal() -> None:
    game = _two_cards()
    before = snapshot(game)
    with raises_code(IllegalAction, "move.no_uno"):
        game.apply(Action.call_uno(1))
    with raises_code(IllegalAction, "move.not_catchable"):
        game.apply(Action.catch(0, 1))
    assert snapshot(game) == before


def test_catch_after_a_called_uno_is_illegal_and_no_self_catch() -> None:
    game = _two_cards()
    play(game, 1, "R3")
    before = snapshot(game)
    with raises_code(IllegalAction, "move.catch_self"):
        game.apply(Action.catch(1, 1))
    with pytest.raises(IllegalAction):
        game.apply(Action.catch(0, 2))
    assert snapshot(game) == before


def test_obligation_after_playing_twice_in_a_row() -> None:
    game = make_game([["R1", "G2", "G3"], ["RS", "R5", "G7"]], ["R9"])
    play(game, 1, "RS")  # two players: seat 1 plays again
    play(game, 1, "R5")
    assert game.uno_pending == 1


# ---------------------------------------------------------------- seven_zero


def test_seven_zero_off_seven_and_zero_are_plain() -> None:
    game = make_game([["R1", "G2", "G3"], ["R7", "G5", "G7"], ["R0", "G6", "G8"]], ["R9"])
    with raises_code(IllegalAction, "move.card_takes_no_target"):
        play(game, 1, "R7", target=2)
    play(game, 1, "R7")
    play(game, 2, "R0")
    assert hand(game, 1) == sorted(["G5", "G7"])
    assert hand(game, 2) == sorted(["G6", "G8"])
    assert hand(game, 0) == sorted(["R1", "G2", "G3"])


def test_seven_swaps_hands() -> None:
    game = make_game([["R1", "G2", "G3"], ["R7", "G5", "G7"], ["R0", "Y6", "G8"]], ["R9"], seven_zero=True)
    events = play(game, 1, "R7", target=0)
    assert HandsSwapped(1, 0) in events
    assert hand(game, 1) == sorted(["R1", "G2", "G3"])
    assert hand(game, 0) == sorted(["G5", "G7"])
    assert hand(game, 2) == sorted(["R0", "Y6", "G8"])
    assert game.current == 2


def test_seven_needs_a_target() -> None:
    game = make_game([["R1", "G2", "G3"], ["R7", "G5", "G7"], ["R0", "Y6", "G8"]], ["R9"], seven_zero=True)
    before = snapshot(game)
    for target, code in (
        (None, "move.needs_target"),
        (1, "move.needs_target"),
        (3, "move.bad_target"),
        (-1, "move.bad_target"),
    ):
        with raises_code(IllegalAction, code):
            play(game, 1, "R7", target=target)
    assert snapshot(game) == before
    targets = {a.target for a in game.legal_actions(1) if a.card == C("R7")}
    assert targets == {0, 2}


def test_zero_passes_hands_in_the_current_direction() -> None:
    game = make_game(
        [["R1", "G2", "G3"], ["R0", "G5", "G7"], ["Y6", "Y8", "B8"], ["B1", "B2", "B3"]], ["R9"], seven_zero=True
    )
    events = play(game, 1, "R0")
    assert HandsPassed(1) in events
    assert hand(game, 2) == sorted(["G5", "G7"])
    assert hand(game, 3) == sorted(["Y6", "Y8", "B8"])
    assert hand(game, 0) == sorted(["B1", "B2", "B3"])
    assert hand(game, 1) == sorted(["R1", "G2", "G3"])
    assert game.current == 2


def test_zero_passes_hands_counter_clockwise_after_a_reverse() -> None:
    game = make_game(
        [["R1", "G2", "G3"], ["R0", "G5", "G7"], ["Y6", "Y8", "B8"], ["B1", "B2", "B3"]],
        ["RR", "Y4", "B4"],
        seven_zero=True,
    )
    assert (game.current, game.direction) == (3, -1)
    draw(game, 3)  # Y4 does not fit RR
    draw(game, 2)  # B4 neither
    assert game.current == 1
    events = play(game, 1, "R0")
    assert HandsPassed(-1) in events
    assert hand(game, 0) == sorted(["G5", "G7"])
    assert hand(game, 1) == sorted(["Y6", "Y8", "B8", "B4"])
    assert hand(game, 2) == sorted(["B1", "B2", "B3", "Y4"])
    assert hand(game, 3) == sorted(["R1", "G2", "G3"])
    assert game.current == 0


def test_uno_counts_the_hand_after_a_seven_swap() -> None:
    game = make_game([["R3", "B4"], ["R7", "G1"], ["Y1", "Y2"]], ["R9", "B8", "B6"], seven_zero=True)
    draw(game, 1)  # B8: seat 1 holds R7 G1 B8
    draw(game, 2)  # B6
    play(game, 0, "R3", uno=True)  # seat 0 holds B4
    assert Action.play(1, C("R7"), target=0, uno=True) in game.legal_actions(1)
    with raises_code(IllegalAction, "move.uno_not_allowed"):
        play(game, 1, "R7", target=2, uno=True)
    play(game, 1, "R7", target=0)
    assert hand(game, 1) == ["B4"]
    assert hand(game, 0) == sorted(["G1", "B8"])
    assert game.uno_pending == 1
    game.apply(Action.catch(2, 1))
    assert len(game.hands[1]) == 3


def test_uno_called_with_a_seven_swap() -> None:
    game = make_game([["R3", "B4"], ["R7", "G1"], ["Y1", "Y2"]], ["R9", "B8", "B6"], seven_zero=True)
    draw(game, 1)
    draw(game, 2)
    play(game, 0, "R3", uno=True)
    events = play(game, 1, "R7", target=0, uno=True)
    assert UnoCalled(1) in events
    assert game.uno_pending is None


def test_no_uno_when_a_swap_leaves_more_cards() -> None:
    game = make_game([["R3", "B4"], ["R7", "G1"], ["Y1", "Y2"]], ["R9"], seven_zero=True)
    with raises_code(IllegalAction, "move.uno_not_allowed"):
        play(game, 1, "R7", target=2, uno=True)
    play(game, 1, "R7", target=2)
    assert hand(game, 1) == sorted(["Y1", "Y2"])
    assert hand(game, 2) == ["G1"]
    assert game.uno_pending is None  # the target is not obliged


def test_uno_counts_the_hand_after_a_zero_pass() -> None:
    game = make_game([["R3", "B4"], ["R0", "G1"], ["Y1", "Y2"]], ["R9", "B8", "B6"], seven_zero=True)
    draw(game, 1)  # B8
    draw(game, 2)  # B6
    play(game, 0, "R3", uno=True)
    assert Action.play(1, C("R0"), uno=True) in game.legal_actions(1)
    play(game, 1, "R0")
    assert hand(game, 1) == ["B4"]
    assert hand(game, 2) == sorted(["G1", "B8"])
    assert hand(game, 0) == sorted(["Y1", "Y2", "B6"])
    assert game.uno_pending == 1


def test_no_uno_when_a_zero_pass_leaves_more_cards() -> None:
    game = make_game([["R3", "B4"], ["R0", "G1"], ["Y1", "Y2"]], ["R9"], seven_zero=True)
    with raises_code(IllegalAction, "move.uno_not_allowed"):
        play(game, 1, "R0", uno=True)
    play(game, 1, "R0")
    assert hand(game, 1) == sorted(["R3", "B4"])
    assert game.uno_pending is None


def test_last_seven_names_its_target_but_has_no_effect() -> None:
    game = make_game([["R3"], ["R7"], ["Y1"]], ["R9"], seven_zero=True, target_score=0)
    with raises_code(IllegalAction, "move.needs_target"):
        play(game, 1, "R7")
    events = play(game, 1, "R7", target=2)
    assert not any(isinstance(e, HandsSwapped) for e in events)
    assert game.hands[1] == [] and hand(game, 2) == ["Y1"]
    assert game.phase is Phase.MATCH_OVER


def test_last_zero_has_no_effect() -> None:
    game = make_game([["R3"], ["R0"], ["Y1"]], ["R9"], seven_zero=True, target_score=0)
    events = play(game, 1, "R0")
    assert not any(isinstance(e, HandsPassed) for e in events)
    assert game.hands[1] == [] and hand(game, 2) == ["Y1"] and hand(game, 0) == ["R3"]


# ---------------------------------------------------------------- jump-in


def test_jump_in_off() -> None:
    game = make_game([["R9", "G2"], ["R3", "G5"], ["R4", "G6"]], ["R9"])
    assert all(a.kind.value != "play" for a in game.legal_actions(0))
    before = snapshot(game)
    with raises_code(IllegalAction, "move.not_your_turn"):
        play(game, 0, "R9")
    assert snapshot(game) == before


def test_jump_in_with_an_identical_card() -> None:
    game = make_game([["R1", "G2"], ["R3", "G5"], ["R9", "G6"]], ["R9", "B1"], jump_in=True)
    assert game.current == 1
    assert Action.play(2, C("R9")) in game.legal_actions(2)
    events = play(game, 2, "R9")  # the starting card counts
    assert Played(2, C("R9"), None, None, False, True) in events
    assert hand(game, 2) == ["G6"]
    assert game.current == 0  # play goes on from the player who jumped in
    assert hand(game, 1) == sorted(["R3", "G5"])


def test_jump_in_by_the_player_of_the_top_card() -> None:
    game = make_game([["R1", "G2", "G3"], ["R5", "R5", "G5"], ["Y4", "G6", "G8"]], ["R9"], jump_in=True)
    play(game, 1, "R5")
    assert game.current == 2
    play(game, 1, "R5")
    assert game.current == 2
    assert hand(game, 1) == ["G5"]


def test_jump_in_needs_an_identical_card() -> None:
    game = make_game([["R1", "G9"], ["R3", "G5"], ["R8", "B6"]], ["R9"], jump_in=True)
    before = snapshot(game)
    for seat, token in ((0, "G9"), (0, "R1"), (2, "R8")):
        with raises_code(IllegalAction, "move.jump_in_not_identical"):
            play(game, seat, token)
    assert snapshot(game) == before
    assert game.legal_actions(0) == []


def test_jump_in_never_with_a_wild() -> None:
    game = make_game([["W", "G2", "G3"], ["W", "G5", "G7"], ["W+4", "G6", "G8"]], ["R9"], jump_in=True)
    play(game, 1, "W", "R")
    assert game.current == 2
    with pytest.raises(IllegalAction):
        play(game, 0, "W", "R")
    assert game.legal_actions(0) == []


def test_jump_in_never_on_a_wild_draw_four() -> None:
    game = make_game(
        [["W+4", "G2", "G3"], ["W+4", "G5", "G7"], ["Y6", "G6", "G8"]], ["R9"], jump_in=True, stack_draw_four=True
    )
    play(game, 1, "W+4", "R")
    with pytest.raises(IllegalAction):
        play(game, 0, "W+4", "R")


def test_jump_in_on_a_pending_plus_two_without_stacking() -> None:
    game = make_game([["R+2", "G2", "G3"], ["R+2", "G5", "G7"], ["Y6", "G6", "G8"]], ["R9"], jump_in=True)
    play(game, 1, "R+2")
    assert game.legal_actions(0) == []
    before = snapshot(game)
    with raises_code(IllegalAction, "move.stack_not_allowed"):
        play(game, 0, "R+2")
    assert snapshot(game) == before


def test_jump_in_on_a_pending_plus_two_with_stacking() -> None:
    game = make_game(
        [["R+2", "G2", "G3"], ["R+2", "G5", "G7"], ["Y6", "G6", "G8"]],
        ["R9", "B1", "B2", "B3", "B4"],
        jump_in=True,
        stack_draw_two=True,
    )
    play(game, 1, "R+2")
    events = play(game, 0, "R+2")
    assert PenaltyPending(1, 4, False) in events
    assert (game.current, game.penalty) == (1, 4)
    draw(game, 1)
    assert hand(game, 1) == sorted(["G5", "G7", "B1", "B2", "B3", "B4"])
    assert hand(game, 2) == sorted(["Y6", "G6", "G8"])
    assert game.current == 2


def test_jump_in_on_a_plus_two_whose_penalty_was_drawn() -> None:
    game = make_game([["Y1", "G2", "G3"], ["R+2", "R+2", "G7"], ["Y6", "G6", "G8"]], ["R9", "B1", "B2"], jump_in=True)
    play(game, 1, "R+2")
    assert game.legal_actions(1) == []
    draw(game, 2)
    assert game.current == 0
    events = play(game, 1, "R+2")  # now a normal turn is judged: it is a legal play
    assert PenaltyPending(2, 2, False) in events


def test_jump_in_while_deciding_about_a_drawn_card() -> None:
    game = make_game([["R1", "G2"], ["B3", "G5"], ["R9", "G6"]], ["R9", "R4"], jump_in=True)
    draw(game, 1)  # R4, playable
    assert game.phase is Phase.DRAWN
    play(game, 2, "R9")
    assert hand(game, 1) == sorted(["B3", "G5", "R4"])  # keeps the drawn card
    assert (game.current, game.phase) == (0, Phase.TURN)
    assert game.view(1).drawn is None


def test_jump_in_with_a_skip_goes_on_from_the_jumper() -> None:
    game = make_game([["R1", "G2"], ["RS", "G5"], ["Y7", "G6"], ["RS", "G8"]], ["R9"], jump_in=True)
    play(game, 1, "RS")
    assert game.current == 3
    events = play(game, 3, "RS")
    assert Skipped(0) in events
    assert game.current == 1


def test_jump_in_ends_an_uno_obligation() -> None:
    game = make_game([["R1", "G2"], ["R3", "G5"], ["R3", "G6"]], ["R9"], jump_in=True)
    play(game, 1, "R3")
    assert game.uno_pending == 1
    play(game, 2, "R3", uno=True)
    assert game.uno_pending is None
    with pytest.raises(IllegalAction):
        game.apply(Action.catch(0, 1))


def test_jump_in_respects_no_action_finish() -> None:
    game = make_game([["G1"], ["G5"], ["Y6"], ["RS"]], ["RS"], jump_in=True, no_action_finish=True)
    assert game.current == 2  # the starting Skip skipped seat 1
    with raises_code(IllegalAction, "move.no_action_finish"):
        play(game, 3, "RS")
    assert game.legal_actions(3) == []


def test_jump_in_with_a_seven() -> None:
    game = make_game(
        [["R1", "G2", "G3"], ["R7", "G5", "B7"], ["Y1", "G6", "G8"], ["R7", "Y2", "Y3"]],
        ["R9"],
        jump_in=True,
        seven_zero=True,
    )
    play(game, 1, "R7", target=2)
    assert game.current == 2
    with raises_code(IllegalAction, "move.needs_target"):
        play(game, 3, "R7")
    events = play(game, 3, "R7", target=0)
    assert HandsSwapped(3, 0) in events
    assert hand(game, 3) == sorted(["R1", "G2", "G3"])
    assert hand(game, 0) == sorted(["Y2", "Y3"])
    assert game.current == 0


def test_jump_in_not_while_the_dealer_chooses_a_colour() -> None:
    game = make_game([["W", "G2"], ["W", "G5"]], ["W"], jump_in=True)
    assert game.phase is Phase.COLOR
    with pytest.raises(IllegalAction):
        play(game, 1, "W", "R")


def test_jump_in_on_the_starting_draw_two_with_stacking() -> None:
    game = make_game(
        [["G1", "G2"], ["G3", "G4"], ["R+2", "G6"]], ["R+2", "B1", "B2", "B3", "B4"], jump_in=True, stack_draw_two=True
    )
    assert (game.current, game.penalty) == (1, 2)
    events = play(game, 2, "R+2")
    assert PenaltyPending(0, 4, False) in events
    draw(game, 0)
    assert hand(game, 0) == sorted(["G1", "G2", "B1", "B2", "B3", "B4"])
    assert hand(game, 1) == sorted(["G3", "G4"])
    assert game.current == 1


def test_jump_in_on_a_pending_plus_two_with_only_stack_mixed() -> None:
    game = make_game(
        [["R+2", "G2", "G3"], ["R+2", "G5", "G7"], ["Y6", "G6", "G8"]], ["R9"], jump_in=True, stack_mixed=True
    )
    play(game, 1, "R+2")
    assert game.legal_actions(0) == []
    with pytest.raises(IllegalAction):
        play(game, 0, "R+2")


def test_uno_obligation_after_a_stacked_answer() -> None:
    game = make_game([["G1", "G2"], ["R+2", "G5"], ["B+2", "G6"]], ["R9"], stack_draw_two=True)
    play(game, 1, "R+2", uno=True)
    play(game, 2, "B+2")
    assert game.uno_pending == 2
    events = game.apply(Action.catch(1, 2))
    assert Caught(1, 2) in events
    assert len(game.hands[2]) == 3
    assert (game.current, game.penalty) == (0, 4)
