"""``romme export`` streams a long session (issue 12 item 4): the fast writers read the
store's rows batch by batch, in flat memory, and write exactly what the straightforward
writer (a dict per round through ``json``, ``csv.writer`` per row) writes."""

from __future__ import annotations

import json
import sqlite3
import threading
import tracemalloc
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from clirun import ok
from pgtest import fresh_database

from romme_score.export import csv_chunks as export_csv_chunks
from romme_score.export import json_chunks as export_json_chunks
from romme_score.inputs import Hand
from romme_score.rules import GameEnd, find_preset
from romme_score.scoring import RoundInput
from romme_score.sessions import SessionService
from romme_score.store import open_store
from romme_score.store.records import HandRecord, Lines, StoredRound
from romme_score.store.sql import lines as sqlite_lines

ODD = ('Ann "the fox"', "B\\ob", "Jürgen, 50%", "Zoë ♥")  # quotes, backslash, comma, %


def fast_and_reference(db: Path | str, name: str | None, fmt: str) -> tuple[str, str]:
    """The export as written from the store's rows, and as the objects write it."""
    writer = export_json_chunks if fmt == "json" else export_csv_chunks
    with SessionService(db) as service, service.export(service.session(name)) as export:
        fast = "".join(writer(export))
    with SessionService(db) as service, service.export(service.session(name)) as export:
        reference = "".join(writer(export._replace(lines=None)))
    return fast, reference


def uses_rows(db: Path | str, name: str | None) -> bool:
    with SessionService(db) as service, service.export(service.session(name)) as export:
        return export.lines is not None


@pytest.fixture
def odd_evening(tmp_path: Path) -> Path:
    """Every kind of round and history, with names JSON escapes and CSV quotes."""
    db = tmp_path / "odd.sqlite3"
    d = ("--db", str(db))
    a, b, c, z = ODD
    ok(
        "new",
        "Fri",
        *ODD,
        "--dealer",
        b,
        "--rule",
        "leaderboard=true",
        "--rule",
        "never_out_doubles=true",
        *d,
    )
    ok("round", "--winner", a, f"{b}=HK K10 J", f"{c}=P7 P8", f"{z}=J", *d)
    ok("round", "--winner", b, "--hand-romme", f"{a}=TA T2", f"{c}=0", f"{z}=12", *d)
    ok("round", "--stalemate", f"{a}=12", f"{b}=30", f"{c}=HK", f"{z}=K3", "--never-out", c, *d)
    ok("round", "--winner", c, f"{a}=5", f"{b}=7", f"{z}=9", "--never-out", z, *d)
    ok("round", "--winner", z, f"{a}=K2", f"{b}=T5", f"{c}=3", *d)
    ok("undo", "--yes", *d)
    ok("round", "--winner", a, f"{b}=K2", f"{c}=3", f"{z}=4", *d)  # the first seat's bonus
    ok("edit", "1", f"{b}=HK K10", *d)
    ok("edit", "2", "--no-hand-romme", *d)
    ok("note", 'a "quoted" note\\ with ünïcode', "--round", "2", *d)
    ok("note", "a good evening", *d)
    ok("sessions", "rename", "Fri", 'Friday "late"', *d)
    return db


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_fast_export_is_byte_identical_to_the_reference_with_odd_names_and_history(
    odd_evening: Path, fmt: str
) -> None:
    assert uses_rows(odd_evening, None)
    fast, reference = fast_and_reference(odd_evening, None, fmt)
    assert fast == reference
    out = odd_evening.with_suffix("." + fmt)
    ok("export", "--format", fmt, "-o", str(out), "--db", str(odd_evening))
    assert out.read_bytes() == fast.encode()
    if fmt == "json":
        data = json.loads(fast)
        assert len(data["rounds"]) == 5 and len(data["history"]) == 3
        assert data["rounds"][-1]["bonus"] == {ODD[0]: 10}
        assert any(h.get("never_out") for r in data["rounds"] for h in r["hands"].values())
        assert any(r["stalemate"] for r in data["rounds"])
        assert all(r["leaderboard"] for r in data["rounds"])


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_fast_export_escapes_texts_that_json_escapes_and_csv_quotes(tmp_path: Path, fmt: str) -> None:
    """Times with a quote, a backslash, a comma, a tab and a newline (an import keeps them
    as they were): the batch that holds them is written again, escaped."""
    db = tmp_path / "times.sqlite3"
    ok("new", "T", "Anna", "Ben", "--db", str(db))
    for _ in range(3):
        ok("round", "--winner", "Anna", "Ben=HK", "--db", str(db))
    data = json.loads(ok("export", "--db", str(db)))
    odd_times = ['say "when"', "back\\slash", "a,b", "tab\there", "line\nbreak"]
    for rnd, at in zip(data["rounds"], odd_times, strict=False):
        rnd["recorded_at"] = at
    path = tmp_path / "times.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    other = tmp_path / "other.sqlite3"
    ok("import", str(path), "--db", str(other))
    assert uses_rows(other, None)
    fast, reference = fast_and_reference(other, None, fmt)
    assert fast == reference
    if fmt == "json":
        assert [r["recorded_at"] for r in json.loads(fast)["rounds"]] == odd_times[:3]


def test_a_round_without_a_players_hand_exports_as_the_reference_does(odd_evening: Path) -> None:
    con = sqlite3.connect(odd_evening)
    with con:
        con.execute(
            "DELETE FROM hands WHERE player = ? AND round_id = (SELECT MIN(id) "
            "FROM rounds WHERE status = 'active')",
            (ODD[3],),
        )
    con.close()
    for fmt in ("json", "csv"):
        fast, reference = fast_and_reference(odd_evening, None, fmt)
        assert fast == reference


def test_rounds_recorded_between_another_sessions_are_numbered_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two sessions played turn about, and a correction made after the other session's
    rounds: a row is the round's place among its session's rows, not its id less a
    constant. Past Store.MAX_GAPS such runs the export reads the rounds as objects."""
    db = tmp_path / "two.sqlite3"
    d = ("--db", str(db))
    ok("new", "A", "Anna", "Ben", *d)
    ok("new", "B", "Carl", "Dora", *d)
    for _ in range(3):
        ok("round", "--winner", "Anna", "Ben=HK", "--session", "A", *d)
        ok("round", "--winner", "Dora", "Carl=P7", "--session", "B", *d)
        ok("round", "--winner", "Dora", "Carl=P8", "--session", "B", *d)
    ok("edit", "1", "Ben=HK K10", "--session", "A", *d)
    ok("undo", "--yes", "--session", "A", *d)
    ok("round", "--winner", "Ben", "Anna=T2", "--session", "A", *d)
    assert uses_rows(db, "A") and uses_rows(db, "B")
    for name in ("A", "B"):
        for fmt in ("json", "csv"):
            fast, reference = fast_and_reference(db, name, fmt)
            assert fast == reference
    rows = [
        (r["row"], r.get("replaced_by"))
        for part in ("rounds", "history")
        for r in json.loads(fast_and_reference(db, "A", "json")[0])[part]
    ]
    assert sorted(rows) == [(1, 4), (2, None), (3, None), (4, None), (5, None)]
    monkeypatch.setattr(sqlite_lines, "MAX_GAPS", 2)  # A has 3 runs of B's rounds amid its own
    assert not uses_rows(db, "A")
    assert fast_and_reference(db, "A", "json")[0] == reference_json(db, "A")


def reference_json(db: Path, name: str) -> str:
    return fast_and_reference(db, name, "json")[1]


# --- PostgreSQL (issue 28: an export within 1.3x the SQLite one) ---------------------


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_postgres_exports_from_the_store_lines_what_sqlite_and_the_reference_write_issue_28(
    odd_evening: Path, tmp_path: Path, fmt: str
) -> None:
    """The same odd evening in PostgreSQL: written from the lines with the seats side by
    side (not a dict per round), byte for byte what the objects and the SQLite file write;
    the scoresheet's lines (standings --json) the same as SQLite's."""
    moved = tmp_path / "odd.json"
    moved.write_text(ok("export", "--db", str(odd_evening)), encoding="utf-8")
    with fresh_database() as url:
        ok("import", str(moved), "--db", url)
        assert uses_rows(url, None)
        fast, reference = fast_and_reference(url, None, fmt)
        assert fast == reference == fast_and_reference(odd_evening, None, fmt)[0]
        with SessionService(url) as service:
            lines = service.points_lines(service.session(None))
            assert lines is not None
            in_postgres = [row[1:] for batch in lines for row in batch.rows]
        with SessionService(odd_evening) as service:
            lines = service.points_lines(service.session(None))
            assert lines is not None
            assert in_postgres == [row[1:] for batch in lines for row in batch.rows]
        assert json.loads(ok("standings", "--json", "--db", url)) == json.loads(
            ok("standings", "--json", "--db", str(odd_evening))
        )


def test_postgres_numbers_rounds_recorded_between_another_sessions_as_before_issue_28() -> None:
    """Two sessions played turn about in PostgreSQL, with a correction: the lines' rows
    are the rounds' places among their session's rows, as the objects number them."""
    with fresh_database() as url:
        d = ("--db", url)
        ok("new", "A", "Anna", "Ben", *d)
        ok("new", "B", "Carl", "Dora", *d)
        for _ in range(3):
            ok("round", "--winner", "Anna", "Ben=HK", "--session", "A", *d)
            ok("round", "--winner", "Dora", "Carl=P7", "--session", "B", *d)
        ok("edit", "1", "Ben=HK K10", "--session", "A", *d)
        ok("undo", "--yes", "--session", "A", *d)
        assert uses_rows(url, "A") and uses_rows(url, "B")
        for name in ("A", "B"):
            for fmt in ("json", "csv"):
                fast, reference = fast_and_reference(url, name, fmt)
                assert fast == reference


# --- streaming ---------------------------------------------------------------------


def long_session(path: Path, rounds: int) -> None:
    """A long session written straight into the store (no scoring: fast to make)."""
    players = ("Anna", "Ben", "Carl", "Dora")
    rows = []
    for n in range(1, rounds + 1):
        winner = players[n % 4]
        hands = {
            p: HandRecord(
                None if p == winner else "HK K10 J P7 T2",
                None,
                False,
                0 if p == winner else 32,
                10 if p == winner else 0,
                None,
            )
            for p in players
        }
        rows.append(
            StoredRound(
                n, n, "active", winner, n % 7 == 0, False, "2026-11-30T20:00:00+00:00", None, None, hands
            )
        )
    with open_store(path) as store:
        store.write_session(
            "long",
            "2026-11-30T20:00:00+00:00",
            players,
            find_preset("standard").replace(game_end=GameEnd("open")),
            None,
            None,
            0,
            rows,
            (),
            (),
            overwrite=False,
        )


class Counted:
    """Batches handed out one at a time, counting how many were taken."""

    def __init__(self, batches: Iterable[Lines]) -> None:
        self.batches = iter(batches)
        self.taken = 0

    def __iter__(self) -> Iterator[Lines]:
        for batch in self.batches:
            self.taken += 1
            yield batch


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_export_writers_pull_the_rounds_batch_by_batch(tmp_path: Path, fmt: str) -> None:
    db = tmp_path / "long.sqlite3"
    long_session(db, 3000)
    with SessionService(db) as service, service.export(service.session("long")) as export:
        assert export.lines is not None
        assert isinstance(export.lines.rounds, Iterator) and isinstance(export.lines.scoresheet, Iterator)
        if fmt == "json":
            counted = Counted(export.lines.rounds)
            chunks = export_json_chunks(export._replace(lines=export.lines._replace(rounds=counted)))
            marker = '"number": 1,'
        else:
            counted = Counted(export.lines.scoresheet)
            chunks = export_csv_chunks(export._replace(lines=export.lines._replace(scoresheet=counted)))
            marker = "\r\n1,"
        written = ""
        while marker not in written:
            written += next(chunks)
        assert counted.taken == 1  # the first round is out before the second batch is read
        rest = "".join(chunks)
        assert counted.taken == 6  # 3000 rounds, 512 a batch
        assert (written + rest).count('"number": ' if fmt == "json" else "\r\n") == (
            3000 if fmt == "json" else 3003
        )  # and the header, totals and places


def peak_of_export(db: Path, fmt: str) -> tuple[int, int]:
    """Peak memory (tracemalloc) of writing the export to a file, and the file's size."""
    out = db.with_suffix("." + fmt)
    tracemalloc.start()
    try:
        with (
            SessionService(db) as service,
            out.open("w", encoding="utf-8", newline="") as f,
            service.export(service.session("long")) as export,
        ):
            for chunk in (export_json_chunks if fmt == "json" else export_csv_chunks)(export):
                f.write(chunk)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return peak, out.stat().st_size


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_export_of_20000_rounds_stays_in_flat_memory(tmp_path: Path, fmt: str) -> None:
    """Ten times the rounds, the same memory: a few batches (~1 MB), not the session."""
    short, long = tmp_path / "short.sqlite3", tmp_path / "long.sqlite3"
    long_session(short, 2000)
    long_session(long, 20000)
    short_peak, short_size = peak_of_export(short, fmt)
    long_peak, long_size = peak_of_export(long, fmt)
    assert long_size > 9 * short_size and long_size > 1_500_000
    assert long_peak < short_peak * 1.2 + 100_000 and long_peak < 3_000_000, (short_peak, long_peak)


# --- one consistent read (romme export while others write) -------------------------------
# docs/commands.md "romme export: one read of the session": the rounds, history, totals and
# notes of an export are the session as it was when the export began, whatever another
# process (a phone through romme serve, another terminal) writes meanwhile.


@contextmanager
def backend(kind: str, tmp_path: Path) -> Iterator[str]:
    """A database of each backend, as --db names it."""
    if kind == "sqlite":
        yield str(tmp_path / "evening.sqlite3")
    else:
        with fresh_database() as url:
            yield url


def _connection_class(kind: str) -> Any:
    if kind == "sqlite":
        from romme_score.store.sqlite.connection import Connection

        return Connection
    from romme_score.store.postgres import PostgresConnection

    return PostgresConnection


def interleaved(
    monkeypatch: pytest.MonkeyPatch, kind: str, write: Callable[[], None], *, after: int
) -> list[int]:
    """Every long read of the store one row at a time, and ``write`` run (once) in the
    middle of the first: before its first row (``after=0``) or after that many rows. The
    write runs in a thread of its own, and must end: a reader keeps no writer waiting."""
    cls = _connection_class(kind)
    plain = cls.batches
    fired: list[int] = []

    def fire() -> None:
        fired.append(1)
        worker = threading.Thread(target=write)
        worker.start()
        worker.join(timeout=30)
        assert not worker.is_alive(), "the write waited for the export"

    def batches(self: Any, sql: str, params: Any, size: int) -> Iterator[list[Any]]:
        taken = 0
        if not fired and after == 0:
            fire()
        for rows in plain(self, sql, params, 1):
            yield rows
            taken += 1
            if not fired and taken == after:
                fire()

    monkeypatch.setattr(cls, "batches", batches)
    return fired


def _evening(db: str) -> None:
    d = ("--db", db)
    ok("new", "Fri", "Anna", "Ben", "Carl", *d)
    ok("round", "--winner", "Anna", "Ben=HK K10 J", "Carl=P7 P8", *d)
    ok("round", "--winner", "Ben", "Anna=12", "Carl=HK", *d)
    ok("round", "--winner", "Carl", "Anna=5", "Ben=7", *d)
    ok("edit", "2", "Anna=20", *d)  # a correction: the old round 2 in the history
    ok("note", "Ben dealt 11 cards, redealt", "--round", "3", *d)


def _meanwhile(db: str, change: str) -> Callable[[], None]:
    """What another process writes while the export reads: a round saved (and a note), or
    a round corrected (the old one into the history) and a round saved."""

    def write() -> None:
        with SessionService(db) as other:
            info = other.session("Fri")
            if change == "corrected":
                other.edit(info, 1, {"Ben": Hand(points=40)}, confirm=True)
            other.record(info, RoundInput("Anna", {"Ben": Hand(points=9), "Carl": Hand(points=3)}))
            other.add_note(info, "saved by the phone")

    return write


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
@pytest.mark.parametrize(("change", "after"), [("saved", 0), ("corrected", 1)])
def test_an_export_is_the_session_as_it_was_when_it_began_whatever_is_written_meanwhile(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, kind: str, change: str, after: int
) -> None:
    """A round saved (before the export's rounds are read) or a round corrected and one
    saved (after its first round was read) by another connection in the middle of an
    export: the file is the export of that moment, byte for byte (rounds, history, notes
    and totals agree), it imports back to that moment's standings, and the next export has
    the new round."""
    with backend(kind, tmp_path) as db:
        _evening(db)
        before = ok("export", "--db", db, "--session", "Fri")
        standings = json.loads(ok("standings", "--json", "--db", db, "--session", "Fri"))
        fired = interleaved(monkeypatch, kind, _meanwhile(db, change), after=after)
        out = tmp_path / "during.json"
        ok("export", "--db", db, "--session", "Fri", "-o", str(out))
        assert fired, "the write ran in the middle of the export"
        during = out.read_text(encoding="utf-8")
        assert during == before
        monkeypatch.undo()
        after_it = json.loads(ok("export", "--db", db, "--session", "Fri"))
        assert len(after_it["rounds"]) == 4 and after_it["notes"][-1]["text"] == "saved by the phone"
        other = str(tmp_path / "restored.sqlite3")
        ok("import", str(out), "--db", other)
        assert json.loads(ok("standings", "--json", "--db", other, "--session", "Fri")) == standings


def test_an_export_reads_the_sqlite_file_while_another_process_holds_its_writer_lock(
    tmp_path: Path,
) -> None:
    """WAL: the export's read waits for no writer. Another connection holds the file's
    write lock (BEGIN IMMEDIATE, a round half written) all through the export."""
    db = str(tmp_path / "evening.sqlite3")
    _evening(db)
    before = ok("export", "--db", db, "--session", "Fri")
    writer = sqlite3.connect(db, isolation_level=None)
    try:
        writer.execute("BEGIN IMMEDIATE")
        writer.execute("UPDATE sessions SET version = version + 1")
        assert ok("export", "--db", db, "--session", "Fri") == before
        assert ok("export", "--format", "csv", "--db", db, "--session", "Fri")
    finally:
        writer.execute("ROLLBACK")
        writer.close()
