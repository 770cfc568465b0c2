"""The judge layer inside the gate: precedence, holds, failures, retries, cache, `when`."""

from __future__ import annotations

import json
import pytest

from redline import Gate, Outcome, parse_policy
from redline.judges import CallStatus
from redline.judges.testing import ScriptedJudge
from redline.store.decision_event import event_from_decision

POLICY = """
version: 1
name: judged
auto_send: {min_confidence: 0}
skills:
  - slug: billing
    red_lines:
      - id: no-refund-promise
        rule: Never promise a refund.
        severity: block
      - id: no-credit
        rule: Do not offer account credits.
        severity: flag
judge: {kind: heuristic, when: WHEN}
"""
REFUND = "billing:no-refund-promise"
CREDIT = "billing:no-credit"
PARAPHRASE = "Don't worry, we'll put the money back on your card by Friday."


def gate(judge: ScriptedJudge, when: str = "always") -> Gate:
    return Gate(parse_policy(POLICY.replace("WHEN", when)), judge=judge)


def test_a_judge_violation_fires_a_rule_the_screen_missed() -> None:
    d = gate(ScriptedJudge({REFUND: "violates"})).check(PARAPHRASE)
    assert d.outcome is Outcome.ESCALATE
    assert d.rules_fired == [REFUND]
    assert [f.layer for f in d.findings] == ["judge"]
    assert d.layers["decided_by"] == "judge"
    assert d.layers["agreement"] is False
    assert d.layers["disagreements"] == [{"rule": REFUND, "screen": "clear", "judge": "violates"}]


def test_a_judge_clear_never_clears_a_screen_finding() -> None:
    d = gate(ScriptedJudge(default="clear")).check("Your refund is approved.")
    assert d.outcome is Outcome.ESCALATE
    assert d.layers["decided_by"] == "screen"
    assert [f.layer for f in d.findings] == ["screen"]


def test_both_layers_agreeing_is_recorded() -> None:
    d = gate(ScriptedJudge({REFUND: "violates"})).check("Your refund is approved.")
    assert d.layers["agreement"] is True and d.layers["decided_by"] == "both"
    assert [f.layer for f in d.findings] == ["screen"]  # one finding per rule, the screen's span


def test_uncertain_on_a_block_rule_holds_the_draft() -> None:
    d = gate(ScriptedJudge({REFUND: "uncertain"})).check("Thanks, talk soon.")
    assert (d.outcome, d.reason) == (Outcome.ESCALATE, "judge_uncertain")
    assert d.rules_fired == []


def test_uncertain_on_a_flag_rule_defers_to_review() -> None:
    d = gate(ScriptedJudge({CREDIT: "uncertain"})).check("Thanks, talk soon.")
    assert (d.outcome, d.reason) == (Outcome.DEFER, "judge_uncertain")


def test_all_clear_lets_a_clean_draft_through() -> None:
    d = gate(ScriptedJudge()).check("Thanks, talk soon.")
    assert d.outcome is Outcome.EXECUTE and d.layers["agreement"] is True


@pytest.mark.parametrize("status", [CallStatus.ERROR, CallStatus.TIMEOUT, CallStatus.UNPARSEABLE])
def test_a_failed_call_is_uncertain_never_clear(status: CallStatus) -> None:
    judge = ScriptedJudge(status=status)
    d = gate(judge).check("Thanks, talk soon.")
    assert (d.outcome, d.reason) == (Outcome.ESCALATE, "judge_unavailable")
    layer = d.layers["judge"]
    assert layer["status"] == status.value
    assert {r["verdict"] for r in layer["rules"]} == {"uncertain"}


def test_a_judge_that_raises_is_an_error_not_a_crash() -> None:
    d = gate(ScriptedJudge(raises=RuntimeError("boom"))).check("Thanks, talk soon.")
    assert d.outcome is Outcome.ESCALATE and d.error is None
    assert d.layers["judge"]["status"] == "error" and "boom" in d.layers["judge"]["error"]
    assert d.layers["judge"]["attempts"] == 2


def test_one_retry_recovers_from_one_failure() -> None:
    judge = ScriptedJudge({REFUND: "violates"}, fail_first=1)
    d = gate(judge).check(PARAPHRASE)
    assert d.layers["judge"]["status"] == "ok" and d.layers["judge"]["attempts"] == 2
    assert d.outcome is Outcome.ESCALATE and len(judge.calls) == 2


def test_only_one_retry() -> None:
    judge = ScriptedJudge(fail_first=5)
    d = gate(judge).check("Thanks, talk soon.")
    assert len(judge.calls) == 2 and d.reason == "judge_unavailable"


def test_a_slow_judge_times_out() -> None:
    policy = parse_policy(POLICY.replace("WHEN", "always, timeout_s: 0.05"))
    judge = ScriptedJudge(delay_s=0.5)
    d = Gate(policy, judge=judge).check("Thanks, talk soon.")
    assert d.layers["judge"]["status"] == "timeout" and d.reason == "judge_unavailable"
    assert d.timings_ms["judge"] < 400  # two attempts of 50 ms, not the judge's 500 ms


def test_good_answers_are_cached_and_failures_are_not() -> None:
    good = ScriptedJudge({REFUND: "violates"})
    g = gate(good)
    first, second = g.check(PARAPHRASE), g.check(PARAPHRASE)
    assert len(good.calls) == 1
    assert (first.layers["judge"]["cached"], second.layers["judge"]["cached"]) == (False, True)
    assert second.outcome is Outcome.ESCALATE
    bad = ScriptedJudge(status=CallStatus.ERROR)
    g = gate(bad)
    g.check(PARAPHRASE), g.check(PARAPHRASE)
    assert len(bad.calls) == 4


def test_a_changed_policy_does_not_reuse_a_cached_verdict() -> None:
    judge = ScriptedJudge({REFUND: "violates"})
    gate(judge).check(PARAPHRASE)
    Gate(parse_policy(POLICY.replace("WHEN", "always").replace("Never promise", "Never, ever promise")), judge=judge).check(PARAPHRASE)
    assert len(judge.calls) == 2


def test_when_on_hits_skips_texts_the_screen_saw_nothing_in() -> None:
    judge = ScriptedJudge({REFUND: "violates"})
    g = gate(judge, "on_hits")
    d = g.check(PARAPHRASE)
    assert judge.calls == [] and d.outcome is Outcome.EXECUTE
    assert d.layers["judge"]["called"] is False and "on_hits" in d.layers["judge"]["why"]
    g.check("I can't promise a refund.")  # a hit, set aside as negated: the judge is asked
    assert len(judge.calls) == 1


def test_when_never_does_not_call() -> None:
    judge = ScriptedJudge({REFUND: "violates"})
    d = gate(judge, "never").check(PARAPHRASE)
    assert judge.calls == [] and d.outcome is Outcome.EXECUTE


def test_a_judge_blind_to_negation_cannot_overrule_a_negated_hit() -> None:
    blind = ScriptedJudge({REFUND: "violates"}, reads_context=False)
    d = gate(blind).check("I can't promise a refund, but billing will reply.")
    assert d.outcome is Outcome.EXECUTE
    assert d.layers["judge"]["set_aside"] == [REFUND]
    reader = ScriptedJudge({REFUND: "violates"}, reads_context=True)
    assert gate(reader).check("I can't promise a refund, but billing will reply.").outcome is Outcome.ESCALATE


def test_the_judge_sees_the_screen_but_never_the_conversation() -> None:
    judge = ScriptedJudge()
    gate(judge).check("I can't promise a refund.", context={"messages": [{"role": "user", "text": "refund me"}]})
    context = judge.calls[0].context
    assert context is not None and context.messages == ()  # context relaxes only through the license
    assert context.screen[REFUND].suppressed == ("negated",)


def test_the_decision_log_carries_judge_status_and_latency_but_no_rationale() -> None:
    d = gate(ScriptedJudge({REFUND: "violates"})).check(PARAPHRASE)
    event = event_from_decision(d, PARAPHRASE).to_dict()
    judge = event["layers"]["judge"]
    assert judge["status"] == "ok" and judge["latency_ms"] >= 0 and judge["judge"] == "scripted"
    assert event["layers"]["decided_by"] == "judge" and event["layers"]["agreement"] is False
    assert "rationale" not in json.dumps(event)
    assert "judge" in event["timings_ms"]


def test_a_policy_judge_is_built_from_the_policy() -> None:
    g = Gate(parse_policy(POLICY.replace("WHEN", "always")))
    assert g.judge is not None and g.judge.name == "heuristic"
    assert g.check(PARAPHRASE).rules_fired == [REFUND]
    assert Gate(parse_policy(POLICY.replace("judge: {kind: heuristic, when: WHEN}", ""))).judge is None


def test_a_blind_judge_leaves_detector_rules_to_the_detector() -> None:
    policy = parse_policy(POLICY.replace("WHEN", "always") + 'soul:\n  boundaries:\n    never: ["Never reveal credentials, API keys or passwords."]\n')
    blind = Gate(policy, judge=ScriptedJudge({"soul:never:0": "violates"}, reads_context=False))
    d = blind.check("Here is what the server logged: a timeout.")
    assert d.outcome is Outcome.EXECUTE and d.layers["judge"]["set_aside"] == ["soul:never:0"]
    reader = Gate(policy, judge=ScriptedJudge({"soul:never:0": "violates"}, reads_context=True))
    assert reader.check("Here is what the server logged: a timeout.").outcome is Outcome.ESCALATE
