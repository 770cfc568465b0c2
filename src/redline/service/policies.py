"""The loaded policies: one Gate per policy name, reloaded when a file changes or on SIGHUP.

A reload never makes things worse: a file that no longer loads (or whose name clashes with
another file's policy) keeps serving the last good version, and the PolicyError is kept
for `/v1/policies` as `last_error`. A deleted file unloads its policy. Gates are cached
by policy hash, so a file touched without a change in meaning is not compiled again.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from redline.decide.gate import Gate
from redline.errors import PolicyError
from redline.policy import load_policy
from redline.review.license import License
from redline.service.settings import ServiceConfigError

log = logging.getLogger("redline.service.policies")
PATTERNS = ("*.yaml", "*.yml")
Stamp = tuple[int, int, int]  # mtime_ns, size, inode


@dataclass(frozen=True, slots=True)
class Loaded:
    """What one file serves: its last good policy, and why the latest version was refused."""

    path: Path
    gate: Gate | None
    loaded_at: float | None
    last_error: str | None = None
    last_error_at: float | None = None

    @property
    def name(self) -> str | None:
        return self.gate.policy.name if self.gate is not None else None


class PolicyRegistry:
    def __init__(self, directory: Path, *, license: License | None = None) -> None:
        self.directory = directory
        self._license = license  # another license only for tests (service.testing)
        self._files: dict[Path, Loaded] = {}
        self._stamps: dict[Path, Stamp] = {}
        self._by_name: dict[str, Gate] = {}
        self._gates: dict[str, Gate] = {}  # by policy hash
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._force = False
        self._thread: threading.Thread | None = None
        self.reloads = 0
        self.on_reload: Callable[[], None] | None = None  # after a reload that changed something

    # reading -------------------------------------------------------------------------
    def get(self, name: str) -> Gate | None:
        return self._by_name.get(name)  # one dict read: safe against a concurrent swap

    def names(self) -> list[str]:
        return sorted(self._by_name)

    def files(self) -> list[Loaded]:
        return sorted(self._files.values(), key=lambda f: f.path.name)

    # loading -------------------------------------------------------------------------
    def _paths(self) -> list[Path]:
        found = {p for pattern in PATTERNS for p in self.directory.glob(pattern) if p.is_file()}
        return sorted(found)

    @staticmethod
    def _stamp(path: Path) -> Stamp | None:
        try:
            st = path.stat()
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_size, st.st_ino)

    def _gate_for(self, path: Path) -> Gate:
        if self._outside(path):  # never read: it may be any file on the machine
            raise PolicyError(
                "is a link to a file outside the policies folder; it is not followed. Fix: copy the policy into the folder",
                path=str(path),
            )
        policy = load_policy(path)
        gate = self._gates.get(policy.hash)
        if gate is None:
            gate = Gate(policy, license=self._license)
            self._gates[policy.hash] = gate
        return gate

    def load(self, *, strict: bool) -> None:
        """The first load. `strict`: an invalid file or a clash of names is an error naming them."""
        if not self.directory.is_dir():
            raise ServiceConfigError(f"{self.directory}: no such policies directory. Fix: --policies DIR")
        paths = self._paths()
        if not paths and strict:
            raise ServiceConfigError(f"{self.directory}: no *.yaml or *.yml policy files in this directory")
        if strict:
            owners: dict[str, Path] = {}
            for path in paths:
                try:
                    gate = self._gate_for(path)
                except PolicyError as exc:
                    raise ServiceConfigError(str(exc)) from exc
                name = gate.policy.name
                if name in owners:
                    raise ServiceConfigError(
                        f"policy name {name!r} is in two files: {owners[name]} and {path}. "
                        "Fix: give each policy file its own `name:`"
                    )
                owners[name] = path
        self.reload(force=True)

    def reload(self, *, force: bool = False) -> bool:
        """Load what changed (everything with `force`); True when something was looked at."""
        with self._lock:
            paths = self._paths()
            stamps = {p: self._stamp(p) for p in paths}
            changed = [p for p in paths if force or stamps[p] != self._stamps.get(p)]
            gone = [p for p in self._files if p not in stamps]
            if not changed and not gone:
                return False
            files = {p: f for p, f in self._files.items() if p not in gone}
            for path in gone:
                log.info("policy file %s was removed; its policy %s is unloaded", path, self._files[path].name)
            for path in changed:
                files[path] = self._load_one(path, files)
                self._stamps[path] = stamps[path] or (0, 0, 0)
            for path in gone:
                self._stamps.pop(path, None)
            self._files = files
            self._by_name = {f.name: f.gate for f in files.values() if f.gate is not None and f.name}
            live = {g.policy_hash for g in self._by_name.values()}
            self._gates = {h: g for h, g in self._gates.items() if h in live}
            self.reloads += 1
        if self.on_reload is not None:
            self.on_reload()
        return True

    def _outside(self, path: Path) -> bool:
        """Whether `path` is a link that leads out of the policies folder."""
        if not path.is_symlink():
            return False
        try:
            path.resolve(strict=True).relative_to(self.directory.resolve())
        except (OSError, RuntimeError, ValueError):  # gone, a loop, or elsewhere
            return True
        return False

    def _load_one(self, path: Path, files: dict[Path, Loaded]) -> Loaded:
        previous = files.get(path)
        try:
            gate = self._gate_for(path)
        except PolicyError as exc:
            log.error("policy file %s is invalid; keeping its last good version: %s", path, exc)
            if previous is None:
                return Loaded(path, None, None, str(exc), time.time())
            return Loaded(path, previous.gate, previous.loaded_at, str(exc), time.time())
        except Exception as exc:  # a file that vanished mid-read, a compile bug: same rule
            log.exception("policy file %s could not be loaded", path)
            message = f"{path}: {type(exc).__name__}: {exc}"
            gate_before = previous.gate if previous else None
            return Loaded(path, gate_before, previous.loaded_at if previous else None, message, time.time())
        name = gate.policy.name
        for other_path, other in files.items():
            if other_path != path and other.name == name:
                message = (
                    f"{path}: policy name {name!r} is already served from {other_path}; this file is "
                    "not loaded. Fix: give each policy file its own `name:`"
                )
                log.error(message)
                gate_before = previous.gate if previous else None
                return Loaded(path, gate_before, previous.loaded_at if previous else None, message, time.time())
        if previous is None or previous.gate is None or previous.gate.policy_hash != gate.policy_hash:
            log.info("policy %s loaded from %s (%s)", name, path, gate.policy_hash[:19])
        return Loaded(path, gate, time.time())

    # watching ------------------------------------------------------------------------
    def request_reload(self) -> None:
        """Ask the watcher for a full reload (safe from a signal handler)."""
        self._force = True
        self._wake.set()

    def start(self, interval: float) -> None:
        def run() -> None:
            while not self._stop.is_set():
                self._wake.wait(interval if interval > 0 else None)
                self._wake.clear()
                if self._stop.is_set():
                    break
                force, self._force = self._force, False
                try:
                    self.reload(force=force)
                except Exception:  # the watcher must outlive any one bad reload
                    log.exception("policy reload failed")

        self._thread = threading.Thread(target=run, name="redline-policy-watch", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __iter__(self) -> Iterator[Gate]:
        return iter(list(self._by_name.values()))
