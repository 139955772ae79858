"""The line mode of ``unomas play --plain``: plain text in, plain text out.

For screen readers and pipes: every event is one line as it happens, every question one
prompt listing the choices; a wild card's colour or a 7's target may come with the card
(``7r``, ``7 @1``) or as the answer to the question that follows (``7``, then ``r``). Its
reaction window lasts until the person answers (an empty line lets a chance go), so it
never needs a clock; ``?`` lists every answer and the rules in force.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import sys
import textwrap
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from unomas.actions import Action, Kind
from unomas.cards import COLOR_LETTERS, Card
from unomas.errors import UnoError
from unomas.events import Event, MatchEnded, RoundEnded
from unomas.game import Phase
from unomas.i18n import Translations, wording
from unomas.i18n.narration import describe
from unomas.tui.session import Session, Setup, choose_play


def fit(line: str, width: int) -> str:
    """``line`` wrapped between words to ``width`` columns (each of its own lines apart),
    so a narrow terminal never breaks a word in two.

    >>> print(fit("Round 1 · Top: Red Draw Two (R+2) · clockwise", 24))
    Round 1 · Top: Red Draw
    Two (R+2) · clockwise
    """
    return "\n".join(
        textwrap.fill(part, width, break_long_words=False, break_on_hyphens=False) or part for part in line.split("\n")
    )


def terminal_writer() -> Callable[[str], None]:
    """Write a line to standard output: fitted to the terminal's width when it is one
    (read again at each line, so a resized window is followed); whole to a pipe."""
    if not sys.stdout.isatty():
        return lambda line: print(line, flush=True)
    return lambda line: print(fit(line, shutil.get_terminal_size().columns), flush=True)


def run(session: Session, t: Translations, read: Callable[[str], str], write: Callable[[str], None]) -> None:
    """Play ``session`` to its end, or until the input ends or says ``q`` (saved either
    way, and said so). ``read`` blocks for a line; the match is driven meanwhile."""

    async def read_line(prompt: str) -> str:
        return await asyncio.to_thread(read, prompt)

    asyncio.run(_run(session, t, read_line, write))


async def _run(
    session: Session, t: Translations, read: Callable[[str], Awaitable[str]], write: Callable[[str], None]
) -> None:
    def heard(_action: Action | None, events: list[Event]) -> None:
        line = describe(events, session.names, t, session.rules)
        if line:
            write(line)
        for event in events:
            if isinstance(event, RoundEnded):
                for summary in wording.round_summary(event, session.names, t, session.rules):
                    write("  " + summary)
            if isinstance(event, MatchEnded):
                winners = session.rules.winners(event.winner)
                for summary in wording.match_summary(event.scores, winners, session.names, t):
                    write(summary)

    write(wording.rules_line(session.rules, t))
    for _action, events in session.history:
        heard(None, events)
    session.listen(heard)
    try:
        while await session.decision():
            if session.view().phase == Phase.ROUND_OVER:
                answer = await read(t.gettext("Enter: next round · q: quit (the match is saved)") + " ")
                if answer.strip().lower() == "q":
                    break
                session.next_round()
            elif not await _ask(session, t, read, write):
                break
    except EOFError:
        pass
    except UnoError as error:  # a bot failed: the match stops here
        write(wording.error_line(error, t))
    finally:
        await session.close()
    if session.path is not None and not session.game.is_over:
        write(wording.saved_line(t))


def state_lines(session: Session, t: Translations) -> list[str]:
    """The table as the person sees it, then their hand numbered."""
    view = session.view()
    lines = [wording.status_line(view, t)]
    lines += [wording.seat_line(view, seat, session.names, t) for seat in range(len(view.hand_sizes))]
    marked = wording.playable(view)
    cards = wording.hand_cards(view, sort=session.sort_hand)
    new = wording.new_marks(cards, session.new_cards())
    fresh = t.gettext("(new)")
    hand = " ".join(
        f"{n + 1}:{'*' if c in marked else ''}{wording.card_label(c)}{fresh if new[n] else ''}"
        for n, c in enumerate(cards)
    )
    lines.append(t.gettext("Your hand (*: playable; (new): since your last turn): {hand}").format(hand=hand or "—"))
    lines.append(wording.prompt(view, session.names, t))
    return lines


def help_lines(session: Session, t: Translations) -> list[str]:
    """The answers the line mode takes, and the rules in force."""
    lines = [t.gettext("Keys")]
    lines += [f"  {key} = {label}" for key, label in wording.key_help(t, plain=True)]
    return [*lines, t.gettext("Rules"), *(f"  {line}" for line in wording.rules_lines(session.rules, t))]


async def _ask(
    session: Session, t: Translations, read: Callable[[str], Awaitable[str]], write: Callable[[str], None]
) -> bool:
    """One question to the person (and the follow-up a wild card or a 7 needs); False when they quit."""
    view = session.view()
    for line in state_lines(session, t):
        write(line)
    keys = [f"{key} = {label}" for key, label in wording.offers(view, session.names, t)]
    choices = [t.gettext("N = play card N (add r/y/g/b for a wild, @SEAT for a 7, u for UNO)"), *keys]
    if session.chance_open():
        choices.append(t.gettext("Enter = let it go"))
    choices += [t.gettext("? = help"), t.gettext("q = quit (saved)")]
    write("; ".join(choices))
    answer = (await read("> ")).strip().lower()
    if answer == "q":
        return False
    if answer == "?":
        for line in help_lines(session, t):
            write(line)
        return True
    if answer == "s":
        session.sort_hand = not session.sort_hand
        Setup.remember_sorting(session.sort_hand)
        return True
    if not answer:  # lets a chance go; on the turn, the question comes again
        if session.chance_open():
            session.let_go()
        return True
    try:
        choice = parse_answer(answer, session, t)
        while isinstance(choice, Pending):
            follow_up = (await read(choice.question + " ")).strip().lower()
            if not follow_up:
                return True  # back to the question
            choice = choice.answered(follow_up, session, t)
    except ValueError as error:
        write(str(error))
        return True
    try:
        await session.submit(choice)
    except UnoError as error:
        write(wording.error_line(error, t))
    return True


ANSWER = re.compile(r"@\d+|\d+|[a-z]")
"""The pieces of an answer: a card or seat number, ``@SEAT``, a letter (``7r``, ``7 @1``)."""


def _pieces(answer: str, t: Translations) -> list[str]:
    pieces = ANSWER.findall(answer)
    if "".join(pieces) != "".join(answer.split()):
        raise ValueError(t.gettext("Not understood: {answer!r}.").format(answer=answer))
    return pieces


@dataclass(frozen=True, slots=True)
class Pending:
    """A play that still needs its colour (a wild card) or its target (a 7 under the 7-0
    rule): the line mode asks ``question`` and completes it with the answer."""

    card: Card
    color: int | None
    target: int | None
    uno: bool
    question: str

    def answered(self, answer: str, session: Session, t: Translations) -> Action | Pending:
        """The play with the follow-up answer (a colour letter, a seat, ``u``) added."""
        color, target, uno = self.color, self.target, self.uno
        if answer == "-":  # same_number_together: the 7 naming nobody, going on to another 7
            return _play(session, t, self.card, color, None, uno, onward=True)
        for piece in _pieces(answer, t):
            if len(piece) == 1 and piece.upper() in COLOR_LETTERS:
                color = COLOR_LETTERS.index(piece.upper())
            elif piece.lstrip("@").isdigit():
                target = int(piece.lstrip("@"))
            elif piece == "u":
                uno = True
            else:
                raise ValueError(t.gettext("Not understood: {answer!r}.").format(answer=piece))
        return _play(session, t, self.card, color, target, uno)


def parse_answer(answer: str, session: Session, t: Translations) -> Action | Pending:
    """The action a typed answer names, or the play still to complete; ValueError says
    what is wrong with it."""
    view = session.view()
    words = answer.split()
    by_kind = {a.kind: a for a in view.legal_actions}
    if len(words) == 1 and words[0] in wording.ACTION_KEYS:
        kind = wording.ACTION_KEYS[words[0]]
        if kind in by_kind:
            return by_kind[kind]
        return Action(session.person, kind)  # not offered: the session's engine says why
    if len(words) == 1 and len(words[0]) == 1 and words[0].upper() in COLOR_LETTERS:
        starting = COLOR_LETTERS.index(words[0].upper())
        for action in view.legal_actions:
            if action.kind is Kind.COLOR and action.color == starting:
                return action
    pieces = _pieces(answer, t) if answer else []
    cards = wording.hand_cards(view, sort=session.sort_hand)
    if pieces and pieces[0] == "j":
        jump = next((a for a in view.legal_actions if a.kind is Kind.PLAY), None)
        if jump is not None and jump.card is not None:
            pieces[0] = str(cards.index(jump.card) + 1)
    if not pieces or not pieces[0].isdigit():
        raise ValueError(t.gettext("Not understood: {answer!r}.").format(answer=answer))
    number = int(pieces[0])
    if not 1 <= number <= len(cards):
        raise ValueError(t.gettext("There is no card {number}.").format(number=number))
    color: int | None = None
    target: int | None = None
    uno = False
    for piece in pieces[1:]:
        if len(piece) == 1 and piece.upper() in COLOR_LETTERS:
            color = COLOR_LETTERS.index(piece.upper())
        elif piece.startswith("@"):
            target = int(piece[1:])
        elif piece == "u":
            uno = True
        else:
            raise ValueError(t.gettext("Not understood: {answer!r}.").format(answer=piece))
    return _play(session, t, cards[number - 1], color, target, uno)


def _play(
    session: Session,
    t: Translations,
    card: Card,
    color: int | None,
    target: int | None,
    uno: bool,
    *,
    onward: bool = False,
) -> Action | Pending:
    """The legal play of ``card`` with these choices, or what is still to ask (a play
    that is not legal as it is, for the engine to refuse with its reason)."""
    view = session.view()
    choice = choose_play(view.legal_actions, card, color=color, target=target, uno=uno, onward=onward)
    if choice == "color":
        return Pending(card, color, target, uno, wording.color_prompt(t, view.hand))
    if choice == "target":
        return Pending(card, color, target, uno, wording.target_prompt(view, session.names, t, "-"))
    if isinstance(choice, Action):
        return choice
    # Not among the legal actions: the session's engine refuses it and says why.
    return Action.play(session.person, card, color=color, target=target, uno=uno)
