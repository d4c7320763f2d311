"""Hostile input on the league and the hints (issue 37 items 1-3): every hint that shows a
command line quotes a person's value as the shell needs, so that the line pasted back gives
that value and runs nothing else; the league board's link carries 144 bits like every other;
``romme serve --league L --new-links`` revokes the board's link."""

from __future__ import annotations

import base64
import json
import os
import shlex
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from clirun import ok, run
from pgtest import fresh_database
from serving import HOST, _first_line

from romme_score.cli.service import open_service
from romme_score.league.service import LeagueService
from romme_score.views.tournament import other_links_note

NAMES = ["O'Brien Cup", "x'; rm -rf ~; '", "Freitag Abend", "Club", 'Cup "$HOME" `id` \\ !']


def command_after(marker: str, text: str) -> list[str]:
    """The words of the command line that follows ``marker`` on its line of ``text``."""
    line = next(line for line in text.splitlines() if marker in line)
    return shlex.split(marker + line.split(marker, 1)[1])


@pytest.mark.parametrize("name", NAMES)
def test_every_hint_quotes_values_as_the_shell_needs_issue_37_item_1(name: str, tmp_path: Path) -> None:
    db = str(tmp_path / "club.sqlite3")
    out = ok("league", "new", name, "--db", db)
    assert command_after("romme league add", out)[:4] == ["romme", "league", "add", name]

    out = ok("tournament", "new", name, "A", "B", "C", "D", "--db", db)
    out = ok("tournament", "draw", "--db", db)
    words = command_after("romme round", out.rstrip(" .\n"))
    assert words[:4] == ["romme", "round", "--session", f"{name} S1 T1"]

    note = other_links_note(name)
    assert command_after("romme tournament sheets", note.split(" (a sheet", 1)[0])[3] == name
    assert command_after("romme serve", note.rstrip("."))[:4] == ["romme", "serve", "--tournament", name]

    out = ok("new", name, name, "Ben", "--db", db)
    words = command_after("romme round", out.rstrip(" .\n"))
    assert words[:5] == ["romme", "round", "--winner", "NAME", "Ben=CARDS"]
    out = ok("new", "Abend", "Ben", name, "--db", db)
    assert command_after("romme round", out.rstrip(" .\n"))[4] == f"{name}=CARDS"

    status, _out, err = run("new", name, "Anna", "Ben", "--db", db)
    assert status == 1
    assert command_after("romme use", err.strip().removesuffix("'")) == ["romme", "use", name]


@contextmanager
def league_board(db: Path, *args: str) -> Iterator[str]:
    """``romme serve --league Club ARGS`` on 127.0.0.1: the board's link while it runs."""
    command = [sys.executable, "-m", "romme_score", "serve", "--db", str(db), "--league", "Club"]
    command += ["--host", HOST, "--port", "0", "--json", *args]
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ)
    )
    try:
        links = json.loads(_first_line(proc, 30))
        assert links["league"] == "Club"
        yield str(links["board"])
    finally:
        if proc.poll() is None:
            proc.terminate()
        try:
            assert proc.wait(timeout=15) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def answer(url: str) -> int:
    with httpx.Client(timeout=10) as client:
        return client.get(f"{url}/state.json").status_code


def bits(board: str) -> int:
    token = board.rstrip("/").rsplit("/", 1)[1]
    return len(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))) * 8


def test_the_league_board_link_carries_144_bits_issue_37_item_2(isolated_data_dir: Path) -> None:
    ok("league", "new", "Club")
    with league_board(isolated_data_dir) as board:
        assert bits(board) >= 144
        assert answer(board) == 200


def test_serve_league_new_links_revokes_the_board_link_issue_37_item_3(isolated_data_dir: Path) -> None:
    ok("league", "new", "Club")
    with league_board(isolated_data_dir) as old:
        assert answer(old) == 200
    with league_board(isolated_data_dir) as kept:  # without --new-links: the same link
        assert kept.rsplit("/", 1)[1] == old.rsplit("/", 1)[1]
    with league_board(isolated_data_dir, "--new-links") as new:
        assert new.rsplit("/", 1)[1] != old.rsplit("/", 1)[1]
        assert bits(new) >= 144
        assert answer(new) == 200
        origin = new.rsplit("/", 1)[0]
        assert answer(f"{origin}/{old.rsplit('/', 1)[1]}") == 404  # the wrong-link page
    with league_board(isolated_data_dir) as again:  # kept: a restart keeps the new link
        assert again.rsplit("/", 1)[1] == new.rsplit("/", 1)[1]
        assert answer(f"{again.rsplit('/', 1)[0]}/{old.rsplit('/', 1)[1]}") == 404


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The database of the test (a file, or a PostgreSQL database of its own)."""
    if request.param == "sqlite":
        yield str(tmp_path / "club.sqlite3")
    else:
        with fresh_database() as url:
            yield url


def test_the_league_token_renewed_in_the_store_issue_37_item_3(db: str) -> None:
    """The renewal on both stores: a new token of 144 bits, kept; the board's version (its
    content) the same."""
    ok("league", "new", "Club", "--db", db)
    with open_service(db, create=False) as service:
        leagues = LeagueService(service)
        before = leagues.league("Club")
        after = leagues.renew_link(before)
        assert after.token != before.token and bits(f"x/{after.token}") >= 144
        assert leagues.version(after) == leagues.version(before)
    with open_service(db, create=False) as service:
        assert LeagueService(service).league("Club").token == after.token
