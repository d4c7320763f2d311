"""Issue 38 items 5-10, 12 and 13: a German evening in the words a card table uses (hilfe
at the bottom of the table mode, a league's game is a Partie, a tournament table counts
its Spiele, a seat is a Sitzplatz, money always with its currency, the round's fourth
column headed) and the table mode's lines: the answer to ``rückgängig`` on one line when
it fits, a hand corrected at the summary typed on an empty line (in a pseudo-terminal)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import httpx
import pytest
from clirun import ok
from serving import in_process
from test_play_terminal import UP, Terminal, points

from romme_score.i18n import using_language
from romme_score.rules import find_preset
from romme_score.sessions import SessionService
from romme_score.table.words import find
from romme_score.views import play

PTY = pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")


def test_the_winners_toolbar_ends_with_the_word_the_table_mode_takes_issue_38_item_5() -> None:
    for lang, word in [("de", "hilfe"), ("en", "help")]:
        with using_language(lang):
            line = play.winner_toolbar(["Anna", "Ben", "Carl"])
            said = find(word)
        assert line.endswith(f"· {word}"), line
        assert said is not None and said.name == "help"


def test_a_league_calls_an_evenings_game_a_partie_issue_38_item_6(isolated_data_dir: Path) -> None:
    ok("new", "Freitag", "Anna", "Ben", "Carl", "--until", "rounds:1")
    ok("round", "--winner", "Anna", "Ben=10", "Carl=20")
    ok("league", "new", "Klub", "--season", "2026")
    said = [ok("--lang", "de", "league", "add", "Klub", "--session", "Freitag")]
    said.append(ok("--lang", "de", "league", "standings", "Klub"))
    report = isolated_data_dir.parent / "saison.html"
    ok("--lang", "de", "league", "report", "Klub", "-o", str(report))
    said.append(report.read_text(encoding="utf-8"))
    for command in ("add", "remove"):
        said.append(ok("--lang", "de", "league", command, "--help"))
    said.append(ok("--lang", "de", "league", "--help"))
    said.append(ok("--lang", "de", "league", "remove", "Klub", "--session", "Freitag"))
    text = "\n".join(said)
    assert "Zur Liga 'Klub' hinzugefügt: Partie 'Freitag'." in text
    assert "1. Freitag (Partie, " in text and "Partie · " in text
    assert "Aus der Liga 'Klub' genommen: Partie 'Freitag'." in text
    assert not re.search(r"\bSpiel(e|s)?\b", text), re.findall(r".*\bSpiel(?:e|s)?\b.*", text)
    # English as before, and a tournament's game on its sheet is still a Spiel
    assert "game 'Freitag'" in ok("league", "add", "Klub", "--session", "Freitag")
    ok("tournament", "new", "Cup", "Anna", "Ben", "Carl", "Dora", "--series", "1", "--games", "2")
    ok("tournament", "draw")
    sheets = isolated_data_dir.parent / "zettel.html"
    ok("--lang", "de", "tournament", "sheets", "-o", str(sheets))
    assert "<th>Spiel</th>" in sheets.read_text(encoding="utf-8")


def test_a_tournament_tables_phone_page_counts_games_issue_38_item_7(isolated_data_dir: Path) -> None:
    ok("tournament", "new", "Cup", "Anna", "Ben", "Carl", "Dora", "--series", "1", "--games", "3")
    table = json.loads(ok("tournament", "draw", "--json"))["tables"][0]["session"]
    with in_process(isolated_data_dir, table) as (served, _server), httpx.Client(timeout=10) as http:
        for url in (served.board, served.scorekeeper, *served.seats.values()):
            view = http.get(url + "/state.json", params={"lang": "de"}).json()["view"]
            assert view["heading"] == f"{table} · Spiel 1" and view["distance"] == "noch 3 Spiele von 3"
            assert view["last_round"] == "Noch kein Spiel gespielt."
        ok("round", "--session", table, "--winner", "Anna", "Ben=10", "Carl=20", "Dora=5")
        view = http.get(served.board + "/state.json", params={"lang": "de"}).json()["view"]
        assert (view["heading"], view["distance"]) == (f"{table} · Spiel 2", "noch 2 Spiele von 3")
        assert view["last_round"] == "Spiel 1: Anna hat ausgemacht"
        english = http.get(served.board + "/state.json", params={"lang": "en"}).json()["view"]
        assert (english["heading"], english["distance"]) == (f"{table} · game 2", "2 games left of 3")
        assert english["last_round"] == "Game 1: Anna went out"
    # a game of its own keeps its rounds
    ok("new", "Freitag", "Anna", "Ben", "--until", "rounds:3")
    with in_process(isolated_data_dir, "Freitag") as (served, _server), httpx.Client(timeout=10) as http:
        view = http.get(served.board + "/state.json", params={"lang": "de"}).json()["view"]
        assert (view["heading"], view["distance"]) == ("Freitag · Runde 1", "noch 3 Runden von 3")


def test_the_seat_page_names_the_sitzplatz_issue_38_item_8(isolated_data_dir: Path) -> None:
    ok("new", "Freitag", "Anna", "Ben", "Carl")
    with in_process(isolated_data_dir, "Freitag") as (served, _server), httpx.Client(timeout=10) as http:
        page = http.get(served.seats["Anna"], params={"lang": "de"}).text
        links = http.get(served.scorekeeper, params={"lang": "de"}).text
    assert "Sitzplatz von {player}" in page and "Platz von" not in page.replace("Sitzplatz von", "")
    assert "Platz" in page  # the rank's column keeps its word
    with using_language("de"):
        from romme_score.views.web import link_heading

        assert link_heading("seat", "Anna").startswith("Sitzplatz von Anna:")
    assert "Platz von" not in links.replace("Sitzplatz von", "")


def test_stats_shows_money_with_its_currency_for_everybody_issue_38_item_9() -> None:
    ok("new", "Freitag", "Anna", "Ben", "--until", "rounds:1", "--rate", "0.01", "--currency", "EUR")
    ok("round", "--winner", "Anna", "Ben=10")
    ok("new", "Samstag", "Anna", "Carl", "--until", "rounds:2")  # no money: Carl never played for any
    ok("round", "--winner", "Carl", "Anna=10")
    german = ok("--lang", "de", "stats")
    assert re.search(r"^Carl .* 0,00 €$", german, re.MULTILINE), german
    assert re.search(r"^Ben .* -0,10 €$", german, re.MULTILINE), german
    english = ok("stats")
    assert re.search(r"^Carl .* €0\.00$", english, re.MULTILINE), english
    assert re.search(r"^Carl .* 0,00 EUR$", ok("--lang", "de", "stats", "--ascii"), re.MULTILINE)


def test_the_rounds_fourth_column_has_a_heading_issue_38_item_10() -> None:
    ok("new", "Freitag", "Anna", "Ben", "Carl")
    for lang, heading in [("de", "Bemerkung"), ("en", "remark")]:
        out = ok("--lang", lang, "round", "--winner", "Anna", "Ben=10", "Carl=20")
        head, rule = out.splitlines()[1:3]
        assert len(rule.split()) == 4, out
        assert head[rule.rindex(" ") + 1 :].strip() == heading, out  # above the fourth rule


@pytest.fixture
def abend(isolated_data_dir: Path) -> Path:
    with SessionService(isolated_data_dir) as service:
        service.create(
            "Abend", ["Annabell", "Benedikt", "Carlotta", "Dorothea"], find_preset("standard"), None, None
        )
    for _ in range(4):
        ok("round", "--winner", "Annabell", "Benedikt=10", "Carlotta=20", "Dorothea=30")
    return isolated_data_dir


@PTY
def test_the_answer_to_undo_is_one_line_when_it_fits_issue_38_item_12(abend: Path) -> None:
    term = Terminal(["--lang", "de", "play"], abend, locale={"ROMME_LANG": "de"})
    term.wait_for("Abend · Runde 5>")
    term.type("rückgängig\r", "[j/N]")
    term.type("j\r", "Runde 4 entfernt.")
    term.wait_for("Abend · Runde 4>")
    removed = next(line for line in term.text.splitlines() if "Runde 4 entfernt." in line)
    assert removed.startswith("Runde 4 entfernt. Stand: ") and len(removed) <= 80, term.text
    assert "  entfernt." not in term.text
    term.type("ende\r")
    assert term.close() == 0
    assert len(points(abend, "Abend")) == 3


@PTY
def test_a_hand_corrected_at_the_summary_is_typed_on_an_empty_line_issue_38_item_13(abend: Path) -> None:
    term = Terminal(["--lang", "de", "play"], abend, locale={"ROMME_LANG": "de"})
    term.wait_for("Abend · Runde 5>")
    term.type("1\r", "2 Benedikt>")
    term.type("J P5 P6\r", "3 Carlotta>")
    term.type("5\r", "4 Dorothea>")
    term.type("7\r", "Enter speichert>")
    term.type("2\r", "2 Benedikt hatte J P5 P6")  # the old hand shown above an empty line
    term.wait_for("↑ holt sie zurück")
    term.pump(0.3)
    assert term.text.splitlines()[-3:][0].rstrip().endswith("2 Benedikt>") or re.search(
        r"2 Benedikt>\s*$", term.text, re.MULTILINE
    ), term.text
    term.type("P5 P6\r")  # typed as new, it is the hand: not 'J P5 P6P5 P6'
    term.wait_for("Enter speichert>", count=2)
    assert "P6P5" not in term.transcript and "nicht lesbar" not in term.text, term.text
    term.type("2\r", "2 Benedikt hatte P5 P6")
    term.type(UP, "2 Benedikt> P5 P6")  # Up recalls the hand it replaces
    term.type("\r")
    term.wait_for("Enter speichert>", count=3)
    term.type("\r", "Abend · Runde 6>")
    term.type("ende\r")
    assert term.close() == 0
    assert points(abend, "Abend")[-1] == {"Annabell": 0, "Benedikt": 11, "Carlotta": 5, "Dorothea": 7}
