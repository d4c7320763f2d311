"""The club's server (issue 30 item 11), on the throw-away PostgreSQL server of
``tools/with_postgres.py``: a database holding another program's tables is refused
whoever owns them (pg_class sees every table, information_schema only the role's), a
password is never printed whatever characters it holds, and the refusal of a foreign
database speaks of a database, not of an SQLite file."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from urllib.parse import quote

import pytest
from clirun import run
from pgtest import require, with_database

PASSWORD = "pa/Sekr3t"


def admin(url: str, *statements: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)


def tables_of(url: str) -> list[str]:
    import psycopg

    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT n.nspname || '.' || c.relname FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE c.relkind = 'r' AND n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema' "
            "ORDER BY 1"
        ).fetchall()
    return [str(row[0]) for row in rows]


@pytest.fixture
def club() -> Iterator[tuple[str, str]]:
    """(the superuser's URL of a new database owned by a new role romme_..., romme_...'s
    URL of it without a password): ``createdb -O romme fb``."""
    server = require()
    name = f"romme_fb_{uuid.uuid4().hex[:10]}"
    role = f"romme_{uuid.uuid4().hex[:10]}"
    admin(server, f"CREATE ROLE {role} LOGIN PASSWORD 'x'", f'CREATE DATABASE "{name}" OWNER {role}')
    superuser = with_database(server, name)
    host = server.partition("@")[2].rpartition("/")[0]
    try:
        yield superuser, f"postgresql://{role}@{host}/{name}"
    finally:
        admin(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', f"DROP ROLE IF EXISTS {role}")


def with_password(url: str, password: str) -> str:
    scheme, _sep, rest = url.partition("://")
    user, _at, where = rest.partition("@")
    return f"{scheme}://{user}:{password}@{where}"


def test_a_table_the_superuser_made_in_the_roles_database_makes_it_foreign_issue30_item11(
    club: tuple[str, str],
) -> None:
    superuser, romme = club
    admin(superuser, "CREATE TABLE invoices (id INT)")  # owned by postgres, not granted to romme
    code, out, err = run("new", "X", "A", "B", "--db", romme)
    assert code == 1, out + err
    assert "holds tables of another program" in err and "left untouched" in err
    assert "SQLite" not in err and "another file" not in err
    assert tables_of(superuser) == ["public.invoices"]  # nothing written beside it


def test_a_table_in_another_schema_makes_it_foreign_too_issue30_item11(club: tuple[str, str]) -> None:
    superuser, romme = club
    admin(superuser, "CREATE SCHEMA billing", "CREATE TABLE billing.invoices (id INT)")
    code, _out, err = run("--lang", "de", "new", "X", "A", "B", "--db", romme)
    assert code == 1 and "SQLite" not in err and "andere Datei" not in err
    assert tables_of(superuser) == ["billing.invoices"]


def test_a_password_with_a_slash_is_never_printed_issue30_item11(club: tuple[str, str]) -> None:
    superuser, romme = club
    escaped = with_password(romme, quote(PASSWORD, safe=""))  # pa%2FSekr3t: as libpq reads it
    typed = with_password(romme, PASSWORD)  # pa/Sekr3t: libpq would read Sekr3t as an address
    outputs = []
    for args in (
        ["new", "Fri", "Anna", "Ben", "--db", escaped],
        ["standings", "--db", escaped],
        ["standings", "--session", "Nope", "--db", escaped],
        ["standings", "--db", typed],
        ["new", "Fri", "Anna", "Ben", "--db", typed],
        ["--db", typed, "sessions"],
        ["standings", "--db", with_password(romme, "pa@Sekr3t")],  # an @ unescaped too
        [
            "standings",
            "--db",
            with_password(
                romme.replace(romme.partition("@")[2].partition("/")[0], "127.0.0.1:1"),
                quote(PASSWORD, safe=""),
            ),
        ],
    ):
        code, out, err = run(*args)
        outputs.append((args, code, out + err))
    other = with_password(romme, "pa%2FSekr3t-other")  # a line of play with a database of its own
    code, out, err = run("play", "Fri", "--db", escaped, input=f"standings --db {other}\nstandings\n")
    outputs.append((["play"], 0 if code == 1 else code, out + err))
    assert "a line of romme play runs against its database" in err
    assert [code for _a, code, _t in outputs][:2] == [0, 0], outputs
    for args, code, text in outputs:
        assert code != 70, (args, text)
        assert "Sekr3t" not in text and "pa/" not in text and "pa%2F" not in text, (args, text)
    typed_errors = [text for args, _code, text in outputs if typed in args]
    assert all("%2F" in text and "nothing was sent" in text for text in typed_errors), typed_errors
    at_sign = [text for args, _code, text in outputs if with_password(romme, "pa@Sekr3t") in args]
    assert len(at_sign) == 1 and "%40" in at_sign[0]  # the @ one's refusal says how to write it


def test_an_extensions_own_tables_are_not_another_programs_issue30_item11(club: tuple[str, str]) -> None:
    """PostGIS puts its table spatial_ref_sys in public, pg_buffercache its view: a club that
    keeps an extension in its database has no other program's tables there (an object of an
    extension is marked so in pg_depend), and romme creates its own beside them; a table of
    the database's own beside the extension still makes it foreign."""
    superuser, romme = club
    admin(superuser, "CREATE EXTENSION pg_buffercache")  # shipped with PostgreSQL's contrib
    code, out, err = run("new", "X", "A", "B", "--db", romme)
    assert code == 0, out + err
    assert "public.sessions" in tables_of(superuser)


def test_a_table_beside_an_extension_still_makes_it_foreign_issue30_item11(club: tuple[str, str]) -> None:
    superuser, romme = club
    admin(superuser, "CREATE EXTENSION pg_buffercache", "CREATE TABLE invoices (id INT)")
    code, out, err = run("new", "X", "A", "B", "--db", romme)
    assert code == 1 and "holds tables of another program" in err, out + err
    assert tables_of(superuser) == ["public.invoices"]
