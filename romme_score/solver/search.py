"""The three searches of ``romme best`` and their answer, :class:`Best`.

Each is a memoised search over the card types still to place (see
candidates.py), always branching on the lowest remaining type: it is left in
hand, or goes into one of its templates, or (after coming out) is laid off onto
a table meld (see table.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from romme_score.cards import Card
from romme_score.i18n import grouped, ngettext
from romme_score.melds import Meld, MeldKind, card_value, penalty_value
from romme_score.rules import RuleSet
from romme_score.solver.candidates import NEG, Candidates, HandTooLarge, MeldFilter, Template, take
from romme_score.solver.table import (
    LayOffMove,
    TableMeld,
    TableSearch,
    ViewMove,
    lone_joker_melds,
    room_counts,
    room_most,
    room_takes,
    table_meld,
)

# The most moves a search with the table (or a first-meld minimum) tries before it refuses:
# about a third of a second. Real mid-game hands need a few thousand; the slowest position
# found (benchmarks/solver.py: 15 cards and five jokers on 10 melds) needs 49,000 for all
# of solve(), an impossible one with eleven jokers in play 193,000.
MAX_TABLE_WORK = 500_000


JOKER = -1  # _cheapest_discard: keep a joker


def weigh(state: int, jokers: int, weights: Sequence[int], joker_weight: int) -> int:
    """The cards in ``state`` (two bits per type) and ``jokers`` jokers, each counted at
    its type's weight: the bounds of the branch and bound (penalty, or meld worth)."""
    total = jokers * joker_weight
    for j, weight in enumerate(weights):
        total += weight * ((state >> (2 * j) & 1) + (state >> (2 * j + 1) & 1))
    return total


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
    # The meld each lay-off of lone jokers makes, one per move of ``layoffs`` and of
    # ``out_layoffs`` (None for a move with natural cards): where a lone joker goes is
    # worth saying (docs/rules.md §5).
    layoff_melds: tuple[Meld | None, ...] = ()
    out_layoff_melds: tuple[Meld | None, ...] = ()


class Solver:
    """One hand under one rule set; the three questions share its templates.

    ``meld_filter`` and ``joker_only_melds``: see :class:`Candidates`. ``bounded=False``
    turns the branch and bound of (a) and (b) off (every state searched to the end): the
    tests compare the two on hands too large for the exhaustive search.
    """

    def __init__(
        self,
        hand: Sequence[Card],
        rules: RuleSet,
        table: Sequence[Meld] = (),
        came_out: bool = False,
        *,
        meld_filter: MeldFilter | None = None,
        joker_only_melds: bool = False,
        bounded: bool = True,
    ) -> None:
        self.rules = rules
        self.bounded = bounded  # False: no branch and bound, for the tests to compare
        self.came_out = came_out
        self.hand = tuple(hand)
        self.melds_on_table = tuple(table)
        self.meld_filter = meld_filter
        self.joker_only_melds = joker_only_melds
        cands = self.cands = Candidates(
            hand, rules, meld_filter=meld_filter, joker_only_melds=joker_only_melds
        )
        self.hand_jokers = cands.hand_jokers
        self.types = cands.types
        self.penalties = cands.penalties
        self.index = cands.index
        self.start_counts = cands.start_counts
        self.start_state = cands.start_state
        self.templates = cands.templates
        self.meld_of = cands.meld_of
        # The table matters only where cards may be laid off onto it.
        usable = came_out or rules.first_meld_layoff
        self.table: tuple[TableMeld, ...] = tuple(table_meld(m, rules) for m in table) if usable else ()
        self.tables = TableSearch(cands, self.table)
        self.view: int | None = self.tables.start if self.table else None
        self.view_suit = self.tables.view_suit
        self.suit_of = cands.suit_of
        self.shift = 2 * len(self.types)  # memo keys: view number above the state bits
        self.track_pure = rules.first_meld_pure_run
        self._value_memo: dict[int, tuple[int, int, Template | None, Template | None]] = {}
        self._bound_memo: dict[int, int] = {}
        self._value_choice: dict[int, Template | None] = {}
        # (a)'s bound: each card at its highest meld value, a joker at the highest card's.
        self._worth = [
            max(card_value(c.rank, rules), card_value(c.rank, rules, low_ace=True))
            if c.rank is not None
            else 0
            for c in self.types
        ]
        self._joker_worth = max(10, rules.ace_high_value)
        worth, joker_worth = self._worth, self._joker_worth
        # Each template with what its cards could be worth at most, the best first.
        self._value_moves = [
            sorted(
                (
                    (t, worth[i] + sum(worth[j] for j in t.others) + t.jokers * joker_worth)
                    for t in self.templates[i]
                ),
                key=lambda move: -move[0].value,
            )
            for i in range(len(self.types))
        ]
        self._place_memo: dict[tuple[int, int | None, int, bool], int] = {}
        self._laid_memo: dict[tuple[int, int | None, int, bool], bool] = {}
        self._view_memo: dict[int, int] = {}
        self._count_memo: dict[int, int] = {}
        self._count_fast: dict[int, int] = {}
        self._place_fast: dict[int, int] = {}
        self._work = 0  # moves tried by the searches with the table (MAX_TABLE_WORK)

    # -- (a) the highest meld value -------------------------------------------------------
    # _value, _place_free, _place_view, _counts_left and _counts_left_table repeat the same
    # few lines (take the lowest card, then each template the state allows, looking in the
    # memo before calling) on purpose: a shared
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

    def _value_bound(self, state: int, jokers: int, alpha: int, bound: int) -> int:
        """(a) without the pure-run condition, as a branch and bound: the best meld value
        from the remaining cards, exact when above ``alpha``, else an upper bound at most
        ``alpha``. ``bound`` caps what the cards could be worth (each card at its highest
        meld value, each joker at the highest card's). The memo keeps exact values as they
        are and upper bounds u as -1 - u; ``_value_choice`` the template of each exact one."""
        memo = self._bound_memo
        key = state * 8 + jokers
        hit = memo.get(key)
        if hit is not None and (hit >= 0 or -1 - hit <= alpha):
            return hit if hit >= 0 else -1 - hit
        if not state:
            return 0
        if bound <= alpha:
            return bound
        i = ((state & -state).bit_length() - 1) >> 1
        bit = 1 << (2 * i)
        second = (state >> 1) & bit
        left = state - ((second << 1) | (bit ^ second))
        best = cut = -1  # cut: the most a move passed over for the bound could give
        floor = alpha
        choice: Template | None = None
        for t, worth in self._value_moves[i]:
            t_jokers, mask = t.jokers, t.mask
            if t_jokers > jokers or left & mask != mask:
                continue
            gain = t.value
            rest_bound = bound - worth
            if gain + rest_bound <= floor:
                if gain + rest_bound > cut:
                    cut = gain + rest_bound
                continue
            second = (left >> 1) & mask
            rest = left - ((second << 1) | (mask ^ second))
            remaining = jokers - t_jokers
            sub = memo.get(rest * 8 + remaining)
            if sub is None or sub < 0 and -1 - sub > floor - gain:
                sub = self._value_bound(rest, remaining, floor - gain, rest_bound)
            elif sub < 0:
                sub = -1 - sub
            if gain + sub > best:
                best, choice = gain + sub, t
                if best > floor and self.bounded:
                    floor = best
        rest_bound = bound - self._worth[i]
        if rest_bound > floor:  # leave the card in hand
            result = self._value_bound(left, jokers, floor, rest_bound)
            if result > best:
                best, choice = result, None
        elif rest_bound > cut:
            cut = rest_bound
        if best > alpha:
            memo[key] = best
            self._value_choice[key] = choice
            return best
        best = max(best, cut)  # an upper bound, at most alpha
        memo[key] = -1 - best
        return best

    def _worth_of(self, state: int, jokers: int) -> int:
        """The most the cards in ``state`` and ``jokers`` jokers could be worth in melds."""
        return weigh(state, jokers, self._worth, self._joker_worth)

    def _value_arrangement(self, pure: bool) -> list[Meld]:
        state, jokers = self.start_state, self.hand_jokers
        melds: list[Meld] = []
        while state:
            i = ((state & -state).bit_length() - 1) >> 1
            choice: Template | None
            if self.track_pure:
                entry = self._value(state, jokers)
                choice = entry[3] if pure else entry[2]
            else:
                self._value_bound(state, jokers, -1, self._worth_of(state, jokers))
                choice = self._value_choice[state * 8 + jokers]
            state = take(state, 1 << (2 * i))
            if isinstance(choice, Template):
                state = take(state, choice.mask)
                jokers -= choice.jokers
                melds.append(self.meld_of(choice))
                if pure and choice.pure_run:
                    pure = False
        return melds

    # -- (b) the lowest penalty left in hand --------------------------------------------------

    def _place(self, state: int, jokers: int, view: int | None, need: int, need_pure: bool) -> int:
        """Most penalty placed from the remaining cards, with melds worth ``need``
        more points (and a pure run if ``need_pure``); NEG when impossible."""
        if not need and not need_pure:
            if view is None:
                return self._place_free(state, jokers)
            return self._place_view(state, jokers, view)
        if not state:
            return NEG
        i = ((state & -state).bit_length() - 1) >> 1
        if view is not None and self.view_suit[view] != self.suit_of[i]:
            view = self.tables.enter(view, state, i, jokers)
        key = (state * 8 + jokers, view, need, need_pure)
        memo = self._place_memo.get(key)
        if memo is not None:
            return memo
        self._work += len(self.templates[i]) + 1
        if self._work > MAX_TABLE_WORK:
            self._too_large()
        left = take(state, 1 << (2 * i))
        best = self._place(left, jokers, view, need, need_pure)
        for t in self.templates[i]:
            if t.jokers > jokers or left & t.mask != t.mask:
                continue
            result = self._place(
                take(left, t.mask),
                jokers - t.jokers,
                view,
                max(0, need - t.value),
                need_pure and not t.pure_run,
            )
            if result > NEG and t.penalty + result > best:
                best = t.penalty + result
        if view is not None:
            moves = self.tables.moves(i, view)
            self._work += len(moves)
            for gain, mask, added, new_view, _ in moves:
                if added > jokers or left & mask != mask:
                    continue
                result = self._place(take(left, mask), jokers - added, new_view, need, need_pure)
                if result > NEG and gain + result > best:
                    best = gain + result
        self._place_memo[key] = best
        return best

    def _place_view(self, state: int, jokers: int, view: int, alpha: int = -1, total: int = -1) -> int:
        """``_place`` with the table and no first-meld condition: the mid-game case.

        A branch and bound: the result is exact when it is above ``alpha``; otherwise
        it is only an upper bound, at most ``alpha`` (``total``, the penalty of every
        card left, bounds what a state can still place). The memo keeps exact values as
        they are and upper bounds u as -1 - u. Memo keys hold the view number above the
        state, for the view as passed and as entered."""
        memo = self._view_memo
        shift = self.shift
        key = ((view << shift | state) << 3) | jokers
        hit = memo.get(key)
        if hit is not None and (hit >= 0 or -1 - hit <= alpha):
            return hit if hit >= 0 else -1 - hit
        if not state:
            return room_most(self.tables.capacity(view), jokers) * self.rules.joker_penalty
        if total < 0:
            total = self._total(state, jokers)
        if total <= alpha:
            return total
        i = ((state & -state).bit_length() - 1) >> 1
        entered_key = key
        if self.view_suit[view] != self.suit_of[i]:
            entered = self.tables.enter(view, state, i, jokers)
            if entered is None:
                best = self._place_free(state, jokers, alpha, total)
                memo[key] = best if best > alpha else -1 - best
                return best
            view = entered
            entered_key = ((view << shift | state) << 3) | jokers
            hit = memo.get(entered_key)
            if hit is not None and (hit >= 0 or -1 - hit <= alpha):
                memo[key] = hit
                return hit if hit >= 0 else -1 - hit
        settled, bare = self.tables.unsettled(view)
        jp = self.rules.joker_penalty
        if settled:  # lay lone jokers onto the settled room now, or never
            best = -1
            for k in reversed(room_counts(settled, jokers)):
                floor = best if best > alpha and self.bounded else alpha
                best = max(
                    best, k * jp + self._place_view(state, jokers - k, bare, floor - k * jp, total - k * jp)
                )
            memo[key] = memo[entered_key] = best if best > alpha else -1 - best
            return best
        templates = self.templates[i]
        self._work += len(templates) + 1
        if self._work > MAX_TABLE_WORK:
            self._too_large()
        bit = 1 << (2 * i)
        second = (state >> 1) & bit
        left = state - ((second << 1) | (bit ^ second))
        base = view << shift
        best = -1
        floor = alpha
        # Moves that place cards first, so that the bound cuts the ways of leaving more.
        for t in templates:
            t_jokers, mask = t.jokers, t.mask
            if t_jokers > jokers or left & mask != mask:
                continue
            second = (left >> 1) & mask
            rest = left - ((second << 1) | (mask ^ second))
            remaining = jokers - t_jokers
            gain = t.penalty
            sub = memo.get(((base | rest) << 3) | remaining)
            if sub is None or sub < 0 and -1 - sub > floor - gain:
                sub = self._place_view(rest, remaining, view, floor - gain, total - gain)
            elif sub < 0:
                sub = -1 - sub
            if gain + sub > best:
                best = gain + sub
                if best > floor:
                    if best >= total:
                        memo[key] = memo[entered_key] = best
                        return best
                    floor = best if self.bounded else floor
        moves = self.tables.moves(i, view)
        self._work += len(moves)
        for gain, mask, added, new_view, _ in moves:
            if added > jokers or left & mask != mask:
                continue
            result = self._place_view(take(left, mask), jokers - added, new_view, floor - gain, total - gain)
            if gain + result > best:
                best = gain + result
                if best > floor:
                    if best >= total:
                        memo[key] = memo[entered_key] = best
                        return best
                    floor = best if self.bounded else floor
        own = self.penalties[i]
        if total - own > floor:  # leave the card in hand
            result = self._place_view(left, jokers, view, floor, total - own)
            if result > best:
                best = result
        elif total - own > best:  # passed over for the bound: what it could give at most
            best = total - own
        memo[key] = memo[entered_key] = best if best > alpha else -1 - best
        return best

    def _place_options(
        self, i: int, state: int, jokers: int, view: int | None, need: int, need_pure: bool
    ) -> Iterator[tuple[int, int, int, int | None, int, bool, Template | ViewMove | None]]:
        """The moves of the lowest card ``i`` (``view`` entered for it): left in hand,
        each template, each lay-off; as (penalty placed, what remains, the move)."""
        left = take(state, 1 << (2 * i))
        yield 0, left, jokers, view, need, need_pure, None
        for t in self.templates[i]:
            if t.jokers > jokers or left & t.mask != t.mask:
                continue
            yield (
                t.penalty,
                take(left, t.mask),
                jokers - t.jokers,
                view,
                max(0, need - t.value),
                need_pure and not t.pure_run,
                t,
            )
        if view is not None:
            for gain, mask, added, new_view, move in self.tables.moves(i, view):
                if added > jokers or left & mask != mask:
                    continue
                yield gain, take(left, mask), jokers - added, new_view, need, need_pure, move

    def _place_free(self, state: int, jokers: int, alpha: int = -1, total: int = -1) -> int:
        """``_place`` without a table or a first-meld condition: the common case. A branch
        and bound as ``_place_view``, with the same memo encoding."""
        memo = self._place_fast
        key = state * 8 + jokers
        hit = memo.get(key)
        if hit is not None and (hit >= 0 or -1 - hit <= alpha):
            return hit if hit >= 0 else -1 - hit
        if not state:
            return 0
        if total < 0:
            total = self._total(state, jokers)
        if total <= alpha:
            return total
        i = ((state & -state).bit_length() - 1) >> 1
        bit = 1 << (2 * i)
        second = (state >> 1) & bit
        left = state - ((second << 1) | (bit ^ second))
        best = -1
        floor = alpha
        for t in self.templates[i]:
            t_jokers, mask = t.jokers, t.mask
            if t_jokers > jokers or left & mask != mask:
                continue
            second = (left >> 1) & mask
            rest = left - ((second << 1) | (mask ^ second))
            remaining = jokers - t_jokers
            gain = t.penalty
            sub = memo.get(rest * 8 + remaining)
            if sub is None or sub < 0 and -1 - sub > floor - gain:
                sub = self._place_free(rest, remaining, floor - gain, total - gain)
            elif sub < 0:
                sub = -1 - sub
            if gain + sub > best:
                best = gain + sub
                if best > floor:
                    if best >= total:
                        memo[key] = best
                        return best
                    floor = best if self.bounded else floor
        own = self.penalties[i]
        if total - own > floor:  # leave the card in hand
            result = self._place_free(left, jokers, floor, total - own)
            if result > best:
                best = result
        elif total - own > best:  # passed over for the bound: what it could give at most
            best = total - own
        memo[key] = best if best > alpha else -1 - best
        return best

    def _total(self, state: int, jokers: int) -> int:
        """The penalty of the cards in ``state`` and of ``jokers`` jokers."""
        return weigh(state, jokers, self.penalties, self.rules.joker_penalty)

    def _reaches(
        self, state: int, jokers: int, view: int | None, need: int, need_pure: bool, target: int
    ) -> bool:
        """``_place`` gives at least ``target``: asked of the branch and bound with that
        as its floor, so that a move that is not the best is not searched to the end."""
        if need or need_pure:
            value = self._place(state, jokers, view, need, need_pure)
            return value > NEG and value >= target
        if view is None:
            return self._place_free(state, jokers, target - 1) >= target
        return self._place_view(state, jokers, view, target - 1) >= target

    def _place_arrangement(
        self, need: int, need_pure: bool
    ) -> tuple[list[Meld], list[LayOffMove], list[Card]]:
        """Replay (b): at each card the first move that keeps the best total."""
        state, jokers, view = self.start_state, self.hand_jokers, self.view
        table = list(self.table)
        melds: list[Meld] = []
        layoffs: list[LayOffMove] = []
        leftover: list[Card] = []
        while state:
            i = ((state & -state).bit_length() - 1) >> 1
            if view is not None:
                view = self.tables.enter(view, state, i, jokers)
            best = self._place(state, jokers, view, need, need_pure)
            option = next(
                o
                for o in self._place_options(i, state, jokers, view, need, need_pure)
                if best == NEG or self._reaches(*o[1:6], best - o[0])
            )
            move = option[6]
            if isinstance(move, Template):
                melds.append(self.meld_of(move))
            elif move is not None:
                layoffs.append(self.tables.replay(table, move))
            else:
                leftover.append(self.types[i])
            state, jokers, view, need, need_pure = option[1:6]
        laid = room_most(self.tables.capacity(view), jokers) if view is not None else 0
        layoffs += self.tables.joker_layoffs(table, laid)
        leftover += [Card.joker()] * (jokers - laid)
        return melds, layoffs, leftover

    # -- (c) going out -------------------------------------------------------------------

    def _counts_left(
        self, state: int, jokers: int, view: int | None, budget: int = 1, only: bool = False
    ) -> int:
        """Bitmask of the numbers of cards that can be left in hand (bit n: n cards), for
        n up to ``budget`` only (``only``: n = budget alone): going out asks whether 0 or
        1 card can stay, and a search that may leave no card (or one) need not look at
        the ways of leaving many. Inside, ``code`` is budget * 2 + only."""
        return self._counts_code(state, jokers, view, budget * 2 + (only and budget > 0))

    def _counts_code(self, state: int, jokers: int, view: int | None, code: int) -> int:
        if view is not None:
            return self._counts_left_table(state, jokers, view, code)
        memo = self._count_fast
        key = ((state << 3 | jokers) << 6) | code
        hit = memo.get(key)
        if hit is not None:
            return hit
        if not state:
            mask = 1 << jokers
            if self.joker_only_melds and jokers >= 3:
                mask |= 1 << (jokers - 3)
            mask &= (1 << (code >> 1)) if code & 1 else (2 << (code >> 1)) - 1
            memo[key] = mask
            return mask
        full = (1 << (code >> 1)) if code & 1 else (2 << (code >> 1)) - 1
        i = ((state & -state).bit_length() - 1) >> 1
        bit = 1 << (2 * i)
        second = (state >> 1) & bit
        left = state - ((second << 1) | (bit ^ second))
        mask = 0  # the moves that place the card first: a way to go out turns up sooner
        for t in self.templates[i]:
            if mask == full:
                break
            t_jokers, t_mask = t.jokers, t.mask
            if t_jokers > jokers or left & t_mask != t_mask:
                continue
            second = (left >> 1) & t_mask
            rest = left - ((second << 1) | (t_mask ^ second))
            remaining = jokers - t_jokers
            sub = memo.get(((rest << 3 | remaining) << 6) | code)
            mask |= sub if sub is not None else self._counts_code(rest, remaining, None, code)
        if code >= 2 and mask != full:  # the card stays in hand
            mask |= self._counts_code(left, jokers, None, code - 2 if code >= 4 else 0) << 1
        memo[key] = mask
        return mask

    def _counts_left_table(self, state: int, jokers: int, view: int, code: int) -> int:
        """The same with melds on the table (lay-offs change the table's view); memo keys
        as in ``_place_view``, with the code below."""
        memo = self._count_memo
        shift = self.shift
        key = ((((view << shift | state) << 3) | jokers) << 6) | code
        hit = memo.get(key)
        if hit is not None:
            return hit
        full = (1 << (code >> 1)) if code & 1 else (2 << (code >> 1)) - 1
        if not state:
            mask = 0
            for laid in room_counts(self.tables.capacity(view), jokers):
                mask |= 1 << (jokers - laid)
            if self.joker_only_melds and jokers >= 3:
                mask |= 1 << (jokers - 3)
            return mask & full
        i = ((state & -state).bit_length() - 1) >> 1
        entered_key = key
        if self.view_suit[view] != self.suit_of[i]:
            entered = self.tables.enter(view, state, i, jokers)
            if entered is None:
                memo[key] = mask = self._counts_code(state, jokers, None, code)
                return mask
            view = entered
            entered_key = ((((view << shift | state) << 3) | jokers) << 6) | code
            hit = memo.get(entered_key)
            if hit is not None:
                memo[key] = hit
                return hit
        settled, bare = self.tables.unsettled(view)
        if settled:  # lay lone jokers onto the settled room now, or never
            mask = 0
            for k in room_counts(settled, jokers):
                mask |= self._counts_left_table(state, jokers - k, bare, code)
            memo[key] = memo[entered_key] = mask
            return mask
        templates = self.templates[i]
        self._work += len(templates) + 1
        if self._work > MAX_TABLE_WORK:
            self._too_large()
        bit = 1 << (2 * i)
        second = (state >> 1) & bit
        left = state - ((second << 1) | (bit ^ second))
        base = view << shift
        mask = 0  # the moves that place the card first: a way to go out turns up sooner
        for t in templates:
            if mask == full:
                break
            t_jokers, t_mask = t.jokers, t.mask
            if t_jokers > jokers or left & t_mask != t_mask:
                continue
            second = (left >> 1) & t_mask
            rest = left - ((second << 1) | (t_mask ^ second))
            remaining = jokers - t_jokers
            sub = memo.get(((((base | rest) << 3) | remaining) << 6) | code)
            mask |= sub if sub is not None else self._counts_left_table(rest, remaining, view, code)
        if mask != full:
            moves = self.tables.moves(i, view)
            self._work += len(moves)
            for _, used, added, new_view, _ in moves:
                if added > jokers or left & used != used:
                    continue
                mask |= self._counts_left_table(take(left, used), jokers - added, new_view, code)
                if mask == full:
                    break
        if code >= 2 and mask != full:  # the card stays in hand
            mask |= self._counts_left_table(left, jokers, view, code - 2 if code >= 4 else 0) << 1
        memo[key] = memo[entered_key] = mask
        return mask

    def _out_arrangement(self, target: int) -> tuple[list[Meld], list[LayOffMove], list[Card]]:
        """Melds and lay-offs that leave exactly ``target`` cards in hand; when that is
        one card (the discard), the one with the lowest penalty (issue 12: ♣4, not ♣A)."""
        state, jokers, view = self.start_state, self.hand_jokers, self.view
        table = list(self.table)
        melds: list[Meld] = []
        layoffs: list[LayOffMove] = []
        leftover: list[Card] = []
        if target == 1:
            kept = self._cheapest_discard()
            assert kept is not None, "solve() asks for a discard only where one may be kept"
            if kept == JOKER:
                jokers -= 1
                leftover.append(Card.joker())
            else:
                state = take(state, 1 << (2 * kept))
                leftover.append(self.types[kept])
            target = 0
        while state:
            i = ((state & -state).bit_length() - 1) >> 1
            if view is not None:
                view = self.tables.enter(view, state, i, jokers)
            left = take(state, 1 << (2 * i))
            if target > 0 and self._counts_left(left, jokers, view, target - 1) >> (target - 1) & 1:
                leftover.append(self.types[i])
                state, target = left, target - 1
                continue
            for t in self.templates[i]:
                if t.jokers > jokers or left & t.mask != t.mask:
                    continue
                sub = take(left, t.mask)
                if self._counts_left(sub, jokers - t.jokers, view, target) >> target & 1:
                    melds.append(self.meld_of(t))
                    state, jokers = sub, jokers - t.jokers
                    break
            else:
                assert view is not None, "the mask promised a way"
                for _, used, added, new_view, move in self.tables.moves(i, view):
                    if added > jokers or left & used != used:
                        continue
                    sub = take(left, used)
                    if self._counts_left(sub, jokers - added, new_view, target) >> target & 1:
                        layoffs.append(self.tables.replay(table, move))
                        state, jokers, view = sub, jokers - added, new_view
                        break
                else:  # pragma: no cover - the mask promised a way
                    raise AssertionError("no arrangement leaves that many cards")
        extra = jokers - target
        capacity = self.tables.capacity(view) if view is not None else 0
        if not room_takes(capacity, extra):  # three jokers on their own
            extra -= 3
        layoffs += self.tables.joker_layoffs(table, extra)
        return melds, layoffs, leftover + [Card.joker()] * target

    def _cheapest_discard(self) -> int | None:
        """The card type (JOKER: a joker) with the lowest penalty whose keeping lets the
        rest of the hand be laid out entirely; None when no card may be kept for that
        (a joker is never kept under ``discard_joker = false``, 003 "Joker abwerfen")."""
        state, jokers = self.start_state, self.hand_jokers
        keep: list[tuple[int, int]] = [
            (self.penalties[j], j) for j in range(len(self.types)) if self.start_counts[j]
        ]
        if jokers and self.rules.discard_joker:
            keep.append((self.rules.joker_penalty, JOKER))
        for _, j in sorted(keep):
            if j == JOKER:
                if self._counts_left(state, jokers - 1, self.view, 0) & 1:
                    return JOKER
            elif self._counts_left(take(state, 1 << (2 * j)), jokers, self.view, 0) & 1:
                return j
        return None

    def _ordinary_out(self) -> tuple[list[Meld], list[LayOffMove], Card | None] | None:
        """Going out at once as an ordinary first meld (000, ``hand_romme_empty_table``
        with melds already on the table): the melds from the hand reach the minimum
        (and hold a pure run where the rules ask), lay-offs only with first_meld_layoff.
        The melds, lay-offs and the cheapest discard, or None."""
        rules = self.rules
        need, need_pure = rules.first_meld_min, rules.first_meld_pure_run
        kinds = sorted(set(self.hand), key=lambda c: (penalty_value(c, rules), c.sort_key()))
        discards: list[Card | None] = [c for c in kinds if rules.discard_joker or not c.is_joker]
        if rules.out_without_discard:
            discards.append(None)
        state, jokers = self.start_state, self.hand_jokers
        for discard in discards:
            if discard is None:
                kept_state, kept_jokers = state, jokers
            elif discard.is_joker:
                kept_state, kept_jokers = state, jokers - 1
            else:
                kept_state, kept_jokers = take(state, 1 << (2 * self.index[discard])), jokers
            # First the quick question, without the minimum: can the rest all be laid?
            if (
                (kept_state or kept_jokers)
                and self._counts_left(kept_state, kept_jokers, self.view, 0) & 1
                and self._all_laid(kept_state, kept_jokers, self.view, need, need_pure)
            ):
                melds, layoffs = self._laid_arrangement(kept_state, kept_jokers, need, need_pure)
                return melds, layoffs, discard
        return None

    def _all_laid(self, state: int, jokers: int, view: int | None, need: int, need_pure: bool) -> bool:
        """Every remaining card can be laid, with melds worth ``need`` more points (and a
        pure run if ``need_pure``): ``_place`` for a hand that must go out, which never
        leaves a card and so looks at far fewer states."""
        if not need and not need_pure:
            return bool(self._counts_left(state, jokers, view, 0) & 1)
        if not state:
            return False
        i = ((state & -state).bit_length() - 1) >> 1
        if view is not None and self.view_suit[view] != self.suit_of[i]:
            view = self.tables.enter(view, state, i, jokers)
        key = (state * 8 + jokers, view, need, need_pure)
        known = self._laid_memo.get(key)
        if known is not None:
            return known
        if self._worth_of(state, jokers) < need:  # the cards cannot reach the minimum
            self._laid_memo[key] = False
            return False
        self._work += len(self.templates[i]) + 1
        if self._work > MAX_TABLE_WORK:
            self._too_large()
        left = take(state, 1 << (2 * i))
        found = any(
            self._all_laid(
                take(left, t.mask),
                jokers - t.jokers,
                view,
                max(0, need - t.value),
                need_pure and not t.pure_run,
            )
            for t, _ in self._value_moves[i]
            if t.jokers <= jokers and left & t.mask == t.mask
        )
        if not found and view is not None:
            found = any(
                self._all_laid(take(left, mask), jokers - added, new_view, need, need_pure)
                for _, mask, added, new_view, _ in self.tables.moves(i, view)
                if added <= jokers and left & mask == mask
            )
        self._laid_memo[key] = found
        return found

    def _laid_arrangement(
        self, state: int, jokers: int, need: int, need_pure: bool
    ) -> tuple[list[Meld], list[LayOffMove]]:
        """The melds and lay-offs ``_all_laid`` found, replayed from the start."""
        view = self.view
        table = list(self.table)
        melds: list[Meld] = []
        layoffs: list[LayOffMove] = []
        while state:
            i = ((state & -state).bit_length() - 1) >> 1
            if view is not None:
                view = self.tables.enter(view, state, i, jokers)
            left = take(state, 1 << (2 * i))
            for t in self.templates[i]:
                if t.jokers > jokers or left & t.mask != t.mask:
                    continue
                rest, more = take(left, t.mask), max(0, need - t.value)
                more_pure = need_pure and not t.pure_run
                if self._all_laid(rest, jokers - t.jokers, view, more, more_pure):
                    melds.append(self.meld_of(t))
                    state, jokers, need, need_pure = rest, jokers - t.jokers, more, more_pure
                    break
            else:
                assert view is not None, "_all_laid promised a way"
                for _, mask, added, new_view, move in self.tables.moves(i, view):
                    if added > jokers or left & mask != mask:
                        continue
                    rest = take(left, mask)
                    if self._all_laid(rest, jokers - added, new_view, need, need_pure):
                        layoffs.append(self.tables.replay(table, move))
                        state, jokers, view = rest, jokers - added, new_view
                        break
                else:  # pragma: no cover - _all_laid promised a way
                    raise AssertionError("no way to lay every card")
        capacity = self.tables.capacity(view) if view is not None else 0
        extra = jokers
        if not room_takes(capacity, extra):  # three jokers on their own
            extra -= 3
        layoffs += self.tables.joker_layoffs(table, extra)
        return melds, layoffs

    def _too_large(self) -> None:
        cards = sum(self.start_counts) + self.hand_jokers
        raise HandTooLarge(
            ngettext(
                "this hand of %(cards)d cards with %(melds)d table meld needs more than the %(work)s "
                "moves best tries",
                "this hand of %(cards)d cards with %(melds)d table melds needs more than the %(work)s "
                "moves best tries",
                len(self.table),
            )
            % {"cards": cards, "melds": len(self.table), "work": grouped(MAX_TABLE_WORK)}
        )

    # -- all three ------------------------------------------------------------------------

    def max_meld_value(self) -> tuple[int, int]:
        """(a): the highest meld value, and the highest that includes a pure run
        (NEG unless ``first_meld_pure_run``: only then is it tracked)."""
        if not self.track_pure:
            state, jokers = self.start_state, self.hand_jokers
            return self._value_bound(state, jokers, -1, self._worth_of(state, jokers)), NEG
        result = self._value(self.start_state, self.hand_jokers)
        return result[0], result[1]

    def leftover_options(self, most: int = 1) -> int:
        """(c): bit n is set when the hand can be laid down leaving n cards, for n up to
        ``most`` (going out needs 0 or 1; the tests ask for every n)."""
        return self._counts_left(self.start_state, self.hand_jokers, self.view, most)

    def can_go_out(self) -> bool:
        """(c) as the rules ask it: the hand can be laid down keeping one card to discard
        (or none, with ``out_without_discard``); as solve() answers it, ordinary going out
        (hand_romme_empty_table) and a Hand-Rommé with lay-offs (hand_romme_layoff) included."""
        if self._ordinary():
            return self._ordinary_out() is not None
        return self._out_solver()._going_out_target() >= 0

    def _ordinary(self) -> bool:
        """000: with melds on the table, going out at once is no Hand-Rommé but an ordinary
        going out (hand_romme_empty_table)."""
        return not self.came_out and bool(self.melds_on_table) and self.rules.hand_romme_empty_table

    def _out_solver(self) -> Solver:
        """The solver that judges going out: this one, or (002, hand_romme_layoff) one that
        may lay off onto the table as if come out."""
        rules = self.rules
        if (
            not self.came_out
            and self.melds_on_table
            and rules.hand_romme_layoff
            and not rules.first_meld_layoff
        ):
            return Solver(
                self.hand,
                rules,
                self.melds_on_table,
                came_out=True,
                meld_filter=self.meld_filter,
                joker_only_melds=self.joker_only_melds,
                bounded=self.bounded,
            )
        return self

    def _going_out_target(self) -> int:
        """How many cards going out keeps: 1 (the discard), 0 (out_without_discard), or -1
        when the hand cannot go out. Each count is searched only until it is found."""
        state, jokers, view = self.start_state, self.hand_jokers, self.view
        if self._counts_left(state, jokers, view, 1, only=True) and self._cheapest_discard() is not None:
            return 1
        if self.rules.out_without_discard and self._counts_left(state, jokers, view, 0) & 1:
            return 0
        return -1

    def min_leftover_penalty(self) -> int:
        """(b) without the first-meld condition: the least penalty left in hand."""
        total = (
            sum(self.penalties[i] * n for i, n in enumerate(self.start_counts))
            + self.hand_jokers * self.rules.joker_penalty
        )
        return total - self._place(self.start_state, self.hand_jokers, self.view, 0, False)

    def solve(self) -> Best:
        rules = self.rules
        best_any, best_pure = self.max_meld_value()
        reach = best_pure if rules.first_meld_pure_run else best_any
        first_ok = reach >= rules.first_meld_min
        value_melds = tuple(
            self._value_arrangement(pure=rules.first_meld_pure_run and first_ok and best_pure == best_any)
        )

        ordinary = self._ordinary()
        out_melds: tuple[Meld, ...] = ()
        out_layoffs: tuple[LayOffMove, ...] = ()
        discard = None
        if ordinary:
            found = self._ordinary_out()
            can_go_out = found is not None
            if found is not None:
                out_melds, out_layoffs, discard = tuple(found[0]), tuple(found[1]), found[2]
        else:
            out = self._out_solver()
            out_target = out._going_out_target()
            can_go_out = out_target >= 0
            if can_go_out:
                m, lay, left = out._out_arrangement(out_target)
                out_melds, out_layoffs = tuple(m), tuple(lay)
                discard = left[0] if left else None
        hand_romme = can_go_out and not self.came_out and not ordinary

        all_cards = [c for c, n in zip(self.types, self.start_counts, strict=True) for _ in range(n)]
        all_cards += [Card.joker()] * self.hand_jokers
        total_penalty = sum(penalty_value(c, rules) for c in all_cards)
        need = 0 if self.came_out else rules.first_meld_min
        need_pure = (not self.came_out) and rules.first_meld_pure_run
        melds: list[Meld] = []
        layoffs: list[LayOffMove] = []
        leftover: list[Card] = list(all_cards)
        penalty = total_penalty
        out_left = [discard] if discard is not None else []
        out_penalty = sum(penalty_value(c, rules) for c in out_left)
        searched = (need == 0 and not need_pure) or first_ok
        if searched and can_go_out:
            # Going out leaves the discard: (b) searches only for something better.
            searched = self._reaches(
                self.start_state, self.hand_jokers, self.view, 0, False, total_penalty - out_penalty + 1
            )
        if searched:
            # The unconstrained optimum is also the constrained one when its melds
            # happen to make a first meld; only otherwise search with the minimum.
            placed = self._place(self.start_state, self.hand_jokers, self.view, 0, False)
            arrangement = self._place_arrangement(0, False)
            value = sum(m.value for m in arrangement[0])
            pure = any(m.kind == MeldKind.RUN and m.jokers == 0 for m in arrangement[0])
            if value < need or (need_pure and not pure):
                placed = self._place(self.start_state, self.hand_jokers, self.view, need, need_pure)
                arrangement = self._place_arrangement(need, need_pure)
            if placed > 0:
                melds, layoffs, leftover = arrangement
                penalty = total_penalty - placed
        # A hand that goes out at once needs no first-meld minimum (Hand-Rommé), or its
        # out arrangement already is a first meld (hand_romme_empty_table); after coming
        # out it is one of the arrangements (b) compares.
        if can_go_out and out_penalty < penalty:
            melds, layoffs, leftover = list(out_melds), list(out_layoffs), out_left
            penalty = out_penalty
        leftover.sort(key=Card.sort_key)
        return Best(
            best_any,
            value_melds,
            first_ok,
            tuple(melds),
            tuple(layoffs),
            tuple(leftover),
            penalty,
            can_go_out,
            out_melds,
            out_layoffs,
            discard,
            hand_romme,
            lone_joker_melds(layoffs, self.melds_on_table, rules),
            lone_joker_melds(out_layoffs, self.melds_on_table, rules),
        )


def solve(hand: Sequence[Card], rules: RuleSet, table: Sequence[Meld] = (), came_out: bool = False) -> Best:
    """Answer (a), (b) and (c) for a hand under the rules (see the package docstring)."""
    return Solver(hand, rules, table, came_out).solve()
