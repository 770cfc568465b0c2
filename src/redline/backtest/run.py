"""`run_backtest`: what a policy change would have done to a corpus or a decision log.

    result = run_backtest("new.yaml", "history.jsonl", baseline="old.yaml", engine="local")
    result.report["changes"]      # newly_held, newly_passed, stricter, looser, ...
    result.report["rules"]        # per rule: fired and hit counts on both sides, the diff
    result.run                    # engine, workers, seconds, drafts per second, start-up

The driver cuts the input into chunks and merges what the workers make of them; the
diff lines of `out` are written in input order, to a temporary file renamed into place
at the end, so an interrupted run leaves no half-written diff behind.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Literal

from redline import __version__
from redline.backtest.inputs import CHUNK_LINES, Chunk, Source, chunks, open_source
from redline.backtest.local import available_cpus, run_local
from redline.backtest.partial import Partial
from redline.backtest.report import build_report
from redline.backtest.review import load_reviews
from redline.backtest.worker import RunSpec
from redline.errors import RedlineError
from redline.policy import load_policy

Engine = Literal["local", "ray"]
Progress = Callable[[int, int, int], None]  # (lines read, lines in all, drafts checked)


@dataclass(frozen=True, slots=True)
class BacktestResult:
    report: dict[str, Any]  # identical for every engine
    run: dict[str, Any]  # engine, workers, seconds, drafts_per_s, startup_s

    def to_dict(self) -> dict[str, Any]:
        return {**self.report, "run": self.run}


class _Collector:
    """Merges partials and writes their diff lines in input order, whatever order they
    arrive in (Ray returns chunks as they finish)."""

    def __init__(self, out: IO[str] | None, lines: int, progress: Progress | None) -> None:
        self.total = Partial()
        self._out = out
        self._waiting: dict[int, list[str]] = {}
        self._next = 0
        self._lines = lines
        self._progress = progress
        self.first_at: float | None = None
        self.first_drafts = 0  # in the first partial: what came before `first_at`

    def __call__(self, part: Partial) -> None:
        if self.first_at is None:
            self.first_at = time.perf_counter()
            self.first_drafts = part.drafts
        if part.version != __version__:
            raise RedlineError(f"a worker runs redline {part.version}, this driver {__version__}: install one version")
        self.total.merge(part)
        if self._out is not None:
            self._waiting[part.seq] = part.diff
            while self._next in self._waiting:
                self._out.writelines(self._waiting.pop(self._next))
                self._next += 1
        if self._progress is not None:
            self._progress(self.total.lines, self._lines, self.total.drafts)


def run_backtest(
    policy: str | os.PathLike[str],
    input_path: str | os.PathLike[str],
    *,
    baseline: str | os.PathLike[str] | None = None,
    engine: Engine = "local",
    workers: int | None = None,
    address: str | None = None,
    out: str | os.PathLike[str] | None = None,
    report_db: str | None = None,
    confidence: float | None = None,
    progress: Progress | None = None,
    chunk_lines: int = CHUNK_LINES,
) -> BacktestResult:
    """Re-check every draft of `input_path` with `policy` (and `baseline`). `report_db`,
    an audit-store URL, adds the promotion report. Raises RedlineError for a policy, an
    input or a store that cannot be used, before any draft is checked."""
    began = time.perf_counter()
    new_policy = load_policy(policy)
    old_policy = load_policy(baseline) if baseline is not None else None
    source = open_source(input_path)
    review, reviews = load_reviews(report_db) if report_db is not None else (None, None)
    spec = RunSpec(
        kind=source.kind,
        files=source.files,
        policy=new_policy,
        baseline=old_policy,
        confidence=confidence,
        reviews=reviews,
        diff=out is not None,
        version=__version__,
    )
    target = Path(out) if out is not None else None
    handle: IO[str] | None = None
    if target is not None:
        try:
            handle = tempfile.NamedTemporaryFile(
                "w", encoding="utf-8", dir=target.parent or ".", prefix=f".{target.name}.", delete=False
            )
        except OSError as exc:
            raise RedlineError(f"{target}: cannot write the diff there: {exc.strerror or exc}") from exc
    collector = _Collector(handle, source.lines, progress)
    try:
        run = _execute(spec, chunks(source, chunk_lines), engine, workers, address, collector, source.lines, chunk_lines)
        if handle is not None and target is not None:
            handle.close()
            os.replace(handle.name, target)
    finally:
        if handle is not None and not handle.closed:
            handle.close()
        if handle is not None and os.path.exists(handle.name):
            os.unlink(handle.name)
    ended = time.perf_counter()
    work = run.pop("work_s")
    after_first = ended - collector.first_at if collector.first_at is not None else 0.0
    run.update(
        first_result_s=round(collector.first_at - began, 3) if collector.first_at is not None else None,
        seconds=round(ended - began, 3),
        drafts_per_s=round(collector.total.drafts / work, 1) if work > 0 else None,
        # the rate once results flow: Ray's actors start inside the work, the local workers before it
        steady_drafts_per_s=round((collector.total.drafts - collector.first_drafts) / after_first, 1)
        if after_first > 0 else None,
    )
    report = build_report(
        collector.total,
        source,
        (os.fspath(policy), new_policy),
        (os.fspath(baseline), old_policy) if baseline is not None and old_policy is not None else None,
        review,
    )
    return BacktestResult(report, run)


def _execute(
    spec: RunSpec,
    parts: Iterator[Chunk],
    engine: Engine,
    workers: int | None,
    address: str | None,
    collector: _Collector,
    source_lines: int,
    chunk_lines: int,
) -> dict[str, Any]:
    """Run the engine; returns what `run` reports (with `work_s`, the time after start-up)."""
    started = time.perf_counter()
    ready: list[float] = []
    if engine == "local":
        if address is not None:
            raise RedlineError("--address is for --engine ray; the local engine runs on this machine")
        # never more processes than chunks: a worker with nothing to check is only start-up
        count = min(workers or available_cpus(), max(1, -(-source_lines // chunk_lines)))
        run_local(spec, parts, count, collector, on_ready=lambda: ready.append(time.perf_counter()))
        return {"engine": "local", "workers": count, "startup_s": round(ready[0] - started, 3),
                "work_s": time.perf_counter() - ready[0]}  # fmt: skip
    if engine != "ray":
        raise RedlineError(f"engine {engine!r}: use local or ray")
    from redline.backtest import ray_engine

    connection = ray_engine.connect(address, workers)
    connected = time.perf_counter()
    try:
        actors = ray_engine.run_ray(spec, parts, connection, workers, collector)
    finally:
        ray_engine.disconnect(connection)
    # Ray builds its actors lazily, inside the run: start-up here is joining the cluster
    return {"engine": "ray", "workers": actors, "cluster": connection.address, "client": connection.client,
            "connect_attempts": connection.attempts, "startup_s": round(connected - started, 3), "work_s": time.perf_counter() - connected}  # fmt: skip
