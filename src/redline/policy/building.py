"""Building a large policy without the cyclic garbage collector in the way.

Loading a 10,000-rule policy allocates about a million small objects (YAML nodes and
marks, dicts, pydantic models, matcher keys), none of them garbage. Each allocation
burst starts a collection that walks every live object, so CPython's collector spends
more time than the load itself (0.8 s of 1.7 s, `benchmarks/screen_bench.py --load`).
Nothing built here forms a cycle that must be freed before the build ends, so the
collector waits until it does; it runs again as usual afterwards.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collector_paused"]

_lock = threading.Lock()
_depth = 0
_was_enabled = False


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic collector for the block; nested and concurrent blocks share one
    pause, and the collector is re-enabled (if it was on) when the last block ends."""
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()
