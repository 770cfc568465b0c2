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
from pathlib import Path

from redline.errors import SuiteError
from redline.eval.rules_corpus import rate, read_corpus, score, table


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", nargs="+", help="corpus JSONL files")
    ap.add_argument("--naive", action="store_true", help="score the substring baseline instead")
    ap.add_argument("--misses", action="store_true", help="list every wrong case")
    ap.add_argument("--json", metavar="OUT", help="write per-case results to OUT")
    ap.add_argument("--min-recall", type=float)
    ap.add_argument("--max-fpr", type=float)
    args = ap.parse_args()
    try:
        report = score(read_corpus(args.corpus), args.naive)
    except SuiteError as exc:
        sys.exit(str(exc))
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
    recall = rate(overall["hits_held"], overall["hits"])
    fpr = rate(overall["clean_held"], overall["clean"])
    failed = (args.min_recall is not None and recall < args.min_recall) or (args.max_fpr is not None and fpr > args.max_fpr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
