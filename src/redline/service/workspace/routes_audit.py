"""The audit browser (`/workspace/audit`, `/workspace/audit/{id}`) and the policies
(`/workspace/policies`, `/workspace/policies/{name}`, and its "try a text" box).

A trial check runs the policy's gate on the text and shows the decision; it writes no
log line and no audit row, and the page says so.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, Depends, Form, Path, Query, Request
from starlette.responses import Response

from redline.screen.explain import explain
from redline.service.models import DECISION_ID, POLICY_NAME
from redline.service.state import service
from redline.service.workspace import sessions
from redline.service.workspace.render import marks, page
from redline.service.workspace.sessions import Refused, User, current_user
from redline.store.errors import InvalidCursor
from redline.types import Outcome

router = APIRouter(include_in_schema=False)
PAGE = 50
MAX_TRIAL_CHARS = 100_000


def _time(value: str | None, name: str) -> datetime | None:
    if not value:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError as exc:
        raise Refused(422, f"{name}: not a time", f"{value[:40]!r} is not an ISO-8601 time such as 2026-12-01T09:30.") from exc
    return (parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)).astimezone(UTC)


@router.get("/workspace/audit")
def audit(
    request: Request,
    outcome: str | None = Query(None, max_length=20),
    policy: str | None = Query(None, max_length=100),
    rule: str | None = Query(None, max_length=200),
    since: str | None = Query(None, max_length=40),
    until: str | None = Query(None, max_length=40),
    cursor: str | None = Query(None, max_length=512),
    user: User = Depends(current_user),
) -> Response:
    svc = service(request)
    outcome = outcome or None
    if outcome is not None and outcome not in {o.value for o in Outcome}:
        raise Refused(422, "outcome: unknown", f"{outcome!r} is not one of {', '.join(o.value for o in Outcome)}.")
    filters = {"outcome": outcome, "policy": policy or None, "rule": rule or None, "since": since or None,
               "until": until or None}  # fmt: skip
    try:
        found = svc.store.list(
            outcome=outcome,
            policy=filters["policy"],
            rule=filters["rule"],
            since=_time(since, "since"),
            until=_time(until, "until"),
            limit=PAGE,
            cursor=cursor or None,
        )
    except InvalidCursor as exc:
        raise Refused(422, "cursor: not from this listing", str(exc)) from exc
    reviews = sessions.workspace_store(request).reviews(r.id for r in found.items)
    return page(
        "audit.html",
        user=user,
        rows=found.items,
        reviews=reviews,
        next_cursor=found.next_cursor,
        filters={k: v for k, v in filters.items() if v},
        outcomes=[o.value for o in Outcome],
        policies=svc.policies.names(),
    )


@router.get("/workspace/audit/{decision_id}")
def audit_one(
    request: Request, decision_id: str = Path(pattern=DECISION_ID), user: User = Depends(current_user)
) -> Response:
    svc = service(request)
    row = svc.store.get(decision_id)
    if row is None:
        raise Refused(404, "No such decision", f"No decision with id {decision_id!r} is in the audit trail.")
    review = sessions.workspace_store(request).reviews([decision_id]).get(decision_id)
    return page("audit_one.html", user=user, row=row, review=review, found=marks(row.findings, row.suppressed, 0))


def _rule_count(explained: dict[str, Any]) -> int:
    return len(explained.get("rules", []))


@router.get("/workspace/policies")
def policies(request: Request, user: User = Depends(current_user)) -> Response:
    registry = service(request).policies
    files = []
    for f in registry.files():
        explained = explain(f.gate.policy) if f.gate is not None else {}
        files.append({"file": f.path.name, "name": f.name, "hash": f.gate.policy_hash if f.gate else None,
                      "rules": _rule_count(explained), "error": f.last_error})  # fmt: skip
    return page("policies.html", user=user, files=files)


def _policy_page(request: Request, user: User, name: str, *, status: int = 200, **extra: Any) -> Response:
    gate = service(request).policies.get(name)
    if gate is None:
        raise Refused(404, "No such policy", f"No policy named {name!r} is loaded.")
    return page("policy.html", status, user=user, explained=explain(gate.policy), name=name,
                **{"trial": None, "trial_text": "", "trial_marks": [], **extra})  # fmt: skip


@router.get("/workspace/policies/{name}")
def policy(request: Request, name: str = Path(pattern=POLICY_NAME), user: User = Depends(current_user)) -> Response:
    return _policy_page(request, user, name)


@router.post("/workspace/policies/{name}/try")
def try_text(
    request: Request,
    name: str = Path(pattern=POLICY_NAME),
    csrf_token: str = Form(""),
    text: str = Form(""),
    user: User = Depends(current_user),
) -> Response:
    sessions.check_csrf(request, user.csrf, csrf_token)
    gate = service(request).policies.get(name)
    if gate is None:
        raise Refused(404, "No such policy", f"No policy named {name!r} is loaded.")
    if len(text) > MAX_TRIAL_CHARS:
        raise Refused(422, "The text is too long", f"A trial takes at most {MAX_TRIAL_CHARS} characters.")
    decision = gate.check(text)  # a trial: neither logged nor recorded
    data = decision.to_dict()
    return _policy_page(
        request, user, name, trial=decision, trial_text=text,
        trial_marks=marks(data["findings"], data["suppressed"], len(text)),
    )  # fmt: skip
