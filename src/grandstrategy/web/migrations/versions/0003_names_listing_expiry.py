"""Names, the listing and expiry: each seat's display name, each game's last change and facts.

``games.last_move`` is when the game last changed (created, a move, an undo); the listing sorts
by it and expiry measures idleness from it, so existing games start at their creation time.
``games.facts`` holds the public summary the listing shows (title, turn, phase, result) as JSON;
existing games get it with their next change. ``seats.name`` is a person's display name.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the three columns and the index the listing and expiry read by."""
    op.add_column("games", sa.Column("last_move", sa.String(32), nullable=False, server_default=""))
    op.execute("UPDATE games SET last_move = created")
    op.add_column("games", sa.Column("facts", sa.Text(), nullable=False, server_default=""))
    op.create_index("ix_games_last_move", "games", ["last_move"])
    op.add_column("seats", sa.Column("name", sa.String(64), nullable=True))


def downgrade() -> None:
    """Drop the index and the three columns."""
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("name")
    op.drop_index("ix_games_last_move", table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("facts")
        batch.drop_column("last_move")
