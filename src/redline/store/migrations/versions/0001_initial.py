"""Initial audit store: decisions and queue_items.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "decisions",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("policy_name", sa.String(200), nullable=False),
        sa.Column("policy_hash", sa.String(128), nullable=False),
        sa.Column("outcome", sa.String(16), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("risk_level", sa.String(16), nullable=False),
        sa.Column("rules_fired", sa.JSON(), nullable=False),
        sa.Column("suppressed", sa.JSON(), nullable=False),
        sa.Column("findings", sa.JSON(), nullable=False),
        sa.Column("timings_ms", sa.JSON(), nullable=False),
        sa.Column("total_ms", sa.Float(), nullable=False),
        sa.Column("licensed_by_context", sa.Boolean(), nullable=False),
        sa.Column("context", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("text_excerpt", sa.String(200), nullable=False),
        sa.Column("error", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_decisions")),
    )
    op.create_index(op.f("ix_decisions_created_at_id"), "decisions", ["created_at", "id"])
    op.create_index(op.f("ix_decisions_policy_name"), "decisions", ["policy_name"])
    op.create_index(op.f("ix_decisions_outcome"), "decisions", ["outcome"])

    op.create_table(
        "queue_items",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("decision_id", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("draft_text", sa.Text(), nullable=False),
        sa.Column("edited_text", sa.Text(), nullable=True),
        sa.Column("expert", sa.String(200), nullable=True),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
        sa.CheckConstraint(
            "status IN ('pending', 'approved', 'edited', 'rejected')",
            name=op.f("ck_queue_items_status"),
        ),
        sa.ForeignKeyConstraint(
            ["decision_id"],
            ["decisions.id"],
            name=op.f("fk_queue_items_decision_id_decisions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_queue_items")),
        sa.UniqueConstraint("decision_id", name=op.f("uq_queue_items_decision_id")),
        sqlite_autoincrement=True,
    )
    op.create_index(
        op.f("ix_queue_items_status_created_at"), "queue_items", ["status", "created_at", "id"]
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_queue_items_status_created_at"), table_name="queue_items")
    op.drop_table("queue_items")
    op.drop_index(op.f("ix_decisions_outcome"), table_name="decisions")
    op.drop_index(op.f("ix_decisions_policy_name"), table_name="decisions")
    op.drop_index(op.f("ix_decisions_created_at_id"), table_name="decisions")
    op.drop_table("decisions")
