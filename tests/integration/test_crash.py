"""kill -9 mid-stream: every check that got a 200 has its audit row and its log line.

A client sends checks one after another and keeps the ids that got a 200. The server is
killed with SIGKILL while the client is sending (twice), restarted on the same database
and decision log, and then every 200'd id must be found in both. The log reader may see
at most one torn line (the last), and no line before it may be missing or broken.
"""

from __future__ import annotations

import random
import shutil
import threading
import time
from pathlib import Path

import httpx

from redline.service.testing import LiveServer
from redline.store.decision_log import read_events

ROOT = Path(__file__).parent.parent.parent
TEXTS = [
    "I have approved a full refund for order {n}.",
    "Thanks for your patience with ticket {n}, we are looking into it.",
    "My password is Tr0ub4dor&3xyz{n}!",
    "Ticket {n}: the customer did not ask for a refund.",
]


def _send_until_it_fails(server: LiveServer, acked: list[str], stop: threading.Event) -> None:
    with httpx.Client(base_url=server.url, timeout=10, headers=server.auth("client")) as http:
        n = len(acked)
        while not stop.is_set():
            n += 1
            body = {"policy": "example-support", "text": TEXTS[n % len(TEXTS)].format(n=n), "confidence": 90}
            try:
                reply = http.post("/v1/check", json=body)
            except httpx.HTTPError:
                return  # the server is gone
            if reply.status_code == 200:
                acked.append(reply.json()["id"])


def test_every_acknowledged_check_survives_a_kill_9(tmp_path: Path) -> None:
    policies = tmp_path / "policies"
    policies.mkdir()
    shutil.copy(ROOT / "examples" / "policy.yaml", policies / "example.yaml")
    log_path = tmp_path / "redline.decisions.jsonl"
    server = LiveServer(policies, f"sqlite:///{tmp_path / 'redline.db'}", log_path, tmp_path / "server.log")
    acked: list[str] = []
    rng = random.Random(7)
    try:
        for _round in range(2):
            server.run()
            stop = threading.Event()
            before = len(acked)
            client = threading.Thread(target=_send_until_it_fails, args=(server, acked, stop))
            client.start()
            deadline = time.monotonic() + 30
            while len(acked) - before < 100 and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(rng.uniform(0.0, 0.05))  # land the kill at a random point of a request
            server.kill()
            stop.set()
            client.join(timeout=30)
            assert len(acked) - before >= 100, server.tail()
        server.run()
        with httpx.Client(base_url=server.url, timeout=10, headers=server.auth("expert")) as http:
            missing_rows = [i for i in acked if http.get(f"/v1/audit/{i}").status_code != 200]
    finally:
        server.stop()
    assert missing_rows == [], f"{len(missing_rows)} of {len(acked)} acknowledged checks have no audit row"

    log = read_events(log_path)
    assert log.bad == [], [str(b) for b in log.bad]
    assert log.torn <= 1
    logged = [event["id"] for event in log.events]
    missing_lines = set(acked) - set(logged)
    assert not missing_lines, f"{len(missing_lines)} acknowledged checks have no log line"
    position = {decision_id: index for index, decision_id in enumerate(logged)}
    order = [position[i] for i in acked]
    assert order == sorted(order), "the log holds the acknowledged checks in the order they were made"
