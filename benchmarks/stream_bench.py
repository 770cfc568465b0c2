"""What streaming a draft through `Gate.stream` adds per chunk, against one `check`.

    python benchmarks/stream_bench.py [--drafts 300] [--chunk 4] [--policy examples/policy.yaml]

Drafts of about 1 KB (16-21 sentences of support prose, one in five with a red line in a
sentence near its end) are fed in chunks of `--chunk` characters (4: about one token of
an LLM's stream) at confidence 90. Reported, as medians and p99 over all chunks: the time
`feed` takes for a chunk that completes no sentence (the scan), for one that completes a
sentence (the check of the text so far), and the whole stream's cost as a multiple of
one check of the whole draft. Then the same for one long text (`--long-kb`), where the
checks thin out past 4 KB. The methods take turns draft by draft, so machine load hits
both alike; read the ratios.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from redline import Gate, load_policy

CLEAN = [
    "Thanks for reaching out about your order.",
    "We have looked at the shipping details and the history of the account.",
    "The team will follow up with an update as soon as possible.",
    "Your package left the warehouse this morning!",
    "Is there anything else we can help with today?",
    "The tracking page shows the latest scan from the carrier.",
    "Please keep the order number handy if you write again.",
    "Most deliveries in your region arrive within three working days.",
]
HELD = [
    "Good news: I have approved a full refund.",
    "I can offer you an account credit for the trouble.",
    "Our discount floor for this plan is thirty percent.",
]


def draft(rng: random.Random, held: bool) -> str:
    sentences = [rng.choice(CLEAN) for _ in range(rng.randint(16, 21))]
    if held:
        sentences.insert(len(sentences) - rng.randint(1, 3), rng.choice(HELD))
    return " ".join(sentences)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def stream_costs(gate: Gate, text: str, size: int) -> tuple[list[float], list[float], float, int]:
    """(µs per chunk with no release point, µs per chunk with one, total µs, checks)."""
    plain, pointed = [], []
    stream = gate.stream(confidence=90)
    started = time.perf_counter()
    for i in range(0, len(text), size):
        before = stream.checks
        t0 = time.perf_counter()
        stream.feed(text[i : i + size])
        spent = (time.perf_counter() - t0) * 1e6
        (pointed if stream.checks > before else plain).append(spent)
    stream.finish()
    return plain, pointed, (time.perf_counter() - started) * 1e6, stream.checks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--drafts", type=int, default=300)
    parser.add_argument("--chunk", type=int, default=4)
    parser.add_argument("--long-kb", type=int, default=256)
    parser.add_argument("--policy", type=Path, default=Path(__file__).parents[1] / "examples" / "policy.yaml")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    gate = Gate(load_policy(args.policy))
    rng = random.Random(args.seed)
    texts = [draft(rng, n % 5 == 0) for n in range(args.drafts)]
    plain: list[float] = []
    pointed: list[float] = []
    ratios: list[float] = []
    checks: list[int] = []
    single: list[float] = []
    for text in texts:  # turns: one check, then the same text streamed
        t0 = time.perf_counter()
        gate.check(text, confidence=90)
        one = (time.perf_counter() - t0) * 1e6
        p, q, total, n = stream_costs(gate, text, args.chunk)
        plain += p
        pointed += q
        single.append(one)
        ratios.append(total / one)
        checks.append(n)
    long_text = " ".join(CLEAN[i % len(CLEAN)] for i in range(args.long_kb * 1024 // 60))
    t0 = time.perf_counter()
    gate.check(long_text, confidence=90)
    long_one = (time.perf_counter() - t0) * 1e6
    lp, lq, long_total, long_checks = stream_costs(gate, long_text, 64)
    result = {
        "drafts": args.drafts,
        "chars_median": int(statistics.median(len(t) for t in texts)),
        "chunk_chars": args.chunk,
        "check_whole_us_p50": round(statistics.median(single), 1),
        "chunk_without_point_us_p50": round(statistics.median(plain), 2),
        "chunk_without_point_us_p99": round(pct(plain, 0.99), 2),
        "chunk_with_point_us_p50": round(statistics.median(pointed), 1),
        "chunk_with_point_us_p99": round(pct(pointed, 0.99), 1),
        "checks_per_draft_p50": statistics.median(checks),
        "stream_over_one_check_p50": round(statistics.median(ratios), 2),
        "long_text_kb": len(long_text) // 1024,
        "long_check_whole_ms": round(long_one / 1e3, 1),
        "long_stream_ms": round(long_total / 1e3, 1),
        "long_stream_over_one_check": round(long_total / long_one, 2),
        "long_checks": long_checks,
        "long_chunk_with_point_ms_p50": round(statistics.median(lq) / 1e3, 2) if lq else None,
        "long_chunk_without_point_us_p50": round(statistics.median(lp), 2),
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
