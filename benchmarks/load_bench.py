"""Sustained load on a real `redline serve`: throughput, latency, errors, and a recount.

    python benchmarks/load_bench.py                          # wrk, 8 connections, 20 s, 1 worker
    python benchmarks/load_bench.py --connections 32
    python benchmarks/load_bench.py --rate 800               # paced at 800 checks/s in all
    python benchmarks/load_bench.py --workers 2 --db postgresql+psycopg://u:p@127.0.0.1/bench
    python benchmarks/load_bench.py --generator python --json
    python benchmarks/load_bench.py --connections 32 --pin   # server on one core, wrk on the rest
    python benchmarks/load_bench.py --rate 800 --reference-app 0.7   # the machine's own curve

The server runs in a subprocess on 127.0.0.1 (SQLite in a temporary folder unless `--db`
names a database, a generated 100-rule policy whose terms are pseudo-words) and gets ~1 KB
texts on /v1/check, one in five of which carries a rule's term (held: escalate), the rest
clean (execute: the caller's confidence clears the policy's bar).

The load comes from `wrk` (Debian's `wrk` package; an independent generator in C that
costs the server little CPU) with `benchmarks/wrk_check.lua`, one connection per wrk
thread. With `--rate`, each request has a scheduled send time and its latency counts from
then, so a stall shows as latency instead of quietly lowering the offered load (wrk2's
correction). `--generator python` uses client threads with httpx instead (it shares the
cores with the server far more). Throughput is the 200s over the time from the start of
the measured window to the last response counted, never capped at the scheduled end.

Neither is pinned to a core unless `--pin` is given: then the server (every thread of it)
runs on the last CPU and wrk (with this script) on the others, so that on a small machine
the two do not take turns on the same core; it needs fewer workers than CPUs (Linux).

Afterwards every 200 is reconciled by id: each acknowledged decision must have its audit
row and its decision-log line (requests cut off when the generator stops may leave rows
nobody was answered for; they are counted apart). The machine's load is reported: the
CPU the server and the generator used, and what everything else on the machine used.
And the machine's speed, just before and just after the run (`reference_check_us`: one
`Gate.check` of the same texts in this process): on a shared machine it drifts by half
within an hour, so a run's figures are read beside it. `service_cpu_bench.py` measures
the service's CPU per check in process, without HTTP, for comparing two versions.

`--reference-app WORK_MS` runs the same protocol against `reference_app.py` instead of
redline: a bare ASGI app on the same uvicorn, loop and parser that does a fixed amount of
arithmetic per request, costing WORK_MS of CPU, and records nothing. A run of redline and
a run of the reference at the same CPU per request show which part of a tail is the
server's and which the machine's (no rows to reconcile: `all_recorded` is null).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import yaml

from redline.service.testing import LiveServer
from redline.store.decision_log import read_events
from redline.store.sql import AuditStore

SYLLABLES = "ka zor vem tul pri nax lod qui bes mur fyn gal dro wix hep sun".split()
# Filler pseudo-words (names, codes) are built from other syllables, so that no filler
# word is a rule's term: only the planted term holds a text.
FILLER_SYLLABLES = "bo ree tam gus pell nim oka ruv selt yam".split()
WRK_SCRIPT = Path(__file__).with_name("wrk_check.lua")
FILLER = (
    "thanks for reaching out about your account we have looked at the order history and the "
    "shipping details and the team will follow up with an update as soon as possible please "
    "let us know if there is anything else we can help with today"
).split()


def pseudo_word(rng: random.Random, syllables: list[str] = SYLLABLES) -> str:
    return "".join(rng.choice(syllables) for _ in range(rng.randint(2, 4)))


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
            words.append(rng.choice(FILLER) if rng.random() < 0.8 else pseudo_word(rng, FILLER_SYLLABLES))
        if n % 5 == 0:
            words.insert(rng.randrange(len(words)), rng.choice(terms))
        texts.append(" ".join(words)[:size])
    return texts


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    statuses: dict[str, int] = field(default_factory=dict)
    ok: int = 0
    last_done: float = 0.0  # perf_counter() of the last counted response

    def add(self, status: str, latency: float) -> None:
        self.last_done = max(self.last_done, time.perf_counter())
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


def server_pids(server: LiveServer) -> list[int]:
    """The server's process and (with --workers) its worker processes."""
    assert server.process is not None
    pids = [server.process.pid]
    try:
        children = Path(f"/proc/{server.process.pid}/task/{server.process.pid}/children")
        pids += [int(p) for p in children.read_text().split()]
    except OSError:
        pass
    return pids


def server_cpu(server: LiveServer) -> float | None:
    """CPU seconds of the server and (with --workers) its worker processes."""
    found = [cpu_seconds(p) for p in server_pids(server)]
    return sum(f for f in found if f is not None) if any(f is not None for f in found) else None


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(args: argparse.Namespace, policy: str, texts: list[str]) -> dict[str, Any]:
    """The same run with Python client threads as the generator (counts, not ids, reconciled)."""
    with tempfile.TemporaryDirectory(prefix="redline-load-") as tmp:
        root = Path(tmp)
        server, db_url, log_path = make_server(args, root, policy)
        server.run()
        with AuditStore(db_url) as store:
            before = store.count()
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
            # up to the last counted response: a paced run that fell behind its schedule
            # finished after `end`, and its throughput is what it managed, not the target
            elapsed = max(tally.last_done, measure_from) - measure_from
            cpu_after, client_after = server_cpu(server), time.process_time()
        finally:
            server.stop()
        log = read_events(log_path)
        with AuditStore(db_url) as store:
            rows = store.count() - before
    measured = sum(tally.statuses.values())
    errors = measured - tally.statuses.get("200", 0)
    lat = tally.latencies
    return {
        "generator": "python",
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



def read_cpu() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far (Linux /proc/stat)."""
    try:
        fields = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    except (OSError, ValueError, IndexError):
        return 0.0, 0.0
    tick = os.sysconf("SC_CLK_TCK")
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return (sum(fields) - idle) / tick, sum(fields) / tick


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def make_server(args: argparse.Namespace, root: Path, policy: str) -> tuple[LiveServer, str, Path]:
    (root / "policies").mkdir()
    (root / "policies" / "load.yaml").write_text(policy)
    db_url = args.db or f"sqlite:///{root / 'redline.db'}"
    log_path = root / "redline.decisions.jsonl"
    server = LiveServer(
        root / "policies", db_url, log_path, root / "server.log",
        args=("--workers", str(args.workers), "--log-max-bytes", str(1 << 31)),
    )  # fmt: skip
    return server, db_url, log_path


def pin_server(server: LiveServer, cpus: set[int]) -> None:
    """Every thread of the server's processes (workers too) on `cpus`; threads started
    later inherit it from the thread that starts them."""
    for pid in server_pids(server):
        for task in Path(f"/proc/{pid}/task").iterdir():
            os.sched_setaffinity(int(task.name), cpus)


def split_cpus(workers: int) -> tuple[set[int], set[int]]:
    """(the server's CPUs, the generator's): the last `workers` CPUs and the rest."""
    cpus = sorted(os.sched_getaffinity(0))
    if workers >= len(cpus):
        raise SystemExit(f"--pin needs fewer workers than CPUs ({workers} workers, {len(cpus)} CPUs)")
    return set(cpus[-workers:]), set(cpus[:-workers])


def run_wrk(args: argparse.Namespace, server: LiveServer, root: Path, texts: list[str], seconds: float,
            rate: float) -> dict[str, Any]:  # fmt: skip
    """One wrk run; its summary, and per response (status, latency µs), and the 200s' ids."""
    bodies = root / "bodies.jsonl"
    if not bodies.exists():
        with bodies.open("w") as out:
            for text in texts:
                out.write(json.dumps({"policy": "load-bench", "text": text, "confidence": 90}) + "\n")
    out_path = root / "wrk-out.jsonl"
    env = {
        **os.environ,
        "RL_BODIES": str(bodies),
        "RL_TOKEN": server.tokens["client"],
        "RL_RATE": str(rate / args.connections if rate else 0),
        "RL_OUT": str(out_path),
    }
    command = [
        "wrk", "-t", str(args.connections), "-c", str(args.connections), "-d", f"{seconds:.0f}s",
        "--timeout", "10s", "-s", str(WRK_SCRIPT), server.url + "/v1/check",
    ]  # fmt: skip
    generator = args.generator_cpus

    def pinned() -> None:
        if generator:
            os.sched_setaffinity(0, generator)

    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=seconds + 60, preexec_fn=pinned)
    if done.returncode != 0 or not out_path.exists():
        raise RuntimeError(f"wrk failed ({done.returncode}): {done.stderr or done.stdout}")
    lines = [json.loads(line) for line in out_path.read_text().splitlines()]
    summary = lines[0]["summary"]
    latencies = [pair for line in lines[1:] for pair in line["latencies"]]
    ids = [i for line in lines[1:] for i in line["ids"] if i]
    return {"summary": summary, "latencies": latencies, "ids": ids}


def recorded_ids(db_url: str) -> set[str]:
    from sqlalchemy import text as sql

    with AuditStore(db_url) as store, store.engine.connect() as conn:
        return {row[0] for row in conn.execute(sql("SELECT id FROM decisions"))}


class ReferenceServer(LiveServer):
    """`reference_app.py` under uvicorn, started and stopped as a LiveServer is (the app
    answers every request 200, so the wait for /healthz serves it as it is)."""

    def __init__(self, root: Path, work_ms: float) -> None:
        super().__init__(root, "sqlite://", root / "unused.jsonl", root / "server.log",
                         env={"REDLINE_REFERENCE_WORK_MS": str(work_ms)})  # fmt: skip

    def command(self) -> list[str]:
        return [
            sys.executable, "-m", "uvicorn", "reference_app:app", "--app-dir", str(Path(__file__).resolve().parent),
            "--host", "127.0.0.1", "--port", str(self.port), "--http", "httptools", "--no-access-log",
            "--no-server-header", "--log-level", "warning",
        ]  # fmt: skip


def run_with_wrk(args: argparse.Namespace, policy: str, texts: list[str]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="redline-load-") as tmp:
        root = Path(tmp)
        reference = args.reference_app is not None
        if reference:
            server: LiveServer = ReferenceServer(root, args.reference_app)
            db_url, log_path = "", root / "unused.jsonl"
        else:
            server, db_url, log_path = make_server(args, root, policy)
        server.run()
        if args.pin:
            serving, args.generator_cpus = split_cpus(args.workers)
            pin_server(server, serving)
        before = set() if reference else recorded_ids(db_url)  # --db may hold rows already
        try:
            warm = run_wrk(args, server, root, texts, args.warmup, args.rate)
            cpu_before, client_before, machine_before = server_cpu(server), children_cpu(), read_cpu()
            load_before = Path("/proc/loadavg").read_text().split()[:3]
            with StallWatch() as stalls:
                result = run_wrk(args, server, root, texts, args.duration, args.rate)
            cpu_after, client_after, machine_after = server_cpu(server), children_cpu(), read_cpu()
        finally:
            server.stop()
        rows = set() if reference else recorded_ids(db_url) - before
        log_ids = set() if reference else {e["id"] for e in read_events(log_path).events}
    summary = result["summary"]
    elapsed = summary["duration_us"] / 1e6
    statuses: dict[str, int] = {}
    for status, _ in result["latencies"]:
        statuses[str(status)] = statuses.get(str(status), 0) + 1
    lat = [us / 1e6 for status, us in result["latencies"] if status == 200]
    acked = set(warm["ids"]) | set(result["ids"])
    measured = len(result["latencies"])
    server_s = cpu_after - cpu_before if cpu_before is not None and cpu_after is not None else None
    client_s = client_after - client_before
    busy = machine_after[0] - machine_before[0]
    window = machine_after[1] - machine_before[1]
    cores = os.cpu_count() or 1
    others = busy - (server_s or 0.0) - client_s
    recorded = None if reference else not (acked - rows) and not (acked - log_ids)
    return {
        "generator": "wrk",
        "server": f"reference app, {args.reference_app} ms of work per request" if reference else "redline serve",
        "workers": args.workers,
        "connections": args.connections,
        "backend": None if reference else "postgresql" if db_url.startswith("postgresql") else "sqlite",
        "rate_target": args.rate or None,
        "pinned": bool(args.pin),
        "duration_s": round(elapsed, 2),
        "requests": measured,
        "throughput_per_s": round(statuses.get("200", 0) / elapsed, 1) if elapsed > 0 else 0.0,
        "p50_ms": round(percentile(lat, 0.50) * 1e3, 2),
        "p90_ms": round(percentile(lat, 0.90) * 1e3, 2),
        "p99_ms": round(percentile(lat, 0.99) * 1e3, 2),
        "max_ms": round(max(lat) * 1e3, 2) if lat else None,
        "errors": measured - statuses.get("200", 0) + summary["connect_errors"] + summary["read_errors"]
        + summary["write_errors"] + summary["timeouts"],
        "statuses": statuses,
        "acknowledged": len(acked),
        "acknowledged_without_row": None if reference else len(acked - rows),
        "acknowledged_without_log_line": None if reference else len(acked - log_ids),
        "rows_never_answered": None if reference else len(rows - acked),  # cut off when wrk stopped
        "all_recorded": recorded,
        "server_cpu_ms_per_check": round(server_s * 1e3 / measured, 3) if server_s is not None and measured else None,
        "generator_cores": round(client_s / elapsed, 3) if elapsed else None,
        "server_cores": round(server_s / elapsed, 3) if server_s is not None and elapsed else None,
        "other_load_cores": round(max(others, 0.0) / (window / cores), 3) if window else None,
        "loadavg_before": load_before,
        "cpus": cores,
        "machine_stalls": stalls.summary(),
        "machine_slowdowns": stalls.slowdowns(),
    }


class StallWatch:
    """How the machine itself behaves during a run, in a thread of this (otherwise idle)
    process. Two things are watched, because a shared machine shows two kinds of trouble:

    - stalls: the thread asks to sleep 1 ms, again and again, and counts how much longer
      each sleep took (the thread was not scheduled). On a quiet shared machine a few
      sleeps in ten seconds overrun by 5-15 ms.
    - slowdowns: every 10 ms it runs the same small loop of arithmetic (~0.1 ms) and
      takes the CPU time it cost. A virtual CPU can stay scheduled and yet run several
      times slower for a while (the host's other work); the guest sees no steal time,
      and a thread's CPU time grows with the slowdown. `slow_share` is the share of
      loops that cost over 3x the median, `episodes_per_s` how often such a slow spell
      began (loops within 50 ms of each other are one spell), `worst_x` the worst ratio.
      Every thread on the machine, the server's and the generator's, slows with it, so
      a run's tail is read beside these figures.
    """

    UNIT_EVERY = 10  # one loop of arithmetic per this many sleeps
    SLOW_X = 3.0
    SPELL_GAP_S = 0.05

    def __init__(self) -> None:
        self.overruns: list[float] = []
        self.units: list[tuple[float, float]] = []  # (when, CPU seconds of the loop)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="stall-watch", daemon=True)
        self._started = 0.0
        self._stopped = 0.0

    def __enter__(self) -> StallWatch:
        self._started = time.perf_counter()
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()
        self._stopped = time.perf_counter()

    def _watch(self) -> None:
        sleeps = 0
        while not self._stop.is_set():
            started = time.perf_counter()
            time.sleep(0.001)
            self.overruns.append((time.perf_counter() - started - 0.001) * 1e3)
            sleeps += 1
            if sleeps % self.UNIT_EVERY == 0:
                self.units.append((time.perf_counter(), _arithmetic_cpu_s()))

    def summary(self) -> dict[str, float | int]:
        over = sorted(self.overruns) or [0.0]
        return {"max_ms": round(over[-1], 1), "p999_ms": round(over[int(0.999 * (len(over) - 1))], 2),
                "over_5ms": sum(o > 5 for o in over), "over_20ms": sum(o > 20 for o in over)}  # fmt: skip

    def slowdowns(self) -> dict[str, float | int]:
        if not self.units:
            return {"unit_us": 0.0, "slow_share": 0.0, "episodes_per_s": 0.0, "worst_x": 0.0}
        median = statistics.median(cpu for _, cpu in self.units)
        slow = [when for when, cpu in self.units if cpu > self.SLOW_X * median]
        spells = sum(1 for i, when in enumerate(slow) if i == 0 or when - slow[i - 1] > self.SPELL_GAP_S)
        seconds = max(self._stopped - self._started, 1e-9)
        return {
            "unit_us": round(median * 1e6, 1),
            "slow_share": round(len(slow) / len(self.units), 3),
            "episodes_per_s": round(spells / seconds, 2),
            "worst_x": round(max(cpu for _, cpu in self.units) / median, 1) if median else 0.0,
        }


def _arithmetic_cpu_s(rounds: int = 1500) -> float:
    """The CPU time of a fixed loop of integer arithmetic (~0.1 ms): the machine's speed now."""
    started = time.thread_time()
    total = 0
    for i in range(rounds):
        total += i * i
    return time.thread_time() - started


def reference_check_us(policy: str, texts: list[str], reps: int = 5) -> float:
    """The machine's speed now, in the figures' own terms: the median time of one
    `Gate.check` (the same policy and texts) in this process, no server, no I/O. The
    machine's speed drifts through the day (the same code served 3,600 and 1,900
    checks/s an hour apart here); this, taken just before and just after a run, says which
    machine a run's figures were measured on (docs/service.md, "Performance")."""
    from redline import Gate, Policy

    gate = Gate(Policy.model_validate(yaml.safe_load(policy)))
    sample = texts[:200]
    for text in sample:
        gate.check(text, None, 90)
    times = []
    for _ in range(reps):
        for text in sample:
            started = time.perf_counter_ns()
            gate.check(text, None, 90)
            times.append(time.perf_counter_ns() - started)
    return statistics.median(times) / 1e3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--generator", choices=("wrk", "python"), default="wrk" if shutil.which("wrk") else "python")
    parser.add_argument("--duration", type=float, default=20.0, help="measured seconds (after the warm-up)")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--max-requests", type=int, default=200_000, help="python generator: at most this many")
    parser.add_argument("--connections", "--threads", type=int, default=8, help="connections (wrk) or client threads")
    parser.add_argument("--rate", type=float, default=0.0, help="target checks/s in all (0: as fast as possible)")
    parser.add_argument("--workers", type=int, default=1, help="uvicorn worker processes")
    parser.add_argument("--db", default=None, help="a database URL (default: a fresh SQLite file)")
    parser.add_argument("--rules", type=int, default=100)
    parser.add_argument("--text-bytes", type=int, default=1024)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pin", action="store_true", help="wrk generator: the server on the last CPU(s), wrk on the rest")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--reference-app", type=float, default=None, metavar="WORK_MS",
                        help="load reference_app.py (fixed work costing WORK_MS of CPU per request) instead of redline")  # fmt: skip
    args = parser.parse_args()
    args.threads = args.connections
    args.generator_cpus = set()
    if args.pin and args.generator != "wrk":
        parser.error("--pin is for the wrk generator")
    if args.pin:
        split_cpus(args.workers)  # refuse before anything starts
    if args.reference_app is not None and (args.generator != "wrk" or args.workers != 1 or args.reference_app < 0):
        parser.error("--reference-app takes a CPU time in ms (0 or more) and runs with wrk and one worker")
    rng = random.Random(args.seed)
    policy, terms = make_policy(rng, args.rules)
    texts = make_texts(rng, terms, 500, args.text_bytes)
    reference = [reference_check_us(policy, texts)]
    result = run_with_wrk(args, policy, texts) if args.generator == "wrk" else run(args, policy, texts)
    reference.append(reference_check_us(policy, texts))
    result["reference_check_us"] = [round(r, 1) for r in reference]
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>28}: {value}")
    ok = result["errors"] == 0 and result["all_recorded"] is not False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
