"""Start-up of whole `romme` invocations, every command, next to a bare `python -c pass`
and to `python -c 'import click'`.

Two measures. Instructions, counted with valgrind's callgrind where valgrind is installed:
the same count however loaded the machine is, so a command against `import click` in the
same environment is a ratio that means something on a shared machine. The goals (issue 38
item 19) are such ratios, in the development venv: `romme check` at most 1.5x `import
click` (without a database and with a current session, whose rules it reads); every other
command at most 2x, or, where it prints a table, 2x `import click` plus what `import
tabulate` adds to it (`python -c 'import click, tabulate'` less `python -c 'import
click'`). The check is counted as an installed romme runs too (`python -S`, without the
editable-install hook every start in the venv pays). Then the median wall time of RUNS
runs of each command.

Every command runs with a warm bytecode cache, as an installed program has one (pip
compiles it at install): PYTHONPYCACHEPREFIX in a scratch directory, filled by one run
first, whatever PYTHONDONTWRITEBYTECODE says. Run: `python benchmarks/startup.py`
(RUNS=21; ONLY=check,standings counts only the commands whose label starts so).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from goal_line import print_goal

RUNS = int(os.environ.get("RUNS", "21"))
ONLY = tuple(x.strip() for x in os.environ.get("ONLY", "").split(",") if x.strip())
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # where romme_score is
WEB_STACK = ("starlette", "uvicorn", "segno", "anyio", "httpx")

CHECK_GOAL = 1.5  # romme check: at most 1.5x import click (issue 38 item 19)
COMMAND_GOAL = 2.0  # every other command: at most 2x, plus import tabulate's cost where it prints a table


def command_goal(table: bool, tabulate_ratio: float) -> float:
    """The most a command but ``romme check`` may take, as a multiple of ``import click``
    (benchmarks/tournament.py's goals too); ``tabulate_ratio``: what ``import tabulate``
    adds to ``import click``, as one, allowed where the command prints a table."""
    return COMMAND_GOAL + (tabulate_ratio if table else 0.0)


def command_goal_words(table: bool, tabulate_ratio: float) -> str:
    if table:
        return f"<= {command_goal(table, tabulate_ratio):.2f}x import click (2x + import tabulate)"
    return f"<= {COMMAND_GOAL:.1f}x import click"


class Case:
    """One command line: its label, its arguments, the database it runs on, a file
    removed before each run (for ``romme new``, which refuses a session that exists),
    whether it prints a table (its goal then allows for importing tabulate), and the
    package (``beyond``) whose import alone takes it past its goal: a known miss, its
    goal kept as the issue states it and the package's own cost printed beside it."""

    def __init__(
        self,
        label: str,
        args: list[str],
        db: str,
        fresh: str | None = None,
        table: bool = False,
        beyond: str | None = None,
    ) -> None:
        self.label, self.args, self.db, self.fresh, self.table = label, args, db, fresh, table
        self.beyond = beyond

    def goal(self, tabulate_ratio: float) -> float:
        """The most instructions it may take as a multiple of ``import click``;
        ``tabulate_ratio``: what ``import tabulate`` adds to ``import click``, as one."""
        if self.args[0] == "check":
            return CHECK_GOAL
        return command_goal(self.table, tabulate_ratio)

    def goal_words(self, tabulate_ratio: float) -> str:
        if self.args[0] == "check":
            return f"<= {CHECK_GOAL:.1f}x import click"
        return command_goal_words(self.table, tabulate_ratio)

    def run(self, env: dict[str, str], prefix: list[str] | None = None) -> list[str]:
        if self.fresh is not None:
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(self.fresh + suffix).unlink(missing_ok=True)
        return [*(prefix or []), *self.args]


def quiet(args: list[str], env: dict[str, str]) -> None:
    subprocess.run(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


def instructions(args: list[str], env: dict[str, str], scratch: str) -> int:
    """Instructions the whole process runs, as callgrind counts them (its ``summary:``)."""
    out = os.path.join(scratch, "callgrind.out")
    quiet(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *args], env)
    with open(out, encoding="utf-8") as f:
        for line in f:
            if line.startswith(("summary:", "totals:")):
                os.remove(out)
                return int(line.split()[1])
    raise RuntimeError(f"no instruction count from callgrind for {args}")


def median_ms(args: list[str], env: dict[str, str]) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        quiet(args, env)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:  # the databases and the bytecode go with it
        run(scratch)


def prepare(romme: list[str], env: dict[str, str], scratch: str) -> tuple[str, str]:
    """A database with a session of 8 rounds and a tournament drawn, and an export of it."""
    db = os.path.join(scratch, "bench.sqlite3")
    steps = [
        ["new", "Friday", "Anna", "Ben", "Carl", "Dora"],
        *(["round", "--winner", "Anna", f"Ben={5 + i}", "Carl=HK K10", "Dora=12"] for i in range(8)),
        ["tournament", "new", "Cup", *(f"P{n}" for n in range(1, 9)), "--games", "2"],
        ["tournament", "draw"],
        ["use", "Friday"],
        ["export", "-o", os.path.join(scratch, "friday.json")],
    ]
    for step in steps:
        subprocess.run([*romme, *step], env={**env, "ROMME_DB": db}, check=True, capture_output=True)
    return db, os.path.join(scratch, "friday.json")


def cases(scratch: str, db: str, export: str) -> list[Case]:
    none = os.path.join(scratch, "none.sqlite3")  # never created: romme check without a database
    made = os.path.join(scratch, "new.sqlite3")
    report = os.path.join(scratch, "report.html")
    out = os.path.join(scratch, "out.json")
    return [
        Case("romme --help", ["--help"], db),
        Case("romme --version", ["--version"], db),
        Case("romme check 'HK KK PK' (no database)", ["check", "HK KK PK"], none),
        Case("romme check 'HK KK PK' (a current session)", ["check", "HK KK PK"], db),
        Case("romme check --lang de 'HK KK PK' (no database)", ["check", "--lang", "de", "HK KK PK"], none),
        Case("romme value 'HK K10 J'", ["value", "HK K10 J"], none),
        Case("romme best 'HK KK PK H5 H6 H7'", ["best", "HK KK PK H5 H6 H7"], none),
        Case("romme rules", ["rules"], none, table=True),
        Case(
            "romme settle A=220 B=360 C=140 D=490",
            ["settle", "A=220", "B=360", "C=140", "D=490"],
            none,
            table=True,
        ),
        Case("romme new (a new database)", ["new", "Friday", "Anna", "Ben", "Carl"], made, fresh=made),
        Case(
            "romme round",
            ["round", "--session", "Friday", "--winner", "Anna", "Ben=5", "Carl=HK", "Dora=7"],
            db,
            table=True,  # the round's hands
        ),
        Case("romme undo", ["undo", "--session", "Friday", "--yes"], db),
        Case(
            "romme edit 1",
            ["edit", "1", "--session", "Friday", "--winner", "Anna", "Ben=6", "Carl=HK", "Dora=7"],
            db,
            table=True,
        ),
        Case("romme standings (a session of 8 rounds)", ["standings", "--session", "Friday"], db, table=True),
        Case("romme standings --help", ["standings", "--help"], db),
        Case("romme sessions", ["sessions"], db, table=True),
        Case("romme use Friday", ["use", "Friday"], db),
        Case("romme export", ["export", "--session", "Friday", "-o", out], db),
        Case("romme import", ["import", export, "--name", "Copy", "--replace"], db),
        Case("romme note", ["note", "--session", "Friday", "a note"], db),
        Case("romme chart", ["chart", "--session", "Friday"], db, beyond="plotext"),  # it draws with plotext
        Case("romme stats", ["stats"], db, table=True),
        Case("romme report", ["report", "-o", report], db),
        Case("romme play --help", ["play", "--help"], db),
        Case("romme serve --help", ["serve", "--help"], db),
        Case("romme tournament --help", ["tournament", "--help"], db),
        Case("romme tournament draw --help", ["tournament", "draw", "--help"], db),
        Case("romme tournament standings", ["tournament", "standings", "Cup"], db, table=True),
    ]


def run(scratch: str) -> None:
    env = {**os.environ}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = os.path.join(scratch, "pycache")
    env["PYTHONHASHSEED"] = "0"  # one layout of every dict: the same count run after run
    env["COLUMNS"] = "80"
    py = sys.executable
    script = os.path.join(os.path.dirname(py), "romme")  # the entry point, as a user runs it
    romme = [script] if os.path.exists(script) else [py, "-m", "romme_score"]
    db, export = prepare(romme, env, scratch)
    chosen = [
        c
        for c in cases(scratch, db, export)
        if not ONLY or c.label.startswith(tuple(f"romme {o}" for o in ONLY))
    ]
    bare = [
        ("python -c pass", [py, "-c", "pass"]),
        ("python -c 'import click'", [py, "-c", "import click"]),
        ("python -c 'import click, tabulate'", [py, "-c", "import click, tabulate"]),
    ]

    def env_of(case: Case) -> dict[str, str]:
        return {**env, "ROMME_DB": case.db}

    for case in chosen:  # the bytecode cache filled before anything is measured
        quiet(case.run(env, romme), env_of(case))
    for _label, args in bare:
        quiet(args, env)
    counted: dict[str, float] = {}
    if shutil.which("valgrind") is None:
        print("instructions: valgrind is not installed here, so wall times stand in for them")
    else:
        print("instructions (valgrind --tool=callgrind), bytecode cached, in this venv")
        click_count = instructions(bare[1][1], env, scratch)
        tabulate_count = instructions(bare[2][1], env, scratch)
        tabulate_ratio = (tabulate_count - click_count) / click_count  # what import tabulate adds
        print(f"{'command':52} {'M instr.':>9} {'x import click':>15}")
        print(f"{'python -c pass':52} {instructions(bare[0][1], env, scratch) / 1e6:9.1f}")
        print(f"{'python -c import click':52} {click_count / 1e6:9.1f} {1:15.2f}")
        print(
            f"{'python -c import click, tabulate':52} {tabulate_count / 1e6:9.1f} {1 + tabulate_ratio:15.2f}"
        )
        for case in chosen:
            count = instructions(case.run(env, romme), env_of(case), scratch)
            counted[case.label] = count / click_count
            print(f"{case.label:52} {count / 1e6:9.1f} {count / click_count:15.2f}")
        for case in chosen:
            ratio = counted[case.label]
            words = case.goal_words(tabulate_ratio)
            if case.beyond is not None:  # a known miss: what the package's import alone adds
                alone = instructions([py, "-c", f"import click, {case.beyond}"], env, scratch) - click_count
                words += f"; a known miss: import {case.beyond} alone adds {alone / click_count:.2f}x"
            print_goal(
                f"start-up of {case.label}",
                f"{ratio * click_count / 1e6:.1f} M instr.",
                f"{click_count / 1e6:.1f} M instr. (import click)",
                ratio,
                words,
                ratio <= case.goal(tabulate_ratio),
            )
        installed(py, env, scratch)
    print(f"median wall time of {RUNS} runs each")
    print(f"{'command':52} {'ms':>8} {'x import click':>15}")
    base = {label: median_ms(args, env) for label, args in bare}
    click_ms = base["python -c 'import click'"]
    tabulate_ms = (base["python -c 'import click, tabulate'"] - click_ms) / click_ms
    for label, ms in base.items():
        print(f"{label:52} {ms:8.1f} {ms / click_ms:15.2f}")
    for case in chosen:
        ms = statistics.median(_timed(case.run(env, romme), env_of(case)) for _ in range(RUNS))
        print(f"{case.label:52} {ms:8.1f} {ms / click_ms:15.2f}")
        if not counted:  # no valgrind: the wall times stand in
            print_goal(
                f"start-up of {case.label} (wall time)",
                f"{ms:.1f} ms",
                f"{click_ms:.1f} ms (import click)",
                ms / click_ms,
                case.goal_words(tabulate_ms),
                ms / click_ms <= case.goal(tabulate_ms),
            )
    probe = (
        "import sys\nfrom romme_score.cli import main\n"
        "try:\n    main(['check', 'HK KK PK'], standalone_mode=False)\n"
        "finally:\n    print(' '.join(sorted(sys.modules)))\n"
    )
    loaded = set(subprocess.run([py, "-c", probe], env=env, capture_output=True, text=True).stdout.split())
    web = sorted(m for m in loaded if m.split(".")[0] in WEB_STACK or m.startswith("romme_score.web"))
    print(f"romme check loads of romme serve's stack: {', '.join(web) or 'nothing'}")


def _timed(args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    quiet(args, env)
    return (time.perf_counter() - start) * 1000


def installed(py: str, env: dict[str, str], scratch: str) -> None:
    """``romme check`` as an installed romme runs (pipx, pip install --user): no
    editable-install hook, whose site-time import of pathlib the venv's every start pays.
    python -S leaves out site; Click and romme_score are found after the standard library."""
    found = f"import sys; sys.path += [{ROOT!r}, {sysconfig.get_paths()['purelib']!r}]"
    entry = f"{found}; from romme_score.cli import main; sys.exit(main())"  # the entry point's
    plain = {**env, "ROMME_DB": os.path.join(scratch, "none.sqlite3")}
    commands = [
        ("python -S -c 'import click'", [py, "-S", "-c", f"{found}; import click"]),
        ("romme check 'HK KK PK'", [py, "-S", "-c", entry, "check", "HK KK PK"]),
        ("romme check --lang de 'HK KK PK'", [py, "-S", "-c", entry, "check", "--lang", "de", "HK KK PK"]),
    ]
    for _label, args in commands:
        quiet(args, plain)
    counts = {label: instructions(args, plain, scratch) for label, args in commands}
    click_count = counts["python -S -c 'import click'"]
    print("  as installed (python -S), no database")
    for label, count in counts.items():
        print(f"{label:52} {count / 1e6:9.1f} {count / click_count:15.2f}")


if __name__ == "__main__":
    main()
