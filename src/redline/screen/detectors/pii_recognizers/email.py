"""EMAIL_ADDRESS: an RFC 5322 addr-spec, the dot-atom form only, and "lite": no quoted
local parts, no IP-literal domains, and none of the atom characters that in prose and
code delimit rather than belong (' ` = / | { }), so `to='joe@example.com'` yields the
address and not `to='joe`."""

from __future__ import annotations

from typing import ClassVar

import re2

from redline.screen.detectors.base import Detection
from redline.screen.detectors.pii_recognizers._base import PatternRecognizer

_ATOM = r"[A-Za-z0-9!#$%&*+?^_~-]"
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"


class EmailRecognizer(PatternRecognizer):
    entity = "EMAIL_ADDRESS"
    # the top-level domain is letters, or an internationalised one in punycode (`xn--p1ai`)
    pattern = re2.compile(rf"{_ATOM}+(?:\.{_ATOM}+)*@(?:{_LABEL}\.)+(?:xn--[A-Za-z0-9-]{{2,59}}|[A-Za-z]{{2,63}})")
    # "icon@2x.png" is a retina image name, not a mailbox: these are not top-level domains
    file_suffixes: ClassVar[frozenset[str]] = frozenset(
        {"png", "jpg", "jpeg", "gif", "svg", "webp", "bmp", "ico", "tif", "tiff"}
    )

    def validate(self, text: str, start: int, end: int) -> Detection | None:
        # prose wraps addresses in quotes and brackets that the atom class allows
        while start < end and not (text[start].isalnum() or text[start] == "_"):
            start += 1
        # "https://user:secret@host" is a URL's login, not a mailbox (mailto: still is)
        lead = text[max(0, start - 256) : start]  # bounded: no quadratic look-back
        if "://" in lead[max(lead.rfind(" "), lead.rfind("\n")) + 1 :]:
            return None
        local, _, domain = text[start:end].rpartition("@")
        if not local or len(local) > 64 or end - start > 254:
            return None
        if domain.rsplit(".", 1)[-1].lower() in self.file_suffixes:
            return None
        if end < len(text) and (text[end].isalnum() or text[end] in "-_@"):
            return None  # runs on into a longer token
        return self.hit(start, end, "email: RFC 5322 dot-atom address")
