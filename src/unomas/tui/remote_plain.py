"""``unomas play --join URL``: a person in a terminal at a room of ``unomas serve``.

Line by line, for terminals, screen readers and pipes: what happens is told as it
happens (the server's narration, in the person's language); when the seat may act, the
table is shown and its legal actions are listed by number, as the server sent them; the
person answers with a number, or with the letter of an action as at a local table (``d``
draws, ``p`` passes…; an empty line lets an out-of-turn chance go, ``q`` leaves:
the seat stays theirs, and a bot plays it after the grace period). An answer to a view the
game has left behind is refused as stale, and the new view is shown; when the connection
drops, nothing is asked until it is back and the server has sent the table as it is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from unomas.actions import Action
from unomas.client.decode import view_from_json
from unomas.client.remote import ConnectionLost, Refused, seat_names
from unomas.client.simple import SimpleSeat
from unomas.i18n import Translations, error_text, wording
from unomas.i18n.view_words import listed_actions, table_lines
from unomas.rules import Rules
from unomas.view import View

__all__ = ["play_room"]

WAIT = 1.0
"""Seconds between looks while nothing happens (the match may have ended meanwhile)."""


def _names(seat: SimpleSeat) -> list[str]:
    room = seat.room
    assert room is not None
    return seat_names(room)


def _chosen(view: View, answer: str) -> Action | None:
    """The action an answer names: a listed action by its number, or by its letter as at a
    local table (one the view does not list is sent all the same, for the server to say
    why it is refused), or None."""
    if answer.isdigit():
        return view.legal_actions[int(answer)] if int(answer) < len(view.legal_actions) else None
    kind = wording.ACTION_KEYS.get(answer)
    if kind is None or view.seat is None:
        return None
    listed = next((action for action in view.legal_actions if action.kind is kind), None)
    return listed if listed is not None else Action(view.seat, kind)


def play_room(
    seat: SimpleSeat, t: Translations, read: Callable[[str], str], write: Callable[[str], None]
) -> dict[str, Any] | None:
    """Play ``seat`` until the match is over (its ``over`` message), the input ends or says
    ``q`` (None)."""
    room = seat.room
    assert room is not None
    rules = Rules.from_dict(room["rules"])
    lang = wording.language(t)
    write(wording.rules_line(rules, t))
    told = noticed = 0
    while True:
        changes = seat.changes
        for change in changes[told:]:
            for line in change.narration:
                write(line)
        told = len(changes)
        notices = seat.notices
        for notice in notices[noticed:]:
            write(error_text(notice.code, notice.params, lang))
        noticed = len(notices)
        sent = seat.view
        if seat.over is not None:
            if sent is not None and seat.over["winners"]:
                for line in wording.match_summary(sent["scores"], seat.over["winners"], _names(seat), t):
                    write(line)
            return seat.over
        if sent is None or not sent["legal_actions"]:
            seat.wait_change(WAIT)
            continue
        view = view_from_json(sent, rules)
        names = _names(seat)
        for line in table_lines(view, names, t):
            write(line)
        for entry in listed_actions(view, names, t):
            write(f"  {entry['id']}: {entry['description']}")
        if view.seat == view.current:  # the turn is the person's: no chance to let go
            question = t.gettext("Your action: its number or letter (d, p, x, c, u); q: leave")
        else:
            question = t.gettext(
                "Your action: its number or letter (d, p, x, c, u); Enter: let the chance go; q: leave"
            )
        try:
            answer = read(question + " ").strip().lower()
        except EOFError:
            return None
        if answer == "q":
            return None
        if not answer:
            seat.wait_change(WAIT)
            continue
        action = _chosen(view, answer)
        if action is None:
            write(t.gettext("There is no action {answer}.").format(answer=answer))
            continue
        seen = seat.updates
        try:
            seat.act(action.to_json(), ply=view.ply)
        except Refused as refusal:
            write(error_text(refusal.code, refusal.params, lang, str(refusal)))
        except ConnectionLost:
            write(t.gettext("The connection was lost; reconnecting…"))
            seat.wait_change(since=seen)  # the view the server sends once connected again
