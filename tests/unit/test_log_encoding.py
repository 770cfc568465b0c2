"""The decision log's line is written by orjson where it can be, and means what the
standard encoder's line meant: the same values read back, and the standard encoder's
very bytes wherever orjson would have written something else (NaN, a lone surrogate)."""

from __future__ import annotations

import json
import math
from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from redline import Decision, Gate, Outcome, RiskLevel
from redline.store.decision_event import event_fields, json_line


def _stdlib_line(fields: dict[str, Any]) -> bytes:
    """The line as it was written before orjson: the reference."""
    try:
        return (json.dumps(fields, ensure_ascii=False, separators=(",", ":"), default=str) + "\n").encode("utf-8")
    except UnicodeEncodeError:
        return (json.dumps(fields, ensure_ascii=True, separators=(",", ":"), default=str) + "\n").encode("ascii")


def _comparable(value: Any) -> Any:
    """A parsed line with NaN made equal to itself (and -0.0 told from 0.0)."""
    if isinstance(value, float):
        return "nan" if math.isnan(value) else (value, math.copysign(1.0, value))
    if isinstance(value, dict):
        return {k: _comparable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_comparable(v) for v in value]
    return value


def _decision(**changes: Any) -> Decision:
    fields: dict[str, Any] = {
        "id": "d00001",
        "outcome": Outcome.ESCALATE,
        "reason": "red_line_violation",
        "risk_level": RiskLevel.HIGH,
        "findings": (),
        "suppressed": (),
        "policy_name": "acme-support",
        "policy_hash": "sha256:abc123",
        "timings_ms": {"screen": 0.123456, "total": 0.5},
        "layers": {"screen": {"verdict": "violates", "hits": 2}, "judge": None},
    }
    fields.update(changes)
    return Decision(**fields)


_FLOATS = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([1e-5, 1e16, 1e22, -0.0, 0.1, 5e-324])
_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | _FLOATS
    | st.text(alphabet=st.characters(codec=None), max_size=30)  # surrogates and controls too
)
_VALUES = st.recursive(
    _SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=20
)


@settings(max_examples=400, deadline=None)
@given(layers=st.dictionaries(st.text(max_size=8), _VALUES, max_size=5), timing=_FLOATS)
def test_a_line_reads_back_as_the_standard_encoders_line(layers: dict[str, Any], timing: float) -> None:
    fields = event_fields(_decision(layers=layers, timings_ms={"total": timing}), "the text", now="2025-01-31T12:00:00.000Z")
    line, reference = json_line(fields), _stdlib_line(fields)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert _comparable(json.loads(line)) == _comparable(json.loads(reference))
    lone_surrogate = _has_lone_surrogate(fields)
    if _has_non_finite(json.loads(reference)) or lone_surrogate:  # orjson would write null, or refuse: today's bytes
        assert line == reference


def _has_lone_surrogate(fields: dict[str, Any]) -> bool:
    try:
        json.dumps(fields, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _has_non_finite(value: Any) -> bool:
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, dict):
        return any(_has_non_finite(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_non_finite(v) for v in value)
    return False


def test_a_non_finite_number_keeps_its_value_not_null() -> None:
    decision = _decision(timings_ms={"total": math.inf}, layers={"judge": {"score": math.nan, "all": [-math.inf]}})
    parsed = json.loads(json_line(event_fields(decision, "x")))
    assert parsed["timings_ms"]["total"] == math.inf
    assert math.isnan(parsed["layers"]["judge"]["score"]) and parsed["layers"]["judge"]["all"] == [-math.inf]


def test_orjson_writes_the_line_of_an_ordinary_decision(support_gate: Gate) -> None:
    """The fast encoder is in use (not always the fallback) on what the gate produces."""
    texts = ["I can't promise a refund, sorry.", "Write to maria@example.com — café ☕", "Plain thanks.\nBye"]
    for text in texts:
        fields = event_fields(support_gate.check(text), text)
        line = json_line(fields)
        assert line == orjson.dumps(fields) + b"\n"
        assert json.loads(line) == json.loads(_stdlib_line(fields))
    # where the two spell a number apart, the line is orjson's (the standard one is `1e-05`)
    fields = event_fields(_decision(layers={"judge": {"score": 1e-05}}), "x")
    assert b'"score":0.00001' in json_line(fields) and b'"score":1e-05' in _stdlib_line(fields)


def test_values_orjson_would_spell_its_own_way_go_to_the_standard_encoder() -> None:
    """A datetime, a dataclass, a str subclass: `str()` as before, not orjson's forms."""
    import dataclasses
    import enum
    from datetime import datetime, timezone

    @dataclasses.dataclass
    class Point:
        x: int

    class Mode(str, enum.Enum):
        WATCH = "watch"

    fields = {"at": datetime(2025, 1, 31, 12, tzinfo=timezone.utc), "p": Point(1), "mode": Mode.WATCH, "big": 2**70}
    assert json_line(fields) == _stdlib_line(fields)
