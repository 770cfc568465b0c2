"""`POST /v1/check`, `GET /v1/policies`, `GET /v1/policies/{name}`, `GET /healthz`, `GET /metrics`.

`POST /v1/check` runs on the event loop: the gate on a short text costs less than the
trip to a thread and back, and the audit row is committed by the audit writer's thread
while the loop serves other requests (a long text still goes to the threadpool). Other
routes that block on the database are plain `def`, run in FastAPI's threadpool. A
well-formed check is answered before FastAPI sees it, by `check_shortcut`, with the
same `run_check`; the route answers the rest (and carries the OpenAPI schema). The
auth dependencies are `async def`: a hash and a comparison are not worth a thread.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from time import perf_counter

from fastapi import APIRouter, Depends, Path, Request, Response
from fastapi.security import HTTPAuthorizationCredentials
from starlette.concurrency import run_in_threadpool

from redline.service.auth import bearer, require
from redline.service.errors import ApiError, responses
from redline.service.metrics import CONTENT_TYPE
from redline.service.models import (
    CheckRequest,
    ClientDecision,
    FullDecision,
    HealthOut,
    LogHealth,
    POLICY_NAME,
    PoliciesOut,
    PolicyExplanation,
    PolicyFile,
)
from redline.service.settings import Role
from redline.service.state import Service, service
from redline.service.tokens import Principal
from redline.decide.gate import Gate
from redline.screen.analysis import TextAnalysis
from redline.store.records import PendingRecord
from redline.types import Decision, Outcome

router = APIRouter()

_GENERIC_REASON = {
    Outcome.EXECUTE: "ok",
    Outcome.ASK: "held for review",
    Outcome.DEFER: "held for review",
    Outcome.ESCALATE: "held for review",
    Outcome.REFUSE: "not allowed",
}
_operator = require(Role.OPERATOR)
CHECK_ROLES = frozenset({Role.CLIENT, Role.EXPERT, Role.OPERATOR})
CHECK_PATH = "/v1/check"


def client_view(decision: Decision) -> ClientDecision:
    return ClientDecision(
        id=decision.id,
        outcome=decision.outcome,
        reason=_GENERIC_REASON[decision.outcome],
        risk_level=decision.risk_level,
    )


def decision_json(decision: Decision, role: Role) -> bytes:
    """The decision as the role may see it, as ready JSON bytes: the shapes of
    ClientDecision and FullDecision, built without validating again what the gate built
    (tests/unit/test_service_views.py holds the two equal)."""
    if role is Role.CLIENT:
        view: dict[str, object] = {
            "id": decision.id,
            "outcome": decision.outcome.value,
            "reason": _GENERIC_REASON[decision.outcome],
            "risk_level": decision.risk_level.value,
        }
    else:
        view = decision.to_dict()
    try:
        return json.dumps(view, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()
    except ValueError:  # a NaN somewhere: let pydantic say what JSON makes of it
        model = client_view(decision) if role is Role.CLIENT else FullDecision.model_validate(decision.to_dict())
        return model.model_dump_json().encode()


# A check of a text up to this size runs on the event loop: it costs less than handing it
# to a thread and back (~0.3 ms for 1 KB). A longer text, or a long conversation, goes to
# the threadpool so that one megabyte does not stall every other request.
INLINE_CHARS = 16_384
INLINE_MESSAGES = 64


@router.post(
    CHECK_PATH,
    response_model=FullDecision | ClientDecision,
    summary="Check a text against a policy",
    description="The decision is recorded (decision-log line and audit row, plus a queue item "
    "when held) before it is returned. A client token gets `{id, outcome, reason, risk_level}` "
    "with a generic reason; expert and operator tokens get the full decision.",
    responses=responses(401, 403, 404, 413, 503),
    tags=["check"],
)
async def check(
    body: CheckRequest,
    request: Request,
    principal: Principal = Depends(require(*CHECK_ROLES)),
) -> Response:
    return Response(await run_check(service(request), body, principal.role), media_type="application/json")


async def run_check(svc: Service, body: CheckRequest, role: Role) -> bytes:
    """The check, recorded, as the JSON `role` may see; raises ApiError (404: unknown
    policy, 503: not recorded). The route above and `check_shortcut` both answer with it."""
    started = perf_counter()
    gate = svc.policies.get(body.policy)
    if gate is None:
        known = svc.policies.names()
        raise ApiError(
            404,
            "unknown_policy",
            f"no policy named {body.policy[:100]!r}; the loaded policies are: {', '.join(known) or 'none'}",
            known_policies=known,
        )
    context = body.context.model_dump() if body.context is not None else None
    messages = len(body.context.messages) if body.context is not None else 0
    if len(body.text) <= INLINE_CHARS and messages <= INLINE_MESSAGES:
        entry = _check_and_prepare(svc, gate, body.text, context, body.confidence)
    else:
        entry = await run_in_threadpool(_check_and_prepare, svc, gate, body.text, context, body.confidence)
    decision = await svc.arecord(entry.decision, body.text, entry=entry)
    svc.metrics.count_check(decision.outcome.value, decision.policy_name)
    svc.metrics.latency.observe(perf_counter() - started)
    return decision_json(decision, role)


def _check_and_prepare(
    svc: Service, gate: Gate, text: str, context: dict[str, object] | None, confidence: float | None
) -> PendingRecord:
    # one analysis of the text for the check and the scrubber: the scrubber reads what
    # the check's detectors found instead of running them again
    analysis = TextAnalysis(text, shared=False)
    reviewed = svc.flags.check(gate, analysis, context, confidence)  # the review flags decide
    return svc.pending(reviewed.answer, text, analysis=analysis)


def _when(stamp: float | None) -> datetime | None:
    return None if stamp is None else datetime.fromtimestamp(stamp, UTC)


@router.get(
    "/v1/policies",
    response_model=PoliciesOut,
    summary="The policy files, what each serves, and why a newer version was refused",
    responses=responses(401, 403, 503),
    tags=["policies"],
)
async def policies(
    request: Request, principal: Principal = Depends(require(Role.OPERATOR, Role.EXPERT))
) -> PoliciesOut:
    registry = service(request).policies
    files = [
        PolicyFile(
            file=f.path.name,
            name=f.name,
            hash=f.gate.policy_hash if f.gate else None,
            loaded_at=_when(f.loaded_at),
            last_error=f.last_error,
            last_error_at=_when(f.last_error_at),
        )
        for f in registry.files()
    ]
    return PoliciesOut(policies=files, reloads=registry.reloads)


@router.get(
    "/v1/policies/{name}",
    response_model=PolicyExplanation,
    summary="What every rule of a served policy matches (the `redline explain` view)",
    description="Per rule: the operator's terms or the topics derived from the rule's text, a "
    "sample of the forms each matches, delegated detectors, the suppress set in force and warnings.",
    responses=responses(401, 403, 404),
    tags=["policies"],
)
def policy_explanation(
    request: Request,
    name: str = Path(pattern=POLICY_NAME, description="The policy's `name`."),
    _: Principal = Depends(_operator),
) -> PolicyExplanation:
    from redline.screen.explain import explain

    registry = service(request).policies
    gate = registry.get(name)
    if gate is None:
        known = registry.names()
        raise ApiError(
            404, "unknown_policy",
            f"no policy named {name!r}; the loaded policies are: {', '.join(known) or 'none'}",
            known_policies=known,
        )
    return PolicyExplanation.model_validate(explain(gate.policy))


@router.get(
    "/healthz",
    response_model=HealthOut,
    summary="Liveness and readiness: database, policies, decision log (no token needed)",
    responses={
        503: {"model": HealthOut, "description": "The database does not answer or cannot write, or no policy is loaded."}
    },
    tags=["operations"],
)
def healthz(request: Request, response: Response) -> HealthOut:
    svc = service(request)
    db = svc.store.health()  # a real (rolled-back) write: a read-only database is not "ok"
    files = svc.policies.files()
    loaded = len(svc.policies.names())
    errors = sum(1 for f in files if f.last_error)
    failing = svc.decisions.failing
    review = svc.flags.health()
    if db != "ok" or loaded == 0:
        status = "unavailable"
        response.status_code = 503
    elif failing or errors or review["errors"] or review["test_hook"]:
        status = "degraded"
    else:
        status = "ok"
    svc.metrics.policies.set(loaded)
    svc.metrics.policy_errors.set(errors)
    return HealthOut(
        status=status,
        db=db,
        policies=loaded,
        policy_errors=errors,
        decision_log=LogHealth(path=svc.decisions.path, write_failures=svc.decisions.failures, failing=failing),
        review=review,
    )


async def _metrics_access(request: Request, credentials: HTTPAuthorizationCredentials | None = Depends(bearer)) -> None:
    if not service(request).settings.open_metrics:
        await _operator(request, credentials)


@router.get(
    "/metrics",
    summary="Prometheus metrics (operator token, or open with --open-metrics)",
    response_class=Response,
    responses={
        200: {"content": {CONTENT_TYPE.split(";")[0]: {"schema": {"type": "string"}}}},
        **responses(401, 403),
    },
    tags=["operations"],
)
async def metrics(request: Request, _: None = Depends(_metrics_access)) -> Response:
    svc = service(request)
    svc.metrics.policies.set(len(svc.policies.names()))
    svc.metrics.policy_errors.set(sum(1 for f in svc.policies.files() if f.last_error))
    svc.metrics.audit_commits.set(svc.writer.batches)
    svc.metrics.audit_rows.set(svc.writer.rows)
    svc.metrics.audit_backlog.set(svc.writer.backlog)
    return Response(svc.metrics.render(), media_type=CONTENT_TYPE)
