"""The local engine: worker processes on this machine, each holding its own compiled gates.

Workers are forked where the platform can (Linux, macOS with care) and the process has
one thread: they start with redline already imported, so a worker's start-up is the
compilation of its policies, and a script that calls `run_backtest` needs no
`if __name__ == "__main__"` guard, as it would with spawned processes. A process with
other threads (a server's, or a Ray driver's) is never forked: a lock another thread held
at the fork stays held in the child forever (a forked worker of a Ray driver hung in
Ray's own locking). Such a process starts its workers from a fork server that has
imported only redline, never the caller's `__main__`. Chunks go out in order with a
bounded number in flight (the input is never read whole into memory) and come back in
the same order.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.context import BaseContext

from redline.backtest.inputs import Chunk
from redline.backtest.partial import Partial
from redline.backtest.worker import Checker, RunSpec
from redline.errors import RedlineError

_IN_FLIGHT_PER_WORKER = 3
_checker: Checker | None = None


def available_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def start_method() -> str:
    """fork from a process with no other thread; otherwise a fork server with redline loaded.

    Other threads: Python's own, and a Ray driver's native ones, which `threading` does not
    see and which outlive `ray.shutdown()` (their locks stay held in a forked child). The
    native threads of numpy's BLAS are no reason: it re-arms its pool at a fork."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1 and "ray" not in sys.modules:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def _context() -> BaseContext:
    method = start_method()
    context = multiprocessing.get_context(method)
    if method == "forkserver":
        # preload redline, not the default `__main__`: the caller's script must not run again
        context.set_forkserver_preload(["redline.backtest.local"])
    return context


def _start(spec: RunSpec) -> None:
    global _checker
    _checker = Checker(spec)


def _run(chunk: Chunk) -> Partial:
    assert _checker is not None, "the worker's initializer builds the checker"
    return _checker(chunk)


def run_local(
    spec: RunSpec,
    chunks: Iterable[Chunk],
    workers: int,
    on_partial: Callable[[Partial], None],
    on_ready: Callable[[], None] = lambda: None,
) -> None:
    """Check every chunk with `workers` processes (1: in this process) and hand each
    Partial to `on_partial` in input order; `on_ready` is called once the gates are built."""
    if workers <= 1:
        checker = Checker(spec)
        on_ready()
        for chunk in chunks:
            on_partial(checker(chunk))
        return
    context = _context()
    pending: deque[Future[Partial]] = deque()
    try:
        with ProcessPoolExecutor(workers, mp_context=context, initializer=_start, initargs=(spec,)) as pool:
            # one trivial task per worker first, so that start-up is measured apart from the work
            for warm in [pool.submit(available_cpus) for _ in range(workers)]:
                warm.result()
            on_ready()
            for chunk in chunks:
                pending.append(pool.submit(_run, chunk))
                if len(pending) >= workers * _IN_FLIGHT_PER_WORKER:
                    on_partial(pending.popleft().result())
            while pending:
                on_partial(pending.popleft().result())
    except BrokenProcessPool as exc:
        raise RedlineError(
            f"a backtest worker process died ({exc}); out of memory? try fewer --workers"
        ) from exc
