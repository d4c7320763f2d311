"""The round in progress and the phones' links in the SQL store (:class:`Pending`; their
SQL in :mod:`romme_score.store.sql.phones`)."""

from __future__ import annotations

from collections.abc import Sequence

import romme_score.store.sql.phones as phones
from romme_score.store.errors import (
    PendingChanged,
)
from romme_score.store.records import (
    Link,
    PendingChange,
    PendingRound,
    SessionInfo,
)
from romme_score.store.sql.base import StoreBase
from romme_score.store.sql.dialect import Cursor


class Pending(StoreBase):
    """The round in progress, hand by hand as it arrives, and the phones' links."""

    # -- the round in progress and the phones' links (romme_score/store/sql/phones.py) -------

    def pending(self, session: SessionInfo) -> PendingRound:
        return phones.pending(self.conn, session)

    def change_pending(
        self, session: SessionInfo, change: PendingChange, *, expected: int | None = None
    ) -> PendingRound:
        def work(cur: Cursor) -> None:
            self._lock(cur, session)
            self._expect(cur, session, expected)
            phones.change(cur, session, change)
            self._changed(cur, session.id)

        self.write(work)
        return self.pending(session)  # inside held(): read in its transaction

    def clear_pending(self, session: SessionInfo, *, expected: int | None = None) -> None:
        def work(cur: Cursor) -> None:
            self._lock(cur, session)
            self._expect(cur, session, expected)
            if phones.clear(cur, session.id):
                self._changed(cur, session.id)

        self.write(work)

    @staticmethod
    def _expect(cur: Cursor, session: SessionInfo, expected: int | None) -> None:
        """Refuse a change of the round in progress made from another revision of it than
        the one it has now (someone else changed it meanwhile): nothing is written."""
        if expected is not None:
            now_at = phones.revision(cur, session.id)
            if now_at != expected:
                raise PendingChanged(session.name, now_at)

    def links(self, session: SessionInfo) -> list[Link]:
        return phones.links(self.conn, session)

    def add_links(self, session: SessionInfo, links: Sequence[Link], *, replace: bool) -> list[Link]:
        def work(cur: Cursor) -> None:
            self._lock(cur, session)
            phones.add_links(cur, session, links, replace)

        self.write(work)
        return self.links(session)
