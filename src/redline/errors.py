"""The exceptions redline raises, all below one root.

    RedlineError
    ├── PolicyError            a policy file that cannot be read or does not validate
    └── SuiteError             a probe suite or context input that cannot be read

`Gate.check` never raises: a failure inside a check becomes the policy's `on_error`
outcome with reason `check_error`. These errors belong to loading and tooling.
"""

from __future__ import annotations


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
