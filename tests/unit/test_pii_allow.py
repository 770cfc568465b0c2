"""`detectors.pii.allow`: the organisation's own contact details are not third-party PII.

An entry exempts exactly what it spells (an address, a number, a domain and its
subdomains), is visible in the decision as set aside with the entry that exempted it,
and the schema refuses any entry that could switch a whole type off."""

from __future__ import annotations

import pytest

from redline import Gate, Outcome, parse_policy
from redline.errors import PolicyError

ALLOW = '["support@acme.example", "@acme.example", "+1 800 555 0100", "500 Harbor Way, Oakland, CA 94607"]'


def gate(pii: str) -> Gate:
    return Gate(parse_policy(f"version: 1\nname: t\nauto_send: {{min_confidence: 0}}\ndetectors:\n  pii: {pii}\n"))


ALLOWING = gate(f"{{action: escalate, allow: {ALLOW}}}")


@pytest.mark.parametrize(
    "text",
    [
        "Write to support@acme.example and we will sort it out.",
        "Our billing team is at Billing@Acme.Example.",
        "The EU desk is eu-help@eu.acme.example.",
        "Call us on +1 800 555 0100, or (800) 555-0100, or 1-800-555-0100.",
        "Send returns to 500 Harbor Way, Oakland, CA 94607.",
    ],
)
def test_the_organisations_own_details_execute(text: str) -> None:
    decision = ALLOWING.check(text, confidence=100)
    assert decision.outcome is Outcome.EXECUTE, decision.to_dict()
    assert decision.suppressed and all(f.cue for f in decision.suppressed)
    assert "allowed by detectors.pii.allow" in decision.suppressed[0].explanation


@pytest.mark.parametrize(
    "text",
    [
        "Her address is jane.doe@gmail.example.",
        "Write to support@notacme.example instead.",
        "Write to support@acme.example.evil.example instead.",
        "Call her on +1 415 555 0134.",
        "Her card is 4111 1111 1111 1111.",
        "She lives at 501 Harbor Way, Oakland, CA 94607.",
    ],
)
def test_a_third_partys_details_still_escalate(text: str) -> None:
    decision = ALLOWING.check(text, confidence=100)
    assert decision.outcome is Outcome.ESCALATE
    assert decision.rules_fired == ["detector:pii"]


def test_the_plain_form_still_works_and_allows_nothing() -> None:
    decision = gate("escalate").check("Write to support@acme.example.", confidence=100)
    assert decision.outcome is Outcome.ESCALATE


def test_the_mapping_form_turns_the_detector_off_too() -> None:
    assert gate("{action: off}").check("Call her on +1 415 555 0134.", confidence=100).outcome is Outcome.EXECUTE


@pytest.mark.parametrize(
    ("entry", "says"),
    [
        ("@com", "never '@com'"),
        ("*@acme.example", "a pattern"),
        ("EMAIL_ADDRESS", "never names a whole type"),
        ("PHONE_NUMBER", "never names a whole type"),
        ("support@", "not a whole e-mail address"),
        ("", "a pattern, not a value"),
    ],
)
def test_an_entry_that_could_exempt_more_than_it_spells_is_refused_at_load(entry: str, says: str) -> None:
    with pytest.raises(PolicyError) as info:
        gate(f'{{action: escalate, allow: ["{entry}"]}}')
    assert says in str(info.value)
    assert "allow" in str(info.value)


def test_the_schema_documents_the_allow_list() -> None:
    from redline.policy.schema import json_schema

    schema = json_schema()
    settings = schema["$defs"]["PiiSettings"]
    assert set(settings["properties"]) == {"action", "allow"}
    assert "never exempts a whole type" in settings["properties"]["allow"]["description"]


def test_errors_in_the_mapping_form_name_the_key_and_the_fix() -> None:
    with pytest.raises(PolicyError) as info:
        gate("{actoin: flag}")
    assert "detectors.pii.actoin" in str(info.value) and "did you mean `action`?" in str(info.value)
    with pytest.raises(PolicyError) as info:
        gate("{action: nope}")
    assert "use one of refuse | escalate | flag | off" in str(info.value)
    with pytest.raises(PolicyError) as info:
        gate("false")
    assert "detectors.pii: false is not allowed here. Fix: use one of refuse | escalate | flag | off" in str(info.value)
