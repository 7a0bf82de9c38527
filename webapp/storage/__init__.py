"""Persistence: SQLAlchemy tables and the game store with version compare-and-set."""
