"""``romme settle``: who pays whom how much at the end of the evening (002 section 6)."""

from __future__ import annotations

from collections.abc import Sequence

import click

from romme_score.cli.options import (
    Output,
    complete_with,
    db_option,
    fail_input,
    output_options,
)
from romme_score.cli.service import open_service
from romme_score.cli.terminal import terminal_columns
from romme_score.i18n import _, shown
from romme_score.inputs import clean_currency, clean_name, fold, parse_rate, parse_total, parse_unit
from romme_score.sessions import DEFAULT_RATE, settle_evening
from romme_score.settlement import SettlementError, TooFewPlayers
from romme_score.views.settle import render_settlement, settlement_json


@click.command()
@click.argument("totals", nargs=-1)
@click.option(
    "--session",
    "sessions",
    multiple=True,
    metavar="NAME",
    shell_complete=complete_with("sessions"),
    help="Settle these sessions together (repeatable); default: the current session.",
)
@click.option(
    "--rate",
    metavar="AMOUNT",
    help="Money per penalty point, e.g. 0.001 (default: the session's rate, else 0.01).",
)
@click.option(
    "--unit",
    metavar="AMOUNT",
    default="0.01",
    show_default=True,
    help="Smallest unit of the currency; amounts are rounded to it.",
)
@click.option("--currency", metavar="CODE", help="Currency code, e.g. EUR (default: the session's).")
@db_option
@output_options
def settle(
    totals: tuple[str, ...],
    sessions: tuple[str, ...],
    rate: str | None,
    unit: str,
    currency: str | None,
    db: str | None,
    out: Output,
) -> None:
    """Settle the evening: who pays whom how much (as in the classic rule sheet).

    Every pair of players settles the difference of their totals; the money is
    rounded to the unit so that it sums to zero, and paid in the fewest
    transfers possible.

    \b
    Examples:
      romme settle A=220 B=360 C=140 D=490 --rate 0.001 --currency EUR
      romme settle                      the current session
      romme settle --session Friday --session Saturday
    """
    unit_value = parse_unit(unit, "--unit")
    rate_value = parse_rate(rate, "--rate") if rate is not None else None
    currency = clean_currency(currency, "--currency") if currency is not None else None
    try:
        if totals:
            if sessions:
                fail_input(_("give either NAME=POINTS totals or --session, not both"))
            rates = [rate_value if rate_value is not None else DEFAULT_RATE]
            settled = settle_evening([paper_totals(totals)], rates, unit_value, currency)
        else:
            with open_service(db, create=False) as service:
                settled = service.settle(sessions, rate=rate_value, unit=unit_value, currency=currency)
    except SettlementError as exc:
        if isinstance(exc, TooFewPlayers) and totals:  # typed: how to type them
            fail_input(_("a settlement needs at least two players, e.g. A=220 B=360"))
        fail_input(str(exc))
    if out.json:
        out.dump(settlement_json(settled.settlement, settled.leaderboard))
    else:
        width = terminal_columns()
        out.echo(
            render_settlement(settled.settlement, settled.currency, settled.leaderboard, out.ascii, width)
        )


def paper_totals(items: Sequence[str]) -> dict[str, int]:
    """Totals typed as NAME=POINTS (from a paper scoresheet)."""
    totals: dict[str, int] = {}
    for item in items:
        if "=" not in item:
            fail_input(_("%(item)s needs the form NAME=POINTS, e.g. Anna=220") % {"item": shown(item)})
        raw, _sep, points = item.partition("=")
        if not raw.strip():
            fail_input(_("%(item)s has no name before '='") % {"item": shown(item)})
        name = clean_name(raw, _("a player's name"))
        if fold(name) in {fold(n) for n in totals}:
            fail_input(_("%(name)s is given twice") % {"name": name})
        totals[name] = parse_total(points, f"{name}={shown(points.strip(), quote=False)}")
    return totals  # fewer than two: the settlement's to refuse
