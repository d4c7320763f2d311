"""One referee behind every door (issue 27 item 1): the session service decides every hand,
claim and save, and each door only words the answer. Each test names the rule it holds
and where the rule comes from: RULES.md §3 (what a hand can hold), §6 (the round: who
went out, doubling, the winner's bonus), 002 section 6 (the settlement)."""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from serving import Served, in_process

from romme_score.cli import main
from romme_score.errors import RommeError
from romme_score.inputs import HandInputError, HandProblem
from romme_score.rules import find_preset
from romme_score.scoring import Hand, most_points_in_hand
from romme_score.sessions import AlreadyOut, GameOver, SessionInfo, SessionService, UnlikelyPoints
from romme_score.table.entry import RoundEntry, Step
from romme_score.table.front import KeptRound, TakenElsewhere

PLAYERS = ["Anna", "Ben", "Carl", "Dora"]
ROOT = Path(__file__).resolve().parent.parent


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


def romme(db: Path, *args: str) -> tuple[int, str, str, str | None]:
    """(exit code, stdout, stderr with the error's sentence, the error's code) of ``romme
    ARGS`` against ``db``, run in this process."""
    result = CliRunner().invoke(main, ["--lang", "en", *args, "--db", str(db)], standalone_mode=False)
    error = result.exception
    if error is None:
        return 0, result.stdout, result.stderr, None
    code = getattr(error, "code", None)
    return getattr(error, "exit_code", 1), result.stdout, result.stderr + str(error), str(code)


# --- RULES.md §3: what one hand can hold ------------------------------------------------


def test_points_no_hand_holds_are_refused_alike_by_romme_round_and_a_phone_rules_md_3(
    db: Path, served: Served, http: httpx.Client
) -> None:
    most = most_points_in_hand(find_preset("standard"))
    status, _out, _err, code = romme(db, "round", "--winner", "Anna", "Ben=300", "Carl=5", "Dora=5")
    assert status == 2 and code == "unreadable-hand"
    answer = http.post(served.seats["Ben"] + "/hand", json={"points": 300})
    assert answer.status_code == 400
    body = answer.json()
    assert body["code"] == "unreadable-hand" and body["problem"] == "too-many"
    assert f"no hand holds more than {most} points" in body["error"] and "did you mean 30?" in body["error"]
    with SessionService(db) as service:
        info = service.session("Friday")
        assert service.pending(info).empty and service.standings(info).rounds_played == 0


def test_unlikely_points_wait_for_a_confirmation_on_a_phone_rules_md_3(
    served: Served, http: httpx.Client, db: Path
) -> None:
    asked = http.post(served.seats["Ben"] + "/hand", json={"points": 160})
    assert asked.status_code == 409
    body = asked.json()
    assert body["code"] == "unlikely_points" and body["points"] == 160 and body["player"] == "Ben"
    assert body["question"] == "Really 160 points?"
    with SessionService(db) as service:
        assert service.pending(service.session("Friday")).empty  # nothing stored
    sent = http.post(served.seats["Ben"] + "/hand", json={"points": 160, "confirm": True})
    assert sent.status_code == 200
    kept = http.post(served.scorekeeper + "/pending", json={"hands": {"Carl": 151}})
    assert kept.status_code == 409 and kept.json()["code"] == "unlikely_points"
    kept = http.post(served.scorekeeper + "/pending", json={"hands": {"Carl": 151}, "confirm": True})
    assert kept.status_code == 200


def test_unlikely_points_are_saved_with_a_warning_by_romme_round_rules_md_3(db: Path) -> None:
    status, _out, err, _code = romme(db, "round", "--winner", "Anna", "Ben=160", "Carl=5", "Dora=5")
    assert status == 0 and "more than 150 points in one hand" in err


def test_the_service_refuses_unlikely_points_unless_confirmed_rules_md_3(db: Path) -> None:
    with SessionService(db) as service:
        info = service.session("Friday")
        with pytest.raises(UnlikelyPoints) as refused:
            service.set_hand(info, "Ben", Hand(points=151))
        assert refused.value.facts() == {"player": "Ben", "points": 151, "limit": 150}
        with pytest.raises(HandInputError) as impossible:
            service.set_hand(info, "Ben", Hand(points=279), confirm=True)
        assert impossible.value.problem is HandProblem.TOO_MANY
        service.set_hand(info, "Ben", Hand(points=150))  # 150 is likely
        service.set_hand(info, "Carl", Hand(points=278), confirm=True)  # the most, confirmed


# --- RULES.md §6: who went out is one fact ----------------------------------------------


def test_a_second_went_out_is_refused_while_one_stands_rules_md_6(served: Served, http: httpx.Client) -> None:
    assert http.post(served.seats["Ben"] + "/out", json={}).status_code == 200
    second = http.post(served.seats["Anna"] + "/out", json={})
    assert second.status_code == 409
    body = second.json()
    assert body["code"] == "already-out" and body["winner"] == "Ben"
    assert body["error"].startswith("Ben has already gone out; the scorekeeper can change it")
    state = http.get(served.board + "/state.json").json()
    assert state["pending"]["winner"] == "Ben"
    # the scorekeeper changes it, and every page shows the new winner
    assert http.post(served.scorekeeper + "/pending", json={"winner": "Anna"}).status_code == 200
    assert http.get(served.seats["Ben"] + "/state.json").json()["pending"]["winner"] == "Anna"


def test_the_same_player_saying_out_twice_is_no_second_claim_rules_md_6(db: Path) -> None:
    with SessionService(db) as service:
        info = service.session("Friday")
        service.declare_out(info, "Ben")
        assert service.declare_out(info, "Ben", hand_romme=True).hand_romme
        with pytest.raises(AlreadyOut):
            service.declare_out(info, "Carl")


def test_the_round_in_progress_is_shown_as_it_will_be_saved_with_hand_romme_doubling_rules_md_6(
    served: Served, http: httpx.Client
) -> None:
    http.post(served.seats["Ben"] + "/out", json={"hand_romme": True})
    http.post(served.seats["Anna"] + "/hand", json={"cards": "HK K10"})
    score = http.get(served.board + "/state.json").json()["pending"]["score"]
    assert score["provisional"] is True
    assert score["points"]["Anna"] == 40 and score["multiplier"]["Anna"] == 2
    assert score["points"]["Carl"] is None  # still missing


def test_never_out_is_said_from_a_phone_as_on_the_command_line_003(
    served: Served, http: httpx.Client, db: Path
) -> None:
    assert http.post(served.seats["Ben"] + "/hand", json={"points": 7, "never_out": True}).status_code == 200
    http.post(served.seats["Carl"] + "/hand", json={"points": 4})
    marked = http.post(served.scorekeeper + "/pending", json={"never_out": ["Carl"]})
    assert marked.status_code == 200
    with SessionService(db) as service:
        hands = service.pending(service.session("Friday")).hands
    assert hands["Ben"].never_out and hands["Carl"].never_out and hands["Carl"].typed_points == 4


# --- a finished game --------------------------------------------------------------------


def test_a_finished_game_takes_no_hand_at_any_door_rules_md_6(isolated_data_dir: Path) -> None:
    db = isolated_data_dir
    assert romme(db, "new", "Quick", "--until", "rounds:1", "Anna", "Ben")[0] == 0
    assert romme(db, "round", "--winner", "Anna", "Ben=5")[0] == 0
    status, _out, err, code = romme(db, "round", "--winner", "Anna", "Ben=H")
    assert status == 1 and code == "game-over" and "romme new" in err  # no hand is read after the end
    with SessionService(db) as service:
        with pytest.raises(GameOver):
            service.set_hand(service.session("Quick"), "Ben", Hand(points=5))


# --- romme round while the phones play --------------------------------------------------


def test_romme_round_saves_its_own_round_and_the_phones_round_goes_on_as_the_next(
    served: Served, http: httpx.Client, db: Path
) -> None:
    http.post(served.seats["Ben"] + "/hand", json={"points": 7})
    status, _out, err, _code = romme(db, "round", "--winner", "Anna", "Ben=5", "Carl=5", "Dora=5")
    assert status == 0 and "now counts as round 2" in err
    pending = http.get(served.board + "/state.json").json()["pending"]
    assert pending["hands"]["Ben"]["points"] == 7


# --- 002 section 6: one settlement ------------------------------------------------------


def test_the_phones_settle_as_romme_settle_does_002_section_6(
    served: Served, http: httpx.Client, db: Path
) -> None:
    romme(db, "round", "--winner", "Anna", "Ben=20", "Carl=5", "Dora=35")
    shown = http.get(served.board + "/state.json").json()["settlement"]
    _status, out, _err, _code = romme(db, "settle", "--json")
    settled = json.loads(out)
    assert [p["amount"] for p in shown["players"]] == [p["amount"] for p in settled["players"]]
    assert [(t["from"], t["to"], t["amount"]) for t in shown["transfers"]] == [
        (t["from"], t["to"], t["amount"]) for t in settled["transfers"]
    ]
    assert shown["unit"] == settled["unit"] == "0.01"


# --- errors as data ---------------------------------------------------------------------


def _error_classes() -> list[type[RommeError]]:
    import importlib
    import pkgutil

    import romme_score

    for module in pkgutil.walk_packages(romme_score.__path__, "romme_score."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)
    found: list[type[RommeError]] = []
    todo: list[type[RommeError]] = [RommeError]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return [c for c in found if c.__module__.startswith("romme_score")]


def test_every_error_has_a_stable_code_of_words() -> None:
    codes = {c.__name__: c.code for c in _error_classes()}
    for name, code in codes.items():
        assert code and code == code.lower() and " " not in code, name
    # the codes the phones' JSON and scripts rely on
    assert codes["HandInputError"] == "unreadable-hand"
    assert codes["PlayerChoiceError"] == "unknown-player"
    assert codes["GameOver"] == "game-over"
    assert codes["AlreadyOut"] == "already-out"
    assert codes["UnlikelyPoints"] == "unlikely_points"
    assert codes["NoCurrentSession"] == "no-current-session"


@pytest.mark.parametrize("module", ["romme_score/cli/hints.py", "romme_score/web/errors.py"])
def test_the_ways_out_are_tables_keyed_by_code_not_isinstance_ladders(module: str) -> None:
    tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
    calls = [
        n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "isinstance"
    ]
    assert not calls, f"{module} decides by class again"


def typing_at_the_table(service: SessionService) -> tuple[SessionInfo, RoundEntry, KeptRound]:
    """Friday's round as the table mode types it: the entry, kept as the round in progress."""
    info = service.session("Friday")
    entry = RoundEntry(service.referee(info))
    return info, entry, KeptRound(service, info, service.pending(info))


# --- one round in progress, whatever the door -------------------------------------------


def test_the_round_typed_at_the_table_is_the_round_in_progress_the_phones_see(db: Path) -> None:
    with SessionService(db) as service:
        info, entry, kept = typing_at_the_table(service)
        entry.answer("1")  # Anna went out
        kept.follow(entry)
        assert service.pending(info).winner == "Anna"
        entry.answer("HK K10")  # Ben's hand
        kept.follow(entry)
        service.set_hand(info, "Dora", Hand(points=4))  # a phone, meanwhile
        entry.answer("5")  # Carl's hand: Dora's stays as the phone sent it
        kept.follow(entry)
        pending = service.pending(info)
        assert pending.hands["Ben"].cards == "HK K10" and pending.hands["Carl"].typed_points == 5
        assert pending.hands["Dora"].typed_points == 4


def test_romme_round_i_starts_from_the_phones_hands_and_saves_them_with_its_own(db: Path) -> None:
    with SessionService(db) as service:
        service.set_hand(service.session("Friday"), "Ben", Hand(points=7))
    # the winner, then Carl's and Dora's hands (Ben's came from his phone), then Enter
    result = CliRunner().invoke(main, ["--lang", "en", "round", "-i", "--db", str(db)], input="1\n5\n6\n\n")
    assert result.exit_code == 0, result.output
    with SessionService(db) as service:
        info = service.session("Friday")
        assert dict(service.standings(info).totals) == {"Anna": 0, "Ben": 7, "Carl": 5, "Dora": 6}
        assert service.pending(info).empty


def test_a_round_given_up_at_the_table_is_forgotten_unless_the_phones_began_it(db: Path) -> None:
    result = CliRunner().invoke(main, ["--lang", "en", "round", "-i", "--db", str(db)], input="1\n5\n")
    assert result.exit_code == 1  # the input ended before Enter: nothing saved
    with SessionService(db) as service:
        info = service.session("Friday")
        assert service.pending(info).empty and service.standings(info).rounds_played == 0
        service.set_hand(info, "Ben", Hand(points=7))
    CliRunner().invoke(main, ["--lang", "en", "round", "-i", "--db", str(db)], input="1\n5\n")
    with SessionService(db) as service:
        kept = service.pending(service.session("Friday"))
        assert kept.hands["Ben"].typed_points == 7 and kept.winner == "Anna"  # the phones' round goes on


def test_the_pages_show_hand_romme_doubling_before_the_round_is_saved_rules_md_6(
    served: Served, http: httpx.Client
) -> None:
    http.post(served.seats["Ben"] + "/out", json={"hand_romme": True})
    http.post(served.seats["Anna"] + "/hand", json={"cards": "HK K10"})
    shown = http.get(served.board + "/state.json").json()["shown"]["pending"]
    assert shown["Anna"]["text"].endswith("×2 = 40 · not saved yet")


def test_a_tournament_table_that_played_its_games_points_to_the_ranking_not_romme_new(
    isolated_data_dir: Path,
) -> None:
    db = isolated_data_dir
    status = romme(db, "tournament", "new", "Cup", "A", "B", "C", "--games", "1", "--json")[0]
    assert status == 0
    drawn = json.loads(romme(db, "tournament", "draw", "--json")[1])
    session = str(drawn["tables"][0]["session"])
    assert romme(db, "round", "--session", session, "--winner", "1", "2=5", "3=6")[0] == 0
    status, _out, err, code = romme(db, "round", "--session", session, "--winner", "1", "2=5", "3=6")
    assert status == 1 and code == "game-over"
    assert "romme tournament standings" in err and "romme new" not in err
    with SessionService(db) as service:
        info = service.session(session)
        with pytest.raises(GameOver) as over:
            service.set_hand(info, info.players[1], Hand(points=5))
    from romme_score.views.web import error_sentence

    assert error_sentence(over.value, "game-over").endswith("the ranking is on the tournament's board")


def test_the_phones_take_no_state_a_round_cannot_be_saved_in_rules_md_6(
    served: Served, http: httpx.Client
) -> None:
    keeper = served.scorekeeper + "/pending"
    assert http.post(keeper, json={"stalemate": True}).status_code == 200
    refused = http.post(keeper, json={"hand_romme": True})  # a Hand-Rommé needs who went out
    assert refused.status_code == 409 and refused.json()["code"] == "no-winner"
    assert http.post(keeper, json={"winner": "Anna"}).status_code == 200
    held = http.post(keeper, json={"hands": {"Anna": 5}})  # the winner holds no cards here
    assert held.status_code == 400 and held.json()["code"] == "round-refused"
    answer = http.post(keeper, json={"hand_romme": True, "hands": {"Ben": "HK"}})
    assert answer.json()["score"]["points"]["Ben"] == 20  # the answer shows it as it will be saved


def test_a_finished_game_waits_for_no_hand_on_the_pages(isolated_data_dir: Path) -> None:
    db = isolated_data_dir
    romme(db, "new", "Quick", "--until", "rounds:1", "Anna", "Ben")
    romme(db, "round", "--winner", "Anna", "Ben=5")
    with in_process(db) as (links, _server), httpx.Client(timeout=10) as client:
        state = client.get(links.board + "/state.json").json()
    assert (
        state["pending"]["missing"] == [] and state["view"]["pending"] == "The game is over: no more rounds."
    )


def test_the_seats_reading_flags_points_no_hand_holds_as_sending_them_would_rules_md_3(
    served: Served, http: httpx.Client
) -> None:
    answer = http.get(served.seats["Ben"] + "/read", params={"cards": "300"})
    assert answer.status_code == 400 and answer.json()["problem"] == "too-many"
    assert http.get(served.seats["Ben"] + "/read", params={"cards": "160"}).json()["points"] == 160


# --- the round kept while typed: compare-and-set (a second review's findings) -----------


def test_a_phones_hand_sent_while_the_table_types_survives_the_tables_next_answers(db: Path) -> None:
    with SessionService(db) as service:
        info, entry, kept = typing_at_the_table(service)
        for line in ("1", "5"):  # Anna went out; Ben holds 5
            entry.answer(line)
            kept.follow(entry)
        service.set_hand(info, "Dora", Hand(points=12))  # Dora's phone, meanwhile
        entry.answer("7")  # Carl
        kept.follow(entry)
        hands = service.pending(info).hands
        assert hands["Dora"].typed_points == 12 and hands["Carl"].typed_points == 7
        assert entry.hands["Dora"].points == 12  # the entry was loaded with the phone's hand


def test_a_round_saved_by_the_scorekeeper_while_typed_is_not_saved_again(db: Path) -> None:
    with SessionService(db) as service:
        info, entry, kept = typing_at_the_table(service)
        for line in ("1", "5", "7", "3"):
            entry.answer(line)
            kept.follow(entry)
        service.save_pending(info)  # the scorekeeper's phone saves it
        entry.answer("2")  # the typist corrects Ben's hand
        entry.answer("6")
        with pytest.raises(TakenElsewhere):
            kept.follow(entry)
        assert service.standings(info).rounds_played == 1 and service.pending(info).empty


def test_giving_up_at_the_table_keeps_what_the_phones_sent_meanwhile(db: Path) -> None:
    with SessionService(db) as service:
        info = service.session("Friday")
        kept = KeptRound(service, info, service.pending(info))  # began empty
        service.declare_out(info, "Anna")  # phones, meanwhile
        service.set_hand(info, "Dora", Hand(points=12))
        assert kept.discard() is False
        pending = service.pending(info)
        assert pending.winner == "Anna" and pending.hands["Dora"].typed_points == 12


def test_a_stalemate_set_by_the_scorekeeper_while_the_table_marks_hand_romme_is_no_crash(db: Path) -> None:
    with SessionService(db) as service:
        info, entry, kept = typing_at_the_table(service)
        for line in ("1", "5", "7", "3"):
            entry.answer(line)
            kept.follow(entry)
        assert entry.step is Step.SUMMARY
        service.change_pending(info, stalemate=True)  # the scorekeeper's page
        entry.answer("h")
        kept.follow(entry)  # no exception: the entry shows the round as it now stands
        assert entry.stalemate and not service.pending(info).hand_romme
