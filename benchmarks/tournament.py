"""A tournament of 200 players (RULES.md §10): drawn and ranked.

    python benchmarks/tournament.py     # PLAYERS=200 SERIES=3 GAMES=16 RUNS=7 by default

Four players a table (50 tables), three series of 16 games, wertung scoring, seated by
the standings. Each figure is the median of RUNS runs, in ms:

- the core alone (romme_score.tournament.rules): seating a series of 200 players by the
  standings, and ranking 200 players from the results of 3 x 50 tables' games;
- the service over an SQLite file whose tables hold every game (2,400 rounds): the
  standings (one read of the tables, one of all their rounds, then the ranking), the
  payout, and drawing the next series (the standings, the seating and 50 new sessions
  in one transaction; each run undone by deleting its rows again);
- ``romme tournament standings --json`` as a whole process;
- the goal of issue 28: ``romme tournament draw``, the results of a game at a table
  (``romme round --session "Bench S4 T1" ...``) and ``romme tournament standings``, each a
  whole process against its work done in this process (the service call and the view),
  beside ``python -c 'import click'``, by turns: the start-up (the whole less the work) at
  most 1.5x ``import click``. Both are reported.
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
from decimal import Decimal
from pathlib import Path

from romme_score.rules import find_preset
from romme_score.scoring import Hand, RoundInput, score_round
from romme_score.sessions import SessionService
from romme_score.tournament import Prize, TournamentOptions, TournamentService
from romme_score.tournament.rules import Entrant, Game, Result, rank, seat_series, table_results
from romme_score.views import session as session_views
from romme_score.views import tournament as tournament_views

sys.path.insert(0, str(Path(__file__).resolve().parent))
from goal_line import print_goal  # noqa: E402  (benchmarks/goal_line.py)

PLAYERS = int(os.environ.get("PLAYERS", "200"))
SERIES = int(os.environ.get("SERIES", "3"))
GAMES = int(os.environ.get("GAMES", "16"))
RUNS = int(os.environ.get("RUNS", "7"))

RULES = find_preset("standard")
OPTIONS = TournamentOptions(
    series=SERIES + 1,  # one series is left to draw
    games=GAMES,
    scoring="wertung",
    entry_fee=Decimal(10),
    lost_game_fee=Decimal("0.5"),
    prizes=(Prize(Decimal(40), True), Prize(Decimal(25), True), Prize(Decimal(15), True)),
)


def median_ms(work: Callable[[], object], after: Callable[[], object] | None = None) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
        if after is not None:
            after()
    return statistics.median(times)


def random_games(players: tuple[str, ...], rnd: random.Random) -> list[RoundInput]:
    games = []
    for _ in range(GAMES):
        winner = rnd.choice(players)
        hands = {p: Hand(points=rnd.randint(0, 60)) for p in players if p != winner}
        games.append(RoundInput(winner, hands, rnd.random() < 0.03))
    return games


def core() -> tuple[float, float]:
    """Seating and ranking alone, on results drawn at random."""
    rnd = random.Random(1)
    starts = list(range(1, PLAYERS + 1))
    ranking = [r.start for r in rank([Result(s, (rnd.randint(0, 80),)) for s in starts], OPTIONS)]
    seat = median_ms(lambda: seat_series(OPTIONS, starts, 2026, 2, ranking))
    tables = seat_series(OPTIONS.replace(seating="draw"), starts, 2026, 1)
    games = []
    for table in tables:
        names = tuple(str(s) for s in table)
        played = []
        for rnd_input in random_games(names, rnd):
            score = score_round(names, {}, rnd_input, RULES)
            played.append(Game(rnd_input.winner, rnd_input.hand_romme, score.points, score.bonus))
        games.append((names, played))

    def ranked() -> None:
        results: dict[int, list[int | None]] = {s: [] for s in starts}
        for _series in range(SERIES):
            for names, played in games:
                for name, value in table_results(names, played, OPTIONS).items():
                    results[int(name)].append(value)
        rank([Result(s, tuple(r)) for s, r in results.items()], OPTIONS)

    return seat, median_ms(ranked)


def build(db: Path) -> None:
    """A tournament of PLAYERS with SERIES series played to their last game."""
    rnd = random.Random(2)
    with SessionService(db) as sessions:
        service = TournamentService(sessions)
        entrants = [Entrant(f"Player {n:03d}") for n in range(1, PLAYERS + 1)]
        service.create("Bench", entrants, RULES, OPTIONS, seed=2026)
        for _series in range(SERIES):
            drawn = service.draw("Bench")
            for table in drawn.tables:
                info = sessions.session(table.session)
                for rnd_input in random_games(table.players, rnd):
                    sessions.record(info, rnd_input)


def main() -> None:
    seat, ranked = core()
    print(f"A tournament of {PLAYERS} players at tables of 4, {SERIES} series of {GAMES} games (wertung)")
    print(f"median of {RUNS} runs, ms")
    print()
    rows = [
        ("core: seating a series by the standings", seat),
        (f"core: ranking from {SERIES} series of results", ranked),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite3"
        start = time.perf_counter()
        build(db)
        built = time.perf_counter() - start
        with SessionService(db) as sessions:
            service = TournamentService(sessions)
            rows.append(
                ("service: standings (SQLite, every game read)", median_ms(lambda: service.standings()))
            )
            rows.append(("service: payout", median_ms(lambda: service.payout())))
            store = sessions.store

            def undraw() -> None:
                """The series just drawn removed again, so that the next run draws it anew."""
                conn = store.conn  # type: ignore[attr-defined]
                with conn.write() as sql:
                    ids = [
                        r[0]
                        for r in sql.execute(
                            "SELECT session_id FROM tournament_tables WHERE series = ?", (SERIES + 1,)
                        ).fetchall()
                    ]
                    sql.execute("DELETE FROM tournament_series WHERE number = ?", (SERIES + 1,))
                    for sid in ids:
                        for table in ("players", "totals"):
                            sql.execute(f"DELETE FROM {table} WHERE session_id = ?", (sid,))
                        sql.execute("DELETE FROM sessions WHERE id = ?", (sid,))

            rows.append(
                (
                    f"service: drawing series {SERIES + 1} ({-(-PLAYERS // 4)} sessions, one transaction)",
                    median_ms(lambda: service.draw(), undraw),
                )
            )
        env = {**os.environ, "ROMME_DB": str(db)}
        goals = startup_goals(db, env)
        command = [sys.executable, "-m", "romme_score", "tournament", "standings", "--json"]
        rows.append(
            (
                "romme tournament standings --json, a whole process",
                median_ms(lambda: subprocess.run(command, env=env, stdout=subprocess.DEVNULL, check=True)),
            )
        )
    width = max(len(what) for what, _ in rows)
    print(f"{'what':<{width}}  {'median ms':>9}")
    print("-" * (width + 11))
    for what, ms in rows:
        print(f"{what:<{width}}  {ms:>9.2f}")
    print()
    games = SERIES * -(-PLAYERS // 4) * GAMES
    print(f"(setting up: {SERIES} series drawn and {games} games recorded in {built:.1f} s)")
    print()
    print(f"whole processes against their work in this process, by turns, median of {RUNS} runs, ms")
    print(f"{'command':34} {'whole':>8} {'work':>8} {'start-up':>9} {'import click':>13} {'ratio':>6}")
    for label, whole, work, click in goals:
        ratio = (whole - work) / click
        print(f"{label:34} {whole:8.1f} {work:8.1f} {whole - work:9.1f} {click:13.1f} {ratio:6.2f}")
    for label, whole, work, click in goals:
        ratio = (whole - work) / click
        print_goal(
            f"tournament of {PLAYERS} players: {label}, start-up (the whole less the work)",
            f"{whole - work:.1f} ms + work {work:.1f} ms",
            f"{click:.1f} ms (import click)",
            ratio,
            "start-up <= 1.5x import click, plus the work",
            ratio <= 1.5,
        )


def timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return (time.perf_counter() - start) * 1000


def startup_goals(db: Path, env: dict[str, str]) -> list[tuple[str, float, float, float]]:
    """(label, whole process ms, its work in this process ms, import click ms) of draw, a
    game's result and the standings, each the median of RUNS runs taken by turns."""
    py = sys.executable
    click = [py, "-c", "import click"]

    def process(args: list[str]) -> Callable[[], object]:
        return lambda: subprocess.run(
            [py, "-m", "romme_score", *args], env=env, stdout=subprocess.DEVNULL, check=True
        )

    found: list[tuple[str, float, float, float]] = []
    with SessionService(db) as sessions:
        service = TournamentService(sessions)
        conn = sessions.store.conn  # type: ignore[attr-defined]

        def undraw() -> None:
            with conn.write() as sql:
                ids = [
                    r[0]
                    for r in sql.execute(
                        "SELECT session_id FROM tournament_tables WHERE series = ?", (SERIES + 1,)
                    ).fetchall()
                ]
                sql.execute("DELETE FROM tournament_series WHERE number = ?", (SERIES + 1,))
                for sid in ids:
                    for table in ("players", "totals"):
                        sql.execute(f"DELETE FROM {table} WHERE session_id = ?", (sid,))
                    sql.execute("DELETE FROM sessions WHERE id = ?", (sid,))

        def draw_work() -> None:
            tournament_views.render_drawn(service.draw("Bench"))

        found.append(
            (
                "romme tournament draw",
                *_by_turns(process(["tournament", "draw", "Bench"]), draw_work, click, undraw),
            )
        )
        drawn = service.draw("Bench")
        table = drawn.tables[0]
        winner, *others = table.players
        hands = {p: Hand(points=5 + i) for i, p in enumerate(others)}
        line = [
            "round",
            "--session",
            table.session,
            "--winner",
            winner,
            *(f"{p}={h.points}" for p, h in hands.items()),
        ]

        def result_work() -> None:
            info = sessions.session(table.session)
            recorded = sessions.record(info, RoundInput(winner, hands))
            session_views.render_recorded(recorded, lambda cards: " ".join(str(c) for c in cards))

        def undo() -> None:
            sessions.undo(sessions.session(table.session))

        found.append(("romme round at a table", *_by_turns(process(line), result_work, click, undo)))

        def standings_work() -> None:
            tournament_views.render_standings(service.standings("Bench"))

        found.append(
            (
                "romme tournament standings",
                *_by_turns(process(["tournament", "standings", "Bench"]), standings_work, click),
            )
        )
        undraw()
    return found


def _by_turns(
    whole: Callable[[], object],
    work: Callable[[], object],
    click: list[str],
    after: Callable[[], object] | None = None,
) -> tuple[float, float, float]:
    wholes, works, clicks = [], [], []
    for _ in range(RUNS):
        clicks.append(timed(lambda: subprocess.run(click, check=True)))
        wholes.append(timed(whole))
        if after is not None:
            after()
        works.append(timed(work))
        if after is not None:
            after()
    return statistics.median(wholes), statistics.median(works), statistics.median(clicks)


if __name__ == "__main__":
    main()
