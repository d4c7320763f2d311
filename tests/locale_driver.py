"""Run many ``romme`` command lines in one process under the locale it was started in, as
separate runs would: each line's standard output and standard error go to files of their
own (file descriptors 1 and 2 pointed at them), so that what is checked is the bytes the
terminal would get, encoded by the streams Python set up for that locale.

Used by the locale matrix of ``tests/test_hostile.py``: one process per locale instead of
one per command keeps ``make test`` quick.

    python tests/locale_driver.py LINES.json RESULTS_DIR

LINES.json is a list of ``{"args": [...], "stdin": "..."}``; RESULTS_DIR gets
``N.out``, ``N.err`` and ``codes.json`` (the exit code of each line, in order).
"""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path


def run_line(args: list[str], stdin: str | None) -> int:
    from romme_score.cli import main

    saved_stdin = sys.stdin
    if stdin is not None:  # a pipe: bytes, not a terminal
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8")
    try:
        main.main(args, prog_name="romme")
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.stdin = saved_stdin
    return 0


def main() -> None:
    lines = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    results = Path(sys.argv[2])
    codes = []
    saved = os.dup(1), os.dup(2)
    for number, line in enumerate(lines):
        with open(results / f"{number}.out", "wb") as out, open(results / f"{number}.err", "wb") as err:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(out.fileno(), 1)
            os.dup2(err.fileno(), 2)
            try:
                codes.append(run_line(line["args"], line.get("stdin")))
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os.dup2(saved[0], 1)
                os.dup2(saved[1], 2)
    (results / "codes.json").write_text(json.dumps(codes), encoding="utf-8")


if __name__ == "__main__":
    main()
