"""One proposed action in, one `Decision` out: the same engine for every domain.

    validate  the input against the domain's model: a malformed value (wrong type,
              negative amount, unknown field) is the caller's mistake, ActionInputError
    assess    the domain's signals, evidence, text signals, reversibility, hard rules
    choose    the fixed order of tests (`thresholds.choose`)

Free text never reaches a branch: each text field becomes a `TextSignals` value, and
the strongest of them one risk signal whose value only adds to the risk sum. A text
signal source that fails (a judge that times out) is replaced by the heuristic, never
by "no signal". After validation nothing raises: a failure inside a domain's hook
yields the `on_error` outcome with reason `check_error`, like a text check.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from time import perf_counter
from typing import Any

from pydantic import ValidationError

from redline.decide.ids import new_decision_id
from redline.decide.resolve import error_decision
from redline.decide.thresholds import (
    Verdict,
    adjust,
    choose,
    confidence_score,
    evidence_score,
    risk_score,
)
from redline.domains.base import ActionInput, Domain, HookValue, TextMix
from redline.errors import ActionInputError
from redline.signals import TextSignalSource, text_signals
from redline.types import (
    ActionAssessment,
    Decision,
    Outcome,
    RuleCheck,
    Signal,
    TextSignals,
    unit_interval,
)

log = logging.getLogger("redline.decide")


def validate_action(domain: Domain, data: Any) -> ActionInput:
    """The domain's input model for `data`, or ActionInputError naming every bad field."""
    if isinstance(data, domain.Input):
        return data
    if not isinstance(data, Mapping):
        kind = "null" if data is None else type(data).__name__
        raise ActionInputError(
            domain.name, [{"loc": (), "msg": f"the input must be an object of fields, not {kind}", "type": "model_type"}]
        )
    try:
        return domain.Input.model_validate(dict(data))
    except ValidationError as exc:
        errors = [
            {"loc": tuple(e["loc"]), "msg": e["msg"], "type": e["type"]}
            for e in exc.errors(include_input=False, include_url=False, include_context=False)
        ]
        raise ActionInputError(domain.name, errors) from None


def mixed(signals: TextSignals, mix: TextMix) -> float:
    """One field's text risk: the noisy-OR of its weighted injection, urgency and negativity."""
    keep = (1 - mix.injection * signals.injection) * (1 - mix.urgency * signals.urgency)
    return 1 - keep * (1 - mix.sentiment * signals.sentiment)


def _split(value: HookValue, name: str) -> tuple[float, str]:
    number, detail = value if isinstance(value, tuple) else (value, "")
    return unit_interval(name, number), detail


def _text_of(text: str, source: TextSignalSource | None) -> TextSignals:
    if source is None:
        return text_signals(text)
    try:
        produced = source(text)
        if not isinstance(produced, TextSignals):
            raise TypeError(f"the text signal source returned {type(produced).__name__}, not TextSignals")
        return produced
    except Exception as exc:  # a failed source must not mean "no signal": fall back
        log.warning("text signal source failed (%s: %s); using the heuristic", type(exc).__name__, exc)
        fallback = text_signals(text)
        return TextSignals(
            fallback.injection, fallback.urgency, fallback.sentiment, fallback.cues,
            source=f"heuristic (the configured source failed: {type(exc).__name__})",
        )


def assess(domain: Domain, action: ActionInput, text_source: TextSignalSource | None = None) -> tuple[ActionAssessment, Verdict]:
    """Every signal, the scores and the bars for a validated action, and the verdict."""
    values = dict(domain.values(action))
    signals: list[Signal] = []
    for spec in domain.signals:
        if spec.name not in values:
            raise ValueError(f"domain {domain.name}: values() gave no value for signal {spec.name!r}")
        value, detail = _split(values.pop(spec.name), f"{domain.name} signal {spec.name}")
        signals.append(Signal(spec.name, spec.kind, spec.weight, value, detail))
    if values:
        raise ValueError(f"domain {domain.name}: values() gave undeclared signals {sorted(values)}")
    present = [name for name in domain.evidence if getattr(action, name) is not None]
    evidence = evidence_score(dict(domain.evidence), present)
    signals.append(
        Signal("evidence", "confidence", domain.evidence_weight, evidence, f"{len(present)} of {len(domain.evidence)} evidence fields given")
    )
    texts = [
        (name, _text_of(text, text_source))
        for name in domain.text_fields
        if isinstance(text := getattr(action, name), str) and text.strip()
    ]
    if domain.text_fields:
        scored = [(mixed(ts, domain.text_mix), name, ts) for name, ts in texts]
        top = max(scored, key=lambda item: item[0], default=None)
        detail = "no free text given" if top is None else _text_detail(top[1], top[2])
        signals.append(Signal("text", "risk", domain.text_weight, top[0] if top else 0.0, detail))
    reversibility, why = _split(domain.reversibility(action), f"{domain.name} reversibility")
    thresholds = adjust(domain.base_confidence_min, domain.base_risk_max, reversibility)
    checks = _rule_checks(domain, action)
    missing = tuple(domain.missing(action))
    confidence, risk = confidence_score(signals), risk_score(signals)
    verdict = choose(checks, missing, confidence, risk, thresholds)
    assessment = ActionAssessment(
        domain=domain.name,
        signals=tuple(signals),
        confidence=confidence,
        risk=risk,
        evidence=evidence,
        thresholds=thresholds,
        hard_rules=checks,
        missing=missing,
        decided_by=verdict.decided_by,
        reversibility_detail=why,
        text=tuple(texts),
    )
    return assessment, verdict


def _text_detail(name: str, signals: TextSignals) -> str:
    parts = [f"{kind} {getattr(signals, kind):.2f}" for kind in ("injection", "urgency", "sentiment") if getattr(signals, kind)]
    cues = sorted({c.cue for c in signals.cues})
    return f"{name}: " + (", ".join(parts) if parts else "no cues") + (f" ({', '.join(cues)})" if cues else "")


def _rule_checks(domain: Domain, action: ActionInput) -> tuple[RuleCheck, ...]:
    found = dict(domain.rule_checks(action))
    checks = []
    for rule in domain.hard_rules:
        if rule.id not in found:
            raise ValueError(f"domain {domain.name}: rule_checks() did not evaluate hard rule {rule.id!r}")
        why = found.pop(rule.id)
        checks.append(RuleCheck(rule.id, rule.outcome, why is not None, why or ""))
    if found:
        raise ValueError(f"domain {domain.name}: rule_checks() gave undeclared rules {sorted(found)}")
    return tuple(checks)


def decide_action(
    domain: Domain,
    data: Any,
    *,
    on_error: Outcome = Outcome.ESCALATE,
    text_source: TextSignalSource | None = None,
) -> Decision:
    """The decision for one action of `domain`; ActionInputError when `data` does not fit."""
    started = perf_counter()
    action = validate_action(domain, data)
    validated = perf_counter()
    decision_id = new_decision_id()
    try:
        assessment, verdict = assess(domain, action, text_source)
    except Exception as exc:  # a domain's bug must not let an action through, nor raise
        log.exception("action %s (%s) failed", decision_id, domain.name)
        return error_decision(
            decision_id,
            on_error,
            policy_name=domain.name,
            policy_hash=domain.hash,
            elapsed_s=perf_counter() - started,
            exc=exc,
            layers={"action": {"verdict": "error"}, "judge": None, "agreement": None},
        )
    done = perf_counter()
    return Decision(
        id=decision_id,
        outcome=verdict.outcome,
        reason=verdict.reason,
        risk_level=verdict.risk_level,
        findings=(),
        suppressed=(),
        policy_name=domain.name,
        policy_hash=domain.hash,
        timings_ms={
            "validate": (validated - started) * 1e3,
            "assess": (done - validated) * 1e3,
            "total": (done - started) * 1e3,
        },
        layers={
            "action": {"verdict": verdict.outcome.value, "decided_by": verdict.decided_by},
            "text_signals": sorted({ts.source for _, ts in assessment.text}),
            "judge": None,
            "agreement": None,
        },
        action=assessment,
    )
