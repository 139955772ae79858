"""``heuristic``: a rule-based player that counts cards.

Its policy, in order:

* **Facing a penalty**: answer it if it can, sending it to the opponent holding the fewest
  cards: a deflecting Reverse sends it back to the seat that gave it, a deflecting Skip
  or a stacked card on to the next seat; between answers reaching the same seat a deflect
  comes first (it keeps the draw cards and grows nothing), then a +2, then a W+4; otherwise challenge a
  challengeable W+4 when the cards it has not seen make a bluff likely (the chance that
  the W+4 player held a card of the colour in play before it, from the unseen cards and
  that player's hand size, is above ``challenge_at``, 0.3 by default: a right challenge
  swings 8 cards, a wrong one costs 2); otherwise draw.
* **On its turn**: always plays when it can, scoring each playable card:
  number and action cards of the colour it holds most of come first; wild cards are kept
  for when nothing else plays or the hand is nearly out; a W+4 is played only when it is
  legal (no card of the colour in play), unless the next player is about to go out;
  Skip and Draw Two (and Reverse, with two players) are played at once against the player
  about to win, and with two players at any time (a free extra turn), otherwise kept;
  when any opponent holds two cards or fewer, high-point cards go first so that less is
  left to score against it. Under ``seven_swap`` a 7, under ``zero_pass`` a 0, is worth playing by how many
  cards the hand it would get is smaller than its own; under ``no_action_finish`` action
  cards go early, so that a number card is left to finish with.
* **Card counting**: an opponent that draws on its turn lacks the colour in play (until it
  draws again); cards of a colour the next player lacks score higher.
* **Choices**: a wild's colour is the colour it holds most of (a colour the next player
  lacks counts a card and a half more); a 7 under ``seven_swap`` swaps with the opponent
  holding the fewest cards.
* **Hoarding wilds**: when only wild cards can be played, it draws instead while it holds
  ``hoard`` cards or more (4 by default; 0 never) and no opponent holds three or fewer.
* **A drawn card** that can be played is played.
* **Out of turn**: calls UNO late if it must, catches an opponent who forgot, always jumps
  in when it can.
* **Partners** (house rule ``teams``): a partner is never the one to hurt. It never sends a
  penalty on to a partner when it can choose (it draws instead when every answer would reach
  one), never plays a Skip, +2 or W+4 at a partner next when another card plays, never swaps
  hands with a partner by a 7, never catches one, and reckons danger from opponents only.
  With a partner next holding two cards or fewer it helps it on UNO: under ``team_view`` a
  card (or a wild's colour) the partner can follow scores higher.
* **Slips, as people do**: it forgets to call UNO ``forget`` of the time (0.2 by default:
  with the play that leaves it one card, and each time a late call is open to it) and lets
  a chance to catch go ``miss`` of the time (0.25 by default), so that a person at its table
  has someone to catch; ``heuristic:forget=0:miss=0`` never slips.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from math import comb

from unomas.actions import Action, Kind
from unomas.bots.base import Bot, first_of, plays
from unomas.cards import (
    COLOR_OF,
    DECK,
    DRAW_TWO,
    POINTS,
    RANK_OF,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
    Card,
)
from unomas.events import ColorChosen, Dealt, Drew, Event, HandsPassed, HandsSwapped, Played, StartingCard
from unomas.game import Phase, plays_on
from unomas.view import View


def guilt_probability(unseen: Counter[Card], color: int, hand_size: int) -> float:
    """The chance that a hand of ``hand_size`` cards drawn from ``unseen`` holds ``color``."""
    total = sum(unseen.values())
    of_color = sum(count for card, count in unseen.items() if COLOR_OF[card] == color)
    if hand_size <= 0 or total <= 0:
        return 0.0
    hand_size = min(hand_size, total)
    return 1.0 - comb(total - of_color, hand_size) / comb(total, hand_size)


class HeuristicBot(Bot):
    """A strong rule-based player (see the module's documentation for its policy)."""

    name = "heuristic"
    forget = 0.2
    miss = 0.25

    def __init__(
        self, challenge_at: float = 0.3, hoard: int = 4, forget: float | None = None, miss: float | None = None
    ) -> None:
        super().__init__()
        self.challenge_at = challenge_at
        self.hoard = hoard
        self.set_slips(forget, miss)
        self.color_in_play = -1
        self.color_before_wild_draw_four = -1
        self.voids: dict[int, set[int]] = {}
        """Colours each opponent is known to lack: it drew on them and has drawn no more since."""

    # ------------------------------------------------------------------ knowledge

    def observe(self, events: Sequence[Event]) -> None:
        """Follow the colour in play (to know the one a W+4 was played on) and which
        colours each opponent lacks (it drew on them)."""
        for event in events:
            if isinstance(event, Drew) and event.player != self.seat:
                if event.reason == "turn" and self.color_in_play >= 0:
                    self.voids[event.player] = {self.color_in_play}
                else:
                    self.voids.pop(event.player, None)
            elif isinstance(event, Dealt | HandsSwapped | HandsPassed):
                self.voids.clear()
            if isinstance(event, Played):
                if event.card == WILD_DRAW_FOUR:
                    self.color_before_wild_draw_four = self.color_in_play
                self.color_in_play = event.color if event.color is not None else COLOR_OF[event.card]
            elif isinstance(event, ColorChosen):
                self.color_in_play = event.color
            elif isinstance(event, StartingCard):
                self.color_in_play = COLOR_OF[event.card]

    def unseen(self, view: View) -> Counter[Card]:
        """Cards this seat has not seen: not in its hand nor in the discard pile."""
        left = Counter(DECK)
        left.subtract(view.hand)
        left.subtract(view.discard)
        return +left

    # ------------------------------------------------------------------ decisions

    def act(self, view: View) -> Action:
        actions = view.legal_actions
        call = self.call_or_catch(view)  # the seat on turn may call or catch first
        if call is not None:
            return call
        options = plays(actions)
        if view.phase is Phase.COLOR:
            best = self.best_color(view.hand)
            return next(a for a in actions if a.color == best)
        if view.phase is Phase.PENALTY:
            return self.answer_penalty(view, options, actions)
        if view.phase is Phase.RUN:
            return self.go_on(view, options, actions)
        if options:
            only_wilds = all(a.card is not None and a.card >= WILD for a in options)
            draw = first_of(actions, Kind.DRAW)
            danger = self.danger(view)
            if not (self.hoard and only_wilds and draw and len(view.hand) >= self.hoard and danger > 3):
                return self.best_play(view, options)
        for kind in (Kind.DRAW, Kind.PASS):
            action = first_of(actions, kind)
            if action is not None:
                return action
        uno = first_of(actions, Kind.UNO)
        assert uno is not None, f"no action among {actions}"
        return uno

    def react(self, view: View) -> Action | None:
        call = self.call_or_catch(view)
        if call is not None:
            return call
        options = plays(view.legal_actions)
        return self.best_play(view, options) if options else None

    @staticmethod
    def opponents(view: View) -> list[int]:
        """The seats playing against this one: every other seat but its partners."""
        return [other for other in range(view.rules.players) if other != view.seat and other not in view.partners]

    def danger(self, view: View) -> int:
        """The fewest cards an opponent holds."""
        return min(view.hand_sizes[other] for other in self.opponents(view))

    def answer_penalty(self, view: View, options: list[Action], actions: Sequence[Action]) -> Action:
        direction = view.direction

        def receiver(card: Card) -> int:
            back = RANK_OF[card] == REVERSE and card < WILD
            return self.next_in_round(view, -direction if back else direction)

        options = [a for a in options if a.card is not None and receiver(a.card) not in view.partners]
        if options:

            def preference(card: Card) -> tuple[int, int]:
                """(cards held by the seat the penalty would go to, deflect < +2 < W+4)."""
                rank = RANK_OF[card]
                return view.hand_sizes[receiver(card)], 0 if rank in (SKIP, REVERSE) and card < WILD else (
                    2 if card == WILD_DRAW_FOUR else 1
                )

            best = min(preference(a.card) for a in options if a.card is not None)
            return self.best_play(view, [a for a in options if a.card is not None and preference(a.card) == best])
        challenge = first_of(actions, Kind.CHALLENGE)
        if challenge is not None and self.should_challenge(view):
            return challenge
        draw = first_of(actions, Kind.DRAW)
        assert draw is not None
        return draw

    def go_on(self, view: View, options: list[Action], actions: Sequence[Action]) -> Action:
        """``same_number_together``: play every card of the number, the colour held most
        kept for last (it stays in play); but a run of 7s that swap or 0s that pass hands
        goes on only to empty the hand, since the cards shed would lighten a hand given away."""
        rank = RANK_OF[view.top]
        rules = view.rules
        moves_hands = (rank == 7 and rules.swaps_on_seven) or (rank == 0 and rules.passes_on_zero)
        if moves_hands and not all(RANK_OF[c] == rank for c in view.hand):
            stop = first_of(actions, Kind.PASS)
            if stop is not None:
                return stop
            return self.best_play(view, [a for a in options if a.target is not None])  # the 7 naming someone
        others = Counter(COLOR_OF[c] for c in view.hand if RANK_OF[c] != rank)
        card = min({a.card for a in options if a.card is not None}, key=lambda c: (others[COLOR_OF[c]], c))
        variants = [a for a in options if a.card == card]
        going_on = [a for a in variants if a.target is None]
        return self.slip_call(view, max(going_on or variants, key=lambda a: a.uno))

    def should_challenge(self, view: View) -> bool:
        accused = view.accused
        color = self.color_before_wild_draw_four
        if accused is None or color < 0:
            return False
        chance = guilt_probability(self.unseen(view), color, view.hand_sizes[accused])
        return chance > self.challenge_at

    def best_play(self, view: View, options: list[Action]) -> Action:
        """The best of some play actions, by the policy's scores, with its best variant."""
        best_card = max({a.card for a in options if a.card is not None}, key=lambda c: self.card_score(view, c))
        variants = [a for a in options if a.card == best_card]
        if view.partners:  # a 7 swaps with a partner only when no opponent may be named
            variants = [a for a in variants if a.target not in view.partners] or variants
        calling = [a for a in variants if a.uno]
        variants = calling or variants
        if best_card >= WILD:
            next_seat = (self.seat + view.direction) % view.rules.players
            color = self.best_color([c for c in view.hand if c != best_card], self.voids.get(next_seat, set()))
            helped = self.partner_next(view)
            if helped is not None and view.hand_sizes[helped] <= 2:  # help the partner out: its colour
                theirs = [c for c in self.seen_hand(view, helped) if c < WILD]
                color = self.best_color(theirs) if theirs else color
            variants = [a for a in variants if a.color == color] or variants
        targets = [a for a in variants if a.target is not None]
        if len(targets) < len(variants) and all(RANK_OF[c] == RANK_OF[best_card] for c in view.hand):
            targets = []  # same_number_together: a run of 7s that empties the hand goes on (no swap)
        if targets:
            return self.slip_call(view, min(targets, key=lambda a: (view.hand_sizes[a.target or 0], a.target)))
        return self.slip_call(view, variants[0])

    def next_in_round(self, view: View, step: int) -> int:
        """The next seat ``step`` (1 or -1) from this one still in the round (house rule
        ``elimination``: a seat holding that many cards is passed over)."""
        players, limit = view.rules.players, view.rules.elimination
        seat = (self.seat + step) % players
        while limit and view.hand_sizes[seat] >= limit and seat != self.seat:
            seat = (seat + step) % players
        return seat

    def partner_next(self, view: View) -> int | None:
        """The next seat if it is a partner (house rule ``teams``), else None."""
        next_seat = self.next_in_round(view, view.direction)
        return next_seat if next_seat in view.partners else None

    @staticmethod
    def seen_hand(view: View, seat: int) -> tuple[Card, ...]:
        """The cards of partner ``seat`` this seat sees (``team_view``), else none."""
        return next((cards for other, cards in view.partner_hands if other == seat), ())

    def card_score(self, view: View, card: Card) -> float:
        seat, rules = self.seat, view.rules
        players = rules.players
        sizes = view.hand_sizes
        next_seat = (seat + view.direction) % players
        next_size = sizes[next_seat]
        danger = self.danger(view)
        hand = view.hand
        partner = self.partner_next(view)
        if partner is not None:  # never hurt a partner; help it out when it is nearly out
            return self.partner_score(view, card, partner) + POINTS[card] / 10.0
        if card >= WILD:
            if card == WILD_DRAW_FOUR:
                legal = not any(COLOR_OF[c] == view.color for c in hand if c < WILD)
                if next_size <= 2:
                    return 60.0
                return (-20.0 if legal else -80.0) + (30.0 if len(hand) <= 2 else 0.0)
            return -30.0 + (30.0 if len(hand) <= 2 else 0.0)
        score = 4.0 * sum(1 for c in hand if c != card and COLOR_OF[c] == COLOR_OF[card])
        if COLOR_OF[card] in self.voids.get(next_seat, ()):
            score += 15.0  # the next player is known to lack this colour
        rank = RANK_OF[card]
        if rank in (SKIP, DRAW_TWO) or (rank == REVERSE and players == 2):
            # The next player loses a turn: with two players this is a free extra turn.
            score += 40.0 if next_size <= 2 else (25.0 if players == 2 else -3.0)
        if ((rank == 7 and rules.swaps_on_seven) or (rank == 0 and rules.passes_on_zero)) and len(hand) > 1:
            # a 7: the hand of the opponent holding the fewest; a 0: the previous seat's
            gets = danger if rank == 7 else sizes[(seat - view.direction) % players]
            score += 12.0 * (len(hand) - 1 - gets)
        if rules.no_action_finish and rank >= SKIP:
            score += 15.0  # shed action cards early: the last card must be a number
        if danger <= 2:
            score += POINTS[card]
        else:
            score += POINTS[card] / 10.0
        return score

    def partner_score(self, view: View, card: Card, partner: int) -> float:
        """The score of ``card`` with a partner next: no Skip, +2 or W+4 at it; a card it can
        follow (seen under ``team_view``) when it holds two cards or fewer, above all when
        it would go out; otherwise the colour this seat holds most of."""
        hand = view.hand
        rank = RANK_OF[card]
        score = 4.0 * sum(1 for c in hand if c != card and c < WILD and COLOR_OF[c] == COLOR_OF[card])
        if card == WILD_DRAW_FOUR or (card < WILD and rank in (SKIP, DRAW_TWO)):
            score -= 60.0
        elif card >= WILD:
            score -= 30.0 - (30.0 if len(hand) <= 2 else 0.0)
        theirs = self.seen_hand(view, partner)
        if theirs and len(theirs) <= 2 and (card >= WILD or any(plays_on(c, card, COLOR_OF[card]) for c in theirs)):
            score += 100.0 if len(theirs) == 1 else 20.0  # (a wild's colour will be the partner's)
        return score

    @staticmethod
    def best_color(hand: Sequence[Card], lacking: set[int] | frozenset[int] = frozenset()) -> int:
        """The colour held most (a colour the next player lacks counts 1.5 cards more)."""
        counts = Counter(COLOR_OF[c] for c in hand if c < WILD)
        return max(range(4), key=lambda color: (counts[color] + (1.5 if color in lacking else 0.0), -color))
