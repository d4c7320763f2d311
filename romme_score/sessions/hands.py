"""Reading hands and checking them, at every door (typed, scripted, tapped): the referee
of the session service. ``NAME=CARDS`` words read once (:func:`read_hands`), each hand
checked as it arrives (:func:`check_hand`), the round's cards against the packs
(:func:`first_over_supply`); what a door shows beside a hand (:func:`count_hand`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from romme_score.cards import Card, Profile
from romme_score.inputs import choose_player, read_hand
from romme_score.rules import RuleSet
from romme_score.scoring import (
    UNLIKELY_POINTS,
    Hand,
    RoundError,
    check_counted,
    most_points_in_hand,
    unlikely_points,
)
from romme_score.sessions.errors import GivenTwice, HandForm, UnlikelyPoints
from romme_score.store.records import SessionInfo

if TYPE_CHECKING:
    from romme_score.melds import IllegalMeldError


class HandCount(NamedTuple):
    """A hand's points under a session's rules before any doubling, and what each of its
    cards counts (none for points counted by hand): what a door shows beside a hand."""

    points: int
    values: tuple[int, ...] = ()


def count_hand(hand: Hand, rules: RuleSet) -> HandCount:
    """A hand's points before any doubling (:func:`~romme_score.scoring.hand_points`) and
    each card's penalty (§3), as the doors show a hand that is in or being typed."""
    if hand.cards is None:
        return HandCount(hand.points or 0)
    from romme_score.melds import penalty_value  # the referee: loaded once a card is counted

    values = tuple(penalty_value(card, rules) for card in hand.cards)
    return HandCount(sum(values), values)


def unlikely_refusal(rules: RuleSet, player: str, hand: Hand) -> UnlikelyPoints | None:
    """The refusal of a hand's unlikely points, or None where they are likely."""
    if not unlikely_points(hand, rules):
        return None
    return UnlikelyPoints(player, hand.points or 0, min(UNLIKELY_POINTS, most_points_in_hand(rules)))


class ReadHands(NamedTuple):
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
    from romme_score.melds import IllegalMeldError, check_supply  # once cards are given

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


def typed_hand(rules: RuleSet, player: str, text: str, profile: Profile) -> tuple[Hand, HandCount]:
    """A hand as a seat types it, before it is sent (the seat's live reading): read as
    :func:`~romme_score.inputs.read_hand` reads it, checked as it will be when it arrives
    (:func:`check_hand`, unlikely points kept), and counted
    (:func:`count_hand`)."""
    hand = read_hand(player, text, profile)
    check_hand(rules, player, hand, confirm=True)
    return hand, count_hand(hand, rules)


def check_hand(rules: RuleSet, player: str, hand: Hand, *, confirm: bool = False) -> Hand:
    """A hand as it arrives, at every door (typed, scripted, tapped): cards more often than
    the packs hold are refused (:class:`~romme_score.scoring.RoundError`), points no hand
    can hold under ``rules`` too (:class:`~romme_score.inputs.HandInputError`, 'did you mean
    32?'), and points above :data:`~romme_score.scoring.UNLIKELY_POINTS` unless ``confirm``
    (:class:`UnlikelyPoints`: each door confirms in its own way)."""
    if hand.cards is not None:
        from romme_score.melds import IllegalMeldError, check_supply  # not for points alone

        try:
            check_supply(list(hand.cards), rules)
        except IllegalMeldError as exc:
            raise RoundError(f"{player}: {exc}") from None
    check_counted(player, hand, rules)
    unlikely = unlikely_refusal(rules, player, hand)
    if unlikely is not None and not confirm:
        raise unlikely
    return hand
