"""The JSON contract of ``romme serve`` (issue 19 item 4), against a server on 127.0.0.1:
``state.json``, the event stream, a seat's hand and "I went out", the scorekeeper's round
in progress, save, discard and undo, and the language of the answers."""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from clirun import ok
from httpx_sse import connect_sse
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
def served(db: Path) -> Iterator[Served]:
    with in_process(db) as (links, _server):
        yield links


@pytest.fixture
def http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=10) as client:
        yield client


def state(http: httpx.Client, served: Served, **params: str) -> dict[str, object]:
    response = http.get(served.board + "/state.json", params=params)
    assert response.status_code == 200 and response.headers["content-type"].startswith("application/json")
    data: dict[str, object] = response.json()
    return data


def post(http: httpx.Client, url: str, body: object | None = None, **kw: object) -> httpx.Response:
    return http.post(url, json=body if body is not None else {}, **kw)  # type: ignore[arg-type]


class Stream:
    """An event stream read in a thread: each event's data goes to a queue."""

    def __init__(self, url: str, last_id: str | None = None) -> None:
        self.events: queue.Queue[str] = queue.Queue()
        self.opened = threading.Event()
        self.closing = False
        headers = {"Last-Event-ID": last_id} if last_id is not None else {}
        self.client = httpx.Client(timeout=httpx.Timeout(20, read=20))
        self.thread = threading.Thread(target=self._read, args=(url, headers), daemon=True)
        self.thread.start()
        assert self.opened.wait(10), "the event stream did not open"

    def _read(self, url: str, headers: dict[str, str]) -> None:
        try:
            with connect_sse(self.client, "GET", url, headers=headers) as source:
                assert source.response.headers["content-type"].startswith("text/event-stream")
                self.opened.set()
                for event in source.iter_sse():
                    self.events.put(event.data)
        except (httpx.HTTPError, RuntimeError):
            if not self.closing:
                raise

    def next(self, timeout: float = 3.0) -> str:
        return self.events.get(timeout=timeout)

    def close(self) -> None:
        self.closing = True
        self.client.close()


def test_state_json_has_every_key_of_standings_json_and_the_round_in_progress(
    http: httpx.Client, served: Served
) -> None:
    ok("round", "--winner", "Anna", "Ben=HK K10 J", "Carl=12", "Dora=P3 P4")
    data = state(http, served)
    standings = json.loads(ok("standings", "--json"))
    for key, value in standings.items():
        assert data[key] == value, key
    assert isinstance(data["version"], int)
    assert data["pending"] == {
        "score": None,  # nothing to score until a winner or a stalemate is known
        "winner": None,
        "hand_romme": False,
        "stalemate": False,
        "hands": dict.fromkeys(PLAYERS),
        "missing": PLAYERS,
        "complete": False,
        "revision": 0,
        "closed": [],  # nobody went out: every seat's phone may send its hand
    }


def test_a_seat_sends_its_hand_as_cards_or_points(http: httpx.Client, served: Served) -> None:
    response = post(http, served.seats["Ben"] + "/hand", {"cards": "HK K10 J"})
    assert response.status_code == 200
    assert response.json()["points"] == 40 and response.json()["cards"] == ["♥K", "♦10", "J"]
    assert post(http, served.seats["Carl"] + "/hand", {"points": 23}).json()["points"] == 23
    hands = state(http, served)["pending"]["hands"]  # type: ignore[index]
    assert hands["Ben"] == {"points": 40, "cards": ["♥K", "♦10", "J"], "counted": None}
    assert hands["Carl"]["points"] == 23 and hands["Anna"] is None and hands["Dora"] is None


@pytest.mark.parametrize(
    "body",
    [
        {"cards": "HK HX"},
        {"cards": ""},
        {"points": -3},
        {"points": 10**6},
        {"cards": 5},
        {},
        {"points": True},
    ],
)
def test_an_unreadable_hand_is_refused_with_a_sentence_and_a_code_and_nothing_is_stored(
    http: httpx.Client, served: Served, body: dict[str, object]
) -> None:
    before = state(http, served)
    response = post(http, served.seats["Ben"] + "/hand", body)
    assert response.status_code == 400
    answer = response.json()
    assert isinstance(answer["error"], str) and answer["error"] and isinstance(answer["code"], str)
    assert state(http, served)["version"] == before["version"]


def test_the_sentence_of_an_unreadable_hand_is_the_command_lines(http: httpx.Client, served: Served) -> None:
    answer = post(http, served.seats["Ben"] + "/hand", {"cards": "HK HX"}).json()
    assert answer["code"] == "unreadable-hand"
    assert answer["error"] == "Ben: cannot read card 'HX' (2nd card): X is not a rank (A, 2-10, B, D, K)"


def test_a_seat_goes_out_and_the_scorekeeper_saves_the_round_as_romme_round_json_prints_it(
    http: httpx.Client, served: Served, db: Path
) -> None:
    assert post(http, served.seats["Anna"] + "/out", {"hand_romme": False}).status_code == 200
    post(http, served.seats["Ben"] + "/hand", {"cards": "HK K10 J"})
    missing = post(http, served.scorekeeper + "/save")
    assert missing.status_code == 409
    assert missing.json()["code"] == "missing-hands" and missing.json()["missing"] == ["Carl", "Dora"]
    post(http, served.scorekeeper + "/pending", {"hands": {"Carl": 12, "Dora": "P3 P4"}})
    saved = post(http, served.scorekeeper + "/save")
    assert saved.status_code == 200
    # the same round recorded by the command line, in a copy of the session
    with SessionService(db) as service:
        service.create("Copy", PLAYERS, find_preset("standard"), None, "EUR")
    cli = json.loads(
        ok(
            "round",
            "--session",
            "Copy",
            "--json",
            "--winner",
            "Anna",
            "Ben=HK K10 J",
            "Carl=12",
            "Dora=P3 P4",
        )
    )
    answer = saved.json()
    assert {k: v for k, v in answer.items() if k not in ("message", "session")} == {
        k: v for k, v in cli.items() if k != "session"
    }
    assert answer["round"]["points"] == {"Anna": 0, "Ben": 40, "Carl": 12, "Dora": 7}
    after = state(http, served)
    assert after["pending"]["hands"] == dict.fromkeys(PLAYERS)  # type: ignore[index]
    assert after["rounds_played"] == 1


def test_saving_without_a_winner_says_who_is_missing(http: httpx.Client, served: Served) -> None:
    post(http, served.seats["Ben"] + "/hand", {"points": 3})
    answer = post(http, served.scorekeeper + "/save")
    assert answer.status_code == 409
    assert answer.json()["code"] == "no-winner" and answer.json()["missing"] == ["Anna", "Carl", "Dora"]


def test_a_round_the_rules_refuse_at_save_is_a_400_and_nothing_is_written(
    http: httpx.Client, served: Served
) -> None:
    post(http, served.scorekeeper + "/pending", {"winner": "Anna", "hands": {"Ben": "HK HK", "Carl": "HK"}})
    post(http, served.seats["Dora"] + "/hand", {"cards": "HK"})  # the fourth ♥K of two packs
    before = state(http, served)
    answer = post(http, served.scorekeeper + "/save")
    assert answer.status_code == 400 and answer.json()["code"] == "round-refused"
    assert "do not add up" in answer.json()["error"]
    after = state(http, served)
    assert after["rounds_played"] == 0 and after["version"] == before["version"]


def test_the_scorekeeper_sets_any_part_of_the_round_discards_it_and_undoes_a_round(
    http: httpx.Client, served: Served
) -> None:
    answer = post(
        http,
        served.scorekeeper + "/pending",
        {"winner": "Ben", "hand_romme": True, "hands": {"Anna": "TA T2", "Carl": 0}},
    )
    assert answer.status_code == 200
    pending = state(http, served)["pending"]
    assert pending["winner"] == "Ben" and pending["hand_romme"]  # type: ignore[index]
    assert pending["hands"]["Anna"]["points"] == 13  # type: ignore[index]
    post(http, served.scorekeeper + "/pending", {"stalemate": True})
    pending = state(http, served)["pending"]
    assert pending["stalemate"] and pending["winner"] is None and not pending["hand_romme"]  # type: ignore[index]
    post(http, served.scorekeeper + "/pending", {"winner": None, "stalemate": False, "hands": {"Anna": None}})
    assert state(http, served)["pending"]["hands"]["Anna"] is None  # type: ignore[index]
    assert post(http, served.scorekeeper + "/discard").status_code == 200
    assert state(http, served)["pending"]["hands"]["Carl"] is None  # type: ignore[index]
    ok("round", "--winner", "Anna", "Ben=5", "Carl=6", "Dora=7")
    undone = post(http, served.scorekeeper + "/undo")
    assert undone.status_code == 200 and undone.json()["undone"] == 1
    assert state(http, served)["rounds_played"] == 0
    nothing = post(http, served.scorekeeper + "/undo")
    assert nothing.status_code == 409 and nothing.json()["code"] == "no-rounds"


def test_one_event_per_change_whoever_made_it_carrying_the_new_version(
    http: httpx.Client, served: Served
) -> None:
    stream = Stream(served.board + "/events")
    try:
        post(http, served.seats["Ben"] + "/hand", {"points": 3})  # a phone
        assert stream.next() == str(state(http, served)["version"])
        start = time.monotonic()
        ok("round", "--winner", "Anna", "Ben=5", "Carl=6", "Dora=7")  # another program on the file
        assert stream.next() == str(state(http, served)["version"])
        assert time.monotonic() - start < 1.5
        post(http, served.scorekeeper + "/undo")
        assert stream.next() == str(state(http, served)["version"])
        with pytest.raises(queue.Empty):  # and nothing without a change
            stream.next(timeout=0.8)
    finally:
        stream.close()


def test_a_stream_that_reconnects_catches_up_at_once(http: httpx.Client, served: Served) -> None:
    seen = str(state(http, served)["version"])
    post(http, served.seats["Ben"] + "/hand", {"points": 3})  # while the phone slept
    stream = Stream(served.board + "/events", last_id=seen)
    try:
        assert stream.next() == str(state(http, served)["version"])
    finally:
        stream.close()


@pytest.mark.parametrize(
    "params, headers, sentence",
    [
        ({"lang": "de"}, {}, "nicht lesbar"),
        ({}, {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}, "nicht lesbar"),
        ({"lang": "en"}, {"Accept-Language": "de"}, "cannot read card"),
        ({}, {"Accept-Language": "fr"}, "cannot read card"),  # the server's language
    ],
)
def test_answers_speak_the_requests_language_with_english_codes_and_keys(
    http: httpx.Client, served: Served, params: dict[str, str], headers: dict[str, str], sentence: str
) -> None:
    answer = post(http, served.seats["Ben"] + "/hand", {"cards": "HX"}, params=params, headers=headers).json()
    assert sentence in answer["error"] and answer["code"] == "unreadable-hand"
    data = state(http, served, **params)
    assert set(data) >= {"session", "players", "pending", "version"}
    page = http.get(served.board, params=params, headers=headers).text
    assert ('lang="de"' in page) == ("nicht" in sentence)


def test_the_referee_on_the_phone_reads_checks_and_arranges_under_the_sessions_rules(
    http: httpx.Client, served: Served
) -> None:
    seat = served.seats["Ben"]
    read = http.get(seat + "/read", params={"cards": "HK K10 J"}).json()
    assert read == {
        "points": 40,
        "cards": ["♥K", "♦10", "J"],
        "counted": None,
        "values": [10, 10, 20],
        # ready to show, so that the page does no card's arithmetic
        "red": [True, True, False],
        "sum": "= 40 points",
        "text": "♥K 10 · ♦10 10 · J 20 = 40 points",
    }
    checked = http.get(seat + "/check", params=[("meld", "HK KK PK"), ("meld", "T9 T10 TB")]).json()
    assert checked["valid"] and checked["total"] == 59 and "legal set" in checked["text"]
    best = http.get(seat + "/best", params={"hand": "P3 P4 P5 TB PB HB H9 K2"}).json()
    assert best["can_go_out"] is False and best["leftover_penalty"] == 11
    unreadable = http.get(seat + "/read", params={"cards": "HX"})
    assert unreadable.status_code == 400 and unreadable.json()["code"] == "unreadable-hand"


def test_the_pages_and_what_they_load(http: httpx.Client, served: Served) -> None:
    for url in (served.board, served.scorekeeper, served.seats["Anna"], served.board + "/"):
        page = http.get(url)
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert "<script src=" in page.text and "<script>" not in page.text
    for name, kind in (
        ("app.js", "text/javascript"),
        ("main.js", "text/javascript"),
        ("net.js", "text/javascript"),
        ("style.css", "text/css"),
        ("icon.svg", "image/svg+xml"),
    ):
        asset = http.get(served.board + "/static/" + name)
        assert asset.status_code == 200 and asset.headers["content-type"].startswith(kind)
    assert http.get(served.board + "/qr.svg").content.startswith(b"<svg")
    ok("round", "--winner", "Anna", "Ben=5", "Carl=6", "Dora=7")
    assert b"polyline" in http.get(served.board + "/chart.svg").content
    links = http.get(served.scorekeeper + "/links.json").json()
    assert links["board"] == served.board and links["seats"] == served.seats
    for link in links["links"]:
        assert http.get(served.scorekeeper + "/" + link["qr"]).content.startswith(b"<svg")
