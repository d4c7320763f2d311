"""JSON written piece by piece: lists given as iterators are streamed item by item, so
that memory does not grow with a session's rounds. The text is exactly what
``json.dumps`` gives for the same data (``indent=None`` or a number of spaces).

>>> "".join(stream_json({"a": 1, "b": iter([{"x": 1}, {"x": 2}])}))
'{"a": 1, "b": [{"x": 1}, {"x": 2}]}'
>>> print("".join(stream_json({"b": iter([])}, indent=2)))
{
  "b": []
}
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

_ENCODERS: dict[int | None, json.JSONEncoder] = {}


def _dumps(value: Any, indent: int | None, level: int) -> str:
    encoder = _ENCODERS.get(indent)
    if encoder is None:
        encoder = _ENCODERS[indent] = json.JSONEncoder(ensure_ascii=False, indent=indent)
    text = encoder.encode(value)
    if indent is None or level == 0:
        return text
    return text.replace("\n", "\n" + " " * indent * level)


def stream_json(value: Any, indent: int | None = None, level: int = 0) -> Iterator[str]:
    """Pieces of the JSON text of ``value``: a dict holding an iterator is walked, an
    iterator is streamed item by item (each item dumped whole unless it is an iterator
    itself), everything else is dumped whole."""
    if isinstance(value, dict):
        if not any(isinstance(v, Iterator) or isinstance(v, dict) and _holds_iterator(v)
                   for v in value.values()):
            yield _dumps(value, indent, level)
            return
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
        for item in value:
            if indent is None:
                yield "[" if first else ", "
            else:
                yield ("[" if first else ",") + "\n" + " " * indent * (level + 1)
            if isinstance(item, Iterator) or isinstance(item, dict) and _holds_iterator(item):
                yield from stream_json(item, indent, level + 1)
            else:
                yield _dumps(item, indent, level + 1)
            first = False
        if first:
            yield "[]"
        else:
            yield "]" if indent is None else f"\n{' ' * indent * level}]"
    else:
        yield _dumps(value, indent, level)


def _holds_iterator(value: dict[Any, Any]) -> bool:
    return any(isinstance(v, Iterator) or isinstance(v, dict) and _holds_iterator(v)
               for v in value.values())
