"""The project's one exception hierarchy (STYLE.md "Errors"), based on ``ValueError``.

Every error a user can cause is one of two kinds, and the command line turns
each into one sentence with its exit code:

- :class:`InputProblem`: input that cannot be read or used (exit code 2);
- :class:`Refusal`: an action refused as asked, e.g. on a damaged database or
  a finished game (exit code 1).

Each module defines its own classes on these (``NotationError``, ``RuleError``,
``RoundError``, ``StoreError`` ...), one class per kind of failure.

Errors are data: each class has a stable :attr:`~RommeError.code` (scripts, the
phones' JSON and the front ends' tables of ways out are keyed by it, never by the
class) and keeps its facts as attributes (:meth:`~RommeError.facts`). A class that
does not name its code gets one from its name, ``NoSuchSession`` → ``no-such-session``;
``tests/test_one_referee.py`` holds the codes the phones and scripts rely on.

>>> class NoSuchThing(Refusal):
...     def __init__(self, thing: str) -> None:
...         super().__init__(f"no {thing}")
...         self.thing = thing
>>> error = NoSuchThing("cake")
>>> error.code, error.exit_code, error.facts()
('no-such-thing', 1, {'thing': 'cake'})
>>> class NoSuchThingError(Refusal):
...     pass
>>> NoSuchThingError.code
'no-such-thing'
"""

from __future__ import annotations

from enum import Enum
from typing import Any, ClassVar


def code_of(name: str) -> str:
    """The code a class name gives: ``NoSuchSession`` → ``no-such-session`` (a trailing
    ``Error`` says nothing and is dropped).

    >>> code_of("NotationError"), code_of("NoCurrentSession"), code_of("HTTPError")
    ('notation', 'no-current-session', 'http')
    """
    if name.endswith("Error") and len(name) > len("Error"):
        name = name[: -len("Error")]
    words: list[str] = []
    for i, char in enumerate(name):
        upper_start = char.isupper() and i > 0
        if upper_start and (name[i - 1].islower() or (i + 1 < len(name) and name[i + 1].islower())):
            words.append("-")
        words.append(char.lower())
    return "".join(words)


def _json_value(value: object) -> tuple[bool, Any]:
    """(whether it is a fact JSON can carry, the value as JSON carries it)."""
    if value is None or isinstance(value, bool | int | str):
        return True, value
    if isinstance(value, Enum):
        return True, value.value
    if isinstance(value, tuple | list) and all(isinstance(v, str | int) for v in value):
        return True, list(value)
    return False, None


class _CodeOfName:
    """The ``code`` of an error class that names none: its name's (:func:`code_of`), worked
    out when it is first asked for and then kept on the class, not for each of the seventy
    error classes at every start of romme (issue 28)."""

    def __get__(self, obj: object, owner: type) -> str:
        code = code_of(owner.__name__)
        setattr(owner, "code", code)  # noqa: B010  (the class's own, replacing this)
        return code


_CODE_OF_NAME = _CodeOfName()


class RommeError(ValueError):
    """Base of every error romme-score raises on purpose."""

    code: str = "error"  # an instance may say more than its class (RoundIncomplete)
    exit_code: ClassVar[int] = 1
    not_facts: ClassVar[tuple[str, ...]] = ()  # attributes that are no facts (an error inside it)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "code" not in cls.__dict__:
            cls.code = _CODE_OF_NAME  # type: ignore[assignment]  # its name's, when asked

    def facts(self) -> dict[str, Any]:
        """The error's facts as JSON can carry them (names, numbers, players, the problem)."""
        found: dict[str, Any] = {}
        for name, value in vars(self).items():
            if name.startswith("_") or name == "code" or name in self.not_facts:
                continue
            ok, shown = _json_value(value)
            if ok:
                found[name] = shown
        return found


class InputProblem(RommeError):
    """Input that cannot be read or used: exit code 2, nothing written."""

    code = "bad-input"
    exit_code = 2


class Refusal(RommeError):
    """An action refused as asked: exit code 1, nothing written."""

    code = "refused"


class MissingExtra(Refusal):
    """romme-score was installed without the optional extra this needs (``serve``,
    ``postgres``): ``missing`` is the module that could not be imported. Each front end
    says how to add it; the command line for the way romme was installed (pipx or pip)."""

    def __init__(self, message: str, extra: str, missing: str | None) -> None:
        super().__init__(message)
        self.extra = extra
        self.missing = missing
