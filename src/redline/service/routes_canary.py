"""`POST /review/canary-battery/run`: run the canary battery now (operator token).

503 while `review.context` is `dark` (nothing reads a conversation, so there is nothing
to test), and for a policy whose conversations are not read (`dev` and a policy not
marked `development: true`). 409 while another run is in progress.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from redline.review.canary import RunInProgress
from redline.service.auth import require
from redline.service.errors import ApiError, responses
from redline.service.models import POLICY_NAME
from redline.service.settings import Role
from redline.service.state import service
from redline.service.tokens import Principal

router = APIRouter()
_operator = require(Role.OPERATOR)


class BatteryRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    policy: str | None = Field(
        default=None, pattern=POLICY_NAME, description="The policy to test; none: every policy whose conversations are read."
    )


class BatteryOut(BaseModel):
    passed: bool = Field(description="Every run was conclusive and laundered nothing.")
    runs: list[dict[str, Any]] = Field(
        description="Per policy: the `battery_summary` line's review block (counts, each fixture's outcome, policy hash)."
    )


@router.post(
    "/review/canary-battery/run",
    response_model=BatteryOut,
    summary="Run the canary battery now; each run writes a battery_summary line to the decision log",
    responses=responses(401, 403, 404, 409, 503),
    tags=["review"],
)
def run_canary_battery(
    request: Request,
    body: BatteryRequest | None = Body(default=None),
    _: Principal = Depends(_operator),
) -> BatteryOut:
    svc = service(request)
    flags = svc.flags.current()
    if flags.context == "dark":
        raise ApiError(
            503, "review_context_dark",
            "review.context is dark: no conversation is read, so the battery has nothing to test. "
            "Set review.context to dev or live first",
        )  # fmt: skip
    if body is not None and body.policy is not None:
        gate = svc.policies.get(body.policy)
        if gate is None:
            known = svc.policies.names()
            raise ApiError(404, "unknown_policy", f"no policy named {body.policy!r}", known_policies=known)
        if not svc.flags.for_gate(gate).uses_context:
            raise ApiError(
                503, "context_not_read",
                f"review.context is {flags.context} and policy {body.policy!r} is not marked `development: true`, "
                "so its conversations are not read and the battery has nothing to test",
            )  # fmt: skip
        gates = [gate]
    else:
        gates = [g for g in svc.policies if svc.flags.for_gate(g).uses_context]
        if not gates:
            raise ApiError(503, "context_not_read", f"review.context is {flags.context} and no loaded policy is marked "
                           "`development: true`: no conversation is read")  # fmt: skip
    runs = []
    try:
        for gate in gates:
            runs.append(svc.flags.run_battery(gate, trigger="http"))
    except RunInProgress as exc:
        raise ApiError(409, "run_in_progress", str(exc)) from exc
    return BatteryOut(passed=all(r.passed for r in runs), runs=[r.summary() for r in runs])
