"""Latency a judge adds to a check: embedding judge, and the OpenAI path against the fake server.

    python benchmarks/judge_bench.py [SUITE_DIR ...] [--rounds N] [--compare]

For each suite's probe texts it times `Gate.check` with the screen alone and with the
judge (`when: always`, cache off), interleaved text by text so that both see the same
machine load, and prints the median and p99 of the added milliseconds per check. The
OpenAI path runs the real `openai` SDK against `redline.judges.fake_server` on 127.0.0.1
(no model behind it: the figure is the SDK, HTTP, envelope and parsing cost).

`--compare` also times, interleaved with the others, the packaged model run as stored
(float products, as before `onnx_int8`) and the int8 run with two intra-op threads, and
prints each one's median over the default's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

from redline import Gate, Policy, load_policy
from redline.eval.layers import with_judge
from redline.eval.probes import read_probes
from redline.judges.embedding import EmbeddingJudge, packaged_model_files
from redline.judges.fake_server import FakeModelServer, Reply
from redline.judges.guard import GuardedJudge


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def _uncached(gate: Gate) -> Gate:
    if gate.judge is not None:
        gate.judge = GuardedJudge(gate.judge.inner, policy_hash=gate.policy_hash, timeout_s=30, cache_size=0)
    return gate


def _added(texts: list[str], alone: Gate, judged: list[Gate], rounds: int) -> tuple[list[list[float]], list[float]]:
    """(ms each judged gate added, ms of the screen alone) per check."""
    for text in texts:  # warm all (example vectors, compiled screen, connections)
        for gate in (alone, *judged):
            gate.check(text)
    added: list[list[float]] = [[] for _ in judged]
    base: list[float] = []
    for _ in range(rounds):
        for text in texts:
            a0 = time.perf_counter(); alone.check(text); a1 = time.perf_counter()
            base.append((a1 - a0) * 1e3)
            for times, gate in zip(added, judged):
                b0 = time.perf_counter(); gate.check(text); b1 = time.perf_counter()
                times.append(((b1 - b0) - (a1 - a0)) * 1e3)
    return added, base


def _figures(values: list[float]) -> dict[str, float]:
    return {"p50": round(statistics.median(values), 2), "p99": round(_p99(values), 2)}


def _embedding_variants(policy: Policy, compare: bool) -> dict[str, Gate]:
    """The packaged judge as the policy builds it; with `compare`, the variants beside it."""
    gated = with_judge(policy, "embedding", "always")
    variants = {"embedding": Gate(gated)}
    if compare:
        files = packaged_model_files()
        variants["float_as_stored"] = Gate(gated, judge=EmbeddingJudge(files, model_name="float"))
        variants["int8_two_threads"] = Gate(gated, judge=EmbeddingJudge(files, model_name="int8x2", int8=True, threads=2))
    return {name: _uncached(gate) for name, gate in variants.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("suites", nargs="*", default=["tests/fixtures/suites/support", "tests/fixtures/suites/triage"])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--compare", action="store_true", help="also time the float run and two threads")
    args = parser.parse_args()
    os.environ.setdefault("OPENAI_API_KEY", "sk-bench")
    results = {}
    for suite in args.suites:
        policy = load_policy(Path(suite) / "policy.yaml")
        texts = [p.text for p in read_probes(Path(suite) / "probes.jsonl")]
        alone = Gate(with_judge(policy, "none"))
        variants = _embedding_variants(policy, args.compare)
        added, base = _added(texts, alone, list(variants.values()), args.rounds)
        timed = dict(zip(variants, added))
        with FakeModelServer([Reply()]) as server:
            settings = policy.judge.model_copy(update={"kind": "openai", "model": "fake", "base_url": server.openai_url, "when": "always"})
            openai_policy = policy.model_copy(update={"judge": settings})
            openai_policy.__dict__.pop("hash", None)
            (oai,), _ = _added(texts, alone, [_uncached(Gate(openai_policy))], max(1, args.rounds // 4))
        result = {
            "checks": len(base),
            "load_average_1min": round(os.getloadavg()[0], 2),
            "screen_alone_ms": {"p50": round(statistics.median(base), 3)},
            **{f"{name}_ms": _figures(values) for name, values in timed.items()},
            "openai_fake_server_ms": {**_figures(oai), "checks": len(oai)},
        }
        if args.compare:
            default = statistics.median(timed["embedding"])
            result["p50_over_embedding"] = {
                name: round(statistics.median(values) / default, 2) for name, values in timed.items() if name != "embedding"
            }
        results[Path(suite).name] = result
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
