"""View of ``romme tournament sheets``: printable sheets for a series, one HTML page.

One A4 page per table (the tournament, series and table; start numbers, names and
seats; who deals each game, seat 1 first; a row per game with every player's points,
filled in where the table's session has them; the totals; a line for each player's
signature), then the ranking for the wall. As ``romme report``'s page: everything
inline, no script, every name escaped, in the language of the run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

from romme_score.i18n import _, ngettext
from romme_score.tournament import Game, Sheets, SheetTable, TournamentStandings, missing_text
from romme_score.views import marks
from romme_score.views.document import document
from romme_score.views.tournament import closed_note, provisional_note

CSS = """
* { box-sizing: border-box; }
body { margin: 0; background: #e8e8ec; color: #111;
  font: 11pt/1.35 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
.sheet { background: #fff; width: 210mm; min-height: 297mm; margin: 8mm auto; padding: 14mm 14mm 12mm;
  box-shadow: 0 1px 4px rgba(0, 0, 0, .25); page-break-after: always; break-after: page; }
.sheet:last-child { page-break-after: auto; break-after: auto; }
h1 { font-size: 17pt; margin: 0 0 1mm; }
h2 { font-size: 12pt; margin: 6mm 0 2mm; }
.meta { color: #444; margin: 0 0 4mm; }
.big { font-size: 30pt; font-weight: 700; float: right; line-height: 1; border: 2px solid #111;
  border-radius: 3mm; padding: 2mm 4mm; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #555; padding: 1.6mm 2mm; text-align: center; }
th { background: #eee; font-weight: 600; }
td.left, th.left { text-align: left; }
.seats td, .seats th { padding: 1.4mm 2mm; }
.games td { height: 8.5mm; }
.games td.game, .games td.dealer { color: #444; }
.games tfoot td { font-weight: 700; background: #f6f6f6; }
.won { font-weight: 700; }
.start { color: #444; font-size: 9pt; display: block; font-weight: 400; }
.signatures { display: grid; grid-template-columns: repeat(2, 1fr); gap: 9mm 12mm; margin-top: 10mm; }
.signatures div { border-top: 1px solid #111; padding-top: 1mm; font-size: 9.5pt; color: #333; }
.note { color: #444; font-size: 9pt; margin-top: 3mm; }
.ranking td, .ranking th { padding: 1.2mm 2mm; }
.ranking .first td { font-weight: 700; }
footer { color: #666; font-size: 8.5pt; margin-top: 6mm; }
.links { display: grid; grid-template-columns: repeat(auto-fill, minmax(36mm, 1fr)); gap: 3mm;
  margin-top: 6mm; break-inside: avoid; }
.links figure { margin: 0; text-align: center; }
.links svg { width: 32mm; height: 32mm; display: block; margin: 0 auto; }
.links figcaption { font-size: 9pt; font-weight: 600; }
.links .url { display: block; font: 6.5pt ui-monospace, monospace; color: #444; word-break: break-all; }
@media print {
  @page { size: A4; margin: 0; }
  body { background: none; }
  .sheet { margin: 0; box-shadow: none; width: auto; min-height: 0; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  tr { break-inside: avoid; }
}
"""


@dataclass(frozen=True)
class PrintedLink:
    """A phone's link printed on a table's sheet: who it is for, the address and its QR
    code (an SVG element, made by the caller)."""

    kind: str  # scorekeeper or seat
    player: str | None
    url: str
    svg: str


def _links(links: Sequence[PrintedLink]) -> str:
    out = [f"<h2>{escape(_('Links for the phones at this table'))}</h2>", '<div class="links">']
    for link in links:
        label = _("Scorekeeper") if link.kind == "scorekeeper" else (link.player or "")
        out.append(
            f"<figure>{link.svg}<figcaption>{escape(label)}"
            f'<span class="url">{escape(link.url)}</span></figcaption></figure>'
        )
    out.append("</div>")
    return "\n".join(out)


def _footer(version: str, day: str) -> str:
    made = _("Made with romme-score %(version)s on %(day)s.") % {"version": version, "day": day}
    return f"<footer>{escape(made)}</footer>"


def mark(game: Game, player: str) -> str:
    """A player's cell of a game with the marks of every scoresheet (the terminal's
    standings): ``0 *`` went out, ``0 *H`` with a Hand-Rommé, ``-N`` the winner bonus
    actually struck; a loser's points as recorded.

    >>> mark(Game("Anna", True, {"Anna": 0, "Ben": 40}, {"Anna": 4}), "Anna")
    '0 *H-4'
    """
    points = game.points.get(player, 0)
    if game.winner != player:
        return str(points)
    struck = game.bonus.get(player, 0)
    return f"{points} " + marks.winner_mark(game.hand_romme) + (f"-{struck}" if struck else "")


def _cell(game: Game | None, player: str) -> str:
    if game is None:
        return "<td></td>"
    won = ' class="won"' if game.winner == player else ""
    return f"<td{won}>{escape(mark(game, player))}</td>"


def _sums(label: str, sums: Mapping[str, int] | None, names: Sequence[str]) -> str:
    """A line of the sheet's foot: each player's sum, empty cells before the first game."""
    cells = "".join(f"<td>{'' if sums is None else sums[p]}</td>" for p in names)
    return f'<tr><td colspan="2" class="left">{escape(label)}</td>{cells}</tr>'


def _table_sheet(
    sheets: Sheets, table: SheetTable, version: str, day: str, links: Sequence[PrintedLink] = ()
) -> str:
    options = sheets.options
    names = [name for _start, name in table.seats]
    teams = {p.name: p.team for p in sheets.standings.players}
    title = _("%(tournament)s · series %(series)d · table %(table)d") % {
        "tournament": sheets.tournament,
        "series": sheets.series,
        "table": table.table,
    }
    if options.scoring == "augen":
        scoring = _("Augen: fewer is better")
    else:
        scoring = _("Wertung: %(win)d a win, %(hand_romme)d a Hand-Rommé, %(low)s") % {
            "win": options.wertung_win,
            "hand_romme": options.wertung_hand_romme,
            "low": ", ".join(
                _("%(points)d for at most %(augen)d Augen") % {"points": p, "augen": a}
                for a, p in options.wertung_low
            )
            or _("nothing for a loss"),
        }
    meta = ngettext(
        "Session %(session)s · %(games)d game · %(scoring)s",
        "Session %(session)s · %(games)d games · %(scoring)s",
        options.games,
    ) % {
        "session": table.session,
        "games": options.games,
        "scoring": scoring,
    }
    out = [
        '<section class="sheet">',
        f'<div class="big">{escape(_("Table %(table)d") % {"table": table.table})}</div>',
        f"<h1>{escape(title)}</h1>",
        f'<p class="meta">{escape(meta)}</p>',
        '<table class="seats"><thead><tr>',
        f"<th>{escape(_('seat'))}</th><th>{escape(_('start number'))}</th>"
        f'<th class="left">{escape(_("name"))}</th><th class="left">{escape(_("team"))}</th>',
        "</tr></thead><tbody>",
    ]
    for seat, (start, name) in enumerate(table.seats, 1):
        deals = f" ({escape(_('deals first'))})" if seat == 1 else ""
        out.append(
            f'<tr><td>{seat}</td><td>{start}</td><td class="left">{escape(name)}{deals}</td>'
            f'<td class="left">{escape(teams.get(name) or "")}</td></tr>'
        )
    out.append("</tbody></table>")
    out.append(f"<h2>{escape(_('Games'))}</h2>")
    out.append('<table class="games"><thead><tr>')
    out.append(f"<th>{escape(_('game'))}</th><th>{escape(_('deals'))}</th>")
    for start, name in table.seats:
        out.append(
            f"<th>{escape(name)}"
            f'<span class="start">{escape(_("no. %(start)d") % {"start": start})}</span></th>'
        )
    out.append("</tr></thead><tbody>")
    for number, dealer in enumerate(table.dealers, 1):
        game = table.games[number - 1] if number <= len(table.games) else None
        cells = "".join(_cell(game, p) for p in names)
        label = f"{number} s" if game is not None and game.stalemate else str(number)
        out.append(f'<tr><td class="game">{label}</td><td class="dealer">{escape(dealer)}</td>{cells}</tr>')
    out.append("</tbody><tfoot>")
    out.append(_sums(_("Augen"), table.augen, names))
    if options.scoring == "wertung":
        out.append(_sums(_("Wertung"), table.wertung, names))
    out.append("</tfoot></table>")
    note = (
        marks.legend()
        + "; "
        + _(
            "the points are the Augen as recorded, doubled where the rules double them; the Augen "
            "total is the column's points less the bonuses struck (%(bonus)d, %(bonus_hr)d after a "
            "Hand-Rommé)."
        )
        % {"bonus": sheets.rules.winner_bonus, "bonus_hr": sheets.rules.winner_bonus_hand_romme}
    )
    out.append(f'<p class="note">{escape(note)}</p>')
    if table.capped:
        capped = _(
            "A bonus below %(bonus)d (%(bonus_hr)d) is no slip: the bonus struck is never more than the "
            "winner's points before the game, so that no total goes below 0."
        ) % {"bonus": sheets.rules.winner_bonus, "bonus_hr": sheets.rules.winner_bonus_hand_romme}
        out.append(f'<p class="note capped">{escape(capped)}</p>')
    out.append('<div class="signatures">')
    out.extend(f"<div>{escape(_('signature of %(player)s') % {'player': name})}</div>" for name in names)
    out.append("</div>")
    if links:
        out.append(_links(links))
    out.append(_footer(version, day))
    out.append("</section>")
    return "\n".join(out)


def _ranking(standings: TournamentStandings, version: str, day: str) -> str:
    over = standings.series_over  # finished, or closed by the next draw (--force)
    if over == 0:
        after = ""
    elif standings.complete:
        after = ngettext(
            "final ranking after %(series)d series",
            "final ranking after %(series)d series",
            over,
        ) % {"series": over}
    else:
        after = _("after series %(series)d of %(of)d") % {
            "series": over,
            "of": standings.options.series,
        }
    has_teams = any(p.team for p in standings.players)
    out = [
        '<section class="sheet ranking">',
        f"<h1>{escape(_('Ranking of %(tournament)s') % {'tournament': standings.tournament})}</h1>",
        f'<p class="meta">{escape(after)}</p>',
        f'<p class="meta">{escape(provisional_note(standings))}</p>' if standings.provisional else "",
        "<table><thead><tr>",
        f"<th>{escape(_('place'))}</th><th>{escape(_('start number'))}</th>"
        f'<th class="left">{escape(_("name"))}</th>',
    ]
    if has_teams:
        out.append(f'<th class="left">{escape(_("team"))}</th>')
    out.extend(f"<th>{escape(_('S%(series)d') % {'series': n})}</th>" for n in standings.finished)
    out.append(f"<th>{escape(_('total'))}</th></tr></thead><tbody>")
    for p in standings.players:
        name = escape(p.name) + (f" ({escape(_('withdrawn'))})" if p.withdrawn else "")
        row = [f'<td>{p.place}</td><td>{p.start}</td><td class="left">{name}</td>']
        if has_teams:
            row.append(f'<td class="left">{escape(p.team or "")}</td>')
        row.extend(f"<td>{'' if v is None else v}</td>" for v in p.series)
        row.append(f"<td><b>{p.total}</b></td>")
        cls = ' class="first"' if p.place <= 3 else ""
        out.append(f"<tr{cls}>{''.join(row)}</tr>")
    out.append("</tbody></table>")
    if standings.teams:
        out.append(f"<h2>{escape(_('Teams'))}</h2>")
        out.append(
            f'<table><thead><tr><th>{escape(_("place"))}</th><th class="left">{escape(_("team"))}</th>'
            f'<th>{escape(_("total"))}</th><th class="left">{escape(_("players"))}</th></tr></thead><tbody>'
        )
        for t in standings.teams:
            out.append(
                f'<tr><td>{t.place}</td><td class="left">{escape(t.team)}</td><td>{t.total}</td>'
                f'<td class="left">{escape(", ".join(t.players))}</td></tr>'
            )
        out.append("</tbody></table>")
    if standings.missing:
        missing = missing_text(standings.missing)
        out.append(f'<p class="note">{escape(_("Not complete: %(missing)s.") % {"missing": missing})}</p>')
    if standings.closed:
        out.append(f'<p class="note">{escape(closed_note(standings.closed))}</p>')
    out.append(_footer(version, day))
    out.append("</section>")
    return "\n".join(out)


def render_sheets(
    sheets: Sheets, version: str, day: str, links: Mapping[int, Sequence[PrintedLink]] | None = None
) -> str:
    """The whole page: a sheet per table (with its phones' links and QR codes where
    ``links`` has them, by table number), then the ranking."""
    title = _("%(tournament)s · series %(series)d: table sheets and ranking") % {
        "tournament": sheets.tournament,
        "series": sheets.series,
    }
    body = [_table_sheet(sheets, t, version, day, (links or {}).get(t.table, ())) for t in sheets.tables]
    body.append(_ranking(sheets.standings, version, day))
    return document(title, CSS, body)


def written(sheets: Sheets, path: str) -> str:
    return ngettext(
        "Sheets of series %(series)d of '%(tournament)s' (%(tables)d table and the ranking) "
        "written to %(path)s.",
        "Sheets of series %(series)d of '%(tournament)s' (%(tables)d tables and the ranking) "
        "written to %(path)s.",
        len(sheets.tables),
    ) % {
        "series": sheets.series,
        "tournament": sheets.tournament,
        "tables": len(sheets.tables),
        "path": path,
    }
