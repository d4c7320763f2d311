"""The table mode's Enter: from Enter at a round's summary to the redrawn standings, in
process, on a session of 1,000 rounds (issue 9; goal: at most 20 ms).

What is timed is :meth:`romme_score.table.app.Table.save`, exactly what Enter does: check
that no other process changed the session, save the round in one transaction, read the
standings again and render the panel and the toolbar (printing goes to a buffer).
Prints the median and percentiles of many rounds. Run: `python benchmarks/play.py`.
"""

from __future__ import annotations

import contextlib
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


def run(folder: Path) -> None:
    db = folder / "bench.sqlite3"
    with SessionService(db) as service:
        service.import_(session_of(ROUNDS))
        info = service.session("Bench")
        table = Table(service, info, Output("de", False, False), runner(str(db), lambda: info.name))
        times = []
        for i in range(SAMPLES):
            entry = RoundEntry(PLAYERS, info.rules, lambda r: service.preview(info, r))
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
