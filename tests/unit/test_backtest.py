"""`redline backtest` with the local engine: counts, the diff, rules, logs, bad input.

Every expected figure comes from checking the same drafts one by one with `Gate.check`,
so the tests hold the backtest's reading, aggregation and diff to the gate itself.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from redline import Gate, Outcome, RedlineError, load_policy
from redline.backtest import run_backtest
from redline.backtest.worker import Verdict, change_of, verdict
from redline.cli import app
from redline.store.decision_log import DecisionLog

runner = CliRunner()


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def oracle(rows: list[dict[str, Any]], policies: tuple[Path, Path]) -> list[tuple[Verdict, Verdict, str | None]]:
    old, new = (Gate(load_policy(p)) for p in policies)
    found = []
    for row in rows:
        text, confidence = row["text"], row.get("confidence")
        base, after = verdict(old.check(text, confidence=confidence)), verdict(new.check(text, confidence=confidence))
        found.append((base, after, change_of(base, after)))
    return found


Rows = Callable[..., list[dict[str, Any]]]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory, make_backtest_rows: Rows) -> tuple[Path, list[dict[str, Any]]]:
    rows = make_backtest_rows(900)
    return write_jsonl(tmp_path_factory.mktemp("corpus") / "drafts.jsonl", rows), rows


@pytest.fixture(scope="module")
def compared(corpus: tuple[Path, list[dict[str, Any]]], backtest_policies: tuple[Path, Path]) -> dict[str, Any]:
    """The report of the corpus, new policy against old, one process."""
    old, new = backtest_policies
    return dict(run_backtest(new, corpus[0], baseline=old, workers=1).report)


def test_outcomes_and_changes_are_those_of_the_gate_draft_by_draft(
    corpus: tuple[Path, list[dict[str, Any]]], backtest_policies: tuple[Path, Path]
) -> None:
    path, rows = corpus
    old, new = backtest_policies
    report = run_backtest(new, path, baseline=old, workers=1, chunk_lines=128).report
    expected = oracle(rows, backtest_policies)
    assert report["input"]["drafts"] == len(rows) and report["input"]["bad"] == 0
    assert report["outcomes"]["baseline"] == {o.value: sum(b.outcome is o for b, _, _ in expected) for o in Outcome}
    assert report["outcomes"]["new"] == {o.value: sum(n.outcome is o for _, n, _ in expected) for o in Outcome}
    changes = Counter(c for _, _, c in expected)
    for kind in ("newly_held", "newly_passed", "stricter", "looser", "rules_changed"):
        assert report["changes"][kind] == changes[kind], kind
        assert changes[kind] > 0, f"the fixture corpus should exercise {kind}"
    assert report["changes"]["unchanged"] == changes[None]
    assert report["changes"]["changed_outcome"] == changes["stricter"] + changes["looser"]


def test_rules_count_fires_hits_and_the_changes_they_cause(
    corpus: tuple[Path, list[dict[str, Any]]], backtest_policies: tuple[Path, Path], compared: dict[str, Any]
) -> None:
    rules = {r["rule"]: r for r in compared["rules"]}
    expected = oracle(corpus[1], backtest_policies)
    added = rules["billing:no-cancellation-fee"]
    assert added["severity"] == {"baseline": None, "new": "block"}
    assert added["fired"] == {"baseline": 0, "new": sum("billing:no-cancellation-fee" in n.rules for _, n, _ in expected)}
    assert added["newly_held"] == sum(c == "newly_held" and "billing:no-cancellation-fee" in n.rules for _, n, c in expected)
    assert added["newly_held"] > 0
    dropped = rules["billing:no-credit"]
    assert dropped["severity"] == {"baseline": "flag", "new": None}
    assert dropped["lost"] == sum("billing:no-credit" in b.rules for b, _, _ in expected) > 0
    assert dropped["newly_passed"] == sum(c == "newly_passed" and "billing:no-credit" in b.rules for b, _, c in expected)
    pii = rules["detector:pii"]
    assert pii["severity"] == {"baseline": "block", "new": "refuse"}
    assert pii["hits"]["new"] == sum(n.hits.get("detector:pii", 0) for _, n, _ in expected)
    refund = rules["billing:no-refund-promise"]
    assert refund["suppressed"]["new"] > 0, "the negated and historical refunds are set aside, and counted"


def test_the_diff_has_one_line_per_changed_draft_in_input_order(
    corpus: tuple[Path, list[dict[str, Any]]], backtest_policies: tuple[Path, Path], tmp_path: Path
) -> None:
    path, rows = corpus
    old, new = backtest_policies
    out = tmp_path / "diff.jsonl"
    run_backtest(new, path, baseline=old, workers=1, out=out, chunk_lines=100)
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    expected = [(i, b, n, c) for i, (b, n, c) in enumerate(oracle(rows, backtest_policies)) if c is not None]
    assert [d["line"] for d in lines] == [i + 1 for i, _, _, _ in expected]
    for got, (index, base, after, change) in zip(lines, expected):
        assert got["id"] == rows[index]["id"] and got["change"] == change
        assert got["baseline"] == {"outcome": base.outcome.value, "rules": list(base.rules)}
        assert got["new"] == {"outcome": after.outcome.value, "rules": list(after.rules)}
    assert not list(tmp_path.glob(".diff.jsonl.*")), "the temporary file was renamed into place"


def test_two_processes_give_the_report_and_diff_of_one_byte_for_byte(
    corpus: tuple[Path, list[dict[str, Any]]], backtest_policies: tuple[Path, Path], tmp_path: Path
) -> None:
    path, _ = corpus
    old, new = backtest_policies
    one = run_backtest(new, path, baseline=old, workers=1, out=tmp_path / "one.jsonl", chunk_lines=64)
    two = run_backtest(new, path, baseline=old, workers=2, out=tmp_path / "two.jsonl", chunk_lines=64)
    assert json.dumps(one.report) == json.dumps(two.report)
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()
    assert two.run["engine"] == "local" and two.run["workers"] == 2


def test_examples_show_each_change_with_its_excerpt_scrubbed(compared: dict[str, Any]) -> None:
    report = compared
    examples = report["examples"]
    assert all(1 <= len(examples[kind]) <= 5 for kind in ("newly_held", "newly_passed", "stricter", "looser"))
    dumped = json.dumps(report)
    assert "jane.roe@mail.example.org" not in dumped and "AKIAIOSFODNN7EXAMPLE" not in dumped
    assert "[EMAIL_ADDRESS]" in dumped
    lines = [e["line"] for e in examples["stricter"]]
    assert lines == sorted(lines), "the first examples in input order"


def test_without_a_baseline_a_corpus_gets_the_new_policys_counts_only(
    corpus: tuple[Path, list[dict[str, Any]]], backtest_policies: tuple[Path, Path]
) -> None:
    path, rows = corpus
    report = run_backtest(backtest_policies[1], path, workers=1).report
    assert report["baseline"] is None and report["changes"] is None and report["examples"] is None
    assert report["outcomes"]["baseline"] is None
    assert sum(report["outcomes"]["new"].values()) == len(rows)


def test_a_policy_with_a_judge_says_that_its_drafts_are_judged_and_one_without_says_nothing(
    tmp_path: Path, corpus: tuple[Path, list[dict[str, Any]]], backtest_policies: tuple[Path, Path]
) -> None:
    old, new = backtest_policies
    rows = corpus[1][:40]
    drafts = write_jsonl(tmp_path / "drafts.jsonl", rows)
    judged = tmp_path / "judged.yaml"
    judged.write_text(new.read_text(encoding="utf-8") + "\njudge:\n  kind: heuristic\n  when: on_hits\n", encoding="utf-8")
    report = run_backtest(judged, drafts, baseline=old, workers=1).report
    notes = report["input"]["notes"]
    assert notes == ["the new policy has a heuristic judge (when: on_hits): every draft the screen saw a hit in "
                     "is judged, as in service"]
    assert sum(report["outcomes"]["new"].values()) == len(rows)
    assert run_backtest(new, drafts, baseline=old, workers=1).report["input"]["notes"] == []


def test_bad_lines_are_listed_by_line_and_every_other_line_is_checked(
    backtest_policies: tuple[Path, Path], tmp_path: Path
) -> None:
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(
        b'{"id": 1, "text": "I have approved a full refund."}\n'
        b"not json\n\n"
        b'{"id": 2}\n'
        b'{"id": 3, "text": "fine", "confidence": 400}\n'
        b'["a list"]\n'
        b'{"id": 4, "text": "caf\xe9"}\n'
        b'{"id": 5, "text": "Your order shipped.", "context": "not an object"}\n'
        b'{"id": 6, "text": "All good here.", "confidence": 99}'  # no newline at the end
    )
    report = run_backtest(backtest_policies[1], path, baseline=backtest_policies[0], workers=1).report
    assert report["input"]["drafts"] == 2 and report["input"]["bad"] == 6
    assert [(b["line"], b["error"].split(" ")[0]) for b in report["input"]["bad_lines"]] == [
        (2, "invalid"), (4, "missing"), (5, "confidence"), (6, "expected"), (7, "not"), (8, "context")
    ]  # fmt: skip
    assert report["outcomes"]["new"]["escalate"] == 1 and report["outcomes"]["new"]["execute"] == 1


def test_a_policy_or_input_that_cannot_be_used_fails_before_any_check(
    backtest_policies: tuple[Path, Path], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("version: 1\nname: x\nauto_send:\n  min_confidence: lots\n")
    with pytest.raises(RedlineError, match="bad.yaml:4"):
        run_backtest(bad, tmp_path, workers=1)
    with pytest.raises(RedlineError, match="does not exist"):
        run_backtest(backtest_policies[1], tmp_path / "missing.jsonl", workers=1)
    with pytest.raises(RedlineError, match="is a folder"):
        run_backtest(backtest_policies[1], tmp_path, workers=1)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    with pytest.raises(RedlineError, match="--address is for --engine ray"):
        run_backtest(backtest_policies[1], empty, address="auto")
    assert run_backtest(backtest_policies[1], empty, workers=2).report["input"]["drafts"] == 0


def _logged(tmp_path: Path, old: Path, make_rows: Rows) -> tuple[Path, list[tuple[str, str]]]:
    """A real decision log of checks by the old policy, rotated once, with an action, a
    long draft and a torn last line."""
    gate = Gate(load_policy(old))
    log_path = tmp_path / "redline.decisions.jsonl"
    checked: list[tuple[str, str]] = []
    texts = [r["text"] for r in make_rows(60, seed=5)]
    texts.append("Thanks for waiting. " * 20 + "We waived the cancellation fee this time.")  # past the excerpt
    with DecisionLog(log_path, max_bytes=25_000, backups=3) as log:
        for text in texts:
            decision = gate.check(text, confidence=95)
            assert log.write(decision, text)
            checked.append((decision.id, text))
        log.write(gate.decide("refund_approval", {"order_id": "A-1", "amount": 18, "currency": "USD"}), "")
    with log_path.open("ab") as handle:
        handle.write(b'{"schema_version": "redline.decision/v1", "id": "torn')
    return log_path, checked


def test_a_decision_log_is_re_checked_from_its_excerpts_against_what_it_recorded(
    backtest_policies: tuple[Path, Path], tmp_path: Path, make_backtest_rows: Rows
) -> None:
    old, new = backtest_policies
    log_path, checked = _logged(tmp_path, old, make_backtest_rows)
    result = run_backtest(new, log_path, workers=1, out=tmp_path / "diff.jsonl")
    source = result.report["input"]
    assert source["kind"] == "log" and len(source["files"]) > 1, "the rotated files are read too"
    assert source["drafts"] == len(checked) and source["skipped"] == {"action": 1} and source["torn"] == 1
    assert source["bad"] == 0 and source["partial_texts"] >= 2 and source["notes"]
    assert result.report["baseline"] == {"kind": "recorded"}
    gate = Gate(load_policy(old))
    recorded = Counter(gate.check(text, confidence=95).outcome.value for _, text in checked)
    assert result.report["outcomes"]["baseline"] == {o.value: recorded[o.value] for o in Outcome}
    diff = [json.loads(line) for line in (tmp_path / "diff.jsonl").read_text().splitlines()]
    long_one = [d for d in diff if d["id"] == checked[-1][0]]
    assert long_one == [], "the cancellation fee lies past the excerpt: the log cannot show it"
    assert any(d.get("partial") for d in diff)


def test_a_log_remembers_no_confidence_so_an_executed_draft_is_re_checked_as_confident(
    backtest_policies: tuple[Path, Path], tmp_path: Path, make_backtest_rows: Rows
) -> None:
    old, _ = backtest_policies
    log_path, _ = _logged(tmp_path, old, make_backtest_rows)
    report = run_backtest(old, log_path, workers=1).report
    executed = report["outcomes"]["baseline"]["execute"]
    assert executed > 0 and report["outcomes"]["new"]["execute"] == executed
    assert report["changes"]["newly_held"] == 0, "same policy, same confidence: nothing newly held"
    forced = run_backtest(old, log_path, workers=1, confidence=0).report
    assert forced["outcomes"]["new"]["execute"] == 0


def test_the_command_prints_the_summary_and_exits_by_what_it_could_read(
    corpus: tuple[Path, list[dict[str, Any]]], backtest_policies: tuple[Path, Path], tmp_path: Path
) -> None:
    path, _ = corpus
    old, new = backtest_policies
    result = runner.invoke(app, ["backtest", "--policy", str(new), "--baseline", str(old), "--input", str(path), "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "newly held" in result.output and "billing:no-cancellation-fee" in result.output
    as_json = runner.invoke(app, ["backtest", "--policy", str(new), "--input", str(path), "--workers", "1", "--json"])
    data = json.loads(as_json.output)
    assert data["run"]["engine"] == "local" and data["input"]["drafts"] == 900
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"text": "hello"}\n{oops\n')
    partly = runner.invoke(app, ["backtest", "--policy", str(new), "--input", str(broken), "--workers", "1"])
    assert partly.exit_code == 1 and "broken.jsonl:2" in partly.output
    missing = runner.invoke(app, ["backtest", "--policy", str(tmp_path / "nope.yaml"), "--input", str(path)])
    assert missing.exit_code == 2 and "nope.yaml" in missing.output
    engine = runner.invoke(app, ["backtest", "--policy", str(new), "--input", str(path), "--engine", "spark"])
    assert engine.exit_code == 2 and "use local or ray" in engine.output


def test_each_worker_process_compiles_its_gates_once_whatever_the_number_of_chunks(
    corpus: tuple[Path, list[dict[str, Any]]], backtest_policies: tuple[Path, Path], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    import os

    from redline.backtest import local, worker

    built = tmp_path / "built.txt"
    real = worker.Gate

    def counted(policy: Any) -> Gate:  # forked workers inherit the patch; each appends its pid
        with built.open("a") as handle:
            handle.write(f"{os.getpid()}\n")
        return real(policy)

    monkeypatch.setattr(worker, "Gate", counted)
    monkeypatch.setattr(local, "start_method", lambda: "fork")  # the children inherit the patch
    path, _ = corpus
    old, new = backtest_policies
    result = run_backtest(new, path, baseline=old, workers=2, chunk_lines=30)  # 30 chunks
    assert result.run["workers"] == 2
    per_process = Counter(built.read_text().split())
    assert os.getpid() not in {int(pid) for pid in per_process}, "the driver checks nothing"
    assert len(per_process) == 2 and set(per_process.values()) == {2}, per_process  # new + baseline, once each


def test_progress_is_reported_as_chunks_complete_and_the_command_draws_a_bar(
    corpus: tuple[Path, list[dict[str, Any]]], backtest_policies: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    from rich.console import Console

    from redline.backtest import cli as backtest_cli

    path, rows = corpus
    seen: list[tuple[int, int, int]] = []
    run_backtest(backtest_policies[1], path, workers=1, chunk_lines=100, progress=lambda *a: seen.append(a))
    assert len(seen) == 9 and all(total == len(rows) for _, total, _ in seen)
    assert [lines for lines, _, _ in seen] == list(range(100, 901, 100)) and seen[-1][2] == len(rows)
    screen = io.StringIO()
    monkeypatch.setattr(backtest_cli, "err", Console(file=screen, force_terminal=True, width=120))
    done = runner.invoke(app, ["backtest", "--policy", str(backtest_policies[1]), "--input", str(path), "--workers", "1"])
    assert done.exit_code == 0, done.output
    drawn = screen.getvalue()
    assert "checking drafts" in drawn and "900/900" in drawn and "━" in drawn


def test_a_model_judge_is_named_as_calls_to_its_server_and_a_judge_never_called_is_not_noted(
    backtest_policies: tuple[Path, Path],
) -> None:
    from redline.backtest.report import _judge_note

    base = load_policy(backtest_policies[1])
    model = base.model_copy(update={"judge": base.judge.model_copy(update={"kind": "openai", "model": "m"})})
    note = _judge_note("baseline", model)
    assert note is not None and note.startswith("the baseline has an openai judge (when: always): every draft is judged")
    assert "billed and rate-limited" in note
    never = base.model_copy(update={"judge": base.judge.model_copy(update={"kind": "openai", "model": "m", "when": "never"})})
    assert _judge_note("baseline", never) is None and _judge_note("baseline", None) is None


def test_a_process_with_other_threads_starts_its_workers_without_forking_itself(
    corpus: tuple[Path, list[dict[str, Any]]], backtest_policies: tuple[Path, Path], tmp_path: Path
) -> None:
    """A fork copies the locks other threads hold, never the threads that would release
    them: a worker forked from a Ray driver hung. One thread: fork; more: a fork server."""
    import subprocess
    import sys
    import threading

    from redline.backtest.local import start_method

    alone = subprocess.run([sys.executable, "-c", "from redline.backtest.local import start_method; print(start_method())"],
                           capture_output=True, text=True, check=True)
    assert alone.stdout.strip() == "fork"
    with_ray = subprocess.run([sys.executable, "-c", "import sys, types; sys.modules['ray'] = types.ModuleType('ray'); "
                               "from redline.backtest.local import start_method; print(start_method())"],
                              capture_output=True, text=True, check=True)
    assert with_ray.stdout.strip() == "forkserver"
    release = threading.Event()
    other = threading.Thread(target=release.wait, daemon=True)
    other.start()
    try:
        assert start_method() == "forkserver"
        path, _ = corpus
        old, new = backtest_policies
        one = run_backtest(new, path, baseline=old, workers=1, out=tmp_path / "one.jsonl", chunk_lines=64)
        two = run_backtest(new, path, baseline=old, workers=2, out=tmp_path / "two.jsonl", chunk_lines=64)
    finally:
        release.set()
        other.join()
    assert json.dumps(one.report) == json.dumps(two.report)
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()
