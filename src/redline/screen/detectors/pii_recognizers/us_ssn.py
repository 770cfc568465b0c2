"""US_SSN: `AAA-GG-SSSS`, `AAA GG SSSS` or `AAA.GG.SSSS` anywhere (one separator kind);
nine plain digits beside a word such as "SSN" or "social security". The number must be
one the SSA could issue.

Presidio's tables also report the near-miss layouts as "weak" SSNs: nine plain digits
with no label (`078051121`), and the groups run together (`078-051121`, `07805-1121`).
They are reported here too, weak (score 0.2-0.3: a span for redaction and comparison,
not a finding), so that no other recognizer re-reads them as a phone number. A label in
front ("order", "invoice", "#") or a ZIP+4 reading (`NJ 07805-1121`, "zip") takes them
back, and mixed separators (`693-09.4444`) are a broken SSN, no one's number.
"""

from __future__ import annotations

import re
from typing import ClassVar

import re2

from redline.screen.detectors.base import Detection
from redline.screen.detectors.pii_recognizers._base import (
    PatternRecognizer,
    clean_edges,
    context_word,
    labelled_as_other,
    words_before,
)

_STATE = re.compile(r"\b[A-Z]{2},? ?$")  # "NJ 07805-1121": a ZIP+4


class UsSsnRecognizer(PatternRecognizer):
    entity = "US_SSN"
    pattern = re2.compile(r"[0-9]{3}[-. ]?[0-9]{2}[-. ]?[0-9]{4}|[0-9]{5}-[0-9]{4}")
    context = frozenset({"ssn", "ssns", "social", "security", "ss", "ssa", "taxpayer", "tin"})
    # published in advertising and printed on sample cards; never a person's number
    specimens: ClassVar[frozenset[str]] = frozenset({"078051120", "219099999"})
    zip_words: ClassVar[frozenset[str]] = frozenset({"zip", "zipcode", "postal", "postcode", "mail", "address"})

    def validate(self, text: str, start: int, end: int) -> Detection | None:
        if not clean_edges(text, start, end):
            return None
        raw = text[start:end]
        separators = [c for c in raw if not c.isdigit()]
        digits = raw.replace("-", "").replace(" ", "").replace(".", "")
        if len(set(separators)) > 1:
            return None  # 693-09.4444: no one writes an SSN with two separators
        area, group, serial = digits[:3], digits[3:5], digits[5:]
        # SSA: area 000, 666 and 900-999 are never issued, nor group 00 or serial 0000
        if area in ("000", "666") or area[0] == "9" or group == "00" or serial == "0000":
            return None
        if digits in self.specimens:
            return None
        word = context_word(text, start, end, self.context)
        if len(separators) == 2:
            layout = {"-": "SSN format", " ": "SSN format, spaces", ".": "SSN format, dots"}[separators[0]]
            return self.hit(start, end, f"SSA-valid area/group/serial in {layout}", 1.0 if separators[0] == "-" else 0.9)
        if word is not None:
            return self.hit(start, end, f"SSA-valid area/group/serial; context {word!r}", 0.8)
        if labelled_as_other(text, start):
            return None  # "order 123456789": some other number
        if separators:  # 078-051121 or 07805-1121: the groups run together
            if separators != ["-"]:
                return None  # `17151 2450 Crown St`: two numbers
            if raw[5:6] == "-" and (_STATE.search(text, max(0, start - 5), start) or self._zip_word(text, start)):
                return None  # a ZIP+4 code
            return self.hit(start, end, "weak: SSN digits with the groups run together", 0.2)
        return self.hit(start, end, "weak: nine SSA-valid digits, no SSN word near", 0.3)

    def near_miss(self, text: str, start: int, end: int) -> int:
        raw = text[start:end]
        return end if len({c for c in raw if not c.isdigit()}) > 1 else 0  # 693-09.4444: a broken SSN

    def _zip_word(self, text: str, start: int) -> bool:
        return any(w in self.zip_words for w in words_before(text, start, 32)[:3])
