"""What a decision left out under the caps; the re-check of an Expert's edit.

Revision ID: 0003
Revises: 0002
Create Date: 2025-02-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("decisions") as batch:
        batch.add_column(sa.Column("omitted", sa.JSON(none_as_null=True), nullable=True))
    with op.batch_alter_table("queue_items") as batch:
        batch.add_column(sa.Column("edit_decision_id", sa.String(64), nullable=True))
        batch.add_column(sa.Column("edit_outcome", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("queue_items") as batch:
        batch.drop_column("edit_outcome")
        batch.drop_column("edit_decision_id")
    with op.batch_alter_table("decisions") as batch:
        batch.drop_column("omitted")
