"""What the MCP tools answer, as pydantic models: the SDK publishes each as its tool's
output schema (and sends the answer as structured content), so an agent learns every field
from the tool listing alone, described where it is declared.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Left", "ListedAction", "MatchRules", "News", "Record", "SeatView", "ShownHand", "TableState"]


class ListedAction(BaseModel):
    """One of the seat's legal actions now."""

    id: int = Field(description="What act takes as action_id, together with the view's ply; valid for that ply only.")
    description: str = Field(description="The action in words, e.g. 'Play Red 3 (R3), calling UNO.'.")
    action: dict[str, Any] = Field(
        description="The action as a record move (RECORD.md): p (your seat), a (play, draw, pass, uno, catch,"
        " challenge, accept, color), and as the kind needs: card (token such as R3, GS, W, W+4), color (R, Y,"
        " G, B), target (a seat), uno (true: calling UNO with the play)."
    )


class ShownHand(BaseModel):
    """The hand a challenged player showed you (after your challenge)."""

    seat: int
    hand: list[str]


class SeatView(BaseModel):
    """What your seat knows now. Secret, and never here: the other players' cards (only how
    many each holds) and the draw pile's order (only its size). Cards are tokens: a colour
    letter R, Y, G, B and a value 0-9, S (skip), R (reverse), +2; W (wild) and W+4."""

    model_config = ConfigDict(extra="allow")

    seat: int = Field(description="Your seat (seats are numbered from 0).")
    round: int = Field(description="The round, counted from 0.")
    ply: int = Field(description="Actions applied so far in the match: give it to act with an action id.")
    dealer: int
    phase: str = Field(
        description="What the game waits for: color (the dealer picks a starting Wild's colour), turn, drawn (the"
        " player on turn drew a playable card: play it or pass), penalty (draw it, stack or challenge), round_over."
    )
    current: int = Field(description="The seat on turn. If it is not yours, your actions are out-of-turn chances.")
    hand: list[str] = Field(description="Your cards (secret from the others).")
    hand_sizes: list[int] = Field(description="How many cards each seat holds, by seat.")
    top: str = Field(description="The top card of the discard pile.")
    color: str | None = Field(description="The colour in play (it differs from the top card's after a wild).")
    direction: int = Field(description="1: play goes to the next seat up; -1: down.")
    pile_size: int = Field(description="Cards left in the draw pile.")
    discard: list[str] = Field(description="The discard pile, bottom first.")
    penalty: int = Field(description="The draw penalty the player on turn faces (0: none).")
    challengeable: bool = Field(description="Whether that penalty is a Wild Draw Four that may be challenged.")
    accused: int | None = Field(description="Who played the challengeable Wild Draw Four.")
    drawn: str | None = Field(description="The playable card you just drew (play it or pass).")
    uno_pending: int | None = Field(description="A seat with one card that has not called UNO: it may be caught.")
    shown_hand: ShownHand | None = None
    scores: list[int] = Field(description="Each seat's match score so far.")
    winner: int | None = Field(description="The match winner's seat, once the match is over.")
    legal_actions: list[dict[str, Any]] = Field(description="Your legal actions as moves: the same as actions.")


class News(BaseModel):
    """What happened at the table since you last looked (events you may see, in order)."""

    narration: list[str] = Field(description="Each event in words.")
    events: list[dict[str, Any]] = Field(
        description="Each event as JSON (event: dealt, played, drew, …); others' cards stay hidden (null)."
    )


class TableState(BaseModel):
    """Your seat at a table now."""

    table: str = Field(
        description="The table's id: unguessable, yours alone (another client's call with it answers"
        " table.unknown). Give it as table to the other tools."
    )
    seat: int = Field(description="Your seat.")
    over: bool = Field(
        description="True once the match is over: view.winner is the winner's seat, view.scores the final scores,"
        " actions is empty, act answers match.over, and get_record gives the whole record."
    )
    ready: bool = Field(
        description="True when you have legal actions now: your turn, or an out-of-turn chance you have not let go."
    )
    chance: bool = Field(
        description="True when ready is an out-of-turn chance (not your turn): catch a missed UNO, call yours late,"
        " or jump in with an identical card. The bots wait the table's window for you: act, or let_go."
    )
    ply: int | None = Field(default=None, description="The view's ply: give it to act with the action's id.")
    view: SeatView | None = Field(description="Your view as JSON (null before the match starts).")
    words: str = Field(description="The same view in words, with your actions numbered by id.")
    actions: list[ListedAction] = Field(description="Your legal actions now (empty when you may not act).")
    news: News | None = Field(default=None, description="What happened since your last call (not from get_view).")


class MatchRules(BaseModel):
    """The rules your match is played under."""

    rules: dict[str, int | bool | str] = Field(
        description="Every setting of RULES.md: players, target_score, house rules."
    )
    words: str = Field(description="Each setting and house rule, on or off, explained.")


class Record(BaseModel):
    """The match's record (RECORD.md, format unomas-record/1), once it is over: every
    hand, every move, and the shuffle's seed revealed with its commitment."""

    model_config = ConfigDict(extra="allow")

    format: str
    rules: dict[str, int | bool | str]
    rounds: list[dict[str, Any]] = Field(description="Each round: its dealt hands, pile, events and result.")
    scores: list[int]
    winner: int | None


class Left(BaseModel):
    """The table you left."""

    table: str
    left: bool
