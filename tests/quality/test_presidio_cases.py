"""The PII detector on Presidio's own recognizer test cases.

`tests/fixtures/presidio_recognizer_cases.json` holds the literal rows of the
`pytest.mark.parametrize` tables in presidio-analyzer/tests/test_*_recognizer.py
(github.com/microsoft/presidio, MIT License, Copyright (c) Presidio Contributors), read
with `ast` by `benchmarks/presidio_cases.py --extract` at the commit the file records.
Spans Presidio reports with a low score (a "weak" SSN, `::1`) count as expected: the
detector reports them weak.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from redline.screen.detectors.pii import PiiDetector

CASES = json.loads((Path(__file__).parent.parent / "fixtures" / "presidio_recognizer_cases.json").read_text("utf-8"))
DETECTOR = PiiDetector()


def _score() -> dict[str, dict[str, int]]:
    stats: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for case in CASES["cases"]:
        found = DETECTOR.detect(case["text"])
        got = {(d.start, d.end) for d in found if d.entity == case["entity"]}
        want = {tuple(s) for s in case["spans"]}
        s = stats[case["entity"]]
        s["spans"] += len(want)
        s["found"] += len(got & want)
        s["spurious"] += len(got - want)
        # another type in a row is a re-reading (a bad IBAN's tail as a phone number);
        # a street address is a real one that the recognizer's own rows never label
        s["other_type"] += any(d.entity not in (case["entity"], "STREET_ADDRESS") for d in found)
    return stats


STATS = _score()


def test_the_fixture_records_its_source_commit_and_licence() -> None:
    assert len(CASES["commit"]) == 40 and "MIT" in CASES["licence"]
    assert len(CASES["cases"]) >= 400


@pytest.mark.parametrize("entity", ["US_SSN", "IP_ADDRESS", "EMAIL_ADDRESS", "CREDIT_CARD", "IBAN_CODE", "PHONE_NUMBER"])
def test_presidio_expected_spans_are_found_exactly(entity: str) -> None:
    s = STATS[entity]
    assert s["spans"] > 0
    assert s["found"] / s["spans"] >= 0.95, dict(s)


@pytest.mark.parametrize("entity", ["US_SSN", "IP_ADDRESS", "EMAIL_ADDRESS", "CREDIT_CARD", "IBAN_CODE", "PHONE_NUMBER"])
def test_no_row_is_read_as_another_type_and_nothing_spurious_is_reported(entity: str) -> None:
    assert STATS[entity]["spurious"] == 0
    assert STATS[entity]["other_type"] == 0
