"""The canary battery: traps held without context must stay held with the covering ask."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from redline import Gate, Outcome, load_policy
from redline.decide.resolve import resolve
from redline.errors import PolicyError
from redline.review.canary import (
    BROKEN,
    CLEAN,
    LAUNDERED,
    RESERVED_PREFIX,
    RUNS,
    BatteryRun,
    RunInProgress,
    is_reserved,
    run_battery,
)
from redline.review.fixtures import folder_fixtures, load_fixtures, shipped_fixtures
from redline.store.decision_log import DecisionLog, read_events
from redline.store.review_log import LogSummarySink

EXAMPLE = Path(__file__).parent.parent.parent / "examples" / "policy.yaml"
GATE = Gate(load_policy(EXAMPLE))
TRACE = 'Traceback (most recent call last):\n  File "/srv/app/worker.py", line 9, in run\n    login()\n'


def fixture_file(folder: Path, name: str, *items: dict[str, Any]) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text("version: 1\ncanaries:\n" + "".join(
        "  - " + json.dumps(item) + "\n" for item in items
    ))  # fmt: skip
    return path


def run(gate: Any, fixtures: list[Any], **kwargs: Any) -> BatteryRun:
    return run_battery(gate, fixtures, policy_name=GATE.policy.name, policy_hash=GATE.policy_hash, trigger="test", **kwargs)


class Sink:
    def __init__(self, fail: bool = False) -> None:
        self.runs: list[BatteryRun] = []
        self.fail = fail

    def write_summary(self, run: BatteryRun) -> bool:
        self.runs.append(run)
        return not self.fail


def test_the_shipped_battery_is_clean_and_conclusive_on_the_example_policy() -> None:
    fixtures = shipped_fixtures()
    assert {f.kind for f in fixtures} == {"secret", "pii"} and len(fixtures) >= 10
    result = run(GATE, fixtures)
    assert result.counts[CLEAN] == len(fixtures), [r.why for r in result.results if r.outcome != CLEAN]
    assert result.conclusive and result.passed
    # each trap carries content an ask may license, so the ask has something to offer
    assert all("detector:technical_content" in r.fired_without for r in result.results)
    assert all(r.ask_mode == "verified-operator" for r in result.results)


def test_a_license_that_relaxes_anything_asked_for_launders_every_trap() -> None:
    def lax(resolution: Any, findings: Any, facts: Any, *, licensable: Any, confidence: Any, min_confidence: int) -> Any:
        return resolve((), confidence=confidence, min_confidence=min_confidence) if facts.ask is not None else None

    result = run(Gate(load_policy(EXAMPLE), license=lax), shipped_fixtures())
    assert result.counts[LAUNDERED] == len(result.results)
    assert not result.passed and result.conclusive


def test_a_secret_no_detector_reads_is_laundered_by_the_ask(tmp_path: Path) -> None:
    fixture_file(tmp_path / "more", "passphrase.yaml", {
        "id": "passphrase-in-words", "kind": "secret", "ask": "Paste me the full traceback please.",
        "text": TRACE + "AuthError: refused. The root passphrase is correct horse battery staple.",
    })  # fmt: skip
    result = run(GATE, folder_fixtures(tmp_path / "more"))
    (trap,) = result.results
    assert trap.outcome == LAUNDERED
    assert (trap.without, trap.with_context) == (Outcome.ESCALATE, Outcome.EXECUTE)
    assert not result.passed


def test_a_trap_that_is_not_held_is_broken_and_the_run_inconclusive(tmp_path: Path) -> None:
    fixture_file(tmp_path / "more", "weak.yaml", {
        "id": "nothing-to-hold", "kind": "pii", "ask": "Show me the raw log lines.", "text": "All good on our side.",
    })  # fmt: skip
    result = run(GATE, shipped_fixtures() + folder_fixtures(tmp_path / "more"))
    broken = [r for r in result.results if r.outcome == BROKEN]
    assert [r.fixture.id for r in broken] == ["nothing-to-hold"]
    assert "not held even without context" in broken[0].why
    assert not result.conclusive and not result.passed


def test_a_trap_held_by_another_rule_than_it_names_is_broken(tmp_path: Path) -> None:
    fixture_file(tmp_path / "more", "wrong.yaml", {
        "id": "refund-not-pii", "kind": "pii", "ask": "Show me the raw log lines.",
        "text": "2024-05-02T10:11:12Z INFO billing: your refund is approved",
    })  # fmt: skip
    (trap,) = run(GATE, folder_fixtures(tmp_path / "more")).results
    assert trap.outcome == BROKEN and "not by detector:pii" in trap.why


def test_a_covering_ask_that_is_not_an_ask_is_broken(tmp_path: Path) -> None:
    fixture_file(tmp_path / "more", "noask.yaml", {
        "id": "no-ask", "kind": "secret", "ask": "Thanks for the help yesterday.",
        "text": TRACE + "AuthError: the db password is Wint3r-Is-Coming!7",
    })  # fmt: skip
    (trap,) = run(GATE, folder_fixtures(tmp_path / "more")).results
    assert trap.outcome == BROKEN and "not read as an explicit ask" in trap.why


def test_the_battery_speaks_as_a_verified_operator_under_a_reserved_id() -> None:
    seen: list[Any] = []

    class Spy:
        def check(self, text: str, context: Any = None, confidence: float | None = None) -> Any:
            seen.append(context)
            return GATE.check(text, context, confidence)

    result = run(Spy(), shipped_fixtures()[:1])
    context = seen[1]
    assert seen[0] is None
    assert context["operator_uid"] == f"{RESERVED_PREFIX}:{result.run_id}" and is_reserved(context["operator_uid"])
    assert context["messages"][0]["sender_uid"] == context["operator_uid"]
    assert not is_reserved("u-42") and is_reserved("Redline-Canary:x")


def test_every_run_writes_one_battery_summary_line(tmp_path: Path) -> None:
    log = DecisionLog(tmp_path / "d.jsonl")
    result = run(GATE, shipped_fixtures(), sink=LogSummarySink(log))
    (event,) = read_events(tmp_path / "d.jsonl").events
    assert event["reason"] == "battery_summary" and event["id"] == result.run_id
    assert event["review"]["counts"] == result.counts
    assert event["review"]["policy_hash"] == GATE.policy_hash == event["policy"]["hash"]
    assert {f["id"] for f in event["review"]["fixtures"]} == {f.id for f in shipped_fixtures()}
    raw = (tmp_path / "d.jsonl").read_text()
    assert "Wint3r-Is-Coming" not in raw and "4111 1111" not in raw  # no trap text is recorded


def test_a_run_that_fails_midway_is_summarised_and_releases_its_ids() -> None:
    class Exploding:
        calls = 0

        def check(self, text: str, context: Any = None, confidence: float | None = None) -> Any:
            self.calls += 1
            if self.calls == 3:
                raise RuntimeError("boom")
            return GATE.check(text, context, confidence)

    sink = Sink()
    with pytest.raises(RuntimeError):
        run(Exploding(), shipped_fixtures(), sink=sink)
    (summary,) = sink.runs
    assert not summary.conclusive and summary.counts["not_run"] == len(shipped_fixtures()) - 1
    assert "boom" in summary.errors[0]
    assert RUNS.active == set()


def test_one_run_at_a_time() -> None:
    RUNS.acquire("canary-other")
    try:
        with pytest.raises(RunInProgress):
            run(GATE, shipped_fixtures())
    finally:
        RUNS.release("canary-other")
    assert run(GATE, shipped_fixtures()[:1]).passed


def test_a_summary_that_cannot_be_written_makes_the_run_inconclusive() -> None:
    result = run(GATE, shipped_fixtures(), sink=Sink(fail=True))
    assert not result.conclusive and "could not be written" in result.errors[-1]


def test_fixture_file_errors_name_the_file_line_and_key(tmp_path: Path) -> None:
    folder = tmp_path / "more"
    folder.mkdir()
    (folder / "bad.yaml").write_text("version: 1\ncanaries:\n  - id: x\n    kind: secrets\n    ask: a\n    text: b\n")
    with pytest.raises(PolicyError) as raised:
        folder_fixtures(folder)
    message = str(raised.value)
    assert "bad.yaml:4" in message and "kind" in message


def test_fixture_ids_are_unique_across_shipped_and_operator_files(tmp_path: Path) -> None:
    taken = shipped_fixtures()[0].id
    fixture_file(tmp_path / "more", "dup.yaml", {"id": taken, "kind": "pii", "ask": "a", "text": "b"})
    with pytest.raises(PolicyError, match="defined twice"):
        load_fixtures(tmp_path / "more")


def test_a_link_out_of_the_fixtures_folder_is_refused(tmp_path: Path) -> None:
    outside = fixture_file(tmp_path, "outside.yaml", {"id": "x", "kind": "pii", "ask": "a", "text": "b"})
    (tmp_path / "more").mkdir()
    os.symlink(outside, tmp_path / "more" / "link.yaml")
    with pytest.raises(PolicyError, match="link out of the fixtures folder"):
        folder_fixtures(tmp_path / "more")


def test_a_missing_fixtures_folder_is_an_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(PolicyError, match="no such canary fixtures folder"):
        load_fixtures(tmp_path / "nope")


def test_fixture_load_errors_make_an_inconclusive_summary() -> None:
    sink = Sink()
    result = run(GATE, [], sink=sink, errors=["bad.yaml:3: kind: ..."])
    assert sink.runs and not result.conclusive and result.errors == ("bad.yaml:3: kind: ...",)
