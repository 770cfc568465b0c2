"""IBAN_CODE: a country code, two check digits and the account number (BBAN), plain or
in groups of four (spaces or dashes), at the length the SWIFT IBAN registry fixes for
that country and with a valid ISO 7064 mod-97 checksum. One letter case throughout
(`GB82 WEST …` or `gb82 west …`; not `LV80 bANK …`).

A candidate with a registry country code and check digits that fails the length or the
checksum is a broken IBAN (`near_miss`): its digits are not re-read as a phone number or
a card without that type's own evidence."""

from __future__ import annotations

import re
from typing import ClassVar

import re2

from redline.screen.detectors.base import Detection
from redline.screen.detectors.pii_recognizers._base import PatternRecognizer, is_alnum

_TAIL = re.compile(r"(?:[ -]{1,2}[A-Za-z0-9]{1,4}(?![A-Za-z0-9]))*")


def mod97_valid(iban: str) -> bool:
    """ISO 7064 MOD 97-10 over the rearranged IBAN (letters A=10 … Z=35)."""
    rearranged = iban[4:] + iban[:4]
    remainder = 0
    for char in rearranged:
        value = int(char, 36)
        remainder = (remainder * (100 if value > 9 else 10) + value) % 97
    return remainder == 1


class IbanRecognizer(PatternRecognizer):
    entity = "IBAN_CODE"
    pattern = re2.compile(
        r"[A-Za-z]{2}[0-9]{2}(?:[A-Za-z0-9]{11,30}|(?: [A-Za-z0-9]{4}){2,7}(?: [A-Za-z0-9]{1,4})?"
        r"|(?:-[A-Za-z0-9]{4}){2,7}(?:-[A-Za-z0-9]{1,4})?)"
    )
    # SWIFT IBAN registry: total length per country
    lengths: ClassVar[dict[str, int]] = {
        "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22,
        "BH": 22, "BI": 27, "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24,
        "DE": 22, "DJ": 27, "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24, "FI": 18,
        "FK": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27,
        "GT": 28, "HN": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26,
        "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20,
        "LU": 20, "LV": 21, "LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MN": 20,
        "MR": 27, "MT": 31, "MU": 30, "NI": 28, "NL": 18, "NO": 15, "OM": 23, "PK": 24,
        "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "RU": 33, "SA": 24,
        "SC": 31, "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25,
        "SV": 28, "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20,
        "YE": 30,
    }  # fmt: skip

    def validate(self, text: str, start: int, end: int) -> Detection | None:
        if start > 0 and is_alnum(text[start - 1]):
            return None
        country = text[start : start + 2].upper()
        length = self.lengths.get(country)
        if length is None:
            return None
        # walk the candidate up to the registry length: a grouped candidate may run on
        # into a number written after the IBAN, but the IBAN must end where a group does
        chars: list[str] = []
        stop = start
        for stop in range(start, end):
            if text[stop] not in " -":
                chars.append(text[stop])
                if len(chars) == length:
                    break
        stop += 1
        if len(chars) != length or (stop < len(text) and is_alnum(text[stop])):
            return None
        letters = [c for c in chars if c.isalpha()]
        if any(c.islower() for c in letters) and any(c.isupper() for c in letters):
            return None  # `LV80 bANK …`: one case throughout, or it is not an IBAN
        iban = "".join(chars).upper()
        if not mod97_valid(iban):
            return None
        return self.hit(start, stop, f"iban mod-97 valid; {country} length {length}")

    def near_miss(self, text: str, start: int, end: int) -> int:
        if (start and is_alnum(text[start - 1])) or text[start : start + 2].upper() not in self.lengths:
            return 0
        # a broken IBAN takes the digit groups that follow it on its line (`EE38 2200 2210  014 5686`)
        tail = _TAIL.match(text, end, min(len(text), end + 40))
        return tail.end() if tail else end
