"""Score red-line rules corpora: does the gate find, from a rule's words alone, the topic it
guards, and hold the drafts that mention it (and only those)?

A corpus is JSONL, one rule a line (the format of `rules-corpus/README.md`):

    {"id", "domain", "rule", "severity", "hits": [3 drafts], "clean": [{"text", "kind"}, ...]}

with clean kinds `near_miss` (shares a word with the rule, not its topic) and `negated`.
Each rule becomes a one-rule policy with no `terms` (auto-send bar 0, detectors off,
judge none) and each draft is checked alone: a hit must not get `execute`, a clean draft
must. A rule whose policy does not load (it guards nothing) misses all its hits.

    python benchmarks/rules_corpus_bench.py ../shared/rules-corpus/rules-dev.jsonl
    python benchmarks/rules_corpus_bench.py A.jsonl B.jsonl --misses     # list every wrong case
    python benchmarks/rules_corpus_bench.py A.jsonl --json out.json      # per-case results
    python benchmarks/rules_corpus_bench.py A.jsonl --naive              # substring baseline

`--naive` scores the baseline a first version of such a gate used: every word of four
letters or more in the rule, matched as a substring of the lower-cased draft.
Prints a table by domain and overall; exit 1 when `--min-recall` or `--max-fpr` is not met.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import yaml

from redline import Gate, Outcome, PolicyError, parse_policy
from redline.policy.terms import derive_terms

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
                sys.exit(f"{where}: not JSON ({exc.msg})")
            missing = [k for k in ("id", "domain", "rule", "severity", "hits", "clean") if k not in row]
            if missing:
                sys.exit(f"{where}: missing {', '.join(missing)}")
            if row["id"] in seen:
                sys.exit(f"{where}: duplicate id {row['id']!r}")
            bad = [c for c in row["clean"] if c.get("kind") not in KINDS]
            if bad:
                sys.exit(f"{where}: clean kinds must be one of {KINDS}")
            seen.add(row["id"])
            rows.append(row)
    return rows


def one_rule_policy(rule: dict[str, Any]) -> str:
    return yaml.safe_dump({
        "version": 1,
        "name": "corpus",
        "auto_send": {"min_confidence": 0},
        "skills": [{"slug": "corpus", "red_lines": [{"id": "r", "rule": rule["rule"], "severity": rule["severity"]}]}],
        "detectors": {"credentials": "off", "pii": "off", "technical_content": "off"},
        "judge": {"kind": "none"},
    }, sort_keys=False)


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


def _rate(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def table(report: dict[str, Any]) -> str:
    head = f"| {'domain':<36} | rules | hit recall | clean FPR | near-miss FP | negated FP |"
    lines = [head, "|" + "---|" * 6]
    rows = list(report["domains"].items()) + [("**overall**", report["overall"])]
    for name, s in rows:
        lines.append(
            f"| {name:<36} | {s['rules']} | {s['hits_held']}/{s['hits']} = {_rate(s['hits_held'], s['hits']):.3f} "
            f"| {s['clean_held']}/{s['clean']} = {_rate(s['clean_held'], s['clean']):.3f} "
            f"| {s.get('near_miss_held', 0)}/{s.get('near_miss', 0)} | {s.get('negated_held', 0)}/{s.get('negated', 0)} |"
        )
    lines.append("")
    lines.append(f"rules with no topic: {len(report['no_topic'])}" + (f" ({', '.join(report['no_topic'])})" if report["no_topic"] else ""))
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", nargs="+", help="corpus JSONL files")
    ap.add_argument("--naive", action="store_true", help="score the substring baseline instead")
    ap.add_argument("--misses", action="store_true", help="list every wrong case")
    ap.add_argument("--json", metavar="OUT", help="write per-case results to OUT")
    ap.add_argument("--min-recall", type=float)
    ap.add_argument("--max-fpr", type=float)
    args = ap.parse_args()
    report = score(read_corpus(args.corpus), args.naive)
    print(table(report))
    if args.misses:
        for case in report["cases"]:
            if not case["ok"]:
                label = "MISS" if case["kind"] == "hit" else f"FP/{case['kind']}"
                why = f"fired {case['fired']}" if case["fired"] else (
                    f"set aside {case['suppressed']}" if case["suppressed"] else "no topic matched")
                print(f"{label:<13} {case['rule']:<14} {case['text']}\n{'':14} topics {case['topics']}; {why}")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    overall = report["overall"]
    recall = _rate(overall["hits_held"], overall["hits"])
    fpr = _rate(overall["clean_held"], overall["clean"])
    failed = (args.min_recall is not None and recall < args.min_recall) or (args.max_fpr is not None and fpr > args.max_fpr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
