"""The session service: what a front end may do to a game, with no Click, no printing
and no SQL, so that the command line, the table mode and every later front end call
the same code over any store (:mod:`romme_score.store`).

A front end parses its input, calls this service and hands the result to a view.
Errors are raised, never printed, and carry facts, never a front end's way out:
:class:`SessionRefused` (and the store's errors) for an action that is refused,
:class:`SessionInputError`, :class:`~romme_score.export.ExportError` and
:class:`~romme_score.scoring.RoundError` for input that cannot be used.

The service is one class, :class:`SessionService`, made of one part per idea, each its
own module:

- :mod:`~romme_score.sessions.base`: its life (the store opened and closed), sessions
  looked up, one transaction for a command, a session's version and state, whether its
  game is open, and the session's own record (created, noted, renamed, deleted);
- :mod:`~romme_score.sessions.hands`: reading hands and checking them as they arrive,
  the referee of every door (:func:`check_hand`, :func:`read_hands`);
- :mod:`~romme_score.sessions.reads`: the standings, the snapshot every door shows and
  the one settlement (:func:`settle_evening`);
- :mod:`~romme_score.sessions.rounds`: rounds saved, previewed, corrected and undone;
- :mod:`~romme_score.sessions.progress`: the round in progress, changed by one call
  (:meth:`~SessionService.change_round`) with its ``verify_*``/``can_*`` twins; the
  service's thin methods hand them to it, loaded with their first use (a command that only
  reads, ``romme standings``, never loads it);
- :mod:`~romme_score.sessions.changes`: what a door sends of it and gets back
  (:class:`RoundChange`, :class:`RoundState`), and its rules that need no database, the
  table mode's entry's referee (:class:`RoundReferee`);
- :mod:`~romme_score.sessions.service`: :class:`SessionService`, made of the parts above,
  with the phones' links and their writes applied once (write-once keys);
- :mod:`~romme_score.sessions.transfer`: a whole session exported and imported (loaded
  by export and import alone);
- :mod:`~romme_score.sessions.errors` and :mod:`~romme_score.sessions.results`: the
  errors it raises and the records it answers with.

The names the front ends use are here. Each is imported from its module when it is first
asked for (as :mod:`romme_score.tournament` does): a name of the service loads the
service's parts, never the export, which only export and import need (issue 28 item 3).

>>> from romme_score.sessions import SessionService
>>> [part.__name__ for part in SessionService.__mro__[1:-1]]
['Rounds', 'Reads', 'ServiceBase']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from romme_score.export import ExportError as ExportError
    from romme_score.export import ExportHand as ExportHand
    from romme_score.export import ExportRound as ExportRound
    from romme_score.export import SessionExport as SessionExport
    from romme_score.inputs import MAX_NOTE as MAX_NOTE
    from romme_score.sessions.base import HELD_RETRIES as HELD_RETRIES
    from romme_score.sessions.changes import RoundChange as RoundChange
    from romme_score.sessions.changes import RoundReferee as RoundReferee
    from romme_score.sessions.changes import RoundState as RoundState
    from romme_score.sessions.changes import RoundTaken as RoundTaken
    from romme_score.sessions.changes import TypedHand as TypedHand
    from romme_score.sessions.changes import hand_given as hand_given
    from romme_score.sessions.changes import round_of as round_of
    from romme_score.sessions.changes import went_out as went_out
    from romme_score.sessions.errors import AlreadyOut as AlreadyOut
    from romme_score.sessions.errors import GameOver as GameOver
    from romme_score.sessions.errors import GivenTwice as GivenTwice
    from romme_score.sessions.errors import HandForm as HandForm
    from romme_score.sessions.errors import KeyReused as KeyReused
    from romme_score.sessions.errors import NoSuchRound as NoSuchRound
    from romme_score.sessions.errors import NotEnded as NotEnded
    from romme_score.sessions.errors import OutNoHand as OutNoHand
    from romme_score.sessions.errors import RoundIncomplete as RoundIncomplete
    from romme_score.sessions.errors import SessionInputError as SessionInputError
    from romme_score.sessions.errors import SessionRefused as SessionRefused
    from romme_score.sessions.errors import TableNotEnded as TableNotEnded
    from romme_score.sessions.errors import TournamentMoney as TournamentMoney
    from romme_score.sessions.errors import UnlikelyPoints as UnlikelyPoints
    from romme_score.sessions.hands import ReadHands as ReadHands
    from romme_score.sessions.hands import check_hand as check_hand
    from romme_score.sessions.hands import first_over_supply as first_over_supply
    from romme_score.sessions.hands import read_hands as read_hands
    from romme_score.sessions.hands import typed_hand as typed_hand
    from romme_score.sessions.reads import DEFAULT_RATE as DEFAULT_RATE
    from romme_score.sessions.reads import DEFAULT_UNIT as DEFAULT_UNIT
    from romme_score.sessions.reads import leaderboard_with_bonus as leaderboard_with_bonus
    from romme_score.sessions.reads import settle_evening as settle_evening
    from romme_score.sessions.results import Correction as Correction
    from romme_score.sessions.results import Edited as Edited
    from romme_score.sessions.results import Ended as Ended
    from romme_score.sessions.results import Recorded as Recorded
    from romme_score.sessions.results import RoundRow as RoundRow
    from romme_score.sessions.results import SessionSummary as SessionSummary
    from romme_score.sessions.results import Settled as Settled
    from romme_score.sessions.results import SettlementInputs as SettlementInputs
    from romme_score.sessions.results import Snapshot as Snapshot
    from romme_score.sessions.results import Standings as Standings
    from romme_score.sessions.results import Undone as Undone
    from romme_score.sessions.service import SessionService as SessionService
    from romme_score.sessions.transfer import scored_rows as scored_rows
    from romme_score.store.errors import NotFound as NotFound
    from romme_score.store.errors import PendingChanged as PendingChanged
    from romme_score.store.records import PendingRound as PendingRound
    from romme_score.store.records import SessionInfo as SessionInfo

# Each name above, by the module that defines it (tests/test_architecture.py holds the two
# alike); the last ones are another module's, handed out here too.
EXPORTS = {
    "romme_score.sessions.base": ("HELD_RETRIES",),
    "romme_score.sessions.errors": (
        "AlreadyOut",
        "GameOver",
        "GivenTwice",
        "HandForm",
        "KeyReused",
        "NoSuchRound",
        "NotEnded",
        "OutNoHand",
        "RoundIncomplete",
        "SessionInputError",
        "SessionRefused",
        "TableNotEnded",
        "TournamentMoney",
        "UnlikelyPoints",
    ),
    "romme_score.sessions.hands": (
        "ReadHands",
        "check_hand",
        "first_over_supply",
        "read_hands",
        "typed_hand",
    ),
    "romme_score.sessions.changes": (
        "RoundChange",
        "RoundReferee",
        "RoundState",
        "RoundTaken",
        "TypedHand",
        "hand_given",
        "round_of",
        "went_out",
    ),
    "romme_score.sessions.reads": (
        "DEFAULT_RATE",
        "DEFAULT_UNIT",
        "leaderboard_with_bonus",
        "settle_evening",
    ),
    "romme_score.sessions.results": (
        "Correction",
        "Edited",
        "Ended",
        "Recorded",
        "RoundRow",
        "SessionSummary",
        "Settled",
        "SettlementInputs",
        "Snapshot",
        "Standings",
        "Undone",
    ),
    "romme_score.sessions.service": ("SessionService",),
    "romme_score.sessions.transfer": ("scored_rows",),
    "romme_score.export": ("ExportError", "ExportHand", "ExportRound", "SessionExport"),
    "romme_score.inputs": ("MAX_NOTE",),
    "romme_score.store.errors": ("NotFound", "PendingChanged"),
    "romme_score.store.records": ("PendingRound", "SessionInfo"),
}
_MODULE_OF = {name: module for module, names in EXPORTS.items() for name in names}

if not TYPE_CHECKING:  # type checkers read the imports above

    def __getattr__(name: str) -> Any:
        module = _MODULE_OF.get(name)
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        import importlib

        value = getattr(importlib.import_module(module), name)
        globals()[name] = value
        return value
