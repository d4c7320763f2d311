"""The round entry of the table mode as a state machine, without a terminal (issue 9
item 2), and the views that must fit the window."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from romme_score.inputs import PlayerChoiceError, choose_player
from romme_score.rules import RuleSet, find_preset
from romme_score.scoring import GameState, Hand, RoundError, RoundInput, RoundScore, places, score_round
from romme_score.sessions import RoundReferee, RoundRow, SessionRefused, Standings
from romme_score.sessions.reads import running_totals
from romme_score.table.entry import RoundEntry, Step
from romme_score.views import play as views

PLAYERS = ("Anna", "Ben", "Carl", "Dora")


def entry(
    rules: RuleSet | None = None,
    players: tuple[str, ...] = PLAYERS,
    totals: Mapping[str, int] | None = None,
    dealer: str | None = None,
) -> RoundEntry:
    rules = rules or find_preset("standard")
    referee = RoundReferee(
        players, rules, lambda r: score_round(players, totals or {}, r, rules), dealer=dealer
    )
    return RoundEntry(referee)


def step(e: RoundEntry) -> Step:
    return e.step  # read afresh after each answer


def feed(e: RoundEntry, *lines: str) -> RoundEntry:
    for line in lines:
        e.answer(line)
    return e


# --- the winner ----------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["2", "b", "B", "be", "ben", " Ben "])
def test_winner_by_number_prefix_or_name(typed: str) -> None:
    assert choose_player(typed, PLAYERS) == "Ben"


def test_ambiguous_prefix_is_asked_again_naming_the_candidates() -> None:
    e = feed(entry(players=("Anna", "Andi", "Ben")), "an")
    assert step(e) is Step.WINNER and e.message is not None
    assert "could be Anna or Andi" in e.message
    assert e.default == ""  # issue 20 item 3: the line starts empty, so 'ann' is not 'anann'
    assert feed(e, "ann").winner == "Anna"


def test_misspelt_winner_gets_did_you_mean() -> None:
    with pytest.raises(PlayerChoiceError, match="did you mean Ben"):
        choose_player("bne", PLAYERS)
    with pytest.raises(PlayerChoiceError, match="no seat 5"):
        choose_player("5", PLAYERS)


def test_hands_are_asked_in_seating_order_from_the_winners_left() -> None:
    e = feed(entry(), "3")
    assert step(e) is Step.HAND and e.current == "Dora"
    assert e.hand_order() == ["Dora", "Anna", "Ben"]


def test_stalemate_asks_every_hand_from_the_dealers_left_003() -> None:
    e = feed(entry(dealer="Ben"), "0")
    assert e.stalemate and e.winner is None and e.hand_order() == ["Carl", "Dora", "Anna", "Ben"]
    feed(e, "5", "6", "7", "8")
    assert step(e) is Step.SUMMARY and e.score is not None
    assert e.score.points == {"Anna": 7, "Ben": 8, "Carl": 5, "Dora": 6}


def test_stalemate_where_nobody_scores_asks_no_hand_001() -> None:
    e = feed(entry(find_preset("basic")), "stalemate")
    assert step(e) is Step.SUMMARY and e.score is not None and set(e.score.points.values()) == {0}


# --- the hands ------------------------------------------------------------------------


def test_three_hands_of_two_cards_in_at_most_25_keystrokes() -> None:
    lines = ["1", "HK K10", "P7 P8", "T2 T3", ""]
    e = feed(entry(), *lines)
    keystrokes = sum(len(line) + 1 for line in lines)  # each line ends with Enter
    assert step(e) is Step.DONE and keystrokes <= 25
    assert e.round_input().hands["Ben"].cards is not None


def test_unreadable_card_asks_that_hand_again_on_an_empty_line() -> None:
    e = feed(entry(), "a", "HK K10", "HX 5")
    assert step(e) is Step.HAND and e.current == "Carl" and e.default == ""  # typing is no 'HX 5...'
    assert e.message is not None and "cannot read card 'HX'" in e.message
    feed(e, "HK 5")
    assert e.message is not None and "cannot read card '5'" in e.message
    feed(e, "H5", "12")
    assert step(e) is Step.SUMMARY and e.texts == {"Ben": "HK K10", "Carl": "H5", "Dora": "12"}


@pytest.mark.parametrize("typed, needle", [("", "type the cards left"), ("-5", "cannot be negative")])
def test_empty_or_negative_hand_is_asked_again(typed: str, needle: str) -> None:
    e = feed(entry(), "a", typed)
    assert step(e) is Step.HAND and e.current == "Ben" and e.message and needle in e.message


def test_a_card_more_often_than_the_pack_holds_sends_back_to_that_hand_001() -> None:
    e = feed(entry(find_preset("basic")), "a", "HK P2", "HK", "T3")
    assert step(e) is Step.HAND and e.current == "Carl" and e.default == "HK"
    assert e.message is not None and "Carl" in e.message and "♥K appears 2 times" in e.message
    assert e.texts["Ben"] == "HK P2" and e.texts["Dora"] == "T3"  # everything else kept
    feed(e, "HD")
    assert step(e) is Step.SUMMARY


def test_more_jokers_than_in_play_send_back_to_the_hand_that_overflows() -> None:
    e = feed(entry(), "a", "J J J", "J J J", "J")
    assert step(e) is Step.HAND and e.current == "Dora"
    assert e.message is not None and "7 jokers, more than are in play (jokers in play: 6)" in e.message


def test_game_over_is_the_services_refusal_and_reaches_the_front() -> None:
    def refuse(_: RoundInput) -> RoundScore:
        raise SessionRefused("the game of session 'F' is over")

    e = RoundEntry(RoundReferee(PLAYERS, find_preset("standard"), refuse))
    feed(e, "a", "1", "2")
    with pytest.raises(SessionRefused):
        e.answer("3")


def test_a_round_the_service_refuses_goes_back_to_the_winner_keeping_the_hands() -> None:
    def refuse(_: RoundInput) -> RoundScore:
        raise RoundError("who went out?")

    e = feed(RoundEntry(RoundReferee(PLAYERS, find_preset("standard"), refuse)), "a", "1", "2", "3")
    assert step(e) is Step.WINNER and e.message and "cannot be saved" in e.message
    assert len(e.hands) == 3


# --- the summary ----------------------------------------------------------------------


def summary() -> RoundEntry:
    return feed(entry(), "a", "HK K10", "P7 P8", "5")


def test_correct_any_hand_by_its_number_keeping_the_others() -> None:
    e = feed(summary(), "3")
    # asked on an empty line, the hand it replaces said above it and recalled by Up (issue 38 item 13)
    assert step(e) is Step.HAND and e.current == "Carl" and e.default == "" and e.recall == "P7 P8"
    assert e.message is not None and "3 Carl had P7 P8" in e.message
    feed(e, "P9")
    assert step(e) is Step.SUMMARY and e.score is not None
    assert e.score.points == {"Anna": 0, "Ben": 20, "Carl": 9, "Dora": 5}


def test_the_winners_number_says_how_to_change_the_winner() -> None:
    e = feed(summary(), "1")
    assert step(e) is Step.SUMMARY and e.message and "'w'" in e.message


def test_h_toggles_hand_romme_and_doubles_the_others_002() -> None:
    e = feed(summary(), "h")
    assert e.hand_romme and e.score is not None and e.score.points["Ben"] == 40
    feed(e, "h")
    assert not e.hand_romme and e.score is not None and e.score.points["Ben"] == 20


def test_s_turns_the_round_into_a_stalemate_and_asks_the_winners_hand_003() -> None:
    e = feed(summary(), "h", "s")
    assert e.stalemate and not e.hand_romme and step(e) is Step.HAND and e.current == "Anna"
    feed(e, "HA")
    assert step(e) is Step.SUMMARY and e.score is not None and e.score.points["Anna"] == 11
    feed(e, "s")
    assert step(e) is Step.WINNER
    feed(e, "b")
    assert step(e) is Step.SUMMARY and e.winner == "Ben" and not e.stalemate
    assert e.score is not None and e.score.points["Ben"] == 0 and e.score.points["Anna"] == 11


def test_n_marks_never_out_which_doubles_where_the_rules_say_003() -> None:
    e = feed(
        entry(find_preset("standard").replace(never_out_doubles=True)), "a", "HK K10", "P7 P8", "5", "n4"
    )
    assert e.score is not None and e.score.points["Dora"] == 10
    assert e.message and "Dora marked as never out" in e.message
    assert e.round_input().hands["Dora"].never_out
    feed(e, "n4")
    assert e.score is not None and e.score.points["Dora"] == 5


def test_w_chooses_another_winner_and_asks_the_old_winners_hand() -> None:
    e = feed(summary(), "w", "c")
    assert e.winner == "Carl" and step(e) is Step.HAND and e.current == "Anna"
    feed(e, "T2")
    assert step(e) is Step.SUMMARY and e.score is not None
    assert e.score.points == {"Anna": 2, "Ben": 20, "Carl": 0, "Dora": 5}


def test_unknown_key_at_the_summary_lists_the_keys() -> None:
    e = feed(summary(), "x")
    assert step(e) is Step.SUMMARY and e.message and "Enter=save" in e.message


def test_enter_saves_the_round_as_shown() -> None:
    e = feed(summary(), "h", "")
    assert step(e) is Step.DONE
    assert e.round_input() == RoundInput(
        "Anna", {"Ben": e.hands["Ben"], "Carl": e.hands["Carl"], "Dora": Hand(points=5)}, True, False
    )


# --- the views fit the window -----------------------------------------------------------


def six_player_standings() -> Standings:
    players = ("Annegret", "Bartholomäus", "Christiane", "Dorothea", "Emil", "Friedrich")
    rows = [
        RoundRow(
            n,
            players[n % 6],
            n == 3,
            False,
            {p: (0 if p == players[n % 6] else 10 * n + i) for i, p in enumerate(players)},
            {players[n % 6]: 20 if n == 3 else 10},
            {},
        )
        for n in range(1, 9)
    ]
    totals = {p: 100 + i for i, p in enumerate(players)}
    return Standings(
        "Friday",
        players,
        find_preset("standard"),
        rows,
        8,
        totals,
        None,
        GameState(False, None),
        "Emil",
        places(totals),
        running_totals(players, rows, totals),
        players[5],
        395,
    )


@pytest.mark.parametrize("width", [60, 80])
def test_panel_and_toolbar_fit_six_players(width: int) -> None:
    s = six_player_standings()
    panel = views.render_panel(s, width)
    assert max(len(line) for line in panel.splitlines()) <= width
    assert "0 *H-20" in panel  # Hand-Rommé and bonus marks
    assert "Next to deal: Emil" in panel and "395 to go until 500" in panel
    assert len(views.toolbar_text(s, width)) <= width
    head = panel.splitlines()[1]
    assert ("Christiane" in head) == (width == 80)  # cut names only where needed
