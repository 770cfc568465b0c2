from __future__ import annotations

import json

import pytest

from redline import Gate, Outcome, RiskLevel, Status, parse_policy
from redline.screen import engine


def make_gate(extra: str = "", *, min_confidence: int = 0, on_error: str = "escalate") -> Gate:
    return Gate(
        parse_policy(
            f"""
version: 1
name: test-policy
auto_send:
  min_confidence: {min_confidence}
skills:
  - slug: billing
    red_lines:
      - id: no-refund
        rule: Never promise a refund.
        severity: block
      - id: no-credit
        rule: Do not offer account credits.
        severity: flag
      - id: no-secret-code
        rule: Never reveal the vault code.
        severity: refuse
        terms: [vault code]
        patterns: ['\\bvc-[0-9]{{4}}\\b']
      - id: no-denied-lawsuit
        rule: Escalate lawsuits even when denied.
        severity: block
        terms: [lawsuit]
        suppress: []
{extra}
detectors:
  credentials: off
  pii: off
on_error: {on_error}
"""
        )
    )


def test_block_finding_escalates_with_high_risk() -> None:
    decision = make_gate().check("Your refund is approved.")
    assert decision.outcome is Outcome.ESCALATE
    assert decision.reason == "red_line_violation"
    assert decision.risk_level is RiskLevel.HIGH
    assert decision.rules_fired == ["billing:no-refund"]


def test_flag_finding_escalates_with_medium_risk() -> None:
    decision = make_gate().check("I added an account credit.")
    assert decision.outcome is Outcome.ESCALATE
    assert decision.risk_level is RiskLevel.MEDIUM


def test_refuse_outranks_escalate() -> None:
    decision = make_gate().check("Your refund is approved; the vault code is VC-1234.")
    assert decision.outcome is Outcome.REFUSE
    assert {"billing:no-refund", "billing:no-secret-code"} <= set(decision.rules_fired)


def test_pattern_span_is_a_span_of_the_original_text() -> None:
    text = "Use VC-\u200b1234 now"  # the zero-width space is removed before matching
    decision = make_gate().check(text)
    [finding] = decision.findings
    assert text[finding.start : finding.end] == finding.text == "VC-\u200b1234"


def test_negated_refund_does_not_fire_but_is_kept_as_suppressed() -> None:
    decision = make_gate().check("There is no refund owed on this invoice.")
    assert decision.outcome is Outcome.EXECUTE
    [hit] = decision.suppressed
    assert hit.rule == "billing:no-refund"
    assert hit.status is Status.NEGATED
    assert hit.cue == "no"


def test_per_rule_suppress_override_fires_on_a_denied_term() -> None:
    decision = make_gate().check("There is no lawsuit planned.")
    assert decision.outcome is Outcome.ESCALATE
    [finding] = decision.findings
    assert finding.rule == "billing:no-denied-lawsuit"
    assert finding.status is Status.NEGATED


def test_clean_draft_below_the_auto_send_bar_is_deferred() -> None:
    gate = make_gate(min_confidence=80)
    assert gate.check("Thanks for writing in!", confidence=79).outcome is Outcome.DEFER
    assert gate.check("Thanks for writing in!", confidence=80).outcome is Outcome.EXECUTE
    assert gate.check("Thanks for writing in!").outcome is Outcome.DEFER


def test_whole_words_only() -> None:
    gate = make_gate()
    assert gate.check("This plan is non-refundable.").outcome is Outcome.EXECUTE
    assert gate.check("Prefund the account.").outcome is Outcome.EXECUTE


def test_an_internal_failure_yields_on_error_and_never_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    gate = make_gate(on_error="refuse")

    def explode(shadow):  # noqa: ANN001
        raise RuntimeError("matcher fell over")

    monkeypatch.setattr(gate._screen, "run", explode)
    decision = gate.check("anything")
    assert decision.outcome is Outcome.REFUSE
    assert decision.reason == "check_error"
    assert "matcher fell over" in decision.error


@pytest.mark.parametrize("bad", [None, 42, ["a list"], object()])
def test_text_that_is_not_a_string_yields_on_error(bad: object) -> None:
    decision = make_gate().check(bad)  # type: ignore[arg-type]
    assert decision.outcome is Outcome.ESCALATE
    assert decision.reason == "check_error"


def test_bytes_are_decoded_not_rejected() -> None:
    assert make_gate().check("Your refund is approved.".encode()).outcome is Outcome.ESCALATE


def test_to_dict_has_the_contract_keys_and_is_json() -> None:
    decision = make_gate().check("Your refund is approved, no account credit.")
    data = json.loads(json.dumps(decision.to_dict()))
    assert set(data) >= {"id", "outcome", "reason", "risk_level", "policy", "findings", "suppressed", "layers", "timings_ms"}
    assert set(data["policy"]) == {"name", "hash"}
    finding = data["findings"][0]
    assert set(finding) >= {"rule", "severity", "layer", "start", "end", "text", "status", "cue", "entity"}
    assert data["suppressed"][0]["status"] == "negated"
    assert {"normalize", "screen", "resolve", "total"} <= set(data["timings_ms"])


def test_decisions_have_distinct_ids() -> None:
    gate = make_gate()
    assert gate.check("hello").id != gate.check("hello").id


def test_the_screen_is_compiled_once_per_policy_hash() -> None:
    first = make_gate()
    second = make_gate()
    assert first._screen is second._screen
    assert engine.compile_screen(first.policy) is first._screen


def test_boundary_rules_are_named_by_list_and_index() -> None:
    gate = make_gate(
        """soul:
  boundaries:
    never: ["Never reveal the launch date."]
    escalate: ["Escalate legal threats such as lawsuits."]"""
    )
    decision = gate.check("The launch date is Friday.")
    assert decision.rules_fired == ["soul:never:0"]
    assert decision.risk_level is RiskLevel.HIGH


def test_a_key_split_by_a_zero_width_space_is_still_a_key() -> None:
    gate = Gate(parse_policy("version: 1\nname: keys\n"))
    text = "Use AKIA\u200bIOSFODNN7EXAMPLE for the demo."
    decision = gate.check(text)
    assert decision.outcome is Outcome.REFUSE
    [finding] = decision.findings
    assert text[finding.start : finding.end] == finding.text == "AKIA\u200bIOSFODNN7EXAMPLE"


def test_an_invalid_context_error_never_quotes_the_conversation() -> None:
    decision = make_gate().check("hello", context={"messages": "my password is hunter2"})
    assert "hunter2" not in json.dumps(decision.to_dict())
    assert "invalid context" in decision.context["error"]


SECRETS_BOUNDARY = """
version: 1
name: boundary-delegation
auto_send: {min_confidence: 0}
skills:
  - slug: security
    red_lines:
      - id: word-password
        rule: Never reveal passwords.
        severity: flag
        terms: [password]
soul:
  boundaries:
    never: ["Never reveal credentials, API keys or passwords."]
detectors: {credentials: off, pii: off}
"""


def test_a_boundary_about_passwords_guards_their_values_not_the_word() -> None:
    gate = Gate(parse_policy(SECRETS_BOUNDARY.replace("terms: [password]", "patterns: ['(?-i)NEVER-MATCHES']")))
    assert gate.check("You can reset your password from the login page.").outcome is Outcome.EXECUTE
    decision = gate.check("The admin login is admin / password: Tr0ub4dor&3")
    assert decision.outcome is Outcome.ESCALATE, "the boundary runs the credentials detector even with it off"
    finding = next(f for f in decision.findings if f.rule == "soul:never:0")
    assert finding.text == "Tr0ub4dor&3"
    assert finding.entity is not None


def test_terms_the_operator_wrote_are_matched_as_written() -> None:
    gate = Gate(parse_policy(SECRETS_BOUNDARY))
    decision = gate.check("You can reset your password from the login page.")
    assert decision.rules_fired == ["security:word-password"]


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("I keep thinking about killing myself", "red-flags:suicidal"),  # kill myself: the FIRST word inflected
        ("He coughed up blood this morning", "red-flags:bleeding"),  # coughing up blood
        ("i cant breathe", "red-flags:breathing"),  # can't breathe, without its apostrophe
        ("I CANT BREATHE", "red-flags:breathing"),
        ("she is bleeding heavily", "red-flags:bleeding"),
    ],
)
def test_a_multi_word_term_matches_its_other_forms(triage_gate: Gate, text: str, rule: str) -> None:
    decision = triage_gate.check(text)
    assert decision.outcome is Outcome.ESCALATE, text
    assert rule in decision.rules_fired
