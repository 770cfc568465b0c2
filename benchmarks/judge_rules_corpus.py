"""What a judge adds on a rules corpus (shared/rules-corpus format), through the whole gate.

    python benchmarks/judge_rules_corpus.py PATH/rules-dev.jsonl [--judges none heuristic embedding]

Each rule becomes a one-rule policy (`auto_send.min_confidence: 0`, `judge.when: always`);
every draft is checked and counted as held or not: hits should be held, near-miss and
negated clean drafts should not.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from redline import Gate, Outcome, parse_policy


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--judges", nargs="+", default=["none", "heuristic", "embedding"])
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.corpus.read_text().splitlines() if line.strip()]
    report = {}
    for kind in args.judges:
        held = {"hit": [0, 0], "near_miss": [0, 0], "negated": [0, 0]}
        for row in rows:
            policy = parse_policy(json.dumps({
                "version": 1, "name": "corpus", "auto_send": {"min_confidence": 0},
                "skills": [{"slug": "s", "red_lines": [{"id": "r", "rule": row["rule"], "severity": row["severity"]}]}],
                "judge": {"kind": kind} if kind == "none" else {"kind": kind, "when": "always"},
            }))
            gate = Gate(policy)
            drafts = [("hit", t) for t in row["hits"]] + [(c["kind"], c["text"]) for c in row["clean"]]
            for group, text in drafts:
                held[group][0] += gate.check(text).outcome is not Outcome.EXECUTE
                held[group][1] += 1
        report[kind] = {group: f"{a}/{b} held" for group, (a, b) in held.items()}
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
