"""Text and JSON views of standings and settlements (pure: strings and dicts in, no I/O)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from romme_score.cards import Card, Profile, format_cards
from romme_score.melds import Meld
from romme_score.rules import RuleSet
from romme_score.scoring import GameState, place_bonus, places
from romme_score.settlement import Settlement, format_money


@dataclass(frozen=True)
class RoundRow:
    number: int
    winner: str | None
    hand_romme: bool
    stalemate: bool
    points: Mapping[str, int]
    bonus: Mapping[str, int]
    leaderboard: Mapping[str, int | None]


@dataclass(frozen=True)
class Standings:
    session: str
    players: tuple[str, ...]
    rules: RuleSet
    rounds: Sequence[RoundRow]
    rounds_played: int
    totals: Mapping[str, int]
    leaderboard: Mapping[str, int] | None
    state: GameState
    next_dealer: str


def leaderboard_with_bonus(standings: Standings) -> dict[str, int] | None:
    """003 leaderboard points, with the place bonus once the game is over."""
    if standings.leaderboard is None:
        return None
    board = dict(standings.leaderboard)
    if standings.state.finished:
        for name, extra in place_bonus(standings.players, standings.totals).items():
            board[name] += extra
    return board


def standings_json(s: Standings) -> dict[str, Any]:
    board = leaderboard_with_bonus(s)
    return {
        "session": s.session,
        "players": [{"name": p, "total": s.totals[p],
                     "leaderboard": board[p] if board is not None else None} for p in s.players],
        "rounds": [{"number": r.number, "winner": r.winner, "hand_romme": r.hand_romme,
                    "stalemate": r.stalemate,
                    "points": dict(r.points), "bonus": {k: v for k, v in r.bonus.items() if v}}
                   for r in s.rounds],
        "finished": s.state.finished,
        "game_winner": s.state.winner,
        "tied": list(s.state.tied) if s.state.finished and s.state.winner is None else [],
        "next_dealer": s.next_dealer,
        "game_end": str(s.rules.game_end),
    }


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


def render_standings(s: Standings, shown_from: int | None = None) -> str:
    from tabulate import tabulate

    headers = ["round", *s.players]
    table: list[list[str]] = []
    running = dict(s.totals)
    # Running totals: walk back from the final totals over the rounds shown.
    after: dict[int, dict[str, int]] = {}
    for row in reversed(s.rounds):
        after[row.number] = dict(running)
        for p in s.players:
            running[p] -= row.points.get(p, 0) - row.bonus.get(p, 0)
    for row in s.rounds:
        label = str(row.number) + (" (stalemate)" if row.stalemate else "")
        table.append([label] + [f"{_cell(row, p)}  = {after[row.number][p]}" for p in s.players])
    lines = []
    if shown_from is not None and shown_from > 1:
        lines.append(f"(rounds 1-{shown_from - 1} not shown; use --all)")
    table.append(["total"] + [str(s.totals[p]) for p in s.players])
    ranks = places({p: s.totals[p] for p in s.players})
    table.append(["place"] + [str(ranks[p]) for p in s.players])
    board = leaderboard_with_bonus(s)
    if board is not None:
        table.append(["leaderboard"] + [str(board[p]) for p in s.players])
    lines.append(tabulate(table, headers=headers, tablefmt="simple",
                          colalign=("left",) + ("right",) * len(s.players)))
    lines.append("* went out, HR Hand-Rommé, -N winner bonus struck; '= N' is the running total")
    lines.append(f"Rounds played: {s.rounds_played}; game ends at: {s.rules.game_end}")
    if s.state.finished:
        if s.state.winner:
            lines.append(f"Game over: {s.state.winner} won with {s.totals[s.state.winner]} points.")
        else:
            lines.append(f"Game over: a tie between {', '.join(s.state.tied)}.")
    else:
        lines.append(f"Next to deal: {s.next_dealer}")
    return "\n".join(lines)


def settlement_json(s: Settlement, leaderboard: Mapping[str, int] | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "players": [{"name": p.name, "total": p.total, "net": p.net, "amount": str(p.amount),
                     "place": p.place} for p in s.players],
        "pairs": [{"winner": p.winner, "loser": p.loser, "points": p.points} for p in s.pairs],
        "transfers": [{"from": t.payer, "to": t.payee, "amount": str(t.amount)}
                      for t in s.transfers],
        "rate": str(s.rate) if s.rate is not None else None,
        "unit": str(s.unit),
        "rounding": s.rounding_note,
    }
    if leaderboard is not None:
        for p in data["players"]:
            p["leaderboard"] = leaderboard.get(p["name"])
    return data


def render_settlement(s: Settlement, currency: str | None, profile: str,
                      leaderboard: Mapping[str, int] | None = None) -> str:
    from tabulate import tabulate

    names = [p.name for p in s.players]
    money = {p.name: format_money(p.amount, currency, profile, s.unit) for p in s.players}
    by_pair = {(p.winner, p.loser): p.points for p in s.pairs}

    def vs(row: str, col: str) -> str:
        if row == col:
            return ""
        if (col, row) in by_pair:  # the column player receives from the row player
            return f"+{by_pair[(col, row)]}" if by_pair[(col, row)] else "0"
        return f"-{by_pair[(row, col)]}" if by_pair[(row, col)] else "0"

    lines = []
    rate = f"{s.rate}" if s.rate is not None else "each session's rate"
    lines.append(f"Settlement at {rate} per point" + (f" ({currency})" if currency else ""))
    lines.append("")
    table = [["total"] + [str(p.total) for p in s.players]]
    for other in names:
        table.append([f"vs {other}"] + [vs(other, col) for col in names])
    table.append(["net"] + [f"{p.net:+d}" for p in s.players])
    table.append(["money"] + [money[p.name] for p in s.players])
    table.append(["place"] + [str(p.place) for p in s.players])
    if leaderboard is not None:
        table.append(["leaderboard"] + [str(leaderboard.get(n, "")) for n in names])
    lines.append(tabulate(table, headers=["player", *names], tablefmt="simple",
                          colalign=("left",) + ("right",) * len(names)))
    lines.append("")
    lines.append("'vs X' is what the column's player receives (+) from or pays (-) to X.")
    if s.rounding_note:
        lines.append(f"Rounding: {s.rounding_note}.")
    lines.append("")
    if not s.transfers:
        lines.append("Nobody owes anybody anything.")
    else:
        count = len(s.transfers)
        lines.append(f"To settle ({count} transfer{'s' if count != 1 else ''}, the fewest possible):")
        for t in s.transfers:
            lines.append(f"  {t.payer} pays {t.payee} {format_money(t.amount, currency, profile, s.unit)}")
    return "\n".join(lines)


def _layoff_text(move: Any, table: Sequence[Meld], profile: Profile, ascii: bool) -> str:
    cards = format_cards(list(move.cards), profile, ascii)
    jokers = Card.joker().format(profile, ascii)
    what = " ".join(x for x in (cards, " ".join([jokers] * move.jokers)) if x)
    return f"{what} onto {table[move.table].format(profile, ascii)}"


def best_json(b: Any, table: Sequence[Meld], rules: RuleSet, profile: Profile = "de",
              ascii: bool = False) -> dict[str, Any]:
    def cards(m: Meld) -> list[str]:
        return [s.format(profile, ascii) for s in m.slots]

    def layoffs(moves: Sequence[Any]) -> list[dict[str, Any]]:
        return [{"onto": cards(table[m.table]), "cards": [c.format(profile, ascii) for c in m.cards],
                 "jokers": m.jokers} for m in moves]

    return {
        "max_meld_value": b.max_meld_value,
        "first_meld_ok": b.first_meld_ok,
        "first_meld_min": rules.first_meld_min,
        "value_melds": [cards(m) for m in b.value_melds],
        "melds": [cards(m) for m in b.melds],
        "layoffs": layoffs(b.layoffs),
        "leftover": [c.format(profile, ascii) for c in b.leftover],
        "leftover_penalty": b.leftover_penalty,
        "can_go_out": b.can_go_out,
        "hand_romme": b.hand_romme,
        "out_melds": [cards(m) for m in b.out_melds],
        "out_layoffs": layoffs(b.out_layoffs),
        "discard": b.discard.format(profile, ascii) if b.discard is not None else None,
    }


def render_best(b: Any, hand: Sequence[Card], table: Sequence[Meld], rules: RuleSet,
                came_out: bool, profile: Profile = "de", ascii: bool = False) -> str:
    def melds(ms: Sequence[Meld]) -> str:
        return " | ".join(m.format(profile, ascii) for m in ms) or "nothing"

    count = len(hand)
    lines = [f"Hand: {format_cards(list(hand), profile, ascii)} ({count} card{'s' * (count != 1)})"]
    minimum = rules.first_meld_min
    need = f"{minimum} needed" + (", with a run without jokers" if rules.first_meld_pure_run else "")
    verdict = "enough to come out" if b.first_meld_ok else "NOT enough to come out"
    if came_out:
        lines.append(f"Most to lay down as melds: {b.max_meld_value} points")
    else:
        lines.append(f"Most to lay down: {b.max_meld_value} points ({verdict}; {need})")
    if b.value_melds:
        lines.append(f"  {melds(b.value_melds)}")
    lines.append(f"Least left in hand: {b.leftover_penalty} points"
                 + (f" ({format_cards(list(b.leftover), profile, ascii)})" if b.leftover else ""))
    if b.melds:
        lines.append(f"  melds: {melds(b.melds)}")
    for move in b.layoffs:
        lines.append(f"  lay off: {_layoff_text(move, table, profile, ascii)}")
    if not b.melds and not b.layoffs:
        if not came_out and b.leftover:
            lines.append("  nothing can be laid yet: no first meld reaches the minimum")
    if b.can_go_out:
        kind = "a Hand-Rommé" if b.hand_romme else "going out"
        how = melds(b.out_melds)
        for move in b.out_layoffs:
            how += f" | lay off {_layoff_text(move, table, profile, ascii)}"
        discard = f", discard {b.discard.format(profile, ascii)}" if b.discard is not None else ""
        lines.append(f"Can go out now: yes, {kind}: {how}{discard}")
    else:
        lines.append("Can go out now: no")
    return "\n".join(lines)
