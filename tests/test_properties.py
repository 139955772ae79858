"""Properties of the engine over random settings and random play.

Each example draws a full set of rules (any combination of the switches, 2 to 10 players,
any hand size the rules allow, a small target score) and a seed; the game is then driven by
a seeded random choice among the legal actions of the player on turn and, now and then, of
a seat that may act out of turn. Rounds are dealt on as they end, and every example stops
after a fixed number of actions so the whole file stays fast.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unomas import record
from unomas.actions import Action, Kind
from unomas.cards import (
    COLOR_OF,
    DRAW_TWO,
    IS_ACTION_OR_WILD,
    KINDS,
    POINTS,
    RANK_OF,
    WILD,
    WILD_DRAW_FOUR,
    is_full_deck,
    parse_card,
)
from unomas.errors import IllegalAction
from unomas.events import (
    Challenged,
    Dealt,
    Drew,
    Event,
    Played,
    Reshuffled,
    RoundEnded,
    StartingCardReturned,
    redact,
)
from unomas.game import Game, Phase
from unomas.rules import SWITCHES, UNO_PENALTIES, Rules
from unomas.testing import snapshot

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------- strategies and drivers


@st.composite
def any_rules(draw: st.DrawFn) -> Rules:
    """Any valid settings: every switch free, 2–10 players, an allowed hand size, a small target,
    any UNO penalty, no hand limit or one above the hand size."""
    players = draw(st.integers(2, 10))
    most = 99 // players
    hand_size = draw(st.one_of(st.integers(1, min(7, most)), st.integers(1, most)))
    target_score = draw(st.one_of(st.sampled_from([0, 1, 50]), st.integers(0, 150)))
    switches = {name: draw(st.booleans()) for name in SWITCHES}
    uno_penalty = draw(st.sampled_from(UNO_PENALTIES))
    hand_limit = draw(st.one_of(st.just(0), st.integers(hand_size + 1, hand_size + 30)))
    elimination = draw(st.one_of(st.just(0), st.integers(hand_size + 1, hand_size + 12)))
    fitting = ["2v2"] * (players == 4) + ["3v3"] * (players == 6) + ["pairs"] * (players in (4, 6, 8, 10))
    teams = draw(st.sampled_from(["none", *fitting]))
    return Rules(
        players=players,
        hand_size=hand_size,
        target_score=target_score,
        uno_penalty=uno_penalty,
        hand_limit=hand_limit,
        elimination=elimination,
        teams=teams,
        **switches,
    )


seeds = st.integers(0, 2**32 - 1)


def choose(game: Game, rng: random.Random) -> Action:
    """A random legal action: sometimes an out-of-turn one, more often a play than not."""
    if rng.random() < 0.3:
        seats = game.out_of_turn_seats()
        if seats:
            options = game.legal_actions(rng.choice(seats))
            if options:
                return rng.choice(options)
    options = game.legal_actions(game.current)
    assert options, f"the player on turn has nothing to do: {game!r}"
    plays = [a for a in options if a.kind is Kind.PLAY]
    if plays and rng.random() < 0.7:
        return rng.choice(plays)
    return rng.choice(options)


def walk(game: Game, rng: random.Random, steps: int) -> Iterator[list[Event]]:
    """Play at most ``steps`` actions (or deals), yielding the events of each."""
    for _ in range(steps):
        if game.round_over:
            if game.is_over:
                return
            yield game.start_round()
            continue
        yield game.apply(choose(game, rng))


def all_cards(game: Game) -> list[int]:
    return [c for hand in game.hands for c in hand] + game.pile + game.discard


def team(rules: Rules, seat: int) -> int:
    """The team of ``seat`` as docs/house-rules.md reads it, worked out independently of the
    engine: two teams alternate round the table; pairs are seats ``i`` and ``i + n/2``;
    without teams each seat plays for itself."""
    half = rules.players // 2
    if rules.teams in ("2v2", "3v3"):
        return seat % 2
    if rules.teams == "pairs":
        return seat - half if seat >= half else seat
    return seat


def mates(rules: Rules, seat: int) -> list[int]:
    """The seats of ``seat``'s team, itself included."""
    return [other for other in range(rules.players) if team(rules, other) == team(rules, seat)]


# ---------------------------------------------------------------- (a) conservation


@FAST
@given(any_rules(), seeds)
def test_cards_are_conserved(rules: Rules, seed: int) -> None:
    game = Game(rules, seed=seed)
    assert is_full_deck(all_cards(game))
    assert all(len(hand) == rules.hand_size for hand in game.hands)
    for _ in walk(game, random.Random(seed), 300):
        assert is_full_deck(all_cards(game))
        assert game.discard, "the discard pile is never empty"


@FAST
@given(any_rules(), seeds)
def test_state_invariants(rules: Rules, seed: int) -> None:
    """What must hold between any two actions, whatever the settings."""
    game = Game(rules, seed=seed)
    scores = list(game.scores)
    for events in walk(game, random.Random(seed), 300):
        if not game.round_over:
            assert all(game.hands), "a round goes on only while every seat holds cards"
            assert 0 <= game.current < rules.players
            assert game.color in (0, 1, 2, 3) or (game.color is None and game.phase is Phase.COLOR)
        assert game.direction in (1, -1)
        if game.phase is Phase.PENALTY:
            assert game.penalty > 0
        if game.challengeable:
            assert rules.challenge_wild_draw_four
            assert game.phase is Phase.PENALTY and game.discard[-1] == WILD_DRAW_FOUR
        if game.phase is Phase.DRAWN:
            assert game.drawn in game.hands[game.current]
        for event in events:
            if isinstance(event, Played) and not game.round_over:
                # RULES.md, UNO: a play leaving exactly one card, without the call, obliges
                # its player to call (and lets the others catch them); any play ends an
                # earlier obligation.
                obliged = not event.uno and len(game.hands[event.player]) == 1
                assert game.uno_pending == (event.player if obliged else None)
            if isinstance(event, RoundEnded):
                assert game.round_over
                left_in = [
                    s for s, h in enumerate(game.hands) if not (rules.elimination and len(h) >= rules.elimination)
                ]
                winners = mates(rules, event.winner)  # house rules: with teams the winner's team wins
                # elimination: the last one (team) left, won by its lowest seat
                assert not game.hands[event.winner] or (set(left_in) <= set(winners) and left_in[0] == event.winner)
                own = [sum(POINTS[c] for c in hand) for hand in game.hands]
                others = sum(own[s] for s in range(rules.players) if s not in winners)
                assert event.points == (sum(own) if rules.alternative_scoring else others)
                for seat in range(rules.players):
                    if rules.alternative_scoring:  # house rules: each (team) scores their own cards
                        scores[seat] += sum(own[s] for s in mates(rules, seat))
                    elif seat in winners:
                        scores[seat] += others
                assert game.scores == scores
        if game.is_over:
            assert game.winner is not None
            if rules.alternative_scoring:  # the lowest total wins once someone reaches the target
                assert game.scores[game.winner] == min(game.scores)
                assert rules.target_score == 0 or max(game.scores) >= rules.target_score
            else:
                assert game.scores[game.winner] == max(game.scores)
                assert rules.target_score == 0 or game.scores[game.winner] >= rules.target_score


# ---------------------------------------------------------------- (b) legal actions apply


@FAST
@given(any_rules(), seeds)
def test_every_legal_action_applies(rules: Rules, seed: int) -> None:
    game = Game(rules, seed=seed)
    for _ in walk(game, random.Random(seed), 120):
        if game.round_over:
            assert all(game.legal_actions(s) == [] for s in range(rules.players))
            assert game.out_of_turn_seats() == []
            continue
        assert game.legal_actions(game.current), "the player on turn always has an action"
        open_seats = {s for s in range(rules.players) if s != game.current and game.legal_actions(s)}
        assert set(game.out_of_turn_seats()) == open_seats
        for seat in range(rules.players):
            actions = game.legal_actions(seat)
            assert len(set(actions)) == len(actions), "no action is listed twice"
            for action in actions:
                assert action.player == seat
                assert game.problem(action) is None
                twin = game.copy()
                twin.rng = random.Random(seed)
                twin.apply(action)
                assert is_full_deck(all_cards(twin))


def expected_actions(game: Game, seat: int) -> set[Action]:
    """The actions RULES.md opens to ``seat`` now, worked out independently of the engine."""
    rules, phase, hand = game.rules, game.phase, game.hands[seat]
    if phase in (Phase.ROUND_OVER, Phase.MATCH_OVER):
        return set()
    if phase is Phase.COLOR:
        return {Action(seat, Kind.COLOR, color=c) for c in range(4)} if seat == game.current else set()
    limit = rules.elimination

    def out(other: int) -> bool:  # house rules: elimination puts a seat holding that many cards out
        return limit > 0 and len(game.hands[other]) >= limit

    if out(seat):
        return set()
    actions: set[Action] = set()
    pending = game.uno_pending
    if pending is not None:
        if pending == seat:
            actions.add(Action(seat, Kind.UNO))
        else:
            actions.add(Action(seat, Kind.CATCH, target=pending))
    top = game.discard[-1]
    # house rules: the card that made a pending penalty lies under any deflecting cards
    made_by = next((c for c in reversed(game.discard) if c == WILD_DRAW_FOUR or RANK_OF[c] == DRAW_TWO), top)

    def answers_penalty(card: int) -> bool:
        deflects = (RANK_OF[card] == 11 and rules.reverse_deflect) or (RANK_OF[card] == 10 and rules.skip_deflect)
        if card < WILD and deflects and COLOR_OF[card] == game.color:
            return made_by != WILD_DRAW_FOUR or rules.stack_draw_four or rules.stack_mixed
        if made_by == WILD_DRAW_FOUR:
            if card == WILD_DRAW_FOUR:
                return rules.stack_draw_four
            return RANK_OF[card] == DRAW_TWO and rules.stack_mixed and COLOR_OF[card] == game.color
        if card == WILD_DRAW_FOUR:
            return rules.stack_mixed
        return RANK_OF[card] == DRAW_TWO and rules.stack_draw_two

    swaps, passes = rules.seven_zero or rules.seven_swap, rules.seven_zero or rules.zero_pass

    def goes_on(card: int) -> bool:  # house rules: same_number_together, another card of this number is held
        return rules.same_number_together and RANK_OF[card] < 10 and sum(RANK_OF[c] == RANK_OF[card] for c in hand) > 1

    playable: set[int]
    if seat == game.current:
        if phase is Phase.RUN:  # house rules: another card of the number on top, or a pass (not amid targetless 7s)
            if not (swaps and RANK_OF[top] == 7):
                actions.add(Action(seat, Kind.PASS))
            playable = {c for c in hand if RANK_OF[c] == RANK_OF[top]}
        elif phase is Phase.TURN:
            actions.add(Action(seat, Kind.DRAW))
            playable = {c for c in hand if c >= WILD or COLOR_OF[c] == game.color or RANK_OF[c] == RANK_OF[top]}
        elif phase is Phase.DRAWN:
            if not rules.force_play_drawn:
                actions.add(Action(seat, Kind.PASS))
            assert game.drawn is not None
            playable = {game.drawn}
        else:
            actions.add(Action(seat, Kind.DRAW))
            if game.challengeable:
                actions.add(Action(seat, Kind.CHALLENGE))
            playable = {c for c in hand if answers_penalty(c)}
    elif (
        rules.jump_in
        and phase is not Phase.RUN
        and top < WILD
        and top in hand
        and (phase is not Phase.PENALTY or answers_penalty(top))
    ):
        playable = {top}
    else:
        playable = set()
    if len(hand) == 1 and rules.no_action_finish:
        playable = {c for c in playable if not IS_ACTION_OR_WILD[c]}
    if len(hand) == 1 and rules.no_wild_finish:
        playable = {c for c in playable if c < WILD}
    n = game.players
    for card in playable:
        colors: list[int | None] = [0, 1, 2, 3] if card >= WILD else [None]
        seven = RANK_OF[card] == 7 and card < WILD and swaps
        targets: list[int | None] = [t for t in range(n) if t != seat and not out(t)] if seven else [None]
        if seven and goes_on(card):  # a 7 that goes on to another 7 names no one yet
            targets.append(None)
        for target in targets:
            left = len(hand) - 1
            if left and swaps and card < WILD and target is not None:
                left = len(game.hands[target])
            elif left and passes and card < WILD and RANK_OF[card] == 0 and not goes_on(card):
                before_seat = (seat - game.direction) % n
                while out(before_seat):
                    before_seat = (before_seat - game.direction) % n
                left = len(game.hands[before_seat])
            for color in colors:
                actions.add(Action(seat, Kind.PLAY, card, color, target))
                if left == 1:
                    actions.add(Action(seat, Kind.PLAY, card, color, target, True))
    return actions


@FAST
@given(any_rules(), seeds)
def test_legal_actions_are_those_of_the_rules(rules: Rules, seed: int) -> None:
    game = Game(rules, seed=seed)
    for _ in walk(game, random.Random(seed), 250):
        for seat in range(rules.players):
            assert set(game.legal_actions(seat)) == expected_actions(game, seat), (seat, game)


def check_effects(before: Game, action: Action, events: list[Event], after: Game, guilty: dict[int, bool]) -> None:
    """The outcome of ``action`` from ``before``, checked against RULES.md."""
    n, p, d = before.players, action.player, before.direction
    rules = before.rules
    available = len(before.pile) + len(before.discard) - 1

    def gained(seat: int) -> int:
        return len(after.hands[seat]) - len(before.hands[seat])

    def room(seat: int) -> int:
        """How many cards ``seat`` may still draw (house rules: ``hand_limit``)."""
        return max(0, rules.hand_limit - len(before.hands[seat])) if rules.hand_limit else 108

    def out(seat: int, game: Game = after) -> bool:
        """Whether ``seat`` is out of the round (house rules: ``elimination``)."""
        return rules.elimination > 0 and len(game.hands[seat]) >= rules.elimination

    def nxt(seat: int, direction: int, game: Game = after) -> int:
        """The next seat in ``direction`` still in the round."""
        seat = (seat + direction) % n
        while out(seat, game):
            seat = (seat + direction) % n
        return seat

    in_round = [seat for seat in range(n) if not out(seat)]
    went_out = action.kind is Kind.PLAY and not after.hands[p]
    if rules.elimination and after.round_over and not went_out:  # one seat (team) was left in the round
        assert len({team(rules, seat) for seat in in_round}) == 1
        return

    top = before.discard[-1]
    zero_passes = (rules.seven_zero or rules.zero_pass) and RANK_OF[top] == 0

    def check_run_end(seat: int) -> None:
        """House rules, same_number_together: the run's last card (the top) has its effect."""
        held = [sorted(h) for h in before.hands]
        if action.kind is Kind.CATCH:
            held[seat] = sorted(after.hands[seat])
        if zero_passes:
            held = [
                held[in_round[(in_round.index(s) - d) % len(in_round)]] if s in in_round else held[s] for s in range(n)
            ]
        assert [sorted(h) for h in after.hands] == held
        assert (after.current, after.phase) == (nxt(seat, d), Phase.TURN)

    if action.kind is Kind.CATCH:
        assert action.target is not None
        assert gained(action.target) == min(rules.uno_penalty, available, room(action.target))
        if before.phase is Phase.RUN and out(action.target):  # the runner was put out: the run ends
            assert action.target == before.current
            check_run_end(action.target)
        else:
            assert (after.current, after.phase, after.uno_pending) == (before.current, before.phase, None)
    elif action.kind is Kind.UNO:
        assert after.hands == before.hands and after.uno_pending is None and after.current == before.current
    elif action.kind is Kind.CHALLENGE:
        accused = nxt(p, -d, before)
        if before.accused is not None and out(before.accused, before):  # elimination: the W+4's player,
            accused = before.accused  # caught since, is out of the round and still accused
        assert after.phase is Phase.TURN and after.penalty == 0
        if guilty[accused]:
            assert gained(accused) == min(4, available, room(accused)) and after.current == p
        else:
            assert gained(p) == min(6, available, room(p)) and after.current == nxt(p, d)
    elif action.kind is Kind.DRAW and before.phase is Phase.PENALTY:
        assert gained(p) == min(before.penalty, available, room(p))
        assert (after.current, after.phase, after.penalty) == (nxt(p, d), Phase.TURN, 0)
    elif action.kind is Kind.DRAW:
        drew = next(e for e in events if isinstance(e, Drew))
        assert drew.cards is not None and gained(p) == len(drew.cards)
        if not before.rules.draw_until_playable:
            assert len(drew.cards) == min(1, available, room(p))
        top, color = before.discard[-1], before.color
        playable = [c >= WILD or COLOR_OF[c] == color or RANK_OF[c] == RANK_OF[top] for c in drew.cards]
        assert not any(playable[:-1]), "drawing until playable stops at the first playable card"
        if playable and playable[-1] and not out(p):
            assert (after.current, after.phase, after.drawn) == (p, Phase.DRAWN, drew.cards[-1])
        else:
            assert after.current == nxt(p, d) and after.phase is Phase.TURN
            if before.rules.draw_until_playable and not (playable and playable[-1]):
                assert len(drew.cards) == min(available, room(p))
    elif action.kind is Kind.PASS and before.phase is Phase.RUN:
        check_run_end(p)
    elif action.kind is Kind.PASS:
        assert after.hands == before.hands and after.current == nxt(p, d) and after.phase is Phase.TURN
    elif action.kind is Kind.COLOR:
        assert after.color == action.color and after.current == nxt(p, d)
    elif action.kind is Kind.PLAY:
        card = action.card
        assert card is not None
        assert after.discard[-1] == card
        assert after.color == (action.color if card >= WILD else COLOR_OF[card])
        rank = RANK_OF[card]
        deflected = before.phase is Phase.PENALTY and card < WILD and rank in (10, 11)
        same = [c for c in before.hands[p] if RANK_OF[c] == rank]
        swaps = rules.seven_zero or rules.seven_swap
        if rules.same_number_together and rank < 10 and len(same) > 1 and not (swaps and action.target is not None):
            held = [sorted(h) for h in before.hands]  # house rules: the turn goes on, no effect yet
            held[p].remove(card)
            assert [sorted(h) for h in after.hands] == held
            assert (after.current, after.phase, after.direction) == (p, Phase.RUN, d)
            return
        if after.round_over:
            assert not after.hands[p]
            if card == WILD_DRAW_FOUR or RANK_OF[card] == DRAW_TWO:
                owed = (before.penalty if before.phase is Phase.PENALTY else 0) + (4 if card >= WILD else 2)
                receiver = nxt(p, d, before)
                assert gained(receiver) == min(owed, available + 1, room(receiver))
            elif deflected:  # house rules: a deflecting last card still sends the penalty on
                receiver = nxt(p, -d, before) if rank == 11 else nxt(p, d, before)
                assert gained(receiver) == min(before.penalty, available + 1, room(receiver))
            return
        if deflected:  # house rules: reverse_deflect sends the penalty back, skip_deflect on
            assert after.phase is Phase.PENALTY and after.penalty == before.penalty and not after.challengeable
            assert after.direction == (-d if rank == 11 else d)
            assert after.current == (nxt(p, -d) if rank == 11 else nxt(p, d))
        elif card == WILD_DRAW_FOUR or rank == DRAW_TWO:
            owed = (before.penalty if before.phase is Phase.PENALTY else 0) + (4 if card >= WILD else 2)
            assert (after.current, after.phase, after.penalty) == (nxt(p, d), Phase.PENALTY, owed)
            challengeable = card >= WILD and before.phase is not Phase.PENALTY and before.rules.challenge_wild_draw_four
            assert after.challengeable == challengeable
            if challengeable:
                guilty[p] = any(COLOR_OF[c] == before.color for c in after.hands[p])
        elif card < WILD and rank == 10:  # Skip
            assert after.current == nxt(nxt(p, d), d)
        elif card < WILD and rank == 11:  # Reverse
            assert after.direction == -d
            assert after.current == (p if len(in_round) == 2 else nxt(p, -d))
        else:
            assert after.current == nxt(p, d) and after.phase is Phase.TURN
        held = [sorted(h) for h in before.hands]
        held[p].remove(card)
        if swaps and card < WILD and rank == 7:
            assert action.target is not None
            held[p], held[action.target] = held[action.target], held[p]
        elif (rules.seven_zero or rules.zero_pass) and card < WILD and rank == 0:
            passed = list(held)
            for index, seat in enumerate(in_round):  # among the seats in the round
                passed[seat] = held[in_round[(index - d) % len(in_round)]]
            held = passed
        assert [sorted(h) for h in after.hands] == held


@FAST
@given(any_rules(), seeds)
def test_effects_follow_the_rules(rules: Rules, seed: int) -> None:
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    guilty: dict[int, bool] = {}
    for _ in range(300):
        if game.round_over:
            if game.is_over:
                break
            game.start_round()
            continue
        action = choose(game, rng)
        before = game.copy()
        events = game.apply(action)
        check_effects(before, action, events, game, guilty)


# ---------------------------------------------------------------- (c) problem() and illegal actions


def candidate(game: Game, rng: random.Random) -> Action:
    """A random action: a legal one with one field changed, or any combination of fields.

    Seats, targets, cards and colours range beyond what exists.
    """
    n = game.players
    cards_held = [c for hand in game.hands for c in hand]
    card_pool: list[int | None] = [None, -1, KINDS, 99, *range(KINDS), *cards_held]
    color_pool: list[int | None] = [None, -1, 4, 0, 1, 2, 3]
    target_pool: list[int | None] = [None, -1, n, *range(n)]
    seat_pool = [-1, n, *range(n)]
    if rng.random() < 0.5:
        legal = [a for s in range(n) for a in game.legal_actions(s)]
        if legal:
            base = rng.choice(legal)
            which = rng.randrange(7)
            if which == 0:
                return base._replace(player=rng.choice(seat_pool))
            if which == 1:
                return base._replace(kind=rng.choice(list(Kind)))
            if which == 2:
                return base._replace(card=rng.choice(card_pool))
            if which == 3:
                return base._replace(color=rng.choice(color_pool))
            if which == 4:
                return base._replace(target=rng.choice(target_pool))
            if which == 5:
                return base._replace(uno=not base.uno)
            return base
    return Action(
        rng.choice(seat_pool),
        rng.choice(list(Kind)),
        rng.choice(card_pool),
        rng.choice(color_pool),
        rng.choice(target_pool),
        rng.random() < 0.3,
    )


@FAST
@given(any_rules(), seeds)
def test_problem_agrees_with_legal_actions(rules: Rules, seed: int) -> None:
    game = Game(rules, seed=seed)
    rng = random.Random(seed ^ 0x5EED)
    checked_illegal = 0
    for _ in walk(game, random.Random(seed), 150):
        for _ in range(6):
            action = candidate(game, rng)
            legal = action in game.legal_actions(action.player)
            reason = game.problem(action)
            assert (reason is None) == legal, (action, reason)
            assert game.is_legal(action) == legal
            if legal:
                continue
            assert isinstance(reason, str) and reason
            before = snapshot(game)
            with pytest.raises(IllegalAction):
                game.apply(action)
            assert snapshot(game) == before
            checked_illegal += 1
    assert checked_illegal > 0


def some_wild_game() -> Game:
    """A game where seat 1 is on turn holding a W (and the dealer chose a starting colour)."""
    from unomas.game import Deal

    deal = Deal.from_tokens([["R1", "R2"], ["W", "G5"]], ["R9", "B7"])
    return Game(Rules(players=2, hand_size=2, target_score=0), deal=deal, seed=0)


@pytest.mark.parametrize(
    "action",
    [
        pytest.param(Action(1, Kind.PLAY, -1), id="card-1"),
        pytest.param(Action(1, Kind.PLAY, KINDS), id="card54"),
        pytest.param(Action(1, Kind.PLAY, WILD, -1), id="wild-colour-1"),
        pytest.param(Action(1, Kind.PLAY, WILD, 4), id="wild-colour4"),
        pytest.param(Action(1, Kind.COLOR, None, 4), id="choose-colour4"),
        pytest.param(Action(1, Kind.DRAW, None, 7), id="draw-colour7"),
        pytest.param(Action(1, Kind.CATCH, None, None, 5), id="catch-seat5"),
        pytest.param(Action(7, Kind.DRAW), id="seat7"),
    ],
)
def test_out_of_range_values_are_refused(action: Action) -> None:
    """RULES.md, Illegal input: refused with a reason, nothing changed — whatever the values."""
    game = some_wild_game()
    before = snapshot(game)
    assert game.problem(action) is not None
    with pytest.raises(IllegalAction):
        game.apply(action)
    assert snapshot(game) == before


# ---------------------------------------------------------------- (d) records replay


def replays_to_same_state(game: Game) -> None:
    written = json.loads(record.dumps(record.to_json(game)))
    replayed = record.replay(written)
    assert written["scores"] == game.scores == replayed.scores
    assert written["winner"] == game.winner
    assert replayed.winner == game.winner
    assert replayed.hands == game.hands
    assert snapshot(replayed) == snapshot(game)


@FAST
@given(any_rules(), seeds, st.integers(1, 400))
def test_records_replay_to_the_same_game(rules: Rules, seed: int, steps: int) -> None:
    game = Game(rules, seed=seed)
    for _ in walk(game, random.Random(seed), steps):
        pass
    replays_to_same_state(game)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(2, 6),
    st.integers(1, 7),
    st.sampled_from(["official", "all"]),
    st.sampled_from(["playfirst", "random"]),
    seeds,
)
def test_simulated_matches_replay(players: int, hand_size: int, preset: str, policy: str, seed: int) -> None:
    from unomas.runs.selfplay import selfplay

    rules = Rules.preset(preset, players=players, hand_size=hand_size, target_score=40)
    table = selfplay(rules, policy, seed=seed, history=True)
    summary = table.play()
    game = table.game
    if not summary.abandoned:
        assert game.is_over and game.winner is not None
        if rules.alternative_scoring:  # house rules: the lowest total wins once one reaches the target
            assert min(game.scores) == game.scores[game.winner] and max(game.scores) >= 40
        else:
            assert max(game.scores) == game.scores[game.winner] >= 40
    replays_to_same_state(game)


def test_records_with_reshuffles_replay() -> None:
    """Crowded tables with tiny draw piles: reshuffles of every kind come up and replay."""
    reshuffles = 0
    for seed in range(12):
        rules = Rules.preset("all" if seed % 2 else "official", players=10, hand_size=9, target_score=60)
        game = Game(rules, seed=seed)
        for events in walk(game, random.Random(seed), 600):
            reshuffles += sum(isinstance(e, Reshuffled) for e in events)
        replays_to_same_state(game)
    assert reshuffles > 0


# ---------------------------------------------------------------- (e) views and redaction


def seen_seats(rules: Rules, seat: int | None) -> list[int]:
    """The seats whose hands ``seat`` sees: its own, and its partners' under ``team_view``."""
    if seat is None:
        return []
    return mates(rules, seat) if rules.team_view else [seat]


def scrambled(game: Game, seat: int | None, rng: random.Random) -> Game:
    """A copy in which every card ``seat`` cannot see (other hands, the pile) is redealt."""
    other = game.copy()
    seen = seen_seats(game.rules, seat)
    hidden = [c for s, hand in enumerate(other.hands) if s not in seen for c in hand] + other.pile
    rng.shuffle(hidden)
    cards = iter(hidden)
    for s, hand in enumerate(other.hands):
        if s not in seen:
            other.hands[s] = [next(cards) for _ in hand]
    other.pile = list(cards)
    return other


def check_view(game: Game, seat: int | None, rng: random.Random) -> None:
    view = game.view(seat)
    own: tuple[int, ...] = () if seat is None else tuple(game.hands[seat])
    assert view.seat == seat
    assert view.hand == own
    assert view.hand_sizes == tuple(len(h) for h in game.hands)
    assert view.pile_size == len(game.pile)
    assert view.discard == tuple(game.discard)
    assert view.top == game.discard[-1]
    if view.drawn is not None:
        assert seat == game.current and view.drawn in own
    for action in view.legal_actions:
        assert action.player == seat
        assert action.card is None or action.card in own
    if view.shown_hand is not None:
        assert game.shown is not None and game.shown[0] == seat
        assert view.shown_hand == (game.shown[1], game.shown[2])
    if seat is None:
        assert view.legal_actions == () and view.drawn is None and view.shown_hand is None
        assert view.partners == () and view.partner_hands == ()
    else:
        partners = [s for s in mates(game.rules, seat) if s != seat]
        assert list(view.partners) == partners
        seen = [(s, tuple(game.hands[s])) for s in partners] if game.rules.team_view else []
        assert list(view.partner_hands) == seen
    as_json = view.to_json()
    assert "pile" not in as_json and "hands" not in as_json
    assert view.to_json(rules=False) == {key: value for key, value in as_json.items() if key != "rules"}
    # What the seat sees depends on nothing it may not know: redeal the hidden cards and
    # the view stays exactly the same.
    assert scrambled(game, seat, rng).view(seat) == view


def check_redaction(event: Event, seat: int | None, rules: Rules) -> None:
    visible = seen_seats(rules, seat)
    seen = redact(event, seat, rules.seen_hands(seat))
    assert type(seen) is type(event)
    if isinstance(event, Drew):
        assert isinstance(seen, Drew)
        if event.player in visible:
            assert seen == event
        else:
            assert seen.cards is None
            assert dataclasses.replace(seen, cards=event.cards) == event
    elif isinstance(event, Dealt):
        assert isinstance(seen, Dealt)
        assert seen.pile is None
        assert (seen.round, seen.dealer) == (event.round, event.dealer)
        assert len(seen.hands) == len(event.hands)
        for s, hand in enumerate(seen.hands):
            assert hand == (event.hands[s] if s in visible else None)
    elif isinstance(event, StartingCardReturned | Reshuffled):
        assert isinstance(seen, StartingCardReturned | Reshuffled)
        assert seen.pile is None
        assert dataclasses.replace(seen, pile=event.pile) == event
    elif isinstance(event, Challenged):
        assert isinstance(seen, Challenged)
        assert dataclasses.replace(seen, hand=event.hand) == event
        if seat == event.challenger or event.challenged in visible:
            assert seen.hand == event.hand, "the challenger (and who sees the hand) is shown the challenged hand"
        else:
            assert seen.hand is None
    else:
        assert seen == event


@FAST
@given(any_rules(), seeds)
def test_views_leak_nothing(rules: Rules, seed: int) -> None:
    game = Game(rules, seed=seed)
    rng = random.Random(~seed)
    seats: list[int | None] = [*range(rules.players), None]
    assert game.log is not None
    first = game.log[0]
    check_redaction(Dealt(0, first.dealer, first.deal.hands, first.deal.pile), 0, rules)
    for seat in seats:
        check_view(game, seat, rng)
    for events in walk(game, random.Random(seed), 120):
        for seat in seats:
            check_view(game, seat, rng)
            for event in events:
                check_redaction(event, seat, rules)


def test_redact_by_event_kind() -> None:
    r1, g5, b7 = parse_card("R1"), parse_card("G5"), parse_card("B7")
    drew = Drew(1, 2, (r1, g5), "turn")
    assert redact(drew, 1) == drew
    assert redact(drew, 0) == Drew(1, 2, None, "turn")
    assert redact(drew, None) == Drew(1, 2, None, "turn")

    dealt = Dealt(0, 0, ((r1,), (g5,), (b7,)), (WILD, WILD_DRAW_FOUR))
    assert redact(dealt, 1) == Dealt(0, 0, (None, (g5,), None), None)
    assert redact(dealt, None) == Dealt(0, 0, (None, None, None), None)

    assert redact(StartingCardReturned((WILD, r1)), 0) == StartingCardReturned(None)
    assert redact(Reshuffled(2, (WILD, r1)), 2) == Reshuffled(2, None)

    challenged = Challenged(1, 0, True, (r1, g5))
    assert redact(challenged, 1) == challenged
    assert redact(challenged, 2).hand is None  # type: ignore[union-attr]
    assert redact(challenged, None).hand is None  # type: ignore[union-attr]

    # house rules, team_view: a partner's hidden cards are seen by who is given them
    assert redact(drew, 3, (1,)) == drew
    assert redact(dealt, 0, (2,)) == Dealt(0, 0, ((r1,), None, (b7,)), None)
    assert redact(challenged, 2, (0,)) == challenged


# ---------------------------------------------------------------- (f) copies


@FAST
@given(any_rules(), seeds, st.integers(0, 150), st.booleans())
def test_copy_is_independent(rules: Rules, seed: int, prefix: int, history: bool) -> None:
    game = Game(rules, seed=seed)
    for _ in walk(game, random.Random(seed), prefix):
        pass
    before = snapshot(game)
    twin = game.copy(history=history)
    assert snapshot(twin)[:-1] == before[:-1]
    assert (twin.log is not None) == history
    twin.rng = random.Random(seed + 1)
    for _ in walk(twin, random.Random(seed + 2), 80):
        pass
    if twin.hands[0]:
        twin.hands[0].pop()
    twin.scores[0] += 1
    twin.pile.append(WILD)
    twin.discard.append(WILD)
    assert snapshot(game) == before
    # The original plays on, and its record is still its own.
    for _ in walk(game, random.Random(seed + 3), 40):
        pass
    replays_to_same_state(game)
