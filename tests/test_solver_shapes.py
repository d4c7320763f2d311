"""The run shapes of the solver's templates (candidates._run_shapes) against the plain
enumeration they replaced: every subset of the later ranks, every arc between two of its
naturals (issue 12: that enumeration took a third of a second for one suit and six jokers).
The two must give the same shapes (later ranks used, jokers, value, length) under every
rule that decides a run's legality."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from romme_score.cards import Card, Rank, Suit
from romme_score.rules import PRESETS, RuleSet, find_preset
from romme_score.solver.candidates import Candidates, RunShape


def reference_shapes(cands: Candidates, rank: int, later: tuple[int, ...]) -> list[RunShape]:
    """The enumeration before issue 12, kept as the reference (with the same legality
    test, which knows where a cut before an ace after the king loses value)."""
    rules = cands.rules
    hand_jokers = cands.hand_jokers
    top = rules.top_run_position
    wrap = rules.wraparound
    split_jokers = 4 - rules.min_naturals if cands.meld_filter is None else 0
    values = cands._window_values
    best: dict[tuple[tuple[int, ...], int], RunShape] = {}
    for size in range(0, len(later) + 1):
        for chosen in combinations(later, size):
            members = (rank, *chosen)
            count = size + 1
            for a_idx in range(count):
                first = members[(a_idx + 1) % count]
                gap = (first - members[a_idx] - 1) % 13 if count > 1 else 12
                span = 13 - gap
                inner = span - count
                if inner > hand_jokers:
                    continue
                bits_from_first = 0
                for r in members:
                    bits_from_first |= 1 << ((r - first) % 13)
                for jokers in range(max(inner, 3 - count), min(hand_jokers, 13 - count) + 1):
                    extra = jokers - inner
                    n = span + extra
                    if n >= 6 and jokers < split_jokers and not wrap:
                        continue
                    key2 = (chosen, jokers)
                    known = best.get(key2)
                    best_value = known[2] if known is not None else -1
                    for below in range(0, extra + 1):
                        start = (first - below - 1) % 13 + 1
                        if not wrap and start + n - 1 > top:
                            continue
                        value = values[start][n]
                        if value <= best_value:
                            continue
                        ace_at = (14 - start) % 13
                        if not cands._legal_run(
                            n, bits_from_first << below, ace_at if 3 <= ace_at <= n - 3 else -1
                        ):
                            continue
                        best_value = value
                        best[key2] = (
                            chosen,
                            jokers,
                            value,
                            n,
                            start,
                            tuple((r - start) % 13 for r in members),
                        )
    return list(best.values())


RULES = [find_preset(name) for name in sorted(PRESETS)] + [
    find_preset("standard").replace(max_adjacent_jokers=1),
    find_preset("standard").replace(max_jokers_per_meld=1),
    find_preset("standard").replace(min_naturals=2),
    find_preset("classic").replace(max_adjacent_jokers=2),
    find_preset("standard").replace(ace_high_runs=False),
]


def summary(shapes: list[RunShape]) -> dict[tuple[tuple[int, ...], int], tuple[int, int]]:
    return {(s[0], s[1]): (s[2], s[3]) for s in shapes}


@pytest.mark.parametrize("rules", RULES, ids=lambda r: repr(r.legality_key())[:60])
def test_run_shapes_match_the_plain_enumeration_issue_12(rules: RuleSet) -> None:
    rnd = random.Random(12)
    checked = 0
    for _ in range(60):
        jokers = rnd.randint(0, min(6, rules.jokers or 6))
        ranks = sorted(rnd.sample(range(1, 14), rnd.randint(1, 13)))
        hand = [Card(Rank(r), Suit.HEARTS) for r in ranks] + [Card.joker()] * jokers
        cands = Candidates(hand, rules)
        for k, rank in enumerate(ranks):
            later = tuple(ranks[k + 1 :])
            assert summary(cands._run_shapes(rank, later)) == summary(reference_shapes(cands, rank, later)), (
                ranks,
                jokers,
                rank,
            )
            checked += 1
    assert checked > 100
