"""Views of ``romme value``: penalty points of the cards left in a hand, card by card."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from romme_score.cards import Card, Profile
from romme_score.i18n import _, ngettext


def points(n: int) -> str:
    """``1 point``, ``3 points`` (``1 Punkt``, ``3 Punkte``)."""
    return ngettext("%(count)d point", "%(count)d points", n) % {"count": n}


def value_json(rows: Sequence[tuple[Card, int]], profile: Profile, ascii: bool) -> dict[str, Any]:
    return {
        "points": sum(p for _p, p in rows),
        "cards": [{"card": c.format(profile, ascii), "points": p} for c, p in rows],
    }


def render_value(rows: Sequence[tuple[Card, int]], profile: Profile, ascii: bool) -> str:
    # Two columns by hand: importing tabulate would double this command's start-up time.
    shown = [(c.format(profile, ascii), p) for c, p in rows]
    card, pts = _("card"), _("points")
    width = max([len(card), *(len(c) for c, _p in shown)])
    lines = [f"{card:<{width}}  {pts:>6}"]
    lines += [f"{c:<{width}}  {p:>{max(6, len(pts))}}" for c, p in shown]
    lines.append(_("Total: %(points)s") % {"points": points(sum(p for _c, p in rows))})
    return "\n".join(lines)
