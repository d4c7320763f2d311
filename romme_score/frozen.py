"""Frozen value types without the cost of ``@dataclass`` at import (issue 20 item 31).

``@dataclass(frozen=True)`` writes the source of ``__init__``, ``__repr__``, ``__eq__``,
``__hash__``, ``__setattr__`` and ``__delattr__`` for each class and compiles it: for the
rule set's 31 options that took more of ``romme check``'s start-up than all of its own
judging. :func:`record` makes the same class from the same class body, with methods that
read the fields at run time: the same constructor (positional or by name, defaults,
``__post_init__``), the same ``repr``, equality, hash and ``match_args``, the same error
on an assignment (an ``AttributeError``). Type checkers read it as a frozen dataclass
(``dataclass_transform``); tests/test_frozen.py holds the two alike. :class:`TupleRecord`
is ``typing.NamedTuple`` in the same way.

>>> @record
... class Point:
...     x: int
...     y: int = 0
>>> p = Point(1)
>>> p, p == Point(1, 0), replace(p, y=2)
(Point(x=1, y=0), True, Point(x=1, y=2))
>>> [f.name for f in fields(Point)]
['x', 'y']
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar, dataclass_transform

__all__ = [
    "MISSING",
    "EnumBase",
    "Field",
    "IntEnumBase",
    "StrEnumBase",
    "TupleRecord",
    "enum_of",
    "field",
    "fields",
    "record",
    "replace",
]

T = TypeVar("T")


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()  # no default: the field must be given


class Field:
    """One field of a record: what :func:`dataclasses.field` describes (name, type as
    written in the class body, default, metadata)."""

    __slots__ = ("name", "type", "default", "default_factory", "metadata")

    def __init__(
        self,
        default: Any = MISSING,
        metadata: Mapping[str, Any] | None = None,
        default_factory: Callable[[], Any] | Any = MISSING,
    ) -> None:
        self.name = ""
        self.type: Any = None
        self.default = default
        self.default_factory = default_factory  # called for each instance, as dataclasses does
        self.metadata: Mapping[str, Any] = dict(metadata or {})

    def __repr__(self) -> str:
        return f"Field(name={self.name!r}, type={self.type!r}, default={self.default!r})"


def field(
    *,
    default: Any = MISSING,
    default_factory: Callable[[], Any] | Any = MISSING,
    metadata: Mapping[str, Any] | None = None,
) -> Any:
    """A field with metadata, as :func:`dataclasses.field` (``default``, ``default_factory``
    and ``metadata``)."""
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, metadata, default_factory)


def fields(record_or_class: Any) -> tuple[Field, ...]:
    """The fields of a record class or instance, in the order of the class body."""
    found: tuple[Field, ...] = record_or_class.__record_fields__
    return found


def replace(obj: T, **changes: Any) -> T:
    """A copy of ``obj`` with ``changes``, built (and so validated) anew."""
    values = {f.name: obj.__dict__[f.name] for f in fields(obj)}
    values.update(changes)
    return type(obj)(**values)


def _required(item: Field) -> bool:
    return item.default is MISSING and item.default_factory is MISSING


# The methods every record shares, reading the fields' names from its class
# (``__match_args__``): made once, not for each class at every start (issue 28).
def _record_values(self: Any) -> tuple[Any, ...]:
    values = self.__dict__
    return tuple(values[name] for name in type(self).__match_args__)


def _record_repr(self: Any) -> str:
    names = type(self).__match_args__
    shown = ", ".join(f"{name}={value!r}" for name, value in zip(names, _record_values(self), strict=True))
    return f"{type(self).__qualname__}({shown})"


def _record_eq(self: Any, other: object) -> Any:  # a bool, or NotImplemented
    if other.__class__ is self.__class__:
        return _record_values(self) == _record_values(other)
    return NotImplemented


def _record_hash(self: Any) -> int:
    return hash(_record_values(self))


def _record_setattr(self: Any, name: str, value: Any) -> None:
    raise AttributeError(f"cannot assign to field {name!r}")


def _record_delattr(self: Any, name: str) -> None:
    raise AttributeError(f"cannot delete field {name!r}")


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: type[T]) -> type[T]:
    """``@dataclass(frozen=True)`` for ``cls``'s annotated fields (string annotations, as
    ``from __future__ import annotations`` leaves them; ``ClassVar`` is not supported)."""
    found: list[Field] = []
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        value = cls.__dict__.get(name, MISSING)
        item = value if isinstance(value, Field) else Field(value)
        item.name, item.type = name, annotation
        if _required(item) and found and not _required(found[-1]):
            raise TypeError(f"non-default argument {name!r} follows default argument")
        if item.default is MISSING:
            if name in cls.__dict__:
                delattr(cls, name)
        else:
            setattr(cls, name, item.default)
        found.append(item)
    record_fields = tuple(found)
    names = tuple(f.name for f in record_fields)
    by_name = {f.name: f for f in record_fields}

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(names):
            most = len(names) + 1  # self too, as Python counts
            least = sum(_required(f) for f in record_fields) + 1
            takes = f"{most} positional argument{'s' if most > 1 else ''}"
            takes = takes if least == most else f"from {least} to {takes}"
            raise TypeError(
                f"{type(self).__qualname__}.__init__() takes {takes} but {len(args) + 1} were given"
            )
        given = dict(zip(names, args, strict=False))
        for name, value in kwargs.items():
            if name not in by_name:
                raise TypeError(
                    f"{type(self).__qualname__}.__init__() got an unexpected keyword argument {name!r}"
                )
            if name in given:
                raise TypeError(
                    f"{type(self).__qualname__}.__init__() got multiple values for argument {name!r}"
                )
            given[name] = value
        values = self.__dict__
        for f in record_fields:
            if f.name in given:
                values[f.name] = given[f.name]
            elif f.default is not MISSING:
                values[f.name] = f.default
            elif f.default_factory is not MISSING:
                values[f.name] = f.default_factory()
            else:
                raise TypeError(
                    f"{type(self).__qualname__}.__init__() missing 1 required positional argument: {f.name!r}"
                )
        post_init = getattr(self, "__post_init__", None)
        if post_init is not None:
            post_init()

    methods: dict[str, Callable[..., Any]] = {"__init__": __init__, "__eq__": _record_eq}
    methods |= {"__hash__": _record_hash, "__setattr__": _record_setattr, "__delattr__": _record_delattr}
    if "__repr__" not in cls.__dict__:
        methods["__repr__"] = _record_repr
    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    for name, method in methods.items():
        setattr(cls, name, method)
    added = {"__record_fields__": record_fields, "__match_args__": names}
    for name, value in added.items():  # setattr: type[T] declares neither
        setattr(cls, name, value)
    return cls


# --- TupleRecord: typing.NamedTuple without compiling its annotations ------------------

if TYPE_CHECKING:
    from typing import NamedTuple as TupleRecord
else:
    import collections
    import types
    from collections import _tuplegetter

    _tuple_new = tuple.__new__
    _PROHIBITED = frozenset(
        {"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults"}
        | {"_make", "_replace", "_asdict", "_source"}
    )
    _SPECIAL = frozenset({"__module__", "__name__", "__annotations__"})

    class _TupleRecordMeta(type):
        """``typing.NamedTupleMeta``, less its check of each annotation: with string
        annotations (``from __future__ import annotations``) that check compiles every one,
        some 1 M instructions of romme check's start-up per class. The class is the same
        ``collections.namedtuple`` with the class body's methods; its ``__annotations__``
        keep the strings (``typing.get_type_hints`` reads them)."""

        def __new__(mcls, typename, bases, ns):
            types = ns.get("__annotations__", {})
            default_names = []
            for name in types:
                if name in ns:
                    default_names.append(name)
                elif default_names:
                    raise TypeError(
                        f"Non-default namedtuple field {name} cannot follow default field"
                        f"{'s' if len(default_names) > 1 else ''} {', '.join(default_names)}"
                    )
            made = _namedtuple(typename, tuple(types), tuple(ns[n] for n in default_names), ns["__module__"])
            made.__annotations__ = made.__new__.__annotations__ = dict(types)
            for key in ns:
                if key in _PROHIBITED:
                    raise AttributeError("Cannot overwrite NamedTuple attribute " + key)
                if key not in _SPECIAL and key not in made._fields:
                    setattr(made, key, ns[key])
            return made

    # collections.namedtuple's class, made without its eval: a class's __new__ is the code
    # of one of these, its argument names replaced (about 0.4 M instructions less per class
    # at every start of romme check; tests/test_frozen.py holds it to typing.NamedTuple).
    def _new1(_cls, a):
        return _tuple_new(_cls, (a,))

    def _new2(_cls, a, b):
        return _tuple_new(_cls, (a, b))

    def _new3(_cls, a, b, c):
        return _tuple_new(_cls, (a, b, c))

    def _new4(_cls, a, b, c, d):
        return _tuple_new(_cls, (a, b, c, d))

    def _new5(_cls, a, b, c, d, e):
        return _tuple_new(_cls, (a, b, c, d, e))

    def _new6(_cls, a, b, c, d, e, f):
        return _tuple_new(_cls, (a, b, c, d, e, f))

    _NEWS = {1: _new1, 2: _new2, 3: _new3, 4: _new4, 5: _new5, 6: _new6}

    def _make(cls, iterable):
        result = _tuple_new(cls, iterable)
        if len(result) != len(cls._fields):
            raise TypeError(f"Expected {len(cls._fields)} arguments, got {len(result)}")
        return result

    def _replace(self, /, **kwds):
        result = self._make(map(kwds.pop, self._fields, self))
        if kwds:
            raise ValueError(f"Got unexpected field names: {list(kwds)!r}")
        return result

    def _repr(self):
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(self._fields, self, strict=True))
        return f"{self.__class__.__name__}({shown})"

    def _asdict(self):
        return dict(zip(self._fields, self, strict=True))

    def _getnewargs(self):
        return tuple(self)

    def _namedtuple(typename, names, defaults, module):
        template = _NEWS.get(len(names))
        if template is None or any(name.startswith("_") for name in names):
            return collections.namedtuple(typename, names, defaults=defaults, module=module)
        code = template.__code__
        named = code.replace(co_varnames=("_cls", *names))
        new = types.FunctionType(named, {"_tuple_new": _tuple_new}, "__new__", defaults or None)
        new.__qualname__ = f"{typename}.__new__"
        new.__doc__ = f"Create new instance of {typename}({', '.join(names)})"
        namespace = {
            "__doc__": f"{typename}({', '.join(names)})",
            "__slots__": (),
            "_fields": names,
            "_field_defaults": dict(zip(names[len(names) - len(defaults) :], defaults, strict=True)),
            "__new__": new,
            "_make": classmethod(_make),
            "_replace": _replace,
            "__repr__": _repr,
            "_asdict": _asdict,
            "__getnewargs__": _getnewargs,
            "__match_args__": names,
            "__module__": module,
        }
        for index, name in enumerate(names):
            namespace[name] = _tuplegetter(index, f"Alias for field number {index}")
        return type(typename, (tuple,), namespace)

    def TupleRecord(typename, fields=None, /, **kwargs):  # noqa: N802  # as typing.NamedTuple
        """Only for ``class X(TupleRecord):``."""
        raise TypeError("TupleRecord is a base class: class Name(TupleRecord): ...")

    _TupleRecordBase = type.__new__(_TupleRecordMeta, "TupleRecord", (), {})
    TupleRecord.__mro_entries__ = lambda bases: (_TupleRecordBase,)


# --- enums as the standard library makes its own ---------------------------------------

if TYPE_CHECKING:
    EnumBase = enum.Enum
    IntEnumBase = enum.IntEnum
    StrEnumBase = enum.StrEnum
else:  # the class statement's base: enum_of makes the enum of the class
    EnumBase = IntEnumBase = StrEnumBase = object


def enum_of(etype: type[enum.Enum]) -> Callable[[type[T]], type[T]]:
    """``@enum_of(enum.StrEnum) class Reason(StrEnumBase): ...`` is the enum that
    ``class Reason(enum.StrEnum): ...`` makes (what type checkers see), made as the standard
    library makes its own enums (``enum._simple_enum``, as ``re.RegexFlag``): the usual
    way costs some 0.1 M instructions per member at import, 2.5 M of romme check's start-up.
    Where that helper is missing (another Python), the enum is made the usual way."""
    simple = getattr(enum, "_simple_enum", None)
    if simple is not None:

        def fast(cls: type[T]) -> type[T]:
            made: type[T] = simple(etype)(cls)
            if cls.__dict__.get("__doc__") is None:  # as the class statement leaves it
                made.__doc__ = None
            return made

        return fast

    def usual(cls: type[T]) -> type[T]:
        metaclass: Any = type(etype)
        namespace = metaclass.__prepare__(cls.__name__, (etype,))
        for name, value in cls.__dict__.items():
            if name not in ("__dict__", "__weakref__"):
                namespace[name] = value
        made: type[T] = metaclass(cls.__name__, (etype,), namespace)
        return made

    return usual
