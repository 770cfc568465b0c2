"""CREDIT_CARD: 12-19 digits, plain or in groups, that pass the Luhn checksum and start
with the issuer prefix (IIN) of a card network at a length that network issues."""

from __future__ import annotations

from typing import ClassVar

import re2

from redline.screen.detectors.base import Detection
from redline.screen.detectors.pii_recognizers._base import PatternRecognizer, clean_edges

_ANY = tuple(range(12, 20))


def luhn_valid(digits: str) -> bool:
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = ord(char) - 48
        if position % 2:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


class CreditCardRecognizer(PatternRecognizer):
    entity = "CREDIT_CARD"
    # plain, or 4 digits then 2-4 groups of 3-6 (4-4-4-4, Amex 4-6-5, Diners 4-6-4),
    # one separator kind throughout
    pattern = re2.compile(
        r"[0-9]{12,19}|[0-9]{4}(?:-[0-9]{3,6}){2,4}|[0-9]{4}(?: [0-9]{3,6}){2,4}"
    )
    # (network, lowest prefix, highest prefix, lengths issued); prefixes compare as
    # strings of the same length. Published IIN ranges of the major networks.
    networks: ClassVar[tuple[tuple[str, str, str, tuple[int, ...]], ...]] = (
        ("Visa", "4", "4", (13, 16, 19)),
        ("Mastercard", "51", "55", (16,)),
        ("Mastercard", "2221", "2720", (16,)),
        ("Mir", "2200", "2204", (16, 17, 18, 19)),
        ("American Express", "34", "34", (15,)),
        ("American Express", "37", "37", (15,)),
        ("Diners Club", "300", "305", (14, 15, 16, 17, 18, 19)),
        ("Diners Club", "3095", "3095", (14, 15, 16, 17, 18, 19)),
        ("Diners Club", "36", "36", (14, 15, 16, 17, 18, 19)),
        ("Diners Club", "38", "39", (14, 15, 16, 17, 18, 19)),
        ("JCB", "3528", "3589", (16, 17, 18, 19)),
        ("JCB", "1800", "1800", (15,)),
        ("JCB", "2131", "2131", (15,)),
        ("Discover", "6011", "6011", (16, 17, 18, 19)),
        ("Discover", "644", "649", (16, 17, 18, 19)),
        ("Discover", "65", "65", (16, 17, 18, 19)),
        ("UnionPay", "62", "62", (16, 17, 18, 19)),
        ("UATP", "1", "1", (15,)),
        ("Maestro", "50", "50", _ANY),
        ("Maestro", "56", "69", _ANY),
    )

    def network(self, digits: str) -> str | None:
        for name, low, high, lengths in self.networks:
            if len(digits) in lengths and low <= digits[: len(low)] <= high:
                return name
        return None

    def validate(self, text: str, start: int, end: int) -> Detection | None:
        if not clean_edges(text, start, end):
            return None
        groups = text[start:end].replace("-", " ").split(" ")
        # a grouped run may have swallowed a trailing number ("... 1111 2025"): retry
        # without the last group before giving up
        while groups:
            digits = "".join(groups)
            name = self.network(digits) if 12 <= len(digits) <= 19 else None
            if name is not None and luhn_valid(digits):
                return self.hit(start, end, f"luhn checksum valid; {name} prefix and length")
            if len(groups) <= 3:
                return None
            end -= len(groups.pop()) + 1
        return None

    def near_miss(self, text: str, start: int, end: int) -> int:
        # four groups of four (or Amex's 4-6-5) that fail Luhn or the prefix table: a
        # mistyped card, whose digits are no phone number
        groups = [len(g) for g in text[start:end].replace("-", " ").split(" ")]
        return end if groups in ([4, 4, 4, 4], [4, 6, 5], [4, 4, 4, 4, 3]) and clean_edges(text, start, end) else 0
