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

Runs of six or more cards that split into two legal runs are not generated:
the search finds the two halves instead, with the same cards and value.

>>> from romme_score.cards import parse_cards
>>> from romme_score.rules import find_preset
>>> best = solve(parse_cards("P3 P4 P5 TB PB HB H9 K2"), find_preset("standard"))
>>> best.max_meld_value, best.first_meld_ok, best.leftover_penalty
(42, True, 11)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import NamedTuple

from romme_score.cards import SUITS, Card, Rank, Suit
from romme_score.melds import Meld, MeldKind, Slot, card_value, penalty_value
from romme_score.melds import rank_at as _rank_at
from romme_score.rules import RuleSet

NEG = -(10**9)
_RANK_AT = {p: _rank_at(p) for p in range(-40, 60)}
_RANK_NUMBER = {p: int(r) for p, r in _RANK_AT.items()}


def rank_at(position: int) -> Rank:
    """The rank at a run position (a table lookup: this is on the solver's hot path)."""
    return _RANK_AT[position]


class Template(NamedTuple):
    """A meld containing the branching card: which other cards and how many jokers."""

    others: tuple[int, ...]  # type indices of the other natural cards, each once
    jokers: int
    value: int  # meld value (question a)
    penalty: int  # penalty of all its cards if left in hand (question b)
    size: int
    pure_run: bool
    mask: int  # the other naturals as state bits (bit 2j for type j)
    # How to build the Meld for the answer (only done for the chosen ones):
    kind: MeldKind
    start: int  # runs: first position
    shape: tuple[int, ...]  # runs: offset of the card, then of each other; sets: naturals
    card: int  # the branching card's type index


class TableMeld(NamedTuple):
    """A meld on the table as the search sees it: its kind and current extent."""

    kind: MeldKind
    suit: Suit | None  # runs
    rank: Rank | None  # sets
    lo: int  # runs: lowest position; sets: bitmask of natural suits
    hi: int  # runs: highest position; sets: bitmask of suits declared for jokers
    low_jokers: int  # runs: jokers at the low end; sets: cards in the set
    high_jokers: int  # runs: jokers at the high end
    jokers: int
    naturals: int


class LayOffMove(NamedTuple):
    table: int  # index of the table meld
    cards: tuple[Card, ...]  # natural cards laid, low to high
    jokers: int


class Best(NamedTuple):
    """The solver's answers; each arrangement lists melds and lay-offs."""

    max_meld_value: int
    value_melds: tuple[Meld, ...]  # arrangement (a)
    first_meld_ok: bool
    melds: tuple[Meld, ...]  # arrangement (b)
    layoffs: tuple[LayOffMove, ...]
    leftover: tuple[Card, ...]
    leftover_penalty: int
    can_go_out: bool
    out_melds: tuple[Meld, ...]
    out_layoffs: tuple[LayOffMove, ...]
    discard: Card | None
    hand_romme: bool


MeldFilter = Callable[[MeldKind, tuple[bool, ...]], bool]


def _adjacent(flags: Sequence[bool]) -> int:
    best = run = 0
    for is_joker in flags:
        run = run + 1 if is_joker else 0
        best = max(best, run)
    return best


class Solver:
    """One hand under one rule set; the three questions share its templates.

    ``meld_filter`` narrows the legal melds further (the benchmark's
    compatibility modes use it); ``joker_only_melds`` lets three jokers form a
    meld on their own, which Rommé forbids but Rummikub solvers allow.
    """

    def __init__(self, hand: Sequence[Card], rules: RuleSet, table: Sequence[Meld] = (),
                 came_out: bool = False, *, meld_filter: MeldFilter | None = None,
                 joker_only_melds: bool = False) -> None:
        self.rules = rules
        self.came_out = came_out
        self.meld_filter = meld_filter
        self.joker_only_melds = joker_only_melds
        rules_key = (rules.ace_high_runs, rules.wraparound, rules.ace_high_value, rules.min_naturals,
                     rules.max_jokers_per_meld, rules.max_adjacent_jokers, meld_filter,
                     joker_only_melds)
        self._rules_key = rules_key
        caches = _LEGAL_CACHES.setdefault(rules_key, ({}, {}))
        self._legal_cache: dict[tuple[MeldKind, tuple[bool, ...]], bool] = caches[0]
        self._run_cache: dict[tuple[int, int], bool] = caches[1]
        self._window_values = _window_table(rules.ace_high_value)
        naturals = Counter(c for c in hand if not c.is_joker)
        self.hand_jokers = sum(1 for c in hand if c.is_joker)
        self.types: list[Card] = sorted(naturals, key=Card.sort_key)
        self.penalties = [penalty_value(c, rules) for c in self.types]
        # Plain ints on the hot path: suit index and rank number of each card type,
        # and by_suit_rank[suit index][rank number] -> type index.
        self.suit_of = [c.suit.index for c in self.types if c.suit is not None]
        self.rank_of = [int(c.rank) for c in self.types if c.rank is not None]
        self.by_suit_rank: list[dict[int, int]] = [{} for _ in SUITS]
        for j, (s_j, r_j) in enumerate(zip(self.suit_of, self.rank_of, strict=True)):
            self.by_suit_rank[s_j][r_j] = j
        self.set_values = _set_values(rules.ace_high_value)
        # Legal sets by (size, other naturals, jokers) under the joker limits.
        self._set_shapes = [(size, size - 1 - jokers, jokers) for size in (3, 4)
                            for jokers in range(0, min(size - 1, self.hand_jokers) + 1)
                            if self._legal(MeldKind.SET, (False,) * (size - jokers) + (True,) * jokers)]
        self.index = {card: i for i, card in enumerate(self.types)}
        self.start_counts = tuple(naturals[c] for c in self.types)
        self.start_state = sum((1 << (2 * j)) * (1 if n == 1 else 3)
                               for j, n in enumerate(self.start_counts))
        if any(n > 2 for n in self.start_counts):
            raise ValueError("a card appears more than twice: the solver handles at most two packs")
        # The table matters only where cards may be laid off onto it.
        usable = came_out or rules.first_meld_layoff
        self.table = tuple(self._table_state(m) for m in table) if usable else ()
        self.table_melds = tuple(table)
        self.templates = [self._templates_for(i) for i in range(len(self.types))]
        self._value_memo: dict[int, tuple[int, int, Template | None, Template | None]] = {}
        self.track_pure = rules.first_meld_pure_run
        self._place_memo: dict[tuple[object, ...], tuple[int, Template | LayOffMove | None]] = {}
        self._count_memo: dict[tuple[object, ...], int] = {}
        self._count_fast: dict[int, int] = {}
        self._place_fast: dict[int, tuple[int, Template | None]] = {}

    # -- rules of a single meld -----------------------------------------------------

    def _legal(self, kind: MeldKind, flags: tuple[bool, ...]) -> bool:
        """Joker limits (§2) for a meld whose slots are jokers where ``flags`` is True."""
        key = (kind, flags)
        known = self._legal_cache.get(key)
        if known is None:
            known = self._legal_cache[key] = self._check_legal(kind, flags)
        return known

    def _check_legal(self, kind: MeldKind, flags: tuple[bool, ...]) -> bool:
        rules = self.rules
        jokers = sum(flags)
        if len(flags) - jokers < rules.min_naturals and not (self.joker_only_melds and jokers == len(flags)):
            return False
        if rules.max_jokers_per_meld is not None and jokers > rules.max_jokers_per_meld:
            return False
        if kind == MeldKind.SET:
            limit = rules.max_jokers_in_set
            if limit is not None and jokers > limit:
                return False
        elif rules.max_adjacent_jokers is not None and _adjacent(flags) > rules.max_adjacent_jokers:
            return False
        return self.meld_filter is None or self.meld_filter(kind, flags)

    def _templates_for(self, i: int) -> list[Template]:
        suit, rank = self.suit_of[i], self.rank_of[i]
        found: list[Template] = []
        rules = self.rules
        jp = rules.joker_penalty
        own_penalty = self.penalties[i]
        # Sets: the other suits of the rank that come later in Skat order.
        others = [self.by_suit_rank[s][rank] for s in range(suit + 1, 4)
                  if rank in self.by_suit_rank[s]]
        value = self.set_values[rank]
        new = tuple.__new__
        for size, n_others, jokers in self._set_shapes:
            if n_others > len(others):
                continue
            penalty = own_penalty * (1 + n_others) + jokers * jp
            for chosen in combinations(others, n_others):
                found.append(new(Template, (chosen, jokers, value * size, penalty, size, False,
                                            _mask(chosen), MeldKind.SET, 0, (i, *chosen), i)))
        later = {r: j for r, j in self.by_suit_rank[suit].items() if j > i}
        runs = self._run_templates(i, rank, later, own_penalty)
        # A card with jokers only is one move whether it makes a set or a run: keep
        # the more valuable.
        for t in found:
            if t.mask == 0:
                run = runs.get((0, t.jokers))
                if run is not None and run.value >= t.value:
                    continue
                runs[(0, t.jokers)] = t
            else:
                runs[(t.mask, t.jokers)] = t
        return list(runs.values())

    def _run_templates(self, i: int, rank: int, later: dict[int, int],
                       own_penalty: int) -> dict[tuple[int, int], Template]:
        """Runs with the card: for each choice of the later naturals of its suit and
        each number of jokers, the most valuable legal placement (see _run_shapes)."""
        best: dict[tuple[int, int], Template] = {}
        jp = self.rules.joker_penalty
        penalties = self.penalties
        new = tuple.__new__
        run = MeldKind.RUN
        for chosen, jokers, value, n, start, offsets in self._run_shapes(rank, tuple(sorted(later))):
            mask = 0
            penalty = own_penalty + jokers * jp
            if chosen:
                others = tuple([later[r] for r in chosen])  # ranks ascend, so do indices
                for j in others:
                    mask |= 1 << (2 * j)
                    penalty += penalties[j]
            else:
                others = ()
            best[(mask, jokers)] = new(Template, (others, jokers, value, penalty, n, jokers == 0,
                                                  mask, run, start, offsets, i))
        return best

    def _run_shapes(self, rank: int, later: tuple[int, ...]) -> list[
            tuple[tuple[int, ...], int, int, int, int, tuple[int, ...]]]:
        """Run shapes by rank only, memoised per process: (later ranks used, jokers,
        value, length, start, offset of each natural), one per (ranks used, jokers).

        Ranks sit on a circle of 13; a run covers all of it but one empty arc between
        two of its naturals. Without wraparound the run must not pass from the king
        to the ace (except to end on the ace, with ace_high_runs).
        """
        key = (self._rules_key, rank, later, self.hand_jokers)
        known_shapes = _SHAPES.get(key)
        if known_shapes is not None:
            return known_shapes
        rules = self.rules
        hand_jokers = self.hand_jokers
        top = 14 if rules.ace_high_runs else 13
        wrap = rules.wraparound
        split_jokers = 4 - rules.min_naturals if self.meld_filter is None else 0
        values = self._window_values
        best: dict[tuple[tuple[int, ...], int], tuple[tuple[int, ...], int, int, int, int,
                                                      tuple[int, ...]]] = {}
        for size in range(0, len(later) + 1):
            for chosen in combinations(later, size):
                # Later cards of the suit have higher ranks: the members are in order.
                members = (rank, *chosen)
                count = size + 1
                for a_idx in range(count):
                    # The empty arc runs from members[a_idx] (the run's last natural)
                    # round to the next member (the run's first natural).
                    first = members[(a_idx + 1) % count]
                    gap = (first - members[a_idx] - 1) % 13 if count > 1 else 12
                    span = 13 - gap
                    inner = span - count
                    if inner > hand_jokers:
                        continue
                    bits_from_first = 0
                    for r in members:
                        bits_from_first |= 1 << ((r - first) % 13)
                    for jokers in range(max(inner, 3 - count), min(hand_jokers, 13 - count) + 1):
                        extra = jokers - inner
                        n = span + extra
                        if n >= 6 and jokers < split_jokers:
                            continue  # it splits into two legal runs: the search finds those
                        key2 = (chosen, jokers)
                        known = best.get(key2)
                        best_value = known[2] if known is not None else -1
                        for below in range(0, extra + 1):
                            start = (first - below - 1) % 13 + 1
                            if not wrap and start + n - 1 > top:
                                continue
                            value = values[start][n]
                            if value <= best_value:
                                continue
                            if not self._legal_run(n, bits_from_first << below):
                                continue
                            best_value = value
                            best[key2] = (chosen, jokers, value, n, start,
                                          tuple((r - start) % 13 for r in members))
        shapes = list(best.values())
        if len(_SHAPES) > 50_000:
            _SHAPES.clear()
        _SHAPES[key] = shapes
        return shapes

    def _legal_run(self, n: int, natural_bits: int) -> bool:
        """A run of ``n`` places with naturals where ``natural_bits`` is set: legal, and
        (six or more long) not splittable into two legal runs."""
        key = (n, natural_bits)
        known = self._run_cache.get(key)
        if known is None:
            known = self._run_ok(n, natural_bits)
            if known and n >= 6:
                # Split after t places: both parts legal means the search finds them.
                known = not any(self._run_ok(t, natural_bits & ((1 << t) - 1)) and
                                self._run_ok(n - t, natural_bits >> t) for t in range(3, n - 2))
            self._run_cache[key] = known
        return known

    def _run_ok(self, n: int, natural_bits: int) -> bool:
        """Joker limits (§2) of a run, on its bit pattern (bit k set: a natural in place k)."""
        rules = self.rules
        naturals = natural_bits.bit_count()
        jokers = n - naturals
        if naturals < rules.min_naturals and not (self.joker_only_melds and naturals == 0):
            return False
        if rules.max_jokers_per_meld is not None and jokers > rules.max_jokers_per_meld:
            return False
        if rules.max_adjacent_jokers is not None and jokers > rules.max_adjacent_jokers:
            run = ~natural_bits & ((1 << n) - 1)
            longest = 0
            while run:  # each step shortens every block of jokers by one
                run &= run >> 1
                longest += 1
            if longest > rules.max_adjacent_jokers:
                return False
        if self.meld_filter is not None:
            return self.meld_filter(MeldKind.RUN, tuple(not (natural_bits >> k) & 1 for k in range(n)))
        return True

    def meld_of(self, t: Template) -> Meld:
        """The Meld a template stands for (built only for the answer)."""
        rules = self.rules
        joker = Card.joker()
        if t.kind == MeldKind.SET:
            naturals = [self.types[j] for j in t.shape]
            rank = naturals[0].rank
            assert rank is not None
            value = card_value(rank, rules)
            missing = tuple(s for s in SUITS if s not in {c.suit for c in naturals})
            slots = [Slot(c, c, value) for c in naturals]
            if t.jokers == len(missing):
                slots += [Slot(joker, Card(rank, s), value, (s,)) for s in missing]
            else:
                slots += [Slot(joker, Card(rank, missing[0]), value, missing)] * t.jokers
            slots.sort(key=lambda s: s.stands_for.sort_key())
            return Meld(MeldKind.SET, tuple(slots))
        layout = [-1] * t.size
        for j, offset in zip((t.card, *t.others), t.shape, strict=True):
            layout[offset] = j
        suit = self.types[t.card].suit
        assert suit is not None
        slots = []
        for offset, j in enumerate(layout):
            p = t.start + offset
            stands = Card(rank_at(p), suit)
            slots.append(Slot(self.types[j] if j >= 0 else joker, stands,
                              card_value(rank_at(p), rules, low_ace=p == 1)))
        return Meld(MeldKind.RUN, tuple(slots), start=t.start)

    # -- the table ----------------------------------------------------------------------

    def _table_state(self, meld: Meld) -> TableMeld:
        flags = [s.is_joker for s in meld.slots]
        jokers = sum(flags)
        if meld.kind == MeldKind.SET:
            rank = meld.slots[0].stands_for.rank
            natural = sum(1 << s.card.suit.index for s in meld.slots
                          if not s.is_joker and s.card.suit is not None)
            declared = sum(1 << s.card.declared.suit.index for s in meld.slots
                           if s.card.declared is not None and s.card.declared.suit is not None)
            return TableMeld(MeldKind.SET, None, rank, natural, declared, len(flags), 0, jokers,
                             len(flags) - jokers)
        low = next((i for i, f in enumerate(flags) if not f), len(flags))
        high = next((i for i, f in enumerate(reversed(flags)) if not f), len(flags))
        return TableMeld(MeldKind.RUN, meld.slots[0].stands_for.suit, None, meld.start,
                         meld.end, low, high, jokers, len(flags) - jokers)

    def _layoffs_enabled(self) -> bool:
        return bool(self.table)

    def _run_bounds(self, lo: int, hi: int) -> bool:
        if hi - lo + 1 > 13:
            return False
        if self.rules.wraparound:
            return True
        top = 14 if self.rules.ace_high_runs else 13
        return lo >= 1 and hi <= top

    def _layoff_moves(self, i: int, state: int, jokers: int,
                      table: tuple[TableMeld, ...]) -> list[tuple[int, TableMeld, int, int,
                                                                  tuple[Card, ...]]]:
        """Ways to lay the branching card off onto a table meld: (meld index, its new
        extent, mask of the other naturals used, jokers used, naturals laid)."""
        card = self.types[i]
        assert card.suit is not None
        rules = self.rules
        moves: list[tuple[int, TableMeld, int, int, tuple[Card, ...]]] = []
        for k, t in enumerate(table):
            if t.kind == MeldKind.SET:
                bit = 1 << card.suit.index
                if t.rank == card.rank and not (t.lo & bit) and not (t.hi & bit) and t.low_jokers < 4:
                    new = t._replace(lo=t.lo | bit, low_jokers=t.low_jokers + 1,
                                     naturals=t.naturals + 1)
                    moves.append((k, new, 0, 0, (card,)))
                continue
            if t.suit != card.suit:
                continue
            for high in (True, False):
                if high:
                    p = t.hi + 1
                    while rank_at(p) != card.rank and p - t.lo < 13:
                        p += 1
                    gap = list(range(t.hi + 1, p))
                    lo, hi = t.lo, p
                else:
                    p = t.lo - 1
                    while rank_at(p) != card.rank and t.hi - p < 13:
                        p -= 1
                    gap = list(range(p + 1, t.lo))
                    lo, hi = p, t.hi
                if rank_at(p) != card.rank or not self._run_bounds(lo, hi):
                    continue
                options: list[tuple[int, ...]] = []
                for g in gap:
                    j = self.index.get(Card(rank_at(g), card.suit))
                    free = j is not None and j > i and (state >> (2 * j)) & 1
                    options.append((j,) if free and j is not None else ())
                for choice in _gap_choices(options):
                    used = tuple(j for j in choice if j is not None)
                    added = len(choice) - len(used)
                    if added > jokers:
                        continue
                    flags = [j is None for j in choice]
                    run_flags = [True] * t.high_jokers + flags if high else \
                        flags + [True] * t.low_jokers
                    total = t.jokers + added
                    if rules.max_jokers_per_meld is not None and total > rules.max_jokers_per_meld:
                        continue
                    if rules.max_adjacent_jokers is not None and \
                            _adjacent(run_flags) > rules.max_adjacent_jokers:
                        continue
                    if high:
                        new = t._replace(hi=hi, high_jokers=0, jokers=total,
                                         naturals=t.naturals + 1 + len(used))
                    else:
                        new = t._replace(lo=lo, low_jokers=0, jokers=total,
                                         naturals=t.naturals + 1 + len(used))
                    mask = sum(1 << (2 * j) for j in used)
                    laid = tuple(self.types[j] for j in used) + (card,)
                    moves.append((k, new, mask, added, laid))
        return moves

    def _joker_room(self, t: TableMeld) -> int:
        """Lone jokers that can still go onto this table meld where their place is
        clear (003): a set with room, or a run that can grow at one end only."""
        rules = self.rules
        if t.kind == MeldKind.SET:
            room = 4 - t.low_jokers
            limit = rules.max_jokers_in_set
            if limit is not None:
                room = min(room, limit - t.jokers)
        else:
            can_low = self._run_bounds(t.lo - 1, t.hi)
            can_high = self._run_bounds(t.lo, t.hi + 1)
            if can_low == can_high:  # both ends open (or none): the place is not clear
                return 0
            length = t.hi - t.lo + 1
            top = 14 if rules.ace_high_runs else 13
            room = min(top - t.hi, 13 - length) if can_high else min(t.lo - 1, 13 - length)
            edge = t.high_jokers if can_high else t.low_jokers
            if rules.max_adjacent_jokers is not None:
                room = min(room, rules.max_adjacent_jokers - edge)
        if rules.max_jokers_per_meld is not None:
            room = min(room, rules.max_jokers_per_meld - t.jokers)
        return max(0, room)

    def _joker_capacity(self, table: tuple[TableMeld, ...]) -> int:
        if not self._layoffs_enabled() or self.rules.joker_layoff == "with-natural":
            return 0
        return sum(self._joker_room(t) for t in table)

    def _joker_layoffs(self, table: tuple[TableMeld, ...], count: int) -> list[LayOffMove]:
        """Where ``count`` lone jokers go (table meld by table meld)."""
        moves = []
        for k, t in enumerate(table):
            take = min(count, self._joker_room(t))
            if take:
                moves.append(LayOffMove(k, (), take))
                count -= take
        return moves

    # -- (a) the highest meld value -------------------------------------------------------
    # _value, _place_free and the fast path of _counts_left repeat the same few lines
    # (take the lowest card, then each template the state allows) on purpose: a shared
    # helper that lists those moves per state was measured 20 % slower per question
    # (benchmarks/solver.py) and saved nothing when solve() answers all three.

    def _value(self, state: int, jokers: int) -> tuple[int, int, Template | None, Template | None]:
        """Best meld value from the remaining cards: (any, including a pure run, and
        the template chosen for each). The hottest loop of the solver."""
        memo = self._value_memo
        key = state * 8 + jokers
        hit = memo.get(key)
        if hit is not None:
            return hit
        if not state:
            result: tuple[int, int, Template | None, Template | None] = (0, NEG, None, None)
            memo[key] = result
            return result
        i = ((state & -state).bit_length() - 1) >> 1
        bit = 1 << (2 * i)
        second = (state >> 1) & bit
        left = state - ((second << 1) | (bit ^ second))
        sub = memo.get(left * 8 + jokers) or self._value(left, jokers)
        best_any, best_pure = sub[0], sub[1]
        choice_any: Template | None = None
        choice_pure: Template | None = None
        track_pure = self.track_pure
        for t in self.templates[i]:
            t_jokers, mask = t.jokers, t.mask
            if t_jokers > jokers or left & mask != mask:
                continue
            second = (left >> 1) & mask
            rest = left - ((second << 1) | (mask ^ second))
            remaining = jokers - t_jokers
            sub = memo.get(rest * 8 + remaining) or self._value(rest, remaining)
            value = t.value + sub[0]
            if value > best_any:
                best_any, choice_any = value, t
            if track_pure:
                pure = t.value + (sub[0] if t.pure_run else sub[1])
                if pure > best_pure:
                    best_pure, choice_pure = pure, t
        result = (best_any, best_pure, choice_any, choice_pure)
        memo[key] = result
        return result

    def _value_arrangement(self, pure: bool) -> list[Meld]:
        state, jokers = self.start_state, self.hand_jokers
        melds: list[Meld] = []
        while state:
            i = ((state & -state).bit_length() - 1) >> 1
            entry = self._value(state, jokers)
            choice = entry[3] if pure else entry[2]
            state = _take(state, 1 << (2 * i))
            if isinstance(choice, Template):
                state = _take(state, choice.mask)
                jokers -= choice.jokers
                melds.append(self.meld_of(choice))
                if pure and choice.pure_run:
                    pure = False
        return melds

    # -- (b) the lowest penalty left in hand --------------------------------------------------

    def _place(self, state: int, jokers: int, table: tuple[TableMeld, ...],
               need: int, need_pure: bool) -> int:
        """Most penalty placed from the remaining cards, with melds worth ``need``
        more points (and a pure run if ``need_pure``); NEG when impossible."""
        if not table and not need and not need_pure:
            return self._place_free(state, jokers)[0]
        key = (state * 8 + jokers, table, need, need_pure)
        memo = self._place_memo.get(key)
        if memo is not None:
            return memo[0]
        if not state:
            if need > 0 or need_pure:
                best = NEG
            else:
                best = min(jokers, self._joker_capacity(table)) * self.rules.joker_penalty
            self._place_memo[key] = (best, None)
            return best
        i = ((state & -state).bit_length() - 1) >> 1
        left = _take(state, 1 << (2 * i))
        best = self._place(left, jokers, table, need, need_pure)
        choice: Template | LayOffMove | None = None
        for t in self.templates[i]:
            if t.jokers > jokers or left & t.mask != t.mask:
                continue
            result = self._place(_take(left, t.mask), jokers - t.jokers, table,
                                 max(0, need - t.value), need_pure and not t.pure_run)
            if result > NEG and t.penalty + result > best:
                best, choice = t.penalty + result, t
        if self._layoffs_enabled():
            jp = self.rules.joker_penalty
            for k, new, mask, added, laid in self._layoff_moves(i, left, jokers, table):
                result = self._place(_take(left, mask), jokers - added,
                                     table[:k] + (new,) + table[k + 1:], need, need_pure)
                gain = sum(self.penalties[self.index[c]] for c in laid) + added * jp
                if result > NEG and gain + result > best:
                    best, choice = gain + result, LayOffMove(k, laid, added)
        self._place_memo[key] = (best, choice)
        return best

    def _place_free(self, state: int, jokers: int) -> tuple[int, Template | None]:
        """``_place`` without a table or a first-meld condition: the common case."""
        memo = self._place_fast
        key = state * 8 + jokers
        hit = memo.get(key)
        if hit is not None:
            return hit
        if not state:
            memo[key] = (0, None)
            return 0, None
        i = ((state & -state).bit_length() - 1) >> 1
        bit = 1 << (2 * i)
        second = (state >> 1) & bit
        left = state - ((second << 1) | (bit ^ second))
        sub = memo.get(left * 8 + jokers) or self._place_free(left, jokers)
        best = sub[0]
        choice: Template | None = None
        for t in self.templates[i]:
            t_jokers, mask = t.jokers, t.mask
            if t_jokers > jokers or left & mask != mask:
                continue
            second = (left >> 1) & mask
            rest = left - ((second << 1) | (mask ^ second))
            remaining = jokers - t_jokers
            sub = memo.get(rest * 8 + remaining) or self._place_free(rest, remaining)
            if t.penalty + sub[0] > best:
                best, choice = t.penalty + sub[0], t
        memo[key] = (best, choice)
        return best, choice

    def _place_arrangement(self, need: int, need_pure: bool) -> tuple[list[Meld], list[LayOffMove],
                                                                      list[Card]]:
        state, jokers, table = self.start_state, self.hand_jokers, self.table
        melds: list[Meld] = []
        layoffs: list[LayOffMove] = []
        leftover: list[Card] = []
        while state:
            i = ((state & -state).bit_length() - 1) >> 1
            self._place(state, jokers, table, need, need_pure)
            if not table and not need and not need_pure:
                choice: Template | LayOffMove | None = self._place_free(state, jokers)[1]
            else:
                choice = self._place_memo[(state * 8 + jokers, table, need, need_pure)][1]
            left = _take(state, 1 << (2 * i))
            if isinstance(choice, Template):
                state = _take(left, choice.mask)
                jokers -= choice.jokers
                melds.append(self.meld_of(choice))
                need = max(0, need - choice.value)
                need_pure = need_pure and not choice.pure_run
            elif isinstance(choice, LayOffMove):
                k, new, mask, added, _ = next(
                    m for m in self._layoff_moves(i, left, jokers, table)
                    if m[0] == choice.table and m[4] == choice.cards and m[3] == choice.jokers)
                state = _take(left, mask)
                jokers -= added
                table = table[:k] + (new,) + table[k + 1:]
                layoffs.append(choice)
            else:
                leftover.append(self.types[i])
                state = left
        laid = min(jokers, self._joker_capacity(table))
        layoffs += self._joker_layoffs(table, laid)
        leftover += [Card.joker()] * (jokers - laid)
        return melds, layoffs, leftover

    # -- (c) going out -------------------------------------------------------------------

    def _counts_left(self, state: int, jokers: int, table: tuple[TableMeld, ...]) -> int:
        """Bitmask of the numbers of cards that can be left in hand (bit n: n cards)."""
        if table:
            return self._counts_left_table(state, jokers, table)
        memo = self._count_fast
        key = state * 8 + jokers
        hit = memo.get(key)
        if hit is not None:
            return hit
        if not state:
            mask = 1 << jokers
            if self.joker_only_melds and jokers >= 3:
                mask |= 1 << (jokers - 3)
            memo[key] = mask
            return mask
        i = ((state & -state).bit_length() - 1) >> 1
        bit = 1 << (2 * i)
        second = (state >> 1) & bit
        left = state - ((second << 1) | (bit ^ second))
        sub = memo.get(left * 8 + jokers)
        mask = (sub if sub is not None else self._counts_left(left, jokers, table)) << 1
        for t in self.templates[i]:
            t_jokers, t_mask = t.jokers, t.mask
            if t_jokers > jokers or left & t_mask != t_mask:
                continue
            second = (left >> 1) & t_mask
            rest = left - ((second << 1) | (t_mask ^ second))
            remaining = jokers - t_jokers
            sub = memo.get(rest * 8 + remaining)
            mask |= sub if sub is not None else self._counts_left(rest, remaining, table)
        memo[key] = mask
        return mask

    def _counts_left_table(self, state: int, jokers: int, table: tuple[TableMeld, ...]) -> int:
        """The same with melds on the table (lay-offs change the table's state)."""
        key = (state * 8 + jokers, table)
        memo = self._count_memo.get(key)
        if memo is not None:
            return memo
        if not state:
            capacity = min(jokers, self._joker_capacity(table))
            mask = 0
            for laid in range(capacity + 1):
                mask |= 1 << (jokers - laid)
            if self.joker_only_melds and jokers >= 3:
                mask |= 1 << (jokers - 3)
            self._count_memo[key] = mask
            return mask
        i = ((state & -state).bit_length() - 1) >> 1
        left = _take(state, 1 << (2 * i))
        mask = self._counts_left(left, jokers, table) << 1
        for t in self.templates[i]:
            if t.jokers > jokers or left & t.mask != t.mask:
                continue
            mask |= self._counts_left(_take(left, t.mask), jokers - t.jokers, table)
        if self._layoffs_enabled():
            for k, new, used, added, _ in self._layoff_moves(i, left, jokers, table):
                mask |= self._counts_left(_take(left, used), jokers - added,
                                          table[:k] + (new,) + table[k + 1:])
        self._count_memo[key] = mask
        return mask

    def _out_arrangement(self, target: int) -> tuple[list[Meld], list[LayOffMove], list[Card]]:
        """Melds and lay-offs that leave exactly ``target`` cards in hand."""
        state, jokers, table = self.start_state, self.hand_jokers, self.table
        melds: list[Meld] = []
        layoffs: list[LayOffMove] = []
        leftover: list[Card] = []
        while state:
            i = ((state & -state).bit_length() - 1) >> 1
            left = _take(state, 1 << (2 * i))
            if target > 0 and self._counts_left(left, jokers, table) >> (target - 1) & 1:
                leftover.append(self.types[i])
                state, target = left, target - 1
                continue
            for t in self.templates[i]:
                if t.jokers > jokers or left & t.mask != t.mask:
                    continue
                sub = _take(left, t.mask)
                if self._counts_left(sub, jokers - t.jokers, table) >> target & 1:
                    melds.append(self.meld_of(t))
                    state, jokers = sub, jokers - t.jokers
                    break
            else:
                for k, new, used, added, laid in self._layoff_moves(i, left, jokers, table):
                    sub = _take(left, used)
                    new_table = table[:k] + (new,) + table[k + 1:]
                    if self._counts_left(sub, jokers - added, new_table) >> target & 1:
                        layoffs.append(LayOffMove(k, laid, added))
                        state, jokers, table = sub, jokers - added, new_table
                        break
                else:  # pragma: no cover - the mask promised a way
                    raise AssertionError("no arrangement leaves that many cards")
        extra = jokers - target
        if extra > min(jokers, self._joker_capacity(table)):  # three jokers on their own
            extra -= 3
        layoffs += self._joker_layoffs(table, extra)
        return melds, layoffs, leftover + [Card.joker()] * target

    # -- all three ------------------------------------------------------------------------

    def max_meld_value(self) -> tuple[int, int]:
        """(a): the highest meld value, and the highest that includes a pure run
        (NEG unless ``first_meld_pure_run``: only then is it tracked)."""
        result = self._value(self.start_state, self.hand_jokers)
        return result[0], result[1]

    def leftover_options(self) -> int:
        """(c): bit n is set when the hand can be laid down leaving n cards."""
        return self._counts_left(self.start_state, self.hand_jokers, self.table)

    def min_leftover_penalty(self) -> int:
        """(b) without the first-meld condition: the least penalty left in hand."""
        total = sum(self.penalties[i] * n for i, n in enumerate(self.start_counts)) + \
            self.hand_jokers * self.rules.joker_penalty
        return total - self._place(self.start_state, self.hand_jokers, self.table, 0, False)

    def solve(self) -> Best:
        rules = self.rules
        best_any, best_pure = self.max_meld_value()
        reach = best_pure if rules.first_meld_pure_run else best_any
        first_ok = reach >= rules.first_meld_min
        value_melds = tuple(self._value_arrangement(pure=rules.first_meld_pure_run and first_ok
                                                    and best_pure == best_any))

        options = self.leftover_options()
        out_target = 1 if options & 2 else (0 if rules.out_without_discard and options & 1 else -1)
        can_go_out = out_target >= 0
        out_melds: tuple[Meld, ...] = ()
        out_layoffs: tuple[LayOffMove, ...] = ()
        discard = None
        if can_go_out:
            m, lay, left = self._out_arrangement(out_target)
            out_melds, out_layoffs = tuple(m), tuple(lay)
            discard = left[0] if left else None

        all_cards = [c for c, n in zip(self.types, self.start_counts, strict=True) for _ in range(n)]
        all_cards += [Card.joker()] * self.hand_jokers
        total_penalty = sum(penalty_value(c, rules) for c in all_cards)
        need = 0 if self.came_out else rules.first_meld_min
        need_pure = (not self.came_out) and rules.first_meld_pure_run
        melds: list[Meld] = []
        layoffs: list[LayOffMove] = []
        leftover: list[Card] = list(all_cards)
        penalty = total_penalty
        if (need == 0 and not need_pure) or first_ok:
            # The unconstrained optimum is also the constrained one when its melds
            # happen to make a first meld; only otherwise search with the minimum.
            placed = self._place(self.start_state, self.hand_jokers, self.table, 0, False)
            arrangement = self._place_arrangement(0, False)
            value = sum(m.value for m in arrangement[0])
            pure = any(m.kind == MeldKind.RUN and m.jokers == 0 for m in arrangement[0])
            if value < need or (need_pure and not pure):
                placed = self._place(self.start_state, self.hand_jokers, self.table, need,
                                     need_pure)
                arrangement = self._place_arrangement(need, need_pure)
            if placed > 0:
                melds, layoffs, leftover = arrangement
                penalty = total_penalty - placed
        if can_go_out and not self.came_out:
            # A hand that goes out at once needs no first-meld minimum (Hand-Rommé).
            out_left = [discard] if discard is not None else []
            out_penalty = sum(penalty_value(c, rules) for c in out_left)
            if out_penalty < penalty:
                melds, layoffs, leftover = list(out_melds), list(out_layoffs), out_left
                penalty = out_penalty
        leftover.sort(key=Card.sort_key)
        return Best(best_any, value_melds, first_ok, tuple(melds), tuple(layoffs), tuple(leftover),
                    penalty, can_go_out, out_melds, out_layoffs, discard,
                    can_go_out and not self.came_out)


def _take(state: int, mask: int) -> int:
    """Remove one copy of each card type in ``mask`` (bit 2j per type j) from ``state``.

    A state holds two bits per card type: bit 2j for a first copy, 2j+1 for a second.
    """
    second = (state >> 1) & mask
    return state - ((second << 1) | (mask ^ second))


def _mask(types: Sequence[int]) -> int:
    return sum(1 << (2 * j) for j in types)


_WINDOW_VALUES: dict[tuple[int, int, int], int] = {}
# Per-process memos keyed by the rules that matter: legality of joker patterns, and
# run shapes by rank (the same few recur from hand to hand).
_LEGAL_CACHES: dict[tuple[object, ...], tuple[dict[tuple[MeldKind, tuple[bool, ...]], bool],
                                              dict[tuple[int, int], bool]]] = {}
_SHAPES: dict[tuple[object, ...], list[tuple[tuple[int, ...], int, int, int, int,
                                             tuple[int, ...]]]] = {}
_TABLES: dict[int, list[list[int]]] = {}
_SET_VALUES: dict[int, list[int]] = {}


def _set_values(ace_high_value: int) -> list[int]:
    """Meld value of each rank (1-13) in a set."""
    values = _SET_VALUES.get(ace_high_value)
    if values is None:
        rules = RuleSet(ace_high_value=ace_high_value)
        values = _SET_VALUES[ace_high_value] = [0] + [card_value(Rank(r), rules)
                                                      for r in range(1, 14)]
    return values


def _window_table(ace_high_value: int) -> list[list[int]]:
    """values[start][n]: meld value of a run of n places from start (1-13)."""
    table = _TABLES.get(ace_high_value)
    if table is None:
        rules = RuleSet(ace_high_value=ace_high_value)
        table = [[0] * 14 for _ in range(14)]
        for start in range(1, 14):
            for n in range(1, 14):
                table[start][n] = _window_value(start, n, rules)
        _TABLES[ace_high_value] = table
    return table


def _window_value(start: int, n: int, rules: RuleSet) -> int:
    """Meld value of a run over these positions (a joker counts as its card)."""
    key = (start, n, rules.ace_high_value)
    value = _WINDOW_VALUES.get(key)
    if value is None:
        value = _WINDOW_VALUES[key] = sum(card_value(rank_at(p), rules, low_ace=p == 1)
                                          for p in range(start, start + n))
    return value


def _gap_choices(options: list[tuple[int, ...]]) -> list[tuple[int | None, ...]]:
    """Every way to fill a gap: each place a natural (where one is free) or a joker."""
    result: list[tuple[int | None, ...]] = [()]
    for option in options:
        result = [prefix + (choice,) for prefix in result for choice in (*option, None)]
    return result




def solve(hand: Sequence[Card], rules: RuleSet, table: Sequence[Meld] = (),
          came_out: bool = False) -> Best:
    """Answer (a), (b) and (c) for a hand under the rules (see the module docstring)."""
    return Solver(hand, rules, table, came_out).solve()
