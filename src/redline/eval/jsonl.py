"""JSON Lines input for the commands: every bad line is an error naming file and line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from redline.errors import SuiteError


def numbered_rows(source: str | Path | TextIO, name: str | None = None) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each non-blank line of a file or stream."""
    if isinstance(source, (str, Path)):
        path = Path(source)
        try:
            handle: TextIO = path.open(encoding="utf-8")
        except OSError as exc:
            raise SuiteError(f"{path}: cannot read: {exc.strerror or exc}") from exc
        with handle:
            yield from _rows(handle, name or str(path))
    else:
        yield from _rows(source, name or str(getattr(source, "name", "<stream>")))


def _rows(handle: TextIO, name: str) -> Iterator[tuple[int, dict[str, Any]]]:
    try:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise SuiteError(f"{name}:{number}: invalid JSON: {exc.msg} (column {exc.colno})") from exc
            if not isinstance(row, dict):
                raise SuiteError(f"{name}:{number}: expected a JSON object, got {type(row).__name__}")
            yield number, row
    except UnicodeDecodeError as exc:
        raise SuiteError(f"{name}: not UTF-8 text ({exc.reason})") from exc
