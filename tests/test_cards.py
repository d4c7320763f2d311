"""RULES.md §1 (cards and notation), sources 000, 002, 004."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from romme_score.cards import (
    PROFILES,
    RANKS,
    SUITS,
    Card,
    NotationError,
    Profile,
    Rank,
    Suit,
    full_deck,
    parse_card,
    parse_cards,
)

H, K, P, T = Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES, Suit.CLUBS


@pytest.mark.parametrize(
    "token, profile, card",
    [
        # symbol + rank, either order, also hollow symbols (§1 table row 1)
        ("♥K", "de", Card(Rank.KING, H)),
        ("K♥", "de", Card(Rank.KING, H)),
        ("♣10", "de", Card(Rank.TEN, T)),
        ("♦A", "en", Card(Rank.ACE, K)),
        ("♡D", "de", Card(Rank.QUEEN, H)),
        ("♢B", "de", Card(Rank.JACK, K)),
        ("♤Q", "en", Card(Rank.QUEEN, P)),
        ("♧J", "de", Card(Rank.JACK, T)),
        # German suit letter + rank, as 002 writes cards (§1 table row 2)
        ("HK", "de", Card(Rank.KING, H)),
        ("KK", "de", Card(Rank.KING, K)),
        ("PK", "de", Card(Rank.KING, P)),
        ("T2", "de", Card(Rank.TWO, T)),
        ("K10", "de", Card(Rank.TEN, K)),
        ("X7", "de", Card(Rank.SEVEN, T)),
        ("HB", "de", Card(Rank.JACK, H)),
        ("PD", "de", Card(Rank.QUEEN, P)),
        ("hk", "de", Card(Rank.KING, H)),
        ("C9", "de", Card(Rank.NINE, T)),
        # English rank + suit letter (§1 table row 3)
        ("KH", "en", Card(Rank.KING, H)),
        ("10S", "en", Card(Rank.TEN, P)),
        ("TD", "en", Card(Rank.TEN, K)),
        ("QC", "en", Card(Rank.QUEEN, T)),
        ("AS", "en", Card(Rank.ACE, P)),
        ("JH", "en", Card(Rank.JACK, H)),
        ("jh", "en", Card(Rank.JACK, H)),
    ],
)
def test_card_notation_forms_rules_section1(token: str, profile: Profile, card: Card) -> None:
    assert parse_card(token, profile) == card


@pytest.mark.parametrize(
    "token, profile",
    [
        ("J", "de"),
        ("JO", "de"),
        ("JK", "de"),
        ("*", "de"),
        ("🃏", "de"),
        ("JO", "en"),
        ("JK", "en"),
        ("*", "en"),
        ("🃏", "en"),
        ("joker", "en"),
    ],
)
def test_joker_notation_rules_section1(token: str, profile: Profile) -> None:
    assert parse_card(token, profile).is_joker


@pytest.mark.parametrize(
    "token, profile",
    [
        ("J=H8", "de"),
        ("*=♥8", "de"),
        ("J(♥8)", "de"),
        ("JK=8H", "en"),
        ("*(8H)", "en"),
        ("J = H8", "de"),
    ],
)
def test_joker_declaration_004_002b(token: str, profile: Profile) -> None:
    card = parse_cards(token, profile)[0]
    assert card.is_joker and card.declared == Card(Rank.EIGHT, H)


def test_letters_collide_between_profiles_rules_section1() -> None:
    # K is Karo and King, J is Joker and Jack, D is Dame and Diamonds.
    assert parse_card("KD", "de") == Card(Rank.QUEEN, K)
    assert parse_card("KD", "en") == Card(Rank.KING, K)
    assert parse_card("J", "de").is_joker
    with pytest.raises(NotationError, match="JK"):
        parse_card("J", "en")


def test_hand_separators_spaces_and_commas() -> None:
    assert parse_cards("HK, K10  J") == [Card(Rank.KING, H), Card(Rank.TEN, K), Card.joker()]
    assert parse_cards("HK,K10,J") == parse_cards("HK K10 J")


@pytest.mark.parametrize(
    "text, profile, fragment",
    [
        ("HK HX", "de", "'HX' (2nd card): X is not a rank"),
        ("KH", "de", "did you mean 'HK'"),
        ("HK", "en", "did you mean 'KH'"),
        ("H11", "de", "did you mean 'HB'"),
        ("10H", "de", "did you mean 'H10'"),
        ("S5", "de", "S is not a suit letter in the de notation"),
        ("ZZ", "de", "(1st card)"),
        ("J=X", "de", "joker stands for"),
        ("J=J", "de", "cannot stand for another joker"),
        ("", "de", None),
    ],
)
def test_parse_errors_name_token_position_and_suggestion(
    text: str, profile: Profile, fragment: str | None
) -> None:
    if fragment is None:
        assert parse_cards(text, profile) == []
        return
    with pytest.raises(NotationError) as info:
        parse_cards(text, profile)
    assert fragment in str(info.value)


@pytest.mark.parametrize(
    "token, profile, reason, meant",
    [
        ("TQ", "de", "Q is not a rank (A, 2-10, B, D, K)", "TD"),
        ("HJ", "de", "J is not a rank", "HB"),
        ("PK", "de", None, None),  # Pik König reads
        ("KQ", "de", "Q is not a rank", "KD"),
        ("TT", "de", "T is not a rank", "T10"),
        ("SK", "de", "S is not a suit letter in the de notation", "PK"),
        ("S10", "de", "S is not a suit letter in the de notation", "P10"),
        ("SQ", "de", "Q is not a rank", "PD"),
        ("DH", "en", "D is not a rank (A, 2-10, J, Q, K)", "QH"),
        ("BH", "en", "B is not a rank", "JH"),
        ("QP", "en", "P is not a suit letter in the en notation (C, S, H, D)", "QS"),
        ("10P", "en", "P is not a suit letter in the en notation", "10S"),
        ("JT", "en", "T is not a suit letter in the en notation", "JC"),
        ("AX", "en", "X is not a suit letter in the en notation", "AC"),
        ("DP", "en", "D is not a rank", "QS"),
        ("KK", "en", "it is a card only in the de notation", "KD"),  # as before
    ],
)
def test_a_letter_of_the_other_notation_suggests_the_card_rules_section1(
    token: str, profile: Profile, reason: str | None, meant: str | None
) -> None:
    """RULES.md §1 "suggests the likely intended card where it can"; issue 20 item 24:
    TQ under de said "Q is not a rank" and suggested nothing."""
    if reason is None or meant is None:
        parse_cards(token, profile)
        return
    with pytest.raises(NotationError) as info:
        parse_cards(token, profile)
    assert reason in str(info.value) and f"did you mean '{meant}'?" in str(info.value)
    assert info.value.suggestion == meant
    assert parse_cards(meant, profile)[0].format(profile, ascii=True) == meant


def test_a_letter_of_the_other_notation_is_suggested_in_german() -> None:
    from romme_score.i18n import using_language

    with using_language("de"), pytest.raises(NotationError) as info:
        parse_cards("HK TQ", "de")
    assert "'TQ' (2. Karte)" in str(info.value) and "'TD'" in str(info.value)


def test_output_ascii_fallback() -> None:
    card = Card(Rank.KING, H)
    assert str(card) == "♥K"
    assert card.format("de", ascii=True) == "HK"
    assert card.format("en", ascii=True) == "KH"
    assert Card(Rank.QUEEN, K).format("en") == "♦Q"
    assert Card.joker(Card(Rank.EIGHT, H)).format("de", ascii=True) == "J=H8"


def test_full_deck_two_packs_six_jokers_000_002() -> None:
    deck = full_deck(2, 6)
    assert len(deck) == 110
    assert sum(card.is_joker for card in deck) == 6
    assert all(deck.count(Card(r, s)) == 2 for s in SUITS for r in RANKS)
    assert len(full_deck(1, 0)) == 52 and not any(card.is_joker for card in full_deck(1, 0))


ALL_CARDS = (
    [Card(r, s) for s in SUITS for r in RANKS]
    + [Card.joker()]
    + [Card.joker(Card(r, s)) for s in SUITS for r in RANKS]
)


@given(st.sampled_from(ALL_CARDS), st.sampled_from(PROFILES), st.booleans())
def test_notation_round_trips_every_card_both_profiles(card: Card, profile: Profile, ascii: bool) -> None:
    text = card.format(profile, ascii)
    assert parse_card(text, profile) == card


@given(st.text(max_size=40), st.sampled_from(PROFILES))
def test_parser_raises_only_its_own_error(text: str, profile: Profile) -> None:
    try:
        cards = parse_cards(text, profile)
    except NotationError as exc:
        assert str(exc)
    else:
        assert all(isinstance(c, Card) for c in cards)


@given(st.text(alphabet="HKPTXCSDAJQB0123456789=*()♥♦♠♣ ,", max_size=20), st.sampled_from(PROFILES))
def test_parser_on_card_like_text_raises_only_its_own_error(text: str, profile: Profile) -> None:
    try:
        cards = parse_cards(text, profile)
    except NotationError as exc:
        assert str(exc)
    else:
        assert all(isinstance(c, Card) for c in cards)


# Every character str.split() or the pattern \s takes for whitespace, and a few others.
WHITESPACE = "".join(chr(c) for c in range(0x3001) if chr(c).isspace()) + "\u200b\ufeff\x00"


def split_by_pattern(text: str) -> list[str]:
    """split_tokens as it was: three substitutions and a split on ``[\\s,;]+``."""
    import re

    text = re.sub(r"\s*=\s*", "=", text)
    text = re.sub(r"\s*\(\s*", "(", text)
    text = re.sub(r"\s*\)", ")", text)
    return [t for t in re.split(r"[\s,;]+", text) if t]


@given(st.text(alphabet=WHITESPACE + ",;=()HK10J♥x", max_size=30))
def test_split_tokens_splits_as_the_pattern_did(text: str) -> None:
    """split_tokens no longer compiles patterns for a line without a declaration (start-up,
    issue 20 item 31): str.split() and \\s agree on every whitespace character."""
    from romme_score.cards import split_tokens

    assert split_tokens(text) == split_by_pattern(text)
    assert [c for c in WHITESPACE if c.isspace()] == [
        c for c in WHITESPACE if split_by_pattern(f"a{c}b") == ["a", "b"]
    ]
