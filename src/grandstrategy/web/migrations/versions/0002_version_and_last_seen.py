"""Undo and "since you were last here": a game's version counter and each seat's last look.

``games.version`` starts equal to the log length and grows with every stored change, an undo
included, so optimistic concurrency never mistakes a position played again after an undo for the
one a stale client saw. ``seats.last_seen`` is the log length the seat's person last looked at.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the two columns; existing games start at the version of their log length."""
    op.add_column("games", sa.Column("version", sa.Integer(), nullable=False, server_default="0"))
    op.execute("UPDATE games SET version = log_length")
    op.add_column("seats", sa.Column("last_seen", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    """Drop the two columns."""
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("last_seen")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("version")
