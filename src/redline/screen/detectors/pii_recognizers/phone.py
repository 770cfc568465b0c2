"""PHONE_NUMBER: phone-shaped digit groups that Google's libphonenumber (`phonenumbers`)
accepts by one of four routes, strongest first:

1. international: written with `+` (or an 00 / 011 dialling prefix) and a number the
   library accepts for that country code;
2. national, default region (US): a full ten-digit number in groups, through
   `PhoneNumberMatcher` at the configured leniency;
3. national, trunk prefix 0 ("0490 75 40 81"): in groups and VALID for one of the
   configured regions;
4. anything else phone-shaped (7-15 digits) only beside a phone word on its line or on
   the label line above ("Phone:", "fax", "call me on") and POSSIBLE for a region.

Unless a phone word says otherwise, a number labelled as something else ("order number",
"ticket", "suite"), a date, a dotted quad, a count in thousands groups, the SSN layout
or the house number of a street ("370 3911 Fourth Avenue") is not a phone number.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import ClassVar

import phonenumbers
import re2
from phonenumbers import Leniency, PhoneMetadata, PhoneNumber, PhoneNumberMatcher

from redline.screen.detectors.base import Detection
from redline.screen.detectors.pii_recognizers._base import (
    LABEL_FILLERS,
    NUMBER_LABELS,
    PatternRecognizer,
    clean_edges,
    words_after,
    words_before,
)

# between two digits: nothing, one separator, or a parenthesis with a separator beside it
_SEP = r"(?:[ .\-]?\(|\)[ .\-]?|[ .\-])"
_EXT = re.compile(r" ?(?:x|ext\.?|extension) ?[0-9]{1,6}$")
_DIGITS = re.compile(r"[0-9]+")
DEFAULT_REGIONS = ("GB", "IE", "AU", "NZ", "IN", "ZA", "DE", "AT", "CH", "FR", "BE", "NL",
                   "SE", "FI", "IT")  # fmt: skip


class PhoneRecognizer(PatternRecognizer):
    entity = "PHONE_NUMBER"
    pattern = re2.compile(
        rf"(?:\+ ?)?\(?[0-9](?:{_SEP}?[0-9]){{6,}}(?: ?(?:x|ext\.?|extension) ?[0-9]{{1,6}})?"
    )
    context = frozenset(
        {"phone", "phones", "telephone", "tel", "mobile", "mob", "cell", "cellphone", "fax",
         "call", "called", "calling", "text", "sms", "whatsapp", "dial", "direct", "office",
         "desk", "landline", "hotline", "contact", "reach"}
    )  # fmt: skip
    # the nearest label says what the number is
    labels: ClassVar[frozenset[str]] = NUMBER_LABELS
    fillers: ClassVar[frozenset[str]] = LABEL_FILLERS
    streets: ClassVar[frozenset[str]] = frozenset(
        {"street", "st", "avenue", "ave", "road", "rd", "lane", "ln", "drive", "dr", "close",
         "court", "ct", "place", "pl", "square", "sq", "boulevard", "blvd", "way", "rue",
         "terrace", "parkway", "highway", "hwy", "crescent", "circle", "alley", "plaza"}
    )  # fmt: skip

    def __init__(
        self,
        default_region: str = "US",
        leniency: int = Leniency.POSSIBLE,  # a Leniency member (the class holds ints)
        regions: tuple[str, ...] = DEFAULT_REGIONS,
    ) -> None:
        for name, value in (("default_region", default_region), *(("regions", r) for r in regions)):
            if value not in phonenumbers.SUPPORTED_REGIONS:
                raise ValueError(
                    f"PhoneRecognizer: {name} {value!r} is not a region libphonenumber knows; "
                    "use an ISO 3166-1 alpha-2 code such as 'US' or 'GB'"
                )
        self.default_region = default_region
        self.leniency = leniency
        # (region, country code, whether the leading 0 is a trunk prefix to drop)
        self.regions: list[tuple[str, int, bool]] = []
        for region in (default_region, *regions):
            meta = PhoneMetadata.metadata_for_region(region)
            if meta is None or meta.country_code is None:  # a supported region has both
                raise ValueError(f"PhoneRecognizer: no metadata for region {region!r}")
            self.regions.append((region, meta.country_code, meta.national_prefix == "0"))

    def has_evidence(self, text: str, start: int, end: int) -> bool:
        """A phone word near the number, or the number written in international form."""
        return text[start] == "+" or super().has_evidence(text, start, end)

    def find(
        self, text: str, haystack: str | bytes | None = None, misses: list[tuple[int, int, str]] | None = None
    ) -> Iterator[Detection]:
        for match in self.pattern.finditer(text if haystack is None else haystack):
            start, end = match.span()
            extension = _EXT.search(text, start, end)
            number_end = extension.start() if extension else end
            for seg_start, seg_end in self._segments(text, start, number_end):
                if seg_end == number_end:
                    seg_end = end  # the extension belongs to the last number
                if not clean_edges(text, seg_start, seg_end, glue="-./:,"):
                    continue
                found = self.validate(text, seg_start, seg_end)
                if found is not None:
                    yield found

    def _segments(self, text: str, start: int, end: int) -> list[tuple[int, int]]:
        """Split a candidate where its separators change ("415-555-0134 2"): inside one
        number, the separators between plain digit groups are all the same. Spaces and
        dashes beside a parenthesis or after the country code are layout, not a change."""
        runs = [(m.start(), m.end()) for m in _DIGITS.finditer(text, start, end)]
        segments, seg_start, kind = [], start, ""
        for (_, prev_end), (run_start, _) in zip(runs, runs[1:]):
            sep = text[prev_end:run_start]
            if "(" in sep or ")" in sep or (text[seg_start] == "+" and prev_end == runs[0][1]):
                continue
            if sep and kind and sep != kind:
                segments.append((seg_start, prev_end))
                seg_start, kind = run_start, ""
            elif sep:
                kind = sep
        segments.append((seg_start, end))
        return segments

    def validate(self, text: str, start: int, end: int) -> Detection | None:
        raw = text[start:end]
        groups = _DIGITS.findall(_EXT.sub("", raw))
        digits = "".join(groups)
        if not 7 <= len(digits) <= 15 or _is_date(raw, groups) or _is_dotted_quad(raw, groups):
            return None
        blocked, word = self._label(text, start, end)
        if blocked:
            return None
        if raw.startswith("+"):
            return self._international(raw, start, end, word)
        if digits.startswith(("00", "011")):  # a dialling prefix in place of the +
            prefix = 3 if digits.startswith("011") else 2
            return self._international("+" + digits[prefix:], start, end, word)
        # a bare digit run, a number after "#", one in thousands groups ("2 345 678 901")
        # or in the SSN layout (078-05-1120) or a ZIP+4 is some other number until a word says phone
        if (
            len(groups) > 1
            and text[start - 1 : start] != "#"
            and not _in_thousands(groups)
            and [len(g) for g in groups] not in ([3, 2, 4], [5, 4])  # an SSN, a ZIP+4
        ):
            found = self._default_region(raw, start, end)
            if found is not None:
                return found
            if digits[0] == "0":
                region = self._first_region(digits, valid=True)
                if region is not None:
                    why = f"phonenumbers: valid {region} number (trunk prefix 0)"
                    return self.hit(start, end, why, 0.8)
        if word is not None:
            region = self._first_region(digits, valid=False)
            if region is not None:
                why = f"phonenumbers: possible {region} number; context {word!r}"
                return self.hit(start, end, why, 0.6)
        return None

    def _label(self, text: str, start: int, end: int) -> tuple[bool, str | None]:
        """(blocked, phone word). A street name right after the number blocks it ("2202
        Rissik St"); else a phone word among the six words before (or the two after)
        labels it a phone whatever else is near; else another label heading it blocks it
        ("order number is")."""
        after = words_after(text, end, 24)
        if any(w in self.streets for w in after[:3]):
            return True, None
        before = words_before(text, start, 48, label_line=True)[:6]
        word = next((w for w in before if w in self.context), None)
        if word is None:
            word = next((w for w in after[:2] if w in self.context), None)
        if word is not None:
            return False, word
        for w in before:
            if w in self.labels:
                return True, None
            if w not in self.fillers:
                break
        return False, None

    def _international(
        self, raw: str, start: int, end: int, word: str | None
    ) -> Detection | None:
        try:
            number = phonenumbers.parse(raw, None)
        except phonenumbers.NumberParseException:
            return None
        country = f"+{number.country_code}"
        if phonenumbers.is_valid_number(number):
            why = f"phonenumbers: valid international number ({country})"
            return self.hit(start, end, why, 0.9)
        if not phonenumbers.is_possible_number(number):
            return None
        if self.leniency == Leniency.POSSIBLE:
            why = f"phonenumbers: possible international number ({country})"
            return self.hit(start, end, why, 0.7)
        if word is not None:
            why = f"phonenumbers: possible international number ({country}); context {word!r}"
            return self.hit(start, end, why, 0.6)
        return None

    def _default_region(self, raw: str, start: int, end: int) -> Detection | None:
        for match in PhoneNumberMatcher(raw, self.default_region, leniency=self.leniency):
            number = match.number
            whole = match.start == 0 and match.end == len(raw)
            if whole and len(str(number.national_number)) == 10:
                # is_valid_number would look the region up again (25 NANP regions)
                found_region = phonenumbers.region_code_for_number(number)
                valid = found_region is not None and phonenumbers.is_valid_number_for_region(
                    number, found_region
                )
                region = found_region or self.default_region
                why = f"phonenumbers: {'valid' if valid else 'possible'} {region} number"
                return self.hit(start, end, why, 0.9 if valid else 0.7)
        return None

    def _first_region(self, digits: str, valid: bool) -> str | None:
        """The first configured region for which the national-format `digits` are a
        valid (else merely possible) number. Built from metadata, not by re-parsing the
        text once per region: the check costs about a microsecond a region."""
        for region, country_code, trunk in self.regions:
            national = digits[1:] if trunk and digits[0] == "0" else digits
            if country_code == 1 and len(national) == 11 and national[0] == "1":
                national = national[1:]
            if not national:
                continue
            zeros = len(national) - len(national.lstrip("0"))
            number = PhoneNumber(
                country_code=country_code,
                national_number=int(national),
                italian_leading_zero=zeros > 0 or None,
                number_of_leading_zeros=zeros if zeros > 1 else None,
            )
            if valid and phonenumbers.is_valid_number_for_region(number, region):
                return region
            if not valid and phonenumbers.is_possible_number(number):
                return region
        return None


def _is_date(raw: str, groups: list[str]) -> bool:
    """2024-11-05, 05.11.2024: a date written with phone separators."""
    if len(groups) != 3 or not any(sep in raw for sep in "-./"):
        return False
    sizes = [len(g) for g in groups]
    if sizes == [4, 2, 2]:
        return groups[0][:2] in ("19", "20")
    if sizes == [2, 2, 4]:
        return groups[2][:2] in ("19", "20")
    return False


def _is_dotted_quad(raw: str, groups: list[str]) -> bool:
    """255.255.255.0: an address or a netmask, whatever libphonenumber makes of it."""
    return len(groups) == 4 and raw.count(".") == 3 and all(len(g) <= 3 for g in groups)


def _in_thousands(groups: list[str]) -> bool:
    """1 234 567 890, 2.345.678.901: a count or an amount in thousands groups."""
    return (
        len(groups) >= 3
        and len(groups[0]) <= 3
        and groups[0][0] != "0"
        and all(len(g) == 3 for g in groups[1:])
    )
