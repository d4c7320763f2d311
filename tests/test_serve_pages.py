"""The web front end as a small, plain app (issue 27 item 5): one routes table that
every path is answered from, no function of web/app.py over 60 lines, a base template
every page extends, the scripts as ES modules, and no game in JavaScript: what a card
counts, a round's marks, the leaderboard's tenths and money come ready from the server
(``state.json``'s ``"shown"``, the referee's reading)."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from decimal import Decimal
from importlib import resources
from pathlib import Path

import httpx
import pytest
from clirun import ok
from serving import Served, in_process

from romme_score.rules import find_preset
from romme_score.sessions import SessionService
from romme_score.web import app, routes

PLAYERS = ["Anna", "Ben", "Carl", "Dora"]
WEB = Path(app.__file__).parent
STATIC = WEB / "static"


@pytest.fixture
def http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=10) as client:
        yield client


def serve(db: Path, preset: str = "standard") -> Iterator[Served]:
    with SessionService(db) as service:
        service.create("Friday", PLAYERS, find_preset(preset), Decimal("0.01"), "EUR")
    with in_process(db) as (links, _server):
        yield links


@pytest.fixture
def served(isolated_data_dir: Path) -> Iterator[Served]:
    yield from serve(isolated_data_dir)


def test_state_json_shows_the_marks_the_hands_and_each_seats_line_ready_to_show(
    http: httpx.Client, served: Served
) -> None:
    ok("round", "--winner", "Anna", "Ben=HK K10 J", "Carl=12", "Dora=P3 P4")
    ok("round", "--winner", "Ben", "--hand-romme", "Anna=TA T2", "Carl=0", "Dora=HD")
    ok("round", "--stalemate", "Anna=5", "Ben=6", "Carl=7", "Dora=8")
    http.post(served.seats["Carl"] + "/out", json={})
    http.post(served.seats["Dora"] + "/hand", json={"points": 9})
    shown = http.get(served.seats["Dora"] + "/state.json").json()["shown"]
    assert [r["number"] for r in shown["recent"]] == ["1", "2", "3 s"]
    assert shown["recent"][0]["marks"] == {"Anna": "0 *", "Ben": "40", "Carl": "12", "Dora": "7"}
    assert shown["recent"][1]["marks"]["Ben"] == "0 *H-20" and shown["recent"][1]["winner"] == "Ben"
    # the winner's bonus as it will be saved
    assert shown["pending"]["Carl"] == {"text": "went out · −10 bonus · not saved yet", "state": "out"}
    assert shown["pending"]["Dora"] == {"text": "9 counted", "state": "in"}
    assert shown["pending"]["Anna"]["state"] == "waiting"
    assert shown["mine"] == "My hand is in: 9 points"
    assert shown["last_round"] == {
        "Anna": "5 counted",
        "Ben": "6 counted",
        "Carl": "7 counted",
        "Dora": "8 counted",
    }
    assert shown["leaderboard"] is None and shown["finished"] is False
    anna = http.get(served.seats["Anna"] + "/state.json").json()["shown"]
    assert anna["mine"] == "Carl went out: your cards left, please."
    assert http.get(served.board + "/state.json").json()["shown"]["mine"] is None


def test_the_leaderboards_tenths_have_the_languages_decimal_comma(
    http: httpx.Client, isolated_data_dir: Path
) -> None:
    for links in serve(isolated_data_dir, "speedromme"):
        ok("round", "--winner", "Anna", "Ben=HK K10 J", "Carl=12", "Dora=P3 P4")
        german = http.get(links.board + "/state.json", params={"lang": "de"}).json()["shown"]
        english = http.get(links.board + "/state.json", params={"lang": "en"}).json()["shown"]
        assert all("," in text and "." not in text for text in german["leaderboard"].values())
        assert german["leaderboard"].keys() == english["leaderboard"].keys() == set(PLAYERS)
        assert [t.replace(",", ".") for t in german["leaderboard"].values()] == list(
            english["leaderboard"].values()
        )


def test_the_seats_picker_types_the_cards_of_the_servers_notation(http: httpx.Client, served: Served) -> None:
    page = http.get(served.seats["Ben"]).text
    kings = re.search(r'data-rank="K" data-cards="([^"]+)"', page)
    assert kings is not None
    assert json.loads(kings.group(1).replace("&quot;", '"')) == {"T": "TK", "P": "PK", "H": "HK", "K": "KK"}
    assert 'data-card="J"' in page and 'data-suit="H" aria-pressed="false">♥' in page
    assert 'id="suits"' not in http.get(served.board).text  # a seat's part only


# --- the routes table, the templates, the modules ------------------------------------------


def test_every_path_of_the_routes_table_is_answered_and_no_other(http: httpx.Client, served: Served) -> None:
    ok("round", "--winner", "Anna", "Ben=5", "Carl=6", "Dora=7")
    for path, route in routes.ROUTES.items():
        if route.method != "GET" or route.media == routes.EVENTS:
            continue
        path = path.replace("{which}", "board")
        link = served.scorekeeper if "scorekeeper" in route.kinds else served.board
        response = http.get(f"{link}/{path}", params={"cards": "HK", "meld": "HK KK PK", "hand": "HK"})
        assert response.status_code == 200, path
        assert response.headers["content-type"].split(";")[0] == route.media.split(";")[0], path
        if route.kinds == ("scorekeeper",):
            assert http.get(f"{served.board}/{path}").status_code == 403, path
    for path, route in routes.ROUTES.items():
        if route.method == "POST":
            answer = http.get(f"{served.scorekeeper}/{path}")
            assert answer.status_code == 405 and answer.headers["allow"] == "POST", path
    assert http.post(served.board + "/state.json").headers["allow"] == "GET"
    assert http.get(served.board + "/static/nothing.js").status_code == 404


def test_no_function_of_the_application_is_over_60_lines() -> None:
    tree = ast.parse((WEB / "app.py").read_text("utf-8"))
    lengths = {
        node.name: (node.end_lineno or node.lineno) - node.lineno + 1
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    assert max(lengths.values()) <= 60, lengths


def test_every_page_extends_the_base_template_and_loads_the_scripts_as_modules(
    http: httpx.Client, served: Served
) -> None:
    base = resources.files("romme_score.web").joinpath("templates", "base.html").read_text("utf-8")
    assert "<!--block-->" in base
    for name in ("page.html", "tournament.html"):
        text = resources.files("romme_score.web").joinpath("templates", name).read_text("utf-8")
        assert text.startswith("<!--extends:base.html-->\n") and "<head>" not in text, name
    for url in (served.board, served.scorekeeper, served.seats["Ben"]):
        page = http.get(url).text
        token = httpx.URL(url).path
        assert re.findall(r"<script[^>]*>", page) == [f'<script src="{token}/static/main.js" type="module">']


MODULES = ["main.js", "net.js", "live.js", "outbox.js", "render.js", "seat.js", "keeper.js", "board.js"]
MODULES += ["tournament.js", "paging.js", "awake.js"]


def test_the_scripts_are_small_modules_sharing_one_network() -> None:
    for name in MODULES:
        text = (STATIC / name).read_text("utf-8")
        assert "use strict" not in text and "(() =>" not in text, name  # a module, no wrapper
        assert len(text.splitlines()) < 250, name
    for name in ("tournament.js", "seat.js", "keeper.js", "board.js"):
        text = (STATIC / name).read_text("utf-8")
        assert 'from "./net.js"' in text, name
        assert "new EventSource" not in text and "fetch(" not in text, name  # the network is net.js's


# What a page must not know: the game is the server's (STYLE.md, Web pages).
GAME_IN_JS = {
    "a decimal written by the script": r"toFixed|toLocaleString|Intl\.",
    "a suit's letter or symbol": r"[♣♠♥♦]|\[\s*\"[TPHKCSD]\"\s*,",
    "a rank's letter": r"\"[BDQ]\"|\"10\"",
    "a joker's token": r"\"JK\"|\"J\"",
    "the notation chosen in the script": r"notation",
    "a card's points": r"\b(10|20|25)\b",
    "a round's mark": r"\"0 \*|\*H|\" s\"",
    "money": r"€|EUR|amount",
}


@pytest.mark.parametrize("what", GAME_IN_JS)
def test_no_game_logic_in_the_scripts(what: str) -> None:
    pattern = re.compile(GAME_IN_JS[what])
    for path in sorted(STATIC.glob("*.js")):
        code = re.sub(r"/\*.*?\*/", "", path.read_text("utf-8"), flags=re.S)
        code = re.sub(r"^\s*//.*$|\s//\s.*$", "", code, flags=re.M)  # the comments may say what is not here
        found = pattern.findall(code)
        assert not found, f"{path.name}: {what}: {found}"
