"""Alembic environment: run the migrations on the connection the server hands over."""

from __future__ import annotations

from alembic import context

from grandstrategy.web.storage import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata)
with context.begin_transaction():
    context.run_migrations()
