"""The line mode of ``unomas play --plain``: plain text in, plain text out.

For screen readers and pipes: every event is one line as it happens, every question one
prompt listing the choices. It waits for the person at each out-of-turn chance (an empty
line lets it go), so it never needs a clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from unomas.actions import Action, Kind
from unomas.cards import COLOR_LETTERS
from unomas.errors import UnoError
from unomas.events import Event, MatchEnded, RoundEnded
from unomas.i18n import Translations
from unomas.i18n.narration import describe
from unomas.tui import text
from unomas.tui.session import Session, choose_play


def run(session: Session, t: Translations, read: Callable[[str], str], write: Callable[[str], None]) -> None:
    """Play ``session`` to its end, or until the input ends or says ``q`` (saved either way)."""

    def heard(_action: Action | None, events: list[Event]) -> None:
        line = describe(events, session.names, t)
        if line:
            write(line)
        for event in events:
            if isinstance(event, RoundEnded):
                for summary in text.round_summary(event, session.names, t):
                    write("  " + summary)
            if isinstance(event, MatchEnded):
                for summary in text.match_summary(event.scores, event.winner, session.names, t):
                    write(summary)

    for _action, events in session.history:
        heard(None, events)
    session.listen(heard)
    try:
        while not session.game.is_over:
            if session.game.round_over:
                read(t.gettext("Enter: next round") + " ")
                session.next_round()
            elif session.chance_open() or session.delay() is None:
                if not _ask(session, t, read, write):
                    return
            else:  # a bot's turn, or the bots' chances before the person's turn
                time.sleep(session.pace)
                session.step()
    except EOFError:
        return
    except UnoError as error:  # a bot failed: the match stops here, saved
        write(text.error_line(error, t))
    finally:
        session.close()


def state_lines(session: Session, t: Translations) -> list[str]:
    """The table as the person sees it, then their hand numbered."""
    view = session.view()
    lines = [text.status_line(view, t)]
    lines += [text.seat_line(view, seat, session.names, t) for seat in range(len(view.hand_sizes))]
    marked = text.playable(view)
    hand = " ".join(
        f"{n + 1}:{text.card_label(c)}{'*' if c in marked else ''}" for n, c in enumerate(text.hand_cards(view))
    )
    lines.append(t.gettext("Your hand (* playable): {hand}").format(hand=hand or "—"))
    lines.append(text.prompt(view, session.names, t))
    return lines


def _ask(session: Session, t: Translations, read: Callable[[str], str], write: Callable[[str], None]) -> bool:
    """One question to the person; False when they quit."""
    view = session.view()
    for line in state_lines(session, t):
        write(line)
    keys = [f"{key} = {label}" for key, label in text.offers(view, session.names, t)]
    choices = [t.gettext("N = play card N (add r/y/g/b for a wild, @SEAT for a 7, u for UNO)"), *keys]
    if session.chance_open():
        choices.append(t.gettext("Enter = let it go"))
    choices.append(t.gettext("q = quit (saved)"))
    write("; ".join(choices))
    answer = read("> ").strip().lower()
    if answer == "q":
        return False
    if not answer and session.chance_open():
        session.step()
        return True
    try:
        action = parse_answer(answer, session, t)
    except ValueError as error:
        write(str(error))
        return True
    try:
        session.act(action)
    except UnoError as error:
        write(text.error_line(error, t))
    return True


def parse_answer(answer: str, session: Session, t: Translations) -> Action:
    """The action a typed answer names; ValueError says what is wrong with it."""
    view = session.view()
    words = answer.split()
    by_kind = {a.kind: a for a in view.legal_actions}
    simple = {"d": Kind.DRAW, "p": Kind.PASS, "x": Kind.CHALLENGE, "c": Kind.CATCH, "u": Kind.UNO}
    if len(words) == 1 and words[0] in simple and simple[words[0]] in by_kind:
        return by_kind[simple[words[0]]]
    if len(words) == 1 and len(words[0]) == 1 and words[0].upper() in COLOR_LETTERS:
        starting = COLOR_LETTERS.index(words[0].upper())
        for action in view.legal_actions:
            if action.kind is Kind.COLOR and action.color == starting:
                return action
    if words and words[0] == "j":
        jump = next((a for a in view.legal_actions if a.kind is Kind.PLAY), None)
        if jump is not None and jump.card is not None:
            words[0] = str(text.hand_cards(view).index(jump.card) + 1)
    if not words or not words[0].isdigit():
        raise ValueError(t.gettext("Not understood: {answer!r}.").format(answer=answer))
    cards = text.hand_cards(view)
    number = int(words[0])
    if not 1 <= number <= len(cards):
        raise ValueError(t.gettext("There is no card {number}.").format(number=number))
    color: int | None = None
    target: int | None = None
    uno = False
    for word in words[1:]:
        if len(word) == 1 and word.upper() in COLOR_LETTERS:
            color = COLOR_LETTERS.index(word.upper())
        elif word.startswith("@") and word[1:].isdigit():
            target = int(word[1:])
        elif word == "u":
            uno = True
        else:
            raise ValueError(t.gettext("Not understood: {answer!r}.").format(answer=word))
    choice = choose_play(view.legal_actions, cards[number - 1], color=color, target=target, uno=uno)
    if choice == "color":
        raise ValueError(text.color_prompt(t))
    if choice == "target":
        raise ValueError(text.target_prompt(view, session.names, t))
    if not isinstance(choice, Action):
        raise ValueError(t.gettext("That card cannot be played now."))
    return choice
