"""``romme stats`` over 100 sessions of 200 rounds (issue 11): SQL aggregates against
loading every round into Python.

Figures are medians: of several calls in one process for the statistics themselves,
and of several whole ``romme stats`` invocations (a new process each, as at the
table). Run: ``python benchmarks/stats.py`` (SESSIONS, ROUNDS, RUNS to change the size).
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from romme_score.history import History, name_key
from romme_score.rules import GameEnd, find_preset
from romme_score.scoring import Hand, RoundInput
from romme_score.sessions import SessionService, scored_rows
from romme_score.store import open_store

SESSIONS = int(os.environ.get("SESSIONS", "100"))
ROUNDS = int(os.environ.get("ROUNDS", "200"))
RUNS = int(os.environ.get("RUNS", "7"))
PEOPLE = ("Anna", "Ben", "Carl", "Dora", "Eve", "Finn", "Gerd", "Hanna")


def build(db: Path) -> None:
    rng = random.Random(11)
    rules = find_preset("standard").replace(game_end=GameEnd("open"))
    with open_store(db) as store:
        for number in range(SESSIONS):
            players = rng.sample(PEOPLE, 4)
            players = [rng.choice([p, p.lower(), p.upper()]) for p in players]
            inputs = []
            for _ in range(ROUNDS):
                winner = rng.choice(players)
                hands = {p: Hand(points=rng.randint(0, 80)) for p in players if p != winner}
                inputs.append(RoundInput(winner, hands, rng.random() < 0.05))
            store.write_session(
                f"S{number:03}",
                "",
                players,
                rules,
                rng.choice([None, "0.01", "0.05"]),
                "EUR",
                0,
                scored_rows(players, rules, inputs),
                (),
                (),
                overwrite=False,
            )


def naive(service: SessionService) -> dict[str, tuple[int, int, int]]:
    """What the aggregates spare: every round of every session loaded into Python."""
    out: dict[str, tuple[int, int, int]] = {}
    for name in service.store.session_names():
        info = service.session(name)
        for rec in service.store.rounds(info):
            for player, hand in rec.hands.items():
                rounds, won, points = out.get(name_key(player), (0, 0, 0))
                out[name_key(player)] = (rounds + 1, won + (rec.winner == player), points + hand.points)
    return out


def median_ms(call: Callable[[], object]) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        measure(Path(folder) / "stats.sqlite3")


def measure(db: Path) -> None:
    print(f"building {SESSIONS} sessions of {ROUNDS} rounds (4 of {len(PEOPLE)} people each) ...", flush=True)
    build(db)
    print(f"database: {db.stat().st_size / 1e6:.1f} MB; median of {RUNS} runs each, in ms")
    with SessionService(db) as service:
        history = History(service)
        cases = [
            ("History.stats() (SQL aggregates)", lambda: history.stats()),
            ("History.stats(player, vs)", lambda: history.stats("Anna", None, "Ben")),
            ("every round loaded into Python", lambda: naive(service)),
        ]
        results = {label: median_ms(call) for label, call in cases}
    for label, ms in results.items():
        print(f"{label:42} {ms:9.1f}")
    ratio = results["every round loaded into Python"] / results["History.stats() (SQL aggregates)"]
    print(f"loading every round takes {ratio:.1f}x as long (and only counts three of the figures)")
    env = {**os.environ, "ROMME_DB": str(db)}
    romme = [sys.executable, "-m", "romme_score"]
    for label, args in (
        ("romme stats (whole process)", ["stats"]),
        ("romme stats --json", ["stats", "--json"]),
        ("romme stats --player anna --vs ben", ["stats", "--player", "anna", "--vs", "ben"]),
    ):

        def call(args: list[str] = args) -> None:
            subprocess.run([*romme, *args], env=env, stdout=subprocess.DEVNULL, check=True)

        print(f"{label:42} {median_ms(call):9.1f}")


if __name__ == "__main__":
    main()
