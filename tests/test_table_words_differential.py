"""The table mode's command words say what the command line says (issue 35 item 2).

For each word that is a ``romme`` command (new, use, sessions, note, standings, undo, edit,
settle, best, value, check, rules, round, export; ``phones`` is none), its German name too,
in English and in German (``ROMME_LANG=en``, ``ROMME_LANG=de``, ``--lang de``), a line of a
``romme play`` script and the same words as a ``romme`` command line run against two
copies of one database; their standard output, standard error and exit code must be the
same, byte for byte.

Normalised, because the table mode adds it by design: the script's own line after a
failing line, ``line 1 failed (exit code N): ...`` on standard error, is taken out of the
script's standard error, and its N is the line's exit code (0 where there is no such
line; the script itself exits 1 when any line failed). The played session is the
current one, so neither side names it (``romme play`` adds ``--session`` to its lines,
the command line uses the current session: the same one). ``romme play``'s own
``--notation`` and ``--ascii`` are the command line's options of those names on every
line (:func:`test_the_options_of_romme_play_reach_every_line`).
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from romme_score import i18n
from romme_score.cli import main
from romme_score.table.commands import split_line
from romme_score.table.words import find

SETUP = (
    ["new", "Other", "Xaver", "Yvonne"],
    ["new", "Friday", "Anna", "Ben", "Carl", "Dora", "--rate", "0.05", "--currency", "EUR"],
    ["round", "--winner", "Anna", "Ben=HK K10 J", "Carl=5", "Dora=0"],
    ["round", "--winner", "Ben", "Anna=3", "Carl=4", "Dora=12"],
    ["note", "a note"],
)

# The lines: each word's good lines and refused ones (usage errors, refusals, the
# sentences the table mode used to word itself).
LINES = (
    # new
    "new Evening Eva Finn",
    "new Evening Eva Finn --until 500 --rate 0.02 --currency EUR --dealer Finn",
    "new Evening Eva Finn --until never-ever",
    "new Evening Eva Finn --dealer Zed",
    "new Evening Eva Finn --rate abc",
    "new Evening Eva Finn --currency €€€€€€€€",
    "new Friday Eva Finn",
    "new Evening Eva",
    # use
    "use Other",
    "use Nowhere",
    "use",
    # sessions
    "sessions",
    "sessions --json",
    # note
    'note "counted twice"',
    "note about --round 1",
    "note about --round 9",
    "note",
    # standings
    "standings",
    "standings --all",
    "standings extra",
    # undo
    "undo --yes",
    "undo -y",
    "undo",
    # edit, the one-line correction
    "edit 1 Ben=7",
    'edit 1 Ben="HK HK"',
    "edit 2 --winner Carl Anna=1 Ben=2 Dora=3",
    "edit 1 --winner Zed",
    "edit 1 --stalemate --no-stalemate",
    "edit 1 --never-out Zed Ben=7",
    "edit 9 Ben=1",
    "edit 1 Ben=HX",
    "edit 1 Ben=999",
    # settle
    "settle",
    "settle --rate 0.1 --unit 0.05 --currency CHF",
    "settle --rate abc",
    "settle --unit 0",
    # best
    "best HK HD HA PK P2 P3",
    'best H10 HB --table "H7 H8 H9"',
    'best HK --table "H7 H9"',
    'best HK --table "HK HX"',
    "best HK HK HK HK HK HK HK",
    "best HK --came-out",
    "best",
    "best HX",
    # value
    "value HA HK J",
    "value HA",
    "value HX",
    "value",
    # check (a script's line is read as the shell reads it)
    'check "HK KK PK"',
    "check HK KK PK",
    'check "HK KK PK" "T9 T10 TB"',
    'check --onto "H7 H8 H9" H10',
    'check --first "HK KK PK"',
    'check --not-out --onto "H7 H8 H9" H10',
    "check HX",
    "check",
    # edge lines
    'note ""',
    "note x --round=1",
    "note x --round -1",
    "note x --round 0",
    "note --round 1 x",
    'use ""',
    'new "" Eva Finn',
    "new Evening Eva Eva",
    "new Evening Eva Finn --until 0",
    "new Evening Eva Finn --currency ''",
    "new Evening Eva Finn --rate -1",
    "settle --unit 0.001",
    "settle --currency ''",
    "settle --rate 0",
    "edit 1 Ben=",
    "edit 1 =5",
    "edit 1 Ben=5 Ben=6",
    "edit 1 Anna=5",
    "edit 1 --winner Ben",
    "edit 1 --hand-romme",
    "edit 1 --stalemate",
    "edit 1 --never-out Ben",
    "edit 1 Ben=7 --winner=Carl",
    "edit 0 Ben=1",
    'check "HK KK"',
    'check --onto "HK KK PK" TK',
    'check --onto "HK KK PK" --onto "HK KK PK" TK',
    "check --first HK",
    "best J J J J J",
    "best HA HA HA PA PA PA KA KA KA",
    'best HK --table ""',
    "value -- HA",
    "value HA --notation en",
    "value AH --notation en",
    "standings --all --all",
    "undo --yes --yes",
    "undo --yes=1",
    "sessions rename Other Zzz",
    "sessions delete Other --yes",
    "sessions extra",
    "use Other --json",
    "check HK --json",
    # what went to the command line before too
    "rules",
    "rules wiki-51",
    "export",
    "export --format csv",
    "edit 1",
    # ``phones`` is the terminal's alone: in a script it is one sentence of its own
    # (test_play_script.py, issue 37 item 12), no command's
    # the German words are the commands of their names
    "stand",
    "rückgängig --yes",
    "prüfen HK KK PK",
    "wert HA",
    "abrechnung",
    "neu Abend Eva Finn",
    "partien",
    "notiz hallo",
    "berichtigen 1 Ben=7",
    "runde --winner Anna Ben=1 Carl=2 Dora=3",
    "round --winner Anna Ben=1 Carl=2 Dora=3",
    "round --winner Zed Ben=1 Carl=2 Dora=3",
)

FAILED = re.compile(
    r"^(?:line|Zeile) 1 (?:failed|ist gescheitert) \((?:exit code|Rückgabewert) (\d+)\): .*\n", re.M
)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The database both sides start from: two sessions, Friday current with two rounds."""
    db = tmp_path_factory.mktemp("differential") / "base.sqlite3"
    for args in SETUP:
        result = CliRunner().invoke(main, ["--lang", "en", *args], env={"ROMME_DB": str(db)})
        assert result.exit_code == 0, result.output
    return db


def command_of(line: str) -> list[str]:
    """The ``romme`` command line of a table's line: its words, a German word by its name."""
    words = split_line(line)
    word = find(words[0])
    return [word.name if word is not None else words[0], *words[1:]]


def copy(base: Path, to: Path) -> Path:
    with sqlite3.connect(base) as source, sqlite3.connect(to) as target:
        source.backup(target)
    source.close()
    target.close()
    return to


def invoke(args: list[str], db: Path, lang: str, stdin: str | None = None) -> tuple[int, str, str]:
    """``args`` run as ``romme`` does; ``lang`` is ``en`` or ``de`` (in ``ROMME_LANG``) or
    ``--lang en`` or ``--lang de`` (given first on the line)."""
    i18n.set_language(None)
    env = {"ROMME_DB": str(db), "ROMME_LANG": lang if " " not in lang else "en", "COLUMNS": "80"}
    args = [*lang.split(), *args] if " " in lang else args
    result = CliRunner().invoke(main, args, input=stdin, env=env, prog_name="romme")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("lang", ["en", "de", "--lang de"])
@pytest.mark.parametrize("line", LINES)
def test_a_word_of_the_table_says_what_the_command_says(
    line: str, lang: str, base: Path, tmp_path: Path
) -> None:
    code, out, err = invoke(command_of(line), copy(base, tmp_path / "command.sqlite3"), lang)
    script_code, script_out, script_err = invoke(
        ["play"], copy(base, tmp_path / "play.sqlite3"), lang, stdin=line + "\n"
    )
    failed = FAILED.search(script_err)
    line_code = int(failed.group(1)) if failed else 0
    assert script_code == (1 if line_code else 0)
    assert (line_code, script_out, FAILED.sub("", script_err)) == (code, out, err)


# ``romme play``'s own --notation and --ascii, and the same options on the command line:
# every line of the window prints as the table was told, not only the words it used to
# run itself (before, ``value AH`` read English notation and ``value AH --json`` did not).
PLAYED_AS = (
    (["--notation", "en"], "value AH KD"),
    (["--notation", "en"], "value AH KD --json"),
    (["--notation", "en"], 'check "KH KD KS"'),
    (["--notation", "en"], 'best AH KH QH --table "7H 8H 9H"'),
    (["--notation", "en"], 'edit 1 Ben="KH 10H"'),
    (["--notation", "en"], "round --winner Anna Ben=KH Carl=1 Dora=2"),
    (["--ascii"], "value HA"),
    (["--ascii"], "settle"),
    (["--ascii"], "round --winner Anna Ben=HK Carl=1 Dora=2"),
    (["--ascii"], "new Evening Eva Finn --currency EUR --rate 0.1"),
)


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize(("options", "line"), PLAYED_AS)
def test_the_options_of_romme_play_reach_every_line(
    options: list[str], line: str, lang: str, base: Path, tmp_path: Path
) -> None:
    words = split_line(line)
    command = [words[0], *options, *words[1:]]
    code, out, err = invoke(command, copy(base, tmp_path / "command.sqlite3"), lang)
    script_code, script_out, script_err = invoke(
        ["play", *options], copy(base, tmp_path / "play.sqlite3"), lang, stdin=line + "\n"
    )
    failed = FAILED.search(script_err)
    line_code = int(failed.group(1)) if failed else 0
    assert script_code == (1 if line_code else 0)
    assert (line_code, script_out, FAILED.sub("", script_err)) == (code, out, err)
