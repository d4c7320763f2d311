"""The session service, :class:`SessionService`: what a front end may do to a game, made
of the parts of this package (:mod:`~romme_score.sessions.base`, :mod:`~romme_score.sessions.reads`,
:mod:`~romme_score.sessions.rounds`; :mod:`~romme_score.sessions.progress` through thin methods,
loaded with its first use), with what only
the phones need (their links, a write sent again applied once) and a whole session exported and imported
(:mod:`~romme_score.sessions.transfer`, loaded by export and import alone)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING

from romme_score.sessions.errors import KeyReused
from romme_score.sessions.rounds import Rounds
from romme_score.store.records import KEEP, Keep, Key, KeyedWrite, Link, PendingRound, SessionInfo

if TYPE_CHECKING:
    from romme_score.export import SessionExport
    from romme_score.scoring import Hand
    from romme_score.sessions.changes import RoundChange, RoundReferee, RoundState
    from romme_score.sessions.progress import Progress
    from romme_score.sessions.results import Recorded
    from romme_score.store.protocol import Store


class Once:
    """A write under way in :meth:`SessionService.once_at`: ``first`` is the first answer
    (status, text) where its key was applied already (nothing is to be done then; a text
    of ``""``: applied, its answer never kept), else None. (A plain class: a dataclass
    built at every start of ``romme`` cost more than the rest of this module.)"""

    __slots__ = ("first", "info", "key", "store")

    def __init__(
        self, store: Store, info: SessionInfo, key: Key | None, first: tuple[int, str] | None
    ) -> None:
        self.store, self.info, self.key, self.first = store, info, key, first

    def answered(self, text: str) -> None:
        """Keep ``text``, the write's answer, with its key, in the write's transaction."""
        if self.key is not None:
            self.store.keep_key(self.info, self.key, 200, text)


class SessionService(Rounds):
    """Sessions and rounds of one database. Every write is one transaction."""

    # -- the round in progress (sessions/progress.py: what each call does) ---------------

    @functools.cached_property
    def _progress(self) -> Progress:
        """The service's part for the round in progress, over the same store, made with its
        first use: a command that only reads (``romme standings``) never loads it."""
        from romme_score.sessions.progress import Progress

        return Progress(store=self.store)

    def pending(self, info: SessionInfo) -> PendingRound:
        return self._progress.pending(info)

    def referee(
        self, info: SessionInfo, *, edit: int | None = None, dealer: str | None = None
    ) -> RoundReferee:
        return self._progress.referee(info, edit=edit, dealer=dealer)

    def change_round(
        self, info: SessionInfo, change: RoundChange, *, seen: PendingRound | None = None
    ) -> RoundState:
        return self._progress.change_round(info, change, seen=seen)

    def round_state(self, info: SessionInfo, rnd: PendingRound | None = None) -> RoundState:
        return self._progress.round_state(info, rnd)

    def verify_change(self, info: SessionInfo, change: RoundChange, rnd: PendingRound | None = None) -> None:
        self._progress.verify_change(info, change, rnd)

    def can_change(self, info: SessionInfo, change: RoundChange, rnd: PendingRound | None = None) -> bool:
        return self._progress.can_change(info, change, rnd)

    def verify_hand(self, info: SessionInfo, player: str, hand: Hand, *, confirm: bool = False) -> Hand:
        return self._progress.verify_hand(info, player, hand, confirm=confirm)

    def can_hand(self, info: SessionInfo, player: str, hand: Hand, *, confirm: bool = False) -> bool:
        return self._progress.can_hand(info, player, hand, confirm=confirm)

    def verify_out(self, info: SessionInfo, player: str, rnd: PendingRound | None = None) -> None:
        self._progress.verify_out(info, player, rnd)

    def can_go_out(self, info: SessionInfo, player: str, rnd: PendingRound | None = None) -> bool:
        return self._progress.can_go_out(info, player, rnd)

    def verify_seat_hand(self, info: SessionInfo, player: str, rnd: PendingRound | None = None) -> None:
        self._progress.verify_seat_hand(info, player, rnd)

    def can_seat_hand(self, info: SessionInfo, player: str, rnd: PendingRound | None = None) -> bool:
        return self._progress.can_seat_hand(info, player, rnd)

    def closed_seats(self, info: SessionInfo, rnd: PendingRound | None = None) -> list[str]:
        return self._progress.closed_seats(info, rnd)

    def verify_hand_romme(self, info: SessionInfo, rnd: PendingRound) -> None:
        self._progress.verify_hand_romme(info, rnd)

    def can_hand_romme(self, info: SessionInfo, rnd: PendingRound) -> bool:
        return self._progress.can_hand_romme(info, rnd)

    def verify_save(self, info: SessionInfo, rnd: PendingRound | None = None) -> None:
        self._progress.verify_save(info, rnd)

    def can_save(self, info: SessionInfo, rnd: PendingRound | None = None) -> bool:
        return self._progress.can_save(info, rnd)

    def set_hand(self, info: SessionInfo, player: str, hand: Hand, *, confirm: bool = False) -> PendingRound:
        return self._progress.set_hand(info, player, hand, confirm=confirm)

    def declare_out(self, info: SessionInfo, player: str, hand_romme: bool = False) -> PendingRound:
        return self._progress.declare_out(info, player, hand_romme)

    def change_pending(
        self,
        info: SessionInfo,
        *,
        winner: str | None | Keep = KEEP,
        stalemate: bool | None = None,
        hand_romme: bool | None = None,
        hands: Mapping[str, Hand | None] | None = None,
        confirm: bool = False,
    ) -> PendingRound:
        return self._progress.change_pending(
            info, winner=winner, stalemate=stalemate, hand_romme=hand_romme, hands=hands, confirm=confirm
        )

    def discard_pending(self, info: SessionInfo, *, expected: int | None = None) -> None:
        self._progress.discard_pending(info, expected=expected)

    def save_pending(self, info: SessionInfo) -> Recorded:
        return self._progress.save_pending(info)

    # -- writes sent again (a phone that lost its answer) ---------------------------------

    @contextmanager
    def once_at(self, session_id: int, key: Key | None) -> Iterator[Once]:
        """The block (the writes of this service that one request makes, and its answer)
        as one transaction, applied at most once per idempotency ``key`` of the session of
        ``session_id`` (whatever it is called now): the session is read in it, locked, with
        the key and what the write reads before writing (:attr:`Once.info`; one round trip
        on PostgreSQL), and the key is kept with the answer the block gives it
        (:meth:`Once.answered`) in that same transaction. Where the key was applied
        already, :attr:`Once.first` is its first answer and the block is to do nothing;
        with another :attr:`Key.what` (a digest of the write), :class:`KeyReused`. A write
        that is refused keeps no key (nothing of the block is written). Without a key, the
        block is one transaction all the same. The caller tells whoever waits for the
        change once the block has ended (committed)."""
        with self.store.held():
            info, found = self.store.writing_session(session_id, None if key is None else key.key)
            yield Once(self.store, info, key, None if key is None else _kept(found, key))

    def replay(self, info: SessionInfo, key: Key) -> tuple[int, str] | None:
        """The first answer of the write kept under ``key`` (:class:`KeyReused` with another
        write), or None: not applied."""
        return self._first(info, key)

    def _first(self, info: SessionInfo, key: Key) -> tuple[int, str] | None:
        return _kept(self.store.keyed_write(info, key.key), key)

    # -- links for the phones -------------------------------------------------------------

    def links(self, info: SessionInfo, make_token: Callable[[], str], *, renew: bool = False) -> list[Link]:
        """The session's links for the phones (board, scorekeeper, one per seat), kept in the
        database so that a restarted server keeps every phone connected; the missing ones
        are made with ``make_token``, and all of them anew with ``renew`` (the old ones
        stop working)."""
        if not renew and _complete(info, kept := self.store.links(info)):
            return kept
        made = [Link(kind, player, make_token()) for kind, player in _wanted(info)]
        return self.store.add_links(info, made, replace=renew)

    def every_links(
        self, sessions: Sequence[SessionInfo], make_token: Callable[[], str], *, renew: bool = False
    ) -> dict[int, list[Link]]:
        """Each of ``sessions``' :meth:`links` (by id), read for all of them at once; only a
        session missing some (or all, with ``renew``) is made its own as :meth:`links` makes them."""
        have = {} if renew else self.store.every_link(sessions)
        return {
            info.id: found
            if (found := have.get(info.id)) is not None and _complete(info, found)
            else self.links(info, make_token, renew=renew)
            for info in sessions
        }

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


def _wanted(info: SessionInfo) -> list[tuple[str, str | None]]:
    """The links a session's phones need: board, scorekeeper, one per seat."""
    return [("board", None), ("scorekeeper", None), *(("seat", p) for p in info.players)]


def _complete(info: SessionInfo, links: Sequence[Link]) -> bool:
    have = {(k.kind, k.player) for k in links}
    return all(w in have for w in _wanted(info))


def _kept(found: KeyedWrite | None, key: Key) -> tuple[int, str] | None:
    """The first answer of the write kept under ``key`` (``found``), or None: not applied;
    :class:`KeyReused` where the key was sent with another write."""
    if found is None:
        return None
    if found.what != key.what:
        raise KeyReused(key.key)
    return found.status or 200, found.answer or ""
