"""The schema of a romme-score SQLite file: the tables of
:mod:`romme_score.store.sql.schema` in SQLite's words, migration by migration.

Versioned with ``PRAGMA user_version``; each migration runs in its own transaction. The
file is marked with ``PRAGMA application_id``: a file that is not ours is never written to.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from romme_score.store.sql import schema as tables

APPLICATION_ID = 0x526F6D6D  # "Romm"
# SQLite's words for the column types (an INTEGER PRIMARY KEY is the row id).
TYPES = {
    "key": "INTEGER PRIMARY KEY",
    "ref": "INTEGER",
    "big": "INTEGER",
    "flag": "INTEGER NOT NULL DEFAULT 0",
    "greatest": "MAX",
}
TOTALS_SELECT = tables.TOTALS_SELECT

# Each migration's statements, as written for every dialect: spoken in SQLite's words only
# when a file is created or migrated (:func:`migrations`), not at every start.
STATEMENTS: tuple[Sequence[tables.Step], ...] = (
    # 1: sessions, players, rounds with history, hands
    [tables.SESSIONS, tables.PLAYERS, tables.ROUNDS, tables.ROUNDS_ACTIVE, tables.HANDS, tables.STATE],
    # 2: running totals kept with every write, so a long session stays fast
    [
        tables.TOTALS,
        tables.ROUNDS_BY_SESSION,
        "INSERT INTO totals (session_id, player, total, leaderboard) " + TOTALS_SELECT.format(where="1"),
    ],
    [tables.NOTES, tables.RENAMES],  # 3: notes and renames
    [tables.VERSION],  # 4: a change counter per session
    tables.PENDING,  # 5: the round in progress and the phones' links
    tables.TOURNAMENTS,  # 6: tournaments (docs/rules.md §10)
    tables.LEADERBOARD_TENTHS,  # 7: 003's leaderboard points exact, in tenths
    tables.LEAGUES,  # 8: a club's season (docs/rules.md §11)
    tables.ROUND_TOTALS,  # 9: each seat's running total after every round (issue 28)
    tables.WRITE_KEYS,  # 10: the idempotency keys of the phones' writes
    tables.ENDINGS,  # 11: a game ended by agreement, and its endings in its history (issue 36)
)
SCHEMA_VERSION = len(STATEMENTS)


@functools.cache
def migrations() -> list[list[tables.Step]]:
    """The statements of each migration, in SQLite's words (``migrations()[0]`` creates
    the tables of schema 1)."""
    return [tables.spoken(TYPES, statements) for statements in STATEMENTS]
