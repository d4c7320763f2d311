"""The life of the session service and what every part of it stands on: the store it
opens and closes, sessions looked up, one transaction for a command, the session's
version and state, whether its game is still open, and the session's own record
(created, made current, noted, renamed, deleted)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Self, TypeVar

from romme_score.i18n import _, ngettext
from romme_score.inputs import (
    choose_player,
    clean_currency,
    clean_name,
    clean_names,
    clean_note,
    clean_text,
    unknown_player,
)
from romme_score.rules import RuleSet
from romme_score.scoring import GameState, RoundError, game_state
from romme_score.sessions.errors import GameOver, NoSuchRound, NotEnded, SessionInputError, TableNotEnded
from romme_score.sessions.results import Ended
from romme_score.store import open_store
from romme_score.store.errors import Raced, StoreBusy
from romme_score.store.records import Note, SessionInfo, TableOf

if TYPE_CHECKING:
    from romme_score.store.protocol import Store

T = TypeVar("T")
HELD_RETRIES = 20  # runs of one_transaction() that met another writer, before it is busy


def _lookup(name: str | None) -> str | None:
    """A session's name as given to find it, refused unless valid text (SQLite cannot
    look up the rest)."""
    if name is not None:
        return clean_text(name, _("the session's name"))  # composed (NFC), as names are kept
    return name


def _lookup_name(name: str) -> str:
    return clean_text(name, _("the session's name"))


def judged(info: SessionInfo, totals: Mapping[str, int], played: int, table: TableOf | None) -> GameState:
    """The session's game as it stands: over by its rules, by agreement, or closed, a
    tournament's table whose next series was drawn before it had played its games."""
    closed = table is not None and table.later_drawn
    return game_state(info.players, totals, played, info.rules, info.ended, closed)


def refuse_over(info: SessionInfo, state: GameState, table: TableOf | None) -> None:
    """:class:`GameOver` for a game that is over (``state``), naming its tournament where
    it is a table, and the series drawn after it where that closed it."""
    if state.finished:
        if state.closed:
            refuse_later(info, table)
        raise GameOver(info.name, state.winner, table.tournament if table is not None else None, state.agreed)


def refuse_later(info: SessionInfo, table: TableOf | None) -> None:
    """:class:`GameOver` at a tournament's table once a later series is drawn (issue 36
    item 2), naming that series."""
    if table is not None and table.later_drawn:
        raise GameOver(info.name, None, table.tournament, False, table.series_drawn)


class ServiceBase:
    """The store of one database and the session's own record; the rest of
    :class:`~romme_score.sessions.SessionService` is built on it."""

    def __init__(
        self, db: str | Path | None = None, *, create: bool = True, store: Store | None = None
    ) -> None:
        """The service over ``store``, or over the store at ``db`` (a path or a URL; default:
        :func:`~romme_score.paths.default_location`)."""
        self.store = store if store is not None else open_store(db, create=create)

    def close(self) -> None:
        self.store.close()

    @property
    def location(self) -> str:
        """Where the database is (a path or a URL), for a server's worker threads to open it."""
        return self.store.location

    def holds_anything(self) -> bool:
        """Whether the database holds a session or a tournament (a failed first command
        leaves no empty database behind)."""
        return bool(self.store.session_names() or self.store.tournament_names())

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading ------------------------------------------------------------------

    def session(self, name: str | None = None) -> SessionInfo:
        """A session by name, or the current one."""
        return self.store.session(_lookup(name))

    def one_transaction(self, work: Callable[[], T]) -> T:
        """``work()`` as one transaction of the store's (:meth:`Store.held`: a session
        looked up in it is locked for the write to come): a command that reads a session
        and writes it once, never waiting for a person inside it (issue 28: ``romme round``
        on PostgreSQL). Where it met another writer (:class:`Raced`: nothing of it was
        written) it runs again, up to :data:`HELD_RETRIES` times, then the store is busy."""
        for _attempt in range(HELD_RETRIES):
            try:
                with self.store.held():
                    return work()
            except Raced:
                continue
        raise StoreBusy()

    def current_name(self) -> str | None:
        return self.store.current_name()

    def session_by_id(self, session_id: int) -> SessionInfo:
        """A session by id, whatever it is called now (it may have been renamed elsewhere)."""
        return self.store.session_by_id(session_id)

    # -- changes ------------------------------------------------------------------------

    def version(self, info: SessionInfo) -> int:
        """A number that changes whenever the session changes, whoever changed it (this
        process, another ``romme``, a phone); cheap to ask twice a second. -1 once the
        session is gone."""
        return self.store.version(info)

    def changed_since(self, info: SessionInfo, version: int) -> bool:
        """Whether the session changed since :meth:`version` gave ``version``."""
        return self.store.version(info) != version

    def state(self, info: SessionInfo) -> GameState:
        totals, played = self.store.totals_played(info)
        return judged(info, totals, played, self.table_of(info))

    def check_open(self, info: SessionInfo) -> TableOf | None:
        """Refuse when the session's game is over: by its rules, by agreement, or closed, a
        tournament's table whose next series is drawn (saying whose tournament's table it
        is, if it is one: the way on is then the next series, not a new game). The table
        it is, as read for it (None: a game of its own)."""
        totals, played = self.store.totals_played(info)
        table = self.table_of(info)
        refuse_over(info, judged(info, totals, played, table), table)
        return table

    def check_series_open(self, info: SessionInfo) -> None:
        """Refuse every write to a tournament's table once a later series is drawn (issue
        36 item 2): the draw counted the table as it stood, played to its end or, drawn
        with ``--force``, short of games; a round undone or a round in progress thrown
        away changes nothing of it any more. The one check of the writes that a finished
        game otherwise takes (undo, discard, end and reopen)."""
        refuse_later(info, self.table_of(info))

    def table_of(self, info: SessionInfo) -> TableOf | None:
        """Whose tournament table the session is, with the series drawn now, or None (one
        indexed read, asked by every write's open check and every snapshot)."""
        return self.store.session_table(info)

    def tournament_of(self, info: SessionInfo) -> str | None:
        """The tournament whose table the session is, or None (asked for every snapshot
        and settlement: one query)."""
        table = self.table_of(info)
        return table.tournament if table is not None else None

    # -- writing ------------------------------------------------------------------

    def create(
        self,
        name: str,
        players: Sequence[str],
        rules: RuleSet,
        rate: Decimal | None,
        currency: str | None,
        dealer: str | None = None,
        current: bool = True,
    ) -> SessionInfo:
        """Start a session and make it current (not ``current``: the organiser's page, which
        leaves the current game alone); names as :func:`~romme_score.inputs.clean_names`
        wants them (trimmed, non-empty, without '=', unique ignoring case)."""
        name = clean_name(name, _("a session's name"))
        names = clean_names(players)
        if not 2 <= len(names) <= rules.max_players:
            raise SessionInputError(
                ngettext(
                    "%(count)d player, but these rules seat 2 to %(max)d",
                    "%(count)d players, but these rules seat 2 to %(max)d",
                    len(names),
                )
                % {"count": len(names), "max": rules.max_players}
            )
        first = 0
        if dealer is not None:
            first = names.index(choose_player(dealer, names))  # PlayerChoiceError names the mistake
        self.store.create_session(
            name,
            names,
            rules,
            str(rate) if rate is not None else None,
            clean_currency(currency, _("the currency")) if currency else None,
            first,
            current,
        )
        return self.store.session(name)

    def end(self, name: str | None = None, reopen: bool = False) -> Ended:
        """End the game by agreement where it stands (``romme end``, as a family stops at
        eleven), or take that back (``reopen``), in one transaction: then it is finished
        everywhere (standings, phones, report, league) and takes no round. A game over by
        its rules is not ended again (:class:`GameOver`), nor a tournament's table
        (:class:`TableNotEnded`); a game not ended is not reopened (:class:`NotEnded`). A
        game without a round may be ended too."""

        def work() -> Ended:
            info = self.session(name)  # locked for the write to come
            totals, played = self.store.totals_played(info)
            table = self.table_of(info)
            refuse_later(info, table)  # closed, as check_series_open says
            state = game_state(info.players, totals, played, info.rules, info.ended)
            if reopen and not info.ended:
                raise NotEnded(info.name)
            tournament = table.tournament if table is not None else None
            if not reopen and state.finished:
                raise GameOver(info.name, state.winner, tournament, state.agreed)
            if not reopen and tournament is not None:
                raise TableNotEnded(info.name, tournament)
            ending = self.store.end_session(info, not reopen, played)
            after = game_state(info.players, totals, played, info.rules, not reopen)
            return Ended(info.name, ending, after, totals)

        return self.one_transaction(work)

    def use(self, name: str) -> None:
        self.store.set_current(_lookup_name(name))

    def _player(self, info: SessionInfo, name: str) -> str:
        if name not in info.players:
            raise RoundError(str(unknown_player(name, info.players)))
        return name

    # -- notes, renames, deletion ----------------------------------------------------

    def add_note(self, info: SessionInfo, text: str, round_number: int | None = None) -> Note:
        """A note in the session's history, about one round or the whole game."""
        body = clean_note(text)
        if round_number is not None:
            played = self.store.round_count(info)
            if not 1 <= round_number <= played:
                raise NoSuchRound(round_number, info.name, played)
        return self.store.add_note(info, round_number, body)

    def rename(self, old: str, new: str) -> str:
        name = clean_name(new, _("the new name"))
        self.store.rename_session(_lookup_name(old), name)
        return name

    def check_delete(self, name: str) -> None:
        """Refuse now what :meth:`delete` would refuse (a tournament's table, a session that
        counts in a league), before anybody is asked to confirm the delete."""
        self.store.check_delete(_lookup_name(name))

    def delete(self, name: str) -> None:
        """Delete a session; refused, with nothing written, while it is a tournament's table
        (:class:`~romme_score.store.errors.SessionInTournament`) or counts in a league
        (:class:`~romme_score.store.errors.SessionInLeague`): the store checks both in the
        delete's transaction."""
        self.store.delete_session(_lookup_name(name))
