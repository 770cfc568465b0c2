"""The promotion report (`redline backtest --report`): holds split by what Experts decided,
read from a real audit store (a SQLite file, then PostgreSQL)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from redline import Gate, Outcome, RedlineError, load_policy
from redline.backtest import run_backtest
from redline.backtest.worker import change_of, verdict
from redline.store.sql import AuditStore

STATUSES = ("rejected", "edited", "approved", "unreviewed")


def _history(
    db_url: str, old: Path, tmp_path: Path, rows: list[dict[str, Any]]
) -> tuple[Path, dict[str, str], list[dict[str, Any]]]:
    """Drafts checked with the old policy and recorded; Experts decide some held ones.
    Returns the corpus exported with decision ids, each id's review, and the rows."""
    gate = Gate(load_policy(old))
    reviews: dict[str, str] = {}
    with AuditStore(db_url) as store:
        store.migrate()
        for index, row in enumerate(rows):
            decision = gate.check(row["text"], confidence=row.get("confidence"))
            held = decision.outcome is not Outcome.EXECUTE
            store.record(decision, text=row["text"], text_excerpt=row["text"][:200], held=held)
            row["id"] = decision.id
            reviews[decision.id] = "unreviewed"
        pending = store.queue(limit=500).items
        for n, item in enumerate(pending):
            if n % 4 == 0:
                store.reject(item.id, expert="expert:a", note="not to be sent")
                reviews[item.decision_id] = "rejected"
            elif n % 4 == 1:
                store.approve(item.id, expert="expert:b")
                reviews[item.decision_id] = "approved"
            elif n % 4 == 2:
                store.edit(item.id, expert="expert:a", text="Thanks, we will be in touch.")
                reviews[item.decision_id] = "edited"
    corpus = tmp_path / "export.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return corpus, reviews, rows


def test_holds_are_split_by_the_experts_decisions_per_rule_and_in_both_directions(
    db_url: str, backtest_policies: tuple[Path, Path], tmp_path: Path, make_backtest_rows: Any
) -> None:
    old, new = backtest_policies
    corpus, reviews, rows = _history(db_url, old, tmp_path, make_backtest_rows(240, seed=3))
    result = run_backtest(new, corpus, baseline=old, workers=1, report_db=db_url, out=tmp_path / "diff.jsonl")
    report = result.report
    assert report["review"]["reviewed"] == sum(v != "unreviewed" for v in reviews.values()) > 0
    old_gate, new_gate = Gate(load_policy(old)), Gate(load_policy(new))
    held: Counter[str] = Counter()
    per_rule: dict[str, Counter[str]] = {}
    passed: Counter[str] = Counter()
    for row in rows:
        base = verdict(old_gate.check(row["text"], confidence=row.get("confidence")))
        after = verdict(new_gate.check(row["text"], confidence=row.get("confidence")))
        status = reviews[row["id"]]
        if after.outcome is not Outcome.EXECUTE:
            held[status] += 1
            for rule in after.rules:
                per_rule.setdefault(rule, Counter())[status] += 1
        if change_of(base, after) == "newly_passed":
            passed[status] += 1
    assert report["review"]["held"] == {s: held[s] for s in STATUSES}
    assert report["review"]["newly_passed"] == {s: passed[s] for s in STATUSES}
    assert passed["rejected"] > 0, "the dropped credit rule lets through drafts an Expert rejected"
    for rule in report["rules"]:
        expected = per_rule.get(rule["rule"], Counter())
        assert rule["review"]["held"] == {s: expected[s] for s in STATUSES}, rule["rule"]
    diff = [json.loads(line) for line in (tmp_path / "diff.jsonl").read_text().splitlines()]
    assert {d["review"] for d in diff} <= set(STATUSES) and all(d["review"] == reviews[d["id"]] for d in diff)


def test_a_store_that_is_not_there_is_an_error_and_is_not_created(
    backtest_policies: tuple[Path, Path], tmp_path: Path
) -> None:
    corpus = tmp_path / "c.jsonl"
    corpus.write_text('{"id": "x", "text": "hello"}\n')
    missing = tmp_path / "nowhere.db"
    with pytest.raises(RedlineError, match="no audit store at"):
        run_backtest(backtest_policies[1], corpus, workers=1, report_db=f"sqlite:///{missing}")
    assert not missing.exists()
    bare = tmp_path / "bare.db"
    bare.touch()  # a file, but not an audit store
    with pytest.raises(RedlineError, match="migrate"):
        run_backtest(backtest_policies[1], corpus, workers=1, report_db=f"sqlite:///{bare}")
