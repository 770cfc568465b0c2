"""Policy version 1 as pydantic models (DESIGN.md section 2). Unknown keys are rejected."""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Annotated, Any, Literal

import re2
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from redline.types import Severity, Status

Slug = Annotated[str, Field(pattern=r"^[a-z0-9-]+$", min_length=1, max_length=100)]
DetectorSetting = Literal["refuse", "escalate", "flag", "off"]
LicensableClass = Literal["technical_content"]
JudgeKind = Literal["none", "openai", "anthropic", "embedding", "heuristic"]
ErrorOutcome = Literal["execute", "ask", "defer", "escalate", "refuse"]

DEFAULT_SUPPRESS: tuple[Status, ...] = (
    Status.NEGATED,
    Status.ATTRIBUTED,
    Status.HISTORICAL,
    Status.OTHER_EXPERIENCER,
)


# log_errors=False: otherwise RE2 writes every rejected pattern to stderr from C++.
_RE2_OPTIONS = re2.Options()
_RE2_OPTIONS.log_errors = False


def _reject_affirmed(value: tuple[Status, ...] | None) -> None:
    if value is not None and Status.AFFIRMED in value:
        raise ValueError(
            "'affirmed' cannot be suppressed: an affirmed hit always fires; remove it from the list"
        )


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class AutoSend(_Strict):
    min_confidence: int = Field(
        101,
        ge=0,
        le=101,
        strict=True,  # lax mode reads `true` as 1: every draft would auto-send
        description="A clean draft executes only when the caller's confidence is at least "
        "this; 101 means every draft gets human review.",
    )


class ScreenSettings(_Strict):
    suppress: tuple[Status, ...] = Field(
        DEFAULT_SUPPRESS,
        description="Context statuses that keep a hit from firing (kept as suppressed).",
    )

    @field_validator("suppress")
    @classmethod
    def _no_affirmed(cls, value: tuple[Status, ...]) -> tuple[Status, ...]:
        _reject_affirmed(value)
        return value


class RedLine(_Strict):
    id: Slug
    rule: str = Field(min_length=1, description="The rule in plain words.")
    severity: Severity
    terms: tuple[Annotated[str, Field(min_length=1)], ...] | None = Field(
        None, description="Phrases matched as whole words; derived from `rule` when absent."
    )
    patterns: tuple[str, ...] = Field((), description="RE2 regular expressions (linear time).")
    suppress: tuple[Status, ...] | None = Field(
        None, description="Overrides screen.suppress for this rule."
    )

    @field_validator("patterns")
    @classmethod
    def _re2_compatible(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for index, pattern in enumerate(value):
            try:
                re2.compile(pattern, _RE2_OPTIONS)
            except Exception as exc:  # re2.error, but also TypeError on odd input
                reason = exc.args[0] if exc.args else exc
                if isinstance(reason, bytes):
                    reason = reason.decode("utf-8", "replace")
                raise ValueError(
                    f"pattern {index} {pattern!r} is not valid RE2 ({reason}); RE2 has no "
                    "backreferences or lookaround: rewrite it without them"
                ) from exc
        return value

    @field_validator("suppress")
    @classmethod
    def _no_affirmed(cls, value: tuple[Status, ...] | None) -> tuple[Status, ...] | None:
        _reject_affirmed(value)
        return value

    @field_validator("terms")
    @classmethod
    def _terms_have_words(cls, value: tuple[str, ...] | None) -> tuple[str, ...] | None:
        if value is not None:
            for term in value:
                if not any(ch.isalnum() for ch in term):
                    raise ValueError(f"term {term!r} has no letters or digits to match")
        return value


class Skill(_Strict):
    slug: Slug
    red_lines: tuple[RedLine, ...] = ()

    @model_validator(mode="after")
    def _unique_ids(self) -> Skill:
        seen: set[str] = set()
        for line in self.red_lines:
            if line.id in seen:
                raise ValueError(
                    f"duplicate red line id {line.id!r} in skill {self.slug!r}: ids must be "
                    "unique within a skill"
                )
            seen.add(line.id)
        return self


class Boundaries(_Strict):
    never: tuple[Annotated[str, Field(min_length=1)], ...] = ()
    escalate: tuple[Annotated[str, Field(min_length=1)], ...] = ()


class Soul(_Strict):
    boundaries: Boundaries = Boundaries()


class Detectors(_Strict):
    credentials: DetectorSetting = "refuse"
    pii: DetectorSetting = "escalate"
    technical_content: DetectorSetting = "off"


class ContextSettings(_Strict):
    licensable: tuple[LicensableClass, ...] = ("technical_content",)


class JudgeSettings(_Strict):
    kind: JudgeKind = "none"


class Policy(_Strict):
    """A whole policy file. Construct with `load_policy`, which names file and line on error."""

    version: Literal[1]
    name: Slug
    auto_send: AutoSend = AutoSend()
    screen: ScreenSettings = ScreenSettings()
    skills: tuple[Skill, ...] = ()
    soul: Soul = Soul()
    detectors: Detectors = Detectors()
    context: ContextSettings = ContextSettings()
    judge: JudgeSettings = JudgeSettings()
    on_error: ErrorOutcome = "escalate"

    @field_validator("version", mode="before")
    @classmethod
    def _version_is_a_number(cls, value: object) -> object:
        # Literal[1] alone accepts `true` (True == 1) and 1.0.
        if not (type(value) is int and value == 1):
            raise PydanticCustomError(
                "literal_error", "Input should be {expected}", {"expected": "1"}
            )
        return value

    @model_validator(mode="after")
    def _unique_slugs(self) -> Policy:
        seen: set[str] = set()
        for skill in self.skills:
            if skill.slug in seen:
                raise ValueError(f"duplicate skill slug {skill.slug!r}: slugs must be unique")
            seen.add(skill.slug)
        return self

    @functools.cached_property
    def hash(self) -> str:
        """A stable hash of what the policy means (not of its formatting or comments)."""
        return policy_hash(self)


def policy_hash(policy: Policy) -> str:
    canonical = json.dumps(policy.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def json_schema() -> dict[str, Any]:
    schema = Policy.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "redline policy (version 1)"
    return schema
