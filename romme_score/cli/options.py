"""What every command shares: the error classes of the edge, how to print (``Output``),
the option decorators, and reading cards from arguments (numbers and rates are read
in :mod:`romme_score.cli.service`, which only the commands that need them import).

Domain errors become one sentence with exit code 2 (input that cannot be read)
or 1 (a negative verdict or a refused action); nothing is written then.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar, cast

import click

from romme_score.cards import Card, NotationError, Profile, format_cards, parse_cards
from romme_score.rules import PRESETS, RuleError, RuleSet, build_rules

F = TypeVar("F", bound=Callable[..., Any])


class InputError(click.ClickException):
    """Input that cannot be read: one sentence on stderr, exit code 2, nothing written."""

    exit_code = 2


class Refused(click.ClickException):
    """A negative verdict or a refused action: exit code 1."""

    exit_code = 1


def fail_input(message: str) -> NoReturn:
    raise InputError(message)


class Output:
    """How to print: notation profile, ASCII fallback, JSON."""

    __slots__ = ("profile", "ascii", "json")

    def __init__(self, profile: Profile, ascii: bool, json: bool) -> None:
        self.profile = profile
        self.ascii = ascii
        self.json = json

    def card(self, card: Card) -> str:
        return card.format(self.profile, self.ascii)

    def cards(self, cards: Sequence[Card]) -> str:
        return format_cards(list(cards), self.profile, self.ascii)

    def text(self, text: str) -> str:
        """Replace suit symbols in free text when printing ASCII."""
        if not self.ascii:
            return text
        for symbol, letters in (("♣", "T" if self.profile == "de" else "C"),
                                ("♠", "P" if self.profile == "de" else "S"),
                                ("♥", "H"), ("♦", "K" if self.profile == "de" else "D")):
            text = text.replace(symbol, letters)
        return text

    def echo(self, text: str = "") -> None:
        click.echo(self.text(text))

    def dump(self, data: Any) -> None:
        """JSON: indented for a person at a terminal, compact (and much faster) for scripts;
        lists given as iterators stream, so a long session needs no more memory."""
        from romme_score.views.stream import stream_json  # only JSON output pays for it

        indent = 2 if sys.stdout.isatty() else None
        echo_chunks(stream_json(data, indent))
        click.echo()


def echo_chunks(chunks: Iterable[str], size: int = 1 << 16) -> None:
    """Print text given in pieces, some 64 KiB at a time: memory stays flat, and Click
    deals with the terminal's encoding as it does for every other line."""
    buffer: list[str] = []
    held = 0
    for chunk in chunks:
        buffer.append(chunk)
        held += len(chunk)
        if held >= size:
            click.echo("".join(buffer), nl=False)
            buffer, held = [], 0
    if buffer:
        click.echo("".join(buffer), nl=False)


def _terminal_can_show_symbols() -> bool:
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        "♣♠♥♦".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def output_options(func: F) -> F:
    """``--notation``, ``--ascii`` and ``--json``: for the commands that read or print cards."""

    @click.option("--notation", type=click.Choice(["de", "en"]), default="de", show_default=True,
                  envvar="ROMME_NOTATION",
                  help="How letters are read: de = suit letter first (HK, K10, J joker); "
                       "en = rank first (KH, 10D, JK joker).")
    @click.option("--ascii", "ascii_", is_flag=True,
                  help="Print plain ASCII: cards as letters (HK, not ♥K), EUR for €.")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
    @functools.wraps(func)
    def wrapper(*args: Any, notation: str, ascii_: bool, as_json: bool, **kwargs: Any) -> Any:
        out = Output(cast(Profile, notation), ascii_ or not _terminal_can_show_symbols(), as_json)
        return func(*args, out=out, **kwargs)

    return cast(F, wrapper)


def plain_output_options(func: F) -> F:
    """``--ascii`` and ``--json``: for the commands that print no cards."""

    @click.option("--ascii", "ascii_", is_flag=True, help="Print plain ASCII (EUR for €).")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
    @functools.wraps(func)
    def wrapper(*args: Any, ascii_: bool, as_json: bool, **kwargs: Any) -> Any:
        out = Output("de", ascii_ or not _terminal_can_show_symbols(), as_json)
        return func(*args, out=out, **kwargs)

    return cast(F, wrapper)


def rule_options(func: F) -> F:
    """``--preset``, ``--rule KEY=VALUE`` and ``--rules-file``: the table's house rules."""

    @click.option("--preset", metavar="NAME",
                  help=f"Rule preset: {', '.join(PRESETS)} (default standard).")
    @click.option("--rule", "rule_items", multiple=True, metavar="KEY=VALUE",
                  help="Override one house rule, e.g. --rule wraparound=true (repeatable).")
    @click.option("--rules-file", type=click.Path(dir_okay=False),
                  help="TOML file: preset = \"NAME\" plus overrides.")
    @functools.wraps(func)
    def wrapper(*args: Any, preset: str | None, rule_items: tuple[str, ...],
                rules_file: str | None, **kwargs: Any) -> Any:
        rules = load_rules(preset, rule_items, rules_file)
        return func(*args, rules=rules, **kwargs)

    return cast(F, wrapper)


def db_option(func: F) -> F:
    """``--db FILE``: the database (default: the user data directory; env ROMME_DB)."""
    return click.option(
        "--db", type=click.Path(dir_okay=False, path_type=Path), envvar="ROMME_DB",
        help="Database file (default: romme-score/romme.sqlite3 in the user data directory; "
             "env ROMME_DB).")(func)


def session_option(func: F) -> F:
    """``--session NAME``: which session (default: the current one)."""
    return click.option("--session", metavar="NAME",
                        help="The session (default: the current one).")(func)


def load_rules(preset: str | None, rule_items: Sequence[str], rules_file: str | None) -> RuleSet:
    text = None
    if rules_file is not None:
        try:
            with open(rules_file, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError) as exc:
            fail_input(f"cannot read the rules file {rules_file}: "
                       f"{getattr(exc, 'strerror', None) or 'not a UTF-8 text file'}")
    try:
        return build_rules(preset, tuple(rule_items), text, str(rules_file or "rules file"))
    except RuleError as exc:
        fail_input(str(exc))


def read_cards(text: str, out: Output, what: str = "") -> list[Card]:
    """Cards from an argument; an unreadable or empty one is an input error naming ``what``."""
    try:
        cards = parse_cards(text, out.profile)
    except NotationError as exc:
        fail_input(f"{what}{exc}")
    if not cards:
        fail_input(f"{what}no cards given: type cards like HK K10 J")
    return cards
