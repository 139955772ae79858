"""``GET /metrics``: the server's figures in the Prometheus text format (prometheus-client).

Read when scraped, from the server itself: rooms (by status), open connections, actions
stored (a counter: ``rate()`` gives actions per second), the store's calls and failures,
the latency of its calls (a histogram, queueing on its thread included) and the refusals
sent, by code. Each app has a registry of its own, so several servers may share a process.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from unomas.server.app import Server

__all__ = ["CONTENT_TYPE", "Metrics"]

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


class Metrics(Collector):
    """The figures of one :class:`~unomas.server.app.Server`."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.refusals: Counter[str] = Counter()
        self.registry = CollectorRegistry()
        self.store_seconds = Histogram(
            "unomas_store_seconds",
            "Seconds a store call took, waiting for the store's thread included",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0),
            registry=self.registry,
        )
        self.registry.register(self)

    def collect(self) -> Iterator[Metric]:
        server = self.server
        rooms = GaugeMetricFamily("unomas_rooms", "Rooms open, by status", labels=["status"])
        by_status = Counter(room.status for room in server.rooms.values())
        for status in ("lobby", "playing", "over"):
            rooms.add_metric([status], by_status[status])
        yield rooms
        yield GaugeMetricFamily("unomas_connections", "Open WebSocket connections", value=sum(server.sockets.values()))
        store = server.store
        yield CounterMetricFamily("unomas_actions", "Actions stored (made)", value=store.moves)
        yield CounterMetricFamily("unomas_store_calls", "Store calls made", value=store.calls)
        yield CounterMetricFamily("unomas_store_failures", "Store calls that failed", value=store.failures)
        refused = CounterMetricFamily("unomas_refusals", "Refusals sent, by code", labels=["code"])
        for code, count in sorted(self.refusals.items()):
            refused.add_metric([code], count)
        yield refused

    def text(self) -> bytes:
        """Everything, in the Prometheus text format."""
        return bytes(generate_latest(self.registry))
