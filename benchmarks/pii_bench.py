"""Score redline's PII detector on presidio-research's synthetic sentences.

    python benchmarks/pii_bench.py ../shared/benchmarks/pii/presidio-synth-v2.json
    python benchmarks/pii_bench.py PATH --json
    python benchmarks/pii_bench.py PATH --errors 10        # missed and spurious spans per type
    python benchmarks/pii_bench.py PATH --leniency valid   # phone leniency (default possible)

The data set (presidio-research, MIT) is 1,500 sentences with labelled spans
(`entity_type`, `start_position`, `end_position`). Only gold spans of the types the
detector claims count, and only its predictions of those types. A prediction is an exact
hit when its span and type equal a gold span's; an overlap hit when it shares at least
one character with a gold span of its type. Timings are medians of `detect` per sentence
and per 1 KB draft (one of plain prose, one of prose with dates, times and amounts).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

try:
    import redline  # noqa: F401
except ImportError:  # run from a checkout without an installed package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from phonenumbers import Leniency

from redline.screen.detectors.pii import ENTITIES, PiiDetector

TARGET = 0.90

_PROSE = (
    "Hi Jordan, thanks for getting back to us so quickly. I have looked into the sync "
    "problem you described and it seems the desktop app stopped refreshing after the "
    "last update. Our engineers are aware of it and a fix is being prepared. In the "
    "meantime, signing out and back in should restore the connection for most people. "
    "If that does not help, please let me know which operating system you are using and "
    "whether the problem happens on every device or only on one. I have also checked "
    "your billing settings, and everything looks correct on our side: the plan renews "
    "automatically and the card on file is still valid. You do not need to do anything "
    "there. Sorry again for the trouble, and thank you for your patience while we sort "
    "this out. I will keep this conversation open until you confirm that the app is "
    "syncing again. Have a good rest of your week, and feel free to reply here if "
    "anything else comes up. Best regards, the Support Team at Acme."
)
_PROSE_WITH_NUMBERS = (
    "Hi Jordan, thanks for your message of November 14, 2024. Your invoice for November "
    "is attached; the total is $1,249.00 for 12 seats on the annual plan, which renews "
    "on 2025-01-01. I've added a $50 account credit for the outage on 11/12, and you'll "
    "be refunded within 5 business days. Our status page shows the incident was "
    "resolved at 14:05 UTC and version 2.4.1 is out with the fix. I've escalated the "
    "remaining sync bug to engineering; the ticket number is ENG-4821 and your order "
    "#123456789 is unaffected. Our discount floor for annual plans is 32%, so the 15% "
    "offer you saw is still available until March 31. If you have 3 or 4 devices, "
    "please update each of them to 2.4.1 and restart; it takes about 2 minutes. "
    "The new plan covers 25 users and 100 GB of storage. Sorry again for the trouble, "
    "and thank you for your patience while we sort this out. I will keep this open "
    "until you confirm the app syncs again. Best regards, the Support Team at Acme."
)


def load(path: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return rows


def score(
    rows: list[dict[str, Any]], detector: PiiDetector
) -> tuple[dict[str, dict[str, Any]], list[tuple[str, str, str, str]]]:
    """Per-type counts and rates, and the errors as (type, kind, span text, row text)."""
    counts = {
        t: {"gold": 0, "pred": 0, "exact": 0, "pred_overlap": 0, "gold_overlap": 0}
        for t in ENTITIES
    }
    errors: list[tuple[str, str, str, str]] = []
    for row in rows:
        text = row["full_text"]
        gold = [
            (s["start_position"], s["end_position"], s["entity_type"])
            for s in row["spans"]
            if s["entity_type"] in ENTITIES
        ]
        # what the gate fires on: weak spans (a "weak" SSN, `127.0.0.1`) are reported for
        # redaction but never fire, so they are not predictions here
        pred = [(d.start, d.end, d.entity) for d in detector.detect(text) if d.entity in ENTITIES and not d.weak]
        for start, end, entity in gold:
            counts[entity]["gold"] += 1
            if any(e == entity and s < end and start < t for s, t, e in pred):
                counts[entity]["gold_overlap"] += 1
            else:
                errors.append((entity, "missed", text[start:end], text))
        for start, end, entity in pred:
            counts[entity]["pred"] += 1
            if (start, end, entity) in gold:
                counts[entity]["exact"] += 1
            if any(e == entity and s < end and start < t for s, t, e in gold):
                counts[entity]["pred_overlap"] += 1
            else:
                errors.append((entity, "spurious", text[start:end], text))
    results: dict[str, dict[str, Any]] = {}
    for entity, c in counts.items():
        results[entity] = {
            **c,
            "precision_exact": c["exact"] / c["pred"] if c["pred"] else 0.0,
            "recall_exact": c["exact"] / c["gold"] if c["gold"] else 0.0,
            "precision_overlap": c["pred_overlap"] / c["pred"] if c["pred"] else 0.0,
            "recall_overlap": c["gold_overlap"] / c["gold"] if c["gold"] else 0.0,
        }
    return results, errors


def _median_us(detector: PiiDetector, text: str, repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        detector.detect(text)
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples) * 1e6


def timings(rows: list[dict[str, Any]], detector: PiiDetector) -> dict[str, float]:
    for row in rows:  # warm up: compiled patterns, phonenumbers metadata
        detector.detect(row["full_text"])
    per_sentence, with_candidates = [], []
    for row in rows:
        text = row["full_text"]
        t0 = time.perf_counter()
        detector.detect(text)
        elapsed = time.perf_counter() - t0
        per_sentence.append(elapsed)
        if "@" in text or any(c.isdigit() for c in text):
            with_candidates.append(elapsed)
    return {
        "median_us_per_sentence": statistics.median(per_sentence) * 1e6,
        "median_us_per_sentence_with_digit_or_at": statistics.median(with_candidates) * 1e6,
        "median_us_per_1kb_draft": _median_us(detector, _PROSE[:1024], 5000),
        "median_us_per_1kb_draft_with_numbers": _median_us(
            detector, _PROSE_WITH_NUMBERS[:1024], 5000
        ),
    }


def markdown(results: dict[str, dict[str, Any]], times: dict[str, float]) -> str:
    lines = [
        "| type | gold | predicted | precision (overlap) | recall (overlap) "
        "| precision (exact) | recall (exact) |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for entity, r in results.items():
        lines.append(
            f"| {entity} | {r['gold']} | {r['pred']} | {r['precision_overlap']:.3f} | "
            f"{r['recall_overlap']:.3f} | {r['precision_exact']:.3f} | {r['recall_exact']:.3f} |"
        )
    lines += [
        "",
        f"median µs per sentence: {times['median_us_per_sentence']:.1f} (all), "
        f"{times['median_us_per_sentence_with_digit_or_at']:.1f} (with a digit or '@'); "
        f"per 1 KB draft: {times['median_us_per_1kb_draft']:.1f} (prose), "
        f"{times['median_us_per_1kb_draft_with_numbers']:.1f} (prose with dates, amounts, ids)",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("path", type=Path, help="presidio-synth-v2.json")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--errors", type=int, default=0, metavar="N", help="show N errors per type and kind"
    )
    parser.add_argument("--leniency", choices=("possible", "valid"), default="possible")
    args = parser.parse_args(argv)

    leniency = Leniency.POSSIBLE if args.leniency == "possible" else Leniency.VALID
    detector = PiiDetector(phone_leniency=leniency)
    rows = load(args.path)
    results, errors = score(rows, detector)
    times = timings(rows, detector)
    # STREET_ADDRESS is labelled in pieces and in Faker's international forms here; its
    # target is measured by benchmarks/address_bench.py, so it is reported, not judged
    passed = all(
        r["precision_overlap"] >= TARGET and r["recall_overlap"] >= TARGET
        for entity, r in results.items()
        if r["gold"] and entity != "STREET_ADDRESS"
    )
    if args.json:
        print(json.dumps({
            "data": str(args.path), "rows": len(rows), "phone_leniency": args.leniency,
            "target": TARGET, "passed": passed, "types": results, "timings": times,
        }, indent=2))  # fmt: skip
    else:
        print(
            f"PII detector on {args.path.name} ({len(rows)} sentences, "
            f"phone leniency {args.leniency})\n"
        )
        print(markdown(results, times))
        verdict = "met" if passed else "NOT met"
        print(f"\ntarget precision and recall (overlap) >= {TARGET} for every type: {verdict}")
    if args.errors:
        for entity in ENTITIES:
            for kind in ("missed", "spurious"):
                shown = [e for e in errors if e[0] == entity and e[1] == kind][: args.errors]
                for _, _, span, text in shown:
                    print(f"{entity:13} {kind:8} {span!r:32} in {text[:100]!r}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
