"""The rules engine: one match (a series of rounds) in play.

:class:`Game` holds the whole truth of a match — every hand, the draw pile, the discard
pile — and is the one place where the rules of RULES.md live. It offers:

* :meth:`Game.legal_actions`: every action open to a seat right now, out-of-turn ones
  included (calling UNO, catching, jumping in);
* :meth:`Game.apply`: plays an action after checking it; an illegal one raises
  :class:`~unomas.errors.IllegalAction` naming the reason and changes nothing;
  :meth:`Game.push` is the unchecked fast path for callers that took the action from
  :meth:`legal_actions`;
* :meth:`Game.view`: what one seat may know, the only way state leaves toward a player;
* :meth:`Game.position` and :meth:`Game.from_position`: the whole state as a value
  (:class:`~unomas.position.Position`), and a game in a given one;
* :meth:`Game.copy`: a fast copy for search.

Randomness comes from one source owned by the game: ``random.SystemRandom`` unless a seed
or a generator is given. Chance can also be dictated (a stacked deal, a recorded reshuffle),
which is how records replay and tests set up positions.

>>> from unomas.cards import parse_card as c
>>> game = Game(Rules(players=2, hand_size=2, target_score=0),
...             deal=Deal.from_tokens([["R1", "R2"], ["R3", "G5"]], ["R9", "B7"]))
>>> game.current, card_token(game.top)
(1, 'R9')
>>> sorted(str(a) for a in game.legal_actions(1))
['1 draw', '1 play R3', '1 play R3 uno']
>>> events = game.apply(Action.play(1, c("R3"), uno=True))
>>> game.current
0
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Final, Protocol, cast

from unomas.actions import Action, Kind
from unomas.cards import (
    COLOR_OF,
    COPIES,
    DECK,
    IS_ACTION_OR_WILD,
    IS_DRAW_CARD,
    POINTS,
    RANK_OF,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
    Card,
    Color,
    card_token,
    color_letter,
    is_full_deck,
    parse_card,
)
from unomas.cards import DRAW_TWO as DRAW_TWO_RANK
from unomas.error_codes import ERRORS
from unomas.errors import DealError, IllegalAction, PositionError
from unomas.events import (
    Caught,
    Challenged,
    ColorChosen,
    Dealt,
    DirectionChanged,
    Drew,
    Eliminated,
    Event,
    HandsPassed,
    HandsSwapped,
    MatchEnded,
    PenaltyPending,
    Played,
    Reshuffled,
    RoundEnded,
    RunEnded,
    Skipped,
    StartingCard,
    StartingCardReturned,
    UnoCalled,
)
from unomas.events import Passed as PassedEvent
from unomas.position import Phase, Position
from unomas.rules import Rules
from unomas.view import View, make_view

if TYPE_CHECKING:  # the compiled build's native integers, named for it alone (plain ints at run time)
    from mypy_extensions import i64

__all__ = ["Deal", "Game", "Phase", "RandomSource", "RoundLog", "plays_on"]

PLAY: Final = Kind.PLAY
DRAW: Final = Kind.DRAW
PASS: Final = Kind.PASS
COLOR: Final = Kind.COLOR
CHALLENGE: Final = Kind.CHALLENGE
UNO: Final = Kind.UNO
CATCH: Final = Kind.CATCH
_PILE_DRY: Final = -1
"""What :meth:`Game._take` gives when no card is left to draw (a private int, for speed)."""
_SEVEN: Final = 7
_ZERO: Final = 0


_PlayGroup = tuple[int | None, tuple[Action, ...], tuple[Action, ...]]


def plays_on(card: Card, top: Card, color: int) -> bool:
    """Whether ``card`` may be played on a normal turn onto ``top`` with ``color`` in play:
    a wild card, the colour in play, or the top card's rank (symbol).

    >>> plays_on(parse_card("R7"), parse_card("G7"), 2), plays_on(parse_card("R7"), parse_card("G5"), 2)
    (True, False)
    """
    return card >= WILD or COLOR_OF[card] == color or RANK_OF[card] == RANK_OF[top]


_PLAYS_ON: Final = tuple(
    sum(1 << card for card in range(len(RANK_OF)) if plays_on(card, top, color))
    for top in range(len(RANK_OF))
    for color in range(4)
)
""":func:`plays_on` as bit masks, built once from it: bit ``card`` of entry
``4 * top + color`` is set when ``card`` plays onto ``top`` with ``color`` in play
(so a hand is judged without a call per card)."""


@functools.cache
def _play_table(players: int, seven_swap: bool, same_number: bool) -> tuple[tuple[tuple[_PlayGroup, ...], ...], ...]:
    """Every play variant, built once: ``[player][card]`` gives groups of
    ``(target, variants without an UNO call, variants with and without it)``; under
    ``same_number_together`` a 7 that swaps also comes without a target (the 7 that goes on
    to another 7), first."""

    def variants(player: int, card: Card, target: int | None, uno: bool) -> tuple[Action, ...]:
        colors: tuple[int | None, ...] = (0, 1, 2, 3) if card >= WILD else (None,)
        calls = (False, True) if uno else (False,)
        return tuple(Action(player, PLAY, card, color, target, call) for color in colors for call in calls)

    table = []
    for player in range(players):
        row = []
        for card in range(len(RANK_OF)):
            takes_target = seven_swap and RANK_OF[card] == _SEVEN
            targets: list[int | None] = [t for t in range(players) if t != player] if takes_target else [None]
            if takes_target and same_number:
                targets.insert(0, None)
            row.append(tuple((t, variants(player, card, t, False), variants(player, card, t, True)) for t in targets))
        table.append(tuple(row))
    return tuple(table)


class _SeatActions:
    """One seat's actions other than plays, built once (see :func:`_seat_actions`)."""

    __slots__ = ("catches", "challenge", "colors", "draw", "pass_", "uno")

    def __init__(self, player: int, players: int) -> None:
        self.draw = Action(player, DRAW)
        self.pass_ = Action(player, PASS)
        self.challenge = Action(player, CHALLENGE)
        self.uno = Action(player, UNO)
        self.catches = tuple(Action(player, CATCH, None, None, target) for target in range(players))
        self.colors = tuple(Action(player, COLOR, None, color) for color in range(4))


@functools.cache
def _seat_actions(players: int) -> tuple[_SeatActions, ...]:
    return tuple(_SeatActions(player, players) for player in range(players))


class _Switches:
    """The house-rule switches of a game's :class:`Rules`, read on every action: attributes
    of a compiled class, where a ``Rules`` (a Python dataclass) is looked up by name."""

    __slots__ = (
        "alternative_scoring",
        "answering",
        "challenge_wild_draw_four",
        "deflect",
        "draw_until_playable",
        "elimination",
        "force_play_drawn",
        "hand_limit",
        "jump_in",
        "last_card_barred",
        "no_action_finish",
        "no_wild_finish",
        "reverse_deflect",
        "same_number",
        "seven_swap",
        "seven_zero",
        "skip_deflect",
        "stack_draw_four",
        "stack_draw_two",
        "stack_mixed",
        "stacking",
        "team_of",
        "teams",
        "uno_penalty",
        "zero_pass",
    )

    def __init__(self, rules: Rules) -> None:
        self.challenge_wild_draw_four = rules.challenge_wild_draw_four
        self.draw_until_playable = rules.draw_until_playable
        self.force_play_drawn = rules.force_play_drawn
        self.jump_in = rules.jump_in
        self.no_action_finish = rules.no_action_finish
        self.no_wild_finish = rules.no_wild_finish
        self.last_card_barred = rules.no_action_finish or rules.no_wild_finish
        """Whether some card may not be played as the last."""
        self.seven_swap = rules.swaps_on_seven
        self.zero_pass = rules.passes_on_zero
        self.seven_zero = self.seven_swap or self.zero_pass
        """Whether a 7 or a 0 may move hands (either half of the 7-0 rule)."""
        self.reverse_deflect = rules.reverse_deflect
        self.skip_deflect = rules.skip_deflect
        self.deflect = rules.reverse_deflect or rules.skip_deflect
        self.uno_penalty = rules.uno_penalty
        self.hand_limit = rules.hand_limit
        self.elimination = rules.elimination
        self.alternative_scoring = rules.alternative_scoring
        self.same_number = rules.same_number_together
        self.teams = rules.team_count
        """How many teams sit at the table (0: no teams)."""
        self.team_of = tuple(rules.team_of(seat) for seat in range(rules.players))
        """Each seat's team (each seat its own without teams)."""
        self.stack_draw_four = rules.stack_draw_four
        self.stack_draw_two = rules.stack_draw_two
        self.stack_mixed = rules.stack_mixed
        self.stacking = rules.stack_draw_two or rules.stack_draw_four or rules.stack_mixed
        """Whether a draw card may answer a pending penalty."""
        self.answering = self.stacking or self.deflect
        """Whether any card may answer a pending penalty (a draw card or a deflecting one)."""


class _Tables:
    """What a game reads from its rules on every action, built once for those rules: the
    play variants, the seats' other actions and the switches."""

    __slots__ = ("plays", "rules", "seats", "switches")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.plays = _play_table(rules.players, rules.swaps_on_seven, rules.same_number_together)
        self.seats = _seat_actions(rules.players)
        self.switches = _Switches(rules)


_latest_tables: _Tables | None = None
"""The tables of the rules the last game was made under: self-play and search make game
after game under one :class:`Rules` object, and find them here without a lookup."""


def _tables(rules: Rules) -> _Tables:
    """The tables of ``rules`` (the same object, not equal rules: no hashing)."""
    global _latest_tables
    latest = _latest_tables
    if latest is None or latest.rules is not rules:
        latest = _latest_tables = _Tables(rules)
    return latest


class RandomSource(Protocol):
    """Where shuffles come from: ``random.Random`` and ``random.SystemRandom`` fit."""

    def random(self) -> float: ...


_SYSTEM_RANDOM: Final = random.SystemRandom()
"""The unpredictable source of every game given none: the operating system's, which keeps
no state, so that sharing it shares nothing (and costs nothing per game or copy)."""


def shuffle(rng: RandomSource, cards: list[Card]) -> None:
    """Shuffle ``cards`` in place (Fisher–Yates), each draw taken from ``rng.random()``.

    The one shuffle of the engine: deals, a starting W+4's return, reshuffles. Its bias,
    from rounding a 53-bit float, is below 2**-46 for any deck size here.
    """
    items = cast("list[object]", cards)  # moved as they are: the compiled build unboxes no card
    random_ = rng.random
    i: i64 = len(items) - 1  # native indices and a float count: no tagged arithmetic when compiled
    count = float(len(items))  # i + 1, exactly
    while i > 0:
        j: i64 = int(random_() * count)
        items[i], items[j] = items[j], items[i]
        i -= 1
        count -= 1.0


_COLOR: Final = 0
_TURN: Final = 1
_DRAWN: Final = 2
_PENALTY: Final = 3
_RUN: Final = 4
_ROUND_OVER: Final = 5
_MATCH_OVER: Final = 6
_PHASES: Final = tuple(Phase)


@dataclass(frozen=True, slots=True, init=False)
class Deal:
    """A round's chance outcomes at the start: the hands, the pile, and any W+4 returns.

    ``pile`` is the draw pile after dealing, top first (the starting card is its top);
    ``returns`` are the pile orders (top first) after each starting W+4 went back.
    """

    hands: tuple[tuple[Card, ...], ...]
    pile: tuple[Card, ...]
    returns: tuple[tuple[Card, ...], ...]

    # Written out (as the events' are): a compiled build runs a generated __init__ as Python,
    # and every match is dealt one.
    def __init__(
        self,
        hands: tuple[tuple[Card, ...], ...],
        pile: tuple[Card, ...],
        returns: tuple[tuple[Card, ...], ...] = (),
    ) -> None:
        object.__setattr__(self, "hands", hands)
        object.__setattr__(self, "pile", pile)
        object.__setattr__(self, "returns", returns)

    @classmethod
    def from_tokens(
        cls, hands: Sequence[Sequence[str]], pile_top: Sequence[str], returns: Sequence[Sequence[str]] = ()
    ) -> Deal:
        """A deal written in tokens; ``pile_top`` may list only the top of the pile.

        The rest of the 108 cards follow ``pile_top`` in kind order, so a test names only
        the cards that matter: ``Deal.from_tokens([["R1"], ["G5"]], ["R9", "B7"])``.
        """
        hand_cards = tuple(tuple(parse_card(t) for t in hand) for hand in hands)
        top = [parse_card(t) for t in pile_top]
        left = Counter(DECK)
        left.subtract(card for hand in hand_cards for card in hand)
        left.subtract(top)
        if any(count < 0 for count in left.values()):
            extra = next(card_token(k) for k, count in left.items() if count < 0)
            raise DealError("deal.too_many_copies", card=extra, copies=COPIES[parse_card(extra)])
        rest = [k for k in sorted(left) for _ in range(left[k])]
        return cls(hand_cards, tuple(top + rest), tuple(tuple(parse_card(t) for t in r) for r in returns))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickling and deepcopy by the constructor: a compiled frozen class takes no state
        set field by field."""
        return Deal, (self.hands, self.pile, self.returns)


@dataclass(slots=True, init=False)
class RoundLog:
    """One round as played: its deal and every action with the events it caused."""

    dealer: int
    deal: Deal
    moves: list[tuple[Action, list[Event]]]

    def __init__(self, dealer: int, deal: Deal, moves: list[tuple[Action, list[Event]]] | None = None) -> None:
        self.dealer = dealer
        self.deal = deal
        self.moves = [] if moves is None else moves

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickling and deepcopy by the constructor (a compiled class with a written-out
        __init__ is not made empty and filled in)."""
        return RoundLog, (self.dealer, self.deal, self.moves)

    @property
    def result(self) -> RoundEnded | None:
        """How the round ended, or None while it goes on."""
        if self.moves:
            for event in reversed(self.moves[-1][1]):
                if isinstance(event, RoundEnded):
                    return event
        return None


class Game:
    """A match of UNO under ``rules``, dealt and played by the rules of RULES.md.

    ``seed`` makes every shuffle reproducible; without it (and without ``rng``) the
    shuffles come from ``random.SystemRandom``. ``deal`` dictates the first round's cards.
    ``history=False`` keeps no log of moves (no record can then be written).
    ``reporting=False`` makes the game quiet from its first deal on (see :attr:`reporting`).
    """

    __slots__ = (
        "_forced_pile",
        "_phase",
        "_plays",
        "_quiet_events",
        "_seats",
        "_switches",
        "accused",
        "accused_guilty",
        "challengeable",
        "color",
        "current",
        "dealer",
        "direction",
        "discard",
        "drawn",
        "hands",
        "log",
        "penalty",
        "pile",
        "players",
        "ply",
        "reporting",
        "rng",
        "round",
        "round_start_events",
        "rules",
        "scores",
        "shown",
        "uno_pending",
        "winner",
    )

    rules: Rules
    players: int
    hands: list[list[Card]]
    pile: list[Card]
    """The draw pile, top card last (internal order; records write it top first)."""
    discard: list[Card]
    """The discard pile, top card last."""
    color: Color | None
    """The colour in play; None while the dealer has not chosen one for a starting Wild."""
    direction: int
    current: int
    """The seat on turn (the dealer while choosing the starting colour)."""
    _phase: int
    penalty: int
    challengeable: bool
    accused: int | None
    """Who played the round's last W+4 that could be challenged (None before any): the seat
    a challenge accuses while :attr:`challengeable`, moot otherwise."""
    accused_guilty: bool
    drawn: Card | None
    """The playable card just drawn, in the DRAWN phase (None otherwise)."""
    uno_pending: int | None
    """The seat obliged to call UNO that may still be caught (None if none)."""
    shown: tuple[int, int, tuple[Card, ...]] | None
    """(challenger, challenged, hand) after a challenge, until the next turn action."""
    winner: int | None
    """The match winner once the match is over (None before)."""
    ply: int
    """How many actions the match has applied so far, every round counted: a client's action
    may name the ply it answers, so that an action meant for a position that has passed is
    refused (:class:`~unomas.conductor.Conductor`)."""
    log: list[RoundLog] | None
    rng: RandomSource
    _forced_pile: list[Card] | None
    _plays: tuple[tuple[tuple[_PlayGroup, ...], ...], ...]
    _quiet_events: list[Event]
    """The one list a quiet game's actions return, emptied and refilled by each (see
    :attr:`reporting`): a quiet action builds no list of its own."""
    _seats: tuple[_SeatActions, ...]
    _switches: _Switches
    reporting: bool
    """Whether actions report their events. A quiet game (False) builds only the events of a
    round's end (:class:`RoundEnded`, :class:`MatchEnded`) and deals keeping no
    :class:`Deal` unless it keeps a history (its :attr:`round_start_events` stay empty): for
    play nobody watches (a search's sampled worlds, :meth:`redealt`; a conductor's match
    nobody listens to). The rules are the same. Its actions all return one list, emptied
    by the next action: a caller reads what it needs before acting again."""
    round_start_events: list[Event]
    """The events of the current round's deal and starting card (the first round is dealt
    by the constructor, so this is how an interface narrates it)."""

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        seed: int | str | bytes | None = None,
        rng: RandomSource | None = None,
        deal: Deal | None = None,
        history: bool = True,
        reporting: bool = True,
        _copy_of: Game | None = None,
        _empty: bool = False,
    ) -> None:
        self.rules = rules if rules is not None else Rules()
        self.players = self.rules.players
        if rng is None:
            rng = _SYSTEM_RANDOM if seed is None else random.Random(seed)
        self.rng = rng
        self.log = [] if history else None
        self._forced_pile = None
        self.reporting = reporting
        self._quiet_events = []
        if _copy_of is not None:  # copy(): the tables and the state come from another game, no deal
            self._plays = _copy_of._plays
            self._seats = _copy_of._seats
            self._switches = _copy_of._switches
            _copy_of._copy_state_into(self)
            return
        tables = _tables(self.rules)
        self._plays = tables.plays
        self._seats = tables.seats
        self._switches = tables.switches
        if _empty:  # from_position() fills the state in
            return
        self.scores = [0] * self.players
        self.round = -1
        self.ply = 0
        self.winner = None
        self._phase = _ROUND_OVER
        self.start_round(deal)

    # ------------------------------------------------------------------ queries

    @property
    def phase(self) -> Phase:
        """What the game waits for."""
        return _PHASES[self._phase]

    @property
    def top(self) -> Card:
        """The top card of the discard pile."""
        return self.discard[-1]

    @property
    def is_over(self) -> bool:
        """Whether the match is over."""
        return self._phase == _MATCH_OVER

    @property
    def round_over(self) -> bool:
        """Whether the current round has ended (the match may be over too)."""
        return self._phase >= _ROUND_OVER

    def next_seat(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` places after ``seat`` in the current direction."""
        # Native integers: the compiled build calls no tagged multiply, add and remainder.
        direction: i64 = self.direction
        players: i64 = self.players
        after: i64 = seat
        after += direction * steps
        if self._switches.elimination:
            return self._seat_in_round(seat, steps)
        return after if 0 <= after < players else after % players

    def _seat_in_round(self, seat: int, steps: int) -> int:
        """:meth:`next_seat` under ``elimination``: seats that are out of the round (holding
        that many cards) are passed over."""
        limit, hands, players = self._switches.elimination, self.hands, self.players
        step = self.direction if steps > 0 else -self.direction
        for _ in range(abs(steps)):
            seat = (seat + step) % players
            while len(hands[seat]) >= limit:
                seat = (seat + step) % players
        return seat

    def is_out(self, seat: int) -> bool:
        """Whether ``seat`` is out of the round (``elimination``: it holds that many cards)."""
        limit = self._switches.elimination
        return limit > 0 and len(self.hands[seat]) >= limit

    def seats_in_round(self) -> list[int]:
        """The seats still in the round (every seat unless ``elimination`` put some out)."""
        return [seat for seat in range(self.players) if not self.is_out(seat)]

    def round_winner(self) -> int:
        """The seat that won the round just ended: the one with no cards, or under
        ``elimination`` the last seat left in it (with teams, the lowest seat of the one team
        left); -1 while the round is played."""
        if not self.round_over:
            return -1
        for seat, hand in enumerate(self.hands):
            if not hand:
                return seat
        seats = self.seats_in_round()
        return seats[0] if self._one_team(seats) else -1

    def _one_team(self, seats: list[int]) -> bool:
        """Whether ``seats`` (not empty) are one seat, or with teams all of one team."""
        if len(seats) == 1:
            return True
        team_of = self._switches.team_of
        return self._switches.teams > 0 and all(team_of[seat] == team_of[seats[0]] for seat in seats)

    def legal_actions(self, player: int) -> list[Action]:
        """Every action open to seat ``player`` now, out-of-turn ones included.

        This is where legality is decided: :meth:`problem` accepts exactly these.
        Plays come in every variant the rules distinguish (see :meth:`play_variants`).
        """
        actions = self.non_play_actions(player)
        for card in self.playable_cards(player):
            actions.extend(self.play_variants(player, card))
        return actions

    def non_play_actions(self, player: int) -> list[Action]:
        """The actions of :meth:`legal_actions` other than plays, in the same order: a late
        UNO call or a catch, then the draw (or the pass after one) and a challenge, or the
        starting colours (for a caller that found no card to play)."""
        phase = self._phase
        if phase >= _ROUND_OVER or not 0 <= player < self.players:
            return []
        if phase == _COLOR:
            return list(self._seats[player].colors) if player == self.current else []
        if self._switches.elimination and self.is_out(player):
            return []
        own = self._seats[player]
        actions: list[Action] = []
        pending = self.uno_pending
        if pending is not None:
            actions.append(own.uno if pending == player else own.catches[pending])
        if player == self.current:
            if phase == _DRAWN:
                if not self._switches.force_play_drawn:
                    actions.append(own.pass_)
            elif phase == _RUN:
                if not self._run_needs_seven():
                    actions.append(own.pass_)
            else:
                actions.append(own.draw)
                if self.challengeable:
                    actions.append(own.challenge)
        return actions

    def playable_cards(self, player: int) -> list[Card]:
        """The distinct cards seat ``player`` may play now, on turn or as a jump-in."""
        phase = self._phase
        if phase >= _ROUND_OVER or phase == _COLOR or not 0 <= player < self.players:
            return []
        if self._switches.elimination and self.is_out(player):
            return []
        hand = self.hands[player]
        cards: list[Card]
        if player == self.current:
            cards = []
            if phase == _TURN:
                color = self.color
                assert color is not None  # chosen by now: only the COLOR phase lacks one
                playable: i64 = _PLAYS_ON[4 * self.discard[-1] + color]  # native: no tagged shifts
                found = cast("list[object]", cards)  # the hand's own card objects go in: none is boxed anew
                for item in cast("list[object]", hand):
                    card = cast(int, item)
                    bit = (playable >> card & 1) << card  # (the compiled build shifts a literal 1 as 32 bits)
                    if bit:
                        found.append(item)
                        playable ^= bit  # each kind once
            elif phase == _DRAWN:
                drawn = self.drawn
                assert drawn is not None  # the DRAWN phase has its card
                cards.append(drawn)
            elif phase == _RUN:  # another card of the number on top, any colour
                rank = RANK_OF[self.discard[-1]]
                for card in hand:
                    if RANK_OF[card] == rank and card not in cards:
                        cards.append(card)
            elif self._switches.answering:  # without a stacking or deflecting switch no card answers
                for card in hand:
                    if self._answers_penalty(card) and card not in cards:
                        cards.append(card)
        else:
            top = self.discard[-1]
            if not (
                self._switches.jump_in
                and phase != _RUN
                and top < WILD
                and top in hand
                and (phase != _PENALTY or self._answers_penalty(top))
            ):
                return []
            cards = [top]
        if len(hand) == 1 and self._switches.last_card_barred:
            if self._switches.no_action_finish:
                return [c for c in cards if not IS_ACTION_OR_WILD[c]]
            return [c for c in cards if c < WILD]
        return cards

    def play_variants(self, player: int, card: Card) -> tuple[Action, ...]:
        """Every legal way for ``player`` to play ``card``, one of :meth:`playable_cards`:
        each colour for a wild card, each target for a 7 under ``seven_swap``, and with
        and without the UNO call when the play leaves exactly one card."""
        groups = self._plays[player][card]
        if len(groups) == 1:
            target, plain, with_uno = groups[0]
            return with_uno if self._cards_left_after(player, card, target) == 1 else plain
        variants: list[Action] = []
        for target, plain, with_uno in groups:
            if target is not None and self._switches.elimination and self.is_out(target):
                continue
            if target is None and not self._holds_another(player, card):  # no 7 to go on to
                continue
            variants.extend(with_uno if self._cards_left_after(player, card, target) == 1 else plain)
        return tuple(variants)

    def out_of_turn_seats(self) -> list[int]:
        """The seats other than the one on turn that have an action open now."""
        if not self.out_of_turn_possible():
            return []
        current = self.current
        if self.uno_pending is not None:
            return [seat for seat in range(self.players) if seat != current and not self.is_out(seat)]
        top = self.discard[-1]
        return [
            seat
            for seat in range(self.players)
            if seat != current and top in self.hands[seat] and self.legal_actions(seat)
        ]

    def out_of_turn_possible(self) -> bool:
        """Whether a seat other than the one on turn may have an action open now: False
        means :meth:`out_of_turn_seats` is empty, and is known without building it (the
        usual case: no UNO to catch, no jump-in played)."""
        phase = self._phase
        if phase >= _ROUND_OVER or phase == _COLOR:
            return False
        return self.uno_pending is not None or (self._switches.jump_in and phase != _RUN and self.discard[-1] < WILD)

    def problem(self, action: Action) -> str | None:
        """Why ``action`` is illegal now, in English, or None if it is legal (one of
        :meth:`legal_actions`): the template of its :meth:`refusal` filled in."""
        refusal = self.refusal(action)
        return None if refusal is None else ERRORS[refusal[0]].english(refusal[1])

    def refusal(self, action: Action) -> tuple[str, dict[str, Any]] | None:
        """Why ``action`` is illegal now, as a reason code of :mod:`unomas.refusals` and its
        params (``("move.not_your_turn", {"current": 2})``), or None if it is legal."""
        if not isinstance(action, Action):
            return "move.not_an_action", {"action": repr(action)}
        player, kind, card, color, target, uno = action
        if not isinstance(kind, Kind):
            return "move.unknown_kind", {"kind": repr(kind)}
        if type(player) is not int or not 0 <= player < self.players:
            return "move.no_such_seat", {"player": repr(player), "last": self.players - 1}
        for code, value, limit in (
            ("move.bad_card", card, len(RANK_OF)),
            ("move.bad_color", color, 4),
            ("move.bad_target", target, self.players),
        ):
            if value is not None and (type(value) is not int or not 0 <= value < limit):
                return code, {"last": limit - 1, "value": repr(value)}
        if type(uno) is not bool:
            return "move.bad_uno", {"value": repr(uno)}
        if action in self.legal_actions(player):
            return None
        return self._explain(action)

    def reshuffled_by(self, action: Action) -> list[Card] | None:
        """The cards that legal ``action`` would shuffle into a new draw pile (sorted), or
        None if it draws from no empty pile: a reshuffle is a chance event, and a caller that
        dictates chance (OpenSpiel's chance nodes) must know before the action is taken."""
        probe = self.copy(rng=random.Random(0))  # any order: the cards are what is read
        for event in probe.push(action):
            if type(event) is Reshuffled:
                assert event.pile is not None
                return sorted(event.pile)
        return None

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        return self.problem(action) is None

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know now (``None``: a spectator)."""
        return make_view(self, seat)

    # ------------------------------------------------------------------ moves

    def apply(self, action: Action, *, reshuffle: Sequence[Card] | None = None) -> list[Event]:
        """Check and play ``action``; return the events it caused.

        Raises :class:`IllegalAction` naming the reason, leaving the game unchanged.
        ``reshuffle`` dictates the draw pile (top first) should the action need a
        reshuffle; if it does not, or the cards are wrong, :class:`DealError` is raised
        and the game is left unchanged.
        """
        refusal = self.refusal(action)
        if refusal is not None:
            code, params = refusal
            raise IllegalAction(code, **{"action": str(action), **params})
        if reshuffle is None:
            return self.push(action)
        saved = self.copy(rng=self.rng)  # only read back, never drawn from
        self._forced_pile = list(reshuffle)
        try:
            events = self._push(action)
            if self._reshuffle_unused():
                raise DealError("deal.reshuffle_unused")
        except DealError:
            self._restore(saved)
            raise
        finally:
            self._forced_pile = None
        if self.log is not None:
            self.log[-1].moves.append((action, events))
        return events

    def _reshuffle_unused(self) -> bool:
        """Whether a dictated reshuffle is still waiting (a method: the check must read the
        attribute afresh after the move, not a narrowed copy of it)."""
        return self._forced_pile is not None

    def push(self, action: Action) -> list[Event]:
        """Play ``action`` without checking it: the fast path for legal actions only.

        An action not taken from :meth:`legal_actions` may corrupt the game.
        """
        events = self._push(action)
        if self.log is not None:
            self.log[-1].moves.append((action, events))
        return events

    def _push(self, action: Action) -> list[Event]:
        if self.reporting:
            events: list[Event] = []
        else:
            events = self._quiet_events
            if events:  # (clear() is a call even on an empty list)
                events.clear()
        self.ply += 1
        player, kind, card, color, target, uno = action
        if kind is PLAY:
            assert card is not None
            self._play(player, card, color, target, uno, events)
        elif kind is DRAW:
            self._turn_action()
            if self._phase == _PENALTY:
                self._draw_penalty(player, events)
                self._advance(self.next_seat(player))
            else:
                self._draw_on_turn(player, events)
        elif kind is PASS:
            if self._phase == _RUN:
                self._end_run(player, events)
            else:
                self._turn_action()
                if self.reporting:
                    events.append(PassedEvent(player))
                self.drawn = None
                self._advance(self.next_seat(player))
        elif kind is UNO:
            self.uno_pending = None
            if self.reporting:
                events.append(UnoCalled(player))
        elif kind is CATCH:
            assert target is not None
            self.uno_pending = None
            if self.reporting:
                events.append(Caught(player, target))
            self._draw(target, self._switches.uno_penalty, "caught", events)
            if self._phase == _RUN and target == self.current and self.is_out(target):
                self._end_run(target, events, passed=False)  # the catch put the runner out
        elif kind is COLOR:
            self._turn_action()
            assert color is not None
            self.color = color
            if self.reporting:
                events.append(ColorChosen(player, color))
            self._advance(self.next_seat(player))
        elif kind is CHALLENGE:
            self._turn_action()
            self._challenge(player, events)
        if self._switches.elimination and self._phase < _ROUND_OVER:
            self._eliminate(events)
        return events

    def _eliminate(self, events: list[Event]) -> None:
        """``elimination``: the round ends, won by the last seat left, once one is left (with
        teams, once the seats left are all partners: the lowest of them wins it)."""
        seats = self.seats_in_round()
        if self._one_team(seats):
            self._end_round(seats[0], events)

    def start_round(self, deal: Deal | None = None) -> list[Event]:
        """Deal the next round (randomly, or as ``deal`` dictates) and turn up the start.

        Called by the constructor for the first round; afterwards, once a round is over.
        """
        if self._phase == _MATCH_OVER:
            raise IllegalAction("round.match_over")
        if self._phase != _ROUND_OVER:
            raise IllegalAction("round.in_play")
        n, size = self.players, self.rules.hand_size
        if deal is None:
            deck = list(DECK)
            shuffle(self.rng, deck)
            hands = [deck[i * size : (i + 1) * size] for i in range(n)]
            pile = deck[n * size :]
            returns: list[tuple[Card, ...]] = []
            while pile[0] == WILD_DRAW_FOUR:
                pile = pile[:]
                shuffle(self.rng, pile)
                returns.append(tuple(pile))
            if self.reporting or self.log is not None:
                deal = Deal(tuple([tuple(hand) for hand in hands]), tuple(deck[n * size :]), tuple(returns))
            pile.reverse()  # internal order, top last (a list of its own: a slice or a copy)
        else:
            self._check_deal(deal)
            hands = [list(hand) for hand in deal.hands]
            pile = list(reversed(deal.returns[-1] if deal.returns else deal.pile))
        self.round += 1
        self.dealer = self.round % n
        self.hands = hands
        self.pile = pile
        self.discard = [pile.pop()]
        self.direction = 1
        self.penalty = 0
        self.challengeable = False
        self.accused = None
        self.accused_guilty = False
        self.drawn = None
        self.uno_pending = None
        self.shown = None
        events: list[Event] = []
        if deal is not None:
            if self.log is not None:
                self.log.append(RoundLog(self.dealer, deal))
            if self.reporting:
                events.append(Dealt(self.round, self.dealer, deal.hands, deal.pile))
                events.extend(StartingCardReturned(order) for order in deal.returns)
        start = self.discard[-1]
        self.round_start_events = events
        if self.reporting:
            events.append(StartingCard(start))
        if start == WILD:
            self.color = None
            self.current = self.dealer
            self._phase = _COLOR
        else:
            self.color = COLOR_OF[start]
            if IS_ACTION_OR_WILD[start]:
                self._card_effect(self.dealer, start, None, events)
            else:  # number cards have no effect, 7 and 0 included
                self._advance(self.next_seat(self.dealer))
        return events

    # ------------------------------------------------------------------ rules

    def _explain(self, action: Action) -> tuple[str, dict[str, Any]]:
        """The reason an action that is not among the legal ones is refused (code, params)."""
        phase = self._phase
        if phase == _MATCH_OVER:
            return "move.match_over", {}
        if phase == _ROUND_OVER:
            return "move.round_over", {}
        player, kind = action.player, action.kind
        if kind is PLAY:
            if action.card is None:
                return "move.needs_card", {}
            return self._play_problem(player, action.card) or self._variant_problem(action) or ("move.not_legal", {})
        if action.card is not None or action.uno:
            return "move.takes_no_card", {"kind": str(kind)}
        if kind is CATCH:
            if action.color is not None:
                return "move.takes_no_color", {"kind": str(kind)}
            target = action.target
            if target is None and not any(a.kind is CATCH for a in self.legal_actions(player)):
                return "move.nobody_to_catch", {}
            if target is None or not 0 <= target < self.players:
                return "move.catch_needs_target", {"target": repr(target)}
            if target == player:
                return "move.catch_self", {}
            return "move.not_catchable", {"target": target}
        if action.target is not None:
            return "move.takes_no_target", {"kind": str(kind)}
        if kind is UNO:
            if action.color is not None:
                return "move.uno_takes_no_color", {}
            return "move.no_uno", {"player": player}
        if kind is COLOR:
            if phase != _COLOR or player != self.current:
                return "move.color_not_open", {}
            return "move.color_missing", {}
        if action.color is not None:
            return "move.takes_no_color", {"kind": str(kind)}
        if player != self.current:
            return "move.not_your_turn", {"current": self.current}
        if phase == _COLOR:
            return "move.color_first", {}
        if phase == _RUN:
            if kind is PASS:
                return "move.run_needs_seven", {}
            return "move.run_play_or_pass", {"number": RANK_OF[self.discard[-1]]}
        if kind is DRAW:
            return "move.play_or_pass", {}
        if kind is PASS:
            if phase != _DRAWN:
                return "move.pass_not_allowed", {}
            return "move.must_play_drawn", {}
        if not self.rules.challenge_wild_draw_four:
            return "move.challenge_off", {}
        return "move.nothing_to_challenge", {}

    def _play_problem(self, player: int, card: Card) -> tuple[str, dict[str, Any]] | None:
        """Why ``player`` may not play ``card`` now (ignoring colour, target and UNO)."""
        hand = self.hands[player]
        if card not in hand:
            return "move.no_such_card", {"player": player, "card": card_token(card)}
        phase = self._phase
        top = self.discard[-1]
        if player != self.current:
            if not self.rules.jump_in or phase == _RUN:
                return "move.not_your_turn", {"current": self.current}
            if phase == _COLOR:
                return "move.color_first", {}
            if card != top or card >= WILD:
                return "move.jump_in_not_identical", {"current": self.current, "top": card_token(top)}
        elif phase == _COLOR:
            return "move.color_first", {}
        elif phase == _DRAWN and card != self.drawn:
            assert self.drawn is not None
            return "move.only_drawn_card", {"drawn": card_token(self.drawn)}
        elif phase == _RUN:
            if RANK_OF[card] != RANK_OF[top]:
                return "move.run_same_number", {"number": RANK_OF[top], "card": card_token(card)}
            return None
        if phase == _PENALTY:
            if not self._answers_penalty(card):
                return self._stack_refusal(card)
        elif not self._playable_on_turn(card):
            assert self.color is not None
            return "move.does_not_match", {
                "card": card_token(card),
                "top": card_token(top),
                "color": color_letter(self.color),
            }
        if len(hand) == 1 and IS_ACTION_OR_WILD[card] and self.rules.no_action_finish:
            return "move.no_action_finish", {}
        if len(hand) == 1 and card >= WILD and self.rules.no_wild_finish:
            return "move.no_wild_finish", {}
        return None

    def _stack_refusal(self, card: Card) -> tuple[str, dict[str, Any]]:
        """Why ``card`` does not answer the pending penalty."""
        top = self._penalty_card()
        facing = "W+4" if top == WILD_DRAW_FOUR else "+2"
        if RANK_OF[card] == DRAW_TWO_RANK and top == WILD_DRAW_FOUR and self.rules.stack_mixed:
            assert self.color is not None
            return "move.stack_wrong_color", {"color": color_letter(self.color)}
        if IS_DRAW_CARD[card]:
            switch = (
                "stack_draw_two"
                if card != WILD_DRAW_FOUR and top != WILD_DRAW_FOUR
                else "stack_draw_four"
                if card == top
                else "stack_mixed"
            )
            return "move.stack_not_allowed", {"facing": facing, "card": card_token(card), "switch": switch}
        return "move.penalty_pending", {"facing": facing, "penalty": self.penalty, "card": card_token(card)}

    def _variant_problem(self, action: Action) -> tuple[str, dict[str, Any]] | None:
        """Why the colour, target or UNO call of a play does not fit its card."""
        card, player = action.card, action.player
        assert card is not None
        token = card_token(card)
        if card >= WILD:
            if action.color not in (0, 1, 2, 3):
                return "move.needs_color", {"card": token}
        elif action.color is not None:
            return "move.card_takes_no_color", {"card": token}
        if RANK_OF[card] == _SEVEN and self._switches.seven_swap:
            target = action.target
            if target is None and self._holds_another(player, card):
                pass  # same_number_together: a 7 going on to another 7 names no one yet
            elif not isinstance(target, int) or not 0 <= target < self.players or target == player:
                return "move.needs_target", {"card": token}
            elif self.is_out(target):
                return "move.target_out", {"target": target}
        elif action.target is not None:
            return "move.card_takes_no_target", {"card": token}
        if action.uno and self._cards_left_after(player, card, action.target) != 1:
            return "move.uno_not_allowed", {}
        return None

    def _answers_penalty(self, card: Card) -> bool:
        """Whether ``card`` may answer the pending penalty (the stacking and deflecting
        switches): stacking is judged against the card that made the penalty, under any
        deflecting cards on it; a deflecting card must be of the colour in play, and turns a
        W+4's penalty only where some stacking switch lets a W+4's penalty be answered."""
        rules = self._switches
        top = self.discard[-1]
        if rules.deflect:
            rank = RANK_OF[card]
            if ((rank == REVERSE and rules.reverse_deflect) or (rank == SKIP and rules.skip_deflect)) and (
                COLOR_OF[card] == self.color
            ):
                return self._penalty_card() != WILD_DRAW_FOUR or rules.stack_draw_four or rules.stack_mixed
            if not IS_DRAW_CARD[top]:
                top = self._penalty_card()
        if top == WILD_DRAW_FOUR:
            if card == WILD_DRAW_FOUR:
                return rules.stack_draw_four
            return rules.stack_mixed and RANK_OF[card] == DRAW_TWO_RANK and COLOR_OF[card] == self.color
        if card == WILD_DRAW_FOUR:
            return rules.stack_mixed
        return rules.stack_draw_two and RANK_OF[card] == DRAW_TWO_RANK

    def _penalty_card(self) -> Card:
        """The draw card that made the pending penalty: the top card, or the last draw card
        under the deflecting cards played on it."""
        discard = self.discard
        index = len(discard) - 1
        while index > 0 and not IS_DRAW_CARD[discard[index]]:
            index -= 1
        return discard[index]

    def _cards_left_after(self, player: int, card: Card, target: int | None) -> int:
        """How many cards ``player`` holds after playing ``card`` and all its effects."""
        left = len(self.hands[player]) - 1
        if left == 0 or not self._switches.seven_zero:
            return left
        rank = RANK_OF[card]
        if rank == _SEVEN and target is not None:
            return len(self.hands[target])
        if rank == _ZERO and self._switches.zero_pass and not self._holds_another(player, card):
            return len(self.hands[self.next_seat(player, -1)])
        return left

    def _holds_another(self, player: int, card: Card) -> bool:
        """``same_number_together``: whether ``player``, after playing number ``card``, still
        holds a card of that number (so that the play may go on: docs/house-rules.md)."""
        if not self._switches.same_number:
            return False
        rank = RANK_OF[card]
        if rank >= 10:
            return False
        found = 0
        for held in self.hands[player]:
            if RANK_OF[held] == rank:
                found += 1
        return found >= 2

    def _run_needs_seven(self) -> bool:
        """Whether the run on turn is of 7s played without a target (``seven_swap``): it
        ends only with a 7 that names one, so no pass is open."""
        return self._switches.seven_swap and RANK_OF[self.discard[-1]] == _SEVEN

    def _playable_on_turn(self, card: Card) -> bool:
        """Whether a card just drawn may be played (judged as on a normal turn)."""
        color = self.color
        assert color is not None  # chosen by now: only the COLOR phase lacks one
        playable: i64 = _PLAYS_ON[4 * self.discard[-1] + color]
        return playable >> card & 1 == 1

    # ------------------------------------------------------------------ effects

    def _turn_action(self) -> None:
        """A turn action ends any UNO obligation and hides a shown hand."""
        self.uno_pending = None
        self.shown = None

    def _play(
        self, player: int, card: Card, color: int | None, target: int | None, uno: bool, events: list[Event]
    ) -> None:
        self._turn_action()
        run = self._switches.same_number and self._holds_another(player, card) and target is None
        hand = self.hands[player]
        for index in range(len(hand)):  # the first copy, as list.remove: compiled, kinds compare as ints
            if hand[index] == card:
                hand.pop(index)
                break
        jump_in = player != self.current
        facing = self._phase == _PENALTY
        previous_color = self.color
        self.discard.append(card)
        self.drawn = None
        self.color = color if color is not None else COLOR_OF[card]
        if self.reporting:
            events.append(Played(player, card, color, target, uno, jump_in))
        if not facing:
            self.penalty = 0
        self.challengeable = False
        if not hand:
            if RANK_OF[card] == DRAW_TWO_RANK or card == WILD_DRAW_FOUR:
                self.penalty += 2 if card < WILD else 4
                self._draw_penalty(self.next_seat(player), events)
            elif facing:  # a deflecting last card: the penalty goes where the card sends it
                self._draw_penalty(self.next_seat(player, -1 if RANK_OF[card] == REVERSE else 1), events)
            self._end_round(player, events)
            return
        if card == WILD_DRAW_FOUR and not facing and self._switches.challenge_wild_draw_four:
            self.challengeable = True
            self.accused = player
            self.accused_guilty = any(COLOR_OF[c] == previous_color for c in hand)
        if run:  # same_number_together: the turn goes on; the effect waits for the last card
            self.current = player
            self._phase = _RUN
        else:
            self._card_effect(player, card, target, events)
        if uno:
            if self.reporting:
                events.append(UnoCalled(player))
        elif len(self.hands[player]) == 1:
            self.uno_pending = player

    def _card_effect(self, player: int, card: Card, target: int | None, events: list[Event]) -> None:
        """What ``card`` does when ``player`` plays it (or the dealer turns it up)."""
        rank = RANK_OF[card]
        if rank >= 10:
            if rank == SKIP:
                if self._phase == _PENALTY:  # skip_deflect: the penalty passes on
                    self._pass_penalty(self.next_seat(player), events)
                    return
                skipped = self.next_seat(player)
                if self.reporting:
                    events.append(Skipped(skipped))
                self._advance(self.next_seat(skipped))
            elif rank == REVERSE:
                self.direction = -self.direction
                if self.reporting:
                    events.append(DirectionChanged(self.direction))
                if self._phase == _PENALTY:  # reverse_deflect: back to the seat that gave it
                    self._pass_penalty(self.next_seat(player), events)
                elif self.players == 2 or (self._switches.elimination and len(self.seats_in_round()) == 2):
                    if self.reporting:
                        events.append(Skipped(self.next_seat(player)))
                    self._advance(player)
                else:
                    self._advance(self.next_seat(player))
            elif rank == DRAW_TWO_RANK or card == WILD_DRAW_FOUR:
                self.penalty += 2 if card < WILD else 4
                self.current = self.next_seat(player)
                self._phase = _PENALTY
                if self.reporting:
                    events.append(PenaltyPending(self.current, self.penalty, self.challengeable))
            else:
                self._advance(self.next_seat(player))
            return
        if self._switches.seven_zero:
            if rank == _SEVEN and self._switches.seven_swap:
                assert target is not None
                hands = self.hands
                hands[player], hands[target] = hands[target], hands[player]
                if self.reporting:
                    events.append(HandsSwapped(player, target))
            elif rank == _ZERO and self._switches.zero_pass:
                shift = self.direction
                if self._switches.elimination:  # among the seats still in the round
                    seats = self.seats_in_round()
                    hands = self.hands[:]
                    for index, seat in enumerate(seats):
                        hands[seat] = self.hands[seats[(index - shift) % len(seats)]]
                    self.hands = hands
                else:
                    self.hands = [self.hands[(i - shift) % self.players] for i in range(self.players)]
                if self.reporting:
                    events.append(HandsPassed(shift))
        self._advance(self.next_seat(player))

    def _end_run(self, player: int, events: list[Event], *, passed: bool = True) -> None:
        """``same_number_together``: ``player`` ends the run with a pass (or a catch put them
        out of the round): the top card, the run's last, has its effect now; a run of 7s
        cut short names no one, so nobody swaps. A 0's pass of hands leaves no UNO owed."""
        self.shown = None
        if passed and self.reporting:
            events.append(RunEnded(player))
        top = self.discard[-1]
        if self._run_needs_seven():
            self._advance(self.next_seat(player))
            return
        if RANK_OF[top] == _ZERO and self._switches.zero_pass:
            self.uno_pending = None
        self._card_effect(player, top, None, events)

    def _pass_penalty(self, seat: int, events: list[Event]) -> None:
        """A deflecting card sends the whole pending penalty to ``seat``, still pending."""
        self.current = seat
        if self.reporting:
            events.append(PenaltyPending(seat, self.penalty, False))

    def _advance(self, seat: int) -> None:
        """Give ``seat`` a normal turn."""
        self.current = seat
        self._phase = _TURN

    def _draw_on_turn(self, player: int, events: list[Event]) -> None:
        hand = self.hands[player]
        count = 0  # the cards drawn are the last ``count`` of the hand
        until_playable = self._switches.draw_until_playable
        limit = self._switches.hand_limit
        playable = False
        while True:
            if limit and len(hand) >= limit:  # hand_limit: no more cards, the turn ends
                break
            card = self._take(events)
            if card == _PILE_DRY:
                break
            count += 1
            hand.append(card)
            playable = self._playable_on_turn(card)
            if playable or not until_playable:
                break
        if self.reporting:
            events.append(Drew(player, count, tuple(hand[len(hand) - count :]), "turn"))
            self._tell_out(player, len(hand) - count, events)
        if playable and not (self._switches.elimination and self.is_out(player)):
            self.drawn = hand[-1]
            self._phase = _DRAWN
        else:
            self._advance(self.next_seat(player))

    def _draw_penalty(self, player: int, events: list[Event]) -> None:
        """``player`` draws the whole pending penalty."""
        amount = self.penalty
        self.penalty = 0
        self.challengeable = False
        self._draw(player, amount, "penalty", events)

    def _challenge(self, challenger: int, events: list[Event]) -> None:
        accused = self.accused
        assert accused is not None  # a challenge is open only after a W+4
        guilty = self.accused_guilty
        hand = tuple(self.hands[accused])
        self.shown = (challenger, accused, hand)
        if self.reporting:
            events.append(Challenged(challenger, accused, guilty, hand))
        self.challengeable = False
        if guilty:
            self.penalty = 0
            self._draw(accused, 4, "challenge", events)
            self._advance(challenger)
        else:
            amount = self.penalty + 2
            self.penalty = 0
            self._draw(challenger, amount, "challenge", events)
            self._advance(self.next_seat(challenger))

    def _draw(self, player: int, count: int, reason: str, events: list[Event]) -> None:
        """``player`` draws ``count`` cards, or what is left when they run out."""
        hand = self.hands[player]
        before = len(hand)
        limit = self._switches.hand_limit
        if limit and before + count > limit:  # hand_limit: up to the limit, the rest forgiven
            count = max(0, limit - before)
        for _ in range(count):
            card = self._take(events)
            if card == _PILE_DRY:
                break
            hand.append(card)
        if self.reporting:
            events.append(Drew(player, len(hand) - before, tuple(hand[before:]), reason))
            self._tell_out(player, before, events)

    def _tell_out(self, player: int, before: int, events: list[Event]) -> None:
        """``elimination``: say that a draw from ``before`` cards put ``player`` out of the round."""
        limit = self._switches.elimination
        held = len(self.hands[player])
        if limit and before < limit <= held:
            events.append(Eliminated(player, held))

    def _take(self, events: list[Event]) -> Card:
        """The top card of the draw pile, reshuffling if it is empty; :data:`_PILE_DRY` if
        none is left."""
        pile = self.pile
        if not pile:
            discard = self.discard
            if len(discard) < 2:
                return _PILE_DRY
            cards = discard[:-1]
            del discard[:-1]
            forced = self._forced_pile
            if forced is None:
                shuffle(self.rng, cards)
                pile.extend(cards)
            else:
                if Counter(forced) != Counter(cards):
                    raise DealError("deal.reshuffle_mismatch", cards=" ".join(card_token(c) for c in sorted(cards)))
                pile.extend(reversed(forced))
                self._forced_pile = None
            if self.reporting:
                events.append(Reshuffled(len(pile), tuple(reversed(pile))))
        return pile.pop()

    def _end_round(self, winner: int, events: list[Event]) -> None:
        """The round is won by ``winner``: score it (the winner scores every other hand's
        cards; with teams, the winner's team scores the other teams' cards, each member's
        score being the team's) and end the match once the winner reaches the target."""
        switches = self._switches
        if switches.alternative_scoring:
            self._end_round_alternative(winner, events)
            return
        points = 0  # loops, not a generator: a searched world's round ends here every time
        if switches.teams:
            team_of = switches.team_of
            team = team_of[winner]
            for seat, hand in enumerate(self.hands):
                if team_of[seat] != team:
                    for card in hand:
                        points += POINTS[card]
            for seat in range(self.players):
                if team_of[seat] == team:
                    self.scores[seat] += points
        else:
            for seat, hand in enumerate(self.hands):
                if seat != winner:
                    for card in hand:
                        points += POINTS[card]
            self.scores[winner] += points
        self._phase = _ROUND_OVER
        self.uno_pending = None
        events.append(RoundEnded(winner, points, tuple([tuple(h) for h in self.hands]), tuple(self.scores)))
        target = self.rules.target_score
        if target == 0 or self.scores[winner] >= target:
            self._phase = _MATCH_OVER
            self.winner = winner
            events.append(MatchEnded(winner, tuple(self.scores)))

    def _end_round_alternative(self, winner: int, events: list[Event]) -> None:
        """``alternative_scoring``: each seat scores the cards left in its own hand (the
        round's points are their sum); once someone reaches the target the lowest total wins
        the match (on a tie, the round's winner if tied, else the lowest seat). With teams a
        team scores its members' cards, and each member's score is the team's."""
        scores = self.scores
        points = 0
        team_of = self._switches.team_of
        owned = [0] * self.players  # by team (by seat without teams)
        for seat, hand in enumerate(self.hands):
            own = sum(POINTS[card] for card in hand)
            owned[team_of[seat]] += own
            points += own
        for seat in range(self.players):
            scores[seat] += owned[team_of[seat]]
        self._phase = _ROUND_OVER
        self.uno_pending = None
        events.append(RoundEnded(winner, points, tuple([tuple(h) for h in self.hands]), tuple(scores)))
        target = self.rules.target_score
        if target == 0 or max(scores) >= target:
            lowest = min(scores)
            best = winner if scores[winner] == lowest else scores.index(lowest)
            self._phase = _MATCH_OVER
            self.winner = best
            events.append(MatchEnded(best, tuple(scores)))

    def _check_deal(self, deal: Deal) -> None:
        n, size = self.players, self.rules.hand_size
        if len(deal.hands) != n:
            raise DealError("deal.hand_count", hands=len(deal.hands), players=n)
        for seat, hand in enumerate(deal.hands):
            if len(hand) != size:
                raise DealError("deal.hand_size", seat=seat, cards=len(hand), size=size)
        if not is_full_deck([c for hand in deal.hands for c in hand] + list(deal.pile)):
            raise DealError("deal.not_full_deck")
        pile = deal.pile
        for index, order in enumerate(deal.returns):
            if pile[0] != WILD_DRAW_FOUR:
                raise DealError("deal.return_not_w4", index=index, card=card_token(pile[0]), returns_index=index)
            if Counter(order) != Counter(pile):
                raise DealError("deal.return_order", index=index, returns_index=index)
            pile = order
        if pile[0] == WILD_DRAW_FOUR:
            raise DealError("deal.return_missing")

    # ------------------------------------------------------------------ positions

    def position(self) -> Position:
        """The whole state now, as a value (see :class:`~unomas.position.Position`).

        What is moot is left out, so that equal states give equal positions: the accused
        seat and its guilt count only while a challenge is open.
        """
        challengeable = self.challengeable
        return Position(
            round=self.round,
            ply=self.ply,
            dealer=self.dealer,
            hands=tuple([tuple(hand) for hand in self.hands]),
            pile=tuple(reversed(self.pile)),
            discard=tuple(self.discard),
            color=self.color,
            direction=self.direction,
            current=self.current,
            phase=_PHASES[self._phase],
            penalty=self.penalty,
            challengeable=challengeable,
            accused=self.accused if challengeable else None,
            accused_guilty=challengeable and self.accused_guilty,
            drawn=self.drawn,
            uno_pending=self.uno_pending,
            shown=self.shown,
            scores=tuple(self.scores),
            winner=self.winner,
        )

    @classmethod
    def from_position(
        cls, rules: Rules, position: Position, *, rng: RandomSource | None = None, check: bool = True
    ) -> Game:
        """A game in ``position`` under ``rules``, with no history: for search over sampled
        worlds, and to set up a position.

        The position is checked to hold together (108 cards, seats that exist, a colour in
        play outside the starting-Wild choice…), raising :class:`PositionError`;
        ``check=False`` skips that, for a caller that built it so. Shuffles come from
        ``rng``, or from a new unpredictable source.
        """
        if check:
            _check_position(rules, position)
        game = cls(rules, rng=rng, history=False, _empty=True)
        game.scores = list(position.scores)
        game.round = position.round
        game.ply = position.ply
        game.dealer = position.dealer
        game.hands = [list(hand) for hand in position.hands]
        pile = list(position.pile)
        pile.reverse()
        game.pile = pile
        game.discard = list(position.discard)
        game.color = position.color
        game.direction = position.direction
        game.current = position.current
        game._phase = int(position.phase)
        game.penalty = position.penalty
        game.challengeable = position.challengeable
        game.accused = position.accused
        game.accused_guilty = position.accused_guilty
        game.drawn = position.drawn
        game.uno_pending = position.uno_pending
        game.shown = position.shown
        game.winner = position.winner
        game.round_start_events = []
        return game

    # ------------------------------------------------------------------ copying

    def copy(self, *, history: bool = False, rng: RandomSource | None = None) -> Game:
        """A copy of the game, sharing nothing mutable; without history unless asked.

        The copy shuffles with ``rng``, or with a new unpredictable source of its own: never
        with this game's, since a copy drawing from a game's secret, seeded source would
        draw from that game's future. A search passes its own.
        """
        other = Game(self.rules, rng=rng, history=False, _copy_of=self)
        if history and self.log is not None:
            other.log = [RoundLog(r.dealer, r.deal, r.moves[:]) for r in self.log]
        return other

    def redealt(
        self,
        hands: list[list[Card]],
        pile: Sequence[Card],
        *,
        drawn: Card | None,
        accused_guilty: bool,
        rng: RandomSource | None = None,
        events: bool = True,
    ) -> Game:
        """A copy of this game with what not every seat sees dealt otherwise: the hands (the
        lists are taken, not copied), the draw pile (top first), the card the seat on turn
        drew, and whether a challengeable W+4 was a bluff. For search over the worlds that
        agree with one seat's view: the caller keeps the cards consistent (nothing is
        checked), and the copy shuffles with ``rng`` (see :meth:`copy`). ``events=False``: the
        copy is quiet (see :attr:`reporting`): a search plays out its worlds without building
        what nobody reads; the rules played are the same."""
        other = Game(self.rules, rng=rng, history=False, _copy_of=self)
        other.hands = hands
        internal = list(pile)
        internal.reverse()  # in place: cheaper than list(reversed(pile)) in the compiled build
        other.pile = internal
        other.drawn = drawn
        other.accused_guilty = accused_guilty
        other.reporting = events
        return other

    def _copy_state_into(self, other: Game) -> None:
        """Copy everything that changes during play into ``other``: every field of
        :class:`~unomas.position.Position` (a test holds the two lists together)."""
        other.scores = self.scores[:]
        other.round = self.round
        other.ply = self.ply
        other.dealer = self.dealer
        other.hands = [hand[:] for hand in self.hands]
        other.pile = self.pile[:]
        other.discard = self.discard[:]
        other.color = self.color
        other.direction = self.direction
        other.current = self.current
        other._phase = self._phase
        other.penalty = self.penalty
        other.challengeable = self.challengeable
        other.accused = self.accused
        other.accused_guilty = self.accused_guilty
        other.drawn = self.drawn
        other.uno_pending = self.uno_pending
        other.shown = self.shown
        other.winner = self.winner
        other.round_start_events = self.round_start_events

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickling and :func:`copy.deepcopy`, in either build: the rules, the random source
        (so that the copy's shuffles to come are the game's), the history, and every field of
        :class:`~unomas.position.Position` as the game holds it; :func:`_unpickled` rebuilds.
        The one unpredictable source has no state to carry: a copy shuffles with it too."""
        rng = None if self.rng is _SYSTEM_RANDOM else self.rng
        state = tuple([getattr(self, name) for name in _STATE_ATTRIBUTES])
        extra = (self.log, self.round_start_events, self._forced_pile, self.reporting)
        return _unpickled, (self.rules, rng, extra, state)

    def _restore(self, saved: Game) -> None:
        """Put back the state of ``saved`` (a copy), keeping this game's history."""
        saved._copy_state_into(self)

    def __repr__(self) -> str:
        top = card_token(self.discard[-1])
        return (
            f"<Game round={self.round} phase={self.phase.name} current={self.current}"
            f" top={top} hands={[len(h) for h in self.hands]} scores={self.scores}>"
        )


_STATE_ATTRIBUTES: Final = tuple("_phase" if f.name == "phase" else f.name for f in fields(Position))
"""The game's attributes that hold the fields of :class:`~unomas.position.Position` (the
phase is kept as its number)."""


def _unpickled(
    rules: Rules,
    rng: RandomSource | None,
    extra: tuple[list[RoundLog] | None, list[Event], list[Card] | None, bool],
    state: tuple[Any, ...],
) -> Game:
    """The game :meth:`Game.__reduce__` described: ``extra`` is its history, its round's deal
    events, a reshuffle it was told to make, whether it reports events; ``state`` its position."""
    game = Game(rules, rng=rng, history=False, _empty=True)
    for name, value in zip(_STATE_ATTRIBUTES, state, strict=True):
        setattr(game, name, value)
    game.log, game.round_start_events, game._forced_pile, game.reporting = extra
    return game


def _check_position(rules: Rules, position: Position) -> None:
    """Raise :class:`PositionError` unless ``position`` holds together under ``rules``."""
    players = rules.players
    if len(position.hands) != players:
        raise PositionError("position.hand_count", hands=len(position.hands), players=players)
    if len(position.scores) != players:
        raise PositionError("position.score_count", scores=len(position.scores), players=players)
    cards = [c for hand in position.hands for c in hand] + list(position.pile) + list(position.discard)
    if not position.discard or not is_full_deck(cards):
        raise PositionError("position.not_full_deck")
    shown = position.shown
    seats: list[tuple[str, int | None]] = [
        ("current", position.current),
        ("dealer", position.dealer),
        ("accused", position.accused),
        ("uno_pending", position.uno_pending),
        ("winner", position.winner),
    ]
    if shown is not None:
        seats += [("shown challenger", shown[0]), ("shown challenged", shown[1])]
    for name, seat in seats:
        if seat is not None and not 0 <= seat < players:
            raise PositionError("position.no_such_seat", field=name, last=players - 1, value=seat)
    if position.direction not in (1, -1):
        raise PositionError("position.bad_direction", value=position.direction)
    phase = position.phase
    if (position.color is None) != (phase is Phase.COLOR):
        color = None if position.color is None else color_letter(position.color)
        raise PositionError("position.color_phase", color=color, phase=phase.name.lower())
    drawn = position.drawn
    if (drawn is None) != (phase is not Phase.DRAWN) or (
        drawn is not None and drawn not in position.hands[position.current]
    ):
        raise PositionError("position.drawn_phase")
    if position.challengeable and position.accused is None:
        raise PositionError("position.accused_missing")
