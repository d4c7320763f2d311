"""Tables without money (issue 29 item 4, "Tables without money"): a tournament's table
games carry no rate; ``romme settle --session`` of such a game and its phone pages say
that the money of a tournament is its pot and name ``romme tournament payout``
(RULES.md §10 "Money"); nothing is written."""

from __future__ import annotations

import json
from html import unescape
from pathlib import Path

from clirun import ok, run

from romme_score.cli.service import open_service


def drawn_and_played() -> str:
    ok("tournament", "new", "Cup", "Anna", "Ben", "Carl", "--games", "2", "--seed", "1", "--entry-fee", "5")
    session = str(json.loads(ok("tournament", "draw", "--json"))["tables"][0]["session"])
    ok("round", "--session", session, "--winner", "1", "2=40", "3=25")
    return session


def test_settling_a_tournament_table_is_refused_and_names_the_payout_issue_29() -> None:
    session = drawn_and_played()
    before = ok("standings", "--session", session, "--json")
    for extra in ((), ("--rate", "0.05")):
        code, out, err = run("settle", "--session", session, *extra)
        assert code == 1 and out == ""
        assert err.strip() == (
            f"Error: session '{session}' is a table of tournament 'Cup': its games carry no money, "
            "the money of a tournament is its pot: "
            "'romme tournament payout' shows what each player paid in and receives"
        )
    code, _out, err = run("settle", "--session", session, "--session", session, "--json")
    assert code == 1 and "romme tournament payout" in err
    assert ok("standings", "--session", session, "--json") == before
    code, _out, err = run("--lang", "de", "settle", "--session", session)
    assert code == 1 and "romme tournament payout" in err and "Topf" in err


def test_a_game_of_its_own_is_still_settled_issue_29() -> None:
    drawn_and_played()
    ok("new", "Friday", "Anna", "Ben")
    ok("round", "--session", "Friday", "--winner", "Anna", "Ben=40")
    assert "Ben pays Anna" in ok("settle", "--session", "Friday")


def test_a_tables_snapshot_carries_no_settlement_but_its_tournament_issue_29() -> None:
    session = drawn_and_played()
    with open_service(None, create=False) as service:
        snap = service.snapshot(service.session(session))
    assert snap.settled is None and snap.tournament == "Cup"


def test_a_report_of_a_table_keeps_its_games_and_carries_no_money_issue_29(tmp_path: Path) -> None:
    session = drawn_and_played()
    target = tmp_path / "table.html"
    ok("report", "--session", session, "-o", str(target))
    page = unescape(target.read_text(encoding="utf-8"))
    assert "No money at this table: the money of tournament 'Cup' is its pot." in page
    assert "'romme tournament payout'" in page and "pays" not in page
    assert "data-amount" not in page  # no settlement table
