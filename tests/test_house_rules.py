"""docs/house-rules.md: the house rules beyond RULES.md, one scenario per arguable meeting."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from codes import raises_code
from unomas import Action, Game, IllegalAction, Kind, Phase, record
from unomas.bots.heuristic import HeuristicBot
from unomas.cards import parse_card, parse_color
from unomas.errors import SettingsError
from unomas.events import DirectionChanged, MatchEnded, PenaltyPending, RoundEnded
from unomas.i18n import translator
from unomas.i18n.switches import switch_groups
from unomas.i18n.wording import preset_label, rules_line
from unomas.rules import PRESETS, SEED_SETTINGS, SWITCHES, Rules
from unomas.testing import cards, draw, hand, make_full_game, make_game, play

C = parse_card


def move(game: Game, token: str, giver: int, taker: int) -> None:
    """Move one card between hands, to set up a hand size a deal of equal hands cannot give."""
    game.hands[giver].remove(C(token))
    game.hands[taker].append(C(token))


# ---------------------------------------------------------------- reverse_deflect


def three_with_a_draw_two(**settings: Any) -> tuple[Game]:
    """Seat 1 plays R+2 at seat 2, who holds RR, BR and RS."""
    game = make_game([["G1", "G2", "G3"], ["R+2", "G4", "G5"], ["RR", "BR", "RS"]], ["R9"], **settings)
    play(game, 1, "R+2")
    return (game,)


def test_reverse_deflect_sends_the_penalty_back_to_who_gave_it() -> None:
    (game,) = three_with_a_draw_two(reverse_deflect=True)
    events = play(game, 2, "RR")
    assert game.direction == -1 and any(isinstance(e, DirectionChanged) for e in events)
    assert (game.current, game.phase, game.penalty) == (1, Phase.PENALTY, 2)
    assert PenaltyPending(1, 2, False) in events
    draw(game, 1)
    assert len(game.hands[1]) == 4 and (game.current, game.phase) == (0, Phase.TURN)


def test_reverse_deflect_with_two_players_returns_at_once() -> None:
    game = make_game([["RR", "G4", "G5"], ["R+2", "B1", "B2"]], ["R9"], reverse_deflect=True)
    play(game, 1, "R+2")
    play(game, 0, "RR")
    assert (game.current, game.phase, game.penalty) == (1, Phase.PENALTY, 2)


def test_reverse_deflect_needs_the_colour_in_play() -> None:
    (game,) = three_with_a_draw_two(reverse_deflect=True)
    assert Action.play(2, C("BR")) not in game.legal_actions(2)
    with raises_code(IllegalAction, "move.penalty_pending"):
        play(game, 2, "BR")


def test_reverse_is_no_answer_without_the_switch() -> None:
    (game,) = three_with_a_draw_two()
    assert [a for a in game.legal_actions(2) if a.card is not None] == []
    with raises_code(IllegalAction, "move.penalty_pending"):
        play(game, 2, "RR")


def wild_draw_four_at_seat_2(**settings: Any) -> Game:
    game = make_game(
        [["G1", "G2", "G3"], ["W+4", "G4", "G5"], ["RR", "RS", "B5"]], ["R9"], challenge_wild_draw_four=True, **settings
    )
    play(game, 1, "W+4", "R")
    return game


@pytest.mark.parametrize(
    ("stacking", "deflects"),
    [({}, False), ({"stack_draw_four": True}, True), ({"stack_mixed": True}, True), ({"stack_draw_two": True}, False)],
)
def test_a_wild_draw_four_is_deflected_only_where_stacking_answers_it(
    stacking: dict[str, bool], deflects: bool
) -> None:
    game = wild_draw_four_at_seat_2(reverse_deflect=True, skip_deflect=True, **stacking)
    assert (Action.play(2, C("RR")) in game.legal_actions(2)) is deflects
    assert (Action.play(2, C("RS")) in game.legal_actions(2)) is deflects


def test_a_deflected_wild_draw_four_can_no_longer_be_challenged() -> None:
    game = wild_draw_four_at_seat_2(reverse_deflect=True, stack_draw_four=True)
    assert Action.challenge(2) in game.legal_actions(2)
    play(game, 2, "RR")
    assert (game.current, game.penalty, game.challengeable) == (1, 4, False)
    assert Action.challenge(1) not in game.legal_actions(1)


def test_a_deflected_penalty_is_stacked_against_the_card_that_made_it() -> None:
    """Under the Reverse lies a +2: any +2 stacks (stack_draw_two), the total grows."""
    game = make_game(
        [["G1", "G2", "G3"], ["R+2", "B+2", "G5"], ["RR", "BR", "RS"]],
        ["R9"],
        reverse_deflect=True,
        stack_draw_two=True,
    )
    play(game, 1, "R+2")
    play(game, 2, "RR")
    assert Action.play(1, C("B+2")) in game.legal_actions(1)
    play(game, 1, "B+2")
    assert (game.current, game.penalty) == (0, 4)  # the direction is reversed now


def test_the_penalty_goes_back_and_forth() -> None:
    game = make_game([["G1", "G2", "G3"], ["R+2", "RR", "G5"], ["RR", "BR", "RS"]], ["R9"], reverse_deflect=True)
    play(game, 1, "R+2")
    play(game, 2, "RR")
    play(game, 1, "RR")
    assert (game.current, game.direction, game.penalty) == (2, 1, 2)


def test_a_jump_in_deflects_too() -> None:
    game = make_game(
        [["RR", "G2", "G3"], ["R+2", "G4", "G5"], ["RR", "B1", "B2"]], ["R9"], reverse_deflect=True, jump_in=True
    )
    play(game, 1, "R+2")
    play(game, 2, "RR")  # back to seat 1
    assert game.current == 1
    play(game, 0, "RR")  # seat 0 jumps in with the identical Reverse: it turns again from seat 0
    assert (game.current, game.direction, game.phase, game.penalty) == (1, 1, Phase.PENALTY, 2)


def test_going_out_with_a_deflecting_card_still_sends_the_penalty() -> None:
    game = make_game([["G1", "G2"], ["R+2", "G4"], ["RR", "G6"]], ["R9"], reverse_deflect=True)
    play(game, 1, "R+2", uno=True)
    game.hands[2].remove(C("G6"))  # seat 2's last card is the Reverse (set up by hand)
    game.hands[0].append(C("G6"))
    before = len(game.hands[1])
    events = game.apply(Action.play(2, C("RR")))
    assert game.round_over and len(game.hands[1]) == before + 2
    assert isinstance(events[-1], (RoundEnded, MatchEnded))


def test_no_action_finish_bars_a_deflecting_last_card() -> None:
    game = make_game([["G1", "G2"], ["R+2", "G4"], ["RR", "G6"]], ["R9"], reverse_deflect=True, no_action_finish=True)
    play(game, 1, "R+2", uno=True)
    game.hands[2].remove(C("G6"))
    game.hands[0].append(C("G6"))
    with raises_code(IllegalAction, "move.no_action_finish"):
        play(game, 2, "RR")


# ---------------------------------------------------------------- skip_deflect


def test_skip_deflect_passes_the_penalty_on() -> None:
    (game,) = three_with_a_draw_two(skip_deflect=True)
    events = play(game, 2, "RS")
    assert (game.current, game.direction, game.phase, game.penalty) == (0, 1, Phase.PENALTY, 2)
    assert PenaltyPending(0, 2, False) in events
    draw(game, 0)
    assert len(game.hands[0]) == 5 and game.current == 1


def test_skip_deflect_with_two_players_sends_it_back() -> None:
    game = make_game([["RS", "G4", "G5"], ["R+2", "B1", "B2"]], ["R9"], skip_deflect=True)
    play(game, 1, "R+2")
    play(game, 0, "RS")
    assert (game.current, game.phase, game.penalty) == (1, Phase.PENALTY, 2)


def test_a_skip_of_another_colour_does_not_deflect() -> None:
    game = make_game([["G1", "G2", "G3"], ["R+2", "G4", "G5"], ["BS", "B1", "B2"]], ["R9"], skip_deflect=True)
    play(game, 1, "R+2")
    with raises_code(IllegalAction, "move.penalty_pending"):
        play(game, 2, "BS")


def test_skip_and_reverse_deflects_chain() -> None:
    game = make_game(
        [["RR", "G2", "G3"], ["R+2", "G4", "G5"], ["RS", "B1", "B2"]], ["R9"], skip_deflect=True, reverse_deflect=True
    )
    play(game, 1, "R+2")
    play(game, 2, "RS")  # on to seat 0
    play(game, 0, "RR")  # back to seat 2, who passed it
    assert (game.current, game.direction, game.penalty) == (2, -1, 2)


def test_only_reverse_deflect_leaves_a_skip_unanswering() -> None:
    (game,) = three_with_a_draw_two(reverse_deflect=True)
    assert {a.card for a in game.legal_actions(2) if a.card is not None} == {C("RR")}


# ---------------------------------------------------------------- seven_swap and zero_pass


def test_seven_swap_alone_swaps_and_the_zero_does_nothing() -> None:
    game = make_game([["G1", "G2", "G3"], ["R7", "R0", "G5"], ["B1", "B2", "B3", "B4"][:3]], ["R9"], seven_swap=True)
    assert Action.play(1, C("R7")) not in game.legal_actions(1)
    play(game, 1, "R7", target=2)
    assert hand(game, 1) == ["B1", "B2", "B3"]
    game = make_game([["G1", "G2", "G3"], ["R7", "R0", "G5"], ["B1", "B2", "B3"]], ["R9"], seven_swap=True)
    play(game, 1, "R0")
    assert hand(game, 2) == ["B1", "B2", "B3"]


def test_zero_pass_alone_passes_and_the_seven_takes_no_target() -> None:
    game = make_game([["G1", "G2", "G3"], ["R7", "R0", "G5"], ["B1", "B2", "B3"]], ["R9"], zero_pass=True)
    with raises_code(IllegalAction, "move.card_takes_no_target"):
        play(game, 1, "R7", target=2)
    play(game, 1, "R0")
    assert hand(game, 2) == ["G5", "R7"] and hand(game, 0) == ["B1", "B2", "B3"]


def test_seven_zero_is_both_halves() -> None:
    both = make_game([["G1", "G2", "G3"], ["R7", "R0", "G5"], ["B1", "B2", "B3"]], ["R9"], seven_zero=True)
    halves = make_game(
        [["G1", "G2", "G3"], ["R7", "R0", "G5"], ["B1", "B2", "B3"]], ["R9"], seven_swap=True, zero_pass=True
    )
    assert set(both.legal_actions(1)) == set(halves.legal_actions(1))


def test_a_record_of_the_seed_rules_writes_no_new_setting() -> None:
    game = make_game([["G1", "G2"], ["R7", "G5"]], ["R9"], seven_zero=True, target_score=0)
    written = record.to_json(game)
    assert list(written["rules"]) == list(SEED_SETTINGS)
    assert record.replay(json.loads(json.dumps(written))).position() == game.position()


def test_a_house_rule_is_written_and_replayed() -> None:
    game = make_game([["G1", "G2"], ["R7", "G5"]], ["R9"], seven_swap=True, uno_penalty=6, target_score=0)
    play(game, 1, "R7", target=0)
    written = record.to_json(game)
    assert written["rules"]["seven_swap"] is True and written["rules"]["uno_penalty"] == 6
    assert "zero_pass" not in written["rules"]
    assert record.replay(json.loads(json.dumps(written))).position() == game.position()


# ---------------------------------------------------------------- uno_penalty


@pytest.mark.parametrize("penalty", [2, 4, 6])
def test_a_missed_uno_costs_the_set_penalty(penalty: int) -> None:
    game = make_game([["G1", "G2", "G3"], ["R1", "G5", "G6"], ["B1", "B2", "B3"]], ["R9"], uno_penalty=penalty)
    move(game, "G6", 1, 0)
    play(game, 1, "R1")
    game.apply(Action.catch(2, 1))
    assert len(game.hands[1]) == 1 + penalty


@pytest.mark.parametrize("value", [0, 3, 8])
def test_an_uno_penalty_is_two_four_or_six(value: int) -> None:
    with raises_code(SettingsError, "setup.uno_penalty_range", value=value):
        Rules(uno_penalty=value)


def test_the_hand_limit_caps_a_missed_uno() -> None:
    game = make_game([["G1", "G2", "G3"], ["R1", "G5", "G6"], ["B1", "B2", "B3"]], ["R9"], uno_penalty=6, hand_limit=4)
    move(game, "G6", 1, 0)
    play(game, 1, "R1")
    game.apply(Action.catch(2, 1))
    assert len(game.hands[1]) == 4


# ---------------------------------------------------------------- no_wild_finish


def test_no_wild_finish_bars_a_last_wild() -> None:
    game = make_game([["G1", "G2"], ["W", "RS"], ["B1", "B2"]], ["G9"], no_wild_finish=True)
    game.hands[1].remove(C("RS"))
    game.hands[0].append(C("RS"))
    assert [a for a in game.legal_actions(1) if a.card is not None] == []
    with raises_code(IllegalAction, "move.no_wild_finish"):
        play(game, 1, "W", "R")


def test_no_wild_finish_allows_a_last_action_card() -> None:
    game = make_game([["G1", "G2"], ["RS", "W+4"], ["B1", "B2"]], ["R9"], no_wild_finish=True, target_score=0)
    game.hands[1].remove(C("W+4"))
    game.hands[0].append(C("W+4"))
    play(game, 1, "RS")
    assert game.round_over


def test_both_finish_rules_name_the_wider_one() -> None:
    game = make_game([["G1", "G2"], ["W", "G5"], ["B1", "B2"]], ["R9"], no_wild_finish=True, no_action_finish=True)
    game.hands[1].remove(C("G5"))
    game.hands[0].append(C("G5"))
    with raises_code(IllegalAction, "move.no_action_finish"):
        play(game, 1, "W", "R")


def test_no_wild_finish_meets_the_seven_swap() -> None:
    """A lone wild swapped into a hand may not be played: its holder draws."""
    game = make_game([["W", "G2", "G3"], ["R7", "R5", "B5"]], ["R9"], no_wild_finish=True, seven_swap=True)
    move(game, "G2", 0, 1)
    move(game, "G3", 0, 1)
    play(game, 1, "R7", target=0, uno=True)
    play(game, 0, "R5")
    assert hand(game, 1) == ["W"] and game.current == 1
    assert [a for a in game.legal_actions(1) if a.card is not None] == []
    with raises_code(IllegalAction, "move.no_wild_finish"):
        play(game, 1, "W", "B")


# ---------------------------------------------------------------- hand_limit


def test_at_the_hand_limit_a_draw_takes_nothing_and_ends_the_turn() -> None:
    game = make_game(
        [["G1", "G2", "G3"], ["B1", "B2", "B3"], ["Y1", "Y2", "Y3"]], ["R9", "G7", "G8", "G6"], hand_limit=4
    )
    draw(game, 1)
    assert len(game.hands[1]) == 4 and game.current == 2
    draw(game, 2)
    draw(game, 0)
    draw(game, 1)
    assert len(game.hands[1]) == 4 and game.current == 2


def test_a_penalty_is_drawn_up_to_the_hand_limit() -> None:
    game = make_game([["G1", "G2", "G3"], ["R+2", "G4", "G5"], ["B1", "B2", "B3"]], ["R9"], hand_limit=4)
    play(game, 1, "R+2")
    draw(game, 2)
    assert len(game.hands[2]) == 4 and (game.current, game.penalty) == (0, 0)


def test_drawing_until_playable_stops_at_the_hand_limit() -> None:
    pile = ["R9", "B1", "B2", "B3", "B4", "B5", "B6", "B7", "R1"]
    game = make_full_game(3, pile, draw_until_playable=True, hand_limit=35)
    draw(game, 1)
    assert len(game.hands[1]) == 35 and game.current == 2


@pytest.mark.parametrize("limit", [1, 7])
def test_a_hand_limit_exceeds_the_hand_dealt(limit: int) -> None:
    with raises_code(SettingsError, "setup.hand_limit_range", value=limit, hand_size=7):
        Rules(hand_limit=limit)


# ---------------------------------------------------------------- alternative_scoring


def test_alternative_scoring_scores_each_own_hand() -> None:
    game = make_game(
        [["G1", "G2"], ["R1", "R2"], ["B9", "W"]], ["R9", "G7", "G8"], alternative_scoring=True, target_score=60
    )
    play(game, 1, "R1", uno=True)
    draw(game, 2)
    draw(game, 0)
    events = play(game, 1, "R2")
    assert game.scores == [11, 0, 66]
    assert RoundEnded(1, 77, tuple(tuple(h) for h in game.hands), (11, 0, 66)) in events
    assert game.is_over and game.winner == 1


def test_alternative_scoring_goes_on_below_the_target() -> None:
    game = make_game([["G1", "G2"], ["R1", "RS"]], ["R9"], alternative_scoring=True, target_score=100)
    play(game, 1, "RS", uno=True)
    play(game, 1, "R1")
    assert game.scores == [3, 0] and game.round_over and not game.is_over


def test_alternative_scoring_ties_go_to_the_round_winner() -> None:
    game = make_game([["R0", "G0"], ["R1", "RS"]], ["R9"], alternative_scoring=True, target_score=0)
    play(game, 1, "RS", uno=True)
    play(game, 1, "R1")
    assert game.scores == [0, 0] and game.winner == 1


# ---------------------------------------------------------------- elimination

THREE = [["R1", "R2", "R3"], ["B1", "B2", "B3"], ["R4", "R5", "R6"]]


def test_a_seat_reaching_the_number_is_out_and_passed_over() -> None:
    game = make_game(THREE, ["R9", "G7"], elimination=4)
    draw(game, 1)
    assert game.is_out(1) and game.seats_in_round() == [0, 2] and game.legal_actions(1) == []
    assert game.current == 2
    play(game, 2, "R4")
    play(game, 0, "R1")
    assert game.current == 2


def test_the_last_seat_left_wins_the_round_and_scores_the_others() -> None:
    game = make_game([["R1", "R2"], ["B1", "B2"]], ["R9", "G7"], elimination=3, target_score=0)
    events = draw(game, 1)
    assert game.is_over and game.winner == 0 and game.scores == [10, 0]
    assert RoundEnded(0, 10, (tuple(cards("R1 R2")), tuple(cards("B1 B2 G7"))), (10, 0)) in events
    assert game.round_winner() == 0  # the round's winner holds cards: the searches' rollouts ask this


def test_the_round_winner_is_the_seat_with_no_cards_and_none_while_the_round_is_played() -> None:
    game = Game(Rules(players=3, target_score=0), seed=1)
    assert game.round_winner() == -1
    while not game.round_over:
        actions = game.legal_actions(game.current)
        game.push(next((a for a in actions if a.kind is Kind.PLAY), actions[0]))
    assert not game.hands[game.round_winner()]


def test_under_alternative_scoring_the_last_seat_left_scores_its_own_cards() -> None:
    game = make_game(
        [["R1", "R2"], ["B1", "B2"]], ["R9", "G7"], elimination=3, alternative_scoring=True, target_score=0
    )
    draw(game, 1)
    assert game.scores == [3, 10] and game.winner == 0


def test_a_penalty_can_put_its_drawer_out() -> None:
    game = make_game([["R1", "R2", "R3"], ["R+2", "B2", "B3"], ["R4", "R5", "R6"]], ["R9"], elimination=5)
    play(game, 1, "R+2")
    draw(game, 2)
    assert game.is_out(2) and game.current == 0
    play(game, 0, "R1")
    assert game.current == 1


def test_a_seven_may_not_swap_with_a_seat_that_is_out() -> None:
    game = make_game(
        [["R1", "R2", "R3"], ["B1", "B2", "B3"], ["R7", "R5", "R6"]], ["R9", "G7"], elimination=4, seven_swap=True
    )
    draw(game, 1)
    assert {a.target for a in game.legal_actions(2) if a.card == C("R7")} == {0}
    with raises_code(IllegalAction, "move.target_out", target=1):
        play(game, 2, "R7", target=1)


def test_a_zero_passes_hands_among_the_seats_in_the_round() -> None:
    hands = [["R1", "R2", "R3"], ["B1", "B2", "B3"], ["R0", "R5", "R6"], ["Y1", "Y2", "Y3"]]
    game = make_game(hands, ["R9", "G7"], elimination=4, zero_pass=True)
    draw(game, 1)
    play(game, 2, "R0")
    assert hand(game, 0) == ["Y1", "Y2", "Y3"] and hand(game, 2) == ["R1", "R2", "R3"]
    assert hand(game, 3) == ["R5", "R6"] and hand(game, 1) == ["B1", "B2", "B3", "G7"]


def test_with_two_seats_left_a_reverse_acts_as_a_skip() -> None:
    game = make_game([["R1", "R2", "R3"], ["B1", "B2", "B3"], ["RR", "R5", "R6"]], ["R9", "G7"], elimination=4)
    draw(game, 1)
    play(game, 2, "RR")
    assert (game.current, game.direction) == (2, -1)


def test_a_seat_out_of_the_round_neither_jumps_in_nor_catches() -> None:
    game = make_game(
        [["R1", "R2", "R3"], ["R5", "B2", "B3"], ["R5", "R6", "R4"]], ["R9", "G7"], elimination=4, jump_in=True
    )
    draw(game, 1)
    play(game, 2, "R5")
    assert game.legal_actions(1) == [] and 1 not in game.out_of_turn_seats()


@pytest.mark.parametrize("value", [3, 7])
def test_elimination_exceeds_the_hand_dealt(value: int) -> None:
    with raises_code(SettingsError, "setup.elimination_range", value=value, hand_size=7):
        Rules(elimination=value)


# ---------------------------------------------------------------- presets, words, the heuristic


def test_the_presets() -> None:
    assert PRESETS == ("official", "all", "familia", "caos")
    every = Rules.preset("all")
    assert all(getattr(every, name) for name in SWITCHES) and (every.uno_penalty, every.hand_limit) == (4, 25)
    familia = Rules.preset("familia")
    assert familia.reverse_deflect and familia.skip_deflect and familia.stack_draw_two and not familia.jump_in
    caos = Rules.preset("caos")
    assert caos.jump_in and caos.seven_swap and caos.zero_pass and (caos.uno_penalty, caos.elimination) == (4, 25)
    assert Rules.preset("all", players=2, hand_size=30).hand_limit == 31
    assert Rules.preset("caos", players=2, hand_size=30).elimination == 31


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_switch_and_preset_has_its_words(lang: str) -> None:
    t = translator(lang)
    names = [s.name for group in switch_groups(lang) for s in group.switches]
    assert sorted(names) == sorted(SWITCHES)
    labels = {preset_label(p, t) for p in PRESETS}
    assert len(labels) == len(PRESETS) and not labels & set(PRESETS)


def test_the_spanish_words_of_a_deflect() -> None:
    texts = {s.name: s.title for group in switch_groups("es") for s in group.switches}
    assert texts["reverse_deflect"] == "Cambio de sentido devuelve el castigo"
    assert texts["skip_deflect"] == "Salta pasa el castigo"


def heuristic_answer(game: Game, seat: int) -> Action:
    bot = HeuristicBot(forget=0.0, miss=0.0)
    bot.start(seat, game.rules, random.Random(0))
    return bot.act(game.view(seat))


def test_the_heuristic_sends_the_penalty_back_to_a_short_hand() -> None:
    game = make_game(
        [["G1", "G2", "G3", "G4"], ["R+2", "G8", "G7", "G6"], ["RR", "R+2", "B1", "B2"]],
        ["R9"],
        reverse_deflect=True,
        stack_draw_two=True,
    )
    move(game, "G8", 1, 0)
    move(game, "G7", 1, 0)
    play(game, 1, "R+2", uno=True)
    assert heuristic_answer(game, 2).card == C("RR")


def test_the_heuristic_stacks_on_when_the_next_hand_is_shorter() -> None:
    game = make_game(
        [["G1", "G2", "G3", "G4"], ["R+2", "G8", "G7", "G6"], ["RR", "R+2", "B1", "B2"]],
        ["R9"],
        reverse_deflect=True,
        stack_draw_two=True,
    )
    move(game, "G3", 0, 1)
    move(game, "G4", 0, 1)
    play(game, 1, "R+2")
    assert heuristic_answer(game, 2).card == C("R+2")


def test_the_heuristic_skips_it_on_rather_than_drawing() -> None:
    (game,) = three_with_a_draw_two(skip_deflect=True)
    assert heuristic_answer(game, 2) == Action.play(2, C("RS"))
    assert parse_color("R") == game.color


@pytest.mark.parametrize(
    ("rules", "english", "spanish"),
    [
        (Rules.preset("familia"), "Family rules", "Reglas de la familia"),
        (Rules.preset("caos"), "Chaos rules", "Reglas del caos"),
        (
            Rules(uno_penalty=6, hand_limit=20, elimination=25),
            "6 cards for a missed UNO · at most 20 cards in hand · out at 25 cards",
            "6 cartas por no cantar UNO · como mucho 20 cartas en la mano · fuera con 25 cartas",
        ),
    ],
)
def test_the_rules_line_names_presets_and_numbers(rules: Rules, english: str, spanish: str) -> None:
    assert english in rules_line(rules, translator("en"))
    assert spanish in rules_line(rules, translator("es"))
