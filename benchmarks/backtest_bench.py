"""Throughput of `redline backtest`: the local engine (processes) and the Ray engine.

Run from the repository root once redline is installed with its `[ray]` extra:

    python benchmarks/backtest_bench.py                    # 100,000 drafts, 1,000 rules (a few minutes)
    python benchmarks/backtest_bench.py --quick            # 5,000 drafts: a smoke test
    python benchmarks/backtest_bench.py --engines local --json

Data is generated and seeded with `screen_bench.py`'s generator: English-like drafts of
about `--chars` characters, one planted term per 1,000 characters on average (a third of
them negated, so the context layer runs), and a 1,000-rule policy with every detector on.
The new policy drops 50 of those rules, adds 50 others and turns 20 from block to flag,
so every kind of change occurs. Each configuration runs `--repeats` times, in turn with
the others; figures are medians. `drafts/s` counts the drafts checked after start-up
(workers ready, each having compiled its policies from cold, or the Ray cluster joined)
divided by the time that took; with a baseline
every draft is checked twice (one check per policy), both from one `TextAnalysis` of
the text (screen/analysis.py). CPU time per draft comes from runs in this process
(`process_time`): the worker's whole job, and the checks alone three ways, in turn,
over the same drafts: the new policy only, both policies each from the plain text, and
both from one shared analysis; the script fails unless the last two decide the same.
"Once results flow" counts from the first chunk's result to the end: Ray starts its
actors inside the run, so that is its rate with the pool up. Every run writes its diff
(`--out`); the script fails unless every engine and every repeat printed the same report
and wrote the same diff, byte for byte.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).parent))
import screen_bench as sb  # noqa: E402 - the shared generator

from redline.backtest import run_backtest  # noqa: E402
from redline.backtest.inputs import chunks, open_source  # noqa: E402
from redline.backtest.worker import Checker, RunSpec  # noqa: E402
from redline.decide.gate import Gate  # noqa: E402
from redline.policy import load_policy  # noqa: E402
from redline.screen.analysis import TextAnalysis  # noqa: E402
from redline.screen import engine as screen_engine  # noqa: E402


def policy_doc(terms: list[str], flagged: set[int], name: str) -> dict[str, Any]:
    skills = [
        {"slug": f"skill-{k // 100}", "red_lines": [
            {"id": f"rule-{i}", "rule": f"Never mention {t}.", "severity": "flag" if i in flagged or i % 3 == 0 else "block",
             "terms": [t]} for i, t in batch]}
        for k in range(0, len(terms), 100)
        for batch in [list(enumerate(terms))[k:k + 100]]
    ]  # fmt: skip
    return {"version": 1, "name": name, "auto_send": {"min_confidence": 80}, "detectors": sb.DETECTORS_ON, "skills": skills}


def generate(folder: Path, drafts: int, rules: int, chars: int) -> tuple[Path, Path, Path]:
    terms = sb.make_terms(rules + 50)
    old_terms, new_terms = terms[:rules], terms[50 : rules + 50]
    old, new = folder / "old.yaml", folder / "new.yaml"
    old.write_text(yaml.safe_dump(policy_doc(old_terms, set(), "bench-old")))
    new.write_text(yaml.safe_dump(policy_doc(new_terms, set(range(1, 60, 3)), "bench-new")))
    rng = random.Random(42)
    corpus = folder / "corpus.jsonl"
    with corpus.open("w", encoding="utf-8") as handle:
        done = 0
        while done < drafts:
            for sentences in sb.base_drafts(rng, min(2000, drafts - done), chars):
                text = sb.render(sentences, terms, rng, 1.0)
                row: dict[str, Any] = {"id": f"d{done:07d}", "text": text}
                if rng.random() < 0.6:
                    row["confidence"] = rng.choice((60, 85, 95))
                handle.write(json.dumps(row) + "\n")
                done += 1
    return old, new, corpus


def _stable(decision: Any) -> str:
    row = decision.to_dict()
    row.pop("id")
    row.pop("timings_ms")
    return json.dumps(row, sort_keys=True)


def check_cpu(policy: Path, baseline: Path, corpus: Path, limit: int, repeats: int = 5) -> dict[str, Any]:
    """CPU microseconds per draft of the checks alone: the new policy, both policies from
    the text, both from one analysis (median of `repeats`, the three in turn); and
    whether the shared analysis decided every draft as the two separate checks did."""
    new, old = Gate(load_policy(policy)), Gate(load_policy(baseline))
    with corpus.open(encoding="utf-8") as handle:
        texts = [json.loads(line)["text"] for line, _ in zip(handle, range(limit))]
    ways = {
        "new only": lambda t: (new.check(t),),
        "both, separately": lambda t: (new.check(t), old.check(t)),
        "both, one analysis": lambda t: (new.check(a := TextAnalysis(t)), old.check(a)),
    }
    same = all(
        [_stable(d) for d in ways["both, separately"](t)] == [_stable(d) for d in ways["both, one analysis"](t)]
        for t in texts
    )
    times: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(repeats):
        for name, way in ways.items():
            began = time.process_time()
            for text in texts:
                way(text)
            times[name].append((time.process_time() - began) / len(texts) * 1e6)
    return {"us_per_draft": {k: round(statistics.median(v), 1) for k, v in times.items()}, "identical": same}


def cpu_per_draft(policy: Path, baseline: Path | None, corpus: Path, limit: int) -> float:
    """CPU microseconds per draft of the worker's whole job, in this process."""
    spec = RunSpec("corpus", (str(corpus),), load_policy(policy), load_policy(baseline) if baseline else None,
                   None, None, False, "bench")  # fmt: skip
    checker = Checker(spec)
    parts = [c for c, _ in zip(chunks(open_source(corpus)), range(max(1, limit // 1000)))]
    checker(parts[0])  # warm-up
    began, drafts = time.process_time(), 0
    for part in parts:
        drafts += checker(part).drafts
    return (time.process_time() - began) / drafts * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--drafts", type=int, default=100_000)
    parser.add_argument("--rules", type=int, default=1000)
    parser.add_argument("--chars", type=int, default=600, help="about this many characters per draft")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--engines", default="local,ray")
    parser.add_argument("--quick", action="store_true", help="5,000 drafts, one repeat")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.quick:
        args.drafts, args.repeats = 5000, 1
    engines = args.engines.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        sb.log(f"generating {args.drafts:,} drafts and two {args.rules:,}-rule policies ...")
        old, new, corpus = generate(folder, args.drafts, args.rules, args.chars)
        size = corpus.stat().st_size
        configs = [("local", 1, None), ("local", 1, old), ("local", 2, None), ("local", 2, old)]
        if "ray" in engines:
            configs += [("ray", 2, None), ("ray", 2, old)]
        configs = [c for c in configs if c[0] in engines]
        runs: dict[str, list[dict[str, Any]]] = {}
        outputs: dict[str, set[str]] = {}  # report and diff of every run, by configuration
        for repeat in range(args.repeats):
            for engine, workers, baseline in configs:
                key = f"{engine} x{workers}" + (" +baseline" if baseline else "")
                sb.log(f"[{repeat + 1}/{args.repeats}] {key} ...")
                diff = folder / f"{engine}-{workers}-{'b' if baseline else 'n'}.jsonl"
                screen_engine._cache.clear()  # forked workers would inherit compiled policies: start cold, as a command does
                result = run_backtest(new, corpus, baseline=baseline, engine=engine, workers=workers, out=diff)
                assert result.report["input"]["drafts"] == args.drafts
                runs.setdefault(key, []).append(result.run)
                outputs.setdefault(key, set()).add(json.dumps(result.report) + "\n" + diff.read_text("utf-8"))
        # every run of every engine must print the same report and write the same diff
        same = {
            kind: len(set().union(*(o for k, o in outputs.items() if k.endswith("+baseline") == (kind == "baseline")))) == 1
            for kind in ("new only", "baseline")
        }
        changed = sum(1 for _ in next(folder.glob("*-2-b.jsonl")).open())
        cpu = {"new only": cpu_per_draft(new, None, corpus, 20_000), "new + baseline": cpu_per_draft(new, old, corpus, 20_000)}
        checks = check_cpu(new, old, corpus, 3000)
    summary = {
        "drafts": args.drafts, "rules": args.rules, "corpus_mb": round(size / 2**20, 1), "cpus": os.cpu_count(),
        "load_avg": os.getloadavg()[0], "cpu_us_per_draft": {k: round(v, 1) for k, v in cpu.items()},
        "check_cpu_us_per_draft": checks["us_per_draft"], "shared_analysis_identical": checks["identical"],
        "identical_outputs": same, "diff_lines": changed,
        "configs": {
            key: {
                "drafts_per_s": statistics.median(r["drafts_per_s"] for r in rs),
                "steady_drafts_per_s": statistics.median(r["steady_drafts_per_s"] for r in rs),
                "startup_s": statistics.median(r["startup_s"] for r in rs),
                "first_result_s": statistics.median(r["first_result_s"] for r in rs),
                "seconds": statistics.median(r["seconds"] for r in rs),
                "all_drafts_per_s": [r["drafts_per_s"] for r in rs],
            }
            for key, rs in runs.items()
        },
    }  # fmt: skip
    if args.json:
        print(json.dumps(summary, indent=2))
        sys.exit(0 if all(same.values()) and checks["identical"] else 1)
    print(f"{args.drafts:,} drafts ({summary['corpus_mb']} MB), {args.rules:,} rules, {summary['cpus']} CPUs, "
          f"load average {summary['load_avg']:.1f}")  # fmt: skip
    print(f"CPU per draft in one process: {cpu['new only']:.0f} µs (new policy only), {cpu['new + baseline']:.0f} µs "
          f"(both): {1e6 / cpu['new only']:,.0f} and {1e6 / cpu['new + baseline']:,.0f} drafts/s per core")  # fmt: skip
    print("checks alone, CPU per draft: " + ", ".join(f"{k} {v:.0f} µs" for k, v in checks["us_per_draft"].items())
          + f"; one analysis decides as separate checks: {checks['identical']}")  # fmt: skip
    print(f"identical report and diff across engines and runs: {same} ({changed} diff lines)")
    print("\n| engine | workers | baseline | drafts/s (median) | once results flow | start-up s | first result s | whole run s |")
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    for key, figures in summary["configs"].items():
        engine, workers = key.split(" ")[0], key.split(" ")[1][1:]
        print(f"| {engine} | {workers} | {'yes' if 'baseline' in key else 'no'} | {figures['drafts_per_s']:,.0f} | "
              f"{figures['steady_drafts_per_s']:,.0f} | "
              f"{figures['startup_s']:.2f} | {figures['first_result_s']:.2f} | {figures['seconds']:.1f} |")  # fmt: skip
    if not all(same.values()):
        sys.exit("the engines' outputs differ")
    if not checks["identical"]:
        sys.exit("a shared text analysis decided a draft otherwise than two separate checks")


if __name__ == "__main__":
    main()
