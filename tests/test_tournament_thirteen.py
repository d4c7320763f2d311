"""Issue 22's "Done means": a tournament of 13 players over three series of six games,
seated by lot for series 1 and by the standings after it, wertung scoring, a Hand-Rommé,
a stalemate, a corrected game, a withdrawal before series 3, an entry fee, a lost-game
fee and three prizes. Every figure below was worked out by hand from the games as
typed (the comments show the sums), not copied from the program's output.

Wertung (RULES.md §10 defaults): a win 5, a Hand-Rommé 8, a loser 3 for at most 10
Augen, 2 for at most 20, 1 for at most 30, else 0; the Augen after any doubling.
"""

from __future__ import annotations

import json
import random
from typing import Any

from clirun import ok, run

PLAYERS = "Anna Ben Carl Dora Emil Fritz Gerd Hanna Ilse Jonas Karl Lena Moritz".split()
START = {name: n for n, name in enumerate(PLAYERS, 1)}

# A game: (seat of the winner, or 0 for a stalemate; the others' points by seat; Hand-Rommé)
Game = tuple[int, dict[int, int], bool]


def game(winner: int, *points: int, hr: bool = False) -> Game:
    """The others' points in seat order, skipping the winner's seat."""
    seats = [s for s in range(1, len(points) + 2) if s != winner]
    return winner, dict(zip(seats, points, strict=True)), hr


def record(session: str, games: list[Game]) -> None:
    for winner, points, hr in games:
        args = ["round", "--session", session, *[f"{seat}={p}" for seat, p in points.items()]]
        args += ["--stalemate"] if winner == 0 else ["--winner", str(winner)]
        ok(*args, *(["--hand-romme"] if hr else []))


def standings(*args: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ok("tournament", "standings", *args, "--json"))
    return data


def results(data: dict[str, Any]) -> dict[str, tuple[int, list[int | None], int]]:
    return {p["name"]: (p["place"], p["series"], p["total"]) for p in data["players"]}


def seating(drawn: dict[str, Any]) -> list[list[str]]:
    return [t["players"] for t in drawn["tables"]]


def test_thirteen_players_three_series_wertung_withdrawal_correction_and_prizes() -> None:
    ok(
        "tournament", "new", "Cup", *PLAYERS,
        "--series", "3", "--games", "6", "--seating", "standings", "--scoring", "wertung",
        "--seed", "2026", "--entry-fee", "10", "--lost-game-fee", "0.50",
        "--prizes", "40%,25%,15%", "--currency", "EUR",
    )  # fmt: skip

    # --- series 1, by lot: random.Random("2026:1") shuffles the start numbers 1-13 ------------
    drawn = json.loads(ok("tournament", "draw", "--json"))
    order = list(range(1, 14))
    random.Random("2026:1").shuffle(order)
    assert order == [10, 11, 6, 7, 3, 8, 1, 9, 13, 5, 4, 2, 12]
    assert drawn == {
        "tournament": "Cup",
        "series": 1,
        "tables": [  # 13 = 4 + 3 + 3 + 3, the table of four first
            {"table": 1, "session": "Cup S1 T1", "players": ["Jonas", "Karl", "Fritz", "Gerd"]},
            {"table": 2, "session": "Cup S1 T2", "players": ["Carl", "Hanna", "Anna"]},
            {"table": 3, "session": "Cup S1 T3", "players": ["Ilse", "Moritz", "Emil"]},
            {"table": 4, "session": "Cup S1 T4", "players": ["Dora", "Ben", "Lena"]},
        ],
        "missing": [],  # a forced draw lists the tables it went past
    }
    # Wertung per game in the comments, seat by seat.
    record(
        "Cup S1 T1",  # Jonas, Karl, Fritz, Gerd
        [
            game(1, 5, 15, 40),  # 5 3 2 0
            game(2, 25, 8, 12),  # 1 5 3 2
            game(1, 8, 12, 20, hr=True),  # Hand-Rommé, doubled to 16 24 40: 8 2 1 0
            game(3, 30, 50, 10),  # 1 0 5 3
            game(4, 10, 20, 35),  # 3 2 0 5
            game(1, 31, 9, 21),  # 5 0 3 1
        ],  # Jonas 23, Karl 12, Fritz 14, Gerd 11
    )
    record(
        "Cup S1 T2",  # Carl, Hanna, Anna
        [
            game(1, 10, 20),  # 5 3 2
            game(2, 15, 45),  # 2 5 0
            game(3, 5, 30),  # 3 1 5
            game(1, 22, 3),  # 5 1 3
            game(1, 60, 11),  # 5 0 2
            game(2, 2, 18),  # 3 5 2
        ],  # Carl 23, Hanna 15, Anna 14
    )
    record(
        "Cup S1 T3",  # Ilse, Moritz, Emil
        [
            game(2, 12, 7),  # 2 5 3
            game(3, 40, 28),  # 0 1 5
            game(3, 19, 10),  # 2 3 5
            game(1, 33, 16),  # 5 0 2
            game(2, 6, 26),  # 3 5 1
            game(3, 14, 55),  # 2 0 5
        ],  # Ilse 14, Moritz 14, Emil 21
    )
    record(
        "Cup S1 T4",  # Dora, Ben, Lena
        [
            game(1, 20, 31),  # 5 2 0
            game(3, 4, 29),  # 3 1 5
            game(2, 21, 9),  # 1 5 3
            game(1, 13, 44),  # 5 2 0
            game(3, 17, 30),  # 2 1 5
            game(1, 8, 25),  # 5 3 1
        ],  # Dora 21, Ben 14, Lena 14
    )
    after_one = standings("--series", "1")
    assert after_one["series_played"] == 1 and after_one["missing"] == []
    assert results(after_one) == {
        "Carl": (1, [23], 23),
        "Jonas": (1, [23], 23),
        "Dora": (3, [21], 21),
        "Emil": (3, [21], 21),
        "Hanna": (5, [15], 15),
        "Anna": (6, [14], 14),  # six players on 14 share place 6 ...
        "Ben": (6, [14], 14),
        "Fritz": (6, [14], 14),
        "Ilse": (6, [14], 14),
        "Lena": (6, [14], 14),
        "Moritz": (6, [14], 14),
        "Karl": (12, [12], 12),  # ... and the next place is 12
        "Gerd": (13, [11], 11),
    }

    # --- series 2, by the standings (equal places in the order of the start numbers) ---------
    drawn = json.loads(ok("tournament", "draw", "--json"))
    assert seating(drawn) == [
        ["Carl", "Jonas", "Dora", "Emil"],  # places 1, 1, 3, 3: table 1, seat 1 the best
        ["Hanna", "Anna", "Ben"],
        ["Fritz", "Ilse", "Lena"],
        ["Moritz", "Karl", "Gerd"],
    ]
    record(
        "Cup S2 T1",  # Carl, Jonas, Dora, Emil
        [
            game(1, 10, 20, 30),  # 5 3 2 1
            game(2, 40, 5, 15),  # 0 5 3 2
            (0, {1: 12, 2: 8, 3: 33, 4: 27}, False),  # a stalemate: 2 3 0 1, nobody wins
            game(3, 9, 19, 29),  # 3 2 5 1
            game(4, 20, 35, 11),  # 2 0 2 5
            game(1, 14, 3, 50),  # 5 2 3 0
        ],  # Carl 17, Jonas 15, Dora 15, Emil 10
    )
    record(
        "Cup S2 T2",  # Hanna, Anna, Ben
        [
            game(1, 5, 25),  # 5 3 1
            game(2, 12, 7),  # 2 5 3
            game(3, 30, 31),  # 1 0 5 (Anna's 31 is corrected to 13 below)
            game(2, 2, 18),  # 3 5 2
            game(2, 40, 10),  # 0 5 3
            game(1, 22, 6),  # 5 1 3
        ],  # Hanna 16, Anna 19, Ben 17
    )
    table_3 = [
        game(1, 15, 15),  # 5 2 2
        game(1, 9, 32),  # 5 3 0
        game(3, 18, 24),  # 2 1 5
        game(2, 10, 10),  # 3 5 3
        game(1, 45, 28),  # 5 0 1
        game(3, 35, 1),  # 0 3 5
    ]  # Fritz 20, Ilse 14, Lena 16
    record("Cup S2 T3", table_3[:4])  # Fritz, Ilse, Lena
    record(
        "Cup S2 T4",  # Moritz, Karl, Gerd
        [
            game(2, 10, 20),  # 3 5 2
            game(3, 30, 3),  # 1 3 5
            game(1, 12, 12),  # 5 2 2
            game(2, 25, 40),  # 1 5 0
            game(3, 8, 38),  # 3 0 5
            game(1, 20, 21),  # 5 2 1
        ],  # Moritz 18, Karl 17, Gerd 15
    )
    code, _, err = run("tournament", "draw")
    assert code == 1
    assert "table 3 of series 2 has played 4 of 6 games" in err and "--force" in err
    assert standings()["missing"] == [
        {"series": 2, "table": 3, "session": "Cup S2 T3", "played": 4, "games": 6}
    ]
    record("Cup S2 T3", table_3[4:])
    before = results(standings())
    assert before["Anna"] == (5, [14, 19], 33) and before["Fritz"] == (4, [14, 20], 34)

    # --- a corrected game: Anna had 13 in game 3 at S2 T2, not 31 (0 -> 2 points) ------------
    ok("edit", "3", "--session", "Cup S2 T2", "2=13")
    after_two = standings()
    assert results(after_two) == {
        "Carl": (1, [23, 17], 40),
        "Jonas": (2, [23, 15], 38),
        "Dora": (3, [21, 15], 36),
        "Anna": (4, [14, 21], 35),  # ahead of Fritz at once
        "Fritz": (5, [14, 20], 34),
        "Moritz": (6, [14, 18], 32),
        "Ben": (7, [14, 17], 31),
        "Emil": (7, [21, 10], 31),
        "Hanna": (7, [15, 16], 31),
        "Lena": (10, [14, 16], 30),
        "Karl": (11, [12, 17], 29),
        "Ilse": (12, [14, 14], 28),
        "Gerd": (13, [11, 15], 26),
    }

    # --- Emil withdraws before series 3: 12 players, 4 + 4 + 4 --------------------------------
    withdrawn = json.loads(ok("tournament", "withdraw", "Cup", "Emil", "--json"))
    assert withdrawn == {"tournament": "Cup", "start": 5, "player": "Emil", "after_series": 2}
    drawn = json.loads(ok("tournament", "draw", "--json"))
    assert seating(drawn) == [
        ["Carl", "Jonas", "Dora", "Anna"],
        ["Fritz", "Moritz", "Ben", "Hanna"],  # Ben, (Emil,) Hanna share place 7
        ["Lena", "Karl", "Ilse", "Gerd"],
    ]
    record(
        "Cup S3 T1",  # Carl, Jonas, Dora, Anna
        [
            game(4, 10, 20, 30),  # 3 2 1 5
            game(3, 15, 5, 45),  # 2 3 5 0
            game(2, 25, 12, 9),  # 1 5 2 3
            game(4, 40, 11, 7),  # 0 2 3 5
            game(1, 30, 31, 20),  # 5 1 0 2
            game(3, 50, 18, 2),  # 0 2 5 3
        ],  # Carl 11, Jonas 15, Dora 16, Anna 18
    )
    record(
        "Cup S3 T2",  # Fritz, Moritz, Ben, Hanna
        [
            game(1, 5, 15, 25),  # 5 3 2 1
            game(3, 10, 40, 20),  # 3 0 5 2
            game(4, 33, 8, 19),  # 0 3 2 5
            game(2, 12, 28, 6),  # 2 5 1 3
            game(3, 21, 14, 41),  # 1 2 5 0
            game(1, 30, 9, 16),  # 5 1 3 2
        ],  # Fritz 16, Moritz 14, Ben 18, Hanna 13
    )
    record(
        "Cup S3 T3",  # Lena, Karl, Ilse, Gerd
        [
            game(1, 10, 10, 10),  # 5 3 3 3
            game(2, 20, 30, 40),  # 2 5 1 0
            game(3, 15, 25, 35),  # 2 1 5 0
            game(4, 5, 50, 17),  # 3 0 2 5
            game(1, 22, 8, 13),  # 5 1 3 2
            game(2, 60, 29, 3),  # 0 5 1 3
        ],  # Lena 17, Karl 15, Ilse 15, Gerd 13
    )

    final = standings()
    assert final["scoring"] == "wertung" and final["series_played"] == 3 and final["missing"] == []
    assert results(final) == {
        "Anna": (1, [14, 21, 18], 53),  # Anna and Jonas share place 1 ...
        "Jonas": (1, [23, 15, 15], 53),
        "Dora": (3, [21, 15, 16], 52),  # ... so the next is place 3
        "Carl": (4, [23, 17, 11], 51),
        "Fritz": (5, [14, 20, 16], 50),
        "Ben": (6, [14, 17, 18], 49),
        "Lena": (7, [14, 16, 17], 47),
        "Moritz": (8, [14, 18, 14], 46),
        "Hanna": (9, [15, 16, 13], 44),
        "Karl": (9, [12, 17, 15], 44),
        "Ilse": (11, [14, 14, 15], 43),
        "Gerd": (12, [11, 15, 13], 39),
        "Emil": (13, [21, 10, None], 31),  # withdrawn: his two series count, the third is empty
    }
    by_name = {p["name"]: p for p in final["players"]}
    assert by_name["Emil"]["withdrawn"] is True and by_name["Emil"]["start"] == 5
    assert [p["start"] for p in final["players"]] == [1, 10, 4, 3, 6, 2, 12, 13, 8, 11, 9, 7, 5]

    # --- the money ------------------------------------------------------------------------------
    # Games not won: 12 players x 18 games + Emil's 12 = 228 seats, 65 games won (66 games, one
    # a stalemate), so 163 lost games at 0.50 = 81.50; entry fees 13 x 10 = 130; pot 211.50.
    # Anna and Jonas share places 1 and 2: (40 % + 25 %) / 2 = 32.5 % of 211.50 = 68.7375 each;
    # Dora, place 3: 15 % = 31.725. Prizes 169.20, kept 42.30. In cents, rounded down:
    # 68.73 + 68.73 + 31.72 + 42.30 = 211.48; the 2 cents left go to the largest remainders,
    # Anna's and Jonas's 0.75 (Dora's is 0.5): 68.74, 68.74, 31.72, 42.30 = 211.50.
    paid = json.loads(ok("tournament", "payout", "--json"))
    assert paid == {
        "pot": "211.50",
        "kept": "42.30",
        "players": [
            # paid = 10 + 0.50 x games not won (18 played, wins counted from the games above)
            {"name": "Anna", "place": 1, "paid": "16.00", "receives": "68.74"},  # 6 wins
            {"name": "Jonas", "place": 1, "paid": "16.50", "receives": "68.74"},  # 5 wins
            {"name": "Dora", "place": 3, "paid": "16.00", "receives": "31.72"},  # 6 wins
            {"name": "Carl", "place": 4, "paid": "16.00", "receives": "0.00"},  # 6 wins (a stalemate lost)
            {"name": "Fritz", "place": 5, "paid": "16.00", "receives": "0.00"},  # 6 wins
            {"name": "Ben", "place": 6, "paid": "17.00", "receives": "0.00"},  # 4 wins
            {"name": "Lena", "place": 7, "paid": "16.00", "receives": "0.00"},  # 6 wins
            {"name": "Moritz", "place": 8, "paid": "16.50", "receives": "0.00"},  # 5 wins
            {"name": "Hanna", "place": 9, "paid": "16.50", "receives": "0.00"},  # 5 wins
            {"name": "Karl", "place": 9, "paid": "16.50", "receives": "0.00"},  # 5 wins
            {"name": "Ilse", "place": 11, "paid": "17.50", "receives": "0.00"},  # 3 wins
            {"name": "Gerd", "place": 12, "paid": "17.00", "receives": "0.00"},  # 4 wins
            {"name": "Emil", "place": 13, "paid": "14.00", "receives": "0.00"},  # 12 played, 4 wins
        ],
    }
    amounts = [p["paid"] for p in paid["players"]]
    assert sum(map(float, amounts)) == 211.50
    text = ok("tournament", "payout")
    assert "211.50" in text and "68.74" in text and "42.30" in text and "Not final" not in text
    code, _, err = run("tournament", "draw")
    assert code == 1 and "all 3 series" in err
