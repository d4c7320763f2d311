"""``romme check HK KK PK`` in a shell (issue 30 item 8): the shell hands check three
arguments, three one-card melds, and check judges them so; where every argument is one
card and together they make one meld, the answer ends with the way to say that meld.
The referee returns that meld as a fact (``Verdict.together``); the hint is its view."""

from __future__ import annotations

import json

import pytest
from clirun import ok, run

from romme_score.cards import parse_cards
from romme_score.referee import judge_melds
from romme_score.rules import build_rules


@pytest.mark.parametrize(
    ("lang", "hint"),
    [
        ("en", "meant as one meld? quote it: romme check 'HK KK PK'"),
        ("de", "als eine Auslage gemeint? Setz sie in Anführungszeichen: romme check 'HK KK PK'"),
    ],
)
def test_one_card_melds_that_make_one_meld_end_with_the_quoting_hint_issue30_item8(
    lang: str, hint: str
) -> None:
    code, out, _err = run("--lang", lang, "check", "HK", "KK", "PK")
    assert code == 1  # still three one-card melds, none legal
    lines = out.strip().splitlines()
    assert len([line for line in lines if line[:2] in ("1.", "2.", "3.")]) == 3
    assert lines[-1] == hint


def test_the_referee_returns_the_meld_one_card_melds_make_together_issue30_item8() -> None:
    rules = build_rules("standard")
    texts = ["H7", "H8", "J"]
    verdict = judge_melds(texts, [parse_cards(t) for t in texts], rules)
    assert not verdict.valid and verdict.together is not None and verdict.together.value == 24
    texts = ["H7", "H8"]
    assert judge_melds(texts, [parse_cards(t) for t in texts], rules).together is None
    # no hint where the cards make no meld, or a meld was quoted
    assert "quote it" not in run("check", "HK", "KK", "P7")[1]  # together no meld either
    assert "quote it" not in run("check", "HK", "KK")[1]
    assert "quote it" not in run("check", "HK KK PK")[1]
    assert "quote it" not in run("check", "HK", "KK PK")[1]  # not every argument one card
    data = json.loads(ok("check", "HK KK PK", "--json"))
    assert data["valid"] is True


def test_a_play_script_line_gets_the_hint_as_romme_check_gives_it_issue30_item8() -> None:
    ok("new", "Freitag", "Anna", "Ben")
    code, out, _err = run("play", "Freitag", input="check HK KK PK\n")
    assert code == 1 and out.strip().splitlines()[-1] == "meant as one meld? quote it: romme check 'HK KK PK'"
