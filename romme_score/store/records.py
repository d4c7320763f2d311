"""What the store keeps and hands out: plain frozen records, the same for every backend.

The session service, the history and the export read these and nothing else of the
store (no rows of a database driver, no column offsets): a second backend returns the
same records.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from enum import Enum
from typing import Any, NamedTuple

from romme_score.cards import Card, parse_cards
from romme_score.rules import RuleSet
from romme_score.scoring import Hand, RoundInput

# The options of a tournament or a league as the store keeps them: plain data (names and
# values as typed, JSON-friendly), built into their option objects by their services; the
# store imports nothing of theirs (issue 35 item 3).
StoredOptions = Mapping[str, Any]


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def change_time() -> str:
    """When a round was undone or replaced, to the microsecond: the history lists changes
    in the order they were made, even two in the same second."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def to_seconds(stamp: str | None) -> str | None:
    """A stored time as shown: to the second."""
    if not stamp:
        return stamp
    try:
        return datetime.fromisoformat(stamp).isoformat(timespec="seconds")
    except ValueError:
        return stamp


class SessionInfo(NamedTuple):
    id: int
    name: str
    players: tuple[str, ...]
    rules: RuleSet
    rate: str | None
    currency: str | None
    first_dealer: int
    created_at: str
    ended: bool = False  # ended by agreement before its rules end it (issue 36 item 5)


class TournamentPlayer(NamedTuple):
    """A player of a tournament: the start number kept all tournament, the name, the team
    (None: none), and ``withdrawn_after``, the series drawn when the player withdrew (None:
    still playing; seated again in no later series)."""

    start: int
    name: str
    team: str | None = None
    withdrawn_after: int | None = None


class TournamentInfo(NamedTuple):
    """A tournament: its tables' house rules, its options, the seed of its draws, its
    players by start number, and how many series are drawn."""

    id: int
    name: str
    created_at: str
    rules: RuleSet
    options: StoredOptions  # TournamentService builds them (TournamentOptions.from_dict)
    seed: int
    players: tuple[TournamentPlayer, ...]
    series_drawn: int


class TournamentTable(NamedTuple):
    """A table of a series: its session (by id, and as it is called now), the players in
    seat order, and the rounds (games) recorded there."""

    series: int
    table: int
    session_id: int
    session: str
    players: tuple[str, ...]
    games: int


class DrawnTable(NamedTuple):
    """A session that is a tournament's table, as every one is read at once (``romme serve
    --all``): the tournament, its series drawn, and the table's series and number."""

    tournament: str
    series_drawn: int
    series: int
    table: int
    session_id: int


class TableOf(NamedTuple):
    """Whose table a session is: its tournament, the series it was drawn in, and how many
    series of the tournament are drawn now."""

    tournament: str
    series: int
    series_drawn: int

    @property
    def later_drawn(self) -> bool:
        """A later series is drawn: the table's series is over, whatever it played (issue 36
        item 2)."""
        return self.series < self.series_drawn


class HandRecord(NamedTuple):
    cards: str | None  # canonical notation (de, ASCII)
    typed_points: int | None
    never_out: bool
    points: int
    bonus: int
    leaderboard: int | None

    def to_hand(self) -> Hand:
        cards = tuple(parse_cards(self.cards)) if self.cards is not None else None
        return Hand(cards, self.typed_points, self.never_out)


class RoundRecord(NamedTuple):
    number: int
    winner: str | None
    hand_romme: bool
    stalemate: bool
    hands: dict[str, HandRecord]
    recorded_at: str = ""

    def to_input(self, players: Sequence[str]) -> RoundInput:
        hands = {
            name: rec.to_hand()
            for name, rec in self.hands.items()
            if rec.cards is not None or rec.typed_points is not None
        }
        return RoundInput(self.winner, hands, self.hand_romme, self.stalemate)


class StoredRound(NamedTuple):
    """A round row as the database keeps it, active or in the history."""

    row: int  # its place among the session's round rows, first written first
    number: int
    status: str  # active, undone, replaced
    winner: str | None
    hand_romme: bool
    stalemate: bool
    recorded_at: str
    changed_at: str | None
    replaced_by: int | None  # the row that replaced this one
    hands: dict[str, HandRecord]

    def to_input(self) -> RoundInput:
        return RoundRecord(
            self.number, self.winner, self.hand_romme, self.stalemate, self.hands, self.recorded_at
        ).to_input(list(self.hands))


# --- the round in progress (phones at the table) ---------------------------------------


class PendingHand(NamedTuple):
    """One hand of the round in progress, as it arrived: cards (canonical notation) or
    points counted by hand."""

    cards: str | None
    typed_points: int | None
    never_out: bool = False

    def to_hand(self) -> Hand:
        return HandRecord(self.cards, self.typed_points, self.never_out, 0, 0, None).to_hand()


class PendingRound(NamedTuple):
    """The round being played, as far as it is known: who went out (or the stalemate),
    the Hand-Rommé mark and the hands that are in. ``revision`` counts every change of it,
    so that a save can tell that it saves what it read."""

    revision: int = 0
    winner: str | None = None
    hand_romme: bool = False
    stalemate: bool = False
    hands: Mapping[str, PendingHand] = {}

    @property
    def empty(self) -> bool:
        return self.winner is None and not self.stalemate and not self.hand_romme and not self.hands

    def to_input(self) -> RoundInput:
        """The round as the table reports it so far (it may lack hands or the winner)."""
        return RoundInput(
            self.winner,
            {p: h.to_hand() for p, h in self.hands.items()},
            self.hand_romme,
            self.stalemate,
        )


class Keep(Enum):
    """A part of the round in progress that a change leaves as it is."""

    KEEP = "keep"


KEEP = Keep.KEEP


class PendingChange(NamedTuple):
    """What one write changes of the round in progress; what is not given stays. A hand
    given as None is taken out."""

    winner: str | None | Keep = KEEP
    hand_romme: bool | None = None
    stalemate: bool | None = None
    hands: Mapping[str, PendingHand | None] = {}


LINK_KINDS = ("board", "scorekeeper", "seat")


class Link(NamedTuple):
    """A link to a session for the phones: ``board`` (read only), ``scorekeeper``, or
    ``seat`` (one per ``player``); ``token`` is its secret."""

    kind: str
    player: str | None
    token: str


class KeyedWrite(NamedTuple):
    """A write applied under an idempotency key: what it was (``what``, a digest of its
    path and body) and its first answer (``status`` and ``answer``, None while the write
    is being answered, or when the server stopped between applying and answering it)."""

    what: str
    status: int | None
    answer: str | None


class Key(NamedTuple):
    """A write's idempotency key as a phone sent it (``key``) and what the write was
    (``what``, a digest of its path and body): kept with the write, in its transaction."""

    key: str
    what: str


class Note(NamedTuple):
    """A note written to a session's history, about one round or the whole game."""

    round: int | None
    text: str
    at: str


class Rename(NamedTuple):
    old: str
    new: str
    at: str


class Ending(NamedTuple):
    """A game ended by agreement (``ended``), or taken back (not ``ended``), when
    ``round`` rounds were played (issue 36 item 5)."""

    ended: bool
    round: int
    at: str


def round_records(rows: Iterable[Sequence[Any]]) -> list[RoundRecord]:
    """Rounds from rows of one hand each, in order: number, winner, Hand-Rommé, stalemate,
    recorded_at, then the hand's player, cards, typed points, never out, points, bonus,
    leaderboard points (what every backend's ``rounds`` reads)."""
    records: dict[int, RoundRecord] = {}
    for number, winner, hr, sm, at, player, cards, typed, never_out, points, bonus, board in rows:
        rec = records.get(number)
        if rec is None:
            rec = records[number] = RoundRecord(number, winner, bool(hr), bool(sm), {}, at)
        rec.hands[player] = HandRecord(cards, typed, bool(never_out), points, bonus, board)
    return list(records.values())


def stored_rounds(rows: Iterable[Sequence[Any]]) -> Iterator[StoredRound]:
    """Round rows from rows of one hand each, in order: the round's row among the
    session's, number, status, winner, Hand-Rommé, stalemate, recorded_at, changed_at,
    the row that replaced it, then the hand as in :func:`round_records` (what every
    backend's ``all_rounds`` reads, streamed)."""
    current: StoredRound | None = None
    for (
        row,
        number,
        status,
        winner,
        hr,
        sm,
        at,
        changed,
        by,
        player,
        cards,
        typed,
        never,
        pts,
        bonus,
        lb,
    ) in rows:
        if current is None or current.row != row:
            if current is not None:
                yield current
            current = StoredRound(row, number, status, winner, bool(hr), bool(sm), at, changed, by, {})
        current.hands[player] = HandRecord(cards, typed, bool(never), pts, bonus, lb)
    if current is not None:
        yield current


def canonical(cards: Sequence[Card] | None) -> str | None:
    """Cards as stored: de letters, ASCII, so any profile reads them back."""
    if cards is None:
        return None
    return " ".join(c.format("de", ascii=True) for c in cards)


class RoundPoints(NamedTuple):
    """One line of the scoresheet: a round's marks and points per player (no cards)."""

    number: int
    winner: str | None
    hand_romme: bool
    stalemate: bool
    points: Mapping[str, int]
    bonus: Mapping[str, int]
    leaderboard: Mapping[str, int | None]


class Change(NamedTuple):
    """A round taken back (``undone``) or corrected (``replaced``), and when."""

    number: int
    status: str
    at: str | None


class SessionCount(NamedTuple):
    """A session with its rounds played and its players' totals (the session list)."""

    info: SessionInfo
    rounds: int
    totals: dict[str, int]


class PlayerSessionStats(NamedTuple):
    """One player seated in one session, over the session's active rounds (``romme stats``)."""

    session_id: int
    session: str
    rules: str  # the session's rule set as JSON
    rate: str | None
    currency: str | None
    created_at: str
    seat: int
    player: str
    total: int
    rounds: int
    rounds_won: int
    hand_rommes: int
    points: int
    worst_round: int
    ended: bool = False  # the game ended by agreement (issue 36 item 5)


class HeadToHead(NamedTuple):
    """A player (one spelling of the name) against an opponent: rounds both played, rounds
    the player scored fewer penalty points, rounds the opponent did."""

    player: str
    rounds: int
    fewer: int
    more: int


HAND_FIELDS = ("cards", "typed_points", "never_out", "points", "bonus", "leaderboard")


class Lines(NamedTuple):
    """A batch of a long read (the export's lines, the scoresheet's): the rows, and the
    name of each of their fields, so that a reader finds a value by its name, never by a
    position agreed elsewhere; a row is a plain tuple, so that 100,000 of them cost no
    more than the database's own reading."""

    fields: tuple[str, ...]
    rows: Sequence[tuple[Any, ...]]

    def places(self) -> dict[str, int]:
        """Each field's place in the rows, by its name."""
        return {name: i for i, name in enumerate(self.fields)}


@functools.cache
def round_line_fields(seats: int, history: bool) -> tuple[str, ...]:
    """The fields of :meth:`Store.round_lines`: one round row with every seat's hand side
    by side: ``kind``, ``row``, ``number``, ``winner``, ``hand_romme``, ``stalemate``,
    ``recorded_at``, for the history ``status``, ``changed_at`` and ``replaced_by`` (the
    row that replaced it), then per seat N ``cards_N``, ``typed_points_N``,
    ``never_out_N``, ``points_N`` (None: no hand of that player), ``bonus_N``,
    ``leaderboard_N``.

    ``kind`` is a key and nothing more: two lines of one session with the same ``kind``
    have the same winner-or-none, marks, and the same values present (or absent, false,
    zero) in the same fields, so that one template serves both.

    >>> round_line_fields(2, False)[:8]
    ('kind', 'row', 'number', 'winner', 'hand_romme', 'stalemate', 'recorded_at', 'cards_0')
    """
    fields = ["kind", "row", "number", "winner", "hand_romme", "stalemate", "recorded_at"]
    if history:
        fields += ["status", "changed_at", "replaced_by"]
    fields += [f"{name}_{seat}" for seat in range(seats) for name in HAND_FIELDS]
    return tuple(fields)


@functools.cache
def scoresheet_line_fields(seats: int) -> tuple[str, ...]:
    """The fields of :meth:`Store.scoresheet_lines`: an active round as the CSV scoresheet
    lists it: ``number``, ``winner`` ('' for none), ``hand_romme`` and ``stalemate`` (0 or 1),
    per seat N ``net_N`` (the points less the bonus), per seat ``cards_N`` ('' for none),
    and ``recorded_at``.

    >>> scoresheet_line_fields(2)
    ('number', 'winner', 'hand_romme', 'stalemate', 'net_0', 'net_1', 'cards_0', 'cards_1', 'recorded_at')
    """
    fields = ["number", "winner", "hand_romme", "stalemate"]
    fields += [f"net_{seat}" for seat in range(seats)]
    fields += [f"cards_{seat}" for seat in range(seats)]
    fields.append("recorded_at")
    return tuple(fields)


@functools.cache
def points_line_fields(seats: int) -> tuple[str, ...]:
    """The fields of :meth:`Store.points_lines`: an active round's scoresheet line with the
    seats side by side: ``kind``, ``number``, ``winner``, ``hand_romme``, ``stalemate``, per
    seat N ``points_N`` (None: no hand of that player) and ``bonus_N``. ``kind`` is a key
    as in :func:`round_line_fields`: lines of one kind have the same winner-or-none, marks,
    hands present and bonuses struck (not 0).

    >>> points_line_fields(2)
    ('kind', 'number', 'winner', 'hand_romme', 'stalemate', 'points_0', 'bonus_0', 'points_1', 'bonus_1')
    """
    fields = ["kind", "number", "winner", "hand_romme", "stalemate"]
    fields += [f"{name}_{seat}" for seat in range(seats) for name in ("points", "bonus")]
    return tuple(fields)
