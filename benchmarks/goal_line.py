"""The one line every benchmark prints for each goal of issue 28, which
tools/speed_doc.py collects from a ``make bench`` run into docs/speed.md:

    GOAL | <figure> | <measured> | <baseline> | <ratio> | <goal> | met

(or ``missed``). ``measured`` and ``baseline`` carry their unit; ``ratio`` is measured
over baseline; ``goal`` says the bound in words and figures.
"""

from __future__ import annotations


def goal_line(figure: str, measured: str, baseline: str, ratio: float | None, goal: str, met: bool) -> str:
    """The GOAL line of one figure (``ratio`` None: a figure that is no ratio, shown as -).

    >>> goal_line("romme --help", "233.8 M instr.", "188.8 M instr.", 1.238, "<= 2.00x import click", True)
    'GOAL | romme --help | 233.8 M instr. | 188.8 M instr. | 1.24 | <= 2.00x import click | met'
    """
    shown = "-" if ratio is None else f"{ratio:.2f}"
    for part in (figure, measured, baseline, goal):
        if "|" in part or "\n" in part:
            raise ValueError(f"a GOAL line's part may hold no '|' nor a line break: {part!r}")
    return f"GOAL | {figure} | {measured} | {baseline} | {shown} | {goal} | {'met' if met else 'missed'}"


def print_goal(figure: str, measured: str, baseline: str, ratio: float | None, goal: str, met: bool) -> None:
    print(goal_line(figure, measured, baseline, ratio, goal, met), flush=True)
