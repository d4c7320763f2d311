"""Laying off onto a meld on the table and swapping jokers (RULES.md §5).

>>> from romme_score.cards import parse_cards
>>> from romme_score.rules import find_preset
>>> move = lay_off(parse_cards("♥2 ♥3 ♥4"), parse_cards("♥A ♥5"), find_preset("wiki-51"))
>>> move.meld.format()
'♥A ♥2 ♥3 ♥4 ♥5'
>>> swap = lay_off(parse_cards("TB J TK TA"), parse_cards("TD"), find_preset("standard"))
>>> swap.freed_jokers, swap.meld.format()
(1, '♣B ♣D ♣K ♣A')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from romme_score.cards import SUITS, Card, Suit
from romme_score.melds import (
    IllegalMeldError,
    Meld,
    MeldKind,
    Reason,
    Slot,
    _run_slot,
    _run_windows,
    card_value,
    interpret,
    limit_violation,
    rank_at,
)
from romme_score.rules import RuleSet


class LayOff(NamedTuple):
    """The result of laying cards onto a table meld."""

    table: Meld
    meld: Meld
    freed_jokers: int
    note: str
    alternative: str | None = None


def lay_off(table_cards: Sequence[Card], added: Sequence[Card], rules: RuleSet) -> LayOff:
    """Lay ``added`` onto the table meld, swapping jokers where a card takes their place.

    Raises :class:`IllegalMeldError` with the reason the move is not allowed.
    """
    try:
        table = interpret(table_cards, rules)
    except IllegalMeldError as exc:
        raise IllegalMeldError(Reason.TABLE_MELD_ILLEGAL,
                               f"the meld on the table is not legal: {exc}") from None
    if not added:
        raise IllegalMeldError(Reason.NOTHING_TO_ADD, "no cards to lay off")
    if table.kind == MeldKind.RUN:
        return _onto_run(table, list(added), rules)
    return _onto_set(table, list(added), rules)


def _joker_note(freed: int, rules: RuleSet) -> str:
    if not freed:
        return "laid off"
    what = "the joker" if freed == 1 else f"{freed} jokers"
    if rules.swapped_joker == "meld-now":
        return f"swap: take {what}, which must be laid out again this turn (swapped_joker=meld-now)"
    return f"swap: {what} goes to your hand (swapped_joker=to-hand)"


def _check_limits(meld: Meld, rules: RuleSet) -> None:
    violation = limit_violation(meld, rules)
    if violation:
        raise IllegalMeldError(*violation)


def _onto_run(table: Meld, added: list[Card], rules: RuleSet) -> LayOff:
    suit = table.slots[0].stands_for.suit
    assert suit is not None
    by_rank = {slot.stands_for.rank: i for i, slot in enumerate(table.slots)}
    slots = list(table.slots)
    freed = 0
    extra_naturals: list[Card] = []
    jokers = [c for c in added if c.is_joker]
    for card in (c for c in added if not c.is_joker):
        if card.suit != suit:
            raise IllegalMeldError(Reason.WRONG_SUIT,
                                   f"{card} does not fit a {suit.symbol} run")
        index = by_rank.get(card.rank)
        if index is None:
            extra_naturals.append(card)
            continue
        if not slots[index].is_joker:
            raise IllegalMeldError(Reason.DUPLICATE_RANK,
                                   f"{card} is already in the run: a run holds each rank once")
        # The card the joker stands for takes its fixed place (002 c, 003, 004).
        slots[index] = Slot(card, card, slots[index].value)
        freed += 1
    base = Meld(MeldKind.RUN, tuple(slots), start=table.start)
    if not extra_naturals and not jokers:
        _check_limits(base, rules)
        return LayOff(table, base, freed, _joker_note(freed, rules))
    solutions = _extend_run(base, suit, extra_naturals, jokers, rules)
    if not solutions:
        raise IllegalMeldError(*_why_not_extend(base, suit, extra_naturals, jokers, rules))
    legal = [m for m in solutions if limit_violation(m, rules) is None]
    if not legal:
        _check_limits(solutions[0], rules)
    if jokers:
        legal = _joker_places_allowed(base, legal, extra_naturals, rules)
    return LayOff(table, legal[0], freed, _joker_note(freed, rules))


def _extend_run(base: Meld, suit: Suit, naturals: list[Card], jokers: list[Card],
                rules: RuleSet) -> list[Meld]:
    """Every way to extend the run at its ends with ``naturals`` and ``jokers``."""
    k = len(naturals) + len(jokers)
    n = len(base.slots) + k
    starts = set(_run_windows(n, rules))
    found = []
    for left in range(k + 1):
        start = base.start - left
        if start < 1 and rules.wraparound:
            start += 13
        if start not in starts:
            continue
        new_positions = [start + i for i in range(left)] + \
                        [base.end + 1 + i for i in range(k - left)]
        if start != base.start - left:  # wrapped below the ace: shift the old run up by 13
            old_start = base.start + 13
            new_positions = [start + i for i in range(left)] + \
                            [old_start + len(base.slots) + i for i in range(k - left)]
        else:
            old_start = base.start
        rank_pos = {int(rank_at(p)): p for p in new_positions}
        placed: dict[int, Card] = {}
        ok = True
        for card in naturals:
            p = rank_pos.get(int(card.rank or 0))
            if p is None or p in placed:
                ok = False
                break
            placed[p] = card
        free_jokers = []
        for joker in jokers:
            if joker.declared is not None:
                d = joker.declared
                p = rank_pos.get(int(d.rank or 0))
                if d.suit != suit or p is None or p in placed:
                    ok = False
                    break
                placed[p] = joker
            else:
                free_jokers.append(joker)
        if not ok:
            continue
        for p in new_positions:
            if p not in placed:
                placed[p] = free_jokers.pop()
        old = {old_start + i: slot for i, slot in enumerate(base.slots)}
        slots = []
        for p in range(start, start + n):
            if p in old:
                slot = old[p]
                slots.append(_run_slot(slot.card, p, suit, rules) if not slot.is_joker
                             else Slot(slot.card, slot.stands_for,
                                       card_value(rank_at(p), rules, low_ace=p == 1)))
            else:
                slots.append(_run_slot(placed[p], p, suit, rules))
        found.append(Meld(MeldKind.RUN, tuple(slots), start=start))
    return found


def _why_not_extend(base: Meld, suit: Suit, naturals: list[Card], jokers: list[Card],
                    rules: RuleSet) -> tuple[Reason, str]:
    if len(base.slots) + len(naturals) + len(jokers) > 13:
        return Reason.RUN_TOO_LONG, "a run has at most 13 cards"
    for relaxed, reason, text in (
            (rules.replace(ace_high_runs=True), Reason.ACE_HIGH,
             "the ace would have to follow the king (ace_high_runs=false)"),
            (rules.replace(wraparound=True), Reason.WRAPAROUND,
             "the run would go around the corner (K-A-2), which needs wraparound=true")):
        if relaxed != rules and _extend_run(base, suit, naturals, jokers, relaxed):
            return reason, text
    cards = " ".join(str(c) for c in naturals + jokers)
    return (Reason.GAP, f"{cards} cannot extend {base.format()} at either end without a gap")


def _joker_places_allowed(base: Meld, legal: list[Meld], naturals: list[Card],
                          rules: RuleSet) -> list[Meld]:
    """004: a joker only with a natural card that fixes its place; 003: where its place is clear."""
    def joker_places(meld: Meld) -> tuple[int, ...]:
        old = set(range(base.start, base.end + 1))
        return tuple(meld.start + i for i, s in enumerate(meld.slots)
                     if s.is_joker and meld.start + i not in old)

    if rules.joker_layoff == "with-natural":
        fixed = []
        for meld in legal:
            spots = joker_places(meld)
            outer = [meld.start + i for i, s in enumerate(meld.slots) if not s.is_joker
                     and (meld.start + i < base.start or meld.start + i > base.end)]
            if all(any((o < p < base.start) or (base.end < p < o) for o in outer) for p in spots):
                fixed.append(meld)
        if not fixed:
            raise IllegalMeldError(
                Reason.JOKER_NEEDS_NATURAL,
                "a joker may be laid onto a run only together with a natural card beyond it "
                "that fixes its place (joker_layoff=with-natural, 004)")
        legal = fixed
    def new_joker_cards(meld: Meld) -> tuple[str, ...]:
        return tuple(str(meld.slots[p - meld.start].stands_for) for p in joker_places(meld)
                     if meld.slots[p - meld.start].card.declared is None)

    places = sorted({new_joker_cards(m) for m in legal})
    if len(places) > 1:
        where = " or ".join(", ".join(p) for p in places)
        raise IllegalMeldError(
            Reason.JOKER_PLACE_UNCLEAR,
            f"the joker's place is not clear ({where}): lay it with the card beside it, "
            f"or declare it, e.g. J={places[0][0] if places[0] else '?'}")
    return legal


def _onto_set(table: Meld, added: list[Card], rules: RuleSet) -> LayOff:
    rank = table.slots[0].stands_for.rank
    assert rank is not None
    natural_suits = {s.card.suit for s in table.slots if not s.is_joker}
    table_jokers = [s for s in table.slots if s.is_joker]
    new_naturals: list[Card] = []
    for card in added:
        if card.is_joker:
            continue
        if card.rank != rank:
            raise IllegalMeldError(Reason.WRONG_RANK,
                                   f"{card} does not fit a set of {rank.letter()}s")
        if card.suit in natural_suits or card.suit in {c.suit for c in new_naturals}:
            raise IllegalMeldError(Reason.DUPLICATE_SUIT,
                                   f"{card} is already in the set: a set holds each suit once")
        new_naturals.append(card)
    new_jokers = [c for c in added if c.is_joker]
    if new_jokers and rules.joker_layoff == "with-natural":
        raise IllegalMeldError(Reason.JOKER_ONTO_SET,
                               "a joker may not be laid onto a set (joker_layoff=with-natural, 004)")
    value = card_value(rank, rules)
    all_naturals = sorted({*natural_suits, *(c.suit for c in new_naturals)} - {None},
                          key=lambda s: s.index if s else 0)
    new_suits = {c.suit for c in new_naturals}

    # Which table jokers a new natural frees, by the house rule set_joker_swap.
    if rules.set_joker_swap == "complete":
        freeable = table_jokers if len(all_naturals) == 4 else []
        forced = freeable
    elif rules.set_joker_swap == "declared":
        forced = [s for s in table_jokers if len(s.options) == 1 and s.options[0] in new_suits
                  or (s.card.declared is not None and s.card.declared.suit in new_suits)]
        freeable = forced
    else:
        freeable = table_jokers[:len(new_naturals)]
        forced = []
    # A joker declared for a suit that now arrives must give way.
    for slot in table_jokers:
        declared = slot.card.declared
        if declared is not None and declared.suit in new_suits and slot not in freeable:
            raise IllegalMeldError(
                Reason.DUPLICATE_SUIT,
                f"{declared} is already in the set as a joker, and set_joker_swap="
                f"{rules.set_joker_swap} does not let it be swapped here")
    kept_jokers = [s for s in table_jokers if s not in freeable] + \
                  [Slot(j, j.declared or Card(rank, SUITS[0]), value) for j in new_jokers]
    size = len(all_naturals) + len(kept_jokers)
    if size > 4:
        if rules.set_joker_swap == "complete" and table_jokers:
            raise IllegalMeldError(
                Reason.SET_TOO_LARGE,
                f"a set has at most 4 cards; the joker is freed only when all four natural "
                f"{rank.letter()}s are complete (set_joker_swap=complete)")
        raise IllegalMeldError(Reason.SET_TOO_LARGE, f"a set has at most 4 cards, this would have {size}")
    missing = tuple(s for s in SUITS if s not in all_naturals)
    slots = [Slot(Card(rank, s), Card(rank, s), value) for s in all_naturals]
    for joker in kept_jokers:
        declared = joker.card.declared
        if declared is not None:
            slots.append(Slot(joker.card, declared, value, (declared.suit,) if declared.suit else ()))
        else:
            slots.append(Slot(joker.card, Card(rank, missing[0]), value, missing))
    slots.sort(key=lambda slot: slot.stands_for.sort_key())
    meld = Meld(MeldKind.SET, tuple(slots))
    _check_limits(meld, rules)
    freed = len(freeable)
    alternative = None
    if freed and not forced and len(all_naturals) + len(table_jokers) + len(new_jokers) <= 4:
        alternative = "or lay the cards off and leave the joker in the set"
    elif table_jokers and not freed and new_naturals and rules.set_joker_swap == "declared":
        alternative = ("the joker stays: it was not declared for "
                       + "/".join(str(c) for c in new_naturals))
    return LayOff(table, meld, freed, _joker_note(freed, rules), alternative)
