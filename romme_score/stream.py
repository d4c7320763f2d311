"""JSON written piece by piece (the export and every ``--json``): lists given as iterators
are streamed item by item, so that memory does not grow with a session's rounds.

Without indent the text is exactly ``json.dumps``'s. With an indent, the outer levels
are indented as ``json.dumps`` does, and each item of a streamed list stands on one
line of its own (compact, through the fast C encoder): a long export stays readable,
diffs by round, and costs a few microseconds per round.

>>> "".join(stream_json({"a": 1, "b": iter([{"x": 1}, {"x": 2}])}))
'{"a": 1, "b": [{"x": 1}, {"x": 2}]}'
>>> print("".join(stream_json({"a": [1], "b": iter([{"x": 1}, {"x": 2}])}, indent=2)))
{
  "a": [
    1
  ],
  "b": [
    {"x": 1},
    {"x": 2}
  ]
}
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

_COMPACT = json.JSONEncoder(ensure_ascii=False)  # the C encoder: no indent


class RawJSON(str):
    """JSON text made elsewhere (by SQLite), written as it is where an item stands."""


_INDENTED: dict[int, json.JSONEncoder] = {}


def _dumps(value: Any, indent: int | None, level: int) -> str:
    if indent is None:
        return _COMPACT.encode(value)
    encoder = _INDENTED.get(indent)
    if encoder is None:
        encoder = _INDENTED[indent] = json.JSONEncoder(ensure_ascii=False, indent=indent)
    return encoder.encode(value).replace("\n", "\n" + " " * indent * level)


def _holds_iterator(value: dict[Any, Any]) -> bool:
    return any(isinstance(v, Iterator) or isinstance(v, dict) and _holds_iterator(v) for v in value.values())


def stream_json(value: Any, indent: int | None = None, level: int = 0) -> Iterator[str]:
    """Pieces of the JSON text of ``value``: a dict holding an iterator is walked, an
    iterator is streamed item by item (each item compact, on a line of its own when
    indented), everything else is dumped whole."""
    if isinstance(value, dict) and _holds_iterator(value):
        yield "{"
        for i, (key, item) in enumerate(value.items()):
            if indent is None:
                yield f"{', ' if i else ''}{json.dumps(key)}: "
            else:
                yield f"{',' if i else ''}\n{' ' * indent * (level + 1)}{json.dumps(key)}: "
            yield from stream_json(item, indent, level + 1)
        yield "}" if indent is None else f"\n{' ' * indent * level}}}"
    elif isinstance(value, Iterator):
        first = True
        pad = "" if indent is None else "\n" + " " * indent * (level + 1)
        for item in value:
            yield ("[" if first else ", " if indent is None else ",") + pad
            if isinstance(item, RawJSON):
                yield item
            elif isinstance(item, Iterator):
                yield from stream_json(item, indent, level + 1)
            else:
                yield _COMPACT.encode(item)
            first = False
        if first:
            yield "[]"
        else:
            yield "]" if indent is None else f"\n{' ' * indent * level}]"
    else:
        yield _dumps(value, indent, level)
