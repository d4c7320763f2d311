"""The German evening in docs/table-mode.md (issue 20, "done means"; once in the README):
12 rounds of four players typed into ``romme play`` at 80x24 by tools/capture_evening.py,
its screens kept in the German section of docs/table-mode.md. The block is what the table
mode shows now (after a change of the table mode, ``make readme-evening`` writes it
again), and holds no English word."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.pofile import read_po

from romme_score.table.app import WORDS

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "romme_score" / "locale"
WORD = re.compile(r"[^\W\d_]{2,}")
PLACEHOLDER = re.compile(r"%\(\w+\)[sdr]|\{\w+\}")


def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("capture_evening", ROOT / "tools" / "capture_evening.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def kept_block() -> str:
    capture = tool()
    return str(capture.readme_block((ROOT / "docs" / "table-mode.md").read_text(encoding="utf-8")))


def _texts(value: object) -> list[str]:
    return [value] if isinstance(value, str) else [str(v) for v in value or ()]  # type: ignore[attr-defined]


def english_only_words() -> set[str]:
    """Words of the program's English messages that no German message brings in itself: a
    German message's words count as German only where its English one lacks them, so that
    what both share untranslated (``romme round``, an option) stays English."""
    english: set[str] = set()
    german: set[str] = set()
    for domain in ("romme", "click"):
        with open(LOCALE / "de" / "LC_MESSAGES" / f"{domain}.po", "rb") as fp:
            for entry in read_po(fp, locale="de"):
                source = {
                    w.casefold() for t in _texts(entry.id) for w in WORD.findall(PLACEHOLDER.sub(" ", t))
                }
                target = {
                    w.casefold() for t in _texts(entry.string) for w in WORD.findall(PLACEHOLDER.sub(" ", t))
                }
                english |= source
                german |= target - source
    return english - german


def shown(screens: str) -> str:
    """The screens without what was typed at the prompts (cards, names, ``settle``):
    only what the program wrote."""
    return "\n".join(line.partition("> ")[0] for line in screens.splitlines())


def english_phrases() -> set[str]:
    """Every run of three words or more between the placeholders of an English message
    that the German catalog translates differently, as tests/test_i18n.py checks the
    German demonstration evening."""
    found = set()
    with open(LOCALE / "de" / "LC_MESSAGES" / "romme.po", "rb") as fp:
        for entry in read_po(fp, locale="de"):
            if not entry.id or _texts(entry.string) == _texts(entry.id):
                continue
            for text in re.split(r"%\(\w+\)[sd]", _texts(entry.id)[0]):
                if len(text.split()) >= 3:
                    found.add(text.strip())
    return found


def test_the_readme_evening_has_twelve_rounds_and_no_english_word() -> None:
    screens = kept_block()
    assert screens.count("```text") == 3
    assert "'Freitag' nach 12 Runden" in screens and "Freitag · Runde 13>" in screens
    names = {w.casefold() for w in ("Freitag", *tool().PLAYERS)}
    # the words one types at the table mode's prompt, in either language (the toolbar
    # offers "help")
    commands = set(WORDS)
    # words German shares with English: der Bonus, the Enter key, the keys nN, the EUR
    # given to romme new
    shared = {"bonus", "enter", "nn", "eur"}
    only_english = english_only_words()
    assert {"round", "went", "out", "save", "stalemate"} <= only_english  # the check sees English
    words = {w.casefold() for w in WORD.findall(shown(screens))} - names - commands - shared
    assert words & only_english == set(), f"English on the German screens: {sorted(words & only_english)}"
    for phrase in english_phrases():
        assert phrase not in screens, f"English on the German screens: {phrase!r}"


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_the_readme_evening_is_what_the_table_mode_shows_now() -> None:
    capture = tool()
    assert capture.block(capture.capture()) == kept_block(), (
        "the evening in docs/table-mode.md is stale: make readme-evening"
    )
