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
