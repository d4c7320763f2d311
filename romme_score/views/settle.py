"""Views of ``romme settle``: the pairwise table, nets, money and transfers (002 section 6)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from romme_score.i18n import _, decimal_text, ngettext, tenths_text
from romme_score.settlement import Settlement
from romme_score.views import width as columns
from romme_score.views.local import money as money_text
from romme_score.views.output import leaderboard_json


def settlement_json(s: Settlement, leaderboard: Mapping[str, int] | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "players": [
            {"name": p.name, "total": p.total, "net": p.net, "amount": str(p.amount), "place": p.place}
            for p in s.players
        ],
        "pairs": [{"winner": p.winner, "loser": p.loser, "points": p.points} for p in s.pairs],
        "transfers": [{"from": t.payer, "to": t.payee, "amount": str(t.amount)} for t in s.transfers],
        "rate": str(s.rate) if s.rate is not None else None,
        "unit": str(s.unit),
        "rounding": s.rounding_note,
        "transfers_minimal": s.transfers_minimal,
    }
    if leaderboard is not None:
        for p in data["players"]:
            p["leaderboard"] = leaderboard_json(leaderboard.get(p["name"]))
    return data


def render_settlement(
    s: Settlement,
    currency: str | None,
    leaderboard: Mapping[str, int] | None = None,
    ascii: bool = False,
    width: int | None = None,
) -> str:
    """The settlement as printed: the pair-by-pair table, or where that is wider than
    ``width`` columns one line per player; then the transfers."""
    from tabulate import tabulate  # imported where a table is printed

    names = [p.name for p in s.players]
    money = {p.name: money_text(p.amount, currency, s.unit, ascii) for p in s.players}
    by_pair = {(p.winner, p.loser): p.points for p in s.pairs}

    apart = "." if ascii else "·"  # two players who never sat at the same table

    def vs(row: str, col: str) -> str:
        if row == col:
            return ""
        if (col, row) in by_pair:  # the column player receives from the row player
            return f"+{by_pair[(col, row)]}" if by_pair[(col, row)] else "0"
        if (row, col) in by_pair:
            return f"-{by_pair[(row, col)]}" if by_pair[(row, col)] else "0"
        return apart

    lines = []
    if s.rate is not None:
        heading = _("Settlement at %(rate)s per point") % {"rate": decimal_text(s.rate)}
    else:
        heading = _("Settlement at each session's own rate per point")
    lines.append(heading + (f" ({currency})" if currency else ""))
    lines.append("")
    table = [[_("total")] + [str(p.total) for p in s.players]]
    for other in names:
        table.append([_("vs %(player)s") % {"player": other}] + [vs(other, col) for col in names])
    table.append([_("net")] + [f"{p.net:+d}" for p in s.players])
    table.append([_("money")] + [money[p.name] for p in s.players])
    table.append([_("place")] + [str(p.place) for p in s.players])
    if leaderboard is not None:
        table.append(
            [_("leaderboard")] + [tenths_text(leaderboard[n]) if n in leaderboard else "" for n in names]
        )
    pairs = tabulate(
        table,
        headers=[_("player"), *names],
        colalign=("left",) + ("right",) * len(names),
        tablefmt="simple",
        disable_numparse=True,
    )
    if width is None or columns.fits(pairs, width):
        lines.append(pairs)
        lines.append("")
        lines.append(_("'vs X' is what the column's player receives (+) from or pays (-) to X."))
        if any(vs(a, b) == apart for a in names for b in names):
            lines.append(_("%(mark)s: these two never played at the same table.") % {"mark": apart})
    else:  # a narrow terminal: one line per player, the pairs left out
        each = [[p.name, str(p.total), f"{p.net:+d}", money[p.name], str(p.place)] for p in s.players]
        headers = [_("player"), _("total"), _("net"), _("money"), _("place")]
        if leaderboard is not None:
            headers.append(_("leaderboard"))
            for row, name in zip(each, names, strict=True):
                row.append(tenths_text(leaderboard[name]) if name in leaderboard else "")
        lines.append(
            tabulate(
                each,
                headers=headers,
                colalign=("left",) + ("right",) * 5,
                tablefmt="simple",
                disable_numparse=True,
            )
        )
        lines.append("")
        lines.append(
            _("The table of each against each is left out: it needs %(needed)d columns.")
            % {"needed": max(columns.width(line) for line in pairs.splitlines())}
        )
    if s.rounding_note:
        lines.append(_("Rounding: %(note)s.") % {"note": s.rounding_note})
    lines.append("")
    if not s.transfers:
        lines.append(_("Nobody owes anybody anything."))
    else:
        count = len(s.transfers)
        proof = _("the fewest possible") if s.transfers_minimal else _("not proven minimal")
        lines.append(
            ngettext(
                "To settle (%(count)d transfer, %(proof)s):",
                "To settle (%(count)d transfers, %(proof)s):",
                count,
            )
            % {"count": count, "proof": proof}
        )
        for t in s.transfers:
            lines.append(
                "  "
                + _("%(payer)s pays %(payee)s %(amount)s")
                % {
                    "payer": t.payer,
                    "payee": t.payee,
                    "amount": money_text(t.amount, currency, s.unit, ascii),
                }
            )
    return "\n".join(columns.wrap(line, width) if "\n" not in line else line for line in lines)
