"""Views of the session commands: the scoresheet, a round's summary, the session list,
and the one-line messages of new, round, undo, edit, use, export and import."""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from json.encoder import encode_basestring as json_text
from operator import itemgetter
from typing import Any, NamedTuple

from tabulate import tabulate

from romme_score.cards import Card
from romme_score.i18n import N_, _, ngettext
from romme_score.rules import RuleSet
from romme_score.scoring import GameState, Hand, RoundInput, RoundScore, places
from romme_score.sessions import (
    Edited,
    Recorded,
    RoundRow,
    SessionExport,
    SessionInfo,
    SessionSummary,
    Standings,
    Undone,
)
from romme_score.views.stream import RawJSON, stream_json

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


def standings_json(s: Standings, rounds: Iterable[RoundRow] | None = None) -> dict[str, Any]:
    board = s.leaderboard
    return {
        "session": s.session,
        "players": [
            {"name": p, "total": s.totals[p], "leaderboard": board[p] if board is not None else None}
            for p in s.players
        ],
        "rounds": (
            {
                "number": r.number,
                "winner": r.winner,
                "hand_romme": r.hand_romme,
                "stalemate": r.stalemate,
                "points": dict(r.points),
                "bonus": {k: v for k, v in r.bonus.items() if v},
            }
            for r in (s.rounds if rounds is None else rounds)
        ),
        "finished": s.state.finished,
        "game_winner": s.state.winner,
        "tied": list(s.state.tied) if s.state.finished and s.state.winner is None else [],
        "next_dealer": s.next_dealer,
        "game_end": str(s.rules.game_end),
    }


def standings_with_corrections_json(s: Standings, rounds_json: Iterator[str] | None = None) -> dict[str, Any]:
    """``romme standings --json``: with ``rounds_json`` (each round's JSON object as text,
    made by the store) the rounds stream."""
    data = standings_json(s)
    if rounds_json is not None:
        data["rounds"] = (RawJSON(text) for text in rounds_json)
    data["corrections"] = [{"round": c.round, "change": c.change, "at": c.at} for c in s.corrections]
    data["notes"] = [{"round": n.round, "text": n.text, "at": n.at} for n in s.notes]
    data["renames"] = [{"from": r.old, "to": r.new, "at": r.at} for r in s.renames]
    return data


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
        table.append([_("leaderboard")] + [str(s.leaderboard[p]) for p in s.players])
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


# --- export and import ----------------------------------------------------------------


def export_json_chunks(export: SessionExport) -> Iterator[str]:
    """``romme export`` as JSON, streamed: memory stays the same however long the session.
    The text is what ``json.dumps(export.to_json(), indent=2)`` gives, plus a newline; from
    the store's rows (``export.round_rows``) each round's line is made by :class:`_RoundLines`,
    else by :meth:`ExportRound.to_json`."""
    if export.round_rows is not None and export.history_rows is not None:
        rounds: Iterator[Any] = _RoundLines(export.players).batches(export.round_rows)
        history: Iterator[Any] = _RoundLines(export.players, history=True).batches(export.history_rows)
    else:
        rounds = (r.to_json() for r in export.rounds)
        history = (r.to_json() for r in export.history)
    whole = {
        **export.header(),
        "rounds": rounds,
        "history": history,
        "notes": iter([{"round": n.round, "text": n.text, "at": n.at} for n in export.notes]),
        "renames": iter([{"from": r.old, "to": r.new, "at": r.at} for r in export.renames]),
    }
    yield from stream_json(whole, indent=2)
    yield "\n"


_TRUE = ("false", "true")
# What JSON escapes (with the newlines between a batch's lines): a batch whose text holds
# no more of these than its templates write themselves holds its values as they are.
_JSON_SPECIAL = bytes([*range(32), ord('"'), ord("\\")])
# What CSV quotes: the same check for the scoresheet's lines.
_CSV_SPECIAL = b',"\r\n'


class _Template(NamedTuple):
    text: str  # %-template of one round's line
    pick: Callable[[Sequence[Any]], tuple[Any, ...]]  # its values, from a row
    texts: tuple[int, ...]  # the row's places of text values (cards, winner, time)
    special: int  # how many of _JSON_SPECIAL the template writes itself


class _RoundLines:
    """Export lines of round rows as :meth:`Store.round_table` reads them: the text
    ``ExportRound.to_json`` would give, dumped compact, without building a dict per round.

    Which keys a round has (a bonus here, typed points there) is read from the row's shape;
    for each shape a %-template with the players' names escaped once is made and kept.
    A batch of rounds is first written with its texts as they are, which is right when the
    batch holds no quote, backslash or control character but the templates' own (cards
    never do); else that batch is written again with each text escaped."""

    CACHE = 4096  # shapes kept; a session has a handful, so memory stays flat

    def __init__(self, players: Sequence[str], history: bool = False) -> None:
        self.keys = [_pct(json_text(p)) + ": " for p in players]
        self.history = history
        self.first_seat = 8 if history else 5
        self.templates: dict[int, _Template] = {}

    def template(self, shape: int) -> _Template:
        """The template of one shape (see :meth:`Store.round_table`)."""
        head = '{"row": %d, "number": %d, '
        picks = [1, 2]
        if self.history:
            head += '"status": %s, "changed_at": %s, "replaced_by": %s, '
            picks += [5, 6, 7]
        texts = [4]
        if shape & 4:
            head += '"winner": null, '
        else:
            head += '"winner": "%s", '
            picks.append(3)
            texts.append(3)
        head += (
            f'"hand_romme": {_TRUE[shape & 1]}, "stalemate": {_TRUE[shape >> 1 & 1]}, "recorded_at": "%s", '
        )
        picks.append(4)
        parts: dict[str, list[str]] = {"hands": [], "points": [], "bonus": [], "leaderboard": []}
        places: dict[str, list[int]] = {name: [] for name in parts}
        for seat, key in enumerate(self.keys):
            flags = shape >> (3 + 6 * seat) & 63
            if flags & 1:  # no hand of this player
                continue
            column = self.first_seat + 5 * seat
            entry = []
            if flags & 2:
                entry.append('"cards": "%s"')
                places["hands"].append(column)
                texts.append(column)
            if flags & 4:
                entry.append('"points": %d')
                places["hands"].append(column + 1)
            if flags & 8:
                entry.append('"never_out": true')
            if entry:
                parts["hands"].append(key + "{" + ", ".join(entry) + "}")
            parts["points"].append(key + "%d")
            places["points"].append(column + 2)
            if flags & 16:
                parts["bonus"].append(key + "%d")
                places["bonus"].append(column + 3)
            if flags & 32:
                parts["leaderboard"].append(key + "%d")
                places["leaderboard"].append(column + 4)
        text = head + ", ".join(f'"{name}": {{{", ".join(items)}}}' for name, items in parts.items()) + "}"
        for name in parts:
            picks += places[name]
        return _Template(
            text,
            itemgetter(*picks),
            tuple(texts),
            len(text) - len(text.encode().translate(None, _JSON_SPECIAL)),
        )

    def batches(self, batches: Iterable[Sequence[tuple[Any, ...]]]) -> Iterator[RawJSON]:
        """Each batch of rows as the lines of its rounds, joined as a streamed list joins
        its items (so that the batch stands where one item would)."""
        templates = self.templates
        for rows in batches:
            if not rows:
                continue
            text = None
            if not self.history:
                lines = []
                special = len(rows) - 1  # the newlines between the lines
                for row in rows:
                    found = templates.get(row[0]) or self.add(row[0])
                    lines.append(found[0] % found[1](row))
                    special += found[3]
                text = ",\n    ".join(lines)
                data = text.encode()
                if len(data) - len(data.translate(None, _JSON_SPECIAL)) != special:
                    text = None
            if text is None:
                text = ",\n    ".join(
                    [self.escaped(templates.get(row[0]) or self.add(row[0]), row) for row in rows]
                )
            yield RawJSON(text)

    def add(self, shape: int) -> _Template:
        """Make and keep the template of a shape not seen yet."""
        if len(self.templates) >= self.CACHE:
            self.templates.clear()
        made = self.templates[shape] = self.template(shape)
        return made

    def escaped(self, template: _Template, row: Sequence[Any]) -> str:
        """One round's line with each text escaped (the history's, and a batch with texts
        that JSON escapes)."""
        values = list(row)
        for column in template.texts:
            values[column] = json_text(values[column])[1:-1]
        if self.history:
            values[5] = json_text(values[5])
            values[6] = "null" if values[6] is None else json_text(values[6])
            values[7] = "null" if values[7] is None else str(values[7])
        return template.text % template.pick(values)


def _pct(text: str) -> str:
    """Text to stand as it is in a %-template."""
    return text.replace("%", "%%")


class _Lines:
    """A file-like sink for csv.writer that keeps what was written since the last take."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, text: str) -> int:
        self.parts.append(text)
        return len(text)

    def take(self) -> str:
        text = "".join(self.parts)
        self.parts.clear()
        return text


def export_csv_chunks(export: SessionExport) -> Iterator[str]:
    """The scoresheet as CSV, streamed: per round its winner, marks, points and cards per
    player, who dealt and when; then the totals and places. From the store's rows
    (``export.scoresheet_rows``) a batch of rounds is written by one template, checked as
    :class:`_RoundLines` checks its batches: a field that CSV quotes sends the batch to
    the csv writer."""
    sink = _Lines()
    writer = csv.writer(sink)
    players = export.players
    seats = len(players)
    first = players.index(export.first_dealer)
    writer.writerow(
        [
            "round",
            "winner",
            "hand_romme",
            "stalemate",
            *players,
            *(f"{p} cards" for p in players),
            "dealer",
            "time",
        ]
    )
    yield sink.take()
    totals = dict.fromkeys(players, 0)
    if export.scoresheet_rows is not None:
        # One template per dealer (round n is dealt by the seat n-1 after the first dealer),
        # used when no name needs quoting; each line holds as many commas as its fields.
        lines = [f"%d,%s,%d,%d,{'%d,' * seats}{'%s,' * seats}{_pct(dealer)},%s\r\n" for dealer in players]
        plain = not any(set(p) & set(',"\r\n') for p in players)
        special = lines[0].count(",") + 2  # and the line's end, \r\n
        for rows in export.scoresheet_rows:
            text = ""
            if plain:
                text = "".join([lines[(first + row[0] - 1) % seats] % row for row in rows])
                data = text.encode()
                if len(data) - len(data.translate(None, _CSV_SPECIAL)) != special * len(rows):
                    text = ""
            if not text:
                writer.writerows(
                    [(*row[:-1], players[(first + row[0] - 1) % seats], row[-1]) for row in rows]
                )
                text = sink.take()
            columns = list(zip(*rows, strict=True))
            for seat, p in enumerate(players):
                totals[p] += sum(columns[4 + seat])
            yield text
    else:
        for r in export.rounds:
            for p in players:
                totals[p] += r.points.get(p, 0) - r.bonus.get(p, 0)
            hands = [r.hands.get(p) for p in players]
            writer.writerow(
                [
                    r.number,
                    r.winner or "",
                    int(r.hand_romme),
                    int(r.stalemate),
                    *(r.points.get(p, 0) - r.bonus.get(p, 0) for p in players),
                    *((h.cards or "") if h is not None else "" for h in hands),
                    players[(first + r.number - 1) % seats],
                    r.recorded_at,
                ]
            )
            yield sink.take()
    writer.writerow(["total", "", "", "", *(totals[p] for p in players)])
    ranks = places(totals)
    writer.writerow(["place", "", "", "", *(ranks[p] for p in players)])
    yield sink.take()


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


def imported(name: str, rounds: int) -> str:
    return ngettext(
        "Session '%(session)s' imported with %(count)d round; it is now current.",
        "Session '%(session)s' imported with %(count)d rounds; it is now current.",
        rounds,
    ) % {"session": name, "count": rounds}
