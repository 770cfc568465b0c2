"""What every detector is: a small object with a name and one `detect` hook.

A detector reads the ORIGINAL text (credentials and PII are case- and format-sensitive)
and returns detections in original offsets. It is pure: no I/O, no clock, no randomness,
and it must be total: any exception is a bug that the gate turns into `on_error`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


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
