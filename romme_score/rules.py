"""Rule sets: every house rule of docs/rules.md §9 as a field, and the five presets.

A rule the sources disagree on is an option here, never an ``if`` in the code. How an
option is declared, checked and read is :mod:`romme_score.options` (a tournament's options
use the same).

>>> rules = find_preset("wiki-51")
>>> rules.first_meld_min, rules.min_naturals
(51, 2)
>>> rules.replace(wraparound=True).wraparound
True
"""

from __future__ import annotations

from dataclasses import Field, dataclass, fields, replace
from typing import Any, Literal

from romme_score.i18n import N_, _, shown
from romme_score.inputs import InputValueError, looks_like_number, parse_int
from romme_score.options import (
    MAX_OPTION_NUMBER,
    check_value,
    closest,
    option,
    option_fields,
    range_text,
    read_option,
)
from romme_score.options import AssignmentError as AssignmentError
from romme_score.options import OptionField as OptionField
from romme_score.options import RuleError as RuleError
from romme_score.options import load_rules_file as load_rules_file
from romme_score.options import parse_assignment as parse_assignment

SetJokerSwap = Literal["missing-suit", "declared", "complete"]
SwappedJoker = Literal["meld-now", "to-hand"]
Stalemate = Literal["everyone-counts", "nobody-scores"]
JokerLayoff = Literal["clear-place", "with-natural"]
JokerSwap = Literal["after-out", "anytime", "never"]


MAX_RULE_NUMBER = MAX_OPTION_NUMBER
MAX_GAME_POINTS = 100_000
MAX_GAME_ROUNDS = 10_000


def _whole(text: str, lo: int, hi: int) -> int | None:
    """A whole number from ``lo`` to ``hi`` as typed (digits of any script), else None."""
    try:
        return parse_int(text, "game_end", lo, hi) if looks_like_number(text) else None
    except InputValueError:
        return None


@dataclass(frozen=True)
class GameEnd:
    """When a game (Partie) ends: at a points target, after N rounds, or never. It reads
    the German words too (``runden:5``, ``offen``), as the German help writes them.

    >>> GameEnd.parse("rounds:5")
    GameEnd(kind='rounds', limit=5)
    >>> str(GameEnd.parse("500")), str(GameEnd.parse("Runden:5")), str(GameEnd.parse("offen"))
    ('500', 'rounds:5', 'open')
    """

    kind: Literal["points", "rounds", "open"]
    limit: int = 0

    @classmethod
    def parse(cls, text: str | int) -> GameEnd:
        value = str(text).strip().lower()
        if value in ("open", "offen"):
            return cls("open")
        if value.startswith(("rounds:", "runden:")):
            number = value.split(":", 1)[1]
            if _whole(number, 1, MAX_GAME_ROUNDS) is not None:
                return cls("rounds", _whole(number, 1, MAX_GAME_ROUNDS) or 1)
        elif _whole(value, 1, MAX_GAME_POINTS) is not None:
            return cls("points", _whole(value, 1, MAX_GAME_POINTS) or 1)
        raise RuleError(
            _(
                "game_end %(text)s is not allowed: use a number of points "
                "(500, 1000, ... up to %(points)d), rounds:N (up to %(rounds)d), or "
                "open"
            )
            % {"text": shown(str(text)), "points": MAX_GAME_POINTS, "rounds": MAX_GAME_ROUNDS}
        )

    def __str__(self) -> str:
        if self.kind == "open":
            return "open"
        if self.kind == "rounds":
            return f"rounds:{self.limit}"
        return str(self.limit)


@dataclass(frozen=True)
class RuleSet:
    """The house rules a table plays by. Validates itself when built."""

    # Each meaning names its sources in words, as a card player knows them; source= keeps
    # the rule texts of docs/rules.md (000-004, with the section or variant) for romme rules --verbose.
    packs: int = option(
        2,
        "French packs of 52 in play (basic rummy plays with one)",
        source="001: 1",
        lo=1,
        hi=2,
        label=N_("packs in play: %(value)s"),
    )
    jokers: int = option(
        6,
        "jokers in play, 0-6 (up to 3 per pack)",
        source="000, 002, 003",
        lo=0,
        hi=6,
        label=N_("jokers in play: %(value)s"),
    )
    max_players: int = option(
        6,
        "most players at the table (2-6; Speedrommé seats 4)",
        source="000, 002: 6; 003: 4",
        lo=2,
        hi=6,
    )
    first_meld_min: int = option(
        40,
        "points the first meld must reach (Rommé mit Auslegen: 51, a variant of the classic "
        "rule sheet: 30, basic rummy: none)",
        source="000: 51, 002 d: 30, 001: 0",
        lo=0,
        hi=1000,
        label=N_("first meld at least %(value)s"),
    )
    first_meld_pure_run: bool = option(
        False,
        "the first meld must include a run without jokers (Speedrommé)",
        source="003",
        label={True: N_("first meld with a run without jokers"), False: N_("first meld without a pure run")},
    )
    first_meld_layoff: bool = option(
        False,
        "cards may be laid off in the turn of the first meld (Speedrommé)",
        source="003",
        label={
            True: N_("laying off in the first meld's turn"),
            False: N_("no laying off in the first meld's turn"),
        },
    )
    ace_high_runs: bool = option(
        True,
        "the ace may end a run above the king, D-K-A (not in basic rummy)",
        source="001: no",
        label={True: N_("ace also above the king"), False: N_("ace low only")},
    )
    wraparound: bool = option(
        False,
        "runs may go around the corner, K-A-2 (the classic rule sheet: yes; the others: no)",
        source="002: yes; 000, 003, 004: no",
        label={True: N_("runs around the corner"), False: N_("no runs around the corner")},
    )
    ace_high_value: int = option(
        11,
        "meld value of an ace in a set or above the king (Rommé mit Auslegen: 10)",
        source="000: 10",
        lo=0,
        hi=1000,
    )
    ace_penalty: int = option(
        11, "penalty of an ace left in hand (Rommé mit Auslegen: 10)", source="000: 10", lo=0, hi=1000
    )
    joker_penalty: int = option(
        20, "penalty of a joker left in hand", source="000, 002, 003, 004", lo=0, hi=1000
    )
    min_naturals: int = option(
        1,
        "natural cards every meld needs (Speedrommé: 1; Rommé mit Auslegen: 2)",
        source="003: 1; 000: 2",
        lo=1,
        hi=2,
        label=N_("natural cards per meld: at least %(value)s"),
    )
    max_jokers_per_meld: int | None = option(
        None,
        "most jokers in one meld (none, or 1 in Speedrommé)",
        source="003",
        lo=1,
        hi=6,
        label=N_("jokers per meld: at most %(value)s"),
    )
    max_adjacent_jokers: int | None = option(
        None,
        "most jokers side by side in a run; 1 also means one joker per set (Speedrommé: 1, "
        "Rommé mit Auslegen: 2)",
        source="003: 1; 000: 2",
        lo=1,
        hi=6,
        label=N_("jokers side by side: at most %(value)s"),
    )
    set_joker_swap: SetJokerSwap = option(
        "missing-suit",
        "which card frees a joker in a set: missing-suit (Speedrommé), declared (the classic "
        "rule sheet and the older description), complete (Rommé mit Auslegen: all four naturals)",
        source="missing-suit 003; declared 002 b, 004; complete 000",
        choices=("missing-suit", "declared", "complete"),
        label={
            "missing-suit": N_("a set's joker freed by a missing suit"),
            "declared": N_("a set's joker freed only by the card declared"),
            "complete": N_("a set's joker freed only by all four naturals"),
        },
    )
    swapped_joker: SwappedJoker = option(
        "meld-now",
        "a swapped joker must be melded in the same turn (meld-now) or goes to the hand",
        source="meld-now: 000, 003",
        choices=("meld-now", "to-hand"),
        label={
            "meld-now": N_("a swapped joker is melded at once"),
            "to-hand": N_("a swapped joker goes to the hand"),
        },
    )
    joker_layoff: JokerLayoff = option(
        "clear-place",
        "a joker may be laid off where its place is clear (Speedrommé), or only with a "
        "natural card that fixes it and never onto a set (with-natural, the older description)",
        source="clear-place 003; with-natural 004",
        choices=("clear-place", "with-natural"),
        label={
            "clear-place": N_("a joker laid off where its place is clear"),
            "with-natural": N_("a joker laid off only with a natural card"),
        },
    )
    out_without_discard: bool = option(
        False, "a player may go out without a last discard (basic rummy, Speedrommé)", source="001, 003"
    )
    hand_romme_multiplier: int = option(
        2, "the others' penalty is multiplied after a Hand-Rommé", source="002, 003", lo=1, hi=10
    )
    joker_in_hand_doubles: bool = option(
        False,
        "a player still holding a joker scores double (a variant of the classic rule sheet)",
        source="002 h",
    )
    never_out_doubles: bool = option(
        False,
        "a player who never came out scores double (Speedrommé)",
        source="003",
        label={True: N_("never out counts double"), False: N_("never out counts once")},
    )
    winner_bonus: int = option(
        10,
        "points taken off the winner's earlier total (a variant of the classic rule sheet)",
        source="002 i",
        lo=0,
        hi=1000,
    )
    winner_bonus_hand_romme: int = option(
        20, "the same after a Hand-Rommé (a variant of the classic rule sheet)", source="002 i", lo=0, hi=1000
    )
    stalemate: Stalemate = option(
        "everyone-counts",
        "a round ended by the stock: everyone-counts (Speedrommé) or nobody-scores (basic rummy)",
        source="everyone-counts 003; nobody-scores 001",
        choices=("everyone-counts", "nobody-scores"),
    )
    game_end: GameEnd = option(
        GameEnd("points", 500),
        "when the game ends: N points, rounds:N, or open (Speedrommé: 500)",
        source="003: 500",
    )
    leaderboard: bool = option(
        False, "keep Speedrommé's leaderboard points (Bestenliste) as a second ranking", source="003"
    )
    joker_swap: JokerSwap = option(
        "after-out",
        "who may swap a joker from the table: after-out (Speedrommé: only a player who has "
        "come out), anytime (also within the first meld), or never (Speedrommé's choice "
        "'Joker tauschen')",
        source="003, lobby 'Joker tauschen'",
        choices=("after-out", "anytime", "never"),
        label={
            "after-out": N_("jokers swapped only after coming out"),
            "anytime": N_("jokers swapped any time"),
            "never": N_("no joker swaps"),
        },
    )
    discard_joker: bool = option(
        True,
        "a joker may be discarded, also as the last card when going out (Speedrommé: 'Joker abwerfen')",
        source="003 'Joker abwerfen'",
    )
    hand_romme_empty_table: bool = option(
        False,
        "a Hand-Rommé counts only while no other player has melded; after that, going out "
        "at once needs the first-meld minimum and doubles nothing (Rommé mit Auslegen)",
        source="000",
    )
    hand_romme_layoff: bool = option(
        False,
        "a Hand-Rommé may also lay cards off onto the melds on the table (the classic rule "
        "sheet: 'aus- oder anlegt'; not first_meld_layoff)",
        source="002 'aus- oder anlegt'",
        label={True: N_("a Hand-Rommé may lay off"), False: N_("a Hand-Rommé lays nothing off")},
    )
    call_out_max: int | None = option(
        None,
        "a player may end the round holding at most N points, shown and not counted "
        "(none, or 10 in 'Rommé mit 10', a variant of the classic rule sheet)",
        source="002 e 'Rommé mit 10'",
        lo=1,
        hi=1000,
        label=N_("Rommé mit %(value)s"),
    )
    color_romme: int | None = option(
        None,
        "a player holding at least N cards of one suit may end the round, shown and not "
        "counted (none, or 10 in 'Farbenrommé', a variant of the classic rule sheet)",
        source="002 f 'Farbenrommé'",
        lo=1,
        hi=26,
        label=N_("Farbenrommé from %(value)s cards"),
    )

    def __post_init__(self) -> None:
        if not _checking:  # the presets below, checked by their test instead of at every start
            return
        for f in fields(self):
            value = getattr(self, f.name)
            _check_rule(f, value)
        if self.jokers > 3 * self.packs:
            raise RuleError(
                _("jokers=%(jokers)d is more than 3 per pack with packs=%(packs)d")
                % {"jokers": self.jokers, "packs": self.packs}
            )

    def replace(self, **changes: Any) -> RuleSet:
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Options by name with JSON/TOML-friendly values."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = str(value) if isinstance(value, GameEnd) else value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any], base: RuleSet | None = None) -> RuleSet:
        """Build from option names and values (strings are parsed as on the command line)."""
        changes = {}
        for key, value in data.items():
            f = option_field(key)
            changes[key] = parse_value(f, value)
        if base is not None and not changes:  # the same rules: frozen, so the same object
            return base
        return replace(base or cls(), **changes)

    @property
    def max_jokers_in_set(self) -> int | None:
        """003: with jokers 'not side by side' a set holds at most one joker."""
        limits = [
            x
            for x in (self.max_jokers_per_meld, 1 if self.max_adjacent_jokers == 1 else None)
            if x is not None
        ]
        return min(limits) if limits else None

    @property
    def top_run_position(self) -> int:
        """The highest place a run reaches without wraparound: 14 with the ace above the king."""
        return 14 if self.ace_high_runs else 13

    def legality_key(self) -> tuple[object, ...]:
        """The options deciding which cards form a legal meld and what it is worth
        (LEGALITY_OPTIONS): the key of any cache computed from meld legality alone."""
        return tuple(getattr(self, name) for name in LEGALITY_OPTIONS)


# What legality_key() reads; tests/test_rules.py classifies every option against it.
LEGALITY_OPTIONS = (
    "ace_high_runs",
    "wraparound",
    "ace_high_value",
    "min_naturals",
    "max_jokers_per_meld",
    "max_adjacent_jokers",
)


def _check_rule(f: OptionField, value: Any) -> None:
    if f.name == "game_end":
        if not isinstance(value, GameEnd):
            raise RuleError(f"{f.name} must be a GameEnd")
        return
    check_value(f, value)


def allowed_values(name: str) -> str:
    """What an option accepts, in words, for help and error messages."""
    f = option_field(name)
    if f.type == "bool":
        return N_("true or false")
    if name == "game_end":
        return N_("N points, rounds:N, or open")
    if "choices" in f.metadata:
        return ", ".join(f.metadata["choices"])
    return range_text(f)


_FIELDS = option_fields(RuleSet)
OPTION_NAMES = tuple(_FIELDS)


def option_field(name: str) -> Field[Any]:
    if name not in _FIELDS:
        close = closest(name, OPTION_NAMES)
        if close:
            message = _("unknown rule option %(name)s; did you mean %(close)s? (options: %(known)s)")
        else:
            message = _("unknown rule option %(name)s (options: %(known)s)")
        raise RuleError(
            message % {"name": shown(name), "close": close or "", "known": ", ".join(OPTION_NAMES)}
        )
    return _FIELDS[name]


def option_doc(name: str) -> str:
    return str(option_field(name).metadata["doc"])


def option_source(name: str) -> str:
    """Where an option comes from in the rule texts of docs/rules.md (``002 e 'Rommé mit 10'``): shown
    by ``romme rules --verbose``; its meaning names the sources in words."""
    return str(option_field(name).metadata.get("source", ""))


def rule_name(name: str, value: Any) -> str:
    """The option ``name`` at ``value`` as the table says it, in the language in use: the
    referee's sentences name a rule so (``first meld at least 40``, ``Erstmeldung mindestens
    40``), from its ``label`` beside its meaning above; the key (``first_meld_min=40``)
    stays in ``romme rules`` and the JSON's ``rule``.

    >>> rule_name("first_meld_min", 40), rule_name("joker_swap", "never")
    ('first meld at least 40', 'no joker swaps')
    """
    label = option_field(name).metadata["label"]
    if isinstance(label, dict):
        return _(label[value])
    return _(label) % {"value": value}


def rule_key(name: str, value: Any) -> str:
    """The option as typed after ``--rule`` (``first_meld_min=40``): the JSON's ``rule``."""
    if isinstance(value, bool):
        return f"{name}={'true' if value else 'false'}"
    return f"{name}={'none' if value is None else value}"


def parse_value(f: OptionField, value: Any) -> Any:
    """Read an option's value from CLI/TOML text (or a TOML-typed value)."""
    name = f.name
    if name == "game_end":
        return GameEnd.parse(value)
    return read_option(f, value, _not_allowed)


def _not_allowed(name: str, value: Any) -> RuleError:
    return RuleError(
        _("%(name)s=%(value)s is not allowed: use %(allowed)s")
        % {"name": name, "value": shown(value, quote=False), "allowed": _(allowed_values(name))}
    )


# Every value of the presets is checked by tests/test_rules.py (each one rebuilt with the
# check on), not at every start of romme: a start of `romme check` does less work.
_checking = False
PRESETS: dict[str, RuleSet] = {
    "standard": RuleSet(),
    "wiki-51": RuleSet(
        first_meld_min=51,
        ace_high_value=10,
        ace_penalty=10,
        min_naturals=2,
        max_adjacent_jokers=2,
        set_joker_swap="complete",
        winner_bonus=0,
        winner_bonus_hand_romme=0,
        game_end=GameEnd("open"),
        hand_romme_empty_table=True,
    ),
    "classic": RuleSet(
        wraparound=True,
        set_joker_swap="declared",
        swapped_joker="to-hand",
        game_end=GameEnd("open"),
        hand_romme_layoff=True,
    ),
    "speedromme": RuleSet(max_players=4, winner_bonus=0, winner_bonus_hand_romme=0, leaderboard=True),
    "basic": RuleSet(
        packs=1,
        jokers=0,
        max_players=4,
        first_meld_min=0,
        first_meld_layoff=True,
        ace_high_runs=False,
        swapped_joker="to-hand",
        out_without_discard=True,
        hand_romme_multiplier=1,
        winner_bonus=0,
        winner_bonus_hand_romme=0,
        stalemate="nobody-scores",
        game_end=GameEnd("open"),
    ),
}
_checking = True

PRESET_SOURCES = {
    "standard": N_("the common modern table: 40 to come out, 2 packs with 6 jokers, to 500"),
    "wiki-51": N_("Rommé mit Auslegen: 51 to come out, ace 10, two natural cards per meld"),
    "classic": N_("classic rule sheet: 40 to come out, runs around the corner, winner bonus"),
    "speedromme": N_("Speedrommé: 2-4 players, to 500, leaderboard points"),
    "basic": N_("basic rummy: one pack, no jokers, aces low, no minimum"),
}
# The rule text (docs/rules.md) each preset follows (for --verbose, JSON and the README).
PRESET_FILES = {"standard": "", "wiki-51": "000", "classic": "002", "speedromme": "003", "basic": "001"}


def find_preset(name: str) -> RuleSet:
    """The rule set of a preset, by name."""
    key = name.strip().lower()
    if key not in PRESETS:
        close = closest(key.replace("_", "-"), list(PRESETS))
        if close:
            message = _("unknown preset %(name)s; did you mean %(close)s? (presets: %(known)s)")
        else:
            message = _("unknown preset %(name)s (presets: %(known)s)")
        raise RuleError(message % {"name": shown(name), "close": close or "", "known": ", ".join(PRESETS)})
    return PRESETS[key]


def build_rules(
    preset: str | None = None,
    overrides: list[str] | tuple[str, ...] = (),
    file_text: str | None = None,
    file_name: str = "rules file",
) -> RuleSet:
    """Rules from a preset, then a rules file's overrides, then ``--rule`` overrides."""
    file_preset: str | None = None
    file_overrides: dict[str, Any] = {}
    if file_text is not None:
        file_preset, file_overrides = load_rules_file(file_text, file_name)
    base = find_preset(preset or file_preset or "standard")
    rules = RuleSet.from_dict(file_overrides, base)
    changes: dict[str, str] = {}
    for item in overrides:
        key, value = parse_assignment(item)
        changes[key] = value
    return RuleSet.from_dict(changes, rules)
