"""SQLite's words where they are not the standard's (:class:`~romme_score.store.sql.dialect.Dialect`)."""

from __future__ import annotations

from collections.abc import Sequence

from romme_score.store.sql.dialect import Cursor, Dialect, Params
from romme_score.store.sqlite.schema import TYPES


class SQLiteDialect(Dialect):
    """One writer at a time holds the whole file (``BEGIN IMMEDIATE``): no row or table
    locks, and the other connections see a change by ``PRAGMA data_version``, so nothing is
    announced. Booleans are integers, so the export's lines carry their kind in bits."""

    name = "sqlite"
    types = TYPES
    join_in_order = "CROSS JOIN"  # SQLite's planner keeps the order of a CROSS JOIN

    def insert(self, cur: Cursor, sql: str, params: Params) -> int:
        row_id = cur.execute(sql, params).lastrowid
        assert row_id is not None
        return int(row_id)

    def reserve_ids(self, cur: Cursor, table: str, count: int) -> list[int]:
        # The write holds the file: the ids after the highest are free, as SQLite would give them.
        (last,) = cur.execute(f"SELECT COALESCE(MAX(id), 0) FROM {table}").fetchone()
        return list(range(last + 1, last + 1 + count))

    def bits(self, conditions: Sequence[str]) -> str:
        # A condition is 0 or 1 already: shifted in place. << and | share one precedence in
        # SQLite: every shifted flag in parentheses.
        return " | ".join(f"(({c}) << {k})" if k else f"({c})" for k, c in enumerate(conditions))

    def count_true(self, condition: str) -> str:
        return f"SUM({condition})"  # a comparison is 0 or 1

    def local_date(self, column: str) -> str | None:
        return f"date({column}, 'localtime')"

    def replaced_row(self) -> tuple[str, str]:
        # Looked up for the few replaced rows only: numbered has no index, and a join on it
        # would make SQLite build one for every round.
        return (
            "CASE WHEN r.replaced_by IS NULL THEN NULL "
            "ELSE (SELECT nb.row FROM numbered nb WHERE nb.id = r.replaced_by) END",
            "",
        )


SQLITE = SQLiteDialect()
