"""Joining a Ray cluster over Ray Client: a connection whose per-client server process died
at its start is made again; any other failure is reported at once. A recording stand-in
for the `ray` module plays the cluster: the failure is Ray's own, and cannot be caused at
will on a real cluster."""

from __future__ import annotations

from typing import Any

import pytest

from redline.backtest import ray_engine

START_FAILURE = (
    "Initialization failure from server:\nTraceback (most recent call last):\n"
    "RuntimeError: Starting Ray client server failed. See ray_client_server_23000.err for detailed logs."
)


class Cluster:
    """`ray.init` fails with the given errors, one per call, then connects."""

    def __init__(self, *failures: Exception) -> None:
        self.failures = list(failures)
        self.calls: list[str] = []

    def init(self, address: str, **options: Any) -> None:
        self.calls.append(f"init {address}")
        if self.failures:
            raise self.failures.pop(0)

    def shutdown(self) -> None:
        self.calls.append("shutdown")


@pytest.fixture(autouse=True)
def no_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ray_engine, "_CLIENT_RETRY_S", 0.0)


def test_a_client_server_that_failed_to_start_is_asked_again_with_nothing_kept() -> None:
    cluster = Cluster(ConnectionError(START_FAILURE), ConnectionError(START_FAILURE))
    assert ray_engine._init(cluster, "ray://head:10001", {}) == 3
    assert cluster.calls == ["init ray://head:10001", "shutdown"] * 2 + ["init ray://head:10001"]


def test_it_gives_up_after_three_attempts_with_ray_s_own_error() -> None:
    cluster = Cluster(*(ConnectionError(START_FAILURE) for _ in range(4)))
    with pytest.raises(ConnectionError, match="Starting Ray client server failed"):
        ray_engine._init(cluster, "ray://head:10001", {})
    assert cluster.calls.count("init ray://head:10001") == ray_engine._CLIENT_ATTEMPTS == 3


@pytest.mark.parametrize(
    ("address", "error"),
    [
        ("ray://head:10001", ConnectionError("ray client connection timeout")),  # nothing listens
        ("head:6379", ConnectionError(START_FAILURE)),  # not a Ray Client address
    ],
)
def test_any_other_failure_is_reported_at_the_first_attempt(address: str, error: Exception) -> None:
    cluster = Cluster(error)
    with pytest.raises(ConnectionError):
        ray_engine._init(cluster, address, {})
    assert cluster.calls == [f"init {address}"]
