"""Collect the GOAL lines of a ``make bench`` run into docs/speed.md.

Every benchmark prints, for each goal, one line (benchmarks/goal_line.py):

    GOAL | <figure> | <measured> | <baseline> | <ratio> | <goal> | met

``make bench`` runs each benchmark through ``tools/speed_doc.py run LOG -- CMD ...``
(its output shown as it comes and kept in LOG), then ``tools/speed_doc.py write LOG``,
which puts every GOAL line of the run into docs/speed.md as one table, with the machine
and the date, between the page's two markers (the rest of the page is left as it is).
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "speed.md"
BEGIN = "<!-- goals: written by tools/speed_doc.py from the GOAL lines of make bench; do not edit -->"
END = "<!-- /goals -->"
HEAD = ("figure", "measured", "baseline", "ratio", "goal", "met")


def goal_rows(text: str) -> list[tuple[str, ...]]:
    """The six fields of every GOAL line in ``text``, in order.

    >>> goal_rows("x\\nGOAL | romme --help | 233.8 M | 188.8 M | 1.24 | <= 2.00x | met\\n")
    [('romme --help', '233.8 M', '188.8 M', '1.24', '<= 2.00x', 'met')]
    """
    rows = []
    for line in text.splitlines():
        if not line.startswith("GOAL |"):
            continue
        parts = tuple(p.strip() for p in line.split("|")[1:])
        if len(parts) != len(HEAD) or parts[-1] not in ("met", "missed"):
            raise ValueError(f"not a GOAL line: {line!r}")
        rows.append(parts)
    return rows


def machine() -> str:
    """The CPU, its cores, the system and the Python of this run."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return (
        f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
        f"{platform.python_implementation()} {platform.python_version()}"
    )


def section(rows: list[tuple[str, ...]], when: datetime) -> str:
    missed = sum(r[-1] == "missed" for r in rows)
    lines = [
        BEGIN,
        "",
        f"The goals of `make bench` (issue 28), run {when:%Y-%m-%d %H:%M} UTC on {machine()}:"
        f" {len(rows) - missed} of {len(rows)} met.",
        "",
        "| " + " | ".join(HEAD) + " |",
        "|" + "---|" * len(HEAD),
    ]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    lines += ["", END]
    return "\n".join(lines)


def write(log: Path, page: Path = PAGE, when: datetime | None = None) -> int:
    rows = goal_rows(log.read_text(encoding="utf-8"))
    if not rows:
        print(f"{log}: no GOAL line, {page} left as it is", file=sys.stderr)
        return 1
    text = page.read_text(encoding="utf-8") if page.exists() else "# Speed\n"
    new = section(rows, when or datetime.now(UTC))
    if BEGIN in text and END in text:
        before, rest = text.split(BEGIN, 1)
        text = before + new + rest.split(END, 1)[1]
    else:  # the first time: after the page's title
        title, sep, body = text.partition("\n")
        text = f"{title}{sep}\n{new}\n{body}"
    page.write_text(text, encoding="utf-8")
    print(f"{page.relative_to(ROOT) if page.is_relative_to(ROOT) else page}: {len(rows)} goals written")
    return 0


def run(log: Path, command: list[str]) -> int:
    """Run ``command``, showing its output as it comes and appending it to ``log``."""
    with open(log, "a", encoding="utf-8") as kept:
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, bufsize=1)
        assert proc.stdout is not None
        for line in proc.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            kept.write(line)
        return proc.wait()


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "write":
        return write(Path(argv[1]))
    if len(argv) >= 4 and argv[0] == "run" and argv[2] == "--":
        return run(Path(argv[1]), argv[3:])
    print("usage: tools/speed_doc.py run LOG -- COMMAND ... | tools/speed_doc.py write LOG", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
