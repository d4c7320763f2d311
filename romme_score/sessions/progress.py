"""The round in progress, decided by the service: one call applies a change to it (a hand,
who went out, a stalemate, Hand-Rommé, never-out marks, a hand taken out) at the revision
the door showed (:meth:`Progress.change_round`), checks the game is open once, merges with
what other doors wrote meanwhile, and answers the round as it now stands
(:class:`~romme_score.sessions.changes.RoundState`: what is still missing in seating order,
whether it can be saved, its provisional score). Each change has a raising check and a
yes/no twin (``verify_hand`` / ``can_hand``, ``verify_out`` / ``can_go_out``,
``verify_hand_romme`` / ``can_hand_romme``, ``verify_save`` / ``can_save``), as pokerkit has
them on its state; :meth:`Progress.referee` hands the table mode's entry its rules
(:class:`~romme_score.sessions.changes.RoundReferee`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from romme_score.errors import InputProblem, RommeError
from romme_score.scoring import (
    Hand,
    RoundError,
    StalemateWithWinner,
    check_winner_hand,
)
from romme_score.sessions.base import judged, refuse_over
from romme_score.sessions.errors import AlreadyOut, GivenTwice, OutNoHand, RoundIncomplete
from romme_score.sessions.hands import count_hand
from romme_score.sessions.results import Recorded
from romme_score.sessions.rounds import Rounds
from romme_score.store.errors import PendingChanged, StoreBusy
from romme_score.store.records import (
    KEEP,
    Keep,
    PendingChange,
    PendingHand,
    PendingRound,
    SessionInfo,
    canonical,
)

if TYPE_CHECKING:  # changes.py is imported by the methods that use it: romme standings never loads it
    from romme_score.sessions.changes import RoundChange, RoundReferee, RoundState

MERGE_RETRIES = 20  # writes of one change that met another door's write, before the store is busy


class Progress(Rounds):
    """The round in progress of :class:`~romme_score.sessions.SessionService` (which hands
    its calls to one of these over its store, made with their first use): changed by one
    call, checked by ``verify_*``/``can_*`` twins, saved and discarded."""

    def pending(self, info: SessionInfo) -> PendingRound:
        """The round being played, as far as it has arrived (kept in the database, so a
        restart loses nothing that was sent)."""
        return self.store.pending(info)

    def referee(
        self, info: SessionInfo, *, edit: int | None = None, dealer: str | None = None
    ) -> RoundReferee:
        """The rules of ``info``'s next round for the table mode's entry (``dealer``: who
        deals it, read when not given), or, with ``edit``, of that round corrected
        (previewed on the totals before it, :meth:`preview_edit`)."""
        from romme_score.sessions.changes import RoundReferee

        if edit is not None:
            number = edit
            return RoundReferee(info.players, info.rules, lambda r: self.preview_edit(info, number, r))
        if dealer is None:
            dealer = info.players[(info.first_dealer + self.store.round_count(info)) % len(info.players)]
        return RoundReferee(info.players, info.rules, lambda r: self.preview(info, r), dealer=dealer)

    # -- the one call ------------------------------------------------------------------------

    def change_round(
        self, info: SessionInfo, change: RoundChange, *, seen: PendingRound | None = None
    ) -> RoundState:
        """Apply ``change`` to the round in progress, one transaction, and answer the round
        as it now stands. The game must be open (:class:`GameOver`, checked once). ``seen``:
        the round as the door last showed it; where another door wrote since, the change goes
        on top of theirs (:attr:`RoundState.merged`), or, where theirs rules it out, theirs
        stays (:attr:`RoundState.overruled`); where the round was saved or discarded
        meanwhile, :class:`RoundTaken`. Without ``seen`` the change goes on top of whatever
        is there. Every hand is checked as it arrives (:meth:`verify_hand`)."""
        from romme_score.sessions.changes import RoundTaken

        totals, played = self.store.totals_played(info)  # one read: on every hand of a phone
        table = self.table_of(info)
        refuse_over(info, judged(info, totals, played, table), table)
        change = self._read(info, change)
        given = {p: h for p, h in change.hands if isinstance(h, Hand)}
        for _attempt in range(MERGE_RETRIES):
            now = self.store.pending(info)
            merged = seen is not None and now.revision != seen.revision
            if merged and seen is not None and now.empty and not seen.empty:
                raise RoundTaken(info.name, now.revision)
            try:
                write = self._pending_change(info, change, now)
            except InputProblem as exc:
                if not merged:
                    raise
                return self._state(info, now, totals, played, merged=True, overruled=exc, given=given)
            claims = change.seat is not None and change.winner == change.seat
            expected = now.revision if seen is not None or claims else None
            try:
                after = self.store.change_pending(info, write, expected=expected)
            except PendingChanged:
                continue  # another door wrote meanwhile: the change checked against theirs
            return self._state(info, after, totals, played, merged=merged, given=given)
        raise StoreBusy()

    def round_state(self, info: SessionInfo, rnd: PendingRound | None = None) -> RoundState:
        """The round in progress (or ``rnd``) as :meth:`change_round` answers it."""
        rnd = rnd if rnd is not None else self.store.pending(info)
        return self._state(info, rnd, self.store.totals(info), self.store.round_count(info))

    def _state(
        self,
        info: SessionInfo,
        rnd: PendingRound,
        totals: Mapping[str, int],
        played: int,
        *,
        merged: bool = False,
        overruled: InputProblem | None = None,
        given: Mapping[str, Hand] | None = None,
    ) -> RoundState:
        from romme_score.sessions.changes import (
            RoundState,
            asking_order,
            provisional_score,
        )

        dealer = info.players[(info.first_dealer + played) % len(info.players)]
        missing = tuple(
            p
            for p in asking_order(info.players, info.rules, rnd.winner, rnd.stalemate, dealer)
            if p not in rnd.hands
        )
        score, refusal = provisional_score(info.players, info.rules, totals, rnd, missing)
        unsaved: RoundIncomplete | RoundError | None = self._incomplete(info, rnd, missing) or refusal
        counts = self.counted(info, rnd)
        counts.update((p, count_hand(h, info.rules)) for p, h in (given or {}).items())
        return RoundState(rnd, missing, unsaved, score, refusal, merged, overruled, given or {}, counts)

    @staticmethod
    def _incomplete(info: SessionInfo, rnd: PendingRound, missing: Sequence[str]) -> RoundIncomplete | None:
        """Why the round cannot be saved for what it lacks (the missing hands named in seat
        order), or None."""
        seated = [p for p in info.players if p in missing]
        if rnd.winner is None and not rnd.stalemate:
            return RoundIncomplete(info.name, seated, no_winner=True)
        if seated:
            return RoundIncomplete(info.name, seated, no_winner=False)
        return None

    def _read(self, info: SessionInfo, change: RoundChange) -> RoundChange:
        """``change`` with its players known (each once: :class:`GivenTwice`) and its typed
        hands read (:func:`~romme_score.inputs.read_hand`), never-out marks on them."""
        from romme_score.inputs import read_hand
        from romme_score.sessions.changes import TypedHand

        marked = {self._player(info, p) for p in change.never_out}
        hands: dict[str, Hand | None] = {}
        for name, hand in change.hands:
            player = self._player(info, name)
            if player in hands:  # "carl" and "Carl": as romme round refuses a hand given twice
                raise GivenTwice(player)
            if isinstance(hand, TypedHand):
                hand = read_hand(player, hand.text, hand.notation, player in marked)
            elif hand is not None and player in marked:
                hand = Hand(hand.cards, hand.points, never_out=True)
            hands[player] = hand
        return replace(change, hands=tuple(hands.items()), never_out=frozenset(marked))

    def _pending_change(self, info: SessionInfo, change: RoundChange, now: PendingRound) -> PendingChange:
        """What ``change`` (:meth:`_read`) writes to the round in progress ``now``, every part
        of it checked: the raising check of every change (:meth:`verify_change`)."""
        from romme_score.sessions.changes import TypedHand

        given = {p: h for p, h in change.hands if not isinstance(h, TypedHand)}
        for player in change.never_out:
            if player not in given and player in now.hands:  # a hand already in, marked now
                stored = now.hands[player].to_hand()
                given[player] = Hand(stored.cards, stored.points, never_out=True)
        for player, hand in given.items():
            if hand is not None:
                self.verify_hand(info, player, hand, confirm=change.confirm)
        winner = change.winner
        if not isinstance(winner, Keep) and winner is not None:
            winner = self._player(info, winner)
        hand_romme = change.hand_romme
        if change.seat is not None:
            if winner == change.seat:
                self.verify_out(info, change.seat, now)
            elif isinstance(winner, Keep) and change.seat in given:
                self.verify_seat_hand(info, change.seat, now)
        if change.stalemate and not isinstance(winner, Keep) and winner is not None:
            raise StalemateWithWinner()
        stays_stalemate = (
            change.stalemate
            if change.stalemate is not None
            else now.stalemate and (isinstance(winner, Keep) or winner is None)
        )
        if stays_stalemate and hand_romme:  # as a round typed with both is refused (no winner)
            self.verify_hand_romme(info, PendingRound(stalemate=True))
        out = None if change.stalemate else (winner if not isinstance(winner, Keep) else now.winner)
        held = given.get(out) if out is not None else None
        if out is not None and held is not None:  # cards for the winner: only where 002 e/f allow them
            check_winner_hand(out, held, info.rules)
        changed: dict[str, PendingHand | None] = {
            p: _pending_hand(h) if h is not None else None for p, h in given.items()
        }
        stalemate = change.stalemate
        if stalemate:
            winner, hand_romme = None, False
        elif isinstance(winner, str):
            stalemate = False
            if winner not in changed:
                changed[winner] = None
        return PendingChange(winner, hand_romme, stalemate, changed)

    # -- the twins: a raising check and a yes/no answer ----------------------------------------

    def verify_change(self, info: SessionInfo, change: RoundChange, rnd: PendingRound | None = None) -> None:
        """Refuse ``change`` as :meth:`change_round` would on the round ``rnd`` (read when
        None), with the reason; nothing is written."""
        change = self._read(info, change)
        self._pending_change(info, change, rnd if rnd is not None else self.store.pending(info))

    def can_change(self, info: SessionInfo, change: RoundChange, rnd: PendingRound | None = None) -> bool:
        return _passes(lambda: self.verify_change(info, change, rnd))

    @staticmethod
    def verify_hand(info: SessionInfo, player: str, hand: Hand, *, confirm: bool = False) -> Hand:
        """A hand as it arrives: cards more often than the packs hold, points no hand holds,
        unlikely points unless ``confirm`` (:func:`~romme_score.sessions.hands.check_hand`)."""
        return Rounds.check_hand(info, player, hand, confirm=confirm)

    @staticmethod
    def can_hand(info: SessionInfo, player: str, hand: Hand, *, confirm: bool = False) -> bool:
        return _passes(lambda: Progress.verify_hand(info, player, hand, confirm=confirm))

    def verify_out(self, info: SessionInfo, player: str, rnd: PendingRound | None = None) -> None:
        """Who went out is one fact: :class:`AlreadyOut` while another player's claim
        stands in the round ``rnd`` (read when None)."""
        now = rnd if rnd is not None else self.store.pending(info)
        if now.winner is not None and now.winner != player:
            raise AlreadyOut(info.name, now.winner, player)

    def can_go_out(self, info: SessionInfo, player: str, rnd: PendingRound | None = None) -> bool:
        return _passes(lambda: self.verify_out(info, player, rnd))

    def verify_seat_hand(self, info: SessionInfo, player: str, rnd: PendingRound | None = None) -> None:
        """A hand from ``player``'s own phone: :class:`OutNoHand` while their claim to have
        gone out stands in the round ``rnd`` (read when None), until the scorekeeper saves
        the round or changes who went out."""
        now = rnd if rnd is not None else self.store.pending(info)
        if now.winner == player:
            raise OutNoHand(info.name, player)

    def can_seat_hand(self, info: SessionInfo, player: str, rnd: PendingRound | None = None) -> bool:
        return _passes(lambda: self.verify_seat_hand(info, player, rnd))

    def closed_seats(self, info: SessionInfo, rnd: PendingRound | None = None) -> list[str]:
        """The players whose own phone may send no hand now (:meth:`verify_seat_hand`), in
        seat order: what a seat's page shows, with why."""
        now = rnd if rnd is not None else self.store.pending(info)
        return [p for p in info.players if not self.can_seat_hand(info, p, now)]

    @staticmethod
    def verify_hand_romme(info: SessionInfo, rnd: PendingRound) -> None:
        """A Hand-Rommé needs who went out (none in a stalemate): :class:`NoWinner`."""
        from romme_score.sessions.changes import RoundReferee

        RoundReferee.verify_hand_romme(rnd.winner)

    @staticmethod
    def can_hand_romme(info: SessionInfo, rnd: PendingRound) -> bool:
        from romme_score.sessions.changes import RoundReferee

        return RoundReferee.can_hand_romme(rnd.winner)

    def verify_save(self, info: SessionInfo, rnd: PendingRound | None = None) -> None:
        """:class:`RoundIncomplete` while nobody went out or hands are missing, or the rules'
        refusal of the round as it stands (``rnd``, read when None)."""
        unsaved = self.round_state(info, rnd).unsaved
        if unsaved is not None:
            raise unsaved

    def can_save(self, info: SessionInfo, rnd: PendingRound | None = None) -> bool:
        return _passes(lambda: self.verify_save(info, rnd))

    # -- the old calls, each one change ----------------------------------------------------

    def set_hand(self, info: SessionInfo, player: str, hand: Hand, *, confirm: bool = False) -> PendingRound:
        """``player``'s own hand (:func:`hand_given`) through :meth:`change_round`."""
        from romme_score.sessions.changes import hand_given

        return self.change_round(info, hand_given(self._player(info, player), hand, confirm=confirm)).round

    def declare_out(self, info: SessionInfo, player: str, hand_romme: bool = False) -> PendingRound:
        """``player`` went out (:func:`went_out`) through :meth:`change_round`."""
        from romme_score.sessions.changes import went_out

        return self.change_round(info, went_out(self._player(info, player), hand_romme)).round

    def change_pending(
        self,
        info: SessionInfo,
        *,
        winner: str | None | Keep = KEEP,
        stalemate: bool | None = None,
        hand_romme: bool | None = None,
        hands: Mapping[str, Hand | None] | None = None,
        confirm: bool = False,
    ) -> PendingRound:
        """Set parts of the round in progress at once (:class:`RoundChange`, the
        scorekeeper's, for a player without a phone) through :meth:`change_round`."""
        from romme_score.sessions.changes import (
            RoundChange,
            hands_given,
        )

        change = RoundChange(winner, stalemate, hand_romme, hands_given(hands or {}), confirm=confirm)
        return self.change_round(info, change).round

    def discard_pending(self, info: SessionInfo, *, expected: int | None = None) -> None:
        """Forget the round in progress (nothing of it is saved); with ``expected``, only
        if nobody changed it since that revision (:class:`PendingChanged` else). Refused
        at a tournament's table once a later series is drawn (:meth:`check_series_open`)."""
        self.check_series_open(info)
        self.store.clear_pending(info, expected=expected)

    def save_pending(self, info: SessionInfo) -> Recorded:
        """Save the round in progress as :meth:`record` saves a round (the same checks, one
        transaction) and clear it in the same transaction. :class:`RoundIncomplete` while
        nobody went out or hands are missing; :class:`PendingChanged` when a hand arrived
        between reading and saving it."""
        self.check_open(info)
        pending = self.store.pending(info)
        incomplete = self._incomplete(info, pending, self.missing_hands(info, pending))
        if incomplete is not None:
            raise incomplete
        # its hands were checked, and unlikely points confirmed, as they arrived; the game
        # was found open above, closed by no later series (read once: a save is on the way
        # of every board's event)
        return self._record(info, pending.to_input(), pending=pending.revision, confirm=True)


def _pending_hand(hand: Hand) -> PendingHand:
    return PendingHand(canonical(hand.cards), hand.points, hand.never_out)


def _passes(check: Callable[[], object]) -> bool:
    try:
        check()
    except RommeError:
        return False
    return True
