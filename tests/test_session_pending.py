"""The round in progress through the session service (issue 19 item 3): hands arrive one by
one (from the phones), a seat goes out, the scorekeeper corrects, and saving goes through
the same checks and the same transaction as ``romme round``."""

from __future__ import annotations

from pathlib import Path

import pytest

from romme_score.inputs import read_hand
from romme_score.rules import GameEnd, find_preset
from romme_score.scoring import Hand, RoundError, RoundInput, StalemateWithWinner
from romme_score.sessions import GameOver, OutNoHand, PendingChanged, RoundIncomplete, SessionService

PLAYERS = ["Anna", "Ben", "Carl", "Dora"]


@pytest.fixture
def service(tmp_path: Path) -> SessionService:
    svc = SessionService(tmp_path / "pending.sqlite3")
    svc.create("Friday", PLAYERS, find_preset("standard"), None, None)
    return svc


def test_hands_arrive_one_by_one_and_the_round_is_saved_and_cleared(service: SessionService) -> None:
    info = service.session("Friday")
    service.set_hand(info, "Ben", read_hand("Ben", "HK K10 J"))
    service.declare_out(info, "Anna")
    service.set_hand(info, "Carl", read_hand("Carl", "12"))
    pending = service.pending(info)
    assert pending.winner == "Anna" and service.missing_hands(info, pending) == ["Dora"]
    with pytest.raises(RoundIncomplete) as incomplete:
        service.save_pending(info)
    assert incomplete.value.missing == ("Dora",) and not incomplete.value.no_winner
    assert service.standings(info).rounds_played == 0
    service.set_hand(info, "Dora", read_hand("Dora", "P3 P4"))
    saved = service.save_pending(info)
    assert saved.number == 1 and saved.score.points == {"Anna": 0, "Ben": 40, "Carl": 12, "Dora": 7}
    assert service.pending(info).empty
    assert dict(service.standings(info).totals) == {"Anna": 0, "Ben": 40, "Carl": 12, "Dora": 7}


def test_nobody_out_is_told_with_the_hands_still_missing(service: SessionService) -> None:
    info = service.session("Friday")
    service.set_hand(info, "Ben", Hand(points=3))
    with pytest.raises(RoundIncomplete) as incomplete:
        service.save_pending(info)
    assert incomplete.value.no_winner and incomplete.value.missing == ("Anna", "Carl", "Dora")


def test_a_hand_from_the_declared_winner_is_refused_issue_38_item_14(service: SessionService) -> None:
    """It no longer takes the claim back (it did before issue 38 item 14): who went out
    is changed by the scorekeeper."""
    info = service.session("Friday")
    service.set_hand(info, "Ben", Hand(points=5))
    pending = service.declare_out(info, "Ben", hand_romme=True)
    assert pending.winner == "Ben" and "Ben" not in pending.hands
    with pytest.raises(OutNoHand):
        service.set_hand(info, "Ben", Hand(points=5))
    pending = service.pending(info)
    assert pending.winner == "Ben" and pending.hand_romme and "Ben" not in pending.hands


def test_the_scorekeeper_sets_parts_and_a_stalemate_drops_the_winner(service: SessionService) -> None:
    info = service.session("Friday")
    service.declare_out(info, "Anna", hand_romme=True)
    pending = service.change_pending(info, hands={"Ben": Hand(points=20), "Carl": read_hand("Carl", "TA")})
    assert pending.winner == "Anna" and pending.hand_romme
    pending = service.change_pending(info, stalemate=True)
    assert pending.stalemate and pending.winner is None and not pending.hand_romme
    pending = service.change_pending(info, winner="Dora")
    assert pending.winner == "Dora" and not pending.stalemate
    pending = service.change_pending(info, hands={"Carl": None, "Anna": Hand(points=1)})
    assert set(pending.hands) == {"Ben", "Anna"}
    with pytest.raises(StalemateWithWinner):
        service.change_pending(info, winner="Ben", stalemate=True)
    with pytest.raises(RoundError, match="unknown player 'Eve'"):
        service.change_pending(info, hands={"Eve": Hand(points=1)})
    service.discard_pending(info)
    assert service.pending(info).empty and service.standings(info).rounds_played == 0


def test_a_hand_holding_a_card_more_often_than_the_packs_is_refused_as_it_arrives(
    service: SessionService,
) -> None:
    info = service.session("Friday")
    with pytest.raises(RoundError, match="Ben"):
        service.set_hand(info, "Ben", read_hand("Ben", "HK HK HK"))
    assert service.pending(info).empty


def test_saving_runs_the_round_checks_and_writes_nothing_when_they_refuse(service: SessionService) -> None:
    info = service.session("Friday")
    service.declare_out(info, "Anna")
    for name in ("Ben", "Carl"):
        service.set_hand(info, name, read_hand(name, "HK HK"))  # each hand alone is possible
    service.set_hand(info, "Dora", read_hand("Dora", "HK"))
    version = service.version(info)
    with pytest.raises(RoundError, match="do not add up"):  # five ♥K in two packs
        service.save_pending(info)
    assert service.standings(info).rounds_played == 0 and service.version(info) == version
    assert set(service.pending(info).hands) == {"Ben", "Carl", "Dora"}


def test_a_round_saved_from_a_stale_reading_is_refused(service: SessionService) -> None:
    info = service.session("Friday")
    service.declare_out(info, "Anna")
    read = service.pending(info)
    service.set_hand(info, "Ben", Hand(points=1))  # arrives after it was read
    with pytest.raises(PendingChanged):
        service.record(
            info, RoundInput("Anna", {p: Hand(points=0) for p in PLAYERS[1:]}), pending=read.revision
        )
    assert service.standings(info).rounds_played == 0


def test_the_game_over_refuses_the_round_in_progress(tmp_path: Path) -> None:
    with SessionService(tmp_path / "over.sqlite3") as service:
        rules = find_preset("standard").replace(game_end=GameEnd.parse("rounds:1"))
        info = service.create("Short", ["Anna", "Ben"], rules, None, None)
        service.record(info, RoundInput("Anna", {"Ben": Hand(points=3)}))
        with pytest.raises(GameOver):
            service.set_hand(info, "Ben", Hand(points=3))
        with pytest.raises(GameOver):
            service.save_pending(info)


def test_links_are_made_once_and_renewed_on_request(service: SessionService) -> None:
    info = service.session("Friday")
    counter = iter(range(100))

    def token() -> str:
        return f"t{next(counter)}"

    links = service.links(info, token)
    assert [(k.kind, k.player) for k in links] == [
        ("board", None),
        ("scorekeeper", None),
        *(("seat", p) for p in PLAYERS),
    ]
    assert service.links(info, token) == links
    renewed = service.links(info, token, renew=True)
    assert not {k.token for k in renewed} & {k.token for k in links}
