"""``romme check``: is a meld legal, why not, what is it worth; first meld; lay-off and swap."""

from __future__ import annotations

import sys

import click

from romme_score import referee
from romme_score.cli.options import (
    Output,
    RulesFrom,
    echo_rules_from,
    output_options,
    read_cards,
    referee_rule_options,
)
from romme_score.rules import RuleSet
from romme_score.views.referee import quote_as_one_meld, render_verdict, verdict_json


@click.command()
@click.argument("melds", nargs=-1, required=True)
@click.option("--first", is_flag=True, help="Judge the melds together as a first meld (§4).")
@click.option(
    "--onto",
    metavar="MELD",
    help="A meld on the table: judge the given cards as a lay-off or joker swap onto it.",
)
@click.option(
    "--not-out",
    is_flag=True,
    help="With --onto: the player has not come out yet (first_meld_layoff and joker_swap decide).",
)
@referee_rule_options
@output_options
def check(
    melds: tuple[str, ...],
    first: bool,
    onto: str | None,
    not_out: bool,
    rules: RuleSet,
    rules_from: RulesFrom,
    out: Output,
) -> None:
    """Say whether melds are legal, why not, and what they are worth.

    One argument per meld. Exit code 0 when everything is legal, 1 when not,
    2 when the input cannot be read (a mistyped card, an unknown option).

    \b
    Examples:
      romme check "HK KK PK" "T9 T10 TB"
      romme check --first "P3 P4 P5" "TB PB HB"
      romme check --preset wiki-51 "♠3 J J ♠6"
      romme check --onto "♥2 ♥3 ♥4" "♥A ♥5"
      romme check --onto "♥9 J ♥B" "♥10" --not-out --rule joker_swap=anytime
      romme check --notation en "KH KD KS"
    """
    verdict = referee.judge_question(
        melds,
        onto,
        rules,
        lambda text, where: read_cards(text, out, where),
        first=first,
        not_out=not_out,
        onto_where="--onto: ",
    )
    if out.json:
        out.dump({**verdict_json(verdict, out.profile, out.ascii), **rules_from.json()})
    else:
        echo_rules_from(rules_from, out)
        out.echo(render_verdict(verdict, out.profile, out.ascii))
        if verdict.together is not None:
            out.echo(quote_as_one_meld(melds))
    if not verdict.valid:
        sys.exit(1)
