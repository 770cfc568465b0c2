"""`POST /v1/decide`, `GET /v1/domains` and `GET /v1/domains/{name}`: actions over HTTP.

A decision for an action is recorded exactly like a text check: a decision-log line, an
audit row, and a queue item for `ask`, `defer` and `escalate` whose draft is the
action's input as JSON (what the Expert approves or rejects). Input that does not fit
the domain is 422 with `loc` = ["body", "input", FIELD]; an unknown domain is 404.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Depends, Path, Request
from fastapi.exceptions import RequestValidationError

from redline.errors import ActionInputError, UnknownDomain
from redline.service.auth import require
from redline.service.errors import ApiError, responses
from redline.service.models import ClientDecision, FullDecision
from redline.service.models_decide import DecideRequest, DomainOut, DomainsOut, DomainSummary
from redline.service.routes import client_view
from redline.service.settings import Role
from redline.service.state import service
from redline.service.tokens import Principal

router = APIRouter()
_anyone = require(Role.CLIENT, Role.EXPERT, Role.OPERATOR)
_SUMMARY = tuple(DomainSummary.model_fields)


def action_text(data: dict[str, Any]) -> str:
    """What the records hold for an action: its input as canonical JSON."""
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(", ", ": "))


def _unknown(exc: UnknownDomain) -> ApiError:
    return ApiError(404, "unknown_domain", str(exc))


@router.post(
    "/v1/decide",
    response_model=FullDecision | ClientDecision,
    summary="Decide a proposed action (a refund, a ticket route, a deploy, a moderation call)",
    description="The decision is recorded (decision-log line and audit row, plus a queue item for "
    "ask, defer and escalate) before it is returned. A client token gets `{id, outcome, reason, "
    "risk_level}` with a generic reason; expert and operator tokens get the full decision, with "
    "every signal, the base and adjusted thresholds, the deciding test and `missing`.",
    responses=responses(401, 403, 404, 413, 503),
    tags=["actions"],
)
def decide(body: DecideRequest, request: Request, principal: Principal = Depends(_anyone)) -> FullDecision | ClientDecision:
    svc = service(request)
    try:
        decision = svc.actions.decide(body.domain, body.input)
    except UnknownDomain as exc:
        raise _unknown(exc) from exc
    except ActionInputError as exc:
        raise RequestValidationError(
            [{"loc": ("body", "input", *e["loc"]), "msg": e["msg"], "type": e["type"]} for e in exc.errors]
        ) from exc
    decision = svc.record(decision, action_text(body.input))
    svc.metrics.count_check(decision.outcome.value, decision.policy_name)
    if principal.role is Role.CLIENT:
        return client_view(decision)
    return FullDecision.model_validate(decision.to_dict())


@router.get(
    "/v1/domains",
    response_model=DomainsOut,
    summary="The action domains: names, required evidence, free-text fields, input schema",
    responses=responses(401, 403),
    tags=["actions"],
)
async def domains(request: Request, principal: Principal = Depends(_anyone)) -> DomainsOut:
    registry = service(request).domains
    return DomainsOut(domains=[DomainSummary.model_validate({k: d.describe()[k] for k in _SUMMARY}) for d in registry])


@router.get(
    "/v1/domains/{name}",
    response_model=DomainOut,
    response_model_exclude_none=True,
    summary="One action domain: input schema and seeded scenarios (experts and operators: also "
    "thresholds, signals and hard rules)",
    responses=responses(401, 403, 404),
    tags=["actions"],
)
async def domain(
    request: Request,
    name: str = Path(max_length=200, description="The domain's name."),
    principal: Principal = Depends(_anyone),
) -> DomainOut:
    try:
        found = service(request).domains.get(name)
    except UnknownDomain as exc:
        raise _unknown(exc) from exc
    described = found.describe()
    if principal.role is Role.CLIENT:
        keep = (*_SUMMARY, "scenarios")
        described = {k: v for k, v in described.items() if k in keep}
    return DomainOut.model_validate(described)
