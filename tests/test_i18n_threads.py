"""The language is a value of the context, not process state (issue 18 item 3): a web
server answers a German and an English phone at the same moment, and a ``--json`` run
or a line inside ``romme play`` changes nobody else's language."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from romme_score import i18n, referee
from romme_score.cards import NotationError, parse_cards
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


def rendered() -> tuple[str, ...]:
    """One message of each kind, in the language in use: a plain message, a plural, a
    decimal number, one of Click's messages, a referee's verdict and a notation error."""
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
