"""A tournament of 200 players (docs/rules.md §10): drawn and ranked.

    python benchmarks/tournament.py     # PLAYERS=200 SERIES=3 GAMES=16 RUNS=7 by default
                                        # (COUNT=0: no instructions counted, wall times only)

Four players a table (50 tables), three series of 16 games, wertung scoring, seated by
the standings. Each figure is the median of RUNS runs, in ms:

- the core alone (romme_score.tournament.rules): seating a series of 200 players by the
  standings, and ranking 200 players from the results of 3 x 50 tables' games;
- the service over an SQLite file whose tables hold every game (2,400 rounds): the
  standings (one read of the tables, one of all their rounds, then the ranking), the
  payout, and drawing the next series (the standings, the seating and 50 new sessions
  in one transaction; each run undone by deleting its rows again);
- ``romme tournament standings --json`` as a whole process;
- the start-up goals of issue 38 item 19 (benchmarks/startup.py's, imported from there):
  ``romme tournament draw``, the results of a game at a table (``romme round --session
  "Bench S4 T1" ...``) and ``romme tournament standings``, each a whole process against
  its work (the service call and the view), beside ``python -c 'import click'``: the
  start-up (the whole less the work) at most 2x ``import click``, plus what ``import
  tabulate`` adds to it for the two that print a table, both reported.
  Counted in instructions with valgrind's callgrind where it is installed
  (the work: a Python that opens the service and does it, less the same Python that only
  opens it), as the machine's load does not change them; else in wall time, by turns.
"""

from __future__ import annotations

import os
import random
import shutil
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
from startup import command_goal, command_goal_words  # noqa: E402  (the goals: benchmarks/startup.py)

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
        env = {**os.environ, "ROMME_DB": str(db), "PYTHONPYCACHEPREFIX": str(Path(tmp) / "pycache")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # every process with its bytecode cached
        goals = startup_goals(db, env)
        counting = shutil.which("valgrind") and os.environ.get("COUNT", "1") != "0"
        goals_counted = startup_instructions(db, env, Path(tmp)) if counting else []
        tabulate_ratio = tabulate_counted(env, Path(tmp)) if counting else tabulate_timed(env)
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
    counted = goals_counted
    if counted:
        print()
        print("the same in instructions (valgrind --tool=callgrind), M")
        print(f"{'command':34} {'whole':>8} {'work':>8} {'start-up':>9} {'import click':>13} {'ratio':>6}")
        for label, whole, work, click in counted:
            ratio = (whole - work) / click
            print(f"{label:34} {whole:8.1f} {work:8.1f} {whole - work:9.1f} {click:13.1f} {ratio:6.2f}")
    unit = "M instr." if counted else "ms"
    for label, whole, work, click in counted or goals:
        ratio = (whole - work) / click
        table = label in PRINTS_A_TABLE
        print_goal(
            f"tournament of {PLAYERS} players: {label}, start-up (the whole less the work)",
            f"{whole - work:.1f} {unit} + work {work:.1f} {unit}",
            f"{click:.1f} {unit} (import click)",
            ratio,
            f"start-up {command_goal_words(table, tabulate_ratio)}, plus the work",
            ratio <= command_goal(table, tabulate_ratio),
        )


# The commands whose goal allows for importing tabulate: they print a table (the draw
# prints its tables as lines of text).
PRINTS_A_TABLE = frozenset({"romme round at a table", "romme tournament standings"})


def tabulate_counted(env: dict[str, str], folder: Path) -> float:
    """What ``import tabulate`` adds to ``import click``, as a multiple of it, in
    instructions (as benchmarks/startup.py counts it)."""
    env = {**env, "PYTHONHASHSEED": "0", "PYTHONPYCACHEPREFIX": str(folder / "pycache")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    counts = []
    for code in ("import click", "import click, tabulate"):
        args = [sys.executable, "-c", code]
        subprocess.run(args, env=env, check=True)  # its bytecode cached first
        counts.append(callgrind(args, env, folder))
    return (counts[1] - counts[0]) / counts[0]


def tabulate_timed(env: dict[str, str]) -> float:
    """The same in wall time: the medians of RUNS runs of each, by turns."""
    click, both = [], []
    py = sys.executable
    for _ in range(RUNS):
        click.append(timed(lambda: subprocess.run([py, "-c", "import click"], env=env, check=True)))
        both.append(timed(lambda: subprocess.run([py, "-c", "import click, tabulate"], env=env, check=True)))
    return (statistics.median(both) - statistics.median(click)) / statistics.median(click)


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


# The work of each command alone, in a fresh Python: argv db, what, 1 to do it (0: only open
# the service, as the command does before its work), the table's session and its players.
WORK = r"""
import sys
from romme_score.scoring import Hand, RoundInput
from romme_score.sessions import SessionService
from romme_score.tournament import TournamentService
from romme_score.views import session as session_views
from romme_score.views import tournament as tournament_views
db, what, do, table, players = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4], sys.argv[5:]
with SessionService(db) as sessions:
    service = TournamentService(sessions)
    if do and what == "draw":
        tournament_views.render_drawn(service.draw("Bench"))
    elif do and what == "standings":
        tournament_views.render_standings(service.standings("Bench"))
    elif do and what == "round":
        winner, others = players[0], players[1:]
        hands = {p: Hand(points=5 + i) for i, p in enumerate(others)}
        recorded = sessions.record(sessions.session(table), RoundInput(winner, hands))
        session_views.render_recorded(recorded, lambda cards: " ".join(str(c) for c in cards))
"""


def callgrind(args: list[str], env: dict[str, str], folder: Path) -> float:
    """Millions of instructions of one whole process, as callgrind counts them."""
    out = folder / "callgrind.out"
    subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    for line in out.read_text(encoding="utf-8").splitlines():
        if line.startswith(("summary:", "totals:")):
            out.unlink()
            return int(line.split()[1]) / 1e6
    raise RuntimeError(f"no instruction count from callgrind for {args}")


def startup_instructions(
    db: Path, env: dict[str, str], folder: Path
) -> list[tuple[str, float, float, float]]:
    """(label, whole, work, import click) in M instructions of draw, a table's result and
    the standings; each process run once before it is counted (the bytecode cached)."""
    py = sys.executable
    env = {**env, "PYTHONHASHSEED": "0", "PYTHONPYCACHEPREFIX": str(folder / "pycache")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # the bytecode cached, as an installed romme has it
    script = os.path.join(os.path.dirname(py), "romme")
    romme = [script] if os.path.exists(script) else [py, "-m", "romme_score"]
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

        def count(args: list[str], after: Callable[[], object] | None = None) -> float:
            subprocess.run(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            if after is not None:
                after()
            counted = callgrind(args, env, folder)
            if after is not None:
                after()
            return counted

        click = count([py, "-c", "import click"])
        drawn = service.draw("Bench")
        table = drawn.tables[0]
        players = list(table.players)
        undraw()

        def work(what: str, after: Callable[[], object] | None = None) -> float:
            base = [py, "-c", WORK, str(db), what]
            return count([*base, "1", table.session, *players], after) - count(
                [*base, "0", table.session, *players]
            )

        found.append(
            (
                "romme tournament draw",
                count([*romme, "tournament", "draw", "Bench"], undraw),
                work("draw", undraw),
                click,
            )
        )
        service.draw("Bench")
        line = ["round", "--session", table.session, "--winner", players[0]]
        line += [f"{p}={5 + i}" for i, p in enumerate(players[1:])]

        def undo() -> None:
            sessions.undo(sessions.session(table.session))

        found.append(("romme round at a table", count([*romme, *line], undo), work("round", undo), click))
        standings = [*romme, "tournament", "standings", "Bench"]
        found.append(("romme tournament standings", count(standings), work("standings"), click))
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
