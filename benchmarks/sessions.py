"""Recording a round and printing standings: an empty session vs one of 10,000 rounds.

Each figure is the median wall time of several whole `romme` invocations (a new
process each time, as at the table). Run: `python benchmarks/sessions.py`.
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
from romme_score.scoring import Hand, RoundInput, replay
from romme_score.store import Store

ROUNDS = int(os.environ.get("ROUNDS", "10000"))
RUNS = int(os.environ.get("RUNS", "11"))
PLAYERS = ("Anna", "Ben", "Carl", "Dora")


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
            hands[p] = Hand(cards=tuple(deck[i * 10:i * 10 + size]))
        inputs.append(RoundInput(winner, hands, rnd.random() < 0.05))
    return inputs


def median_ms(args: list[str], env: dict[str, str]) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        done = subprocess.run(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True, check=False)
        times.append((time.perf_counter() - start) * 1000)
        if done.returncode:
            raise SystemExit(f"{' '.join(args)} failed: {done.stderr}")
    return statistics.median(times)


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    db = folder / "bench.sqlite3"
    rules = find_preset("standard").replace(game_end=GameEnd("open"))
    inputs = make_rounds(ROUNDS)
    print(f"building a session of {ROUNDS} rounds ...", flush=True)
    scores = replay(PLAYERS, rules, inputs)
    with Store(db) as store:
        store.import_session("big", PLAYERS, rules, None, None, 0, inputs, scores, overwrite=False)
        store.import_session("empty", PLAYERS, rules, None, None, 0, [], [], overwrite=False)
    env = {**os.environ, "ROMME_DB": str(db)}
    romme = [sys.executable, "-m", "romme_score"]
    record = ["round", "--winner", "Anna", "Ben=HK K10 J", "Carl=P7 P8", "Dora=23"]
    cases = [
        ("romme round", record),
        ("romme standings", ["standings"]),
        ("romme standings --json (all rounds)", ["standings", "--json"]),
        ("romme settle", ["settle"]),
    ]
    print(f"median wall time of {RUNS} runs each, in ms")
    print(f"{'command':38} {'empty':>8} {f'{ROUNDS} rounds':>14} {'difference':>11}")
    for label, args in cases:
        empty = median_ms([*romme, *args, "--session", "empty"], env)
        big = median_ms([*romme, *args, "--session", "big"], env)
        print(f"{label:38} {empty:8.1f} {big:14.1f} {big - empty:11.1f}")


if __name__ == "__main__":
    main()
