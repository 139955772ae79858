"""A bot for unomas in plain Python: a uniformly random legal action (docs/bot-protocol.md).

Run it in a match with ``unomas tournament --bots 'cmd:python examples/random_bot.py',heuristic``.
It reads one JSON message per line on stdin and answers ``hello``, ``match``, ``act`` and
``react`` on stdout. It speaks protocol 3, so one process plays every match it is seated
in and each question is small; ``--protocol 1`` or ``--protocol 2`` makes it speak that
version instead (version 1: a process per match).
"""

import json
import random
import sys


def merge(view: dict, changes: dict) -> None:
    """Protocol 3: bring the view up to date with a question's changes."""
    for key, value in changes.items():
        if key[0] == "+":  # a list that grew: its new items
            view[key[1:]].extend(value)
        else:
            view[key] = value


def main() -> None:
    version = sys.argv[2] if sys.argv[1:2] == ["--protocol"] else "3"
    rng = random.Random()
    view: dict = {}  # protocol 3: the view, kept up to date (this bot only needs the actions)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            # Protocol 3: this bot needs no events (the actions are in every question).
            answer = {"type": "ready", "name": "random_bot.py", "protocol": f"unomas-bot/{version}", "events": False}
        elif kind == "match":  # protocols 2 and 3: the next match, in the same process
            answer = {"type": "ready"}
            view = {}
        elif kind in ("act", "react") and version == "3":
            merge(view, message["view"])
            actions = message["actions"]  # texts: "0 draw", "0 play W+4 G uno", "0 catch @1"
            if kind == "act":
                choice = rng.randrange(len(actions))
            else:  # out of turn: call UNO when obliged to, otherwise let the chance go by
                choice = next((n for n, text in enumerate(actions) if text.split()[1] == "uno"), None)
            answer = {"type": "action", "action": choice}
        elif kind == "act":
            answer = {"type": "action", "action": rng.choice(message["view"]["legal_actions"])}
        elif kind == "react":
            calls = [a for a in message["view"]["legal_actions"] if a["a"] == "uno"]
            answer = {"type": "action", "action": calls[0] if calls else None}
        elif kind == "bye":
            break
        else:  # "events", and anything a later version adds: no answer
            continue
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
