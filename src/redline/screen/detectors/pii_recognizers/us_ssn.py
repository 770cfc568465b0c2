"""US_SSN: AAA-GG-SSSS or AAA GG SSSS anywhere; nine plain digits only beside a word
such as "SSN" or "social security". The number must be one the SSA could issue."""

from __future__ import annotations

from typing import ClassVar

import re2

from redline.screen.detectors.base import Detection
from redline.screen.detectors.pii_recognizers._base import (
    PatternRecognizer,
    clean_edges,
    context_word,
)


class UsSsnRecognizer(PatternRecognizer):
    entity = "US_SSN"
    pattern = re2.compile(r"[0-9]{3}-[0-9]{2}-[0-9]{4}|[0-9]{3} [0-9]{2} [0-9]{4}|[0-9]{9}")
    context = frozenset({"ssn", "ssns", "social", "security", "ss", "ssa", "taxpayer", "tin"})
    # published in advertising and printed on sample cards; never a person's number
    specimens: ClassVar[frozenset[str]] = frozenset({"078051120", "219099999"})

    def validate(self, text: str, start: int, end: int) -> Detection | None:
        if not clean_edges(text, start, end):
            return None
        digits = text[start:end].replace("-", "").replace(" ", "")
        area, group, serial = digits[:3], digits[3:5], digits[5:]
        # SSA: area 000, 666 and 900-999 are never issued, nor group 00 or serial 0000
        if area in ("000", "666") or area[0] == "9" or group == "00" or serial == "0000":
            return None
        if digits in self.specimens:
            return None
        if len(digits) == end - start:
            word = context_word(text, start, end, self.context)
            if word is None:
                return None  # nine bare digits are an order number until something says SSN
            return self.hit(start, end, f"SSA-valid area/group/serial; context {word!r}", 0.8)
        return self.hit(start, end, "SSA-valid area/group/serial in SSN format")
