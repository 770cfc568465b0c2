"""Credentials that a structure gives away: a PEM block, a password inside a URL, an
Authorization header, `curl -u user:password`, the data of a Kubernetes Secret, an AWS
secret key beside its key ID.

Each recognizer finds the structure with RE2 (linear time) and reports the secret part
only: the password of `postgres://billing:S3cr3t@db`, not the whole URL. Pairing (a PEM
header with its END line, a `data:` block with its `kind: Secret`) is done in Python
over spans RE2 found, so no pattern scans to the end of the text once per match.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

import re2

from redline.screen.detectors.base import Detection
from redline.screen.detectors.credentials_recognizers._guards import (
    entropy,
    is_filler,
    is_placeholder,
    is_reference,
    trailing_mask,
)

_PEM_BEGIN = re2.compile(r"-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----")
_PEM_END = re2.compile(r"-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----")
_BASE64_CHAR = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")
_NOT_BASE64 = {i: None for i in range(128) if chr(i) not in _BASE64_CHAR}  # the text is ASCII here
_PEM_MIN_BODY = 40  # base64 characters: less is a header pasted as an example

_URL_PASSWORD = re2.compile(
    r"\b([A-Za-z][A-Za-z0-9+.-]*)://[^\s:/?#@'\"<>\[\]]*:([^\s/?#@'\"<>]+)@[A-Za-z0-9\[_-]"
)
_AUTH_HEADER = re2.compile(
    r"(?i)\b(?:proxy-)?authorization[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"(?:(bearer|basic|token|api-token|apikey|bot|digest|key|sso-key|jwt|otp)[ \t]+)?([^\s\"'\\]{3,})"
)
_CURL_USER = re2.compile(r"(?:^|[ \t])(?:-u|--user)(?:=|[ \t]+)((?:\"[^\"\n]*\"|'[^'\n]*'|[^\s\"'])+)")
_K8S_KIND = re2.compile(r"(?im)^[ \t]*kind:[ \t]*[\"']?secret[\"']?[ \t]*$")
_K8S_DATA = re2.compile(r"(?m)^([ \t]*)(?:data|stringData):[ \t]*$")
# one line at a time (stdlib `re` on a single line: `.*` at the end cannot backtrack)
_K8S_ENTRY = re.compile(r"([ \t]+)([\w.-]+):[ \t]*(.*)")
_K8S_BASE64 = re2.compile(r"[A-Za-z0-9+/]{10,}={0,3}")
_DOC_BREAK = "\n---"
_AWS_SECRET = re2.compile(r"(?:^|[^A-Za-z0-9/+=])([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)")
_AWS_CONTEXT = re2.compile(r"(?i)aws|secret|\bsk\b")
_AWS_KEY_ID = re2.compile(r"\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b")
_BUNDLER = re2.compile(
    r"\bBUNDLE_[A-Z0-9_]*?__[A-Z0-9_]+[\"']?[ \t]*[:=][ \t]*[\"']?([^\s\"':]{3,}:[^\s\"';&]{3,})"
)


def private_keys(data: str) -> Iterator[Detection]:
    """PEM private-key blocks (RSA, EC, OPENSSH, PGP, encrypted …) with a real body."""
    ends = [m.span() for m in _PEM_END.finditer(data)]
    end_starts = [s for s, _ in ends]
    starts = [m.span() for m in _PEM_BEGIN.finditer(data)]
    for i, (start, header_end) in enumerate(starts):
        limit = starts[i + 1][0] if i + 1 < len(starts) else len(data)
        j = bisect.bisect_left(end_starts, header_end)
        end = ends[j][1] if j < len(ends) and end_starts[j] < limit else None
        body_end = end if end is not None else min(limit, header_end + 20_000)
        body = data[header_end:body_end]
        material = len(body.translate(_NOT_BASE64))
        if material < _PEM_MIN_BODY:
            continue
        if end is None:  # cut off: cover the header and the base64 lines that follow it
            lines = body.split("\n")
            kept = 0
            for line in lines[1:] if lines and not lines[0].strip() else lines:
                if line.strip() and not all(c in _BASE64_CHAR for c in line.strip()):
                    break
                kept += 1
            end = header_end + len("\n".join(lines[: kept + 1]))
        yield Detection(start, end, "PRIVATE_KEY", f"PEM private key block, {material} base64 characters", 1.0)


def url_passwords(data: str) -> Iterator[Detection]:
    """The password of `scheme://user:password@host` (database URLs, basic auth)."""
    for match in _URL_PASSWORD.finditer(data):
        start, end = match.span(2)
        password = data[start:end]
        if is_placeholder(password) or (password.isdigit() and len(password) <= 5):
            continue  # `user:<password>@`, or `host:8080@` read as a password
        scheme = match.group(1).lower()
        yield Detection(start, end, "CONNECTION_STRING_PASSWORD", f"password in a {scheme}:// URL", 0.95)


def auth_headers(data: str) -> Iterator[Detection]:
    """The credential of an `Authorization:` header (Bearer, Basic, Token …)."""
    for match in _AUTH_HEADER.finditer(data):
        start, end = match.span(2)
        value = data[start:end].rstrip(",;)")
        end = start + len(value)
        scheme = (match.group(1) or "").lower()
        if len(value) < 8 or is_placeholder(value) or "..." in value or trailing_mask(data, end):
            continue
        if not any(c.isdigit() or c in "+/=~@." for c in value):
            continue  # a word: "Authorization: approved by finance"
        if scheme == "basic" and not all(c in _BASE64_CHAR for c in value):
            continue  # `Basic {base64(user:pass)}` describes the header, it is not one
        kind = f"{scheme.title()} credential" if scheme else "credential"
        yield Detection(start, end, "AUTH_HEADER", f"{kind} in an Authorization header", 0.9)


def curl_passwords(data: str) -> Iterator[Detection]:
    """The password of `curl -u user:password` / `--user`."""
    for match in _CURL_USER.finditer(data):
        if data.rfind("curl", max(0, match.start() - 1000), match.start()) < 0:
            continue  # `-u` belongs to many tools; only curl's is user:password
        start, end = match.span(1)
        word = data[start:end]
        if is_reference(word):
            continue
        user, _, password = _unquote(word).partition(":")
        secret = password or user
        if len(secret) < 6 or is_placeholder(secret) or (not password and not _mixed(secret)):
            continue
        at = data.rfind(secret, start, end) if password else data.find(secret, start, end)
        if at < 0:  # quoting split the secret: report the whole argument
            at, secret = start, word
        yield Detection(at, at + len(secret), "BASIC_AUTH_PASSWORD", "password of curl --user", 0.9)


def kubernetes_secrets(data: str) -> Iterator[Detection]:
    """Values under `data:` / `stringData:` of a YAML document of `kind: Secret`."""
    doc_end = 0
    for kind in _K8S_KIND.finditer(data):
        if kind.start() < doc_end:
            continue  # a second `kind:` line in a document already read
        doc_start = data.rfind(_DOC_BREAK, doc_end, kind.start())
        doc_start = doc_end if doc_start < 0 else doc_start + len(_DOC_BREAK)
        doc_end = data.find(_DOC_BREAK, kind.end())
        doc_end = len(data) if doc_end < 0 else doc_end
        doc = data[doc_start:doc_end]  # RE2 re-encodes the whole string it is given: slice
        read_to = -1
        for block in _K8S_DATA.finditer(doc):
            if block.start() < read_to:
                continue  # nested in a block already read
            found: list[Detection] = []
            read_to = _k8s_block(doc, block.end(), len(block.group(1).expandtabs()), found)
            for d in found:
                yield Detection(d.start + doc_start, d.end + doc_start, d.entity, d.explanation, d.score)


def aws_secret_keys(data: str) -> Iterator[Detection]:
    """A 40-character AWS secret access key, named as one or next to its key ID."""
    key_ids = [m.start() for m in _AWS_KEY_ID.finditer(data)]
    for match in _AWS_SECRET.finditer(data):
        start, end = match.span(1)
        value = data[start:end]
        line_start = data.rfind("\n", 0, start) + 1
        named = _AWS_CONTEXT.search(data[max(line_start, start - 60) : start]) is not None
        i = bisect.bisect_left(key_ids, start - 300)
        paired = i < len(key_ids) and key_ids[i] <= start + 300
        if not (named or paired) or is_filler(value):
            continue
        if not (any(c.isupper() for c in value) and any(c.islower() for c in value)) or entropy(value) < 4.0:
            continue
        why = "named as an AWS secret" if named else "next to an AWS access key ID"
        yield Detection(start, end, "AWS_SECRET_KEY", f"40-character AWS secret access key, {why}", 0.9)


def bundler_credentials(data: str) -> Iterator[Detection]:
    """`BUNDLE_GEMS__EXAMPLE__COM=user:password`: Bundler's credentials for a gem server."""
    for match in _BUNDLER.finditer(data):
        start, end = match.span(1)
        if not is_placeholder(data[start:end]):
            yield Detection(start, end, "GENERIC_SECRET", "gem-server credentials in a BUNDLE_<HOST> setting", 0.9)


def _k8s_block(doc: str, pos: int, indent: int, found: list[Detection]) -> int:
    """Append the entries of the block whose header line ends at `pos`, one line at a
    time; return where the block ends."""
    nl = doc.find("\n", pos)
    while nl >= 0:
        start = nl + 1
        end = doc.find("\n", start)
        nl, end = (end, end) if end >= 0 else (-1, len(doc))
        entry = _K8S_ENTRY.fullmatch(doc, start, end)
        if entry is None or len(entry.group(1).expandtabs()) <= indent:
            if doc[start:end].strip():
                return start  # a line outside the block: it ended
            continue
        v_start, v_end = entry.span(3)
        if doc[v_start:v_end].strip()[:1] in ("|", ">") and nl >= 0:  # block scalar: value on the next line
            v_start = nl + 1
            v_end = doc.find("\n", v_start)
            nl, v_end = (v_end, v_end) if v_end >= 0 else (-1, len(doc))
        raw = doc[v_start:v_end]
        value = raw.strip().strip("\"'")
        if not value or is_placeholder(value) or not _K8S_BASE64.fullmatch(value):
            continue
        at = v_start + raw.find(value)
        found.append(Detection(at, at + len(value), "KUBERNETES_SECRET", f"data of a Kubernetes Secret ({entry.group(2)})", 0.9))
    return len(doc)


def _unquote(word: str) -> str:
    return word.replace('"', "").replace("'", "")


def _mixed(value: str) -> bool:
    classes = (any(c.islower() for c in value), any(c.isupper() for c in value), any(c.isdigit() for c in value))
    return sum(classes) >= 2 and any(c.isdigit() for c in value)
