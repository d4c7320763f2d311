"""One input layer for players and hands (issue 18 item 1): ``inputs.choose_player`` and
``inputs.read_hand`` read what is typed for a player and a hand, in the table mode and on
the command line alike, and each mistake gets one sentence, the same everywhere."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterator
from typing import Any

import pytest
from clirun import ok, run
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
from romme_score.scoring import Hand, RoundError, RoundInput, score_round, unknown_player_message
from romme_score.sessions import RoundReferee
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
    return RoundEntry(RoundReferee(players, rules, lambda r: score_round(players, {}, r, rules)))


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
        "unbekannter Spieler 'bne'; war Ben gemeint? (Spieler: Anna, Ben, Carl, Dora)",
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


# names as the store keeps them: composed (NFC), as every door composes what is typed
names = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=8).map(
    lambda s: unicodedata.normalize("NFC", s).strip()
)
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
        assert (
            str(exc)
            and exc.text == unicodedata.normalize("NFC", typed.strip())
            and exc.players == tuple(players)
        )
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
        "Ben: die Restkarten tippen oder eine Punktzahl (0 für keine)",
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
    assert e.default == ""  # asked again on an empty line (issue 20 item 3): no '51'


# --- the command line reads through the same layer ---------------------------------------

ANN_ANNA = ("Ann", "Anna", "Ben")


def table_mode_says(players: tuple[str, ...], typed: str) -> str:
    """What the table mode's round entry says when ``typed`` is given as the winner."""
    e = entry(players)
    e.answer(typed)
    assert e.step is Step.WINNER and e.message is not None
    return e.message


def romme(lang: str, *args: str, input: str | None = None) -> tuple[int, str, str]:
    """``romme --lang LANG ARGS...`` in-process; the language stays LANG for the test."""
    result = run("--lang", lang, *args, input=input)
    i18n.set_language(lang)
    return result


def recorded() -> list[dict[str, Any]]:
    rounds: list[dict[str, Any]] = json.loads(ok("standings", "--json"))["rounds"]
    return rounds


def test_winner_an_with_ann_and_anna_says_the_table_modes_sentence_everywhere(lang: str) -> None:
    assert romme(lang, "new", "T", *ANN_ANNA)[0] == 0
    sentence = table_mode_says(ANN_ANNA, "an")
    assert sentence == (
        "'an' könnte Ann oder Anna sein: mehr Buchstaben tippen"
        if lang == "de"
        else "'an' could be Ann or Anna: type more letters"
    )
    error = "Fehler" if lang == "de" else "Error"
    code, _, err = romme(lang, "round", "--winner", "an", "Anna=5", "Ben=5")
    assert (code, err) == (2, f"{error}: --winner: {sentence}\n")
    code, _, err = romme(lang, "edit", "1", "--winner", "an")
    assert (code, err) == (2, f"{error}: --winner: {sentence}\n")
    code, _, err = romme(lang, "round", "--winner", "ben", "an=5", "Anna=5")
    assert (code, err) == (2, f"{error}: {sentence}\n")
    code, _, err = romme(lang, "round", "--winner", "ben", "Ann=5", "Anna=5", "--never-out", "an")
    assert (code, err) == (2, f"{error}: --never-out: {sentence}\n")
    # a script line of the table mode, and the interactive round (its entry; then input ends)
    code, _, err = romme(lang, "play", input="round --winner an Anna=5 Ben=5\n")
    assert code == 1 and f"{error}: --winner: {sentence}\n" in err
    code, out, err = romme(lang, "round", "-i", input="an\n")
    assert code == 1 and sentence in err.splitlines()  # then input ends: not saved (issue 20 item 9)
    assert recorded() == []


def test_winner_by_name_prefix_or_seat_on_the_command_line() -> None:
    ok("new", "T", *ANN_ANNA)
    for winner in ("ben", " BEN ", "b", "3", "٣"):
        ok("round", "--winner", winner, "Ann=5", "Anna=6")
    assert [r["winner"] for r in recorded()] == ["Ben"] * 5


def test_a_player_named_2_wins_over_seat_2_on_the_command_line() -> None:
    ok("new", "T", "Anna", "Ben", "2")
    ok("round", "--winner", "2", "1=5", "b=6")
    ok("round", "--winner", "1", "2=5", "Ben=6")
    assert [(r["winner"], r["points"]) for r in recorded()] == [
        ("2", {"Anna": 5, "Ben": 6, "2": 0}),
        ("Anna", {"Anna": 0, "Ben": 6, "2": 5}),
    ]
    code, _, err = run("round", "--winner", "4", "Anna=5", "Ben=6")
    assert code == 2 and err == "Error: --winner: there is no seat 4 (seats: 1 Anna, 2 Ben, 3 2)\n"


def test_name_cards_arguments_never_out_and_edit_take_seats_and_prefixes() -> None:
    ok("new", "T", "Anna", "Ben", "Carl", "--rule", "never_out_doubles=true")
    ok("round", "--winner", "a", "2=HK", "c=5", "--never-out", "2")
    ok("edit", "1", "C=HK K10")
    assert recorded()[0]["points"] == {"Anna": 0, "Ben": 20, "Carl": 20}
    code, _, err = run("round", "--winner", "a", "b=5", "Ben=6", "Carl=1")
    assert code == 2 and err == "Error: Ben is given twice in this round\n"


def test_the_dealer_is_chosen_as_every_other_player() -> None:
    code, _, err = run("new", "T", *ANN_ANNA, "--dealer", "an")
    assert (code, err) == (2, f"Error: --dealer: {table_mode_says(ANN_ANNA, 'an')}\n")
    assert "Ben deals first" in ok("new", "T", *ANN_ANNA, "--dealer", "b")
    assert "Anna deals first" in ok("new", "U", *ANN_ANNA, "--dealer", "2")


@pytest.mark.parametrize("typed", ["bne", "7"])  # the command line had no difflib hint for bne, no seats
def test_an_unknown_or_seatless_winner_gets_one_sentence_on_the_command_line_and_at_the_table(
    lang: str, typed: str
) -> None:
    ok("new", "T", *PLAYERS)
    code, _, err = romme(lang, "round", "--winner", typed, "Anna=1", "Carl=2", "Dora=3")
    error = "Fehler" if lang == "de" else "Error"
    assert (code, err) == (2, f"{error}: --winner: {table_mode_says(PLAYERS, typed)}\n")


@pytest.mark.parametrize(  # the ones where the command line and the table mode used to differ
    "text, problem, english, german", [m for m in HAND_MISTAKES if m[0] not in ("HK HX", "²")]
)
def test_a_hand_mistake_on_the_command_line_is_the_table_modes_sentence(
    lang: str, text: str, problem: HandProblem, english: str, german: str
) -> None:
    ok("new", "T", *PLAYERS)
    code, _, err = romme(lang, "round", "--winner", "a", f"Ben={text}", "Carl=2", "Dora=3")
    error = "Fehler" if lang == "de" else "Error"
    assert (code, err) == (2, f"{error}: {german if lang == 'de' else english}\n")
    e = entry()
    e.answer("a")
    e.answer(text)
    assert e.current == "Ben" and e.message == (german if lang == "de" else english)


def test_a_round_given_by_name_and_an_export_say_choose_players_sentence(lang: str) -> None:
    for name in ("bne", "Zed", "ben"):  # ben: an exact name is needed there
        with pytest.raises(RoundError) as caught:
            score_round(PLAYERS, {}, RoundInput("Anna", {name: Hand(points=1)}), find_preset("standard"))
        assert str(caught.value) == unknown_player_message(name, PLAYERS)
    with pytest.raises(PlayerChoiceError) as chosen:
        choose_player("bne", PLAYERS)
    assert unknown_player_message("bne", PLAYERS) == str(chosen.value)


def test_decomposed_umlauts_are_the_names_they_look_like_issue_37_item_11() -> None:
    """`romme round --winner $'Jo\\xcc\\x88rg' Bärbel=5 Özil=6` (an umlaut decomposed, NFD,
    as macOS writes it) said "unknown player 'Jörg'; did you mean Jörg?". Names, sessions
    and players typed either way are the same text (NFC)."""
    nfd = "Jo\u0308rg"
    ok("new", "Ba\u0308rbels Abend", "Jörg", "Ba\u0308rbel", "Özil")  # a name kept as NFC
    said = ok("round", "--winner", nfd, "Bärbel=5", "O\u0308zil=6")
    assert "Round 1 of 'Bärbels Abend':" in said, said
    assert json.loads(ok("standings", "--session", "Bärbels Abend", "--json"))["session"] == "Bärbels Abend"
    code, _out, err = run("new", "Zwei", "Jörg", nfd)
    assert code == 2 and "Jörg" in err  # the same name twice
    assert choose_player(nfd, ["Anna", "Jörg"]) == "Jörg"
    assert choose_player("jö", ["Anna", nfd]) == nfd  # a name kept before as typed
    assert choose_player("ba\u0308", ["Bärbel", "Ben"]) == "Bärbel"
