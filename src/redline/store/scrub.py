"""Mask credentials and PII in any string before it is stored.

One function for the decision log and anything else that persists text. The result
says what it erased (type and span of the ORIGINAL string), so redaction can be audited
(as in OPA's decision logs): the masked text alone cannot show that nothing was missed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from redline.screen.analysis import TextAnalysis
from redline.screen.detectors import shared_detector
from redline.screen.detectors.base import Detector, detect_in, original_span


@dataclass(frozen=True, slots=True)
class Erased:
    type: str  # the detector's entity, e.g. "EMAIL_ADDRESS", "AWS_ACCESS_KEY"
    detector: str
    start: int
    end: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "detector": self.detector, "start": self.start, "end": self.end}


@dataclass(frozen=True, slots=True)
class Scrubbed:
    text: str
    erased: tuple[Erased, ...]


@lru_cache(maxsize=1)
def _detectors() -> tuple[Detector, ...]:
    # the gate's own objects: a text analysis keeps their findings (see `analysis` below)
    return (shared_detector("credentials"), shared_detector("pii"))


def scrub(text: str, detectors: tuple[Detector, ...] | None = None, *, analysis: TextAnalysis | None = None) -> Scrubbed:
    """`text` with every credential and PII span replaced by `[TYPE]`.

    With the default detectors the last few results are kept: a check under watch logs
    its shadow decision on the same text as its own, and a megabyte of addresses costs a
    second or so each time. (The service scrubs a text once for its log line and its
    audit excerpt, and hands the result to both.)

    The detectors read the same view as the gate's (invisible characters and marks
    removed) and each span is mapped back to the whole original span, so a secret with a
    zero-width space inside is masked whole, not kept. Overlapping spans are merged (the
    wider one's type wins), so no fragment of a secret survives between two masks. Fails
    closed: if a detector raises, the whole text is masked as `[UNSCRUBBABLE]`.

    `analysis`: the `TextAnalysis` of `text` that a check just read. The default
    detectors are the gate's own objects, so what the check's detectors found is read
    from it instead of being found again (the same findings: a pure function of the text
    and the detector); a detector the policy had off runs here, once.
    """
    if detectors is None and analysis is not None and analysis.text == text:
        return _scrub_analysis(text, analysis)
    if detectors is None and type(text) is str:
        return _scrub_default(text)
    return _scrub(text, detectors if detectors is not None else _detectors())


@lru_cache(maxsize=4)
def _scrub_default(text: str) -> Scrubbed:
    return _scrub(text, _detectors())


def _scrub(text: str, detectors: tuple[Detector, ...]) -> Scrubbed:
    try:
        found = [Erased(d.entity, detector.name, d.start, d.end) for detector, d in detect_in(text, detectors)]
    except Exception:
        return _unscrubbable(text)
    return _masked(text, found)


def _scrub_analysis(text: str, analysis: TextAnalysis) -> Scrubbed:
    try:
        offsets = analysis.visible[1]
        found = [
            Erased(d.entity, detector.name, *original_span(d.start, d.end, offsets))
            for detector in _detectors()
            for d in analysis.detections(detector)
        ]
    except Exception:
        return _unscrubbable(text)
    return _masked(text, found)


def _unscrubbable(text: str) -> Scrubbed:
    return Scrubbed("[UNSCRUBBABLE]", (Erased("UNSCRUBBABLE", "scrub", 0, len(text)),))


def _masked(text: str, found: list[Erased]) -> Scrubbed:
    """`text` with each span of `found` (original offsets, any order) masked, overlaps merged."""
    found.sort(key=lambda e: (e.start, -(e.end - e.start)))
    merged: list[Erased] = []
    for item in found:
        if merged and item.start < merged[-1].end:
            last = merged[-1]
            if item.end > last.end:
                merged[-1] = Erased(last.type, last.detector, last.start, item.end)
            continue
        merged.append(item)
    pieces: list[str] = []
    cursor = 0
    for item in merged:
        pieces.append(text[cursor : item.start])
        pieces.append(f"[{item.type}]")
        cursor = item.end
    pieces.append(text[cursor:])
    return Scrubbed("".join(pieces), tuple(merged))
