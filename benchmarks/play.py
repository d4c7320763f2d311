"""The table mode's Enter: from Enter at a round's summary to the redrawn standings, in
process, on a session of 1,000 rounds (issue 9; goal: at most 20 ms).

What is timed is :meth:`romme_score.table.app.Table.save`, exactly what Enter does: check
that no other process changed the session, save the round in one transaction, read the
standings again and render the panel and the toolbar (printing goes to a buffer).
Prints the median and percentiles of many rounds.

Then a script's round line (issue 21 item 13: per line cost must not grow with the
session): ``romme play SESSION`` reading ``round --winner ...`` lines from a pipe, each
line run as ``romme play`` runs it (the command line in-process, against the table's
database, while the table holds its own service open), in an empty session and in one
of ``SCRIPT_ROUNDS`` rounds (default 10,000), alternating; prints each median and their
ratio (the goal: within 20 %).

Run: `python benchmarks/play.py`.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import statistics
import tempfile
import time
from pathlib import Path

from romme_score.cli.inside import runner
from romme_score.cli.options import Output
from romme_score.rules import find_preset
from romme_score.scoring import RoundInput
from romme_score.sessions import ExportHand, ExportRound, SessionExport, SessionService
from romme_score.table.app import Table
from romme_score.table.entry import RoundEntry
from romme_score.views import play as views

ROUNDS = int(os.environ.get("ROUNDS", "1000"))
SAMPLES = int(os.environ.get("SAMPLES", "200"))
SCRIPT_ROUNDS = int(os.environ.get("SCRIPT_ROUNDS", "10000"))
SCRIPT_LINES = int(os.environ.get("SCRIPT_LINES", "1000"))
PLAYERS = ("Anna", "Ben", "Carl", "Dora")


def session_of(rounds: int) -> SessionExport:
    """An open-ended session of ``rounds`` rounds, as an export (imported in one go)."""
    rules = find_preset("standard").replace(game_end=find_preset("wiki-51").game_end)
    made = []
    for n in range(1, rounds + 1):
        winner = PLAYERS[n % 4]
        hands = {
            p: ExportHand(cards="HK K10") if i % 2 else ExportHand(points=7)
            for i, p in enumerate(PLAYERS)
            if p != winner
        }
        made.append(ExportRound(n, n, winner, n % 17 == 0, False, hands))
    return SessionExport("Bench", PLAYERS, rules, None, None, "Anna", "", tuple(made))


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:  # the session file goes with it
        run(Path(scratch))
    with tempfile.TemporaryDirectory() as scratch:
        script_lines(Path(scratch))


def round_line(i: int) -> str:
    winner = PLAYERS[i % 4]
    return f"round --winner {winner} " + " ".join(f"{p}={i % 7 + 1}" for p in PLAYERS if p != winner)


def script_lines(folder: Path) -> None:
    """Round lines of a script, each timed, in an empty session and a long one by turns
    (so that the machine's swings fall on both alike)."""
    from romme_score.table.script import run_script

    tables = {}
    for rounds in (0, SCRIPT_ROUNDS):
        db = folder / f"script-{rounds}.sqlite3"
        with SessionService(db) as service:
            service.import_(session_of(rounds))
        service = SessionService(db)  # the table's own, open while the lines run
        info = service.session("Bench")
        tables[rounds] = (service, runner(str(db), functools.partial(getattr, info, "name")))
    times: dict[int, list[float]] = {0: [], SCRIPT_ROUNDS: []}
    for i in range(SCRIPT_LINES):
        for rounds, (_service, run_line) in tables.items():
            buffer = io.StringIO()
            with contextlib.redirect_stdout(buffer):
                start = time.perf_counter()
                code = run_script([round_line(i) + "\n"], run_line)
                times[rounds].append((time.perf_counter() - start) * 1000)
            assert code == 0, buffer.getvalue()
    for service, _ in tables.values():
        service.close()
    empty, long = (statistics.median(times[r]) for r in (0, SCRIPT_ROUNDS))
    print(f"A script's round line (romme play reading a pipe), {SCRIPT_LINES} lines each, alternating")
    print(
        f"empty session: median {empty:.2f} ms; session of {SCRIPT_ROUNDS} rounds: median {long:.2f} ms; "
        f"ratio {long / empty:.2f}"
    )


def run(folder: Path) -> None:
    db = folder / "bench.sqlite3"
    with SessionService(db) as service:
        service.import_(session_of(ROUNDS))
        info = service.session("Bench")
        table = Table(service, info, Output("de", False, False), runner(str(db), lambda: info.name))
        times = []
        for i in range(SAMPLES):
            entry = RoundEntry(service.referee(info))
            for line in (str(i % 4 + 1), "HK K10", "P7 P8", "T2 T3"):
                entry.answer(line)
            rnd: RoundInput = entry.round_input()
            buffer = io.StringIO()
            with contextlib.redirect_stdout(buffer):
                start = time.perf_counter()
                saved = table.save(rnd)
                views.toolbar_text(table.current)  # the toolbar, as drawn with the next prompt
                times.append((time.perf_counter() - start) * 1000)
            assert saved and "saved." in buffer.getvalue()
        played = service.standings(info, last=0).rounds_played
    assert played == ROUNDS + SAMPLES
    times.sort()
    print(
        f"Enter to redrawn standings, in process, session of {ROUNDS} rounds "
        f"(then up to {ROUNDS + SAMPLES}), {SAMPLES} rounds saved"
    )
    print(
        f"median {statistics.median(times):.2f} ms, p90 {times[int(0.9 * len(times))]:.2f} ms, "
        f"max {times[-1]:.2f} ms"
    )


if __name__ == "__main__":
    main()
