"""The round in progress (hands arriving from the phones, revision by revision) and the
phones' links, as the SQL store keeps them: each function reads, or writes inside the
caller's transaction, which holds the session's lock and counts its change."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from romme_score.store.records import (
    KEEP,
    LINK_KINDS,
    Link,
    PendingChange,
    PendingHand,
    PendingRound,
    SessionInfo,
    now,
)
from romme_score.store.sql.dialect import Cursor

if TYPE_CHECKING:
    from romme_score.store.sql.connection import Connection


PENDING = (  # the round in progress with its hands, in one read
    "SELECT p.revision, p.winner, p.hand_romme, p.stalemate, h.player, h.cards, h.typed_points, "
    "h.never_out FROM pending p LEFT JOIN pending_hands h ON h.session_id = p.session_id "
    "WHERE p.session_id = ?"
)


def revision(cur: Cursor, session_id: int) -> int:
    """The round in progress's revision (0 where there has been none), read as
    :func:`pending` reads the round (inside a held transaction, answered from that)."""
    row = cur.execute(PENDING, (session_id,)).fetchone()
    return int(row[0]) if row else 0


def pending(conn: Connection, session: SessionInfo) -> PendingRound:
    rows = conn.query(PENDING, (session.id,))
    if not rows:
        return PendingRound()
    number, winner, hand_romme, stalemate = rows[0][:4]
    seats = {p: i for i, p in enumerate(session.players)}
    hands = sorted(
        (r[4:] for r in rows if r[4] is not None),
        key=lambda r: seats.get(r[0], len(seats)),
    )
    return PendingRound(
        int(number),
        winner,
        bool(hand_romme),
        bool(stalemate),
        {player: PendingHand(cards, typed, bool(never)) for player, cards, typed, never in hands},
    )


def change(cur: Cursor, session: SessionInfo, change: PendingChange) -> None:
    """Change parts of the round in progress; its revision counts up (one statement:
    the row made where there is none yet)."""
    columns = ["session_id", "revision"]
    values: list[Any] = [session.id, 1]
    if change.winner is not KEEP:
        columns.append("winner")
        values.append(change.winner)
    if change.hand_romme is not None:
        columns.append("hand_romme")
        values.append(bool(change.hand_romme))
    if change.stalemate is not None:
        columns.append("stalemate")
        values.append(bool(change.stalemate))
    sets = ", ".join(["revision = pending.revision + 1", *(f"{c} = excluded.{c}" for c in columns[2:])])
    cur.execute(
        f"INSERT INTO pending ({', '.join(columns)}) VALUES ({', '.join('?' * len(values))}) "
        f"ON CONFLICT (session_id) DO UPDATE SET {sets}",
        values,
    )
    at = now()
    for player, hand in change.hands.items():
        if hand is None:
            cur.execute("DELETE FROM pending_hands WHERE session_id = ? AND player = ?", (session.id, player))
        else:
            cur.execute(
                "INSERT INTO pending_hands (session_id, player, cards, typed_points, never_out, at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (session_id, player) DO UPDATE SET "
                "cards = excluded.cards, typed_points = excluded.typed_points, "
                "never_out = excluded.never_out, at = excluded.at",
                (session.id, player, hand.cards, hand.typed_points, bool(hand.never_out), at),
            )


def clear(cur: Cursor, session_id: int, *, asked: bool = True) -> bool:
    """Empty the round in progress, keeping its revision counting (whether there was one;
    not ``asked``: not looked up, False; a saved round's clearing, on the way of its event)."""
    found = (
        cur.execute(
            "SELECT winner IS NOT NULL OR hand_romme OR stalemate FROM pending WHERE session_id = ?",
            (session_id,),
        ).fetchone()
        if asked
        else None
    )
    deleted = cur.execute("DELETE FROM pending_hands WHERE session_id = ?", (session_id,))
    hands = deleted.rowcount if asked else 0  # a row count is a round trip on PostgreSQL
    cur.execute(
        "UPDATE pending SET revision = revision + 1, winner = NULL, hand_romme = FALSE, "
        "stalemate = FALSE WHERE session_id = ?",
        (session_id,),
    )
    return bool(hands) or bool(found and found[0])


def links(conn: Connection, session: SessionInfo) -> list[Link]:
    """The session's links: board, scorekeeper, then the seats in seating order."""
    rows = conn.query("SELECT kind, player, token FROM links WHERE session_id = ?", (session.id,))
    return in_order(session, [Link(kind, player or None, token) for kind, player, token in rows])


def every_link(conn: Connection, sessions: Sequence[SessionInfo]) -> dict[int, list[Link]]:
    """The links of each of ``sessions`` (by id; none: not there), as :func:`links` orders
    them, in one read of every session's."""
    found: dict[int, list[Link]] = {}
    for sid, kind, player, token in conn.query("SELECT session_id, kind, player, token FROM links"):
        found.setdefault(int(sid), []).append(Link(kind, player or None, token))
    return {s.id: in_order(s, found[s.id]) for s in sessions if s.id in found}


def in_order(session: SessionInfo, found: Sequence[Link]) -> list[Link]:
    """Board, scorekeeper, then the seats in seating order."""
    seats = {p: i for i, p in enumerate(session.players)}
    return sorted(found, key=lambda k: (LINK_KINDS.index(k.kind), seats.get(k.player or "", -1)))


def add_links(cur: Cursor, session: SessionInfo, links: Sequence[Link], replace: bool) -> None:
    """Keep the links whose kind (and player) the session has none of yet, or, with
    ``replace``, these instead of all the old ones."""
    if replace:
        cur.execute("DELETE FROM links WHERE session_id = ?", (session.id,))
    at = now()
    cur.executemany(
        "INSERT INTO links (session_id, kind, player, token, created_at) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT DO NOTHING",
        [(session.id, k.kind, k.player or "", k.token, at) for k in links],
    )
