"""The round in progress decided by the service (issue 35 item 1): one call
(:meth:`SessionService.change_round`) applies a change at the round a door showed, checks
the game is open once, merges with what other doors wrote, and answers the round with the
hands still missing in seating order, whether it can be saved and its provisional score;
each change has a ``verify_*`` (raises with facts) and a ``can_*`` (yes or no) twin, as
pokerkit has them. Run against SQLite and, where ``tools/with_postgres.py`` gives a server,
PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import httpx
import pytest
from pgtest import fresh_database
from serving import Served, in_process

from romme_score.errors import RommeError
from romme_score.inputs import read_hand
from romme_score.rules import GameEnd, find_preset
from romme_score.scoring import Hand, NoWinner, RoundInput
from romme_score.sessions import (
    AlreadyOut,
    GameOver,
    GivenTwice,
    OutNoHand,
    PendingRound,
    RoundChange,
    RoundIncomplete,
    RoundTaken,
    SessionInfo,
    SessionService,
    TypedHand,
    UnlikelyPoints,
    hand_given,
    went_out,
)
from romme_score.store.records import PendingHand

PLAYERS = ("Anna", "Ben", "Carl", "Dora")


@contextmanager
def sqlite_db(tmp_path: Path) -> Iterator[str]:
    yield str(tmp_path / "progress.sqlite3")


@contextmanager
def postgres_db(tmp_path: Path) -> Iterator[str]:
    with fresh_database() as url:
        yield url


BACKENDS: dict[str, Callable[[Path], AbstractContextManager[str]]] = {
    "sqlite": sqlite_db,
    "postgres": postgres_db,
}


@pytest.fixture(params=sorted(BACKENDS))
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with BACKENDS[request.param](tmp_path) as location:
        yield location


@pytest.fixture
def service(db: str) -> Iterator[SessionService]:
    with SessionService(db) as svc:
        svc.create("Friday", PLAYERS, find_preset("standard"), None, None)
        svc.create("Basic", PLAYERS, find_preset("basic"), None, None)
        yield svc


def friday(service: SessionService) -> SessionInfo:
    return service.session("Friday")


# --- the hands still missing, in seating order --------------------------------------------


@pytest.mark.parametrize(
    "winner, missing",
    [
        ("Anna", ("Ben", "Carl", "Dora")),
        ("Carl", ("Dora", "Anna", "Ben")),
        ("Dora", ("Anna", "Ben", "Carl")),
    ],
)
def test_hands_missing_are_in_seating_order_from_the_winners_left(
    service: SessionService, winner: str, missing: tuple[str, ...]
) -> None:
    state = service.change_round(friday(service), went_out(winner))
    assert state.missing == missing and not state.can_save


def test_after_a_stalemate_the_hands_missing_begin_at_the_dealers_left_003(service: SessionService) -> None:
    info = friday(service)
    service.record(
        info, RoundInput("Anna", {"Ben": Hand(points=5), "Carl": Hand(points=6), "Dora": Hand(points=7)})
    )
    # Anna dealt the first round, Ben deals the second: Carl sits at his left
    state = service.change_round(info, RoundChange(stalemate=True))
    assert state.missing == ("Carl", "Dora", "Anna", "Ben")


def test_a_stalemate_where_nobody_scores_misses_no_hand_and_can_be_saved_001(service: SessionService) -> None:
    state = service.change_round(service.session("Basic"), RoundChange(stalemate=True))
    assert state.missing == () and state.can_save and state.score is not None
    assert set(state.score.points.values()) == {0}


def test_the_answer_scores_the_round_as_it_would_be_saved_missing_hands_as_0(service: SessionService) -> None:
    info = friday(service)
    service.change_round(info, went_out("Anna", hand_romme=True))
    state = service.change_round(info, hand_given("Ben", read_hand("Ben", "HK K10")))
    assert state.score is not None and state.score.points["Ben"] == 40 and state.score.points["Carl"] == 0
    assert state.missing == ("Carl", "Dora")
    assert isinstance(state.unsaved, RoundIncomplete) and state.unsaved.missing == ("Carl", "Dora")
    for player in ("Carl", "Dora"):
        state = service.change_round(info, hand_given(player, Hand(points=3)))
    assert state.can_save and state.unsaved is None
    assert service.save_pending(info).score.points == state.score.points  # type: ignore[union-attr]


# --- one call, merged with what other doors wrote ---------------------------------------------


def test_a_change_made_from_an_older_round_goes_on_top_of_another_doors_write(
    service: SessionService,
) -> None:
    info = friday(service)
    seen = service.change_round(info, went_out("Anna")).round  # what the table shows
    service.change_round(info, hand_given("Dora", Hand(points=4)))  # Dora's phone, meanwhile
    state = service.change_round(info, RoundChange(hands=(("Ben", Hand(points=5)),)), seen=seen)
    assert state.merged and state.overruled is None
    assert {p: h.typed_points for p, h in state.round.hands.items()} == {"Ben": 5, "Dora": 4}
    assert state.round.winner == "Anna"


def test_where_another_doors_write_rules_the_change_out_theirs_stays_and_the_answer_says_so(
    service: SessionService,
) -> None:
    info = friday(service)
    seen = service.change_round(info, went_out("Anna")).round
    theirs = service.change_round(info, RoundChange(stalemate=True)).round  # the scorekeeper's page
    state = service.change_round(info, RoundChange(hand_romme=True), seen=seen)
    assert state.merged and isinstance(state.overruled, NoWinner)
    assert state.round == theirs and not state.round.hand_romme


def test_a_change_from_a_round_that_was_saved_meanwhile_is_refused(service: SessionService) -> None:
    info = friday(service)
    service.change_round(info, went_out("Anna"))
    for player in ("Ben", "Carl", "Dora"):
        seen = service.change_round(info, hand_given(player, Hand(points=2))).round
    service.save_pending(info)  # the scorekeeper's phone
    with pytest.raises(RoundTaken):
        service.change_round(info, RoundChange(hands=(("Ben", Hand(points=6)),)), seen=seen)
    assert service.pending(info).empty and service.standings(info).rounds_played == 1


def test_the_game_over_is_checked_by_the_one_call_before_a_hand_is_read(db: str) -> None:
    with SessionService(db) as service:
        service.create(
            "Quick",
            ("Anna", "Ben"),
            find_preset("standard").replace(game_end=GameEnd.parse("rounds:1")),
            None,
            None,
        )
        info = service.session("Quick")
        service.record(info, RoundInput("Anna", {"Ben": Hand(points=5)}))
        with pytest.raises(GameOver):
            service.change_round(info, hand_given("Ben", TypedHand("HX")))  # unreadable: not read


# --- refusals of the service, not of the doors ---------------------------------------------


def test_a_hand_given_twice_under_two_spellings_is_refused_by_the_service(service: SessionService) -> None:
    info = friday(service)
    change = RoundChange(hands=(("Carl", Hand(points=1)), ("Carl", Hand(points=2))))
    with pytest.raises(GivenTwice):
        service.change_round(info, change)
    assert not service.can_change(info, change) and service.pending(info).empty


def test_a_never_out_mark_for_a_hand_already_in_is_merged_by_the_service(service: SessionService) -> None:
    info = friday(service)
    service.change_round(info, hand_given("Ben", read_hand("Ben", "HK K10")))
    state = service.change_round(info, RoundChange(never_out=frozenset({"Ben", "Carl"})))
    assert state.round.hands["Ben"].never_out and state.round.hands["Ben"].cards == "HK K10"
    assert "Carl" not in state.round.hands  # a player without a hand is not marked


def test_a_hand_from_the_seat_that_went_out_is_refused_till_the_scorekeeper_changes_it_issue_38_item_14(
    service: SessionService,
) -> None:
    """Ben's phone said he went out: a hand from it is refused (it no longer takes his claim
    back), nothing written, until the scorekeeper names another winner."""
    info = friday(service)
    service.change_round(info, went_out("Ben", hand_romme=True))
    assert service.closed_seats(info) == ["Ben"]
    with pytest.raises(OutNoHand) as refused:
        service.change_round(info, hand_given("Ben", Hand(points=5)))
    assert refused.value.code == "out-no-hand" and refused.value.player == "Ben"
    now = service.pending(info)
    assert now.winner == "Ben" and now.hand_romme and "Ben" not in now.hands
    service.change_round(info, RoundChange(winner="Anna"))  # the scorekeeper's change
    assert service.closed_seats(info) == ["Anna"]
    state = service.change_round(info, hand_given("Ben", Hand(points=5)))
    assert state.round.winner == "Anna" and state.round.hands["Ben"].typed_points == 5


# --- each change's twins agree -------------------------------------------------------------------


def out_of(winner: str | None, stalemate: bool = False) -> PendingRound:
    return PendingRound(revision=1, winner=winner, stalemate=stalemate)


TWINS: list[
    tuple[
        str,
        Callable[[SessionService, SessionInfo], object],
        Callable[[SessionService, SessionInfo], bool],
        bool,
    ]
] = [
    (
        "a likely hand",
        lambda s, i: s.verify_hand(i, "Ben", Hand(points=20)),
        lambda s, i: s.can_hand(i, "Ben", Hand(points=20)),
        True,
    ),
    (
        "unlikely points",
        lambda s, i: s.verify_hand(i, "Ben", Hand(points=151)),
        lambda s, i: s.can_hand(i, "Ben", Hand(points=151)),
        False,
    ),
    (
        "unlikely points confirmed",
        lambda s, i: s.verify_hand(i, "Ben", Hand(points=151), confirm=True),
        lambda s, i: s.can_hand(i, "Ben", Hand(points=151), confirm=True),
        True,
    ),
    (
        "going out first",
        lambda s, i: s.verify_out(i, "Ben", out_of(None)),
        lambda s, i: s.can_go_out(i, "Ben", out_of(None)),
        True,
    ),
    (
        "going out after another's claim",
        lambda s, i: s.verify_out(i, "Ben", out_of("Anna")),
        lambda s, i: s.can_go_out(i, "Ben", out_of("Anna")),
        False,
    ),
    (
        "a hand from a seat while another went out",
        lambda s, i: s.verify_seat_hand(i, "Ben", out_of("Anna")),
        lambda s, i: s.can_seat_hand(i, "Ben", out_of("Anna")),
        True,
    ),
    (
        "a hand from the seat that went out",
        lambda s, i: s.verify_seat_hand(i, "Ben", out_of("Ben")),
        lambda s, i: s.can_seat_hand(i, "Ben", out_of("Ben")),
        False,
    ),
    (
        "hand-romme with a winner",
        lambda s, i: s.verify_hand_romme(i, out_of("Anna")),
        lambda s, i: s.can_hand_romme(i, out_of("Anna")),
        True,
    ),
    (
        "hand-romme needs a winner",
        lambda s, i: s.verify_hand_romme(i, out_of(None)),
        lambda s, i: s.can_hand_romme(i, out_of(None)),
        False,
    ),
    (
        "no hand-romme in a stalemate",
        lambda s, i: s.verify_hand_romme(i, out_of(None, stalemate=True)),
        lambda s, i: s.can_hand_romme(i, out_of(None, stalemate=True)),
        False,
    ),
    (
        "saving without a winner",
        lambda s, i: s.verify_save(i, out_of(None)),
        lambda s, i: s.can_save(i, out_of(None)),
        False,
    ),
    (
        "saving a whole round",
        lambda s, i: s.verify_save(
            i, PendingRound(1, "Anna", hands={p: read_pending(p) for p in ("Ben", "Carl", "Dora")})
        ),
        lambda s, i: s.can_save(
            i, PendingRound(1, "Anna", hands={p: read_pending(p) for p in ("Ben", "Carl", "Dora")})
        ),
        True,
    ),
    (
        "a stalemate with a winner",
        lambda s, i: s.verify_change(i, RoundChange(winner="Ben", stalemate=True)),
        lambda s, i: s.can_change(i, RoundChange(winner="Ben", stalemate=True)),
        False,
    ),
    (
        "hand-romme set in a stalemate",
        lambda s, i: s.verify_change(i, RoundChange(hand_romme=True), out_of(None, stalemate=True)),
        lambda s, i: s.can_change(i, RoundChange(hand_romme=True), out_of(None, stalemate=True)),
        False,
    ),
]


def read_pending(player: str) -> PendingHand:
    return PendingHand(None, 3)


@pytest.mark.parametrize("verify, can, allowed", [t[1:] for t in TWINS], ids=[t[0] for t in TWINS])
def test_each_verify_and_can_twin_agree(
    service: SessionService,
    verify: Callable[[SessionService, SessionInfo], object],
    can: Callable[[SessionService, SessionInfo], bool],
    allowed: bool,
) -> None:
    info = friday(service)
    assert can(service, info) is allowed
    if allowed:
        verify(service, info)
    else:
        with pytest.raises(RommeError):
            verify(service, info)


def test_the_twins_refuse_with_facts(service: SessionService) -> None:
    info = friday(service)
    with pytest.raises(AlreadyOut) as out:
        service.verify_out(info, "Ben", out_of("Anna"))
    assert out.value.code == "already-out"
    with pytest.raises(UnlikelyPoints) as unlikely:
        service.verify_hand(info, "Ben", Hand(points=151))
    assert unlikely.value.player == "Ben" and unlikely.value.points == 151
    with pytest.raises(NoWinner) as romme:
        service.verify_hand_romme(info, out_of(None, stalemate=True))
    assert romme.value.hand_romme


# --- the edit preview ------------------------------------------------------------------------


def test_the_edit_preview_is_what_edit_then_saves(service: SessionService) -> None:
    info = friday(service)
    service.record(
        info, RoundInput("Anna", {"Ben": Hand(points=30), "Carl": Hand(points=6), "Dora": Hand(points=7)})
    )
    service.record(
        info, RoundInput("Ben", {"Anna": Hand(points=5), "Carl": Hand(points=8), "Dora": Hand(points=9)})
    )
    corrected = RoundInput(
        "Carl", {"Anna": Hand(points=12), "Ben": Hand(points=4), "Dora": Hand(points=2)}, True
    )
    preview = service.preview_edit(info, 2, corrected)
    edited = service.edit(info, 2, corrected.hands, corrected.winner, corrected.hand_romme, False)
    assert preview == edited.score


# --- the phones only parse, call and word -------------------------------------------------------


@pytest.fixture
def phones_db(tmp_path: Path) -> Path:
    path = tmp_path / "phones.sqlite3"
    with SessionService(path) as service:
        service.create("Friday", PLAYERS, find_preset("standard"), None, None)
    return path


@pytest.fixture
def phones(phones_db: Path) -> Iterator[Served]:
    with in_process(phones_db) as (links, _server):
        yield links


def test_the_phones_get_the_services_refusal_of_a_player_given_twice(phones: Served) -> None:
    with httpx.Client(timeout=10) as http:
        answer = http.post(phones.scorekeeper + "/pending", json={"hands": {"carl": 1, "Carl": 2}})
        assert answer.status_code == 400 and answer.json()["code"] == "bad-input"
        assert "Carl" in answer.json()["error"]
        held = http.get(phones.board + "/state.json").json()["pending"]["hands"]
    assert held["Carl"] is None  # nothing stored


def test_the_phones_never_out_mark_for_a_hand_already_in_is_merged_by_the_service(
    phones: Served, phones_db: Path
) -> None:
    with httpx.Client(timeout=10) as http:
        assert http.post(phones.seats["Ben"] + "/hand", json={"cards": "HK K10"}).status_code == 200
        answer = http.post(phones.scorekeeper + "/pending", json={"never_out": ["ben"]})
        assert answer.status_code == 200
    assert answer.json()["hands"]["Ben"]["points"] == 20
    with SessionService(phones_db) as service:
        assert service.pending(service.session("Friday")).hands["Ben"].never_out
