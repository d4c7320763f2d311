"""Issue 21 item 12: a message quotes a long value shortened, with its length, so that
a 10 MB rate, winner, rule value, unknown rule, history status or card string gives one
line of readable size, not a 10-20 MB "sentence"."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from clirun import ok, run

from romme_score.i18n import shown, using_language

HUGE = 1_000_000  # on the command line and in imports; the shortening is the same at 10 MB
LONG = "x" * HUGE
MARK = "(10,000,000 characters)"


def test_shown_quotes_a_short_value_whole_and_a_long_one_shortened() -> None:
    with using_language("en"):
        assert shown("HX") == "'HX'"
        assert shown("x" * 10_000_000) == "'" + "x" * 40 + "…' " + MARK
        assert shown("x" * 10_000_000, quote=False) == "x" * 40 + "… " + MARK
        assert shown([1] * 100).endswith("… (300 characters)")
    with using_language("de"):
        assert shown("x" * 10_000_000).endswith("(10.000.000 Zeichen)")


def short_refusal(args: list[str], code: int = 2) -> str:
    got, out, err = run(*args)
    assert got == code, err[:300]
    assert len(err) < 1000 and len(out) < 1000, (args[:3], err[:300])
    assert re.search(r"…'? \([\d,]+ characters\)", err), err[:300]
    return err


@pytest.fixture
def friday() -> None:
    ok("new", "Friday", "Anna", "Ben")


@pytest.mark.parametrize(
    "args",
    [
        ["new", "X", "A", "B", "--rate", LONG],
        ["new", "X", "A", "B", "--rate", "0." + "1" * HUGE],
        ["round", "--winner", LONG, "Ben=5"],
        ["round", "--winner", "Anna", "Ben=" + "H" + "X" * HUGE],
        ["round", "--winner", "Anna", LONG + "=5"],
        ["round", "--winner", "Anna", "Ben=-" + "5" * HUGE],
        ["round", "--winner", "Anna", "Ben=" + "5" * HUGE],
        ["check", "H" + LONG],
        ["check", "--rule", "wraparound=" + LONG, "HK"],
        ["check", "--rule", "first_meld_min=" + LONG, "HK"],
        ["check", "--rule", LONG + "=1", "HK"],
        ["check", "--rule", LONG, "HK"],
        ["check", "--preset", LONG, "HK"],
        ["new", "X", "A", "B", "--until", LONG],
        ["standings", "--session", LONG],
        ["settle", LONG],
        ["settle", "A=" + "1" * HUGE, "B=1"],
        ["stats", "--player", LONG],
        ["stats", "--since", LONG],
    ],
    ids=lambda args: " ".join(a if len(a) < 20 else "LONG" for a in args),
)
def test_a_long_value_on_the_command_line_is_quoted_shortened(friday: None, args: list[str]) -> None:
    short_refusal(args, 1 if args[0] == "standings" else 2)


def export_of_friday(tmp_path: Path) -> dict[str, Any]:
    ok("round", "--winner", "Anna", "Ben=5")
    path = tmp_path / "friday.json"
    ok("export", "-o", str(path))
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def put(data: dict[str, Any], where: str, value: Any) -> dict[str, Any]:
    """A copy of the export with ``value`` at ``where`` (keys and list indexes by dots)."""
    copy: dict[str, Any] = json.loads(json.dumps(data))
    *path, last = where.split(".")
    node = copy
    for key in path:
        node = node[int(key)] if isinstance(node, list) else node[key]
    node[int(last) if isinstance(node, list) else last] = value
    return copy


@pytest.mark.parametrize(
    "where",
    [
        "rate",
        "first_dealer",
        "rounds.0.winner",
        "rounds.0.hands.Ben.cards",
        "rules.wraparound",
        "rules.game_end",
        "rules.ace_penalty",
        "history",
    ],
)
def test_a_long_value_in_an_import_is_quoted_shortened(friday: None, tmp_path: Path, where: str) -> None:
    data = export_of_friday(tmp_path)
    if where == "history":  # a history status
        data["history"] = [dict(data["rounds"][0], row=5, status=LONG)]
    else:
        data = put(data, where, LONG if where != "rules.ace_penalty" else [0] * (HUGE // 3))
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**data, "name": "Other"}), encoding="utf-8")
    short_refusal(["import", str(path)])
    assert "Other" not in ok("sessions")


def test_a_long_rule_name_in_an_import_is_quoted_shortened(friday: None, tmp_path: Path) -> None:
    data = export_of_friday(tmp_path)
    data["rules"][LONG] = 1
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    short_refusal(["import", str(path)])


def test_a_long_unknown_command_in_a_script_line_is_quoted_shortened(friday: None) -> None:
    code, _, err = run("play", "Friday", input="x" * 60_000 + "\n")
    assert code == 1 and len(err) < 1000 and "(60,000 characters)" in err
