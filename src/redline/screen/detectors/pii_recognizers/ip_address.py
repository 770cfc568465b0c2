"""IP_ADDRESS: IPv4 dotted quads and IPv6 addresses that the stdlib `ipaddress` module
accepts, less the ones that point at no one (unspecified, loopback, multicast, IPv4's
link-local 169.254/16 and reserved 240/4 with its netmasks and broadcast) and dotted
numbers that a nearby word calls a version or a section. IPv6 "reserved" space is kept:
it is merely unallocated, and an address written in full is an address whoever
allocated it."""

from __future__ import annotations

import ipaddress

import re2

from redline.screen.detectors.base import Detection
from redline.screen.detectors.pii_recognizers._base import (
    PatternRecognizer,
    clean_edges,
    is_alnum,
    words_before,
)

_HEX = "[0-9A-Fa-f]"


class IpAddressRecognizer(PatternRecognizer):
    entity = "IP_ADDRESS"
    pattern = re2.compile(
        r"[0-9]{1,3}(?:\.[0-9]{1,3}){3}"
        rf"|{_HEX}{{0,4}}(?::{_HEX}{{0,4}}){{2,7}}(?:\.[0-9]{{1,3}}\.[0-9]{{1,3}}\.[0-9]{{1,3}})?"
    )
    # "version 10.2.0.1", "section 1.2.3.4": a dotted number, not an address
    context = frozenset(
        {"version", "ver", "v", "release", "build", "rev", "revision", "firmware", "update",
         "patch", "section", "chapter", "clause", "step", "figure", "table", "article", "oid"}
    )  # fmt: skip

    def validate(self, text: str, start: int, end: int) -> Detection | None:
        candidate = text[start:end]
        if ":" in candidate:
            return self._ipv6(text, start, end, candidate)
        if not clean_edges(text, start, end):
            return None
        try:
            address = ipaddress.IPv4Address(candidate)  # rejects 256+ and leading zeros
        except ValueError:
            return None
        # IPv4 link-local (169.254/16) is a cloud metadata endpoint or a host without
        # DHCP; it points at no one beyond the link
        if self._points_at_no_one(address) or address.is_reserved or address.is_link_local:
            return None
        if any(word in self.context for word in words_before(text, start, 24)[:2]):
            return None
        kind = "private" if address.is_private else "public"
        return self.hit(start, end, f"ipaddress: valid IPv4 ({kind})")

    def _ipv6(self, text: str, start: int, end: int, candidate: str) -> Detection | None:
        # "std::vector", "a::b", "Foo::Bar": code, not an address: a letter, colon or
        # dot running on, no digit, or a single group
        if start > 0 and (is_alnum(text[start - 1]) or text[start - 1] in ":."):
            return None
        if end < len(text) and (is_alnum(text[end]) or text[end] == ":"):
            return None
        if not any(c.isdigit() for c in candidate) or candidate.count(":") < 2:
            return None
        if sum(1 for part in candidate.split(":") if part) < 2:
            return None
        try:
            address = ipaddress.IPv6Address(candidate)
        except ValueError:
            return None
        if self._points_at_no_one(address):
            return None
        return self.hit(start, end, "ipaddress: valid IPv6")

    @staticmethod
    def _points_at_no_one(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
        return address.is_unspecified or address.is_loopback or address.is_multicast
