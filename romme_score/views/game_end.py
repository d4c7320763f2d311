"""When the game ends, in words: ``ends at 500 points``, ``ends after 5 rounds``,
``has no set end`` (the option's own text, ``rounds:5``, stays for the JSON and the rules).

>>> from romme_score.i18n import set_language
>>> from romme_score.rules import GameEnd
>>> set_language("de"); ends(GameEnd("rounds", 5)), ends(GameEnd("open"))
('endet nach 5 Runden', 'hat kein festes Ende')
>>> set_language("en"); ends(GameEnd("points", 500))
'ends at 500 points'
"""

from __future__ import annotations

from romme_score.i18n import _, ngettext
from romme_score.rules import GameEnd


def ends(end: GameEnd) -> str:
    """How the game ends, said of the game (``the game %(end)s``, ``it %(end)s``)."""
    if end.kind == "points":
        return ngettext("ends at %(points)d point", "ends at %(points)d points", end.limit) % {
            "points": end.limit
        }
    if end.kind == "rounds":
        return ngettext("ends after %(rounds)d round", "ends after %(rounds)d rounds", end.limit) % {
            "rounds": end.limit
        }
    return _("has no set end")


def typed(end: GameEnd) -> str:
    """The option's value as the language lets it be typed: ``500``, ``runden:5``, ``offen``
    in German (:meth:`GameEnd.parse` reads both languages' words)."""
    if end.kind == "points":
        return str(end.limit)
    if end.kind == "rounds":
        return _("rounds:%(rounds)d") % {"rounds": end.limit}
    return _("open")
