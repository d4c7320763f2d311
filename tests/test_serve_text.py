"""Every text a phone's write carries (values and keys) goes through one reader
(:func:`romme_score.web.guard.clean_json`, over :func:`romme_score.inputs.clean_text`): a
JSON string with a lone surrogate is a 400 with the JSON error (``code``, ``field`` and a
sentence in the request's language), never a 500, and nothing is written; a decomposed
name (NFD) is the player it looks like."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from serving import Served, in_process

from romme_score.rules import find_preset
from romme_score.sessions import SessionService

PLAYERS = ["Anna", "Ben", "Jörg", "Dora"]
JSON = {"content-type": "application/json"}


@pytest.fixture
def db(isolated_data_dir: Path) -> Path:
    with SessionService(isolated_data_dir) as service:
        service.create("Friday", PLAYERS, find_preset("standard"), None, "EUR")
    return isolated_data_dir


@pytest.fixture
def served(db: Path) -> Iterator[Served]:
    with in_process(db) as (links, _server):
        yield links


@pytest.fixture
def http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=10) as client:
        yield client


def held(db: Path) -> list[str]:
    """Everything the database holds, line by line."""
    files = list(db.glob("*.sqlite3")) if db.is_dir() else [db]
    assert len(files) == 1, files
    with sqlite3.connect(files[0]) as con:
        return list(con.iterdump())


@pytest.mark.parametrize(
    "who, path, body, field, position",
    [
        ("Ben", "hand", rb'{"cards": "\ud800"}', "cards", "U+D800 at position 1"),
        ("Ben", "hand", rb'{"cards": "\udfff HK"}', "cards", "U+DFFF at position 1"),
        (None, "pending", rb'{"hands": {"\ud800": 5}}', "hands", "U+D800 at position 1"),
        (None, "pending", rb'{"hands": {"Ben": "HK \udc80"}}', "hands.Ben", "U+DC80 at position 4"),
        (None, "pending", rb'{"winner": "An\ud800na"}', "winner", "U+D800 at position 3"),
        (None, "pending", rb'{"never_out": ["Ben", "\ud800"]}', "never_out[1]", "U+D800 at position 1"),
        ("Ben", "out", rb'{"player": "\ud800"}', "player", "U+D800 at position 1"),
        (None, "save", rb'{"\ud800": 1}', "", "U+D800 at position 1"),
        (None, "undo", rb'{"x": ["\ud800"]}', "x[0]", "U+D800 at position 1"),
    ],
)
def test_a_lone_surrogate_in_a_write_is_a_400_with_a_sentence_issue_37_item_7(
    db: Path,
    served: Served,
    http: httpx.Client,
    who: str | None,
    path: str,
    body: bytes,
    field: str,
    position: str,
) -> None:
    link = served.seats[who] if who is not None else served.scorekeeper
    before = held(db)
    answer = http.post(f"{link}/{path}", content=body, headers=JSON)
    assert answer.status_code == 400, answer.text
    data = answer.json()
    assert data["code"] == "bad-request" and data["field"] == field
    assert "is not valid text" in data["error"] and f"{position} is half of a surrogate pair" in data["error"]
    keyed = http.post(f"{link}/{path}", content=body, headers={**JSON, "Idempotency-Key": "k-1"})
    assert keyed.status_code == 400 and keyed.json() == data  # the key's digest never sees it
    german = http.post(f"{link}/{path}", content=body, headers={**JSON, "Accept-Language": "de"})
    assert german.status_code == 400
    assert "ist kein gültiger Text" in german.json()["error"]
    assert held(db) == before  # nothing written


def test_the_issues_hand_with_a_lone_surrogate_names_the_field_in_german_issue_37_item_7(
    served: Served, http: httpx.Client
) -> None:
    german = {**JSON, "Accept-Language": "de"}
    answer = http.post(served.seats["Ben"] + "/hand", content=rb'{"cards": "\ud800"}', headers=german)
    assert answer.status_code == 400
    assert answer.json()["error"] == (
        "'cards' ist kein gültiger Text (U+D800 an Stelle 1 ist ein halbes Surrogatpaar)"
    )
    key = http.post(
        served.scorekeeper + "/pending",
        content=rb'{"hands": {"\ud800": 5}}',
        headers={**JSON, "Accept-Language": "de"},
    )
    assert key.status_code == 400
    assert key.json()["error"] == (
        "ein Schlüssel in 'hands' ist kein gültiger Text (U+D800 an Stelle 1 ist ein halbes Surrogatpaar)"
    )


def test_a_decomposed_name_in_a_write_is_the_player_it_looks_like_issue_37_item_7(
    served: Served, http: httpx.Client
) -> None:
    """The reader composes what it reads (NFC), as every typed name is composed."""
    answer = http.post(served.scorekeeper + "/pending", json={"hands": {"Jo\u0308rg": 5}, "winner": "Anna"})
    assert answer.status_code == 200, answer.text
    assert http.get(served.board + "/state.json").json()["pending"]["hands"]["Jörg"]["points"] == 5
