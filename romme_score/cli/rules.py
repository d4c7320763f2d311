"""``romme rules``: the house rules of a preset, one line of explanation each."""

from __future__ import annotations

import click

from romme_score.cli.options import (
    Output,
    complete_with,
    fail_input,
    load_rules,
    plain_output_options,
    raw_rule_options,
)
from romme_score.cli.terminal import terminal_columns
from romme_score.i18n import _
from romme_score.rules import PRESETS
from romme_score.tournament import TournamentOptions
from romme_score.views.rules import (
    card_values_json,
    presets_json,
    render_card_values,
    render_presets,
    render_rules,
    render_tournament_options,
)


@click.command()
@click.argument("preset_name", required=False, metavar="[PRESET]", shell_complete=complete_with("presets"))
@click.option("--list", "list_presets", is_flag=True, help="List the presets.")
@click.option(
    "--verbose",
    "-v",
    is_flag=True,
    help="Also show where each rule comes from (the numbers of the rule texts in docs/rules.md).",
)
@raw_rule_options
@plain_output_options
def rules(
    preset_name: str | None,
    list_presets: bool,
    verbose: bool,
    preset: str | None,
    rule_items: tuple[str, ...],
    rules_file: str | None,
    out: Output,
) -> None:
    """Show the house rules of a preset, one line of explanation each, and the
    options of a tournament (romme tournament new) with their defaults.

    \b
    Examples:
      romme rules                      the standard preset
      romme rules wiki-51
      romme rules --list
      romme rules --verbose classic
      romme rules --preset classic --rule first_meld_min=30
      romme rules classic --rule first_meld_min=30
    """
    if list_presets:
        if out.json:
            out.dump(presets_json(PRESETS))
        else:
            out.echo(render_presets(PRESETS, verbose, terminal_columns()))
        return
    if preset_name is not None and preset is not None and preset_name != preset:
        fail_input(
            _("two presets given, %(argument)s and --preset %(option)s: give one")
            % {"argument": preset_name, "option": preset}
        )
    # the preset as the argument or as --preset, and the --rule and --rules-file on top
    shown = load_rules(preset_name or preset, rule_items, rules_file)
    if out.json:
        out.dump({**shown.to_dict(), "card_values": card_values_json(shown)})
    else:
        width = terminal_columns()
        out.echo(render_card_values(shown, width))
        out.echo()
        out.echo(render_rules(shown, verbose, width))
        out.echo()
        out.echo(render_tournament_options(TournamentOptions(), width))
