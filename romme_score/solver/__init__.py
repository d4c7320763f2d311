"""The exact best arrangement of a hand (``romme best``), under any rule set.

Three questions, answered exactly by a memoised search over the multiset of
cards still to place, always branching on the lowest remaining natural card
(Skat order, then rank): it is either left in hand, or it goes into one of the
melds that contain it, or (after coming out) it is laid off onto a table meld.

- (a) the highest meld value the hand can lay down, and whether that reaches
  ``first_meld_min`` (with ``first_meld_pure_run`` where set);
- (b) the arrangement that leaves the lowest penalty in hand, lay-offs onto the
  table included when the player has come out (before that, melds only and
  only if they make a legal first meld, unless the hand goes out at once);
- (c) whether the hand can go out now (everything laid, one card kept to
  discard unless ``out_without_discard``), and whether that is a Hand-Rommé.

The parts: ``candidates`` (the melds of a hand as bitmask templates),
``table`` (lay-offs and lone jokers onto the table melds), ``search`` (the
three searches and :class:`Best`). A hand of more than ``MAX_HAND_CARDS``
cards is refused with :class:`HandTooLarge`.

>>> from romme_score.cards import parse_cards
>>> from romme_score.rules import find_preset
>>> best = solve(parse_cards("P3 P4 P5 TB PB HB H9 K2"), find_preset("standard"))
>>> best.max_meld_value, best.first_meld_ok, best.leftover_penalty
(42, True, 11)
"""

from romme_score.solver.candidates import MAX_HAND_CARDS, HandTooLarge
from romme_score.solver.search import Best, Solver, solve
from romme_score.solver.table import LayOffMove

__all__ = ["MAX_HAND_CARDS", "Best", "HandTooLarge", "LayOffMove", "Solver", "solve"]
