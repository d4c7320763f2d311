"""View of ``romme league report``: a club's season (docs/rules.md §11) as one self-contained
HTML page: the standings, every event's places and points, and a chart of each player's
points over the season. As ``romme report``'s page: no script, no external file, one
column on a phone (360 px without sideways scrolling), print styles.

The chart is :mod:`romme_score.views.chart_svg`'s, one ``<polyline>`` per player through
the counted points after each event (``LeagueStandings.course``), with a
legend that names every player in ranking order.
"""

from __future__ import annotations

from datetime import date
from html import escape

from romme_score.i18n import N_, _
from romme_score.league.service import LeagueStandings
from romme_score.views import report as report_views
from romme_score.views.chart_svg import Line, legend, svg_lines
from romme_score.views.document import document
from romme_score.views.league import dropped_note, kind_text, nobody_placed, options_text
from romme_score.views.local import day_text

TITLE = N_("Season: {league}")
STANDINGS = N_("Standings")
EVENTS = N_("The events")
CHART = N_("The course of the season")
CHART_TITLE = N_("Counted points of {league} after each event")
CHART_DESC = N_("One line per player: the points that count after each event of the season.")
NOTHING = N_("No events yet: add them with romme league add.")
NOT_FINISHED = N_("Not finished: counted as it stands.")
FOOTER = N_("Made with romme-score {version} on {day}.")
HEADERS = (N_("place"), N_("name"), N_("points"), N_("played"))
EVENT_HEADERS = (N_("place"), N_("name"), N_("points"))

CSS = (
    report_views.CSS
    + """
.standings, .event table { width: 100%; }
.standings td:nth-child(2), .event td:nth-child(2) { text-align: left; white-space: normal;
  overflow-wrap: anywhere; }
.standings th:nth-child(2), .event th:nth-child(2) { text-align: left; }
.dropped { color: var(--muted); }
.event { break-inside: avoid; }
.open { color: #a15c00; font-weight: 600; }
.legend li { overflow-wrap: anywhere; }
"""
)


def _lines(s: LeagueStandings) -> list[Line]:
    """Each player's counted points after each event, in ranking order."""
    course_of = s.course
    steps = tuple(range(1, len(s.events) + 1))
    return [Line(p.name, steps, tuple(course_of[p.name]), p.points) for p in s.players]


def svg_chart(s: LeagueStandings) -> str:
    """Each player's counted points after each event, as an SVG that scales with the page."""
    return svg_lines(
        _lines(s),
        len(s.events),
        title=_(CHART_TITLE).format(league=s.league),
        desc=_(CHART_DESC),
        kind="running-totals season",
    )


def _standings(s: LeagueStandings) -> str:
    head = "".join(f"<th>{escape(_(h))}</th>" for h in HEADERS)
    rows = []
    previous = None
    for p in s.players:
        place = str(p.place) if p.place != previous else ""
        previous = p.place
        rows.append(
            f'<tr data-player="{escape(p.name)}"><td>{place}</td><td>{escape(p.name)}</td>'
            f"<td>{p.points}</td><td>{p.played}</td></tr>"
        )
    return f'<table class="standings"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def _event(s: LeagueStandings, number: int) -> str:
    event = s.events[number - 1]
    rows = []
    for p in s.players:
        for r in p.results:
            if r.order == event.order:
                cell = str(r.points) if r.counted else f'<span class="dropped">({r.points})</span>'
                rows.append((r.place, p.name, cell))
    rows.sort(key=lambda row: (row[0], row[1].casefold()))
    head = "".join(f"<th>{escape(_(h))}</th>" for h in EVENT_HEADERS)
    meta = f"{kind_text(event.kind)} · {day_text(event.day)}"
    parts = [
        f'<section class="event" data-event="{escape(event.name)}" data-kind="{event.kind}">',
        f"<h3>{number}. {escape(event.name)}</h3>",
        f'<p class="meta">{escape(meta)}</p>',
    ]
    if not event.finished:
        parts.append(f'<p class="open">{escape(_(NOT_FINISHED))}</p>')
    if rows:
        body = "".join(
            f"<tr><td>{place}</td><td>{escape(name)}</td><td>{cell}</td></tr>" for place, name, cell in rows
        )
        parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
    else:
        parts.append(f"<p>{escape(nobody_placed())}</p>")
    parts.append("</section>")
    return "".join(parts)


def render_report(s: LeagueStandings, version: str, day: date) -> str:
    """The whole page; ``day`` (today) is named in its footer."""
    heading = s.league + (f" {s.season}" if s.season else "")
    body = [f"<header><h1>{escape(heading)}</h1>", f'<p class="meta">{escape(options_text(s.options))}</p>']
    body.append("</header><main>")
    if not s.events:
        body.append(f"<p>{escape(_(NOTHING))}</p>")
    elif not s.players:  # begun, nobody placed yet: a sentence, no empty table and chart
        body.append(f"<h2>{escape(_(STANDINGS))}</h2><p>{escape(nobody_placed())}</p>")
    else:
        body.append(f"<h2>{escape(_(STANDINGS))}</h2>{_standings(s)}")
        if any(not r.counted for p in s.players for r in p.results):
            body.append(f'<p class="note">{escape(dropped_note(s.options.best))}</p>')
        body.append(
            f"<h2>{escape(_(CHART))}</h2><figure>{svg_chart(s)}<figcaption>{legend(_lines(s))}</figcaption></figure>"
        )
    if s.events:
        body.append(f"<h2>{escape(_(EVENTS))}</h2>")
        body.extend(_event(s, n) for n in range(1, len(s.events) + 1))
    footer = _(FOOTER).format(version=version, day=day_text(day))
    body.append(f"</main><footer><p>{escape(footer)}</p></footer>")
    title = _(TITLE).format(league=heading)
    return document(title, CSS, body)


def written(s: LeagueStandings, path: str) -> str:
    return _("The season of league '%(league)s' written to %(path)s.") % {"league": s.league, "path": path}
