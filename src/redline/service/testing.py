"""A real server in a subprocess, for integration tests and benchmarks (yours and ours).

    with LiveServer.start(policies_dir=..., db_url=..., log_path=...) as server:
        httpx.post(server.url + "/v1/check", headers=server.auth("client"), json=...)

It runs `python -m redline.service` on 127.0.0.1 and a free port, with fresh random
tokens for the three roles, and waits until `/healthz` answers. Standard library only.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Callable
from typing import Any

ROLES = ("client", "expert", "operator")


def wait_for(predicate: Callable[[], Any], timeout: float = 10.0, interval: float = 0.05) -> Any:
    """The first truthy value of `predicate()`, polled until `timeout` seconds pass."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"not true after {timeout} s")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class LiveServer:
    policies_dir: Path
    db_url: str
    log_path: Path
    output: Path  # the server's stdout and stderr
    args: tuple[str, ...] = ()
    tokens: dict[str, str] = field(default_factory=lambda: {r: secrets.token_urlsafe(24) for r in ROLES})
    env: dict[str, str] = field(default_factory=dict)
    port: int = 0
    process: subprocess.Popen[bytes] | None = None

    @classmethod
    def start(cls, **kwargs: Any) -> LiveServer:
        timeout = kwargs.pop("timeout", 60.0)
        server = cls(**kwargs)
        server.run(timeout=timeout)
        return server

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def auth(self, role: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[role]}"}

    def command(self) -> list[str]:
        return [
            sys.executable, "-m", "redline.service",
            "--host", "127.0.0.1", "--port", str(self.port),
            "--db", self.db_url, "--policies", str(self.policies_dir), "--log", str(self.log_path),
            *self.args,
        ]  # fmt: skip

    def run(self, timeout: float = 60.0) -> None:
        """Start (or start again, on a new port) and wait for /healthz; raises with the output."""
        env = {**os.environ, **self.env}
        env["REDLINE_TOKENS"] = ",".join(f"{r}:{t}" for r, t in self.tokens.items())
        env.setdefault("PYTHONUNBUFFERED", "1")
        for _attempt in range(3):  # the free port may be taken before the server binds it
            self.port = free_port()
            with open(self.output, "ab") as out:
                self.process = subprocess.Popen(self.command(), stdout=out, stderr=subprocess.STDOUT, env=env)
            if self._wait_healthy(timeout):
                return
            tail = self.tail()
            if "address already in use" not in tail.lower():
                break
        self.stop()
        raise RuntimeError(f"the server did not become healthy in {timeout:.0f} s:\n{self.tail()}")

    def _wait_healthy(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                return False
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=2) as reply:
                    if reply.status == 200:
                        return True
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.05)
        return False

    def health(self) -> tuple[int, dict[str, Any]]:
        try:
            with urllib.request.urlopen(self.url + "/healthz", timeout=5) as reply:
                return reply.status, json.loads(reply.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    def tail(self, chars: int = 6000) -> str:
        try:
            return self.output.read_text(errors="replace")[-chars:]
        except OSError:
            return ""

    def signal(self, sig: int) -> None:
        assert self.process is not None
        self.process.send_signal(sig)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flushing; what a crash looks like."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def stop(self, timeout: float = 10.0) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()

    def __enter__(self) -> LiveServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


# ---------------------------------------------------------------- a broken license, for tests


def minting_license(
    resolution: Any,
    findings: Any,
    facts: Any,
    *,
    licensable: frozenset[str],
    confidence: float | None,
    min_confidence: int,
) -> Any:
    """A license that breaks the one-way rule ON PURPOSE: an explicit ask RAISES a draft
    that would otherwise go out (or wait for review) to `escalate`. It exists so that tests
    can show the review pipeline catching a context-minted block; a server uses it only
    with `REDLINE_TEST_LICENSE_HOOK=mint-blocks`, and says so on /healthz and in every decision.
    """
    from redline.decide.resolve import Resolution
    from redline.review.license import licensed_outcome
    from redline.types import Outcome, RiskLevel

    if facts.ask is not None and resolution.outcome.rank < Outcome.ESCALATE.rank:
        return Resolution(Outcome.ESCALATE, "test_hook_minted", RiskLevel.HIGH)
    return licensed_outcome(
        resolution, findings, facts, licensable=licensable, confidence=confidence, min_confidence=min_confidence
    )


LICENSE_HOOKS: dict[str, Callable[..., Any]] = {"mint-blocks": minting_license}
