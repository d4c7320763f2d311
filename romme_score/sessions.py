"""The session service: keeping score of games in the SQLite store, with no Click and
no printing, so that every command and the table mode call the same code.

A command parses its arguments, calls this service and hands the result to a
view. Errors are raised, never printed: :class:`SessionRefused` (and the
store's :class:`~romme_score.store.StoreError`) for an action that is refused,
:class:`SessionInputError`, :class:`ExportError` and
:class:`~romme_score.scoring.RoundError` for input that cannot be used.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from romme_score.cards import NotationError, parse_cards
from romme_score.errors import InputProblem
from romme_score.i18n import _
from romme_score.inputs import MAX_POINTS, InputValueError, choose_player, clean_name, clean_names, parse_rate
from romme_score.rules import RuleError, RuleSet
from romme_score.scoring import (
    GameState,
    Hand,
    RoundError,
    RoundInput,
    RoundScore,
    check_winner_hand,
    game_state,
    place_bonus,
    replay,
    score_round,
    unknown_player_message,
)
from romme_score.store import (
    HandRecord,
    Note,
    NotFound,
    Rename,
    RoundRecord,
    SessionInfo,
    Store,
    StoredRound,
    StoreError,
    canonical,
    default_path,
)

MAX_NOTE = 500  # characters in one note
DEFAULT_RATE = Decimal("0.01")  # money per point when neither the session nor --rate says


class SessionRefused(StoreError):
    """A session action that is refused as asked (the game is over, nothing to undo, ...)."""


class SessionInputError(InputProblem):
    """Input to a session action that cannot be used (a bad name, a round that is not there)."""


class ExportError(SessionInputError):
    """A session export that cannot be imported: one sentence saying what is wrong."""


def _check_points(rnd: ExportRound, score: RoundScore, players: Sequence[str]) -> None:
    """Refuse an imported round whose points are not what its cards and the rules give
    (a round written without points, by hand, is scored and taken as it is)."""
    if not rnd.points:
        return
    for p in players:
        for what, got, want in (
            (_("points"), rnd.points.get(p), score.points[p]),
            (_("bonus"), rnd.bonus.get(p, 0), score.bonus.get(p, 0)),
        ):
            if got is not None and got != want:
                raise ExportError(
                    _(
                        "round %(number)d, %(player)s: the export says %(got)d "
                        "%(what)s, but the hand and the rules give %(want)d (a "
                        "difference of %(diff)+d); nothing was imported"
                    )
                    % {
                        "number": rnd.number,
                        "player": p,
                        "got": got,
                        "what": what,
                        "want": want,
                        "diff": got - want,
                    }
                )


def find_player(name: str, players: Sequence[str]) -> str:
    """The player typed (a seat, a name, its first letters), as everywhere: inputs.choose_player."""
    return choose_player(name, players)


# --- standings ----------------------------------------------------------------------


@dataclass(frozen=True)
class RoundRow:
    """One line of the scoresheet: a round's marks and points per player."""

    number: int
    winner: str | None
    hand_romme: bool
    stalemate: bool
    points: Mapping[str, int]
    bonus: Mapping[str, int]
    leaderboard: Mapping[str, int | None]


@dataclass(frozen=True)
class Correction:
    """A round changed after it was recorded: ``edited`` or ``undone``, and when."""

    round: int
    change: str
    at: str | None


@dataclass(frozen=True)
class Standings:
    """The scoresheet of a session: recent rounds, totals, state of the game."""

    session: str
    players: tuple[str, ...]
    rules: RuleSet
    rounds: Sequence[RoundRow]
    rounds_played: int
    totals: Mapping[str, int]
    leaderboard: Mapping[str, int] | None  # 003 points, with the place bonus once finished
    state: GameState
    next_dealer: str
    corrections: Sequence[Correction] = ()
    notes: Sequence[Note] = ()
    renames: Sequence[Rename] = ()


@dataclass(frozen=True)
class SessionSummary:
    """A line of the session list."""

    info: SessionInfo
    rounds: int
    state: GameState
    current: bool


@dataclass(frozen=True)
class Recorded:
    """A round as saved: its number, its score and the standings after it."""

    number: int
    round: RoundInput
    score: RoundScore
    standings: Standings


@dataclass(frozen=True)
class Undone:
    """The round taken back and the totals after it."""

    record: RoundRecord
    totals: Mapping[str, int]


@dataclass(frozen=True)
class Edited:
    """A corrected round: its new input, its new score and the totals after it."""

    number: int
    round: RoundInput
    score: RoundScore
    totals: Mapping[str, int]


@dataclass(frozen=True)
class SettlementInputs:
    """What the settlement needs of the chosen sessions: one game per session."""

    games: list[dict[str, int]]
    rates: list[Decimal]
    currency: str | None
    leaderboard: dict[str, int] | None


def leaderboard_with_bonus(
    players: Sequence[str], board: Mapping[str, int], totals: Mapping[str, int], finished: bool
) -> dict[str, int]:
    """003 leaderboard points, plus the place bonus once the game is over."""
    result = dict(board)
    if finished:
        for name, extra in place_bonus(players, totals).items():
            result[name] += extra
    return result


# --- export -------------------------------------------------------------------------

EXPORT_FORMAT = "romme-score session"
EXPORT_VERSION = 2  # 2: the history, notes, renames and every time; version 1 is still read
STATUSES = ("active", "undone", "replaced")


@dataclass(frozen=True)
class ExportHand:
    """A hand as exported: the cards (canonical de letters) or points typed, never-out mark."""

    cards: str | None = None
    points: int | None = None
    never_out: bool = False

    def to_hand(self) -> Hand:
        cards = tuple(parse_cards(self.cards)) if self.cards is not None else None
        return Hand(cards, self.points, self.never_out)


@dataclass(frozen=True)
class ExportRound:
    """A round row as exported: what the table reported, what it scored, when, and (for
    the history) how it was taken back or replaced."""

    row: int
    number: int
    winner: str | None
    hand_romme: bool
    stalemate: bool
    hands: dict[str, ExportHand]
    points: dict[str, int] = field(default_factory=dict)
    bonus: dict[str, int] = field(default_factory=dict)
    leaderboard: dict[str, int] = field(default_factory=dict)
    recorded_at: str = ""
    status: str = "active"
    changed_at: str | None = None
    replaced_by: int | None = None

    def to_input(self) -> RoundInput:
        return RoundInput(
            self.winner, {p: h.to_hand() for p, h in self.hands.items()}, self.hand_romme, self.stalemate
        )

    def to_json(self) -> dict[str, Any]:
        hands: dict[str, Any] = {}
        for p, h in self.hands.items():
            entry: dict[str, Any] = {}
            if h.cards is not None:
                entry["cards"] = h.cards
            if h.points is not None:
                entry["points"] = h.points
            if h.never_out:
                entry["never_out"] = True
            hands[p] = entry
        data: dict[str, Any] = {"row": self.row, "number": self.number}
        if self.status != "active":
            data.update(
                {"status": self.status, "changed_at": self.changed_at, "replaced_by": self.replaced_by}
            )
        data.update(
            {
                "winner": self.winner,
                "hand_romme": self.hand_romme,
                "stalemate": self.stalemate,
                "recorded_at": self.recorded_at,
                "hands": hands,
                "points": dict(self.points),
                "bonus": dict(self.bonus),
                "leaderboard": dict(self.leaderboard),
            }
        )
        return data

    @classmethod
    def from_stored(cls, rec: StoredRound) -> ExportRound:
        hands = {
            p: ExportHand(h.cards, h.typed_points, h.never_out)
            for p, h in rec.hands.items()
            if h.cards is not None or h.typed_points is not None or h.never_out
        }
        return cls(
            rec.row,
            rec.number,
            rec.winner,
            rec.hand_romme,
            rec.stalemate,
            hands,
            {p: h.points for p, h in rec.hands.items()},
            {p: h.bonus for p, h in rec.hands.items() if h.bonus},
            {p: h.leaderboard for p, h in rec.hands.items() if h.leaderboard is not None},
            rec.recorded_at,
            rec.status,
            rec.changed_at,
            rec.replaced_by,
        )

    def to_stored(self, players: Sequence[str]) -> StoredRound:
        hands = {}
        for p in players:
            h = self.hands.get(p, ExportHand())
            hands[p] = HandRecord(
                h.cards,
                h.points,
                h.never_out,
                self.points.get(p, 0),
                self.bonus.get(p, 0),
                self.leaderboard.get(p),
            )
        return StoredRound(
            self.row,
            self.number,
            self.status,
            self.winner,
            self.hand_romme,
            self.stalemate,
            self.recorded_at,
            self.changed_at,
            self.replaced_by,
            hands,
        )


@dataclass(frozen=True)
class SessionExport:
    """A whole session, as written by ``romme export`` and read by ``romme import``:
    rules, players in seating order, the first dealer, every round with its time, the
    corrections history, notes and renames. ``rounds`` and ``history`` may be iterators
    (a long session streams out); :meth:`from_json` gives tuples."""

    name: str
    players: tuple[str, ...]
    rules: RuleSet
    rate: str | None
    currency: str | None
    first_dealer: str
    created: str
    rounds: Iterable[ExportRound]
    history: Iterable[ExportRound] = ()
    notes: tuple[Note, ...] = ()
    renames: tuple[Rename, ...] = ()
    # The same rounds as the store reads them for a fast export, in batches of rows (see
    # Store.round_table and Store.scoresheet_rows); None where only the objects above are.
    round_rows: Iterable[Sequence[tuple[Any, ...]]] | None = None
    history_rows: Iterable[Sequence[tuple[Any, ...]]] | None = None
    scoresheet_rows: Iterable[Sequence[tuple[Any, ...]]] | None = None

    def header(self) -> dict[str, Any]:
        """Everything but the rounds, history, notes and renames, in the export's key order."""
        return {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "name": self.name,
            "players": list(self.players),
            "rules": self.rules.to_dict(),
            "rate": self.rate,
            "currency": self.currency,
            "first_dealer": self.first_dealer,
            "created": self.created,
        }

    def to_json(self) -> dict[str, Any]:
        """The whole export as one dict (consumes ``rounds`` and ``history``)."""
        return {
            **self.header(),
            "rounds": [r.to_json() for r in self.rounds],
            "history": [r.to_json() for r in self.history],
            "notes": [{"round": n.round, "text": n.text, "at": n.at} for n in self.notes],
            "renames": [{"from": r.old, "to": r.new, "at": r.at} for r in self.renames],
        }

    @classmethod
    def from_json(cls, data: Any) -> SessionExport:
        """Validate an exported session completely; raise :class:`ExportError` with one sentence."""
        if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
            raise ExportError(
                _('this is not a romme-score session export (no "format": "%(format)s")')
                % {"format": EXPORT_FORMAT}
            )
        version = data.get("version")
        if version not in (1, EXPORT_VERSION) or isinstance(version, bool):
            raise ExportError(
                _(
                    "export version %(version)s is not supported "
                    "(this romme-score reads versions 1 and %(latest)d)"
                )
                % {"version": version, "latest": EXPORT_VERSION}
            )
        name = data.get("name")
        players = data.get("players")
        if not isinstance(name, str):
            raise ExportError(_("the export's session name must be text"))
        try:
            name = clean_name(name, _("the export's session name"))
            if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
                raise ExportError(_("the export's players must be a list of names"))
            players = clean_names(players, _("player name"))
        except InputValueError as exc:
            raise ExportError(str(exc)) from None
        rules_data = data.get("rules") or {}
        if not isinstance(rules_data, dict):
            raise ExportError(_("the export's rules must be an object of option names and values"))
        try:
            rules = RuleSet.from_dict(rules_data)
        except (RuleError, TypeError) as exc:
            raise ExportError(_("the export's rules: %(reason)s") % {"reason": exc}) from None
        if not 2 <= len(players) <= rules.max_players:
            raise ExportError(
                _("%(count)d players do not fit max_players=%(max)d")
                % {"count": len(players), "max": rules.max_players}
            )
        rate = data.get("rate")
        if rate is not None:
            if isinstance(rate, bool) or not isinstance(rate, (str, int, float)):
                raise ExportError(_("the export's rate %(rate)s is not a decimal") % {"rate": repr(rate)})
            try:
                rate = str(parse_rate(str(rate), _("the export's rate")))
            except InputValueError as exc:
                raise ExportError(str(exc)) from None
        dealer = data.get("first_dealer", players[0])
        if not isinstance(dealer, str) or dealer not in players:
            raise ExportError(
                _("the export's first dealer %(dealer)s is not a player") % {"dealer": repr(dealer)}
            )
        currency = data.get("currency")
        if currency is not None and not isinstance(currency, str):
            raise ExportError(
                _("the export's currency %(currency)s is not a currency code") % {"currency": repr(currency)}
            )
        created = _text(data.get("created") or "", "the export's creation time")
        rounds = tuple(
            _export_round(i, r, players, history=False) for i, r in enumerate(_list(data, "rounds"), 1)
        )
        history = tuple(
            _export_round(i, r, players, history=True) for i, r in enumerate(_list(data, "history"), 1)
        )
        if version == 1:  # rows in the order of the rounds, as version 1 had no history
            rounds = tuple(dataclasses.replace(r, row=i) for i, r in enumerate(rounds, 1))
        _check_rows(rounds, history)
        notes = tuple(_note(i, n) for i, n in enumerate(_list(data, "notes"), 1))
        renames = tuple(_rename(i, r) for i, r in enumerate(_list(data, "renames"), 1))
        return cls(
            name, tuple(players), rules, rate, currency, dealer, created, rounds, history, notes, renames
        )


def _list(data: dict[str, Any], key: str) -> list[Any]:
    value = data.get(key) or []
    if not isinstance(value, list):
        raise ExportError(_("the export's %(key)s must be a list") % {"key": key})
    return value


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise ExportError(_("%(what)s %(value)s is not text") % {"what": what, "value": repr(value)})
    return value


def _int_map(value: Any, players: Sequence[str], what: str, lo: int, hi: int) -> dict[str, int]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ExportError(_("%(what)s must be an object of player names and numbers") % {"what": what})
    for p, v in value.items():
        if p not in players:
            raise ExportError(f"{what}: {unknown_player_message(p, players)}")
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            raise ExportError(
                _("%(what)s, %(player)s: %(value)s is not a whole number from %(lo)d to %(hi)d")
                % {"what": what, "player": p, "value": repr(v), "lo": lo, "hi": hi}
            )
    return dict(value)


def _export_round(i: int, r: Any, players: Sequence[str], history: bool) -> ExportRound:
    where = (_("history entry %(number)d") if history else _("round %(number)d")) % {"number": i}
    if not isinstance(r, dict):
        raise ExportError(_("%(where)s of the export is not an object") % {"where": where})
    number = r.get("number", i)
    row = r.get("row", i)
    for key, value in (("number", number), ("row", row)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ExportError(
                _("%(where)s: %(key)s must be a whole number from 1") % {"where": where, "key": key}
            )
    if not history and number != i:
        raise ExportError(
            _("%(where)s has the number %(number)s: rounds are numbered 1, 2, 3 ...")
            % {"where": where, "number": number}
        )
    winner = r.get("winner")
    if winner is not None and (not isinstance(winner, str) or winner not in players):
        raise ExportError(
            _("%(where)s: the winner %(winner)s is not a player") % {"where": where, "winner": repr(winner)}
        )
    for key in ("hand_romme", "stalemate"):
        if not isinstance(r.get(key, False), bool):
            raise ExportError(_("%(where)s: %(key)s must be true or false") % {"where": where, "key": key})
    hands_data = r.get("hands") or {}
    if not isinstance(hands_data, dict):
        raise ExportError(_("%(where)s: hands must be an object of player names") % {"where": where})
    hands: dict[str, ExportHand] = {}
    for p, h in hands_data.items():
        if p not in players:
            raise ExportError(f"{where}: {unknown_player_message(p, players)}")
        if not isinstance(h, dict):
            raise ExportError(
                _("%(where)s: the hand of %(player)s is not an object") % {"where": where, "player": p}
            )
        cards = None
        if h.get("cards") is not None:
            if not isinstance(h["cards"], str):
                raise ExportError(
                    _("%(where)s, %(player)s: cards must be text in card notation")
                    % {"where": where, "player": p}
                )
            try:
                cards = " ".join(c.format("de", ascii=True) for c in parse_cards(h["cards"]))
            except NotationError as exc:
                raise ExportError(f"{where}, {p}: {exc}") from None
        points = h.get("points")
        if points is not None and (
            not isinstance(points, int) or isinstance(points, bool) or not 0 <= points <= MAX_POINTS
        ):
            raise ExportError(
                _("%(where)s, %(player)s: points must be a whole number from 0 to %(max)d")
                % {"where": where, "player": p, "max": MAX_POINTS}
            )
        never_out = h.get("never_out", False)
        if not isinstance(never_out, bool):
            raise ExportError(
                _("%(where)s, %(player)s: never_out must be true or false") % {"where": where, "player": p}
            )
        hands[p] = ExportHand(cards, points, never_out)
    big = 10**9
    scored = _int_map(r.get("points"), players, f"{where}: points", 0, big)
    bonus = _int_map(r.get("bonus"), players, f"{where}: bonus", 0, big)
    board = _int_map(r.get("leaderboard"), players, f"{where}: leaderboard", 0, big)
    recorded_at = _text(r.get("recorded_at") or "", f"{where}: recorded_at")
    status, changed_at, replaced_by = "active", None, None
    if history:
        given = r.get("status")
        if given not in ("undone", "replaced"):
            raise ExportError(
                _("%(where)s: status must be undone or replaced, not %(given)s")
                % {"where": where, "given": repr(given)}
            )
        status = str(given)
        changed_at = _text(r.get("changed_at") or "", f"{where}: changed_at") or None
        replaced_by = r.get("replaced_by")
        if replaced_by is not None and (not isinstance(replaced_by, int) or isinstance(replaced_by, bool)):
            raise ExportError(_("%(where)s: replaced_by must be the row of a round") % {"where": where})
    return ExportRound(
        row,
        number,
        winner,
        r.get("hand_romme", False),
        r.get("stalemate", False),
        hands,
        scored,
        bonus,
        board,
        recorded_at,
        status,
        changed_at,
        replaced_by,
    )


def _check_rows(rounds: Sequence[ExportRound], history: Sequence[ExportRound]) -> None:
    rows = [r.row for r in (*rounds, *history)]
    if len(set(rows)) != len(rows):
        raise ExportError(_("the export names a round row twice"))
    known = set(rows)
    for r in history:
        if r.replaced_by is not None and (r.replaced_by not in known or r.replaced_by <= r.row):
            raise ExportError(
                _("history row %(row)d is replaced by row %(by)d, which is not a later round of the export")
                % {"row": r.row, "by": r.replaced_by}
            )


def _note(i: int, n: Any) -> Note:
    if not isinstance(n, dict):
        raise ExportError(_("note %(number)d of the export is not an object") % {"number": i})
    round_number = n.get("round")
    if round_number is not None and (
        not isinstance(round_number, int) or isinstance(round_number, bool) or round_number < 1
    ):
        raise ExportError(_("note %(number)d: round must be a round number or null") % {"number": i})
    text = _text(n.get("text"), f"note {i}: the text")
    return Note(round_number, text, _text(n.get("at") or "", f"note {i}: at"))


def _rename(i: int, r: Any) -> Rename:
    if not isinstance(r, dict):
        raise ExportError(_("rename %(number)d of the export is not an object") % {"number": i})
    return Rename(
        _text(r.get("from"), f"rename {i}: from"),
        _text(r.get("to"), f"rename {i}: to"),
        _text(r.get("at") or "", f"rename {i}: at"),
    )


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


class SessionService:
    """Sessions and rounds of one database file. Every write is one transaction."""

    def __init__(self, db: str | Path | None = None, *, create: bool = True) -> None:
        self.store = Store(Path(db) if db else default_path(), create=create)

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> SessionService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading ------------------------------------------------------------------

    def session(self, name: str | None = None) -> SessionInfo:
        """A session by name, or the current one."""
        return self.store.session(name)

    def current_name(self) -> str | None:
        return self.store.current_name()

    def state(self, info: SessionInfo) -> GameState:
        return game_state(info.players, self.store.totals(info), self.store.round_count(info), info.rules)

    def round_rows(self, info: SessionInfo, last: int | None = None) -> Iterator[RoundRow]:
        """The scoresheet's rounds (the last ``last``, all when None), read as they are
        consumed: a long session streams, so the database must stay open until then."""
        return (RoundRow(*r) for r in self.store.round_points(info, last=last))

    def round_rows_json(self, info: SessionInfo) -> Iterator[str]:
        """All rounds of the scoresheet, each as the JSON object ``standings --json`` lists
        (made by SQLite, read as consumed: the database must stay open until then)."""
        return self.store.round_points_json(info)

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
            raise SessionInputError(
                _("there is no round %(number)d in session '%(session)s' (rounds 1-%(played)d)")
                % {"number": number, "session": info.name, "played": played}
            )
        record = self.store.rounds(info, last=played - number + 1)[0]
        return _as_now_judged(record.to_input(info.players), info.rules)

    def last_round(self, info: SessionInfo) -> RoundRecord:
        last = self.store.rounds(info, last=1)
        if not last:
            raise SessionRefused(_("session '%(session)s' has no rounds to undo") % {"session": info.name})
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
            found = find_player(dealer, names)
            if found is None:
                raise SessionInputError("--dealer: " + unknown_player_message(dealer, names))
            first = names.index(found)
        self.store.create_session(
            name,
            names,
            rules,
            str(rate) if rate is not None else None,
            currency.upper() if currency else None,
            first,
        )
        return self.store.session(name)

    def use(self, name: str) -> None:
        self.store.set_current(name)

    def check_open(self, info: SessionInfo) -> None:
        """Refuse when the session's game is over."""
        state = self.state(info)
        if state.finished:
            if state.winner:
                message = _(
                    "the game of session '%(session)s' is over (%(winner)s won): start a "
                    "new one with 'romme new'"
                )
            else:
                message = _("the game of session '%(session)s' is over: start a new one with 'romme new'")
            raise SessionRefused(message % {"session": info.name, "winner": state.winner})

    def preview(self, info: SessionInfo, rnd: RoundInput) -> RoundScore:
        """A round's score as it would be saved now (nothing is written)."""
        self.check_open(info)
        return score_round(info.players, self.store.totals(info), rnd, info.rules)

    def record(self, info: SessionInfo, rnd: RoundInput) -> Recorded:
        """Save a round in one transaction; the score is computed from the totals read there."""
        self.check_open(info)

        def compute(before: dict[str, int], _played: int) -> RoundScore:
            return score_round(info.players, before, rnd, info.rules)

        number, score = self.store.record_round(info, rnd, compute, lambda s: s)
        return Recorded(number, rnd, score, self.standings(info, last=0))

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
    ) -> Edited:
        """Correct round ``number``: only what is given changes; every later round is
        scored again (bonuses depend on earlier totals), all in one transaction."""
        records = self.store.rounds(info)
        if not 1 <= number <= len(records):
            raise SessionInputError(
                _("there is no round %(number)d in session '%(session)s' (rounds 1-%(played)d)")
                % {"number": number, "session": info.name, "played": len(records)}
            )
        inputs = [_as_now_judged(r.to_input(info.players), info.rules) for r in records]
        old = inputs[number - 1]
        if winner is not None and stalemate:
            raise SessionInputError(
                _(
                    "a stalemate round has no winner: give --winner NAME "
                    "(with --no-stalemate if it was a stalemate) or "
                    "--stalemate"
                )
            )
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
        """Everything the database knows of a session; rounds and history stream, read
        when consumed (the database must stay open until then), as objects or, for the
        export's writers, as the store's rows (the same rounds, a few times faster)."""
        rounds = (ExportRound.from_stored(r) for r in self.store.all_rounds(info, active=True))
        history = (ExportRound.from_stored(r) for r in self.store.all_rounds(info, active=False))
        round_rows = self.store.round_table(info, active=True)
        history_rows = self.store.round_table(info, active=False)
        return SessionExport(
            info.name,
            info.players,
            info.rules,
            info.rate,
            info.currency,
            info.players[info.first_dealer],
            info.created_at,
            rounds,
            history,
            tuple(self.store.notes(info)),
            tuple(self.store.renames(info)),
            round_rows,
            history_rows,
            self.store.scoresheet_rows(info),
        )

    def import_(
        self, export: SessionExport, name: str | None = None, replace: bool = False
    ) -> tuple[str, int]:
        """Write an exported session exactly as it was, and make it current. The rounds are
        scored again under its rules: points that do not match are refused, not recomputed."""
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
            _check_points(rnd, score, export.players)
            for p in export.players:
                running[p] += score.points[p] - score.bonus.get(p, 0)
            stored.append(
                dataclasses.replace(
                    rnd,
                    points=dict(score.points),
                    bonus={p: b for p, b in score.bonus.items() if b},
                    leaderboard=dict(score.leaderboard),
                ).to_stored(export.players)
            )
        stored += [r.to_stored(export.players) for r in history]
        stored.sort(key=lambda r: r.row)
        sname = clean_name(name, "--name") if name is not None else export.name
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
        )
        return sname, len(rounds)

    # -- notes, renames, deletion ----------------------------------------------------

    def add_note(self, info: SessionInfo, text: str, round_number: int | None = None) -> Note:
        """A note in the session's history, about one round or the whole game."""
        body = text.strip()
        if not body:
            raise SessionInputError(_("a note needs some text"))
        if len(body) > MAX_NOTE:
            raise SessionInputError(_("a note holds at most %(max)d characters") % {"max": MAX_NOTE})
        if round_number is not None:
            played = self.store.round_count(info)
            if not 1 <= round_number <= played:
                raise SessionInputError(
                    _("there is no round %(number)d in session '%(session)s' (rounds 1-%(played)d)")
                    % {"number": round_number, "session": info.name, "played": played}
                )
        return self.store.add_note(info, round_number, body)

    def rename(self, old: str, new: str) -> str:
        name = clean_name(new, _("the new name"))
        self.store.rename_session(old, name)
        return name

    def delete(self, name: str) -> None:
        self.store.delete_session(name)

    # -- settlement -----------------------------------------------------------------

    def settlement_inputs(self, names: Sequence[str]) -> SettlementInputs:
        """Totals, rates and leaderboard of the given sessions (or the current one)."""
        games: list[dict[str, int]] = []
        rates: list[Decimal] = []
        currency = None
        board: dict[str, int] | None = None
        chosen: list[str | None] = [*names] or [None]
        for name in chosen:
            info = self.store.session(name)
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
    "Correction",
    "Edited",
    "ExportError",
    "ExportHand",
    "ExportRound",
    "NotFound",
    "Recorded",
    "RoundRow",
    "SessionExport",
    "SessionInfo",
    "SessionInputError",
    "SessionRefused",
    "SessionService",
    "SessionSummary",
    "SettlementInputs",
    "Standings",
    "Undone",
    "find_player",
    "leaderboard_with_bonus",
]
