"""Calibrate the embedding judge's threshold on a rules corpus (the format of
shared/rules-corpus: one rule a line with `hits` and `clean` drafts).

    python benchmarks/embedding_calibration.py PATH/rules-dev.jsonl [--max-fp 0.05]

Each rule becomes a one-rule policy, so its topics are derived exactly as the gate
derives them; the judge scores every draft against its own rule. Prints, per threshold,
the share of hits raised (recall) and of near-miss and negated clean drafts raised
(false positives; negated ones are the judge's known blind spot, which the screen
covers), and the lowest threshold whose near-miss false-positive rate is at most
--max-fp: the value of DEFAULT_THRESHOLD in redline/judges/embedding.py.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from redline.decide.combine import judge_rules
from redline.judges.embedding import EmbeddingJudge, packaged_model_files
from redline.policy import parse_policy


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--max-fp", type=float, default=0.05)
    args = parser.parse_args()
    judge = EmbeddingJudge(packaged_model_files(), model_name="packaged", threshold=0.0, int8=True)
    scores: dict[str, list[float]] = {"hit": [], "near_miss": [], "negated": []}
    for line in args.corpus.read_text().splitlines():
        row = json.loads(line)
        policy = parse_policy(json.dumps({
            "version": 1, "name": "calibration",
            "skills": [{"slug": "s", "red_lines": [{"id": "r", "rule": row["rule"], "severity": row["severity"]}]}],
        }))
        rules = judge_rules(policy)
        drafts = [("hit", t) for t in row["hits"]] + [(c["kind"], c["text"]) for c in row["clean"]]
        for kind, text in drafts:
            scores[kind].append(judge.judge(text, rules).verdicts[0].confidence)
    chosen = None
    print("threshold  recall  fp_near_miss  fp_negated")
    for step in range(40, 71):
        t = step / 100
        rate = {k: sum(s >= t for s in v) / len(v) for k, v in scores.items()}
        print(f"{t:9.2f}  {rate['hit']:6.3f}  {rate['near_miss']:12.3f}  {rate['negated']:10.3f}")
        if chosen is None and rate["near_miss"] <= args.max_fp:
            chosen = t
    print(json.dumps({"drafts": {k: len(v) for k, v in scores.items()}, "threshold": chosen, "max_fp": args.max_fp}))


if __name__ == "__main__":
    main()
