"""OpenSpiel's IS-MCTS bot against unomas's ``heuristic``, on the OpenSpiel game of unomas.

Both play two-player rounds of ``python_unomas`` (official rules by default), swapping
seats every round. OpenSpiel's ``ISMCTSBot`` searches the game through OpenSpiel's API:
it samples worlds with ``resample_from_infostate`` and keys its tree by observation
strings; its leaves are valued by :class:`unomas.rl.openspiel.RolloutEvaluator` (greedy
playouts on the engine) or, with ``--rollouts random``, by OpenSpiel's own random
rollouts (much slower). ``heuristic`` gets its own view and the events of every step, as
in any unomas match. Needs the ``openspiel`` extra (``pip install -e '.[openspiel]'``):

    python examples/openspiel_ismcts.py --rounds 20 --simulations 100
"""

from __future__ import annotations

import argparse
import math
import random
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from unomas.bots import make_bot
from unomas.events import Event, redact
from unomas.rl.openspiel import ALL_RULES_NAME, SHORT_NAME, RolloutEvaluator, UnoState


def play_round(game: Any, searcher: ismcts.ISMCTSBot, search_seat: int, seed: int) -> tuple[int, int]:
    """One round; returns (the winner's seat or -1, IS-MCTS decisions)."""
    rng = random.Random(seed)
    heuristic = make_bot("heuristic")
    other = 1 - search_seat
    heuristic.start(other, game.rules, random.Random(f"{seed}/heuristic"))
    state: UnoState = game.new_initial_state()
    told: list[Event] | None = None
    decisions = 0
    while not state.is_terminal():
        driver = state.driver
        if driver is not None and driver.events is not told:  # tell the bot what it saw happen
            told = driver.events
            heuristic.observe([redact(event, other) for event in told])
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probabilities)[0])
        elif state.current_player() == search_seat:
            state.apply_action(searcher.step(state))
            decisions += 1
        else:
            assert driver is not None
            view = driver.game.view(other)
            if driver.out_of_turn:
                answer = heuristic.react(view)
                state.apply_action(driver.table.none if answer is None else driver.table.id(answer))
            else:
                state.apply_action(driver.table.id(heuristic.act(view)))
    heuristic.close()
    returns = state.returns()
    return (int(np.argmax(returns)) if max(returns) > 0 else -1), decisions


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=100, help="IS-MCTS simulations per decision")
    parser.add_argument("--rollouts", choices=["greedy", "random"], default="greedy", help="how leaves are valued")
    parser.add_argument("--preset", choices=["official", "all"], default="official")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    game = pyspiel.load_game(SHORT_NAME if args.preset == "official" else ALL_RULES_NAME, {"players": 2})
    random_state = np.random.RandomState(args.seed)
    evaluator: mcts.Evaluator = (
        RolloutEvaluator(seed=args.seed) if args.rollouts == "greedy" else mcts.RandomRolloutEvaluator(1, random_state)
    )
    searcher = ismcts.ISMCTSBot(
        game,
        evaluator,
        uct_c=2.0,
        max_simulations=args.simulations,
        random_state=random_state,
        use_observation_string=True,
    )
    wins = decisions = 0
    started, cpu_started = time.perf_counter(), time.process_time()
    for index in range(args.rounds):
        seat = index % 2
        winner, made = play_round(game, searcher, seat, seed=args.seed * 100_000 + index)
        wins += winner == seat
        decisions += made
        outcome = "IS-MCTS" if winner == seat else ("heuristic" if winner >= 0 else "nobody (max_steps)")
        print(f"round {index + 1:3}: IS-MCTS in seat {seat}, won by {outcome}", flush=True)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    rate = wins / args.rounds
    half = 1.96 * math.sqrt(rate * (1 - rate) / args.rounds)
    print(
        f"OpenSpiel IS-MCTS ({args.simulations} simulations, {args.rollouts} rollouts) against heuristic,"
        f" {args.preset} rules: won {wins} of {args.rounds} rounds ({rate:.0%} ± {half:.0%});"
        f" {elapsed / max(decisions, 1):.2f} s per IS-MCTS decision ({cpu / max(decisions, 1):.2f} s of CPU)"
    )


if __name__ == "__main__":
    main()
