"""The session service in-process, without Click (as the table mode will call it):
recording, preview, undo, edit with replay, settlement inputs, export and import."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from romme_score.cards import parse_cards
from romme_score.errors import InputProblem
from romme_score.rules import GameEnd, find_preset
from romme_score.scoring import Hand, RoundError, RoundInput, RoundScore
from romme_score.sessions import (
    ExportError,
    SessionExport,
    SessionInputError,
    SessionRefused,
    SessionService,
)
from romme_score.store import NotFound, StoreError

PLAYERS = ("Anna", "Ben", "Carl", "Dora")


def cards(text: str) -> Hand:
    return Hand(cards=tuple(parse_cards(text)))


def points(n: int) -> Hand:
    return Hand(points=n)


@pytest.fixture
def service(tmp_path: Path) -> Iterator[SessionService]:
    with SessionService(tmp_path / "s.sqlite3") as svc:
        svc.create("Friday", PLAYERS, find_preset("standard"), None, "eur")
        yield svc


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_create_makes_the_session_current_with_upper_case_currency(service: SessionService) -> None:
    info = service.session()
    assert info.name == "Friday" and info.players == PLAYERS and info.currency == "EUR"
    assert service.standings(info).next_dealer == "Anna"


@pytest.mark.parametrize(
    "players, fragment",
    [
        (("Anna",), "2 to 6"),
        (("Anna", " anna "), "given twice"),
        (("Anna", "B=n"), "must not contain '='"),
        (("Anna", "  "), "must not be empty"),
    ],
)
def test_create_refuses_bad_player_names(tmp_path: Path, players: tuple[str, ...], fragment: str) -> None:
    with SessionService(tmp_path / "x.sqlite3") as svc:
        with pytest.raises(InputProblem, match=fragment):
            svc.create("X", players, find_preset("standard"), None, None)
        assert svc.overview() == []


def test_record_scores_and_passes_the_deal(service: SessionService) -> None:
    info = service.session()
    rec = service.record(
        info, RoundInput("Anna", {"Ben": cards("HK K10 J"), "Carl": cards("P7 P8"), "Dora": points(23)})
    )
    assert rec.number == 1
    assert rec.score.points == {"Anna": 0, "Ben": 40, "Carl": 15, "Dora": 23}
    assert rec.standings.totals == {"Anna": 0, "Ben": 40, "Carl": 15, "Dora": 23}
    assert rec.standings.next_dealer == "Ben"


def test_preview_writes_nothing(service: SessionService, tmp_path: Path) -> None:
    info = service.session()
    before = digest(tmp_path / "s.sqlite3")
    score = service.preview(
        info, RoundInput("Ben", {"Anna": points(5), "Carl": points(7), "Dora": points(9)}, hand_romme=True)
    )
    assert score.points["Anna"] == 10
    assert digest(tmp_path / "s.sqlite3") == before
    assert service.standings(info).rounds_played == 0


def test_a_round_that_does_not_add_up_is_refused_and_not_written(service: SessionService) -> None:
    info = service.session()
    with pytest.raises(RoundError, match="no hand given for Dora"):
        service.record(info, RoundInput("Anna", {"Ben": points(1), "Carl": points(2)}))
    assert service.standings(info).rounds_played == 0


def test_game_over_refuses_more_rounds(tmp_path: Path) -> None:
    with SessionService(tmp_path / "g.sqlite3") as svc:
        rules = find_preset("standard").replace(game_end=GameEnd("rounds", 1))
        info = svc.create("One", ("A", "B"), rules, None, None)
        svc.record(info, RoundInput("A", {"B": points(30)}))
        with pytest.raises(SessionRefused, match="is over \\(A won\\)"):
            svc.record(info, RoundInput("A", {"B": points(30)}))
        assert svc.standings(info).rounds_played == 1


def test_undo_then_nothing_left_to_undo(service: SessionService) -> None:
    info = service.session()
    service.record(info, RoundInput("Anna", {p: points(10) for p in PLAYERS[1:]}))
    undone = service.undo(info)
    assert undone.record.number == 1 and undone.totals == dict.fromkeys(PLAYERS, 0)
    with pytest.raises(StoreError, match="no rounds to undo"):
        service.undo(info)
    assert [c.change for c in service.standings(info).corrections] == ["undone"]


def test_edit_replays_later_bonus_002_i(service: SessionService) -> None:
    """002 i: the winner's bonus depends on the earlier total, so an edit of round 1
    changes round 2's bonus."""
    info = service.session()
    service.record(info, RoundInput("Anna", {"Ben": points(5), "Carl": points(5), "Dora": points(5)}))
    service.record(info, RoundInput("Ben", {"Anna": points(3), "Carl": points(0), "Dora": points(0)}))
    assert service.standings(info).totals["Ben"] == 0  # 5 - bonus 5 (never below 0)
    edited = service.edit(info, 1, {"Ben": points(30)})
    assert edited.score.points["Ben"] == 30
    assert edited.totals["Ben"] == 20  # 30, then bonus 10 struck in round 2
    assert [c.change for c in service.standings(info).corrections] == ["edited"]


def test_edit_of_a_middle_round_replays_from_the_earlier_totals_002_i(service: SessionService) -> None:
    info = service.session()
    service.record(info, RoundInput("Anna", {"Ben": points(30), "Carl": points(0), "Dora": points(0)}))
    service.record(info, RoundInput("Anna", {"Ben": points(9), "Carl": points(0), "Dora": points(0)}))
    service.record(info, RoundInput("Ben", {"Anna": points(0), "Carl": points(0), "Dora": points(0)}))
    edited = service.edit(info, 2, {"Ben": points(2)})
    assert edited.totals["Ben"] == 30 + 2 - 10  # round 3's bonus: 10, as Ben had 32 before


def test_edit_of_a_missing_round_is_input_error(service: SessionService) -> None:
    with pytest.raises(SessionInputError, match="no round 3"):
        service.edit(service.session(), 3, {})


def test_unknown_session_names_the_closest(service: SessionService) -> None:
    with pytest.raises(NotFound, match="did you mean Friday"):
        service.session("Fridya")


def test_settlement_inputs_carry_the_default_rate_and_currency(service: SessionService) -> None:
    info = service.session()
    service.record(info, RoundInput("Anna", {"Ben": points(10), "Carl": points(20), "Dora": points(30)}))
    found = service.settlement_inputs([])
    assert found.games == [{"Anna": 0, "Ben": 10, "Carl": 20, "Dora": 30}]
    assert [str(r) for r in found.rates] == ["0.01"] and found.currency == "EUR"
    assert found.leaderboard is None


def test_export_import_round_trip_is_identical(service: SessionService) -> None:
    info = service.session()
    service.record(
        info,
        RoundInput(
            "Anna", {"Ben": cards("HK K10 J"), "Carl": points(5), "Dora": Hand(points=7, never_out=True)}
        ),
    )
    service.record(info, RoundInput(None, {p: points(4) for p in PLAYERS}, stalemate=True))
    with service.export(info) as export:
        exported = export.to_json()
    again = SessionExport.from_json(exported)
    name, count = service.import_(again, "Copy")
    assert (name, count) == ("Copy", 2)
    with service.export(service.session("Copy")) as export:
        copy = export.to_json()
    assert {k: v for k, v in copy.items() if k not in ("name", "created")} == {
        k: v for k, v in exported.items() if k not in ("name", "created")
    }
    assert service.current_name() == "Friday"  # issue 20 item 22: the copy is not current
    service.import_(again, "Copy", replace=True, use=True)
    assert service.current_name() == "Copy"


def test_import_refuses_rounds_after_the_game_ended(service: SessionService) -> None:
    data: dict[str, object] = {
        "format": "romme-score session",
        "version": 1,
        "name": "S",
        "players": ["A", "B"],
        "rules": {"game_end": "rounds:1"},
        "rounds": [
            {"winner": "A", "hands": {"B": {"points": 5}}},
            {"winner": "B", "hands": {"A": {"points": 5}}},
        ],
    }
    with pytest.raises(ExportError, match="round 2 comes after the game had ended in round 1"):
        service.import_(SessionExport.from_json(data))
    assert [s.info.name for s in service.overview()] == ["Friday"]


@pytest.mark.parametrize(
    "change, fragment",
    [
        ({"format": "other"}, "not a romme-score session export"),
        ({"version": 9}, "version 9"),
        ({"players": ["A", "A"]}, "twice"),
        ({"first_dealer": "Zed"}, "first dealer"),
        ({"currency": 5}, "currency"),
        ({"rounds": [{"hands": {"Zed": {}}}]}, "unknown player 'Zed'"),
        ({"rounds": [{"hands": {"A": {"cards": "HX"}}}]}, "round 1, A"),
        ({"rounds": [{"hands": {"A": {"points": -1}}}]}, "from 0 to"),
        ({"name": 5}, "name must be text"),
        ({"name": "  "}, "must not be empty"),
        ({"players": "A B"}, "list of names"),
        ({"players": ["A", 7]}, "list of names"),
        ({"players": ["A", "a "]}, "given twice"),
        ({"players": ["A", "B=C"]}, "must not contain '='"),
        ({"players": ["A", "  "]}, "must not be empty"),
        ({"rules": [1, 2]}, "rules must be an object"),
        ({"rules": {"packs": "many"}}, "packs"),
        ({"rate": "NaN"}, "not a decimal"),
        ({"rate": "Infinity"}, "not a decimal"),
        ({"rate": -1}, "must not be negative"),
        ({"rate": [1]}, "not a decimal"),
        ({"created": 5}, "creation time"),
        ({"rounds": {"1": {}}}, "rounds must be a list"),
        ({"rounds": [{"winner": 3, "hands": {}}]}, "winner 3 is not a player"),
        ({"rounds": [{"winner": "A", "hand_romme": "yes"}]}, "hand_romme must be true or false"),
        ({"rounds": [{"hands": ["A"]}]}, "hands must be an object"),
        ({"rounds": [{"hands": {"A": {"cards": 12}}}]}, "cards must be text"),
        ({"rounds": [{"hands": {"A": {"points": "5"}}}]}, "whole number"),
        ({"rounds": [{"hands": {"A": {"never_out": 1}}}]}, "never_out must be true or false"),
    ],
)
def test_export_reader_refuses_with_one_sentence(change: dict[str, object], fragment: str) -> None:
    data: dict[str, object] = {
        "format": "romme-score session",
        "version": 1,
        "name": "S",
        "players": ["A", "B"],
        "rules": {},
        "rounds": [],
    }
    data.update(change)
    with pytest.raises(ExportError, match=fragment):
        SessionExport.from_json(data)


def test_winner_cards_stored_before_002_e_f_options_do_not_block_an_edit(service: SessionService) -> None:
    """Rounds recorded when winner cards were 'shown for control, not counted' (002 e/f)
    still load and replay; the cards are dropped where today's rules refuse them."""
    info = service.session()
    rnd = RoundInput("Anna", {"Anna": cards("HK H3"), "Ben": points(5), "Carl": points(5), "Dora": points(5)})
    score = RoundScore({"Anna": 0, "Ben": 5, "Carl": 5, "Dora": 5}, {}, {})
    service.store.record_round(info, rnd, lambda before, played: score)
    service.record(info, RoundInput("Ben", {p: points(2) for p in ("Anna", "Carl", "Dora")}))
    edited = service.edit(info, 2, {"Anna": points(4)})
    assert edited.totals == {"Anna": 4, "Ben": 0, "Carl": 7, "Dora": 7}
