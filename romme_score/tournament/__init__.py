"""Tournaments and club evenings over several tables (docs/rules.md §10), in three modules:

- :mod:`~romme_score.tournament.rules`: the pure rules of §10 (the tables, the draws,
  the series results, the ranking, the teams, the prize money), no I/O;
- :mod:`~romme_score.tournament.options`: every number of §10 as an option, on the option
  machinery of the house rules (:mod:`romme_score.options`);
- :mod:`~romme_score.tournament.service`: the tournament service, beside the session
  service (:mod:`romme_score.sessions`).

The names the front ends use are here. Each is imported from its module when it is first
asked for: a command that reads the options alone needs neither the rules of the draw nor
the service (which imports the store). The store keeps the options as plain data and
imports nothing from here.

>>> from romme_score.tournament import table_sizes
>>> table_sizes(13)
[4, 3, 3, 3]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from romme_score.tournament.options import TOURNAMENT_OPTION_NAMES as TOURNAMENT_OPTION_NAMES
    from romme_score.tournament.options import Prize as Prize
    from romme_score.tournament.options import TournamentOptions as TournamentOptions
    from romme_score.tournament.options import build_tournament as build_tournament
    from romme_score.tournament.rules import MAX_SEED as MAX_SEED
    from romme_score.tournament.rules import Entrant as Entrant
    from romme_score.tournament.rules import Game as Game
    from romme_score.tournament.rules import TournamentInputError as TournamentInputError
    from romme_score.tournament.rules import read_entrant as read_entrant
    from romme_score.tournament.rules import read_players_file as read_players_file
    from romme_score.tournament.rules import table_results as table_results
    from romme_score.tournament.rules import table_sizes as table_sizes
    from romme_score.tournament.service import Drawn as Drawn
    from romme_score.tournament.service import MissingTable as MissingTable
    from romme_score.tournament.service import NoSeriesDrawn as NoSeriesDrawn
    from romme_score.tournament.service import Running as Running
    from romme_score.tournament.service import SeriesIncomplete as SeriesIncomplete
    from romme_score.tournament.service import Sheets as Sheets
    from romme_score.tournament.service import SheetTable as SheetTable
    from romme_score.tournament.service import TableNameTaken as TableNameTaken
    from romme_score.tournament.service import Tournament as Tournament
    from romme_score.tournament.service import TournamentPayout as TournamentPayout
    from romme_score.tournament.service import TournamentRefused as TournamentRefused
    from romme_score.tournament.service import TournamentService as TournamentService
    from romme_score.tournament.service import TournamentStandings as TournamentStandings
    from romme_score.tournament.service import Withdrawn as Withdrawn
    from romme_score.tournament.service import missing_text as missing_text

# Each name above, by the module that defines it (tests/test_architecture.py holds the two alike).
EXPORTS = {
    "options": ("TOURNAMENT_OPTION_NAMES", "Prize", "TournamentOptions", "build_tournament"),
    "rules": (
        "MAX_SEED",
        "Entrant",
        "Game",
        "TournamentInputError",
        "read_entrant",
        "read_players_file",
        "table_results",
        "table_sizes",
    ),
    "service": (
        "Drawn",
        "MissingTable",
        "NoSeriesDrawn",
        "Running",
        "SeriesIncomplete",
        "Sheets",
        "SheetTable",
        "TableNameTaken",
        "Tournament",
        "TournamentPayout",
        "TournamentRefused",
        "TournamentService",
        "TournamentStandings",
        "Withdrawn",
        "missing_text",
    ),
}
_MODULE_OF = {name: module for module, names in EXPORTS.items() for name in names}

if not TYPE_CHECKING:  # type checkers read the imports above

    def __getattr__(name: str) -> Any:
        module = _MODULE_OF.get(name)
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        import importlib

        value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
        globals()[name] = value
        return value
