"""Latency a judge adds to a check: embedding judge, and the OpenAI path against the fake server.

    python benchmarks/judge_bench.py [SUITE_DIR ...] [--rounds N]

For each suite's probe texts it times `Gate.check` with the screen alone and with the
judge (`when: always`, cache off), interleaved round by round so that both see the same
machine load, and prints the median and p99 of the added milliseconds per check. The
OpenAI path runs the real `openai` SDK against `redline.judges.fake_server` on 127.0.0.1
(no model behind it: the figure is the SDK, HTTP, envelope and parsing cost).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

from redline import Gate, load_policy
from redline.eval.layers import with_judge
from redline.eval.probes import read_probes
from redline.judges.fake_server import FakeModelServer, Reply
from redline.judges.guard import GuardedJudge


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def _uncached(gate: Gate) -> Gate:
    if gate.judge is not None:
        gate.judge = GuardedJudge(gate.judge.inner, policy_hash=gate.policy_hash, timeout_s=30, cache_size=0)
    return gate


def _added(texts: list[str], alone: Gate, judged: Gate, rounds: int) -> tuple[list[float], list[float]]:
    """(ms the judge added, ms of the screen alone) per check."""
    for text in texts:  # warm both (example vectors, compiled screen, connections)
        alone.check(text), judged.check(text)
    added: list[float] = []
    base: list[float] = []
    for _ in range(rounds):
        for text in texts:
            a0 = time.perf_counter(); alone.check(text); a1 = time.perf_counter()
            judged.check(text); b1 = time.perf_counter()
            added.append(((b1 - a1) - (a1 - a0)) * 1e3)
            base.append((a1 - a0) * 1e3)
    return added, base


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("suites", nargs="*", default=["tests/fixtures/suites/support", "tests/fixtures/suites/triage"])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    os.environ.setdefault("OPENAI_API_KEY", "sk-bench")
    results = {}
    for suite in args.suites:
        policy = load_policy(Path(suite) / "policy.yaml")
        texts = [p.text for p in read_probes(Path(suite) / "probes.jsonl")]
        alone = Gate(with_judge(policy, "none"))
        embedded = _uncached(Gate(with_judge(policy, "embedding", "always")))
        emb, base = _added(texts, alone, embedded, args.rounds)
        with FakeModelServer([Reply()]) as server:
            settings = policy.judge.model_copy(update={"kind": "openai", "model": "fake", "base_url": server.openai_url, "when": "always"})
            openai_policy = policy.model_copy(update={"judge": settings})
            openai_policy.__dict__.pop("hash", None)
            oai, _ = _added(texts, alone, _uncached(Gate(openai_policy)), max(1, args.rounds // 4))
        results[Path(suite).name] = {
            "checks": len(emb),
            "load_average_1min": round(os.getloadavg()[0], 2),
            "screen_alone_ms": {"p50": round(statistics.median(base), 3)},
            "embedding_ms": {"p50": round(statistics.median(emb), 2), "p99": round(_p99(emb), 2)},
            "openai_fake_server_ms": {"p50": round(statistics.median(oai), 2), "p99": round(_p99(oai), 2), "checks": len(oai)},
        }
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
