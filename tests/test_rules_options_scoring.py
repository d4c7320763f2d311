"""RULES.md §6: cards entered for the winner -- refused, unless 002 e "Rommé mit 10"
(``call_out_max``) or 002 f "Farbenrommé" (``color_romme``) allows them; never counted."""

from __future__ import annotations

import pytest

from romme_score.cards import parse_cards
from romme_score.rules import RuleSet, find_preset
from romme_score.scoring import Hand, RoundError, RoundInput, replay, score_round

PLAYERS = ("Anna", "Ben", "Carl")
ZERO = {p: 0 for p in PLAYERS}
TEN_HEARTS = "HA H2 H3 H4 H5 H6 H7 H8 H9 H10"


def cards(text: str) -> Hand:
    return Hand(cards=tuple(parse_cards(text)))


def score(winner_hand: Hand | None, rules: RuleSet) -> dict[str, int]:
    hands = {"Ben": cards("HK K10"), "Carl": Hand(points=7)}
    if winner_hand is not None:
        hands["Anna"] = winner_hand
    return score_round(PLAYERS, ZERO, RoundInput("Anna", hands), rules).points


@pytest.mark.parametrize("preset", ["standard", "wiki-51", "classic", "speedromme", "basic"])
def test_winner_holds_nothing_without_call_out_rules_002(preset: str) -> None:
    rules = find_preset(preset)
    assert score(None, rules)["Anna"] == 0
    assert score(Hand(points=0), rules)["Anna"] == 0  # "Anna=0" says the same
    with pytest.raises(RoundError, match=r"call_out_max or color_romme, both none"):
        score(cards("H2 H3"), rules)
    with pytest.raises(RoundError, match="holds no cards"):
        score(Hand(points=5), rules)


@pytest.mark.parametrize(
    "call_out_max, hand, allowed",
    [
        (10, "H2 H3", True),  # 5 points
        (10, "H4 P6", True),  # 10 points: "höchstens 10 Punkte"
        (10, "H5 P6", False),  # 11
        (10, "HA", False),  # an ace is 11 in hand
        (10, "J", False),  # a joker is 20
        (20, "J", True),
        (10, "7", True),  # points counted by hand
        (10, "11", False),
    ],
)
def test_call_out_max_allows_at_most_n_points_002e(call_out_max: int, hand: str, allowed: bool) -> None:
    rules = find_preset("classic").replace(call_out_max=call_out_max)
    winner = Hand(points=int(hand)) if hand.isdigit() else cards(hand)
    if allowed:
        points = score(winner, rules)
        assert points == {"Anna": 0, "Ben": 20, "Carl": 7}  # "Seine Punkte werden nicht notiert"
    else:
        with pytest.raises(
            RoundError,
            match=rf"count \d+ points, but at most {call_out_max} may be held \(Rommé mit {call_out_max}\)",
        ):
            score(winner, rules)


@pytest.mark.parametrize(
    "color_romme, hand, refusal",
    [
        (10, TEN_HEARTS, None),  # "mindestens 10 beliebige Karten einer Farbe"
        (10, TEN_HEARTS + " PK", None),  # others beside them
        (10, "HA H2 H3 H4 H5 H6 H7 H8 H9 PK", "no more than 9 cards of one suit (♥)"),
        (10, "HA H2 H3 H4 H5 H6 H7 H8 H9 J", "no more than 9 cards of one suit (♥)"),
        (8, "HA H2 H3 H4 H5 H6 H7 H8 H9 J", None),
        (3, "J J J H2 P3", "no more than 1 card of one suit,"),  # a joker has no suit
    ],
)
def test_color_romme_needs_n_cards_of_one_suit_002f(color_romme: int, hand: str, refusal: str | None) -> None:
    rules = find_preset("classic").replace(color_romme=color_romme)
    if refusal is None:
        assert score(cards(hand), rules) == {"Anna": 0, "Ben": 20, "Carl": 7}
    else:
        with pytest.raises(RoundError) as info:
            score(cards(hand), rules)
        message = str(info.value)
        assert (
            refusal in message
            and f"{color_romme} are needed (Farbenrommé from {color_romme} cards)" in message
        )


def test_color_romme_needs_the_cards_not_points_002f() -> None:
    rules = find_preset("classic").replace(color_romme=10)
    with pytest.raises(RoundError, match="give Anna's cards rather than points"):
        score(Hand(points=30), rules)


def test_either_call_out_rule_suffices_002e_002f() -> None:
    rules = find_preset("classic").replace(call_out_max=10, color_romme=10)
    assert score(cards("H2 H3"), rules)["Anna"] == 0
    assert score(cards(TEN_HEARTS), rules)["Anna"] == 0  # 55 points, but ten hearts
    with pytest.raises(RoundError) as info:
        score(cards("HK PK KK"), rules)
    message = str(info.value)
    assert "count 30 points" in message and "no more than 1 card of one suit," in message


def test_winner_cards_never_count_nor_multiply_002e_002h() -> None:
    rules = find_preset("classic").replace(call_out_max=20, joker_in_hand_doubles=True)
    s = score_round(
        PLAYERS,
        ZERO,
        RoundInput("Anna", {"Anna": cards("J"), "Ben": cards("J"), "Carl": Hand(points=0)}),
        rules,
    )
    assert s.points == {"Anna": 0, "Ben": 40, "Carl": 0}
    assert s.base["Anna"] == 0


def test_replay_refuses_winner_cards_with_the_round_number() -> None:
    rounds = [
        RoundInput("Anna", {"Ben": Hand(points=3), "Carl": Hand(points=4)}),
        RoundInput("Ben", {"Ben": cards("H2"), "Anna": Hand(points=1), "Carl": Hand(points=2)}),
    ]
    with pytest.raises(RoundError, match=r"^round 2: Ben went out and holds no cards"):
        replay(PLAYERS, find_preset("standard"), rounds)
    assert len(replay(PLAYERS, find_preset("standard").replace(call_out_max=10), rounds)) == 2
