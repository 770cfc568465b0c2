"""The workspace's HTTP contract, in process: cookies, CSRF, origins, roles, leases, headers."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from redline.service.app import create_app
from redline.service.settings import Role, Settings, TokenHash
from redline.service.tokens import digest

ROOT = Path(__file__).parent.parent.parent
TOKENS = {
    "client": "client-token-0123456789abcdef",
    "expert": "expert-token-0123456789abcdef",
    "expert2": "expert-two-token-0123456789ab",
    "operator": "operator-token-0123456789abc",
}
POLICY = "example-support"


def _settings(tmp: Path, tokens: dict[str, str]) -> Settings:
    return Settings(
        db_url=f"sqlite:///{tmp / 'redline.db'}",
        policies_dir=tmp / "policies",
        log_path=tmp / "decisions.jsonl",
        tokens=tuple(TokenHash(role=Role(name.rstrip("2")), sha256=digest(t)) for name, t in tokens.items()),
        reload_interval_s=0,
    )


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "policies").mkdir()
    shutil.copy(ROOT / "examples" / "policy.yaml", tmp_path / "policies" / "example.yaml")
    return tmp_path


@pytest.fixture
def client(folder: Path) -> Iterator[TestClient]:
    with TestClient(create_app(_settings(folder, TOKENS)), follow_redirects=False) as c:
        yield c


def sign_in(c: TestClient, token: str) -> httpx.Response:
    form = c.get("/workspace/login")
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', form.text)
    assert csrf is not None
    return c.post("/workspace/login", data={"token": token, "csrf_token": csrf.group(1)})


def csrf_of(page: httpx.Response) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    assert found is not None
    return found.group(1)


def held_item(c: TestClient, text: str = "I have approved a full refund.") -> int:
    auth = {"Authorization": f"Bearer {TOKENS['client']}"}
    decision = c.post("/v1/check", headers=auth, json={"policy": POLICY, "text": text}).json()["id"]
    items = c.get("/v1/queue", headers={"Authorization": f"Bearer {TOKENS['expert']}"}).json()["items"]
    return int(next(i["id"] for i in items if i["decision_id"] == decision))


def test_the_cookie_is_secure_over_tls_and_not_otherwise(folder: Path) -> None:
    app = create_app(_settings(folder, TOKENS))
    for base, secure in (("https://testserver", True), ("http://testserver", False)):
        with TestClient(app, base_url=base, follow_redirects=False) as c:
            reply = sign_in(c, TOKENS["expert"])
            cookie = next(v for k, v in reply.headers.multi_items() if k == "set-cookie" and "redline_session=" in v)
            assert reply.status_code == 303
            assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/workspace" in cookie
            assert "Max-Age=28800" in cookie
            assert ("Secure" in cookie) is secure


def test_sign_in_without_its_csrf_token_is_refused(client: TestClient) -> None:
    reply = client.post("/workspace/login", data={"token": TOKENS["expert"]})
    assert reply.status_code == 403 and "CSRF" in reply.text
    assert "redline_session" not in reply.headers.get("set-cookie", "")


def test_a_wrong_token_and_a_client_token_are_refused(client: TestClient) -> None:
    assert sign_in(client, "not-a-token-at-all-0000").status_code == 401
    refused = sign_in(client, TOKENS["client"])
    assert refused.status_code == 403 and "client token cannot sign in" in refused.text
    assert TOKENS["client"] not in refused.text  # never echoed back


def test_every_page_and_action_needs_the_session(client: TestClient) -> None:
    item = held_item(client)
    for path in ("/workspace/", f"/workspace/items/{item}", "/workspace/audit", "/workspace/policies",
                 f"/workspace/policies/{POLICY}"):  # fmt: skip
        reply = client.get(path)
        assert (reply.status_code, reply.headers["location"]) == (303, "/workspace/login"), path
    for action in ("approve", "edit", "reject"):
        assert client.post(f"/workspace/items/{item}/{action}", data={"note": "x", "text": "x"}).status_code == 401
    assert client.post(f"/workspace/policies/{POLICY}/try", data={"text": "x"}).status_code == 401


def test_a_form_from_another_origin_is_refused_even_with_the_token(client: TestClient) -> None:
    sign_in(client, TOKENS["expert"])
    item = held_item(client)
    csrf = csrf_of(client.get(f"/workspace/items/{item}"))
    for origin in ("https://evil.example", "null"):
        reply = client.post(f"/workspace/items/{item}/approve", data={"csrf_token": csrf, "edit_id": ""},
                            headers={"Origin": origin})  # fmt: skip
        assert reply.status_code == 403 and "another origin" in reply.text
    ok = client.post(f"/workspace/items/{item}/approve", data={"csrf_token": csrf, "edit_id": ""},
                     headers={"Origin": "http://testserver"})  # fmt: skip
    assert ok.status_code == 303


def test_pages_carry_a_strict_content_security_policy(client: TestClient) -> None:
    sign_in(client, TOKENS["expert"])
    reply = client.get("/workspace/")
    assert "script-src 'self'" in reply.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in reply.headers["content-security-policy"]
    assert reply.headers["cache-control"] == "no-store" and reply.headers["x-frame-options"] == "DENY"


def test_an_operator_reads_an_item_but_cannot_act(client: TestClient) -> None:
    item = held_item(client)
    sign_in(client, TOKENS["operator"])
    page = client.get(f"/workspace/items/{item}")
    assert page.status_code == 200 and "approve-form" not in page.text
    reply = client.post(f"/workspace/items/{item}/approve", data={"csrf_token": csrf_of(page), "edit_id": ""})
    assert reply.status_code == 403
    assert "Lease" not in page.text  # reading takes no lease


def test_the_api_refuses_to_act_on_an_item_another_expert_has_open(client: TestClient) -> None:
    item = held_item(client)
    sign_in(client, TOKENS["expert"])
    client.get(f"/workspace/items/{item}")  # opened in the workspace: leased
    other = {"Authorization": f"Bearer {TOKENS['expert2']}"}
    reply = client.post(f"/v1/queue/{item}/approve", headers=other)
    assert reply.status_code == 409 and reply.json()["error"] == "leased"
    mine = client.post(f"/v1/queue/{item}/approve", headers={"Authorization": f"Bearer {TOKENS['expert']}"})
    assert mine.status_code == 200 and mine.json()["status"] == "approved"


def test_a_session_ends_when_its_token_is_no_longer_configured(folder: Path) -> None:
    with TestClient(create_app(_settings(folder, TOKENS)), follow_redirects=False) as c:
        sign_in(c, TOKENS["expert"])
        cookies = dict(c.cookies)
        assert c.get("/workspace/").status_code == 200
    fewer = {k: v for k, v in TOKENS.items() if k != "expert"}
    with TestClient(create_app(_settings(folder, fewer)), follow_redirects=False, cookies=cookies) as c:
        assert c.get("/workspace/").status_code == 303


def test_the_audit_api_filters_by_rule(client: TestClient) -> None:
    held_item(client)
    held_item(client, "Thanks, we are on it.")
    auth = {"Authorization": f"Bearer {TOKENS['operator']}"}
    rows = client.get("/v1/audit", headers=auth, params={"rule": "billing:no-refund-promise"}).json()["items"]
    assert len(rows) == 1 and rows[0]["rules_fired"] == ["billing:no-refund-promise"]
    assert client.get("/v1/audit", headers=auth, params={"rule": "Bad Rule!"}).status_code == 422


def test_a_held_edit_is_shown_with_its_findings_and_approving_sends_exactly_it(client: TestClient) -> None:
    item = held_item(client)
    sign_in(client, TOKENS["expert"])
    csrf = csrf_of(client.get(f"/workspace/items/{item}"))
    edit = "Please write to jane.doe@gmail.com about it."
    reply = client.post(f"/workspace/items/{item}/edit", data={"csrf_token": csrf, "text": edit})
    assert (reply.status_code, reply.headers["location"]) == (303, f"/workspace/items/{item}#edit-check")
    page = client.get(f"/workspace/items/{item}")
    assert "held for a second look" in page.text and "detector:pii" in page.text
    assert "[EMAIL_ADDRESS]" in page.text  # the side list names the type, not the address
    edit_id = re.search(r'name="edit_id" value="([^"]*)"', page.text)
    assert edit_id is not None and edit_id.group(1)
    stale = client.post(f"/workspace/items/{item}/approve", data={"csrf_token": csrf, "edit_id": ""})
    assert stale.status_code == 409  # approve only the edit that was read
    done = client.post(f"/workspace/items/{item}/approve", data={"csrf_token": csrf, "edit_id": edit_id.group(1),
                                                                 "note": "the customer asked for it"})  # fmt: skip
    assert done.status_code == 303
    got = client.get(f"/v1/queue/{item}", headers={"Authorization": f"Bearer {TOKENS['expert']}"}).json()
    assert (got["status"], got["final_text"], got["note"]) == ("edited", edit, "the customer asked for it")
    assert got["edit_outcome"] == "escalate"
    again = client.post(f"/workspace/items/{item}/reject", data={"csrf_token": csrf, "note": "late"})
    assert again.status_code == 409 and "already edited" in again.text


def test_an_action_cannot_be_edited(client: TestClient) -> None:
    action = {"order_id": "A-1", "amount": 18000.0, "currency": "USD", "days_since_purchase": 12,
              "return_window_days": 30, "prior_refunds": 2, "customer_tenure_days": 90}  # fmt: skip
    auth = {"Authorization": f"Bearer {TOKENS['client']}"}
    decided = client.post("/v1/decide", headers=auth, json={"domain": "refund_approval", "input": action}).json()
    items = client.get("/v1/queue", headers={"Authorization": f"Bearer {TOKENS['expert']}"}).json()["items"]
    item = next(i["id"] for i in items if i["decision_id"] == decided["id"])
    sign_in(client, TOKENS["expert"])
    page = client.get(f"/workspace/items/{item}")
    assert "Thresholds" in page.text and "edit-form" not in page.text
    reply = client.post(f"/workspace/items/{item}/edit", data={"csrf_token": csrf_of(page), "text": "{}"})
    assert reply.status_code == 409


def test_after_a_held_edit_a_refused_one_cannot_be_approved_in_its_place(client: TestClient) -> None:
    item = held_item(client)
    sign_in(client, TOKENS["expert"])
    csrf = csrf_of(client.get(f"/workspace/items/{item}"))
    client.post(f"/workspace/items/{item}/edit", data={"csrf_token": csrf, "text": "Write to jane.doe@gmail.com."})
    refused = client.post(f"/workspace/items/{item}/edit", data={"csrf_token": csrf, "text": "key AKIAIOSFODNN7EXAMPLE"})
    assert refused.status_code == 409 and "The gate refuses this edit" in refused.text
    page = client.get(f"/workspace/items/{item}")
    assert "held for a second look" not in page.text and "earlier held edit cannot be approved" in page.text
    edit_id = re.search(r'name="edit_id" value="([^"]*)"', page.text)
    assert edit_id is not None
    reply = client.post(f"/workspace/items/{item}/approve", data={"csrf_token": csrf, "edit_id": edit_id.group(1)})
    assert reply.status_code == 409 and "last edit was refused" in reply.text
    clean = client.post(f"/workspace/items/{item}/edit", data={"csrf_token": csrf, "text": "We are on it."})
    assert clean.status_code == 303
