"""The HTTP service, driven over HTTP: a real uvicorn in a subprocess, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import re
import shutil
import signal
import sqlite3
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from redline.service.testing import LiveServer, wait_for
from redline.store.decision_log import read_events

ROOT = Path(__file__).parent.parent.parent
EXAMPLE = ROOT / "examples" / "policy.yaml"
POLICY = "example-support"
HELD_TEXT = "I have approved a full refund."  # escalate: billing:no-refund-promise
CLEAN_TEXT = "Thanks for your patience, we are looking into it."  # execute at confidence >= 80
SECRET_TEXT = "my password is Tr0ub4dor&3xyz!"  # refuse: detector:credentials
RELOAD_POLICY = """\
version: 1
name: reload-probe
skills:
  - slug: s
    red_lines:
      - id: r1
        rule: Never mention {term}.
        severity: block
        terms: [{term}]
"""

ServerFactory = Callable[..., LiveServer]


# ---------------------------------------------------------------- servers


def check(http: httpx.Client, server: LiveServer, text: str, role: str = "expert", **extra: Any) -> httpx.Response:
    return http.post("/v1/check", headers=server.auth(role), json={"policy": POLICY, "text": text, **extra})


# ---------------------------------------------------------------- auth


PROTECTED = [
    ("POST", "/v1/check"),
    ("GET", "/v1/audit"),
    ("GET", "/v1/audit/abc"),
    ("GET", "/v1/queue"),
    ("GET", "/v1/queue/1"),
    ("POST", "/v1/queue/1/approve"),
    ("POST", "/v1/queue/1/edit"),
    ("POST", "/v1/queue/1/reject"),
    ("GET", "/v1/policies"),
    ("GET", f"/v1/policies/{POLICY}"),
    ("GET", "/metrics"),
]

# Which roles get past auth on each route (the rest get 403).
ALLOWED = {
    ("POST", "/v1/check"): {"client", "expert", "operator"},
    ("GET", "/v1/audit"): {"expert", "operator"},
    ("GET", "/v1/audit/abc"): {"expert", "operator"},
    ("GET", "/v1/queue"): {"expert"},
    ("GET", "/v1/queue/1"): {"expert"},
    ("POST", "/v1/queue/1/approve"): {"expert"},
    ("POST", "/v1/queue/1/edit"): {"expert"},
    ("POST", "/v1/queue/1/reject"): {"expert"},
    ("GET", "/v1/policies"): {"expert", "operator"},
    ("GET", f"/v1/policies/{POLICY}"): {"operator"},
    ("GET", "/metrics"): {"operator"},
}


def _body_for(path: str) -> dict[str, Any] | None:
    if path == "/v1/check":
        return {"policy": POLICY, "text": CLEAN_TEXT, "confidence": 95}
    if path.endswith("/edit"):
        return {"text": "An edited reply."}
    return None


def test_healthz_needs_no_token_and_says_ok(server: LiveServer, http: httpx.Client) -> None:
    reply = http.get("/healthz")
    assert reply.status_code == 200
    body = reply.json()
    assert body["status"] == "ok" and body["db"] == "ok" and body["policies"] == 1
    assert body["decision_log"]["write_failures"] == 0


@pytest.mark.parametrize(("method", "path"), PROTECTED)
def test_a_request_without_a_token_gets_401_and_a_bearer_challenge(http: httpx.Client, method: str, path: str) -> None:
    reply = http.request(method, path, json=_body_for(path))
    assert reply.status_code == 401
    assert reply.headers["www-authenticate"].startswith("Bearer")
    assert reply.json()["error"] == "unauthorized"


@pytest.mark.parametrize(("method", "path"), PROTECTED)
def test_an_unknown_token_gets_401(http: httpx.Client, method: str, path: str) -> None:
    unknown = {"Authorization": "Bearer not-a-real-token-at-all"}
    reply = http.request(method, path, json=_body_for(path), headers=unknown)
    assert reply.status_code == 401
    assert 'error="invalid_token"' in reply.headers["www-authenticate"]


@pytest.mark.parametrize(("method", "path"), PROTECTED)
@pytest.mark.parametrize("role", ["client", "expert", "operator"])
def test_each_role_reaches_only_its_routes(
    server: LiveServer, http: httpx.Client, method: str, path: str, role: str
) -> None:
    reply = http.request(method, path, json=_body_for(path), headers=server.auth(role))
    if role in ALLOWED[(method, path)]:
        assert reply.status_code not in (401, 403), reply.text
    else:
        assert reply.status_code == 403, reply.text
        assert reply.json()["error"] == "forbidden"


# ---------------------------------------------------------------- checks


def test_a_client_sees_outcome_and_a_generic_reason_only(server: LiveServer, http: httpx.Client) -> None:
    reply = check(http, server, HELD_TEXT, role="client")
    assert reply.status_code == 200
    body = reply.json()
    assert set(body) == {"id", "outcome", "reason", "risk_level"}
    assert body["outcome"] == "escalate" and body["reason"] == "held for review"
    assert "refund" not in reply.text and "no-refund-promise" not in reply.text
    refused = check(http, server, SECRET_TEXT, role="client").json()
    assert refused["outcome"] == "refuse" and refused["reason"] == "not allowed"
    assert "Tr0ub4dor" not in json.dumps(refused)
    clean = check(http, server, CLEAN_TEXT, role="client", confidence=95).json()
    assert clean["outcome"] == "execute" and clean["reason"] == "ok"


@pytest.mark.parametrize("role", ["expert", "operator"])
def test_an_expert_or_operator_sees_the_findings(server: LiveServer, http: httpx.Client, role: str) -> None:
    reply = check(http, server, HELD_TEXT, role=role)
    assert reply.status_code == 200
    body = reply.json()
    assert body["outcome"] == "escalate" and body["reason"] == "red_line_violation"
    assert body["policy"]["name"] == POLICY and body["policy"]["hash"].startswith("sha256:")
    [finding] = body["findings"]
    assert finding["rule"] == "billing:no-refund-promise"
    assert HELD_TEXT[finding["start"] : finding["end"]] == finding["text"] == "refund"
    assert {"layers", "timings_ms", "suppressed"} <= set(body)


def test_every_check_has_its_audit_row_and_log_line(server: LiveServer, http: httpx.Client) -> None:
    ids = [check(http, server, text, confidence=95).json()["id"] for text in (CLEAN_TEXT, HELD_TEXT, SECRET_TEXT)]
    for decision_id in ids:
        row = http.get(f"/v1/audit/{decision_id}", headers=server.auth("expert"))
        assert row.status_code == 200
        assert row.json()["id"] == decision_id
    logged = {event["id"] for event in read_events(server.log_path).events}
    assert set(ids) <= logged
    secret_row = http.get(f"/v1/audit/{ids[2]}", headers=server.auth("operator")).json()
    assert "Tr0ub4dor" not in secret_row["text_excerpt"]


def test_a_held_draft_is_queued_and_an_expert_decides_it_once(server: LiveServer, http: httpx.Client) -> None:
    expert = server.auth("expert")
    ids = [check(http, server, f"{HELD_TEXT} Case {n}.").json()["id"] for n in range(3)]
    pending = {i["decision_id"]: i for i in _all_pages(http, "/v1/queue", expert, {"status": "pending"})}
    items = [pending[d] for d in ids]
    assert all(i["status"] == "pending" and i["draft_text"].startswith(HELD_TEXT) for i in items)

    approved = http.post(f"/v1/queue/{items[0]['id']}/approve", headers=expert)
    assert approved.status_code == 200
    assert approved.json()["status"] == "approved" and approved.json()["final_text"] == items[0]["draft_text"]
    assert approved.json()["expert"].startswith("expert:")

    edited = http.post(f"/v1/queue/{items[1]['id']}/edit", headers=expert, json={"text": "Billing will reply."})
    assert edited.status_code == 200
    assert edited.json()["status"] == "edited" and edited.json()["final_text"] == "Billing will reply."

    rejected = http.post(f"/v1/queue/{items[2]['id']}/reject", headers=expert, json={"note": "promises a refund"})
    assert rejected.status_code == 200
    assert rejected.json()["status"] == "rejected" and rejected.json()["note"] == "promises a refund"
    assert rejected.json()["final_text"] is None

    for item, action in zip(items, ("reject", "approve", "edit"), strict=True):
        body = {"text": "x"} if action == "edit" else None
        again = http.post(f"/v1/queue/{item['id']}/{action}", headers=expert, json=body)
        assert again.status_code == 409, again.text
        assert again.json()["error"] == "conflict"
    assert http.get(f"/v1/queue/{items[0]['id']}", headers=expert).json()["status"] == "approved"
    still_pending = {i["decision_id"] for i in _all_pages(http, "/v1/queue", expert, {"status": "pending"})}
    assert not set(ids) & still_pending


def test_an_unknown_id_is_404(server: LiveServer, http: httpx.Client) -> None:
    expert = server.auth("expert")
    for method, path in [
        ("GET", "/v1/audit/nosuchdecision"),
        ("GET", "/v1/queue/999999"),
        ("POST", "/v1/queue/999999/approve"),
        ("POST", "/v1/queue/999999/reject"),
    ]:
        reply = http.request(method, path, headers=expert)
        assert reply.status_code == 404, (path, reply.text)
        assert reply.json()["error"] == "not_found"
    assert http.post("/v1/queue/999999/edit", headers=expert, json={"text": "x"}).status_code == 404


def _all_pages(http: httpx.Client, path: str, headers: dict[str, str], params: dict[str, Any]) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    cursor = None
    while True:
        reply = http.get(path, headers=headers, params={**params, **({"cursor": cursor} if cursor else {})})
        assert reply.status_code == 200, reply.text
        page = reply.json()
        items.extend(page["items"])
        cursor = page["next_cursor"]
        if cursor is None:
            return items


def test_audit_filters_by_outcome_policy_and_time_and_pages_without_gaps(
    server: LiveServer, http: httpx.Client
) -> None:
    expert = server.auth("expert")
    since = (datetime.now(UTC) - timedelta(seconds=1)).isoformat()
    made = [check(http, server, text, confidence=95).json() for text in [HELD_TEXT, CLEAN_TEXT] * 4]
    until = (datetime.now(UTC) + timedelta(seconds=1)).isoformat()
    window = {"since": since, "until": until}
    paged = _all_pages(http, "/v1/audit", expert, {**window, "limit": 3})
    ids = [row["id"] for row in paged]
    assert len(ids) == len(set(ids)), "a row appeared on two pages"
    assert {d["id"] for d in made} <= set(ids)
    times = [row["created_at"] for row in paged]
    assert times == sorted(times, reverse=True), "newest first"

    held = _all_pages(http, "/v1/audit", expert, {**window, "outcome": "escalate", "limit": 2})
    assert {d["id"] for d in made if d["outcome"] == "escalate"} <= {r["id"] for r in held}
    assert all(r["outcome"] == "escalate" for r in held)
    assert http.get("/v1/audit", headers=expert, params={**window, "policy": "no-such-policy"}).json()["items"] == []
    mine = http.get("/v1/audit", headers=expert, params={**window, "policy": POLICY, "limit": 500}).json()["items"]
    assert {d["id"] for d in made} <= {r["id"] for r in mine}
    future = (datetime.now(UTC) + timedelta(days=1)).isoformat()
    assert http.get("/v1/audit", headers=expert, params={"since": future}).json()["items"] == []


def test_a_bad_audit_query_is_422_naming_the_parameter(server: LiveServer, http: httpx.Client) -> None:
    expert = server.auth("expert")
    for params, field in [
        ({"cursor": "garbage"}, "cursor"),
        ({"since": "yesterday"}, "since"),
        ({"limit": 0}, "limit"),
        ({"outcome": "maybe"}, "outcome"),
    ]:
        reply = http.get("/v1/audit", headers=expert, params=params)
        assert reply.status_code == 422, (params, reply.text)
        assert reply.json()["detail"][0]["loc"] == ["query", field]


# ---------------------------------------------------------------- limits and errors


def test_a_body_over_the_limit_is_413_by_content_length(server: LiveServer, http: httpx.Client) -> None:
    text = "a" * (1024 * 1024 + 10)
    reply = http.post("/v1/check", headers=server.auth("client"), json={"policy": POLICY, "text": text})
    assert reply.status_code == 413
    assert reply.json()["error"] == "too_large"


def test_a_chunked_body_over_the_limit_is_413(server: LiveServer) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"policy": "example-support", "text": "'
        for _ in range(40):  # 40 x 64 KiB: 2.5 MiB, never announced
            yield b"a" * 65536
        yield b'"}'

    headers = {**server.auth("client"), "Content-Type": "application/json"}
    with httpx.Client(base_url=server.url, timeout=30) as fresh:
        reply = fresh.post("/v1/check", headers=headers, content=chunks())
    assert reply.status_code == 413
    assert reply.json()["error"] == "too_large"


def test_a_chunked_body_under_the_limit_is_checked(server: LiveServer, http: httpx.Client) -> None:
    def chunks() -> Iterator[bytes]:
        yield json.dumps({"policy": POLICY, "text": HELD_TEXT}).encode()

    reply = http.post(
        "/v1/check", headers={**server.auth("client"), "Content-Type": "application/json"}, content=chunks()
    )
    assert reply.status_code == 200
    assert reply.json()["outcome"] == "escalate"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"policy": POLICY, "text": 42}, ["body", "text"]),
        ({"policy": POLICY}, ["body", "text"]),
        ({"text": "hi"}, ["body", "policy"]),
        ({"policy": POLICY, "text": "hi", "confidence": 250}, ["body", "confidence"]),
        ({"policy": POLICY, "text": "hi", "confidence": "high"}, ["body", "confidence"]),
        ({"policy": POLICY, "text": "hi", "context": "not an object"}, ["body", "context"]),
        ({"policy": POLICY, "text": "nul \u0000 inside"}, ["body", "text"]),
        ({"policy": POLICY, "text": "hi", "extra": 1}, ["body", "extra"]),
    ],
)
def test_a_malformed_check_is_422_naming_the_field(
    server: LiveServer, http: httpx.Client, body: dict[str, Any], field: list[str]
) -> None:
    reply = http.post("/v1/check", headers=server.auth("client"), json=body)
    assert reply.status_code == 422, reply.text
    assert reply.headers["content-type"].startswith("application/json")
    assert field in [e["loc"] for e in reply.json()["detail"]]


def test_malformed_json_is_422(server: LiveServer, http: httpx.Client) -> None:
    headers = {**server.auth("client"), "Content-Type": "application/json"}
    for raw in [b'{"policy": "example-support", "text": ', b"\xff\xfe", b"[1, 2", b'"\\ud800"']:
        reply = http.post("/v1/check", headers=headers, content=raw)
        assert reply.status_code in (400, 422), reply.text
        assert reply.headers["content-type"].startswith("application/json")
    lone = b'{"policy": "example-support", "text": "\\ud800"}'
    reply = http.post("/v1/check", headers=headers, content=lone)
    assert reply.status_code == 422 and reply.json()["detail"][0]["loc"] == ["body", "text"]


def test_an_unknown_policy_is_404_naming_the_known_ones(server: LiveServer, http: httpx.Client) -> None:
    reply = http.post("/v1/check", headers=server.auth("client"), json={"policy": "nope", "text": "hi"})
    assert reply.status_code == 404
    assert reply.json()["error"] == "unknown_policy"
    assert reply.json()["known_policies"] == [POLICY]
    assert POLICY in reply.json()["detail"]


# ---------------------------------------------------------------- policies


def test_an_operator_sees_what_each_rule_of_a_policy_matches(server: LiveServer, http: httpx.Client) -> None:
    reply = http.get(f"/v1/policies/{POLICY}", headers=server.auth("operator"))
    assert reply.status_code == 200, reply.text
    body = reply.json()
    assert body["policy"]["name"] == POLICY and body["policy"]["hash"].startswith("sha256:")
    rules = {rule["id"]: rule for rule in body["rules"]}
    assert rules, body
    for rule in rules.values():
        assert rule["terms"] or rule["topics"] or rule["patterns"] or rule["detectors"]
        assert set(rule["suppress"]) <= {"negated", "attributed", "historical", "hypothetical", "other_experiencer"}
        for topic in rule["topics"]:  # what `redline explain --json` shows, field for field
            assert {"money", "privative", "negative"} <= set(topic)
    missing = http.get("/v1/policies/no-such-policy", headers=server.auth("operator"))
    assert missing.status_code == 404 and missing.json()["known_policies"] == [POLICY]
    assert http.get("/v1/policies/Bad Name", headers=server.auth("operator")).status_code == 422


def _probe(http: httpx.Client, server: LiveServer) -> dict[str, Any] | None:
    files = http.get("/v1/policies", headers=server.auth("operator")).json()["policies"]
    return next((f for f in files if f["file"] == "reload.yaml"), None)


def test_a_changed_policy_file_is_reloaded_and_a_broken_one_keeps_the_last_good(
    server: LiveServer, http: httpx.Client
) -> None:
    path = server.policies_dir / "reload.yaml"
    path.write_text(RELOAD_POLICY.format(term="pineapple"))
    first = wait_for(lambda: (f := _probe(http, server)) and f["hash"] and f)
    assert first["name"] == "reload-probe" and first["last_error"] is None
    body = {"policy": "reload-probe", "text": "I like pineapple."}
    assert http.post("/v1/check", headers=server.auth("expert"), json=body).json()["outcome"] == "escalate"

    path.write_text(RELOAD_POLICY.format(term="mango"))
    second = wait_for(lambda: (f := _probe(http, server)) and f["hash"] != first["hash"] and f)
    assert second["last_error"] is None
    assert http.post("/v1/check", headers=server.auth("expert"), json=body).json()["outcome"] != "escalate"

    path.write_text(RELOAD_POLICY.format(term="mango").replace("severity: block", "severity: maybe"))
    broken = wait_for(lambda: (f := _probe(http, server)) and f["last_error"] and f)
    assert broken["hash"] == second["hash"], "the last good version is still served"
    assert "severity" in broken["last_error"] and "reload.yaml" in broken["last_error"]
    mango = {"policy": "reload-probe", "text": "I like mango."}
    assert http.post("/v1/check", headers=server.auth("expert"), json=mango).json()["outcome"] == "escalate"
    assert http.get("/healthz").json()["status"] == "degraded"

    path.unlink()
    wait_for(lambda: _probe(http, server) is None)
    assert http.post("/v1/check", headers=server.auth("expert"), json=mango).status_code == 404


def test_sighup_reloads_the_policies(make_server: ServerFactory) -> None:
    server = make_server("--reload-interval", "0")  # no polling: only SIGHUP reloads
    path = server.policies_dir / "reload.yaml"
    path.write_text(RELOAD_POLICY.format(term="pineapple"))
    with httpx.Client(base_url=server.url, timeout=30) as http:
        time.sleep(1.5)
        assert _probe(http, server) is None, "without polling, nothing is reloaded before SIGHUP"
        server.signal(signal.SIGHUP)
        loaded = wait_for(lambda: _probe(http, server))
        assert loaded["name"] == "reload-probe"
        assert http.get("/healthz").status_code == 200


def test_two_files_with_one_policy_name_stop_the_start(tmp_path: Path) -> None:
    policies = tmp_path / "policies"
    policies.mkdir()
    shutil.copy(EXAMPLE, policies / "a.yaml")
    shutil.copy(EXAMPLE, policies / "b.yml")
    server = LiveServer(policies, f"sqlite:///{tmp_path / 'r.db'}", tmp_path / "log.jsonl", tmp_path / "out.log")
    with pytest.raises(RuntimeError, match="a.yaml and .*b.yml"):
        server.run(timeout=20)


def test_the_server_refuses_to_start_without_tokens(tmp_path: Path) -> None:
    import subprocess
    import sys

    command = [sys.executable, "-m", "redline.service", "--policies", str(EXAMPLE.parent)]
    command += ["--db", f"sqlite:///{tmp_path / 'r.db'}"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60, env={"PATH": "/usr/bin:/bin"})
    assert result.returncode == 2
    assert "REDLINE_TOKENS" in result.stderr and "--demo" in result.stderr


# ---------------------------------------------------------------- operations


def _sample(metrics: str, name: str, **labels: str) -> float:
    for line in metrics.splitlines():
        if line.startswith(name) and all(f'{k}="{v}"' in line for k, v in labels.items()):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def test_metrics_count_checks_by_outcome(server: LiveServer, http: httpx.Client) -> None:
    operator = server.auth("operator")
    before = http.get("/metrics", headers=operator).text
    for _ in range(3):
        check(http, server, HELD_TEXT)
    check(http, server, SECRET_TEXT)
    after = http.get("/metrics", headers=operator)
    assert after.status_code == 200 and after.headers["content-type"].startswith("text/plain")
    labels = {"outcome": "escalate", "policy": POLICY}
    assert (
        _sample(after.text, "redline_checks_total", **labels) - _sample(before, "redline_checks_total", **labels) == 3
    )
    refused = {"outcome": "refuse", "policy": POLICY}
    assert (
        _sample(after.text, "redline_checks_total", **refused) - _sample(before, "redline_checks_total", **refused) == 1
    )
    assert _sample(after.text, "redline_check_latency_seconds_count") >= 4
    assert "redline_decision_log_write_failures_total 0.0" in after.text
    assert "redline_store_failures_total" in after.text


def test_healthz_reports_decision_log_write_failures(make_server: ServerFactory) -> None:
    server = make_server(log_path=Path("/dev/full"))
    with httpx.Client(base_url=server.url, timeout=30) as http:
        reply = check(http, server, HELD_TEXT)
        assert reply.status_code == 200, "a log failure never fails a check"
        audit = http.get(f"/v1/audit/{reply.json()['id']}", headers=server.auth("expert"))
        assert audit.status_code == 200
        health = http.get("/healthz")
        assert health.status_code == 200
        assert health.json()["status"] == "degraded"
        assert health.json()["decision_log"]["write_failures"] >= 1
        metrics = http.get("/metrics", headers=server.auth("operator")).text
        assert _sample(metrics, "redline_decision_log_write_failures_total") >= 1


def test_a_check_that_cannot_be_recorded_is_503_never_200(make_server: ServerFactory, backend: str) -> None:
    server = make_server()
    with httpx.Client(base_url=server.url, timeout=60) as http:
        with _database_down(server, backend):
            reply = check(http, server, HELD_TEXT)
            assert reply.status_code == 503, reply.text
            assert reply.json()["error"] == "store_unavailable"
            assert reply.headers["retry-after"]
            decision_id = reply.json()["id"]
            if backend == "postgresql":
                health = http.get("/healthz")
                assert health.status_code == 503 and health.json()["db"] == "down"
        metrics = http.get("/metrics", headers=server.auth("operator")).text
        assert _sample(metrics, "redline_store_failures_total") >= 1
        assert http.get(f"/v1/audit/{decision_id}", headers=server.auth("expert")).status_code == 404
        wait_for(lambda: http.get("/healthz").status_code == 200, timeout=30)
        assert check(http, server, HELD_TEXT).status_code == 200


class _database_down:
    """SQLite: another connection holds the write lock (past the busy timeout).
    PostgreSQL: the database refuses connections and the server's are cut."""

    def __init__(self, server: LiveServer, backend: str) -> None:
        self.server, self.backend = server, backend

    def __enter__(self) -> None:
        if self.backend == "sqlite":
            self.conn = sqlite3.connect(self.server.db_url.removeprefix("sqlite:///"), timeout=30, isolation_level=None)
            self.conn.execute("BEGIN EXCLUSIVE")
        else:
            self._pg(f"ALTER DATABASE {self._name} ALLOW_CONNECTIONS false")
            self._pg(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{self._name}'")

    def __exit__(self, *exc: object) -> None:
        if self.backend == "sqlite":
            self.conn.execute("ROLLBACK")
            self.conn.close()
        else:
            self._pg(f"ALTER DATABASE {self._name} ALLOW_CONNECTIONS true")

    @property
    def _name(self) -> str:
        return self.server.db_url.rsplit("/", 1)[1]

    def _pg(self, sql: str) -> None:
        import psycopg

        libpq = re.sub(r"^postgresql\+\w+://", "postgresql://", self.server.db_url)
        with psycopg.connect(libpq.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
            conn.execute(sql)


def test_openapi_documents_every_route_and_its_errors(http: httpx.Client) -> None:
    spec = http.get("/openapi.json").json()
    paths = spec["paths"]
    routes = ["/v1/check", "/v1/audit", "/v1/audit/{decision_id}", "/v1/queue", "/v1/queue/{item_id}", "/v1/policies",
              "/v1/policies/{name}"]
    routes += [f"/v1/queue/{{item_id}}/{action}" for action in ("approve", "edit", "reject")] + ["/healthz", "/metrics"]
    assert set(routes) <= set(paths)
    check_op = paths["/v1/check"]["post"]
    assert {"200", "401", "403", "404", "413", "422", "503"} <= set(check_op["responses"])
    assert {"409"} <= set(paths["/v1/queue/{item_id}/approve"]["post"]["responses"])
    assert "bearer" in json.dumps(spec["components"]["securitySchemes"]).lower()


def test_demo_prints_working_tokens_and_a_curl_and_keeps_its_files_in_the_working_folder(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    from redline.service.testing import free_port

    port = free_port()
    out = tmp_path / "demo.out"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("REDLINE_TOKENS", None)
    with open(out, "wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "redline.service", "--demo", "--port", str(port)],
            cwd=tmp_path, stdout=sink, stderr=subprocess.STDOUT, env=env,
        )  # fmt: skip
    try:
        text = wait_for(lambda: "curl" in (t := out.read_text()) and "Application startup complete" in t and t, 60)
        tokens = dict(re.findall(r"^\s+(client|expert|operator)\s+(\S{40,})$", text, re.M))
        assert set(tokens) == {"client", "expert", "operator"}
        assert f"http://127.0.0.1:{port}/v1/check" in text and tokens["expert"] in text
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            reply = http.post(
                "/v1/check",
                headers={"Authorization": f"Bearer {tokens['client']}"},
                json={"policy": POLICY, "text": HELD_TEXT},
            )
            assert reply.status_code == 200 and reply.json()["outcome"] == "escalate"
            queue = http.get("/v1/queue", headers={"Authorization": f"Bearer {tokens['expert']}"})
            assert [i["decision_id"] for i in queue.json()["items"]] == [reply.json()["id"]]
    finally:
        process.terminate()
        process.wait(timeout=20)
    assert (tmp_path / "redline-demo.db").exists()
    assert [e["id"] for e in read_events(tmp_path / "redline.decisions.jsonl").events] == [reply.json()["id"]]


def test_a_deferred_draft_is_held_with_its_queue_item(server: LiveServer, http: httpx.Client) -> None:
    reply = check(http, server, "Thanks for your patience, a colleague will reply.", role="client")  # no confidence
    assert reply.json()["outcome"] == "defer" and reply.json()["reason"] == "held for review"
    items = http.get("/v1/queue", headers=server.auth("expert"), params={"limit": 500}).json()["items"]
    [item] = [i for i in items if i["decision_id"] == reply.json()["id"]]
    assert item["status"] == "pending" and item["draft_text"].startswith("Thanks for your patience")
