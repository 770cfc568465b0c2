"""The audit trail and the review queue: `/v1/audit*` and `/v1/queue*`.

Experts read and act; an operator may read the audit trail but not act on the queue.
Store errors map to HTTP here, once: NotFoundError 404, ConflictError 409, a bad cursor
422 (naming `cursor`), StoreUnavailable (and any other store failure) 503.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, Literal

from fastapi import APIRouter, Body, Depends, Path, Query, Request
from fastapi.exceptions import RequestValidationError

from redline.service.auth import require
from redline.service.edits import EditVerdict, PolicyGone, edit_item
from redline.service.errors import ApiError, responses
from redline.service.models import (
    DECISION_ID,
    POLICY_NAME,
    AuditPage,
    AuditRowOut,
    EditRequest,
    EditCheckOut,
    QueueEditOut,
    QueueItemOut,
    QueuePage,
    QueueStatusName,
    RejectRequest,
)
from redline.service.settings import Role
from redline.service.state import Service, service
from redline.service.tokens import Principal
from redline.store.errors import ConflictError, InvalidCursor, NotFoundError, StoreError
from redline.store.sql import AuditRow, QueueItem
from redline.types import Finding, Outcome

log = logging.getLogger("redline.service")
router = APIRouter()
_readers = require(Role.EXPERT, Role.OPERATOR)
_experts = require(Role.EXPERT)
_ITEM_ID = Path(ge=1, le=2**31 - 1, description="The queue item's id.")
_ACTIONS = responses(401, 403, 404, 409, 413, 503)


def _invalid(field: tuple[str, str], message: str) -> RequestValidationError:
    return RequestValidationError([{"loc": field, "msg": message, "type": "value_error"}])


@contextmanager
def _store(svc: Service) -> Iterator[None]:
    try:
        yield
    except NotFoundError as exc:
        raise ApiError(404, "not_found", str(exc)) from exc
    except ConflictError as exc:
        raise ApiError(409, "conflict", str(exc)) from exc
    except InvalidCursor as exc:
        raise _invalid(("query", "cursor"), str(exc)) from exc
    except StoreError as exc:
        svc.metrics.store_failures.inc()
        log.error("audit store failed: %s", exc)  # the detail (database, path) stays in the server's log
        raise ApiError(
            503, "store_unavailable", "the audit store failed; retry", headers={"Retry-After": "1"}
        ) from exc


def _utc(value: datetime | None, name: str) -> datetime | None:
    if value is None:
        return None
    try:
        return (value if value.tzinfo else value.replace(tzinfo=UTC)).astimezone(UTC)
    except (OverflowError, ValueError) as exc:
        raise _invalid(("query", name), f"{value.isoformat()} is out of range") from exc


def _row(row: AuditRow) -> AuditRowOut:
    return AuditRowOut.model_validate(dataclasses.asdict(row))


def _free_for(request: Request, item_id: int, principal: Principal) -> None:
    """409 when another Expert holds the item's workspace lease: they are reviewing it."""
    lease = request.app.state.workspace.lease(item_id)
    if lease is not None and not lease.held_by(principal.label):
        raise ApiError(
            409, "leased", f"queue item {item_id} is being reviewed by {lease.expert} until {lease.until.isoformat()}"
        )


def _item(item: QueueItem) -> QueueItemOut:
    return QueueItemOut.model_validate({**dataclasses.asdict(item), "final_text": item.final_text})


@router.get(
    "/v1/audit",
    response_model=AuditPage,
    summary="Audit rows, newest first, filtered; page with `cursor`",
    responses=responses(401, 403, 503),
    tags=["audit"],
)
def audit_list(
    request: Request,
    outcome: Outcome | None = Query(None),
    policy: str | None = Query(None, pattern=POLICY_NAME, description="A policy name."),
    rule: str | None = Query(
        None, pattern=r"^[a-z0-9_:-]{1,200}$", description="A rule id that fired, e.g. billing:no-refund-promise."
    ),
    since: datetime | None = Query(None, description="ISO-8601; rows at or after (naive = UTC)."),
    until: datetime | None = Query(None, description="ISO-8601; rows before (naive = UTC)."),
    limit: int = Query(50, ge=1, le=500),
    cursor: str | None = Query(None, max_length=512, description="`next_cursor` of the previous page."),
    principal: Principal = Depends(_readers),
) -> AuditPage:
    svc = service(request)
    since_utc, until_utc = _utc(since, "since"), _utc(until, "until")
    with _store(svc):
        page = svc.store.list(
            outcome=outcome, policy=policy, rule=rule, since=since_utc, until=until_utc, limit=limit, cursor=cursor
        )
    return AuditPage(items=[_row(r) for r in page.items], next_cursor=page.next_cursor)


@router.get(
    "/v1/audit/{decision_id}",
    response_model=AuditRowOut,
    summary="One audit row by decision id",
    responses=responses(401, 403, 404, 503),
    tags=["audit"],
)
def audit_get(
    request: Request,
    decision_id: str = Path(pattern=DECISION_ID),
    principal: Principal = Depends(_readers),
) -> AuditRowOut:
    svc = service(request)
    with _store(svc):
        row = svc.store.get(decision_id)
    if row is None:
        raise ApiError(404, "not_found", f"no decision with id {decision_id!r}")
    return _row(row)


@router.get(
    "/v1/queue",
    response_model=QueuePage,
    summary="Queue items, oldest first (the longest wait first); page with `cursor`",
    responses=responses(401, 403, 503),
    tags=["queue"],
)
def queue_list(
    request: Request,
    status: QueueStatusName | Literal["all"] = Query("pending"),
    limit: int = Query(50, ge=1, le=500),
    cursor: str | None = Query(None, max_length=512),
    principal: Principal = Depends(_experts),
) -> QueuePage:
    svc = service(request)
    with _store(svc):
        page = svc.store.queue(status=None if status == "all" else status, limit=limit, cursor=cursor)
    return QueuePage(items=[_item(i) for i in page.items], next_cursor=page.next_cursor)


@router.get(
    "/v1/queue/{item_id}",
    response_model=QueueItemOut,
    summary="One queue item",
    responses=responses(401, 403, 404, 503),
    tags=["queue"],
)
def queue_get(request: Request, item_id: int = _ITEM_ID, principal: Principal = Depends(_experts)) -> QueueItemOut:
    svc = service(request)
    with _store(svc):
        return _item(svc.store.get_item(item_id))


@router.post(
    "/v1/queue/{item_id}/approve",
    response_model=QueueItemOut,
    summary="Approve a pending draft as written",
    responses=_ACTIONS,
    tags=["queue"],
)
def queue_approve(request: Request, item_id: int = _ITEM_ID, principal: Principal = Depends(_experts)) -> QueueItemOut:
    svc = service(request)
    with _store(svc):
        _free_for(request, item_id, principal)
        return _item(svc.store.approve(item_id, principal.label))


def _masked(findings: tuple[Finding, ...]) -> list[dict[str, Any]]:
    """Findings as an answer shows them: a detector's match (a key, an address) by its type."""
    return [{**f.to_dict(), "text": f"[{f.entity}]"} if f.entity else f.to_dict() for f in findings]


@router.post(
    "/v1/queue/{item_id}/edit",
    response_model=QueueEditOut,
    summary="Replace a pending draft with the expert's text, which the gate checks first",
    description="The edit is checked against the item's policy and the check is recorded. "
    "`refuse`: 409 `edit_refused` with the findings, the item stays pending and the edit is not kept. "
    "`escalate`: 200 with `verdict: held`, the item stays pending with the edit and its findings "
    "(approving the item then accepts the edit). Otherwise 200 with `verdict: edited`.",
    responses=_ACTIONS,
    tags=["queue"],
)
def queue_edit(
    request: Request,
    body: EditRequest,
    item_id: int = _ITEM_ID,
    principal: Principal = Depends(_experts),
) -> QueueEditOut:
    svc = service(request)
    with _store(svc):
        _free_for(request, item_id, principal)
        try:
            result = edit_item(svc, item_id, principal.label, body.text)
        except PolicyGone as exc:
            raise ApiError(409, "policy_not_loaded", str(exc)) from exc
    check = EditCheckOut(
        id=result.check.id, outcome=result.check.outcome, reason=result.check.reason,
        findings=_masked(result.check.findings),
    )  # fmt: skip
    if result.verdict is EditVerdict.REFUSED:
        raise ApiError(
            409,
            "edit_refused",
            f"the gate refuses the edited text ({result.check.reason}); it is not kept and the item stays pending",
            id=result.check.id,
            findings=check.findings,
        )
    return QueueEditOut.model_validate(
        {**_item(result.item).model_dump(), "verdict": result.verdict.value, "edit_check": check}
    )


@router.post(
    "/v1/queue/{item_id}/reject",
    response_model=QueueItemOut,
    summary="Reject a pending draft, with an optional note",
    responses=_ACTIONS,
    tags=["queue"],
)
def queue_reject(
    request: Request,
    body: RejectRequest | None = Body(None),
    item_id: int = _ITEM_ID,
    principal: Principal = Depends(_experts),
) -> QueueItemOut:
    svc = service(request)
    with _store(svc):
        _free_for(request, item_id, principal)
        return _item(svc.store.reject(item_id, principal.label, body.note if body else None))
