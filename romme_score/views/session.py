"""Views of the session commands: the scoresheet, a round's summary, the session list,
and the one-line messages of new, round, undo, edit, use, export and import."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from json.encoder import encode_basestring as json_text
from operator import itemgetter
from typing import Any

from romme_score.cards import Card
from romme_score.i18n import N_, _, ngettext, tenths_text
from romme_score.rules import RuleSet
from romme_score.scoring import GameState, Hand, RoundInput, RoundScore
from romme_score.sessions import (
    Edited,
    Ended,
    Recorded,
    RoundRow,
    SessionInfo,
    SessionSummary,
    Standings,
    Undone,
)
from romme_score.store.records import Lines
from romme_score.stream import RawJSON
from romme_score.views import marks
from romme_score.views import width as columns
from romme_score.views.game_end import ends
from romme_score.views.output import leaderboard_json

CardsText = Callable[[Sequence[Card]], str]


# --- the state of a game ------------------------------------------------------------


# a tournament's table whose next series was drawn before it had played its games
CLOSED = N_("Table closed: the next series was drawn before it had played its games.")


def game_over_line(state: GameState, totals: Mapping[str, int]) -> str:
    """``Game over: Anna won with 120 points.`` (or the tie; or ended by agreement; or a
    tournament's table closed by its next series)."""
    if state.closed:
        return _(CLOSED)
    if state.agreed:
        if state.winner:
            return ngettext(
                "Game ended by agreement: %(player)s won with %(points)d point.",
                "Game ended by agreement: %(player)s won with %(points)d points.",
                totals[state.winner],
            ) % {"player": state.winner, "points": totals[state.winner]}
        return _("Game ended by agreement: a tie between %(players)s.") % {"players": ", ".join(state.tied)}
    if state.winner:
        return ngettext(
            "Game over: %(player)s won with %(points)d point.",
            "Game over: %(player)s won with %(points)d points.",
            totals[state.winner],
        ) % {"player": state.winner, "points": totals[state.winner]}
    return _("Game over: a tie between %(players)s.") % {"players": ", ".join(state.tied)}


def state_line(state: GameState, totals: Mapping[str, int], next_dealer: str) -> str:
    """Who deals next, or how the game ended."""
    return (
        game_over_line(state, totals)
        if state.finished
        else _("Next to deal: %(player)s") % {"player": next_dealer}
    )


def totals_line(players: Sequence[str], totals: Mapping[str, int]) -> str:
    return _("Totals: %(totals)s") % {"totals": ", ".join(f"{p} {totals[p]}" for p in players)}


# --- standings ------------------------------------------------------------------------


def round_json(r: RoundRow) -> dict[str, Any]:
    """One round of the scoresheet as ``standings --json`` lists it."""
    return {
        "number": r.number,
        "winner": r.winner,
        "hand_romme": r.hand_romme,
        "stalemate": r.stalemate,
        "points": dict(r.points),
        "bonus": {k: v for k, v in r.bonus.items() if v},
    }


def standings_json(s: Standings, rounds: Iterable[RoundRow] | None = None) -> dict[str, Any]:
    board = s.leaderboard
    return {
        "session": s.session,
        "players": [
            {
                "name": p,
                "total": s.totals[p],
                "leaderboard": leaderboard_json(board[p]) if board is not None else None,
            }
            for p in s.players
        ],
        "rounds": (round_json(r) for r in (s.rounds if rounds is None else rounds)),
        "finished": s.state.finished,
        "game_winner": s.state.winner,
        "tied": list(s.state.tied) if s.state.finished and s.state.winner is None else [],
        "ended_by_agreement": s.state.agreed,
        "closed": s.state.closed,
        "next_dealer": s.next_dealer,
        "game_end": str(s.rules.game_end),
    }


def standings_with_corrections_json(
    s: Standings, rounds_json: Iterator[RawJSON] | None = None
) -> dict[str, Any]:
    """``romme standings --json``: with ``rounds_json`` (each round's JSON text, read as
    consumed, see :func:`standings_rounds_json`) the rounds stream."""
    data = standings_json(s)
    if rounds_json is not None:
        data["rounds"] = rounds_json
    data["corrections"] = [{"round": c.round, "change": c.change, "at": c.at} for c in s.corrections]
    data["notes"] = [{"round": n.round, "text": n.text, "at": n.at} for n in s.notes]
    data["renames"] = [{"from": r.old, "to": r.new, "at": r.at} for r in s.renames]
    data["endings"] = [{"ended": e.ended, "round": e.round, "at": e.at} for e in s.endings]
    return data


_TRUE = ("false", "true")


def rounds_json(
    players: Sequence[str], lines: Iterable[Lines] | None, rows: Callable[[], Iterable[RoundRow]]
) -> Iterator[RawJSON]:
    """Every round of ``standings --json`` as its JSON text: from the store's points lines
    where it has them (:func:`standings_rounds_json`), else from the scoresheet's rows."""
    return standings_rounds_json(players, lines) if lines is not None else rows_json(rows())


def rows_json(rows: Iterable[RoundRow]) -> Iterator[RawJSON]:
    """The rounds of :func:`standings_json`, each as its JSON text, from the scoresheet's
    rows (where the store has no points lines for :func:`standings_rounds_json`)."""
    for r in rows:
        yield RawJSON(json.dumps(round_json(r), ensure_ascii=False))


def standings_rounds_json(players: Sequence[str], batches: Iterable[Lines]) -> Iterator[RawJSON]:
    """The rounds of :func:`standings_json`, each as its JSON text, from the store's points
    lines (:func:`~romme_score.store.records.points_line_fields`): the text ``json.dumps``
    gives for the round's dict, made by one %-template per kind of line (a long session's
    ``standings --json`` at a few microseconds per round)."""
    names = [json_text(p).replace("%", "%%") for p in players]
    escaped = {p: json_text(p) for p in players}
    templates: dict[Any, tuple[str, Callable[[Sequence[Any]], tuple[Any, ...]]]] = {}
    at: dict[str, int] = {}
    for batch in batches:
        rows = batch.rows
        if not rows:
            continue
        if not at:
            at = batch.places()
        kind, number, winner = at["kind"], at["number"], at["winner"]
        for row in rows:
            found = templates.get(row[kind])
            if found is None:
                found = templates[row[kind]] = _points_template(row, at, names)
            text, pick = found
            if row[winner] is None:
                yield RawJSON(text % (row[number], *pick(row)))
            else:
                yield RawJSON(text % (row[number], escaped[row[winner]], *pick(row)))


def _points_template(
    line: Sequence[Any], at: dict[str, int], names: Sequence[str]
) -> tuple[str, Callable[[Sequence[Any]], tuple[Any, ...]]]:
    """The %-template of one kind of points line (its number and winner first), and what
    else it takes from a line: the points, then the bonuses struck."""
    seated = [seat for seat in range(len(names)) if line[at[f"points_{seat}"]] is not None]
    struck = [seat for seat in seated if line[at[f"bonus_{seat}"]]]
    places = [at[f"points_{seat}"] for seat in seated] + [at[f"bonus_{seat}"] for seat in struck]
    winner = "null" if line[at["winner"]] is None else "%s"
    points = ", ".join(f"{names[seat]}: %d" for seat in seated)
    bonus = ", ".join(f"{names[seat]}: %d" for seat in struck)
    text = (
        f'{{"number": %d, "winner": {winner}, "hand_romme": {_TRUE[bool(line[at["hand_romme"]])]}, '
        f'"stalemate": {_TRUE[bool(line[at["stalemate"]])]}, "points": {{{points}}}, "bonus": {{{bonus}}}}}'
    )
    if len(places) == 1:  # itemgetter of one place gives the value, not a tuple
        return text, lambda row: (row[places[0]],)
    return text, itemgetter(*places)


def _cell(row: RoundRow, player: str) -> str:
    if row.winner == player:
        return marks.winner_cell(row.hand_romme, row.bonus.get(player, 0))
    return str(row.points.get(player, 0))


def _narrow_scoresheet(s: Standings, width: int) -> str:
    """The scoresheet as the table mode's panel draws it: no running totals, a stalemate
    marked ``s``, names cut to the columns the terminal leaves each player."""
    labels = [_("round"), _("total"), _("place")]
    if s.leaderboard is not None:
        labels.append(_("leaderboard"))
    label = max(max(columns.width(t) for t in labels), len(f"{s.rounds[-1].number} s") if s.rounds else 1)
    col = max(4, min(12, (width - label) // max(1, len(s.players)) - 2))

    def cells(values: Iterable[str]) -> str:
        return "".join("  " + columns.rjust(columns.cut(v, col, "."), col) for v in values)

    lines = [columns.ljust(labels[0], label) + cells(s.players)]
    lines.append("-" * label + "".join("  " + "-" * col for _p in s.players))
    for row in s.rounds:
        lines.append(
            columns.ljust(f"{row.number}{' ' + marks.STALEMATE if row.stalemate else ''}", label)
            + cells(_cell(row, p).replace(" ", "") for p in s.players)
        )
    lines.append(columns.ljust(labels[1], label) + cells(str(s.totals[p]) for p in s.players))
    lines.append(columns.ljust(labels[2], label) + cells(str(s.places[p]) for p in s.players))
    if s.leaderboard is not None:
        lines.append(
            columns.ljust(labels[3], label) + cells(tenths_text(s.leaderboard[p]) for p in s.players)
        )
    return "\n".join(line.rstrip() for line in lines)


def render_scoresheet(s: Standings, width: int | None = None) -> str:
    """The table of rounds with running totals, totals, places and the game's state; where
    it is wider than ``width`` columns, the narrow table (:func:`_narrow_scoresheet`)."""
    from tabulate import tabulate  # imported where a table is printed

    headers = [_("round"), *s.players]
    table: list[list[str]] = []
    rounds = s.rounds
    for row, after in zip(rounds, s.running, strict=True):
        label = str(row.number) + (" " + marks.STALEMATE if row.stalemate else "")
        table.append([label] + [f"{_cell(row, p)}  = {after[p]}" for p in s.players])
    lines = []
    shown_from = rounds[0].number if rounds else None
    if shown_from is not None and shown_from > 1:
        lines.append(_("(rounds 1-%(last)d not shown; use --all)") % {"last": shown_from - 1})
    table.append([_("total")] + [str(s.totals[p]) for p in s.players])
    table.append([_("place")] + [str(s.places[p]) for p in s.players])
    if s.leaderboard is not None:
        table.append([_("leaderboard")] + [tenths_text(s.leaderboard[p]) for p in s.players])
    align = ("left",) + ("right",) * len(s.players)
    sheet = tabulate(table, headers=headers, colalign=align, tablefmt="simple", disable_numparse=True)
    if width is not None and not columns.fits(sheet, width):
        lines.append(_narrow_scoresheet(s, width))
        lines.append(columns.wrap(marks.legend(), width))
    else:
        lines.append(sheet)
        legend = (
            marks.shown_marks(any(r.stalemate for r in rounds))  # one legend everywhere (issue 30 item 10)
            + "; "
            + _("'= N' is the running total")
        )
        lines.append(columns.wrap(legend, width))
    lines.append(
        _("Rounds played: %(rounds)d; the game %(end)s")
        % {"rounds": s.rounds_played, "end": ends(s.rules.game_end)}
    )
    lines.append(columns.wrap(state_line(s.state, s.totals, s.next_dealer), width))
    return "\n".join(lines)


CHANGES = {"undone": N_("undone"), "edited": N_("edited")}  # a correction's kind, shown through _()


def render_standings(s: Standings, width: int | None = None) -> str:
    """``romme standings``: the session's name, the scoresheet (fitting ``width`` columns
    where given), the corrections kept."""
    from romme_score.views.local import time_text

    lines = [_("Session '%(session)s'") % {"session": s.session}, render_scoresheet(s, width)]
    if s.corrections:
        kept = [
            (
                _("round %(number)d") % {"number": c.round}
                + f" {_(CHANGES.get(c.change, c.change))} {time_text(c.at)}"
            ).rstrip()
            for c in s.corrections
        ]
        line = _("Corrections kept in the history: %(list)s") % {"list": "; ".join(kept)}
        if width is not None and columns.width(line) > width:  # one correction a line
            head = _("Corrections kept in the history: %(list)s") % {"list": "\0"}
            line = head.replace("\0", "").rstrip() + "".join("\n  " + k for k in kept)
        lines.append(line)
    for n in s.notes:
        about = _("round %(number)d") % {"number": n.round} if n.round is not None else _("the game")
        lines.append(
            _("Note on %(about)s (%(at)s): %(text)s")
            % {"about": about, "at": time_text(n.at), "text": n.text}
        )
    for r in s.renames:
        lines.append(
            _("Renamed from '%(old)s' to '%(new)s' (%(at)s)")
            % {"old": r.old, "new": r.new, "at": time_text(r.at)}
        )
    lines.extend(ending_line(e.ended, e.round, time_text(e.at)) for e in s.endings)
    return "\n".join([lines[0], lines[1], *(columns.wrap(line, width) for line in lines[2:])])


# --- a round --------------------------------------------------------------------------


def hand_shown(hand: Hand | None, cards: CardsText) -> str:
    """A hand as the round's summary shows it: its cards, or the points counted by hand."""
    if hand is not None and hand.cards is not None:
        return cards(hand.cards)
    if hand is not None and hand.points is not None:
        return _("(%(points)d counted)") % {"points": hand.points}
    return ""


def describe_round(players: Sequence[str], rnd: RoundInput, score: RoundScore, cards: CardsText) -> str:
    """A round's summary: every player's cards left, points and marks."""
    from tabulate import tabulate  # imported where a table is printed

    rows = []
    for p in players:
        hand = rnd.hands.get(p)
        shown = hand_shown(hand, cards)
        note = ""
        if p == rnd.winner:
            note = _("went out (Hand-Rommé)") if rnd.hand_romme else _("went out")
            if hand is not None and hand.cards:
                note += ", " + _("cards shown for control, not counted")
            if score.bonus.get(p):
                note += "; " + _("bonus -%(points)d") % {"points": score.bonus[p]}
        elif score.multiplier.get(p, 1) > 1:
            note = f"{score.base[p]} x {score.multiplier[p]}"
        rows.append([p, shown, score.points[p], note])
    # the fourth column says how the points came about (went out, a bonus, a multiplier):
    # headed like the others (issue 38 item 10), not a rule under an empty heading
    return tabulate(rows, headers=[_("player"), _("cards left"), _("points"), _("remark")], tablefmt="simple")


def recorded_json(r: Recorded) -> dict[str, Any]:
    data = standings_json(r.standings)
    data["rounds"] = list(data["rounds"])
    data["round"] = {"number": r.number, "points": r.score.points, "bonus": r.score.bonus}
    return data


def round_heading(number: int, rnd: RoundInput) -> str:
    """``Round 3``, with the stalemate named: a round the stock ended has no winner."""
    return (
        _("Round %(number)d (stalemate: the stock ran out, nobody went out)")
        if rnd.stalemate
        else _("Round %(number)d")
    ) % {"number": number}


def render_recorded(r: Recorded, cards: CardsText) -> str:
    s = r.standings
    return "\n".join(
        [
            _("%(round)s of '%(session)s':")
            % {"round": round_heading(r.number, r.round), "session": s.session},
            describe_round(s.players, r.round, r.score, cards),
            "",
            totals_line(s.players, s.totals),
            state_line(s.state, s.totals, s.next_dealer),
        ]
    )


SAVE_QUESTION = N_("Save this round?")
NOT_SAVED = N_("Not saved.")  # shown through _() where printed
WINNER_QUESTION = "Who went out? ({players}, or 'none' for a stalemate)"
HAND_ROMME_QUESTION = "Hand-Rommé?"
HAND_QUESTION = "{player}'s cards left (or points)"


def undo_question(record_number: int, summary: str) -> str:
    return _("Remove round %(number)d (%(summary)s)?") % {"number": record_number, "summary": summary}


def undo_summary(players: Sequence[str], points: Mapping[str, int]) -> str:
    return ", ".join(f"{p} {points[p]}" for p in players)


def in_progress_moves_on(number: int) -> str:
    """A round was saved while another was in progress (on the phones, in another window):
    that one goes on as the next round."""
    return _("The round in progress (on the phones or in another window) now counts as round %(number)d.") % {
        "number": number
    }


def unlikely_points_warning(player: str, points: int, limit: int) -> str:
    """The same on the command line, where nobody is asked: saved, with a warning."""
    return _(
        "warning: %(player)s=%(points)d is more than %(limit)d points in one hand; 'romme edit' corrects it"
    ) % {
        "player": player,
        "points": points,
        "limit": limit,
    }


def not_removed(record_number: int) -> str:
    """The answer to a no (n, Enter, Ctrl-C or Ctrl-D) at the undo question."""
    return _("Nothing removed: round %(number)d was not removed.") % {"number": record_number}


def undone_json(u: Undone) -> dict[str, Any]:
    return {"undone": u.record.number, "totals": dict(u.totals)}


def render_undone(u: Undone, players: Sequence[str]) -> str:
    return _("Round %(number)d removed.") % {"number": u.record.number} + " " + totals_line(players, u.totals)


def edited_json(e: Edited) -> dict[str, Any]:
    return {"edited": e.number, "points": e.score.points, "totals": dict(e.totals)}


def render_edited(e: Edited, players: Sequence[str], cards: CardsText) -> str:
    return "\n".join(
        [
            _("%(round)s corrected:") % {"round": round_heading(e.number, e.round)},
            describe_round(players, e.round, e.score, cards),
            totals_line(players, e.totals),
        ]
    )


# --- sessions -------------------------------------------------------------------------


def created_json(info: SessionInfo, rules: RuleSet) -> dict[str, Any]:
    return {
        "session": info.name,
        "players": list(info.players),
        "rules": rules.to_dict(),
        "next_dealer": info.players[info.first_dealer],
    }


# What ``new`` says to do next on the command line; the table mode says its own (issue 20).
RECORD_HINT = N_("%(dealer)s deals first. Record rounds with: %(command)s")  # shown through _()


def render_created(info: SessionInfo) -> str:
    from romme_score.views.shell import shell_word  # romme new's hint only

    return (
        _("Session '%(session)s' started with %(players)s; it %(end)s.")
        % {"session": info.name, "players": ", ".join(info.players), "end": ends(info.rules.game_end)}
        + "\n"
        + _(RECORD_HINT)
        % {
            "dealer": info.players[info.first_dealer],
            "command": f'romme round --winner NAME {shell_word(info.players[-1])}="{_("CARDS")}" ...',
        }
    )


def sessions_json(rows: Sequence[SessionSummary]) -> list[dict[str, Any]]:
    return [
        {
            "name": r.info.name,
            "players": list(r.info.players),
            "rounds": r.rounds,
            "created": r.info.created_at,
            "finished": r.state.finished,
            "ended_by_agreement": r.state.agreed,
            "winner": r.state.winner,
            "current": r.current,
        }
        for r in rows
    ]


def _finished_cell(state: GameState) -> str:
    """``yes, Anna`` (who won), ``yes`` (a tie), ``yes, closed`` (a tournament's table the
    next series closed short of its games: nobody won it)."""
    if state.closed:
        return _("yes, closed")
    return _("yes, %(player)s") % {"player": state.winner} if state.winner else _("yes")


def render_sessions(rows: Sequence[SessionSummary], width: int | None = None) -> str:
    """The sessions as a table; where that is wider than ``width`` columns (a phone-sized
    terminal, the table mode at 60 columns), two lines each: the name, rounds, date and
    whether it is over, then the players, indented and wrapped."""
    from tabulate import tabulate  # imported where a table is printed

    from romme_score.views.local import stamp_day

    if not rows:
        return _("No sessions yet: start one with 'romme new NAME PLAYER PLAYER ...'.")
    cells = [
        [
            ("* " if r.current else "  ") + r.info.name,
            ", ".join(r.info.players),
            r.rounds,
            stamp_day(r.info.created_at, column=True),
            _finished_cell(r.state) if r.state.finished else _("no"),
        ]
        for r in rows
    ]
    headers = [_("session"), _("players"), _("rounds"), _("date"), _("finished")]
    table = tabulate(cells, headers=headers, tablefmt="simple")
    if width is None or columns.fits(table, width):
        return table
    lines = []
    for name, players, rounds, day, finished in cells:
        lines.append(
            columns.wrap(
                f"{name} · {_('rounds')} {rounds} · {day} · {_('finished')}: {finished}", width, "    "
            )
        )
        lines.append(columns.wrap(f"    {players}", width, "    "))
    return "\n".join(lines)


def ending_line(ended: bool, rounds: int, at: str) -> str:
    """A line of the game's history: ended by agreement, or taken back (issue 36 item 5)."""
    if not ended:
        return _("End by agreement taken back, the game goes on (%(at)s)") % {"at": at}
    return ngettext(
        "Ended by agreement after %(rounds)d round (%(at)s)",
        "Ended by agreement after %(rounds)d rounds (%(at)s)",
        rounds,
    ) % {"rounds": rounds, "at": at}


def ended(result: Ended) -> str:
    """``romme end``: the game ended by agreement and how it stands, or taken back."""
    if not result.ending.ended:
        return _("The game of session '%(session)s' goes on: its end by agreement is taken back.") % {
            "session": result.session
        }
    return game_over_line(result.state, result.totals)


def ended_json(result: Ended) -> dict[str, Any]:
    """``romme end --json``."""
    return {
        "session": result.session,
        "ended": result.ending.ended,
        "round": result.ending.round,
        "at": result.ending.at,
        "finished": result.state.finished,
        "game_winner": result.state.winner,
        "tied": list(result.state.tied) if result.state.finished and result.state.winner is None else [],
        "totals": dict(result.totals),
    }


def now_current(name: str) -> str:
    return _("'%(session)s' is now the current session.") % {"session": name}


def renamed(old: str, new: str) -> str:
    return _("Session '%(old)s' is now called '%(new)s'.") % {"old": old, "new": new}


def delete_question(name: str) -> str:
    return _("Delete session '%(session)s' with all its rounds, history and notes?") % {"session": name}


def not_deleted(name: str) -> str:
    """The answer to a no (n, Enter, Ctrl-C or Ctrl-D) at the delete question."""
    return _("Nothing deleted: session '%(session)s' was not deleted.") % {"session": name}


def deleted(name: str) -> str:
    return _("Session '%(session)s' deleted.") % {"session": name}


def noted(session: str, round_number: int | None) -> str:
    about = _("round %(number)d") % {"number": round_number} if round_number is not None else _("the game")
    return _("Note on %(about)s written to the history of '%(session)s'.") % {
        "about": about,
        "session": session,
    }


def exported(name: str, path: str) -> str:
    return _("Session '%(session)s' written to %(path)s.") % {"session": name, "path": path}


def imported(name: str, rounds: int, current: str | None) -> str:
    """The import's sentence, saying which session is current after it."""
    done = ngettext(
        "Session '%(session)s' imported with %(count)d round.",
        "Session '%(session)s' imported with %(count)d rounds.",
        rounds,
    ) % {"session": name, "count": rounds}
    if current == name:
        then = _("It is now the current session.")
    else:
        then = _("The current session is still '%(session)s'.") % {"session": current}
    return f"{done} {then}"
