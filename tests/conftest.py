from __future__ import annotations

from collections.abc import Callable
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


BACKTEST_SENTENCES = (
    "Thanks for your patience while we looked into this.",
    "Your order shipped this morning and should arrive on Friday.",
    "I have approved a full refund to your card.",
    "There is no refund due on this invoice.",
    "We added a store credit to your profile.",
    "We waived the cancellation fee this time.",
    "You can reach me at jane.roe@mail.example.org if anything else comes up.",
    "The deploy key is AKIAIOSFODNN7EXAMPLE, please keep it safe.",
    "Let me know if there is anything else I can help with.",
    "Our records say your money back request was closed in 2019.",
)


def backtest_rows(count: int, seed: int = 11) -> list[dict[str, object]]:
    """A seeded corpus for backtests: drafts of two to four sentences, some with a
    confidence, that the two fixture policies decide differently in every direction."""
    import random

    rng = random.Random(seed)
    rows: list[dict[str, object]] = []
    for index in range(count):
        row: dict[str, object] = {"id": f"d-{index:05d}", "text": " ".join(rng.sample(BACKTEST_SENTENCES, rng.randint(1, 3)))}
        if rng.random() < 0.7:
            row["confidence"] = rng.choice((50, 85, 95))
        rows.append(row)
    return rows


@pytest.fixture(scope="session")
def backtest_policies() -> tuple[Path, Path]:
    """(old, new) policy files for backtests."""
    return FIXTURES / "backtest" / "old.yaml", FIXTURES / "backtest" / "new.yaml"


@pytest.fixture(scope="session")
def make_backtest_rows() -> Callable[..., list[dict[str, object]]]:
    return backtest_rows
