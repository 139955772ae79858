"""``unomas mcp``: an MCP server (the official ``mcp`` SDK) through which an AI agent plays.

Tools: ``start_match`` (a local match against bots, on the live host) or ``join_room`` (a
seat of a room of ``unomas serve``, taken as a program's); ``get_view`` (the seat's view in
words and JSON, its legal actions listed with ids and descriptions); ``act`` (an action id
and the ply of the view it came from); ``wait`` (for the seat's next decision or the end,
with a timeout; with what happened meanwhile); ``let_go`` (an out-of-turn chance the bots
wait for, let go); ``match_rules``; ``get_record`` (once the match is over); ``leave``.
Refusals are tool errors whose text is ``{"code", "params", "message"}`` (the codes of
docs/protocol.md and :mod:`unomas.errors`). The rules are the resource ``unomas://rules``
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

1. Siéntate a una mesa: `start_match` (una partida local contra bots) o `join_room` (un asiento de una
   sala que alguien compartió: su enlace). Lee las reglas una vez: el recurso `unomas://rules/es`, y
   `match_rules` para las reglas de la casa de esta partida.
2. Repite hasta que `over` sea verdadero:
   - `wait` (con un tiempo máximo en segundos) hasta que `ready` sea verdadero: te toca decidir. Devuelve
     lo que pasó desde la última vez (`news`), tu vista en palabras (`words`) y en JSON (`view`), y
     `actions`: cada una con su `id`, su `description` y su jugada del registro.
   - elige una y llama a `act` con su `id` y el `ply` de la vista.
   - un rechazo es un error de la herramienta cuyo texto termina en JSON con un `code`: `move.stale` quiere
     decir que la partida siguió (otro actuó antes): vuelve a llamar a `get_view` y elige de nuevo.
3. Fuera de tu turno puedes tener una ocasión (`chance` verdadero): pillar a quien no cantó UNO, cantar
   el tuyo tarde o cortar con una carta idéntica. Los bots esperan la ventana de la mesa (`window`
   segundos) por ti: actúa, o llama a `let_go` para dejarla pasar y que sigan al momento.
4. Di UNO con la jugada que te deja una carta (la acción descrita «diciendo UNO»), o te pillarán.
   `get_record` da el registro de la partida al final. Usa `lang: "es"` para las palabras en español.
"""

HOW_TO_PLAY = """You are playing UNO with unomas. The server judges every action: you never decide what is
legal, you choose among the actions it lists.

1. Open a table: `start_match` (a local match against bots) or `join_room` (a seat of a room someone
   shared: its link). Read the rules once: the resource `unomas://rules`, and `match_rules` for the house
   rules of this match.
2. Loop until `over` is true:
   - `wait` (with a timeout in seconds) until `ready` is true: it is your decision. It returns what
     happened since you last looked (`news`), your view in words (`words`) and JSON (`view`), and
     `actions`: each with an `id`, a `description` and its record move.
   - choose one and call `act` with its `id` and the view's `ply`.
   - a refusal is a tool error whose text ends with JSON with a `code`: `move.stale` means the game moved on
     (someone acted first): `get_view` again and choose anew.
3. Out of turn you may have a chance (`chance` is true): catch someone who forgot UNO, call yours late, or
   jump in with an identical card. The bots wait the table's window (`window` seconds) for you: act, or
   call `let_go` to let it pass and have them go on at once.
4. Call UNO with the play that leaves you one card (the action described "calling UNO"), or others will
   catch you. `get_record` gives the match's record at the end.
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


def state(key: str, table: Table, lang: str, *, news: bool = True) -> dict[str, Any]:
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
    return answer


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
        instructions="Play UNO: start_match or join_room, then wait / act until over. See the prompt how_to_play.",
        token_verifier=None if token is None else StaticToken(token),
        auth=auth,
    )
    tables = tables if tables is not None else Tables()

    @server.tool()
    async def start_match(
        context: Context,
        players: Annotated[int, Field(ge=2, le=10, description="Seats, yours (0) included.")] = 4,
        bots: Annotated[
            list[str], Field(description="Bot specs for seats 1…, the last one repeated: heuristic, ismcts…")
        ] = ["heuristic"],  # noqa: B006
        rules: Annotated[
            dict[str, int | bool], Field(description="Settings of RULES.md, e.g. {'target_score': 0}.")
        ] = {},  # noqa: B006
        name: str = "agent",
        seed: str | None = None,
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
    ) -> dict[str, Any]:
        """Start a match in this process against bots: you play seat 0. Whenever you may catch,
        call UNO late or jump in, the bots wait `window` seconds for you (`ready` is true and
        `chance` says it is out of turn); otherwise they move at once. The record comes at the end."""
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
    ) -> dict[str, Any]:
        """Take a seat of a room of a unomas server (as a program, in a seat kept for programs first)."""
        try:
            table = await RemoteTable.join(link, name, lang, server_address)
        except UnoError as error:
            raise _refusal(error) from None
        return state(tables.open(owner(context), table), table, lang)

    @server.tool()
    async def get_view(context: Context, table: TableId = None, lang: Lang = lang) -> dict[str, Any]:
        """Your seat's view now, in words and JSON, and your legal actions (ids valid for this ply)."""
        key, seated = tables.get(owner(context), table)
        return state(key, seated, lang, news=False)

    @server.tool()
    async def act(
        context: Context,
        action_id: Annotated[int, Field(ge=0, description="The id of one of the view's actions.")],
        ply: Annotated[int, Field(ge=0, description="The ply of the view the id comes from.")],
        table: TableId = None,
        lang: Lang = lang,
    ) -> dict[str, Any]:
        """Take one of your legal actions, by its id in the view of that ply; returns what followed."""
        key, seated = tables.get(owner(context), table)
        view = seated.view()
        if view is None:
            raise _refusal(Refusal("room.not_playing"))
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
    ) -> dict[str, Any]:
        """Wait until it is your decision (ready) or the match is over; returns what happened meanwhile."""
        key, seated = tables.get(owner(context), table)
        await seated.wait(timeout)
        return state(key, seated, lang)

    @server.tool()
    async def let_go(context: Context, table: TableId = None, lang: Lang = lang) -> dict[str, Any]:
        """Let an out-of-turn chance go (a catch, a late UNO call, a jump-in): the bots stop
        waiting for you. Returns what followed."""
        key, seated = tables.get(owner(context), table)
        await seated.let_go()
        return state(key, seated, lang)

    @server.tool()
    async def match_rules(context: Context, table: TableId = None, lang: Lang = lang) -> dict[str, Any]:
        """The rules of your match: every setting, and each house rule on or off, explained."""
        _, seated = tables.get(owner(context), table)
        return {
            "rules": seated.rules.to_dict(),
            "words": "\n".join(wording.rules_lines(seated.rules, translator(lang))),
        }

    @server.tool()
    async def get_record(context: Context, table: TableId = None) -> dict[str, Any]:
        """The match's record (RECORD.md): a room's once it is over, its shuffle seed revealed."""
        _, seated = tables.get(owner(context), table)
        try:
            return await seated.record()
        except UnoError as error:
            raise _refusal(error) from None

    @server.tool()
    async def leave(context: Context, table: TableId = None) -> dict[str, Any]:
        """Leave the table (a room's seat is then played by a bot after the grace period)."""
        key, seated = tables.get(owner(context), table)
        await seated.close()
        tables.close(key)
        return {"table": key, "left": True}

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
