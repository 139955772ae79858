"""The server's HTTP layer on uvicorn: what a socket may cost before the application sees it.

uvicorn's own settings do part of it (:func:`uvicorn_config`): the httptools parser (about a
third less processor time per request than h11, which a flood of refused requests shows
on every honest player's latency), its keep-alive timeout (a connection idle between two
requests is closed), and forwarded headers read only from the ``--trust-proxy`` addresses
(``forwarded_allow_ips``; uvicorn trusts the loopback by default). What uvicorn lacks,
:class:`GuardedHttpTools` adds: caps on a request head's bytes and header lines (httptools
takes a head of any size; more is ``431`` with its code), a deadline for a request's head
(a slowloris client, or one that opens a socket and says nothing, is closed then) and a cap
on the sockets one address holds, WebSockets and idle keep-alives included (past it a new
socket is answered ``429`` and closed at once).
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import json
import logging
import resource
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from unomas.errors import Refusal, SettingsError

if TYPE_CHECKING:
    import uvicorn

    from unomas.server.rooms import Settings

__all__ = ["GuardedHttpTools", "PublicUrl", "Sockets", "address_group", "open_files", "uvicorn_config"]

FILE_HEADROOM = 64
"""Open files kept for the store, logs and the like, beyond the connections uvicorn takes."""


@functools.lru_cache(maxsize=4096)
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


class GuardedHttpTools(HttpToolsProtocol):
    """uvicorn's httptools protocol with caps on a request head's bytes and header lines,
    a deadline for each head, and a cap on the sockets one address holds; a subclass per
    server (:func:`guarded_protocol`) carries its :class:`Sockets` and
    :class:`~unomas.server.rooms.Settings`."""

    sockets: Sockets
    settings: Settings
    trusted: frozenset[str]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.group = ""
        self.head_deadline: asyncio.TimerHandle | None = None
        self.in_head = True
        """Whether the next request's head is still arriving (or not yet begun)."""
        self.head_bytes = 0
        """The bytes read while the head was arriving (a bound on its size)."""
        self.header_lines = 0
        self.refusal: Refusal | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        peer = self.client[0] if self.client else "unknown"
        if peer in self.trusted:  # a reverse proxy: it limits its own clients' sockets
            self._await_head()
            return
        self.group = address_group(peer)
        if self.sockets.add(self.group, transport) > self.settings.max_sockets:
            self._refuse(429, Refusal("client.limited", retry_after=5), b"retry-after: 5\r\n")
            return
        self._await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.head_deadline is not None:
            self.head_deadline.cancel()
        if self.group:
            self.sockets.remove(self.group, self.transport)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.in_head:
            self.head_bytes += len(data)
        super().data_received(data)
        # A head still arriving past the cap is refused now; one that came whole is
        # measured exactly by on_headers_complete (a body read with it is not its size).
        if self.in_head and self.head_bytes > self.settings.max_header_bytes and not self.transport.is_closing():
            self._refuse(431, Refusal("request.head_too_large", limit=self.settings.max_header_bytes))

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.header_lines = 0

    def on_header(self, name: bytes, value: bytes) -> None:
        self.header_lines += 1
        if self.header_lines > self.settings.max_headers:
            self.refusal = Refusal("request.too_many_headers", limit=self.settings.max_headers)
            raise ValueError(self.refusal.code)  # httptools stops the parse: send_400_response
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        size = len(self.url) + sum(len(name) + len(value) + 4 for name, value in self.headers)
        if size > self.settings.max_header_bytes:
            self.refusal = Refusal("request.head_too_large", limit=self.settings.max_header_bytes)
            raise ValueError(self.refusal.code)
        self.in_head = False
        self.head_bytes = 0
        if self.head_deadline is not None:
            self.head_deadline.cancel()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self.in_head = True
        self._await_head()

    def _await_head(self) -> None:
        """Give the next request ``header_timeout`` seconds to send its whole head."""
        if self.head_deadline is not None:
            self.head_deadline.cancel()
        self.head_deadline = self.loop.call_later(self.settings.header_timeout, self._head_late)

    def _head_late(self) -> None:
        if self.in_head and not self.transport.is_closing():
            self.transport.close()

    def send_400_response(self, msg: str) -> None:
        """A request the parser refused: ``431`` with its code when its head is over the caps."""
        if self.refusal is None:
            super().send_400_response(msg)
        else:
            self._refuse(431, self.refusal)

    def _refuse(self, status: int, refusal: Refusal, more: bytes = b"") -> None:
        """Answer ``status`` with ``refusal``'s code and close the connection."""
        body = json.dumps({"error": refusal.to_json()}).encode()
        phrase = {429: b"Too Many Requests", 431: b"Request Header Fields Too Large"}[status]
        head = b"HTTP/1.1 %d %s\r\ncontent-type: application/json\r\n%sconnection: close\r\ncontent-length: %d\r\n\r\n"
        self.transport.write(head % (status, phrase, more, len(body)) + body)
        self.transport.close()


def guarded_protocol(sockets: Sockets, settings: Settings) -> type[GuardedHttpTools]:
    """A :class:`GuardedHttpTools` for one server's ``sockets`` and ``settings``."""
    return type(
        "GuardedHttpTools",
        (GuardedHttpTools,),
        {"sockets": sockets, "settings": settings, "trusted": settings.trusted_proxies},
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

    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        http=guarded_protocol(sockets, settings),
        timeout_keep_alive=max(1, round(settings.idle_timeout)),
        proxy_headers=bool(settings.trusted_proxies),
        forwarded_allow_ips=sorted(settings.trusted_proxies),
        ws_max_size=16 * 1024,
        # No per-message compression: it cost the server about a tenth of its CPU per action
        # and a zlib context per connection, to save a few kilobytes a second per player.
        ws_per_message_deflate=False,
        **more,
    )
    logging.getLogger("uvicorn.access").addFilter(not_rate_limited)  # once: the same function
    return config


def not_rate_limited(record: logging.LogRecord) -> bool:
    """Whether an access-log line is written: not for a ``429``. A flood is refused by the
    thousand a minute; a line each would cost the server a tenth of a millisecond per
    refusal and fill the log; ``/metrics`` counts the rate limits' refusals by code
    (``unomas_refusals_total``)."""
    return not (isinstance(record.args, tuple) and len(record.args) == 5 and record.args[4] == 429)
