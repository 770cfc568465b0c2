"""The `pii` detector: another person's contact or payment details in a draft.

Six entity types, one recognizer each (`pii_recognizers/`): EMAIL_ADDRESS, PHONE_NUMBER,
CREDIT_CARD, US_SSN, IBAN_CODE, IP_ADDRESS. Each finds candidates with an RE2 pattern
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
    PatternRecognizer,
    PhoneRecognizer,
    UsSsnRecognizer,
)
from redline.screen.detectors.pii_recognizers.phone import DEFAULT_REGIONS

ENTITIES = ("EMAIL_ADDRESS", "PHONE_NUMBER", "CREDIT_CARD", "US_SSN", "IBAN_CODE", "IP_ADDRESS")

# where two recognizers claim overlapping text, a checksum beats a phone-number reading
# ("123-45-6789" is phone-shaped too); within one rank the longer span wins
_RANK = {
    "EMAIL_ADDRESS": 0,
    "IBAN_CODE": 0,
    "CREDIT_CARD": 1,
    "US_SSN": 1,
    "IP_ADDRESS": 2,
    "PHONE_NUMBER": 3,
}
_SURROGATE = re.compile("[\ud800-\udfff]")


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
            CreditCardRecognizer(),
            UsSsnRecognizer(),
            IbanRecognizer(),
            IpAddressRecognizer(),
            PhoneRecognizer(phone_region, phone_leniency, phone_regions),
        )
        # one pass over the text says which recognizers have a candidate at all
        self._any = re2.Set.SearchSet(re2.Options())
        for recognizer in self.recognizers:
            self._any.Add(recognizer.pattern.pattern)
        self._any.Compile()

    def detect(self, text: str) -> list[Detection]:
        if not text or ("@" not in text and not _has_digit(text)):
            return []  # every entity has an "@" or a digit: a plain-prose draft ends here
        text = _encodable(text)
        # RE2 scans UTF-8: ASCII text goes in as bytes, whose offsets are its own, and
        # skips the wrapper's byte-to-character bookkeeping
        haystack: str | bytes = text.encode("ascii") if text.isascii() else text
        found: list[Detection] = []
        for index in self._any.Match(haystack) or ():  # None when nothing matches
            found.extend(self.recognizers[index].find(text, haystack))
        return _resolve(found) if len(found) > 1 else found


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
    """Non-overlapping detections in text order; the higher-ranked kept on overlap."""
    return keep_non_overlapping(found, lambda d: _RANK[d.entity])
