"""Plain sentences for the engine's events, in the chosen language.

Every event type has its sentence (a test holds this for both languages). Events should
be redacted for the seat that reads them (:func:`unomas.events.redact`): a sentence
names cards only where the event still carries them.

>>> from unomas.cards import parse_card
>>> from unomas.events import Drew, PenaltyPending, Played
>>> names = ["Ana", "Beto"]
>>> describe([Played(1, parse_card("R+2"), None, None, False, False), PenaltyPending(0, 2, False)], names, "es")
'Beto juega Roba dos rojo (R+2): Ana tiene que robar 2.'
>>> narrate([Drew(0, 2, None, "penalty")], names, "es")
['Ana roba 2 y pierde el turno.']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from unomas.cards import Card
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
    Passed,
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
from unomas.i18n import Translations, _in_card_color, _t, card_name
from unomas.rules import Rules


def narrate(
    events: Sequence[Event], names: Sequence[str], lang: str | Translations, rules: Rules | None = None
) -> list[str]:
    """One sentence per event, naming seats by ``names``; under ``rules`` with teams (house
    rule ``teams``) a round and a match are won by a team, named by its members."""
    t = _t(lang)
    if rules is not None and rules.team_count:
        return [_team_sentence(event, names, t, rules) for event in events]
    return [_sentence(event, names, t) for event in events]


def describe(
    events: Sequence[Event], names: Sequence[str], lang: str | Translations, rules: Rules | None = None
) -> str:
    """The events of one action as one line: the first sentence, then what it caused
    (a deal's sentences simply follow each other).

    ``Beto juega Roba dos rojo (R+2): Ana tiene que robar 2.``
    """
    said = narrate(events, names, lang, rules)
    if not said or isinstance(events[0], Dealt):
        return " ".join(said)  # a deal: its sentences as they are
    sentences = [s.rstrip(".") for s in said]
    t = _t(lang)
    line = sentences[0]
    if len(sentences) > 1:
        rest = [_continued(sentence, names) for sentence in sentences[1:]]
        line = t.gettext("{first}: {rest}").format(first=line, rest=t.gettext("; ").join(rest))
    return line if line.endswith(("!", "?")) else line + "."


def _continued(sentence: str, names: Sequence[str]) -> str:
    """A sentence said after a colon: its first letter in lower case, unless it starts
    with a player's name ("…: play goes counter-clockwise now", "…: Ana must draw 2")."""
    if any(sentence.startswith(name) for name in names):
        return sentence
    return sentence[:1].lower() + sentence[1:]


def _cards(cards: Sequence[Card], t: Translations) -> str:
    return ", ".join(card_name(card, t) for card in cards)


def _dealt(e: Dealt, n: Sequence[str], t: Translations) -> str:
    return t.gettext("Round {round}: {dealer} deals.").format(round=e.round + 1, dealer=n[e.dealer])


def _returned(e: StartingCardReturned, n: Sequence[str], t: Translations) -> str:
    return t.gettext("A Wild Draw Four was turned up: it goes back into the pile, which is shuffled.")


def _starting(e: StartingCard, n: Sequence[str], t: Translations) -> str:
    return t.gettext("The starting card is {card}.").format(card=card_name(e.card, t))


def _played(e: Played, n: Sequence[str], t: Translations) -> str:
    card, player = card_name(e.card, t), n[e.player]
    if e.color is not None:  # a wild card: the colour is the player's choice, said as one
        color = _in_card_color(e.color, t)
        if e.jump_in:
            text = t.gettext("{player} jumps in with {card} and chooses {color}.")
        else:
            text = t.gettext("{player} plays {card} and chooses {color}.")
        return text.format(player=player, card=card, color=color)
    if e.jump_in:
        return t.gettext("{player} jumps in with {card}.").format(player=player, card=card)
    return t.gettext("{player} plays {card}.").format(player=player, card=card)


def _drew(e: Drew, n: Sequence[str], t: Translations) -> str:
    player, amount = n[e.player], e.amount
    if amount == 0:  # the draw pile and the discard pile are used up
        return _drew_nothing(e.reason, t).format(player=player)
    if e.reason == "penalty":
        text = t.gettext("{player} draws {n} and loses the turn.")
    elif e.reason == "challenge":
        text = t.gettext("{player} draws {n} for the challenge.")
    elif e.reason == "caught":
        text = t.gettext("{player} draws {n} for not calling UNO.")
    else:
        text = t.ngettext("{player} draws a card.", "{player} draws {n} cards.", amount)
    sentence = text.format(player=player, n=amount)
    if e.cards:
        sentence = t.gettext("{sentence} ({cards})").format(sentence=sentence.rstrip("."), cards=_cards(e.cards, t))
        sentence += "."
    return sentence


def _drew_nothing(reason: str, t: Translations) -> str:
    """The sentence of a draw that took no card: nothing was left to draw (RULES.md)."""
    if reason == "penalty":
        return t.gettext("{player} has nothing left to draw and loses the turn.")
    if reason == "challenge":
        return t.gettext("{player} has nothing left to draw for the challenge.")
    if reason == "caught":
        return t.gettext("{player} has nothing left to draw for not calling UNO.")
    return t.gettext("{player} draws nothing: the draw pile and the discard pile are used up.")


def _passed(e: Passed, n: Sequence[str], t: Translations) -> str:
    return t.gettext("{player} keeps the drawn card and passes.").format(player=n[e.player])


def _run_ended(e: RunEnded, n: Sequence[str], t: Translations) -> str:
    return t.gettext("{player} plays no more of that number and ends the turn.").format(player=n[e.player])


def _eliminated(e: Eliminated, n: Sequence[str], t: Translations) -> str:
    return t.ngettext(
        "{player} holds {n} card and is out of the round.", "{player} holds {n} cards and is out of the round.", e.held
    ).format(player=n[e.player], n=e.held)


def _color(e: ColorChosen, n: Sequence[str], t: Translations) -> str:
    return t.gettext("{player} chooses {color}.").format(player=n[e.player], color=_in_card_color(e.color, t))


def _uno(e: UnoCalled, n: Sequence[str], t: Translations) -> str:
    return t.gettext("{player} calls UNO!").format(player=n[e.player])


def _caught(e: Caught, n: Sequence[str], t: Translations) -> str:
    return t.gettext("{catcher} catches {target} without UNO.").format(catcher=n[e.catcher], target=n[e.target])


def _skipped(e: Skipped, n: Sequence[str], t: Translations) -> str:
    return t.gettext("{player} loses the turn.").format(player=n[e.player])


def _direction(e: DirectionChanged, n: Sequence[str], t: Translations) -> str:
    if e.direction == 1:
        return t.gettext("Play goes clockwise now.")
    return t.gettext("Play goes counter-clockwise now.")


def _penalty(e: PenaltyPending, n: Sequence[str], t: Translations) -> str:
    if e.challengeable:
        return t.gettext("{player} must draw {n} or challenge.").format(player=n[e.player], n=e.amount)
    return t.gettext("{player} must draw {n}.").format(player=n[e.player], n=e.amount)


def _challenged(e: Challenged, n: Sequence[str], t: Translations) -> str:
    who = {"challenger": n[e.challenger], "challenged": n[e.challenged]}
    if e.guilty:
        text = t.gettext("{challenger} challenges {challenged}: the Wild Draw Four was a bluff.").format(**who)
    else:
        text = t.gettext("{challenger} challenges {challenged}: the Wild Draw Four was legal.").format(**who)
    if e.hand is not None:
        shown = t.gettext("{player} shows {cards}.").format(player=n[e.challenged], cards=_cards(e.hand, t) or "—")
        text = f"{text} {shown}"
    return text


def _swapped(e: HandsSwapped, n: Sequence[str], t: Translations) -> str:
    return t.gettext("{player} swaps hands with {target}.").format(player=n[e.player], target=n[e.target])


def _passed_on(e: HandsPassed, n: Sequence[str], t: Translations) -> str:
    if e.direction == 1:
        return t.gettext("Every hand passes on clockwise.")
    return t.gettext("Every hand passes on counter-clockwise.")


def _reshuffled(e: Reshuffled, n: Sequence[str], t: Translations) -> str:
    return t.ngettext(
        "The discard pile is shuffled into a new draw pile of {n} card.",
        "The discard pile is shuffled into a new draw pile of {n} cards.",
        e.size,
    ).format(n=e.size)


def _round_ended(e: RoundEnded, n: Sequence[str], t: Translations) -> str:
    return t.ngettext(
        "{player} wins the round and scores {n} point.", "{player} wins the round and scores {n} points.", e.points
    ).format(player=n[e.winner], n=e.points)


def _match_ended(e: MatchEnded, n: Sequence[str], t: Translations) -> str:
    score = e.scores[e.winner]
    return t.ngettext(
        "{player} wins the match with {n} point.", "{player} wins the match with {n} points.", score
    ).format(player=n[e.winner], n=score)


def team_name(seat: int, names: Sequence[str], rules: Rules) -> str:
    """A team named by its members, ``seat`` first: ``Ana + Carla``."""
    return " + ".join(names[member] for member in (seat, *rules.partners(seat)))


def _team_sentence(e: Event, n: Sequence[str], t: Translations, rules: Rules) -> str:
    """The sentence of an event at a table of teams: a round's or a match's end names the team."""
    if isinstance(e, RoundEnded):
        return t.ngettext(
            "{player} wins the round for {team}, who score {n} point.",
            "{player} wins the round for {team}, who score {n} points.",
            e.points,
        ).format(player=n[e.winner], team=team_name(e.winner, n, rules), n=e.points)
    if isinstance(e, MatchEnded):
        score = e.scores[e.winner]
        return t.ngettext(
            "{team} win the match with {n} point.", "{team} win the match with {n} points.", score
        ).format(team=team_name(e.winner, n, rules), n=score)
    return _sentence(e, n, t)


def _sentence(e: Event, n: Sequence[str], t: Translations) -> str:
    """The sentence of one event; mypy checks that every event type has its branch."""
    if isinstance(e, Dealt):
        return _dealt(e, n, t)
    if isinstance(e, StartingCardReturned):
        return _returned(e, n, t)
    if isinstance(e, StartingCard):
        return _starting(e, n, t)
    if isinstance(e, Played):
        return _played(e, n, t)
    if isinstance(e, Drew):
        return _drew(e, n, t)
    if isinstance(e, Passed):
        return _passed(e, n, t)
    if isinstance(e, RunEnded):
        return _run_ended(e, n, t)
    if isinstance(e, Eliminated):
        return _eliminated(e, n, t)
    if isinstance(e, ColorChosen):
        return _color(e, n, t)
    if isinstance(e, UnoCalled):
        return _uno(e, n, t)
    if isinstance(e, Caught):
        return _caught(e, n, t)
    if isinstance(e, Skipped):
        return _skipped(e, n, t)
    if isinstance(e, DirectionChanged):
        return _direction(e, n, t)
    if isinstance(e, PenaltyPending):
        return _penalty(e, n, t)
    if isinstance(e, Challenged):
        return _challenged(e, n, t)
    if isinstance(e, HandsSwapped):
        return _swapped(e, n, t)
    if isinstance(e, HandsPassed):
        return _passed_on(e, n, t)
    if isinstance(e, Reshuffled):
        return _reshuffled(e, n, t)
    if isinstance(e, RoundEnded):
        return _round_ended(e, n, t)
    if isinstance(e, MatchEnded):
        return _match_ended(e, n, t)
    assert_never(e)
