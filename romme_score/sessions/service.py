"""The session service, :class:`SessionService`: what a front end may do to a game, made
of the parts of this package (:mod:`~romme_score.sessions.base`, :mod:`~romme_score.sessions.reads`,
:mod:`~romme_score.sessions.rounds`, :mod:`~romme_score.sessions.progress`), with what only
the phones need (their links, a write sent again applied once) and a whole session exported and imported
(:mod:`~romme_score.sessions.transfer`, loaded by export and import alone)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from romme_score.sessions.errors import KeyReused
from romme_score.sessions.progress import Progress
from romme_score.store.errors import KeyTaken
from romme_score.store.records import Link, SessionInfo

if TYPE_CHECKING:
    from romme_score.export import SessionExport


class SessionService(Progress):
    """Sessions and rounds of one database. Every write is one transaction."""

    # -- writes sent again (a phone that lost its answer) ---------------------------------

    def write_once(self, info: SessionInfo, key: str, what: str, write: Callable[[], str]) -> tuple[int, str]:
        """``write()`` (a write of this service, answering a text) applied at most once per
        idempotency ``key`` of the session: the key is kept in the write's own transaction,
        its answer right after it. A key sent again gets the first answer (status and
        text) and nothing is applied; with another ``what`` (a digest of the write),
        :class:`KeyReused`. A write that is refused keeps no key (it was not applied). A
        key whose write was applied but not yet (or never, the server stopped) answered
        gets (200, ``""``)."""
        found = self.store.keyed_write(info, key)
        if found is None:
            try:
                with self.store.keyed(info, key, what):
                    text = write()
            except KeyTaken:  # the same write, sent twice at once, applied by the other
                found = self.store.keyed_write(info, key)
            else:
                self.store.answer_key(info, key, 200, text)
                return 200, text
        if found is None or found.what != what:
            raise KeyReused(key)
        return found.status or 200, found.answer or ""

    def telling(self, committed: Callable[[], None]) -> AbstractContextManager[None]:
        """``committed()`` as soon as each write of the block has committed, before what
        the write answers is read and worded (``romme serve`` tells the event streams
        then: a board's event does not wait for the scorekeeper's answer)."""
        return self.store.telling(committed)

    # -- links for the phones -------------------------------------------------------------

    def links(self, info: SessionInfo, make_token: Callable[[], str], *, renew: bool = False) -> list[Link]:
        """The session's links for the phones (board, scorekeeper, one per seat), kept in the
        database so that a restarted server keeps every phone connected; the missing ones
        are made with ``make_token``, and all of them anew with ``renew`` (the old ones
        stop working)."""
        wanted = [("board", None), ("scorekeeper", None), *(("seat", p) for p in info.players)]
        have = {(k.kind, k.player) for k in self.store.links(info)}
        if not renew and all(w in have for w in wanted):
            return self.store.links(info)
        made = [Link(kind, player, make_token()) for kind, player in wanted]
        return self.store.add_links(info, made, replace=renew)

    def remember_address(self, address: str) -> None:
        """Keep the address ``romme serve`` printed its links at (``http://HOST:PORT``)."""
        self.store.set_served_address(address)

    def served_address(self) -> str | None:
        """The address ``romme serve`` printed its links at last, or None."""
        return self.store.served_address()

    # -- export and import ----------------------------------------------------------

    def export(self, info: SessionInfo) -> AbstractContextManager[SessionExport]:
        """Everything the database knows of a session, as :mod:`romme_score.export` reads it,
        as one consistent read: ``with service.export(info) as data:``. Rounds and history
        stream, read when consumed inside the block; every read of it is from the
        database as it was when the block began (what others write meanwhile is in the
        next export), and nobody's write waits for it."""
        from romme_score.sessions.transfer import export_session

        return export_session(self.store, info)

    def import_(
        self, export: SessionExport, name: str | None = None, replace: bool = False, use: bool = False
    ) -> tuple[str, int]:
        """Write an exported session exactly as it was. The current session stays current
        unless ``use`` (or none is current: then the imported one is). The rounds are
        scored again under its rules: points that do not match are refused, not recomputed."""
        from romme_score.sessions.transfer import import_session

        return import_session(self.store, export, name, replace, use)
