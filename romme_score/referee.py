"""The referee's verdicts, one function per question every door asks: ``check`` (melds,
first meld, lay-off and swap: :func:`judge_question`) and ``value`` (:func:`judge_value`);
``best``'s is :func:`romme_score.best.judge_best`, in a module of its own, so that
``romme check`` does not load it.

Pure: it turns parsed cards into a verdict, or raises an error with its code and facts;
:mod:`romme_score.views` words the verdict as text or JSON and each door words the error.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from romme_score.cards import Card
from romme_score.errors import InputProblem
from romme_score.i18n import _
from romme_score.melds import (
    FirstMeld,
    IllegalMeldError,
    Meld,
    Reason,
    check_supply,
    interpret,
    interpretations,
    judge_first_meld,
    penalty_value,
)
from romme_score.rules import RuleSet


class QuestionClash(InputProblem):
    """A ``check`` that asks two questions at once: ``question`` goes with ``other`` only
    one way (``first``, melds judged as a first meld, is no question about a lay-off
    ``onto`` a table meld; ``not_out``, before coming out, needs ``onto``). Each door
    words it in its own terms (the command line with its options)."""

    def __init__(self, question: str, other: str) -> None:
        super().__init__(f"{question} clashes with {other}")
        self.question = question
        self.other = other


def check_question(*, onto: bool, first: bool, not_out: bool) -> None:
    """Refuse a ``check`` that asks two things at once (every door asks it the same way)."""
    if onto and first:
        raise QuestionClash("first", "onto")
    if not_out and not onto:
        raise QuestionClash("not_out", "onto")


def judge_question(
    melds: Sequence[str],
    onto: str | None,
    rules: RuleSet,
    read: Callable[[str, str], list[Card]],
    *,
    first: bool = False,
    not_out: bool = False,
    onto_where: str = "",
) -> Verdict:
    """What ``check`` asks, at every door: melds laid from the hand (``first``: as a first
    meld), or, with ``onto``, cards laid off onto that meld (``not_out``: before coming
    out). ``read(text, where)`` reads one text of cards the door's way, ``where`` saying
    which argument it was (``meld 2 ('...'): ``; for the table meld the door's own
    ``onto_where``, the command line's ``--onto: ``) for its error."""
    check_question(onto=onto is not None, first=first, not_out=not_out)
    if onto is not None:
        table = read(onto, onto_where)
        added = [c for i, m in enumerate(melds, 1) for c in read(m, _("argument %(n)d: ") % {"n": i})]
        return judge_onto(table, added, rules, came_out=not not_out)
    parsed = [
        read(m, _("meld %(n)d ('%(text)s'): ") % {"n": i, "text": m} if len(melds) > 1 else "")
        for i, m in enumerate(melds, 1)
    ]
    return judge_melds(list(melds), parsed, rules, first=first)


# The verdicts are NamedTuples, results read once: a frozen dataclass each would cost every
# romme check some 2.5 M instructions more at start-up (issue 38 item 19).
class MeldVerdict(NamedTuple):
    input: str
    cards: list[Card]
    meld: Meld | None
    reason: Reason | None = None
    message: str | None = None
    alternatives: Sequence[Meld] = ()
    rule: str | None = None  # the option that decided, as typed (min_naturals=2)

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
    rule: str | None = None  # the option that decided, as typed (joker_swap=after-out)


class Verdict(NamedTuple):
    melds: Sequence[MeldVerdict]
    supply_error: IllegalMeldError | None = None
    first: FirstMeld | None = None
    onto: OntoVerdict | None = None
    added: Sequence[Card] = ()
    table: Sequence[Card] = ()
    # Where every meld given is one card: the meld they make together, if any (a shell
    # splits ``romme check HK KK PK`` into three melds; issue 30 item 8). None otherwise.
    together: Meld | None = None

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


def _judge_one(text: str, cards: list[Card], rules: RuleSet) -> MeldVerdict:
    try:
        meld = interpret(cards, rules)
    except IllegalMeldError as exc:
        return MeldVerdict(text, cards, None, exc.reason, str(exc), rule=exc.rule)
    others = [m for m in interpretations(cards, rules)[1:] if m.kind != meld.kind or m.value != meld.value]
    return MeldVerdict(text, cards, meld, alternatives=others[:3])


def judge_melds(texts: list[str], parsed: list[list[Card]], rules: RuleSet, first: bool = False) -> Verdict:
    """Each meld's verdict; with ``first``, the melds together as a first meld."""
    verdicts = [_judge_one(t, c, rules) for t, c in zip(texts, parsed, strict=True)]
    supply_error = None
    try:
        check_supply([c for cards in parsed for c in cards], rules)
    except IllegalMeldError as exc:
        supply_error = exc
    first_verdict = judge_first_meld([v.meld for v in verdicts], rules, supply_error) if first else None
    return Verdict(verdicts, supply_error, first_verdict, together=_together(parsed, rules))


def _together(parsed: list[list[Card]], rules: RuleSet) -> Meld | None:
    """The one meld that melds of one card each make together, or None."""
    if len(parsed) < 2 or any(len(cards) != 1 for cards in parsed):
        return None
    try:
        return interpret([cards[0] for cards in parsed], rules)
    except IllegalMeldError:
        return None


def judge_onto(table: list[Card], added: list[Card], rules: RuleSet, came_out: bool = True) -> Verdict:
    """The cards in ``added`` laid off onto (or swapped into) the table meld, by a player
    who has come out (or not yet: then ``first_meld_layoff`` and ``joker_swap`` decide)."""
    # Imported here, not at the top: plain `romme check` never needs lay-offs (start-up time).
    from romme_score.layoff import lay_off

    melds: Sequence[MeldVerdict] = []
    try:
        check_supply(table + added, rules)
        move = lay_off(table, added, rules, came_out=came_out)
    except IllegalMeldError as exc:
        refused = OntoVerdict(False, exc.reason, str(exc), None, rule=exc.rule)
        return Verdict(melds, onto=refused, added=added, table=table)
    onto = OntoVerdict(True, None, None, move.meld, move.freed_jokers, move.note, move.alternative)
    return Verdict(melds, onto=onto, added=added, table=table)


# --- value --------------------------------------------------------------------------------


def judge_value(hand: Sequence[Card], rules: RuleSet) -> list[tuple[Card, int]]:
    """What ``value`` asks, at every door: each card of the hand with its penalty (§3)."""
    return [(card, penalty_value(card, rules)) for card in hand]
