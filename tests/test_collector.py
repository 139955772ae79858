"""The server's collector: what lives a while is frozen out of the garbage collector's
passes, garbage cycles among frozen objects are freed at the next full collection, and
stopping thaws everything."""

from __future__ import annotations

import asyncio
import gc
import weakref

from unomas.server.collector import tend_collector


class Node:
    """A weakly referable object that can take part in a cycle."""

    def __init__(self) -> None:
        self.other: Node | None = None


def tracked(target: object) -> bool:
    """Whether the collector's passes walk ``target`` (frozen objects are not listed)."""
    return any(candidate is target for candidate in gc.get_objects())


def test_what_lives_a_while_is_frozen_and_a_frozen_cycle_is_freed_at_the_next_full_collection() -> None:
    async def scenario() -> None:
        gc.unfreeze()
        first, second = Node(), Node()
        first.other, second.other = second, first
        gone = weakref.ref(first)
        tender = asyncio.ensure_future(tend_collector(freeze_every=0.05, collect_every=1.0))
        await asyncio.sleep(0.2)
        assert not tracked(first) and gc.get_freeze_count() > 0
        del first, second
        gc.collect()  # a pass of the collector does not walk frozen objects: the cycle stays
        assert gone() is not None
        await asyncio.sleep(1.2)  # a full collection, frozen objects included, has run
        assert gone() is None
        tender.cancel()
        await asyncio.gather(tender, return_exceptions=True)
        assert gc.get_freeze_count() == 0  # stopped: the process's collector walks everything again

    asyncio.run(scenario())
