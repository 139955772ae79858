"""The Textual game driven through its keys by Textual's headless pilot."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from textual.widgets import Checkbox, Input, Label, Select

from tui_fixtures import Crashing, Scripted, exhausting_game, next_keys, play_out, screen_text, stacked_game
from unomas import record
from unomas.actions import Action
from unomas.bots.levels import LEVELS
from unomas.cards import parse_card
from unomas.errors import UnoError
from unomas.events import Caught, Challenged, Drew, Event, HandsSwapped, MatchEnded, Played, UnoCalled
from unomas.game import Deal, Game
from unomas.i18n import bot_slips, error_text, translator, wording
from unomas.i18n.narration import describe
from unomas.rules import PRESETS, SWITCHES, Rules
from unomas.testing import make_game
from unomas.tui.app import GameScreen, HelpScreen, Narration, SetupScreen, SummaryScreen, UnomasApp
from unomas.tui.session import Session, Setup, Watch


@pytest.fixture(autouse=True)
def data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("UNOMAS_DATA", str(tmp_path))
    return tmp_path


async def play_through(lang: str) -> tuple[list[Event], str, str]:
    """A whole match by keys alone; the events seen, a screen mid-match and the last one."""
    session = Session(stacked_game().rules, [Scripted()], names=["Ana", "Beto"], pace=0, window=60, game=stacked_game())
    app = UnomasApp(translator(lang), session=session)
    middle = ""
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(60):
            await pilot.pause()
            if isinstance(app.screen, SummaryScreen):
                final = screen_text(app)
                await pilot.press("enter")
                break
            if session.waiting_for_person() or session.chance_open():
                if not middle and session.view().uno_pending is not None:
                    middle = screen_text(app)
                for key in next_keys(session):
                    await pilot.press(key)
        await pilot.pause()
    seen = [event for _action, events in session.history for event in events]
    return seen, middle, final


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_person_plays_a_whole_match_by_keys(lang: str, data_folder: Path) -> None:
    seen, middle, final = asyncio.run(play_through(lang))
    assert Caught(0, 1) in seen
    assert UnoCalled(0) in seen
    assert any(isinstance(e, Played) and e.player == 0 and e.card == 52 and e.color == 1 for e in seen)
    assert any(isinstance(e, Challenged) and e.challenger == 0 and e.guilty for e in seen)
    assert MatchEnded(0, (21, 0)) in seen
    lines = middle.splitlines()
    assert len(lines) == 24 and max(len(line) for line in lines) <= 80
    if lang == "es":
        assert "Beto juega 3 verde (G3)." in middle and "pillar a Beto" in middle
        assert "Ana gana la partida!" in final and "21" in final
    else:
        assert "Beto plays Green 3 (G3)." in middle and "catch Beto" in middle
        assert "Ana wins the match!" in final
    records = list((data_folder / "records").glob("*.json"))
    assert len(records) == 1 and '"winner":0' in records[0].read_text(encoding="utf-8")


async def setup_then_play() -> tuple[list[Setup], str]:
    started: list[Setup] = []

    def make(setup: Setup) -> Session:
        started.append(setup)
        return Session(setup.rules(), setup.bots, pace=0, window=setup.window, save=False, seed=1)

    app = UnomasApp(translator("en"), setup=Setup(players=3, bots=["random"]), make_session=make)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        shown = screen_text(app)
        app.screen.query_one("#preset-all").scroll_visible(animate=False)  # below the bots' levels
        await pilot.pause()
        await pilot.click("#preset-all")
        await pilot.pause()
        app.screen.query_one("#target").value = "0"  # type: ignore[attr-defined]
        app.screen.query_one("#window").value = "x"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen) and not started  # a window that is no number
        app.screen.query_one("#window").value = "4"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
    return started, shown


def test_the_setup_screen_chooses_rules_and_remembers_them() -> None:
    started, shown = asyncio.run(setup_then_play())
    assert "Players" in shown and "Seat 1: bot" in shown
    setup = started[0]
    assert setup.players == 3 and setup.bots == ["random", "random"] and setup.window == 4
    assert setup.rules().jump_in and setup.rules().target_score == 0
    assert Setup.load() == setup


async def jump_in_and_swap() -> tuple[list[Event], list[str]]:
    rules = Rules(players=2, hand_size=3, target_score=0, seven_zero=True, jump_in=True)
    game = Game(rules, deal=Deal.from_tokens([["G5", "G7", "B1"], ["G2", "Y3", "Y4"]], ["G5", "B9"]), seed=0)
    session = Session(rules, [Scripted()], names=["Ana", "Beto"], game=game, pace=0, window=60, save=False)
    app = UnomasApp(translator("en"), session=session)
    screens: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert session.chance_open()  # the starting G5 is Ana's to jump in on
        screens.append(screen_text(app))
        await pilot.press("j")
        while not session.waiting_for_person():
            await pilot.pause()
        await pilot.click("#hand", offset=(3, 0))  # the mouse picks G7 (a 7: whom to swap with?)
        await pilot.pause()
        screens.append(screen_text(app))
        await pilot.press("1")
        while not session.waiting_for_person():
            await pilot.pause()
        await pilot.press("left", "enter")  # Y3 cannot be played on G7
        await pilot.pause()
        screens.append(screen_text(app))
        await pilot.press("q")
    return [event for _action, events in session.history for event in events], screens


def test_jump_in_seven_target_and_a_refused_card_through_keys_and_mouse() -> None:
    seen, screens = asyncio.run(jump_in_and_swap())
    assert Played(0, parse_card("G5"), None, None, False, True) in seen
    assert HandsSwapped(0, 1) in seen
    assert "j jump in" in screens[0] and "space let it go" in screens[0]
    assert "Swap hands with: 1 = Beto" in screens[1]
    assert "Y3 does not match the top card G7 (colour in play G)" in screens[2]  # the engine's reason


async def refused_last_action_card(lang: str) -> tuple[str, tuple[Action, ...]]:
    """Ana's last card is a Skip under no_action_finish: she picks it anyway."""
    game = make_game([["RS"], ["G1"]], ["R5", "Y1", "Y2"], target_score=0, no_action_finish=True)
    session = Session(game.rules, [Scripted()], names=["Ana", "Beto"], game=game, pace=0, save=False)
    app = UnomasApp(translator(lang), session=session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("1", "enter")
        for _ in range(50):
            await pilot.pause(0.02)
            if session.trouble() is not None:
                break
        shown = screen_text(app)
        legal = session.view().legal_actions
        await pilot.press("q")
    return shown, legal


@pytest.mark.parametrize(
    ("lang", "reason"),
    [
        ("en", "the last card may not be an action or wild card (no_action_finish)"),
        ("es", "la última carta no puede ser una carta de acción ni un comodín (no_action_finish)"),
    ],
)
def test_a_card_the_engine_refuses_is_explained_by_the_rule_that_forbids_it(lang: str, reason: str) -> None:
    shown, legal = asyncio.run(refused_last_action_card(lang))
    assert legal == (Action.draw(0),)  # nothing changed: Ana still has to draw
    assert reason in " ".join(shown.split())


async def preset_switches() -> dict[str, dict[str, bool]]:
    app = UnomasApp(translator("es"), setup=Setup(players=2, bots=["random"]), make_session=lambda _setup: None)  # type: ignore[arg-type,return-value]
    shown: dict[str, dict[str, bool]] = {}
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for preset in reversed(PRESETS):
            await pilot.click(f"#preset-{preset}")
            await pilot.pause()
            shown[preset] = {name: app.screen.query_one(f"#rule-{name}", Checkbox).value for name in SWITCHES}
    return shown


def test_the_setup_screen_s_preset_buttons_set_the_switches_of_each_preset() -> None:
    shown = asyncio.run(preset_switches())
    assert shown == {preset: {name: getattr(Rules.preset(preset), name) for name in SWITCHES} for preset in PRESETS}


async def a_bot_fails() -> tuple[str, bool]:
    game = stacked_game()
    session = Session(game.rules, [Crashing()], names=["Ana", "Beto"], game=game, pace=0, save=False)
    app = UnomasApp(translator("en"), session=session)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(5):
            await pilot.pause()
        shown = screen_text(app)
        running = app.is_running
        await pilot.press("q")
    return shown, running


def test_a_failing_bot_stops_the_match_with_a_line_not_a_traceback() -> None:
    shown, running = asyncio.run(a_bot_fails())
    assert running and "The bot at seat 1 (crashing) crashed: RuntimeError: out of order" in shown


SIZES = [(60, 20), (80, 24), (120, 40)]


def long_hand_session() -> Session:
    """Ana holds 25 cards; the bots wait (a long pace), so nothing moves but the keys."""
    rules = Rules(players=3, hand_size=25, target_score=0)
    return Session(rules, ["heuristic", "heuristic"], seed=42, pace=600, window=600, save=False)


async def arrows_and_narration(size: tuple[int, int]) -> dict[str, object]:
    session = long_hand_session()
    app = UnomasApp(translator("en"), session=session)
    found: dict[str, object] = {}
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        log = screen.query_one(Narration)
        found["dealt"] = describe(session.history[0][1], session.names, translator("en"))
        found["sideways"] = log.virtual_size.width > log.scrollable_content_region.width
        await pilot.press("right", "right")
        found["after right"] = screen.selected
        await pilot.press("left")
        found["after left"] = screen.selected
        await pilot.press("end")
        found["at end"] = screen.selected
        found["end screen"] = screen_text(app)
        await pilot.press(*["left"] * 12)
        found["middle"] = screen.selected
        await pilot.press("home")
        found["at home"] = screen.selected
        found["home screen"] = screen_text(app)
        cards = wording.hand_cards(session.view())
        found["first"], found["last"] = wording.card_label(cards[0]), wording.card_label(cards[-1])
        await pilot.press("q")
    return found


@pytest.mark.parametrize("size", SIZES)
def test_the_arrows_pick_every_card_of_a_long_hand_and_the_narration_never_scrolls_sideways(
    size: tuple[int, int],
) -> None:
    found = asyncio.run(arrows_and_narration(size))
    dealt = str(found["dealt"])
    assert len(dealt) > 78  # longer than the old fixed width
    assert found["sideways"] is False
    assert (found["after right"], found["after left"], found["at end"]) == (2, 1, 24)
    assert (found["middle"], found["at home"]) == (12, 0)
    width, height = size
    for key in ("end screen", "home screen"):
        lines = str(found[key]).splitlines()
        assert len(lines) == height and max(len(line) for line in lines) <= width
    at_end, at_home = str(found["end screen"]).splitlines()[-2], str(found["home screen"]).splitlines()[-2]
    assert at_end.rstrip().endswith(str(found["last"])) and "▶" not in at_end
    assert at_home.startswith(f"1: {found['first']}") and "◀" not in at_home
    assert ("◀" in at_end and "▶" in at_home) == (width < 120)  # 25 cards fit in 120 columns
    narration = str(found["end screen"])
    assert (dealt in narration) == (width == 120) and dealt.split()[-1] in narration


async def resized() -> tuple[str, str, str]:
    session = long_hand_session()
    app = UnomasApp(translator("en"), session=session)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        narrow = screen_text(app)
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        wide = screen_text(app)
        dealt = describe(session.history[0][1], session.names, translator("en"))
        await pilot.press("q")
    return narrow, wide, dealt


def test_the_narration_is_wrapped_again_when_the_terminal_is_resized() -> None:
    narrow, wide, dealt = asyncio.run(resized())
    assert dealt not in narrow and dealt.split()[-1] in narrow  # wrapped, none of it hidden
    assert dealt in wide  # one line at 120 columns


async def watch_back_and_forth(path: Path) -> tuple[list[int], str]:
    watched = Watch(json.loads(path.read_text(encoding="utf-8")))
    app = UnomasApp(translator("en"), watch=watched)
    positions = []
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        for key in ["right", "right", "right", "left"]:
            await pilot.press(key)
            positions.append(watched.position)
        await pilot.pause()
        shown = screen_text(app)
        await pilot.press("q")
    return positions, shown


def test_watching_at_60_columns_left_goes_back_and_right_steps(tmp_path: Path) -> None:
    game = stacked_game()
    session = Session(game.rules, [Scripted()], names=["Ana", "Beto"], game=game, pace=0, save=False)
    asyncio.run(play_out(session))
    path = tmp_path / "match.json"
    path.write_text(record.dumps(record.to_json(session.game, names=session.names, person=0)), encoding="utf-8")
    positions, shown = asyncio.run(watch_back_and_forth(path))
    assert positions == [1, 2, 3, 2]
    assert "Beto plays Green 2 (G2)." in shown and "Ana plays Wild (W) and chooses Blue." in shown
    assert "Beto plays Green 3" not in shown  # the step gone back over is no longer told


async def summary_keys(key: str) -> tuple[str, bool, int]:
    game = stacked_game(target_score=500)
    session = Session(game.rules, [Scripted()], names=["Ana", "Beto"], game=game, pace=0, window=60)
    app = UnomasApp(translator("en"), session=session)
    shown = ""
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(60):
            await pilot.pause()
            if isinstance(app.screen, SummaryScreen):
                shown = screen_text(app)
                await pilot.press(key)
                await pilot.pause()
                break
            if session.waiting_for_person() or session.chance_open():
                for pressed in next_keys(session):
                    await pilot.press(pressed)
        running = app.is_running
        if running:
            await pilot.press("q")
    return shown, running, session.game.round


@pytest.mark.parametrize("key", ["q", "enter", "space"])
def test_the_round_summary_goes_on_with_enter_or_space_and_quits_with_q(key: str) -> None:
    shown, running, round_number = asyncio.run(summary_keys(key))
    assert "Ana wins the round: +21 points." in shown
    assert "Enter: next round · q: quit (the match is saved)" in shown
    if key == "q":
        assert not running and round_number == 0
    else:
        assert running and round_number == 1


async def help_and_rules(lang: str, size: tuple[int, int]) -> tuple[str, str, str]:
    rules = Rules.preset("official", players=2, target_score=0, jump_in=True)
    session = Session(rules, ["heuristic"], seed=2, pace=600, window=600, save=False)
    app = UnomasApp(translator(lang), session=session)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        playing = screen_text(app)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        helped = "\n".join(app.screen.lines)
        help_screen = screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        await pilot.press("q")
    return playing, helped, help_screen


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("size", SIZES)
def test_the_rules_in_force_show_while_playing_and_question_mark_lists_every_key(
    lang: str, size: tuple[int, int]
) -> None:
    playing, helped, help_screen = asyncio.run(help_and_rules(lang, size))
    t = translator(lang)
    first_key, first_label = wording.key_help(t, plain=False)[0]
    lines = help_screen.splitlines()
    row = next(n for n, line in enumerate(lines) if f"{first_key}  " in line)
    column = lines[row].index(first_label.split()[0])
    after = lines[row + 1][column:].split("║")[0].strip()
    if not after.startswith(wording.key_help(t, plain=False)[1][1].split()[0]):  # the label wrapped
        assert lines[row + 1][column - 1] == " " and after and first_label.endswith(after)  # beside its key
    assert ("espacio" if lang == "es" else "space") in help_screen
    rules = Rules.preset("official", players=2, target_score=0, jump_in=True)
    line = wording.rules_line(rules, t)
    assert line in playing.replace("\n", " ") or line[: size[0] - 1] in playing
    for key, label in wording.key_help(t, plain=False):
        assert f"{key}  {label}" in helped
    assert wording.rules_line(rules, t) in helped
    for mark, words in wording.switch_marks(rules, t):
        assert f"{mark}  {words}" in helped
    assert ("[x]  Cortar" if lang == "es" else "[x]  Jump in") in helped


async def draw_sort_and_pick(lang: str) -> list[str]:
    game = stacked_game()
    session = Session(game.rules, [Scripted()], names=["Ana", "Beto"], pace=0, window=60, game=game, save=False)
    app = UnomasApp(translator(lang), session=session)
    shown: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        for key in ("d", "s", "s", "4", "enter"):
            await pilot.pause()
            await pilot.press(key)
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen)
            hand = screen._hand(screen.view())
            underlined = [hand.plain[s.start : s.end] for s in hand.spans if "underline" in str(s.style)]
            shown.append(f"{hand.plain} | new: {' '.join(underlined)} | {screen_text(app)}")
        await pilot.press("q")
    return shown


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_hand_is_sorted_new_cards_are_underlined_and_the_picker_counts_colours(lang: str) -> None:
    after_draw, unsorted, resorted, _chosen, picking = asyncio.run(draw_sort_and_pick(lang))
    assert after_draw.startswith("1: Y1• 2:*G7 3: B5 4:*W | new:  Y1• |")
    assert unsorted.startswith("1:*G7 2:*W 3: B5 4: Y1• | new:  Y1• |")
    assert resorted.startswith("1: Y1• 2:*G7 3: B5 4:*W |")
    if lang == "en":
        assert "Choose a colour: r = Red (0), y = Yellow (1), g = Green (1), b = Blue (1)" in picking
    else:
        assert "Elige color: r = Rojo (0), y = Amarillo (1), g = Verde (1), b = Azul (1)" in picking


async def setup_keys() -> tuple[str, str, str, str, bool, list[str]]:
    app = UnomasApp(translator("en"), setup=Setup(players=2, bots=["random"]), make_session=lambda _setup: None)  # type: ignore[arg-type,return-value]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.focused is not None and app.focused.id == "play"
        await pilot.press("tab")
        after_tab = str(app.focused.id if app.focused is not None else None)
        shown = screen_text(app)
        marks = [str(app.screen.query_one(f"#rule-{name}").render()) for name in SWITCHES]
        app.screen.query_one("#target", Input).value = "-5"
        await pilot.press("ctrl+s")
        await pilot.pause()
        refused = str(app.screen.query_one("#error", Label).render())
        app.screen.query_one("#target", Input).value = "x"
        await pilot.press("ctrl+s")
        await pilot.pause()
        not_number = str(app.screen.query_one("#error", Label).render())
        await pilot.press("escape")
        await pilot.pause()
        running = app.is_running
    return after_tab, shown, refused, not_number, running, marks


def test_the_setup_screen_tabs_to_a_field_marks_switches_and_leaves_on_esc() -> None:
    after_tab, shown, refused, not_number, running, marks = asyncio.run(setup_keys())
    assert after_tab == "players"
    assert "Esc: quit" in shown
    official = Rules.preset("official")
    assert [mark[1] for mark in marks] == ["✓" if getattr(official, name) else "✗" for name in SWITCHES]
    assert refused == "The target score must be 0 or more, not -5."
    assert not_number == "target_score must be a whole number, not 'x'."
    assert not running


def finished_record(tmp_path: Path, *, person: bool) -> Path:
    """The stacked match played out and saved, with or without a person in the record."""
    game = stacked_game()
    session = Session(game.rules, [Scripted()], names=["Ana", "Beto"], game=game, pace=0, save=False)
    asyncio.run(play_out(session))
    data = record.to_json(session.game, names=session.names, **({"person": 0} if person else {}))
    path = tmp_path / "match.json"
    path.write_text(record.dumps(data), encoding="utf-8")
    return path


async def watch_to_the_end(path: Path) -> tuple[str, str, str, list[str], list[str]]:
    watched = Watch(json.loads(path.read_text(encoding="utf-8")))
    app = UnomasApp(translator("en"), watch=watched)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("space")
        await pilot.pause()
        early = screen_text(app)
        for _ in range(len(watched.steps) - 2):
            await pilot.press("space")
        await pilot.pause()
        at_end = screen_text(app)
        said_at_end = list(app.screen.query_one(Narration).said)
        for _ in range(3):
            await pilot.press("space")
        await pilot.pause()
        after = screen_text(app)
        said = list(app.screen.query_one(Narration).said)
        await pilot.press("q")
    return early, at_end, after, said_at_end, said


@pytest.mark.parametrize("person", [True, False])
def test_watching_a_record_to_its_end_says_the_last_line_once_and_you_only_for_a_person(
    tmp_path: Path, person: bool
) -> None:
    early, at_end, after, said_at_end, said = asyncio.run(watch_to_the_end(finished_record(tmp_path, person=person)))
    assert after == at_end and said == said_at_end
    assert ("(you)" in at_end) is person
    assert ("Your turn: play a card or draw." in early) is person
    assert ("Ana's turn." in early) is not person


async def nothing_left_screen(size: tuple[int, int], lang: str) -> str:
    """The game screen once nothing is left to draw and Ana has drawn nothing once."""
    game = exhausting_game()
    session = Session(game.rules, [Scripted()], names=["Ana", "Beto"], pace=0, window=0, game=game, save=False)
    app = UnomasApp(translator(lang), session=session)
    async with app.run_test(size=size) as pilot:
        for _ in range(40):
            await pilot.pause()
            if session.waiting_for_person():
                if wording.nothing_to_draw(session.view()) and session.game.ply > 10:
                    break
                await pilot.press("d")
        await pilot.pause()
        shown = screen_text(app)
        await pilot.press("q")
    return shown


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(
    ("lang", "said", "offered"),
    [
        ("en", "Nothing is left to draw: a draw takes no card and ends your turn.", "d draw (nothing left)"),
        ("es", "No queda nada que robar: robar no te da ninguna carta y termina tu turno.", "d robar (no queda nada)"),
    ],
)
def test_the_game_screen_says_when_nothing_is_left_to_draw_at_every_size(
    size: tuple[int, int], lang: str, said: str, offered: str
) -> None:
    shown = asyncio.run(nothing_left_screen(size, lang))
    flat = " ".join(shown.replace("│", " ").split())
    assert said in flat and offered in flat
    drew = describe([Drew(1, 0, None, "turn")], ["Ana", "Beto"], translator(lang))
    assert drew in flat  # the narration's line, wrapped to the width, none of it hidden


async def draw_then_enter(force: bool) -> list[Event]:
    game = make_game([["R1", "G2"], ["Y3", "Y4"]], ["B9", "Y5", "B7"], target_score=0, force_play_drawn=force)
    session = Session(game.rules, [Scripted()], names=["Ana", "Beto"], pace=0, window=0, game=game, save=False)
    app = UnomasApp(translator("en"), session=session)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        await pilot.press("d")  # Ana draws B7, which she may play: the cursor goes to it
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("q")
    return [event for _action, events in session.history for event in events]


@pytest.mark.parametrize("force", [False, True])
def test_enter_after_drawing_a_playable_card_plays_it(force: bool) -> None:
    seen = asyncio.run(draw_then_enter(force))
    assert Played(0, parse_card("B7"), None, None, False, False) in seen


async def setup_screen(size: tuple[int, int], lang: str) -> str:
    app = UnomasApp(translator(lang), setup=Setup(players=2, bots=["heuristic"]), make_session=lambda _setup: None)  # type: ignore[arg-type,return-value]
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        shown = screen_text(app)
        await pilot.press("escape")
    return shown


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(
    ("lang", "heading", "seat"),
    [
        ("en", "New match (Tab moves, Space toggles, Enter on Play starts)", "Seat 1: bot"),
        ("es", "Nueva partida (Tab avanza, Espacio marca, Intro en Jugar empieza)", "Asiento 1: bot"),
    ],
)
def test_the_setup_screen_s_heading_and_drop_downs_are_whole_at_every_size(
    size: tuple[int, int], lang: str, heading: str, seat: str
) -> None:
    shown = asyncio.run(setup_screen(size, lang))
    lines = shown.splitlines()
    assert heading in " ".join(" ".join(lines[:3]).split())  # wrapped where it must be, never cut
    level = translator(lang).gettext("heuristic (3)")
    drop_downs = [line for line in lines if "▼  ▎" in line]
    # players and the bot's level first (a tall screen shows the UNO penalty's and the teams' too)
    assert len(drop_downs) in (2, 3, 4) and any(level in line for line in drop_downs[:2])
    if len(drop_downs) == 4:
        assert translator(lang).gettext("No teams") in drop_downs[3]
    assert any(line.startswith(seat) for line in lines)


async def level_choices(lang: str) -> list[tuple[str, str]]:
    app = UnomasApp(translator(lang), setup=Setup(players=2, bots=["heuristic"]), make_session=lambda _setup: None)  # type: ignore[arg-type,return-value]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        choices = [(str(prompt), str(spec)) for prompt, spec in app.screen.query_one("#bot-1", Select)._options]
        await pilot.press("escape")
    return choices


@pytest.mark.parametrize(
    ("lang", "default", "strongest"),
    [
        ("en", "forgets UNO 20% of the time, misses 25% of catches", "never forgets UNO, always catches"),
        ("es", "olvida cantar UNO el 20 % de las veces y no pilla el 25 %", "nunca olvida el UNO y siempre pilla"),
    ],
)
def test_the_setup_screen_says_how_often_each_level_forgets_uno_and_misses_a_catch(
    lang: str, default: str, strongest: str
) -> None:
    choices = dict((spec, prompt) for prompt, spec in asyncio.run(level_choices(lang)))
    assert list(choices) == [level.spec for level in LEVELS]
    assert choices["heuristic"] == f"{translator(lang).gettext('heuristic (3)')} · {default}"
    assert choices[LEVELS[-1].spec].endswith(strongest)
    assert all(prompt.endswith(bot_slips(spec, lang)) for spec, prompt in choices.items())


async def catch_out_of_turn() -> list[Action | None]:
    """Seat 1 (a bot) plays R2 and forgets UNO while seat 2 (a bot) is on turn: Ana catches
    him within the reaction window, which holds both bots back."""
    game = make_game([["R1", "G5"], ["R2", "B4"], ["G7", "G8"]], ["R9"], target_score=0)
    session = Session(game.rules, [Scripted(), Scripted()], game=game, pace=0, window=60, save=False)
    app = UnomasApp(translator("en"), session=session)
    async with app.run_test(size=(80, 24)) as pilot:
        while not session.chance_open():
            await pilot.pause()
        await pilot.pause(0.3)  # longer than the bots' pace: they wait for Ana
        await pilot.press("c")
        while session.view().ply < 2:
            await pilot.pause()
        await pilot.press("q")
    return [action for action, _events in session.history]


def test_a_person_catches_a_bot_out_of_turn_while_the_bots_wait_the_window() -> None:
    actions = asyncio.run(catch_out_of_turn())
    assert actions[:3] == [None, Action.play(1, parse_card("R2")), Action.catch(0, 1)]


async def pick_then_escape(lang: str) -> tuple[str, str, int]:
    """Ana picks her Wild (the colour picker opens), then changes her mind with Esc."""
    session = stacked_session_for_keys()
    app = UnomasApp(translator(lang), session=session)
    async with app.run_test(size=(80, 24)) as pilot:
        while not session.waiting_for_person():
            await pilot.pause()
        cards = wording.hand_cards(session.view())
        await pilot.press(str(cards.index(parse_card("W")) + 1), "enter")
        await pilot.pause()
        picking = screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        after = screen_text(app)
        ply = session.view().ply
        await pilot.press("q")
    return picking, after, ply


def stacked_session_for_keys() -> Session:
    game = stacked_game()
    return Session(game.rules, [Scripted()], names=["Ana", "Beto"], game=game, pace=0, save=False)


@pytest.mark.parametrize(("lang", "back"), [("en", "Esc back"), ("es", "Esc volver")])
def test_esc_closes_the_colour_picker_and_plays_nothing(lang: str, back: str) -> None:
    picking, after, ply = asyncio.run(pick_then_escape(lang))
    t = translator(lang)
    choose = t.gettext("Choose a colour: {choices}").split("{")[0]
    assert choose in picking and back in " ".join(picking.split())
    assert choose not in after and t.gettext("Your turn: play a card or draw.") in after
    assert ply == 1  # only Beto's G2: Ana has not played


async def keys_not_offered(keys: str) -> list[str]:
    """The prompt after each key Ana presses on her turn that her view does not offer."""
    session = stacked_session_for_keys()
    app = UnomasApp(translator("es"), session=session)
    prompts: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        while not session.waiting_for_person():
            await pilot.pause()
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
            prompts.append(str(app.screen.query_one("#prompt").render()))
        await pilot.press("q")
    return prompts


def test_a_key_the_view_does_not_offer_gets_the_engine_s_reason_on_the_screen() -> None:
    prompts = asyncio.run(keys_not_offered("cx"))
    assert prompts == [error_text("move.nobody_to_catch", {}, "es"), error_text("move.nothing_to_challenge", {}, "es")]


class Reconnecting(Session):
    """A table whose connection is being restored (as a room's seat says while it is)."""

    def trouble(self) -> UnoError | None:
        return UnoError("client.reconnecting")


async def keys_while_reconnecting() -> str:
    game = stacked_game()
    session = Reconnecting(game.rules, [Scripted()], names=["Ana", "Beto"], game=game, pace=0, save=False)
    app = UnomasApp(translator("en"), session=session)
    async with app.run_test(size=(80, 24)) as pilot:
        while not session.waiting_for_person():
            await pilot.pause()
        await pilot.pause()
        shown = screen_text(app)
        await pilot.press("q")
    return shown


def test_while_the_connection_is_restored_the_footer_offers_no_move() -> None:
    lines = asyncio.run(keys_while_reconnecting()).splitlines()
    assert "The connection was lost; reconnecting…" in lines
    assert lines[-1].split() == ["?", "help", "q", "quit"]  # no play, no draw: they would be dropped
