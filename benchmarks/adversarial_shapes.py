"""Texts shaped to make the gate slow, and what each costs at 64 KB, 256 KB and 1 MB.

Run by `python benchmarks/screen_bench.py --adversarial` (or on its own, from the
repository root, once redline is installed). The policy is the example policy
(`examples/policy.yaml`: ten rules, all three detectors on). Each shape is checked three
times per size; the median is reported, with the cost per KB and the LINEARITY ratio:
cost per byte at 1 MB over cost per byte at 64 KB (1.0 is linear; a quadratic step shows
as about 16). The 1 MiB body limit of the service bounds the size.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from time import perf_counter

from redline import Gate, load_policy

POLICY = Path(__file__).resolve().parent.parent / "examples" / "policy.yaml"
SIZES = (64 * 1024, 256 * 1024, 1024 * 1024)
FILLER = "the of and to in is was for on that with as by at from this be are or it an".split()


def _repeat(unit: str, size: int) -> str:
    return unit * max(size // len(unit), 1)


def _varied(size: int) -> str:
    rng = random.Random(5)
    words = "apple pear plum fig kiwi lime date".split()
    parts, total = [], 0
    while total < size:
        parts.append(f"no refund {rng.choice(words)}")
        total += len(parts[-1]) + 1
    return " ".join(parts)


def _one_sentence(size: int) -> str:
    rng = random.Random(6)
    words, total = [], 0
    while total < size:
        words.append(rng.choice(FILLER))
        total += len(words[-1]) + 1
    return " ".join(words[: len(words) // 2]) + " refund " + " ".join(words[len(words) // 2 :])


def _many_cues(size: int) -> str:
    block = "no not never without if maybe history of denies "  # triggers, no hit
    return "".join(_repeat(block, 1000) + "refund. " for _ in range(max(size // 1000, 1)))


SHAPES: dict[str, Callable[[int], str]] = {
    "many hits in one sentence (`refund ` repeated)": lambda n: _repeat("refund ", n),
    "many negated hits (`no refund ` repeated)": lambda n: _repeat("no refund ", n),
    "denials, then the promise": lambda n: _repeat("There is no refund. ", n - 30) + "Your refund is approved.",
    "negated hits among varied words": _varied,
    "one sentence of the whole size, one hit": _one_sentence,
    "many cues, a hit per KB": _many_cues,
    "hidden characters in every term (`re\\u200bfund `)": lambda n: _repeat("re\u200bfund ", n),
    "emoji inside every term (`re🎉fund `)": lambda n: _repeat("re\U0001f389fund ", n),
    "an email address every 7 bytes (PII detector)": lambda n: _repeat("a@b.co ", n),
}


def measure(gate: Gate, text: str, repeats: int) -> tuple[float, str]:
    times = []
    outcome = ""
    for _ in range(repeats):
        started = perf_counter()
        outcome = gate.check(text).outcome.value
        times.append(perf_counter() - started)
    return statistics.median(times) * 1e3, outcome


def run(repeats: int = 3) -> list[dict[str, object]]:
    gate = Gate(load_policy(POLICY))
    gate.check("warm up: no refund here")
    rows = []
    for name, make in SHAPES.items():
        row: dict[str, object] = {"shape": name}
        for size in SIZES:
            text = make(size)
            ms, outcome = measure(gate, text, repeats)
            row[f"{size // 1024}K_ms"] = round(ms, 1)
            row[f"{size // 1024}K_outcome"] = outcome
            row[f"{size // 1024}K_chars"] = len(text)
        small = float(row["64K_ms"]) / int(row["64K_chars"])  # type: ignore[arg-type]
        large = float(row["1024K_ms"]) / int(row["1024K_chars"])  # type: ignore[arg-type]
        row["us_per_kb_at_1M"] = round(large * 1024 * 1e3, 1)
        row["linearity"] = round(large / small, 2) if small else None
        print(f"  {name}: {row['1024K_ms']} ms at 1 MB, linearity {row['linearity']}", file=sys.stderr, flush=True)
        rows.append(row)
    return rows


def markdown(rows: list[dict[str, object]]) -> str:
    lines = [
        "| shape | 64 KB ms | 256 KB ms | 1 MB ms | µs per KB at 1 MB | linearity (per byte, 1 MB / 64 KB) | outcome |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['shape']} | {r['64K_ms']} | {r['256K_ms']} | {r['1024K_ms']} | {r['us_per_kb_at_1M']} "
            f"| {r['linearity']} | {r['1024K_outcome']} |"
        )
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    rows = run(args.repeats)
    print(json.dumps(rows, indent=2) if args.json else markdown(rows))


if __name__ == "__main__":
    main()
