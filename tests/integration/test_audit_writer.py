"""The audit writer: group commit on both backends, and nothing acknowledged before its commit."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from redline.store.errors import StoreError, StoreUnavailable
from redline.store.records import PendingRecord
from redline.store.sql import AuditStore
from redline.store.writer import AuditWriter
from redline.types import Decision, Outcome, RiskLevel


def decision(id: str, outcome: Outcome = Outcome.EXECUTE) -> Decision:
    return Decision(
        id=id,
        outcome=outcome,
        reason="clear",
        risk_level=RiskLevel.LOW,
        findings=(),
        suppressed=(),
        policy_name="support",
        policy_hash="sha256:" + "cd" * 32,
        timings_ms={"total": 0.2},
    )


def pending(id: str, held: bool = False, text: str | None = None) -> PendingRecord:
    outcome = Outcome.ESCALATE if held else Outcome.EXECUTE
    return PendingRecord(decision(id, outcome), text or f"draft {id}", f"excerpt {id}", held=held)


@pytest.fixture
def store(db_url: str) -> Iterator[AuditStore]:
    with AuditStore(db_url) as s:
        s.migrate()
        yield s


class Gated:
    """The real store, with a gate in front of its first batch: rows queue behind it."""

    def __init__(self, store: AuditStore) -> None:
        self.store = store
        self.entered = threading.Event()
        self.release = threading.Event()
        self.sizes: list[int] = []

    def record_many(self, batch: list[PendingRecord]) -> list[Exception | None]:
        if not self.sizes:
            self.entered.set()
            self.release.wait(10)
        self.sizes.append(len(batch))
        return self.store.record_many(batch)

    def queue_behind(self, writer: AuditWriter, first: PendingRecord, batch: list[PendingRecord], send: Any) -> None:
        """`first` is being committed while all of `batch` queues behind it; then both go."""
        head = threading.Thread(target=send, args=(first,))
        head.start()
        assert self.entered.wait(10)
        threads = [threading.Thread(target=send, args=(e,)) for e in batch]
        for t in threads:
            t.start()
        while writer.backlog < len(batch):
            threading.Event().wait(0.01)
        self.release.set()
        for t in [head, *threads]:
            t.join(10)


def test_rows_that_queue_behind_a_commit_share_the_next_one(store: AuditStore) -> None:
    gated = Gated(store)
    writer = AuditWriter(gated)
    try:
        batch = [pending(f"r{n}", held=n % 3 == 0) for n in range(20)]
        gated.queue_behind(writer, pending("first"), batch, writer.record)
    finally:
        writer.close()
    assert gated.sizes == [1, 20]
    assert store.count() == 21
    assert len(store.queue().items) == 7  # r0, r3 … r18: the held ones, in the same transactions


def test_a_caller_returns_only_once_its_row_is_readable_by_another_connection(db_url: str, store: AuditStore) -> None:
    writer = AuditWriter(store)
    try:
        with AuditStore(db_url) as other:
            for n in range(30):
                writer.record(pending(f"seen-{n}"))
                assert other.get(f"seen-{n}") is not None
    finally:
        writer.close()


def test_coroutines_wait_for_their_own_commit(store: AuditStore) -> None:
    writer = AuditWriter(store)

    async def main() -> None:
        await asyncio.gather(*(writer.arecord(pending(f"a{n}", held=n % 2 == 0)) for n in range(200)))

    try:
        asyncio.run(main())
    finally:
        writer.close()
    assert store.count() == 200
    assert writer.batches < 200  # they were committed together, not one by one


class Sizes:
    """The real store, noting the size of every batch it is given."""

    def __init__(self, store: AuditStore) -> None:
        self.store = store
        self.sizes: list[int] = []

    def record_many(self, batch: list[PendingRecord]) -> list[Exception | None]:
        self.sizes.append(len(batch))
        return self.store.record_many(batch)


def test_rows_from_one_turn_of_the_loop_share_one_commit(store: AuditStore) -> None:
    # each request lets go of the GIL before its row is ready, as a check does (RE2, system
    # calls): a writer woken by the first row would take it alone while the rest came
    sizes = Sizes(store)
    writer = AuditWriter(sizes)

    async def request(n: int) -> None:
        time.sleep(0.002)
        await writer.arecord(pending(f"t{n}", held=n % 4 == 0))

    async def main() -> None:
        await asyncio.gather(*(request(n) for n in range(20)))
        await asyncio.gather(*(request(n) for n in range(20, 25)))

    try:
        asyncio.run(main())
    finally:
        writer.close()
    assert sizes.sizes == [20, 5]
    assert store.count() == 25
    assert len(store.queue().items) == 7  # t0, t4 … t24


def test_closing_commits_rows_staged_in_the_current_turn(store: AuditStore) -> None:
    writer = AuditWriter(store)
    waiting: list[asyncio.Task[None]] = []

    async def main() -> None:
        waiting.append(asyncio.ensure_future(writer.arecord(pending("staged"))))
        await asyncio.sleep(0)  # the task has staged its row; the hand-over is due next turn
        assert writer.backlog == 1 and store.get("staged") is None
        writer.close()
        assert store.get("staged") is not None
        await waiting[0]  # and its caller learns of it

    asyncio.run(main())
    assert waiting[0].exception() is None
    with pytest.raises(StoreUnavailable, match="shut down"):
        asyncio.run(writer.arecord(pending("late")))


def test_a_caller_cancelled_while_it_waits_still_has_its_row_committed(store: AuditStore) -> None:
    gated = Gated(store)
    writer = AuditWriter(gated)

    async def main() -> None:
        first = asyncio.ensure_future(writer.arecord(pending("held-up")))
        while not gated.entered.is_set():  # the writer is inside the commit of "held-up"
            await asyncio.sleep(0.005)
        gone = asyncio.ensure_future(writer.arecord(pending("gone")))
        await asyncio.sleep(0.01)  # handed over, queued behind the commit
        gone.cancel()
        await asyncio.sleep(0)
        gated.release.set()
        await first
        with pytest.raises(asyncio.CancelledError):
            await gone
        # the cancelled caller no longer waits for its row; the writer commits it on its
        # own, and only then does the next caller come (else the two may share a batch)
        deadline = time.monotonic() + 10
        while store.get("gone") is None and time.monotonic() < deadline:
            await asyncio.sleep(0.005)
        later = asyncio.ensure_future(writer.arecord(pending("after")))
        await later

    try:
        asyncio.run(main())
    finally:
        writer.close()
    assert store.get("gone") is not None, "a cancelled caller's row must still be committed"
    assert gated.sizes == [1, 1, 1]


def test_one_bad_row_costs_no_other_row_its_answer(store: AuditStore) -> None:
    store.record(decision("dup"), text="x", text_excerpt="x", held=False)
    gated = Gated(store)
    writer = AuditWriter(gated)
    outcomes: dict[str, Exception | None] = {}

    def send(entry: PendingRecord) -> None:
        try:
            writer.record(entry)
            outcomes[entry.decision.id] = None
        except Exception as exc:
            outcomes[entry.decision.id] = exc

    try:
        batch = [pending("ok-1"), pending("dup"), pending("nul", text="a\x00b"), pending("ok-2", held=True)]
        gated.queue_behind(writer, pending("before"), batch, send)
    finally:
        writer.close()
    assert gated.sizes == [1, 4]
    assert outcomes["ok-1"] is None and outcomes["ok-2"] is None and outcomes["before"] is None
    assert outcomes["dup"] is None, "a retried decision id is a no-op, as with record()"
    assert isinstance(outcomes["nul"], StoreError) and "NUL" in str(outcomes["nul"])
    assert store.count() == 4  # dup (the first write), before, ok-1, ok-2
    assert [i.decision_id for i in store.queue().items] == ["ok-2"]


def test_a_full_disk_acknowledges_nothing_and_writing_resumes_when_there_is_room(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'full.db'}"
    with AuditStore(url) as store:
        store.migrate()
        limit = {"pages": 0}

        @event.listens_for(store.engine, "connect")
        def _cap(dbapi_connection: object, _record: object) -> None:
            if limit["pages"]:
                dbapi_connection.execute(f"PRAGMA max_page_count={limit['pages']}")  # type: ignore[attr-defined]

        writer = AuditWriter(store)
        try:
            writer.record(pending("warm"))
            pages = store.engine.connect().exec_driver_sql("PRAGMA page_count").scalar()
            limit["pages"] = int(pages or 0) + 1
            store.engine.dispose()  # every connection from now on sees the cap: a full disk
            failed = 0
            acknowledged: list[str] = []
            for n in range(200):
                entry = pending(f"big-{n}", held=True, text="x" * 20_000)
                try:
                    writer.record(entry)
                    acknowledged.append(entry.decision.id)
                except StoreUnavailable as exc:
                    assert "full" in str(exc)
                    failed += 1
            assert failed > 0, "the cap never filled the database"
            limit["pages"] = 0
            store.engine.dispose()
            for ident in acknowledged:
                assert store.get(ident) is not None, f"{ident} was acknowledged but is not stored"
            writer.record(pending("after"))
            assert store.get("after") is not None
        finally:
            writer.close()
        assert store.count() == 2 + len(acknowledged)


def test_a_closed_writer_commits_what_was_queued_and_refuses_more(store: AuditStore) -> None:
    gated = Gated(store)
    writer = AuditWriter(gated)
    threads = [threading.Thread(target=writer.record, args=(pending(f"q{n}"),)) for n in range(5)]
    for t in threads:
        t.start()
    assert gated.entered.wait(10)
    closer = threading.Thread(target=writer.close)
    closer.start()
    gated.release.set()
    for t in [*threads, closer]:
        t.join(10)
    assert store.count() == 5
    with pytest.raises(StoreUnavailable, match="shut down"):
        writer.record(pending("late"))


def test_a_store_that_raises_fails_every_row_of_the_batch() -> None:
    class Broken:
        def record_many(self, batch: list[PendingRecord]) -> list[Exception | None]:
            raise RuntimeError("driver bug")

    writer = AuditWriter(Broken())
    try:
        with pytest.raises(RuntimeError, match="driver bug"):
            writer.record(pending("x"))

        async def main() -> None:
            await writer.arecord(pending("y"))

        with pytest.raises(RuntimeError, match="driver bug"):
            asyncio.run(main())
    finally:
        writer.close()
