"""What the session service answers with: the scoresheet (:class:`Standings`), a round
saved, undone or corrected, the session list, the snapshot every door shows and the
evening settled. Records of facts, no behaviour."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, NamedTuple

from romme_score.rules import RuleSet
from romme_score.scoring import GameState, RoundInput, RoundScore
from romme_score.sessions.errors import UnlikelyPoints
from romme_score.store.records import (
    Ending,
    Note,
    PendingRound,
    Rename,
    RoundPoints,
    RoundRecord,
    SessionInfo,
)

if TYPE_CHECKING:
    from romme_score.sessions.hands import HandCount  # built where a hand is counted
    from romme_score.settlement import Settlement  # imported by settle_evening alone

RoundRow = RoundPoints  # one line of the scoresheet, as the store reads it


class Correction(NamedTuple):
    """A round changed after it was recorded: ``edited`` or ``undone``, and when."""

    round: int
    change: str
    at: str | None


class Standings(NamedTuple):
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
    places: Mapping[str, int]  # by total, fewest points first: 1, 2, 2, 4
    running: Sequence[Mapping[str, int]]  # the totals after each round of ``rounds``
    leader: str | None  # the most points (the first seated of equals); None while nobody has any
    to_go: int | None  # points to the game's end (``points``) or rounds left (``rounds``); None if open
    corrections: Sequence[Correction] = ()
    notes: Sequence[Note] = ()
    renames: Sequence[Rename] = ()
    endings: Sequence[Ending] = ()  # ended by agreement and taken back (issue 36 item 5)


class SessionSummary(NamedTuple):
    """A line of the session list."""

    info: SessionInfo
    rounds: int
    state: GameState
    current: bool


class Recorded(NamedTuple):
    """A round as saved: its number, its score and the standings after it."""

    number: int
    round: RoundInput
    score: RoundScore
    standings: Standings
    unlikely: tuple[UnlikelyPoints, ...] = ()  # the unlikely points it was saved with (confirmed)
    next_in_progress: bool = False  # a round in progress elsewhere (phones) now counts as the next


class Ended(NamedTuple):
    """A game ended by agreement, or taken back (``ending.ended`` false), and its state
    after it (issue 36 item 5)."""

    session: str
    ending: Ending
    state: GameState
    totals: Mapping[str, int]


class Undone(NamedTuple):
    """The round taken back and the totals after it."""

    record: RoundRecord
    totals: Mapping[str, int]


class Edited(NamedTuple):
    """A corrected round: its new input, its new score and the totals after it."""

    number: int
    round: RoundInput
    score: RoundScore
    totals: Mapping[str, int]


class SettlementInputs(NamedTuple):
    """What the settlement needs of the chosen sessions: one game per session."""

    games: list[dict[str, int]]
    rates: list[Decimal]
    currency: str | None
    leaderboard: dict[str, int] | None


class Snapshot(NamedTuple):
    """A session as every door shows it at one version: the standings, the round in
    progress with who is still missing and its score as it would be saved now
    (``provisional``: Hand-Rommé doubling, jokers, never-out and the winner's bonus
    applied, the missing hands counted as 0; None until a winner or a stalemate is
    known, or while the round cannot be saved as it stands), the last round, and the
    settlement so far (None before the first round); ``counts``, each hand of the round in
    progress counted (:class:`HandCount`), as the doors show it beside the hand."""

    version: int
    standings: Standings
    pending: PendingRound
    missing: tuple[str, ...]
    provisional: RoundScore | None
    last: RoundRecord | None
    settled: Settled | None
    tournament: str | None = None  # a tournament's table: no money (settled stays None)
    counts: Mapping[str, HandCount] = {}


class Settled(NamedTuple):
    """An evening settled: who pays whom, in which currency, with the 003 leaderboard
    (in tenths, None unless the rules keep one) beside it."""

    settlement: Settlement
    currency: str | None
    leaderboard: dict[str, int] | None
