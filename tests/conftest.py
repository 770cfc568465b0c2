from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

from redline import Gate, load_policy

FIXTURES = Path(__file__).parent / "fixtures"

settings.register_profile("ci", max_examples=60, deadline=None)
settings.register_profile("dev", max_examples=30, deadline=None)
settings.load_profile("ci")


@pytest.fixture(scope="session")
def fixtures() -> Path:
    return FIXTURES


@pytest.fixture(scope="session")
def support_gate() -> Gate:
    return Gate(load_policy(FIXTURES / "policies" / "support.yaml"))


@pytest.fixture(scope="session")
def triage_gate() -> Gate:
    return Gate(load_policy(FIXTURES / "policies" / "triage.yaml"))
