"""The organisation's own contact details, which the `pii` detector must not report as a
third party's (`detectors: {pii: {action: escalate, allow: [...]}}`, docs/detectors-pii.md).

An entry exempts only what it spells: an e-mail domain (`@acme.example`) exempts e-mail
addresses at that domain and its subdomains, never a phone number or another domain
that merely ends the same way (`notacme.example`); an exact value exempts detections
equal to it, compared the way the type is written — e-mail addresses without regard to
case, phone numbers by their number (`+1 800 555 0100` = `(800) 555-0100` =
`1-800-555-0100`), anything else without regard to case, spacing or line breaks. The
policy schema refuses entries that could exempt more (patterns, bare top-level domains,
type names), so no entry can switch a whole type off.
"""

from __future__ import annotations

import re

import phonenumbers

_SPACE = re.compile(r"\s+")


def _number(value: str, region: str) -> str | None:
    """The E.164 form of a phone number, or None when it does not read as one."""
    try:
        number = phonenumbers.parse(value, region)
    except phonenumbers.NumberParseException:
        return None
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


def _folded(value: str) -> str:
    return _SPACE.sub(" ", value).strip().rstrip(".").casefold()


class AllowList:
    """Which detections of the organisation's own details a policy exempts."""

    def __init__(self, entries: tuple[str, ...], phone_region: str = "US") -> None:
        self.entries = entries
        self._region = phone_region
        self._domains = tuple(e[1:].lower() for e in entries if e.startswith("@"))
        self._exact = {_folded(e): e for e in entries if not e.startswith("@")}
        self._numbers = {n: e for e in entries if not e.startswith("@") and "@" not in e
                         for n in (_number(e, phone_region),) if n is not None}

    def __bool__(self) -> bool:
        return bool(self.entries)

    def exempting(self, entity: str, value: str) -> str | None:
        """The entry that exempts a detection of `entity` spelling `value`, or None."""
        if entity == "EMAIL_ADDRESS" and "@" in value:
            domain = value.rpartition("@")[2].lower()
            for allowed in self._domains:
                if domain == allowed or domain.endswith("." + allowed):
                    return "@" + allowed
        if entity == "PHONE_NUMBER" and self._numbers:
            number = _number(value, self._region)
            if number is not None and number in self._numbers:
                return self._numbers[number]
        return self._exact.get(_folded(value))
