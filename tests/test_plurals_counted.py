"""Counted nouns take their number (a new user's trial, issue 30: ``romme new Solo Anna``
said "1 players"): each sentence that counts players, games, series or points is an
``ngettext`` in both catalogs, so one of them reads "1 player", "1 Spiel", "1 Punkt"."""

from __future__ import annotations

import pytest
from clirun import ok, run

from romme_score.i18n import using_language


def refused(*args: str) -> str:
    code, out, err = run(*args)
    assert code == 2 and not out, (code, out, err)
    return err.strip()


def test_a_session_of_one_player_says_1_player_trial_issue30() -> None:
    assert refused("new", "Solo", "Anna") == "Error: 1 player, but these rules seat 2 to 6"
    assert refused("--lang", "de", "new", "Solo", "Anna").startswith("Fehler: 1 Spieler, aber diese Regeln")
    many = [f"P{i}" for i in range(7)]
    assert refused("new", "Big", *many).startswith("Error: 7 players, but these rules seat 2 to 6")


def test_a_tournament_of_one_player_says_1_player_is_too_few_trial_issue30() -> None:
    assert refused("tournament", "new", "Cup", "Anna").startswith("Error: 1 player is too few: a table needs")
    assert refused("--lang", "de", "tournament", "new", "Cup", "Anna").startswith(
        "Fehler: 1 Spieler ist zu wenig: ein Tisch braucht mindestens 3"
    )
    assert refused("tournament", "new", "Cup", "Anna", "Ben").startswith("Error: 2 players are too few")
    assert refused("--lang", "de", "tournament", "new", "Cup", "Anna", "Ben").startswith(
        "Fehler: 2 Spieler sind zu wenige"
    )


def test_a_tournament_of_one_series_of_one_game_counts_them_in_the_singular_trial_issue30() -> None:
    ok("tournament", "new", "Cup", "Anna", "Ben", "Carl", "--games", "1", "--series", "1", "--seed", "7")
    ok("tournament", "draw")
    assert "table 1 of series 1 has played 0 of 1 game." in ok("tournament", "standings")
    assert "Tisch 1 der Serie 1 hat 0 von 1 Spiel gespielt." in ok("--lang", "de", "tournament", "standings")
    sheets = ok("tournament", "sheets")
    assert "· 1 game ·" in sheets and "1 games" not in sheets
    assert "· 1 Spiel ·" in ok("--lang", "de", "tournament", "sheets")
    ok("round", "--session", "Cup S1 T1", "--winner", "1", "2=5", "3=5")
    code, _out, err = run("tournament", "draw")
    assert code == 1 and "tournament 'Cup' has 1 series, and it is drawn" in err, err
    code, _out, err = run("--lang", "de", "tournament", "draw")
    assert code == 1 and "das Turnier 'Cup' hat 1 Serie, und sie ist ausgelost" in err, err
    assert "Endstand nach 1 Serie<" in ok("--lang", "de", "tournament", "sheets")
    assert "final ranking after 1 series" in ok("tournament", "sheets")


@pytest.mark.parametrize(
    ("lang", "one", "two"),
    [
        ("en", "Table 1: complete (1 game)", "Table 1: complete (2 games)"),
        ("de", "Tisch 1: fertig (1 Spiel)", "Tisch 1: fertig (2 Spiele)"),
    ],
)
def test_the_boards_table_line_counts_its_games_trial_issue30(lang: str, one: str, two: str) -> None:
    from romme_score.views.tournament import table_line

    with using_language(lang):
        assert table_line(1, 1, 1) == one
        assert table_line(1, 2, 2) == two


@pytest.mark.parametrize(
    ("lang", "one", "eleven"),
    [
        ("en", "Table 1: 1 of 2 games played", "Table 3: 11 of 16 games played"),
        ("de", "Tisch 1: 1 von 2 Spielen gespielt", "Tisch 3: 11 von 16 Spielen gespielt"),
    ],
)
def test_the_boards_table_line_says_the_games_played_not_the_game_under_way(
    lang: str, one: str, eleven: str
) -> None:
    """The line said "Table 1: game 1 of 2" when table 1 had played 1 of its 2 games (its
    "T1 1/2" in the ranking): read as its first game under way. It counts the games played."""
    from romme_score.views.tournament import table_line

    with using_language(lang):
        assert table_line(1, 1, 2) == one
        assert table_line(3, 11, 16) == eleven


def test_a_game_won_with_1_point_says_1_point_trial_issue30() -> None:
    ok("new", "G", "Anna", "Ben", "--rule", "game_end=rounds:2")
    ok("round", "--winner", "Anna", "Ben=20")
    assert "Game over: Anna won with 1 point." in ok("round", "--winner", "Ben", "Anna=1")
    assert "Partie vorbei: Anna gewinnt mit 1 Punkt." in ok("--lang", "de", "standings")
    assert "Game over: Anna won with 1 point." in ok("play", input="standings\n")


def test_one_joker_where_none_is_in_play_says_1_joker_trial_issue30() -> None:
    """``romme check "HK KK JO" --rule jokers=0`` said "1 jokers, but only 0 are in play"."""
    code, out, _err = run("check", "HK KK JO", "--rule", "jokers=0")
    assert code == 1 and "NOT possible: 1 joker, more than are in play (jokers in play: 0)" in out, out
    code, out, _err = run("check", "HK KK JO", "PK JO KA", "--rule", "jokers=1")
    assert code == 1 and "NOT possible: 2 jokers, more than are in play (jokers in play: 1)" in out, out
    code, out, _err = run("--lang", "de", "check", "HK KK JO", "--rule", "jokers=0")
    assert code == 1 and "NICHT möglich: 1 Joker, mehr als im Spiel sind (Joker im Spiel: 0)" in out, out
