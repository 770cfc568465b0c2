"""Decisions on actions in the audit store: the `action` column and its migration (0002)."""

from __future__ import annotations

from alembic import command
from alembic.config import Config

from redline import Gate
from redline.domains import DomainRegistry
from redline.store.sql import MIGRATIONS, AuditStore

SMALL = dict(DomainRegistry.load(plugins=False).get("refund_approval").scenarios[0].input)


def test_an_action_decision_keeps_how_it_was_decided(db_url: str) -> None:
    decision = Gate().decide("refund_approval", {**SMALL, "amount": 18_000})
    with AuditStore(db_url) as store:
        store.migrate()
        store.record(decision, text="{}", text_excerpt="{}", held=True)
        row = store.get(decision.id)
    assert row is not None and decision.action is not None
    assert row.policy_name == "refund_approval" and row.outcome.value == "defer"
    assert row.action == decision.action.to_dict()
    assert row.action["thresholds"]["adjusted"]["confidence_min"] > row.action["thresholds"]["base"]["confidence_min"]


def test_a_store_made_before_actions_is_upgraded_keeping_its_rows(db_url: str) -> None:
    check = Gate().check("hello")
    with AuditStore(db_url) as store:
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with store.engine.begin() as conn:
            config.attributes["connection"] = conn
            command.upgrade(config, "0001")
            conn.exec_driver_sql(
                "INSERT INTO decisions (id, created_at, policy_name, policy_hash, outcome, reason, risk_level, "
                "rules_fired, suppressed, findings, timings_ms, total_ms, licensed_by_context, text_excerpt) "
                "VALUES ('old-1', '2025-01-01 00:00:00', 'p', 'sha256:x', 'defer', 'clean', 'low', "
                "'[]', '[]', '[]', '{}', 0.1, false, 'hello')"
            )
        store.migrate()
        old = store.get("old-1")
        store.record(check, text="hello", text_excerpt="hello", held=False)
        new = store.get(check.id)
    assert old is not None and old.action is None and old.text_excerpt == "hello"
    assert new is not None and new.action is None
