"""The store's interface: what the session service, the history, the export and the
statistics may ask of a database, whatever its backend (STYLE.md "store/").

Every write is one transaction: all of it or nothing, and a refusal (an error of
:mod:`romme_score.store.errors`) leaves the database as it was. Reads that may be long
(a session's rounds, its export lines) are iterators read as consumed: the store must
stay open until then. ``tests/test_store_contract.py`` describes the behaviour and runs
against every implementation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Protocol, TypeVar

from romme_score.rules import RuleSet
from romme_score.scoring import RoundInput, RoundScore
from romme_score.store.records import (
    Change,
    DrawnTable,
    Ending,
    HeadToHead,
    Key,
    KeyedWrite,
    Lines,
    Link,
    Note,
    PendingChange,
    PendingRound,
    PlayerSessionStats,
    Rename,
    RoundPoints,
    RoundRecord,
    SessionCount,
    SessionInfo,
    StoredRound,
    TableOf,
    TournamentInfo,
    TournamentPlayer,
    TournamentTable,
)

if TYPE_CHECKING:
    from romme_score.store.league_records import LeagueInfo
    from romme_score.store.names import Names
    from romme_score.store.records import StoredOptions

T = TypeVar("T")


class Store(Protocol):
    """A romme-score database."""

    location: str  # what it was opened from, as said to a person (a path, a URL without password)

    def close(self) -> None: ...

    def __enter__(self) -> Store: ...

    def __exit__(self, *exc: object) -> None: ...

    def held(self) -> AbstractContextManager[None]:
        """The block as one transaction, its reads and writes alike: a session looked up in
        it is locked for the write to come (PostgreSQL: its reads asked in few round
        trips); every write of the block commits as it ends, or none does."""
        ...

    def reading(self) -> AbstractContextManager[None]:
        """Every read of the block, the long reads' iterators included, from one snapshot
        of the database as it was when the block began: what others write meanwhile is
        seen after the block only, and a writer is never kept waiting by it (``romme
        export``: one consistent read of a session). Inside :meth:`held` or another
        :meth:`reading`, part of that. Nothing may be written inside it."""
        ...

    # -- changes -------------------------------------------------------------------

    def version(self, session: SessionInfo) -> int:
        """A number that changes whenever the session changes (a round recorded, undone,
        corrected, a note, a rename), whoever changed it; cheap to ask again and again."""
        ...

    # -- sessions ------------------------------------------------------------------

    def create_session(
        self,
        name: str,
        players: Sequence[str],
        rules: RuleSet,
        rate: str | None,
        currency: str | None,
        first_dealer: int,
        current: bool = True,
    ) -> None:
        """A new session, made current (unless not ``current``); :class:`SessionExists`
        when the name is taken."""
        ...

    def set_current(self, name: str) -> None: ...

    def current_name(self) -> str | None: ...

    def session_names(self) -> list[str]: ...

    def session(self, name: str | None = None) -> SessionInfo:
        """A session by name, or the current one (:class:`NoCurrentSession`, :class:`NoSuchSession`)."""
        ...

    def session_by_id(self, session_id: int) -> SessionInfo:
        """A session by its id, whatever it is called now (it may have been renamed)."""
        ...

    def session_overview(self) -> list[SessionCount]: ...

    # -- every session at once (romme serve --all: the organiser's page) -----------------

    def every_session(self) -> list[SessionInfo]:
        """Every session with its players, by id, in one read."""
        ...

    def every_link(self, sessions: Sequence[SessionInfo]) -> dict[int, list[Link]]:
        """The links of each of ``sessions`` that has any (ordered as :meth:`links` orders
        them), in one read."""
        ...

    def every_totals_played(self, sessions: Sequence[SessionInfo]) -> dict[int, tuple[dict[str, int], int]]:
        """Each of ``sessions``' totals and rounds played (as :meth:`totals_played`), in one read."""
        ...

    def every_last_played(self) -> dict[int, list[str]]:
        """Each session's time of its last round saved, then of each time it was ended or
        taken back, in one read."""
        ...

    def every_table(self) -> list[DrawnTable]:
        """Every tournament's tables with its series drawn, by tournament, series and
        table, in one read."""
        ...

    def names(self) -> Names:
        """Every session and tournament by name, with their players (what a shell
        completes), in a few cheap reads; works on a store opened ``read_only``."""
        ...

    def rename_session(self, old: str, new: str) -> None: ...

    def check_delete(self, name: str) -> None:
        """What :meth:`delete_session` would refuse, raised now, with nothing written."""
        ...

    def delete_session(self, name: str) -> None:
        """Delete a session with everything of it; :class:`SessionInTournament` for a
        tournament's table and :class:`SessionInLeague` for one that counts in a league,
        checked in the delete's own transaction (nothing is written)."""
        ...

    def write_session(
        self,
        name: str,
        created: str,
        players: Sequence[str],
        rules: RuleSet,
        rate: str | None,
        currency: str | None,
        first_dealer: int,
        rounds: Sequence[StoredRound],
        notes: Sequence[Note],
        renames: Sequence[Rename],
        overwrite: bool,
        make_current: bool = True,
        endings: Sequence[Ending] = (),
    ) -> None:
        """A whole session as exported, in one transaction; made current with
        ``make_current``, or where no session is current (none, or one deleted since).
        ``overwrite`` replaces a session of that name in place: the same id, so the same
        event of every league it counts in."""
        ...

    # -- rounds --------------------------------------------------------------------

    def round_count(self, session: SessionInfo) -> int: ...

    def totals(self, session: SessionInfo) -> dict[str, int]: ...

    def totals_played(self, session: SessionInfo) -> tuple[dict[str, int], int]:
        """Each player's total and the rounds played, in one read (is the game over?)."""
        ...

    def leaderboard(self, session: SessionInfo) -> dict[str, int]: ...

    def rounds(self, session: SessionInfo, last: int | None = None) -> list[RoundRecord]: ...

    def round_points(
        self, session: SessionInfo, last: int | None = None, *, after: int = 0, upto: int | None = None
    ) -> Iterator[RoundPoints]:
        """The scoresheet's active rounds: the last ``last``, or those numbered after
        ``after`` up to ``upto`` (to the last when None)."""
        ...

    def round_totals(
        self, session: SessionInfo, numbers: Sequence[int] | None = None
    ) -> Iterator[tuple[int, dict[str, int]]]:
        """Each player's running total after each active round (of ``numbers``, or all),
        as kept with every write: (number, totals) by number."""
        ...

    def hand_rommes(self, session: SessionInfo, last: int | None = None) -> list[tuple[int, str]]:
        """(round, who went out) of the active rounds won by a Hand-Rommé (the last ``last``), by round."""
        ...

    def bonuses(self, session: SessionInfo) -> list[tuple[int, str, int]]:
        """(round, player, points struck) of the bonuses struck in active rounds."""
        ...

    def record_round(
        self,
        session: SessionInfo,
        rnd: RoundInput,
        compute: Callable[[dict[str, int], int], RoundScore],
        *,
        pending: int | None = None,
    ) -> tuple[int, RoundScore]:
        """Record a round; ``compute`` gets the totals before and the rounds played, read
        inside the same transaction, and returns the score to store. ``pending``: the
        round was made from the round in progress at that revision, which is cleared in
        the same transaction (:class:`PendingChanged`, nothing written, if it changed)."""
        ...

    def undo_last(self, session: SessionInfo) -> RoundRecord: ...

    def replace_rounds(
        self,
        session: SessionInfo,
        first_number: int,
        inputs: Sequence[RoundInput],
        scores: Sequence[RoundScore],
        changed: set[int],
    ) -> None: ...

    def history(self, session: SessionInfo) -> list[Change]: ...

    def all_rounds(self, session: SessionInfo, *, active: bool) -> Iterator[StoredRound]: ...

    def round_lines(self, session: SessionInfo, *, active: bool, batch: int = 512) -> Iterator[Lines] | None:
        """What :meth:`all_rounds` reads, as batches of lines
        (:func:`~romme_score.store.records.round_line_fields`: the export's fast path); None
        where this store cannot line them up."""
        ...

    def points_lines(
        self, session: SessionInfo, batch: int = 512, *, after: int = 0, upto: int | None = None
    ) -> Iterator[Lines] | None:
        """The active rounds' scoresheet lines as batches of
        :func:`~romme_score.store.records.points_line_fields` lines; None where this store
        cannot line them up (then :meth:`round_points` is read)."""
        ...

    def scoresheet_lines(self, session: SessionInfo, batch: int = 512) -> Iterator[Lines]:
        """The active rounds as batches of :func:`~romme_score.store.records.scoresheet_line_fields` lines."""
        ...

    # -- the round in progress (hands arriving from the phones) ---------------------------

    def pending(self, session: SessionInfo) -> PendingRound:
        """The round being played as far as it is known (empty, revision 0, at first)."""
        ...

    def change_pending(
        self, session: SessionInfo, change: PendingChange, *, expected: int | None = None
    ) -> PendingRound:
        """Change parts of the round in progress in one transaction (a change of the
        session: its version counts up) and return it as it is now; with ``expected``,
        only if its revision is still that one (else :class:`PendingChanged`, nothing
        written)."""
        ...

    def clear_pending(self, session: SessionInfo, *, expected: int | None = None) -> None:
        """Forget the round in progress (a change of the session where there was one);
        with ``expected``, only if its revision is still that one (else
        :class:`PendingChanged`)."""
        ...

    # -- links for the phones -------------------------------------------------------------

    def keyed_write(self, session: SessionInfo, key: str) -> KeyedWrite | None:
        """The write kept under the idempotency ``key``, with its first answer; inside
        :meth:`held`, the session is locked for the write to come (a key sent twice at
        once is seen here by the second)."""
        ...

    def writing_session(self, session_id: int, key: str | None) -> tuple[SessionInfo, KeyedWrite | None]:
        """Inside :meth:`held`: the session a phone's write goes to (by id, whatever it is
        called now), locked for the write to come, with the write kept under ``key`` (None
        without one) as :meth:`keyed_write` finds it."""
        ...

    def keep_key(self, session: SessionInfo, key: Key, status: int, answer: str) -> None:
        """Keep ``key`` with its write's first answer: a write (inside :meth:`held`, in the
        transaction of the write it was sent with: the write, its key and its answer, or
        none of them); :class:`~romme_score.store.errors.KeyTaken` (nothing written) if
        the key was kept already. The keys of rounds before the last saved one are
        dropped as a round is saved."""
        ...

    def links(self, session: SessionInfo) -> list[Link]:
        """The session's links: board, scorekeeper, then the seats in seating order."""
        ...

    def add_links(self, session: SessionInfo, links: Sequence[Link], *, replace: bool) -> list[Link]:
        """Keep the links whose kind (and player) the session has none of yet, or, with
        ``replace``, these links instead of all the old ones; returns the links kept."""
        ...

    def set_served_address(self, address: str) -> None:
        """Keep the address ``romme serve`` printed its links at last (``http://HOST:PORT``),
        so that printed sheets can carry the links' QR codes later."""
        ...

    def served_address(self) -> str | None:
        """The address ``romme serve`` printed its links at last, or None."""
        ...

    def session_tournament(self, session: SessionInfo) -> str | None:
        """The tournament whose table the session is, or None (one query)."""
        ...

    def session_table(self, session: SessionInfo) -> TableOf | None:
        """Whose table the session is (its tournament, its series and the series drawn), or
        None: one indexed read, asked by every write's open check."""
        ...

    def later_tables(self) -> set[int]:
        """The session ids of every tournament table whose series is followed by a later
        one drawn (one read, for a list of every session)."""
        ...

    def organizer_token(self, token: str, *, renew: bool) -> str:
        """The organiser's token of ``romme serve --all``: the one kept, or ``token`` kept
        where there is none (or, with ``renew``, instead of the old one)."""
        ...

    def catalog_versions(self) -> tuple[object, ...]:
        """A mark that changes with every change of any session or league (the
        organiser's page), one query."""
        ...

    def catalog_mark(self) -> tuple[object, ...]:
        """A mark that changes whenever a session, a link, a tournament's series or a
        league is added, removed or renewed (``romme serve --all``: what it serves),
        cheap to ask twice a second (one query)."""
        ...

    # -- notes and renames --------------------------------------------------------------

    def notes(self, session: SessionInfo) -> list[Note]: ...

    def renames(self, session: SessionInfo) -> list[Rename]: ...

    def add_note(self, session: SessionInfo, round_number: int | None, text: str) -> Note: ...

    def endings(self, session: SessionInfo) -> list[Ending]:
        """The game's ends by agreement and their taking back, in order (issue 36 item 5)."""
        ...

    def end_session(self, session: SessionInfo, ended: bool, played: int) -> Ending:
        """Mark the game ended by agreement (``ended``) or take that back, with its line in
        the history (``played``: the rounds played then), in one transaction."""
        ...

    # -- statistics across sessions --------------------------------------------------------

    def player_session_stats(self, since: str | None = None) -> list[PlayerSessionStats]: ...

    def head_to_head_rounds(self, opponents: Sequence[str], since: str | None = None) -> list[HeadToHead]: ...

    # -- tournaments (docs/rules.md §10) -----------------------------------------------------------

    def create_tournament(
        self,
        name: str,
        rules: RuleSet,
        options: StoredOptions,
        seed: int,
        players: Sequence[TournamentPlayer],
    ) -> None:
        """A new tournament, made the current one; :class:`TournamentExists` when the name is taken."""
        ...

    def current_tournament(self) -> str | None: ...

    def tournament_names(self) -> list[str]: ...

    def tournament_options(self) -> dict[str, StoredOptions]:
        """Every tournament's options, by name, in the order they were created (one read)."""
        ...

    def tournament(self, name: str | None = None) -> TournamentInfo:
        """A tournament by name, or the current one (:class:`NoCurrentTournament`,
        :class:`NoSuchTournament`)."""
        ...

    def draw_series(
        self,
        tournament: TournamentInfo,
        series: int,
        tables: Sequence[tuple[str, Sequence[str]]],
        rules: RuleSet,
        currency: str | None,
    ) -> None:
        """Series ``series`` with its tables, in one transaction: each table (a session name
        and its players in seat order) becomes a session under ``rules``, the first seat
        dealing first; the current session stays as it was (issue 36 item 4).
        :class:`SeriesDrawn` when that series is there already, :class:`SessionExists` when a
        name is taken; then nothing is written."""
        ...

    def withdraw_player(self, tournament: TournamentInfo, start: int, after_series: int) -> None:
        """Mark the player of start number ``start`` withdrawn after ``after_series`` series."""
        ...

    def lock_tournament(self, tournament: TournamentInfo) -> None:
        """Inside :meth:`held`: the tournament and its tables locked until the block ends,
        so that what the block reads of them stays so until it commits: no table's game,
        no draw and no withdrawal of it commits in between (they wait for it)."""
        ...

    def tournament_tables(self, tournament: TournamentInfo) -> list[TournamentTable]:
        """Every table of every series drawn, by series and table number."""
        ...

    def tournament_version(self, tournament: TournamentInfo) -> int:
        """A number that counts up with every change of the tournament (a round at any of
        its tables, a series drawn, a player withdrawn): its board's version; -1 once it
        is gone."""
        ...

    def tournament_games(self, tournament: TournamentInfo) -> Iterator[tuple[int, RoundPoints]]:
        """The active rounds of all the tournament's tables, as (session id, round), by
        session and round number, in one read."""
        ...

    # -- leagues (docs/rules.md §11) ---------------------------------------------------------------

    def create_league(self, name: str, season: str | None, options: StoredOptions, token: str) -> None:
        """A new league without events; :class:`LeagueExists` when the name is taken."""
        ...

    def league_names(self) -> list[str]:
        """Every league, in the order created."""
        ...

    def league(self, name: str) -> LeagueInfo:
        """A league with its events (in the order added; an event deleted meanwhile is gone)
        and its aliases; :class:`NoSuchLeague`."""
        ...

    def add_league_events(self, league: LeagueInfo, events: Sequence[tuple[str, int, str]]) -> None:
        """Events (``"session"`` or ``"tournament"``, id, name) at the end of the league, in
        one transaction; :class:`EventInLeague` for one there already or given twice, and
        then nothing is written."""
        ...

    def remove_league_event(self, league: LeagueInfo, kind: str, event_id: int, event_name: str) -> None:
        """The event out of the league; :class:`EventNotInLeague` when it is not in it."""
        ...

    def set_league_alias(self, league: LeagueInfo, spelling: str, person: str) -> None:
        """``spelling`` (compared by NFC and case folding) stands for ``person``; given
        again, the newer person."""
        ...

    def renew_league_token(self, league: LeagueInfo, token: str) -> None:
        """The league's board behind ``token`` from now on; the old token opens nothing
        (``romme serve --league --new-links``); :class:`NoSuchLeague` when it is gone."""
        ...

    def league_version(self, league: LeagueInfo) -> int:
        """A number that counts up whenever the league or any session or tournament it reads
        changes, never back to a number it had (an event taken out and another added do
        not cancel); -1 once the league is gone."""
        ...
