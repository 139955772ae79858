"""The errors unomas raises: ``ValueError`` subclasses, each with one registered code.

Every error carries one precise, machine-readable :attr:`UnoError.code` (``move.not_your_turn``,
``setup.players_range``, ``room.full``…) and its :attr:`UnoError.params`; the code's entry in
:data:`unomas.error_codes.ERRORS` gives its kind (the class raised with it), its HTTP status
and its English words, which the params fill in as the message. A front end shows the code's
words in the reader's language from the catalogs (:func:`unomas.i18n.error_text`) and no
caller ever matches message text. The server sends :meth:`UnoError.to_json`.

>>> error = StaleAction(4, 6)
>>> error.code, error.params
('move.stale', {'ply': 4, 'now': 6})
>>> str(error)
'Too late: the game moved on before your move arrived.'
>>> SettingsError("setup.players_range", value=11).message
'A match has 2 to 10 players, not 11.'
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

from unomas.error_codes import ERRORS

__all__ = [
    "BotError",
    "DealError",
    "IllegalAction",
    "NotationError",
    "PositionError",
    "RecordError",
    "Refusal",
    "SettingsError",
    "StaleAction",
    "UnoError",
    "cause_params",
]


class UnoError(ValueError):
    """Base of every unomas error: a registered ``code``, its ``params`` and the English message
    they make. Raising a code of another kind, or one not registered, is a programming error."""

    relayed: ClassVar[bool] = False
    """Whether the class relays errors raised elsewhere (a server's, to a client), of any kind."""

    def __init__(self, code: str, /, **params: Any) -> None:
        entry = ERRORS[code]
        kinds = {kind.__name__ for kind in type(self).__mro__}
        assert self.relayed or entry.kind in kinds, f"{code} is raised as a {entry.kind}"
        self.code = code
        self.params: dict[str, Any] = params
        self.message = entry.english(params)
        super().__init__(self.message)

    @classmethod
    def caused_by(cls, code: str, cause: UnoError, /, **params: Any) -> Self:
        """An error for ``code`` whose ``{cause}`` is another error: its English message as
        ``cause``, and its code and params (``cause_code``, ``cause_params``) to word it in
        another language.

        >>> error = RecordError.caused_by("record.rules", SettingsError("setup.not_an_object", type="null"))
        >>> str(error), error.params["cause_code"]
        ('rules: settings must be an object, not null', 'setup.not_an_object')
        """
        return cls(code, **cause_params(cause), **params)

    def to_json(self) -> dict[str, Any]:
        """``{code, params, message}``: what a protocol sends."""
        return {"code": self.code, "params": self.params, "message": self.message}


def cause_params(cause: UnoError) -> dict[str, Any]:
    """The params that name ``cause`` in another error: its English message, code and params."""
    return {"cause": cause.message, "cause_code": cause.code, "cause_params": cause.params}


class NotationError(UnoError):
    """A card, colour or action written wrongly."""


class SettingsError(UnoError):
    """An unknown setting or a bad value for one."""


class IllegalAction(UnoError):
    """An action the rules do not allow now; the game is left exactly as it was."""


class StaleAction(IllegalAction):
    """An action that answers a position that has passed (its ply is not the game's)."""

    def __init__(self, ply: int, now: int) -> None:
        super().__init__("move.stale", ply=ply, now=now)


class BotError(UnoError):
    """A bot failed: it answered an illegal action, timed out, or crashed (``code`` says which)."""

    def __init__(self, seat: int, bot: str, code: str, /, **params: Any) -> None:
        self.seat = seat
        self.bot = bot
        super().__init__(code, seat=seat, bot=bot, **params)


class DealError(UnoError):
    """A given deal, pile order or shuffle that is not a permutation of the right cards.

    ``returns_index`` names the faulty pile order after a starting W+4, if that is the fault.
    """

    def __init__(self, code: str, /, **params: Any) -> None:
        super().__init__(code, **params)
        self.returns_index: int | None = params.get("returns_index")


class PositionError(UnoError):
    """A position that does not hold together under its rules (cards, seats, phase)."""


class RecordError(UnoError):
    """A record that is malformed or does not replay; says where (record, round, event) in
    its params beside its ``record.*`` reason, so that both read in the reader's language
    (:func:`unomas.i18n.error_text`)."""

    def __init__(
        self,
        code: str,
        /,
        *,
        record: int | str | None = None,
        round: int | None = None,
        event: int | None = None,
        **params: Any,
    ) -> None:
        self.record = record
        self.round = round
        self.event = event
        super().__init__(code, record=record, round=round, event=event, **params)
        where = [f"{name} {value}" for name, value in (("record", record), ("round", round), ("event", event))]
        located = [part for part, value in zip(where, (record, round, event), strict=True) if value is not None]
        if located:
            self.message = f"{', '.join(located)}: {self.message}"
            self.args = (self.message,)

    def located(self, **where: int | str | None) -> RecordError:
        """A copy with more of its location filled in (keeps what is already known, its code
        and params)."""
        fields = {"record": self.record, "round": self.round, "event": self.event}
        for key, value in where.items():
            if fields[key] is None:
                fields[key] = value
        params = {key: value for key, value in self.params.items() if key not in fields}
        return RecordError(self.code, **fields, **params)  # type: ignore[arg-type]


class Refusal(UnoError):
    """A request a server refuses (a room full, a token unknown…): its ``code`` says why, with
    its own HTTP status in the registry, and its ``params`` fill in the details."""
