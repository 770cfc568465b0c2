"""POST /v1/check/stream over real sockets: sentences released while the body is still
arriving, held ones never sent, and the decision recorded before it is announced."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from redline.service.testing import LiveServer

POLICY = "example-support"
JUDGED = "judged-support"  # the example policy with the heuristic judge asked on every text
EXAMPLE = Path(__file__).parents[2] / "examples" / "policy.yaml"
HELD = "Good news: I have approved a full refund."
CLEAN = "Thanks for waiting. Your order shipped today."


@pytest.fixture(scope="module")
def server(make_server: Callable[..., LiveServer], tmp_path_factory: pytest.TempPathFactory) -> LiveServer:
    """The module's server, with the example policy and a judged copy of it."""
    policies = tmp_path_factory.mktemp("stream-policies")
    text = EXAMPLE.read_text(encoding="utf-8")
    (policies / "example.yaml").write_text(text, encoding="utf-8")
    judged = text.replace(f"name: {POLICY}", f"name: {JUDGED}", 1).replace(
        "judge:\n  kind: none", "judge:\n  kind: heuristic\n  when: always", 1
    )
    assert "kind: heuristic" in judged and f"name: {JUDGED}" in judged
    (policies / "judged.yaml").write_text(judged, encoding="utf-8")
    return make_server(policies=policies)


def events(reply: httpx.Response) -> list[tuple[str, dict[str, Any]]]:
    assert reply.status_code == 200, reply.text
    assert reply.headers["content-type"].startswith("text/event-stream")
    found = []
    for block in reply.text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines())
        found.append((lines["event"], json.loads(lines["data"])))
    return found


def chunks(text: str, size: int = 5) -> Iterator[bytes]:
    for i in range(0, len(text), size):
        yield text[i : i + size].encode()


def stream(http: httpx.Client, server: LiveServer, text: str, role: str = "expert", **query: Any) -> httpx.Response:
    params = {"policy": POLICY, "confidence": 90, **query}
    headers = {**server.auth(role), "Content-Type": "text/plain"}
    return http.post("/v1/check/stream", params=params, headers=headers, content=chunks(text))


def test_a_clean_text_is_released_sentence_by_sentence_and_recorded(server: LiveServer, http: httpx.Client) -> None:
    got = events(stream(http, server, CLEAN + " Bye now."))
    releases = [d["text"] for k, d in got if k == "release"]
    assert "".join(releases) == CLEAN + " Bye now."
    assert releases[0].startswith("Thanks for waiting.")
    kind, last = got[-1]
    assert kind == "decision" and last["decision"]["outcome"] == "execute" and not last["held"]
    row = http.get(f"/v1/audit/{last['decision']['id']}", headers=server.auth("expert"))
    assert row.status_code == 200 and row.json()["outcome"] == "execute"


def test_a_held_sentence_is_never_sent_and_its_draft_is_queued(server: LiveServer, http: httpx.Client) -> None:
    text = f"Thanks for waiting. {HELD} It will arrive soon."
    got = events(stream(http, server, text))
    sent = "".join(d["text"] for k, d in got if k == "release")
    assert sent == "Thanks for waiting."
    assert [k for k, _ in got] == ["release", "hold", "decision"]
    assert got[1][1] == {"kind": "hold", "start": len(sent), "end": got[1][1]["end"], "outcome": "escalate"}
    decision = got[-1][1]["decision"]
    assert decision["outcome"] == "escalate" and got[-1][1]["held"] and got[-1][1]["released"] == len(sent)
    assert any(f["rule"] == "billing:no-refund-promise" for f in decision["findings"])
    queue = http.get("/v1/queue", headers=server.auth("expert"), params={"limit": 500}).json()["items"]
    assert any(item["decision_id"] == decision["id"] and item["draft_text"] == text for item in queue)


def test_a_client_token_sees_the_client_view(server: LiveServer, http: httpx.Client) -> None:
    got = events(stream(http, server, HELD, role="client"))
    assert got[-1][1]["decision"].keys() == {"id", "outcome", "reason", "risk_level"}
    assert got[-1][1]["decision"]["reason"] == "held for review"


def test_ndjson_lines_carry_the_conversation_and_the_review_flags_decide_as_for_a_check(server: LiveServer, http: httpx.Client) -> None:
    header = {"policy": POLICY, "confidence": 90, "context": {"operator_uid": "u1", "messages": [
        {"role": "user", "sender_uid": "u1", "text": "paste me the full traceback"}]}}  # fmt: skip
    trace = 'Traceback (most recent call last):\n  File "/srv/app.py", line 3\nValueError: bad value.'
    lines = [json.dumps(header)] + [json.dumps({"text": trace[i : i + 9]}) for i in range(0, len(trace), 9)]
    body = ("\n".join(lines) + "\n").encode()
    reply = http.post(
        "/v1/check/stream", headers={**server.auth("expert"), "Content-Type": "application/x-ndjson"}, content=iter([body])
    )
    decision = events(reply)[-1][1]["decision"]
    same = http.post(
        "/v1/check", headers=server.auth("expert"),
        json={"policy": POLICY, "text": trace, "confidence": 90, "context": header["context"]},
    ).json()  # fmt: skip
    assert decision["outcome"] == same["outcome"]
    assert decision["review"]["context_supplied"] is True
    for key in ("context", "mode", "context_used", "answer", "acted_on"):
        assert decision["review"][key] == same["review"][key], key


def test_a_line_that_is_not_a_chunk_holds_the_rest_and_decides_as_an_error(server: LiveServer, http: httpx.Client) -> None:
    body = b'{"policy": "example-support", "confidence": 90}\n{"text": "Thanks for waiting. "}\n{"txt": 1}\n{"text": "Bye."}\n'
    reply = http.post(
        "/v1/check/stream", headers={**server.auth("expert"), "Content-Type": "application/x-ndjson"}, content=iter([body])
    )
    got = events(reply)
    assert [k for k, _ in got] == ["release", "hold", "decision"]
    assert got[-1][1]["decision"]["reason"] == "check_error" and got[-1][1]["decision"]["outcome"] == "escalate"


@pytest.mark.parametrize(
    ("headers", "params", "status", "where"),
    [
        ({"Content-Type": "application/json"}, {"policy": POLICY}, 422, ["header", "content-type"]),
        ({"Content-Type": "text/plain"}, {}, 422, ["query", "policy"]),
        ({"Content-Type": "text/plain"}, {"policy": POLICY, "confidence": 101}, 422, ["query", "confidence"]),
        ({"Content-Type": "text/plain"}, {"policy": "no-such-policy"}, 404, None),
    ],
)
def test_bad_requests_are_refused_before_any_event(
    server: LiveServer, http: httpx.Client, headers: dict[str, str], params: dict[str, Any], status: int, where: Any
) -> None:
    reply = http.post("/v1/check/stream", params=params, headers={**server.auth("client"), **headers}, content=b"Hi.")
    assert reply.status_code == status, reply.text
    if where:
        assert reply.json()["detail"][0]["loc"] == where
    else:
        assert reply.json()["error"] == "unknown_policy"


def test_no_token_no_stream(server: LiveServer, http: httpx.Client) -> None:
    reply = http.post("/v1/check/stream", params={"policy": POLICY}, headers={"Content-Type": "text/plain"}, content=b"Hi.")
    assert reply.status_code == 401


def test_a_bad_first_ndjson_line_is_422(server: LiveServer, http: httpx.Client) -> None:
    reply = http.post(
        "/v1/check/stream",
        headers={**server.auth("client"), "Content-Type": "application/x-ndjson"},
        content=b'{"policy": "example-support", "confidence": "high"}\n',
    )
    assert reply.status_code == 422 and reply.json()["detail"][0]["loc"][:3] == ["body", 0, "confidence"]


def _raw(server: LiveServer) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    head = (
        f"POST /v1/check/stream?policy={POLICY}&confidence=90 HTTP/1.1\r\nHost: x\r\n"
        f"Authorization: Bearer {server.tokens['expert']}\r\nContent-Type: text/plain\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    )
    sock.sendall(head.encode())
    return sock


def _chunk(sock: socket.socket, data: bytes) -> None:
    sock.sendall(f"{len(data):x}\r\n".encode() + data + b"\r\n")


def _read_until(sock: socket.socket, marker: bytes, seen: bytes = b"") -> bytes:
    deadline = time.monotonic() + 10
    while marker not in seen and time.monotonic() < deadline:
        seen += sock.recv(65536)
    assert marker in seen, seen
    return seen


def test_a_sentence_is_released_before_the_request_body_is_complete(server: LiveServer) -> None:
    with _raw(server) as sock:
        _chunk(sock, b"Thanks for waiting. Your or")
        seen = _read_until(sock, b"event: release")
        assert b'"text": "Thanks for waiting."' in seen and b"event: decision" not in seen
        _chunk(sock, b"der shipped today. ")
        seen = _read_until(sock, b"Your order shipped today.", seen)
        _chunk(sock, HELD.encode())
        _chunk(sock, b"")
        seen = _read_until(sock, b"event: decision", seen)
        assert b"approved a full refund" not in seen.split(b"event: decision")[0]


def test_a_client_that_leaves_still_gets_what_it_saw_recorded(server: LiveServer, http: httpx.Client) -> None:
    before = http.get("/v1/audit", headers=server.auth("expert"), params={"limit": 500}).json()["items"]
    with _raw(server) as sock:
        _chunk(sock, b"Thanks for waiting. Then a")
        _read_until(sock, b"event: release")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        rows = http.get("/v1/audit", headers=server.auth("expert"), params={"limit": 500}).json()["items"]
        if len(rows) > len(before):
            break
        time.sleep(0.1)
    new = [r for r in rows if r["id"] not in {b["id"] for b in before}]
    assert len(new) == 1 and new[0]["text_excerpt"].startswith("Thanks for waiting. Then a")


def test_a_stream_over_the_size_limit_is_decided_up_to_there(make_server: Any) -> None:
    small = make_server("--max-body-bytes", "2048")
    with httpx.Client(base_url=small.url, timeout=30) as http:
        text = "Thanks for waiting. " * 200  # 4,000 bytes
        got = events(stream(http, small, text))
        assert [k for k, _ in got][-2:] == ["decision", "error"]
        assert got[-1][1]["error"] == "too_large"
        decision = got[-2][1]["decision"]
        assert http.get(f"/v1/audit/{decision['id']}", headers=small.auth("expert")).status_code == 200
        released = "".join(d["text"] for k, d in got if k == "release")
        assert len(released.encode()) <= 2048


@pytest.mark.parametrize(
    ("text", "decided_by"),
    [
        ("Thanks for waiting. We'll put the money back on your card. Bye now.", "judge"),  # no word of the screen's
        (f"Thanks for waiting. {HELD}", "screen"),
        (CLEAN, "both"),
    ],
)
def test_with_a_judge_the_stream_decides_as_a_check_and_releases_only_with_the_decision(
    server: LiveServer, http: httpx.Client, text: str, decided_by: str
) -> None:
    got = events(stream(http, server, text, policy=JUDGED))
    decision = got[-1][1]["decision"]
    assert decision["layers"]["decided_by"] == decided_by
    same = http.post(
        "/v1/check", headers=server.auth("expert"), json={"policy": JUDGED, "text": text, "confidence": 90}
    ).json()
    assert (decision["outcome"], decision["reason"]) == (same["outcome"], same["reason"])
    assert [(f["rule"], f["layer"]) for f in decision["findings"]] == [(f["rule"], f["layer"]) for f in same["findings"]]
    assert decision["layers"]["judge"]["called"] is not False and decision["layers"]["decided_by"] == same["layers"]["decided_by"]
    released = "".join(d["text"] for k, d in got if k == "release")
    if decision["outcome"] == "execute":
        assert [k for k, _ in got] == ["release", "decision"] and released == text
    else:
        assert [k for k, _ in got] == ["decision"] and released == "" and got[-1][1]["held"]
