"""Views of the table mode (``romme play``) and of the round entry it shares with the
interactive ``romme round``: the standings panel, the toolbar line, a round's summary with
hand numbers, the prompts, and the entry's own messages (a player or a hand that cannot
be read is worded by :mod:`romme_score.inputs`, as on the command line).

Pure text: data in, strings out. Columns narrow and names shorten to fit the terminal,
so that six players fit 80 columns and stay readable at 60.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from romme_score.cards import Card
from romme_score.i18n import N_, _, ngettext, shown, tenths_text
from romme_score.rules import RuleSet, rule_name
from romme_score.scoring import RoundInput, RoundScore
from romme_score.sessions import PendingRound, RoundRow, Standings
from romme_score.views import marks
from romme_score.views import width as columns
from romme_score.views.game_end import ends
from romme_score.views.session import CLOSED, hand_shown

if TYPE_CHECKING:
    from romme_score.sessions.hands import HandCount

CardsText = Callable[[Sequence[Card]], str]

PANEL_ROUNDS = 6  # rounds shown in the panel above the prompt


# --- the standings -------------------------------------------------------------------


def short_name(name: str, width: int) -> str:
    """A name cut to ``width`` columns (an emoji takes two), marked with a dot when cut."""
    return columns.cut(name, max(2, width), ".")


def _column_width(players: int, width: int) -> int:
    return max(5, min(12, (width - 6) // max(1, players)))


def _mark(row: RoundRow, player: str) -> str:
    if row.winner == player:
        return marks.winner_cell(row.hand_romme, row.bonus.get(player, 0))
    return str(row.points.get(player, 0))


def distance_line(s: Standings) -> str:
    """How far the game is from its end: points to go, rounds left, or open."""
    end = s.rules.game_end
    if s.state.closed:
        return _(CLOSED)
    if s.state.finished:
        if s.state.winner:
            return ngettext(
                "Game over: %(player)s won with %(points)d point.",
                "Game over: %(player)s won with %(points)d points.",
                s.totals[s.state.winner],
            ) % {"player": s.state.winner, "points": s.totals[s.state.winner]}
        return _("Game over: a tie between %(players)s.") % {"players": ", ".join(s.state.tied)}
    if s.to_go is None:
        return _("open game (no end set)")
    if end.kind == "rounds":
        return ngettext(
            "%(count)d round left of %(limit)d", "%(count)d rounds left of %(limit)d", s.to_go
        ) % {"count": s.to_go, "limit": end.limit}
    if s.leader is None:  # nobody has a point yet: nobody leads
        return _("%(left)d to %(limit)d") % {"left": s.to_go, "limit": end.limit}
    return _("%(left)d to go until %(limit)d (%(leader)s has %(total)d)") % {
        "left": s.to_go,
        "limit": end.limit,
        "leader": s.leader,
        "total": s.totals[s.leader],
    }


def render_panel(s: Standings, width: int = 80, rounds: int = PANEL_ROUNDS) -> str:
    """The standings above the prompt: the last rounds with marks, totals, next dealer,
    distance to the end of the game; fits ``width`` columns (readable from 60)."""
    col = _column_width(len(s.players), width)
    head = _("round")[:5].ljust(6) + "".join(columns.rjust(short_name(p, col - 1), col) for p in s.players)
    lines = [
        ngettext(
            "'%(session)s' after %(count)d round", "'%(session)s' after %(count)d rounds", s.rounds_played
        )
        % {"session": s.session, "count": s.rounds_played}
        + " · "
        + _("the game %(end)s") % {"end": ends(s.rules.game_end)},
        head,
    ]
    shown = list(s.rounds)[-rounds:] if rounds else []
    if shown and shown[0].number > 1:
        lines.append("...".ljust(6) + "".join("".rjust(col) for _p in s.players))
    for row in shown:
        label = f"{row.number}{' ' + marks.STALEMATE if row.stalemate else ''}".ljust(6)
        lines.append(label + "".join(_mark(row, p)[: col - 1].rjust(col) for p in s.players))
    lines.append(_("total")[:5].ljust(6) + "".join(str(s.totals[p]).rjust(col) for p in s.players))
    if s.leaderboard is not None:
        board = s.leaderboard
        lines.append(_("board")[:5].ljust(6) + "".join(tenths_text(board[p]).rjust(col) for p in s.players))
    if s.state.finished:
        lines.append(fit(distance_line(s), width))
    else:
        lines.append(
            wrap_items(
                _("Next to deal: %(player)s") % {"player": s.next_dealer} + f" · {distance_line(s)}", width
            )
        )
    lines.append(wrap_items(marks.legend(sep="  "), width))
    return "\n".join(line.rstrip() for line in "\n".join(lines).splitlines())


def toolbar_text(s: Standings, width: int = 80) -> str:
    """One line that stays at the bottom of the window: totals, next dealer, distance."""
    deals = _("%(player)s deals") % {"player": s.next_dealer}
    tails = (f" │ {deals} │ {_short_distance(s)}", f" │ {deals}", "")
    for tail in tails:
        for cut in range(12, 2, -1):
            text = " · ".join(f"{short_name(p, cut)} {s.totals[p]}" for p in s.players) + tail
            if columns.width(text) <= width:
                return text
    return columns.cut(text, width, "")


def _short_distance(s: Standings) -> str:
    end = s.rules.game_end
    if s.state.finished:
        return _("game over")
    if s.to_go is None:
        return _("open")
    if end.kind == "rounds":
        return ngettext("%(count)d round left", "%(count)d rounds left", s.to_go) % {"count": s.to_go}
    return _("%(left)d to %(limit)d") % {"left": s.to_go, "limit": end.limit}


# --- fitting the window ----------------------------------------------------------------


def fit(text: str, width: int, indent: str = "") -> str:
    """``text`` with every line wider than ``width`` columns wrapped at spaces (never inside
    a word, so the terminal breaks none), measured by display width (an emoji takes two
    columns); lines that fit stay as they are.

    >>> print(fit("unknown player 'bne'; did you mean Ben?", 20))
    unknown player
    'bne'; did you mean
    Ben?
    >>> print(fit("Dora 2, Zoë🃏 3)? [y/N]", 12))
    Dora 2,
    Zoë🃏 3)?
    [y/N]
    """
    return "\n".join(columns.wrap(line, width, indent) for line in text.splitlines() or [""])


def wrap_items(text: str, width: int) -> str:
    """A line of items (separated by `` · `` or two spaces, as the toolbars and the legend
    are) on as many lines of ``width`` as it needs, never splitting an item.

    >>> print(wrap_items("Enter=save  1-4=fix a hand  h=Hand-Rommé  w=winner", 30))
    Enter=save  1-4=fix a hand
    h=Hand-Rommé  w=winner
    """
    import re

    parts = re.split(r"( · |  )", text)
    lines: list[str] = []
    line = parts[0]
    for sep, item in zip(parts[1::2], parts[2::2], strict=True):
        if columns.width(line + sep + item) <= width:
            line += sep + item
            continue
        *done, last = fit(line, width).splitlines()  # an item wider than the window wraps
        lines.extend(done)
        if columns.width(last + sep + item) <= width:
            line = last + sep + item
        else:
            lines.append(last)
            line = item
    lines.extend(fit(line, width).splitlines())
    return "\n".join(lines)


def error_line(text: str) -> str:
    """An error as Click shows one (``Error: ...``), in the run's language."""
    from romme_score.i18n import click_gettext

    return click_gettext("Error: {message}").format(message=text)


# --- prompts -------------------------------------------------------------------------


def main_prompt(session: str, number: int) -> str:
    return _("%(session)s · round %(number)d> ") % {"session": session, "number": number}


def hand_prompt(session: str, number: int, seat: int, player: str) -> str:
    return _("%(session)s · round %(number)d · %(seat)d %(player)s> ") % {
        "session": session,
        "number": number,
        "seat": seat,
        "player": player,
    }


def summary_prompt(session: str, number: int) -> str:
    return _("%(session)s · round %(number)d · Enter saves> ") % {"session": session, "number": number}


def winner_question(players: Sequence[str]) -> str:
    seats = ", ".join(f"{i} {p}" for i, p in enumerate(players, 1))
    return _("Who went out? %(seats)s (0 for a stalemate)") % {"seats": seats}


def winner_toolbar(players: Sequence[str]) -> str:
    return _("who went out: 1-%(last)d, a name or its first letters · 0 stalemate · help") % {
        "last": len(players)
    }


HAND_TOOLBAR = N_("cards left (HK K10 J) or points · Up recalls · Ctrl-C discards the round")
HAND_TOOLBAR_TYPING = N_("cards left (HK K10 J) or points · Up recalls · Ctrl-C clears the line")


def hand_toolbar(typing: bool) -> str:
    """The hand's key line: Ctrl-C clears what is typed, and on an empty line discards the
    round (issue 20 item 8)."""
    return _(HAND_TOOLBAR_TYPING) if typing else _(HAND_TOOLBAR)


def summary_keys(players: Sequence[str], winner: str | None) -> str:
    return _("Enter=save  1-%(last)d=fix a hand  h=Hand-Rommé  s=stalemate  nN=never out  w=winner") % {
        "last": len(players)
    }


# --- the round entry's messages --------------------------------------------------------


def who_went_out() -> str:
    return _("who went out? a number, a name or its first letters (0 for a stalemate)")


def hand_to_correct(seat: int, player: str, typed: str) -> str:
    """Above the empty line of a hand corrected at the summary: what it was."""
    return _("%(seat)d %(player)s had %(hand)s: type the hand again (Up recalls it)") % {
        "seat": seat,
        "player": player,
        "hand": typed,
    }


def supply_error(player: str, error: str) -> str:
    return _("the hands do not add up at %(player)s's hand: %(error)s; correct it (Up recalls)") % {
        "player": player,
        "error": error,
    }


def round_refused(error: str) -> str:
    return _("this round cannot be saved as given: %(error)s") % {"error": error}


def winner_has_no_hand(seat: int, player: str) -> str:
    return _("%(seat)d %(player)s went out; 'w' chooses another winner") % {"seat": seat, "player": player}


def hand_romme_needs_winner() -> str:
    return _("a stalemate has no winner, so no Hand-Rommé: 's' ends the stalemate first")


def unknown_key(text: str, players: Sequence[str], winner: str | None) -> str:
    return _("%(text)s is not a choice here.") % {"text": shown(text)} + " " + summary_keys(players, winner)


def never_out_marked(player: str, on: bool, rules: RuleSet) -> str:
    if on and not rules.never_out_doubles:
        return _("%(player)s marked as never out (these rules do not double it: %(rule)s)") % {
            "player": player,
            "rule": rule_name("never_out_doubles", False),
        }
    return (_("%(player)s marked as never out") if on else _("%(player)s no longer marked as never out")) % {
        "player": player
    }


def unlikely_points(player: str, points: int, limit: int) -> str:
    """Points counted by hand above :data:`~romme_score.scoring.UNLIKELY_POINTS`: asked again
    in the table mode (Enter keeps them)."""
    return _(
        "%(player)s=%(points)d: more than %(limit)d points in one hand; Enter keeps them, or correct them"
    ) % {
        "player": player,
        "points": points,
        "limit": limit,
    }


# --- a round's summary -----------------------------------------------------------------


def render_summary(
    session: str,
    number: int,
    players: Sequence[str],
    rnd: RoundInput,
    score: RoundScore,
    cards: CardsText,
    width: int = 80,
) -> str:
    """Every player with the number that corrects the hand, the cards or points typed,
    and the points the round adds."""
    if rnd.stalemate:
        head = _("Round %(number)d of '%(session)s': stalemate") % {"number": number, "session": session}
    else:
        head = (
            _("Round %(number)d of '%(session)s': %(player)s went out with a Hand-Rommé")
            if rnd.hand_romme
            else _("Round %(number)d of '%(session)s': %(player)s went out")
        ) % {"number": number, "session": session, "player": rnd.winner}
    name_width = min(12, max(columns.width(p) for p in players))
    lines = [head]
    rows = []
    for seat, p in enumerate(players, 1):
        hand = rnd.hands.get(p)
        shown = hand_shown(hand, cards)
        notes = []
        if p == rnd.winner:
            notes.append(_("went out, cards not counted") if shown else _("went out"))
            if score.bonus.get(p):
                notes.append(_("bonus -%(points)d") % {"points": score.bonus[p]})
        if hand is not None and hand.never_out:
            notes.append(_("never out"))
        if score.multiplier.get(p, 1) > 1 and score.base.get(p):
            notes.append(f"{score.base[p]} x {score.multiplier[p]}")
        rows.append((seat, p, shown, str(score.points[p]), "; ".join(notes)))
    left_width = 2 + 1 + name_width + 2
    room = max(8, min(max(columns.width(r[2]) for r in rows), width - left_width - 6))
    for seat, p, shown, points, note in rows:
        shown = columns.cut(shown, room)
        name = columns.ljust(short_name(p, name_width), name_width)
        line = f"{seat:>2} {name}  {columns.ljust(shown, room)}"
        line += points.rjust(5) + (f"  {note}" if note else "")
        lines.append(line.rstrip())
    return "\n".join(lines)


def saved_line(number: int, session: str) -> str:
    return _("Round %(number)d of '%(session)s' saved.") % {"number": number, "session": session}


def edited_line(number: int, session: str) -> str:
    return _("Round %(number)d of '%(session)s' corrected; later rounds scored again.") % {
        "number": number,
        "session": session,
    }


def edit_discarded(number: int) -> str:
    return _("Correction of round %(number)d discarded: round %(number)d is as it was.") % {"number": number}


def discarded(number: int) -> str:
    return _("Round %(number)d discarded: nothing was saved.") % {"number": number}


def changed_elsewhere(session: str) -> str:
    return _("'%(session)s' was changed in another window: standings redrawn.") % {"session": session}


def changed_before_save(session: str, number: int) -> str:
    return _("Changed in another window: not saved yet. This is now round %(number)d; Enter saves.") % {
        "number": number
    }


def game_over_no_round(
    line: str, tournament: str | None = None, ended: bool = False, series_drawn: int | None = None
) -> str:
    """A round asked after the game's end: at a tournament's table, the table has played,
    or a later series closed it; a game ended by agreement goes on after ``end --reopen``."""
    if series_drawn is not None:
        return line + " " + _("No more games at this table; the ranking is the tournament's.")
    if ended:
        return line + " " + _("Ended by agreement: 'end --reopen' takes that back.")
    if tournament:
        return line + " " + _("This table has played its games; the ranking is the tournament's.")
    return line + " " + _("No more rounds; 'settle' settles up.")


LINE_SHOWN = 200  # characters of a failed line quoted whole


def failed_line(number: int, line: str, code: int) -> str:
    return _("line %(number)d failed (exit code %(code)d): %(line)s") % {
        "number": number,
        "code": code,
        "line": shown(without_passwords(line), quote=False, whole=LINE_SHOWN),
    }


def without_passwords(line: str) -> str:
    """A line as shown again, a database URL in it without its password (issue 30 item 11):
    the password runs from the user's ``:`` to the last ``@`` before a space.

    >>> without_passwords("standings --db postgresql://club:pa/Sekr3t@host:5432/db --all")
    'standings --db postgresql://club@host:5432/db --all'
    """
    if "://" not in line:
        return line
    import re

    return re.sub(r"([A-Za-z][A-Za-z0-9+.-]*://[^\s:/@]*):\S*@", r"\1@", line)


BYE = N_("Bye.")  # shown through _()

HELP_INTRO = N_(
    "Record a round: type who went out (a number, a name or its first letters; 0 for a "
    "stalemate), then each other player's cards left, one line each, in seating order from "
    "the winner's left (HK K10 J), or a number of points counted by hand. At the summary: "
    "Enter saves, a number corrects that hand, h Hand-Rommé, s stalemate, nN never out for "
    "player N, w another winner. Ctrl-C clears the line; on an empty line it discards the "
    "round being typed."
)
HELP_REST = N_("The rest, with the same words and options as on the command line:")


def render_help(words: Sequence[tuple[str, str]], width: int = 80) -> str:
    """``help`` in the table mode, fitted to ``width`` columns: the round, then the words
    (each as typed and what it does, worded: :func:`romme_score.table.words.help_rows`),
    what it does beside it where there is room, else below it."""
    import textwrap

    lines = [fit(_(HELP_INTRO), width), "", fit(_(HELP_REST), width)]
    usages = [usage for usage, _what in words]
    column = min(max(columns.width(u) for u in usages) + 2, 30)
    for usage, said in words:
        if columns.width(usage) + 2 > column or width - 2 - column < 24:  # no room beside: below it
            lines.append("  " + usage)
            if said:
                lines.append(fit("      " + said, width, indent="      "))
            continue
        beside = textwrap.wrap(said, width - 2 - column, break_long_words=False) or [""]
        lines.append(("  " + columns.ljust(usage, column) + beside[0]).rstrip())
        lines.extend(" " * (2 + column) + more for more in beside[1:])
    return "\n".join(lines)


# --- the round in progress from the phones (romme serve) -------------------------------


def pending_lines(
    players: Sequence[str],
    pending: PendingRound,
    missing: Sequence[str],
    cards: CardsText,
    counts: Mapping[str, HandCount],
) -> str:
    """Below the panel while phones send a round: who went out, each hand that is in (its
    cards and points), who is still awaited, and the word that takes it over."""
    lines = [_("From the phones: %(state)s") % {"state": _pending_state(pending)}]
    for player in players:
        stored = pending.hands.get(player)
        if stored is None:
            continue
        hand = stored.to_hand()
        shown = cards(hand.cards) if hand.cards is not None else _("counted")
        lines.append(f"  {player}: {shown} = {counts[player].points}")
    if missing:
        lines.append("  " + _("waiting for %(players)s") % {"players": ", ".join(missing)})
    lines.append(_("'phones' takes this round over: Enter saves it."))
    return "\n".join(lines)


def _pending_state(pending: PendingRound) -> str:
    if pending.stalemate:
        return _("Stalemate.")
    if pending.winner is not None:
        return (
            _("%(player)s went out (Hand-Rommé).") if pending.hand_romme else _("%(player)s went out.")
        ) % {"player": pending.winner}
    return _("Nobody has gone out yet.")


def phone_news(
    players: Sequence[str],
    before: PendingRound,
    now: PendingRound,
    cards: CardsText,
    counts: Mapping[str, HandCount],
) -> list[str]:
    """What a phone changed of the round in progress since ``before``, a line each (issue 30
    item 7): who went out, and each hand sent (``Dora (phone): ♦7 ♦8 = 15``) or taken back."""
    lines = []
    if (now.winner, now.stalemate, now.hand_romme) != (before.winner, before.stalemate, before.hand_romme):
        lines.append(_("From the phones: %(state)s") % {"state": _pending_state(now)})
    for player in players:
        old, new = before.hands.get(player), now.hands.get(player)
        if new == old:
            continue
        if new is None:
            lines.append(_("%(player)s (phone): hand taken back") % {"player": player})
            continue
        hand = new.to_hand()
        shown = cards(hand.cards) if hand.cards is not None else _("counted")
        lines.append(
            _("%(player)s (phone): %(hand)s = %(points)s")
            % {"player": player, "hand": shown, "points": counts[player].points}
        )
    return lines


def no_pending() -> str:
    return _("No round has come from the phones.")


def taken_elsewhere(number: int) -> str:
    """The round being typed was saved or discarded elsewhere (a phone, another window)."""
    return _("Round %(number)d was saved or discarded elsewhere meanwhile; nothing was saved here.") % {
        "number": number
    }


def pending_changed() -> str:
    return _("A phone changed the round meanwhile: here it is again; Enter saves.")


def unknown_command_or_player(text: str, close: str | None, players: Sequence[str]) -> str:
    """A line at the main prompt that is neither a command nor a player (issue 20 item 4)."""
    if close is not None:
        return _(
            "unknown command or player %(text)s; did you mean %(close)s? ('help' lists the commands; "
            "players: %(players)s)"
        ) % {"text": shown(text), "close": close, "players": ", ".join(players)}
    return _("unknown command or player %(text)s ('help' lists the commands; players: %(players)s)") % {
        "text": shown(text),
        "players": ", ".join(players),
    }


def no_game_yet() -> str:
    return _("No game yet: name it and its players to start one here (Ctrl-D leaves).")


def game_name_prompt() -> str:
    return _("Name of the game> ")


def start_help() -> str:
    """What to type when ``romme play`` asks for a new game (``help`` at its questions)."""
    return _(
        "To start a game, type its name (Friday), then its players in seating order, "
        "separated by spaces or by commas (Anna Ben Carl, or Anna Maria, Ben); or all in one "
        "line: new Friday Anna Ben Carl. 'quit' or Ctrl-D leaves."
    )


def not_a_game_name(word: str) -> str:
    """A command's word typed where a new game's name is asked (``undo``): no name for it."""
    return _("'%(word)s' is a command here, not a name for a game; type the game's name") % {"word": word}


def players_prompt() -> str:
    return _("Players, in seating order> ")


def not_inside(word: str) -> str:
    return _("'%(word)s' cannot run inside the table mode") % {"word": word}


def terminal_only(word: str) -> str:
    """A word of the table mode's terminal alone (``phones``), read in a script."""
    return _("'%(word)s' works only at the terminal, not in a script") % {"word": word}


def table_hint(text: str) -> str:
    """``new``'s words as the table mode shows them: its hint for recording a round on the
    command line (``romme round --winner ...``) becomes what to type here.

    >>> print(table_hint("Game 'Zwei' with A, B.\\nA deals first. Record rounds with: romme round"))
    Game 'Zwei' with A, B.
    A deals first. Type who went out at the prompt below.
    """
    import re

    from romme_score.views.session import RECORD_HINT

    pattern = re.escape(_(RECORD_HINT))
    pattern = pattern.replace(re.escape("%(dealer)s"), "(?P<dealer>.+?)")
    pattern = pattern.replace(re.escape("%(command)s"), ".*")
    said = _("%(dealer)s deals first. Type who went out at the prompt below.")
    return re.sub(
        "^" + pattern + "$", lambda m: said % {"dealer": m.group("dealer")}, text, flags=re.MULTILINE
    )
