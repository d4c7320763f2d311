"""Tournaments and club evenings over several tables (docs/rules.md §10): the split into
tables, the draws, the series results (``augen``, ``wertung``),
the ranking with shared places, the team ranking, and the prize money.

Pure: no I/O, no Click, no database. The service (:mod:`romme_score.tournament.service`)
reads the tables' sessions and hands their games to these functions; the options (every
number of §10) are in :mod:`romme_score.tournament.options`.

>>> table_sizes(13), table_sizes(14), table_sizes(5)
([4, 3, 3, 3], [4, 4, 3, 3], [5])
>>> options = TournamentOptions(scoring="wertung")
>>> game_wertung(12, won=False, hand_romme=False, options=options)
2
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, NamedTuple

from romme_score.errors import InputProblem, Refusal
from romme_score.i18n import _, ngettext, shown
from romme_score.inputs import InputValueError, clean_name, clean_names, clean_text
from romme_score.tournament.options import Prize, TournamentOptions

if TYPE_CHECKING:  # the prize money's exact shares; imported by the payout alone
    from fractions import Fraction

MIN_PLAYERS = 3  # the "3 to 500 players" (and never fewer than min_table)
MAX_PLAYERS = 500
MAX_SEED = 10**12


class TournamentInputError(InputProblem):
    """Players, a players file or a seed that cannot be used for a tournament."""


class TooFewPlayers(TournamentInputError):
    """Fewer players than one table needs."""

    def __init__(self, count: int, smallest: int) -> None:
        super().__init__(
            ngettext(
                "%(count)d player is too few: a table needs at least %(smallest)d (min_table=%(smallest)d)",
                "%(count)d players are too few: a table needs at least %(smallest)d (min_table=%(smallest)d)",
                count,
            )
            % {"count": count, "smallest": smallest}
        )
        self.count = count
        self.smallest = smallest


class TooManyPlayers(TournamentInputError):
    """More players than a tournament takes."""

    def __init__(self, count: int) -> None:
        super().__init__(
            _("%(count)d players are too many: a tournament takes %(min)d to %(max)d")
            % {"count": count, "min": MIN_PLAYERS, "max": MAX_PLAYERS}
        )
        self.count = count


class PrizesAbovePot(Refusal):
    """The prizes come to more than the pot holds."""

    def __init__(self, prizes: Decimal, pot: Decimal) -> None:
        super().__init__(
            _("the prizes come to %(prizes)s, more than the pot of %(pot)s") % {"prizes": prizes, "pot": pot}
        )
        self.prizes = prizes
        self.pot = pot


# --- players ------------------------------------------------------------------------


class Entrant(NamedTuple):
    """A player as entered: a name and a team (None: no team)."""

    name: str
    team: str | None = None


def read_entrant(text: str) -> Entrant:
    """``NAME`` or ``NAME;TEAM``; a second ``;`` is refused (a team ``Nord;extra`` is not
    what was meant).

    >>> read_entrant(" Anna ; Club 1 ")
    Entrant(name='Anna', team='Club 1')
    >>> try:
    ...     read_entrant("Anna;Nord;extra")
    ... except TournamentInputError as exc:
    ...     print(exc)
    'Anna;Nord;extra' has more than one ';': give NAME or NAME;TEAM
    """
    name, sep, team = text.partition(";")
    if ";" in team:
        raise TournamentInputError(
            _("%(text)s has more than one ';': give NAME or NAME;TEAM") % {"text": shown(text.strip())}
        )
    return Entrant(name.strip(), (team.strip() or None) if sep else None)


def read_players_file(text: str) -> list[Entrant]:
    """One player a line, ``NAME`` or ``NAME;TEAM``; blank lines and lines starting with
    ``#`` are skipped, and so is a byte order mark before the first line (Windows Notepad
    writes one). Bytes that are not UTF-8 (``text`` decoded with ``surrogateescape``: a
    Latin-1 file) are refused naming the line, the byte and its position in the line.

    >>> read_players_file("\\ufeffAnna;A\\n\\n# late\\nBen\\n")
    [Entrant(name='Anna', team='A'), Entrant(name='Ben', team=None)]
    >>> try:
    ...     read_players_file("Anna\\nJ\\udcfcrgen\\n")
    ... except TournamentInputError as exc:
    ...     print(exc)
    line 2 is not valid text (byte 0xFC at position 2): a players file is read as UTF-8
    """
    entrants = []
    for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            clean_text(line, _("line %(line)d") % {"line": number})
        except InputValueError as exc:
            raise TournamentInputError(
                _("%(reason)s: a players file is read as UTF-8") % {"reason": exc}
            ) from None
        try:
            entrants.append(check_entrant(read_entrant(line)))
        except (InputValueError, TournamentInputError) as exc:
            raise TournamentInputError(
                _("line %(line)d: %(reason)s") % {"line": number, "reason": exc}
            ) from None
    return entrants


def check_entrant(entrant: Entrant) -> Entrant:
    team = clean_name(entrant.team, _("a team's name")) if entrant.team is not None else None
    return Entrant(clean_name(entrant.name, _("player name")), team)


def check_entrants(entrants: Sequence[Entrant], options: TournamentOptions) -> list[Entrant]:
    """Names clean and unique ignoring case, teams clean; 3 to 500 players, at least a table."""
    checked = [check_entrant(e) for e in entrants]
    clean_names([e.name for e in checked])
    smallest = max(MIN_PLAYERS, options.min_table)
    if len(checked) < smallest:
        raise TooFewPlayers(len(checked), smallest)
    if len(checked) > MAX_PLAYERS:
        raise TooManyPlayers(len(checked))
    return checked


# --- tables and seating ---------------------------------------------------------------


def table_sizes(players: int, size: int = 4, smallest: int = 3) -> list[int]:
    """Table sizes for ``players`` at tables of ``size`` (§10): ceil(n / size) tables whose
    sizes differ by at most one, larger tables first; where a table would be below
    ``smallest``, fewer tables with one player more.

    >>> table_sizes(7), table_sizes(9), table_sizes(6, size=3)
    ([4, 3], [3, 3, 3], [3, 3])
    """
    if players < smallest:
        raise TooFewPlayers(players, smallest)
    tables = -(-players // size)
    while tables > 1 and players // tables < smallest:
        tables -= 1
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def draw_order(starts: Iterable[int], seed: int, series: int) -> list[int]:
    """Start numbers in the order of a draw by lot: ``random.Random(f"{seed}:{series}")``
    shuffles them in ascending order, so anyone can repeat the draw of any series.

    >>> draw_order([1, 2, 3, 4], seed=7, series=1) == draw_order([4, 3, 2, 1], seed=7, series=1)
    True
    """
    order = sorted(starts)
    import random  # only a draw by lot needs it (issue 28 item 3: every command's start-up)

    random.Random(f"{seed}:{series}").shuffle(order)
    return order


def deal_tables(order: Sequence[int], sizes: Sequence[int]) -> list[tuple[int, ...]]:
    """The players in ``order`` seated table by table: table 1 takes the first ``sizes[0]``,
    seat 1 the first of them.

    >>> deal_tables([5, 2, 9, 1, 7, 3, 4], [4, 3])
    [(5, 2, 9, 1), (7, 3, 4)]
    """
    tables, at = [], 0
    for size in sizes:
        tables.append(tuple(order[at : at + size]))
        at += size
    return tables


def seat_series(
    options: TournamentOptions,
    active: Sequence[int],
    seed: int,
    series: int,
    ranking: Sequence[int] = (),
) -> list[tuple[int, ...]]:
    """The tables of series ``series`` (start numbers in seat order) for the ``active``
    players: by lot (``draw``, and series 1 of ``standings``), by ``ranking`` (the order of
    the standings after the series before), or in the order of the start numbers (``fixed``)."""
    sizes = table_sizes(len(active), options.table_size, options.min_table)
    if options.seating == "fixed":
        order = sorted(active)
    elif options.seating == "standings" and series > 1:
        playing = set(active)
        order = [start for start in ranking if start in playing]
    else:
        order = draw_order(active, seed, series)
    return deal_tables(order, sizes)


# --- results --------------------------------------------------------------------------


class Game(NamedTuple):
    """One game at a table (a round of its session): who went out, and each player's
    points as recorded (after any doubling) and winner bonus struck."""

    winner: str | None
    hand_romme: bool
    points: Mapping[str, int]
    bonus: Mapping[str, int] = {}
    stalemate: bool = False  # the stock ran out: nobody went out


def game_wertung(points: int, won: bool, hand_romme: bool, options: TournamentOptions) -> int:
    """§10 ``wertung`` of one player in one game: ``wertung_win`` for the winner
    (``wertung_hand_romme`` after a Hand-Rommé), else the first step of ``wertung_low``
    whose Augen the recorded points do not exceed, else 0.

    >>> options = TournamentOptions()
    >>> [game_wertung(p, False, False, options) for p in (0, 10, 11, 30, 31)]
    [3, 3, 2, 1, 0]
    >>> game_wertung(0, True, True, options)
    8
    """
    if won:
        return options.wertung_hand_romme if hand_romme else options.wertung_win
    for limit, score in options.wertung_low:
        if points <= limit:
            return score
    return 0


def table_results(
    players: Sequence[str], games: Sequence[Game], options: TournamentOptions
) -> dict[str, int]:
    """Each player's series result at one table: ``augen``, the penalty points less the
    winner bonus (the session's total); ``wertung``, the sum of the games' points."""
    if options.scoring == "augen":
        return {p: sum(g.points.get(p, 0) - g.bonus.get(p, 0) for g in games) for p in players}
    return {
        p: sum(game_wertung(g.points.get(p, 0), g.winner == p, g.hand_romme, options) for g in games)
        for p in players
    }


def lost_games(players: Sequence[str], games: Sequence[Game]) -> dict[str, int]:
    """Games each player did not win; a game nobody won (a stalemate) counts for everyone."""
    return {p: sum(1 for g in games if g.winner != p) for p in players}


# --- ranking --------------------------------------------------------------------------


class Result(NamedTuple):
    """A player's results, one per series (None: not seated in it)."""

    start: int
    series: tuple[int | None, ...]

    @property
    def total(self) -> int:
        return sum(r for r in self.series if r is not None)

    @property
    def played(self) -> int:
        return sum(1 for r in self.series if r is not None)


class Ranked(NamedTuple):
    start: int
    place: int
    total: int
    series: tuple[int | None, ...]


def _rank_key(result: Result, options: TournamentOptions) -> tuple[int, ...]:
    """Smaller is better. ``augen``: a player who played fewer series (withdrew) ranks
    after those who played more, whatever the Augen, since a missing series scores none.
    ``best-series`` adds the best single series and then the last series (missing: worst)."""
    sign = 1 if options.better() == "low" else -1
    key: list[int] = []
    if options.scoring == "augen":
        key.append(-result.played)
    key.append(sign * result.total)
    if options.tie_break == "best-series":
        played = [r for r in result.series if r is not None]
        worst = 10**12
        key.append(sign * (min(played) if sign == 1 else max(played)) if played else worst)
        last = result.series[-1] if result.series else None
        key.append(sign * last if last is not None else worst)
    return tuple(key)


def rank(results: Iterable[Result], options: TournamentOptions) -> list[Ranked]:
    """The ranking, best first (start numbers order equal ones): equal keys share a place
    and the next place skips (1, 2, 2, 4).

    >>> results = [Result(1, (7,)), Result(2, (9,)), Result(3, (7,)), Result(4, (3,))]
    >>> [(r.start, r.place) for r in rank(results, TournamentOptions(scoring="wertung"))]
    [(2, 1), (1, 2), (3, 2), (4, 4)]
    """
    keyed = sorted(((_rank_key(r, options), r.start, r) for r in results), key=lambda x: (x[0], x[1]))
    ranked: list[Ranked] = []
    place = 0
    previous: tuple[int, ...] | None = None
    for index, (key, _start, result) in enumerate(keyed, 1):
        if key != previous:
            place, previous = index, key
        ranked.append(Ranked(result.start, place, result.total, result.series))
    return ranked


class TeamRanked(NamedTuple):
    team: str
    place: int
    total: int
    players: tuple[int, ...]  # start numbers


def rank_teams(
    teams: Mapping[str, Sequence[int]], totals: Mapping[int, int], options: TournamentOptions
) -> list[TeamRanked]:
    """Teams by the sum of their players' totals, best first; equal sums share a place.

    >>> teams = rank_teams({"A": [1, 2], "B": [3, 4]}, {1: 5, 2: 9, 3: 10, 4: 6}, TournamentOptions())
    >>> [(t.team, t.place, t.total, t.players) for t in teams]
    [('A', 1, 14, (1, 2)), ('B', 2, 16, (3, 4))]
    """
    sign = 1 if options.better() == "low" else -1
    sums = {team: sum(totals.get(s, 0) for s in members) for team, members in teams.items()}
    order = sorted(teams, key=lambda t: (sign * sums[t], min(teams[t], default=0), t))
    ranked: list[TeamRanked] = []
    place, previous = 0, None
    for index, team in enumerate(order, 1):
        if sums[team] != previous:
            place, previous = index, sums[team]
        ranked.append(TeamRanked(team, place, sums[team], tuple(sorted(teams[team]))))
    return ranked


# --- money ----------------------------------------------------------------------------


class PlayerMoney(NamedTuple):
    start: int
    place: int
    paid: Decimal
    receives: Decimal


class Payout(NamedTuple):
    pot: Decimal
    kept: Decimal  # what the prizes leave of the pot (the organiser's)
    players: tuple[PlayerMoney, ...]  # in the order of the ranking


def paid_in(lost: Mapping[int, int], options: TournamentOptions) -> dict[int, Decimal]:
    """What each player paid: the entry fee, and the lost-game fee for every game not won."""
    return {
        start: (options.entry_fee + options.lost_game_fee * games).quantize(options.unit)
        for start, games in lost.items()
    }


def prize_shares(ranking: Sequence[Ranked], prizes: Sequence[Prize], pot: Decimal) -> dict[int, Fraction]:
    """The exact prize of each player: the prize of their place, where players share a place
    the prizes of the places they cover split equally (places 2, 2 share prizes 2 and 3).

    >>> ranking = [Ranked(1, 1, 0, ()), Ranked(2, 2, 0, ()), Ranked(3, 2, 0, ())]
    >>> prizes = [Prize(Decimal(50), True), Prize(Decimal(30), True), Prize(Decimal(10), True)]
    >>> prize_shares(ranking, prizes, Decimal(100))
    {1: Fraction(50, 1), 2: Fraction(20, 1), 3: Fraction(20, 1)}
    """
    from fractions import Fraction

    exact = [Fraction(pot) * Fraction(p.value) / 100 if p.percent else Fraction(p.value) for p in prizes]
    sharing: dict[int, list[int]] = {}
    for r in ranking:
        sharing.setdefault(r.place, []).append(r.start)
    shares: dict[int, Fraction] = {}
    for place, starts in sharing.items():
        covered = exact[place - 1 : place - 1 + len(starts)]
        each = sum(covered, Fraction(0)) / len(starts)
        for start in starts:
            shares[start] = each
    return shares


def largest_remainder(exact: Sequence[Fraction], unit: Decimal) -> list[Decimal]:
    """Amounts rounded to whole ``unit``\\ s so that they still sum to the exact total (a
    whole number of units): each rounded down, the units left over to the largest
    remainders, equal remainders in the order given. Unlike
    :func:`romme_score.settlement.round_to_unit`, it takes exact fractions: a prize split
    three ways has no exact decimal.

    >>> from fractions import Fraction
    >>> [str(x) for x in largest_remainder([Fraction(10, 3)] * 3, Decimal("0.01"))]
    ['3.34', '3.33', '3.33']
    """
    from fractions import Fraction

    step = Fraction(unit)
    units = [x / step for x in exact]
    floors = [u.numerator // u.denominator for u in units]
    total = sum(units, Fraction(0))
    if total.denominator != 1:
        raise ValueError("the amounts do not sum to a whole number of units")
    short = int(total) - sum(floors)
    order = sorted(range(len(units)), key=lambda i: (-(units[i] - floors[i]), i))
    for i in order[:short]:
        floors[i] += 1
    return [unit * n for n in floors]


def payout(ranking: Sequence[Ranked], paid: Mapping[int, Decimal], options: TournamentOptions) -> Payout:
    """The pot (everything paid in), each player's prize by place, and what the prizes
    leave, all in whole units of the currency and summing to the pot exactly.

    >>> prizes = (Prize(Decimal(60), True), Prize(Decimal(40), True))
    >>> options = TournamentOptions(entry_fee=Decimal(10), prizes=prizes)
    >>> ranking = [Ranked(2, 1, 9, ()), Ranked(1, 2, 5, ()), Ranked(3, 2, 5, ())]
    >>> result = payout(ranking, {1: Decimal(10), 2: Decimal(10), 3: Decimal(10)}, options)
    >>> str(result.pot), str(result.kept), [(m.start, str(m.receives)) for m in result.players]
    ('30.00', '0.00', [(2, '18.00'), (1, '6.00'), (3, '6.00')])
    """
    from fractions import Fraction

    pot = sum(paid.values(), Decimal(0)).quantize(options.unit)
    shares = prize_shares(ranking, options.prizes, pot)
    prizes = sum(shares.values(), Fraction(0))
    if prizes > Fraction(pot):
        raise PrizesAbovePot(_decimal(prizes, options.unit), pot)
    order = [r.start for r in ranking]
    rounded = largest_remainder(
        [shares.get(s, Fraction(0)) for s in order] + [Fraction(pot) - prizes], options.unit
    )
    players = tuple(
        PlayerMoney(r.start, r.place, paid.get(r.start, Decimal(0)), amount)
        for r, amount in zip(ranking, rounded, strict=False)
    )
    return Payout(pot, rounded[-1], players)


def _decimal(value: Fraction, unit: Decimal) -> Decimal:
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(unit)
