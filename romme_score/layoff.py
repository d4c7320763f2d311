"""Laying off onto a meld on the table and swapping jokers (docs/rules.md §5).

>>> from romme_score.cards import parse_cards
>>> from romme_score.rules import find_preset
>>> move = lay_off(parse_cards("♥2 ♥3 ♥4"), parse_cards("♥A ♥5"), find_preset("wiki-51"))
>>> move.meld.format()
'♥A ♥2 ♥3 ♥4 ♥5'
>>> swap = lay_off(parse_cards("TB J TK TA"), parse_cards("TD"), find_preset("standard"))
>>> swap.freed_jokers, swap.meld.format()
(1, '♣B ♣D ♣K ♣A')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from romme_score.cards import SUITS, Card, Suit
from romme_score.i18n import _
from romme_score.melds import (
    IllegalMeldError,
    Meld,
    MeldKind,
    Reason,
    Slot,
    Why,
    card_value,
    interpret,
    limit_violation,
    rank_at,
    run_slot,
    run_windows,
)
from romme_score.rules import RuleSet, rule_key, rule_name


class LayOff(NamedTuple):
    """The result of laying cards onto a table meld."""

    table: Meld
    meld: Meld
    freed_jokers: int
    note: str
    alternative: str | None = None


def lay_off(
    table_cards: Sequence[Card], added: Sequence[Card], rules: RuleSet, came_out: bool = True
) -> LayOff:
    """Lay ``added`` onto the table meld, swapping jokers where a card takes their place.

    ``came_out=False`` judges a player who has not come out yet (§4, §5): a
    lay-off then needs ``first_meld_layoff`` and a joker swap ``joker_swap=anytime``.
    Raises :class:`IllegalMeldError` with the reason the move is not allowed.
    """
    try:
        table = interpret(table_cards, rules)
    except IllegalMeldError as exc:
        raise IllegalMeldError(
            Reason.TABLE_MELD_ILLEGAL,
            _("the meld on the table is not legal: %(reason)s") % {"reason": exc},
            exc.rule,
        ) from None
    if not added:
        raise IllegalMeldError(Reason.NOTHING_TO_ADD, _("no cards to lay off"))
    refusal = _swap_refusal(rules, came_out)
    may_lay_off = came_out or rules.first_meld_layoff
    if table.kind == MeldKind.RUN:
        move = _onto_run(table, list(added), rules, refusal)
    else:
        move = _onto_set(table, list(added), rules, refusal, may_lay_off)
    if not may_lay_off and len(move.meld.slots) > len(table.slots):
        raise IllegalMeldError(
            Reason.NOT_OUT_YET, _not_out_message(rules), rule_key("first_meld_layoff", False)
        )
    return move


def _swap_refusal(rules: RuleSet, came_out: bool) -> Why | None:
    """Why no joker may be swapped now (003 lobby "Joker tauschen"), or None."""
    named = {"rule": rule_name("joker_swap", rules.joker_swap)}
    if rules.joker_swap == "never":
        return (
            Reason.JOKER_SWAP_FORBIDDEN,
            _("a joker on the table may not be swapped (%(rule)s)") % named,
            rule_key("joker_swap", "never"),
        )
    if not came_out and rules.joker_swap == "after-out":
        return (
            Reason.SWAP_NOT_OUT_YET,
            _("only a player who has come out may swap a joker (%(rule)s)") % named,
            rule_key("joker_swap", "after-out"),
        )
    return None


def _not_out_message(rules: RuleSet) -> str:
    named = {
        "rule": rule_name("first_meld_layoff", False),
        "hand_romme": rule_name("hand_romme_layoff", True),
    }
    if rules.hand_romme_layoff:
        return (
            _(
                "a player who has not come out yet may not lay cards off (%(rule)s), "
                "except when going out at once in a Hand-Rommé (%(hand_romme)s)"
            )
            % named
        )
    return _("a player who has not come out yet may not lay cards off (%(rule)s)") % named


def _joker_note(freed: int, rules: RuleSet) -> str:
    if not freed:
        return _("laid off")
    # the words say the rule (swapped_joker): the note stands in brackets after "allowed"
    named = {"count": freed}
    if rules.swapped_joker == "meld-now":
        return (
            _("swap: take the joker, which must be laid out again this turn")
            if freed == 1
            else _("swap: take %(count)d jokers, which must be laid out again this turn")
        ) % named
    return (
        _("swap: the joker goes to your hand") if freed == 1 else _("swap: %(count)d jokers go to your hand")
    ) % named


def _check_limits(meld: Meld, rules: RuleSet) -> None:
    violation = limit_violation(meld, rules)
    if violation:
        raise IllegalMeldError(*violation)


def _onto_run(table: Meld, added: list[Card], rules: RuleSet, refusal: Why | None) -> LayOff:
    suit = table.slots[0].stands_for.suit
    assert suit is not None
    by_rank = {slot.stands_for.rank: i for i, slot in enumerate(table.slots)}
    slots = list(table.slots)
    freed = 0
    extra_naturals: list[Card] = []
    jokers = [c for c in added if c.is_joker]
    for card in (c for c in added if not c.is_joker):
        if card.suit != suit:
            raise IllegalMeldError(
                Reason.WRONG_SUIT,
                _("%(card)s does not fit a %(suit)s run") % {"card": card, "suit": suit.symbol},
            )
        index = by_rank.get(card.rank)
        if index is None:
            extra_naturals.append(card)
            continue
        if not slots[index].is_joker:
            raise IllegalMeldError(
                Reason.DUPLICATE_RANK,
                _("%(card)s is already in the run: a run holds each rank once") % {"card": card},
            )
        # The card the joker stands for takes its fixed place (002 c, 003, 004).
        if refusal is not None:
            what = _("%(card)s would take the joker's place") % {"card": card}
            raise IllegalMeldError(
                refusal[0], _("%(what)s, but %(why)s") % {"what": what, "why": refusal[1]}, refusal[2]
            )
        slots[index] = Slot(card, card, slots[index].value)
        freed += 1
    base = Meld(MeldKind.RUN, tuple(slots), start=table.start)
    if not extra_naturals and not jokers:
        _check_limits(base, rules)
        return LayOff(table, base, freed, _joker_note(freed, rules))
    solutions = _extend_run(base, suit, extra_naturals, jokers, rules)
    if not solutions:
        raise IllegalMeldError(*_why_not_extend(base, suit, extra_naturals, jokers, rules))
    legal = [m for m in solutions if limit_violation(m, rules) is None]
    if not legal:
        _check_limits(solutions[0], rules)
    if jokers:
        legal = _joker_places_allowed(base, legal, extra_naturals, rules, jokers)
    return LayOff(table, legal[0], freed, _joker_note(freed, rules))


def _extend_run(
    base: Meld, suit: Suit, naturals: list[Card], jokers: list[Card], rules: RuleSet
) -> list[Meld]:
    """Every way to extend the run at its ends with ``naturals`` and ``jokers``."""
    k = len(naturals) + len(jokers)
    n = len(base.slots) + k
    starts = set(run_windows(n, rules))
    found = []
    for left in range(k + 1):
        start = base.start - left
        if start < 1 and rules.wraparound:
            start += 13
        if start not in starts:
            continue
        new_positions = [start + i for i in range(left)] + [base.end + 1 + i for i in range(k - left)]
        if start != base.start - left:  # wrapped below the ace: shift the old run up by 13
            old_start = base.start + 13
            new_positions = [start + i for i in range(left)] + [
                old_start + len(base.slots) + i for i in range(k - left)
            ]
        else:
            old_start = base.start
        rank_pos = {int(rank_at(p)): p for p in new_positions}
        placed: dict[int, Card] = {}
        ok = True
        for card in naturals:
            p = rank_pos.get(int(card.rank or 0))
            if p is None or p in placed:
                ok = False
                break
            placed[p] = card
        free_jokers = []
        for joker in jokers:
            if joker.declared is not None:
                d = joker.declared
                p = rank_pos.get(int(d.rank or 0))
                if d.suit != suit or p is None or p in placed:
                    ok = False
                    break
                placed[p] = joker
            else:
                free_jokers.append(joker)
        if not ok:
            continue
        for p in new_positions:
            if p not in placed:
                placed[p] = free_jokers.pop()
        old = {old_start + i: slot for i, slot in enumerate(base.slots)}
        slots = []
        for p in range(start, start + n):
            if p in old:
                slot = old[p]
                slots.append(
                    run_slot(slot.card, p, suit, rules)
                    if not slot.is_joker
                    else Slot(slot.card, slot.stands_for, card_value(rank_at(p), rules, low_ace=p == 1))
                )
            else:
                slots.append(run_slot(placed[p], p, suit, rules))
        found.append(Meld(MeldKind.RUN, tuple(slots), start=start))
    return found


def _why_not_extend(base: Meld, suit: Suit, naturals: list[Card], jokers: list[Card], rules: RuleSet) -> Why:
    if len(base.slots) + len(naturals) + len(jokers) > 13:
        return Reason.RUN_TOO_LONG, _("a run has at most 13 cards"), None
    for relaxed, reason, text, rule in (
        (
            rules.replace(ace_high_runs=True),
            Reason.ACE_HIGH,
            _("the ace would have to follow the king (%(rule)s)")
            % {"rule": rule_name("ace_high_runs", False)},
            rule_key("ace_high_runs", False),
        ),
        (
            rules.replace(wraparound=True),
            Reason.WRAPAROUND,
            _("the run would go around the corner (K-A-2), which these rules do not allow (%(rule)s)")
            % {"rule": rule_name("wraparound", False)},
            rule_key("wraparound", False),
        ),
    ):
        if relaxed != rules and _extend_run(base, suit, naturals, jokers, relaxed):
            return reason, text, rule
    cards = " ".join(str(c) for c in naturals + jokers)
    return (
        Reason.GAP,
        _("%(cards)s cannot extend %(meld)s at either end without a gap")
        % {"cards": cards, "meld": base.format()},
        None,
    )


def _joker_places_allowed(
    base: Meld, legal: list[Meld], naturals: list[Card], rules: RuleSet, jokers: Sequence[Card] = ()
) -> list[Meld]:
    """004: a joker only with a natural card that fixes its place; 003: where its place is
    clear, and two lone jokers onto a run open at both ends take one end each (docs/rules.md §5)."""

    def joker_places(meld: Meld) -> tuple[int, ...]:
        # The table's cards lie after the ``left`` laid below them; around the corner the
        # meld starts 13 places higher than the run did (_extend_run), hence the modulo.
        left = (base.start - meld.start) % 13
        old = range(left, left + len(base.slots))
        return tuple(meld.start + i for i, s in enumerate(meld.slots) if s.is_joker and i not in old)

    if rules.joker_layoff == "with-natural":
        fixed = []
        for meld in legal:
            spots = joker_places(meld)
            low = meld.start + (base.start - meld.start) % 13  # where the table's cards begin
            high = low + len(base.slots) - 1
            outer = [
                meld.start + i
                for i, s in enumerate(meld.slots)
                if not s.is_joker and not low <= meld.start + i <= high
            ]
            if all(any((o < p < low) or (high < p < o) for o in outer) for p in spots):
                fixed.append(meld)
        if not fixed:
            raise IllegalMeldError(
                Reason.JOKER_NEEDS_NATURAL,
                _(
                    "a joker may be laid onto a run only together with a natural card beyond it "
                    "that fixes its place (%(rule)s)"
                )
                % {"rule": rule_name("joker_layoff", "with-natural")},
                rule_key("joker_layoff", "with-natural"),
            )
        legal = fixed

    if (
        rules.joker_layoff == "clear-place"
        and not naturals
        and len(jokers) == 2
        and all(j.declared is None for j in jokers)
    ):
        # docs/rules.md §5: both ends open, the two lone jokers go one at each end.
        inner = [(s.card, s.stands_for) for s in base.slots]
        each = [m for m in legal if [(s.card, s.stands_for) for s in m.slots[1:-1]] == inner]
        if each:
            legal = each

    def new_joker_cards(meld: Meld) -> tuple[str, ...]:
        return tuple(
            str(meld.slots[p - meld.start].stands_for)
            for p in joker_places(meld)
            if meld.slots[p - meld.start].card.declared is None
        )

    places = sorted({new_joker_cards(m) for m in legal})
    if len(places) > 1:
        where = _(" or ").join(", ".join(p) for p in places)
        raise IllegalMeldError(
            Reason.JOKER_PLACE_UNCLEAR,
            _(
                "the joker's place is not clear (%(where)s): lay it with the card beside it, "
                "or declare it, e.g. J=%(card)s"
            )
            % {"where": where, "card": places[0][0] if places[0] else "?"},
        )
    return legal


def pinned_suit(slot: Slot, rules: RuleSet) -> Suit | None:
    """The suit a table joker in a set is fixed to: declared (002 b, 004), by its place
    in Skat order (004) or as the only suit missing; None while it may stand for any
    missing suit. Under set_joker_swap=complete only a written declaration fixes it:
    000 lets any single card join a pair and its joker."""
    if slot.card.declared is not None:
        return slot.card.declared.suit
    if rules.set_joker_swap != "complete" and len(slot.options) == 1:
        return slot.options[0]
    return None


def _onto_set(
    table: Meld, added: list[Card], rules: RuleSet, refusal: Why | None, may_lay_off: bool
) -> LayOff:
    rank = table.slots[0].stands_for.rank
    assert rank is not None
    natural_suits = {s.card.suit for s in table.slots if not s.is_joker}
    table_jokers = [s for s in table.slots if s.is_joker]
    new_naturals: list[Card] = []
    for card in added:
        if card.is_joker:
            continue
        if card.rank != rank:
            raise IllegalMeldError(
                Reason.WRONG_RANK,
                _("%(card)s does not fit a set of %(rank)ss") % {"card": card, "rank": rank.letter()},
            )
        if card.suit in natural_suits or card.suit in {c.suit for c in new_naturals}:
            raise IllegalMeldError(
                Reason.DUPLICATE_SUIT,
                _("%(card)s is already in the set: a set holds each suit once") % {"card": card},
            )
        new_naturals.append(card)
    new_jokers = [c for c in added if c.is_joker]
    if new_jokers and rules.joker_layoff == "with-natural":
        raise IllegalMeldError(
            Reason.JOKER_ONTO_SET,
            _("a joker may not be laid onto a set (%(rule)s)")
            % {"rule": rule_name("joker_layoff", "with-natural")},
            rule_key("joker_layoff", "with-natural"),
        )
    value = card_value(rank, rules)
    all_naturals = sorted(
        {*natural_suits, *(c.suit for c in new_naturals)} - {None}, key=lambda s: s.index if s else 0
    )
    new_suits = {c.suit for c in new_naturals}
    pins = [pinned_suit(slot, rules) for slot in table_jokers]

    # Which table jokers (by index) a new natural frees, by the house rule set_joker_swap:
    # ``forced`` must give way, ``optional`` may (003: any missing suit frees a joker).
    optional: list[int] = []
    if rules.set_joker_swap == "complete":
        forced = list(range(len(table_jokers))) if len(all_naturals) == 4 else []
    else:
        forced = [k for k, pin in enumerate(pins) if pin is not None and pin in new_suits]
        if rules.set_joker_swap == "missing-suit":
            spare = len(new_naturals) - len(forced)
            optional = [k for k in range(len(table_jokers)) if k not in forced][: max(0, spare)]
    for k, slot in enumerate(table_jokers):
        declared = slot.card.declared
        if declared is not None and declared.suit in new_suits and k not in forced:
            raise IllegalMeldError(
                Reason.DUPLICATE_SUIT,
                _("%(card)s is already in the set as a joker, which may not be swapped here (%(rule)s)")
                % {"card": declared, "rule": rule_name("set_joker_swap", rules.set_joker_swap)},
                rule_key("set_joker_swap", rules.set_joker_swap),
            )
    if refusal is not None and forced:
        taken = [c for c in new_naturals if c.suit == pins[forced[0]]]
        what = (
            _("%(card)s would take the joker's place") % {"card": taken[0]}
            if taken
            else _("%(cards)s would complete the set and free the joker")
            % {"cards": " ".join(str(c) for c in new_naturals)}
        )
        raise IllegalMeldError(
            refusal[0], _("%(what)s, but %(why)s") % {"what": what, "why": refusal[1]}, refusal[2]
        )
    could_swap = bool(optional)
    if refusal is not None:
        optional = []
    freeable = forced + optional
    kept = [(slot, pins[k]) for k, slot in enumerate(table_jokers) if k not in freeable]
    size = len(all_naturals) + len(kept) + len(new_jokers)
    if size > 4:
        if rules.set_joker_swap == "complete" and table_jokers:
            raise IllegalMeldError(
                Reason.SET_TOO_LARGE,
                _(
                    "a set has at most 4 cards; the joker is freed only when all four natural "
                    "%(rank)ss are complete (%(rule)s)"
                )
                % {"rank": rank.letter(), "rule": rule_name("set_joker_swap", "complete")},
                rule_key("set_joker_swap", "complete"),
            )
        if refusal is not None and could_swap:
            raise IllegalMeldError(
                refusal[0],
                _("the set has room only if a joker is swapped, but %(why)s") % {"why": refusal[1]},
                refusal[2],
            )
        raise IllegalMeldError(
            Reason.SET_TOO_LARGE, _("a set has at most 4 cards, this would have %(count)d") % {"count": size}
        )
    missing = [s for s in SUITS if s not in all_naturals]
    slots = [Slot(Card(rank, s), Card(rank, s), value) for s in all_naturals]
    fixed = [(slot.card, pin) for slot, pin in kept if pin is not None]
    for joker in new_jokers:
        declared = joker.declared
        if declared is None:
            continue
        if declared.rank != rank:
            raise IllegalMeldError(
                Reason.WRONG_RANK,
                _("%(card)s does not fit a set of %(rank)ss") % {"card": joker, "rank": rank.letter()},
            )
        if declared.suit not in missing or declared.suit in {pin for _card, pin in fixed}:
            raise IllegalMeldError(
                Reason.DUPLICATE_SUIT,
                _("%(card)s is already in the set: a set holds each suit once") % {"card": declared},
            )
        fixed.append((joker, declared.suit))
    for card, suit in fixed:
        slots.append(Slot(card, Card(rank, suit), value, (suit,)))
    free = tuple(s for s in missing if s not in {suit for _card, suit in fixed})
    loose = [slot.card for slot, pin in kept if pin is None] + [j for j in new_jokers if j.declared is None]
    slots += [Slot(card, Card(rank, free[0]), value, free) for card in loose]
    slots.sort(key=lambda slot: slot.stands_for.sort_key())
    meld = Meld(MeldKind.SET, tuple(slots))
    _check_limits(meld, rules)
    freed = len(freeable)
    alternative = None
    if (
        optional
        and not forced
        and may_lay_off
        and len(all_naturals) + len(table_jokers) + len(new_jokers) <= 4
    ):
        alternative = _("or lay the cards off and leave the joker in the set")
    elif table_jokers and not freed and new_naturals and rules.set_joker_swap == "declared":
        alternative = _("the joker stays: it was not declared for %(cards)s") % {
            "cards": "/".join(str(c) for c in new_naturals)
        }
    return LayOff(table, meld, freed, _joker_note(freed, rules), alternative)
