"""The machinery of options, shared by the house rules (:mod:`romme_score.rules`) and a
tournament's options (:mod:`romme_score.tournament.options`): an option is a field of a
frozen record that documents itself (:func:`option`), checked by its metadata
(:func:`check_value`), read from what was typed (:func:`read_option`), and named in a
``--rule KEY=VALUE`` item (:func:`parse_assignment`) or a TOML house-rules file
(:func:`load_rules_file`).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Table:
...     size: int = option(4, "players at a table", lo=2, hi=6)
>>> [f.metadata["doc"] for f in fields(Table)], range_text(option_fields(Table)["size"])
(['players at a table'], '2-6')
>>> parse_assignment("wraparound = true"), closest("wrapround", ("packs", "wraparound"))
(('wraparound', 'true'), 'wraparound')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import Field, field, fields
from typing import Any, Protocol

from romme_score.errors import InputProblem
from romme_score.i18n import _, shown
from romme_score.inputs import InputValueError, looks_like_number, parse_int

MAX_OPTION_NUMBER = 10**6  # far beyond every option's range: the range check names the real one


class RuleError(InputProblem):
    """An unknown option, a value out of range, or a rules file that cannot be read."""


class AssignmentError(RuleError):
    """A rule change that is not of the form KEY=VALUE."""


class OptionField(Protocol):
    """What the option checks read of a field (:class:`dataclasses.Field`)."""

    @property
    def name(self) -> str: ...
    @property
    def type(self) -> Any: ...
    @property
    def metadata(self) -> Mapping[Any, Any]: ...


def option(default: Any, doc: str, **meta: Any) -> Any:
    """A field of an option record: its default, what it means (``doc``), and how it is
    checked (``lo``/``hi`` for a whole number, ``choices`` for a word, and whatever else the
    record's own checks read)."""
    return field(default=default, metadata={"doc": doc, **meta})


def option_fields(cls: Any) -> dict[str, Field[Any]]:
    """The fields of an option record by name, in the order of the class body."""
    return {f.name: f for f in fields(cls)}


def check_value(f: OptionField, value: Any) -> None:
    """Raise :class:`RuleError` unless ``value`` suits the option: true or false, one of its
    ``choices``, none where the type allows it, or a whole number from ``lo`` to ``hi``."""
    meta = f.metadata
    name = f.name
    if f.type in ("bool",):
        if not isinstance(value, bool):
            raise RuleError(
                _("%(name)s must be true or false, not %(value)s") % {"name": name, "value": shown(value)}
            )
        return
    if "choices" in meta:
        if value not in meta["choices"]:
            raise RuleError(
                _("%(name)s=%(value)s is not allowed: use one of %(choices)s")
                % {"name": name, "value": shown(value, quote=False), "choices": ", ".join(meta["choices"])}
            )
        return
    if value is None and "None" in str(f.type):
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(
            _("%(name)s must be a whole number, not %(value)s") % {"name": name, "value": shown(value)}
        )
    lo, hi = meta.get("lo"), meta.get("hi")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        allowed = range_text(f)
        raise RuleError(
            _("%(name)s=%(value)s is out of range: allowed %(allowed)s")
            % {"name": name, "value": shown(value, quote=False), "allowed": allowed}
        )


def range_text(f: OptionField) -> str:
    """The whole numbers an option takes, in words: ``1-2``, ``none or 1-6``."""
    meta = f.metadata
    lo, hi = meta.get("lo"), meta.get("hi")
    text = f"{lo}-{hi}" if hi is not None else _("a whole number >= %(lo)s") % {"lo": lo}
    if "None" in str(f.type):
        text = _("none or %(range)s") % {"range": text}
    return text


def read_option(f: OptionField, value: Any, refuse: Callable[[str, Any], RuleError]) -> Any:
    """An option's value from command-line or TOML text (or a TOML-typed value): true or
    false, a word of its choices (checked when the record is built), none, or a whole number.
    What cannot be read raises ``refuse(name, value)``, worded by the option's record."""
    name = f.name
    text = str(value).strip().lower() if not isinstance(value, (bool, int)) else value
    if f.type == "bool":
        if isinstance(text, bool):
            return text
        if text in ("true", "yes", "on", "1"):
            return True
        if text in ("false", "no", "off", "0"):
            return False
        raise RuleError(
            _("%(name)s=%(value)s is not allowed: use true or false")
            % {"name": name, "value": shown(value, quote=False)}
        )
    if "choices" in f.metadata:
        return text
    if text in ("none", "null", "") and "None" in str(f.type):
        return None
    if isinstance(text, bool):
        raise refuse(name, value)
    if isinstance(text, int):
        return text
    if looks_like_number(text):
        try:
            return parse_int(text, name, -MAX_OPTION_NUMBER, MAX_OPTION_NUMBER)
        except InputValueError:
            pass
    raise refuse(name, value)


def closest(word: str, candidates: tuple[str, ...] | list[str]) -> str | None:
    """The candidate closest to a mistyped name (``-`` read as ``_``), if one is close."""
    import difflib

    found = difflib.get_close_matches(word.lower().replace("-", "_"), list(candidates), n=1, cutoff=0.6)
    return found[0] if found else None


def parse_assignment(text: str) -> tuple[str, str]:
    """Split ``KEY=VALUE`` from ``--rule``."""
    if "=" not in text:
        raise AssignmentError(
            _("%(text)s needs the form KEY=VALUE, e.g. wraparound=true") % {"text": shown(text)}
        )
    key, value = text.split("=", 1)
    return key.strip().replace("-", "_"), value.strip()


def load_rules_file(text: str, source: str = "rules file") -> tuple[str | None, dict[str, Any]]:
    """Read a TOML house-rules file: an optional ``preset`` and overrides."""
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RuleError(_("cannot read %(source)s: %(reason)s") % {"source": source, "reason": exc}) from None
    preset = data.pop("preset", None)
    if preset is not None and not isinstance(preset, str):
        raise RuleError(
            _('%(source)s: preset must be a name in quotes, e.g. preset = "standard"') % {"source": source}
        )
    return preset, data
