"""What a German card table read (issue 20 items 10, 11 and 13): no English left in German
help and messages, the end of the game in words, the operating system's reasons in
German, the sentences a card player stumbled over, and the rules' sources named in words
(their numbers 000-004 only with --verbose, in the JSON and in the README)."""

from __future__ import annotations

import errno
import json
import re
from importlib.metadata import version
from pathlib import Path

import click
import pytest
from clirun import ok, run

from romme_score import i18n
from romme_score.rules import GameEnd

# --- item 10: English left in German mode -------------------------------------------------

COMMANDS = [
    *(
        [name]
        for name in (
            "check value best rules settle new round undo edit standings sessions use export "
            "import note chart stats report play serve tournament"
        ).split()
    ),
    ["sessions", "rename"],
    ["sessions", "delete"],
    *(["tournament", name] for name in "new draw standings withdraw payout sheets".split()),
]
ENGLISH_PLACEHOLDER = re.compile(
    r"\b(OPTIONS|COMMAND|ARGS|PLAYERS?|MELDS?|HANDS|TOTALS|PRESET|SESSION|ROUND|FILE|OLD|NEW|"
    r"INTEGER|AMOUNT|LIST|CODE|KEY=VALUE|YYYY-MM-DD)\b"
)
ENGLISH_HELP = ("Show the version", "Delete a session", "Rename a session", "Do not ask", "Database file")


def test_german_help_of_the_group_names_its_placeholders_and_version_in_german() -> None:
    out = ok("--lang", "de", "--help")
    assert re.match(r"Aufruf: \S+ \[OPTIONEN\] BEFEHL \[ARGUMENTE\]\.\.\.\n", out)
    assert "--version       Die Version zeigen und beenden." in out
    assert "Show the version" not in out
    assert re.match(r"Usage: \S+ \[OPTIONS\] COMMAND \[ARGS\]\.\.\.\n", ok("--help"))  # as it was


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_german_help_of_every_command_and_subcommand_has_no_english(command: list[str]) -> None:
    out = ok("--lang", "de", *command, "--help")
    usage = out.splitlines()[0]
    assert usage.startswith("Aufruf: ") and f" {' '.join(command)} [OPTIONEN]" in usage, usage
    assert not any(text in out for text in ENGLISH_HELP), out
    for line in out.splitlines():
        if line.startswith("Aufruf:") or line.lstrip().startswith("-"):  # the usage, an option
            assert not ENGLISH_PLACEHOLDER.search(line), line


def test_the_subcommands_of_sessions_speak_german() -> None:
    out = ok("--lang", "de", "sessions", "--help")
    assert "delete  Eine Partie mit allen Runden" in out and "rename  Eine Partie umbenennen" in out
    out = ok("sessions", "delete", "--help", "--lang", "de")
    assert "Nicht nachfragen." in out and "Datenbankdatei" in out
    assert "Do not ask." in ok("sessions", "delete", "--help")


def test_a_missing_argument_is_named_in_german() -> None:
    code, _, err = run("--lang", "de", "new", "Freitag")
    assert code == 2 and " new [OPTIONEN] NAME SPIELER..." in err
    assert "Fehlendes Argument 'SPIELER...'" in err


def test_version_in_german_and_english() -> None:
    assert ok("--lang", "de", "--version").endswith(f", Version {version('romme-score')}\n")
    assert ok("--version").endswith(f", version {version('romme-score')}\n")


@pytest.mark.parametrize(
    "until, german, english",
    [
        ("rounds:5", "sie endet nach 5 Runden", "it ends after 5 rounds"),
        ("runden:1", "sie endet nach 1 Runde", "it ends after 1 round"),
        ("open", "sie hat kein festes Ende", "it has no set end"),
        ("offen", "sie hat kein festes Ende", "it has no set end"),
        ("1000", "sie endet bei 1000 Punkten", "it ends at 1000 points"),
    ],
)
def test_the_end_of_the_game_in_words(until: str, german: str, english: str) -> None:
    out = ok("--lang", "de", "new", "Freitag", "Anna", "Ben", "--until", until)
    assert f"begonnen; {german}." in out and "rounds:" not in out and " open" not in out
    standings = ok("--lang", "de", "standings")
    assert f"Gespielte Runden: 0; die Partie {german.removeprefix('sie ')}" in standings
    assert "rounds:" not in standings and "endet bei:" not in standings
    ok("sessions", "delete", "Freitag", "--yes")
    assert f"; {english}." in ok("new", "Freitag", "Anna", "Ben", "--until", until)


def test_game_end_reads_the_german_words_and_stores_the_english_ones() -> None:
    assert GameEnd.parse("Runden:7") == GameEnd("rounds", 7)
    assert GameEnd.parse(" OFFEN ") == GameEnd("open")
    data = json.loads(ok("rules", "--json", "--rule", "game_end=runden:5"))
    assert data["game_end"] == "rounds:5"


@pytest.mark.parametrize("preset", ["standard", "classic", "wiki-51", "speedromme", "basic"])
def test_german_rules_say_no_rounds_and_no_open(preset: str) -> None:
    out = ok("--lang", "de", "rules", preset)
    assert not re.search(r"\b(rounds|open)\b", out), [
        line for line in out.splitlines() if re.search(r"\b(rounds|open)\b", line)
    ]
    assert "runden:N oder offen" in out
    if preset == "classic":
        assert re.search(r"^game_end( +| = )offen\b", out, re.MULTILINE)  # a table or, narrow, a block


def test_a_file_that_cannot_be_written_says_why_in_german(tmp_path: Path) -> None:
    ok("new", "Freitag", "Anna", "Ben")
    target = str(tmp_path / "kein-ordner" / "f.json")
    code, _, err = run("--lang", "de", "export", "-o", target)
    assert code == 1 and f"{target} lässt sich nicht schreiben: die Datei oder den Ordner gibt es" in err
    assert "No such file" not in err and "schreibbar" not in err
    code, _, err = run("--lang", "de", "import", str(tmp_path / "fehlt.json"))
    assert code == 2 and "ist nicht lesbar: die Datei oder den Ordner gibt es nicht" in err
    code, _, err = run("export", "-o", target)
    assert "cannot write" in err and "there is no such file or folder" in err


@pytest.mark.parametrize("name", "ENOENT EACCES EPERM EROFS ENOSPC EISDIR ENOTDIR EEXIST".split())
def test_the_common_os_errors_are_worded_in_both_languages(name: str) -> None:
    number = getattr(errno, name)
    exc = OSError(number, "the operating system's English")
    with i18n.using_language("de"):
        german = i18n.os_reason(exc)
    with i18n.using_language("en"):
        english = i18n.os_reason(exc)
    assert german != english and "English" not in german + english
    assert german == german.lower() or german[0].islower()  # it continues a sentence


def test_the_preset_label_in_german() -> None:
    ok("new", "Freitag", "Anna", "Ben", "--rule", "wraparound=true")
    assert "Regeln der Partie 'Freitag' (standard mit 1 Änderung)" in ok("--lang", "de", "value", "HK")


# --- item 11: German as a card table says it ----------------------------------------------


def test_the_sentences_a_german_table_stumbled_over() -> None:
    code, out, _ = run("--lang", "de", "check", "--first", "HK HK HK")
    assert "♥K kommt 3-mal vor, aber mit 2 Blättern gibt es jede Karte nur 2-mal" in out
    out = ok("--lang", "de", "check", "--first", "P3 P4 P5", "TB PB HB")
    assert "Erstmeldung: reicht (42 Punkte, nötig sind 40)" in out and "nötigen" not in out
    ok("new", "Basic", "Anna", "Ben", "--preset", "basic")
    out = ok("--lang", "de", "round", "--stalemate", "Anna=5", "Ben=HK")
    assert out.startswith("Partie 'Basic', Runde 1 (Patt: der Stapel ist aufgebraucht")
    out = ok("--lang", "de", "standings")
    assert "-N Bonus abgezogen" in out and "gestrichen" not in out  # the legend of every scoresheet
    out = ok("--lang", "de", "stats")
    assert "Geld: abgerechnet in den Partien mit Punktwert." in out and "Satz" not in out
    code, _, err = run("--lang", "de", "round", "--winner", "Anna", "Ben=HK HK HK")
    # one hand is refused as it arrives, at every door, naming whose it is (issue 27)
    assert "Ben: ♥K kommt 3-mal vor, aber mit 1 Blatt gibt es jede Karte nur 1-mal" in err
    code, _, err = run("--lang", "de", "round", "--stalemate", "Anna=HK", "Ben=HK")
    assert "die Karten dieser Runde passen nicht zusammen" in err and "die Hände" not in err
    code, _, err = run("--lang", "de", "round", "--winner", "Anan", "Ben=5")
    assert "war Anna gemeint?" in err


def test_the_table_modes_lines_in_german() -> None:
    with i18n.using_language("de"):
        distance = i18n._("%(left)d to go until %(limit)d (%(leader)s has %(total)d)")
        assert distance % {"left": 380, "limit": 500, "leader": "Anna", "total": 120} == (
            "bis 500: noch 380 (Anna hat 120)"
        )
        error = i18n._("the hands do not add up at %(player)s's hand: %(error)s; correct it (Up recalls)")
        assert error % {"player": "Carl", "error": "…"} == (
            "mit der Hand von Carl passen die Karten nicht zusammen: …; "
            "bitte berichtigen (↑ holt die Eingabe zurück)"
        )
        toolbar = i18n._("cards left (HK K10 J) or points · Up recalls · Ctrl-C discards the round")
        assert len(toolbar) <= 80 and "Runde" in toolbar and "Pfeil hoch" not in toolbar


# --- item 13: the sources named in words --------------------------------------------------

SOURCE_NUMBER = re.compile(r"(?<![\w#.,/-])00[0-4](?!\w)")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_no_source_number_in_what_a_card_player_reads(lang: str, tmp_path: Path) -> None:
    for args in (
        ["rules"],
        ["rules", "classic"],
        ["rules", "--list"],
        ["settle", "--help"],
        ["round", "--help"],
        ["check", "--onto", "HK KK PK", "J", "--rule", "joker_layoff=with-natural"],
    ):
        _, out, _ = run("--lang", lang, *args)
        assert not SOURCE_NUMBER.search(out), (args, SOURCE_NUMBER.findall(out))
    ok("new", "Freitag", "Anna", "Ben", "--rate", "0.01")
    ok("round", "--winner", "Anna", "Ben=20")
    page = tmp_path / "r.html"
    ok("--lang", lang, "report", "-o", str(page))
    html = page.read_text(encoding="utf-8")
    assert not SOURCE_NUMBER.search(html), SOURCE_NUMBER.findall(html)
    words = {"en": "as in the classic rule sheet", "de": "wie im klassischen Regelblatt"}[lang]
    assert words in html


def test_the_sources_in_words_and_their_numbers_with_verbose_and_in_the_json(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out = " ".join(ok("--lang", "de", "rules").split())  # at 80 columns: wrapped blocks
    assert "beim 'Rommé mit 10', einer Variante des klassischen Regelblatts" in out
    assert "(das einfache Rommé spielt mit einem)" in out
    monkeypatch.setenv("COLUMNS", "400")  # wide enough for the tables
    out = ok("rules", "--verbose")
    options = out.split("\n\n")[1]  # after what each card counts
    assert "source" in options.splitlines()[0] and "002 e 'Rommé mit 10'" in out and "001: 1" in out
    assert "Quelle" in ok("--lang", "de", "rules", "-v").split("\n\n")[1].splitlines()[0]
    listed = ok("rules", "--list", "--verbose")
    assert re.search(r"^wiki-51 +Rommé mit Auslegen: .* 000$", listed, re.MULTILINE)
    data = json.loads(ok("rules", "--list", "--json"))
    assert data["wiki-51"]["description"].startswith("000 Rommé mit Auslegen: 51 to come out")
    assert data["classic"]["source"] == "002" and data["standard"]["source"] is None


@pytest.mark.parametrize(
    "typed, reason",
    [
        ('{"a" 1}', "hier fehlt ein ':'"),
        ("", "hier fehlt ein Wert"),
        ("[1 2]", "hier fehlt ein ','"),
        ('{"a": 1} x', "nach dem Ende der Daten folgt noch etwas"),
    ],
)
def test_a_file_that_is_no_json_is_said_in_german(tmp_path: Path, typed: str, reason: str) -> None:
    """The new-user trial of issue 20: 'ist kein gültiges JSON: Expecting value'."""
    bad = tmp_path / "kaputt.json"
    bad.write_text(typed, encoding="utf-8")
    code, _, err = run("--lang", "de", "import", str(bad))
    assert code == 2 and reason in err and "Expecting" not in err, err


def test_a_number_that_is_no_number_is_said_without_click_s_type_name() -> None:
    """'x' ist keine gültige Zahl (integer): the type name was English."""
    code, _, err = run("--lang", "de", "edit", "x")
    assert code == 2 and "keine gültige Zahl" in err and "integer" not in err, err


@pytest.mark.parametrize("command", ["new", "settle", "import", "serve"])
def test_option_values_have_german_placeholders_not_text(command: str) -> None:
    """--rate BETRAG, --currency KÜRZEL, --until ENDE, --name NAME, --host ADRESSE."""
    shown = ok("--lang", "de", command, "--help")
    assert " TEXT " not in shown and "TEXT\n" not in shown, shown


def _command_lines() -> list[list[str]]:
    from romme_score.cli import main

    lines: list[list[str]] = []
    ctx = click.Context(main)
    for name in main.list_commands(ctx):
        command = main.get_command(ctx, name)
        lines.append([name])
        if isinstance(command, click.Group):
            lines.extend([name, sub] for sub in command.list_commands(ctx))
    return lines


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_help_fits_80_columns(lang: str) -> None:
    """The new-user trial of issue 20: the examples of best, new, play and tournament were
    85-96 columns wide (Click does not wrap an example block)."""
    for line in _command_lines():
        shown = ok("--lang", lang, *line, "--help")
        wide = [text for text in shown.splitlines() if len(text) > 80]
        assert wide == [], (line, wide)
