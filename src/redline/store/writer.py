"""The audit writer: one thread commits every decision row, many at a time.

    writer = AuditWriter(store)
    writer.record(pending)            # from a thread: returns once the row is committed
    await writer.arecord(pending)     # from the event loop: the same, without a thread

A request that waits for its own commit costs a hand-off to the writer and back; the
writer takes whatever has queued meanwhile (up to `max_batch`) into ONE transaction
(group commit), so under load a commit serves many requests and the database's fixed
cost per transaction (SQLite's WAL append and sync, PostgreSQL's WAL flush) is paid once
per batch. Nothing is acknowledged before its transaction has committed: a caller
learns of success only after `record_many` returned it, and of every failure as the
store's error. A crash loses no acknowledged row, only answers never sent.

Rows from an event loop reach the writer once per turn of that loop, all together: a
coroutine's row waits (staged) until the loop has run every request that was ready with
it, and one callback hands the lot over. Waking the writer for each row instead let it
take the first row alone (a check lets go of the GIL several times, in RE2 and in
system calls, and each time the writer got in), so under load a commit held under two
rows and every row paid a transaction, a wake-up and a GIL hand-off of its own.
Callers on an event loop are settled with one `call_soon_threadsafe` per loop and batch,
not one per request: waking a loop costs a write to its self-pipe.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Protocol

from redline.store.errors import StoreUnavailable
from redline.store.records import PendingRecord

log = logging.getLogger("redline.store.writer")
MAX_BATCH = 64
_SHUT_DOWN = "the audit writer is shut down; no decision can be recorded"


class BatchStore(Protocol):
    def record_many(self, pending: list[PendingRecord]) -> list[Exception | None]: ...


# (entry, how to tell its caller): a threading waiter or an asyncio future with its loop
_Threaded = tuple[threading.Event, list[Exception | None]]
_Async = tuple[asyncio.AbstractEventLoop, "asyncio.Future[None]"]
_Job = tuple[PendingRecord, _Threaded | _Async]


class AuditWriter:
    """Commits rows on its own thread; safe to call from any thread and any event loop."""

    def __init__(self, store: BatchStore, *, max_batch: int = MAX_BATCH, name: str = "redline-audit-writer") -> None:
        if max_batch < 1:
            raise ValueError(f"max_batch must be at least 1, got {max_batch!r}")
        self._store = store
        self._max_batch = max_batch
        self._jobs: list[_Job] = []
        # per event loop, the rows of its current turn; handed over by `_hand_over`
        self._staged: dict[asyncio.AbstractEventLoop, list[_Job]] = {}
        self._ready = threading.Condition(threading.Lock())
        self._closing = False
        self.batches = 0
        self.rows = 0
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    # callers ---------------------------------------------------------------------------
    def record(self, pending: PendingRecord) -> None:
        """Store `pending`; returns once it is committed, raises the store's error if not."""
        done = threading.Event()
        outcome: list[Exception | None] = []
        self._submit((pending, (done, outcome)))
        done.wait()
        if outcome[0] is not None:
            raise outcome[0]

    async def arecord(self, pending: PendingRecord) -> None:
        """`record` for a coroutine: the loop goes on serving while the row is written."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        with self._ready:
            if self._closing:
                raise StoreUnavailable(_SHUT_DOWN)
            staged = self._staged.get(loop)
            if staged is None:  # the turn's first row: hand the turn's rows over after it
                staged = self._staged[loop] = []
                loop.call_soon(self._hand_over, loop)
            staged.append((pending, (loop, future)))
        # not shielded: a caller cancelled while it waits cancels only its future; its row
        # is committed anyway (the answer is dropped, the row kept) and `_settle` skips it.
        # A shield would cost each answer one more turn of the loop behind new checks.
        await future

    def _submit(self, job: _Job) -> None:
        with self._ready:
            if self._closing:
                raise StoreUnavailable(_SHUT_DOWN)
            self._jobs.append(job)
            if len(self._jobs) == 1:
                self._ready.notify()

    def _hand_over(self, loop: asyncio.AbstractEventLoop) -> None:
        """On `loop`, after the turn that staged them: its rows go to the writer at once."""
        with self._ready:
            staged = self._staged.pop(loop, None)
            if staged:  # none: `close` took them already
                self._queue(staged)

    def _queue(self, jobs: list[_Job]) -> None:  # holding self._ready
        idle = not self._jobs
        self._jobs.extend(jobs)
        if idle:
            self._ready.notify()

    @property
    def backlog(self) -> int:
        """Rows waiting for the writer."""
        return len(self._jobs) + sum(len(jobs) for jobs in list(self._staged.values()))

    def close(self, timeout: float = 30.0) -> None:
        """Refuse new rows, commit those already queued (staged ones too), and stop the thread."""
        with self._ready:
            self._closing = True
            for loop in list(self._staged):
                self._queue(self._staged.pop(loop))
            self._ready.notify()
        self._thread.join(timeout=timeout)

    # the thread --------------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            with self._ready:
                while not self._jobs and not self._closing:
                    self._ready.wait()
                if not self._jobs:
                    return  # closing, and nothing left
                batch, self._jobs = self._jobs[: self._max_batch], self._jobs[self._max_batch :]
            self._commit(batch)

    def _commit(self, batch: list[_Job]) -> None:
        try:
            results = self._store.record_many([entry for entry, _ in batch])
            if len(results) != len(batch):
                raise RuntimeError(f"record_many answered {len(results)} of {len(batch)} rows")
        except Exception as exc:  # never acknowledge what may not be stored
            log.exception("the audit writer failed a batch of %d rows", len(batch))
            results = [exc] * len(batch)
        self.batches += 1
        self.rows += results.count(None)
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], Exception | None]]] = {}
        for (_, waiter), result in zip(batch, results):
            if isinstance(waiter[0], threading.Event):
                event, outcome = waiter
                outcome.append(result)
                event.set()
            else:
                loop, future = waiter
                by_loop.setdefault(loop, []).append((future, result))
        for loop, settled in by_loop.items():
            try:
                loop.call_soon_threadsafe(_settle, settled)
            except RuntimeError:  # the loop is closed: nobody is waiting any more
                pass


def _settle(settled: list[tuple[asyncio.Future[None], Exception | None]]) -> None:
    for future, result in settled:
        if future.done():
            continue
        if result is None:
            future.set_result(None)
        else:
            future.set_exception(result)

