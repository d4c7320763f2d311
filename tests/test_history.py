"""The history of a table, complete and portable: export carries everything the database
knows, import restores it exactly, notes and renames are kept, deletion is whole."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from romme_score.cli import main

TABLES = {  # what a session is made of, compared without surrogate ids
    "sessions": "SELECT name, created_at, rules, rate, currency, first_dealer FROM sessions",
    "players": "SELECT seat, name FROM players ORDER BY seat",
    "rounds": "SELECT number, winner, hand_romme, stalemate, recorded_at, status, changed_at, "
    "(SELECT COUNT(*) FROM rounds x WHERE x.id <= r.replaced_by) FROM rounds r ORDER BY id",
    "hands": "SELECT (SELECT COUNT(*) FROM rounds x WHERE x.id <= h.round_id), player, cards, "
    "typed_points, never_out, points, bonus, leaderboard FROM hands h ORDER BY 1, 2",
    "totals": "SELECT player, total, leaderboard FROM totals ORDER BY player",
    "notes": "SELECT round, text, at FROM notes ORDER BY id",
    "renames": "SELECT old_name, new_name, at FROM renames ORDER BY id",
}


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def ok(*args: str, input: str | None = None) -> str:
    code, out, err = run(*args, input=input)
    assert code == 0, err
    return out


def dump(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    con = sqlite3.connect(db)
    try:
        return {name: con.execute(sql).fetchall() for name, sql in TABLES.items()}
    finally:
        con.close()


@pytest.fixture
def evening(tmp_path: Path) -> Path:
    """A session with every kind of history: cards and points, a Hand-Rommé, a stalemate,
    an undo, two edits of one round, notes, a rename, the 003 leaderboard."""
    db = tmp_path / "evening.sqlite3"
    d = ("--db", str(db))
    ok(
        "new",
        "Fri",
        "Anna",
        "Ben",
        "Carl",
        "--rate",
        "0.01",
        "--currency",
        "EUR",
        "--dealer",
        "Ben",
        "--rule",
        "leaderboard=true",
        *d,
    )
    ok("round", "--winner", "Anna", "Ben=HK K10 J", "Carl=P7 P8", *d)
    ok("round", "--winner", "Ben", "--hand-romme", "Anna=TA T2", "Carl=0", *d)
    ok("round", "--stalemate", "Anna=12", "Ben=30", "Carl=HK", "--never-out", "Carl", *d)
    ok("round", "--winner", "Carl", "Anna=5", "Ben=7", *d)
    ok("undo", "--yes", *d)
    ok("edit", "1", "Ben=HK K10", *d)
    ok("edit", "1", "Carl=P7", *d)
    ok("note", "Ben dealt 11 cards, redealt", "--round", "2", *d)
    ok("note", "a good evening", *d)
    ok("sessions", "rename", "Fri", "Friday", *d)
    return db


def test_export_import_export_is_byte_identical_and_tables_equal(evening: Path, tmp_path: Path) -> None:
    first = tmp_path / "first.json"
    ok("export", "-o", str(first), "--db", str(evening))
    other = tmp_path / "other.sqlite3"
    ok("import", str(first), "--db", str(other))
    second = tmp_path / "second.json"
    ok("export", "-o", str(second), "--db", str(other))
    assert first.read_bytes() == second.read_bytes()
    assert dump(other) == dump(evening)
    data = json.loads(first.read_text(encoding="utf-8"))
    assert [h["status"] for h in data["history"]] == ["replaced", "undone", "replaced"]
    assert [n["text"] for n in data["notes"]] == ["Ben dealt 11 cards, redealt", "a good evening"]
    assert data["renames"][0]["from"] == "Fri" and data["first_dealer"] == "Ben"
    assert all(r["recorded_at"] for r in data["rounds"])


def test_streamed_export_has_one_line_per_round_and_parses_whole(evening: Path) -> None:
    out = ok("export", "--db", str(evening))
    data = json.loads(out)
    items = [line for line in out.splitlines() if line.startswith("    {")]
    assert len(items) == sum(len(data[k]) for k in ("rounds", "history", "notes", "renames"))
    assert [json.loads(line.rstrip(","))["number"] for line in items[:3]] == [1, 2, 3]


def test_imported_points_that_do_not_match_the_cards_are_refused(evening: Path, tmp_path: Path) -> None:
    data = json.loads(ok("export", "--db", str(evening)))
    data["rounds"][0]["points"]["Ben"] += 5
    path = tmp_path / "bent.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    other = tmp_path / "other.sqlite3"
    code, _, err = run("import", str(path), "--db", str(other))
    assert code == 2
    assert "round 1, Ben: the export says 25 points, but the hand and the rules give 20" in err
    assert "difference of +5" in err


def test_version_1_exports_still_import(tmp_path: Path) -> None:
    data = {
        "format": "romme-score session",
        "version": 1,
        "name": "Old",
        "players": ["A", "B"],
        "rules": {},
        "rounds": [
            {
                "number": 1,
                "winner": "A",
                "hand_romme": False,
                "stalemate": False,
                "hands": {"B": {"cards": "HK"}},
                "points": {"A": 0, "B": 10},
                "bonus": {},
            }
        ],
    }
    path = tmp_path / "v1.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    ok("import", str(path))
    standings = json.loads(ok("standings", "--json"))
    assert {p["name"]: p["total"] for p in standings["players"]} == {"A": 0, "B": 10}


def test_notes_and_renames_show_in_standings(evening: Path) -> None:
    text = ok("standings", "--db", str(evening))
    assert "Note on round 2" in text and "Ben dealt 11 cards, redealt" in text
    assert "Note on the game" in text and "Renamed from 'Fri' to 'Friday'" in text
    data = json.loads(ok("standings", "--json", "--db", str(evening)))
    assert [n["round"] for n in data["notes"]] == [2, None]
    assert data["renames"][0]["to"] == "Friday" and data["session"] == "Friday"


@pytest.mark.parametrize(
    "args, code, fragment",
    [
        (("note", ""), 2, "needs some text"),
        (("note", "x", "--round", "9"), 2, "no round 9"),
        (("sessions", "rename", "Friday", "A=B"), 2, "must not contain '='"),
        (("sessions", "rename", "Nope", "X"), 1, "no session named 'Nope'"),
        (("sessions", "delete", "Friday"), 1, "give --yes"),
    ],
)
def test_history_commands_refuse_in_one_sentence(
    evening: Path, args: tuple[str, ...], code: int, fragment: str
) -> None:
    got, _, err = run(*args, "--db", str(evening), input="")
    assert got == code and fragment in err


def test_rename_keeps_the_current_session_and_refuses_a_taken_name(evening: Path) -> None:
    ok("new", "Sat", "A", "B", "--db", str(evening))
    code, _, err = run("sessions", "rename", "Sat", "Friday", "--db", str(evening))
    assert code == 1 and "exists already" in err
    ok("sessions", "rename", "Sat", "Saturday", "--db", str(evening))
    assert json.loads(ok("standings", "--json", "--db", str(evening)))["session"] == "Saturday"


def test_delete_asks_and_removes_everything_of_that_session(
    evening: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("romme_score.cli.options.stdin_is_terminal", lambda: True)  # a person answers
    ok("new", "Keep", "A", "B", "--db", str(evening))
    ok("round", "--winner", "A", "B=5", "--db", str(evening))
    assert "Nothing deleted" in ok("sessions", "delete", "Friday", "--db", str(evening), input="n\n")
    ok("sessions", "delete", "Friday", "--db", str(evening), input="y\n")
    con = sqlite3.connect(evening)
    for table in ("rounds", "players", "totals", "notes", "renames"):
        left = con.execute(
            f"SELECT COUNT(*) FROM {table} WHERE session_id NOT IN (SELECT id FROM sessions)"
        ).fetchone()[0]
        assert left == 0, table
    assert (
        con.execute("SELECT COUNT(*) FROM hands WHERE round_id NOT IN (SELECT id FROM rounds)").fetchone()[0]
        == 0
    )
    assert [r[0] for r in con.execute("SELECT name FROM sessions")] == ["Keep"]
    con.close()
    assert len(json.loads(ok("standings", "--json", "--db", str(evening)))["rounds"]) == 1


def test_csv_scoresheet_has_dealer_time_totals_and_places(evening: Path) -> None:
    rows = list(csv.reader(io.StringIO(ok("export", "--format", "csv", "--db", str(evening)))))
    head = rows[0]
    assert head[:4] == ["round", "winner", "hand_romme", "stalemate"] and head[-2:] == ["dealer", "time"]
    body = {r[0]: r for r in rows[1:]}
    assert [body[n][-2] for n in ("1", "2", "3")] == ["Ben", "Carl", "Anna"]  # from --dealer Ben
    assert all(body[n][-1] for n in ("1", "2", "3"))
    standings = json.loads(ok("standings", "--json", "--db", str(evening)))
    totals = {p["name"]: p["total"] for p in standings["players"]}
    players = ["Anna", "Ben", "Carl"]
    assert [int(x) for x in body["total"][4:7]] == [totals[p] for p in players]
    assert body["place"][4:7] == [str(1 + sum(t < totals[p] for t in totals.values())) for p in players]


def test_streamed_standings_rounds_equal_the_scoresheet_view(evening: Path) -> None:
    """standings --json takes its rounds from the store's points lines: the same as the view's."""
    from romme_score.sessions import SessionService
    from romme_score.views.session import standings_json

    streamed = json.loads(ok("standings", "--json", "--db", str(evening)))["rounds"]
    with SessionService(evening) as service:
        expected = list(standings_json(service.standings(service.session()))["rounds"])
    assert streamed == expected and any(r["bonus"] for r in streamed)


def test_streamed_standings_rounds_are_the_text_json_dumps_gives(tmp_path: Path) -> None:
    """The points lines' templates write what json.dumps writes for each round's dict, with
    names JSON escapes and %-templates would misread, a stalemate, a Hand-Rommé and bonuses."""
    from romme_score.sessions import SessionService
    from romme_score.stream import stream_json
    from romme_score.views.session import standings_json, standings_rounds_json

    db = tmp_path / "odd.sqlite3"
    d = ("--db", str(db))
    names = ('Ann "the fox"', "B\\ob", "J%sürgen 50%", "Zoë ♥")
    ok("new", "Odd", *names, *d)
    a, b, c, z = names
    ok("round", "--winner", a, f"{b}=HK K10", f"{c}=5", f"{z}=J", *d)
    ok("round", "--winner", b, "--hand-romme", f"{a}=3", f"{c}=P7 P8", f"{z}=0", *d)
    ok("round", "--stalemate", f"{a}=3", f"{b}=4", f"{c}=5", f"{z}=6", *d)
    with SessionService(db) as service:
        info = service.session("Odd")
        lines = service.points_lines(info)
        assert lines is not None  # SQLite lines them up
        fast = list(standings_rounds_json(info.players, lines))
        plain = [json.dumps(r, ensure_ascii=False) for r in standings_json(service.standings(info))["rounds"]]
        assert fast == plain and len(fast) == 3
        streamed = "".join(stream_json({"rounds": iter(fast)}))
        assert json.loads(streamed)["rounds"][2]["winner"] is None
