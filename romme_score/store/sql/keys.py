"""The idempotency keys of the phones' writes, as the SQL store keeps them: a key is
written inside the transaction of the write it was sent with (so the write and its key
are kept, or neither), its first answer right after it. The keys of rounds before the
last one are dropped as a key is written (a round saved is the bound)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from romme_score.store.errors import KeyTaken
from romme_score.store.records import KeyedWrite, SessionInfo, now
from romme_score.store.sql.dialect import Cursor

if TYPE_CHECKING:
    from romme_score.store.sql.connection import Connection


def claim(cur: Cursor, session: SessionInfo, key: str, what: str) -> None:
    """Keep ``key`` with the write of this transaction (after its work, which holds the
    session's lock: a key sent twice at once is seen here); :class:`KeyTaken` if it was
    kept already, and the transaction rolls back."""
    if cur.execute("SELECT 1 FROM write_keys WHERE session_id = ? AND key = ?", (session.id, key)).fetchone():
        raise KeyTaken(session.name, key)
    era = int(
        cur.execute(
            "SELECT COUNT(*) FROM rounds WHERE session_id = ? AND status = 'active'", (session.id,)
        ).fetchone()[0]
    )
    cur.execute("DELETE FROM write_keys WHERE session_id = ? AND era < ?", (session.id, era - 1))
    cur.execute(
        "INSERT INTO write_keys (session_id, key, what, era, at) VALUES (?, ?, ?, ?, ?)",
        (session.id, key, what, era, now()),
    )


def answer(cur: Cursor, session: SessionInfo, key: str, status: int, text: str) -> None:
    cur.execute(
        "UPDATE write_keys SET status = ?, answer = ? WHERE session_id = ? AND key = ?",
        (status, text, session.id, key),
    )


def find(conn: Connection, session: SessionInfo, key: str) -> KeyedWrite | None:
    rows = conn.query(
        "SELECT what, status, answer FROM write_keys WHERE session_id = ? AND key = ?", (session.id, key)
    )
    if not rows:
        return None
    what, status, text = rows[0]
    return KeyedWrite(what, None if status is None else int(status), text)
