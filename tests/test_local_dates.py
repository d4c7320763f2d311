"""Days and times as the language writes them, in local time (issue 20 item 14): the
terminal and the report show ``1.12.2026, 10:15`` / ``1 Dec 2026, 10:15``; JSON and the
export keep ISO 8601 in UTC; ``--since`` takes ``2026-12-01`` and ``1.12.2026`` alike.

Every test here sets the time zone (TZ and ``time.tzset``), so that it runs the same on
any machine."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from clirun import ok, run

from romme_score.i18n import using_language
from romme_score.inputs import InputValueError, parse_day
from romme_score.views.local import day_text, stamp_day, time_text

STAMP = "2026-12-01T09:15:08+00:00"  # 10:15 in Berlin (winter time)
LATE = "2026-11-30T23:30:00+00:00"  # already 1 December in Berlin


@pytest.fixture
def berlin(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.parametrize(
    ("lang", "stamp", "shown", "day"),
    [
        ("de", STAMP, "1.12.2026, 10:15", "1.12.2026"),
        ("en", STAMP, "1 Dec 2026, 10:15", "1 Dec 2026"),
        ("de", LATE, "1.12.2026, 00:30", "1.12.2026"),
        ("en", "2026-07-04T18:05:00+00:00", "4 Jul 2026, 20:05", "4 Jul 2026"),  # summer time
    ],
)
def test_a_stored_utc_time_is_shown_in_local_time_in_the_languages_style(
    berlin: None, lang: str, stamp: str, shown: str, day: str
) -> None:
    with using_language(lang):
        assert time_text(stamp) == shown
        assert stamp_day(stamp) == day


def test_a_time_that_cannot_be_read_is_shown_as_kept(berlin: None) -> None:
    assert time_text("") == "" and time_text(None) == ""
    assert time_text("last Friday") == "last Friday"
    with using_language("de"):
        assert time_text("2026-12-01T09:15:08") == "1.12.2026, 10:15"  # no zone: kept as UTC
        assert day_text(date(2026, 1, 5)) == "5.1.2026"
        assert day_text(date(2026, 1, 5), column=True) == "05.01.2026"


def _fixed_times(db: Path) -> None:
    with sqlite3.connect(db) as c:
        c.execute("UPDATE notes SET at = ?", (STAMP,))
        c.execute("UPDATE renames SET at = ?", (STAMP,))
        c.execute("UPDATE rounds SET changed_at = ? WHERE changed_at IS NOT NULL", (STAMP,))
        c.execute("UPDATE sessions SET created_at = ?", (LATE,))


@pytest.mark.parametrize(
    ("lang", "shown", "day"),
    [("de", "1.12.2026, 10:15", "01.12.2026"), ("en", "1 Dec 2026, 10:15", "01 Dec 2026")],
)
def test_standings_and_sessions_show_local_times_json_keeps_utc(
    berlin: None, isolated_data_dir: Path, lang: str, shown: str, day: str
) -> None:
    ok("new", "Friday", "Anna", "Ben", "--until", "open")
    ok("round", "--winner", "Anna", "Ben=12")
    ok("round", "--winner", "Ben", "Anna=7")
    ok("undo", "--yes")
    ok("note", "a good start")
    ok("sessions", "rename", "Friday", "Freitag")
    _fixed_times(isolated_data_dir)
    out = ok("--lang", lang, "standings")
    assert "+00:00" not in out and "2026-12-01" not in out
    assert out.count(shown) == 3, out  # the correction, the note, the rename
    listed = ok("--lang", lang, "sessions")
    assert day in listed and "2026-11-30" not in listed  # the local day, not UTC's, two digits
    data = json.loads(ok("standings", "--json"))
    assert data["notes"][0]["at"] == STAMP and data["corrections"][0]["at"] == STAMP
    assert json.loads(ok("sessions", "--json"))[0]["created"] == LATE


def test_the_report_names_the_days_in_its_language(berlin: None, isolated_data_dir: Path) -> None:
    ok("new", "Friday", "Anna", "Ben")
    ok("round", "--winner", "Anna", "Ben=12")
    _fixed_times(isolated_data_dir)
    german = ok("--lang", "de", "report")
    assert "begonnen am 1.12.2026" in german or "1.12.2026" in german.split("<footer>")[0]
    assert "2026-11-30" not in german and "2026-12-01" not in german
    footer = german.split("<footer>")[1]
    assert day_text_of_today("de") in footer
    english = ok("report")
    assert "started 1 Dec 2026" in english and day_text_of_today("en") in english.split("<footer>")[1]


def day_text_of_today(lang: str) -> str:
    with using_language(lang):
        return day_text(date.today())


@pytest.mark.parametrize("typed", ["2026-12-01", "1.12.2026", "01.12.2026", " 2026-12-1 ", "1.12.2026"])
def test_a_day_reads_in_iso_and_german_form(typed: str) -> None:
    assert parse_day(typed, "--since") == date(2026, 12, 1)


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("12/01/2026", "--since '12/01/2026' is not a date: give it as 2026-12-01 or 1.12.2026"),
        ("31.2.2026", "--since '31.2.2026' is not a date: month 2 of 2026 has 28 days"),
        ("2026-13-01", "--since '2026-13-01' is not a date: there is no month 13"),
        ("0000-01-01", "--since '0000-01-01' is not a date: give it as 2026-12-01 or 1.12.2026"),
        ("1.12.", "--since '1.12.' has no year: did you mean 1.12.2026?"),
    ],
)
def test_a_day_that_cannot_be_read_says_why(typed: str, message: str) -> None:
    with pytest.raises(InputValueError) as caught:
        parse_day(typed, "--since", date(2026, 11, 28))
    assert str(caught.value) == message


def test_stats_since_takes_both_forms(berlin: None, isolated_data_dir: Path) -> None:
    ok("new", "Friday", "Anna", "Ben")
    ok("round", "--winner", "Anna", "Ben=12")
    _fixed_times(isolated_data_dir)  # started 30 Nov 23:30 UTC: 1 December in Berlin
    for typed in ("2026-12-01", "1.12.2026", "01.12.2026"):
        assert json.loads(ok("stats", "--json", "--since", typed))["players"], typed
    assert json.loads(ok("stats", "--json", "--since", "2.12.2026"))["players"] == []
    out = ok("--lang", "de", "stats", "--since", "01.12.2026")
    assert "1.12.2026" in out and "2026-12-01" not in out
    code, _, err = run("stats", "--since", "31.11.2026")
    assert code == 2 and err.count("\n") == 1 and "month 11 of 2026 has 30 days" in err
    assert "Traceback" not in err and os.environ["TZ"] == "Europe/Berlin"
