"""The seed-rule options of RULES.md §5/§6 at the command line: `check --onto --not-out`
(003 "Joker tauschen", 003 "Anlegen beim Rauskommen") and winner cards (002 e/f)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from romme_score.cli import main


def run(*args: str) -> tuple[int, dict[str, object] | str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    if "--json" in args and result.exit_code in (0, 1):
        return result.exit_code, json.loads(result.stdout)
    return result.exit_code, result.stderr or result.stdout


@pytest.mark.parametrize(
    "extra, code, reason",
    [
        ((), 0, None),
        (("--not-out",), 1, "joker-swap-before-coming-out"),
        (("--not-out", "--rule", "joker_swap=anytime"), 0, None),
        (("--rule", "joker_swap=never"), 1, "joker-swap-forbidden"),
    ],
)
def test_joker_swap_003_joker_tauschen_at_the_command_line(
    extra: tuple[str, ...], code: int, reason: str | None
) -> None:
    got, data = run("check", "--onto", "♥9 J ♥B", "♥10", "--json", *extra)
    assert got == code and isinstance(data, dict)
    onto = data["onto"]
    assert isinstance(onto, dict) and onto["reason"] == reason


@pytest.mark.parametrize(
    "extra, code",
    [
        (("--not-out",), 1),
        (("--not-out", "--rule", "first_meld_layoff=true"), 0),
    ],
)
def test_layoff_before_coming_out_003_anlegen_beim_rauskommen(extra: tuple[str, ...], code: int) -> None:
    got, _ = run("check", "--onto", "♥2 ♥3 ♥4", "♥5", "--json", *extra)
    assert got == code


def test_not_out_needs_onto() -> None:
    code, err = run("check", "--not-out", "HK KK PK")
    assert code == 2 and "--not-out goes with --onto" in str(err)


def test_skat_order_set_swap_002_b() -> None:
    code, data = run("check", "--preset", "classic", "--onto", "T9 J K9", "P9", "--json")
    assert code == 0 and isinstance(data, dict)
    onto = data["onto"]
    assert isinstance(onto, dict) and onto["freed_jokers"] == 1


@pytest.mark.parametrize(
    "rule, winner_cards, code",
    [
        ((), "HK H3", 2),
        (("--rule", "call_out_max=10"), "H2 H3", 0),
        (("--rule", "call_out_max=10"), "HK H3", 2),
        (("--rule", "color_romme=3"), "H2 H5 H9", 0),
        (("--rule", "color_romme=3"), "H2 H5 P9", 2),
    ],
)
def test_winner_cards_need_002_e_or_f(rule: tuple[str, ...], winner_cards: str, code: int) -> None:
    assert run("new", "S", "Anna", "Ben", *rule)[0] == 0
    got, out = run("round", "--winner", "Anna", f"Anna={winner_cards}", "Ben=5")
    assert got == code, out
