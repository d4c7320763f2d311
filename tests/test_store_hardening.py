"""The store refuses what it cannot trust, and a refused write leaves the file
byte-identical (issue: hardening). Hashes are taken of the database file itself."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from romme_score.cli import main
from romme_score.rules import find_preset
from romme_score.scoring import Hand, RoundInput
from romme_score.sessions import SessionService
from romme_score.store import StoreError
from romme_score.store.sqlite import SQLiteStore


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result.exit_code, result.stderr


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def checkpointed(db: Path) -> None:
    """Fold the WAL into the file, so that the file alone holds the database."""
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()


@pytest.fixture
def game(tmp_path: Path) -> Path:
    db = tmp_path / "game.sqlite3"
    for args in (
        ("new", "Friday", "Anna", "Ben", "Carl", "--until", "rounds:2"),
        ("round", "--winner", "Anna", "Ben=HK K10", "Carl=5"),
    ):
        code, err = run(*args, "--db", str(db))
        assert code == 0, err
    checkpointed(db)
    return db


REFUSED = [
    (("round", "--winner", "Anna", "Ben=HK HX", "Carl=5"), 2, "cannot read card 'HX'"),
    (("round", "--winner", "Zed", "Ben=5", "Carl=5"), 2, "unknown player 'Zed'"),
    (("round", "--winner", "Anna", "Ben=²", "Carl=5"), 2, "not a whole number"),
    (("round", "--winner", "Anna", "Ben=--5", "Carl=5"), 2, "not a whole number"),
    (("round", "--winner", "Anna", "Ben=99999999999999999999", "Carl=5"), 2, "out of range"),
    (("round", "--winner", "Anna", "Ben=J J J J J J J", "Carl=5"), 2, "joker"),
    (("edit", "7", "Ben=5"), 2, "no round 7"),
    (("edit", "1", "--winner", ""), 2, "--winner"),
    (("new", "Friday", "A", "B"), 1, "exists already"),
    (("new", "X", "A", "a"), 2, "given twice"),
    (("new", "X", "A", "B", "--rate", "NaN"), 2, "not a decimal"),
    (("new", "X", "A", "B", "--rate", "1e999999"), 2, "not a decimal"),
    (("new", "X", "A", "B=C"), 2, "must not contain '='"),
    (("use", "Nope"), 1, "no session named 'Nope'"),
]


@pytest.mark.parametrize("args, code, fragment", REFUSED)
def test_refused_write_leaves_the_file_byte_identical(
    game: Path, args: tuple[str, ...], code: int, fragment: str
) -> None:
    before = digest(game)
    got, err = run(*args, "--db", str(game))
    assert (got, fragment in err) == (code, True), err
    checkpointed(game)
    assert digest(game) == before


def test_round_after_the_game_is_over_is_refused_unchanged(game: Path) -> None:
    assert run("round", "--winner", "Ben", "Anna=3", "Carl=4", "--db", str(game))[0] == 0
    checkpointed(game)
    before = digest(game)
    code, err = run("round", "--winner", "Ben", "Anna=3", "Carl=4", "--db", str(game))
    assert code == 1 and "is over" in err
    checkpointed(game)
    assert digest(game) == before


def zero_page_of(db: Path, index: str) -> None:
    con = sqlite3.connect(db)
    page = con.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (index,)).fetchone()[0]
    size = con.execute("PRAGMA page_size").fetchone()[0]
    con.close()
    with open(db, "r+b") as f:
        f.seek((page - 1) * size)
        f.write(b"\0" * size)


def test_zeroed_index_page_is_noticed_and_never_written_to(game: Path) -> None:
    zero_page_of(game, "sqlite_autoindex_players_2")  # a page a round never reads or writes
    before = digest(game)
    code, err = run("round", "--winner", "Anna", "Ben=5", "Carl=5", "--db", str(game))
    assert code == 1 and "is damaged" in err and "left untouched" in err
    assert digest(game) == before


def test_foreign_application_id_without_tables_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "other.sqlite3"
    con = sqlite3.connect(db)
    con.execute("PRAGMA application_id = 1234")
    con.commit()
    con.close()
    before = digest(db)
    code, err = run("new", "X", "A", "B", "--db", str(db))
    assert code == 1 and "another program" in err
    assert digest(db) == before


@pytest.mark.parametrize(
    "make_path",
    [
        lambda tmp: tmp / "plain-file" / "romme.sqlite3",
        lambda tmp: tmp / "plain-file" / "deeper" / "romme.sqlite3",
    ],
)
def test_db_path_below_a_plain_file_is_input_error(tmp_path: Path, make_path: object) -> None:
    (tmp_path / "plain-file").write_text("not a folder")
    path = make_path(tmp_path)  # type: ignore[operator]
    code, err = run("new", "X", "A", "B", "--db", str(path))
    assert code == 2 and "cannot create the folder" in err


def test_full_disk_gets_a_clear_message_and_a_consistent_database(tmp_path: Path) -> None:
    db = tmp_path / "full.sqlite3"
    with SessionService(db) as service:
        info = service.create("F", ("A", "B"), find_preset("standard"), None, None)
        service.record(info, RoundInput("A", {"B": Hand(points=5)}))
    checkpointed(db)
    before = digest(db)
    with SessionService(store=SQLiteStore(db)) as service:
        sqlite = service.store
        assert isinstance(sqlite, SQLiteStore)
        pages = sqlite.conn.db.execute("PRAGMA page_count").fetchone()[0]
        sqlite.conn.db.execute(f"PRAGMA max_page_count = {pages + 1}")  # a few rounds fit
        info = service.session()
        last = before
        with pytest.raises(StoreError, match="disk is full"):
            for _ in range(500):
                service.record(info, RoundInput("B", {"A": Hand(points=1)}))
                sqlite.conn.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                last = digest(db)
        assert not sqlite.conn.db.in_transaction
    checkpointed(db)
    assert last != before and digest(db) == last  # the refused round left no trace
    with SessionService(db) as service:
        standings = service.standings(service.session())
    for player in ("A", "B"):  # the kept totals match the rounds that are there
        assert standings.totals[player] == sum(r.points[player] - r.bonus[player] for r in standings.rounds)


def test_damaged_copy_is_left_as_it_was_for_reads_too(game: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.sqlite3"
    shutil.copy(game, copy)
    with open(copy, "r+b") as f:
        f.seek(100)
        f.write(b"\xff" * 4000)
    before = digest(copy)
    code, err = run("standings", "--db", str(copy))
    assert code == 1 and "damaged" in err
    assert digest(copy) == before
