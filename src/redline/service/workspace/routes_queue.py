"""The queue (`GET /workspace/`), one item (`GET /workspace/items/{id}`) and what an Expert
does with it (`POST /workspace/items/{id}/approve|edit|reject`).

Opening a pending item leases it to the Expert for `Settings.lease_s` (renewed on every
view and post); another Expert sees it as taken and cannot act on it until the lease
ends. An edit goes through the gate with the item's policy (`service/edits.py`): a
refused edit is shown with its findings and not kept; a held one waits, with its
findings shown, for the Expert to approve it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, Depends, Form, Path, Query, Request
from starlette.responses import RedirectResponse, Response

from redline.service.edits import EditVerdict, PolicyGone, edit_item
from redline.service.errors import ApiError
from redline.service.state import Service, service
from redline.service.workspace import sessions
from redline.service.workspace.render import SECURITY_HEADERS, marks, page
from redline.service.workspace.sessions import Refused, User, current_user
from redline.store.errors import ConflictError, NotFoundError
from redline.store.records import AuditRow, QueueItem, QueueStatus
from redline.store.workspace import Lease, PendingItem
from redline.types import Outcome

router = APIRouter(include_in_schema=False)
SHOWN = 200  # rows on one queue page; the counts cover every pending item
_ITEM_ID = Path(ge=1, le=2**31 - 1)
_FILTER = Query(None, max_length=200)
MAX_NOTE = 4000


@dataclass(frozen=True, slots=True)
class Filters:
    policy: str | None = None
    outcome: str | None = None
    reason: str | None = None
    rule: str | None = None

    def keep(self, item: PendingItem) -> bool:
        return (
            (self.policy is None or item.policy == self.policy)
            and (self.outcome is None or item.outcome.value == self.outcome)
            and (self.reason is None or item.reason == self.reason)
            and (self.rule is None or self.rule in item.rules)
        )

    def active(self) -> dict[str, str]:
        return {k: v for k, v in (("policy", self.policy), ("outcome", self.outcome),
                                  ("reason", self.reason), ("rule", self.rule)) if v}  # fmt: skip


def _counts(items: list[PendingItem]) -> dict[str, list[tuple[str, int]]]:
    by: dict[str, Counter[str]] = {"policy": Counter(), "outcome": Counter(), "reason": Counter(), "rule": Counter()}
    for item in items:
        by["policy"][item.policy] += 1
        by["outcome"][item.outcome.value] += 1
        by["reason"][item.reason] += 1
        by["rule"].update(item.rules)
    return {k: sorted(c.items(), key=lambda kv: (-kv[1], kv[0])) for k, c in by.items()}


@router.get("/workspace/")
def queue(
    request: Request,
    policy: str | None = _FILTER,
    outcome: str | None = _FILTER,
    reason: str | None = _FILTER,
    rule: str | None = _FILTER,
    done: str | None = Query(None, max_length=20),
    item: int | None = Query(None, ge=1, le=2**31 - 1),
    user: User = Depends(current_user),
) -> Response:
    ws = sessions.workspace_store(request)
    pending, capped = ws.pending()
    filters = Filters(policy or None, outcome or None, reason or None, rule or None)
    kept = [i for i in pending if filters.keep(i)]
    flash = _FLASH.get(done or "", "").format(item=item) if item else None
    return page(
        "queue.html",
        user=user,
        items=kept[:SHOWN],
        total=len(pending),
        matching=len(kept),
        capped=capped,
        counts=_counts(pending),
        filters=filters.active(),
        now=datetime.now(UTC),
        flash=flash,
    )


_FLASH = {
    "approved": "Item {item} approved.",
    "edited": "Item {item} approved with your edit (the gate checked it).",
    "rejected": "Item {item} rejected.",
}


def _load(svc: Service, item_id: int) -> tuple[QueueItem, AuditRow | None]:
    try:
        item = svc.store.get_item(item_id)
    except NotFoundError as exc:
        raise Refused(404, "No such queue item", str(exc)) from exc
    return item, svc.store.get(item.decision_id)


def _item_page(request: Request, user: User, item_id: int, *, status: int = 200, **extra: Any) -> Response:
    svc = service(request)
    ws = sessions.workspace_store(request)
    item, row = _load(svc, item_id)
    lease: Lease | None = None
    if item.status is QueueStatus.PENDING:
        lease = ws.take_lease(item.id, user.label, seconds=svc.settings.lease_s) if user.can_act else ws.lease(item.id)
    # A held edit (escalate) is shown with its check; after a refused one the check's spans
    # belong to the refused text, which was not kept, so they are not laid over anything.
    edit_row = svc.store.get(item.edit_decision_id) if _held_edit(item) and item.edit_decision_id else None
    draft_marks = marks(row.findings, row.suppressed, len(item.draft_text)) if row and not row.action else []
    edit_marks = (
        marks(edit_row.findings, edit_row.suppressed, len(item.edited_text))
        if edit_row is not None and item.edited_text is not None
        else []
    )
    layers = (row.layers or {}) if row else {}
    judge = layers.get("judge") if isinstance(layers.get("judge"), dict) else None
    return page(
        "item.html",
        status,
        user=user,
        item=item,
        row=row,
        lease=lease,
        mine=lease is not None and lease.held_by(user.label),
        may_act=user.can_act and item.status is QueueStatus.PENDING and lease is not None and lease.held_by(user.label),
        draft_marks=draft_marks,
        edit_row=edit_row,
        edit_marks=edit_marks,
        layers=layers,
        judge=judge,
        now=datetime.now(UTC),
        **{"refused": None, "refused_text": None, "refused_marks": [], **extra},
    )


def _held_edit(item: QueueItem) -> bool:
    return item.edited_text is not None and item.edit_outcome is not Outcome.REFUSE


@router.get("/workspace/items/{item_id}")
def item_view(request: Request, item_id: int = _ITEM_ID, user: User = Depends(current_user)) -> Response:
    return _item_page(request, user, item_id)


def _acting(request: Request, user: User, item_id: int, csrf_token: str) -> tuple[Service, QueueItem, AuditRow | None]:
    """The checks before any action: CSRF, role, the item pending, the lease ours."""
    sessions.check_csrf(request, user.csrf, csrf_token)
    if not user.can_act:
        raise Refused(403, "Operators read; Experts act", "Sign in with an expert token to approve, edit or reject.")
    svc = service(request)
    item, row = _load(svc, item_id)
    if item.status is not QueueStatus.PENDING:
        raise Refused(409, f"Item {item_id} is already {item.status.value}", f"It was decided by {item.expert}.")
    lease = sessions.workspace_store(request).take_lease(item_id, user.label, seconds=svc.settings.lease_s)
    if not lease.held_by(user.label):
        raise Refused(409, f"Item {item_id} is taken", f"{lease.expert} is reviewing it until {lease.until:%H:%M:%S} UTC.")
    return svc, item, row


def _note(note: str) -> str | None:
    note = note.strip()
    if len(note) > MAX_NOTE:
        raise Refused(422, "The note is too long", f"A note holds at most {MAX_NOTE} characters; this one has {len(note)}.")
    return note or None


def _done(request: Request, user: User, item_id: int, what: str) -> Response:
    sessions.workspace_store(request).release(item_id, user.label)
    return RedirectResponse(f"/workspace/?done={what}&item={item_id}", status_code=303, headers=SECURITY_HEADERS)


def _conflict(exc: ConflictError, item_id: int) -> Refused:
    return Refused(409, f"Item {item_id} changed meanwhile", str(exc))


@router.post("/workspace/items/{item_id}/approve")
def approve(
    request: Request,
    item_id: int = _ITEM_ID,
    csrf_token: str = Form(""),
    note: str = Form(""),
    edit_id: str = Form("", max_length=64),
    user: User = Depends(current_user),
) -> Response:
    svc, item, _row = _acting(request, user, item_id, csrf_token)
    if (item.edit_decision_id or "") != edit_id:  # approve only the edit the Expert saw
        raise Refused(409, f"Item {item_id} was edited meanwhile", "Read it again before approving it.")
    if item.edited_text is not None and not _held_edit(item):  # approving would send an older edit
        raise Refused(
            409,
            "The last edit was refused",
            "An earlier edit is still held, and the latest was refused: edit the text again, or reject the item.",
        )
    try:
        decided = svc.store.approve(item_id, user.label, note=_note(note))
    except ConflictError as exc:
        raise _conflict(exc, item_id) from exc
    return _done(request, user, item_id, decided.status.value)


@router.post("/workspace/items/{item_id}/edit")
def edit(
    request: Request,
    item_id: int = _ITEM_ID,
    csrf_token: str = Form(""),
    text: str = Form(""),
    note: str = Form(""),
    user: User = Depends(current_user),
) -> Response:
    svc, item, row = _acting(request, user, item_id, csrf_token)
    if row is not None and row.action is not None:
        raise Refused(409, "An action is not edited", "Approve or reject a proposed action; its input is not text.")
    if not text.strip():
        raise Refused(422, "The edit is empty", "Write the text to send instead, or reject the item.")
    try:
        result = edit_item(svc, item_id, user.label, text, note=_note(note))
    except PolicyGone as exc:
        raise Refused(409, "The item's policy is not loaded", str(exc)) from exc
    except ConflictError as exc:
        raise _conflict(exc, item_id) from exc
    except ApiError as exc:  # the check could not be recorded: nothing was changed
        raise Refused(exc.status, "The edit could not be checked", exc.body.detail) from exc
    if result.verdict is EditVerdict.EDITED:
        return _done(request, user, item_id, "edited")
    if result.verdict is EditVerdict.HELD:
        return RedirectResponse(f"/workspace/items/{item_id}#edit-check", status_code=303, headers=SECURITY_HEADERS)
    check = result.check.to_dict()
    return _item_page(
        request,
        user,
        item_id,
        status=409,
        refused=result.check,
        refused_text=text,
        refused_marks=marks(check["findings"], check["suppressed"], len(text)),
    )


@router.post("/workspace/items/{item_id}/reject")
def reject(
    request: Request,
    item_id: int = _ITEM_ID,
    csrf_token: str = Form(""),
    note: str = Form(""),
    user: User = Depends(current_user),
) -> Response:
    svc, _item, _row = _acting(request, user, item_id, csrf_token)
    reason = _note(note)
    if reason is None:
        raise Refused(422, "A rejection needs a note", "Say why the draft is rejected: the note goes into the audit trail.")
    try:
        svc.store.reject(item_id, user.label, reason)
    except ConflictError as exc:
        raise _conflict(exc, item_id) from exc
    return _done(request, user, item_id, "rejected")
