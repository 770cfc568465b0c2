"""The Expert workspace: sessions, queue leases, and each decision's layers.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("decisions") as batch:
        batch.add_column(sa.Column("layers", sa.JSON(none_as_null=True), nullable=True))
    op.create_table(
        "queue_leases",
        sa.Column("item_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("expert", sa.String(200), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["item_id"], ["queue_items.id"], name="fk_queue_leases_item_id_queue_items", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("item_id", name="pk_queue_leases"),
    )
    op.create_table(
        "workspace_sessions",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("principal", sa.String(200), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_workspace_sessions"),
    )
    op.create_index("ix_workspace_sessions_expires_at", "workspace_sessions", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_workspace_sessions_expires_at", table_name="workspace_sessions")
    op.drop_table("workspace_sessions")
    op.drop_table("queue_leases")
    with op.batch_alter_table("decisions") as batch:
        batch.drop_column("layers")
