"""romme_score.frozen.record and the hand-written Card behave as @dataclass(frozen=True) did
(issue 20 item 31: the decorator's compiled methods cost romme check's start-up)."""

from __future__ import annotations

import dataclasses
import pickle
from typing import Any

import pytest

from romme_score import frozen
from romme_score.cards import Card, NotationError, Rank, Suit
from romme_score.inputs import Hand
from romme_score.rules import GameEnd, RuleSet, find_preset


def make(decorate: Any, field: Any) -> tuple[Any, Any]:
    """The same two classes, built by ``decorate``: one with a required field and a
    validating ``__post_init__``, one with metadata and a repr of its own."""

    class Point:
        x: int
        y: int = 0
        tags: tuple[str, ...] = ()

        def __post_init__(self) -> None:
            if self.x < 0:
                raise ValueError("x below 0")

        @property
        def total(self) -> int:
            return self.x + self.y

    class Named:
        name: str = field(default="a", metadata={"doc": "the name", "lo": 1})
        size: int | None = None

        def __repr__(self) -> str:
            return f"<{self.name}>"

    return decorate(Point), decorate(Named)


OURS = make(frozen.record, frozen.field)
THEIRS = make(dataclasses.dataclass(frozen=True), dataclasses.field)


def outcome(call: Any, classes: tuple[Any, ...]) -> tuple[str, Any]:
    try:
        return "ok", call(*classes)
    except Exception as exc:
        return type(exc).__name__, str(exc).replace("make.<locals>.", "")


def test_record_builds_compares_and_refuses_as_a_frozen_dataclass() -> None:
    calls: list[Any] = [
        lambda P, N: repr(P(1)),
        lambda P, N: repr(P(1, 2, ("a",))),
        lambda P, N: repr(P(x=3, tags=("b",))),
        lambda P, N: P(1) == P(1, 0),
        lambda P, N: P(1) == P(2),
        lambda P, N: P(1) == (1, 0, ()),
        lambda P, N: hash(P(1, 2)) == hash(P(1, 2)),
        lambda P, N: hash(P(1, 2)) == hash((1, 2, ())),
        lambda P, N: P(1, 2).total,
        lambda P, N: P(-1),
        lambda P, N: P(),
        lambda P, N: P(1, 2, (), 4),
        lambda P, N: P(1, x=1),
        lambda P, N: P(1, z=1),
        lambda P, N: setattr(P(1), "x", 2),
        lambda P, N: delattr(P(1), "x"),
        lambda P, N: setattr(P(1), "other", 2),
        lambda P, N: P.__match_args__,
        lambda P, N: (P.y, P.tags),
        lambda P, N: vars(P(1, 2)),
        lambda P, N: pickle.loads(pickle.dumps(P(1, 2))) == P(1, 2),
        lambda P, N: repr(N()),
        lambda P, N: N("b", 3) == N(name="b", size=3),
        lambda P, N: N.name,
    ]
    for i, call in enumerate(calls):
        ours, theirs = outcome(call, OURS), outcome(call, THEIRS)
        assert ours[0] == theirs[0] or {ours[0], theirs[0]} == {"AttributeError", "FrozenInstanceError"}, i
        assert ours[1] == theirs[1], i


def test_record_fields_and_replace_answer_as_dataclasses() -> None:
    ours, theirs = OURS[1], THEIRS[1]
    pairs = zip(frozen.fields(ours), dataclasses.fields(theirs), strict=True)
    for mine, real in pairs:
        assert (mine.name, mine.type, mine.default) == (real.name, real.type, real.default)
        assert dict(mine.metadata) == dict(real.metadata)
    assert repr(frozen.replace(OURS[0](1), y=5)) == repr(dataclasses.replace(THEIRS[0](1), y=5))
    with pytest.raises(ValueError):
        frozen.replace(OURS[0](1), x=-1)  # validated anew
    with pytest.raises(TypeError):

        @frozen.record
        class Wrong:
            a: int = 1
            b: int  # type: ignore[misc]  # mypy refuses it too


def test_the_rule_sets_and_hands_are_records() -> None:
    rules = find_preset("wiki-51")
    assert rules == RuleSet.from_dict(rules.to_dict()) and hash(rules) == hash(rules.replace())
    assert rules != find_preset("standard") and rules.replace(packs=1, jokers=3).packs == 1
    assert repr(GameEnd.parse("rounds:5")) == "GameEnd(kind='rounds', limit=5)"
    assert repr(Hand(points=3)) == "Hand(cards=None, points=3, never_out=False)"
    assert [f.name for f in frozen.fields(RuleSet)][:3] == ["packs", "jokers", "max_players"]
    with pytest.raises(AttributeError):
        rules.packs = 1  # type: ignore[misc]


def test_card_compares_hashes_and_refuses_as_its_dataclass_did() -> None:
    @dataclasses.dataclass(frozen=True)
    class Old:
        rank: Rank | None
        suit: Suit | None
        declared: Old | None = None

    heart_king, joker = Card(Rank.KING, Suit.HEARTS), Card.joker(Card(Rank.TWO, Suit.CLUBS))
    assert heart_king == Card(Rank.KING, Suit.HEARTS) and heart_king != joker and heart_king != "HK"
    assert hash(heart_king) == hash(Old(Rank.KING, Suit.HEARTS))
    assert hash(joker) == hash((None, None, Card(Rank.TWO, Suit.CLUBS)))
    assert Card.__match_args__ == Old.__match_args__
    assert vars(heart_king) == {"rank": Rank.KING, "suit": Suit.HEARTS, "declared": None}
    assert pickle.loads(pickle.dumps(joker)) == joker
    with pytest.raises(AttributeError):
        setattr(heart_king, "rank", Rank.ACE)  # noqa: B010
    with pytest.raises(AttributeError):
        delattr(heart_king, "suit")
    with pytest.raises(NotationError):
        Card(Rank.KING, None)
    with pytest.raises(NotationError):
        Card(Rank.KING, Suit.HEARTS, Card(Rank.TWO, Suit.CLUBS))


def make_tuples(base: Any) -> Any:
    class Slot(base):  # type: ignore[misc]
        """A place."""

        card: str
        value: int
        options: tuple[str, ...] = ()

        @property
        def doubled(self) -> int:
            return 2 * self.value

    return Slot


def test_tuple_record_makes_what_typing_namedtuple_makes() -> None:
    from typing import NamedTuple

    ours, theirs = make_tuples(frozen.TupleRecord), make_tuples(NamedTuple)
    for make in (
        lambda S: repr(S("HK", 10)),
        lambda S: S("HK", 10) == ("HK", 10, ()),
        lambda S: hash(S("HK", 10, ("x",))) == hash(("HK", 10, ("x",))),
        lambda S: S("HK", 10).doubled,
        lambda S: S("HK", 10)._replace(value=3),
        lambda S: S._make(["a", 1, ()])._asdict(),
        lambda S: (S._fields, S._field_defaults, list(S.__annotations__)),
        lambda S: (S.__name__, S.__qualname__.split(".")[-1], S.__doc__, S.__mro__[1:]),
        lambda S: S(),
        lambda S: S("a", 1, (), 4),
    ):
        assert outcome(make, (ours,)) == outcome(make, (theirs,))
    for base in (frozen.TupleRecord, NamedTuple):
        with pytest.raises(TypeError):
            exec("class Bad(base):\n    a: int = 1\n    b: int\n", {"base": base})
        with pytest.raises(AttributeError):
            exec("class Bad(base):\n    a: int\n    def _replace(self): pass\n", {"base": base})


def test_the_melds_are_tuple_records_that_pickle() -> None:
    from romme_score.cards import parse_cards
    from romme_score.melds import Meld, interpret

    meld = interpret(parse_cards("P3 P4 J"), find_preset("standard"))
    assert isinstance(meld, tuple) and type(meld) is Meld and meld.value == 12
    assert pickle.loads(pickle.dumps(meld)) == meld and meld._replace(start=0).start == 0
    assert repr(meld.slots[0]).startswith("Slot(card=♠3, stands_for=♠3, value=3")


@pytest.mark.parametrize(
    "module_name, name",
    [
        ("romme_score.cards", "Suit"),
        ("romme_score.cards", "Rank"),
        ("romme_score.melds", "MeldKind"),
        ("romme_score.melds", "Reason"),
        ("romme_score.inputs", "ChoiceProblem"),
        ("romme_score.inputs", "HandProblem"),
    ],
)
def test_enum_of_makes_the_enum_the_class_statement_makes(module_name: str, name: str) -> None:
    """Each enum made by frozen.enum_of against its twin made the usual way from the same
    source (``class Name(enum.StrEnum):``)."""
    import enum
    import importlib
    import inspect
    import re

    module = importlib.import_module(module_name)
    ours: Any = getattr(module, name)
    source = re.sub(
        r"@enum_of\((enum\.\w+)\)\nclass (\w+)\(\w+\):", r"class \2(\1):", inspect.getsource(ours), count=1
    )
    assert source.startswith(f"class {name}(enum."), source[:80]
    namespace = dict(vars(module))
    exec(source, namespace)
    usual: Any = namespace[name]
    assert type(ours) is type(usual) is enum.EnumType and ours.__mro__[1:] == usual.__mro__[1:]
    assert ours.__doc__ == usual.__doc__ and list(ours.__members__) == list(usual.__members__)
    pairs: list[tuple[Any, Any]] = list(zip(ours, usual, strict=True))
    for mine, theirs in pairs:
        assert (mine.name, mine.value) == (theirs.name, theirs.value)
        assert (str(mine), f"{mine}", repr(mine)) == (str(theirs), f"{theirs}", repr(theirs))
        assert ours(mine.value) is mine and ours[mine.name] is mine
        assert pickle.loads(pickle.dumps(mine)) is mine
        assert (hash(mine) == hash(mine.value)) == (hash(theirs) == hash(theirs.value))
        assert (mine == mine.value) == (theirs == theirs.value)
        if hasattr(theirs, "letter"):  # Rank's own methods (Suit's read the module's tables)
            assert (mine.letter("de"), mine.letter("en"), mine.is_face) == (
                theirs.letter("de"),
                theirs.letter("en"),
                theirs.is_face,
            )
    if name == "Suit":
        shown = [(suit.symbol, suit.german, suit.index) for suit in Suit]
        assert shown == [("♣", "T", 0), ("♠", "P", 1), ("♥", "H", 2), ("♦", "K", 3)]
    with pytest.raises(ValueError):
        ours("no such value")


def test_enum_of_makes_the_usual_enum_where_python_lacks_the_fast_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import enum

    monkeypatch.delattr(enum, "_simple_enum")

    @frozen.enum_of(enum.StrEnum)
    class Colour(frozen.StrEnumBase):
        """Two colours."""

        RED = "red"
        BLUE = "blue"

        @property
        def loud(self) -> str:
            return self.value.upper()

    assert type(Colour) is enum.EnumType and issubclass(Colour, enum.StrEnum)
    assert [c.loud for c in Colour] == ["RED", "BLUE"] and Colour("red") is Colour.RED
    assert isinstance(Colour.RED, str) and Colour.RED.value == "red" and Colour.__doc__ == "Two colours."


def test_a_default_factory_gives_each_record_its_own_value_as_dataclasses_does() -> None:
    @frozen.record
    class Ours:
        name: str
        hands: dict[str, int] = frozen.field(default_factory=dict)

    @dataclasses.dataclass(frozen=True)
    class Theirs:
        name: str
        hands: dict[str, int] = dataclasses.field(default_factory=dict)

    for kind in (Ours, Theirs):
        first, second = kind("a"), kind("b")
        assert first.hands == {} and first.hands is not second.hands
        assert kind("c", {"x": 1}).hands == {"x": 1}
