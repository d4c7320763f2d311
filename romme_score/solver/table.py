"""Lay-offs onto the melds on the table, as the search sees them (RULES.md §5).

A lay-off extends a run at one end or fills a missing suit of a set; a lone
joker goes where its place is clear (003), never under ``joker_layoff =
with-natural``. The search keeps each table meld as a small value
(:class:`TableRun`, :class:`TableSet`) and lists the moves the lowest card of
the hand has onto them.
"""

from __future__ import annotations

from typing import NamedTuple

from romme_score.cards import Card, Rank, Suit
from romme_score.melds import Meld, MeldKind, joker_limit_violation, longest_joker_block
from romme_score.rules import RuleSet
from romme_score.solver.candidates import RANK_AT, Candidates


class TableRun(NamedTuple):
    """A run on the table: its suit, the places it covers, and where its jokers lie."""

    suit: Suit
    low: int  # lowest position (1 = low ace .. 14 = high ace; wraparound goes on)
    high: int  # highest position
    low_jokers: int  # jokers at the low end, before the first natural
    high_jokers: int  # jokers at the high end, after the last natural
    jokers: int
    naturals: int


class TableSet(NamedTuple):
    """A set on the table: its rank, the suits it holds, and its jokers."""

    rank: Rank
    natural_suits: int  # bit s: a natural card of suit s (Skat order) lies there
    declared_suits: int  # bit s: a joker was declared for suit s
    size: int
    jokers: int
    naturals: int


TableMeld = TableRun | TableSet
Table = tuple[TableMeld, ...]


class LayOffMove(NamedTuple):
    """Cards laid off onto one table meld."""

    table: int  # index of the table meld
    cards: tuple[Card, ...]  # natural cards laid: those filling the gap, then the card itself
    jokers: int


# One way to lay the branching card off: (table meld index, its new state, mask of the
# other naturals used, jokers used, the naturals laid).
Move = tuple[int, TableMeld, int, int, tuple[Card, ...]]


def table_meld(meld: Meld) -> TableMeld:
    """The search's view of a meld on the table."""
    flags = [s.is_joker for s in meld.slots]
    jokers = sum(flags)
    if meld.kind == MeldKind.SET:
        rank = meld.slots[0].stands_for.rank
        assert rank is not None
        natural = sum(1 << s.card.suit.index for s in meld.slots
                      if not s.is_joker and s.card.suit is not None)
        declared = sum(1 << s.card.declared.suit.index for s in meld.slots
                       if s.card.declared is not None and s.card.declared.suit is not None)
        return TableSet(rank, natural, declared, len(flags), jokers, len(flags) - jokers)
    suit = meld.slots[0].stands_for.suit
    assert suit is not None
    low = next((i for i, f in enumerate(flags) if not f), len(flags))
    high = next((i for i, f in enumerate(reversed(flags)) if not f), len(flags))
    return TableRun(suit, meld.start, meld.end, low, high, jokers, len(flags) - jokers)


class TableMoves:
    """The lay-offs a hand's card types have onto table melds, under one rule set."""

    def __init__(self, cands: Candidates) -> None:
        self.cands = cands
        self.rules: RuleSet = cands.rules
        self._room: dict[TableMeld, int] = {}

    def run_bounds(self, low: int, high: int) -> bool:
        """A run may cover the places low..high."""
        if high - low + 1 > 13:
            return False
        if self.rules.wraparound:
            return True
        return low >= 1 and high <= self.rules.top_run_position

    def layoff_moves(self, i: int, state: int, jokers: int, table: Table) -> list[Move]:
        """Ways to lay card type ``i`` (the lowest in ``state``) off onto a table meld,
        filling the gap to the run with later naturals of ``state`` or jokers."""
        cands = self.cands
        card = cands.types[i]
        assert card.suit is not None
        rules = self.rules
        moves: list[Move] = []
        for k, t in enumerate(table):
            if isinstance(t, TableSet):
                bit = 1 << card.suit.index
                if t.rank == card.rank and not (t.natural_suits & bit) and not (t.declared_suits & bit) \
                        and t.size < 4:
                    new_set = t._replace(natural_suits=t.natural_suits | bit, size=t.size + 1,
                                         naturals=t.naturals + 1)
                    moves.append((k, new_set, 0, 0, (card,)))
                continue
            if t.suit != card.suit:
                continue
            for high in (True, False):
                if high:
                    p = t.high + 1
                    while RANK_AT[p] != card.rank and p - t.low < 13:
                        p += 1
                    gap = list(range(t.high + 1, p))
                    low, top = t.low, p
                else:
                    p = t.low - 1
                    while RANK_AT[p] != card.rank and t.high - p < 13:
                        p -= 1
                    gap = list(range(p + 1, t.low))
                    low, top = p, t.high
                if RANK_AT[p] != card.rank or not self.run_bounds(low, top):
                    continue
                options: list[tuple[int, ...]] = []
                for g in gap:
                    j = cands.index.get(Card(RANK_AT[g], card.suit))
                    free = j is not None and j > i and (state >> (2 * j)) & 1
                    options.append((j,) if free and j is not None else ())
                for choice in _gap_choices(options):
                    used = tuple(j for j in choice if j is not None)
                    added = len(choice) - len(used)
                    if added > jokers:
                        continue
                    flags = [j is None for j in choice]
                    edge = [True] * t.high_jokers + flags if high else flags + [True] * t.low_jokers
                    total = t.jokers + added
                    naturals = t.naturals + 1 + len(used)
                    if joker_limit_violation(MeldKind.RUN, naturals, total, longest_joker_block(edge),
                                             rules) is not None:
                        continue
                    if high:
                        new_run = t._replace(high=top, high_jokers=0, jokers=total, naturals=naturals)
                    else:
                        new_run = t._replace(low=low, low_jokers=0, jokers=total, naturals=naturals)
                    mask = sum(1 << (2 * j) for j in used)
                    laid = tuple(cands.types[j] for j in used) + (card,)
                    moves.append((k, new_run, mask, added, laid))
        return moves

    def joker_room(self, t: TableMeld) -> int:
        """Lone jokers that can still go onto this table meld where their place is
        clear (003): a set with room, or a run that can grow at one end only."""
        known = self._room.get(t)
        if known is not None:
            return known
        if isinstance(t, TableSet):
            kind, room, edge = MeldKind.SET, 4 - t.size, 0
        else:
            kind = MeldKind.RUN
            can_low = self.run_bounds(t.low - 1, t.high)
            can_high = self.run_bounds(t.low, t.high + 1)
            if can_low == can_high:  # both ends open (or none): the place is not clear
                room = edge = 0
            else:
                length = t.high - t.low + 1
                top = self.rules.top_run_position
                room = min(top - t.high, 13 - length) if can_high else min(t.low - 1, 13 - length)
                edge = t.high_jokers if can_high else t.low_jokers
        # The most of them the joker limits allow (they only tighten as jokers are added).
        while room > 0 and joker_limit_violation(kind, t.naturals, t.jokers + room, edge + room,
                                                 self.rules) is not None:
            room -= 1
        room = max(0, room)
        self._room[t] = room
        return room

    def joker_capacity(self, table: Table) -> int:
        """Lone jokers the whole table can still take."""
        if self.rules.joker_layoff == "with-natural":
            return 0
        return sum(self.joker_room(t) for t in table)

    def joker_layoffs(self, table: Table, count: int) -> list[LayOffMove]:
        """Where ``count`` lone jokers go (table meld by table meld)."""
        moves = []
        for k, t in enumerate(table):
            take = min(count, self.joker_room(t))
            if take:
                moves.append(LayOffMove(k, (), take))
                count -= take
        return moves


def _gap_choices(options: list[tuple[int, ...]]) -> list[tuple[int | None, ...]]:
    """Every way to fill a gap: each place a natural (where one is free) or a joker."""
    result: list[tuple[int | None, ...]] = [()]
    for option in options:
        result = [prefix + (choice,) for prefix in result for choice in (*option, None)]
    return result
