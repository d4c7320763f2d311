"""Meld interpretation, legality and value (docs/rules.md §2-§4).

A meld is typed as a list of cards in any order. :func:`interpret` finds its
legal interpretations (set or run, where each joker stands) and picks the one
docs/rules.md §2 prescribes: the player's joker declarations, else the written
order, else any legal order, taking the highest value among what remains.

>>> from romme_score.cards import parse_cards
>>> from romme_score.rules import find_preset
>>> meld = interpret(parse_cards("P3 P4 P5"), find_preset("standard"))
>>> meld.kind, meld.value
(<MeldKind.RUN: 'run'>, 12)
>>> is_legal(parse_cards("PK PA P2"), find_preset("standard"))
False
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from romme_score.cards import SUITS, Card, Profile, Rank, Suit
from romme_score.errors import Refusal
from romme_score.i18n import _, ngettext
from romme_score.rules import RuleSet, rule_key, rule_name


class MeldKind(enum.StrEnum):
    SET = "set"
    RUN = "run"


class Reason(enum.StrEnum):
    """Why a meld, a first meld or a lay-off is not allowed."""

    TOO_FEW_CARDS = "too-few-cards"
    TOO_FEW_NATURALS = "too-few-naturals"
    TOO_MANY_JOKERS = "too-many-jokers"
    ADJACENT_JOKERS = "adjacent-jokers"
    MIXED = "mixed-ranks-and-suits"
    DUPLICATE_SUIT = "duplicate-suit"
    SET_TOO_LARGE = "set-too-large"
    DUPLICATE_RANK = "duplicate-rank"
    GAP = "gap"
    WRAPAROUND = "wraparound-not-allowed"
    ACE_HIGH = "ace-high-not-allowed"
    RUN_TOO_LONG = "run-too-long"
    DECLARATION = "declaration-mismatch"
    TOO_MANY_COPIES = "too-many-copies"
    NO_JOKERS_IN_PLAY = "too-many-jokers-in-play"
    BELOW_MINIMUM = "below-first-meld-minimum"
    NO_PURE_RUN = "no-pure-run"
    WRONG_SUIT = "wrong-suit"
    WRONG_RANK = "wrong-rank"
    JOKER_PLACE_UNCLEAR = "joker-place-unclear"
    JOKER_ONTO_SET = "joker-onto-set"
    JOKER_NEEDS_NATURAL = "joker-needs-natural"
    NOTHING_TO_ADD = "nothing-to-add"
    TABLE_MELD_ILLEGAL = "table-meld-illegal"
    JOKER_SWAP_FORBIDDEN = "joker-swap-forbidden"
    SWAP_NOT_OUT_YET = "joker-swap-before-coming-out"
    NOT_OUT_YET = "layoff-before-coming-out"


class IllegalMeldError(Refusal):
    """A meld, first meld or lay-off that breaks a rule; ``reason`` names which, and
    ``rule`` the house rule option that decided it, as typed (``first_meld_min=40``), or
    None where every table plays so. The message names that rule in words."""

    def __init__(self, reason: Reason, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.rule = rule


# Why cards are no legal meld: the reason, one sentence, and the rule option that decided
# it as typed (``min_naturals=2``), or None.
Why = tuple[Reason, str, str | None]


def _named(name: str, value: object) -> dict[str, str]:
    """The placeholders of a sentence naming a rule: ``%(rule)s`` in words."""
    return {"rule": rule_name(name, value)}


class Slot(NamedTuple):
    """One place in a meld: the card lying there and the card it counts as.

    For a joker in a set, ``options`` lists every suit it may stand for;
    ``stands_for`` then shows the first of them.
    """

    card: Card
    stands_for: Card
    value: int
    options: tuple[Suit, ...] = ()

    @property
    def is_joker(self) -> bool:
        return self.card.is_joker

    def format(self, profile: Profile = "de", ascii: bool = False) -> str:
        if not self.is_joker:
            return self.card.format(profile, ascii)
        joker = Card.joker().format(profile, ascii)
        if len(self.options) > 1:
            assert self.stands_for.rank is not None
            suits = "/".join(
                s.symbol if not ascii else (s.german if profile == "de" else s.value) for s in self.options
            )
            return f"{joker}={suits}{self.stands_for.rank.letter(profile)}"
        return f"{joker}={self.stands_for.format(profile, ascii)}"


class Meld(NamedTuple):
    """A legal (or structurally possible) interpretation of a meld."""

    kind: MeldKind
    slots: tuple[Slot, ...]
    written_order: bool = False
    start: int = 0  # runs: position of the lowest card, 1 = low ace .. 14 = high ace

    @property
    def value(self) -> int:
        return sum(slot.value for slot in self.slots)

    @property
    def jokers(self) -> int:
        return sum(1 for slot in self.slots if slot.is_joker)

    @property
    def naturals(self) -> int:
        return len(self.slots) - self.jokers

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(slot.card for slot in self.slots)

    @property
    def end(self) -> int:
        return self.start + len(self.slots) - 1

    def format(self, profile: Profile = "de", ascii: bool = False) -> str:
        return " ".join(slot.format(profile, ascii) for slot in self.slots)


# --- values -------------------------------------------------------------------


def card_value(rank: Rank, rules: RuleSet, *, low_ace: bool = False) -> int:
    """Meld value (§3): pips, 10 for faces, ace 11 (``ace_high_value``) or 1 in a low run."""
    if rank == Rank.ACE:
        return 1 if low_ace else rules.ace_high_value
    if rank.is_face:
        return 10
    return int(rank)


def penalty_value(card: Card, rules: RuleSet) -> int:
    """Penalty of a card left in hand (§3): joker 20, ace 11, faces 10, pips."""
    if card.rank is None:
        return rules.joker_penalty
    if card.rank == Rank.ACE:
        return rules.ace_penalty
    return 10 if card.rank.is_face else int(card.rank)


class CardValues(NamedTuple):
    """What each card counts under a rule set (§3), as ``romme rules`` shows it: in a meld
    (``meld``; the ace high, ``low_ace`` at the bottom of a run) and left in the hand
    (``hand``, ``joker``). The joker in a meld counts as the card it stands for.

    >>> from romme_score.rules import find_preset
    >>> values = CardValues.of(find_preset("wiki-51"))
    >>> values.meld[Rank.KING], values.meld[Rank.ACE], values.low_ace, values.hand[Rank.ACE], values.joker
    (10, 10, 1, 10, 20)
    """

    meld: Mapping[Rank, int]
    low_ace: int
    hand: Mapping[Rank, int]
    joker: int

    @classmethod
    def of(cls, rules: RuleSet) -> CardValues:
        return cls(
            {rank: card_value(rank, rules) for rank in Rank},
            card_value(Rank.ACE, rules, low_ace=True),
            {rank: penalty_value(Card(rank, Suit.HEARTS), rules) for rank in Rank},
            penalty_value(Card.joker(), rules),
        )


def rank_at(position: int) -> Rank:
    """The rank at a run position: 1 is the low ace, 13 the king, 14 the high ace, 15 a 2 ..."""
    return Rank((position - 1) % 13 + 1)


# --- interpretation -----------------------------------------------------------


def run_windows(n: int, rules: RuleSet) -> list[int]:
    """Start positions of every run of ``n`` cards the rules allow."""
    if n > 13 or n < 1:
        return []
    if rules.wraparound:
        return list(range(1, 14))
    return list(range(1, rules.top_run_position - n + 2))


def run_slot(card: Card, position: int, suit: Suit, rules: RuleSet) -> Slot:
    """The slot ``card`` fills at ``position`` of a run of ``suit``: what it stands for and counts."""
    rank = rank_at(position)
    value = card_value(rank, rules, low_ace=(position == 1))
    return Slot(card, Card(rank, suit), value)


def _fit_run(
    cards: Sequence[Card], suit: Suit, start: int, rules: RuleSet, order: Sequence[int] | None
) -> Meld | None:
    """Place ``cards`` in the run starting at ``start``; ``order`` fixes positions as written."""
    n = len(cards)
    positions: dict[int, int] = {}  # rank -> offset in the window
    for offset in range(n):
        positions[int(rank_at(start + offset))] = offset
    placed: list[Card | None] = [None] * n
    free_jokers: list[Card] = []
    for index, card in enumerate(cards):
        target = card.declared if card.is_joker else card
        if target is None:
            if order is None:
                free_jokers.append(card)
                continue
            offset = order[index]
        else:
            if target.suit != suit or int(target.rank or 0) not in positions:
                return None
            offset = positions[int(target.rank or 0)]
            if order is not None and order[index] != offset:
                return None
        if placed[offset] is not None:
            return None
        placed[offset] = card
    for offset in range(n):
        if placed[offset] is None:
            placed[offset] = free_jokers.pop()
    slots = tuple(
        run_slot(card, start + offset, suit, rules) for offset, card in enumerate(placed) if card is not None
    )
    return Meld(MeldKind.RUN, slots, written_order=order is not None, start=start)


def _run_interpretations(cards: Sequence[Card], rules: RuleSet) -> list[Meld]:
    suits = {c.suit for c in cards if not c.is_joker} | {
        c.declared.suit for c in cards if c.declared is not None
    }
    if len(suits) != 1:
        return []
    suit = suits.pop()
    assert suit is not None
    n = len(cards)
    found: dict[int, Meld] = {}
    ascending = list(range(n))
    descending = list(range(n - 1, -1, -1))
    for start in run_windows(n, rules):
        for order in (ascending, descending):
            meld = _fit_run(cards, suit, start, rules, order)
            if meld is not None:
                found[start] = meld
                break
        else:
            meld = _fit_run(cards, suit, start, rules, None)
            if meld is not None:
                found[start] = meld
    return list(found.values())


def _infer_set_suits(cards: Sequence[Card]) -> dict[int, Suit]:
    """004: a set laid in Skat order (♣ ♠ ♥ ♦) declares its jokers by their place.

    Returns the suit of each undeclared joker (by index in ``cards``) where the
    written order determines it: the cards written in Skat order, and each run
    of jokers between two cards either filling the suits between them exactly
    or standing at its own place in Skat order ("Liegt also der Joker an zweiter
    Stelle, so ersetzt er die Pik-Karte"; 002 b's ``C9, J, K9`` is ♠9).

    >>> from romme_score.cards import parse_cards
    >>> {i: s.symbol for i, s in _infer_set_suits(parse_cards("T9 J K9")).items()}
    {1: '♠'}
    """
    jokers = [i for i, c in enumerate(cards) if c.is_joker and c.declared is None]
    if not jokers or len(cards) > 4:
        return {}
    suits = [c.suit if not c.is_joker else (c.declared.suit if c.declared else None) for c in cards]
    known = [(i, s) for i, s in enumerate(suits) if s is not None]
    if [s.index for _, s in known] != sorted({s.index for _, s in known}):
        return {}  # not laid in Skat order
    result: dict[int, Suit] = {}
    bounds = [(-1, -1)] + [(i, s.index) for i, s in known] + [(len(cards), 4)]
    for (left_i, left_s), (right_i, right_s) in zip(bounds, bounds[1:], strict=False):
        gap = [i for i in range(left_i + 1, right_i) if i in jokers]
        room = list(range(left_s + 1, right_s))
        if not gap:
            continue
        if len(room) == len(gap):  # the suits between fill the gap in order
            result.update({i: SUITS[s] for i, s in zip(gap, room, strict=True)})
        elif len(room) > len(gap) and all(i in room for i in gap):  # each at its own place
            result.update({i: SUITS[i] for i in gap})
    return result


def _set_interpretation(cards: Sequence[Card], rules: RuleSet) -> Meld | None:
    if not 3 <= len(cards) <= 4:
        return None
    targets = [c.declared if c.is_joker else c for c in cards]
    ranks = {t.rank for t in targets if t is not None}
    if len(ranks) != 1:
        return None
    rank = ranks.pop()
    assert rank is not None
    used = [t.suit for t in targets if t is not None]
    if len(used) != len(set(used)):
        return None
    missing = tuple(s for s in SUITS if s not in used)
    inferred = _infer_set_suits(cards)
    value = card_value(rank, rules)
    naturals = sorted((c for c in cards if not c.is_joker), key=Card.sort_key)
    slots = [Slot(c, c, value) for c in naturals]
    declared = [c for c in cards if c.is_joker and c.declared is not None]
    slots += [Slot(c, c.declared, value) for c in declared if c.declared is not None]
    taken = {s for i, s in inferred.items()}
    free = tuple(s for s in missing if s not in taken)
    for i, c in enumerate(cards):
        if c.is_joker and c.declared is None:
            if i in inferred:
                slots.append(Slot(c, Card(rank, inferred[i]), value, (inferred[i],)))
            else:
                slots.append(Slot(c, Card(rank, free[0]), value, free))
    slots.sort(key=lambda s: s.stands_for.sort_key())
    return Meld(MeldKind.SET, tuple(slots))


def _structural(cards: Sequence[Card], rules: RuleSet) -> list[Meld]:
    found = _run_interpretations(cards, rules)
    as_set = _set_interpretation(cards, rules)
    if as_set is not None:
        found.append(as_set)
    return found


def longest_joker_block(is_joker: Sequence[bool]) -> int:
    """The most jokers side by side in a row of places (True where a joker lies)."""
    best = run = 0
    for joker in is_joker:
        run = run + 1 if joker else 0
        best = max(best, run)
    return best


def limit_violation(meld: Meld, rules: RuleSet) -> Why | None:
    """The joker limit (§2) a structurally sound meld breaks, if any."""
    adjacent = longest_joker_block([slot.is_joker for slot in meld.slots])
    return joker_limit_violation(meld.kind, meld.naturals, meld.jokers, adjacent, rules)


def joker_limit_violation(
    kind: MeldKind, naturals: int, jokers: int, adjacent: int, rules: RuleSet
) -> Why | None:
    """The joker limits of §2, the one place they are written: a meld of ``kind`` with
    these counts and at most ``adjacent`` jokers side by side (runs) breaks which, if any.

    >>> from romme_score.rules import find_preset
    >>> reason, message, rule = joker_limit_violation(MeldKind.RUN, 1, 2, 2, find_preset("wiki-51"))
    >>> reason, rule
    (<Reason.TOO_FEW_NATURALS: 'too-few-naturals'>, 'min_naturals=2')
    >>> message
    'too few natural cards for these rules (natural cards per meld: at least 2)'
    """
    if naturals < rules.min_naturals:
        return _too_few_naturals(rules)
    if rules.max_jokers_per_meld is not None and jokers > rules.max_jokers_per_meld:
        return _too_many_jokers(jokers, rules)
    if kind == MeldKind.SET:
        limit = rules.max_jokers_in_set
        if limit is not None and jokers > limit:
            # 003: "not side by side" also means one joker per set; or the limit per meld
            name = "max_jokers_per_meld" if limit == rules.max_jokers_per_meld else "max_adjacent_jokers"
            return (
                Reason.TOO_MANY_JOKERS,
                _("%(jokers)d jokers in a set, but at most %(max)d (%(rule)s)")
                % {"jokers": jokers, "max": limit, **_named(name, getattr(rules, name))},
                rule_key(name, getattr(rules, name)),
            )
    elif rules.max_adjacent_jokers is not None and adjacent > rules.max_adjacent_jokers:
        return (
            Reason.ADJACENT_JOKERS,
            _("%(jokers)d jokers side by side, more than these rules allow (%(rule)s)")
            % {"jokers": adjacent, **_named("max_adjacent_jokers", rules.max_adjacent_jokers)},
            rule_key("max_adjacent_jokers", rules.max_adjacent_jokers),
        )
    return None


def _too_few_naturals(rules: RuleSet, count: int | None = None) -> Why:
    """A meld with fewer natural cards than ``min_naturals`` (``count`` of them, if said)."""
    values = {"count": count, **_named("min_naturals", rules.min_naturals)}
    if count is None:
        message = _("too few natural cards for these rules (%(rule)s)")
    else:
        message = ngettext(
            "this meld has %(count)d natural card, too few for these rules (%(rule)s)",
            "this meld has %(count)d natural cards, too few for these rules (%(rule)s)",
            count,
        )
    return Reason.TOO_FEW_NATURALS, message % values, rule_key("min_naturals", rules.min_naturals)


def _too_many_jokers(jokers: int, rules: RuleSet) -> Why:
    """More jokers in a meld than ``max_jokers_per_meld``."""
    return (
        Reason.TOO_MANY_JOKERS,
        _("%(jokers)d jokers in one meld, more than these rules allow (%(rule)s)")
        % {"jokers": jokers, **_named("max_jokers_per_meld", rules.max_jokers_per_meld)},
        rule_key("max_jokers_per_meld", rules.max_jokers_per_meld),
    )


def _preference(meld: Meld) -> tuple[int, int, int, int]:
    # Highest value first; then as written; then runs before sets; then the lowest run.
    return (meld.value, meld.written_order, meld.kind == MeldKind.RUN, -meld.start)


def interpretations(cards: Sequence[Card], rules: RuleSet) -> list[Meld]:
    """Every legal interpretation the rules leave open, best first (§2)."""
    if len(cards) < 3:
        return []
    legal = [m for m in _structural(cards, rules) if limit_violation(m, rules) is None]
    if any(m.kind == MeldKind.RUN and m.written_order for m in legal):
        legal = [m for m in legal if m.kind == MeldKind.SET or m.written_order]
    return sorted(legal, key=_preference, reverse=True)


def interpret(cards: Sequence[Card], rules: RuleSet) -> Meld:
    """The meld's interpretation under the rules, or :class:`IllegalMeldError`."""
    found = interpretations(cards, rules)
    if found:
        return found[0]
    raise IllegalMeldError(*explain(cards, rules))


def verify(cards: Sequence[Card], rules: RuleSet) -> None:
    """Raise :class:`IllegalMeldError` unless the cards form a legal meld."""
    interpret(cards, rules)


def is_legal(cards: Sequence[Card], rules: RuleSet) -> bool:
    return bool(interpretations(cards, rules))


def _name(card: Card) -> str:
    return card.format()


def explain(cards: Sequence[Card], rules: RuleSet) -> Why:
    """Why the cards are no legal meld: a reason, one sentence and the rule that decided."""
    n = len(cards)
    if n < 3:
        return (
            Reason.TOO_FEW_CARDS,
            _("a meld needs at least 3 cards, this has %(count)d") % {"count": n},
            None,
        )
    naturals = [c for c in cards if not c.is_joker]
    jokers = n - len(naturals)
    if len(naturals) < rules.min_naturals:
        return _too_few_naturals(rules, len(naturals))
    if rules.max_jokers_per_meld is not None and jokers > rules.max_jokers_per_meld:
        return _too_many_jokers(jokers, rules)
    structural = _structural(cards, rules)
    for meld in structural:
        violation = limit_violation(meld, rules)
        if violation:
            return violation
    plain = [c.plain for c in cards]
    if any(c.declared is not None for c in cards) and _structural(plain, rules):
        declared = ", ".join(c.format() for c in cards if c.declared is not None)
        return (
            Reason.DECLARATION,
            _("the joker declaration (%(declared)s) does not fit the other cards") % {"declared": declared},
            None,
        )
    ranks = Counter(c.rank for c in naturals)
    suits = Counter(c.suit for c in naturals)
    if len(ranks) == 1 and (len(suits) < len(naturals) or n > 4 or len(suits) > 1):
        if n > 4:
            return (
                Reason.SET_TOO_LARGE,
                _("a set has at most 4 cards, this has %(count)d") % {"count": n},
                None,
            )
        twice = next(c for c in naturals if suits[c.suit] > 1)
        return (
            Reason.DUPLICATE_SUIT,
            _("%(card)s appears twice: a set holds each suit at most once") % {"card": _name(twice)},
            None,
        )
    if len(suits) == 1:
        return _explain_run(plain, naturals, jokers, rules)
    pairs = ((a, b) for a in naturals for b in naturals if a.rank != b.rank and a.suit != b.suit)
    pair = next(pairs, None)
    if pair is None:  # pragma: no cover - two ranks and two suits always give such a pair
        return Reason.MIXED, _("the cards share neither one rank (set) nor one suit (run)"), None
    return (
        Reason.MIXED,
        _("%(first)s and %(second)s share neither rank (for a set) nor suit (for a run)")
        % {"first": _name(pair[0]), "second": _name(pair[1])},
        None,
    )


def _explain_run(cards: Sequence[Card], naturals: Sequence[Card], jokers: int, rules: RuleSet) -> Why:
    n = len(cards)
    ranks = Counter(c.rank for c in naturals)
    twice = [r for r, k in ranks.items() if k > 1]
    if twice:
        card = next(c for c in naturals if c.rank == twice[0])
        return (
            Reason.DUPLICATE_RANK,
            _("%(card)s appears twice: a run holds each rank once") % {"card": _name(card)},
            None,
        )
    if n > 13:
        return (
            Reason.RUN_TOO_LONG,
            _("a run has at most 13 cards, this has %(count)d") % {"count": n},
            None,
        )
    if _structural(cards, rules.replace(ace_high_runs=True)):
        return (
            Reason.ACE_HIGH,
            _("the ace would have to follow the king, which these rules do not allow (%(rule)s)")
            % _named("ace_high_runs", False),
            rule_key("ace_high_runs", False),
        )
    if _structural(cards, rules.replace(wraparound=True)):
        return (
            Reason.WRAPAROUND,
            _("the run would go around the corner (K-A-2), which these rules do not allow (%(rule)s)")
            % _named("wraparound", False),
            rule_key("wraparound", False),
        )
    low = sorted(naturals, key=lambda c: int(c.rank or 0))
    # The smallest gap to fill over the linear placements (ace low or high).
    best_missing = None
    for ace_high in (False, True):
        positions = sorted(14 if (ace_high and c.rank == Rank.ACE) else int(c.rank or 0) for c in low)
        missing = positions[-1] - positions[0] + 1 - len(positions)
        if best_missing is None or missing < best_missing:
            best_missing = missing
    first, last = low[0], low[-1]
    gap = best_missing or 0
    return (
        Reason.GAP,
        _("the run from %(first)s to %(last)s has a gap of %(gap)s but only %(jokers)s to fill it")
        % {
            "first": _name(first),
            "last": _name(last),
            "gap": ngettext("%(count)d card", "%(count)d cards", gap) % {"count": gap},
            "jokers": ngettext("%(count)d joker", "%(count)d jokers", jokers) % {"count": jokers},
        },
        None,
    )


# --- several melds: supply and first meld --------------------------------------


def check_supply(cards: Sequence[Card], rules: RuleSet) -> None:
    """No card more often than the packs hold, no more jokers than in play (§1)."""
    counts = Counter(c.plain for c in cards)
    jokers = counts.pop(Card.joker(), 0)
    if jokers > rules.jokers:
        raise IllegalMeldError(
            Reason.NO_JOKERS_IN_PLAY,
            ngettext(
                "%(jokers)d joker, more than are in play (%(rule)s)",
                "%(jokers)d jokers, more than are in play (%(rule)s)",
                jokers,
            )
            % {"jokers": jokers, **_named("jokers", rules.jokers)},
            rule_key("jokers", rules.jokers),
        )
    for card, count in sorted(counts.items(), key=lambda kv: kv[0].sort_key()):
        if count > rules.packs:
            raise IllegalMeldError(
                Reason.TOO_MANY_COPIES,
                ngettext(
                    "%(card)s appears %(count)d times, but %(packs)d pack holds it only %(packs)d time",
                    "%(card)s appears %(count)d times, but %(packs)d packs hold it only %(packs)d times",
                    rules.packs,
                )
                % {"card": _name(card), "count": count, "packs": rules.packs},
                rule_key("packs", rules.packs),
            )


class FirstMeld(NamedTuple):
    """The verdict on melds laid together as a first meld (§4)."""

    required: int
    total: int
    ok: bool
    reason: Reason | None
    message: str | None
    rule: str | None = None  # the option that decided, as typed (first_meld_min=40)


def judge_first_meld(
    melds: Sequence[Meld | None], rules: RuleSet, supply: IllegalMeldError | None = None
) -> FirstMeld:
    """Several melds together against ``first_meld_min`` and ``first_meld_pure_run``.

    ``None`` stands for an illegal meld, which makes the first meld fail; so does
    ``supply``, the cards' refusal by :func:`check_supply`: cards that cannot all be in
    play make no first meld, however many points they count.
    """
    legal = [m for m in melds if m is not None]
    total = sum(m.value for m in legal)
    required = rules.first_meld_min
    if len(legal) < len(melds):
        return FirstMeld(required, total, False, None, _("every meld must be legal"))
    if supply is not None:
        return FirstMeld(
            required, total, False, supply.reason, _("these cards are not all in play"), supply.rule
        )
    if total < required:
        return FirstMeld(
            required,
            total,
            False,
            Reason.BELOW_MINIMUM,
            ngettext(
                "%(total)d points, %(short)d point short (%(rule)s)",
                "%(total)d points, %(short)d points short (%(rule)s)",
                required - total,
            )
            % {"total": total, "short": required - total, **_named("first_meld_min", required)},
            rule_key("first_meld_min", required),
        )
    if rules.first_meld_pure_run and not any(m.kind == MeldKind.RUN and m.jokers == 0 for m in legal):
        return FirstMeld(
            required,
            total,
            False,
            Reason.NO_PURE_RUN,
            _("the first meld must include a run without jokers (%(rule)s)")
            % _named("first_meld_pure_run", True),
            rule_key("first_meld_pure_run", True),
        )
    return FirstMeld(required, total, True, None, None)
