"""Tournaments: seating, determinism, figures, records, the command line."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from codes import raises_code
from unomas import fairness, record
from unomas.actions import Action
from unomas.bots import BUILTIN_BOTS, HeuristicBot, PlayFirstBot
from unomas.cli import app
from unomas.conductor import MatchSummary
from unomas.errors import SettingsError
from unomas.events import Event
from unomas.rules import Rules
from unomas.runs.plot import PLOT_INSTALL, PlotUnavailable, plot, plot_available
from unomas.runs.statistics import wilson
from unomas.runs.tournament import TournamentMatch, TournamentResult, entrant_names, run_tournament, seat_specs, seating
from unomas.view import View

runner = CliRunner()

SHORT = Rules(players=3, target_score=100)
"""Matches of a few rounds."""


def run(*args: str) -> Result:
    return runner.invoke(app, list(args), env={"COLUMNS": "200", "NO_COLOR": "1", "LANGUAGE": "en"})


def flat(text: str) -> str:
    """Output with box drawing removed and runs of space joined."""
    return " ".join(re.sub(r"[│╭╮╰╯─┌┐└┘├┤┬┴┼━┃┏┓┗┛┡┩╇╈]", " ", text).split())


def figures(result: TournamentResult) -> dict[str, Any]:
    """The results without the timing figures (which depend on the machine)."""
    data = result.to_json()
    for bot in data["bots"]:
        del bot["seconds_per_decision"]
    return data


def summary(match: TournamentMatch) -> MatchSummary:
    """How a match went (it must have been played to its end, or abandoned)."""
    assert match.summary is not None, match.error
    return match.summary


def without_timing(data: dict[str, Any]) -> dict[str, Any]:
    for bot in data["bots"]:
        del bot["seconds_per_decision"]
    return data


# ---------------------------------------------------------------- Wilson intervals


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        (5, 10, 0.236593, 0.763407),
        (0, 10, 0.0, 0.277533),
        (10, 10, 0.722467, 1.0),
        (1, 10, 0.017876, 0.404150),
        (81, 263, 0.255289, 0.366210),
        (50, 100, 0.403832, 0.596168),
    ],
)
def test_wilson_interval_on_known_values(successes: int, trials: int, low: float, high: float) -> None:
    """Published values (5/10: 0.2366–0.7634; 0/10: 0–z²/(n+z²)), to six places."""
    got_low, got_high = wilson(successes, trials)
    assert got_low == pytest.approx(low, abs=1e-6)
    assert got_high == pytest.approx(high, abs=1e-6)
    assert got_low <= successes / trials <= got_high


def test_wilson_interval_edges() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 5)[0] == 0.0
    assert wilson(5, 5)[1] == 1.0
    low90, high90 = wilson(5, 10, z=1.6448536269514722)
    low95, high95 = wilson(5, 10)
    assert low95 < low90 < high90 < high95
    with pytest.raises(ValueError, match="successes"):
        wilson(11, 10)


# ---------------------------------------------------------------- seats and names


def test_seating_rotates_every_entrant_through_every_seat() -> None:
    assert seating(3, 0) == [0, 1, 2]
    assert seating(3, 1) == [2, 0, 1]
    assert seating(3, 3) == seating(3, 0)
    for entrants in range(2, 7):
        for entrant in range(entrants):
            seats = {seating(entrants, k).index(entrant) for k in range(entrants)}
            assert seats == set(range(entrants))
            assert all(seating(entrants, k).index(entrant) == (entrant + k) % entrants for k in range(3 * entrants))


def test_specs_repeat_to_fill_the_seats_and_repeats_are_numbered() -> None:
    assert seat_specs(["a", "b"], 2) == ["a", "b"]
    assert seat_specs(["a", "b"], 5) == ["a", "b", "a", "b", "a"]
    assert entrant_names(["a", "b", "a", "b", "a"]) == ["a#1", "b#1", "a#2", "b#2", "a#3"]
    assert entrant_names(["x", "y"]) == ["x", "y"]
    with raises_code(SettingsError, "setup.too_few_seats"):
        seat_specs(["a", "b", "c"], 2)
    with raises_code(SettingsError, "setup.no_bots"):
        seat_specs([], 2)


def test_matches_rotate_the_seats(tmp_path: Path) -> None:
    specs = ["heuristic", "playfirst", "random"]
    path = tmp_path / "r.jsonl"
    result = run_tournament(SHORT, specs, 6, seed="rot", records=path)
    records = record.read_file(path)
    assert len(records) == len(result.matches) == 6
    for k, (match, rec) in enumerate(zip(result.matches, records, strict=True)):
        assert match.number == k
        assert match.seating == seating(3, k)
        assert rec["names"] == [specs[(seat - k) % 3] for seat in range(3)]
    for bot in result.bots:
        assert bot.matches == 6


def test_more_seats_than_bots_repeats_them_as_separate_entrants() -> None:
    result = run_tournament(Rules(players=4, target_score=0), ["heuristic", "random"], 4, seed=5)
    assert [bot.name for bot in result.bots] == ["heuristic#1", "random#1", "heuristic#2", "random#2"]
    assert [bot.spec for bot in result.bots] == ["heuristic", "random", "heuristic", "random"]
    assert all(bot.matches == 4 for bot in result.bots)
    assert result.to_json()["settings"]["bots"] == ["heuristic", "random"]


def test_the_same_spec_twice_is_kept_apart() -> None:
    result = run_tournament(Rules(players=3, target_score=0), ["playfirst", "random", "playfirst"], 3, seed=2)
    assert [bot.name for bot in result.bots] == ["playfirst#1", "random", "playfirst#2"]
    assert sum(bot.match_wins for bot in result.bots) == 3


# ---------------------------------------------------------------- determinism


def test_same_seed_same_results_whatever_the_jobs(tmp_path: Path) -> None:
    specs = ["heuristic", "playfirst", "random"]
    one = run_tournament(SHORT, specs, 7, seed="s", jobs=1, records=tmp_path / "one.jsonl")
    two = run_tournament(SHORT, specs, 7, seed="s", jobs=2, records=tmp_path / "two.jsonl")
    assert figures(one) == figures(two)
    assert (tmp_path / "one.jsonl").read_text() == (tmp_path / "two.jsonl").read_text()
    assert [summary(m).scores for m in one.matches] == [summary(m).scores for m in two.matches]
    again = run_tournament(SHORT, specs, 7, seed="s")
    assert figures(again) == figures(one)


def test_matches_depend_on_the_seed_and_number_only() -> None:
    specs = ["heuristic", "playfirst", "random"]
    long = run_tournament(SHORT, specs, 5, seed=9)
    short = run_tournament(SHORT, specs, 3, seed=9)
    assert [summary(m).scores for m in long.matches[:3]] == [summary(m).scores for m in short.matches]
    other = run_tournament(SHORT, specs, 5, seed=10)
    assert [summary(m).round_points for m in other.matches] != [summary(m).round_points for m in long.matches]


def test_without_a_seed_matches_still_run() -> None:
    result = run_tournament(Rules(players=2, target_score=0), ["playfirst", "random"], 3)
    assert result.seed is None
    assert sum(bot.matches for bot in result.bots) == 6


# ---------------------------------------------------------------- figures


def test_figures_add_up() -> None:
    result = run_tournament(SHORT, ["heuristic", "playfirst", "random"], 9, seed=4)
    total_scores = sum(sum(summary(m).scores) for m in result.matches)
    assert sum(bot.points for bot in result.bots) == total_scores
    rounds = sum(len(summary(m).round_winners) for m in result.matches)
    assert sum(bot.round_wins for bot in result.bots) == rounds
    assert all(bot.rounds == rounds for bot in result.bots)
    assert sum(bot.match_wins for bot in result.bots) == 9 - result.abandoned
    for bot in result.bots:
        assert bot.match_win_rate == bot.match_wins / bot.matches
        low, high = bot.match_win_interval
        assert low <= bot.match_win_rate <= high
        assert bot.points_per_round == pytest.approx(bot.points / bot.rounds)
        if bot.round_wins:
            assert bot.points_per_round_won == pytest.approx(bot.points / bot.round_wins)
        assert bot.decisions > 0
        assert bot.seconds_per_decision is not None and bot.seconds_per_decision >= 0
        assert bot.rating == pytest.approx(bot.mu - 3 * bot.sigma)
        assert bot.sigma < 25 / 3


def test_the_stronger_bot_gets_the_higher_rating() -> None:
    result = run_tournament(Rules(players=2, target_score=100), ["heuristic", "random"], 8, seed=1)
    heuristic, rnd = result.bots
    assert heuristic.match_wins > rnd.match_wins
    assert heuristic.rating > 0 > rnd.rating
    assert heuristic.mu > 25 > rnd.mu


def test_progress_is_called_after_every_match_in_order() -> None:
    calls: list[tuple[int, int]] = []
    run_tournament(
        Rules(players=2, target_score=0), ["playfirst", "random"], 4, seed=1, progress=lambda *a: calls.append(a)
    )
    assert calls == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_bad_arguments_are_refused_before_any_match() -> None:
    rules = Rules(players=2)
    with raises_code(SettingsError, "setup.unknown_bot"):
        run_tournament(rules, ["heuristic", "nobody"], 3)
    with raises_code(SettingsError, "setup.unknown_bot_option"):
        run_tournament(rules, ["heuristic", "ismcts:depth=3"], 3)
    with raises_code(SettingsError, "setup.at_least_one"):
        run_tournament(rules, ["heuristic", "random"], 0)
    with raises_code(SettingsError, "setup.at_least_one"):
        run_tournament(rules, ["heuristic", "random"], 1, jobs=0)


# ---------------------------------------------------------------- records and results


def test_records_replay(tmp_path: Path) -> None:
    path = tmp_path / "records.jsonl"
    result = run_tournament(
        Rules.preset("all", players=3, target_score=100), ["heuristic", "playfirst", "random"], 6, seed=3, records=path
    )
    records = record.read_file(path)
    assert len(records) == 6
    for match, rec in zip(result.matches, records, strict=True):
        game = record.replay(rec)
        assert game.scores == summary(match).scores
        assert rec["winner"] == summary(match).winner
        assert rec["rules"] == result.rules.to_dict()
        assert "error" not in rec
        assert match.record is None  # released once written


def test_results_json_fields(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    result = run(
        "tournament",
        "--bots",
        "heuristic,playfirst,random",
        "--games",
        "6",
        "--seed",
        "7",
        "--set",
        "target_score=100",
        "--out",
        str(out),
    )
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "slips (forgets UNO/misses a catch): heuristic 20 %/25 %, playfirst 10 %/50 %, random 50 %/50 %" in said
    data = json.loads(out.read_text(encoding="utf-8"))
    settings = data["settings"]
    assert settings["rules"] == SHORT.to_dict()
    assert settings["seed"] == "7"
    assert settings["games"] == 6
    assert settings["bots"] == ["heuristic", "playfirst", "random"]
    assert data["matches"] == 6
    assert data["errors"] == []
    assert [bot["name"] for bot in data["bots"]] == ["heuristic", "playfirst", "random"]
    for bot in data["bots"]:
        for key in (
            "name",
            "matches",
            "match_wins",
            "match_win_rate",
            "match_win_interval",
            "rounds",
            "round_wins",
            "round_win_rate",
            "round_win_interval",
            "points_per_round_won",
            "points_per_round",
            "seconds_per_decision",
            "rating",
            "mu",
            "sigma",
            "errors",
        ):
            assert key in bot, key
        assert bot["matches"] == 6
        low, high = bot["match_win_interval"]
        assert 0 <= low <= bot["match_win_rate"] <= high <= 1
    assert sum(bot["match_wins"] for bot in data["bots"]) == 6


# ---------------------------------------------------------------- bot errors


class FlakyBot(PlayFirstBot):
    """Crashes on its turn whenever it sits at seat 0."""

    name = "flaky"

    def act(self, view: View) -> Action:
        if self.seat == 0:
            raise RuntimeError("flaky at seat 0")
        return super().act(view)


class DeafBot(PlayFirstBot):
    """Raises from ``observe`` after a few events at seat 1 (not a BotError: the table does not wrap it)."""

    name = "deaf"

    def __init__(self) -> None:
        super().__init__()
        self.heard = 0

    def observe(self, events: Sequence[Event]) -> None:
        self.heard += 1
        if self.seat == 1 and self.heard > 5:
            raise KeyError("deaf")


class StubbornBot(PlayFirstBot):
    """Refuses to start."""

    name = "stubborn"

    def start(self, seat: int, rules: Rules, rng: Any) -> None:
        raise OSError("will not start")


class QuitterBot(HeuristicBot):
    """The heuristic bot, except that it crashes whenever it holds 6 cards more than an opponent."""

    name = "quitter"

    def act(self, view: View) -> Action:
        assert view.seat is not None
        if view.hand_sizes[view.seat] >= min(n for s, n in enumerate(view.hand_sizes) if s != view.seat) + 6:
            raise RuntimeError("behind: I quit")
        return super().act(view)


@pytest.fixture
def odd_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BUILTIN_BOTS, "quitter", QuitterBot)
    monkeypatch.setitem(BUILTIN_BOTS, "flaky", FlakyBot)
    monkeypatch.setitem(BUILTIN_BOTS, "deaf", DeafBot)
    monkeypatch.setitem(BUILTIN_BOTS, "stubborn", StubbornBot)


@pytest.mark.usefixtures("odd_bots")
def test_a_bot_error_is_an_error_of_its_match(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    result = run_tournament(Rules(players=2, target_score=100), ["flaky", "random"], 6, seed=1, records=path)
    assert [e.match for e in result.errors] == [0, 2, 4]
    for error in result.errors:
        assert error.seat == 0
        assert error.bot == "flaky"
        assert "flaky at seat 0" in error.reason
    assert [m.summary is not None and m.summary.winner is None for m in result.matches] == [True, False] * 3
    flaky, rnd = result.bots
    assert flaky.errors == 3 and rnd.errors == 0
    # The forfeits count: lost by the failing entrant, won by its opponent, rated.
    assert flaky.matches == rnd.matches == 6
    assert flaky.match_wins + rnd.match_wins == 6
    assert rnd.match_wins >= 3
    data = result.to_json()
    assert data["finished"] == 3 and len(data["errors"]) == 3
    records = record.read_file(path)
    assert len(records) == 6
    assert "flaky at seat 0" in records[0]["error"]
    for rec in records:
        record.replay(rec)


@pytest.mark.usefixtures("odd_bots")
def test_other_failures_of_a_bot_are_errors_too() -> None:
    result = run_tournament(Rules(players=2, target_score=0), ["deaf", "random"], 2, seed=1)
    assert [e.match for e in result.errors] == [1]  # the match that seats it at seat 1
    assert result.errors[0].seat == 1  # the table names the seat whose bot failed
    assert "failed in observe: KeyError" in result.errors[0].reason
    started = run_tournament(Rules(players=2, target_score=0), ["stubborn", "random"], 2, seed=1)
    assert len(started.errors) == 2
    assert all("will not start" in e.reason for e in started.errors)


@pytest.mark.usefixtures("odd_bots")
def test_a_bot_gains_nothing_by_failing() -> None:
    # The same policy, the same seeds, the same opponent: the quitter's games are the honest
    # bot's until it quits, and a quit must not turn into a better record.
    rules = Rules(players=2, target_score=0)
    quits = run_tournament(rules, ["quitter", "playfirst"], 40, seed=3)
    honest = run_tournament(rules, ["heuristic", "playfirst"], 40, seed=3)
    assert quits.errors, "the quitter never quit: the test proves nothing"
    quitter, honest_bot = quits.bots[0], honest.bots[0]
    assert quitter.errors == len(quits.errors)
    assert quitter.matches == quitter.rounds == 40
    assert quitter.match_win_rate <= honest_bot.match_win_rate
    assert quitter.round_win_rate <= honest_bot.round_win_rate
    assert quitter.rating <= honest_bot.rating
    assert quits.bots[1].match_wins == 40 - quitter.match_wins


def test_a_forfeit_goes_to_the_highest_score_then_the_earlier_seat() -> None:
    from unomas.runs.tournament import forfeit

    stop = MatchSummary(winner=None, scores=[10, 40, 40, 0], rounds=4, actions=99, round_winners=[1, 2, 0])
    stop.round_points.extend([20, 40, 10])
    lost = forfeit(stop, 0)
    assert lost.winner == 1
    assert lost.round_winners == [1, 2, 0, 1] and lost.round_points == [20, 40, 10, 0]
    assert forfeit(stop, 1).winner == 2
    finished = MatchSummary(winner=None, scores=[0, 5], rounds=2, actions=9, round_winners=[1, 0], round_points=[5, 0])
    assert forfeit(finished, 1).round_winners == [1, 0]  # no round under way: nothing added


@pytest.mark.usefixtures("odd_bots")
def test_cli_reports_bot_errors_and_goes_on(tmp_path: Path) -> None:
    args = ("tournament", "--bots", "flaky,playfirst", "--games", "4", "--seed", "1", "--set", "target_score=0")
    out = tmp_path / "results.json"
    result = run(*args, "--out", str(out))
    assert result.exit_code == 1, result.output  # an error fails the run...
    text = flat(result.output)
    assert "error in match 0: flaky" in text
    assert "error in match 2: flaky" in text
    assert "2 stopped by a bot error" in text
    assert re.search(r" flaky \d( \S+){7} 2 ", text), text  # its errors, beside it
    assert len(json.loads(out.read_text())["errors"]) == 2  # ...after writing the results
    allowed = run(*args, "--allow-errors")
    assert allowed.exit_code == 0, allowed.output
    assert "error in match 2: flaky" in flat(allowed.output)


# ---------------------------------------------------------------- command line


RANDOM_PROGRAM = Path(__file__).parents[1] / "examples" / "random_bot.py"
"""A program bot (it names itself ``random_bot.py``); its arguments are ignored."""


def test_cli_prints_the_table() -> None:
    result = run(
        "tournament",
        "--bots",
        "ismcts:iterations=20,heuristic,playfirst",
        "--games",
        "6",
        "--seed",
        "1",
        "--set",
        "target_score=0",
    )
    assert result.exit_code == 0, result.output
    text = flat(result.output)
    assert re.search(r"tournament: 6 matches, \d+ rounds, 3 seats, seed 1", text), text
    for name in ("ismcts:iterations=20", "heuristic", "playfirst"):
        assert re.search(rf"{re.escape(name)} \d \d+\.\d \d+ \d+\.\d ", text), (name, text)
    assert "rating" in text


def test_cli_same_seed_same_results_with_jobs(tmp_path: Path) -> None:
    outputs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"results{jobs}.json"
        recs = tmp_path / f"records{jobs}.jsonl"
        args = ("--bots", "heuristic,playfirst,random", "--games", "6", "--seed", "x", "--set", "target_score=100")
        result = run("tournament", *args, "--jobs", jobs, "--out", str(out), "--records", str(recs))
        assert result.exit_code == 0, result.output
        outputs.append((without_timing(json.loads(out.read_text())), recs.read_text()))
    assert outputs[0] == outputs[1]
    replayed = run("replay", str(tmp_path / "records2.jsonl"))
    assert replayed.exit_code == 0, replayed.output
    assert replayed.output.count("valid") == 6


def test_cli_players_and_rules() -> None:
    result = run(
        "tournament",
        "--bots",
        "heuristic,random",
        "--players",
        "4",
        "--rules",
        "all",
        "--games",
        "2",
        "--seed",
        "1",
        "--set",
        "target_score=0",
    )
    assert result.exit_code == 0, result.output
    text = flat(result.output)
    assert "4 seats" in text
    for name in ("heuristic#1", "heuristic#2", "random#1", "random#2"):
        assert name in text


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (("--bots", "heuristic,nobody"), "'nobody' is not a bot"),
        (("--bots", "ismcts:depth=2,heuristic"), "the options of ismcts are iterations=N, seconds=X"),
        (("--bots", "ismcts:iterations=many,heuristic"), "'ismcts:iterations=many': the options of ismcts"),
        (("--bots", "random,playfirst,random", "--players", "2"), "3 bots need 3 seats"),
        (("--bots", "heuristic,random", "--set", "players=11"), "A match has 2 to 10 players"),
        (("--bots", "heuristic,random", "--set", "bogus=1"), "There is no setting 'bogus'"),
        (("--bots", "heuristic,random", "--rules", "house"), "There is no preset 'house'"),
        (("--bots", " , "), "Give at least one bot"),
        (("--bots", "heuristic,random", "--games", "0"), "--games"),
        (("--bots", "heuristic,random", "--jobs", "0"), "--jobs"),
    ],
)
def test_cli_bad_bots_and_options_are_refused(args: tuple[str, ...], named: str) -> None:
    result = run("tournament", *args)
    assert result.exit_code != 0
    assert named in flat(result.output), result.output


FAST = ("--seed", "1", "--set", "target_score=0")
"""One round a match."""


def test_cli_bot_is_repeatable_and_keeps_commas(tmp_path: Path) -> None:
    # A program bot whose command holds a comma: given with --bot, it stays one spec.
    spec = f"cmd:{sys.executable} {RANDOM_PROGRAM} --tag a,b"
    out = tmp_path / "results.json"
    args = ("--bots", "random", "--bot", spec, "--bot", "playfirst", "-n", "3", *FAST)
    result = run("tournament", *args, "--out", str(out))
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["settings"]["bots"] == ["random", spec, "playfirst"]
    assert data["errors"] == []
    named = {bot["spec"]: bot["given_name"] for bot in data["bots"]}
    assert named == {"random": None, spec: "random_bot.py", "playfirst": None}
    assert re.search(r"random_bot\.py \d \d+\.\d .* cmd:", flat(result.output)), result.output  # named, spec under


def test_cli_table_fits_80_columns_with_long_specs(tmp_path: Path) -> None:
    # Long program specs (one that plays, one that cannot start: an errors column too).
    long = f"cmd:{sys.executable} {RANDOM_PROGRAM} --an-option-with-a-long-name some-value --another"
    broken = "cmd:/nonexistent/path/to/a/program/that/is/not/there --with --many --options"
    args = ["tournament", "--bot", long, "--bot", broken, "--bot", "heuristic", "-n", "3", *FAST, "--allow-errors"]
    result = runner.invoke(app, args, env={"COLUMNS": "80", "NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    table = result.output.split("error in match")[0].splitlines()
    assert all(len(line) <= 80 for line in table), result.output
    # Each entrant's figures on one line, in full: wins, rate, rounds, rate, 4 figures, errors.
    figures = r" +\d +\d+\.\d +\d +\d+\.\d +\S+ +\S+ +\S+ +-?\d+\.\d +\d\s*$"
    starts = dict.fromkeys((long[:10], broken[:10], "heuristic"), 0)
    for line in table:
        for start in starts:
            if re.match(rf" ?{re.escape(start)}\S*…?{figures}", line):
                starts[start] += 1
    assert list(starts.values()) == [1, 1, 1], result.output


def test_cli_needs_bots() -> None:
    result = run("tournament")
    assert result.exit_code != 0
    assert "--bots" in flat(result.output)


# ---------------------------------------------------------------- plots

needs_matplotlib = pytest.mark.skipif(
    importlib.util.find_spec("matplotlib") is None, reason="matplotlib is not installed"
)


@needs_matplotlib
def test_plot(tmp_path: Path) -> None:
    image = tmp_path / "rates.png"
    result = run(
        "tournament",
        "--bots",
        "heuristic,playfirst,random",
        "--games",
        "6",
        "--seed",
        "2",
        "--set",
        "target_score=0",
        "--plot",
        str(image),
    )
    assert result.exit_code == 0, result.output
    assert image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@needs_matplotlib
def test_plot_function(tmp_path: Path) -> None:
    result = run_tournament(Rules(players=2, target_score=0), ["heuristic", "random"], 3, seed=1)
    plot(result, tmp_path / "rates.svg")
    assert "<svg" in (tmp_path / "rates.svg").read_text(encoding="utf-8")


def test_plot_without_matplotlib(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [n for n in sys.modules if n == "matplotlib" or n.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert not plot_available()
    image = tmp_path / "rates.png"
    result = run("tournament", "--bots", "heuristic,random", "--games", "2", "--plot", str(image))
    assert result.exit_code != 0
    assert PLOT_INSTALL in flat(result.output)
    assert "matplotlib" in flat(result.output)
    assert not image.exists()
    with pytest.raises(PlotUnavailable, match=re.escape(PLOT_INSTALL)):
        plot(run_tournament(Rules(players=2, target_score=0), ["heuristic", "random"], 1, seed=1), image)


def test_an_exception_in_the_caller_stops_the_workers() -> None:
    def stop(done: int, total: int) -> None:
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_tournament(SHORT, ["heuristic", "playfirst", "random"], 20, seed=1, jobs=2, progress=stop)


def test_help_names_the_plot_extra() -> None:
    result = run("tournament", "--help")
    assert result.exit_code == 0
    assert PLOT_INSTALL in flat(result.output)


def test_abandoned_matches_count_as_played_and_unrated(monkeypatch: pytest.MonkeyPatch) -> None:
    import unomas.conductor

    monkeypatch.setattr(unomas.conductor, "MAX_ACTIONS_PER_ROUND", 3)
    result = run_tournament(Rules(players=2), ["playfirst", "random"], 2, seed=1)
    assert result.abandoned == 2
    assert all(summary(match).abandoned and summary(match).winner is None for match in result.matches)
    for bot in result.bots:
        assert bot.matches == 2 and bot.match_wins == 0
        assert (bot.mu, bot.sigma) == (25.0, 25.0 / 3.0)
    assert result.to_json()["finished"] == 0
    shown = run("tournament", "--bots", "playfirst,random", "--games", "2", "--seed", "1")
    assert shown.exit_code == 0, shown.output
    assert "2 abandoned" in flat(shown.output)


def test_a_bot_that_cannot_start_is_charged_and_said_once(tmp_path: Path) -> None:
    spec = "cmd:/nonexistent/unomas-bot --level 3"
    result = run_tournament(Rules(players=2, target_score=0), [spec, "random"], 2, seed=1)
    assert [(e.seat, e.entrant, e.bot) for e in result.errors] == [(0, 0, spec), (1, 0, spec)]
    for error in result.errors:
        assert error.reason.count("could not start") == 1, error.reason
        assert "BotError" not in error.reason
    failing, other = result.bots
    assert failing.errors == 2 and other.errors == 0
    assert (failing.matches, failing.match_wins, failing.rounds, failing.round_wins) == (2, 0, 2, 0)
    assert (other.match_wins, other.round_wins) == (2, 2)
    assert failing.rating < other.rating
    out = tmp_path / "results.json"
    shown = run("tournament", "--bots", f"{spec},random", "--games", "1", "--out", str(out), "--allow-errors")
    assert flat(shown.output).count("could not start") == 1, shown.output
    assert json.loads(out.read_text())["errors"][0]["seat"] == 0


@pytest.mark.usefixtures("odd_bots")
def test_every_record_of_a_seeded_tournament_verifies_and_a_forfeit_is_written_as_one(tmp_path: Path) -> None:
    """Each record carries its shuffle (seed and commitment: the seed the match was dealt
    from, derived from the run's seed and its number), so `replay --verify` passes on all;
    a forfeited match's record says who forfeited and who won it, as the table counts it."""
    path = tmp_path / "r.jsonl"
    result = run_tournament(Rules(players=2, target_score=100), ["flaky", "random"], 6, seed="s", records=path)
    records = record.read_file(path)
    wins = [0, 0]
    for match, rec in zip(result.matches, records, strict=True):
        assert fairness.verify(rec).scores == rec["scores"]
        assert rec["shuffle"]["seed"] == f"s/{match.number}/deal".encode().hex()
        if match.error is None:
            assert "forfeit" not in rec
            winner = rec["winner"]
        else:
            assert rec["winner"] is None and match.error.seat is not None
            assert rec["forfeit"] == {"seat": match.error.seat, "winner": 1 - match.error.seat}
            winner = rec["forfeit"]["winner"]
        wins[match.seating[winner]] += 1
    assert wins == [bot.match_wins for bot in result.bots]
    checked = run("replay", "--verify", str(path))
    assert checked.exit_code == 0, checked.output
    assert flat(checked.output).count("every deal and reshuffle comes from the committed seed") == 6
    assert "winner seat 1 by forfeit of seat 0" in flat(checked.output)


def test_simulate_records_verify(tmp_path: Path) -> None:
    path = tmp_path / "sim.jsonl"
    assert run("simulate", "--games", "3", "--players", "2", "--seed", "7", "--records", str(path)).exit_code == 0
    checked = run("replay", "--verify", str(path))
    assert checked.exit_code == 0, checked.output
    assert flat(checked.output).count("comes from the committed seed") == 3
