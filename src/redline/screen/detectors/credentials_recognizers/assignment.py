"""Secrets assigned to a name that says what they are: `DB_PASSWORD=…`, `"api_key": "…"`,
`password: Tr0ub4dor&3`, `<add key="Password" value="…"/>`, `if (token == "…")`.

The name decides what the value must prove. A password-type name (password, passwd,
pwd, passphrase) takes any value that is not a placeholder, a reference or a word; a
secret-type name (secret, token, api_key, credentials, auth …) also wants ten or more
characters; a bare `key` wants a value that looks random; a name that ends in what the
value merely identifies (`…_id`, `…_name`, `…_url`, `…_length`) or that says it is
public (`public_key`, `csrf_token`) takes nothing. A service name (`HEROKU_…`,
`sumologic.accessId`) takes a value in that service's format whatever the rest of the
name says: this is how gitleaks' keyword rules work, as one table.

Layouts: `=`, `:`, `=>`, `:=`, "is", a `|` or ` - ` of tables and logs; a type between
name and `=` (`const fastlyKey string =`, `val key: String =`, `let token: &str =`); a
value in braces or brackets (`{…}`, `{ … }`); padding inside quotes; a query parameter
(`?key=…&`, cut at `&`). A value that only a space or a few words and a colon join to
its name (`acme secret 3f9c…`, "the key you asked for: 3f9c…"), or one longer than
any password (over 512 characters), must also look random. A value that opens with a
vendor's prefix but fails the vendor's format is judged here like any other.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import re2

from redline.screen.detectors.base import Detection
from redline.screen.detectors.credentials_recognizers._guards import (
    compound_identifier,
    entropy,
    has_letter_run,
    is_hand_typed,
    is_placeholder,
    is_uuid,
    name_segments,
    looks_like_version,
    split_tag,
    looks_random,
)
from redline.screen.detectors.credentials_recognizers.vendor import PUBLIC_PREFIXES, is_test_value

_UUID = r"[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}"
# service word in the name -> value format that service issues
_SERVICES: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (("heroku",), "Heroku API key", _UUID),
    (("snyk",), "Snyk API token", _UUID),
    (("hubspot",), "HubSpot API key", _UUID),
    (("messagebird",), "MessageBird credential", _UUID + "|[A-Za-z0-9]{25}"),
    (("sumo", "sumologic"), "Sumo Logic access ID or key", "su[A-Za-z0-9]{12}|[A-Za-z0-9]{64}"),
    (("okta",), "Okta API token", r"00[\w=-]{40}"),
    (("sonar",), "SonarQube token", "(?:sq[apu]_)?[A-Za-z0-9]{40}"),
    (("sourcegraph",), "Sourcegraph access token", "[a-fA-F0-9]{40}"),
    (("facebook",), "Facebook app secret", "[a-f0-9]{32}"),
    (("mailchimp",), "Mailchimp API key", r"[a-f0-9]{32}-us\d{1,2}"),
    (("jira", "atlassian", "confluence"), "Atlassian API token", "[A-Za-z0-9]{24}"),
    (("discord",), "Discord secret", "[a-f0-9]{64}|[A-Za-z0-9_=-]{32}"),
    (("twilio",), "Twilio auth token", "[a-f0-9]{32}"),
    (("telegram",), "Telegram bot token", r"\d{5,16}:A[\w-]{34}"),
    (("datadog",), "Datadog API key", "[a-f0-9]{32}|[a-f0-9]{40}"),
    (("algolia",), "Algolia API key", "[a-f0-9]{32}"),
    (("meraki",), "Cisco Meraki API key", "[0-9a-f]{40}"),
    (("dropbox",), "Dropbox token", r"[a-z0-9]{15}|sl\.[\w=-]{130,}"),
)
_SERVICE_FORMAT = {word: (what, re.compile(fmt)) for words, what, fmt in _SERVICES for word in words}
SERVICE_WORDS = tuple(_SERVICE_FORMAT)

_KW = (
    r"pass(?:word|wd|phrase)?|pwd|secret|token|api[ _.-]?key|access[ _.-]?key|private[ _.-]?key|"
    r"client[ _.-]?secret|auth|cred(?:ential)?s?|key|" + "|".join(sorted(_SERVICE_FORMAT, key=len, reverse=True))
)
# unbounded (`+`, not `{1,300}`): a counted repetition multiplies RE2's DFA states
_VALUE = r"(\"[^\"\n]+\"|'[^'\n]+'|`[^`\n]+`|[^\s\"'`<>(){}\[\],;]+)"
# beside a name with only a space or a few words between, a value must look random, so
# it is at least 16 key characters (most prose words after "token" are not even that)
_SPACED_VALUE = r"([A-Za-z0-9+/=_.~-]{16,})"
_LONG_VALUE = 512  # longer than this, a value must look random: a paragraph is prose
# `|` and ` - ` join a name to its value in tables and log lines (`token | …`, `auth - …`)
_OP = r"(:{1,3}=|[?!:+]?=[=>]?=?|=>|->|:|[ \t]+(?:is|was)[ \t]+|[ \t]*\|[ \t]*|[ \t]+-[ \t]+)"
# a type between the name and `=`: `val key: String =`, `let token: &str =`,
# `const apiKey: string =`, Go's `const fastlyKey string =`
_TYPE = (
    r"(?:[ \t]*:[ \t]*&?(?:'[a-z]+[ \t]+)?(?:mut[ \t]+)?[A-Za-z_][\w.]*(?:<[\w., ]*>|\[\])?\??(?:[ \t]*=))"
    r"|(?:[ \t]+[A-Za-z_][\w.]*(?:\[\])?[ \t]*:?=)"
)
# a value wrapped in braces or brackets, spaced or not: `key = {…}`, `token: { … }`
_WRAP = r"(?:[{(\[][ \t]*)?"
_QUOTED = r"(\"[^\"\n]+\"|'[^'\n]+')"
# (characters the text must hold: one of each group, pattern, group of the name, group of
# the value, whether the value must look random because nothing but a space joins it)
_FORMS = (
    ((), re2.compile(
        r"(?i)((?:" + _KW + r")[\w.-]*)[\"'`]?(?:\[\d*\])?(?:" + _TYPE + r"|[ \t]*" + _OP + r")[ \t]*[@&]?"
        + _WRAP + _VALUE), 1, 3, False),
    ((",", "\"'"), re2.compile(r"(?i)[\"']([\w.-]*(?:" + _KW + r")[\w.-]*)[\"'][ \t]*,[ \t]*" + _QUOTED), 1, 2,
     False),
    (("=", "\"'"), re2.compile(r"(?i)" + _QUOTED + r"[ \t]*[!=]==?[ \t]*([\w.]*(?:" + _KW + r")[\w.]*)"), 2, 1,
     False),
    (("=", '"'),
     re2.compile(r"(?i)\bkey[ \t]*=[ \t]*\"([^\"\n]*(?:" + _KW + r")[^\"\n]*)\"[ \t]+value[ \t]*=[ \t]*(\"[^\"\n]+\")"),
     1, 2, False),
    (("<",), re2.compile(r"(?i)<([\w.:-]*(?:" + _KW + r")[\w.:-]*)>([^<\n]+)</"), 1, 2, False),
    (("\"'",), re2.compile(r"(?i)((?:" + _KW + r")[\w.-]*)[ \t]+" + _QUOTED), 1, 2, False),
    # `fastly secret 3f…`, `--token 9a…`: a name and a value side by side, as in prose;
    # `the key you asked for: 3f…`: a few words and a colon between them. Only a
    # random-looking value counts ("the token expired", "the key point: …").
    ((), re2.compile(r"(?i)((?:" + _KW + r")[\w.-]*)[ \t]+" + _SPACED_VALUE), 1, 2, True),
    ((":",), re2.compile(r"(?i)((?:" + _KW + r")[\w.-]*)(?:[ \t]+[A-Za-z']+){1,5}[ \t]*:[ \t]+" + _SPACED_VALUE), 1,
     2, True),
)
_DIGIT = re.compile(r"[0-9]")
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
_PASSWORD = frozenset("password passwd pwd pass passphrase passwort".split())
_SECRET = frozenset("secret token credential credentials creds cred auth bearer apikey".split())
_SECRET_PAIRS = frozenset(
    f"{a} {b}"
    for a in "api access secret private master encryption signing client app auth license account".split()
    for b in ("key", "token")
)
_SQUASHED = ("password", "passwd", "apikey", "secretkey", "accesskey", "privatekey", "authtoken", "accesstoken",
             "apitoken", "clientsecret")
# the value only identifies or describes something: ends the name
_IDENTIFIES = frozenset(
    """id ids uuid guid name names type kind length len size file filename path dir url uri urls endpoint host
    hostname port field label version ver hint policy format fmt prefix suffix count expiry expires expiration ttl
    timeout header variable var env ref arn alias hash digest checksum mode enabled required status strength min
    max rule rules regex pattern placeholder index idx column table store storetype vault provider manager class
    style prompt message msg text title description desc help error errors link template method algorithm alg
    scheme scope scopes audience issuer usage location region bucket mask button input form view page icon chars
    selector pressed pair signature signatures source meshing at date time timestamp changed updated created
    since until age username user login email mail""".split()
)
# the value is not secret by design, whatever the rest of the name says
_PUBLIC = frozenset("public pub publishable csrf xsrf authenticity fingerprint nonce salt iv example sample".split())
# `<qualifier>_key` names a lookup key, not a secret
_KEY_QUALIFIERS = frozenset(
    "bucket foreign primary schema sequence sort partition cache hot idx natural composite unique row map dict "
    "lookup object react hash group cluster routing shard idempotency dedup dedupe deduplication request "
    "correlation message event".split()
)
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?$")
_DOMAIN = re.compile(r"[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+\.[A-Za-z]{2,6}|[A-Za-z0-9-]+\.(?:com|net|org|io|local)")


def assignments(data: str) -> Iterator[Detection]:
    present = {c for c in "\"',=<:" if c in data}
    for needs, pattern, name_group, value_group, spaced in _FORMS:
        if not all(present.intersection(group) for group in needs):
            continue  # each form is one pass over the text: skip those that cannot match
        for match in pattern.finditer(data):
            name_start, name_end = match.span(name_group)
            while name_start > 0 and data[name_start - 1] in _NAME_CHARS and name_end - name_start < 80:
                name_start -= 1  # `DB_PASSWORD`: the keyword matched inside the name
            value_start, value_end = match.span(value_group)
            if spaced and not _DIGIT.search(data, value_start, value_end):
                continue  # no digit: a word, never random-looking enough
            if name_start > 0 and data[name_start - 1] in "?&;":  # a query parameter ends at & or #
                cut = min((i for i in (data.find("&", value_start, value_end), data.find("#", value_start, value_end))
                           if i >= 0), default=value_end)
                value_end = cut
            found = _judge(data[name_start:name_end], value_start, value_end, data, spaced)
            if found is not None:
                yield found


def _judge(name: str, start: int, end: int, data: str, spaced: bool = False) -> Detection | None:
    raw = data[start:end]
    quoted = raw[:1] in "\"'`" and len(raw) > 1
    if quoted:  # `"secret": " 9f3a… "`: the padding inside the quotes is not the secret
        start, end = start + 1, end - 1
        while start < end and data[start] in " \t":
            start += 1
        while end > start and data[end - 1] in " \t":
            end -= 1
    else:  # prose: "password: Tr0ub4dor&3, please change it"
        stripped = raw.rstrip(".,;:?)]}")  # not `!`: passwords end in it more often than prose
        end = start + len(stripped)
    value = data[start:end]
    segments = name_segments(name)
    if not value or not segments or value.startswith(PUBLIC_PREFIXES) or _cut_short(data, end):
        return None
    if is_test_value(value):
        return None
    # a value over the length of any password, or one that only a space joins to its
    # name, counts only when it looks random: a paragraph after `password:` is prose
    random_only = spaced or end - start > _LONG_VALUE
    service = _service(segments)
    if service is not None:  # the name says whose credential it is, so the format must fit
        what, fmt = _SERVICE_FORMAT[service]
        if fmt.fullmatch(value) and not is_placeholder(value) and entropy(value) >= 3.0:
            return Detection(start, end, "SERVICE_TOKEN", f"{what} assigned to '{name}'", 0.9)
        return None
    kind = _kind(segments)
    if kind is None:
        return None
    why = _value_problem(value, "key" if random_only else kind, quoted)
    if why is not None:
        return None
    return Detection(start, end, "GENERIC_SECRET", f"value assigned to '{name}' ({kind}-type name)", 0.8)


def _service(segments: list[str]) -> str | None:
    """The service a name belongs to: a word of the table that starts a segment of the
    name (`sumologic`) or spells whole segments of it (`MessageBird…`), never part of one
    (`sumObj`)."""
    for i, segment in enumerate(segments):
        joined = ""
        for nxt in segments[i:]:
            joined += nxt
            if joined in _SERVICE_FORMAT:
                return joined
        for word in _SERVICE_FORMAT:
            if len(word) >= 4 and segment.startswith(word):
                return word
    return None


def _kind(segments: list[str]) -> str | None:
    """'password', 'secret', 'key' (a bare key: the value must look random) or None."""
    if segments[-1] in _IDENTIFIES or _PUBLIC.intersection(segments):
        return None
    squashed = "".join(segments)
    if _PASSWORD.intersection(segments) or any(w in squashed for w in ("password", "passwd", "passphrase")):
        return "password"
    pairs = {f"{a} {b}" for a, b in zip(segments, segments[1:])}
    if _SECRET.intersection(segments) or pairs & _SECRET_PAIRS or squashed.endswith(_SQUASHED):
        return "secret"
    if "key" in segments:
        i = segments.index("key")
        return None if i and segments[i - 1] in _KEY_QUALIFIERS else "key"
    return None


def _value_problem(value: str, kind: str, quoted: bool) -> str | None:
    """Why `value` is not a secret for a name of this kind, or None when it is one."""
    if len(value) < (6 if kind == "password" else 10):
        return "too short"
    if is_placeholder(value) or any(c.isspace() for c in value):
        return "placeholder or prose"
    if "://" in value or value.startswith(("/", "./", "~/", "../")) or _DOMAIN.fullmatch(value):
        return "a URL, path or host name"
    if looks_like_version(value) or has_letter_run(value) or is_hand_typed(value, sequences=False) or _DATE.match(value):
        return "a version, a date or an example value"
    if not any(c.isdigit() for c in value) and not _symbols(value):
        upper = sum(c.isupper() for c in value)
        lower = sum(c.islower() for c in value)
        if "_" in value or "." in value or upper < 3 or lower < 3:
            return "a word or an identifier"
    if kind == "key":
        if is_uuid(value):
            return None  # many vendors issue UUIDs as keys; named `key`, it is one
        if compound_identifier(value):
            return "an identifier made of words"
        ok, why = looks_random(split_tag(value)[1], min_length=16)
        return None if ok else why
    return None


def _cut_short(data: str, end: int) -> bool:
    """The value stops where an ellipsis or a `[redacted]` stands for the rest of it."""
    after = data[end : end + 10].lower()
    return after.startswith(("..", "\u2026", "[redact", "<redact", "(redact"))


def _symbols(value: str) -> bool:
    return any(not c.isalnum() and c not in "_.-%" for c in value)
