"""Sheets a referee can add up (issue 29 item 5, "Sheets a referee can add up"): every
game's marks as the terminal's scoresheet shows them (``*`` went out, ``H`` Hand-Rommé,
``s`` stalemate, ``-N`` the winner bonus actually struck), and a footnote that explains a
bonus capped at the winner's points (RULES.md §7, 002 i: a total never goes below 0)."""

from __future__ import annotations

import json
import re
from html import unescape

from clirun import ok

from romme_score.tournament import Game
from romme_score.views.tournament_sheets import mark


def games_row(html: str, number: int) -> list[str]:
    """The cells of game ``number`` of the first sheet, as text."""
    rows = re.findall(r'<tr><td class="game">(.*?)</tr>', html)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", '<td class="game">' + rows[number - 1])
    return [unescape(c) for c in cells]


def test_sheets_mark_went_out_hand_romme_stalemate_and_the_bonus_struck_issue_29() -> None:
    ok(
        "tournament",
        "new",
        "Cup",
        "Anna",
        "Ben",
        "Carl",
        "--games",
        "4",
        "--seed",
        "1",
        "--rule",
        "winner_bonus=10",
    )
    table = json.loads(ok("tournament", "draw", "--json"))["tables"][0]
    session, (first, second, third) = table["session"], table["players"]
    # game 1: the first goes out with no points before: no bonus struck (0, capped)
    ok("round", "--session", session, "--winner", first, f"{second}=4", f"{third}=30")
    # game 2: the second goes out holding 4 before: the bonus of 10 is capped at 4
    ok("round", "--session", session, "--winner", second, f"{first}=12", f"{third}=5")
    # game 3: a stalemate: every player pays what they hold
    ok("round", "--session", session, "--stalemate", f"{first}=5", f"{second}=5", f"{third}=5")
    # game 4: a Hand-Rommé by the third, who holds 35 before: the whole bonus (20) is struck
    ok("round", "--session", session, "--winner", third, "--hand-romme", f"{first}=3", f"{second}=2")
    html = ok("tournament", "sheets")
    assert games_row(html, 1)[2:] == ["0 *", "4", "30"]
    assert games_row(html, 2)[2:] == ["12", "0 *-4", "5"]
    assert games_row(html, 3)[0] == "3 s" and games_row(html, 3)[2:] == ["5", "5", "5"]
    hand_romme = games_row(html, 4)[2:]
    assert hand_romme[2] == "0 *H-20"
    # each column adds up by hand to the Augen total: the points less every -N
    standings = json.loads(ok("standings", "--session", session, "--json"))
    totals = {p["name"]: p["total"] for p in standings["players"]}
    assert totals[second] == 4 - 4 + 5 + 2 * 2
    footer = re.search(r'<tfoot>\s*<tr><td colspan="2" class="left">Augen</td>(.*?)</tr>', html)
    assert footer is not None
    assert [unescape(c) for c in re.findall(r"<td>(.*?)</td>", footer.group(1))] == [
        str(totals[p]) for p in (first, second, third)
    ]
    notes = " ".join(unescape(n) for n in re.findall(r'<p class="note[^"]*">(.*?)</p>', html))
    assert "* went out, H Hand-Rommé, -N bonus struck, s stalemate; the points" in notes
    assert "never more than the winner's points before the game" in notes
    german = ok("--lang", "de", "tournament", "sheets")
    assert "nie mehr als die Punkte, die der Gewinner vor dem Spiel hatte" in unescape(german)


def test_no_capped_bonus_no_footnote_about_it_issue_29() -> None:
    ok(
        "tournament",
        "new",
        "Cup",
        "Anna",
        "Ben",
        "Carl",
        "--games",
        "2",
        "--seed",
        "1",
        "--rule",
        "winner_bonus=0",
    )
    table = json.loads(ok("tournament", "draw", "--json"))["tables"][0]
    ok("round", "--session", table["session"], "--winner", "1", "2=4", "3=30")
    assert "never more than the winner's points" not in ok("tournament", "sheets")


def test_a_cell_as_the_terminal_marks_it_issue_29() -> None:
    game = Game("Anna", False, {"Anna": 0, "Ben": 12}, {"Anna": 7})
    assert [mark(game, "Anna"), mark(game, "Ben")] == ["0 *-7", "12"]
    assert mark(Game(None, False, {"Anna": 5}, {}, stalemate=True), "Anna") == "5"
