"""The core of `redline context`: the context status of one term in each input row.

Input rows are `{"id", "text", "term"}`; each output row says whether the term was found
and which statuses its first occurrence carries. The benchmark in
benchmarks/negex_bench.py scores these rows against the NegEx/ConText test set.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from redline.eval.jsonl import numbered_rows
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
    "uncertain": Status.UNCERTAIN,
}
# Endings tried when the exact form is absent: "refunded" finds "refunds", "refund".
_SUFFIX = re.compile(r"(?:'s|ing|ed|es|s|e)$")
_INFLECTION = r"(?:s|es|ed|d|ing|e|'s)?"


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_"


def find_term(shadow: str, term: str) -> tuple[int, int] | None:
    """The span of the first whole-word occurrence of `term` (already normalized)."""
    words = term.split()
    if not words:
        return None
    term = " ".join(words)
    # The common case without compiling a pattern per term; a line break between the
    # words needs the pattern below.
    at = shadow.find(term) if "\n" not in shadow else -1
    while at != -1:
        end = at + len(term)
        if not (at and _is_word(shadow[at - 1]) or end < len(shadow) and _is_word(shadow[end])):
            return at, end
        at = shadow.find(term, at + 1)
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


def read_jsonl(source: str | Path | TextIO, name: str | None = None) -> Iterator[dict[str, Any]]:
    """Rows of a JSON Lines file or stream; a malformed line raises SuiteError naming
    the file and line."""
    return (row for _, row in numbered_rows(source, name))
