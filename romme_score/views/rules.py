"""Views of ``romme rules``: the house rules of a preset, one line of explanation each."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
from romme_score.tournament.options import TOURNAMENT_OPTION_NAMES, TournamentOptions, allowed_text
from romme_score.tournament.options import option_doc as tournament_option_doc
from romme_score.views.game_end import typed
from romme_score.views.table import simple_table
from romme_score.views.width import fits, wrap


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


def render_presets(presets: Mapping[str, RuleSet], verbose: bool = False, width: int | None = None) -> str:
    """The presets, each described in words; ``verbose`` adds the source file of RULES.md.
    Where the table is wider than ``width`` columns, a wrapped line each."""
    if verbose:
        rows = [[name, _(PRESET_SOURCES[name]), PRESET_FILES[name]] for name in presets]
        table = simple_table(rows, headers=[_("preset"), _("what it is"), _("source")])
    else:
        table = simple_table(
            [[name, _(PRESET_SOURCES[name])] for name in presets],
            headers=[_("preset"), _("what it is")],
        )
    if width is None or fits(table, width):
        return table
    return "\n".join(
        wrap(f"{name}: {_(PRESET_SOURCES[name])}" + (f" ({PRESET_FILES[name]})" if verbose else ""), width)
        for name in presets
    )


def _options(rows: list[list[str]], width: int | None, sources: list[str] | None = None) -> str:
    """Options as a table of option, value, allowed and meaning (and source, when given);
    where that is wider than ``width`` columns, a block each: ``option = value``, then what
    is allowed and what it means (and the source), indented and wrapped."""
    headers = [_("option"), _("value"), _("allowed"), _("meaning")]
    if sources is not None:
        table = simple_table(
            [[*row, source] for row, source in zip(rows, sources, strict=True)],
            headers=[*headers, _("source")],
        )
    else:
        table = simple_table(rows, headers=headers)
    if width is None or fits(table, width):
        return table
    blocks = []
    for index, (name, value, allowed, meaning) in enumerate(rows):
        blocks.append(f"{name} = {value}")
        blocks.append(wrap(f"    {meaning}", width, indent="    "))
        blocks.append(wrap(f"    {_('allowed')}: {allowed}", width, indent="      "))
        if sources is not None:
            blocks.append(wrap(f"    {_('source')}: {sources[index]}", width, indent="      "))
    return "\n".join(blocks)


def show_value(value: Any) -> str:
    """An option's value as typed on the command line (``none``, ``true``, ``500``)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def render_rules(rules: RuleSet, verbose: bool = False, width: int | None = None) -> str:
    """One row per option: its value, what it allows, what it means (the sources named in
    words); ``verbose`` adds where RULES.md has it from (``002 e 'Rommé mit 10'``). Where
    that is wider than ``width`` columns, a block per option."""
    data = rules.to_dict()
    data["game_end"] = typed(rules.game_end)
    rows = [
        [name, show_value(data[name]), _(allowed_values(name)), _(option_doc(name))] for name in OPTION_NAMES
    ]
    sources = [option_source(name) for name in OPTION_NAMES] if verbose else None
    return _options(rows, width, sources)


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
