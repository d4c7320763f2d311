"""The idempotency keys of the phones' writes, as the SQL store keeps them: a key is kept
with its first answer inside the transaction of the write it was sent with (so the write,
its key and its answer are kept, or none of them). The keys of rounds before the last one
are dropped as a round is saved (a round saved is the bound). The
store's thin methods ``keyed_write`` and ``keep_key`` load this module with their first use:
only ``romme serve``'s writes carry keys."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from romme_score.store.errors import KeyTaken, NoSuchSession
from romme_score.store.records import Key, KeyedWrite, SessionInfo, now
from romme_score.store.sql.dialect import Cursor, Dialect, Params

if TYPE_CHECKING:
    from romme_score.store.sql.connection import Connection

ACTIVE_ROUNDS = "(SELECT COUNT(*) FROM rounds WHERE session_id = ? AND status = 'active')"


def find(session_id: int, key: str, lock: str) -> tuple[str, Params]:
    """The read of the session's row (``lock``: locked for the write to come) with the
    write kept under ``key``, if any: one statement."""
    return (
        "SELECT s.id, k.what, k.status, k.answer FROM sessions s LEFT JOIN write_keys k "
        f"ON k.session_id = s.id AND k.key = ? WHERE s.id = ?{lock}",
        (key, session_id),
    )


def locking(dialect: Dialect) -> str:
    """What :func:`find` says to lock the session's row for the write to come."""
    return f"{dialect.for_update} OF s" if dialect.for_update else ""


def found(session: SessionInfo, rows: list[Any]) -> KeyedWrite | None:
    """The answer of :func:`find`; :class:`NoSuchSession` where the session is gone."""
    if not rows:
        raise NoSuchSession(session.name, [])
    _sid, what, status, text = rows[0]
    if what is None:
        return None
    return KeyedWrite(what, None if status is None else int(status), text)


def keep(cur: Cursor, dialect: Dialect, session: SessionInfo, key: Key, status: int, answer: str) -> None:
    """Keep ``key`` with its first answer (in the transaction of its write, which holds the
    session's lock); :class:`KeyTaken` if it was kept already, and the transaction rolls
    back."""
    if not dialect.inserted(
        cur,
        "INSERT INTO write_keys (session_id, key, what, era, status, answer, at) "
        f"VALUES (?, ?, ?, {ACTIVE_ROUNDS}, ?, ?, ?) ON CONFLICT (session_id, key) DO NOTHING",
        (session.id, key.key, key.what, session.id, status, answer, now()),
    ):
        raise KeyTaken(session.name, key.key)


def drop_before(cur: Cursor, session_id: int, played: int) -> None:
    """Forget the keys of the rounds before the last one saved (``played``: the rounds
    saved now)."""
    cur.execute("DELETE FROM write_keys WHERE session_id = ? AND era < ?", (session_id, played - 1))


def keyed_write(conn: Connection, dialect: Dialect, session: SessionInfo, key: str) -> KeyedWrite | None:
    """The write kept under ``key``, read with the session's row: inside the store's
    ``held()``, that row locked for the write to come (a key sent twice at once waits here
    for the other's transaction, and sees its key)."""
    holding = conn.holding
    kept = found(session, conn.query(*find(session.id, key, locking(dialect) if holding else "")))
    if holding:
        conn.locked.add(session.id)
    return kept
