from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from redline.screen.detectors.base import Detection
from redline.store.scrub import scrub


def test_credentials_and_pii_are_masked_and_listed() -> None:
    text = "Mail maria.lopez@example.com or call 415-555-0134; key AKIAIOSFODNN7EXAMPLE."
    result = scrub(text)
    assert "maria.lopez@example.com" not in result.text
    assert "415-555-0134" not in result.text
    assert "AKIAIOSFODNN7EXAMPLE" not in result.text
    assert "[EMAIL_ADDRESS]" in result.text
    kinds = {e.type for e in result.erased}
    assert {"EMAIL_ADDRESS", "PHONE_NUMBER"} <= kinds
    assert any(e.detector == "credentials" for e in result.erased)
    for erased in result.erased:
        assert text[erased.start : erased.end].strip()


def test_text_without_secrets_is_unchanged() -> None:
    text = "Your invoice for November is attached."
    assert scrub(text).text == text
    assert scrub(text).erased == ()


class _Overlapping:
    name = "test"

    def detect(self, text: str) -> list[Detection]:
        return [Detection(0, 8, "A", "a"), Detection(4, 12, "B", "b"), Detection(20, 22, "C", "c")]


def test_overlapping_spans_merge_so_no_fragment_survives() -> None:
    text = "secret-part-two and xx tail"
    result = scrub(text, (_Overlapping(),))
    assert result.text == "[A]two and [C] tail"
    assert [(e.start, e.end) for e in result.erased] == [(0, 12), (20, 22)]


class _Broken:
    name = "broken"

    def detect(self, text: str) -> list[Detection]:
        raise RuntimeError("boom")


def test_a_failing_detector_masks_everything_rather_than_nothing() -> None:
    result = scrub("password is hunter2", (_Broken(),))
    assert result.text == "[UNSCRUBBABLE]"


@given(st.text(max_size=300))
def test_scrub_never_raises_and_erased_spans_lie_in_the_text(text: str) -> None:
    result = scrub(text)
    for erased in result.erased:
        assert 0 <= erased.start < erased.end <= len(text)


# pieces of text the two default detectors find, and the characters that hide them
_PIECES = ["maria.lopez@example.com", "415-555-0134", "AKIAIOSFODNN7EXAMPLE", "4111 1111 1111 1111", "call me",
           " ", ". ", "\u200b", "\u034f", "é", "key=", "sk_live_4eC39HqLyjWDarjtT1zdp7dc", "\n"]


@given(st.lists(st.sampled_from(_PIECES), max_size=12).map("".join))
def test_a_checks_analysis_scrubs_as_the_text_alone_does(text: str) -> None:
    """The service hands the scrubber the analysis its check read: the same masks and
    spans as a fresh scrub, whichever detectors the policy had on."""
    from redline.screen.analysis import TextAnalysis

    for gate in _GATES:
        analysis = TextAnalysis(text, shared=False)
        gate.check(analysis)  # type: ignore[attr-defined]
        assert scrub(text, analysis=analysis) == scrub(text)
    assert scrub(text, analysis=TextAnalysis(text + "x")) == scrub(text)  # another text's analysis is not read


def _gate(detectors: dict[str, str]) -> object:
    from redline import Gate, Policy

    return Gate(Policy.model_validate({"version": 1, "name": "scrub-test", "detectors": detectors,
                                       "skills": [{"slug": "s", "red_lines": [{"id": "r", "rule": "Never mention refunds.",
                                                                                "severity": "block", "terms": ["refund"]}]}]}))  # fmt: skip


_GATES = [_gate({"credentials": "refuse", "pii": "escalate"}), _gate({"credentials": "off", "pii": "off"})]


def test_the_detectors_a_check_ran_are_not_run_again_by_the_scrubber(monkeypatch: object) -> None:
    from redline.screen.analysis import TextAnalysis
    from redline.screen.detectors import shared_detector

    calls: list[str] = []
    for name in ("credentials", "pii"):
        detector = shared_detector(name)
        real = detector.detect

        def counting(text: str, real: object = real, name: str = name) -> list[Detection]:
            calls.append(name)
            return real(text)  # type: ignore[operator,no-any-return]

        monkeypatch.setattr(detector, "detect", counting)  # type: ignore[attr-defined]
    text = "Mail maria.lopez@example.com, key AKIAIOSFODNN7EXAMPLE."
    analysis = TextAnalysis(text, shared=False)
    _GATES[0].check(analysis)  # type: ignore[attr-defined]
    assert sorted(calls) == ["credentials", "pii"]
    masked = scrub(text, analysis=analysis)
    assert sorted(calls) == ["credentials", "pii"] and "[EMAIL_ADDRESS]" in masked.text
