"""Policy version 1 as pydantic models (docs/policy.md). Unknown keys are rejected."""

from __future__ import annotations

import functools
import hashlib
import json
import re
from pathlib import Path
from typing import Annotated, Any, Literal

import re2
from pydantic import BaseModel, ConfigDict, Discriminator, Field, PrivateAttr, Tag, field_validator, model_validator
from pydantic_core import PydanticCustomError

from redline.types import Severity, Status

Slug = Annotated[str, Field(pattern=r"^[a-z0-9-]+$", min_length=1, max_length=100)]
DetectorSetting = Literal["refuse", "escalate", "flag", "off"]
LicensableClass = Literal["technical_content"]
JudgeKind = Literal["none", "openai", "anthropic", "embedding", "heuristic"]
JudgeWhen = Literal["never", "on_hits", "always"]
JudgeOutput = Literal["auto", "json_schema", "json_object", "text"]
ErrorOutcome = Literal["execute", "ask", "defer", "escalate", "refuse"]

DEFAULT_SUPPRESS: tuple[Status, ...] = (
    Status.NEGATED,
    Status.ATTRIBUTED,
    Status.HISTORICAL,
    Status.OTHER_EXPERIENCER,
)


_HAS_WORD = re.compile(r"[^\W_]").search  # a letter or digit, in any script

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


# A rule is a sentence or two (the longest of the 1,776 in the rules corpora is 334
# characters). Reading a rule for its topics costs more than its length, so a pasted page
# would stall the load: at this length the slowest text found costs 0.2 s (docs/security.md).
MAX_RULE_CHARS = 2000
RuleText = Annotated[str, Field(min_length=1, max_length=MAX_RULE_CHARS)]


class RedLine(_Strict):
    id: Slug
    rule: RuleText = Field(description="The rule in plain words.")
    severity: Severity
    terms: tuple[Annotated[str, Field(min_length=1)], ...] | None = Field(
        None, description="Phrases matched as whole words; derived from `rule` when absent."
    )
    patterns: tuple[str, ...] = Field((), description="RE2 regular expressions (linear time).")
    suppress: tuple[Status, ...] | None = Field(
        None, description="Overrides screen.suppress for this rule."
    )
    examples: tuple[Annotated[str, Field(min_length=1, max_length=1000)], ...] = Field(
        (),
        max_length=50,
        description="Drafts that violate the rule, in other words than its terms: the judge "
        "layer compares texts with them (the screen does not match them).",
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
                if not _HAS_WORD(term):
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
    never: tuple[RuleText, ...] = ()
    escalate: tuple[RuleText, ...] = ()


class Soul(_Strict):
    boundaries: Boundaries = Boundaries()


# the tags of a setting written either plainly or as a mapping (they appear in error locations)
SHAPE_TAGS = ("plain form", "mapping form")
_ALLOW_DOMAIN = re.compile(r"@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{2,59})")
_ALLOW_EMAIL = re.compile(r"[^\s@]{1,64}" + _ALLOW_DOMAIN.pattern)
_ALLOW_HELP = (
    "an allow entry is one exact value of the organisation's own contact details (an e-mail "
    "address such as 'support@acme.example', a phone number such as '+1 800 555 0100', a postal "
    "address) or one of its e-mail domains written '@acme.example'; it never names a whole type"
)


def _allow_entry(entry: str) -> str:
    """One entry of `detectors.pii.allow`, checked so it can only ever exempt what it spells."""
    value = entry.strip()
    if any(c in value for c in "*?") or not value:
        raise ValueError(f"{entry!r} is a pattern, not a value: {_ALLOW_HELP}")
    if value.startswith("@"):
        if not _ALLOW_DOMAIN.fullmatch(value):
            raise ValueError(
                f"{entry!r} is not an e-mail domain with at least a name and a top-level domain "
                f"(write '@acme.example', never '@com'): {_ALLOW_HELP}"
            )
        return value
    if "@" in value:
        if not _ALLOW_EMAIL.fullmatch(value):
            raise ValueError(f"{entry!r} is not a whole e-mail address: {_ALLOW_HELP}")
        return value
    if sum(c.isdigit() for c in value) < 3 or len(value) < 6:
        raise ValueError(f"{entry!r} is neither an e-mail address, a phone number nor a postal address: {_ALLOW_HELP}")
    return value


class PiiSettings(_Strict):
    """`detectors.pii` written as a mapping: the outcome, and what of the organisation's own is not PII."""

    action: DetectorSetting = Field("escalate", description="What a PII finding yields (as the plain form).")
    allow: tuple[str, ...] = Field(
        (),
        description="The organisation's own contact details, never reported as third-party PII: "
        "exact values (an e-mail address, a phone number, a postal address; compared without "
        "regard to case, spacing or phone punctuation) and e-mail domains written '@acme.example' "
        "(that domain and its subdomains). An entry never exempts a whole type.",
    )

    @field_validator("allow")
    @classmethod
    def _values_or_domains(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(_allow_entry(entry) for entry in value)


class Detectors(_Strict):
    credentials: DetectorSetting = "refuse"
    # tagged by shape, so a bad value gets the one error of the form it was written in
    pii: Annotated[
        Annotated[DetectorSetting, Tag(SHAPE_TAGS[0])] | Annotated[PiiSettings, Tag(SHAPE_TAGS[1])],
        Discriminator(lambda v: SHAPE_TAGS[1] if isinstance(v, (dict, PiiSettings)) else SHAPE_TAGS[0]),
    ] = Field("escalate", description="An outcome, or {action, allow} to exempt the organisation's own details.")
    technical_content: DetectorSetting = "off"

    def action(self, name: str) -> str:
        """The outcome setting of detector `name`, whichever form it was written in."""
        setting = getattr(self, name)
        return setting.action if isinstance(setting, PiiSettings) else str(setting)

    @property
    def pii_allow(self) -> tuple[str, ...]:
        return self.pii.allow if isinstance(self.pii, PiiSettings) else ()


class ContextSettings(_Strict):
    licensable: tuple[LicensableClass, ...] = ("technical_content",)


# which settings each judge kind reads; any other one is refused at load
JUDGE_KEYS: dict[str, frozenset[str]] = {
    "none": frozenset(),
    "heuristic": frozenset({"when", "timeout_s"}),
    "embedding": frozenset({"when", "model", "threshold", "timeout_s"}),
    "openai": frozenset({"when", "model", "base_url", "api_key_env", "timeout_s", "max_output_tokens", "output"}),
    "anthropic": frozenset({"when", "model", "base_url", "api_key_env", "timeout_s", "max_output_tokens"}),
}


class JudgeSettings(_Strict):
    """The semantic layer (docs/judges.md). API keys come from the environment, never here."""

    kind: JudgeKind = "none"
    when: JudgeWhen = Field(
        "always",
        description="never: configured but not called; on_hits: only when the screen saw a hit "
        "(fired or set aside); always: every text.",
    )
    model: str | None = Field(
        None,
        min_length=1,
        max_length=500,
        description="openai/anthropic: the model name (required). embedding: a folder with "
        "model.onnx and tokenizer.json, relative to the policy file; leave it out to use the "
        "model that redline[embedding-model] installs.",
    )
    base_url: str | None = Field(
        None,
        pattern=r"^https?://\S+$",
        description="openai: any OpenAI-compatible server (vLLM, Ollama, llama.cpp, LM Studio); "
        "anthropic: a proxy. Default: the provider's own API.",
    )
    api_key_env: str | None = Field(
        None,
        pattern=r"^[A-Za-z_][A-Za-z0-9_]*$",
        description="The environment variable holding the API key (default OPENAI_API_KEY or "
        "ANTHROPIC_API_KEY).",
    )
    timeout_s: float = Field(10.0, gt=0, le=300, description="Deadline of one attempt; one retry follows a failure.")
    threshold: float | None = Field(
        None, gt=0, lt=1, description="embedding: the similarity above which a rule is violated."
    )
    max_output_tokens: int = Field(1024, ge=64, le=16384, strict=True)
    output: JudgeOutput = Field(
        "auto",
        description="openai: how the verdict is asked for; auto tries JSON schema, then JSON mode, then text.",
    )

    @model_validator(mode="after")
    def _keys_fit_the_kind(self) -> JudgeSettings:
        allowed = JUDGE_KEYS[self.kind]
        extra = sorted(k for k in self.model_fields_set if k != "kind" and k not in allowed)
        if extra:
            raise ValueError(
                f"judge kind {self.kind!r} does not read {', '.join(extra)}. Fix: remove "
                + ("them" if len(extra) > 1 else "it")
                + (f"; {self.kind} reads only: {', '.join(sorted(allowed))}" if allowed else "")
            )
        if self.kind in ("openai", "anthropic") and self.model is None:
            example = "gpt-4o-mini" if self.kind == "openai" else "claude-3-5-haiku-latest"
            raise ValueError(f"judge kind {self.kind!r} needs a model. Fix: add `model: {example}` under judge")
        return self


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
    development: bool = Field(
        False,
        strict=True,
        description="A policy under development: `review.context: dev` reads conversations only for these.",
    )
    # the policy file's folder, set by the loader: a judge's relative model path starts there
    _source_dir: Path | None = PrivateAttr(None)
    _source_path: str | None = PrivateAttr(None)

    @property
    def source_dir(self) -> Path | None:
        return self._source_dir

    @property
    def source_path(self) -> str | None:
        """The file the policy was loaded from, for errors found after loading."""
        return self._source_path

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
    data = policy.model_dump(mode="json")
    if not data.get("development"):  # added after version 1 shipped: an unmarked policy keeps its hash
        data.pop("development", None)
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def json_schema() -> dict[str, Any]:
    schema = Policy.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "redline policy (version 1)"
    return schema
