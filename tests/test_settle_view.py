"""The settlement says whether its transfers are proven the fewest (issue: any size)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from romme_score.cli import main


def settle(*totals: str) -> tuple[str, dict[str, object]]:
    text = CliRunner().invoke(main, ["settle", *totals])
    data = CliRunner().invoke(main, ["settle", *totals, "--json"])
    assert text.exit_code == 0 and data.exit_code == 0, text.output
    return text.stdout, json.loads(data.stdout)


def test_small_table_is_proven_minimal_002() -> None:
    text, data = settle("A=220", "B=360", "C=140", "D=490")
    assert data["transfers_minimal"] is True and "the fewest possible" in text


def test_forty_players_say_not_proven_minimal() -> None:
    totals = [f"P{i}={(i * 37) % 101 + i}" for i in range(40)]
    text, data = settle(*totals)
    assert data["transfers_minimal"] is False and "not proven minimal" in text
    transfers = data["transfers"]
    assert isinstance(transfers, list) and len(transfers) <= 39


def test_settle_over_two_tables_whose_players_never_met_issue_21() -> None:
    """The README's way to settle an evening over two tables: Anna and Carl never sat at
    the same table, so their cell says so instead of failing (it was a KeyError, exit 70)."""
    from clirun import ok, run

    ok("new", "A", "Anna", "Ben")
    ok("round", "--winner", "Anna", "Ben=5")
    ok("new", "B", "Carl", "Dora")
    ok("round", "--winner", "Carl", "Dora=7")
    out = ok("settle", "--session", "A", "--session", "B")
    assert "vs Carl        ·      ·              -7" in out
    assert "·: these two never played at the same table." in out
    code, ascii_out, _err = run("--lang", "de", "settle", "--session", "A", "--session", "B", "--ascii")
    assert code == 0 and ".: diese beiden haben nie am selben Tisch gespielt." in ascii_out
    data = json.loads(ok("settle", "--session", "A", "--session", "B", "--json"))
    assert {(p["winner"], p["loser"]) for p in data["pairs"]} == {("Anna", "Ben"), ("Carl", "Dora")}
