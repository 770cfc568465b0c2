"""Random-looking strings with no name or vendor prefix: the last net.

A candidate is a run of 20+ base64 / base64url characters. It counts only when it looks
machine-generated (`looks_random`: letters and digits mixed, class switches at most
steps, entropy near that of a random string of its length) and nothing around it says
what it is: not inside a URL or an armored block (a PGP public key, a certificate), not a
hex digest or UUID (commit hashes, checksums, ids), not labelled as a hash, id, signature
or public value, not base64 of readable text, not opening with a vendor prefix whose
format it fails, not an identifier whose parts are short words (`SN_id_Gost28147_89`).
Runs longer than 64 characters are left to the vendor formats: at that length a random
run is mostly an encoded payload (a signature, ciphertext, an image), not a key.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import re
from collections.abc import Iterator

import re2

from redline.screen.detectors.base import Detection
from redline.screen.detectors.credentials_recognizers._guards import (
    compound_identifier,
    is_hex,
    is_uuid,
    looks_random,
    name_segments,
    split_tag,
)
from redline.screen.detectors.credentials_recognizers.vendor import PUBLIC_PREFIXES, is_test_value

_CANDIDATE = re2.compile(r"[A-Za-z0-9+/_-]{20,}={0,2}")
_URL = re2.compile(r"[A-Za-z][A-Za-z0-9+.-]{1,30}://[^\s<>\"'`]+")
_ARMOR = re2.compile(r"-----(BEGIN|END) ([A-Z0-9 ]{1,60})-----")
MAX_LENGTH = 64
_PRINTABLE = bytes(range(32, 127)) + b"\t\n\r"
# the last word before a string, or a part of that word, that says the string identifies
# or describes something (`commit 3f9c…`, `request_id=…`, `CloudFront-Signature: …`)
_BENIGN_STEMS = (
    "commit", "sha", "hash", "checksum", "digest", "md5", "revision", "rev", "etag", "integrity", "fingerprint",
    "nonce", "salt", "iv", "signature", "csrf", "xsrf", "authenticity", "public", "pub", "id", "uuid", "guid",
    "name", "url", "uri", "path", "file", "version", "tag", "ref", "request", "trace", "correlation", "order",
    "ticket", "tracking", "invoice", "reference", "confirmation", "booking", "serial", "receipt", "case", "build",
    "image", "container", "sku", "part",
)
_FILLER_WORDS = frozenset({"is", "was", "number", "no", "code", "#"})
_SEPARATORS = " \t:=#\"'(\\"
_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")


def high_entropy(data: str) -> Iterator[Detection]:
    skip = _skipped_spans(data)
    skip_starts = [s for s, _ in skip]
    for match in _CANDIDATE.finditer(data):
        start, end = match.span()
        if end - start > MAX_LENGTH + 2 or _inside(skip, skip_starts, start):
            continue
        value = data[start:end]
        core = value.rstrip("=").lstrip("_-")
        if is_hex(core.replace("-", "")) or is_uuid(core) or core.startswith(PUBLIC_PREFIXES) or is_test_value(core):
            continue  # digests, commit hashes and UUIDs identify things; they open nothing
        if _benign_label(data, start):
            continue
        prefix, body = split_tag(core)
        if prefix:  # `sk_1dcc…`, `pul-9f3a…`: a short tag in front of key material
            ok, why = looks_random(body, min_length=16)
            what = f"'{prefix}' then a random-looking {len(body)}-character key: {why}"
        else:
            if compound_identifier(core):
                continue
            ok, why = looks_random(core)
            what = f"random-looking {len(core)}-character string: {why}"
        if not ok or _readable_base64(body) or data.startswith(("..", "\u2026"), end):
            continue  # encoded text, or a value cut short with an ellipsis
        yield Detection(start, end, "HIGH_ENTROPY_STRING", what, 0.6)


def _skipped_spans(data: str) -> list[tuple[int, int]]:
    """URLs and armored non-private blocks (public keys, certificates, PGP messages)."""
    spans = [m.span() for m in _URL.finditer(data)] if "://" in data else []
    if "-----" in data:
        opened: dict[str, int] = {}
        for m in _ARMOR.finditer(data):
            kind, label = m.group(1), m.group(2)
            if "PRIVATE" in label:
                continue
            if kind == "BEGIN":
                opened.setdefault(label, m.start())
            elif label in opened:
                spans.append((opened.pop(label), m.end()))
        spans.extend((start, len(data)) for start in opened.values())  # cut off before its END
    spans.sort()
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _benign_label(data: str, start: int) -> bool:
    """The word before the string, or before the whitespace-delimited word it is part of
    (`CloudFront-Signature: Ixn4…~6rzQ…`), says it is not a secret."""
    line_start = data.rfind("\n", 0, start) + 1
    word_start = max(line_start, data.rfind(" ", line_start, start) + 1, data.rfind("\t", line_start, start) + 1)
    for at in {start, word_start}:
        before = data[max(line_start, at - 60) : at]
        if before.endswith("base64,"):
            return True
        label = _last_label(before)
        if label and any(seg.startswith(_BENIGN_STEMS) for seg in name_segments(label)):
            return True
    return False


def _last_label(before: str) -> str:
    """The last word of `before`, looking past `is`, `number`, `no`, `#` (up to two)."""
    text = before
    for _ in range(3):
        text = text.rstrip(_SEPARATORS)
        i = len(text)
        while i > 0 and text[i - 1] in _WORD_CHARS:
            i -= 1
        word, text = text[i:], text[:i]
        if word.lower() not in _FILLER_WORDS:
            return word
    return ""


def _inside(spans: list[tuple[int, int]], starts: list[int], pos: int) -> bool:
    i = bisect.bisect_right(starts, pos) - 1
    return i >= 0 and spans[i][0] <= pos < spans[i][1]


def _readable_base64(value: str) -> bool:
    """True when `value` is base64 of readable text (`eyJ…` JSON, `dXNlcj…`): encoded
    data, not key material."""
    padded = value + "=" * (-len(value) % 4)
    try:
        raw = base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
    except (binascii.Error, ValueError):
        return False
    if len(raw) < 12:
        return False
    unreadable = len(raw.translate(None, _PRINTABLE))
    return unreadable / len(raw) < 0.05
