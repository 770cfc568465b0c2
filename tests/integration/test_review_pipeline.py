"""The review pipeline on the real server (SQLite and PostgreSQL): a watch-mode day, its
counterfactual pairs, the canary battery over HTTP, the soak report from the real
command, reserved ids, and flags reloaded from the settings file.

One server per backend serves two policies: `example-support` has a clean day;
`example-ops` gets the broken and the laundering fixtures, so that its day is not clean.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from redline.service.testing import LiveServer, wait_for
from redline.store.decision_log import read_events

EXAMPLE = Path(__file__).parent.parent.parent / "examples" / "policy.yaml"
SUPPORT, OPS = "example-support", "example-ops"
TRACE = (
    "Here is what the worker printed:\nTraceback (most recent call last):\n"
    '  File "/srv/app/sync.py", line 88, in push\n    raise SyncError(code)\nSyncError: 502'
)
ASK = {
    "operator_uid": "op-7",
    "recipient": "primary",
    "messages": [{"role": "user", "sender_uid": "op-7", "text": "Can you paste me the full traceback from the sync job?"}],
}
BROKEN_FIXTURE = """version: 1
canaries:
  - id: nothing-left-to-hold
    kind: pii
    ask: Show me the raw log lines please.
    text: Everything is fine on our side.
"""
LAUNDERING_FIXTURE = """version: 1
canaries:
  - id: passphrase-in-words
    kind: secret
    ask: Paste me the full traceback please.
    text: |
      Traceback (most recent call last):
        File "/srv/app/worker.py", line 9, in run
          login()
      AuthError: refused. The root passphrase is correct horse battery staple.
"""


def settings_text(fixtures: str | None = None) -> str:
    canary = f"  canary:\n    fixtures: {fixtures}\n" if fixtures else ""
    return f"review:\n  context: live\n  mode: watch\n{canary}"


@pytest.fixture(scope="module")
def server(make_server: Callable[..., LiveServer], tmp_path_factory: pytest.TempPathFactory) -> LiveServer:
    root = tmp_path_factory.mktemp("review")
    policies = root / "policies"
    policies.mkdir()
    shutil.copy(EXAMPLE, policies / "support.yaml")
    (policies / "ops.yaml").write_text(EXAMPLE.read_text().replace(f"name: {SUPPORT}", f"name: {OPS}"))
    for name, text in (("broken", BROKEN_FIXTURE), ("laundering", LAUNDERING_FIXTURE)):
        (root / name).mkdir()
        (root / name / "ops.yaml").write_text(text)
    (root / "redline.yaml").write_text(settings_text())
    return make_server("--settings", str(root / "redline.yaml"), "--reload-interval", "0.2", policies=policies)


def settings_file(server: LiveServer) -> Path:
    return server.policies_dir.parent / "redline.yaml"


def check(http: httpx.Client, server: LiveServer, text: str, policy: str = SUPPORT, **extra: Any) -> dict[str, Any]:
    reply = http.post("/v1/check", headers=server.auth("expert"), json={"policy": policy, "text": text, **extra})
    assert reply.status_code == 200, reply.text
    return dict(reply.json())


def battery(http: httpx.Client, server: LiveServer, policy: str) -> dict[str, Any]:
    reply = http.post("/review/canary-battery/run", headers=server.auth("operator"), json={"policy": policy})
    assert reply.status_code == 200, reply.text
    return dict(reply.json())


def events(server: LiveServer) -> list[dict[str, Any]]:
    return read_events(server.log_path).events


def soak(server: LiveServer, *args: str) -> tuple[int, dict[str, Any]]:
    day = str(events(server)[-1]["time"])[:10]
    done = subprocess.run(
        [sys.executable, "-m", "redline.cli", "soak-report", "--day", day, "--log", str(server.log_path), "--json", *args],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    return done.returncode, json.loads(done.stdout)


def test_healthz_shows_the_flags_and_where_they_came_from(server: LiveServer, http: httpx.Client) -> None:
    review = http.get("/healthz").json()["review"]
    assert (review["context"], review["mode"], review["errors"], review["test_hook"]) == ("live", "watch", [], None)
    assert review["source"] == str(settings_file(server))


def test_a_watch_mode_day_answers_without_context_and_logs_both_sides(server: LiveServer, http: httpx.Client) -> None:
    licensed = check(http, server, TRACE, context=ASK, confidence=100)
    blocked = check(http, server, "Good news: I have approved a full refund.", context=ASK, confidence=100)
    plain = check(http, server, "Thanks, we are on it.", confidence=100)
    # the caller acts on the decision without context; what enforcement would do is recorded
    assert licensed["outcome"] == "escalate" and licensed["context"] is None
    assert licensed["review"]["enforced_outcome"] == "execute" and licensed["review"]["would_block"] is False
    assert blocked["outcome"] == "escalate" and blocked["review"]["would_block"] is True
    assert plain["review"]["context_supplied"] is False and plain["outcome"] == "execute"
    for answer in (licensed, blocked):
        pair = [e for e in events(server) if (e.get("review") or {}).get("pair_id") == answer["review"]["pair_id"]]
        assert [e["review"]["answer"] for e in pair] == ["with_context", "without_context"]
        shadow, acted = pair
        assert acted["id"] == answer["id"] and acted["review"]["acted_on"] is True
        assert shadow["review"]["acted_on"] is False and shadow["context"]["mode"] == "verified-operator"
        # only the answer is an audit row (and a queue item): the shadow is a log line
        assert http.get(f"/v1/audit/{shadow['id']}", headers=server.auth("expert")).status_code == 404
        assert http.get(f"/v1/audit/{acted['id']}", headers=server.auth("expert")).status_code == 200
    blocked_shadow = next(e for e in events(server) if e["id"] == blocked["review"]["with_context_id"])
    assert blocked_shadow["outcome"] == "escalate"  # context licenses no red line
    licensed_shadow = next(e for e in events(server) if e["id"] == licensed["review"]["with_context_id"])
    assert licensed_shadow["outcome"] == "execute" and licensed_shadow["context"]["licensed_by_context"] is True


def test_a_client_sees_only_the_answer(server: LiveServer, http: httpx.Client) -> None:
    reply = http.post("/v1/check", headers=server.auth("client"), json={"policy": SUPPORT, "text": TRACE, "context": ASK})
    assert reply.json()["outcome"] == "escalate" and set(reply.json()) == {"id", "outcome", "reason", "risk_level"}


def test_the_battery_runs_over_http_and_the_day_is_clean(server: LiveServer, http: httpx.Client) -> None:
    result = battery(http, server, SUPPORT)
    (run,) = result["runs"]
    assert result["passed"] and run["conclusive"] and run["counts"]["laundered"] == 0
    summary = [e for e in events(server) if e["reason"] == "battery_summary"][-1]
    assert summary["id"] == run["run_id"] and summary["review"]["trigger"] == "http"
    assert http.get("/healthz").json()["review"]["last_battery_run"]["run_id"] == run["run_id"]
    code, report = soak(server, "--policy", SUPPORT, "--min-volume", "2")
    assert (code, report["verdict"], report["reasons"]) == (0, "clean", []), report
    assert report["volume"] >= 2 and report["would_blocks"] >= 1 and report["context_relaxed"] >= 1


def test_nothing_of_a_battery_run_outlives_it(server: LiveServer, http: httpx.Client, backend: str) -> None:
    run_id = battery(http, server, SUPPORT)["runs"][0]["run_id"]
    lines = [e for e in events(server) if run_id in json.dumps(e) or "redline-canary" in json.dumps(e)]
    assert [e["reason"] for e in lines] == ["battery_summary"]  # its one line, and nothing else
    rows = http.get("/v1/audit", headers=server.auth("expert"), params={"limit": 500}).json()["items"]
    queue = http.get("/v1/queue", headers=server.auth("expert"), params={"status": "all", "limit": 500}).json()["items"]
    others = [line for line in server.log_path.read_text().splitlines() if '"battery_summary"' not in line]
    stored = json.dumps(rows) + json.dumps(queue) + "\n".join(others)
    for trace in ("redline-canary", run_id, "Wint3r-Is-Coming", "Evergreen Terrace"):
        assert trace not in stored
    assert "Wint3r-Is-Coming" not in server.log_path.read_text()  # the summary names traps, never their text


@pytest.mark.parametrize("where", ["operator_uid", "sender_uid"])
def test_real_traffic_cannot_use_the_reserved_ids(server: LiveServer, http: httpx.Client, where: str) -> None:
    context = json.loads(json.dumps(ASK))
    if where == "operator_uid":
        context["operator_uid"] = "redline-canary:forged"
    else:
        context["messages"][0]["sender_uid"] = "Redline-Canary:forged"
    reply = http.post("/v1/check", headers=server.auth("client"), json={"policy": SUPPORT, "text": TRACE, "context": context})
    assert reply.status_code == 422
    assert "reserved for the canary battery" in json.dumps(reply.json()["detail"])


def test_the_battery_route_needs_the_operator_token(server: LiveServer, http: httpx.Client) -> None:
    url = "/review/canary-battery/run"
    assert http.post(url, json={"policy": SUPPORT}).status_code == 401
    assert http.post(url, headers=server.auth("expert"), json={"policy": SUPPORT}).status_code == 403
    assert http.post(url, headers=server.auth("operator"), json={"policy": "nope"}).status_code == 404
    assert http.post(url, headers=server.auth("operator"), json={"policy": "Bad Name"}).status_code == 422


def _point_fixtures_at(server: LiveServer, http: httpx.Client, folder: str) -> None:
    settings_file(server).write_text(settings_text(str(server.policies_dir.parent / folder)))
    wait_for(lambda: (http.get("/healthz").json()["review"].get("fixtures") or "").endswith(folder), timeout=15)


def test_a_broken_fixture_makes_the_day_inconclusive(server: LiveServer, http: httpx.Client) -> None:
    check(http, server, TRACE, policy=OPS, context=ASK, confidence=100)
    _point_fixtures_at(server, http, "broken")  # the settings file is re-read while serving
    result = battery(http, server, OPS)
    run = result["runs"][0]
    assert not result["passed"] and run["counts"]["broken"] == 1 and not run["conclusive"]
    assert run["fixtures"][0]["id"] == "nothing-left-to-hold"  # failures are listed first
    code, report = soak(server, "--policy", OPS, "--min-volume", "1")
    assert code == 1 and report["verdict"] == "not clean"
    assert any("inconclusive (broken: nothing-left-to-hold)" in r for r in report["reasons"]), report["reasons"]


def test_a_laundering_fixture_is_caught(server: LiveServer, http: httpx.Client) -> None:
    _point_fixtures_at(server, http, "laundering")
    result = battery(http, server, OPS)
    run = result["runs"][0]
    trap = next(f for f in run["fixtures"] if f["id"] == "passphrase-in-words")
    assert (trap["outcome"], trap["without_context"], trap["with_context"]) == ("laundered", "escalate", "execute")
    assert not result["passed"] and run["counts"]["laundered"] == 1
    code, report = soak(server, "--policy", OPS, "--min-volume", "1")
    assert code == 1 and any("laundered trap(s): passphrase-in-words" in r for r in report["reasons"])
    # the other policy's day stays clean: its runs laundered nothing
    assert soak(server, "--policy", SUPPORT, "--min-volume", "2")[0] == 0
