"""A board's version (``state.json``'s ``"version"``, the event stream's id that a page sends
back as ``Last-Event-ID``) changes with every change of what the board shows and never
comes back to a number it had: a league's when an event is taken out and another added,
a tournament's when a player withdraws or a series is drawn. On SQLite and PostgreSQL."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from clirun import ok
from pgtest import fresh_database
from serving import HOST, _first_line

from romme_score.league.service import LeagueService
from romme_score.sessions import SessionService
from romme_score.store import open_store
from romme_score.tournament import TournamentService


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The database of the test (a file, or a PostgreSQL database of its own)."""
    if request.param == "sqlite":
        yield str(tmp_path / "club.sqlite3")
    else:
        with fresh_database() as url:
            yield url


def session_at(db: str, name: str, version: int) -> None:
    """A session whose change counter is ``version``: made (1), then a round per change."""
    ok("new", name, "Anna", "Ben", "--until", "open", "--db", db)
    for _ in range(version - 1):
        ok("round", "--session", name, "--winner", "Anna", "Ben=5", "--db", db)
    with open_store(db) as store:
        assert store.version(store.session(name)) == version


def league_version(db: str, league: str = "Tausch") -> int:
    with SessionService(db, create=False) as service:
        leagues = LeagueService(service)
        return leagues.version(leagues.league(league))


def swapped(db: str) -> list[int]:
    """The issue's case: VA at version 5 and VB at 3; the league's version after VA is
    added, after it is taken out, and after VB is added."""
    session_at(db, "VA", 5)
    session_at(db, "VB", 3)
    ok("league", "new", "Tausch", "--db", db)
    ok("league", "add", "Tausch", "--session", "VA", "--db", db)
    seen = [league_version(db)]
    ok("league", "remove", "Tausch", "--session", "VA", "--db", db)
    seen.append(league_version(db))
    ok("league", "add", "Tausch", "--session", "VB", "--db", db)
    seen.append(league_version(db))
    return seen


def test_a_league_swapping_a_session_for_another_changes_its_version_issue_37_item_4(db: str) -> None:
    with_va, without, with_vb = swapped(db)
    assert with_va < without < with_vb  # counted up each time: never back to a number it had
    ok("round", "--session", "VB", "--winner", "Anna", "Ben=5", "--db", db)
    assert league_version(db) > with_vb
    ok("round", "--session", "VA", "--winner", "Anna", "Ben=5", "--db", db)  # no longer in it
    assert league_version(db) > with_vb


def test_a_league_taking_out_a_tournament_counts_up_issue_37_item_4(db: str) -> None:
    ok("tournament", "new", "Cup", "Anna", "Ben", "Carl", "Dora", "--db", db)
    ok("tournament", "draw", "--db", db)
    session_at(db, "VB", 3)
    ok("league", "new", "Tausch", "--db", db)
    ok("league", "add", "Tausch", "--tournament", "Cup", "--db", db)
    seen = [league_version(db)]
    ok("league", "remove", "Tausch", "--tournament", "Cup", "--db", db)
    seen.append(league_version(db))
    ok("league", "add", "Tausch", "--session", "VB", "--db", db)
    seen.append(league_version(db))
    ok("tournament", "withdraw", "Cup", "Dora", "--db", db)  # no longer in it: nothing to see
    assert seen == sorted(set(seen)) and league_version(db) == seen[-1]


def tournament_version(db: str) -> int:
    with SessionService(db, create=False) as service:
        tournaments = TournamentService(service)
        return tournaments.version(tournaments.tournament("Cup"))


def test_a_tournament_board_counts_up_with_a_withdrawal_and_a_draw_issue_37_item_4(db: str) -> None:
    """The tournament's board showed the sum of its tables' versions: a withdrawal (shown
    on the board as "(withdrawn)") changed none of them, and the board never heard of it."""
    ok("tournament", "new", "Cup", "Anna", "Ben", "Carl", "Dora", "Emil", "--db", db)
    ok("tournament", "draw", "--db", db)
    seen = [tournament_version(db)]
    ok("tournament", "withdraw", "Cup", "Emil", "--db", db)
    seen.append(tournament_version(db))
    ok("tournament", "draw", "--force", "--db", db)
    seen.append(tournament_version(db))
    assert seen == sorted(set(seen))
    ok("league", "new", "Tausch", "--db", db)
    ok("league", "add", "Tausch", "--tournament", "Cup", "--db", db)
    before = league_version(db)
    ok("tournament", "withdraw", "Cup", "Dora", "--db", db)  # the league's board hears of it too
    assert league_version(db) > before


def test_a_league_board_reconnecting_after_the_swap_hears_of_it_issue_37_item_4(
    isolated_data_dir: Path,
) -> None:
    """The page's stream, reconnecting with the version it saw before the swap as its
    ``Last-Event-ID``, gets the new version at once."""
    db = str(isolated_data_dir / "romme.sqlite3")
    session_at(db, "VA", 5)
    session_at(db, "VB", 3)
    ok("league", "new", "Tausch", "--db", db)
    ok("league", "add", "Tausch", "--session", "VA", "--db", db)
    command = [sys.executable, "-m", "romme_score", "serve", "--db", db]
    command += ["--league", "Tausch", "--host", HOST, "--port", "0", "--json"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        board = str(json.loads(_first_line(proc, 30))["board"])
        with httpx.Client(timeout=10) as client:
            seen = client.get(f"{board}/state.json").json()["version"]
            ok("league", "remove", "Tausch", "--session", "VA", "--db", db)
            ok("league", "add", "Tausch", "--session", "VB", "--db", db)
            now = client.get(f"{board}/state.json").json()
            assert [e["name"] for e in now["events"]] == ["VB"]
            assert now["version"] != seen
            headers = {"last-event-id": str(seen)}
            with client.stream("GET", f"{board}/events", headers=headers) as stream:
                assert stream.status_code == 200
                first = next(stream.iter_lines())
                assert first == f"id: {now['version']}"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
