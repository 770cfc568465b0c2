"""Several processes share one decision log: every line whole, none lost, across rotations."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path
from typing import Any

from redline.store.decision_log import DecisionLog, log_files, read_events
from redline.types import Decision, Finding, Outcome, RiskLevel, Severity, Status

PROCESSES = 4
PER_PROCESS = 2_000
MAX_BYTES = 64 * 1024
BACKUPS = 1_000  # enough to keep every line, so none may be missing


def _decision(worker: int, n: int) -> Decision:
    return Decision(
        id=f"w{worker}-{n:05d}",
        outcome=Outcome.ESCALATE,
        reason="red_line_violation",
        risk_level=RiskLevel.HIGH,
        findings=(Finding("billing:no-refund-promise", Severity.BLOCK, 0, 6, "refund", Status.AFFIRMED, None),),
        suppressed=(),
        policy_name="acme-support",
        policy_hash="sha256:abc",
        timings_ms={"total": 0.25},
        layers={"screen": {"verdict": "violates", "hits": 1}, "judge": None, "agreement": None},
    )


def _writer(path: str, worker: int, start: Any, results: Any) -> None:
    log = DecisionLog(path, max_bytes=MAX_BYTES, backups=BACKUPS)
    # multi-byte characters and a scrubbed email make lines long and not ASCII
    text = f"refund for worker {worker}, write to maria@example.com — ünïcødé ✓ " + "x" * (40 * worker)
    start.wait()
    for n in range(PER_PROCESS):
        log.write(_decision(worker, n), f"{text} #{n}")
    log.close()
    results.put(log.stats())


def test_four_processes_writing_one_rotating_log_lose_and_tear_no_line(tmp_path: Path) -> None:
    path = str(tmp_path / "redline.decisions.jsonl")
    ctx = multiprocessing.get_context("spawn")
    start = ctx.Barrier(PROCESSES)
    results = ctx.Queue()
    workers = [ctx.Process(target=_writer, args=(path, w, start, results)) for w in range(PROCESSES)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
    assert [w.exitcode for w in workers] == [0] * PROCESSES
    stats = [results.get(timeout=10) for _ in workers]

    assert sum(s["failures"] for s in stats) == 0, [s["last_error"] for s in stats]
    assert sum(s["writes"] for s in stats) == PROCESSES * PER_PROCESS
    assert sum(s["rotations"] for s in stats) > 10  # the test must actually exercise rotation

    files = log_files(path)
    total_lines = blank = 0
    for file in files:  # every line of every file is a whole event: nothing interleaved or torn
        data = Path(file).read_bytes()
        # Writers do not wait for the rotation lock, so a file grows past max_bytes while
        # its rotator is descheduled; a writer stuck on a rotated file would grow it far more.
        assert len(data) < 16 * MAX_BYTES, f"{file} holds {len(data)} bytes"
        assert data.endswith(b"\n"), file
        for number, line in enumerate(data.split(b"\n")[:-1], 1):
            if not line:  # a writer that opened a file mid-append may end "its" torn tail
                blank += 1
                continue
            event = json.loads(line)
            assert event["schema_version"] == "redline.decision/v1", f"{file}:{number}"
            assert "maria@example.com" not in event["text_excerpt"]
            total_lines += 1
    assert total_lines == PROCESSES * PER_PROCESS
    assert blank <= 2

    result = read_events(path)
    assert (result.torn, result.bad) == (0, [])
    ids = [e["id"] for e in result.events]
    assert len(ids) == len(set(ids)) == PROCESSES * PER_PROCESS
    for w in range(PROCESSES):  # each writer's own lines stay in its order, oldest file first
        own = [i for i in ids if i.startswith(f"w{w}-")]
        assert own == [f"w{w}-{n:05d}" for n in range(PER_PROCESS)]
