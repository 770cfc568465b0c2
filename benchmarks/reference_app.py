"""A reference server for `load_bench.py --reference-app WORK_MS`: the machine's own curve.

An ASGI app with nothing of redline in it: it reads the request, does a FIXED amount of
integer arithmetic (calibrated once at start to cost WORK_MS of CPU), and answers a small
JSON body with a fresh id, on the same uvicorn, event loop and HTTP parser as `redline
serve`. Run under the same wrk protocol, it says what latency ANY single-process Python
server of that CPU cost per request gets on this machine at this moment, so that a
server's tail can be read against it: a tail the reference shares is the machine's.

The work is a fixed count of operations, not a fixed CPU time: when the machine runs
slower for a while (see `StallWatch` in load_bench.py), the reference slows exactly as
real work does. A CPU-time budget would hide that.

    REDLINE_REFERENCE_WORK_MS=0.4 uvicorn reference_app:app --app-dir benchmarks
"""

from __future__ import annotations

import json
import os
import statistics
import time
import uuid
from typing import Any

WORK_ENV = "REDLINE_REFERENCE_WORK_MS"
_PROBE_ROUNDS = 20_000


def _work(rounds: int) -> int:
    total = 0
    for i in range(rounds):
        total += i * i
    return total


def calibrate(work_ms: float) -> int:
    """The rounds of `_work` that cost `work_ms` of CPU here (the median of 15 probes)."""
    costs = []
    for _ in range(15):
        started = time.thread_time()
        _work(_PROBE_ROUNDS)
        costs.append(time.thread_time() - started)
    return max(0, round(_PROBE_ROUNDS * (work_ms / 1e3) / statistics.median(costs)))


ROUNDS = calibrate(float(os.environ.get(WORK_ENV, "0")))


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":  # lifespan: nothing to start
        if scope["type"] == "lifespan":
            while (message := await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
        return
    more = True
    while more:
        message = await receive()
        more = message.get("more_body", False)
    _work(ROUNDS)
    body = json.dumps({"id": uuid.uuid4().hex, "outcome": "execute"}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": body})
