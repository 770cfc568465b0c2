"""The service's heap: frozen out of the cyclic collector while it serves, thawed after.

A frozen object is freed by reference counting only, so a policy that is unloaded must
hold no reference cycle: if it did, every reload would leave the old one behind."""

from __future__ import annotations

import gc
import shutil
import weakref
from pathlib import Path

from fastapi.testclient import TestClient

from redline.service.app import create_app
from redline.service.policies import PolicyRegistry
from redline.service.settings import Role, Settings, TokenHash
from redline.service.tokens import digest

ROOT = Path(__file__).parent.parent.parent
POLICY = ROOT / "examples" / "policy.yaml"


def _policies(tmp: Path) -> Path:
    folder = tmp / "policies"
    folder.mkdir()
    shutil.copy(POLICY, folder / "example.yaml")
    return folder


def _edit(folder: Path) -> None:  # another version of the same policy (another hash)
    path = folder / "example.yaml"
    text = path.read_text()
    assert "min_confidence: 80" in text
    path.write_text(text.replace("min_confidence: 80", "min_confidence: 81"))


def test_an_unloaded_policy_is_freed_without_the_cycle_collector(tmp_path: Path) -> None:
    folder = _policies(tmp_path)
    registry = PolicyRegistry(folder)
    registry.load(strict=True)
    gate = registry.get("example-support")
    assert gate is not None
    gate.check("I have approved a full refund for your order.")
    old = weakref.ref(gate)
    del gate
    gc.disable()
    try:
        _edit(folder)
        assert registry.reload(force=True)
        new = registry.get("example-support")
        assert new is not None and new is not old()  # a new compiled policy took its place
        assert old() is None, "the old compiled policy is kept alive by a reference cycle"
    finally:
        gc.enable()


def test_the_service_freezes_its_heap_while_it_serves_and_thaws_it_after(tmp_path: Path) -> None:
    settings = Settings(
        db_url=f"sqlite:///{tmp_path / 'redline.db'}",
        policies_dir=_policies(tmp_path),
        log_path=tmp_path / "decisions.jsonl",
        tokens=(TokenHash(role=Role.CLIENT, sha256=digest("client-token-0123456789abcdef")),),
        reload_interval_s=0,
    )
    app = create_app(settings)
    assert gc.get_freeze_count() == 0
    with TestClient(app) as client:
        frozen = gc.get_freeze_count()
        assert frozen > 10_000  # the modules, the compiled policy, the schemas
        answer = client.post(
            "/v1/check",
            json={"policy": "example-support", "text": "Thanks, talk soon.", "confidence": 95},
            headers={"Authorization": "Bearer client-token-0123456789abcdef"},
        )
        assert answer.status_code == 200
        _edit(settings.policies_dir)
        assert app.state.service.policies.reload(force=True)
        assert gc.get_freeze_count() > frozen  # the new compiled policy is frozen too
    assert gc.get_freeze_count() == 0
