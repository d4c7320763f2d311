"""Views of the table mode (``romme play``) and of the round entry it shares with the
interactive ``romme round``: the standings panel, the toolbar line, a round's summary with
hand numbers, the prompts, and every message of the entry.

Pure text: data in, strings out. Columns narrow and names shorten to fit the terminal,
so that six players fit 80 columns and stay readable at 60.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from romme_score.cards import Card
from romme_score.rules import RuleSet
from romme_score.scoring import RoundInput, RoundScore
from romme_score.sessions import RoundRow, Standings
from romme_score.views.session import hand_shown

CardsText = Callable[[Sequence[Card]], str]

PANEL_ROUNDS = 6  # rounds shown in the panel above the prompt
LEGEND = "* went out  H Hand-Rommé  -N bonus struck  s stalemate"


# --- the standings -------------------------------------------------------------------

def short_name(name: str, width: int) -> str:
    """A name cut to ``width`` characters, marked with a dot when cut."""
    return name if len(name) <= width else name[:max(1, width - 1)] + "."


def _column_width(players: int, width: int) -> int:
    return max(5, min(12, (width - 6) // max(1, players)))


def _mark(row: RoundRow, player: str) -> str:
    if row.winner == player:
        text = "0 *" + ("H" if row.hand_romme else "")
        bonus = row.bonus.get(player, 0)
        return text + (f"-{bonus}" if bonus else "")
    return str(row.points.get(player, 0))


def distance_line(s: Standings) -> str:
    """How far the game is from its end: points to go, rounds left, or open."""
    end = s.rules.game_end
    if s.state.finished:
        if s.state.winner:
            return f"Game over: {s.state.winner} won with {s.totals[s.state.winner]} points."
        return f"Game over: a tie between {', '.join(s.state.tied)}."
    if end.kind == "points":
        leader = max(s.players, key=lambda p: s.totals[p])
        return (f"{end.limit - s.totals[leader]} to go until {end.limit} "
                f"({leader} has {s.totals[leader]})")
    if end.kind == "rounds":
        left = end.limit - s.rounds_played
        return f"{left} round{'s' if left != 1 else ''} left of {end.limit}"
    return "open game (no end set)"


def render_panel(s: Standings, width: int = 80, rounds: int = PANEL_ROUNDS) -> str:
    """The standings above the prompt: the last rounds with marks, totals, next dealer,
    distance to the end of the game; fits ``width`` columns (readable from 60)."""
    col = _column_width(len(s.players), width)
    head = "round".ljust(6) + "".join(short_name(p, col - 1).rjust(col) for p in s.players)
    lines = [f"'{s.session}' after {s.rounds_played} round{'s' if s.rounds_played != 1 else ''}"
             f" · game ends at {s.rules.game_end}", head]
    shown = list(s.rounds)[-rounds:] if rounds else []
    if shown and shown[0].number > 1:
        lines.append("...".ljust(6) + "".join("".rjust(col) for _ in s.players))
    for row in shown:
        label = f"{row.number}{' s' if row.stalemate else ''}".ljust(6)
        lines.append(label + "".join(_mark(row, p)[:col - 1].rjust(col) for p in s.players))
    lines.append("total".ljust(6) + "".join(str(s.totals[p]).rjust(col) for p in s.players))
    if s.leaderboard is not None:
        lines.append("board".ljust(6) + "".join(str(s.leaderboard[p]).rjust(col)
                                                for p in s.players))
    if s.state.finished:
        lines.append(distance_line(s)[:width])
    else:
        lines.append(f"Next to deal: {s.next_dealer} · {distance_line(s)}"[:width])
    lines.append(LEGEND[:width])
    return "\n".join(line.rstrip() for line in lines)


def toolbar_text(s: Standings, width: int = 80) -> str:
    """One line that stays at the bottom of the window: totals, next dealer, distance."""
    tails = (f" │ {s.next_dealer} deals │ {_short_distance(s)}", f" │ {s.next_dealer} deals", "")
    for tail in tails:
        for cut in range(12, 2, -1):
            text = " · ".join(f"{short_name(p, cut)} {s.totals[p]}" for p in s.players) + tail
            if len(text) <= width:
                return text
    return text[:width]


def _short_distance(s: Standings) -> str:
    end = s.rules.game_end
    if s.state.finished:
        return "game over"
    if end.kind == "points":
        return f"{end.limit - max(s.totals.values())} to {end.limit}"
    if end.kind == "rounds":
        return f"{end.limit - s.rounds_played} rounds left"
    return "open"


# --- prompts -------------------------------------------------------------------------

def main_prompt(session: str, number: int) -> str:
    return f"{session} · round {number}> "


def hand_prompt(session: str, number: int, seat: int, player: str) -> str:
    return f"{session} · round {number} · {seat} {player}> "


def summary_prompt(session: str, number: int) -> str:
    return f"{session} · round {number} · Enter saves> "


def winner_question(players: Sequence[str]) -> str:
    seats = ", ".join(f"{i} {p}" for i, p in enumerate(players, 1))
    return f"Who went out? {seats} (0 for a stalemate)"


def winner_toolbar(players: Sequence[str]) -> str:
    return f"who went out: 1-{len(players)}, a name or its first letters · 0 stalemate · help"


HAND_TOOLBAR = "cards left (HK K10 J) or points · Up recalls · Ctrl-C discards the round"


def summary_keys(players: Sequence[str], winner: str | None) -> str:
    return (f"Enter=save  1-{len(players)}=fix a hand  h=Hand-Rommé  s=stalemate  "
            "nN=never out  w=winner")


# --- the round entry's messages --------------------------------------------------------

def who_went_out() -> str:
    return "who went out? a number, a name or its first letters (0 for a stalemate)"


def ambiguous_player(text: str, matches: Sequence[str]) -> str:
    return f"'{text}' could be {' or '.join(matches)}: type more letters"


def unknown_player(text: str, players: Sequence[str], close: str | None) -> str:
    hint = f"; did you mean {close}?" if close else ""
    return f"unknown player '{text}'{hint} (players: {', '.join(players)})"


def no_seat(number: int, players: Sequence[str]) -> str:
    return f"there is no player {number}: 1-{len(players)} ({', '.join(players)}), 0 for a stalemate"


def empty_hand(player: str) -> str:
    return f"{player}: type the cards left in hand, or a number of points (0 for none)"


def negative_points(player: str, text: str) -> str:
    return f"{player}={text}: points left in hand cannot be negative"


def unreadable_hand(player: str, error: str) -> str:
    return f"{player}: {error}"


def supply_error(player: str, error: str) -> str:
    return f"the hands do not add up at {player}'s hand: {error}; correct it (Up recalls)"


def round_refused(error: str) -> str:
    return f"this round cannot be saved as given: {error}"


def winner_has_no_hand(seat: int, player: str) -> str:
    return f"{seat} {player} went out; 'w' chooses another winner"


def hand_romme_needs_winner() -> str:
    return "a stalemate has no winner, so no Hand-Rommé: 's' ends the stalemate first"


def unknown_key(text: str, players: Sequence[str], winner: str | None) -> str:
    return f"'{text}' is not a choice here. {summary_keys(players, winner)}"


def never_out_marked(player: str, on: bool, rules: RuleSet) -> str:
    if on and not rules.never_out_doubles:
        return f"{player} marked as never out (these rules do not double it: never_out_doubles=false)"
    return f"{player} {'marked' if on else 'no longer marked'} as never out"


# --- a round's summary -----------------------------------------------------------------

def render_summary(session: str, number: int, players: Sequence[str], rnd: RoundInput,
                   score: RoundScore, cards: CardsText, width: int = 80) -> str:
    """Every player with the number that corrects the hand, the cards or points typed,
    and the points the round adds."""
    if rnd.stalemate:
        head = f"Round {number} of '{session}': stalemate"
    else:
        head = (f"Round {number} of '{session}': {rnd.winner} went out"
                + (" with a Hand-Rommé" if rnd.hand_romme else ""))
    name_width = min(12, max(len(p) for p in players))
    lines = [head]
    rows = []
    for seat, p in enumerate(players, 1):
        hand = rnd.hands.get(p)
        shown = hand_shown(hand, cards)
        notes = []
        if p == rnd.winner:
            notes.append("went out" + (", cards not counted" if shown else ""))
            if score.bonus.get(p):
                notes.append(f"bonus -{score.bonus[p]}")
        if hand is not None and hand.never_out:
            notes.append("never out")
        if score.multiplier.get(p, 1) > 1 and score.base.get(p):
            notes.append(f"{score.base[p]} x {score.multiplier[p]}")
        rows.append((seat, p, shown, str(score.points[p]), "; ".join(notes)))
    left_width = 2 + 1 + name_width + 2
    room = max(8, min(max(len(r[2]) for r in rows), width - left_width - 6))
    for seat, p, shown, points, note in rows:
        if len(shown) > room:
            shown = shown[:room - 1] + "…"
        line = f"{seat:>2} {short_name(p, name_width).ljust(name_width)}  {shown.ljust(room)}"
        line += points.rjust(5) + (f"  {note}" if note else "")
        lines.append(line.rstrip())
    return "\n".join(lines)


def saved_line(number: int, session: str) -> str:
    return f"Round {number} of '{session}' saved."


def edited_line(number: int, session: str) -> str:
    return f"Round {number} of '{session}' corrected; later rounds scored again."


def edit_discarded(number: int) -> str:
    return f"Correction of round {number} discarded: round {number} is as it was."


def discarded(number: int) -> str:
    return f"Round {number} discarded: nothing was saved."


def changed_elsewhere(session: str) -> str:
    return f"'{session}' was changed in another window: standings redrawn."


def changed_before_save(session: str, number: int) -> str:
    return f"Changed in another window: not saved yet. This is now round {number}; Enter saves."


def game_over_no_round(line: str) -> str:
    return f"{line} No more rounds; 'settle' settles up."


def failed_line(number: int, line: str, code: int) -> str:
    return f"line {number} failed (exit code {code}): {line}"


BYE = "Bye."

HELP = """\
Record a round: type who went out (a number, a name or its first letters; 0 for a
stalemate), then each other player's cards left, one line each, in seating order from
the winner's left (HK K10 J), or a number of points counted by hand. At the summary:
Enter saves, a number corrects that hand, h Hand-Rommé, s stalemate, nN never out for
player N, w another winner. Ctrl-C discards the round being typed.

The rest, with the same words and options as on the command line:
  undo                        take back the last round (asks)
  edit N                      open round N: correct a hand by its number, Enter saves
  edit N NAME="CARDS" ...     correct round N in one line
  check MELD ...              is a meld legal (under this session's rules)
  best HAND [--table MELD]    the best arrangement of a hand
  value HAND                  penalty points of a hand
  settle                      who pays whom
  standings [--all]           the whole scoresheet
  export [-o FILE]            the session as JSON or CSV
  round --winner NAME ...     a round as a command line
  help, quit (or Ctrl-D)"""


def not_inside(word: str) -> str:
    return f"'{word}' cannot run inside the table mode"
