"""Recording a round, the standings, settlement and export: an empty session vs a long one.

Each figure is the median wall time of several whole `romme` invocations (a new
process each time, as at the table), with the child's peak memory (max RSS). The
last column is the cost per round of the long session: (long - empty) / rounds.
Run: `python benchmarks/sessions.py` (ROUNDS=100000 RUNS=5 by default).
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from romme_score.cards import full_deck
from romme_score.rules import GameEnd, find_preset
from romme_score.scoring import Hand, RoundInput
from romme_score.sessions import scored_rows
from romme_score.store import open_store

ROUNDS = int(os.environ.get("ROUNDS", "100000"))
RUNS = int(os.environ.get("RUNS", "5"))
PLAYERS = ("Anna", "Ben", "Carl", "Dora")
# Runs romme in this process and reports its own peak memory (VmHWM, in kB; unlike
# ru_maxrss it is not inherited from the forking parent) on stderr's last line.
PROBE = (
    "import sys\n"
    "from romme_score.cli import main\n"
    "def peak():\n"
    "    for line in open('/proc/self/status'):\n"
    "        if line.startswith('VmHWM:'):\n"
    "            return int(line.split()[1])\n"
    "    return 0\n"
    "try:\n"
    "    main(sys.argv[1:], prog_name='romme')\n"
    "finally:\n"
    "    print(peak(), file=sys.stderr)\n"
)


def make_rounds(n: int) -> list[RoundInput]:
    rnd = random.Random(7)
    deck = full_deck(2, 6)
    inputs = []
    for _ in range(n):
        rnd.shuffle(deck)
        winner = rnd.choice(PLAYERS)
        hands = {}
        for i, p in enumerate(q for q in PLAYERS if q != winner):
            size = rnd.randint(0, 8)
            hands[p] = Hand(cards=tuple(deck[i * 10 : i * 10 + size]))
        inputs.append(RoundInput(winner, hands, rnd.random() < 0.05))
    return inputs


RULES = find_preset("standard").replace(game_end=GameEnd("open"))


def measure(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Median wall time in ms and the largest peak memory in MB of RUNS runs."""
    times, peaks = [], []
    for _ in range(RUNS):
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", PROBE, *args],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
        times.append((time.perf_counter() - start) * 1000)
        if done.returncode:
            raise SystemExit(f"romme {' '.join(args)} failed: {done.stderr}")
        peaks.append(int(done.stderr.strip().splitlines()[-1]) / 1024)
    return statistics.median(times), max(peaks)


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:  # the session file goes with it
        run(Path(scratch))


def run(folder: Path) -> None:
    db = folder / "bench.sqlite3"
    print(f"building a session of {ROUNDS} rounds ...", flush=True)
    with open_store(db) as store:
        rows = scored_rows(PLAYERS, RULES, make_rounds(ROUNDS), "2026-11-30T20:00:00+00:00")
        store.write_session(
            "big", "2026-11-30T20:00:00+00:00", PLAYERS, RULES, None, None, 0, rows, (), (), overwrite=False
        )
        store.write_session(
            "empty", "2026-11-30T20:00:00+00:00", PLAYERS, RULES, None, None, 0, [], (), (), overwrite=False
        )
    env = {**os.environ, "ROMME_DB": str(db)}
    record = ["round", "--winner", "Anna", "Ben=HK K10 J", "Carl=P7 P8", "Dora=23"]
    out = str(folder / "out")
    cases = [
        ("romme round", record),
        ("romme standings", ["standings"]),
        ("romme standings --json (all rounds)", ["standings", "--json"]),
        ("romme export (JSON)", ["export", "-o", out]),
        ("romme export --format csv", ["export", "--format", "csv", "-o", out]),
        ("romme settle", ["settle"]),
    ]
    print(
        f"median wall time of {RUNS} runs each (ms), peak memory (MB); per round = (long - empty) / {ROUNDS}"
    )
    print(
        f"{'command':38} {'empty':>8} {f'{ROUNDS} rounds':>14} {'per round':>10} "
        f"{'MB empty':>9} {'MB long':>8}"
    )
    for label, args in cases:
        empty, empty_mb = measure([*args, "--session", "empty"], env)
        big, big_mb = measure([*args, "--session", "big"], env)
        per_round = (big - empty) / ROUNDS * 1000
        print(
            f"{label:38} {empty:8.1f} {big:14.1f} {per_round:8.2f}µs {empty_mb:9.1f} {big_mb:8.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
