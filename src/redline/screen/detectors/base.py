"""What every detector is: a small object with a name and one `detect` hook.

A detector reads the ORIGINAL text (credentials and PII are case- and format-sensitive)
and returns detections in original offsets. It is pure: no I/O, no clock, no randomness,
and it must be total: any exception is a bug that the gate turns into `on_error`.
"""

from __future__ import annotations

import bisect
import dataclasses
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from redline.screen.normalize import strip_invisible


# A detection scored under this is *weak*: the span is the entity's shape and is
# reported (span-level comparisons, redaction in the decision log), but it does not fire
# a rule. Presidio reports such spans with low scores too (a "weak" SSN `078-051121`,
# the loopback address `::1`); its users drop them with a score threshold, as the gate
# does here.
FIRING_SCORE = 0.5


@dataclass(frozen=True, slots=True)
class Detection:
    """One thing a detector found: where, what kind, and why it counted."""

    start: int
    end: int
    entity: str  # e.g. "AWS_ACCESS_KEY", "EMAIL_ADDRESS", "STACK_TRACE"
    explanation: str  # the recognizer or check that fired, e.g. "luhn checksum valid"
    score: float = 1.0

    @property
    def weak(self) -> bool:
        """Reported for its span, but not strong enough to fire a rule."""
        return self.score < FIRING_SCORE


class Detector(Protocol):
    name: str  # "credentials", "pii", "technical_content"

    def detect(self, text: str) -> list[Detection]: ...


def keep_non_overlapping(found: list[Detection], rank: Callable[[Detection], Any]) -> list[Detection]:
    """Non-overlapping detections in text order: on overlap the one ranked first (lowest
    `rank`) wins, then the longer, then the earlier."""
    found.sort(key=lambda d: (rank(d), d.start - d.end, d.start))
    starts: list[int] = []
    kept: list[Detection] = []
    for detection in found:
        i = bisect.bisect_right(starts, detection.start)
        if i and kept[i - 1].end > detection.start:
            continue
        if i < len(kept) and kept[i].start < detection.end:
            continue
        starts.insert(i, detection.start)
        kept.insert(i, detection)
    return kept


def original_span(start: int, end: int, offsets: Sequence[int] | None) -> tuple[int, int]:
    """A span of the visible text (`strip_invisible`) as the span of the original it
    came from: every original character from its first to its last, the invisible ones
    inside included (None: the text had none, the same span)."""
    if offsets is None:
        return start, end
    return offsets[start], offsets[end - 1] + 1


def detect_in(text: str, detectors: Iterable[Detector]) -> Iterator[tuple[Detector, Detection]]:
    """What each detector finds in `text`, read without the characters that would hide a
    key or an address from it (`AKIA\u200bIOSF…`, `bob\u034f@example.com`), in spans of
    `text` itself: a span covers every original character from its first to its last,
    the invisible ones inside included, so masking it leaves no fragment behind."""
    visible, offsets = strip_invisible(text)
    for detector in detectors:
        for found in detector.detect(visible):
            if offsets is not None:
                start, end = original_span(found.start, found.end, offsets)
                found = dataclasses.replace(found, start=start, end=end)
            yield detector, found
