"""`POST /v1/check` answered by the shortcut and by the FastAPI route: the same answers.

The same requests, good and bad, go to one app with the shortcut and one without it; the
status, the body (decision ids aside) and the content type must match, and every 200 of
the shortcut must have its audit row and its decision-log line."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from redline.service import check_shortcut
from redline.service.app import RedlineApp, create_app
from redline.service.settings import Role, Settings, TokenHash
from redline.service.tokens import digest
from redline.store.decision_log import read_events
from redline.store.sql import AuditStore

ROOT = Path(__file__).parent.parent.parent
TOKENS = {"client": "client-token-0123456789abcdef", "expert": "expert-token-0123456789abcdef",
          "operator": "operator-token-0123456789abc"}  # fmt: skip
POLICY = "example-support"
JSON = "application/json"

# (headers beyond the token, the raw body, the role of the token or None for no token)
CASES: list[tuple[str, dict[str, str], bytes, str | None]] = [
    ("clean", {"content-type": JSON}, b'{"policy": "example-support", "text": "Thanks, talk soon.", "confidence": 95}', "client"),
    ("held", {"content-type": JSON}, b'{"policy": "example-support", "text": "I have approved a full refund."}', "client"),
    ("expert view", {"content-type": JSON}, b'{"policy": "example-support", "text": "I have approved a full refund."}', "expert"),
    ("operator, charset", {"content-type": "application/json; charset=utf-8"}, b'{"policy": "example-support", "text": "ok"}', "operator"),
    ("context", {"content-type": JSON}, json.dumps({"policy": POLICY, "text": "Your refund is approved.", "context": {
        "operator_uid": "op", "messages": [{"role": "user", "sender_uid": "u1", "text": "Can I get a refund?"}]}}).encode(), "client"),
    ("a secret", {"content-type": JSON}, b'{"policy": "example-support", "text": "key AKIAIOSFODNN7EXAMPLE mail maria@example.com"}', "client"),
    ("unknown policy", {"content-type": JSON}, b'{"policy": "nope", "text": "hi"}', "client"),
    ("no token", {"content-type": JSON}, b'{"policy": "example-support", "text": "hi"}', None),
    ("bad token", {"content-type": JSON, "authorization": "Bearer not-a-token-0000000000"}, b'{"policy": "example-support", "text": "hi"}', None),
    ("basic scheme", {"content-type": JSON, "authorization": "Basic abc"}, b'{"policy": "example-support", "text": "hi"}', None),
    ("bad json", {"content-type": JSON}, b'{"policy": "example-support", "text": ', "client"),
    ("not utf-8", {"content-type": JSON}, b'{"policy": "example-support", "text": "\xff\xfe"}', "client"),
    ("lone surrogate", {"content-type": JSON}, b'{"policy": "example-support", "text": "a\\ud800b"}', "client"),
    ("nul", {"content-type": JSON}, b'{"policy": "example-support", "text": "a\\u0000b"}', "client"),
    ("nan", {"content-type": JSON}, b'{"policy": "example-support", "text": "hi", "confidence": NaN}', "client"),
    ("out of range", {"content-type": JSON}, b'{"policy": "example-support", "text": "hi", "confidence": 101}', "client"),
    ("extra field", {"content-type": JSON}, b'{"policy": "example-support", "text": "hi", "user": "x"}', "client"),
    ("missing text", {"content-type": JSON}, b'{"policy": "example-support"}', "client"),
    ("wrong type", {"content-type": JSON}, b'{"policy": "example-support", "text": 5}', "client"),
    ("a list", {"content-type": JSON}, b'[1, 2]', "client"),
    ("empty body", {"content-type": JSON}, b"", "client"),
    ("text/plain", {"content-type": "text/plain"}, b'{"policy": "example-support", "text": "hi"}', "client"),
    ("no content type", {}, b'{"policy": "example-support", "text": "hi"}', "client"),
    ("+json", {"content-type": "application/merge-patch+json"}, b'{"policy": "example-support", "text": "hi"}', "client"),
    ("duplicate keys", {"content-type": JSON}, b'{"policy": "nope", "policy": "example-support", "text": "hi"}', "client"),
]  # fmt: skip


def _settings(tmp: Path) -> Settings:
    (tmp / "policies").mkdir(parents=True)
    shutil.copy(ROOT / "examples" / "policy.yaml", tmp / "policies" / "example.yaml")
    return Settings(
        db_url=f"sqlite:///{tmp / 'redline.db'}",
        policies_dir=tmp / "policies",
        log_path=tmp / "decisions.jsonl",
        tokens=tuple(TokenHash(role=Role(name), sha256=digest(t)) for name, t in TOKENS.items()),
        reload_interval_s=0,
    )


def _without_shortcut(app: RedlineApp) -> RedlineApp:
    app.check_shortcut = None
    return app


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[TestClient, TestClient, Settings]]:
    fast = _settings(tmp_path / "fast")
    slow = _settings(tmp_path / "slow")
    app = create_app(fast)
    assert app.check_shortcut is not None
    with TestClient(app) as a, TestClient(_without_shortcut(create_app(slow))) as b:
        yield a, b, fast


def _answer(client: TestClient, headers: dict[str, str], body: bytes, role: str | None) -> tuple[int, str, Any]:
    sent = dict(headers)
    if role is not None:
        sent["authorization"] = f"Bearer {TOKENS[role]}"
    reply = client.post("/v1/check", content=body, headers=sent)
    payload = reply.json()
    if reply.status_code == 200:
        payload.pop("id")
        payload.pop("timings_ms", None)
    return reply.status_code, reply.headers["content-type"], payload


@pytest.fixture
def answered(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """One entry per check the shortcut answered itself."""
    seen: list[str] = []
    real = check_shortcut.run_check

    async def counted(*args: Any) -> bytes:
        seen.append("x")
        return await real(*args)

    monkeypatch.setattr(check_shortcut, "run_check", counted)
    return seen


def test_the_shortcut_answers_every_request_as_the_route_does(
    pair: tuple[TestClient, TestClient, Settings], answered: list[str]
) -> None:
    fast, slow, settings = pair
    ids = []
    for name, headers, body, role in CASES:
        got, expected = _answer(fast, headers, body, role), _answer(slow, headers, body, role)
        assert got == expected, name
        if got[0] == 200:
            sent = dict(headers, authorization=f"Bearer {TOKENS[role or 'client']}")
            ids.append(fast.post("/v1/check", content=body, headers=sent).json()["id"])
    assert sum(1 for _, _, _, role in CASES if role) > len(ids) >= 6  # both kinds were tried
    # the shortcut answered the well-formed ones (twice each) and the unknown policy; the
    # route everything else, a +json content type (a 200) included
    assert len(answered) == 2 * (len(ids) - 1) + 1
    # every 200 has its row and its log line, and nothing unscrubbed was kept
    with AuditStore(settings.db_url) as store:
        rows = {i: store.get(i) for i in ids}
    logged = {e["id"]: e for e in read_events(settings.log_path).events}
    for i in ids:
        assert rows[i] is not None and i in logged
        for kept in (rows[i].text_excerpt, json.dumps(logged[i])):
            assert "AKIAIOSFODNN7EXAMPLE" not in kept and "maria@example.com" not in kept


def test_a_body_over_the_limit_or_in_chunks_gets_the_routes_answer(
    pair: tuple[TestClient, TestClient, Settings], answered: list[str]
) -> None:
    fast, slow, settings = pair
    headers = {"content-type": JSON, "authorization": f"Bearer {TOKENS['client']}"}
    text = "x" * (settings.max_body_bytes + 10)
    big = json.dumps({"policy": POLICY, "text": text}).encode()
    got, expected = (client.post("/v1/check", content=big, headers=headers) for client in (fast, slow))
    assert got.status_code == expected.status_code == 413
    assert got.json() == expected.json()

    def chunks() -> Iterator[bytes]:  # no content-length: sent chunked
        yield b'{"policy": "example-support", '
        yield b'"text": "I have approved a full refund."}'

    fast_chunked = fast.post("/v1/check", content=chunks(), headers=headers)
    slow_chunked = slow.post("/v1/check", content=chunks(), headers=headers)
    assert fast_chunked.status_code == slow_chunked.status_code == 200
    assert {**fast_chunked.json(), "id": ""} == {**slow_chunked.json(), "id": ""}
    assert answered == []  # both went the route's way


def test_an_unexpected_error_in_the_shortcut_is_the_guards_503(
    pair: tuple[TestClient, TestClient, Settings], monkeypatch: pytest.MonkeyPatch
) -> None:
    fast, _, _ = pair

    async def broken(*args: Any) -> bytes:
        raise RuntimeError("a bug")

    monkeypatch.setattr(check_shortcut, "run_check", broken)
    reply = fast.post(
        "/v1/check",
        json={"policy": POLICY, "text": "hello"},
        headers={"authorization": f"Bearer {TOKENS['client']}"},
    )
    assert reply.status_code == 503
    assert reply.json()["error"] == "internal" and reply.headers["retry-after"] == "1"
