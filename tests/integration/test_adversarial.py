"""The adversarial suite: each attack that once got through, replayed against the real
server on 127.0.0.1 (SQLite and PostgreSQL where the store is involved). Bounded and
fast: servers are shared per module and every attack is sized to prove its point, not
to load the machine. docs/security.md lists the attacks and what holds."""

from __future__ import annotations

import base64
import json
import re
import shutil
import signal
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from redline.service.testing import LiveServer, wait_for
from redline.store.decision_event import MAX_LINE_BYTES
from redline.store.decision_log import read_events

EXAMPLE = Path(__file__).parent.parent.parent / "examples" / "policy.yaml"
POLICY = "example-support"
KEY = "AKIAIOSFODNN7EXAMPLE"
HELD = "I have approved a full refund."
ServerFactory = Callable[..., LiveServer]


@pytest.fixture(scope="module")
def server(make_server: ServerFactory) -> LiveServer:
    """The module's server reads conversations and acts on them (review.context live, enforce)."""
    return make_server(env={"REDLINE_REVIEW_CONTEXT": "live", "REDLINE_REVIEW_MODE": "enforce"})


def check(http: httpx.Client, server: LiveServer, text: str, role: str = "expert", **extra: Any) -> httpx.Response:
    return http.post("/v1/check", headers=server.auth(role), json={"policy": POLICY, "text": text, **extra})


def _own_server(tmp_path: Path, *args: str, policies: Path | None = None) -> LiveServer:
    """A SQLite server of this test's own, for attacks on the process rather than the store."""
    if policies is None:
        policies = tmp_path / "policies"
        policies.mkdir()
        shutil.copy(EXAMPLE, policies / "example.yaml")
    (tmp_path / "log").mkdir()
    return LiveServer.start(
        policies_dir=policies,
        db_url=f"sqlite:///{tmp_path / 'redline.db'}",
        log_path=tmp_path / "log" / "redline.decisions.jsonl",
        output=tmp_path / "server.log",
        args=args,
    )


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def _logged(server: LiveServer, decision_id: str) -> dict[str, Any]:
    return next(e for e in read_events(server.log_path).events if e["id"] == decision_id)


# ---------------------------------------------------------------- 1, 3: hidden characters


def test_a_secret_with_an_invisible_character_is_refused_and_stored_masked(
    server: LiveServer, http: httpx.Client
) -> None:
    text = f"Use AKIA\u200b{KEY[4:]} or write to maria\u00ad.lopez@example.com"
    reply = check(http, server, text)
    assert reply.status_code == 200 and reply.json()["outcome"] == "refuse"
    row = http.get(f"/v1/audit/{reply.json()['id']}", headers=server.auth("expert")).json()
    line = json.dumps(_logged(server, reply.json()["id"]))
    for stored in (row["text_excerpt"], json.dumps(row["findings"]), line):
        assert KEY[4:] not in stored and "lopez" not in stored and "example.com" not in stored
    assert "[AWS_ACCESS_KEY]" in row["text_excerpt"] and "[EMAIL_ADDRESS]" in row["text_excerpt"]
    assert {e["type"] for e in _logged(server, reply.json()["id"])["erased"]} == {"AWS_ACCESS_KEY", "EMAIL_ADDRESS"}


@pytest.mark.parametrize("char", ["\ufe0f", "\u034f", "\U000e0041", "\u0301", "\U000e0100"])
def test_a_key_with_a_mark_or_tag_inside_is_refused(server: LiveServer, http: httpx.Client, char: str) -> None:
    reply = check(http, server, f"the key is {KEY[:6]}{char}{KEY[6:]}", role="client", confidence=100)
    assert reply.json()["outcome"] == "refuse"


def test_an_emoji_inside_a_term_does_not_hide_it(server: LiveServer, http: httpx.Client) -> None:
    reply = check(http, server, "Good news: your re\U0001f389fund is approved.", confidence=100)
    assert reply.json()["outcome"] == "escalate"
    assert reply.json()["findings"][0]["text"] == "re\U0001f389fund"


# ---------------------------------------------------------------- 2, 9: every string of a request


def _raw(body: str) -> bytes:
    return body.encode("ascii")  # JSON escapes such as \ud800 stay escapes on the wire


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ('{"policy": "example-support", "text": "hi", "context": {"recipient": "\\udc80"}}', ["body", "context", "recipient"]),
        ('{"policy": "example-support", "text": "hi", "context": {"operator_uid": "u\\ud800"}}', ["body", "context", "operator_uid"]),
        ('{"policy": "example-support", "text": "hi", "context": {"messages": [{"role": "user", "sender_uid": "\\ud800"}]}}',
         ["body", "context", "messages", 0, "sender_uid"]),
        ('{"policy": "example-support", "text": "hi", "context": {"messages": [{"role": "user", "text": "a\\ud800b"}]}}',
         ["body", "context", "messages", 0, "text"]),
        ('{"policy": "\\ud800", "text": "hi"}', ["body", "policy"]),
        ('{"policy": "example-support", "text": "hi", "context": {"recipient": "' + "x" * 1000 + '"}}', ["body", "context", "recipient"]),
        ('{"policy": "example-support", "text": "hi", "context": {"recipient": "bob@example.com"}}', ["body", "context", "recipient"]),
        ('{"policy": "example-support", "text": "hi", "context": {"operator_uid": "' + "u" * 300 + '"}}', ["body", "context", "operator_uid"]),
    ],
)
def test_every_string_of_a_check_is_validated_and_nothing_unreadable_is_written(
    server: LiveServer, http: httpx.Client, body: str, field: list[Any]
) -> None:
    expert = server.auth("expert")
    before = len(read_events(server.log_path).events)
    reply = http.post("/v1/check", headers={**expert, "Content-Type": "application/json"}, content=_raw(body))
    assert reply.status_code == 422, reply.text
    assert field in [e["loc"] for e in reply.json()["detail"]]
    assert len(read_events(server.log_path).events) == before, "no line for a refused request"
    assert http.get("/v1/audit", headers=expert, params={"limit": 500}).status_code == 200
    assert http.get("/healthz").json()["status"] == "ok"


def test_a_recipient_id_is_recorded_as_a_third_party_only(server: LiveServer, http: httpx.Client) -> None:
    context = {"operator_uid": "u-1", "recipient": "acct-4242", "messages": [{"role": "user", "sender_uid": "u-1", "text": "hi"}]}
    reply = check(http, server, "Thanks, we are on it.", context=context, confidence=100)
    assert reply.status_code == 200
    row = http.get(f"/v1/audit/{reply.json()['id']}", headers=server.auth("expert")).json()
    assert row["context"]["recipient"] == "third_party"
    assert "acct-4242" not in json.dumps(row) and "acct-4242" not in json.dumps(_logged(server, row["id"]))


def test_a_body_that_is_not_utf8_is_422_naming_the_body(server: LiveServer, http: httpx.Client) -> None:
    headers = {**server.auth("client"), "Content-Type": "application/json"}
    for raw in (b"\xc3(", b"\xff\xfe{}"):  # the first was once a bare 400
        reply = http.post("/v1/check", headers=headers, content=raw)
        assert reply.status_code == 422 and reply.json()["detail"][0]["loc"][0] == "body"


# ---------------------------------------------------------------- 4: one text, one bounded decision


def test_a_megabyte_of_hits_makes_a_small_answer_row_and_line(server: LiveServer, http: httpx.Client) -> None:
    text = "refund " * 140_000  # 980 KB, under the 1 MiB body limit: 140,000 hits of one rule
    reply = check(http, server, text)
    assert reply.status_code == 200 and reply.json()["outcome"] == "escalate"
    assert len(reply.content) < 64 * 1024
    assert reply.json()["omitted"]["findings"] == 140_000 - len(reply.json()["findings"])
    row = http.get(f"/v1/audit/{reply.json()['id']}", headers=server.auth("expert"))
    assert len(row.content) < 64 * 1024 and row.json()["omitted"]["findings"] > 0
    page = http.get("/v1/audit", headers=server.auth("expert"), params={"limit": 3})
    assert len(page.content) < 3 * 64 * 1024
    line = _logged(server, reply.json()["id"])
    assert len(json.dumps(line, ensure_ascii=False).encode()) <= MAX_LINE_BYTES


def test_a_few_checks_cannot_rotate_everyone_elses_history_away(make_server: ServerFactory) -> None:
    # 512 KB of log in all; each check below has 3,000 suppressed hits, which once made a
    # line of about 200 KB, so eleven of them flushed everything before
    server = make_server("--log-max-bytes", "262144", "--log-backups", "1")
    with httpx.Client(base_url=server.url, timeout=60) as http:
        marker = check(http, server, "A marker before the flood.", confidence=100).json()["id"]
        flood = [check(http, server, "There is no refund. " * 3_000).json() for _ in range(11)]
        assert all(d["omitted"]["suppressed"] > 0 for d in flood)
        events = {e["id"] for e in read_events(server.log_path).events}
        assert marker in events and {d["id"] for d in flood} <= events


# ---------------------------------------------------------------- 6: read-only store, failing log


def _pg_admin(db_url: str, sql: str) -> None:
    import psycopg

    libpq = re.sub(r"^postgresql\+\w+://", "postgresql://", db_url)
    with psycopg.connect(libpq.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute(sql)


def test_a_briefly_read_only_database_recovers_and_healthz_tells_the_truth(
    make_server: ServerFactory, backend: str
) -> None:
    if backend != "postgresql":
        pytest.skip("a SQLite file made read-only leaves open connections writable; test_audit_store covers SQLite")
    server = make_server()
    name = server.db_url.rsplit("/", 1)[1]
    with httpx.Client(base_url=server.url, timeout=60) as http:
        assert check(http, server, HELD).status_code == 200
        _pg_admin(server.db_url, f"ALTER DATABASE {name} SET default_transaction_read_only = on")
        _pg_admin(server.db_url, f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'")
        during = [check(http, server, HELD).status_code for _ in range(5)]
        assert during == [503] * 5
        health = http.get("/healthz")
        assert health.status_code == 503 and health.json()["db"] == "read_only"
        _pg_admin(server.db_url, f"ALTER DATABASE {name} SET default_transaction_read_only = off")
        after = [check(http, server, HELD).status_code for _ in range(30)]
        assert after == [200] * 30, "no connection opened during the window answers read-only again"
        assert http.get("/healthz").json()["status"] == "ok"


def test_healthz_returns_to_ok_once_the_decision_log_writes_again(tmp_path: Path) -> None:
    with _own_server(tmp_path) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        folder = server.log_path.parent
        assert check(http, server, HELD).status_code == 200
        shutil.move(folder, tmp_path / "moved-away")  # the log's folder is gone
        assert check(http, server, HELD).status_code == 200, "a log failure never fails a check"
        assert http.get("/healthz").json()["status"] == "degraded"
        folder.mkdir()
        assert check(http, server, HELD).status_code == 200
        health = http.get("/healthz").json()
        assert health["status"] == "ok" and health["decision_log"]["write_failures"] >= 1
        assert not health["decision_log"]["failing"]


# ---------------------------------------------------------------- 7: headers


def test_huge_and_unfinished_headers_are_cut_off(tmp_path: Path) -> None:
    with _own_server(tmp_path, "--header-timeout", "1", "--max-connections", "200") as server:
        assert server.process is not None
        rss_before = _rss_kb(server.process.pid)
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
            conn.sendall(b"POST /v1/check HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ")
            try:
                for _ in range(1024):  # 64 MB
                    conn.sendall(b"a" * 65536)
            except OSError:
                pass  # the server closed the connection: what is wanted
            assert conn.recv(64).startswith(b"HTTP/1.1 431")
        assert _rss_kb(server.process.pid) - rss_before < 32 * 1024, "the header was not buffered"

        idle = [socket.create_connection(("127.0.0.1", server.port), timeout=10) for _ in range(300)]
        for conn in idle:
            conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
        time.sleep(2.5)
        closed = 0
        for conn in idle:
            try:
                closed += conn.recv(64) == b""
            except ConnectionResetError:
                closed += 1
            conn.close()
        assert closed == 300
        assert server.health()[0] == 200


def _responses(conn: socket.socket, count: int) -> list[tuple[bytes, bytes]]:
    """`count` HTTP/1.1 responses (status line, body) read off `conn`, by Content-Length."""
    buffer, found = b"", []
    while len(found) < count:
        head_end = buffer.find(b"\r\n\r\n")
        if head_end >= 0:
            head = buffer[:head_end].decode("latin-1")
            length = int(re.search(r"(?im)^content-length: *(\d+)", head).group(1))  # type: ignore[union-attr]
            if len(buffer) >= head_end + 4 + length:
                found.append((head.split("\r\n", 1)[0].encode(), buffer[head_end + 4 : head_end + 4 + length]))
                buffer = buffer[head_end + 4 + length :]
                continue
        chunk = conn.recv(65536)
        assert chunk, f"the connection closed after {len(found)} of {count} responses"
        buffer += chunk
    return found


def test_pipelined_requests_and_100_continue_are_answered_whole_and_in_order(tmp_path: Path) -> None:
    """The head of each answer goes out with its body (one write): nothing reordered, held or lost."""
    with _own_server(tmp_path) as server:
        token = server.tokens["client"]
        body = json.dumps({"policy": "example-support", "text": "Your order shipped today.", "confidence": 95}).encode()

        def check(payload: bytes) -> bytes:
            return (f"POST /v1/check HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n"
                    f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n").encode() + payload  # fmt: skip

        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
            conn.sendall(check(body) + b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n" + check(b"{not json"))
            answers = _responses(conn, 3)
        assert [status.split()[1] for status, _ in answers] == [b"200", b"200", b"422"]
        assert json.loads(answers[0][1])["outcome"] == "execute"
        assert json.loads(answers[1][1])["status"] in ("ok", "degraded")

        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
            head = check(body)[: -len(body)]
            conn.sendall(head.replace(b"\r\n\r\n", b"\r\nExpect: 100-continue\r\n\r\n"))
            assert conn.recv(64) == b"HTTP/1.1 100 Continue\r\n\r\n"  # sent before the body is read
            conn.sendall(body)
            [(status, answer)] = _responses(conn, 1)
        assert status == b"HTTP/1.1 200 OK" and json.loads(answer)["outcome"] == "execute"


# ---------------------------------------------------------------- 8, 12: the policies folder


BOMB = "version: 1\nname: bomb\nlol0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"lol{n + 1}: &a{n + 1} [{', '.join([f'*a{n}'] * 9)}]\n" for n in range(8)
)


def test_an_alias_bomb_or_a_link_out_of_the_folder_neither_hangs_nor_leaks(tmp_path: Path) -> None:
    secret = tmp_path / "shadow"
    secret.write_text("root:$6$saltsalt$hashedpasswordvalue:19000:0:99999:7:::\n")
    with _own_server(tmp_path, "--reload-interval", "0.2") as server, httpx.Client(base_url=server.url, timeout=30) as http:
        (server.policies_dir / "bomb.yaml").write_text(BOMB)
        (server.policies_dir / "shadow.yaml").symlink_to(secret)

        def both() -> list[dict[str, Any]] | None:
            files = http.get("/v1/policies", headers=server.auth("operator")).json()["policies"]
            errors = [f for f in files if f["file"] in ("bomb.yaml", "shadow.yaml") and f["last_error"]]
            return errors if len(errors) == 2 else None

        bomb, shadow = sorted(wait_for(both, timeout=15), key=lambda f: f["file"])
        assert "alias bomb" in bomb["last_error"]
        assert "not followed" in shadow["last_error"] and "hashedpassword" not in shadow["last_error"]
        assert "root" not in shadow["last_error"].split(":", 1)[-1]
        assert check(http, server, HELD).json()["outcome"] == "escalate", "the good policy still serves"
        assert server.process is not None
        started = time.monotonic()
        server.signal(signal.SIGTERM)
        server.process.wait(timeout=15)
        assert time.monotonic() - started < 15


# ---------------------------------------------------------------- 11: cursors and error bodies


def _cursor(*parts: Any) -> str:
    return base64.urlsafe_b64encode(json.dumps(list(parts)).encode()).decode().rstrip("=")


@pytest.mark.parametrize(
    ("path", "cursor"),
    [
        ("/v1/queue", _cursor("q", "2025-01-01T00:00:00+00:00", True)),
        ("/v1/queue", _cursor("q", "2025-01-01T00:00:00+00:00", 10**30)),
        ("/v1/audit", _cursor("a", "9999-12-31T23:59:59-14:00", "abc")),
        ("/v1/audit", _cursor("a", "2025-01-01T00:00:00+00:00", "x" * 300)),
    ],
)
def test_a_crafted_cursor_is_422_and_no_store_failure(
    server: LiveServer, http: httpx.Client, path: str, cursor: str
) -> None:
    def failures() -> float:
        metrics = http.get("/metrics", headers=server.auth("operator")).text
        found = re.search(r"^redline_store_failures_total (\S+)$", metrics, re.M)
        return float(found.group(1)) if found else 0.0

    before = failures()
    reply = http.get(path, headers=server.auth("expert"), params={"cursor": cursor})
    assert reply.status_code == 422 and reply.json()["detail"][0]["loc"] == ["query", "cursor"]
    assert failures() == before
    assert str(server.policies_dir.parent) not in reply.text


def test_a_store_failure_answer_names_no_file_or_database(make_server: ServerFactory, backend: str) -> None:
    server = make_server()
    name = server.db_url.rsplit("/", 1)[1]
    with httpx.Client(base_url=server.url, timeout=60) as http:
        item = _pending_item(http, server, HELD)
        if backend == "sqlite":  # another connection holds the write lock past the busy timeout
            import sqlite3

            lock = sqlite3.connect(server.db_url.removeprefix("sqlite:///"), timeout=30, isolation_level=None)
            lock.execute("BEGIN EXCLUSIVE")
            try:
                broken = [http.post(f"/v1/queue/{item['id']}/approve", headers=server.auth("expert"))]
            finally:
                lock.execute("ROLLBACK")
                lock.close()
        else:
            _pg_admin(server.db_url, f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
            _pg_admin(server.db_url, f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'")
            try:
                broken = [
                    http.get("/v1/audit", headers=server.auth("expert")),
                    http.post(f"/v1/queue/{item['id']}/approve", headers=server.auth("expert")),
                    check(http, server, HELD),
                ]
            finally:
                _pg_admin(server.db_url, f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
        for reply in broken:
            assert reply.status_code == 503, reply.text
            assert "/" not in reply.json()["detail"] and name not in reply.text and "sqlite" not in reply.text


# ---------------------------------------------------------------- 15: an Expert's edit


def _pending_item(http: httpx.Client, server: LiveServer, text: str) -> dict[str, Any]:
    decision_id = check(http, server, text).json()["id"]
    items = http.get("/v1/queue", headers=server.auth("expert"), params={"limit": 500}).json()["items"]
    return next(i for i in items if i["decision_id"] == decision_id)


def test_an_edit_that_adds_a_key_and_a_password_is_refused_and_not_kept(server: LiveServer, http: httpx.Client) -> None:
    expert = server.auth("expert")
    item = _pending_item(http, server, f"{HELD} (edit test 1)")
    edit = f"Here are the admin credentials: {KEY}, password: Tr0ub4dor&3xyz!"
    reply = http.post(f"/v1/queue/{item['id']}/edit", headers=expert, json={"text": edit})
    assert reply.status_code == 409, reply.text
    body = reply.json()
    assert body["error"] == "edit_refused"
    assert {f["entity"] for f in body["findings"]} >= {"AWS_ACCESS_KEY"}
    assert KEY not in reply.text and "Tr0ub4dor" not in reply.text
    now = http.get(f"/v1/queue/{item['id']}", headers=expert).json()
    assert now["status"] == "pending" and now["edited_text"] is None and now["final_text"] is None
    assert now["edit_decision_id"] == body["id"] and now["edit_outcome"] == "refuse"
    check_row = http.get(f"/v1/audit/{body['id']}", headers=expert).json()
    assert check_row["outcome"] == "refuse" and KEY not in check_row["text_excerpt"]
    assert now["decision_id"] != body["id"], "the item records both decisions"


def test_an_edit_that_crosses_a_red_line_stays_pending_until_a_second_look(
    server: LiveServer, http: httpx.Client
) -> None:
    expert = server.auth("expert")
    item = _pending_item(http, server, f"{HELD} (edit test 2)")
    edit = "Good news: the refund is approved."
    reply = http.post(f"/v1/queue/{item['id']}/edit", headers=expert, json={"text": edit})
    assert reply.status_code == 200, reply.text
    held = reply.json()
    assert held["verdict"] == "held" and held["status"] == "pending" and held["final_text"] is None
    assert held["edited_text"] == edit and held["edit_outcome"] == "escalate"
    assert [f["rule"] for f in held["edit_check"]["findings"]] == ["billing:no-refund-promise"]
    approved = http.post(f"/v1/queue/{item['id']}/approve", headers=expert).json()
    assert approved["status"] == "edited" and approved["final_text"] == edit

    clean = _pending_item(http, server, f"{HELD} (edit test 3)")
    done = http.post(f"/v1/queue/{clean['id']}/edit", headers=expert, json={"text": "Billing will reply today."})
    assert done.json()["verdict"] == "edited" and done.json()["final_text"] == "Billing will reply today."
    assert done.json()["edit_outcome"] in ("defer", "execute")
