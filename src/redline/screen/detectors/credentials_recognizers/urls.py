"""Secrets that a URL carries in its path: webhook URLs and keys written as a path segment.

A webhook URL is itself the credential: whoever holds it can post as the integration.
The vendor table knows Slack's, Discord's, Teams' and Zapier's; every other chat tool,
CI service and workflow engine follows one of two shapes, and this recognizer reads
those shapes instead of listing vendors:

- a hook host or a hook segment (`hooks.example.io/…`, `…/hooks/…`, `…/webhook/…`,
  `…/webhookb2/…`, `…/triggers/…`) followed by a path segment or a query value that
  looks random: the URL up to its end is reported (`WEBHOOK_URL`);
- a segment named as a key (`…/with/key/<value>`, `…/token/<value>`, `…/apikey/<value>`)
  followed by a random-looking segment: that segment is reported (`GENERIC_SECRET`).

A numeric id (`/hooks/12345678`), a UUID alone, a word or a placeholder never counts, so
`api.github.com/repos/o/r/hooks/1234` and `/webhooks/settings` stay quiet. Query values
named as secrets (`?token=…`, `?api_key=…`) are the named-assignment family's.
"""

from __future__ import annotations

from collections.abc import Iterator

import re2

from redline.screen.detectors.base import Detection
from redline.screen.detectors.credentials_recognizers._guards import is_hex, is_placeholder, is_uuid, looks_random

_URL = re2.compile(r"\bhttps?://[^\s\"'`<>()\[\]{}|\\^]+")
_HOOK_SEGMENTS = frozenset({"hook", "hooks", "webhook", "webhooks", "webhookb2", "incomingwebhook", "trigger",
                            "triggers"})
_KEY_SEGMENTS = frozenset({"key", "keys", "token", "tokens", "apikey", "api_key", "api-key", "secret",
                           "access_token", "auth"})
_TRAILING = ".,;:!?"


def url_secrets(data: str) -> Iterator[Detection]:
    for match in _URL.finditer(data):
        start, end = match.span()
        while end > start and data[end - 1] in _TRAILING:
            end -= 1
        url = data[start:end]
        rest = url.split("://", 1)[1]
        host, _, tail = rest.partition("/")
        path, _, query = tail.partition("?")
        segments = path.split("/")
        hooked = host.lower().startswith(("hooks.", "hook."))
        offset = start + len(url) - len(tail)  # where the path starts in `data`
        for i, segment in enumerate(segments):
            low = segment.lower()
            if low in _HOOK_SEGMENTS:
                hooked = True
            elif i and segments[i - 1].lower() in _KEY_SEGMENTS and _random(segment):
                at = offset + sum(len(s) + 1 for s in segments[:i])
                yield Detection(at, at + len(segment), "GENERIC_SECRET",
                                f"key in a URL path after '/{segments[i - 1]}/'", 0.85)
                break
            elif hooked and _random(segment):
                yield Detection(start, end, "WEBHOOK_URL", "webhook URL with a random path segment", 0.85)
                break
        else:
            if hooked and any(_random(v.partition("=")[2]) for v in query.split("&")):
                yield Detection(start, end, "WEBHOOK_URL", "webhook URL with a random query value", 0.85)


def _random(segment: str) -> bool:
    """A path segment or query value that reads as key material (percent-escapes of
    base64 padding removed)."""
    value = segment.replace("%3D", "").replace("%3d", "").replace("%2B", "+").replace("%2F", "/")
    if len(value) < 16 or is_uuid(value) or is_placeholder(value) or value.isdigit():
        return False
    if is_hex(value):
        return len(value) >= 32
    return looks_random(value, min_length=16)[0]
