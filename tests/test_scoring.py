"""RULES.md §6-§7: penalty points of a round, multipliers, winner bonus, game end."""

from __future__ import annotations

import pytest

from romme_score.cards import parse_cards
from romme_score.rules import GameEnd, RuleSet, find_preset
from romme_score.scoring import (
    Hand,
    RoundError,
    RoundInput,
    game_state,
    hand_penalty,
    leaderboard_tenths,
    place_bonus,
    replay,
    score_round,
)

PLAYERS = ("Anna", "Ben", "Carl", "Dora")
ZERO = {p: 0 for p in PLAYERS}


def cards(text: str) -> Hand:
    return Hand(cards=tuple(parse_cards(text)))


def round_(
    winner: str | None = "Anna", hand_romme: bool = False, stalemate: bool = False, **hands: Hand
) -> RoundInput:
    return RoundInput(winner, hands, hand_romme, stalemate)


def test_penalty_of_hand_000_002_003_004() -> None:
    assert hand_penalty(parse_cards("HK K10 J"), find_preset("standard")) == 40
    assert hand_penalty(parse_cards("HA PA"), find_preset("wiki-51")) == 20


def test_winner_scores_zero_others_their_hand_all_sources() -> None:
    s = score_round(
        PLAYERS,
        ZERO,
        round_(Ben=cards("HK K10 J"), Carl=cards("P7 P8"), Dora=Hand(points=23)),
        find_preset("standard"),
    )
    assert s.points == {"Anna": 0, "Ben": 40, "Carl": 15, "Dora": 23}


def test_winner_cards_shown_not_counted_002e_002f() -> None:
    s = score_round(
        PLAYERS,
        ZERO,
        round_(Anna=cards("H2 H3"), Ben=Hand(points=1), Carl=Hand(points=2), Dora=Hand(points=3)),
        find_preset("standard").replace(call_out_max=10),
    )
    assert s.points["Anna"] == 0


@pytest.mark.parametrize(
    "preset, factor",
    [
        ("standard", 2),
        ("wiki-51", 2),
        ("classic", 2),
        ("speedromme", 2),
        ("basic", 1),
    ],
)
def test_hand_romme_multiplies_others_002_003(preset: str, factor: int) -> None:
    rules = find_preset(preset)
    s = score_round(
        PLAYERS,
        ZERO,
        round_(hand_romme=True, Ben=Hand(points=10), Carl=Hand(points=5), Dora=Hand(points=0)),
        rules,
    )
    assert s.points["Ben"] == 10 * factor and s.points["Carl"] == 5 * factor


def test_hand_romme_triple_house_rule() -> None:
    rules = find_preset("standard").replace(hand_romme_multiplier=3)
    s = score_round(
        PLAYERS,
        ZERO,
        round_(hand_romme=True, Ben=Hand(points=10), Carl=Hand(points=5), Dora=Hand(points=0)),
        rules,
    )
    assert s.points["Ben"] == 30


def test_joker_in_hand_doubles_002h() -> None:
    rules = find_preset("classic").replace(joker_in_hand_doubles=True)
    s = score_round(PLAYERS, ZERO, round_(Ben=cards("J H5"), Carl=cards("H5"), Dora=Hand(points=7)), rules)
    assert (s.points["Ben"], s.points["Carl"], s.points["Dora"]) == (50, 5, 7)


def test_never_out_doubles_003() -> None:
    rules = find_preset("speedromme").replace(never_out_doubles=True)
    s = score_round(
        PLAYERS,
        ZERO,
        round_(Ben=Hand(cards("H5").cards, never_out=True), Carl=cards("H5"), Dora=Hand(points=7)),
        rules,
    )
    assert (s.points["Ben"], s.points["Carl"]) == (10, 5)


def test_multipliers_combine_by_multiplying_section6() -> None:
    rules = find_preset("standard").replace(joker_in_hand_doubles=True, never_out_doubles=True)
    s = score_round(
        PLAYERS,
        ZERO,
        round_(
            hand_romme=True,
            Ben=Hand(cards("J").cards, never_out=True),
            Carl=Hand(points=1),
            Dora=Hand(points=1),
        ),
        rules,
    )
    assert s.points["Ben"] == 20 * 2 * 2 * 2


def test_winner_bonus_strikes_earlier_points_002i() -> None:
    # "hatte er bis dahin 113 Punkte, so hat er jetzt nur noch 103"
    rules = find_preset("classic")
    before = {"Anna": 113, "Ben": 0, "Carl": 0, "Dora": 0}
    s = score_round(
        PLAYERS, before, round_(Ben=Hand(points=1), Carl=Hand(points=1), Dora=Hand(points=1)), rules
    )
    assert s.bonus == {"Anna": 10}
    s = score_round(
        PLAYERS,
        before,
        round_(hand_romme=True, Ben=Hand(points=1), Carl=Hand(points=1), Dora=Hand(points=1)),
        rules,
    )
    assert s.bonus == {"Anna": 20}


def test_winner_bonus_never_below_zero_002i() -> None:
    rules = find_preset("classic")
    s = score_round(
        PLAYERS,
        {**ZERO, "Anna": 4},
        round_(Ben=Hand(points=1), Carl=Hand(points=1), Dora=Hand(points=1)),
        rules,
    )
    assert s.bonus == {"Anna": 4}
    s = score_round(
        PLAYERS, ZERO, round_(Ben=Hand(points=1), Carl=Hand(points=1), Dora=Hand(points=1)), rules
    )
    assert s.bonus == {}


def test_winner_bonus_disabled_with_zero() -> None:
    s = score_round(
        PLAYERS,
        {**ZERO, "Anna": 50},
        round_(Ben=Hand(points=1), Carl=Hand(points=1), Dora=Hand(points=1)),
        find_preset("speedromme"),
    )
    assert s.bonus == {}


def test_stalemate_everyone_counts_003() -> None:
    s = score_round(
        PLAYERS,
        ZERO,
        round_(
            None,
            stalemate=True,
            Anna=Hand(points=3),
            Ben=Hand(points=1),
            Carl=Hand(points=1),
            Dora=Hand(points=1),
        ),
        find_preset("speedromme"),
    )
    assert s.points == {"Anna": 3, "Ben": 1, "Carl": 1, "Dora": 1}


def test_stalemate_nobody_scores_001() -> None:
    rules = find_preset("basic")
    s = score_round(
        PLAYERS,
        ZERO,
        round_(
            None,
            stalemate=True,
            Anna=Hand(points=3),
            Ben=cards("HK H5"),
            Carl=Hand(points=1),
            Dora=Hand(points=1),
        ),
        rules,
    )
    assert s.points == ZERO  # the hands are there, and still count nothing
    # the hands may be left out
    assert score_round(PLAYERS, ZERO, round_(None, stalemate=True), rules).points == ZERO


@pytest.mark.parametrize(
    "rnd, fragment",
    [
        (round_(Ben=Hand(points=1), Carl=Hand(points=1)), "no hand given for Dora"),
        (round_(Bne=Hand(points=1)), "did you mean Ben"),
        (round_(None, Ben=Hand(points=1)), "who went out"),
        (round_(None, hand_romme=True), "needs the winner"),
        (round_(Ben=cards("HK HK"), Carl=cards("HK"), Dora=Hand(points=0)), "♥K appears 3 times"),
        (round_(Ben=cards("J J J J"), Carl=cards("J J J"), Dora=Hand(points=0)), "7 jokers"),
    ],
)
def test_round_consistency_checks(rnd: RoundInput, fragment: str) -> None:
    with pytest.raises(RoundError, match=fragment):
        score_round(PLAYERS, ZERO, rnd, find_preset("standard"))


@pytest.mark.parametrize(
    "end, totals, rounds, finished, winner",
    [
        (GameEnd("points", 500), {"Anna": 499, "Ben": 100}, 9, False, None),
        (GameEnd("points", 500), {"Anna": 500, "Ben": 100}, 9, True, "Ben"),
        (GameEnd("points", 1000), {"Anna": 600, "Ben": 100}, 9, False, None),
        (GameEnd("rounds", 5), {"Anna": 60, "Ben": 100}, 5, True, "Anna"),
        (GameEnd("rounds", 1), {"Anna": 60, "Ben": 100}, 0, False, None),
        (GameEnd("open"), {"Anna": 6000, "Ben": 100}, 99, False, None),
    ],
)
def test_game_end_target_rounds_or_open_003(
    end: GameEnd, totals: dict[str, int], rounds: int, finished: bool, winner: str | None
) -> None:
    state = game_state(list(totals), totals, rounds, RuleSet(game_end=end))
    assert (state.finished, state.winner) == (finished, winner)


def test_game_end_tie_has_no_single_winner() -> None:
    state = game_state(["A", "B", "C"], {"A": 10, "B": 10, "C": 600}, 3, RuleSet())
    assert state.finished and state.winner is None and state.tied == ("A", "B")


@pytest.mark.parametrize(
    "penalty, went_out, hand_romme, tenths",
    [
        (0, True, False, 300),  # 30 for going out
        (0, True, True, 600),  # 60 for a Hand-Rommé
        (23, False, False, 77),  # RULES.md §7's own example: 7.7, not 7
        (35, False, False, 65),  # 6.5, once rounded down to 6
        (1, False, False, 99),
        (0, False, False, 100),  # a stalemate's nobody-scores: 10
        (99, False, False, 1),
        (100, False, False, 0),
        (150, False, False, 0),  # never below 0
    ],
)
def test_leaderboard_points_are_exact_tenths_rules_7_003(
    penalty: int, went_out: bool, hand_romme: bool, tenths: int
) -> None:
    """003 "10 weniger ein Zehntel ihrer Minuspunkte": exactly, in tenths (RULES.md §7)."""
    assert leaderboard_tenths(penalty, went_out, hand_romme) == tenths


def test_leaderboard_place_bonus_003() -> None:
    assert place_bonus(["A", "B", "C", "D"], {"A": 5, "B": 50, "C": 10, "D": 90}) == {
        "A": 30,
        "C": 15,
        "B": 5,
        "D": 0,
    }


def test_replay_recomputes_bonus_from_earlier_totals_002i() -> None:
    rules = find_preset("classic")
    inputs = [
        round_("Ben", Anna=Hand(points=4), Carl=Hand(points=30), Dora=Hand(points=1)),
        round_("Anna", Ben=Hand(points=1), Carl=Hand(points=1), Dora=Hand(points=1)),
    ]
    scores = replay(PLAYERS, rules, inputs)
    assert scores[1].bonus == {"Anna": 4}
