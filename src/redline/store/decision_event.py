"""The decision event: one versioned JSON line per decision (docs/review-pipeline.md).

Modelled on OPA's decision logs: a versioned event (`redline.decision/v1`) that carries
the decision's id, the policy hash, the outcome and the rules, never a message body,
and only a scrubbed excerpt of the text together with the list of what scrubbing
erased, so the redaction itself can be audited.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

import orjson

from redline.store.scrub import Scrubbed, scrub
from redline.types import Decision

SCHEMA_VERSION = "redline.decision/v1"
DEFAULT_PATH = "redline.decisions.jsonl"
EXCERPT_CHARS = 200
MAX_ERASED = 100  # a text with thousands of emails must not make a megabyte line
MAX_STRING_CHARS = 500  # any free string kept from context, layers or an error
# No line is longer than this, so that no one caller can rotate away everyone else's
# history with a few checks: a megabyte text makes a line of a few kilobytes.
MAX_LINE_BYTES = 16 * 1024
_SHRUNK_ITEMS = 20
# a judge's rationale may quote the text it judged: it stays on the decision, off the log
_BODY_KEYS = frozenset({"text", "texts", "messages", "body", "content", "rationale"})


# Values the gate itself produces ("violates", "single-sender", "check_error"): no
# detector matches letters without a digit, "@" or a separator, so they skip scrubbing.
_PLAIN = re.compile(r"[A-Za-z_\-]{0,32}")


# The few plain values the gate and the review flags repeat on every line, known plain
# already: a set lookup instead of a pattern match for each (bounded: any string may come).
_SEEN_PLAIN: set[str] = set()
_SEEN_PLAIN_MAX = 4096


def _clean_string(value: str) -> str:
    if value in _SEEN_PLAIN:
        return value
    if _PLAIN.fullmatch(value):
        if len(_SEEN_PLAIN) < _SEEN_PLAIN_MAX:
            _SEEN_PLAIN.add(value)
        return value
    return scrub(value).text[:MAX_STRING_CHARS]


# Ids the review pipeline makes itself (`pair-…`, `canary-…`, decision ids, policy hashes):
# random hex may look like a secret to the scrubber, and a scrubbed id pairs with nothing.
_ID_KEYS = frozenset({"id", "pair_id", "with_context_id", "without_context_id", "run_id", "policy_hash"})
_ID = re.compile(r"[A-Za-z0-9_.:-]{1,100}")


def _metadata(value: Any, *, ids: bool = False) -> Any:
    """JSON-safe copy of context or layer metadata with no message body left in it.

    A key that names a body (`text`, `messages`, `body`…) is kept only when its value is
    a count; free strings (an error that quotes its input) are scrubbed and cut. With
    `ids` (a review block), the pipeline's own ids under `_ID_KEYS` are kept as they are.
    """
    if isinstance(value, dict):
        kept: dict[str, Any] = {}
        for key, item in value.items():
            key = str(key)
            kind = type(item)
            if item is None or kind is bool or kind is int:
                kept[key] = item  # a count or a flag, even under a body's key; no call needed
                continue
            if kind is float:
                kept[key] = item if math.isfinite(item) else NonFinite(item)
                continue
            if key.lower() in _BODY_KEYS and not isinstance(item, (int, float)):
                continue
            if kind is str:  # most values: cleaned here rather than by one more call
                own_id = ids and key in _ID_KEYS and _ID.fullmatch(item)
                kept[key] = item if own_id else _clean_string(item)
                continue
            own_id = ids and key in _ID_KEYS and isinstance(item, str) and _ID.fullmatch(item)
            kept[key] = item if own_id else _metadata(item, ids=ids)
        return kept
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=str) if isinstance(value, (set, frozenset)) else value
        return [_metadata(item, ids=ids) for item in items]
    if isinstance(value, str):
        return _clean_string(value)
    if type(value) is float and not math.isfinite(value):
        return NonFinite(value)
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return _clean_string(getattr(value, "value", None) or str(value))


_second: tuple[int, str] = (-1, "")  # a whole second and its "YYYY-MM-DDTHH:MM:SS"


def _utc_now() -> str:
    """Now, UTC, to the millisecond: `2025-01-31T12:00:00.123Z` (formatted once a second)."""
    global _second
    second, millis = divmod(time.time_ns() // 1_000_000, 1000)
    known, prefix = _second  # one read of one tuple: never half of another thread's update
    if known != second:
        prefix = datetime.fromtimestamp(second, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
        _second = (second, prefix)
    return f"{prefix}.{millis:03d}Z"


@dataclass(frozen=True, slots=True)
class DecisionEventV1:
    """One line of the decision log; `to_dict` fixes the key order, `schema_version` first."""

    id: str
    time: str  # UTC, ISO-8601 with milliseconds: 2025-01-31T12:00:00.123Z
    policy: dict[str, str]  # {"name", "hash"}
    outcome: str
    reason: str
    risk_level: str
    rules_fired: tuple[str, ...]
    suppressed: tuple[dict[str, Any], ...]  # {"rule", "status", "cue"}
    layers: dict[str, Any]
    context: dict[str, Any] | None  # counts, mode, licensed_by_context; never bodies
    timings_ms: dict[str, float]
    text_chars: int
    text_excerpt: str  # the first 200 characters of the SCRUBBED text
    erased: tuple[dict[str, Any], ...]  # {"type", "detector", "start", "end"}, original offsets
    erased_total: int  # len(erased) unless it was capped at MAX_ERASED
    error: str | None = None
    action: dict[str, Any] | None = None  # an action's scores and tests; cue words scrubbed
    omitted: dict[str, int] = field(default_factory=dict)  # left out by the caps, by kind
    review: dict[str, Any] | None = None  # review flags, watch pairs, battery summaries
    schema_version: str = field(default=SCHEMA_VERSION)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": self.schema_version,
            "id": self.id,
            "time": self.time,
            "policy": dict(self.policy),
            "outcome": self.outcome,
            "reason": self.reason,
            "risk_level": self.risk_level,
            "rules_fired": list(self.rules_fired),
            "suppressed": [dict(s) for s in self.suppressed],
            "layers": self.layers,
            "context": self.context,
            "timings_ms": self.timings_ms,
            "text_chars": self.text_chars,
            "text_excerpt": self.text_excerpt,
            "erased": [dict(e) for e in self.erased],
            "erased_total": self.erased_total,
            "error": self.error,
            "action": self.action,
            "omitted": dict(self.omitted),
            "review": self.review,
        }

    def to_json_line(self) -> str:
        """One line of JSON that encodes as UTF-8 whatever it holds: a lone surrogate
        (which UTF-8 cannot carry) makes the whole line ASCII, with `\\udXXX` escapes."""
        return json_line(self.to_dict()).decode("utf-8")


class NonFinite(float):
    """A NaN or an infinity on its way to a log line. The standard encoder writes it as it
    writes any float (`NaN`, `Infinity`); orjson, which would write `null`, refuses a float
    subclass, so a line that holds one is written by the standard encoder, as before."""


def _number(value: float) -> float:
    return value if math.isfinite(value) else NonFinite(value)


_LINE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=str)
_ASCII_LINE = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"), default=str)
# Everything but JSON's own types goes to `_refuse`: subclasses (str enums, NonFinite),
# datetimes and dataclasses, which orjson would write in its own way, not as `str()` does.
_ORJSON_OPTIONS = orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def _refuse(value: Any) -> Any:
    raise TypeError(type(value).__name__)


def json_line(fields: dict[str, Any]) -> bytes:
    """`fields` as one line of UTF-8 JSON (see `DecisionEventV1.to_json_line`).

    orjson writes a decision's line about ten times faster than the standard encoder (a
    tenth of a check's time in the service went to it). It takes only JSON's own types
    here; anything else (a `NonFinite`, a lone surrogate, an int past 64 bits, a value
    that needs `str()`) makes it refuse, and the standard encoder writes the line as it
    always did. The two spell a few floats differently (`1e-05` and `0.00001`) and read
    back the same (`tests/unit/test_log_encoding.py`)."""
    try:
        return orjson.dumps(fields, default=_refuse, option=_ORJSON_OPTIONS | orjson.OPT_APPEND_NEWLINE)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        pass
    try:
        return (_LINE.encode(fields) + "\n").encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: the whole line in ASCII escapes
        return (_ASCII_LINE.encode(fields) + "\n").encode("ascii")


def review_event(
    id: str,
    *,
    policy: dict[str, str],
    outcome: str,
    reason: str,
    risk_level: str,
    excerpt: str,
    review: dict[str, Any],
    duration_ms: float = 0.0,
    now: str | None = None,
) -> DecisionEventV1:
    """A line of the review pipeline that is not one decision (a `battery_summary`), in the
    same versioned shape, so that `redline log` reads it like any other."""
    return DecisionEventV1(
        id=id,
        time=now or _utc_now(),
        policy=dict(policy),
        outcome=outcome,
        reason=reason,
        risk_level=risk_level,
        rules_fired=(),
        suppressed=(),
        layers={},
        context=None,
        timings_ms={"total": _number(round(float(duration_ms), 4))},
        text_chars=0,
        text_excerpt=_clean_string(excerpt)[:EXCERPT_CHARS],
        erased=(),
        erased_total=0,
        review=_metadata(review, ids=True),
    )


def event_from_decision(
    decision: Decision, text: Any, *, now: str | None = None, scrubbed: Scrubbed | None = None
) -> DecisionEventV1:
    """The log event for `decision` on `text`: scrubbed whole, THEN cut, so no half secret stays.

    `scrubbed`: `scrub(text)` when the caller has it already (the audit excerpt is cut
    from the same result); used only when `text` is a str, else `text` is scrubbed here."""
    fields = event_fields(decision, text, now=now, scrubbed=scrubbed)
    del fields["schema_version"]
    return DecisionEventV1(**fields)


def event_fields(
    decision: Decision, text: Any, *, now: str | None = None, scrubbed: Scrubbed | None = None
) -> dict[str, Any]:
    """The fields of `event_from_decision(...)`, in the order and shape of its `to_dict()`
    (tuples where it has lists: the same JSON). The decision log writes a line from them
    without building the event; `tests/unit/test_decision_log.py` holds the two equal."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
        scrubbed = None
    if not isinstance(text, str):  # the gate answers non-text with check_error; log no body
        text, scrubbed = "", None
    if scrubbed is None:
        scrubbed = scrub(text)
    return {
        "schema_version": SCHEMA_VERSION,
        "id": decision.id,
        "time": now or _utc_now(),
        "policy": {"name": decision.policy_name, "hash": decision.policy_hash},
        "outcome": decision.outcome.value,
        "reason": decision.reason,
        "risk_level": decision.risk_level.value,
        "rules_fired": tuple(decision.rules_fired),
        "suppressed": tuple(
            {"rule": f.rule, "status": f.status.value, "cue": _metadata(f.cue)} for f in decision.suppressed
        ),
        "layers": _metadata(decision.layers),
        "context": _metadata(decision.context) if decision.context is not None else None,
        "timings_ms": {k: _number(round(float(v), 4)) for k, v in decision.timings_ms.items()},
        "text_chars": len(text),
        "text_excerpt": scrubbed.text[:EXCERPT_CHARS],
        "erased": tuple(e.to_dict() for e in scrubbed.erased[:MAX_ERASED]),
        "erased_total": len(scrubbed.erased),
        "error": _clean_string(decision.error) if decision.error is not None else None,
        "action": _metadata(decision.action.to_dict()) if decision.action is not None else None,
        "omitted": dict(decision.omitted),
        "review": _metadata(decision.review, ids=True) if decision.review is not None else None,
    }


def shrink_event(event: DecisionEventV1) -> DecisionEventV1:
    """The event cut to fit MAX_LINE_BYTES: lists kept to their first items (what is left
    out is counted under `omitted`), metadata dropped last; ids, outcome and rules stay."""
    omitted = dict(event.omitted)
    omitted["suppressed"] = omitted.get("suppressed", 0) + max(len(event.suppressed) - _SHRUNK_ITEMS, 0)
    omitted["rules_fired"] = max(len(event.rules_fired) - 10 * _SHRUNK_ITEMS, 0)
    smaller = dataclasses.replace(
        event,
        rules_fired=event.rules_fired[: 10 * _SHRUNK_ITEMS],
        suppressed=event.suppressed[:_SHRUNK_ITEMS],
        erased=event.erased[:_SHRUNK_ITEMS],
        omitted=omitted,
    )
    if len(smaller.to_json_line().encode("utf-8")) <= MAX_LINE_BYTES:
        return smaller
    review = event.review
    if review is not None:  # counts and verdicts stay; long lists (a battery's fixtures) are cut
        review = {k: (v[:5] if isinstance(v, list) else v) for k, v in review.items()}
        review["shrunk"] = True
    return dataclasses.replace(
        smaller, layers={"dropped": "over the line limit"}, context=None, suppressed=(), rules_fired=smaller.rules_fired[:50],
        review=review,
    )
