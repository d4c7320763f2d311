"""The marks of a round, and their legend, for every scoresheet: the terminal's standings,
the table mode, the phones' pages, ``romme report`` (its table and its chart), ``romme
chart`` and a tournament's sheets. Defined once, so that a mark means one thing wherever
it is shown (issue 30 item 10): ``*`` went out, ``H`` Hand-Rommé (also the chart's mark
of one), ``-N`` the winner bonus struck, ``s`` a stalemate.
"""

from __future__ import annotations

from romme_score.i18n import N_, _

WENT_OUT = "*"
HAND_ROMME = "H"
BONUS = "-N"
STALEMATE = "s"

# Each mark with what it means (msgids, shown through _()), in the legend's order.
MEANINGS = {
    WENT_OUT: N_("went out"),
    HAND_ROMME: N_("Hand-Rommé"),
    BONUS: N_("bonus struck"),
    STALEMATE: N_("stalemate"),
}


def winner_mark(hand_romme: bool) -> str:
    """The mark of the player who went out: ``*``, or ``*H`` after a Hand-Rommé.

    >>> winner_mark(False), winner_mark(True)
    ('*', '*H')
    """
    return WENT_OUT + (HAND_ROMME if hand_romme else "")


def winner_cell(hand_romme: bool, bonus: int) -> str:
    """The cell of who went out: 0 points, the mark, the bonus struck.

    >>> winner_cell(False, 0), winner_cell(True, 20)
    ('0 *', '0 *H-20')
    """
    return "0 " + winner_mark(hand_romme) + (f"-{bonus}" if bonus else "")


def legend(*marks: str, sep: str = ", ") -> str:
    """What the marks mean, in the language in use: the ones given, else all of them.

    >>> legend()
    '* went out, H Hand-Rommé, -N bonus struck, s stalemate'
    >>> legend(WENT_OUT, HAND_ROMME, sep="  ")
    '* went out  H Hand-Rommé'
    """
    return sep.join(f"{mark} {_(MEANINGS[mark])}" for mark in marks or MEANINGS)


def shown_marks(stalemate: bool) -> str:
    """The legend of a scoresheet: every mark, the stalemate's where one is shown.

    >>> shown_marks(False)
    '* went out, H Hand-Rommé, -N bonus struck'
    """
    return legend(WENT_OUT, HAND_ROMME, BONUS, *([STALEMATE] if stalemate else []))
