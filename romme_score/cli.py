"""The ``romme`` command line: parse arguments, call the core, print tables or JSON.

Domain errors become one-sentence messages with exit code 2 (input that
cannot be read) or 1 (a negative verdict or a refused action).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar, cast

import click

from romme_score.cards import Card, NotationError, Profile, format_cards, parse_cards
from romme_score.rules import (
    OPTION_NAMES,
    PRESET_SOURCES,
    PRESETS,
    RuleError,
    RuleSet,
    allowed_values,
    build_rules,
    option_doc,
)

if TYPE_CHECKING:  # imported where used: each costs start-up time of 'romme check'
    from decimal import Decimal

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
        import json

        # Indented for a person at a terminal; compact (and much faster) for scripts.
        indent = 2 if sys.stdout.isatty() else None
        click.echo(json.dumps(data, ensure_ascii=False, indent=indent))


def _terminal_can_show_symbols() -> bool:
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        "♣♠♥♦".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def output_options(func: F) -> F:
    """``--notation``, ``--ascii`` and ``--json``, shared by every command."""

    @click.option("--notation", type=click.Choice(["de", "en"]), default="de", show_default=True,
                  envvar="ROMME_NOTATION",
                  help="How letters are read: de = suit letter first (HK, K10, J joker); "
                       "en = rank first (KH, 10D, JK joker).")
    @click.option("--ascii", "ascii_", is_flag=True, help="Print cards as letters (HK), not ♥K.")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
    @functools.wraps(func)
    def wrapper(*args: Any, notation: str, ascii_: bool, as_json: bool, **kwargs: Any) -> Any:
        out = Output(cast(Profile, notation), ascii_ or not _terminal_can_show_symbols(), as_json)
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
    try:
        return parse_cards(text, out.profile)
    except NotationError as exc:
        fail_input(f"{what}{exc}")


class LazyGroup(click.Group):
    """A group whose session commands are imported only when used, so that
    ``romme check`` never pays for SQLite or the scoring code (start-up time)."""

    lazy = {"new": "new", "round": "round_", "undo": "undo", "edit": "edit",
            "standings": "standings", "sessions": "sessions", "use": "use",
            "export": "export", "import": "import_"}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.lazy])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy:
            from romme_score import cli_session

            command = getattr(cli_session, self.lazy[cmd_name])
            assert isinstance(command, click.Command)
            return command
        return super().get_command(ctx, cmd_name)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="romme-score")
def main() -> None:
    """romme-score: scorekeeper and referee for Rommé played with real cards.

    \b
    Examples:
      romme check "HK KK PK" "T9 T10 TB"      is this a legal meld? what is it worth?
      romme value "HK K10 J"                 penalty points left in a hand
      romme new Friday Anna Ben Carl Dora    start keeping score
      romme settle A=220 B=360 C=140 D=490 --rate 0.001
    """


# --- romme check ----------------------------------------------------------------

@main.command()
@click.argument("melds", nargs=-1, required=True)
@click.option("--first", is_flag=True, help="Judge the melds together as a first meld (§4).")
@click.option("--onto", metavar="MELD",
              help="A meld on the table: judge the given cards as a lay-off or joker swap onto it.")
@rule_options
@output_options
def check(melds: tuple[str, ...], first: bool, onto: str | None, rules: RuleSet,
          out: Output) -> None:
    """Say whether melds are legal, why not, and what they are worth.

    One argument per meld. Exit code 0 when everything is legal, 1 when not.

    \b
    Examples:
      romme check "HK KK PK" "T9 T10 TB"
      romme check --first "P3 P4 P5" "TB PB HB"
      romme check --preset wiki-51 "♠3 J J ♠6"
      romme check --onto "♥2 ♥3 ♥4" "♥A ♥5"
      romme check --notation en "KH KD KS"
    """
    from romme_score import referee

    if onto is not None and first:
        fail_input("--first judges melds laid from the hand, --onto a lay-off: give one of them")
    if onto is not None:
        table = read_cards(onto, out, "--onto: ")
        added = [c for i, m in enumerate(melds, 1) for c in read_cards(m, out, f"argument {i}: ")]
        verdict = referee.judge_onto(onto, table, added, rules)
    else:
        parsed = [read_cards(m, out, f"meld {i} ('{m}'): " if len(melds) > 1 else "")
                  for i, m in enumerate(melds, 1)]
        verdict = referee.judge_melds(list(melds), parsed, rules, first=first)
    if out.json:
        out.dump(verdict.to_json(out.profile, out.ascii))
    else:
        out.echo(verdict.render(out.profile, out.ascii))
    if not verdict.valid:
        sys.exit(1)


# --- romme value ----------------------------------------------------------------

@main.command()
@click.argument("hand", nargs=-1, required=True)
@rule_options
@output_options
def value(hand: tuple[str, ...], rules: RuleSet, out: Output) -> None:
    """Penalty points of the cards left in a hand, with a breakdown.

    Several arguments are joined into one hand.

    \b
    Examples:
      romme value "HK K10 J"
      romme value --rule joker_penalty=25 HK K10 J
      romme value --notation en "KH 10D JK"
    """
    from romme_score.melds import penalty_value

    cards = read_cards(" ".join(hand), out)
    rows = [(card, penalty_value(card, rules)) for card in cards]
    points = sum(p for _, p in rows)
    if out.json:
        out.dump({"points": points,
                  "cards": [{"card": out.card(c), "points": p} for c, p in rows]})
        return
    # Two columns by hand: importing tabulate would double this command's start-up time.
    width = max([4, *(len(out.card(c)) for c, _ in rows)])
    out.echo(f"{'card':<{width}}  points")
    for card, p in rows:
        out.echo(f"{out.card(card):<{width}}  {p:>6}")
    out.echo(f"Total: {points} points")


# --- romme best -----------------------------------------------------------------

@main.command()
@click.argument("hand", nargs=-1, required=True)
@click.option("--table", "table_melds", multiple=True, metavar="MELD",
              help="A meld on the table that cards may be laid off onto (repeatable).")
@click.option("--came-out", is_flag=True,
              help="The player has already come out: lay-offs count, no first-meld minimum.")
@rule_options
@output_options
def best(hand: tuple[str, ...], table_melds: tuple[str, ...], came_out: bool, rules: RuleSet,
         out: Output) -> None:
    """The best arrangement of a hand: could it come out, what is the most it can
    lay down, what would be left, can it go out now.

    Several arguments are joined into one hand.

    \b
    Examples:
      romme best "P3 P4 P5 TB PB HB H9 K2"
      romme best --came-out --table "♥2 ♥3 ♥4" --table "HK KK PK" "♥A ♥5 TK P9"
      romme best --preset wiki-51 "TA PA J H3 H4 H5 H9"
    """
    from romme_score.melds import IllegalMeldError, check_supply, interpret
    from romme_score.solver import solve

    cards = read_cards(" ".join(hand), out)
    table = []
    for n, text in enumerate(table_melds, 1):
        table_cards = read_cards(text, out, f"--table {n}: ")
        try:
            table.append(interpret(table_cards, rules))
        except IllegalMeldError as exc:
            fail_input(f"--table {n} ('{text}') is not a legal meld: {exc}")
    try:
        check_supply(cards + [c for m in table for c in m.cards], rules)
    except IllegalMeldError as exc:
        fail_input(f"the hand and table do not add up: {exc}")
    if not cards:
        fail_input("the hand is empty")
    result = solve(cards, rules, table, came_out)
    from romme_score.views import best_json, render_best

    if out.json:
        out.dump(best_json(result, table, rules, out.profile, out.ascii))
    else:
        out.echo(render_best(result, cards, table, rules, came_out, out.profile, out.ascii))


# --- romme rules ----------------------------------------------------------------

@main.command()
@click.argument("preset_name", required=False, metavar="[PRESET]")
@click.option("--list", "list_presets", is_flag=True, help="List the presets.")
@rule_options
@output_options
def rules(preset_name: str | None, list_presets: bool, rules: RuleSet, out: Output) -> None:
    """Show the house rules of a preset, one line of explanation each.

    \b
    Examples:
      romme rules                      the standard preset
      romme rules wiki-51
      romme rules --list
      romme rules --preset classic --rule first_meld_min=30
    """
    from tabulate import tabulate

    if list_presets:
        if out.json:
            out.dump({name: {"description": PRESET_SOURCES[name], "rules": PRESETS[name].to_dict()}
                      for name in PRESETS})
            return
        out.echo(tabulate([[name, PRESET_SOURCES[name]] for name in PRESETS],
                          headers=["preset", "what it is"]))
        return
    if preset_name is not None:
        try:
            shown = build_rules(preset_name)
        except RuleError as exc:
            fail_input(str(exc))
    else:
        shown = rules
    data = shown.to_dict()
    if out.json:
        out.dump(data)
        return
    rows = [[name, _show_value(data[name]), allowed_values(name), option_doc(name)]
            for name in OPTION_NAMES]
    out.echo(tabulate(rows, headers=["option", "value", "allowed", "meaning"]))


def _show_value(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# --- romme settle ---------------------------------------------------------------

def parse_decimal(text: str, what: str) -> Decimal:
    from decimal import Decimal, InvalidOperation

    try:
        number = Decimal(text.replace(",", "."))
    except InvalidOperation:
        fail_input(f"{what} '{text}' is not a decimal number (e.g. 0.01)")
    if not number.is_finite():
        fail_input(f"{what} '{text}' is not a decimal number (e.g. 0.01)")
    return number


@main.command()
@click.argument("totals", nargs=-1)
@click.option("--session", "sessions", multiple=True, metavar="NAME",
              help="Settle these sessions together (repeatable); default: the current session.")
@click.option("--rate", help="Money per penalty point, e.g. 0.001 (default: the session's rate, "
                             "else 0.01).")
@click.option("--unit", default="0.01", show_default=True,
              help="Smallest unit of the currency; amounts are rounded to it.")
@click.option("--currency", help="Currency code, e.g. EUR (default: the session's).")
@click.option("--db", type=click.Path(dir_okay=False), envvar="ROMME_DB",
              help="Database file (default: the user data directory; env ROMME_DB).")
@output_options
def settle(totals: tuple[str, ...], sessions: tuple[str, ...], rate: str | None, unit: str,
           currency: str | None, db: str | None, out: Output) -> None:
    """Settle the evening: who pays whom how much (002 section 6).

    Every pair of players settles the difference of their totals; the money is
    rounded to the unit so that it sums to zero, and paid in the fewest
    transfers possible.

    \b
    Examples:
      romme settle A=220 B=360 C=140 D=490 --rate 0.001 --currency EUR
      romme settle                      the current session
      romme settle --session Friday --session Saturday
    """
    from decimal import Decimal

    from romme_score import settlement as st
    from romme_score.views import render_settlement, settlement_json

    unit_value = parse_decimal(unit, "--unit")
    if unit_value <= 0:
        fail_input(f"--unit '{unit}' must be more than 0")
    rate_value = parse_decimal(rate, "--rate") if rate is not None else None
    if rate_value is not None and rate_value < 0:
        fail_input(f"--rate '{rate}' must not be negative")
    leaderboard: dict[str, int] | None = None
    if totals:
        if sessions:
            fail_input("give either NAME=POINTS totals or --session, not both")
        games: Sequence[Mapping[str, int]] = [_paper_totals(totals)]
        rates = [rate_value if rate_value is not None else Decimal("0.01")]
    else:
        from romme_score.cli_session import session_totals

        games, session_rates, currency_found, leaderboard = session_totals(db, sessions)
        rates = [rate_value if rate_value is not None else r for r in session_rates]
        currency = currency or currency_found
    try:
        result = st.settle_games(games, rates, unit_value)
    except st.SettlementError as exc:
        fail_input(str(exc))
    if out.json:
        out.dump(settlement_json(result, leaderboard))
    else:
        out.echo(render_settlement(result, currency, out.profile, leaderboard))


def _paper_totals(items: Sequence[str]) -> dict[str, int]:
    totals: dict[str, int] = {}
    for item in items:
        if "=" not in item:
            fail_input(f"'{item}' needs the form NAME=POINTS, e.g. Anna=220")
        name, _, points = item.partition("=")
        name = name.strip()
        if not name:
            fail_input(f"'{item}' has no name before '='")
        if name in totals:
            fail_input(f"{name} is given twice")
        text = points.strip()
        if not text.lstrip("-").isdigit():
            fail_input(f"{name}={text}: a total is a whole number of points, e.g. {name}=220")
        if int(text) < 0:
            fail_input(f"{name}={text}: a total cannot be negative")
        totals[name] = int(text)
    if len(totals) < 2:
        fail_input("a settlement needs at least two players, e.g. A=220 B=360")
    return totals

