"""Bearer tokens per role: parsed once, kept only as sha256 digests, compared in constant time.

No FastAPI here: `redline serve` parses tokens before it imports the web stack.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from redline.service.settings import Role, ServiceConfigError, TokenHash

TOKENS_ENV = "REDLINE_TOKENS"
HOW_TO_SET = (
    "set REDLINE_TOKENS='client:TOKEN,expert:TOKEN,operator:TOKEN' or pass --tokens FILE "
    "(one role:token a line, # comments); make tokens with "
    "`python -c 'import secrets; print(secrets.token_urlsafe(32))'`; or run with --demo"
)
_MIN_TOKEN_LENGTH = 16


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def parse_tokens(text: str, source: str) -> tuple[TokenHash, ...]:
    """`role:token` entries separated by commas or newlines (`#` starts a comment), hashed."""
    entries: list[TokenHash] = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0]
        for item in line.split(","):
            item = item.strip()
            if not item:
                continue
            where = f"{source}:{number}"
            role, sep, token = item.partition(":")
            role, token = role.strip().lower(), token.strip()
            if not sep or not token:
                raise ServiceConfigError(f"{where}: an entry is not role:token. Fix: {HOW_TO_SET}")
            if role not in {r.value for r in Role}:
                raise ServiceConfigError(f"{where}: unknown role {role!r}; the roles are client, expert and operator")
            if len(token) < _MIN_TOKEN_LENGTH:
                raise ServiceConfigError(
                    f"{where}: the {role} token is {len(token)} characters; use at least "
                    f"{_MIN_TOKEN_LENGTH} (secrets.token_urlsafe(32) makes 43)"
                )
            entries.append(TokenHash(role=Role(role), sha256=digest(token)))
    return tuple(entries)


def tokens_from(file: Path | None, environ: dict[str, str] | None = None) -> tuple[TokenHash, ...]:
    """Tokens from `--tokens FILE` and from `REDLINE_TOKENS`, both when both are given."""
    env = os.environ if environ is None else environ
    found: list[TokenHash] = []
    if file is not None:
        try:
            found.extend(parse_tokens(file.read_text(encoding="utf-8"), str(file)))
        except OSError as exc:
            raise ServiceConfigError(f"{file}: cannot read the tokens file ({exc.strerror})") from exc
    if env.get(TOKENS_ENV):
        found.extend(parse_tokens(env[TOKENS_ENV], TOKENS_ENV))
    return tuple(found)


@dataclass(frozen=True, slots=True)
class Principal:
    role: Role
    label: str  # role and a digest prefix: says which token acted, reveals nothing of it


class TokenRegistry:
    def __init__(self, tokens: Iterable[TokenHash]) -> None:
        self._entries = tuple((t.role, bytes.fromhex(t.sha256)) for t in tokens)
        # each token's principal, made once: `identify` runs on every request
        self._principals = tuple(Principal(role, f"{role.value}:{stored.hex()[:8]}") for role, stored in self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def knows(self, label: str) -> bool:
        """Whether a token with this label (`role:digest-prefix`) is still configured."""
        return any(f"{role.value}:{stored.hex()[:8]}" == label for role, stored in self._entries)

    def identify(self, token: str) -> Principal | None:
        """The principal a token belongs to. Compares against every digest, whatever matches."""
        presented = hashlib.sha256(token.encode("utf-8", errors="surrogatepass")).digest()
        found: Principal | None = None
        for (_, stored), principal in zip(self._entries, self._principals):
            if hmac.compare_digest(presented, stored) and found is None:
                found = principal
        return found
