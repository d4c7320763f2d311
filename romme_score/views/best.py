"""Views of ``romme best``: the best arrangement of a hand, as text and JSON."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from romme_score.cards import Card, Profile, format_cards
from romme_score.i18n import _, ngettext
from romme_score.melds import Meld
from romme_score.rules import RuleSet
from romme_score.solver import Best, LayOffMove


def _slots(meld: Meld, profile: Profile, ascii: bool) -> list[str]:
    return [s.format(profile, ascii) for s in meld.slots]


def _layoff_text(
    move: LayOffMove, table: Sequence[Meld], profile: Profile, ascii: bool, result: Meld | None = None
) -> str:
    cards = format_cards(list(move.cards), profile, ascii)
    jokers = Card.joker().format(profile, ascii)
    what = " ".join(x for x in (cards, " ".join([jokers] * move.jokers)) if x)
    if result is not None:  # lone jokers: where they go is worth saying (docs/rules.md §5)
        return _("%(cards)s onto %(meld)s: %(result)s") % {
            "cards": what,
            "meld": table[move.table].format(profile, ascii),
            "result": result.format(profile, ascii),
        }
    return _("%(cards)s onto %(meld)s") % {"cards": what, "meld": table[move.table].format(profile, ascii)}


def best_json(
    b: Best, table: Sequence[Meld], rules: RuleSet, profile: Profile = "de", ascii: bool = False
) -> dict[str, Any]:
    def layoffs(moves: Sequence[LayOffMove]) -> list[dict[str, Any]]:
        return [
            {
                "onto": _slots(table[m.table], profile, ascii),
                "cards": [c.format(profile, ascii) for c in m.cards],
                "jokers": m.jokers,
            }
            for m in moves
        ]

    return {
        "max_meld_value": b.max_meld_value,
        "first_meld_ok": b.first_meld_ok,
        "first_meld_min": rules.first_meld_min,
        "value_melds": [_slots(m, profile, ascii) for m in b.value_melds],
        "melds": [_slots(m, profile, ascii) for m in b.melds],
        "layoffs": layoffs(b.layoffs),
        "leftover": [c.format(profile, ascii) for c in b.leftover],
        "leftover_penalty": b.leftover_penalty,
        "can_go_out": b.can_go_out,
        "hand_romme": b.hand_romme,
        "out_melds": [_slots(m, profile, ascii) for m in b.out_melds],
        "out_layoffs": layoffs(b.out_layoffs),
        "discard": b.discard.format(profile, ascii) if b.discard is not None else None,
    }


def render_best(
    b: Best,
    hand: Sequence[Card],
    table: Sequence[Meld],
    rules: RuleSet,
    came_out: bool,
    profile: Profile = "de",
    ascii: bool = False,
) -> str:
    def melds(ms: Sequence[Meld]) -> str:
        return " | ".join(m.format(profile, ascii) for m in ms) or _("nothing")

    def points(n: int) -> str:
        return ngettext("%(count)d point", "%(count)d points", n) % {"count": n}

    count = len(hand)
    lines = [
        _("Hand: %(cards)s (%(count)s)")
        % {
            "cards": format_cards(list(hand), profile, ascii),
            "count": ngettext("%(count)d card", "%(count)d cards", count) % {"count": count},
        }
    ]
    minimum = rules.first_meld_min
    need = (
        _("%(points)d needed, with a run without jokers")
        if rules.first_meld_pure_run
        else _("%(points)d needed")
    ) % {"points": minimum}
    verdict = _("enough to come out") if b.first_meld_ok else _("NOT enough to come out")
    if came_out:
        lines.append(_("Most to lay down as melds: %(points)s") % {"points": points(b.max_meld_value)})
    else:
        lines.append(
            _("Most to lay down: %(points)s (%(verdict)s; %(need)s)")
            % {"points": points(b.max_meld_value), "verdict": verdict, "need": need}
        )
    if b.value_melds:
        lines.append(f"  {melds(b.value_melds)}")
    left = _("Least left in hand: %(points)s") % {"points": points(b.leftover_penalty)}
    lines.append(left + (f" ({format_cards(list(b.leftover), profile, ascii)})" if b.leftover else ""))
    if b.melds:
        lines.append("  " + _("melds: %(melds)s") % {"melds": melds(b.melds)})
    for move, result in zip(b.layoffs, b.layoff_melds, strict=True):
        lines.append(
            "  " + _("lay off: %(move)s") % {"move": _layoff_text(move, table, profile, ascii, result)}
        )
    if not b.melds and not b.layoffs:
        if not came_out and b.leftover:
            lines.append("  " + _("nothing can be laid yet: no first meld reaches the minimum"))
    if b.can_go_out:
        # what the player does, in order: lay down, lay off, discard (issue 38 item 11)
        steps = [_("lay down %(melds)s") % {"melds": melds(b.out_melds)}] if b.out_melds else []
        steps += [
            _("lay off %(move)s") % {"move": _layoff_text(move, table, profile, ascii, result)}
            for move, result in zip(b.out_layoffs, b.out_layoff_melds, strict=True)
        ]
        if b.discard is not None:
            steps.append(_("discard %(card)s") % {"card": b.discard.format(profile, ascii)})
        how = ", ".join(steps)
        if b.hand_romme:
            lines.append(_("Can go out now: yes, with a Hand-Rommé: %(how)s") % {"how": how})
        else:
            lines.append(_("Can go out now: yes: %(how)s") % {"how": how})
    else:
        lines.append(_("Can go out now: no"))
    return "\n".join(lines)
