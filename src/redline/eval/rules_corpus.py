"""Scoring a red-line rules corpus: from a rule's words alone, does the gate find the topic
it guards and hold the drafts that mention it, and only those?

A corpus is JSONL, one rule a line: `{"id", "domain", "rule", "severity", "hits": [...],
"clean": [{"text", "kind"}, ...]}` with clean kinds `near_miss` (shares a word with the
rule, not its topic) and `negated`. Each rule becomes a one-rule policy with no `terms`
(auto-send bar 0, detectors off, judge none) and each draft is checked alone: a hit must
not get `execute`, a clean draft must. A rule whose policy does not load (it guards
nothing) misses all its hits. Used by `benchmarks/rules_corpus_bench.py` and the
quality tests.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import yaml

from redline.decide.gate import Gate
from redline.errors import PolicyError, SuiteError
from redline.policy import parse_policy
from redline.policy.terms import derive_terms
from redline.types import Outcome

__all__ = ["rate", "read_corpus", "score", "table"]

KINDS = ("near_miss", "negated")


def read_corpus(paths: list[str]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for name in paths:
        path = Path(name)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            where = f"{path}:{number}"
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise SuiteError(f"{where}: not JSON ({exc.msg})") from exc
            missing = [k for k in ("id", "domain", "rule", "severity", "hits", "clean") if k not in row]
            if missing:
                raise SuiteError(f"{where}: missing {', '.join(missing)}")
            if row["id"] in seen:
                raise SuiteError(f"{where}: duplicate id {row['id']!r}")
            bad = [c for c in row["clean"] if c.get("kind") not in KINDS]
            if bad:
                raise SuiteError(f"{where}: clean kinds must be one of {KINDS}")
            seen.add(row["id"])
            rows.append(row)
    return rows


def one_rule_policy(rule: dict[str, Any]) -> str:
    text: str = yaml.safe_dump({
        "version": 1,
        "name": "corpus",
        "auto_send": {"min_confidence": 0},
        "skills": [{"slug": "corpus", "red_lines": [{"id": "r", "rule": rule["rule"], "severity": rule["severity"]}]}],
        "detectors": {"credentials": "off", "pii": "off", "technical_content": "off"},
        "judge": {"kind": "none"},
    }, sort_keys=False)
    return text


class Redline:
    def __init__(self, rule: dict[str, Any]) -> None:
        self.terms = list(derive_terms(rule["rule"]))
        try:
            self.gate: Gate | None = Gate(parse_policy(one_rule_policy(rule), f"<{rule['id']}>"))
            self.error = None
        except PolicyError as exc:
            self.gate, self.error = None, str(exc)

    def held(self, text: str) -> tuple[bool, list[str], list[str]]:
        if self.gate is None:
            return False, [], []
        decision = self.gate.check(text)
        fired = [f.term or f.text for f in decision.findings]
        suppressed = [f"{f.term or f.text} ({f.status.value}, cue {f.cue!r})" for f in decision.suppressed]
        return decision.outcome is not Outcome.EXECUTE, fired, suppressed


class Naive:
    def __init__(self, rule: dict[str, Any]) -> None:
        words = "".join(ch.lower() if ch.isalnum() else " " for ch in rule["rule"]).split()
        self.terms = sorted({w for w in words if len(w) >= 4})
        self.error = None

    def held(self, text: str) -> tuple[bool, list[str], list[str]]:
        low = text.lower()
        fired = [t for t in self.terms if t in low]
        return bool(fired), fired, []


def score(rows: list[dict[str, Any]], naive: bool) -> dict[str, Any]:
    # per domain: rules, hits, held hits, clean, held clean, then held and total by kind
    stats: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    cases: list[dict[str, Any]] = []
    no_topic: list[str] = []
    for rule in rows:
        scorer = Naive(rule) if naive else Redline(rule)
        domain = stats[rule["domain"]]
        domain["rules"] += 1
        if scorer.error is not None or not scorer.terms:
            no_topic.append(rule["id"])
        drafts = [("hit", t) for t in rule["hits"]] + [(c["kind"], c["text"]) for c in rule["clean"]]
        for kind, text in drafts:
            held, fired, suppressed = scorer.held(text)
            ok = held if kind == "hit" else not held
            group = "hits" if kind == "hit" else "clean"
            domain[group] += 1
            domain[group + "_held"] += held
            if kind != "hit":
                domain[kind] += 1
                domain[kind + "_held"] += held
            cases.append({"rule": rule["id"], "domain": rule["domain"], "kind": kind, "text": text, "ok": ok,
                          "held": held, "topics": scorer.terms, "fired": fired, "suppressed": suppressed,
                          "error": scorer.error})
    total: dict[str, int] = defaultdict(int)
    for domain in stats.values():
        for key, value in domain.items():
            total[key] += value
    return {"domains": {d: dict(s) for d, s in stats.items()}, "overall": dict(total),
            "no_topic": no_topic, "cases": cases}


def rate(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def table(report: dict[str, Any]) -> str:
    head = f"| {'domain':<36} | rules | hit recall | clean FPR | near-miss FP | negated FP |"
    lines = [head, "|" + "---|" * 6]
    rows = list(report["domains"].items()) + [("**overall**", report["overall"])]
    for name, s in rows:
        lines.append(
            f"| {name:<36} | {s['rules']} | {s['hits_held']}/{s['hits']} = {rate(s['hits_held'], s['hits']):.3f} "
            f"| {s['clean_held']}/{s['clean']} = {rate(s['clean_held'], s['clean']):.3f} "
            f"| {s.get('near_miss_held', 0)}/{s.get('near_miss', 0)} | {s.get('negated_held', 0)}/{s.get('negated', 0)} |"
        )
    lines.append("")
    lines.append(f"rules with no topic: {len(report['no_topic'])}" + (f" ({', '.join(report['no_topic'])})" if report["no_topic"] else ""))
    return "\n".join(lines)


