"""The decision log: one versioned JSON line per decision, append-only, size-rotated.

DESIGN.md section 8. Modelled on OPA's decision logs: a versioned event
(`redline.decision/v1`) that carries the decision's id, the policy hash, the outcome and
the rules, never a message body, and only a scrubbed excerpt of the text together with
the list of what scrubbing erased, so the redaction itself can be audited.

Several processes may share one log. Each line goes out in ONE `os.write` on an
`O_APPEND` descriptor, so lines never interleave; rotation happens under an exclusive
`flock` on a sidecar `PATH.lock`, and every writer re-opens when the path no longer
names the file its descriptor points at. A failed write is counted, never raised: the
log must not fail, or stall, a check.
"""

from __future__ import annotations

import errno
import fcntl
import json
import logging
import os
import re
import threading
import time
import weakref
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from redline.store.scrub import scrub
from redline.types import Decision

log = logging.getLogger("redline.decision_log")

SCHEMA_VERSION = "redline.decision/v1"
DEFAULT_PATH = "redline.decisions.jsonl"
EXCERPT_CHARS = 200
MAX_ERASED = 100  # a text with thousands of emails must not make a megabyte line
MAX_STRING_CHARS = 500  # any free string kept from context, layers or an error
_BODY_KEYS = frozenset({"text", "texts", "messages", "body", "content"})
_LOCK_WAIT_S = 0.0  # a writer never waits for the rotation lock: whoever holds it is rotating
_READ_LOCK_WAIT_S = 1.0


# Values the gate itself produces ("violates", "single-sender", "check_error"): no
# detector matches letters without a digit, "@" or a separator, so they skip scrubbing.
_PLAIN = re.compile(r"[A-Za-z_\-]{0,32}")


def _clean_string(value: str) -> str:
    if _PLAIN.fullmatch(value):
        return value
    return scrub(value).text[:MAX_STRING_CHARS]


def _metadata(value: Any) -> Any:
    """JSON-safe copy of context or layer metadata with no message body left in it.

    A key that names a body (`text`, `messages`, `body`…) is kept only when its value is
    a count; free strings (an error that quotes its input) are scrubbed and cut.
    """
    if isinstance(value, dict):
        kept: dict[str, Any] = {}
        for key, item in value.items():
            key = str(key)
            if key.lower() in _BODY_KEYS and not (isinstance(item, (int, float)) or item is None):
                continue
            kept[key] = _metadata(item)
        return kept
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=str) if isinstance(value, (set, frozenset)) else value
        return [_metadata(item) for item in items]
    if isinstance(value, str):
        return _clean_string(value)
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return _clean_string(getattr(value, "value", None) or str(value))


def _utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True, slots=True)
class DecisionEventV1:
    """One line of the decision log; `to_dict` fixes the key order, `schema_version` first."""

    id: str
    time: str  # UTC, ISO-8601 with milliseconds: 2025-01-31T12:00:00.123Z
    policy: dict[str, str]  # {"name", "hash"}
    outcome: str
    reason: str
    risk_level: str
    rules_fired: tuple[str, ...]
    suppressed: tuple[dict[str, Any], ...]  # {"rule", "status", "cue"}
    layers: dict[str, Any]
    context: dict[str, Any] | None  # counts, mode, licensed_by_context; never bodies
    timings_ms: dict[str, float]
    text_chars: int
    text_excerpt: str  # the first 200 characters of the SCRUBBED text
    erased: tuple[dict[str, Any], ...]  # {"type", "detector", "start", "end"}, original offsets
    erased_total: int  # len(erased) unless it was capped at MAX_ERASED
    error: str | None = None
    schema_version: str = field(default=SCHEMA_VERSION)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": self.schema_version,
            "id": self.id,
            "time": self.time,
            "policy": dict(self.policy),
            "outcome": self.outcome,
            "reason": self.reason,
            "risk_level": self.risk_level,
            "rules_fired": list(self.rules_fired),
            "suppressed": [dict(s) for s in self.suppressed],
            "layers": self.layers,
            "context": self.context,
            "timings_ms": self.timings_ms,
            "text_chars": self.text_chars,
            "text_excerpt": self.text_excerpt,
            "erased": [dict(e) for e in self.erased],
            "erased_total": self.erased_total,
            "error": self.error,
        }

    def to_json_line(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"), default=str) + "\n"


def event_from_decision(decision: Decision, text: Any, *, now: str | None = None) -> DecisionEventV1:
    """The log event for `decision` on `text`: scrubbed whole, THEN cut, so no half secret stays."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    if not isinstance(text, str):  # the gate answers non-text with check_error; log no body
        text = ""
    scrubbed = scrub(text)
    context = _metadata(decision.context) if decision.context is not None else None
    return DecisionEventV1(
        id=decision.id,
        time=now or _utc_now(),
        policy={"name": decision.policy_name, "hash": decision.policy_hash},
        outcome=decision.outcome.value,
        reason=decision.reason,
        risk_level=decision.risk_level.value,
        rules_fired=tuple(decision.rules_fired),
        suppressed=tuple(
            {"rule": f.rule, "status": f.status.value, "cue": _metadata(f.cue)} for f in decision.suppressed
        ),
        layers=_metadata(decision.layers),
        context=context,
        timings_ms={k: round(float(v), 4) for k, v in decision.timings_ms.items()},
        text_chars=len(text),
        text_excerpt=scrubbed.text[:EXCERPT_CHARS],
        erased=tuple(e.to_dict() for e in scrubbed.erased[:MAX_ERASED]),
        erased_total=len(scrubbed.erased),
        error=_clean_string(decision.error) if decision.error is not None else None,
    )


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


_TORN_SETTLE_S = 0.01
_open_logs: weakref.WeakSet[DecisionLog] = weakref.WeakSet()


def _after_fork_in_child() -> None:
    for instance in list(_open_logs):  # a lock held by a thread that did not fork would never be released
        instance._mutex = threading.Lock()


os.register_at_fork(after_in_child=_after_fork_in_child)


class DecisionLog:
    """Append-only JSONL at `path`, rotated to `path.1` … `path.<backups>` past `max_bytes`.

    `write` never raises and never waits for another process (a writer that finds the
    rotation lock taken leaves rotating to its holder); failures are counted in
    `failures`, described in `last_error` and logged once per outage.
    Safe to share between threads; several processes may write the same path.
    """

    def __init__(
        self,
        path: str | os.PathLike[str] = DEFAULT_PATH,
        *,
        max_bytes: int = 10 * 1024 * 1024,
        backups: int = 5,
    ) -> None:
        if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 1:
            raise ValueError(f"max_bytes must be a positive int (bytes before rotation), got {max_bytes!r}")
        if isinstance(backups, bool) or not isinstance(backups, int) or backups < 0:
            raise ValueError(f"backups must be an int >= 0 (rotated files kept), got {backups!r}")
        self.path = os.fspath(path)
        self.max_bytes = max_bytes
        self.backups = backups
        self._mutex = threading.Lock()
        self._fd: int | None = None
        self._writes = 0
        self._failures = 0
        self._bytes = 0
        self._rotations = 0
        self._last_error: str | None = None
        self._failing = False
        _open_logs.add(self)

    @property
    def failures(self) -> int:
        return self._failures

    @property
    def last_error(self) -> str | None:
        return self._last_error

    def write(self, decision: Decision, text: Any) -> bool:
        """Append the event for `decision`; False (and counted) when it could not be stored."""
        try:
            line = event_from_decision(decision, text).to_json_line().encode("utf-8")
        except Exception as exc:  # a malformed decision must not fail the check that made it
            with self._mutex:
                return self._failed(f"cannot build the event: {type(exc).__name__}: {exc}")
        with self._mutex:
            try:
                fd = self._descriptor()
                written = os.write(fd, line)  # ONE write: O_APPEND keeps lines of many processes whole
                if written != len(line):
                    if written > 0:  # end the fragment so that the next line stays readable
                        _try_write(fd, b"\n")
                    raise OSError(errno.EIO, f"short write: {written} of {len(line)} bytes")
            except Exception as exc:
                return self._failed(_describe(exc, self.path))
            self._writes += 1
            self._bytes += written
            if self._failing:
                self._failing = False
                log.warning("decision log %s is writable again", self.path)
            try:
                if os.fstat(fd).st_size >= self.max_bytes:
                    self._rotate()
            except Exception as exc:  # the line is stored; only rotation failed
                self._last_error = f"cannot rotate: {_describe(exc, self.path)}"
            return True

    def _failed(self, message: str) -> bool:
        self._failures += 1
        self._last_error = message
        if not self._failing:  # say so once per outage, not once per check
            self._failing = True
            log.warning("decision log write failed, decisions are not being logged: %s", message)
        return False

    def _descriptor(self) -> int:
        """Our descriptor for `path`, re-opened when another process rotated or removed it."""
        if self._fd is not None:
            try:
                current = os.stat(self.path)
                mine = os.fstat(self._fd)
                if (current.st_ino, current.st_dev) == (mine.st_ino, mine.st_dev):
                    return self._fd
            except OSError:
                pass
            self._close_fd()
        self._fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
        self._end_torn_tail(self._fd)
        return self._fd

    @staticmethod
    def _end_torn_tail(fd: int) -> None:
        """A crash (power loss, full disk) can leave a last line without its newline: end
        it, so the next event starts a line of its own instead of being glued to the
        fragment and lost with it."""
        try:
            size = os.fstat(fd).st_size
            if size > 0 and os.pread(fd, 1, size - 1) != b"\n":
                # Another process's append in flight also shows an unfinished tail for a
                # moment: only a tail that stays put is a fragment. Should the two still
                # cross, the cost is one blank line, which readers skip.
                time.sleep(_TORN_SETTLE_S)
                if os.fstat(fd).st_size == size:
                    os.write(fd, b"\n")
        except OSError:
            pass  # a character device or an unreadable file: the write itself will tell

    def _rotate(self) -> None:
        """Shift `path` → `.1` → `.2` …, dropping the oldest; one process at a time."""
        try:
            lock = os.open(self.path + ".lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError as exc:  # the line is stored; only rotation failed
            self._last_error = f"cannot rotate: {_describe(exc, self.path + '.lock')}"
            return
        try:
            if not _flock(lock, fcntl.LOCK_EX, _LOCK_WAIT_S):
                return  # another process holds it (and is rotating); the next write checks again
            try:
                if os.stat(self.path).st_size < self.max_bytes:
                    return  # rotated by another process between our write and the lock
                if self.backups == 0:
                    os.unlink(self.path)
                else:
                    # shift only the files that exist (up to the first gap), not all `backups`
                    last = 1
                    while last < self.backups and os.path.lexists(f"{self.path}.{last}"):
                        last += 1
                    for n in range(last - 1, 0, -1):
                        os.replace(f"{self.path}.{n}", f"{self.path}.{n + 1}")  # replaces the oldest
                    os.replace(self.path, self.path + ".1")
                self._rotations += 1
            except FileNotFoundError:
                return
            except OSError as exc:
                self._last_error = f"cannot rotate: {_describe(exc, self.path)}"
        finally:
            os.close(lock)  # closing releases the flock
        self._close_fd()

    def _close_fd(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            try:
                os.close(fd)
            except OSError:
                pass

    def close(self) -> None:
        """Close the file; a later `write` opens it again."""
        with self._mutex:
            self._close_fd()

    def __enter__(self) -> DecisionLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def stats(self) -> dict[str, Any]:
        """Counters of this writer: `bytes` is what it appended, not the file's size."""
        return {
            "path": self.path,
            "writes": self._writes,
            "failures": self._failures,
            "last_error": self._last_error,
            "bytes": self._bytes,
            "rotations": self._rotations,
        }


def _try_write(fd: int, data: bytes) -> None:
    try:
        os.write(fd, data)
    except OSError:
        pass


def _describe(exc: BaseException, path: str) -> str:
    if isinstance(exc, OSError) and exc.errno is not None:
        name = errno.errorcode.get(exc.errno, str(exc.errno))
        return f"{name}: {exc.strerror or exc} ({path})"
    return f"{type(exc).__name__}: {exc} ({path})"


# ---------------------------------------------------------------- reading


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


__all__ = [
    "DEFAULT_PATH",
    "SCHEMA_VERSION",
    "BadLine",
    "DecisionEventV1",
    "DecisionLog",
    "ReadResult",
    "event_from_decision",
    "log_files",
    "parse_lines",
    "read_events",
]
