"""Reading the decision log: its files oldest first, a torn last line tolerated."""

from __future__ import annotations

import fcntl
import json
import os
import time
from dataclasses import dataclass
from typing import Any

from redline.store.decision_event import DEFAULT_PATH

_READ_LOCK_WAIT_S = 1.0


def _flock(fd: int, operation: int, wait_s: float) -> bool:
    """Take `operation` on `fd` without blocking longer than `wait_s`."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            fcntl.flock(fd, operation | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.001)


@dataclass(frozen=True, slots=True)
class BadLine:
    file: str
    line: int  # 1-based
    error: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.error}"


@dataclass(frozen=True, slots=True)
class ReadResult:
    """Events oldest first, and what could not be read: `torn` last lines and `bad` others."""

    events: list[dict[str, Any]]
    torn: int
    bad: list[BadLine]
    files: list[str]


def log_files(path: str | os.PathLike[str], *, include_rotated: bool = True) -> list[str]:
    """The files of the log that exist, oldest first: `.N` … `.1`, then `path`."""
    base = os.fspath(path)
    found: list[tuple[int, str]] = []
    if include_rotated:
        folder, name = os.path.split(base)
        try:
            entries = os.listdir(folder or ".")
        except OSError:
            entries = []
        for entry in entries:
            suffix = entry[len(name) + 1 :] if entry.startswith(name + ".") else ""
            if suffix.isdigit():
                found.append((int(suffix), os.path.join(folder, entry)))
    files = [p for _, p in sorted(found, reverse=True)]
    if os.path.exists(base):
        files.append(base)
    return files


def parse_lines(data: bytes, file: str) -> tuple[list[dict[str, Any]], int, list[BadLine]]:
    """Events in `data`; the last line is torn when it lacks its newline or is not JSON.

    A torn last line is what a crash or a full disk leaves behind, so it is only
    counted; a malformed line anywhere else is reported with its file and line.
    """
    events: list[dict[str, Any]] = []
    bad: list[BadLine] = []
    torn = 0
    lines = data.split(b"\n")
    if lines[-1] != b"":
        torn += 1  # the last line never got its newline
    lines.pop()
    last = len(lines) - 1
    for index, raw in enumerate(lines):
        if not raw.strip():
            continue
        try:
            event = json.loads(raw)
        except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError
            if index == last and torn == 0:
                torn += 1
            else:
                bad.append(BadLine(file, index + 1, f"not JSON: {str(exc)[:160]}"))
            continue
        if not isinstance(event, dict):
            bad.append(BadLine(file, index + 1, f"a JSON {type(event).__name__}, not an event object"))
            continue
        version = event.get("schema_version")
        if not (isinstance(version, str) and version.startswith("redline.decision/")):
            bad.append(BadLine(file, index + 1, f"schema_version is {version!r}, not redline.decision/..."))
            continue
        events.append(event)
    return events, torn, bad


def read_events(path: str | os.PathLike[str] = DEFAULT_PATH, *, include_rotated: bool = True) -> ReadResult:
    """Every event of the log, oldest first, tolerating a torn last line in each file.

    The files are opened under a shared lock, so a concurrent rotation cannot make the
    reader see a line twice or skip a file. Raises OSError when a file cannot be opened.
    """
    base = os.fspath(path)
    handles: list[tuple[str, Any]] = []
    lock = _open_read_lock(base)
    try:
        for file in log_files(base, include_rotated=include_rotated):
            try:
                handles.append((file, open(file, "rb")))  # noqa: SIM115 - closed below
            except FileNotFoundError:
                continue
    except OSError:
        for _, handle in handles:
            handle.close()
        raise
    finally:
        if lock is not None:
            os.close(lock)
    events: list[dict[str, Any]] = []
    bad: list[BadLine] = []
    torn = 0
    for file, handle in handles:
        with handle:
            file_events, file_torn, file_bad = parse_lines(handle.read(), file)
        events.extend(file_events)
        bad.extend(file_bad)
        torn += file_torn
    return ReadResult(events=events, torn=torn, bad=bad, files=[file for file, _ in handles])


def _open_read_lock(base: str) -> int | None:
    """A shared lock on `PATH.lock` if it exists; readers never create files."""
    try:
        fd = os.open(base + ".lock", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    if not _flock(fd, fcntl.LOCK_SH, _READ_LOCK_WAIT_S):
        os.close(fd)
        return None
    return fd
