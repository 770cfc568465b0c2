"""The review flags on the real server: dark by default (and the battery's 503), a broken
license caught by the counterfactual pairs, the scheduled battery, a bad settings file.

The audit store plays no part here, so these servers run on SQLite only.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from redline.service.testing import LiveServer, wait_for
from redline.store.decision_log import read_events

POLICY = "example-support"
TRACE = (
    "Here is what the worker printed:\nTraceback (most recent call last):\n"
    '  File "/srv/app/sync.py", line 88, in push\n    raise SyncError(code)\nSyncError: 502'
)
ASK = {
    "operator_uid": "op-7",
    "messages": [{"role": "user", "sender_uid": "op-7", "text": "Can you paste me the full traceback from the sync job?"}],
}


@pytest.fixture(scope="module")
def backend() -> str:
    return "sqlite"


@pytest.fixture(scope="module")
def minting(make_server: Callable[..., LiveServer]) -> LiveServer:
    """Live and watched, with the test-only license that lets context RAISE, and the
    battery scheduled every second."""
    env = {"REDLINE_REVIEW_CONTEXT": "live", "REDLINE_REVIEW_MODE": "watch", "REDLINE_TEST_LICENSE_HOOK": "mint-blocks"}
    return make_server("--canary-every", "1s", env=env)


def post_check(http: httpx.Client, server: LiveServer, text: str, **extra: Any) -> dict[str, Any]:
    reply = http.post("/v1/check", headers=server.auth("expert"), json={"policy": POLICY, "text": text, **extra})
    assert reply.status_code == 200, reply.text
    return dict(reply.json())


def test_by_default_the_conversation_is_dark(server: LiveServer, http: httpx.Client) -> None:
    review = http.get("/healthz").json()["review"]
    assert (review["context"], review["mode"], review["source"]) == ("dark", "watch", "defaults")
    decision = post_check(http, server, TRACE, context=ASK, confidence=100)
    assert decision["outcome"] == "escalate" and decision["context"] is None
    assert decision["review"]["ignored_because"] == "review.context is dark"
    assert decision["review"]["context_supplied"] is True and decision["review"]["context_used"] is False


def test_the_battery_is_503_while_dark(server: LiveServer, http: httpx.Client) -> None:
    reply = http.post("/review/canary-battery/run", headers=server.auth("operator"), json={"policy": POLICY})
    assert reply.status_code == 503 and reply.json()["error"] == "review_context_dark"
    assert not [e for e in read_events(server.log_path).events if e["reason"] == "battery_summary"]


def test_every_decision_carries_the_flags(server: LiveServer, http: httpx.Client) -> None:
    action = http.post("/v1/decide", headers=server.auth("expert"), json={"domain": "refund_approval", "input": {}})
    assert action.status_code == 200 and action.json()["review"]["kind"] == "action"
    logged = read_events(server.log_path).events
    assert logged and all(e["review"]["context"] == "dark" for e in logged)


def test_dev_reads_only_development_policies(make_server: Callable[..., LiveServer], tmp_path: Path) -> None:
    example = Path(__file__).parent.parent.parent / "examples" / "policy.yaml"
    policies = tmp_path / "policies"
    policies.mkdir()
    (policies / "prod.yaml").write_text(example.read_text())
    (policies / "dev.yaml").write_text(example.read_text().replace(f"name: {POLICY}", "name: staging") + "development: true\n")
    server = make_server(policies=policies, env={"REDLINE_REVIEW_CONTEXT": "dev", "REDLINE_REVIEW_MODE": "enforce"})
    with httpx.Client(base_url=server.url, timeout=60) as http:
        def outcome(policy: str) -> str:
            body = {"policy": policy, "text": TRACE, "context": ASK, "confidence": 100}
            return str(http.post("/v1/check", headers=server.auth("expert"), json=body).json()["outcome"])

        assert (outcome(POLICY), outcome("staging")) == ("escalate", "execute")
        url, auth = "/review/canary-battery/run", server.auth("operator")
        assert http.post(url, headers=auth, json={"policy": POLICY}).json()["error"] == "context_not_read"
        everyone = http.post(url, headers=auth).json()  # no body: every policy whose conversations are read
        assert [run["policy"] for run in everyone["runs"]] == ["staging"] and everyone["passed"]


def test_a_broken_license_mints_a_block_and_the_day_is_not_clean(minting: LiveServer) -> None:
    with httpx.Client(base_url=minting.url, timeout=60) as http:
        health = http.get("/healthz").json()
        assert health["review"]["test_hook"] == "mint-blocks" and health["status"] == "degraded"
        answer = post_check(http, minting, "Thanks, we are on it.", context=ASK, confidence=100)
    assert answer["outcome"] == "execute"  # watch mode: the caller is not blocked by the minted hold
    assert answer["review"]["context_minted"] is True and answer["review"]["test_hook"] == "mint-blocks"
    pair = [e for e in read_events(minting.log_path).events if (e.get("review") or {}).get("pair_id") == answer["review"]["pair_id"]]
    assert [e["outcome"] for e in pair] == ["escalate", "execute"]
    wait_for(lambda: [e for e in read_events(minting.log_path).events if e["reason"] == "battery_summary"], timeout=30)
    day = answer_day(minting)
    done = subprocess.run(
        [sys.executable, "-m", "redline.cli", "soak-report", "--day", day, "--min-volume", "1", "--log", str(minting.log_path), "--json"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    report = json.loads(done.stdout)
    assert done.returncode == 1 and report["verdict"] == "not clean"
    assert report["context_minted_blocks"] == 1 and report["context_minted_pairs"] == [answer["review"]["pair_id"]]
    assert [r for r in report["reasons"] if "context-minted" in r]
    assert report["battery"]["runs"] >= 1 and report["battery"]["conclusive"] == report["battery"]["runs"]


def answer_day(server: LiveServer) -> str:
    return str(read_events(server.log_path).events[-1]["time"])[:10]


def test_the_scheduled_battery_writes_a_summary_each_period(minting: LiveServer) -> None:
    def scheduled() -> list[dict[str, Any]]:
        return [e for e in read_events(minting.log_path).events if (e.get("review") or {}).get("trigger") == "schedule"]

    runs = wait_for(lambda: len(scheduled()) >= 2 and scheduled(), timeout=30)
    assert all(run["review"]["passed"] for run in runs)
    metrics = httpx.get(minting.url + "/metrics", headers=minting.auth("operator")).text
    assert 'redline_canary_runs_total{result="passed"}' in metrics
    assert "redline_context_minted_blocks_total 1.0" in metrics


def test_a_settings_file_that_does_not_resolve_is_dark_and_degraded(make_server: Callable[..., LiveServer], tmp_path: Path) -> None:
    settings = tmp_path / "redline.yaml"
    settings.write_text("review:\n  context: lve\n  mode: enforce\n")
    server = make_server("--settings", str(settings))
    with httpx.Client(base_url=server.url, timeout=60) as http:
        health = http.get("/healthz").json()
        assert health["status"] == "degraded"
        assert (health["review"]["context"], health["review"]["mode"]) == ("dark", "enforce")
        assert "review.context" in health["review"]["errors"][0]
        assert post_check(http, server, TRACE, context=ASK, confidence=100)["outcome"] == "escalate"


def test_an_unknown_test_hook_refuses_to_start(make_server: Callable[..., LiveServer]) -> None:
    with pytest.raises(RuntimeError, match="not a test license hook"):
        make_server(env={"REDLINE_TEST_LICENSE_HOOK": "relax-everything"})


def test_a_bad_canary_interval_refuses_to_start(make_server: Callable[..., LiveServer]) -> None:
    with pytest.raises(RuntimeError, match="not a duration"):
        make_server("--canary-every", "soon")
