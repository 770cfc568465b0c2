"""How fast the workspace's pages answer, beside the JSON queue route, in one run.

    python benchmarks/workspace_bench.py [--pending 1000] [--repeat 30]

Starts a real server (SQLite file, the example policy) in a subprocess, holds PENDING
drafts through `POST /v1/check`, signs in as an Expert, then times (medians over REPEAT
requests, one client on loopback): the queue page (every pending item counted, 200
rows rendered), `GET /v1/queue?limit=200` (the JSON route, for the ratio), one item
view (lease taken, spans highlighted) and one audit page (50 rows). Other processes may
load the machine: read the ratios, not the absolute numbers.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

from redline.service.testing import LiveServer

ROOT = Path(__file__).parent.parent
DRAFTS = [
    "Good news: I have approved a full refund for order {n}.",
    "Your colleague said there is no lawsuit about order {n}; I can confirm a refund.",
    "Thanks for waiting on order {n}: the billing team will write to you today.",
]


def median_ms(client: httpx.Client, path: str, repeat: int, **kwargs: object) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        reply = client.get(path, **kwargs)  # type: ignore[arg-type]
        times.append((time.perf_counter() - started) * 1e3)
        reply.raise_for_status()
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pending", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="redline-ws-bench-"))
    (root / "policies").mkdir()
    shutil.copy(ROOT / "examples" / "policy.yaml", root / "policies" / "example.yaml")
    try:
        with LiveServer.start(policies_dir=root / "policies", db_url=f"sqlite:///{root / 'r.db'}",
                              log_path=root / "log.jsonl", output=root / "server.log") as server:  # fmt: skip
            with httpx.Client(base_url=server.url, timeout=30) as api:
                for n in range(args.pending):
                    body = {"policy": "example-support", "text": DRAFTS[n % len(DRAFTS)].format(n=n)}
                    api.post("/v1/check", headers=server.auth("client"), json=body).raise_for_status()
            with httpx.Client(base_url=server.url, timeout=30) as web:
                form = web.get("/workspace/login")
                csrf = re.search(r'name="csrf_token" value="([^"]+)"', form.text).group(1)  # type: ignore[union-attr]
                web.post("/workspace/login", data={"token": server.tokens["expert"], "csrf_token": csrf})
                queue = median_ms(web, "/workspace/", args.repeat)
                json_queue = median_ms(web, "/v1/queue", args.repeat, params={"limit": 200},
                                       headers=server.auth("expert"))  # fmt: skip
                item = median_ms(web, "/workspace/items/1", args.repeat)
                audit = median_ms(web, "/workspace/audit", args.repeat)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"pending items: {args.pending}, requests per route: {args.repeat}")
    print(f"queue page          median {queue:8.2f} ms")
    print(f"GET /v1/queue (200) median {json_queue:8.2f} ms   queue page / JSON = {queue / json_queue:.2f}")
    print(f"item view           median {item:8.2f} ms")
    print(f"audit page (50)     median {audit:8.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
