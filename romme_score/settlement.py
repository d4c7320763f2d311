"""The end-of-evening settlement (RULES.md §8, 002 section 6).

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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_FLOOR, Decimal

from romme_score.errors import InputProblem


class SettlementError(InputProblem):
    """Totals or a rate that cannot be settled."""


@dataclass(frozen=True)
class PlayerResult:
    name: str
    total: int
    net: int
    amount: Decimal
    place: int


@dataclass(frozen=True)
class Pair:
    winner: str  # fewer points: receives
    loser: str
    points: int


@dataclass(frozen=True)
class Transfer:
    payer: str
    payee: str
    amount: Decimal


@dataclass(frozen=True)
class Settlement:
    players: tuple[PlayerResult, ...]
    pairs: tuple[Pair, ...]
    transfers: tuple[Transfer, ...]
    rate: Decimal | None  # None when the games were played at different rates
    unit: Decimal
    rounding_note: str | None


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
        for b in names[i + 1:]:
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
            note = (f"amounts rounded to {unit}; the {short} unit{'s' if short != 1 else ''} "
                    f"left over by rounding down went to the largest remainders: "
                    f"{', '.join(bumped)}")
        else:
            note = f"amounts rounded to {unit}"
    return {name: floors[name] * unit for name in exact}, note


def min_transfers(balances: Mapping[str, int]) -> list[tuple[str, str, int]]:
    """Fewest transfers that settle integer balances (positive receives) exactly.

    The minimum is ``n - k`` where ``k`` is the largest number of disjoint groups
    that each sum to zero; found by dynamic programming over subsets (exact, and
    instant for the 12 players of a long evening).
    """
    names = sorted(n for n in balances if balances[n] != 0)
    n = len(names)
    values = [balances[x] for x in names]
    if sum(values) != 0:
        raise SettlementError("balances do not sum to zero")
    size = 1 << n
    sums = [0] * size
    for mask in range(1, size):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + values[low]
    # best[mask]: the most zero-sum prefixes of an ordering of mask's members, which
    # is the most disjoint zero-sum groups mask splits into (O(2^n * n)).
    best = [0] * size
    last = [0] * size
    for mask in range(1, size):
        top, pick = -1, 0
        bits = mask
        while bits:
            bit = bits & -bits
            bits ^= bit
            if best[mask ^ bit] > top:
                top, pick = best[mask ^ bit], bit
        best[mask] = top + (1 if sums[mask] == 0 else 0)
        last[mask] = pick
    # Walk the ordering back; a zero-sum prefix closes a group.
    groups = []
    mask = size - 1
    group = 0
    while mask:
        if sums[mask] == 0 and group:
            groups.append(group)
            group = 0
        bit = last[mask]
        group |= bit
        mask ^= bit
    if group:
        groups.append(group)
    transfers: list[tuple[str, str, int]] = []
    for group in groups:
        members = [i for i in range(n) if group >> i & 1]
        payers = sorted(((-values[i], names[i]) for i in members if values[i] < 0), reverse=True)
        payees = sorted(((values[i], names[i]) for i in members if values[i] > 0), reverse=True)
        debts = [amt for amt, _ in payers]
        credits = [amt for amt, _ in payees]
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
    transfers.sort(key=lambda t: (-t[2], t[0], t[1]))
    return transfers


def check_totals(totals: Mapping[str, int]) -> None:
    if len(totals) < 2:
        raise SettlementError("a settlement needs at least two players")
    for name, total in totals.items():
        if isinstance(total, bool) or not isinstance(total, int) or total < 0:
            raise SettlementError(f"{name}={total}: a total is a whole number of points, 0 or more")


def settle(totals: Mapping[str, int], rate: Decimal, unit: Decimal = Decimal("0.01")) -> Settlement:
    """The whole settlement of one game's totals at ``rate`` money per point."""
    return settle_games([totals], [rate], unit)


def settle_games(games: Sequence[Mapping[str, int]], rates: Sequence[Decimal],
                 unit: Decimal = Decimal("0.01")) -> Settlement:
    """Settle an evening of several games: each game pairwise among its own players.

    A player settles only the games they played; nets, pairs and money add up
    over the games.
    """
    if not games:
        raise SettlementError("nothing to settle")
    if unit <= 0:
        raise SettlementError(f"the unit {unit} must be more than 0")
    names: list[str] = []
    total: dict[str, int] = {}
    net: dict[str, int] = {}
    exact: dict[str, Decimal] = {}
    pair_points: dict[tuple[str, str], int] = {}
    for totals, rate in zip(games, rates, strict=True):
        check_totals(totals)
        if rate < 0:
            raise SettlementError(f"the rate {rate} is negative")
        game_net = nets(totals)
        for name in totals:
            if name not in total:
                names.append(name)
                total[name], net[name], exact[name] = 0, 0, Decimal(0)
            total[name] += totals[name]
            net[name] += game_net[name]
            exact[name] += game_net[name] * rate
        keys = list(totals)
        for i, a in enumerate(keys):
            for b in keys[i + 1:]:
                key = (a, b) if names.index(a) < names.index(b) else (b, a)
                # points the first of the pair receives from the second
                pair_points[key] = pair_points.get(key, 0) + totals[key[1]] - totals[key[0]]
    amounts, note = round_to_unit(exact, unit)
    in_units = {name: int(amounts[name] / unit) for name in names}
    transfers = tuple(Transfer(payer, payee, units * unit)
                      for payer, payee, units in min_transfers(in_units))
    place = {name: 1 + sum(1 for other in names if net[other] > net[name]) for name in names}
    players = tuple(PlayerResult(name, total[name], net[name], amounts[name], place[name])
                    for name in names)
    pair_list = tuple(Pair(a, b, pts) if pts >= 0 else Pair(b, a, -pts)
                      for (a, b), pts in pair_points.items())
    return Settlement(players, pair_list, transfers, rates[0] if len(set(rates)) == 1 else None,
                      unit, note)


CURRENCY_SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£", "CHF": "CHF", "JPY": "¥", "DKK": "kr",
                    "SEK": "kr", "NOK": "kr", "PLN": "zł", "CZK": "Kč", "DM": "DM"}


def format_money(amount: Decimal, currency: str | None, profile: str = "de",
                 unit: Decimal = Decimal("0.01")) -> str:
    """An amount with its currency: ``0,33 €`` in ``de``, ``€0.33`` in ``en``.

    >>> format_money(Decimal("-1234.5"), "EUR", "de")
    '-1.234,50 €'
    >>> format_money(Decimal("0.33"), "EUR", "en")
    '€0.33'
    """
    exponent = unit.as_tuple().exponent
    places = max(0, -exponent) if isinstance(exponent, int) else 2
    sign = "-" if amount < 0 else ""
    text = f"{abs(amount):,.{places}f}"
    if profile == "de":
        text = text.replace(",", "\0").replace(".", ",").replace("\0", ".")
    code = (currency or "").upper()
    symbol = CURRENCY_SYMBOLS.get(code, code)
    if not symbol:
        return f"{sign}{text}"
    if profile == "de" or len(symbol) > 1:
        return f"{sign}{text} {symbol}"
    return f"{sign}{symbol}{text}"
