"""RLCard's rule agent (``UNORuleAgentV1``, RLCard 1.2.0) as a program bot: the ladder's external anchor.

    cmd:startup=60:PYTHON path/to/rlcard_rule.py

``PYTHON`` is an interpreter with ``rlcard==1.2.0`` (a virtual environment of its own:
RLCard is never a dependency of unomas); this file imports only the standard library and
RLCard, so that interpreter needs no unomas. It speaks the bot protocol ``unomas-bot/2``
(one process plays every match it is seated in) and asks the agent as RLCard's game would:
its legal actions are RLCard's (the playable cards, a Wild once per colour, a Wild Draw Four
only when nothing else is playable, ``draw`` only when nothing is), its hand in RLCard's
card names. What RLCard's game leaves out is played plainly: a card drawn that can be played
is played (RLCard plays it within the draw), a penalty is drawn (never stacked nor
challenged), the dealer names the colour most held, a 7 under ``seven_zero`` swaps with the
smallest other hand, UNO is always called, a catch always taken, and no jump-in. The agent
draws its random choices from NumPy seeded with 0 when the process starts.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable
from typing import Any

NAMES = {"S": "skip", "R": "reverse", "+2": "draw_2"}
"""unomas's card ranks that RLCard names otherwise (the digits are the same)."""

Action = dict[str, Any]
Agent = Callable[[dict[str, Any]], str]


def rlcard_card(card: str, color: str | None = None) -> str:
    """A card in RLCard's words (``R+2`` → ``r-draw_2``; a wild in ``color``, red if none).

    >>> rlcard_card("R+2"), rlcard_card("G7"), rlcard_card("W+4", "B"), rlcard_card("W")
    ('r-draw_2', 'g-7', 'b-wild_draw_4', 'r-wild')
    """
    if card.startswith("W"):
        return f"{(color or 'R').lower()}-{'wild_draw_4' if card == 'W+4' else 'wild'}"
    rank = card[1:]
    return f"{card[0].lower()}-{NAMES.get(rank, rank)}"


def _best(actions: list[Action]) -> Action:
    """The variant of ``actions`` that calls UNO if there is one, else the first."""
    return next((a for a in actions if a.get("uno")), actions[0])


def choose(view: dict[str, Any], agent: Agent) -> Action:
    """The action the rule agent takes in ``view`` (a unomas view, see the module)."""
    legal: list[Action] = view["legal_actions"]
    calls = [a for a in legal if a["a"] in ("uno", "catch")]
    if calls:
        return calls[0]
    hand: list[str] = view["hand"]
    held = Counter(card[0] for card in hand if not card.startswith("W"))
    if view["phase"] == "color":
        color = max("RYGB", key=lambda c: held[c])
        return next(a for a in legal if a.get("color") == color)
    if view["phase"] == "penalty":
        return next(a for a in legal if a["a"] == "draw")
    plays = [a for a in legal if a["a"] == "play"]
    if view["phase"] == "drawn":
        if not plays:
            return next(a for a in legal if a["a"] == "pass")
        color = max("RYGB", key=lambda c: held[c])
        return _best([a for a in plays if a.get("color") in (None, color)])
    by_name: dict[str, list[Action]] = {}
    for action in plays:
        by_name.setdefault(rlcard_card(action["card"], action.get("color")), []).append(action)
    names = [n for n in by_name if "wild_draw_4" not in n] or list(by_name) or ["draw"]
    state = {"raw_legal_actions": names, "raw_obs": {"hand": [rlcard_card(c) for c in hand]}}
    chosen = agent(state)
    if chosen == "draw":
        return next(a for a in legal if a["a"] == "draw")
    variants = by_name[chosen]
    swaps = [a for a in variants if a.get("target") is not None]
    if swaps:
        sizes: list[int] = view["hand_sizes"]
        smallest = min(sizes[a["target"]] for a in swaps)
        variants = [a for a in swaps if sizes[a["target"]] == smallest]
    return _best(variants)


def main() -> None:
    """Answer the bot protocol on standard input and output until ``bye``."""
    import numpy as np
    from rlcard.models.uno_rule_models import UNORuleAgentV1

    np.random.seed(0)
    agent = UNORuleAgentV1()
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            answer: dict[str, Any] = {"type": "ready", "name": "rlcard-rule", "protocol": "unomas-bot/2"}
        elif kind == "match":
            answer = {"type": "ready"}
        elif kind == "act":
            answer = {"type": "action", "action": choose(message["view"], agent.step)}
        elif kind == "react":
            calls = [a for a in message["view"]["legal_actions"] if a["a"] in ("uno", "catch")]
            answer = {"type": "action", "action": calls[0] if calls else None}
        elif kind == "bye":
            break
        else:
            continue
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
