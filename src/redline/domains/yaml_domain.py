"""Threshold-only action domains, written in YAML beside the policies (`POLICIES/domains/`).

```yaml
version: 1
name: vendor_payment
description: Pay a vendor invoice without a person.
thresholds: {confidence_min: 0.7, risk_max: 0.4}
fields:                                   # the input; every field may be absent or null
  invoice_id: {type: id, required: true}  # id | number | integer | boolean | choice | text | datetime
  amount: {type: number, minimum: 0, required: true}
  vendor_verified: {type: boolean, required: true}
  note: {type: text, max_length: 2000}     # free text: only ever a risk signal
signals:
  - {name: verified, kind: confidence, weight: 0.6, field: vendor_verified}
  - {name: size, kind: risk, weight: 0.4, field: amount, scale: [0, 20000]}
reversibility: {field: amount, half_at: 1000}    # or {value: 0.8}
hard_rules:
  - {id: big-unverified, outcome: escalate, when: [{field: vendor_verified, equals: false}, {field: amount, above: 5000}]}
text: {weight: 0.5}
scenarios:
  - {name: small-verified, input: {invoice_id: I-1, amount: 120, vendor_verified: true}, expect: execute}
```

A signal turns one field into a value in [0, 1]: a boolean is 1 or 0, a number is used as
it is (declare `minimum: 0, maximum: 1`) or mapped linearly by `scale: [low, high]`, a
choice through `values: {choice: value}`; `invert: true` takes 1 - value; `unknown`
is the value when the field is missing (default: the cautious end, 0 for confidence and
1 for risk). Every non-text field is evidence. A file is validated, then its scenarios
are run: one that does not yield its stated outcome makes the file an error, so a
domain that loads does what its examples say.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, create_model, field_validator, model_validator

from redline.domains.base import (
    NAME,
    ActionInput,
    Domain,
    HookValue,
    Identifier,
    RuleSpec,
    Scenario,
    SignalSpec,
    TextMix,
    When,
    storable_text,
)
from redline.errors import DomainError, PolicyError
from redline.policy.load import parse_yaml_model, read_yaml_text, yaml_position
from redline.types import Outcome

PATTERNS = ("*.yaml", "*.yml")
Unit = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]
Weight = Annotated[float, Field(gt=0, le=1, allow_inf_nan=False)]
FieldName = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,62}$")]


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class FieldSpec(_Spec):
    type: Literal["id", "number", "integer", "boolean", "choice", "text", "datetime"]
    required: bool = False
    description: str = ""
    minimum: float | None = None
    maximum: float | None = None
    choices: list[Annotated[str, Field(min_length=1, max_length=100)]] | None = None
    max_length: int = Field(default=20_000, ge=1, le=1_000_000)

    @model_validator(mode="after")
    def _fits(self) -> FieldSpec:
        if (self.type == "choice") != bool(self.choices):
            raise ValueError("a choice field lists its `choices`, and only a choice field has them")
        if self.required and self.type == "text":
            raise ValueError("free text cannot be required evidence; it only feeds the text signal")
        if self.minimum is not None and self.maximum is not None and self.minimum > self.maximum:
            raise ValueError(f"minimum {self.minimum} is above maximum {self.maximum}")
        return self


class Thresholds(_Spec):
    confidence_min: Unit
    risk_max: Unit


class SignalDef(_Spec):
    name: FieldName
    kind: Literal["confidence", "risk"]
    weight: Weight
    field: FieldName
    description: str = ""
    scale: list[float] | None = Field(default=None, min_length=2, max_length=2)
    values: dict[str, Unit] | None = None
    invert: bool = False
    unknown: Unit | None = None


class Condition(_Spec):
    field: FieldName
    equals: str | float | bool | None = None
    above: float | None = None
    at_least: float | None = None
    below: float | None = None
    at_most: float | None = None
    one_of: list[str] | None = Field(default=None, alias="in")

    @model_validator(mode="after")
    def _one_test(self) -> Condition:
        tests = [n for n in ("equals", "above", "at_least", "below", "at_most", "one_of") if getattr(self, n) is not None]
        if len(tests) != 1:
            raise ValueError("a condition has exactly one of equals, above, at_least, below, at_most, in")
        return self

    def holds(self, value: Any) -> bool:
        if value is None:  # a missing field cannot fire a rule; missing evidence is `ask`
            return False
        if self.equals is not None:
            return bool(value == self.equals)
        if self.one_of is not None:
            return value in self.one_of
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        bound = next(b for b in (self.above, self.at_least, self.below, self.at_most) if b is not None)
        return {
            "above": value > bound, "at_least": value >= bound, "below": value < bound, "at_most": value <= bound,
        }[next(n for n in ("above", "at_least", "below", "at_most") if getattr(self, n) is not None)]


class HardRuleDef(_Spec):
    id: Annotated[str, Field(pattern=r"^[a-z0-9-]{1,100}$")]
    outcome: Literal["refuse", "escalate"]
    description: str = ""
    when: list[Condition] = Field(min_length=1)


class Reversibility(_Spec):
    value: Unit | None = None
    field: FieldName | None = None
    half_at: float | None = Field(default=None, gt=0, allow_inf_nan=False)

    @model_validator(mode="after")
    def _either(self) -> Reversibility:
        if (self.value is None) == (self.field is None) or (self.field is None) != (self.half_at is None):
            raise ValueError("give either `value: 0.8`, or `field: NAME` with `half_at: AMOUNT`")
        return self


class TextDef(_Spec):
    weight: Unit = 0.5
    injection: Unit = 1.0
    urgency: Unit = 0.4
    sentiment: Unit = 0.4


class ScenarioDef(_Spec):
    name: Annotated[str, Field(min_length=1, max_length=100)]
    description: str = ""
    input: dict[str, Any]
    expect: Literal["execute", "ask", "defer", "escalate", "refuse"]


class DomainFile(_Spec):
    version: Literal[1]
    name: str
    description: str = ""
    thresholds: Thresholds
    fields: dict[FieldName, FieldSpec] = Field(min_length=1)
    signals: list[SignalDef] = Field(min_length=1)
    reversibility: Reversibility
    hard_rules: list[HardRuleDef] = []
    text: TextDef = TextDef()
    scenarios: list[ScenarioDef] = []

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if not NAME.match(value):
            raise ValueError("a domain name is lower-case letters, digits and _, starting with a letter (vendor_payment)")
        return value



def _reference_problems(spec: DomainFile) -> list[tuple[tuple[str | int, ...], str]]:
    """What the schema cannot see: names that refer to fields, and fields fit for their use."""
    problems: list[tuple[tuple[str | int, ...], str]] = []
    for i, sig in enumerate(spec.signals):
        where: tuple[str | int, ...] = ("signals", i)
        field = spec.fields.get(sig.field)
        if field is None:
            problems.append(((*where, "field"), f"signal {sig.name!r} reads field {sig.field!r}, which `fields` does not declare"))
        elif field.type in ("text", "id", "datetime"):
            problems.append(((*where, "field"), f"signal {sig.name!r} reads {field.type} field {sig.field!r}; use a number, boolean or choice"))
        elif field.type == "choice" and set(sig.values or {}) != set(field.choices or []):
            problems.append(((*where, "values"), f"signal {sig.name!r} needs a value for each choice of {sig.field!r}: {field.choices}"))
        elif field.type in ("number", "integer") and sig.scale is None and not (field.minimum == 0 and field.maximum == 1):
            problems.append((where, f"signal {sig.name!r}: give `scale: [low, high]`, or declare {sig.field!r} with minimum 0, maximum 1"))
        if sig.scale is not None and not sig.scale[0] < sig.scale[1]:
            problems.append(((*where, "scale"), f"signal {sig.name!r}: scale low must be below high"))
    for i, rule in enumerate(spec.hard_rules):
        for j, cond in enumerate(rule.when):
            if cond.field not in spec.fields:
                problems.append(((
                    "hard_rules", i, "when", j, "field"), f"hard rule {rule.id!r} tests field {cond.field!r}, which `fields` does not declare"))
    field_name = spec.reversibility.field
    if field_name is not None and spec.fields.get(field_name, FieldSpec(type="text")).type not in ("number", "integer"):
        problems.append((("reversibility", "field"), f"reversibility reads {field_name!r}, which must be a declared number or integer field"))
    return problems


def _annotation(spec: FieldSpec) -> Any:
    bounds: dict[str, Any] = {"ge": spec.minimum, "le": spec.maximum}
    if spec.type == "number":
        return Annotated[float, Field(allow_inf_nan=False, **bounds)]
    if spec.type == "integer":
        return Annotated[int, Field(**bounds)]
    if spec.type == "boolean":
        return bool
    if spec.type == "choice":
        return Literal[tuple(spec.choices or ())]
    if spec.type == "text":
        return Annotated[str, Field(max_length=spec.max_length), AfterValidator(storable_text)]
    return When if spec.type == "datetime" else Identifier


class YamlDomain(Domain):
    """A domain built from a validated `DomainFile`."""

    def __init__(self, spec: DomainFile, source: str) -> None:
        self.spec = spec
        self.source = source
        self.name = spec.name
        self.description = spec.description
        self.version = spec.version
        fields: dict[str, Any] = {
            name: (_annotation(f) | None, Field(None, description=f.description or None)) for name, f in spec.fields.items()
        }
        self.Input = create_model(f"{_camel(spec.name)}Input", __base__=ActionInput, **fields)
        self.base_confidence_min = spec.thresholds.confidence_min
        self.base_risk_max = spec.thresholds.risk_max
        self.signals = tuple(SignalSpec(s.name, s.kind, s.weight, s.description or f"from {s.field}") for s in spec.signals)
        self.hard_rules = tuple(RuleSpec(r.id, Outcome(r.outcome), r.description or _conditions(r)) for r in spec.hard_rules)
        self.required = tuple(n for n, f in spec.fields.items() if f.required)
        self.evidence = {n: 1.0 for n, f in spec.fields.items() if f.type != "text"}
        self.text_fields = tuple(n for n, f in spec.fields.items() if f.type == "text")
        self.text_weight = spec.text.weight
        self.text_mix = TextMix(spec.text.injection, spec.text.urgency, spec.text.sentiment)
        self.scenarios = tuple(
            Scenario(s.name, s.description, s.input, Outcome(s.expect)) for s in spec.scenarios
        )

    def values(self, action: Any) -> dict[str, HookValue]:
        return {s.name: _signal_value(s, getattr(action, s.field)) for s in self.spec.signals}

    def rule_checks(self, action: Any) -> dict[str, str | None]:
        return {
            r.id: (_conditions(r) if all(c.holds(getattr(action, c.field)) for c in r.when) else None)
            for r in self.spec.hard_rules
        }

    def reversibility(self, action: Any) -> HookValue:
        rev = self.spec.reversibility
        if rev.value is not None:
            return rev.value
        amount = getattr(action, rev.field or "")
        if amount is None:
            return 0.0, f"{rev.field} unknown"
        half = rev.half_at or 1.0
        return half / (half + max(0.0, float(amount))), f"{rev.field} {amount}; half at {half:g}"


def _signal_value(sig: SignalDef, value: Any) -> HookValue:
    if value is None:
        unknown = sig.unknown if sig.unknown is not None else (0.0 if sig.kind == "confidence" else 1.0)
        return unknown, "unknown"
    if isinstance(value, bool):
        number = 1.0 if value else 0.0
    elif isinstance(value, str):
        number = (sig.values or {})[value]
    elif sig.scale is not None:
        low, high = sig.scale
        number = min(1.0, max(0.0, (float(value) - low) / (high - low)))
    else:
        number = min(1.0, max(0.0, float(value)))
    number = 1.0 - number if sig.invert else number
    return (number if math.isfinite(number) else 1.0), f"{sig.field} = {value}"


def _conditions(rule: HardRuleDef) -> str:
    parts = []
    for c in rule.when:
        test = next(n for n in ("equals", "above", "at_least", "below", "at_most", "one_of") if getattr(c, n) is not None)
        parts.append(f"{c.field} {test.replace('_', ' ').replace('one of', 'in')} {getattr(c, test)}")
    return " and ".join(parts)


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in re.split(r"_+", name))


def load_yaml_domain(path: Path) -> YamlDomain:
    """The domain in `path`: validated, built, and its scenarios run."""
    name = str(path)
    try:
        text = read_yaml_text(name)
        spec = parse_yaml_model(text, name, DomainFile, what="domain")
    except DomainError:
        raise
    except PolicyError as exc:
        raise DomainError(exc.problem, path=exc.path, line=exc.line, column=exc.column, key=exc.key) from exc
    problems = _reference_problems(spec)
    if problems:
        loc, problem = problems[0]
        line, column = yaml_position(text, loc) or (None, None)
        key = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".")
        raise DomainError(problem, path=name, line=line, column=column, key=key)
    domain = YamlDomain(spec, source=name)
    from redline.domains.registry import check_domain  # the registry imports this module lazily

    check_domain(domain)
    _run_scenarios(domain)
    return domain


def _run_scenarios(domain: YamlDomain) -> None:
    from redline.decide.actions import assess, validate_action  # the engine runs the examples

    for scenario in domain.scenarios:
        assessment, verdict = assess(domain, validate_action(domain, scenario.input))
        if verdict.outcome is not scenario.expect:
            scores = f"confidence {assessment.confidence:.3f} (bar {assessment.thresholds.confidence_min:.3f}), " \
                     f"risk {assessment.risk:.3f} (ceiling {assessment.thresholds.risk_max:.3f})"
            raise DomainError(
                f"scenario {scenario.name!r} expects {scenario.expect.value} but yields {verdict.outcome.value} "
                f"(decided by {verdict.decided_by}; {scores}). Fix: correct the scenario or the thresholds",
                path=domain.source,
            )


def load_yaml_domains(directory: Path) -> list[YamlDomain]:
    """Every domain file in `directory` (none when it does not exist), in name order."""
    if not directory.is_dir():
        return []
    paths = sorted({p for pattern in PATTERNS for p in directory.glob(pattern) if p.is_file()})
    return [load_yaml_domain(p) for p in paths]
