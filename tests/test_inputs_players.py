"""One input layer for players and hands (issue 18 item 1): ``inputs.choose_player`` and
``inputs.read_hand`` read what is typed for a player and a hand, in the table mode and on
the command line alike, and each mistake gets one sentence, the same everywhere."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from romme_score import i18n
from romme_score.cards import NotationError, parse_cards
from romme_score.inputs import (
    ChoiceProblem,
    HandInputError,
    HandProblem,
    PlayerChoiceError,
    choose_player,
    read_hand,
)
from romme_score.rules import find_preset
from romme_score.scoring import score_round
from romme_score.table.entry import RoundEntry, Step

PLAYERS = ("Anna", "Ben", "Carl", "Dora")


@pytest.fixture(params=["en", "de"])
def lang(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each test that takes it runs in English and in German, and leaves the language as it was."""
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language(None)


def entry(players: tuple[str, ...] = PLAYERS) -> RoundEntry:
    rules = find_preset("standard")
    return RoundEntry(players, rules, lambda r: score_round(players, {}, r, rules))


# --- choosing a player -----------------------------------------------------------------


@pytest.mark.parametrize(
    "typed, players, meant",
    [
        ("b", PLAYERS, "Ben"),  # a unique prefix
        ("ca", PLAYERS, "Carl"),
        ("BEN", PLAYERS, "Ben"),  # case
        ("  dora\t", PLAYERS, "Dora"),  # surrounding spaces
        ("  B ", PLAYERS, "Ben"),
        ("2", PLAYERS, "Ben"),  # a seat, counted from 1
        (" 4 ", PLAYERS, "Dora"),
        ("02", PLAYERS, "Ben"),
        ("٢", PLAYERS, "Ben"),  # digits of any script, as for points
        ("２", PLAYERS, "Ben"),
        ("ann", ("Ann", "Anna", "Ben"), "Ann"),  # a name typed in full wins over a prefix
        ("ANN", ("Anna", "Ann"), "Ann"),
        ("anna", ("Ann", "Anna"), "Anna"),
        ("2", ("Anna", "Ben", "2"), "2"),  # a player named 2 wins over seat 2
        ("3", ("Anna", "Ben", "2"), "2"),  # ... who is also seat 3
        ("1", ("Anna", "Ben", "2"), "Anna"),
        ("ÄRNE", ("ärne", "Ben"), "ärne"),  # case of any alphabet
    ],
)
def test_choose_player_by_seat_name_or_unique_prefix_ignoring_case_and_spaces(
    typed: str, players: tuple[str, ...], meant: str
) -> None:
    assert choose_player(typed, players) == meant


PLAYER_MISTAKES = [
    # (typed, players, problem, English, German)
    (
        "an",
        ("Ann", "Anna", "Ben"),
        ChoiceProblem.AMBIGUOUS,
        "'an' could be Ann or Anna: type more letters",
        "'an' könnte Ann oder Anna sein: mehr Buchstaben tippen",
    ),
    (
        "a",
        ("Ann", "Anna", "Andi"),
        ChoiceProblem.AMBIGUOUS,
        "'a' could be Ann, Anna or Andi: type more letters",
        "'a' könnte Ann, Anna oder Andi sein: mehr Buchstaben tippen",
    ),
    (
        "bne",
        PLAYERS,
        ChoiceProblem.UNKNOWN,
        "unknown player 'bne'; did you mean Ben? (players: Anna, Ben, Carl, Dora)",
        "unbekannter Spieler 'bne'; meinst du Ben? (Spieler: Anna, Ben, Carl, Dora)",
    ),
    (
        "Zed",
        PLAYERS,
        ChoiceProblem.UNKNOWN,
        "unknown player 'Zed' (players: Anna, Ben, Carl, Dora)",
        "unbekannter Spieler 'Zed' (Spieler: Anna, Ben, Carl, Dora)",
    ),
    (
        "5",
        PLAYERS,
        ChoiceProblem.NO_SEAT,
        "there is no seat 5 (seats: 1 Anna, 2 Ben, 3 Carl, 4 Dora)",
        "es gibt keinen Platz 5 (Plätze: 1 Anna, 2 Ben, 3 Carl, 4 Dora)",
    ),
    (
        "0",
        ("Anna", "Ben"),
        ChoiceProblem.NO_SEAT,
        "there is no seat 0 (seats: 1 Anna, 2 Ben)",
        "es gibt keinen Platz 0 (Plätze: 1 Anna, 2 Ben)",
    ),
    (
        " ",
        ("Anna", "Ben"),
        ChoiceProblem.EMPTY,
        "no player given: a seat number, a name or its first letters (players: Anna, Ben)",
        "kein Spieler angegeben: eine Platznummer, ein Name oder seine ersten Buchstaben "
        "(Spieler: Anna, Ben)",
    ),
]


@pytest.mark.parametrize("typed, players, problem, english, german", PLAYER_MISTAKES)
def test_each_player_mistake_is_one_sentence_in_english_and_german(
    lang: str, typed: str, players: tuple[str, ...], problem: ChoiceProblem, english: str, german: str
) -> None:
    with pytest.raises(PlayerChoiceError) as caught:
        choose_player(typed, players)
    assert str(caught.value) == (german if lang == "de" else english)
    assert caught.value.problem is problem


def test_the_player_choice_error_carries_the_facts() -> None:
    with pytest.raises(PlayerChoiceError) as ambiguous:
        choose_player(" AN ", ("Ann", "Anna", "Ben"))
    assert (ambiguous.value.text, ambiguous.value.candidates) == ("AN", ("Ann", "Anna"))
    assert ambiguous.value.players == ("Ann", "Anna", "Ben")
    with pytest.raises(PlayerChoiceError) as unknown:
        choose_player("bne", PLAYERS)
    assert (unknown.value.text, unknown.value.close, unknown.value.players) == ("bne", "Ben", PLAYERS)
    with pytest.raises(PlayerChoiceError) as seat:
        choose_player("7", PLAYERS)
    assert (seat.value.seat, seat.value.problem) == (7, ChoiceProblem.NO_SEAT)


@pytest.mark.parametrize("typed", ["²", "½", "Ⅱ", "1" * 5000, "-1", "+2", "2.0"])
def test_what_only_looks_like_a_seat_is_refused_by_the_players_own_error(typed: str) -> None:
    with pytest.raises(PlayerChoiceError):  # never int()'s ValueError ("²".isdigit() is True)
        choose_player(typed, PLAYERS)


names = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=8).map(str.strip)
player_lists = st.lists(names.filter(bool), min_size=1, max_size=6, unique_by=str.casefold)


@given(player_lists, st.data())
def test_choose_player_returns_a_player_or_raises_its_own_error(
    players: list[str], data: st.DataObject
) -> None:
    near = st.sampled_from(
        players
    ).flatmap(  # first letters, other case, spaces, seats
        lambda p: st.sampled_from([p[:1], p[:2].upper(), f" {p[:3]} ", p + "x", p[1:]])
    )
    seats = st.integers(-1, 9).map(str)
    typed = data.draw(st.one_of(st.text(max_size=12), near, seats))
    try:
        found = choose_player(typed, players)
    except PlayerChoiceError as exc:
        assert str(exc) and exc.text == typed.strip() and exc.players == tuple(players)
    else:
        assert found in players


@given(player_lists)
def test_a_name_typed_in_full_is_always_that_player(players: list[str]) -> None:
    for player in players:
        assert choose_player(player, players) == player
        if player.upper().casefold() == player.casefold():  # not so for the dotless ı
            assert choose_player(f" {player.upper()} ", players) in players


# --- reading a hand --------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, profile",
    [("HK K10 J", "de"), ("♥K ♦10 🃏", "de"), ("KH 10D JK", "en"), ("kh, 10d, *", "en"), ("♥K ♦10 J", "de")],
)
def test_read_hand_takes_cards_in_either_profile(text: str, profile: str) -> None:
    hand = read_hand("Ben", text, "en" if profile == "en" else "de")
    assert hand.cards == tuple(parse_cards("HK K10 J")) and hand.points is None


@pytest.mark.parametrize("text", ["23", " 23 ", "٢٣", "２３", "۲۳", "+23"])
def test_read_hand_takes_points_in_the_digits_of_any_script(text: str) -> None:
    assert read_hand("Ben", text).points == 23


def test_read_hand_marks_never_out() -> None:
    assert (
        read_hand("Ben", "HK", never_out=True).never_out and read_hand("Ben", "5", never_out=True).never_out
    )
    assert not read_hand("Ben", "5").never_out
    assert read_hand("Ben", "-0").points == 0  # minus nothing is nothing


HAND_MISTAKES = [
    # (text, problem, English, German)
    (
        "  ",
        HandProblem.EMPTY,
        "Ben: type the cards left in hand, or a number of points (0 for none)",
        "Ben: die Restkarten auf der Hand tippen, oder eine Punktzahl (0 für keine)",
    ),
    (
        "-5",
        HandProblem.NEGATIVE,
        "Ben=-5: points left in hand cannot be negative",
        "Ben=-5: Punkte auf der Hand können nicht negativ sein",
    ),
    (
        "-٥",
        HandProblem.NEGATIVE,
        "Ben=-٥: points left in hand cannot be negative",
        "Ben=-٥: Punkte auf der Hand können nicht negativ sein",
    ),
    (
        "HK HX",
        HandProblem.NOTATION,
        "Ben: cannot read card 'HX' (2nd card): X is not a rank (A, 2-10, B, D, K)",
        "Ben: Karte 'HX' (2. Karte) nicht lesbar: X ist kein Wert (A, 2-10, B, D, K)",
    ),
    (
        "²",
        HandProblem.POINTS,
        "Ben=²: '²' is not a whole number (use the digits 0-9)",
        "Ben=²: '²' ist keine ganze Zahl (die Ziffern 0-9 verwenden)",
    ),
    (
        "--5",
        HandProblem.POINTS,
        "Ben=--5: '--5' is not a whole number (use the digits 0-9)",
        "Ben=--5: '--5' ist keine ganze Zahl (die Ziffern 0-9 verwenden)",
    ),
]


@pytest.mark.parametrize("text, problem, english, german", HAND_MISTAKES)
def test_each_hand_mistake_is_one_sentence_naming_the_player_in_english_and_german(
    lang: str, text: str, problem: HandProblem, english: str, german: str
) -> None:
    with pytest.raises(HandInputError) as caught:
        read_hand("Ben", text)
    assert str(caught.value) == (german if lang == "de" else english)
    assert (caught.value.problem, caught.value.player, caught.value.text) == (problem, "Ben", text.strip())


def test_an_unreadable_hand_keeps_the_notations_own_error() -> None:
    with pytest.raises(HandInputError) as caught:
        read_hand("Ben", "HK KH", "de")
    notation = caught.value.notation
    assert isinstance(notation, NotationError)
    assert (
        str(caught.value) == f"Ben: {notation}" and "(2nd card)" in str(notation) and "'HK'" in str(notation)
    )


# --- the table mode reads through the same layer ----------------------------------------


def test_the_table_modes_winner_and_summary_never_fail_on_a_superscript_digit() -> None:
    e = entry()
    e.answer("²")
    assert e.message == "unknown player '²' (players: Anna, Ben, Carl, Dora)"
    for line in ("a", "1", "2", "3"):
        e.answer(line)
    assert e.step is Step.SUMMARY
    e.answer("²")
    assert e.message is not None and "'²' is not a choice here" in e.message
    assert e.round_input().winner == "Anna"  # still at the summary, nothing changed


@pytest.mark.parametrize("typed, players, problem, english, german", PLAYER_MISTAKES[:5])
def test_the_table_mode_says_the_sentence_of_the_input_layer(
    lang: str, typed: str, players: tuple[str, ...], problem: ChoiceProblem, english: str, german: str
) -> None:
    e = entry(players)
    e.answer(typed)
    assert e.step is Step.WINNER and e.message == (german if lang == "de" else english)
    assert e.default == typed.strip()
