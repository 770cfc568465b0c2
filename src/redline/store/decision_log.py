"""The decision log: one versioned JSON line per decision, append-only, size-rotated.

docs/review-pipeline.md. Modelled on OPA's decision logs: a versioned event
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
import logging
import os
import threading
import time
import weakref
from typing import Any

from redline.store.decision_event import (
    DEFAULT_PATH,
    MAX_LINE_BYTES,
    SCHEMA_VERSION,
    DecisionEventV1,
    event_fields,
    event_from_decision,
    json_line,
    shrink_event,
)
from redline.store.log_reader import (
    BadLine,
    ReadResult,
    _flock,
    log_files,
    parse_lines,
    read_events,
)
from redline.store.scrub import Scrubbed
from redline.types import Decision

log = logging.getLogger("redline.decision_log")
_LOCK_WAIT_S = 0.0  # a writer never waits for the rotation lock: whoever holds it is rotating

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
        self._fd_id = (0, 0)  # (st_ino, st_dev) of the file `_fd` was opened on
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
    def failing(self) -> bool:
        """Whether the latest write failed (cleared by the next one that succeeds)."""
        return self._failing

    @property
    def last_error(self) -> str | None:
        return self._last_error

    def write(self, decision: Decision, text: Any, *, scrubbed: Scrubbed | None = None) -> bool:
        """Append the event for `decision`; False (and counted) when it could not be stored.
        `scrubbed`: `scrub(text)`, when the caller has it already."""
        try:  # the line straight from the event's fields; the event itself only to shrink it
            fields = event_fields(decision, text, scrubbed=scrubbed)
            line = json_line(fields)
            if len(line) > MAX_LINE_BYTES:
                del fields["schema_version"]
                line = json_line(shrink_event(DecisionEventV1(**fields)).to_dict())
        except Exception as exc:  # a malformed decision must not fail the check that made it
            with self._mutex:
                return self._failed(f"cannot build the event: {type(exc).__name__}: {exc}")
        return self._append(line)

    def write_event(self, event: DecisionEventV1) -> bool:
        """Append `event` (a decision's, or a review line such as a battery summary)."""
        try:
            line = json_line(event.to_dict())
            if len(line) > MAX_LINE_BYTES:
                line = json_line(shrink_event(event).to_dict())
        except Exception as exc:  # a malformed decision must not fail the check that made it
            with self._mutex:
                return self._failed(f"cannot build the event: {type(exc).__name__}: {exc}")
        return self._append(line)

    def _append(self, line: bytes) -> bool:
        with self._mutex:
            try:
                fd, size = self._descriptor()
                if self._failing:  # the failed write may have left half a line (a full disk)
                    line = self._after_torn(fd) + line
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
            try:  # the size seen before the write, plus the line (another process's line
                # in between is caught by the next write, or by this check's next turn)
                if size + written >= self.max_bytes:
                    self._rotate()
            except Exception as exc:  # the line is stored; only rotation failed
                self._last_error = f"cannot rotate: {_describe(exc, self.path)}"
            return True

    @staticmethod
    def _after_torn(fd: int) -> bytes:
        """A newline to write first when the file does not end with one, so that the next
        event starts a line of its own instead of being glued to a fragment."""
        size = os.fstat(fd).st_size
        return b"\n" if size > 0 and os.pread(fd, 1, size - 1) != b"\n" else b""

    def _failed(self, message: str) -> bool:
        self._failures += 1
        self._last_error = message
        if not self._failing:  # say so once per outage, not once per check
            self._failing = True
            log.warning("decision log write failed, decisions are not being logged: %s", message)
        return False

    def _descriptor(self) -> tuple[int, int]:
        """Our descriptor for `path`, re-opened when another process rotated or removed it,
        and the file's size now (for rotation: one stat per line, no fstat after it)."""
        if self._fd is not None:
            try:  # one stat per line: the file our descriptor names never changes identity
                current = os.stat(self.path)
                if (current.st_ino, current.st_dev) == self._fd_id:
                    return self._fd, current.st_size
            except OSError:
                pass
            self._close_fd()
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            mine = os.fstat(fd)
        except OSError:
            os.close(fd)
            raise
        self._fd, self._fd_id = fd, (mine.st_ino, mine.st_dev)
        self._end_torn_tail(fd)
        return fd, mine.st_size

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
