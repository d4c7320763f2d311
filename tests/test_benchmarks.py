"""The benchmark scripts still run (make bench prints every figure in the README): each
once, at a tiny size. Speed itself is measured by make bench, never asserted here."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"
GOALS = ("startup.py", "tournament.py", "store.py", "championship.py")  # the scripts that print GOAL lines


@pytest.mark.parametrize(
    "script, env",
    [
        ("sessions.py", {"ROUNDS": "30", "RUNS": "1"}),
        ("stats.py", {"SESSIONS": "12", "ROUNDS": "5", "RUNS": "1"}),
        ("play.py", {"ROUNDS": "20", "SAMPLES": "3", "SCRIPT_ROUNDS": "30", "SCRIPT_LINES": "3"}),
        ("startup.py", {"RUNS": "1", "ONLY": "--version"}),
        ("solver.py", {"HANDS": "10", "TABLES": "6", "STRESS": "4"}),
        ("settle.py", {"RUNS": "1"}),
        ("store.py", {"ROUNDS": "30", "RUNS": "1", "WRITES": "2"}),
        (
            "serve.py",
            {
                "SAMPLES": "5",
                "SAVES": "2",
                "BOARDS": "2",
                "SIZES": "10,30",
                "CHANGES": "3",
                "STREAMS": "3",
                "IDLE": "0.1",
            },
        ),
        ("tournament.py", {"PLAYERS": "13", "SERIES": "1", "GAMES": "2", "RUNS": "1", "COUNT": "0"}),
        ("serve_heal.py", {"BURSTS": "1", "CLIENTS": "2", "IDLE": "0"}),
        ("championship.py", {"PLAYERS": "16", "BOARDS": "3", "SAVES": "4", "RUNS": "1", "PACE": "20"}),
    ],
)
def test_benchmark_script_runs_at_a_tiny_size(script: str, env: dict[str, str]) -> None:
    result = subprocess.run(
        [sys.executable, str(BENCH / script)],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip()
    if script in GOALS and (
        script != "store.py" or os.environ.get("ROMME_TEST_POSTGRES")
    ):  # every goal of issue 28 it measures has its GOAL line (tools/speed_doc.py)
        lines = [line for line in result.stdout.splitlines() if line.startswith("GOAL |")]
        assert lines, result.stdout[-2000:]
        for line in lines:
            parts = [p.strip() for p in line.split("|")]
            assert len(parts) == 7 and parts[-1] in ("met", "missed"), line
