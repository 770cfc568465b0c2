"""What an action domain is: an input model, named signals, hard rules, thresholds, scenarios.

A domain turns one proposed action (a refund, a ticket route, a deploy, a moderation
call) into numbers and booleans; the engine (`redline.decide.actions`) does the rest the
same way for every domain. Subclass `Domain`, set the class attributes, and write three
hooks:

    values(action)         {signal name: value in [0, 1]} (or (value, "why") pairs)
    rule_checks(action)    {hard rule id: "why it fired", or None}
    reversibility(action)  how far the action can be undone, in [0, 1]

Hooks see only the validated input model. Evidence fields are optional in the model
(absent or null means "not given"); a hook must give a value for every signal anyway,
the cautious one when its field is missing. Free-text fields (`text_fields`) are not
for the hooks: the engine turns each into `TextSignals` and one risk signal.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, AwareDatetime, BaseModel, BeforeValidator, ConfigDict, Field

from redline.types import Outcome

NAME = re.compile(r"^[a-z][a-z0-9_]{0,62}$")
HookValue = float | tuple[float, str]
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def storable_text(value: str) -> str:
    """Free text every audit backend can hold: no NUL, no lone surrogate."""
    if found := _UNSTORABLE.search(value):
        what = "a NUL character" if found.group() == "\x00" else "a lone surrogate (invalid Unicode)"
        raise ValueError(f"contains {what} at offset {found.start()}; remove it")
    return value


def text_field(description: str = "") -> Any:
    """A free-text field: read for the text signals only, never for a branch."""
    return Field(default=None, description=description or "Free text.")


def _iso_text(value: object) -> object:
    if not isinstance(value, str):
        raise ValueError("must be an ISO 8601 date and time with its UTC offset, as a string (2025-03-04T10:30:00+01:00)")
    return value


Text = Annotated[str, Field(max_length=20_000), AfterValidator(storable_text)]
ShortText = Annotated[str, Field(max_length=500), AfterValidator(storable_text)]
LongText = Annotated[str, Field(max_length=100_000), AfterValidator(storable_text)]
# A moment with its UTC offset ("2025-03-04T10:30:00+01:00"): the offset says what
# local time it was, which is what "a deploy at 22:00 on a Friday" is about.
When = Annotated[AwareDatetime, Field(strict=False), BeforeValidator(_iso_text)]
Identifier = Annotated[str, Field(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:#/-]*$")]


class ActionInput(BaseModel):
    """Base of every domain's input model: unknown fields and type coercion are errors."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


@dataclass(frozen=True, slots=True)
class SignalSpec:
    name: str
    kind: Literal["confidence", "risk"]
    weight: float
    description: str

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "weight": self.weight, "description": self.description}


@dataclass(frozen=True, slots=True)
class RuleSpec:
    id: str
    outcome: Outcome  # refuse or escalate
    description: str

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "outcome": self.outcome.value, "description": self.description}


@dataclass(frozen=True, slots=True)
class Scenario:
    """A seeded example: this input must yield `expect` (each one is a test)."""

    name: str
    description: str
    input: Mapping[str, Any]
    expect: Outcome

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "input": dict(self.input), "expect": self.expect.value}


@dataclass(frozen=True, slots=True)
class TextMix:
    """How one field's TextSignals become one risk value: noisy-OR of weighted parts."""

    injection: float = 1.0
    urgency: float = 0.4
    sentiment: float = 0.4

    def to_dict(self) -> dict[str, float]:
        return {"injection": self.injection, "urgency": self.urgency, "sentiment": self.sentiment}


class Domain:
    """One kind of action. Subclasses set the attributes below and the three hooks."""

    name: str
    description: str
    version: int = 1
    Input: type[ActionInput]
    base_confidence_min: float
    base_risk_max: float
    signals: tuple[SignalSpec, ...]
    hard_rules: tuple[RuleSpec, ...] = ()
    required: tuple[str, ...] = ()  # evidence that must be given, else the outcome is `ask`
    evidence: Mapping[str, float] = MappingProxyType({})  # field -> weight in the evidence score
    evidence_weight: float = 0.2  # the evidence score's weight among the confidence signals
    text_fields: tuple[str, ...] = ()
    text_weight: float = 0.5  # the text signal's weight in the risk sum
    text_mix: TextMix = TextMix()
    scenarios: tuple[Scenario, ...] = ()
    source: str = "built-in"

    # hooks -----------------------------------------------------------------------------
    def values(self, action: Any) -> Mapping[str, HookValue]:
        raise NotImplementedError

    def rule_checks(self, action: Any) -> Mapping[str, str | None]:
        raise NotImplementedError

    def reversibility(self, action: Any) -> HookValue:
        raise NotImplementedError

    def missing(self, action: Any) -> list[str]:
        """The required evidence not given. Override to add domain reasons (CI still running)."""
        return [name for name in self.required if getattr(action, name) is None]

    # description -----------------------------------------------------------------------
    def describe(self) -> dict[str, Any]:
        """Everything a caller or reviewer needs: schema, thresholds, signals, rules, scenarios."""
        return {
            "name": self.name,
            "description": self.description,
            "version": self.version,
            "hash": self.hash,
            "source": self.source,
            "input_schema": self.Input.model_json_schema(),
            "required": list(self.required),
            "evidence": dict(self.evidence),
            "text_fields": list(self.text_fields),
            "thresholds": {"confidence_min": self.base_confidence_min, "risk_max": self.base_risk_max},
            "signals": [s.to_dict() for s in self.all_signals()],
            "hard_rules": [r.to_dict() for r in self.hard_rules],
            "scenarios": [s.to_dict() for s in self.scenarios],
        }

    def all_signals(self) -> tuple[SignalSpec, ...]:
        """The domain's signals and the two the engine adds: evidence and text."""
        added = [SignalSpec("evidence", "confidence", self.evidence_weight, "share of the evidence fields given")]
        if self.text_fields:
            fields = ", ".join(self.text_fields)
            added.append(SignalSpec("text", "risk", self.text_weight, f"injection, urgency and negativity in {fields}"))
        return (*self.signals, *added)

    @property
    def hash(self) -> str:
        cached: str | None = self.__dict__.get("_hash")
        if cached is None:
            cached = domain_hash(self)
            self.__dict__["_hash"] = cached
        return cached

    def __repr__(self) -> str:
        return f"<domain {self.name} v{self.version} ({self.source})>"


def domain_hash(domain: Domain) -> str:
    """What decides: the definition, and for a Python domain the source of its module."""
    definition = {
        "name": domain.name,
        "version": domain.version,
        "schema": domain.Input.model_json_schema(),
        "thresholds": [domain.base_confidence_min, domain.base_risk_max],
        "signals": [s.to_dict() for s in domain.all_signals()],
        "hard_rules": [r.to_dict() for r in domain.hard_rules],
        "required": list(domain.required),
        "evidence": dict(domain.evidence),
        "text": [list(domain.text_fields), domain.text_mix.to_dict()],
    }
    digest = hashlib.sha256(json.dumps(definition, sort_keys=True, default=str).encode())
    try:
        digest.update(inspect.getsource(type(domain)).encode())
    except (OSError, TypeError):  # a class built at run time (YAML) has its file in the definition
        pass
    return "sha256:" + digest.hexdigest()
