"""The referee's verdict for ``best``, at every door (:func:`judge_best`): the best
arrangement of a hand with the melds on the table, or an error with its code and facts
(an illegal table meld, the supply, a hand too large). Beside :mod:`romme_score.referee`
(``check`` and ``value``), loaded by ``best`` alone: not at ``romme check``'s start-up.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from romme_score.cards import Card
from romme_score.errors import InputProblem
from romme_score.melds import IllegalMeldError, Meld, check_supply, interpret
from romme_score.rules import RuleSet

if TYPE_CHECKING:  # the solver is loaded when a hand is solved
    from romme_score.solver import Best


class IllegalTableMeld(InputProblem):
    """``best``: the ``number``-th meld given as lying on the table (from 1), ``text`` as
    given, is no legal meld; ``reason`` says why, the message as the meld's verdict."""

    def __init__(self, number: int, text: str, error: IllegalMeldError) -> None:
        super().__init__(str(error))
        self.number = number
        self.text = text
        self.reason = error.reason


class SupplyExceeded(InputProblem):
    """``best``: the hand and the table together hold a card more often than the packs
    (or more jokers than are in play); ``reason`` says which, the message as ``check``'s."""

    code = "supply"

    def __init__(self, error: IllegalMeldError) -> None:
        super().__init__(str(error))
        self.reason = error.reason


@dataclass(frozen=True)
class BestVerdict:
    """The best arrangement of ``hand`` (:class:`~romme_score.solver.Best`, lone jokers'
    melds included), with the table melds it may lay off onto, read as melds."""

    best: Best
    hand: Sequence[Card]
    table: Sequence[Meld]
    came_out: bool


def judge_best(
    hand: Sequence[Card],
    table: Iterable[tuple[str, Sequence[Card]]],
    rules: RuleSet,
    came_out: bool = False,
) -> BestVerdict:
    """What ``best`` asks, at every door: the best arrangement of ``hand`` with the melds
    on the table (each as ``(text, cards)``, read in turn: a door may read them lazily,
    so that an unreadable one is said after an illegal one before it). Raises
    :class:`IllegalTableMeld`, :class:`SupplyExceeded` or the solver's
    :class:`~romme_score.solver.HandTooLarge`."""
    from romme_score.solver import solve  # best only: not at romme check's start-up

    melds: list[Meld] = []
    for number, (text, cards) in enumerate(table, 1):
        try:
            melds.append(interpret(list(cards), rules))
        except IllegalMeldError as exc:
            raise IllegalTableMeld(number, text, exc) from None
    try:
        check_supply(list(hand) + [c for m in melds for c in m.cards], rules)
    except IllegalMeldError as exc:
        raise SupplyExceeded(exc) from None
    best = solve(hand, rules, melds, came_out)
    if best.can_go_out and not came_out and not best.out_melds and not best.out_layoffs:
        # RULES.md §6: a Hand-Rommé lays out the whole hand; a player who has not come out
        # and lays nothing (one card, discarded) has not gone out at all
        best = best._replace(can_go_out=False, hand_romme=False, discard=None)
    return BestVerdict(best, hand, melds, came_out)
