"""Gate.stream: for any split of a text into chunks, nothing a whole-text check would hold
is released, and the last event is the whole-text check."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redline import Gate, load_policy
from redline.decide.stream import ABBREVIATIONS, EVERY_POINT_CHARS, StreamEvent, crossing_patterns
from redline.judges.base import JudgeRule
from redline.judges.testing import ScriptedJudge
from redline.policy.schema import Policy
from redline.screen import context as screen_context
from redline.types import Decision, Outcome

EXAMPLE = Path(__file__).parents[2] / "examples" / "policy.yaml"
GATE = Gate(load_policy(EXAMPLE))

# Sentences of every kind the screen reads: clean prose, red lines affirmed and set aside,
# detectors whose spans cross lines (PEM blocks, SQL, tracebacks, addresses), and what
# the normalizer folds (letter spacing, confusables, invisible characters, abbreviations).
SENTENCES = [
    "Thanks for waiting.",
    "Your order shipped today!",
    "Is there anything else?",
    "Dr. Smith will call you back.",
    "The fee is 5.5 percent, e.g. on top of tax.",
    "Good news: I have approved a full refund.",
    "We cannot promise a refund.",
    "If we approved a refund, you would hear from billing.",
    "The leaflet says refunds are approved in a week.",
    "Our discount floor is 30%.",
    "I can offer you an account credit.",
    "Your r e f u n d is approved.",
    "Your rеfund is аpproved.",  # Cyrillic е and а
    "Your re\u200bfund is approved.",
    "You should sue them.",
    "Write to jane.doe@gmail.com.",
    "Call +1 415 555 0199 tonight.",
    "Send it to 42 Baker Street\nLondon NW1 6XE.",
    "Send it to 123 Main St.\nSpringfield, IL 62704.",
    "The key is AKIAIOSFODNN7EXAMPLE.",
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1234567890abcdef\n-----END RSA PRIVATE KEY-----",
    "SELECT *\nFROM users\nWHERE id = 1;",
    'Traceback (most recent call last):\n  File "/srv/app.py", line 3\nValueError: bad value.',
    "```\nimport os\nprint(os.environ)\n```",
    "He said no. Refund approved.",
    "Not a problem. The refund is approved!",
    "We will not. refund it.",
    "I.",
    "OK?",
]
SEPARATORS = [" ", "  ", "\n", "\n\n", " \n", "\t"]


@st.composite
def texts(draw: st.DrawFn) -> str:
    parts = draw(st.lists(st.sampled_from(SENTENCES), min_size=1, max_size=7))
    seps = draw(st.lists(st.sampled_from(SEPARATORS), min_size=len(parts), max_size=len(parts)))
    text = "".join(p + s for p, s in zip(parts, seps))
    return text if draw(st.booleans()) else text.rstrip()


@st.composite
def splits(draw: st.DrawFn) -> tuple[str, list[str]]:
    text = draw(texts())
    cuts = sorted(set(draw(st.lists(st.integers(0, len(text)), max_size=40))))
    bounds = [0, *cuts, len(text)]
    return text, [text[a:b] for a, b in zip(bounds, bounds[1:])]


def same(a: Decision, b: Decision) -> bool:
    def shape(d: Decision) -> tuple[object, ...]:
        spans = lambda fs: [(f.rule, f.start, f.end, f.status, f.cue, f.entity) for f in fs]  # noqa: E731
        return (d.outcome, d.reason, d.risk_level, spans(d.findings), spans(d.suppressed), d.omitted)

    return shape(a) == shape(b)


def run(gate: Gate, chunks: list[str], confidence: float | None) -> tuple[list[StreamEvent], Decision]:
    events = list(gate.stream(chunks, confidence=confidence))
    final = events[-1]
    assert final.kind == "decision" and final.decision is not None
    assert all(e.kind != "decision" for e in events[:-1])
    return events, final.decision


def released_text(events: list[StreamEvent]) -> str:
    out, at = [], 0
    for e in events:
        if e.kind == "release":
            assert e.start == at, "releases are contiguous and in order"
            out.append(e.text)
            at = e.end
    return "".join(out)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(splits(), st.sampled_from([90, None]))
def test_no_split_releases_what_the_whole_check_holds(case: tuple[str, list[str]], confidence: float | None) -> None:
    text, chunks = case
    whole = GATE.check(text, confidence=confidence)
    events, final = run(GATE, chunks, confidence)
    assert same(final, whole), "the stream's decision is the whole text's"
    released = released_text(events)
    assert text.startswith(released)
    for f in whole.findings:
        assert f.start >= len(released), f"{f.rule} at {f.start}-{f.end} was released: {released!r}"
    if whole.outcome is Outcome.EXECUTE:
        assert released == text, "a text that passes whole is released whole"
    else:
        assert len(released) < len(text) or not text.strip()
    holds = [e for e in events if e.kind == "hold"]
    assert len(holds) <= 1
    if holds:
        assert all(e.start < holds[0].start or e.kind != "release" for e in events[: events.index(holds[0])])


def test_sentences_are_released_as_they_complete_and_a_held_one_stops_the_stream() -> None:
    text = "Thanks for waiting. Your order shipped today. Good news: I have approved a full refund. It arrives soon."
    events, final = run(GATE, [text[i : i + 7] for i in range(0, len(text), 7)], 90)
    kinds = [(e.kind, e.text) for e in events]
    assert kinds[:2] == [("release", "Thanks for waiting."), ("release", " Your order shipped today.")]
    assert events[2].kind == "hold" and events[2].start == len("Thanks for waiting. Your order shipped today.")
    assert events[2].outcome is Outcome.ESCALATE
    assert final.outcome is Outcome.ESCALATE and events[-1].held
    assert events[-1].start == events[2].start and events[-1].end == len(text)


def test_a_clean_text_below_the_auto_send_bar_is_never_released() -> None:
    events, final = run(GATE, ["Thanks for waiting. ", "Your order shipped today. ", "Bye."], None)
    assert final.outcome is Outcome.DEFER
    assert released_text(events) == ""
    assert events[0].kind == "hold" and events[0].outcome is Outcome.DEFER


def test_a_pem_block_is_held_from_its_first_line() -> None:
    text = "Here it is.\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1234567890abcdef\n-----END RSA PRIVATE KEY-----\nDone. Bye."
    events, final = run(GATE, [text[i : i + 3] for i in range(0, len(text), 3)], 90)
    assert final.outcome is Outcome.REFUSE
    assert released_text(events) == "Here it is."


def test_async_iteration_over_an_async_source() -> None:
    text = "Thanks for waiting. Your refund is approved. Bye."

    async def source() -> AsyncIterator[str]:
        for i in range(0, len(text), 4):
            await asyncio.sleep(0)
            yield text[i : i + 4]

    async def main() -> list[StreamEvent]:
        return [e async for e in GATE.stream(source(), confidence=90)]

    events = asyncio.run(main())
    assert [e.kind for e in events] == ["release", "hold", "decision"]
    assert events[0].text == "Thanks for waiting."
    assert events[-1].decision is not None and events[-1].decision.outcome is Outcome.ESCALATE


def test_bytes_chunks_may_split_a_character() -> None:
    text = "Grüße aus Köln. Alles gut 🎉. Danke."
    data = text.encode()
    stream = GATE.stream(confidence=90)
    events = [e for i in range(0, len(data), 3) for e in stream.feed(data[i : i + 3])] + stream.finish()
    assert stream.text == text
    assert released_text(events) == text


def test_a_chunk_that_is_not_text_holds_the_stream_and_decides_as_an_error() -> None:
    stream = GATE.stream(confidence=90)
    assert [e.kind for e in stream.feed("Thanks for waiting. ")] == ["release"]
    assert [e.kind for e in stream.feed(42)] == ["hold"]  # type: ignore[arg-type]
    assert stream.feed("More text. ") == []
    final = stream.finish()[-1]
    assert final.decision is not None and final.decision.reason == "check_error"
    assert final.outcome is Outcome(GATE.policy.on_error)


def test_a_finished_stream_takes_no_more() -> None:
    stream = GATE.stream(confidence=90)
    stream.finish()
    with pytest.raises(RuntimeError, match="finished"):
        stream.feed("more")


def test_a_pattern_that_can_span_sentences_stops_every_early_release() -> None:
    policy = Policy.model_validate(
        {
            "version": 1,
            "name": "spanning",
            "auto_send": {"min_confidence": 0},
            "skills": [
                {"slug": "billing", "red_lines": [
                    {"id": "promise", "rule": "No refund promises.", "severity": "block", "patterns": ["refund.*approved"]},
                    {"id": "word", "rule": "No fees.", "severity": "block", "patterns": [r"\bfees?\b"]},
                ]},
            ],
        }
    )  # fmt: skip
    gate = Gate(policy)
    stream = gate.stream(["Thanks. ", "A refund. ", "It is approved."])
    assert not stream.releasing and stream.blocked_by == ("billing:promise: refund.*approved",)
    events = list(stream)
    assert [e.kind for e in events] == ["decision"]
    assert events[0].outcome is Outcome.ESCALATE and events[0].start == 0


@pytest.mark.parametrize(
    ("pattern", "crosses"),
    [
        (r"\brefund(?:s|ed)?\b", False),
        (r"money\s+back", False),
        (r"\$\d+(\.\d{2})?", False),
        (r"refund.*approved", True),
        (r"refund[^x]+approved", True),
        (r"end\.\s+start", True),
        (r"a\W+b", True),
        (r"[[:punct:]] ", True),  # RE2 syntax Python reads differently: counted as crossing
        (r"\pL+\. ", True),  # unreadable here: counted as crossing
    ],
)
def test_which_patterns_can_cross_a_release_point(pattern: str, crosses: bool) -> None:
    policy = Policy.model_validate(
        {"version": 1, "name": "p", "skills": [
            {"slug": "s", "red_lines": [{"id": "r", "rule": "No fees.", "severity": "block", "patterns": [pattern]}]}
        ]}
    )  # fmt: skip
    assert bool(crossing_patterns(policy)) is crosses


def test_the_abbreviations_are_the_screens() -> None:
    assert ABBREVIATIONS == screen_context._ABBREVIATIONS


def test_a_long_stream_checks_a_bounded_number_of_times() -> None:
    sentence = "The update is rolling out to every region this week. "
    text = sentence * 4000  # about 210 KB, 4,000 release points
    stream = GATE.stream(confidence=90)
    for i in range(0, len(text), 64):
        stream.feed(text[i : i + 64])
    events = stream.finish()
    assert events[-1].outcome is Outcome.EXECUTE
    every_point = EVERY_POINT_CHARS // len(sentence)
    assert stream.checks < every_point + 60, stream.checks  # then one per eighth of growth
    assert stream.released == len(text)


WORDS = ["refund", "approved", "I", "have", "no", "not", "Dr", "St", "if", "margin", "e.g", "said", "credit", "r", "e", "f"]
PIECES = st.one_of(
    st.sampled_from(WORDS),
    st.sampled_from([".", "!", "?", ";", ",", " ", "\n", "\u200b", "\u00a0", "..", ". ", "\u2019", '"']),
    st.text(alphabet=st.characters(codec="utf-8", categories=("L", "N", "P", "Zs", "Cf", "Mn")), max_size=4),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(PIECES, max_size=40).map("".join), st.data())
def test_no_split_of_odd_text_releases_what_the_whole_check_holds(text: str, data: st.DataObject) -> None:
    cuts = sorted(set(data.draw(st.lists(st.integers(0, len(text)), max_size=20))))
    bounds = [0, *cuts, len(text)]
    whole = GATE.check(text, confidence=90)
    events, final = run(GATE, [text[a:b] for a, b in zip(bounds, bounds[1:])], 90)
    assert same(final, whole)
    released = released_text(events)
    assert all(f.start >= len(released) for f in whole.findings), (text, released)


ASK = {"operator_uid": "u1", "messages": [{"role": "user", "sender_uid": "u1", "text": "paste me the full traceback"}]}
TRACE = 'Traceback (most recent call last):\n  File "/srv/app.py", line 3\nValueError: bad value.'


def test_licensed_content_waits_for_the_whole_text_which_may_take_the_license_back() -> None:
    events = list(GATE.stream([TRACE, " Then I approved a full refund. Bye."], context=ASK, confidence=90))
    final = events[-1].decision
    assert final is not None and final.outcome is Outcome.ESCALATE
    assert released_text(events) == "", "the traceback was licensed only until the refund promise"
    assert any(f.entity == "STACK_TRACE" for f in final.findings)


def test_licensed_content_is_released_with_a_decision_that_licenses_it() -> None:
    events = list(GATE.stream([TRACE[:30], TRACE[30:], " Hope that helps."], context=ASK, confidence=90))
    final = events[-1].decision
    assert final is not None and final.outcome is Outcome.EXECUTE and final.licensed_by_context
    assert released_text(events) == TRACE + " Hope that helps."
    assert [e.kind for e in events][-2:] == ["release", "decision"]


# A judge reads the whole text: a later sentence may change what it says of an earlier one
# (this scripted one raises the refund rule only once the farewell has arrived).
PARAPHRASE = "Thanks for waiting. We'll put the money back on your card. Bye now."


def _late_judge(text: str, rule: JudgeRule) -> str:
    return "violates" if rule.id == "billing:no-refund-promise" and "Bye" in text else "clear"


def _judged(when: str) -> Policy:
    policy = load_policy(EXAMPLE)
    return policy.model_copy(update={"judge": policy.judge.model_copy(update={"kind": "heuristic", "when": when})})


def pieces(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def same_judged(streamed: Decision | None, checked: Decision) -> None:
    assert streamed is not None and same(streamed, checked)
    assert [f.layer for f in streamed.findings] == [f.layer for f in checked.findings]
    for key in ("decided_by", "agreement", "disagreements"):
        assert streamed.layers.get(key) == checked.layers.get(key), key


def test_with_a_judge_nothing_is_released_before_the_whole_text_and_the_decision_is_checks() -> None:
    judge = ScriptedJudge(_late_judge)
    gate = Gate(load_policy(EXAMPLE), judge=judge)
    stream = gate.stream(pieces(PARAPHRASE, 7), confidence=90)
    assert not stream.releasing and stream.blocked_by == ("judge: scripted reads the whole text",)
    events = list(stream)
    assert [e.kind for e in events] == ["decision"] and events[0].start == 0
    assert [call.text for call in judge.calls] == [PARAPHRASE], "one judge call, on the whole text"
    same_judged(events[0].decision, gate.check(PARAPHRASE, confidence=90))
    assert events[0].decision is not None and events[0].decision.layers["decided_by"] == "judge"


def test_with_a_judge_a_clean_text_is_released_whole_with_its_decision() -> None:
    gate = Gate(_judged("always"))
    text = "Thanks for waiting. Your order shipped today."
    events = list(gate.stream(pieces(text, 4), confidence=90))
    assert [e.kind for e in events] == ["release", "decision"] and released_text(events) == text
    same_judged(events[-1].decision, gate.check(text, confidence=90))


@pytest.mark.parametrize("when", ["always", "on_hits"])
def test_a_policy_judge_decides_the_stream_as_it_decides_a_check(when: str) -> None:
    gate = Gate(_judged(when))
    for text in (PARAPHRASE, "We cannot promise a refund. We'll put the money back on your card.", TRACE):
        events = list(gate.stream(pieces(text, 5), confidence=90))
        final = events[-1].decision
        same_judged(final, gate.check(text, confidence=90))
        assert final is not None and final.layers["judge"] is not None
        assert released_text(events) == (text if final.outcome is Outcome.EXECUTE else "")


def test_a_judge_that_is_never_asked_leaves_the_stream_releasing() -> None:
    judge = ScriptedJudge(_late_judge)
    policy = load_policy(EXAMPLE)
    gate = Gate(policy.model_copy(update={"judge": policy.judge.model_copy(update={"when": "never"})}), judge=judge)
    events = list(gate.stream(pieces("Thanks for waiting. Bye now.", 6), confidence=90))
    assert gate.stream_blockers() == () and released_text(events) == "Thanks for waiting. Bye now."
    assert judge.calls == []
