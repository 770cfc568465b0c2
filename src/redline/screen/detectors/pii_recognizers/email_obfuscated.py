"""EMAIL_ADDRESS written to dodge a scraper: `jane.doe[at]example[dot]com`,
`jane (at) example (dot) co (dot) uk`, `jane{at}example.com`, `JANE AT EXAMPLE DOT COM`.

The `@` or one of the dots is spelled out in brackets (any case) or as a spaced capital
`AT` / `DOT`; at least one marker must be spelled out, the rest may be literal, and the
address must end in a top-level domain of letters. Plain lower-case "at" and "dot" are
prose ("look at this dot com bubble"), never a marker.
"""

from __future__ import annotations

import re2

from redline.screen.detectors.base import Detection
from redline.screen.detectors.pii_recognizers._base import PatternRecognizer, is_alnum

_WORD = r"[A-Za-z0-9_%+-]+"
_AT = r"(?:@|[ \t]?[\[({<][ \t]?(?i:at)[ \t]?[\])}>][ \t]?| AT )"
_DOT = r"(?:\.|[ \t]?[\[({<][ \t]?(?i:dot)[ \t]?[\])}>][ \t]?| DOT )"


class ObfuscatedEmailRecognizer(PatternRecognizer):
    entity = "EMAIL_ADDRESS"
    pattern = re2.compile(rf"{_WORD}(?:{_DOT}{_WORD})*{_AT}{_WORD}(?:{_DOT}{_WORD})+")
    markers = ("[", "(", "{", "<", " AT ", " DOT ")
    # `array[at] index.html`: a file name, not a domain
    file_suffixes = frozenset(
        "html htm php js ts py rb go java txt md json xml csv log pdf png jpg jpeg gif svg css yaml yml ini cfg conf "
        "sh exe dll zip tar gz".split()
    )

    def validate(self, text: str, start: int, end: int) -> Detection | None:
        candidate = text[start:end]
        if not any(m in candidate for m in self.markers):
            return None  # a plain address is the other recognizer's
        if "@" not in candidate and not any(t in candidate.lower() for t in ("at]", "at)", "at}", "at>")) \
                and " AT " not in candidate:
            return None  # the `@` must be there, literal or spelled out
        tld = candidate.rsplit(" ", 1)[-1].rsplit(".", 1)[-1].rsplit("]", 1)[-1].rsplit(")", 1)[-1]
        tld = tld.rsplit("}", 1)[-1].rsplit(">", 1)[-1]
        if not (2 <= len(tld) <= 24 and tld.isalpha()) or tld.lower() in self.file_suffixes:
            return None
        if (start and is_alnum(text[start - 1])) or (end < len(text) and is_alnum(text[end])):
            return None
        return self.hit(start, end, "email: address with its @ or dots spelled out", 0.8)
