"""The German catalog against the glossary of README.md (issue 20 item 11): at this table
"Satz" is a meld (three or four cards of one rank) and nothing else, every term of the
game is said the same way everywhere, and every msgstr keeps its msgid's placeholders."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "romme_score" / "locale" / "de" / "LC_MESSAGES"


def forms(value: object) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(str(v) for v in value)  # type: ignore[attr-defined]


def entries(domain: str = "romme") -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    with open(LOCALE / f"{domain}.po", "rb") as fp:
        catalog = read_po(fp, locale="de")
    return [(forms(m.id), forms(m.string)) for m in catalog if m.id]


# What a message quotes rather than says: placeholders, options and option values,
# commands and their examples (an indented line of a help text), quoted words.
CODE = re.compile(
    r"%\(\w+\)[sdr]|\{\w+\}|[\w-]+ ?= ?\S*|--[a-z][a-z-]*|\b\w+_\w+\b|romme [a-z]+"
    r"|\b[a-z]+(-[a-z]+)+\b|'[^']*'|\"[^\"]*\"|^ {2,}.*$",
    re.MULTILINE,
)


def words(text: str) -> str:
    """The text a reader reads as words, without what it quotes from the command line."""
    return CODE.sub(" ", text)


def said(pattern: str, texts: tuple[str, ...]) -> bool:
    return any(re.search(pattern, words(t)) for t in texts)


def test_satz_means_a_meld_and_nothing_else() -> None:
    """Satz (Sätze) only where the English says set or meld: never for the rate per point
    ("in den Partien mit Satz"), a rule set or a set of anything else."""
    checked = 0
    for ids, strings in entries():
        if said(r"\bS[aä]tz", strings):
            checked += 1
            assert said(r"\b(sets?|melds?)\b", ids), (ids[0], strings[0])
    assert checked > 10


def test_a_set_is_a_satz() -> None:
    """The other way round: where the English names a set (the meld), the German says Satz."""
    for ids, strings in entries():
        if said(r"(?<!is )(?<!rule )(?<!end )\bsets?\b(?! end)", ids):
            assert said(r"\bS[aä]tz", strings), (ids[0], strings[0])


# English term in the msgid -> what the German must say (README.md, "Glossar / glossary").
GLOSSARY = [
    (r"\bruns?\b(?! (against|inside))", r"Folge", "Folge"),
    (r"\bstalemate\b", r"\bPatt", "Patt"),
    (r"\bpenalty\b", r"Minuspunkt|Augen", "Minuspunkte"),
    (r"\brate\b", r"Punktwert|je (Minus)?[Pp]unkt", "Punktwert"),
    (r"\bsessions?\b", r"Partie", "Partie"),
    (r"\bpresets?\b", r"[Vv]orlage", "Vorlage"),
    (r"\bmelds?\b", r"Auslage|Erstmeldung|aus(zu)?leg|ausgelegt|Auslegen", "Auslage"),
    (r"\b(went|go|goes|going|gone) out\b", r"ausmach|ausgemacht|Ausmachen", "Ausmachen"),
    (r"\b(come|came|coming) out\b", r"rauskommen|rausgekommen|Rauskommen|Erstmeldung", "Rauskommen"),
    (r"\blay(ing)?( cards| the cards)? off\b|\blaid off\b", r"anleg|angelegt|Anlegen", "Anlegen"),
    (r"\bsettle(ment)?\b", r"[Aa]brechn|abgerechnet|abzurechnen|Ausgleich|\bsettle\b", "Abrechnung"),
    (r"\bdeals?\b|\bdealer\b", r"\bgibt\b|\bgeben\b|Geber", "Geber"),
    (r"\bswap(ped|s)?\b", r"tausch", "Joker tauschen"),
]


@pytest.mark.parametrize("english, german, term", GLOSSARY, ids=[g[2] for g in GLOSSARY])
def test_every_term_of_the_game_is_said_as_the_glossary_says(english: str, german: str, term: str) -> None:
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    glossary = rules[rules.index("## Glossar / glossary") :]
    assert f"| {term}" in glossary, f"{term} is not in the glossary of docs/rules.md"
    for ids, strings in entries():
        if said(english, ids):
            assert all(re.search(german, s) for s in strings), (term, ids[0], strings[0])


# Words that a German card table does not say, or that misled one (issue 20 item 11).
NOT_SAID = [
    (r"\bSitzung", "a session is a Partie"),
    (r"\bTarif", "the rate per point is the Punktwert"),
    (r"\bLocale\b", "the locale is the Spracheinstellung des Systems"),
    (r"gestrichen", "a bonus struck from a total is abgezogen, not cancelled"),
    (r"\bschreibbar\b", "no such word: beschreibbar, or lässt sich nicht schreiben"),
    (r"meinst du|meinten Sie", "'did you mean' is 'war ... gemeint?' throughout"),
    (r"Pfeil hoch", "the key is ↑"),
    (r"\bBlätter haben\b", "a card occurs in the packs, the packs do not have it"),
    (r"von \d* ?nötigen|nötigen\)", "'42 von 40 nötigen' is no German"),
]


@pytest.mark.parametrize("pattern, why", NOT_SAID, ids=[n[0] for n in NOT_SAID])
def test_words_a_german_card_table_does_not_say(pattern: str, why: str) -> None:
    for ids, strings in entries() + entries("click"):
        for text in strings:
            assert not re.search(pattern, text), (why, ids[0], text)


def test_no_source_number_in_a_german_sentence() -> None:
    """The sources are named in words (Rommé mit Auslegen, das klassische Regelblatt,
    Speedrommé ...); their numbers 000-004 are for --verbose, the JSON and the README."""
    for ids, strings in entries():
        for text in strings:
            assert not re.search(r"(?<![\d.,])00[0-4]\b", words(text)), (ids[0], text)


PLACEHOLDER = re.compile(r"%\((\w+)\)[sdr]|%[sd]|\{(\w+)(?:![rs])?\}")


def test_every_form_keeps_the_placeholders_of_its_msgid() -> None:
    """Each msgstr (each plural form against its own msgid form, German having the same
    two forms as English) names exactly the placeholders of its msgid."""
    for ids, strings in entries():
        for index, text in enumerate(strings):
            msgid = ids[min(index, len(ids) - 1)]
            assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(msgid)), (msgid, text)
