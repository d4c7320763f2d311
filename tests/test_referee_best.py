"""One referee function per question (issue 35 item 5): ``best`` and ``value`` are judged by
:mod:`romme_score.referee` for every door, which raises errors with codes and facts and
leaves the words to the door; the lone jokers' melds come in the solver's answer; the
core names no command-line option (item 6), the command line words its options."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from serving import Served, in_process

from romme_score import best as best_referee
from romme_score import referee
from romme_score.cards import Card, parse_cards
from romme_score.cli import main
from romme_score.cli.hints import with_hint
from romme_score.melds import Reason
from romme_score.rules import find_preset
from romme_score.sessions import SessionService, settle_evening
from romme_score.settlement import TooFewPlayers
from romme_score.solver import HandTooLarge

STANDARD = find_preset("standard")
STANDARD_RATE = Decimal("0.01")


def table(*texts: str) -> list[tuple[str, list[Card]]]:
    return [(text, parse_cards(text)) for text in texts]


def test_an_illegal_table_meld_is_refused_with_its_number_text_and_reason() -> None:
    with pytest.raises(best_referee.IllegalTableMeld) as caught:
        best_referee.judge_best(parse_cards("H2"), table("HK KK PK", "HK"), STANDARD)
    error = caught.value
    assert (error.number, error.text, error.code) == (2, "HK", "illegal-table-meld")
    assert isinstance(error.reason, Reason) and error.exit_code == 2


def test_an_illegal_table_meld_is_said_before_a_later_one_is_read() -> None:
    """The door reads its table melds lazily: the referee stops at the first illegal one."""
    read: list[str] = []

    def melds() -> Iterator[tuple[str, list[Card]]]:
        for text in ("HK", "HX"):
            read.append(text)
            yield text, parse_cards(text) if text == "HK" else []

    with pytest.raises(best_referee.IllegalTableMeld):
        best_referee.judge_best(parse_cards("H2"), melds(), STANDARD)
    assert read == ["HK"]


def test_more_cards_than_the_packs_hold_is_the_supply_rules_1() -> None:
    with pytest.raises(best_referee.SupplyExceeded) as caught:
        best_referee.judge_best(parse_cards("HK HK"), table("HK KK PK"), STANDARD)
    assert caught.value.code == "supply" and "♥K" in str(caught.value)


def test_a_hand_too_large_is_the_solvers_refusal() -> None:
    with pytest.raises(HandTooLarge):
        best_referee.judge_best(
            parse_cards("H2 H3 H4 H5 H6 H7 H8 H9 H10 HB HD HK HA K2 K3 K4 K5 K6 K7 K8 K9 K10"), (), STANDARD
        )


def test_the_lone_jokers_melds_come_in_the_solvers_answer_rules_5() -> None:
    verdict = best_referee.judge_best(parse_cards("J J T2"), table("HB HD HK"), STANDARD, came_out=True)
    best = verdict.best
    assert len(best.out_layoff_melds) == len(best.out_layoffs)
    lone = [m for move, m in zip(best.out_layoffs, best.out_layoff_melds, strict=True) if not move.cards]
    assert lone and all(m is not None and len(m.cards) == 5 for m in lone)
    natural = best_referee.judge_best(parse_cards("♥A ♥5 TK P9"), table("♥2 ♥3 ♥4"), STANDARD, came_out=True)
    assert natural.best.layoff_melds == (None,) * len(natural.best.layoffs)


def test_value_is_the_penalty_of_each_card_rules_3() -> None:
    rows = referee.judge_value(parse_cards("HK K10 J"), STANDARD)
    assert [points for _card, points in rows] == [10, 10, 20]


# --- the core's facts, the command line's words ------------------------------------------------


def test_a_question_clash_carries_the_questions_and_the_command_line_words_its_options() -> None:
    with pytest.raises(referee.QuestionClash) as first:
        referee.check_question(onto=True, first=True, not_out=False)
    assert first.value.facts() == {"question": "first", "other": "onto"}
    assert "--" not in str(first.value)
    assert with_hint(first.value).startswith("--first judges melds laid from the hand, --onto a lay-off")
    with pytest.raises(referee.QuestionClash) as not_out:
        referee.check_question(onto=False, first=False, not_out=True)
    assert not_out.value.facts() == {"question": "not_out", "other": "onto"}
    assert with_hint(not_out.value).startswith("--not-out goes with --onto")


def test_fewer_than_two_players_is_the_settlements_to_refuse_002_section_6() -> None:
    with pytest.raises(TooFewPlayers) as caught:
        settle_evening([{"Anna": 10}], [STANDARD_RATE])
    assert caught.value.players == 1
    result = CliRunner().invoke(main, ["--lang", "en", "settle", "Anna=10"])
    assert result.exit_code == 2
    assert "a settlement needs at least two players, e.g. A=220 B=360" in result.output


# --- every door the same verdict ------------------------------------------------------------


@pytest.fixture
def db(isolated_data_dir: Path) -> Path:
    with SessionService(isolated_data_dir) as service:
        service.create("Friday", ["Anna", "Ben", "Carl"], STANDARD, None, "EUR")
    return isolated_data_dir


@pytest.fixture
def served(db: Path) -> Iterator[Served]:
    with in_process(db) as (links, _server):
        yield links


@pytest.mark.parametrize("came_out", [False, True])
@pytest.mark.parametrize("hand", ["P3 P4 P5 TB PB HB H9 K2", "J J J P9 K2 K3 K4"])
def test_the_phones_best_says_what_romme_best_says(
    db: Path, served: Served, hand: str, came_out: bool
) -> None:
    """Both through :func:`romme_score.best_referee.judge_best`; the phone worded a hand that has
    come out as one that has not before issue 35."""
    args = ["--lang", "en", "best", hand, "--db", str(db), *(["--came-out"] if came_out else [])]
    line = CliRunner().invoke(main, args)
    assert line.exit_code == 0, line.output
    params = {"hand": hand, **({"came_out": "1"} if came_out else {})}
    with httpx.Client(timeout=10) as http:
        answer = http.get(served.seats["Ben"] + "/best", params=params, headers={"Accept-Language": "en"})
    assert answer.status_code == 200
    assert answer.json()["text"] in line.output
