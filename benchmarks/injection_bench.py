"""The injection-suspicion text signal on public prompt-injection data, beside a keyword baseline.

    python benchmarks/injection_bench.py ../shared/benchmarks/prompt-injection
    python benchmarks/injection_bench.py DATA --threshold 0.5 --json
    python benchmarks/injection_bench.py DATA --show-errors test    # rows it gets wrong

DATA holds deepset's prompt-injections split (`deepset-train.jsonl`, `deepset-test.jsonl`:
`{"text", "label"}`, label 1 = injection, about 30% German) and InjecGuard's NotInject
(`NotInject_one.json`, `_two`, `_three`: benign prompts that contain injection trigger
words, `{"prompt", ...}`), which measures over-defence.

A row counts as flagged when `TextSignals.injection >= --threshold` (by default
`redline.signals.SUSPECTED`, 0.4: the lowest value at which no benign row of deepset's
TRAIN split is flagged; one strong cue alone, or two weaker ones together, reach it). The
baseline flags a row that contains any of a list of trigger words, which is how a naive
keyword filter works. Reported per system: precision, recall, F1 and false-positive rate
on deepset (train and test apart: only the train split and the cue mechanisms were
looked at while writing the cues), and the false-positive rate on NotInject; plus the
median time per row (one run on a shared machine: compare the two systems' medians, not
absolute numbers).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from redline.signals import SUSPECTED, text_signals

# The trigger words a keyword filter would list (and that NotInject was built around).
BASELINE_WORDS = (
    "ignore", "disregard", "forget", "instructions", "prompt", "pretend", "jailbreak",
    "override", "bypass", "act as", "you are now", "system", "roleplay", "role-play",
    "unfiltered", "uncensored", "dan", "developer mode", "vergiss", "ignoriere", "anweisungen",
)
_BASELINE = re.compile(r"\b(?:" + "|".join(re.escape(w) for w in BASELINE_WORDS) + r")\b", re.IGNORECASE)


def keyword_baseline(text: str) -> bool:
    return _BASELINE.search(text) is not None


def load(data: Path) -> dict[str, list[tuple[str, int]]]:
    sets: dict[str, list[tuple[str, int]]] = {}
    for split in ("train", "test"):
        path = data / f"deepset-{split}.jsonl"
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        sets[f"deepset-{split}"] = [(str(r["text"]), int(r["label"])) for r in rows]
    benign: list[tuple[str, int]] = []
    for part in ("one", "two", "three"):
        for row in json.loads((data / f"NotInject_{part}.json").read_text(encoding="utf-8")):
            benign.append((str(row["prompt"]), 0))
    sets["notinject"] = benign
    return sets


def score(rows: list[tuple[str, int]], flag: Callable[[str], bool]) -> dict[str, Any]:
    tp = fp = tn = fn = 0
    times: list[float] = []
    wrong: list[dict[str, Any]] = []
    for text, label in rows:
        started = time.perf_counter()
        flagged = flag(text)
        times.append(time.perf_counter() - started)
        if flagged and label:
            tp += 1
        elif flagged:
            fp += 1
            wrong.append({"text": text, "label": label})
        elif label:
            fn += 1
            wrong.append({"text": text, "label": label})
        else:
            tn += 1
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "rows": len(rows),
        "positives": tp + fn,
        "precision": round(precision, 3),
        "recall": round(recall, 3),
        "f1": round(f1, 3),
        "fpr": round(fp / (fp + tn), 3) if fp + tn else 0.0,
        "median_us": round(statistics.median(times) * 1e6, 1),
        "errors": wrong,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="the prompt-injection folder of the shared benchmarks")
    parser.add_argument("--threshold", type=float, default=SUSPECTED)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--show-errors", metavar="SET", help="print the rows SET gets wrong (train, test, notinject)")
    args = parser.parse_args(argv)
    sets = load(args.data)
    systems: dict[str, Callable[[str], bool]] = {
        "redline": lambda t: text_signals(t).injection >= args.threshold,
        "keyword baseline": keyword_baseline,
    }
    report = {name: {s: score(rows, flag) for s, rows in sets.items()} for name, flag in systems.items()}
    if args.show_errors:
        key = args.show_errors if args.show_errors == "notinject" else f"deepset-{args.show_errors}"
        for row in report["redline"][key]["errors"]:
            signals = text_signals(row["text"])
            cues = ", ".join(f"{c.cue}={c.weight}" for c in signals.cues if c.signal == "injection")
            print(f"label {row['label']}  {signals.injection:.2f}  [{cues}]  {row['text'][:160]!r}")
        return 0
    for per_set in report.values():
        for result in per_set.values():
            result.pop("errors")
    if args.json:
        print(json.dumps({"threshold": args.threshold, "systems": report}, indent=2))
        return 0
    print(f"injection suspicion >= {args.threshold}; deepset P / R / F1 / FPR, NotInject FPR, median per row")
    print("| system | deepset test P | R | F1 | FPR | deepset train R / FPR | NotInject FPR | median |")
    print("|---|---|---|---|---|---|---|---|")
    for name, per_set in report.items():
        test, train, benign = per_set["deepset-test"], per_set["deepset-train"], per_set["notinject"]
        print(
            f"| {name} | {test['precision']:.3f} | {test['recall']:.3f} | {test['f1']:.3f} | {test['fpr']:.3f} "
            f"| {train['recall']:.3f} / {train['fpr']:.3f} | {benign['fpr']:.3f} ({benign['rows']} rows) "
            f"| {test['median_us']} µs |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
