"""The three searches of ``romme best`` and their answer, :class:`Best`.

Each is a memoised search over the card types still to place (see
candidates.py), always branching on the lowest remaining type: it is left in
hand, or goes into one of its templates, or (after coming out) is laid off onto
a table meld (see table.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from romme_score.cards import Card
from romme_score.melds import Meld, MeldKind, penalty_value
from romme_score.rules import RuleSet
from romme_score.solver.candidates import NEG, Candidates, MeldFilter, Template, take
from romme_score.solver.table import LayOffMove, Table, TableMoves, table_meld


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


class Solver:
    """One hand under one rule set; the three questions share its templates.

    ``meld_filter`` and ``joker_only_melds``: see :class:`Candidates`.
    """

    def __init__(self, hand: Sequence[Card], rules: RuleSet, table: Sequence[Meld] = (),
                 came_out: bool = False, *, meld_filter: MeldFilter | None = None,
                 joker_only_melds: bool = False) -> None:
        self.rules = rules
        self.came_out = came_out
        self.joker_only_melds = joker_only_melds
        cands = self.cands = Candidates(hand, rules, meld_filter=meld_filter,
                                        joker_only_melds=joker_only_melds)
        self.hand_jokers = cands.hand_jokers
        self.types = cands.types
        self.penalties = cands.penalties
        self.index = cands.index
        self.start_counts = cands.start_counts
        self.start_state = cands.start_state
        self.templates = cands.templates
        self.meld_of = cands.meld_of
        self.moves = TableMoves(cands)
        # The table matters only where cards may be laid off onto it.
        usable = came_out or rules.first_meld_layoff
        self.table: Table = tuple(table_meld(m) for m in table) if usable else ()
        self.track_pure = rules.first_meld_pure_run
        self._value_memo: dict[int, tuple[int, int, Template | None, Template | None]] = {}
        self._place_memo: dict[tuple[object, ...], tuple[int, Template | LayOffMove | None]] = {}
        self._count_memo: dict[tuple[object, ...], int] = {}
        self._count_fast: dict[int, int] = {}
        self._place_fast: dict[int, tuple[int, Template | None]] = {}

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
            state = take(state, 1 << (2 * i))
            if isinstance(choice, Template):
                state = take(state, choice.mask)
                jokers -= choice.jokers
                melds.append(self.meld_of(choice))
                if pure and choice.pure_run:
                    pure = False
        return melds

    # -- (b) the lowest penalty left in hand --------------------------------------------------

    def _place(self, state: int, jokers: int, table: Table,
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
                best = min(jokers, self.moves.joker_capacity(table)) * self.rules.joker_penalty
            self._place_memo[key] = (best, None)
            return best
        i = ((state & -state).bit_length() - 1) >> 1
        left = take(state, 1 << (2 * i))
        best = self._place(left, jokers, table, need, need_pure)
        choice: Template | LayOffMove | None = None
        for t in self.templates[i]:
            if t.jokers > jokers or left & t.mask != t.mask:
                continue
            result = self._place(take(left, t.mask), jokers - t.jokers, table,
                                 max(0, need - t.value), need_pure and not t.pure_run)
            if result > NEG and t.penalty + result > best:
                best, choice = t.penalty + result, t
        if self.table:
            jp = self.rules.joker_penalty
            for k, new, mask, added, laid in self.moves.layoff_moves(i, left, jokers, table):
                result = self._place(take(left, mask), jokers - added,
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
            left = take(state, 1 << (2 * i))
            if isinstance(choice, Template):
                state = take(left, choice.mask)
                jokers -= choice.jokers
                melds.append(self.meld_of(choice))
                need = max(0, need - choice.value)
                need_pure = need_pure and not choice.pure_run
            elif isinstance(choice, LayOffMove):
                k, new, mask, added, _ = next(
                    m for m in self.moves.layoff_moves(i, left, jokers, table)
                    if m[0] == choice.table and m[4] == choice.cards and m[3] == choice.jokers)
                state = take(left, mask)
                jokers -= added
                table = table[:k] + (new,) + table[k + 1:]
                layoffs.append(choice)
            else:
                leftover.append(self.types[i])
                state = left
        laid = min(jokers, self.moves.joker_capacity(table))
        layoffs += self.moves.joker_layoffs(table, laid)
        leftover += [Card.joker()] * (jokers - laid)
        return melds, layoffs, leftover

    # -- (c) going out -------------------------------------------------------------------

    def _counts_left(self, state: int, jokers: int, table: Table) -> int:
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

    def _counts_left_table(self, state: int, jokers: int, table: Table) -> int:
        """The same with melds on the table (lay-offs change the table's state)."""
        key = (state * 8 + jokers, table)
        memo = self._count_memo.get(key)
        if memo is not None:
            return memo
        if not state:
            capacity = min(jokers, self.moves.joker_capacity(table))
            mask = 0
            for laid in range(capacity + 1):
                mask |= 1 << (jokers - laid)
            if self.joker_only_melds and jokers >= 3:
                mask |= 1 << (jokers - 3)
            self._count_memo[key] = mask
            return mask
        i = ((state & -state).bit_length() - 1) >> 1
        left = take(state, 1 << (2 * i))
        mask = self._counts_left(left, jokers, table) << 1
        for t in self.templates[i]:
            if t.jokers > jokers or left & t.mask != t.mask:
                continue
            mask |= self._counts_left(take(left, t.mask), jokers - t.jokers, table)
        if self.table:
            for k, new, used, added, _ in self.moves.layoff_moves(i, left, jokers, table):
                mask |= self._counts_left(take(left, used), jokers - added,
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
            left = take(state, 1 << (2 * i))
            if target > 0 and self._counts_left(left, jokers, table) >> (target - 1) & 1:
                leftover.append(self.types[i])
                state, target = left, target - 1
                continue
            for t in self.templates[i]:
                if t.jokers > jokers or left & t.mask != t.mask:
                    continue
                sub = take(left, t.mask)
                if self._counts_left(sub, jokers - t.jokers, table) >> target & 1:
                    melds.append(self.meld_of(t))
                    state, jokers = sub, jokers - t.jokers
                    break
            else:
                for k, new, used, added, laid in self.moves.layoff_moves(i, left, jokers, table):
                    sub = take(left, used)
                    new_table = table[:k] + (new,) + table[k + 1:]
                    if self._counts_left(sub, jokers - added, new_table) >> target & 1:
                        layoffs.append(LayOffMove(k, laid, added))
                        state, jokers, table = sub, jokers - added, new_table
                        break
                else:  # pragma: no cover - the mask promised a way
                    raise AssertionError("no arrangement leaves that many cards")
        extra = jokers - target
        if extra > min(jokers, self.moves.joker_capacity(table)):  # three jokers on their own
            extra -= 3
        layoffs += self.moves.joker_layoffs(table, extra)
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


def solve(hand: Sequence[Card], rules: RuleSet, table: Sequence[Meld] = (),
          came_out: bool = False) -> Best:
    """Answer (a), (b) and (c) for a hand under the rules (see the package docstring)."""
    return Solver(hand, rules, table, came_out).solve()
