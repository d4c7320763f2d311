"""Settling 4-40 players: the fewest-transfers search, its time, memory and method.

    python benchmarks/settle.py          # RUNS instances per size and kind (default 7)

Two kinds of nets per size:

- random: each player's total drawn from 0-600 points, settled at 0.001 per
  point in cents (``settle``), so many nets are small and close together;
- groups: the exact search's worst case, zero-sum triples of distinct random
  amounts (the most groups a table without equal-and-opposite pairs can have,
  so the most levels to search), the players left over as one group.

Each row: the median and the largest wall time of ``plan_transfers`` over the
instances (each timed once, without tracemalloc), the largest peak memory
(tracemalloc, in a second run), how many ran the exact search (the others the
heuristic), how many results were proven minimal, the median number of
transfers and, where the exact search ran, how many more the heuristic alone
(``exact_limit=0``) made at most. The exact search runs up to ``EXACT_LIMIT``
players left after cancelling equal-and-opposite pairs, so a larger table with
such pairs may still be searched exactly.
"""

from __future__ import annotations

import os
import random
import statistics
import time
import tracemalloc
from decimal import Decimal

from romme_score.settlement import EXACT_LIMIT, nets, plan_transfers, round_to_unit

RUNS = int(os.environ.get("RUNS", "7"))
SIZES = (4, 8, 12, 16, 18, 20, 21, 22, 23, 24, 28, 32, 40)


def random_nets(n: int, rnd: random.Random) -> dict[str, int]:
    """Nets in cents of an evening at 0.001 per point, as ``settle`` computes them."""
    totals = {f"P{i:02d}": rnd.randint(0, 600) for i in range(n)}
    unit = Decimal("0.01")
    exact = {name: net * Decimal("0.001") for name, net in nets(totals).items()}
    amounts, _ = round_to_unit(exact, unit)
    return {name: int(amount / unit) for name, amount in amounts.items()}


def group_nets(n: int, rnd: random.Random) -> dict[str, int]:
    """Zero-sum triples of distinct amounts; the last 3-5 players form one group."""
    values: list[int] = []
    while len(values) + 3 <= n - 3 or len(values) + 3 == n:
        a, b = rnd.randint(1, 10**6), rnd.randint(1, 10**6)
        values += [a, b, -a - b]
    rest = [rnd.randint(1, 10**6) for _ in range(n - len(values) - 1)]
    values += rest + [-sum(rest)]
    rnd.shuffle(values)
    return {f"P{i:02d}": v for i, v in enumerate(values)}


def main() -> None:
    print(f"plan_transfers, {RUNS} instances per row; exact up to EXACT_LIMIT = {EXACT_LIMIT} players")
    header = (
        f"{'players':>7}  {'kind':<7} {'median ms':>10} {'max ms':>9} {'peak MB':>8}  "
        f"{'exact':>5}  {'minimal':>7}  {'transfers':>9}  {'heuristic':>9}"
    )
    print(header)
    print("-" * len(header))
    worst: dict[str, tuple[float, int, str]] = {}  # method: slowest time, its peak, where
    for n in SIZES:
        for kind, make in (("random", random_nets), ("groups", group_nets)):
            rnd = random.Random(n * 1000 + len(kind))
            times, peaks, exact, proven, counts, extra = [], [], 0, 0, [], []
            for _ in range(RUNS):
                balances = make(n, rnd)
                start = time.perf_counter()
                plan = plan_transfers(balances)
                elapsed = (time.perf_counter() - start) * 1000
                tracemalloc.start()
                plan_transfers(balances)
                peak = tracemalloc.get_traced_memory()[1]
                tracemalloc.stop()
                times.append(elapsed)
                peaks.append(peak)
                exact += plan.method == "exact"
                proven += plan.minimal
                counts.append(len(plan.transfers))
                if plan.method == "exact":
                    extra.append(len(plan_transfers(balances, exact_limit=0).transfers) - len(plan.transfers))
                if elapsed > worst.get(plan.method, (0.0, 0, ""))[0]:
                    worst[plan.method] = (elapsed, peak, f"{n} players, {kind}")
            print(
                f"{n:>7}  {kind:<7} {statistics.median(times):>10.2f} {max(times):>9.2f} "
                f"{max(peaks) / 1e6:>8.2f}  {exact:>5}  {proven:>3}/{RUNS:<3}  "
                f"{statistics.median(counts):>9g}  {f'+{max(extra)}' if extra else '':>9}",
                flush=True,
            )
    for method, (ms, peak, where) in sorted(worst.items()):
        print(f"slowest {method}: {ms:.1f} ms, its peak {peak / 1e6:.1f} MB ({where})")


if __name__ == "__main__":
    main()
