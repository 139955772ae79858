"""The errors unomas raises: ``ValueError`` subclasses with a stable code.

Every error carries a machine-readable :attr:`UnoError.code` (``move.illegal``,
``setup.invalid``…) and its :attr:`UnoError.params` beside the English message, so that
a front end shows it in the reader's language from the catalogs (the code is the key;
see :func:`unomas.i18n.error_text`) and no caller ever matches message text. The server
sends :meth:`UnoError.to_json`. A refusal also names its precise reason: ``reason_code``
among the params (``move.not_your_turn``), whose English template is in
:data:`unomas.refusals.TEMPLATES`.

>>> error = StaleAction(4, 6)
>>> error.code, error.params
('move.stale', {'ply': 4, 'now': 6})
>>> str(error)
'the action answers ply 4, but the game is at ply 6: look again'
"""

from __future__ import annotations

from typing import Any, ClassVar

__all__ = [
    "BotError",
    "DealError",
    "IllegalAction",
    "NotationError",
    "PositionError",
    "RecordError",
    "SettingsError",
    "StaleAction",
    "UnoError",
]


class UnoError(ValueError):
    """Base of every unomas error: a stable ``code``, its ``params`` and an English message."""

    code: ClassVar[str] = "error"
    """The kind's code; an instance may carry a more precise one (see ``code=``)."""

    def __init__(self, message: str, *, code: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code  # type: ignore[misc]
        self.params: dict[str, Any] = params

    def to_json(self) -> dict[str, Any]:
        """``{code, params, message}``: what a protocol sends."""
        return {"code": self.code, "params": self.params, "message": self.message}


class NotationError(UnoError):
    """A card, colour or action written wrongly."""

    code = "notation.invalid"


class SettingsError(UnoError):
    """An unknown setting or a bad value for one."""

    code = "setup.invalid"


class IllegalAction(UnoError):
    """An action the rules do not allow now; the game is left exactly as it was."""

    code = "move.illegal"


class StaleAction(IllegalAction):
    """An action that answers a position that has passed (its ply is not the game's)."""

    code = "move.stale"

    def __init__(self, ply: int, now: int) -> None:
        super().__init__(f"the action answers ply {ply}, but the game is at ply {now}: look again", ply=ply, now=now)


class BotError(UnoError):
    """A bot failed: it answered an illegal action, timed out, or crashed."""

    code = "bot.failed"

    def __init__(self, seat: int, bot: str, reason: str) -> None:
        self.seat = seat
        self.bot = bot
        self.reason = reason
        super().__init__(f"seat {seat} ({bot}): {reason}", seat=seat, bot=bot, reason=reason)


class DealError(UnoError):
    """A given deal, pile order or shuffle that is not a permutation of the right cards.

    ``returns_index`` names the faulty pile order after a starting W+4, if that is the fault.
    """

    code = "deal.invalid"

    def __init__(self, reason: str, *, returns_index: int | None = None, **params: Any) -> None:
        super().__init__(reason, reason=reason, **params)
        self.returns_index = returns_index


class PositionError(UnoError):
    """A position that does not hold together under its rules (cards, seats, phase)."""

    code = "position.invalid"


class RecordError(UnoError):
    """A record that is malformed or does not replay; says where (record, round, event).

    Its precise reason is a ``record.*`` reason code with params (made with
    :func:`unomas.refusals.refused`), so that the location and the reason read in the
    reader's language (:func:`unomas.i18n.error_text`).
    """

    code = "record.invalid"

    def __init__(
        self,
        reason: str,
        *,
        record: int | str | None = None,
        round: int | None = None,
        event: int | None = None,
        **params: Any,
    ) -> None:
        self.reason = reason
        self.record = record
        self.round = round
        self.event = event
        super().__init__(self._describe(), reason=reason, record=record, round=round, event=event, **params)

    def _describe(self) -> str:
        where = []
        if self.record is not None:
            where.append(f"record {self.record}")
        if self.round is not None:
            where.append(f"round {self.round}")
        if self.event is not None:
            where.append(f"event {self.event}")
        return f"{', '.join(where)}: {self.reason}" if where else self.reason

    def located(self, **where: int | str | None) -> RecordError:
        """A copy with more of its location filled in (keeps what is already known, and
        the reason's code and params)."""
        fields = {"record": self.record, "round": self.round, "event": self.event}
        for key, value in where.items():
            if fields[key] is None:
                fields[key] = value
        params = {key: value for key, value in self.params.items() if key not in fields and key != "reason"}
        return RecordError(self.reason, **fields, **params)  # type: ignore[arg-type]
