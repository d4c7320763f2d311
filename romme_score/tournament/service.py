"""The tournament service (docs/rules.md §10): what a front end may do to a tournament, with
no Click, no printing and no SQL, beside :mod:`romme_score.sessions`.

A tournament is players with start numbers (and teams), options, house rules and a
seed; each table of each series is an ordinary session of the session service (named
``NAME S1 T3``, ``game_end = rounds:games``, seat 1 dealing first), recorded with
``romme round``, ``romme play`` or any other front end. Results are read from those
sessions' rounds whenever they are asked for, so a correction in a table's session
(``romme edit``) changes the ranking at once. The rules of §10 are
:mod:`romme_score.tournament.rules`'s; this module reads and writes.

Errors carry facts, never a front end's way out: :class:`TournamentRefused` for what is
refused as asked (the series before is not complete, all series are drawn...),
:class:`~romme_score.tournament.rules.TournamentInputError` and friends for input that cannot be used.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import NamedTuple

from romme_score.i18n import _, ngettext
from romme_score.inputs import ascii_digits, choose_player, clean_name, fold
from romme_score.rules import RuleSet
from romme_score.sessions import SessionInputError, SessionService
from romme_score.store import StoreError
from romme_score.store.errors import SessionExists
from romme_score.store.records import Link, TournamentInfo, TournamentPlayer, TournamentTable
from romme_score.tournament.options import TournamentOptions, tables_rules
from romme_score.tournament.rules import (
    MAX_SEED,
    Entrant,
    Game,
    Ranked,
    Result,
    TooFewPlayers,
    check_entrants,
    lost_games,
    paid_in,
    payout,
    rank,
    rank_teams,
    seat_series,
    table_results,
    table_sizes,
)

MAX_NAME = 40  # as romme_score.inputs.MAX_NAME: a table's session name must fit


class TournamentRefused(StoreError):
    """A tournament action refused as asked."""


class MissingTable(NamedTuple):
    """A table that has not played all its games yet."""

    series: int
    table: int
    session: str
    played: int
    games: int


class SeriesIncomplete(TournamentRefused):
    """The series before is not complete: ``missing`` says which tables are short of games."""

    def __init__(self, tournament: str, missing: Sequence[MissingTable]) -> None:
        first = missing[0]
        super().__init__(
            _("series %(series)d of tournament '%(tournament)s' is not complete: %(missing)s")
            % {"series": first.series, "tournament": tournament, "missing": missing_text(missing)}
        )
        self.tournament = tournament
        self.missing = tuple(missing)


def missing_text(missing: Sequence[MissingTable]) -> str:
    """``table 3 of series 2 has played 4 of 6 games; ...``"""
    return "; ".join(
        ngettext(
            "table %(table)d of series %(series)d has played %(played)d of %(games)d game",
            "table %(table)d of series %(series)d has played %(played)d of %(games)d games",
            m.games,
        )
        % {"table": m.table, "series": m.series, "played": m.played, "games": m.games}
        for m in missing
    )


class AllSeriesDrawn(TournamentRefused):
    def __init__(self, tournament: str, series: int) -> None:
        super().__init__(
            ngettext(
                "tournament '%(tournament)s' has %(series)d series, and it is drawn",
                "all %(series)d series of tournament '%(tournament)s' are drawn",
                series,
            )
            % {"series": series, "tournament": tournament}
        )
        self.tournament = tournament
        self.series = series


class AlreadyWithdrawn(TournamentRefused):
    def __init__(self, tournament: str, player: str, after: int) -> None:
        super().__init__(
            _("%(player)s withdrew from tournament '%(tournament)s' after series %(series)d already")
            % {"player": player, "tournament": tournament, "series": after}
        )
        self.tournament = tournament
        self.player = player
        self.after = after


class TooFewToSeat(TournamentRefused):
    def __init__(self, tournament: str, count: int, smallest: int) -> None:
        super().__init__(
            ngettext(
                "tournament '%(tournament)s' has %(count)d player left to seat; a table needs %(smallest)d",
                "tournament '%(tournament)s' has %(count)d players left to seat; a table needs %(smallest)d",
                count,
            )
            % {"tournament": tournament, "count": count, "smallest": smallest}
        )
        self.count = count
        self.smallest = smallest


def _too_large(size: int, most: int) -> str:
    return _("a table of %(size)d players, but these rules seat 2 to %(max)d") % {"size": size, "max": most}


class TableTooLarge(TournamentRefused):
    """A table of the series to draw would seat more players than the house rules allow
    (fewer players left after withdrawals can make larger tables)."""

    def __init__(self, size: int, most: int) -> None:
        super().__init__(_too_large(size, most))
        self.size = size
        self.most = most


class RulesSeatTooFew(SessionInputError):
    """The tournament's tables would seat more players than its house rules allow."""

    def __init__(self, size: int, most: int) -> None:
        super().__init__(_too_large(size, most))
        self.size = size
        self.most = most


class TableNameTaken(TournamentRefused):
    """A session has the name a table of the series would get."""

    def __init__(self, session: str) -> None:
        super().__init__(
            _("a session named '%(session)s' exists already, and a table of the series would get that name")
            % {"session": session}
        )
        self.session = session


class NoSeriesDrawn(TournamentRefused):
    def __init__(self, tournament: str) -> None:
        super().__init__(
            _("no series of tournament '%(tournament)s' is drawn yet") % {"tournament": tournament}
        )
        self.tournament = tournament


class NoSuchSeries(SessionInputError):
    def __init__(self, series: int, tournament: str, drawn: int) -> None:
        if drawn:
            message = _("tournament '%(tournament)s' has no series %(series)d (series 1-%(drawn)d are drawn)")
        else:
            message = _("tournament '%(tournament)s' has no series %(series)d (none is drawn yet)")
        super().__init__(message % {"series": series, "tournament": tournament, "drawn": drawn})
        self.series = series
        self.drawn = drawn


class NoSuchStart(SessionInputError):
    def __init__(self, start: int, last: int) -> None:
        super().__init__(
            _("there is no start number %(start)d (start numbers 1-%(last)d)")
            % {"start": start, "last": last}
        )
        self.start = start
        self.last = last


class NameTooLong(SessionInputError):
    """The tournament's name leaves no room for its tables' session names."""

    def __init__(self, session: str) -> None:
        super().__init__(
            _(
                "the tournament's name is too long: its tables would be sessions like '%(session)s', "
                "longer than %(max)d characters"
            )
            % {"session": session, "max": MAX_NAME}
        )
        self.session = session


# --- what the service hands out -----------------------------------------------------------


class Tournament(NamedTuple):
    """A tournament as its service hands it out: the store's
    :class:`~romme_score.store.records.TournamentInfo` with its options built (the store
    keeps them as plain data and imports nothing of the tournament's)."""

    id: int
    name: str
    created_at: str
    rules: RuleSet
    options: TournamentOptions
    seed: int
    players: tuple[TournamentPlayer, ...]
    series_drawn: int


def built(info: TournamentInfo) -> Tournament:
    """The store's record of a tournament with its options built from what is stored."""
    return Tournament(
        info.id,
        info.name,
        info.created_at,
        info.rules,
        stored_options(info),
        info.seed,
        info.players,
        info.series_drawn,
    )


def stored_options(info: TournamentInfo) -> TournamentOptions:
    """A tournament's options from what the store keeps (an option it lacks, stored before
    the option was there, has its default)."""
    return TournamentOptions.from_dict(info.options)


class DrawnTable(NamedTuple):
    table: int
    session: str
    players: tuple[str, ...]  # in seat order: seat 1 deals first
    starts: tuple[int, ...]


class Drawn(NamedTuple):
    tournament: str
    series: int
    seating: str  # how this series was seated: draw, standings or fixed
    seed: int
    tables: tuple[DrawnTable, ...]
    missing: tuple[MissingTable, ...]  # tables of earlier series still short of games (--force)


class Running(NamedTuple):
    """A player's table in a series still played: how far it is, and the points so far
    (None: the table has not started, which is no result at all, never 0)."""

    series: int
    table: int
    games_played: int
    games: int
    points: int | None


class PlayerStanding(NamedTuple):
    start: int
    name: str
    team: str | None
    place: int  # by the finished series only
    series: tuple[int | None, ...]  # one result per finished series (None: not seated)
    total: int  # of the finished series
    withdrawn: bool
    current: Running | None = None  # the player's table in the series still played


class TeamStanding(NamedTuple):
    team: str
    place: int
    total: int
    players: tuple[str, ...]


class TournamentStandings(NamedTuple):
    tournament: str
    options: TournamentOptions
    series_played: int  # the finished series, which the places and totals count
    series_drawn: int
    players: tuple[PlayerStanding, ...]  # best first
    teams: tuple[TeamStanding, ...]
    missing: tuple[MissingTable, ...]  # tables of the series drawn last short of games
    finished: tuple[int, ...] = ()  # the numbers of the finished series, in order
    # tables short of games in a series a later draw closed (--force): that series is over
    # and counts for nothing
    closed: tuple[MissingTable, ...] = ()

    @property
    def provisional(self) -> bool:
        """A series the standings cover is still played: its games do not count yet."""
        return bool(self.missing)

    @property
    def series_over(self) -> int:
        """The series the standings cover that are over: finished, or closed by a later draw."""
        return len(self.finished) + len({m.series for m in self.closed})

    @property
    def complete(self) -> bool:
        """Every series over: played to its last game, or closed by the draw of the next."""
        return not self.missing and self.series_over == self.options.series


class PlayerPayout(NamedTuple):
    start: int
    name: str
    place: int
    paid: Decimal
    receives: Decimal


class TournamentPayout(NamedTuple):
    tournament: str
    options: TournamentOptions
    pot: Decimal
    kept: Decimal
    players: tuple[PlayerPayout, ...]
    complete: bool
    missing: tuple[MissingTable, ...]
    closed: tuple[MissingTable, ...] = ()  # as TournamentStandings.closed


class Withdrawn(NamedTuple):
    tournament: str
    start: int
    name: str
    after_series: int


class SheetTable(NamedTuple):
    """A table's sheet: who sits where (start numbers), and the games recorded so far."""

    table: int
    session: str
    seats: tuple[tuple[int, str], ...]  # (start number, name) in seat order
    games: tuple[Game, ...]
    dealers: tuple[str, ...] = ()  # who deals each of the series' games, seat 1 first
    augen: Mapping[str, int] | None = None  # each player's points less bonuses; None before a game
    wertung: Mapping[str, int] | None = None  # each player's Wertung (scoring wertung); None as augen
    capped: bool = False  # a winner bonus struck short of the rules' (the winner had fewer points)


class Sheets(NamedTuple):
    tournament: str
    series: int
    options: TournamentOptions
    rules: RuleSet
    tables: tuple[SheetTable, ...]
    standings: TournamentStandings


def sheet_table(
    table: int,
    session: str,
    seats: tuple[tuple[int, str], ...],
    games: Sequence[Game],
    options: TournamentOptions,
    rules: RuleSet,
) -> SheetTable:
    """A table's sheet with what it adds up: the dealer of every game (seat 1 first, then
    round the table), the Augen (points less the bonuses struck) and, scored by Wertung,
    the Wertung of each player, once a game is recorded; and whether a bonus was capped."""
    names = [name for _start, name in seats]
    played = tuple(games)
    dealers = tuple(names[(number - 1) % len(names)] for number in range(1, options.games + 1))
    augen = wertung = None
    if played:
        augen = {p: sum(g.points.get(p, 0) - g.bonus.get(p, 0) for g in played) for p in names}
        if options.scoring == "wertung":
            wertung = table_results(names, played, options)
    capped = any(
        g.winner is not None
        and g.bonus.get(g.winner, 0) < (rules.winner_bonus_hand_romme if g.hand_romme else rules.winner_bonus)
        for g in played
    )
    return SheetTable(table, session, seats, played, dealers, augen, wertung, capped)


# --- the service ---------------------------------------------------------------------------


class TournamentService:
    """Tournaments of one database, over its session service. Every write is one transaction."""

    def __init__(self, sessions: SessionService) -> None:
        self.sessions = sessions
        self.store = sessions.store

    @property
    def location(self) -> str:
        """What the database was opened from (a path, or a URL without its password): a
        server opens it again there."""
        return self.store.location

    def tournament(self, name: str | None = None) -> TournamentInfo:
        """A tournament by name, or the current one (the last one created)."""
        return self.store.tournament(name)

    def every_series(self) -> dict[str, int]:
        """How many series each tournament has, by name, in the order they were created:
        every tournament in one read (the organiser's page lists them all)."""
        return {
            name: TournamentOptions.from_dict(options).series
            for name, options in self.store.tournament_options().items()
        }

    def tables(self, info: TournamentInfo, series: int | None = None) -> tuple[TournamentTable, ...]:
        """The tables of every series drawn (or of ``series`` alone), by series and table
        number: each one a session of the session service."""
        every = self.store.tournament_tables(info)
        return tuple(every if series is None else (t for t in every if t.series == series))

    def version(self, info: TournamentInfo) -> int:
        """Counts up with every change of the tournament, at any of its tables or of its
        own (its board's version)."""
        return self.store.tournament_version(info)

    # -- writing --------------------------------------------------------------------------

    def create(
        self,
        name: str,
        entrants: Sequence[Entrant],
        rules: RuleSet,
        options: TournamentOptions,
        seed: int | None = None,
    ) -> Tournament:
        """A new tournament, made current: start numbers in the order given; no table yet.
        Without a seed, one is drawn (and recorded, so every draw can be repeated)."""
        name = clean_name(name, _("a tournament's name"))
        players = check_entrants(entrants, options)
        sizes = table_sizes(len(players), options.table_size, options.min_table)
        if max(sizes) > rules.max_players:
            raise RulesSeatTooFew(max(sizes), rules.max_players)
        longest = f"{name} S{options.series} T{len(sizes)}"
        if len(longest) > MAX_NAME:
            raise NameTooLong(longest)
        import secrets  # only a new tournament draws its seed

        chosen = secrets.randbelow(10**6) if seed is None else seed
        if not 0 <= chosen <= MAX_SEED:
            raise SessionInputError(_("the seed must be 0 to %(max)d") % {"max": MAX_SEED})
        self.store.create_tournament(
            name,
            tables_rules(rules, options),
            options.to_dict(),
            chosen,
            [TournamentPlayer(start, e.name, e.team) for start, e in enumerate(players, 1)],
        )
        return built(self.store.tournament(name))

    def draw(self, name: str | None = None, force: bool = False) -> Drawn:
        """Seat the next series: each table becomes a session. Refused while a table of an
        earlier series has games to play, unless ``force`` (the result says which). The
        check and the draw are one transaction, the tournament and its tables locked
        first: a game saved meanwhile is counted, or waits and then finds its table
        closed (it was counted as missing before the draw's transaction, and the draw
        closed a table its last game had just made complete, or a game undone just
        before was counted as played)."""
        with self.store.held():
            self.store.lock_tournament(self.store.tournament(name))
            return self._draw(self.store.tournament(name), force)

    def _draw(self, info: TournamentInfo, force: bool) -> Drawn:
        options = stored_options(info)
        series = info.series_drawn + 1
        if series > options.series:
            raise AllSeriesDrawn(info.name, options.series)
        missing: tuple[MissingTable, ...] = ()
        ranking: list[int] = []
        if series > 1:
            standings = self._standings(info, self.store.tournament_tables(info), series - 1)
            missing = standings.missing
            if missing and not force:
                raise SeriesIncomplete(info.name, missing)
            ranking = [p.start for p in standings.players]
        active = [p.start for p in info.players if p.withdrawn_after is None]
        try:
            seating = seat_series(options, active, info.seed, series, ranking)
        except TooFewPlayers as exc:
            raise TooFewToSeat(info.name, exc.count, exc.smallest) from None
        largest = max(len(t) for t in seating)
        if largest > info.rules.max_players:
            raise TableTooLarge(largest, info.rules.max_players)
        by_start = {p.start: p.name for p in info.players}
        tables = tuple(
            DrawnTable(n, f"{info.name} S{series} T{n}", tuple(by_start[s] for s in starts), starts)
            for n, starts in enumerate(seating, 1)
        )
        for table in tables:
            clean_name(table.session, _("a session's name"))
        try:
            self.store.draw_series(
                info, series, [(t.session, t.players) for t in tables], info.rules, options.currency
            )
        except SessionExists as exc:
            raise TableNameTaken(exc.name) from None
        used = "draw" if options.seating == "standings" and series == 1 else options.seating
        return Drawn(info.name, series, used, info.seed, tables, missing)

    def withdraw(self, name: str, player: str) -> Withdrawn:
        """The player plays no later series; the series played and the start number stay."""
        info = self.store.tournament(name)
        found = self.player(info, player)
        if found.withdrawn_after is not None:
            raise AlreadyWithdrawn(info.name, found.name, found.withdrawn_after)
        series = stored_options(info).series
        if info.series_drawn >= series:
            raise AllSeriesDrawn(info.name, series)
        self.store.withdraw_player(info, found.start, info.series_drawn)
        return Withdrawn(info.name, found.start, found.name, info.series_drawn)

    def player(self, info: TournamentInfo, text: str) -> TournamentPlayer:
        """The player meant: a name (or its first letters), or a start number."""
        typed = text.strip()
        for p in info.players:
            if fold(p.name) == fold(typed):
                return p
        digits = ascii_digits(typed)
        if digits is not None:
            start = int(digits) if len(digits) <= 18 else 0
            if not 1 <= start <= len(info.players):
                raise NoSuchStart(start, len(info.players))
            return info.players[start - 1]
        name = choose_player(typed, [p.name for p in info.players])
        return next(p for p in info.players if p.name == name)

    # -- reading --------------------------------------------------------------------------

    def standings(self, name: str | None = None, series: int | None = None) -> TournamentStandings:
        """The ranking after series ``series`` (default: every series drawn)."""
        info = self.store.tournament(name)
        if series is not None and not 1 <= series <= info.series_drawn:
            raise NoSuchSeries(series, info.name, info.series_drawn)
        upto = info.series_drawn if series is None else series
        return self._standings(info, self.store.tournament_tables(info), upto)

    def payout(self, name: str | None = None) -> TournamentPayout:
        """What each player paid in (entry fee, lost games) and receives (prizes by place)."""
        info = self.store.tournament(name)
        tables = self.store.tournament_tables(info)
        games = self._games(info)
        standings = self._standings(info, tables, info.series_drawn, games)
        start_of = {p.name: p.start for p in info.players}
        lost = dict.fromkeys(start_of.values(), 0)
        for table in tables:
            for player, count in lost_games(table.players, games.get(table.session_id, [])).items():
                lost[start_of[player]] += count
        ranking = [Ranked(p.start, p.place, p.total, p.series) for p in standings.players]
        options = standings.options
        result = payout(ranking, paid_in(lost, options), options)
        names = {p.start: p.name for p in info.players}
        return TournamentPayout(
            info.name,
            options,
            result.pot,
            result.kept,
            tuple(PlayerPayout(m.start, names[m.start], m.place, m.paid, m.receives) for m in result.players),
            standings.complete,
            standings.missing,
            standings.closed,
        )

    def sheets(self, name: str | None = None, series: int | None = None) -> Sheets:
        """The sheets of a series' tables (default: the last drawn) and the ranking."""
        info = self.store.tournament(name)
        if info.series_drawn == 0:
            raise NoSeriesDrawn(info.name)
        if series is not None and not 1 <= series <= info.series_drawn:
            raise NoSuchSeries(series, info.name, info.series_drawn)
        chosen = info.series_drawn if series is None else series
        tables = self.store.tournament_tables(info)
        games = self._games(info)
        start_of = {p.name: p.start for p in info.players}
        sheets = tuple(
            sheet_table(
                t.table,
                t.session,
                tuple((start_of[p], p) for p in t.players),
                games.get(t.session_id, ()),
                stored_options(info),
                info.rules,
            )
            for t in tables
            if t.series == chosen
        )
        standings = self._standings(info, tables, info.series_drawn, games)
        return Sheets(info.name, chosen, standings.options, info.rules, sheets, standings)

    def table_links(self, sheets: Sheets, make_token: Callable[[], str]) -> dict[int, list[Link]]:
        """The scorekeeper's and seats' links of each table of ``sheets``, as kept with its
        session (those missing are made and kept, as ``romme serve`` would: the printed
        codes and a later server's links are the same)."""
        found: dict[int, list[Link]] = {}
        for table in sheets.tables:
            links = self.sessions.links(self.sessions.session(table.session), make_token)
            found[table.table] = [link for link in links if link.kind != "board"]
        return found

    def _games(self, info: TournamentInfo) -> dict[int, list[Game]]:
        """Every table's games, by session id, in one read."""
        games: dict[int, list[Game]] = defaultdict(list)
        for session_id, row in self.store.tournament_games(info):
            games[session_id].append(Game(row.winner, row.hand_romme, row.points, row.bonus, row.stalemate))
        return games

    def _standings(
        self,
        info: TournamentInfo,
        tables: Sequence[TournamentTable],
        upto: int,
        games: Mapping[int, Sequence[Game]] | None = None,
    ) -> TournamentStandings:
        """The ranking over series 1 to ``upto``: places and totals count the finished
        series only (a series is finished when every table of it has played its games);
        a player's table in a series still played is ``current``, apart from the ranking."""
        options = stored_options(info)
        games = self._games(info) if games is None else games
        start_of = {p.name: p.start for p in info.players}
        covered = [t for t in tables if t.series <= upto]
        short = [
            MissingTable(t.series, t.table, t.session, len(played), options.games)
            for t in covered
            if len(played := games.get(t.session_id, ())) < options.games
        ]
        # A table short of games in a series before the one drawn last was closed by that
        # draw (--force): nobody plays it again, so its series is over, not being played,
        # and counts for nothing (docs/tournaments.md); only the last series can be missing.
        missing = [m for m in short if m.series >= info.series_drawn]
        closed = [m for m in short if m.series < info.series_drawn]
        shut = {m.series for m in closed}
        unfinished = {m.series for m in short}
        finished = tuple(n for n in range(1, upto + 1) if n not in unfinished)
        column = {n: i for i, n in enumerate(finished)}
        results: dict[int, list[int | None]] = {p.start: [None] * len(finished) for p in info.players}
        current: dict[int, Running] = {}
        for table in covered:
            played = games.get(table.session_id, ())
            points = table_results(table.players, played, options)
            for player in table.players:
                start = start_of[player]
                if table.series in column:
                    results[start][column[table.series]] = points[player]
                elif table.series in shut:
                    continue  # closed by a later draw: nobody plays it any more
                elif start not in current or current[start].series < table.series:
                    shown = points[player] if played else None
                    current[start] = Running(table.series, table.table, len(played), options.games, shown)
        ranking = rank([Result(start, tuple(r)) for start, r in results.items()], options)
        by_start = {p.start: p for p in info.players}
        players = tuple(
            PlayerStanding(
                r.start,
                by_start[r.start].name,
                by_start[r.start].team,
                r.place,
                r.series,
                r.total,
                by_start[r.start].withdrawn_after is not None,
                current.get(r.start),
            )
            for r in ranking
        )
        members: dict[str, list[int]] = {}
        for p in info.players:
            if p.team is not None:
                members.setdefault(p.team, []).append(p.start)
        totals = {r.start: r.total for r in ranking}
        teams = tuple(
            TeamStanding(t.team, t.place, t.total, tuple(by_start[s].name for s in t.players))
            for t in rank_teams(members, totals, options)
        )
        return TournamentStandings(
            info.name,
            options,
            len(finished),
            info.series_drawn,
            players,
            teams,
            tuple(missing),
            finished,
            tuple(closed),
        )
