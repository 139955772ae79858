"""The catalogs, card names and narration in Spanish and English."""

from __future__ import annotations

import io
import string
import subprocess
import sys
import typing
from functools import partial
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from unomas import events as ev
from unomas import i18n
from unomas.actions import Action
from unomas.bots import make_bot
from unomas.bots.player import bot_match
from unomas.cards import KINDS, card_token, parse_card
from unomas.errors import IllegalAction, NotationError, RecordError, SettingsError
from unomas.events import Event
from unomas.game import Game
from unomas.i18n import (
    LANGUAGES,
    LOCALE_DIR,
    card_name,
    catalog_json,
    color_name,
    default_language,
    describe,
    error_text,
    narrate,
    record_error_text,
    translator,
)
from unomas.i18n.extract import extract_data_t
from unomas.i18n.switches import switch_groups, switches_json
from unomas.record import replay
from unomas.rules import SWITCHES, Rules

ROOT = Path(__file__).resolve().parents[1]
MAPPING = ROOT / "babel.cfg"
"""Where the messages are (the code of i18n/, tui/, cli/ and the browser page), as
``pybabel extract -F babel.cfg`` reads them."""


def po_messages(lang: str) -> dict[tuple[str, str | None], object]:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "unomas.po").open("rb") as file:
        catalog = read_po(file)
    return {(m.id if isinstance(m.id, str) else m.id[0], m.context): m.string for m in catalog if m.id}


def used_messages() -> set[tuple[str, str | None]]:
    with MAPPING.open() as file:
        method_map, options_map = parse_mapping_cfg(file, str(MAPPING))  # type: ignore[no-untyped-call]
    found = set()
    for _name, _line, message, _comments, context in extract_from_dir(ROOT, method_map, options_map):
        found.add((message if isinstance(message, str) else message[0], context))
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_compiled_catalog_matches_its_source(lang: str) -> None:
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    with (folder / "unomas.po").open("rb") as file:
        source = read_po(file)
    with (folder / "unomas.mo").open("rb") as file:
        compiled = read_mo(file)
    assert entries(compiled) == entries(source)
    assert compiled.plural_forms == source.plural_forms == "nplurals=2; plural=(n != 1);"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_holds_exactly_the_messages_in_use_all_translated(lang: str) -> None:
    messages = po_messages(lang)
    assert set(messages) == used_messages()
    untranslated = [key for key, text in messages.items() if not text or (isinstance(text, tuple) and not all(text))]
    assert untranslated == []


def test_the_catalogs_hold_the_browser_page_s_words() -> None:
    used = {message for message, _context in used_messages()}
    assert {"Join", "Seat {n}", "House rules", "{player} wins the round and scores {n} point."} <= used
    assert translator("es").gettext("Join") == "Unirse"


def test_the_html_extractor_reads_data_t_attributes_with_their_lines() -> None:
    page = '<main>\n<h2 data-t="Crear">Crear</h2>\n<p data-t="">x</p><b title="t" data-t="Año">Año</b></main>'
    found = list(extract_data_t(io.BytesIO(page.encode("latin-1")), {}, [], {"encoding": "latin-1"}))
    assert found == [(2, None, "Crear", []), (3, None, "Año", [])]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_switch_is_in_exactly_one_group_with_a_title_and_an_explanation(lang: str) -> None:
    groups = switch_groups(lang)
    names = [switch.name for group in groups for switch in group.switches]
    assert sorted(names) == sorted(SWITCHES) and len(names) == len(set(names))
    titles = [group.title for group in groups]
    texts = [text for group in groups for switch in group.switches for text in (switch.title, switch.explanation)]
    assert all(titles + texts) and len(set(titles)) == len(titles) and len(set(texts)) == len(texts)


def test_the_switches_for_a_browser_say_which_the_official_rules_have_on() -> None:
    official = Rules.preset("official")
    for lang in LANGUAGES:
        switches = [switch for group in switches_json(lang) for switch in group["switches"]]
        assert {s["name"]: s["official"] for s in switches} == {name: getattr(official, name) for name in SWITCHES}
    spanish, english = switches_json("es"), switches_json("en")
    assert [g["title"] for g in spanish] == ["Cartas de robo", "Jugadas", "Robar del mazo", "Puntuación", "Equipos"]
    assert spanish[0]["switches"][0]["title"] == "Desafiar el Comodín roba cuatro"
    assert english[0]["switches"][0] == {
        "name": "challenge_wild_draw_four",
        "title": "Challenge the Wild Draw Four",
        "explanation": "W+4 only without the colour in play; the next player may challenge it",
        "official": True,
    }


def entries(catalog: Catalog) -> dict[tuple[object, str | None], object]:
    """A catalog's messages as comparable values (plural ids and forms as tuples)."""

    def value(item: object) -> object:
        return tuple(item) if isinstance(item, list | tuple) else item

    return {(value(m.id), m.context): value(m.string) for m in catalog if m.id}


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_translations_keep_their_placeholders_and_english_is_the_source() -> None:
    for (msgid, _context), text in po_messages("es").items():
        texts = text if isinstance(text, tuple) else (text,)
        for form in texts:
            assert fields(form) <= fields(msgid) | {"n"}, (msgid, form)
            assert fields(msgid) - {"n"} <= fields(form), (msgid, form)
    english = catalog_json("en")
    assert all(key.split("\x04")[-1] == text for key, text in english.items())


def test_catalog_json_translates_every_id_including_plural_forms() -> None:
    spanish, english = catalog_json("es"), catalog_json("en")
    assert set(spanish) == set(english)
    assert spanish["Draw Two"] == "Roba dos"
    assert spanish["in a card name\x04Red"] == "rojo"
    assert spanish["{player} draws a card."] == "{player} roba una carta."
    assert spanish["{player} draws {n} cards."] == "{player} roba {n} cartas."


def test_a_record_error_reads_in_spanish_with_its_location_and_its_wrapped_refusal() -> None:
    with pytest.raises(RecordError) as caught:
        replay({"format": "unomas-record/1", "rules": None})
    error = caught.value.located(record=3, round=1, event=5)
    assert error.code == "record.rules"
    assert error.params["cause_code"] == "setup.not_an_object"
    assert (error.params["record"], error.params["round"], error.params["event"]) == (3, 1, 5)
    assert error_text(error.code, error.params, "es") == (
        "registro 3, ronda 1, evento 5: reglas (rules): los ajustes deben ser un objeto, no null"
    )
    assert error_text(error.code, error.params, "en") == str(error)
    assert record_error_text(error.code, error.params, "es", record=False) == (
        "ronda 1, evento 5: reglas (rules): los ajustes deben ser un objeto, no null"
    )


def test_the_part_of_a_record_a_misplaced_field_names_reads_in_spanish() -> None:
    with pytest.raises(RecordError) as caught:
        replay({"format": "unomas-record/1", "p": 0})
    assert caught.value.code == "record.misplaced_field"
    assert error_text(caught.value.code, caught.value.params, "es") == "el campo 'p' no pertenece a un registro"


def test_a_refused_move_reads_in_spanish() -> None:
    game = Game(Rules(), seed=1)
    with pytest.raises(IllegalAction) as caught:
        game.apply(Action.draw((game.current + 1) % game.players))
    error = caught.value
    assert (error.code, error.params["current"]) == ("move.not_your_turn", game.current)
    assert error_text(error.code, error.params, "es") == f"es el turno del jugador {game.current}"
    assert error_text(error.code, error.params, "en") == str(error)


def test_a_refused_setting_and_a_card_written_wrongly_read_in_spanish() -> None:
    with pytest.raises(SettingsError) as setting:
        Rules(players=11)
    assert (setting.value.code, setting.value.params) == ("setup.players_range", {"value": 11})
    assert error_text(setting.value.code, setting.value.params, "es") == "Una partida tiene de 2 a 10 jugadores, no 11."
    with pytest.raises(NotationError) as notation:
        parse_card("R10")
    assert notation.value.code == "notation.not_a_card"
    words = error_text(notation.value.code, notation.value.params, "es")
    assert words == "no es una carta: 'R10' (las cartas son R0…B9, RS, RR, R+2, W, W+4)"


def test_translator_and_default_language() -> None:
    assert translator("es").gettext("Skip") == "Salta"
    assert translator("en").gettext("Skip") == "Skip"
    with pytest.raises(SettingsError) as unknown:
        translator("fr")
    assert (unknown.value.code, unknown.value.params["lang"]) == ("setup.unknown_language", "'fr'")
    assert default_language({"LANGUAGE": "es:en", "LANG": "en_US.UTF-8"}) == "es"
    assert default_language({"LC_MESSAGES": "es_MX.UTF-8"}) == "es"
    assert default_language({"LANG": "de_DE.UTF-8"}) == "en"
    assert default_language({}) == "en"
    assert default_language() in LANGUAGES


def test_card_names_follow_the_rule_texts_and_always_show_the_token() -> None:
    spanish = {card_token(k): card_name(k, "es") for k in range(KINDS)}
    assert spanish["R+2"] == "Roba dos rojo (R+2)"
    assert spanish["BR"] == "Cambio de sentido azul (BR)"
    assert spanish["GS"] == "Salta verde (GS)"
    assert spanish["Y7"] == "7 amarillo (Y7)"
    assert spanish["W"] == "Comodín (W)"
    assert spanish["W+4"] == "Comodín roba cuatro (W+4)"
    assert card_name(parse_card("BR"), "en") == "Blue Reverse (BR)"
    for lang in LANGUAGES:
        assert all(f"({card_token(k)})" in card_name(k, lang) for k in range(KINDS))
    assert [color_name(c, "es") for c in range(4)] == ["Rojo (R)", "Amarillo (Y)", "Verde (G)", "Azul (B)"]
    assert color_name(1, "en") == "Yellow (Y)"


R7, W4 = parse_card("R7"), parse_card("W+4")
SAMPLES: list[Event] = [
    ev.Dealt(0, 1, ((R7,), None), None),
    ev.StartingCardReturned(None),
    ev.StartingCard(R7),
    ev.Played(0, W4, 2, None, False, False),
    ev.Played(1, R7, None, None, False, True),
    ev.Drew(0, 1, None, "turn"),
    ev.Drew(0, 2, (R7, W4), "turn"),
    ev.Drew(0, 4, None, "penalty"),
    ev.Drew(1, 6, None, "challenge"),
    ev.Drew(1, 2, None, "caught"),
    ev.Passed(1),
    ev.ColorChosen(0, 3),
    ev.UnoCalled(1),
    ev.Caught(0, 1),
    ev.Skipped(1),
    ev.DirectionChanged(1),
    ev.DirectionChanged(-1),
    ev.PenaltyPending(1, 4, True),
    ev.PenaltyPending(1, 2, False),
    ev.Challenged(1, 0, True, (R7,)),
    ev.Challenged(1, 0, False, None),
    ev.HandsSwapped(0, 1),
    ev.HandsPassed(1),
    ev.HandsPassed(-1),
    ev.Reshuffled(40, None),
    ev.RoundEnded(0, 57, ((), (R7,)), (57, 0)),
    ev.MatchEnded(0, (557, 20)),
    ev.RunEnded(0),
    ev.Eliminated(1, 25),
]


def test_every_event_type_has_a_sentence_in_both_languages() -> None:
    assert {type(e) for e in SAMPLES} == set(typing.get_args(Event))
    names = ["Ana", "Beto"]
    spanish, english = narrate(SAMPLES, names, "es"), narrate(SAMPLES, names, "en")
    for es_text, en_text in zip(spanish, english, strict=True):
        assert es_text and en_text and es_text != en_text
        assert "{" not in es_text + en_text
    assert len(set(spanish)) == len(SAMPLES)
    assert spanish[3] == "Ana juega Comodín roba cuatro (W+4) y elige verde."
    assert spanish[6] == "Ana roba 2 cartas (7 rojo (R7), Comodín roba cuatro (W+4))."
    assert english[7] == "Ana draws 4 and loses the turn."
    assert spanish[19] == "Beto desafía a Ana: el Comodín roba cuatro era un farol. Ana enseña 7 rojo (R7)."
    assert spanish[-2:] == [
        "Ana no juega más de ese número y acaba el turno.",
        "Beto tiene 25 cartas y queda fuera de la ronda.",
    ]
    assert english[-1] == "Beto holds 25 cards and is out of the round."


def test_describe_joins_an_action_s_events() -> None:
    names = ["Ana", "Beto"]
    played: list[Event] = [ev.Played(1, parse_card("R+2"), None, None, False, False), ev.PenaltyPending(0, 2, False)]
    assert describe(played, names, "es") == "Beto juega Roba dos rojo (R+2): Ana tiene que robar 2."
    assert describe(played, names, "en") == "Beto plays Red Draw Two (R+2): Ana must draw 2."
    assert describe(played[:1], names, "en") == "Beto plays Red Draw Two (R+2)."
    assert describe([], names, "en") == ""


def keep(kept: list[list[Event]], _action: object, events: list[Event]) -> None:
    kept.append(events)


def test_a_whole_match_narrates_for_every_seat() -> None:
    heard: dict[int | None, list[list[Event]]] = {seat: [] for seat in (0, 1, 2, None)}
    table = bot_match(Rules.preset("all", players=3, target_score=0), [make_bot("random") for _ in range(3)], seed=5)
    for seat, seen in heard.items():
        table.listen(seat, partial(keep, seen))
    table.play()
    names = ["Ana", "Beto", "Carla"]
    kinds: set[type] = set()
    for seen in heard.values():
        for events in seen:
            for lang in LANGUAGES:
                line = describe(events, names, lang)
                assert line[-1] in ".!" and "{" not in line
            kinds.update(type(e) for e in events)
    assert len(kinds) >= 6


def test_narration_and_the_catalogs_load_without_an_import_cycle() -> None:
    """``unomas.i18n`` does not load its narration while it loads; narration loads on its own."""
    code = "import sys, unomas.i18n; print('unomas.i18n.narration' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.strip() == "False"
    code = "import unomas.i18n.narration as n, unomas.i18n as i;"
    code += " print(i.describe is n.describe, i.narrate is n.narrate)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.strip() == "True True"
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = i18n.nothing  # type: ignore[attr-defined]


def test_a_chosen_colour_is_named_the_same_way_with_a_wild_and_for_a_starting_wild() -> None:
    from unomas.events import ColorChosen, Played

    wild = Played(0, parse_card("W"), 1, None, False, False)
    for lang, played, chosen in (
        ("es", "Ana juega Comodín (W) y elige amarillo.", "Ana elige amarillo."),
        ("en", "Ana plays Wild (W) and chooses Yellow.", "Ana chooses Yellow."),
    ):
        assert narrate([wild, ColorChosen(0, 1)], ["Ana", "Beto"], lang) == [played, chosen]
