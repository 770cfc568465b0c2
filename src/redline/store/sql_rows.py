"""Rows of the audit store in and out: records from decisions, frozen dataclasses from
records, what may be stored at all, and the pagination cursors."""

from __future__ import annotations

import base64
import enum
import json
import re
from datetime import UTC, datetime
from collections.abc import Sequence
from typing import Any, TypeVar

from redline.store.errors import InvalidCursor, StoreError
from redline.store.models import EXCERPT_CHARS, DecisionRecord, QueueItemRecord
from redline.store.records import AuditRow, QueueItem, QueueStatus
from redline.types import Decision, Finding, Outcome, RiskLevel

MAX_LIMIT = 500
MAX_ERROR_CHARS = 2000


def decision_values(decision: Decision, now: datetime, text_excerpt: str) -> dict[str, Any]:
    """The audit row of `decision` as column values (a Core insert takes them as they are)."""
    timings = {k: float(v) for k, v in decision.timings_ms.items()}
    return {
        "id": decision.id,
        "created_at": now,
        "policy_name": decision.policy_name,
        "policy_hash": decision.policy_hash,
        "outcome": decision.outcome.value,
        "reason": decision.reason,
        "risk_level": decision.risk_level.value,
        "rules_fired": list(decision.rules_fired),
        "suppressed": [_stored_finding(f) for f in decision.suppressed],  # with spans, for the workspace
        "findings": [_stored_finding(f) for f in decision.findings],
        "timings_ms": timings,
        "total_ms": timings.get("total", sum(timings.values())),
        "licensed_by_context": decision.licensed_by_context,
        "context": decision.context,
        "text_excerpt": text_excerpt[:EXCERPT_CHARS],
        "action": decision.action.to_dict() if decision.action is not None else None,
        "error": None if decision.error is None else decision.error[:MAX_ERROR_CHARS],
        "omitted": dict(decision.omitted) if any(decision.omitted.values()) else None,
        "layers": decision.layers or None,
    }


def decision_record(decision: Decision, now: datetime, text_excerpt: str) -> DecisionRecord:
    return DecisionRecord(**decision_values(decision, now, text_excerpt))


_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")




def check_storable(what: str, value: Any, where: str = "") -> None:
    """Refuse a row that some backend cannot store or that could not be read back and sent
    as UTF-8: a NUL (PostgreSQL text) or a lone surrogate anywhere in it, a key included.

    A first pass only looks (no path built, a NUL found with `in`, surrogates ruled out
    by `isascii` or a UTF-8 encode, all C): a clean row, nearly all of them, ends there.
    Only a row it finds at fault is walked again, to name the field."""
    if not _is_clean(value):
        _walk_storable(what, value, where)


def check_row_storable(what: str, text: str, row: dict[str, Any]) -> None:
    """`check_storable` of a decision's row (`decision_values`) and its full text. The first
    pass looks at the values only: the row's keys are the table's column names."""
    if not _is_clean([text, *row.values()]):
        _walk_storable(what, {"text": text, **row}, "")


def storable_values(text: str, values: Sequence[Any]) -> bool:
    """A first look, in C, at a row as its driver gets it (`RowInsert.values`: the JSON
    columns already JSON text) and at its full text: True when none can hold a NUL or a
    lone surrogate. JSON text escapes both (`\\u0000`, `\\udc00`), so a value holding
    either kind of escape is suspect too, a surrogate pair's (an emoji's) included: False
    means "look closer" (`check_row_storable` names the field at fault, if any is)."""
    if not _clean_str(text):
        return False
    for value in values:
        if type(value) is str and (
            not _clean_str(value) or "\\u0000" in value or "\\ud" in value or "\\uD" in value
        ):
            return False
    return True


def _clean_str(text: str) -> bool:
    if "\x00" in text:
        return False
    if text.isascii():
        return True
    try:
        text.encode("utf-8")  # raises on a lone surrogate
    except UnicodeEncodeError:
        return False
    return True


def _is_clean(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not _clean_str(item):
                return False
        elif isinstance(item, dict):
            stack.extend(item)  # the keys
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return True


def _walk_storable(what: str, value: Any, where: str) -> None:
    if isinstance(value, str):
        found = _UNSTORABLE.search(value)
        if found is not None:
            kind = "a NUL character" if found.group() == "\x00" else "a lone surrogate"
            raise StoreError(f"cannot record {what}: {where or 'a value'} holds {kind} at offset {found.start()}")
    elif isinstance(value, dict):
        for key, item in value.items():
            _walk_storable(what, key, where)
            _walk_storable(what, item, f"{where}.{key}" if where else str(key))
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            _walk_storable(what, item, f"{where}[{index}]")


def _stored_finding(finding: Finding) -> dict[str, Any]:
    """A detector's match is the secret or the personal datum itself: the audit row keeps
    its type and span (the span points into the draft an Expert can read), not its text."""
    data = finding.to_dict()
    if finding.entity is not None:
        data["text"] = f"[{finding.entity}]"
    return data


def audit_row(r: DecisionRecord) -> AuditRow:
    return AuditRow(
        id=r.id,
        created_at=r.created_at,
        policy_name=r.policy_name,
        policy_hash=r.policy_hash,
        outcome=Outcome(r.outcome),
        reason=r.reason,
        risk_level=RiskLevel(r.risk_level),
        rules_fired=tuple(r.rules_fired),
        suppressed=tuple(r.suppressed),
        findings=tuple(r.findings),
        timings_ms=dict(r.timings_ms),
        total_ms=r.total_ms,
        licensed_by_context=r.licensed_by_context,
        context=r.context,
        text_excerpt=r.text_excerpt,
        error=r.error,
        action=r.action,
        omitted=dict(r.omitted or {"findings": 0, "suppressed": 0}),
        layers=r.layers,
    )


def queue_item(r: QueueItemRecord) -> QueueItem:
    return QueueItem(
        id=r.id,
        decision_id=r.decision_id,
        created_at=r.created_at,
        status=QueueStatus(r.status),
        draft_text=r.draft_text,
        edited_text=r.edited_text,
        expert=r.expert,
        decided_at=r.decided_at,
        note=r.note,
        edit_decision_id=r.edit_decision_id,
        edit_outcome=None if r.edit_outcome is None else Outcome(r.edit_outcome),
    )


E = TypeVar("E", bound=enum.Enum)


def enum_arg(kind: type[E], name: str, value: E | str) -> E:
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(str(m.value) for m in kind)
        raise ValueError(f"{name}: {value!r} is not one of {allowed}") from None


def check_limit(limit: int) -> int:
    if limit < 1:
        raise ValueError(f"limit: must be at least 1, got {limit!r}")
    return min(limit, MAX_LIMIT)


def encode_cursor(kind: str, at: datetime, last: str | int) -> str:
    raw = json.dumps([kind, at.astimezone(UTC).isoformat(), last], separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


_MAX_ITEM_ID = 2**31 - 1  # the queue id column is a 32-bit integer on PostgreSQL
_DECISION_ID = re.compile(r"[A-Za-z0-9_.:-]{1,64}")
_EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
_LATEST = datetime(9000, 1, 1, tzinfo=UTC)


def decode_cursor(cursor: str, kind: str) -> tuple[datetime, Any]:
    """The position a cursor names; anything this store could not have issued (a made-up
    id, a time out of range) is an InvalidCursor, never a query that fails later."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        got, at, last = json.loads(raw)
        if got != kind:
            raise ValueError(kind)
        if kind == "a" and not (isinstance(last, str) and _DECISION_ID.fullmatch(last)):
            raise ValueError("decision id")
        if kind == "q" and not (type(last) is int and 1 <= last <= _MAX_ITEM_ID):  # bool is an int
            raise ValueError("item id")
        when = datetime.fromisoformat(at)
        if when.tzinfo is None:
            raise ValueError("naive time")
        when = when.astimezone(UTC)
        if not _EARLIEST <= when < _LATEST:
            raise ValueError("time out of range")
        return when, last
    except (ValueError, TypeError, OverflowError) as exc:  # binascii.Error and JSONDecodeError are ValueErrors
        raise InvalidCursor(
            f"cursor: {cursor[:60]!r} is not a cursor from this listing; "
            "pass the next_cursor of the previous page, or none for the first page"
        ) from exc
