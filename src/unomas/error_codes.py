"""The one table of unomas's errors: every code, its kind, HTTP status, params and words.

Every error unomas raises is an :class:`~unomas.errors.UnoError` with one precise ``code``
(``move.not_your_turn``, ``room.full``, ``record.bad_names``…) and its ``params``. The
code's entry here says everything else: the kind of error raised with it (the name of its
:class:`~unomas.errors.UnoError` subclass), the HTTP status a server answers with, the
params it carries, and its English words: a template with ``{name}`` placeholders, marked
with :func:`N_` so that ``pybabel extract`` puts it in the catalogs as a msgid. The error's
English message is the template filled with the params; a front end words it in its
reader's language by looking the template up in the catalog (:func:`unomas.i18n.error_text`,
or the ``errors`` the page is served). Nothing else lists codes or words for them, and no
caller matches an error's message text.

Params are plain JSON values; a value the words show as Python writes it is given already
written so (``"'x'"``). Three params are read specially: ``cause``, the English message of
an error a refusal wraps, whose own code and params are ``cause_code`` and ``cause_params``
(so that it reads in the reader's language too); ``what``, one of :data:`PARTS`; and a
record error's location, ``record``, ``round`` and ``event``. This module imports nothing,
so that the engine and the translation layer both read it alone.

>>> entry = ERRORS["move.not_your_turn"]
>>> entry.kind, entry.status, entry.params, entry.english({"current": 2})
('IllegalAction', 409, ('current', 'action'), "it is player 2's turn")
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

__all__ = ["ERRORS", "KIND_STATUS", "N_", "PARTS", "ErrorCode", "placeholders"]


def N_(message: str) -> str:
    """``message`` itself: marks a template for ``pybabel extract``, which reads ``N_``."""
    return message


def placeholders(template: str) -> tuple[str, ...]:
    """The ``{name}`` placeholders of ``template``, in order, each once.

    >>> placeholders("{card} does not match {top} ({card})")
    ('card', 'top')
    """
    import string  # (its import compiles a pattern: loaded when an error's params are first read)

    names = (name for _, name, _, _ in string.Formatter().parse(template) if name)
    return tuple(dict.fromkeys(names))


@dataclass(frozen=True)
class ErrorCode:
    """One code's entry: ``kind``, the name of the :class:`~unomas.errors.UnoError` subclass
    raised with it; ``status``, the HTTP status a server answers with; ``template``, its
    English words (a gettext msgid); ``extra``, params it carries that its words do not show."""

    kind: str
    """The name of the :class:`~unomas.errors.UnoError` subclass raised with the code (or of
    a class every one raised with it derives from)."""
    status: int
    template: str
    extra: tuple[str, ...] = ()

    @property
    def params(self) -> tuple[str, ...]:
        """Every param an error of this code carries: those its words show, then the extra ones."""
        return placeholders(self.template) + self.extra

    def english(self, params: Mapping[str, Any]) -> str:
        """The English message: the template filled with ``params``."""
        return self.template.format_map(params)


KIND_STATUS: Final[dict[str, int]] = {
    "IllegalAction": 409,
    "StaleAction": 409,
    "SettingsError": 422,
    "NotationError": 422,
    "DealError": 422,
    "PositionError": 422,
    "RecordError": 422,
    "BotError": 500,
}
"""The HTTP status of an engine kind's codes (a server's own refusals each have their own)."""


def _kind(kind: str, templates: dict[str, str], extra: tuple[str, ...] = ()) -> dict[str, ErrorCode]:
    """The entries of one engine kind: its status, each template, and the extra params
    every one of its errors carries."""
    return {code: ErrorCode(kind, KIND_STATUS[kind], template, extra) for code, template in templates.items()}


def _own(kind: str, entries: dict[str, tuple[int, str] | tuple[int, str, tuple[str, ...]]]) -> dict[str, ErrorCode]:
    """The entries of a kind whose codes each have their own HTTP status: (status,
    template) or (status, template, extra params)."""
    return {code: ErrorCode(kind, *entry) for code, entry in entries.items()}


ERRORS: Final[dict[str, ErrorCode]] = {
    # An action the rules refuse now, and a round dealt out of time; ``action`` is the
    # refused action as written (``1 play R3``), when there is one.
    **_kind(
        "IllegalAction",
        {
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
            "move.nobody_to_catch": N_(
                "nobody can be caught now: only a player left with one card who has not called UNO, until the next turn"
            ),
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
            "move.jump_in_not_identical": N_(
                "it is player {current}'s turn; a jump-in needs a card identical to {top}"
            ),
            "move.only_drawn_card": N_("after drawing, only the drawn card ({drawn}) may be played"),
            "move.does_not_match": N_("{card} does not match the top card {top} (colour in play {color})"),
            "move.no_action_finish": N_("the last card may not be an action or wild card (no_action_finish)"),
            "move.no_wild_finish": N_("the last card may not be a wild card (no_wild_finish)"),
            "move.target_out": N_("player {target} is out of the round (elimination)"),
            "move.run_same_number": N_("only another {number} may follow now (same_number_together), not {card}"),
            "move.run_play_or_pass": N_("play another {number}, or pass to end the turn (same_number_together)"),
            "move.run_needs_seven": N_("a 7 naming nobody goes on: play the next 7 (same_number_together)"),
            "move.stack_wrong_color": N_("facing a W+4, only a +2 of the chosen colour {color} answers it"),
            "move.stack_not_allowed": N_("facing a {facing}, {card} may answer it only with {switch}"),
            "move.penalty_pending": N_("facing a {facing} penalty of {penalty}, {card} cannot be played (draw it)"),
            "move.needs_color": N_("{card} needs a colour (R, Y, G or B)"),
            "move.card_takes_no_color": N_("{card} takes no colour"),
            "move.needs_target": N_("{card} needs a target: another player's seat (seven_zero)"),
            "move.card_takes_no_target": N_("{card} takes no target"),
            "move.uno_not_allowed": N_("UNO can be called with a play only when it leaves exactly one card"),
            "round.match_over": N_("the match is over: no more rounds are dealt"),
            "round.in_play": N_("a new round can only be dealt once the round in play is over"),
            # An action a table (a live match, a conductor) refuses.
            "match.over": N_("The game is over."),
            "seat.no_player": N_("seat {seat} has no player to decide"),
            "move.not_offered": N_("seat {seat} has no out-of-turn chance to let go now"),
            "history.none": N_("this match keeps no history"),
            "round.over": N_("no round is in play: nobody decides"),
            "round.not_over": N_("no round is waiting to be dealt"),
            # An action an RL environment refuses.
            "rl.not_reset": N_("reset() the batch before stepping it"),
            "rl.bad_actions": N_("actions must be one integer id per game, not {type} shaped {shape}"),
            "rl.action_count": N_("{actions} actions for {games} games"),
            "rl.in_game": N_("game {game}: {cause}"),
            "rl.episode_over": N_("the episode is over: reset the environment"),
            "rl.not_dealt": N_("the next round is not dealt yet"),
            "rl.not_legal": N_("seat {seat} may not take action {id} now ({action})"),
            "rl.no_such_id": N_("seat {seat} may not take action {id}: there is no such action"),
            "rl.must_act": N_("{agent} must act: None is only for agents whose episode is over"),
        },
        extra=("action",),
    ),
    "move.stale": ErrorCode(
        "StaleAction", 409, N_("Too late: the game moved on before your move arrived."), extra=("ply", "now")
    ),
    # A setting refused.
    **_kind(
        "SettingsError",
        {
            "setup.not_boolean": N_("{name} must be true or false, not {value}."),
            "serve.public_url": N_("{url} is not an http or https address such as https://uno.example.org."),
            "setup.not_integer": N_("{name} must be a whole number, not {value}."),
            "setup.players_range": N_("A match has 2 to 10 players, not {value}."),
            "setup.hand_size_range": N_("The hand size must be 1 or more, not {value}."),
            "setup.too_many_cards": N_(
                "{players} players with {hand_size} cards each need {total} cards; there are at most 99 to deal."
            ),
            "setup.target_score_range": N_("The target score must be 0 or more, not {value}."),
            "setup.uno_penalty_range": N_("The UNO penalty is 2, 4 or 6 cards, not {value}."),
            "setup.elimination_range": N_(
                "Elimination must be 0 (none) or more than the {hand_size} cards dealt, not {value}."
            ),
            "setup.hand_limit_range": N_(
                "The hand limit must be 0 (none) or more than the {hand_size} cards dealt, not {value}."
            ),
            "setup.teams_unknown": N_("Teams are {known}, not {value}."),
            "setup.teams_players": N_("Teams {teams} are played by {seats} players, not {players}."),
            "setup.unknown_preset": N_("There is no preset {name} (the presets are {known})."),
            "setup.not_an_object": N_("settings must be an object, not {type}"),
            "setup.unknown_setting": N_("There is no setting {name} (the settings are {known})."),
            "setup.missing_setting": N_("setting {name} is missing"),
            "setup.not_an_assignment": N_("A setting is written NAME=VALUE, not {text}."),
            "setup.openspiel_preset": N_(
                "python_unomas cannot take preset=all: OpenSpiel gives every switch left unset its default"
                " (false), so a switch set false over the preset could not be told from one left unset;"
                " load {game}, whose switches are on unless set false"
            ),
            "setup.bad_seconds": N_("{name} must be a number of seconds more than 0, not {value}"),
            "setup.bad_command": N_("bad bot command {command}: {detail}"),
            "setup.no_command": N_("a cmd: bot needs a command"),
            "setup.unknown_bot": N_("unknown bot {name} (bots are {known})"),
            "setup.not_a_bot": N_("the bot registered as {name} is not a unomas Bot class"),
            "setup.unknown_bot_option": N_("bot {name} has no option {option} (options: {known})"),
            "setup.bad_bot_option": N_("bot {name}: option {option} takes a {type}, not {value}"),
            "setup.bad_search": N_("ismcts needs iterations ≥ 1 or seconds > 0"),
            "setup.bad_slip_rate": N_("a bot's {option} is a rate from 0 to 1, not {value}"),
            "setup.bad_temperature": N_("learned's temperature is 0 or more, not {value}"),
            "setup.bad_weights": N_("the network weights {path} cannot be read ({reason})"),
            "setup.no_train": N_("training needs PyTorch, which is not installed: {install}"),
            "setup.bad_teacher": N_("there is no teacher {name}: the network learns from {known}"),
            "setup.bot_count": N_("{players} players need {bots} bots, not {given}"),
            "setup.person_seat": N_("the person's seat must be 0 to {last}, not {value}"),
            "setup.name_count": N_("{names} names for {players} seats"),
            "setup.window": N_("the reaction window is a number of seconds, 0 or more, not {value}"),
            "setup.player_count": N_("{given} players for {players} seats"),
            "setup.seat_range": N_("{name} must be 0 to {last}, not {value}"),
            "setup.host_seat": N_("{option} {value}: the seats are numbered 1 to {players}, and 1 is yours"),
            "setup.max_players": N_("max_players must be {players} to {limit}, not {value}"),
            "setup.at_least_one": N_("{name} must be at least 1, not {value}"),
            "setup.one_of": N_("{name} must be one of {known}, not {value}"),
            "setup.unknown_language": N_("unknown language {lang} (languages are {known})"),
            "setup.unknown_policy": N_("unknown policy {name} (policies are {known})"),
            "setup.no_bots": N_("no bots given"),
            "setup.too_few_seats": N_("{bots} bots for {players} seats (give --players {bots} or more)"),
            "setup.unknown_backend": N_("unknown backend {name} (backends are {known})"),
            "setup.address_not_ray": N_("an address is for the ray backend (give --backend ray)"),
            "setup.jobs_on_cluster": N_("jobs are for this machine: a cluster's workers are its CPUs (give no --jobs)"),
            "setup.no_ray": N_("the ray backend needs Ray, which is not installed: {install}"),
            "setup.bad_ray_address": N_("bad Ray address {address}: give HOST:PORT, ray://HOST:PORT or auto"),
            "setup.no_ray_cluster": N_("no Ray cluster answers at {address}: {detail}"),
        },
    ),
    # A card, colour, move or position written wrongly.
    **_kind(
        "NotationError",
        {
            "notation.not_a_card": N_("not a card: {token} (cards are R0…B9, RS, RR, R+2, W, W+4)"),
            "notation.not_a_color": N_("not a colour: {letter} (colours are R, Y, G, B)"),
            "notation.move_not_object": N_("a move must be an object, not {type}"),
            "notation.unknown_move": N_("unknown move {move} (moves are {known})"),
            "notation.misplaced_field": N_("field {field} does not belong to a {kind} move"),
            "notation.missing_field": N_("a {kind} move needs a '{field}'"),
            "notation.not_a_seat": N_("move field '{field}' must be a seat number, not {value}"),
            "notation.not_a_flag": N_("move field '{field}' must be true or false, not {value}"),
            "notation.action_text": N_(
                "not an action: {text} (actions read like '1 play R3 uno', '0 draw' or '2 catch @1')"
            ),
            "notation.position_not_object": N_("a position must be an object, not {type}"),
            "notation.position_unknown_field": N_("unknown position field {field}"),
            "notation.position_missing_field": N_("position field {field} is missing"),
            "notation.position_bad_field": N_("position field {field} has the wrong form: {value}"),
        },
    ),
    # A deal, pile order or reshuffle that is not the right cards; ``returns_index``: the
    # faulty pile order after a starting W+4, if that is the fault.
    **_kind(
        "DealError",
        {
            "deal.too_many_copies": N_("the deal uses more {card} cards than the deck holds ({copies})"),
            "deal.reshuffle_unused": N_("a reshuffle was given but the action drew from no empty pile"),
            "deal.reshuffle_mismatch": N_(
                "the reshuffled pile must hold exactly the discard pile less its top card: {cards}"
            ),
            "deal.hand_count": N_("the deal has {hands} hands for {players} players"),
            "deal.hand_size": N_("hand {seat} has {cards} cards, not {size}"),
            "deal.not_full_deck": N_("the hands and the pile are not exactly the 108 cards"),
            "deal.return_not_w4": N_("return {index}: the pile's top card is {card}, not W+4"),
            "deal.return_order": N_("return {index}: the new pile order is not the same cards as the pile"),
            "deal.return_missing": N_("the starting card is W+4: the pile's new order after returning it is missing"),
        },
        extra=("returns_index",),
    ),
    # A position that does not hold together under its rules.
    **_kind(
        "PositionError",
        {
            "position.hand_count": N_("{hands} hands for {players} players"),
            "position.score_count": N_("{scores} scores for {players} players"),
            "position.not_full_deck": N_("the hands, the pile and the discard pile are not exactly the 108 cards"),
            "position.no_such_seat": N_("{field} must be a seat from 0 to {last}, not {value}"),
            "position.bad_direction": N_("direction must be 1 or -1, not {value}"),
            "position.color_phase": N_(
                "the colour in play is null while the dealer chooses it and only then, not {color} in phase {phase}"
            ),
            "position.drawn_phase": N_(
                "a drawn card belongs to the hand of the seat on turn in phase drawn, and only there"
            ),
            "position.accused_missing": N_("a challengeable penalty needs the seat it accuses"),
        },
    ),
    # A record that is malformed or does not replay, and where (counted from 0); a {what}
    # is one of PARTS.
    **_kind(
        "RecordError",
        {
            "record.not_json": N_("line {line} is not JSON (column {column})"),
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
            "record.unrecorded_reshuffle": N_(
                "reshuffle: a reshuffle happened but the record has none before this move"
            ),
            "record.draw_differs": N_("the draw lists {listed} but draws {drawn}"),
            "record.misplaced_field": N_("field {field} does not belong to {what}"),
            "record.no_shuffle": N_("the record has no {field} object with a commitment and a seed"),
            "record.seed_not_revealed": N_(
                "its moves are legal, but its seed is revealed only at the end of the match:"
                " its deals cannot be checked yet"
            ),
            "record.bad_shuffle": N_("{field} must hold a 'commitment' and a 'seed', both hex strings"),
            "record.seed_not_hex": N_("the seed {seed} is not hex"),
            "record.seed_mismatch": N_("the seed does not match the commitment (its SHA-256 differs)"),
            "record.malformed": N_("malformed record: {kind}: {detail}"),
            "record.does_not_replay": N_("the record does not replay: {cause}"),
            "record.seed_deal": N_("the seed does not deal this round's hands and pile"),
            "record.seed_return": N_("the seed does not return the starting W+4 to this pile order"),
            "record.seed_reshuffle": N_("the seed does not produce this reshuffle"),
        },
        extra=("record", "round", "event"),
    ),
    # A bot that failed.
    **_kind(
        "BotError",
        {
            "bot.crashed": N_("The bot at seat {seat} ({bot}) crashed: {error}"),
            "bot.no_action": N_("The bot at seat {seat} ({bot}) gave no action on its turn."),
            "bot.not_own_action": N_(
                "The bot at seat {seat} ({bot}) answered {answer}, not an action of its own seat."
            ),
            "bot.illegal_action": N_("The bot at seat {seat} ({bot}) answered an illegal action, {action}: {cause}"),
            "bot.hook_failed": N_("The bot at seat {seat} ({bot}) failed in {step}: {error}"),
            "bot.not_started": N_("The bot at seat {seat} ({bot}) could not start: {detail}"),
            "bot.not_running": N_("The bot at seat {seat} ({bot}) is not running (it failed or was closed)."),
            "bot.broke_protocol": N_("The bot at seat {seat} ({bot}) broke the bot protocol: {detail}"),
            "bot.refused": N_("The server refused the action {action} of the bot at seat {seat} ({bot}): {cause}"),
        },
    ),
    # A server's refusals (unomas.server): see docs/protocol.md.
    **_own(
        "Refusal",
        {
            "room.not_found": (404, N_("There is no room {room}.")),
            "room.full": (409, N_("The room is full.")),
            "room.started": (409, N_("The game has already started.")),
            "room.not_host": (403, N_("Only the host can start the game.")),
            "room.not_playing": (409, N_("The game has not started yet.")),
            "room.over": (409, N_("The game is over.")),
            "room.not_over": (409, N_("The game is not over: its record is revealed at the end.")),
            "room.capacity": (503, N_("The server is full; try again later."), ("limit",)),
            "seat.spectator": (403, N_("Spectators cannot act.")),
            "seat.not_yours": (
                403,
                N_("You can only act for your own seat."),
                (
                    "seat",
                    "asked",
                ),
            ),
            "auth.bad_token": (403, N_("This browser holds no seat in this room.")),
            "hello.twice": (409, N_("This connection has already said hello.")),
            "hello.first": (409, N_("Say hello first (with your seat's token, or none to watch).")),
            "rate.limited": (429, N_("Too many messages: slow down."), ("rate",)),
            "message.invalid": (422, N_("This request is not valid ({field}): {reason}")),
            "message.binary": (422, N_("Messages are JSON text, not binary.")),
            "message.too_long": (413, N_("The message is too long ({length} characters; at most {limit}).")),
            "body.too_large": (413, N_("The request is too large (at most {limit} bytes).")),
            "body.late": (408, N_("The request's body did not arrive within {seconds} s.")),
            "request.head_too_large": (431, N_("The request's headers are too large (at most {limit} bytes).")),
            "request.too_many_headers": (431, N_("The request has too many headers (at most {limit}).")),
            "setup.invalid": (422, N_("The room's settings are not valid ({field}): {reason}")),
            "setup.seat_twice": (422, N_("The room's settings are not valid ({field}): a seat is listed twice.")),
            "setup.bot_seat": (
                422,
                N_("The room's settings are not valid ({field}): seat {seat} is not one of seats 1 to {last}."),
            ),
            "setup.program_and_bot": (
                422,
                N_("The room's settings are not valid: a seat is kept for a program and played by a bot."),
            ),
            "setup.target_score_max": (
                422,
                N_("The target score may be at most {limit}, so that a room's match ends."),
            ),
            "setup.room_level": (422, N_("A room seats the bots {known}, not {value}.")),
            "lang.unknown": (404, N_("Unknown language: {lang}.")),
            "seat.taken_over": (409, N_("This seat is now being played in another window.")),
            "origin.forbidden": (403, N_("Requests from another site are not accepted.")),
            "client.rooms_held": (
                429,
                N_("Your address already holds {limit} rooms; finish or leave one to open another."),
            ),
            "metrics.token": (401, N_("The metrics need the server's metrics token.")),
            "host.unknown": (421, N_("This server does not answer to the name {host}.")),
            "body.not_json": (415, N_("The request must be JSON (Content-Type: application/json).")),
            "room.watchers_full": (409, N_("This room has as many spectators as it can take."), ("limit",)),
            "client.limited": (
                429,
                N_("Too many requests or connections from your address; try again in {retry_after} s."),
            ),
            "hello.late": (408, N_("The connection said nothing for too long.")),
            "server.restarting": (503, N_("The server is restarting; reconnecting…")),
            "name.invisible": (422, N_("That name cannot be used: it has no visible letter.")),
            "name.bidi": (422, N_("That name cannot be used: it holds characters that turn the text's direction.")),
            "name.marks": (422, N_("That name cannot be used: it stacks too many accents on one letter.")),
            "name.symbols": (422, N_("That name cannot be used: control characters and < > are not allowed.")),
            "name.hidden": (422, N_("That name cannot be used: it holds characters that cannot be seen.")),
            "name.too_long": (422, N_("That name is too long (at most {limit} characters).")),
            "name.wide": (422, N_("That name cannot be used: it holds characters drawn many letters wide.")),
            "name.page_words": (
                422,
                N_("That name cannot be used: it holds words the page adds to names, such as (you)."),
            ),
            "name.taken": (409, N_("Someone in this room is already called {name}.")),
            "rematch.early": (409, N_("The match is not over yet: a rematch comes after it.")),
            "store.unavailable": (503, N_("The game could not be saved just now; try again in a moment.")),
        },
    ),
    # A client's troubles with a room, and the agents' tables.
    "link.invalid": ErrorCode(
        "LinkError", 422, N_("{text} is not a room's link, a room's code nor a server's address.")
    ),
    "client.connection_lost": ErrorCode("UnoError", 503, N_("The connection to the room is closed.")),
    "client.unreachable": ErrorCode(
        "UnoError", 503, N_("Cannot reach the server {server}: is unomas serve running there?")
    ),
    "client.not_a_server": ErrorCode(
        "UnoError", 502, N_("{server} answered as no unomas server does (HTTP {status}).")
    ),
    "client.no_answer": ErrorCode("ConnectionLost", 504, N_("The room did not answer in {seconds} s.")),
    "client.closed": ErrorCode("ConnectionLost", 503, N_("The client was closed.")),
    "client.not_connected": ErrorCode("ConnectionLost", 503, N_("Not connected just now: try again.")),
    "client.reconnecting": ErrorCode("UnoError", 503, N_("The connection was lost; reconnecting…")),
    "client.no_view": ErrorCode("ConnectionLost", 503, N_("The room has sent no view yet.")),
    # What a seat is told of the others' presence (the page tells the same words).
    "presence.lost": ErrorCode("UnoError", 200, N_("{name} lost the connection.")),
    "presence.back": ErrorCode("UnoError", 200, N_("{name} is back.")),
    "presence.away": ErrorCode("UnoError", 200, N_("{name} is away: a bot plays for them.")),
    "client.unknown_refusal": ErrorCode("Refused", 500, N_("The server refused: {message}"), extra=("code",)),
    "table.unknown": ErrorCode("UnoError", 404, N_("There is no table {table}: start a match or join a room first.")),
    "table.required": ErrorCode(
        "UnoError", 422, N_("Name the table: over HTTP without a session every call gives its table's id.")
    ),
    "table.no_action": ErrorCode(
        "IllegalAction", 409, N_("There is no action {action} at ply {ply} ({listed} listed).")
    ),
    "match.not_over": ErrorCode("UnoError", 409, N_("The game is not over: its record is revealed at the end.")),
    # A saved match the terminal cannot continue.
    "resume.finished": ErrorCode("ResumeError", 409, N_("{file}: that match is over.")),
    "resume.damaged": ErrorCode(
        "ResumeError", 422, N_("{file} is damaged: no record can be read from it (line {line}, column {column}).")
    ),
    "resume.not_text": ErrorCode("ResumeError", 422, N_("{file} is damaged: it is not text (records are UTF-8 JSON).")),
    "resume.no_person": ErrorCode("ResumeError", 422, N_("{file}: not a match of a person against bots.")),
    "resume.no_secret": ErrorCode(
        "ResumeError", 422, N_("{file}: saved without its shuffle seed (an older unomas), so it cannot go on.")
    ),
}
"""Every error code unomas raises, with its entry."""

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
