"""The web app: remote multi-player games over any kernel rule set (``grandstrategy serve``).

Layers, top to bottom: :mod:`.app` (FastAPI routes, HTML pages), :mod:`.service` (games, seats,
moves, bots, views), :mod:`.storage` (SQLAlchemy tables and the Alembic migration). The server
owns the dice (:mod:`grandstrategy.core.committed`) and sends every seat only its own view.
"""
