"""Why something is refused: a stable reason code for every refusal, and its English template.

Every refusal of the engine (an illegal action, a bad setting, a card or move written
wrongly, a position that does not hold together) has a code such as ``move.not_your_turn``
and params such as ``{"current": 2}``; its English message is the code's template filled
with the params: ``"it is player {current}'s turn"`` gives ``"it is player 2's turn"``.

The templates use only ``{name}`` placeholders and the params are plain JSON values (a
value the message shows as Python writes it is given already written so, ``"'x'"``), so a
front end translates a refusal by looking its template up as a gettext msgid and filling
the translation with the same params. The errors carry both: ``reason_code`` and the params
in :attr:`UnoError.params <unomas.errors.UnoError.params>`. This module imports nothing of
the game, so that the translation layer can read the table alone.

>>> text("move.not_your_turn", {"current": 2})
"it is player 2's turn"
>>> from unomas.errors import SettingsError
>>> error = refused(SettingsError, "setup.players_range", value=11)
>>> error.code, error.params, str(error)
('setup.invalid', {'reason_code': 'setup.players_range', 'value': 11}, 'players must be 2 to 10, not 11')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, TypeVar

from unomas.errors import UnoError

__all__ = ["PARTS", "TEMPLATES", "caused", "refused", "text"]

_E = TypeVar("_E", bound=UnoError)


def N_(message: str) -> str:
    """``message`` itself: marks a template for ``pybabel extract``, which reads ``N_``."""
    return message


TEMPLATES: Final[dict[str, str]] = {
    # An action refused by the game (IllegalAction, code move.illegal).
    "move.not_an_action": N_("not an action: {action}"),
    "move.unknown_kind": N_("unknown action kind {kind}"),
    "move.no_such_seat": N_("there is no seat {player} (seats are 0 to {last})"),
    "move.bad_card": N_("card must be a whole number from 0 to {last}, not {value}"),
    "move.bad_color": N_("colour must be a whole number from 0 to {last}, not {value}"),
    "move.bad_target": N_("target must be a whole number from 0 to {last}, not {value}"),
    "move.bad_uno": N_("uno must be true or false, not {value}"),
    "move.match_over": N_("the match is over"),
    "move.round_over": N_("the round is over; the next round must be dealt first"),
    "move.needs_card": N_("a play needs a card"),
    "move.not_legal": N_("not a legal action now"),
    "move.takes_no_card": N_("a {kind} takes no card and no UNO call"),
    "move.takes_no_color": N_("a {kind} takes no colour"),
    "move.takes_no_target": N_("a {kind} takes no target"),
    "move.catch_needs_target": N_("a catch needs a target seat, not {target}"),
    "move.catch_self": N_("a player cannot catch themselves"),
    "move.not_catchable": N_("player {target} cannot be caught now"),
    "move.uno_takes_no_color": N_("an UNO call takes no colour"),
    "move.no_uno": N_("player {player} has no UNO to call"),
    "move.color_not_open": N_("only the dealer chooses a colour, and only for a starting Wild"),
    "move.color_missing": N_("a colour must be R, Y, G or B"),
    "move.not_your_turn": N_("it is player {current}'s turn"),
    "move.color_first": N_("the dealer must first choose the colour of the starting Wild"),
    "move.play_or_pass": N_("after drawing a playable card, play it or pass"),
    "move.pass_not_allowed": N_("passing is only allowed after drawing a playable card"),
    "move.must_play_drawn": N_("a playable drawn card must be played (force_play_drawn)"),
    "move.challenge_off": N_("challenging is off (challenge_wild_draw_four)"),
    "move.nothing_to_challenge": N_("there is no Wild Draw Four to challenge"),
    "move.no_such_card": N_("player {player} holds no {card}"),
    "move.jump_in_not_identical": N_("it is player {current}'s turn; a jump-in needs a card identical to {top}"),
    "move.only_drawn_card": N_("after drawing, only the drawn card ({drawn}) may be played"),
    "move.does_not_match": N_("{card} does not match the top card {top} (colour in play {color})"),
    "move.no_action_finish": N_("the last card may not be an action or wild card (no_action_finish)"),
    "move.stack_wrong_color": N_("facing a W+4, only a +2 of the chosen colour {color} answers it"),
    "move.stack_not_allowed": N_("facing a {facing}, {card} may answer it only with {switch}"),
    "move.penalty_pending": N_("facing a {facing} penalty of {penalty}, {card} cannot be played (draw it)"),
    "move.needs_color": N_("{card} needs a colour (R, Y, G or B)"),
    "move.card_takes_no_color": N_("{card} takes no colour"),
    "move.needs_target": N_("{card} needs a target: another player's seat (seven_zero)"),
    "move.card_takes_no_target": N_("{card} takes no target"),
    "move.uno_not_allowed": N_("UNO can be called with a play only when it leaves exactly one card"),
    # A round dealt out of time (IllegalAction, code move.illegal).
    "round.match_over": N_("the match is over: no more rounds are dealt"),
    "round.in_play": N_("a new round can only be dealt once the round in play is over"),
    # A setting refused (SettingsError, code setup.invalid).
    "setup.not_boolean": N_("{name} must be true or false, not {value}"),
    "setup.not_integer": N_("{name} must be a whole number, not {value}"),
    "setup.players_range": N_("players must be 2 to 10, not {value}"),
    "setup.hand_size_range": N_("hand_size must be at least 1, not {value}"),
    "setup.too_many_cards": N_("players × hand_size must be at most 99, not {players} × {hand_size} = {total}"),
    "setup.target_score_range": N_("target_score must be 0 or more, not {value}"),
    "setup.unknown_preset": N_("unknown preset {name} (presets are {known})"),
    "setup.not_an_object": N_("settings must be an object, not {type}"),
    "setup.unknown_setting": N_("unknown setting {name} (settings are {known})"),
    "setup.missing_setting": N_("setting {name} is missing"),
    "setup.not_an_assignment": N_("expected NAME=VALUE, not {text}"),
    # A card, colour, move or position written wrongly (NotationError, code notation.invalid).
    "notation.not_a_card": N_("not a card: {token} (cards are R0…B9, RS, RR, R+2, W, W+4)"),
    "notation.not_a_color": N_("not a colour: {letter} (colours are R, Y, G, B)"),
    "notation.move_not_object": N_("a move must be an object, not {type}"),
    "notation.unknown_move": N_("unknown move {move} (moves are {known})"),
    "notation.misplaced_field": N_("field {field} does not belong to a {kind} move"),
    "notation.missing_field": N_("a {kind} move needs a '{field}'"),
    "notation.not_a_seat": N_("move field '{field}' must be a seat number, not {value}"),
    "notation.not_a_flag": N_("move field '{field}' must be true or false, not {value}"),
    "notation.action_text": N_("not an action: {text} (actions read like '1 play R3 uno', '0 draw' or '2 catch @1')"),
    "notation.position_not_object": N_("a position must be an object, not {type}"),
    "notation.position_unknown_field": N_("unknown position field {field}"),
    "notation.position_missing_field": N_("position field {field} is missing"),
    "notation.position_bad_field": N_("position field {field} has the wrong form: {value}"),
    # A deal, pile order or reshuffle that is not the right cards (DealError, code deal.invalid).
    "deal.too_many_copies": N_("the deal uses more {card} cards than the deck holds ({copies})"),
    "deal.reshuffle_unused": N_("a reshuffle was given but the action drew from no empty pile"),
    "deal.reshuffle_mismatch": N_("the reshuffled pile must hold exactly the discard pile less its top card: {cards}"),
    "deal.hand_count": N_("the deal has {hands} hands for {players} players"),
    "deal.hand_size": N_("hand {seat} has {cards} cards, not {size}"),
    "deal.not_full_deck": N_("the hands and the pile are not exactly the 108 cards"),
    "deal.return_not_w4": N_("return {index}: the pile's top card is {card}, not W+4"),
    "deal.return_order": N_("return {index}: the new pile order is not the same cards as the pile"),
    "deal.return_missing": N_("the starting card is W+4: the pile's new order after returning it is missing"),
    # A position that does not hold together under its rules (PositionError, code position.invalid).
    "position.hand_count": N_("{hands} hands for {players} players"),
    "position.score_count": N_("{scores} scores for {players} players"),
    "position.not_full_deck": N_("the hands, the pile and the discard pile are not exactly the 108 cards"),
    "position.no_such_seat": N_("{field} must be a seat from 0 to {last}, not {value}"),
    "position.bad_direction": N_("direction must be 1 or -1, not {value}"),
    "position.color_phase": N_(
        "the colour in play is null while the dealer chooses it and only then, not {color} in phase {phase}"
    ),
    "position.drawn_phase": N_("a drawn card belongs to the hand of the seat on turn in phase drawn, and only there"),
    "position.accused_missing": N_("a challengeable penalty needs the seat it accuses"),
    # A record that is malformed or does not replay (RecordError, code record.invalid). A
    # {cause} is the English message of the error it wraps, whose code and params are
    # ``cause_code`` and ``cause_params``; a {what} is one of PARTS.
    "record.not_json": N_("line {line} is not JSON: {detail}"),
    "record.not_an_object": N_("a record must be a JSON object, not {type}"),
    "record.bad_format": N_("format must be {expected}, not {value}"),
    "record.rules": N_("rules: {cause}"),
    "record.bad_names": N_("names must be a list of {players} strings, not {value}"),
    "record.no_rounds": N_("rounds must be a non-empty list"),
    "record.bad_scores": N_("scores must be a list of whole numbers, not {value}"),
    "record.scores_differ": N_("scores are {value} but the replay gives {replayed}"),
    "record.winner_differs": N_("winner is {value} but the replay gives {replayed}"),
    "record.round_not_object": N_("a round must be a JSON object"),
    "record.match_over": N_("the match was already over"),
    "record.bad_dealer": N_("dealer must be {expected}, not {value}"),
    "record.events_not_list": N_("events must be a list"),
    "record.bad_hands": N_("hands must be a list of {players} hands"),
    "record.hand_not_cards": N_("hand {seat} must be a list of cards"),
    "record.hand_bad_card": N_("hand {seat}: {cause}"),
    "record.pile_not_cards": N_("the pile of {what} must be a list of cards"),
    "record.pile_bad_card": N_("the pile of {what}: {cause}"),
    "record.draw_not_cards": N_("the draw's cards must be a list of cards"),
    "record.draw_bad_card": N_("the draw's cards: {cause}"),
    "record.deal": N_("deal: {cause}"),
    "record.unfit_reshuffle": N_("the reshuffle does not fit the move after it: {cause}"),
    "record.reshuffle_last": N_("a reshuffle ends the round's events with no move after it"),
    "record.result_differs": N_("result is {value} but the replay gives {replayed}"),
    "record.bad_result": N_("the result's winner and points must be whole numbers, not {value}"),
    "record.result_unended": N_("result is {value} but the round has not ended"),
    "record.round_unended": N_("the round has not ended but another round follows"),
    "record.event_not_object": N_("an event must be a JSON object"),
    "record.late_return": N_("a return event must follow the deal, before any move"),
    "record.unknown_chance": N_("unknown chance event {chance} (chance events are return, reshuffle)"),
    "record.two_reshuffles": N_("two reshuffles before one move (at most one per move)"),
    "record.round_over": N_("the round is already over"),
    "record.null_field": N_("move field {field} is null: a field that does not apply is left out"),
    "record.bad_move": N_("{cause}"),
    "record.illegal_move": N_("illegal move: {cause}"),
    "record.unrecorded_reshuffle": N_("reshuffle: a reshuffle happened but the record has none before this move"),
    "record.draw_differs": N_("the draw lists {listed} but draws {drawn}"),
    "record.misplaced_field": N_("field {field} does not belong to {what}"),
    "record.no_shuffle": N_("the record has no {field} object with a commitment and a seed"),
    "record.bad_shuffle": N_("{field} must hold a 'commitment' and a 'seed', both hex strings"),
    "record.seed_not_hex": N_("the seed {seed} is not hex"),
    "record.seed_mismatch": N_("the seed does not match the commitment (its SHA-256 differs)"),
    "record.malformed": N_("malformed record: {kind}: {detail}"),
    "record.does_not_replay": N_("the record does not replay: {cause}"),
    "record.seed_deal": N_("the seed does not deal this round's hands and pile"),
    "record.seed_return": N_("the seed does not return the starting W+4 to this pile order"),
    "record.seed_reshuffle": N_("the seed does not produce this reshuffle"),
}
"""Every reason code, with its English template (a gettext msgid)."""

PARTS: Final[tuple[str, ...]] = (
    N_("a record"),
    N_("a round"),
    N_("the round"),
    N_("a round's result"),
    N_("a move"),
    N_("a return event"),
    N_("a reshuffle event"),
)
"""The parts of a record a ``{what}`` param names, in English: a front end translates the
param as a gettext msgid too."""


def json_type(value: object) -> str:
    """The JSON name of ``value``'s type (``null``, ``array``…): refusals of JSON input
    name what the writer wrote, not a Python class.

    >>> json_type(None), json_type(True), json_type([1]), json_type(2.5)
    ('null', 'boolean', 'array', 'number')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return type(value).__name__


def text(code: str, params: Mapping[str, Any]) -> str:
    """The English message of reason ``code`` with ``params``."""
    return TEMPLATES[code].format_map(params)


def refused(kind: type[_E], code: str, /, **params: Any) -> _E:
    """An error of ``kind`` for reason ``code``: the filled template as its message, the
    code as ``reason_code`` and the params beside it."""
    return kind(text(code, params), reason_code=code, **params)


def caused(kind: type[_E], code: str, cause: UnoError, /, **params: Any) -> _E:
    """An error of ``kind`` for reason ``code`` whose ``{cause}`` is another error: its
    English message as ``cause``, and its code and params (``cause_code``, ``cause_params``)
    to word it in another language.

    >>> from unomas.errors import RecordError, SettingsError
    >>> error = caused(RecordError, "record.rules", refused(SettingsError, "setup.not_an_object", type="null"))
    >>> str(error), error.params["cause_params"]
    ('rules: settings must be an object, not null', {'reason_code': 'setup.not_an_object', 'type': 'null'})
    """
    return refused(kind, code, cause=cause.message, cause_code=cause.code, cause_params=cause.params, **params)
