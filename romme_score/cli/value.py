"""``romme value``: penalty points of the cards left in a hand."""

from __future__ import annotations

import click

from romme_score.cli.options import (
    Output,
    RulesFrom,
    echo_rules_from,
    output_options,
    read_cards,
    referee_rule_options,
)
from romme_score.referee import judge_value
from romme_score.rules import RuleSet
from romme_score.views.value import render_value, value_json


@click.command()
@click.argument("hand", nargs=-1, required=True)
@referee_rule_options
@output_options
def value(hand: tuple[str, ...], rules: RuleSet, rules_from: RulesFrom, out: Output) -> None:
    """Penalty points of the cards left in a hand, with a breakdown.

    Several arguments are joined into one hand.

    \b
    Examples:
      romme value "HK K10 J"
      romme value --rule joker_penalty=25 HK K10 J
      romme value --notation en "KH 10D JK"
    """
    cards = read_cards(" ".join(hand), out)
    rows = judge_value(cards, rules)
    if out.json:
        out.dump({**value_json(rows, out.profile, out.ascii), **rules_from.json()})
    else:
        echo_rules_from(rules_from, out)
        out.echo(render_value(rows, out.profile, out.ascii))
