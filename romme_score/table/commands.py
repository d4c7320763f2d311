"""The words of a line typed in the table mode (or read from its script); the line itself
is run by the function that ``romme play`` hands the table (:mod:`romme_score.cli.inside`).

>>> split_line('round --winner Anna Ben="HK K10 J" Carl=5')
['round', '--winner', 'Anna', 'Ben=HK K10 J', 'Carl=5']
"""

from __future__ import annotations

import shlex

from romme_score.i18n import _, grouped
from romme_score.inputs import nfc

# Commands that are not run inside the table mode (the words that leave it are the
# registry's: romme_score/table/words.py).
NOT_INSIDE = ("play",)
# Characters in one line: far more than any command needs (a round of eight players with
# 21 cards each is some 600), and shlex reads 64 KB in well under a second (it builds its
# words character by character: 1 MB took 53 s).
MAX_LINE = 64 * 1024


class LineError(ValueError):
    """A line that cannot be split into words (an unclosed quote)."""


def split_line(line: str) -> list[str]:
    """Shell-style words of one line; ``#`` starts a comment. A line longer than
    :data:`MAX_LINE` characters is refused before it is read."""
    if len(line) > MAX_LINE:
        raise LineError(
            _("the line has %(length)s characters; a line holds at most %(max)s characters")
            % {"length": grouped(len(line)), "max": grouped(MAX_LINE)}
        )
    try:
        lexer = shlex.shlex(nfc(line), posix=True, punctuation_chars=False)
        lexer.whitespace_split = True
        lexer.commenters = "#"
        return list(lexer)
    except ValueError as exc:  # shlex's own words are English: said here in the run's language
        if "quotation" in str(exc):
            raise LineError(_("cannot read the line: a quotation mark (' or \") is not closed")) from None
        if "escaped" in str(exc):
            raise LineError(_("cannot read the line: it ends in a backslash (\\)")) from None
        raise LineError(_("cannot read the line: %(error)s") % {"error": exc}) from None
