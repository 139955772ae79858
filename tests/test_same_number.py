"""docs/house-rules.md, ``same_number_together``: one scenario per arguable meeting."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from codes import raises_code
from unomas import Action, Game, IllegalAction, Phase, record
from unomas.bots.heuristic import HeuristicBot
from unomas.bots.search import sample_world
from unomas.cards import parse_card, parse_color
from unomas.conductor import Conductor
from unomas.events import Eliminated, HandsPassed, HandsSwapped, Played, RunEnded, Skipped
from unomas.i18n import narrate, translator
from unomas.i18n.switches import switch_groups
from unomas.i18n.view_words import describe
from unomas.position import Position
from unomas.rules import SWITCHES, Rules
from unomas.testing import draw, hand, make_game, play

C = parse_card
SAME: dict[str, Any] = {"same_number_together": True}


def fives(**settings: Any) -> Game:
    """Seat 1, on turn with R9 on top, holds R5, G5 and B5."""
    return make_game(
        [["G1", "G2", "G3", "G4"], ["R5", "G5", "B5", "Y1"], ["B1", "B2", "B3", "B4"]], ["R9"], **SAME | settings
    )


def moves(game: Game, seat: int) -> list[str]:
    return sorted(str(a) for a in game.legal_actions(seat))


def test_a_number_card_keeps_the_turn_while_another_of_it_is_held() -> None:
    game = fives()
    play(game, 1, "R5")
    assert (game.current, game.phase) == (1, Phase.RUN)
    assert moves(game, 1) == ["1 pass", "1 play B5", "1 play G5"]
    play(game, 1, "B5")
    assert (game.current, game.phase) == (1, Phase.RUN)
    play(game, 1, "G5")  # no 5 left: the turn ends at once
    assert (game.current, game.phase, game.color) == (2, Phase.TURN, parse_color("G"))
    assert hand(game, 1) == ["Y1"]


def test_a_pass_ends_the_run_and_keeps_the_rest() -> None:
    game = fives()
    play(game, 1, "R5")
    events = game.apply(Action.pass_(1))
    assert events == [RunEnded(1)]
    assert (game.current, game.phase, game.color) == (2, Phase.TURN, parse_color("R"))
    assert sorted(hand(game, 1)) == ["B5", "G5", "Y1"]


def test_without_the_switch_the_turn_passes() -> None:
    game = fives(same_number_together=False)
    play(game, 1, "R5")
    assert (game.current, game.phase) == (2, Phase.TURN)


def test_a_lone_number_ends_the_turn() -> None:
    game = make_game([["G1", "G2"], ["R5", "G6"], ["B1", "B2"]], ["R9"], **SAME)
    play(game, 1, "R5")
    assert (game.current, game.phase) == (2, Phase.TURN)


def test_symbols_do_not_go_together() -> None:
    """Skips, Reverses and +2 have rules of their own (stacking, deflecting): no run."""
    game = make_game([["G1", "G2", "G3"], ["RS", "GS", "Y1"], ["B1", "B2", "B3"]], ["R9"], **SAME)
    events = play(game, 1, "RS")
    assert Skipped(2) in events and (game.current, game.phase) == (0, Phase.TURN)


def test_only_the_same_number_may_follow() -> None:
    game = fives()
    play(game, 1, "R5")
    with raises_code(IllegalAction, "move.run_same_number"):
        play(game, 1, "Y1")
    with raises_code(IllegalAction, "move.run_play_or_pass"):
        draw(game, 1)
    with raises_code(IllegalAction, "move.not_your_turn"):
        play(game, 2, "B1")


def test_the_uno_call_goes_with_the_play_that_leaves_one_card() -> None:
    game = make_game([["G1", "G2", "G3"], ["R5", "G5", "B5"], ["B1", "B2", "B3"]], ["R9"], **SAME)
    play(game, 1, "R5")
    assert Action.play(1, C("G5"), uno=True) in game.legal_actions(1)
    play(game, 1, "G5")  # without the call
    assert (game.phase, game.uno_pending) == (Phase.RUN, 1)
    game.apply(Action.pass_(1))  # ending the run does not end the obligation
    assert game.uno_pending == 1 and Action.catch(2, 1) in game.legal_actions(2)


def test_a_run_may_go_out() -> None:
    game = make_game([["G1", "G2"], ["R5", "G5"], ["B1", "B2"]], ["R9"], target_score=0, **SAME)
    play(game, 1, "R5", uno=True)
    play(game, 1, "G5")
    assert game.round_over and game.round_winner() == 1


def test_nobody_jumps_in_during_a_run_but_after_it() -> None:
    game = make_game([["G5", "G2", "G3"], ["R5", "G5", "Y1"], ["B1", "B2", "B3"]], ["R9"], jump_in=True, **SAME)
    play(game, 1, "R5")
    assert game.legal_actions(0) == [] and game.out_of_turn_seats() == []
    with raises_code(IllegalAction, "move.not_your_turn"):
        play(game, 0, "G5")
    play(game, 1, "G5")
    assert Action.play(0, C("G5")) in game.legal_actions(0)  # the run over, G5 on top may be jumped


def test_a_jump_in_starts_a_run_for_the_jumper() -> None:
    game = make_game([["R5", "B5", "G3"], ["R5", "G6", "Y1"], ["B1", "B2", "B3"]], ["R9"], jump_in=True, **SAME)
    play(game, 1, "R5")  # no other 5: the turn passes to seat 2
    play(game, 0, "R5")  # seat 0 jumps in, and holds B5
    assert (game.current, game.phase) == (0, Phase.RUN)
    play(game, 0, "B5")
    assert (game.current, game.phase) == (1, Phase.TURN)


@pytest.mark.parametrize("force", [False, True])
def test_a_drawn_number_that_is_played_starts_a_run(force: bool) -> None:
    game = make_game(
        [["G1", "G2", "G3"], ["B5", "G6", "Y1"], ["B1", "B2", "B3"]], ["R9", "R5"], force_play_drawn=force, **SAME
    )
    draw(game, 1)
    assert (game.phase, game.drawn) == (Phase.DRAWN, C("R5"))
    play(game, 1, "R5")
    assert (game.current, game.phase) == (1, Phase.RUN)
    assert Action.pass_(1) in game.legal_actions(1)  # force_play_drawn binds the drawn card only


def test_drawing_until_playable_then_a_run() -> None:
    game = make_game(
        [["G1", "G2", "G3"], ["B5", "G6", "Y1"], ["B1", "B2", "B3"]],
        ["R9", "Y2", "R5"],
        draw_until_playable=True,
        **SAME,
    )
    draw(game, 1)
    play(game, 1, "R5")
    assert (game.current, game.phase) == (1, Phase.RUN)


def sevens(**settings: Any) -> Game:
    return make_game(
        [["G1", "G2", "G3", "G4"], ["R7", "G7", "Y1", "Y2"], ["B1", "B2", "B3", "B4"]],
        ["R9"],
        seven_swap=True,
        **SAME | settings,
    )


def test_a_seven_going_on_names_nobody_and_the_last_seven_swaps() -> None:
    game = sevens()
    assert Action.play(1, C("R7")) in game.legal_actions(1)
    events = play(game, 1, "R7")
    assert not any(isinstance(e, HandsSwapped) for e in events) and game.phase is Phase.RUN
    assert Action.pass_(1) not in game.legal_actions(1)
    with raises_code(IllegalAction, "move.run_needs_seven"):
        game.apply(Action.pass_(1))
    events = play(game, 1, "G7", target=0)
    assert HandsSwapped(1, 0) in events
    assert sorted(hand(game, 0)) == ["Y1", "Y2"] and len(game.hands[1]) == 4


def test_a_seven_naming_someone_ends_the_turn_at_once() -> None:
    game = sevens()
    events = play(game, 1, "R7", target=2)
    assert HandsSwapped(1, 2) in events and (game.current, game.phase) == (2, Phase.TURN)
    assert sorted(hand(game, 2)) == ["G7", "Y1", "Y2"]


def test_a_lone_seven_must_name_someone() -> None:
    game = make_game([["G1", "G2"], ["R7", "G6"], ["B1", "B2"]], ["R9"], seven_swap=True, **SAME)
    assert Action.play(1, C("R7")) not in game.legal_actions(1)
    with raises_code(IllegalAction, "move.needs_target"):
        play(game, 1, "R7")


@pytest.mark.parametrize("switch", ["zero_pass", "seven_zero"])
def test_only_the_last_zero_passes_the_hands(switch: str) -> None:
    game = make_game([["G1", "G2", "G3"], ["R0", "G0", "Y1"], ["B1", "B2", "B3"]], ["R9"], **SAME | {switch: True})
    events = play(game, 1, "R0")
    assert not any(isinstance(e, HandsPassed) for e in events)
    events = play(game, 1, "G0")
    assert [e for e in events if isinstance(e, HandsPassed)] == [HandsPassed(1)]
    assert hand(game, 2) == ["Y1"] and (game.current, game.phase) == (2, Phase.TURN)


def test_a_pass_after_a_zero_passes_the_hands() -> None:
    game = make_game([["G1", "G2", "G3"], ["R0", "G0", "Y1"], ["B1", "B2", "B3"]], ["R9"], zero_pass=True, **SAME)
    play(game, 1, "R0")
    events = game.apply(Action.pass_(1))
    assert HandsPassed(1) in events and sorted(hand(game, 2)) == ["G0", "Y1"]
    assert (game.current, game.phase) == (2, Phase.TURN) and game.uno_pending is None


def test_a_zero_going_on_counts_the_cards_kept_for_uno() -> None:
    game = make_game([["G1", "G2"], ["R0", "G0"], ["B1", "B2"]], ["R9"], zero_pass=True, **SAME)
    assert Action.play(1, C("R0"), uno=True) in game.legal_actions(1)  # the hand kept, not one received


def test_a_catch_that_puts_the_runner_out_ends_the_run() -> None:
    game = make_game(
        [["G1", "G2"], ["R5", "G5"], ["B1", "B2"], ["Y1", "Y2"]], ["R9"], elimination=3, uno_penalty=2, **SAME
    )
    play(game, 1, "R5")  # one card left, no UNO called
    events = game.apply(Action.catch(2, 1))
    assert game.is_out(1) and (game.current, game.phase) == (2, Phase.TURN)
    assert Eliminated(1, 3) in events and RunEnded(1) not in events


def test_only_the_draw_that_reaches_the_limit_tells_of_an_elimination() -> None:
    game = make_game([["G1", "G2"], ["R+2", "G5"], ["B1", "B2"]], ["R9"], elimination=4)
    play(game, 1, "R+2")
    events = draw(game, 2)
    assert Eliminated(2, 4) in events and narrate(events, ["Ana", "Bo", "Cy"], "es")[-1] == (
        "Cy tiene 4 cartas y queda fuera de la ronda."
    )
    plain = make_game([["G1", "G2"], ["R+2", "G5"], ["B1", "B2"]], ["R9"])
    play(plain, 1, "R+2")
    assert not any(isinstance(e, Eliminated) for e in draw(plain, 2))


def test_a_catch_under_the_hand_limit_leaves_the_run_on() -> None:
    game = make_game([["G1", "G2"], ["R5", "G5"], ["B1", "B2"]], ["R9"], hand_limit=3, **SAME)
    play(game, 1, "R5")
    game.apply(Action.catch(2, 1))
    assert len(game.hands[1]) == 3 and (game.current, game.phase) == (1, Phase.RUN)


@pytest.mark.parametrize("switch", ["no_action_finish", "no_wild_finish"])
def test_a_run_of_numbers_may_finish_under_the_finishing_rules(switch: str) -> None:
    game = make_game([["G1", "G2"], ["R5", "G5"], ["B1", "B2"]], ["R9"], target_score=0, **SAME | {switch: True})
    play(game, 1, "R5", uno=True)
    play(game, 1, "G5")
    assert game.round_winner() == 1


def test_a_time_out_amid_a_run_passes() -> None:
    game = fives()
    table = Conductor(game, [None, None, None])
    play(game, 1, "R5")
    assert table.time_out() == [Action.pass_(1)]
    assert (game.current, game.phase) == (2, Phase.TURN)


def test_a_time_out_amid_sevens_names_someone() -> None:
    game = sevens()
    table = Conductor(game, [None, None, None])
    play(game, 1, "R7")
    (taken,) = table.time_out()
    assert taken.card == C("G7") and taken.target is not None and game.phase is Phase.TURN


def test_a_run_is_written_and_replayed_with_no_new_field() -> None:
    game = fives(target_score=0)
    play(game, 1, "R5")
    play(game, 1, "G5")
    game.apply(Action.pass_(1))
    written = json.loads(json.dumps(record.to_json(game)))
    assert written["rules"]["same_number_together"] is True
    assert record.replay(written).position() == game.position()
    plain = make_game([["G1"], ["R5"]], ["R9"], target_score=0)
    assert "same_number_together" not in record.to_json(plain)["rules"]


def test_a_position_amid_a_run_round_trips() -> None:
    game = fives()
    play(game, 1, "R5")
    position = game.position()
    assert position.phase is Phase.RUN and position.to_json()["phase"] == "run"
    assert Position.from_json(position.to_json()) == position
    again = Game.from_position(game.rules, position)
    assert set(again.legal_actions(1)) == set(game.legal_actions(1))
    assert game.view(1).to_json()["phase"] == "run"


def heuristic(game: Game, seat: int) -> Action:
    bot = HeuristicBot(forget=0.0, miss=0.0)
    bot.start(seat, game.rules, random.Random(0))
    return bot.act(game.view(seat))


def test_the_heuristic_plays_every_five_keeping_its_colour_for_last() -> None:
    game = make_game([["G1", "G2", "G3", "G4"], ["R5", "G5", "B5", "B1"], ["B3", "B4", "Y3", "Y4"]], ["R9"], **SAME)
    play(game, 1, "R5")
    assert heuristic(game, 1) == Action.play(1, C("G5"))  # B5 last: blue is the colour it holds
    play(game, 1, "G5")
    assert heuristic(game, 1) == Action.play(1, C("B5"), uno=True)


def test_the_heuristic_sheds_no_zero_into_a_hand_it_passes_on() -> None:
    game = make_game([["G1", "G2", "G3"], ["R0", "G0", "Y1"], ["B1", "B2", "B3"]], ["R9"], zero_pass=True, **SAME)
    play(game, 1, "R0")
    assert heuristic(game, 1) == Action.pass_(1)


def test_the_heuristic_runs_its_sevens_out_rather_than_swap() -> None:
    game = make_game([["G1", "G2"], ["R7", "G7"], ["B1", "B2"]], ["R9"], seven_swap=True, **SAME)
    action = heuristic(game, 1)
    assert action.card == C("R7") and action.target is None


def test_the_run_is_a_setting_in_both_languages() -> None:
    titles = {lang: {s.name: s.title for g in switch_groups(lang) for s in g.switches} for lang in ("en", "es")}
    assert titles["en"]["same_number_together"] == "Same number together"
    assert titles["es"]["same_number_together"] == "Mismo número a la vez"
    assert Rules().with_settings(["same_number_together=on"]).same_number_together
    assert Rules.preset("all").same_number_together


def test_a_run_in_the_events_is_plays_of_one_seat() -> None:
    game = fives()
    events = [*play(game, 1, "R5"), *play(game, 1, "G5"), *game.apply(Action.pass_(1))]
    assert [e.player for e in events if isinstance(e, Played | RunEnded)] == [1, 1, 1]


def test_an_agent_reads_what_the_pass_and_the_seven_naming_nobody_do() -> None:
    names = ["Ana", "Bo", "Cy"]
    game = fives()
    play(game, 1, "R5")
    assert describe(Action.pass_(1), game.view(1), names, translator("en")) == "Play no more 5s and end your turn."
    assert describe(Action.pass_(1), game.view(1), names, translator("es")) == "No juegues más 5 y acaba tu turno."
    sevens_game = sevens()
    words = describe(Action.play(1, C("R7")), sevens_game.view(1), names, translator("en"))
    assert words == "Play Red 7 (R7), naming nobody yet: another 7 follows."


def test_a_learner_sees_a_run_as_play_or_pass_on_its_turn() -> None:
    pytest.importorskip("numpy")
    from unomas.rl.observation import ObservationLayout, encode

    game = fives()
    layout = ObservationLayout(game.rules)
    play(game, 1, "R5")
    vector = encode(game.view(1), layout)
    assert vector[layout.slices["phase"]].tolist() == [0.0, 0.0, 1.0, 0.0]  # the drawn card's slot: play or pass
    assert vector[layout.slices["on_turn"]][0] == 1.0 and not vector[layout.slices["drawn"]].any()
    assert vector[layout.slices["rules"]][SWITCHES.index("same_number_together")] == 1.0


def test_a_search_samples_worlds_where_the_runner_holds_another_of_the_number() -> None:
    game = make_game(
        [["G1", "G2", "G3", "G4"], ["R7", "G7", "Y1", "Y2"], ["B1", "B2", "B3", "B4"]],
        ["R9"],
        seven_swap=True,
        **SAME,
    )
    play(game, 1, "R7")  # a 7 naming nobody: seat 1 holds another 7
    rng = random.Random(3)
    for _ in range(30):
        world = sample_world(game.view(0), rng)
        assert any(card in (C("R7"), C("Y7"), C("G7"), C("B7")) for card in world.hands[1])
        assert world.legal_actions(1)


def test_a_catch_that_puts_out_a_runner_of_sevens_swaps_nothing() -> None:
    game = make_game(
        [["G1", "G2"], ["R7", "G7"], ["B1", "B2"], ["Y1", "Y2"]], ["R9"], seven_swap=True, elimination=3, **SAME
    )
    play(game, 1, "R7")  # naming nobody, one card left, no UNO called
    events = game.apply(Action.catch(2, 1))
    assert not any(isinstance(e, HandsSwapped) for e in events)
    assert game.is_out(1) and (game.current, game.phase) == (2, Phase.TURN)


def test_the_heuristic_amid_sevens_it_did_not_choose_names_someone() -> None:
    game = sevens()
    game.hands[1].append(C("B7"))
    game.pile.remove(C("B7"))
    play(game, 1, "R7")  # naming nobody (seat 1 holds G7 and B7 besides its yellows)
    action = heuristic(game, 1)
    assert action.card in (C("G7"), C("B7")) and action.target is not None


def test_a_sampled_runner_takes_the_card_from_another_unseen_hand_when_the_pile_has_none() -> None:
    from unomas.bots.search import _give_same_number

    hands = [[C("G1")], [C("Y2"), C("Y3")], [C("B4"), C("R5")]]
    pile = [C("G9")]
    _give_same_number(hands, 1, 0, pile, 5)
    assert hands[1] == [C("R5"), C("Y3")] and hands[2] == [C("B4"), C("Y2")] and pile == [C("G9")]
