"""Views of ``romme tournament``: the tournament created, a series drawn, the standings
(text, JSON, CSV), a withdrawal and the payout. The printable sheets are in
:mod:`romme_score.views.tournament_sheets`."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from romme_score.i18n import N_, _, ngettext
from romme_score.tournament import (
    Drawn,
    MissingTable,
    Running,
    Tournament,
    TournamentOptions,
    TournamentPayout,
    TournamentStandings,
    Withdrawn,
    missing_text,
)
from romme_score.views.local import money
from romme_score.views.shell import shell_word


def scoring_text(options: TournamentOptions) -> str:
    """``wertung (higher is better)``"""
    if options.scoring == "augen":
        return _("Augen (fewer is better)")
    return _("Wertung (more is better)")


def _money(amount: Decimal, options: TournamentOptions, ascii: bool) -> str:
    return money(amount, options.currency, options.unit, ascii)


def _amount(amount: Decimal, options: TournamentOptions) -> str:
    """An amount in JSON: a decimal string in whole units of the currency."""
    return str(amount.quantize(options.unit))


# --- new ------------------------------------------------------------------------------


def created_json(info: Tournament) -> dict[str, Any]:
    return {
        "tournament": info.name,
        "seed": info.seed,
        "players": [{"start": p.start, "name": p.name, "team": p.team} for p in info.players],
        "options": info.options.to_dict(),
        "rules": info.rules.to_dict(),
    }


def seating_text(seating: str) -> str:
    """How the tables of every series are seated, in words (the option's value stays English
    in the rules file and the JSON, never in a sentence)."""
    return {
        "draw": _("by lot"),
        "standings": _("by the standings (series 1 by lot)"),
        "fixed": _("in the order of the start numbers"),
    }[seating]


def render_created(info: Tournament) -> str:
    from tabulate import tabulate  # imported where a table is printed

    o = info.options
    lines = [
        ngettext(
            "Tournament '%(tournament)s' with %(count)d player: %(series)s %(games)s, "
            "tables of %(size)d, %(scoring)s.",
            "Tournament '%(tournament)s' with %(count)d players: %(series)s %(games)s, "
            "tables of %(size)d, %(scoring)s.",
            len(info.players),
        )
        % {
            "tournament": info.name,
            "count": len(info.players),
            # each counted in its own number: "1 Serie zu 3 Spielen", "2 Serien zu 1 Spiel"
            "series": ngettext("%(n)d series", "%(n)d series", o.series) % {"n": o.series},
            "games": ngettext("of %(n)d game", "of %(n)d games", o.games) % {"n": o.games},
            "size": o.table_size,
            "scoring": scoring_text(o),
        },
        _("Seating: %(seating)s; the seed of the draws is %(seed)d.")
        % {"seating": seating_text(o.seating), "seed": info.seed},
    ]
    rows = [[p.start, p.name, p.team or ""] for p in info.players]
    lines.append(
        tabulate(
            rows,
            headers=[_("start"), _("name"), _("team")],
            colalign=("right", "left", "left"),
            tablefmt="simple",
            disable_numparse=True,
        )
    )
    return "\n".join(lines)


# --- draw -----------------------------------------------------------------------------------


def drawn_json(drawn: Drawn) -> dict[str, Any]:
    """``romme tournament draw --json``; ``missing``: the tables a forced draw went past
    (as ``tournament standings --json`` lists them; empty for a complete series)."""
    return {
        "tournament": drawn.tournament,
        "series": drawn.series,
        "tables": [
            {"table": t.table, "session": t.session, "players": list(t.players)} for t in drawn.tables
        ],
        "missing": _missing_json(drawn.missing),
    }


def forced_note(drawn: Drawn) -> str | None:
    """What a forced draw went past (``Drawn although not complete: ...``), or None."""
    if not drawn.missing:
        return None
    return _("Drawn although not complete: %(missing)s.") % {"missing": missing_text(drawn.missing)}


def render_drawn(drawn: Drawn) -> str:
    how = {
        "draw": _("by lot (seed %(seed)d)") % {"seed": drawn.seed},
        "standings": _("by the standings"),
        "fixed": _("in the order of the start numbers"),
    }[drawn.seating]
    lines = []
    forced = forced_note(drawn)
    if forced is not None:
        lines.append(forced)
    lines.append(
        ngettext(
            "Series %(series)d of '%(tournament)s', seated %(how)s: %(count)d table.",
            "Series %(series)d of '%(tournament)s', seated %(how)s: %(count)d tables.",
            len(drawn.tables),
        )
        % {"series": drawn.series, "tournament": drawn.tournament, "how": how, "count": len(drawn.tables)}
    )
    for t in drawn.tables:
        seats = "  ".join(
            _("%(seat)d. %(name)s (no. %(start)d)") % {"seat": seat, "name": name, "start": start}
            for seat, (name, start) in enumerate(zip(t.players, t.starts, strict=True), 1)
        )
        lines.append(
            _("Table %(table)d (%(session)s): %(seats)s")
            % {"table": t.table, "session": t.session, "seats": seats}
        )
    lines.append(
        _("Seat 1 deals first. Record each table's games with: romme round --session %(session)s ...")
        % {"session": shell_word(drawn.tables[0].session, '"')}
    )
    return "\n".join(lines)


# --- standings ----------------------------------------------------------------------------


def _missing_json(missing: Sequence[MissingTable]) -> list[dict[str, Any]]:
    return [
        {"series": m.series, "table": m.table, "session": m.session, "played": m.played, "games": m.games}
        for m in missing
    ]


def _current_json(r: Running | None) -> dict[str, Any] | None:
    if r is None:
        return None
    return {"series": r.series, "table": r.table, "games_played": r.games_played, "points": r.points}


def standings_json(s: TournamentStandings) -> dict[str, Any]:
    """``place``, ``total`` and ``series`` count the finished series only; ``current`` is
    a player's table in a series still played (``points`` null before its first game)."""
    return {
        "tournament": s.tournament,
        "scoring": s.options.scoring,
        "series_played": s.series_played,
        "series_drawn": s.series_drawn,
        "series_finished": s.series_played,
        "finished_series": list(s.finished),  # the numbers of the series in each player's "series"
        "provisional": s.provisional,
        "players": [
            {
                "start": p.start,
                "name": p.name,
                "team": p.team,
                "place": p.place,
                "series": list(p.series),
                "total": p.total,
                "withdrawn": p.withdrawn,
                "current": _current_json(p.current),
            }
            for p in s.players
        ],
        "teams": [
            {"team": t.team, "place": t.place, "total": t.total, "players": list(t.players)} for t in s.teams
        ],
        "missing": _missing_json(s.missing),
        "closed": _missing_json(s.closed),
    }


def series_heading(number: int) -> str:
    return _("S%(series)d") % {"series": number}


def _series_cell(value: int | None) -> str:
    return "" if value is None else str(value)


NOT_STARTED = "–"  # a table that has not played: no result, never 0


def running_series(s: TournamentStandings) -> int | None:
    """The series still played (the last one, where several are), or None."""
    return max((m.series for m in s.missing), default=None)


def standings_heading(s: TournamentStandings) -> str:
    values = {"tournament": s.tournament, "scoring": scoring_text(s.options), "of": s.options.series}
    if s.series_drawn == 0:
        return _("Tournament '%(tournament)s': no series drawn yet · %(scoring)s") % values
    running = running_series(s)
    if running is not None:
        return _(
            "Tournament '%(tournament)s', provisional: series %(series)d of %(of)d is being played "
            "· %(scoring)s"
        ) % {**values, "series": running}
    return _("Tournament '%(tournament)s' after series %(series)d of %(of)d · %(scoring)s") % {
        **values,
        "series": s.series_over,
    }


def closed_note(closed: Sequence[MissingTable]) -> str:
    """The tables a later draw closed short of games (``--force``), whose series counts
    for nothing (empty where there are none)."""
    if not closed:
        return ""
    return _("Not counted: %(missing)s (closed when the next series was drawn).") % {
        "missing": missing_text(closed)
    }


def provisional_note(s: TournamentStandings) -> str:
    """What a provisional ranking counts (empty when it is not provisional)."""
    if not s.provisional:
        return ""
    if not s.finished:
        return _("Provisional ranking: no series is finished yet, so nobody is placed by points.")
    return _(
        "Provisional ranking: place and total count the finished series only (%(finished)s); "
        "the series being played is shown apart."
    ) % {"finished": ", ".join(series_heading(n) for n in s.finished)}


def current_heading(series: int) -> str:
    """The heading of the running series' column: ``S2 so far``."""
    return _("S%(series)d so far") % {"series": series}


def current_points(r: Running | None) -> str:
    """The points so far at the table of the running series; ``–`` before its first game."""
    if r is None:
        return ""
    return NOT_STARTED if r.points is None else str(r.points)


def current_progress(r: Running | None) -> str:
    """``T3 11/16``: the table and its games played."""
    if r is None:
        return ""
    return _("T%(table)d %(played)d/%(games)d") % {
        "table": r.table,
        "played": r.games_played,
        "games": r.games,
    }


def current_cell(r: Running | None) -> str:
    """``34 (T3 11/16)`` or ``– (T3 0/16)``."""
    if r is None:
        return ""
    return f"{current_points(r)} ({current_progress(r)})"


def render_standings(s: TournamentStandings) -> str:
    from tabulate import tabulate  # imported where a table is printed

    heading = standings_heading(s)
    has_teams = any(p.team for p in s.players)
    running = running_series(s)
    headers = [_("place"), _("start"), _("name")]
    if has_teams:
        headers.append(_("team"))
    headers += [series_heading(n) for n in s.finished] + [_("total")]
    if running is not None:
        headers.append(current_heading(running))
    rows = []
    previous = None
    for p in s.players:
        name = p.name + (" " + _("(withdrawn)") if p.withdrawn else "")
        row: list[Any] = [p.place if p.place != previous else "", p.start, name]
        previous = p.place
        if has_teams:
            row.append(p.team or "")
        row += [_series_cell(v) for v in p.series] + [p.total]
        if running is not None:
            row.append(current_cell(p.current))
        rows.append(row)
    align = ["right", "right", "left"] + (["left"] if has_teams else []) + ["right"] * (len(s.finished) + 1)
    if running is not None:
        align.append("right")
    lines = [heading]
    if s.provisional:
        lines.append(provisional_note(s))
    lines.append(tabulate(rows, headers=headers, colalign=align, tablefmt="simple", disable_numparse=True))
    if s.teams:
        lines += [
            "",
            _("Teams"),
            tabulate(
                [[t.place, t.team, t.total, ", ".join(t.players)] for t in s.teams],
                headers=[_("place"), _("team"), _("total"), _("players")],
                colalign=("right", "left", "right", "left"),
                tablefmt="simple",
                disable_numparse=True,
            ),
        ]
    if s.missing:
        lines += ["", _("Not complete: %(missing)s.") % {"missing": missing_text(s.missing)}]
    if s.closed:
        lines += ["", closed_note(s.closed)]
    return "\n".join(lines)


def standings_csv(s: TournamentStandings) -> str:
    """The standings for a spreadsheet: one row per player, the series side by side (the
    column names stay English, as the JSON keys do)."""
    import csv  # only --format csv writes it
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(
        [
            "place",
            "start",
            "name",
            "team",
            *[f"series_{n}" for n in s.finished],
            "total",
            "withdrawn",
        ]
    )
    for p in s.players:
        writer.writerow(
            [
                p.place,
                p.start,
                p.name,
                p.team or "",
                *[_series_cell(v) for v in p.series],
                p.total,
                int(p.withdrawn),
            ]
        )
    return buffer.getvalue()


# --- the board of romme serve --tournament ---------------------------------------------------

# The board page's fixed words (the script shows them).
BOARD_TEXTS: dict[str, str] = {
    "ranking": N_("Ranking"),
    "tables": N_("Tables"),
    "place": N_("place"),
    "start": N_("start"),
    "name": N_("name"),
    "team": N_("team"),
    "total": N_("total"),
    "teams": N_("Teams"),
    "withdrawn": N_("(withdrawn)"),
    "join": N_("This board on another screen"),
    "offline": N_("The server cannot be reached. Trying again…"),
    "link_gone": N_("This link is wrong or no longer valid: scan the QR code on the board again."),
    "server_error": N_("The server could not do that; please try again."),
    "stale": N_("The server is not answering: this is the state of {time}."),
    "page": N_("Page {page} of {pages}"),
    "more": N_("Tap a row for its series and team."),
}


def board_texts() -> dict[str, str]:
    return {key: _(text) for key, text in BOARD_TEXTS.items()}


def board_title(tournament: str) -> str:
    return _("%(tournament)s · Ranking") % {"tournament": tournament}


def table_line(table: int, played: int, games: int) -> str:
    """``Table 3: 11 of 16 games played``, ``Table 3: not started`` or ``Table 3: complete (16
    games)``: the games a table has played (its ``T3 11/16`` in the ranking), never which
    game it plays now ("game 11 of 16" read as the 11th under way while 11 were done)."""
    if played >= games:
        return ngettext(
            "Table %(table)d: complete (%(games)d game)", "Table %(table)d: complete (%(games)d games)", games
        ) % {"table": table, "games": games}
    if played == 0:
        return _("Table %(table)d: not started") % {"table": table}
    return ngettext(
        "Table %(table)d: %(played)d of %(games)d game played",
        "Table %(table)d: %(played)d of %(games)d games played",
        games,
    ) % {"table": table, "played": played, "games": games}


def board_json(
    s: TournamentStandings, series: int, tables: Sequence[tuple[int, str, int]], version: int
) -> dict[str, Any]:
    """``state.json`` of a tournament's board: the keys of ``romme tournament standings
    --json``, ``"version"``, the served series' tables (``tables``: number, session,
    games played) and the page's sentences (``"view"``)."""
    games = s.options.games
    data = standings_json(s)
    data["version"] = version
    data["series"] = series
    data["tables"] = [
        {
            "table": n,
            "session": session,
            "played": played,
            "games": games,
            "playing": played < games,
            "line": table_line(n, played, games),
        }
        for n, session, played in tables
    ]
    playing = sum(1 for _n, _s, played in tables if played < games)
    if playing:
        status = ngettext(
            "Series %(series)d: %(count)d table still plays.",
            "Series %(series)d: %(count)d tables still play.",
            playing,
        ) % {"series": series, "count": playing}
    else:
        status = _("Series %(series)d: every table is complete.") % {"series": series}
    running = running_series(s)
    data["view"] = {
        "heading": standings_heading(s),
        "status": status,
        "provisional": provisional_note(s),
        "closed": closed_note(s.closed),  # a series a forced draw closed: why it has no column
        "series": [series_heading(n) for n in s.finished],
        # the running series, apart from the ranking: its heading, and per start number
        # the points so far ("–" before the table's first game) and the table's progress
        "current": None if running is None else current_heading(running),
        "players": {
            str(p.start): {"points": current_points(p.current), "progress": current_progress(p.current)}
            for p in s.players
            if p.current is not None
        },
    }
    return data


def board_link_heading() -> str:
    return _("Tournament board (read only): the ranking across all tables, for a projector")


def table_heading(table: int, session: str) -> str:
    return _("Table %(table)d (%(session)s)") % {"table": table, "session": session}


def table_keeper_line(table: int, session: str, url: str) -> str:
    """One line per table: ``Table 1 (Cup S1 T1), scorekeeper: URL``."""
    return _("Table %(table)d (%(session)s), scorekeeper: %(url)s") % {
        "table": table,
        "session": session,
        "url": url,
    }


def other_links_note(tournament: str) -> str:
    return _(
        "The seats' links and every QR code: romme tournament sheets %(tournament)s --links "
        "-o sheets.html (a sheet to lay on each table), "
        "or romme serve --tournament %(tournament)s --qr all."
    ) % {"tournament": shell_word(tournament, '"')}


def serving_tournament(tournament: str, series: int, tables: int, host: str, port: int) -> str:
    return ngettext(
        "Serving tournament '%(tournament)s', series %(series)d, %(count)d table, "
        "on %(host)s port %(port)d; Ctrl-C stops.",
        "Serving tournament '%(tournament)s', series %(series)d, %(count)d tables, "
        "on %(host)s port %(port)d; Ctrl-C stops.",
        tables,
    ) % {"tournament": tournament, "series": series, "count": tables, "host": host, "port": port}


# --- withdraw -------------------------------------------------------------------------------


def withdrawn_json(w: Withdrawn) -> dict[str, Any]:
    return {"tournament": w.tournament, "start": w.start, "player": w.name, "after_series": w.after_series}


def render_withdrawn(w: Withdrawn) -> str:
    if w.after_series == 0:
        return _(
            "%(player)s (start number %(start)d) withdrew from '%(tournament)s' before the first series."
        ) % {
            "player": w.name,
            "start": w.start,
            "tournament": w.tournament,
        }
    return _(
        "%(player)s (start number %(start)d) withdrew from '%(tournament)s' after series %(series)d: "
        "the series played count, no later series seats them."
    ) % {"player": w.name, "start": w.start, "tournament": w.tournament, "series": w.after_series}


# --- payout ---------------------------------------------------------------------------------


def payout_json(p: TournamentPayout) -> dict[str, Any]:
    o = p.options
    return {
        "pot": _amount(p.pot, o),
        "kept": _amount(p.kept, o),
        "players": [
            {"name": m.name, "place": m.place, "paid": _amount(m.paid, o), "receives": _amount(m.receives, o)}
            for m in p.players
        ],
    }


def render_payout(p: TournamentPayout, ascii: bool = False) -> str:
    from tabulate import tabulate  # imported where a table is printed

    o = p.options
    lines = []
    if not p.complete:
        lines.append(_("Not final: the tournament is not over yet."))
    lines.append(
        _("Pot of '%(tournament)s': %(pot)s (entry fee %(entry)s, %(fee)s for every game not won).")
        % {
            "tournament": p.tournament,
            "pot": _money(p.pot, o, ascii),
            "entry": _money(o.entry_fee, o, ascii),
            "fee": _money(o.lost_game_fee, o, ascii),
        }
    )
    rows = [
        [
            m.place,
            m.start,
            m.name,
            _money(m.paid, o, ascii),
            _money(m.receives, o, ascii) if m.receives else "",
        ]
        for m in p.players
    ]
    lines.append(
        tabulate(
            rows,
            headers=[_("place"), _("start"), _("name"), _("paid"), _("receives")],
            colalign=("right", "right", "left", "right", "right"),
            tablefmt="simple",
            disable_numparse=True,
        )
    )
    prizes = ", ".join(str(x) for x in o.prizes) or _("none")
    lines.append(
        _("Prizes by place: %(prizes)s. Kept by the organiser: %(kept)s.")
        % {"prizes": prizes, "kept": _money(p.kept, o, ascii)}
    )
    if p.missing:
        lines.append(_("Not complete: %(missing)s.") % {"missing": missing_text(p.missing)})
    if p.closed:
        lines.append(closed_note(p.closed))
    return "\n".join(lines)
