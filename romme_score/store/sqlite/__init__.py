"""The SQLite backend of the store: one database file (the default)."""

from romme_score.store.sqlite.store import SQLiteStore

__all__ = ["SQLiteStore"]
