"""The table mode's words in one registry (issue 27 item 2): dispatch, help, Tab, the
"did you mean" and the table in docs/table-mode.md are made from romme_score/table/words.py; the
German words work at the terminal and in scripts."""

from __future__ import annotations

import importlib.util
import json
import os
import shlex
from pathlib import Path

from click.testing import CliRunner

from romme_score.cli import main
from romme_score.cli.inside import runner
from romme_score.i18n import using_language
from romme_score.sessions import SessionService
from romme_score.table.app import Table
from romme_score.table.words import WORDS, find, help_rows, names
from romme_score.views.output import Output

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_the_readme_table_of_words_is_the_registry() -> None:
    spec = importlib.util.spec_from_file_location("table_words", ROOT / "tools" / "table_words.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    readme = (ROOT / "docs" / "table-mode.md").read_text(encoding="utf-8")
    assert tool.with_table(readme) == readme, (
        "the table of words in docs/table-mode.md is stale: python tools/table_words.py"
    )


def test_every_word_and_alias_is_found_once_in_any_case() -> None:
    typed = [w for word in WORDS for w in (word.name, *word.aliases)]
    assert len(typed) == len({w.casefold() for w in typed}) == len(names())
    for german, name in [
        ("hilfe", "help"),
        ("Rückgängig", "undo"),
        ("rueckgaengig", "undo"),
        ("ENDE", "quit"),
        ("handys", "phones"),
        ("abrechnung", "settle"),
        ("stand", "standings"),
    ]:
        found = find(german)
        assert found is not None and found.name == name


def test_every_word_that_is_a_command_of_the_command_line_has_its_name() -> None:
    from romme_score.cli import COMMANDS

    for word in WORDS:
        if not word.leaves and word.name not in ("help", "phones"):
            assert word.name in COMMANDS


def test_help_lists_the_aliases_of_the_runs_language() -> None:
    with using_language("de"):
        german = "\n".join(typed for typed, _what in help_rows())
    with using_language("en"):
        english = "\n".join(typed for typed, _what in help_rows())
    assert "undo, rückgängig" in german and "quit, ende" in german and "hilfe" in german
    assert "rückgängig" not in english and "quit, exit" in english


def test_german_words_in_a_script(isolated_data_dir: Path) -> None:
    run("new", "Freitag", "Anna", "Ben", "Carl")
    script = (
        "runde --winner Anna Ben=10 Carl=20\n"
        "stand\n"
        "abrechnung --rate 0.1\n"
        "hilfe\n"
        "prüfen HK KK PK\n"
        "rückgängig --yes\n"
        "ende\n"
        "standings\n"
    )
    code, out, err = run("--lang", "de", "play", "Freitag", input=script)
    assert code == 1, err  # prüfen: three cards in a script are three melds, none legal
    assert "line 5 failed (exit code 1)" in err or "Zeile 5" in err
    assert "Freitag" in out and "Runde 1 entfernt" in out
    assert "rückgängig" in out  # help in German lists the German word
    assert out.count("Ben") >= 2


def test_a_script_word_gives_the_same_output_as_the_command(isolated_data_dir: Path) -> None:
    """A word run by its handler prints what the ``romme`` command prints."""
    run("new", "Friday", "--rate", "0.01", "Anna", "Ben", "Carl")
    run("round", "--winner", "Anna", "Ben=HK K10", "Carl=33")
    lines = (
        "standings",
        "settle",
        "settle --rate 0.001 --unit 0.05",
        "value HK K10 J",
        "check 'HK KK PK'",
        "check HK KK PK",
        "check HX",
        "best 'P3 P4 P5 TB PB HB H9 K2'",
        "sessions",
        "note 'Ben redealt' --round 1",
        "note 'about round 9' --round 9",
        "undo",
    )
    for line in lines:
        words = shlex.split(line)
        code_script, out_script, err_script = run("play", "Friday", input=line + "\n")
        code_cli, out_cli, err_cli = (
            run(*words, "--session", "Friday") if words[0] != "sessions" else run(*words)
        )
        err_script = "".join(e for e in err_script.splitlines(True) if not e.startswith("line 1 failed"))
        assert (out_script, err_script) == (out_cli, err_cli), line
        assert code_script == (1 if code_cli else 0), line


def test_tab_offers_what_each_word_takes(isolated_data_dir: Path) -> None:
    run("new", "Friday", "Anna", "Ben", "Carl")
    run("new", "Saturday", "Anna", "Ben")
    run("use", "Friday")
    run("round", "--winner", "Anna", "Ben=5", "Carl=6")
    with SessionService(Path(os.environ["ROMME_DB"])) as service:
        info = service.session(None)
        table = Table(service, info, Output("de", False, False), runner(None, lambda: info.name))
        assert {"Anna", "undo", "help"} <= set(table.offers(""))
        assert "Saturday" in table.offers("use ")
        assert table.offers("edit ") == ["1"]
        assert "HK" in table.offers("check H")
        assert "--all" in table.offers("standings --")
        assert "Ben" in table.offers("round --winner ")
        assert table.offers("Anna ") == []


def test_the_words_of_a_script_and_of_the_command_line_give_the_same_json(isolated_data_dir: Path) -> None:
    run("new", "Friday", "Anna", "Ben")
    code, out, _ = run("play", "Friday", input="stand --json\n")
    assert code == 0 and json.loads(out)["session"] == "Friday"
