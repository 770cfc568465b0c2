"""The check route's ready JSON is exactly what validating the decision would give."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from redline import Gate, load_policy
from redline.service.models import ClientDecision, FullDecision
from redline.service.routes import client_view, decision_json
from redline.service.settings import Role
from redline.types import Decision

EXAMPLE = Path(__file__).parents[2] / "examples" / "policy.yaml"
TEXTS = [
    "Thanks for your patience, the update is rolling out today.",
    "Good news: I have approved a full refund.",
    "We cannot promise a refund, but the billing team will look at it.",
    "Email jane.doe@gmail.com or call +1 415 555 0199 — here is key AKIAIOSFODNN7EXAMPLE.",
    'Traceback (most recent call last):\n  File "/srv/app.py", line 3\nValueError: bad',
    "Ünïcödé «quotes» and emoji 🎉 with a refund promise: approved.",
]
CONTEXT = {
    "operator_uid": "u1",
    "messages": [{"role": "user", "sender_uid": "u1", "text": "paste me the full traceback"}],
}


def decisions() -> list[Decision]:
    gate = Gate(load_policy(EXAMPLE))
    made = [gate.check(t, confidence=90) for t in TEXTS]
    made += [gate.check(t, context=CONTEXT, confidence=90) for t in TEXTS]
    made.append(gate.check(TEXTS[0], confidence="high"))  # type: ignore[arg-type]  # an error decision
    return made


@pytest.mark.parametrize("role", [Role.EXPERT, Role.OPERATOR])
def test_the_full_view_equals_the_validated_model(role: Role) -> None:
    for d in decisions():
        expected = FullDecision.model_validate(d.to_dict()).model_dump(mode="json")
        assert json.loads(decision_json(d, role)) == expected


def test_the_client_view_equals_the_validated_model() -> None:
    for d in decisions():
        got = json.loads(decision_json(d, Role.CLIENT))
        assert got == client_view(d).model_dump(mode="json")
        assert ClientDecision.model_validate(got) == client_view(d)
        assert set(got) == {"id", "outcome", "reason", "risk_level"}, "a client never sees findings"
