"""One text analysis shared by several policies decides exactly what each policy decides alone."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redline import Gate, Policy, load_policy
from redline.screen import analysis as analysis_module
from redline.screen.detectors import shared_detector
from redline.screen.analysis import TextAnalysis
from redline.screen.context import TextContext
from redline.screen.detectors.base import Detection
from redline.screen.normalize import normalize
from redline.types import Decision

FIXTURES = Path(__file__).parent.parent / "fixtures"
_SHIPPED = [
    Path(__file__).parent.parent.parent / "examples" / "policy.yaml",
    Path(__file__).parent.parent.parent / "src" / "redline" / "service" / "demo" / "policy.yaml",
    FIXTURES / "suites" / "support" / "policy.yaml",
    FIXTURES / "suites" / "triage" / "policy.yaml",
    FIXTURES / "backtest" / "old.yaml",
    FIXTURES / "backtest" / "new.yaml",
]
_GATES = [Gate(load_policy(path)) for path in _SHIPPED]
_HEURISTIC = Gate(Policy.model_validate({
    "version": 1, "name": "judged", "judge": {"kind": "heuristic"},
    "skills": [{"slug": "b", "red_lines": [{"id": "r", "rule": "Never promise or approve a refund.", "severity": "block"}]}],
}))  # fmt: skip
_PROBES = [json.loads(line)["text"] for suite in ("support", "triage")
           for line in (FIXTURES / "suites" / suite / "probes.jsonl").read_text("utf-8").splitlines() if line.strip()]  # fmt: skip
_PIECES = _PROBES + [
    "re\U0001f389fund", "ref\u200bund", "AKIAIOSFODNN7EXAMPLE", "AKIA\u200bIOSFODNN7EXAMPLE", "jane.roe@mail.example.org",
    "support@example-support.example", "+1 800 555 0100", "4111 1111 1111 1111", "Traceback (most recent call last):",
    "  File \"/srv/app/main.py\", line 3, in run", "SELECT * FROM users;", "no", "not", "if", "my father", "last year",
    "\u202e", "\u0301", "\n", ". ", "\"", "\u201c", "\u201d", "r e f u n d", "refund " * 12,
]  # fmt: skip
_CONVERSATION = {"operator_uid": "op-1", "recipient": "u-1",
                 "messages": [{"role": "user", "sender_uid": "u-1", "text": "What is my account number?"}]}  # fmt: skip


def _stable(decision: Decision) -> str:
    """The decision less what differs between any two checks: its id, its timings and
    whether a judge's verdict came from its cache (and how long it took)."""
    row: dict[str, Any] = decision.to_dict()
    row.pop("id")
    row.pop("timings_ms")
    judge = row["layers"].get("judge") or {}
    judge.pop("latency_ms", None)
    judge.pop("cached", None)
    return json.dumps(row, sort_keys=True, ensure_ascii=True)


def _compare(gates: list[Gate], text: str, context: Any = None, confidence: float | None = None) -> None:
    alone = [_stable(gate.check(text, context=context, confidence=confidence)) for gate in gates]
    shared = TextAnalysis(text)
    together = [_stable(gate.check(shared, context=context, confidence=confidence)) for gate in gates]
    assert together == alone, text
    backwards = TextAnalysis(text)  # the order in which policies read it changes nothing
    assert [_stable(g.check(backwards, context=context, confidence=confidence)) for g in reversed(gates)] == alone[::-1]


drafts = st.lists(st.one_of(st.sampled_from(_PIECES), st.text(max_size=12)), max_size=14).map(" ".join)


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None, max_examples=120)
@given(
    text=drafts,
    picked=st.lists(st.sampled_from(range(len(_GATES) + 1)), min_size=2, max_size=4),
    confidence=st.none() | st.sampled_from([0, 50, 85, 100]),
    conversation=st.booleans(),
)
def test_shared_analysis_decides_as_each_policy_alone(
    text: str, picked: list[int], confidence: float | None, conversation: bool
) -> None:
    gates = [_GATES[i] if i < len(_GATES) else _HEURISTIC for i in picked]
    _compare(gates, text, _CONVERSATION if conversation else None, confidence)


def test_every_shipped_probe_is_decided_the_same_shared_or_alone() -> None:
    rng = random.Random(5)
    texts = _PROBES + [" ".join(rng.sample(_PIECES, 6)) for _ in range(60)]
    for text in texts:
        _compare(_GATES + [_HEURISTIC], text)


def test_generated_policies_share_an_analysis_byte_for_byte() -> None:
    """Two 200-rule policies made like the backtest benchmark's (term rules, derived
    topics, every detector on) over drafts made of their terms, negations and noise."""
    rng = random.Random(9)
    words = ["refund", "waiver", "lawsuit", "invoice", "credit", "penalty", "discount", "transfer", "account", "claim"]
    terms = sorted({f"{a} {b}" if rng.random() < 0.5 else a for a in words for b in words if a != b})

    def policy(name: str, chosen: list[str], detectors: dict[str, Any]) -> Gate:
        lines = [{"id": f"t{i}", "rule": f"Never mention {t}.", "severity": rng.choice(["block", "flag"]), "terms": [t]}
                 for i, t in enumerate(chosen)]  # fmt: skip
        lines.append({"id": "topic", "rule": "Never promise or approve a refund or a fee waiver.", "severity": "block"})
        return Gate(Policy.model_validate({"version": 1, "name": name, "detectors": detectors,
                                           "skills": [{"slug": "s", "red_lines": lines}]}))  # fmt: skip

    on = {"credentials": "refuse", "pii": "escalate", "technical_content": "flag"}
    allowing = {**on, "pii": {"action": "flag", "allow": ["jane.roe@mail.example.org"]}}
    gates = [policy("a", terms[:60], on), policy("b", terms[20:80], allowing), policy("c", terms[::2], {"pii": "off"})]
    fillers = ["no", "not", "we", "never", "if", "you", "have", "approved", "the", ".", ",", "last year", "\n"]
    for _ in range(150):
        text = " ".join(rng.choice(terms + fillers + _PIECES[-25:]) for _ in range(rng.randint(3, 40)))
        _compare(gates, text, confidence=rng.choice([None, 90]))


def test_the_text_alone_is_worked_out_once_for_every_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    normalised: list[str] = []

    def counting(text: str, *, join_symbols: bool = False) -> Any:
        normalised.append(text)
        return normalize(text, join_symbols=join_symbols)

    monkeypatch.setattr(analysis_module, "normalize", counting)
    detector = shared_detector("pii")
    detected: list[str] = []
    real_detect = detector.detect

    def detect(text: str) -> list[Detection]:
        detected.append(text)
        return real_detect(text)

    monkeypatch.setattr(detector, "detect", detect)
    support, demo = _GATES[2], _GATES[1]  # both run the PII detector
    text = "Write to jane.roe@mail.example.org about the re\U0001f389fund; I have approved a refund."
    shared = TextAnalysis(text)
    first, second = support.check(shared), demo.check(shared)
    assert first.findings and second.findings
    assert len(normalised) == 2  # the text, and its reading with the symbol joined: once each
    assert detected == [text]  # one PII scan for both policies and both readings
    support.check(text)
    demo.check(text)
    assert len(normalised) == 6 and len(detected) == 3  # checked alone, each pays for its own


def test_a_detector_object_of_its_own_keeps_its_own_findings() -> None:
    class Finds:
        name = "pii"

        def __init__(self, entity: str) -> None:
            self.entity = entity

        def detect(self, text: str) -> list[Detection]:
            return [Detection(0, 4, self.entity, "test")]

    shared = TextAnalysis("abcd efgh")
    one, other = Finds("A"), Finds("B")
    assert shared.detections(one)[0].entity == "A"
    assert shared.detections(other)[0].entity == "B"
    assert shared.joined.detections(one) is shared.detections(one)  # the joined reading reads the same original


def test_a_failure_in_the_analysis_is_each_check_s_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(text: str, *, join_symbols: bool = False) -> Any:
        raise RuntimeError("normalisation failed")

    monkeypatch.setattr(analysis_module, "normalize", broken)
    shared = TextAnalysis("I have approved a refund.")
    decisions = [gate.check(shared) for gate in _GATES[:3]]
    assert [d.reason for d in decisions] == ["check_error"] * 3
    assert [d.outcome.value for d in decisions] == [gate.policy.on_error for gate in _GATES[:3]]


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(text=drafts, many=st.booleans(), seed=st.integers(0, 1000))
def test_a_shared_context_assesses_each_span_as_a_fresh_one(text: str, many: bool, seed: int) -> None:
    """Kept assessments are kept by the whole span: the hit and its other words (a
    two-word topic), so a word seen with one partner is assessed afresh with another."""
    shadow = normalize(text).text
    words = [(m.start(), m.end()) for m in re.finditer(r"\w+", shadow)]
    if not words:
        return
    rng = random.Random(seed)
    asks = [(*rng.choice(words), tuple(rng.sample(words, rng.randint(0, min(2, len(words)))))) for _ in range(12)]
    asks += asks[: len(asks) // 2]  # some twice, as a second policy asks
    shared = TextAnalysis(text).context(many)
    for start, end, others in asks:
        assert shared.assess(start, end, others) == TextContext(shadow, many=many).assess(start, end, others)


def test_an_analysis_read_by_one_policy_keeps_no_cues_by_span_and_decides_the_same() -> None:
    from redline.screen.analysis import SharedContext

    text = "I never approved a refund, but we will refund you if the card was charged twice."
    single = TextAnalysis(text, shared=False)
    assert type(single.context(False)) is TextContext and type(single.joined.context(True)) is TextContext
    assert type(TextAnalysis(text).context(False)) is SharedContext
    for gate in _GATES:
        assert _stable(gate.check(TextAnalysis(text, shared=False))) == _stable(gate.check(TextAnalysis(text)))
