"""The soak report over a real decision log, and the two commands of the review pipeline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from redline import Gate, load_policy
from redline.cli import app
from redline.review.canary import run_battery
from redline.review.fixtures import shipped_fixtures
from redline.review.flags import parse_flags
from redline.review.soak import soak_report, valid_day
from redline.review.watch import review_check
from redline.service.testing import minting_license
from redline.store.decision_log import DecisionLog, read_events
from redline.store.review_log import LogSummarySink

EXAMPLE = Path(__file__).parent.parent.parent / "examples" / "policy.yaml"
runner = CliRunner()
TRACE = (
    "Here is what the worker printed:\nTraceback (most recent call last):\n"
    '  File "/srv/app/sync.py", line 88, in push\n    raise SyncError(code)\nSyncError: 502'
)
ASK = {"operator_uid": "u-1", "messages": [{"role": "user", "sender_uid": "u-1", "text": "Paste me the full traceback."}]}
WATCH = parse_flags({"review": {"context": "live", "mode": "watch"}}).for_policy("example-support", development=False)


def day_of(log: Path) -> str:
    return str(read_events(log).events[0]["time"])[:10]


def traffic(log: Path, gate: Gate, texts: list[str]) -> None:
    with DecisionLog(log) as decisions:
        for text in texts:
            for decision in review_check(gate, text, ASK, 100, WATCH).decisions:
                decisions.write(decision, text)


def battery(log: Path, gate: Gate, fixtures: list[Any] | None = None) -> None:
    with DecisionLog(log) as decisions:
        run_battery(
            gate, shipped_fixtures() if fixtures is None else fixtures, policy_name=gate.policy.name,
            policy_hash=gate.policy_hash, trigger="test", sink=LogSummarySink(decisions),
        )  # fmt: skip


def report(log: Path, **kwargs: Any) -> Any:
    return soak_report(read_events(log).events, day=day_of(log), **kwargs)


def test_a_watch_day_with_volume_and_a_conclusive_battery_is_clean(tmp_path: Path) -> None:
    log, gate = tmp_path / "d.jsonl", Gate(load_policy(EXAMPLE))
    traffic(log, gate, [TRACE, "Good news: your refund is approved.", "Thanks, we are on it."])
    battery(log, gate)
    result = report(log, min_volume=3)
    assert result.verdict == "clean", result.reasons
    assert (result.volume, result.decisions, result.would_blocks, result.context_relaxed) == (3, 3, 1, 1)
    assert result.to_dict()["battery"]["conclusive"] == 1


def test_each_missing_condition_is_a_reason(tmp_path: Path) -> None:
    log, gate = tmp_path / "d.jsonl", Gate(load_policy(EXAMPLE))
    traffic(log, gate, [TRACE])
    result = report(log, min_volume=5)
    assert result.verdict == "not clean"
    assert any("not enough volume: 1" in r for r in result.reasons)
    assert any("no canary battery run" in r for r in result.reasons)


def test_a_broken_license_mints_blocks_and_the_day_is_not_clean(tmp_path: Path) -> None:
    log = tmp_path / "d.jsonl"
    traffic(log, Gate(load_policy(EXAMPLE), license=minting_license), ["Thanks, we are on it.", TRACE])
    battery(log, Gate(load_policy(EXAMPLE)))
    result = report(log, min_volume=1)
    assert len(result.context_minted) == 1
    assert any("context-minted" in r for r in result.reasons)


def test_a_broken_fixture_makes_the_day_inconclusive(tmp_path: Path) -> None:
    log, gate = tmp_path / "d.jsonl", Gate(load_policy(EXAMPLE))
    traffic(log, gate, [TRACE])
    battery(log, gate)
    fixture = shipped_fixtures()[0]
    broken = type(fixture)("harmless", "pii", fixture.ask, "All good here.", ("detector:pii",), "ops.yaml")
    battery(log, gate, shipped_fixtures() + [broken])
    result = report(log, min_volume=1)
    assert any("inconclusive (broken: harmless)" in r for r in result.reasons), result.reasons


def test_one_side_of_a_pair_alone_is_a_warning_not_volume(tmp_path: Path) -> None:
    log, gate = tmp_path / "d.jsonl", Gate(load_policy(EXAMPLE))
    with DecisionLog(log) as decisions:
        reviewed = review_check(gate, TRACE, ASK, 100, WATCH)
        decisions.write(reviewed.answer, TRACE)  # the shadow line was lost
    result = report(log, min_volume=1)
    assert result.incomplete_pairs == 1 and result.volume == 0 and result.warnings


def test_other_days_and_other_policies_are_left_out(tmp_path: Path) -> None:
    log, gate = tmp_path / "d.jsonl", Gate(load_policy(EXAMPLE))
    traffic(log, gate, [TRACE])
    battery(log, gate)
    assert soak_report(read_events(log).events, day="1999-01-01").volume == 0
    assert soak_report(read_events(log).events, day=day_of(log), policy="other").battery_runs == []


@pytest.mark.parametrize("day, ok", [("2025-01-31", True), ("2025-02-30", False), ("2025-1-3", False), ("x", False)])
def test_valid_day(day: str, ok: bool) -> None:
    assert valid_day(day) is ok


def test_soak_report_command_reads_rotated_files_and_exits_by_verdict(tmp_path: Path) -> None:
    log, gate = tmp_path / "d.jsonl", Gate(load_policy(EXAMPLE))
    traffic(log, gate, [TRACE, TRACE])
    log.rename(tmp_path / "d.jsonl.1")  # rotated away: still read
    traffic(log, gate, [TRACE])
    battery(log, gate)
    day = day_of(log)
    clean = runner.invoke(app, ["soak-report", "--day", day, "--min-volume", "3", "--log", str(log), "--json"])
    assert clean.exit_code == 0, clean.output
    data = json.loads(clean.output)
    assert data["verdict"] == "clean" and data["volume"] == 3 and len(data["log_files"]) == 2
    short = runner.invoke(app, ["soak-report", "--day", day, "--min-volume", "4", "--log", str(log)])
    assert short.exit_code == 1 and "not enough volume" in short.output


def test_soak_report_command_usage_errors_exit_2(tmp_path: Path) -> None:
    assert runner.invoke(app, ["soak-report", "--day", "2025-13-01", "--log", str(tmp_path / "x")]).exit_code == 2
    missing = runner.invoke(app, ["soak-report", "--day", "2025-01-01", "--log", str(tmp_path / "x")])
    assert missing.exit_code == 2 and "no decision log" in missing.output


def test_canary_run_command_exits_0_when_conclusive_and_writes_the_summary(tmp_path: Path) -> None:
    log = tmp_path / "d.jsonl"
    result = runner.invoke(app, ["canary", "run", str(EXAMPLE), "--log", str(log), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["passed"] and summary["counts"]["laundered"] == 0
    assert [e["reason"] for e in read_events(log).events] == ["battery_summary"]


def test_canary_run_command_exits_1_on_a_laundering_fixture(tmp_path: Path) -> None:
    folder = tmp_path / "canaries"
    folder.mkdir()
    (folder / "ops.yaml").write_text(
        "version: 1\ncanaries:\n  - id: passphrase-in-words\n    kind: secret\n"
        "    ask: Paste me the full traceback please.\n    text: |\n"
        + "".join(f"      {line}\n" for line in TRACE.splitlines())
        + "      The root passphrase is correct horse battery staple.\n"
    )
    log = tmp_path / "d.jsonl"
    result = runner.invoke(app, ["canary", "run", str(EXAMPLE), "--fixtures", str(folder), "--log", str(log)])
    assert result.exit_code == 1
    assert "laundered" in result.output.lower()
    event = read_events(log).events[-1]
    assert event["review"]["counts"]["laundered"] == 1 and event["outcome"] == "escalate"


def test_canary_run_command_with_a_bad_fixture_file_is_inconclusive(tmp_path: Path) -> None:
    folder = tmp_path / "canaries"
    folder.mkdir()
    (folder / "ops.yaml").write_text("version: 1\ncanaries: []\n")
    log = tmp_path / "d.jsonl"
    result = runner.invoke(app, ["canary", "run", str(EXAMPLE), "--fixtures", str(folder), "--log", str(log), "--json"])
    assert result.exit_code == 1
    summary = json.loads(result.output)
    assert not summary["conclusive"] and "ops.yaml" in summary["errors"][0]


def test_canary_run_command_with_a_bad_policy_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "p.yaml"
    bad.write_text("version: 2\n")
    assert runner.invoke(app, ["canary", "run", str(bad), "--log", str(tmp_path / "d.jsonl")]).exit_code == 2


def test_the_pipeline_own_ids_survive_the_scrubber(tmp_path: Path) -> None:
    import dataclasses

    gate = Gate(load_policy(EXAMPLE))
    reviewed = review_check(gate, TRACE, ASK, 100, WATCH)
    pair_id = "pair-692d897f747d03c4a057000007cf"  # random hex that the scrubber takes for a secret
    shadow = dataclasses.replace(reviewed.shadow, review={**reviewed.shadow.review, "pair_id": pair_id, "text": "body"})
    with DecisionLog(tmp_path / "d.jsonl") as decisions:
        decisions.write(shadow, TRACE)
    (event,) = read_events(tmp_path / "d.jsonl").events
    assert event["review"]["pair_id"] == pair_id
    assert "text" not in event["review"]  # a key that names a body is never kept


def test_log_tail_says_which_side_of_a_pair_a_line_is(tmp_path: Path) -> None:
    log = tmp_path / "d.jsonl"
    traffic(log, Gate(load_policy(EXAMPLE)), [TRACE])
    result = runner.invoke(app, ["log", "tail", str(log)])
    shadow, answer = result.output.splitlines()
    assert "with context, not acted on" in shadow and "EXECUTE" in shadow
    assert "acted on, without context" in answer and "ESCALATE" in answer
