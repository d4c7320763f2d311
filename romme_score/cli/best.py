"""``romme best``: the best arrangement of a hand, by the exact solver."""

from __future__ import annotations

import click

from romme_score.best import IllegalTableMeld, SupplyExceeded, judge_best
from romme_score.cli.options import (
    Output,
    RulesFrom,
    echo_rules_from,
    fail_input,
    output_options,
    read_cards,
    referee_rule_options,
)
from romme_score.i18n import _, shown
from romme_score.rules import RuleSet
from romme_score.views.best import best_json, render_best


@click.command()
@click.argument("hand", nargs=-1, required=True)
@click.option(
    "--table",
    "table_melds",
    multiple=True,
    metavar="MELD",
    help="A meld on the table that cards may be laid off onto (repeatable).",
)
@click.option(
    "--came-out", is_flag=True, help="The player has already come out: lay-offs count, no first-meld minimum."
)
@referee_rule_options
@output_options
def best(
    hand: tuple[str, ...],
    table_melds: tuple[str, ...],
    came_out: bool,
    rules: RuleSet,
    rules_from: RulesFrom,
    out: Output,
) -> None:
    """The best arrangement of a hand: could it come out, what is the most it can
    lay down, what would be left, can it go out now.

    Several arguments are joined into one hand.

    \b
    Examples:
      romme best "P3 P4 P5 TB PB HB H9 K2"
      romme best --came-out --table "♥2 ♥3 ♥4" "♥A ♥5 TK P9"
      romme best --preset wiki-51 "TA PA J H3 H4 H5 H9"
    """
    cards = read_cards(" ".join(hand), out)
    # each table meld read when the referee comes to it: an illegal one is said before an
    # unreadable one after it
    table = ((text, read_cards(text, out, f"--table {n}: ")) for n, text in enumerate(table_melds, 1))
    try:
        verdict = judge_best(cards, table, rules, came_out)
    except IllegalTableMeld as exc:
        fail_input(
            _("--table %(number)d (%(text)s) is not a legal meld: %(reason)s")
            % {"number": exc.number, "text": shown(exc.text), "reason": exc}
        )
    except SupplyExceeded as exc:
        fail_input(_("the hand and table do not add up: %(reason)s") % {"reason": exc})
    if out.json:
        out.dump(
            {**best_json(verdict.best, verdict.table, rules, out.profile, out.ascii), **rules_from.json()}
        )
    else:
        echo_rules_from(rules_from, out)
        out.echo(render_best(verdict.best, cards, verdict.table, rules, came_out, out.profile, out.ascii))
