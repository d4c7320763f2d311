"""A hostile harness: generated input into every command and every parser, and no
traceback, ever (issue: hardening). Each command's answer is one sentence with exit code
0, 1 or 2; never an exception, never the last-resort "internal error" (exit 70).

The quick form runs in ``make test``; ``make fuzz`` runs the long form
(``ROMME_FUZZ_EXAMPLES``, default 60 per test here).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from romme_score.cards import NotationError, parse_cards
from romme_score.cli import main
from romme_score.inputs import InputValueError, clean_name, parse_decimal, parse_int
from romme_score.sessions import ExportError, SessionExport

EXAMPLES = int(os.environ.get("ROMME_FUZZ_EXAMPLES", "60"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize="ROMME_FUZZ_EXAMPLES" not in os.environ,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

PLAYERS = ["Anna", "Ben", "Carl", "Dora"]

# Tokens that broke things before, and their relatives.
NUMBERS = [
    "0",
    "5",
    "-5",
    "--5",
    "+5",
    "²",
    "½",
    "Ⅻ",
    "٣",
    "３",
    "1e5",
    "1e999999",
    "NaN",
    "nan",
    "Infinity",
    "-Infinity",
    "9" * 30,
    "0.01",
    "0,001",
    "1.2.3",
    "",
    " ",
    "0x10",
    "1_000",
    "9223372036854775808",
    "-0",
    ".5",
    "5.",
]
CARDS = [
    "HK",
    "K10",
    "J",
    "PX",
    "KH",
    "J=H8",
    "J(♥8)",
    "J=" * 300 + "H8",
    "J(" * 300 + "H8",
    "♥",
    "🃏",
    "*",
    "T2 T3 T4",
    "HK,KK,PK",
    "J J J J J J J",
    "\x00",
    "H\u200bK",
    "ＨＫ",
    "=",
    "H" * 500,
]
NAMES = [
    "Anna",
    "anna",
    " Anna ",
    "Ben",
    "A=B",
    "",
    " ",
    "\t",
    "Zed",
    "Ann",
    "b",
    "Dora\n",
    "Ä" * 50,
    "'; DROP TABLE sessions; --",
    "Anna\x07",
]
OPTIONS = [
    "--winner",
    "--hand-romme",
    "--stalemate",
    "--never-out",
    "--session",
    "--rate",
    "--unit",
    "--currency",
    "--until",
    "--dealer",
    "--preset",
    "--rule",
    "--first",
    "--onto",
    "--table",
    "--came-out",
    "--json",
    "--ascii",
    "--notation",
    "--all",
    "--yes",
    "--name",
    "--replace",
    "--list",
    "--no-hand-romme",
    "--no-stalemate",
]
RULE_ITEMS = [
    "wraparound=true",
    "packs=²",
    "packs=3",
    "jokers=-1",
    "game_end=rounds:0",
    "first_meld_min=99999999999999999999",
    "max_jokers_per_meld=none",
    "nope=1",
    "=",
    "stalemate=maybe",
    "ace_penalty=١٠",
    "game_end=1e3",
]

token = st.one_of(
    st.sampled_from(NUMBERS),
    st.sampled_from(CARDS),
    st.sampled_from(NAMES),
    st.sampled_from(OPTIONS),
    st.sampled_from(RULE_ITEMS),
    st.builds(lambda n, v: f"{n}={v}", st.sampled_from(NAMES), st.sampled_from(NUMBERS + CARDS)),
    st.text(max_size=12),
)
COMMANDS = [
    "check",
    "value",
    "best",
    "rules",
    "settle",
    "new",
    "round",
    "undo",
    "edit",
    "standings",
    "sessions",
    "use",
    "export",
]


@pytest.fixture(scope="module")
def hostile_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("hostile") / "hostile.sqlite3"
    result = CliRunner().invoke(main, ["new", "Friday", *PLAYERS, "--until", "open", "--db", str(db)])
    assert result.exit_code == 0, result.output
    return db


def assert_one_clean_answer(args: list[str], db: Path, input: str | None = None) -> None:
    result = CliRunner().invoke(
        main,
        [*args, "--db", str(db)] if args[0] not in ("check", "value", "best", "rules") else args,
        input=input,
    )
    shown = f"romme {' '.join(map(repr, args))}"
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{shown} raised {result.exception!r}") from result.exception
    assert result.exit_code in (0, 1, 2), f"{shown} exited {result.exit_code}: {result.output}"
    assert "Traceback" not in result.output and "internal error" not in result.output, shown


@SETTINGS
@given(command=st.sampled_from(COMMANDS), args=st.lists(token, max_size=6))
def test_every_command_answers_hostile_arguments_in_one_sentence(
    hostile_db: Path, command: str, args: list[str]
) -> None:
    if command in ("check", "value", "best") and not args:
        args = ["HK"]
    if command == "export":
        args = [a for a in args if a not in ("-o", "--output")]
    assert_one_clean_answer([command, *args], hostile_db, input="")


def options_of(command: str) -> list[tuple[str, bool]]:
    """The options of a command: (name, is a flag)."""
    ctx = main.make_context("romme", [command, "--help"], resilient_parsing=True)
    cmd = main.get_command(ctx, command)
    assert cmd is not None
    return [
        (o.opts[0], bool(getattr(o, "is_flag", False)))
        for o in cmd.params
        if isinstance(o, click.Option) and o.opts[0] not in ("--help", "-o", "--output", "--db")
    ]


VALUES = st.one_of(
    st.sampled_from(NUMBERS),
    st.sampled_from(CARDS),
    st.sampled_from(NAMES),
    st.sampled_from(RULE_ITEMS),
    st.text(max_size=10),
)


@SETTINGS
@given(command=st.sampled_from(COMMANDS), data=st.data())
def test_every_option_answers_hostile_values_in_one_sentence(
    hostile_db: Path, command: str, data: st.DataObject
) -> None:
    options = options_of(command)
    args: list[str] = []
    for name, flag in data.draw(st.lists(st.sampled_from(options), max_size=4)) if options else []:
        args += [name] if flag else [name, data.draw(VALUES)]
    positional = {
        "check": ["HK KK PK"],
        "value": ["HK"],
        "best": ["HK KK PK H2"],
        "edit": ["1"],
        "use": ["Friday"],
    }.get(command, [])
    assert_one_clean_answer([command, *args, *positional], hostile_db, input="")


@SETTINGS
@given(
    data=st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
        max_leaves=20,
    ),
    base=st.booleans(),
)
def test_import_answers_any_json_in_one_sentence(
    hostile_db: Path, tmp_path_factory: pytest.TempPathFactory, data: Any, base: bool
) -> None:
    if base and isinstance(data, dict):  # mostly a well-formed export, with hostile parts
        data = {
            "format": "romme-score session",
            "version": 1,
            "name": "Imported",
            "players": ["A", "B"],
            **data,
        }
    path = tmp_path_factory.mktemp("import") / "x.json"
    path.write_text(json.dumps(data, allow_nan=True), encoding="utf-8")
    assert_one_clean_answer(["import", str(path), "--replace"], hostile_db)


def test_deeply_nested_json_import_is_one_sentence(hostile_db: Path, tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    result = CliRunner().invoke(main, ["import", str(path), "--db", str(hostile_db)])
    assert result.exit_code == 2 and "nested too deeply" in result.stderr


@SETTINGS
@given(st.text(max_size=40))
def test_card_parser_raises_only_its_own_error(text: str) -> None:
    for profile in ("de", "en"):
        try:
            parse_cards(text, profile)
        except NotationError:
            pass


@SETTINGS
@given(st.text(max_size=30))
def test_number_and_name_readers_raise_only_their_own_error(text: str) -> None:
    for read in (
        lambda t: parse_int(t, "x", 0, 9999),
        lambda t: parse_decimal(t, "x", 0, 1000, places=8),
        lambda t: clean_name(t),
    ):
        try:
            read(text)
        except InputValueError:
            pass


@SETTINGS
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=8),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
        max_leaves=25,
    )
)
def test_export_reader_raises_only_export_error(data: Any) -> None:
    candidates = [data]
    if isinstance(data, dict):
        candidates.append(
            {"format": "romme-score session", "version": 1, "name": "N", "players": ["A", "B"], **data}
        )
    for candidate in candidates:
        try:
            SessionExport.from_json(candidate)
        except ExportError:
            pass


@pytest.mark.parametrize(
    "args",
    [
        ["check", ""],
        ["check", " , "],
        ["value", ""],
        ["best", ""],
    ],
)
def test_empty_cards_are_unreadable_input(args: list[str]) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and "no cards" in result.stderr


@pytest.mark.parametrize("option", sorted(__import__("romme_score.rules", fromlist=["x"]).OPTION_NAMES))
def test_every_rule_option_refuses_hostile_numbers_with_rule_error(option: str) -> None:
    from romme_score.rules import RuleError, build_rules

    for value in [*NUMBERS, "none", "true", "rounds:²", "rounds:--1", "rounds:" + "9" * 30]:
        try:
            build_rules(None, [f"{option}={value}"])
        except RuleError:
            pass
        try:
            build_rules(None, [], f"{option} = {json.dumps(value)}")
        except RuleError:
            pass
