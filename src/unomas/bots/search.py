"""The search behind ``ismcts``: sampled worlds, UCT descents, greedy rollouts.

Kept apart from the bot so that the compiled build compiles it (it is where the time goes).
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Sequence
from typing import Final

from unomas.actions import Action, Kind
from unomas.cards import COLOR_OF, DECK, RANK_OF, SKIP, WILD, WILD_DRAW_FOUR, Card
from unomas.game import Game, plays_on, shuffle
from unomas.position import Phase, Position
from unomas.view import View

ROLLOUT_LIMIT = 2_000
"""Actions after which a rollout stops without a winner."""


class WorldSampler:
    """Samples worlds consistent with one view (see :func:`sample_world`); what does not
    change between samples (the unseen cards, the public state) is worked out once."""

    def __init__(
        self,
        view: View,
        *,
        color_before_wild_draw_four: int = -1,
        lacking: dict[int, set[int]] | None = None,
    ) -> None:
        assert view.seat is not None
        self.view = view
        self.seat = view.seat
        unseen = Counter(DECK)
        unseen.subtract(view.hand)
        unseen.subtract(view.discard)
        self.known = dict(view.partner_hands)
        """The partners' hands the view shows (house rule ``team_view``): every world deals them as they are."""
        for cards in self.known.values():
            unseen.subtract(cards)
        self.unseen = list(unseen.elements())
        self.lacking = {
            seat: colors
            for seat, colors in (lacking or {}).items()
            if seat != view.seat and seat not in self.known and colors
        }
        self.color_before = color_before_wild_draw_four
        seen = view.seat
        self.table = Game.from_position(
            view.rules,
            Position(
                round=view.round,
                ply=view.ply,
                dealer=view.dealer,
                hands=tuple([view.hand if seat == seen else () for seat in range(len(view.hand_sizes))]),
                pile=(),
                discard=view.discard,
                color=view.color,
                direction=view.direction,
                current=view.current,
                phase=view.phase,
                penalty=view.penalty,
                challengeable=view.challengeable,
                accused=view.accused,
                drawn=view.drawn,
                uno_pending=view.uno_pending,
                scores=view.scores,
            ),
            check=False,
        )
        """The table as the view shows it, the hidden cards left out: each sample deals them."""

    def sample(self, rng: random.Random, *, events: bool = True) -> Game:
        """One world: the unseen cards dealt at random to the other hands and the pile (a
        partner's hand the view shows stays as it is).
        ``events=False``: the world is quiet (the search's descents and rollouts read no
        events; see :meth:`Game.redealt <unomas.game.Game.redealt>`)."""
        view = self.view
        pool = self.unseen[:]
        shuffle(rng, pool)  # the engine's (compiled) shuffle: random.shuffle is Python code
        sizes = view.hand_sizes
        hands: list[list[Card]] = [[] for _ in sizes]
        hands[self.seat] = list(view.hand)
        for seat, cards in self.known.items():
            hands[seat] = list(cards)
        for seat, colors in self.lacking.items():
            hands[seat], pool = _deal_avoiding(pool, sizes[seat], colors)
        start = 0
        for seat, size in enumerate(sizes):
            if seat != self.seat and seat not in self.lacking and seat not in self.known:
                hands[seat] = pool[start : start + size]
                start += size
        accused = view.accused
        color_before = self.color_before
        guilty = accused is not None and color_before >= 0 and any(COLOR_OF[c] == color_before for c in hands[accused])
        drawn = view.drawn
        pile = pool[start:]
        if view.phase is Phase.DRAWN and view.current in self.known:
            drawn = hands[view.current][-1]  # a seen partner's card just drawn: the last it took
        elif view.phase is Phase.DRAWN and view.current != self.seat:
            drawn = _give_playable(hands[view.current], pile, view)
        elif view.phase is Phase.RUN and view.current != self.seat:
            _give_same_number(hands, view.current, self.seat, pile, RANK_OF[view.top])
        return self.table.redealt(hands, pile, drawn=drawn, accused_guilty=guilty, rng=rng, events=events)


def sample_world(
    view: View,
    rng: random.Random,
    *,
    color_before_wild_draw_four: int = -1,
    lacking: dict[int, set[int]] | None = None,
) -> Game:
    """A game consistent with ``view``: unseen cards dealt at random by the known sizes.

    The own hand, the discard pile, every count and the public state are the view's.
    ``lacking`` names colours some opponents are believed not to hold (they drew on them):
    their hands are dealt from the other cards first. For a W+4 that may be challenged,
    whether its player was guilty is judged on their sampled hand against
    ``color_before_wild_draw_four`` (the colour in play before it).
    """
    sampler = WorldSampler(view, color_before_wild_draw_four=color_before_wild_draw_four, lacking=lacking)
    return sampler.sample(rng)


def _give_same_number(hands: list[list[Card]], runner: int, seat: int, pile: list[Card], rank: int) -> None:
    """``same_number_together``: the player amid a run holds another card of its number
    (it goes on only then): one is swapped into its sampled hand from the pile or another
    unseen hand if it has none."""
    hand = hands[runner]
    if any(RANK_OF[card] == rank for card in hand):
        return
    for index, card in enumerate(pile):
        if RANK_OF[card] == rank:
            pile[index], hand[0] = hand[0], card
            return
    for other, cards in enumerate(hands):
        if other not in (seat, runner):
            for index, card in enumerate(cards):
                if RANK_OF[card] == rank:
                    cards[index], hand[0] = hand[0], card
                    return


def _give_playable(hand: list[Card], pile: list[Card], view: View) -> Card:
    """The card a player deciding about a drawn card holds: one of its sampled cards that
    plays on the top (swapped in from the pile if it has none)."""
    top = view.top
    color = -1 if view.color is None else view.color
    for card in hand:
        if plays_on(card, top, color):
            return card
    for index, card in enumerate(pile):
        if plays_on(card, top, color):
            pile[index], hand[0] = hand[0], card
            return card
    return hand[0]  # nothing in reach plays: a world as close as the cards allow


def _deal_avoiding(pool: list[Card], size: int, colors: set[int]) -> tuple[list[Card], list[Card]]:
    """``size`` cards from the (shuffled) pool, avoiding ``colors`` while it can; the rest."""
    hand: list[Card] = []
    rest: list[Card] = []
    for card in pool:
        if len(hand) < size and (card >= WILD or COLOR_OF[card] not in colors):
            hand.append(card)
        else:
            rest.append(card)
    missing = size - len(hand)
    if missing > 0:
        hand.extend(rest[:missing])
        rest = rest[missing:]
    return hand, rest


class Node:
    """A tree node: the statistics of the action that led to it, by the player who took it."""

    __slots__ = ("available", "children", "player", "visits", "wins")

    def __init__(self, player: int) -> None:
        self.player = player
        self.visits = 0
        self.wins = 0.0
        self.available = 0
        self.children: dict[Action, Node] = {}


def rollout_action(game: Game, player: int, rng: random.Random) -> Action:
    """The rollout policy: a quick greedy player, much like ``heuristic`` without memory.

    Plays rather than draws; prefers coloured cards to wild ones, action cards with two
    players (a free turn), then the colour it holds most of; a wild takes the colour it
    holds most of, a 7 the smallest other hand; calls UNO; stacks rather than draws.
    """
    cards = game.playable_cards(player)
    if not cards:
        actions = game.non_play_actions(player)
        for action in actions:
            if action.kind is Kind.DRAW or action.kind is Kind.PASS:
                return action
        return actions[int(rng.random() * len(actions))]
    best = cards[0]
    counts: list[int] = []  # the colours held, counted only when a choice needs them
    if len(cards) > 1:
        counts = _color_counts(game.hands[player])
        two_players = game.players == 2
        best_score = -1000
        for card in cards:
            if card >= WILD:
                score = -100 + (10 if card == WILD_DRAW_FOUR else 0)
            else:
                score = counts[COLOR_OF[card]] * 4 + (20 if two_players and RANK_OF[card] >= SKIP else 0)
            if score > best_score:
                best, best_score = card, score
    variants = game.play_variants(player, best)
    if len(variants) == 1:
        return variants[0]
    if not counts:
        counts = _color_counts(game.hands[player])
    color = 0  # the colour held most (the first of equals), without max() and index() calls
    for other in range(1, 4):
        if counts[other] > counts[color]:
            color = other
    chosen = variants[0]
    smallest = 1000
    for action in variants:
        if action.color is not None and action.color != color:
            continue
        if action.target is not None and len(game.hands[action.target]) >= smallest:
            continue
        if action.target is not None:
            smallest = len(game.hands[action.target])
        chosen = action
        if action.uno:
            break
    return chosen


_COLOR_UNIT: Final = tuple(1 << 8 * COLOR_OF[card] for card in range(WILD))
"""What a coloured card adds to :func:`_color_counts`' packed count: one in its colour's byte."""


def _color_counts(hand: list[Card]) -> list[int]:
    """How many cards of each colour ``hand`` holds (wild cards left out), counted in one
    integer, a byte per colour (a hand holds fewer than 256 cards): machine arithmetic in
    the compiled build, where adding to list items is not."""
    packed = 0
    for card in hand:
        if card < WILD:
            packed += _COLOR_UNIT[card]
    return [packed & 255, packed >> 8 & 255, packed >> 16 & 255, packed >> 24]


def search_actions(game: Game, player: int) -> list[Action]:
    """The turn actions the search considers for ``player`` (see :func:`turn_candidates`)."""
    return turn_candidates(game.legal_actions(player))


def turn_candidates(legal: Sequence[Action]) -> list[Action]:
    """The turn actions worth weighing among ``legal``: less out-of-turn calls (UNO,
    catches), and a play that may call UNO only with the call."""
    actions = [a for a in legal if a.kind is not Kind.UNO and a.kind is not Kind.CATCH]
    for action in actions:  # a loop, not any(): no generator made on every step of a descent
        if action.uno:
            break
    else:
        return actions
    calling = {(a.card, a.color, a.target) for a in actions if a.uno}
    return [a for a in actions if a.uno or a.kind is not Kind.PLAY or (a.card, a.color, a.target) not in calling]


def search(
    view: View,
    rng: random.Random,
    *,
    iterations: int | None,
    seconds: float | None,
    exploration: float,
    color_before_wild_draw_four: int = -1,
    lacking: dict[int, set[int]] | None = None,
) -> Node:
    """Run ISMCTS from ``view`` for ``iterations`` or ``seconds``; return the root. With teams
    (house rule ``teams``) a round won by a partner is a win."""
    root = Node(-1)
    rules = view.rules
    team_of = tuple(rules.team_of(seat) for seat in range(rules.players)) if rules.team_count else ()
    sampler = WorldSampler(view, color_before_wild_draw_four=color_before_wild_draw_four, lacking=lacking)
    deadline = time.perf_counter() + seconds if seconds is not None else math.inf
    iteration = 0
    while True:
        if iterations is not None and iteration >= iterations:
            break
        if iteration and time.perf_counter() >= deadline:
            break
        iteration += 1
        game = sampler.sample(rng, events=False)
        _iterate(root, game, rng, exploration, team_of)
    return root


def _iterate(root: Node, game: Game, rng: random.Random, exploration: float, team_of: tuple[int, ...]) -> None:
    """One descent: select by UCB1 with availability, expand one action, roll out, credit
    (a node's player wins with the winner, or with teams, ``team_of`` not empty, with its team)."""
    node = root
    path = [root]
    while not game.round_over:
        player = game.current
        actions = search_actions(game, player)
        children = node.children
        untried = []
        tried: list[tuple[Action, Node]] = []
        for action in actions:
            child = children.get(action)
            if child is None:
                untried.append(action)
            else:
                child.available += 1
                tried.append((action, child))
        if untried:
            action = untried[int(rng.random() * len(untried))]
            child = Node(player)
            child.available = 1
            children[action] = child
            game.push(action)
            path.append(child)
            break
        best_score = -1.0
        best_action, best_child = tried[0]
        for action, child in tried:
            score = child.wins / child.visits + exploration * math.sqrt(math.log(child.available) / child.visits)
            if score > best_score:
                best_score, best_action, best_child = score, action, child
        game.push(best_action)
        node = best_child
        path.append(node)
    winner = rollout(game, rng)
    for visited in path:
        visited.visits += 1
        player = visited.player
        if player == winner or (team_of and player >= 0 and winner >= 0 and team_of[player] == team_of[winner]):
            visited.wins += 1.0


def rollout(game: Game, rng: random.Random) -> int:
    """Play the round out with :func:`rollout_action`; the winner's seat, or -1 if it drags on."""
    for _ in range(ROLLOUT_LIMIT):
        if game.round_over:
            break
        game.push(rollout_action(game, game.current, rng))
    else:
        return -1
    return game.round_winner()
