"""PostgreSQL's refusals in the run's language (a new user's trial, issues 29/30): psycopg's
English words came through German output ("die Datenbank ... ist nicht erreichbar:
connection failed: connection to server at ..."). Each case a person can act on is its
own sentence in both catalogs, the driver's words kept only as the error's ``reason``:
nothing listens at the port, the server refuses the login, it has no such database, it
closed the connection. A refused port needs no server; the rest run on the throw-away
server of ``tools/with_postgres.py`` (a server of their own where its logins change)."""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterator

import pytest
from clirun import run
from pgtest import own_server, require, with_database

# the driver's English, which German output must not carry
DRIVER_WORDS = ("connection failed", "Connection refused", "does not exist", "authentication failed", "FATAL")


def unused_port() -> int:
    """A port of 127.0.0.1 nothing listens on (bound, then let go)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def refusal(url: str, lang: str) -> str:
    """What ``romme standings`` says on ``url``: one sentence on stderr, exit code 1."""
    code, out, err = run("--lang", lang, "standings", "--db", url)
    assert code == 1 and not out, (code, out, err)
    assert len(err.strip().splitlines()) == 1, err
    return err.strip()


def german(url: str) -> str:
    text = refusal(url, "de")
    for words in DRIVER_WORDS:
        assert words not in text, text
    return text


def host_of(server: str) -> str:
    return server.partition("@")[2].rpartition("/")[0]


def test_a_refused_connection_says_no_server_answers_at_the_port_in_both_languages_trial() -> None:
    pytest.importorskip("psycopg")
    port = unused_port()
    url = f"postgresql://romme@127.0.0.1:{port}/club"
    assert german(url) == (
        f"Fehler: die Datenbank {url} ist nicht erreichbar: auf 127.0.0.1, Port {port} antwortet "
        "kein PostgreSQL-Server (läuft er?)"
    )
    assert refusal(url, "en") == (
        f"Error: cannot reach the database {url}: no PostgreSQL server answers at 127.0.0.1, port "
        f"{port} (is it running?)"
    )


def test_a_database_the_server_does_not_hold_names_it_and_createdb_trial() -> None:
    server = require()
    name = f"romme_none_{uuid.uuid4().hex[:8]}"
    url = with_database(server, name)
    says = f"auf dem Server gibt es keine Datenbank '{name}' (anlegen mit: createdb {name})"
    assert german(url).endswith(says)
    english = refusal(url, "en")
    assert english.endswith(f"the server has no database '{name}' (create it with: createdb {name})")


def test_a_user_the_server_does_not_know_is_named_trial() -> None:
    server = require()
    role = f"nobody_{uuid.uuid4().hex[:8]}"
    url = f"postgresql://{role}@{host_of(server)}/postgres"
    assert german(url).endswith(f"der Server kennt keinen Benutzer '{role}'")
    assert refusal(url, "en").endswith(f"the server knows no user '{role}'")


@pytest.fixture
def password_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, str]]:
    """(host:port, role) of a server of the test's own whose role must give its password."""
    import psycopg

    monkeypatch.delenv("PGPASSWORD", raising=False)
    monkeypatch.delenv("PGPASSFILE", raising=False)
    with own_server() as own:
        role = f"club_{uuid.uuid4().hex[:8]}"
        hba = os.path.join(own.control["ROMME_TEST_POSTGRES_DATA"], "pg_hba.conf")
        with open(hba, encoding="utf-8") as f:
            rules = f.read()
        with open(hba, "w", encoding="utf-8") as f:  # the first matching line decides
            f.write(f"host all {role} 127.0.0.1/32 scram-sha-256\n{rules}")
        with psycopg.connect(own.url, autocommit=True) as admin:
            admin.execute(f"CREATE ROLE {role} LOGIN PASSWORD 'right'")
            admin.execute("SELECT pg_reload_conf()")
        yield host_of(own.url), role


def test_a_refused_password_and_a_missing_one_are_said_apart_trial(password_server: tuple[str, str]) -> None:
    where, role = password_server
    wrong = f"postgresql://{role}:wrong@{where}/postgres"
    assert german(wrong) == (
        f"Fehler: die Datenbank postgresql://{role}@{where}/postgres ist nicht nutzbar: der Server hat "
        f"das Passwort des Benutzers '{role}' abgelehnt"
    )
    assert refusal(wrong, "en").endswith(f"the server refused the password of user '{role}'")
    none = f"postgresql://{role}@{where}/postgres"
    assert german(none).endswith(
        f"der Server verlangt vom Benutzer '{role}' ein Passwort, und es wurde keins angegeben "
        "(~/.pgpass oder PGPASSWORD)"
    )
    assert "wrong" not in refusal(wrong, "en") + german(wrong)


def test_a_connection_the_server_closed_is_said_in_the_runs_language_trial() -> None:
    """The server ends the connection under the store (an administrator, a restart): the
    driver's error is read as that case, whatever its words, in German too."""
    import psycopg

    from romme_score.i18n import using_language
    from romme_score.store.errors import ConnectionClosed
    from romme_score.store.postgres import PostgresConnection

    server = require()
    name = f"romme_closed_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        conn = PostgresConnection(with_database(server, name))
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (conn.db.info.backend_pid,))
        with pytest.raises(psycopg.OperationalError) as raised:
            conn.db.execute("SELECT 1")
        with using_language("de"):
            error = conn.translate(raised.value)
        assert isinstance(error, ConnectionClosed) and error.cause == "closed" and error.code == "unreachable"
        assert str(error) == (
            f"der Server der Datenbank {conn.location} hat die Verbindung beendet (gestoppt oder neu "
            "gestartet); bitte noch einmal versuchen"
        )
        assert "terminating connection" in error.reason  # the driver's words, kept as a fact
        conn.close()
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
