"""The JSON shapes of the HTTP API, as pydantic models (they are the OpenAPI schema)."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from redline.review.canary import RESERVED_PREFIX, is_reserved
from redline.service.models_decide import ActionOut
from redline.types import Outcome, RiskLevel

QueueStatusName = Literal["pending", "approved", "edited", "rejected"]
POLICY_NAME = r"^[a-z0-9-]{1,100}$"
DECISION_ID = r"^[A-Za-z0-9_.:-]{1,64}$"
RECIPIENT = r"^[A-Za-z0-9_.:-]{1,64}$"
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def not_reserved(value: str | None) -> str | None:
    """A user id that is not in the canary battery's namespace (only a battery run uses it)."""
    if is_reserved(value):
        raise ValueError(f"ids starting with {RESERVED_PREFIX!r} are reserved for the canary battery; use another id")
    return value


def storable(value: str | None) -> str | None:
    """Text that every backend can store: no NUL, no lone surrogate (JSON allows both)."""
    if value is None or (value.isascii() and "\x00" not in value):  # most texts: 0.1 us, not 10
        return value
    if found := _UNSTORABLE.search(value):
        what = "a NUL character" if found.group() == "\x00" else "a lone surrogate (invalid Unicode)"
        raise ValueError(f"contains {what} at offset {found.start()}; remove it")
    return value


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


UID = Field(default=None, max_length=200, description="An opaque user id.")


class MessageIn(BaseModel):
    """One message of the conversation (unknown keys are dropped: never stored)."""

    role: Literal["user", "assistant", "system", "tool"]
    sender_uid: str | None = UID
    text: str = Field(default="", description="The message (read for an explicit ask; never stored).")

    @field_validator("sender_uid", "text")
    @classmethod
    def _storable(cls, value: str | None) -> str | None:
        return storable(value)

    @field_validator("sender_uid")
    @classmethod
    def _not_reserved(cls, value: str | None) -> str | None:
        return not_reserved(value)


class ContextIn(BaseModel):
    """The conversation a check may carry (docs/policy.md, the conversation); unknown keys are dropped."""

    operator_uid: str | None = UID
    recipient: str = Field(
        default="primary",
        pattern=RECIPIENT,
        description="`primary` (the person in the conversation, the only licensable recipient), "
        "`third_party`, or a short id of another recipient (recorded as `third_party`).",
    )
    messages: list[MessageIn] = Field(default_factory=list, max_length=10_000)

    @field_validator("operator_uid")
    @classmethod
    def _storable(cls, value: str | None) -> str | None:
        return not_reserved(storable(value))


class CheckRequest(_In):
    text: str = Field(description="The draft or message to check (the body limit bounds its length).")
    policy: str = Field(description="The name of a loaded policy (`GET /v1/policies`).", max_length=200)
    context: ContextIn | None = Field(
        default=None, description="The conversation: {operator_uid, recipient, messages: [{role, sender_uid, text}]}."
    )
    confidence: float | None = Field(
        default=None,
        ge=0,
        le=100,
        allow_inf_nan=False,
        description="The caller's confidence, 0 to 100 (a policy's bar of 101 is never met: every draft is reviewed).",
    )

    @field_validator("text", "policy")
    @classmethod
    def _text_ok(cls, value: str) -> str:
        return storable(value) or value


class EditRequest(_In):
    text: str = Field(min_length=1, description="The text to send in place of the draft.")

    @field_validator("text")
    @classmethod
    def _text_ok(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("is blank; to stop the draft, reject it")
        return storable(value) or value


class RejectRequest(_In):
    note: str | None = Field(default=None, max_length=10_000, description="Why the draft was rejected.")

    @field_validator("note")
    @classmethod
    def _note_ok(cls, value: str | None) -> str | None:
        return storable(value)


class ClientDecision(BaseModel):
    """What a client sees: the outcome and a generic reason, never findings or rules."""

    id: str
    outcome: Outcome
    reason: Literal["ok", "held for review", "not allowed"]
    risk_level: RiskLevel


class FindingOut(BaseModel):
    rule: str
    severity: str
    layer: str
    start: int
    end: int
    text: str
    status: str
    cue: str | None
    entity: str | None
    explanation: str | None = None


class PolicyRef(BaseModel):
    name: str
    hash: str


class FullDecision(BaseModel):
    """What an expert or operator sees: `Decision.to_dict()` (docs/service.md)."""

    id: str
    outcome: Outcome
    reason: str
    risk_level: RiskLevel
    policy: PolicyRef
    findings: list[FindingOut]
    suppressed: list[FindingOut]
    layers: dict[str, Any]
    timings_ms: dict[str, float]
    error: str | None
    licensed_by_context: bool
    context: dict[str, Any] | None
    missing: list[str] = Field(default=[], description="For an action: the evidence it needs and did not get.")
    action: ActionOut | None = Field(default=None, description="For an action: signals, thresholds, the deciding test.")
    omitted: dict[str, int] = Field(
        default_factory=dict, description="Findings and suppressed hits left out of this answer by the caps."
    )
    review: dict[str, Any] | None = Field(
        default=None,
        description="The review flags in force (`context`, `mode`), whether the conversation was read, whether "
        "this is the decision acted on, `would_block`, `enforced_outcome` and, in watch mode, the `pair_id`.",
    )


class AuditRowOut(BaseModel):
    id: str
    created_at: datetime
    policy_name: str
    policy_hash: str
    outcome: Outcome
    reason: str
    risk_level: RiskLevel
    rules_fired: list[str]
    suppressed: list[dict[str, Any]]
    findings: list[dict[str, Any]]
    timings_ms: dict[str, float]
    total_ms: float
    licensed_by_context: bool
    context: dict[str, Any] | None
    text_excerpt: str = Field(description="The first 200 characters, credentials and PII scrubbed.")
    error: str | None
    action: dict[str, Any] | None = Field(default=None, description="For an action: how it was decided.")
    omitted: dict[str, int] = Field(description="Findings and suppressed hits left out of the row by the caps.")
    layers: dict[str, Any] | None = Field(
        default=None, description="The screen's and the judge's verdicts and their agreement (null in older rows)."
    )


class AuditPage(BaseModel):
    items: list[AuditRowOut]
    next_cursor: str | None = Field(description="Pass as `cursor` for the next page; null: no more.")


class QueueItemOut(BaseModel):
    id: int
    decision_id: str
    created_at: datetime
    status: QueueStatusName
    draft_text: str
    edited_text: str | None
    expert: str | None
    decided_at: datetime | None
    note: str | None
    edit_decision_id: str | None = Field(
        default=None, description="The audit id of the gate's decision on the latest edit (the draft's is decision_id)."
    )
    edit_outcome: Outcome | None = Field(default=None, description="That decision's outcome.")
    final_text: str | None = Field(description="What may now be sent: the edit, the approved draft, or null.")


class EditCheckOut(BaseModel):
    """The gate's decision on an Expert's edit (detector matches shown by type, not text)."""

    id: str
    outcome: Outcome
    reason: str
    findings: list[dict[str, Any]]


class QueueEditOut(QueueItemOut):
    verdict: Literal["edited", "held"] = Field(
        description="edited: the edit is final_text; held: the edit fired a rule and waits, pending, for a second look"
    )
    edit_check: EditCheckOut


class QueuePage(BaseModel):
    items: list[QueueItemOut]
    next_cursor: str | None


class PolicyFile(BaseModel):
    file: str = Field(description="The file's name in the policies directory.")
    name: str | None = Field(description="The policy served from it; null if no version ever loaded.")
    hash: str | None
    loaded_at: datetime | None = Field(description="When the served version was loaded.")
    last_error: str | None = Field(description="Why the newest version of the file is not served.")
    last_error_at: datetime | None


class PoliciesOut(BaseModel):
    policies: list[PolicyFile]
    reloads: int


class TermOut(BaseModel):
    term: str
    forms: list[str] = Field(description="A sample of the word sequences that count as the term.")


class TopicOut(BaseModel):
    label: str
    words: list[str]
    why: str = Field(description="Why the words of the rule became this topic.")
    forms: list[list[str]] = Field(description="Per word, a sample of the forms that count as it.")
    matches: str
    share_of_drafts: float = Field(description="The share of ordinary 100-word texts it would fire on.")
    negative: bool = Field(
        description="The rule states the topic in the negative (\"say it can't lose money\"): "
        "a negation in the draft does not set its hits aside."
    )
    money: list[str] = Field(
        default_factory=list,
        description="Its words that an amount of money in a draft counts as (\"quote a price\": \"$650\").",
    )
    privative: list[str] = Field(
        default_factory=list,
        description="The rule's own words of absence (\"without a helmet\", \"gluten-free\"): in a draft "
        "they state the topic and do not set its hits aside; other negations still do.",
    )


class RuleOut(BaseModel):
    id: str
    source: Literal["red_line", "boundary"]
    severity: str
    rule: str
    guards: Literal["terms", "derived"]
    terms: list[TermOut]
    topics: list[TopicOut]
    patterns: list[str]
    detectors: list[str]
    suppress: list[str]
    suppress_note: str | None
    warnings: list[str]


class DetectorRuleOut(BaseModel):
    id: str
    detector: str
    severity: str


class PolicyExplanation(BaseModel):
    """`redline explain --json` for one served policy."""

    policy: dict[str, str]
    rules: list[RuleOut]
    detectors: list[DetectorRuleOut]
    auto_send: dict[str, int]


class LogHealth(BaseModel):
    path: str
    write_failures: int = Field(description="Writes that failed since the start.")
    failing: bool = Field(description="Whether the latest write failed; cleared by the next that succeeds.")


class HealthOut(BaseModel):
    status: Literal["ok", "degraded", "unavailable"] = Field(
        description="ok; degraded: serving, but the latest decision-log write failed or a policy file has an "
        "error; unavailable (503): the database does not answer or cannot write, or no policy is loaded."
    )
    db: Literal["ok", "read_only", "down"]
    policies: int
    policy_errors: int
    decision_log: LogHealth
    review: dict[str, Any] | None = Field(
        default=None,
        description="The review flags (`context`: dark|dev|live, `mode`: watch|enforce, per policy), where they "
        "came from, why any fell back to the safe setting, the canary schedule and the last battery run.",
    )
