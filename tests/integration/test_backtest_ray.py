"""The Ray engine against a real Ray cluster: one `ray start --head` with 2 CPUs for the
module, joined in-process by address and from the command line over Ray Client, and a
local cluster that the command starts itself. Its results must be the local engine's,
byte for byte.

Skipped, with the reason, only where the `[ray]` extra is not installed; with `CI` set
that is a failure (the `test` extra installs it)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from redline.backtest import run_backtest
from redline.store.decision_log import DecisionLog

try:
    import ray
except ImportError:  # pragma: no cover - the test extra installs it
    if os.environ.get("CI"):
        pytest.fail("Ray is not installed (pip install -e '.[test]'); CI is set, so this is a failure", pytrace=False)
    pytest.skip("Ray is not installed: pip install 'redline[ray]'", allow_module_level=True)

RAY_CLI = Path(sys.executable).parent / "ray"
REDLINE = Path(sys.executable).parent / "redline"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """A Ray head with 2 CPUs on loopback, in its own process group; this process joins it."""
    gcs, client = _free_port(), _free_port()
    logs = tmp_path_factory.mktemp("ray") / "head.log"
    # no token authentication on this loopback-only test cluster (docs/scale.md says how
    # a client joins a cluster that has it)
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled"}
    head = subprocess.Popen(
        [str(RAY_CLI if RAY_CLI.exists() else shutil.which("ray")), "start", "--head", "--block",
         "--node-ip-address=127.0.0.1", f"--port={gcs}", f"--ray-client-server-port={client}",
         "--num-cpus=2", "--include-dashboard=false", "--disable-usage-stats"],
        stdout=logs.open("w"), stderr=subprocess.STDOUT, env=env, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                ray.init(address=f"127.0.0.1:{gcs}", include_dashboard=False, log_to_driver=False)
                break
            except ConnectionError:
                if head.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the Ray head did not start: {logs.read_text()[-3000:]}") from None
                time.sleep(1)
        yield {"gcs": f"127.0.0.1:{gcs}", "client": f"ray://127.0.0.1:{client}"}
    finally:
        ray.shutdown()
        os.killpg(head.pid, signal.SIGTERM)  # --block stops the processes it started
        try:
            head.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)
            head.wait()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory, make_backtest_rows: Any) -> Path:
    rows = make_backtest_rows(2500, seed=17)
    lines = [json.dumps(r) for r in rows]
    lines[700] = "{not json"  # a bad line in the middle is reported the same by both engines
    path = tmp_path_factory.mktemp("corpus") / "drafts.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _both(policy: Path, source: Path, tmp_path: Path, **options: Any) -> tuple[Any, Any]:
    local = run_backtest(policy, source, engine="local", workers=2, out=tmp_path / "local.jsonl", chunk_lines=50, **options)
    on_ray = run_backtest(policy, source, engine="ray", workers=2, out=tmp_path / "ray.jsonl", chunk_lines=50, **options)
    return local, on_ray


def test_ray_and_local_engines_give_the_same_report_and_diff_byte_for_byte(
    cluster: dict[str, str], corpus: Path, backtest_policies: tuple[Path, Path], tmp_path: Path
) -> None:
    old, new = backtest_policies
    local, on_ray = _both(new, corpus, tmp_path, baseline=old)
    assert on_ray.run["engine"] == "ray" and on_ray.run["workers"] == 2
    assert local.report["input"]["bad"] == 1 and local.report["changes"]["newly_held"] > 0
    assert json.dumps(local.report) == json.dumps(on_ray.report)
    diff = (tmp_path / "local.jsonl").read_bytes()
    assert diff and diff == (tmp_path / "ray.jsonl").read_bytes()


def test_a_decision_log_gives_the_same_bytes_on_both_engines(
    cluster: dict[str, str], make_backtest_rows: Any, backtest_policies: tuple[Path, Path], tmp_path: Path
) -> None:
    from redline import Gate, load_policy

    old, new = backtest_policies
    gate = Gate(load_policy(old))
    log_path = tmp_path / "redline.decisions.jsonl"
    with DecisionLog(log_path, max_bytes=200_000, backups=5) as log:
        for row in make_backtest_rows(600, seed=23):
            log.write(gate.check(row["text"], confidence=row.get("confidence")), row["text"])
    local, on_ray = _both(new, log_path, tmp_path)
    assert local.report["baseline"] == {"kind": "recorded"} and local.report["input"]["drafts"] == 600
    assert json.dumps(local.report) == json.dumps(on_ray.report)
    assert (tmp_path / "local.jsonl").read_bytes() == (tmp_path / "ray.jsonl").read_bytes()


def test_the_actor_pool_never_asks_for_more_cpus_than_the_cluster_has(
    cluster: dict[str, str], corpus: Path, backtest_policies: tuple[Path, Path]
) -> None:
    result = run_backtest(backtest_policies[1], corpus, engine="ray", workers=16, chunk_lines=200)
    assert result.run["workers"] == 2, "16 actors on 2 CPUs would wait for ever"
    assert result.report["input"]["drafts"] == 2499


def _command(*args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    done = subprocess.run(
        [str(REDLINE), "backtest", *args, "--json"], capture_output=True, text=True, timeout=300,
        env={**os.environ, "RAY_USAGE_STATS_ENABLED": "0", **(env or {})},
    )  # fmt: skip
    assert done.returncode == 1, done.stderr[-3000:]  # 1: the corpus has a bad line
    return dict(json.loads(done.stdout))


def test_the_command_reaches_an_existing_cluster_over_ray_client_and_starts_its_own_otherwise(
    cluster: dict[str, str], corpus: Path, backtest_policies: tuple[Path, Path]
) -> None:
    old, new = backtest_policies
    args = ("--policy", str(new), "--baseline", str(old), "--input", str(corpus), "--engine", "ray", "--workers", "2")
    local = run_backtest(new, corpus, baseline=old, workers=2)
    remote = _command(*args, "--address", cluster["client"])
    assert remote["run"]["client"] is True and remote["run"]["cluster"] == cluster["client"]
    assert 1 <= remote["run"]["connect_attempts"] <= 3  # a server that died at its start is asked again
    own = _command(*args)
    assert own["run"]["cluster"].startswith("a local Ray started with")
    for result in (remote, own):
        result.pop("run")
        assert json.dumps(result, ensure_ascii=False) == json.dumps(local.report, ensure_ascii=False)


def test_an_actor_compiles_its_gates_once_and_then_checks_batch_after_batch(
    cluster: dict[str, str], corpus: Path, backtest_policies: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ray Data builds the callable class once per actor (ActorPoolStrategy); what it
    builds must compile the gates in its constructor and never again per batch."""
    from redline import Gate, __version__, load_policy
    from redline.backtest import ray_engine, worker
    from redline.backtest.inputs import chunks, open_source

    built: list[str] = []
    real = worker.Gate

    def counted(policy: Any) -> Gate:
        built.append(policy.name)
        return real(policy)

    monkeypatch.setattr(worker, "Gate", counted)
    old, new = backtest_policies
    source = open_source(corpus)
    spec = worker.RunSpec("corpus", source.files, load_policy(new), load_policy(old), None, None, False, __version__)
    actor = ray_engine.BacktestActor([ray.put(spec)])
    assert len(built) == 2
    rows = ray_engine._rows(chunks(source, 100))
    drafts = 0
    for row in rows:
        batch = {key: [value] for key, value in row.items()}
        drafts += sum(ray_engine.pickle.loads(p).drafts for p in actor(batch)["partial"])
    assert len(rows) == 25 and drafts == 2499 and len(built) == 2
