"""Views of ``romme rules``: the house rules of a preset, one line of explanation each."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from romme_score.cards import Rank
from romme_score.i18n import N_, _
from romme_score.melds import CardValues
from romme_score.rules import (
    OPTION_NAMES,
    PRESET_FILES,
    PRESET_SOURCES,
    RuleSet,
    allowed_values,
    option_doc,
    option_field,
    option_source,
    rule_name,
)
from romme_score.tournament.options import TOURNAMENT_OPTION_NAMES, TournamentOptions, allowed_text
from romme_score.tournament.options import option_doc as tournament_option_doc
from romme_score.views.game_end import typed
from romme_score.views.width import fits, wrap

CARD_VALUES = N_("What each card counts:")
CARD_HEADERS = (N_("card"), N_("in a meld"), N_("left in the hand"))
PIPS = N_("face value")
FACES = N_("jack, queen, king (B, D, K)")
ACE = N_("ace")
ACE_IN_A_MELD = N_("%(high)d, %(low)d in a low run (A-2-3)")
JOKER = N_("joker")
JOKER_IN_A_MELD = N_("the card it stands for")
FACE_RANKS = (Rank.JACK, Rank.QUEEN, Rank.KING)
NUMBER_RANKS = tuple(Rank(n) for n in range(2, 11))
JSON_NAMES = {Rank.JACK: "jack", Rank.QUEEN: "queen", Rank.KING: "king", Rank.ACE: "ace"}


def card_values_json(rules: RuleSet) -> dict[str, dict[str, int | None]]:
    """What each card counts under ``rules``, for ``romme rules --json`` (``card_values``):
    in a meld and left in the hand, the ace also at the bottom of a run (``low_run``), the
    joker in a meld as the card it stands for (``null``). Asked of the rules, as the
    referee and the scoresheet count.

    >>> from romme_score.rules import find_preset
    >>> values = card_values_json(find_preset("wiki-51"))
    >>> values["7"], values["king"]
    ({'meld': 7, 'hand': 7}, {'meld': 10, 'hand': 10})
    >>> values["ace"], values["joker"]
    ({'meld': 10, 'low_run': 1, 'hand': 10}, {'meld': None, 'hand': 20})
    """
    counts = CardValues.of(rules)
    values: dict[str, dict[str, int | None]] = {}
    for rank in (*NUMBER_RANKS, *FACE_RANKS):
        values[JSON_NAMES.get(rank, str(int(rank)))] = {"meld": counts.meld[rank], "hand": counts.hand[rank]}
    values["ace"] = {"meld": counts.meld[Rank.ACE], "low_run": counts.low_ace, "hand": counts.hand[Rank.ACE]}
    values["joker"] = {"meld": None, "hand": counts.joker}
    return values


def render_card_values(rules: RuleSet, width: int | None = None) -> str:
    """What each card counts under ``rules``, before the options of ``romme rules``: the
    number cards by their face value where each counts its number (else one by one), the
    faces together where they count alike, the ace, the joker where jokers are in play."""
    from tabulate import tabulate  # imported where a table is printed

    values = card_values_json(rules)
    rows: list[list[str]] = []
    numbers = [values[str(int(rank))] for rank in NUMBER_RANKS]
    if all(v["meld"] == v["hand"] == int(rank) for v, rank in zip(numbers, NUMBER_RANKS, strict=True)):
        rows.append(["2-10", _(PIPS), _(PIPS)])
    else:
        rows += [
            [str(int(r)), str(v["meld"]), str(v["hand"])] for v, r in zip(numbers, NUMBER_RANKS, strict=True)
        ]
    faces = [values[JSON_NAMES[rank]] for rank in FACE_RANKS]
    if all(v == faces[0] for v in faces):
        rows.append([_(FACES), str(faces[0]["meld"]), str(faces[0]["hand"])])
    else:
        rows += [
            [rank.letter(), str(v["meld"]), str(v["hand"])] for v, rank in zip(faces, FACE_RANKS, strict=True)
        ]
    ace = values["ace"]
    rows.append([_(ACE), _(ACE_IN_A_MELD) % {"high": ace["meld"], "low": ace["low_run"]}, str(ace["hand"])])
    if rules.jokers:  # basic rummy plays without: no row for a card not in the game
        rows.append([_(JOKER), _(JOKER_IN_A_MELD), str(values["joker"]["hand"])])
    lines = tabulate(rows, headers=[_(h) for h in CARD_HEADERS], tablefmt="simple").split("\n")
    table = "\n".join(lines[:1] + lines[2:])  # tabulate's "plain": no line under the headings
    if width is not None and not fits(table, width):
        _card, in_meld, in_hand = (_(h) for h in CARD_HEADERS)
        table = "\n".join(
            wrap(f"{card}: {in_meld} {meld}; {in_hand} {hand}", width, indent="    ")
            for card, meld, hand in rows
        )
    return wrap(_(CARD_VALUES), width) + "\n" + table


def presets_json(presets: Mapping[str, RuleSet]) -> dict[str, Any]:
    """The presets for scripts: the description names its rule text by number (000-004, docs/rules.md)
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
    """The presets, each described in words; ``verbose`` adds the number of its rule text (docs/rules.md).
    Where the table is wider than ``width`` columns, a wrapped line each."""
    from tabulate import tabulate  # imported where a table is printed

    if verbose:
        rows = [[name, _(PRESET_SOURCES[name]), PRESET_FILES[name]] for name in presets]
        table = tabulate(rows, headers=[_("preset"), _("what it is"), _("source")], tablefmt="simple")
    else:
        table = tabulate(
            [[name, _(PRESET_SOURCES[name])] for name in presets],
            headers=[_("preset"), _("what it is")],
            tablefmt="simple",
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
    from tabulate import tabulate  # imported where a table is printed

    headers = [_("option"), _("value"), _("allowed"), _("meaning")]
    if sources is not None:
        table = tabulate(
            [[*row, source] for row, source in zip(rows, sources, strict=True)],
            headers=[*headers, _("source")],
            tablefmt="simple",
        )
    else:
        table = tabulate(rows, headers=headers, tablefmt="simple")
    if width is None or fits(table, width):
        return table
    blocks = []
    for index, (name, value, allowed, meaning) in enumerate(rows):
        blocks.append(wrap(f"{name} = {value}", width, indent="    "))
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
    words); ``verbose`` adds which rule text it is from (``002 e 'Rommé mit 10'``). Where
    that is wider than ``width`` columns, a block per option."""
    data = rules.to_dict()
    data["game_end"] = typed(rules.game_end)
    rows = [
        [
            name,
            _named(name, getattr(rules, name), show_value(data[name])),
            _(allowed_values(name)),
            _(option_doc(name)),
        ]
        for name in OPTION_NAMES
    ]
    sources = [option_source(name) for name in OPTION_NAMES] if verbose else None
    return _options(rows, width, sources)


def _named(name: str, value: Any, shown: str) -> str:
    """An option's value, and after it the rule as the referee's sentences name it at that
    value (``40 (first meld at least 40)``), so that a rule named in a refusal is found
    here by its words (issue 38 item 4)."""
    label = option_field(name).metadata.get("label")
    if label is None or value is None or (isinstance(label, dict) and value not in label):
        return shown
    return f"{shown} ({rule_name(name, value)})"


def render_tournament_options(options: TournamentOptions, width: int | None = None) -> str:
    """The options of ``romme tournament new`` (docs/rules.md §10), as ``--rule KEY=VALUE`` and
    the rules file take them, with their defaults."""
    data = options.to_dict()
    rows = [
        [name, show_value(data[name]), allowed_text(name), _(tournament_option_doc(name))]
        for name in TOURNAMENT_OPTION_NAMES
    ]
    title = wrap(_("Tournament options (romme tournament new), with their defaults:"), width)
    return title + "\n" + _options(rows, width)
