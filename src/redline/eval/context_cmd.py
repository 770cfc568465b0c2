"""The core of `redline context`: the context status of one term in each input row.

Input rows are `{"id", "text", "term"}`; each output row says whether the term was found
and which statuses its first occurrence carries. The benchmark in
benchmarks/negex_bench.py scores these rows against the NegEx/ConText test set.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from redline.errors import SuiteError
from redline.screen.context import assess
from redline.screen.normalize import normalize
from redline.types import Status

__all__ = ["context_rows", "find_term", "read_jsonl"]

_FLAGS = {
    "negated": Status.NEGATED,
    "attributed": Status.ATTRIBUTED,
    "historical": Status.HISTORICAL,
    "hypothetical": Status.HYPOTHETICAL,
    "other_experiencer": Status.OTHER_EXPERIENCER,
}
# Endings tried when the exact form is absent: "refunded" finds "refunds", "refund".
_SUFFIX = re.compile(r"(?:'s|ing|ed|es|s|e)$")
_INFLECTION = r"(?:s|es|ed|d|ing|e|'s)?"


def find_term(shadow: str, term: str) -> tuple[int, int] | None:
    """The span of the first whole-word occurrence of `term` (already normalized)."""
    words = term.split()
    if not words:
        return None
    exact = r"\s+".join(re.escape(w) for w in words)
    m = re.search(rf"(?<!\w){exact}(?!\w)", shadow)
    if m is None:
        stems = [_SUFFIX.sub("", w) if len(w) > 4 else w for w in words]
        loose = r"\s+".join(re.escape(s) + _INFLECTION for s in stems)
        m = re.search(rf"(?<!\w){loose}(?!\w)", shadow)
    return None if m is None else (m.start(), m.end())


def context_rows(rows: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """For each `{"id", "text", "term"}` row, the statuses of the term's first occurrence."""
    for row in rows:
        shadow = normalize(str(row.get("text", ""))).text
        span = find_term(shadow, normalize(str(row.get("term", ""))).text)
        out: dict[str, Any] = {"id": row.get("id"), "found": span is not None}
        if span is None:
            out.update(dict.fromkeys(_FLAGS, False))
        else:
            assessment = assess(shadow, *span)
            out.update({name: assessment.has(status) for name, status in _FLAGS.items()})
        yield out


def read_jsonl(path: str | Path) -> Iterator[dict[str, Any]]:
    """Rows of a JSON Lines file; a malformed line raises SuiteError naming file and line."""
    path = Path(path)
    try:
        handle = path.open(encoding="utf-8")
    except OSError as exc:
        raise SuiteError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    with handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise SuiteError(f"{path}:{number}: invalid JSON: {exc.msg}") from exc
            if not isinstance(row, dict):
                raise SuiteError(
                    f"{path}:{number}: expected a JSON object, got {type(row).__name__}"
                )
            yield row
