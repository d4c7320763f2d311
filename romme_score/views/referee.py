"""Views of the referee: the verdicts of ``romme check``.
No tabulate and no solver here: ``check`` must start fast."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from romme_score.cards import Card, Profile, format_cards
from romme_score.i18n import N_, _
from romme_score.melds import Meld, MeldKind, Reason
from romme_score.referee import OntoVerdict, Verdict
from romme_score.views.value import points

KIND_NAMES = {MeldKind.SET: N_("set"), MeldKind.RUN: N_("run")}


def kind_name(kind: MeldKind) -> str:
    """A meld's kind in words: set/run, Satz/Folge (the JSON keeps ``set``/``run``)."""
    return _(KIND_NAMES[kind])


def _slots(meld: Meld, profile: Profile, ascii: bool) -> list[str]:
    return [s.format(profile, ascii) for s in meld.slots]


# --- romme check ----------------------------------------------------------------


def verdict_json(v: Verdict, profile: Profile = "de", ascii: bool = False) -> dict[str, Any]:
    data: dict[str, Any] = {"valid": v.valid, "total": v.total, "melds": []}
    for m in v.melds:
        data["melds"].append(
            {
                "input": m.input,
                "valid": m.valid,
                "kind": m.meld.kind.value if m.meld else None,
                "value": m.meld.value if m.meld else None,
                "cards": (
                    _slots(m.meld, profile, ascii) if m.meld else [c.format(profile, ascii) for c in m.cards]
                ),
                "reason": m.reason.value if m.reason else None,
                "message": m.message,
                "rule": m.rule,
                "alternatives": [
                    {"kind": a.kind.value, "value": a.value, "cards": _slots(a, profile, ascii)}
                    for a in m.alternatives
                ],
            }
        )
    if v.supply_error is not None:
        data["error"] = {
            "reason": v.supply_error.reason.value,
            "message": str(v.supply_error),
            "rule": v.supply_error.rule,
        }
    if v.first is not None:
        data["first_meld"] = {
            "required": v.first.required,
            "total": v.first.total,
            "ok": v.first.ok,
            "reason": v.first.reason.value if v.first.reason else None,
            "message": v.first.message,
            "rule": v.first.rule,
        }
    if v.onto is not None:
        o = v.onto
        data["onto"] = {
            "valid": o.valid,
            "reason": o.reason.value if o.reason else None,
            "message": o.message,
            "result": _slots(o.result, profile, ascii) if o.result else [],
            "value": o.result.value if o.result else None,
            "freed_jokers": o.freed_jokers,
            "note": o.note,
            "alternative": o.alternative,
            "rule": o.rule,
        }
    return data


def render_verdict(v: Verdict, profile: Profile = "de", ascii: bool = False) -> str:
    if v.onto is not None:
        return _render_onto(v.onto, v.added, v.table, profile, ascii)
    lines = []
    for i, m in enumerate(v.melds, 1):
        head = f"{i}. {format_cards(m.cards, profile, ascii)}"
        if m.meld is not None:
            lines.append(
                _("%(meld)s: legal %(kind)s, %(points)s")
                % {"meld": head, "kind": kind_name(m.meld.kind), "points": points(m.meld.value)}
            )
            if any(s.is_joker for s in m.meld.slots):
                lines.append("   " + _("as %(meld)s") % {"meld": m.meld.format(profile, ascii)})
            for alt in m.alternatives:
                lines.append(
                    "   "
                    + _("also legal as %(kind)s %(meld)s (%(points)s); the highest value counts")
                    % {
                        "kind": kind_name(alt.kind),
                        "meld": alt.format(profile, ascii),
                        "points": points(alt.value),
                    }
                )
        else:
            lines.append(_("%(meld)s: NOT legal: %(reason)s") % {"meld": head, "reason": m.message})
    if len(v.melds) > 1 or v.first is not None:
        lines.append(_("Total: %(points)s") % {"points": points(v.total)})
    if v.supply_error is not None:
        lines.append(_("NOT possible: %(reason)s") % {"reason": v.supply_error})
    if v.first is not None:
        if v.first.ok:
            lines.append(
                _("First meld: enough (%(total)d of %(required)d needed)")
                % {"total": v.first.total, "required": v.first.required}
            )
        elif v.first.reason == Reason.BELOW_MINIMUM:
            lines.append(_("First meld: NOT enough: %(reason)s") % {"reason": v.first.message})
        else:  # an illegal meld, cards not in play, no pure run: no question of enough
            lines.append(_("First meld: NOT allowed: %(reason)s") % {"reason": v.first.message})
    return "\n".join(lines)


def _render_onto(
    o: OntoVerdict, added_cards: Sequence[Card], table_cards: Sequence[Card], profile: Profile, ascii: bool
) -> str:
    added = format_cards(added_cards, profile, ascii)
    table = format_cards(table_cards, profile, ascii)
    if not o.valid or o.result is None:
        return _("%(cards)s onto %(meld)s: NOT allowed: %(reason)s") % {
            "cards": added,
            "meld": table,
            "reason": o.message,
        }
    lines = [
        _("%(cards)s onto %(meld)s: allowed (%(note)s)") % {"cards": added, "meld": table, "note": o.note},
        "   "
        + _("the meld becomes %(kind)s %(meld)s (%(points)s)")
        % {
            "kind": kind_name(o.result.kind),
            "meld": o.result.format(profile, ascii),
            "points": points(o.result.value),
        },
    ]
    if o.alternative:
        lines.append(f"   {o.alternative}")
    return "\n".join(lines)


def quote_as_one_meld(texts: Sequence[str], command: str = "romme check") -> str:
    """The way out where one-card melds make one meld together (the referee's
    ``Verdict.together``): the shell split the words, quotes keep them one argument.

    >>> quote_as_one_meld(["HK", "KK", "PK"])
    "meant as one meld? quote it: romme check 'HK KK PK'"
    """
    import shlex

    return _("meant as one meld? quote it: %(line)s") % {"line": f"{command} {shlex.quote(' '.join(texts))}"}
