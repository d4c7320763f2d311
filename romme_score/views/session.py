"""Views of the session commands: the scoresheet, a round's summary, the session list,
and the one-line messages of new, round, undo, edit, use, export and import."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from json.encoder import encode_basestring as json_text
from operator import itemgetter
from typing import Any

from tabulate import tabulate

from romme_score.cards import Card
from romme_score.i18n import N_, _, ngettext, tenths_text
from romme_score.rules import RuleSet
from romme_score.scoring import GameState, Hand, RoundInput, RoundScore, places
from romme_score.sessions import (
    Edited,
    Recorded,
    RoundRow,
    SessionInfo,
    SessionSummary,
    Standings,
    Undone,
)
from romme_score.store.records import Lines
from romme_score.stream import RawJSON
from romme_score.views.output import leaderboard_json

CardsText = Callable[[Sequence[Card]], str]


# --- the state of a game ------------------------------------------------------------


def game_over_line(state: GameState, totals: Mapping[str, int]) -> str:
    """``Game over: Anna won with 120 points.`` (or the tie)."""
    if state.winner:
        return _("Game over: %(player)s won with %(points)d points.") % {
            "player": state.winner,
            "points": totals[state.winner],
        }
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
        text = "0 *"
        if row.hand_romme:
            text = "0 *HR"
        bonus = row.bonus.get(player, 0)
        if bonus:
            text += f" -{bonus}"
        return text
    return str(row.points.get(player, 0))


def render_scoresheet(s: Standings) -> str:
    """The table of rounds with running totals, totals, places and the game's state."""
    headers = [_("round"), *s.players]
    table: list[list[str]] = []
    running = dict(s.totals)
    # Running totals: walk back from the final totals over the rounds shown.
    after: dict[int, dict[str, int]] = {}
    rounds = s.rounds
    for row in reversed(rounds):
        after[row.number] = dict(running)
        for p in s.players:
            running[p] -= row.points.get(p, 0) - row.bonus.get(p, 0)
    for row in rounds:
        label = str(row.number) + (" " + _("(stalemate)") if row.stalemate else "")
        table.append([label] + [f"{_cell(row, p)}  = {after[row.number][p]}" for p in s.players])
    lines = []
    shown_from = rounds[0].number if rounds else None
    if shown_from is not None and shown_from > 1:
        lines.append(_("(rounds 1-%(last)d not shown; use --all)") % {"last": shown_from - 1})
    table.append([_("total")] + [str(s.totals[p]) for p in s.players])
    ranks = places({p: s.totals[p] for p in s.players})
    table.append([_("place")] + [str(ranks[p]) for p in s.players])
    if s.leaderboard is not None:
        table.append([_("leaderboard")] + [tenths_text(s.leaderboard[p]) for p in s.players])
    lines.append(
        tabulate(table, headers=headers, tablefmt="simple", colalign=("left",) + ("right",) * len(s.players))
    )
    lines.append(_("* went out, HR Hand-Rommé, -N winner bonus struck; '= N' is the running total"))
    lines.append(
        _("Rounds played: %(rounds)d; game ends at: %(end)s")
        % {"rounds": s.rounds_played, "end": s.rules.game_end}
    )
    lines.append(state_line(s.state, s.totals, s.next_dealer))
    return "\n".join(lines)


CHANGES = {"undone": N_("undone"), "edited": N_("edited")}  # a correction's kind, shown through _()


def render_standings(s: Standings) -> str:
    """``romme standings``: the session's name, the scoresheet, the corrections kept."""
    lines = [_("Session '%(session)s'") % {"session": s.session}, render_scoresheet(s)]
    if s.corrections:
        lines.append(
            _("Corrections kept in the history: %(list)s")
            % {
                "list": "; ".join(
                    (
                        _("round %(number)d") % {"number": c.round}
                        + f" {_(CHANGES.get(c.change, c.change))} {c.at or ''}"
                    ).rstrip()
                    for c in s.corrections
                )
            }
        )
    for n in s.notes:
        about = _("round %(number)d") % {"number": n.round} if n.round is not None else _("the game")
        lines.append(_("Note on %(about)s (%(at)s): %(text)s") % {"about": about, "at": n.at, "text": n.text})
    for r in s.renames:
        lines.append(
            _("Renamed from '%(old)s' to '%(new)s' (%(at)s)") % {"old": r.old, "new": r.new, "at": r.at}
        )
    return "\n".join(lines)


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
    return tabulate(rows, headers=[_("player"), _("cards left"), _("points"), ""], tablefmt="simple")


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


NOTHING_REMOVED = N_("Nothing removed.")  # shown through _() where printed


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


def render_created(info: SessionInfo) -> str:
    return (
        _("Session '%(session)s' started with %(players)s; game ends at %(end)s.")
        % {"session": info.name, "players": ", ".join(info.players), "end": info.rules.game_end}
        + "\n"
        + _("%(dealer)s deals first. Record rounds with: %(command)s")
        % {
            "dealer": info.players[info.first_dealer],
            "command": f'romme round --winner NAME {info.players[-1]}="{_("CARDS")}" ...',
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
            "winner": r.state.winner,
            "current": r.current,
        }
        for r in rows
    ]


def render_sessions(rows: Sequence[SessionSummary]) -> str:
    if not rows:
        return _("No sessions yet: start one with 'romme new NAME PLAYER PLAYER ...'.")
    return tabulate(
        [
            [
                ("* " if r.current else "  ") + r.info.name,
                ", ".join(r.info.players),
                r.rounds,
                r.info.created_at[:10],
                (_("yes, %(player)s") % {"player": r.state.winner} if r.state.winner else _("yes"))
                if r.state.finished
                else _("no"),
            ]
            for r in rows
        ],
        headers=[_("session"), _("players"), _("rounds"), _("date"), _("finished")],
    )


def now_current(name: str) -> str:
    return _("'%(session)s' is now the current session.") % {"session": name}


def renamed(old: str, new: str) -> str:
    return _("Session '%(old)s' is now called '%(new)s'.") % {"old": old, "new": new}


def delete_question(name: str) -> str:
    return _("Delete session '%(session)s' with all its rounds, history and notes?") % {"session": name}


NOTHING_DELETED = N_("Nothing deleted.")  # shown through _() where printed


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
