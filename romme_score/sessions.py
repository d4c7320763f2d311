"""The session service: keeping score of games in the SQLite store, with no Click and
no printing, so that every command and the table mode call the same code.

A command parses its arguments, calls this service and hands the result to a
view. Errors are raised, never printed: :class:`SessionRefused` (and the
store's :class:`~romme_score.store.StoreError`) for an action that is refused,
:class:`SessionInputError`, :class:`ExportError` and
:class:`~romme_score.scoring.RoundError` for input that cannot be used.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from romme_score.cards import NotationError, parse_cards
from romme_score.errors import InputProblem
from romme_score.inputs import MAX_POINTS, InputValueError, clean_name, clean_names, parse_rate
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
from romme_score.store import NotFound, RoundRecord, SessionInfo, Store, StoreError, default_path

DEFAULT_RATE = Decimal("0.01")  # money per point when neither the session nor --rate says


class SessionRefused(StoreError):
    """A session action that is refused as asked (the game is over, nothing to undo, ...)."""


class SessionInputError(InputProblem):
    """Input to a session action that cannot be used (a bad name, a round that is not there)."""


class ExportError(SessionInputError):
    """A session export that cannot be imported: one sentence saying what is wrong."""


def find_player(name: str, players: Sequence[str]) -> str | None:
    """The player a typed name means, ignoring case and surrounding spaces."""
    wanted = name.strip().lower()
    for player in players:
        if player.lower() == wanted:
            return player
    return None


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


def leaderboard_with_bonus(players: Sequence[str], board: Mapping[str, int],
                           totals: Mapping[str, int], finished: bool) -> dict[str, int]:
    """003 leaderboard points, plus the place bonus once the game is over."""
    result = dict(board)
    if finished:
        for name, extra in place_bonus(players, totals).items():
            result[name] += extra
    return result


# --- export -------------------------------------------------------------------------

EXPORT_FORMAT = "romme-score session"
EXPORT_VERSION = 1


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
    """A round as exported: what the table reported, and the points it scored."""

    number: int
    winner: str | None
    hand_romme: bool
    stalemate: bool
    hands: dict[str, ExportHand]
    points: dict[str, int] = field(default_factory=dict)
    bonus: dict[str, int] = field(default_factory=dict)

    def to_input(self) -> RoundInput:
        return RoundInput(self.winner, {p: h.to_hand() for p, h in self.hands.items()},
                          self.hand_romme, self.stalemate)


@dataclass(frozen=True)
class SessionExport:
    """A whole session, as written by ``romme export`` and read by ``romme import``."""

    name: str
    players: tuple[str, ...]
    rules: RuleSet
    rate: str | None
    currency: str | None
    first_dealer: str
    created: str
    rounds: tuple[ExportRound, ...]

    def to_json(self) -> dict[str, Any]:
        rounds = []
        for r in self.rounds:
            hands: dict[str, Any] = {}
            for p, h in r.hands.items():
                entry: dict[str, Any] = {}
                if h.cards is not None:
                    entry["cards"] = h.cards
                if h.points is not None:
                    entry["points"] = h.points
                if h.never_out:
                    entry["never_out"] = True
                hands[p] = entry
            rounds.append({"number": r.number, "winner": r.winner, "hand_romme": r.hand_romme,
                           "stalemate": r.stalemate, "hands": hands, "points": dict(r.points),
                           "bonus": dict(r.bonus)})
        return {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "name": self.name,
                "players": list(self.players), "rules": self.rules.to_dict(), "rate": self.rate,
                "currency": self.currency, "first_dealer": self.first_dealer,
                "created": self.created, "rounds": rounds}

    @classmethod
    def from_json(cls, data: Any) -> SessionExport:
        """Validate an exported session completely; raise :class:`ExportError` with one sentence."""
        if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
            raise ExportError("this is not a romme-score session export (no \"format\": "
                              f"\"{EXPORT_FORMAT}\")")
        if data.get("version") != EXPORT_VERSION:
            raise ExportError(f"export version {data.get('version')} is not supported "
                              f"(this romme-score reads version {EXPORT_VERSION})")
        name = data.get("name")
        players = data.get("players")
        if not isinstance(name, str):
            raise ExportError("the export's session name must be text")
        try:
            name = clean_name(name, "the export's session name")
            if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
                raise ExportError("the export's players must be a list of names")
            players = clean_names(players, "player name")
        except InputValueError as exc:
            raise ExportError(str(exc)) from None
        rules_data = data.get("rules") or {}
        if not isinstance(rules_data, dict):
            raise ExportError("the export's rules must be an object of option names and values")
        try:
            rules = RuleSet.from_dict(rules_data)
        except (RuleError, TypeError) as exc:
            raise ExportError(f"the export's rules: {exc}") from None
        if not 2 <= len(players) <= rules.max_players:
            raise ExportError(f"{len(players)} players do not fit max_players={rules.max_players}")
        rate = data.get("rate")
        if rate is not None:
            if isinstance(rate, bool) or not isinstance(rate, (str, int, float)):
                raise ExportError(f"the export's rate {rate!r} is not a decimal")
            try:
                rate = str(parse_rate(str(rate), "the export's rate"))
            except InputValueError as exc:
                raise ExportError(str(exc)) from None
        dealer = data.get("first_dealer", players[0])
        if not isinstance(dealer, str) or dealer not in players:
            raise ExportError(f"the export's first dealer {dealer!r} is not a player")
        currency = data.get("currency")
        if currency is not None and not isinstance(currency, str):
            raise ExportError(f"the export's currency {currency!r} is not a currency code")
        created = data.get("created") or ""
        if not isinstance(created, str):
            raise ExportError(f"the export's creation time {created!r} is not text")
        rounds_data = data.get("rounds") or []
        if not isinstance(rounds_data, list):
            raise ExportError("the export's rounds must be a list")
        rounds = tuple(_export_round(i, r, players) for i, r in enumerate(rounds_data, 1))
        return cls(name, tuple(players), rules, rate, currency, dealer, created, rounds)

    def inputs(self) -> list[RoundInput]:
        return [r.to_input() for r in self.rounds]


def _export_round(i: int, r: Any, players: Sequence[str]) -> ExportRound:
    if not isinstance(r, dict):
        raise ExportError(f"round {i} of the export is not an object")
    winner = r.get("winner")
    if winner is not None and (not isinstance(winner, str) or winner not in players):
        raise ExportError(f"round {i}: the winner {winner!r} is not a player")
    for key in ("hand_romme", "stalemate"):
        if not isinstance(r.get(key, False), bool):
            raise ExportError(f"round {i}: {key} must be true or false")
    hands_data = r.get("hands") or {}
    if not isinstance(hands_data, dict):
        raise ExportError(f"round {i}: hands must be an object of player names")
    hands: dict[str, ExportHand] = {}
    for p, h in hands_data.items():
        if p not in players:
            raise ExportError(f"round {i}: {unknown_player_message(p, players)}")
        if not isinstance(h, dict):
            raise ExportError(f"round {i}: the hand of {p} is not an object")
        cards = None
        if h.get("cards") is not None:
            if not isinstance(h["cards"], str):
                raise ExportError(f"round {i}, {p}: cards must be text in card notation")
            try:
                cards = " ".join(c.format("de", ascii=True) for c in parse_cards(h["cards"]))
            except NotationError as exc:
                raise ExportError(f"round {i}, {p}: {exc}") from None
        points = h.get("points")
        if points is not None and (not isinstance(points, int) or isinstance(points, bool)
                                   or not 0 <= points <= MAX_POINTS):
            raise ExportError(f"round {i}, {p}: points must be a whole number from 0 to "
                              f"{MAX_POINTS}")
        never_out = h.get("never_out", False)
        if not isinstance(never_out, bool):
            raise ExportError(f"round {i}, {p}: never_out must be true or false")
        hands[p] = ExportHand(cards, points, never_out)
    return ExportRound(i, winner, r.get("hand_romme", False), r.get("stalemate", False), hands)


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
        return RoundInput(rnd.winner, {p: h for p, h in rnd.hands.items() if p != rnd.winner},
                          rnd.hand_romme, rnd.stalemate)
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
        return game_state(info.players, self.store.totals(info), self.store.round_count(info),
                          info.rules)

    def standings(self, info: SessionInfo, last: int | None = None) -> Standings:
        """The scoresheet: the last ``last`` rounds (all when None), totals, the game's state."""
        rows = [RoundRow(*r) for r in self.store.round_points(info, last=last)]
        count = self.store.round_count(info)
        totals = self.store.totals(info)
        state = game_state(info.players, totals, count, info.rules)
        board = None
        if info.rules.leaderboard:
            board = leaderboard_with_bonus(info.players, self.store.leaderboard(info), totals,
                                           state.finished)
        dealer = info.players[(info.first_dealer + count) % len(info.players)]
        corrections = [Correction(number, "edited" if status == "replaced" else status, at)
                       for number, status, at in self.store.history(info)]
        return Standings(info.name, info.players, info.rules, rows, count, totals, board, state,
                         dealer, corrections)

    def overview(self) -> list[SessionSummary]:
        current = self.store.current_name()
        return [SessionSummary(info, count, game_state(info.players, totals, count, info.rules),
                               info.name == current)
                for info, count, totals in self.store.session_overview()]

    def last_round(self, info: SessionInfo) -> RoundRecord:
        last = self.store.rounds(info, last=1)
        if not last:
            raise SessionRefused(f"session '{info.name}' has no rounds to undo")
        return last[0]

    # -- writing ------------------------------------------------------------------

    def create(self, name: str, players: Sequence[str], rules: RuleSet, rate: Decimal | None,
               currency: str | None, dealer: str | None = None) -> SessionInfo:
        """Start a session and make it current; names as :func:`~romme_score.inputs.clean_names`
        wants them (trimmed, non-empty, without '=', unique ignoring case)."""
        name = clean_name(name, "a session's name")
        names = clean_names(players)
        if not 2 <= len(names) <= rules.max_players:
            raise SessionInputError(f"{len(names)} players, but these rules seat 2 to "
                                    f"{rules.max_players} (max_players={rules.max_players})")
        first = 0
        if dealer is not None:
            found = find_player(dealer, names)
            if found is None:
                raise SessionInputError("--dealer: " + unknown_player_message(dealer, names))
            first = names.index(found)
        self.store.create_session(name, names, rules, str(rate) if rate is not None else None,
                                  currency.upper() if currency else None, first)
        return self.store.session(name)

    def use(self, name: str) -> None:
        self.store.set_current(name)

    def check_open(self, info: SessionInfo) -> None:
        """Refuse when the session's game is over."""
        state = self.state(info)
        if state.finished:
            raise SessionRefused(f"the game of session '{info.name}' is over"
                                 + (f" ({state.winner} won)" if state.winner else "")
                                 + ": start a new one with 'romme new'")

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

    def edit(self, info: SessionInfo, number: int, hands: Mapping[str, Hand],
             winner: str | None = None, hand_romme: bool | None = None,
             stalemate: bool | None = None) -> Edited:
        """Correct round ``number``: only what is given changes; every later round is
        scored again (bonuses depend on earlier totals), all in one transaction."""
        records = self.store.rounds(info)
        if not 1 <= number <= len(records):
            raise SessionInputError(f"there is no round {number} in session '{info.name}' "
                                    f"(rounds 1-{len(records)})")
        inputs = [_as_now_judged(r.to_input(info.players), info.rules) for r in records]
        old = inputs[number - 1]
        if winner is not None and stalemate:
            raise SessionInputError("a stalemate round has no winner: give --winner NAME "
                                    "(with --no-stalemate if it was a stalemate) or --stalemate")
        new_winner = winner if winner is not None else old.winner
        # A winner given for a stalemate round means nobody ran out of stock after all.
        new_stalemate = (winner is None and old.stalemate) if stalemate is None else stalemate
        if new_stalemate:
            new_winner = None
        merged = {**old.hands, **hands}
        if new_winner is not None and new_winner not in hands:
            merged.pop(new_winner, None)
        new = RoundInput(new_winner, merged, old.hand_romme if hand_romme is None else hand_romme,
                         new_stalemate)
        inputs[number - 1] = new
        before = replay(info.players, info.rules, inputs[:number - 1])
        start = {p: sum(s.points[p] - s.bonus.get(p, 0) for s in before) for p in info.players}
        later = replay(info.players, info.rules, inputs[number - 1:], start, number)
        self.store.replace_rounds(info, number, inputs[number - 1:], later, {number})
        return Edited(number, new, later[0], self.store.totals(info))

    # -- export and import ----------------------------------------------------------

    def export(self, info: SessionInfo) -> SessionExport:
        rounds = []
        for rec in self.store.rounds(info):
            hands = {p: ExportHand(h.cards, h.typed_points, h.never_out)
                     for p, h in rec.hands.items()
                     if h.cards is not None or h.typed_points is not None or h.never_out}
            rounds.append(ExportRound(rec.number, rec.winner, rec.hand_romme, rec.stalemate, hands,
                                      {p: h.points for p, h in rec.hands.items()},
                                      {p: h.bonus for p, h in rec.hands.items() if h.bonus}))
        return SessionExport(info.name, info.players, info.rules, info.rate, info.currency,
                             info.players[info.first_dealer], info.created_at, tuple(rounds))

    def import_(self, export: SessionExport, name: str | None = None,
                replace: bool = False) -> tuple[str, int]:
        """Write an exported session (scored again under its rules) and make it current."""
        inputs = export.inputs()
        scores = replay(export.players, export.rules, inputs)
        running = dict.fromkeys(export.players, 0)
        for number, score in enumerate(scores, 1):
            if number > 1 and game_state(export.players, running, number - 1, export.rules).finished:
                raise ExportError(f"round {number} comes after the game had ended in round "
                                  f"{number - 1} (game_end={export.rules.game_end})")
            for p in export.players:
                running[p] += score.points[p] - score.bonus.get(p, 0)
        sname = name or export.name
        self.store.import_session(sname, export.players, export.rules, export.rate,
                                  export.currency, export.players.index(export.first_dealer),
                                  inputs, scores, overwrite=replace)
        return sname, len(inputs)

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


__all__ = ["DEFAULT_RATE", "Correction", "Edited", "ExportError", "ExportHand", "ExportRound",
           "NotFound", "Recorded", "RoundRow", "SessionExport", "SessionInfo", "SessionInputError",
           "SessionRefused", "SessionService", "SessionSummary", "SettlementInputs", "Standings",
           "Undone", "find_player", "leaderboard_with_bonus"]
