"""STREET_ADDRESS: a house number, a street name and a street suffix, with what follows
it in the same address: a direction, a flat or suite, a town, a US state and ZIP code or
a UK postcode. US and UK forms: `1600 Pennsylvania Avenue NW, Washington, DC 20500`,
`350 5th Ave, Suite 3300, New York, NY 10118`, `221B Baker Street, London NW1 6XE`,
`Flat 3, 12 High Street, Oxford OX1 4AA`, `P.O. Box 1234, Austin, TX 78701`.

The street name is one to four capitalised words (or an ordinal: `5th`, `42nd`); the
suffix comes from the USPS and Royal Mail lists, written out or abbreviated, in title
case or capitals. Lower-case prose ("walked 3 blocks down the road") never matches, nor
a street without a house number ("on Fifth Avenue"), nor a number that a word in front
calls something else ("version 2 Way", "order 1234 Main Street edition" stays a street
only when nothing labels the number).
"""

from __future__ import annotations

import re

import re2

from redline.screen.detectors.base import Detection
from redline.screen.detectors.pii_recognizers._base import (
    PatternRecognizer,
    is_alnum,
    labelled_as_other,
    words_before,
)

_SUFFIXES = (
    "Street St Avenue Ave Av Road Rd Boulevard Blvd Lane Ln Drive Dr Court Ct Place Pl Square Sq Terrace Ter "
    "Way Parkway Pkwy Highway Hwy Circle Cir Trail Trl Close Crescent Cres Row Mews Gardens Gdns Grove Gr Hill "
    "Walk Alley Plaza Loop Pike Green Parade Rise Vale Wharf Quay Embankment Park Bypass Causeway Expressway "
    "Freeway Turnpike Crossing Point Heights Ridge Run Path Pass Commons Center Centre Cove Landing"
).split()
_FULL_SUFFIXES = frozenset(w for s in _SUFFIXES if len(s) > 4 for w in (s, s.upper()))
_SUFFIX = "(?:" + "|".join(sorted({w for s in _SUFFIXES for w in (s, s.upper())}, key=len, reverse=True)) + r")\b\.?"
_DIRECTION = r"(?:N|S|E|W|NE|NW|SE|SW|North|South|East|West)\.?"
_NAME_WORD = "(?:[A-Z][a-z'\u2019]+" r"|[A-Z]{2,}|[0-9]{1,3}(?:st|nd|rd|th)|(?:St|Mt|Ft)\.)"
_NUMBER = r"[0-9]{1,6}[A-Za-z]?(?:[-/][0-9]{1,6}[A-Za-z]?)?"
_UNIT = r"(?:Apartment|Building|Floor|Suite|Flat|Unit|Room|Bldg|Apt|Ste|Fl|Rm|#)\.?[ ]?#?[A-Za-z0-9-]{1,6}\b"
_SEP = r"(?:,[ ]?|,?\n[ \t]*|[ ])"
_ZIP = r"[A-Z]{2}[ ][0-9]{5}(?:-[0-9]{4})?"
_POSTCODE = r"[A-Z]{1,2}[0-9][A-Z0-9]?[ ]?[0-9][A-Z]{2}"
_TOWN = r"[A-Z][a-z]+(?:[ -][A-Z][a-z]+){0,3}"
_CODE = rf"(?:{_ZIP}|{_POSTCODE})"
# a town after a comma, with a state, ZIP or postcode after it or not; a town on the next
# line only with a code after it (else the next line is the next sentence: "…\nThanks")
_LOCALITY = (
    rf"(?:,[ ]?{_TOWN}(?:{_SEP}(?:{_CODE}|[A-Z]{{2}}\b))?|,?\n[ \t]*{_TOWN}{_SEP}{_CODE}|{_SEP}{_CODE})"
)
_STREET = (
    rf"(?:(?:Flat|Apartment|Apt|Unit|Suite)[ ][0-9]{{1,4}}[A-Za-z]?,[ ])?{_NUMBER}[ ](?:{_DIRECTION}[ ])?"
    rf"(?:{_NAME_WORD}[ ]){{1,4}}{_SUFFIX}(?:[ ]{_DIRECTION}\b)?(?:,?[ ]{_UNIT})?"
)
_PO_BOX = r"P\.?[ ]?O\.?[ ]Box[ ][0-9]{1,6}"
_YEAR = re.compile(r"(?:19|20)[0-9]{2}$")
# words that start a clause, never a street name: "at 5 We Are Open Drive" is prose
_NOT_A_NAME = frozenset("I We You He She It They And But Or If So The A An This That These Those".split())


class StreetAddressRecognizer(PatternRecognizer):
    entity = "STREET_ADDRESS"
    pattern = re2.compile(rf"(?:{_STREET}|{_PO_BOX})(?:{_LOCALITY})?")

    def validate(self, text: str, start: int, end: int) -> Detection | None:
        if start and (is_alnum(text[start - 1]) or text[start - 1] in "-./#"):
            return None  # part of a longer number or code: `INV-2024 Main Road`
        if end < len(text) and is_alnum(text[end]):
            return None
        while end > start and text[end - 1] in ", \n\t":
            end -= 1
        if text[end - 1] == "." and text[start:end - 1].rsplit(" ", 1)[-1] in _FULL_SUFFIXES:
            end -= 1  # "… Forest Place.": the sentence's full stop, not an abbreviation's
        words = text[start:end].split()
        first_name = next((w for w in words[1:] if w[:1].isalpha()), "")
        if first_name in _NOT_A_NAME:
            return None
        if text[start].isdigit() and labelled_as_other(text, start):
            return None  # "version 2 Way", "room 12 Hill Street" names another number
        if _YEAR.match(words[0]) and words_before(text, start, 12)[:1] in (["in"], ["since"], ["by"], ["until"]):
            return None  # "in 2019 Main Street closed": a year
        why = "street address: number, street and suffix"
        tail = text[start:end]
        if any(c.isdigit() for c in tail[len(words[0]) :].split(",")[-1]) and tail[-1].isalnum():
            why += ", with a ZIP code or postcode"
        return self.hit(start, end, why, 0.85)
