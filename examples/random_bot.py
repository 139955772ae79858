"""A bot for unomas in plain Python: a uniformly random legal action (docs/bot-protocol.md).

Run it in a match with ``unomas tournament --bots 'cmd:python examples/random_bot.py',heuristic``.
It reads one JSON message per line on stdin and answers ``hello``, ``match``, ``act`` and
``react`` on stdout. It speaks protocol 2, so one process plays every match it is seated
in; ``--protocol 1`` makes it speak version 1 (a process per match).
"""

import json
import random
import sys


def main() -> None:
    protocol = "unomas-bot/1" if sys.argv[1:] == ["--protocol", "1"] else "unomas-bot/2"
    rng = random.Random()
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            answer = {"type": "ready", "name": "random_bot.py", "protocol": protocol}
        elif kind == "match":  # protocol 2: the next match, in the same process
            answer = {"type": "ready"}
        elif kind == "act":
            answer = {"type": "action", "action": rng.choice(message["view"]["legal_actions"])}
        elif kind == "react":
            # Out of turn: always call UNO when obliged to, otherwise let the chance go by.
            calls = [a for a in message["view"]["legal_actions"] if a["a"] == "uno"]
            answer = {"type": "action", "action": calls[0] if calls else None}
        elif kind == "bye":
            break
        else:  # "events", and anything a later version adds: no answer
            continue
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
