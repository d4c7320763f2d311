"""Issue 31 ("Every write from a page is queued and sent exactly once"): a write sent
with an ``Idempotency-Key`` is applied once however often it arrives, and answered each
time with its first answer; the key survives a restart of the server; a write without
the header is served as before (for scripts)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from serving import Served, in_process

from romme_score.rules import find_preset
from romme_score.sessions import SessionService

PLAYERS = ["Anna", "Ben", "Carl", "Dora"]


@pytest.fixture
def db(isolated_data_dir: Path) -> Path:
    with SessionService(isolated_data_dir) as service:
        service.create("Friday", PLAYERS, find_preset("standard"), None, "EUR")
    return isolated_data_dir


@pytest.fixture
def http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=10) as client:
        yield client


def state(http: httpx.Client, served: Served) -> dict[str, object]:
    data: dict[str, object] = http.get(served.board + "/state.json").json()
    return data


def test_the_same_post_sent_three_times_changes_the_round_once_issue_31(db: Path, http: httpx.Client) -> None:
    key = {"Idempotency-Key": "0f8e4a3c-6d1b-4a55-9c1e-2b7d1e0c9a11"}
    with in_process(db) as (served, _server):
        before = state(http, served)["version"]
        answers = [
            http.post(served.seats["Ben"] + "/hand", json={"points": 17}, headers=key) for _ in range(3)
        ]
        assert [a.status_code for a in answers] == [200, 200, 200]
        assert (
            answers[0].json()["points"] == 17
            and answers[1].content == answers[0].content == answers[2].content
        )
        after = state(http, served)
        assert after["version"] == int(str(before)) + 1  # one change, not three
        # the scorekeeper's save, sent three times: one round saved
        out = {"Idempotency-Key": "out-anna-1"}
        assert http.post(served.seats["Anna"] + "/out", json={}, headers=out).status_code == 200
        for name, points in (("Carl", 5), ("Dora", 8)):
            http.post(served.seats[name] + "/hand", json={"points": points})
        save = {"Idempotency-Key": "save-round-1"}
        saves = [http.post(served.scorekeeper + "/save", json={}, headers=save) for _ in range(3)]
        assert [a.status_code for a in saves] == [200, 200, 200] and len({a.content for a in saves}) == 1
        assert state(http, served)["rounds_played"] == 1
    with in_process(db) as (served, _server):  # a restarted server keeps the keys
        again = http.post(served.scorekeeper + "/save", json={}, headers=save)
        assert again.status_code == 200 and again.content == saves[0].content
        assert state(http, served)["rounds_played"] == 1
        hand = http.post(served.seats["Ben"] + "/hand", json={"points": 17}, headers=key)
        assert hand.status_code == 200 and hand.content == answers[0].content
        hands = state(http, served)["pending"]["hands"]  # type: ignore[index]
        assert not any(hands.values())  # not applied again to the next round


def test_a_key_sent_again_with_another_write_is_refused_and_nothing_is_done_issue_31(
    db: Path, http: httpx.Client
) -> None:
    key = {"Idempotency-Key": "one-key"}
    with in_process(db) as (served, _server):
        assert http.post(served.seats["Ben"] + "/hand", json={"points": 17}, headers=key).status_code == 200
        version = state(http, served)["version"]
        other = http.post(served.seats["Ben"] + "/hand", json={"points": 18}, headers=key)
        assert other.status_code == 422 and other.json()["code"] == "key-reused" and other.json()["error"]
        assert state(http, served)["version"] == version
        bad = http.post(
            served.seats["Ben"] + "/hand", json={"points": 18}, headers={"Idempotency-Key": "a b"}
        )
        assert bad.status_code == 400 and bad.json()["code"] == "bad-key"
        # a write refused keeps no key: sent again once it can be applied, it is
        refused = {"Idempotency-Key": "refused-first"}
        assert (
            http.post(served.seats["Carl"] + "/hand", json={"cards": "HK ZZ"}, headers=refused).status_code
            == 400
        )
        assert (
            http.post(served.seats["Carl"] + "/hand", json={"cards": "HK"}, headers=refused).status_code
            == 200
        )
        # without the header: every write applied as it comes
        for points in (3, 4):
            assert http.post(served.seats["Dora"] + "/hand", json={"points": points}).status_code == 200
        assert state(http, served)["version"] == int(str(version)) + 3
