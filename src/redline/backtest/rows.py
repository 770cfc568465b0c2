"""One input line as a draft to re-check, or the reason it cannot be one.

A corpus line is `{"id", "text", "context"?, "confidence"?}` (other keys, such as a probe's
`expect`, are ignored). A decision-log line is an event: it keeps only a scrubbed excerpt
of the text and no conversation, so it is re-checked as it stands and marked `partial`
when the excerpt is not the whole text; its recorded outcome and rules are the baseline
when no baseline policy is given. A log does not record the caller's confidence either: a
draft that executed cleared the bar of its day and is re-checked as confident (100),
every other one as not (0), unless `--confidence` says otherwise.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from redline.types import Outcome

_CONFIDENT = 100.0
_NOT_CONFIDENT = 0.0


@dataclass(frozen=True, slots=True)
class Recorded:
    """What the gate decided when the draft was first checked (from the log)."""

    outcome: Outcome
    rules: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Draft:
    id: Any  # the row's id as given (a decision log: the decision id), or None
    text: str
    context: Any
    confidence: float | None
    recorded: Recorded | None = None
    partial: bool = False  # an excerpt: cut at 200 characters or scrubbed
    had_context: bool = False  # a logged check made with a conversation the log does not keep


class Skip(Exception):
    """A line that is read correctly but holds nothing to re-check (an action's event)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class BadLine(Exception):
    """A line that cannot be read: not JSON, not an object, no text."""


_DECODE = json.JSONDecoder().decode


def _loads(raw: bytes) -> dict[str, Any]:
    try:
        if raw[:1] == b"{" and raw[1:2] != b"\x00":
            # what json.loads does with bytes that it reads as UTF-8, less its encoding sniffing
            row = _DECODE(raw.decode("utf-8", "surrogatepass"))
        else:  # a BOM, UTF-16/32, leading space: json.loads tells
            row = json.loads(raw)
    except UnicodeDecodeError as exc:
        raise BadLine(f"not UTF-8 ({exc.reason})") from exc
    except ValueError as exc:
        raise BadLine(f"invalid JSON: {str(exc)[:160]}") from exc
    if not isinstance(row, dict):
        raise BadLine(f"expected a JSON object, got {type(row).__name__}")
    return row


def _row_id(row: dict[str, Any]) -> Any:
    value = row.get("id")
    if value is None or isinstance(value, (str, int)) and not isinstance(value, bool):
        return value
    raise BadLine(f"id must be a string or an integer, got {type(value).__name__}")


def _confidence(value: Any, default: float | None) -> float | None:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value) or not 0 <= value <= 100:
        raise BadLine(f"confidence must be a number from 0 to 100, got {value!r}")
    return float(value)


def corpus_draft(raw: bytes, default_confidence: float | None) -> Draft:
    row = _loads(raw)
    text = row.get("text")
    if not isinstance(text, str):
        raise BadLine("missing key 'text'" if text is None else f"text must be a string, got {type(text).__name__}")
    context = row.get("context")
    if context is not None and not isinstance(context, dict):
        raise BadLine(f"context must be an object with operator_uid, recipient and messages, got {type(context).__name__}")
    return Draft(_row_id(row), text, context, _confidence(row.get("confidence"), default_confidence))


def log_draft(raw: bytes, default_confidence: float | None) -> Draft:
    event = _loads(raw)
    version = event.get("schema_version")
    if not (isinstance(version, str) and version.startswith("redline.decision/")):
        raise BadLine(f"schema_version is {version!r}, not redline.decision/...")
    if event.get("action") is not None:
        raise Skip("action")  # an action is decided from its input, which the log does not keep
    excerpt = event.get("text_excerpt")
    chars = event.get("text_chars")
    try:
        outcome = Outcome(event.get("outcome"))
    except ValueError as exc:
        raise BadLine(f"outcome {event.get('outcome')!r} is not an outcome") from exc
    rules = event.get("rules_fired")
    if not isinstance(excerpt, str) or not isinstance(rules, list):
        raise BadLine("a decision event needs text_excerpt and rules_fired")
    partial = not isinstance(chars, int) or chars > len(excerpt) or bool(event.get("erased_total"))
    if default_confidence is None:
        confident = outcome is Outcome.EXECUTE and event.get("reason") == "clean"
        default_confidence = _CONFIDENT if confident else _NOT_CONFIDENT
    return Draft(
        _row_id(event),
        excerpt,
        None,
        default_confidence,
        recorded=Recorded(outcome, tuple(sorted(str(r) for r in rules))),
        partial=partial,
        had_context=event.get("context") is not None,
    )
