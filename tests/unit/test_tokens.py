"""Bearer tokens: parsed once, hashed, and too short ones refused at start."""

from __future__ import annotations

import pytest

from redline.service.settings import Role, ServiceConfigError
from redline.service.tokens import TokenRegistry, digest, parse_tokens

GOOD = "x" * 16


@pytest.mark.parametrize("token", ["a", "ab", "x" * 15])
def test_a_token_under_16_characters_is_refused_naming_the_entry(token: str) -> None:
    with pytest.raises(ServiceConfigError, match=r"tokens:2: the client token is \d+ characters; use at least 16"):
        parse_tokens(f"expert:{GOOD}\nclient:{token}\n", "tokens")


def test_a_16_character_token_is_accepted_and_kept_only_as_its_digest() -> None:
    [entry] = parse_tokens(f"operator:{GOOD}", "env")
    assert entry.role is Role.OPERATOR and entry.sha256 == digest(GOOD) and GOOD not in entry.sha256
    principal = TokenRegistry([entry]).identify(GOOD)
    assert principal is not None and principal.role is Role.OPERATOR
    assert TokenRegistry([entry]).identify(GOOD[:-1]) is None
