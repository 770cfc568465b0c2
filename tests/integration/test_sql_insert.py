"""`RowInsert`: the audit writer's driver-level inserts store what a Core insert stores."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import insert, text

from redline.store.models import DecisionRecord, QueueItemRecord
from redline.store.sql import AuditStore
from redline.store.sql_insert import MAX_PARAMETERS, RowInsert

RawQuery = Callable[[str, str], list[tuple[Any, ...]]]
COLUMNS = [c.key for c in DecisionRecord.__table__.columns if c.key != "id"]


@pytest.fixture
def clock() -> Callable[[], datetime]:
    return lambda: datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def row(n: int, prefix: str) -> dict[str, Any]:
    """Rows that differ in every way a column can: empty and full JSON, nulls, non-ASCII."""
    full = n % 2 == 0
    return {
        "id": f"{prefix}-{n:03d}",
        "created_at": datetime(2026, 3, 1, 12, 0, tzinfo=UTC) + timedelta(microseconds=n * 1234567),
        "policy_name": "support",
        "policy_hash": "sha256:" + "ab" * 32,
        "outcome": "escalate" if full else "execute",
        "reason": "red_line_violation" if full else "clean",
        "risk_level": "medium",
        "rules_fired": ["skill:refunds", "skill:ünïcode"] if full else [],
        "suppressed": [{"rule": "r", "status": "negated", "cue": "not", "start": 1, "end": 4}] if n % 3 == 0 else [],
        "findings": [{"rule": "r", "text": "[EMAIL]", "score": 0.25, "nested": {"a": [1, None, True]}}] if full else [],
        "timings_ms": {"screen": 0.125 + n, "total": 1.5},
        "total_ms": 1.5 + n,
        "licensed_by_context": n % 4 == 0,
        "context": {"mode": "single", "messages": 3, "note": "café ☕"} if full else None,
        "text_excerpt": f"excerpt {n} — «quoted»",
        "error": None if n % 5 else "judge timed out",
        "action": {"domain": "refunds", "scores": {"amount": 12.5}} if n % 7 == 0 else None,
        "omitted": {"findings": 2, "suppressed": 0} if n % 6 == 0 else None,
        "layers": {"screen": {"verdict": "clear", "hits": 0}, "judge": None} if n % 2 else {},
    }


def stored(url: str, raw_query: RawQuery, prefix: str) -> list[tuple[Any, ...]]:
    names = ", ".join(COLUMNS)
    return raw_query(url, f"SELECT {names} FROM decisions WHERE id LIKE '{prefix}-%' ORDER BY id")


@pytest.mark.parametrize("count", [1, 2, 7, MAX_PARAMETERS // len(DecisionRecord.__table__.columns) + 3])
def test_rows_are_stored_as_a_core_insert_stores_them(store: AuditStore, db_url: str, raw_query: RawQuery, count: int) -> None:
    rows = RowInsert(DecisionRecord.__table__, store.engine.dialect)  # type: ignore[arg-type]
    with store.engine.begin() as conn:
        rows.execute(conn, [row(n, "driver") for n in range(count)])
        conn.execute(insert(DecisionRecord), [row(n, "core") for n in range(count)])
    ours, theirs = stored(db_url, raw_query, "driver"), stored(db_url, raw_query, "core")
    assert len(ours) == count
    assert ours == theirs  # the same bytes in the database, column by column
    assert [store.get(f"driver-{n:03d}") for n in range(count)] == [
        _renamed(store.get(f"core-{n:03d}"), f"driver-{n:03d}") for n in range(count)
    ]


def _renamed(found: Any, new_id: str) -> Any:
    import dataclasses

    return dataclasses.replace(found, id=new_id)


def test_some_columns_only_leave_the_rest_to_the_database(store: AuditStore, db_url: str, raw_query: RawQuery) -> None:
    decisions = RowInsert(DecisionRecord.__table__, store.engine.dialect)  # type: ignore[arg-type]
    items = RowInsert(QueueItemRecord.__table__, store.engine.dialect, ("decision_id", "created_at", "status", "draft_text"))  # type: ignore[arg-type]
    with store.engine.begin() as conn:
        decisions.execute(conn, [row(n, "held") for n in range(3)])
        items.execute(conn, [{"decision_id": f"held-{n:03d}", "created_at": row(n, "held")["created_at"],
                              "status": "pending", "draft_text": f"draft {n} ☕"} for n in range(3)])  # fmt: skip
    found = raw_query(db_url, "SELECT id, decision_id, status, draft_text, edited_text FROM queue_items ORDER BY id")
    assert [r[1:] for r in found] == [(f"held-{n:03d}", "pending", f"draft {n} ☕", None) for n in range(3)]
    assert len({r[0] for r in found}) == 3  # ids from the database's own sequence
    assert [i.decision_id for i in store.queue().items] == ["held-000", "held-001", "held-002"]


def test_a_repeated_id_fails_the_whole_statement_as_before(store: AuditStore) -> None:
    from sqlalchemy.exc import IntegrityError

    decisions = RowInsert(DecisionRecord.__table__, store.engine.dialect)  # type: ignore[arg-type]
    with pytest.raises(IntegrityError):
        with store.engine.begin() as conn:
            decisions.execute(conn, [row(1, "dup"), row(2, "dup"), row(1, "dup")])
    with store.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM decisions")).scalar() == 0  # rolled back whole


def test_a_multi_row_statement_is_what_sqlalchemy_compiles_without_compiling_it(store: AuditStore) -> None:
    """Each batch size's statement is the single-row one with its VALUES group repeated,
    the very text SQLAlchemy compiles for that many rows, built without a compile: a new
    batch size under load must not cost a compile (up to ~90 ms) while requests wait."""
    for table, columns in ((DecisionRecord.__table__, None),
                           (QueueItemRecord.__table__, ("decision_id", "created_at", "status", "draft_text"))):
        statement = RowInsert(table, store.engine.dialect, columns)  # type: ignore[arg-type]
        if not statement._positional:  # named parameters (PostgreSQL) go through executemany:
            assert statement._repeated(3) is None  # a row's names are not a group to repeat
            continue
        limit = MAX_PARAMETERS // len(statement._names)
        for count in (2, 3, 9, limit):
            assert statement._repeated(count) == statement._compiled_multi_row(count), count
