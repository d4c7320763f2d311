"""The round in progress as the doors speak of it, and its rules that need no database:
what a door sends (:class:`RoundChange`, made by :func:`hand_given`, :func:`went_out`),
what it gets back (:class:`RoundState`), the order the hands are asked in
(:func:`asking_order`), the round made of what was typed (:func:`round_of`), Hand-Rommé's
need of a winner, and :class:`RoundReferee`, the table mode's entry's referee. The
service's part is :mod:`~romme_score.sessions.progress`.

>>> from romme_score.rules import find_preset
>>> asking_order(("Anna", "Ben", "Carl", "Dora"), find_preset("standard"), "Carl", False, None)
['Dora', 'Anna', 'Ben']
>>> asking_order(("Anna", "Ben", "Carl", "Dora"), find_preset("standard"), None, True, "Ben")
['Carl', 'Dora', 'Anna', 'Ben']
>>> asking_order(("Anna", "Ben", "Carl", "Dora"), find_preset("basic"), None, True, "Ben")
[]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from romme_score.cards import Profile
from romme_score.errors import InputProblem
from romme_score.rules import RuleSet
from romme_score.scoring import Hand, NoWinner, RoundError, RoundInput, RoundScore
from romme_score.sessions.errors import RoundIncomplete
from romme_score.sessions.hands import HandCount
from romme_score.store.errors import PendingChanged
from romme_score.store.records import KEEP, Keep, PendingRound

if TYPE_CHECKING:
    from romme_score.melds import IllegalMeldError

Preview = Callable[[RoundInput], RoundScore]


# -- the rules of the round in progress, pure ------------------------------------------------


def asking_order(
    players: Sequence[str], rules: RuleSet, winner: str | None, stalemate: bool, dealer: str | None
) -> list[str]:
    """The players whose hands a round needs, in seating order from the winner's left
    (after a stalemate, or while nobody is out, from the dealer's left; from the first
    seat without a dealer); none after a stalemate where nobody scores (001)."""
    if stalemate and rules.stalemate == "nobody-scores":
        return []
    start = winner if winner is not None else dealer
    first = (players.index(start) + 1) if start in players else 0
    order = [players[(first + i) % len(players)] for i in range(len(players))]
    return [p for p in order if p != winner]


def round_of(
    winner: str | None,
    stalemate: bool,
    hand_romme: bool,
    hands: Mapping[str, Hand],
    never_out: Iterable[str] = (),
) -> RoundInput:
    """The round made of what is known: the winner's hand dropped (one left from a
    stalemate is not theirs now), each never-out mark on its player's hand, or on a hand
    of its own where none was given."""
    marked = set(never_out)
    given = {p: Hand(h.cards, h.points, p in marked) for p, h in hands.items() if p != winner}
    for p in marked - set(given):
        given[p] = Hand(points=None, never_out=True)
    return RoundInput(winner, given, hand_romme, stalemate)


def hand_romme_refusal(winner: str | None) -> NoWinner | None:
    """Why a Hand-Rommé cannot be marked (it needs who went out: none in a stalemate), or None."""
    return NoWinner(hand_romme=True) if winner is None else None


def provisional_score(
    players: Sequence[str],
    rules: RuleSet,
    totals: Mapping[str, int],
    rnd: PendingRound,
    missing: Iterable[str],
) -> tuple[RoundScore | None, RoundError | None]:
    """The round in progress scored as it would be saved, the ``missing`` hands as 0, or why
    the rules refuse it; (None, None) before anybody went out (and it is no stalemate)."""
    from romme_score.scoring import score_round

    if rnd.winner is None and not rnd.stalemate:
        return None, None
    whole = rnd.to_input()
    hands = {**whole.hands, **{p: Hand(points=0) for p in missing}}
    try:
        return score_round(
            players, totals, RoundInput(whole.winner, hands, whole.hand_romme, whole.stalemate), rules
        ), None
    except RoundError as exc:
        return None, exc


class RoundReferee:
    """The rules of one session's round as the table mode's entry asks them, without a
    database: which hands to ask and in what order, the round made of what was typed, each
    hand as it arrives, Hand-Rommé, the cards against the packs, and ``preview``, the
    round scored as the service would save it (raising :class:`RoundError`, or the
    service's refusal). :meth:`Progress.referee` gives one bound to a session; a test may
    build one with any ``preview``."""

    def __init__(
        self, players: Sequence[str], rules: RuleSet, preview: Preview, *, dealer: str | None = None
    ) -> None:
        self.players = tuple(players)
        self.rules = rules
        self.preview = preview
        self.dealer = dealer

    def order(self, winner: str | None, stalemate: bool) -> list[str]:
        """:func:`asking_order` of this session."""
        return asking_order(self.players, self.rules, winner, stalemate, self.dealer)

    def check_hand(self, player: str, hand: Hand, *, confirm: bool = False) -> Hand:
        """A hand as it arrives (:func:`~romme_score.sessions.hands.check_hand`)."""
        from romme_score.sessions.hands import check_hand

        return check_hand(self.rules, player, hand, confirm=confirm)

    @staticmethod
    def verify_hand_romme(winner: str | None) -> None:
        refusal = hand_romme_refusal(winner)
        if refusal is not None:
            raise refusal

    @staticmethod
    def can_hand_romme(winner: str | None) -> bool:
        return hand_romme_refusal(winner) is None

    def over_supply(self, hands: Sequence[tuple[str, Hand]]) -> tuple[str, IllegalMeldError] | None:
        """:func:`~romme_score.sessions.hands.first_over_supply` under this session's rules."""
        from romme_score.sessions.hands import first_over_supply

        return first_over_supply(self.rules, hands)


# -- what a door sends and what it gets back ------------------------------------------------


@dataclass(frozen=True)
class TypedHand:
    """A hand as typed or tapped (cards or points, in ``notation``), read by the service
    (:func:`~romme_score.inputs.read_hand`) once it knows the game is open: a finished game
    takes no hand, readable or not."""

    text: str
    notation: Profile = "de"


@dataclass(frozen=True)
class RoundChange:
    """One change of the round in progress; what is not given stays. ``hands`` in the order
    given, by player (a player given twice is refused: :class:`GivenTwice`), None taking a
    hand out, a :class:`TypedHand` read by the service; ``never_out`` marks players never
    out: their hand given here, or the one already in (a player without a hand is not
    marked). ``seat``: the change comes from
    that player's own phone: their hand is refused while their claim to have gone out
    stands (:class:`OutNoHand`), and their claim to have gone out is refused while another
    player's stands (:class:`AlreadyOut`).
    ``confirm``: unlikely points were confirmed."""

    winner: str | None | Keep = KEEP
    stalemate: bool | None = None
    hand_romme: bool | None = None
    hands: tuple[tuple[str, Hand | TypedHand | None], ...] = ()
    never_out: frozenset[str] = frozenset()
    confirm: bool = False
    seat: str | None = None


def hand_given(
    player: str, hand: Hand | TypedHand, *, never_out: bool = False, confirm: bool = False
) -> RoundChange:
    """A seat's own hand (``POST seat/hand``), never out or not."""
    marked = frozenset({player}) if never_out else frozenset()
    return RoundChange(hands=((player, hand),), never_out=marked, confirm=confirm, seat=player)


def went_out(player: str, hand_romme: bool = False) -> RoundChange:
    """A seat's claim to have gone out (``POST seat/out``), with a Hand-Rommé or not."""
    return RoundChange(winner=player, hand_romme=hand_romme, stalemate=False, seat=player)


def hands_given(
    hands: Mapping[str, Hand | None] | Iterable[tuple[str, Hand | None]],
) -> tuple[tuple[str, Hand | None], ...]:
    """Hands by player as :attr:`RoundChange.hands` takes them."""
    return tuple(hands.items() if isinstance(hands, Mapping) else hands)


@dataclass(frozen=True)
class RoundState:
    """The round in progress after a change (or as read): ``missing``, the hands still
    needed in seating order from the winner's left (:func:`asking_order`); ``unsaved``, why
    it cannot be saved yet (None: it can); ``score``, the round as it would be saved now,
    the missing hands as 0 (None before anybody went out, or with ``refusal``, why the
    rules refuse it); ``merged``: another door wrote since the revision this door showed,
    and the change went on top of theirs, or, where theirs rules it out (``overruled``),
    theirs stayed and nothing was written; ``given``, the hands of the change as read;
    ``counts``, each hand of the round and of the change counted, as the doors show it."""

    round: PendingRound
    missing: tuple[str, ...]
    unsaved: RoundIncomplete | RoundError | None
    score: RoundScore | None
    refusal: RoundError | None = None
    merged: bool = False
    overruled: InputProblem | None = None
    given: Mapping[str, Hand] = field(default_factory=dict)
    counts: Mapping[str, HandCount] = field(default_factory=dict)

    @property
    def can_save(self) -> bool:
        return self.unsaved is None


class RoundTaken(PendingChanged):
    """The round a door was changing was saved or discarded elsewhere meanwhile: nothing of
    the change was written (the door's entry ends)."""

    code = "changed"
