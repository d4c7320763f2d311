"""A session that counts in a league (docs/rules.md §11) is not taken out of the season by a
side door: ``romme sessions delete`` refuses it with one sentence naming the league and the
way out (``romme league remove``), nothing written; ``romme import --replace`` keeps it in
the league, at its place among the events, with the season read from the new rounds and the
league's version moved for its board. On SQLite and PostgreSQL alike."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from clirun import ok, run
from pgtest import fresh_database

from romme_score.store import StoreError, open_store
from romme_score.store.errors import NoSuchSession, SessionInLeague

LEAGUE = "Saison 2026"


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The database of the test (a file, or a PostgreSQL database of its own)."""
    if request.param == "sqlite":
        yield str(tmp_path / "club.sqlite3")
    else:
        with fresh_database() as url:
            yield url


def evening(db: str, name: str, winner: str, **hands: int) -> None:
    ok("new", name, "Anna", "Ben", "Carl", "--until", "open", "--rule", "winner_bonus=0", "--db", db)
    ok("round", "--session", name, "--winner", winner, *(f"{p}={v}" for p, v in hands.items()), "--db", db)


def season(db: str, *leagues: str) -> None:
    """Freitag (Anna wins) and Samstag (Ben wins), in that order, in every league named."""
    evening(db, "Freitag", "Anna", Ben=20, Carl=30)
    evening(db, "Samstag", "Ben", Anna=20, Carl=30)
    for league in leagues:
        ok("league", "new", league, "--db", db)
        ok("league", "add", league, "--session", "Freitag", "--session", "Samstag", "--db", db)


def standings(db: str, league: str = LEAGUE) -> Any:
    return json.loads(ok("league", "standings", league, "--json", "--db", db))


def held(db: str) -> Any:
    """What the database holds, as the commands show it: the sessions and every league's standings."""
    leagues = [row["name"] for row in json.loads(ok("league", "list", "--json", "--db", db))["leagues"]]
    return json.loads(ok("sessions", "--json", "--db", db)), [standings(db, name) for name in leagues]


def placed(data: Any) -> list[tuple[str, int, int]]:
    return [(p["name"], p["place"], p["points"]) for p in data["players"]]


def test_deleting_a_session_in_a_league_is_refused_naming_the_league_and_the_way_out_issue_29(
    db: str,
) -> None:
    season(db, LEAGUE)
    before = held(db)
    status, out, err = run("sessions", "delete", "Freitag", "--yes", "--db", db)
    assert (status, out) == (1, ""), err
    assert err.strip() == (
        "Error: session 'Freitag' counts in league 'Saison 2026'; it was left as it is: take it out "
        "first with romme league remove 'Saison 2026' --session Freitag"
    )
    status, out, err = run("--lang", "de", "sessions", "delete", "Freitag", "--yes", "--db", db)
    assert (status, out) == (1, ""), err
    assert err.strip() == (
        "Fehler: die Partie 'Freitag' zählt in der Liga 'Saison 2026'; sie bleibt, wie sie ist: "
        "erst herausnehmen mit romme league remove 'Saison 2026' --session Freitag"
    )
    assert held(db) == before
    assert [e["name"] for e in standings(db)["events"]] == ["Freitag", "Samstag"]


def test_a_session_in_two_leagues_names_both_and_both_ways_out_issue_29(db: str) -> None:
    season(db, LEAGUE, "Pokal")
    before = held(db)
    status, _out, err = run("sessions", "delete", "Samstag", "--yes", "--db", db)
    assert status == 1 and err.strip() == (
        "Error: session 'Samstag' counts in leagues 'Saison 2026', 'Pokal'; it was left as it is: take "
        "it out first with romme league remove 'Saison 2026' --session Samstag and romme league "
        "remove Pokal --session Samstag"
    )
    status, _out, err = run("--lang", "de", "sessions", "delete", "Samstag", "--yes", "--db", db)
    assert status == 1 and err.strip() == (
        "Fehler: die Partie 'Samstag' zählt in den Ligen 'Saison 2026', 'Pokal'; sie bleibt, wie sie "
        "ist: erst herausnehmen mit romme league remove 'Saison 2026' --session Samstag und romme "
        "league remove Pokal --session Samstag"
    )
    assert held(db) == before


def test_after_league_remove_the_session_is_deleted_and_the_season_goes_on_without_it_issue_29(
    db: str,
) -> None:
    season(db, LEAGUE)
    ok("league", "remove", LEAGUE, "--session", "Freitag", "--db", db)
    assert ok("sessions", "delete", "Freitag", "--yes", "--db", db).strip() == "Session 'Freitag' deleted."
    data = standings(db)
    assert [e["name"] for e in data["events"]] == ["Samstag"]
    assert placed(data) == [("Ben", 1, 10), ("Anna", 2, 8), ("Carl", 3, 6)]


def league_version(db: str) -> int:
    with open_store(db) as store:
        return store.league_version(store.league(LEAGUE))


def test_import_replace_keeps_the_session_in_its_league_at_its_place_with_the_new_rounds_issue_29(
    db: str, tmp_path: Path
) -> None:
    season(db, LEAGUE)
    assert placed(standings(db)) == [("Anna", 1, 18), ("Ben", 1, 18), ("Carl", 3, 12)]
    # Freitag as it was really played (Ben won), written on another machine
    other = str(tmp_path / "other.sqlite3")
    evening(other, "Freitag", "Ben", Anna=5, Carl=40)
    ok("export", "--session", "Freitag", "-o", str(tmp_path / "freitag.json"), "--db", other)
    version = league_version(db)
    ok("import", str(tmp_path / "freitag.json"), "--replace", "--db", db)
    data = standings(db)
    assert [e["name"] for e in data["events"]] == ["Freitag", "Samstag"]  # at its place, not appended
    assert placed(data) == [("Ben", 1, 20), ("Anna", 2, 16), ("Carl", 3, 12)]
    assert league_version(db) > version  # the league's board notices


@contextmanager
def adding_meanwhile(db: str, league_id: int, session_id: int) -> Iterator[Callable[[], None]]:
    """Another writer that has added the session to the league and not yet committed (a raw
    connection of the backend's driver): the block's ``commit()`` ends its transaction."""
    insert = "INSERT INTO league_events (league_id, position, session_id, added_at) VALUES ({0}, 9, {0}, 'x')"
    if db.startswith("postgresql:"):
        import psycopg

        conn: Any = psycopg.connect(db)
        conn.execute(insert.format("%s"), (league_id, session_id))
    else:
        conn = sqlite3.connect(db, isolation_level=None)
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(insert.format("?"), (league_id, session_id))
    try:
        yield conn.commit
    finally:
        conn.close()


def test_a_league_added_while_the_session_is_deleted_does_not_slip_through_issue_29(db: str) -> None:
    """The check is part of the delete's transaction: a delete that meets a league adding the
    session waits for it, then sees it and refuses, rather than deleting it out of the
    league unseen."""
    evening(db, "Freitag", "Anna", Ben=20, Carl=30)
    ok("league", "new", LEAGUE, "--db", db)
    with open_store(db) as store:
        league, session = store.league(LEAGUE), store.session("Freitag")
    outcome: list[BaseException | None] = []

    def delete() -> None:
        with open_store(db) as store:
            try:
                store.delete_session("Freitag")
                outcome.append(None)
            except StoreError as refused:
                outcome.append(refused)

    with adding_meanwhile(db, league.id, session.id) as commit:
        deleting = threading.Thread(target=delete)
        deleting.start()
        deleting.join(0.5)
        assert deleting.is_alive()  # it waits for the other writer
        commit()
        deleting.join(10)
    assert isinstance(outcome[0], SessionInLeague), outcome
    assert [e["name"] for e in standings(db)["events"]] == ["Freitag"]


def test_a_session_deleted_meanwhile_is_not_added_to_a_league_issue_29(db: str) -> None:
    """The other way round: a league adding a session deleted meanwhile says it is gone."""
    evening(db, "Freitag", "Anna", Ben=20, Carl=30)
    ok("league", "new", LEAGUE, "--db", db)
    with open_store(db) as store:
        league, session = store.league(LEAGUE), store.session("Freitag")
        store.delete_session("Freitag")
        with pytest.raises(NoSuchSession):
            store.add_league_events(league, [("session", session.id, "Freitag")])
        assert store.league(LEAGUE).events == ()


def test_at_a_terminal_the_refusal_comes_before_the_question_issue_29(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without --yes, at a terminal: the delete is refused at once, not asked "delete?" and
    refused after a "y" (the answer would change nothing)."""
    season(db, LEAGUE)
    before = held(db)
    monkeypatch.setattr("romme_score.cli.options.stdin_is_terminal", lambda: True)
    status, out, err = run("--lang", "de", "sessions", "delete", "Freitag", "--db", db, input="j\n")
    assert (status, out) == (1, ""), out + err  # no "[j/N]" asked
    assert err.startswith("Fehler: die Partie 'Freitag' zählt in der Liga 'Saison 2026'")
    assert held(db) == before
    ok("league", "remove", LEAGUE, "--session", "Freitag", "--db", db)
    status, out, err = run("sessions", "delete", "Freitag", "--db", db, input="y\n")
    assert status == 0 and "[y/N]" in out, out + err  # asked now, and deleted
    assert "Freitag" not in ok("sessions", "--db", db)
