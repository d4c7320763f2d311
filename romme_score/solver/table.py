"""Lay-offs onto the melds on the table, as the search sees them (RULES.md §5).

A lay-off extends a run at one end or fills a missing suit of a set; a lone
joker goes where its place is clear (003), never under ``joker_layoff =
with-natural``.

The searches do not carry the table meld by meld. Cards are placed in Skat
order, so while the lowest card left is of suit s only the runs of suit s can
change; runs of earlier suits accept nothing more and runs of later suits are
still as dealt. A set accepts nothing more once no card left fills a suit it
lacks. The search's table (:data:`View`) therefore holds the runs of the
current suit and the sets still open, as plain ints, sorted so that identical
melds collapse, and one number for everything else: the room it leaves for
lone jokers at the end, capped at the jokers in hand.
"""

from __future__ import annotations

from typing import NamedTuple

from romme_score.cards import Card, Rank, Suit
from romme_score.melds import Meld, MeldKind, joker_limit_violation, longest_joker_block
from romme_score.rules import RuleSet
from romme_score.solver.candidates import Candidates


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
    cards: tuple[Card, ...]  # natural cards laid, in the run's order
    jokers: int


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


# The search's view of the table (see the module docstring):
# (current suit, joker room of what is settled, runs of the current suit, open sets).
RunState = tuple[int, int, int, int, int, int]  # low, high, low_jokers, high_jokers, jokers, naturals
SetState = tuple[int, int, int, int, int]  # rank, suits still accepted (bits), size, jokers, naturals
View = tuple[int, int, tuple[RunState, ...], tuple[SetState, ...]]
# A lay-off in the view: ("run" or "set", old state, new state, natural types laid, jokers).
ViewMove = tuple[str, tuple[int, ...], tuple[int, ...], tuple[int, ...], int]
# A lay-off option of one card onto one run: new state, types used from the hand (mask),
# jokers, natural types laid (in run order), penalty placed.
RunOption = tuple[RunState, int, int, tuple[int, ...], int]
# A lay-off for the searches: penalty placed, types used (mask), jokers, new view, the move.
Lay = tuple[int, int, int, View, ViewMove]


def run_state(t: TableRun) -> RunState:
    return (t.low, t.high, t.low_jokers, t.high_jokers, t.jokers, t.naturals)


def set_state(t: TableSet) -> SetState:
    return (int(t.rank), 15 & ~(t.natural_suits | t.declared_suits), t.size, t.jokers, t.naturals)


class TableSearch:
    """The table as the searches see it, for one hand and rule set (see the module
    docstring): views, the lay-off moves of a card onto a view, and joker room."""

    def __init__(self, cands: Candidates, table: Table) -> None:
        self.cands = cands
        self.rules: RuleSet = cands.rules
        self.table = table
        self.lone_jokers = self.rules.joker_layoff != "with-natural"
        self._run_room: dict[RunState, int] = {}
        self._set_room: dict[tuple[int, int, int], int] = {}
        self._run_options: dict[tuple[int, RunState], list[RunOption]] = {}
        runs: list[list[RunState]] = [[] for _ in range(4)]
        sets: list[SetState] = []
        settled = 0
        for t in table:
            if isinstance(t, TableRun):
                runs[t.suit.index].append(run_state(t))
            elif t.size < 4 and 15 & ~(t.natural_suits | t.declared_suits):
                sets.append(set_state(t))
            else:
                settled += self.set_room(set_state(t))
        self.runs_of = [tuple(sorted(r)) for r in runs]
        # Room of the runs of the suits after s, as dealt; index s + 1 (s = -1: all).
        self._room_after = [sum(self.run_room(r) for suit in range(s + 1, 4) for r in runs[suit])
                            for s in range(-1, 4)]
        self.start: View = (-1, settled, (), tuple(sorted(sets)))
        # (suit bit, state bit) of each card type of a rank, for the sets still open.
        self._takers = [[(1 << s, 1 << (2 * cands.by_suit_rank[s][r])) for s in range(4)
                         if r in cands.by_suit_rank[s]] for r in range(14)]

    # -- joker room (the limits come from melds.joker_limit_violation) -----------------------

    def run_room(self, run: RunState) -> int:
        """Lone jokers that can still go onto a run: only where their place is clear (003),
        that is, when the run can grow at one end only."""
        known = self._run_room.get(run)
        if known is None:
            low, high, low_jokers, high_jokers, jokers, naturals = run
            can_low = self.run_bounds(low - 1, high)
            can_high = self.run_bounds(low, high + 1)
            if can_low == can_high:  # both ends open (or none): the place is not clear
                room = edge = 0
            else:
                length = high - low + 1
                top = self.rules.top_run_position
                room = min(top - high, 13 - length) if can_high else min(low - 1, 13 - length)
                edge = high_jokers if can_high else low_jokers
            known = self._run_room[run] = self._within_limits(MeldKind.RUN, room, naturals, jokers,
                                                              edge)
        return known

    def set_room(self, st: SetState) -> int:
        """Lone jokers that can still go onto a set: up to four cards, within the limits."""
        key = (st[2], st[3], st[4])
        known = self._set_room.get(key)
        if known is None:
            known = self._set_room[key] = self._within_limits(MeldKind.SET, 4 - st[2], st[4], st[3], 0)
        return known

    def _within_limits(self, kind: MeldKind, room: int, naturals: int, jokers: int, edge: int) -> int:
        # The joker limits only tighten as jokers are added: the most that pass.
        while room > 0 and joker_limit_violation(kind, naturals, jokers + room, edge + room,
                                                 self.rules) is not None:
            room -= 1
        return max(0, room)

    def run_bounds(self, low: int, high: int) -> bool:
        """A run may cover the places low..high."""
        if high - low + 1 > 13:
            return False
        if self.rules.wraparound:
            return True
        return low >= 1 and high <= self.rules.top_run_position

    def capacity(self, view: View) -> int:
        """Lone jokers the whole table can take at the end."""
        if not self.lone_jokers:
            return 0
        suit, settled, runs, sets = view
        return settled + sum(self.run_room(r) for r in runs) + \
            sum(self.set_room(st) for st in sets) + self._room_after[suit + 1]

    # -- views -------------------------------------------------------------------------------

    def enter(self, view: View, state: int, i: int, jokers: int) -> View:
        """The view once the lowest card left is type ``i``: when its suit is new, the
        runs of the suits passed settle, and the sets that nothing left fits settle."""
        suit = self.cands.suit_of[i]
        old, settled, runs, sets = view
        if old == suit:
            return view
        settled += sum(self.run_room(r) for r in runs)
        for passed in range(old + 1, suit):
            settled += sum(self.run_room(r) for r in self.runs_of[passed])
        open_sets = []
        for st in sets:
            if st[2] < 4 and any(state & bit for suit_bit, bit in self._takers[st[0]] if st[1] & suit_bit):
                open_sets.append(st)
            else:
                settled += self.set_room(st)
        if not self.lone_jokers:
            settled = 0
        return suit, min(settled, jokers), self.runs_of[suit], tuple(open_sets)

    def moves(self, i: int, left: int, jokers: int, view: View) -> list[Lay]:
        """Lay-offs of card type ``i`` (the view entered for it) with ``left`` the other
        cards: (penalty placed, types used from ``left`` as a mask, jokers used, the new
        view, the move)."""
        suit, settled, runs, sets = view
        found: list[Lay] = []
        for k, run in enumerate(runs):
            if k and run == runs[k - 1]:
                continue  # the same moves as its twin
            options = self._run_options.get((i, run))
            if options is None:
                options = self._run_options[(i, run)] = self._options_onto_run(i, run)
            for new, mask, added, laid, gain in options:
                if added > jokers or left & mask != mask:
                    continue
                new_runs = tuple(sorted(runs[:k] + (new,) + runs[k + 1:]))
                found.append((gain, mask, added, (suit, settled, new_runs, sets),
                              ("run", run, new, laid, added)))
        rank = self.cands.rank_of[i]
        bit = 1 << suit
        for k, st in enumerate(sets):
            if st[0] != rank or not st[1] & bit or st[2] >= 4 or (k and st == sets[k - 1]):
                continue
            new_set = (rank, st[1] & ~bit, st[2] + 1, st[3], st[4] + 1)
            new_sets = tuple(sorted(sets[:k] + (new_set,) + sets[k + 1:]))
            found.append((self.cands.penalties[i], 0, 0, (suit, settled, runs, new_sets),
                          ("set", st, new_set, (i,), 0)))
        return found

    def _options_onto_run(self, i: int, run: RunState) -> list[RunOption]:
        """Every way card type ``i`` extends the run at one end, the gap between filled
        by later cards of the hand (of any copy) or jokers."""
        cands = self.cands
        rank = cands.rank_of[i]
        row = cands.by_suit_rank[cands.suit_of[i]]
        jp = self.rules.joker_penalty
        low, high, low_jokers, high_jokers, jokers, naturals = run
        options: list[RunOption] = []
        for at_high in (True, False):
            if at_high:  # the first place above the run that holds the rank
                p = high + 1 + (rank - high - 1) % 13
                gap = range(high + 1, p)
                new_low, new_high = low, p
            else:
                p = low - 1 - (low - 1 - rank) % 13
                gap = range(p + 1, low)
                new_low, new_high = p, high
            if not self.run_bounds(new_low, new_high):
                continue
            places: list[tuple[int, ...]] = []
            for g in gap:
                j = row.get((g - 1) % 13 + 1)
                places.append((j, -1) if j is not None and j > i else (-1,))
            for choice in _product(places):
                used = [j for j in choice if j >= 0]
                added = len(choice) - len(used)
                flags = [j < 0 for j in choice]
                edge = [True] * high_jokers + flags if at_high else flags + [True] * low_jokers
                total = jokers + added
                grown = naturals + 1 + len(used)
                if joker_limit_violation(MeldKind.RUN, grown, total, longest_joker_block(edge),
                                         self.rules) is not None:
                    continue
                if at_high:
                    new: RunState = (low, p, low_jokers, 0, total, grown)
                    laid = (*used, i)
                else:
                    new = (p, high, 0, high_jokers, total, grown)
                    laid = (i, *used)
                gain = sum(cands.penalties[j] for j in laid) + added * jp
                options.append((new, sum(1 << (2 * j) for j in used), added, laid, gain))
        return options

    # -- back to the table on the table ------------------------------------------------------

    def replay(self, table: list[TableMeld], move: ViewMove) -> LayOffMove:
        """Apply a view's move to the real table melds: which meld, and the move."""
        kind, old, new, laid, added = move
        cards = tuple(self.cands.types[j] for j in laid)
        suit = cards[-1].suit if kind == "run" else None
        for k, t in enumerate(table):
            if kind == "run" and isinstance(t, TableRun) and t.suit == suit and run_state(t) == old:
                table[k] = TableRun(t.suit, *new)
                return LayOffMove(k, cards, added)
            if kind == "set" and isinstance(t, TableSet) and set_state(t) == old:
                bit = 1 << cards[0].suit.index if cards[0].suit is not None else 0
                table[k] = t._replace(natural_suits=t.natural_suits | bit, size=t.size + 1,
                                      naturals=t.naturals + 1)
                return LayOffMove(k, cards, added)
        raise AssertionError("the view's move matches no table meld")  # pragma: no cover

    def joker_layoffs(self, table: list[TableMeld], count: int) -> list[LayOffMove]:
        """Where ``count`` lone jokers go at the end (table meld by table meld)."""
        moves = []
        for k, t in enumerate(table):
            room = self.run_room(run_state(t)) if isinstance(t, TableRun) else self.set_room(set_state(t))
            take = min(count, room if self.lone_jokers else 0)
            if take:
                moves.append(LayOffMove(k, (), take))
                count -= take
        return moves


def _product(places: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Every way to fill a gap: each place one of its choices (a type, or -1 for a joker)."""
    result: list[tuple[int, ...]] = [()]
    for place in places:
        result = [prefix + (choice,) for prefix in result for choice in place]
    return result
