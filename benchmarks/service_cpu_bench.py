"""CPU per check of the service's own code: the ASGI app driven in process, no HTTP.

    python benchmarks/service_cpu_bench.py                    # 5 rounds of 5,000 checks, 32 callers
    python benchmarks/service_cpu_bench.py --rounds 9 --json
    PYTHONPATH=/other/tree/src python benchmarks/service_cpu_bench.py   # the same for another tree

`load_bench.py` measures the server over HTTP, where the machine's noise (the same code
swings by a third between two minutes) hides a change of a few percent. This one builds
the app exactly as `redline serve` does (`create_app`: the policy registry, the review
flags, the decision log, the SQLite audit store and its writer thread), starts its
lifespan, and has `--callers` coroutines call it with `POST /v1/check` requests as
uvicorn would hand them over (the load benchmark's policy and ~1 KB texts, a client
token), so the check shortcut, the gate, the log line, the audit row and its commit all
run. It reports the CPU time per check of the whole process and of its two busy
threads (the event loop and the audit writer), from /proc, per round and as medians.
Run two trees alternately in one window to compare them. Every check must answer 200
and have its audit row; the script fails otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_bench import make_policy, make_texts  # noqa: E402  (the same policy and texts)

from redline.service.app import create_app  # noqa: E402
from redline.service.settings import Role, Settings, TokenHash  # noqa: E402
from redline.store.sql import AuditStore  # noqa: E402

TOKEN = "service-cpu-bench-token-0123456789"


def thread_cpu() -> dict[str, float]:
    """CPU seconds of each thread of this process, by `tid:name` (Linux /proc)."""
    out: dict[str, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for tid in os.listdir("/proc/self/task"):
        try:
            stat = Path(f"/proc/self/task/{tid}/stat").read_text()
            name = Path(f"/proc/self/task/{tid}/comm").read_text().strip()
        except OSError:  # the thread ended
            continue
        fields = stat.rsplit(")", 1)[1].split()
        out[f"{tid}:{name}"] = (int(fields[11]) + int(fields[12])) / tick
    return out


def request(body: bytes) -> dict[str, Any]:
    headers = [(b"host", b"bench"), (b"content-type", b"application/json"),
               (b"authorization", f"Bearer {TOKEN}".encode()), (b"content-length", str(len(body)).encode())]  # fmt: skip
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
            "path": "/v1/check", "raw_path": b"/v1/check", "query_string": b"", "headers": headers,
            "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8000), "root_path": "", "state": {}}  # fmt: skip


async def drive(app: Any, bodies: list[bytes], checks: int, callers: int) -> dict[int, int]:
    """`checks` requests from `callers` coroutines at once; the count of each status."""
    left = [checks]
    statuses: dict[int, int] = {}

    async def caller(k: int) -> None:
        while left[0] > 0:
            left[0] -= 1
            body = bodies[k % len(bodies)]
            k += callers
            delivered = False

            async def receive() -> dict[str, Any]:
                nonlocal delivered
                if not delivered:
                    delivered = True
                    return {"type": "http.request", "body": body, "more_body": False}
                await asyncio.Event().wait()  # the client stays: no disconnect
                raise AssertionError("unreachable")

            async def send(message: dict[str, Any]) -> None:
                if message["type"] == "http.response.start":
                    statuses[message["status"]] = statuses.get(message["status"], 0) + 1

            await app(request(body), receive, send)

    await asyncio.gather(*(caller(i) for i in range(callers)))
    return statuses


async def bench(app: Any, bodies: list[bytes], args: argparse.Namespace) -> list[dict[str, Any]]:
    events: asyncio.Queue[dict[str, str]] = asyncio.Queue()
    started = asyncio.Event()
    await events.put({"type": "lifespan.startup"})

    async def lifespan_send(message: dict[str, Any]) -> None:
        if message["type"] == "lifespan.startup.complete":
            started.set()
        elif message["type"] == "lifespan.startup.failed":
            raise SystemExit(f"the app did not start: {message.get('message')}")

    lifespan = asyncio.create_task(app({"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}, events.get, lifespan_send))
    await started.wait()
    await drive(app, bodies, args.checks, args.callers)  # warm-up
    rounds = []
    for index in range(args.rounds):
        before, cpu_before, wall_before = thread_cpu(), time.process_time(), time.perf_counter()
        statuses = await drive(app, bodies, args.checks, args.callers)
        after, cpu_after, wall_after = thread_cpu(), time.process_time(), time.perf_counter()
        if statuses != {200: args.checks}:
            raise SystemExit(f"round {index + 1}: answers {statuses}, expected {args.checks} x 200")
        used = {name: after[name] - before.get(name, 0.0) for name in after}
        busy = sorted(used, key=used.__getitem__, reverse=True)
        loop = next(name for name in busy if name.split(":", 1)[0] == str(os.getpid()))  # the main thread
        writer = next(name for name in busy if name != loop)  # the busiest other: the audit writer
        rounds.append({
            "cpu_us_per_check": (cpu_after - cpu_before) / args.checks * 1e6,
            "loop_us_per_check": used[loop] / args.checks * 1e6,
            "writer_us_per_check": used[writer] / args.checks * 1e6,
            "wall_us_per_check": (wall_after - wall_before) / args.checks * 1e6,
        })  # fmt: skip
        print(f"round {index + 1}: " + ", ".join(f"{k} {v:.1f}" for k, v in rounds[-1].items()), file=sys.stderr)
    await events.put({"type": "lifespan.shutdown"})
    await lifespan
    return rounds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--checks", type=int, default=5000, help="checks per round (after a warm-up of as many)")
    parser.add_argument("--callers", type=int, default=32, help="requests in flight at once")
    parser.add_argument("--rules", type=int, default=100)
    parser.add_argument("--text-bytes", type=int, default=1024)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    policy, terms = make_policy(rng, args.rules)
    bodies = [json.dumps({"policy": "load-bench", "text": text, "confidence": 90}).encode()
              for text in make_texts(rng, terms, 500, args.text_bytes)]  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="redline-cpu-") as tmp:
        root = Path(tmp)
        (root / "policies").mkdir()
        (root / "policies" / "load.yaml").write_text(policy)
        db_url = f"sqlite:///{root / 'redline.db'}"
        settings = Settings(
            db_url=db_url, policies_dir=root / "policies", log_path=root / "redline.decisions.jsonl",
            tokens=(TokenHash(role=Role.CLIENT, sha256=hashlib.sha256(TOKEN.encode()).hexdigest()),),
            reload_interval_s=0, log_max_bytes=1 << 31,
        )  # fmt: skip
        rounds = asyncio.run(bench(create_app(settings), bodies, args))
        store = AuditStore(db_url)
        try:
            stored = store.count()
        finally:
            store.close()
    expected = args.checks * (args.rounds + 1)
    if stored != expected:
        print(f"FAIL: {stored} audit rows for {expected} checks answered 200", file=sys.stderr)
        return 1
    summary = {key: statistics.median(r[key] for r in rounds) for key in rounds[0]}
    if args.json:
        print(json.dumps({"rounds": rounds, "median": summary, "checks": args.checks, "callers": args.callers}))
    else:
        print(f"{args.rounds} rounds of {args.checks:,} checks, {args.callers} callers; medians per check:")
        for key, value in summary.items():
            print(f"  {key}: {value:.1f} µs")
        print(f"  audit rows: {stored:,} of {expected:,} checks (every one stored)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
