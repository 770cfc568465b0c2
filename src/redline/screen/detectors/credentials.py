"""The `credentials` detector: keys, tokens, passwords and private keys in a draft.

Library decision (measured with benchmarks/secrets_bench.py; docs/detectors-credentials.md):
detect-secrets 1.5.0 is the well-kept Python library for this job, and it does not fit.
With its default plugins it fires on 95.3% of gitleaks' hard negatives (its entropy and
keyword plugins flag any long string and any `key = …`); with its vendor plugins alone
it finds 28.3% of gitleaks' true samples; and it costs 584 µs (all plugins) or 303 µs
(vendor plugins) per clean 1 KB draft, against a 20 µs budget, because every plugin is
a Python `re` pattern run line by line, and `re` can backtrack where a guardrail must
not stall. Its forks (bc-detect-secrets) share that design; ggshield needs a network
API; trufflehog's Python regexes are unmaintained since 2018. So the patterns are
written here for RE2, modelled on the rules gitleaks publishes (MIT licence;
github.com/gitleaks/gitleaks, config/gitleaks.toml), and scored on both gitleaks' rule
samples and detect-secrets' plugin tests. Here: recall 0.980, false-positive rate 0.091
on gitleaks' samples, 2.6 µs per clean 1 KB draft.

How a check runs: the text is projected to ASCII one character for one (so every offset
is an offset of the original, lone surrogates included), one RE2 `Set` pass over it says
which recognizer families have anything to look at (a vendor prefix such as `AKIA`,
`ghp_`, `xox`, `sk_live_`, `-----BEGIN`; a word such as password, token or key; `://`;
a 20-character run of base64), and only those run. A clean 1 KB draft costs the
projection and that one pass. Where two recognizers claim overlapping text the more
specific wins: a vendor format over a named assignment over a random-looking string.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

import re2

from redline.screen.detectors.base import Detection, keep_non_overlapping
from redline.screen.detectors.credentials_recognizers import assignment, entropy, structured, urls, vendor

ENTITIES = tuple(sorted({r.entity for r in vendor.RULES} | {
    "AWS_SECRET_KEY", "JWT", "PRIVATE_KEY", "CONNECTION_STRING_PASSWORD", "AUTH_HEADER", "BASIC_AUTH_PASSWORD",
    "KUBERNETES_SECRET", "GENERIC_SECRET", "SERVICE_TOKEN", "HIGH_ENTROPY_STRING", "WEBHOOK_URL",
}))

_Family = Callable[[str], Iterable[Detection]]
_FAMILIES: tuple[tuple[str, _Family], ...] = (
    # (prefilter pattern, recognizer): the recognizer runs when the pattern occurs
    (r"-----BEGIN", structured.private_keys),
    (r"://", structured.url_passwords),
    (r"(?i)://[^\s]*(?:hook|trigger|/keys?/|/tokens?/|/api_?key/|/secret/|/auth/)", urls.url_secrets),
    (r"(?i)authorization", structured.auth_headers),
    (r"curl", structured.curl_passwords),
    (r"(?i)kind:", structured.kubernetes_secrets),
    (r"(?i)aws|secret|\bsk\b", structured.aws_secret_keys),
    (r"BUNDLE_", structured.bundler_credentials),
    (r"(?i)pass|pwd|secret|token|key|auth|cred|" + "|".join(assignment.SERVICE_WORDS), assignment.assignments),
    (r"[A-Za-z0-9+/_-]{20}", entropy.high_entropy),
)


_PATTERNS = [p for p, _ in _FAMILIES] + [p for p, _ in vendor.keyword_patterns()]
_OPTIONS = re2.Options()
_OPTIONS.max_mem = 64 << 20
_PREFILTER = re2.Set.SearchSet(_OPTIONS)
for _pattern in _PATTERNS:
    _PREFILTER.Add(_pattern)
_PREFILTER.Compile()
# RE2::Set has no NFA fallback: on a long adversarial text its DFA can give up and report
# no match. A plain RE2 search of the same alternation falls back to the NFA instead, so
# it double-checks a long text that the Set calls clean.
_ANY = re2.compile("|".join(f"(?:{p})" for p in _PATTERNS), _OPTIONS)
_SET_TRUSTED_UP_TO = 1 << 16
_FAMILY_COUNT = len(_FAMILIES)

# non-ASCII whitespace becomes a space, any other non-ASCII character (lone surrogates
# included) a DEL: one code point for one, so offsets stay offsets of the original.
# stdlib `re` here is a single character class: linear, cannot backtrack.
_NON_ASCII_SPACE = re.compile("[\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")
_NON_ASCII = re.compile("[^\x00-\x7f]")


class CredentialsDetector:
    """Finds credentials in a text; spans are spans of the original text."""

    name = "credentials"

    def detect(self, text: str) -> list[Detection]:
        if not text:
            return []
        data = _ascii(text)
        hits = _PREFILTER.Match(data)
        if hits is None and len(data) > _SET_TRUSTED_UP_TO and _ANY.search(data) is not None:
            hits = list(range(_FAMILY_COUNT + len(vendor.RULES)))
        found: list[Detection] = []
        for index in hits or ():
            if index < _FAMILY_COUNT:
                found.extend(_FAMILIES[index][1](data))
            else:
                found.extend(vendor.find(index - _FAMILY_COUNT, data))
        return _resolve(found) if len(found) > 1 else found


def _ascii(text: str) -> str:
    if text.isascii():
        return text
    return _NON_ASCII.sub("\x7f", _NON_ASCII_SPACE.sub(" ", text))


def _resolve(found: list[Detection]) -> list[Detection]:
    """Non-overlapping detections in text order; on overlap the more specific (higher score) wins, then the longer."""
    return keep_non_overlapping(found, lambda d: -d.score)
