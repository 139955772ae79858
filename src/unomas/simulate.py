"""Matches between random players: the engine's workout and its benchmark.

Two policies, both of which also take the out-of-turn actions (so UNO calls are sometimes
forgotten and caught, W+4 bluffed and challenged, jump-ins taken, stacks answered):

``playfirst``
    On its turn, plays a uniformly chosen playable card when it has one (a random colour
    for a wild, a random target for a 7), plays a playable drawn card, and draws only
    otherwise; as dealer it picks a random starting colour. Facing a penalty it stacks
    when it can, else challenges a challengeable W+4 half of the time, else draws. It
    calls UNO with the play 9 times in 10. Out of turn, each chance (a late UNO call,
    a catch, a jump-in) is taken half of the time.
``uniform``
    Picks uniformly among all legal actions of its turn, voluntary draws included; out
    of turn, takes one of its actions, uniformly chosen, half of the time.

Every match draws its randomness from the seed and its own number, so the same seed gives
the same matches whatever else runs.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from unomas.actions import Action, Kind
from unomas.game import Game
from unomas.rules import Rules

PLAY, DRAW, PASS, COLOR, CHALLENGE, UNO, CATCH = Kind

Policy = Callable[[Game, int, random.Random], Action]
"""Chooses a legal turn action for the seat on turn."""

MAX_ACTIONS_PER_ROUND = 100_000
"""A round still running after this many actions is abandoned (every card can end up in
hands with nothing playable, and then the round would never end)."""


def playfirst(game: Game, seat: int, rng: random.Random) -> Action:
    """Play a uniformly chosen playable card if any, else challenge half the time, else draw."""
    cards = game.playable_cards(seat)
    if cards:
        card = cards[int(rng.random() * len(cards))] if len(cards) > 1 else cards[0]
        variants = game.play_variants(seat, card)
        if len(variants) > 1:
            call = rng.random() < 0.9
            variants = [a for a in variants if a.uno == call] or variants
            return variants[int(rng.random() * len(variants))]
        return variants[0]
    actions = game.legal_actions(seat)
    for action in actions:
        if action.kind is CHALLENGE and rng.random() < 0.5:
            return action
    for action in actions:
        if action.kind is DRAW or action.kind is PASS:
            return action
    colors = [a for a in actions if a.kind is COLOR]
    return colors[int(rng.random() * len(colors))]


def uniform(game: Game, seat: int, rng: random.Random) -> Action:
    """Any legal turn action, uniformly."""
    turn = [a for a in game.legal_actions(seat) if a.kind is not UNO and a.kind is not CATCH]
    return turn[int(rng.random() * len(turn))]


POLICIES: dict[str, Policy] = {"playfirst": playfirst, "uniform": uniform}


@dataclass(slots=True)
class MatchResult:
    """What one simulated match gave."""

    game: Game
    rounds: int
    actions: int
    abandoned: bool


def play_match(
    rules: Rules,
    policy: Policy,
    *,
    game_rng: random.Random | random.SystemRandom,
    player_rng: random.Random,
    history: bool = False,
) -> MatchResult:
    """Play one match to its end with every seat following ``policy``."""
    game = Game(rules, rng=game_rng, history=history)
    actions = 0
    rounds = 1
    round_start = 0
    chance = player_rng.random
    while True:
        if game.round_over:
            if game.is_over:
                return MatchResult(game, rounds, actions, abandoned=False)
            game.start_round()
            rounds += 1
            round_start = actions
        if actions - round_start >= MAX_ACTIONS_PER_ROUND:
            return MatchResult(game, rounds, actions, abandoned=True)
        if game.uno_pending >= 0 or game.rules.jump_in:
            for seat in game.out_of_turn_seats():
                options = game.legal_actions(seat)
                if options and chance() < 0.5:
                    game.push(options[int(chance() * len(options))])
                    actions += 1
                    if game.round_over:
                        break
            if game.round_over:
                continue
        seat = game.current
        game.push(policy(game, seat, player_rng))
        actions += 1


def match_rngs(seed: int | str | None, number: int) -> tuple[random.Random | random.SystemRandom, random.Random]:
    """The game's and the players' random sources for match ``number`` of a run."""
    if seed is None:
        return random.SystemRandom(), random.Random(secrets.randbits(64))
    return random.Random(f"{seed}/{number}/game"), random.Random(f"{seed}/{number}/players")


def simulate(
    rules: Rules,
    games: int,
    *,
    policy: str = "playfirst",
    seed: int | str | None = None,
    history: bool = False,
) -> Iterator[MatchResult]:
    """Play ``games`` matches with the named policy, yielding each as it ends."""
    chooser = POLICIES[policy]
    for number in range(games):
        game_rng, player_rng = match_rngs(seed, number)
        yield play_match(rules, chooser, game_rng=game_rng, player_rng=player_rng, history=history)
