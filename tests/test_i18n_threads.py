"""The language is a value of the context, not process state (issue 18 item 3): a web
server answers a German and an English phone at the same moment, and a ``--json`` run
or a line inside ``romme play`` changes nobody else's language."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path

import click
import pytest
from clirun import ok, run

from romme_score import i18n, referee
from romme_score.cards import NotationError, parse_cards
from romme_score.cli import install_click_translation, main
from romme_score.cli.options import Output
from romme_score.rules import find_preset
from romme_score.views.referee import render_verdict


def in_fresh_thread(call: Callable[[], str]) -> str:
    """What ``call`` answers in a new thread (which starts with an empty context)."""
    answers: list[str] = []
    thread = threading.Thread(target=lambda: answers.append(call()))
    thread.start()
    thread.join(timeout=30)
    assert answers, "the thread did not answer"
    return answers[0]


# --- using_language --------------------------------------------------------------------


def test_using_language_restores_the_language_before_it() -> None:
    assert i18n.language() == "en"  # ROMME_LANG=en, see conftest
    with i18n.using_language("de"):
        assert i18n.language() == "de"
        with i18n.using_language("en"):
            assert i18n._("Total: %(points)s") == "Total: %(points)s"
        assert i18n._("Total: %(points)s") == "Summe: %(points)s"
    assert i18n.language() == "en"
    assert i18n.chosen_language() is None  # unset again, not set to English


def test_using_language_restores_the_language_on_an_exception() -> None:
    i18n.set_language("de")
    with pytest.raises(RuntimeError):
        with i18n.using_language("en"):
            raise RuntimeError("boom")
    assert i18n.language() == "de"


def test_using_language_normalises_as_set_language_does() -> None:
    with i18n.using_language("de_AT.UTF-8") as lang:
        assert lang == "de" and i18n.language() == "de"
    with i18n.using_language("fr") as lang:
        assert lang == "en"


def test_a_fresh_thread_speaks_the_environments_language_not_another_threads() -> None:
    i18n.set_language("de")
    assert in_fresh_thread(i18n.language) == "en"
    with i18n.using_language("de"):
        assert in_fresh_thread(lambda: i18n.ngettext("%(count)d point", "%(count)d points", 2)) == (
            "%(count)d points"
        )


def test_a_fresh_thread_speaks_german_where_the_environment_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROMME_LANG", "de")
    i18n.set_language(None)  # choose from the environment again
    with i18n.using_language("en"):
        assert in_fresh_thread(i18n.language) == "de"
        assert in_fresh_thread(lambda: i18n._("Total: %(points)s")) == "Summe: %(points)s"
        assert i18n.language() == "en"


# --- two languages at the same moment ----------------------------------------------------

ITERATIONS = 300


def help_page(name: str) -> str:
    """A command's ``--help`` page, as Click writes it under ``romme``."""
    install_click_translation()  # as romme's main does before any run: Click's own messages too
    root = click.Context(main, info_name="romme", **main.context_settings)
    command = main.get_command(root, name)
    assert command is not None
    return command.get_help(click.Context(command, info_name=name, parent=root))


def rendered() -> tuple[str, ...]:
    """One message of each kind, in the language in use: a plain message, a plural, a
    decimal number, one of Click's messages, a referee's verdict, a notation error and a
    command's help page."""
    wraparound = parse_cards("♠K ♠A ♠2")
    verdict = referee.judge_melds(["♠K ♠A ♠2"], [wraparound], find_preset("standard"))
    with pytest.raises(NotationError) as notation:
        parse_cards("HK HX")
    return (
        i18n._("Total: %(points)s") % {"points": 5},
        i18n.ngettext("%(count)d point", "%(count)d points", 3) % {"count": 3},
        i18n.decimal_text("0.01"),
        i18n.click_gettext("Missing argument"),
        render_verdict(verdict),
        str(notation.value),
        help_page("check"),
    )


def test_two_threads_at_once_each_get_only_their_own_languages_text() -> None:
    expected: dict[str, tuple[str, ...]] = {}
    for lang in ("de", "en"):
        with i18n.using_language(lang):
            expected[lang] = rendered()
    for german, english in zip(expected["de"], expected["en"], strict=True):
        assert german != english, german  # else this test could not tell the languages apart
    # Each iteration both threads enter their language, then both render: under one
    # process-wide switch, whichever thread switched last would speak for both.
    barrier = threading.Barrier(2, timeout=60)
    seen: dict[str, list[tuple[str, ...]]] = {"de": [], "en": []}
    errors: list[BaseException] = []

    def speak(lang: str) -> None:
        try:
            for _ in range(ITERATIONS):
                with i18n.using_language(lang):
                    barrier.wait()
                    seen[lang].append(rendered())
        except BaseException as exc:  # reported below, not lost in the thread
            errors.append(exc)
            barrier.abort()

    threads = [threading.Thread(target=speak, args=(lang,)) for lang in ("de", "en")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    for lang in ("de", "en"):
        wrong = [texts for texts in seen[lang] if texts != expected[lang]]
        assert len(seen[lang]) == ITERATIONS
        assert not wrong, f"{lang}: {len(wrong)} of {ITERATIONS} renderings not in {lang}, e.g. {wrong[0]}"


# --- Click's help, made once per language --------------------------------------------------


def test_help_in_german_then_in_english_in_one_process() -> None:
    """Click keeps a command's --help option once made; it was German for good after the
    first German help page."""
    for args, shown in (
        (["--lang", "de", "check", "--help"], "Diese Hilfe zeigen und beenden."),
        (["check", "--help"], "Show this message and exit."),
        (["--lang", "de", "--help"], "Die Version zeigen und beenden."),
        (["--help"], "Show this message and exit."),
    ):
        page = ok(*args)
        assert shown in page, args
        assert ("Optionen:" in page) == ("de" in args), args


def test_the_commands_of_the_modules_keep_their_english_msgids() -> None:
    from romme_score.cli.check import check

    with i18n.using_language("de"):
        assert "Sagt, ob Auslagen" in help_page("check")
    assert check.help is not None and check.help.startswith("Say whether melds are legal")
    assert not any(p.name == "lang" for p in check.params)  # the copies get --lang


def test_a_file_options_name_is_worded_in_each_runs_language(tmp_path: Path) -> None:
    """click.Path words 'file' when the command's module is imported, in the language of
    the first run that imports it; FilePath words it when shown."""
    for lang, said, metavar in (
        ("de", "Datei '%s' ist ein Verzeichnis", "--db DATEI"),
        ("en", "File '%s' is a directory", "--db FILE"),
        ("de", "Datei '%s' ist ein Verzeichnis", "--db DATEI"),
    ):
        code, _, err = run("--lang", lang, "new", "X", "Anna", "Ben", "--db", str(tmp_path))
        assert code == 2 and said % tmp_path in err, err
        assert metavar in ok("--lang", lang, "new", "--help")


# --- --json and the lines of romme play ---------------------------------------------------


def test_output_with_json_leaves_the_language_as_it_was() -> None:
    with i18n.using_language("de"):
        out = Output("de", False, True)
        assert out.json and i18n.language() == "de"


def test_a_json_run_leaves_the_callers_language_as_it_was() -> None:
    with i18n.using_language("de"):
        assert json.loads(ok("check", "HK KK PK", "--json"))["valid"] is True
        assert i18n.language() == "de"
        assert "gültig als Satz" in ok("check", "HK KK PK")


def test_a_json_runs_error_is_one_english_line_as_its_json_is() -> None:
    code, out, err = run("--lang", "de", "check", "HK HX", "--json")
    assert code == 2 and out == ""
    # one line of JSON, its message in English (issue 36 item 3)
    assert json.loads(err) == {
        "error": {
            "code": "bad-input",
            "message": "cannot read card 'HX' (2nd card): X is not a rank (A, 2-10, B, D, K)",
        }
    }
    assert err.count("\n") == 1
    code, _, err = run("--lang", "de", "check", "HK HX")
    assert code == 2 and err.startswith("Fehler: Karte 'HX' (2. Karte) nicht lesbar")


def test_a_play_line_with_json_leaves_the_next_line_in_german(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROMME_LANG", "de")
    ok("new", "Freitag", "Anna", "Ben")
    script = (
        'check --json "HK KK PK"\n'
        'check "HK KK PK"\n'
        'check --json "HK HX"\n'
        'check "HK KK PK" --lang en\n'
        'value "HK K10 J"\n'
    )
    code, out, err = run("play", "Freitag", input=script)
    assert code == 1  # the third line fails
    lines = out.splitlines()
    assert json.loads(lines[0])["melds"][0]["kind"] == "set"
    assert "1. ♥K ♦K ♠K: gültig als Satz, 30 Punkte" in lines[1:]
    assert '"message": "cannot read card \'HX\' (2nd card)' in err and "Zeile 3" in err  # JSON: issue 36
    assert "1. ♥K ♦K ♠K: legal set, 30 points" in lines
    assert lines[-1] == "Summe: 40 Punkte"  # after the English line, German again


def test_a_window_line_with_json_leaves_the_tables_language(capsys: pytest.CaptureFixture[str]) -> None:
    from romme_score.cli.inside import run_command

    ok("new", "Freitag", "Anna", "Ben")
    with i18n.using_language("de"):
        assert run_command(["check", "--json", "HK KK PK"], None, "Freitag", ask=True) == 0
        assert i18n.language() == "de"
        assert run_command(["check", "HK KK PK"], None, "Freitag", ask=True) == 0
    printed = capsys.readouterr().out
    assert printed.splitlines()[-1] == "1. ♥K ♦K ♠K: gültig als Satz, 30 Punkte"
