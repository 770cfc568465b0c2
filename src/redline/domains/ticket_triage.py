"""`ticket_triage`: may the agent route (or close) this support ticket without a person?

Risk comes from what the ticket is about (category severity, the reported severity, the
customer's tier) and from what it says: the body's safety cues (harm to a person, a
product hazard, a hacked account) and its text signals (injection, urgency, anger).
Re-routing is cheap to undo, so reversibility is high, lower for severe tickets and for
a proposal that closes the ticket.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Literal

from pydantic import Field

from redline.domains.base import (
    ActionInput,
    Domain,
    HookValue,
    Identifier,
    RuleSpec,
    Scenario,
    ShortText,
    SignalSpec,
    Text,
    TextMix,
    text_field,
)
from redline.signals import CueSet, noisy_or
from redline.types import Outcome

Category = Literal["billing", "account", "shipping", "technical", "feedback", "security", "legal", "safety", "other"]
Tier = Literal["free", "standard", "premium", "enterprise"]
CATEGORY_SEVERITY = {
    "feedback": 0.05, "shipping": 0.15, "other": 0.2, "billing": 0.3, "technical": 0.3,
    "account": 0.35, "legal": 0.8, "security": 0.9, "safety": 1.0,
}
TIER_RISK = {"free": 0.0, "standard": 0.2, "premium": 0.6, "enterprise": 1.0}
CLOSE_SEVERITY = 3  # from this severity up, closing a ticket unread is ruled out


@lru_cache(maxsize=1)
def safety_cues() -> CueSet:
    data = resources.files("redline.domains").joinpath("data/safety_terms.tsv").read_text("utf-8")
    return CueSet.parse(data, source="redline/domains/data/safety_terms.tsv", signals=("safety",))


class TicketInput(ActionInput):
    ticket_id: Identifier | None = None
    category: Category | None = Field(None, description="What the ticket is about.")
    severity: int | None = Field(None, ge=1, le=5, description="1 (cosmetic) to 5 (critical).")
    customer_tier: Tier | None = None
    classifier_confidence: float | None = Field(
        None, ge=0, le=1, allow_inf_nan=False, description="The router's confidence in the proposed queue."
    )
    proposed_queue: Identifier | None = Field(None, description="Where the agent wants to send the ticket.")
    auto_close: bool | None = Field(False, description="The proposal closes the ticket without a reply (null: no).")
    subject: ShortText | None = text_field("The ticket's subject (free text).")
    body: Text | None = text_field("The ticket's body (free text).")


class TicketTriage(Domain):
    name = "ticket_triage"
    description = "Route or close a support ticket without a person: severity, tier, safety cues, tone."
    Input = TicketInput
    base_confidence_min = 0.65
    base_risk_max = 0.50
    signals = (
        SignalSpec("routing_confidence", "confidence", 0.80, "the router's confidence in the proposed queue"),
        SignalSpec("category_severity", "risk", 0.30, "how grave the category is (feedback 0.05 ... safety 1; unknown 0.5)"),
        SignalSpec("severity", "risk", 0.30, "(severity - 1) / 4 (unknown 0.5)"),
        SignalSpec("customer_tier", "risk", 0.15, "free 0, standard 0.2, premium 0.6, enterprise 1 (unknown 0.5)"),
        SignalSpec("safety_terms", "risk", 0.60, "harm to a person, product hazards, a hacked account in the subject or body"),
    )
    hard_rules = (
        RuleSpec("safety-category", Outcome.ESCALATE, "a ticket filed under safety"),
        RuleSpec("critical-severity", Outcome.ESCALATE, "severity 5"),
        RuleSpec("close-unread-severe", Outcome.REFUSE, f"closing a ticket of severity {CLOSE_SEVERITY} or more without a reply"),
    )
    required = ("ticket_id", "category", "severity", "classifier_confidence", "proposed_queue")
    evidence = {name: 1.0 for name in (*required, "customer_tier")}
    text_fields = ("subject", "body")
    text_weight = 0.40
    text_mix = TextMix(injection=1.0, urgency=0.5, sentiment=0.6)

    def values(self, action: TicketInput) -> dict[str, HookValue]:
        a = action
        found = [c for text in (a.subject, a.body) if text for c in safety_cues().find(text)]
        safety = noisy_or([c.weight for c in {c.cue: c for c in found}.values()])
        return {
            "routing_confidence": a.classifier_confidence or 0.0,
            "category_severity": (CATEGORY_SEVERITY.get(a.category or "", 0.5), a.category or "unknown"),
            "severity": (0.5, "unknown") if a.severity is None else ((a.severity - 1) / 4, f"severity {a.severity}"),
            "customer_tier": (TIER_RISK.get(a.customer_tier or "", 0.5), a.customer_tier or "unknown"),
            "safety_terms": (safety, ", ".join(sorted({c.cue for c in found})) or "none"),
        }

    def rule_checks(self, action: TicketInput) -> dict[str, str | None]:
        a = action
        severe = a.severity is not None and a.severity >= CLOSE_SEVERITY
        return {
            "safety-category": "category safety" if a.category == "safety" else None,
            "critical-severity": "severity 5" if a.severity == 5 else None,
            "close-unread-severe": f"auto_close at severity {a.severity}" if a.auto_close and severe else None,
        }

    def reversibility(self, action: TicketInput) -> HookValue:
        a = action
        base = 0.6 if a.severity is None else 1.0 - 0.1 * (a.severity - 1)
        value = base * (0.6 if a.auto_close else 1.0)
        return value, ("closing " if a.auto_close else "routing ") + f"at severity {a.severity or 'unknown'}"

    scenarios = (
        Scenario(
            "routine-billing",
            "a double charge, routed to billing with high confidence",
            {"ticket_id": "T-2001", "category": "billing", "severity": 2, "customer_tier": "standard",
             "classifier_confidence": 0.93, "proposed_queue": "billing",
             "subject": "Charged twice", "body": "I was charged twice for my March invoice, can you check?"},
            Outcome.EXECUTE,
        ),
        Scenario(
            "unsure-router",
            "the router is not sure where the ticket belongs",
            {"ticket_id": "T-2002", "category": "technical", "severity": 2, "customer_tier": "free",
             "classifier_confidence": 0.55, "proposed_queue": "tier-1",
             "body": "The export button does nothing when I click it."},
            Outcome.DEFER,
        ),
        Scenario(
            "no-category",
            "the classifier gave no category: ask for it",
            {"ticket_id": "T-2003", "severity": 2, "classifier_confidence": 0.9, "proposed_queue": "tier-1",
             "body": "Where can I change my delivery address?"},
            Outcome.ASK,
        ),
        Scenario(
            "person-at-risk",
            "a shipping ticket whose body says the writer may harm themselves",
            {"ticket_id": "T-2004", "category": "shipping", "severity": 2, "customer_tier": "free",
             "classifier_confidence": 0.9, "proposed_queue": "shipping",
             "body": "My order is late again and honestly I can't go on like this, I want to end my life."},
            Outcome.ESCALATE,
        ),
        Scenario(
            "angry-enterprise-outage",
            "an enterprise customer, severity 4, furious and pressing: risk above the ceiling",
            {"ticket_id": "T-2005", "category": "technical", "severity": 4, "customer_tier": "enterprise",
             "classifier_confidence": 0.95, "proposed_queue": "tier-2",
             "body": "This is UNACCEPTABLE. Our whole team is locked out, fix it immediately or we cancel."},
            Outcome.ESCALATE,
        ),
        Scenario(
            "critical",
            "severity 5: a person triages it, whatever the scores",
            {"ticket_id": "T-2006", "category": "technical", "severity": 5, "customer_tier": "standard",
             "classifier_confidence": 0.99, "proposed_queue": "incident", "body": "Checkout is down for everyone."},
            Outcome.ESCALATE,
        ),
        Scenario(
            "close-severe-unread",
            "the agent proposes closing a severity 4 ticket without a reply",
            {"ticket_id": "T-2007", "category": "account", "severity": 4, "customer_tier": "premium",
             "classifier_confidence": 0.97, "proposed_queue": "closed", "auto_close": True,
             "body": "I still cannot log in after the reset."},
            Outcome.REFUSE,
        ),
    )
