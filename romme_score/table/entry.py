"""Entering one round, as a pure state machine: no terminal, no database.

The front asks what :attr:`RoundEntry.step` says (with :attr:`RoundEntry.message`, an
error or notice to show first, and :attr:`RoundEntry.default`, the text to put in the
line), and feeds each typed line to :meth:`RoundEntry.answer`. The flow:

1. the winner: a seat number, a name or a unique prefix, ``0`` for a stalemate
   (:func:`~romme_score.inputs.choose_player`, as on the command line);
2. each other player's cards left, one line each, in seating order from the winner's
   left (after a stalemate: from the dealer's left), or a number counted by hand
   (:func:`~romme_score.inputs.read_hand`); an unreadable hand is asked again with its
   message on an empty line (the front's history recalls the text as typed);
3. cross-hand checks (card supply, jokers in play, then the round as the service would
   score it: winner rules, game over) send you back to the hand to fix;

   which hands are asked, in what order, the round they make and every check are the
   service's (:class:`~romme_score.sessions.RoundReferee`): the entry only asks;
4. the summary: Enter saves, a seat number corrects that hand, ``h`` Hand-Rommé,
   ``s`` stalemate, ``nN`` never out for player N, ``w`` another winner.

>>> from romme_score.rules import find_preset
>>> from romme_score.scoring import score_round
>>> from romme_score.sessions import RoundReferee
>>> rules = find_preset("standard")
>>> players = ("Anna", "Ben", "Carl")
>>> referee = RoundReferee(players, rules, lambda r: score_round(players, {}, r, rules))
>>> entry = RoundEntry(referee)
>>> for line in ["b", "HK K10", "5"]:
...     entry.answer(line)
>>> entry.step, entry.hand_order()
(<Step.SUMMARY: 'summary'>, ['Carl', 'Anna'])
>>> entry.answer("")
>>> entry.step, entry.round_input().winner, entry.score.points if entry.score else None
(<Step.DONE: 'done'>, 'Ben', {'Anna': 5, 'Ben': 0, 'Carl': 20})
"""

from __future__ import annotations

from enum import Enum

from romme_score.cards import Profile, format_cards
from romme_score.errors import InputProblem
from romme_score.inputs import InputValueError, PlayerChoiceError, choose_player, read_hand
from romme_score.scoring import Hand, RoundError, RoundInput, RoundScore
from romme_score.sessions import RoundChange, RoundReferee, UnlikelyPoints, round_of
from romme_score.views import play as views

STALEMATE_WORDS = ("0", "-", "stalemate")


class Step(Enum):
    WINNER = "winner"
    HAND = "hand"
    SUMMARY = "summary"
    DONE = "done"


class RoundEntry:
    """The state of one round being typed, asking ``referee`` (the service's rules of the
    session's round: :meth:`SessionService.referee`) which hands to ask, what they make and
    whether the round can be saved. :attr:`change` is what the last answer changed of the
    round, for the round in progress (None: nothing)."""

    def __init__(self, referee: RoundReferee, *, profile: Profile = "de") -> None:
        self.referee = referee
        self.players = referee.players
        self.rules = referee.rules
        self.profile = profile
        self.change: RoundChange | None = None
        self.step = Step.WINNER
        self.winner: str | None = None
        self.stalemate = False
        self.hand_romme = False
        self.never_out: set[str] = set()
        self.texts: dict[str, str] = {}
        self.hands: dict[str, Hand] = {}
        self.current: str | None = None  # whose hand is asked
        self.message: str | None = None  # to show before the next question
        self.default = ""  # text to put in the next line
        self.recall = ""  # text for the Up arrow to recall in the next line (not typed in it)
        self.score: RoundScore | None = None
        self._unlikely: tuple[str, str] | None = None  # the points asked again, whose and as typed

    # -- what is asked ----------------------------------------------------------------

    def seat(self, player: str) -> int:
        return self.players.index(player) + 1

    def hand_order(self) -> list[str]:
        """The players whose hands are asked, in the order the service asks them."""
        return self.referee.order(self.winner, self.stalemate)

    def round_input(self) -> RoundInput:
        """The round as typed so far, as the service makes it of the answers."""
        return round_of(self.winner, self.stalemate, self.hand_romme, self.hands, self.never_out)

    def _hands_of(self, *players: str | None) -> RoundChange:
        """The change that gives ``players``' hands as the round now holds them."""
        hands = self.round_input().hands
        return RoundChange(hands=tuple((p, hands.get(p)) for p in players if p is not None), confirm=True)

    # -- answers ----------------------------------------------------------------------

    def answer(self, text: str) -> None:
        """Feed one typed line to the step asked."""
        self.message = None
        self.default = self.recall = ""
        self.change = None
        if self.step is Step.WINNER:
            self._answer_winner(text)
        elif self.step is Step.HAND:
            self._answer_hand(text)
        elif self.step is Step.SUMMARY:
            self._answer_summary(text)

    def _answer_winner(self, text: str) -> None:
        typed = text.strip()
        if not typed:
            self.message = views.who_went_out()
            return
        before, was = self.winner, (self.winner, self.stalemate)
        if typed.lower() in STALEMATE_WORDS:
            self.winner, self.stalemate, self.hand_romme = None, True, False
            change = RoundChange(stalemate=True)
        else:
            try:
                self.winner = choose_player(typed, self.players)
            except PlayerChoiceError as exc:
                self.message = str(exc)  # the sentence quotes what was typed; the line starts empty
                return
            self.stalemate = False
            change = RoundChange(winner=self.winner)
        if (self.winner, self.stalemate) != was:
            self.change = self._with_hand_back(change, before)
        self._advance()

    def _with_hand_back(self, change: RoundChange, before: str | None) -> RoundChange:
        """``change`` with the hand typed earlier for ``before``, who went out until now."""
        if before is None or before == self.winner or before not in self.round_input().hands:
            return change
        return RoundChange(
            change.winner, change.stalemate, change.hand_romme, self._hands_of(before).hands, confirm=True
        )

    def _answer_hand(self, text: str) -> None:
        assert self.current is not None
        # A refused line is asked again empty, as a refused winner is: typing after a
        # refusal starts a new line ('x' then 'b' is not 'xb'); Up recalls the refused one.
        try:
            hand = read_hand(self.current, text, self.profile)
        except InputValueError as exc:
            self.message = str(exc)
            return
        again = self._unlikely == (self.current, text.strip())  # the same points typed again keep them
        try:
            self.referee.check_hand(self.current, hand, confirm=again)
        except UnlikelyPoints as exc:
            # Carl=320 for 32: asked once more, the points in the line; Enter keeps them
            self._unlikely = (self.current, text.strip())
            self.message = views.unlikely_points(exc.player, exc.points, exc.limit)
            self.default = text.strip()
            return
        except InputProblem as exc:  # points no hand holds, a card more often than the packs
            self.message = str(exc)
            return
        self._unlikely = None
        self.hands[self.current] = hand
        self.texts[self.current] = text.strip()
        self.change = self._hands_of(self.current)
        self._advance()

    def _answer_summary(self, text: str) -> None:
        typed = text.strip().lower()
        if not typed:
            self.step = Step.DONE
            return
        if typed == "h":
            if not self.referee.can_hand_romme(self.winner):
                self.message = views.hand_romme_needs_winner()
            else:
                self.hand_romme = not self.hand_romme
                self.change = RoundChange(hand_romme=self.hand_romme)
            self._advance()
        elif typed == "s":
            if self.stalemate:
                self.stalemate = False
                self.step = Step.WINNER
            else:
                before = self.winner
                self.stalemate, self.winner, self.hand_romme = True, None, False
                self.change = self._with_hand_back(RoundChange(stalemate=True), before)
                self._advance()
        elif typed == "w":
            self.step = Step.WINNER
        elif typed.startswith("n") and len(typed) > 1:
            try:
                player = choose_player(typed[1:], self.players)
            except PlayerChoiceError as exc:
                self.message = str(exc)
                return
            if player in self.never_out:
                self.never_out.discard(player)
            else:
                self.never_out.add(player)
            self.change = self._hands_of(player)
            self._advance()
            self.message = views.never_out_marked(player, player in self.never_out, self.rules)
        elif typed.isdecimal() and len(typed) <= 3 and 1 <= int(typed) <= len(self.players):
            player = self.players[int(typed) - 1]
            if player == self.winner:
                self.message = views.winner_has_no_hand(int(typed), player)
                return
            # a hand corrected is typed anew on an empty line, the one it replaces shown
            # above it and recalled by Up (issue 38 item 13: not 'J P5 P6P5 P6')
            self._ask(player)
            self.recall = self.texts.get(player, "")
            if self.recall:
                self.message = views.hand_to_correct(int(typed), player, self.recall)
        else:
            self.message = views.unknown_key(text.strip(), self.players, self.winner)

    def load(self, rnd: RoundInput) -> None:
        """Start from a recorded round (``edit N``) or the round in progress: its winner,
        marks and hands, the cards written back as letters to edit; then the summary, the
        hand to fix, or who went out while nobody is known to have."""
        self.winner, self.stalemate, self.hand_romme = rnd.winner, rnd.stalemate, rnd.hand_romme
        self.never_out = {p for p, h in rnd.hands.items() if h.never_out}
        self.hands = {
            p: Hand(h.cards, h.points)
            for p, h in rnd.hands.items()
            if h.cards is not None or h.points is not None
        }
        self.texts = {
            p: format_cards(h.cards, self.profile, ascii=True) if h.cards is not None else str(h.points)
            for p, h in self.hands.items()
        }
        self.recheck()
        if self.winner is None and not self.stalemate:  # the phones' round: who went out comes first
            self.step, self.current, self.message = Step.WINNER, None, None

    def recheck(self) -> None:
        """Check the round again (the session changed meanwhile): summary or back to a hand."""
        self.message = None
        self._advance()

    # -- moving on ------------------------------------------------------------------------

    def _ask(self, player: str, default: str = "") -> None:
        self.step = Step.HAND
        self.current = player
        self.default = default

    def _advance(self) -> None:
        """Ask the next hand still missing; when none is, check the round as a whole."""
        for p in self.hand_order():
            if p not in self.hands:
                self._ask(p)
                return
        self.current = None
        self._cross_check()

    def _cross_check(self) -> None:
        """Card supply and jokers hand by hand in the order asked, then the round as the
        service would score it; a failure sends you back to the hand (or the winner)."""
        order = [*self.hand_order(), *(x for x in self.hands if x not in self.hand_order())]
        over = self.referee.over_supply([(p, self.hands[p]) for p in order if p in self.hands])
        if over is not None:
            player, exc = over
            self._ask(player, self.texts.get(player, ""))
            self.message = views.supply_error(player, str(exc))
            return
        try:
            self.score = self.referee.preview(self.round_input())
        except RoundError as exc:
            self.step = Step.WINNER
            self.message = views.round_refused(str(exc))
            return
        self.step = Step.SUMMARY
