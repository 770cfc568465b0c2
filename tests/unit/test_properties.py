"""Properties that hold for any text and any valid policy (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redline import Gate, Outcome, Policy
from redline.screen.normalize import normalize

_NOISE = ["\u200b", "\u00ad", "\u202e", "\u0301", "  ", "\n", "\t", "\u0435", "\uff52", "\u0130", "\u00df", "\ufb01", "’"]
_WORDS = ["refund", "chest pain", "can't breathe", "face drooping", "lawsuit", "r e f u n d", "discount floor"]
_PATTERNS = [r"\bvc-[0-9]{4}\b", r"[a-z]+@[a-z]+\.com", r"(?:ab)+c", r"^\s*$", r"x*"]

word = st.sampled_from(_WORDS)
noisy_word = st.tuples(word, st.sampled_from(_NOISE), st.integers(0, 12), st.booleans()).map(
    lambda t: (t[0][: t[2]] + t[1] + t[0][t[2] :]) if t[3] else t[0].upper()
)
texts = st.lists(st.one_of(st.text(max_size=40), noisy_word, st.sampled_from(_NOISE + [". ", "no ", "but ", "if "])), max_size=30).map("".join)

_RULES = [
    "Never promise, approve or confirm a refund; refunds are decided by the billing team.",
    "Escalate chest pain, trouble breathing or stroke symptoms to a clinician immediately.",
    "Never waive early termination fees; retention handles contract exits.",
    "Do not recommend specific stocks or funds unless the client has completed a suitability review.",
    "Flag any claim showing signs of arson, staged accidents or insurance fraud.",
]
_terms = st.lists(st.one_of(word, st.text(alphabet=st.characters(categories=["L", "N"]), min_size=1, max_size=12)), min_size=1, max_size=4)
_optional = {
    "patterns": st.lists(st.sampled_from(_PATTERNS), max_size=2),
    "suppress": st.lists(st.sampled_from(["negated", "attributed", "historical", "hypothetical", "other_experiencer"]), unique=True),
}
_ids = st.from_regex(r"[a-z][a-z0-9-]{0,10}", fullmatch=True)
_severities = st.sampled_from(["block", "flag", "refuse"])
# a rule in words derives its topics; a rule of any text gives its own terms (one that
# guards nothing does not load: tests/unit/test_derivation.py)
red_line = st.one_of(
    st.fixed_dictionaries({"id": _ids, "rule": st.sampled_from(_RULES), "severity": _severities},
                          optional={"terms": _terms, **_optional}),
    st.fixed_dictionaries({"id": _ids, "rule": st.text(min_size=1, max_size=60), "severity": _severities,
                           "terms": _terms}, optional=_optional),
)


@st.composite
def policies(draw: st.DrawFn) -> Policy:
    lines = draw(st.lists(red_line, max_size=5, unique_by=lambda r: r["id"]))
    return Policy.model_validate(
        {
            "version": 1,
            "name": "prop",
            "auto_send": {"min_confidence": draw(st.integers(0, 101))},
            "skills": [{"slug": "s", "red_lines": lines}],
            "soul": {"boundaries": {"never": draw(st.lists(st.sampled_from(_RULES), max_size=2))}},
            "on_error": draw(st.sampled_from(["escalate", "refuse", "defer"])),
        }
    )


def _assert_spans_are_slices(decision, text: str) -> None:  # noqa: ANN001
    for finding in decision.findings + decision.suppressed:
        assert 0 <= finding.start < finding.end <= len(text)
        assert text[finding.start : finding.end] == finding.text


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(policy=policies(), text=texts)
def test_a_check_never_raises_and_reports_spans_of_the_original(policy: Policy, text: str) -> None:
    decision = Gate(policy).check(text)
    assert decision.reason != "check_error", decision.error
    assert isinstance(decision.outcome, Outcome)
    _assert_spans_are_slices(decision, text)


@given(text=st.text(max_size=200) | texts)
def test_normalization_is_idempotent(text: str) -> None:
    once = normalize(text).text
    assert normalize(once).text == once


@given(text=texts)
def test_every_shadow_span_maps_inside_the_original(text: str) -> None:
    shadow = normalize(text)
    for start in range(len(shadow.text)):
        o_start, o_end = shadow.span(start, start + 1)
        assert 0 <= o_start < o_end <= len(text)


def test_a_megabyte_of_strange_unicode_never_raises(support_gate: Gate) -> None:
    rng = random.Random(7)
    alphabet = [chr(c) for c in range(32, 0x2FFF)] + _NOISE + ["\ud800", "\U0001f600", "\x00"]
    pieces: list[str] = []
    size = 0
    while size < 1_000_000:
        piece = rng.choice(_WORDS) if rng.random() < 0.05 else "".join(rng.choices(alphabet, k=20))
        pieces.append(piece)
        size += len(piece)
    text = "".join(pieces)[:1_000_000]
    decision = support_gate.check(text)
    assert decision.reason != "check_error", decision.error
    assert decision.findings or decision.suppressed
    _assert_spans_are_slices(decision, text)


def test_a_megabyte_of_plain_prose_is_screened_whole(support_gate: Gate) -> None:
    text = ("Thanks for waiting. " * 50_000) + "Your refund is approved."
    decision = support_gate.check(text)
    assert decision.outcome is Outcome.ESCALATE
    assert decision.findings[0].start == len(text) - len("refund is approved.")


_CORPUS_RULES = _RULES + [
    "Never tell a claimant their claim is approved or will be paid.",
    "Do not promise a rental car or hotel reimbursement unless the policy includes that coverage.",
    "Escalate any customer threatening to churn or cancel an enterprise contract.",
    "Never share another customer's personal details.",
    "Always hand off users who are minors or under 18 to a human.",
]
_DRAFT_WORDS = ["refund", "approved", "claim", "paid", "fee", "waived", "chest pain", "stroke", "cancel", "contract",
                "minor", "no", "not", "never", "if", "my father", "last year", "the report says", "fund", "stocks",
                "reimburse", "hotel", "arson", "fraud", "we", "your", "is", "was", ".", ",", "and", "but"]


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    rules=st.lists(st.sampled_from(_CORPUS_RULES), min_size=1, max_size=4, unique=True),
    extra=st.sampled_from(_CORPUS_RULES),
    words=st.lists(st.sampled_from(_DRAFT_WORDS), min_size=1, max_size=25),
)
def test_adding_a_rule_never_lets_a_held_draft_through(rules: list[str], extra: str, words: list[str]) -> None:
    def policy(texts: list[str]) -> Policy:
        lines = [{"id": f"r{i}", "rule": text, "severity": "block"} for i, text in enumerate(texts)]
        return Policy.model_validate({"version": 1, "name": "prop", "auto_send": {"min_confidence": 0},
                                      "skills": [{"slug": "s", "red_lines": lines}]})

    text = " ".join(words)
    before = Gate(policy(rules)).check(text)
    after = Gate(policy([*rules, extra])).check(text)
    assert after.outcome.rank >= before.outcome.rank, (text, before.to_dict(), after.to_dict())
    assert {f.rule for f in before.findings} <= {f.rule for f in after.findings}
