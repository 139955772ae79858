"""What the terminal game writes, in the chosen language, for both the app and the line mode.

Colour is never the only carrier: every card shows its token (``R7``, ``W+4``), every
colour its letter.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from unomas.actions import Kind
from unomas.cards import COLOR_LETTERS, COLOR_OF, POINTS, RANK_OF, Card, card_token
from unomas.errors import UnoError
from unomas.events import RoundEnded
from unomas.game import Phase
from unomas.i18n import Translations, card_name, color_name, error_text
from unomas.i18n.narration import team_name
from unomas.i18n.switches import switch_groups
from unomas.rules import HOUSE_NUMBERS, PRESETS, SWITCHES, Rules
from unomas.view import View


def direction_text(direction: int, t: Translations) -> str:
    return t.gettext("clockwise ↻") if direction == 1 else t.gettext("counter-clockwise ↺")


def status_line(view: View, t: Translations) -> str:
    """Round, top card, colour in play, direction and draw pile."""
    color = "—" if view.color is None else color_name(view.color, t)
    return t.gettext("Round {round} · Top: {card} · Colour: {color} · {direction} · Pile: {pile}").format(
        round=view.round + 1,
        card=card_name(view.top, t),
        color=color,
        direction=direction_text(view.direction, t),
        pile=view.pile_size,
    )


ACTION_KEYS: dict[str, Kind] = {"d": Kind.DRAW, "p": Kind.PASS, "x": Kind.CHALLENGE, "c": Kind.CATCH, "u": Kind.UNO}
"""The letter that takes each action other than a play, in the line modes (local and at a
room) as on the game screen."""


def packed(parts: Sequence[str], width: int, separator: str) -> list[str]:
    """``parts`` joined by ``separator`` into lines of at most ``width`` columns, a line
    breaking only between parts (a part wider than the line has a line of its own); a
    width of 0 or less (not known yet) puts them all on one line.

    >>> packed(["Round 1", "Top: Wild Draw Four (W+4)", "Pile: 80"], 36, " · ")
    ['Round 1 · Top: Wild Draw Four (W+4)', 'Pile: 80']
    """
    lines: list[str] = []
    for part in parts:
        if lines and (width <= 0 or len(lines[-1]) + len(separator) + len(part) <= width):
            lines[-1] += separator + part
        else:
            lines.append(part)
    return lines


def seat_line(view: View, seat: int, names: Sequence[str], t: Translations, *, person: bool = True) -> str:
    """One player: name, cards, score, and marks for the turn and a missed UNO; the seat
    of the view is "(you)" when a person sits there (``person``; not in a bots' record); a
    partner (house rule ``teams``) is marked, with its cards when the view shows them
    (``team_view``)."""
    text = t.ngettext("{name}: {n} card, {score} pts", "{name}: {n} cards, {score} pts", view.hand_sizes[seat])
    line = text.format(name=names[seat], n=view.hand_sizes[seat], score=view.scores[seat])
    if seat == view.seat and person:
        line = t.gettext("{line} (you)").format(line=line)
    if seat in view.partners:
        line = t.gettext("{line} (partner)").format(line=line)
        for other, cards in view.partner_hands:
            if other == seat:
                line += " [" + " ".join(card_token(c) for c in cards) + "]"
    if seat == view.current and view.phase < Phase.ROUND_OVER:
        line = "▶ " + line
    if view.uno_pending == seat:
        line += " " + t.gettext("[no UNO!]")
    return line


def nothing_to_draw(view: View) -> bool:
    """Whether a draw would take no card: the draw pile is empty and the discard pile holds
    only its top card (RULES.md: a draw then takes what is left, nothing, and counts as done)."""
    return view.pile_size == 0 and len(view.discard) <= 1


def prompt(view: View, names: Sequence[str], t: Translations, *, person: bool = True) -> str:
    """What the game waits for, said to the person at ``view.seat`` (``person``: one sits
    there; in a bots' record watched, every turn is a player's turn); on their turn, that
    a draw takes nothing when nothing is left to draw."""
    line = _waiting_for(view, names, t, person=person)
    if person and view.current == view.seat and view.phase in (Phase.TURN, Phase.PENALTY) and nothing_to_draw(view):
        line += " " + t.gettext("Nothing is left to draw: a draw takes no card and ends your turn.")
    return line


def _waiting_for(view: View, names: Sequence[str], t: Translations, *, person: bool) -> str:
    if view.phase == Phase.MATCH_OVER:
        return t.gettext("The match is over.")
    if view.phase == Phase.ROUND_OVER:
        return t.gettext("The round is over.")
    if view.current != view.seat or not person:
        return t.gettext("{player}'s turn.").format(player=names[view.current])
    if view.phase == Phase.COLOR:
        return t.gettext("Choose the starting colour.")
    if view.phase == Phase.DRAWN:
        assert view.drawn is not None
        if not any(a.kind is Kind.PASS for a in view.legal_actions):  # force_play_drawn
            words = t.gettext("You drew {card}: play it (these rules do not let you keep it).")
            return words.format(card=card_name(view.drawn, t))
        return t.gettext("You drew {card}: play it or keep it.").format(card=card_name(view.drawn, t))
    if view.phase == Phase.RUN:  # same_number_together
        number = RANK_OF[view.top]
        if any(a.kind is Kind.PASS for a in view.legal_actions):
            return t.gettext("Another {number}? Play one of any colour, or pass to end your turn.").format(
                number=number
            )
        return t.gettext("Play your next 7: name someone to swap hands with, or go on to another 7.")
    if view.phase == Phase.PENALTY:
        kinds = {a.kind for a in view.legal_actions}
        if Kind.PLAY in kinds:
            return t.gettext("You must draw {n}: draw, or answer with a card.").format(n=view.penalty)
        if Kind.CHALLENGE in kinds:
            return t.gettext("You must draw {n}: draw, or challenge.").format(n=view.penalty)
        return t.gettext("You must draw {n}.").format(n=view.penalty)
    return t.gettext("Your turn: play a card or draw.")


def hand_cards(view: View, *, sort: bool = True) -> list[Card]:
    """The person's hand in display order: by colour, then rank, wilds last (``sort``), or
    in the order the cards came."""
    return sorted(view.hand) if sort else list(view.hand)


def new_marks(cards: Sequence[Card], new: Counter[Card]) -> list[bool]:
    """For each card of the hand as shown, whether it is one of the ``new`` cards (the
    last copies of a card count as the new ones)."""
    left = Counter(new)
    marks = [False] * len(cards)
    for index in range(len(cards) - 1, -1, -1):
        if left[cards[index]] > 0:
            left[cards[index]] -= 1
            marks[index] = True
    return marks


def playable(view: View) -> set[Card]:
    """The cards of the hand that some legal play uses now."""
    return {a.card for a in view.legal_actions if a.kind is Kind.PLAY and a.card is not None}


def card_label(card: Card) -> str:
    """A card in the hand: its token, which names its colour by letter."""
    return card_token(card)


def offers(view: View, names: Sequence[str], t: Translations) -> list[tuple[str, str]]:
    """The keys open to the person now beside playing a card: (key, label)."""
    keys: list[tuple[str, str]] = []
    kinds = {a.kind: a for a in view.legal_actions}
    if Kind.COLOR in kinds:
        keys.append(("r/y/g/b", t.gettext("colour")))
    if Kind.DRAW in kinds:
        if nothing_to_draw(view):
            label = t.gettext("draw (nothing left)")
        elif view.penalty:
            label = t.gettext("draw {n}").format(n=view.penalty)
        else:
            label = t.gettext("draw")
        keys.append(("d", label))
    if Kind.PASS in kinds:
        keys.append(("p", t.gettext("end the turn") if view.phase == Phase.RUN else t.gettext("keep the card")))
    if Kind.CHALLENGE in kinds:
        keys.append(("x", t.gettext("challenge")))
    if Kind.UNO in kinds or any(a.uno for a in view.legal_actions):
        keys.append(("u", t.gettext("UNO!")))
    catch = kinds.get(Kind.CATCH)
    if catch is not None and catch.target is not None:
        keys.append(("c", t.gettext("catch {player}").format(player=names[catch.target])))
    if view.current != view.seat and any(a.kind is Kind.PLAY for a in view.legal_actions):
        keys.append(("j", t.gettext("jump in")))
    return keys


def color_prompt(t: Translations, hand: Sequence[Card] = ()) -> str:
    """The colour picker, with how many cards of each colour ``hand`` holds."""
    held = Counter(COLOR_OF[card] for card in hand)
    names = (t.gettext("Red"), t.gettext("Yellow"), t.gettext("Green"), t.gettext("Blue"))
    return t.gettext("Choose a colour: {choices}").format(
        choices=", ".join(f"{letter.lower()} = {names[c]} ({held[c]})" for c, letter in enumerate(COLOR_LETTERS))
    )


def target_prompt(view: View, names: Sequence[str], t: Translations, onward_key: str = "⏎") -> str:
    """The swap picker; under ``same_number_together``, with the key (``onward_key``) of the
    7 that names nobody and goes on to another 7, when one is open."""
    choices = ", ".join(f"{seat} = {names[seat]}" for seat in range(len(names)) if seat != view.seat)
    line = t.gettext("Swap hands with: {choices}").format(choices=choices)
    if any(a.kind is Kind.PLAY and a.target is None for a in view.legal_actions if a.card is not None):
        line += " · " + t.gettext("{key} = nobody yet: another 7 follows").format(key=onward_key)
    return line


def round_summary(ended: RoundEnded, names: Sequence[str], t: Translations, rules: Rules | None = None) -> list[str]:
    """Each hand left and its points, the winner's gain and the totals; under ``rules`` with
    teams (house rule ``teams``) the gain is the winner's team's."""
    winner = names[ended.winner]
    if rules is not None and rules.team_count:
        team = team_name(ended.winner, names, rules)
        first = t.gettext("{player} wins the round for {team}: +{points} points.")
        lines = [first.format(player=winner, team=team, points=ended.points)]
    else:
        lines = [t.gettext("{player} wins the round: +{points} points.").format(player=winner, points=ended.points)]
    for seat, hand in enumerate(ended.hands):
        cards = " ".join(card_token(c) for c in sorted(hand)) or "—"
        lines.append(
            t.gettext("{player}: {points} pts in hand ({cards}); total {total}").format(
                player=names[seat], points=sum(POINTS[c] for c in hand), cards=cards, total=ended.scores[seat]
            )
        )
    return lines


def match_summary(scores: Sequence[int], winners: Sequence[int], names: Sequence[str], t: Translations) -> list[str]:
    """Who won (a team: its members) and the final scores, best first."""
    if len(winners) > 1:
        lines = [t.gettext("{names} win the match!").format(names=" + ".join(names[seat] for seat in winners))]
    else:
        lines = [t.gettext("{player} wins the match!").format(player=names[winners[0]])]
    for seat in sorted(range(len(scores)), key=lambda s: -scores[s]):
        lines.append(t.gettext("{player}: {score} points").format(player=names[seat], score=scores[seat]))
    return lines


def teams_label(teams: str, t: Translations) -> str:
    """A value of the house rule ``teams`` (:data:`unomas.rules.TEAMS`) in words."""
    labels = {
        "none": t.gettext("No teams"),
        "2v2": t.gettext("Teams: 2 against 2"),
        "3v3": t.gettext("Teams: 3 against 3"),
        "pairs": t.gettext("Teams: pairs"),
    }
    return labels[teams]


def preset_label(preset: str, t: Translations) -> str:
    """A preset of :data:`unomas.rules.PRESETS` as a setup screen's button names it."""
    labels = {
        "official": t.gettext("Official rules"),
        "all": t.gettext("All house rules"),
        "familia": t.gettext("Family rules"),
        "caos": t.gettext("Chaos rules"),
    }
    return labels.get(preset, preset)


def error_line(error: UnoError, t: Translations) -> str:
    """An error as the terminal shows it, in one line in the reader's language: its code's
    words with its params (:func:`unomas.i18n.error_text`)."""
    return error_text(error.code, error.params, language(t), error.message)


def language(t: Translations) -> str:
    """The language of ``t`` (``en`` when it does not say)."""
    return str(t.info().get("language", "en"))


def rules_line(rules: Rules, t: Translations) -> str:
    """The rules in force in one line: the preset they are (or the official rules and the
    switches that differ), the target, and the hand size when it is not the usual one."""
    switches = {name: getattr(rules, name) for name in SWITCHES}
    house = (*SWITCHES, *HOUSE_NUMBERS)
    preset = next((p for p in PRESETS if all(getattr(rules, n) == getattr(Rules.preset(p), n) for n in house)), None)
    if preset is not None:
        parts = [preset_label(preset, t)]
    else:
        official = Rules.preset("official")
        titles = [switch for group in switch_groups(t) for switch in group.switches]
        added = [s.title for s in titles if switches[s.name] and not getattr(official, s.name)]
        removed = [s.title for s in titles if not switches[s.name] and getattr(official, s.name)]
        line = preset_label("official", t)
        if added:
            line += " + " + ", ".join(added)
        if removed:
            line += ", " + t.gettext("without {rules}").format(rules=", ".join(removed))
        parts = [line]
    if rules.teams != "none":
        parts.append(teams_label(rules.teams, t))
    if rules.target_score:
        parts.append(t.gettext("to {n} points").format(n=rules.target_score))
    else:
        parts.append(t.gettext("a single round"))
    if preset is None and rules.uno_penalty != Rules.preset("official").uno_penalty:
        parts.append(t.gettext("{n} cards for a missed UNO").format(n=rules.uno_penalty))
    if preset is None and rules.hand_limit:
        parts.append(t.gettext("at most {n} cards in hand").format(n=rules.hand_limit))
    if preset is None and rules.elimination:
        parts.append(t.gettext("out at {n} cards").format(n=rules.elimination))
    if rules.hand_size != Rules.preset("official").hand_size:
        parts.append(t.ngettext("{n} card each", "{n} cards each", rules.hand_size).format(n=rules.hand_size))
    return " · ".join(parts)


def rules_short(rules: Rules, t: Translations) -> str:
    """:func:`rules_line` for a crowded screen: how many settings differ from the official
    rules instead of their names (the help, ``?``, lists them)."""
    official = Rules.preset("official")
    changed = sum(getattr(rules, name) != getattr(official, name) for name in (*SWITCHES, *HOUSE_NUMBERS))
    if not changed:
        return rules_line(rules, t)
    words = t.ngettext("{rules} + {n} change (? shows it)", "{rules} + {n} changes (? shows them)", changed)
    target = rules_line(rules.replace(**{name: getattr(official, name) for name in (*SWITCHES, *HOUSE_NUMBERS)}), t)
    return " · ".join([words.format(rules=preset_label("official", t), n=changed), *target.split(" · ")[1:]])


def rules_lines(rules: Rules, t: Translations) -> list[str]:
    """Every house rule, on or off, with its explanation (for the help)."""
    return [rules_line(rules, t), *(f"{mark} {words}" for mark, words in switch_marks(rules, t))]


def switch_marks(rules: Rules, t: Translations) -> list[tuple[str, str]]:
    """Each house rule as (``[x]`` on or ``[ ]`` off, its title and explanation)."""
    return [
        ("[x]" if getattr(rules, switch.name) else "[ ]", f"{switch.title}: {switch.explanation}")
        for group in switch_groups(t)
        for switch in group.switches
    ]


def key_help(t: Translations, *, plain: bool) -> list[tuple[str, str]]:
    """Every key (or answer, in the line mode) of the game and what it does."""
    if plain:
        keys = [
            ("N", t.gettext("play card N of your hand")),
            ("N r, Nr", t.gettext("a wild card with its colour (r, y, g or b)")),
            ("N @S, N@S", t.gettext("a 7 under the 7-0 rule, swapping hands with seat S")),
            ("N u", t.gettext("the play with its UNO call")),
        ]
    else:
        keys = [
            ("← →", t.gettext("choose a card (Home, End: the first, the last)")),
            ("1…9 0", t.gettext("choose card 1 to 10")),
            ("⏎", t.gettext("play the chosen card (or click it)")),
            ("*  •", t.gettext("a playable card; a card got since your last turn")),
        ]
    keys += [
        ("d", t.gettext("draw")),
        ("p", t.gettext("keep the drawn card")),
        ("r y g b", t.gettext("choose a colour")),
        ("x", t.gettext("challenge a Wild Draw Four")),
        ("u", t.gettext("call UNO (before your play: with it)")),
        ("c", t.gettext("catch a player who forgot UNO")),
        ("j", t.gettext("jump in with an identical card")),
        ("⏎" if plain else t.gettext("space"), t.gettext("let an out-of-turn chance go")),
        ("s", t.gettext("sort the hand by colour and rank, or not")),
        ("?", t.gettext("this help")),
        ("q", t.gettext("quit (the match is saved)")),
    ]
    return keys


def watch_keys(t: Translations) -> list[tuple[str, str]]:
    """Every key of ``unomas replay --watch`` and what it does."""
    return [
        ("→", t.gettext("the next step (also space and n)")),
        ("←", t.gettext("a step back")),
        ("Home End", t.gettext("the first step, the last")),
        ("?", t.gettext("this help")),
        ("q", t.gettext("quit")),
    ]


def hand_window(widths: Sequence[int], selected: int, first: int, room: int, marker: int) -> tuple[int, int]:
    """The cards ``[start, end)`` of a hand shown in ``room`` columns, the ``selected``
    one among them: all if they fit, else as many as fit beside two ``marker``-wide marks
    for the hidden ones, starting from ``first`` where it can."""
    if sum(widths) <= room:
        return 0, len(widths)
    room -= 2 * marker
    start = min(first, selected)
    while True:
        end, used = start, 0
        while end < len(widths) and used + widths[end] <= room:
            used += widths[end]
            end += 1
        if selected < end or start == selected:
            return start, max(end, start + 1)
        start += 1


def saved_line(t: Translations) -> str:
    """What the game says when the person quits a match that goes on."""
    return t.gettext("The match is saved: unomas play --resume continues it.")
