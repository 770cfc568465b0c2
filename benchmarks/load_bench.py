"""Sustained load on a real `redline serve`: throughput, latency, errors, and a recount.

    python benchmarks/load_bench.py                     # saturate for 20 s, 1 worker
    python benchmarks/load_bench.py --rate 500          # paced at 500 checks/s
    python benchmarks/load_bench.py --workers 2 --json

The server runs in a subprocess on 127.0.0.1 (SQLite, a generated 100-rule policy whose
terms are pseudo-words); the load comes from threads with one pooled httpx client each,
POSTing ~1 KB texts to /v1/check, bounded by both `--duration` and `--max-requests`.
With `--rate`, each request has a scheduled start and its latency counts from that
moment, so a stall shows up as latency instead of silently lowering the offered load.
Afterwards every 200 must have its audit row (the store's count) and its log line.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from redline.service.testing import LiveServer
from redline.store.decision_log import read_events
from redline.store.sql import AuditStore

SYLLABLES = "ka zor vem tul pri nax lod qui bes mur fyn gal dro wix hep sun".split()
FILLER = (
    "thanks for reaching out about your account we have looked at the order history and the "
    "shipping details and the team will follow up with an update as soon as possible please "
    "let us know if there is anything else we can help with today"
).split()


def pseudo_word(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))


def make_policy(rng: random.Random, rules: int) -> tuple[str, list[str]]:
    """A policy with `rules` red lines of 2-3 pseudo-word terms each, and all its terms."""
    terms: list[str] = []
    lines = ["version: 1", "name: load-bench", "auto_send:", "  min_confidence: 80", "skills:"]
    per_skill = 10
    for s in range(0, rules, per_skill):
        lines += [f"  - slug: skill-{s // per_skill}", "    red_lines:"]
        for r in range(s, min(s + per_skill, rules)):
            mine = sorted({pseudo_word(rng) for _ in range(rng.randint(2, 3))})
            terms += mine
            lines += [
                f"      - id: rule-{r}",
                f"        rule: Never mention {' or '.join(mine)}.",
                f"        severity: {'block' if r % 3 else 'flag'}",
                f"        terms: [{', '.join(mine)}]",
            ]
    return "\n".join(lines) + "\n", terms


def make_texts(rng: random.Random, terms: list[str], count: int, size: int) -> list[str]:
    """~`size`-character texts; one in five carries a rule's term (and is held)."""
    texts = []
    for n in range(count):
        words: list[str] = []
        while sum(len(w) + 1 for w in words) < size:
            words.append(rng.choice(FILLER) if rng.random() < 0.8 else pseudo_word(rng))
        if n % 5 == 0:
            words.insert(rng.randrange(len(words)), rng.choice(terms))
        texts.append(" ".join(words)[:size])
    return texts


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    statuses: dict[str, int] = field(default_factory=dict)
    ok: int = 0

    def add(self, status: str, latency: float) -> None:
        self.statuses[status] = self.statuses.get(status, 0) + 1
        if status == "200":
            self.ok += 1
            self.latencies.append(latency)


def _worker(
    url: str, token: str, texts: list[str], start: float, end: float, budget: list[int],
    lock: threading.Lock, tally: Tally, interval: float, offset: float, measure_from: float,
) -> None:  # fmt: skip
    headers = {"Authorization": f"Bearer {token}"}
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    with httpx.Client(base_url=url, headers=headers, timeout=10, limits=limits) as http:
        n = 0
        scheduled = start + offset
        while True:
            now = time.perf_counter()
            if interval:
                if scheduled > now:
                    time.sleep(scheduled - now)
                sent_at = scheduled
                scheduled += interval
            else:
                sent_at = now
            if sent_at >= end:
                return
            with lock:
                if budget[0] <= 0:
                    return
                budget[0] -= 1
            body = {"policy": "load-bench", "text": texts[n % len(texts)], "confidence": 90}
            n += 1
            try:
                status = str(http.post("/v1/check", json=body).status_code)
            except httpx.HTTPError as exc:
                status = type(exc).__name__
            latency = time.perf_counter() - sent_at
            if sent_at >= measure_from:
                with lock:
                    tally.add(status, latency)
            elif status == "200":
                with lock:
                    tally.ok += 1  # warm-up: counted for the recount, not in the figures


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of one process (Linux /proc; None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def server_cpu(server: LiveServer) -> float | None:
    """CPU seconds of the server and (with --workers) its worker processes."""
    assert server.process is not None
    pids = [server.process.pid]
    try:
        children = Path(f"/proc/{server.process.pid}/task/{server.process.pid}/children")
        pids += [int(p) for p in children.read_text().split()]
    except OSError:
        pass
    found = [cpu_seconds(p) for p in pids]
    return sum(f for f in found if f is not None) if any(f is not None for f in found) else None


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    policy, terms = make_policy(rng, args.rules)
    texts = make_texts(rng, terms, 500, args.text_bytes)
    with tempfile.TemporaryDirectory(prefix="redline-load-") as tmp:
        root = Path(tmp)
        (root / "policies").mkdir()
        (root / "policies" / "load.yaml").write_text(policy)
        db_url = f"sqlite:///{root / 'redline.db'}"
        log_path = root / "redline.decisions.jsonl"
        server = LiveServer(root / "policies", db_url, log_path, root / "server.log",
                            args=("--workers", str(args.workers), "--log-max-bytes", str(1 << 30)))  # fmt: skip
        server.run()
        tally = Tally()
        try:
            budget = [args.max_requests]
            lock = threading.Lock()
            start = time.perf_counter()
            measure_from = start + args.warmup
            end = measure_from + args.duration
            interval = args.threads / args.rate if args.rate else 0.0
            threads = [
                threading.Thread(
                    target=_worker,
                    args=(
                        server.url,
                        server.tokens["client"],
                        texts[i :: args.threads] or texts,
                        start,
                        end,
                        budget,
                        lock,
                        tally,
                        interval,
                        interval * i / args.threads,
                        measure_from,
                    ),  # fmt: skip
                )
                for i in range(args.threads)
            ]
            for t in threads:
                t.start()
            time.sleep(max(0.0, measure_from - time.perf_counter()))
            cpu_before, client_before = server_cpu(server), time.process_time()
            for t in threads:
                t.join()
            elapsed = min(time.perf_counter(), end) - measure_from
            cpu_after, client_after = server_cpu(server), time.process_time()
        finally:
            server.stop()
        log = read_events(log_path)
        with AuditStore(db_url) as store:
            rows = store.count()
    measured = sum(tally.statuses.values())
    errors = measured - tally.statuses.get("200", 0)
    lat = tally.latencies
    return {
        "workers": args.workers,
        "threads": args.threads,
        "rate_target": args.rate or None,
        "duration_s": round(elapsed, 2),
        "requests": measured,
        "throughput_per_s": round(tally.statuses.get("200", 0) / elapsed, 1) if elapsed > 0 else 0.0,
        "p50_ms": round(percentile(lat, 0.50) * 1e3, 2),
        "p90_ms": round(percentile(lat, 0.90) * 1e3, 2),
        "p99_ms": round(percentile(lat, 0.99) * 1e3, 2),
        "max_ms": round(max(lat) * 1e3, 2) if lat else None,
        "mean_ms": round(statistics.fmean(lat) * 1e3, 2) if lat else None,
        "errors": errors,
        "statuses": tally.statuses,
        "acknowledged": tally.ok,
        "audit_rows": rows,
        "log_lines": len(log.events),
        "log_torn": log.torn,
        "all_recorded": rows == tally.ok and len(log.events) == tally.ok,
        "server_cpu_ms_per_check": (
            round((cpu_after - cpu_before) * 1e3 / measured, 3)
            if cpu_before is not None and cpu_after is not None and measured
            else None
        ),
        "client_cpu_ms_per_check": round((client_after - client_before) * 1e3 / measured, 3) if measured else None,
        "cpus": os.cpu_count(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=float, default=20.0, help="measured seconds (after the warm-up)")
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--max-requests", type=int, default=200_000)
    parser.add_argument("--threads", type=int, default=8, help="client threads, one connection each")
    parser.add_argument("--rate", type=float, default=0.0, help="target checks/s in all (0: as fast as possible)")
    parser.add_argument("--workers", type=int, default=1, help="uvicorn worker processes")
    parser.add_argument("--rules", type=int, default=100)
    parser.add_argument("--text-bytes", type=int, default=1024)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run(args)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>18}: {value}")
    ok = result["errors"] == 0 and result["all_recorded"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
