"""View of ``romme report``: an evening as one self-contained HTML page.

Standings, the course of each game as an inline SVG chart, Hand-Rommés and
bonuses, and the settlement with who pays whom. Everything is in the file: no
script, no external style sheet, font or image, so it opens offline, on a
phone (the layout narrows to one column) and on paper (print styles).

The chart is :mod:`romme_score.views.chart_svg`'s, the page's shell
:mod:`romme_score.views.document`'s, as for the league's report and the tournament's sheets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from decimal import Decimal
from html import escape

from romme_score.history import Chart, GameReport, Report
from romme_score.i18n import N_, _, decimal_text, ngettext, tenths_text
from romme_score.views import marks
from romme_score.views.chart_svg import Line, Mark, colour, legend, svg_lines
from romme_score.views.document import document
from romme_score.views.game_end import ends
from romme_score.views.local import day_text, money, stamp_day

TITLE = N_("Rommé: {names}")
EVENING = N_("An evening of {count} games")
GAME_META = N_("{players} · {rounds} · the game {end} · started {day}")
STANDINGS = N_("Standings")
CHART = N_("The course of the game")
CHART_TITLE = N_("Running totals of {session} by round")
CHART_DESC = N_("One line per player: the total of penalty points after each round.")
SCORESHEET = N_("Round by round")
RUNNING_NOTE = N_("the small number is the running total.")
MARKS = N_("Hand-Rommés, bonuses and stalemates")
NO_MARKS = N_("No Hand-Rommé, no bonus and no stalemate in this game.")
STALEMATE_LINE = N_("Round {round}: stalemate, the stock ran out and nobody went out")
SWIPE = N_("Wider than the screen: swipe the table sideways for every column.")
HAND_ROMME_LINE = N_("Round {round}: {player} went out with a Hand-Rommé (everyone else's points ×{times})")
HAND_ROMME_MARK = N_("Hand-Rommé: {player}, round {round}")
BONUS_LINE = N_("Round {round}: {player} −{points} winner bonus")
NEXT_DEALER = N_("Not over yet: {player} deals next.")
GAME_OVER = N_("Game over: {player} won with {points} points.")
GAME_OVER_TIE = N_("Game over: a tie between {players}.")
NO_ROUNDS = N_("No rounds played yet.")
SETTLEMENT = N_("Settlement")
SETTLEMENT_RATE = N_("At {rate} per point{currency}.")
SETTLEMENT_RATES = N_("At each game's own rate per point.")
SETTLEMENT_GAMES = N_("Each game is settled among its own players; the amounts add up.")
SETTLEMENT_HEADERS = (N_("player"), N_("points"), N_("net"), N_("amount"), N_("place"))
LEADERBOARD = N_("leaderboard")
WHO_PAYS = N_("Who pays whom")
PAYS = N_("{payer} pays {payee} {amount}")
NOBODY_PAYS = N_("Nobody owes anybody anything.")
ROUNDING = N_("Rounding: {note}.")
SETTLEMENT_NOTE = N_(
    "Every pair of players settles the difference of their points: fewer points "
    "receive, more pay (as in the classic rule sheet)."
)
FOOTER = N_("Made with romme-score {version} on {day}.")
GAME_END = N_("game ends at {limit}")
GAME_END_ABOVE = N_("game ends at {limit} (above the chart)")
GAME_END_ROUNDS = N_("ends after round {limit}")
ROUND_AXIS = N_("round")
PLAYER = N_("player")
ROUND = N_("round")
TOTAL = N_("total")
PLACE = N_("place")

CSS = """
:root { --fg: #1d1d1f; --muted: #5f6368; --rule: #d9d9de; --band: rgba(60, 60, 100, .07); }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 62rem; padding: 1rem 1.25rem 2rem; color: var(--fg);
  background: #fff; font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
h1 { font-size: 1.7rem; margin: .2rem 0; }
h2 { font-size: 1.3rem; margin: 1.6rem 0 .4rem; border-bottom: 2px solid var(--fg); }
h3 { font-size: 1.05rem; margin: 1.2rem 0 .4rem; }
.meta, .note, footer { color: var(--muted); font-size: .9rem; }
.state { font-weight: 600; }
.pay { background: var(--band); border-radius: 6px; padding: .5rem .75rem; margin: .6rem 0 0; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(8.5rem, 1fr)); gap: .5rem;
  padding: 0; margin: .5rem 0; list-style: none; }
.cards li { border: 1px solid var(--rule); border-left: 6px solid var(--c); border-radius: 6px;
  padding: .4rem .6rem; }
.cards .name { display: block; font-weight: 600; }
.cards .total { font-size: 1.5rem; font-variant-numeric: tabular-nums; }
.cards .place { color: var(--muted); font-size: .85rem; margin-left: .3rem; }
figure { margin: .5rem 0; }
figure svg { display: block; width: 100%; height: auto; max-height: 70vh; }
svg text { font: 12px system-ui, sans-serif; fill: var(--muted); }
.legend { display: flex; flex-wrap: wrap; gap: .3rem 1.2rem; padding: 0; margin: .3rem 0 0;
  list-style: none; font-size: .9rem; }
.legend svg { display: inline-block; width: 2.2rem; height: .8rem; vertical-align: middle; }
/* A table wider than the screen scrolls; a shadow at an edge shows that more is there
   (the covers move with the table, the shadows stay: Lea Verou's scrolling shadows). */
.scroll { overflow-x: auto; background:
  linear-gradient(to right, #fff 50%, rgba(255, 255, 255, 0)) left / 2rem 100% no-repeat local,
  linear-gradient(to left, #fff 50%, rgba(255, 255, 255, 0)) right / 2rem 100% no-repeat local,
  radial-gradient(farthest-side at 0 50%, rgba(0, 0, 0, .3), transparent) left / .9rem 100% no-repeat scroll,
  radial-gradient(farthest-side at 100% 50%, rgba(0, 0, 0, .3), transparent) right / .9rem 100% no-repeat
  scroll; }
.swipe { display: none; }
.stalemate { color: var(--muted); font-size: .8rem; margin-left: .25rem; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: .25rem .6rem; text-align: right; border-bottom: 1px solid var(--rule);
  white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
thead th { border-bottom: 2px solid var(--fg); }
tbody tr:nth-child(even) { background: var(--band); }
tfoot td { font-weight: 600; }
.run { color: var(--muted); font-size: .8rem; margin-left: .25rem; }
.out { font-weight: 600; }
.transfers { font-size: 1.1rem; padding-left: 1.4rem; }
.transfers b { white-space: nowrap; }
@media (max-width: 36rem) {
  body { padding: .6rem .7rem 1.5rem; font-size: 15px; }
  h1 { font-size: 1.4rem; }
  th, td { padding: .2rem .3rem; }
  /* The round-by-round table fits a phone: the running total under the points, a long
     name broken over two lines; where it still does not fit, it scrolls, and says so. */
  .scoresheet { font-size: 14px; }
  .scoresheet th, .scoresheet td { padding: .2rem .25rem; }
  .scoresheet .run, .scoresheet .stalemate { display: block; margin-left: 0; }
  .scoresheet .stalemate { font-size: .7rem; }
  .scoresheet thead th { white-space: normal; vertical-align: bottom; }
  .swipe { display: block; }
  /* The chart shrinks to the screen: its text and lines grow back in its own units. */
  svg.running-totals text { font-size: 21px; }
  svg.running-totals polyline { stroke-width: 4; }
}
@media print {
  @page { margin: 14mm; }
  body { max-width: none; padding: 0; font-size: 10.5pt; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  h2, h3 { break-after: avoid; }
  tr { break-inside: avoid; }
  figure, .cards, .settlement table, .transfers { break-inside: avoid; }
  figure svg { max-height: none; }
  .scroll { overflow: visible; background: none; }
  .swipe { display: none; }
  tbody tr:nth-child(even) { background: none; }
}
"""


def _rounds(n: int) -> str:
    return ngettext("%(count)d round", "%(count)d rounds", n) % {"count": n}


def _lines(chart: Chart) -> list[Line]:
    return [Line(player, chart.rounds, chart.totals[player], chart.final(player)) for player in chart.players]


def svg_chart(chart: Chart) -> str:
    """The running totals as an inline SVG: one polyline per player, one point per round."""
    end = chart.end_line
    rounds = chart.game_end.limit if chart.game_end.kind == "rounds" else None
    return svg_lines(
        _lines(chart),
        chart.last_round,
        title=_(CHART_TITLE).format(session=chart.session),
        desc=_(CHART_DESC),
        axis=_(ROUND_AXIS),
        end_value=None if end is None else (end, _(GAME_END).format(limit=end)),
        end_step=None if rounds is None else (rounds, _(GAME_END_ROUNDS).format(limit=rounds)),
        hand_rommes=[
            Mark(
                number,
                chart.totals[who][chart.rounds.index(number)],
                _(HAND_ROMME_MARK).format(round=number, player=who),
            )
            for number, who in chart.hand_rommes
        ],
    )


def _legend(chart: Chart) -> str:
    shown = chart.end_line is not None or chart.game_end.kind == "rounds"
    return legend(
        _lines(chart),
        hand_romme=_(marks.MEANINGS[marks.HAND_ROMME]) if chart.hand_rommes else None,
        end=_end_text(chart) if shown else None,
        note=_(GAME_END_ABOVE).format(limit=chart.game_end.limit)
        if chart.game_end.kind == "points"
        else None,
    )


def _end_text(chart: Chart) -> str:
    if chart.game_end.kind == "rounds":
        return _(GAME_END_ROUNDS).format(limit=chart.game_end.limit)
    return _(GAME_END).format(limit=chart.game_end.limit)


def _cards(game: GameReport) -> str:
    s = game.standings
    items = []
    for i, p in enumerate(s.players):
        items.append(
            f'<li style="--c: {colour(i)}" data-player="{escape(p)}" '
            f'data-total="{s.totals[p]}"><span class="name">{escape(p)}</span>'
            f'<span class="total">{s.totals[p]}</span>'
            f'<span class="place">{escape(_(PLACE))} {s.places[p]}</span></li>'
        )
    return '<ul class="cards">' + "".join(items) + "</ul>"


def _state(game: GameReport) -> str:
    s = game.standings
    if not s.state.finished:
        return _(NEXT_DEALER).format(player=s.next_dealer)
    if s.state.winner:
        return _(GAME_OVER).format(player=s.state.winner, points=s.totals[s.state.winner])
    return _(GAME_OVER_TIE).format(players=", ".join(s.state.tied))


def _scoresheet(game: GameReport) -> str:
    s = game.standings
    chart = game.chart
    head = "".join(f"<th>{escape(p)}</th>" for p in s.players)
    rows = []
    for index, row in enumerate(s.rounds):
        cells = []
        for p in s.players:
            running = chart.totals[p][index]
            if row.winner == p:
                text = f'<span class="out">{marks.winner_cell(row.hand_romme, row.bonus.get(p, 0))}</span>'
            else:
                text = str(row.points.get(p, 0))
            cells.append(f'<td>{text}<span class="run">{running}</span></td>')
        label = str(row.number)
        if row.stalemate:  # as the terminal's scoresheet says it: a round without a winner
            label += f' <span class="stalemate">{escape(marks.STALEMATE)}</span>'
        stalemate = ' data-stalemate="true"' if row.stalemate else ""
        rows.append(f'<tr data-round="{row.number}"{stalemate}><td>{label}</td>{"".join(cells)}</tr>')
    foot = "".join(f'<td class="total" data-player="{escape(p)}">{s.totals[p]}</td>' for p in s.players)
    return (
        f'<div class="scroll"><table class="scoresheet"><thead><tr><th>{escape(_(ROUND))}</th>'
        f"{head}</tr></thead><tbody>{''.join(rows)}</tbody><tfoot><tr>"
        f"<td>{escape(_(TOTAL))}</td>{foot}</tr></tfoot></table></div>"
        + (f'<p class="note swipe">{escape(_(SWIPE))}</p>' if _wider_than_a_phone(game) else "")
        + f'<p class="note">{escape(scoresheet_note(any(r.stalemate for r in s.rounds)))}</p>'
    )


def scoresheet_note(stalemate: bool = False) -> str:
    """The legend under the round-by-round table: the marks it uses, then the running total."""
    return marks.shown_marks(stalemate) + "; " + _(RUNNING_NOTE)


PHONE_PX = 336  # what a phone held upright (360 px) leaves for a table
CHAR_PX, CELL_PX = 8.5, 8  # a character and a cell's padding at the phone's font size


def _wider_than_a_phone(game: GameReport) -> bool:
    """Whether the round-by-round table (a name over lines where it has spaces, the running
    total under the points) likely needs more than a phone's width: then it scrolls, and a
    line under it says so there."""
    s = game.standings
    running = game.chart.totals
    widths = [max(len(_(ROUND)), len(_(TOTAL)))]
    for p in s.players:
        cells = [max((len(w) for w in p.split()), default=1), len(str(s.totals[p]))]
        for index, row in enumerate(s.rounds):
            if row.winner == p:
                text = marks.winner_cell(row.hand_romme, row.bonus.get(p, 0))
            else:
                text = str(row.points.get(p, 0))
            cells += [len(text), len(str(running[p][index]))]
        widths.append(max(cells))
    return sum(w * CHAR_PX + CELL_PX for w in widths) > PHONE_PX


def _marks(game: GameReport) -> str:
    s = game.standings
    items = []
    for row in s.rounds:
        if row.hand_romme and row.winner:
            items.append(
                _(HAND_ROMME_LINE).format(
                    round=row.number, player=row.winner, times=s.rules.hand_romme_multiplier
                )
            )
        for p in s.players:
            if row.bonus.get(p):
                items.append(_(BONUS_LINE).format(round=row.number, player=p, points=row.bonus[p]))
        if row.stalemate:
            items.append(_(STALEMATE_LINE).format(round=row.number))
    if not items:
        return f"<p>{escape(_(NO_MARKS))}</p>"
    return '<ul class="marks">' + "".join(f"<li>{escape(i)}</li>" for i in items) + "</ul>"


def _game(game: GameReport, heading: bool) -> str:
    s = game.standings
    parts = [f'<section class="game" data-session="{escape(s.session)}">']
    if heading:
        parts.append(f"<h2>{escape(s.session)}</h2>")
    parts.append(f'<p class="meta">{escape(_meta(game))}</p>')
    parts.append(f"<h3>{escape(_(STANDINGS))}</h3>{_cards(game)}")
    parts.append(f'<p class="state">{escape(_state(game))}</p>')
    if not s.rounds:
        parts.append(f"<p>{escape(_(NO_ROUNDS))}</p></section>")
        return "".join(parts)
    parts.append(
        f"<h3>{escape(_(CHART))}</h3><figure>{svg_chart(game.chart)}"
        f"<figcaption>{_legend(game.chart)}</figcaption></figure>"
    )
    parts.append(f"<h3>{escape(_(MARKS))}</h3>{_marks(game)}")
    parts.append(f"<h3>{escape(_(SCORESHEET))}</h3>{_scoresheet(game)}")
    parts.append("</section>")
    return "".join(parts)


def _meta(game: GameReport) -> str:
    s = game.standings
    return _(GAME_META).format(
        players=", ".join(s.players),
        rounds=_rounds(s.rounds_played),
        end=ends(s.rules.game_end),
        day=stamp_day(game.created),
    )


def _no_money(tournament: str) -> str:
    return (
        _("No money at this table: the money of tournament '%(tournament)s' is its pot.")
        % {"tournament": tournament}
        + " "
        + _("'romme tournament payout' shows what each player paid in and receives.")
    )


def _settlement(report: Report) -> str:
    s = report.settlement
    if s is None:
        return f'<section class="settlement"><p>{escape(_no_money(report.tournament or ""))}</p></section>'
    currency = report.currency

    def amount_text(amount: Decimal) -> str:
        return money(amount, currency, s.unit, no_break=True)

    if s.rate is not None:
        intro = _(SETTLEMENT_RATE).format(
            rate=decimal_text(s.rate), currency=f" ({currency})" if currency else ""
        )
    else:
        intro = _(SETTLEMENT_RATES)
    if len(report.games) > 1:
        intro += " " + _(SETTLEMENT_GAMES)
    board: Mapping[str, int] | None = report.leaderboard
    headers = [*(_(h) for h in SETTLEMENT_HEADERS), *([_(LEADERBOARD)] if board is not None else [])]
    rows = []
    for p in s.players:
        extra = f"<td>{tenths_text(board.get(p.name, 0))}</td>" if board is not None else ""
        rows.append(
            f'<tr data-player="{escape(p.name)}" data-total="{p.total}" data-net="{p.net}" '
            f'data-amount="{p.amount}"><td>{escape(p.name)}</td><td>{p.total}</td>'
            f"<td>{p.net:+d}</td><td>{escape(amount_text(p.amount))}</td><td>{p.place}</td>"
            f"{extra}</tr>"
        )
    parts = [
        '<section class="settlement">',
        f"<h2>{escape(_(SETTLEMENT))}</h2>",
        f"<p>{escape(intro)}</p>",
        '<div class="scroll"><table class="settle"><thead><tr>'
        + "".join(f"<th>{escape(h)}</th>" for h in headers)
        + f"</tr></thead><tbody>{''.join(rows)}</tbody></table></div>",
        f"<h3>{escape(_(WHO_PAYS))}</h3>",
    ]
    if s.transfers:
        parts.append(
            '<ol class="transfers">'
            + "".join(
                f'<li data-from="{escape(t.payer)}" data-to="{escape(t.payee)}" '
                f'data-amount="{t.amount}">'
                + escape(_(PAYS).format(payer=t.payer, payee=t.payee, amount="\0")).replace(
                    "\0", f"<b>{escape(amount_text(t.amount))}</b>"
                )
                + "</li>"
                for t in s.transfers
            )
            + "</ol>"
        )
    else:
        parts.append(f"<p>{escape(_(NOBODY_PAYS))}</p>")
    if s.rounding_note:
        parts.append(f'<p class="note">{escape(_(ROUNDING).format(note=s.rounding_note))}</p>')
    parts.append(f'<p class="note">{escape(_(SETTLEMENT_NOTE))}</p></section>')
    return "".join(parts)


def _pay_summary(report: Report) -> str:
    """Who pays whom, once more at the top: what the table asks first."""
    s = report.settlement
    if s is None:
        return f'<p class="pay">{escape(_no_money(report.tournament or ""))}</p>'
    if not s.transfers:
        return f'<p class="pay">{escape(_(NOBODY_PAYS))}</p>'
    items = "; ".join(
        _(PAYS).format(
            payer=t.payer, payee=t.payee, amount=money(t.amount, report.currency, s.unit, no_break=True)
        )
        for t in s.transfers
    )
    return f'<p class="pay"><strong>{escape(_(WHO_PAYS))}:</strong> {escape(items)}.</p>'


def render_report(report: Report, version: str, day: date) -> str:
    """The whole page; ``day`` (today) is named in its footer."""
    names = [g.standings.session for g in report.games]
    several = len(report.games) > 1
    title = _(TITLE).format(names=", ".join(names))
    body = [f"<header><h1>{escape(', '.join(names))}</h1>"]
    if several:
        body.append(f'<p class="meta">{escape(_(EVENING).format(count=len(names)))}</p>')
    body.append(_pay_summary(report))
    body.append("</header><main>")
    body.extend(_game(g, several) for g in report.games)
    body.append(_settlement(report))
    footer = _(FOOTER).format(version=version, day=day_text(day))
    body.append(f"</main><footer><p>{escape(footer)}</p></footer>")
    return document(title, CSS, body)


def written(names: Sequence[str], path: str, size: int) -> str:
    return _("Report of %(sessions)s written to %(path)s (%(size)s KB).") % {
        "sessions": ", ".join(names),
        "path": path,
        "size": decimal_text(f"{size / 1024:.1f}"),
    }
