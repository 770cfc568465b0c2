"""The workspace's sessions and leases, and the audit filters it uses, on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from redline.store.testing import ManualClock
from redline.store.sql import AuditStore
from redline.store.workspace import WorkspaceStore
from redline.types import Decision, Finding, Outcome, RiskLevel, Severity, Status

T0 = datetime(2026, 12, 1, 9, 0, 0, tzinfo=UTC)
RawQuery = Callable[[str, str], list[tuple[Any, ...]]]


Clock = ManualClock


@pytest.fixture
def clock() -> Clock:
    return Clock(T0)


@pytest.fixture
def ws(store: AuditStore, clock: Clock) -> WorkspaceStore:
    return WorkspaceStore(store, clock=clock)


def finding(rule: str, start: int, end: int, status: Status = Status.AFFIRMED) -> Finding:
    return Finding(rule=rule, severity=Severity.BLOCK, start=start, end=end, text="x" * (end - start),
                   status=status, cue="no" if status is Status.NEGATED else None, term="refund")  # fmt: skip


def held(store: AuditStore, id: str, *, rules: tuple[str, ...] = ("billing:no-refund",), layers: Any = None) -> int:
    decision = Decision(
        id=id, outcome=Outcome.ESCALATE, reason="red_line_violation", risk_level=RiskLevel.HIGH,
        findings=tuple(finding(r, 0, 6) for r in rules),
        suppressed=(finding("soul:escalate:0", 10, 17, Status.NEGATED),),
        policy_name="support", policy_hash="sha256:" + "ab" * 32, layers=layers or {},
    )  # fmt: skip
    store.record(decision, text=f"refund of {id} and no lawsuit", text_excerpt=f"excerpt {id}", held=True)
    return next(i.id for i in store.queue(status=None, limit=500).items if i.decision_id == id)


def test_a_session_lives_until_it_expires_or_closes(ws: WorkspaceStore, clock: Clock, db_url: str,
                                                    raw_query: RawQuery) -> None:  # fmt: skip
    cookie = ws.open_session("expert:1234abcd", "expert", lifetime_s=600)
    row = ws.session(cookie)
    assert row is not None and (row.principal, row.role) == ("expert:1234abcd", "expert")
    assert row.expires_at == T0 + timedelta(seconds=600)
    assert ws.session(cookie + "x") is None and ws.session("") is None
    (stored,) = raw_query(db_url, "SELECT id FROM workspace_sessions")
    assert cookie not in str(stored)  # only the cookie's digest is kept
    clock.advance(seconds=600)
    assert ws.session(cookie) is None  # expired
    other = ws.open_session("operator:feedbeef", "operator", lifetime_s=600)
    assert raw_query(db_url, "SELECT count(*) FROM workspace_sessions")[0][0] == 1  # the expired one is swept
    ws.close_session(other)
    assert ws.session(other) is None


def test_a_lease_is_held_by_one_expert_until_it_expires(store: AuditStore, ws: WorkspaceStore, clock: Clock) -> None:
    item = held(store, "d1")
    first = ws.take_lease(item, "expert:aaaa", seconds=600)
    assert first.held_by("expert:aaaa") and first.until == T0 + timedelta(seconds=600)
    second = ws.take_lease(item, "expert:bbbb", seconds=600)
    assert second.held_by("expert:aaaa")  # taken: the second Expert gets the first's lease back
    clock.advance(seconds=300)
    assert ws.take_lease(item, "expert:aaaa", seconds=600).until == T0 + timedelta(seconds=900)  # renewed
    clock.advance(seconds=900)
    assert ws.lease(item) is None  # expired
    assert ws.take_lease(item, "expert:bbbb", seconds=600).held_by("expert:bbbb")
    ws.release(item, "expert:aaaa")  # not theirs: nothing happens
    assert ws.lease(item) is not None
    ws.release(item, "expert:bbbb")
    assert ws.lease(item) is None


def test_experts_racing_for_one_item_get_one_lease(store: AuditStore, ws: WorkspaceStore) -> None:
    item = held(store, "d1")
    got: list[str] = []
    barrier = threading.Barrier(8)

    def take(n: int) -> None:
        barrier.wait()
        got.append(ws.take_lease(item, f"expert:{n:04d}", seconds=600).expert)

    threads = [threading.Thread(target=take, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 8 and len(set(got)) == 1  # everyone sees the same single holder


def test_a_lease_on_an_unknown_item_is_refused(ws: WorkspaceStore, store: AuditStore) -> None:
    held(store, "d1")
    if store.backend == "sqlite":
        pytest.skip("SQLite checks foreign keys only when asked; the routes read the item first")
    with pytest.raises(LookupError):
        ws.take_lease(999, "expert:aaaa", seconds=60)


def test_pending_joins_each_item_with_its_decision_and_live_lease(
    store: AuditStore, ws: WorkspaceStore, clock: Clock
) -> None:
    a = held(store, "d1", rules=("billing:no-refund", "legal:no-advice"))
    clock.advance(seconds=5)
    b = held(store, "d2")
    ws.take_lease(b, "expert:aaaa", seconds=60)
    store.approve(a, "expert:aaaa")
    clock.advance(seconds=5)
    c = held(store, "d3")
    items, capped = ws.pending()
    assert [i.id for i in items] == [b, c] and not capped  # oldest first, decided ones gone
    assert items[0].lease is not None and items[0].lease.expert == "expert:aaaa" and items[1].lease is None
    assert (items[0].policy, items[0].outcome, items[0].reason) == ("support", Outcome.ESCALATE, "red_line_violation")
    assert items[0].excerpt == "excerpt d2" and not items[0].is_action
    items, capped = ws.pending(cap=1)
    assert [i.id for i in items] == [b] and capped


def test_reviews_say_who_decided_what(store: AuditStore, ws: WorkspaceStore) -> None:
    a = held(store, "d1")
    held(store, "d2")
    store.reject(a, "expert:aaaa", "promises a refund")
    found = ws.reviews(["d1", "d2", "nope"])
    assert set(found) == {"d1", "d2"}
    assert (found["d1"].status.value, found["d1"].expert, found["d1"].note) == ("rejected", "expert:aaaa", "promises a refund")
    assert found["d2"].status.value == "pending" and found["d2"].expert is None


def test_the_audit_list_filters_by_a_rule_that_fired(store: AuditStore) -> None:
    held(store, "d1", rules=("billing:no-refund",))
    held(store, "d2", rules=("detector:technical_content",))
    held(store, "d3", rules=("detectorxtechnical_content",))  # `_` and `:` are not wildcards
    assert [r.id for r in store.list(rule="billing:no-refund").items] == ["d1"]
    assert [r.id for r in store.list(rule="detector:technical_content").items] == ["d2"]
    assert [r.id for r in store.list(rule="billing").items] == []  # whole ids only
    assert [r.id for r in store.list(rule="soul:escalate:0").items] == []  # suppressed is not fired


def test_layers_and_suppressed_spans_are_kept_for_the_item_view(store: AuditStore) -> None:
    layers = {"screen": {"verdict": "violates", "hits": 2}, "judge": {"called": True, "judge": "heuristic",
              "rules": [{"rule": "billing:no-refund", "verdict": "violates"}]}, "agreement": True}  # fmt: skip
    held(store, "d1", layers=layers)
    row = store.get("d1")
    assert row is not None and row.layers == layers
    (suppressed,) = row.suppressed
    assert (suppressed["start"], suppressed["end"], suppressed["status"], suppressed["cue"]) == (10, 17, "negated", "no")
