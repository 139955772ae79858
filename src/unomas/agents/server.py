"""``unomas mcp``: an MCP server (the official ``mcp`` SDK) through which an AI agent plays.

Tools: ``start_match`` (a local match against bots, on the live host) or ``join_room`` (a
seat of a room of ``unomas serve``, taken as a program's); ``get_view`` (the seat's view in
words and JSON, its legal actions listed with ids and descriptions); ``act`` (an action id
and the ply of the view it came from); ``wait`` (for the seat's next decision or the end,
with a timeout; with what happened meanwhile); ``let_go`` (an out-of-turn chance the bots
wait for, let go); ``match_rules``; ``get_record`` (once the match is over); ``leave``.
Every tool's answer is a model of :mod:`unomas.agents.shapes`, published as its output
schema and sent as structured content; the tools' descriptions and the schema's field
descriptions say what an agent sees, what stays secret, how to read the actions and the
ply, how out-of-turn chances and ``let_go`` work, and what the end looks like (``act``
after it answers ``match.over``). Refusals are tool errors whose text is ``{"code",
"params", "message"}`` (the codes of docs/protocol.md and :mod:`unomas.errors`). The rules are the resource ``unomas://rules``
(``unomas://rules/es`` in Spanish); the prompt ``how_to_play`` explains the loop.

Each ``start_match`` or ``join_room`` opens a table under an unguessable id, kept for its
owner (:func:`owner`): over stdio the one client; over HTTP the MCP session that opened it,
so that another session's id answers ``table.unknown`` as an id that never was. The other
tools take the id (``table``) or act on the owner's last table opened; an HTTP request
without a session (the sessionless protocol) has no default and must name its table, whose
id is then its only key.

Over streamable HTTP with a ``token``, every request must carry ``Authorization: Bearer
TOKEN`` (the SDK's bearer middleware answers 401 otherwise): beyond this machine, whoever
reaches the port would otherwise play the agent's seats.
"""

from __future__ import annotations

import hmac
import json
import secrets
from importlib import resources
from typing import Annotated, Any

from mcp.server import MCPServer
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from unomas.actions import Action
from unomas.agents.shapes import Left, MatchRules, Record, TableState
from unomas.agents.tables import LocalTable, RemoteTable, Table
from unomas.errors import IllegalAction, Refusal, SettingsError, StaleAction, UnoError
from unomas.i18n import LANGUAGES, translator, wording
from unomas.i18n.view_words import listed_actions, view_words
from unomas.live.host import WINDOW
from unomas.rules import Rules

__all__ = ["Tables", "build_server", "rules_text"]

MAX_WAIT = 300.0
"""The longest a ``wait`` may last, in seconds (an agent asks again)."""

Lang = Annotated[str, Field(description="es or en: the language of the words.", pattern="^(es|en)$")]
TableId = Annotated[
    str | None,
    Field(
        description="The id start_match or join_room gave. Your tables are yours alone: another client's id"
        " answers table.unknown. Default: the last table you opened (over HTTP without a session, give it)."
    ),
]


def rules_text(lang: str = "en") -> str:
    """The rules of the game, for an agent to read (``es`` or ``en``)."""
    return resources.files("unomas.agents").joinpath(f"rules.{lang}.md").read_text(encoding="utf-8")


def _refusal(error: UnoError) -> ToolError:
    """A refusal as a tool error: its code, params and message, as JSON."""
    return ToolError(json.dumps(error.to_json()))


HOW_TO_PLAY_ES = """Juegas al UNO con unomas. El servidor juzga cada acción: nunca decides qué es legal,
eliges entre las acciones que lista.

1. Siéntate a una mesa: `start_match` (una partida local contra bots; juegas el asiento 0) o `join_room`
   (un asiento de una sala que alguien compartió: su enlace). Guarda el `table` que devuelve: es el id de
   tu mesa, solo tuyo (otro cliente que lo use recibe `table.unknown`); dáselo a las demás herramientas.
   Lee las reglas una vez: el recurso `unomas://rules/es`, y `match_rules` para las de esta partida.
2. Lo que ves: tu mano, cuántas cartas tiene cada asiento, la carta de arriba, el color en juego, los
   puntos. Lo secreto: las cartas de los demás y el orden del mazo; nunca te llegan.
3. Repite hasta que `over` sea verdadero:
   - `wait` (con `timeout` en segundos) hasta que `ready` sea verdadero: tienes acciones legales. Devuelve
     lo que pasó desde la última vez (`news`), tu vista en palabras (`words`) y en JSON (`view`), el `ply`
     (acciones aplicadas en la partida) y `actions`: cada una con su `id`, su `description` y su jugada.
   - elige una y llama a `act` con su `id` y el `ply` de esa vista. Los ids valen solo para ese ply.
   - un rechazo es un error de la herramienta cuyo texto termina en JSON con un `code`: `move.stale` quiere
     decir que la partida siguió (otro actuó antes): vuelve a llamar a `get_view` y elige de nuevo.
4. Fuera de tu turno puedes tener una ocasión (`chance` verdadero con `ready`): pillar a quien no cantó
   UNO, cantar el tuyo tarde o cortar con una carta idéntica. Los bots esperan por ti la ventana de la mesa
   (`window` segundos): actúa, o llama a `let_go` para dejarla pasar y que sigan al momento.
5. Di UNO con la jugada que te deja una carta (la acción descrita «diciendo UNO»), o te pillarán y robarás 2.
6. El final: `over` verdadero, `view.winner` es el asiento ganador y `view.scores` los puntos finales;
   `actions` queda vacía y `act` responde `match.over`. `get_record` da el registro de la partida (con la
   semilla del barajado revelada). Usa `lang: "es"` para las palabras en español.
"""

HOW_TO_PLAY = """You are playing UNO with unomas. The server judges every action: you never decide what is
legal, you choose among the actions it lists.

1. Open a table: `start_match` (a local match against bots; you play seat 0) or `join_room` (a seat of a
   room someone shared: its link). Keep the `table` it answers: your table's id, yours alone (another
   client using it gets `table.unknown`); give it to the other tools. Read the rules once: the resource
   `unomas://rules`, and `match_rules` for this match's house rules.
2. What you see: your hand, how many cards each seat holds, the top card, the colour in play, the scores.
   What stays secret: the other players' cards and the draw pile's order; they never reach you.
3. Loop until `over` is true:
   - `wait` (with a `timeout` in seconds) until `ready` is true: you have legal actions. It returns what
     happened since you last looked (`news`), your view in words (`words`) and JSON (`view`), the `ply`
     (actions applied in the match so far) and `actions`: each with an `id`, a `description` and its move.
   - choose one and call `act` with its `id` and that view's `ply`. Ids are valid for that ply only.
   - a refusal is a tool error whose text ends with JSON with a `code`: `move.stale` means the game moved on
     (someone acted first): `get_view` again and choose anew.
4. Out of turn you may have a chance (`chance` true with `ready`): catch someone who forgot UNO, call yours
   late, or jump in with an identical card. The bots wait the table's window (`window` seconds) for you:
   act, or call `let_go` to let it pass and have them go on at once.
5. Call UNO with the play that leaves you one card (the action described "calling UNO"), or others will
   catch you and you draw 2.
6. The end: `over` is true, `view.winner` is the winner's seat and `view.scores` the final scores;
   `actions` is empty and `act` answers `match.over`. `get_record` gives the match's record (the shuffle's
   seed revealed).
"""


LOCAL = "local"
"""The one client of a stdio (or in-process) server: every table is its."""


def owner(context: Context) -> str | None:
    """Whom a call's tables belong to: the one client of stdio, an HTTP request's MCP
    session (its ``Mcp-Session-Id``), or nobody for a sessionless HTTP request (the
    2026-07-28 protocol), whose tables only their ids open."""
    request = context.request_context.request
    if request is None:
        return LOCAL
    session: str | None = request.headers.get("mcp-session-id")
    return session


class Tables:
    """The tables this server's agents sit at, each kept for its owner (see :func:`owner`)
    under an unguessable id. An owner's default table is the last one it opened; a call
    without an owner (sessionless HTTP) must name its table."""

    def __init__(self) -> None:
        self.tables: dict[str, tuple[str | None, Table]] = {}
        self.last: dict[str, str] = {}

    def open(self, who: str | None, table: Table) -> str:
        key = secrets.token_urlsafe(18)
        self.tables[key] = (who, table)
        if who is not None:
            self.last[who] = key
        return key

    def get(self, who: str | None, key: str | None) -> tuple[str, Table]:
        """The table ``key`` of ``who`` (its last one when ``key`` is None); another owner's
        table is as unknown as one that never was."""
        if key is None:
            if who is None:
                raise _refusal(UnoError("table.required"))
            key = self.last.get(who)
        held = None if key is None else self.tables.get(key)
        if key is None or held is None or held[0] != who:
            raise _refusal(UnoError("table.unknown", table=key))
        return key, held[1]

    def close(self, key: str) -> None:
        who, _ = self.tables.pop(key)
        if who is not None and self.last.get(who) == key:
            del self.last[who]


def state(key: str, table: Table, lang: str, *, news: bool = True) -> TableState:
    """What the agent sees of its table: the view in words and JSON, its actions, the news."""
    t = translator(lang)
    view = table.view()
    answer: dict[str, Any] = {"table": key, "seat": table.seat, "over": table.over, "ready": table.waiting()}
    answer["chance"] = view is not None and answer["ready"] and view.current != table.seat
    if view is None:
        answer |= {"view": None, "words": t.gettext("The match has not started yet."), "actions": []}
    else:
        sent = view.to_json()
        del sent["rules"]  # match_rules gives them
        answer |= {
            "ply": view.ply,
            "view": sent,
            "words": view_words(view, table.names, t),
            "actions": listed_actions(view, table.names, t),
        }
    if news:
        heard = table.take_news()
        answer["news"] = {"narration": heard.narration, "events": heard.events}
    return TableState.model_validate(answer)


class StaticToken:
    """The SDK's token verifier for one shared bearer token (compared in constant time)."""

    def __init__(self, token: str) -> None:
        self._token = token.encode()

    async def verify_token(self, token: str) -> AccessToken | None:
        if hmac.compare_digest(token.encode(), self._token):
            return AccessToken(token=token, client_id="agent", scopes=[])
        return None


def build_server(
    lang: str = "en", tables: Tables | None = None, *, token: str | None = None, url: str | None = None
) -> MCPServer[Any]:
    """The MCP server with its tools, resources and prompt; words in ``lang`` by default;
    its agents' tables kept in ``tables``. With ``token``, its HTTP requests need that
    bearer token (``url``: where it is served, e.g. ``http://host:port``)."""
    auth = None
    if token is not None:
        assert url is not None, "a token protects a server at an address"
        auth = AuthSettings(issuer_url=url, resource_server_url=f"{url}/mcp")  # type: ignore[arg-type]
    server: MCPServer[Any] = MCPServer(
        "unomas",
        instructions="Play UNO: start_match or join_room (keep the table id it gives: yours alone), then wait"
        " until ready and act with an action's id and the view's ply, until over (let_go an out-of-turn chance"
        " you pass on). The other hands and the pile stay secret. See the prompt how_to_play.",
        token_verifier=None if token is None else StaticToken(token),
        auth=auth,
    )
    tables = tables if tables is not None else Tables()

    @server.tool()
    async def start_match(
        context: Context,
        players: Annotated[int, Field(ge=2, le=10, description="Seats, yours (0) included.")] = 4,
        bots: Annotated[
            list[str], Field(description="Bot specs for seats 1…, the last one repeated: heuristic, learned, ismcts…")
        ] = ["heuristic"],  # noqa: B006
        rules: Annotated[
            dict[str, int | bool | str],
            Field(description="Settings of RULES.md, e.g. {'target_score': 0} or {'teams': '2v2'}."),
        ] = {},  # noqa: B006
        name: str = "agent",
        seed: Annotated[
            str | None, Field(description="Any text: the same seed deals the same cards (default: secret).")
        ] = None,
        window: Annotated[
            float,
            Field(
                ge=0,
                le=60,
                description="Seconds you get to catch a missed UNO, call yours late or jump in before a bot acts"
                " (let_go ends the wait).",
            ),
        ] = WINDOW,
        lang: Lang = lang,
    ) -> TableState:
        """Start a match in this process against bots: you play seat 0, they play the others.
        Answers your table: its `table` id (unguessable, yours alone: give it to the other
        tools), your `view` (what your seat knows: your hand, every seat's card count, the top
        card, the colour in play, the scores; the others' cards and the pile's order stay
        secret), its `ply`, and `actions` (your legal actions, each with an `id` for `act`).
        When `ready` is false it is not your decision: call `wait`. Whenever you may catch,
        call UNO late or jump in, `ready` and `chance` are true and the bots wait `window`
        seconds for you (act, or `let_go`); otherwise they move at once. The match's record
        comes from `get_record` once `over` is true."""
        try:
            settings = Rules.from_dict({**rules, "players": players})
            specs = list(bots) or ["heuristic"]
            specs += [specs[-1]] * (players - 1 - len(specs))
            table = LocalTable(settings, specs[: players - 1], name, lang, seed, window=window)
        except UnoError as error:
            raise _refusal(error) from None
        return state(tables.open(owner(context), table), table, lang)

    @server.tool()
    async def join_room(
        context: Context,
        link: Annotated[str, Field(description="The room's link, http://HOST/r/CODE (or its code with server).")],
        name: str = "agent",
        server_address: Annotated[str | None, Field(description="The server of a bare room code.")] = None,
        lang: Lang = lang,
    ) -> TableState:
        """Take a seat of a room of a unomas server (as a program, in a seat kept for programs
        first). Answers your table as start_match does: its `table` id (yours alone) and,
        once the host starts the match, your view; until then `view` is null: `wait`."""
        try:
            table = await RemoteTable.join(link, name, lang, server_address)
        except UnoError as error:
            raise _refusal(error) from None
        return state(tables.open(owner(context), table), table, lang)

    @server.tool()
    async def get_view(context: Context, table: TableId = None, lang: Lang = lang) -> TableState:
        """Your seat's view now, in words (`words`) and JSON (`view`), and your legal actions
        (`actions`, each `id` valid for this `ply` only). You see your own hand, how many cards
        each seat holds, the discard pile, the colour in play and the scores; the other hands
        and the draw pile's order are secret and never shown. `ready`: you may act now;
        `chance`: that is an out-of-turn chance; `over`: the match is over. Unlike `wait`,
        it does not take the news."""
        key, seated = tables.get(owner(context), table)
        return state(key, seated, lang, news=False)

    @server.tool()
    async def act(
        context: Context,
        action_id: Annotated[int, Field(ge=0, description="The id of one of the view's actions.")],
        ply: Annotated[int, Field(ge=0, description="The ply of the view the id comes from.")],
        table: TableId = None,
        lang: Lang = lang,
    ) -> TableState:
        """Take one of your legal actions: the `id` of an entry of `actions` and the `ply` of
        the view it was listed in. Answers your table after it (and what followed). Refusals
        are tool errors ending with JSON {code, params, message}: `move.stale` (the match moved
        on since that ply: get_view and choose again), `table.no_action` (no such id),
        `match.over` (the match is over: nothing more to do but get_record)."""
        key, seated = tables.get(owner(context), table)
        view = seated.view()
        if view is None:
            raise _refusal(Refusal("room.not_playing"))
        if seated.over:
            raise _refusal(IllegalAction("match.over"))
        if view.ply != ply:
            raise _refusal(StaleAction(ply, view.ply))
        if not 0 <= action_id < len(view.legal_actions):
            listed = len(view.legal_actions)
            raise _refusal(IllegalAction("table.no_action", action=action_id, ply=ply, listed=listed))
        chosen: Action = view.legal_actions[action_id]
        try:
            await seated.act(chosen, ply)
        except UnoError as error:
            raise _refusal(error) from None
        return state(key, seated, lang)

    @server.tool()
    async def wait(
        context: Context,
        timeout: Annotated[float, Field(ge=0, le=MAX_WAIT, description="Seconds to wait at most.")] = 30.0,
        table: TableId = None,
        lang: Lang = lang,
    ) -> TableState:
        """Wait until you have legal actions (`ready`: your turn, or an out-of-turn `chance`:
        a catch, a late UNO call, a jump-in) or the match is `over`, at most `timeout`
        seconds (then `ready` is still false: wait again). Answers your table with the `news`:
        what happened since your last call, in words and as events."""
        key, seated = tables.get(owner(context), table)
        await seated.wait(timeout)
        return state(key, seated, lang)

    @server.tool()
    async def let_go(context: Context, table: TableId = None, lang: Lang = lang) -> TableState:
        """Let an out-of-turn chance go (`chance` true: a catch, a late UNO call, a jump-in):
        the bots, who wait the table's window for you, go on at once. Letting go costs
        nothing; the chance of that ply is gone. Answers your table after it."""
        key, seated = tables.get(owner(context), table)
        await seated.let_go()
        return state(key, seated, lang)

    @server.tool()
    async def match_rules(context: Context, table: TableId = None, lang: Lang = lang) -> MatchRules:
        """The rules of your match: every setting, and each house rule on or off, explained."""
        _, seated = tables.get(owner(context), table)
        return MatchRules(
            rules=seated.rules.to_dict(), words="\n".join(wording.rules_lines(seated.rules, translator(lang)))
        )

    @server.tool()
    async def get_record(context: Context, table: TableId = None) -> Record:
        """The match's record (RECORD.md), once it is over: every hand dealt, every move, and
        the shuffle's seed revealed with the commitment it was held to, so that anyone can
        check the deals (`unomas replay --verify`). Before the end it holds secrets, so it is
        refused (`match.not_over`)."""
        _, seated = tables.get(owner(context), table)
        try:
            return Record.model_validate(await seated.record())
        except UnoError as error:
            raise _refusal(error) from None

    @server.tool()
    async def leave(context: Context, table: TableId = None) -> Left:
        """Leave the table: its id is then unknown. A room's seat is played by a bot after
        the room's grace period; a local match ends."""
        key, seated = tables.get(owner(context), table)
        await seated.close()
        tables.close(key)
        return Left(table=key, left=True)

    @server.resource("unomas://rules", mime_type="text/markdown", description="The rules of UNO as unomas plays them.")
    def rules_resource() -> str:
        return rules_text("en")

    @server.resource("unomas://rules/{language}", mime_type="text/markdown", description="The rules, in es or en.")
    def rules_in(language: str) -> str:
        if language not in LANGUAGES:
            raise SettingsError("setup.unknown_language", lang=repr(language), known=", ".join(LANGUAGES))
        return rules_text(language)

    @server.prompt()
    def how_to_play(language: str = "en") -> str:
        """How to play a match through these tools (``language``: es or en)."""
        return HOW_TO_PLAY_ES if language == "es" else HOW_TO_PLAY

    return server
