"""What the review pipeline costs: watch mode against enforce for checks that carry a
conversation, one canary battery run, and the soak report over a large decision log.

Run from the repository root once redline is installed (`pip install -e .`), or:

    PYTHONPATH=src python benchmarks/review_bench.py            # ~30 s, Markdown table
    PYTHONPATH=src python benchmarks/review_bench.py --quick    # smoke test
    PYTHONPATH=src python benchmarks/review_bench.py --json

Drafts: the shipped example policy and four drafts in rotation (a traceback the ask
licenses, a refund promise, a clean reply, a reply with a third party's e-mail), each
with the same verified operator's ask. Watch and enforce run interleaved per draft (order
rotated), timed with perf_counter_ns around `review_check`; the report gives medians and
the watch/enforce ratio from the same run, which is what another loaded machine keeps.
The soak report reads a log written by the real pipeline (pairs and battery lines),
rotated into several files, with `read_events` + `soak_report`, as the command does.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from time import perf_counter_ns
from typing import Any

from redline import Gate, load_policy
from redline.review.canary import run_battery
from redline.review.fixtures import shipped_fixtures
from redline.review.flags import parse_flags
from redline.review.soak import soak_report
from redline.review.watch import review_check
from redline.store.decision_log import DecisionLog, read_events
from redline.store.review_log import LogSummarySink

ROOT = Path(__file__).parent.parent
DRAFTS = [
    "Here is what the worker printed:\nTraceback (most recent call last):\n"
    '  File "/srv/app/sync.py", line 88, in push\n    raise SyncError(code)\nSyncError: 502',
    "Good news: I have approved a full refund, it will reach you on Monday.",
    "Thanks for writing in, we are looking at your invoice now and will reply today.",
    "I have copied your neighbour, jane.doe@example.org, so she can confirm the delivery.",
]
ASK = {"operator_uid": "op-7", "messages": [{"role": "user", "sender_uid": "op-7", "text": "Paste me the full traceback."}]}


def median_us(samples: list[int]) -> float:
    return statistics.median(samples) / 1e3


def bench_checks(gate: Gate, rounds: int) -> dict[str, Any]:
    flags = {
        mode: parse_flags({"review": {"context": "live", "mode": mode}}).for_policy(gate.policy.name, development=False)
        for mode in ("watch", "enforce")
    }
    samples: dict[str, list[int]] = {"watch": [], "enforce": []}
    for n in range(rounds):
        text = DRAFTS[n % len(DRAFTS)]
        order = ("watch", "enforce") if n % 2 else ("enforce", "watch")
        for mode in order:
            started = perf_counter_ns()
            review_check(gate, text, ASK, 100, flags[mode])
            samples[mode].append(perf_counter_ns() - started)
    watch, enforce = median_us(samples["watch"]), median_us(samples["enforce"])
    return {"rounds": rounds, "watch_us": round(watch, 1), "enforce_us": round(enforce, 1), "ratio": round(watch / enforce, 2)}


def bench_battery(gate: Gate, runs: int) -> dict[str, Any]:
    fixtures = shipped_fixtures()
    times = []
    for _ in range(runs):
        result = run_battery(gate, fixtures, policy_name=gate.policy.name, policy_hash=gate.policy_hash, trigger="bench")
        times.append(result.duration_ms)
    return {"fixtures": len(fixtures), "runs": runs, "median_ms": round(statistics.median(times), 1)}


def bench_soak(gate: Gate, pairs: int, folder: Path) -> dict[str, Any]:
    log_path = folder / "redline.decisions.jsonl"
    flags = parse_flags({"review": {"context": "live", "mode": "watch"}}).for_policy(gate.policy.name, development=False)
    decisions = DecisionLog(log_path, max_bytes=4 * 1024 * 1024, backups=50)
    written = 0
    for n in range(pairs):
        text = DRAFTS[n % len(DRAFTS)]
        for decision in review_check(gate, text, ASK, 100, flags).decisions:
            decisions.write(decision, text)
            written += 1
    run_battery(gate, shipped_fixtures(), policy_name=gate.policy.name, policy_hash=gate.policy_hash,
                trigger="bench", sink=LogSummarySink(decisions))  # fmt: skip
    decisions.close()
    size = sum(p.stat().st_size for p in folder.iterdir() if p.name.startswith(log_path.name))
    started = time.perf_counter()
    result = read_events(log_path)
    read_s = time.perf_counter() - started
    report = soak_report(result.events, day=str(result.events[-1]["time"])[:10], min_volume=1)
    total_s = time.perf_counter() - started
    return {
        "lines": written + 1,
        "files": len(result.files),
        "mib": round(size / 2**20, 1),
        "read_s": round(read_s, 2),
        "report_s": round(total_s - read_s, 2),
        "lines_per_s": round((written + 1) / total_s),
        "verdict": report.verdict,
        "volume": report.volume,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few rounds: a smoke test")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    gate = Gate(load_policy(ROOT / "examples" / "policy.yaml"))
    rounds, runs, pairs = (40, 3, 500) if args.quick else (2000, 30, 25_000)
    for text in DRAFTS:  # warm the caches the first checks fill
        gate.check(text, ASK, 100)
    with tempfile.TemporaryDirectory() as tmp:
        results = {"checks": bench_checks(gate, rounds), "battery": bench_battery(gate, runs), "soak": bench_soak(gate, pairs, Path(tmp))}
    if args.json:
        print(json.dumps(results))
        return
    c, b, s = results["checks"], results["battery"], results["soak"]
    print(f"| measure | value |\n|---|---|")
    print(f"| check with a conversation, enforce (median of {c['rounds']}) | {c['enforce_us']} µs |")
    print(f"| same, watch mode (two checks and the pair) | {c['watch_us']} µs |")
    print(f"| watch / enforce | {c['ratio']} |")
    print(f"| battery run, {b['fixtures']} shipped fixtures (median of {b['runs']}) | {b['median_ms']} ms |")
    print(f"| soak report over {s['lines']} lines in {s['files']} files ({s['mib']} MiB) | read {s['read_s']} s + report {s['report_s']} s ({s['lines_per_s']} lines/s) |")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
