"""``unomas play --plain``, the command's options, ``replay --watch``, and the real program under tmux."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import unomas
from tui_fixtures import Crashing, Scripted, exhausting_game, play_out, stacked_game
from unomas import record
from unomas.actions import Kind
from unomas.cards import parse_card
from unomas.cli.app import app
from unomas.errors import IllegalAction, RecordError, SettingsError, StaleAction, UnoError
from unomas.i18n import error_text, translator, wording
from unomas.rules import Rules
from unomas.runs.plot import PLOT_INSTALL
from unomas.testing import draw, make_game
from unomas.tui import plain
from unomas.tui.app import UnomasApp
from unomas.tui.session import NAMES, ResumeError, Session, Setup, Watch

runner = CliRunner()


@pytest.fixture(autouse=True)
def data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("UNOMAS_DATA", str(tmp_path))
    return tmp_path


def run_plain(lang: str, answers: list[str]) -> tuple[Session, list[str]]:
    game = stacked_game()
    session = Session(game.rules, [Scripted()], names=["Ana", "Beto"], game=game, pace=0, save=False)
    written: list[str] = []
    feed: Iterator[str] = iter(answers)

    def read(prompt: str) -> str:
        written.append(prompt)
        answer = next(feed, None)
        if answer is None:
            raise EOFError  # as input() at the end of its input
        return answer

    plain.run(session, translator(lang), read, written.append)
    return session, written


def test_plain_mode_plays_the_stacked_match_in_spanish() -> None:
    answers = ["zz", "9", "1", "c", "2", "2 y u", "x", "1 q", "1"]
    session, out = run_plain("es", answers)
    assert session.game.winner == 0 and session.game.scores == [21, 0]
    text = "\n".join(out)
    assert "No se entiende: 'zz'." in text and "No hay carta 9." in text
    assert "Elige color: r = Rojo (0), y = Amarillo (0), g = Verde (0), b = Azul (1)" in text
    assert "Ana pilla a Beto sin cantar UNO: Beto roba 2 por no cantar UNO." in text
    assert "Ana juega Comodín (W) y elige amarillo: ¡Ana canta UNO!\n" in text + "\n"
    assert "Beto desafía" not in text and "Ana desafía a Beto: el Comodín roba cuatro era un farol." in text
    assert "Tu mano (*: jugable; (nueva): desde tu último turno): 1:B5 2:*W" in text
    assert "¡Ana gana la partida!" in text


def test_plain_mode_quits_on_q_or_the_end_of_input() -> None:
    session, out = run_plain("en", ["q"])
    assert not session.game.is_over and "Your turn: play a card or draw." in "\n".join(out)
    session, _ = run_plain("en", ["1"])
    assert not session.game.is_over


def test_plain_mode_lets_a_chance_go_and_deals_the_next_round() -> None:
    session = Session(Rules(players=3, target_score=30), [Scripted(), Scripted()], pace=0, save=False, seed=4)

    def answer(_prompt: str) -> str:
        """Let chances go, play the first playable card, else draw or keep it."""
        view = session.view()
        if session.game.round_over or session.chance_open():
            return ""
        marked = wording.playable(view)
        for number, card in enumerate(wording.hand_cards(view), start=1):
            if card in marked:
                return f"{number} r u" if card >= 52 else f"{number} u"
        return "d" if any(a.kind is Kind.DRAW for a in view.legal_actions) else "p"

    out: list[str] = []
    plain.run(session, translator("en"), answer, out.append)
    assert session.game.is_over
    assert any("wins the round" in line for line in out) and any("total" in line for line in out)


def test_a_failing_bot_ends_the_line_mode_with_one_line(data_folder: Path) -> None:
    game = stacked_game()
    session = Session(game.rules, [Crashing()], names=["Ana", "Beto"], game=game, pace=0)
    out: list[str] = []
    plain.run(session, translator("es"), lambda _prompt: "", out.append)
    assert out[-2:] == [
        "El bot del asiento 1 (crashing) se ha colgado: RuntimeError: out of order",
        "La partida está guardada: unomas play --resume la continúa.",
    ]
    assert session.path is not None and session.path.is_file()


@pytest.mark.parametrize(
    ("error", "english", "spanish"),
    [
        (
            StaleAction(3, 4),
            "Too late: the game moved on before your move arrived.",
            "Demasiado tarde: la partida siguió antes de que llegara tu jugada.",
        ),
        (
            SettingsError("setup.players_range", value=0),
            "A match has 2 to 10 players, not 0.",
            "Una partida tiene de 2 a 10 jugadores, no 0.",
        ),
        (
            SettingsError("setup.bot_count", players=3, bots=2, given=1),
            "3 players need 2 bots, not 1",
            "3 jugadores necesitan 2 bots, no 1",
        ),
        (
            IllegalAction("move.not_your_turn", action="0 draw", current=1),
            "it is player 1's turn",
            "es el turno del jugador 1",
        ),
        (
            ResumeError(Path("a.json"), "resume.finished"),
            "a.json: that match is over.",
            "a.json: esa partida ya ha terminado.",
        ),
        (
            ResumeError(Path("b.json"), "resume.no_person"),
            "b.json: not a match of a person against bots.",
            "b.json: no es una partida de una persona contra bots.",
        ),
        (
            SettingsError("setup.not_integer", name="target_score", value="'x'"),
            "target_score must be a whole number, not 'x'.",
            "target_score debe ser un número entero, no 'x'.",
        ),
        (
            RecordError("record.no_rounds"),
            "rounds must be a non-empty list",
            "rounds debe ser una lista no vacía",
        ),
    ],
)
def test_the_terminal_says_errors_by_their_code(error: UnoError, english: str, spanish: str) -> None:
    assert wording.error_line(error, translator("en")) == english
    assert wording.error_line(error, translator("es")) == spanish


def test_plain_mode_quits_or_goes_on_at_the_end_of_a_round(data_folder: Path) -> None:
    for last, rounds in (("q", 0), ("", 1)):
        game = stacked_game(target_score=500)
        session = Session(game.rules, [Scripted()], names=["Ana", "Beto"], game=game, pace=0)
        out: list[str] = []
        answers = iter(["1", "c", "2 y u", "x", "1", last])

        def read(_prompt: str, answers: Iterator[str] = answers) -> str:
            answer = next(answers, None)
            if answer is None:
                raise EOFError
            return answer

        plain.run(session, translator("en"), read, out.append)
        assert session.game.round == rounds and out[-1] == "The match is saved: unomas play --resume continues it."


def test_play_command_in_plain_mode_saves_the_record(data_folder: Path) -> None:
    result = runner.invoke(
        app,
        ["play", "--plain", "--players", "2", "--bots", "random", "--pace", "0", "--lang", "en", "--seed", "3"],
        input="q\n",
    )
    assert result.exit_code == 0, result.output
    assert "Round 1:" in result.output
    (saved,) = (data_folder / "records").glob("*.json")
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["bots"] == [None, "random"] and data["winner"] is None
    resumed = runner.invoke(app, ["play", "--plain", "--resume", "--pace", "0", "--lang", "es"], input="q\n")
    assert resumed.exit_code == 0, resumed.output
    assert "Ronda 1" in resumed.output
    assert len(list((data_folder / "records").glob("*.json"))) == 1


@pytest.mark.parametrize(
    ("flags", "english", "spanish"),
    [
        (["--players", "11"], "A match has 2 to 10 players, not 11.", "Una partida tiene de 2 a 10 jugadores, no 11."),
        (
            ["--bots", "nobody", "--players", "2"],
            "--bots: 'nobody' is not a bot (the levels are random, playfirst, heuristic, ismcts, learned, or"
            " cmd:COMMAND for a program).",
            "--bots: 'nobody' no es un bot (los niveles son random, playfirst, heuristic, ismcts, learned, o cmd:ORDEN"
            " para un programa).",
        ),
        (
            ["--bots", "ismcts:iterations=x"],
            "--bots: 'ismcts:iterations=x' is not a bot (the levels are random, playfirst, heuristic, ismcts, learned,"
            " or cmd:COMMAND for a program).",
            "--bots: 'ismcts:iterations=x' no es un bot (los niveles son random, playfirst, heuristic, ismcts, learned,"
            " o cmd:ORDEN para un programa).",
        ),
        (
            ["--set", "jump_in=maybe"],
            "jump_in must be true or false, not 'maybe'.",
            "jump_in debe ser true o false, no 'maybe'.",
        ),
        (
            ["--set", "target_score=-5"],
            "The target score must be 0 or more, not -5.",
            "Los puntos para ganar deben ser 0 o más, no -5.",
        ),
        (
            ["--set", "nope"],
            "A setting is written NAME=VALUE, not 'nope'.",
            "Un ajuste se escribe NOMBRE=VALOR, no 'nope'.",
        ),
        (
            ["--pace", "-1"],
            "--pace is a number of seconds, 0 or more, not -1.0.",
            "--pace es un número de segundos, 0 o más, no -1.0.",
        ),
        (["--lang", "fr"], "--lang: Unknown language: fr. (es, en)", "--lang: Unknown language: fr. (es, en)"),
    ],
)
def test_bad_play_flags_are_one_line_in_the_user_s_language_and_exit_2(
    flags: list[str], english: str, spanish: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANGUAGE", "en")
    for lang, words in (("en", english), ("es", spanish)):
        given = flags if "--lang" in flags else [*flags, "--lang", lang]
        result = runner.invoke(app, ["play", "--plain", *given])
        assert result.exit_code == 2 and result.stderr == words + "\n" and result.stdout == ""


@pytest.mark.parametrize(
    ("args", "english", "spanish"),
    [
        (
            ["simulate", "--players", "11"],
            "A match has 2 to 10 players, not 11.",
            "Una partida tiene de 2 a 10 jugadores, no 11.",
        ),
        (
            ["simulate", "--games", "x"],
            "--games takes a whole number, not x. (unomas simulate --help)",
            "--games lleva un número entero, no x. (unomas simulate --help)",
        ),
        (
            ["simulate", "--games", "0"],
            "--games must be 1 or more, not 0. (unomas simulate --help)",
            "--games debe ser 1 o más, no 0. (unomas simulate --help)",
        ),
        (
            ["simulate", "--policy", "clever"],
            "--policy: there is no policy 'clever' (the policies are playfirst, random).",
            "--policy: no existe la política 'clever' (las políticas son playfirst, random).",
        ),
        (
            ["simulate", "--backend", "moon"],
            "--backend: there is no backend moon (the backends are local, ray).",
            "--backend: no existe el backend moon (los backends son local, ray).",
        ),
        (["simulate", "--address", "h:1"], "--address is for --backend ray.", "--address es para --backend ray."),
        (
            ["simulate", "--nope"],
            "There is no option --nope. (unomas simulate --help)",
            "No existe la opción --nope. (unomas simulate --help)",
        ),
        (
            ["simulate", "more"],
            "unomas simulate takes no arguments (given: more).",
            "unomas simulate no lleva argumentos (se dio: more).",
        ),
        (["simulate", "--games"], "--games needs a value.", "--games necesita un valor."),
        (["tournament"], "Give at least one bot: --bots or --bot.", "Da al menos un bot: --bots o --bot."),
        (
            ["tournament", "--bots", "random"],
            "A tournament needs 2 seats or more: give two bots or more, or --players.",
            "Un torneo necesita 2 asientos o más: da dos bots o más, o --players.",
        ),
        (
            ["tournament", "--bots", "random,wizard"],
            "--bots: 'wizard' is not a bot (the bots are random, playfirst, heuristic, ismcts, learned, or cmd:COMMAND"
            " for a program).",
            "--bots: 'wizard' no es un bot (los bots son random, playfirst, heuristic, ismcts, learned, o cmd:ORDEN"
            " para un programa).",
        ),
        (
            ["tournament", "--bots", "random,random,random", "--players", "2"],
            "3 bots need 3 seats or more, not 2.",
            "3 bots necesitan 3 asientos o más, no 2.",
        ),
        (
            ["tournament", "--bots", "random,random", "--set", "target_score=-5"],
            "The target score must be 0 or more, not -5.",
            "Los puntos para ganar deben ser 0 o más, no -5.",
        ),
        (
            ["serve", "--port", "0"],
            "--port must be 1 or more, not 0. (unomas serve --help)",
            "--port debe ser 1 o más, no 0. (unomas serve --help)",
        ),
        (["replay"], "FILE is missing. (unomas replay --help)", "Falta FILE. (unomas replay --help)"),
        (
            ["dance"],
            "There is no command dance (the commands are simulate, tournament, play, replay, serve, bot, host, mcp,"
            " train).",
            "No existe la orden dance (las órdenes son simulate, tournament, play, replay, serve, bot, host, mcp,"
            " train).",
        ),
        (["play", "--players", "x"], "--players takes a whole number, not x. (unomas play --help)", None),
        (
            ["play", "--players", "x", "--lang", "es"],
            "--players lleva un número entero, no x. (unomas play --help)",
            "--players lleva un número entero, no x. (unomas play --help)",
        ),
        (
            ["play", "--lang=en", "--zzz"],
            "There is no option --zzz. (unomas play --help)",
            "There is no option --zzz. (unomas play --help)",
        ),
    ],
)
def test_every_command_s_bad_options_are_one_line_in_the_user_s_language_and_exit_2(
    args: list[str], english: str, spanish: str | None
) -> None:
    for lang, words in (("en", english), ("es", spanish)):
        if words is None:
            continue
        result = runner.invoke(app, args, env={"LANGUAGE": lang}, prog_name="unomas")
        assert (result.exit_code, result.stderr, result.stdout) == (2, words + "\n", ""), lang


def test_resuming_with_nothing_to_resume_is_one_line_and_exit_1() -> None:
    result = runner.invoke(app, ["play", "--resume", "--lang", "en"])
    assert result.exit_code == 1 and result.stderr == "There is no unfinished match to resume.\n"


@pytest.mark.parametrize("command", [[], ["play"], ["replay"], ["simulate"], ["tournament"], ["serve"]])
def test_help_names_values_by_metavar_not_by_python_type(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0
    for python in ("<", "{files}", "{FILE}", "x>=", "_PRESET", "RULES"):
        assert python not in result.output
    if command == ["replay"]:
        assert "replay [OPTIONS] FILE..." in result.output
    if command == ["simulate"]:
        for shown in ("--games    -n      N ", "--rules            PRESET ", "--records          FILE "):
            assert shown in result.output
        assert "(a Ray cluster, unomas[ray])" in result.output  # not taken for markup


def test_play_command_flags_choose_the_rules(data_folder: Path) -> None:
    result = runner.invoke(
        app,
        ["play", "--plain", "--players", "3", "--bots", "heuristic", "--rules", "all", "--set", "target_score=50"],
        input="q\n",
    )
    assert result.exit_code == 0, result.output
    (saved,) = (data_folder / "records").glob("*.json")
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["rules"]["jump_in"] and data["rules"]["target_score"] == 50
    assert data["bots"] == [None, "heuristic", "heuristic"]


def test_broken_or_finished_records_are_not_resumed(data_folder: Path) -> None:
    folder = data_folder / "records"
    folder.mkdir()
    (folder / "a.json").write_text('{"format": "unomas-record/1", "winner": null}', encoding="utf-8")
    result = runner.invoke(app, ["play", "--resume", "--lang", "en"])
    assert result.exit_code == 1 and "rules" in result.output


def finished_record(tmp_path: Path) -> Path:
    game = stacked_game()
    session = Session(game.rules, [Scripted()], names=["Ana", "Beto"], game=game, pace=0, save=False)
    asyncio.run(play_out(session))
    path = tmp_path / "match.json"
    path.write_text(record.dumps(record.to_json(session.game, names=session.names, person=0)), encoding="utf-8")
    return path


async def watch_keys(path: Path) -> tuple[str, str]:
    watched = Watch(json.loads(path.read_text(encoding="utf-8")))
    app = UnomasApp(translator("en"), watch=watched)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for key in ["right", "space", "n", "right", "left"]:
            await pilot.press(key)
        await pilot.pause()
        screen = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
        position = str(watched.position)
        await pilot.press("q")
    return screen, position


def test_replay_watch_steps_through_a_record_on_the_game_screen(tmp_path: Path) -> None:
    screen, position = asyncio.run(watch_keys(finished_record(tmp_path)))
    assert position == "3"
    assert "Beto plays Green 2 (G2)." in screen and "Ana plays Wild (W) and chooses Blue." in screen
    assert "→/space: next" in screen


def test_replay_watch_refuses_a_bad_record(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "nope"}', encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path), "--watch"])
    assert result.exit_code == 1 and "format must be" in result.output


def test_replay_watch_refuses_a_bad_record_in_the_reader_s_language(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "nope"}', encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path), "--watch", "--lang", "es"])
    assert result.exit_code == 1
    assert result.output.splitlines() == [f"{path}: format debe ser 'unomas-record/1', no 'nope'"]


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=True, timeout=30).stdout


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (CI installs it)")
@pytest.mark.parametrize(("width", "height", "lang"), [(60, 20, "es"), (80, 24, "en"), (120, 40, "es")])
def test_the_real_program_under_tmux(data_folder: Path, width: int, height: int, lang: str) -> None:
    program = Path(sys.executable).parent / "unomas"
    name = f"unomas-smoke-{os.getpid()}-{width}"
    command = f"UNOMAS_DATA={data_folder} {program} play --players 2 --bots random --pace 0.2 --lang {lang} --seed 7"
    words = {
        "es": ("Tu turno", "Tienes que robar", "Ronda 1", "Mazo:", "(tú)", "Ana roba", "Teclas", "La partida está"),
        "en": ("Your turn", "You must draw", "Round 1", "Pile:", "(you)", "Ana draws", "Keys", "The match is saved"),
    }[lang]
    turn, penalty, round_one, pile, you, draws, keys, saved = words
    # The program starts once the window has its size; the pane stays after it ends.
    tmux("new-session", "-d", "-s", name, "-x", str(width), "-y", str(height), f"sleep 0.5; {command}; sleep 60")
    tmux("resize-window", "-t", name, "-x", str(width), "-y", str(height))
    try:
        screen = ""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            screen = tmux("capture-pane", "-p", "-t", name)
            if turn in screen or penalty in screen:
                break
            time.sleep(0.5)
        assert round_one in screen and pile in screen and you in screen
        lines = screen.rstrip("\n").split("\n")
        assert len(lines) <= height and max(len(line) for line in lines) <= width
        tmux("send-keys", "-t", name, "d")
        time.sleep(2)
        assert draws in tmux("capture-pane", "-p", "-t", name)
        tmux("send-keys", "-t", name, "?")
        time.sleep(1)
        assert keys in tmux("capture-pane", "-p", "-t", name)
        tmux("send-keys", "-t", name, "Escape")
        time.sleep(0.5)
        tmux("send-keys", "-t", name, "q")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and saved not in tmux("capture-pane", "-p", "-t", name):
            time.sleep(0.3)
        assert "unomas play --resume" in tmux("capture-pane", "-p", "-t", name)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True, check=False)
    (record_file,) = (data_folder / "records").glob("*.json")
    assert json.loads(record_file.read_text(encoding="utf-8"))["rounds"][0]["events"]


def plain_transcript(answers: list[str], **settings: object) -> str:
    """Ana at seat 1 holds R7, B5 and a Wild (shown in that order) and plays first."""
    game = make_game([["G2", "G3", "Y4"], ["W", "R7", "B5"], ["G5", "G6", "Y8"]], ["R9"], **settings)
    session = Session(game.rules, [Scripted(), Scripted()], person=1, game=game, pace=0, save=False)
    feed = iter(answers)
    written: list[str] = []

    def read(prompt: str) -> str:
        written.append(prompt)
        answer = next(feed, None)
        if answer is None:
            raise EOFError
        return answer

    plain.run(session, translator("en"), read, written.append)
    return "\n".join(written)


@pytest.mark.parametrize("answers", [["3", "r"], ["3r"], ["3 r"], ["3", "r u"]])
def test_plain_mode_takes_a_wild_s_colour_with_the_card_or_as_the_answer_to_its_question(answers: list[str]) -> None:
    out = plain_transcript(answers)
    assert "Beto plays Wild (W) and chooses Red." in out
    if len(answers) == 2:
        assert "Choose a colour: r = Red (1), y = Yellow (0), g = Green (0), b = Blue (1) " in out
        assert "Not understood" not in out


@pytest.mark.parametrize("answers", [["1", "2"], ["1@2"], ["1 @2"], ["1", "@2"]])
def test_plain_mode_takes_a_seven_s_target_with_the_card_or_as_the_answer_to_its_question(answers: list[str]) -> None:
    out = plain_transcript(answers, seven_zero=True)
    assert "Beto plays Red 7 (R7): Beto swaps hands with Carla." in out
    assert "Not understood" not in out


def test_plain_mode_goes_back_to_the_question_on_an_empty_follow_up_and_explains_help() -> None:
    out = plain_transcript(["3", "", "?", "3", "z"])
    assert out.count("Choose a colour:") == 2
    assert "Not understood: 'z'." in out
    assert "Keys\n" in out and "  N r, Nr = a wild card with its colour (r, y, g or b)" in out
    assert "Rules\n  Official rules · to 500 points · 3 cards each\n  [x] Challenge the Wild Draw Four:" in out


def test_play_flags_start_from_the_official_rules_not_the_last_setup_screen(data_folder: Path) -> None:
    Setup(players=3, bots=["random"], settings={"jump_in": True, "seven_zero": True, "target_score": 100}).save()
    flags = ["play", "--plain", "--players", "2", "--bots", "playfirst", "--set", "target_score=0", "--lang", "en"]
    result = runner.invoke(app, flags, input="q\n")
    assert result.exit_code == 0, result.output
    (saved,) = (data_folder / "records").glob("*.json")
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["rules"] == Rules(players=2, target_score=0).to_dict()
    assert result.output.splitlines()[0] == "Official rules · a single round"
    again = runner.invoke(app, ["play", "--plain", "--pace", "0", "--lang", "es"], input="q\n")
    assert again.output.splitlines()[0] == "Reglas oficiales + Regla 7-0, Cortar · a 100 puntos"  # the remembered setup


@pytest.mark.parametrize("lang", ["en", "es"])
def test_quitting_says_the_match_is_saved_and_how_to_resume_it(lang: str) -> None:
    result = runner.invoke(
        app, ["play", "--plain", "--players", "2", "--bots", "random", "--pace", "0", "--lang", lang], input="q\n"
    )
    said = {
        "en": "The match is saved: unomas play --resume continues it.",
        "es": "La partida está guardada: unomas play --resume la continúa.",
    }
    assert result.exit_code == 0 and result.output.splitlines()[-1].endswith(f"> {said[lang]}")  # after the prompt


def test_resume_refuses_the_flags_it_would_ignore_in_one_line() -> None:
    result = runner.invoke(app, ["play", "--resume", "--players", "7", "--set", "jump_in=true", "--lang", "en"])
    assert result.exit_code == 2
    assert result.output == "--resume continues a saved match as it was: it takes no --players, --set.\n"


def test_the_version_and_the_extras_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    version = runner.invoke(app, ["--version"])
    assert version.exit_code == 0 and version.output == f"unomas {unomas.__version__}\n"
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    serve = runner.invoke(app, ["serve"])
    assert serve.exit_code == 1 and "pip install 'unomas[server]'" in serve.output
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert PLOT_INSTALL.removeprefix("pip install ") in readme


@pytest.mark.parametrize("watch", [False, True])
def test_replay_of_a_directory_or_an_empty_file_is_one_line_and_exit_1(tmp_path: Path, watch: bool) -> None:
    empty = tmp_path / "empty.json"
    empty.write_text("\n", encoding="utf-8")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00")
    missing = tmp_path / "missing.json"
    cases = {
        tmp_path: ("a directory, not a record file", "es una carpeta, no un archivo de registro"),
        empty: ("empty, no record in it", "está vacío, no hay ningún registro"),
        missing: ("no such file", "no existe el archivo"),
        binary: (
            "not a text file (records are UTF-8 JSON)",
            "no es un archivo de texto (los registros son JSON en UTF-8)",
        ),
    }
    for path, (english, spanish) in cases.items():
        for lang, words in (("en", english), ("es", spanish)):
            args = ["replay", str(path), *(["--watch"] if watch else []), "--lang", lang]
            result = runner.invoke(app, args)
            assert (result.exit_code, result.output) == (1, f"{path}: {words}\n"), (path, lang)


def test_plain_mode_marks_new_cards_sorts_on_s_and_remembers_it(data_folder: Path) -> None:
    _session, out = run_plain("en", ["d", "s"])
    hands = [line for line in out if line.startswith("Your hand")]
    assert hands[0] == "Your hand (*: playable; (new): since your last turn): 1:*G7 2:B5 3:*W"
    assert hands[1].endswith("1:Y1(new) 2:*G7 3:B5 4:*W")
    assert hands[2].endswith("1:*G7 2:*W 3:B5 4:Y1(new)")  # s: in the order the cards came
    assert Setup.load().sort_hand is False
    _session, out = run_plain("en", ["s", "s"])
    assert Setup.load().sort_hand is True


def test_the_colour_picker_counts_the_cards_of_each_colour() -> None:
    out = plain_transcript(["3"])
    assert "Choose a colour: r = Red (1), y = Yellow (0), g = Green (0), b = Blue (1) " in out


@pytest.mark.parametrize(
    ("hand", "settings", "english", "spanish"),
    [
        (["R2", "R3"], {}, "You must draw 2.", "Tienes que robar 2."),
        (["R+2", "R3"], {}, "You must draw 2.", "Tienes que robar 2."),
        (
            ["R+2", "R3"],
            {"stack_draw_two": True},
            "You must draw 2: draw, or answer with a card.",
            "Tienes que robar 2: roba, o responde con una carta de robo.",
        ),
    ],
)
def test_a_penalty_offers_an_answer_only_when_the_engine_has_one(
    hand: list[str], settings: dict[str, bool], english: str, spanish: str
) -> None:
    game = make_game([hand, ["R+2", "G5"]], ["R9"], **settings)
    game.apply(next(a for a in game.legal_actions(1) if a.kind is Kind.PLAY and a.card == parse_card("R+2")))
    view = game.view(0)
    assert wording.prompt(view, ["Ana", "Beto"], translator("en")) == english
    assert wording.prompt(view, ["Ana", "Beto"], translator("es")) == spanish


def test_a_wild_draw_four_s_penalty_offers_the_challenge() -> None:
    game = make_game([["R2", "R3"], ["W+4", "G5"]], ["R9"])
    game.apply(next(a for a in game.legal_actions(1) if a.kind is Kind.PLAY and a.color == 1))
    assert wording.prompt(game.view(0), ["Ana", "Beto"], translator("en")) == "You must draw 4: draw, or challenge."


def test_the_spanish_words_of_the_terminal_read_naturally() -> None:
    from unomas.bots.levels import LEVELS
    from unomas.i18n import bot_label
    from unomas.i18n.switches import switch_groups

    groups = {group.title: [switch.title for switch in group.switches] for group in switch_groups("es")}
    assert groups["Cartas de robo"][1:4] == [
        "Roba dos sobre Roba dos",
        "Comodín roba cuatro sobre otro",
        "Roba dos sobre Comodín roba cuatro, y al revés",
    ]
    assert "Jugadas" in groups and translator("es").gettext("Play") == "Jugar"
    labels = [bot_label(level.spec, "es") for level in LEVELS]
    assert labels == [
        "aleatorio (1, el más fácil)",
        "primera que sirva (2)",
        "heurístico (3)",
        "Montecarlo 300 (4)",
        "Montecarlo 1500 (5)",
        "red aprendida (6, el más fuerte)",
    ]
    assert translator("es").gettext("You drew {card}: play it or keep it.") == "Has robado {card}: juégala o quédatela."
    out_text = "\n".join(run_plain("es", ["1", "c", "2 y u"])[1])
    assert "Ana juega Comodín (W) y elige amarillo: ¡Ana canta UNO!" in out_text
    assert "échala" not in out_text


@pytest.mark.parametrize(
    ("lang", "drew", "prompt", "offer"),
    [
        (
            "en",
            "Ana draws nothing: the draw pile and the discard pile are used up.",
            "Your turn: play a card or draw. Nothing is left to draw: a draw takes no card and ends your turn.",
            "d = draw (nothing left)",
        ),
        (
            "es",
            "Ana no roba nada: se han agotado el mazo y los descartes.",
            "Tu turno: juega una carta o roba. No queda nada que robar: robar no te da ninguna carta y termina tu"
            " turno.",
            "d = robar (no queda nada)",
        ),
    ],
)
def test_plain_mode_says_when_nothing_is_left_to_draw_and_still_offers_the_draw(
    lang: str, drew: str, prompt: str, offer: str
) -> None:
    game = exhausting_game()
    session = Session(game.rules, [Scripted()], names=["Ana", "Beto"], game=game, pace=0, save=False)
    out: list[str] = []
    answers = iter(["d"] * 6)
    plain.run(session, translator(lang), lambda _prompt: next(answers, "q"), out.append)
    assert out.count(prompt) == 3  # the last two draws, and the question that came then
    offers = [line for line in out if line.startswith("N = ")]
    assert len(offers) == 7 and all(offer in line for line in offers[-3:]) and offer not in offers[-4]
    assert out.count(drew) == 2 and out.count(drew.replace("Ana", "Beto")) == 2
    assert {a.kind for a in session.actions()} == {Kind.DRAW, Kind.PLAY}  # the engine's choices, both offered


@pytest.mark.parametrize(
    ("force", "english", "spanish"),
    [
        (False, "You drew Red 7 (R7): play it or keep it.", "Has robado 7 rojo (R7): juégala o quédatela."),
        (
            True,
            "You drew Red 7 (R7): play it (these rules do not let you keep it).",
            "Has robado 7 rojo (R7): juégala (estas reglas no te dejan quedártela).",
        ),
    ],
)
def test_a_drawn_card_is_offered_to_keep_only_where_the_rules_allow_it(force: bool, english: str, spanish: str) -> None:
    game = make_game([["G1", "G2"], ["Y3", "Y4"]], ["R9", "Y5", "R7"], target_score=0, force_play_drawn=force)
    draw(game, 1)  # Beto draws Y5, which does not match
    draw(game, 0)  # Ana draws R7, which does
    view = game.view(0)
    assert (Kind.PASS in {a.kind for a in view.legal_actions}) is not force
    for lang, words in (("en", english), ("es", spanish)):
        assert wording.prompt(view, ["Ana", "Beto"], translator(lang)) == words
        assert (dict(wording.offers(view, ["Ana", "Beto"], translator(lang))).get("p") is None) is force


@pytest.mark.parametrize(
    ("lang", "reason"),
    [
        ("en", "the last card may not be an action or wild card (no_action_finish)"),
        ("es", "la última carta no puede ser una carta de acción ni un comodín (no_action_finish)"),
    ],
)
def test_plain_mode_explains_a_refused_card_by_the_rule_that_forbids_it(lang: str, reason: str) -> None:
    game = make_game([["RS"], ["G1"]], ["R5", "Y1", "Y2"], target_score=0, no_action_finish=True)
    session = Session(game.rules, [Scripted()], names=["Ana", "Beto"], game=game, pace=0, save=False)
    out: list[str] = []
    answers = iter(["1", "1 u"])
    plain.run(session, translator(lang), lambda _prompt: next(answers, "q"), out.append)
    assert out.count(reason) == 2 and len(session.history) == 2  # Beto drew; Ana, refused twice, changed nothing


def test_plain_mode_says_why_the_rules_do_not_allow_a_key_now() -> None:
    game = make_game([["R1", "G2"], ["Y3", "Y4"]], ["B9", "Y5", "B7"], target_score=0, force_play_drawn=True)
    session = Session(game.rules, [Scripted()], names=["Ana", "Beto"], game=game, pace=0, save=False)
    out: list[str] = []
    answers = iter(["d", "p", "x", "c", "3"])
    plain.run(session, translator("en"), lambda _prompt: next(answers, "q"), out.append)
    assert error_text("move.must_play_drawn", {}, "en") in out  # p: the drawn card must be played
    assert error_text("move.nothing_to_challenge", {}, "en") in out  # x
    assert error_text("move.nobody_to_catch", {}, "en") in out  # c
    assert "Not understood" not in "\n".join(out)
    assert "Ana plays Blue 7 (B7)." in out


def test_what_an_action_caused_goes_on_after_its_colon_in_lower_case_but_names() -> None:
    from unomas.events import DirectionChanged, Event, HandsPassed, PenaltyPending, Played
    from unomas.i18n.narration import describe

    names = ["Ana", "Beto"]
    reverse: list[Event] = [Played(1, parse_card("BR"), None, None, False, False), DirectionChanged(-1)]
    zero: list[Event] = [Played(0, parse_card("Y0"), None, None, False, False), HandsPassed(1)]
    draw_two: list[Event] = [Played(1, parse_card("R+2"), None, None, False, False), PenaltyPending(0, 2, False)]
    assert describe(reverse, names, "es") == (
        "Beto juega Cambio de sentido azul (BR): ahora se juega en sentido contrario a las agujas del reloj."
    )
    assert describe(reverse, names, "en") == "Beto plays Blue Reverse (BR): play goes counter-clockwise now."
    assert describe(zero, names, "es") == (
        "Ana juega 0 amarillo (Y0): todas las manos pasan al siguiente en el sentido de las agujas del reloj."
    )
    assert describe(draw_two, names, "en") == "Beto plays Red Draw Two (R+2): Ana must draw 2."


def test_unomas_alone_shows_its_help_and_nothing_after_it() -> None:
    result = runner.invoke(app, [], env={"COLUMNS": "80"}, prog_name="unomas")
    assert result.exit_code == 2 and "Usage: unomas [OPTIONS] COMMAND" in result.stdout
    assert result.stdout.rstrip().endswith("╯") and result.stderr == ""


def test_plain_mode_wraps_its_lines_between_words_at_the_terminal_s_width() -> None:
    from unomas.tui.plain import fit

    line = (
        "N = play card N (add r/y/g/b for a wild, @SEAT for a 7, u for UNO); d = draw; ? = help; q = quit (saved)\n"
        "Round 1 · Top: Red Draw Two (R+2) · Colour: Red (R) · clockwise ↻ · Pile: 91"
    )
    for width in (40, 60, 80):
        rows = fit(line, width).split("\n")
        assert all(len(row) <= width for row in rows)
        assert " ".join(rows).split() == line.split()  # no word cut in two, none lost
    assert fit(line, 200) == line


@pytest.mark.parametrize(
    ("args", "start"),
    [
        (["host", "http://127.0.0.1:9"], 0),
        (["play", "--join", "http://127.0.0.1:9/r/ABCDEFGHJK"], 0),
        (["play", "--join", "http://127.0.0.1:9/nothing-here"], 1),
        (["play", "--join", "notaurl", "--name", "Ana"], None),  # a code, on the default server
    ],
)
@pytest.mark.parametrize(("lang", "starts"), [("en", ("Cannot reach", "--join")), ("es", ("No se puede", "--join"))])
def test_a_server_that_cannot_be_reached_is_one_line_in_the_reader_s_language(
    data_folder: Path, args: list[str], start: int | None, lang: str, starts: tuple[str, str]
) -> None:
    """The real command, at a port where nothing listens (9, discard). A bare code is
    looked for on the default server (127.0.0.1:8000), whatever answers there: one line."""
    program = Path(sys.executable).parent / "unomas"
    done = subprocess.run(
        [str(program), *args, "--lang", lang, "--plain"],
        capture_output=True,
        text=True,
        timeout=60,
        env=os.environ | {"UNOMAS_DATA": str(data_folder)},
        stdin=subprocess.DEVNULL,
    )
    lines = (done.stdout + done.stderr).strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in lines[0], lines
    assert done.returncode == (1 if start != 1 else 2)
    if start is not None:
        assert lines[0].startswith(starts[start])


CROWDED = "--players 10 --bots random --rules all --set challenge_wild_draw_four=false --pace 0.05 --seed 3"
"""Ten players, every house rule the official rules lack and without the one they have:
the longest rules line there is."""
STATUS_FIELD = {
    "es": r"Ronda \d+|Mesa: .+ \([A-Z0-9+]+\)|Color: .+ \([RYGB]\)|—|(anti)?horario [↻↺]|Mazo: \d+",
    "en": r"Round \d+|Top: .+ \([A-Z0-9+]+\)|Colour: .+ \([RYGB]\)|—|(counter-)?clockwise [↻↺]|Pile: \d+",
}


@contextlib.contextmanager
def tmux_window(command: str, width: int, height: int) -> Iterator[str]:
    """A tmux window of ``width`` × ``height`` running ``command``: its name."""
    name = f"unomas-crowd-{os.getpid()}-{width}-{time.monotonic_ns()}"
    tmux("new-session", "-d", "-s", name, "-x", str(width), "-y", str(height), f"sleep 0.5; {command}; sleep 60")
    tmux("resize-window", "-t", name, "-x", str(width), "-y", str(height))
    try:
        yield name
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True, check=False)


def shown_when(name: str, until: Callable[[str], bool], seconds: float = 60) -> str:
    """The screen of the tmux window ``name`` once ``until`` holds of it (or the last one)."""
    deadline = time.monotonic() + seconds
    screen = tmux("capture-pane", "-p", "-t", name)
    while time.monotonic() < deadline and not until(screen):
        time.sleep(0.3)
        screen = tmux("capture-pane", "-p", "-t", name)
    return screen


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (CI installs it)")
@pytest.mark.parametrize(("width", "height", "lang"), [(60, 20, "es"), (80, 24, "en"), (60, 20, "en"), (80, 24, "es")])
def test_ten_players_and_every_house_rule_leave_the_hand_and_keys_in_sight_on_a_small_screen(
    data_folder: Path, width: int, height: int, lang: str
) -> None:
    program = Path(sys.executable).parent / "unomas"
    t = translator(lang)
    turn = t.gettext("Your turn: play a card or draw.").split(":")[0]
    with tmux_window(f"UNOMAS_DATA={data_folder} {program} play {CROWDED} --lang {lang}", width, height) as name:
        screen = shown_when(name, lambda shown: turn in shown)
    lines = screen.rstrip("\n").split("\n")
    assert len(lines) <= height and max(len(line) for line in lines) <= width
    for player in NAMES:  # every player, the tenth too
        assert re.search(rf"(^|│ |▶ ){player}: \d+ ", screen, re.MULTILINE), player
    rules = Rules.preset("all", players=10, challenge_wild_draw_four=False)
    flat = " ".join(screen.split())
    full, short = wording.rules_line(rules, t), wording.rules_short(rules, t)  # short: how many changed, ? names them
    assert any(all(" ".join(part.split()) in flat for part in form.split(" · ")) for form in (full, short)), screen
    assert lines[-1].split()[-2:] == ["q", t.gettext("quit")] and re.search(r"^ ?1:", screen, re.MULTILINE), screen
    status = lines[: next(n for n, line in enumerate(lines) if "▶" in line or line.startswith(NAMES[0]))]
    fields = [field for line in status for field in line.split(" · ")]
    assert fields and all(re.fullmatch(STATUS_FIELD[lang], field) for field in fields), status  # none broken


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (CI installs it)")
@pytest.mark.parametrize(("width", "height", "lang"), [(60, 20, "es"), (80, 24, "en")])
def test_a_ten_player_match_summary_shows_how_to_close_it(
    data_folder: Path, width: int, height: int, lang: str
) -> None:
    """One card each and a single round: the match is over within a few turns (the
    person plays their card, or draws and plays or keeps what they drew)."""
    program = Path(sys.executable).parent / "unomas"
    t = translator(lang)
    close = t.gettext("Enter: close")
    turn = t.gettext("Your turn: play a card or draw.").split(":")[0]
    one_card = f"{CROWDED} --set hand_size=1 --set target_score=0"
    with tmux_window(f"UNOMAS_DATA={data_folder} {program} play {one_card} --lang {lang}", width, height) as name:
        screen = ""
        for _ in range(30):
            screen = shown_when(name, lambda shown: close in shown or turn in shown)
            if close in screen:
                break
            for key in ("1", "Enter", "r", "d", "Enter", "r", "p"):
                tmux("send-keys", "-t", name, key)
                time.sleep(0.2)
    lines = screen.rstrip("\n").split("\n")
    assert close in screen and len(lines) <= height, screen
    assert t.gettext("{player} wins the match!").split("{player}")[1] in screen


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (CI installs it)")
def test_at_the_default_table_a_person_catches_a_bot_that_forgot_uno(data_folder: Path) -> None:
    """The default bots slip as people do: a person playing the first card they may, at the
    default table of four, is offered a catch within a few rounds and takes it with c."""
    program = Path(sys.executable).parent / "unomas"
    t = translator("es")
    catch = t.gettext("catch {player}").split("{")[0]
    said = t.gettext("{catcher} catches {target} without UNO.").rstrip(".")  # its effect may follow
    caught = re.escape(said).replace(r"\{catcher\}", "Ana")
    caught = caught.replace(r"\{target\}", r"\w+")
    command = f"UNOMAS_DATA={data_folder} {program} play --players 4 --pace 0.05 --window 30 --seed 3 --lang es"
    rounds, pressed_c = 1, 0.0
    with tmux_window(command, 80, 24) as name:
        screen = ""
        deadline = time.monotonic() + 150
        while time.monotonic() < deadline and not re.search(caught, " ".join(screen.split())):
            screen = tmux("capture-pane", "-p", "-t", name)
            if catch in screen and time.monotonic() > pressed_c + 2:  # once: it may take a moment
                pressed_c = time.monotonic()
                tmux("send-keys", "-t", name, "c")
            elif "Intro: siguiente ronda" in screen:
                rounds += 1
                tmux("send-keys", "-t", name, "Enter")
            elif "Elige color" in screen or "Elige el color" in screen:
                tmux("send-keys", "-t", name, "r")
            elif "p quedártela" in screen:  # a playable card drawn, under the cursor: played
                tmux("send-keys", "-t", name, "Enter")
            elif "Tu turno" in screen or "Tienes que robar" in screen:
                playable = re.search(r"(\d):\*", screen)  # the first card marked playable
                keys = [playable.group(1), "Enter"] if playable and "Tu turno" in screen else ["d"]
                tmux("send-keys", "-t", name, *keys)
            elif "u ¡UNO!" in screen:  # Ana's own UNO, after her play
                tmux("send-keys", "-t", name, "u")
            elif "espacio dejarlo pasar" in screen:  # nothing else to do: the bots need not wait
                tmux("send-keys", "-t", name, "Space")
            time.sleep(0.3)
    assert re.search(caught, " ".join(screen.split())) and rounds <= 4, (rounds, screen)


def test_play_with_piped_input_and_no_plain_takes_the_line_mode(data_folder: Path) -> None:
    """Not a terminal to draw a screen on: the lines, which end with the input."""
    program = Path(sys.executable).parent / "unomas"
    done = subprocess.run(
        [str(program), "play", "--players", "2", "--bots", "random", "--seed", "1", "--lang", "es"],
        input="q\n",
        capture_output=True,
        text=True,
        timeout=60,
        env=os.environ | {"UNOMAS_DATA": str(data_folder)},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Reglas oficiales · a 500 puntos\n")
    assert "La partida está guardada" in done.stdout


async def watch_help(path: Path, lang: str) -> list[str]:
    app = UnomasApp(translator(lang), watch=Watch(json.loads(path.read_text(encoding="utf-8"))))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        lines = list(getattr(app.screen, "lines", []))
        await pilot.press("escape", "q")
    return lines


@pytest.mark.parametrize("lang", ["en", "es"])
def test_replay_watch_s_help_lists_the_keys_that_step_through_the_record(tmp_path: Path, lang: str) -> None:
    helped = "\n".join(asyncio.run(watch_help(finished_record(tmp_path), lang)))
    t = translator(lang)
    for key in ("→", "←", "Home End"):
        assert re.search(rf"^ *{key}  \S", helped, re.MULTILINE), key
    assert f"d  {t.gettext('draw')}" not in helped and t.gettext("catch a player who forgot UNO") not in helped


@pytest.mark.parametrize(
    ("content", "english", "spanish"),
    [
        (
            b'{"format": "unomas-record/1", "winner": nu',
            "b.json is damaged: no record can be read from it (line 1, column 41).",
            "b.json está dañado: no se puede leer ningún registro (línea 1, columna 41).",
        ),
        (
            b"\xff\xfe{}",
            "b.json is damaged: it is not text (records are UTF-8 JSON).",
            "b.json está dañado: no es texto (los registros son JSON en UTF-8).",
        ),
    ],
)
def test_resume_names_the_damage_of_the_newest_record_and_resumes_no_older_match(
    data_folder: Path, content: bytes, english: str, spanish: str
) -> None:
    folder = data_folder / "records"
    game = stacked_game()
    older = Session(game.rules, [Scripted()], names=["Ana", "Beto"], game=game, pace=0)
    asyncio.run(older.close())
    assert older.path is not None and older.path.parent == folder
    (folder / "b.json").write_bytes(content)  # after the older one, by name
    assert sorted(folder.glob("*.json"))[-1].name == "b.json"
    for lang, words in (("en", english), ("es", spanish)):
        result = runner.invoke(app, ["play", "--resume", "--lang", lang])
        assert (result.exit_code, result.stderr) == (1, words + "\n"), result.output


def test_replay_verify_says_a_record_without_a_commitment_is_unverified_not_invalid(data_folder: Path) -> None:
    """A match of the terminal still going on keeps its seed secret: nothing to check yet."""

    async def unfinished() -> Path:
        session = Session(Rules(players=2, target_score=0), ["random"], seed=5, pace=0, window=0)
        await session.decision()
        await session.close()
        assert session.path is not None
        return session.path

    path = asyncio.run(unfinished())
    for lang, unverified, invalid in (("en", "UNVERIFIED", "INVALID"), ("es", "SIN VERIFICAR", "NO VÁLIDO")):
        result = runner.invoke(app, ["replay", str(path), "--verify", "--lang", lang], env={"COLUMNS": "300"})
        assert result.exit_code == 1 and result.output.startswith(unverified) and invalid not in result.output
        assert error_text("record.seed_not_revealed", {}, lang) in " ".join(result.output.split())
