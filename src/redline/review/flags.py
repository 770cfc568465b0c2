"""The review flags (docs/review-pipeline.md): whether the conversation is read, and whether
what it changes is acted on.

    review.context = dark | dev | live     dark: the conversation is ignored; dev: read only
                                            for policies marked `development: true`; live: read
    review.mode    = watch | enforce       watch: the decision with context is recorded, the
                                            caller gets the one without; enforce: the caller gets it

Both come from a settings file (`redline.yaml`) and the environment, which wins:

    review:
      context: live
      mode: watch
      policies:
        acme-support:
          mode: enforce
          rules:
            "detector:technical_content": watch
      canary:
        fixtures: canaries        # more canary fixtures (a folder, relative to this file)

A flag that fails to resolve (an unreadable file, a typo, an unknown value) falls back to
the safer setting, `dark` or `watch`, never to `live` or `enforce`, and the reason is kept
in `errors` (shown on `/healthz`). They are resolved by the wiring (service, command line),
never inside the gate: the screen stays pure.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, cast

import yaml

ContextFlag = Literal["dark", "dev", "live"]
Mode = Literal["watch", "enforce"]
CONTEXT_VALUES: tuple[ContextFlag, ...] = ("dark", "dev", "live")
MODE_VALUES: tuple[Mode, ...] = ("watch", "enforce")
SAFE_CONTEXT: ContextFlag = "dark"
SAFE_MODE: Mode = "watch"

SETTINGS_FILE = "redline.yaml"
ENV_SETTINGS = "REDLINE_SETTINGS"  # the settings file's path
ENV_CONTEXT = "REDLINE_REVIEW_CONTEXT"
ENV_MODE = "REDLINE_REVIEW_MODE"
MAX_SETTINGS_BYTES = 1024 * 1024
_RULE_ID = re.compile(r"^[a-z0-9_-]+:[a-z0-9_:-]+$")
_POLICY_NAME = re.compile(r"^[a-z0-9-]{1,100}$")
_EMPTY: Mapping[str, Mode] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class PolicyReview:
    """One policy's entry under `review.policies`: its mode, and modes of single rules."""

    mode: Mode | None = None  # None: the global `review.mode`
    rules: Mapping[str, Mode] = field(default_factory=lambda: _EMPTY)


@dataclass(frozen=True, slots=True)
class PolicyFlags:
    """The flags in force for one policy."""

    context: ContextFlag  # the flag as set
    uses_context: bool  # live, or dev and the policy is marked `development: true`
    mode: Mode
    rules: Mapping[str, Mode]
    source: str

    def mode_for(self, rules_fired: Iterable[str]) -> Mode:
        """The mode of a decision that fired `rules_fired`: `enforce` only when every one of
        them is enforced (a rule in watch keeps the whole decision in watch)."""
        modes = [self.rules.get(rule, self.mode) for rule in rules_fired]
        if not modes:
            return self.mode
        return "enforce" if all(m == "enforce" for m in modes) else "watch"


@dataclass(frozen=True, slots=True)
class ReviewFlags:
    """The resolved flags of a deployment: the global ones, per-policy entries, and why any
    setting fell back to the safe value."""

    context: ContextFlag = SAFE_CONTEXT
    mode: Mode = SAFE_MODE
    policies: Mapping[str, PolicyReview] = field(default_factory=dict)
    fixtures: Path | None = None  # the operator's canary folder
    source: str = "defaults"
    errors: tuple[str, ...] = ()

    def for_policy(self, name: str, *, development: bool) -> PolicyFlags:
        entry = self.policies.get(name, PolicyReview())
        uses = self.context == "live" or (self.context == "dev" and development)
        return PolicyFlags(self.context, uses, entry.mode or self.mode, entry.rules, self.source)

    def to_dict(self) -> dict[str, Any]:
        return {
            "context": self.context,
            "mode": self.mode,
            "policies": {
                name: {"mode": p.mode, "rules": dict(p.rules)} for name, p in sorted(self.policies.items())
            },
            "fixtures": str(self.fixtures) if self.fixtures is not None else None,
            "source": self.source,
            "errors": list(self.errors),
        }


def _choice(value: Any, allowed: tuple[str, ...], where: str, errors: list[str]) -> str | None:
    if value is None:
        return None
    if isinstance(value, str) and value.strip().lower() in allowed:
        return value.strip().lower()
    errors.append(f"{where}: {value!r} is not one of {', '.join(allowed)}; the safe setting is used instead")
    return None


def _policies(raw: Any, where: str, errors: list[str]) -> dict[str, PolicyReview]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        errors.append(f"{where}: a mapping of policy name to {{mode, rules}} is expected, not {type(raw).__name__}")
        return {}
    found: dict[str, PolicyReview] = {}
    for name, entry in raw.items():
        at = f"{where}.{name}"
        if not isinstance(name, str) or not _POLICY_NAME.match(name):
            errors.append(f"{at}: {name!r} is not a policy name ([a-z0-9-]+); entry ignored")
            continue
        if not isinstance(entry, dict):
            errors.append(f"{at}: a mapping with `mode` and/or `rules` is expected; the policy stays in watch")
            found[name] = PolicyReview(mode=SAFE_MODE)
            continue
        for key in set(entry) - {"mode", "rules"}:
            errors.append(f"{at}.{key}: unknown key (known: mode, rules); ignored")
        mode = entry.get("mode")
        chosen = _choice(mode, MODE_VALUES, f"{at}.mode", errors)
        rules: dict[str, Mode] = {}
        raw_rules = entry.get("rules") or {}
        if not isinstance(raw_rules, dict):
            errors.append(f"{at}.rules: a mapping of rule id to watch|enforce is expected; ignored")
            raw_rules = {}
        for rule, rule_mode in raw_rules.items():
            if not isinstance(rule, str) or not _RULE_ID.match(rule):
                errors.append(f"{at}.rules: {rule!r} is not a rule id (SKILL:ID, soul:never:N, detector:NAME); ignored")
                continue
            rules[rule] = cast(Mode, _choice(rule_mode, MODE_VALUES, f"{at}.rules.{rule}", errors) or SAFE_MODE)
        # a mode that failed to resolve is watch, not the global mode (which may be enforce)
        resolved = cast("Mode | None", chosen if chosen is not None or mode is None else SAFE_MODE)
        found[name] = PolicyReview(mode=resolved, rules=MappingProxyType(rules))
    return found


def parse_flags(data: Any, *, where: str = SETTINGS_FILE, base: Path | None = None) -> ReviewFlags:
    """The flags of a settings document (the parsed YAML); never raises."""
    errors: list[str] = []
    if data is None:
        return ReviewFlags(source=where)
    if not isinstance(data, dict):
        return ReviewFlags(source=where, errors=(f"{where}: the settings file is a mapping with a `review:` key",))
    for key in set(data) - {"review"}:
        errors.append(f"{where}: unknown top-level key {key!r} (known: review); ignored")
    review = data.get("review")
    if review is None:
        return ReviewFlags(source=where, errors=tuple(errors))
    if not isinstance(review, dict):
        errors.append(f"{where}: `review` is a mapping with context, mode, policies, canary")
        return ReviewFlags(source=where, errors=tuple(errors))
    for key in set(review) - {"context", "mode", "policies", "canary"}:
        errors.append(f"{where}: review.{key}: unknown key (known: context, mode, policies, canary); ignored")
    context = _choice(review.get("context"), CONTEXT_VALUES, "review.context", errors) or SAFE_CONTEXT
    mode = _choice(review.get("mode"), MODE_VALUES, "review.mode", errors) or SAFE_MODE
    fixtures: Path | None = None
    canary = review.get("canary")
    if isinstance(canary, dict) and canary.get("fixtures") is not None:
        folder = Path(str(canary["fixtures"])).expanduser()
        fixtures = folder if folder.is_absolute() or base is None else base / folder
    elif canary is not None and not isinstance(canary, dict):
        errors.append("review.canary: a mapping with `fixtures: FOLDER` is expected; ignored")
    return ReviewFlags(
        context=cast(ContextFlag, context),
        mode=cast(Mode, mode),
        policies=_policies(review.get("policies"), "review.policies", errors),
        fixtures=fixtures,
        source=where,
        errors=tuple(errors),
    )


def settings_path(explicit: Path | None = None, env: Mapping[str, str] | None = None) -> Path | None:
    """The settings file to read: `explicit`, else $REDLINE_SETTINGS, else ./redline.yaml when it exists."""
    env = os.environ if env is None else env
    if explicit is not None:
        return explicit
    if env.get(ENV_SETTINGS):
        return Path(env[ENV_SETTINGS])
    default = Path(SETTINGS_FILE)
    return default if default.is_file() else None


def load_flags(path: Path | None, env: Mapping[str, str] | None = None) -> ReviewFlags:
    """The flags from the file at `path` (None: no file), then the environment; never raises."""
    env = os.environ if env is None else env
    flags = ReviewFlags()
    if path is not None:
        flags = _read_file(path)
    errors = list(flags.errors)
    sources = [flags.source] if path is not None else []
    context, mode = flags.context, flags.mode
    if ENV_CONTEXT in env:
        context = cast(ContextFlag, _choice(env[ENV_CONTEXT], CONTEXT_VALUES, f"${ENV_CONTEXT}", errors) or SAFE_CONTEXT)
        sources.append(f"${ENV_CONTEXT}")
    if ENV_MODE in env:
        mode = cast(Mode, _choice(env[ENV_MODE], MODE_VALUES, f"${ENV_MODE}", errors) or SAFE_MODE)
        sources.append(f"${ENV_MODE}")
    return ReviewFlags(context, mode, flags.policies, flags.fixtures, " + ".join(sources) or "defaults", tuple(errors))


def _read_file(path: Path) -> ReviewFlags:
    where = str(path)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_SETTINGS_BYTES + 1)
    except OSError as exc:
        return ReviewFlags(source=where, errors=(f"{where}: cannot read the settings file ({exc.strerror or exc})",))
    if len(raw) > MAX_SETTINGS_BYTES:
        return ReviewFlags(source=where, errors=(f"{where}: over {MAX_SETTINGS_BYTES} bytes; not read",))
    try:
        data = yaml.safe_load(raw.decode("utf-8"))
    except (UnicodeDecodeError, yaml.YAMLError) as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f":{mark.line + 1}:{mark.column + 1}" if mark is not None else ""
        reason = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        return ReviewFlags(source=where, errors=(f"{where}{at}: not valid YAML ({reason})",))
    flags = parse_flags(data, where=where, base=path.parent)
    return flags


class FlagSource:
    """The current flags, re-read when the settings file changes (checked at most every
    `interval` seconds) or on `reload()`. Safe to share between threads."""

    def __init__(self, path: Path | None, env: Mapping[str, str] | None = None, *, interval: float = 1.0) -> None:
        self.path = path
        self._env = dict(os.environ if env is None else env)
        self._interval = interval
        self._lock = threading.Lock()
        self._stamp = self._file_stamp()
        self._flags = load_flags(path, self._env)
        self._checked = time.monotonic()
        self.reloads = 0

    def _file_stamp(self) -> tuple[int, int, int] | None:
        if self.path is None:
            return None
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_size, st.st_ino)

    def current(self) -> ReviewFlags:
        now = time.monotonic()
        if self.path is not None and self._interval > 0 and now - self._checked >= self._interval:
            with self._lock:
                if now - self._checked >= self._interval:
                    self._checked = now
                    if self._file_stamp() != self._stamp:
                        self._reload_locked()
        return self._flags

    def reload(self) -> ReviewFlags:
        with self._lock:
            self._reload_locked()
        return self._flags

    def _reload_locked(self) -> None:
        self._stamp = self._file_stamp()
        self._flags = load_flags(self.path, self._env)
        self.reloads += 1
