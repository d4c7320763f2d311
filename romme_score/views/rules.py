"""Views of ``romme rules``: the house rules of a preset, one line of explanation each."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tabulate import tabulate

from romme_score.i18n import _
from romme_score.rules import (
    OPTION_NAMES,
    PRESET_FILES,
    PRESET_SOURCES,
    RuleSet,
    allowed_values,
    option_doc,
    option_source,
)
from romme_score.tournament_options import TOURNAMENT_OPTION_NAMES, TournamentOptions, allowed_text
from romme_score.tournament_options import option_doc as tournament_option_doc
from romme_score.views.game_end import typed


def presets_json(presets: Mapping[str, RuleSet]) -> dict[str, Any]:
    """The presets for scripts: the description names its source file of RULES.md
    (``000 Rommé mit Auslegen: ...``), as ``"source"`` does."""
    return {
        name: {
            "description": " ".join(filter(None, (PRESET_FILES[name], PRESET_SOURCES[name]))),
            "source": PRESET_FILES[name] or None,
            "rules": rules.to_dict(),
        }
        for name, rules in presets.items()
    }


def render_presets(presets: Mapping[str, RuleSet], verbose: bool = False) -> str:
    """The presets, each described in words; ``verbose`` adds the source file of RULES.md."""
    if verbose:
        rows = [[name, _(PRESET_SOURCES[name]), PRESET_FILES[name]] for name in presets]
        return tabulate(rows, headers=[_("preset"), _("what it is"), _("source")])
    return tabulate(
        [[name, _(PRESET_SOURCES[name])] for name in presets], headers=[_("preset"), _("what it is")]
    )


def show_value(value: Any) -> str:
    """An option's value as typed on the command line (``none``, ``true``, ``500``)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def render_rules(rules: RuleSet, verbose: bool = False) -> str:
    """One row per option: its value, what it allows, what it means (the sources named in
    words); ``verbose`` adds where RULES.md has it from (``002 e 'Rommé mit 10'``)."""
    data = rules.to_dict()
    data["game_end"] = typed(rules.game_end)
    rows = [
        [name, show_value(data[name]), _(allowed_values(name)), _(option_doc(name))] for name in OPTION_NAMES
    ]
    headers = [_("option"), _("value"), _("allowed"), _("meaning")]
    if verbose:
        rows = [[*row, option_source(name)] for row, name in zip(rows, OPTION_NAMES, strict=True)]
        headers.append(_("source"))
    return tabulate(rows, headers=headers)


def render_tournament_options(options: TournamentOptions) -> str:
    """The options of ``romme tournament new`` (RULES.md §10), as ``--rule KEY=VALUE`` and
    the rules file take them, with their defaults."""
    data = options.to_dict()
    rows = [
        [name, show_value(data[name]), allowed_text(name), _(tournament_option_doc(name))]
        for name in TOURNAMENT_OPTION_NAMES
    ]
    return (
        _("Tournament options (romme tournament new), with their defaults:")
        + "\n"
        + tabulate(rows, headers=[_("option"), _("value"), _("allowed"), _("meaning")])
    )
