"""Views of ``romme rules``: the house rules of a preset, one line of explanation each."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tabulate import tabulate

from romme_score.i18n import _
from romme_score.rules import OPTION_NAMES, PRESET_SOURCES, RuleSet, allowed_values, option_doc
from romme_score.tournament_options import TOURNAMENT_OPTION_NAMES, TournamentOptions, allowed_text
from romme_score.tournament_options import option_doc as tournament_option_doc
from romme_score.views.width import fits, wrap


def presets_json(presets: Mapping[str, RuleSet]) -> dict[str, Any]:
    return {
        name: {"description": PRESET_SOURCES[name], "rules": rules.to_dict()}
        for name, rules in presets.items()
    }


def render_presets(presets: Mapping[str, RuleSet], width: int | None = None) -> str:
    table = tabulate(
        [[name, _(PRESET_SOURCES[name])] for name in presets], headers=[_("preset"), _("what it is")]
    )
    if width is None or fits(table, width):
        return table
    return "\n".join(wrap(f"{name}: {_(PRESET_SOURCES[name])}", width) for name in presets)


def _options(rows: list[list[str]], width: int | None) -> str:
    """Options as a table of option, value, allowed and meaning; where that is wider than
    ``width`` columns, a block each: ``option = value``, then what is allowed and what it
    means, indented and wrapped."""
    table = tabulate(rows, headers=[_("option"), _("value"), _("allowed"), _("meaning")])
    if width is None or fits(table, width):
        return table
    blocks = []
    for name, value, allowed, meaning in rows:
        blocks.append(f"{name} = {value}")
        blocks.append(wrap(f"    {meaning}", width, indent="    "))
        blocks.append(wrap(f"    {_('allowed')}: {allowed}", width, indent="      "))
    return "\n".join(blocks)


def show_value(value: Any) -> str:
    """An option's value as typed on the command line (``none``, ``true``, ``500``)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def render_rules(rules: RuleSet, width: int | None = None) -> str:
    data = rules.to_dict()
    rows = [
        [name, show_value(data[name]), _(allowed_values(name)), _(option_doc(name))] for name in OPTION_NAMES
    ]
    return _options(rows, width)


def render_tournament_options(options: TournamentOptions, width: int | None = None) -> str:
    """The options of ``romme tournament new`` (RULES.md §10), as ``--rule KEY=VALUE`` and
    the rules file take them, with their defaults."""
    data = options.to_dict()
    rows = [
        [name, show_value(data[name]), allowed_text(name), _(tournament_option_doc(name))]
        for name in TOURNAMENT_OPTION_NAMES
    ]
    title = wrap(_("Tournament options (romme tournament new), with their defaults:"), width)
    return title + "\n" + _options(rows, width)
