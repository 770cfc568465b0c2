"""The exceptions redline raises, all below one root.

    RedlineError
    ├── PolicyError            a policy file that cannot be read or does not validate
    │   └── DomainError        an action domain (YAML file or plugin) that cannot be used
    ├── SuiteError             a probe suite or context input that cannot be read
    ├── UnknownDomain          `Gate.decide` named no domain the registry knows
    └── ActionInputError       an action's input is malformed: each error names its field

`Gate.check` never raises: a failure inside a check becomes the policy's `on_error`
outcome with reason `check_error`. `Gate.decide` raises only for a caller's mistake
(UnknownDomain, ActionInputError), before anything is decided; once the input is valid
it never raises either. The other errors belong to loading and tooling.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class RedlineError(Exception):
    """Root of every error redline raises on purpose."""


class PolicyError(RedlineError):
    """A policy that cannot be used, with where and why.

    `path`, `line` and `column` (1-based) locate the problem when it is known; `key` is the
    dotted path of the offending key (``skills[0].red_lines[1].severity``).
    """

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        column: int | None = None,
        key: str | None = None,
    ) -> None:
        self.path = path
        self.line = line
        self.column = column
        self.key = key
        self.problem = message
        where = path or "<policy>"
        if line is not None:
            where += f":{line}"
            if column is not None:
                where += f":{column}"
        prefix = f"{where}: " + (f"{key}: " if key else "")
        super().__init__(prefix + message)


class SuiteError(RedlineError):
    """A probe suite or an input file for a command that cannot be read."""


class DomainError(PolicyError):
    """An action domain that cannot be used: a YAML domain file, or a plugin, that fails."""


class UnknownDomain(RedlineError):
    """No domain of that name; `known` lists the ones there are."""

    def __init__(self, name: str, known: Sequence[str]) -> None:
        self.name = name
        self.known = tuple(known)
        listing = ", ".join(self.known) or "none"
        super().__init__(f"no action domain named {name[:100]!r}; the domains are: {listing}")


class ActionInputError(RedlineError):
    """An action's input does not fit its domain. `errors` holds one entry per problem:
    `{"loc": ("amount",), "msg": "Input should be greater than 0", "type": "greater_than"}`
    (the value itself is never echoed: it may be what should not be repeated)."""

    def __init__(self, domain: str, errors: Sequence[dict[str, Any]]) -> None:
        self.domain = domain
        self.errors = tuple(errors)
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'input'}: {e['msg']}" for e in self.errors)
        super().__init__(f"invalid {domain} input: {problems}")
