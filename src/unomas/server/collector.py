"""Short pauses of the garbage collector in a process holding thousands of connections.

CPython's full collection walks every object it tracks. Each WebSocket connection is some
two hundred of them (the coroutines, futures and buffers of its server stack), so with two
thousand players a full pass pauses every room for hundreds of milliseconds, every few
seconds of play. Instead, what has lived a while is frozen (:func:`gc.freeze`, which moves
lists and takes constant time), and the collector's passes walk only what is new. Now and
then everything is thawed and collected once, so that garbage cycles among frozen objects
are freed within that time rather than kept.
"""

from __future__ import annotations

import asyncio
import gc

__all__ = ["tend_collector"]


async def tend_collector(freeze_every: float, collect_every: float) -> None:
    """Until cancelled: freeze what is tracked every ``freeze_every`` seconds, and collect
    everything (frozen objects included) every ``collect_every`` seconds. Cancelled, it
    thaws everything, so the process's collector walks all of it again."""
    thaws = max(1, round(collect_every / freeze_every))
    frozen = 0
    try:
        while True:
            await asyncio.sleep(freeze_every)
            frozen += 1
            if frozen % thaws == 0:
                gc.unfreeze()
                gc.collect()
            gc.freeze()
    finally:
        gc.unfreeze()
