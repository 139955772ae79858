"""What a seat may know (the knowledge functions of unomas.view), over random play."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from unomas.game import Game
from unomas.rules import SWITCHES, Rules
from unomas.view import drawn_card, own_hand, shown_hand


def random_rules(rng: random.Random) -> Rules:
    """Any settings: every switch drawn at random, 2 to 6 players, a small target."""
    players = rng.randint(2, 6)
    switches = {name: rng.random() < 0.5 for name in SWITCHES}
    return Rules(players=players, hand_size=rng.randint(1, 7), target_score=rng.choice([0, 30, 100]), **switches)


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
            if game.drawn >= 0:
                assert drawn_card(game, game.current) == game.drawn
                drawn = True
            if game.shown is not None:
                challenger, challenged, cards = game.shown
                assert shown_hand(game, challenger) == (challenged, cards)
                shown = True
        if drawn and shown:
            return
    raise AssertionError("no drawn card or no shown hand came up")
