"""Issue 35, "a phone's hand is one transaction with at most 12 statements": one
``POST seat/hand`` with an ``Idempotency-Key`` through ``romme serve`` (in this process,
on 127.0.0.1), every statement of the server's connections counted with SQLite's trace.
Before, it ran 27 statements (16 SELECT) in 2 transactions: the session and its players
read twice, the totals twice, the round in progress before ``BEGIN`` and again after
``COMMIT``, the key's answer kept in a transaction of its own."""

from __future__ import annotations

import threading
from pathlib import Path

import httpx
import pytest
from serving import in_process

from romme_score.rules import find_preset
from romme_score.sessions import SessionService
from romme_score.web.context import Services

PLAYERS = ["Anna", "Ben", "Carl", "Dora"]


@pytest.fixture
def db(isolated_data_dir: Path) -> Path:
    with SessionService(isolated_data_dir) as service:
        service.create("Friday", PLAYERS, find_preset("standard"), None, "EUR")
    return isolated_data_dir


def traced(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every statement the connections of the server's requests run, from now on (the
    watcher's own connection, which looks twice a second, is not one of them)."""
    sent: list[str] = []
    lock = threading.Lock()
    opened = Services._open

    def record(statement: str) -> None:
        with lock:
            sent.append(" ".join(statement.split()))

    def traced_open(self: Services) -> SessionService:
        service = opened(self)
        service.store.conn.db.set_trace_callback(record)  # type: ignore[attr-defined]
        return service

    monkeypatch.setattr(Services, "_open", traced_open)
    return sent


def transactions(sent: list[str]) -> int:
    return sum(1 for s in sent if s.upper().startswith("BEGIN"))


def test_a_phones_hand_with_a_key_is_one_transaction_of_at_most_12_statements_issue_35(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent = traced(monkeypatch)
    with in_process(db) as (served, _server), httpx.Client(timeout=10) as http:
        # another seat's hand first, as at a table (its connection opened and checked then)
        assert http.post(served.seats["Anna"] + "/hand", json={"points": 5}).status_code == 200
        sent.clear()
        key = {"Idempotency-Key": "7c1e2b0d-hand-ben"}
        answer = http.post(served.seats["Ben"] + "/hand", json={"points": 17}, headers=key)
        assert answer.status_code == 200 and answer.json()["points"] == 17
        written = list(sent)
        # sent again: the first answer, nothing written
        sent.clear()
        again = http.post(served.seats["Ben"] + "/hand", json={"points": 17}, headers=key)
        assert again.status_code == 200 and again.content == answer.content
        repeated = list(sent)
        hands = http.get(served.board + "/state.json").json()["pending"]["hands"]
    assert hands["Anna"] is not None and hands["Ben"] is not None
    assert transactions(written) == 1 and written[-1] == "COMMIT", written  # nothing after it
    assert len(written) <= 12, (len(written), written)
    assert not any(s.startswith(("INSERT", "UPDATE", "DELETE")) for s in repeated), repeated
