"""The reads of the session service: the scoresheet (:meth:`~Reads.standings`), the
snapshot every door shows (:meth:`~Reads.snapshot`, with the round in progress scored as
it would be saved) and the one settlement of every door (:func:`settle_evening`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING

from romme_score.scoring import (
    TENTHS,
    GameState,
    RoundScore,
    game_state,
    place_bonus,
    places,
)
from romme_score.sessions.base import ServiceBase, judged
from romme_score.sessions.errors import TournamentMoney
from romme_score.sessions.results import (
    Correction,
    RoundRow,
    SessionSummary,
    Settled,
    SettlementInputs,
    Snapshot,
    Standings,
)
from romme_score.store.errors import NoRounds
from romme_score.store.records import DrawnTable, Lines, PendingRound, RoundRecord, SessionInfo, TableOf

if TYPE_CHECKING:
    from romme_score.sessions.hands import HandCount

DEFAULT_RATE = Decimal("0.01")  # money per point when neither the session nor a rate given says
DEFAULT_UNIT = Decimal("0.01")  # the smallest amount paid, unless a settlement is given another


def settle_evening(
    games: Sequence[Mapping[str, int]],
    rates: Sequence[Decimal],
    unit: Decimal = DEFAULT_UNIT,
    currency: str | None = None,
    leaderboard: dict[str, int] | None = None,
) -> Settled:
    """The one settlement of every door (002 section 6): each game pairwise among its
    players at its rate, rounded to ``unit``; totals from a paper scoresheet as one game."""
    from romme_score import settlement as money

    return Settled(money.settle_games(games, rates, unit), currency, leaderboard)


def leaderboard_with_bonus(
    players: Sequence[str], board: Mapping[str, int], totals: Mapping[str, int], finished: bool
) -> dict[str, int]:
    """003 leaderboard points in tenths (:func:`~romme_score.scoring.leaderboard_tenths`),
    plus the place bonus once the game is over."""
    result = dict(board)
    if finished:
        for name, extra in place_bonus(players, totals).items():
            result[name] += extra * TENTHS
    return result


def running_totals(
    players: Sequence[str], rows: Sequence[RoundRow], totals: Mapping[str, int]
) -> tuple[dict[str, int], ...]:
    """The totals after each of ``rows`` (the last rounds of a session), walked back from
    the session's ``totals``: a round adds its points less the bonus struck."""
    running = {p: totals[p] for p in players}
    after: list[dict[str, int]] = []
    for row in reversed(rows):
        after.append(dict(running))
        for p in players:
            running[p] -= row.points.get(p, 0) - row.bonus.get(p, 0)
    return tuple(reversed(after))


def distance(info: SessionInfo, totals: Mapping[str, int], played: int) -> tuple[str | None, int | None]:
    """The leader (the most points, the first seated of equals; None while nobody has a
    point) and what is left to the game's end: points in a ``points`` game (the limit less
    the most points), rounds in a ``rounds`` game, None in an open one."""
    top = max(info.players, key=lambda p: totals[p])
    leader = top if totals[top] else None
    end = info.rules.game_end
    if end.kind == "points":
        return leader, end.limit - totals[top]
    if end.kind == "rounds":
        return leader, end.limit - played
    return leader, None


class Reads(ServiceBase):
    """The standings, the snapshot and the settlement of a session, as every door reads them."""

    def points_lines(
        self, info: SessionInfo, *, after: int = 0, upto: int | None = None
    ) -> Iterator[Lines] | None:
        """Every round of the scoresheet (those numbered after ``after`` up to ``upto``)
        as the store lines them up, in batches (a long session's ``standings --json``;
        read as consumed: the service must stay open); None where the store cannot: then
        read :meth:`round_rows`."""
        return self.store.points_lines(info, after=after, upto=upto)

    def round_rows(
        self, info: SessionInfo, last: int | None = None, *, after: int = 0, upto: int | None = None
    ) -> Iterator[RoundRow]:
        """The scoresheet's rounds (the last ``last``, all when None; or those numbered
        after ``after`` up to ``upto``), read as they are consumed: a long session
        streams, so the database must stay open until then."""
        return self.store.round_points(info, last=last, after=after, upto=upto)

    def standings(
        self, info: SessionInfo, last: int | None = None, *, closed: bool | None = None
    ) -> Standings:
        """The scoresheet: the last ``last`` rounds (all when None), totals, the game's state.
        ``closed``: whether the session is a tournament's table a later series closed, where
        the caller has read it already (None: read here)."""
        rows = list(self.round_rows(info, last))
        count = self.store.round_count(info)
        totals = self.store.totals(info)
        if closed is None:
            table = self.table_of(info)
            closed = table is not None and table.later_drawn
        state = game_state(info.players, totals, count, info.rules, info.ended, closed)
        board = None
        if info.rules.leaderboard:
            board = leaderboard_with_bonus(info.players, self.store.leaderboard(info), totals, state.finished)
        dealer = info.players[(info.first_dealer + count) % len(info.players)]
        leader, to_go = distance(info, totals, count)
        corrections = [
            Correction(number, "edited" if status == "replaced" else status, at)
            for number, status, at in self.store.history(info)
        ]
        return Standings(
            info.name,
            info.players,
            info.rules,
            rows,
            count,
            totals,
            board,
            state,
            dealer,
            places({p: totals[p] for p in info.players}),
            running_totals(info.players, rows, totals),
            leader,
            to_go,
            corrections,
            self.store.notes(info),
            self.store.renames(info),
            self.store.endings(info),
        )

    def snapshot(self, info: SessionInfo, last: int | None = 0) -> Snapshot:
        """The session as every door shows it (:class:`Snapshot`, with the scoresheet's
        last ``last`` rounds: all when None), read between two looks at its version; when
        a write came in between, it is read again (at most three times), so that the
        version belongs to what is shown with it."""
        snap = self._snapshot(info, self.version(info), last)
        for _attempt in range(2):
            now = self.version(info)
            if now == snap.version:
                break
            snap = self._snapshot(info, now, last)
        return snap

    def _snapshot(self, info: SessionInfo, version: int, last: int | None) -> Snapshot:
        table = self.table_of(info)  # read once: its tournament and whether it is closed
        standings = self.standings(info, last=last, closed=table is not None and table.later_drawn)
        pending = self.store.pending(info)
        # a finished game waits for nobody's hand
        missing = () if standings.state.finished else tuple(self.missing_hands(info, pending))
        try:
            latest: RoundRecord | None = self.last_round(info)
        except NoRounds:
            latest = None
        tournament = table.tournament if table is not None else None
        settled = self.settle([info]) if standings.rounds_played and tournament is None else None
        return Snapshot(
            version,
            standings,
            pending,
            missing,
            self._provisional(info, standings, pending, missing),
            latest,
            settled,
            tournament,
            self.counted(info, pending),
        )

    @staticmethod
    def counted(info: SessionInfo, pending: PendingRound) -> dict[str, HandCount]:
        """Each hand of the round in progress counted under the session's rules
        (:func:`~romme_score.sessions.hands.count_hand`), by player."""
        from romme_score.sessions.hands import count_hand  # the pages and the table mode only

        return {player: count_hand(hand.to_hand(), info.rules) for player, hand in pending.hands.items()}

    @staticmethod
    def _provisional(
        info: SessionInfo, standings: Standings, pending: PendingRound, missing: Sequence[str]
    ) -> RoundScore | None:
        """The round in progress scored as it would be saved, the missing hands as 0
        (:func:`~romme_score.sessions.changes.provisional_score`); None in a finished game."""
        from romme_score.sessions.changes import provisional_score

        if standings.state.finished:
            return None
        return provisional_score(info.players, info.rules, standings.totals, pending, missing)[0]

    def overview(self) -> list[SessionSummary]:
        current = self.store.current_name()
        closed = self.store.later_tables()  # tables a later series closed, as :meth:`state` judges them
        return [
            SessionSummary(
                info,
                count,
                game_state(info.players, totals, count, info.rules, info.ended, info.id in closed),
                info.name == current,
            )
            for info, count, totals in self.store.session_overview()
        ]

    # -- every session at once (romme serve --all: the organiser's page, issue 36 item 3) --

    def every_session(self) -> list[SessionInfo]:
        """Every session with its players, by id: one read however many there are."""
        return self.store.every_session()

    def every_state(self, sessions: Sequence[SessionInfo]) -> dict[int, GameState]:
        """Each of ``sessions``' game state (by id) as :meth:`state` decides it (the rules'
        :func:`~romme_score.scoring.game_state`, a table closed by a later series drawn),
        from every total and every tournament's table read at once."""
        found = self.store.every_totals_played(sessions)
        tables = {t.session_id: TableOf(t.tournament, t.series, t.series_drawn) for t in self.every_table()}
        return {
            info.id: judged(info, found[info.id][0], found[info.id][1], tables.get(info.id))
            for info in sessions
        }

    def every_last_played(self) -> dict[int, list[str]]:
        """Each session's :meth:`last_played` (by id; none: never played nor ended), in one read."""
        return {sid: [s for s in stamps if s] for sid, stamps in self.store.every_last_played().items()}

    def every_table(self) -> list[DrawnTable]:
        """Every tournament's tables (by tournament, series and table) with its series
        drawn, in one read."""
        return self.store.every_table()

    def catalog_mark(self) -> tuple[object, ...]:
        """A mark that changes whenever a session, a link, a tournament's series or a league
        comes, goes or is renewed (``romme serve --all`` looks at it twice a second)."""
        return self.store.catalog_mark()

    def catalog_versions(self) -> tuple[object, ...]:
        """A mark that changes with every change of any session or league."""
        return self.store.catalog_versions()

    def organizer_token(self, make_token: Callable[[], str], *, renew: bool = False) -> str:
        """The organiser's token of ``romme serve --all``, kept in the database (made where
        there is none, anew with ``renew``: the old link stops working)."""
        return self.store.organizer_token(make_token(), renew=renew)

    def names(self) -> tuple[list[str], list[str], list[str]]:
        """The names of every session, tournament and league."""
        store = self.store
        return store.session_names(), store.tournament_names(), store.league_names()

    def last_played(self, info: SessionInfo) -> list[str]:
        """When the session's last round was saved, and each time it was ended or taken back."""
        stamps = [r.recorded_at for r in self.store.rounds(info, last=1)]
        return [s for s in [*stamps, *(e.at for e in self.store.endings(info))] if s]

    def last_round(self, info: SessionInfo) -> RoundRecord:
        last = self.store.rounds(info, last=1)
        if not last:
            raise NoRounds(info.name)
        return last[0]

    @staticmethod
    def missing_hands(info: SessionInfo, pending: PendingRound) -> list[str]:
        """The players whose hand the round in progress still needs, in seating order: all
        but the winner (none after a stalemate where nobody scores)."""
        if pending.stalemate and info.rules.stalemate == "nobody-scores":
            return []
        return [p for p in info.players if p != pending.winner and p not in pending.hands]

    # -- settlement -----------------------------------------------------------------

    def settle(
        self,
        names: Sequence[str | SessionInfo] = (),
        *,
        rate: Decimal | None = None,
        unit: Decimal = DEFAULT_UNIT,
        currency: str | None = None,
    ) -> Settled:
        """The settlement of the given sessions together (default: the current one), each
        at ``rate`` or else its own rate, in ``currency`` or else the sessions' own, with
        their 003 leaderboard; what ``romme settle``, the table mode, the report and the
        phones show. A tournament's table is refused (:class:`TournamentMoney`): its games
        carry no money."""
        found = self.settlement_inputs(names)
        rates = [rate if rate is not None else r for r in found.rates]
        return settle_evening(found.games, rates, unit, currency or found.currency, found.leaderboard)

    def settlement_inputs(self, names: Sequence[str | SessionInfo]) -> SettlementInputs:
        """Totals, rates and leaderboard of the given sessions (or the current one), by name
        or as read."""
        games: list[dict[str, int]] = []
        rates: list[Decimal] = []
        currency = None
        board: dict[str, int] | None = None
        chosen: list[str | SessionInfo | None] = [*names] or [None]
        for name in chosen:
            info = name if isinstance(name, SessionInfo) else self.session(name)
            tournament = self.tournament_of(info)
            if tournament is not None:
                raise TournamentMoney(info.name, tournament)
            standings = self.standings(info, last=0)
            games.append(dict(standings.totals))
            rates.append(Decimal(info.rate) if info.rate else DEFAULT_RATE)
            currency = currency or info.currency
            if standings.leaderboard is not None:
                board = board or {}
                for p, v in standings.leaderboard.items():
                    board[p] = board.get(p, 0) + v
        return SettlementInputs(games, rates, currency, board)
