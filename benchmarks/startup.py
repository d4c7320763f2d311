"""Wall time of whole `romme` invocations, next to a bare `python -c pass`.

Prints the median of several runs of each command (the machines are shared and
noisy, so medians and ratios, not single timings). Run: `python benchmarks/startup.py`.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

RUNS = int(os.environ.get("RUNS", "21"))
WEB_STACK = ("starlette", "uvicorn", "sse_starlette", "segno", "anyio", "httpx")


def median_ms(args: list[str], env: dict[str, str]) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:  # the database goes with it
        run(scratch)


def run(scratch: str) -> None:
    env = {**os.environ, "ROMME_DB": os.path.join(scratch, "bench.sqlite3")}
    py = sys.executable
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
