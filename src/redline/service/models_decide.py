"""The JSON shapes of actions on the HTTP API: `POST /v1/decide` and `/v1/domains`."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class DecideRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    domain: str = Field(max_length=200, description="An action domain (`GET /v1/domains`).")
    input: dict[str, Any] = Field(
        description="The action's fields. Evidence may be absent or null: what the domain needs and did "
        "not get yields `ask`, naming it under `missing`."
    )


class SignalOut(BaseModel):
    name: str
    kind: Literal["confidence", "risk"]
    weight: float
    value: float
    detail: str


class RuleCheckOut(BaseModel):
    id: str
    outcome: Literal["refuse", "escalate"]
    fired: bool
    detail: str


class ThresholdsOut(BaseModel):
    base: dict[str, float] = Field(description="{confidence_min, risk_max} before reversibility")
    reversibility: float
    penalty: float = Field(description="1 - reversibility")
    adjusted: dict[str, float] = Field(description="confidence_min + 0.25 x penalty, risk_max - 0.20 x penalty")


class TextCueOut(BaseModel):
    signal: str
    cue: str
    match: str
    start: int
    end: int
    weight: float


class TextSignalsOut(BaseModel):
    field: str
    injection: float
    urgency: float
    sentiment: float
    source: str
    cues: list[TextCueOut]


class ActionOut(BaseModel):
    """How an action was decided (expert and operator tokens only)."""

    domain: str
    decided_by: str = Field(description="hard_rule:ID, missing_evidence, risk_ceiling, confidence_bar or all_tests_passed")
    scores: dict[str, float] = Field(description="{confidence, risk, evidence, reversibility}")
    reversibility: str
    thresholds: ThresholdsOut
    signals: list[SignalOut]
    hard_rules: list[RuleCheckOut]
    missing: list[str]
    text_signals: list[TextSignalsOut]


class DomainSummary(BaseModel):
    name: str
    description: str
    version: int
    hash: str
    required: list[str] = Field(description="Evidence an action must carry; without it the outcome is `ask`.")
    text_fields: list[str] = Field(description="Free text: read for injection, urgency and tone, never obeyed.")
    input_schema: dict[str, Any] = Field(description="JSON Schema of the input.")


class ScenarioOut(BaseModel):
    name: str
    description: str
    input: dict[str, Any]
    expect: str


class DomainOut(DomainSummary):
    """A domain as a client sees it (schema and scenarios); experts and operators also get
    its thresholds, signals and hard rules."""

    scenarios: list[ScenarioOut]
    source: str | None = None
    evidence: dict[str, float] | None = None
    thresholds: dict[str, float] | None = None
    signals: list[dict[str, Any]] | None = None
    hard_rules: list[dict[str, Any]] | None = None


class DomainsOut(BaseModel):
    domains: list[DomainSummary]
