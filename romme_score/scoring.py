"""Penalty points of a hand and of a round, the winner bonus, the end of a game (docs/rules.md §6-§7).

>>> from romme_score.cards import parse_cards
>>> from romme_score.rules import find_preset
>>> hand_penalty(parse_cards("HK K10 J"), find_preset("standard"))
40
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from romme_score.cards import Card
from romme_score.errors import InputProblem
from romme_score.i18n import _, ngettext
from romme_score.inputs import Hand as Hand  # read by the input layer; imported from here too
from romme_score.inputs import HandInputError, HandProblem, unknown_player
from romme_score.rules import RuleSet, rule_name


class RoundError(InputProblem):
    """A round that cannot be recorded as given (unknown player, a card too often, ...)."""

    code = "round-refused"


class StalemateWithWinner(RoundError):
    """A round given both a winner and a stalemate."""

    def __init__(self) -> None:
        super().__init__(_("a stalemate round has no winner"))


class NoWinner(RoundError):
    """Nobody went out, and it is no stalemate; ``hand_romme``: a Hand-Rommé was declared."""

    def __init__(self, hand_romme: bool = False) -> None:
        if hand_romme:
            super().__init__(_("a Hand-Rommé needs the winner: who went out?"))
        else:
            super().__init__(_("who went out? a round needs its winner, or a stalemate"))
        self.hand_romme = hand_romme


class MissingHands(RoundError):
    """Players whose hand the round needs but was not given."""

    def __init__(self, missing: Sequence[str]) -> None:
        super().__init__(_("no hand given for %(players)s") % {"players": ", ".join(missing)})
        self.missing = tuple(missing)


def hand_penalty(cards: Sequence[Card], rules: RuleSet) -> int:
    """Penalty value of the cards left in a hand (§3)."""
    from romme_score.melds import penalty_value  # the referee: loaded once a card is counted

    return sum(penalty_value(card, rules) for card in cards)


# Natural cards one hand can hold at the most: 13 dealt, the first player's 14th, and one
# drawn; a hand counted by hand above what these and every joker are worth is a typo.
MOST_CARDS_IN_HAND = 15
# Points counted by hand above which the table is asked whether it meant them (Carl=320
# for 32): rarely held, though possible (issue 20 item 16).
UNLIKELY_POINTS = 150


@functools.lru_cache(maxsize=64)
def most_points_in_hand(rules: RuleSet) -> int:
    """The most penalty points one hand can hold under ``rules``: its
    :data:`MOST_CARDS_IN_HAND` highest natural cards of the packs in play, and every joker
    (worked out once per rule set: every hand a phone sends is checked against it).

    >>> from romme_score.rules import find_preset
    >>> most_points_in_hand(find_preset("standard"))  # 8 aces, 7 tens or faces, 6 jokers
    278
    """
    from romme_score.cards import SUITS, Rank
    from romme_score.melds import penalty_value

    naturals = sorted(
        (
            penalty_value(Card(rank, suit), rules)
            for rank in Rank
            for suit in SUITS
            for _pack in range(rules.packs)
        ),
        reverse=True,
    )
    return sum(naturals[:MOST_CARDS_IN_HAND]) + rules.jokers * rules.joker_penalty


def check_counted(player: str, hand: Hand, rules: RuleSet) -> Hand:
    """``hand`` as it is, unless its points counted by hand are more than any hand holds
    under ``rules`` (:func:`most_points_in_hand`): then :class:`~romme_score.inputs.HandInputError`."""
    most = most_points_in_hand(rules)
    if hand.points is not None and hand.points > most:
        raise HandInputError(
            HandProblem.TOO_MANY,
            player,
            str(hand.points),
            _(
                "%(player)s=%(points)d: no hand holds more than %(most)d points under these rules "
                "(the 15 highest cards and every joker in play); did you mean %(hint)s?"
            )
            % {
                "player": player,
                "points": hand.points,
                "most": most,
                "hint": _likely(hand.points, most),
            },
        )
    return hand


def _likely(points: int, most: int) -> str:
    """What a typo of one digit too many probably meant: 320 for 32."""
    meant = points
    while meant > most:
        meant //= 10
    return str(meant)


def unlikely_points(hand: Hand, rules: RuleSet) -> bool:
    """Whether a hand counted by hand holds more than :data:`UNLIKELY_POINTS` (a typo?)."""
    return hand.points is not None and hand.points > min(UNLIKELY_POINTS, most_points_in_hand(rules))


def hand_points(hand: Hand, rules: RuleSet) -> int:
    """A hand's points before any doubling: its cards' penalty, or the points counted by hand."""
    if hand.cards is not None:
        return hand_penalty(hand.cards, rules)
    return hand.points or 0


class RoundInput(NamedTuple):
    """A round as the table reports it."""

    winner: str | None
    hands: Mapping[str, Hand]
    hand_romme: bool = False
    stalemate: bool = False


class RoundScore(NamedTuple):
    """A round's result: penalty added per player, bonus struck from the winner."""

    points: dict[str, int]
    base: dict[str, int]
    multiplier: dict[str, int]
    bonus: dict[str, int] = {}
    leaderboard: dict[str, int] = {}  # in tenths (leaderboard_tenths)


def validate_round(players: Sequence[str], rnd: RoundInput, rules: RuleSet) -> None:
    """Refuse a round that does not add up (each check one clear sentence)."""
    known = set(players)
    for name in [*rnd.hands, *([rnd.winner] if rnd.winner else [])]:
        if name not in known:
            raise RoundError(unknown_player_message(name, players))
    if rnd.stalemate and rnd.winner:
        raise StalemateWithWinner()
    if rnd.hand_romme and not rnd.winner:
        raise NoWinner(hand_romme=True)
    if not rnd.stalemate and not rnd.winner:
        raise NoWinner()
    if rnd.stalemate and rules.stalemate == "nobody-scores":
        needed: list[str] = []
    else:
        needed = [p for p in players if p != rnd.winner]
    missing = [p for p in needed if p not in rnd.hands]
    if missing:
        raise MissingHands(missing)
    cards = [c for hand in rnd.hands.values() if hand.cards for c in hand.cards]
    from romme_score.melds import IllegalMeldError, check_supply

    try:
        check_supply(cards, rules)
    except IllegalMeldError as exc:
        raise RoundError(_("the hands of this round do not add up: %(reason)s") % {"reason": exc}) from None
    for name, hand in rnd.hands.items():
        if hand.points is not None and hand.points < 0:
            raise RoundError(
                _("%(player)s=%(text)s: points left in hand cannot be negative")
                % {"player": name, "text": hand.points}
            )
    if rnd.winner is not None and rnd.winner in rnd.hands:
        check_winner_hand(rnd.winner, rnd.hands[rnd.winner], rules)


def check_winner_hand(name: str, hand: Hand, rules: RuleSet) -> None:
    """Cards entered for the winner: allowed only by 002 e/f, and then checked (§6).

    ``call_out_max`` (002 e "Rommé mit 10"): the cards count at most that many
    points; ``color_romme`` (002 f "Farbenrommé"): at least that many cards of one
    suit (jokers belong to no suit). Either one suffices; the cards never count.
    """
    if hand.cards is None and not hand.points or hand.cards == ():
        return  # nothing held: the usual going out
    if rules.call_out_max is None and rules.color_romme is None:
        raise RoundError(
            _(
                "%(player)s went out and holds no cards: cards entered for the "
                "winner need a rule that ends the round with cards in hand "
                "(call_out_max or color_romme, both none here)"
            )
            % {"player": name}
        )
    points = hand_points(hand, rules)
    if rules.call_out_max is not None and points <= rules.call_out_max:
        return
    failures = []
    if rules.call_out_max is not None:
        failures.append(
            _("%(player)s's cards count %(points)d points, but at most %(max)d may be held (%(rule)s)")
            % {
                "player": name,
                "points": points,
                "max": rules.call_out_max,
                "rule": rule_name("call_out_max", rules.call_out_max),
            }
        )
    if rules.color_romme is not None:
        if hand.cards is None:
            failures.append(
                _("%(rule)s is checked on the cards, so give %(player)s's cards rather than points")
                % {"rule": rule_name("color_romme", rules.color_romme), "player": name}
            )
        else:
            suits = Counter(c.suit for c in hand.cards if c.suit is not None)
            suit, most = suits.most_common(1)[0] if suits else (None, 0)
            if most >= rules.color_romme:
                return
            of = f" ({suit.symbol})" if suit is not None and most > 1 else ""
            failures.append(
                ngettext(
                    "%(player)s holds no more than %(count)d card of one suit%(of)s, "
                    "but %(need)d are needed (%(rule)s)",
                    "%(player)s holds no more than %(count)d cards of one suit%(of)s, "
                    "but %(need)d are needed (%(rule)s)",
                    most,
                )
                % {
                    "player": name,
                    "count": most,
                    "of": of,
                    "need": rules.color_romme,
                    "rule": rule_name("color_romme", rules.color_romme),
                }
            )
    raise RoundError(_("; and ").join(failures))


def unknown_player_message(name: str, players: Sequence[str]) -> str:
    """The sentence for a name that is no player, as :func:`~romme_score.inputs.choose_player`
    says it (where a name must match exactly: a round given by name, an export)."""
    return str(unknown_player(name, players))


TENTHS = 10  # leaderboard points are kept in tenths: whole numbers, exact


def leaderboard_tenths(penalty: int, went_out: bool, hand_romme: bool) -> int:
    """003 Bestenliste, in tenths of a point: 30 for going out (60 Hand-Rommé), else 10 less
    a tenth of the penalty, exactly (docs/rules.md §7: nothing is rounded), never below 0.

    >>> leaderboard_tenths(23, False, False)  # 7.7 points
    77
    >>> leaderboard_tenths(0, True, True), leaderboard_tenths(150, False, False)
    (600, 0)
    """
    if went_out:
        return (60 if hand_romme else 30) * TENTHS
    return max(0, 10 * TENTHS - penalty)  # 10 - penalty/10, times ten


PLACE_BONUS = (30, 15, 5)  # 003: place bonus at the end of the game


def score_round(
    players: Sequence[str], totals_before: Mapping[str, int], rnd: RoundInput, rules: RuleSet
) -> RoundScore:
    """Points of one round under the rules (§6); validates it first."""
    validate_round(players, rnd, rules)
    points: dict[str, int] = {}
    base: dict[str, int] = {}
    multiplier: dict[str, int] = {}
    nobody = rnd.stalemate and rules.stalemate == "nobody-scores"
    for name in players:
        hand = rnd.hands.get(name, Hand(points=0))
        if name == rnd.winner or nobody:
            # 002 e/f: a winner's remaining cards are shown for control, not counted.
            base[name], multiplier[name], points[name] = 0, 1, 0
            continue
        factor = 1
        if rnd.hand_romme:
            factor *= rules.hand_romme_multiplier
        if rules.joker_in_hand_doubles and hand.has_joker:  # 002 h
            factor *= 2
        if rules.never_out_doubles and hand.never_out:  # 003 "Nie draußen gewesen"
            factor *= 2
        base[name] = hand_points(hand, rules)
        multiplier[name] = factor
        points[name] = base[name] * factor
    bonus: dict[str, int] = {}
    if rnd.winner:
        wanted = rules.winner_bonus_hand_romme if rnd.hand_romme else rules.winner_bonus
        struck = min(wanted, max(0, totals_before.get(rnd.winner, 0)))  # 002 i: never below 0
        if struck:
            bonus[rnd.winner] = struck
    board: dict[str, int] = {}
    if rules.leaderboard:
        board = {
            name: leaderboard_tenths(points[name], name == rnd.winner, rnd.hand_romme) for name in players
        }
    return RoundScore(points, base, multiplier, bonus, board)


class GameState(NamedTuple):
    finished: bool
    winner: str | None
    tied: tuple[str, ...] = ()
    agreed: bool = False  # over because the table agreed to end it, before its rules did
    closed: bool = False  # a tournament's table closed by its next series, before its rules ended it


def game_state(
    players: Sequence[str],
    totals: Mapping[str, int],
    rounds: int,
    rules: RuleSet,
    ended: bool = False,
    closed: bool = False,
) -> GameState:
    """Whether the game is over and who won: the fewest points (003). ``ended``: the table
    agreed to end it where it stands (``romme end``), as a family stops at eleven;
    ``closed``: a tournament's table whose next series was drawn before it had played its
    games (``romme tournament draw --force``): over where it stands.

    >>> from romme_score.rules import RuleSet
    >>> game_state(["A", "B"], {"A": 20, "B": 70}, 3, RuleSet(), ended=True)
    GameState(finished=True, winner='A', tied=('A',), agreed=True, closed=False)
    >>> game_state(["A", "B"], {"A": 20, "B": 70}, 3, RuleSet(), closed=True)
    GameState(finished=True, winner=None, tied=(), agreed=False, closed=True)
    """
    end = rules.game_end
    if end.kind == "points":
        finished = any(totals[p] >= end.limit for p in players)
    elif end.kind == "rounds":
        finished = rounds >= end.limit
    else:
        finished = False
    agreed = ended and not finished
    shut = closed and not (finished or agreed)
    if not (finished or agreed or shut):
        return GameState(False, None)
    if shut:  # stopped short of its games, counted for nothing: nobody won it
        return GameState(True, None, (), False, True)
    best = min(totals[p] for p in players)
    leaders = tuple(p for p in players if totals[p] == best)
    return GameState(True, leaders[0] if len(leaders) == 1 else None, leaders, agreed, shut)


def place_bonus(players: Sequence[str], totals: Mapping[str, int]) -> dict[str, int]:
    """003 place bonus 30/15/5 by fewest points; tied players share the better place."""
    ranked = sorted(players, key=lambda p: totals[p])
    bonus = {}
    for name in players:
        place = sum(1 for p in ranked if totals[p] < totals[name])
        bonus[name] = PLACE_BONUS[place] if place < len(PLACE_BONUS) else 0
    return bonus


def places(totals: Mapping[str, int]) -> dict[str, int]:
    """Competition ranking, fewest points first (1, 2, 2, 4)."""
    return {name: 1 + sum(1 for t in totals.values() if t < total) for name, total in totals.items()}


def replay(
    players: Sequence[str],
    rules: RuleSet,
    inputs: Sequence[RoundInput],
    totals: Mapping[str, int] | None = None,
    first_number: int = 1,
) -> list[RoundScore]:
    """Score rounds in order from the given totals (bonuses depend on earlier totals)."""
    running = {p: 0 for p in players} if totals is None else dict(totals)
    scores = []
    first = first_number
    for number, rnd in enumerate(inputs, first):
        try:
            score = score_round(players, running, rnd, rules)
        except RoundError as exc:
            raise RoundError(_("round %(number)d") % {"number": number} + f": {exc}") from None
        for p in players:
            running[p] += score.points[p] - score.bonus.get(p, 0)
        scores.append(score)
    return scores
