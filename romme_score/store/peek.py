"""A quick look into an SQLite file for ``romme check``: the current session's name and
rules, read with SQLite alone, without the store (whose import costs a third of
Click's; issue 28 item 3: ``romme check`` with a current session ran 2.03x the
instructions of ``import click``).

Read-only (SQLite's ``mode=ro``): nothing is created, migrated or written. Anything out of
the ordinary (not romme-score's file, damaged, busy, a schema without these columns) is
:class:`LookFailed`, and the caller opens the store, which says what is wrong.
"""

from __future__ import annotations

import sqlite3
from urllib.parse import quote

# The store's application id (romme_score.store.sqlite.schema.APPLICATION_ID; a test holds
# the two alike): importing that module loads the whole store.
APPLICATION_ID = 0x526F6D6D  # "Romm"


class LookFailed(Exception):
    """The quick look found something out of the ordinary: open the store instead."""


def current_rules(path: str) -> tuple[str, str] | None:
    """(name, rules as stored: JSON) of the current session in the file at ``path``, or None
    when no session is current."""
    try:
        db = sqlite3.connect(f"file:{quote(path)}?mode=ro", uri=True, timeout=0.5, isolation_level=None)
    except sqlite3.Error as exc:
        raise LookFailed(str(exc)) from None
    try:
        if db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            raise LookFailed("not a romme-score database")
        row = db.execute(
            "SELECT s.name, s.rules FROM state AS c JOIN sessions AS s ON s.name = c.value "
            "WHERE c.key = 'current'"
        ).fetchone()
    except sqlite3.Error as exc:
        raise LookFailed(str(exc)) from None
    finally:
        db.close()
    if row is None:
        return None
    return str(row[0]), str(row[1])
