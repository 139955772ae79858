"""docs/house-rules.md, "Teams": the setting ``teams`` and the switch ``team_view``, one
scenario per arguable meeting with the other settings."""

from __future__ import annotations

import json
import random

import pytest

from codes import raises_code
from unomas import Action, Game, Kind, record
from unomas.bots.heuristic import HeuristicBot
from unomas.cards import parse_card
from unomas.conductor import Conductor
from unomas.errors import SettingsError
from unomas.events import Dealt, Drew, Event, MatchEnded, RoundEnded
from unomas.i18n import translator
from unomas.i18n.narration import narrate
from unomas.i18n.wording import match_summary, round_summary, rules_line, seat_line
from unomas.rules import SEED_SETTINGS, Rules
from unomas.testing import cards, draw, make_game, play

C = parse_card


def move(game: Game, token: str, giver: int, taker: int) -> None:
    """Move one card between hands, to set up hand sizes a deal of equal hands cannot give."""
    game.hands[giver].remove(C(token))
    game.hands[taker].append(C(token))


FOUR = [["R1", "R2"], ["B1", "G9"], ["G1", "G2"], ["Y5", "Y6"]]
"""Seat 0 deals, R9 turns up, seat 1 plays first."""


# ---------------------------------------------------------------- the setting


@pytest.mark.parametrize(
    ("teams", "players", "partners"),
    [
        ("2v2", 4, [(2,), (3,), (0,), (1,)]),
        ("pairs", 4, [(2,), (3,), (0,), (1,)]),
        ("3v3", 6, [(2, 4), (3, 5), (0, 4), (1, 5), (0, 2), (1, 3)]),
        ("pairs", 6, [(3,), (4,), (5,), (0,), (1,), (2,)]),
        ("pairs", 10, [(5,), (6,), (7,), (8,), (9,), (0,), (1,), (2,), (3,), (4,)]),
        ("none", 4, [(), (), (), ()]),
    ],
)
def test_partners_sit_opposite(teams: str, players: int, partners: list[tuple[int, ...]]) -> None:
    rules = Rules(players=players, teams=teams)
    assert [rules.partners(seat) for seat in range(players)] == partners
    assert all(rules.team_of(seat) == rules.team_of(mate) for seat in range(players) for mate in partners[seat])


@pytest.mark.parametrize(("teams", "players"), [("3v3", 4), ("2v2", 6), ("pairs", 5), ("pairs", 2), ("2v2", 2)])
def test_teams_need_their_table(teams: str, players: int) -> None:
    with raises_code(SettingsError, "setup.teams_players", teams=teams, players=players):
        Rules(players=players, teams=teams)


@pytest.mark.parametrize("value", ["2vs2", "4", True, ""])
def test_teams_are_named(value: object) -> None:
    with raises_code(SettingsError, "setup.teams_unknown", value=repr(value)):
        Rules(teams=value)  # type: ignore[arg-type]


def test_teams_are_set_by_name() -> None:
    rules = Rules().with_settings(["teams=2v2", "team_view=on"])
    assert (rules.teams, rules.team_view, rules.team_count) == ("2v2", True, 2)
    assert Rules().with_settings(["players=6", "teams=3v3"]).partners(1) == (3, 5)
    assert Rules.preset("all", teams="pairs", players=8).partners(7) == (3,)
    assert Rules.preset("all").teams == "none"  # a choice of table, not a house rule to switch on


def test_a_record_writes_teams_only_when_on_and_replays() -> None:
    plain = make_game(FOUR, ["R9"], target_score=0)
    assert list(record.to_json(plain)["rules"]) == list(SEED_SETTINGS)
    game = make_game(FOUR, ["R9"], teams="2v2", team_view=True, target_score=0)
    draw(game, 1)
    written = json.loads(record.dumps(record.to_json(game)))
    assert (written["rules"]["teams"], written["rules"]["team_view"]) == ("2v2", True)
    assert record.replay(written).position() == game.position()


# ---------------------------------------------------------------- scoring

OUT_BY_ONE = [["R1", "R2"], ["R3", "R5"], ["Y1", "Y2"], ["R4", "B5"]]
"""R9 turns up; seat 1 plays R3, seat 2 draws B7, seat 3 plays R4, seat 0 R1, seat 1 goes
out with R5: seats 0 and 2 are left with R2 and Y1 Y2 B7 (12 points), seat 3 with B5."""


def out_by_one(**settings: object) -> tuple[Game, list[Event]]:
    game = make_game(OUT_BY_ONE, ["R9", "B7"], teams="2v2", **settings)
    play(game, 1, "R3", uno=True)
    draw(game, 2)
    play(game, 3, "R4", uno=True)
    play(game, 0, "R1", uno=True)
    return game, play(game, 1, "R5")


def test_the_team_scores_the_other_teams_cards_and_each_member_holds_it() -> None:
    game, events = out_by_one(target_score=500)
    assert game.hands[3] == cards("B5")  # a partner's cards count nothing
    assert game.scores == [0, 12, 0, 12] and game.round_winner() == 1
    assert RoundEnded(1, 12, tuple(tuple(h) for h in game.hands), (0, 12, 0, 12)) in events
    assert game.round_over and not game.is_over


def test_the_match_ends_when_the_team_reaches_the_target() -> None:
    game, events = out_by_one(target_score=12)
    assert game.is_over and game.winner == 1 and MatchEnded(1, (0, 12, 0, 12)) in events


def test_without_teams_the_winner_alone_scores_every_other_hand() -> None:
    game = make_game(OUT_BY_ONE, ["R9", "B7"], target_score=0)
    play(game, 1, "R3", uno=True)
    draw(game, 2)
    play(game, 3, "R4", uno=True)
    play(game, 0, "R1", uno=True)
    play(game, 1, "R5")
    assert game.scores == [0, 17, 0, 0]


def test_under_alternative_scoring_each_team_scores_its_own_cards() -> None:
    game, events = out_by_one(alternative_scoring=True, target_score=0)
    assert game.scores == [12, 5, 12, 5] and game.winner == 1
    assert RoundEnded(1, 17, tuple(tuple(h) for h in game.hands), (12, 5, 12, 5)) in events


def test_under_alternative_scoring_the_lowest_team_wins_though_the_other_went_out() -> None:
    hands = [["R1", "R2"], ["R3", "R5"], ["Y1", "Y2"], ["R4", "W+4"]]
    game = make_game(hands, ["R9", "B7"], teams="2v2", alternative_scoring=True, target_score=1)
    play(game, 1, "R3", uno=True)
    draw(game, 2)
    play(game, 3, "R4", uno=True)
    play(game, 0, "R1", uno=True)
    play(game, 1, "R5")
    assert game.scores == [12, 50, 12, 50] and game.round_winner() == 1 and game.winner == 0


def test_three_pairs_the_winning_pair_scores_both_other_pairs() -> None:
    game = make_game(
        [["R1", "R2"], ["R3", "R5"], ["Y1", "Y2"], ["G1", "G2"], ["B1", "B2"], ["Y3", "Y4"]],
        ["R9", "B7", "G7", "Y7", "B8"],
        teams="pairs",
        target_score=0,
    )
    play(game, 1, "R3", uno=True)
    for seat in (2, 3, 4, 5):
        draw(game, seat)
    play(game, 0, "R1", uno=True)
    play(game, 1, "R5")
    # seat 1's pair is {1, 4}: it scores pairs {0, 3} (R2; G1 G2 G7) and {2, 5} (Y1 Y2 B7;
    # Y3 Y4 B8), not seat 4's B1 B2 Y7
    assert game.scores == [0, 37, 0, 0, 37, 0]
    assert game.rules.partners(1) == (4,)


# ---------------------------------------------------------------- elimination


ELIMINATED = [["R1", "R2"], ["B1", "B2"], ["R3", "R4"], ["G1", "G2"]]
"""R9 turns up; seat 1 draws Y7 (out at 3), seat 2 plays R3, seat 3 draws Y8 (out): the seats
left, 0 and 2, are partners."""


def test_the_round_ends_once_the_seats_left_are_partners() -> None:
    game = make_game(ELIMINATED, ["R9", "Y7", "Y8"], teams="2v2", elimination=3, target_score=0)
    draw(game, 1)
    assert game.is_out(1) and not game.round_over  # seats of both teams are still in it
    play(game, 2, "R3")
    events = draw(game, 3)
    assert game.round_over and game.round_winner() == 0  # the lowest seat left wins it
    assert game.scores == [21, 0, 21, 0]  # B1 B2 Y7 and G1 G2 Y8, from seats out of the round
    assert RoundEnded(0, 21, tuple(tuple(h) for h in game.hands), (21, 0, 21, 0)) in events


def test_elimination_without_teams_goes_on_with_two_seats_left() -> None:
    game = make_game(ELIMINATED, ["R9", "Y7", "Y8"], elimination=3, target_score=0)
    draw(game, 1)
    play(game, 2, "R3")
    draw(game, 3)
    assert not game.round_over and game.seats_in_round() == [0, 2]


# ---------------------------------------------------------------- play between partners


def test_a_seven_may_swap_with_a_partner_who_then_is_still_seen() -> None:
    game = make_game(
        [["R1", "R2", "R3"], ["R7", "B2", "B3"], ["G1", "G2", "G3"], ["Y1", "Y2", "Y3"]],
        ["R9"],
        teams="2v2",
        team_view=True,
        seven_swap=True,
    )
    assert {a.target for a in game.legal_actions(1) if a.card == C("R7")} == {0, 2, 3}
    play(game, 1, "R7", target=3)
    assert game.view(3).partner_hands == ((1, tuple(cards("Y1 Y2 Y3"))),)
    assert game.view(1).partner_hands == ((3, tuple(cards("B2 B3"))),)


def test_a_partner_may_catch_a_partner() -> None:
    game = make_game(OUT_BY_ONE, ["R9", "B7"], teams="2v2")
    play(game, 1, "R3")
    catch = Action(3, Kind.CATCH, target=1)
    assert catch in game.legal_actions(3)
    game.apply(catch)
    assert len(game.hands[1]) == 3


# ---------------------------------------------------------------- team_view and secrecy


@pytest.mark.parametrize("team_view", [False, True])
def test_a_view_names_partners_and_shows_their_hands_only_under_team_view(team_view: bool) -> None:
    game = make_game(FOUR, ["R9"], teams="2v2", team_view=team_view)
    view = game.view(0)
    assert view.partners == (2,)
    assert view.partner_hands == (((2, tuple(cards("G1 G2"))),) if team_view else ())
    sent = view.to_json()
    assert sent["partners"] == [2]
    assert sent["partner_hands"] == ([{"seat": 2, "hand": ["G1", "G2"]}] if team_view else [])
    assert game.view(None).partners == () and game.view(None).partner_hands == ()


@pytest.mark.parametrize("team_view", [False, True])
def test_the_conductor_tells_a_partner_the_cards_drawn_only_under_team_view(team_view: bool) -> None:
    game = make_game(FOUR, ["R9", "B7"], teams="2v2", team_view=team_view)
    table = Conductor(game, [None] * 4)
    told: dict[int, list[Event]] = {0: [], 1: [], 3: []}
    for seat, heard in told.items():
        table.listen(seat, lambda _action, events, heard=heard: heard.extend(events))  # type: ignore[misc]
    table.act(Action.draw(1))
    drew = [e for e in told[3] if isinstance(e, Drew)]
    assert drew[0].cards == ((C("B7"),) if team_view else None)
    assert next(e for e in told[0] if isinstance(e, Drew)).cards is None  # not a partner: never
    dealt = next(e for _, events in table.history(2) for e in events if isinstance(e, Dealt))
    assert [hand is not None for hand in dealt.hands] == [team_view, False, True, False]


# ---------------------------------------------------------------- the RL observation


@pytest.mark.parametrize(
    ("rules", "offsets"),
    [
        (Rules(teams="2v2"), [2]),
        (Rules(players=6, teams="3v3"), [2, 4]),
        (Rules(players=6, teams="pairs"), [3]),
        (Rules(players=10, teams="pairs"), [5]),
        (Rules(), []),
    ],
)
def test_the_rl_observation_marks_each_partner_by_offset(rules: Rules, offsets: list[int]) -> None:
    pytest.importorskip("pettingzoo")  # the rl extra
    pytest.importorskip("gymnasium")
    from unomas.rl.observation import ObservationLayout, encode

    layout = ObservationLayout(rules)
    game = Game(rules, seed=1)
    for seat in range(rules.players):
        marked = [int(x) for x in encode(game.view(seat), layout)[layout.slices["partners"]]]
        assert [k for k, mark in enumerate(marked) if mark] == offsets
        assert sorted((seat + k) % rules.players for k in offsets) == sorted(game.view(seat).partners)


# ---------------------------------------------------------------- the heuristic


def heuristic(game: Game, seat: int, *, act: bool = True) -> Action | None:
    """What a heuristic bot that never slips does at ``seat`` now (on turn, or out of turn)."""
    bot = HeuristicBot(forget=0.0, miss=0.0)
    bot.start(seat, game.rules, random.Random(0))
    return bot.act(game.view(seat)) if act else bot.react(game.view(seat))


def test_the_heuristic_swaps_with_the_shortest_opponent_not_its_partner() -> None:
    game = make_game(
        [["R1", "R2", "R3"], ["R7", "B2", "B3"], ["G1", "G2", "G3"], ["Y1", "Y2", "Y3"]], ["R9"], seven_swap=True
    )
    move(game, "Y1", 3, 2)
    move(game, "Y2", 3, 0)  # seat 3 holds one card, seat 0 four, seat 2 five
    assert heuristic(game, 1) == Action.play(1, C("R7"), target=3, uno=True)  # without teams: the fewest cards
    teams = make_game(
        [["R1", "R2", "R3"], ["R7", "B2", "B3"], ["G1", "G2", "G3"], ["Y1", "Y2", "Y3"]],
        ["R9"],
        seven_swap=True,
        teams="2v2",
    )
    move(teams, "Y1", 3, 2)
    move(teams, "Y2", 3, 0)
    assert heuristic(teams, 1) == Action.play(1, C("R7"), target=0)  # seat 3 is its partner


def test_the_heuristic_never_catches_its_partner() -> None:
    game = make_game(OUT_BY_ONE, ["R9", "B7"], teams="2v2")
    play(game, 1, "R3")  # no UNO call
    assert heuristic(game, 3, act=False) is None
    assert heuristic(game, 0, act=False) == Action(0, Kind.CATCH, target=1)


def test_the_heuristic_sends_a_penalty_back_rather_than_on_to_its_partner() -> None:
    hands = [["G1", "G2", "G3"], ["R+2", "B4", "B5"], ["RR", "R+2", "B1"], ["Y1", "Y2", "Y3"]]
    settings = {"elimination": 4, "stack_draw_two": True, "reverse_deflect": True}
    for teams, answer in (("none", "R+2"), ("2v2", "RR")):
        game = make_game(hands, ["R9"], teams=teams, **settings)
        move(game, "G1", 0, 3)
        move(game, "G2", 0, 3)  # seat 3 is out of the round: seat 2's next is seat 0, holding one card
        play(game, 1, "R+2")
        assert heuristic(game, 2) == Action.play(2, C(answer)), teams


@pytest.mark.parametrize(("team_view", "answer"), [(True, Action.play(1, C("W"), color=1)), (False, None)])
def test_the_heuristic_helps_its_partner_out_with_its_colour(team_view: bool, answer: Action | None) -> None:
    hands = [["G1", "G2", "G3"], ["R5", "B4", "W"], ["RR", "R+2", "B1"], ["Y1", "Y2", "Y3"]]
    game = make_game(hands, ["R9"], teams="2v2", team_view=team_view, elimination=4)
    move(game, "Y1", 3, 2)
    move(game, "Y2", 3, 2)  # seat 2 is out of the round: seat 1's partner, seat 3, holding Y3, comes next
    assert heuristic(game, 1) == (answer or Action.play(1, C("R5")))  # unseen, the partner's colour is unknown


# ---------------------------------------------------------------- words


@pytest.mark.parametrize(
    ("lang", "teams", "partner", "round_won", "match_won"),
    [
        (
            "en",
            "Teams: 2 against 2",
            "Carla: 2 cards, 0 pts (partner) [G1 G2]",
            "Beto wins the round for Beto + Dani, who score 12 points.",
            "Beto + Dani win the match with 12 points.",
        ),
        (
            "es",
            "Equipos: 2 contra 2",
            "Carla: 2 cartas, 0 pts (compañero) [G1 G2]",
            "Beto gana la ronda para Beto + Dani, que se anotan 12 puntos.",
            "Beto + Dani ganan la partida con 12 puntos.",
        ),
    ],
)
def test_the_words_name_teams_and_partners(lang: str, teams: str, partner: str, round_won: str, match_won: str) -> None:
    t = translator(lang)
    names = ["Ana", "Beto", "Carla", "Dani"]
    rules = Rules(teams="2v2", team_view=True)
    assert teams in rules_line(rules, t)
    assert teams not in rules_line(Rules(), t)
    view = make_game(FOUR, ["R9"], teams="2v2", team_view=True).view(0)
    assert seat_line(view, 2, names, t) == partner
    assert "(" not in seat_line(view, 1, names, t)  # an opponent: no mark
    game, events = out_by_one(target_score=12)
    said = narrate(events, names, t, game.rules)
    assert round_won in said and match_won in said
    assert round_won not in narrate(events, names, t)  # without the rules, no team is named
    ended = next(e for e in events if isinstance(e, RoundEnded))
    summary = round_summary(ended, names, t, game.rules)[0]
    assert "Beto + Dani" in summary and "+12" in summary
    assert "Dani" not in round_summary(ended, names, t)[0]


# ---------------------------------------------------------------- matches and faces


@pytest.mark.parametrize(("teams", "players"), [("2v2", 4), ("3v3", 6), ("pairs", 8)])
@pytest.mark.parametrize("preset", ["official", "all"])
def test_simulated_team_matches_end_with_a_team_ahead_and_replay(teams: str, players: int, preset: str) -> None:
    from unomas.runs.selfplay import selfplay

    rules = Rules.preset(preset, players=players, teams=teams, target_score=60)
    table = selfplay(rules, "random", seed=f"{teams}-{preset}", history=True)
    table.play()
    game = table.game
    assert game.is_over and game.winner is not None
    assert all(game.scores[seat] == game.scores[mate] for seat in range(players) for mate in rules.partners(seat))
    best = min(game.scores) if rules.alternative_scoring else max(game.scores)
    assert game.scores[game.winner] == best
    written = json.loads(record.dumps(record.to_json(game)))
    assert written["rules"]["teams"] == teams
    assert record.replay(written).position() == game.position()


def test_a_room_takes_teams_by_name_and_refuses_a_table_of_the_wrong_size() -> None:
    pytest.importorskip("pydantic")
    from pydantic import ValidationError

    from unomas.server.protocol import RoomSetup

    setup = RoomSetup(name="Ana", rules={"teams": "2v2", "team_view": True}, bots=[1, 2, 3])
    assert setup.game_rules().partners(1) == (3,)
    with pytest.raises(ValidationError, match="Teams 3v3 are played by 6 players, not 4"):
        RoomSetup(name="Ana", rules={"teams": "3v3"}, bots=[1, 2, 3])


async def setup_with_teams(teams: str) -> tuple[Rules | None, str]:
    """The terminal setup with ``teams`` chosen and Play pressed: the rules it would start,
    or the error it shows instead."""
    from textual.widgets import Label, Select

    from unomas.errors import SettingsError
    from unomas.tui.app import SetupScreen, UnomasApp
    from unomas.tui.session import Setup

    app = UnomasApp(translator("en"), setup=Setup(players=4, bots=["random"]), make_session=lambda _setup: None)  # type: ignore[arg-type,return-value]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        screen.query_one("#teams", Select).value = teams
        await pilot.pause()
        try:
            return screen.chosen().rules(), ""
        except SettingsError:
            screen.action_start()  # refused: the screen says why, and stays
            await pilot.pause()
            return None, str(screen.query_one("#error", Label).render())


@pytest.mark.parametrize(("teams", "error"), [("2v2", ""), ("3v3", "Teams 3v3 are played by 6 players, not 4.")])
def test_the_terminal_setup_chooses_the_teams(teams: str, error: str) -> None:
    pytest.importorskip("textual")
    import asyncio

    rules, shown = asyncio.run(setup_with_teams(teams))
    assert shown == error
    assert (rules.teams if rules else None) == (None if error else teams)


def test_simulate_plays_teams_and_its_records_replay(tmp_path: object) -> None:
    pytest.importorskip("typer")
    from pathlib import Path

    from typer.testing import CliRunner

    from unomas.cli import app

    path = Path(str(tmp_path)) / "teams.jsonl"
    env = {"COLUMNS": "200", "NO_COLOR": "1", "LANGUAGE": "en"}
    runner = CliRunner()
    made = runner.invoke(
        app, ["simulate", "-n", "6", "--seed", "2", "--set", "teams=2v2", "--records", str(path)], env=env
    )
    assert made.exit_code == 0, made.output
    wins = next(line for line in made.output.splitlines() if "wins by team" in line)
    first, second = (int(part.split(":")[1]) for part in wins.split("wins by team")[1].split("  ") if ":" in part)
    assert first + second == 6 and "0+2:" in wins and "1+3:" in wins
    replayed = runner.invoke(app, ["replay", "--verify", str(path)], env=env)
    assert replayed.exit_code == 0, replayed.output
    assert replayed.output.count("valid") == 6


@pytest.mark.parametrize("team_view", [False, True])
def test_a_search_deals_a_seen_partner_hand_as_it_is(team_view: bool) -> None:
    from unomas.bots.search import sample_world

    game = Game(Rules(teams="2v2", team_view=team_view), seed=3)
    view = game.view(0)
    worlds = [sample_world(view, random.Random(seed)) for seed in range(8)]
    assert all(world.hands[0] == game.hands[0] for world in worlds)
    partner_kept = [world.hands[2] == game.hands[2] for world in worlds]
    assert all(partner_kept) if team_view else not all(partner_kept)
    assert len({tuple(world.hands[1]) for world in worlds}) > 1  # an opponent's hand is redealt


def test_ismcts_counts_a_partner_going_out_as_a_win() -> None:
    from unomas.bots.ismcts import IsmctsBot

    hands = [["G1", "G2", "G3"], ["R5", "B4", "W"], ["RR", "R+2", "B1"], ["Y1", "Y2", "Y3"]]
    game = make_game(hands, ["R9"], teams="2v2", team_view=True, elimination=4)
    move(game, "Y1", 3, 2)
    move(game, "Y2", 3, 2)  # seat 3, seat 1's partner and next in the round, holds Y3 alone
    bot = IsmctsBot(iterations=300)
    bot.start(1, game.rules, random.Random(1))
    chosen = bot.act(game.view(1))
    assert (chosen.card, chosen.color) == (C("W"), 1)  # a yellow Wild: the partner goes out at once


@pytest.mark.parametrize(
    ("reward", "expected"), [("win", [-1.0, 1.0, -1.0, 1.0]), ("points", [-2.0, 12.0, -10.0, 12.0])]
)
def test_an_rl_reward_goes_to_the_team(reward: str, expected: list[float]) -> None:
    pytest.importorskip("pettingzoo")  # the rl extra
    pytest.importorskip("gymnasium")
    from unomas.rl.driver import Driver

    game, events = out_by_one(target_score=0)
    driver = Driver(game.rules, reward=reward, max_steps=100)  # type: ignore[arg-type]
    assert driver._follow(events) == expected


@pytest.mark.parametrize(
    ("lang", "line"), [("en", "Beto + Dani win the match!"), ("es", "¡Beto + Dani ganan la partida!")]
)
def test_the_end_of_a_team_match_names_every_winner(lang: str, line: str) -> None:
    rules = Rules(players=4, teams="2v2")
    names = ["Ana", "Beto", "Carla", "Dani"]
    assert rules.winners(3) == (1, 3) and Rules(players=4).winners(3) == (3,)
    assert match_summary([12, 530, 12, 530], rules.winners(3), names, translator(lang))[0] == line
