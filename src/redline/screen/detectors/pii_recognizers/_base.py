"""What a PII recognizer is: class-level patterns and context words plus one hook.

The shape is Presidio's `PatternRecognizer`: an RE2 pattern finds candidates (linear
time, whatever the input), `validate` decides with a checksum or a library and says why.
The helpers here are the few things every recognizer needs: is a candidate a whole
token, and which words stand around it on its line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, ClassVar

from redline.screen.detectors.base import Detection

_WORD = re.compile(r"[a-z]+")


def is_alnum(char: str) -> bool:
    return char.isascii() and (char.isalnum() or char == "_")


def clean_edges(text: str, start: int, end: int, glue: str = "-.") -> bool:
    """True when text[start:end] is a whole token: no letter or digit runs into it, no
    `glue` character joins it to more digits (1.2.3.4.5, 12-345-67-89-01), nor to an
    identifier in front (ENG-4821-555, INV-2024-000123)."""
    if start > 0:
        before = text[start - 1]
        if is_alnum(before):
            return False
        if before in glue and start > 1 and is_alnum(text[start - 2]):
            return False
    if end < len(text):
        after = text[end]
        if is_alnum(after):
            return False
        if after in glue and end + 1 < len(text) and text[end + 1].isdigit():
            return False
    return True


def words_before(text: str, start: int, chars: int = 40, label_line: bool = False) -> list[str]:
    """Lower-case words in the `chars` characters before `start`, on the same line,
    nearest first. With `label_line`, a span that starts its line reads the line above
    when that line is a label ("Phone:" then the number on the next line)."""
    lo = max(0, start - chars)
    window = text[lo:start]
    line = window.rfind("\n")
    if line >= 0:
        if label_line and not window[line + 1 :].strip():
            above = window[:line].rstrip()
            if above.endswith(":"):
                return _WORD.findall(above[above.rfind("\n") + 1 :].lower())[::-1]
        window = window[line + 1 :]
    return _WORD.findall(window.lower())[::-1]


def words_after(text: str, end: int, chars: int = 20) -> list[str]:
    """Lower-case words in the `chars` characters after `end`, on the same line, nearest
    first."""
    window = text[end : end + chars]
    line = window.find("\n")
    if line >= 0:
        window = window[:line]
    return _WORD.findall(window.lower())


def context_word(
    text: str, start: int, end: int, vocabulary: frozenset[str], before: int = 40, after: int = 20
) -> str | None:
    """The nearest word of `vocabulary` around the span on its line, else None."""
    for word in words_before(text, start, before):
        if word in vocabulary:
            return word
    for word in words_after(text, end, after):
        if word in vocabulary:
            return word
    return None


# the nearest label before a number that says it is some other number
NUMBER_LABELS = frozenset(
    {"order", "invoice", "ticket", "case", "ref", "reference", "tracking", "account", "acct", "routing",
     "card", "license", "licence", "id", "ssn", "iban", "zip", "postal", "postcode", "box", "suite", "apt",
     "unit", "room", "serial", "sku", "model", "version", "transaction", "confirmation", "booking", "policy",
     "claim"}
)  # fmt: skip
LABEL_FILLERS = frozenset({"number", "no", "nr", "num", "is", "was", "id", "code", "the", "your", "my", "our"})


def labelled_as_other(text: str, start: int) -> bool:
    """A label such as "order number is" or "ticket" heads the number (fillers skipped),
    or a `#` stands right before it."""
    if text[start - 1 : start] == "#" or text[max(0, start - 2) : start] == "# ":
        return True
    for word in words_before(text, start, 48):
        if word in NUMBER_LABELS:
            return True
        if word not in LABEL_FILLERS:
            return False
    return False


class PatternRecognizer:
    """One entity type: an RE2 `pattern` for candidates and a `validate` hook."""

    entity: ClassVar[str]
    pattern: ClassVar[Any]  # a compiled re2 pattern (google-re2 ships no type stubs)
    context: ClassVar[frozenset[str]] = frozenset()

    def find(
        self, text: str, haystack: str | bytes | None = None, misses: list[tuple[int, int, str]] | None = None
    ) -> Iterator[Detection]:
        """Detections in `text`. `haystack` is what the pattern scans: `text` itself, or
        its ASCII bytes (same offsets, faster through RE2's wrapper). Candidates that fail
        the check but are `near_miss`es are appended to `misses` as (start, end, entity)."""
        for match in self.pattern.finditer(text if haystack is None else haystack):
            start, end = match.span()
            found = self.validate(text, start, end)
            if found is not None:
                yield found
            elif misses is not None:
                broken_end = self.near_miss(text, start, end)
                if broken_end:
                    misses.append((start, broken_end, self.entity))

    def near_miss(self, text: str, start: int, end: int) -> int:
        """Where the broken one ends (0: not one) when the failed candidate has this type's
        shape so clearly (an IBAN's country code, check digits and groups; a card's four
        groups of four) that it is a broken one of these: no other recognizer may re-read
        its digits without its own evidence."""
        return 0

    def has_evidence(self, text: str, start: int, end: int) -> bool:
        """This type's own evidence around a span: one of its context words."""
        return context_word(text, start, end, self.context) is not None

    def validate(self, text: str, start: int, end: int) -> Detection | None:
        """A detection for the candidate text[start:end] (the span may be narrowed), or
        None when the candidate is not the entity."""
        raise NotImplementedError

    def hit(self, start: int, end: int, explanation: str, score: float = 1.0) -> Detection:
        return Detection(start, end, self.entity, explanation, score)
