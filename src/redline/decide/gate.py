"""The gate: one text in, one Decision out, and never an exception to the caller."""

from __future__ import annotations

import itertools
import logging
import os
import time
from time import perf_counter
from typing import Any

from pydantic import ValidationError

from redline.decide.resolve import REASON_ERROR, Resolution, resolve
from redline.errors import PolicyError
from redline.policy.guards import unguarded_rules
from redline.policy.schema import Policy
from redline.review.license import licensed_outcome
from redline.review.principal import principal_facts
from redline.screen.engine import compile_screen
from redline.screen.normalize import normalize
from redline.types import Decision, Finding, Outcome, RiskLevel

log = logging.getLogger("redline.gate")

_ERROR_RISK = {
    Outcome.REFUSE: RiskLevel.HIGH,
    Outcome.ESCALATE: RiskLevel.HIGH,
    Outcome.DEFER: RiskLevel.MEDIUM,
    Outcome.ASK: RiskLevel.MEDIUM,
    Outcome.EXECUTE: RiskLevel.LOW,
}


def _new_id_source() -> tuple[str, itertools.count[int]]:
    return f"{int(time.time()):08x}{os.urandom(6).hex()}", itertools.count()


# Decision ids: a random per-process prefix (renewed in a forked child) and a counter.
# Unique like a uuid4, a tenth of its cost, and ids from one process sort in order.
_id_prefix, _id_counter = _new_id_source()


def _reset_ids() -> None:
    global _id_prefix, _id_counter
    _id_prefix, _id_counter = _new_id_source()


os.register_at_fork(after_in_child=_reset_ids)


def new_decision_id() -> str:
    return f"{_id_prefix}{next(_id_counter):08x}"


class Gate:
    """Checks texts against one policy. Build once; `check` is safe to call from threads."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.policy_hash = policy.hash
        unguarded = unguarded_rules(policy)  # a policy built in code gets the same check as a file
        if unguarded:
            raise PolicyError(unguarded[0].message, key=unguarded[0].key)
        try:
            self._screen = compile_screen(policy)
        except Exception as exc:  # validated policies compile; say so loudly if one does not
            raise PolicyError(f"policy {policy.name!r} validated but could not be compiled: {exc}") from exc

    def check(
        self,
        text: str,
        context: Any = None,
        confidence: float | None = None,
    ) -> Decision:
        """The decision for `text`. A failure inside yields the policy's `on_error` outcome.

        `context` is the conversation (DESIGN.md section 6): `{operator_uid, recipient,
        messages: [{role, sender_uid, text}]}`. It can only relax an outcome; a malformed
        one is recorded and ignored, which is the restrictive choice.
        """
        decision_id = new_decision_id()
        started = perf_counter()
        try:
            if isinstance(text, bytes):
                text = text.decode("utf-8", errors="replace")
            if not isinstance(text, str):
                raise TypeError(f"text must be str, not {type(text).__name__}")
            if confidence is not None and not isinstance(confidence, (int, float)):
                raise TypeError(f"confidence must be a number, not {type(confidence).__name__}")
            shadow = normalize(text)
            normalized = perf_counter()
            result = self._screen.run(shadow)
            screened = perf_counter()
            resolution = resolve(
                result.findings,
                confidence=confidence,
                min_confidence=self.policy.auto_send.min_confidence,
            )
            context_meta = None
            if context is not None:
                resolution, context_meta = self._license(resolution, result.findings, context, confidence)
            done = perf_counter()
        except Exception as exc:  # the gate's contract: never raise, never let a draft through
            log.exception("check %s failed", decision_id)
            return self._error_decision(decision_id, exc, perf_counter() - started)
        return Decision(
            id=decision_id,
            outcome=resolution.outcome,
            reason=resolution.reason,
            risk_level=resolution.risk_level,
            findings=result.findings,
            suppressed=result.suppressed,
            policy_name=self.policy.name,
            policy_hash=self.policy_hash,
            timings_ms={
                "normalize": (normalized - started) * 1e3,
                "screen": (screened - normalized) * 1e3,
                "resolve": (done - screened) * 1e3,
                "total": (done - started) * 1e3,
            },
            layers={
                "screen": {
                    "verdict": "violates" if result.findings else "clear",
                    "hits": result.hits,
                },
                "judge": None,
                "agreement": None,
            },
            context=context_meta,
        )

    def _license(
        self,
        resolution: Resolution,
        findings: tuple[Finding, ...],
        context: Any,
        confidence: float | None,
    ) -> tuple[Resolution, dict[str, Any]]:
        try:
            facts = principal_facts(context)
        except ValidationError as exc:  # a bad conversation licenses nothing; the check goes on
            # where and what only: the input values may quote message bodies
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'context'}: {e['msg']}" for e in exc.errors(include_input=False)
            )
            return resolution, {"licensed_by_context": False, "error": f"invalid context: {problems}"[:500]}
        except Exception as exc:
            return resolution, {"licensed_by_context": False, "error": f"invalid context: {type(exc).__name__}"}
        relaxed = licensed_outcome(
            resolution,
            findings,
            facts,
            licensable=frozenset(self.policy.context.licensable),
            confidence=confidence,
            min_confidence=self.policy.auto_send.min_confidence,
        )
        meta = {"licensed_by_context": relaxed is not None, **facts.to_dict()}
        if relaxed is not None:
            meta["unlicensed_outcome"] = resolution.outcome.value
        return (relaxed or resolution), meta

    def _error_decision(self, decision_id: str, exc: BaseException, elapsed: float) -> Decision:
        outcome = Outcome(self.policy.on_error)
        return Decision(
            id=decision_id,
            outcome=outcome,
            reason=REASON_ERROR,
            risk_level=_ERROR_RISK[outcome],
            findings=(),
            suppressed=(),
            policy_name=self.policy.name,
            policy_hash=self.policy_hash,
            timings_ms={"total": elapsed * 1e3},
            layers={"screen": {"verdict": "error"}, "judge": None, "agreement": None},
            error=f"{type(exc).__name__}: {exc}",
        )
