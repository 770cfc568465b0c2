"""The audit store and review queue, against a real SQLite file and a real PostgreSQL server."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from redline.store.errors import (
    ConflictError,
    InvalidCursor,
    NotFoundError,
    StoreError,
    StoreUnavailable,
)
from redline.store.testing import ManualClock
from redline.store.sql import AuditRow, AuditStore, Page, QueueItem, QueueStatus
from redline.types import Decision, Finding, Outcome, RiskLevel, Severity, Status

T0 = datetime(2025, 3, 1, 12, 0, 0, 123456, tzinfo=UTC)
RawQuery = Callable[[str, str], list[tuple[Any, ...]]]


Clock = ManualClock


@pytest.fixture
def clock() -> Clock:
    return Clock(T0)


def decision(
    id: str,
    outcome: Outcome = Outcome.ESCALATE,
    policy: str = "support",
    *,
    findings: tuple[Finding, ...] = (),
    suppressed: tuple[Finding, ...] = (),
    context: dict[str, Any] | None = None,
) -> Decision:
    return Decision(
        id=id,
        outcome=outcome,
        reason="red_line" if outcome is not Outcome.EXECUTE else "clear",
        risk_level=RiskLevel.HIGH if outcome is not Outcome.EXECUTE else RiskLevel.LOW,
        findings=findings,
        suppressed=suppressed,
        policy_name=policy,
        policy_hash="sha256:" + "ab" * 32,
        timings_ms={"normalize": 0.01, "screen": 0.2, "resolve": 0.005, "total": 0.25},
        context=context,
    )


def record(store: AuditStore, d: Decision, held: bool = False) -> None:
    store.record(d, text=f"draft of {d.id}", text_excerpt=f"excerpt of {d.id}", held=held)


REFUND = Finding(
    rule="no_refund_promise", severity=Severity.BLOCK, start=5, end=11, text="refund",
    status=Status.AFFIRMED, cue=None, term="refund",
)
CARD = Finding(
    rule="no_card_numbers", severity=Severity.BLOCK, start=20, end=39, text="4111 1111 1111 1111",
    status=Status.AFFIRMED, cue=None, entity="CREDIT_CARD", detail="luhn checksum valid",
)
NEGATED = Finding(
    rule="no_refund_promise", severity=Severity.BLOCK, start=50, end=56, text="refund",
    status=Status.NEGATED, cue="not", term="refund",
)


def test_record_and_get_round_trip_every_field(store: AuditStore) -> None:
    d = decision(
        "d1",
        findings=(REFUND, CARD),
        suppressed=(NEGATED,),
        context={"licensed_by_context": True, "messages": 4, "truncated": False},
    )
    store.record(d, text="full draft", text_excerpt="x" * 300, held=False)

    row = store.get("d1")

    assert isinstance(row, AuditRow)
    assert row.id == "d1"
    assert row.created_at == T0 and row.created_at.tzinfo is not None
    assert (row.policy_name, row.policy_hash) == ("support", "sha256:" + "ab" * 32)
    assert (row.outcome, row.reason, row.risk_level) == (Outcome.ESCALATE, "red_line", RiskLevel.HIGH)
    assert row.rules_fired == ("no_card_numbers", "no_refund_promise")
    assert row.suppressed == (NEGATED.to_dict(),)  # with its span: the workspace highlights it
    assert row.findings[0] == REFUND.to_dict()
    assert row.timings_ms == {"normalize": 0.01, "screen": 0.2, "resolve": 0.005, "total": 0.25}
    assert row.total_ms == 0.25
    assert row.licensed_by_context is True
    assert row.context == {"licensed_by_context": True, "messages": 4, "truncated": False}
    assert row.text_excerpt == "x" * 200
    assert row.error is None
    assert row.layers is None  # a decision built without layers


def test_a_detector_finding_is_stored_without_the_secret_it_matched(store: AuditStore) -> None:
    record(store, decision("d1", findings=(CARD,)))

    (stored,) = store.get("d1").findings  # type: ignore[union-attr]

    assert stored["text"] == "[CREDIT_CARD]"
    assert (stored["start"], stored["end"], stored["entity"]) == (20, 39, "CREDIT_CARD")
    assert "4111" not in repr(store.get("d1"))


def test_an_unknown_decision_is_none(store: AuditStore) -> None:
    assert store.get("nope") is None


def test_a_held_decision_becomes_a_pending_queue_item(store: AuditStore) -> None:
    store.record(decision("d1"), text="Your refund is approved.", text_excerpt="Your refund…", held=True)

    (item,) = store.queue().items

    assert isinstance(item, QueueItem)
    assert (item.decision_id, item.status, item.draft_text) == ("d1", QueueStatus.PENDING, "Your refund is approved.")
    assert (item.created_at, item.expert, item.decided_at, item.edited_text, item.note) == (T0, None, None, None, None)
    assert store.get_item(item.id) == item


def test_a_decision_not_held_has_no_queue_item(store: AuditStore) -> None:
    record(store, decision("d1", Outcome.EXECUTE), held=False)

    assert store.queue(status=None).items == ()
    assert store.count() == 1


def test_recording_the_same_decision_twice_is_a_no_op(store: AuditStore, clock: Clock) -> None:
    record(store, decision("d1"), held=True)
    clock.advance(seconds=5)
    record(store, decision("d1"), held=True)

    assert store.count() == 1
    assert len(store.queue().items) == 1
    assert store.get("d1").created_at == T0  # type: ignore[union-attr]  # the first write wins


def test_list_filters_by_outcome_policy_and_time_range(store: AuditStore, clock: Clock) -> None:
    plan = [("a", Outcome.EXECUTE, "support"), ("b", Outcome.ESCALATE, "support"),
            ("c", Outcome.ESCALATE, "triage"), ("d", Outcome.REFUSE, "support")]
    for id, outcome, policy in plan:
        record(store, decision(id, outcome, policy))
        clock.advance(minutes=1)

    def ids(page: Page[AuditRow]) -> list[str]:
        return [r.id for r in page.items]

    assert ids(store.list()) == ["d", "c", "b", "a"]
    assert ids(store.list(outcome=Outcome.ESCALATE)) == ["c", "b"]
    assert ids(store.list(outcome="escalate", policy="support")) == ["b"]
    assert ids(store.list(policy="triage")) == ["c"]
    assert ids(store.list(since=T0 + timedelta(minutes=1))) == ["d", "c", "b"]
    assert ids(store.list(until=T0 + timedelta(minutes=2))) == ["b", "a"]  # until is exclusive
    assert ids(store.list(since=T0 + timedelta(minutes=1), until=T0 + timedelta(minutes=3))) == ["c", "b"]
    assert ids(store.list(since=(T0 + timedelta(minutes=3)).replace(tzinfo=None))) == ["d"]  # naive is UTC
    with pytest.raises(ValueError, match="outcome: 'maybe'"):
        store.list(outcome="maybe")


def test_list_pages_newest_first_without_gaps_or_duplicates(store: AuditStore, clock: Clock) -> None:
    # 25 decisions in groups of 4 with the same timestamp, so the id breaks ties.
    for n in range(25):
        record(store, decision(f"d{n:02d}"))
        if n % 4 == 3:
            clock.advance(microseconds=1)
    expected = sorted((store.get(f"d{n:02d}").created_at, f"d{n:02d}") for n in range(25))[::-1]  # type: ignore[union-attr]

    pages, cursor = [], None
    while True:
        page = store.list(limit=10, cursor=cursor)
        pages.append([r.id for r in page.items])
        if page.next_cursor is None:
            break
        cursor = page.next_cursor

    assert [len(p) for p in pages] == [10, 10, 5]
    assert [id for p in pages for id in p] == [id for _, id in expected]


def test_pages_stay_stable_while_new_decisions_arrive(store: AuditStore, clock: Clock) -> None:
    for n in range(6):
        record(store, decision(f"old{n}"))
        clock.advance(seconds=1)
    first = store.list(limit=3)
    record(store, decision("newest"))

    second = store.list(limit=3, cursor=first.next_cursor)

    assert [r.id for r in first.items + second.items] == [f"old{n}" for n in range(5, -1, -1)]


def test_the_limit_is_capped_at_500(store: AuditStore) -> None:
    for n in range(501):
        record(store, decision(f"d{n:03d}", Outcome.EXECUTE))

    page = store.list(limit=10_000)

    assert len(page.items) == 500 and page.next_cursor is not None
    with pytest.raises(ValueError, match="limit"):
        store.list(limit=0)


def test_a_cursor_from_elsewhere_is_refused(store: AuditStore, clock: Clock) -> None:
    for n in range(3):
        record(store, decision(f"d{n}"), held=True)
        clock.advance(seconds=1)
    audit_cursor = store.list(limit=1).next_cursor
    assert audit_cursor is not None

    for bad in ["garbage!", "", "e30", audit_cursor[:-3]]:
        with pytest.raises(InvalidCursor, match="cursor"):
            store.list(cursor=bad)
    with pytest.raises(InvalidCursor):
        store.queue(cursor=audit_cursor)  # an audit cursor is not a queue cursor


def test_the_queue_lists_oldest_first_by_status_and_pages(store: AuditStore, clock: Clock) -> None:
    for n in range(7):
        record(store, decision(f"d{n}"), held=True)
        clock.advance(seconds=1)
    items = store.queue(limit=100).items
    store.reject(items[0].id, "ana")

    first = store.queue(limit=4)
    second = store.queue(limit=4, cursor=first.next_cursor)

    assert [i.decision_id for i in first.items] == ["d1", "d2", "d3", "d4"]
    assert [i.decision_id for i in second.items] == ["d5", "d6"] and second.next_cursor is None
    assert [i.decision_id for i in store.queue(status="rejected").items] == ["d0"]
    assert len(store.queue(status=None).items) == 7
    with pytest.raises(ValueError, match="status: 'done'"):
        store.queue(status="done")


def test_approve_records_the_expert_and_the_time(store: AuditStore, clock: Clock) -> None:
    record(store, decision("d1"), held=True)
    (item,) = store.queue().items
    clock.advance(minutes=3)

    done = store.approve(item.id, "ana")

    assert (done.status, done.expert, done.decided_at) == (QueueStatus.APPROVED, "ana", T0 + timedelta(minutes=3))
    assert done.final_text == "draft of d1"
    assert store.get_item(item.id) == done
    assert store.queue().items == ()


def test_edit_keeps_the_draft_and_the_experts_text(store: AuditStore) -> None:
    record(store, decision("d1"), held=True)
    (item,) = store.queue().items

    done = store.edit(item.id, "ana", "We will look into a refund.")

    assert (done.status, done.draft_text, done.edited_text) == (
        QueueStatus.EDITED, "draft of d1", "We will look into a refund.")
    assert done.final_text == "We will look into a refund."


def test_reject_keeps_the_note_and_sends_nothing(store: AuditStore) -> None:
    record(store, decision("d1"), held=True)
    (item,) = store.queue().items

    done = store.reject(item.id, "ana", note="promises a refund")

    assert (done.status, done.note, done.final_text) == (QueueStatus.REJECTED, "promises a refund", None)


@pytest.mark.parametrize("second", ["approve", "edit", "reject"])
def test_a_decided_item_cannot_be_decided_again(store: AuditStore, second: str) -> None:
    record(store, decision("d1"), held=True)
    (item,) = store.queue().items
    store.approve(item.id, "ana")

    with pytest.raises(ConflictError, match="already approved"):
        getattr(store, second)(item.id, "bo", *(["new text"] if second == "edit" else []))
    assert store.get_item(item.id).expert == "ana"


def test_an_unknown_item_is_not_found(store: AuditStore) -> None:
    with pytest.raises(NotFoundError, match="999"):
        store.get_item(999)
    with pytest.raises(NotFoundError):
        store.approve(999, "ana")
    with pytest.raises(NotFoundError):
        store.edit(999, "ana", "new text")
    with pytest.raises(NotFoundError):
        store.reject(999, "ana")


def test_deciding_needs_an_expert_and_an_edit_needs_text(store: AuditStore) -> None:
    record(store, decision("d1"), held=True)
    (item,) = store.queue().items

    with pytest.raises(ValueError, match="expert"):
        store.approve(item.id, " ")
    with pytest.raises(ValueError, match="text"):
        store.edit(item.id, "ana", "")
    assert store.get_item(item.id).status is QueueStatus.PENDING


def test_two_experts_at_once_one_wins(store: AuditStore) -> None:
    record(store, decision("d1"), held=True)
    (item,) = store.queue().items
    results: list[str] = []
    barrier = threading.Barrier(4)

    def decide(expert: str) -> None:
        barrier.wait()
        try:
            store.approve(item.id, expert)
            results.append("won")
        except ConflictError:
            results.append("conflict")

    threads = [threading.Thread(target=decide, args=(f"e{n}",)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert sorted(results) == ["conflict"] * 3 + ["won"]


def test_migrating_twice_is_a_no_op(store: AuditStore, db_url: str, raw_query: RawQuery) -> None:
    record(store, decision("d1"), held=True)

    store.migrate()

    from alembic.script import ScriptDirectory

    from redline.store.sql import MIGRATIONS

    head = ScriptDirectory(str(MIGRATIONS)).get_current_head()
    assert raw_query(db_url, "SELECT version_num FROM redline_alembic_version") == [(head,)]
    assert store.count() == 1 and len(store.queue().items) == 1


def test_the_migrated_schema_matches_the_models(store: AuditStore) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from redline.store.models import Base

    with store.engine.connect() as conn:
        context = MigrationContext.configure(
            conn, opts={"version_table": "redline_alembic_version", "compare_type": True}
        )
        assert compare_metadata(context, Base.metadata) == []


def test_without_migrate_the_error_says_to_migrate(db_url: str) -> None:
    with AuditStore(db_url) as bare:
        with pytest.raises(StoreError, match=r"call migrate\(\)") as caught:
            bare.count()
    assert not isinstance(caught.value, StoreUnavailable)
    assert caught.value.__cause__ is not None


def test_concurrent_writes_from_four_threads_all_land(store: AuditStore) -> None:
    errors: list[BaseException] = []

    def write(thread: int) -> None:
        try:
            for n in range(100):
                record(store, decision(f"t{thread}-{n:03d}"), held=n % 4 == 0)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert errors == []
    assert store.count() == 400
    assert len(store.queue(limit=500).items) == 100


def test_sqlite_runs_in_wal_mode_with_the_connection_settings(tmp_path: Any, raw_query: RawQuery) -> None:
    url = f"sqlite:///{tmp_path / 'nested' / 'redline.db'}"  # the folder is created
    with AuditStore(url) as store:
        store.migrate()
        conn = store.engine.raw_connection()
        try:
            cursor = conn.cursor()
            settings: dict[str, Any] = {}
            for pragma in ("journal_mode", "synchronous", "busy_timeout", "foreign_keys"):
                cursor.execute(f"PRAGMA {pragma}")
                (settings[pragma],) = cursor.fetchone() or (None,)
        finally:
            conn.close()

    assert settings == {"journal_mode": "wal", "synchronous": 1, "busy_timeout": 5000, "foreign_keys": 1}
    assert raw_query(url, "PRAGMA journal_mode") == [("wal",)]  # WAL is kept in the file itself


def test_an_unreachable_server_is_unavailable_and_ping_says_so() -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with AuditStore(f"postgresql://nobody@127.0.0.1:{port}/none") as store:
        assert store.ping() is False
        with pytest.raises(StoreUnavailable) as caught:
            store.count()
    assert caught.value.__cause__ is not None


def test_a_sqlite_path_that_cannot_be_opened_is_unavailable(tmp_path: Any) -> None:
    (tmp_path / "dir.db").mkdir()
    with AuditStore(f"sqlite:///{tmp_path / 'dir.db'}") as store:
        assert store.ping() is False
        with pytest.raises(StoreUnavailable):
            store.migrate()


def test_urls_are_checked_and_passwords_stay_out_of_messages() -> None:
    with pytest.raises(StoreError, match="url: backend 'mysql' is not supported"):
        AuditStore("mysql://u:p@host/db")
    with pytest.raises(StoreError, match="url: cannot parse"):
        AuditStore("not a url")
    store = AuditStore("postgresql://u:secret@127.0.0.1:1/db")
    assert store.engine.url.drivername == "postgresql+psycopg"
    assert "secret" not in repr(store)
    with pytest.raises(StoreUnavailable) as caught:
        store.count()
    assert "secret" not in str(caught.value)
    store.close()


def test_sqlite_wal_is_checkpointed_off_the_request_path(tmp_path: Any) -> None:
    import time

    url = f"sqlite:///{tmp_path / 'redline.db'}"
    with AuditStore(url) as store:
        store.migrate()
        for n in range(50):
            record(store, decision(f"wal-{n}"))
        conn = store.engine.raw_connection()
        try:
            cursor = conn.cursor()
            cursor.execute("PRAGMA wal_autocheckpoint")
            (backstop,) = cursor.fetchone() or (None,)
        finally:
            conn.close()
        deadline = time.monotonic() + 5
        while store.checkpoints == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert store.checkpoints > 0
    assert backstop > 1000, "SQLite's own checkpoint inside a commit is only a backstop"
    assert store._checkpointer is not None and not store._checkpointer._thread.is_alive()


def test_an_in_memory_store_runs_no_checkpoint_thread() -> None:
    with AuditStore("sqlite://") as store:
        assert store.checkpoints == 0 and store._checkpointer is None


class _ReadOnlyConnections:
    """New connections open read-only, as they do while a SQLite file is read-only or the
    PostgreSQL server is a standby; pooled ones opened then stay so after it is over."""

    def __init__(self, store: AuditStore, db_url: str) -> None:
        self.store, self.db_url, self.on = store, db_url, False
        if store.backend == "sqlite":
            from sqlalchemy import event

            event.listen(store.engine, "connect", self._sqlite_connect)

    def _sqlite_connect(self, dbapi_connection: Any, _record: Any) -> None:
        if self.on:
            dbapi_connection.execute("PRAGMA query_only=ON")

    def _pg(self, sql: str) -> None:
        import re

        import psycopg

        libpq = re.sub(r"^postgresql\+\w+://", "postgresql://", self.db_url)
        name = libpq.rsplit("/", 1)[1]
        with psycopg.connect(libpq.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
            conn.execute(sql.format(name=name))
            conn.execute(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'" if self.on else "SELECT 1")

    def set(self, on: bool) -> None:
        self.on = on
        if self.store.backend == "postgresql":
            self._pg("ALTER DATABASE {name} SET default_transaction_read_only = " + ("on" if on else "off"))
        elif on:
            self.store.engine.dispose()


def test_a_briefly_read_only_database_recovers_and_health_says_so(store: AuditStore, db_url: str) -> None:
    read_only = _ReadOnlyConnections(store, db_url)
    record(store, decision("before"))
    read_only.set(True)
    errors = []
    for n in range(6):
        try:
            record(store, decision(f"during-{n}"))
        except StoreUnavailable as exc:
            errors.append(str(exc))
    assert len(errors) == 6 and all("read" in e.lower() for e in errors)
    assert store.health() == "read_only"
    assert store.ping() is True, "SELECT 1 still answers: that is why health writes"

    read_only.set(False)
    for n in range(30):  # every connection opened in the window is replaced, none answers read-only again
        record(store, decision(f"after-{n}"))
    assert store.health() == "ok"
    assert store.count() == 31


def test_health_is_down_when_the_database_does_not_answer() -> None:
    with AuditStore("postgresql://nobody@127.0.0.1:1/none") as gone:
        assert gone.health() == "down"


def _crafted(*parts: Any) -> str:
    import base64
    import json

    return base64.urlsafe_b64encode(json.dumps(list(parts)).encode()).decode().rstrip("=")


@pytest.mark.parametrize(
    ("listing", "cursor"),
    [
        ("queue", _crafted("q", "2025-03-01T12:00:00+00:00", True)),
        ("queue", _crafted("q", "2025-03-01T12:00:00+00:00", 10**30)),
        ("queue", _crafted("q", "2025-03-01T12:00:00+00:00", -1)),
        ("queue", _crafted("q", "9999-12-31T23:59:59-14:00", 1)),
        ("list", _crafted("a", "9999-12-31T23:59:59-14:00", "abc")),
        ("list", _crafted("a", "0001-01-01T00:00:00+14:00", "abc")),
        ("list", _crafted("a", "2025-03-01T12:00:00", "abc")),
        ("list", _crafted("a", "2025-03-01T12:00:00+00:00", "x" * 500)),
        ("list", _crafted("a", "2025-03-01T12:00:00+00:00", "'; DROP TABLE decisions; --")),
    ],
)
def test_a_crafted_well_formed_cursor_is_an_invalid_cursor_not_a_store_failure(
    store: AuditStore, listing: str, cursor: str
) -> None:
    record(store, decision("d1"), held=True)
    with pytest.raises(InvalidCursor, match="cursor"):
        getattr(store, listing)(cursor=cursor)
    assert store.count() == 1


def test_a_row_prepared_by_the_caller_is_stored_as_the_store_builds_it(store: AuditStore, clock: Clock) -> None:
    """`prepare` builds the row on the caller's thread (the service's event loop); the
    writer stores it as `record_many` would have built it, its queue item at its time."""
    from redline.store.records import PendingRecord

    made = decision("p1", findings=(REFUND, CARD), suppressed=(NEGATED,), context={"licensed_by_context": False})
    prepared = store.prepare(made, "the draft", "the excerpt")
    assert prepared is not None and prepared[0] == T0
    clock.advance(seconds=5)  # the batch commits later: the row keeps its own time
    built = decision("p2", findings=(REFUND, CARD), suppressed=(NEGATED,), context={"licensed_by_context": False})
    assert store.record_many([
        PendingRecord(made, "the draft", "the excerpt", held=True, prepared=prepared),
        PendingRecord(built, "the draft", "the excerpt", held=True),
    ]) == [None, None]  # fmt: skip
    one, two = store.get("p1"), store.get("p2")
    assert one is not None and two is not None
    assert one.created_at == T0 and two.created_at == T0 + timedelta(seconds=5)
    assert dataclasses.replace(one, id="p2", created_at=two.created_at) == two
    items = {item.decision_id: item for item in store.queue(status=QueueStatus.PENDING).items}
    assert items["p1"].created_at == T0 and items["p1"].draft_text == "the draft"


def test_a_row_that_needs_a_closer_look_is_not_prepared_and_its_error_still_comes(store: AuditStore) -> None:
    from redline.store.records import PendingRecord

    made = decision("p3", context={"note": "a\x00b"})
    assert store.prepare(made, "draft", "excerpt") is None
    assert store.prepare(decision("p4"), "a lone \ud800", "excerpt") is None
    [error] = store.record_many([PendingRecord(made, "draft", "excerpt", held=False, prepared=None)])
    assert isinstance(error, StoreError) and "context.note holds a NUL character" in str(error)
    assert store.get("p3") is None
