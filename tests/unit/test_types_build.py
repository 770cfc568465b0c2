"""The cheap builders of Finding and Decision give exactly what the constructors give."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle

import pytest

from redline.types import (
    Decision, Finding, Outcome, RiskLevel, Severity, Status, build_decision, build_finding, with_review,
)


def _finding_args(i: int) -> tuple[object, ...]:
    return (f"skill:rule-{i}", Severity.BLOCK, i, i + 6, "refund", Status.NEGATED, "no", "screen", None, "refund",
            bool(i % 2), "a detail" if i % 3 else None)


@pytest.mark.parametrize(("cls", "build"), [(Finding, build_finding), (Decision, build_decision)])
def test_builders_take_the_fields_in_order(cls: type, build: object) -> None:
    assert list(inspect.signature(build).parameters) == [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]


@pytest.mark.parametrize("i", range(4))
def test_built_finding_is_the_constructed_one(i: int) -> None:
    built, made = build_finding(*_finding_args(i)), Finding(*_finding_args(i))  # type: ignore[arg-type]
    assert type(built) is Finding
    assert built == made and hash(built) == hash(made) and repr(built) == repr(made)
    for f in dataclasses.fields(Finding):
        assert getattr(built, f.name) == getattr(made, f.name), f.name
    assert pickle.loads(pickle.dumps(built)) == made
    assert copy.deepcopy(built) == made
    assert dataclasses.replace(built, text="x") == dataclasses.replace(made, text="x")
    assert built.to_dict() == made.to_dict() and built.explanation == made.explanation
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.rule = "other"  # type: ignore[misc]
    assert not hasattr(built, "__dict__")


def test_built_decision_is_the_constructed_one() -> None:
    finding = Finding(*_finding_args(1))  # type: ignore[arg-type]
    args = dict(
        id="d1", outcome=Outcome.ESCALATE, reason="red_line_violation", risk_level=RiskLevel.HIGH,
        findings=(finding,), suppressed=(), policy_name="p", policy_hash="h", timings_ms={"total": 1.0},
        layers={"screen": {"hits": 1}}, error=None, context=None, action=None,
        omitted={"findings": 0, "suppressed": 0},
    )
    built, made = build_decision(**args), Decision(**args)  # type: ignore[arg-type]
    assert type(built) is Decision and built == made and repr(built) == repr(made)
    for f in dataclasses.fields(Decision):
        assert getattr(built, f.name) == getattr(made, f.name), f.name
    assert built.to_dict() == made.to_dict()
    assert pickle.loads(pickle.dumps(built)) == made
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.outcome = Outcome.EXECUTE  # type: ignore[misc]


def test_per_check_values_built_the_same_way_are_the_constructed_ones() -> None:
    from array import array

    from redline.decide.resolve import Resolution, resolve
    from redline.screen.engine import ScreenResult, _result
    from redline.screen.normalize import Shadow, _shadow, normalize

    finding = Finding(*_finding_args(2))  # type: ignore[arg-type]
    built = _result((finding,), (), 3, 1, 2)
    assert type(built) is ScreenResult and built == ScreenResult((finding,), (), 3, 1, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.hits = 0  # type: ignore[misc]
    starts, ends = array("l", [0, 1]), array("l", [1, 2])
    shadow = _shadow("Ab", "ab", starts, ends, ())
    assert type(shadow) is Shadow and shadow == Shadow("Ab", "ab", starts, ends, ()) and shadow.span(0, 2) == (0, 2)
    made = normalize("Refund  now")
    assert made == Shadow(made.original, made.text, made._starts, made._ends, made._maps) and made.text == "refund now"
    # resolutions are shared values, equal to fresh ones
    one = resolve((finding,), confidence=None, min_confidence=0)
    assert one == Resolution(Outcome.ESCALATE, "red_line_violation", RiskLevel.HIGH)
    assert resolve((finding,), confidence=None, min_confidence=0) is one
    assert resolve((), confidence=None, min_confidence=0) == Resolution(Outcome.EXECUTE, "clean", RiskLevel.LOW)
    assert resolve((), confidence=None, min_confidence=50) == Resolution(Outcome.DEFER, "below_auto_send_threshold",
                                                                        RiskLevel.LOW)


def test_a_decision_with_its_review_block_is_the_replaced_one() -> None:
    finding = Finding(*_finding_args(3))  # type: ignore[arg-type]
    made = Decision(
        id="d2", outcome=Outcome.DEFER, reason="low_confidence", risk_level=RiskLevel.MEDIUM, findings=(finding,),
        suppressed=(finding,), policy_name="p", policy_hash="h", timings_ms={"total": 2.0}, layers={"judge": {}},
        error="e", context={"licensed_by_context": True}, action=None, omitted={"findings": 1, "suppressed": 0},
        review={"old": True},
    )
    review = {"mode": "enforce", "answer": "single"}
    built, replaced = with_review(made, review), dataclasses.replace(made, review=review)
    assert type(built) is Decision and built == replaced and repr(built) == repr(replaced)
    for f in dataclasses.fields(Decision):  # every field carried over, the review block replaced
        assert getattr(built, f.name) is getattr(replaced, f.name), f.name
    assert made.review == {"old": True}
