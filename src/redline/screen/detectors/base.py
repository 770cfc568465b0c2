"""What every detector is: a small object with a name and one `detect` hook.

A detector reads the ORIGINAL text (credentials and PII are case- and format-sensitive)
and returns detections in original offsets. It is pure: no I/O, no clock, no randomness,
and it must be total: any exception is a bug that the gate turns into `on_error`.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class Detection:
    """One thing a detector found: where, what kind, and why it counted."""

    start: int
    end: int
    entity: str  # e.g. "AWS_ACCESS_KEY", "EMAIL_ADDRESS", "STACK_TRACE"
    explanation: str  # the recognizer or check that fired, e.g. "luhn checksum valid"
    score: float = 1.0


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
