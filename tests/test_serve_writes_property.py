"""Every write route of the phones takes any JSON body without a 500 (issue 37, "Beyond the
list"): generated bodies (any Unicode, lone surrogates, keys included; deep nesting; huge
numbers; wrong types; extra and missing keys; bytes that are no JSON) sent to every POST
route are answered 2xx, or 4xx with the JSON error (``code`` and a sentence), and a refusal
writes nothing (the database's content the same before and after).

Bounded and repeatable by default (a fixed seed, ``EXAMPLES`` bodies per route); more with
``ROMME_HYPOTHESIS_EXAMPLES=2000``. A new write route joins :data:`WRITES` (one line: the
kind of link that may write it, a key of :data:`LINKS`; its path; the strategy of its bodies);
:func:`test_every_write_route_is_in_the_list` fails until it does.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from clirun import ok
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serving import Served, in_process, night_in_process

from romme_score.web import routes

EXAMPLES = int(os.environ.get("ROMME_HYPOTHESIS_EXAMPLES", "60"))
PLAYERS = ("Anna", "Ben", "Jörg", "Dora")
SEAT = "Ben"  # the seat whose link writes the seat's routes

# --- JSON of every kind ----------------------------------------------------------------

# Any code point, lone surrogates included (Hypothesis leaves them out unless asked).
ANY_TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=12)
TEXTS = ANY_TEXT | st.sampled_from(
    [
        "",
        " ",
        "\ud800",
        "\udfff HK",
        "HK \udc80",
        "Jo\u0308rg",  # decomposed (NFD)
        "Jörg",
        "ben",
        "HK K10 J",
        "P3 P4",
        "♥K ♠10",
        "JJJJ",
        "X" * 300,
        "0",
        "-5",
        "²",
        "１２",
    ]
)
NUMBERS = (
    st.integers(min_value=-5, max_value=400)
    | st.integers()
    | st.sampled_from([2**31, 2**63, -(2**63) - 1, 10**100, -(10**300)])
    | st.floats(allow_nan=True, allow_infinity=True)
)
SCALARS = st.none() | st.booleans() | NUMBERS | TEXTS
ANY_JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXTS, inner, max_size=4),
    max_leaves=12,
)
NAMES = st.sampled_from([*PLAYERS, "Jo\u0308rg", "ben", "Zoe"]) | TEXTS
HANDS = st.sampled_from(["HK K10 J", "P3 P4", "JJ", "5", "23"]) | NUMBERS | TEXTS | ANY_JSON
FLAGS = st.booleans() | ANY_JSON


def shaped(fields: dict[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """A body with any of ``fields`` (each its plausible values, or anything), plus extra
    keys now and then; or any JSON at all (a list, a number: wrong at the top)."""
    known = st.fixed_dictionaries({}, optional={k: v | ANY_JSON for k, v in fields.items()})
    extra = st.dictionaries(TEXTS, ANY_JSON, max_size=3)
    body = st.builds(lambda a, b: {**b, **a}, known, extra)
    return st.one_of(body, body, body, ANY_JSON)


def raw(fields: list[str]) -> st.SearchStrategy[bytes]:
    """Bodies no encoder writes: nesting deeper than any parser, numbers past any type,
    bytes that are not UTF-8, JSON cut short."""
    field = st.sampled_from([*fields, "x"])
    depth = st.integers(min_value=1, max_value=3000)
    return st.one_of(
        depth.map(lambda n: b"[" * n + b"]" * n),
        st.tuples(field, depth).map(lambda f: f'{{"{f[0]}": '.encode() + b"[" * f[1] + b"]" * f[1] + b"}"),
        depth.map(lambda n: b'{"a": ' * n + b"1" + b"}" * n),
        st.tuples(field, st.integers(min_value=300, max_value=6000)).map(
            lambda f: f'{{"{f[0]}": {"9" * f[1]}}}'.encode()
        ),
        field.map(lambda f: f'{{"{f}": 1e999, "confirm": -1e999}}'.encode()),
        field.map(lambda f: f'{{"{f}": NaN}}'.encode()),
        field.map(lambda f: f'{{"{f}": "\xff\xfe"}}'.encode("latin-1")),
        field.map(lambda f: f'{{"{f}": "HK'.encode()),
        st.sampled_from([b"", b"null", b"[]", b'"x"', b"\xef\xbb\xbf{}", b"{}{}", b'{"a":1,"a":2}']),
    )


def body_of(fields: dict[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[bytes]:
    """The bytes sent: the JSON of :func:`shaped` (lone surrogates as ``\\ud800`` escapes,
    as a JSON text carries them), or :func:`raw`."""
    encoded = shaped(fields).map(lambda v: json.dumps(v, ensure_ascii=True, allow_nan=True).encode())
    return st.one_of(encoded, encoded, encoded, raw(list(fields)))


# The link each kind of write is sent through, from the served session's links (a kind
# of link added, e.g. an organiser's, joins here).
LINKS: dict[str, Callable[[Served], str]] = {
    "seat": lambda served: served.seats[SEAT],
    "scorekeeper": lambda served: served.scorekeeper,
    "organizer": lambda served: served.organizer,
}
GAME = "Abend"  # the name of an organiser's route's {name}


@dataclass(frozen=True)
class Write:
    link: str  # a key of LINKS
    path: str
    body: st.SearchStrategy[bytes] = field(repr=False)

    def __str__(self) -> str:
        return self.path


# Every write route of the phones, with the bodies it is sent. A route added joins here.
WRITES = [
    Write(
        "seat",
        "hand",
        body_of({"cards": HANDS, "points": NUMBERS, "never_out": FLAGS, "confirm": FLAGS, "player": NAMES}),
    ),
    Write("seat", "out", body_of({"hand_romme": FLAGS, "player": NAMES})),
    Write(
        "scorekeeper",
        "pending",
        body_of(
            {
                "winner": NAMES | st.none(),
                "hands": st.dictionaries(NAMES, HANDS | st.none(), max_size=4),
                "never_out": st.lists(NAMES, max_size=4),
                "stalemate": FLAGS,
                "hand_romme": FLAGS,
                "confirm": FLAGS,
            }
        ),
    ),
    Write("scorekeeper", "save", body_of({})),
    Write("scorekeeper", "discard", body_of({})),
    Write("scorekeeper", "undo", body_of({})),
    # the organiser's (romme serve --all, issue 36 item 3)
    Write(
        "organizer",
        "games",
        body_of(
            {
                "name": NAMES,
                "players": st.lists(NAMES, max_size=4),
                "preset": NAMES | st.sampled_from(["standard", "wiki-51"]),
                "rules": st.dictionaries(NAMES, NUMBERS | NAMES, max_size=2),
                "rate": NUMBERS | st.sampled_from(["0.01", "abc", "-1"]),
                "currency": NAMES,
                "until": NAMES | st.sampled_from(["500", "rounds:3", "open"]),
            }
        ),
    ),
    Write("organizer", "tournaments/{name}/draw", body_of({"force": FLAGS})),
    Write("organizer", "games/{name}/end", body_of({})),
]
KEYS = st.none() | st.sampled_from(
    ["k-1", "k-2", "0f8e4a3c-6d1b-4a55-9c1e-2b7d1e0c9a11", "", "x" * 101, "a b"]
)
TYPES = st.sampled_from(["application/json", "application/json; charset=utf-8", "text/plain", None])


def test_every_write_route_is_in_the_list() -> None:
    """Every POST route of every table of routes (a session's, a tournament's board, a
    league's, and any table added) is sent generated bodies below."""
    tables = [v for k, v in vars(routes).items() if k.endswith("ROUTES") and isinstance(v, dict)]
    posted = {path for table in tables for path, route in table.items() if route.method == "POST"}
    assert posted == {write.path for write in WRITES}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, Path]]:
    home = tmp_path_factory.mktemp("writes")
    db = home / "romme.sqlite3"
    with pytest.MonkeyPatch.context() as patch:
        for name in ("HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
            patch.setenv(name, str(home))
        ok("new", "Abend", *PLAYERS, "--until", "open", "--db", str(db))
        ok("round", "--winner", "Anna", "Ben=HK K10", "Jörg=5", "Dora=P3 P4", "--db", str(db))
        with in_process(db) as (links, _server), night_in_process(db) as organizer:
            links.organizer = organizer
            yield links, db


@pytest.fixture(scope="module")
def http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=30) as client:
        yield client


def held(db: Path) -> list[str]:
    """Everything the database holds, line by line."""
    with sqlite3.connect(db) as con:
        return list(con.iterdump())


@pytest.mark.parametrize("write", WRITES, ids=str)
@settings(
    max_examples=EXAMPLES,
    derandomize=True,  # the same bodies every run
    database=None,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
@given(data=st.data())
def test_a_write_route_answers_any_body_with_2xx_or_a_json_refusal_that_wrote_nothing(
    served: tuple[Served, Path], http: httpx.Client, write: Write, data: st.DataObject
) -> None:
    links, db = served
    body = data.draw(write.body, label="body")
    key = data.draw(KEYS, label="Idempotency-Key")
    kind = data.draw(TYPES, label="Content-Type")
    lang = data.draw(st.sampled_from(["de", "en"]), label="Accept-Language")
    headers = {"Accept-Language": lang}
    if key is not None:
        headers["Idempotency-Key"] = key
    if kind is not None:
        headers["Content-Type"] = kind
    link = LINKS[write.link](links)
    before = held(db)
    path = write.path.replace("{name}", GAME)
    answer = http.post(f"{link}/{path}", content=body, headers=headers)
    assert 200 <= answer.status_code < 500, (answer.status_code, answer.text[:300])
    assert answer.headers["content-type"].startswith("application/json"), answer.text[:300]
    answered = answer.json()
    if answer.status_code >= 300:
        assert isinstance(answered, dict) and isinstance(answered.get("code"), str), answered
        assert isinstance(answered.get("error"), str) and answered["error"].strip(), answered
        assert held(db) == before, answered  # a refusal writes nothing
