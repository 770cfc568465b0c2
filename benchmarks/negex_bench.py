"""Score redline's context layer on the NegEx/ConText test set, beside published figures.

    python benchmarks/negex_bench.py ../shared/benchmarks/negex/negex-rs-annotations.jsonl
    python benchmarks/negex_bench.py PATH --json
    python benchmarks/negex_bench.py PATH --errors 10     # misclassified rows per property
    python benchmarks/negex_bench.py PATH --medspacy tests/fixtures/medspacy_context_cases.json

The data set (Chapman et al. 2001; Harkema et al. 2009; Apache-2.0) is 2,376 sentences
from 120 clinical reports. Each row names a term; gold labels say whether it is negated,
historical, hypothetical, or experienced by someone other than the patient.

`--medspacy` also scores the sentences of medspaCy's ConText tests (MIT; the fixture
records the commit): each names a target and the statuses its assertions give it,
`uncertain` (medspaCy's POSSIBLE_EXISTENCE / UNCERTAIN) included; per property, P / R
over its 38 targets, and how many targets get exactly their statuses.

Which occurrence is scored: the set marks its target by writing it in capitals (1,843 of
the 1,850 rows whose term occurs once amid lower-case words). Where the term occurs more
than once and only a later occurrence is in capitals ("Schizophrenia: ... a long history
of SCHIZOPHRENIA"), that one is scored; `--first-occurrence` scores the first, as
`redline context` reports it (its first hit), and the output says how many rows differ.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

try:
    import redline  # noqa: F401
except ImportError:  # run from a checkout without an installed package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from redline.errors import SuiteError
from redline.eval.context_cmd import context_rows, find_term, read_jsonl
from redline.screen.context import assess
from redline.screen.normalize import normalize
from redline.types import Status

PROPERTIES = ("negated", "historical", "hypothetical", "other_experiencer")
MEDSPACY_PROPERTIES = (*PROPERTIES, "uncertain")

# Figures from shared/benchmarks/README.md: (precision, recall, F1); None where unpublished.
PUBLISHED: dict[str, dict[str, tuple[float | None, float | None, float]]] = {
    "GenNegEx 1.2": {"negated": (0.933, 0.959, 0.946)},
    "ConText": {
        "negated": (None, None, 0.981),
        "historical": (None, None, 0.665),
        "hypothetical": (None, None, 0.963),
    },
    "negspaCy 1.1": {"negated": (0.930, 0.951, 0.941)},
}
# above ConText on every property it publishes
TARGETS = {"negated": 0.985, "historical": 0.80, "hypothetical": 0.965}


def score(gold: list[bool], pred: list[bool]) -> dict[str, float | int]:
    tp = sum(g and p for g, p in zip(gold, pred))
    fp = sum(p and not g for g, p in zip(gold, pred))
    fn = sum(g and not p for g, p in zip(gold, pred))
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    accuracy = sum(g == p for g, p in zip(gold, pred)) / len(gold) if gold else 0.0
    return {
        "precision": precision, "recall": recall, "f1": f1, "accuracy": accuracy,
        "tp": tp, "fp": fp, "fn": fn, "support": tp + fn,
    }


def marked_span(row: dict[str, Any]) -> tuple[int, int] | None:
    """The shadow span of the occurrence the set marks in capitals, where it is not the
    first occurrence of the term; None otherwise."""
    original = str(row.get("text", ""))
    shadow = normalize(original)
    words = normalize(str(row.get("term", ""))).text.split()
    if not words:
        return None
    pattern = r"(?<!\w)" + r"\s+".join(re.escape(w) for w in words) + r"(?!\w)"
    spans = [m.span() for m in re.finditer(pattern, shadow.text)]

    def in_capitals(span: tuple[int, int]) -> bool:
        start, end = shadow.span(*span)
        return original[start:end].isupper()

    if len(spans) < 2 or in_capitals(spans[0]):
        return None
    return next((span for span in spans[1:] if in_capitals(span)), None)


def predict(rows: list[dict[str, Any]], first_occurrence: bool = False) -> tuple[list[dict[str, Any]], int]:
    """`redline context` rows, each term scored where the set marks it (unless
    `first_occurrence`), and how many rows that moved."""
    predictions, moved = [], 0
    for row, prediction in zip(rows, context_rows(rows)):
        span = None if first_occurrence or not prediction["found"] else marked_span(row)
        if span is not None:
            assessment = assess(normalize(str(row["text"])).text, *span)
            prediction = {**prediction, **{p: assessment.has(Status(p)) for p in PROPERTIES}}
            moved += 1
        predictions.append(prediction)
    return predictions, moved


def timings(rows: list[dict[str, Any]]) -> dict[str, float]:
    """Median µs per row (normalize + find + assess) and per `assess` call alone."""
    per_row, per_call = [], []
    for row in rows:
        t0 = time.perf_counter()
        next(context_rows([row]))
        per_row.append(time.perf_counter() - t0)
        shadow = normalize(row["text"]).text
        span = find_term(shadow, normalize(row["term"]).text)
        if span is not None:
            t0 = time.perf_counter()
            assess(shadow, *span)
            per_call.append(time.perf_counter() - t0)
    return {
        "median_us_per_row": statistics.median(per_row) * 1e6,
        "median_us_per_assess": statistics.median(per_call) * 1e6,
    }


def medspacy(path: str) -> dict[str, Any]:
    """Per-property scores on medspaCy's ConText test sentences."""
    data = json.loads(Path(path).read_text("utf-8"))
    cases = data["cases"]
    rows = [{"id": str(i), "text": c["text"], "term": c["term"]} for i, c in enumerate(cases)]
    predictions = list(context_rows(rows))
    properties = {
        prop: score([prop in c["expect"] for c in cases], [bool(p[prop]) for p in predictions])
        for prop in MEDSPACY_PROPERTIES
    }
    misses = []
    for case, p in zip(cases, predictions):
        got = sorted(prop for prop in MEDSPACY_PROPERTIES if p[prop])
        if not p["found"] or got != sorted(case["expect"]):
            misses.append(f"{case['text']!r} [{case['term']}] expected {case['expect']}, got {got}")
    return {"commit": data["commit"], "targets": len(cases), "exact": len(cases) - len(misses),
            "properties": properties, "misses": misses}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", help="negex-rs-annotations.jsonl")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--errors", type=int, default=0, metavar="N",
                        help="print N misclassified rows per property")
    parser.add_argument("--medspacy", metavar="FIXTURE", help="medspaCy's ConText test sentences (JSON fixture)")
    parser.add_argument("--first-occurrence", action="store_true",
                        help="score each term's first occurrence, as `redline context` does")
    args = parser.parse_args(argv)

    try:
        rows = list(read_jsonl(args.path))
    except SuiteError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    predictions, moved = predict(rows, args.first_occurrence)
    results = {
        prop: score([bool(r[prop]) for r in rows], [p[prop] for p in predictions])
        for prop in PROPERTIES
    }
    not_found = sum(not p["found"] for p in predictions)
    timing = timings(rows)  # after the scoring pass, which warmed every cache

    if args.json:
        print(json.dumps({"rows": len(rows), "not_found": not_found, "scored_at_marked_occurrence": moved,
                          "redline": results,
                          "published": PUBLISHED, "targets": TARGETS, **timing}, indent=2))
    else:
        print(f"NegEx/ConText test set: {len(rows)} rows, term not found in {not_found}, "
              f"scored at the occurrence in capitals rather than the first in {moved}\n")
        print(f"{'property':<18}{'system':<14}{'P':>7}{'R':>7}{'F1':>7}{'acc':>7}"
              f"{'support':>9}{'target':>8}")
        for prop in PROPERTIES:
            r = results[prop]
            target = TARGETS.get(prop)
            mark = "" if target is None else f"{target:.3f}" + ("" if r["f1"] >= target else "!")
            print(f"{prop:<18}{'redline':<14}{r['precision']:>7.3f}{r['recall']:>7.3f}"
                  f"{r['f1']:>7.3f}{r['accuracy']:>7.3f}{r['support']:>9}{mark:>8}")
            for system, figures in PUBLISHED.items():
                if prop in figures:
                    p, rc, f1 = figures[prop]
                    fmt = lambda v: f"{v:>7.3f}" if v is not None else f"{'-':>7}"  # noqa: E731
                    print(f"{'':<18}{system:<14}{fmt(p)}{fmt(rc)}{fmt(f1)}")
        print(f"\nmedian per row (normalize + find + assess): "
              f"{timing['median_us_per_row']:.1f} µs")
        print(f"median per assess call: {timing['median_us_per_assess']:.1f} µs")

    if args.medspacy:
        med = medspacy(args.medspacy)
        if args.json:
            print(json.dumps({"medspacy": med}, indent=2))
        else:
            print(f"\nmedspaCy ConText tests (commit {med['commit'][:8]}): {med['targets']} targets, "
                  f"{med['exact']} with exactly their statuses")
            print(f"{'property':<18}{'P':>7}{'R':>7}{'F1':>7}{'support':>9}")
            for prop in MEDSPACY_PROPERTIES:
                r = med["properties"][prop]
                print(f"{prop:<18}{r['precision']:>7.3f}{r['recall']:>7.3f}{r['f1']:>7.3f}{r['support']:>9}")
            for miss in med["misses"]:
                print(f"  not exact: {miss}")

    if args.errors:
        by_id = {r["id"]: r for r in rows}
        for prop in PROPERTIES:
            wrong = [pred for pred in predictions if pred[prop] != bool(by_id[pred["id"]][prop])]
            shown = min(args.errors, len(wrong))
            print(f"\n== {prop}: {len(wrong)} misclassified, showing {shown}")
            for pred in wrong[: args.errors]:
                row = by_id[pred["id"]]
                kind = "FN" if row[prop] else "FP"
                text = " ".join(row["text"].split())
                print(f"{kind} {row['id']} [{row['term'].strip()}] {text[:220]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
