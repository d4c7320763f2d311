"""The history of a table: the course of a game (``romme chart``), statistics across
all sessions (``romme stats``) and the data of an evening's report (``romme report``).

No Click and no printing: the commands hand these results to the views. The
statistics come from SQL aggregates (:meth:`Store.player_session_stats`), one
row per player and session, so they do not grow with the number of rounds;
money comes from :mod:`romme_score.settlement`, the same settlement as
``romme settle``.

The same person across sessions is matched by name, trimmed and ignoring case
(Unicode case folding) and how an umlaut was typed (NFC): "Anna", " anna " and "ANNA"
are one player, and so are "Jörg" kept composed and "Jörg" kept decomposed (NFD).

>>> name_key("  Anna ") == name_key("ANNA"), name_key("Jo\u0308rg") == name_key("JÖRG")
(True, True)
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import NamedTuple

from romme_score.inputs import fold
from romme_score.rules import GameEnd, RuleSet
from romme_score.scoring import game_state
from romme_score.sessions import SessionInfo, SessionInputError, SessionService, Standings, settle_evening
from romme_score.settlement import Settlement

TWO_PLACES = Decimal("0.01")


class UnknownPlayer(SessionInputError):
    """No session has a player of that name; the view says so (with the closest name)."""

    def __init__(self, name: str, close: str | None, names: tuple[str, ...]) -> None:
        super().__init__(name)
        self.name = name
        self.close = close
        self.names = names


def name_key(name: str) -> str:
    """How a player is recognised across sessions: trimmed, composed and case-folded
    (:func:`~romme_score.inputs.fold`: Jörg typed decomposed is Jörg)."""
    return fold(name.strip())


# --- the course of a game -------------------------------------------------------------


class Chart(NamedTuple):
    """Every player's running total after each round of a session."""

    session: str
    players: tuple[str, ...]
    rounds: tuple[int, ...]  # the round numbers, 1..n
    totals: dict[str, tuple[int, ...]]  # player -> running total after each round
    hand_rommes: tuple[tuple[int, str], ...]  # (round, who went out with a Hand-Rommé)
    bonuses: tuple[tuple[int, str, int], ...]  # (round, player, points struck)
    game_end: GameEnd
    finished: bool
    winner: str | None

    def final(self, player: str) -> int:
        values = self.totals[player]
        return values[-1] if values else 0

    @property
    def highest(self) -> int:
        return max((max(v) for v in self.totals.values() if v), default=0)

    @property
    def end_line(self) -> int | None:
        """The game-end line to draw: the points target, when the game ends at one, and
        once the leader has come at least half way to it; before that it would squash
        the lines into the bottom of the chart (the legend names the target instead)."""
        if self.game_end.kind != "points" or self.highest * 2 < self.game_end.limit:
            return None
        return self.game_end.limit

    @property
    def last_round(self) -> int:
        """The last round on the x axis: the last played, or the last of a game of N rounds."""
        last = self.rounds[-1] if self.rounds else 0
        return max(last, self.game_end.limit) if self.game_end.kind == "rounds" else last


def chart_of(standings: Standings) -> Chart:
    """The running totals of a session's standings (all of its rounds)."""
    running = {p: 0 for p in standings.players}
    totals: dict[str, list[int]] = {p: [] for p in standings.players}
    hand_rommes: list[tuple[int, str]] = []
    bonuses: list[tuple[int, str, int]] = []
    for row in standings.rounds:
        for p in standings.players:
            running[p] += row.points.get(p, 0) - row.bonus.get(p, 0)
            totals[p].append(running[p])
            if row.bonus.get(p):
                bonuses.append((row.number, p, row.bonus[p]))
        if row.hand_romme and row.winner:
            hand_rommes.append((row.number, row.winner))
    return Chart(
        standings.session,
        standings.players,
        tuple(r.number for r in standings.rounds),
        {p: tuple(v) for p, v in totals.items()},
        tuple(hand_rommes),
        tuple(bonuses),
        standings.rules.game_end,
        standings.state.finished,
        standings.state.winner,
    )


MARKED = 10  # the Hand-Rommés a thinned chart marks: the last ones


def chart_from_totals(service: SessionService, info: SessionInfo, most: int | None = None) -> Chart:
    """The running totals of a session as the store keeps them per round (issue 28: no
    round read again), the same :class:`Chart` as :func:`chart_of` gives. With ``most``,
    a session of more rounds is drawn thinned: about ``most`` rounds evenly spread, from
    the first to the last, and the rounds of the last :data:`MARKED` Hand-Rommés (the
    only ones marked; no bonus listed), so that the chart of a long evening stays small."""
    store = service.store
    count = store.round_count(info)
    totals = store.totals(info)
    state = game_state(info.players, totals, count, info.rules, info.ended)
    if most is None or count <= most:
        rows = list(store.round_totals(info))
        hand_rommes = store.hand_rommes(info)
        bonuses = store.bonuses(info)
    else:
        step = (count - 1) / (most - 1)
        hand_rommes = store.hand_rommes(info, last=MARKED)
        numbers = {round(1 + i * step) for i in range(most)} | {number for number, _who in hand_rommes}
        rows = list(store.round_totals(info, sorted(numbers)))
        bonuses = []
    return Chart(
        info.name,
        info.players,
        tuple(number for number, _running in rows),
        {p: tuple(running[p] for _number, running in rows) for p in info.players},
        tuple(hand_rommes),
        tuple(bonuses),
        info.rules.game_end,
        state.finished,
        state.winner,
    )


# --- statistics -------------------------------------------------------------------------


class HeadToHead(NamedTuple):
    """A player against one opponent: rounds and games both played, who finished lower."""

    opponent: str
    rounds: int = 0
    rounds_lower: int = 0  # rounds the player scored fewer penalty points
    rounds_higher: int = 0  # rounds the opponent did
    games: int = 0
    games_lower: int = 0  # games the player ended with the lower total
    games_higher: int = 0

    @property
    def rounds_equal(self) -> int:
        return self.rounds - self.rounds_lower - self.rounds_higher

    @property
    def games_equal(self) -> int:
        return self.games - self.games_lower - self.games_higher


class PlayerStats(NamedTuple):
    """One person over every session they sat in (see :func:`name_key`)."""

    name: str  # as spelled in their latest session
    games: int  # sessions with at least one round played
    games_won: int  # finished games they won outright (the fewest points, no tie)
    rounds: int  # rounds played
    rounds_won: int  # rounds they went out
    hand_rommes: int  # rounds they went out with a Hand-Rommé
    points: int  # penalty points scored in those rounds
    worst_round: int  # the most penalty points in one round
    money: Decimal  # settled amounts summed over the sessions with a rate
    currencies: tuple[str, ...] = ()  # the currencies of those sessions
    vs: HeadToHead | None = None

    @property
    def average_penalty(self) -> Decimal:
        """Mean penalty points per round played, to two decimals (half up)."""
        if not self.rounds:
            return Decimal("0.00")
        return (Decimal(self.points) / self.rounds).quantize(TWO_PLACES, ROUND_HALF_UP)


class Stats(NamedTuple):
    players: tuple[PlayerStats, ...]
    since: date | None = None
    sessions: int = 0  # sessions counted


@dataclass
class _Tally:
    name: str
    games: int = 0
    games_won: int = 0
    rounds: int = 0
    rounds_won: int = 0
    hand_rommes: int = 0
    points: int = 0
    worst_round: int = 0
    money: Decimal = Decimal(0)
    currencies: list[str] = field(default_factory=list)
    spellings: set[str] = field(default_factory=set)
    totals: dict[int, int] = field(default_factory=dict)  # session id -> final total


class _Game(NamedTuple):
    players: list[str]
    totals: dict[str, int]
    rounds: int
    rules: str
    rate: str | None
    currency: str | None
    ended: bool = False  # ended by agreement (issue 36 item 5)


@functools.lru_cache(maxsize=64)
def _rules(text: str) -> RuleSet:
    """A session's stored rules; most sessions of a table share one rule set."""
    return RuleSet.from_dict(json.loads(text))


# --- the report -----------------------------------------------------------------------


class GameReport(NamedTuple):
    """One session of the evening: its scoresheet and its chart."""

    standings: Standings
    chart: Chart
    created: str
    rate: str | None
    currency: str | None


class Report(NamedTuple):
    """An evening: its games, and their settlement together (as ``romme settle``)."""

    games: tuple[GameReport, ...]
    settlement: Settlement | None  # None: a tournament's table is among them (no money)
    currency: str | None
    leaderboard: dict[str, int] | None
    tournament: str | None = None  # the tournament whose table a game is: its money is the pot


# --- the service ------------------------------------------------------------------------


class History:
    """Charts, statistics and reports over the sessions of one database."""

    def __init__(self, service: SessionService) -> None:
        self.service = service
        self.store = service.store

    def chart(self, session: str | None = None) -> Chart:
        """The running totals of a session (the current one by default)."""
        return chart_from_totals(self.service, self.service.session(session))

    def report(self, sessions: Sequence[str], unit: Decimal = Decimal("0.01")) -> Report:
        """The games of an evening (the current session by default) and their settlement."""
        names: list[str | None] = [*sessions] or [None]
        games = []
        tournament = None
        for name in names:
            info = self.service.session(name)
            standings = self.service.standings(info)
            games.append(
                GameReport(standings, chart_of(standings), info.created_at, info.rate, info.currency)
            )
            tournament = tournament or self.service.tournament_of(info)
        if tournament is not None:  # a tournament's table carries no money: the pot is the tournament's
            return Report(tuple(games), None, None, None, tournament)
        settled = self.service.settle([g.standings.session for g in games], unit=unit)
        return Report(tuple(games), settled.settlement, settled.currency, settled.leaderboard)

    def stats(self, player: str | None = None, since: date | None = None, vs: str | None = None) -> Stats:
        """Per person across all sessions (started on or after ``since``)."""
        rows = self.store.player_session_stats(since.isoformat() if since else None)
        games: dict[int, _Game] = {}
        tallies: dict[str, _Tally] = {}
        for row in rows:
            key = name_key(row.player)
            tally = tallies.get(key)
            if tally is None:
                tally = tallies[key] = _Tally(row.player.strip())
            tally.name = row.player.strip()  # rows come by session: the latest spelling wins
            tally.spellings.add(row.player)
            if not row.rounds:
                continue  # a session without rounds is not a game yet
            game = games.get(row.session_id)
            if game is None:
                game = games[row.session_id] = _Game(
                    [], {}, row.rounds, row.rules, row.rate, row.currency, bool(row.ended)
                )
            game.players.append(row.player)
            game.totals[row.player] = row.total
            tally.games += 1
            tally.rounds += row.rounds
            tally.rounds_won += row.rounds_won
            tally.hand_rommes += row.hand_rommes
            tally.points += row.points
            tally.worst_round = max(tally.worst_round, row.worst_round)
            tally.totals[row.session_id] = row.total
        for game in games.values():
            self._count_game(game, tallies)

        wanted = list(tallies)
        if player is not None:
            wanted = [self._find(player, tallies)]
        opponent = self._find(vs, tallies) if vs is not None else None
        against: dict[str, tuple[int, int, int]] = {}
        if opponent is not None:
            for spelling, count, fewer, more in self.store.head_to_head_rounds(
                sorted(tallies[opponent].spellings), since.isoformat() if since else None
            ):
                rounds, lower, higher = against.get(name_key(spelling), (0, 0, 0))
                against[name_key(spelling)] = (rounds + count, lower + fewer, higher + more)
        results = []
        for key in sorted(wanted, key=lambda k: (tallies[k].name.casefold(), k)):
            t = tallies[key]
            if not t.games and player is None:
                continue
            h2h = None
            if opponent is not None and opponent != key:
                h2h = self._head_to_head(t, tallies[opponent], against.get(key, (0, 0, 0)))
            results.append(
                PlayerStats(
                    t.name,
                    t.games,
                    t.games_won,
                    t.rounds,
                    t.rounds_won,
                    t.hand_rommes,
                    t.points,
                    t.worst_round,
                    t.money,
                    tuple(dict.fromkeys(t.currencies)),
                    h2h,
                )
            )
        return Stats(tuple(results), since, len(games))

    # -- helpers --------------------------------------------------------------------

    @staticmethod
    def _count_game(game: _Game, tallies: dict[str, _Tally]) -> None:
        """Games won (under the session's own game end) and the money settled."""
        state = game_state(game.players, game.totals, game.rounds, _rules(game.rules), game.ended)
        if state.finished and state.winner is not None:
            tallies[name_key(state.winner)].games_won += 1
        if game.rate is None or len(game.players) < 2:
            return
        result = settle_evening([game.totals], [Decimal(game.rate)]).settlement
        for p in result.players:
            tally = tallies[name_key(p.name)]
            tally.money += p.amount
            if game.currency:
                tally.currencies.append(game.currency)

    @staticmethod
    def _head_to_head(me: _Tally, other: _Tally, rounds: tuple[int, int, int]) -> HeadToHead:
        together = [sid for sid in me.totals if sid in other.totals]
        games_lower = sum(1 for sid in together if me.totals[sid] < other.totals[sid])
        games_higher = sum(1 for sid in together if me.totals[sid] > other.totals[sid])
        return HeadToHead(other.name, *rounds, len(together), games_lower, games_higher)

    @staticmethod
    def _find(name: str, tallies: dict[str, _Tally]) -> str:
        key = name_key(name)
        if key in tallies:
            return key
        import difflib  # only when a name is wrong: romme stats and romme report never need it else

        names = tuple(sorted(t.name for t in tallies.values()))
        close = difflib.get_close_matches(name.strip(), names, n=1, cutoff=0.5)
        raise UnknownPlayer(name.strip(), close[0] if close else None, names)
