"""The end-of-evening settlement (docs/rules.md §8, 002 section 6).

Every pair of players settles the difference of their totals; a player's net
is ``sum_j (total_j - total_i)``; money is the net times the value of a point,
rounded to the currency's smallest unit so that the amounts still sum to zero.

>>> s = settle({"A": 220, "B": 360, "C": 140, "D": 490}, Decimal("0.001"))
>>> [(p.name, p.net, str(p.amount)) for p in s.players]
[('A', 330, '0.33'), ('B', -230, '-0.23'), ('C', 650, '0.65'), ('D', -750, '-0.75')]
>>> [(t.payer, t.payee, str(t.amount)) for t in s.transfers]
[('D', 'C', '0.65'), ('B', 'A', '0.23'), ('D', 'A', '0.10')]
"""

from __future__ import annotations

import bisect
import heapq
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from decimal import ROUND_FLOOR, Decimal
from typing import Literal, NamedTuple

from romme_score.errors import InputProblem
from romme_score.i18n import _


class SettlementError(InputProblem):
    """Totals or a rate that cannot be settled."""


class TooFewPlayers(SettlementError):
    """A game of fewer than two ``players`` to settle."""

    code = "settlement"  # as every settlement error's before it

    def __init__(self, players: int) -> None:
        super().__init__(_("a settlement needs at least two players"))
        self.players = players


class PlayerResult(NamedTuple):
    name: str
    total: int
    net: int
    amount: Decimal
    place: int


class Pair(NamedTuple):
    winner: str  # fewer points: receives
    loser: str
    points: int


class Transfer(NamedTuple):
    payer: str
    payee: str
    amount: Decimal


class Settlement(NamedTuple):
    players: tuple[PlayerResult, ...]
    pairs: tuple[Pair, ...]
    transfers: tuple[Transfer, ...]
    rate: Decimal | None  # None when the games were played at different rates
    unit: Decimal
    rounding_note: str | None
    transfers_minimal: bool  # proven the fewest possible (always, up to EXACT_LIMIT players)


def nets(totals: Mapping[str, int]) -> dict[str, int]:
    """``net_i = sum_j (total_j - total_i)`` = sum of all totals - n * total_i."""
    whole = sum(totals.values())
    n = len(totals)
    return {name: whole - n * total for name, total in totals.items()}


def pairs(totals: Mapping[str, int]) -> list[Pair]:
    """Every pair once, in the players' order; the one with fewer points receives."""
    names = list(totals)
    out = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            if totals[a] <= totals[b]:
                out.append(Pair(a, b, totals[b] - totals[a]))
            else:
                out.append(Pair(b, a, totals[a] - totals[b]))
    return out


def round_to_unit(exact: Mapping[str, Decimal], unit: Decimal) -> tuple[dict[str, Decimal], str | None]:
    """Largest-remainder rounding to whole units that keeps the sum exactly (zero).

    Each amount is first rounded down to a unit; the units still missing go to
    the largest remainders (ties by name, so the result never depends on order).
    """
    units = {name: (value / unit) for name, value in exact.items()}
    floors = {name: int(u.to_integral_value(rounding=ROUND_FLOOR)) for name, u in units.items()}
    target = sum(exact.values()) / unit
    if target != target.to_integral_value():
        raise SettlementError("the amounts do not sum to a whole number of units")
    short = int(target) - sum(floors.values())
    by_remainder = sorted(units, key=lambda n: (-(units[n] - floors[n]), n))
    bumped = by_remainder[:short]
    for name in bumped:
        floors[name] += 1
    note = None
    if any(units[n] != floors[n] for n in units):
        if bumped:
            note = (
                f"amounts rounded to {unit}; the {short} unit{'s' if short != 1 else ''} "
                f"left over by rounding down went to the largest remainders: "
                f"{', '.join(bumped)}"
            )
        else:
            note = f"amounts rounded to {unit}"
    return {name: floors[name] * unit for name in exact}, note


EXACT_LIMIT = 22
"""The most players the exact fewest-transfers search takes on, counted after the
players with a zero balance and the equal-and-opposite pairs are set aside (so
every settlement of up to 22 players is exact). Its cost doubles with each
player: at 22 it holds about 17 MB (sets of 2**22 bits) and takes 0.1-0.4 s on
a busy 2-core machine (``benchmarks/settle.py``); above it :func:`plan_transfers`
settles by a heuristic in milliseconds."""

SEARCH_BUDGET = 20_000
"""Pairs the heuristic's search for zero-sum groups of three and four may look at."""


class TransferPlan(NamedTuple):
    """Who pays whom (amounts in whole units), and whether that is proven the fewest."""

    transfers: tuple[tuple[str, str, int], ...]
    minimal: bool  # proven the fewest possible
    method: Literal["exact", "heuristic"]


def plan_transfers(balances: Mapping[str, int], exact_limit: int = EXACT_LIMIT) -> TransferPlan:
    """Transfers that settle integer balances (positive receives) exactly, the fewest when provable.

    The fewest is ``n - k`` for the ``n`` non-zero balances, where ``k`` is the
    largest number of disjoint groups that each sum to zero. Up to
    ``exact_limit`` players (after :func:`_cancel_pairs`) the search is exact;
    above it zero-sum groups of two to four are set aside and the rest settled
    greedily, marked minimal only when it meets the bound of :func:`_group_bound`.

    >>> plan = plan_transfers({"A": 330, "B": -230, "C": 650, "D": -750})
    >>> plan.transfers, plan.minimal
    ((('D', 'C', 650), ('B', 'A', 230), ('D', 'A', 100)), True)
    """
    names = sorted(n for n in balances if balances[n] != 0)
    if sum(balances[n] for n in names) != 0:
        raise SettlementError("balances do not sum to zero")
    members = [(name, balances[name]) for name in names]
    pairs_found, rest = _cancel_pairs(members)
    transfers: list[tuple[str, str, int]] = []
    for group in pairs_found:
        transfers += _settle_group(group)
    method: Literal["exact", "heuristic"]
    if len(rest) <= exact_limit:
        for group in _max_zero_sum_groups(rest):
            transfers += _settle_group(group)
        minimal, method = True, "exact"
    else:
        groups, left = _small_groups(rest)
        for group in groups:
            transfers += _settle_group(group)
        transfers += _greedy(left)
        bound = len(pairs_found) + _group_bound(rest)
        minimal, method = len(transfers) == len(names) - bound, "heuristic"
    transfers.sort(key=lambda t: (-t[2], t[0], t[1]))
    return TransferPlan(tuple(transfers), minimal, method)


def min_transfers(balances: Mapping[str, int]) -> list[tuple[str, str, int]]:
    """The fewest transfers that settle integer balances; refused when that is not proven,
    which can only happen above :data:`EXACT_LIMIT` players.

    >>> min_transfers({"A": 5, "B": -5, "C": 2, "D": 1, "E": -3})
    [('B', 'A', 5), ('E', 'C', 2), ('E', 'D', 1)]
    """
    plan = plan_transfers(balances)
    if not plan.minimal:
        raise SettlementError(
            _("more than %(limit)d players to settle: the fewest transfers are not proven")
            % {"limit": EXACT_LIMIT}
        )
    return list(plan.transfers)


Member = tuple[str, int]


def _cancel_pairs(members: list[Member]) -> tuple[list[list[Member]], list[Member]]:
    """Set aside equal-and-opposite pairs (``+a`` and ``-a``) as groups of their own.

    Safe: in a best partition with ``+a`` in group ``G1`` and ``-a`` in ``G2``,
    either ``G1 == G2`` is just the pair (a larger group would split in two), or
    ``G1 - {+a}`` and ``G2 - {-a}`` sum to ``-a`` and ``+a``, so swapping gives
    ``{+a, -a}`` and their union: as many groups. Equal amounts pair in name order.
    """
    waiting: defaultdict[int, list[Member]] = defaultdict(list)
    found: list[list[Member]] = []
    for member in members:
        partners = waiting.get(-member[1])
        if partners:
            found.append([partners.pop(0), member])
        else:
            waiting[member[1]].append(member)
    paired = {name for group in found for name, _ in group}
    return found, [m for m in members if m[0] not in paired]


def _group_bound(rest: list[Member]) -> int:
    """At most this many zero-sum groups once the pairs are gone: each has three members
    or more, and at least one payer and one payee."""
    payers = sum(1 for _, v in rest if v < 0)
    return min(len(rest) // 3, payers, len(rest) - payers)


def _max_zero_sum_groups(rest: list[Member]) -> list[list[Member]]:
    """The most disjoint zero-sum groups ``rest`` splits into (exact).

    Sets of players are bits of a ``2**n``-bit integer. ``level[j]`` holds the
    zero-sum sets that split into ``j`` zero-sum groups or more; a set is in
    ``level[j+1]`` when it is in ``level[j]`` and, without its last player, still
    holds a set of ``level[j]`` (the group of the last player is the rest). "Holds
    a set of" is the bitwise zeta transform, ``n`` shifts of the whole integer.
    Only half the levels are built: ``a + b`` groups exist when a set of
    ``level[a]`` leaves a set of ``level[b]`` (the complement of a zero-sum set is
    zero-sum), and an optimum of ``k <= 2 * half`` groups splits that way.
    """
    n = len(rest)
    if n == 0:
        return []
    size, full = 1 << n, (1 << n) - 1
    keep = [_without_bit(i, n) for i in range(n)]  # keep[i]: the sets without player i
    levels = [_zero_sum_sets([v for _, v in rest]) ^ 1]  # level 1; the empty set is no group
    ups: list[int] = []  # ups[j - 1]: the sets that hold a set of level j
    bound = _group_bound(rest)
    while len(levels) < (bound + 1) // 2:
        up = levels[-1]
        for i in range(n):
            up |= (up & keep[i]) << (1 << i)
        without_last = 0  # bit s: up holds s without its last (highest) player
        for i in range(n):
            without_last |= (up & ((1 << (1 << i)) - 1)) << (1 << i)
        following = levels[-1] & without_last
        if not following:
            break
        ups.append(up)
        levels.append(following)
    del keep
    complements: dict[int, int] = {}  # level b, mirrored: bit s set when the complement of s is in it
    for total in range(min(bound, 2 * len(levels)), 1, -1):
        for a in range(max(1, total - len(levels)), total // 2 + 1):
            b = total - a
            if b not in complements:
                complements[b] = _mirrored(levels[b - 1], size)
            both = levels[a - 1] & complements[b]
            if both:
                first = (both & -both).bit_length() - 1
                masks = _groups_of(first, a, levels, ups, size) + _groups_of(
                    full ^ first, b, levels, ups, size
                )
                return [[rest[i] for i in range(n) if mask >> i & 1] for mask in masks]
    return [rest]


def _groups_of(current: int, level: int, levels: list[int], ups: list[int], size: int) -> list[int]:
    """The ``level`` zero-sum groups that set ``current`` of ``levels[level - 1]`` splits into.

    From a set of level j, drop its last player, then players one by one while a
    set of level j - 1 stays inside, until the set itself is of level j - 1. What
    was dropped is one group (a minimal one, or the whole would split into more
    groups than the most found).
    """
    groups: list[int] = []
    for j in range(level, 1, -1):
        below = levels[j - 2].to_bytes(size // 8, "little")
        up = ups[j - 2].to_bytes(size // 8, "little")
        inside = current ^ (1 << (current.bit_length() - 1))
        while not below[inside >> 3] >> (inside & 7) & 1:
            bits = inside
            while bits:
                bit = bits & -bits
                bits ^= bit
                if up[(inside ^ bit) >> 3] >> ((inside ^ bit) & 7) & 1:
                    inside ^= bit
                    break
            else:  # pragma: no cover - the levels promise a way down
                raise AssertionError("no zero-sum subset found on the way down")
        groups.append(current ^ inside)
        current = inside
    groups.append(current)
    return groups


_BIT_REVERSED = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))


def _mirrored(sets: int, size: int) -> int:
    """Bit ``s`` of the result is bit ``size - 1 - s`` of ``sets``: each set for its complement."""
    raw = sets.to_bytes(size // 8, "little")[::-1].translate(_BIT_REVERSED)
    return int.from_bytes(raw, "little")


def _without_bit(i: int, n: int) -> int:
    """The ``2**n``-bit integer whose bit ``s`` is set when set ``s`` lacks player ``i`` (``n >= 3``)."""
    step, size = 1 << i, 1 << n
    if step >= 8:
        raw = (b"\xff" * (step // 8) + bytes(step // 8)) * (size // (2 * step))
    else:
        byte = sum(1 << b for b in range(8) if not b & step)
        raw = bytes([byte]) * (size // 8)
    return int.from_bytes(raw, "little")


def _zero_sum_sets(values: list[int]) -> int:
    """The ``2**n``-bit integer whose bit ``s`` is set when the players of set ``s`` sum to 0.

    Meet in the middle: the sums of the low half's sets are grouped by value once,
    then each set of the high half picks the low sets that cancel it.
    """
    n = len(values)
    low_n = min(n, max(3, (n + 1) // 2))
    low_sums = _subset_sums(values[:low_n])
    by_sum: dict[int, int] = {}
    for s, total in enumerate(low_sums):
        by_sum[total] = by_sum.get(total, 0) | (1 << s)
    width = (1 << low_n) // 8
    blocks = {total: bits.to_bytes(width, "little") for total, bits in by_sum.items()}
    nothing = bytes(width)
    joined = b"".join(blocks.get(-total, nothing) for total in _subset_sums(values[low_n:]))
    return int.from_bytes(joined, "little")


def _subset_sums(values: list[int]) -> list[int]:
    """``sums[s]``: the sum of the values in set ``s`` (bit ``i`` = ``values[i]``)."""
    sums = [0] * (1 << len(values))
    for s in range(1, len(sums)):
        low = (s & -s).bit_length() - 1
        sums[s] = sums[s & (s - 1)] + values[low]
    return sums


def _settle_group(group: list[Member]) -> list[tuple[str, str, int]]:
    """Largest payer to largest payee within one zero-sum group: ``len(group) - 1``
    transfers or fewer."""
    payers = sorted(((-v, name) for name, v in group if v < 0), reverse=True)
    payees = sorted(((v, name) for name, v in group if v > 0), reverse=True)
    debts = [amount for amount, _ in payers]
    credits = [amount for amount, _ in payees]
    transfers = []
    i = j = 0
    while i < len(debts) and j < len(credits):
        amount = min(debts[i], credits[j])
        transfers.append((payers[i][1], payees[j][1], amount))
        debts[i] -= amount
        credits[j] -= amount
        if debts[i] == 0:
            i += 1
        if credits[j] == 0:
            j += 1
    return transfers


def _small_groups(rest: list[Member], budget: int = SEARCH_BUDGET) -> tuple[list[list[Member]], list[Member]]:
    """Disjoint zero-sum groups of three, then of four, taken greedily in order.

    Each of the two searches looks at no more than ``budget`` pairs of players,
    and at a few candidates for each (used ones leave the lists for good), so
    time and memory stay bounded whatever the number of players.
    """
    used = [False] * len(rest)
    groups: list[list[int]] = []
    where: dict[int, list[int]] = {}  # amount: the players who have it
    for i, (_name, v) in enumerate(rest):
        if v in where:
            where[v].append(i)
        else:
            where[v] = [i]
    for i, j in _pairs_within(used, budget):
        players = where.get(-rest[i][1] - rest[j][1])
        while players and used[players[-1]]:
            players.pop()
        third = next((k for k in (players or [])[-3:] if k != i and k != j and not used[k]), None)
        if third is not None:
            groups.append([i, j, third])
            used[i] = used[j] = used[third] = True
    pair_sums: dict[int, list[tuple[int, int]]] = {}  # sum: the pairs that have it
    for i, j in _pairs_within(used, budget):
        total = rest[i][1] + rest[j][1]
        partners = pair_sums.get(-total)
        while partners and (used[partners[-1][0]] or used[partners[-1][1]]):
            partners.pop()
        other = next(
            (
                pair
                for pair in (partners or [])[-8:]
                if not ({i, j} & set(pair) or used[pair[0]] or used[pair[1]])
            ),
            None,
        )
        if other is not None:
            groups.append([*other, i, j])
            used[i] = used[j] = used[other[0]] = used[other[1]] = True
        elif total in pair_sums:
            pair_sums[total].append((i, j))
        else:
            pair_sums[total] = [(i, j)]
    left = [rest[i] for i in range(len(rest)) if not used[i]]
    return [[rest[i] for i in sorted(group)] for group in groups], left


def _pairs_within(used: list[bool], budget: int) -> Iterator[tuple[int, int]]:
    """Pairs ``i < j`` of players not yet used (checked as they come), at most ``budget``."""
    free = [i for i, u in enumerate(used) if not u]
    for a, i in enumerate(free):
        if used[i]:
            continue
        for b in range(a + 1, len(free)):
            j = free[b]
            if used[i]:
                break
            if used[j]:
                continue
            if budget <= 0:
                return
            budget -= 1
            yield i, j


def _greedy(members: list[Member]) -> list[tuple[str, str, int]]:
    """Largest payer pays largest payee, settling at once any two whose amounts match
    exactly; ``len(members) - 1`` transfers or fewer, in ``O(n log n)``."""
    owe = {name: -v for name, v in members if v < 0}
    due = {name: v for name, v in members if v > 0}
    owe_heap = [(-a, name) for name, a in owe.items()]
    due_heap = [(-a, name) for name, a in due.items()]
    heapq.heapify(owe_heap)
    heapq.heapify(due_heap)
    owe_at: defaultdict[int, set[str]] = defaultdict(set)  # amount: who owes it
    due_at: defaultdict[int, set[str]] = defaultdict(set)
    for name, a in owe.items():
        owe_at[a].add(name)
    for name, a in due.items():
        due_at[a].add(name)
    transfers: list[tuple[str, str, int]] = []

    def largest(heap: list[tuple[int, str]], amounts: dict[str, int]) -> str:
        while -heap[0][0] != amounts.get(heap[0][1]):
            heapq.heappop(heap)  # a stale entry
        return heap[0][1]

    def change(
        name: str,
        amounts: dict[str, int],
        at: defaultdict[int, set[str]],
        heap: list[tuple[int, str]],
        paid: int,
    ) -> None:
        at[amounts[name]].discard(name)
        amounts[name] -= paid
        if amounts[name]:
            at[amounts[name]].add(name)
            heapq.heappush(heap, (-amounts[name], name))
        else:
            del amounts[name]

    def pay(payer: str, payee: str, amount: int) -> None:
        transfers.append((payer, payee, amount))
        change(payer, owe, owe_at, owe_heap, amount)
        change(payee, due, due_at, due_heap, amount)

    while owe:
        payer, payee = largest(owe_heap, owe), largest(due_heap, due)
        pay(payer, payee, min(owe[payer], due[payee]))
        for name, amounts, partners in ((payer, owe, due_at), (payee, due, owe_at)):
            if name in amounts and partners.get(amounts[name]):
                partner = min(partners[amounts[name]])
                if amounts is owe:
                    pay(name, partner, owe[name])
                else:
                    pay(partner, name, due[name])
                break
    return transfers


def check_totals(totals: Mapping[str, int]) -> None:
    if len(totals) < 2:
        raise TooFewPlayers(len(totals))
    for name, total in totals.items():
        if isinstance(total, bool) or not isinstance(total, int) or total < 0:
            raise SettlementError(
                _("%(player)s=%(total)s: a total is a whole number of points, 0 or more")
                % {"player": name, "total": total}
            )


def settle(totals: Mapping[str, int], rate: Decimal, unit: Decimal = Decimal("0.01")) -> Settlement:
    """The whole settlement of one game's totals at ``rate`` money per point."""
    return settle_games([totals], [rate], unit)


def settle_games(
    games: Sequence[Mapping[str, int]], rates: Sequence[Decimal], unit: Decimal = Decimal("0.01")
) -> Settlement:
    """Settle an evening of several games: each game pairwise among its own players.

    A player settles only the games they played; nets, pairs and money add up
    over the games.
    """
    if not games:
        raise SettlementError(_("nothing to settle"))
    if unit <= 0:
        raise SettlementError(_("the unit %(unit)s must be more than 0") % {"unit": unit})
    names: list[str] = []
    position: dict[str, int] = {}  # a player's place in names (first seen first)
    total: dict[str, int] = {}
    net: dict[str, int] = {}
    exact: dict[str, Decimal] = {}
    pair_points: dict[tuple[str, str], int] = {}
    for totals, rate in zip(games, rates, strict=True):
        check_totals(totals)
        if rate < 0:
            raise SettlementError(_("the rate %(rate)s is negative") % {"rate": rate})
        game_net = nets(totals)
        for name in totals:
            if name not in total:
                position[name] = len(names)
                names.append(name)
                total[name], net[name], exact[name] = 0, 0, Decimal(0)
            total[name] += totals[name]
            net[name] += game_net[name]
            exact[name] += game_net[name] * rate
        keys = list(totals)
        for i, a in enumerate(keys):
            for b in keys[i + 1 :]:
                key = (a, b) if position[a] < position[b] else (b, a)
                # points the first of the pair receives from the second
                pair_points[key] = pair_points.get(key, 0) + totals[key[1]] - totals[key[0]]
    amounts, note = round_to_unit(exact, unit)
    in_units = {name: int(amounts[name] / unit) for name in names}
    plan = plan_transfers(in_units)
    transfers = tuple(Transfer(payer, payee, units * unit) for payer, payee, units in plan.transfers)
    ascending = sorted(net.values())  # place: 1 + how many have a higher net
    place = {name: 1 + len(ascending) - bisect.bisect_right(ascending, net[name]) for name in names}
    players = tuple(PlayerResult(name, total[name], net[name], amounts[name], place[name]) for name in names)
    pair_list = tuple(
        Pair(a, b, pts) if pts >= 0 else Pair(b, a, -pts) for (a, b), pts in pair_points.items()
    )
    return Settlement(
        players, pair_list, transfers, rates[0] if len(set(rates)) == 1 else None, unit, note, plan.minimal
    )
