"""Lay-offs onto the melds on the table, as the search sees them (docs/rules.md §5).

A lay-off extends a run at one end or fills a missing suit of a set; a lone
joker goes where its place is clear (003), never under ``joker_layoff =
with-natural``.

The searches do not carry the table meld by meld. Cards are placed in Skat
order, so while the lowest card left is of suit s only the runs of suit s can
change; runs of earlier suits accept nothing more and runs of later suits are
still as dealt. A set accepts nothing more once no card left fills a suit it
lacks. Everything laid at one end of a run goes there in one block, chosen
when its lowest card comes up: places out from the end, each a card of the
hand or a joker, a natural card at the far end; that end is then used up.

The search's table, a view (:data:`View`, numbered as views appear), holds the
runs of the current suit with an end still open and the sets still open, as
plain ints keeping only what the joker limits in play ask for, sorted so that
identical melds collapse; and one number for everything settled: the room it
leaves for lone jokers, which the searches fill as soon as it appears.

Room for lone jokers is a set of counts, not a number: a run open at both ends takes
lone jokers two at a time, one at each end (docs/rules.md §5: their places are then clear),
so it can take 0, 2, 4 ... of them, and then any number at the end still open. Every
such set is "the even counts up to e, then every count up to m", and sums of them are
too; :func:`room_add` and the others below keep it as one int, ``m << ROOM | e``
(a plain room of n, any count up to n, is ``n << ROOM``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from romme_score.cards import Card, Rank, Suit
from romme_score.layoff import lay_off, pinned_suit
from romme_score.melds import (
    IllegalMeldError,
    Meld,
    MeldKind,
    joker_limit_violation,
    longest_joker_block,
    rank_at,
)
from romme_score.rules import RuleSet
from romme_score.solver.candidates import Candidates

ROOM = 16  # bits of e in a room (see the module docstring)
ROOM_MASK = (1 << ROOM) - 1


def room_of(most: int, evens_to: int = 0) -> int:
    """The room of counts 0..``most``, only even ones up to ``evens_to``."""
    return most << ROOM | min(evens_to, most)


def room_add(a: int, b: int) -> int:
    """The counts that two rooms take together (every sum of one count of each).

    >>> room_add(room_of(1), room_of(2, 2)) == room_of(3)  # {0, 1} + {0, 2}
    True
    >>> room_counts(room_add(room_of(2, 2), room_of(2, 2)), 9)  # two runs open at both ends
    [0, 2, 4]
    """
    if not (a & ROOM_MASK or b & ROOM_MASK):  # plain rooms: any count up to the sum
        return a + b
    m1, e1, m2, e2 = a >> ROOM, a & ROOM_MASK, b >> ROOM, b & ROOM_MASK
    odd = [e for m, e in ((m1, e1), (m2, e2)) if e < m]
    return room_of(m1 + m2, min(odd) if odd else m1 + m2)


def room_most(room: int, jokers: int) -> int:
    """The most lone jokers the room takes out of ``jokers``."""
    most, evens_to = room >> ROOM, room & ROOM_MASK
    if jokers >= most:
        return most
    return jokers if jokers >= evens_to or jokers % 2 == 0 else jokers - 1


def room_cap(room: int, jokers: int) -> int:
    """The room as far as ``jokers`` jokers can use it."""
    most = room_most(room, jokers)
    return room_of(most, room & ROOM_MASK)


def room_counts(room: int, jokers: int) -> list[int]:
    """Every number of lone jokers out of ``jokers`` that the room takes, ascending."""
    most, evens_to = room_most(room, jokers), room & ROOM_MASK
    return [k for k in range(most + 1) if k % 2 == 0 or k >= evens_to]


def room_takes(room: int, count: int) -> bool:
    """The room takes exactly ``count`` lone jokers."""
    return count <= room >> ROOM and (count % 2 == 0 or count >= room & ROOM_MASK)


# lone_joker_room's answers, by what of the rules they depend on, the run and the jokers
# (a RuleSet hashes all its fields, which costs more than the answer found here).
_LONE_ROOMS: dict[tuple[object, ...], tuple[int, dict[int, tuple[int, ...]]]] = {}
LONE_ROOMS_KEPT = 1 << 14


def lone_joker_room(
    rules: RuleSet, run: tuple[int, int, int, int, int], most: int
) -> tuple[int, dict[int, tuple[int, ...]]]:
    """The room for up to ``most`` lone jokers on a run (low, high, jokers at the low end,
    at the high end, in all: a :data:`RunState` without its ends), and for each number in
    it the lay-offs that lay them, in order: as layoff.lay_off judges k lone jokers laid at
    once. Their places are the ways to split them between the two ends that the bounds
    and the joker limits allow; the lay-off is taken where those ways put the jokers on
    the same cards (one end open: 003's clear place; a run of 12: the ace at either end),
    or where two jokers can go one at each end (docs/rules.md §5). A number reached only in a
    way that no room of the module docstring's form holds is left out, so that the solver
    never lays what the referee refuses.

    >>> from romme_score.rules import find_preset
    >>> room, steps = lone_joker_room(find_preset("standard"), (11, 13, 0, 0, 0), 3)  # ♥B ♥D ♥K
    >>> room_counts(room, 3), steps[3]  # one at each end (♥10 ♥A), then one more at ♥9
    ([0, 2, 3], (2, 1))
    """
    key = (
        rules.wraparound,
        rules.top_run_position,
        rules.min_naturals,
        rules.max_jokers_per_meld,
        rules.max_adjacent_jokers,
        run,
        most,
    )
    known = _LONE_ROOMS.get(key)
    if known is None:
        if len(_LONE_ROOMS) >= LONE_ROOMS_KEPT:
            _LONE_ROOMS.clear()
        known = _LONE_ROOMS[key] = _lone_joker_room(rules, run, most)
    return known


def _lone_joker_room(
    rules: RuleSet, run: tuple[int, int, int, int, int], most: int
) -> tuple[int, dict[int, tuple[int, ...]]]:
    adjacent, per_meld = rules.max_adjacent_jokers is not None, rules.max_jokers_per_meld is not None
    ways: dict[int, tuple[int, ...]] = {0: ()}
    seen: set[tuple[tuple[int, int, int, int, int], int]] = set()
    todo: list[tuple[tuple[int, int, int, int, int], int, tuple[int, ...]]] = [(run, 0, ())]
    while todo:
        (low, high, low_jokers, high_jokers, jokers), laid, path = todo.pop()
        for k in range(1, most - laid + 1):
            legal = []
            for left in range(k + 1):
                right = k - left
                if high - low + 1 + k > 13:
                    break
                if not rules.wraparound and (low - left < 1 or high + right > rules.top_run_position):
                    continue
                block = max(low_jokers + left if left else 0, high_jokers + right if right else 0)
                if joker_limit_violation(MeldKind.RUN, rules.min_naturals, jokers + k, block, rules) is None:
                    legal.append(left)
            if not legal:
                continue
            if k == 2 and 1 in legal:  # one at each end
                left = 1
            else:
                places = {
                    tuple(int(rank_at(p)) for p in (*range(low - g, low), *range(high + 1, high + 1 + k - g)))
                    for g in legal
                }
                if len(places) > 1:
                    continue  # the joker's place is not clear
                left = legal[0]
            right = k - left
            state = (
                low - left,
                high + right,
                low_jokers + left if adjacent and left else (low_jokers if adjacent else 0),
                high_jokers + right if adjacent and right else (high_jokers if adjacent else 0),
                jokers + k if per_meld else 0,
            )
            if (state, laid + k) in seen:
                continue
            seen.add((state, laid + k))
            ways.setdefault(laid + k, (*path, k))
            todo.append((state, laid + k, (*path, k)))
    # The largest room of the docstring's form within the numbers reached.
    reached = set(ways)
    top = max(reached)
    evens_to = 0
    while evens_to + 2 <= top and evens_to + 2 in reached:
        evens_to += 2
    best = room_of(evens_to, evens_to)
    for e in range(0, evens_to + 1, 2):
        m = e
        while m + 1 in reached:
            m += 1
        if m > best >> ROOM or (m == best >> ROOM and e < best & ROOM_MASK):
            best = room_of(m, e)
    return best, ways


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
    declared_suits: int  # bit s: a joker stands fixed for suit s (declared, or its Skat place)
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


def lone_joker_melds(
    moves: Sequence[LayOffMove], table: Sequence[Meld], rules: RuleSet
) -> tuple[Meld | None, ...]:
    """The meld each lay-off of lone jokers makes, the lay-offs replayed in order with the
    referee's :func:`~romme_score.layoff.lay_off` (None for the others, and wherever the
    referee would not follow). Without lone jokers there is nothing to replay."""
    if all(move.cards for move in moves):
        return (None,) * len(moves)
    current = list(table)
    found: list[Meld | None] = []
    for move in moves:
        added = list(move.cards) + [Card.joker()] * move.jokers
        try:
            laid = lay_off(list(current[move.table].cards), added, rules)
        except IllegalMeldError:
            found.append(None)
            continue
        if not laid.freed_jokers:
            current[move.table] = laid.meld
        found.append(laid.meld if not move.cards else None)
    return tuple(found)


def table_meld(meld: Meld, rules: RuleSet) -> TableMeld:
    """The search's view of a meld on the table. A joker in a set whose suit is fixed
    (declared, or by its place in Skat order: 004, 002 b) closes that suit: its card
    swaps the joker rather than joining beside it."""
    cards = [s.card for s in meld.slots]
    flags = [c.rank is None for c in cards]  # jokers
    jokers = sum(flags)
    if meld.kind == MeldKind.SET:
        rank = meld.slots[0].stands_for.rank
        assert rank is not None
        natural = sum(1 << c.suit.index for c in cards if c.rank is not None and c.suit is not None)
        pins = [pinned_suit(slot, rules) for slot in meld.slots if slot.is_joker]
        declared = sum(1 << suit.index for suit in set(pins) if suit is not None)
        return TableSet(rank, natural, declared, len(flags), jokers, len(flags) - jokers)
    suit = meld.slots[0].stands_for.suit
    assert suit is not None
    low = next((i for i, f in enumerate(flags) if not f), len(flags))
    high = next((i for i, f in enumerate(reversed(flags)) if not f), len(flags))
    return TableRun(suit, meld.start, meld.end, low, high, jokers, len(flags) - jokers)


# The search's view of the table (see the module docstring):
# (current suit, joker room of what is settled, runs of the current suit, open sets).
# A run: low, high, jokers at the low end, at the high end, in all (each 0 where no joker
# limit asks for it, so that runs alike for the future compare equal), and its ends still
# open to a lay-off (bit 1 low, bit 2 high): all cards laid at one end go in one block.
# Its natural cards need no count: a run on the table has enough, and lay-offs add more.
RunState = tuple[int, int, int, int, int, int]
# A set: rank, suits it still accepts from the suits to come (bits), size, jokers (0 where no
# joker limit asks for it).
SetState = tuple[int, int, int, int]
View = tuple[int, int, tuple[RunState, ...], tuple[SetState, ...]]
# A lay-off in the view: ("run" or "set", old state, new state, natural types laid, jokers).
ViewMove = tuple[str, tuple[int, ...], tuple[int, ...], tuple[int, ...], int]
# A lay-off option of one card onto one run: new state, types used from the hand (mask),
# jokers, natural types laid (in run order), penalty placed.
RunOption = tuple[RunState, int, int, tuple[int, ...], int]
# A lay-off for the searches: penalty placed, types used (mask), jokers, new view (its
# number), the move.
Lay = tuple[int, int, int, int, ViewMove]


class TableSearch:
    """The table as the searches see it, for one hand and rule set (see the module
    docstring): views, the lay-off moves of a card onto a view, and joker room."""

    def __init__(self, cands: Candidates, table: Table) -> None:
        self.cands = cands
        self.rules: RuleSet = cands.rules
        self.lone_jokers = self.rules.joker_layoff != "with-natural"
        self._run_room: dict[RunState, int] = {}
        self._set_room: dict[tuple[int, int], int] = {}
        self._run_options: dict[tuple[int, RunState], list[RunOption]] = {}
        runs: list[list[RunState]] = [[] for _ in range(4)]
        sets: list[SetState] = []
        settled = 0
        for t in table:
            if isinstance(t, TableRun):
                runs[t.suit.index].append(self.run_state(t))
            elif t.size < 4 and 15 & ~(t.natural_suits | t.declared_suits):
                sets.append(self.set_state(t))
            else:
                settled = room_add(settled, self.set_room(self.set_state(t)))
        self.runs_of = [tuple(sorted(r)) for r in runs]
        self._fill: dict[tuple[int, int], int] = {}
        self._rooms_of: dict[tuple[RunState, ...], int] = {}
        # Room of the runs of the suits after s, as dealt, and whether there are any;
        # index s + 1 (s = -1: all suits).
        rooms = [self._rooms(r) for r in self.runs_of]
        self._room_after = [self._sum(rooms[s + 1 :]) for s in range(-1, 4)]
        self._runs_after = [any(runs[s + 1 :]) for s in range(-1, 4)]
        # Views are numbered as they appear, so that memo keys stay plain ints.
        self.views: list[View] = []
        self.view_suit: list[int] = []
        self._ids: dict[View, int] = {}
        self._entered: dict[tuple[int, int, int, int], int | None] = {}
        self._view_fills: dict[int, list[int]] = {}
        self._moves: dict[tuple[int, int], list[Lay]] = {}
        self._capacity: dict[int, int] = {}
        self._unsettled: dict[int, tuple[int, int]] = {}
        self.start = self.intern((-1, settled, (), tuple(sorted(sets))))

    def set_state(self, t: TableSet) -> SetState:
        """A table set as the view keeps it."""
        limited = self.rules.max_jokers_in_set is not None or self.rules.max_jokers_per_meld is not None
        return (int(t.rank), 15 & ~(t.natural_suits | t.declared_suits), t.size, t.jokers if limited else 0)

    def run_state(self, t: TableRun, ends: int = 3) -> RunState:
        """A table run as the view keeps it."""
        return self.normal(t.low, t.high, t.low_jokers, t.high_jokers, t.jokers, ends)

    def normal(
        self, low: int, high: int, low_jokers: int, high_jokers: int, jokers: int, ends: int
    ) -> RunState:
        if self.rules.max_adjacent_jokers is None:
            low_jokers = high_jokers = 0
        if self.rules.max_jokers_per_meld is None:
            jokers = 0
        return (low, high, low_jokers, high_jokers, jokers, ends)

    # -- joker room (the limits come from melds.joker_limit_violation) -----------------------

    def run_room(self, run: RunState) -> int:
        """The room for lone jokers on a run, as the referee lets them be laid in one or
        more lay-offs (:func:`lone_joker_room`). Never under ``joker_layoff =
        with-natural`` (004)."""
        known = self._run_room.get(run)
        if known is None:
            known = self._run_room[run] = (
                lone_joker_room(self.rules, run[:5], self.cands.hand_jokers)[0] if self.lone_jokers else 0
            )
        return known

    def set_room(self, st: SetState) -> int:
        """Lone jokers that can still go onto a set: up to four cards, within the limits."""
        key = (st[2], st[3])
        known = self._set_room.get(key)
        if known is None:
            known = self._set_room[key] = room_of(
                self._within_limits(MeldKind.SET, 4 - st[2], self.rules.min_naturals, st[3], 0)
            )
        return known

    def _within_limits(self, kind: MeldKind, room: int, naturals: int, jokers: int, edge: int) -> int:
        # The joker limits only tighten as jokers are added: the most that pass.
        while (
            room > 0
            and joker_limit_violation(kind, naturals, jokers + room, edge + room, self.rules) is not None
        ):
            room -= 1
        return max(0, room)

    def run_bounds(self, low: int, high: int) -> bool:
        """A run may cover the places low..high."""
        if high - low + 1 > 13:
            return False
        if self.rules.wraparound:
            return True
        return low >= 1 and high <= self.rules.top_run_position

    def capacity(self, vid: int) -> int:
        """The room for lone jokers of the whole table at the end."""
        known = self._capacity.get(vid)
        if known is None:
            suit, settled, runs, sets = self.views[vid]
            known = (
                self._sum(
                    (
                        settled,
                        self._rooms(runs),
                        *(self.set_room(st) for st in sets),
                        self._room_after[suit + 1],
                    )
                )
                if self.lone_jokers
                else 0
            )
            self._capacity[vid] = known
        return known

    # -- views -------------------------------------------------------------------------------

    def intern(self, view: View) -> int:
        """The number of a view."""
        vid = self._ids.get(view)
        if vid is None:
            vid = self._ids[view] = len(self.views)
            self.views.append(view)
            self.view_suit.append(view[0])
        return vid

    def enter(self, vid: int, state: int, i: int, jokers: int) -> int | None:
        """The view once the lowest card left is type ``i``: when its suit is new, the
        runs of the suits passed settle, and the sets that nothing left fits settle.
        None when the table can take nothing more at all (the searches without table)."""
        suit = self.cands.suit_of[i]
        if self.view_suit[vid] == suit:
            return vid
        fills = self._view_fills.get(vid)
        if fills is None:
            fills = self._view_fills[vid] = [self._fill_of(st) for st in self.views[vid][3]]
        live = 0
        for n, fill in enumerate(fills):
            if state & fill:
                live |= 1 << n
        key = (vid, suit, live, jokers)
        known = self._entered.get(key, -1)
        if known != -1:
            return known
        old, settled, runs, sets = self.views[vid]
        settled = room_add(settled, self._rooms(runs))
        for passed in range(old + 1, suit):
            settled = room_add(settled, self._rooms(self.runs_of[passed]))
        open_sets = []
        for n, st in enumerate(sets):
            if st[2] < 4 and live >> n & 1:
                open_sets.append((st[0], st[1] & ~((1 << suit) - 1), st[2], st[3]))  # suits to come
            else:
                settled = room_add(settled, self.set_room(st))
        if not self.lone_jokers:
            settled = 0
        runs = self.runs_of[suit]
        entered = None
        if settled or runs or open_sets or self._runs_after[suit + 1]:
            entered = self.intern((suit, room_cap(settled, jokers), runs, tuple(open_sets)))
        self._entered[key] = entered
        return entered

    def unsettled(self, vid: int) -> tuple[int, int]:
        """The room for lone jokers of what has settled, and the view without it: the
        searches lay those jokers as soon as the room appears (it never changes again)."""
        known = self._unsettled.get(vid)
        if known is None:
            suit, settled, runs, sets = self.views[vid]
            known = self._unsettled[vid] = (settled, self.intern((suit, 0, runs, sets)))
        return known

    def _fill_of(self, st: SetState) -> int:
        """The state bits of the hand's cards that fit an open set."""
        fill = self._fill.get((st[0], st[1]))
        if fill is None:
            rows = self.cands.by_suit_rank
            fill = self._fill[(st[0], st[1])] = sum(
                1 << (2 * rows[s][st[0]]) for s in range(4) if st[1] >> s & 1 and st[0] in rows[s]
            )
        return fill

    def _rooms(self, runs: tuple[RunState, ...]) -> int:
        known = self._rooms_of.get(runs)
        if known is None:
            known = self._rooms_of[runs] = self._sum(self.run_room(r) for r in runs)
        return known

    @staticmethod
    def _sum(rooms: Iterable[int]) -> int:
        total = 0
        for room in rooms:
            total = room_add(total, room)
        return total

    def moves(self, i: int, vid: int) -> list[Lay]:
        """Lay-offs of card type ``i`` onto the view ``vid`` (entered for it): (penalty
        placed, the other types used as a state mask, jokers used, the new view, the
        move). The caller keeps those its cards and jokers allow."""
        known = self._moves.get((i, vid))
        if known is not None:
            return known
        suit, settled, runs, sets = self.views[vid]
        found: list[Lay] = []
        for k, run in enumerate(runs):
            if k and run == runs[k - 1]:
                continue  # the same moves as its twin
            options = self._run_options.get((i, run))
            if options is None:
                options = self._run_options[(i, run)] = self._options_onto_run(i, run)
            for new, mask, added, laid, gain in options:
                if new[5]:
                    new_view = (suit, settled, tuple(sorted(runs[:k] + (new,) + runs[k + 1 :])), sets)
                else:  # both ends used: only its room for lone jokers still counts
                    room = room_cap(room_add(settled, self.run_room(new)), self.cands.hand_jokers)
                    new_view = (suit, room, runs[:k] + runs[k + 1 :], sets)
                found.append((gain, mask, added, self.intern(new_view), ("run", run, new, laid, added)))
        rank = self.cands.rank_of[i]
        bit = 1 << suit
        for k, st in enumerate(sets):
            if st[0] != rank or not st[1] & bit or st[2] >= 4 or (k and st == sets[k - 1]):
                continue
            new_set = (rank, st[1] & ~bit, st[2] + 1, st[3])
            if new_set[1] and new_set[2] < 4:
                new_view = (suit, settled, runs, tuple(sorted(sets[:k] + (new_set,) + sets[k + 1 :])))
            else:  # full, or no suit to come fits: only its room for lone jokers counts
                room = room_cap(room_add(settled, self.set_room(new_set)), self.cands.hand_jokers)
                new_view = (suit, room, runs, sets[:k] + sets[k + 1 :])
            found.append(
                (self.cands.penalties[i], 0, 0, self.intern(new_view), ("set", st, new_set, (i,), 0))
            )
        self._moves[(i, vid)] = found
        return found

    def _options_onto_run(self, i: int, run: RunState) -> list[RunOption]:
        """Every block card type ``i`` can lay at an open end of the run: places out from
        the end, each a later card of the hand or a joker, the card at the place of its
        rank and a natural card at the far end. The end is then used up."""
        cands = self.cands
        rank = cands.rank_of[i]
        jp = self.rules.joker_penalty
        low, high, low_jokers, high_jokers, jokers, ends = run
        options: list[RunOption] = []
        for at_high in (True, False):
            if not ends & (2 if at_high else 1):
                continue
            edge = high_jokers if at_high else low_jokers
            # The card's place: the first place out from the end that holds its rank.
            mine = (rank - high - 1) % 13 if at_high else (low - 1 - rank) % 13
            found = self._blocks(i, low, high, at_high, mine)
            for used, flags in found:
                added = sum(flags)
                total = jokers + added
                if (
                    joker_limit_violation(
                        MeldKind.RUN,
                        self.rules.min_naturals,
                        total,
                        longest_joker_block([True] * edge + flags),
                        self.rules,
                    )
                    is not None
                ):
                    continue
                if added and not self._joker_places_clear(run, [cands.rank_of[j] for j in used], len(flags)):
                    continue  # the same cards fit the other end too (an ace, or around the corner)
                size = len(flags)
                if at_high:
                    # The cards left are of higher rank than this one, so the low end is
                    # used up too, unless the card is an ace above the king or runs wrap.
                    still = ends & 1 if self.rules.wraparound or rank < low else 0
                    new = self.normal(low, high + size, low_jokers, 0, total, still)
                    laid = tuple(used)
                else:
                    new = self.normal(low - size, high, 0, high_jokers, total, ends & 2)
                    laid = tuple(reversed(used))
                gain = sum(cands.penalties[j] for j in used) + added * jp
                others = sum(1 << (2 * j) for j in used if j != i)
                options.append((new, others, added, laid, gain))
        return options

    def _joker_places_clear(self, run: RunState, ranks: list[int], size: int) -> bool:
        """Whether natural cards of these ranks laid at once with jokers, ``size`` cards in
        all, leave the jokers one place, as layoff.lay_off sees it: every way to split the
        cards between the two ends that the bounds, the joker limits and joker_layoff
        allow puts the jokers on the same cards."""
        rules = self.rules
        if not rules.wraparound and int(Rank.ACE) not in ranks:
            return True  # each card has one place, below the run or above it: so have the jokers
        low, high, low_jokers, high_jokers, jokers, _ = run
        added = size - len(ranks)
        places = set()
        for left in range(size + 1):
            right = size - left
            if not self.run_bounds(low - left, high + right):
                continue
            positions = [*range(low - left, low), *range(high + 1, high + 1 + right)]
            at = {int(rank_at(p)): p for p in positions}
            taken = {at.get(r) for r in ranks}
            if None in taken or len(taken) < len(ranks):
                continue
            below = [p not in taken for p in reversed(positions[:left])]  # out from each end
            above = [p not in taken for p in positions[left:]]
            block = max(
                longest_joker_block([True] * low_jokers + below) if left else 0,
                longest_joker_block([True] * high_jokers + above) if right else 0,
            )
            if (
                joker_limit_violation(MeldKind.RUN, rules.min_naturals, jokers + added, block, rules)
                is not None
            ):
                continue
            if rules.joker_layoff == "with-natural" and not all(
                any(q in taken for q in positions[:left] if q < p)
                if p < low
                else any(q in taken for q in positions[left:] if q > p)
                for p in positions
                if p not in taken
            ):
                continue
            places.add(tuple(int(rank_at(p)) for p in positions if p not in taken))
        return len(places) <= 1

    def _blocks(
        self, i: int, low: int, high: int, at_high: bool, mine: int
    ) -> list[tuple[list[int], list[bool]]]:
        """The blocks out from one end of the run low..high: the types laid (-1 for none)
        and where the jokers go, card ``i`` at distance ``mine`` from the end."""
        cands = self.cands
        row = cands.by_suit_rank[cands.suit_of[i]]
        spare = cands.hand_jokers
        found: list[tuple[list[int], list[bool]]] = []

        def grow(used: list[int], flags: list[bool], n: int) -> None:
            """Blocks continuing ``used``/``flags`` at distance ``n`` from the end."""
            end = (high + n + 1) if at_high else (low - n - 1)
            if not (self.run_bounds(low, end) if at_high else self.run_bounds(end, high)):
                return
            if n == mine:
                choices = [i]
            else:
                j = row.get((end - 1) % 13 + 1)
                choices = ([j] if j is not None and j > i else []) + [-1]
            for choice in choices:
                if choice == -1 and sum(flags) >= spare:
                    continue
                more_used = used + [choice] if choice >= 0 else used
                more_flags = flags + [choice < 0]
                if choice >= 0 and n >= mine:
                    found.append((more_used, more_flags))
                grow(more_used, more_flags, n + 1)

        grow([], [], 0)
        return found

    # -- back to the table on the table ------------------------------------------------------

    def replay(self, table: list[TableMeld], move: ViewMove) -> LayOffMove:
        """Apply a view's move to the real table melds: which meld, and the move."""
        kind, old, new, laid, added = move
        cards = tuple(self.cands.types[j] for j in laid)
        suit = cards[-1].suit if kind == "run" else None
        for k, t in enumerate(table):
            if (
                kind == "run"
                and isinstance(t, TableRun)
                and t.suit == suit
                and self.run_state(t, old[5]) == old
            ):
                table[k] = t._replace(
                    low=new[0],
                    high=new[1],
                    jokers=t.jokers + added,
                    naturals=t.naturals + len(laid),
                    low_jokers=t.low_jokers if new[0] == t.low else 0,
                    high_jokers=t.high_jokers if new[1] == t.high else 0,
                )
                return LayOffMove(k, cards, added)
            if (
                kind == "set"
                and isinstance(t, TableSet)
                and self._same_set(self.set_state(t), old, self.cands.suit_of[laid[0]])
            ):
                bit = 1 << cards[0].suit.index if cards[0].suit is not None else 0
                table[k] = t._replace(
                    natural_suits=t.natural_suits | bit, size=t.size + 1, naturals=t.naturals + 1
                )
                return LayOffMove(k, cards, added)
        raise AssertionError("the view's move matches no table meld")  # pragma: no cover

    @staticmethod
    def _same_set(real: SetState, old: tuple[int, ...], suit: int) -> bool:
        """The real set is one the view means: the view keeps only the suits from the
        current one (``suit``) on."""
        return real[0] == old[0] and real[2:] == old[2:] and real[1] & ~((1 << suit) - 1) == old[1]

    def joker_layoffs(self, table: list[TableMeld], count: int) -> list[LayOffMove]:
        """Where ``count`` lone jokers go at the end (table meld by table meld), each
        lay-off one the referee accepts: onto a run open at both ends two at a time, one
        at each end, then the rest at the end still open."""
        if not self.lone_jokers or not count:
            return []
        rooms = [
            self.run_room(self.run_state(t)) if isinstance(t, TableRun) else self.set_room(self.set_state(t))
            for t in table
        ]
        after = [0] * (len(rooms) + 1)  # the room of the melds from k on
        for k in range(len(rooms) - 1, -1, -1):
            after[k] = room_add(rooms[k], after[k + 1])
        moves = []
        for k, room in enumerate(rooms):
            take = next(
                (n for n in reversed(room_counts(room, count)) if room_takes(after[k + 1], count - n)), 0
            )
            if not take:
                continue
            count -= take
            t = table[k]
            if isinstance(t, TableRun):  # the lay-offs the referee takes, in order
                steps = lone_joker_room(self.rules, self.run_state(t)[:5], self.cands.hand_jokers)[1][take]
            else:
                steps = (take,)
            moves += [LayOffMove(k, (), step) for step in steps]
        return moves
