from __future__ import annotations

import errno
import json
import os
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from redline import Decision, Finding, Gate, Outcome, RiskLevel, Severity, Status
from redline.store import decision_log
from redline.store.decision_log import (
    SCHEMA_VERSION,
    DecisionLog,
    event_from_decision,
    read_events,
)
from redline.store.log_cli import log_app

EMAIL = "maria@example.com"
AWS_KEY = "AKIAIOSFODNN7EXAMPLE"


def _decision(n: int = 0, **changes: Any) -> Decision:
    fields: dict[str, Any] = {
        "id": f"d{n:05d}",
        "outcome": Outcome.ESCALATE,
        "reason": "red_line_violation",
        "risk_level": RiskLevel.HIGH,
        "findings": (
            Finding("billing:no-refund-promise", Severity.BLOCK, 5, 11, "refund", Status.AFFIRMED, None),
        ),
        "suppressed": (
            Finding("billing:no-discount", Severity.FLAG, 20, 28, "discount", Status.NEGATED, "no"),
        ),
        "policy_name": "acme-support",
        "policy_hash": "sha256:abc123",
        "timings_ms": {"screen": 0.123456, "total": 0.5 + n},
        "layers": {"screen": {"verdict": "violates", "hits": 2}, "judge": None, "agreement": None},
    }
    fields.update(changes)
    return Decision(**fields)


def _line_of(decision: Decision, text: str) -> dict[str, Any]:
    return json.loads(event_from_decision(decision, text).to_json_line())


# ------------------------------------------------------------------ the event


def test_event_carries_the_v1_schema_version_and_the_decision_fields() -> None:
    event = _line_of(_decision(), "Your refund is approved.")
    assert event["schema_version"] == SCHEMA_VERSION == "redline.decision/v1"
    assert event["id"] == "d00000"
    assert event["policy"] == {"name": "acme-support", "hash": "sha256:abc123"}
    assert (event["outcome"], event["reason"], event["risk_level"]) == ("escalate", "red_line_violation", "high")
    assert event["rules_fired"] == ["billing:no-refund-promise"]
    assert event["suppressed"] == [{"rule": "billing:no-discount", "status": "negated", "cue": "no"}]
    assert event["layers"] == {"screen": {"verdict": "violates", "hits": 2}, "judge": None, "agreement": None}
    assert event["timings_ms"] == {"screen": 0.1235, "total": 0.5}
    assert event["text_chars"] == len("Your refund is approved.")
    assert event["error"] is None and event["context"] is None
    assert list(event)[0] == "schema_version"


def test_event_time_is_utc_iso8601_with_milliseconds() -> None:
    event = _line_of(_decision(), "hi")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", event["time"])


def test_json_line_is_one_utf8_line_even_when_the_text_has_newlines() -> None:
    line = event_from_decision(_decision(), "Ligne un\nligne deux: café ☕").to_json_line()
    assert line.endswith("\n") and line.count("\n") == 1
    assert "café ☕" in line  # ensure_ascii=False
    assert line == event_from_decision(_decision(), "Ligne un\nligne deux: café ☕", now=json.loads(line)["time"]).to_json_line()


def test_excerpt_is_scrubbed_and_erased_lists_what_was_masked() -> None:
    text = f"Please write to {EMAIL}; the deploy key is {AWS_KEY}. " + "More words. " * 40
    event = _line_of(_decision(), text)
    assert EMAIL not in event["text_excerpt"] and AWS_KEY not in event["text_excerpt"]
    assert "[EMAIL_ADDRESS]" in event["text_excerpt"]
    assert len(event["text_excerpt"]) == 200
    assert event["text_chars"] == len(text)
    erased = {e["type"]: e for e in event["erased"]}
    assert {"EMAIL_ADDRESS", "AWS_ACCESS_KEY"} <= set(erased)
    assert text[erased["EMAIL_ADDRESS"]["start"] : erased["EMAIL_ADDRESS"]["end"]] == EMAIL
    assert text[erased["AWS_ACCESS_KEY"]["start"] : erased["AWS_ACCESS_KEY"]["end"]] == AWS_KEY
    assert erased["EMAIL_ADDRESS"]["detector"] == "pii"
    assert erased["AWS_ACCESS_KEY"]["detector"] == "credentials"
    assert event["erased_total"] == len(event["erased"])


def test_an_event_built_from_the_callers_scrub_is_the_event_built_from_the_text() -> None:
    from redline.store.scrub import scrub

    text = f"Please write to {EMAIL}; the deploy key is {AWS_KEY}. " + "More words. " * 40
    at = "2026-01-01T00:00:00.000Z"
    given = event_from_decision(_decision(), text, now=at, scrubbed=scrub(text))
    assert given == event_from_decision(_decision(), text, now=at)
    # bytes are decoded first: a scrub of something else is not trusted for them
    unrelated = scrub("nothing to mask")
    from_bytes = event_from_decision(_decision(), text.encode(), now=at, scrubbed=unrelated)
    assert from_bytes.text_excerpt == given.text_excerpt and EMAIL not in from_bytes.text_excerpt


@pytest.mark.parametrize(
    ("decision", "text"),
    [
        (_decision(), "Your refund is approved."),
        (_decision(1, context={"mode": "single-sender", "messages": 2, "text": "BODY"}, error=f"judge quoted {EMAIL}"),
         f"Mail {EMAIL} today, key {AWS_KEY}. ☕"),
        (_decision(2, review={"kind": "check", "pair_id": "pair-1f2e", "mode": "watch", "would_block": True}), "x"),
        (_decision(3, layers={"judge": {"rationale": "quotes the draft", "label": "bad\ud800"}}), "lone \udc80 here"),
        (_decision(4, findings=tuple(Finding(f"skill:r{n}", Severity.BLOCK, n, n + 3, "abc", Status.AFFIRMED, None) for n in range(400)),
                   suppressed=tuple(Finding(f"s:r{n}", Severity.FLAG, n, n + 3, "abc", Status.NEGATED, "not") for n in range(300))),
         "long " * 4000),
    ],
)  # fmt: skip
def test_the_log_writes_the_line_of_the_event(tmp_path: Path, decision: Decision, text: str) -> None:
    """DecisionLog.write builds its line from the event's fields without the event: the
    same bytes as `event_from_decision(...).to_json_line()` (shrunk where that is too long)."""
    from redline.store.decision_event import MAX_LINE_BYTES, shrink_event

    log = DecisionLog(tmp_path / "log.jsonl")
    assert log.write(decision, text)
    written = (tmp_path / "log.jsonl").read_bytes()
    event = event_from_decision(decision, text, now=json.loads(written)["time"])
    expected = event.to_json_line().encode("utf-8")
    if len(expected) > MAX_LINE_BYTES:
        expected = shrink_event(event).to_json_line().encode("utf-8")
    assert written == expected
    assert json.loads(written)["schema_version"] == SCHEMA_VERSION


def test_a_secret_straddling_character_200_is_masked_not_half_kept() -> None:
    text = "a" * 190 + " " + AWS_KEY + " tail"
    event = _line_of(_decision(), text)
    assert len(event["text_excerpt"]) <= 200
    assert "AKIA" not in event["text_excerpt"]
    assert event["erased"][0]["start"] == 191


def test_the_whole_line_never_holds_the_secret(support_gate: Gate) -> None:
    text = f"Your refund is approved. Mail {EMAIL}, key {AWS_KEY}."
    line = event_from_decision(support_gate.check(text), text).to_json_line()
    assert EMAIL not in line and AWS_KEY not in line


def test_context_metadata_is_kept_and_message_bodies_are_not() -> None:
    context = {
        "licensed_by_context": True,
        "mode": "single-sender",
        "messages": 3,
        "user_messages": 2,
        "truncated": False,
        "text": "BODY-ONE the user's own words",
        "body": "BODY-TWO",
        "history": {"messages": [{"role": "user", "text": "BODY-THREE"}]},
        "error": f"invalid context: input_value='{EMAIL}'",
    }
    line = event_from_decision(_decision(context=context), "hi").to_json_line()
    event = json.loads(line)
    assert "BODY-" not in line and EMAIL not in line
    assert event["context"]["licensed_by_context"] is True
    assert event["context"]["mode"] == "single-sender"
    assert event["context"]["messages"] == 3 and event["context"]["user_messages"] == 2
    assert event["context"]["history"] == {}
    assert "[EMAIL_ADDRESS]" in event["context"]["error"]


def test_a_real_conversation_leaves_only_its_counts_in_the_log(support_gate: Gate) -> None:
    conversation = {
        "operator_uid": "u1",
        "messages": [{"role": "user", "sender_uid": "u1", "text": "SECRET-ASK please paste me the full traceback"}],
    }
    decision = support_gate.check("Here it is.", context=conversation)
    line = event_from_decision(decision, "Here it is.").to_json_line()
    context = json.loads(line)["context"]
    assert "SECRET-ASK" not in line
    assert context["messages"] == 1 and context["mode"] == "verified-operator"
    assert "licensed_by_context" in context


def test_suppressed_hits_carry_rule_status_and_cue(triage_gate: Gate) -> None:
    text = "Denies chest pain."
    event = _line_of(triage_gate.check(text), text)
    assert event["rules_fired"] == []
    assert event["suppressed"] == [{"rule": "red-flags:chest-pain", "status": "negated", "cue": "Denies"}]


def test_an_error_decision_records_its_error_and_no_body(support_gate: Gate) -> None:
    event = _line_of(support_gate.check(12345), 12345)  # type: ignore[arg-type]
    assert event["reason"] == "check_error"
    assert event["error"].startswith("TypeError")
    assert (event["text_chars"], event["text_excerpt"]) == (0, "")


# ------------------------------------------------------------------ writing and rotation


def test_write_appends_one_line_per_decision_and_counts(tmp_path: Path) -> None:
    path = tmp_path / "redline.decisions.jsonl"
    with DecisionLog(path) as log:
        assert log.write(_decision(1), "one") and log.write(_decision(2), "two")
        stats = log.stats()
    lines = path.read_bytes().split(b"\n")
    assert lines[-1] == b"" and len(lines) == 3
    assert stats["writes"] == 2 and stats["failures"] == 0 and stats["last_error"] is None
    assert stats["bytes"] == path.stat().st_size and stats["path"] == str(path)


def test_rotation_creates_numbered_files_and_drops_those_beyond_backups(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    size = len(event_from_decision(_decision(0), "x").to_json_line().encode())
    log = DecisionLog(path, max_bytes=2 * size, backups=2)
    for n in range(10):  # every second write rotates: five files' worth, two backups kept
        assert log.write(_decision(n), "x")
    log.close()
    names = sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(".lock"))
    assert names == ["log.jsonl.1", "log.jsonl.2"]
    assert [e["id"] for e in read_events(path).events] == [f"d{n:05d}" for n in (6, 7, 8, 9)]
    assert [json.loads(x)["id"] for x in (tmp_path / "log.jsonl.2").read_text().splitlines()] == ["d00006", "d00007"]
    assert log.stats()["rotations"] == 5


def test_with_no_backups_rotation_starts_the_file_afresh(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    log = DecisionLog(path, max_bytes=1, backups=0)
    assert log.write(_decision(1), "x") and log.write(_decision(2), "x")
    assert not path.exists() and not (tmp_path / "log.jsonl.1").exists()


def test_a_writer_notices_that_another_rotated_the_file(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    size = len(event_from_decision(_decision(0), "x").to_json_line().encode())
    first, second = DecisionLog(path, max_bytes=2 * size, backups=3), DecisionLog(path, max_bytes=2 * size, backups=3)
    first.write(_decision(1), "x")
    second.write(_decision(2), "x")  # reaches max_bytes: `second` rotates the file `first` holds open
    second.write(_decision(3), "x")  # a new live file exists again
    first.write(_decision(4), "x")  # must land next to d3 (and rotate again), not in .1 after d2
    assert not path.exists()
    assert [json.loads(x)["id"] for x in (tmp_path / "log.jsonl.1").read_text().splitlines()] == ["d00003", "d00004"]
    assert [json.loads(x)["id"] for x in (tmp_path / "log.jsonl.2").read_text().splitlines()] == ["d00001", "d00002"]


def test_writers_in_many_threads_lose_no_line(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    log = DecisionLog(path, max_bytes=16 * 1024, backups=500)

    def work(t: int) -> None:
        for n in range(250):
            assert log.write(_decision(t * 1000 + n), f"thread {t} line {n} {EMAIL}")

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    result = read_events(path)
    assert (result.torn, result.bad) == (0, [])
    assert sorted(e["id"] for e in result.events) == sorted(f"d{t * 1000 + n:05d}" for t in range(8) for n in range(250))
    assert log.stats()["writes"] == 2000 and log.failures == 0


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs Linux /dev/full")
def test_a_full_disk_is_counted_and_never_raises() -> None:
    log = DecisionLog("/dev/full")
    assert log.write(_decision(), "hello") is False
    assert log.write(_decision(), "hello") is False
    assert log.failures == 2 and log.stats()["writes"] == 0
    assert log.last_error is not None and "ENOSPC" in log.last_error


def test_a_path_under_a_file_is_counted_and_never_raises(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    log = DecisionLog(blocker / "redline.decisions.jsonl")
    assert log.write(_decision(), "hello") is False
    assert log.failures == 1 and "ENOTDIR" in str(log.last_error)


def test_a_missing_folder_is_counted_and_never_raises(tmp_path: Path) -> None:
    log = DecisionLog(tmp_path / "gone" / "log.jsonl")
    assert log.write(_decision(), "hello") is False
    assert "ENOENT" in str(log.last_error)


def test_a_failing_os_write_is_counted_and_the_log_recovers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = DecisionLog(tmp_path / "log.jsonl")

    def full(fd: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(decision_log.os, "write", full)
    assert log.write(_decision(1), "x") is False
    assert log.failures == 1 and "ENOSPC" in str(log.last_error)
    monkeypatch.undo()
    assert log.write(_decision(2), "x") is True
    assert [e["id"] for e in read_events(tmp_path / "log.jsonl").events] == ["d00002"]
    assert log.stats()["failures"] == 1


def test_a_short_write_is_a_failure_and_the_next_line_stays_readable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_write = os.write
    monkeypatch.setattr(decision_log.os, "write", lambda fd, data: real_write(fd, data[:10]))
    log = DecisionLog(tmp_path / "log.jsonl")
    assert log.write(_decision(1), "x") is False
    assert "short write" in str(log.last_error)
    monkeypatch.undo()
    assert log.write(_decision(2), "x") is True
    result = read_events(tmp_path / "log.jsonl")
    assert [e["id"] for e in result.events] == ["d00002"]
    assert [b.line for b in result.bad] == [1]


def test_an_outage_is_logged_once_not_once_per_check(caplog: pytest.LogCaptureFixture) -> None:
    log = DecisionLog("/proc/version/redline.decisions.jsonl")  # a path under a file: ENOTDIR
    with caplog.at_level("WARNING", logger="redline.decision_log"):
        for _ in range(5):
            assert log.write(_decision(), "x") is False
    assert log.failures == 5
    assert len([r for r in caplog.records if "write failed" in r.getMessage()]) == 1


def test_an_event_that_cannot_be_built_is_counted_and_never_raises(tmp_path: Path) -> None:
    log = DecisionLog(tmp_path / "log.jsonl")
    assert log.write(object(), "x") is False  # type: ignore[arg-type]
    assert log.failures == 1 and "cannot build the event" in str(log.last_error)


@pytest.mark.parametrize(("argument", "value"), [("max_bytes", 0), ("max_bytes", "10MB"), ("backups", -1)])
def test_bad_settings_are_refused_naming_the_argument(tmp_path: Path, argument: str, value: Any) -> None:
    with pytest.raises(ValueError, match=argument):
        DecisionLog(tmp_path / "log.jsonl", **{argument: value})


# ------------------------------------------------------------------ reading


def _write(path: Path, ids: list[int]) -> None:
    path.write_bytes(b"".join(event_from_decision(_decision(n), "x").to_json_line().encode() for n in ids))


def test_reader_tolerates_a_torn_last_line_and_loses_no_earlier_line(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    _write(path, [1, 2, 3])
    whole = event_from_decision(_decision(4), "x").to_json_line().encode()
    with path.open("ab") as f:
        f.write(whole[: len(whole) // 2])  # a crash in the middle of a line
    result = read_events(path)
    assert [e["id"] for e in result.events] == ["d00001", "d00002", "d00003"]
    assert (result.torn, result.bad) == (1, [])


def test_reader_counts_an_invalid_last_line_as_torn(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    _write(path, [1])
    with path.open("ab") as f:
        f.write(b'{"schema_version": "redline.decision/v1", "id": \n')
    result = read_events(path)
    assert [e["id"] for e in result.events] == ["d00001"] and result.torn == 1 and result.bad == []


def test_reader_reports_malformed_lines_with_file_and_line_and_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    _write(path, [1])
    with path.open("ab") as f:
        f.write(b"garbage\n[1, 2]\n")
    with path.open("ab") as f:
        f.write(event_from_decision(_decision(2), "x").to_json_line().encode())
    result = read_events(path)
    assert [e["id"] for e in result.events] == ["d00001", "d00002"]
    assert [(b.file, b.line) for b in result.bad] == [(str(path), 2), (str(path), 3)]
    assert result.torn == 0
    assert str(result.bad[0]).startswith(f"{path}:2: not JSON")


def test_reader_goes_oldest_first_across_rotated_files_each_with_a_torn_end(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    _write(Path(f"{path}.2"), [1, 2])
    _write(Path(f"{path}.1"), [3])
    _write(path, [4])
    with open(f"{path}.2", "ab") as f:
        f.write(b'{"schema_vers')
    result = read_events(path)
    assert [e["id"] for e in result.events] == ["d00001", "d00002", "d00003", "d00004"]
    assert result.files == [f"{path}.2", f"{path}.1", str(path)]
    assert result.torn == 1
    assert [e["id"] for e in read_events(path, include_rotated=False).events] == ["d00004"]


# ------------------------------------------------------------------ redline log …

runner = CliRunner()
cli = typer.Typer()
cli.add_typer(log_app, name="log")


@pytest.fixture()
def sample_log(tmp_path: Path, support_gate: Gate) -> Path:
    path = tmp_path / "redline.decisions.jsonl"
    log = DecisionLog(path)
    texts = [
        "Thanks for your patience, the parcel ships today.",
        f"Your refund is approved. Write to {EMAIL}.",
        f"My key is {AWS_KEY}",
        "Happy to help with anything else.",
    ]
    for text in texts:
        assert log.write(support_gate.check(text, confidence=100), text)
    log.close()
    return path


def test_log_tail_prints_the_newest_events_scrubbed(sample_log: Path) -> None:
    result = runner.invoke(cli, ["log", "tail", str(sample_log), "-n", "3"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 3
    assert "ESCALATE" in lines[0] and "[EMAIL_ADDRESS]" in lines[0] and "billing:no-refund-promise" in lines[0]
    assert "REFUSE" in lines[1] and "[AWS_ACCESS_KEY]" in lines[1]
    assert "Happy to help" in lines[2]
    assert EMAIL not in result.output and AWS_KEY not in result.output


def test_log_tail_json_prints_event_lines(sample_log: Path) -> None:
    result = runner.invoke(cli, ["log", "tail", str(sample_log), "--json"])
    events = [json.loads(line) for line in result.stdout.splitlines()]
    assert [e["outcome"] for e in events] == ["execute", "escalate", "refuse", "execute"]
    assert all(e["schema_version"] == SCHEMA_VERSION for e in events)


def test_log_tail_follow_prints_appended_events(sample_log: Path) -> None:
    def append_later() -> None:
        time.sleep(0.3)
        DecisionLog(sample_log).write(_decision(77), "appended while following")

    writer = threading.Thread(target=append_later)
    writer.start()
    result = runner.invoke(cli, ["log", "tail", str(sample_log), "-n", "1", "--follow", "--follow-for", "1.0", "--json"])
    writer.join()
    assert [json.loads(line)["id"] for line in result.stdout.splitlines()][-1] == "d00077"
    assert len(result.stdout.splitlines()) == 2


def test_log_tail_follow_keeps_following_across_a_rotation(sample_log: Path) -> None:
    def append_later() -> None:
        log = DecisionLog(sample_log, max_bytes=sample_log.stat().st_size + 1, backups=3)
        time.sleep(0.3)
        log.write(_decision(81), "lands in the old file, which is then rotated to .1")
        time.sleep(0.3)
        log.write(_decision(82), "lands in the new live file")

    writer = threading.Thread(target=append_later)
    writer.start()
    result = runner.invoke(cli, ["log", "tail", str(sample_log), "-n", "0", "-f", "--follow-for", "1.2", "--json"])
    writer.join()
    assert Path(f"{sample_log}.1").exists()
    assert [json.loads(line)["id"] for line in result.stdout.splitlines()] == ["d00081", "d00082"]


def test_log_stats_json_counts_outcomes_rules_latency_and_unreadable_lines(sample_log: Path) -> None:
    with sample_log.open("ab") as f:
        f.write(b"not json\n")
        f.write(event_from_decision(_decision(9999), "x").to_json_line().encode())
        f.write(b'{"torn')
    result = runner.invoke(cli, ["log", "stats", str(sample_log), "--json"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.stdout)
    assert stats["events"] == 5
    assert stats["by_outcome"] == {"escalate": 2, "execute": 2, "refuse": 1}
    assert stats["by_policy"] == {"acme-support": 5}
    assert stats["top_rules"]["billing:no-refund-promise"] == 2
    assert stats["erased_by_type"] == {"EMAIL_ADDRESS": 1, "AWS_ACCESS_KEY": 1}
    assert stats["torn"] == 1 and len(stats["bad"]) == 1 and stats["bad"][0].endswith("not JSON: Expecting value: line 1 column 1 (char 0)")
    assert stats["first"] <= stats["last"]
    assert stats["latency_ms"]["p99"] == 9999.5  # slower than any real check, however loaded the machine
    assert 0 < stats["latency_ms"]["p50"] <= stats["latency_ms"]["p99"]


def test_log_stats_prints_tables_for_people(sample_log: Path) -> None:
    result = runner.invoke(cli, ["log", "stats", str(sample_log)])
    assert result.exit_code == 0, result.output
    assert "4 events" in result.stdout and "refuse" in result.stdout and "p99" in result.stdout


def test_log_grep_matches_the_scrubbed_excerpt_and_rule_ids(sample_log: Path) -> None:
    by_text = runner.invoke(cli, ["log", "grep", "parcel", str(sample_log), "--json"])
    assert [json.loads(x)["outcome"] for x in by_text.stdout.splitlines()] == ["execute"]
    by_mask = runner.invoke(cli, ["log", "grep", r"\[AWS_ACCESS_KEY\]", str(sample_log), "--json"])
    assert [json.loads(x)["outcome"] for x in by_mask.stdout.splitlines()] == ["refuse"]
    by_rule = runner.invoke(cli, ["log", "grep", "detector:", str(sample_log), "--json"])
    assert len(by_rule.stdout.splitlines()) == 2


def test_log_grep_never_finds_the_raw_secret(sample_log: Path) -> None:
    result = runner.invoke(cli, ["log", "grep", EMAIL, str(sample_log)])
    assert result.exit_code == 1 and result.stdout == ""


def test_log_grep_filters_by_outcome_and_rule(sample_log: Path) -> None:
    result = runner.invoke(cli, ["log", "grep", ".", str(sample_log), "--outcome", "escalate", "--rule", "billing:*", "--json"])
    assert result.exit_code == 0, result.output
    events = [json.loads(x) for x in result.stdout.splitlines()]
    assert len(events) == 1 and events[0]["rules_fired"][0].startswith("billing:")


def test_log_grep_refuses_an_unknown_outcome_and_a_bad_pattern(sample_log: Path) -> None:
    assert runner.invoke(cli, ["log", "grep", ".", str(sample_log), "--outcome", "maybe"]).exit_code == 2
    bad = runner.invoke(cli, ["log", "grep", "(", str(sample_log)])
    assert bad.exit_code == 2 and "not a regular expression" in bad.output


@pytest.mark.parametrize("command", ["tail", "stats", "grep"])
def test_log_commands_on_a_missing_file_exit_2_with_a_clear_error(tmp_path: Path, command: str) -> None:
    args = ["log", command] + (["x"] if command == "grep" else []) + [str(tmp_path / "none.jsonl")]
    result = runner.invoke(cli, args)
    assert result.exit_code == 2
    assert "no decision log at" in result.output


def test_a_torn_last_line_from_a_crash_does_not_swallow_the_next_event(tmp_path) -> None:  # noqa: ANN001
    from redline import Gate, parse_policy
    from redline.store.decision_log import DecisionLog, read_events

    path = tmp_path / "redline.decisions.jsonl"
    gate = Gate(parse_policy("version: 1\nname: torn\n"))
    first = DecisionLog(str(path))
    first.write(gate.check("one"), "one")
    first.close()
    with open(path, "ab") as handle:  # a crash in the middle of a line
        handle.write(b'{"schema_version": "redline.decision/v1", "id": "half')
    after = DecisionLog(str(path))
    decision = gate.check("two")
    assert after.write(decision, "two")
    after.close()
    result = read_events(str(path))
    assert decision.id in [event["id"] for event in result.events]
    assert result.torn == 0 and len(result.bad) == 1  # the fragment is one bad line, alone


def test_after_a_full_disk_the_first_line_is_not_glued_to_the_half_written_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "log.jsonl"
    log = DecisionLog(path)
    assert log.write(_decision(1), "x") is True
    real_write = os.write
    calls = {"n": 0}

    def filling(fd: int, data: bytes) -> int:  # half a line fits, then the disk is full
        calls["n"] += 1
        if calls["n"] == 1:
            return real_write(fd, data[:25])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(decision_log.os, "write", filling)
    assert log.write(_decision(2), "x") is False
    assert log.write(_decision(3), "x") is False
    monkeypatch.undo()  # space is back
    assert log.write(_decision(4), "x") is True
    assert log.write(_decision(5), "x") is True
    result = read_events(path)
    assert [e["id"] for e in result.events] == ["d00001", "d00004", "d00005"]
    assert [b.line for b in result.bad] == [2], "only the fragment is unreadable"


def test_a_huge_decision_makes_a_bounded_line(tmp_path: Path, support_gate: Gate) -> None:
    from redline.store.decision_event import MAX_LINE_BYTES

    path = tmp_path / "log.jsonl"
    log = DecisionLog(path, max_bytes=10 * 1024 * 1024)
    text = "no refund here, no lawsuit, no legal advice. " * 20_000
    decision = support_gate.check(text)
    assert log.write(decision, text) is True
    assert path.stat().st_size <= MAX_LINE_BYTES
    [event] = read_events(path).events
    assert event["id"] == decision.id and event["outcome"] == decision.outcome.value
    assert event["omitted"]["suppressed"] > 0


def test_a_line_over_the_limit_is_shrunk_keeping_id_outcome_and_rules() -> None:
    from dataclasses import replace

    from redline.store.decision_event import MAX_LINE_BYTES, shrink_event

    event = event_from_decision(_decision(7), "x")
    many = tuple({"rule": f"skill:rule-{i}", "status": "negated", "cue": "no"} for i in range(2_000))
    big = replace(event, suppressed=many, rules_fired=tuple(f"skill:rule-{i}" for i in range(2_000)))
    assert len(big.to_json_line().encode()) > MAX_LINE_BYTES
    small = shrink_event(big)
    assert len(small.to_json_line().encode()) <= MAX_LINE_BYTES
    assert (small.id, small.outcome) == (event.id, event.outcome)
    assert small.omitted["suppressed"] == 2_000 - len(small.suppressed)


def test_a_lone_surrogate_anywhere_in_a_decision_still_makes_a_readable_line(tmp_path: Path) -> None:
    log = DecisionLog(tmp_path / "log.jsonl")
    decision = _decision(9, context={"recipient": "x\udc80y", "mode": "weak"})
    assert log.write(decision, "text with \ud800 inside") is True
    [event] = read_events(tmp_path / "log.jsonl").events
    assert event["id"] == "d00009" and event["context"]["recipient"] == "x\udc80y"


def test_log_commands_show_terminal_escapes_in_a_crafted_log_never_obey_them(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    event = event_from_decision(_decision(3), "x").to_dict()
    event.update(
        text_excerpt="Your refund is approved.\x1b[8m hidden\x1b[0m\x1b[2K\rAll good here.",
        policy={"name": "acme\u202e", "hash": "h"},
        reason="red\x07line",
        rules_fired=["billing:[bold]x\x1b]0;title\x07"],
    )
    path.write_text(json.dumps(event) + "\n")
    for command in (["log", "tail", str(path)], ["log", "grep", "refund", str(path)], ["log", "stats", str(path)]):
        result = runner.invoke(cli, command)
        assert result.exit_code == 0, result.output
        for raw in ("\x1b", "\r", "\x07", "\u202e"):
            assert raw not in result.output, (command, raw)
    tail = runner.invoke(cli, ["log", "tail", str(path)]).output
    assert "\\x1b[8m" in tail and "acme\u27e8U+202E\u27e9" in tail and "billing:[bold]x" in tail
    exact = runner.invoke(cli, ["log", "tail", str(path), "--json"]).output
    assert json.loads(exact)["text_excerpt"] == event["text_excerpt"], "--json stays exact"
