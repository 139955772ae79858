"""A stacked match, a predictable bot and the keys a person presses, for the terminal game's tests."""

from __future__ import annotations

import contextlib

from unomas.actions import Action, Kind
from unomas.bots.base import Bot
from unomas.cards import COLOR_OF, DECK, WILD, card_token, parse_card
from unomas.errors import StaleAction
from unomas.game import Deal, Game, Phase
from unomas.i18n import wording
from unomas.rules import Rules
from unomas.tui.app import UnomasApp
from unomas.tui.session import Session
from unomas.tui.table import Table
from unomas.view import View

PERSON_HAND = ["G7", "W", "B5"]
BOT_HAND = ["G2", "G3", "W+4"]
PILE_TOP = ["G9", "Y1", "R2", "R3", "R4", "R5", "R6"]
"""Beto plays G2, Ana G7, Beto G3 forgetting UNO; Ana catches him (he draws Y1 R2), plays
the Wild calling UNO and chooses yellow; Beto bluffs a W+4 (he holds Y1) choosing blue;
Ana challenges (he draws R3-R6) and wins with B5, scoring 21."""


class Scripted(Bot):
    """Plays the first playable card in hand order (the last colour for a wild), never
    calls UNO, never catches; draws or keeps the card otherwise."""

    name = "scripted"

    def act(self, view: View) -> Action:
        plays = [a for a in view.legal_actions if a.kind is Kind.PLAY and not a.uno]
        for card in view.hand:
            matching = [a for a in plays if a.card == card]
            if matching:
                return matching[-1]
        return next(a for a in view.legal_actions if a.kind in (Kind.DRAW, Kind.PASS, Kind.COLOR))


def stacked_game(**settings: object) -> Game:
    """The match of the scenario above: two players, three cards each, a single round."""
    rules = Rules(**({"players": 2, "hand_size": 3, "target_score": 0} | settings))  # type: ignore[arg-type]
    return Game(rules, deal=Deal.from_tokens([PERSON_HAND, BOT_HAND], PILE_TOP), seed=0)


class Crashing(Bot):
    """A bot that fails whenever it is asked to act."""

    name = "crashing"

    def act(self, view: View) -> Action:
        raise RuntimeError("out of order")


def exhausting_game() -> Game:
    """A single round that runs out of cards to draw: two hands of 49, the starting card R5
    and nine cards left to draw. Beto (on turn first) holds only yellow, green and blue
    cards other than 5s, and so do the nine: every draw takes one card nobody can play,
    until, after Beto's fifth draw and Ana's fourth, nothing is left to draw. Ana holds
    every other red card, every other 5 and the wilds."""
    top = parse_card("R5")
    rest = list(DECK)
    rest.remove(top)
    plain = [card for card in rest if COLOR_OF[card] != 0 and card < WILD and card_token(card)[1:] != "5"]
    beto, pile = plain[:49], plain[49:58]
    for card in beto + pile:
        rest.remove(card)
    rules = Rules(players=2, hand_size=49, target_score=0)
    return Game(rules, deal=Deal((tuple(rest), tuple(beto)), (top, *pile)), seed=0)


def screen_text(app: UnomasApp) -> str:
    """The screen as text, line by line, as a person reads it."""
    return "\n".join(strip.text.rstrip() for strip in app.screen._compositor.render_strips())


def next_keys(session: Table) -> list[str]:
    """The keys a person presses next: catch, challenge, else the first playable card
    (by its digit, or by the arrows past the tenth; UNO first when it leaves one card,
    yellow for a wild), else draw or keep."""
    view = session.view()
    kinds = {a.kind for a in view.legal_actions}
    if view.phase >= Phase.ROUND_OVER:
        return ["enter"]
    if Kind.CATCH in kinds:
        return ["c"]
    if Kind.CHALLENGE in kinds:
        return ["x"]
    if session.chance_open():
        return ["space"]
    marked = wording.playable(view)
    for index, card in enumerate(wording.hand_cards(view)):
        if card in marked:
            keys = [str((index + 1) % 10), "enter"] if index < 10 else ["home", *["right"] * index, "enter"]
            if any(a.uno and a.card == card for a in view.legal_actions):
                keys.insert(0, "u")
            if card >= 52:
                keys.append("y")
            return keys
    return ["d"] if Kind.DRAW in kinds else ["p"]


async def play_out(session: Session) -> None:
    """The person plays the last of their actions (a play if there is one), lets every
    chance go and deals every round, to the match's end (a bot that caught them first
    makes them look again)."""
    while await session.decision():
        if session.view().phase == Phase.ROUND_OVER:
            session.next_round()
        elif session.chance_open():
            session.let_go()
        else:
            with contextlib.suppress(StaleAction):
                await session.submit(session.actions()[-1])
