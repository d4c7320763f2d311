"""View of ``romme stats``: each person across every session, as a table or JSON."""

from __future__ import annotations

from typing import Any

from romme_score.history import HeadToHead, PlayerStats, Stats
from romme_score.i18n import N_, _, decimal_text, ngettext, shown
from romme_score.views.local import day_text, money

# msgids, shown through _()
HEADERS = [
    N_("player"),
    N_("games"),
    N_("won"),
    N_("rounds"),
    N_("out"),
    N_("HR"),
    N_("avg"),
    N_("worst"),
    N_("money"),
]
KEY = N_(
    "won: games won; out: rounds gone out; HR: Hand-Rommés; avg: penalty points per\n"
    "round; worst: the most in one round; money: settled in the sessions with a rate."
)
NO_GAMES = N_("No games yet: the statistics count sessions with at least one round.")
SINCE = N_("Sessions started on or after {since}: {count}.")
ALL = N_("All sessions: {count}.")
SAME_PERSON = N_(
    "A player is the same person in every session where the name matches,\n"
    "ignoring case and surrounding spaces."
)
MIXED_CURRENCIES = N_("money adds up sessions in different currencies ({currencies})")


def unknown_player(name: str, close: str | None, names: tuple[str, ...], option: str = "--player") -> str:
    hint = "; " + _("did you mean %(name)s?") % {"name": close} if close else ""
    return _("%(option)s: no player named %(name)s in any session%(hint)s (players: %(players)s)") % {
        "option": option,
        "name": shown(name),
        "hint": hint,
        "players": ", ".join(names) or _("none yet"),
    }


def _vs_json(h: HeadToHead) -> dict[str, Any]:
    return {
        "name": h.opponent,
        "rounds": h.rounds,
        "rounds_lower": h.rounds_lower,
        "rounds_higher": h.rounds_higher,
        "rounds_equal": h.rounds_equal,
        "games": h.games,
        "games_lower": h.games_lower,
        "games_higher": h.games_higher,
        "games_equal": h.games_equal,
    }


def player_json(p: PlayerStats) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": p.name,
        "games": p.games,
        "games_won": p.games_won,
        "rounds": p.rounds,
        "rounds_won": p.rounds_won,
        "hand_rommes": p.hand_rommes,
        "average_penalty": float(p.average_penalty),
        "worst_round": p.worst_round,
        "money": str(p.money) if p.money else "0",
        "points": p.points,
        "currencies": list(p.currencies),
    }
    if p.vs is not None:
        data["vs"] = _vs_json(p.vs)
    return data


def stats_json(s: Stats) -> dict[str, Any]:
    return {"players": [player_json(p) for p in s.players]}


def _money(p: PlayerStats, ascii: bool, column: str | None) -> str:
    """A player's money in the column's currency: the player's own one, or for a player
    who never played for money (nothing settled, no currency) the one of everybody else's
    (issue 38 item 9: ``0,00 €`` beside ``1,67 €``, not ``0,00``)."""
    currency = p.currencies[0] if len(p.currencies) == 1 else None
    if not p.currencies:
        currency = column
    return money(p.money, currency, ascii=ascii)


def _vs_line(p: PlayerStats, h: HeadToHead) -> str:
    values = {
        "player": p.name,
        "opponent": h.opponent,
        "count": h.rounds,
        "lower": h.rounds_lower,
        "higher": h.rounds_higher,
        "equal": h.rounds_equal,
    }
    rounds = (
        ngettext(
            "%(player)s vs %(opponent)s: %(count)d round together, fewer points: "
            "%(player)s %(lower)d, %(opponent)s %(higher)d, equal %(equal)d",
            "%(player)s vs %(opponent)s: %(count)d rounds together, fewer points: "
            "%(player)s %(lower)d, %(opponent)s %(higher)d, equal %(equal)d",
            h.rounds,
        )
        % values
    )
    values = {
        "player": p.name,
        "opponent": h.opponent,
        "count": h.games,
        "lower": h.games_lower,
        "higher": h.games_higher,
        "equal": h.games_equal,
    }
    games = (
        ngettext(
            "%(count)d game together, lower total: %(player)s %(lower)d, "
            "%(opponent)s %(higher)d, equal %(equal)d",
            "%(count)d games together, lower total: %(player)s %(lower)d, "
            "%(opponent)s %(higher)d, equal %(equal)d",
            h.games,
        )
        % values
    )
    return rounds + ";\n  " + games


def render_stats(s: Stats, ascii: bool = False) -> str:
    from tabulate import tabulate  # imported where a table is printed

    if not s.players:
        return _(NO_GAMES)
    mixed = sorted({c for p in s.players for c in p.currencies})
    column = mixed[0] if len(mixed) == 1 else None
    rows = [
        [
            p.name,
            p.games,
            p.games_won,
            p.rounds,
            p.rounds_won,
            p.hand_rommes,
            decimal_text(f"{p.average_penalty:.2f}"),
            p.worst_round,
            _money(p, ascii, column),
        ]
        for p in s.players
    ]
    lines = [
        _(SINCE).format(since=day_text(s.since), count=s.sessions)
        if s.since
        else _(ALL).format(count=s.sessions),
        tabulate(
            rows,
            headers=[_(h) for h in HEADERS],
            tablefmt="simple",
            disable_numparse=True,
            colalign=("left",) + ("right",) * (len(HEADERS) - 1),
        ),
    ]
    vs = [_vs_line(p, p.vs) for p in s.players if p.vs is not None]
    if vs:
        lines.append("")
        lines.extend(vs)
    if len(mixed) > 1:
        lines.append(_(MIXED_CURRENCIES).format(currencies=", ".join(mixed)))
    lines.append(_(KEY))
    lines.append(_(SAME_PERSON))
    return "\n".join(lines)
