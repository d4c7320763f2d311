"""``settle``, ``standings`` and ``rules`` fit the terminal (issue 20 item 17): six players
at 60 columns wrapped into unreadable lines, and the rules' rows were about 240 characters
wide at 80. Where the wide table does not fit, a narrower layout does, as the table mode's
panel narrows; measured by display width, at 60 and 80 columns, in both languages."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from clirun import ok, run

from romme_score.rules import OPTION_NAMES
from romme_score.views.width import width

SIX = ["Annabelle", "Benedikt", "Carlotta", "Dorothea", "Eberhard", "Friederike"]


def romme(columns: int, lang: str, *args: str) -> str:
    code, out, err = run("--lang", lang, *args, env={"COLUMNS": str(columns)})
    assert code == 0, err
    return out


@pytest.fixture
def six() -> None:
    ok("new", "Six", *SIX, "--rate", "0.01", "--currency", "EUR")
    ok("round", "--winner", SIX[0], *(f"{p}={17 * i}" for i, p in enumerate(SIX[1:], 1)))
    ok("round", "--stalemate", *(f"{p}={10 * i}" for i, p in enumerate(SIX, 1)))
    ok("round", "--winner", SIX[1], "--hand-romme", *(f"{p}=12" for p in SIX if p != SIX[1]))
    ok("note", "Friederike deals with the left hand")


def too_wide(text: str, columns: int) -> list[str]:
    return [line for line in text.splitlines() if width(line) > columns]


@pytest.mark.parametrize("columns", [60, 80])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_settle_and_standings_of_six_players_fit_the_terminal(six: None, columns: int, lang: str) -> None:
    data = json.loads(ok("settle", "--json"))
    settled = romme(columns, lang, "settle")
    assert too_wide(settled, columns) == [], settled
    for p in data["players"]:  # each player on one line: name, total, net, money, place
        amount = Decimal(p["amount"])
        money = (
            f"{amount:.2f}".replace(".", ",") + " €"
            if lang == "de"
            else f"{'-' if amount < 0 else ''}€{abs(amount):.2f}"
        )
        line = next(line for line in settled.splitlines() if line.startswith(p["name"] + " "))
        assert line.split()[1:3] == [str(p["total"]), f"{p['net']:+d}"] and money in line, line
    standings = romme(columns, lang, "standings")
    assert too_wide(standings, columns) == [], standings
    players = json.loads(ok("standings", "--json"))["players"]
    total = next(line for line in standings.splitlines() if line.startswith(("total", "Summe")))
    assert total.split()[1:] == [str(p["total"]) for p in players], standings
    assert "left hand" in standings


@pytest.mark.parametrize("columns", [60, 80])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_rules_fit_the_terminal_and_name_every_option(columns: int, lang: str) -> None:
    shown = romme(columns, lang, "rules")
    assert too_wide(shown, columns) == [], max(too_wide(shown, columns), key=len)
    assert all(f"{name} = " in shown for name in OPTION_NAMES)
    assert too_wide(romme(columns, lang, "rules", "--list"), columns) == []


def test_a_wide_terminal_keeps_the_wide_tables(six: None) -> None:
    settled = romme(200, "en", "settle")
    assert "vs Friederike" in settled and "each against each" not in settled
    assert "= 37" in romme(200, "en", "standings")  # the running totals
    assert "option " in romme(300, "en", "rules").split("\n\n")[1].splitlines()[0]  # the table's head


@pytest.mark.parametrize("columns", [60, 80])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_sessions_list_of_six_players_fits_the_terminal(six: None, columns: int, lang: str) -> None:
    """`sessions` (also typed in the table mode) was a table of 61 columns and more with
    six players; narrow, a session takes two lines and every name is still there."""
    ok("new", "Sonntagabend bei Friederike", *SIX[:4])
    listed = romme(columns, lang, "sessions")
    assert too_wide(listed, columns) == [], listed
    flat = " ".join(listed.split())
    assert "* Sonntagabend bei Friederike" in flat and all(name in flat for name in SIX), listed
