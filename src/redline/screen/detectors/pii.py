"""The `pii` detector: another person's contact or payment details in a draft.

Seven entity types, one recognizer each (`pii_recognizers/`): EMAIL_ADDRESS, PHONE_NUMBER,
CREDIT_CARD, US_SSN, IBAN_CODE, IP_ADDRESS, STREET_ADDRESS. Each finds candidates with an RE2 pattern
(linear time) and keeps only those that a checksum or a library confirms, saying which
in the detection's explanation. Cheap tests run first so that a clean draft costs a few
microseconds: a text with neither "@" nor a digit ends at once, and one RE2 set scan
says which recognizers have a candidate before any of them runs.
"""

from __future__ import annotations

import re

import re2
from phonenumbers import Leniency

from redline.screen.detectors.base import Detection, keep_non_overlapping
from redline.screen.detectors.pii_recognizers import (
    CreditCardRecognizer,
    EmailRecognizer,
    IbanRecognizer,
    IpAddressRecognizer,
    ObfuscatedEmailRecognizer,
    PatternRecognizer,
    PhoneRecognizer,
    StreetAddressRecognizer,
    UsSsnRecognizer,
)
from redline.screen.detectors.pii_recognizers.phone import DEFAULT_REGIONS

ENTITIES = ("EMAIL_ADDRESS", "PHONE_NUMBER", "CREDIT_CARD", "US_SSN", "IBAN_CODE", "IP_ADDRESS", "STREET_ADDRESS")

# where two recognizers claim overlapping text, a checksum beats a phone-number reading
# ("123-45-6789" is phone-shaped too); within one rank the longer span wins
_RANK = {
    "EMAIL_ADDRESS": 0,
    "IBAN_CODE": 0,
    "CREDIT_CARD": 1,
    "US_SSN": 1,
    "IP_ADDRESS": 2,
    "STREET_ADDRESS": 2,
    "PHONE_NUMBER": 3,
}
_SURROGATE = re.compile("[\ud800-\udfff]")
_SPELLED_AT = re.compile(r"[\[({<] ?(?i:at) ?[\])}>]")


class PiiDetector:
    name = "pii"

    def __init__(
        self,
        phone_region: str = "US",
        phone_leniency: int = Leniency.POSSIBLE,
        phone_regions: tuple[str, ...] = DEFAULT_REGIONS,
    ) -> None:
        self.recognizers: tuple[PatternRecognizer, ...] = (
            EmailRecognizer(),
            ObfuscatedEmailRecognizer(),
            CreditCardRecognizer(),
            UsSsnRecognizer(),
            IbanRecognizer(),
            IpAddressRecognizer(),
            StreetAddressRecognizer(),
            PhoneRecognizer(phone_region, phone_leniency, phone_regions),
        )
        self._by_entity = {r.entity: r for r in self.recognizers}
        # one pass over the text says which recognizers have a candidate at all
        self._any = re2.Set.SearchSet(re2.Options())
        for recognizer in self.recognizers:
            self._any.Add(recognizer.pattern.pattern)
        self._any.Compile()

    def detect(self, text: str) -> list[Detection]:
        if not text or ("@" not in text and not _has_digit(text) and not _spelled_at(text)):
            return []  # every entity has an "@" (written or spelled out) or a digit: plain prose ends here
        text = _encodable(text)
        # RE2 scans UTF-8: ASCII text goes in as bytes, whose offsets are its own, and
        # skips the wrapper's byte-to-character bookkeeping
        haystack: str | bytes = text.encode("ascii") if text.isascii() else text
        found: list[Detection] = []
        misses: list[tuple[int, int, str]] = []
        for index in self._any.Match(haystack) or ():  # None when nothing matches
            found.extend(self.recognizers[index].find(text, haystack, misses))
        misses.extend((d.start, d.end, d.entity) for d in found if d.weak)
        if misses and len(found) > 1 or (misses and found and not found[0].weak):
            found = self._not_re_read(text, found, misses)
        return _resolve(found) if len(found) > 1 else found

    def _not_re_read(self, text: str, found: list[Detection], misses: list[tuple[int, int, str]]) -> list[Detection]:
        """Drop a detection that re-reads a failed or weak candidate of another type, or
        part of one (the tail of a bad-checksum IBAN as a phone number, part of it as a
        card, a weak SSN `078-051121` as a New Zealand number), unless its own type's
        evidence is there: a span that failed its own check is a broken one of its kind,
        not a number of some other kind."""
        kept = []
        for d in found:
            broken = any(s <= d.start and d.end <= e and entity != d.entity for s, e, entity in misses)
            if broken and not self._by_entity[d.entity].has_evidence(text, d.start, d.end):
                continue
            kept.append(d)
        return kept


def _spelled_at(text: str) -> bool:
    """An `@` spelled out, as obfuscated addresses write it ("[at]", "(at)", " AT ")."""
    if " AT " in text:
        return True
    for bracket in "[({<":  # substring tests first: the regex runs only where a bracket is
        if bracket in text:
            return _SPELLED_AT.search(text) is not None
    return False


def _has_digit(text: str) -> bool:
    # ten substring tests (memchr) beat one regex scan of the text by an order of magnitude
    for digit in "0123456789":
        if digit in text:
            return True
    return False


def _encodable(text: str) -> str:
    """`text` with lone surrogates (which UTF-8, and so RE2, cannot take) replaced by
    U+FFFD: one code point for one, so every offset stays an offset of the original."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)
    return text


def _resolve(found: list[Detection]) -> list[Detection]:
    """Non-overlapping detections in text order; the higher-ranked kept on overlap, and a
    weak span never over one that fires."""
    return keep_non_overlapping(found, lambda d: (d.weak, _RANK[d.entity]))
