"""What a backtest reads: a JSONL corpus or a decision log, cut into chunks of raw lines.

The driver only cuts lines; parsing happens in the workers, so that one process reading
a file never becomes the bottleneck of many checking it. A chunk carries where its lines
came from (file and first line number), so every result and every error names its line.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Literal

from redline.errors import SuiteError
from redline.store.log_reader import log_files

Kind = Literal["corpus", "log"]
LOG_SCHEMA_PREFIX = "redline.decision/"
CHUNK_LINES = 1000
_COUNT_BLOCK = 1 << 22


@dataclass(frozen=True, slots=True)
class Chunk:
    """Consecutive lines of one file: `data` holds them as read, newlines included."""

    seq: int  # position of the chunk in the whole input, from 0
    file: int  # index into Source.files
    first_line: int  # 1-based number of the first line in `data`
    data: bytes
    ends_file: bool  # the file's last line is in this chunk (a log may end in a torn line)


@dataclass(frozen=True, slots=True)
class Source:
    path: str
    kind: Kind
    files: tuple[str, ...]  # a log: its rotated files oldest first, then the live one
    lines: int
    size: int


def open_source(path: str | os.PathLike[str]) -> Source:
    """The input at `path`, its kind told by its first non-blank line: a decision event
    (`schema_version: redline.decision/...`) makes it a decision log, read with its
    rotated files; anything else is a corpus of `{"id", "text", "context"?}` lines."""
    name = os.fspath(path)
    if not os.path.isfile(name):
        what = "is a folder, not a file" if os.path.isdir(name) else "does not exist"
        raise SuiteError(f"{name}: {what}; --input takes a JSONL corpus or a decision log")
    # a live log just rotated may hold nothing yet but a torn line: its older files tell
    first = _first_line_kind(name)
    if first is None:
        first = next((k for k in map(_first_line_kind, log_files(name)[:-1]) if k is not None), None)
    kind: Kind = "log" if first == "event" else "corpus"
    files = tuple(log_files(name)) if kind == "log" else (name,)
    lines = size = 0
    for file in files:
        count, length = _count_lines(file)
        lines += count
        size += length
    return Source(path=name, kind=kind, files=files, lines=lines, size=size)


def _first_line_kind(name: str) -> Literal["event", "row"] | None:
    """What the first non-blank line of `name` is: a decision event, another JSON value
    (a corpus row, or a bad one), or None when there is none or it is not JSON."""
    try:
        with open(name, "rb") as handle:
            for raw in handle:
                if raw.strip():
                    try:
                        first = json.loads(raw)
                    except ValueError:
                        return None
                    version = first.get("schema_version") if isinstance(first, dict) else None
                    return "event" if isinstance(version, str) and version.startswith(LOG_SCHEMA_PREFIX) else "row"
    except OSError as exc:
        raise SuiteError(f"{name}: cannot read: {exc.strerror or exc}") from exc
    return None


def _count_lines(file: str) -> tuple[int, int]:
    count = size = 0
    last = b"\n"
    try:
        with open(file, "rb") as handle:
            while block := handle.read(_COUNT_BLOCK):
                count += block.count(b"\n")
                size += len(block)
                last = block[-1:]
    except OSError as exc:
        raise SuiteError(f"{file}: cannot read: {exc.strerror or exc}") from exc
    return count + (last != b"\n"), size


def chunks(source: Source, lines_per_chunk: int = CHUNK_LINES) -> Iterator[Chunk]:
    """The input's lines in chunks of `lines_per_chunk`, file after file, in order."""
    seq = 0
    for index, file in enumerate(source.files):
        try:
            handle = Path(file).open("rb")
        except OSError as exc:
            raise SuiteError(f"{file}: cannot read: {exc.strerror or exc}") from exc
        with handle:
            line = 1
            block = list(islice(handle, lines_per_chunk))
            while block:
                following = list(islice(handle, lines_per_chunk))
                yield Chunk(seq, index, line, b"".join(block), ends_file=not following)
                seq += 1
                line += len(block)
                block = following
