"""The options of a tournament (docs/rules.md §10): every number of §10 is one, with the
tables' house rules (:class:`~romme_score.rules.RuleSet`) beside them. Read from the same
``--rule KEY=VALUE`` items and TOML house-rules file as the rules, validated when built,
each documented where it is defined, on the option machinery of the house rules
(:mod:`romme_score.options`).

>>> rules, options = build_tournament(None, ["wertung_low=10:3,20:2,30:1", "prizes=40%,25%,15%"])
>>> options.wertung_low, [str(p) for p in options.prizes]
(((10, 3), (20, 2), (30, 1)), ['40%', '25%', '15%'])
>>> str(rules.game_end)
'rounds:16'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import Field, dataclass, fields, replace
from decimal import Decimal
from typing import Any, Literal, NamedTuple

from romme_score.i18n import _
from romme_score.inputs import InputValueError, looks_like_number, parse_decimal, parse_int
from romme_score.options import (
    RuleError,
    check_value,
    closest,
    load_rules_file,
    option,
    option_fields,
    parse_assignment,
    read_option,
)
from romme_score.rules import OPTION_NAMES, GameEnd, RuleSet, find_preset

Seating = Literal["draw", "standings", "fixed"]
Scoring = Literal["augen", "wertung"]
TieBreak = Literal["none", "best-series"]

MAX_SERIES = 99
MAX_GAMES = 1000
MAX_MONEY = Decimal(10**7)  # a fee or a prize amount
MONEY_PLACES = 8


class Prize(NamedTuple):
    """The prize of one place: an amount of money, or a percentage of the pot."""

    value: Decimal
    percent: bool

    def __str__(self) -> str:
        return f"{_plain(self.value)}%" if self.percent else _plain(self.value)


def _plain(value: Decimal) -> str:
    """A decimal without an exponent or trailing zeros: ``Decimal('40.0')`` -> ``40``."""
    return format(value.normalize(), "f")


WertungLow = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class TournamentOptions:
    """Every number of docs/rules.md §10, validated when built (as :class:`~romme_score.rules.RuleSet`
    is); the tables' house rules are a :class:`~romme_score.rules.RuleSet` beside it."""

    table_size: int = option(4, "players at a table (tables of one fewer fill up, §10)", lo=2, hi=6)
    min_table: int = option(
        3, "fewest players at a table; fewer tables with one more player instead", lo=2, hi=6
    )
    series: int = option(3, "series of the tournament", lo=1, hi=MAX_SERIES)
    games: int = option(16, "games at each table in a series (game_end = rounds:games)", lo=1, hi=MAX_GAMES)
    seating: Seating = option(
        "standings",
        "draw (by lot from the seed), standings (series 1 by lot, then table 1 takes "
        "places 1-4), fixed (the order given)",
        choices=("draw", "standings", "fixed"),
    )
    scoring: Scoring = option(
        "augen",
        "augen (penalty points at the table, lower is better) or wertung (points per game, higher is better)",
        choices=("augen", "wertung"),
    )
    wertung_win: int = option(5, "wertung: points for winning a game", lo=0, hi=1000)
    wertung_hand_romme: int = option(8, "wertung: points for winning with a Hand-Rommé", lo=0, hi=1000)
    wertung_low: WertungLow = option(
        ((10, 3), (20, 2), (30, 1)),
        "wertung: a loser's points by the penalty points of the game, AUGEN:POINTS,... (else 0)",
    )
    tie_break: TieBreak = option(
        "none",
        "equal totals share a place (none), or go by the best series, then the last (best-series)",
        choices=("none", "best-series"),
    )
    entry_fee: Decimal = option(Decimal(0), "entry fee of every player", money=True)
    lost_game_fee: Decimal = option(
        Decimal(0), "paid for every game a player does not win (Verlustspielgeld)", money=True
    )
    prizes: tuple[Prize, ...] = option(
        (), "prizes by place: amounts or percentages of the pot, e.g. 40%,25%,15%"
    )
    currency: str | None = option(None, "the currency of the money, e.g. EUR")
    unit: Decimal = option(
        Decimal("0.01"), "the currency's smallest unit: prizes are rounded to it", money=True
    )

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.metadata.get("money"):
                _check_money(f.name, value, positive=f.name == "unit")
            elif f.name == "wertung_low":
                _check_wertung_low(value)
            elif f.name == "prizes":
                _check_prizes(value)
            elif f.name == "currency":
                if value is not None and (
                    not isinstance(value, str) or not value.isalpha() or len(value) > 8
                ):
                    raise RuleError(
                        _("currency=%(value)s is not allowed: use a code of letters, e.g. EUR")
                        % {"value": value}
                    )
            else:
                check_value(f, value)
        if self.table_size < self.min_table:
            raise RuleError(
                _("table_size=%(size)d is smaller than min_table=%(smallest)d")
                % {"size": self.table_size, "smallest": self.min_table}
            )
        for name in ("entry_fee", "lost_game_fee"):
            _check_in_units(name, getattr(self, name), self.unit)
        for prize in self.prizes:
            if not prize.percent:
                _check_in_units("prizes", prize.value, self.unit)

    def replace(self, **changes: Any) -> TournamentOptions:
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Options by name with JSON/TOML-friendly values (as typed: ``"10:3,20:2,30:1"``)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            out[f.name] = option_text(f.name, getattr(self, f.name))
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], base: TournamentOptions | None = None) -> TournamentOptions:
        """Built from option names and values, read as on the command line."""
        changes = {key: parse_option(key, value) for key, value in data.items()}
        return replace(base or cls(), **changes)

    def better(self) -> Literal["low", "high"]:
        """Which results are better: fewer Augen, or more Wertung points."""
        return "low" if self.scoring == "augen" else "high"


_FIELDS = option_fields(TournamentOptions)
TOURNAMENT_OPTION_NAMES = tuple(_FIELDS)


def option_doc(name: str) -> str:
    return str(_FIELDS[name].metadata["doc"])


def option_text(name: str, value: Any) -> Any:
    """An option's value as typed (and as stored): ints stay ints, the rest is text or None."""
    if name == "wertung_low":
        return ",".join(f"{limit}:{points}" for limit, points in value) or "none"
    if name == "prizes":
        return ",".join(str(p) for p in value) or "none"
    if isinstance(value, Decimal):
        return _plain(value)
    return value


def allowed_text(name: str) -> str:
    """What an option accepts, in words."""
    f = _FIELDS[name]
    if "choices" in f.metadata:
        return ", ".join(f.metadata["choices"])
    if f.metadata.get("money"):
        return _("an amount, e.g. 0.50")
    if name == "wertung_low":
        return _("AUGEN:POINTS,... or none")
    if name == "prizes":
        return _("amounts or percentages, e.g. 40%,25%,15%, or none")
    if name == "currency":
        return _("a code, e.g. EUR, or none")
    return f"{f.metadata['lo']}-{f.metadata['hi']}"


def _check_money(name: str, value: Any, positive: bool) -> None:
    if not isinstance(value, Decimal) or not value.is_finite():
        raise RuleError(_("%(name)s must be an amount, not %(value)s") % {"name": name, "value": repr(value)})
    low_ok = value > 0 if positive else value >= 0
    if not low_ok or value > MAX_MONEY:
        raise RuleError(
            _("%(name)s=%(value)s is out of range: allowed %(allowed)s")
            % {"name": name, "value": value, "allowed": f"0-{MAX_MONEY}"}
        )


def _check_in_units(name: str, value: Decimal, unit: Decimal) -> None:
    if value % unit:
        raise RuleError(
            _("%(name)s=%(value)s is not a whole number of the unit %(unit)s")
            % {"name": name, "value": _plain(value), "unit": _plain(unit)}
        )


def _check_wertung_low(value: Any) -> None:
    if not isinstance(value, tuple) or not all(
        isinstance(p, tuple)
        and len(p) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) for x in p)
        for p in value
    ):
        raise RuleError(
            _("wertung_low must be a list of AUGEN:POINTS, not %(value)s") % {"value": repr(value)}
        )
    limits = [limit for limit, _points in value]
    if any(x < 0 for pair in value for x in pair) or any(
        a >= b for a, b in zip(limits, limits[1:], strict=False)
    ):
        raise RuleError(
            _(
                "wertung_low=%(value)s is not allowed: the Augen must rise from one step "
                "to the next, none negative"
            )
            % {"value": option_text("wertung_low", value)}
        )


def _check_prizes(value: Any) -> None:
    if not isinstance(value, tuple) or not all(isinstance(p, Prize) for p in value):
        raise RuleError(
            _("prizes must be a list of amounts or percentages, not %(value)s") % {"value": repr(value)}
        )
    for prize in value:
        if (
            not prize.value.is_finite()
            or prize.value < 0
            or prize.value > (100 if prize.percent else MAX_MONEY)
        ):
            raise RuleError(_("prizes: %(prize)s is out of range") % {"prize": prize})
    percent = sum((p.value for p in value if p.percent), Decimal(0))
    if percent > 100:
        raise RuleError(
            _("prizes=%(value)s come to %(percent)s%% of the pot, more than all of it")
            % {"value": option_text("prizes", value), "percent": _plain(percent)}
        )


def parse_option(name: str, value: Any) -> Any:
    """A tournament option's value from command-line or TOML text (or a TOML-typed value)."""
    f = tournament_field(name)
    text = value.strip() if isinstance(value, str) else value
    if f.metadata.get("money"):
        if isinstance(text, bool) or not isinstance(text, (str, int, float)):
            raise _not_allowed(name, value)
        try:
            return parse_decimal(str(text), name, 0, MAX_MONEY, places=MONEY_PLACES, above=name == "unit")
        except InputValueError as exc:
            raise RuleError(str(exc)) from None
    if name == "wertung_low":
        return _read_wertung_low(text, value)
    if name == "prizes":
        return _read_prizes(text, value)
    if name == "currency":
        if text is None:  # as stored (JSON null)
            return None
        if not isinstance(text, str):
            raise _not_allowed(name, value)
        return None if text.lower() in ("", "none") else text.upper()
    if "choices" in f.metadata and not isinstance(text, str):
        raise _not_allowed(name, value)
    return read_option(f, value, _not_allowed)


def _not_allowed(name: str, value: Any) -> RuleError:
    return RuleError(
        _("%(name)s=%(value)s is not allowed: use %(allowed)s")
        % {"name": name, "value": value, "allowed": allowed_text(name)}
    )


def _read_wertung_low(text: Any, value: Any) -> WertungLow:
    if isinstance(text, list):  # TOML: [[10, 3], [20, 2], [30, 1]]
        items = [":".join(str(x) for x in pair) if isinstance(pair, list) else str(pair) for pair in text]
    elif isinstance(text, str):
        items = [] if text.lower() in ("", "none") else text.split(",")
    else:
        raise _not_allowed("wertung_low", value)
    steps = []
    for item in items:
        limit, sep, points = item.partition(":")
        if not sep or not looks_like_number(limit) or not looks_like_number(points):
            raise _not_allowed("wertung_low", value)
        try:
            steps.append(
                (parse_int(limit, "wertung_low", 0, 10**6), parse_int(points, "wertung_low", 0, 1000))
            )
        except InputValueError as exc:
            raise RuleError(str(exc)) from None
    return tuple(steps)


def _read_prizes(text: Any, value: Any) -> tuple[Prize, ...]:
    if isinstance(text, list):  # TOML: ["40%", "25%"] or [100, 50]
        items = [str(x) for x in text]
    elif isinstance(text, (int, float)) and not isinstance(text, bool):
        items = [str(text)]
    elif isinstance(text, str):
        items = [] if text.lower() in ("", "none") else text.split(",")
    else:
        raise _not_allowed("prizes", value)
    prizes = []
    for item in items:
        body = item.strip()
        percent = body.endswith("%")
        try:
            amount = parse_decimal(
                body[:-1] if percent else body,
                "prizes",
                0,
                100 if percent else MAX_MONEY,
                places=MONEY_PLACES,
                typed=body,
            )
        except InputValueError as exc:
            raise RuleError(str(exc)) from None
        prizes.append(Prize(amount, percent))
    return tuple(prizes)


def tournament_field(name: str) -> Field[Any]:
    if name not in _FIELDS:
        raise unknown_option(name)
    return _FIELDS[name]


def unknown_option(name: str) -> RuleError:
    """An option that is neither a tournament option nor a house rule, with the closest name."""
    known = (*TOURNAMENT_OPTION_NAMES, *OPTION_NAMES)
    close = closest(name, known)
    if close:
        message = _("unknown option '%(name)s'; did you mean %(close)s? (options: %(known)s)")
    else:
        message = _("unknown option '%(name)s' (options: %(known)s)")
    return RuleError(message % {"name": name, "close": close or "", "known": ", ".join(known)})


def build_tournament(
    preset: str | None = None,
    overrides: Sequence[str] = (),
    file_text: str | None = None,
    file_name: str = "rules file",
) -> tuple[RuleSet, TournamentOptions]:
    """The tables' house rules and the tournament's options, from a preset, then a TOML
    file's keys, then ``KEY=VALUE`` items: each key is a tournament option or a house rule.
    The tables' ``game_end`` is always ``rounds:games``.

    >>> rules, options = build_tournament("classic", ["games=6", "wraparound=false"])
    >>> str(rules.game_end), rules.wraparound, options.games
    ('rounds:6', False, 6)
    """
    file_preset: str | None = None
    file_items: dict[str, Any] = {}
    if file_text is not None:
        file_preset, file_items = load_rules_file(file_text, file_name)
    items: list[tuple[str, Any]] = list(file_items.items())
    items += [parse_assignment(item) for item in overrides]
    rule_changes: dict[str, Any] = {}
    option_changes: dict[str, Any] = {}
    for key, value in items:
        if key in _FIELDS:
            option_changes[key] = value
        elif key in OPTION_NAMES:
            rule_changes[key] = value
        else:
            raise unknown_option(key)
    options = TournamentOptions.from_dict(option_changes)
    rules = RuleSet.from_dict(rule_changes, find_preset(preset or file_preset or "standard"))
    return tables_rules(rules, options), options


def tables_rules(rules: RuleSet, options: TournamentOptions) -> RuleSet:
    """The house rules of every table: the tournament's, ending after ``games`` rounds."""
    return rules.replace(game_end=GameEnd("rounds", options.games))
