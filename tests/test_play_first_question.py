"""The first question of a fresh ``romme play`` ("Name of the game>") takes the window's
words too (issue 30 item 9): ``new Abend Anna Ben`` starts that game, ``help`` explains,
``quit`` leaves; in a real pseudo-terminal (the harness of tests/test_play_terminal.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_play_terminal import points
from test_play_terminal_evening import Evening, make_session

SIZES = [("en", 80), ("de", 60)]
NEW = {"en": "new", "de": "neu"}
QUIT = {"en": "quit", "de": "ende"}
ONE_LINE = {"en": "new Friday Anna Ben Carl", "de": "neu Freitag Anna Ben Carl"}


@pytest.mark.parametrize(("lang", "cols"), SIZES, ids=[f"{lang}-{cols}" for lang, cols in SIZES])
def test_new_name_players_at_the_first_question_starts_that_game_issue30_item9(
    isolated_data_dir: Path, lang: str, cols: int
) -> None:
    term = Evening(["play"], isolated_data_dir, lang, cols)
    try:
        term.wait_for(term.says("name_prompt"))
        term.type("help\r", ONE_LINE[lang])  # help explains, the one line too
        term.wait_for(term.says("name_prompt"), count=2)
        term.type(f"{NEW[lang]} Abend Anna Ben\r", term.prompt(1, "Abend"))
        assert term.says("players_prompt") not in term.text  # no second question
        term.type("1\r5\r", term.says("enter"))  # Anna went out, Ben has 5
        term.type("\r", term.prompt(2, "Abend"))
        term.assert_fits()
        term.leave()
    finally:
        if term.child.isalive():
            term.child.terminate(force=True)
    assert points(isolated_data_dir, "Abend") == [{"Anna": 0, "Ben": 5}]


@pytest.mark.parametrize(("lang", "cols"), SIZES, ids=[f"{lang}-{cols}" for lang, cols in SIZES])
def test_new_with_a_name_alone_asks_the_players_and_quit_with_words_leaves_issue30_item9(
    isolated_data_dir: Path, lang: str, cols: int
) -> None:
    term = Evening(["play"], isolated_data_dir, lang, cols)
    try:
        term.wait_for(term.says("name_prompt"))
        term.type(f"{NEW[lang]} --help\r", {"en": "Usage:", "de": "Aufruf:"}[lang])  # starts no game
        term.type(f"{NEW[lang]} Abend\r", term.says("players_prompt"))
        term.type("Anna Ben\r", term.prompt(1, "Abend"))
        term.leave()
        term = Evening(
            ["play", "--db", str(isolated_data_dir.parent / "other.sqlite3")], isolated_data_dir, lang, cols
        )
        term.wait_for(term.says("name_prompt"))
        term.type(f"{QUIT[lang]} now\r")  # quit takes no words, but leaves
        assert term.close() == 0
    finally:
        if term.child.isalive():
            term.child.terminate(force=True)
    assert points(isolated_data_dir, "Abend") == []
    assert not (isolated_data_dir.parent / "other.sqlite3").exists()


def test_use_at_the_first_question_plays_a_session_of_the_database_issue30_item9(
    isolated_data_dir: Path,
) -> None:
    make_session(isolated_data_dir, "Friday", ["Anna", "Ben"])
    from romme_score.sessions import SessionService

    with SessionService(isolated_data_dir) as service:  # no session current: play asks for one
        service.create("Other", ["Xaver", "Yvonne"], service.session("Friday").rules, None, None)
        service.delete("Other")
    term = Evening(["play"], isolated_data_dir, "en", 80)
    try:
        term.wait_for(term.says("name_prompt"))
        term.type("use Friday\r", term.prompt(1, "Friday"))
        term.leave()
    finally:
        if term.child.isalive():
            term.child.terminate(force=True)
