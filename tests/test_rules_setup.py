"""RULES.md: the cards, the settings, seats and dealer, and the starting card."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from codes import raises_code
from unomas import Action, Game, IllegalAction, NotationError, Phase, Rules, SettingsError
from unomas.cards import COLOR_OF, DECK, RANK_OF, card_token, parse_card, parse_color, points
from unomas.error_codes import ERRORS
from unomas.events import (
    ColorChosen,
    DirectionChanged,
    PenaltyPending,
    Skipped,
    StartingCard,
    StartingCardReturned,
)
from unomas.game import Deal
from unomas.testing import deal_with_returns, draw, hand, make_game, play

# ---------------------------------------------------------------- the cards


def test_deck_has_108_cards() -> None:
    assert len(DECK) == 108


def test_deck_counts_per_colour() -> None:
    counts = Counter(card_token(c) for c in DECK)
    for colour in "RYGB":
        assert counts[colour + "0"] == 1
        for digit in "123456789":
            assert counts[colour + digit] == 2
        for symbol in ("S", "R", "+2"):
            assert counts[colour + symbol] == 2
    assert counts["W"] == 4
    assert counts["W+4"] == 4
    assert len(counts) == 4 * 13 + 2


@pytest.mark.parametrize(
    ("token", "value"),
    [("R0", 0), ("Y5", 5), ("B9", 9), ("GS", 20), ("RR", 20), ("B+2", 20), ("W", 50), ("W+4", 50)],
)
def test_card_points(token: str, value: int) -> None:
    assert points(parse_card(token)) == value


def test_deck_total_points() -> None:
    numbers = 4 * (0 + 2 * sum(range(1, 10)))
    assert sum(points(c) for c in DECK) == numbers + 4 * 6 * 20 + 8 * 50


def test_tokens_round_trip() -> None:
    for kind in set(DECK):
        assert parse_card(card_token(kind)) == kind


def test_token_colours_and_ranks() -> None:
    assert COLOR_OF[parse_card("Y7")] == COLOR_OF[parse_card("YS")] != COLOR_OF[parse_card("G7")]
    assert RANK_OF[parse_card("Y7")] == RANK_OF[parse_card("G7")]
    assert RANK_OF[parse_card("R+2")] == RANK_OF[parse_card("B+2")] != RANK_OF[parse_card("BR")]


@pytest.mark.parametrize("bad", ["X1", "R10", "w", "W+2", "", "R+4"])
def test_bad_tokens_are_refused(bad: str) -> None:
    from unomas import NotationError

    with pytest.raises(NotationError):
        parse_card(bad)


# ---------------------------------------------------------------- settings


def test_defaults_are_the_official_preset() -> None:
    rules = Rules()
    assert rules == Rules.preset("official")
    assert rules.to_dict() == {
        "players": 4,
        "hand_size": 7,
        "target_score": 500,
        "challenge_wild_draw_four": True,
        "stack_draw_two": False,
        "stack_draw_four": False,
        "stack_mixed": False,
        "seven_zero": False,
        "jump_in": False,
        "force_play_drawn": False,
        "draw_until_playable": False,
        "no_action_finish": False,
    }


@pytest.mark.parametrize(
    ("settings", "code", "name"),
    [
        ({"players": 1}, "setup.players_range", None),
        ({"players": 11}, "setup.players_range", None),
        ({"players": 0}, "setup.players_range", None),
        ({"hand_size": 0}, "setup.hand_size_range", None),
        ({"players": 10, "hand_size": 10}, "setup.too_many_cards", None),
        ({"players": 2, "hand_size": 50}, "setup.too_many_cards", None),
        ({"target_score": -1}, "setup.target_score_range", None),
        ({"players": "4"}, "setup.not_integer", "players"),
        ({"players": True}, "setup.not_integer", "players"),
        ({"hand_size": 7.0}, "setup.not_integer", "hand_size"),
        ({"challenge_wild_draw_four": 1}, "setup.not_boolean", "challenge_wild_draw_four"),
        ({"stack_draw_two": "yes"}, "setup.not_boolean", "stack_draw_two"),
        ({"stack_draw_four": None}, "setup.not_boolean", "stack_draw_four"),
        ({"stack_mixed": 0}, "setup.not_boolean", "stack_mixed"),
        ({"seven_zero": "true"}, "setup.not_boolean", "seven_zero"),
        ({"jump_in": 1}, "setup.not_boolean", "jump_in"),
        ({"force_play_drawn": "on"}, "setup.not_boolean", "force_play_drawn"),
        ({"draw_until_playable": 2}, "setup.not_boolean", "draw_until_playable"),
        ({"no_action_finish": []}, "setup.not_boolean", "no_action_finish"),
    ],
)
def test_bad_setting_values_name_the_setting(settings: dict[str, Any], code: str, name: str | None) -> None:
    with raises_code(SettingsError, code) as caught:
        Rules(**settings)
    assert caught.value.params.get("name") == name


@pytest.mark.parametrize(("players", "hand_size"), [(2, 7), (10, 9), (9, 11), (3, 33), (2, 49), (10, 1)])
def test_good_seat_and_hand_sizes(players: int, hand_size: int) -> None:
    assert Rules(players=players, hand_size=hand_size).players == players


def test_target_score_zero_is_allowed() -> None:
    assert Rules(target_score=0).target_score == 0


def test_unknown_setting_is_named() -> None:
    with raises_code(SettingsError, "setup.unknown_setting"):
        Rules.from_dict({"stack_everything": True})


def test_setting_strings_are_validated() -> None:
    with raises_code(SettingsError, "setup.not_boolean"):
        Rules().with_settings(["jump_in=maybe"])
    with raises_code(SettingsError, "setup.not_integer"):
        Rules().with_settings(["players=many"])
    assert Rules().with_settings(["stack_mixed=true", "players=3"]) == Rules(players=3, stack_mixed=True)


def test_uno_penalty_is_two_cards() -> None:
    game = make_game([["R1", "R2"], ["R3", "G5"]], ["R9", "B7", "B8"])
    play(game, 1, "R3")
    game.apply(Action.catch(0, 1))
    assert hand(game, 1) == sorted(["G5", "B7", "B8"])


# ---------------------------------------------------------------- seats, direction, dealer


def test_first_round_dealt_by_seat_zero_clockwise() -> None:
    game = make_game([["G1"], ["G2"], ["G3"]], ["R9"])
    assert (game.dealer, game.direction, game.current) == (0, 1, 1)


def test_players_are_dealt_their_hands_and_the_rest_is_the_pile() -> None:
    game = make_game([["G1", "G2"], ["G3", "G4"], ["G5", "G6"]], ["R9", "B7"])
    assert [hand(game, s) for s in range(3)] == [["G1", "G2"], ["G3", "G4"], ["G5", "G6"]]
    assert len(game.pile) == 108 - 6 - 1
    assert card_token(game.pile[-1]) == "B7"


def test_turns_go_clockwise() -> None:
    game = make_game([["R1", "R2"], ["R3", "R4"], ["R5", "R6"]], ["R9"])
    play(game, 1, "R3")
    assert game.current == 2
    play(game, 2, "R5")
    assert game.current == 0


def _finish_round(game: Game, seat: int, token: str) -> None:
    """``seat`` wins the round at once by playing its only card ``token``."""
    play(game, seat, token)
    assert game.phase is Phase.ROUND_OVER


def test_dealer_rotates_each_round() -> None:
    hands = [["R1"], ["R2"], ["R3"]]
    game = make_game(hands, ["R9"], target_score=1000)
    assert game.dealer == 0
    _finish_round(game, 1, "R2")
    game.start_round(Deal.from_tokens(hands, ["R9"]))
    assert (game.round, game.dealer, game.current) == (1, 1, 2)
    _finish_round(game, 2, "R3")
    game.start_round(Deal.from_tokens(hands, ["R9"]))
    assert (game.round, game.dealer, game.current) == (2, 2, 0)
    _finish_round(game, 0, "R1")
    game.start_round(Deal.from_tokens(hands, ["R9"]))
    assert (game.round, game.dealer, game.current) == (3, 0, 1)


def test_each_round_starts_clockwise() -> None:
    hands = [["R1"], ["RR"], ["R3"]]
    game = make_game(hands, ["R9"], target_score=1000)
    _finish_round(game, 1, "RR")
    game.start_round(Deal.from_tokens([["R1"], ["R2"], ["R3"]], ["R9"]))
    assert game.direction == 1
    assert game.current == 2


def test_new_round_only_after_the_round_is_over() -> None:
    game = make_game([["R1"], ["R2"]], ["R9"])
    with pytest.raises(IllegalAction):
        game.start_round(Deal.from_tokens([["R1"], ["R2"]], ["R9"]))


# ---------------------------------------------------------------- the starting card


def test_starting_card_is_the_pile_top() -> None:
    game = make_game([["G1"], ["G2"], ["G3"]], ["Y4", "B7"])
    assert card_token(game.top) == "Y4"
    assert game.color == COLOR_OF[parse_card("Y4")]
    assert card_token(game.pile[-1]) == "B7"


def test_starting_wild_draw_four_goes_back() -> None:
    deal = deal_with_returns([["G1"], ["G2"], ["G3"]], ["W+4", "R5"])
    game = Game(Rules(players=3, hand_size=1), deal=deal)
    assert card_token(game.top) == "R5"
    assert game.current == 1 and game.phase is Phase.TURN
    assert game.penalty == 0
    assert card_token(game.pile[0]) == "W+4"  # returned to the bottom, as the order says
    assert game.log is not None and game.log[0].deal.returns == deal.returns


def test_starting_wild_draw_four_repeats_and_is_reported() -> None:
    hands = [["G1"], ["G2"], ["G3"]]
    deal = deal_with_returns(hands, ["W+4", "W+4", "RS"])
    assert len(deal.returns) == 2
    game = make_game(hands, ["G9"], target_score=1000)
    _finish_round(game, 1, "G2")
    events = game.start_round(deal)
    returned = [e for e in events if isinstance(e, StartingCardReturned)]
    assert [e.pile for e in returned] == list(deal.returns)
    assert [e for e in events if isinstance(e, StartingCard)] == [StartingCard(parse_card("RS"))]
    # the Skip acts as the dealer's (seat 1) play: seat 2 is skipped
    assert game.current == 0


def test_starting_wild_draw_four_without_returns_is_refused() -> None:
    from unomas import DealError

    with pytest.raises(DealError):
        make_game([["G1"], ["G2"], ["G3"]], ["W+4", "R5"])


def test_starting_skip_skips_the_player_after_the_dealer() -> None:
    game = make_game([["G1"], ["G2"], ["G3"]], ["RS"])
    assert game.current == 2
    assert game.phase is Phase.TURN


def test_starting_skip_with_two_players_the_dealer_starts() -> None:
    game = make_game([["G1"], ["G2"]], ["RS"])
    assert game.current == 0


def test_starting_reverse_player_before_dealer_starts() -> None:
    game = make_game([["G1"], ["G2"], ["G3"], ["G4"]], ["RR"])
    assert game.direction == -1
    assert game.current == 3


def test_starting_reverse_direction_stays_flipped() -> None:
    game = make_game([["R1", "G1"], ["R2", "G2"], ["R3", "G3"], ["R4", "G4"]], ["RR"])
    play(game, 3, "R4")
    assert game.current == 2


def test_starting_reverse_with_two_players_dealer_starts() -> None:
    game = make_game([["G1"], ["G2"]], ["RR"])
    assert game.current == 0


def test_starting_reverse_in_a_later_round() -> None:
    hands = [["R1"], ["R2"], ["R3"]]
    game = make_game(hands, ["R9"], target_score=1000)
    _finish_round(game, 1, "R2")
    events = game.start_round(Deal.from_tokens(hands, ["BR"]))
    assert DirectionChanged(-1) in events
    assert game.dealer == 1 and game.current == 0


def test_starting_draw_two_faces_the_player_after_dealer() -> None:
    game = make_game([["G1", "G2"], ["G3", "G4"], ["G5", "G6"]], ["R+2", "B1", "B2", "B3"])
    assert (game.current, game.phase, game.penalty) == (1, Phase.PENALTY, 2)
    assert not game.challengeable
    draw(game, 1)
    assert hand(game, 1) == sorted(["G3", "G4", "B1", "B2"])
    assert game.current == 2 and game.phase is Phase.TURN


def test_starting_draw_two_cannot_be_stacked_by_default() -> None:
    game = make_game([["G1", "G2"], ["Y+2", "G4"], ["G5", "G6"]], ["R+2"])
    assert game.problem(Action.play(1, parse_card("Y+2"))) is not None


def test_starting_draw_two_can_be_stacked_with_stack_draw_two() -> None:
    game = make_game([["G1", "G2"], ["Y+2", "G4"], ["G5", "G6"]], ["R+2", "B1", "B2", "B3", "B4"], stack_draw_two=True)
    events = play(game, 1, "Y+2")
    assert PenaltyPending(2, 4, False) in events
    draw(game, 2)
    assert hand(game, 2) == sorted(["G5", "G6", "B1", "B2", "B3", "B4"])


def test_starting_draw_two_can_be_answered_with_w4_with_stack_mixed() -> None:
    game = make_game([["G1", "G2"], ["W+4", "G4"], ["G5", "G6"]], ["R+2"], stack_mixed=True)
    events = play(game, 1, "W+4", "B")
    assert PenaltyPending(2, 6, False) in events


def test_starting_wild_dealer_chooses_colour() -> None:
    game = make_game([["G1"], ["G2"], ["G3"]], ["W"])
    assert (game.phase, game.current, game.color) == (Phase.COLOR, 0, None)
    assert game.view(0).color is None
    assert [a.kind.value for a in game.legal_actions(0)] == ["color"] * 4
    assert game.legal_actions(1) == []
    events = game.apply(Action.choose_color(0, COLOR_OF[parse_card("B1")]))
    assert ColorChosen(0, COLOR_OF[parse_card("B1")]) in events
    assert (game.phase, game.current, game.color) == (Phase.TURN, 1, COLOR_OF[parse_card("B1")])


def test_starting_wild_only_dealer_chooses_and_nothing_else() -> None:
    game = make_game([["G1"], ["G2"], ["G3"]], ["W"])
    with pytest.raises(IllegalAction):
        game.apply(Action.choose_color(1, 0))
    with pytest.raises(IllegalAction):
        game.apply(Action.draw(0))
    with pytest.raises(IllegalAction):
        play(game, 1, "G2")
    assert game.phase is Phase.COLOR


def test_colour_choice_only_for_a_starting_wild() -> None:
    game = make_game([["G1"], ["G2"], ["G3"]], ["R9"])
    with raises_code(IllegalAction, "move.color_not_open"):
        game.apply(Action.choose_color(1, 0))


@pytest.mark.parametrize("seven_zero", [False, True])
@pytest.mark.parametrize("start", ["R7", "R0", "B5"])
def test_starting_number_has_no_effect(start: str, seven_zero: bool) -> None:
    hands = [["G1", "G2"], ["G3", "G4"], ["G5", "G6"]]
    game = make_game(hands, [start], seven_zero=seven_zero)
    assert game.current == 1 and game.direction == 1 and game.phase is Phase.TURN
    assert [hand(game, s) for s in range(3)] == [sorted(h) for h in hands]


def test_starting_card_never_counts_for_uno() -> None:
    for start in ("RS", "RR", "R+2", "R9"):
        game = make_game([["G1"], ["G2"]], [start])
        assert game.uno_pending is None
        assert all(a.kind.value != "catch" for s in (0, 1) for a in game.legal_actions(s))
    game = make_game([["G1"], ["G2"]], ["W"])
    game.apply(Action.choose_color(0, 0))
    assert game.uno_pending is None
    with pytest.raises(IllegalAction):
        game.apply(Action.catch(1, 0))


def test_starting_skip_event() -> None:
    hands = [["R1"], ["R2"], ["R3"]]
    game = make_game(hands, ["R9"], target_score=1000)
    _finish_round(game, 1, "R2")
    events = game.start_round(Deal.from_tokens(hands, ["GS"]))
    assert Skipped(2) in events and game.current == 0


def test_pile_order_after_a_returned_wild_draw_four() -> None:
    deal = deal_with_returns([["G1"], ["G2"], ["G3"]], ["W+4", "R5", "B7"])
    game = Game(Rules(players=3, hand_size=1), deal=deal)
    assert [card_token(c) for c in reversed(game.pile)] == [card_token(c) for c in deal.returns[-1][1:]]
    assert card_token(game.pile[-1]) == "B7"


def test_deal_hands_must_have_hand_size_cards() -> None:
    from unomas import DealError

    with raises_code(DealError, "deal.hand_size"):
        Game(Rules(players=2, hand_size=2), deal=Deal.from_tokens([["G1", "G2"], ["G3"]], ["R9"]))


def test_starting_wild_in_a_later_round_is_the_new_dealers_choice() -> None:
    hands = [["R1"], ["R2"], ["R3"]]
    game = make_game(hands, ["R9"], target_score=1000)
    _finish_round(game, 1, "R2")
    game.start_round(Deal.from_tokens(hands, ["W"]))
    assert (game.phase, game.current, game.dealer) == (Phase.COLOR, 1, 1)
    with pytest.raises(IllegalAction):
        game.apply(Action.choose_color(0, 0))
    game.apply(Action.choose_color(1, 2))
    assert (game.current, game.color) == (2, 2)


# ---------------------------------------------------------------- refusal codes of settings and notation

NOT_A_MAPPING: Any = []
NO_SETTINGS: Any = None
BAD_SWITCH: dict[str, Any] = {"jump_in": 1}
BAD_COUNT: dict[str, Any] = {"players": "x"}


@pytest.mark.parametrize(
    ("make", "code", "params"),
    [
        (lambda: Rules(players=11), "setup.players_range", {"value": 11}),
        (lambda: Rules(hand_size=0), "setup.hand_size_range", {"value": 0}),
        (
            lambda: Rules(players=10, hand_size=10),
            "setup.too_many_cards",
            {"players": 10, "hand_size": 10, "total": 100},
        ),
        (lambda: Rules(target_score=-1), "setup.target_score_range", {"value": -1}),
        (lambda: Rules(**BAD_SWITCH), "setup.not_boolean", {"name": "jump_in", "value": "1"}),
        (lambda: Rules(**BAD_COUNT), "setup.not_integer", {"name": "players", "value": "'x'"}),
        (lambda: Rules.preset("x"), "setup.unknown_preset", {"name": "'x'", "known": "official, all, familia, caos"}),
        (lambda: Rules.from_dict(NOT_A_MAPPING), "setup.not_an_object", {"type": "array"}),
        (lambda: Rules.from_dict(NO_SETTINGS), "setup.not_an_object", {"type": "null"}),
        (lambda: Rules.from_dict({}, complete=True), "setup.missing_setting", {"name": "'players'"}),
        (lambda: Rules().with_settings(["x"]), "setup.not_an_assignment", {"text": "'x'"}),
        (
            lambda: Rules().with_settings(["jump_in=maybe"]),
            "setup.not_boolean",
            {"name": "jump_in", "value": "'maybe'"},
        ),
        (lambda: Rules().with_settings(["players=many"]), "setup.not_integer", {"name": "players", "value": "'many'"}),
    ],
)
def test_setting_errors_carry_a_stable_code_and_params(make: Any, code: str, params: dict[str, Any]) -> None:
    with pytest.raises(SettingsError) as caught:
        make()
    error = caught.value
    assert (error.code, error.params) == (code, params)
    assert str(error) == ERRORS[code].template.format(**params)


@pytest.mark.parametrize("make", [lambda: Rules.from_dict({"zz": 1}), lambda: Rules().with_settings(["zz=1"])])
def test_an_unknown_setting_lists_the_known_ones(make: Any) -> None:
    with pytest.raises(SettingsError) as caught:
        make()
    assert caught.value.code == "setup.unknown_setting"
    assert caught.value.params["name"] == "'zz'"
    assert caught.value.params["known"].startswith("players, hand_size, target_score, ")


@pytest.mark.parametrize(
    ("make", "code", "params"),
    [
        (lambda: parse_card("R10"), "notation.not_a_card", {"token": "'R10'"}),
        (lambda: parse_color("X"), "notation.not_a_color", {"letter": "'X'"}),
        (lambda: Action.from_json([]), "notation.move_not_object", {"type": "array"}),
        (lambda: Action.from_json({"p": "x", "a": "play"}), "notation.not_a_seat", {"field": "p", "value": "'x'"}),
        (
            lambda: Action.from_json({"p": 0, "a": "draw", "card": "R1"}),
            "notation.misplaced_field",
            {"field": "'card'", "kind": "draw"},
        ),
        (
            lambda: Action.from_json({"p": 0, "a": "color"}),
            "notation.missing_field",
            {"kind": "color", "field": "color"},
        ),
        (
            lambda: Action.from_json({"p": 0, "a": "catch", "target": "1"}),
            "notation.not_a_seat",
            {"field": "target", "value": "'1'"},
        ),
        (
            lambda: Action.from_json({"p": 0, "a": "play", "card": "R1", "uno": 1}),
            "notation.not_a_flag",
            {"field": "uno", "value": "1"},
        ),
        (lambda: Action.parse("1 play R3 twice"), "notation.action_text", {"text": "'1 play R3 twice'"}),
    ],
)
def test_notation_errors_carry_a_stable_code_and_params(make: Any, code: str, params: dict[str, Any]) -> None:
    with pytest.raises(NotationError) as caught:
        make()
    error = caught.value
    assert (error.code, error.params) == (code, params)
    assert str(error) == ERRORS[code].template.format(**params)


def test_an_unknown_move_lists_the_moves() -> None:
    with raises_code(NotationError, "notation.unknown_move"):
        Action.from_json({"p": 0, "a": "jump"})
