"""The referee's verdicts for ``romme check``: melds, first meld, lay-off and swap.

Pure: it turns parsed cards into a :class:`Verdict` that renders as text or JSON.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from romme_score.cards import Card, Profile, format_cards
from romme_score.melds import (
    FirstMeld,
    IllegalMeldError,
    Meld,
    Reason,
    check_supply,
    interpret,
    interpretations,
    judge_first_meld,
)
from romme_score.rules import RuleSet


class MeldVerdict(NamedTuple):
    input: str
    cards: list[Card]
    meld: Meld | None
    reason: Reason | None = None
    message: str | None = None
    alternatives: Sequence[Meld] = ()

    @property
    def valid(self) -> bool:
        return self.meld is not None


class OntoVerdict(NamedTuple):
    valid: bool
    reason: Reason | None
    message: str | None
    result: Meld | None
    freed_jokers: int = 0
    note: str | None = None
    alternative: str | None = None


class Verdict(NamedTuple):
    melds: Sequence[MeldVerdict]
    supply_error: IllegalMeldError | None = None
    first: FirstMeld | None = None
    onto: OntoVerdict | None = None
    onto_input: str | None = None
    added: Sequence[Card] = ()
    table: Sequence[Card] = ()

    @property
    def total(self) -> int:
        return sum(m.meld.value for m in self.melds if m.meld is not None)

    @property
    def valid(self) -> bool:
        if self.onto is not None:
            return self.onto.valid
        ok = all(m.valid for m in self.melds) and self.supply_error is None
        if self.first is not None:
            ok = ok and self.first.ok
        return ok

    def to_json(self, profile: Profile = "de", ascii: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {"valid": self.valid, "total": self.total, "melds": []}
        for m in self.melds:
            data["melds"].append({
                "input": m.input,
                "valid": m.valid,
                "kind": m.meld.kind.value if m.meld else None,
                "value": m.meld.value if m.meld else None,
                "cards": ([s.format(profile, ascii) for s in m.meld.slots] if m.meld
                          else [c.format(profile, ascii) for c in m.cards]),
                "reason": m.reason.value if m.reason else None,
                "message": m.message,
                "alternatives": [{"kind": a.kind.value, "value": a.value,
                                  "cards": [s.format(profile, ascii) for s in a.slots]}
                                 for a in m.alternatives],
            })
        if self.supply_error is not None:
            data["error"] = {"reason": self.supply_error.reason.value,
                             "message": str(self.supply_error)}
        if self.first is not None:
            data["first_meld"] = {"required": self.first.required, "total": self.first.total,
                                  "ok": self.first.ok,
                                  "reason": self.first.reason.value if self.first.reason else None,
                                  "message": self.first.message}
        if self.onto is not None:
            o = self.onto
            data["onto"] = {"valid": o.valid, "reason": o.reason.value if o.reason else None,
                            "message": o.message,
                            "result": [s.format(profile, ascii) for s in o.result.slots]
                            if o.result else [],
                            "value": o.result.value if o.result else None,
                            "freed_jokers": o.freed_jokers, "note": o.note,
                            "alternative": o.alternative}
        return data

    def render(self, profile: Profile = "de", ascii: bool = False) -> str:
        lines = []
        if self.onto is not None:
            return self._render_onto(profile, ascii)
        for i, m in enumerate(self.melds, 1):
            head = f"{i}. {format_cards(m.cards, profile, ascii)}"
            if m.meld is not None:
                lines.append(f"{head}: legal {m.meld.kind.value}, {m.meld.value} points")
                if any(s.is_joker for s in m.meld.slots):
                    lines.append(f"   as {m.meld.format(profile, ascii)}")
                for alt in m.alternatives:
                    lines.append(f"   also legal as {alt.kind.value} {alt.format(profile, ascii)} "
                                 f"({alt.value} points); the highest value counts")
            else:
                lines.append(f"{head}: NOT legal: {m.message}")
        if len(self.melds) > 1 or self.first is not None:
            lines.append(f"Total: {self.total} points")
        if self.supply_error is not None:
            lines.append(f"NOT possible: {self.supply_error}")
        if self.first is not None:
            if self.first.ok:
                lines.append(f"First meld: enough ({self.first.total} of {self.first.required} needed)")
            else:
                lines.append(f"First meld: NOT enough: {self.first.message}")
        return "\n".join(lines)

    def _render_onto(self, profile: Profile, ascii: bool) -> str:
        assert self.onto is not None
        o = self.onto
        added = format_cards(self.added, profile, ascii)
        table = format_cards(self.table, profile, ascii)
        if not o.valid or o.result is None:
            return f"{added} onto {table}: NOT allowed: {o.message}"
        lines = [f"{added} onto {table}: allowed ({o.note})",
                 f"   the meld becomes {o.result.kind.value} {o.result.format(profile, ascii)} "
                 f"({o.result.value} points)"]
        if o.alternative:
            lines.append(f"   {o.alternative}")
        return "\n".join(lines)


def _judge_one(text: str, cards: list[Card], rules: RuleSet) -> MeldVerdict:
    try:
        meld = interpret(cards, rules)
    except IllegalMeldError as exc:
        return MeldVerdict(text, cards, None, exc.reason, str(exc))
    others = [m for m in interpretations(cards, rules)[1:]
              if m.kind != meld.kind or m.value != meld.value]
    return MeldVerdict(text, cards, meld, alternatives=others[:3])


def judge_melds(texts: list[str], parsed: list[list[Card]], rules: RuleSet,
                first: bool = False) -> Verdict:
    """Each meld's verdict; with ``first``, the melds together as a first meld."""
    verdicts = [_judge_one(t, c, rules) for t, c in zip(texts, parsed, strict=True)]
    supply_error = None
    try:
        check_supply([c for cards in parsed for c in cards], rules)
    except IllegalMeldError as exc:
        supply_error = exc
    first_verdict = judge_first_meld([v.meld for v in verdicts], rules) if first else None
    return Verdict(verdicts, supply_error, first_verdict)


def judge_onto(table_text: str, table: list[Card], added: list[Card], rules: RuleSet) -> Verdict:
    """The cards in ``added`` laid off onto (or swapped into) the table meld."""
    from romme_score.layoff import lay_off

    melds: Sequence[MeldVerdict] = []
    try:
        check_supply(table + added, rules)
        move = lay_off(table, added, rules)
    except IllegalMeldError as exc:
        return Verdict(melds, onto=OntoVerdict(False, exc.reason, str(exc), None),
                       onto_input=table_text, added=added, table=table)
    onto = OntoVerdict(True, None, None, move.meld, move.freed_jokers, move.note, move.alternative)
    return Verdict(melds, onto=onto, onto_input=table_text, added=added, table=table)
