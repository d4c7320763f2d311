"""What differs between the SQL databases the store runs on, and nothing else.

The store's SQL is written once (:mod:`romme_score.store.sql.store`), with ``?`` for a
value and ``:name`` for a named one; a backend brings two things:

- a connection (:class:`~romme_score.store.sql.connection.Connection`): opening, its
  checks and migrations, one transaction per write with the database's errors as the
  store's (:mod:`romme_score.store.errors`), and how it learns that another process
  changed something (SQLite's ``data_version``, PostgreSQL's ``LISTEN``);
- a :class:`Dialect`: what its SQL says differently (the placeholders it takes, how an
  inserted row's id comes back, how writers of one session wait for each other, how a
  change is announced, its column types).

A third backend is one module with these two classes and one line in
:data:`romme_score.store.BACKENDS`; the contract suite (``tests/test_store_contract.py``)
then runs on it unchanged. SQLAlchemy's dialects share one SQL layer the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

# The cursor a write is given: ``execute(sql, params)`` returns something to fetch from
# (``fetchone``, ``fetchall``, ``rowcount``), ``executemany(sql, rows)``; the store's SQL
# as written. sqlite3's connection is one; PostgreSQL's wraps psycopg's cursor.
Cursor = Any
Params = Sequence[Any] | dict[str, Any]


class Dialect:
    """A backend's SQL where it is not the standard's. Each class attribute and method
    here is one such difference; the defaults are what both SQLite and PostgreSQL say."""

    name = "sql"
    # Column types by what they hold (:mod:`romme_score.store.sql.schema`).
    types: Mapping[str, str] = {}
    # After the SELECT of a session's (or tournament's) row that makes writers of it wait
    # for each other; empty where a write locks the whole database anyway.
    for_update = ""
    # A join the planner takes in the order written (the statistics' one pass over the hands).
    join_in_order = "JOIN"
    # Text ordered by its bytes, as the hands' primary key orders the players.
    bytewise = ""
    # The export's and the scoresheet's lines read with the seats side by side and the
    # kind of each line in integer bits (:meth:`bits`, :mod:`romme_score.store.sql.lines`);
    # otherwise built from :meth:`~romme_score.store.sql.store.SQLStore.all_rounds`.
    side_by_side = True
    # Run after a whole session was written (an import): the planner's statistics.
    after_import: tuple[str, ...] = ()

    def insert(self, cur: Cursor, sql: str, params: Params) -> int:
        """Run an INSERT of one row and return the id the database gave it."""
        raise NotImplementedError

    def inserted(self, cur: Cursor, sql: str, params: Params) -> bool:
        """Run an ``INSERT ... ON CONFLICT DO NOTHING`` of one row: whether it went in."""
        return bool(cur.execute(sql, params).rowcount == 1)

    def reserve_ids(self, cur: Cursor, table: str, count: int) -> list[int]:
        """``count`` new ids for rows of ``table`` (inside the write), so that the rows and
        those that point at them go in with ``executemany``."""
        raise NotImplementedError

    def reserving(self, table: str) -> str | None:
        """The SQL (one ``?``: how many) by which :meth:`reserve_ids` takes ids of
        ``table`` where it is a read that can be asked ahead with others, or None."""
        return None

    def lock_names(self, cur: Cursor, table: str) -> None:
        """Writers that add or change a name of ``table`` one after the other (nothing
        where a write locks the whole database)."""

    def notify(self, cur: Cursor, session_id: int) -> None:
        """Tell the other connections the session changed, when this write commits
        (nothing where they find out by themselves)."""

    def bits(self, conditions: Sequence[str]) -> str:
        """The SQL of a 64-bit integer with bit ``k`` set where ``conditions[k]`` holds (each
        a condition that is true or false, never NULL): a line's kind, as
        :func:`~romme_score.store.sql.lines.round_lines` reads it.

        >>> Dialect().bits(["a IS NULL", "b IS TRUE"])
        '(CASE WHEN a IS NULL THEN 1 ELSE 0 END + CASE WHEN b IS TRUE THEN 2 ELSE 0 END)'
        """
        cases = " + ".join(f"CASE WHEN {c} THEN {1 << k} ELSE 0 END" for k, c in enumerate(conditions))
        return f"({cases})"

    def count_true(self, condition: str) -> str:
        """The SQL that counts the rows of a group where ``condition`` holds."""
        return f"SUM(CASE WHEN {condition} THEN 1 ELSE 0 END)"

    def local_date(self, column: str) -> str | None:
        """The SQL of the local date (this machine's time zone) of a stored UTC time, or
        None where the database cannot know it (then the store compares in Python)."""
        return None

    def replaced_row(self) -> tuple[str, str]:
        """In a session's rounds read with their row numbers (``numbered``, CTE): the row
        of the round that replaced ``r`` (SELECT expression, JOIN)."""
        return "nb.row", "LEFT JOIN numbered nb ON nb.id = r.replaced_by"
