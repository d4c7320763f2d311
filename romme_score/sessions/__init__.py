"""The session service: what a front end may do to a game, with no Click, no printing
and no SQL, so that the command line, the table mode and every later front end call
the same code over any store (:mod:`romme_score.store`).

A front end parses its input, calls this service and hands the result to a view.
Errors are raised, never printed, and carry facts, never a front end's way out:
:class:`SessionRefused` (and the store's errors) for an action that is refused,
:class:`SessionInputError`, :class:`~romme_score.export.ExportError` and
:class:`~romme_score.scoring.RoundError` for input that cannot be used.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from romme_score.cards import Card, Profile
from romme_score.errors import InputProblem
from romme_score.frozen import record
from romme_score.i18n import _, shown
from romme_score.inputs import (
    MAX_NOTE,
    choose_player,
    clean_currency,
    clean_name,
    clean_names,
    clean_note,
    clean_text,
    read_hand,
    unknown_player,
)
from romme_score.melds import IllegalMeldError, check_supply
from romme_score.rules import RuleSet
from romme_score.scoring import (
    TENTHS,
    UNLIKELY_POINTS,
    GameState,
    Hand,
    NoWinner,
    RoundError,
    RoundInput,
    RoundScore,
    StalemateWithWinner,
    check_counted,
    check_winner_hand,
    game_state,
    most_points_in_hand,
    place_bonus,
    replay,
    score_round,
    unlikely_points,
)
from romme_score.store import StoreError, open_store
from romme_score.store.errors import KeyTaken, NoRounds, NotFound, PendingChanged, Raced, StoreBusy
from romme_score.store.protocol import Store
from romme_score.store.records import (
    KEEP,
    HandRecord,
    Keep,
    Lines,
    Link,
    Note,
    PendingChange,
    PendingHand,
    PendingRound,
    Rename,
    RoundPoints,
    RoundRecord,
    SessionInfo,
    StoredRound,
    canonical,
)

# The export (JSON and CSV of a whole session) is imported by export and import only, not
# by every command that opens the service (issue 28 item 3); its names stay importable
# from here.
if TYPE_CHECKING:
    from romme_score.export import ExportError, ExportHand, ExportRound, SessionExport
    from romme_score.settlement import Settlement  # imported by settle_evening alone

T = TypeVar("T")
HELD_RETRIES = 20  # runs of one_transaction() that met another writer, before it is busy

_EXPORT_NAMES = ("ExportError", "ExportHand", "ExportRound", "SessionExport")

if not TYPE_CHECKING:  # type checkers read the import above

    def __getattr__(name: str) -> Any:
        if name not in _EXPORT_NAMES:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        from romme_score import export as export_format

        return getattr(export_format, name)


DEFAULT_RATE = Decimal("0.01")  # money per point when neither the session nor a rate given says
DEFAULT_UNIT = Decimal("0.01")  # the smallest amount paid, unless a settlement is given another

RoundRow = RoundPoints  # one line of the scoresheet, as the store reads it


class SessionRefused(StoreError):
    """A session action that is refused as asked (the game is over, nothing to undo, ...)."""


class GameOver(SessionRefused):
    """The session's game is over: no more rounds. ``winner`` is who won it (None: a tie);
    ``tournament`` the tournament whose table it is (None: a game of its own), so that a
    front end offers the way on that fits: a table waits for the next series."""

    def __init__(self, session: str, winner: str | None, tournament: str | None = None) -> None:
        if winner:
            message = _("the game of session '%(session)s' is over (%(winner)s won)")
        else:
            message = _("the game of session '%(session)s' is over")
        super().__init__(message % {"session": session, "winner": winner})
        self.session = session
        self.winner = winner
        self.tournament = tournament


class TournamentMoney(SessionRefused):
    """A tournament's table is settled: its games carry no money, the tournament's money is
    its pot (entry fees and lost-game fees, paid out by place)."""

    def __init__(self, session: str, tournament: str) -> None:
        super().__init__(
            _(
                "session '%(session)s' is a table of tournament '%(tournament)s': its games carry no money, "
                "the money of a tournament is its pot"
            )
            % {"session": session, "tournament": tournament}
        )
        self.session = session
        self.tournament = tournament


class AlreadyOut(SessionRefused):
    """``player`` said they went out while ``winner``'s claim stands: who went out is one
    fact, and only the scorekeeper changes it."""

    def __init__(self, session: str, winner: str, player: str) -> None:
        super().__init__(
            _("%(winner)s has already gone out; the scorekeeper can change it") % {"winner": winner}
        )
        self.session = session
        self.winner = winner
        self.player = player


class KeyReused(SessionRefused):
    """An idempotency key sent again with another write than the one applied under it
    (another path or body): nothing is done."""

    code = "key-reused"

    def __init__(self, key: str) -> None:
        super().__init__(
            _("the key %(key)s was sent before with another write; nothing was done") % {"key": key}
        )
        self.key = key


class UnlikelyPoints(SessionRefused):
    """Points counted by hand above :data:`~romme_score.scoring.UNLIKELY_POINTS` (``limit``)
    and not confirmed: rarely held, more often 320 typed for 32. Nothing is stored; each
    door confirms in its own way (the command line saves with a warning, the table mode
    asks once, a phone asks and sends again with ``"confirm": true``)."""

    code = "unlikely_points"

    def __init__(self, player: str, points: int, limit: int) -> None:
        super().__init__(
            _("%(player)s=%(points)d: more than %(limit)d points in one hand")
            % {"player": player, "points": points, "limit": limit}
        )
        self.player = player
        self.points = points
        self.limit = limit


class RoundIncomplete(SessionRefused):
    """The round in progress cannot be saved yet: nobody went out and it is no stalemate
    (``no_winner``), or the hands of ``missing`` have not arrived."""

    def __init__(self, session: str, missing: Sequence[str], no_winner: bool) -> None:
        if no_winner:
            message = _("nobody went out yet in the round in progress of '%(session)s'")
        else:
            message = _("the round in progress of '%(session)s' still needs the hands of %(players)s")
        super().__init__(message % {"session": session, "players": ", ".join(missing)})
        self.code = "no-winner" if no_winner else "missing-hands"
        self.session = session
        self.missing = tuple(missing)
        self.no_winner = no_winner


class SessionInputError(InputProblem):
    """Input to a session action that cannot be used (a bad name, a round that is not there)."""


class HandForm(SessionInputError):
    """A hand given as one word that is not ``NAME=CARDS`` or ``NAME=POINTS``."""

    def __init__(self, item: str, example: str) -> None:
        super().__init__(
            _("%(item)s needs the form NAME=CARDS or NAME=POINTS, e.g. %(example)s")
            % {"item": shown(item), "example": example}
        )
        self.item = item
        self.example = example


class GivenTwice(SessionInputError):
    """The same player's hand given twice in one round."""

    def __init__(self, player: str) -> None:
        super().__init__(_("%(name)s is given twice in this round") % {"name": player})
        self.player = player


class NoSuchRound(SessionInputError):
    """A round number the session does not have: ``played`` rounds it has."""

    def __init__(self, number: int, session: str, played: int) -> None:
        super().__init__(
            _("there is no round %(number)d in session '%(session)s' (rounds 1-%(played)d)")
            % {"number": number, "session": session, "played": played}
        )
        self.number = number
        self.session = session
        self.played = played


# --- standings ----------------------------------------------------------------------


@record
class Correction:
    """A round changed after it was recorded: ``edited`` or ``undone``, and when."""

    round: int
    change: str
    at: str | None


@record
class Standings:
    """The scoresheet of a session: recent rounds, totals, state of the game."""

    session: str
    players: tuple[str, ...]
    rules: RuleSet
    rounds: Sequence[RoundRow]
    rounds_played: int
    totals: Mapping[str, int]
    leaderboard: Mapping[str, int] | None  # 003 points in tenths, with the place bonus once finished
    state: GameState
    next_dealer: str
    corrections: Sequence[Correction] = ()
    notes: Sequence[Note] = ()
    renames: Sequence[Rename] = ()


@record
class SessionSummary:
    """A line of the session list."""

    info: SessionInfo
    rounds: int
    state: GameState
    current: bool


@record
class Recorded:
    """A round as saved: its number, its score and the standings after it."""

    number: int
    round: RoundInput
    score: RoundScore
    standings: Standings
    unlikely: tuple[UnlikelyPoints, ...] = ()  # the unlikely points it was saved with (confirmed)
    next_in_progress: bool = False  # a round in progress elsewhere (phones) now counts as the next


@record
class Undone:
    """The round taken back and the totals after it."""

    record: RoundRecord
    totals: Mapping[str, int]


@record
class Edited:
    """A corrected round: its new input, its new score and the totals after it."""

    number: int
    round: RoundInput
    score: RoundScore
    totals: Mapping[str, int]


@record
class SettlementInputs:
    """What the settlement needs of the chosen sessions: one game per session."""

    games: list[dict[str, int]]
    rates: list[Decimal]
    currency: str | None
    leaderboard: dict[str, int] | None


@record
class Snapshot:
    """A session as every door shows it at one version: the standings, the round in
    progress with who is still missing and its score as it would be saved now
    (``provisional``: Hand-Rommé doubling, jokers, never-out and the winner's bonus
    applied, the missing hands counted as 0; None until a winner or a stalemate is
    known, or while the round cannot be saved as it stands), the last round, and the
    settlement so far (None before the first round)."""

    version: int
    standings: Standings
    pending: PendingRound
    missing: tuple[str, ...]
    provisional: RoundScore | None
    last: RoundRecord | None
    settled: Settled | None
    tournament: str | None = None  # a tournament's table: no money (settled stays None)


@record
class Settled:
    """An evening settled: who pays whom, in which currency, with the 003 leaderboard
    (in tenths, None unless the rules keep one) beside it."""

    settlement: Settlement
    currency: str | None
    leaderboard: dict[str, int] | None


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


# --- export -------------------------------------------------------------------------


def scored_rows(
    players: Sequence[str], rules: RuleSet, inputs: Sequence[RoundInput], recorded_at: str = ""
) -> list[StoredRound]:
    """Rounds scored in order under the rules, as rows for :meth:`Store.write_session`
    (benchmarks and tests build long sessions with it)."""
    rows = []
    for number, (rnd, score) in enumerate(zip(inputs, replay(players, rules, inputs), strict=True), 1):
        hands = {
            p: HandRecord(
                canonical(h.cards) if (h := rnd.hands.get(p)) else None,
                h.points if h else None,
                h.never_out if h else False,
                score.points[p],
                score.bonus.get(p, 0),
                score.leaderboard.get(p),
            )
            for p in players
        }
        rows.append(
            StoredRound(
                number,
                number,
                "active",
                rnd.winner,
                rnd.hand_romme,
                rnd.stalemate,
                recorded_at,
                None,
                None,
                hands,
            )
        )
    return rows


# --- the service ----------------------------------------------------------------------


def _pending_hand(hand: Hand) -> PendingHand:
    return PendingHand(canonical(hand.cards), hand.points, hand.never_out)


def _as_now_judged(rnd: RoundInput, rules: RuleSet) -> RoundInput:
    """A stored round as the rules judge it today. Before call_out_max and color_romme
    existed, cards typed for the winner were kept 'for control' and never counted; where
    the rules now refuse them, they are dropped, so that correcting another round does
    not fail on them (the points stay what they were)."""
    hand = rnd.hands.get(rnd.winner) if rnd.winner else None
    if hand is None or rnd.winner is None:
        return rnd
    try:
        check_winner_hand(rnd.winner, hand, rules)
    except RoundError:
        return RoundInput(
            rnd.winner, {p: h for p, h in rnd.hands.items() if p != rnd.winner}, rnd.hand_romme, rnd.stalemate
        )
    return rnd


def _unlikely(rules: RuleSet, player: str, hand: Hand) -> UnlikelyPoints | None:
    """The refusal of a hand's unlikely points, or None where they are likely."""
    if not unlikely_points(hand, rules):
        return None
    return UnlikelyPoints(player, hand.points or 0, min(UNLIKELY_POINTS, most_points_in_hand(rules)))


@record
class ReadHands:
    """The hands of a round given as ``NAME=CARDS`` words, by player, and the unlikely
    points among them (kept: a door that asks nobody warns instead)."""

    hands: dict[str, Hand]
    unlikely: tuple[UnlikelyPoints, ...]


def read_hands(info: SessionInfo, items: Sequence[str], never_out: set[str], profile: Profile) -> ReadHands:
    """``NAME=CARDS`` / ``NAME=POINTS`` words, by player, as every door that types them
    reads them (``romme round``, ``romme edit``, the table mode's lines): NAME as
    :func:`~romme_score.inputs.choose_player` reads it, the hand as
    :func:`~romme_score.inputs.read_hand` does, each checked as it arrives
    (:func:`check_hand`); ``never_out`` marks players (one without a hand given too)."""
    players = info.players
    hands: dict[str, Hand] = {}
    unlikely: list[UnlikelyPoints] = []
    for item in items:
        raw, sep, text = item.partition("=")
        if not sep or not raw.strip():
            raise HandForm(item, f'{players[0]}="HK K10 J"')
        name = choose_player(raw, players)
        if name in hands:
            raise GivenTwice(name)
        hand = read_hand(name, text, profile, name in never_out)
        try:
            hands[name] = check_hand(info.rules, name, hand)
        except UnlikelyPoints as exc:
            hands[name] = hand
            unlikely.append(exc)
    for name in never_out - set(hands):
        hands[name] = Hand(points=None, never_out=True)
    return ReadHands(hands, tuple(unlikely))


def first_over_supply(
    rules: RuleSet, hands: Sequence[tuple[str, Hand]]
) -> tuple[str, IllegalMeldError] | None:
    """The first of ``hands`` (in the order given: the order they were asked) whose cards,
    with those of the hands before it, are more than the packs hold, and why; None when
    the round's cards add up (the table mode sends the typist back to that hand)."""
    held: list[Card] = []
    for player, hand in hands:
        if hand.cards is None:
            continue
        held.extend(hand.cards)
        try:
            check_supply(held, rules)
        except IllegalMeldError as exc:
            return player, exc
    return None


def check_hand(rules: RuleSet, player: str, hand: Hand, *, confirm: bool = False) -> Hand:
    """A hand as it arrives, at every door (typed, scripted, tapped): cards more often than
    the packs hold are refused (:class:`~romme_score.scoring.RoundError`), points no hand
    can hold under ``rules`` too (:class:`~romme_score.inputs.HandInputError`, 'did you mean
    32?'), and points above :data:`~romme_score.scoring.UNLIKELY_POINTS` unless ``confirm``
    (:class:`UnlikelyPoints`: each door confirms in its own way)."""
    if hand.cards is not None:
        try:
            check_supply(list(hand.cards), rules)
        except IllegalMeldError as exc:
            raise RoundError(f"{player}: {exc}") from None
    check_counted(player, hand, rules)
    unlikely = _unlikely(rules, player, hand)
    if unlikely is not None and not confirm:
        raise unlikely
    return hand


def _lookup(name: str | None) -> str | None:
    """A session's name as given to find it, refused unless valid text (SQLite cannot
    look up the rest)."""
    if name is not None:
        clean_text(name, _("the session's name"))
    return name


def _lookup_name(name: str) -> str:
    clean_text(name, _("the session's name"))
    return name


class SessionService:
    """Sessions and rounds of one database. Every write is one transaction."""

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

    def __enter__(self) -> SessionService:
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
        return game_state(info.players, self.store.totals(info), self.store.round_count(info), info.rules)

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

    def standings(self, info: SessionInfo, last: int | None = None) -> Standings:
        """The scoresheet: the last ``last`` rounds (all when None), totals, the game's state."""
        rows = list(self.round_rows(info, last))
        count = self.store.round_count(info)
        totals = self.store.totals(info)
        state = game_state(info.players, totals, count, info.rules)
        board = None
        if info.rules.leaderboard:
            board = leaderboard_with_bonus(info.players, self.store.leaderboard(info), totals, state.finished)
        dealer = info.players[(info.first_dealer + count) % len(info.players)]
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
            corrections,
            self.store.notes(info),
            self.store.renames(info),
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
        standings = self.standings(info, last=last)
        pending = self.store.pending(info)
        # a finished game waits for nobody's hand
        missing = () if standings.state.finished else tuple(self.missing_hands(info, pending))
        try:
            latest: RoundRecord | None = self.last_round(info)
        except NoRounds:
            latest = None
        tournament = self.tournament_of(info)
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
        )

    def provisional(self, info: SessionInfo, pending: PendingRound) -> RoundScore | None:
        """The round in progress scored as it would be saved now (see :class:`Snapshot`)."""
        standings = self.standings(info, last=0)
        return self._provisional(info, standings, pending, self.missing_hands(info, pending))

    @staticmethod
    def _provisional(
        info: SessionInfo, standings: Standings, pending: PendingRound, missing: Sequence[str]
    ) -> RoundScore | None:
        """The round in progress scored as it would be saved, the missing hands as 0."""
        if standings.state.finished or (pending.winner is None and not pending.stalemate):
            return None
        rnd = pending.to_input()
        hands = {**rnd.hands, **{p: Hand(points=0) for p in missing}}
        try:
            return score_round(
                info.players,
                standings.totals,
                RoundInput(rnd.winner, hands, rnd.hand_romme, rnd.stalemate),
                info.rules,
            )
        except RoundError:
            return None

    def overview(self) -> list[SessionSummary]:
        current = self.store.current_name()
        return [
            SessionSummary(
                info, count, game_state(info.players, totals, count, info.rules), info.name == current
            )
            for info, count, totals in self.store.session_overview()
        ]

    def round_input(self, info: SessionInfo, number: int) -> RoundInput:
        """Round ``number`` as the table reported it (for a correction), judged as today's
        rules judge stored rounds; a round that is not there is an input error."""
        played = self.store.round_count(info)
        if not 1 <= number <= played:
            raise NoSuchRound(number, info.name, played)
        record = self.store.rounds(info, last=played - number + 1)[0]
        return _as_now_judged(record.to_input(info.players), info.rules)

    def last_round(self, info: SessionInfo) -> RoundRecord:
        last = self.store.rounds(info, last=1)
        if not last:
            raise NoRounds(info.name)
        return last[0]

    # -- writing ------------------------------------------------------------------

    def create(
        self,
        name: str,
        players: Sequence[str],
        rules: RuleSet,
        rate: Decimal | None,
        currency: str | None,
        dealer: str | None = None,
    ) -> SessionInfo:
        """Start a session and make it current; names as :func:`~romme_score.inputs.clean_names`
        wants them (trimmed, non-empty, without '=', unique ignoring case)."""
        name = clean_name(name, _("a session's name"))
        names = clean_names(players)
        if not 2 <= len(names) <= rules.max_players:
            raise SessionInputError(
                _("%(count)d players, but these rules seat 2 to %(max)d (max_players=%(max)d)")
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
        )
        return self.store.session(name)

    def use(self, name: str) -> None:
        self.store.set_current(_lookup_name(name))

    def check_open(self, info: SessionInfo) -> None:
        """Refuse when the session's game is over (saying whose tournament's table it is,
        if it is one: the way on is then the next series, not a new game)."""
        state = self.state(info)
        if state.finished:
            raise GameOver(info.name, state.winner, self.tournament_of(info))

    def tournament_of(self, info: SessionInfo) -> str | None:
        """The tournament whose table the session is, or None (asked for every snapshot
        and settlement: one query)."""
        return self.store.session_tournament(info)

    @staticmethod
    def check_hand(info: SessionInfo, player: str, hand: Hand, *, confirm: bool = False) -> Hand:
        """A hand as it arrives in ``info``'s session: :func:`check_hand` under its rules."""
        return check_hand(info.rules, player, hand, confirm=confirm)

    def _checked_round(self, info: SessionInfo, rnd: RoundInput, confirm: bool) -> tuple[UnlikelyPoints, ...]:
        """Every hand of a round to be saved checked as :meth:`check_hand` checks one; the
        unlikely points it holds, when ``confirm`` keeps them."""
        for player, hand in rnd.hands.items():
            self.check_hand(info, player, hand, confirm=confirm)
        found = (_unlikely(info.rules, player, hand) for player, hand in rnd.hands.items())
        return tuple(u for u in found if u is not None)

    def preview(self, info: SessionInfo, rnd: RoundInput) -> RoundScore:
        """A round's score as it would be saved now (nothing is written)."""
        self.check_open(info)
        return score_round(info.players, self.store.totals(info), rnd, info.rules)

    def record(
        self, info: SessionInfo, rnd: RoundInput, *, pending: int | None = None, confirm: bool = False
    ) -> Recorded:
        """Save a round in one transaction; the score is computed from the totals read there.
        Every hand is checked as :meth:`check_hand` checks it (``confirm``: unlikely points
        were confirmed, or are saved with a warning; :attr:`Recorded.unlikely` names them).
        ``pending``: the round was made from the round in progress at that revision
        (:meth:`pending`), which is cleared with it; :class:`PendingChanged` and nothing
        written when it changed meanwhile."""
        self.check_open(info)
        unlikely = self._checked_round(info, rnd, confirm)

        def compute(before: dict[str, int], _played: int) -> RoundScore:
            return score_round(info.players, before, rnd, info.rules)

        number, score = self.store.record_round(info, rnd, compute, lambda s: s, pending=pending)
        waiting = pending is None and not self.store.pending(info).empty
        return Recorded(number, rnd, score, self.standings(info, last=0), unlikely, waiting)

    # -- the round in progress (hands arriving from the phones) ----------------------------

    def pending(self, info: SessionInfo) -> PendingRound:
        """The round being played, as far as it has arrived (kept in the database, so a
        restart loses nothing that was sent)."""
        return self.store.pending(info)

    @staticmethod
    def missing_hands(info: SessionInfo, pending: PendingRound) -> list[str]:
        """The players whose hand the round in progress still needs, in seating order: all
        but the winner (none after a stalemate where nobody scores)."""
        if pending.stalemate and info.rules.stalemate == "nobody-scores":
            return []
        return [p for p in info.players if p != pending.winner and p not in pending.hands]

    def set_hand(self, info: SessionInfo, player: str, hand: Hand, *, confirm: bool = False) -> PendingRound:
        """``player``'s hand in the round in progress (read by :func:`~romme_score.inputs.read_hand`),
        replacing one sent before, checked as it arrives (:meth:`check_hand`; ``confirm``:
        unlikely points were confirmed); what needs the whole round is checked when it is
        saved. A hand sent by the player who was said to have gone out means they did not."""
        self.check_open(info)
        player = self._player(info, player)
        self.check_hand(info, player, hand, confirm=confirm)
        change = PendingChange(hands={player: _pending_hand(hand)})
        if self.store.pending(info).winner == player:
            change = PendingChange(winner=None, hand_romme=False, hands=change.hands)
        return self.store.change_pending(info, change)

    def declare_out(self, info: SessionInfo, player: str, hand_romme: bool = False) -> PendingRound:
        """``player`` went out in the round in progress (with a Hand-Rommé or not): no
        stalemate then, and no hand of theirs. Who went out is one fact: while another
        player's claim stands, :class:`AlreadyOut` (the scorekeeper changes it with
        :meth:`change_pending`)."""
        self.check_open(info)
        player = self._player(info, player)
        change = PendingChange(winner=player, hand_romme=hand_romme, stalemate=False, hands={player: None})
        while True:  # the claim is checked against the round it is written to
            now = self.store.pending(info)
            if now.winner is not None and now.winner != player:
                raise AlreadyOut(info.name, now.winner, player)
            try:
                return self.store.change_pending(info, change, expected=now.revision)
            except PendingChanged:
                continue  # another phone wrote meanwhile: look at the claim again

    def change_pending(
        self,
        info: SessionInfo,
        *,
        winner: str | None | Keep = KEEP,
        stalemate: bool | None = None,
        hand_romme: bool | None = None,
        hands: Mapping[str, Hand | None] | None = None,
        confirm: bool = False,
        expected: int | None = None,
    ) -> PendingRound:
        """Set parts of the round in progress at once (the scorekeeper, for a player without
        a phone): a winner means no stalemate and no hand of theirs (unless one is given), a
        stalemate no winner and no Hand-Rommé; a hand given as None is taken out. Each hand
        is checked as it arrives (:meth:`check_hand`), the winner's as ``romme round``
        checks it, and a Hand-Rommé is refused in a stalemate (:class:`NoWinner`). With
        ``expected``, only if the round in progress is still at that revision
        (:class:`PendingChanged` else: someone else changed it, nothing is written)."""
        self.check_open(info)
        given = {self._player(info, p): h for p, h in (hands or {}).items()}
        for player, hand in given.items():
            if hand is not None:
                self.check_hand(info, player, hand, confirm=confirm)
        if not isinstance(winner, Keep) and winner is not None:
            winner = self._player(info, winner)
        if stalemate and not isinstance(winner, Keep) and winner is not None:
            raise StalemateWithWinner()
        now = self.store.pending(info)
        stays_stalemate = (
            stalemate
            if stalemate is not None
            else now.stalemate and (isinstance(winner, Keep) or winner is None)
        )
        if stays_stalemate and hand_romme:  # as a round typed with both is refused (no winner)
            raise NoWinner(hand_romme=True)
        out = None if stalemate else (winner if not isinstance(winner, Keep) else now.winner)
        held = given.get(out) if out is not None else None
        if out is not None and held is not None:  # cards for the winner: only where 002 e/f allow them
            check_winner_hand(out, held, info.rules)
        changed: dict[str, PendingHand | None] = {
            p: _pending_hand(h) if h is not None else None for p, h in given.items()
        }
        if stalemate:
            winner, hand_romme = None, False
        elif isinstance(winner, str):
            stalemate = False
            if winner not in changed:
                changed[winner] = None
        change = PendingChange(winner, hand_romme, stalemate, changed)
        return self.store.change_pending(info, change, expected=expected)

    def discard_pending(self, info: SessionInfo, *, expected: int | None = None) -> None:
        """Forget the round in progress (nothing of it is saved); with ``expected``, only
        if nobody changed it since that revision (:class:`PendingChanged` else)."""
        self.store.clear_pending(info, expected=expected)

    def save_pending(self, info: SessionInfo) -> Recorded:
        """Save the round in progress as :meth:`record` saves a round (the same checks, one
        transaction) and clear it in the same transaction. :class:`RoundIncomplete` while
        nobody went out or hands are missing; :class:`PendingChanged` when a hand arrived
        between reading and saving it."""
        self.check_open(info)
        pending = self.store.pending(info)
        missing = self.missing_hands(info, pending)
        if pending.winner is None and not pending.stalemate:
            raise RoundIncomplete(info.name, missing, no_winner=True)
        if missing:
            raise RoundIncomplete(info.name, missing, no_winner=False)
        # its hands were checked, and unlikely points confirmed, as they arrived
        return self.record(info, pending.to_input(), pending=pending.revision, confirm=True)

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

    def _player(self, info: SessionInfo, name: str) -> str:
        if name not in info.players:
            raise RoundError(str(unknown_player(name, info.players)))
        return name

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

    def undo(self, info: SessionInfo) -> Undone:
        """Take back the last round (it stays in the history)."""
        record = self.store.undo_last(info)
        return Undone(record, self.store.totals(info))

    def edit(
        self,
        info: SessionInfo,
        number: int,
        hands: Mapping[str, Hand],
        winner: str | None = None,
        hand_romme: bool | None = None,
        stalemate: bool | None = None,
        *,
        confirm: bool = False,
    ) -> Edited:
        """Correct round ``number``: only what is given changes; every later round is
        scored again (bonuses depend on earlier totals), all in one transaction. The hands
        given are checked as :meth:`check_hand` checks a hand arriving."""
        for player, hand in hands.items():
            self.check_hand(info, self._player(info, player), hand, confirm=confirm)
        records = self.store.rounds(info)
        if not 1 <= number <= len(records):
            raise NoSuchRound(number, info.name, len(records))
        inputs = [_as_now_judged(r.to_input(info.players), info.rules) for r in records]
        old = inputs[number - 1]
        if winner is not None and stalemate:
            raise StalemateWithWinner()
        new_winner = winner if winner is not None else old.winner
        # A winner given for a stalemate round means nobody ran out of stock after all.
        new_stalemate = (winner is None and old.stalemate) if stalemate is None else stalemate
        if new_stalemate:
            new_winner = None
        merged = {**old.hands, **hands}
        if new_winner is not None and new_winner not in hands:
            merged.pop(new_winner, None)
        new = RoundInput(
            new_winner, merged, old.hand_romme if hand_romme is None else hand_romme, new_stalemate
        )
        inputs[number - 1] = new
        before = replay(info.players, info.rules, inputs[: number - 1])
        start = {p: sum(s.points[p] - s.bonus.get(p, 0) for s in before) for p in info.players}
        later = replay(info.players, info.rules, inputs[number - 1 :], start, number)
        self.store.replace_rounds(info, number, inputs[number - 1 :], later, {number})
        return Edited(number, new, later[0], self.store.totals(info))

    # -- export and import ----------------------------------------------------------

    def export(self, info: SessionInfo) -> SessionExport:
        """Everything the database knows of a session, as :mod:`romme_score.export` reads it;
        rounds and history stream, read when consumed (the service must stay open until then)."""
        from romme_score import export as export_format

        return export_format.from_store(self.store, info)

    def import_(
        self, export: SessionExport, name: str | None = None, replace: bool = False, use: bool = False
    ) -> tuple[str, int]:
        """Write an exported session exactly as it was. The current session stays current
        unless ``use`` (or none is current: then the imported one is). The rounds are
        scored again under its rules: points that do not match are refused, not recomputed."""
        from dataclasses import replace as export_replace  # the export's records are dataclasses

        from romme_score.export import ExportError, check_points

        rounds = list(export.rounds)
        history = list(export.history)
        scores = replay(export.players, export.rules, [r.to_input() for r in rounds])
        running = dict.fromkeys(export.players, 0)
        stored = []
        for rnd, score in zip(rounds, scores, strict=True):
            if rnd.number > 1 and game_state(export.players, running, rnd.number - 1, export.rules).finished:
                raise ExportError(
                    _(
                        "round %(number)d comes after the game had ended in round "
                        "%(previous)d (game_end=%(game_end)s)"
                    )
                    % {"number": rnd.number, "previous": rnd.number - 1, "game_end": export.rules.game_end}
                )
            check_points(rnd, score, export.players)
            for p in export.players:
                running[p] += score.points[p] - score.bonus.get(p, 0)
            stored.append(
                export_replace(
                    rnd,
                    points=dict(score.points),
                    bonus={p: b for p, b in score.bonus.items() if b},
                    leaderboard=dict(score.leaderboard),
                ).to_stored(export.players)
            )
        stored += [r.to_stored(export.players) for r in history]
        stored.sort(key=lambda r: r.row)
        sname = clean_name(name, _("the new name")) if name is not None else export.name
        self.store.write_session(
            sname,
            export.created,
            export.players,
            export.rules,
            export.rate,
            export.currency,
            export.players.index(export.first_dealer),
            stored,
            export.notes,
            export.renames,
            overwrite=replace,
            make_current=use,
        )
        return sname, len(rounds)

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

    def delete(self, name: str) -> None:
        self.store.delete_session(_lookup_name(name))

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
            info = name if isinstance(name, SessionInfo) else self.store.session(_lookup(name))
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


__all__ = [
    "DEFAULT_RATE",
    "AlreadyOut",
    "UnlikelyPoints",
    "MAX_NOTE",
    "Correction",
    "Edited",
    "ExportError",
    "GameOver",
    "TournamentMoney",
    "ExportHand",
    "ExportRound",
    "NoSuchRound",
    "NotFound",
    "PendingChanged",
    "PendingRound",
    "Recorded",
    "RoundIncomplete",
    "RoundRow",
    "SessionExport",
    "SessionInfo",
    "SessionInputError",
    "SessionRefused",
    "SessionService",
    "SessionSummary",
    "Settled",
    "SettlementInputs",
    "Snapshot",
    "Standings",
    "Undone",
    "GivenTwice",
    "HandForm",
    "ReadHands",
    "check_hand",
    "first_over_supply",
    "leaderboard_with_bonus",
    "read_hands",
    "settle_evening",
]
