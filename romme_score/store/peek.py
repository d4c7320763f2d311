"""The store's quick look into an SQLite file for ``romme check``: the current session's
name and rules, read with SQLite alone, without opening the store or the session service.

Kept on purpose (issue 28 item 3, measured again for issue 35): ``romme check`` with a
current session takes 1.30x the instructions of ``import click`` with this look, and
1.46x through the session service, which loads the store, the scoring and the service
for one row; the goal is 1.5x and no figure of ``make bench`` may grow (even importing
the schema's module for this one statement costs 0.9 M instructions). It is the one
place that reads the store without it: the rules are built here as the store builds a
session's, and whatever else wants a session's rules asks the session service.

Read-only (SQLite's ``mode=ro``): nothing is created, migrated or written. Anything out of
the ordinary (not romme-score's file, damaged, busy, a schema without these columns, rules
that cannot be read) is :class:`LookFailed`, and the caller asks the session service,
which says what is wrong.
"""

from __future__ import annotations

import json
import sqlite3
from urllib.parse import quote

from romme_score.rules import RuleSet

# The store's application id (romme_score.store.sqlite.schema.APPLICATION_ID; a test holds
# the two alike): importing that module loads the whole SQLite backend.
APPLICATION_ID = 0x526F6D6D  # "Romm"


class LookFailed(Exception):
    """The quick look found something out of the ordinary: ask the session service instead."""


def current_rules(path: str) -> tuple[str, RuleSet] | None:
    """(name, rules) of the current session in the SQLite file at ``path``, or None when no
    session is current."""
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
    try:
        return str(row[0]), RuleSet.from_dict(json.loads(row[1]))
    except (ValueError, TypeError) as exc:
        raise LookFailed(str(exc)) from None
