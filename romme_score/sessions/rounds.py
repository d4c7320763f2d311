"""Rounds of the session service, every write of play: a round checked and saved in one
transaction (:meth:`~Rounds.record`), previewed, read back for a correction, taken back
(:meth:`~Rounds.undo`) and corrected (:meth:`~Rounds.edit`, every later round scored
again). The round in progress is :mod:`~romme_score.sessions.progress`'s."""

from __future__ import annotations

from collections.abc import Mapping

from romme_score.rules import RuleSet
from romme_score.scoring import (
    Hand,
    RoundError,
    RoundInput,
    RoundScore,
    StalemateWithWinner,
    check_winner_hand,
    replay,
    score_round,
)
from romme_score.sessions.base import judged, refuse_later, refuse_over
from romme_score.sessions.errors import NoSuchRound, UnlikelyPoints
from romme_score.sessions.reads import Reads
from romme_score.sessions.results import Edited, Recorded, Undone
from romme_score.store.records import (
    SessionInfo,
)


def _as_now_judged(rnd: RoundInput, rules: RuleSet) -> RoundInput:
    """A stored round as the rules judge it today. Before call_out_max and color_romme
    existed, cards typed for the winner were kept 'for control' and never counted; where
    the rules now refuse them, they are dropped, so that correcting another round does
    not fail on them (the points stay what they were)."""
    hand = rnd.hands.get(rnd.winner) if rnd.winner else None
    if hand is None or rnd.winner is None:
        return rnd
    try:
        check_winner_hand(rnd.winner, hand, rules)
    except RoundError:
        return RoundInput(
            rnd.winner, {p: h for p, h in rnd.hands.items() if p != rnd.winner}, rnd.hand_romme, rnd.stalemate
        )
    return rnd


def _totals_before(info: SessionInfo, inputs: list[RoundInput]) -> dict[str, int]:
    """The totals after ``inputs`` (the rounds before the one corrected), bonuses not
    counted: a correction scores its round, and every later one, on them."""
    before = replay(info.players, info.rules, inputs)
    return {p: sum(s.points[p] - s.bonus.get(p, 0) for s in before) for p in info.players}


class Rounds(Reads):
    """Rounds saved, corrected and taken back, each write one transaction."""

    @staticmethod
    def check_hand(info: SessionInfo, player: str, hand: Hand, *, confirm: bool = False) -> Hand:
        """A hand as it arrives in ``info``'s session: :func:`check_hand` under its rules."""
        from romme_score.sessions.hands import check_hand  # once a hand is given, not at every start

        return check_hand(info.rules, player, hand, confirm=confirm)

    def _checked_round(self, info: SessionInfo, rnd: RoundInput, confirm: bool) -> tuple[UnlikelyPoints, ...]:
        """Every hand of a round to be saved checked as :meth:`check_hand` checks one; the
        unlikely points it holds, when ``confirm`` keeps them."""
        from romme_score.sessions.hands import unlikely_refusal

        for player, hand in rnd.hands.items():
            self.check_hand(info, player, hand, confirm=confirm)
        found = (unlikely_refusal(info.rules, player, hand) for player, hand in rnd.hands.items())
        return tuple(u for u in found if u is not None)

    def preview(self, info: SessionInfo, rnd: RoundInput) -> RoundScore:
        """A round's score as it would be saved now (nothing is written)."""
        self.check_open(info)
        return score_round(info.players, self.store.totals(info), rnd, info.rules)

    def record(
        self, info: SessionInfo, rnd: RoundInput, *, pending: int | None = None, confirm: bool = False
    ) -> Recorded:
        """Save a round in one transaction; the score is computed from the totals read there.
        Every hand is checked as :meth:`check_hand` checks it (``confirm``: unlikely points
        were confirmed, or are saved with a warning; :attr:`Recorded.unlikely` names them).
        ``pending``: the round was made from the round in progress at that revision
        (:meth:`pending`), which is cleared with it; :class:`PendingChanged` and nothing
        written when it changed meanwhile."""
        self.check_open(info)
        return self._record(info, rnd, pending=pending, confirm=confirm)

    def _record(self, info: SessionInfo, rnd: RoundInput, *, pending: int | None, confirm: bool) -> Recorded:
        """:meth:`record` once the game is known to be open (closed by no later series: the
        standings after it are not asked that again)."""
        unlikely = self._checked_round(info, rnd, confirm)

        def compute(before: dict[str, int], _played: int) -> RoundScore:
            return score_round(info.players, before, rnd, info.rules)

        number, score = self.store.record_round(info, rnd, compute, pending=pending)
        waiting = pending is None and not self.store.pending(info).empty
        return Recorded(number, rnd, score, self.standings(info, last=0, closed=False), unlikely, waiting)

    def round_input(self, info: SessionInfo, number: int) -> RoundInput:
        """Round ``number`` as the table reported it (for a correction), judged as today's
        rules judge stored rounds; a round that is not there is an input error."""
        played = self.store.round_count(info)
        if not 1 <= number <= played:
            raise NoSuchRound(number, info.name, played)
        record = self.store.rounds(info, last=played - number + 1)[0]
        return _as_now_judged(record.to_input(info.players), info.rules)

    def preview_edit(self, info: SessionInfo, number: int, rnd: RoundInput) -> RoundScore:
        """Round ``number`` as ``rnd`` scored on the totals before it, as :meth:`edit` saves
        it (nothing is written; :class:`RoundError` where the rules refuse it)."""
        records = self.store.rounds(info)[: number - 1]
        inputs = [_as_now_judged(r.to_input(info.players), info.rules) for r in records]
        return score_round(info.players, _totals_before(info, inputs), rnd, info.rules)

    def undo(self, info: SessionInfo) -> Undone:
        """Take back the last round (it stays in the history); refused at a tournament's
        table once a later series is drawn (:meth:`check_series_open`), and in a game ended
        by agreement, whose end counted that round: ``romme end --reopen`` first (it left
        "ended after 1 round" with none played)."""
        self.check_series_open(info)
        if info.ended:
            refuse_over(info, self.state(info), None)
        record = self.store.undo_last(info)
        return Undone(record, self.store.totals(info))

    def edit(
        self,
        info: SessionInfo,
        number: int,
        hands: Mapping[str, Hand],
        winner: str | None = None,
        hand_romme: bool | None = None,
        stalemate: bool | None = None,
        *,
        confirm: bool = False,
    ) -> Edited:
        """Correct round ``number``: only what is given changes; every later round is
        scored again (bonuses depend on earlier totals), all in one transaction. The hands
        given are checked as :meth:`check_hand` checks a hand arriving. A table closed by a
        later series is not corrected (:class:`GameOver`); one that played its games is."""
        table = self.table_of(info)
        if table is not None and table.later_drawn:
            totals, played = self.store.totals_played(info)
            if judged(info, totals, played, table).closed:
                refuse_later(info, table)
        for player, hand in hands.items():
            self.check_hand(info, self._player(info, player), hand, confirm=confirm)
        records = self.store.rounds(info)
        if not 1 <= number <= len(records):
            raise NoSuchRound(number, info.name, len(records))
        inputs = [_as_now_judged(r.to_input(info.players), info.rules) for r in records]
        old = inputs[number - 1]
        if winner is not None and stalemate:
            raise StalemateWithWinner()
        new_winner = winner if winner is not None else old.winner
        # A winner given for a stalemate round means nobody ran out of stock after all.
        new_stalemate = (winner is None and old.stalemate) if stalemate is None else stalemate
        if new_stalemate:
            new_winner = None
        merged = {**old.hands, **hands}
        if new_winner is not None and new_winner not in hands:
            merged.pop(new_winner, None)
        new = RoundInput(
            new_winner, merged, old.hand_romme if hand_romme is None else hand_romme, new_stalemate
        )
        inputs[number - 1] = new
        start = _totals_before(info, inputs[: number - 1])
        later = replay(info.players, info.rules, inputs[number - 1 :], start, number)
        self.store.replace_rounds(info, number, inputs[number - 1 :], later, {number})
        return Edited(number, new, later[0], self.store.totals(info))
