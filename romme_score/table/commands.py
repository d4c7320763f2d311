"""The words of a line typed in the table mode (or read from its script); the line itself
is run by the function that ``romme play`` hands the table (:mod:`romme_score.cli.inside`).

>>> split_line('round --winner Anna Ben="HK K10 J" Carl=5')
['round', '--winner', 'Anna', 'Ben=HK K10 J', 'Carl=5']
"""

from __future__ import annotations

import shlex

# Words that leave the table mode, and commands that are not run inside it.
QUIT_WORDS = ("quit", "exit")
NOT_INSIDE = ("play",)


class LineError(ValueError):
    """A line that cannot be split into words (an unclosed quote)."""


def split_line(line: str) -> list[str]:
    """Shell-style words of one line; ``#`` starts a comment."""
    try:
        lexer = shlex.shlex(line, posix=True, punctuation_chars=False)
        lexer.whitespace_split = True
        lexer.commenters = "#"
        return list(lexer)
    except ValueError as exc:
        raise LineError(f"cannot read the line: {exc}") from None
