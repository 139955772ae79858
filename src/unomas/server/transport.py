"""The server's HTTP layer on uvicorn: what a socket may cost before the application sees it.

uvicorn's own settings do most of it (:func:`uvicorn_config`): h11 with its cap on the
bytes of a request's head (``h11_max_incomplete_event_size``: more is ``431``), its
keep-alive timeout (a connection idle between two requests is closed), and forwarded
headers read only from the ``--trust-proxy`` addresses (``forwarded_allow_ips``; uvicorn
trusts the loopback by default). h11 is chosen over httptools for that cap: httptools takes
headers of any size. What uvicorn lacks, :class:`GuardedH11` adds: a deadline for a
request's head (a slowloris client, or one that opens a socket and says nothing, is closed
then) and a cap on the sockets one address holds, WebSockets and idle keep-alives included
(past it a new socket is answered ``429`` and closed at once).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import resource
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from unomas.errors import Refusal, SettingsError

if TYPE_CHECKING:
    import uvicorn

    from unomas.server.rooms import Settings

__all__ = ["GuardedH11", "PublicUrl", "Sockets", "address_group", "open_files", "uvicorn_config"]

FILE_HEADROOM = 64
"""Open files kept for the store, logs and the like, beyond the connections uvicorn takes."""


def address_group(address: str) -> str:
    """What one client is counted as: its IPv4 address, or its IPv6 /64 network (one
    subscriber's block: an address per socket costs them nothing).

    >>> address_group("2001:db8:1:2:aaaa::1"), address_group("203.0.113.9")
    ('2001:db8:1:2::/64', '203.0.113.9')
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


@dataclass(frozen=True)
class PublicUrl:
    """What ``--public-url`` allows: its name as a ``Host``, its origin as an ``Origin``."""

    hosts: frozenset[str] = frozenset()
    origins: frozenset[str] = frozenset()

    @classmethod
    def parse(cls, url: str | None) -> PublicUrl:
        """``url`` (``https://uno.example.org``) read, or ``serve.public_url`` if it is no
        http(s) address.

        >>> PublicUrl.parse("https://Uno.example.org/")
        PublicUrl(hosts=frozenset({'uno.example.org'}), origins=frozenset({'https://uno.example.org'}))
        """
        if url is None:
            return cls()
        try:
            parts = urlsplit(url)
            name = parts.hostname
        except ValueError:
            name = None
        if parts.scheme not in ("http", "https") or not name:
            raise SettingsError("serve.public_url", url=url)
        return cls(frozenset({name}), frozenset({f"{parts.scheme}://{parts.netloc.lower()}"}))


class Sockets:
    """The open sockets of each client address group, every kind counted (HTTP, WebSocket,
    silent). A socket handed over to the WebSocket protocol is forgotten once it closes."""

    def __init__(self) -> None:
        self.open: defaultdict[str, set[asyncio.BaseTransport]] = defaultdict(set)

    def add(self, group: str, transport: asyncio.BaseTransport) -> int:
        """Count ``transport`` for ``group``; returns how many ``group`` holds now."""
        held = self.open[group]
        held.difference_update([other for other in held if other.is_closing()])
        held.add(transport)
        return len(held)

    def remove(self, group: str, transport: asyncio.BaseTransport) -> None:
        held = self.open.get(group)
        if held is not None:
            held.discard(transport)
            if not held:
                del self.open[group]

    def prune(self) -> None:
        """Forget the closed sockets and the groups holding none (memory stays bounded)."""
        for group in list(self.open):
            held = self.open[group]
            held.difference_update([transport for transport in held if transport.is_closing()])
            if not held:
                del self.open[group]

    def total(self) -> int:
        """The sockets open (some of them may have closed since the last prune)."""
        return sum(len(held) for held in self.open.values())


class _Head(h11.Connection):
    """h11's connection, refusing a request head over ``max_bytes`` (h11 itself caps only a
    head still arriving, not one that came in a single read) or with more than
    ``max_headers`` header lines, and remembering why (uvicorn answers every refusal of
    h11's as a plain ``400``)."""

    def __init__(self, max_bytes: int, max_headers: int) -> None:
        super().__init__(h11.SERVER, max_incomplete_event_size=max_bytes)
        self.max_bytes = max_bytes
        self.max_headers = max_headers
        self.refusal: Refusal | None = None

    def next_event(self) -> Any:
        try:
            event = super().next_event()
        except h11.RemoteProtocolError as error:
            if error.error_status_hint == 431:
                self.refusal = Refusal("request.head_too_large", limit=self.max_bytes)
            raise
        if isinstance(event, h11.Request):
            size = len(event.target) + sum(len(name) + len(value) + 4 for name, value in event.headers)
            if size > self.max_bytes:
                self.refusal = Refusal("request.head_too_large", limit=self.max_bytes)
            elif len(event.headers) > self.max_headers:
                self.refusal = Refusal("request.too_many_headers", limit=self.max_headers)
            if self.refusal is not None:
                raise h11.RemoteProtocolError(self.refusal.message, error_status_hint=431)
        return event


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request's head and a cap on the
    sockets one address holds; a subclass per server (:func:`guarded_protocol`) carries
    its :class:`Sockets` and :class:`~unomas.server.rooms.Settings`."""

    sockets: Sockets
    settings: Settings
    trusted: frozenset[str]
    conn: _Head

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.conn = _Head(self.settings.max_header_bytes, self.settings.max_headers)
        self.group = ""
        self.head_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        peer = self.client[0] if self.client else "unknown"
        if peer in self.trusted:  # a reverse proxy: it limits its own clients' sockets
            self._await_head()
            return
        self.group = address_group(peer)
        if self.sockets.add(self.group, transport) > self.settings.max_sockets:
            refusal = Refusal("client.limited", retry_after=5)
            body = json.dumps({"error": refusal.to_json()}).encode()
            head = (
                "HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\nretry-after: 5\r\n"
                f"connection: close\r\ncontent-length: {len(body)}\r\n\r\n"
            )
            transport.write(head.encode() + body)
            transport.close()
            return
        self._await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.head_deadline is not None:
            self.head_deadline.cancel()
        if self.group:
            self.sockets.remove(self.group, self.transport)
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._await_head()

    def _await_head(self) -> None:
        """Give the next request ``header_timeout`` seconds to send its whole head."""
        if self.head_deadline is not None:
            self.head_deadline.cancel()
        self.head_deadline = self.loop.call_later(self.settings.header_timeout, self._head_late, self.scope)

    def _head_late(self, scope_before: object) -> None:
        if self.scope is scope_before and not self.transport.is_closing():
            self.transport.close()

    def send_400_response(self, msg: str) -> None:
        """A request h11 refused: ``431`` with its code when its head is over the caps."""
        refusal = self.conn.refusal
        if refusal is None:
            super().send_400_response(msg)
            return
        body = json.dumps({"error": refusal.to_json()}).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", b"%d" % len(body)),
            (b"connection", b"close"),
        ]
        self.transport.write(self.conn.send(h11.Response(status_code=431, headers=headers)) or b"")
        self.transport.write(self.conn.send(h11.Data(data=body)) or b"")
        self.transport.write(self.conn.send(h11.EndOfMessage()) or b"")
        self.transport.close()


def guarded_protocol(sockets: Sockets, settings: Settings) -> type[GuardedH11]:
    """A :class:`GuardedH11` for one server's ``sockets`` and ``settings``."""
    return type(
        "GuardedH11", (GuardedH11,), {"sockets": sockets, "settings": settings, "trusted": settings.trusted_proxies}
    )


def open_files() -> int:
    """Raise this process's open-file limit to its hard limit where allowed; returns the limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = 65536 if hard == resource.RLIM_INFINITY else hard
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft


def uvicorn_config(app: Any, host: str, port: int, sockets: Sockets, settings: Settings, **more: Any) -> uvicorn.Config:
    """uvicorn's configuration for ``app`` under ``settings``' limits (``more``: TLS, log level…)."""
    import uvicorn

    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=guarded_protocol(sockets, settings),
        h11_max_incomplete_event_size=settings.max_header_bytes,
        timeout_keep_alive=max(1, round(settings.idle_timeout)),
        proxy_headers=bool(settings.trusted_proxies),
        forwarded_allow_ips=sorted(settings.trusted_proxies),
        ws_max_size=16 * 1024,
        # No per-message compression: it cost the server about a tenth of its CPU per action
        # and a zlib context per connection, to save a few kilobytes a second per player.
        ws_per_message_deflate=False,
        **more,
    )
