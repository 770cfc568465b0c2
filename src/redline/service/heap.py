"""Keep the objects a service is built from out of the cyclic garbage collector's way.

A running service allocates for every check; objects still in flight when a young
collection runs are promoted, and once enough have been promoted CPython runs a full
collection, which walks every object in the process: the compiled policies, pydantic's
and SQLAlchemy's schemas, the imported modules. At 100 rules that is some 250,000 objects
and 35-140 ms with the GIL held, a few times a minute under load, and every request in
flight waits for it (at 32 connections those pauses alone were over 1% of the answers).

`gc.freeze()` once the service is built moves every object alive then into a permanent
generation that collections skip; what checks allocate afterwards is collected as usual.
A policy reload freezes again, so the new compiled policy is skipped too. Frozen objects
are still freed by reference counting (an unloaded policy goes at once); only garbage in
a reference cycle that was frozen would stay, and a compiled policy holds no cycle
(tests/unit/test_heap.py). The service's end thaws everything (`gc.unfreeze`).
"""

from __future__ import annotations

import gc


def freeze() -> None:
    """Collect what is garbage now, then take everything left out of later collections."""
    gc.collect()
    gc.freeze()


def freeze_new() -> None:
    """After a reload: what was built since the last freeze is skipped from now on too
    (no collection first: that would be a full pause in the middle of serving)."""
    gc.freeze()


def thaw() -> None:
    gc.unfreeze()
