"""The errors unomas raises: all are ``ValueError`` subclasses naming what is wrong."""

from __future__ import annotations


class UnoError(ValueError):
    """Base of every unomas error."""


class NotationError(UnoError):
    """A card, colour or action written wrongly."""


class SettingsError(UnoError):
    """An unknown setting or a bad value for one."""


class IllegalAction(UnoError):
    """An action the rules do not allow now; the game is left exactly as it was."""


class BotError(UnoError):
    """A bot failed: it answered an illegal action, timed out, or crashed."""

    def __init__(self, seat: int, bot: str, reason: str) -> None:
        self.seat = seat
        self.bot = bot
        self.reason = reason
        super().__init__(f"seat {seat} ({bot}): {reason}")


class DealError(UnoError):
    """A given deal, pile order or shuffle that is not a permutation of the right cards.

    ``returns_index`` names the faulty pile order after a starting W+4, if that is the fault.
    """

    def __init__(self, reason: str, *, returns_index: int | None = None) -> None:
        super().__init__(reason)
        self.returns_index = returns_index


class RecordError(UnoError):
    """A record that is malformed or does not replay; says where (record, round, event)."""

    def __init__(
        self,
        reason: str,
        *,
        record: int | str | None = None,
        round: int | None = None,
        event: int | None = None,
    ) -> None:
        self.reason = reason
        self.record = record
        self.round = round
        self.event = event
        super().__init__(self._describe())

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
        """A copy with more of its location filled in (keeps what is already known)."""
        fields = {"record": self.record, "round": self.round, "event": self.event}
        for key, value in where.items():
            if fields[key] is None:
                fields[key] = value
        return RecordError(self.reason, **fields)  # type: ignore[arg-type]
