"""Views of ``romme league``: a league created, events added or removed, an alias, the list
of leagues and the season's standings (text and JSON). The page of ``romme league report``
is :mod:`romme_score.views.league_report`."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from romme_score.i18n import N_, _, ngettext, pgettext
from romme_score.league.options import LeagueOptions
from romme_score.league.rules import Event
from romme_score.league.service import Added, League, LeagueStandings, LeagueSummary
from romme_score.views.local import day_text
from romme_score.views.shell import shell_word


def kind_text(kind: str) -> str:
    """A league's event: a tournament, or a game of an evening (a Partie in German, where a
    tournament table's game is a Spiel: issue 38 item 6)."""
    return _("tournament") if kind == "tournament" else pgettext("league event", "game")


def options_text(options: LeagueOptions) -> str:
    """``points 10,8,6,5,4,3,2,1 · best 5 · attendance 2 · tie break most wins``"""
    parts = [_("points per place %(points)s") % {"points": ",".join(str(p) for p in options.points)}]
    if options.best is not None:
        if options.best == 1:  # one result: no number to say (as ngettext would need)
            parts.append(_("only the best result counts"))
        else:
            parts.append(_("the best %(best)d results count") % {"best": options.best})
    else:
        parts.append(_("every result counts"))
    if options.attendance:
        parts.append(_("%(points)d for attending") % {"points": options.attendance})
    if options.tie_break == "most-wins":
        parts.append(_("equal points: more wins first"))
    return " · ".join(parts)


def render_created(info: League) -> str:
    head = _("League '%(league)s' created") % {"league": info.name}
    if info.season:
        head += " " + _("(season %(season)s)") % {"season": info.season}
    return f"{head}: {options_text(info.options)}.\n" + _(
        "Add its events with: romme league add %(league)s --tournament NAME --session NAME"
    ) % {"league": shell_word(info.name, "'")}


def created_json(info: League) -> dict[str, Any]:
    return {"league": info.name, "season": info.season, **info.options.to_dict()}


def render_added(added: Added) -> str:
    lines = [
        _("Added to league '%(league)s': %(kind)s '%(event)s'.")
        % {"league": added.league, "kind": kind_text(kind), "event": event}
        for kind, event in added.events
    ]
    return "\n".join(lines)


def added_json(added: Added) -> dict[str, Any]:
    return {"league": added.league, "added": [{"name": n, "kind": k} for k, n in added.events]}


def render_removed(league: str, kind: str, event: str) -> str:
    return _("Removed from league '%(league)s': %(kind)s '%(event)s'.") % {
        "league": league,
        "kind": kind_text(kind),
        "event": event,
    }


def render_alias(league: str, spelling: str, person: str) -> str:
    return _("In league '%(league)s', '%(spelling)s' now counts as '%(person)s'.") % {
        "league": league,
        "spelling": spelling,
        "person": person,
    }


def list_json(leagues: Sequence[LeagueSummary]) -> dict[str, Any]:
    return {
        "leagues": [
            {
                "name": s.info.name,
                "season": s.info.season,
                "events": s.events,
                "created": s.info.created_at,
                **s.info.options.to_dict(),
            }
            for s in leagues
        ]
    }


def render_list(leagues: Sequence[LeagueSummary]) -> str:
    from tabulate import tabulate  # imported where a table is printed

    if not leagues:
        return _("No league yet: start one with romme league new NAME.")
    rows: list[list[object]] = []
    for summary in leagues:  # the options wrap, each line a row of its own: the list fits 80 columns
        first, *more = textwrap.wrap(options_text(summary.info.options), 44) or [""]
        rows.append([summary.info.name, summary.info.season or "", summary.events, first])
        rows += [["", "", "", line] for line in more]
    return tabulate(
        rows,
        headers=[_("league"), _("season"), _("events"), _("options")],
        colalign=["left", "left", "right", "left"],
        tablefmt="simple",
        disable_numparse=True,
    )


def standings_json(s: LeagueStandings) -> dict[str, Any]:
    """Exactly the JSON of issue 29: the settings, the events by date, the players ranked."""
    return {
        "league": s.league,
        "season": s.season,
        "points": list(s.options.points),
        "best": s.options.best,
        "attendance": s.options.attendance,
        "tie_break": s.options.tie_break,
        "events": [
            {"name": e.name, "kind": e.kind, "date": e.day.isoformat(), "finished": e.finished}
            for e in s.events
        ],
        "players": [
            {
                "name": p.name,
                "place": p.place,
                "points": p.points,
                "played": p.played,
                "results": [
                    {"event": r.event, "place": r.place, "points": r.points, "counted": r.counted}
                    for r in p.results
                ],
            }
            for p in s.players
        ],
    }


def event_line(number: int, event: Event) -> str:
    """``2. Friday (game, 9 Jan 2026, not finished)``"""
    facts = [kind_text(event.kind), day_text(event.day)]
    if not event.finished:
        facts.append(_("not finished"))
    return f"{number}. {event.name} ({', '.join(facts)})"


def result_cell(points: int, counted: bool) -> str:
    """A result as the table shows it: dropped results in brackets."""
    return str(points) if counted else f"({points})"


def dropped_note(best: int | None) -> str:
    """What the brackets of a dropped result mean."""
    if best == 1:
        return _("(N): a result dropped, only the best counts.")
    return _("(N): a result dropped, only the best %(best)d count.") % {"best": best}


def nobody_placed() -> str:
    """Why a league whose events have begun ranks nobody yet (docs/rules.md §11)."""
    return _(
        "Nobody has a place yet: a game counts from its first round, a tournament from its "
        "first finished series."
    )


def render_standings(s: LeagueStandings) -> str:
    from tabulate import tabulate  # imported where a table is printed

    head = _("League '%(league)s'") % {"league": s.league}
    if s.season:
        head += " " + _("(season %(season)s)") % {"season": s.season}
    lines = [head, options_text(s.options) + "."]
    if not s.events:
        lines.append(_("No events yet: add them with romme league add."))
        return "\n".join(lines)
    lines += ["", _("Events:")] + [f"  {event_line(n, e)}" for n, e in enumerate(s.events, 1)]
    if not s.players:  # an empty table would say nothing: the sentence says why
        lines += ["", nobody_placed()]
        return "\n".join(lines)
    index = {e.order: n for n, e in enumerate(s.events)}
    rows = []
    previous = None
    for p in s.players:
        cells = [""] * len(s.events)
        for r in p.results:
            cells[index[r.order]] = result_cell(r.points, r.counted)
        rows.append([p.place if p.place != previous else "", p.name, p.points, p.played, *cells])
        previous = p.place
    headers = [
        _("place"),
        _("name"),
        _("points"),
        _("played"),
        *[str(n) for n in range(1, len(s.events) + 1)],
    ]
    align = ["right", "left", "right", "right", *(["right"] * len(s.events))]
    lines += ["", tabulate(rows, headers=headers, colalign=align, tablefmt="simple", disable_numparse=True)]
    if any(not r.counted for p in s.players for r in p.results):
        lines.append(dropped_note(s.options.best))
    if not s.finished:
        lines.append(_("Events not finished count as they stand."))
    return "\n".join(lines)


# --- the board of romme serve --league ----------------------------------------------------

# The board page's fixed words (the script shows them).
BOARD_TEXTS: dict[str, str] = {
    "ranking": N_("Standings"),
    "events": N_("Events"),
    "place": N_("place"),
    "name": N_("name"),
    "points": N_("points"),
    "played": N_("played"),
    "join": N_("This board on another screen"),
    "offline": N_("The server cannot be reached. Trying again…"),
    "link_gone": N_("This link is wrong or no longer valid: scan the QR code on the board again."),
    "server_error": N_("The server could not do that; please try again."),
    "stale": N_("The server is not answering: this is the state of {time}."),
}


def board_texts() -> dict[str, str]:
    return {key: _(text) for key, text in BOARD_TEXTS.items()}


def board_title(league: str) -> str:
    return _("%(league)s · Season") % {"league": league}


def board_json(s: LeagueStandings, version: int) -> dict[str, Any]:
    """``state.json`` of a league's board: the keys of ``romme league standings --json``,
    ``"version"``, and the page's sentences (``"view"``: the heading, the options, a line
    per event)."""
    data = standings_json(s)
    data["version"] = version
    heading = s.league + (f" {s.season}" if s.season else "")
    playing = sum(1 for e in s.events if not e.finished)
    if playing:
        status = ngettext(
            "%(count)d event not finished: counted as it stands.",
            "%(count)d events not finished: counted as they stand.",
            playing,
        ) % {"count": playing}
    else:
        status = ""
    if s.events and not s.players:
        status = f"{status} {nobody_placed()}".strip()
    data["view"] = {
        "heading": heading,
        "options": options_text(s.options),
        "status": status,
        "events": [event_line(n, e) for n, e in enumerate(s.events, 1)],
    }
    return data


def board_link_heading() -> str:
    return _("League board (read only): the season's standings, for a projector")


def serving_league(league: str, host: str, port: int) -> str:
    return _("Serving league '%(league)s' on %(host)s port %(port)d; Ctrl-C stops.") % {
        "league": league,
        "host": host,
        "port": port,
    }
