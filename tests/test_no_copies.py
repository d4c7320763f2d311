"""The standard library and the design card's packages, not copies of them (issue 38 items
18 and 19): the value types are :mod:`dataclasses` and :class:`typing.NamedTuple`, the
enums the standard library's own, and the start-up goals of benchmarks/startup.py the ones
that allow for them."""

from __future__ import annotations

import dataclasses
import enum
import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "romme_score"


def sources() -> dict[str, str]:
    return {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in PACKAGE.rglob("*.py")}


# --- item 19: dataclasses and typing.NamedTuple, not romme_score/frozen.py ----------------


def test_frozen_py_and_its_test_are_gone_issue_38_item_19() -> None:
    assert not (PACKAGE / "frozen.py").exists()
    assert not (ROOT / "tests" / "test_frozen.py").exists()
    importers = [name for name, text in sources().items() if "romme_score.frozen" in text]
    assert importers == []


def test_no_module_remakes_what_the_standard_library_makes_issue_38_item_19() -> None:
    """What frozen.py and the hand-written card did in place of the standard library:
    enums through enum's private helper, namedtuple classes without namedtuple, frozen
    classes whose assignment raises by hand, a decorator that tells type checkers it is a
    dataclass."""
    copies = re.compile(r"_simple_enum|_tuplegetter|dataclass_transform|cannot assign to field")
    found = [name for name, text in sources().items() if copies.search(text)]
    assert found == []


def test_the_rule_set_is_a_frozen_dataclass_issue_38_item_19() -> None:
    from romme_score.rules import GameEnd, RuleSet, find_preset

    for cls in (RuleSet, GameEnd):
        params: Any = cls.__dataclass_params__  # type: ignore[union-attr]
        assert dataclasses.is_dataclass(cls) and params.frozen
    rules = find_preset("standard")
    assert dataclasses.replace(rules, wraparound=True) == rules.replace(wraparound=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.packs = 1  # type: ignore[misc]
    with pytest.raises(Exception, match="packs"):  # it still validates itself when built
        rules.replace(packs=0)
    assert [f.name for f in dataclasses.fields(rules)][:2] == ["packs", "jokers"]


@pytest.mark.parametrize(
    "module, name",
    [
        ("romme_score.cards", "Card"),
        ("romme_score.inputs", "Hand"),
        ("romme_score.tournament.options", "TournamentOptions"),
    ],
)
def test_the_records_are_frozen_dataclasses_issue_38_item_19(module: str, name: str) -> None:
    cls: Any = getattr(importlib.import_module(module), name)
    params = cls.__dataclass_params__
    assert dataclasses.is_dataclass(cls) and params.frozen


def test_a_card_is_a_frozen_dataclass_with_slots_issue_38_item_19() -> None:
    from romme_score.cards import Card, NotationError, Rank, Suit

    card = Card(Rank.KING, Suit.HEARTS)
    assert card.__slots__ == ("rank", "suit", "declared") and not hasattr(card, "__dict__")
    assert card == Card.parse("HK") and hash(card) == hash(Card.parse("HK")) and repr(card) == "♥K"
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.rank = Rank.ACE  # type: ignore[misc]
    with pytest.raises(NotationError):
        Card(Rank.KING, None)


@pytest.mark.parametrize(
    "module, name",
    [
        ("romme_score.melds", "Meld"),
        ("romme_score.melds", "Slot"),
        ("romme_score.melds", "FirstMeld"),
        ("romme_score.referee", "Verdict"),
        ("romme_score.store.records", "Change"),
        ("romme_score.store.records", "SessionInfo"),
        ("romme_score.sessions.results", "Recorded"),
        ("romme_score.settlement", "Settlement"),
        ("romme_score.history", "Stats"),
        # plain answer records, NamedTuples for the start-up of the commands that load them
        ("romme_score.store.records", "PendingRound"),
        ("romme_score.sessions.results", "Snapshot"),
        ("romme_score.export", "SessionExport"),
        ("romme_score.tournament.service", "TournamentStandings"),
        ("romme_score.tournament.rules", "Game"),
        ("romme_score.scoring", "RoundScore"),
        ("romme_score.tournament.options", "Prize"),
    ],
)
def test_the_tuples_are_typing_named_tuples_issue_38_item_19(module: str, name: str) -> None:
    cls: Any = getattr(importlib.import_module(module), name)
    assert issubclass(cls, tuple) and cls.__annotations__ and tuple(cls.__annotations__) == cls._fields
    assert type(cls) is type  # made by typing.NamedTuple's metaclass, as collections.namedtuple makes it
    assert (
        "NamedTuple"
        in (PACKAGE / (module.removeprefix("romme_score.").replace(".", "/") + ".py")).read_text()
    )


@pytest.mark.parametrize(
    "module, name, base",
    [
        ("romme_score.cards", "Suit", enum.Enum),
        ("romme_score.cards", "Rank", enum.IntEnum),
        ("romme_score.melds", "Reason", enum.StrEnum),
        ("romme_score.inputs", "HandProblem", enum.StrEnum),
    ],
)
def test_the_enums_are_made_by_their_class_statement_issue_38_item_19(
    module: str, name: str, base: type[enum.Enum]
) -> None:
    cls = getattr(importlib.import_module(module), name)
    assert cls.__bases__ == (base,)
    text = (PACKAGE / (module.removeprefix("romme_score.").replace(".", "/") + ".py")).read_text(
        encoding="utf-8"
    )
    assert f"class {name}({base.__module__}.{base.__name__}):" in text


def test_the_start_up_goals_are_those_of_issue_38_item_19() -> None:
    spec = importlib.util.spec_from_file_location("startup_bench", ROOT / "benchmarks" / "startup.py")
    assert spec is not None and spec.loader is not None
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))  # its goal_line
    try:
        bench = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(bench)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    cases = bench.cases("/scratch", "/scratch/db", "/scratch/x.json")
    tabulate = 1.1  # what import tabulate adds to import click, as a multiple of it
    goals = {c.label: c.goal(tabulate) for c in cases}
    assert {goals[c.label] for c in cases if c.args[0] == "check"} == {1.5}
    assert {goals[c.label] for c in cases if c.args[0] != "check" and not c.table} == {2.0}
    assert {goals[c.label] for c in cases if c.table} == {2.0 + tabulate}
    assert goals["romme standings (a session of 8 rounds)"] == 2.0 + tabulate
    assert goals["romme --help"] == goals["romme standings --help"] == 2.0
