"""IP_ADDRESS: IPv4 dotted quads and IPv6 addresses that the stdlib `ipaddress` module
accepts, with what belongs to the address in the span: a CIDR prefix length
(`10.0.0.0/8`, `2001:db8::/32`), an IPv6 zone (`fe80::1%eth0`), an embedded or mapped
IPv4 (`::ffff:192.0.2.1`, `64:ff9b::192.0.2.1`, `::10.0.0.1`). A redaction of the span
leaves nothing of the address behind.

One rule for addresses that reach no one beyond the machine or its link, IPv4 and IPv6
alike: unspecified (`0.0.0.0`, `::`), loopback (`127.0.0.1`, `::1`), link-local
(`169.254.0.0/16`, `fe80::/10`), multicast, the IPv4 broadcast address and IPv4's
reserved 240/4 are reported *weak* (their span is redacted and compared, they never fire
a rule), as are the same addresses mapped into IPv6 (`::ffff:127.0.0.1`). Private
addresses fire, marked `(private)`. IPv6 "reserved" space is kept: it is merely
unallocated, and an address written in full is an address whoever allocated it.

Not addresses: dotted numbers that a nearby word calls a version or a section, a quad
glued into `1.2.3.4.5`, `std::vector`, times (`12:34:56`), MAC addresses, a truncated
embedded IPv4 (`::ffff:192.168.1`). When an IPv6 candidate is glued to a word in front
(`text::ffff:192.0.2.1`), its IPv4 tail is still judged on its own.
"""

from __future__ import annotations

import ipaddress
import re

import re2

from redline.screen.detectors.base import Detection
from redline.screen.detectors.pii_recognizers._base import (
    PatternRecognizer,
    clean_edges,
    is_alnum,
    words_before,
)

_HEX = "[0-9A-Fa-f]"
_V4_TAIL = re.compile(r"[0-9]{1,3}(?:\.[0-9]{1,3}){3}$")
_PREFIX = re.compile(r"/([0-9]{1,4})(?![0-9A-Za-z])")
_ZONE = re.compile(r"%[A-Za-z0-9_.-]{1,32}")
_Address = ipaddress.IPv4Address | ipaddress.IPv6Address


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
            found = self._ipv6(text, start, end, candidate)
            if found is None and "." in candidate:  # `text::ffff:192.0.2.1`: the IPv4 tail alone
                tail = _V4_TAIL.search(candidate)
                if tail is not None:
                    return self._ipv4(text, start + tail.start(), end)
            return found
        return self._ipv4(text, start, end)

    def _ipv4(self, text: str, start: int, end: int) -> Detection | None:
        if not clean_edges(text, start, end):
            return None
        try:
            address = ipaddress.IPv4Address(text[start:end])  # rejects 256+ and leading zeros
        except ValueError:
            return None
        if any(word in self.context for word in words_before(text, start, 24)[:2]):
            return None
        end = _with_prefix(text, end, 32)
        return self._hit(start, end, address, "IPv4")

    def _ipv6(self, text: str, start: int, end: int, candidate: str) -> Detection | None:
        # "std::vector", "a::b", "Foo::Bar": code, not an address: a letter, colon or
        # dot running on, or no digit where there is no `::` alone
        if start > 0 and (is_alnum(text[start - 1]) or text[start - 1] in ":."):
            return None
        if end < len(text) and (is_alnum(text[end]) or text[end] == ":"):
            return None
        if text[end : end + 1] == "." and text[end + 1 : end + 2].isdigit():
            return None  # `::ffff:192.168.1`: an embedded IPv4 cut short
        if candidate != "::" and (not any(c.isdigit() for c in candidate) or candidate.count(":") < 2):
            return None
        groups = [part for part in candidate.split(":") if part]
        if len(groups) == 1 and "." not in candidate and not any(c.isdigit() for c in groups[0]):
            return None  # `a::`, `::b`: a scope operator, not an address (`::1`, `fe80::` are)
        try:
            address = ipaddress.IPv6Address(candidate)
        except ValueError:
            return None
        zone = _ZONE.match(text, end)
        if zone is not None:
            end = zone.end()
        end = _with_prefix(text, end, 128)
        return self._hit(start, end, address, "IPv6")

    def _hit(self, start: int, end: int, address: _Address, kind: str) -> Detection:
        mapped = address.ipv4_mapped if isinstance(address, ipaddress.IPv6Address) else None
        nobody = _reaches_no_one(mapped or address)
        if nobody:
            return self.hit(start, end, f"weak: {kind} {nobody} address, reaches no one beyond its host or link", 0.2)
        kind = f"{kind} ({'private' if address.is_private else 'public'})" if kind == "IPv4" else kind
        return self.hit(start, end, f"ipaddress: valid {kind}")


def _reaches_no_one(address: _Address) -> str:
    """The name of the class of `address` that reaches no one beyond its host or link, or ""."""
    if address.is_unspecified:
        return "unspecified"
    if address.is_loopback:
        return "loopback"
    if address.is_link_local:
        return "link-local"
    if address.is_multicast:
        return "multicast"
    if isinstance(address, ipaddress.IPv4Address) and (address.is_reserved or int(address) == 0xFFFFFFFF):
        return "reserved or broadcast"
    return ""


def _with_prefix(text: str, end: int, bits: int) -> int:
    """`end` extended over a CIDR prefix length (`/8`, `/128`) that fits the address."""
    match = _PREFIX.match(text, end)
    if match is None or int(match.group(1)) > bits:
        return end  # `10.0.0.0/123`: the address stands, the suffix is no prefix
    return match.end()
