"""The round in progress and the phones' links in the SQL store (their SQL in
:mod:`romme_score.store.sql.phones`). The store's thin methods for the writes
(``change_pending``, ``clear_pending``, ``add_links``) load this module with their first
use; its reads (``pending``, ``links``) ask :mod:`~romme_score.store.sql.phones` alone."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import romme_score.store.sql.phones as phones
from romme_score.store.errors import PendingChanged
from romme_score.store.records import Link, PendingChange, PendingRound, SessionInfo
from romme_score.store.sql.dialect import Cursor

if TYPE_CHECKING:
    from romme_score.store.sql.base import StoreBase


def change(
    store: StoreBase, session: SessionInfo, change: PendingChange, expected: int | None
) -> PendingRound:
    def work(cur: Cursor) -> None:
        store._lock(cur, session)
        expect(cur, session, expected)
        phones.change(cur, session, change)
        store._changed(cur, session.id)

    store.write(work)
    return phones.pending(store.conn, session)  # inside held(): read in its transaction


def clear(store: StoreBase, session: SessionInfo, expected: int | None) -> None:
    def work(cur: Cursor) -> None:
        store._lock(cur, session)
        expect(cur, session, expected)
        if phones.clear(cur, session.id):
            store._changed(cur, session.id)

    store.write(work)


def expect(cur: Cursor, session: SessionInfo, expected: int | None) -> None:
    """Refuse a change of the round in progress made from another revision of it than
    the one it has now (someone else changed it meanwhile): nothing is written."""
    if expected is not None:
        now_at = phones.revision(cur, session.id)
        if now_at != expected:
            raise PendingChanged(session.name, now_at)


def add_links(store: StoreBase, session: SessionInfo, links: Sequence[Link], replace: bool) -> list[Link]:
    def work(cur: Cursor) -> None:
        store._lock(cur, session)
        phones.add_links(cur, session, links, replace)

    store.write(work)
    return phones.links(store.conn, session)
