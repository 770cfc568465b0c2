"""The review flags: settings file and environment, per policy and per rule, and the safe fallback."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from redline.review.flags import ENV_CONTEXT, ENV_MODE, FlagSource, load_flags, parse_flags, settings_path


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "redline.yaml"
    path.write_text(text)
    return path


def test_without_settings_the_conversation_is_dark_and_watched() -> None:
    flags = load_flags(None, {})
    assert (flags.context, flags.mode, flags.source, flags.errors) == ("dark", "watch", "defaults", ())
    assert not flags.for_policy("acme", development=True).uses_context


def test_the_settings_file_sets_context_and_mode(tmp_path: Path) -> None:
    flags = load_flags(write(tmp_path, "review:\n  context: live\n  mode: enforce\n"), {})
    assert (flags.context, flags.mode, flags.errors) == ("live", "enforce", ())
    assert flags.for_policy("acme", development=False).uses_context


def test_the_environment_wins_over_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "review:\n  context: live\n  mode: enforce\n")
    flags = load_flags(path, {ENV_CONTEXT: "dev", ENV_MODE: "watch"})
    assert (flags.context, flags.mode) == ("dev", "watch")
    assert ENV_CONTEXT in flags.source and str(path) in flags.source


def test_dev_reads_conversations_only_for_development_policies(tmp_path: Path) -> None:
    flags = load_flags(None, {ENV_CONTEXT: "dev"})
    assert flags.for_policy("staging", development=True).uses_context
    assert not flags.for_policy("production", development=False).uses_context


@pytest.mark.parametrize("value", ["lve", "LIVE!", "", "true", "1"])
def test_a_context_flag_that_does_not_resolve_is_dark(value: str) -> None:
    flags = load_flags(None, {ENV_CONTEXT: value, ENV_MODE: "enforce"})
    assert flags.context == "dark"
    assert flags.mode == "enforce"  # only the flag at fault falls back
    assert any(ENV_CONTEXT in e for e in flags.errors)


def test_a_mode_flag_that_does_not_resolve_is_watch(tmp_path: Path) -> None:
    flags = load_flags(write(tmp_path, "review:\n  context: live\n  mode: enforced\n"), {})
    assert (flags.context, flags.mode) == ("live", "watch")
    assert "review.mode" in flags.errors[0] and "'enforced'" in flags.errors[0]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("review: [live]\n", "review"),
        ("review:\n  context: [live\n", "not valid YAML"),
        ("- just a list\n", "mapping"),
        ("review:\n  contxt: live\n", "contxt"),
    ],
)
def test_a_broken_settings_file_falls_back_to_dark_and_watch(tmp_path: Path, text: str, expected: str) -> None:
    flags = load_flags(write(tmp_path, text), {})
    assert (flags.context, flags.mode) == ("dark", "watch")
    assert flags.errors and expected in " ".join(flags.errors)


def test_an_unreadable_settings_file_falls_back_and_says_why(tmp_path: Path) -> None:
    flags = load_flags(tmp_path / "missing.yaml", {})
    assert (flags.context, flags.mode) == ("dark", "watch")
    assert "cannot read" in flags.errors[0]


def test_a_policy_entry_sets_its_mode_and_its_rules() -> None:
    flags = parse_flags({"review": {"context": "live", "mode": "watch", "policies": {
        "acme": {"mode": "enforce", "rules": {"detector:technical_content": "watch"}},
    }}})  # fmt: skip
    acme = flags.for_policy("acme", development=False)
    assert acme.mode == "enforce"
    assert acme.mode_for(["billing:no-refund"]) == "enforce"
    assert acme.mode_for(["detector:technical_content"]) == "watch"
    assert acme.mode_for(["billing:no-refund", "detector:technical_content"]) == "watch"  # one rule in watch: watch
    assert acme.mode_for([]) == "enforce"
    assert flags.for_policy("other", development=False).mode == "watch"


def test_a_rule_can_be_enforced_in_a_watched_policy() -> None:
    flags = parse_flags({"review": {"context": "live", "policies": {"acme": {"rules": {"detector:technical_content": "enforce"}}}}})
    acme = flags.for_policy("acme", development=False)
    assert acme.mode == "watch"
    assert acme.mode_for(["detector:technical_content"]) == "enforce"
    assert acme.mode_for(["detector:technical_content", "detector:pii"]) == "watch"


def test_a_bad_policy_mode_is_watch_even_when_the_global_mode_is_enforce() -> None:
    flags = parse_flags({"review": {"context": "live", "mode": "enforce", "policies": {"acme": {"mode": "yes"}}}})
    assert flags.for_policy("acme", development=False).mode == "watch"
    assert flags.for_policy("other", development=False).mode == "enforce"
    assert "review.policies.acme.mode" in flags.errors[0]


def test_a_bad_rule_entry_is_reported_and_a_bad_rule_mode_is_watch() -> None:
    flags = parse_flags({"review": {"policies": {"acme": {"mode": "enforce", "rules": {"not a rule": "watch", "detector:pii": "sometimes"}}}}})
    acme = flags.for_policy("acme", development=False)
    assert acme.rules == {"detector:pii": "watch"}
    assert len(flags.errors) == 2


def test_the_canary_folder_is_relative_to_the_settings_file(tmp_path: Path) -> None:
    flags = load_flags(write(tmp_path, "review:\n  canary:\n    fixtures: canaries\n"), {})
    assert flags.fixtures == tmp_path / "canaries"


def test_settings_path_prefers_the_option_then_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert settings_path(None, {}) is None
    (tmp_path / "redline.yaml").write_text("review: {}\n")
    assert settings_path(None, {}) == Path("redline.yaml")
    assert settings_path(None, {"REDLINE_SETTINGS": "/etc/redline.yaml"}) == Path("/etc/redline.yaml")
    assert settings_path(Path("x.yaml"), {"REDLINE_SETTINGS": "/etc/redline.yaml"}) == Path("x.yaml")


def test_the_flag_source_rereads_a_changed_file(tmp_path: Path) -> None:
    path = write(tmp_path, "review:\n  context: dark\n")
    source = FlagSource(path, {}, interval=0.01)
    assert source.current().context == "dark"
    path.write_text("review:\n  context: live\n  mode: enforce\n")
    os.utime(path, ns=(time.time_ns() + 10**9, time.time_ns() + 10**9))
    time.sleep(0.02)
    assert (source.current().context, source.current().mode) == ("live", "enforce")
    path.write_text("review:\n  context: lyve\n")  # a bad edit: back to the safe setting, never the last good
    os.utime(path, ns=(time.time_ns() + 2 * 10**9, time.time_ns() + 2 * 10**9))
    time.sleep(0.02)
    assert source.current().context == "dark"
    assert source.reloads == 2
