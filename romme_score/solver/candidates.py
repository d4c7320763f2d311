"""The melds a hand can make, as templates on card-state bitmasks (the search's moves).

A hand is a multiset of card types, sorted in Skat order then by rank; a state
holds two bits per type (bit 2j for a first copy, 2j+1 for a second). Each type
gets the templates of the melds it can be the lowest card of: which later types
and how many jokers they take, their value and their penalty.

Runs of six or more cards that split into two legal runs are not generated:
the search finds the two halves instead, with the same cards and value.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import NamedTuple

from romme_score.cards import SUITS, Card, Rank
from romme_score.errors import InputProblem
from romme_score.i18n import _
from romme_score.melds import (
    Meld,
    MeldKind,
    Slot,
    card_value,
    joker_limit_violation,
    longest_joker_block,
    penalty_value,
    rank_at,
)
from romme_score.rules import RuleSet

NEG = -(10**9)
# The rank at each run position, as a lookup: this is on the hot path.
RANK_AT = {p: rank_at(p) for p in range(-40, 60)}

MeldFilter = Callable[[MeldKind, tuple[bool, ...]], bool]

# The most cards the solver takes in hand: 15 plus 6 jokers, more than a table deals
# out. Without a table the densest such hands take about 25 ms per question
# (benchmarks/solver.py, stress family); hands dealt at random from both packs take half
# a second at 34 cards and seconds from 38 on, so larger hands are refused at once.
MAX_HAND_CARDS = 21


class HandTooLarge(InputProblem):
    """A hand with more cards than the solver takes (MAX_HAND_CARDS), or a hand and table
    whose search outgrows its limit (search.MAX_TABLE_POSITIONS)."""


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


RunShape = tuple[tuple[int, ...], int, int, int, int, tuple[int, ...]]


class Candidates:
    """The card types of one hand and the templates of each, under one rule set.

    ``meld_filter`` narrows the legal melds further (the benchmark's
    compatibility modes use it); ``joker_only_melds`` lets three jokers form a
    meld on their own, which Rommé forbids but Rummikub solvers allow.
    """

    def __init__(
        self,
        hand: Sequence[Card],
        rules: RuleSet,
        *,
        meld_filter: MeldFilter | None = None,
        joker_only_melds: bool = False,
    ) -> None:
        self.rules = rules
        self.meld_filter = meld_filter
        self.joker_only_melds = joker_only_melds
        if len(hand) > MAX_HAND_CARDS:
            raise HandTooLarge(
                _("best works out hands of up to %(most)d cards, this one has %(count)d")
                % {"most": MAX_HAND_CARDS, "count": len(hand)}
            )
        self._cache_key = (rules.legality_key(), meld_filter, joker_only_melds)
        caches = _LEGAL_CACHES.setdefault(self._cache_key, ({}, {}, {}, {}))
        self._legal_cache: dict[tuple[MeldKind, tuple[bool, ...]], bool] = caches[0]
        self._run_cache: dict[tuple[int, int, int], bool] = caches[1]  # legal, not split
        self._ok_cache: dict[tuple[int, int], bool] = caches[2]  # within the joker limits
        self._counts_cache: dict[tuple[int, int, int], bool] = caches[3]
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
        self._set_shapes = [
            (size, size - 1 - jokers, jokers)
            for size in (3, 4)
            for jokers in range(0, min(size - 1, self.hand_jokers) + 1)
            if self._legal(MeldKind.SET, (False,) * (size - jokers) + (True,) * jokers)
        ]
        self.index = {card: i for i, card in enumerate(self.types)}
        self.start_counts = tuple(naturals[c] for c in self.types)
        self.start_state = sum((1 << (2 * j)) * (1 if n == 1 else 3) for j, n in enumerate(self.start_counts))
        if any(n > 2 for n in self.start_counts):
            raise HandTooLarge("a card appears more than twice: the solver handles at most two packs")
        self.templates = [self._templates_for(i) for i in range(len(self.types))]

    # -- the joker limits of one meld (melds.joker_limit_violation, cached) ------------------

    def _legal(self, kind: MeldKind, flags: tuple[bool, ...]) -> bool:
        """A meld whose places are jokers where ``flags`` is True: within the limits."""
        key = (kind, flags)
        known = self._legal_cache.get(key)
        if known is None:
            jokers = sum(flags)
            known = self._legal_cache[key] = self._within_limits(
                kind, len(flags) - jokers, jokers, longest_joker_block(flags), flags
            )
        return known

    def _within_limits(
        self, kind: MeldKind, naturals: int, jokers: int, adjacent: int, flags: tuple[bool, ...]
    ) -> bool:
        if naturals == 0 and self.joker_only_melds:
            naturals = self.rules.min_naturals  # Rummikub: jokers may meld on their own
        if joker_limit_violation(kind, naturals, jokers, adjacent, self.rules) is not None:
            return False
        if self.meld_filter is None:
            return True
        return self.meld_filter(kind, flags)

    def _legal_run(self, n: int, natural_bits: int, ace_at: int = -1) -> bool:
        """A run of ``n`` places with naturals where ``natural_bits`` is set: legal, and
        (six or more long) not splittable into two legal runs. ``ace_at``: the place of an
        ace that follows the king (wraparound) where a cut could fall; the ace counts 11
        there but 1 at the start of a run, so a cut before it loses value and does not count."""
        key = (n, natural_bits, ace_at)
        known = self._run_cache.get(key)
        if known is None:
            known = self._run_ok(n, natural_bits)
            if known and n >= 6:
                # Split after t places: both parts legal means the search finds them.
                known = not any(
                    self._run_ok(t, natural_bits & ((1 << t) - 1)) and self._run_ok(n - t, natural_bits >> t)
                    for t in range(3, n - 2)
                    if t != ace_at
                )
            self._run_cache[key] = known
        return known

    def _run_ok(self, n: int, natural_bits: int) -> bool:
        """The joker limits of a run, on its bit pattern (bit k set: a natural in place k)."""
        known = self._ok_cache.get((n, natural_bits))
        if known is None:
            known = self._ok_cache[(n, natural_bits)] = self._run_within_limits(n, natural_bits)
        return known

    def _run_within_limits(self, n: int, natural_bits: int) -> bool:
        naturals = natural_bits.bit_count()
        blocks = ~natural_bits & ((1 << n) - 1)  # bit k set: a joker in place k
        adjacent = 0
        while blocks:  # the longest block of jokers: shrink every block by one per step
            blocks &= blocks >> 1
            adjacent += 1
        if self.meld_filter is None:
            # Without a filter only the counts matter (melds.joker_limit_violation).
            key = (naturals, n - naturals, adjacent)
            known = self._counts_cache.get(key)
            if known is None:
                known = self._counts_cache[key] = self._within_limits(
                    MeldKind.RUN, naturals, n - naturals, adjacent, ()
                )
            return known
        flags = tuple(not (natural_bits >> k) & 1 for k in range(n))
        return self._within_limits(MeldKind.RUN, naturals, n - naturals, adjacent, flags)

    # -- templates -------------------------------------------------------------------------

    def _templates_for(self, i: int) -> list[Template]:
        suit, rank = self.suit_of[i], self.rank_of[i]
        found: list[Template] = []
        jp = self.rules.joker_penalty
        own_penalty = self.penalties[i]
        # Sets: the other suits of the rank that come later in Skat order.
        others = [self.by_suit_rank[s][rank] for s in range(suit + 1, 4) if rank in self.by_suit_rank[s]]
        value = self.set_values[rank]
        new = tuple.__new__
        for size, n_others, jokers in self._set_shapes:
            if n_others > len(others):
                continue
            penalty = own_penalty * (1 + n_others) + jokers * jp
            for chosen in combinations(others, n_others):
                found.append(
                    new(
                        Template,
                        (
                            chosen,
                            jokers,
                            value * size,
                            penalty,
                            size,
                            False,
                            mask_of(chosen),
                            MeldKind.SET,
                            0,
                            (i, *chosen),
                            i,
                        ),
                    )
                )
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

    def _run_templates(
        self, i: int, rank: int, later: dict[int, int], own_penalty: int
    ) -> dict[tuple[int, int], Template]:
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
            best[(mask, jokers)] = new(
                Template, (others, jokers, value, penalty, n, jokers == 0, mask, run, start, offsets, i)
            )
        return best

    def _run_shapes(self, rank: int, later: tuple[int, ...]) -> list[RunShape]:
        """Run shapes by rank only, memoised per process: (later ranks used, jokers,
        value, length, start, offset of each natural), one per (ranks used, jokers).

        Ranks sit on a circle of 13; a run covers all of it but one empty arc between
        two of its naturals. Without wraparound the run must not pass from the king
        to the ace (except to end on the ace, with ace_high_runs).
        """
        key = (self._cache_key, rank, later, self.hand_jokers)
        known_shapes = _SHAPES.get(key)
        if known_shapes is not None:
            return known_shapes
        rules = self.rules
        hand_jokers = self.hand_jokers
        top = rules.top_run_position
        wrap = rules.wraparound
        split_jokers = 4 - rules.min_naturals if self.meld_filter is None else 0
        # Without a meld filter, legality is by counts (melds.joker_limit_violation): a part
        # of a legal run is within the joker limits, so a run of six places or more splits
        # into two legal runs as soon as each side of some cut holds min_naturals naturals,
        # which is certain with more than min_naturals + 2 naturals.
        few = rules.min_naturals + 2 if self.meld_filter is None else None
        values = self._window_values
        best: dict[tuple[tuple[int, ...], int], RunShape] = {}
        held = set(later)
        ends = (rank, *later)
        # The run's first and last naturals, f and l: the arc from f round to l holds the
        # card and every other natural of the run; the later ranks held inside it are each
        # in the run or not, and the places left empty are jokers. Only the choices that
        # need at most the hand's jokers are listed.
        for f in ends:
            for last in ends:
                span = (last - f) % 13 + 1
                if (rank - f) % 13 >= span or (f == last) != (f == rank == last):
                    continue
                if not wrap and f > last and not (last == 1 and top == 14):
                    continue  # it would pass from the king to the ace
                inside = [(f + k - 1) % 13 + 1 for k in range(1, span - 1)]
                optional = [r for r in inside if r in held and r != rank]
                fixed = {f, last} - {rank}
                members_fixed = len(fixed) + 1
                missing = span - members_fixed - len(optional)
                budget = hand_jokers - missing
                if budget < 0:
                    continue
                # With wraparound, an ace after the king may sit where a cut falls (see
                # _legal_run); a run of seven places or more with min_naturals + 4 naturals
                # has two cuts at least, so one more natural is listed near an ace.
                near_ace = wrap and (
                    (f - 1) % 13 <= hand_jokers or (1 - f) % 13 < span or (1 - last) % 13 <= hand_jokers
                )
                if few is not None and span >= (7 if near_ace else 6):
                    # Six places or more: a run with more than min_naturals + 2 naturals
                    # splits into two legal runs (the search finds those), so list the
                    # ranks taken in rather than those left out.
                    most = min(few + near_ace - len(fixed) - 1, len(optional))
                    choices = [
                        tuple(sorted(fixed.union(taken)))
                        for k in range(max(0, len(optional) - budget), most + 1)
                        for taken in combinations(optional, k)
                    ]
                else:
                    choices = [
                        tuple(sorted(fixed.union(optional).difference(left_out)))
                        for omitted in range(min(budget, len(optional)) + 1)
                        for left_out in combinations(optional, omitted)
                    ]
                for chosen in choices:
                    members = (rank, *chosen)
                    count = len(members)
                    inner = span - count
                    bits_from_first = 0
                    for r in members:
                        bits_from_first |= 1 << ((r - f) % 13)
                    for jokers in range(max(inner, 3 - count), min(hand_jokers, 13 - count) + 1):
                        extra = jokers - inner
                        n = span + extra
                        if n >= 6 and jokers < split_jokers and not near_ace:
                            continue  # it splits into two legal runs: the search finds those
                        key2 = (chosen, jokers)
                        known = best.get(key2)
                        best_value = known[2] if known is not None else -1
                        for below in range(0, extra + 1):
                            start = (f - below - 1) % 13 + 1
                            if not wrap and start + n - 1 > top:
                                continue
                            value = values[start][n]
                            if value <= best_value:
                                continue
                            ace_at = (14 - start) % 13  # the place of an ace after the king
                            if not self._legal_run(
                                n, bits_from_first << below, ace_at if 3 <= ace_at <= n - 3 else -1
                            ):
                                continue
                            best_value = value
                            best[key2] = (
                                chosen,
                                jokers,
                                value,
                                n,
                                start,
                                tuple((r - start) % 13 for r in members),
                            )
        shapes = list(best.values())
        if len(_SHAPES) > 50_000:
            _SHAPES.clear()
        _SHAPES[key] = shapes
        return shapes

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
            stands = Card(RANK_AT[p], suit)
            slots.append(
                Slot(
                    self.types[j] if j >= 0 else joker, stands, card_value(RANK_AT[p], rules, low_ace=p == 1)
                )
            )
        return Meld(MeldKind.RUN, tuple(slots), start=t.start)


def take(state: int, mask: int) -> int:
    """Remove one copy of each card type in ``mask`` (bit 2j per type j) from ``state``.

    A state holds two bits per card type: bit 2j for a first copy, 2j+1 for a second.
    """
    second = (state >> 1) & mask
    return state - ((second << 1) | (mask ^ second))


def mask_of(types: Sequence[int]) -> int:
    return sum(1 << (2 * j) for j in types)


# Per-process memos keyed by the rules that decide meld legality (RuleSet.legality_key):
# legality of joker patterns, and run shapes by rank (the same few recur from hand to hand).
_LEGAL_CACHES: dict[
    tuple[object, ...],
    tuple[
        dict[tuple[MeldKind, tuple[bool, ...]], bool],
        dict[tuple[int, int, int], bool],
        dict[tuple[int, int], bool],
        dict[tuple[int, int, int], bool],
    ],
] = {}
_SHAPES: dict[tuple[object, ...], list[RunShape]] = {}
_TABLES: dict[int, list[list[int]]] = {}
_SET_VALUES: dict[int, list[int]] = {}


def _set_values(ace_high_value: int) -> list[int]:
    """Meld value of each rank (1-13) in a set."""
    values = _SET_VALUES.get(ace_high_value)
    if values is None:
        rules = RuleSet(ace_high_value=ace_high_value)
        values = _SET_VALUES[ace_high_value] = [0] + [card_value(Rank(r), rules) for r in range(1, 14)]
    return values


def _window_table(ace_high_value: int) -> list[list[int]]:
    """values[start][n]: meld value of a run of n places from start (1-13); a joker
    counts as the card it stands for."""
    table = _TABLES.get(ace_high_value)
    if table is None:
        rules = RuleSet(ace_high_value=ace_high_value)
        table = [[0] * 14 for _ in range(14)]
        for start in range(1, 14):
            for n in range(1, 14):
                table[start][n] = sum(
                    card_value(RANK_AT[p], rules, low_ace=p == 1) for p in range(start, start + n)
                )
        _TABLES[ace_high_value] = table
    return table
