"""The four built-in action domains: every seeded scenario, and what each domain reads."""

from __future__ import annotations

from typing import Any

import pytest

from redline import Gate, Outcome
from redline.domains import DomainRegistry
from redline.domains.base import Domain, Scenario
from redline.domains.deploy_gate import touched

REGISTRY = DomainRegistry.load(plugins=False)
SCENARIOS = [(d, s) for d in REGISTRY for s in d.scenarios]
GATE = Gate(domains=REGISTRY)


def test_the_four_domains_are_built_in() -> None:
    assert REGISTRY.names() == ["content_moderation", "deploy_gate", "refund_approval", "ticket_triage"]


@pytest.mark.parametrize(("domain", "scenario"), SCENARIOS, ids=[f"{d.name}:{s.name}" for d, s in SCENARIOS])
def test_every_seeded_scenario_yields_its_stated_outcome(domain: Domain, scenario: Scenario) -> None:
    decision = GATE.decide(domain.name, scenario.input)
    assert decision.error is None
    assert decision.outcome is scenario.expect, decision.action and decision.action.to_dict()


@pytest.mark.parametrize("domain", list(REGISTRY), ids=lambda d: d.name)
def test_the_scenarios_of_each_domain_show_every_outcome(domain: Domain) -> None:
    assert {s.expect for s in domain.scenarios} == set(Outcome)


def _refund(amount: float) -> dict[str, Any]:
    return {
        "order_id": "A-1", "amount": amount, "currency": "USD", "days_since_purchase": 12,
        "return_window_days": 30, "prior_refunds": 2, "customer_tenure_days": 90,
    }


def test_18_and_18000_dollars_differ_only_because_of_reversibility() -> None:
    small = GATE.decide("refund_approval", _refund(18)).action
    large = GATE.decide("refund_approval", _refund(18_000)).action
    assert small is not None and large is not None
    # identical signals and scores: the amount enters through reversibility alone
    assert [s.value for s in small.signals] == [s.value for s in large.signals]
    assert (small.confidence, small.risk) == (large.confidence, large.risk)
    assert not any(r.fired for r in (*small.hard_rules, *large.hard_rules))
    assert small.thresholds.reversibility == pytest.approx(500 / 518)
    assert large.thresholds.reversibility == pytest.approx(500 / 18_500)
    assert small.thresholds.base_confidence_min == large.thresholds.base_confidence_min
    assert small.confidence >= small.thresholds.confidence_min
    assert large.confidence < large.thresholds.confidence_min
    assert (small.decided_by, large.decided_by) == ("all_tests_passed", "confidence_bar")


def test_refund_amounts_are_compared_in_usd_and_an_unknown_currency_goes_to_a_person() -> None:
    yen = GATE.decide("refund_approval", {**_refund(18_000), "currency": "JPY"})
    assert yen.outcome is Outcome.EXECUTE  # 18,000 JPY is about 120 USD
    gold = GATE.decide("refund_approval", {**_refund(18), "currency": "XAU"})
    assert gold.outcome is Outcome.ESCALATE and gold.action is not None
    assert gold.action.decided_by == "hard_rule:currency-unknown"
    assert gold.rules_fired == ["refund_approval:currency-unknown"]


def test_deploy_sensitive_paths_match_anywhere_in_the_tree() -> None:
    hits, migration = touched(["app/db/migrations/0007_add_index.py", "src/views.py", "deploy/Dockerfile", ".env.production"])
    assert hits == ["app/db/migrations/0007_add_index.py", "deploy/Dockerfile", ".env.production"]
    assert migration
    assert touched(["src/views.py", "docs/environment.md"]) == ([], False)


def test_a_migration_without_rollback_plan_is_escalated() -> None:
    base = dict(REGISTRY.get("deploy_gate").scenarios[0].input)
    decision = GATE.decide("deploy_gate", {**base, "paths_changed": ["db/migrate/20250101_drop_users.rb"], "rollback_plan": False})
    assert decision.outcome is Outcome.ESCALATE and decision.action is not None
    assert decision.action.decided_by == "hard_rule:migration-without-rollback"


def test_a_deploy_time_must_carry_its_utc_offset() -> None:
    from redline import ActionInputError

    base = dict(REGISTRY.get("deploy_gate").scenarios[0].input)
    with pytest.raises(ActionInputError, match="deploy_time"):
        GATE.decide("deploy_gate", {**base, "deploy_time": "2025-03-04T10:30:00"})
    with pytest.raises(ActionInputError, match="deploy_time"):
        GATE.decide("deploy_gate", {**base, "deploy_time": 1741080600})


def test_off_hours_are_judged_in_the_deploys_own_local_time() -> None:
    base = dict(REGISTRY.get("deploy_gate").scenarios[0].input)
    # 10:30 in Berlin is 04:30 in New York: the offset says which one the team meant
    berlin = GATE.decide("deploy_gate", {**base, "deploy_time": "2025-03-04T10:30:00+01:00"}).action
    new_york = GATE.decide("deploy_gate", {**base, "deploy_time": "2025-03-04T04:30:00-05:00"}).action
    assert berlin is not None and new_york is not None
    off = {s.name: s.value for s in berlin.signals}["off_hours"], {s.name: s.value for s in new_york.signals}["off_hours"]
    assert off == (0.0, 1.0)


def test_a_safety_cue_in_a_ticket_body_escalates_a_routine_route() -> None:
    routine = dict(REGISTRY.get("ticket_triage").scenarios[0].input)
    hazard = {**routine, "body": "The charger caught fire on my desk last night."}
    decision = GATE.decide("ticket_triage", hazard)
    assert decision.outcome is Outcome.ESCALATE and decision.action is not None
    safety = next(s for s in decision.action.signals if s.name == "safety_terms")
    assert safety.value == pytest.approx(0.7) and "product-hazard" in safety.detail


def test_moderation_confidence_is_for_the_proposed_call() -> None:
    spam = dict(REGISTRY.get("content_moderation").scenarios[0].input)
    allowed = GATE.decide("content_moderation", {**spam, "proposed_action": "allow"}).action
    assert allowed is not None
    call = next(s for s in allowed.signals if s.name == "call_confidence")
    assert call.value == pytest.approx(1 - 0.97)  # the classifier is sure it is spam: allowing it is unsure


def test_every_domain_describes_its_schema_signals_rules_and_scenarios() -> None:
    for domain in REGISTRY:
        described = domain.describe()
        assert described["input_schema"]["additionalProperties"] is False
        assert set(described["required"]) <= set(described["input_schema"]["properties"])
        assert described["signals"][-1]["name"] == "text"
        assert described["hash"] == domain.hash and domain.hash.startswith("sha256:")
