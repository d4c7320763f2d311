"""Rounds of the session service, every write of play: a round checked and saved in one
transaction (:meth:`~Rounds.record`), previewed, read back for a correction, taken back
(:meth:`~Rounds.undo`) and corrected (:meth:`~Rounds.edit`, every later round scored
again); and the round in progress (the phones' hands as they arrive, the table mode's
entry), kept in the database, each hand checked as it arrives, with one fact of who went
out, saved as a round is."""

from __future__ import annotations

from collections.abc import Mapping

from romme_score.rules import RuleSet
from romme_score.scoring import (
    Hand,
    NoWinner,
    RoundError,
    RoundInput,
    RoundScore,
    StalemateWithWinner,
    check_winner_hand,
    replay,
    score_round,
)
from romme_score.sessions.errors import AlreadyOut, NoSuchRound, RoundIncomplete, UnlikelyPoints
from romme_score.sessions.reads import Reads
from romme_score.sessions.results import Edited, Recorded, Undone
from romme_score.store.errors import PendingChanged
from romme_score.store.records import (
    KEEP,
    Keep,
    PendingChange,
    PendingHand,
    PendingRound,
    SessionInfo,
    canonical,
)


def _pending_hand(hand: Hand) -> PendingHand:
    return PendingHand(canonical(hand.cards), hand.points, hand.never_out)


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


class Rounds(Reads):
    """Rounds saved, corrected and taken back, each write one transaction, and the round
    in progress as far as it has arrived."""

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
        """:meth:`record` once the game is known to be open."""
        unlikely = self._checked_round(info, rnd, confirm)

        def compute(before: dict[str, int], _played: int) -> RoundScore:
            return score_round(info.players, before, rnd, info.rules)

        number, score = self.store.record_round(info, rnd, compute, pending=pending)
        waiting = pending is None and not self.store.pending(info).empty
        return Recorded(number, rnd, score, self.standings(info, last=0), unlikely, waiting)

    def round_input(self, info: SessionInfo, number: int) -> RoundInput:
        """Round ``number`` as the table reported it (for a correction), judged as today's
        rules judge stored rounds; a round that is not there is an input error."""
        played = self.store.round_count(info)
        if not 1 <= number <= played:
            raise NoSuchRound(number, info.name, played)
        record = self.store.rounds(info, last=played - number + 1)[0]
        return _as_now_judged(record.to_input(info.players), info.rules)

    def undo(self, info: SessionInfo) -> Undone:
        """Take back the last round (it stays in the history)."""
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
        given are checked as :meth:`check_hand` checks a hand arriving."""
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
        before = replay(info.players, info.rules, inputs[: number - 1])
        start = {p: sum(s.points[p] - s.bonus.get(p, 0) for s in before) for p in info.players}
        later = replay(info.players, info.rules, inputs[number - 1 :], start, number)
        self.store.replace_rounds(info, number, inputs[number - 1 :], later, {number})
        return Edited(number, new, later[0], self.store.totals(info))

    # -- the round in progress (hands arriving from the phones) ----------------------------

    def pending(self, info: SessionInfo) -> PendingRound:
        """The round being played, as far as it has arrived (kept in the database, so a
        restart loses nothing that was sent)."""
        return self.store.pending(info)

    def set_hand(self, info: SessionInfo, player: str, hand: Hand, *, confirm: bool = False) -> PendingRound:
        """``player``'s hand in the round in progress (read by :func:`~romme_score.inputs.read_hand`),
        replacing one sent before, checked as it arrives (:meth:`check_hand`; ``confirm``:
        unlikely points were confirmed); what needs the whole round is checked when it is
        saved. A hand sent by the player who was said to have gone out means they did not."""
        self.check_open(info)
        player = self._player(info, player)
        self.check_hand(info, player, hand, confirm=confirm)
        change = PendingChange(hands={player: _pending_hand(hand)})
        if self.store.pending(info).winner == player:
            change = PendingChange(winner=None, hand_romme=False, hands=change.hands)
        return self.store.change_pending(info, change)

    def declare_out(self, info: SessionInfo, player: str, hand_romme: bool = False) -> PendingRound:
        """``player`` went out in the round in progress (with a Hand-Rommé or not): no
        stalemate then, and no hand of theirs. Who went out is one fact: while another
        player's claim stands, :class:`AlreadyOut` (the scorekeeper changes it with
        :meth:`change_pending`)."""
        self.check_open(info)
        player = self._player(info, player)
        change = PendingChange(winner=player, hand_romme=hand_romme, stalemate=False, hands={player: None})
        while True:  # the claim is checked against the round it is written to
            now = self.store.pending(info)
            if now.winner is not None and now.winner != player:
                raise AlreadyOut(info.name, now.winner, player)
            try:
                return self.store.change_pending(info, change, expected=now.revision)
            except PendingChanged:
                continue  # another phone wrote meanwhile: look at the claim again

    def change_pending(
        self,
        info: SessionInfo,
        *,
        winner: str | None | Keep = KEEP,
        stalemate: bool | None = None,
        hand_romme: bool | None = None,
        hands: Mapping[str, Hand | None] | None = None,
        confirm: bool = False,
        expected: int | None = None,
    ) -> PendingRound:
        """Set parts of the round in progress at once (the scorekeeper, for a player without
        a phone): a winner means no stalemate and no hand of theirs (unless one is given), a
        stalemate no winner and no Hand-Rommé; a hand given as None is taken out. Each hand
        is checked as it arrives (:meth:`check_hand`), the winner's as ``romme round``
        checks it, and a Hand-Rommé is refused in a stalemate (:class:`NoWinner`). With
        ``expected``, only if the round in progress is still at that revision
        (:class:`PendingChanged` else: someone else changed it, nothing is written)."""
        self.check_open(info)
        given = {self._player(info, p): h for p, h in (hands or {}).items()}
        for player, hand in given.items():
            if hand is not None:
                self.check_hand(info, player, hand, confirm=confirm)
        if not isinstance(winner, Keep) and winner is not None:
            winner = self._player(info, winner)
        if stalemate and not isinstance(winner, Keep) and winner is not None:
            raise StalemateWithWinner()
        now = self.store.pending(info)
        stays_stalemate = (
            stalemate
            if stalemate is not None
            else now.stalemate and (isinstance(winner, Keep) or winner is None)
        )
        if stays_stalemate and hand_romme:  # as a round typed with both is refused (no winner)
            raise NoWinner(hand_romme=True)
        out = None if stalemate else (winner if not isinstance(winner, Keep) else now.winner)
        held = given.get(out) if out is not None else None
        if out is not None and held is not None:  # cards for the winner: only where 002 e/f allow them
            check_winner_hand(out, held, info.rules)
        changed: dict[str, PendingHand | None] = {
            p: _pending_hand(h) if h is not None else None for p, h in given.items()
        }
        if stalemate:
            winner, hand_romme = None, False
        elif isinstance(winner, str):
            stalemate = False
            if winner not in changed:
                changed[winner] = None
        change = PendingChange(winner, hand_romme, stalemate, changed)
        return self.store.change_pending(info, change, expected=expected)

    def discard_pending(self, info: SessionInfo, *, expected: int | None = None) -> None:
        """Forget the round in progress (nothing of it is saved); with ``expected``, only
        if nobody changed it since that revision (:class:`PendingChanged` else)."""
        self.store.clear_pending(info, expected=expected)

    def save_pending(self, info: SessionInfo) -> Recorded:
        """Save the round in progress as :meth:`record` saves a round (the same checks, one
        transaction) and clear it in the same transaction. :class:`RoundIncomplete` while
        nobody went out or hands are missing; :class:`PendingChanged` when a hand arrived
        between reading and saving it."""
        self.check_open(info)
        pending = self.store.pending(info)
        missing = self.missing_hands(info, pending)
        if pending.winner is None and not pending.stalemate:
            raise RoundIncomplete(info.name, missing, no_winner=True)
        if missing:
            raise RoundIncomplete(info.name, missing, no_winner=False)
        # its hands were checked, and unlikely points confirmed, as they arrived; the game
        # was found open above (read once: a save is on the way of every board's event)
        return self._record(info, pending.to_input(), pending=pending.revision, confirm=True)
