"""JSON Lines input for the commands: every bad line is an error naming file and line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from redline.errors import SuiteError


def numbered_rows(
    source: str | Path | TextIO, name: str | None = None, problems: list[str] | None = None,
) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each non-blank line of a file or stream. A bad line is an
    error; with `problems`, it is added there instead and reading goes on (to report every
    bad line of a file at once)."""
    if isinstance(source, (str, Path)):
        path = Path(source)
        try:
            handle: TextIO = path.open(encoding="utf-8")
        except OSError as exc:
            raise SuiteError(f"{path}: cannot read: {exc.strerror or exc}") from exc
        with handle:
            yield from _rows(handle, name or str(path), problems)
    else:
        yield from _rows(source, name or str(getattr(source, "name", "<stream>")), problems)


def _rows(handle: TextIO, name: str, problems: list[str] | None) -> Iterator[tuple[int, dict[str, Any]]]:
    try:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line.rstrip("\r\n"))  # a column on the line itself, not "column 1" of the next
            except json.JSONDecodeError as exc:
                problem = f"{name}:{number}: invalid JSON: {exc.msg} (column {exc.colno})"
            else:
                if isinstance(row, dict):
                    yield number, row
                    continue
                problem = f"{name}:{number}: expected a JSON object, got {type(row).__name__}"
            if problems is None:
                raise SuiteError(problem)
            problems.append(problem)
    except UnicodeDecodeError as exc:
        raise SuiteError(f"{name}: not UTF-8 text ({exc.reason})") from exc
