"""Start-up of whole `romme` invocations, next to a bare `python -c pass` and to
`python -c 'import click'`.

Two measures. Instructions, counted with valgrind's callgrind where valgrind is installed:
the same count however loaded the machine is, so `romme check` against `import click` in
the same environment is a ratio that means something on a shared machine (the goal of
issue 20 item 31: at most 1.2), in the development venv and as an installed romme runs
(without the editable-install hook that every start in the venv pays). Then the median
wall time of several runs of each command (the machines are shared and noisy, so medians
and ratios, not single timings).

Every command runs with a warm bytecode cache, as an installed program has one (pip
compiles it at install): PYTHONPYCACHEPREFIX in a scratch directory, filled by one run
first, whatever PYTHONDONTWRITEBYTECODE says. Run: `python benchmarks/startup.py`.
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

RUNS = int(os.environ.get("RUNS", "21"))
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # where romme_score is
WEB_STACK = ("starlette", "uvicorn", "sse_starlette", "segno", "anyio", "httpx")


def median_ms(args: list[str], env: dict[str, str]) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def instructions(args: list[str], env: dict[str, str], scratch: str) -> int:
    """Instructions the whole process runs, as callgrind counts them (its ``summary:``)."""
    out = os.path.join(scratch, "callgrind.out")
    subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    with open(out, encoding="utf-8") as f:
        for line in f:
            if line.startswith(("summary:", "totals:")):
                os.remove(out)
                return int(line.split()[1])
    raise RuntimeError(f"no instruction count from callgrind for {args}")


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:  # the database and the bytecode go with it
        run(scratch)


def run(scratch: str) -> None:
    env = {**os.environ, "ROMME_DB": os.path.join(scratch, "bench.sqlite3")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = os.path.join(scratch, "pycache")
    env["PYTHONHASHSEED"] = "0"  # one layout of every dict: the same count run after run
    py = sys.executable
    script = os.path.join(os.path.dirname(py), "romme")  # the entry point, as a user runs it
    romme = [script] if os.path.exists(script) else [py, "-m", "romme_score"]
    counted = [
        ("python -c pass", [py, "-c", "pass"]),
        ("python -c 'import click'", [py, "-c", "import click"]),
        ("romme check 'HK KK PK'", [*romme, "check", "HK KK PK"]),
        ("romme check --lang de 'HK KK PK'", [*romme, "check", "--lang", "de", "HK KK PK"]),
    ]
    for _label, args in counted:  # the bytecode cache filled before anything is measured
        subprocess.run(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    # As an installed romme runs (pipx, pip install --user): no editable-install hook, whose
    # site-time import of pathlib the development venv's every start pays. python -S leaves
    # out site; Click and romme_score are found after the standard library, as installed.
    found = f"import sys; sys.path += [{ROOT!r}, {sysconfig.get_paths()['purelib']!r}]"
    entry = f"{found}; from romme_score.cli import main; sys.exit(main())"  # the entry point's
    installed = [
        ("python -S -c 'import click'", [py, "-S", "-c", f"{found}; import click"]),
        ("romme check 'HK KK PK'", [py, "-S", "-c", entry, "check", "HK KK PK"]),
        ("romme check --lang de 'HK KK PK'", [py, "-S", "-c", entry, "check", "--lang", "de", "HK KK PK"]),
    ]
    for _label, args in installed:
        subprocess.run(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    if shutil.which("valgrind") is None:
        print("instructions: valgrind is not installed here, so only wall times follow")
    else:
        print("instructions (valgrind --tool=callgrind), bytecode cached")
        print(f"{'command':34} {'M instr.':>9} {'x import click':>15}")
        for title, commands in (("in this venv", counted), ("as installed (python -S)", installed)):
            counts = {label: instructions(args, env, scratch) for label, args in commands}
            click_count = next(count for label, count in counts.items() if "import click" in label)
            print(f"  {title}")
            for label, count in counts.items():
                print(f"{label:34} {count / 1e6:9.1f} {count / click_count:15.2f}")
    cases = [
        ("python -c pass", [py, "-c", "pass"]),
        ("python -c 'import click'", [py, "-c", "import click"]),
        ("romme check (2 melds)", [py, "-m", "romme_score", "check", "HK KK PK", "T9 T10 TB"]),
        (
            "romme check --lang de (2 melds)",
            [py, "-m", "romme_score", "check", "--lang", "de", "HK KK PK", "T9 T10 TB"],
        ),
        (
            "romme check --first (2 melds)",
            [py, "-m", "romme_score", "check", "--first", "TA PA J", "H3 H4 H5"],
        ),
        ("romme check --onto", [py, "-m", "romme_score", "check", "--onto", "♥2 ♥3 ♥4", "♥A ♥5"]),
        ("romme value", [py, "-m", "romme_score", "value", "HK K10 J"]),
    ]
    for _label, args in cases:
        subprocess.run(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    probe = (
        "import sys\nfrom romme_score.cli import main\n"
        "try:\n    main(['check', 'HK KK PK'], standalone_mode=False)\n"
        "finally:\n    print(' '.join(sorted(sys.modules)))\n"
    )
    loaded = set(subprocess.run([py, "-c", probe], env=env, capture_output=True, text=True).stdout.split())
    web = sorted(m for m in loaded if m.split(".")[0] in WEB_STACK or m.startswith("romme_score.web"))
    print(f"romme check loads of romme serve's stack: {', '.join(web) or 'nothing'}")
    base = None
    print(f"median wall time of {RUNS} runs each")
    print(f"{'command':34} {'ms':>8} {'minus bare python':>18}")
    for label, args in cases:
        ms = median_ms(args, env)
        if base is None:
            base = ms
        print(f"{label:34} {ms:8.1f} {ms - base:18.1f}")


if __name__ == "__main__":
    main()
