"""Generated Unicode typed at the command line and in a table-mode script (issue 37,
"Beyond the list", the second property test): player names, the table mode's words and
hands, composed (NFC) and decomposed (NFD, as macOS and some keyboards write them), with
umlauts, ß and accents, and any Unicode besides, combining marks and lone surrogates
included. Whatever is typed:

- the exit code is 0, 1 or 2, and never a traceback or the last-resort "internal error";
- a refusal is one sentence (exit code 2 for what cannot be read) and writes nothing;
- a name typed decomposed is the player stored composed, and the other way round; the
  table mode's words (``rückgängig``, ``prüfen``, ``wert``, ``runde``) are found in
  either form.

In-process (Click's test runner) where the suite does so; a real process only for what
only a real process has: argv from bytes that are not UTF-8, which Python hands over as
lone surrogates. A fixed seed and a bounded number of examples in ``make test`` (about a
minute on one core); more with ROMME_HYPOTHESIS_EXAMPLES=N (then random, not the fixed
seed), as the JSON routes' property test takes it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import unicodedata
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from romme_score.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = int(os.environ.get("ROMME_HYPOTHESIS_EXAMPLES", "0")) or None


def bounded(default: int) -> settings:
    """``default`` examples from a fixed seed, or ROMME_HYPOTHESIS_EXAMPLES at random."""
    return settings(
        max_examples=EXAMPLES or default,
        deadline=None,
        derandomize=EXAMPLES is None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


def nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


# Names as a German card table writes them, and their relatives from elsewhere: each
# differs between NFC and NFD (İ also under case folding: i and a combining dot).
NAMES = [
    "Jörg",
    "Bärbel",
    "Özil",
    "Straße",
    "Ümit",
    "Zoë",
    "Renée",
    "François",
    "Åsa",
    "Dvořák",
    "Nguyễn",
    "İlkay",
    "Ñoño",
    "Chloé",
]
WORDS = {  # the table mode's German words with an umlaut, and words without one
    "undo": ["rückgängig", "Rückgängig"],
    "check": ["prüfen", "PRÜFEN"],
    "value": ["wert", "value"],
    "round": ["runde", "round"],
}
CARDS = ["HK", "K10", "J", "P5", "T2", "♥K", "♦10", "♠A", "♣B", "HA", "KD", "PB"]
COMBINING = st.characters(categories=["Mn", "Mc", "Me"])
SURROGATE = st.characters(categories=["Cs"])
ANY_CHAR = st.characters(codec=None)

form = st.sampled_from([nfc, nfd])


@st.composite
def hostile_text(draw: st.DrawFn, max_size: int = 12) -> str:
    """Any Unicode, with combining marks (also first, with no letter to sit on) and, now
    and then, a lone surrogate."""
    pieces = draw(
        st.lists(
            st.one_of(ANY_CHAR, COMBINING, st.sampled_from(["ä", "a\u0308", "ß", "\u0301", " "])),
            min_size=1,
            max_size=max_size,
        )
    )
    if draw(st.integers(0, 9)) == 0:
        pieces.insert(draw(st.integers(0, len(pieces))), draw(SURROGATE))
    return "".join(pieces)


@st.composite
def typed_name(draw: st.DrawFn) -> str:
    """A name as typed: a German name in either form, or any Unicode."""
    if draw(st.integers(0, 3)):
        return draw(form)(draw(st.sampled_from(NAMES)))
    return draw(hostile_text())


def one_sentence(err: str) -> bool:
    """Whether ``err`` is one sentence, ``Error: ...``; after Click's usage lines where
    what was typed reads as an option of the command (a name that begins with ``-``)."""
    lines = err.strip().splitlines()
    if len(lines) == 4 and lines[0].startswith("Usage: ") and lines[1].startswith("Try ") and not lines[2]:
        return lines[3].startswith("Error: No such option")
    return len(lines) == 1 and lines[0].startswith("Error: ")


def invoke(args: list[str], db: Path, input: str | bytes | None = None) -> Result:
    result = CliRunner().invoke(main, ["--lang", "en", *args, "--db", str(db)], input=input)
    shown = f"romme {' '.join(map(repr, args))}"
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{shown} raised {result.exception!r}") from result.exception
    assert result.exit_code in (0, 1, 2), (shown, result.exit_code, result.output)
    for words in ("Traceback", "internal error"):
        assert words not in result.output, (shown, result.output)
    if result.exit_code == 2:  # what cannot be read: one sentence
        assert one_sentence(result.stderr), (shown, result.stderr)
        assert not result.stdout, (shown, result.stdout)
    return result


def fresh(tmp_path: Path) -> Path:
    return tmp_path / f"{uuid.uuid4().hex}.sqlite3"


def standings(db: Path, session: str | None = None) -> dict[str, Any]:
    args = ["standings", "--json", *(["--session", session] if session is not None else [])]
    result = invoke(args, db)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def written(db: Path) -> Any:
    """What the database holds, as ``romme sessions --json`` and the current standings
    show it (nothing, where no database file was made)."""
    if not db.exists():
        return None
    sessions = json.loads(invoke(["sessions", "--json"], db).stdout)
    return sessions, [standings(db, s["name"]) for s in sessions]


@bounded(60)
@given(session=typed_name(), names=st.lists(typed_name(), min_size=2, max_size=5))
def test_any_names_at_romme_new_are_stored_composed_or_refused_unwritten(
    tmp_path: Path, session: str, names: list[str]
) -> None:
    """``romme new`` with names typed in any form: stored composed and trimmed, found
    again typed in the other form; or refused in one sentence with nothing written (a
    name that begins with a combining mark always)."""
    db = fresh(tmp_path)
    result = invoke(["new", session, *names, "--until", "open"], db)
    if any(unicodedata.category(nfc(n).strip()[:1] or "x").startswith("M") for n in [session, *names]):
        assert result.exit_code == 2, (session, names, result.output)  # an accent with no letter
    if result.exit_code:
        assert result.exit_code == 2, result.output
        assert written(db) in (None, ([], [])), result.stderr
        return
    stored = standings(db)
    assert [p["name"] for p in stored["players"]] == [nfc(n).strip() for n in names]
    assert stored["session"] == nfc(session).strip()
    for other in (nfd(session), nfc(session)):  # the session typed in either form
        assert standings(db, other.strip())["session"] == nfc(session).strip()


SESSION = "Köln"


def evening(tmp_path: Path) -> tuple[Path, list[str]]:
    """A new session (typed decomposed) of four players whose names differ between NFC
    and NFD (two of them typed decomposed), in a database of its own."""
    db = fresh(tmp_path)
    players = ["Jörg", "Bärbel", "Özil", "Straße"]
    typed = [nfd(SESSION), *[nfd(p) for p in players[:2]], *players[2:]]
    result = invoke(["new", *typed, "--until", "open"], db)
    assert result.exit_code == 0, result.output
    return db, players


def typed_as(draw: Callable[[st.SearchStrategy[Any]], Any], name: str) -> str:
    """``name`` as a person may type it: either form, any case, or its first letters."""
    shown = draw(st.sampled_from([name, name.upper(), name.lower(), name[:2]]))
    return str(draw(form)(shown))


@bounded(50)
@given(data=st.data())
def test_a_round_typed_in_any_form_counts_for_the_stored_players_or_writes_nothing(
    tmp_path: Path, data: st.DataObject
) -> None:
    """``romme round`` with the players typed decomposed or composed (any case, their
    first letters) counts for the stored players; with any Unicode among the hands or
    names it is counted or refused in one sentence, nothing written."""
    db, players = evening(tmp_path)
    before = written(db)
    winner = data.draw(st.sampled_from(players))
    points = {p: data.draw(st.integers(0, 60)) for p in players if p != winner}
    args = ["round", "--session", data.draw(form)(SESSION), "--winner", typed_as(data.draw, winner)]
    hands = [f"{typed_as(data.draw, p)}={n}" for p, n in points.items()]
    hostile = data.draw(st.booleans())
    if hostile:  # a hand, a name or a word of any Unicode among them
        at = data.draw(st.integers(0, len(hands) - 1))
        name, _eq, shown = hands[at].partition("=")
        junk = data.draw(hostile_text())
        hands[at] = data.draw(
            st.sampled_from(
                [
                    f"{name}={junk}",
                    f"{junk}={shown}",
                    f"{name}={' '.join(data.draw(st.lists(st.sampled_from(CARDS), max_size=3)))}{junk}",
                    junk,
                ]
            )
        )
    result = invoke([*args, *hands], db)
    if not hostile:
        assert result.exit_code == 0, (args, hands, result.output)
    if result.exit_code:
        assert written(db) == before, (args, hands, result.stderr)
        return
    last = standings(db)["rounds"][-1]
    if not hostile:
        assert last["winner"] == winner, (args, hands, last)
        for player, counted in points.items():
            assert last["points"][player] == counted, (player, args, hands, last)


@bounded(60)
@given(
    command=st.sampled_from([["check"], ["check", "--first"], ["value"], ["best"]]),
    hand=st.lists(st.one_of(st.sampled_from(CARDS).map(nfd), hostile_text(6)), min_size=1, max_size=4),
)
def test_any_hand_at_check_value_and_best_is_answered_or_refused_in_one_sentence(
    tmp_path: Path, command: list[str], hand: list[str]
) -> None:
    """The referee's commands with cards among any Unicode: an answer (0 or 1) or one
    sentence (2), never a traceback; nothing is written (they need no database)."""
    db = fresh(tmp_path)
    line = " ".join(hand)
    result = invoke([*command, line], db)
    if all(card in CARDS for card in hand):  # cards alone: an answer, never unreadable
        assert result.exit_code in (0, 1), (command, line, result.output)
    assert not db.exists()


@st.composite
def script_line(draw: st.DrawFn, players: list[str]) -> tuple[str, str]:
    """A line of a ``romme play`` script and its kind: a word of the table mode with what
    it takes (``round``, ``undo``, ``check``, ``value``) or ``junk``."""
    kind = draw(st.sampled_from(["round", "undo", "check", "value", "junk"]))
    word = draw(form)(draw(st.sampled_from(WORDS.get(kind, [""]))))
    if kind == "round":
        winner = draw(st.sampled_from(players))
        hands = " ".join(f"'{typed_as(draw, p)}={draw(st.integers(0, 40))}'" for p in players if p != winner)
        return f"{word} --winner '{typed_as(draw, winner)}' {hands}", kind
    if kind == "undo":
        return f"{word} --yes", kind
    if kind in ("check", "value"):
        return f"{word} '{' '.join(draw(st.lists(st.sampled_from(CARDS), min_size=1, max_size=4)))}'", kind
    return draw(hostile_text(20)).replace("\n", " ").replace("\r", " "), kind


@bounded(30)
@given(data=st.data())
def test_a_table_mode_script_of_words_in_any_form_runs_each_line_as_meant(
    tmp_path: Path, data: st.DataObject
) -> None:
    """``romme play`` reading a script whose words and names are decomposed or composed,
    among lines of any Unicode (a lone surrogate arrives as bytes that are not UTF-8):
    every word is found, every round counts, an undo takes one back, and a refused line
    writes nothing; the script exits 0 or 1, never with a traceback."""
    db, players = evening(tmp_path)
    lines = data.draw(st.lists(script_line(players), min_size=1, max_size=8))
    rounds = 0
    for _line, kind in lines:
        rounds = max(rounds + {"round": 1, "undo": -1}.get(kind, 0), 0)
    script = "\n".join(line for line, _kind in lines) + "\n"
    session = data.draw(form)(SESSION)
    result = CliRunner().invoke(
        main,
        ["--lang", "en", "play", session, "--db", str(db)],
        input=script.encode("utf-8", "surrogatepass"),
    )
    shown = f"script {[line for line, _kind in lines]!r}"
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{shown} raised {result.exception!r}") from result.exception
    assert result.exit_code in (0, 1), (shown, result.output)
    for words in ("Traceback", "internal error", "Usage:"):  # a refused line: one sentence
        assert words not in result.output, (shown, result.output)
    for number, (_line, kind) in enumerate(lines, 1):
        failed = f"line {number} failed (exit code "
        if kind == "round":  # a round, its words and names in either form
            assert failed not in result.stderr, (shown, result.stderr)
        elif kind != "junk":  # a word the table mode knows, in either form: never unreadable
            assert failed + "2)" not in result.stderr, (shown, result.stderr)
    assert len(standings(db)["rounds"]) == rounds, (shown, result.stderr)


# Real processes: argv from bytes that are not UTF-8 (a Latin-1 terminal, a stray byte),
# which Python hands to the program as lone surrogates, and NFD bytes as macOS types them.
ARGV = [
    pytest.param([b"new", b"Abend", b"J\xf6rg", b"Ben"], 2, id="latin1-name"),
    pytest.param([b"new", b"Abend", b"\xed\xa0\x80", b"Ben"], 2, id="encoded-surrogate-name"),
    pytest.param([b"new", b"Ab\xe4nd", b"Anna", b"Ben"], 2, id="latin1-session"),
    pytest.param([b"value", b"HK \xff"], 2, id="stray-byte-hand"),
    pytest.param([b"check", b"H5 H6 H7\xcc"], 2, id="cut-off-combining-mark"),
    pytest.param([b"new", b"Abend", b"Jo\xcc\x88rg", b"Be\xcc\x81n"], 0, id="nfd-names"),
]


@pytest.mark.parametrize(("argv", "code"), ARGV)
def test_argv_that_is_not_utf8_is_one_sentence_in_a_real_process(
    tmp_path: Path, argv: list[bytes], code: int
) -> None:
    db = fresh(tmp_path)
    env = dict(os.environ, ROMME_LANG="en", ROMME_DB=str(db), PYTHONPATH=str(ROOT), LC_ALL="C.UTF-8")
    env.pop("PYTHONIOENCODING", None)
    done = subprocess.run(
        [sys.executable.encode(), b"-m", b"romme_score", *argv], env=env, capture_output=True, timeout=60
    )
    err = done.stderr.decode("utf-8", "backslashreplace")
    assert done.returncode == code, (argv, done.returncode, err)
    assert "Traceback" not in err and "internal error" not in err, err
    if code:
        assert one_sentence(err), err
        assert not db.exists() or b"Abend" not in db.read_bytes(), err
    else:
        data = json.loads(invoke(["standings", "--json"], db).stdout)
        assert [p["name"] for p in data["players"]] == ["Jörg", "Bén"]


def test_a_script_line_that_is_no_command_is_one_sentence_issue_37_unicode_properties(tmp_path: Path) -> None:
    """Found by the script property above: a line of a script whose first word is no
    command (``0``, a word that begins with a combining mark, an option the group has
    not) printed Click's usage lines of a ``romme`` nobody typed; it is one sentence now,
    and the next line runs. A command's own usage error stays as the command line says it
    (tests/test_table_words_differential.py)."""
    db, _players = evening(tmp_path)
    script = "0\n\u0308a\n-\u00e4 runde\nrunde --winner Jörg Bärbel=1 Özil=2 Straße=3\n"
    result = CliRunner().invoke(main, ["--lang", "en", "play", SESSION, "--db", str(db)], input=script)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "Error: No such command '0'.",
        "line 1 failed (exit code 2): 0",
        "Error: No such command '\u0308a'.",
        "line 2 failed (exit code 2): \u0308a",
        "Error: No such option '-\u00e4'.",
        "line 3 failed (exit code 2): -\u00e4 runde",
    ]
    assert len(standings(db)["rounds"]) == 1


@pytest.mark.parametrize(
    "args",
    [
        ["new", "Abend", "\u0301", "Ben"],
        ["new", "Abend", "\u0308rg", "Ben"],
        ["new", "\u0301Abend", "Anna", "Ben"],
        ["new", "Abend", " \u0301 ", "Ben"],
    ],
)
def test_a_name_that_begins_with_a_combining_mark_is_one_sentence_issue_37_unicode_properties(
    tmp_path: Path, args: list[str]
) -> None:
    """Found by the names property above: ``romme new Abend $'\\u0301' Ben`` started a game
    with a player whose name is an accent alone ("started with ́, B": the accent on the
    space before it, and no column heading to see). A name that begins with a combining
    mark is refused, the mark named by its code point; nothing is written."""
    db = fresh(tmp_path)
    result = invoke(args, db)
    mark = next(ch for ch in "".join(args[1:]).strip() if unicodedata.category(ch).startswith("M"))
    what = "a session's name" if args[1].startswith(mark) else "player name"
    assert result.exit_code == 2
    assert result.stderr == (
        f"Error: {what} begins with U+{ord(mark):04X}, an accent or mark with no letter before it\n"
    )
    assert written(db) in (None, ([], []))
    german = CliRunner().invoke(main, ["--lang", "de", *args, "--db", str(db)])
    assert german.exit_code == 2 and f"beginnt mit U+{ord(mark):04X}, einem Akzent" in german.stderr
