"""The errors of the session service: :class:`SessionRefused` for an action refused as
asked, :class:`SessionInputError` for input to an action that cannot be used. Each carries
a stable ``code`` and its facts (:mod:`romme_score.errors`); a front end words its way out."""

from __future__ import annotations

from collections.abc import Sequence

from romme_score.errors import InputProblem
from romme_score.i18n import _, shown
from romme_score.store import StoreError


class SessionRefused(StoreError):
    """A session action that is refused as asked (the game is over, nothing to undo, ...)."""


class GameOver(SessionRefused):
    """The session's game is over: no more rounds. ``winner`` is who won it (None: a tie);
    ``tournament`` the tournament whose table it is (None: a game of its own), so that a
    front end offers the way on that fits: a table waits for the next series. ``ended``:
    the table agreed to end it (``romme end``), which ``romme end --reopen`` takes back.
    ``series_drawn``: the table is closed, series ``series_drawn`` of its tournament being
    drawn after its own (issue 36 item 2: ``romme tournament draw --force``); it takes no
    write any more, and ``winner`` is None."""

    def __init__(
        self,
        session: str,
        winner: str | None,
        tournament: str | None = None,
        ended: bool = False,
        series_drawn: int | None = None,
    ) -> None:
        if series_drawn is not None:
            message = _(
                "the game of session '%(session)s' is closed since series %(series)d of tournament "
                "'%(tournament)s' was drawn"
            )
        elif winner:
            message = _("the game of session '%(session)s' is over (%(winner)s won)")
        else:
            message = _("the game of session '%(session)s' is over")
        super().__init__(
            message % {"session": session, "winner": winner, "series": series_drawn, "tournament": tournament}
        )
        self.session = session
        self.winner = winner
        self.tournament = tournament
        self.ended = ended
        self.series_drawn = series_drawn


class TableNotEnded(SessionRefused):
    """A tournament's table is not ended by agreement: how many games it plays is the
    tournament's to say (its ranking counts them), not the table's."""

    def __init__(self, session: str, tournament: str) -> None:
        super().__init__(
            _(
                "session '%(session)s' is a table of tournament '%(tournament)s': it plays the "
                "tournament's games and is not ended by agreement"
            )
            % {"session": session, "tournament": tournament}
        )
        self.session = session
        self.tournament = tournament


class NotEnded(SessionRefused):
    """``romme end --reopen`` of a game nobody ended by agreement: nothing to take back."""

    def __init__(self, session: str) -> None:
        super().__init__(
            _("the game of session '%(session)s' was not ended by agreement: there is nothing to take back")
            % {"session": session}
        )
        self.session = session


class TournamentMoney(SessionRefused):
    """A tournament's table is settled: its games carry no money, the tournament's money is
    its pot (entry fees and lost-game fees, paid out by place)."""

    def __init__(self, session: str, tournament: str) -> None:
        super().__init__(
            _(
                "session '%(session)s' is a table of tournament '%(tournament)s': its games carry no money, "
                "the money of a tournament is its pot"
            )
            % {"session": session, "tournament": tournament}
        )
        self.session = session
        self.tournament = tournament


class AlreadyOut(SessionRefused):
    """``player`` said they went out while ``winner``'s claim stands: who went out is one
    fact, and only the scorekeeper changes it."""

    def __init__(self, session: str, winner: str, player: str) -> None:
        super().__init__(
            _("%(winner)s has already gone out; the scorekeeper can change it") % {"winner": winner}
        )
        self.session = session
        self.winner = winner
        self.player = player


class OutNoHand(SessionRefused):
    """``player``'s own phone sent a hand while their claim to have gone out stands: who
    went out sends no cards left until the scorekeeper saves the round or changes who went
    out (the scorekeeper also types a winner's cards where 002 e/f take them)."""

    def __init__(self, session: str, player: str) -> None:
        super().__init__(
            _(
                "%(player)s went out: no hand is sent from their phone until the scorekeeper "
                "saves the round or changes who went out"
            )
            % {"player": player}
        )
        self.session = session
        self.player = player


class KeyReused(SessionRefused):
    """An idempotency key sent again with another write than the one applied under it
    (another path or body): nothing is done."""

    code = "key-reused"

    def __init__(self, key: str) -> None:
        super().__init__(
            _("the key %(key)s was sent before with another write; nothing was done") % {"key": key}
        )
        self.key = key


class UnlikelyPoints(SessionRefused):
    """Points counted by hand above :data:`~romme_score.scoring.UNLIKELY_POINTS` (``limit``)
    and not confirmed: rarely held, more often 320 typed for 32. Nothing is stored; each
    door confirms in its own way (the command line saves with a warning, the table mode
    asks once, a phone asks and sends again with ``"confirm": true``)."""

    code = "unlikely_points"

    def __init__(self, player: str, points: int, limit: int) -> None:
        super().__init__(
            _("%(player)s=%(points)d: more than %(limit)d points in one hand")
            % {"player": player, "points": points, "limit": limit}
        )
        self.player = player
        self.points = points
        self.limit = limit


class RoundIncomplete(SessionRefused):
    """The round in progress cannot be saved yet: nobody went out and it is no stalemate
    (``no_winner``), or the hands of ``missing`` have not arrived."""

    def __init__(self, session: str, missing: Sequence[str], no_winner: bool) -> None:
        if no_winner:
            message = _("nobody went out yet in the round in progress of '%(session)s'")
        else:
            message = _("the round in progress of '%(session)s' still needs the hands of %(players)s")
        super().__init__(message % {"session": session, "players": ", ".join(missing)})
        self.code = "no-winner" if no_winner else "missing-hands"
        self.session = session
        self.missing = tuple(missing)
        self.no_winner = no_winner


class SessionInputError(InputProblem):
    """Input to a session action that cannot be used (a bad name, a round that is not there)."""


class HandForm(SessionInputError):
    """A hand given as one word that is not ``NAME=CARDS`` or ``NAME=POINTS``."""

    def __init__(self, item: str, example: str) -> None:
        super().__init__(
            _("%(item)s needs the form NAME=CARDS or NAME=POINTS, e.g. %(example)s")
            % {"item": shown(item), "example": example}
        )
        self.item = item
        self.example = example


class GivenTwice(SessionInputError):
    """The same player's hand given twice in one round."""

    def __init__(self, player: str) -> None:
        super().__init__(_("%(name)s is given twice in this round") % {"name": player})
        self.player = player


class NoSuchRound(SessionInputError):
    """A round number the session does not have: ``played`` rounds it has (none: a game
    where no round has been played yet, said so rather than as 'rounds 1-0')."""

    def __init__(self, number: int, session: str, played: int) -> None:
        if played:
            message = _("there is no round %(number)d in session '%(session)s' (rounds 1-%(played)d)")
        else:
            message = _("there is no round %(number)d in session '%(session)s': no round has been played yet")
        super().__init__(message % {"number": number, "session": session, "played": played})
        self.number = number
        self.session = session
        self.played = played
