"""The Textual app of ``unomas play``: a setup screen, the game screen, summaries, watching.

The game screen shows what its :class:`~unomas.tui.table.Table` says (a local
:class:`~unomas.tui.session.Session`, or a seat of a room of ``unomas serve``) and offers
exactly the person's legal actions; keys (arrows, digits, letters) or the mouse pick them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.console import Group
from rich.markup import escape
from rich.style import Style
from rich.table import Table as RichTable
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Resize
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, Input, Label, RichLog, Select, Static

from unomas.actions import Action, Kind
from unomas.bots.levels import LEVELS, level_of
from unomas.cards import COLOR_LETTERS, COLOR_OF
from unomas.errors import SettingsError
from unomas.events import Event, MatchEnded, RoundEnded
from unomas.game import Phase
from unomas.i18n import Translations, bot_label, bot_slips, wording
from unomas.i18n.narration import describe
from unomas.i18n.switches import switch_groups
from unomas.rules import PRESETS, SWITCHES, TEAMS, UNO_PENALTIES, Rules
from unomas.tui.session import Session, Setup, Watch, choose_play
from unomas.tui.table import RECONNECTING, Table
from unomas.view import View

CARD_STYLES = ("bold white on red", "bold black on yellow", "bold white on green", "bold white on blue")
WILD_STYLE = "bold white on grey23"


def card_text(token: str, color: int, *, marked: bool, selected: bool, new: bool = False) -> Text:
    """One card of the hand: its token in its colour, ``*`` when playable, ``•`` and
    underlined when got since the person's last turn, reversed when selected."""
    style = CARD_STYLES[color] if color >= 0 else WILD_STYLE
    if not marked:
        style = "dim " + style
    if new:
        style = "underline " + style
    if selected:
        style = "reverse " + style
    return Text(f"{'*' if marked else ' '}{token}{NEW_MARK if new else ''}", style=style)


SEPARATOR = " · "
"""Between the fields of the status line and of the rules line."""

NEW_MARK = "•"
"""After a card got since the person's last turn (the line mode writes ``(new)``)."""


class Narration(RichLog):
    """The narration: every line wrapped to the visible width, and wrapped again when the
    width changes; it never scrolls sideways and never takes the focus (the arrow keys
    are the hand's)."""

    DEFAULT_CSS = """
    Narration { overflow-x: hidden; scrollbar-gutter: stable; }
    """
    can_focus = False

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, min_width=1)
        self.said: list[str] = []
        """Every line so far, unwrapped."""
        self._wrapped_at = 0

    def say(self, line: str) -> None:
        self.said.append(line)
        # Before the width is known, _fit wraps the line once it is.
        self.write(line, width=self._wrapped_at if self._size_known and self._wrapped_at else None)

    def show(self, lines: list[str]) -> None:
        """Say exactly ``lines`` (what was said before goes)."""
        self.said = []
        self.clear()
        for line in lines:
            self.say(line)

    def on_resize(self, event: Resize) -> None:
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        """Wrap every line again if the width it was wrapped to is not the width now."""
        width = self.scrollable_content_region.width
        if width != self._wrapped_at:
            self._wrapped_at = width
            self.show(self.said)


class GameScreen(Screen[None]):
    """A match at a table (against bots here, or a room's), or (``watch``) a record stepped through."""

    CSS = """
    #status { height: auto; background: $boost; }
    #players { height: auto; }
    #rules { height: auto; color: $text-muted; }
    #log { height: 1fr; border: round $primary; }
    #prompt { height: auto; max-height: 2; text-style: bold; }
    #hand { height: 1; link-style: none; link-style-hover: bold; }
    #keys { height: auto; max-height: 2; background: $boost; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", show=False, priority=True),
        Binding("right", "move(1)", show=False, priority=True),
        Binding("home", "move(-1000)", show=False, priority=True),
        Binding("end", "move(1000)", show=False, priority=True),
        Binding("enter", "play", show=False),
        *[Binding(str(d), f"digit({d})", show=False) for d in range(10)],
        *[Binding(k, f"key('{k}')", show=False) for k in "dpxucjrygbns"],
        Binding("space", "go_on", show=False),
        Binding("escape", "back", show=False),
        Binding("question_mark", "help", show=False),
        Binding("q", "quit_game", show=False),
    ]

    MARK = 5
    """Columns kept for each mark of cards hidden beside the shown part of a long hand."""

    def __init__(self, t: Translations, session: Table | None = None, watch: Watch | None = None) -> None:
        super().__init__()
        self.t = t
        self.session = session
        self.watched = watch
        self.names = session.names if session is not None else watch.names if watch is not None else []
        self.rules = session.rules if session is not None else watch.rules if watch is not None else Rules()
        self.selected = 0
        self.first = 0
        """The first card of a long hand shown."""
        self.uno_armed = False
        self.picking: tuple[str, int] | None = None
        """("color" or "target", the card being played) while a picker is open."""
        self.message = ""
        self.drawn_at = -1
        """The ply of the view whose drawn card the cursor was last put on."""

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Static(id="players")
        yield Static(id="rules")
        yield Narration(id="log")
        yield Static(id="prompt")
        yield Static(id="hand")
        yield Static(id="keys")

    def on_mount(self) -> None:
        if self.session is not None:
            for _action, events in self.session.history:
                self._narrate(events)
            self.session.listen(lambda _a, events: self._narrate(events))
            self.run_worker(self.session.follow(self._changed), group="table")
        elif self.watched is not None:
            self._show_watched()
        self.refresh_all()

    def on_resize(self) -> None:
        self.refresh_all()

    def _changed(self) -> None:
        """The table changed by itself (a room's news, the answer to an action): show it,
        the cursor on a card the person has just drawn."""
        if self.is_mounted:
            if self.session is not None:
                for notice in self.session.news():
                    self.query_one(Narration).say(wording.error_line(notice, self.t))
            self._select_drawn()
            self.refresh_all()

    # ------------------------------------------------------------------ drawing

    def view(self) -> View:
        if self.session is not None:
            return self.session.view()
        assert self.watched is not None
        return self.watched.view()

    def _narrate(self, events: list[Event]) -> None:
        line = describe(events, self.names, self.t, self.view().rules)
        if line:
            self.query_one(Narration).say(line)
        if self.session is None:
            return
        ended = next((e for e in events if isinstance(e, RoundEnded)), None)
        if ended is None:
            return
        summary = wording.round_summary(ended, self.names, self.t, self.view().rules)
        final = next((e for e in events if isinstance(e, MatchEnded)), None)
        if final is None and self.session.local:
            footer = self.t.gettext("Enter: next round · q: quit (the match is saved)")
        elif final is None:
            footer = self.t.gettext("Enter: back to the table · q: leave (a bot plays your seat)")
        else:
            summary += ["", *wording.match_summary(final.scores, self.rules.winners(final.winner), self.names, self.t)]
            footer = self.t.gettext("Enter: close")
        self.app.push_screen(SummaryScreen(summary, footer))

    def _show_watched(self) -> None:
        """The narration of the watched record up to its current step."""
        assert self.watched is not None
        steps = self.watched.steps[: self.watched.position + 1]
        lines = [describe(step.events, self.names, self.t, self.watched.rules) for step in steps]
        self.query_one(Narration).show([line for line in lines if line])

    def refresh_all(self) -> None:
        view = self.view()
        t = self.t
        width = self.size.width
        # Lines break between the fields of the status, the players and the rules: none is
        # cut in two, and none is hidden however many lines they take.
        fields = wording.status_line(view, t).split(SEPARATOR)
        self.query_one("#status", Static).update(Text("\n".join(wording.packed(fields, width, SEPARATOR))))
        person = self.watched is None or self.watched.person == view.seat
        seats = [wording.seat_line(view, s, self.names, t, person=person) for s in range(len(view.hand_sizes))]
        self.query_one("#players", Static).update(Text("\n".join(wording.packed(seats, width, " │ "))))
        rules = wording.packed(wording.rules_line(self.rules, t).split(SEPARATOR), width, SEPARATOR)
        if len(rules) > max(2, self.size.height // 10):  # a crowded screen keeps its hand in sight
            rules = wording.packed(wording.rules_short(self.rules, t).split(SEPARATOR), width, SEPARATOR)
        self.query_one("#rules", Static).update(Text("\n".join(rules)))
        self.query_one("#prompt", Static).update(Text(self._prompt(view)))
        self.query_one("#hand", Static).update(self._hand(view))
        self.query_one("#keys", Static).update(self._keys(view))

    def _prompt(self, view: View) -> str:
        if self.message:
            return self.message
        trouble = None if self.session is None else self.session.trouble()
        if trouble is not None:
            return wording.error_line(trouble, self.t)
        if self.picking is not None and self.picking[0] == "color":
            return wording.color_prompt(self.t, view.hand)
        if self.picking is not None:
            return wording.target_prompt(view, self.names, self.t)
        line = wording.prompt(view, self.names, self.t, person=self.watched is None or self.watched.person == view.seat)
        if self.uno_armed:
            line += " " + self.t.gettext("(UNO with your play)")
        return line

    def _hand(self, view: View) -> Text:
        """The hand on one line; a hand wider than the screen shows the part around the
        chosen card, with the number of cards hidden on each side."""
        cards = self._cards(view)
        self.selected = max(0, min(self.selected, len(cards) - 1))
        marked = wording.playable(view)
        new = wording.new_marks(cards, self.session.new_cards()) if self.session is not None else [False] * len(cards)
        pieces: list[Text] = []
        for index, card in enumerate(cards):
            piece = Text(f"{(index + 1) % 10}:" if index < 10 else "", style="dim")
            shown = card_text(
                wording.card_label(card),
                COLOR_OF[card],
                marked=card in marked,
                selected=index == self.selected,
                new=new[index],
            )
            shown.stylize(Style.on(click=f"screen.pick({index})"))
            piece.append_text(shown)
            pieces.append(piece)
        room = self.query_one("#hand").size.width or sum(piece.cell_len + 1 for piece in pieces)
        first, last = wording.hand_window(
            [piece.cell_len + 1 for piece in pieces], self.selected, self.first, room, self.MARK
        )
        self.first = first
        out = Text()
        if first:
            out.append(f"◀{first} ", style="bold")
        out.append_text(Text(" ").join(pieces[first:last]))
        if last < len(pieces):
            out.append(f" {len(pieces) - last}▶", style="bold")
        return out

    def _cards(self, view: View) -> list[int]:
        """The hand in the order shown (sorted unless the person turned sorting off)."""
        return wording.hand_cards(view, sort=self.session is None or self.session.sort_hand)

    def _keys(self, view: View) -> Text:
        if self.watched is not None:
            return Text(self.t.gettext("→/space: next · ←: back · ?: help · q: quit"))
        trouble = None if self.session is None else self.session.trouble()
        offline = trouble is not None and trouble.code == RECONNECTING  # a move would be dropped
        keys = [] if self.picking or offline else wording.offers(view, self.names, self.t)
        if self.session is not None and self.session.chance_open() and not (self.picking or offline):
            keys.append((self.t.gettext("space"), self.t.gettext("let it go")))
        if any(a.kind is Kind.PLAY for a in view.legal_actions) and not (self.picking or offline):
            keys.insert(0, ("←→/0-9 ⏎", self.t.gettext("play")))
        if view.phase >= Phase.ROUND_OVER:
            keys = [("⏎", self.t.gettext("go on"))]
        if self.picking:
            keys.append(("Esc", self.t.gettext("back")))
        keys.append(("?", self.t.gettext("help")))
        keys.append(("q", self.t.gettext("quit")))
        out = Text()
        for key, label in keys:
            first = key.split("/")[0]
            out.append(f" {key}", style="bold")
            out.append(f" {label} ", style=Style.on(click=f"screen.key('{first}')") if len(first) == 1 else "")
        return out

    # ------------------------------------------------------------------ the person's keys

    def _apply(self, action: Action | None) -> None:
        if action is None or self.session is None:
            return
        self.session.act(action)
        self.message = ""
        self.uno_armed = False
        self.picking = None
        self.refresh_all()

    def _select_drawn(self) -> None:
        """Put the card cursor on a playable card just drawn, so that Enter plays it (once
        for each view that offers it: the person's arrows move it on)."""
        view = self.view()
        if view.drawn is not None and view.seat == view.current and view.ply != self.drawn_at:
            self.drawn_at = view.ply
            cards = self._cards(view)
            self.selected = len(cards) - 1 - cards[::-1].index(view.drawn)

    def _find(self, kind: Kind) -> Action | None:
        return next((a for a in self.view().legal_actions if a.kind is kind), None)

    def action_move(self, step: int) -> None:
        """←/→: the card cursor (Home/End: the ends of the hand); watching, a step back or on."""
        if self.watched is not None:
            was = self.watched.position
            self.watched.go(was + step)
            if self.watched.position == was:
                return  # at an end of the record: nothing changes, nothing is said again
            self._show_watched()
        else:
            self.selected = max(0, self.selected + step)
        self.refresh_all()

    def action_digit(self, digit: int) -> None:
        if self.picking is not None and self.picking[0] == "target":
            self._play(self.picking[1], target=digit)
            return
        self.selected = (digit - 1) % 10
        self.refresh_all()

    def action_pick(self, index: int) -> None:
        self.selected = index
        self.action_play()

    def action_play(self) -> None:
        view = self.view()
        if view.phase >= Phase.ROUND_OVER:
            self.action_go_on()
            return
        cards = self._cards(view)
        if self.picking is not None and self.picking[0] == "target":  # ⏎: the 7 that goes on, naming nobody
            self._play(self.picking[1], onward=True)
            return
        if not cards or self.picking is not None:
            return
        self._play(cards[min(self.selected, len(cards) - 1)])

    def _play(self, card: int, *, color: int | None = None, target: int | None = None, onward: bool = False) -> None:
        view = self.view()
        choice = choose_play(view.legal_actions, card, color=color, target=target, uno=self.uno_armed, onward=onward)
        if isinstance(choice, str):
            self.picking = (choice, card)
            self.refresh_all()
        elif choice is None and view.seat is not None:
            # Not among the legal actions: the table's engine refuses it and says why.
            self._apply(Action.play(view.seat, card, color=color, target=target, uno=self.uno_armed))
        elif choice is not None:
            self._apply(choice)

    def action_key(self, key: str) -> None:
        self.message = ""
        view = self.view()
        if self.watched is not None:
            if key == "n":
                self.action_move(1)
            return
        if key == "s" and self.session is not None:
            self.session.sort_hand = not self.session.sort_hand
            Setup.remember_sorting(self.session.sort_hand)
            self.refresh_all()
            return
        if key in "rygb":
            color = COLOR_LETTERS.index(key.upper())
            if self.picking is not None and self.picking[0] == "color":
                self._play(self.picking[1], color=color)
            else:
                self._apply(next((a for a in view.legal_actions if a.kind is Kind.COLOR and a.color == color), None))
            return
        if key == "u":
            uno = self._find(Kind.UNO)
            if uno is not None:
                self._apply(uno)
            else:
                self.uno_armed = not self.uno_armed and any(a.uno for a in view.legal_actions)
                self.refresh_all()
            return
        if key == "j":
            jump = next((a for a in view.legal_actions if a.kind is Kind.PLAY), None)
            if jump is not None and jump.card is not None:
                self._play(jump.card)
            return
        kinds = {"d": Kind.DRAW, "p": Kind.PASS, "x": Kind.CHALLENGE, "c": Kind.CATCH}
        if key in kinds and view.seat is not None:  # not offered: the engine says why
            self._apply(self._find(kinds[key]) or Action(view.seat, kinds[key]))
        elif key == "n":
            self.action_go_on()

    def action_go_on(self) -> None:
        """Space: let an out-of-turn chance go, or go on after a round."""
        if self.watched is not None:
            self.action_move(1)
            return
        if self.session is None:
            return
        self.picking = None
        if self.view().phase == Phase.ROUND_OVER:
            self.session.next_round()
        elif self.session.chance_open():
            self.session.let_go()
        self.refresh_all()

    def action_back(self) -> None:
        """Esc: close the colour or swap picker; the card stays in hand."""
        if self.picking is not None:
            self.picking = None
            self.refresh_all()

    def action_help(self) -> None:
        """?: every key (a record's steps, when watching one), and the rules in force."""
        t = self.t
        keys = wording.watch_keys(t) if self.watched is not None else wording.key_help(t, plain=False)
        rows: list[Row] = [t.gettext("Keys"), *keys, "", t.gettext("Rules")]
        rows += [wording.rules_line(self.rules, t), *wording.switch_marks(self.rules, t)]
        self.app.push_screen(HelpScreen(rows, t.gettext("Esc, Enter or ?: back to the game")))

    def action_quit_game(self) -> None:
        """q: leave (a match that goes on is saved, and the command says how to resume it)."""
        self.app.exit()


Row = str | tuple[str, str]
"""A line of a panel, or (a key or mark, its words): the words of those wrap beside it."""


class Panel(ModalScreen[None]):
    """Lines of text over the game, and below them a footer saying how to leave, always in
    sight: the lines scroll when they do not fit. Rows of (key, words) line up in two
    columns, the words wrapped beside their key."""

    DEFAULT_CSS = """
    Panel { align: center middle; }
    Panel > Vertical { width: 90%; max-width: 100; height: auto; max-height: 100%;
                       border: double $accent; background: $surface; padding: 0 1; }
    Panel VerticalScroll { height: auto; }
    Panel .footer { dock: bottom; height: auto; text-style: bold; }
    """

    def __init__(self, rows: Sequence[Row], footer: str) -> None:
        super().__init__()
        self.rows: list[Row] = list(rows)
        self.footer = footer
        """How to leave, below the rows: in sight however long they are (the rows scroll)."""
        self.lines = [*(row if isinstance(row, str) else f"{row[0]:>9}  {row[1]}" for row in self.rows), footer]
        """The rows as plain lines, and the footer."""

    def compose(self) -> ComposeResult:
        shown: list[Text | RichTable] = []
        for row in self.rows:
            if isinstance(row, str):
                shown.append(Text(row))
                continue
            if not shown or not isinstance(shown[-1], RichTable):
                grid = RichTable.grid(padding=(0, 2))
                grid.add_column(justify="right", no_wrap=True)
                grid.add_column(ratio=1)
                shown.append(grid)
            table = shown[-1]
            assert isinstance(table, RichTable)
            table.add_row(Text(row[0]), Text(row[1]))
        with Vertical():
            yield Static(self.footer, classes="footer")
            with VerticalScroll():
                yield Static(Group(*shown))


class SummaryScreen(Panel):
    """The end of a round or of the match: each hand's points, the totals. Enter, Space
    or a click go on; q quits (the match is saved)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "close", show=False),
        Binding("space", "close", show=False),
        Binding("q", "quit_game", show=False),
    ]

    def on_click(self) -> None:
        self.action_close()

    def action_close(self) -> None:
        self.dismiss()
        screen = self.app.screen
        if isinstance(screen, GameScreen) and screen.session is not None:
            if screen.view().phase == Phase.MATCH_OVER:
                screen.action_quit_game()
                return
            screen.action_go_on()

    def action_quit_game(self) -> None:
        self.app.exit()


class HelpScreen(Panel):
    """Every key and the rules in force; any of Esc, Enter, ? or q goes back to the game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(key, "close", show=False) for key in ("escape", "enter", "question_mark", "q")
    ]

    def action_close(self) -> None:
        self.dismiss()


class Switch(Checkbox):
    """A house rule's checkbox that says on or off by its mark (✓ or ✗), not by colour alone."""

    BUTTON_INNER = "✗"

    def watch_value(self) -> None:
        self.BUTTON_INNER = "✓" if self.value else "✗"
        super().watch_value()


class SetupScreen(Screen[None]):
    """Players, each bot and its level, target score, every house rule; presets."""

    CSS = """
    SetupScreen { layout: vertical; }
    #form { height: 1fr; }
    .row { height: auto; }
    .row Label { width: 22; max-width: 35%; padding: 1 1 0 0; }
    .row Select { width: 1fr; max-width: 40; }
    .row Input { width: 16; }
    .group { width: 100%; text-style: bold; padding: 1 0 0 0; }
    .help { width: 100%; color: $text-muted; padding: 0 0 0 4; }
    #buttons { height: 3; }
    #buttons Label { padding: 1 1 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", show=False),
        Binding("escape", "leave", show=False),
    ]

    def __init__(self, t: Translations, setup: Setup, start: Callable[[Setup], None]) -> None:
        super().__init__()
        self.t = t
        self.setup = setup.fitted()
        self.start = start
        self.preset = self.setup.preset
        """The preset the switches started from (the last one pressed)."""

    def compose(self) -> ComposeResult:
        t = self.t
        rules = self.setup.rules()
        form = VerticalScroll(id="form")
        form.can_focus = False  # Tab goes from Play straight to the first field
        with form:
            yield Label(t.gettext("New match (Tab moves, Space toggles, Enter on Play starts)"), classes="group")
            with Horizontal(classes="row"):
                yield Label(t.gettext("Players"))
                yield Select(
                    [(str(n), n) for n in range(2, 11)], value=self.setup.players, allow_blank=False, id="players"
                )
            with Horizontal(classes="row"):
                yield Label(t.gettext("Target score"))
                yield Input(str(rules.target_score), id="target", type="integer")
            with Horizontal(classes="row"):
                yield Label(t.gettext("Seconds to catch or jump in before a bot acts"))
                yield Input(f"{self.setup.window:g}", id="window", type="number")
            levels = [(f"{bot_label(level.spec, t)} · {bot_slips(level.spec, t)}", level.spec) for level in LEVELS]
            for seat in range(1, 10):
                spec = self.setup.bots[seat - 1] if seat - 1 < len(self.setup.bots) else self.setup.bots[-1]
                if level_of(spec) is None:
                    levels.append((spec, spec))
                with Horizontal(classes="row", id=f"seat-row-{seat}"):
                    yield Label(t.gettext("Seat {seat}: bot").format(seat=seat))
                    yield Select(levels, value=spec, allow_blank=False, id=f"bot-{seat}")
            with Horizontal(classes="row"):
                for preset in PRESETS:
                    yield Button(wording.preset_label(preset, t), id=f"preset-{preset}")
            with Horizontal(classes="row"):
                yield Label(t.gettext("Cards for a missed UNO"))
                penalties = [(str(n), n) for n in UNO_PENALTIES]
                yield Select(penalties, value=rules.uno_penalty, allow_blank=False, id="number-uno_penalty")
            with Horizontal(classes="row"):
                yield Label(t.gettext("Hand limit (0: none)"))
                yield Input(str(rules.hand_limit), id="number-hand_limit", type="integer")
            with Horizontal(classes="row"):
                yield Label(t.gettext("Out of the round at (0: never)"))
                yield Input(str(rules.elimination), id="number-elimination", type="integer")
            with Horizontal(classes="row"):
                yield Label(t.gettext("Teams (partners sit opposite)"))
                yield Select(
                    [(wording.teams_label(teams, t), teams) for teams in TEAMS],
                    value=rules.teams,
                    allow_blank=False,
                    id="teams",
                )
            for group in switch_groups(t):
                yield Label(group.title, classes="group")
                for switch in group.switches:
                    yield Switch(switch.title, getattr(rules, switch.name), id=f"rule-{switch.name}")
                    yield Label(switch.explanation, classes="help")
        with Horizontal(id="buttons"):
            yield Button(t.gettext("Play"), id="play", variant="primary")
            yield Label(t.gettext("Esc: quit"), id="leave")
            yield Label("", id="error")

    def on_mount(self) -> None:
        self._show_seats(self.setup.players)
        self.query_one("#play", Button).focus()

    def _show_seats(self, players: int) -> None:
        for seat in range(1, 10):
            self.query_one(f"#seat-row-{seat}").display = seat < players

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "players" and isinstance(event.value, int):
            self._show_seats(event.value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        name = event.button.id or ""
        if name.startswith("preset-"):
            self.preset = name.removeprefix("preset-")
            rules = Rules.preset(self.preset)
            for switch in SWITCHES:
                self.query_one(f"#rule-{switch}", Checkbox).value = getattr(rules, switch)
            self.query_one("#number-uno_penalty", Select).value = rules.uno_penalty
            for name in ("hand_limit", "elimination"):
                self.query_one(f"#number-{name}", Input).value = str(getattr(rules, name))
        elif name == "play":
            self.action_start()

    def chosen(self) -> Setup:
        """The setup as the screen shows it; SettingsError names a bad value."""
        players = self.query_one("#players", Select).value
        assert isinstance(players, int)
        bots = [str(self.query_one(f"#bot-{seat}", Select).value) for seat in range(1, players)]
        target_text = self.query_one("#target", Input).value.strip()
        try:
            target = int(target_text)
        except ValueError:
            raise SettingsError("setup.not_integer", name="target_score", value=repr(target_text)) from None
        window_text = self.query_one("#window", Input).value.strip()
        try:
            window = float(window_text)
        except ValueError:
            window = -1.0
        if not 0 <= window < math.inf:
            raise SettingsError("setup.window", value=repr(window_text))
        teams = self.query_one("#teams", Select).value
        settings: dict[str, int | bool | str] = {"target_score": target, "teams": str(teams)}
        for name in SWITCHES:
            settings[name] = self.query_one(f"#rule-{name}", Checkbox).value
        penalty = self.query_one("#number-uno_penalty", Select).value
        assert isinstance(penalty, int)
        settings["uno_penalty"] = penalty
        for name in ("hand_limit", "elimination"):
            text = self.query_one(f"#number-{name}", Input).value.strip() or "0"
            try:
                settings[name] = int(text)
            except ValueError:
                raise SettingsError("setup.not_integer", name=name, value=repr(text)) from None
        setup = Setup(players, bots, self.preset, settings, self.setup.name, self.setup.sort_hand, window)
        setup.rules()
        return setup

    def action_start(self) -> None:
        try:
            setup = self.chosen()
        except SettingsError as error:
            self.query_one("#error", Label).update(escape(wording.error_line(error, self.t)))
            return
        setup.save()
        self.start(setup)

    def action_leave(self) -> None:
        """Esc: leave without playing (nothing is saved)."""
        self.app.exit()


class UnomasApp(App[None]):
    """``unomas play``: a setup screen (unless ``session`` is given: a local match or a
    room's seat), then the game; the session (the one given or the one started) is closed
    when the app ends."""

    TITLE = "unomas"

    def __init__(
        self,
        t: Translations,
        *,
        session: Table | None = None,
        setup: Setup | None = None,
        make_session: Callable[[Setup], Session] | None = None,
        watch: Watch | None = None,
    ) -> None:
        super().__init__()
        self.t = t
        self.session = session
        self.setup = setup
        self.make_session = make_session
        self.watched = watch

    def on_mount(self) -> None:
        if self.session is not None or self.watched is not None:
            self.push_screen(GameScreen(self.t, self.session, self.watched))
        else:
            assert self.setup is not None
            self.push_screen(SetupScreen(self.t, self.setup, self._start))

    def _start(self, setup: Setup) -> None:
        assert self.make_session is not None
        self.session = self.make_session(setup)
        self.session.sort_hand = setup.sort_hand
        self.switch_screen(GameScreen(self.t, self.session))

    async def on_unmount(self) -> None:
        if self.session is not None:
            await self.session.close()
