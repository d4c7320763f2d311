"""The organiser's ``state.json`` (issue 36 items 3 and 7) asks the database the same few
statements for a club evening of three games as for a tournament's forty tables: what it
shows of every game (its name, links, whether finished, when last played, its table) is
read for all of them at once, on SQLite and on PostgreSQL. It made some nine queries per
game (a championship's 375 games: thousands per page load and per event)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from clirun import ok
from pgtest import fresh_database

from romme_score.sessions import SessionService
from romme_score.store.records import Link
from romme_score.web import night, organizer
from romme_score.web.context import ORGANIZER, NightConfig, OrganizerCall, OrganizerConfig, Services


@pytest.fixture(params=["sqlite", "postgres"])
def fresh(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], str]]:
    """A new empty database each call, of the backend the test runs on."""
    with ExitStack() as stack:
        made = iter(range(1000))

        def one() -> str:
            if request.param == "sqlite":
                return str(tmp_path / f"night{next(made)}.sqlite3")
            return stack.enter_context(fresh_database())

        yield one


def a_night(db: str, tables: int) -> None:
    """Two games of the evening, each at its end (one ended by agreement, one by its
    rounds), and a tournament of ``tables`` tables drawn, the first of which has played
    its game; and a tournament not drawn yet."""
    ok("new", "Friday", "Anna", "Ben", "Carl", "--db", db)
    ok("round", "--session", "Friday", "--winner", "Anna", "Ben=5", "Carl=7", "--db", db)
    ok("end", "--session", "Friday", "--db", db)
    ok("new", "Family", "Eva", "Finn", "--until", "rounds:1", "--db", db)
    ok("round", "--session", "Family", "--winner", "Eva", "Finn=12", "--db", db)
    players = [f"P{n}" for n in range(1, 4 * tables + 1)]
    ok("tournament", "new", "Cup", *players, "--games", "1", "--series", "2", "--seed", "7", "--db", db)
    ok("tournament", "draw", "--db", db)
    with SessionService(db, create=False) as service:
        seated = service.session("Cup S1 T1").players
    ok("round", "--session", "Cup S1 T1", "--winner", seated[0], *(f"{p}=5" for p in seated[1:]), "--db", db)
    ok("tournament", "new", "Later", "Q1", "Q2", "Q3", "Q4", "--db", db)  # not drawn yet: listed too


def counting(service: SessionService, count: Callable[[], None]) -> None:
    """Count every statement ``service`` sends from now on: each one SQLite runs (its
    trace), each query and transaction of the PostgreSQL connection."""
    store: Any = service.store  # the SQL store's own connection
    conn: Any = store.conn
    db = getattr(conn, "db", None)
    if db is not None and hasattr(db, "set_trace_callback"):
        db.set_trace_callback(lambda _sql: count())
        return
    for name in ("query", "transact", "batches", "prefetch"):
        sent = getattr(conn, name, None)
        if sent is not None:

            def wrapped(*args: Any, _sent: Any = sent, **kwargs: Any) -> Any:
                count()
                return _sent(*args, **kwargs)

            setattr(conn, name, wrapped)


def statements_of_state_json(db: str) -> tuple[int, dict[str, Any]]:
    """The statements one ``GET {organizer}/state.json`` sends (after a first one, which
    made the links), and its answer."""
    with SessionService(db, create=False) as service:
        config = NightConfig(service.store.location, "http://127.0.0.1:8000", "en")
        found = next(c for c in night.read(service, config) if isinstance(c, OrganizerConfig))
    services = Services(found.db)
    call = OrganizerCall(Link(ORGANIZER, None, found.links.links[0].token), "en", found, services)
    sent = [0]
    try:
        with services.lease():
            organizer.read_state(call)
            counting(call.service, lambda: sent.__setitem__(0, sent[0] + 1))
            state = organizer.read_state(call)
    finally:
        services.close_all()
    return sent[0], state


def test_the_organizers_state_json_asks_the_same_few_statements_for_3_games_as_for_40_issue_36_item_3(
    fresh: Callable[[], str],
) -> None:
    small, large = fresh(), fresh()
    a_night(small, 1)
    a_night(large, 38)
    few, state = statements_of_state_json(small)
    many, big = statements_of_state_json(large)
    assert [(g["name"], g["finished"]) for g in state["games"]] == [
        ("Friday", True),
        ("Family", True),
        ("Cup S1 T1", True),
    ]
    assert len(big["games"]) == 40
    assert [(g["name"], g["finished"]) for g in big["games"][:4]] == [
        ("Friday", True),
        ("Family", True),
        ("Cup S1 T1", True),
        ("Cup S1 T2", False),
    ]
    assert [(g["tournament"], g["series"], g["table"]) for g in big["games"][1:4]] == [
        (None, None, None),
        ("Cup", 1, 1),
        ("Cup", 1, 2),
    ]
    assert big["tournaments"][0]["series_drawn"] == 1
    assert big["tournaments"][1] == {
        "name": "Later",
        "board": None,
        "series_drawn": 0,
        "series_finished": 0,
        "series": 3,
    }
    assert many == few, (few, many)  # however many games: it made some nine queries per game
    assert 0 < few <= 20, few
