"""A seat's view and its legal actions in words: for an AI agent (``unomas mcp``) and a
person in a terminal (``unomas play --join``).

The actions are the engine's (``view.legal_actions``): each is given an id (its index in
that list, valid for that view's ply) and a description; nothing here decides what is
legal. The words are the terminal game's (:mod:`unomas.i18n.wording`) and the catalogs'.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from unomas.actions import Action, Kind
from unomas.cards import RANK_OF, WILD
from unomas.i18n import Translations, card_name, color_name, wording
from unomas.position import Phase
from unomas.view import View

__all__ = ["describe", "listed_actions", "table_lines", "view_words"]


def describe(action: Action, view: View, names: Sequence[str], t: Translations) -> str:
    """What taking ``action`` does, in a sentence."""
    kind = action.kind
    if kind is Kind.PLAY:
        assert action.card is not None
        card = card_name(action.card, t)
        if action.color is not None:
            words = t.gettext("Play {card}, choosing {color}").format(card=card, color=color_name(action.color, t))
        else:
            words = t.gettext("Play {card}").format(card=card)
        if action.target is not None:
            words += t.gettext(", swapping hands with {player}").format(player=names[action.target])
        elif RANK_OF[action.card] == 7 and action.card < WILD and view.rules.swaps_on_seven:  # same_number_together
            words += t.gettext(", naming nobody yet: another 7 follows")
        if view.current != view.seat:
            words += t.gettext(" (jumping in)")
        if action.uno:
            words += t.gettext(", calling UNO")
        return words + "."
    if kind is Kind.DRAW:
        if view.penalty:
            return t.gettext("Draw the {n} cards of the penalty.").format(n=view.penalty)
        return t.gettext("Draw a card.")
    if kind is Kind.PASS:
        if view.phase is Phase.RUN:  # same_number_together
            return t.gettext("Play no more {number}s and end your turn.").format(number=RANK_OF[view.top])
        assert view.drawn is not None
        return t.gettext("Keep {card}, the card you drew, and end your turn.").format(card=card_name(view.drawn, t))
    if kind is Kind.COLOR:
        assert action.color is not None
        return t.gettext("Choose {color} as the colour of the starting Wild.").format(color=color_name(action.color, t))
    if kind is Kind.CHALLENGE:
        accused = names[view.accused] if view.accused is not None else "?"
        return t.gettext("Challenge {player}'s Wild Draw Four.").format(player=accused)
    if kind is Kind.UNO:
        return t.gettext("Call UNO.")
    assert action.target is not None
    return t.gettext("Catch {player}, who did not call UNO (they draw 2).").format(player=names[action.target])


def listed_actions(view: View, names: Sequence[str], t: Translations) -> list[dict[str, Any]]:
    """The view's legal actions, each as ``{id, action, description}`` (``action`` the
    record move, ``id`` its index in the view's list)."""
    return [
        {"id": number, "action": action.to_json(), "description": describe(action, view, names, t)}
        for number, action in enumerate(view.legal_actions)
    ]


def table_lines(view: View, names: Sequence[str], t: Translations) -> list[str]:
    """The table as the seat sees it, its hand and what the game waits for."""
    lines = [wording.status_line(view, t), wording.rules_line(view.rules, t)]
    lines += [wording.seat_line(view, seat, names, t) for seat in range(len(view.hand_sizes))]
    if view.seat is not None:
        hand = ", ".join(card_name(card, t) for card in wording.hand_cards(view))
        lines.append(t.gettext("Your hand: {cards}").format(cards=hand or "—"))
    if view.shown_hand is not None:
        shown_seat, shown = view.shown_hand
        cards = ", ".join(card_name(card, t) for card in shown)
        lines.append(t.gettext("{player} showed you: {cards}").format(player=names[shown_seat], cards=cards))
    lines.append(wording.prompt(view, names, t))
    return lines


def view_words(view: View, names: Sequence[str], t: Translations) -> str:
    """:func:`table_lines` and the actions by id, for an agent."""
    lines = table_lines(view, names, t)
    listed = listed_actions(view, names, t)
    if listed:
        lines.append(t.gettext("Your actions at ply {ply} (act with its id and this ply):").format(ply=view.ply))
        lines += [f"  {entry['id']}: {entry['description']}" for entry in listed]
    return "\n".join(lines)
